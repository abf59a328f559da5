//! The PIP Phase's resolution: each side's orders carried out in the order
//! given, the sides in turn: PIPs paid, Charge markers placed, moves,
//! formations, firing and rallies.

use std::collections::BTreeMap;

use super::super::clauses;
use super::super::events;
use super::super::field::Field;
use super::super::mechanics::charge::{Play, eligible};
use super::super::mechanics::morale::{cover, standing};
use super::super::mechanics::movement::{self, Stopped};
use super::super::orders::{Action, GtOrder};
use super::super::params::Params;
use super::super::state::{DeclaredCharge, Formation, Morale, State};
use crate::audit::dice::Dice;
use crate::geometry::Hundredths;
use crate::rules::names::UnitId;
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

/// The unit an order is given to, as the order's step needs it.
struct Ordered<'o> {
    i: usize,
    /// Its id as the order names it.
    id: &'o UnitId,
    side: &'o str,
    name: String,
    command: String,
    params: Params,
}

impl Ordered<'_> {
    /// Spends the unit's command's PIPs; returns what it has left.
    fn spend(&self, play: &mut Play, cost: u32) -> u32 {
        spend(play, self.side, &self.command, cost)
    }
}

/// Carries out one order; what it could not make, if anything.
fn carry_out(play: &mut Play, start: &Field, side: &str, order: &GtOrder) -> Option<NotMade> {
    let i = play.field.at(order.unit.as_str())?;
    if !play.field.in_play(i) {
        return None;
    }
    let u = Ordered {
        i,
        id: &order.unit,
        side,
        name: play.name(i),
        command: play.field.unit(i).rules.command.clone(),
        params: play.field.params().clone(),
    };
    match &order.action {
        Action::Charge {
            target,
            principal,
            stay,
        } => {
            declare_charge(play, start, &u, target, *principal, *stay);
            None
        }
        Action::Advance(d) => straight(play, &u, *d),
        Action::Retire(d) => straight(play, &u, -*d),
        Action::Face(b) => {
            u.spend(play, u.params.move_pips);
            face(play, &u, *b)
        }
        Action::FaceUnit(other) => {
            let bearing = play
                .field
                .at(other.as_str())
                .and_then(|j| movement::bearing_to(&play.field, i, j));
            u.spend(play, u.params.move_pips);
            face(play, &u, bearing?)
        }
        Action::Form(x) => form(play, &u, *x),
        Action::StartFiring => {
            play.field.unit_mut(i).rules.firing = true;
            play.say(
                events::Kind::Firing,
                &[i],
                format!("{} starts firing.", u.name),
            );
            None
        }
        Action::CeaseFire => {
            play.field.unit_mut(i).rules.firing = false;
            play.say(
                events::Kind::CeaseFire,
                &[i],
                format!("{} ceases firing.", u.name),
            );
            None
        }
        Action::Rally => {
            rally(play, &u);
            None
        }
        Action::FireAt(_) | Action::Hold => None,
    }
}

/// What a refused move, turn or change of formation is reported as.
fn refused(play: &Play, i: usize, what: &'static str, s: &Stopped) -> NotMade {
    NotMade {
        unit: play.field.id(i).to_string(),
        what,
        problem: s.problem.clone(),
        clause: s.clause.clone(),
        by: s.by.map(|b| play.field.id(b).to_string()),
    }
}

/// A charge declared: its PIPs paid (what it costs from where the units
/// stood when the orders were written, 2 where it must move to contact) and
/// a Charge marker placed; a unit that charges stops firing.
fn declare_charge(
    play: &mut Play,
    start: &Field,
    u: &Ordered,
    target: &UnitId,
    principal: bool,
    stay: bool,
) {
    let Some(t) = play.field.at(target.as_str()) else {
        return;
    };
    let (i, name, command) = (u.i, &u.name, &u.command);
    let cost = eligible::cost(start, i, t).map_or(2, |(c, _)| c);
    let left = u.spend(play, cost);
    play.field.state.game.charges.push(DeclaredCharge {
        unit: u.id.as_str().to_string(),
        target: target.as_str().to_string(),
        command: command.clone(),
        principal,
        moving: cost == 2,
        stay,
    });
    play.field.unit_mut(i).rules.firing = false;
    let target_name = play.name(t);
    play.say(
        events::Kind::ChargeDeclared,
        &[i, t],
        format!(
            "{name} ({command}) declares a charge on {target_name}{}{}: {cost} PIP{} paid, {left} left. A Charge marker is placed on {name}, pointing at {target_name}.",
            if principal { " as the principal attacker" } else { "" },
            if cost == 2 { ", to move to contact first" } else { ", in contact" },
            if cost == 1 { "" } else { "s" },
        ),
    );
}

/// An advance (`signed` > 0) or a fall back, straight and facing the same
/// way (GT-6); cut short where the rules allow only part of it.
fn straight(play: &mut Play, u: &Ordered, signed: Hundredths) -> Option<NotMade> {
    let (i, name, command) = (u.i, &u.name, &u.command);
    let left = u.spend(play, u.params.move_pips);
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
            None
        }
        (Err(s), _) => {
            let out = refused(play, i, "move", &s);
            play.say_naming(
                events::Kind::MoveRefused,
                &[i],
                s.by.as_slice(),
                format!("{name} cannot move: {} ({}).", s.problem, s.clause),
            );
            Some(out)
        }
        _ => None,
    }
}

/// A turn about its centre to face `bearing`, paid for already.
fn face(play: &mut Play, u: &Ordered, bearing: u32) -> Option<NotMade> {
    let (i, name) = (u.i, &u.name);
    match movement::face(&play.field, i, bearing) {
        Ok(to) => {
            play.field.place(i, to);
            play.say(
                events::Kind::Move,
                &[i],
                format!("{name} turns to face {bearing} degrees."),
            );
            None
        }
        Err(s) => {
            let out = refused(play, i, "turn", &s);
            play.say_naming(
                events::Kind::MoveRefused,
                &[i],
                s.by.as_slice(),
                format!("{name} cannot turn: {} ({}).", s.problem, s.clause),
            );
            Some(out)
        }
    }
}

/// A change of formation, paid for whether it is made or not.
fn form(play: &mut Play, u: &Ordered, x: Formation) -> Option<NotMade> {
    let (i, name) = (u.i, &u.name);
    u.spend(play, u.params.formation_pips);
    match movement::form(&play.field, i, x) {
        Ok(_) => {
            play.field.unit_mut(i).rules.formation = x;
            play.field.refresh(i);
            play.say(
                events::Kind::Formation,
                &[i],
                format!("{name} forms {}.", x.word()),
            );
            None
        }
        Err(s) => {
            let out = refused(play, i, "change formation", &s);
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
            );
            Some(out)
        }
    }
}

/// A rally (GT-4): a Morale Check passed brings a routed unit to shaken,
/// a shaken one to eager.
fn rally(play: &mut Play, u: &Ordered) {
    let (i, name) = (u.i, &u.name);
    u.spend(play, u.params.rally_pips);
    let was = play.field.unit(i).rules.morale;
    let mut mods = standing(play.field.unit(i), &u.params);
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
