//! A drand network's public parameters, and the chain hash that names them.
//!
//! drand names a chain by the SHA-256 of its parameters: the period in
//! seconds (u32, big-endian), the genesis time (i64, big-endian), the
//! compressed public key, the group hash (drand's "genesis seed"), and the
//! beacon id unless it is empty or `default`. Re-deriving it here means that
//! whoever holds only the 32-byte chain hash can check every other parameter
//! a relay serves, the public key above all.

use std::borrow::Cow;
use std::fmt;

use sha2::{Digest, Sha256};

use super::error::BeaconError;

/// Bytes of a compressed G2 point: the public key of the G1-signature schemes.
pub const PUBLIC_KEY_LEN: usize = 96;

/// The signature schemes this module can verify.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Scheme {
    /// drand's "quicknet" scheme: unchained rounds, signatures on G1 (48
    /// bytes), public key on G2 (96 bytes), hashed to the curve as RFC 9380
    /// says, with the message SHA-256(round as u64 big-endian).
    UnchainedG1Rfc9380,
}

impl Scheme {
    /// The scheme's name as drand writes it (`schemeID` in a chain's info).
    pub const fn id(self) -> &'static str {
        match self {
            Scheme::UnchainedG1Rfc9380 => "bls-unchained-g1-rfc9380",
        }
    }

    /// The scheme drand names `id`, if this module supports it.
    pub fn from_id(id: &str) -> Result<Scheme, BeaconError> {
        match id {
            "bls-unchained-g1-rfc9380" => Ok(Scheme::UnchainedG1Rfc9380),
            other => Err(BeaconError::BadNetwork {
                reason: format!(
                    "unsupported scheme {other:?} (supported: bls-unchained-g1-rfc9380)"
                ),
            }),
        }
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The public parameters of one drand chain. Built only through
/// [`Network::new`] (or [`Network::from_info_json`]), which check them and
/// derive the chain hash, or as the [`QUICKNET`] constant, whose chain hash a
/// test re-derives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Network {
    chain_hash: [u8; 32],
    scheme: Scheme,
    public_key: [u8; PUBLIC_KEY_LEN],
    period_secs: u32,
    genesis_time: i64,
    group_hash: [u8; 32],
    beacon_id: Cow<'static, str>,
}

/// drand's "quicknet" mainnet chain (League of Entropy), one round every three
/// seconds since 2023-08-23, as published by drand.
pub const QUICKNET: Network = Network {
    chain_hash: hex_array("52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"),
    scheme: Scheme::UnchainedG1Rfc9380,
    public_key: hex_array(
        "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
    ),
    period_secs: 3,
    genesis_time: 1692803367,
    group_hash: hex_array("f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e"),
    beacon_id: Cow::Borrowed("quicknet"),
};

/// The public drand networks adjutant knows, by name, each built in with
/// every parameter (so by its chain hash): a beacon protects a campaign only
/// if nobody in it holds the network's key, and a network given by its
/// `/info` alone could be one the game master runs (docs/AUDIT.md, 11.6).
/// drand's League of Entropy mainnet runs one network of the only scheme
/// supported here, quicknet: its `default` and `fastnet` chains sign another
/// way (chained, or on G2), and `evmnet` on another curve.
pub const KNOWN_NETWORKS: &[(&str, &Network)] = &[("quicknet", &QUICKNET)];

/// The name of the known public network whose chain hash is `chain_hash`.
pub fn known_name(chain_hash: &[u8; 32]) -> Option<&'static str> {
    KNOWN_NETWORKS
        .iter()
        .find(|(_, n)| n.chain_hash() == chain_hash)
        .map(|(name, _)| *name)
}

/// The known public network called `name`.
pub fn known_by_name(name: &str) -> Option<&'static Network> {
    KNOWN_NETWORKS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, network)| *network)
}

impl Network {
    /// The name of this network among the known public ones, if it is one.
    pub fn known_name(&self) -> Option<&'static str> {
        known_name(&self.chain_hash)
    }

    /// Checks a chain's parameters and derives its chain hash: the period must
    /// be at least one second, the genesis time not before 1970, and the
    /// public key a point of the right group (not the identity).
    pub fn new(
        scheme: Scheme,
        public_key: [u8; PUBLIC_KEY_LEN],
        period_secs: u32,
        genesis_time: i64,
        group_hash: [u8; 32],
        beacon_id: &str,
    ) -> Result<Network, BeaconError> {
        if period_secs == 0 {
            return Err(BeaconError::BadNetwork {
                reason: "the period is zero".to_string(),
            });
        }
        // The schedule's arithmetic relies on it (see `schedule`), and no
        // drand chain started before 1970.
        if genesis_time < 0 {
            return Err(BeaconError::BadNetwork {
                reason: format!("the genesis time {genesis_time} is before 1970"),
            });
        }
        super::verify::check_public_key(scheme, &public_key)?;
        let chain_hash = chain_hash_of(
            period_secs,
            genesis_time,
            &public_key,
            &group_hash,
            beacon_id,
        );
        Ok(Network {
            chain_hash,
            scheme,
            public_key,
            period_secs,
            genesis_time,
            group_hash,
            beacon_id: Cow::Owned(beacon_id.to_string()),
        })
    }

    /// The 32 bytes that name the chain; relays serve it under its hex.
    pub fn chain_hash(&self) -> &[u8; 32] {
        &self.chain_hash
    }

    /// The chain hash in lower-case hex, as in a relay's URLs.
    pub fn chain_hash_hex(&self) -> String {
        hex::encode(self.chain_hash)
    }

    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The group's public key, compressed.
    pub fn public_key(&self) -> &[u8; PUBLIC_KEY_LEN] {
        &self.public_key
    }

    /// Seconds between two rounds.
    pub fn period_secs(&self) -> u32 {
        self.period_secs
    }

    /// Unix time (seconds) at which round 1 is published.
    pub fn genesis_time(&self) -> i64 {
        self.genesis_time
    }

    /// drand's group hash ("genesis seed"); only the chain hash uses it.
    pub fn group_hash(&self) -> &[u8; 32] {
        &self.group_hash
    }

    /// drand's beacon id (`quicknet`); only the chain hash uses it.
    pub fn beacon_id(&self) -> &str {
        &self.beacon_id
    }

    /// Fails unless this is the chain named `expected`: what a relay serves
    /// must be checked against the chain hash the campaign committed to.
    pub fn expect_chain_hash(&self, expected: &[u8; 32]) -> Result<(), BeaconError> {
        if &self.chain_hash == expected {
            Ok(())
        } else {
            Err(BeaconError::BadNetwork {
                reason: format!(
                    "the chain is {}, not the expected {}",
                    self.chain_hash_hex(),
                    hex::encode(expected)
                ),
            })
        }
    }
}

/// drand's chain hash (see the module's comment for the layout).
fn chain_hash_of(
    period_secs: u32,
    genesis_time: i64,
    public_key: &[u8],
    group_hash: &[u8; 32],
    beacon_id: &str,
) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(period_secs.to_be_bytes());
    h.update(genesis_time.to_be_bytes());
    h.update(public_key);
    h.update(group_hash);
    // drand leaves the default beacon's id out, so that the chains made
    // before ids existed kept their hash.
    if !beacon_id.is_empty() && beacon_id != "default" {
        h.update(beacon_id.as_bytes());
    }
    h.finalize().into()
}

/// Decodes a lower-case hex literal at compile time, for the constants above;
/// a malformed literal stops the build.
const fn hex_array<const N: usize>(text: &str) -> [u8; N] {
    let b = text.as_bytes();
    assert!(b.len() == 2 * N, "hex literal of the wrong length");
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = (nibble(b[2 * i]) << 4) | nibble(b[2 * i + 1]);
        i += 1;
    }
    out
}

const fn nibble(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => panic!("not a lower-case hex digit"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quicknet_rebuilt() -> Result<Network, BeaconError> {
        Network::new(
            QUICKNET.scheme(),
            *QUICKNET.public_key(),
            QUICKNET.period_secs(),
            QUICKNET.genesis_time(),
            *QUICKNET.group_hash(),
            QUICKNET.beacon_id(),
        )
    }

    #[test]
    fn quicknet_chain_hash_is_derived_from_its_published_parameters() {
        let rebuilt = quicknet_rebuilt().expect("quicknet's parameters are valid");
        assert_eq!(
            rebuilt.chain_hash_hex(),
            "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
        );
        assert_eq!(rebuilt, QUICKNET);
    }

    #[test]
    fn constants_decode_to_the_published_hex() {
        assert_eq!(
            hex::encode(QUICKNET.public_key()),
            "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a"
        );
        assert_eq!(QUICKNET.period_secs(), 3);
        assert_eq!(QUICKNET.genesis_time(), 1692803367);
        assert_eq!(QUICKNET.scheme().id(), "bls-unchained-g1-rfc9380");
    }

    #[test]
    fn every_parameter_changes_the_chain_hash() {
        let q = &QUICKNET;
        let base = q.chain_hash;
        let other_period = Network::new(
            q.scheme,
            q.public_key,
            30,
            q.genesis_time,
            q.group_hash,
            "quicknet",
        );
        let other_genesis = Network::new(
            q.scheme,
            q.public_key,
            3,
            q.genesis_time + 1,
            q.group_hash,
            "quicknet",
        );
        let mut group = q.group_hash;
        group[0] ^= 1;
        let other_group =
            Network::new(q.scheme, q.public_key, 3, q.genesis_time, group, "quicknet");
        let other_id = Network::new(
            q.scheme,
            q.public_key,
            3,
            q.genesis_time,
            q.group_hash,
            "quicknet2",
        );
        for n in [other_period, other_genesis, other_group, other_id] {
            assert_ne!(n.expect("valid").chain_hash, base);
        }
    }

    #[test]
    fn the_default_beacon_id_is_left_out_of_the_hash() {
        let q = &QUICKNET;
        let empty = Network::new(q.scheme, q.public_key, 3, q.genesis_time, q.group_hash, "")
            .expect("valid");
        let default = Network::new(
            q.scheme,
            q.public_key,
            3,
            q.genesis_time,
            q.group_hash,
            "default",
        )
        .expect("valid");
        assert_eq!(empty.chain_hash, default.chain_hash);
        assert_ne!(empty.chain_hash, q.chain_hash);
    }

    #[test]
    fn a_zero_period_a_negative_genesis_and_a_bad_key_are_refused() {
        let q = &QUICKNET;
        let zero = Network::new(
            q.scheme,
            q.public_key,
            0,
            q.genesis_time,
            q.group_hash,
            "quicknet",
        );
        assert!(
            matches!(zero, Err(BeaconError::BadNetwork { .. })),
            "{zero:?}"
        );
        let early = Network::new(q.scheme, q.public_key, 3, -1, q.group_hash, "quicknet");
        assert!(
            matches!(early, Err(BeaconError::BadNetwork { .. })),
            "{early:?}"
        );
        // Not the encoding of a point: the compression flag is cleared.
        let mut key = q.public_key;
        key[0] &= 0x7f;
        let bad = Network::new(q.scheme, key, 3, q.genesis_time, q.group_hash, "quicknet");
        assert!(
            matches!(bad, Err(BeaconError::BadNetwork { .. })),
            "{bad:?}"
        );
        // The point at infinity, which would verify anything against nothing.
        let mut infinity = [0u8; PUBLIC_KEY_LEN];
        infinity[0] = 0xc0;
        let inf = Network::new(
            q.scheme,
            infinity,
            3,
            q.genesis_time,
            q.group_hash,
            "quicknet",
        );
        assert!(
            matches!(inf, Err(BeaconError::BadNetwork { .. })),
            "{inf:?}"
        );
    }

    #[test]
    fn expect_chain_hash_names_both_hashes() {
        assert!(QUICKNET.expect_chain_hash(QUICKNET.chain_hash()).is_ok());
        let err = QUICKNET
            .expect_chain_hash(&[7; 32])
            .expect_err("another chain");
        let text = err.to_string();
        assert!(text.contains("52db9ba7") && text.contains("0707"), "{text}");
    }

    /// Issue 31, item 1: quicknet is known by its chain hash, a network of
    /// the same scheme with another key is not.
    #[test]
    fn only_the_built_in_public_networks_are_known() {
        assert_eq!(QUICKNET.known_name(), Some("quicknet"));
        assert_eq!(known_by_name("quicknet"), Some(&QUICKNET));
        assert_eq!(known_by_name("mynet"), None);
        let own = crate::beacon::TestBeacon::from_seed([7; 32], 1_700_000_000, 3)
            .expect("a beacon of a key one holds");
        assert_eq!(own.network().known_name(), None);
        let rebuilt = quicknet_rebuilt().expect("valid");
        assert_eq!(rebuilt.known_name(), Some("quicknet"));
    }

    #[test]
    fn schemes_round_trip_through_their_ids() {
        assert_eq!(
            Scheme::from_id("bls-unchained-g1-rfc9380"),
            Ok(Scheme::UnchainedG1Rfc9380)
        );
        assert!(matches!(
            Scheme::from_id("pedersen-bls-chained"),
            Err(BeaconError::BadNetwork { .. })
        ));
        assert_eq!(
            Scheme::UnchainedG1Rfc9380.to_string(),
            "bls-unchained-g1-rfc9380"
        );
    }
}
