//! The PIP Phase's resolution: each side's orders carried out in the order
//! given, the sides in turn: PIPs paid, Charge markers placed, moves,
//! formations, firing and rallies.

use std::collections::BTreeMap;

use super::super::charge::{Play, eligible};
use super::super::clauses;
use super::super::events;
use super::super::field::Field;
use super::super::morale::{cover, standing};
use super::super::movement::{self, Stopped};
use super::super::orders::{Action, GtOrder};
use super::super::state::{DeclaredCharge, Morale, State};
use crate::audit::dice::Dice;
use crate::rules::ruleset::Event;
use crate::rules::words::inches;

pub fn run(
    state: &State,
    orders: &BTreeMap<String, Vec<GtOrder>>,
    dice: &mut dyn Dice,
) -> (State, Vec<Event>) {
    let (play, _) = play(state, orders, dice);
    let mut next = play.field.state;
    next.phase = 1;
    (next, play.events)
}

/// A move, turn or change of formation the phase did not make, and why:
/// the unit, by id, and the rules' refusal with the unit in the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotMade {
    pub unit: String,
    pub what: &'static str,
    pub problem: String,
    pub clause: String,
    pub by: Option<String>,
}

/// The moves, turns and changes of formation of `side`'s `orders` that the
/// phase would not make, carried out as [`run`] carries them out with no
/// other side's orders before them, for the acknowledgement. Its dice
/// (rallies) are a throwaway stream's: no die moves a unit here.
pub fn not_made(state: &State, side: &str, orders: &[GtOrder]) -> Vec<NotMade> {
    let mut dice = crate::audit::DiceStream::new(&crate::audit::Digest32::ZERO);
    let only = BTreeMap::from([(side.to_string(), orders.to_vec())]);
    play(state, &only, &mut dice).1
}

/// Every side's orders carried out, the sides in turn, and the markers
/// settled; with what was not made.
fn play<'d>(
    state: &State,
    orders: &BTreeMap<String, Vec<GtOrder>>,
    dice: &'d mut dyn Dice,
) -> (Play<'d>, Vec<NotMade>) {
    // Charges cost what they cost when they were declared, from where the
    // units stood when the orders were written.
    let start = Field::new(state);
    let mut play = Play::new(state, dice);
    let mut not_made = Vec::new();
    for side in &state.sides {
        for order in orders.get(side).into_iter().flatten() {
            not_made.extend(carry_out(&mut play, &start, side, order));
        }
    }
    settle_markers(&mut play);
    (play, not_made)
}

/// Spends a command's PIPs; returns what it has left.
fn spend(play: &mut Play, side: &str, command: &str, cost: u32) -> u32 {
    let left = play
        .field
        .state
        .game
        .pips
        .entry(side.to_string())
        .or_default()
        .entry(command.to_string())
        .or_default();
    *left = left.saturating_sub(cost);
    *left
}

/// Carries out one order; what it could not make, if anything.
fn carry_out(play: &mut Play, start: &Field, side: &str, order: &GtOrder) -> Option<NotMade> {
    let i = play.field.at(order.unit.as_str())?;
    if !play.field.in_play(i) {
        return None;
    }
    let not_made = |play: &Play, what: &'static str, s: &Stopped| NotMade {
        unit: play.field.id(i).to_string(),
        what,
        problem: s.problem.clone(),
        clause: s.clause.clone(),
        by: s.by.map(|b| play.field.id(b).to_string()),
    };
    let name = play.name(i);
    let command = play.field.unit(i).rules.command.clone();
    let params = play.field.params().clone();
    let mut out = None;
    match &order.action {
        Action::Charge {
            target,
            principal,
            stay,
        } => {
            let t = play.field.at(target.as_str())?;
            let cost = eligible::cost(start, i, t).map_or(2, |(c, _)| c);
            let left = spend(play, side, &command, cost);
            play.field.state.game.charges.push(DeclaredCharge {
                unit: order.unit.as_str().to_string(),
                target: target.as_str().to_string(),
                command: command.clone(),
                principal: *principal,
                moving: cost == 2,
                stay: *stay,
            });
            play.field.unit_mut(i).rules.firing = false;
            let target_name = play.name(t);
            play.say(
                events::Kind::ChargeDeclared,
                &[i, t],
                format!(
                    "{name} ({command}) declares a charge on {target_name}{}{}: {cost} PIP{} paid, {left} left. A Charge marker is placed on {name}, pointing at {target_name}.",
                    if *principal { " as the principal attacker" } else { "" },
                    if cost == 2 { ", to move to contact first" } else { ", in contact" },
                    if cost == 1 { "" } else { "s" },
                ),
            );
        }
        Action::Advance(d) | Action::Retire(d) => {
            let signed = if matches!(order.action, Action::Advance(_)) {
                *d
            } else {
                -*d
            };
            let left = spend(play, side, &command, params.move_pips);
            let from = play.field.rect(i);
            let result = movement::straight(&play.field, i, signed).or_else(|s| match s.at_most {
                Some(m) if m > 0 => movement::straight(&play.field, i, m * signed.signum()),
                _ => Err(s),
            });
            match (result, from) {
                (Ok(to), Some(from)) => {
                    play.field.place(i, to);
                    let moved = crate::geometry::distance(from.front_centre, to.front_centre);
                    play.say_along(
                        events::Kind::Move,
                        &[i],
                        format!(
                            "{name} {} {} inches ({left} PIP{} left to {command}).",
                            if signed > 0 { "advances" } else { "falls back" },
                            inches(moved),
                            if left == 1 { "" } else { "s" }
                        ),
                        &[from.front_centre, to.front_centre],
                    );
                }
                (Err(s), _) => {
                    out = Some(not_made(play, "move", &s));
                    play.say_naming(
                        events::Kind::MoveRefused,
                        &[i],
                        s.by.as_slice(),
                        format!("{name} cannot move: {} ({}).", s.problem, s.clause),
                    )
                }
                _ => {}
            }
        }
        Action::Face(_) | Action::FaceUnit(_) => {
            let bearing = match &order.action {
                Action::Face(b) => Some(*b),
                Action::FaceUnit(u) => play
                    .field
                    .at(u.as_str())
                    .and_then(|j| movement::bearing_to(&play.field, i, j)),
                _ => None,
            };
            spend(play, side, &command, params.move_pips);
            let bearing = bearing?;
            match movement::face(&play.field, i, bearing) {
                Ok(to) => {
                    play.field.place(i, to);
                    play.say(
                        events::Kind::Move,
                        &[i],
                        format!("{name} turns to face {bearing} degrees."),
                    );
                }
                Err(s) => {
                    out = Some(not_made(play, "turn", &s));
                    play.say_naming(
                        events::Kind::MoveRefused,
                        &[i],
                        s.by.as_slice(),
                        format!("{name} cannot turn: {} ({}).", s.problem, s.clause),
                    )
                }
            }
        }
        Action::Form(x) => {
            spend(play, side, &command, params.formation_pips);
            match movement::form(&play.field, i, *x) {
                Ok(_) => {
                    play.field.unit_mut(i).rules.formation = *x;
                    play.field.refresh(i);
                    play.say(
                        events::Kind::Formation,
                        &[i],
                        format!("{name} forms {}.", x.word()),
                    );
                }
                Err(s) => {
                    out = Some(not_made(play, "change formation", &s));
                    play.say_naming(
                        events::Kind::MoveRefused,
                        &[i],
                        s.by.as_slice(),
                        format!(
                            "{name} cannot form {}: {} ({}).",
                            x.word(),
                            s.problem,
                            s.clause
                        ),
                    )
                }
            }
        }
        Action::StartFiring => {
            play.field.unit_mut(i).rules.firing = true;
            play.say(events::Kind::Firing, &[i], format!("{name} starts firing."));
        }
        Action::CeaseFire => {
            play.field.unit_mut(i).rules.firing = false;
            play.say(
                events::Kind::CeaseFire,
                &[i],
                format!("{name} ceases firing."),
            );
        }
        Action::Rally => {
            spend(play, side, &command, params.rally_pips);
            let was = play.field.unit(i).rules.morale;
            let mut mods = standing(play.field.unit(i), &params);
            mods.extend(cover(&play.field, i));
            // A rally's die, like a rally that fails, is its own side's: the
            // enemy sees a unit rally, or nothing (ruling GT-24).
            let check = play.check(
                events::Kind::MoraleCheckOwn,
                i,
                &[],
                "to rally (ruling GT-4)",
                mods,
            );
            if check.passed {
                let now = match was {
                    Morale::Routed => Morale::Shaken,
                    _ => Morale::Eager,
                };
                play.set_morale(i, now);
                play.say(
                    events::Kind::Rally,
                    &[i],
                    format!("{name} rallies: it is {} now.", now.word()),
                );
            } else {
                play.say(
                    events::Kind::RallyFails,
                    &[i],
                    format!("{name} fails to rally and stays {}.", was.word()),
                );
            }
        }
        Action::FireAt(_) | Action::Hold => {}
    }
    out
}

/// "If units from more than one command are charging the same enemy unit,
/// choose which command’s units will charge and remove the Charge markers
/// from the unit(s) of the other command, which just sit(s) there." A
/// side's sheet cannot name two commands against one target; this settles
/// charges of two sides on a third side's unit: the command that declared
/// first charges (ruling GT-20). Each charge without a principal takes its
/// first unit as one.
fn settle_markers(play: &mut Play) {
    let charges = std::mem::take(&mut play.field.state.game.charges);
    let mut kept: Vec<DeclaredCharge> = Vec::new();
    for c in charges {
        let first = kept
            .iter()
            .find(|k| k.target == c.target)
            .map(|k| k.command.clone());
        match first {
            Some(command) if command != c.command => {
                if let (Some(i), Some(t)) = (play.field.at(&c.unit), play.field.at(&c.target)) {
                    let (name, target) = (play.name(i), play.name(t));
                    play.say(
                        events::Kind::ChargeRemoved,
                        &[i, t],
                        format!(
                            "{name}'s Charge marker is removed: the command `{command}` charges {target} already, and {name} just sits there (\"{}\").",
                            clauses::OTHER_COMMAND
                        ),
                    );
                }
            }
            _ => kept.push(c),
        }
    }
    let targets: Vec<String> = kept.iter().map(|c| c.target.clone()).collect();
    for t in targets {
        if !kept.iter().any(|c| c.target == t && c.principal)
            && let Some(first) = kept.iter_mut().find(|c| c.target == t)
        {
            first.principal = true;
        }
    }
    play.field.state.game.charges = kept;
}
