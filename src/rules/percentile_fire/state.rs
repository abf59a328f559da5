//! What the percentile fire chapter keeps in the game state beyond the
//! shared envelope: each unit's arm, formation, weapon and firing class,
//! its ammunition by type (marked off on the roster, 11.15 step 2), its
//! officers, its markers (cannon loss, 11.74; counterbattery A or B, 11.76,
//! 11.77) and the fire attacks it made this phase (11.87); and, for the
//! game, the MFP level each side has lost (11.73) and the shocks declared
//! for the Shock Combat Phase.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::PercentileFire;
use super::params::{Base, Params};
use crate::geometry::Rect;
use crate::rules::state::{GameState, Parts, UnitState};

impl Parts for PercentileFire {
    type Unit = PfUnit;
    type Game = PfGame;
    type Params = Params;
}

/// The game state as the ruleset reads it.
pub type State = GameState<PercentileFire>;

/// One unit as the ruleset reads it.
pub type Unit = UnitState<PfUnit>;

/// Every field of [`PfUnit`], by its name in the state, for the GM's
/// corrections.
pub const FIELDS: &[&str] = &[
    "arm",
    "formation",
    "ranks",
    "weapon",
    "class",
    "rating",
    "morale",
    "cannon",
    "cannon_lost",
    "howitzers",
    "howitzer",
    "crewed",
    "ammunition",
    "artillery_officer",
    "counterbattery",
    "counterbattery_since",
    "charging",
    "in_square",
    "cmr",
    "light_figures",
    "regimental_guns",
    "regimental_weapon",
    "parent",
    "fire_attacks",
    "moved",
    "passby_fired",
    "base",
    "files",
];

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

fn two() -> u32 {
    2
}

fn is_two(n: &u32) -> bool {
    *n == 2
}

/// The ruleset's part of a unit. Fields that hold their default are left
/// out of the state's JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PfUnit {
    pub arm: Arm,
    pub formation: Formation,
    /// Ranks of a formed line or column (the 2 rank and 3 rank Fire Chart
    /// lines, 11.34).
    #[serde(default = "two", skip_serializing_if = "is_two")]
    pub ranks: u32,
    /// The weapon, by its name in the Weapon Range Chart (`musket`,
    /// `12pdr`); empty for headquarters and trains, which never fire.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub weapon: String,
    /// The Firing Class the scenario gives the unit itself; `None` reads
    /// its nation's from the campaign's table (11.15 step 7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<Class>,
    #[serde(default = "regular", skip_serializing_if = "Rating::is_regular")]
    pub rating: Rating,
    #[serde(default = "steady", skip_serializing_if = "Morale::is_steady")]
    pub morale: Morale,
    /// Artillery: the cannon (gun models) the battery began with; the
    /// envelope's strength is its crew figures.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cannon: u32,
    /// The cannon loss marker (11.74): cannon or train material lost.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cannon_lost: u32,
    /// Howitzers among the battery's cannon (11.53), destroyed first
    /// (11.79).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub howitzers: u32,
    /// The weapon of a mixed battery's howitzers, by its name in the Weapon
    /// Range Chart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub howitzer: Option<String>,
    /// Whether a battery has its crew (11.22, 11.61b).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub crewed: bool,
    /// Rounds left by type (11.15 step 2); `None` where the roster keeps no
    /// count for the unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ammunition: Option<BTreeMap<Shot, u32>>,
    /// An artillery officer attached to the battery (11.29).
    #[serde(default, skip_serializing_if = "is_false")]
    pub artillery_officer: bool,
    /// A counterbattery marker (11.76, 11.77), and the phase of the game
    /// it was placed in (`turn::number`), so that "the next Reciprocal
    /// Artillery Fire Phase" is the first after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counterbattery: Option<Counterbattery>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub counterbattery_since: u32,
    /// Cavalry in "state of Charge or declared charge" (11.23).
    #[serde(default, skip_serializing_if = "is_false")]
    pub charging: bool,
    /// The unit (in square formation) whose square this one stands in
    /// (11.62, 11.78).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_square: Option<String>,
    /// Its CMR, for who in a square takes the loss (11.78).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cmr: u32,
    /// Light company figures within a line battalion's formation (11.79).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub light_figures: u32,
    /// Regimental artillery attached to an infantry battalion: its cannon
    /// and their weapon (11.24d, 11.79).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub regimental_guns: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regimental_weapon: Option<String>,
    /// The battalion a skirmish screen was deployed from (11.27).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Fire attacks made in the current phase (11.87).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fire_attacks: u32,
    /// How it moved in the last Movement Phase (11.85c).
    #[serde(default = "still", skip_serializing_if = "Moved::is_still")]
    pub moved: Moved,
    /// The turn it last gave each enemy unit a Passby Fire attack (11.85d).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub passby_fired: BTreeMap<String, u32>,
    /// The base of one figure (of one cannon, of the headquarters, of one
    /// train material), from the campaign's basing when it was set up, so
    /// that its footprint depends on the unit alone.
    pub base: Base,
    /// Figures across the front of its column.
    pub files: u32,
}

impl PfUnit {
    /// A unit of an arm in a formation, everything else at its default.
    pub fn new(arm: Arm, formation: Formation, base: Base, files: u32) -> PfUnit {
        PfUnit {
            arm,
            formation,
            ranks: 2,
            weapon: String::new(),
            class: None,
            rating: Rating::Regular,
            morale: Morale::Steady,
            cannon: 0,
            cannon_lost: 0,
            howitzers: 0,
            howitzer: None,
            crewed: true,
            ammunition: None,
            artillery_officer: false,
            counterbattery: None,
            counterbattery_since: 0,
            charging: false,
            in_square: None,
            cmr: 0,
            light_figures: 0,
            regimental_guns: 0,
            regimental_weapon: None,
            parent: None,
            fire_attacks: 0,
            moved: Moved::Still,
            passby_fired: BTreeMap::new(),
            base,
            files,
        }
    }

    /// The cannon a battery has now: "A unit's current figure or cannon
    /// strength is always used for Fire Combat purposes" (11.27).
    pub fn cannon_now(&self) -> u32 {
        self.cannon.saturating_sub(self.cannon_lost)
    }

    /// Howitzers left: "For artillery batteries, it is assumed the
    /// howitzer(s) piece is destroyed first" (11.79).
    pub fn howitzers_now(&self) -> u32 {
        self.howitzers.saturating_sub(self.cannon_lost)
    }

    /// Rounds of a type left; `None` when the roster keeps no count.
    pub fn rounds(&self, shot: Shot) -> Option<u32> {
        self.ammunition
            .as_ref()
            .map(|a| a.get(&shot).copied().unwrap_or(0))
    }

    pub fn is_artillery(&self) -> bool {
        self.arm == Arm::Artillery
    }
}

/// A word of the rules, as the scenario and the state write it.
pub trait Word: Sized + Copy + 'static {
    const ALL: &'static [Self];
    fn word(self) -> &'static str;
    fn from_word(word: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|w| w.word() == word)
    }
    fn words() -> Vec<&'static str> {
        Self::ALL.iter().map(|w| w.word()).collect()
    }
}

macro_rules! words {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $word:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $word)] $variant),+
        }

        impl Word for $name {
            const ALL: &'static [Self] = &[$($name::$variant),+];
            fn word(self) -> &'static str {
                match self {
                    $($name::$variant => $word),+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.word())
            }
        }
    };
}

words! {
    /// What a unit is. "Command headquarter bases" and "All train units"
    /// may never fire (11.23).
    Arm {
        Infantry = "infantry",
        Cavalry = "cavalry",
        Artillery = "artillery",
        Headquarters = "headquarters",
        Train = "train",
    }
}

words! {
    /// How a unit stands (Formations 8.0, 9.0; 11.61).
    Formation {
        Line = "line",
        Column = "column",
        Square = "square",
        /// Skirmish (open) order.
        Skirmish = "skirmish",
        Limbered = "limbered",
        Unlimbered = "unlimbered",
    }
}

words! {
    /// The Firing Classes: "The Firing Classes are Class A, B and C"
    /// (11.15 step 7).
    Class {
        A = "A",
        B = "B",
        C = "C",
    }
}

words! {
    /// "Militia rated artillery crews cannot use indirect Fire" (11.57);
    /// "Prussian regular artillery batteries, not Landwehr or militia
    /// rated" (11.51b).
    Rating {
        Regular = "regular",
        Landwehr = "landwehr",
        Militia = "militia",
    }
}

words! {
    /// Morale status as far as fire combat reads it: "Morale disordered
    /// Cavalry units" and "Routing morale status units" may never fire
    /// (11.23); disordered infantry fire on the Disordered line (11.36).
    Morale {
        Steady = "steady",
        Disordered = "disordered",
        Routing = "routing",
    }
}

words! {
    /// "Roundshot (RS), shot, shell or other special shot" (11.15 step 5),
    /// rockets, and the small arms' ball.
    Shot {
        Roundshot = "roundshot",
        /// Canister: "Shot Zone is the range for shot" (11.32).
        Shot = "shot",
        Shell = "shell",
        /// Shrapnel shell (11.55).
        Shrapnel = "shrapnel",
        Rocket = "rocket",
        Ball = "ball",
    }
}

words! {
    /// The counterbattery markers (11.76, 11.77).
    Counterbattery {
        A = "A",
        B = "B",
    }
}

words! {
    /// How a unit moved in the last Movement Phase: "Not have moved in the
    /// preceding Movement Phase except to "Close the range to target""
    /// (11.85c).
    Moved {
        Still = "still",
        ClosedRange = "closed-range",
        Moved = "moved",
    }
}

impl Rating {
    fn is_regular(&self) -> bool {
        *self == Rating::Regular
    }
}

impl Morale {
    fn is_steady(&self) -> bool {
        *self == Morale::Steady
    }
}

impl Moved {
    fn is_still(&self) -> bool {
        *self == Moved::Still
    }
}

fn regular() -> Rating {
    Rating::Regular
}

fn steady() -> Morale {
    Morale::Steady
}

fn still() -> Moved {
    Moved::Still
}

/// A shock declared in the Movement Phase, to be met in the Shock Combat
/// Phase: the shocking unit and its target, and whether it is a cavalry
/// charge (11.83a, 11.85).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shock {
    pub attacker: String,
    pub target: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub charge: bool,
    /// Where the attacker stood before it moved: "Target must be within the
    /// Minimum Range Fire Zone of the friendly unit giving Fire support
    /// before any movement" (11.85b).
    pub from: Rect,
    /// The target replaced the unit first attacked (11.86).
    #[serde(default, skip_serializing_if = "is_false")]
    pub replaced: bool,
}

/// The ruleset's part of the game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PfGame {
    /// MFP points each side has lost: "one point per figure loss or 5
    /// points per battery/train loss" (11.73).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub mfp_lost: BTreeMap<String, u32>,
    /// Shocks declared this turn, met in the Shock Combat Phase.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shocks: Vec<Shock>,
}
