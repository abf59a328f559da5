//! Passphrases: campaign files hold only argon2id hashes in the PHC string
//! form (`$argon2id$v=19$m=...,t=...,p=...$salt$hash`), never a passphrase.

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

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
    is_phc(phc)
        && Argon2::default()
            .verify_password(passphrase.as_bytes(), phc)
            .is_ok()
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
}
