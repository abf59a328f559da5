//! Free moves to a spot: generals, skirmishers, manhandled guns, and gunners
//! leaving and returning to their guns.

use super::*;
use crate::rules::sound_the_charge::events::Kind;

/// The point a place names: a spot, or a unit's front centre (a general's
/// spot).
pub(super) fn place_point(p: &Phase, place: &Place) -> Option<Point> {
    match place {
        Place::Point { x, y } => Some(Point {
            x: Hundredths::from(*x),
            y: Hundredths::from(*y),
        }),
        Place::Unit(r) => {
            if let Some(i) = p.field.index(r.as_str()) {
                return p.field.rect(i).map(|r| r.centre());
            }
            p.state
                .generals
                .iter()
                .position(|g| g.id == r.as_str())
                .and_then(|g| p.field.general_at(g))
        }
    }
}

/// The facing, in whole degrees, from one point toward another.
pub(super) fn facing_toward(from: Point, to: Point) -> Option<u32> {
    bearing(from, to).map(|c| (((c + 50) / 100) % 360) as u32)
}

/// Skirmishers and manhandled guns "may move and face freely in any
/// direction"; gunners away from their guns move like skirmishers.
pub(super) fn free_move(p: &mut Phase, i: usize, to: &Place, toward: Option<&Place>) {
    let what = "move there";
    let Some(target) = place_point(p, to) else {
        p.impossible(i, what, "the place is not on the table");
        return;
    };
    if let Some(from) = p.state.units[i].rules.status.gunners_at {
        // Gunners away from their guns.
        let d = distance(from, target);
        if d > GUNNER_MOVE {
            p.impossible(i, what, &format!("gunners move 4\" like skirmishers and the spot is {} away ({ARTILLERY_MOVEMENT})", inches(d)));
            return;
        }
        p.state.units[i].rules.status.gunners_at = Some(target);
        let (id, name) = (p.id(i), p.name(i));
        p.event(
            Kind::GunnersMove,
            &[&id],
            format!(
                "The gunners of {name} move to {},{}.",
                coord(target.x),
                coord(target.y)
            ),
        );
        return;
    }
    let Some(start) = p.field.rect(i) else {
        return;
    };
    let u = p.state.units[i].clone();
    let facing = toward
        .and_then(|t| place_point(p, t))
        .and_then(|t| facing_toward(target, t))
        .unwrap_or(start.facing);
    let end = Rect {
        front_centre: target,
        facing,
        ..start
    };
    let d = distance(start.front_centre, target);
    let mut factor = 1;
    let mut slowed = Vec::new();
    for r in [&end] {
        match ground(&p.field, &u, r) {
            Ok(g) => {
                if let Some(id) = g.slowed_by.filter(|_| g.factor > factor) {
                    slowed = vec![ground_slowing(&p.field, &id, g.factor)];
                }
                factor = factor.max(g.factor);
            }
            Err(b) => {
                p.impossible_naming(i, what, &b.reason, b.by.as_slice());
                return;
            }
        }
    }
    let cost = d * factor;
    if cost > p.remaining(i) || p.movers[i].moved {
        let why = because(p.movers[i].allowance.reductions.iter().chain(&slowed));
        p.impossible(
            i,
            what,
            &format!(
                "the move costs {} and only {} is left ({MOVEMENT_TABLE}){why}",
                inches(cost),
                inches(p.remaining(i))
            ),
        );
        return;
    }
    if let Some((w, dd)) = p.field.table()
        && !end.is_inside_table(w, dd)
    {
        p.impossible(i, what, "the move would leave the table");
        return;
    }
    let side = u.side.clone();
    let turned = Rect { facing, ..start };
    let area = box_of(&turned, &end);
    let (others, rects) = p.field.rects_near_except(area, ZONE_OF_CONTROL, &[i]);
    let mut hits = geometry::straight_move_hits(&turned, target, &rects);
    hits.retain(|&k| p.state.units[others[k]].side != side);
    if let Some(&k) = hits.first() {
        let other = p.name(others[k]);
        p.impossible_naming(
            i,
            what,
            &format!("the way is blocked by the enemy {other}"),
            &[others[k]],
        );
        return;
    }
    let bypass = p.bypassable(&side, area);
    if let Some(&j) = p.field.zone_of_control(&end, &side, &bypass).first() {
        let other = p.name(j);
        p.impossible_naming(
            i,
            what,
            &format!("the move would end within 1\" of the enemy {other} ({ZONES})"),
            &[j],
        );
        return;
    }
    p.movers[i].used += cost;
    p.movers[i].moved = true;
    p.place(i, end);
    let (id, name) = (p.id(i), p.name(i));
    p.event(
        Kind::Move,
        &[&id],
        format!(
            "{name} moves to {},{} facing {facing}.",
            coord(target.x),
            coord(target.y)
        ),
    );
    p.settle(i);
}

pub(super) fn leave_guns(p: &mut Phase, i: usize, to: Option<&Place>) {
    let Some(rect) = p.field.rect(i) else {
        return;
    };
    // Without a spot, the gunners stand 1" behind the guns (STC-46).
    let behind = geometry::backstep(&rect, rect.depth + 100).front_centre;
    let spot = to.and_then(|t| place_point(p, t)).unwrap_or(behind);
    let d = geometry::distance_to_rect(spot, &rect);
    if d > GUNNER_MOVE {
        p.impossible(i, "leave the guns", &format!("gunners move 4\" like skirmishers and the spot is {} from the guns ({ARTILLERY_MOVEMENT})", inches(d)));
        return;
    }
    p.state.units[i].rules.status.gunners_at = Some(spot);
    p.movers[i].moved = true;
    let (id, name) = (p.id(i), p.name(i));
    p.event(
        Kind::GunnersLeave,
        &[&id],
        format!(
            "The gunners of {name} leave their guns for {},{}.",
            coord(spot.x),
            coord(spot.y)
        ),
    );
}

pub(super) fn man_guns(p: &mut Phase, i: usize) {
    let (Some(rect), Some(at)) = (p.field.rect(i), p.state.units[i].rules.status.gunners_at) else {
        return;
    };
    let d = geometry::distance_to_rect(at, &rect);
    if d > GUNNER_MOVE {
        p.impossible(
            i,
            "return to the guns",
            &format!(
                "the gunners are {} from their guns and move 4\" ({ARTILLERY_MOVEMENT})",
                inches(d)
            ),
        );
        return;
    }
    p.state.units[i].rules.status.gunners_at = None;
    p.movers[i].moved = true;
    let (id, name) = (p.id(i), p.name(i));
    p.event(
        Kind::GunnersReturn,
        &[&id],
        format!("The gunners of {name} return to their guns."),
    );
}
