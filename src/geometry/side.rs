//! The four sides of a rectangle: which of them a point lies beyond, and
//! where a piece set squarely against one of them stands (a charger moved
//! to contact, a unit turned to face an enemy front to front).

use super::rect::Rect;
use super::vector::{Vector, axes};
use crate::geometry::{Hundredths, Point};

/// A side of a rectangle, seen from inside it as it faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    Front,
    Right,
    Rear,
    Left,
}

impl Side {
    pub const ALL: [Side; 4] = [Side::Front, Side::Right, Side::Rear, Side::Left];

    /// Its word: `front`, `right flank`, `rear`, `left flank`.
    pub fn word(self) -> &'static str {
        match self {
            Side::Front => "front",
            Side::Right => "right flank",
            Side::Rear => "rear",
            Side::Left => "left flank",
        }
    }

    /// The turn, in degrees clockwise, from the rectangle's facing to the
    /// way out through this side.
    fn outward(self) -> u32 {
        match self {
            Side::Front => 0,
            Side::Right => 90,
            Side::Rear => 180,
            Side::Left => 270,
        }
    }
}

/// How far a point lies beyond each side of a rectangle (negative inside),
/// unrounded: front, right, rear, left.
fn beyond(rect: &Rect, p: Point) -> [f64; 4] {
    let (ahead, right) = axes(rect.facing);
    let rel = Vector::between(rect.front_centre, p);
    let (a, r) = (rel.dot(ahead), rel.dot(right));
    let (half, depth) = (rect.width as f64 / 2.0, rect.depth as f64);
    [a, r - half, -a - depth, -r - half]
}

/// The side of a rectangle a point lies farthest beyond: the one a piece
/// coming from there meets. Ties go to the side first in [`Side::ALL`].
pub fn side_towards(rect: &Rect, p: Point) -> Side {
    let by = beyond(rect, p);
    let mut best = 0;
    for i in 1..4 {
        if by[i] > by[best] {
            best = i;
        }
    }
    Side::ALL[best]
}

/// The length of a side.
pub fn side_length(rect: &Rect, side: Side) -> Hundredths {
    match side {
        Side::Front | Side::Rear => rect.width,
        Side::Right | Side::Left => rect.depth,
    }
}

/// The facing of a piece set squarely against `side`, looking into the
/// rectangle.
pub fn facing_onto(rect: &Rect, side: Side) -> u32 {
    (rect.facing + side.outward() + 180) % 360
}

/// The front centre of a piece set squarely against `side` of a rectangle,
/// looking into it (facing [`facing_onto`]), moved `offset` along the side
/// to the piece's own right from the side's middle; on the grid.
pub fn set_against(rect: &Rect, side: Side, offset: Hundredths) -> Point {
    let (ahead, right) = axes(rect.facing);
    let (half, depth) = (rect.width as f64 / 2.0, rect.depth as f64);
    let front = Vector::at(rect.front_centre);
    let middle = match side {
        Side::Front => front,
        Side::Rear => front.minus(ahead.scaled(depth)),
        Side::Right => front
            .plus(right.scaled(half))
            .minus(ahead.scaled(depth / 2.0)),
        Side::Left => front
            .minus(right.scaled(half))
            .minus(ahead.scaled(depth / 2.0)),
    };
    let (_, piece_right) = axes(facing_onto(rect, side));
    middle.plus(piece_right.scaled(offset as f64)).to_point()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::testgen::{Gen, pt, rect};

    #[test]
    fn the_side_a_point_lies_beyond() {
        // Facing north, 4" wide, 1" deep, front edge on y = 1000.
        let r = rect(1000, 1000, 0, 400, 100);
        assert_eq!(side_towards(&r, pt(1000, 2000)), Side::Front);
        assert_eq!(side_towards(&r, pt(2000, 950)), Side::Right);
        assert_eq!(side_towards(&r, pt(1000, 0)), Side::Rear);
        assert_eq!(side_towards(&r, pt(0, 950)), Side::Left);
        // Off a corner, farther ahead than aside: the front.
        assert_eq!(side_towards(&r, pt(1500, 1600)), Side::Front);
        assert_eq!(side_length(&r, Side::Left), 100);
    }

    /// Charging: the charger "is moved to contact": squarely against the
    /// side it meets, looking into the target.
    #[test]
    fn a_piece_set_against_each_side() {
        let r = rect(1000, 1000, 0, 400, 100);
        assert_eq!(
            (
                set_against(&r, Side::Front, 0),
                facing_onto(&r, Side::Front)
            ),
            (pt(1000, 1000), 180)
        );
        assert_eq!(
            (set_against(&r, Side::Rear, 0), facing_onto(&r, Side::Rear)),
            (pt(1000, 900), 0)
        );
        assert_eq!(
            (
                set_against(&r, Side::Right, 0),
                facing_onto(&r, Side::Right)
            ),
            (pt(1200, 950), 270)
        );
        assert_eq!(
            (set_against(&r, Side::Left, 0), facing_onto(&r, Side::Left)),
            (pt(800, 950), 90)
        );
        // Facing south onto the front, its right is to the west.
        assert_eq!(set_against(&r, Side::Front, 150), pt(850, 1000));
    }

    #[test]
    fn a_piece_set_against_a_side_touches_without_overlapping() {
        let mut g = Gen::new(41);
        for _ in 0..500 {
            let target = g.rect();
            let side = Side::ALL[g.range(0, 3) as usize];
            let piece = Rect {
                front_centre: set_against(&target, side, 0),
                facing: facing_onto(&target, side),
                width: g.range(50, 600),
                depth: g.range(50, 300),
            };
            assert!(!piece.overlaps(&target), "{target:?} {piece:?}");
            assert!(crate::geometry::rect_distance(&piece, &target) <= 1);
        }
    }
}
