//! The public archive of a campaign (docs/AUDIT.md, section 7): written by
//! `adjutant archive export`, checked by `adjutant verify`.

pub mod export;
pub mod verify;

use serde::{Deserialize, Serialize};

use crate::audit::Kind;

/// The spec version an archive follows.
pub const SPEC: &str = "adjutant-audit-v1";

/// The spec version of an archive that holds game master's acts
/// (corrections, rollbacks): v1 and section 10 of docs/AUDIT.md. An archive
/// without acts stays v1, so that a v1 verifier still checks it, and refuses
/// an archive it could not check in full.
pub const SPEC_WITH_ACTS: &str = "adjutant-audit-v2";

/// `campaign.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignFile {
    pub spec: String,
    pub campaign: String,
    pub title: String,
    pub ruleset: String,
    /// The campaign's side ids, sorted.
    pub sides: Vec<String>,
    pub chain_length: u32,
    /// C, the head of the turns' chain.
    pub commitment: String,
    /// U, the head of the umpire calls' chain.
    pub umpire_commitment: String,
    pub beacon: Option<String>,
    pub no_orders_policy: crate::campaign::NoOrdersPolicy,
    pub initial_state_digest: String,
    /// How many turn resolutions and umpire calls follow.
    pub turns: u64,
    pub calls: u64,
    /// How many game master's acts follow (absent, 0, in a v1 archive).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub acts: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// `gm/NNNN/act.json`: a game master's act that changed the game state
/// outside a resolution (docs/AUDIT.md, section 10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActFile {
    /// `correction` or `rollback`.
    pub kind: String,
    /// Its number among the campaign's acts, from 1.
    pub n: u64,
    /// How many turn resolutions had been recorded before it.
    pub after_turn: u64,
    /// For a rollback: the turn resolution it undid (always `after_turn`).
    pub undoes_turn: Option<u64>,
    /// The canonical command: `correct <unit> ...` or `rollback`.
    pub command: String,
    pub prior_state_digest: String,
    pub next_state_digest: String,
    /// When it was done (RFC 3339, UTC); not an input to anything.
    pub at: String,
}

/// The folder of act n: `gm/0001`.
pub fn act_dir(n: u64) -> String {
    format!("gm/{n:04}")
}

/// `resolution.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolutionFile {
    pub kind: Kind,
    pub k: u64,
    /// How many turns had been resolved before it: its prior state is the
    /// state that turn left (the initial state for 0).
    pub after_turn: u64,
    pub phase: String,
    pub secret: String,
    pub manifest_digest: String,
    pub seed: String,
    pub prior_state_digest: String,
    pub next_state_digest: String,
    pub resolved_at: String,
}

/// The folder of resolution k of `kind`: `turns/0001`, `calls/0002`.
pub fn resolution_dir(kind: Kind, k: u64) -> String {
    format!("{}/{k:04}", kind.folder())
}

/// The lines of a log, each ending with LF.
pub fn joined_lines(items: &[String]) -> String {
    items.iter().map(|l| format!("{l}\n")).collect()
}
