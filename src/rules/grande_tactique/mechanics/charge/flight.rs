//! Fleeing: "The loser flees (7" for infantry, 11"+(2d6)" for cavalry; see
//! below)". The chapter refers to "Fleeing & Routing" for the rest; ruling
//! GT-8 reads it so:
//!
//! - a unit that flees turns its back on the enemy that made it flee and
//!   runs its flight distance in the direction that enemy faces (straight
//!   away from it), and is routed;
//! - it passes through friends, and ends clear of every unit, running on as
//!   far as it must to clear a friend it would end on;
//! - an enemy in its way turns it aside: it runs 30°, 60° or 90° off its
//!   line, to the left first, the first way that is clear; with no way
//!   clear it is "destroyed because surrounded by enemies";
//! - a unit whose flight would carry it off the table flees off the map and
//!   leaves the game where its path crosses the edge.

use super::super::super::field::{CONTACT, Cover, Field};
use super::super::super::state::Arm;
use crate::geometry::{
    Hundredths, Point, Rect, first_hit_along, move_forward, move_hits, point_in_polygon, table_exit,
};

/// The turns off its line a fleeing unit tries, in order.
const TURNS: [i64; 7] = [0, -30, 30, -60, 60, -90, 90];

/// A flight worked out before it is run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlightPlan {
    /// The way it runs, degrees clockwise from north.
    pub direction: u32,
    /// How far it ran: its flight distance, and more where it ran on past
    /// friends ("the distance the pursued cavalry has fled").
    pub distance: Hundredths,
    /// Its flight distance as the rules give it.
    pub rolled: Hundredths,
    /// Its base before it fled.
    pub from: Rect,
    pub end: FlightEnd,
    /// Friends it passes through, by index.
    pub passed: Vec<usize>,
    /// The way its front centre went, for the map.
    pub route: Vec<Point>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlightEnd {
    /// It stands here, routed; in cover when it ends in woods or a
    /// Built-Up Area (that area's outline).
    Stands {
        base: Rect,
        cover: Option<(Cover, Vec<Point>)>,
    },
    /// It leaves the map at this point of the edge.
    OffMap { exit: Point },
    /// Enemies on every side: it cannot flee.
    Surrounded,
}

/// How far a unit of an arm flees: 7" for infantry (and for artillery that
/// flees, GT-8), 11" and the 2d6 for cavalry.
pub fn distance(arm: Arm, two_d6: u32) -> Hundredths {
    match arm {
        Arm::Cavalry => 1100 + Hundredths::from(two_d6) * 100,
        _ => 700,
    }
}

/// The base of a unit turned about its centre to face `direction`.
fn turned(base: &Rect, direction: u32) -> Rect {
    let centred = Rect {
        front_centre: base.centre(),
        facing: direction % 360,
        ..*base
    };
    move_forward(&centred, base.depth / 2)
}

/// Works out the flight of unit `i` away `direction` for `distance`, from
/// the enemies `from` (who do not block it: it runs from them).
pub fn plan(
    field: &Field,
    i: usize,
    direction: u32,
    distance: Hundredths,
    from: &[usize],
) -> Option<FlightPlan> {
    let base = field.rect(i)?;
    let (width, depth) = field.table();
    for turn in TURNS {
        let dir = (i64::from(direction) + turn).rem_euclid(360) as u32;
        let start = turned(&base, dir);
        let end = move_forward(&start, distance);
        let mut except = vec![i];
        except.extend_from_slice(from);
        let reach = base.width.max(base.depth) + 200;
        let (ids, rects) =
            field.obstacles_around(&[start.front_centre, end.front_centre], reach, &except);
        let enemies: Vec<usize> = (0..ids.len())
            .filter(|&k| field.enemies(i, ids[k]))
            .collect();
        let enemy_rects: Vec<Rect> = enemies.iter().map(|&k| rects[k]).collect();
        // Where it would leave the table, and how far along that is.
        let exit = if end.is_inside_table(width, depth) {
            None
        } else {
            let far = move_forward(&start, distance + base.depth);
            table_exit(start.front_centre, far.front_centre, width, depth)
                .or(Some(start.front_centre))
        };
        let to_exit = exit.map(|p| crate::geometry::distance(start.front_centre, p));
        let blocked_at = first_hit_along(&start, end.front_centre, &enemy_rects).map(|(_, d)| d);
        match (blocked_at, to_exit) {
            (Some(b), Some(x)) if b < x => continue,
            (Some(_), None) => continue,
            _ => {}
        }
        let passed: Vec<usize> = move_hits(&start, &end, &rects)
            .into_iter()
            .map(|k| ids[k])
            .filter(|&j| !field.enemies(i, j))
            .collect();
        if let Some(exit) = exit {
            return Some(FlightPlan {
                direction: dir,
                distance,
                rolled: distance,
                from: base,
                end: FlightEnd::OffMap { exit },
                passed,
                route: vec![base.front_centre, exit],
            });
        }
        // Run on past a friend it would end on.
        let mut run = distance;
        let mut stand = end;
        let mut clear = false;
        while run <= distance + 1200 {
            stand = move_forward(&start, run);
            if !stand.is_inside_table(width, depth) {
                break;
            }
            let on: Vec<usize> = field
                .near(&stand, 0, &except)
                .into_iter()
                .filter(|&j| field.rect(j).is_some_and(|r| r.overlaps(&stand)))
                .collect();
            if on.is_empty() {
                clear = true;
                break;
            }
            if on.iter().any(|&j| field.enemies(i, j)) {
                break;
            }
            run += CONTACT * 25;
        }
        if !clear {
            if !stand.is_inside_table(width, depth) {
                let far = move_forward(&start, run + base.depth);
                let exit = table_exit(start.front_centre, far.front_centre, width, depth)
                    .unwrap_or(stand.front_centre);
                return Some(FlightPlan {
                    direction: dir,
                    distance,
                    rolled: distance,
                    from: base,
                    end: FlightEnd::OffMap { exit },
                    passed,
                    route: vec![base.front_centre, exit],
                });
            }
            continue;
        }
        let cover = field
            .cover_area_at(stand.centre())
            .filter(|(_, area)| point_in_polygon(stand.centre(), area));
        return Some(FlightPlan {
            direction: dir,
            distance: run,
            rolled: distance,
            from: base,
            end: FlightEnd::Stands { base: stand, cover },
            passed,
            route: vec![base.front_centre, stand.front_centre],
        });
    }
    Some(FlightPlan {
        direction: direction % 360,
        distance,
        rolled: distance,
        from: base,
        end: FlightEnd::Surrounded,
        passed: Vec::new(),
        route: Vec::new(),
    })
}
