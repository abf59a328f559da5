//! What the checks' results do to the units: attackers that fail stay in
//! contact, shaken; defenders that fail flee; infantry that wins takes the
//! position; a charge on a routed unit succeeds at once.

use super::super::super::clauses;
use super::super::super::events;
use super::super::super::params::{
    ArtilleryThatFails, FriendsPassedThrough, RoutedChargedByInfantry,
};
use super::super::super::setup::ATTACKER_TURNS_TO_FACE;
use super::super::super::state::{Arm, Morale};
use super::super::morale::{cover, standing};
use super::flight::{self, FlightEnd, FlightPlan};
use super::{Play, joined};
use crate::audit::dice::Die;
use crate::geometry::{Rect, facing_onto, move_forward, set_against, side_towards};
use crate::rules::told::About;
use crate::rules::words::inches;

/// A unit that fled from a charge, or was destroyed by it: what pursuit and
/// follow-up charges need to know of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fled {
    pub unit: usize,
    pub name: String,
    /// Its base where it stood before it fled: "where its prior target had
    /// stood".
    pub stood: Rect,
    pub arm: Arm,
    pub how: How,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum How {
    /// It ran, along this plan.
    Ran(FlightPlan),
    /// "destroyed because surrounded by enemies", fleeing this way.
    Surrounded(u32),
    /// Destroyed (a routed unit charged by cavalry) or taken (guns), with
    /// the way it would have fled "if it had been able to flee".
    Destroyed(Option<FlightPlan>),
}

impl Fled {
    /// The way it fled or would have fled.
    pub fn direction(&self) -> u32 {
        match &self.how {
            How::Ran(plan) => plan.direction,
            How::Surrounded(d) => *d,
            How::Destroyed(Some(plan)) => plan.direction,
            How::Destroyed(None) => self.stood.facing,
        }
    }
}

/// A compass word for a facing.
pub fn compass(facing: u32) -> &'static str {
    const WORDS: [&str; 8] = [
        "north",
        "north-east",
        "east",
        "south-east",
        "south",
        "south-west",
        "west",
        "north-west",
    ];
    WORDS[(((facing % 360) + 22) / 45 % 8) as usize]
}

/// Unit `i` flees `direction`, away from the units `from`.
pub fn flee(play: &mut Play, i: usize, direction: u32, from: &[usize]) -> Fled {
    let name = play.name(i);
    let arm = play.field.arm(i);
    let stood = play.field.rect(i).unwrap_or(Rect {
        front_centre: crate::geometry::Point { x: 0, y: 0 },
        facing: direction,
        width: 0,
        depth: 0,
    });
    let (rolled_text, two) = if arm == Arm::Cavalry {
        let id = play.field.id(i).to_string();
        let two = play.trace.roll(
            &mut play.dice.concerning(About::units(&[&id])),
            Die::TwoD6,
            &format!("flight of {name} (11\" + 2d6)"),
        );
        (format!(" (11 + 2d6 {two})"), two)
    } else {
        (String::new(), 0)
    };
    let distance = flight::distance(arm, two);
    let plan = flight::plan(&play.field, i, direction, distance, from);
    let Some(plan) = plan else {
        return Fled {
            unit: i,
            name,
            stood,
            arm,
            how: How::Surrounded(direction),
        };
    };
    let aside = if plan.direction != direction % 360 {
        format!(
            ", turned aside to the {} by enemies in its way",
            compass(plan.direction)
        )
    } else {
        String::new()
    };
    let through = if plan.passed.is_empty() {
        String::new()
    } else {
        let names: Vec<String> = plan.passed.iter().map(|&j| play.name(j)).collect();
        format!(", through {}", joined(&names))
    };
    let how = match &plan.end {
        FlightEnd::Stands { base, cover } => {
            play.field.place(i, *base);
            play.set_morale(i, Morale::Routed);
            let into = cover
                .as_ref()
                .map(|(k, _)| format!(" into {}", k.word()))
                .unwrap_or_default();
            let more = if plan.distance > plan.rolled {
                format!(
                    ", running on to {} inches to clear its friends",
                    inches(plan.distance)
                )
            } else {
                String::new()
            };
            play.say_along_naming(
                events::Kind::Flight,
                &[i],
                &plan.passed,
                format!(
                    "{name} flees {} inches{rolled_text} to the {}{aside}{through}{into}{more}, and is routed.",
                    inches(plan.rolled),
                    compass(plan.direction)
                ),
                &plan.route,
            );
            How::Ran(plan.clone())
        }
        FlightEnd::OffMap { exit } => {
            play.field.remove(i, "fled off the map".to_string());
            play.say_along_naming(
                events::Kind::Flight,
                &[i],
                &plan.passed,
                format!(
                    "{name} flees{rolled_text} to the {}{aside}{through} and off the map at ({}, {}).",
                    compass(plan.direction),
                    inches(exit.x),
                    inches(exit.y)
                ),
                &plan.route,
            );
            How::Ran(plan.clone())
        }
        FlightEnd::Surrounded => {
            play.field.remove(
                i,
                "destroyed: surrounded by enemies, it could not flee".to_string(),
            );
            play.say(
                events::Kind::Destroyed,
                &[i],
                format!(
                    "{name} was to flee{rolled_text}, but enemies stand on every side: it is destroyed, surrounded."
                ),
            );
            How::Surrounded(direction)
        }
    };
    friends_passed(play, &plan, i, &name);
    Fled {
        unit: i,
        name,
        stood,
        arm,
        how,
    }
}

/// "First resolve all effects (if any) of a fleeing unit’s passing through
/// friends": by the campaign's rule (GT-8), before anyone pursues.
fn friends_passed(play: &mut Play, plan: &FlightPlan, i: usize, name: &str) {
    if play.field.params().friends_passed_through != FriendsPassedThrough::MoraleCheck {
        return;
    }
    for &j in &plan.passed {
        if !play.field.in_play(j) {
            continue;
        }
        let mut mods = standing(play.field.unit(j), play.field.params());
        mods.extend(cover(&play.field, j));
        let check = play.check(
            events::Kind::MoraleCheck,
            j,
            &[i],
            &format!("as {name} flees through it"),
            mods,
        );
        if !check.passed && play.field.unit(j).rules.morale == Morale::Eager {
            play.set_morale(j, Morale::Shaken);
            let friend = play.name(j);
            play.say(events::Kind::Shaken, &[j], format!("{friend} is shaken."));
        }
    }
}

/// The way a unit would flee from `from`, for a unit destroyed where it
/// stood: the 7" of infantry, rolling nothing, since only its path is
/// wanted.
fn would_flee(play: &Play, i: usize, direction: u32, from: &[usize]) -> Option<FlightPlan> {
    flight::plan(&play.field, i, direction, 700, from)
}

/// The defender failed its check: it flees from the principal attacker
/// (GT-8), or its guns are taken.
pub fn defender_fails(play: &mut Play, attackers: &[usize], t: usize) -> Fled {
    let direction = play.field.unit(attackers[0]).facing;
    if play.field.arm(t) == Arm::Artillery
        && play.field.params().artillery_that_fails == ArtilleryThatFails::Captured
    {
        let name = play.name(t);
        let stood = play.field.rect(t).unwrap_or(Rect {
            front_centre: crate::geometry::Point { x: 0, y: 0 },
            facing: 0,
            width: 0,
            depth: 0,
        });
        let plan = would_flee(play, t, direction, attackers);
        play.field.remove(t, "its guns were taken".to_string());
        play.say(
            events::Kind::Destroyed,
            &[t],
            format!("{name}'s guns are taken: the battery is removed from the game (ruling GT-8)."),
        );
        return Fled {
            unit: t,
            name,
            stood,
            arm: Arm::Artillery,
            how: How::Destroyed(plan),
        };
    }
    flee(play, t, direction, attackers)
}

/// "If fail, remain in contact and become shaken; defenders start firing if
/// infantry or artillery; if there is only one attacker, they also turn to
/// face."
pub fn attackers_fail(play: &mut Play, attackers: &[usize], t: usize) {
    shaken_in_contact(play, attackers, clauses::ATTACKER_FAIL);
    defenders_hold(play, attackers, t);
}

/// A defender that passes its check against a charge of another arm (not
/// cavalry against cavalry, nor infantry against infantry) throws it back
/// as a failed charge is (ruling GT-9).
pub fn repulsed(play: &mut Play, attackers: &[usize], t: usize) {
    let target = play.name(t);
    play.say(
        events::Kind::Repulsed,
        &[t],
        format!("{target} stands firm and throws the charge back (ruling GT-9)."),
    );
    shaken_in_contact(play, attackers, "ruling GT-9");
    defenders_hold(play, attackers, t);
}

fn shaken_in_contact(play: &mut Play, attackers: &[usize], why: &str) {
    for &a in attackers {
        play.set_morale(a, Morale::Shaken);
    }
    let names: Vec<String> = attackers.iter().map(|&a| play.name(a)).collect();
    play.say(
        events::Kind::Shaken,
        attackers,
        format!(
            "{} remain{} in contact and {} shaken (\"{why}\").",
            joined(&names),
            if attackers.len() == 1 { "s" } else { "" },
            if attackers.len() == 1 { "is" } else { "are" }
        ),
    );
}

/// The defender starts firing (infantry or artillery), and turns to face a
/// lone attacker.
fn defenders_hold(play: &mut Play, attackers: &[usize], t: usize) {
    let target = play.name(t);
    if matches!(play.field.arm(t), Arm::Infantry | Arm::Artillery)
        && !play.field.unit(t).rules.firing
    {
        play.field.unit_mut(t).rules.firing = true;
        play.say(
            events::Kind::Firing,
            &[t],
            format!("{target} starts firing."),
        );
    }
    if let [a] = attackers {
        turn_to_face(play, *a, t);
    }
}

/// "if there is only one attacker, they also turn to face": the defenders
/// turn to face the attacker, front to front (ruling GT-12); with the
/// campaign's option `attacker-turns-to-face`, the attacker squares up to
/// the side of the target it is against.
pub fn turn_to_face(play: &mut Play, a: usize, t: usize) {
    let (Some(ar), Some(tr)) = (play.field.rect(a), play.field.rect(t)) else {
        return;
    };
    if play.field.option(ATTACKER_TURNS_TO_FACE) {
        let side = side_towards(&tr, ar.front_centre);
        let end = Rect {
            front_centre: set_against(&tr, side, 0),
            facing: facing_onto(&tr, side),
            ..ar
        };
        if end != ar {
            if let Some(why) = play.field.no_room(&end, &[a, t]) {
                no_room_to_turn(play, a, t, why);
                return;
            }
            play.field.place(a, end);
            let name = play.name(a);
            let target = play.name(t);
            play.say_along(
                events::Kind::TurnToFace,
                &[a, t],
                format!("{name} turns to face {target}."),
                &[ar.front_centre, end.front_centre],
            );
        }
        return;
    }
    if side_towards(&tr, ar.front_centre) == crate::geometry::Side::Front
        && tr.facing == facing_onto(&ar, crate::geometry::Side::Front)
    {
        return;
    }
    let end = Rect {
        front_centre: set_against(&ar, crate::geometry::Side::Front, 0),
        facing: facing_onto(&ar, crate::geometry::Side::Front),
        ..tr
    };
    if let Some(why) = play.field.no_room(&end, &[a, t]) {
        no_room_to_turn(play, t, a, why);
        return;
    }
    play.field.place(t, end);
    let name = play.name(a);
    let target = play.name(t);
    play.say_along(
        events::Kind::TurnToFace,
        &[t, a],
        format!("{target} turns to face {name}, front to front."),
        &[tr.front_centre, end.front_centre],
    );
}

/// A unit that would turn to face onto another unit, or off the table,
/// stays as it stands (ruling GT-23).
fn no_room_to_turn(play: &mut Play, turner: usize, other: usize, why: Option<usize>) {
    let name = play.name(turner);
    let named: Vec<usize> = std::iter::once(other).chain(why).collect();
    let other = play.name(other);
    let what = match why {
        Some(j) => format!("{} stands there", play.name(j)),
        None => "the table's edge is there".to_string(),
    };
    play.say_naming(
        events::Kind::NoRoomToTurn,
        &[turner],
        &named,
        format!("{name} has no room to turn to face {other} ({what}) and stays as it stands (ruling GT-23)."),
    );
}

/// "When an attacking unit “takes the position,” it immediately occupies
/// the space vacated by the fleeing enemy and turns to face the direction
/// of flight." Told to stay, a unit in cover stays ("not obliged to
/// leave").
pub fn take_position(play: &mut Play, p: usize, fled: &Fled, stay: bool) {
    let Some(here) = play.field.rect(p) else {
        return;
    };
    let name = play.name(p);
    if stay && play.field.holds_cover(&here) {
        play.say(
            events::Kind::Stays,
            &[p],
            format!(
                "{name} stays where it is rather than take the position: \"{}\"",
                clauses::NOT_OBLIGED
            ),
        );
        return;
    }
    let facing = fled.direction();
    let centred = Rect {
        front_centre: fled.stood.centre(),
        facing,
        ..here
    };
    let end = move_forward(&centred, here.depth / 2);
    if let Some(why) = play.field.no_room(&end, &[p]) {
        let named: Vec<usize> = std::iter::once(fled.unit).chain(why).collect();
        let what = match why {
            Some(j) => format!("{} stands there", play.name(j)),
            None => "it would leave the table".to_string(),
        };
        play.say_naming(
            events::Kind::NoRoomToTakePosition,
            &[p],
            &named,
            format!(
                "{name} finds no room to take the position where {} stood ({what}) and stays where it is (ruling GT-23).",
                fled.name
            ),
        );
        return;
    }
    play.field.place(p, end);
    play.say_along_naming(
        events::Kind::TakePosition,
        &[p],
        &[fled.unit],
        format!(
            "{name} takes the position where {} stood, facing {}.",
            fled.name,
            compass(facing)
        ),
        &[here.front_centre, end.front_centre],
    );
}

/// "Charges against routed units are automatically successful": cavalry
/// destroys the routed unit ("the routed unit is removed from the game and
/// counted as destroyed"); infantry makes it flee again or destroys it, as
/// the campaign says (GT-8).
pub fn against_routed(play: &mut Play, attackers: &[usize], t: usize, stay: bool) {
    let principal = attackers[0];
    let target = play.name(t);
    let direction = play.field.unit(principal).facing;
    let stood = play.field.rect(t).unwrap_or(Rect {
        front_centre: crate::geometry::Point { x: 0, y: 0 },
        facing: direction,
        width: 0,
        depth: 0,
    });
    let cavalry = play.field.arm(principal) == Arm::Cavalry;
    let destroy = cavalry
        || play.field.params().routed_charged_by_infantry == RoutedChargedByInfantry::Destroyed;
    let fled = if destroy {
        let plan = would_flee(play, t, direction, attackers);
        play.field
            .remove(t, "destroyed: charged while routed".to_string());
        play.say(
            events::Kind::Destroyed,
            &[t],
            format!(
                "{target} is routed: the charge succeeds at once and {target} is removed from the game, destroyed (\"{}\").",
                if cavalry {
                    clauses::ROUTED_DESTROYED
                } else {
                    clauses::ROUTED_TARGETS
                }
            ),
        );
        Fled {
            unit: t,
            name: target,
            stood,
            arm: play.field.arm(t),
            how: How::Destroyed(plan),
        }
    } else {
        play.say(
            events::Kind::RoutedTarget,
            &[t],
            format!(
                "{target} is routed: the charge succeeds at once (\"{}\"), and it flees again (ruling GT-8).",
                clauses::ROUTED_TARGETS
            ),
        );
        flee(play, t, direction, attackers)
    };
    let names: Vec<String> = attackers.iter().map(|&a| play.name(a)).collect();
    play.say(
        events::Kind::ChargeOver,
        attackers,
        format!(
            "{} Charge marker{} removed (\"{}\").",
            joined(&names) + "'s",
            if attackers.len() == 1 { " is" } else { "s are" },
            clauses::REMOVE_MARKERS
        ),
    );
    super::after_success(play, principal, &fled, stay);
}
