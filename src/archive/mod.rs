//! The public archive of a campaign (docs/AUDIT.md, section 7): written by
//! `adjutant archive export`, checked by `adjutant verify`.

pub mod export;
pub mod verify;

use serde::{Deserialize, Serialize};

use crate::audit::Kind;

/// The spec version an archive follows.
pub const SPEC: &str = "adjutant-audit-v1";

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
