//! Moving to contact: where a charger ends against its target and the way
//! it goes there. "You can charge if already in contact [...], or you can
//! move to contact"; "In a follow-up charge, the charging cavalry is moved
//! to contact in as straight a line as possible"; "Cavalry cannot charge
//! through a Built-Up Area, but it may charge around it."
//!
//! Ruling GT-11: the charger goes straight for the side of the target its
//! front centre lies beyond, and ends squarely against it, its front to
//! that side, at the middle of it or, where that place is taken, off the
//! table or out of its reach, as near the middle as it finds room on the
//! table within reach, its front still overlapping the side by at least
//! half the shorter of the two; with no such place there, against another
//! side, the nearest first. Its route is the straight line from its front
//! centre to that place, or, for cavalry whose line crosses a Built-Up
//! Area, the shortest way round it.
//! Another unit in the way blocks the charge.

use super::super::super::field::Field;
use super::super::super::setup::BUILT_UP_AREA;
use super::super::super::state::Arm;
use crate::geometry::{
    Hundredths, Point, Rect, Side, facing_onto, length_inside_polygon, move_hits, route_around,
    route_length, set_against, side_length, side_towards,
};

/// How a charger gets into contact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Approach {
    /// Its front centre before it moved: "the point where the charge began".
    pub began: Point,
    /// Its base once in contact.
    pub end: Rect,
    /// The way its front centre went, from `began` to the end.
    pub route: Vec<Point>,
    pub length: Hundredths,
    /// The side of the target it meets; `None` when it was in contact
    /// already and did not move.
    pub side: Option<Side>,
}

/// Why a charger cannot get into contact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoWay {
    /// Its move does not reach: the length of the way, its move, and
    /// whether the way goes round a Built-Up Area.
    OutOfReach {
        needs: Hundredths,
        has: Hundredths,
        around: bool,
    },
    /// Cavalry whose way crosses a Built-Up Area and finds none round it.
    ThroughBuiltUpArea,
    /// A unit stands in the way (its index), or there is no room against
    /// the target.
    Blocked { by: Option<usize> },
}

/// Offsets along the target's side tried for the charger's place, in
/// hundredths: every quarter inch.
const STEP: Hundredths = 25;

/// Plans the move of unit `i` into contact with `t`, within `limit` when
/// there is one. `ignore` are units the move may pass (none but in a
/// pursuit's follow-up, where the pursuer has just run past them).
pub fn approach(
    field: &Field,
    i: usize,
    t: usize,
    limit: Option<Hundredths>,
) -> Result<Approach, NoWay> {
    let (Some(a), Some(target)) = (field.rect(i), field.rect(t)) else {
        return Err(NoWay::Blocked { by: None });
    };
    if field.in_contact(i, t) {
        return Ok(Approach {
            began: a.front_centre,
            end: a,
            route: vec![a.front_centre],
            length: 0,
            side: None,
        });
    }
    // The side it lies beyond first, then the others, nearest first.
    let first = side_towards(&target, a.front_centre);
    let mut sides: Vec<Side> = Side::ALL.into_iter().filter(|&s| s != first).collect();
    sides.sort_by_key(|&s| crate::geometry::distance(a.front_centre, set_against(&target, s, 0)));
    sides.insert(0, first);
    let mut tried: Vec<(Side, Rect)> = Vec::new();
    for side in sides {
        let facing = facing_onto(&target, side);
        // As far along the side as its front still overlaps the side by
        // half the shorter of the two.
        let length = side_length(&target, side);
        let reach = (length + a.width) / 2 - length.min(a.width) / 2;
        let mut offsets: Vec<Hundredths> = vec![0];
        let mut k = STEP;
        while k <= reach {
            offsets.push(k);
            offsets.push(-k);
            k += STEP;
        }
        if reach % STEP != 0 {
            offsets.push(reach);
            offsets.push(-reach);
        }
        let mut places: Vec<(Hundredths, Rect)> = offsets
            .iter()
            .map(|&o| {
                let end = Rect {
                    front_centre: set_against(&target, side, o),
                    facing,
                    ..a
                };
                (o, end)
            })
            .collect();
        // Nearest the middle first, then the place nearer the charger.
        places.sort_by_key(|(o, end)| {
            (
                o.abs(),
                crate::geometry::distance(a.front_centre, end.front_centre),
            )
        });
        tried.extend(places.into_iter().map(|(_, end)| (side, end)));
    }
    let mut first_block: Option<NoWay> = None;
    let mut short: Option<NoWay> = None;
    for (side, end) in tried {
        match way_to(field, i, t, &a, &end) {
            Ok(route) => {
                let length = route_length(&route);
                if let Some(has) = limit
                    && length > has
                {
                    // Too far: a place farther from the middle may be in
                    // reach; the shortest way seen is the one refused.
                    let shorter = match &short {
                        Some(NoWay::OutOfReach { needs, .. }) => length < *needs,
                        _ => true,
                    };
                    if shorter {
                        short = Some(NoWay::OutOfReach {
                            needs: length,
                            has,
                            around: route.len() > 2,
                        });
                    }
                    continue;
                }
                return Ok(Approach {
                    began: a.front_centre,
                    end,
                    route,
                    length,
                    side: Some(side),
                });
            }
            Err(NoWay::ThroughBuiltUpArea) => {
                short.get_or_insert(NoWay::ThroughBuiltUpArea);
            }
            Err(e) => {
                first_block.get_or_insert(e);
            }
        }
    }
    if let Some(why) = short {
        return Err(why);
    }
    Err(first_block.unwrap_or(NoWay::Blocked { by: None }))
}

/// The route to one place against the target, or why it is no good.
fn way_to(field: &Field, i: usize, t: usize, a: &Rect, end: &Rect) -> Result<Vec<Point>, NoWay> {
    let mut route = vec![a.front_centre, end.front_centre];
    if field.arm(i) == Arm::Cavalry {
        let clearance = a.width / 2;
        for area in field.areas(BUILT_UP_AREA) {
            let crosses = route
                .windows(2)
                .any(|w| length_inside_polygon(w[0], w[1], area) > 0);
            if !crosses {
                continue;
            }
            let start = route[0];
            let finish = route[route.len() - 1];
            route =
                route_around(start, finish, area, clearance).ok_or(NoWay::ThroughBuiltUpArea)?;
        }
        let still = field.areas(BUILT_UP_AREA).any(|area| {
            route
                .windows(2)
                .any(|w| length_inside_polygon(w[0], w[1], area) > 0)
        });
        if still {
            return Err(NoWay::ThroughBuiltUpArea);
        }
    }
    // The place must lie on the table (a unit never leaves it but by
    // flight), with nothing standing on it, and nothing in the way.
    let (width, depth) = field.table();
    if !end.is_inside_table(width, depth) {
        return Err(NoWay::Blocked { by: None });
    }
    let reach = a.width.max(a.depth) + 100;
    let (ids, rects) = field.obstacles_around(&route, reach, &[i, t]);
    for (k, r) in rects.iter().enumerate() {
        if end.overlaps(r) {
            return Err(NoWay::Blocked { by: Some(ids[k]) });
        }
    }
    // Each leg keeps the charger's facing until the last, which turns it
    // to face the target as it closes.
    for (n, leg) in route.windows(2).enumerate() {
        let from = Rect {
            front_centre: leg[0],
            ..if n == 0 {
                *a
            } else {
                Rect {
                    facing: a.facing,
                    ..*a
                }
            }
        };
        let to = if n + 2 == route.len() {
            *end
        } else {
            Rect {
                front_centre: leg[1],
                ..*a
            }
        };
        if let Some(&k) = move_hits(&from, &to, &rects).first() {
            return Err(NoWay::Blocked { by: Some(ids[k]) });
        }
    }
    Ok(route)
}
