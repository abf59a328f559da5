//! The validation step: each order's units looked up and the order checked
//! against the phase and the state, or refused with the line, the unit and
//! the rule.

use std::collections::BTreeMap;

use super::{Action, Order, PfOrder, UnitRef, Written};
use crate::rules::names::{self, UnitId};
use crate::rules::orders::Rejection;
use crate::rules::percentile_fire::phase::Phase;
use crate::rules::percentile_fire::state::State;

/// A refusal of the line `line`, about `unit`, under `clause`.
pub fn refuse(
    line: usize,
    unit: Option<&str>,
    problem: impl Into<String>,
    clause: &str,
) -> Rejection {
    Rejection {
        line,
        unit: unit.map(str::to_string),
        problem: problem.into(),
        clause: (!clause.is_empty()).then(|| clause.to_string()),
    }
}

/// Looks a reference up among the units in play.
pub fn find(state: &State, r: &UnitRef, line: usize) -> Result<UnitId, Rejection> {
    let pool = state.units.iter().filter(|u| u.eliminated.is_none());
    names::find(pool, &r.0)
        .map(|u| UnitId::of(&u.id))
        .map_err(|e| refuse(line, None, e.to_string(), ""))
}

/// What the sheet has given each unit so far, so that a second order to
/// one unit is refused at its line.
#[derive(Default)]
pub struct Given {
    lines: BTreeMap<String, usize>,
}

impl Given {
    pub fn admit(&mut self, line: usize, unit: &str) -> Result<(), Rejection> {
        match self.lines.get(unit) {
            Some(first) => Err(refuse(
                line,
                Some(unit),
                format!("it is already given an order on line {first}: one order a unit a phase"),
                "11.25: \"A unit may only fire once during the Reciprocal Fire Phases\"",
            )),
            None => {
                self.lines.insert(unit.to_string(), line);
                Ok(())
            }
        }
    }
}

/// Checks one order of `side` in the current phase.
pub fn check(state: &State, side: &str, line: usize, order: &Written) -> Result<Order, Rejection> {
    let phase = Phase::of(state);
    let PfOrder::Unit { unit, action } = order else {
        return Ok(PfOrder::Pass);
    };
    let id = find(state, unit, line)?;
    let Some(u) = state.unit(id.as_str()) else {
        return Err(refuse(line, Some(id.as_str()), "is not in play", ""));
    };
    if u.side != side {
        return Err(refuse(
            line,
            Some(id.as_str()),
            format!("is not a unit of {side}"),
            "",
        ));
    }
    let action = match action {
        Action::Hold => Action::Hold,
        other => {
            return Err(refuse(
                line,
                Some(id.as_str()),
                format!("`{other}` is not an order of the {}", phase.name()),
                "11.0",
            ));
        }
    };
    Ok(PfOrder::Unit { unit: id, action })
}
