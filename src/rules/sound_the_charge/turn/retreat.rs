//! Retreat Moves: "Retreat moves are made with the unit facing the enemy,
//! shaken. The unit retreats along any desired path, as long as its center
//! of mass remains within the defined "retreat zone". The retreat zone is
//! centered along a line pointing directly away from the cause of the
//! failure, and spreads outward along a 45° angle to either side of that
//! line, in a cone. The zone is 18 inches long."
//!
//! The engine chooses the path for the player (ruling STC-66): straight,
//! along the centre line of the zone if that line is open, else along the
//! nearest open line 15, 30 or 45 degrees to either side (right before
//! left), as far as the minimum distance, or farther, up to 18 inches, to
//! clear friends it would otherwise end on top of. A unit that no straight
//! line in the cone lets out is eliminated, with the restriction that
//! stopped the centre line as the reason.

use super::fighting::{Deployment, event};
use crate::geometry::{Hundredths, Point};
use crate::geometry::{
    RETREAT_ZONE_LENGTH, Rect, RetreatZone, distance_ahead_of_frontage_line, rect_distance,
    segments_intersect, straight_move_hits,
};
use crate::rules::board::{Location, MapSpec};
use crate::rules::ruleset::Event;
use crate::rules::sound_the_charge::basing;
use crate::rules::sound_the_charge::events::Kind;
use crate::rules::sound_the_charge::orders::Formation;
use crate::rules::sound_the_charge::state::State;

/// Restriction 3: "A retreating unit needs a four-inch gap to retreat
/// between unengaged enemy units, or it is eliminated."
pub const RETREAT_GAP: Hundredths = 400;
/// Restriction 4: "Except during the first two inches of its retreat, no
/// part of a retreating unit may come within one inch of an unengaged enemy
/// unit".
pub const FREE_START: Hundredths = 200;
pub const ENEMY_CLEARANCE: Hundredths = 100;
/// The lines tried off the centre of the cone, in degrees.
const TRIES: [i32; 7] = [0, 15, -15, 30, -30, 45, -45];
/// How finely restriction 4 is checked along the path.
const STEP: Hundredths = 20;

/// What the retreat is away from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    /// An enemy unit (its footprint and id).
    Unit(Rect, String),
    /// A point, such as the centre of the enemies a unit lost to.
    Point(Point),
}

/// How a retreat ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RetreatOutcome {
    /// The unit retreated this far and stands there.
    Retreated { distance: Hundredths },
    /// The unit was eliminated, for the reason given (the restriction of
    /// Retreat Moves it broke).
    Eliminated { reason: String },
}

/// Retreats the unit `id` at least `distance` away from `cause`, inside the
/// retreat zone, by the restrictions 1-5 of Retreat Moves.
pub fn retreat(
    state: &mut State,
    id: &str,
    cause: &Rect,
    distance: Hundredths,
    events: &mut Vec<Event>,
) -> RetreatOutcome {
    let Some(i) = state.units.iter().position(|u| u.id == id) else {
        return RetreatOutcome::Eliminated {
            reason: format!("no unit `{id}`"),
        };
    };
    // The cause's id, when it is a unit on the table, names it in the event.
    let cause_id = state
        .units
        .iter()
        .find(|u| basing::footprint(u).as_ref() == Some(cause) && u.eliminated.is_none())
        .map(|u| u.id.clone());
    let mut table = Deployment::new(state);
    let cause = match cause_id {
        Some(c) => Cause::Unit(*cause, c),
        None => Cause::Point(cause.centre()),
    };
    retreat_in(state, &mut table, i, cause, distance, events)
}

/// Restriction 4, the unit's status: an enemy is unengaged when it touches
/// no unit of the other side.
fn engaged(state: &State, table: &Deployment, j: usize) -> bool {
    let side = &state.units[j].side;
    table
        .within(j, super::fighting::CONTACT)
        .into_iter()
        .any(|k| state.units[k].side != *side)
}

fn translated(r: &Rect, dx: i64, dy: i64) -> Rect {
    Rect {
        front_centre: Point {
            x: r.front_centre.x + dx,
            y: r.front_centre.y + dy,
        },
        ..*r
    }
}

/// The displacement `length` long along `axis` turned by `degrees`
/// (clockwise, as facings turn).
fn along(axis: Point, degrees: i32, length: Hundredths) -> (i64, i64) {
    let (x, y) = (axis.x as f64, axis.y as f64);
    let len = libm::sqrt(x * x + y * y);
    if len == 0.0 {
        return (0, 0);
    }
    let a = f64::from(degrees).to_radians();
    // Clockwise turn of (x, y) with y north: x' = x cos + y sin, y' = -x sin + y cos.
    let (s, c) = (libm::sin(a), libm::cos(a));
    let (rx, ry) = (x * c + y * s, -x * s + y * c);
    let k = length as f64 / len;
    (libm::round(rx * k) as i64, libm::round(ry * k) as i64)
}

/// One straight line of retreat checked against the five restrictions;
/// the footprint it ends in, or why it is closed.
#[allow(clippy::too_many_arguments)]
fn try_line(
    state: &State,
    table: &Deployment,
    i: usize,
    start: &Rect,
    base: &Rect,
    axis: Point,
    degrees: i32,
    min: Hundredths,
) -> Result<(Rect, Hundredths), (String, Vec<String>)> {
    let side = &state.units[i].side;
    let mut d = min;
    loop {
        let (dx, dy) = along(axis, degrees, d);
        let end = translated(base, dx, dy);
        let reach = d + base.width.max(base.depth) + RETREAT_GAP;
        let near: Vec<usize> = table
            .index
            .grid
            .near_rect(start, reach)
            .into_iter()
            .filter(|&j| j != i && table.index.rects[j].is_some())
            .collect();
        let enemies: Vec<usize> = near
            .iter()
            .copied()
            .filter(|&j| state.units[j].side != *side)
            .collect();
        // Restriction 2: "A retreating unit is eliminated if any part of it
        // must contact an enemy unit during its retreat". The enemies it is
        // already touching (those it fought) are where it starts from.
        let in_way: Vec<usize> = enemies
            .iter()
            .copied()
            .filter(|&j| {
                table.index.rects[j]
                    .is_some_and(|r| rect_distance(start, &r) > super::fighting::CONTACT)
            })
            .collect();
        let rects: Vec<Rect> = in_way
            .iter()
            .filter_map(|&j| table.index.rects[j])
            .collect();
        if let Some(&k) = straight_move_hits(base, end.front_centre, &rects).first() {
            let j = in_way[k];
            return Err((
                format!(
                    "its retreat runs into {} (Retreat Moves, restriction 2: \"A retreating unit is eliminated if any part of it must contact an enemy unit during its retreat\")",
                    state.units[j].name
                ),
                vec![state.units[j].id.clone()],
            ));
        }
        let unengaged: Vec<usize> = enemies
            .iter()
            .copied()
            .filter(|&j| !engaged(state, table, j))
            .collect();
        // Restriction 3: the gap between two unengaged enemies the retreat
        // passes between.
        let (c0, c1) = (base.centre(), end.centre());
        for (n, &a) in unengaged.iter().enumerate() {
            for &b in &unengaged[n + 1..] {
                let (Some(ra), Some(rb)) = (table.index.rects[a], table.index.rects[b]) else {
                    continue;
                };
                if rect_distance(&ra, &rb) < RETREAT_GAP
                    && segments_intersect(c0, c1, ra.centre(), rb.centre())
                {
                    return Err((
                        format!(
                            "the gap between {} and {} is less than four inches (Retreat Moves, restriction 3: \"A retreating unit needs a four-inch gap to retreat between unengaged enemy units, or it is eliminated.\")",
                            state.units[a].name, state.units[b].name
                        ),
                        vec![state.units[a].id.clone(), state.units[b].id.clone()],
                    ));
                }
            }
        }
        // Restriction 4: past the first two inches, never within an inch of
        // an unengaged enemy.
        let mut s = FREE_START.min(d);
        while s <= d {
            let (sx, sy) = along(axis, degrees, s);
            let at = translated(base, sx, sy);
            for &j in &unengaged {
                let Some(r) = table.index.rects[j] else {
                    continue;
                };
                if s > FREE_START && rect_distance(&at, &r) < ENEMY_CLEARANCE {
                    return Err((
                        format!(
                            "past its first two inches it would come within one inch of {} (Retreat Moves, restriction 4: \"Except during the first two inches of its retreat, no part of a retreating unit may come within one inch of an unengaged enemy unit, or it is eliminated.\")",
                            state.units[j].name
                        ),
                        vec![state.units[j].id.clone()],
                    ));
                }
            }
            if s == d {
                break;
            }
            s = (s + STEP).min(d);
        }
        if let MapSpec::Table { width, depth } = state.map
            && !end.is_inside_table(width, depth)
        {
            return Err(("it is forced off the table".to_string(), Vec::new()));
        }
        // "A retreating unit may move freely through friendly units" but
        // may not end on top of one: it carries on, up to 18 inches.
        let on_friend = near.iter().any(|&j| {
            state.units[j].side == *side && table.index.rects[j].is_some_and(|r| end.overlaps(&r))
        });
        // Towns: "A unit in a block that fails a fire test or loses a
        // round of combat must retreat out of the block it occupies": it
        // carries on until its centre has left the block (ruling STC-92).
        let in_block = super::town::still_in_block(state, &table.ground, start, &end);
        if !on_friend && !in_block {
            return Ok((end, d));
        }
        if d >= RETREAT_ZONE_LENGTH {
            let why = if in_block {
                "no way out of the block within 18 inches (Terrain Suggestions, Towns: \"A unit in a block that fails a fire test or loses a round of combat must retreat out of the block it occupies.\")"
            } else {
                "no room to end the retreat clear of friendly units within 18 inches"
            };
            return Err((why.to_string(), Vec::new()));
        }
        d = (d + 50).min(RETREAT_ZONE_LENGTH);
    }
}

/// Makes unit `i` retreat `min` hundredths away from `cause`, shaken; or
/// eliminates it (restriction 5, attack from opposite sides, is decided by
/// the combat before any retreat). Returns the outcome, with an event
/// either way; `table` follows the unit.
pub fn retreat_in(
    state: &mut State,
    table: &mut Deployment,
    i: usize,
    cause: Cause,
    min: Hundredths,
    events: &mut Vec<Event>,
) -> RetreatOutcome {
    let id = state.units[i].id.clone();
    let name = state.units[i].name.clone();
    let Some(start) = table.index.rects[i] else {
        return RetreatOutcome::Eliminated {
            reason: "not on the table".to_string(),
        };
    };
    let centre = start.centre();
    let (zone, cause_point, cause_id) = match &cause {
        Cause::Unit(r, cid) => (
            RetreatZone::away_from_rect(r, centre),
            r.centre(),
            Some(cid.clone()),
        ),
        Cause::Point(p) => (RetreatZone::away_from_point(*p, centre), *p, None),
    };
    // With the cause on top of the unit there is no "away": straight back.
    let axis = zone.map_or_else(
        || {
            let (dx, dy) = along(
                Point {
                    x: 0,
                    y: RETREAT_ZONE_LENGTH,
                },
                start.facing as i32,
                RETREAT_ZONE_LENGTH,
            );
            Point { x: -dx, y: -dy }
        },
        |z| z.axis,
    );
    // "made with the unit facing the enemy": a unit whose enemy is behind
    // its rear turns about (ruling STC-66); "Squares that retreat
    // end the move in column."
    let mut spec = state.units[i].clone();
    if distance_ahead_of_frontage_line(&start, cause_point) < -start.depth {
        spec.facing = (spec.facing + 180) % 360;
        let back = Point {
            x: 2 * centre.x - start.front_centre.x,
            y: 2 * centre.y - start.front_centre.y,
        };
        spec.location = Location::Table {
            x: back.x,
            y: back.y,
        };
    }
    // Judged on the formation, not on the footprint's size: hits taken
    // before the retreat shrink a column's footprint too.
    let was_square = spec.rules.formation == Formation::Square;
    if was_square {
        spec.rules.formation = Formation::Column;
    }
    let base = basing::footprint(&spec).unwrap_or(start);
    let mut first_err = None;
    let mut done = None;
    for deg in TRIES {
        match try_line(state, table, i, &start, &base, axis, deg, min) {
            Ok(end) => {
                done = Some(end);
                break;
            }
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    let units: Vec<&str> = match &cause_id {
        Some(c) => vec![id.as_str(), c.as_str()],
        None => vec![id.as_str()],
    };
    match done {
        Some((end, d)) => {
            let u = &mut state.units[i];
            u.facing = spec.facing;
            u.rules.formation = spec.rules.formation;
            u.location = Location::Table {
                x: end.front_centre.x,
                y: end.front_centre.y,
            };
            u.rules.shaken = true;
            events.push(event(
                Kind::Retreat,
                &units,
                format!(
                    "{name} retreats {} inches{}, shaken, facing the enemy.",
                    crate::rules::sound_the_charge::tables::inches_text(
                        u32::try_from(d).unwrap_or(0)
                    ),
                    if was_square {
                        " and ends in column"
                    } else {
                        ""
                    }
                ),
            ));
            table.refresh(state, i);
            RetreatOutcome::Retreated { distance: d }
        }
        None => {
            let (why, named) =
                first_err.unwrap_or_else(|| ("it cannot retreat".to_string(), Vec::new()));
            eliminate(
                state,
                table,
                i,
                (Kind::EliminatedRetreating, &units, &named),
                &why,
                events,
            );
            RetreatOutcome::Eliminated { reason: why }
        }
    }
}

/// Removes a unit that cannot retreat.
/// Why a unit forced off the table is out of play, as the state records it
/// (Army Morale: "(shattered or forced off-table)").
pub const FORCED_OFF_TABLE: &str = "forced off-table";

/// Removes unit `i` from play, telling it as an event of `kind` naming
/// `units` and the units its reason names (`named`).
pub fn eliminate(
    state: &mut State,
    table: &mut Deployment,
    i: usize,
    (kind, units, named): (Kind, &[&str], &[String]),
    why: &str,
    events: &mut Vec<Event>,
) {
    let name = state.units[i].name.clone();
    let u = &mut state.units[i];
    u.eliminated = Some(if why.contains("off the table") {
        FORCED_OFF_TABLE.to_string()
    } else if kind == Kind::EliminatedRetreating {
        "eliminated retreating".to_string()
    } else {
        "eliminated in close combat".to_string()
    });
    u.rules.shaken = true;
    events.push(event(kind, units, format!("{name} is eliminated: {why}.")).also_naming(named));
    table.refresh(state, i);
}

#[cfg(test)]
mod tests {
    use super::super::fighting::testing::{state, unit};
    use super::*;

    fn run(s: &mut State, i: usize, cause: usize, inches: i64) -> (RetreatOutcome, Vec<Event>) {
        let c = basing::footprint(&s.units[cause]).unwrap();
        let id = s.units[i].id.clone();
        let mut ev = Vec::new();
        let o = retreat(s, &id, &c, inches * 100, &mut ev);
        (o, ev)
    }

    #[test]
    fn retreats_straight_away_facing_the_enemy() {
        // Retreat Moves: "The retreat zone is centered along a line pointing
        // directly away from the cause of the failure".
        let mut s = state(vec![
            unit(
                "a",
                "blue",
                "line-infantry",
                "C",
                12,
                "line",
                (2000, 2000),
                0,
            ),
            unit(
                "b",
                "red",
                "line-infantry",
                "C",
                12,
                "line",
                (2000, 2300),
                180,
            ),
        ]);
        let (o, ev) = run(&mut s, 1, 0, 2);
        assert_eq!(o, RetreatOutcome::Retreated { distance: 200 }, "{ev:?}");
        assert_eq!(s.units[1].location, Location::Table { x: 2000, y: 2500 });
        assert_eq!(s.units[1].facing, 180);
        assert!(s.units[1].rules.shaken);
    }

    #[test]
    fn enemy_behind_eliminates() {
        // Restriction 2: "A retreating unit is eliminated if any part of it
        // must contact an enemy unit during its retreat"; a wide enemy line
        // fills the whole cone.
        let mut s = state(vec![
            unit(
                "a",
                "blue",
                "line-infantry",
                "C",
                12,
                "line",
                (2000, 2000),
                0,
            ),
            unit(
                "b",
                "red",
                "line-infantry",
                "C",
                12,
                "line",
                (2000, 2300),
                180,
            ),
            unit(
                "c",
                "blue",
                "line-infantry",
                "C",
                48,
                "line",
                (2000, 2450),
                180,
            ),
        ]);
        let (o, _) = run(&mut s, 1, 0, 2);
        assert!(
            matches!(o, RetreatOutcome::Eliminated { reason: ref w } if w.contains("restriction 2")),
            "{o:?}"
        );
        assert!(s.units[1].eliminated.is_some());
    }

    #[test]
    fn narrow_gap_eliminates() {
        // Restriction 3: "A retreating unit needs a four-inch gap to retreat
        // between unengaged enemy units, or it is eliminated."
        let mut s = state(vec![
            unit(
                "a",
                "blue",
                "line-infantry",
                "C",
                12,
                "line",
                (2000, 2000),
                0,
            ),
            unit(
                "b",
                "red",
                "line-infantry",
                "C",
                4,
                "column",
                (2000, 2300),
                180,
            ),
            unit(
                "l",
                "blue",
                "line-infantry",
                "C",
                24,
                "line",
                (1400, 2700),
                0,
            ),
            unit(
                "r",
                "blue",
                "line-infantry",
                "C",
                24,
                "line",
                (2600, 2700),
                0,
            ),
        ]);
        let (o, _) = run(&mut s, 1, 0, 6);
        assert!(
            matches!(o, RetreatOutcome::Eliminated { reason: ref w } if w.contains("restriction 3")),
            "{o:?}"
        );
    }

    #[test]
    fn off_the_table_eliminates() {
        let mut s = state(vec![
            unit(
                "a",
                "blue",
                "line-infantry",
                "C",
                12,
                "line",
                (2000, 4300),
                0,
            ),
            unit(
                "b",
                "red",
                "line-infantry",
                "C",
                12,
                "line",
                (2000, 4600),
                180,
            ),
        ]);
        let (o, _) = run(&mut s, 1, 0, 4);
        assert!(
            matches!(o, RetreatOutcome::Eliminated { reason: ref w } if w.contains("off the table")),
            "{o:?}"
        );
        assert_eq!(s.units[1].eliminated.as_deref(), Some("forced off-table"));
    }

    #[test]
    fn passes_through_friends_and_ends_clear() {
        // "A retreating unit may move freely through friendly units."
        let mut s = state(vec![
            unit(
                "a",
                "blue",
                "line-infantry",
                "C",
                12,
                "line",
                (2000, 2000),
                0,
            ),
            unit(
                "b",
                "red",
                "line-infantry",
                "C",
                12,
                "line",
                (2000, 2300),
                180,
            ),
            unit(
                "f",
                "red",
                "line-infantry",
                "C",
                12,
                "line",
                (2000, 2520),
                180,
            ),
        ]);
        let (o, ev) = run(&mut s, 1, 0, 2);
        let RetreatOutcome::Retreated { distance: d } = o else {
            panic!("{ev:?}")
        };
        assert_eq!(d, 300, "carried on past the friend");
    }
}
