//! Distances on the table: between points, from a point to a segment or to
//! the nearest point of a rectangle, and between rectangles; and the "within"
//! tests the rules ask for.

use super::rect::Rect;
use super::vector::{Vector, axes, to_grid};
use crate::geometry::{Hundredths, Point};

/// The distance between two points, on the grid.
pub fn distance(a: Point, b: Point) -> Hundredths {
    to_grid(Vector::between(a, b).length())
}

/// Whether two points are at most `d` apart, exactly, in integers.
pub fn is_within(a: Point, b: Point, d: Hundredths) -> bool {
    let dx = i128::from(b.x - a.x);
    let dy = i128::from(b.y - a.y);
    d >= 0 && dx * dx + dy * dy <= i128::from(d) * i128::from(d)
}

/// The unrounded point of the segment `a`-`b` nearest to `p`.
pub(crate) fn nearest_on_segment(p: Vector, a: Vector, b: Vector) -> Vector {
    let ab = b.minus(a);
    let len2 = ab.dot(ab);
    if len2 == 0.0 {
        return a;
    }
    let t = (p.minus(a).dot(ab) / len2).clamp(0.0, 1.0);
    a.plus(ab.scaled(t))
}

pub(crate) fn segment_gap(p: Vector, a: Vector, b: Vector) -> f64 {
    p.minus(nearest_on_segment(p, a, b)).length()
}

/// The point of the segment `a`-`b` nearest to `p`, on the grid: where a
/// straight move came closest to a point.
pub fn nearest_point_of_segment(p: Point, a: Point, b: Point) -> Point {
    nearest_on_segment(Vector::at(p), Vector::at(a), Vector::at(b)).to_point()
}

/// The distance from a point to the nearest point of the segment `a`-`b`,
/// on the grid.
pub fn distance_to_segment(p: Point, a: Point, b: Point) -> Hundredths {
    to_grid(segment_gap(Vector::at(p), Vector::at(a), Vector::at(b)))
}

/// The unrounded nearest point of a rectangle (its inside included) to `p`:
/// the point taken into the rectangle's own frame and clamped to it.
pub(crate) fn nearest_in_rect(p: Vector, rect: &Rect) -> Vector {
    let (ahead, right) = axes(rect.facing);
    let front = Vector::at(rect.front_centre);
    let rel = p.minus(front);
    let half = rect.width as f64 / 2.0;
    let side = rel.dot(right).clamp(-half, half);
    let back = (-rel.dot(ahead)).clamp(0.0, rect.depth as f64);
    front.plus(right.scaled(side)).minus(ahead.scaled(back))
}

/// The nearest point of a rectangle to `p`, on the grid; `p` itself (to the
/// grid) when it lies inside. Generals, Command Radius: "measured from the
/// head of the general's figure to the nearest point of the target unit".
pub fn nearest_point_of_rect(p: Point, rect: &Rect) -> Point {
    nearest_in_rect(Vector::at(p), rect).to_point()
}

/// The distance from a point to the nearest point of a rectangle, on the
/// grid; 0 inside it. Generals, Command Radius: "measured from the head of
/// the general's figure to the nearest point of the target unit".
pub fn distance_to_rect(p: Point, rect: &Rect) -> Hundredths {
    let v = Vector::at(p);
    to_grid(v.minus(nearest_in_rect(v, rect)).length())
}

/// Whether the segments `a`-`b` and `c`-`d` meet, unrounded.
pub(crate) fn segments_meet(a: Vector, b: Vector, c: Vector, d: Vector) -> bool {
    let d1 = b.minus(a).cross(c.minus(a));
    let d2 = b.minus(a).cross(d.minus(a));
    let d3 = d.minus(c).cross(a.minus(c));
    let d4 = d.minus(c).cross(b.minus(c));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    // Touching or collinear cases: an end lies on the other segment.
    segment_gap(c, a, b) == 0.0
        || segment_gap(d, a, b) == 0.0
        || segment_gap(a, c, d) == 0.0
        || segment_gap(b, c, d) == 0.0
}

/// The unrounded distance between two segments.
pub(crate) fn segments_gap(a: Vector, b: Vector, c: Vector, d: Vector) -> f64 {
    if segments_meet(a, b, c, d) {
        return 0.0;
    }
    segment_gap(a, c, d)
        .min(segment_gap(b, c, d))
        .min(segment_gap(c, a, b))
        .min(segment_gap(d, a, b))
}

/// The unrounded nearest distance between two rectangles: 0 when they
/// overlap or touch (within [`CONTACT_SLACK`](super::CONTACT_SLACK)), else
/// the least distance between an edge of one and an edge of the other (when
/// they are apart, the nearest points lie on their edges).
pub(crate) fn rect_gap(a: &Rect, b: &Rect) -> f64 {
    if a.overlaps(b) {
        return 0.0;
    }
    let ca = a.exact_corners();
    let cb = b.exact_corners();
    let mut least = f64::INFINITY;
    for i in 0..4 {
        for j in 0..4 {
            let gap = segments_gap(ca[i], ca[(i + 1) % 4], cb[j], cb[(j + 1) % 4]);
            least = least.min(gap);
        }
    }
    least
}

/// The nearest distance between two rectangles, on the grid: 0 when they
/// overlap or touch. Retreat Moves: "a four-inch gap to retreat between
/// unengaged enemy units" is the distance between those two units.
pub fn rect_distance(a: &Rect, b: &Rect) -> Hundredths {
    to_grid(rect_gap(a, b))
}

/// Whether a rectangle comes within `d` of another (the distance between
/// them, on the grid, is at most `d`). Zones of Control: "You may not move a
/// unit within 1" of an enemy unit".
pub fn rect_is_within(a: &Rect, b: &Rect, d: Hundredths) -> bool {
    rect_distance(a, b) <= d
}

/// Whether a point is within `d` of the nearest point of a rectangle.
/// Generals: "A unit within CR of a general acts normally".
pub fn point_is_within_rect(p: Point, rect: &Rect, d: Hundredths) -> bool {
    distance_to_rect(p, rect) <= d
}

/// Whether two rectangles leave a gap of at least `gap` between them.
/// Retreat Moves: "A retreating unit needs a four-inch gap to retreat between
/// unengaged enemy units, or it is eliminated."
pub fn leaves_gap(a: &Rect, b: &Rect, gap: Hundredths) -> bool {
    rect_distance(a, b) >= gap
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::testgen::{Gen, pt, rect};

    #[test]
    fn point_to_point_is_pythagoras_rounded() {
        assert_eq!(distance(pt(0, 0), pt(300, 400)), 500);
        assert_eq!(distance(pt(0, 0), pt(100, 100)), 141);
        assert!(is_within(pt(0, 0), pt(300, 400), 500));
        assert!(!is_within(pt(0, 0), pt(300, 400), 499));
    }

    /// Point to point: symmetric and never negative, and the exact "within"
    /// agrees with the rounded distance but at the half-hundredth boundary.
    #[test]
    fn point_distances_are_symmetric_and_agree_with_within() {
        let mut g = Gen::new(1);
        for _ in 0..5000 {
            let (a, b) = (g.point(), g.point());
            let d = distance(a, b);
            assert_eq!(d, distance(b, a));
            assert!(d >= 0);
            assert!(is_within(a, b, d + 1));
            assert!(!is_within(a, b, d - 1));
        }
    }

    #[test]
    fn the_nearest_point_of_a_segment_is_an_end_or_square_to_it() {
        let (a, b) = (pt(0, 0), pt(1000, 0));
        assert_eq!(nearest_point_of_segment(pt(500, 300), a, b), pt(500, 0));
        assert_eq!(nearest_point_of_segment(pt(-300, 400), a, b), a);
        assert_eq!(nearest_point_of_segment(pt(1300, -400), a, b), b);
        assert_eq!(nearest_point_of_segment(pt(7, 7), a, a), a);
    }

    #[test]
    fn point_to_segment_measures_to_the_ends_or_the_side() {
        let (a, b) = (pt(0, 0), pt(1000, 0));
        assert_eq!(distance_to_segment(pt(500, 300), a, b), 300);
        assert_eq!(distance_to_segment(pt(-300, 400), a, b), 500);
        assert_eq!(distance_to_segment(pt(1300, -400), a, b), 500);
        assert_eq!(distance_to_segment(pt(3, 4), a, a), 5);
    }

    /// Generals, Command Radius: "measured from the head of the general's
    /// figure to the nearest point of the target unit".
    #[test]
    fn command_radius_runs_to_the_nearest_point_of_the_unit() {
        // A line 4-1/2" wide facing north, front centre at (10", 10").
        let unit = rect(1000, 1000, 0, 450, 50);
        // A general 8" due north of the front: in CR.
        assert_eq!(distance_to_rect(pt(1000, 1800), &unit), 800);
        assert!(point_is_within_rect(pt(1000, 1800), &unit, 800));
        // Off the right flank: measured to the front right corner.
        assert_eq!(nearest_point_of_rect(pt(1525, 1100), &unit), pt(1225, 1000));
        assert_eq!(distance_to_rect(pt(1525, 1100), &unit), 316);
        // Behind the unit: to the rear edge.
        assert_eq!(distance_to_rect(pt(1100, 150), &unit), 800);
        // Inside: nothing to measure.
        assert_eq!(distance_to_rect(pt(1000, 975), &unit), 0);
    }

    #[test]
    fn nearest_point_of_a_turned_unit() {
        // Facing east, the body lies to the west of the front.
        let unit = rect(1000, 1000, 90, 400, 100);
        assert_eq!(nearest_point_of_rect(pt(800, 1000), &unit), pt(900, 1000));
        assert_eq!(nearest_point_of_rect(pt(1500, 1500), &unit), pt(1000, 1200));
    }

    /// Zones of Control: "You may not move a unit within 1" of an enemy unit".
    #[test]
    fn zone_of_control_is_one_inch_between_units() {
        let enemy = rect(1000, 1000, 180, 450, 50);
        // Facing it, 1" short of its front.
        let ours = rect(1000, 900, 0, 450, 50);
        assert_eq!(rect_distance(&ours, &enemy), 100);
        assert!(rect_is_within(&ours, &enemy, 100));
        let ours = rect(1000, 899, 0, 450, 50);
        assert!(!rect_is_within(&ours, &enemy, 100));
        // At an angle, corner to edge.
        let slanted = rect(1000, 800, 45, 200, 50);
        let d = rect_distance(&slanted, &enemy);
        assert_eq!(d, 129);
    }

    /// Retreat Moves: "A retreating unit needs a four-inch gap to retreat
    /// between unengaged enemy units".
    #[test]
    fn four_inch_gap_between_enemy_units() {
        let left = rect(1000, 1000, 0, 450, 50);
        let right = rect(1850, 1000, 0, 450, 50);
        assert_eq!(rect_distance(&left, &right), 400);
        assert!(leaves_gap(&left, &right, 400));
        let closer = rect(1849, 1000, 0, 450, 50);
        assert!(!leaves_gap(&left, &closer, 400));
    }

    #[test]
    fn touching_and_overlapping_rectangles_are_zero_apart() {
        let a = rect(1000, 1000, 0, 300, 50);
        assert_eq!(rect_distance(&a, &rect(1300, 1000, 0, 300, 50)), 0);
        assert_eq!(rect_distance(&a, &rect(1200, 1000, 0, 300, 50)), 0);
        assert_eq!(rect_distance(&a, &rect(1000, 1000, 180, 300, 50)), 0);
        assert_eq!(rect_distance(&a, &rect(1301, 1000, 0, 300, 50)), 1);
    }

    /// Rect to rect: symmetric, never negative, 0 exactly when they overlap
    /// or touch, and never more than any corner-to-rectangle distance.
    #[test]
    fn rect_distances_are_symmetric_and_zero_only_in_contact() {
        let mut g = Gen::new(2);
        for _ in 0..3000 {
            let (a, b) = (g.rect(), g.rect());
            let d = rect_gap(&a, &b);
            assert_eq!(d, rect_gap(&b, &a), "{a:?} {b:?}");
            assert!(d >= 0.0);
            if a.overlaps(&b) {
                assert_eq!(d, 0.0);
            } else {
                // Apart or touching: the edges come no nearer than d.
                for c in a.exact_corners() {
                    let to_b = c.minus(nearest_in_rect(c, &b)).length();
                    assert!(d <= to_b + 1e-9, "{a:?} {b:?}");
                }
            }
            if d == 0.0 && !a.overlaps(&b) {
                // Touching: the nearest corners or edges meet.
                assert_eq!(rect_distance(&a, &b), 0);
            }
        }
    }
}
