//! The Grande Tactique order language, syntax step: one order a line,
//! `<unit>: <action>`, read into [`Order`] (`parse`) and written back in
//! its one canonical form (`Display`). The players' reference is
//! docs/ORDERS-grande-tactique.md. Checking an order against the state and
//! the PIPs is `check`.

pub mod check;
pub mod foresee;
mod parse;

use std::fmt;

pub use parse::{SyntaxError, parse};

use super::state::Formation;
use crate::geometry::Hundredths;
use crate::rules::names::UnitId;
use crate::rules::words::inches;

/// One order: the unit it is given to and what it does. `R` is how units
/// are named: as written (`String`) or looked up (`UnitId`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order<R> {
    pub unit: R,
    pub action: Action<R>,
}

/// An order as written, units not yet looked up.
pub type Written = Order<String>;

/// An order checked against the state: every unit it names is an id.
pub type GtOrder = Order<UnitId>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action<R> {
    /// PIP Phase: declare a charge and pay for it.
    Charge {
        target: R,
        /// "The attacker designates one charging unit as the principal
        /// one."
        principal: bool,
        /// Not to leave cover when it would take the position.
        stay: bool,
    },
    /// PIP Phase: move straight ahead, or straight back, facing the same
    /// way (GT-6).
    Advance(Hundredths),
    Retire(Hundredths),
    /// PIP Phase: turn about its centre to face a bearing, or a unit.
    Face(u32),
    FaceUnit(R),
    /// PIP Phase: change formation.
    Form(Formation),
    /// PIP Phase: start or stop firing (GT-7).
    StartFiring,
    CeaseFire,
    /// PIP Phase: try to rally (GT-4).
    Rally,
    /// Combat phase: fire at a target (GT-7).
    FireAt(R),
    /// Nothing this phase.
    Hold,
}

impl<R> Order<R> {
    /// The same order with its units named another way.
    pub fn map<S, E>(self, mut f: impl FnMut(R) -> Result<S, E>) -> Result<Order<S>, E> {
        let unit = f(self.unit)?;
        let action = match self.action {
            Action::Charge {
                target,
                principal,
                stay,
            } => Action::Charge {
                target: f(target)?,
                principal,
                stay,
            },
            Action::Advance(d) => Action::Advance(d),
            Action::Retire(d) => Action::Retire(d),
            Action::Face(b) => Action::Face(b),
            Action::FaceUnit(u) => Action::FaceUnit(f(u)?),
            Action::Form(x) => Action::Form(x),
            Action::StartFiring => Action::StartFiring,
            Action::CeaseFire => Action::CeaseFire,
            Action::Rally => Action::Rally,
            Action::FireAt(t) => Action::FireAt(f(t)?),
            Action::Hold => Action::Hold,
        };
        Ok(Order { unit, action })
    }
}

impl<R: fmt::Display> fmt::Display for Order<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.unit)?;
        match &self.action {
            Action::Charge {
                target,
                principal,
                stay,
            } => {
                write!(f, "charge {target}")?;
                if *principal {
                    f.write_str(" principal")?;
                }
                if *stay {
                    f.write_str(" stay")?;
                }
                Ok(())
            }
            Action::Advance(d) => write!(f, "advance {}", inches(*d)),
            Action::Retire(d) => write!(f, "retire {}", inches(*d)),
            Action::Face(b) => write!(f, "face {b}"),
            Action::FaceUnit(u) => write!(f, "face {u}"),
            Action::Form(x) => write!(f, "form {}", x.word()),
            Action::StartFiring => f.write_str("fire"),
            Action::CeaseFire => f.write_str("cease fire"),
            Action::Rally => f.write_str("rally"),
            Action::FireAt(t) => write!(f, "fire at {t}"),
            Action::Hold => f.write_str("hold"),
        }
    }
}
