//! The validation step: an order that reads correctly is checked against the
//! state. Every unit it names is resolved to an id (by id or by an
//! unambiguous prefix of the name), and an order the rules forbid is refused
//! with the unit and the clause.

use super::super::orders::{Place, StcOrder, UnitRef};
use super::field::Field;
use crate::rules::orders::Rejection;
use crate::rules::sound_the_charge::state::{State, Unit};

/// Which units a reference may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Whose {
    Own,
    Enemy,
    Any,
}

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

/// A text lowered letter by letter, as unit ids, names and references are
/// compared here, without allocating for each unit looked at.
fn lowered(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars().flat_map(char::to_lowercase)
}

fn lower(text: &str) -> String {
    lowered(text).collect()
}

/// Finds a unit by id or by an unambiguous prefix of its name
/// (case-insensitive) among the units `fits` lets through.
pub fn find_in<'a>(
    state: &'a State,
    fits: impl Fn(&Unit) -> bool,
    reference: &str,
) -> Result<&'a Unit, String> {
    let wanted = lower(reference);
    let pool = || state.units.iter().filter(|u| fits(u));
    if let Some(u) = pool().find(|u| lowered(&u.id).eq(wanted.chars())) {
        return Ok(u);
    }
    let matches: Vec<&Unit> = pool()
        .filter(|u| {
            let mut name = lowered(&u.name);
            wanted.chars().all(|c| name.next() == Some(c))
        })
        .collect();
    match matches.as_slice() {
        [one] => Ok(one),
        [] => Err(format!(
            "no unit here has the id or a name starting `{reference}`"
        )),
        many => Err(format!(
            "`{reference}` fits {} units ({}); give its id",
            many.len(),
            many.iter()
                .map(|u| u.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Resolves one reference for `side`.
fn resolve(state: &State, side: &str, whose: Whose, r: &UnitRef) -> Result<UnitRef, Refusal> {
    let found = match whose {
        Whose::Own => find_in(state, |u| u.side == side, r.as_str()).map_err(|e| {
            if find_in(state, |u| u.side != side, r.as_str()).is_ok() {
                format!("`{}` is not one of your units", r.as_str())
            } else {
                e
            }
        }),
        Whose::Enemy => find_in(state, |u| u.side != side, r.as_str()).map_err(|e| {
            if find_in(state, |u| u.side == side, r.as_str()).is_ok() {
                format!("`{}` is one of your own units", r.as_str())
            } else {
                e
            }
        }),
        Whose::Any => find_in(state, |_| true, r.as_str()),
    };
    match found {
        Ok(u) if u.eliminated.is_some() => {
            Err(Refusal::plain(format!("{} is no longer in play", u.id)))
        }
        Ok(u) => Ok(UnitRef(u.id.clone())),
        Err(problem) => {
            // A general may be named where a unit of one's own may.
            if whose != Whose::Enemy
                && let Some(g) = find_general(state, side, r.as_str())
            {
                return Ok(UnitRef(g));
            }
            Err(Refusal::plain(problem))
        }
    }
}

/// A general of `side` by id or unambiguous name prefix.
pub fn find_general(state: &State, side: &str, reference: &str) -> Option<String> {
    let wanted = reference.to_lowercase();
    let own = || state.generals.iter().filter(|g| g.side == side);
    if let Some(g) = own().find(|g| g.id.to_lowercase() == wanted) {
        return Some(g.id.clone());
    }
    let matches: Vec<_> = own()
        .filter(|g| g.name.to_lowercase().starts_with(&wanted))
        .collect();
    match matches.as_slice() {
        [one] => Some(one.id.clone()),
        _ => None,
    }
}

fn resolve_all(
    state: &State,
    side: &str,
    whose: Whose,
    list: &[UnitRef],
) -> Result<Vec<UnitRef>, Refusal> {
    list.iter()
        .map(|r| resolve(state, side, whose, r))
        .collect()
}

fn resolve_place(state: &State, side: &str, p: &Place) -> Result<Place, Refusal> {
    match p {
        Place::Point { .. } => Ok(p.clone()),
        Place::Unit(r) => Ok(Place::Unit(resolve(state, side, Whose::Any, r)?)),
    }
}

/// Rewrites every unit an order names as its id. The subject must be one
/// of the side's units or generals.
pub fn resolve_refs(state: &State, side: &str, order: &StcOrder) -> Result<StcOrder, Refusal> {
    let own = |r: &UnitRef| resolve(state, side, Whose::Own, r);
    let enemy = |r: &UnitRef| resolve(state, side, Whose::Enemy, r);
    let place = |p: &Place| resolve_place(state, side, p);
    let place_opt = |p: &Option<Place>| p.as_ref().map(place).transpose();
    Ok(match order {
        StcOrder::Hold { unit } => StcOrder::Hold { unit: own(unit)? },
        StcOrder::Move {
            unit,
            road,
            steps,
            through,
        } => StcOrder::Move {
            unit: own(unit)?,
            road: *road,
            steps: steps.clone(),
            through: resolve_all(state, side, Whose::Own, through)?,
        },
        StcOrder::Form {
            unit,
            formation,
            facing,
        } => StcOrder::Form {
            unit: own(unit)?,
            formation: *formation,
            facing: *facing,
        },
        StcOrder::Face { unit, facing } => StcOrder::Face {
            unit: own(unit)?,
            facing: *facing,
        },
        StcOrder::Manhandle { unit, to, toward } => StcOrder::Manhandle {
            unit: own(unit)?,
            to: place(to)?,
            toward: place_opt(toward)?,
        },
        StcOrder::MoveTo { unit, to, toward } => StcOrder::MoveTo {
            unit: own(unit)?,
            to: place(to)?,
            toward: place_opt(toward)?,
        },
        StcOrder::LeaveGuns { unit, to } => StcOrder::LeaveGuns {
            unit: own(unit)?,
            to: place_opt(to)?,
        },
        StcOrder::ManGuns { unit } => StcOrder::ManGuns { unit: own(unit)? },
        StcOrder::Charge {
            unit,
            target,
            approach,
            through,
        } => StcOrder::Charge {
            unit: own(unit)?,
            target: enemy(target)?,
            approach: *approach,
            through: resolve_all(state, side, Whose::Own, through)?,
        },
        StcOrder::Evade { unit, into } => StcOrder::Evade {
            unit: own(unit)?,
            into: into.as_ref().map(own).transpose()?,
        },
        StcOrder::Shoot {
            unit,
            target,
            split,
            through_skirmishers,
            at_regimental_gun,
        } => StcOrder::Shoot {
            unit: own(unit)?,
            target: enemy(target)?,
            split: split.as_ref().map(enemy).transpose()?,
            through_skirmishers: *through_skirmishers,
            at_regimental_gun: *at_regimental_gun,
        },
        StcOrder::SkirmishersOut { unit } => StcOrder::SkirmishersOut { unit: own(unit)? },
        StcOrder::SkirmishersIn { unit } => StcOrder::SkirmishersIn { unit: own(unit)? },
        StcOrder::Screen { unit, screened } => StcOrder::Screen {
            unit: own(unit)?,
            screened: resolve_all(state, side, Whose::Own, screened)?,
        },
        StcOrder::Attach { unit, to } => StcOrder::Attach {
            unit: own(unit)?,
            to: own(to)?,
        },
        StcOrder::Detach { unit } => StcOrder::Detach { unit: own(unit)? },
        StcOrder::Reform { unit } => StcOrder::Reform { unit: own(unit)? },
        StcOrder::Reinforce { unit, friend } => StcOrder::Reinforce {
            unit: own(unit)?,
            friend: own(friend)?,
        },
        StcOrder::Retreat { unit, distance } => StcOrder::Retreat {
            unit: own(unit)?,
            distance: *distance,
        },
        StcOrder::Embark { unit, boat } => StcOrder::Embark {
            unit: own(unit)?,
            boat: boat.clone(),
        },
        StcOrder::Disembark { unit } => StcOrder::Disembark { unit: own(unit)? },
    })
}

/// Checks one order of `side` against the state: references first, then
/// what the rules allow. `Ok` holds the order with every unit as its id.
pub fn check(
    field: &Field,
    side: &str,
    line: usize,
    order: &StcOrder,
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
    order: &StcOrder,
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
