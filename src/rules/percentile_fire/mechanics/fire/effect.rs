//! The effect of a fire attack on the table (11.70-11.79): figures,
//! cannon or train material lost, an attached officer hit, a critical hit
//! on a battery, the MFP points lost, the losses of a square, the light
//! company and regimental gun of a battalion reduced by half, and the
//! morale check the loss calls for.

use super::factors::Occasion;
use super::routine::{Against, FireResult, Routine};
use crate::rules::percentile_fire::events::Kind;
use crate::rules::percentile_fire::field::Table;
use crate::rules::percentile_fire::params::{CriticalEffect, OfficerEffect};
use crate::rules::percentile_fire::state::{Arm, Counterbattery, State};
use crate::rules::ruleset::Event;

/// The event kind of a fire attack by its occasion.
pub fn kind(occasion: Occasion) -> Kind {
    match occasion {
        Occasion::Reciprocal => Kind::Fire,
        Occasion::Opportunity => Kind::OpportunityFire,
        Occasion::Passby => Kind::PassbyFire,
        Occasion::FinalShock => Kind::FinalShockFire,
        Occasion::Supportive => Kind::SupportiveFire,
    }
}

/// What a fire attack did, for the phase's report.
#[derive(Debug, Default)]
pub struct Applied {
    /// What happened, in words.
    pub consequences: Vec<String>,
    /// Units whose strength was reduced: each needs a morale check (11.72).
    pub reduced: Vec<String>,
    /// Every unit and general the consequences and the officers' rolls
    /// name, by id: a unit of a square that took a loss, an officer.
    pub naming: Vec<String>,
}

/// One loss taken by one unit.
fn take_one(state: &mut State, id: &str, routine: Routine, out: &mut Applied) {
    let told = out.consequences.len();
    take(state, id, routine, out);
    if out.consequences.len() > told {
        out.naming.push(id.to_string());
    }
}

fn take(state: &mut State, id: &str, routine: Routine, out: &mut Applied) {
    let turn = state.turn;
    let Some(at) = state.units.iter().position(|u| u.id == id) else {
        return;
    };
    let side = state.units[at].side.clone();
    let u = &mut state.units[at];
    let mut points = 1;
    match u.rules.arm {
        // "the Fire attack causes the loss of cannon or train material in
        // lieu of the artillery battery crew figure" (11.74).
        Arm::Artillery if routine == Routine::Artillery => {
            let howitzer = u.rules.howitzers_now() > 0;
            u.rules.cannon_lost = (u.rules.cannon_lost + 1).min(u.rules.cannon);
            points = 5;
            if howitzer {
                out.consequences.push(format!(
                    "the cannon {} loses is a howitzer, \"destroyed first\" (11.79)",
                    u.name
                ));
            }
            if u.rules.cannon_now() == 0 {
                u.eliminated = Some(format!("every cannon lost to fire, turn {turn}"));
                out.consequences
                    .push(format!("{} has lost its last cannon", u.name));
            }
        }
        Arm::Train if routine == Routine::Artillery => {
            u.strength = u.strength.saturating_sub(1);
            points = 5;
            if u.strength == 0 {
                u.eliminated = Some(format!("all its train material lost to fire, turn {turn}"));
                out.consequences.push(format!("{} is destroyed", u.name));
            }
        }
        Arm::Artillery => {
            u.strength = u.strength.saturating_sub(1);
            if u.strength == 0 && u.rules.crewed {
                u.rules.crewed = false;
                out.consequences.push(format!(
                    "{} has lost its last crew figure: its guns stand uncrewed",
                    u.name
                ));
            }
        }
        _ => {
            u.strength = u.strength.saturating_sub(1);
            if u.strength == 0 {
                u.eliminated = Some(format!("destroyed by fire, turn {turn}"));
                out.consequences.push(format!("{} is destroyed", u.name));
            }
        }
    }
    // "the unit with the highest current CMR value suffer all figure or
    // cannon loss till another unit equals the reduced unit's CMR value"
    // (11.78): a figure lost lowers it by one (ruling PF-17).
    u.rules.cmr = u.rules.cmr.saturating_sub(1);
    // 11.79: the light company figures and the regimental gun's crew go
    // when the battalion reaches half its strength.
    if u.strength * 2 <= u.original_strength && u.eliminated.is_none() {
        if u.rules.light_figures > 0 {
            u.rules.light_figures = 0;
            out.consequences.push(format!(
                "{} has reached 50% loss: its light company figures are removed with the loss (11.79)",
                u.name
            ));
        }
        if u.rules.regimental_guns > 0 {
            u.rules.regimental_guns = 0;
            out.consequences.push(format!(
                "{} is reduced to half strength: its regimental artillery crew figure is removed (11.79)",
                u.name
            ));
        }
    }
    if !out.reduced.iter().any(|r| r == id) {
        out.reduced.push(id.to_string());
    }
    // "A player side adjusts the MFP level one point per figure loss or 5
    // points per battery/train loss" (11.73; ruling PF-19).
    *state.game.mfp_lost.entry(side).or_insert(0) += points;
}

/// Who in a square takes the next loss: the unit with the highest current
/// CMR, the square's own unit first among equals (11.78).
fn next_in_square(state: &State, table: &Table, host: &str) -> Option<String> {
    let h = state.unit(host)?;
    table
        .square(state, h)
        .into_iter()
        .filter(|u| u.eliminated.is_none())
        .max_by_key(|u| (u.rules.cmr, u.id == host, std::cmp::Reverse(u.id.clone())))
        .map(|u| u.id.clone())
}

/// Applies a fire attack's result to the state.
pub fn apply(state: &mut State, table: &Table, target: &str, result: &FireResult) -> Applied {
    let mut out = Applied::default();
    let square = state
        .unit(target)
        .map(|t| table.square(state, t).len() > 1)
        .unwrap_or(false);
    for _ in 0..result.lost {
        let who = if square {
            next_in_square(state, table, target)
        } else {
            state
                .unit(target)
                .filter(|u| u.eliminated.is_none())
                .map(|u| u.id.clone())
        };
        let Some(who) = who else { break };
        take_one(state, &who, result.routine, &mut out);
    }
    if result.lost > 0 {
        let one = result.lost == 1;
        let what = match (result.against, result.routine) {
            (Against::Battery, Routine::Artillery) => "cannon",
            (Against::Train, Routine::Artillery) => "train material",
            (Against::Battery | Against::Train, _) if one => "crew figure",
            (Against::Battery | Against::Train, _) => "crew figures",
            _ if one => "figure",
            _ => "figures",
        };
        out.consequences.insert(
            0,
            format!(
                "{} loses {} {what}",
                state.unit(target).map_or(target, |u| u.name.as_str()),
                result.lost
            ),
        );
    }
    // The arithmetic names every officer rolled for, hit or not.
    out.naming
        .extend(result.officers.iter().filter_map(|o| o.id.clone()));
    for o in &result.officers {
        let Some(effect) = o.effect.filter(|e| e.is_lost()) else {
            if o.hit {
                out.consequences
                    .push(format!("{} is hit but unhurt", o.officer));
            }
            continue;
        };
        let turn = state.turn;
        let why = match effect {
            OfficerEffect::Killed => format!("killed by fire, turn {turn}"),
            _ => format!("wounded by fire, turn {turn}"),
        };
        if let Some(g) = state.generals.iter_mut().find(|g| g.name == o.officer) {
            g.lost = Some(why);
        } else if let Some(u) = state
            .units
            .iter_mut()
            .find(|u| o.officer == format!("the artillery officer of {}", u.name))
        {
            u.rules.artillery_officer = false;
        }
        out.consequences
            .push(format!("{} is {}", o.officer, effect.word()));
    }
    if let Some(c) = &result.critical {
        critical(state, target, c.effect, &mut out);
    }
    out
}

/// A critical hit's effect on a battery or train (11.75-11.77).
fn critical(state: &mut State, target: &str, effect: CriticalEffect, out: &mut Applied) {
    let since = crate::rules::percentile_fire::turn::number(state);
    let Some(at) = state.units.iter().position(|u| u.id == target) else {
        return;
    };
    let name = state.units[at].name.clone();
    match effect {
        CriticalEffect::NoEffect => out.consequences.push("critical hit: no effect".into()),
        CriticalEffect::CounterbatteryA | CriticalEffect::CounterbatteryB => {
            let marker = if effect == CriticalEffect::CounterbatteryA {
                Counterbattery::A
            } else {
                Counterbattery::B
            };
            let u = &mut state.units[at];
            if u.eliminated.is_some() {
                out.consequences.push(out_of_play(effect, &name));
            } else if u.rules.arm != Arm::Artillery {
                out.consequences.push(format!(
                    "critical hit: {}, which marks no train",
                    effect.word()
                ));
            } else {
                u.rules.counterbattery = Some(marker);
                u.rules.counterbattery_since = since;
                out.consequences.push(format!(
                    "critical hit: {name} takes a Counterbattery {marker} marker (11.7{})",
                    if marker == Counterbattery::A { 6 } else { 7 }
                ));
            }
        }
        CriticalEffect::Cannon => {
            if state.units[at].eliminated.is_none() {
                out.consequences
                    .push(format!("critical hit: {name} loses another cannon"));
                take_one(state, target, Routine::Artillery, out);
            } else {
                out.consequences.push(out_of_play(effect, &name));
            }
        }
        CriticalEffect::Crew => {
            if state.units[at].eliminated.is_none() {
                out.consequences
                    .push(format!("critical hit: {name} loses a crew figure"));
                take_one(state, target, Routine::SmallArms, out);
            } else {
                out.consequences.push(out_of_play(effect, &name));
            }
        }
        CriticalEffect::Ammunition => {
            let u = &mut state.units[at];
            if let Some(a) = &mut u.rules.ammunition {
                for n in a.values_mut() {
                    *n = n.saturating_sub(1);
                }
            }
            out.consequences.push(format!(
                "critical hit: {name} loses a round of each type of ammunition"
            ));
        }
    }
}

/// A critical hit on a battery or train the fire has already put out of
/// play: told all the same, once, as the arithmetic no longer tells it.
fn out_of_play(effect: CriticalEffect, name: &str) -> String {
    format!("critical hit: {}, but {name} is out of play", effect.word())
}

/// The fire event: who fired at whom, the arithmetic, and what it did.
pub fn event(
    state: &State,
    occasion: Occasion,
    firer: &str,
    target: &str,
    result: &FireResult,
    applied: &Applied,
    notes: &[String],
) -> Event {
    let name = |id: &str| state.unit(id).map_or(id.to_string(), |u| u.name.clone());
    let mut text = format!(
        "{} {} at {}.",
        name(firer),
        match occasion {
            Occasion::Reciprocal => "fires".to_string(),
            o => format!("gives {}", o.name()),
        },
        name(target),
    );
    for n in notes
        .iter()
        .chain([&result.arithmetic])
        .chain(&applied.consequences)
    {
        text.push(' ');
        text.push_str(&sentence(state, n));
        text.push('.');
    }
    Event::of(kind(occasion), &[firer, target], text).also_naming(&applied.naming)
}

/// A sentence of the fire event, its first letter capitalised; but one that
/// begins with the name of a unit or general is written as the name is (a
/// unit named by its id keeps the id's case: "rb loses 1 cannon").
fn sentence(state: &State, s: &str) -> String {
    let begins_with = |name: &str| {
        !name.is_empty()
            && s.strip_prefix(name)
                .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric()))
    };
    let named = state
        .units
        .iter()
        .any(|u| begins_with(&u.name) || begins_with(&u.id))
        || state
            .generals
            .iter()
            .any(|g| begins_with(&g.name) || begins_with(&g.id));
    if named { s.to_string() } else { capitalised(s) }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
