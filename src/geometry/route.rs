//! Routes across the table as lists of points: a point a given fraction of
//! the way between two others, the length of a route, the part of it a
//! piece covers in a given distance (a pursuit following the path a fleeing
//! unit took), where a route leaves the table, and a way round an area that
//! may not be crossed.

use super::polygon::{length_inside_polygon, point_in_polygon};
use super::vector::{Vector, to_grid};
use crate::geometry::{Hundredths, Point};

/// `n / d` rounded to the nearest whole number, halves away from zero, in
/// integers; `d` must be positive.
fn divide_rounded(n: i128, d: i128) -> i64 {
    let q = if n >= 0 {
        (2 * n + d) / (2 * d)
    } else {
        -((-2 * n + d) / (2 * d))
    };
    q as i64
}

/// The point `numerator / denominator` of the way from `a` to `b`, on the
/// grid, in exact integers (halves away from zero): a third of the way is
/// `point_between(a, b, 1, 3)`. A denominator of 0 or less gives `a`.
pub fn point_between(a: Point, b: Point, numerator: i64, denominator: i64) -> Point {
    if denominator <= 0 {
        return a;
    }
    let along = |from: i64, to: i64| {
        from + divide_rounded(
            i128::from(to - from) * i128::from(numerator),
            i128::from(denominator),
        )
    };
    Point {
        x: along(a.x, b.x),
        y: along(a.y, b.y),
    }
}

/// The length of a route through its points, on the grid: the unrounded
/// sum of its legs, rounded once.
pub fn route_length(points: &[Point]) -> Hundredths {
    to_grid(
        points
            .windows(2)
            .map(|w| Vector::between(w[0], w[1]).length())
            .sum(),
    )
}

/// The first `d` of a route: its points up to where `d` runs out, the last
/// one on the grid where it falls within a leg. The whole route when it is
/// no longer than `d`; its first point alone for `d` of 0 or less.
pub fn route_prefix(points: &[Point], d: Hundredths) -> Vec<Point> {
    let Some(&first) = points.first() else {
        return Vec::new();
    };
    let mut out = vec![first];
    let mut left = d as f64;
    for w in points.windows(2) {
        if left <= 0.0 {
            break;
        }
        let leg = Vector::between(w[0], w[1]);
        let len = leg.length();
        if len <= left {
            out.push(w[1]);
            left -= len;
        } else {
            let end = Vector::at(w[0]).plus(leg.scaled(left / len)).to_point();
            if end != w[0] {
                out.push(end);
            }
            break;
        }
    }
    out
}

/// Where the straight line from `a` to `b` leaves a table `width` by
/// `depth` (south-west corner at the origin), on the grid and on the edge;
/// `None` when `b` is on the table (edges included), or when `a` is not.
pub fn table_exit(a: Point, b: Point, width: Hundredths, depth: Hundredths) -> Option<Point> {
    let on = |p: Point| (0..=width).contains(&p.x) && (0..=depth).contains(&p.y);
    if on(b) || !on(a) {
        return None;
    }
    let (va, ab) = (Vector::at(a), Vector::between(a, b));
    // The smallest parameter at which the line reaches an edge it heads for.
    let mut t = 1.0_f64;
    if ab.x > 0.0 {
        t = t.min((width as f64 - va.x) / ab.x);
    } else if ab.x < 0.0 {
        t = t.min(-va.x / ab.x);
    }
    if ab.y > 0.0 {
        t = t.min((depth as f64 - va.y) / ab.y);
    } else if ab.y < 0.0 {
        t = t.min(-va.y / ab.y);
    }
    let p = va.plus(ab.scaled(t.max(0.0))).to_point();
    Some(Point {
        x: p.x.clamp(0, width),
        y: p.y.clamp(0, depth),
    })
}

/// How far along the segment `a`-`b` it first comes into a polygon (its
/// boundary counting as inside), on the grid; `None` when it never does.
/// 0 when `a` is inside.
pub fn entry_along(a: Point, b: Point, polygon: &[Point]) -> Option<Hundredths> {
    if polygon.len() < 3 {
        return None;
    }
    if point_in_polygon(a, polygon) {
        return Some(0);
    }
    if length_inside_polygon(a, b, polygon) == 0 && !point_in_polygon(b, polygon) {
        return None;
    }
    // The length inside is monotone in how much of the segment is taken:
    // the entry is the longest prefix with nothing inside.
    let total = route_length(&[a, b]);
    let at = |d: Hundredths| point_between(a, b, d, total.max(1));
    let (mut clear, mut inside) = (0, total);
    while inside - clear > 1 {
        let mid = (clear + inside) / 2;
        let p = at(mid);
        if length_inside_polygon(a, p, polygon) > 0 || point_in_polygon(p, polygon) {
            inside = mid;
        } else {
            clear = mid;
        }
    }
    Some(inside)
}

/// A way from `a` to `b` that does not pass through a polygon (an area a
/// piece may go round but not through): the straight line when it does not
/// enter it, else the shortest route by one or two of the polygon's corners,
/// each set `clearance` out from the polygon's middle so that a piece
/// `2 × clearance` wide following the route clears the corner; `None` when
/// `a` or `b` is inside, or no such route is found.
pub fn route_around(
    a: Point,
    b: Point,
    polygon: &[Point],
    clearance: Hundredths,
) -> Option<Vec<Point>> {
    let crosses = |p: Point, q: Point| length_inside_polygon(p, q, polygon) > 0;
    if polygon.len() < 3 || !crosses(a, b) {
        return Some(vec![a, b]);
    }
    if point_in_polygon(a, polygon) || point_in_polygon(b, polygon) {
        return None;
    }
    let n = polygon.len() as f64;
    let middle = polygon
        .iter()
        .fold(Vector::new(0.0, 0.0), |s, p| s.plus(Vector::at(*p)))
        .scaled(1.0 / n);
    let corners: Vec<Point> = polygon
        .iter()
        .map(|p| {
            let out = Vector::at(*p).minus(middle);
            let len = out.length();
            if len == 0.0 {
                *p
            } else {
                Vector::at(*p)
                    .plus(out.scaled(clearance.max(1) as f64 / len))
                    .to_point()
            }
        })
        .collect();
    let mut best: Option<(Hundredths, Vec<Point>)> = None;
    let mut offer = |route: Vec<Point>| {
        if route.windows(2).any(|w| crosses(w[0], w[1])) {
            return;
        }
        let len = route_length(&route);
        if best.as_ref().is_none_or(|(l, _)| len < *l) {
            best = Some((len, route));
        }
    };
    for &c in &corners {
        offer(vec![a, c, b]);
    }
    for &c in &corners {
        for &d in &corners {
            if c != d {
                offer(vec![a, c, d, b]);
            }
        }
    }
    best.map(|(_, route)| route)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::testgen::{Gen, pt};

    /// Charging: "move the charged cavalry to meet the charging cavalry
    /// 1/3rd of the way towards the point where the charge began".
    #[test]
    fn a_third_of_the_way_is_exact_in_integers() {
        assert_eq!(point_between(pt(0, 0), pt(900, 300), 1, 3), pt(300, 100));
        assert_eq!(point_between(pt(0, 0), pt(100, -100), 1, 3), pt(33, -33));
        assert_eq!(point_between(pt(0, 0), pt(200, -200), 1, 3), pt(67, -67));
        // Halves round away from zero.
        assert_eq!(point_between(pt(0, 0), pt(3, -3), 1, 2), pt(2, -2));
        assert_eq!(point_between(pt(10, 10), pt(20, 20), 0, 3), pt(10, 10));
        assert_eq!(point_between(pt(10, 10), pt(20, 20), 3, 3), pt(20, 20));
        assert_eq!(point_between(pt(10, 10), pt(20, 20), 1, 0), pt(10, 10));
    }

    /// Cavalry pursuit: "following the path taken by the fleeing unit".
    #[test]
    fn a_route_is_followed_for_a_distance() {
        let route = [pt(0, 0), pt(0, 600), pt(800, 600)];
        assert_eq!(route_length(&route), 1400);
        assert_eq!(route_prefix(&route, 300), vec![pt(0, 0), pt(0, 300)]);
        assert_eq!(route_prefix(&route, 600), vec![pt(0, 0), pt(0, 600)]);
        assert_eq!(
            route_prefix(&route, 1000),
            vec![pt(0, 0), pt(0, 600), pt(400, 600)]
        );
        assert_eq!(route_prefix(&route, 5000), route.to_vec());
        assert_eq!(route_prefix(&route, 0), vec![pt(0, 0)]);
        assert!(route_prefix(&[], 100).is_empty());
    }

    #[test]
    fn prefixes_are_never_longer_than_asked_or_than_the_route() {
        let mut g = Gen::new(21);
        for _ in 0..500 {
            let route: Vec<Point> = (0..4).map(|_| g.point()).collect();
            let d = g.range(0, 12_000);
            let cut = route_prefix(&route, d);
            let len = route_length(&cut);
            assert!(
                len <= d.min(route_length(&route)) + 2,
                "{route:?} {d} {len}"
            );
        }
    }

    /// Cavalry pursuit, Pursuit off the map: "the pursuing cavalry unit
    /// pursues to the point on the edge of the map where the pursued enemies
    /// left".
    #[test]
    fn where_a_line_leaves_the_table() {
        assert_eq!(
            table_exit(pt(1000, 4000), pt(1000, 5000), 7200, 4800),
            Some(pt(1000, 4800))
        );
        assert_eq!(
            table_exit(pt(100, 100), pt(-300, 500), 7200, 4800),
            Some(pt(0, 200))
        );
        // Through a corner.
        assert_eq!(
            table_exit(pt(7000, 4600), pt(7400, 5000), 7200, 4800),
            Some(pt(7200, 4800))
        );
        assert_eq!(table_exit(pt(10, 10), pt(20, 20), 7200, 4800), None);
    }

    /// Pursuit to terrain: "the pursuing cavalry unit is moved into contact
    /// with that area of woods".
    #[test]
    fn where_a_line_first_comes_into_an_area() {
        let wood = [pt(1000, 0), pt(2000, 0), pt(2000, 1000), pt(1000, 1000)];
        assert_eq!(entry_along(pt(0, 500), pt(3000, 500), &wood), Some(1000));
        assert_eq!(entry_along(pt(1500, 500), pt(3000, 500), &wood), Some(0));
        assert_eq!(entry_along(pt(0, 1500), pt(3000, 1500), &wood), None);
        assert_eq!(entry_along(pt(0, 500), pt(1000, 500), &wood), Some(1000));
        assert_eq!(entry_along(pt(0, 500), pt(900, 500), &wood), None);
    }

    /// Charging: "Cavalry cannot charge through a Built-Up Area, but it may
    /// charge around it."
    #[test]
    fn a_way_round_an_area_by_its_corners() {
        let town = [
            pt(1000, 1000),
            pt(2000, 1000),
            pt(2000, 2000),
            pt(1000, 2000),
        ];
        // Clear of the town: straight.
        assert_eq!(
            route_around(pt(0, 0), pt(3000, 0), &town, 100),
            Some(vec![pt(0, 0), pt(3000, 0)])
        );
        // Straight through: round one corner pair, never through it.
        let route = route_around(pt(1500, 0), pt(1500, 3000), &town, 100).expect("a way");
        assert!(route.len() >= 3);
        assert!(
            route
                .windows(2)
                .all(|w| length_inside_polygon(w[0], w[1], &town) == 0)
        );
        assert!(route_length(&route) > 3000);
        // From inside there is no way out round it.
        assert_eq!(
            route_around(pt(1500, 1500), pt(1500, 3000), &town, 100),
            None
        );
    }
}
