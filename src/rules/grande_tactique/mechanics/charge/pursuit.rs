//! Cavalry pursuit: "The pursuing cavalry first occupies the exact position
//! of the unit it caused to flee, then pivots, and then pursues, following
//! the path taken by the fleeing unit. The pursuit distance for cavalry
//! pursuing infantry is 6". The pursuit distance for cavalry pursuing
//! cavalry is 1” less than the distance the pursued cavalry has fled".
//!
//! Ruling GT-18: the pursuer's base is set with its centre where the fled
//! unit's centre stood, facing the way it fled, then moved straight along
//! that way (the path of a flight is straight, GT-8); artillery is pursued
//! as infantry is. It stops short at the first unit it would run into,
//! touching it, and at the edge of any woods or Built-Up Area ("Pursuit to
//! terrain"); units its base overlaps where it first stands are beside the
//! fled unit's place and it runs past them. It never ends on one of them
//! (ruling GT-23, a unit is never set on another): where a pursuit is too
//! short to carry it past them (one to the map edge close by), the pursuer
//! stays where it stood. (Moving straight, it is on such a unit at every
//! place of its way up to some point and clear of it after, so no place
//! short of the end would do.)

use super::super::super::clauses;
use super::super::super::events;
use super::super::super::field::Field;
use super::super::super::state::{Arm, Morale};
use super::flight::{FlightEnd, FlightPlan};
use super::outcome::{Fled, How, compass, take_position};
use super::{Group, Kind, Play};
use crate::geometry::{Hundredths, Point, Rect, entry_along, first_hit_along, move_forward};
use crate::rules::words::inches;

/// Why a unit pursues.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pursuit {
    /// "Victorious cavalry pursue the enemy unit they caused to flee or
    /// destroyed": encountering enemies the fleeing unit passed through, it
    /// charges them, while it has charges left this turn.
    Victorious,
    /// After its second follow-up charge: "do not perform a charge against
    /// them but instead leave the cavalry unit (now shaken) in contact with
    /// those enemies."
    AfterSecond,
    /// The charged cavalry of a countercharge (GT-15).
    Countercharge,
}

/// Where a pursuit stops and why.
enum Stop {
    Full,
    Unit(usize),
    Cover,
    MapEdge,
    /// Nowhere: it would end on this unit, which stood beside the fled
    /// unit's place.
    NoRoom(usize),
}

/// A pursuit laid out before it is told: the pursuer's name, the way it
/// runs, how it is told it ran, and where it stopped and why.
struct Run {
    name: String,
    direction: u32,
    told: String,
    stop: Stop,
    moved: Hundredths,
    route: Vec<Point>,
}

pub fn pursue(play: &mut Play, w: usize, fled: &Fled, kind: Pursuit) {
    if !play.field.in_play(w) {
        return;
    }
    let name = play.name(w);
    let Some(here) = play.field.rect(w) else {
        return;
    };
    let plan = match &fled.how {
        How::Ran(plan) => Some(plan),
        How::Destroyed(plan) => plan.as_ref(),
        How::Surrounded(_) => None,
    };
    let Some(plan) = plan else {
        hunt_down(play, w, fled, &name);
        return;
    };
    let direction = fled.direction();
    let start = occupy_and_pivot(fled, &here, direction);
    let (distance, told) = pursuit_distance(fled, plan, &start);
    let (stop, moved) = how_far(&play.field, w, &start, distance, plan);
    let end = move_forward(&start, moved);
    let stop = match play.field.first_on(&end, &[w]) {
        Some(j) => Stop::NoRoom(j),
        None => stop,
    };
    let mut route: Vec<Point> = vec![here.front_centre];
    if !matches!(stop, Stop::NoRoom(_)) {
        play.field.place(w, end);
        if start.front_centre != here.front_centre {
            route.push(start.front_centre);
        }
        if end.front_centre != start.front_centre {
            route.push(end.front_centre);
        }
    }
    let run = Run {
        name,
        direction,
        told,
        stop,
        moved,
        route,
    };
    if let Stop::Unit(j) = run.stop
        && charges_on(play, w, fled, kind, &run, j, &plan.passed)
    {
        return;
    }
    tell_stop(play, w, fled, kind, &run);
    play.set_morale(w, Morale::Shaken);
    play.say(
        events::Kind::Shaken,
        &[w],
        format!(
            "{} is shaken (\"{}\").",
            run.name,
            if kind == Pursuit::Countercharge {
                clauses::COUNTERCHARGE_FLIGHT
            } else {
                clauses::PURSUIT_SHAKEN
            }
        ),
    );
}

/// "If a cavalry unit is called on to pursue an enemy unit that was
/// supposed to flee but instead was destroyed because surrounded by
/// enemies, the pursuing cavalry unit instead merely “takes the position”
/// of the destroyed enemy unit, ends its charge immediately, and becomes
/// shaken".
fn hunt_down(play: &mut Play, w: usize, fled: &Fled, name: &str) {
    take_position(play, w, fled, false);
    play.set_morale(w, Morale::Shaken);
    play.say_naming(
        events::Kind::Shaken,
        &[w],
        &[fled.unit],
        format!(
            "{name} hunts down the soldiers of {} and is shaken (\"{}\").",
            fled.name,
            clauses::SURROUNDED
        ),
    );
}

/// "first occupies the exact position of the unit it caused to flee, then
/// pivots": its centre where the fled unit's stood, facing the way it fled
/// (ruling GT-18).
fn occupy_and_pivot(fled: &Fled, here: &Rect, direction: u32) -> Rect {
    let centred = Rect {
        front_centre: fled.stood.centre(),
        facing: direction,
        ..*here
    };
    move_forward(&centred, here.depth / 2)
}

/// "The pursuit distance for cavalry pursuing infantry is 6". The pursuit
/// distance for cavalry pursuing cavalry is 1” less than the distance the
/// pursued cavalry has fled"; a unit that fled off the map is pursued to
/// where it left, one destroyed for want of a way is pursued 6" along the
/// way it would have fled. With how the account tells it.
fn pursuit_distance(fled: &Fled, plan: &FlightPlan, start: &Rect) -> (Hundredths, String) {
    match (&fled.how, &plan.end, fled.arm) {
        (_, FlightEnd::OffMap { exit }, _) => (
            crate::geometry::distance(start.front_centre, *exit),
            format!("to the edge of the map where {} left it", fled.name),
        ),
        (How::Destroyed(_), _, _) => (
            600,
            format!(
                "6 inches along the way {} would have fled (\"{}\")",
                fled.name,
                clauses::ROUTED_PATH
            ),
        ),
        (_, _, Arm::Cavalry) => (
            (plan.distance - 100).max(0),
            format!(
                "{} inches, one less than {} fled",
                inches(plan.distance - 100),
                fled.name
            ),
        ),
        _ => (600, "6 inches after infantry".to_string()),
    }
}

/// Victorious cavalry "encountering enemies the fleeing unit passed
/// through" charges them, while it has charges left this turn (fewer than
/// three made). Whether it did: its pursuit is then that charge's.
fn charges_on(
    play: &mut Play,
    w: usize,
    fled: &Fled,
    kind: Pursuit,
    run: &Run,
    j: usize,
    passed: &[usize],
) -> bool {
    let charges = play.field.unit(w).rules.charges_made;
    let enemy = play.field.enemies(w, j);
    if !(kind == Pursuit::Victorious && enemy && passed.contains(&j) && charges < 3) {
        return false;
    }
    play.say_along_naming(
        events::Kind::Pursuit,
        &[w, fled.unit],
        &[j],
        format!(
            "{} pursues {} to the {} and meets {}, whom {} fled through: it charges them (\"{}\").",
            run.name,
            fled.name,
            compass(run.direction),
            play.name(j),
            fled.name,
            clauses::PURSUIT_ENCOUNTER
        ),
        &run.route,
    );
    let group = Group {
        target: j,
        attackers: vec![w],
        moving: vec![true],
        stay: false,
    };
    super::resolve(play, &group, Kind::FollowUp(charges));
    true
}

/// Tells where the pursuit stopped: short at a unit, with no room (ruling
/// GT-23), at cover ("Pursuit to terrain"), at the map edge, or its full
/// distance.
fn tell_stop(play: &mut Play, w: usize, fled: &Fled, kind: Pursuit, run: &Run) {
    let Run {
        name,
        direction,
        told,
        moved,
        route,
        ..
    } = run;
    match run.stop {
        Stop::Unit(j) => tell_run_into(play, w, fled, kind, run, j),
        Stop::NoRoom(j) => {
            play.say_naming(
                events::Kind::PursuitNoRoom,
                &[w, fled.unit],
                &[j],
                format!(
                    "{name} finds no room to pursue {}: {} stands beside the place {} left, where its way ends, and it stays where it is (ruling GT-23).",
                    fled.name,
                    play.name(j),
                    fled.name
                ),
            );
        }
        Stop::Cover => {
            play.say_along(
                events::Kind::Pursuit,
                &[w, fled.unit],
                format!(
                    "{name} pursues {} to the {} and is brought up against the edge of cover after {} inches (\"{}\").",
                    fled.name,
                    compass(*direction),
                    inches(*moved),
                    clauses::PURSUIT_TERRAIN
                ),
                route,
            );
        }
        Stop::MapEdge => {
            play.say_along(
                events::Kind::Pursuit,
                &[w, fled.unit],
                format!(
                    "{name} pursues {} {told} (\"{}\").",
                    fled.name,
                    clauses::PURSUIT_OFF_MAP
                ),
                route,
            );
        }
        Stop::Full => {
            play.say_along(
                events::Kind::Pursuit,
                &[w, fled.unit],
                format!(
                    "{name} pursues {} to the {}, {told}.",
                    fled.name,
                    compass(*direction)
                ),
                route,
            );
        }
    }
}

/// Tells a pursuit stopped short at unit `j`, in contact with it: after
/// its second follow-up charge, "leave the cavalry unit (now shaken) in
/// contact with those enemies".
fn tell_run_into(play: &mut Play, w: usize, fled: &Fled, kind: Pursuit, run: &Run, j: usize) {
    let Run {
        name,
        direction,
        told,
        moved,
        route,
        ..
    } = run;
    let other = play.name(j);
    let why = if play.field.enemies(w, j) && kind == Pursuit::AfterSecond {
        format!(
            ", and stays in contact with them (\"{}\")",
            clauses::PURSUIT_AFTER_SECOND
        )
    } else {
        ", and stops in contact with them".to_string()
    };
    play.say_along_naming(
        events::Kind::Pursuit,
        &[w, fled.unit],
        &[j],
        format!(
            "{name} pursues {} to the {} {}: it runs into {other} after {} inches{why}.",
            fled.name,
            compass(*direction),
            told,
            inches(*moved)
        ),
        route,
    );
}

/// How far the pursuer gets along its way, and what stops it.
fn how_far(
    field: &Field,
    w: usize,
    start: &Rect,
    distance: Hundredths,
    plan: &super::flight::FlightPlan,
) -> (Stop, Hundredths) {
    let off_map = matches!(plan.end, FlightEnd::OffMap { .. });
    let end = move_forward(start, distance);
    let mut stop = if off_map { Stop::MapEdge } else { Stop::Full };
    let mut moved = distance;
    // The edge of woods or a Built-Up Area on the way.
    for (_, area) in field.cover_areas() {
        if let Some(d) = entry_along(start.front_centre, end.front_centre, area)
            && d > 0
            && d < moved
        {
            moved = d;
            stop = Stop::Cover;
        }
    }
    // The first unit in the way, leaving out those beside its first place.
    let reach = start.width.max(start.depth) + 200;
    let (ids, rects) = field.obstacles_around(&[start.front_centre, end.front_centre], reach, &[w]);
    let (ids, rects): (Vec<usize>, Vec<Rect>) = ids
        .into_iter()
        .zip(rects)
        .filter(|(_, r)| !r.overlaps(start))
        .unzip();
    if let Some((k, d)) = first_hit_along(start, end.front_centre, &rects)
        && d < moved
    {
        moved = d;
        stop = Stop::Unit(ids[k]);
    }
    (stop, moved)
}
