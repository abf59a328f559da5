//! Overhead Fire: "Guns may shoot overhead if on a higher elevation than the
//! blocking unit. If shooting over friends, measure the distance from the
//! gun to the far side of the friend. The target must be twice this distance
//! away from the firing unit to be an eligible target. Note that enemy units
//! on lower elevations never block fire".
//!
//! The table has no heights, only hill areas; ruling STC-90 reads a unit's
//! elevation off the hill areas under it and gives the rule to guns alone.

use crate::geometry::Point;
use crate::geometry::{Rect, distance, distance_to_rect, far_side_along};
use crate::rules::sound_the_charge::ground::{Ground, TerrainKind};
use crate::rules::sound_the_charge::state::State;
use crate::rules::sound_the_charge::tables::inches_text;

const HIGHER: &str =
    "(Overhead Fire: \"Guns may shoot overhead if on a higher elevation than the blocking unit.\")";
const TWICE: &str = "(Overhead Fire: \"If shooting over friends, measure the distance from the gun to the far side of the friend. The target must be twice this distance away from the firing unit to be an eligible target.\")";

/// A unit's elevation (ruling STC-90): how many hill areas, `gentle-hill`
/// or `steep-slope`, hold the centre of its footprint, so that a hill drawn
/// as nested contours rises one step per contour. The ground is level 0.
pub fn elevation(state: &State, ground: &Ground, rect: &Rect) -> usize {
    ground
        .kinds_under(state, rect)
        .into_iter()
        .filter(|k| matches!(k, TerrainKind::GentleHill | TerrainKind::SteepSlope))
        .count()
}

/// Whether guns whose footprint is `guns`, firing from the model at `from`
/// to the target's nearest point `to`, may fire over a unit (`other`, named
/// `name`) that stands in the line: `Ok` when they may, or why not.
#[allow(clippy::too_many_arguments)]
pub fn fire_over(
    state: &State,
    ground: &Ground,
    guns: &Rect,
    from: Point,
    to: Point,
    other: &Rect,
    name: &str,
    friend: bool,
) -> Result<(), String> {
    if elevation(state, ground, guns) <= elevation(state, ground, other) {
        return Err(format!(
            "{name} stands in the line of fire and is not lower than the guns {HIGHER}"
        ));
    }
    if !friend {
        // "enemy units on lower elevations never block fire (your
        // officers do not care about shortfalls into enemy units!)"
        return Ok(());
    }
    let range = distance(from, to);
    // A line that only grazes the friend at a point leaves it where it
    // touches, the friend's nearest point.
    let far_side =
        far_side_along(from, to, &other.corners()).unwrap_or_else(|| distance_to_rect(from, other));
    let need = far_side.saturating_mul(2);
    if range >= need {
        return Ok(());
    }
    let text = |h: i64| inches_text(u32::try_from(h).unwrap_or(u32::MAX));
    Err(format!(
        "overhead fire over {name} needs the target at least {} inches away, twice the {} inches from the gun to the far side of {name}; it is {} inches away {TWICE}",
        text(need),
        text(far_side),
        text(range)
    ))
}
