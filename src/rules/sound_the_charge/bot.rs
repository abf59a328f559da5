//! A bot player for Sound the Charge: legal, plausible orders for either
//! side. It advances on the enemy, charges what it can reach straight
//! ahead, shoots what is in range, stands to reform, and keeps its generals
//! with the troops; in the enemy's turn it leaves standing orders to evade.
//! Every line it gives has passed the ruleset's own validation; a line that
//! would not is replaced by `hold`.

use super::SoundTheCharge;
use super::tables::Arm;
use super::turn::field::Field;
use super::turn::fighting::nation_of;
use super::turn::movement::{PathRules, coord, plan_path, rates};
use crate::geometry::{self, Flank, Rect, Step, bearing, rect_distance, rect_is_in_arc};
use crate::geometry::{Hundredths, Point};
use crate::rules::ruleset::check_typed;
use crate::rules::sound_the_charge::orders::Formation;
use crate::rules::sound_the_charge::state::{State, TroopType};

/// Gun ranges (far) of the Shooting Table, by troop type.
fn gun_range(troop_type: TroopType) -> Hundredths {
    match troop_type {
        TroopType::LightGuns | TroopType::HorseGuns => 1200,
        TroopType::FieldGuns => 2000,
        TroopType::HeavyGuns => 2400,
        _ => 0,
    }
}

/// Musketry: "Musketry 2 / 4".
const MUSKET_RANGE: Hundredths = 400;

/// The signed angle, in whole degrees (-180, 180], from a facing to the
/// bearing of a point.
fn angle_off(from: Point, facing: u32, to: Point) -> i64 {
    let Some(b) = bearing(from, to) else {
        return 0;
    };
    let d = (b - i64::from(facing) * 100).rem_euclid(36_000);
    let d = if d > 18_000 { d - 36_000 } else { d };
    d / 100
}

/// The orders the bot gives `side` for the current turn: every line
/// accepted by validation.
pub fn orders_for(state: &State, side: &str) -> Vec<String> {
    if state.finished.is_some() {
        return Vec::new();
    }
    let field = Field::new(state);
    let mut lines = Vec::new();
    if state.active_side != side {
        // The passive side's standing orders: skirmishers and gunners evade.
        for i in field.friends_of(side) {
            let u = &state.units[i];
            let guns = u.rules.troop_type.arm() == Arm::Artillery;
            if u.rules.formation == Formation::Skirmish
                || (guns && u.rules.gunners > 0 && u.rules.status.gunners_at.is_none())
            {
                lines.push(format!("{}: evade", u.id));
            }
        }
        return checked(state, side, lines);
    }
    generals(state, &field, side, &mut lines);
    for i in field.friends_of(side) {
        if let Some(line) = plan_unit(state, &field, i) {
            lines.push(line);
        }
    }
    checked(state, side, lines)
}

/// Keeps the lines validation accepts; a refused line becomes `hold`.
fn checked(state: &State, side: &str, lines: Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    for line in lines {
        let sheet = check_typed(&SoundTheCharge, state, side, &line);
        if sheet.is_clean() && !sheet.accepted.is_empty() {
            out.push(line);
        } else if let Some((unit, _)) = line.split_once(':') {
            let hold = format!("{unit}: hold");
            if check_typed(&SoundTheCharge, state, side, &hold).is_clean() {
                out.push(hold);
            }
        }
    }
    out
}

/// Generals ride to the middle of their side's units, 18" at most.
fn generals(state: &State, field: &Field, side: &str, lines: &mut Vec<String>) {
    let centres: Vec<Point> = field
        .friends_of(side)
        .filter_map(|i| field.rect(i).map(|r| r.centre()))
        .collect();
    if centres.is_empty() {
        return;
    }
    let n = centres.len() as i64;
    let middle = Point {
        x: centres.iter().map(|p| p.x).sum::<i64>() / n,
        y: centres.iter().map(|p| p.y).sum::<i64>() / n,
    };
    for (g, general) in state.generals.iter().enumerate() {
        if general.side != side || general.lost.is_some() || general.attached_to.is_some() {
            continue;
        }
        let Some(at) = field.general_at(g) else {
            continue;
        };
        // Each general heads for the unit nearest the middle that he does
        // not yet command, or the middle itself.
        let d = geometry::distance(at, middle);
        if d <= 400 {
            continue;
        }
        let step = d.min(1700);
        let to = Point {
            x: at.x + (middle.x - at.x) * step / d,
            y: at.y + (middle.y - at.y) * step / d,
        };
        lines.push(format!(
            "{}: move to {},{}",
            general.id,
            coord(to.x),
            coord(to.y)
        ));
    }
}

/// The nearest enemy unit to `i` and its distance.
fn nearest_enemy(field: &Field, i: usize) -> Option<(usize, Rect, Hundredths)> {
    let r = field.rect(i)?;
    let side = &field.unit(i).side;
    field
        .enemies_of(side)
        .filter_map(|j| field.rect(j).map(|o| (j, o, rect_distance(&r, &o))))
        .min_by_key(|(j, _, d)| (*d, *j))
}

/// One order for unit `i`.
fn plan_unit(state: &State, field: &Field, i: usize) -> Option<String> {
    let u = &state.units[i];
    let id = &u.id;
    let rect = field.rect(i)?;
    if field.is_engaged(i) {
        return Some(format!("{id}: hold"));
    }
    let Some((j, target, dist)) = nearest_enemy(field, i) else {
        return Some(format!("{id}: hold"));
    };
    let tid = &state.units[j].id;
    if u.rules.disordered && dist > 800 {
        return Some(format!("{id}: reform"));
    }
    if u.rules.shaken {
        return Some(format!("{id}: hold"));
    }
    let a = u.rules.troop_type.arm();
    let r = rates(u.rules.troop_type, nation_of(state, &u.side))?;
    // A column with its regimental gun keeps to the gun's line speed.
    let column = matches!(u.rules.formation, Formation::Column | Formation::Limbered)
        && !super::turn::fighting::regimental_gun(state, i);
    let mut allowance = if column { r.column } else { r.line };
    if !field.in_command(i) {
        allowance /= 2;
    }
    let in_arc = rect_is_in_arc(rect.front_centre, rect.facing, 45, &target);
    let off = angle_off(rect.front_centre, rect.facing, target.centre());
    if a == Arm::Artillery {
        let range = gun_range(u.rules.troop_type);
        return Some(match u.rules.formation {
            Formation::Unlimbered if dist <= range && in_arc => format!("{id}: shoot {tid}"),
            Formation::Unlimbered if dist <= range => format!(
                "{id}: manhandle to {},{} facing {tid}",
                coord(rect.front_centre.x),
                coord(rect.front_centre.y)
            ),
            Formation::Unlimbered => format!("{id}: limber"),
            _ if dist <= range * 3 / 4 => format!("{id}: unlimber"),
            _ => advance(field, i, &rect, off, dist, allowance),
        });
    }
    if u.rules.formation == Formation::Skirmish {
        if dist <= MUSKET_RANGE && in_arc {
            return Some(format!("{id}: shoot {tid}"));
        }
        // Close to 3" of the nearest enemy, facing it.
        let c = target.centre();
        let from = rect.front_centre;
        let d = geometry::distance(from, c);
        let step = (d - 300 - target.depth).clamp(0, allowance);
        if step < 50 {
            return Some(format!("{id}: hold"));
        }
        let to = Point {
            x: from.x + (c.x - from.x) * step / d.max(1),
            y: from.y + (c.y - from.y) * step / d.max(1),
        };
        return Some(format!(
            "{id}: move to {},{} facing {tid}",
            coord(to.x),
            coord(to.y)
        ));
    }
    // Close-order infantry and cavalry.
    if matches!(
        u.rules.formation,
        Formation::Square | Formation::LLeft | Formation::LRight | Formation::U | Formation::Masse
    ) {
        return Some(format!("{id}: form column"));
    }
    let target_unit = &state.units[j];
    let may_charge = target_unit.rules.formation != Formation::Square || a == Arm::Infantry;
    let bonus = r.charge.unwrap_or(0);
    if may_charge && off.abs() <= 10 && dist + 20 <= allowance + bonus {
        return Some(format!("{id}: charge {tid}"));
    }
    if a == Arm::Infantry && u.rules.formation == Formation::Line && dist <= MUSKET_RANGE && in_arc
    {
        return Some(format!("{id}: shoot {tid}"));
    }
    if a == Arm::Infantry && u.rules.formation == Formation::Column && dist <= 800 {
        return Some(format!("{id}: form line"));
    }
    Some(advance(field, i, &rect, off, dist, allowance))
}

/// Whether a path of steps is open to unit `i` and costs no more than
/// `allowance`, by the movement phase's own planner.
fn fits(field: &Field, i: usize, rect: &Rect, steps: &[Step], allowance: Hundredths) -> bool {
    let u = field.unit(i);
    let rules = PathRules {
        through: &[],
        exempt: &[],
        road: false,
        free: u.rules.formation == Formation::Skirmish,
        bypass: &[],
    };
    plan_path(field, u, i, rect, steps, &rules).is_ok_and(|p| p.cost <= allowance)
}

/// Turn toward the enemy, or go straight at it, stopping short of its zone
/// of control; the longest step the planner finds open, or `hold`.
fn advance(
    field: &Field,
    i: usize,
    rect: &Rect,
    off: i64,
    dist: Hundredths,
    allowance: Hundredths,
) -> String {
    let u = field.unit(i);
    let id = &u.id;
    if off.abs() > 12 {
        let side = if off > 0 { Flank::Right } else { Flank::Left };
        let mut degrees = off.abs().min(90);
        while degrees >= 5 {
            let deg = i32::try_from(degrees).unwrap_or(90);
            if fits(field, i, rect, &[Step::Wheel(side, deg)], allowance) {
                let word = if off > 0 { "right" } else { "left" };
                return format!("{id}: wheel {word} {degrees}");
            }
            degrees = degrees * 2 / 3;
        }
    }
    let mut d = allowance.min(dist - 120);
    while d >= 25 {
        if fits(field, i, rect, &[Step::Forward(d)], allowance) {
            return format!("{id}: forward {}", coord(d));
        }
        d = d * 2 / 3;
    }
    format!("{id}: hold")
}
