//! The ground a unit covers on the table. The chapter speaks of a unit's
//! base ("two corners of the target base") without sizes; ruling GT-2 gives
//! every unit one base by arm and formation.

use super::state::{Arm, Formation, Unit};
use crate::geometry::{Hundredths, Rect};
use crate::rules::board::Location;

/// Frontage and depth of a unit's base, in hundredths of an inch.
pub fn size(arm: Arm, formation: Formation) -> (Hundredths, Hundredths) {
    match (arm, formation) {
        (Arm::Infantry, Formation::Line) => (400, 100),
        (Arm::Infantry, _) => (200, 200),
        (Arm::Cavalry, Formation::Column) => (200, 400),
        (Arm::Cavalry, _) => (400, 150),
        (Arm::Artillery, Formation::Column) => (100, 300),
        (Arm::Artillery, _) => (200, 200),
    }
}

/// The unit's rectangle, behind its front centre; `None` off a table.
pub fn footprint(unit: &Unit) -> Option<Rect> {
    let Location::Table { x, y } = unit.location else {
        return None;
    };
    let (width, depth) = size(unit.rules.troop_type.arm(), unit.rules.formation);
    Some(Rect {
        front_centre: crate::geometry::Point { x, y },
        facing: unit.facing % 360,
        width,
        depth,
    })
}
