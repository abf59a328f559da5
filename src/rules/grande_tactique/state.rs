//! What Grande Tactique keeps in the game state beyond the shared envelope:
//! each unit's troop type, command, formation and morale (eager, shaken or
//! routed), whether it is firing, and what it has charged this turn; the
//! game's PIPs by command and the Charge markers on the table, which live
//! from the PIP Phase to the charges' resolution; and the campaign's
//! parameters for what the chapter leaves to the rest of the rules.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::GrandeTactique;
use super::params::Params;
use crate::rules::state::{GameState, Parts, UnitState};

impl Parts for GrandeTactique {
    type Unit = GtUnit;
    type Game = GtGame;
    type Params = Params;
}

/// The game state as Grande Tactique reads it.
pub type State = GameState<GrandeTactique>;

/// One unit as Grande Tactique reads it.
pub type Unit = UnitState<GtUnit>;

/// Every field of [`GtUnit`], by its name in the state, for the GM's
/// corrections.
pub const FIELDS: &[&str] = &[
    "troop_type",
    "command",
    "formation",
    "morale",
    "veteran",
    "firing",
    "marks",
    "charges_made",
    "charged",
];

/// Grande Tactique's part of a unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GtUnit {
    pub troop_type: TroopType,
    /// The command the unit belongs to: "You cannot combine charges with
    /// units of different commands." Its PIPs pay for the unit's actions.
    pub command: String,
    pub formation: Formation,
    #[serde(default)]
    pub morale: Morale,
    /// Locked in Combat: "Veteran troops receive a +1."
    #[serde(default, skip_serializing_if = "is_false")]
    pub veteran: bool,
    /// The unit is firing: "Infantry who are firing cannot charge."
    #[serde(default, skip_serializing_if = "is_false")]
    pub firing: bool,
    /// The campaign's own marks (`guard`, ...), which its parameters may
    /// give a morale bonus or penalty (ruling GT-3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<String>,
    /// Charges made this turn, the initial one and follow-ups: "up to a
    /// maximum of three charges (including the initial charge) per turn".
    #[serde(default, skip_serializing_if = "is_zero")]
    pub charges_made: u32,
    /// The units it charged this turn: "When performing a second follow-up
    /// charge, charging cavalry cannot charge a unit it has already charged
    /// that turn."
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub charged: Vec<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The troop types the chapter names: infantry, cavalry (with its two
/// kinds that behave differently, "Distinctions among types of cavalry"),
/// and artillery.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TroopType {
    Infantry,
    Cavalry,
    Cuirassiers,
    Lancers,
    Artillery,
}

/// The arm a troop type belongs to: what "cavalry", "infantry" and
/// "artillery" mean in the chapter's sentences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arm {
    Infantry,
    Cavalry,
    Artillery,
}

impl Arm {
    pub fn word(self) -> &'static str {
        match self {
            Arm::Infantry => "infantry",
            Arm::Cavalry => "cavalry",
            Arm::Artillery => "artillery",
        }
    }
}

impl TroopType {
    pub const ALL: [TroopType; 5] = [
        TroopType::Infantry,
        TroopType::Cavalry,
        TroopType::Cuirassiers,
        TroopType::Lancers,
        TroopType::Artillery,
    ];

    pub fn word(self) -> &'static str {
        match self {
            TroopType::Infantry => "infantry",
            TroopType::Cavalry => "cavalry",
            TroopType::Cuirassiers => "cuirassiers",
            TroopType::Lancers => "lancers",
            TroopType::Artillery => "artillery",
        }
    }

    pub fn from_word(word: &str) -> Option<TroopType> {
        TroopType::ALL.into_iter().find(|t| t.word() == word)
    }

    pub fn arm(self) -> Arm {
        match self {
            TroopType::Infantry => Arm::Infantry,
            TroopType::Cavalry | TroopType::Cuirassiers | TroopType::Lancers => Arm::Cavalry,
            TroopType::Artillery => Arm::Artillery,
        }
    }
}

impl std::fmt::Display for TroopType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

/// How a unit stands. The chapter names the square ("Squares cannot
/// charge"); line and column are the rest of the rules' (ruling GT-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Formation {
    Line,
    Column,
    Square,
}

impl Formation {
    pub const ALL: [Formation; 3] = [Formation::Line, Formation::Column, Formation::Square];

    pub fn word(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Square => "square",
        }
    }

    pub fn from_word(word: &str) -> Option<Formation> {
        Formation::ALL.into_iter().find(|f| f.word() == word)
    }
}

/// A unit's morale: "Only eager cavalry and eager infantry [...] can
/// charge"; "Thus shaken troops cannot charge"; "Charges against routed
/// units are automatically successful".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Morale {
    #[default]
    Eager,
    Shaken,
    Routed,
}

impl Morale {
    pub const ALL: [Morale; 3] = [Morale::Eager, Morale::Shaken, Morale::Routed];

    pub fn word(self) -> &'static str {
        match self {
            Morale::Eager => "eager",
            Morale::Shaken => "shaken",
            Morale::Routed => "routed",
        }
    }

    pub fn from_word(word: &str) -> Option<Morale> {
        Morale::ALL.into_iter().find(|m| m.word() == word)
    }
}

/// Grande Tactique's part of the game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GtGame {
    /// The PIPs each command has left to spend this turn, by side, then by
    /// command (ruling GT-5).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pips: BTreeMap<String, BTreeMap<String, u32>>,
    /// The Charge markers on the table, in the order the charges were
    /// declared: "Charges must be declared and paid for (with PIPs) in the
    /// PIP Phase. At that time, charging units have a Charge marker placed
    /// them".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub charges: Vec<DeclaredCharge>,
}

impl GtGame {
    /// The PIPs a command of `side` has left.
    pub fn pips_of(&self, side: &str, command: &str) -> u32 {
        self.pips
            .get(side)
            .and_then(|c| c.get(command))
            .copied()
            .unwrap_or(0)
    }
}

/// One Charge marker: the charging unit, its target, and how the charge
/// was paid for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeclaredCharge {
    pub unit: String,
    pub target: String,
    /// The command whose PIPs paid for it.
    pub command: String,
    /// "The attacker designates one charging unit as the principal one."
    #[serde(default, skip_serializing_if = "is_false")]
    pub principal: bool,
    /// Paid to move to contact first ("you can move to contact (spending 1
    /// PIP) and then charge (spending an additional PIP)").
    #[serde(default, skip_serializing_if = "is_false")]
    pub moving: bool,
    /// Told to stay in woods, behind a linear terrain feature or in a
    /// Built-Up Area when it would take the position ("not obliged to
    /// leave").
    #[serde(default, skip_serializing_if = "is_false")]
    pub stay: bool,
}
