//! The validation step: an order that reads correctly is checked against the
//! state. Every unit it names is resolved to an id (by id or by an
//! unambiguous prefix of the name), and an order the rules forbid is refused
//! with the unit and the clause.

use super::super::field::Field;
use super::{StcOrder, UnitId, UnitRef, Whose, Written};
use crate::rules::names::{NameError, find};
use crate::rules::orders::Rejection;
use crate::rules::sound_the_charge::sight::Sight;
use crate::rules::sound_the_charge::state::State;

pub use crate::rules::refusal::Refusal;

/// Resolves one reference for `side`. A player names only what it knows of:
/// its own units and generals, and the enemy units it can see. A reference
/// to anything else (an enemy unit named as one's own, a hidden enemy, a
/// unit that does not exist) is refused in the same words, so that no
/// refusal tells a player that a unit it cannot see exists.
fn resolve(
    state: &State,
    sight: &Sight<'_>,
    side: &str,
    whose: Whose,
    r: &UnitRef,
) -> Result<UnitId, Refusal> {
    let own = state.units.iter().filter(|u| u.side == side);
    let seen_enemies = state
        .units
        .iter()
        .filter(|u| u.side != side && sight.sees(u));
    let reference = r.as_str();
    let found = match whose {
        Whose::Own => find(own, reference)
            .map_err(|_| format!("you have no unit `{reference}` (by id or the start of its name)")),
        Whose::Enemy => find(seen_enemies, reference).map_err(|e| {
            if find(own, reference).is_ok() {
                format!("`{reference}` is one of your own units")
            } else {
                match e {
                    NameError::Ambiguous { .. } => e.to_string(),
                    NameError::NoneFits(_) => format!(
                        "no enemy unit in sight has the id or a name starting `{reference}`"
                    ),
                }
            }
        }),
        Whose::Any => find(own.chain(seen_enemies), reference).map_err(|e| match e {
            NameError::Ambiguous { .. } => e.to_string(),
            NameError::NoneFits(_) => format!(
                "no unit of yours or enemy unit in sight has the id or a name starting `{reference}`"
            ),
        }),
    };
    match found {
        Ok(u) if u.eliminated.is_some() => {
            Err(Refusal::plain(format!("{} is no longer in play", u.id)))
        }
        Ok(u) => Ok(UnitId::of(&u.id)),
        Err(problem) => {
            // A general may be named where a unit of one's own may.
            if whose != Whose::Enemy
                && let Some(g) = find_general(state, side, reference)
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
pub fn resolve_refs(
    state: &State,
    sight: &Sight<'_>,
    side: &str,
    order: &Written,
) -> Result<StcOrder, Refusal> {
    order.try_map(|r, whose| resolve(state, sight, side, whose, r))
}

/// Checks one order of `side` against the state: references first, then
/// what the rules allow. `Ok` holds the order with every unit as its id.
pub fn check(
    field: &Field,
    sight: &Sight<'_>,
    side: &str,
    line: usize,
    order: &Written,
) -> Result<StcOrder, Rejection> {
    check_in_sheet(field, sight, side, line, order, &[])
}

/// [`check`], with the side's other orders this turn (`sheet`, its units resolved to ids)
/// for what they decide about a `shoot` order (ruling STC-71). The field is
/// the state's, built once for a whole sheet.
pub fn check_in_sheet(
    field: &Field,
    sight: &Sight<'_>,
    side: &str,
    line: usize,
    order: &Written,
    sheet: &[StcOrder],
) -> Result<StcOrder, Rejection> {
    let state = field.state;
    let subject = order.unit().as_str().to_string();
    let resolved = resolve_refs(state, sight, side, order).map_err(|r| Rejection {
        line,
        unit: Some(subject.clone()),
        problem: r.problem,
        clause: r.clause,
    })?;
    let id = resolved.unit().as_str().to_string();
    super::super::turn::movement::allowed(field, side, &resolved).map_err(|r| Rejection {
        line,
        unit: Some(id.clone()),
        problem: r.problem,
        clause: r.clause,
    })?;
    if matches!(resolved, StcOrder::Shoot { .. }) {
        super::super::turn::shooting::allowed_in_sheet(state, side, &resolved, sheet).map_err(
            |r| Rejection {
                line,
                unit: Some(id.clone()),
                problem: r.problem,
                clause: Some(r.clause),
            },
        )?;
    }
    Ok(resolved)
}
