//! The lines that let a player check a resolution's dice from the mail
//! alone (docs/AUDIT.md, section 11): both commitments, the manifest and
//! prior-state digests, the digest of the state it made (the next
//! resolution's prior state, so that a player chains them), the beacon and
//! its signature, the record's head, and one command that re-derives the
//! dice the reader was shown.

use serde::Serialize;

use crate::audit::{Digest32, Kind, Roll};

/// What a report says when no beacon value published after the manifest
/// went into the seed: the limit of docs/AUDIT.md, plainly.
pub const NO_LIVE_BEACON: &str = "no value published after the orders were fixed, so the game master, who holds every future secret, could work with a player to choose these dice (docs/AUDIT.md, section 11.6)";

/// What a resolution's mail says about its dice.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct AuditFooter {
    pub campaign: String,
    /// `turn` or `umpire`.
    pub kind: String,
    pub k: u64,
    /// `r_3` for turn 3, `q_2` for umpire call 2.
    pub secret_name: String,
    pub secret: String,
    /// C and U.
    pub commitment: String,
    pub umpire_commitment: String,
    pub manifest_digest: String,
    pub prior_state_digest: String,
    /// The 32 bytes the seed took from the beacon, hex; all zeros for none.
    pub beacon_field: String,
    /// For people: `none`, `the text ...`, `drand round N`.
    pub beacon: String,
    /// The state the resolution made, as the archive's `next-state.json`
    /// digests it; empty where not known.
    pub next_state_digest: String,
    /// The drand round's BLS signature, hex, for a player to check the
    /// round with the network's public key; `None` without a round drawn.
    pub beacon_signature: Option<String>,
    /// The record's head once this resolution is in it (spec v3 only).
    pub head: Option<String>,
}

impl AuditFooter {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        campaign: &str,
        kind: Kind,
        k: u64,
        secret: Digest32,
        commitment: Digest32,
        umpire_commitment: Digest32,
        manifest_digest: Digest32,
        prior_state_digest: Digest32,
        beacon_field: Digest32,
        beacon: String,
        head: Option<Digest32>,
    ) -> AuditFooter {
        AuditFooter {
            campaign: campaign.to_string(),
            kind: kind.as_str().to_string(),
            k,
            secret_name: match kind {
                Kind::Turn => format!("r_{k}"),
                Kind::Umpire => format!("q_{k}"),
            },
            secret: secret.to_hex(),
            commitment: commitment.to_hex(),
            umpire_commitment: umpire_commitment.to_hex(),
            manifest_digest: manifest_digest.to_hex(),
            prior_state_digest: prior_state_digest.to_hex(),
            beacon_field: beacon_field.to_hex(),
            beacon,
            next_state_digest: String::new(),
            beacon_signature: None,
            head: head.map(|h| h.to_hex()),
        }
    }

    /// The footer with what the resolution made: the digest of its next
    /// state and the signature of the beacon round it drew (none where it
    /// drew none, or the game master waived it).
    pub fn made(
        mut self,
        next_state_digest: Digest32,
        beacon_signature: Option<&str>,
    ) -> AuditFooter {
        self.next_state_digest = next_state_digest.to_hex();
        self.beacon_signature = beacon_signature
            .filter(|s| *s != crate::store::BEACON_WAIVED)
            .map(str::to_string);
        self
    }

    /// The command that re-derives `rolls` (the ones the reader was shown)
    /// from these lines alone: `adjutant dice ...`, on one line.
    pub fn dice_command(&self, rolls: &[&Roll]) -> String {
        let mut words = vec![
            "adjutant dice".to_string(),
            format!("--campaign {}", self.campaign),
            format!("--{} {}", self.kind, self.k),
            format!("--secret {}", self.secret),
            format!("--manifest {}", self.manifest_digest),
            format!("--prior {}", self.prior_state_digest),
        ];
        if self.beacon_field != Digest32::ZERO.to_hex() {
            words.push(format!("--beacon-field {}", self.beacon_field));
        }
        words.extend(
            rolls
                .iter()
                .map(|r| format!("{}:{}@{}", r.index, r.die.label(), r.first_word)),
        );
        words.join(" ")
    }
}
