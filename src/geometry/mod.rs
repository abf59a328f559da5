//! Plane geometry on the fixed grid of hundredths of an inch.
//!
//! Positions are stored as integers. Where a rotation is involved the sums
//! are done in `f64` with `libm`'s sine and cosine, never the platform's, so
//! every machine computes the same bits; facings that are a multiple of 90
//! degrees take exact unit vectors, so the common case is exact.

use serde::{Deserialize, Serialize};

use crate::campaign::{Hundredths, Point};

/// How far two footprints may run into each other, or past the table's edge,
/// and still count as touching, in hundredths of an inch. Positions are
/// stored rounded to the hundredth, so two units set up in base contact at
/// an angle can seem to overlap by that much; anything deeper is an overlap.
pub const CONTACT_SLACK: f64 = 1.0;

/// A rectangle on the table: the front centre, the facing in degrees
/// clockwise from north (+y), the frontage (width) and the depth behind the
/// front, all in hundredths of an inch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rect {
    pub front_centre: Point,
    pub facing: u32,
    pub width: i64,
    pub depth: i64,
}

/// A point or direction in unrounded hundredths, for the sums in between.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Vector {
    x: f64,
    y: f64,
}

impl Vector {
    fn dot(self, other: Vector) -> f64 {
        self.x * other.x + self.y * other.y
    }
}

/// The unit vectors pointing ahead and to the right of a facing.
fn axes(facing: u32) -> (Vector, Vector) {
    let (sin, cos) = match facing % 360 {
        0 => (0.0, 1.0),
        90 => (1.0, 0.0),
        180 => (0.0, -1.0),
        270 => (-1.0, 0.0),
        degrees => {
            let radians = f64::from(degrees) * core::f64::consts::PI / 180.0;
            (libm::sin(radians), libm::cos(radians))
        }
    };
    // Clockwise from north: facing 0 looks along +y, 90 along +x.
    (Vector { x: sin, y: cos }, Vector { x: cos, y: -sin })
}

impl Rect {
    /// The corners, unrounded: front left, front right, rear right, rear left.
    fn exact_corners(&self) -> [Vector; 4] {
        let (ahead, right) = axes(self.facing);
        let cx = self.front_centre.x as f64;
        let cy = self.front_centre.y as f64;
        let half = self.width as f64 / 2.0;
        let depth = self.depth as f64;
        let at = |side: f64, back: f64| Vector {
            x: cx + right.x * side - ahead.x * back,
            y: cy + right.y * side - ahead.y * back,
        };
        [
            at(-half, 0.0),
            at(half, 0.0),
            at(half, depth),
            at(-half, depth),
        ]
    }

    /// The corners on the grid (rounded to the nearest hundredth): front
    /// left, front right, rear right, rear left.
    pub fn corners(&self) -> [Point; 4] {
        self.exact_corners().map(|v| Point {
            x: libm::round(v.x) as Hundredths,
            y: libm::round(v.y) as Hundredths,
        })
    }

    /// Whether the two rectangles share more than a touching edge, by the
    /// separating axis test: two convex shapes are apart exactly when their
    /// shadows on one of their edge directions do not overlap. Units in base
    /// contact touch; they do not overlap.
    pub fn overlaps(&self, other: &Rect) -> bool {
        let mine = self.exact_corners();
        let theirs = other.exact_corners();
        let (a1, a2) = axes(self.facing);
        let (b1, b2) = axes(other.facing);
        [a1, a2, b1, b2].into_iter().all(|axis| {
            let (lo_a, hi_a) = shadow(&mine, axis);
            let (lo_b, hi_b) = shadow(&theirs, axis);
            hi_a.min(hi_b) - lo_a.max(lo_b) > CONTACT_SLACK
        })
    }

    /// Whether the whole rectangle lies on a table `width` by `depth` whose
    /// south-west corner is the origin; touching the edge is on the table.
    pub fn is_inside_table(&self, width: Hundredths, depth: Hundredths) -> bool {
        let (w, d) = (width as f64, depth as f64);
        self.exact_corners().iter().all(|c| {
            c.x >= -CONTACT_SLACK
                && c.y >= -CONTACT_SLACK
                && c.x <= w + CONTACT_SLACK
                && c.y <= d + CONTACT_SLACK
        })
    }
}

/// The interval a set of corners covers along an axis.
fn shadow(corners: &[Vector; 4], axis: Vector) -> (f64, f64) {
    corners
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), c| {
            let at = c.dot(axis);
            (lo.min(at), hi.max(at))
        })
}

/// Whether a point lies on a table `width` by `depth`, edges included.
pub fn is_on_table(p: Point, width: Hundredths, depth: Hundredths) -> bool {
    (0..=width).contains(&p.x) && (0..=depth).contains(&p.y)
}

/// Whether a point lies inside a polygon or on its boundary, in exact
/// integer arithmetic (an even-odd count of crossings of a ray running east
/// from the point). A polygon of fewer than three points contains nothing.
pub fn point_in_polygon(p: Point, polygon: &[Point]) -> bool {
    if polygon.len() < 3 {
        return false;
    }
    let mut inside = false;
    for (i, &a) in polygon.iter().enumerate() {
        let b = polygon[(i + 1) % polygon.len()];
        if on_segment(p, a, b) {
            return true;
        }
        // The edge crosses the ray's height once when exactly one end lies
        // above it; counting "above" strictly takes a shared vertex once.
        if (a.y > p.y) != (b.y > p.y) {
            // Is the crossing east of p? p.x < a.x + (p.y-a.y)(b.x-a.x)/(b.y-a.y),
            // multiplied out by (b.y - a.y), whose sign flips the comparison.
            let dy = i128::from(b.y - a.y);
            let lhs = i128::from(p.x - a.x) * dy;
            let rhs = i128::from(p.y - a.y) * i128::from(b.x - a.x);
            if (dy > 0 && lhs < rhs) || (dy < 0 && lhs > rhs) {
                inside = !inside;
            }
        }
    }
    inside
}

/// Whether `p` lies on the segment from `a` to `b`, ends included.
fn on_segment(p: Point, a: Point, b: Point) -> bool {
    let cross = i128::from(b.x - a.x) * i128::from(p.y - a.y)
        - i128::from(b.y - a.y) * i128::from(p.x - a.x);
    cross == 0
        && p.x >= a.x.min(b.x)
        && p.x <= a.x.max(b.x)
        && p.y >= a.y.min(b.y)
        && p.y <= a.y.max(b.y)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(x: i64, y: i64) -> Point {
        Point { x, y }
    }

    fn rect(x: i64, y: i64, facing: u32, width: i64, depth: i64) -> Rect {
        Rect {
            front_centre: pt(x, y),
            facing,
            width,
            depth,
        }
    }

    #[test]
    fn corners_facing_north_lie_behind_the_front() {
        let r = rect(1000, 1000, 0, 300, 50);
        assert_eq!(
            r.corners(),
            [pt(850, 1000), pt(1150, 1000), pt(1150, 950), pt(850, 950)]
        );
    }

    #[test]
    fn corners_turn_clockwise_with_the_facing() {
        // Facing east: the front runs north-south, the depth lies to the west.
        let east = rect(1000, 1000, 90, 300, 50);
        assert_eq!(
            east.corners(),
            [pt(1000, 1150), pt(1000, 850), pt(950, 850), pt(950, 1150)]
        );
        let south = rect(1000, 1000, 180, 300, 50);
        assert_eq!(
            south.corners(),
            [pt(1150, 1000), pt(850, 1000), pt(850, 1050), pt(1150, 1050)]
        );
    }

    #[test]
    fn corners_of_a_diagonal_facing_use_libm_and_round() {
        // Facing 45: ahead is (0.7071, 0.7071), right is (0.7071, -0.7071).
        let r = rect(0, 0, 45, 200, 100);
        assert_eq!(
            r.corners(),
            [pt(-71, 71), pt(71, -71), pt(0, -141), pt(-141, 0)]
        );
    }

    #[test]
    fn rectangles_side_by_side_in_contact_do_not_overlap() {
        let a = rect(1000, 1000, 0, 300, 50);
        let b = rect(1300, 1000, 0, 300, 50);
        assert!(!a.overlaps(&b));
        assert!(!b.overlaps(&a));
    }

    #[test]
    fn rectangles_front_to_front_in_contact_do_not_overlap() {
        let a = rect(1000, 1000, 0, 300, 50);
        let b = rect(1000, 1000, 180, 300, 100);
        assert!(!a.overlaps(&b));
    }

    #[test]
    fn rectangles_sharing_area_overlap() {
        let a = rect(1000, 1000, 0, 300, 50);
        let b = rect(1290, 1000, 0, 300, 50);
        assert!(a.overlaps(&b));
        assert!(b.overlaps(&a));
    }

    #[test]
    fn one_hundredth_of_overlap_is_still_contact() {
        let a = rect(1000, 1000, 0, 300, 50);
        assert!(!a.overlaps(&rect(1299, 1000, 0, 300, 50)));
        assert!(a.overlaps(&rect(1298, 1000, 0, 300, 50)));
    }

    #[test]
    fn separating_axis_of_a_rotated_rectangle_is_found() {
        // A diamond whose rear edge passes just beyond the square's corner:
        // their bounding boxes overlap, and only the diamond's own axis
        // (x + y is at least 109 on it, at most 100 on the square) parts them.
        let square = rect(0, 0, 0, 200, 200);
        let diamond = rect(196, 196, 45, 200, 200);
        assert!(!square.overlaps(&diamond));
        let closer = rect(150, 150, 45, 200, 200);
        assert!(square.overlaps(&closer));
    }

    #[test]
    fn a_rectangle_inside_another_overlaps_it() {
        let big = rect(1000, 1000, 0, 1000, 1000);
        let small = rect(1000, 500, 30, 100, 50);
        assert!(big.overlaps(&small));
        assert!(small.overlaps(&big));
    }

    #[test]
    fn inside_the_table_includes_the_edges() {
        assert!(rect(150, 50, 0, 300, 50).is_inside_table(7200, 4800));
        assert!(rect(7050, 4800, 0, 300, 50).is_inside_table(7200, 4800));
        assert!(!rect(100, 50, 0, 300, 50).is_inside_table(7200, 4800));
        assert!(!rect(3600, 4850, 0, 300, 50).is_inside_table(7200, 4800));
        // Facing south from the north edge puts the depth off the table.
        assert!(!rect(3600, 4800, 180, 300, 50).is_inside_table(7200, 4800));
    }

    #[test]
    fn points_on_the_table() {
        assert!(is_on_table(pt(0, 0), 7200, 4800));
        assert!(is_on_table(pt(7200, 4800), 7200, 4800));
        assert!(!is_on_table(pt(-1, 10), 7200, 4800));
        assert!(!is_on_table(pt(10, 4801), 7200, 4800));
    }

    #[test]
    fn point_in_polygon_inside_outside_and_on_the_edge() {
        let square = [pt(0, 0), pt(100, 0), pt(100, 100), pt(0, 100)];
        assert!(point_in_polygon(pt(50, 50), &square));
        assert!(!point_in_polygon(pt(150, 50), &square));
        assert!(!point_in_polygon(pt(-1, 50), &square));
        assert!(point_in_polygon(pt(100, 50), &square));
        assert!(point_in_polygon(pt(0, 0), &square));
    }

    #[test]
    fn point_in_a_concave_polygon() {
        // A "U": the notch between the arms is outside.
        let u = [
            pt(0, 0),
            pt(300, 0),
            pt(300, 300),
            pt(200, 300),
            pt(200, 100),
            pt(100, 100),
            pt(100, 300),
            pt(0, 300),
        ];
        assert!(point_in_polygon(pt(50, 200), &u));
        assert!(!point_in_polygon(pt(150, 200), &u));
        assert!(point_in_polygon(pt(250, 200), &u));
        // A ray through a vertex counts that vertex once.
        assert!(point_in_polygon(pt(50, 100), &u));
        assert!(!point_in_polygon(pt(150, 150), &u));
    }

    #[test]
    fn a_degenerate_polygon_contains_nothing() {
        assert!(!point_in_polygon(pt(0, 0), &[pt(0, 0), pt(10, 10)]));
    }
}
