//! Passphrases: campaign files hold only argon2id hashes in the PHC string
//! form (`$argon2id$v=19$m=...,t=...,p=...$salt$hash`), never a passphrase.

use argon2::password_hash::PasswordHasher;
use argon2::password_hash::phc::PasswordHash;
use argon2::{Algorithm, Argon2, Block, Params, Version};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Bytes of salt: 16, the length the PHC string format recommends.
const SALT_BYTES: usize = 16;

/// Why a passphrase could not be hashed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HashError {
    /// The operating system gave no random bytes for the salt.
    #[error("no random salt from the operating system: {0}")]
    Salt(getrandom::Error),
    /// argon2 refused the input (an empty passphrase is allowed; this is
    /// for parameters or lengths out of its range).
    #[error("argon2 could not hash the passphrase: {0}")]
    Argon2(argon2::password_hash::Error),
}

/// Hashes a passphrase with argon2id and the crate's default cost, with a
/// fresh random salt, as a PHC string.
pub fn hash(passphrase: &str) -> Result<String, HashError> {
    let mut salt = [0u8; SALT_BYTES];
    getrandom::fill(&mut salt).map_err(HashError::Salt)?;
    Argon2::default()
        .hash_password_with_salt(passphrase.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(HashError::Argon2)
}

/// Whether `passphrase` is the one `phc` was made from. A string that is not
/// an argon2 PHC hash matches nothing. The cost and variant are read from
/// the hash, so hashes made with other settings still verify.
pub fn verify(passphrase: &str, phc: &str) -> bool {
    Verifier::default().verify(passphrase, phc)
}

/// Checks passphrases one after another in the same working memory.
///
/// argon2 works through some 19 MiB at the default cost; fresh memory for
/// each check is memory the kernel must find and zero first, about a quarter
/// of the check's time. A verifier keeps its memory for the next check, so
/// a batch checked on one thread pays for it once.
#[derive(Default)]
pub struct Verifier {
    memory: Vec<Block>,
}

impl Verifier {
    /// As [`verify`], in this verifier's memory.
    pub fn verify(&mut self, passphrase: &str, phc: &str) -> bool {
        if !is_phc(phc) {
            return false;
        }
        let Ok(parsed) = PasswordHash::new(phc) else {
            return false;
        };
        let (Some(salt), Some(expected)) = (&parsed.salt, &parsed.hash) else {
            return false;
        };
        let Ok(algorithm) = Algorithm::try_from(parsed.algorithm.as_str()) else {
            return false;
        };
        let version = match parsed.version.map(Version::try_from).transpose() {
            Ok(v) => v.unwrap_or_default(),
            Err(_) => return false,
        };
        let Ok(params) = Params::try_from(&parsed) else {
            return false;
        };
        let blocks = params.block_count();
        if self.memory.len() < blocks {
            self.memory.resize(blocks, Block::new());
        }
        let expected = expected.as_bytes();
        let mut computed = vec![0u8; expected.len()];
        let worked = Argon2::new(algorithm, version, params)
            .hash_password_into_with_memory(
                passphrase.as_bytes(),
                salt,
                &mut computed,
                &mut self.memory[..blocks],
            )
            .is_ok();
        worked && same_in_constant_time(&computed, expected)
    }
}

/// Passphrases found right since the program started, so that a player's
/// next message is not held up by argon2 again (as a mail server's
/// authentication cache spares its users).
///
/// Only a keyed digest is kept, one for each hash, under a key drawn at
/// random when the program starts and never written anywhere; a passphrase
/// that is not the remembered one still goes through argon2, so a wrong
/// guess costs what it always did, and a right one is answered sooner,
/// which its reply says anyway. A new hash (a passphrase changed in the
/// campaign file) finds nothing remembered.
pub struct Remembered {
    /// `None` where the system gave no random key: nothing is remembered.
    key: Option<[u8; 32]>,
    known: Mutex<BTreeMap<String, [u8; 32]>>,
}

/// Hashes remembered at most; past this the memory starts again empty (a
/// host's campaigns have far fewer people).
const REMEMBERED_AT_MOST: usize = 100_000;

impl Default for Remembered {
    fn default() -> Remembered {
        let mut key = [0u8; 32];
        Remembered {
            key: getrandom::fill(&mut key).ok().map(|()| key),
            known: Mutex::default(),
        }
    }
}

impl std::fmt::Debug for Remembered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Remembered").finish_non_exhaustive()
    }
}

impl Remembered {
    /// Remembers nothing: every check goes through argon2 (to measure the
    /// path a player's first message takes).
    pub fn nothing() -> Remembered {
        Remembered {
            key: None,
            known: Mutex::default(),
        }
    }

    fn mark(key: &[u8; 32], passphrase: &str, phc: &str) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(key);
        h.update((phc.len() as u64).to_be_bytes());
        h.update(phc.as_bytes());
        h.update(passphrase.as_bytes());
        h.finalize().into()
    }

    /// Whether `passphrase` was found right for `phc` before.
    pub fn knows(&self, passphrase: &str, phc: &str) -> bool {
        let Some(key) = &self.key else {
            return false;
        };
        let Ok(known) = self.known.lock() else {
            return false;
        };
        known
            .get(phc)
            .is_some_and(|mark| same_in_constant_time(mark, &Self::mark(key, passphrase, phc)))
    }

    /// Notes that `passphrase` was found right for `phc`.
    pub fn remember(&self, passphrase: &str, phc: &str) {
        let Some(key) = &self.key else {
            return;
        };
        if let Ok(mut known) = self.known.lock() {
            if known.len() >= REMEMBERED_AT_MOST {
                known.clear();
            }
            known.insert(phc.to_string(), Self::mark(key, passphrase, phc));
        }
    }
}

/// Whether two byte strings are equal, in a time that depends on their
/// length only, so that how long a refusal takes tells nothing of how near
/// a guess came.
fn same_in_constant_time(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether `s` is an argon2 hash in PHC string form, with its salt and its
/// hash: what a campaign file must hold in place of a passphrase.
pub fn is_phc(s: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(s) else {
        return false;
    };
    matches!(
        parsed.algorithm.as_str(),
        "argon2id" | "argon2i" | "argon2d"
    ) && parsed.salt.is_some()
        && parsed.hash.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_own_passphrase_only() {
        let phc = hash("vive-l-empereur").expect("a hash");
        assert!(phc.starts_with("$argon2id$v=19$"));
        assert!(is_phc(&phc));
        assert!(verify("vive-l-empereur", &phc));
        assert!(!verify("vive-l-empereur ", &phc));
        assert!(!verify("", &phc));
    }

    #[test]
    fn two_hashes_of_one_passphrase_differ_by_their_salt() {
        let a = hash("same").expect("a hash");
        let b = hash("same").expect("a hash");
        assert_ne!(a, b);
        assert!(verify("same", &a) && verify("same", &b));
    }

    #[test]
    fn a_known_hash_verifies() {
        // Made once with the salt "saltsaltsaltsalt": it pins the variant,
        // the default cost and the string form against a later crate update,
        // which would otherwise lock every player out of a running campaign.
        let phc = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$hQfDmcMPOeOEijGEVeKrPy/MLHle0XijZ4kvjqWjeRk";
        assert!(is_phc(phc));
        let recomputed = Argon2::default()
            .hash_password_with_salt(b"gott-erhalte", b"saltsaltsaltsalt")
            .expect("a hash")
            .to_string();
        assert_eq!(recomputed, phc);
        assert!(verify("gott-erhalte", phc));
        assert!(!verify("gott-erhalte!", phc));
    }

    #[test]
    fn what_is_not_a_phc_hash() {
        assert!(!is_phc("vive-l-empereur"));
        assert!(!is_phc(""));
        assert!(!is_phc("$argon2id$v=19$m=19456,t=2,p=1"));
        // A PHC string of another algorithm is not an argon2 hash.
        assert!(!is_phc(
            "$pbkdf2-sha256$i=1000$c2FsdHNhbHRzYWx0c2FsdA$H0Cw7Nm0PrHF7CAcJjS8D5Jc4kUpPBoEK1XPeAtq0yo"
        ));
        assert!(!verify("anything", "not a hash"));
    }

    #[test]
    fn one_verifier_checks_hashes_of_different_costs_in_turn() {
        let cheap = "$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHRzYWx0c2FsdA$";
        let cheap = format!(
            "{cheap}{}",
            Argon2::new(
                Algorithm::Argon2id,
                Version::V0x13,
                Params::new(64, 1, 1, Some(32)).expect("params"),
            )
            .hash_password_with_salt(b"marengo", b"saltsaltsaltsalt")
            .expect("a hash")
            .hash
            .expect("an output")
        );
        let usual = hash("austerlitz").expect("a hash");
        let mut verifier = Verifier::default();
        for _ in 0..2 {
            assert!(verifier.verify("austerlitz", &usual));
            assert!(verifier.verify("marengo", &cheap), "{cheap}");
            assert!(!verifier.verify("marengo", &usual));
            assert!(!verifier.verify("austerlitz", &cheap));
        }
    }

    #[test]
    fn a_passphrase_found_right_is_remembered_for_its_hash_only() {
        let first = hash("austerlitz").expect("a hash");
        let changed = hash("austerlitz").expect("a hash");
        let memory = Remembered::default();
        assert!(!memory.knows("austerlitz", &first));
        memory.remember("austerlitz", &first);
        assert!(memory.knows("austerlitz", &first));
        assert!(!memory.knows("austerlitz!", &first));
        assert!(!memory.knows("", &first));
        // The same passphrase hashed anew (the campaign file changed) is
        // checked again.
        assert!(!memory.knows("austerlitz", &changed));
        let forgetful = Remembered::nothing();
        forgetful.remember("austerlitz", &first);
        assert!(!forgetful.knows("austerlitz", &first));
    }

    #[test]
    fn equal_bytes_in_constant_time() {
        assert!(same_in_constant_time(b"abc", b"abc"));
        assert!(!same_in_constant_time(b"abc", b"abd"));
        assert!(!same_in_constant_time(b"abc", b"ab"));
        assert!(same_in_constant_time(b"", b""));
    }
}
