//! The one canonical text of an order: the unit's id, a colon, the order
//! in its first words, every hex as the map numbers it.

use std::fmt;

use super::{KulOrder, Step, Then, direction_word};

impl<U: fmt::Display> fmt::Display for Then<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Then::Stop => Ok(()),
            Then::Any => write!(f, " then any"),
            Then::Unit(u) => write!(f, " then {u}"),
        }
    }
}

fn steps(steps: &[Step]) -> String {
    steps
        .iter()
        .map(|s| match s {
            Step::Hex(h) => h.label(),
            Step::Face(d) => format!("face {}", direction_word(*d)),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl<U: fmt::Display> fmt::Display for KulOrder<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KulOrder::Move { unit, steps: s } => match s.as_slice() {
                [Step::Face(_)] => write!(f, "{unit}: {}", steps(s)),
                _ => write!(f, "{unit}: move {}", steps(s)),
            },
            KulOrder::Fire { unit, target } => write!(f, "{unit}: fire at {target}"),
            KulOrder::Shock { unit, target, then } => write!(f, "{unit}: shock {target}{then}"),
            KulOrder::Charge { unit, target, then } => write!(f, "{unit}: charge {target}{then}"),
            KulOrder::CounterCharge { unit } => write!(f, "{unit}: counter-charge"),
            KulOrder::Hold { unit } => write!(f, "{unit}: hold"),
            KulOrder::Join { leader, unit } => write!(f, "{leader}: join {unit}"),
            KulOrder::Pass => write!(f, "pass"),
        }
    }
}
