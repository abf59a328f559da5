//! The charge procedure, in the chapter's steps, one module each: who may
//! charge (`eligible`), moving to contact (`contact`), the checks and their
//! modifiers (`checks`), what the attackers' and defenders' results do
//! (`outcome`: shaken, firing, turning to face, taking the position), the
//! countercharge (`counter`), Locked in Combat (`locked`), fleeing
//! (`flight`), pursuit (`pursuit`) and follow-up charges (`follow_up`).
//!
//! [`resolve`] carries out one charge, as the combat phase and the umpire's
//! `charge` call both do: "Resolving a charge: First roll a Morale Check for
//! the attackers; then, if they pass, roll a Morale Check for the
//! defenders." Everything it does is told as events, in order, so that the
//! report tells each charge as a story.

pub mod checks;
pub mod contact;
mod counter;
pub mod eligible;
pub mod flight;
mod follow_up;
mod locked;
mod outcome;
mod pursuit;

pub use follow_up::{Candidate, candidates};
pub use locked::{lock_dice, lock_modifiers};
pub use outcome::{Fled, How};

use super::super::clauses;
use super::super::events;
use super::super::field::Field;
use super::super::state::{Arm, Morale, State};
use super::morale::{self, Check};
use crate::audit::dice::Dice;
use crate::geometry::{Point, Rect};
use crate::rules::board::Location;
use crate::rules::kernel::Modifier;
use crate::rules::ruleset::Event;
use crate::rules::told::{About, EventKind};
use crate::rules::umpire::Trace;
use crate::rules::words::inches;

/// A charge being carried out: the table, the dice, the umpire's trace and
/// the events told so far.
pub struct Play<'a> {
    pub field: Field,
    pub dice: &'a mut dyn Dice,
    pub trace: Trace,
    pub events: Vec<Event>,
    /// Charges declared and not yet resolved: each target with the side
    /// charging it and how many units charge it, for "cavalry performing a
    /// follow-up charge against a unit that is being charged by other
    /// friends".
    pub pending: Vec<(usize, String, usize)>,
}

/// Which charge this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Declared in the PIP Phase.
    Declared,
    /// The first (1) or second (2) follow-up charge.
    FollowUp(u32),
}

/// One charge: its target and its attackers, the principal first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub target: usize,
    pub attackers: Vec<usize>,
    /// Paid to move to contact, by attacker.
    pub moving: Vec<bool>,
    /// Told to stay in cover rather than take the position.
    pub stay: bool,
}

impl<'a> Play<'a> {
    pub fn new(state: &State, dice: &'a mut dyn Dice) -> Play<'a> {
        Play {
            field: Field::new(state),
            dice,
            trace: Trace::default(),
            events: Vec::new(),
            pending: Vec::new(),
        }
    }

    pub fn name(&self, i: usize) -> String {
        self.field.name(i).to_string()
    }

    /// Tells one thing that happened, naming its units by index.
    pub fn say(&mut self, kind: events::Kind, units: &[usize], text: String) {
        self.say_naming(kind, units, &[], text);
    }

    /// As [`Play::say`], its words naming `also` besides its units (the
    /// unit in the way, the unit it fled from), by index.
    pub fn say_naming(
        &mut self,
        kind: events::Kind,
        units: &[usize],
        also: &[usize],
        text: String,
    ) {
        self.trace.note(text.clone());
        let ids = units
            .iter()
            .map(|&i| self.field.id(i).to_string())
            .collect();
        let also: Vec<String> = also.iter().map(|&i| self.field.id(i).to_string()).collect();
        self.events
            .push(events::event(kind, ids, text).also_naming(&also));
    }

    /// As [`Play::say`], with the way the first unit went.
    pub fn say_along(
        &mut self,
        kind: events::Kind,
        units: &[usize],
        text: String,
        route: &[Point],
    ) {
        self.say_along_naming(kind, units, &[], text, route);
    }

    /// As [`Play::say_naming`], with the way the first unit went.
    pub fn say_along_naming(
        &mut self,
        kind: events::Kind,
        units: &[usize],
        also: &[usize],
        text: String,
        route: &[Point],
    ) {
        self.say_naming(kind, units, also, text);
        if route.len() >= 2
            && let Some(e) = self.events.last_mut()
        {
            e.path = route
                .iter()
                .map(|p| Location::Table { x: p.x, y: p.y })
                .collect();
        }
    }

    /// A Morale Check of unit `i`, told as an event of `kind` (a check the
    /// enemy meets the outcome of, or one its own side alone learns of),
    /// `what` naming `also` (the charger, the firer), by index. Its die is
    /// told as the event is.
    pub fn check(
        &mut self,
        kind: events::Kind,
        i: usize,
        also: &[usize],
        what: &str,
        modifiers: Vec<Modifier>,
    ) -> Check {
        let who = self.name(i);
        let ids: Vec<String> = std::iter::once(i)
            .chain(also.iter().copied())
            .map(|k| self.field.id(k).to_string())
            .collect();
        let about = About {
            ids: ids.clone(),
            told: kind.told(),
        };
        let check = morale::roll(
            &mut self.trace,
            &mut self.dice.concerning(about),
            &self.field.state.params,
            &who,
            what,
            modifiers,
        );
        self.events.push(
            events::event(
                kind,
                vec![ids[0].clone()],
                format!("{who} takes a Morale Check {what}: {}.", check.sentence()),
            )
            .also_naming(&ids[1..]),
        );
        check
    }

    pub fn set_morale(&mut self, i: usize, morale: Morale) {
        self.field.unit_mut(i).rules.morale = morale;
    }

    /// Whether the side of `attacker` has other charges pending on `t`.
    pub fn friends_pending(&self, t: usize, attacker: usize) -> bool {
        let side = &self.field.unit(attacker).side;
        self.pending.iter().any(|(p, s, _)| *p == t && s == side)
    }
}

/// Names joined for a sentence: `A`, `A and B`, `A, B and C`.
pub fn joined(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Carries out one charge.
pub fn resolve(play: &mut Play, group: &Group, kind: Kind) {
    let t = group.target;
    let target_name = play.name(t);
    if !play.field.in_play(t) {
        let who: Vec<String> = group.attackers.iter().map(|&a| play.name(a)).collect();
        play.say_naming(
            events::Kind::ChargeLapsed,
            &group.attackers,
            &[t],
            format!(
                "{}'s charge lapses: {target_name} is no longer on the field. {}",
                joined(&who),
                clauses::REMOVE_MARKERS
            ),
        );
        return;
    }
    // "Only eager cavalry and eager infantry [...] can charge": a charger
    // shaken or routed since its charge was declared charges no more.
    let mut attackers = Vec::new();
    let mut moving = Vec::new();
    for (k, &a) in group.attackers.iter().enumerate() {
        if !play.field.in_play(a) {
            continue;
        }
        let morale = play.field.unit(a).rules.morale;
        if morale != Morale::Eager {
            let name = play.name(a);
            play.say(
                events::Kind::ChargeCancelled,
                &[a, t],
                format!(
                    "{name}, now {}, does not charge {target_name}: \"{}\" Its Charge marker is removed.",
                    morale.word(),
                    if morale == Morale::Shaken {
                        clauses::SHAKEN_CANNOT
                    } else {
                        clauses::ONLY_EAGER
                    }
                ),
            );
            continue;
        }
        attackers.push(a);
        moving.push(group.moving.get(k).copied().unwrap_or(true));
    }
    if attackers.is_empty() {
        return;
    }
    // Into contact, the principal first.
    let mut began: Vec<(usize, Rect)> = Vec::new();
    let mut in_charge = Vec::new();
    for (k, &a) in attackers.iter().enumerate() {
        if let Some(b) = close(play, a, t, moving[k], kind) {
            began.push((a, b));
            in_charge.push(a);
        }
    }
    if in_charge.is_empty() {
        return;
    }
    for &a in &in_charge {
        let id = play.field.id(t).to_string();
        let u = play.field.unit_mut(a);
        u.rules.charges_made += 1;
        if !u.rules.charged.contains(&id) {
            u.rules.charged.push(id);
        }
        u.rules.firing = false;
    }
    let attackers = in_charge;
    let principal = attackers[0];
    let principal_name = play.name(principal);
    if attackers.len() > 1 {
        let others: Vec<String> = attackers[1..].iter().map(|&a| play.name(a)).collect();
        play.say(
            events::Kind::Principal,
            &attackers,
            format!(
                "{principal_name} is the principal attacker, {} charging with it: \"{}\"",
                joined(&others),
                clauses::TOGETHER
            ),
        );
    }
    if play.field.unit(t).rules.morale == Morale::Routed {
        outcome::against_routed(play, &attackers, t, group.stay);
        return;
    }
    // The attackers' Morale Check.
    let mods = checks::attackers(play, &attackers, t, kind);
    let what = format!("to charge {target_name}");
    let attack = play.check(events::Kind::MoraleCheck, principal, &[t], &what, mods);
    if !attack.passed {
        if play.field.arm(principal) == Arm::Cavalry && play.field.arm(t) == Arm::Cavalry {
            counter::countercharge(play, &attackers, t, &began);
        } else {
            outcome::attackers_fail(play, &attackers, t);
        }
        markers_removed(play, &attackers, clauses::REMOVE_MARKERS);
        return;
    }
    play.trace.note(clauses::ATTACKER_PASS);
    // The defenders' Morale Check.
    let mods = checks::defender(play, &attackers, t);
    let what = format!(
        "charged by {}",
        joined(&attackers.iter().map(|&a| play.name(a)).collect::<Vec<_>>())
    );
    let defence = play.check(events::Kind::MoraleCheck, t, &attackers, &what, mods);
    if defence.passed {
        let like = play.field.arm(principal) == play.field.arm(t)
            && matches!(play.field.arm(t), Arm::Cavalry | Arm::Infantry);
        if like {
            locked::locked(play, &attackers, t, &began, group.stay);
            markers_removed(play, &attackers, clauses::LOCKED_MARKERS);
        } else {
            outcome::repulsed(play, &attackers, t);
            markers_removed(play, &attackers, clauses::REMOVE_MARKERS);
        }
        return;
    }
    // The target fails: it flees (or its guns are taken).
    let fled = outcome::defender_fails(play, &attackers, t);
    markers_removed(play, &attackers, clauses::REMOVE_MARKERS);
    after_success(play, principal, &fled, group.stay);
}

/// What the principal attacker does once its target has fled or been
/// destroyed: infantry takes the position; cavalry takes the Morale Check
/// for a follow-up charge, or pursues.
pub fn after_success(play: &mut Play, principal: usize, fled: &Fled, stay: bool) {
    if !play.field.in_play(principal) {
        return;
    }
    match play.field.arm(principal) {
        Arm::Cavalry => follow_up::after_success(play, principal, fled),
        _ => outcome::take_position(play, principal, fled, stay),
    }
}

/// Moves one attacker into contact; `None` when it cannot charge after all.
fn close(play: &mut Play, a: usize, t: usize, moving: bool, kind: Kind) -> Option<Rect> {
    let name = play.name(a);
    let target_name = play.name(t);
    let limit = match kind {
        Kind::Declared => Some(play.field.allowance(a)),
        Kind::FollowUp(_) => None,
    };
    if !play.field.in_contact(a, t) && !moving {
        play.say(
            events::Kind::ChargeLapsed,
            &[a, t],
            format!(
                "{name} is no longer in contact with {target_name} and paid for no move to contact (\"{}\"): its charge lapses and its Charge marker is removed.",
                clauses::COST
            ),
        );
        return None;
    }
    let before = play.field.rect(a)?;
    match contact::approach(&play.field, a, t, limit) {
        Ok(way) => {
            let verb = match kind {
                Kind::Declared => "charges",
                Kind::FollowUp(1) => "makes its first follow-up charge against",
                Kind::FollowUp(_) => "makes its second follow-up charge against",
            };
            let kind_word = match kind {
                Kind::Declared => events::Kind::Charge,
                Kind::FollowUp(_) => events::Kind::FollowUp,
            };
            let text = match way.side {
                None => format!("{name}, in contact, {verb} {target_name}."),
                Some(side) => format!(
                    "{name} {verb} {target_name}, moving {} inches to contact against its {}.",
                    inches(way.length),
                    side.word()
                ),
            };
            play.field.place(a, way.end);
            play.say_along(kind_word, &[a, t], text, &way.route);
            Some(before)
        }
        Err(why) => {
            let by = match why {
                contact::NoWay::Blocked { by: Some(b) } => vec![b],
                _ => Vec::new(),
            };
            let reason = match why {
                contact::NoWay::OutOfReach { needs, has, .. } => format!(
                    "its way is {} inches and it moves {}",
                    inches(needs),
                    inches(has)
                ),
                contact::NoWay::ThroughBuiltUpArea => format!("\"{}\"", clauses::BUA),
                contact::NoWay::Blocked { by: Some(b) } => {
                    format!("{} stands in the way", play.name(b))
                }
                contact::NoWay::Blocked { by: None } => "there is no room against it".to_string(),
            };
            play.say_naming(
                events::Kind::ChargeLapsed,
                &[a, t],
                &by,
                format!(
                    "{name} cannot reach {target_name} ({reason}): its charge lapses and its Charge marker is removed."
                ),
            );
            None
        }
    }
}

fn markers_removed(play: &mut Play, attackers: &[usize], clause: &str) {
    let names: Vec<String> = attackers.iter().map(|&a| play.name(a)).collect();
    play.say(
        events::Kind::ChargeOver,
        attackers,
        format!(
            "The charge is over: {} Charge marker{} removed (\"{clause}\").",
            if attackers.len() == 1 {
                format!("{}'s", names[0])
            } else {
                format!("the {} attackers'", attackers.len())
            },
            if attackers.len() == 1 { " is" } else { "s are" }
        ),
    );
}

/// The countercharge alone, for the umpire's call: the charger moves to
/// contact as it would, then the countercharge follows as after a failed
/// check.
pub fn countercharge_call(play: &mut Play, a: usize, t: usize) {
    if let Some(before) = close(play, a, t, true, Kind::Declared) {
        counter::countercharge(play, &[a], t, &[(a, before)]);
    }
}

/// A flight alone, for the umpire's call: what became of the unit.
pub fn flee_call(play: &mut Play, u: usize, direction: u32, from: &[usize]) -> serde_json::Value {
    let fled = outcome::flee(play, u, direction, from);
    let (distance, off_map, into_cover, passed) = match &fled.how {
        How::Ran(plan) => (
            plan.distance,
            matches!(plan.end, flight::FlightEnd::OffMap { .. }),
            matches!(plan.end, flight::FlightEnd::Stands { cover: Some(_), .. }),
            plan.passed
                .iter()
                .map(|&j| play.field.id(j).to_string())
                .collect(),
        ),
        _ => (0, false, false, Vec::new()),
    };
    serde_json::json!({
        "distance": distance as f64 / 100.0,
        "direction": fled.direction(),
        "off_map": off_map,
        "into_cover": into_cover,
        "destroyed": matches!(fled.how, How::Surrounded(_)),
        "passed": passed,
    })
}

/// A unit made to flee by cavalry, which pursues it, for the umpire's call.
pub fn pursue_call(play: &mut Play, p: usize, u: usize) {
    let direction = play.field.unit(p).facing;
    let fled = outcome::flee(play, u, direction, &[p]);
    pursuit::pursue(play, p, &fled, pursuit::Pursuit::Victorious);
}
