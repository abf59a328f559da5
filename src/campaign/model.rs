//! The checked campaign: what `campaign::load` returns once every file has
//! passed its checks. Nothing after loading sees raw TOML.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::rules::Ruleset;
use crate::rules::board::{Location, MapSpec, Terrain};
use crate::rules::state::{GameState, GeneralState, PartError, RawPart, UnitState};

/// A whole campaign: the campaign file and its scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Campaign {
    /// Short id, `[a-z0-9-]+`, unique in a store; used in mail subjects.
    pub id: String,
    pub title: String,
    pub ruleset: RulesetChoice,
    pub sides: Vec<Side>,
    pub gm: Person,
    /// Whether the GM asked for a copy of every acknowledgement and
    /// refusal sent to the players (`[gm] copies = true`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub gm_copies: bool,
    pub players: Vec<Player>,
    /// People who follow the campaign without playing: each resolution's
    /// public view, by mail or as a link to the public chronicle.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub observers: Vec<Observer>,
    pub schedule: Schedule,
    /// What happens to a side that sends no orders for a phase.
    pub no_orders_policy: NoOrdersPolicy,
    /// How many resolutions the hash chain can serve.
    pub chain_length: u32,
    /// An optional public beacon value mixed into every seed.
    pub beacon: Option<String>,
    /// A drand beacon: each turn's seed takes the randomness of a round
    /// published only after the turn's manifest was mailed.
    #[serde(default)]
    pub drand: Option<DrandChoice>,
    /// The web address the daemon's copy of the campaign's chronicle is
    /// served at (`[chronicle] url`), without a final `/`; the reports link
    /// to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chronicle_url: Option<String>,
    pub scenario: Scenario,
}

/// The drand beacon a campaign mixes into its turns' seeds (docs/AUDIT.md,
/// section 11.6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrandChoice {
    /// The relay rounds are fetched from (`https://api.drand.sh`).
    pub url: String,
    /// The network's `/info` JSON: public key, period, genesis time, group
    /// hash and beacon id, which make its chain hash.
    pub info: String,
    /// How long after a phase closes its round may first be published: the
    /// time the manifest mail has to go out first.
    pub margin_seconds: u32,
}

impl DrandChoice {
    pub fn network(&self) -> Result<crate::beacon::Network, crate::beacon::BeaconError> {
        crate::beacon::Network::from_info_json(self.info.as_bytes())
    }

    /// The name of the public drand network the campaign's is, or `None`
    /// for one adjutant does not know (the campaign said `trusted = false`):
    /// the game master may control such a network, and every mail and
    /// report says so. Read from the network's chain hash, not stored, so a
    /// campaign registered before this was asked is told the same.
    pub fn known_network(&self) -> Option<&'static str> {
        self.network().ok().and_then(|n| n.known_name())
    }
}

/// What every mail and report of a campaign whose drand network is not a
/// known public one says of it.
pub fn untrusted_network_words(chain_hash: &str) -> String {
    format!(
        "drand chain {chain_hash} is not a public network adjutant knows (the campaign says trusted = false): the game master may control it, and so know a turn's dice before its manifest is out; these turns are as honest as the game master (docs/AUDIT.md, section 11.6)"
    )
}

/// The ruleset and the options the campaign turned on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RulesetChoice {
    /// The ruleset's id (`rules::registry`).
    pub id: String,
    /// Optional rules switched on, by name, in the ruleset's own words.
    pub options: Vec<String>,
    /// The ruleset's parameters for what its text leaves open, as the
    /// ruleset read and checked them (null when it takes none).
    #[serde(default)]
    pub parameters: serde_json::Value,
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

/// Someone who follows the campaign without playing (`[[observer]]`):
/// told only what every side is told (ruling REP-4), never a side's
/// orders, and never able to send any.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observer {
    pub name: String,
    pub address: String,
    /// IANA time zone name, for the times in their mail.
    pub time_zone: String,
    pub receives: Observing,
}

/// What an observer is sent after each resolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Observing {
    /// The public report, with its map.
    Reports,
    /// A short note with the link to the public chronicle's page of the
    /// resolution (the campaign needs `[chronicle] url`).
    Chronicle,
}

impl Observing {
    pub const ALL: [Observing; 2] = [Observing::Reports, Observing::Chronicle];

    pub fn as_str(self) -> &'static str {
        match self {
            Observing::Reports => "reports",
            Observing::Chronicle => "chronicle",
        }
    }
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
    /// How long before a deadline a side still not ready is reminded a
    /// second and last time (0: no second reminder).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub last_reminder_minutes: u32,
    /// How long a phase stays open past its deadline for a required side
    /// that has sent nothing (0: none); the GM is told who is late.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub grace_minutes: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Schedule {
    /// The time after which a phase with deadline `deadline` takes no more
    /// orders: the deadline, or the end of its grace while `late` (a side it
    /// needs has sent nothing).
    pub fn closes_at(
        &self,
        deadline: chrono::DateTime<chrono::Utc>,
        late: bool,
    ) -> chrono::DateTime<chrono::Utc> {
        if late {
            deadline + chrono::Duration::minutes(i64::from(self.grace_minutes))
        } else {
            deadline
        }
    }
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

impl NoOrdersPolicy {
    /// Every policy, in the order the campaign file's help lists them.
    pub const ALL: [NoOrdersPolicy; 2] =
        [NoOrdersPolicy::StandFast, NoOrdersPolicy::StandingOrders];

    /// Its name in the campaign file, `campaign.json` and `genesis.txt`.
    pub fn as_str(self) -> &'static str {
        match self {
            NoOrdersPolicy::StandFast => "stand-fast",
            NoOrdersPolicy::StandingOrders => "standing-orders",
        }
    }
}

/// The field and the forces on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    pub title: String,
    pub map: MapSpec,
    pub terrain: Vec<Terrain>,
    pub units: Vec<UnitSetup>,
    pub generals: Vec<GeneralState>,
    /// Which side is active in the first turn.
    pub first_active: String,
    /// The game ends after this turn if nothing else ends it first.
    pub turn_limit: Option<u32>,
    /// How the battle is won, judged when the game ends; `None` where the
    /// scenario says nothing (the end is told, no winner named).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory: Option<crate::rules::victory::Victory>,
}

/// One unit as the scenario sets it up: the envelope's fields, and the
/// ruleset's part in the state it begins the game in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitSetup {
    pub id: String,
    pub name: String,
    pub side: String,
    /// The front centre of the unit (table), or its hex.
    pub location: Location,
    /// Degrees clockwise from north (table), or hexside 0-5 (hex).
    pub facing: u32,
    pub strength: u32,
    /// The ruleset's part, as the ruleset set it up.
    #[serde(flatten)]
    pub rules: RawPart,
}

impl UnitSetup {
    /// The unit as it begins the game.
    pub fn initial(&self) -> UnitState {
        UnitState {
            id: self.id.clone(),
            name: self.name.clone(),
            side: self.side.clone(),
            location: self.location,
            facing: self.facing,
            strength: self.strength,
            original_strength: self.strength,
            eliminated: None,
            rules: self.rules.clone(),
        }
    }
}

impl Campaign {
    pub fn side(&self, id: &str) -> Option<&Side> {
        self.sides.iter().find(|s| s.id == id)
    }

    /// The name a reader knows side `id` by: the campaign's, or the id
    /// itself for a side the campaign does not list.
    pub fn side_name(&self, id: &str) -> String {
        self.side(id).map_or(id.to_string(), |s| s.name.clone())
    }

    /// The state the game begins in, under `ruleset` (the campaign's own).
    pub fn initial_state(&self, ruleset: &dyn Ruleset) -> Result<GameState, PartError> {
        let scenario = &self.scenario;
        let state = GameState {
            campaign: self.id.clone(),
            ruleset: ruleset.id().to_string(),
            turn: 1,
            phase: 0,
            active_side: scenario.first_active.clone(),
            sides: self.sides.iter().map(|s| s.id.clone()).collect(),
            map: scenario.map.clone(),
            terrain: scenario.terrain.clone(),
            units: scenario.units.iter().map(UnitSetup::initial).collect(),
            generals: scenario.generals.clone(),
            standing_orders: BTreeMap::new(),
            turn_limit: scenario.turn_limit,
            options: self.ruleset.options.clone(),
            nations: self
                .sides
                .iter()
                .filter_map(|s| s.nation.clone().map(|n| (s.id.clone(), n)))
                .collect(),
            finished: None,
            params: self.ruleset.parameters.clone(),
            game: RawPart::new(),
        };
        ruleset.initial_game(&state)
    }
}
