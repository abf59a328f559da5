//! The ground a front edge commands: a fan that runs ahead of the edge and
//! widens at either end by an angle turned outward from straight ahead, as a
//! firing-angle template laid at a unit's two front corners marks it; the
//! corridor a line of fire runs along; and whether a line of fire runs
//! through a rectangle from one flank to the other.

use super::convex;
use super::distance::segments_gap;
use super::rect::Rect;
use super::vector::{Centidegrees, Vector, axes};
use crate::geometry::{Hundredths, Point};

/// Slack for a point on a fan's edge, in hundredths of an inch: corners on
/// the grid that lie on an edge by the rules' reckoning may sit a rounding
/// error outside it.
const ON_EDGE: f64 = 1e-6;

/// The fan ahead of a front edge from its left end to its right end: every
/// point ahead of the edge's line and between two rays, one from each end,
/// each turned outward from straight ahead by the splay angle. A splay of 0
/// is the lane straight ahead of the edge; an edge of no width makes a fan
/// from a point.
#[derive(Debug, Clone, Copy)]
pub struct Fan {
    left: Vector,
    right: Vector,
    ahead: Vector,
    /// The directions of the two rays.
    left_ray: Vector,
    right_ray: Vector,
}

impl Fan {
    /// The fan ahead of a rectangle's front edge, each side turned `splay`
    /// (hundredths of a degree, 0 to just under 9000) outward.
    pub fn ahead_of(rect: &Rect, splay: Centidegrees) -> Fan {
        let [left, right, ..] = rect.exact_corners();
        let (ahead, _) = axes(rect.facing);
        let degrees = splay.clamp(0, 8999) as f64 / 100.0;
        Fan {
            left,
            right,
            ahead,
            left_ray: ahead.turned(-degrees),
            right_ray: ahead.turned(degrees),
        }
    }

    /// The three half-planes whose meeting is the fan, each as a point on
    /// its line and a function that is at least zero inside.
    fn sides(&self) -> [(Vector, Side); 3] {
        [
            (self.left, Side::Ahead(self.ahead)),
            (self.left, Side::RightOf(self.left_ray)),
            (self.right, Side::LeftOf(self.right_ray)),
        ]
    }

    fn inside(&self, p: Vector) -> bool {
        self.sides()
            .iter()
            .all(|(origin, side)| side.at(*origin, p) >= -ON_EDGE)
    }

    /// Whether a point lies in the fan, its edges included.
    pub fn contains(&self, p: Point) -> bool {
        self.inside(Vector::at(p))
    }

    /// The part of a convex shape (its corners in order) that lies in the
    /// fan, as the corners of a convex shape; empty when none of it does.
    fn clip(&self, shape: Vec<Vector>) -> Vec<Vector> {
        self.sides().iter().fold(shape, |shape, (origin, side)| {
            clip_by(&shape, *origin, *side)
        })
    }

    /// How far the nearest part of a convex shape that lies in the fan is
    /// from the front edge, unrounded; `None` when no part lies in it.
    fn reach(&self, shape: Vec<Vector>) -> Option<f64> {
        let part = self.clip(shape);
        match part.len() {
            0 => None,
            1 => Some(segment_to_point(self.left, self.right, part[0])),
            n => Some(
                (0..n)
                    .map(|i| segments_gap(self.left, self.right, part[i], part[(i + 1) % n]))
                    .fold(f64::INFINITY, f64::min),
            ),
        }
    }

    /// How far the nearest part of `target` that lies in the fan is from
    /// the front edge, on the grid: the range to what the front commands of
    /// the target. `None` when no part of the target lies in the fan.
    pub fn reach_to(&self, target: &Rect) -> Option<Hundredths> {
        self.reach(target.exact_corners().to_vec())
            .map(super::vector::to_grid)
    }

    /// As [`Fan::reach_to`], for the ground a rectangle sweeps moving
    /// straight (without turning) from `start` to `end`: how near to the
    /// front edge the move came inside the fan.
    pub fn reach_to_move(&self, start: &Rect, end: &Rect) -> Option<Hundredths> {
        let mut corners = start.exact_corners().to_vec();
        corners.extend(end.exact_corners());
        self.reach(convex::hull(&corners))
            .map(super::vector::to_grid)
    }

    /// Whether every part of `target` lies in the fan.
    pub fn holds_all_of(&self, target: &Rect) -> bool {
        target.exact_corners().iter().all(|&c| self.inside(c))
    }
}

/// Which side of a line through a point counts as inside.
#[derive(Debug, Clone, Copy)]
enum Side {
    /// Ahead of a line square to this direction.
    Ahead(Vector),
    /// To the right of a ray in this direction (clockwise of it).
    RightOf(Vector),
    /// To the left of a ray in this direction.
    LeftOf(Vector),
}

impl Side {
    /// At least zero inside, zero on the line, in hundredths.
    fn at(self, origin: Vector, p: Vector) -> f64 {
        let d = p.minus(origin);
        match self {
            Side::Ahead(ahead) => d.dot(ahead),
            Side::RightOf(ray) => -ray.cross(d),
            Side::LeftOf(ray) => ray.cross(d),
        }
    }
}

/// The part of a convex polygon inside one half-plane (Sutherland and
/// Hodgman's clipping, one edge).
fn clip_by(shape: &[Vector], origin: Vector, side: Side) -> Vec<Vector> {
    let n = shape.len();
    let mut out = Vec::with_capacity(n + 1);
    for i in 0..n {
        let (a, b) = (shape[i], shape[(i + 1) % n]);
        let (fa, fb) = (side.at(origin, a), side.at(origin, b));
        let (a_in, b_in) = (fa >= -ON_EDGE, fb >= -ON_EDGE);
        if a_in {
            out.push(a);
        }
        if a_in != b_in && n > 1 {
            let t = fa / (fa - fb);
            out.push(a.plus(b.minus(a).scaled(t)));
        }
    }
    out
}

fn segment_to_point(a: Vector, b: Vector, p: Vector) -> f64 {
    super::distance::segment_gap(p, a, b)
}

/// The corners of a corridor `width` wide running from `from` to `to`,
/// centred on that line: front left, front right (at `from`), then far
/// right, far left.
fn corridor_corners(from: Point, to: Point, width: Hundredths) -> Option<[Vector; 4]> {
    let (a, b) = (Vector::at(from), Vector::at(to));
    let along = b.minus(a);
    let length = along.length();
    if length == 0.0 {
        return None;
    }
    let unit = along.scaled(1.0 / length);
    let half = unit.turned(90.0).scaled(width as f64 / 2.0);
    Some([a.minus(half), a.plus(half), b.plus(half), b.minus(half)])
}

/// Whether a rectangle reaches into the corridor `width` wide from `from`
/// to `to` by more than touching it (units standing in contact with the
/// corridor's edge, or at its ends, are clear of it): the ground a line of
/// fire as wide as the firing front runs over.
pub fn corridor_overlaps(from: Point, to: Point, width: Hundredths, rect: &Rect) -> bool {
    let Some(corners) = corridor_corners(from, to, width.max(0)) else {
        return false;
    };
    convex::overlaps(&corners, &rect.exact_corners())
}

/// Whether the line of fire from `from` through `through`, carried on
/// beyond it, passes through both flank edges of `target`: fire that runs
/// along the target's length from one end to the other.
pub fn passes_through_both_flanks(target: &Rect, from: Point, through: Point) -> bool {
    let (o, t) = (Vector::at(from), Vector::at(through));
    let dir = t.minus(o);
    if dir.length() == 0.0 {
        return false;
    }
    let [fl, fr, rr, rl] = target.exact_corners();
    // Each flank edge is crossed when its two ends lie on either side of
    // the line (or one on it), at or beyond the firer.
    let crosses = |a: Vector, b: Vector| {
        let (sa, sb) = (dir.cross(a.minus(o)), dir.cross(b.minus(o)));
        if sa * sb > 0.0 {
            return false;
        }
        let at = if (sa - sb).abs() < f64::EPSILON {
            a
        } else {
            a.plus(b.minus(a).scaled(sa / (sa - sb)))
        };
        at.minus(o).dot(dir) >= 0.0
    };
    crosses(fr, rr) && crosses(rl, fl)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::testgen::{Gen, pt, rect};

    /// A 4" front facing north at (10", 10"), with a 22 degree fan.
    fn fan() -> Fan {
        Fan::ahead_of(&rect(1000, 1000, 0, 400, 100), 2200)
    }

    #[test]
    fn the_fan_widens_by_its_angle_either_side() {
        let f = fan();
        // tan 22 degrees is 0.404: 10" ahead, the fan reaches 4.04" past
        // either corner.
        assert!(f.contains(pt(1000, 1000)));
        assert!(f.contains(pt(1200 + 403, 2000)));
        assert!(!f.contains(pt(1200 + 405, 2000)));
        assert!(f.contains(pt(800 - 403, 2000)));
        assert!(!f.contains(pt(800 - 405, 2000)));
        // Behind the front, nothing.
        assert!(!f.contains(pt(1000, 999)));
        // Facing east, ahead is +x.
        let east = Fan::ahead_of(&rect(1000, 1000, 90, 400, 100), 2200);
        assert!(east.contains(pt(2000, 1000 - 200 - 403)));
        assert!(!east.contains(pt(2000, 1000 + 200 + 405)));
    }

    #[test]
    fn the_reach_is_to_the_nearest_part_inside_the_fan() {
        let f = fan();
        // A line 6" straight ahead: 6".
        assert_eq!(f.reach_to(&rect(1000, 1600, 180, 400, 100)), Some(600));
        // Off to the right, its near end 3" past the right corner at 4"
        // ahead: that end is outside (4" x 0.404 = 1.62"), and the part
        // inside lies farther on, where the fan has widened to reach it.
        let off = rect(1700, 1400, 180, 400, 400);
        let reach = f.reach_to(&off).expect("partly inside");
        assert!(reach > 700 && reach < 900, "{reach}");
        // Wholly outside to the right.
        assert_eq!(f.reach_to(&rect(2500, 1200, 180, 400, 100)), None);
        // Behind: none.
        assert_eq!(f.reach_to(&rect(1000, 500, 0, 400, 100)), None);
        // In contact with the front: 0.
        assert_eq!(f.reach_to(&rect(1000, 1000, 180, 400, 100)), Some(0));
        assert!(f.holds_all_of(&rect(1000, 1600, 180, 400, 100)));
        assert!(!f.holds_all_of(&off));
    }

    #[test]
    fn a_move_that_crosses_the_fan_is_caught_even_when_it_ends_outside() {
        let f = fan();
        // From the left of the fan to the right of it, its near flank 2.5"
        // ahead.
        let start = rect(-500, 1400, 90, 300, 100);
        let end = rect(2500, 1400, 90, 300, 100);
        assert_eq!(f.reach_to(&start), None);
        assert_eq!(f.reach_to(&end), None);
        assert_eq!(f.reach_to_move(&start, &end), Some(250));
    }

    #[test]
    fn a_point_in_the_fan_is_in_it_whatever_the_shape_around_it() {
        let mut g = Gen::new(21);
        for _ in 0..2000 {
            let r = g.rect();
            let f = Fan::ahead_of(&r, 2200);
            let p = g.point();
            let tiny = rect(p.x, p.y, 0, 0, 0);
            assert_eq!(f.contains(p), f.reach_to(&tiny).is_some(), "{r:?} {p:?}");
        }
    }

    #[test]
    fn a_corridor_is_blocked_by_what_stands_in_it_not_by_what_touches_it() {
        let (from, to) = (pt(1000, 1000), pt(1000, 2000));
        // A unit across the middle.
        assert!(corridor_overlaps(
            from,
            to,
            400,
            &rect(1000, 1500, 0, 200, 50)
        ));
        // Beside it, touching its edge.
        assert!(!corridor_overlaps(
            from,
            to,
            400,
            &rect(1300, 1500, 0, 200, 50)
        ));
        // Beside the firer, in contact with its flank.
        assert!(!corridor_overlaps(
            from,
            to,
            400,
            &rect(1400, 1000, 0, 400, 100)
        ));
        // A narrower corridor misses what a wider one hits.
        assert!(corridor_overlaps(
            from,
            to,
            400,
            &rect(1250, 1500, 0, 200, 50)
        ));
        assert!(!corridor_overlaps(
            from,
            to,
            100,
            &rect(1250, 1500, 0, 200, 50)
        ));
        assert!(!corridor_overlaps(
            from,
            from,
            400,
            &rect(1000, 1000, 0, 200, 50)
        ));
    }

    #[test]
    fn fire_along_a_line_passes_through_both_flanks() {
        // A line 6" wide facing north.
        let line = rect(3000, 1000, 0, 600, 100);
        // From due east, level with it: through both flanks.
        assert!(passes_through_both_flanks(
            &line,
            pt(5000, 950),
            line.centre()
        ));
        // From the front: through front and rear.
        assert!(!passes_through_both_flanks(
            &line,
            pt(3000, 3000),
            line.centre()
        ));
        // From a shallow angle off the right flank, still both flanks.
        assert!(passes_through_both_flanks(
            &line,
            pt(5000, 1100),
            line.centre()
        ));
        // From a steep angle, it leaves by the front.
        assert!(!passes_through_both_flanks(
            &line,
            pt(4000, 2000),
            line.centre()
        ));
    }
}
