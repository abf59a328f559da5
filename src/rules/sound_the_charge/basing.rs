//! Sound the Charge, Stands and Mounting and Formations: the ground a unit
//! covers on the table, from its figures, its stands and its formation.
//!
//! The rules size stands, not formations; docs/RULINGS.md gives the readings
//! taken for the square and the limbered battery, which the text leaves open.

use super::orders::Formation;
use super::tables::Arm;
use crate::geometry::Rect;
use crate::geometry::{Hundredths, Point};
use crate::rules::board::Location;
use crate::rules::sound_the_charge::state::Unit;

/// Lengths in thousandths of an inch: the infantry frontage, 3/8", is not a
/// whole number of hundredths, so a line's width is summed first and rounded
/// to the hundredths grid once at the end.
type Thou = i64;

/// "Mount close-order infantry figures at 3/8" frontage per figure"
const INFANTRY_FRONTAGE: Thou = 375;
/// "cavalry figures at 1/2" per figure"
const CAVALRY_FRONTAGE: Thou = 500;
/// "and guns at 1" per model"
const GUN_FRONTAGE: Thou = 1000;
/// Skirmishers: "deploy them at 3/4" per figure frontage on the game table"
const SKIRMISH_FRONTAGE: Thou = 750;
/// "Infantry stands should be 1/2" deep"
const INFANTRY_DEPTH: Thou = 500;
/// "cavalry stands should be 1" deep"
const CAVALRY_DEPTH: Thou = 1000;
/// "and gun stands should be 1-1/2" deep"
const GUN_DEPTH: Thou = 1500;

/// "Thus a stand of four infantry would be 1-1/2" wide", and a column is "up
/// to four infantry figures [...] wide": one stand.
const INFANTRY_PER_STAND: i64 = 4;
/// "a typical stand of three cavalry figures would be 1-1/2" wide", and a
/// column is up to "three cavalry figures wide": one stand.
const CAVALRY_PER_STAND: i64 = 3;
/// "one gun model plus crew onto each stand"
const GUNS_PER_STAND: i64 = 1;
/// A square shows a face to each of its four sides.
const SQUARE_FACES: i64 = 4;

/// Wider Cavalry Basing: "cavalry mounted at 3/4" frontage per figure
/// instead of 1/2"", in hundredths as [`Unit::figure_frontage`] holds it.
pub const WIDER_CAVALRY_FRONTAGE: Hundredths = 75;

/// How one arm's figures are mounted.
struct Mounting {
    per_stand: i64,
    frontage: Thou,
    depth: Thou,
}

fn mounting(arm: Arm, unit: &Unit) -> Mounting {
    match arm {
        Arm::Infantry => Mounting {
            per_stand: INFANTRY_PER_STAND,
            frontage: INFANTRY_FRONTAGE,
            depth: INFANTRY_DEPTH,
        },
        Arm::Cavalry => Mounting {
            per_stand: CAVALRY_PER_STAND,
            frontage: unit
                .rules
                .figure_frontage
                .map_or(CAVALRY_FRONTAGE, |h| h * 10),
            depth: CAVALRY_DEPTH,
        },
        Arm::Artillery => Mounting {
            per_stand: GUNS_PER_STAND,
            frontage: GUN_FRONTAGE,
            depth: GUN_DEPTH,
        },
    }
}

/// The stands a unit's figures fill, the last one possibly short.
pub fn stands(unit: &Unit) -> i64 {
    let per_stand = mounting(unit.rules.troop_type.arm(), unit).per_stand;
    ceil_div(i64::from(unit.strength), per_stand)
}

/// The rectangle a unit covers, behind its front centre; `None` on a hex
/// map, for a troop type or formation the rules do not name, or for a
/// formation the unit's arm cannot take.
pub fn footprint(unit: &Unit) -> Option<Rect> {
    let Location::Table { x, y } = unit.location else {
        return None;
    };
    let arm = unit.rules.troop_type.arm();
    let m = mounting(arm, unit);
    let figures = i64::from(unit.strength);
    if figures == 0 {
        return None;
    }
    let stands = ceil_div(figures, m.per_stand);
    let (width, depth) = match (counts_as(unit.rules.formation), arm) {
        // "Line: A formation wider than a column." All stands abreast, or
        // in as many ranks as the scenario gives.
        (Formation::Line, Arm::Infantry | Arm::Cavalry) => {
            let ranks = i64::from(unit.rules.ranks).clamp(1, stands);
            let front_stands = ceil_div(stands, ranks);
            let front_figures = figures.min(front_stands * m.per_stand);
            (front_figures * m.frontage, ranks * m.depth)
        }
        // "Column: A formation up to four infantry figures or three cavalry
        // figures wide": one stand wide, the rest behind it.
        (Formation::Column, Arm::Infantry | Arm::Cavalry) => {
            (figures.min(m.per_stand) * m.frontage, stands * m.depth)
        }
        // "Square: A square, facing outward in all directions": a square
        // box whose faces share the stands, a quarter of them each.
        (Formation::Square, Arm::Infantry) => {
            let side = ceil_div(stands, SQUARE_FACES) * m.per_stand * m.frontage;
            (side, side)
        }
        // Skirmishers "deploy [...] at 3/4" per figure frontage", in one
        // rank of their two-figure close-order bases.
        (Formation::Skirmish, Arm::Infantry) => (figures * SKIRMISH_FRONTAGE, m.depth),
        // Unlimbered guns stand abreast, a model to a stand.
        (Formation::Unlimbered, Arm::Artillery) => (figures * m.frontage, m.depth),
        // "limbered guns move at column rate": a column one stand wide.
        (Formation::Limbered, Arm::Artillery) => (m.frontage, stands * m.depth),
        _ => return None,
    };
    Some(Rect {
        front_centre: Point { x, y },
        facing: unit.facing,
        width: to_hundredths(width),
        depth: to_hundredths(depth),
    })
}

/// The formation a formation word stands and counts as (STC-40): a folded
/// line ("L", "U") as the line it is folded from, battalion-masse as the
/// column it is formed from ("Treat it as a normal column for all other
/// purposes"). Every phase must find these units on the table.
pub fn counts_as(formation: Formation) -> Formation {
    match formation {
        Formation::LLeft | Formation::LRight | Formation::U => Formation::Line,
        Formation::Masse => Formation::Column,
        f => f,
    }
}

/// `a / b` rounded up, for counts that are never negative (`i64::div_ceil`
/// is not stable for signed integers).
fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// Rounds a length to the hundredths grid, halves away from zero.
fn to_hundredths(length: Thou) -> Hundredths {
    (length + 5) / 10
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(troop_type: &str, formation: &str, strength: u32) -> Unit {
        let (x, y) = (1000, 2000);
        let mut u = crate::rules::sound_the_charge::turn::fighting::testing::unit(
            "u",
            "s",
            troop_type,
            "C",
            strength,
            formation,
            (x, y),
            90,
        );
        u.name = "U".to_string();
        u.rules.gunners = 0;
        u
    }

    fn size(unit: &Unit) -> (i64, i64) {
        let r = footprint(unit).expect("a footprint");
        (r.width, r.depth)
    }

    #[test]
    fn the_footprint_stands_at_the_front_centre_with_the_units_facing() {
        let r = footprint(&unit("line-infantry", "line", 12)).expect("a footprint");
        assert_eq!(r.front_centre, Point { x: 1000, y: 2000 });
        assert_eq!(r.facing, 90);
    }

    /// "Thus a stand of four infantry would be 1-1/2" wide by 1/2" deep"
    #[test]
    fn a_stand_of_four_infantry() {
        assert_eq!(size(&unit("line-infantry", "line", 4)), (150, 50));
    }

    /// "a typical stand of three cavalry figures would be 1-1/2" wide by 1"
    /// deep"
    #[test]
    fn a_stand_of_three_cavalry() {
        assert_eq!(size(&unit("light-cavalry", "line", 3)), (150, 100));
    }

    /// "a single gun model stand plus crew would be 1" wide by 1-1/2" deep"
    #[test]
    fn a_single_gun_stand() {
        assert_eq!(size(&unit("field-guns", "unlimbered", 1)), (100, 150));
    }

    /// "Mount close-order infantry figures at 3/8" frontage per figure":
    /// twelve figures in line are 4-1/2" wide; eleven are 4-1/8", which is
    /// rounded to the grid.
    #[test]
    fn infantry_line_at_three_eighths_per_figure() {
        assert_eq!(size(&unit("line-infantry", "line", 12)), (450, 50));
        assert_eq!(size(&unit("line-infantry", "line", 11)), (413, 50));
        assert_eq!(size(&unit("line-infantry", "line", 10)), (375, 50));
    }

    /// "cavalry figures at 1/2" per figure", "cavalry stands should be 1"
    /// deep"
    #[test]
    fn cavalry_line_at_one_half_per_figure() {
        assert_eq!(size(&unit("heavy-cavalry", "line", 12)), (600, 100));
    }

    /// A line in two ranks puts half its stands behind the other half; a
    /// short stand goes to the rear rank.
    #[test]
    fn a_line_in_two_ranks() {
        let mut two = unit("line-infantry", "line", 12);
        two.rules.ranks = 2;
        // Three stands: two in front, one behind.
        assert_eq!(size(&two), (300, 100));
        two.strength = 16;
        assert_eq!(size(&two), (300, 100));
        two.strength = 5;
        assert_eq!(size(&two), (150, 100));
    }

    /// "Column: A formation up to four infantry figures or three cavalry
    /// figures wide."
    #[test]
    fn columns_are_one_stand_wide() {
        assert_eq!(size(&unit("line-infantry", "column", 12)), (150, 150));
        assert_eq!(size(&unit("light-infantry", "column", 3)), (113, 50));
        assert_eq!(size(&unit("medium-cavalry", "column", 12)), (150, 400));
    }

    /// "Skirmishing figures occupy double frontage; [...] deploy them at
    /// 3/4" per figure frontage on the game table."
    #[test]
    fn skirmishers_at_three_quarters_per_figure() {
        assert_eq!(size(&unit("light-infantry", "skirmish", 8)), (600, 50));
    }

    /// The square: a box whose four faces share the stands.
    #[test]
    fn squares_share_the_stands_among_four_faces() {
        assert_eq!(size(&unit("line-infantry", "square", 12)), (150, 150));
        assert_eq!(size(&unit("line-infantry", "square", 24)), (300, 300));
    }

    /// "guns at 1" per model", "gun stands should be 1-1/2" deep"; limbered,
    /// a column of gun stands.
    #[test]
    fn batteries_unlimbered_and_limbered() {
        assert_eq!(size(&unit("heavy-guns", "unlimbered", 4)), (400, 150));
        assert_eq!(size(&unit("horse-guns", "limbered", 4)), (100, 600));
    }

    /// Wider Cavalry Basing: "cavalry mounted at 3/4" frontage per figure
    /// instead of 1/2"", and "most cavalry units should be eight figures
    /// strong".
    #[test]
    fn wider_cavalry_basing() {
        let mut line = unit("light-cavalry", "line", 8);
        line.rules.figure_frontage = Some(WIDER_CAVALRY_FRONTAGE);
        assert_eq!(size(&line), (600, 100));
        let mut column = unit("light-cavalry", "column", 8);
        column.rules.figure_frontage = Some(WIDER_CAVALRY_FRONTAGE);
        assert_eq!(size(&column), (225, 300));
    }

    #[test]
    fn no_footprint_on_a_hex_or_for_a_formation_the_arm_cannot_take() {
        let mut hex = unit("line-infantry", "line", 12);
        hex.location = Location::Hex { column: 1, row: 1 };
        assert_eq!(footprint(&hex), None);
        assert_eq!(footprint(&unit("heavy-cavalry", "square", 12)), None);
        assert_eq!(footprint(&unit("field-guns", "column", 4)), None);
        assert_eq!(footprint(&unit("line-infantry", "line", 0)), None);
    }

    #[test]
    fn stands_round_up() {
        assert_eq!(stands(&unit("line-infantry", "line", 12)), 3);
        assert_eq!(stands(&unit("line-infantry", "line", 13)), 4);
        assert_eq!(stands(&unit("heavy-cavalry", "line", 12)), 4);
        assert_eq!(stands(&unit("field-guns", "unlimbered", 6)), 6);
    }
}
