//! Passphrase hashes of argon2id's smallest cost, for tests only, never for
//! a campaign: at the default cost a debug build spends seconds on the
//! passphrases of a Maildir of mail, or of a thousand campaigns registered.

#![allow(dead_code)]

/// The PHC string of `passphrase` hashed at argon2id's smallest cost with
/// `salt` (at least 8 bytes), as a campaign file's `passphrase_hash` holds.
pub fn cheap_hash(passphrase: &str, salt: &[u8]) -> String {
    use argon2::password_hash::PasswordHasher;
    argon2::Argon2::new(
        argon2::Algorithm::Argon2id,
        argon2::Version::V0x13,
        argon2::Params::new(8, 1, 1, None).expect("argon2 parameters"),
    )
    .hash_password_with_salt(passphrase.as_bytes(), salt)
    .expect("hashes")
    .to_string()
}
