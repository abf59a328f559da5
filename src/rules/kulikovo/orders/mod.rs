//! The Kulikovo order language: one order a line, the unit first. Read in
//! two steps: `parse` (the words alone, into a [`KulOrder`] naming units
//! as written) and `check` (against the state: every unit looked up, and
//! what the rules allow). `display` writes the one canonical text. The
//! players' reference is docs/ORDERS-kulikovo.md.

pub mod check;
pub mod display;
pub mod foresee;
pub mod parse;

use crate::geometry::{Direction, Hex};
use crate::rules::names::UnitId;

/// One step of a move: into a hex, or a turn to face a hexside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Hex(Hex),
    Face(Direction),
}

/// Whom an attack goes on to after a "Continue Attack" result (ruling
/// KUL-23).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Then<U> {
    /// It does not continue.
    Stop,
    /// It continues as long as the results let it, against the enemy in
    /// front it finds.
    Any,
    /// One continued attack, against this unit.
    Unit(U),
}

/// One order, naming units by `U`: a reference as written (`String`), or
/// an id once checked ([`UnitId`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KulOrder<U = UnitId> {
    /// Move along hexes, turning on the way: `move 0304 0405 face se`; a
    /// turn alone is written `face se`.
    Move {
        unit: U,
        steps: Vec<Step>,
    },
    /// Missile fire at an enemy unit.
    Fire {
        unit: U,
        target: U,
    },
    /// A shock attack without a charge.
    Shock {
        unit: U,
        target: U,
        then: Then<U>,
    },
    Charge {
        unit: U,
        target: U,
        then: Then<U>,
    },
    /// The passive side's standing order: try the Counter-Charge Die Roll
    /// if charged.
    CounterCharge {
        unit: U,
    },
    Hold {
        unit: U,
    },
    /// A leader joins a unit of his side.
    Join {
        leader: U,
        unit: U,
    },
    /// The side does nothing this activation.
    Pass,
}

/// An order as written, before its units are looked up.
pub type Written = KulOrder<parse::Ref>;

impl<U> KulOrder<U> {
    /// The unit (or leader) the order is for.
    pub fn unit(&self) -> Option<&U> {
        match self {
            KulOrder::Move { unit, .. }
            | KulOrder::Fire { unit, .. }
            | KulOrder::Shock { unit, .. }
            | KulOrder::Charge { unit, .. }
            | KulOrder::CounterCharge { unit }
            | KulOrder::Hold { unit } => Some(unit),
            KulOrder::Join { leader, .. } => Some(leader),
            KulOrder::Pass => None,
        }
    }

    /// Whether it is an attack, carried out in the shock segment after every
    /// move and fire.
    pub fn is_attack(&self) -> bool {
        matches!(self, KulOrder::Shock { .. } | KulOrder::Charge { .. })
    }
}

/// The six hexsides as orders write them.
pub const DIRECTION_WORDS: [&str; 6] = ["n", "ne", "se", "s", "sw", "nw"];

pub fn direction_word(d: Direction) -> &'static str {
    DIRECTION_WORDS[usize::from(d.number())]
}

/// The hexside's name in a report: `north-east`.
pub fn direction_name(d: Direction) -> &'static str {
    [
        "north",
        "north-east",
        "south-east",
        "south",
        "south-west",
        "north-west",
    ][usize::from(d.number())]
}
