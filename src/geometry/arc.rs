//! Arcs from a point and the angles between facings: the arc of fire, and
//! the inner angle the Mutually Protected Flanks rule asks for.

use super::rect::Rect;
use super::vector::{Centidegrees, FULL_TURN, Vector, bearing_of, to_centidegrees, wrapped};
use crate::geometry::Point;

/// Shooting: "The arc of fire is 45° to either side", in degrees.
pub const ARC_OF_FIRE: u32 = 45;

/// How far a point lies off a facing as seen from `origin`: the angle
/// between the facing and the line to the point, in hundredths of a degree,
/// signed (negative to the left, positive to the right) in (-18000, 18000];
/// `None` when the point is the origin.
pub fn angle_off_facing(origin: Point, facing: u32, p: Point) -> Option<Centidegrees> {
    let b = bearing_of(Vector::between(origin, p))?;
    Some(wrapped(to_centidegrees(b), i64::from(facing % 360) * 100))
}

/// Whether a point lies within `half_arc` degrees either side of a facing
/// from `origin`, edges included, the angle rounded to hundredths of a
/// degree. The origin itself is in every arc. Shooting: "The arc of fire is
/// 45° to either side", measured "from the front centre of each firing
/// figure".
pub fn is_in_arc(origin: Point, facing: u32, half_arc: u32, p: Point) -> bool {
    angle_off_facing(origin, facing, p).is_none_or(|a| a.abs() <= i64::from(half_arc) * 100)
}

/// The angles (signed off the facing, as [`angle_off_facing`]) of the
/// nearest and farthest sides of a rectangle as seen from `origin`, as an
/// interval that may run past ±180°; `None` when the origin lies inside the
/// rectangle, which then surrounds it.
fn angular_extent(origin: Point, facing: u32, rect: &Rect) -> Option<(Centidegrees, Centidegrees)> {
    if super::distance::distance_to_rect(origin, rect) == 0 {
        return None;
    }
    let o = Vector::at(origin);
    let centre = Vector::at(rect.front_centre);
    let reference = to_centidegrees(bearing_of(centre.minus(o)).unwrap_or(0.0));
    let (mut lo, mut hi) = (Centidegrees::MAX, Centidegrees::MIN);
    for corner in rect.exact_corners() {
        // Relative to the direction of the front centre, each corner lies
        // less than half a turn away, since the origin is outside a convex
        // shape; so the corners' spread needs no unwrapping.
        let b = to_centidegrees(bearing_of(corner.minus(o)).unwrap_or(0.0));
        let d = wrapped(b, reference);
        lo = lo.min(d);
        hi = hi.max(d);
    }
    let base = wrapped(reference, i64::from(facing % 360) * 100);
    Some((base + lo, base + hi))
}

/// Whether some part of a rectangle lies within `half_arc` degrees either
/// side of a facing from `origin` (at any range). Shooting: a target may be
/// shot at when it is in "the arc of fire [...] 45° to either side".
pub fn rect_is_in_arc(origin: Point, facing: u32, half_arc: u32, rect: &Rect) -> bool {
    let Some((lo, hi)) = angular_extent(origin, facing, rect) else {
        return true;
    };
    let half = i64::from(half_arc) * 100;
    [-FULL_TURN, 0, FULL_TURN]
        .into_iter()
        .any(|shift| lo + shift <= half && hi + shift >= -half)
}

/// Whether all of a rectangle lies within `half_arc` degrees either side of
/// a facing from `origin`.
pub fn rect_is_wholly_in_arc(origin: Point, facing: u32, half_arc: u32, rect: &Rect) -> bool {
    let Some((lo, hi)) = angular_extent(origin, facing, rect) else {
        return half_arc >= 180;
    };
    let half = i64::from(half_arc) * 100;
    [-FULL_TURN, 0, FULL_TURN]
        .into_iter()
        .any(|shift| lo + shift >= -half && hi + shift <= half)
}

/// The angle between two facings, in whole degrees from 0 to 180.
pub fn angle_between_facings(a: u32, b: u32) -> u32 {
    let d = (a % 360).abs_diff(b % 360);
    d.min(360 - d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::testgen::{Gen, pt, rect};

    /// Shooting: "The arc of fire is 45° to either side".
    #[test]
    fn the_arc_of_fire_is_forty_five_degrees_either_side() {
        let o = pt(1000, 1000);
        assert!(is_in_arc(o, 0, ARC_OF_FIRE, pt(1000, 1400)));
        assert!(is_in_arc(o, 0, ARC_OF_FIRE, pt(1400, 1400)));
        assert!(is_in_arc(o, 0, ARC_OF_FIRE, pt(600, 1400)));
        assert!(!is_in_arc(o, 0, ARC_OF_FIRE, pt(1401, 1400)));
        assert!(!is_in_arc(o, 0, ARC_OF_FIRE, pt(1000, 600)));
        // Facing east.
        assert!(is_in_arc(o, 90, ARC_OF_FIRE, pt(1400, 700)));
        assert!(!is_in_arc(o, 90, ARC_OF_FIRE, pt(1400, 500)));
        assert_eq!(angle_off_facing(o, 90, pt(1400, 600)), Some(4500));
        assert_eq!(angle_off_facing(o, 0, pt(600, 1400)), Some(-4500));
        assert_eq!(angle_off_facing(o, 350, pt(1000, 1400)), Some(1000));
    }

    /// Shooting: a target partly inside the arc of fire can be shot at.
    #[test]
    fn a_unit_partly_in_the_arc_is_in_it() {
        let o = pt(1000, 1000);
        // An enemy line 6" ahead and off to the right: its left end is in.
        let enemy = rect(1700, 1600, 180, 450, 50);
        assert!(rect_is_in_arc(o, 0, ARC_OF_FIRE, &enemy));
        assert!(!rect_is_wholly_in_arc(o, 0, ARC_OF_FIRE, &enemy));
        // Straight ahead: wholly in.
        let ahead = rect(1000, 1600, 180, 450, 50);
        assert!(rect_is_wholly_in_arc(o, 0, ARC_OF_FIRE, &ahead));
        // Farther right: out.
        let out = rect(2200, 1600, 180, 450, 50);
        assert!(!rect_is_in_arc(o, 0, ARC_OF_FIRE, &out));
        // Behind: out, and a unit straddling the line behind is out too.
        let behind = rect(1000, 400, 0, 450, 50);
        assert!(!rect_is_in_arc(o, 0, ARC_OF_FIRE, &behind));
        // A line across the front passing through the arc, both ends outside.
        let across = rect(1000, 1100, 180, 2000, 50);
        assert!(rect_is_in_arc(o, 0, ARC_OF_FIRE, &across));
        assert!(!rect_is_wholly_in_arc(o, 0, ARC_OF_FIRE, &across));
        // A rectangle around the origin.
        let around = rect(1000, 1100, 0, 400, 400);
        assert!(rect_is_in_arc(o, 0, ARC_OF_FIRE, &around));
    }

    /// The point test agrees with the rectangle test for tiny rectangles,
    /// and a point in the arc is in it on the mirror side as well.
    #[test]
    fn arcs_are_symmetric_about_the_facing() {
        let mut g = Gen::new(3);
        for _ in 0..3000 {
            let o = g.point();
            let p = g.point();
            let facing = (g.range(0, 3) * 90) as u32;
            // Mirror p about the facing line through o (exact for these).
            let m = match facing {
                0 | 180 => pt(2 * o.x - p.x, p.y),
                _ => pt(p.x, 2 * o.y - p.y),
            };
            assert_eq!(is_in_arc(o, facing, 45, p), is_in_arc(o, facing, 45, m));
            let a = angle_off_facing(o, facing, p);
            let b = angle_off_facing(o, facing, m);
            if let (Some(a), Some(b)) = (a, b)
                && a.abs() != 18_000
            {
                assert_eq!(a, -b);
            }
        }
    }

    #[test]
    fn angles_between_facings() {
        assert_eq!(angle_between_facings(0, 90), 90);
        assert_eq!(angle_between_facings(350, 10), 20);
        assert_eq!(angle_between_facings(90, 270), 180);
        assert_eq!(angle_between_facings(45, 45), 0);
        assert_eq!(angle_between_facings(0, 360), 0);
    }
}
