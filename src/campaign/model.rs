//! The checked campaign: what `campaign::load` returns once every file has
//! passed its checks. Nothing after loading sees raw TOML.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::geometry::Hundredths;
use crate::rules::board::{Location, MapSpec, Terrain};

/// A whole campaign: the campaign file and its scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Campaign {
    /// Short id, `[a-z0-9-]+`, unique in a store; used in mail subjects.
    pub id: String,
    pub title: String,
    pub ruleset: RulesetChoice,
    pub sides: Vec<Side>,
    pub gm: Person,
    pub players: Vec<Player>,
    pub schedule: Schedule,
    /// What happens to a side that sends no orders for a phase.
    pub no_orders_policy: NoOrdersPolicy,
    /// How many resolutions the hash chain can serve.
    pub chain_length: u32,
    /// An optional public beacon value mixed into every seed.
    pub beacon: Option<String>,
    pub scenario: Scenario,
}

/// The ruleset and the options the campaign turned on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RulesetChoice {
    /// `sound-the-charge`, `kulikovo`, `charging` or `percentile-fire`.
    pub id: String,
    /// Optional rules switched on, by name, in the ruleset's own words.
    pub options: Vec<String>,
    /// Ruleset parameters the text leaves open (sample values marked so).
    pub parameters: BTreeMap<String, toml::Value>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    /// Short id, `[a-z0-9-]+`.
    pub id: String,
    pub name: String,
    /// National modifiers in force for this side (`france`, `russia`, ...).
    pub nation: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Person {
    pub name: String,
    pub address: String,
    /// IANA time zone name, e.g. `Europe/Paris`.
    pub time_zone: String,
    pub auth: Auth,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub person: Person,
    pub side: String,
}

/// How a person proves who they are in an email.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "kebab-case")]
pub enum Auth {
    /// A passphrase line in the mail, checked against an argon2 PHC hash.
    Passphrase { hash: String },
    /// A passphrase and a valid DKIM signature from the sender's domain.
    PassphraseAndDkim { hash: String },
}

/// Phase durations and deadlines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    /// The campaign's time zone (IANA), in which deadlines fall.
    pub time_zone: String,
    /// Length of each phase by phase kind (`orders`, ...), in minutes.
    pub phase_minutes: BTreeMap<String, u32>,
    /// If set, a deadline is moved later to the next time of day `HH:MM` in
    /// the campaign's zone, so that deadlines fall at a regular hour.
    pub deadline_time: Option<String>,
    /// How long before a deadline a side without orders is reminded.
    pub reminder_minutes: u32,
}

/// What a side that sent no orders does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoOrdersPolicy {
    /// Every unit stands fast.
    StandFast,
    /// The side's standing orders from the previous phase are repeated.
    StandingOrders,
}

/// The field and the forces on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    pub title: String,
    pub map: MapSpec,
    pub terrain: Vec<Terrain>,
    pub units: Vec<UnitSpec>,
    pub generals: Vec<GeneralSpec>,
    /// Which side is active in the first turn.
    pub first_active: String,
    /// The game ends after this turn if nothing else ends it first.
    pub turn_limit: Option<u32>,
}

/// One unit as the scenario sets it up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitSpec {
    pub id: String,
    pub name: String,
    pub side: String,
    /// The ruleset's troop type, e.g. `line-infantry`, `heavy-cavalry`, `field-guns`.
    pub troop_type: String,
    /// Morale grade, e.g. `A`..`D`.
    pub grade: String,
    /// Figures (gun models for artillery).
    pub strength: u32,
    /// Gunners, for artillery; zero otherwise.
    pub gunners: u32,
    /// `line`, `column`, `square`, `skirmish`, `limbered`, `unlimbered`, ...
    pub formation: String,
    /// Ranks of stands in a line; other formations take their depth from
    /// the ruleset.
    #[serde(default = "one_rank")]
    pub ranks: u32,
    /// Frontage per figure, where a campaign option bases the unit other
    /// than the ruleset's standard (Sound the Charge's "Wider Cavalry
    /// Basing"); `None` for the standard basing. Set on load from the
    /// campaign's options, so that a unit's footprint depends on it alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figure_frontage: Option<Hundredths>,
    /// The front centre of the unit (table), or its hex.
    pub location: Location,
    /// Degrees clockwise from north (table), or hexside 0-5 (hex).
    pub facing: u32,
    /// Marks the rules know by name, e.g. `elite`, `disordered`, `shaken`.
    pub marks: Vec<String>,
}

fn one_rank() -> u32 {
    1
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneralSpec {
    pub id: String,
    pub name: String,
    pub side: String,
    pub location: Location,
    /// The unit the general is attached to, if any.
    pub attached_to: Option<String>,
}

impl Campaign {
    pub fn side(&self, id: &str) -> Option<&Side> {
        self.sides.iter().find(|s| s.id == id)
    }
}
