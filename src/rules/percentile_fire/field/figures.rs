//! How many figures or cannon fire, and from what front: the front rank
//! only, but in a square, a building or a redoubt (11.24); the figures of
//! a formed unit within the 22 degree angle and range, never fewer than
//! half its strength (11.41a); a square's or a building's all round
//! (11.41b); each skirmisher measured alone (11.41); every cannon of a
//! battery bearing (11.15 step 4, 11.42).

use super::Table;
use crate::geometry::{
    Centidegrees, Fan, Hundredths, Point, Rect, distance_to_rect, figure_front_centres,
    nearest_point_of_rect,
};
use crate::rules::percentile_fire::basing::{SKIRMISH_SPACING, front_rank};
use crate::rules::percentile_fire::mechanics::fire::Refusal;
use crate::rules::percentile_fire::state::{Arm, Formation, State, Unit};

/// "the angle of fire is 22' from the frontal face of the unit" (11.41,
/// 11.42), turned outward at either front corner (ruling PF-10).
pub const FIRING_ANGLE: Centidegrees = 2200;

/// What fires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Firing {
    /// Figures or cannon firing.
    pub count: u32,
    /// How the count was reached, for the report.
    pub why: String,
    /// The frontal face width the field of fire is traced with (11.43).
    pub width: Hundredths,
    /// Where that path starts: the middle of the firing front.
    pub from: Point,
    /// Fires as a morale disordered firer (11.24b).
    pub disordered: bool,
}

/// A figure's own front, to lay the firing angle at its corners.
fn figure_rect(at: Point, facing: u32, width: Hundredths) -> Rect {
    Rect {
        front_centre: at,
        facing,
        width,
        depth: 1,
    }
}

/// Whether the target lies within a front's angle and range.
fn in_angle(front: &Rect, target: &Rect, reach: Hundredths) -> bool {
    Fan::ahead_of(front, FIRING_ANGLE)
        .reach_to(target)
        .is_some_and(|d| d <= reach)
}

/// How a unit's fire is counted at a target `reach` away at most.
/// `firer` is the unit whose fire it is; `rect` the ground it stands on
/// (its square's, for a unit in one). `limit` is its weapon's range: a
/// formed unit fires when part of the target lies within its angle and
/// that range, though `reach` is shorter (1" at 1" or less, 11.66).
pub fn firing(
    table: &Table,
    state: &State,
    firer: &Unit,
    rect: &Rect,
    target: &Rect,
    reach: Hundredths,
    limit: Hundredths,
) -> Result<Firing, Refusal> {
    if let Some((count, why, disordered)) = all_round_count(table, state, firer, rect) {
        return all_round(rect, target, reach, count, why, disordered);
    }
    match (firer.rules.arm, firer.rules.formation) {
        (Arm::Artillery, _) => battery(firer, rect, target),
        (_, Formation::Skirmish) => skirmishers(firer, rect, target, reach),
        _ => formed(firer, rect, target, reach, limit),
    }
}

/// The fire counted all round, not by the front rank (11.24a-c): a
/// battery within a square, a square, formed infantry or cavalry in a
/// building or manning a redoubt. The count, how it was reached, and
/// whether it fires as a morale disordered firer.
fn all_round_count(
    table: &Table,
    state: &State,
    firer: &Unit,
    rect: &Rect,
) -> Option<(u32, String, bool)> {
    let u = &firer.rules;
    // A battery within a square: a third of its cannon, all round.
    if u.arm == Arm::Artillery && u.in_square.is_some() {
        let n = u.cannon_now().div_ceil(3);
        return Some((
            n,
            format!(
                "a battery within a square counts 1/3 of its {} cannon, rounded up: {n} (11.24a)",
                u.cannon_now()
            ),
            false,
        ));
    }
    // A square: all its infantry as one fire, divided by three.
    if u.formation == Formation::Square {
        let total: u32 = table
            .square(state, firer)
            .iter()
            .filter(|m| m.rules.arm == Arm::Infantry)
            .map(|m| m.strength)
            .sum();
        let n = total.div_ceil(3);
        return Some((
            n,
            format!(
                "a square counts all its {total} figures divided by three, rounded up: {n} (11.24a)"
            ),
            false,
        ));
    }
    if !matches!(u.arm, Arm::Infantry | Arm::Cavalry) || u.formation == Formation::Skirmish {
        return None;
    }
    if table.in_building(rect) {
        return Some((
            firer.strength,
            format!(
                "in a building: all {} figures, fire all round, as a morale disordered firer (11.24b, 11.41b)",
                firer.strength
            ),
            true,
        ));
    }
    if table.in_redoubt(rect) {
        return Some((
            firer.strength,
            format!(
                "manning a redoubt: all {} figures within it count (11.24c)",
                firer.strength
            ),
            false,
        ));
    }
    None
}

/// Fire all round: "the entire unit can fire if part of the target unit is
/// within measured range from any frontal square formation face or the
/// model walls of the building" (11.41b).
fn all_round(
    rect: &Rect,
    target: &Rect,
    reach: Hundredths,
    count: u32,
    why: String,
    disordered: bool,
) -> Result<Firing, Refusal> {
    if crate::geometry::rect_distance(rect, target) > reach {
        return Err(Refusal::new(
            "the target is beyond range of every face",
            "11.41b: \"the entire unit can fire if part of the target unit is within measured range from any frontal square formation face or the model walls of the building\"",
        ));
    }
    Ok(Firing {
        count,
        why,
        width: rect.width,
        from: nearest_point_of_rect(target.centre(), rect),
        disordered,
    })
}

/// "All cannon must be able to bear on the target" (11.15 step 4): every
/// cannon's own angle reaches part of it (11.42).
fn battery(firer: &Unit, rect: &Rect, target: &Rect) -> Result<Firing, Refusal> {
    let cannon = firer.rules.cannon_now();
    let each = rect.width / i64::from(cannon.max(1));
    let bearing = figure_front_centres(rect, cannon)
        .into_iter()
        .filter(|p| in_angle(&figure_rect(*p, rect.facing, each), target, Hundredths::MAX))
        .count() as u32;
    if bearing < cannon {
        return Err(Refusal::new(
            format!(
                "{bearing} of its {cannon} cannon bear on the target: all must (no part of the target within the 22° angle of the others)"
            ),
            "11.15 step 4: \"All cannon must be able to bear on the target (See 11.40)\"",
        ));
    }
    Ok(Firing {
        count: cannon,
        why: format!("all {cannon} cannon bear within the 22° angle (11.42)"),
        width: rect.width,
        from: rect.front_centre,
        disordered: false,
    })
}

/// Each open order figure is measured to the target (11.41), 2" apart
/// along the screen (11.43).
fn skirmishers(
    firer: &Unit,
    rect: &Rect,
    target: &Rect,
    reach: Hundredths,
) -> Result<Firing, Refusal> {
    let n = firer.strength;
    let in_range: Vec<Point> = figure_front_centres(rect, n)
        .into_iter()
        .filter(|p| distance_to_rect(*p, target) <= reach)
        .collect();
    let within = in_range.len() as u32;
    let (Some(first), Some(last)) = (in_range.first(), in_range.last()) else {
        return Err(Refusal::new(
            "no skirmish figure has the target within range",
            "11.41: \"Measure each figure in the open order (skirmish) to any enemy unit target within weapon range.\"",
        ));
    };
    // The screen's field of fire runs from the middle of the figures that
    // fire, 2" a figure wide (11.43), so a friend standing before them
    // blocks it.
    Ok(Firing {
        count: within,
        why: format!("{within} of {n} skirmish figures within range, each measured (11.41)"),
        width: i64::from(within) * SKIRMISH_SPACING,
        from: Point {
            x: (first.x + last.x) / 2,
            y: (first.y + last.y) / 2,
        },
        disordered: false,
    })
}

/// Formed infantry or cavalry: its front rank (11.24), the figures with
/// the target in their 22° angle and range, never fewer than half its
/// strength (11.41a).
fn formed(
    firer: &Unit,
    rect: &Rect,
    target: &Rect,
    reach: Hundredths,
    limit: Hundredths,
) -> Result<Firing, Refusal> {
    let front = front_rank(firer);
    let each = rect.width / i64::from(front.max(1));
    let within_of = |reach: Hundredths| {
        figure_front_centres(rect, front)
            .into_iter()
            .filter(|p| in_angle(&figure_rect(*p, rect.facing, each), target, reach))
            .count() as u32
    };
    let within = within_of(reach);
    // "A minimum of 1/2 of the infantry unit counts within the 1" range
    // even if the figures are outside this 1" range to target" (11.66):
    // with no figure's angle reaching the target within 1", half the unit
    // still fires when part of it lies within the angle and the weapon's
    // range.
    if within == 0 && (reach >= limit || within_of(limit) == 0) {
        return Err(Refusal::new(
            "no part of the target lies within the 22° angle and range of its front",
            "11.41: \"Place the Firing Angle tool at either frontal face corner of the unit. If part of the enemy unit is within the angle then determine the number of figures within the 22' angle and range chart line\"",
        ));
    }
    let half = firer.strength.div_ceil(2);
    let count = within.max(half).min(front);
    let why = if within == 0 {
        format!(
            "no front rank figure has the target within its 22° angle and 1\"; half its {} figures, {count}, count within the 1\" range even so (11.66), of a front rank of {front} (11.24)",
            firer.strength
        )
    } else if count > within {
        format!(
            "{within} front rank figures within the 22° angle and range; at least half its {} figures, {half}, may fire (11.41a), of a front rank of {front} (11.24)",
            firer.strength
        )
    } else {
        format!(
            "{within} of its {front} front rank figures within the 22° angle and range (11.24, 11.41a)"
        )
    };
    Ok(Firing {
        count,
        why,
        width: i64::from(count) * each,
        from: rect.front_centre,
        disordered: false,
    })
}
