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

use super::super::super::clauses;
use super::super::super::events;
use super::super::super::field::{Cover, Field};
use super::super::super::state::{Arm, Morale, TroopType};
use super::flight::{FlightEnd, FlightPlan};
use super::outcome::{Fled, How, flee, take_position};
use super::pursuit::{self, Pursuit};
use super::{Play, joined};
use crate::audit::dice::{Dice, Die};
use crate::geometry::{Hundredths, Point, Rect, move_forward, point_in_polygon};
use crate::rules::kernel::Modifier;
use crate::rules::told::About;
use crate::rules::umpire::Trace;
use crate::rules::words::inches;

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
/// Ruling GT-26: where that place is taken, it goes straight back from it,
/// deeper into the area, to the nearest place with room whose centre is
/// still in the area; with none, it cannot remain there and flees as any
/// loser does.
fn routs_in_cover(play: &mut Play, a: usize, began: &[(usize, Rect)]) -> Option<Fled> {
    if play.field.arm(a) != Arm::Infantry {
        return None;
    }
    let here = play.field.rect(a)?;
    let place = began.iter().find(|(u, _)| *u == a).map(|(_, b)| *b)?;
    let (cover, area) = play.field.cover_area_at(place.centre())?;
    let name = play.name(a);
    let the_area = match cover {
        Cover::Woods => "the woods",
        Cover::BuiltUpArea => "the Built-Up Area",
    };
    let Some((back, behind, taken)) = room_in_cover(&play.field, a, &place, &area) else {
        let what = match play.field.no_room(&place, &[a]).flatten() {
            Some(j) => format!("{} stands where it stood", play.name(j)),
            None => "the place it charged from is off the table".to_string(),
        };
        let named: Vec<usize> = play
            .field
            .no_room(&place, &[a])
            .flatten()
            .into_iter()
            .collect();
        play.say_naming(
            events::Kind::Flight,
            &[a],
            &named,
            format!(
                "{name} loses and routs, and cannot remain in {the_area} it charged from: {what}, with no room behind it there, so it flees (ruling GT-26)."
            ),
        );
        return None;
    };
    play.field.place(a, back);
    play.set_morale(a, Morale::Routed);
    let mut text = format!(
        "{name} loses and routs, but remains in {the_area} it charged from, routed (\"{}\")",
        clauses::ROUT_IN_COVER
    );
    if let Some(j) = taken {
        text.push_str(&format!(
            ", {} inches behind the place it charged from, where {} stands (ruling GT-26)",
            inches(behind),
            play.name(j)
        ));
    }
    text.push('.');
    let named: Vec<usize> = taken.into_iter().collect();
    play.say_along_naming(
        events::Kind::Flight,
        &[a],
        &named,
        text,
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

/// Steps back from the place a unit charged from, a quarter inch at a time.
const STEP_BACK: Hundredths = 25;

/// Where a unit routed back into the area it charged from stands (ruling
/// GT-26): the place it charged from, or straight back from it, facing as
/// it faced, the nearest place with room whose centre is still in the area;
/// with how far back it is and the unit on its own place, if one was.
fn room_in_cover(
    field: &Field,
    a: usize,
    place: &Rect,
    area: &[Point],
) -> Option<(Rect, Hundredths, Option<usize>)> {
    let taken = field.first_on(place, &[a]);
    let mut behind: Hundredths = 0;
    loop {
        let back = move_forward(place, -behind);
        if !point_in_polygon(back.centre(), area) {
            return None;
        }
        if field.no_room(&back, &[a]).is_none() {
            return Some((back, behind, taken));
        }
        behind += STEP_BACK;
    }
}
