//! Locked in Combat: "When defending cavalry pass a Morale Check against
//! charging cavalry, or defending infantry pass a Morale Check against
//! charging infantry, both sides are momentarily Locked in Combat and fight
//! it out using the procedure below. To resolve a Locked in Combat
//! situation, both sides roll until one beats the other (i.e. reroll ties).
//! Ignore all modifiers except the following: Veteran troops receive a +1.
//! Lancers receive a -1."
//!
//! Ruling GT-16: the principal rolls for the attackers (d6, ruling GT-3).
//! Every attacker shares the result ("The results apply immediately to all
//! attackers"): all flee when they lose, all are shaken when they win; only
//! the principal takes the position or pursues.

use super::super::clauses;
use super::super::events;
use super::super::field::{Cover, Field};
use super::super::state::{Arm, Morale, TroopType};
use super::flight::{FlightEnd, FlightPlan};
use super::outcome::{Fled, How, flee, take_position};
use super::pursuit::{self, Pursuit};
use super::{Play, joined};
use crate::audit::dice::{Dice, Die};
use crate::geometry::Rect;
use crate::rules::kernel::Modifier;
use crate::rules::told::About;
use crate::rules::umpire::Trace;

/// The modifiers a unit takes in Locked in Combat.
pub fn lock_modifiers(field: &Field, i: usize) -> Vec<Modifier> {
    let mut out = Vec::new();
    if field.unit(i).rules.veteran {
        out.push(Modifier::new("veteran", 1));
    }
    if field.troop(i) == TroopType::Lancers {
        out.push(Modifier::new("lancers", -1));
    }
    out
}

/// Rolls Locked in Combat between `a` and `d` until one beats the other;
/// `true` when `a` wins. The totals of each round go to the trace.
pub fn lock_dice(
    trace: &mut Trace,
    dice: &mut dyn Dice,
    (a_name, a_mods): (&str, &[Modifier]),
    (d_name, d_mods): (&str, &[Modifier]),
) -> (bool, Vec<(i32, i32)>) {
    trace.note(clauses::LOCKED_ROLL);
    for m in a_mods.iter().chain(d_mods) {
        trace.modifier(m);
    }
    let sum = |m: &[Modifier]| m.iter().map(|x| x.value).sum::<i32>();
    let mut rounds = Vec::new();
    loop {
        let a = trace.roll(dice, Die::D6, &format!("Locked in Combat: {a_name}"));
        let d = trace.roll(dice, Die::D6, &format!("Locked in Combat: {d_name}"));
        let (ta, td) = (a as i32 + sum(a_mods), d as i32 + sum(d_mods));
        rounds.push((ta, td));
        trace.note(format!("{a_name} {ta}, {d_name} {td}"));
        if ta != td {
            return (ta > td, rounds);
        }
        trace.note("a tie: both roll again");
        if rounds.len() > 1000 {
            // The dice cannot tie for ever; a forced stream might.
            return (ta >= td, rounds);
        }
    }
}

pub fn locked(play: &mut Play, attackers: &[usize], t: usize, began: &[(usize, Rect)], stay: bool) {
    let p = attackers[0];
    let (pn, tn) = (play.name(p), play.name(t));
    let (pm, tm) = (
        lock_modifiers(&play.field, p),
        lock_modifiers(&play.field, t),
    );
    let ids = [play.field.id(p).to_string(), play.field.id(t).to_string()];
    let (won, rounds) = lock_dice(
        &mut play.trace,
        &mut play.dice.concerning(About::units(&[&ids[0], &ids[1]])),
        (&pn, &pm),
        (&tn, &tm),
    );
    let told: Vec<String> = rounds.iter().map(|(a, d)| format!("{a} to {d}")).collect();
    let winner = if won { &pn } else { &tn };
    play.say(
        events::Kind::Locked,
        &[p, t],
        format!(
            "{tn} passes: {pn} and {tn} are Locked in Combat (\"{}\"). They roll {}: {winner} wins.",
            clauses::LOCKED,
            told.join(", then ")
        ),
    );
    if won {
        let direction = play.field.unit(p).facing;
        let fled = flee(play, t, direction, attackers);
        for &a in &attackers[1..] {
            play.set_morale(a, Morale::Shaken);
        }
        winner_acts(play, p, &fled, stay);
    } else {
        let direction = play.field.unit(t).facing;
        let mut fled: Vec<Fled> = Vec::new();
        for &a in attackers {
            if !play.field.in_play(a) {
                continue;
            }
            if let Some(f) = routs_in_cover(play, a, began) {
                fled.push(f);
            } else {
                fled.push(flee(play, a, direction, &[t]));
            }
        }
        let names: Vec<String> = fled.iter().map(|f| f.name.clone()).collect();
        play.trace.note(format!(
            "{} lost: \"{}\"",
            joined(&names),
            clauses::LOSER_FLEES
        ));
        if let Some(principal) = fled.into_iter().find(|f| f.unit == p) {
            winner_acts(play, t, &principal, false);
        }
    }
}

/// "Winning infantry “takes the position” (see below) and becomes shaken."
/// "Winning cavalry pursues (loser's flight distance minus 1") and becomes
/// shaken."
fn winner_acts(play: &mut Play, w: usize, fled: &Fled, stay: bool) {
    match play.field.arm(w) {
        Arm::Cavalry => pursuit::pursue(play, w, fled, Pursuit::Victorious),
        _ => {
            take_position(play, w, fled, stay);
            play.set_morale(w, Morale::Shaken);
            let name = play.name(w);
            play.say(
                events::Kind::Shaken,
                &[w],
                format!("{name} is shaken (\"{}\").", clauses::WINNING_INFANTRY),
            );
        }
    }
}

/// "If an infantry unit routs as a result of a lost Locked in Combat
/// resulting from its own charge out of woods or a BUA, it remains (in a
/// Routed state) in the woods or BUA it charged from." Ruling GT-17: it
/// goes back to where its charge began, facing as it faced, routed; an
/// infantry unit that charged from contact, in cover, stays where it is.
fn routs_in_cover(play: &mut Play, a: usize, began: &[(usize, Rect)]) -> Option<Fled> {
    if play.field.arm(a) != Arm::Infantry {
        return None;
    }
    let here = play.field.rect(a)?;
    let back = began.iter().find(|(u, _)| *u == a).map(|(_, b)| *b)?;
    let (cover, area) = play.field.cover_area_at(back.centre())?;
    let name = play.name(a);
    play.field.place(a, back);
    play.set_morale(a, Morale::Routed);
    play.say_along(
        events::Kind::Flight,
        &[a],
        format!(
            "{name} loses and routs, but remains in {} it charged from, routed (\"{}\").",
            match cover {
                Cover::Woods => "the woods",
                Cover::BuiltUpArea => "the Built-Up Area",
            },
            clauses::ROUT_IN_COVER
        ),
        &[here.front_centre, back.front_centre],
    );
    Some(Fled {
        unit: a,
        name,
        stood: here,
        arm: Arm::Infantry,
        how: How::Ran(FlightPlan {
            direction: (here.facing + 180) % 360,
            distance: crate::geometry::distance(here.front_centre, back.front_centre),
            rolled: 700,
            from: here,
            end: FlightEnd::Stands {
                base: back,
                cover: Some((cover, area)),
            },
            passed: Vec::new(),
            route: vec![here.front_centre, back.front_centre],
        }),
    })
}
