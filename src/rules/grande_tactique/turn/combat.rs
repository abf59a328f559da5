//! The combat phase's resolution: fire first (GT-7), then every declared
//! charge, one charge at a time: "Multiple charges on a single target are
//! resolved together (rather than sequentially as for firing)." Charges are
//! taken side by side in turn, the side with the initiative (the active
//! side, which rotates each turn) first, and each side's in the order it
//! declared them (ruling GT-20).

use std::collections::BTreeMap;

use super::super::events;
use super::super::mechanics::charge::{self, Group, Kind, Play};
use super::super::mechanics::morale::{cover, penalty, standing};
use super::super::orders::{Action, GtOrder};
use super::super::state::{Morale, State};
use crate::audit::dice::Dice;
use crate::rules::ruleset::Event;

pub fn run(
    state: &State,
    orders: &BTreeMap<String, Vec<GtOrder>>,
    dice: &mut dyn Dice,
) -> (State, Vec<Event>) {
    let mut play = Play::new(state, dice);
    for side in &state.sides {
        for order in orders.get(side).into_iter().flatten() {
            if let Action::FireAt(t) = &order.action
                && let (Some(i), Some(t)) = (
                    play.field.at(order.unit.as_str()),
                    play.field.at(t.as_str()),
                )
            {
                fire(&mut play, i, t);
            }
        }
    }
    let order = groups(&play.field.state);
    for (k, (_, group)) in order.iter().enumerate() {
        // The charges not yet resolved, for a follow-up charge against a
        // unit "being charged by other friends".
        play.pending = order[k + 1..]
            .iter()
            .map(|(side, g)| (g.target, side.clone(), g.attackers.len()))
            .collect();
        let mine: Vec<String> = group
            .attackers
            .iter()
            .map(|&a| play.field.id(a).to_string())
            .collect();
        play.field
            .state
            .game
            .charges
            .retain(|c| !mine.contains(&c.unit));
        charge::resolve(&mut play, group, Kind::Declared);
    }
    play.field.state.game.charges.clear();
    (play.field.state, play.events)
}

/// The declared charges as charges to resolve, in the order they are
/// resolved, each with the side making it.
pub fn groups(state: &State) -> Vec<(String, Group)> {
    let index = |id: &str| state.units.iter().position(|u| u.id == id);
    let mut by_side: BTreeMap<String, Vec<Group>> = BTreeMap::new();
    let mut seen: Vec<String> = Vec::new();
    for c in &state.game.charges {
        if seen.contains(&c.target) {
            continue;
        }
        seen.push(c.target.clone());
        let Some(t) = index(&c.target) else {
            continue;
        };
        let mut marks: Vec<_> = state
            .game
            .charges
            .iter()
            .filter(|d| d.target == c.target)
            .collect();
        // The principal first, then the others in the order declared.
        marks.sort_by_key(|d| !d.principal);
        let mut attackers = Vec::new();
        let mut moving = Vec::new();
        for d in &marks {
            if let Some(a) = index(&d.unit) {
                attackers.push(a);
                moving.push(d.moving);
            }
        }
        let Some(&first) = attackers.first() else {
            continue;
        };
        let side = state.units[first].side.clone();
        by_side.entry(side).or_default().push(Group {
            target: t,
            attackers,
            moving,
            stay: marks.first().is_some_and(|d| d.stay),
        });
    }
    // Side by side, the side with the initiative first.
    let at = state
        .sides
        .iter()
        .position(|s| *s == state.active_side)
        .unwrap_or(0);
    let rotation: Vec<String> = state
        .sides
        .iter()
        .cycle()
        .skip(at)
        .take(state.sides.len())
        .cloned()
        .collect();
    let mut queues: Vec<(String, std::collections::VecDeque<Group>)> = rotation
        .into_iter()
        .map(|s| {
            let q = by_side.remove(&s).unwrap_or_default().into_iter().collect();
            (s, q)
        })
        .collect();
    let mut out = Vec::new();
    loop {
        let mut any = false;
        for (side, q) in &mut queues {
            if let Some(g) = q.pop_front() {
                out.push((side.clone(), g));
                any = true;
            }
        }
        if !any {
            break;
        }
    }
    out
}

/// Fire (ruling GT-7): the target takes a Morale Check, less the campaign's
/// `fire_penalty`; an eager target that fails is shaken.
fn fire(play: &mut Play, i: usize, t: usize) {
    if !play.field.in_play(i) || !play.field.in_play(t) {
        return;
    }
    let u = play.field.unit(i);
    if !u.rules.firing || u.rules.morale == Morale::Routed {
        return;
    }
    let (name, target) = (play.name(i), play.name(t));
    play.say(
        events::Kind::Fire,
        &[i, t],
        format!("{name} fires at {target}."),
    );
    let params = play.field.params().clone();
    let mut mods = standing(play.field.unit(t), &params);
    mods.extend(cover(&play.field, t));
    mods.push(penalty("under fire", params.fire_penalty));
    let check = play.check(
        events::Kind::MoraleCheck,
        t,
        &[i],
        &format!("under fire from {name}"),
        mods,
    );
    if !check.passed && play.field.unit(t).rules.morale == Morale::Eager {
        play.set_morale(t, Morale::Shaken);
        play.say(
            events::Kind::Shaken,
            &[t],
            format!("{target} is shaken by the fire."),
        );
    }
}
