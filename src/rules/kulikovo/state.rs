//! What Kulikovo keeps in the game state beyond the shared envelope: each
//! unit's weapon system, its shock DRM and its state (normal, disordered,
//! retired), the side that activates first, and the campaign's parameters.

use serde::{Deserialize, Serialize};
use std::fmt;

use super::Kulikovo;
use super::params::Params;
use crate::rules::state::{GameState, Parts, UnitState};

impl Parts for Kulikovo {
    type Unit = KulUnit;
    type Game = KulGame;
    type Params = Params;
}

/// The game state as Kulikovo reads it.
pub type State = GameState<Kulikovo>;

/// One unit as Kulikovo reads it.
pub type Unit = UnitState<KulUnit>;

/// Every field of [`KulUnit`], by its name in the state, for the GM's
/// corrections.
pub const FIELDS: &[&str] = &["weapon", "shock_drm", "disordered", "retired", "upset_turn"];

/// The weapon systems of the Weapons System Matrix: "H, M, L are heavy,
/// medium and light cavalry; C crossbow; B bowmen", and R, which the text
/// does not define (ruling KUL-2: foot).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Weapon {
    H,
    M,
    L,
    R,
    C,
    B,
}

impl Weapon {
    pub const ALL: [Weapon; 6] = [
        Weapon::H,
        Weapon::M,
        Weapon::L,
        Weapon::R,
        Weapon::C,
        Weapon::B,
    ];

    /// The letter on the counter and in the tables.
    pub fn letter(self) -> &'static str {
        match self {
            Weapon::H => "H",
            Weapon::M => "M",
            Weapon::L => "L",
            Weapon::R => "R",
            Weapon::C => "C",
            Weapon::B => "B",
        }
    }

    /// Reads a letter, either case.
    pub fn from_letter(text: &str) -> Option<Weapon> {
        Weapon::ALL
            .into_iter()
            .find(|w| w.letter().eq_ignore_ascii_case(text))
    }

    /// What the weapon system is, in words.
    pub fn words(self) -> &'static str {
        match self {
            Weapon::H => "heavy cavalry",
            Weapon::M => "medium cavalry",
            Weapon::L => "light cavalry",
            Weapon::R => "foot",
            Weapon::C => "crossbows",
            Weapon::B => "bowmen",
        }
    }

    /// Missile Fire Results: "Target Horse Unit" (the three cavalry) or
    /// "Target Leg Unit" (the rest).
    pub fn is_horse(self) -> bool {
        matches!(self, Weapon::H | Weapon::M | Weapon::L)
    }

    /// The units the Range Die Roll Modifiers list: "Bowman", "Light
    /// Cavalry", "Crossbows".
    pub fn fires(self) -> bool {
        matches!(self, Weapon::B | Weapon::L | Weapon::C)
    }

    /// "Bowman (B) and Crossbow (C) may not Shock Attack or Charge."
    pub fn may_shock(self) -> bool {
        !matches!(self, Weapon::B | Weapon::C)
    }

    /// "Light Cavalry (L) may not Charge", nor B and C.
    pub fn may_charge(self) -> bool {
        self.may_shock() && self != Weapon::L
    }
}

impl fmt::Display for Weapon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero_i(n: &i32) -> bool {
    *n == 0
}

fn is_zero_u(n: &u32) -> bool {
    *n == 0
}

/// Kulikovo's part of a unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KulUnit {
    pub weapon: Weapon,
    /// The unit's own Shock DRM, which the shock and charge list ("+/-
    /// Defender's Shock DRM") and the counter-charge roll read (ruling
    /// KUL-14): positive for a unit that is hard to break.
    #[serde(default, skip_serializing_if = "is_zero_i")]
    pub shock_drm: i32,
    #[serde(default, skip_serializing_if = "is_false")]
    pub disordered: bool,
    /// Retired: it fell back towards its standard and must rally (ruling
    /// KUL-9).
    #[serde(default, skip_serializing_if = "is_false")]
    pub retired: bool,
    /// The turn it was last disordered or retired: it recovers only at the
    /// end of a later turn (ruling KUL-10). 0 when never.
    #[serde(default, skip_serializing_if = "is_zero_u")]
    pub upset_turn: u32,
}

impl KulUnit {
    /// The unit's state as the results tables' columns read it: "Normal"
    /// or "Disordered", a retired unit in the Disordered column (ruling
    /// KUL-9).
    pub fn condition(&self) -> Condition {
        if self.retired {
            Condition::Retired
        } else if self.disordered {
            Condition::Disordered
        } else {
            Condition::Normal
        }
    }
}

/// Normal, disordered or retired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Condition {
    Normal,
    Disordered,
    Retired,
}

impl Condition {
    pub fn word(self) -> &'static str {
        match self {
            Condition::Normal => "normal",
            Condition::Disordered => "disordered",
            Condition::Retired => "retired",
        }
    }

    /// Whether the results tables read it in their "Disordered" column.
    pub fn is_disordered(self) -> bool {
        self != Condition::Normal
    }
}

/// Kulikovo's part of the game: the side that activates first in every
/// turn, from the scenario's `first_active` (ruling KUL-1).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KulGame {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub first_side: String,
}
