//! The end of a turn: Charge markers left on the table are removed, each
//! unit's charges of the turn are forgotten, the game may end, and every
//! command rolls its PIPs for the next turn (ruling GT-5), so that players
//! know them when they write the PIP Phase's orders.

use std::collections::{BTreeMap, BTreeSet};

use super::super::events::Kind;
use super::super::state::{Morale, State};
use crate::audit::dice::{Dice, Die};
use crate::rules::phrase::Phrase;
use crate::rules::ruleset::Event;
use crate::rules::told::About;

pub fn end_turn(state: &mut State, events: &mut Vec<Event>, dice: &mut dyn Dice) {
    state.game.charges.clear();
    for u in &mut state.units {
        u.rules.charges_made = 0;
        u.rules.charged.clear();
    }
    state.phase = 0;
    if let Some(why) = game_over(state) {
        state.finished = Some(why.with_ids());
        events.push(Event::worded(
            Kind::GameOver,
            &[],
            Phrase::words(format!("The game ends after turn {}: ", state.turn))
                .join(why)
                .then("."),
        ));
        return;
    }
    state.turn += 1;
    state.active_side = state.next_side(&state.active_side);
    let pips = roll_pips(state, dice);
    let mut told = Phrase::words(format!("PIPs for turn {}: ", state.turn));
    let mut first = true;
    for (side, commands) in in_order_of_play(state, pips.clone()) {
        for (c, n) in commands {
            if !first {
                told = told.then(", ");
            }
            first = false;
            told = told.then_side(&side).then(format!(" {c} {n}"));
        }
    }
    events.push(Event::worded(
        Kind::Pips,
        &[],
        told.then(". ")
            .then_side(&state.active_side)
            .then(" has the initiative."),
    ));
    state.game.pips = pips;
}

/// Why the game is over, if it is (ruling GT-22): a side with no unit left
/// in play that is not routed, or the turn limit. A side's collapse is told
/// first, when both come in the last turn.
fn game_over(state: &State) -> Option<Phrase> {
    if let Some(side) = routed_armies(state).first() {
        return Some(Phrase::side(side).then(" has no unit left that is not routed"));
    }
    if state.turn_limit.is_some_and(|limit| state.turn >= limit) {
        return Some(Phrase::words(format!(
            "the turn limit ({}) was reached",
            state.turn
        )));
    }
    None
}

/// The sides with no unit left in play that is not routed, in the order of
/// the state's sides: an army that can fight no more (ruling GT-22).
pub fn routed_armies(state: &State) -> Vec<String> {
    state
        .sides
        .iter()
        .filter(|side| {
            !state.units.iter().any(|u| {
                u.side == **side && u.eliminated.is_none() && u.rules.morale != Morale::Routed
            })
        })
        .cloned()
        .collect()
}

/// Why a game over is over, as [`end_turn`] wrote it, read again from the
/// state it ended in (nothing changes after).
pub fn ending(state: &State) -> Option<Phrase> {
    state.finished.as_ref()?;
    game_over(state)
}

/// The commands in play, by side.
pub fn commands(state: &State) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for u in state.units.iter().filter(|u| u.eliminated.is_none()) {
        out.entry(u.side.clone())
            .or_default()
            .insert(u.rules.command.clone());
    }
    out
}

/// Rolls every command's PIPs: the campaign's `pip_dice` d6 each (or its
/// `command_pip_dice` for that command), added. The sides roll in their
/// order of play, each side's commands in the order of their names: the
/// dice a command gets do not hang on how the campaign spells its sides.
pub fn roll_pips(state: &State, dice: &mut dyn Dice) -> BTreeMap<String, BTreeMap<String, u32>> {
    let mut out: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
    for (side, commands) in in_order_of_play(state, commands(state)) {
        for command in commands {
            let n = state.params.pip_dice_of(&command);
            let mut total = 0;
            for k in 0..n {
                // Every command's PIPs are told to every side (ruling
                // GT-5), and so are their dice.
                total += dice.throw(
                    Die::D6,
                    &format!("PIPs of {side} command {command}, die {}", k + 1),
                    Some(About::everyone()),
                );
            }
            out.entry(side.clone()).or_default().insert(command, total);
        }
    }
    out
}

/// What a map keyed by side holds, in the sides' order of play (the state's
/// `sides`), rather than in the order their ids sort in; a side the state
/// does not list, which only a damaged state has, comes last.
fn in_order_of_play<T>(state: &State, mut by_side: BTreeMap<String, T>) -> Vec<(String, T)> {
    let mut out: Vec<(String, T)> = state
        .sides
        .iter()
        .filter_map(|side| by_side.remove_entry(side))
        .collect();
    out.extend(by_side);
    out
}
