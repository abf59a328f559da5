//! The validation step: an order that reads correctly is checked against the
//! state. Every unit it names is resolved to an id (by id or by an
//! unambiguous prefix of the name), and an order the rules forbid is refused
//! with the unit and the clause.

use super::super::orders::{StcOrder, UnitId, UnitRef, Whose, Written};
use super::field::Field;
use crate::rules::names::find;
use crate::rules::orders::Rejection;
use crate::rules::sound_the_charge::state::State;

/// A refusal before the line and unit are known.
pub struct Refusal {
    pub problem: String,
    pub clause: Option<String>,
}

impl Refusal {
    pub fn new(problem: impl Into<String>, clause: &str) -> Refusal {
        Refusal {
            problem: problem.into(),
            clause: Some(clause.to_string()),
        }
    }

    fn plain(problem: impl Into<String>) -> Refusal {
        Refusal {
            problem: problem.into(),
            clause: None,
        }
    }
}

/// Resolves one reference for `side`.
fn resolve(state: &State, side: &str, whose: Whose, r: &UnitRef) -> Result<UnitId, Refusal> {
    let units = |own: bool| state.units.iter().filter(move |u| (u.side == side) == own);
    let found = match whose {
        Whose::Own => find(units(true), r.as_str()).map_err(|e| {
            if find(units(false), r.as_str()).is_ok() {
                format!("`{}` is not one of your units", r.as_str())
            } else {
                e.to_string()
            }
        }),
        Whose::Enemy => find(units(false), r.as_str()).map_err(|e| {
            if find(units(true), r.as_str()).is_ok() {
                format!("`{}` is one of your own units", r.as_str())
            } else {
                e.to_string()
            }
        }),
        Whose::Any => find(state.units.iter(), r.as_str()).map_err(|e| e.to_string()),
    };
    match found {
        Ok(u) if u.eliminated.is_some() => {
            Err(Refusal::plain(format!("{} is no longer in play", u.id)))
        }
        Ok(u) => Ok(UnitId::of(&u.id)),
        Err(problem) => {
            // A general may be named where a unit of one's own may.
            if whose != Whose::Enemy
                && let Some(g) = find_general(state, side, r.as_str())
            {
                return Ok(UnitId::of(&g));
            }
            Err(Refusal::plain(problem))
        }
    }
}

/// A general of `side` by id or unambiguous name prefix.
pub fn find_general(state: &State, side: &str, reference: &str) -> Option<String> {
    find(state.generals.iter().filter(|g| g.side == side), reference)
        .ok()
        .map(|g| g.id.clone())
}

/// Rewrites every unit an order names as its id. The subject must be one
/// of the side's units or generals.
pub fn resolve_refs(state: &State, side: &str, order: &Written) -> Result<StcOrder, Refusal> {
    order.try_map(|r, whose| resolve(state, side, whose, r))
}

/// Checks one order of `side` against the state: references first, then
/// what the rules allow. `Ok` holds the order with every unit as its id.
pub fn check(
    field: &Field,
    side: &str,
    line: usize,
    order: &Written,
) -> Result<StcOrder, Rejection> {
    check_in_sheet(field, side, line, order, &[])
}

/// [`check`], with the side's other orders this turn (`sheet`, its units resolved to ids)
/// for what they decide about a `shoot` order (ruling STC-71). The field is
/// the state's, built once for a whole sheet.
pub fn check_in_sheet(
    field: &Field,
    side: &str,
    line: usize,
    order: &Written,
    sheet: &[StcOrder],
) -> Result<StcOrder, Rejection> {
    let state = field.state;
    let subject = order.unit().as_str().to_string();
    let resolved = resolve_refs(state, side, order).map_err(|r| Rejection {
        line,
        unit: Some(subject.clone()),
        problem: r.problem,
        clause: r.clause,
    })?;
    let id = resolved.unit().as_str().to_string();
    super::movement::allowed(field, side, &resolved).map_err(|r| Rejection {
        line,
        unit: Some(id.clone()),
        problem: r.problem,
        clause: r.clause,
    })?;
    if matches!(resolved, StcOrder::Shoot { .. }) {
        super::shooting::allowed_in_sheet(state, side, &resolved, sheet).map_err(|r| {
            Rejection {
                line,
                unit: Some(id.clone()),
                problem: r.problem,
                clause: Some(r.clause),
            }
        })?;
    }
    Ok(resolved)
}
