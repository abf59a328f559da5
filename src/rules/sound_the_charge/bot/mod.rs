//! A bot player for Sound the Charge, for either side, playing as a player
//! would by mail: it knows only what its side's report shows (`view`), it
//! writes order lines in the players' words, and each line has passed the
//! ruleset's own validation (a refused line becomes `hold`).
//!
//! In its own turn it follows a plan, in this order:
//! 1. **Charge when in reach**: every unit that may charge looks for an
//!    enemy it can reach whose combat points it matches (`odds`), taking
//!    first the enemies already fighting its friends, so that a fresh unit
//!    joins a combat as the rules allow ("a fresh unit may always charge
//!    directly into contact with the enemy to join an ongoing combat").
//! 2. **Rally** the shaken: they fall back out of the reach of enemies
//!    that could charge them, which cost them 3 on the rally die.
//! 3. **Reform** the disordered near the enemy before they are charged.
//! 4. **Shoot** what is in range, guns and infantry lines.
//! 5. **Advance to contact**: the rest close on the enemy they can best
//!    fight, in column to cover ground and deploying into line once near,
//!    to stand an inch off, in reach of a charge next turn.
//! 6. **Generals** ride to the middle of the troops they are nearest, so
//!    that units stay in command and move at full speed (`generals`).
//!
//! In the enemy's turn it gives standing orders: skirmishers evade a
//! charge, and gunners evade one that would take their battery in the
//! flank (from the front, their case shot beats most charges).
//!
//! Every move is tried first the way a player's acknowledgement shows how
//! the orders will be tried (`planner`), so that a move the phase would not
//! make is not written and the next choice is taken.

mod generals;
mod odds;
mod paths;
mod planner;
mod units;
pub mod view;

use super::SoundTheCharge;
use super::state::State;
use super::tables::Arm;
use crate::geometry::any_part_behind_frontage_line;
use crate::rules::ruleset::acknowledge_typed;
use crate::rules::sound_the_charge::field::Field;
use crate::rules::sound_the_charge::orders::Formation;

use planner::Planner;

/// The orders the bot gives `side` for the current turn: every line
/// accepted by validation.
pub fn orders_for(state: &State, side: &str) -> Vec<String> {
    if state.finished.is_some() {
        return Vec::new();
    }
    let lines = if state.active_side == side {
        active_turn(state, side)
    } else {
        standing_orders(state, side)
    };
    checked(state, side, lines)
}

/// The active side's orders, by the plan above.
fn active_turn(state: &State, side: &str) -> Vec<String> {
    let mut p = Planner::new(state, side);
    let units: Vec<String> = {
        let field = Field::new(&p.seen);
        field
            .friends_of(side)
            .map(|i| field.unit(i).id.clone())
            .collect()
    };
    // Units held in a combat cannot move: "Units in a continuing close
    // combat may not move."
    for id in &units {
        units::if_engaged(&mut p, id);
    }
    for id in &units {
        if !p.has_orders(id) {
            units::charge_in_reach(&mut p, id);
        }
    }
    for id in &units {
        if !p.has_orders(id) {
            units::plan(&mut p, id);
        }
    }
    // Last, though their lines come first: command is measured "at the
    // start of the phase", so the troops' moves are planned with the
    // generals where they stand, and the generals then ride to where the
    // troops will be.
    generals::ride(&mut p);
    p.into_lines()
}

/// The passive side's standing orders: "The passive side may make evade
/// moves with eligible units in response to charges."
fn standing_orders(state: &State, side: &str) -> Vec<String> {
    let seen = view::seen_by(state, side);
    let field = Field::new(&seen);
    let mut lines = Vec::new();
    for i in field.friends_of(side) {
        let u = field.unit(i);
        let evades = if u.rules.formation == Formation::Skirmish {
            // "Skirmishers in the open are unable to face attacks by
            // close-order troops; if they cannot evade the enemy charge they
            // are overrun and eliminated."
            true
        } else if u.rules.troop_type.arm() == Arm::Artillery
            && u.rules.gunners > 0
            && u.rules.status.gunners_at.is_none()
        {
            flank_threatened(&field, i)
        } else {
            false
        };
        if evades {
            lines.push(format!("{}: evade", u.id));
        }
    }
    lines
}

/// Whether an enemy the side sees stands behind the frontage line of unit
/// `i`, near enough to charge it next turn: a charge from there is a
/// flank or rear attack, which takes away defensive fire ("To count as a
/// flank or rear attack, the charging must begin the turn with one or more
/// of its figures behind the target unit's frontage line").
fn flank_threatened(field: &Field, i: usize) -> bool {
    let Some(rect) = field.rect(i) else {
        return false;
    };
    let side = &field.unit(i).side;
    field.enemies_of(side).any(|j| {
        let enemy = field.unit(j);
        field.rect(j).is_some_and(|r| {
            enemy.rules.troop_type.arm() != Arm::Artillery
                && crate::geometry::rect_distance(&r, &rect) <= units::LONGEST_REACH
                && any_part_behind_frontage_line(&rect, &r)
        })
    })
}

/// The lines as the side's mail would have them accepted: the whole sheet
/// checked at once, as the acknowledgement checks the mail; a line it refuses is left out, and a
/// unit left with no line at all holds.
fn checked(state: &State, side: &str, lines: Vec<String>) -> Vec<String> {
    let sheet = acknowledge_typed(&SoundTheCharge, state, side, &lines.join("\n"));
    if sheet.is_clean() {
        return lines;
    }
    let refused: Vec<usize> = sheet
        .rejections
        .iter()
        .map(|r| r.line)
        .chain(sheet.parse_errors.iter().map(|e| e.line))
        .collect();
    let unit_of = |line: &str| line.split_once(':').map(|(u, _)| u.to_string());
    let kept: Vec<String> = lines
        .iter()
        .enumerate()
        .filter(|(n, _)| !refused.contains(&(n + 1)))
        .map(|(_, l)| l.clone())
        .collect();
    let mut out = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        if !refused.contains(&(n + 1)) {
            out.push(line.clone());
            continue;
        }
        let Some(unit) = unit_of(line) else {
            continue;
        };
        let has_other = kept.iter().any(|l| unit_of(l).as_ref() == Some(&unit));
        let hold = format!("{unit}: hold");
        if !has_other
            && !out.contains(&hold)
            && acknowledge_typed(&SoundTheCharge, state, side, &hold).is_clean()
        {
            out.push(hold);
        }
    }
    // Lines that stood only beside a refused one may now be refused in
    // their turn (a shot after a refused move): keep those that check.
    let sheet = acknowledge_typed(&SoundTheCharge, state, side, &out.join("\n"));
    if sheet.is_clean() {
        return out;
    }
    let refused: Vec<usize> = sheet.rejections.iter().map(|r| r.line).collect();
    out.into_iter()
        .enumerate()
        .filter(|(n, _)| !refused.contains(&(n + 1)))
        .map(|(_, l)| l)
        .collect()
}
