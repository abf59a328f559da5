//! The seed of a resolution: SHA-256 over fixed-length, domain-separated
//! fields, so that no two different inputs can be spliced into the same bytes.

use super::digest::Digest32;
use super::kind::Kind;

/// Everything a resolution's dice depend on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedInputs {
    /// A turn or an umpire call: it chooses the domain tag.
    pub kind: Kind,
    pub campaign: String,
    /// The number of the resolution among those of its kind, from 1.
    pub resolution: u64,
    pub secret: Digest32,
    pub manifest_digest: Digest32,
    pub prior_state_digest: Digest32,
    /// A public value named by the GM (a lottery draw, a newspaper headline),
    /// mixed in so that even a leaked secret cannot be ground against.
    pub beacon: Option<String>,
    /// A beacon value drawn after the manifest was fixed (the randomness of
    /// a drand round): when present, the seed's last 32 bytes are this value
    /// itself, in place of the text's digest.
    pub drawn: Option<Digest32>,
}

impl SeedInputs {
    /// The 184 bytes that are hashed: the kind's tag (16), SHA-256 of the
    /// campaign id (32), k as u64 big-endian (8), r_k (32), manifest digest
    /// (32), prior state digest (32), SHA-256 of the beacon or 32 zero bytes
    /// (32).
    pub fn preimage(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(184);
        bytes.extend_from_slice(self.kind.seed_tag());
        bytes.extend_from_slice(Digest32::of(self.campaign.as_bytes()).as_bytes());
        bytes.extend_from_slice(&self.resolution.to_be_bytes());
        bytes.extend_from_slice(self.secret.as_bytes());
        bytes.extend_from_slice(self.manifest_digest.as_bytes());
        bytes.extend_from_slice(self.prior_state_digest.as_bytes());
        let field = self
            .drawn
            .unwrap_or_else(|| SeedInputs::beacon_field(self.beacon.as_deref()));
        bytes.extend_from_slice(field.as_bytes());
        bytes
    }

    /// The seed's last 32 bytes: SHA-256 of the beacon text, or zeros.
    pub fn beacon_field(beacon: Option<&str>) -> Digest32 {
        beacon.map_or(Digest32::ZERO, |b| Digest32::of(b.as_bytes()))
    }

    /// The seed from its fixed-length fields, the beacon's already made.
    pub fn seed_of_fields(
        kind: Kind,
        campaign: &str,
        resolution: u64,
        secret: &Digest32,
        manifest_digest: &Digest32,
        prior_state_digest: &Digest32,
        beacon_field: &Digest32,
    ) -> Digest32 {
        let mut bytes = Vec::with_capacity(184);
        bytes.extend_from_slice(kind.seed_tag());
        bytes.extend_from_slice(Digest32::of(campaign.as_bytes()).as_bytes());
        bytes.extend_from_slice(&resolution.to_be_bytes());
        bytes.extend_from_slice(secret.as_bytes());
        bytes.extend_from_slice(manifest_digest.as_bytes());
        bytes.extend_from_slice(prior_state_digest.as_bytes());
        bytes.extend_from_slice(beacon_field.as_bytes());
        Digest32::of(&bytes)
    }

    pub fn seed(&self) -> Digest32 {
        Digest32::of(&self.preimage())
    }
}
