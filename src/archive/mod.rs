//! The public archive of a campaign (docs/AUDIT.md, section 7): written by
//! `adjutant archive export`, checked by `adjutant verify`.

pub mod export;
pub mod ledger;
pub mod mail_check;
pub mod verify;
pub mod verify_links;

pub use crate::ledger::{act_dir, joined_lines, resolution_dir};

use serde::{Deserialize, Serialize};

use crate::audit::Kind;

/// The spec version an archive follows.
pub const SPEC: &str = "adjutant-audit-v1";

/// The spec version of an archive that holds game master's acts
/// (corrections, rollbacks): v1 and section 10 of docs/AUDIT.md. An archive
/// without acts stays v1, so that a v1 verifier still checks it, and refuses
/// an archive it could not check in full.
pub const SPEC_WITH_ACTS: &str = "adjutant-audit-v2";

/// The spec version of a campaign registered with a hash-linked record, an
/// umpire chain of its own and every game master's act archived
/// (docs/AUDIT.md, section 11).
pub const SPEC_LINKED: &str = "adjutant-audit-v3";

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
    /// Spec v3 with a drand beacon: the network's `/info` JSON, whose chain
    /// hash `genesis.txt` names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drand: Option<String>,
    pub no_orders_policy: crate::campaign::NoOrdersPolicy,
    pub initial_state_digest: String,
    /// How many turn resolutions and umpire calls follow.
    pub turns: u64,
    pub calls: u64,
    /// How many game master's acts follow (absent, 0, in a v1 archive).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub acts: u64,
    /// Spec v3: how many entries the hash-linked record holds, and the
    /// digest of the last (of `genesis.txt` when there is none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entries: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
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
    /// The canonical command: `correct <unit> ...` or `rollback` (spec v3:
    /// also `extend ...`, `pause`, `resume`, `resolve now`, `replace <side>
    /// <address>`, `submit <side>`).
    pub command: String,
    /// The states before and after it; spec v3 acts that change no state
    /// have neither.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prior_state_digest: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_state_digest: Option<String>,
    /// When it was done (RFC 3339, UTC); not an input to anything.
    pub at: String,
    /// Spec v3: who asked (`gm <address>` for a command by mail, `operator
    /// <user>` for one at the command line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// Spec v3: the reason the operator gave (for `submit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Spec v3, `submit`: the digest of the orders given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orders_digest: Option<String>,
}

/// The kinds of act that change the game state (and so carry states).
pub const STATE_ACTS: [&str; 2] = ["correction", "rollback"];
/// The kinds of act of spec v3 that change no state.
pub const PLAIN_ACTS: [&str; 8] = [
    "extend",
    "pause",
    "resume",
    "resolve-now",
    "replace",
    "change",
    "submit",
    "without-beacon",
];

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
    /// Spec v3 with a drand beacon: the round whose randomness the seed took.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beacon: Option<ledger::BeaconRecord>,
}
