//! Checking a side's order sheet against the state, its phase and its
//! PIPs. The sheet is taken line by line, in order, as the orders would be
//! carried out: each line spends its command's PIPs, and a later line sees
//! what the earlier ones did (a unit told to `cease fire` may then charge).
//! Every refusal names the line, the unit and the rule.

use std::collections::{BTreeMap, BTreeSet};

use super::super::clauses;
use super::super::field::Field;
use super::super::mechanics::charge::eligible::{self, Refusal};
use super::super::mechanics::movement::{self, Stopped};
use super::super::state::{Arm, Morale, State};
use super::super::turn::Phase;
use super::{Action, GtOrder, Written, parse};
use crate::geometry::{distance_ahead_of_frontage_line, rect_distance};
use crate::rules::names::{self, UnitId};
use crate::rules::orders::{OrderSheet, ParseError, Rejection};
use crate::rules::words::inches;

/// What the sheet has done so far.
#[derive(Default)]
struct Sheet {
    /// PIPs spent, by command.
    spent: BTreeMap<String, u32>,
    /// Units whose firing the sheet changed, and to what.
    firing: BTreeMap<usize, bool>,
    /// The line of each unit's one action (charge, move, formation, rally,
    /// fire, hold).
    acted: BTreeMap<usize, (usize, &'static str)>,
    /// Units charging, by target: the command charging it, the line of its
    /// first charge, and the principal's line.
    charges: BTreeMap<usize, (String, usize, Option<usize>)>,
    /// Units told to charge.
    charging: BTreeSet<usize>,
}

type Checked = Result<GtOrder, Rejection>;

/// Checks every line of a sheet.
pub fn check(state: &State, side: &str, lines: &[(usize, &str)]) -> OrderSheet<GtOrder> {
    let field = Field::new(state);
    let phase = Phase::of(state);
    let mut sheet = OrderSheet::default();
    let mut done = Sheet::default();
    for &(line, text) in lines {
        let written = match parse(text) {
            Ok(o) => o,
            Err(e) => {
                sheet.parse_errors.push(ParseError {
                    line,
                    problem: e.to_string(),
                });
                continue;
            }
        };
        match check_one(&field, side, phase, line, written, &mut done) {
            Ok(o) => sheet.accepted.push(o),
            Err(r) => sheet.rejections.push(r),
        }
    }
    sheet
}

fn refuse(
    line: usize,
    unit: Option<&str>,
    problem: impl Into<String>,
    clause: impl Into<String>,
) -> Rejection {
    Rejection {
        line,
        unit: unit.map(str::to_string),
        problem: problem.into(),
        clause: Some(clause.into()),
    }
}

fn check_one(
    field: &Field,
    side: &str,
    phase: Phase,
    line: usize,
    written: Written,
    done: &mut Sheet,
) -> Checked {
    let units = &field.state.units;
    let order = written.map(|r| {
        names::find(units.iter(), &r)
            .map(|u| UnitId::of(&u.id))
            .map_err(|e| Rejection {
                line,
                unit: None,
                problem: e.to_string(),
                clause: None,
            })
    })?;
    let id = order.unit.as_str().to_string();
    let Some(i) = field.at(&id) else {
        return Err(refuse(line, Some(&id), "no such unit", "ruling GT-1"));
    };
    if field.unit(i).side != side {
        return Err(Rejection {
            line,
            unit: Some(id),
            problem: "it is not one of your units".to_string(),
            clause: None,
        });
    }
    if !field.in_play(i) {
        return Err(Rejection {
            line,
            unit: Some(id),
            problem: "it is no longer on the field".to_string(),
            clause: None,
        });
    }
    let target = |r: &UnitId| field.at(r.as_str());
    let result = match (&order.action, phase) {
        (Action::Hold, _) => act(done, i, line, "hold").map(|_| ()),
        (Action::Charge { .. }, Phase::Combat) => Err(refuse(
            line,
            Some(&id),
            "charges are declared in the PIP Phase",
            format!(
                "Charging: \"{}\" \"{}\"",
                clauses::DECLARED_AND_PAID,
                clauses::TARGETS_IN_PIP_PHASE
            ),
        )),
        (Action::FireAt(_), Phase::Pips) => Err(refuse(
            line,
            Some(&id),
            "targets of fire are chosen in the combat phase, after the charges are declared; in the PIP Phase a unit may start firing (`fire`)",
            format!(
                "Charging: \"{}\" \"{}\"",
                clauses::TARGETS_IN_PIP_PHASE,
                clauses::UNLIKE_FIRING
            ),
        )),
        (Action::FireAt(t), Phase::Combat) => match target(t) {
            Some(t) => fire_at(field, i, t, line, done),
            None => Err(refuse(line, Some(&id), "no such target", "ruling GT-7")),
        },
        (_, Phase::Combat) => Err(refuse(
            line,
            Some(&id),
            "only `fire at` and `hold` are given in the combat phase; this order belongs to the PIP Phase",
            "ruling GT-1",
        )),
        (
            Action::Charge {
                target: t,
                principal,
                ..
            },
            Phase::Pips,
        ) => match target(t) {
            Some(t) => charge(field, i, t, *principal, line, done),
            None => Err(refuse(line, Some(&id), "no such target", "ruling GT-11")),
        },
        (Action::Advance(d), Phase::Pips) => {
            moved(field, i, line, done, movement::straight(field, i, *d))
        }
        (Action::Retire(d), Phase::Pips) => {
            moved(field, i, line, done, movement::straight(field, i, -*d))
        }
        (Action::Face(b), Phase::Pips) => moved(field, i, line, done, movement::face(field, i, *b)),
        (Action::FaceUnit(u), Phase::Pips) => {
            match target(u).and_then(|j| movement::bearing_to(field, i, j)) {
                Some(b) => moved(field, i, line, done, movement::face(field, i, b)),
                None => Err(refuse(
                    line,
                    Some(&id),
                    "it cannot face that unit",
                    "ruling GT-6",
                )),
            }
        }
        (Action::Form(x), Phase::Pips) => {
            if field.unit(i).rules.morale == Morale::Routed {
                Err(refuse(
                    line,
                    Some(&id),
                    "it is routed: it must rally first",
                    "ruling GT-4",
                ))
            } else if field.unit(i).rules.formation == *x {
                Err(refuse(
                    line,
                    Some(&id),
                    format!("it is in {} already", x.word()),
                    "ruling GT-6",
                ))
            } else {
                match movement::form(field, i, *x) {
                    Ok(_) => pay(field, i, line, done, field.params().formation_pips, "form"),
                    Err(s) => Err(stopped(line, &id, s)),
                }
            }
        }
        (Action::StartFiring, Phase::Pips) => start_firing(field, i, line, done),
        (Action::CeaseFire, Phase::Pips) => {
            if !firing(field, i, done) {
                Err(refuse(line, Some(&id), "it is not firing", "ruling GT-7"))
            } else {
                done.firing.insert(i, false);
                Ok(())
            }
        }
        (Action::Rally, Phase::Pips) => match field.unit(i).rules.morale {
            Morale::Eager => Err(refuse(
                line,
                Some(&id),
                "it is eager: there is nothing to rally",
                "ruling GT-4",
            )),
            _ => pay(field, i, line, done, field.params().rally_pips, "rally"),
        },
    };
    result.map(|()| order)
}

fn firing(field: &Field, i: usize, done: &Sheet) -> bool {
    done.firing
        .get(&i)
        .copied()
        .unwrap_or(field.unit(i).rules.firing)
}

/// Takes unit `i`'s one action of the phase.
fn act(done: &mut Sheet, i: usize, line: usize, what: &'static str) -> Result<(), Rejection> {
    if let Some(&(earlier, was)) = done.acted.get(&i) {
        // The clause is quoted once, after the problem, as every refusal
        // quotes it.
        let why = if what == "charge" && was == "charge" {
            format!("it is told to charge on line {earlier} already")
        } else {
            format!("it is given `{was}` on line {earlier} already: one action a unit a phase")
        };
        return Err(Rejection {
            line,
            unit: None,
            problem: why,
            clause: Some(if what == "charge" && was == "charge" {
                format!("Charging: \"{}\"", clauses::ONE_TARGET)
            } else {
                "ruling GT-6".to_string()
            }),
        });
    }
    done.acted.insert(i, (line, what));
    Ok(())
}

/// Spends `cost` PIPs of unit `i`'s command, if it has them.
fn pay(
    field: &Field,
    i: usize,
    line: usize,
    done: &mut Sheet,
    cost: u32,
    what: &'static str,
) -> Result<(), Rejection> {
    let u = field.unit(i);
    let command = u.rules.command.clone();
    let has = field.state.game.pips_of(&u.side, &command);
    let spent = done.spent.get(&command).copied().unwrap_or(0);
    if spent + cost > has {
        return Err(refuse(
            line,
            Some(&u.id),
            format!(
                "its command `{command}` has {} PIP{} left and this costs {cost}",
                has - spent.min(has),
                if has - spent.min(has) == 1 { "" } else { "s" }
            ),
            if what == "charge" {
                format!("Charging: \"{}\"", clauses::DECLARED_AND_PAID)
            } else {
                "ruling GT-5".to_string()
            },
        ));
    }
    act(done, i, line, what).map_err(|mut r| {
        r.unit = Some(u.id.clone());
        r
    })?;
    *done.spent.entry(command).or_default() += cost;
    Ok(())
}

fn stopped(line: usize, id: &str, s: Stopped) -> Rejection {
    let hint = s
        .at_most
        .map(|d| format!(" (at most {} inches)", inches(d)))
        .unwrap_or_default();
    refuse(line, Some(id), format!("{}{hint}", s.problem), s.clause)
}

fn moved(
    field: &Field,
    i: usize,
    line: usize,
    done: &mut Sheet,
    result: Result<crate::geometry::Rect, Stopped>,
) -> Result<(), Rejection> {
    let id = field.id(i).to_string();
    if field.unit(i).rules.morale == Morale::Routed {
        return Err(refuse(
            line,
            Some(&id),
            "it is routed: it must rally first",
            "ruling GT-4",
        ));
    }
    match result {
        Ok(_) => pay(field, i, line, done, field.params().move_pips, "move"),
        Err(s) => Err(stopped(line, &id, s)),
    }
}

fn start_firing(field: &Field, i: usize, line: usize, done: &mut Sheet) -> Result<(), Rejection> {
    let id = field.id(i).to_string();
    if field.arm(i) == Arm::Cavalry {
        return Err(refuse(
            line,
            Some(&id),
            "cavalry does not fire",
            "ruling GT-7",
        ));
    }
    if field.unit(i).rules.morale == Morale::Routed {
        return Err(refuse(line, Some(&id), "it is routed", "ruling GT-7"));
    }
    if firing(field, i, done) {
        return Err(refuse(
            line,
            Some(&id),
            "it is firing already",
            "ruling GT-7",
        ));
    }
    if done.charging.contains(&i) {
        return Err(refuse(
            line,
            Some(&id),
            "it is told to charge this turn",
            format!("Charging: \"{}\"", clauses::CHARGING_INFANTRY_FIRE),
        ));
    }
    done.firing.insert(i, true);
    Ok(())
}

fn from_refusal(line: usize, id: &str, r: Refusal) -> Rejection {
    r.at(line, Some(id.to_string()))
}

fn charge(
    field: &Field,
    i: usize,
    t: usize,
    principal: bool,
    line: usize,
    done: &mut Sheet,
) -> Result<(), Rejection> {
    let id = field.id(i).to_string();
    eligible::may_charge(field, i, firing(field, i, done))
        .map_err(|r| from_refusal(line, &id, r))?;
    eligible::may_be_charged(field, i, t).map_err(|r| from_refusal(line, &id, r))?;
    let command = field.unit(i).rules.command.clone();
    if let Some((other, first, _)) = done.charges.get(&t)
        && *other != command
    {
        return Err(refuse(
            line,
            Some(&id),
            format!(
                "units of command `{other}` charge {} already (line {first}); choose one command's units to charge it",
                field.name(t)
            ),
            format!(
                "Charging: \"{}\" \"{}\"",
                clauses::ONE_COMMAND,
                clauses::OTHER_COMMAND
            ),
        ));
    }
    if principal && let Some((_, _, Some(p))) = done.charges.get(&t) {
        return Err(refuse(
            line,
            Some(&id),
            format!(
                "the charge on {} has its principal on line {p}",
                field.name(t)
            ),
            format!("Charging: \"{}\"", clauses::PRINCIPAL),
        ));
    }
    let (cost, _) = eligible::cost(field, i, t).map_err(|r| from_refusal(line, &id, r))?;
    pay(field, i, line, done, cost, "charge")?;
    let entry = done.charges.entry(t).or_insert((command, line, None));
    if principal {
        entry.2 = Some(line);
    }
    done.charging.insert(i);
    done.firing.insert(i, false);
    Ok(())
}

fn fire_at(
    field: &Field,
    i: usize,
    t: usize,
    line: usize,
    done: &mut Sheet,
) -> Result<(), Rejection> {
    let id = field.id(i).to_string();
    let u = field.unit(i);
    let p = field.params();
    if field.arm(i) == Arm::Cavalry {
        return Err(refuse(
            line,
            Some(&id),
            "cavalry does not fire",
            "ruling GT-7",
        ));
    }
    if field.state.game.charges.iter().any(|c| c.unit == u.id) {
        return Err(refuse(
            line,
            Some(&id),
            "it is charging this turn",
            format!("Charging: \"{}\"", clauses::CHARGING_INFANTRY_FIRE),
        ));
    }
    if !u.rules.firing {
        return Err(refuse(
            line,
            Some(&id),
            "it is not firing: a unit starts firing in the PIP Phase (`fire`)",
            "ruling GT-7",
        ));
    }
    if u.rules.morale == Morale::Routed {
        return Err(refuse(line, Some(&id), "it is routed", "ruling GT-7"));
    }
    if !field.enemies(i, t) || !field.in_play(t) {
        return Err(refuse(
            line,
            Some(&id),
            "the target is not an enemy on the field",
            "ruling GT-7",
        ));
    }
    if field.arm(i) == Arm::Artillery
        && field
            .state
            .game
            .charges
            .iter()
            .any(|c| c.target == field.id(t))
    {
        return Err(refuse(
            line,
            Some(&id),
            format!("{} is being charged", field.name(t)),
            format!("Charging: \"{}\"", clauses::ARTILLERY_FIRE),
        ));
    }
    let (Some(a), Some(r)) = (field.rect(i), field.rect(t)) else {
        return Err(refuse(line, Some(&id), "not on the table", "ruling GT-7"));
    };
    let range = super::super::params::Params::inches(if field.arm(i) == Arm::Artillery {
        p.artillery_range
    } else {
        p.infantry_range
    });
    let gap = rect_distance(&a, &r);
    if gap > range {
        return Err(refuse(
            line,
            Some(&id),
            format!(
                "{} is {} inches away; its range is {}",
                field.name(t),
                inches(gap),
                inches(range)
            ),
            "ruling GT-7",
        ));
    }
    if r.corners()
        .iter()
        .all(|&c| distance_ahead_of_frontage_line(&a, c) <= 0)
    {
        return Err(refuse(
            line,
            Some(&id),
            "the target is not to its front",
            "ruling GT-7",
        ));
    }
    act(done, i, line, "fire at").map_err(|mut r| {
        r.unit = Some(id.clone());
        r
    })
}
