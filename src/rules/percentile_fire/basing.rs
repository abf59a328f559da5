//! The ground a unit covers on the table, from its figures, its formation
//! and the bases it was set up with: the footprint its fire zones, its
//! field of fire and the map are drawn from (outside the chapter; ruling
//! PF-3).

use super::state::{Arm, Formation, PfUnit, Unit};
use crate::geometry::{Hundredths, Point, Rect};
use crate::rules::board::Location;

/// "Skirmish (open) order formation is based upon the ratio of 2" per
/// figure to determine the frontal face width" (11.43).
pub const SKIRMISH_SPACING: Hundredths = 200;

/// Figures in the front rank of a formed unit: a line's strength over its
/// ranks, a column's files (11.24).
pub fn front_rank(unit: &Unit) -> u32 {
    let u = &unit.rules;
    let n = unit.strength;
    match u.formation {
        Formation::Line => n.div_ceil(u.ranks.max(1)),
        Formation::Column => n.min(u.files.max(1)),
        Formation::Skirmish => n,
        // A square fires a third of its figures (11.24a); its faces are
        // not counted figure by figure.
        Formation::Square => n.div_ceil(3),
        Formation::Limbered | Formation::Unlimbered => u.cannon_now(),
    }
}

/// The width and depth of a unit's footprint.
pub fn size(u: &PfUnit, strength: u32) -> (Hundredths, Hundredths) {
    let (fw, fd) = (u.base.frontage, u.base.depth);
    let n = i64::from(strength.max(1));
    match (u.arm, u.formation) {
        (Arm::Artillery, Formation::Unlimbered) => (i64::from(u.cannon_now().max(1)) * fw, fd),
        (Arm::Artillery, _) => (fw, i64::from(u.cannon_now().max(1)) * fd),
        (Arm::Headquarters, _) => (fw, fd),
        (Arm::Train, _) => (fw, n * fd),
        (_, Formation::Skirmish) => (n * SKIRMISH_SPACING, fd),
        (_, Formation::Square) => {
            // Four faces of two ranks round a hollow centre.
            let side = i64::from(strength.max(1).div_ceil(8)) * fw + 2 * fd;
            (side, side)
        }
        (_, Formation::Column) => {
            let files = i64::from(u.files.max(1)).min(n);
            (files * fw, (n + files - 1) / files * fd)
        }
        (_, _) => {
            let ranks = i64::from(u.ranks.max(1));
            ((n + ranks - 1) / ranks * fw, ranks * fd)
        }
    }
}

/// The rectangle a unit covers; `None` off a table, or for a unit standing
/// inside a square, which covers no ground of its own (11.62).
pub fn footprint(unit: &Unit) -> Option<Rect> {
    if unit.rules.in_square.is_some() {
        return None;
    }
    let Location::Table { x, y } = unit.location else {
        return None;
    };
    let (width, depth) = size(&unit.rules, unit.strength);
    Some(Rect {
        front_centre: Point { x, y },
        facing: unit.facing,
        width,
        depth,
    })
}
