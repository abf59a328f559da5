//! Convex shapes given by their unrounded corners: the separating axis test
//! and the convex hull, shared by overlaps and swept moves.

use super::rect::CONTACT_SLACK;
use super::vector::Vector;

/// The interval a set of corners covers along an axis.
fn shadow(corners: &[Vector], axis: Vector) -> (f64, f64) {
    corners
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), c| {
            let at = c.dot(axis);
            (lo.min(at), hi.max(at))
        })
}

/// Whether the shadows of two convex shapes overlap by more than
/// [`CONTACT_SLACK`] on every one of the given unit axes. When the axes
/// include every edge direction of both shapes, this is exactly "the shapes
/// overlap" (the separating axis theorem).
pub(crate) fn overlap_on_all(a: &[Vector], b: &[Vector], unit_axes: &[Vector]) -> bool {
    unit_axes.iter().all(|&axis| {
        let (lo_a, hi_a) = shadow(a, axis);
        let (lo_b, hi_b) = shadow(b, axis);
        hi_a.min(hi_b) - lo_a.max(lo_b) > CONTACT_SLACK
    })
}

/// The unit normals of a convex polygon's edges (skipping edges too short to
/// have a direction).
pub(crate) fn edge_normals(polygon: &[Vector]) -> Vec<Vector> {
    let n = polygon.len();
    (0..n)
        .filter_map(|i| {
            let e = polygon[(i + 1) % n].minus(polygon[i]);
            let len = e.length();
            (len > 1e-9).then(|| Vector::new(-e.y / len, e.x / len))
        })
        .collect()
}

/// Whether two convex polygons overlap by more than touching, by the
/// separating axis test on both polygons' edge normals.
pub(crate) fn overlaps(a: &[Vector], b: &[Vector]) -> bool {
    let mut normals = edge_normals(a);
    normals.extend(edge_normals(b));
    overlap_on_all(a, b, &normals)
}

/// The convex hull of a set of points, anticlockwise, by Andrew's monotone
/// chain (sorting by x then y, a total order on finite values).
pub(crate) fn hull(points: &[Vector]) -> Vec<Vector> {
    let mut pts = points.to_vec();
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let mut lower: Vec<Vector> = Vec::new();
    for &p in &pts {
        push_turning_left(&mut lower, p);
    }
    let mut upper: Vec<Vector> = Vec::new();
    for &p in pts.iter().rev() {
        push_turning_left(&mut upper, p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// Pushes `p` onto a hull chain, first dropping points that would make the
/// chain turn right or run straight.
fn push_turning_left(chain: &mut Vec<Vector>, p: Vector) {
    while chain.len() >= 2 {
        let a = chain[chain.len() - 2];
        let b = chain[chain.len() - 1];
        if b.minus(a).cross(p.minus(a)) > 0.0 {
            break;
        }
        chain.pop();
    }
    chain.push(p);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_of_a_square_and_an_inner_point() {
        let v = |x: f64, y: f64| Vector::new(x, y);
        let h = hull(&[
            v(0.0, 0.0),
            v(10.0, 0.0),
            v(5.0, 5.0),
            v(10.0, 10.0),
            v(0.0, 10.0),
        ]);
        assert_eq!(
            h,
            vec![v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)]
        );
    }

    #[test]
    fn convex_overlap_touching_is_not_overlap() {
        let v = |x: f64, y: f64| Vector::new(x, y);
        let a = [v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)];
        let b = [v(10.0, 0.0), v(20.0, 0.0), v(20.0, 10.0), v(10.0, 10.0)];
        let c = [v(5.0, 5.0), v(20.0, 5.0), v(20.0, 20.0)];
        assert!(!overlaps(&a, &b));
        assert!(overlaps(&a, &c));
    }
}
