//! The public archive of a campaign (docs/AUDIT.md, section 7): written by
//! `adjutant archive export`, checked by `adjutant verify`.

pub mod export;
pub mod verify;

use serde::{Deserialize, Serialize};

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
    pub commitment: String,
    pub beacon: Option<String>,
    pub no_orders_policy: crate::campaign::NoOrdersPolicy,
    pub initial_state_digest: String,
    pub resolutions: u64,
}

/// `resolution.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolutionFile {
    pub k: u64,
    pub kind: String,
    pub phase: String,
    pub secret: String,
    pub manifest_digest: String,
    pub seed: String,
    pub prior_state_digest: String,
    pub next_state_digest: String,
    pub resolved_at: String,
}

/// The folder of resolution k.
pub fn resolution_dir(k: u64) -> String {
    format!("resolutions/{k:04}")
}
