//! The rectangle a unit or stand covers: its corners, edges and centre, and
//! whether two of them overlap or one lies on the table.

use serde::{Deserialize, Serialize};

use super::convex;
use super::vector::{Vector, axes};
use crate::geometry::{Hundredths, Point};

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

impl Rect {
    /// The corners, unrounded: front left, front right, rear right, rear left.
    pub(crate) fn exact_corners(&self) -> [Vector; 4] {
        let (ahead, right) = axes(self.facing);
        let centre = Vector::at(self.front_centre);
        let half = self.width as f64 / 2.0;
        let depth = self.depth as f64;
        let at = |side: f64, back: f64| centre.plus(right.scaled(side)).minus(ahead.scaled(back));
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
        self.exact_corners().map(Vector::to_point)
    }

    /// The four edges on the grid, each from one corner to the next: front,
    /// right flank, rear, left flank.
    pub fn edges(&self) -> [(Point, Point); 4] {
        let c = self.corners();
        [(c[0], c[1]), (c[1], c[2]), (c[2], c[3]), (c[3], c[0])]
    }

    /// The centre of the rectangle (its centre of mass, for Retreat Moves:
    /// "as long as its center of mass remains within the defined 'retreat
    /// zone'"), on the grid.
    pub fn centre(&self) -> Point {
        let (ahead, _) = axes(self.facing);
        Vector::at(self.front_centre)
            .minus(ahead.scaled(self.depth as f64 / 2.0))
            .to_point()
    }

    /// Whether the two rectangles share more than a touching edge, by the
    /// separating axis test: two convex shapes are apart exactly when their
    /// shadows on one of their edge directions do not overlap. Units in base
    /// contact touch; they do not overlap.
    pub fn overlaps(&self, other: &Rect) -> bool {
        let (a1, a2) = axes(self.facing);
        let (b1, b2) = axes(other.facing);
        convex::overlap_on_all(
            &self.exact_corners(),
            &other.exact_corners(),
            &[a1, a2, b1, b2],
        )
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

#[cfg(test)]
mod tests {
    use crate::geometry::testgen::{Gen, pt, rect};

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
    fn edges_run_front_right_rear_left() {
        let r = rect(1000, 1000, 0, 300, 50);
        let [front, right, rear, left] = r.edges();
        assert_eq!(front, (pt(850, 1000), pt(1150, 1000)));
        assert_eq!(right, (pt(1150, 1000), pt(1150, 950)));
        assert_eq!(rear, (pt(1150, 950), pt(850, 950)));
        assert_eq!(left, (pt(850, 950), pt(850, 1000)));
    }

    /// Retreat Moves: "its center of mass".
    #[test]
    fn the_centre_lies_half_the_depth_behind_the_front() {
        assert_eq!(rect(1000, 1000, 0, 300, 50).centre(), pt(1000, 975));
        assert_eq!(rect(1000, 1000, 90, 300, 100).centre(), pt(950, 1000));
        // Half of an odd depth rounds away from zero.
        assert_eq!(rect(0, 0, 0, 300, 1).centre(), pt(0, -1));
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
    fn overlap_is_symmetric() {
        let mut g = Gen::new(11);
        for _ in 0..2000 {
            let (a, b) = (g.rect(), g.rect());
            assert_eq!(a.overlaps(&b), b.overlaps(&a), "{a:?} {b:?}");
        }
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
}
