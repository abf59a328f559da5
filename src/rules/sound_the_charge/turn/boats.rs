//! Boats (optional rule): "A boat model represents a small flotilla of
//! watercraft, enough to hold 12 infantry, two guns, or six cavalry. It
//! takes a full turn to embark or disembark infantry or cavalry from a boat,
//! and two turns for artillery. Units in boats are disordered. Troops in
//! boats may not shoot. Troops in boats are a dense target, but take no
//! morale test. Troops in boats may attack an enemy as they disembark, but
//! may only strike with one die. The defenders on the bank are also treated
//! as if in soft cover. If the disembarking troops lose the combat, they
//! must retreat one move in their boats. Boats move 4 inches per turn across
//! or downstream, and two inches upstream."
//!
//! Ruling STC-93: a boat model is a `boat` area of the scenario, the water a
//! `water` area, and a `river` line in it gives the current, from its first
//! point to its last. A unit in a boat holds the boat's id in its status
//! (`boat`) and stands where the boat is; the boat's outline follows it.
//! Guns half way through embarking hold the boat in `embarking`, half way
//! through landing `disembarking`; a unit attacking as it lands is
//! `landing` until its combat is decided.

use super::super::field::Field;
use super::super::orders::check::Refusal;
use super::ChargeMade;
use super::fighting::arm_of;
use super::movement::Phase;
use crate::geometry::{Hundredths, Point};
use crate::geometry::{
    Rect, Step, distance, distance_to_rect, distance_to_segment, follow, path_hits,
    point_in_polygon, rect_distance,
};
use crate::rules::board::{Terrain, TerrainShape};
use crate::rules::sound_the_charge::events::Kind;
use crate::rules::sound_the_charge::ground::{Ground, TerrainKind};
use crate::rules::sound_the_charge::orders::StcOrder;
use crate::rules::sound_the_charge::state::State;
use crate::rules::sound_the_charge::state::Unit;
use crate::rules::sound_the_charge::tables::Arm;

/// The clause every boat refusal and outcome cites.
pub const CLAUSE: &str = "Optional Rules, Boats";
/// "Boats move 4 inches per turn across or downstream, and two inches
/// upstream": an inch upstream costs two of the four.
pub const BOAT_MOVE: Hundredths = 400;
/// How near a boat a unit must stand to embark (ruling STC-93).
pub const REACH: Hundredths = 100;
/// How far beyond its own depth a landing unit may go to meet an enemy on
/// the bank (ruling STC-93): the inch a zone of control keeps boats off.
pub const LANDING_REACH: Hundredths = 100;

/// The boat a unit is in, if any.
pub fn boat_of(spec: &Unit) -> Option<&str> {
    spec.rules.status.boat.as_deref()
}

/// Whether the unit is in boats.
pub fn in_boats(spec: &Unit) -> bool {
    boat_of(spec).is_some()
}

/// Whether the unit is attacking as it disembarks this turn.
pub fn landing(spec: &Unit) -> bool {
    spec.rules.status.landing
}

/// "enough to hold 12 infantry, two guns, or six cavalry".
fn fits(spec: &Unit) -> Result<(), String> {
    let (most, word) = match arm_of(spec) {
        Arm::Infantry => (12, "infantry figures"),
        Arm::Cavalry => (6, "cavalry figures"),
        Arm::Artillery => (2, "guns"),
    };
    if spec.strength > most {
        return Err(format!(
            "a boat holds {most} {word}, and the unit has {}: \"A boat model represents a small flotilla of watercraft, enough to hold 12 infantry, two guns, or six cavalry.\"",
            spec.strength
        ));
    }
    Ok(())
}

fn boat<'s>(state: &'s State, ground: &Ground, id: &str) -> Option<&'s Terrain> {
    ground.boat(state, id).map(|b| &state.terrain[b])
}

fn area(t: &Terrain) -> &[Point] {
    match &t.shape {
        TerrainShape::Area { points } => points,
        _ => &[],
    }
}

/// Whether a point is on the water.
pub fn on_water(state: &State, ground: &Ground, p: Point) -> bool {
    ground
        .features(state)
        .filter(|(k, _)| *k == TerrainKind::Water)
        .any(|(_, t)| point_in_polygon(p, area(t)))
}

/// The current at a point: the direction of the nearest segment of a
/// `river` line, from its first point towards its last (ruling STC-93).
fn current_at(state: &State, ground: &Ground, p: Point) -> Option<(i64, i64, Hundredths)> {
    let mut best: Option<(Hundredths, (i64, i64, Hundredths))> = None;
    for (_, points) in ground.lines(state, TerrainKind::River) {
        for w in points.windows(2) {
            let d = distance_to_segment(p, w[0], w[1]);
            let len = distance(w[0], w[1]);
            if len > 0 && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, (w[1].x - w[0].x, w[1].y - w[0].y, len)));
            }
        }
    }
    best.map(|(_, f)| f)
}

/// How far a boat's move from `from` to `to` goes against the current.
fn upstream(state: &State, ground: &Ground, from: Point, to: Point) -> Hundredths {
    let Some((fx, fy, len)) = current_at(state, ground, from) else {
        return 0;
    };
    let along =
        i128::from(to.x - from.x) * i128::from(fx) + i128::from(to.y - from.y) * i128::from(fy);
    if along >= 0 {
        return 0;
    }
    Hundredths::try_from(-along / i128::from(len)).unwrap_or(Hundredths::MAX)
}

fn gap_to_polygon(r: &Rect, polygon: &[Point]) -> Hundredths {
    if polygon.iter().any(|&p| distance_to_rect(p, r) == 0)
        || r.corners().iter().any(|&c| point_in_polygon(c, polygon))
    {
        return 0;
    }
    let n = polygon.len();
    let from_corners = r
        .corners()
        .iter()
        .flat_map(|&c| {
            (0..n).map(move |k| distance_to_segment(c, polygon[k], polygon[(k + 1) % n]))
        })
        .min();
    let from_points = polygon.iter().map(|&p| distance_to_rect(p, r)).min();
    from_corners
        .into_iter()
        .chain(from_points)
        .min()
        .unwrap_or(Hundredths::MAX)
}

/// Validation: what the Boats rule forbids outright, for a unit of the
/// active side.
pub fn allowed(field: &Field, u: &Unit, order: &StcOrder) -> Result<(), Refusal> {
    let state = field.state;
    let refuse = |why: String| Err(Refusal::new(why, CLAUSE));
    match order {
        StcOrder::Embark { boat: b, .. } => {
            if in_boats(u) {
                return refuse("the unit is already in boats".to_string());
            }
            let Some(_) = boat(state, field.ground(), b.as_str()) else {
                return refuse(format!("there is no boat `{}` on the table", b.as_str()));
            };
            if let Some(other) = state.units.iter().find(|o| {
                o.id != u.id
                    && o.eliminated.is_none()
                    && (boat_of(o) == Some(b.as_str())
                        || o.rules.status.embarking.as_deref() == Some(b.as_str()))
            }) {
                return refuse(format!("{} is already in {}", other.name, b.as_str()));
            }
            fits(u).or_else(refuse)
        }
        StcOrder::Disembark { .. } if !in_boats(u) => {
            refuse("the unit is not in boats".to_string())
        }
        StcOrder::Disembark { .. } | StcOrder::Hold { .. } | StcOrder::Shoot { .. } => Ok(()),
        StcOrder::Move { road, through, .. } if in_boats(u) => {
            if *road || !through.is_empty() {
                return refuse("boats move by water, not by road or through other units".to_string());
            }
            Ok(())
        }
        _ if in_boats(u) => refuse(
            "troops in boats row (`forward`, `wheel` and the other steps), land (`disembark`) or hold; they attack only as they disembark".to_string(),
        ),
        _ => Ok(()),
    }
}

fn whole_turn(p: &mut Phase, i: usize, what: &str) -> bool {
    if p.movers[i].moved || p.movers[i].maneuvered {
        p.impossible(
            i,
            what,
            &format!("it takes a full turn to {what}, and the unit has moved this turn ({CLAUSE}: \"It takes a full turn to embark or disembark infantry or cavalry from a boat, and two turns for artillery.\")"),
        );
        return false;
    }
    p.movers[i].moved = true;
    true
}

/// Moves the boat's outline to the unit's footprint.
fn carry_boat(state: &mut State, ground: &Ground, id: &str, r: &Rect) {
    if let Some(b) = ground.boat(state, id) {
        state.terrain[b].shape = TerrainShape::Area {
            points: r.corners().to_vec(),
        };
    }
}

/// After a retreat in boats, the boat goes with the unit.
pub fn follow_boat(state: &mut State, ground: &Ground, i: usize) {
    let u = &state.units[i];
    let (Some(b), Some(r)) = (
        boat_of(u).map(str::to_string),
        crate::rules::sound_the_charge::basing::footprint(u),
    ) else {
        return;
    };
    carry_boat(state, ground, &b, &r);
}

/// "It takes a full turn to embark [...] and two turns for artillery."
pub fn embark(p: &mut Phase, i: usize, boat_id: &str) {
    let what = "embark";
    let Some(start) = p.field.rect(i) else { return };
    let Some(b) = boat(p.state, p.field.ground(), boat_id).cloned() else {
        p.impossible(i, what, &format!("there is no boat `{boat_id}` ({CLAUSE})"));
        return;
    };
    let points = area(&b).to_vec();
    if points.len() < 3 {
        return;
    }
    if gap_to_polygon(&start, &points) > REACH {
        p.impossible(
            i,
            what,
            &format!("it is not within 1 inch of {boat_id} (ruling STC-93)"),
        );
        return;
    }
    if !whole_turn(p, i, what) {
        return;
    }
    let (id, name) = (p.id(i), p.name(i));
    let guns = arm_of(&p.state.units[i]) == Arm::Artillery;
    let begun = p.state.units[i].rules.status.embarking.as_deref() == Some(boat_id);
    if guns && !begun {
        p.state.units[i].rules.status.embarking = Some(boat_id.to_string());
        p.event(
            Kind::Embark,
            &[&id],
            format!("{name} begins to embark in {boat_id}: the first of the two turns artillery takes ({CLAUSE})."),
        );
        return;
    }
    // The unit takes the boat's place, its centre on the boat's.
    let n = i64::try_from(points.len()).unwrap_or(1);
    let c = Point {
        x: points.iter().map(|q| q.x).sum::<i64>() / n,
        y: points.iter().map(|q| q.y).sum::<i64>() / n,
    };
    let now = start.centre();
    let end = Rect {
        front_centre: Point {
            x: start.front_centre.x + c.x - now.x,
            y: start.front_centre.y + c.y - now.y,
        },
        ..start
    };
    let (others, rects) = p
        .field
        .rects_near_except(crate::geometry::bounds(&end), 0, &[i]);
    if let Some(k) = rects.iter().position(|r| r.overlaps(&end)) {
        let other = p.name(others[k]);
        p.impossible_naming(
            i,
            what,
            &format!("{other} stands where the boat lies"),
            &[others[k]],
        );
        return;
    }
    p.place(i, end);
    let u = &mut p.state.units[i];
    u.rules.status.embarking = None;
    u.rules.status.boat = Some(boat_id.to_string());
    u.rules.disordered = true;
    carry_boat(p.state, p.field.ground(), boat_id, &end);
    p.event(
        Kind::Embark,
        &[&id],
        format!("{name} embarks in {boat_id} and is disordered ({CLAUSE}: \"Units in boats are disordered.\")."),
    );
}

/// A move of a unit in boats: "Boats move 4 inches per turn across or
/// downstream, and two inches upstream."
pub fn row(p: &mut Phase, i: usize, steps: &[Step]) {
    let what = "move";
    let Some(start) = p.field.rect(i) else { return };
    if p.movers[i].moved {
        p.impossible(i, what, "it has already moved this turn");
        return;
    }
    let path = follow(&start, steps);
    let end = path.end();
    let cost = path.distance + upstream(p.state, p.field.ground(), start.centre(), end.centre());
    if cost > BOAT_MOVE {
        p.impossible(
            i,
            what,
            &format!(
                "the row costs {} inches, an inch upstream counting two, and boats have 4 ({CLAUSE}: \"Boats move 4 inches per turn across or downstream, and two inches upstream.\")",
                crate::rules::sound_the_charge::tables::inches_text(
                    u32::try_from(cost).unwrap_or(u32::MAX)
                )
            ),
        );
        return;
    }
    if !on_water(p.state, p.field.ground(), end.centre()) {
        p.impossible(i, what, "the boats would leave the water (ruling STC-93)");
        return;
    }
    if let Some((w, d)) = p.field.table()
        && !end.is_inside_table(w, d)
    {
        p.impossible(i, what, "the move would leave the table");
        return;
    }
    let (others, rects) = p.field.rects_except(&[i]);
    if let Some(&k) = path_hits(&start, steps, &rects).first() {
        let other = p.name(others[k]);
        p.impossible_naming(
            i,
            what,
            &format!("the way is blocked by {other}"),
            &[others[k]],
        );
        return;
    }
    let side = p.state.units[i].side.clone();
    for (k, r) in others.iter().zip(&rects) {
        if p.state.units[*k].side != side
            && rect_distance(&end, r) < super::super::field::deployment::ZONE_OF_CONTROL
        {
            let other = p.name(*k);
            p.impossible_naming(
                i,
                what,
                &format!("the move would come within 1\" of the enemy {other} (Zones of Control); troops in boats attack only as they disembark"),
                &[*k],
            );
            return;
        }
    }
    p.movers[i].moved = true;
    p.movers[i].used = cost;
    p.place(i, end);
    if let Some(b) = boat_of(&p.state.units[i]).map(str::to_string) {
        carry_boat(p.state, p.field.ground(), &b, &end);
    }
    let (id, name) = (p.id(i), p.name(i));
    p.event(
        Kind::Move,
        &[&id],
        format!(
            "{name} rows to {},{} facing {}.",
            super::movement::coord(end.front_centre.x),
            super::movement::coord(end.front_centre.y),
            end.facing
        ),
    );
}

/// Disembarking: the unit steps straight forward out of its boats by its
/// own depth onto the bank; an enemy within that and an inch more is
/// attacked as the unit lands (ruling STC-93).
pub fn disembark(p: &mut Phase, i: usize) {
    let what = "disembark";
    let Some(start) = p.field.rect(i) else { return };
    if !whole_turn(p, i, what) {
        return;
    }
    let (id, name) = (p.id(i), p.name(i));
    let guns = arm_of(&p.state.units[i]) == Arm::Artillery;
    let begun = p.state.units[i].rules.status.disembarking;
    if guns && !begun {
        p.state.units[i].rules.status.disembarking = true;
        p.event(
            Kind::Disembark,
            &[&id],
            format!(
                "{name} begins to disembark: the first of the two turns artillery takes ({CLAUSE})."
            ),
        );
        return;
    }
    let ahead = |d: Hundredths| Step::Forward(d).apply(&start);
    let side = p.state.units[i].side.clone();
    let (others, rects) = p.field.rects_except(&[i]);
    let enemies: Vec<(usize, Rect)> = others
        .iter()
        .zip(&rects)
        .filter(|(k, _)| p.state.units[**k].side != side)
        .map(|(k, r)| (*k, *r))
        .collect();
    let reach = start.depth + LANDING_REACH;
    let met = enemies
        .iter()
        .filter(|(_, r)| {
            ahead(reach).overlaps(r)
                || !path_hits(&start, &[Step::Forward(reach)], &[*r]).is_empty()
        })
        .map(|(k, _)| *k)
        .next();
    if let Some(k) = met {
        // Forward to the first hundredth at which an enemy is touched.
        let touching = |d: Hundredths| {
            enemies
                .iter()
                .any(|(_, r)| rect_distance(&ahead(d), r) == 0)
        };
        let (mut lo, mut hi) = (0, reach);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if touching(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        let end = ahead(lo);
        p.place(i, end);
        let status = &mut p.state.units[i].rules.status;
        status.disembarking = false;
        status.landing = true;
        let target = p.state.units[k].id.clone();
        let tname = p.name(k);
        p.record.charges.push(ChargeMade {
            attacker: id.clone(),
            targets: vec![target.clone()],
            contacted: true,
            bonus_used: false,
            from: start,
        });
        p.event(
            Kind::Disembark,
            &[&id, &target],
            format!("{name} attacks {tname} as it disembarks ({CLAUSE}: \"Troops in boats may attack an enemy as they disembark, but may only strike with one die.\")."),
        );
        return;
    }
    let end = ahead(start.depth);
    if on_water(p.state, p.field.ground(), end.centre()) {
        p.impossible(
            i,
            what,
            "there is no bank ahead of the boats (ruling STC-93)",
        );
        return;
    }
    if let Some(k) = rects.iter().position(|r| r.overlaps(&end)) {
        let other = p.name(others[k]);
        p.impossible_naming(
            i,
            what,
            &format!("{other} stands where it would land"),
            &[others[k]],
        );
        return;
    }
    p.place(i, end);
    let status = &mut p.state.units[i].rules.status;
    status.disembarking = false;
    status.boat = None;
    p.event(
        Kind::Disembark,
        &[&id],
        format!(
            "{name} disembarks at {},{}.",
            super::movement::coord(end.front_centre.x),
            super::movement::coord(end.front_centre.y)
        ),
    );
}

/// After the combat phase: a landing unit that lost has retreated in its
/// boats (and its boat goes with it); one that did not has landed.
pub fn after_combat(state: &mut State, ground: &Ground, lost: &[usize]) {
    for i in 0..state.units.len() {
        if !landing(&state.units[i]) {
            continue;
        }
        state.units[i].rules.status.landing = false;
        if lost.contains(&i) {
            follow_boat(state, ground, i);
        } else {
            state.units[i].rules.status.boat = None;
        }
    }
}
