//! Lines and areas of terrain: segments crossing, points and units in
//! polygons (woods, town blocks), lines crossed (obstacles, rivers, crests)
//! and the length of a path inside an area. Everything on grid points is
//! exact integer arithmetic; only [`length_inside_polygon`] rounds.

use super::distance::segment_gap;
use super::rect::Rect;
use super::vector::{Vector, to_grid};
use crate::geometry::{Hundredths, Point};

/// The sign of the turn from `a`-`b` to `a`-`c`: 1 anticlockwise, -1
/// clockwise, 0 in line.
fn orientation(a: Point, b: Point, c: Point) -> i32 {
    let cross = i128::from(b.x - a.x) * i128::from(c.y - a.y)
        - i128::from(b.y - a.y) * i128::from(c.x - a.x);
    cross.signum() as i32
}

/// Whether `p` lies on the segment from `a` to `b`, ends included.
pub fn on_segment(p: Point, a: Point, b: Point) -> bool {
    orientation(a, b, p) == 0
        && p.x >= a.x.min(b.x)
        && p.x <= a.x.max(b.x)
        && p.y >= a.y.min(b.y)
        && p.y <= a.y.max(b.y)
}

/// Whether the segments `a`-`b` and `c`-`d` share a point (touching at an
/// end, or lying along each other, counts), exactly.
pub fn segments_intersect(a: Point, b: Point, c: Point, d: Point) -> bool {
    let (o1, o2) = (orientation(a, b, c), orientation(a, b, d));
    let (o3, o4) = (orientation(c, d, a), orientation(c, d, b));
    if o1 * o2 < 0 && o3 * o4 < 0 {
        return true;
    }
    on_segment(c, a, b) || on_segment(d, a, b) || on_segment(a, c, d) || on_segment(b, c, d)
}

/// Whether the segment `a`-`b` meets a polyline (an open chain of points: a
/// wall, a stream, a river bank, a crest line). Terrain, Obstacles:
/// "Obstacles such as fences, low walls, ditches, streams, etc. usually cost
/// double distance [...] for close-order units to cross".
pub fn segment_crosses_polyline(a: Point, b: Point, line: &[Point]) -> bool {
    line.windows(2)
        .any(|w| segments_intersect(a, b, w[0], w[1]))
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

/// The closed edges of a polygon.
fn polygon_edges(polygon: &[Point]) -> impl Iterator<Item = (Point, Point)> + '_ {
    (0..polygon.len()).map(move |i| (polygon[i], polygon[(i + 1) % polygon.len()]))
}

/// Whether a unit's rectangle (its corners on the grid) and a polygon share
/// any ground, boundaries included: a unit partly in woods, or touching a
/// town block. Terrain: "Light woods are disordering terrain."
pub fn rect_intersects_polygon(rect: &Rect, polygon: &[Point]) -> bool {
    if polygon.len() < 3 {
        return false;
    }
    let corners = rect.corners();
    corners.iter().any(|&c| point_in_polygon(c, polygon))
        || polygon.iter().any(|&v| point_in_polygon(v, &corners))
        || rect
            .edges()
            .iter()
            .any(|&(a, b)| polygon_edges(polygon).any(|(c, d)| segments_intersect(a, b, c, d)))
}

/// Whether a point lies inside a polygon and not on its boundary.
fn strictly_inside(p: Point, polygon: &[Point]) -> bool {
    point_in_polygon(p, polygon) && !polygon_edges(polygon).any(|(a, b)| on_segment(p, a, b))
}

/// Whether two polygons share any point: they overlap, or their
/// boundaries meet (two building models set edge to edge).
pub fn polygons_meet(a: &[Point], b: &[Point]) -> bool {
    polygons_overlap(a, b)
        || polygon_edges(a)
            .any(|(p, q)| polygon_edges(b).any(|(r, s)| segments_intersect(p, q, r, s)))
}

/// Whether two polygons share ground, not a boundary alone: an edge of one
/// cuts through an edge of the other, or a corner or the middle of an edge
/// of one lies strictly inside the other, or one lies within the other's
/// bounds. Areas laid one on another (a town
/// on a hill) overlap; areas that only meet along an edge (a hill with a
/// wood behind it) do not.
pub fn polygons_overlap(a: &[Point], b: &[Point]) -> bool {
    if a.len() < 3 || b.len() < 3 {
        return false;
    }
    let crossing = polygon_edges(a)
        .any(|(p, q)| polygon_edges(b).any(|(r, s)| segments_cross_properly(p, q, r, s)));
    let doubled = |poly: &[Point]| -> Vec<Point> {
        poly.iter()
            .map(|p| Point {
                x: 2 * p.x,
                y: 2 * p.y,
            })
            .collect()
    };
    let (a2, b2) = (doubled(a), doubled(b));
    // Corners and edge middles, on a grid doubled so that middles stay on it.
    let marks = |poly: &[Point]| -> Vec<Point> {
        polygon_edges(poly)
            .flat_map(|(p, q)| {
                [
                    Point {
                        x: 2 * p.x,
                        y: 2 * p.y,
                    },
                    Point {
                        x: p.x + q.x,
                        y: p.y + q.y,
                    },
                ]
            })
            .collect()
    };
    // One laid exactly within the other's bounds shares every mark with
    // its boundary or inside.
    crossing
        || marks(a).iter().any(|&m| strictly_inside(m, &b2))
        || marks(b).iter().any(|&m| strictly_inside(m, &a2))
        || marks(a).iter().all(|&m| point_in_polygon(m, &b2))
        || marks(b).iter().all(|&m| point_in_polygon(m, &a2))
}

/// Whether the segments cross at a point inside both (not at an end of
/// either, and not lying along each other).
fn segments_cross_properly(a: Point, b: Point, c: Point, d: Point) -> bool {
    orientation(a, b, c) * orientation(a, b, d) < 0
        && orientation(c, d, a) * orientation(c, d, b) < 0
}

/// Whether a unit's rectangle (its corners on the grid) lies wholly inside a
/// polygon, its boundary counting as inside: a unit in a town block. Every
/// corner must be in, no polygon edge may cut through an edge of the
/// rectangle, and no corner of a concave polygon may poke into it.
pub fn rect_inside_polygon(rect: &Rect, polygon: &[Point]) -> bool {
    let corners = rect.corners();
    corners.iter().all(|&c| point_in_polygon(c, polygon))
        && !rect
            .edges()
            .iter()
            .any(|&(a, b)| polygon_edges(polygon).any(|(c, d)| segments_cross_properly(a, b, c, d)))
        && !polygon.iter().any(|&v| strictly_inside_convex(v, &corners))
        && rect
            .edges()
            .iter()
            .all(|&(a, b)| midpoint_inside(a, b, polygon))
}

/// Whether `p` lies strictly inside a convex polygon given anticlockwise or
/// clockwise.
fn strictly_inside_convex(p: Point, corners: &[Point; 4]) -> bool {
    let turns: Vec<i32> = (0..4)
        .map(|i| orientation(corners[i], corners[(i + 1) % 4], p))
        .collect();
    turns.iter().all(|&t| t > 0) || turns.iter().all(|&t| t < 0)
}

/// Whether the middle of a segment lies inside (or on) a polygon; doubled
/// coordinates keep the middle on a grid.
fn midpoint_inside(a: Point, b: Point, polygon: &[Point]) -> bool {
    let doubled: Vec<Point> = polygon
        .iter()
        .map(|p| Point {
            x: 2 * p.x,
            y: 2 * p.y,
        })
        .collect();
    point_in_polygon(
        Point {
            x: a.x + b.x,
            y: a.y + b.y,
        },
        &doubled,
    )
}

/// The length of the part of the segment `a`-`b` that lies inside a polygon
/// (its boundary counting as inside), on the grid: how far a move runs
/// through woods, or a line of sight through them. The segment is cut where
/// it crosses the polygon's edges; each piece is wholly in or out, and is
/// tested at its middle (a piece running along an edge is in). Terrain:
/// "Close-order infantry moves at half speed" in light woods.
pub fn length_inside_polygon(a: Point, b: Point, polygon: &[Point]) -> Hundredths {
    if polygon.len() < 3 || a == b {
        return 0;
    }
    let (va, vb) = (Vector::at(a), Vector::at(b));
    let ab = vb.minus(va);
    let mut cuts = vec![0.0, 1.0];
    for (c, d) in polygon_edges(polygon) {
        cuts.extend(crossing_parameters(va, ab, Vector::at(c), Vector::at(d)));
    }
    cuts.sort_by(f64::total_cmp);
    cuts.dedup();
    let inside: f64 = cuts
        .windows(2)
        .filter(|w| w[1] > w[0])
        .filter(|w| {
            let mid = va.plus(ab.scaled((w[0] + w[1]) / 2.0));
            piece_inside(mid, polygon)
        })
        .map(|w| w[1] - w[0])
        .sum();
    to_grid(inside * ab.length())
}

/// How far along the segment `a`-`b` its last point inside a polygon lies
/// from `a`, on the grid; `None` when no part of it is inside. Overhead
/// Fire: "If shooting over friends, measure the distance from the gun to
/// the far side of the friend", along the line of fire.
pub fn far_side_along(a: Point, b: Point, polygon: &[Point]) -> Option<Hundredths> {
    if polygon.len() < 3 || a == b {
        return None;
    }
    let (va, vb) = (Vector::at(a), Vector::at(b));
    let ab = vb.minus(va);
    let mut cuts = vec![0.0, 1.0];
    for (c, d) in polygon_edges(polygon) {
        cuts.extend(crossing_parameters(va, ab, Vector::at(c), Vector::at(d)));
    }
    cuts.sort_by(f64::total_cmp);
    cuts.dedup();
    // The last piece inside, searched from the far end.
    cuts.windows(2)
        .rev()
        .find(|w| w[1] > w[0] && piece_inside(va.plus(ab.scaled((w[0] + w[1]) / 2.0)), polygon))
        .map(|w| to_grid(w[1] * ab.length()))
}

/// Where along `a + t·ab` (t in 0..=1) the segment meets the edge `c`-`d`:
/// one parameter for a crossing, the two ends of the shared part for an
/// edge lying along it.
fn crossing_parameters(a: Vector, ab: Vector, c: Vector, d: Vector) -> Vec<f64> {
    let cd = d.minus(c);
    let denom = ab.cross(cd);
    let ac = c.minus(a);
    if denom == 0.0 {
        if ab.cross(ac) != 0.0 {
            return Vec::new();
        }
        let len2 = ab.dot(ab);
        return [c, d]
            .iter()
            .map(|p| p.minus(a).dot(ab) / len2)
            .filter(|t| (0.0..=1.0).contains(t))
            .collect();
    }
    let t = ac.cross(cd) / denom;
    let u = ac.cross(ab) / denom;
    if (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u) {
        vec![t]
    } else {
        Vec::new()
    }
}

/// Whether an unrounded point (the middle of a piece of a segment) lies
/// inside a polygon or on its boundary, by the even-odd rule.
fn piece_inside(p: Vector, polygon: &[Point]) -> bool {
    let n = polygon.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (Vector::at(polygon[i]), Vector::at(polygon[(i + 1) % n]));
        if segment_gap(p, a, b) < 1e-9 {
            return true;
        }
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::testgen::{Gen, pt, rect};

    /// Overhead Fire: the far side of a friend 3" ahead, 1/2" deep, is 3"
    /// from the gun; a line that misses it has none.
    #[test]
    fn far_side_along_the_line_of_fire() {
        let friend = vec![pt(-200, 250), pt(200, 250), pt(200, 300), pt(-200, 300)];
        assert_eq!(far_side_along(pt(0, 0), pt(0, 1000), &friend), Some(300));
        assert_eq!(far_side_along(pt(0, 0), pt(0, 280), &friend), Some(280));
        assert_eq!(far_side_along(pt(500, 0), pt(500, 1000), &friend), None);
    }

    fn square() -> Vec<Point> {
        vec![pt(0, 0), pt(100, 0), pt(100, 100), pt(0, 100)]
    }

    fn u_shape() -> Vec<Point> {
        // A "U": the notch between the arms is outside.
        vec![
            pt(0, 0),
            pt(300, 0),
            pt(300, 300),
            pt(200, 300),
            pt(200, 100),
            pt(100, 100),
            pt(100, 300),
            pt(0, 300),
        ]
    }

    #[test]
    fn point_in_polygon_inside_outside_and_on_the_edge() {
        let square = square();
        assert!(point_in_polygon(pt(50, 50), &square));
        assert!(!point_in_polygon(pt(150, 50), &square));
        assert!(!point_in_polygon(pt(-1, 50), &square));
        assert!(point_in_polygon(pt(100, 50), &square));
        assert!(point_in_polygon(pt(0, 0), &square));
    }

    #[test]
    fn point_in_a_concave_polygon() {
        let u = u_shape();
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

    #[test]
    fn segments_cross_touch_or_miss() {
        assert!(segments_intersect(
            pt(0, 0),
            pt(10, 10),
            pt(0, 10),
            pt(10, 0)
        ));
        assert!(segments_intersect(
            pt(0, 0),
            pt(10, 0),
            pt(10, 0),
            pt(20, 5)
        ));
        assert!(segments_intersect(pt(0, 0), pt(10, 0), pt(5, 0), pt(20, 0)));
        assert!(!segments_intersect(
            pt(0, 0),
            pt(10, 0),
            pt(11, 0),
            pt(20, 0)
        ));
        assert!(!segments_intersect(
            pt(0, 0),
            pt(10, 10),
            pt(1, 0),
            pt(11, 10)
        ));
        let mut g = Gen::new(12);
        for _ in 0..3000 {
            let (a, b, c, d) = (g.point(), g.point(), g.point(), g.point());
            let x = segments_intersect(a, b, c, d);
            assert_eq!(x, segments_intersect(c, d, b, a));
            assert_eq!(x, segments_intersect(b, a, d, c));
        }
    }

    /// Terrain, Obstacles: crossing a wall or stream costs "double distance".
    #[test]
    fn a_move_crossing_a_stream() {
        let stream = [pt(0, 1000), pt(1000, 1200), pt(2000, 1000)];
        assert!(segment_crosses_polyline(
            pt(500, 500),
            pt(500, 1500),
            &stream
        ));
        assert!(!segment_crosses_polyline(
            pt(500, 500),
            pt(1500, 500),
            &stream
        ));
        assert!(!segment_crosses_polyline(
            pt(2500, 500),
            pt(2500, 1500),
            &stream
        ));
        assert!(!segment_crosses_polyline(pt(0, 0), pt(10, 10), &[pt(5, 5)]));
    }

    /// Terrain: a unit in woods or a town block.
    #[test]
    fn units_in_and_partly_in_areas() {
        let block = vec![
            pt(1000, 1000),
            pt(1300, 1000),
            pt(1300, 1500),
            pt(1000, 1500),
        ];
        let inside = rect(1150, 1400, 0, 200, 100);
        assert!(rect_inside_polygon(&inside, &block));
        assert!(rect_intersects_polygon(&inside, &block));
        let partly = rect(1350, 1400, 0, 200, 100);
        assert!(!rect_inside_polygon(&partly, &block));
        assert!(rect_intersects_polygon(&partly, &block));
        let outside = rect(1500, 1400, 0, 200, 100);
        assert!(!rect_intersects_polygon(&outside, &block));
        // The block entirely within a big unit footprint: they intersect.
        let huge = rect(1150, 2000, 0, 2000, 2000);
        assert!(rect_intersects_polygon(&huge, &block));
        assert!(!rect_inside_polygon(&huge, &block));
        // A unit spanning the notch of a "U" has its corners in the arms but
        // is not inside.
        let across = rect(150, 250, 0, 180, 50);
        assert!(!rect_inside_polygon(&across, &u_shape()));
        assert!(rect_intersects_polygon(&across, &u_shape()));
        // Filling the whole block, edges on its edges: inside.
        let filling = rect(1150, 1500, 0, 300, 500);
        assert!(rect_inside_polygon(&filling, &block));
    }

    /// Terrain, woods: "Close-order infantry moves at half speed."
    #[test]
    fn length_of_a_path_inside_woods() {
        let wood = square();
        assert_eq!(length_inside_polygon(pt(-100, 50), pt(200, 50), &wood), 100);
        assert_eq!(length_inside_polygon(pt(50, 50), pt(200, 50), &wood), 50);
        assert_eq!(length_inside_polygon(pt(20, 20), pt(80, 80), &wood), 85);
        assert_eq!(length_inside_polygon(pt(-100, 200), pt(200, 200), &wood), 0);
        // Along an edge counts as inside.
        assert_eq!(length_inside_polygon(pt(-50, 0), pt(150, 0), &wood), 100);
        // Through both arms of a "U", skipping the notch.
        assert_eq!(
            length_inside_polygon(pt(-50, 200), pt(350, 200), &u_shape()),
            200
        );
        // Diagonally through the corner vertex only.
        assert_eq!(length_inside_polygon(pt(90, 110), pt(110, 90), &wood), 0);
    }

    #[test]
    fn length_inside_never_exceeds_the_segment() {
        let mut g = Gen::new(13);
        let u: Vec<Point> = u_shape().iter().map(|p| pt(p.x * 10, p.y * 10)).collect();
        for _ in 0..2000 {
            let (a, b) = (g.point(), g.point());
            let inside = length_inside_polygon(a, b, &u);
            let total = crate::geometry::distance(a, b);
            assert!((0..=total).contains(&inside));
            assert_eq!(inside, length_inside_polygon(b, a, &u));
        }
    }

    #[test]
    fn areas_laid_on_each_other_overlap_and_areas_side_by_side_do_not() {
        let hill = [pt(0, 0), pt(1000, 0), pt(1000, 1000), pt(0, 1000)];
        let town_on_it = [pt(200, 200), pt(400, 200), pt(400, 400), pt(200, 400)];
        let wood_behind = [pt(1000, 0), pt(2000, 0), pt(2000, 1000), pt(1000, 1000)];
        let across = [pt(500, -100), pt(1500, -100), pt(1500, 200), pt(500, 200)];
        let far = [pt(3000, 0), pt(4000, 0), pt(4000, 1000)];
        assert!(polygons_overlap(&hill, &town_on_it));
        assert!(polygons_overlap(&town_on_it, &hill));
        assert!(!polygons_overlap(&hill, &wood_behind));
        assert!(polygons_overlap(&hill, &across));
        assert!(!polygons_overlap(&hill, &far));
        assert!(polygons_overlap(&hill, &hill));
    }
}
