//! The end of a phase: whether an army breaks, and the move to the next
//! activation; after the second activation of a turn, the recovery of
//! disordered and retired units, and the turn limit.

use super::super::events::{Kind, event};
use super::super::field::Field;
use super::super::params::{Initiative, Readings};
use super::super::state::State;
use super::Log;
use crate::rules::phrase::Phrase;
use crate::rules::ruleset::Event;

/// The units each side has lost.
pub fn losses(state: &State, side: &str) -> u32 {
    state
        .units
        .iter()
        .filter(|u| u.side == side && u.eliminated.is_some())
        .count() as u32
}

/// Whether an army breaks (ruling KUL-22): a side that has lost
/// `army_breaks_at` units or more.
pub(crate) fn broken(state: &State) -> Vec<String> {
    state
        .sides
        .iter()
        .filter(|side| {
            state
                .params
                .army_breaks_at
                .get(*side)
                .is_some_and(|&n| losses(state, side) >= n)
        })
        .cloned()
        .collect()
}

/// The side that activates first in `turn` (ruling KUL-1).
pub fn first_side(state: &State, turn: u32) -> String {
    let first = if state.game.first_side.is_empty() {
        state.sides.first().cloned().unwrap_or_default()
    } else {
        state.game.first_side.clone()
    };
    match Readings::of(&state.options).initiative {
        Initiative::Fixed => first,
        Initiative::Alternate if turn.is_multiple_of(2) => state.next_side(&first),
        Initiative::Alternate => first,
    }
}

/// Recovery at the end of a turn (ruling KUL-10): a unit upset in an
/// earlier turn and out of every enemy zone of control comes back a step,
/// retired to disordered, disordered to normal.
fn recover(state: State, log: &mut Log) -> State {
    let turn = state.turn;
    let mut field = Field::new(state);
    for i in 0..field.state.units.len() {
        if !field.in_play(i) {
            continue;
        }
        let u = field.unit(i);
        if u.rules.upset_turn >= turn || !(u.rules.disordered || u.rules.retired) {
            continue;
        }
        if field.enemy_zoc(field.hex(i), &u.side) {
            continue;
        }
        let (id, name) = (u.id.clone(), u.name.clone());
        let u = field.unit_mut(i);
        let text = if u.rules.retired {
            u.rules.retired = false;
            u.rules.disordered = true;
            format!("{name} rallies to its standard: no longer retired, still disordered.")
        } else {
            u.rules.disordered = false;
            format!("{name} recovers its order.")
        };
        log.events.push(event(Kind::Recovery, &[&id], text));
    }
    field.state
}

/// The words of the armies breaking (ruling KUL-22), which end the game;
/// none while no army has broken. Read from the state the phase ends with,
/// and again from the state the game ended in, which nothing changes after.
pub fn breaks(state: &State) -> Option<Phrase> {
    let broken = broken(state);
    match broken.as_slice() {
        [] => None,
        [one] => {
            let lost = match losses(state, one) {
                1 => "1 unit".to_string(),
                n => format!("{n} units"),
            };
            let other = state
                .sides
                .iter()
                .find(|s| *s != one)
                .cloned()
                .unwrap_or_default();
            Some(
                Phrase::side(one)
                    .then(format!(" breaks, having lost {lost}: the battle goes to "))
                    .then_side(&other)
                    .then("."),
            )
        }
        _ => Some(Phrase::words("Both armies break: the battle is drawn.")),
    }
}

/// Ends the phase: an army that breaks ends the game; otherwise the next
/// activation, or after the second the recovery and the next turn.
pub fn finish_phase(mut state: State, log: &mut Log) -> State {
    if let Some(words) = breaks(&state) {
        state.finished = Some(words.with_ids());
        log.events.push(Event::worded(Kind::ArmyBreaks, &[], words));
        log.events.push(event(
            Kind::GameOver,
            &[],
            format!("The game ends in turn {}.", state.turn),
        ));
        return state;
    }
    if state.phase == 0 {
        state.phase = 1;
        state.active_side = state.next_side(&first_side(&state, state.turn));
        return state;
    }
    let mut state = recover(state, log);
    if state.turn_limit.is_some_and(|limit| state.turn >= limit) {
        state.finished = Some(format!("the turn limit ({}) was reached", state.turn));
        log.events.push(event(
            Kind::GameOver,
            &[],
            format!("The game ends after turn {}.", state.turn),
        ));
        return state;
    }
    state.turn += 1;
    state.phase = 0;
    state.active_side = first_side(&state, state.turn);
    state
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::MapSpec;
    use crate::rules::kulikovo::params::{ALTERNATE_INITIATIVE, Params};
    use crate::rules::kulikovo::state::KulGame;
    use std::collections::BTreeMap;

    fn state(options: &[&str]) -> State {
        State {
            campaign: "c".into(),
            ruleset: "kulikovo".into(),
            turn: 1,
            phase: 0,
            active_side: "horde".into(),
            sides: vec!["russians".into(), "horde".into()],
            map: MapSpec::Hex {
                columns: 4,
                rows: 4,
            },
            terrain: Vec::new(),
            units: Vec::new(),
            generals: Vec::new(),
            standing_orders: BTreeMap::new(),
            turn_limit: Some(3),
            options: options.iter().map(|o| o.to_string()).collect(),
            nations: BTreeMap::new(),
            finished: None,
            params: Params::default(),
            game: KulGame {
                first_side: "horde".into(),
            },
        }
    }

    /// Phases and active sides through the turns: (turn, phase, active).
    fn walk(mut s: State, phases: usize) -> Vec<(u32, u32, String)> {
        let mut seen = vec![(s.turn, s.phase, s.active_side.clone())];
        for _ in 0..phases {
            s = finish_phase(s, &mut Log::default());
            seen.push((s.turn, s.phase, s.active_side.clone()));
        }
        seen
    }

    /// Ruling KUL-1: the scenario's first side activates first every turn.
    #[test]
    fn the_first_side_activates_first_every_turn() {
        let seen = walk(state(&[]), 4);
        let want: Vec<(u32, u32, String)> = [
            (1, 0, "horde"),
            (1, 1, "russians"),
            (2, 0, "horde"),
            (2, 1, "russians"),
            (3, 0, "horde"),
        ]
        .iter()
        .map(|(t, p, s)| (*t, *p, s.to_string()))
        .collect();
        assert_eq!(seen, want);
    }

    /// Ruling KUL-1, campaign option alternate-initiative: the sides take
    /// the first activation in turn.
    #[test]
    fn with_alternate_initiative_the_sides_take_turns_going_first() {
        let seen = walk(state(&[ALTERNATE_INITIATIVE]), 4);
        let firsts: Vec<&str> = seen
            .iter()
            .filter(|(_, p, _)| *p == 0)
            .map(|(_, _, s)| s.as_str())
            .collect();
        assert_eq!(firsts, ["horde", "russians", "horde"]);
        assert_eq!(seen[3], (2, 1, "horde".to_string()));
    }

    /// The turn limit ends the game after the last turn's second
    /// activation, not before.
    #[test]
    fn the_turn_limit_ends_the_game_after_the_last_turn() {
        let mut s = state(&[]);
        for _ in 0..5 {
            s = finish_phase(s, &mut Log::default());
            assert!(s.finished.is_none(), "{:?}", (s.turn, s.phase));
        }
        s = finish_phase(s, &mut Log::default());
        assert_eq!(
            s.finished.as_deref(),
            Some("the turn limit (3) was reached")
        );
    }
}
