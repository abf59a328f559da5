//! The validation step: each order's units looked up and the order checked
//! against the phase and the table, or refused with the line, the unit and
//! the rule.

use std::collections::BTreeMap;

use super::{Action, Order, PfOrder, UnitRef, Written};
use crate::rules::names::{self, UnitId};
use crate::rules::orders::Rejection;
use crate::rules::percentile_fire::field::Table;
use crate::rules::percentile_fire::field::eligible::{self, Request};
use crate::rules::percentile_fire::mechanics::fire::Refusal;
use crate::rules::percentile_fire::mechanics::fire::factors::Occasion;
use crate::rules::percentile_fire::mechanics::moves;
use crate::rules::percentile_fire::state::{Arm, Shot, State, Unit};
use crate::rules::percentile_fire::turn::{Phase, shock};

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

fn forbidden(line: usize, unit: &str, f: Refusal) -> Rejection {
    let clause = f.cited().to_string();
    refuse(line, Some(unit), f.problem, &clause)
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

/// Checks one order of `side` in the current phase: its units looked up,
/// the action one of the phase's for the side, one order a unit (11.25),
/// then the check of its kind.
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
    let action = looked_up(state, action, line)?;
    in_phase(&action, phase, phasing, line, me)?;
    not_at_the_shocker(sheet, &action, line, me)?;
    sheet.admit(line, me)?;
    let o = Ordered {
        state,
        table,
        u,
        line,
        me,
    };
    match &action {
        Action::Move(..)
        | Action::Face(_)
        | Action::Form(_)
        | Action::Retire
        | Action::Charge(_)
        | Action::Shock(_) => o.a_move(&action, side)?,
        Action::Standing { .. } => o.standing(phase)?,
        Action::Fire { target, shot } => o.fire(sheet, phase, target, *shot)?,
        Action::FinalFire(t) => {
            shock::final_fire(state, table, u, t.as_str(), 1).map_err(|f| o.forbidden(f))?;
        }
        Action::Support(t) => {
            shock::support(state, table, u, t.as_str(), 1).map_err(|f| o.forbidden(f))?;
        }
        Action::Replace(t) => {
            shock::replace_check(state, u, t.as_str()).map_err(|f| o.forbidden(f))?;
            sheet.replacing.insert(me.to_string(), line);
        }
        Action::Hold => {}
    }
    Ok(PfOrder::Unit { unit: id, action })
}

/// The action with the units it names looked up among the units in play.
fn looked_up(
    state: &State,
    action: &Action<UnitRef>,
    line: usize,
) -> Result<Action<UnitId>, Rejection> {
    let look = |r: &UnitRef| find(state, r, line);
    Ok(match action {
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
    })
}

/// The action is one the side may give in this phase: the phasing side
/// moves in the Movement Phase and the other stands ready to fire; both
/// fire in the Reciprocal Fire Phases (11.0); the defender fires, supports
/// or replaces in the Shock Combat Phase.
fn in_phase(
    action: &Action<UnitId>,
    phase: Phase,
    phasing: bool,
    line: usize,
    me: &str,
) -> Result<(), Rejection> {
    let fits = matches!(
        (action, phase, phasing),
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
    if fits {
        return Ok(());
    }
    Err(refuse(
        line,
        Some(me),
        format!(
            "`{action}` is not an order of the {} for the {} side; its orders are: {}",
            phase.name(),
            if phasing { "phasing" } else { "non-phasing" },
            allowed(phase, phasing)
        ),
        "11.0: \"During the Reciprocal Fire Phases, both Players may fire all, some or none of their eligible units\"",
    ))
}

/// 11.86: a unit replacing a friend to receive the shock does not fire at
/// the attacker, in final or supportive fire.
fn not_at_the_shocker(
    sheet: &Sheet,
    action: &Action<UnitId>,
    line: usize,
    me: &str,
) -> Result<(), Rejection> {
    if let (Action::FinalFire(t) | Action::Support(t), Some(at)) = (action, sheet.replacing.get(me))
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
    Ok(())
}

/// One order being checked: the state and table, its unit, and its line.
struct Ordered<'s> {
    state: &'s State,
    table: &'s Table,
    u: &'s Unit,
    line: usize,
    me: &'s str,
}

impl Ordered<'_> {
    fn forbidden(&self, f: Refusal) -> Rejection {
        forbidden(self.line, self.me, f)
    }

    /// A move, a charge or a shock: at an enemy unit (11.83), and one the
    /// unit can make (ruling PF-3).
    fn a_move(&self, action: &Action<UnitId>, side: &str) -> Result<(), Rejection> {
        if let Action::Charge(t) | Action::Shock(t) = action
            && self.state.unit(t.as_str()).is_some_and(|t| t.side == side)
        {
            return Err(refuse(
                self.line,
                Some(self.me),
                format!("{t} is not an enemy unit"),
                "11.83",
            ));
        }
        moves::end_of(self.state, self.table, self.u, action).map_err(|f| self.forbidden(f))?;
        Ok(())
    }

    /// A standing order for opportunity or passby fire: from a unit that
    /// may fire in the Movement Phase (11.23, 11.81).
    fn standing(&self, phase: Phase) -> Result<(), Rejection> {
        let u = self.u;
        eligible::never_fires(u).map_err(|f| self.forbidden(f))?;
        eligible::fires_in(u, phase, Occasion::Opportunity, &self.state.params)
            .map_err(|f| self.forbidden(f))?;
        Ok(())
    }

    /// A fire attack: not from infantry in a square, which fires as one
    /// (11.11), nor from a screen already firing with another (11.27), and
    /// one the table allows (11.20-11.46), counting the batteries at each
    /// target (11.28).
    fn fire(
        &self,
        sheet: &mut Sheet,
        phase: Phase,
        target: &UnitId,
        shot: Option<Shot>,
    ) -> Result<(), Rejection> {
        let (state, table, u, line, me) = (self.state, self.table, self.u, self.line, self.me);
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
            shot,
            attack: u.rules.fire_attacks + 1,
            batteries_at_target: at,
            hierarchy: true,
        };
        eligible::plan(table, state, &req).map_err(|f| self.forbidden(f))?;
        if u.rules.arm == Arm::Artillery {
            *sheet.batteries.entry(host).or_insert(0) += 1;
        }
        Ok(())
    }
}
