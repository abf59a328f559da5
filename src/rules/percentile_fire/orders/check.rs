//! The validation step: each order's units looked up and the order checked
//! against the phase and the table, or refused with the line, the unit and
//! the rule.

use std::collections::BTreeMap;

use super::{Action, Order, PfOrder, UnitRef, Written};
use crate::rules::names::{self, UnitId};
use crate::rules::orders::Rejection;
use crate::rules::percentile_fire::fire::Forbidden;
use crate::rules::percentile_fire::fire::factors::Occasion;
use crate::rules::percentile_fire::moves;
use crate::rules::percentile_fire::phase::{Phase, shock};
use crate::rules::percentile_fire::state::{Arm, State};
use crate::rules::percentile_fire::table::Table;
use crate::rules::percentile_fire::table::eligible::{self, Request};

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

fn forbidden(line: usize, unit: &str, f: Forbidden) -> Rejection {
    refuse(line, Some(unit), f.problem, f.clause)
}

/// Looks a reference up among the units in play.
pub fn find(state: &State, r: &UnitRef, line: usize) -> Result<UnitId, Rejection> {
    let pool = state.units.iter().filter(|u| u.eliminated.is_none());
    names::find(pool, &r.0)
        .map(|u| UnitId::of(&u.id))
        .map_err(|e| refuse(line, None, e.to_string(), ""))
}

/// What the sheet has given so far: one order a unit (11.25), the
/// batteries at each target (11.28), the skirmish screens already firing
/// with another (11.27).
#[derive(Default)]
pub struct Sheet {
    lines: BTreeMap<String, usize>,
    batteries: BTreeMap<String, u32>,
    /// Units replacing another to receive a shock, by the line.
    replacing: BTreeMap<String, usize>,
}

impl Sheet {
    fn admit(&mut self, line: usize, unit: &str) -> Result<(), Rejection> {
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

/// Which actions a side may give in the current phase, for the refusal.
fn allowed(phase: Phase, phasing: bool) -> &'static str {
    match (phase, phasing) {
        (Phase::Movement, true) => {
            "hold, forward, back, left, right, face, form, retire, charge, shock"
        }
        (Phase::Movement, false) => {
            "hold, opportunity fire, passby fire, opportunity and passby fire"
        }
        (Phase::ArtilleryFire | Phase::InfantryFire, _) => "hold, fire",
        (Phase::Shock, false) => "hold, final fire, support, replace",
        (Phase::Shock, true) => "hold",
    }
}

/// Checks one order of `side` in the current phase.
pub fn check(
    state: &State,
    table: &Table,
    sheet: &mut Sheet,
    side: &str,
    line: usize,
    order: &Written,
) -> Result<Order, Rejection> {
    let phase = Phase::of(state);
    let phasing = state.active_side == side;
    let PfOrder::Unit { unit, action } = order else {
        return Ok(PfOrder::Pass);
    };
    let id = find(state, unit, line)?;
    let me = id.as_str();
    let Some(u) = state.unit(me) else {
        return Err(refuse(line, Some(me), "is not in play", ""));
    };
    if u.side != side {
        return Err(refuse(
            line,
            Some(me),
            format!("is not a unit of {side}"),
            "",
        ));
    }
    let look = |r: &UnitRef| find(state, r, line);
    let action: Action<UnitId> = match action {
        Action::Hold => Action::Hold,
        Action::Move(w, d) => Action::Move(*w, *d),
        Action::Face(f) => Action::Face(*f),
        Action::Form(f) => Action::Form(*f),
        Action::Retire => Action::Retire,
        Action::Standing {
            opportunity,
            passby,
        } => Action::Standing {
            opportunity: *opportunity,
            passby: *passby,
        },
        Action::Charge(t) => Action::Charge(look(t)?),
        Action::Shock(t) => Action::Shock(look(t)?),
        Action::Fire { target, shot } => Action::Fire {
            target: look(target)?,
            shot: *shot,
        },
        Action::FinalFire(t) => Action::FinalFire(look(t)?),
        Action::Support(t) => Action::Support(look(t)?),
        Action::Replace(t) => Action::Replace(look(t)?),
    };
    let fits = matches!(
        (&action, phase, phasing),
        (Action::Hold, _, _)
            | (
                Action::Move(..)
                    | Action::Face(_)
                    | Action::Form(_)
                    | Action::Retire
                    | Action::Charge(_)
                    | Action::Shock(_),
                Phase::Movement,
                true,
            )
            | (Action::Standing { .. }, Phase::Movement, false)
            | (
                Action::Fire { .. },
                Phase::ArtilleryFire | Phase::InfantryFire,
                _
            )
            | (
                Action::FinalFire(_) | Action::Support(_) | Action::Replace(_),
                Phase::Shock,
                false,
            )
    );
    if !fits {
        return Err(refuse(
            line,
            Some(me),
            format!(
                "`{action}` is not an order of the {} for the {} side; its orders are: {}",
                phase.name(),
                if phasing { "phasing" } else { "non-phasing" },
                allowed(phase, phasing)
            ),
            "11.0: \"During the Reciprocal Fire Phases, both Players may fire all, some or none of their eligible units\"",
        ));
    }
    if let (Action::FinalFire(t) | Action::Support(t), Some(at)) =
        (&action, sheet.replacing.get(me))
    {
        return Err(refuse(
            line,
            Some(me),
            format!(
                "it replaces a friendly unit on line {at} and cannot fire upon {t}, which declared the shock"
            ),
            "11.86: \"if a player replaces a unit with another friendly unit to receive the Shock Combat attack, that replacement unit, if within the Shock Combat Zone, cannot fire upon the attacking enemy units\"",
        ));
    }
    sheet.admit(line, me)?;
    match &action {
        Action::Move(..)
        | Action::Face(_)
        | Action::Form(_)
        | Action::Retire
        | Action::Charge(_)
        | Action::Shock(_) => {
            if let Action::Charge(t) | Action::Shock(t) = &action
                && state.unit(t.as_str()).is_some_and(|t| t.side == side)
            {
                return Err(refuse(
                    line,
                    Some(me),
                    format!("{t} is not an enemy unit"),
                    "11.83",
                ));
            }
            moves::end_of(state, table, u, &action).map_err(|f| forbidden(line, me, f))?;
        }
        Action::Standing { .. } => {
            eligible::never_fires(u).map_err(|f| forbidden(line, me, f))?;
            eligible::fires_in(u, phase, Occasion::Opportunity, &state.params)
                .map_err(|f| forbidden(line, me, f))?;
        }
        Action::Fire { target, shot } => {
            if u.rules.in_square.is_some() && u.rules.arm != Arm::Artillery {
                return Err(refuse(
                    line,
                    Some(me),
                    format!(
                        "it fires with its square, {}: all the infantry is grouped as one fire",
                        u.rules.in_square.as_deref().unwrap_or_default()
                    ),
                    "11.11: \"If in square formation, all the infantry is grouped as one fire and the artillery on a per battery fire combat.\"",
                ));
            }
            let group = eligible::converged(table, state, u);
            if let Some(first) = group
                .iter()
                .skip(1)
                .find(|g| sheet.lines.contains_key(&g.id))
            {
                return Err(refuse(
                    line,
                    Some(me),
                    format!("it fires with {} as one converged skirmish unit", first.id),
                    "11.27: \"Light company skirmish (open) order figures deployed from close order infantry battalions fire as tempora.ry converged unit unless there is a gap of 4\" or greater\"",
                ));
            }
            let target_unit = state.unit(target.as_str()).map(|t| table.host(state, t));
            let host = target_unit.map(|t| t.id.clone()).unwrap_or_default();
            let at = sheet.batteries.get(&host).copied().unwrap_or(0);
            let Some(target_unit) = target_unit else {
                return Err(refuse(
                    line,
                    Some(me),
                    format!("no target {target}"),
                    "11.11",
                ));
            };
            let req = Request {
                firer: u,
                target: target_unit,
                occasion: Occasion::Reciprocal,
                phase,
                shot: *shot,
                attack: u.rules.fire_attacks + 1,
                batteries_at_target: at,
                hierarchy: true,
            };
            eligible::plan(table, state, &req).map_err(|f| forbidden(line, me, f))?;
            if u.rules.arm == Arm::Artillery {
                *sheet.batteries.entry(host).or_insert(0) += 1;
            }
        }
        Action::FinalFire(t) => {
            shock::final_fire(state, table, u, t.as_str(), 1)
                .map_err(|f| forbidden(line, me, f))?;
        }
        Action::Support(t) => {
            shock::support(state, table, u, t.as_str(), 1).map_err(|f| forbidden(line, me, f))?;
        }
        Action::Replace(t) => {
            shock::replace_check(state, u, t.as_str()).map_err(|f| forbidden(line, me, f))?;
            sheet.replacing.insert(me.to_string(), line);
        }
        Action::Hold => {}
    }
    Ok(PfOrder::Unit { unit: id, action })
}
