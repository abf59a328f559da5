//! A 32-byte SHA-256 digest, shown and stored as lower-case hex.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};
use std::fmt;

/// A SHA-256 digest. The type is shared by secrets, commitments, seeds and the
/// digests of orders, manifests and states, which all are 32 bytes.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Digest32(pub [u8; 32]);

impl Digest32 {
    /// The all-zero value, used where the spec says "32 zero bytes".
    pub const ZERO: Digest32 = Digest32([0; 32]);

    /// SHA-256 of `bytes`.
    pub fn of(bytes: &[u8]) -> Digest32 {
        Digest32(Sha256::digest(bytes).into())
    }

    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// Parses 64 hex digits (either case).
    pub fn from_hex(text: &str) -> Result<Digest32, DigestParseError> {
        let mut out = [0u8; 32];
        hex::decode_to_slice(text.trim(), &mut out).map_err(|_| DigestParseError {
            text: text.chars().take(80).collect(),
        })?;
        Ok(Digest32(out))
    }
}

/// The text was not 64 hex digits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a 32-byte value in hex (64 hex digits)")]
pub struct DigestParseError {
    pub text: String,
}

impl fmt::Display for Digest32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Digest32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest32({})", self.to_hex())
    }
}

impl Serialize for Digest32 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Digest32 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Digest32::from_hex(&text).map_err(serde::de::Error::custom)
    }
}
