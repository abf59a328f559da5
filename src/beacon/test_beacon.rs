//! A beacon of one's own, for tests and the offline demo only: it signs
//! rounds exactly as a drand chain of the `bls-unchained-g1-rfc9380` scheme
//! does, with a key made from a seed, so that rounds it signs verify against
//! its own network and against nothing else. Its rounds carry no public
//! guarantee whatever: whoever holds the seed knows every round in advance.

use std::fmt;

use blst::min_sig::SecretKey;
use sha2::{Digest, Sha256};

use super::error::BeaconError;
use super::network::{Network, Scheme};
use super::verify::{DST_G1, SignedRound, round_message};

/// The beacon id of every test network, so that none is mistaken for a
/// drand chain in an archive.
pub const TEST_BEACON_ID: &str = "adjutant-test";

/// A signer for a test chain. For tests and demos only (see the module).
pub struct TestBeacon {
    secret: SecretKey,
    network: Network,
}

impl TestBeacon {
    /// Makes the key from `seed` (the IETF BLS KeyGen, as blst implements
    /// it) and the network around its public key. The same seed always
    /// gives the same key and chain hash.
    pub fn from_seed(
        seed: [u8; 32],
        genesis_time: i64,
        period_secs: u32,
    ) -> Result<TestBeacon, BeaconError> {
        let secret = SecretKey::key_gen(&seed, &[]).map_err(|e| BeaconError::BadNetwork {
            reason: format!("cannot make a test key: {e:?}"),
        })?;
        let public_key = secret.sk_to_pk().compress();
        // Any 32 bytes do for a group hash; deriving them from the key keeps
        // two test chains with the same schedule apart.
        let mut h = Sha256::new();
        h.update(b"adjutant-test-beacon-group");
        h.update(public_key);
        let group_hash: [u8; 32] = h.finalize().into();
        let network = Network::new(
            Scheme::UnchainedG1Rfc9380,
            public_key,
            period_secs,
            genesis_time,
            group_hash,
            TEST_BEACON_ID,
        )?;
        Ok(TestBeacon { secret, network })
    }

    /// The chain this beacon signs for.
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// Round `round`, signed.
    pub fn sign(&self, round: u64) -> SignedRound {
        let signature = self
            .secret
            .sign(&round_message(round), DST_G1, &[])
            .compress();
        SignedRound { round, signature }
    }
}

impl fmt::Debug for TestBeacon {
    /// The network only: the key stays out of logs and panic messages.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TestBeacon")
            .field("network", &self.network)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::super::network::QUICKNET;
    use super::super::verify::verify;
    use super::*;

    fn beacon(seed_byte: u8) -> TestBeacon {
        TestBeacon::from_seed([seed_byte; 32], 1_700_000_000, 3).expect("valid test beacon")
    }

    #[test]
    fn its_rounds_verify_against_its_own_network() {
        let b = beacon(1);
        for round in [1, 2, 123, u64::MAX] {
            let signed = b.sign(round);
            assert!(verify(b.network(), &signed).is_ok(), "round {round}");
        }
    }

    #[test]
    fn its_rounds_do_not_verify_elsewhere_or_for_another_round() {
        let a = beacon(1);
        let b = beacon(2);
        let signed = a.sign(7);
        assert!(verify(b.network(), &signed).is_err());
        assert!(verify(&QUICKNET, &signed).is_err());
        assert!(verify(a.network(), &SignedRound { round: 8, ..signed }).is_err());
    }

    #[test]
    fn the_same_seed_gives_the_same_chain_and_signatures() {
        assert_eq!(beacon(5).network(), beacon(5).network());
        assert_eq!(beacon(5).sign(3), beacon(5).sign(3));
        assert_ne!(
            beacon(5).network().chain_hash(),
            beacon(6).network().chain_hash()
        );
        assert_ne!(beacon(5).sign(3), beacon(5).sign(4));
    }

    #[test]
    fn its_network_is_a_checked_one_with_the_test_id() {
        let b = beacon(9);
        assert_eq!(b.network().beacon_id(), TEST_BEACON_ID);
        let back =
            Network::from_info_json(b.network().to_info_json().as_bytes()).expect("its info");
        assert_eq!(&back, b.network());
        assert!(TestBeacon::from_seed([9; 32], 0, 0).is_err(), "zero period");
    }

    #[test]
    fn debug_does_not_show_the_key() {
        let text = format!("{:?}", beacon(3));
        assert!(
            text.contains("adjutant-test") && !text.contains("secret"),
            "{text}"
        );
    }
}
