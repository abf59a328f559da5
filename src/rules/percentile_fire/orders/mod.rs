//! The order language, syntax step: one line of an order email becomes a
//! typed [`PfOrder`], or a syntax error saying at which column it failed
//! and how the order is written. Nothing here looks at the state; whether
//! the unit is the writer's and may do what it is told is `check`'s work.
//! `docs/ORDERS-percentile-fire.md` is the players' reference.
//!
//! A line is `<unit>: <order>` (the unit by its id or a prefix of its name,
//! the colon delimiting a name with spaces), or `pass`.

pub mod check;
pub mod foresee;
mod parse;

use std::fmt;

pub use parse::parse;

use super::state::{Formation, Shot};
use crate::geometry::Hundredths;
use crate::rules::names::{Named, UnitId};
use crate::rules::words::inches;

/// A unit as an order names it, not yet looked up: lower-cased, single
/// spaces.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct UnitRef(pub String);

impl UnitRef {
    pub fn new(text: &str) -> UnitRef {
        UnitRef(
            text.split_whitespace()
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
                .join(" "),
        )
    }
}

impl Named for UnitRef {
    fn as_str(&self) -> &str {
        &self.0
    }
}

/// A sidestep or straight move: which way, keeping the unit's facing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way {
    Forward,
    Back,
    Left,
    Right,
}

impl Way {
    pub fn word(self) -> &'static str {
        match self {
            Way::Forward => "forward",
            Way::Back => "back",
            Way::Left => "left",
            Way::Right => "right",
        }
    }
}

/// What a unit is ordered to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action<U> {
    /// Nothing this phase.
    Hold,
    /// A straight move keeping its facing (outside the chapter: ruling
    /// PF-3).
    Move(Way, Hundredths),
    /// A change of facing, pivoting on its front centre, to a facing in
    /// degrees.
    Face(u32),
    /// A change of formation (limbering and unlimbering are formations of
    /// a battery).
    Form(Formation),
    /// A full move straight to the rear (11.76d, 11.77d).
    Retire,
    /// Cavalry charge movement into contact, declaring the charge (11.23,
    /// 11.83).
    Charge(U),
    /// A move into contact declaring Shock Combat.
    Shock(U),
    /// Standing orders of the non-phasing side for the Movement Phase
    /// (11.81, 11.83).
    Standing { opportunity: bool, passby: bool },
    /// A fire attack in a Reciprocal Fire Phase, with the shot predetermined
    /// (11.15 step 2).
    Fire { target: U, shot: Option<Shot> },
    /// Final Shock Combat Fire at a shocking unit (11.84).
    FinalFire(U),
    /// Supportive Defensive Fire at a shocking unit (11.85).
    Support(U),
    /// Replacing a friendly unit to receive a Shock Combat attack (11.86).
    Replace(U),
}

/// One order: the unit given it (none for `pass`) and what it is to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PfOrder<U> {
    /// The side fires (or moves) no more units this phase.
    Pass,
    Unit {
        unit: U,
        action: Action<U>,
    },
}

/// An order as written.
pub type Written = PfOrder<UnitRef>;

/// An order once checked: every unit it names looked up.
pub type Order = PfOrder<UnitId>;

impl<U> PfOrder<U> {
    pub fn unit(&self) -> Option<&U> {
        match self {
            PfOrder::Pass => None,
            PfOrder::Unit { unit, .. } => Some(unit),
        }
    }

    pub fn action(&self) -> Option<&Action<U>> {
        match self {
            PfOrder::Pass => None,
            PfOrder::Unit { action, .. } => Some(action),
        }
    }
}

/// The formation words an order takes: `limber` and `unlimber` too.
pub fn formation_word(f: Formation) -> &'static str {
    match f {
        Formation::Limbered => "limber",
        Formation::Unlimbered => "unlimber",
        other => super::state::Word::word(other),
    }
}

impl<U: Named> fmt::Display for Action<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Hold => f.write_str("hold"),
            Action::Move(way, d) => write!(f, "{} {}", way.word(), inches(*d)),
            Action::Face(deg) => write!(f, "face {deg}"),
            Action::Form(form) => write!(f, "form {}", formation_word(*form)),
            Action::Retire => f.write_str("retire"),
            Action::Charge(t) => write!(f, "charge {}", t.as_str()),
            Action::Shock(t) => write!(f, "shock {}", t.as_str()),
            Action::Standing {
                opportunity,
                passby,
            } => match (opportunity, passby) {
                (true, true) => f.write_str("opportunity and passby fire"),
                (true, false) => f.write_str("opportunity fire"),
                _ => f.write_str("passby fire"),
            },
            Action::Fire { target, shot } => {
                write!(f, "fire {}", target.as_str())?;
                if let Some(s) = shot {
                    write!(f, " {s}")?;
                }
                Ok(())
            }
            Action::FinalFire(t) => write!(f, "final fire {}", t.as_str()),
            Action::Support(t) => write!(f, "support {}", t.as_str()),
            Action::Replace(u) => write!(f, "replace {}", u.as_str()),
        }
    }
}

impl<U: Named> fmt::Display for PfOrder<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PfOrder::Pass => f.write_str("pass"),
            PfOrder::Unit { unit, action } => write!(f, "{}: {action}", unit.as_str()),
        }
    }
}
