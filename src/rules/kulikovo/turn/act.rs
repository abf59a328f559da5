//! The movement and missile fire segment of an activation: each move,
//! turn, fire and leader's join in the order written, each checked again on
//! the field as it stands (a target may have fallen back, a hex filled), an
//! order that no longer fits told as an event with its reason.

use std::collections::BTreeMap;

use super::super::events::{Kind, event};
use super::super::field::Field;
use super::super::mechanics::allowed::may_fire;
use super::super::mechanics::fire::{self, FireCall};
use super::super::mechanics::moves::{Refusal, Walker};
use super::super::orders::{KulOrder, Step, check, direction_name};
use super::super::tables::Missile;
use super::retreat::fall_back;
use super::{Log, disorder, eliminate};
use crate::audit::dice::Dice;
use crate::rules::board::Location;
use crate::rules::told::About;
use crate::rules::umpire::Trace;

/// What each unit did in this segment.
#[derive(Debug, Default, Clone, Copy)]
pub struct Done {
    pub mp_used: u32,
    /// It changed hex ("Charging unit moved during activation").
    pub moved: bool,
    pub fired: bool,
}

/// The segment's record, which the shock segment reads.
pub struct Segment {
    pub done: BTreeMap<usize, Done>,
    /// Whether each unit began the activation in an enemy zone of control.
    pub began_in_zoc: Vec<bool>,
}

/// An order that no longer fits the field: its own side's alone (ruling
/// KUL-25), whatever its words name.
fn lapsed(log: &mut Log, id: &str, name: &str, what: &str, r: &Refusal) {
    log.events.push(
        event(
            Kind::OrderLapsed,
            &[id],
            format!(
                "{name} does not {what}: {}{}.",
                r.problem,
                r.clause
                    .as_ref()
                    .map(|c| format!(" ({c})"))
                    .unwrap_or_default()
            ),
        )
        .also_naming(&r.naming),
    );
}

impl Segment {
    pub fn new(field: &Field) -> Segment {
        Segment {
            done: BTreeMap::new(),
            began_in_zoc: (0..field.state.units.len())
                .map(|i| field.in_play(i) && field.enemy_zoc(field.hex(i), &field.unit(i).side))
                .collect(),
        }
    }

    pub fn carry_out(
        &mut self,
        field: &mut Field,
        order: &KulOrder,
        dice: &mut dyn Dice,
        log: &mut Log,
    ) {
        match order {
            KulOrder::Move { unit, steps } => {
                if let Some(i) = field.index(unit.as_str()).filter(|&i| field.in_play(i)) {
                    self.walk(field, i, steps, log);
                }
            }
            KulOrder::Fire { unit, target } => {
                if let (Some(i), Some(j)) =
                    (field.index(unit.as_str()), field.index(target.as_str()))
                    && field.in_play(i)
                {
                    self.fire(field, i, j, dice, log);
                }
            }
            KulOrder::Join { leader, unit } => {
                let name = field
                    .state
                    .generals
                    .iter()
                    .find(|g| g.id == leader.as_str())
                    .map_or(leader.as_str().to_string(), |g| g.name.clone());
                match check::join(field, leader.as_str(), unit.as_str()) {
                    Ok(()) => {
                        let (uname, at) = field
                            .index(unit.as_str())
                            .map(|i| (field.unit(i).name.clone(), field.hex(i).label()))
                            .unwrap_or_default();
                        log.events.push(
                            event(
                                Kind::LeaderJoins,
                                &[unit.as_str()],
                                format!("{name} joins {uname} in {at}."),
                            )
                            .also_naming(&[leader.as_str()]),
                        );
                    }
                    Err(r) => lapsed(log, leader.as_str(), &name, "join", &r),
                }
            }
            KulOrder::Hold { unit } => {
                if let Some(i) = field.index(unit.as_str()) {
                    log.events.push(event(
                        Kind::Hold,
                        &[unit.as_str()],
                        format!("{} holds in {}.", field.unit(i).name, field.hex(i).label()),
                    ));
                }
            }
            _ => {}
        }
    }

    /// A move, step by step; it stops at a step that is no longer allowed.
    fn walk(&mut self, field: &mut Field, i: usize, steps: &[Step], log: &mut Log) {
        let done = self.done.entry(i).or_default();
        let mut w = Walker::new(field, i, done.mp_used);
        let start_facing = w.facing;
        let mut stop: Option<Refusal> = None;
        for &s in steps {
            let before = w.clone();
            if let Err(r) = w.step(field, s) {
                stop = Some(r);
                w = before;
                break;
            }
        }
        // Ending over the stacking limit: back along the path to the last
        // hex with room.
        while w.check_end(field).is_err() && w.path.len() > 1 {
            if stop.is_none() {
                stop = w.check_end(field).err();
            }
            w.path.pop();
            if let Some(&h) = w.path.last() {
                w.at = h;
            }
        }
        let u = field.unit(i);
        let (id, name) = (u.id.clone(), u.name.clone());
        let start = field.hex(i);
        let path: Vec<_> = w.path.iter().map(|&h| Location::in_hex(h)).collect();
        let mut text = if w.path.len() > 1 {
            let via: Vec<String> = w.path[1..w.path.len() - 1]
                .iter()
                .map(|h| h.label())
                .collect();
            format!(
                "{name} moves from {} to {}{}",
                start.label(),
                w.at.label(),
                if via.is_empty() {
                    String::new()
                } else {
                    format!(" by {}", via.join(", "))
                }
            )
        } else {
            format!("{name} stays in {}", start.label())
        };
        if w.facing != start_facing {
            text.push_str(&format!(", facing {}", direction_name(w.facing)));
        }
        text.push_str(&format!(" ({} MP)", w.mp_used - done.mp_used));
        if let Some(at) = w.stopped {
            text.push_str(&format!(
                "; it stops in the enemy's zone of control in {}",
                at.label()
            ));
        }
        let naming = stop.as_ref().map(|r| r.naming.clone()).unwrap_or_default();
        match &stop {
            Some(r) => text.push_str(&format!(
                "; it goes no further: {}{}.",
                r.problem,
                r.clause
                    .as_ref()
                    .map(|c| format!(" ({c})"))
                    .unwrap_or_default()
            )),
            None => text.push('.'),
        }
        done.mp_used = w.mp_used;
        done.moved |= w.path.len() > 1;
        let (to, facing) = (w.at, w.facing);
        field.put(i, to);
        field.unit_mut(i).facing = u32::from(facing.number());
        // A move cut short says why in its words: its own side's (ruling
        // KUL-25); the enemy sees where the unit now stands.
        let kind = if stop.is_some() {
            Kind::MarchCutShort
        } else {
            Kind::March
        };
        log.events.push(
            event(kind, &[&id], text)
                .also_naming(&naming)
                .along(if path.len() > 1 { path } else { Vec::new() }),
        );
    }

    /// One unit's missile fire and its result.
    fn fire(&mut self, field: &mut Field, i: usize, j: usize, dice: &mut dyn Dice, log: &mut Log) {
        let done = self.done.entry(i).or_default();
        let (id, name) = (field.unit(i).id.clone(), field.unit(i).name.clone());
        let line = match may_fire(field, i, j, done.mp_used, done.mp_used > 0) {
            Ok(l) => l,
            Err(r) => {
                lapsed(log, &id, &name, "fire", &r);
                return;
            }
        };
        done.mp_used += line.mp;
        done.fired = true;
        let (t, firer) = (field.unit(j).clone(), field.unit(i).clone());
        let (from, to) = (field.hex(i), field.hex(j));
        let call = FireCall {
            firer: firer.rules.weapon,
            firer_disordered: firer.rules.disordered,
            target: t.rules.weapon,
            condition: t.rules.condition(),
            range: line.range,
            angled: line.angled.is_some(),
            leaders: field.leaders_at(to, &t.side),
            who: format!("{} at {}", firer.id, t.id),
        };
        let mut trace = Trace::default();
        let out = fire::resolve(
            &call,
            &field.state.params,
            &field.readings,
            &mut dice.concerning(About::units(&[&firer.id, &t.id])),
            &mut trace,
        );
        log.events.push(event(
            Kind::Fire,
            &[&firer.id, &t.id],
            format!(
                "{name} in {} fires at {} in {} at {} hex{}{}: rolled {}, {:+} = {}{}, {} ({}, {}).",
                from.label(),
                t.name,
                to.label(),
                line.range,
                if line.range == 1 { "" } else { "es" },
                line.angled
                    .map(|a| format!(", angled into its {}", a.words()))
                    .unwrap_or_default(),
                out.roll,
                out.drm,
                out.modified,
                super::phrases::modifiers(&out.modifiers),
                out.result,
                out.column,
                out.band
            ),
        ));
        let turn = field.state.turn;
        match out.effect {
            Missile::NoEffect => {}
            Missile::Disordered => {
                disorder(field, j, turn);
                log.events.push(event(
                    Kind::Disordered,
                    &[&t.id],
                    format!("{} is disordered.", t.name),
                ));
            }
            Missile::Retreat => {
                field.unit_mut(j).rules.upset_turn = turn;
                fall_back(field, j, &[from], 1, "retreats", log);
            }
            Missile::Retire => retire(field, j, &[from], log),
            Missile::Eliminated => {
                log.events.push(
                    event(
                        Kind::Eliminated,
                        &[&t.id],
                        format!(
                            "{} is eliminated by {name}'s fire in {}.",
                            t.name,
                            to.label()
                        ),
                    )
                    .also_naming(&[&id]),
                );
                eliminate(
                    field,
                    j,
                    format!("eliminated by missile fire in {}", to.label()),
                    log,
                );
            }
        }
        for check in &out.leader_checks {
            let (kind, text) = if check.killed {
                if let Some(g) = field
                    .state
                    .generals
                    .iter_mut()
                    .find(|g| g.id == check.id && g.lost.is_none())
                {
                    g.lost = Some(format!("killed by missile fire in {}", to.label()));
                    g.attached_to = None;
                }
                field.index_leaders();
                (
                    Kind::LeaderKilled,
                    format!(
                        "{} is killed (Death of Leader: rolled {}).",
                        check.leader, check.roll
                    ),
                )
            } else {
                (
                    Kind::LeaderSurvives,
                    format!(
                        "{} survives the fire (Death of Leader: rolled {}).",
                        check.leader, check.roll
                    ),
                )
            };
            log.events
                .push(event(kind, &[&t.id], text).also_naming(&[&check.id]));
        }
    }
}

/// Retires a unit: it falls back the campaign's `retire_hexes` and is
/// marked retired (ruling KUL-9).
pub fn retire(field: &mut Field, j: usize, from: &[crate::geometry::Hex], log: &mut Log) {
    let hexes = field.state.params.retire_hexes;
    let turn = field.state.turn;
    if let super::retreat::Fallback::Stands(_) = fall_back(field, j, from, hexes, "retires", log) {
        let u = field.unit_mut(j);
        u.rules.retired = true;
        u.rules.upset_turn = turn;
    }
}
