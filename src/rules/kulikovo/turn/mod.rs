//! One phase by mail: one side's activation (ruling KUL-1). Its orders are
//! carried out in two segments, as "Men of Iron" plays an activation: the
//! movement and missile fire segment, in the order the lines are written
//! (`act`), then the shock segment, every attack after every move (`attack`).
//! The second activation of a turn ends with the recovery of disordered and
//! retired units, and the game ends when an army breaks or the turn limit
//! is reached (`end`).

pub mod act;
pub mod attack;
pub mod end;
mod phrases;
pub mod retreat;

use std::collections::BTreeMap;

use super::events::{Kind, event};
use super::field::Field;
use super::orders::KulOrder;
use super::params::Again;
use super::state::State;
use crate::audit::dice::Dice;
use crate::rules::board::Location;
use crate::rules::phrase::Phrase;
use crate::rules::ruleset::Event;

/// What a phase has told so far.
#[derive(Debug, Default)]
pub struct Log {
    pub events: Vec<Event>,
}

/// Resolves the current phase with each side's accepted orders.
pub fn run(
    state: &State,
    orders: &BTreeMap<String, Vec<KulOrder>>,
    dice: &mut dyn Dice,
) -> (State, Vec<Event>) {
    let mut field = Field::new(state.clone());
    let mut log = Log::default();
    let active = state.active_side.clone();
    let none = Vec::new();
    let own = orders.get(&active).unwrap_or(&none);
    let counter: Vec<String> = orders
        .iter()
        .filter(|(side, _)| **side != active)
        .flat_map(|(_, list)| list.iter())
        .filter_map(|o| match o {
            KulOrder::CounterCharge { unit } => Some(unit.as_str().to_string()),
            _ => None,
        })
        .collect();
    log.events.push(Event::worded(
        Kind::Activation,
        &[],
        Phrase::words(format!(
            "Turn {}, {} activation: ",
            state.turn,
            if state.phase == 0 { "first" } else { "second" },
        ))
        .then_side(&active)
        .then(
            if own.is_empty() || matches!(own.as_slice(), [KulOrder::Pass]) {
                " passes."
            } else {
                "."
            },
        ),
    ));
    let mut acts = act::Segment::new(&field);
    for order in own.iter().filter(|o| !o.is_attack()) {
        acts.carry_out(&mut field, order, dice, &mut log);
    }
    attack::segment(&mut field, &acts, own, &counter, dice, &mut log);
    let mut next = field.state;
    for (side, list) in orders {
        next.standing_orders
            .insert(side.clone(), list.iter().map(ToString::to_string).collect());
    }
    let next = end::finish_phase(next, &mut log);
    (next, log.events)
}

/// Takes a unit out of play; the leaders with it join the nearest unit of
/// their side within their range, or are captured (ruling KUL-12).
pub fn eliminate(field: &mut Field, i: usize, why: String, log: &mut Log) {
    let at = field.hex(i);
    let id = field.unit(i).id.clone();
    let side = field.unit(i).side.clone();
    field.remove(i, why);
    let range = field.state.params.leader_range;
    let with = field.leaders_with(i);
    for k in with {
        let refuge = field
            .state
            .units
            .iter()
            .enumerate()
            .filter(|(j, u)| u.side == side && field.in_play(*j))
            .map(|(j, _)| (at.distance(field.hex(j)), j))
            .filter(|(d, _)| *d <= range)
            .min();
        let g = &mut field.state.generals[k];
        match refuge {
            Some((_, j)) => {
                let to = field.state.units[j].location;
                let (uid, uname) = (
                    field.state.units[j].id.clone(),
                    field.state.units[j].name.clone(),
                );
                let g = &mut field.state.generals[k];
                g.attached_to = Some(uid.clone());
                g.location = to;
                log.events.push(
                    event(
                        Kind::LeaderEscapes,
                        &[&uid],
                        format!("{} escapes and joins {uname}.", g.name),
                    )
                    .also_naming(&[&g.id]),
                );
            }
            None => {
                g.lost = Some(format!("captured in {}", at.label()));
                g.attached_to = None;
                g.location = Location::in_hex(at);
                log.events.push(
                    event(
                        Kind::LeaderCaptured,
                        &[&id],
                        format!("{} is captured in {}.", g.name, at.label()),
                    )
                    .also_naming(&[&g.id]),
                );
            }
        }
    }
    field.index_leaders();
}

/// Disorders a unit; a unit already disordered takes what the campaign's
/// `disordered_again` says (ruling KUL-16). Returns what happened in words.
pub fn disorder(field: &mut Field, i: usize, turn: u32) -> Option<Again> {
    let u = field.unit_mut(i);
    u.rules.upset_turn = turn;
    if u.rules.disordered || u.rules.retired {
        let again = field.state.params.disordered_again;
        return (again != Again::NoEffect).then_some(again);
    }
    u.rules.disordered = true;
    None
}
