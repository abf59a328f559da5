//! One turn in two mailed phases (ruling GT-1): the PIP Phase, in which
//! each side spends its commands' PIPs ("Charges must be declared and paid
//! for (with PIPs) in the PIP Phase"), and the combat phase, in which each
//! side names the targets of its firing units, fire is resolved, and then
//! every declared charge; the turn ends with next turn's PIPs rolled.

mod combat;
pub mod end;
mod pips;
pub use pips::{NotMade, not_made};

use std::collections::BTreeMap;

use super::orders::GtOrder;
use super::state::State;
use crate::audit::dice::Dice;
use crate::rules::ruleset::{Event, PhaseKind, PhaseSpec};

pub use combat::groups;
pub use end::{commands, roll_pips};

/// The phases of a turn, in order.
pub const PHASES: &[PhaseSpec] = &[
    PhaseSpec {
        name: "pips",
        kind: PhaseKind::AllSides,
        summary: "each side spends its commands' PIPs: declares and pays for charges, moves, changes formation, starts or stops firing, rallies",
    },
    PhaseSpec {
        name: "combat",
        kind: PhaseKind::AllSides,
        summary: "each side names the targets of its firing units; then fire, and every declared charge, are resolved",
    },
];

/// Which phase the state is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Pips,
    Combat,
}

impl Phase {
    pub fn of(state: &State) -> Phase {
        if state.phase == 0 {
            Phase::Pips
        } else {
            Phase::Combat
        }
    }
}

/// Resolves the current phase with every side's orders.
pub fn run(
    state: &State,
    orders: &BTreeMap<String, Vec<GtOrder>>,
    dice: &mut dyn Dice,
) -> (State, Vec<Event>) {
    match Phase::of(state) {
        Phase::Pips => pips::run(state, orders, dice),
        Phase::Combat => {
            let (mut next, mut events) = combat::run(state, orders, dice);
            end::end_turn(&mut next, &mut events, dice);
            (next, events)
        }
    }
}
