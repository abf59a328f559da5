//! Checks a round's BLS signature offline, and derives its randomness.
//!
//! For `bls-unchained-g1-rfc9380` the signed message is SHA-256 of the round
//! number as a big-endian u64, hashed to G1 with the domain separation tag
//! below, and checked against the chain's public key on G2. The randomness is
//! SHA-256 of the 48-byte compressed signature, as drand defines it, so it is
//! only ever taken from a signature that verified.

use std::fmt;

use blst::BLST_ERROR;
use blst::min_sig::{PublicKey, Signature};
use sha2::{Digest, Sha256};

use super::error::BeaconError;
use super::network::{Network, Scheme};

/// Bytes of a compressed G1 point: a round's signature.
pub const SIGNATURE_LEN: usize = 48;

/// The hash-to-curve domain separation tag of drand's G1 signatures.
pub const DST_G1: &[u8] = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";

/// One round of a chain as a relay serves it and an archive records it: all
/// that is needed, with the network, to check it again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SignedRound {
    pub round: u64,
    /// The compressed BLS signature.
    pub signature: [u8; SIGNATURE_LEN],
}

impl SignedRound {
    /// Reads a signature written in hex (either case), as relays and archives
    /// write it.
    pub fn from_hex(round: u64, signature_hex: &str) -> Result<SignedRound, BeaconError> {
        let mut signature = [0u8; SIGNATURE_LEN];
        hex::decode_to_slice(signature_hex.trim(), &mut signature).map_err(|e| {
            BeaconError::BadSignature {
                round,
                reason: format!("the signature is not {SIGNATURE_LEN} bytes of hex: {e}"),
            }
        })?;
        Ok(SignedRound { round, signature })
    }

    /// The signature in lower-case hex.
    pub fn signature_hex(&self) -> String {
        hex::encode(self.signature)
    }
}

/// A round's public randomness: SHA-256 of its verified signature. Only
/// [`verify`] makes one outside this module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Randomness([u8; 32]);

impl Randomness {
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }
}

impl fmt::Display for Randomness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// Checks `signed` against `network`'s public key, with the subgroup checks
/// of both points on, and returns the round's randomness.
pub fn verify(network: &Network, signed: &SignedRound) -> Result<Randomness, BeaconError> {
    let bad = |reason: String| BeaconError::BadSignature {
        round: signed.round,
        reason,
    };
    match network.scheme() {
        Scheme::UnchainedG1Rfc9380 => {
            let key = public_key(network.scheme(), network.public_key())?;
            let signature = Signature::uncompress(&signed.signature)
                .map_err(|e| bad(format!("not a compressed G1 point ({})", name(e))))?;
            // The identity would be a "signature" of nothing; refuse it
            // before the pairing, together with a point off the subgroup.
            signature
                .validate(true)
                .map_err(|e| bad(format!("not a valid signature point ({})", name(e))))?;
            let message = round_message(signed.round);
            match signature.verify(true, &message, DST_G1, &[], &key, true) {
                BLST_ERROR::BLST_SUCCESS => Ok(randomness_of(&signed.signature)),
                e => Err(bad(format!(
                    "it does not verify against chain {} ({})",
                    network.chain_hash_hex(),
                    name(e)
                ))),
            }
        }
    }
}

/// The message drand signs for `round` in the unchained schemes.
pub fn round_message(round: u64) -> [u8; 32] {
    Sha256::digest(round.to_be_bytes()).into()
}

/// SHA-256 of a signature: the randomness once the signature has verified,
/// and what a relay's `randomness` field must equal.
pub(crate) fn randomness_of(signature: &[u8; SIGNATURE_LEN]) -> Randomness {
    Randomness(Sha256::digest(signature).into())
}

/// Fails unless `key` is a valid public key of `scheme` (on the curve, in the
/// subgroup, not the identity). `Network::new` calls it, so that a network
/// with an unusable key is refused where it is read, not at the first round.
pub(crate) fn check_public_key(scheme: Scheme, key: &[u8]) -> Result<(), BeaconError> {
    public_key(scheme, key).map(|_| ())
}

fn public_key(scheme: Scheme, key: &[u8]) -> Result<PublicKey, BeaconError> {
    match scheme {
        Scheme::UnchainedG1Rfc9380 => {
            PublicKey::key_validate(key).map_err(|e| BeaconError::BadNetwork {
                reason: format!("the public key is not a valid G2 point ({})", name(e)),
            })
        }
    }
}

/// A word for blst's error codes, for the messages above.
fn name(e: BLST_ERROR) -> &'static str {
    match e {
        BLST_ERROR::BLST_SUCCESS => "success",
        BLST_ERROR::BLST_BAD_ENCODING => "bad encoding",
        BLST_ERROR::BLST_POINT_NOT_ON_CURVE => "point not on the curve",
        BLST_ERROR::BLST_POINT_NOT_IN_GROUP => "point not in the subgroup",
        BLST_ERROR::BLST_AGGR_TYPE_MISMATCH => "aggregate type mismatch",
        BLST_ERROR::BLST_VERIFY_FAIL => "verification failed",
        BLST_ERROR::BLST_PK_IS_INFINITY => "point at infinity",
        BLST_ERROR::BLST_BAD_SCALAR => "bad scalar",
    }
}

#[cfg(test)]
mod tests {
    use super::super::network::QUICKNET;
    use super::*;

    /// Round 123 of quicknet as drand published it.
    const ROUND_123_SIGNATURE: &str = "b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92";

    fn round_123() -> SignedRound {
        SignedRound::from_hex(123, ROUND_123_SIGNATURE).expect("48 bytes of hex")
    }

    #[test]
    fn quicknet_round_123_verifies_and_its_randomness_is_the_hash_of_its_signature() {
        let signed = round_123();
        let randomness = verify(&QUICKNET, &signed).expect("drand's published round verifies");
        let bytes = hex::decode(ROUND_123_SIGNATURE).expect("hex");
        let expected: [u8; 32] = Sha256::digest(&bytes).into();
        assert_eq!(randomness.as_bytes(), &expected);
        assert_eq!(randomness.to_hex(), hex::encode(expected));
        assert_eq!(randomness.to_string(), randomness.to_hex());
    }

    #[test]
    fn the_same_signature_does_not_verify_for_round_124() {
        let signed = SignedRound {
            round: 124,
            ..round_123()
        };
        let err = verify(&QUICKNET, &signed).expect_err("signed for 123, not 124");
        assert!(
            matches!(err, BeaconError::BadSignature { round: 124, .. }),
            "{err:?}"
        );
    }

    #[test]
    fn no_single_changed_byte_verifies() {
        // Every byte, so that both the point decoding and the pairing are
        // reached: most changes leave the curve, some land on another point.
        for i in 0..SIGNATURE_LEN {
            let mut signed = round_123();
            signed.signature[i] ^= 0x01;
            let err = verify(&QUICKNET, &signed).expect_err("a changed signature");
            assert!(
                matches!(err, BeaconError::BadSignature { round: 123, .. }),
                "byte {i}: {err:?}"
            );
        }
    }

    #[test]
    fn the_identity_is_refused_as_a_signature() {
        let mut signature = [0u8; SIGNATURE_LEN];
        signature[0] = 0xc0;
        let err = verify(
            &QUICKNET,
            &SignedRound {
                round: 1,
                signature,
            },
        )
        .expect_err("identity");
        assert!(err.to_string().contains("infinity"), "{err}");
    }

    #[test]
    fn hex_of_the_wrong_length_or_alphabet_is_refused() {
        assert!(SignedRound::from_hex(1, &ROUND_123_SIGNATURE[2..]).is_err());
        assert!(SignedRound::from_hex(1, &format!("{ROUND_123_SIGNATURE}00")).is_err());
        assert!(SignedRound::from_hex(1, &ROUND_123_SIGNATURE.replace('b', "g")).is_err());
        let upper =
            SignedRound::from_hex(123, &ROUND_123_SIGNATURE.to_uppercase()).expect("either case");
        assert_eq!(upper, round_123());
        assert_eq!(upper.signature_hex(), ROUND_123_SIGNATURE);
    }

    #[test]
    fn the_round_message_is_the_hash_of_the_big_endian_round() {
        let m = round_message(123);
        let expected: [u8; 32] = Sha256::digest([0, 0, 0, 0, 0, 0, 0, 123]).into();
        assert_eq!(m, expected);
    }
}
