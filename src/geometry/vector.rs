//! Vectors in unrounded hundredths for the sums between grid points, the
//! unit vectors of a facing or bearing, and the one rounding rule.

use crate::geometry::{Hundredths, Point};

/// An angle measured (never stored) by the kernel, in hundredths of a degree,
/// so that thresholds such as Dense Targets' 22.5° compare as integers.
pub type Centidegrees = i64;

/// Hundredths of a degree in a whole turn.
pub const FULL_TURN: Centidegrees = 36_000;

/// Rounds an unrounded length or coordinate to the grid: to the nearest
/// hundredth, halves away from zero (`libm::round`). Every result the kernel
/// hands back goes through this one rule (or [`to_centidegrees`] for angles).
pub fn to_grid(value: f64) -> Hundredths {
    libm::round(value) as Hundredths
}

/// Rounds an angle in degrees to hundredths of a degree, halves away from
/// zero, the same rule as [`to_grid`].
pub fn to_centidegrees(degrees: f64) -> Centidegrees {
    libm::round(degrees * 100.0) as Centidegrees
}

/// A point or direction in unrounded hundredths, for the sums in between.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Vector {
    pub(crate) x: f64,
    pub(crate) y: f64,
}

impl Vector {
    pub(crate) const fn new(x: f64, y: f64) -> Self {
        Vector { x, y }
    }

    pub(crate) fn at(p: Point) -> Self {
        Vector::new(p.x as f64, p.y as f64)
    }

    /// The vector from `a` to `b`.
    pub(crate) fn between(a: Point, b: Point) -> Self {
        Vector::new((b.x - a.x) as f64, (b.y - a.y) as f64)
    }

    pub(crate) fn plus(self, other: Vector) -> Self {
        Vector::new(self.x + other.x, self.y + other.y)
    }

    pub(crate) fn minus(self, other: Vector) -> Self {
        Vector::new(self.x - other.x, self.y - other.y)
    }

    pub(crate) fn scaled(self, by: f64) -> Self {
        Vector::new(self.x * by, self.y * by)
    }

    pub(crate) fn dot(self, other: Vector) -> f64 {
        self.x * other.x + self.y * other.y
    }

    /// The z part of the cross product: positive when `other` lies
    /// anticlockwise of `self`.
    pub(crate) fn cross(self, other: Vector) -> f64 {
        self.x * other.y - self.y * other.x
    }

    /// The length; `f64::sqrt` is correctly rounded by IEEE 754, so it is
    /// the same on every machine.
    pub(crate) fn length(self) -> f64 {
        self.dot(self).sqrt()
    }

    /// The point on the grid nearest to this one, by [`to_grid`].
    pub(crate) fn to_point(self) -> Point {
        Point {
            x: to_grid(self.x),
            y: to_grid(self.y),
        }
    }

    /// This vector turned clockwise by `degrees` (the sense facings turn).
    pub(crate) fn turned(self, degrees: f64) -> Self {
        let (ahead, right) = heading_axes(degrees);
        // In the frame of north = (0, 1), east = (1, 0): y goes ahead, x right.
        right.scaled(self.x).plus(ahead.scaled(self.y))
    }
}

/// The unit vectors pointing along a heading (degrees clockwise from north)
/// and to its right. Multiples of 90 degrees take exact unit vectors, so the
/// common case is exact; other headings use `libm`'s sine and cosine.
pub(crate) fn heading_axes(degrees: f64) -> (Vector, Vector) {
    let degrees = degrees.rem_euclid(360.0);
    let (sin, cos) = if degrees == 0.0 {
        (0.0, 1.0)
    } else if degrees == 90.0 {
        (1.0, 0.0)
    } else if degrees == 180.0 {
        (0.0, -1.0)
    } else if degrees == 270.0 {
        (-1.0, 0.0)
    } else {
        let radians = degrees * core::f64::consts::PI / 180.0;
        (libm::sin(radians), libm::cos(radians))
    };
    // Clockwise from north: heading 0 looks along +y, 90 along +x.
    (Vector::new(sin, cos), Vector::new(cos, -sin))
}

/// The unit vectors pointing ahead and to the right of a facing.
pub(crate) fn axes(facing: u32) -> (Vector, Vector) {
    heading_axes(f64::from(facing % 360))
}

/// The bearing of a direction in degrees clockwise from north, in [0, 360),
/// by `libm::atan2`; `None` for the zero vector.
pub(crate) fn bearing_of(v: Vector) -> Option<f64> {
    if v.x == 0.0 && v.y == 0.0 {
        return None;
    }
    let degrees = libm::atan2(v.x, v.y) * 180.0 / core::f64::consts::PI;
    Some(if degrees < 0.0 {
        degrees + 360.0
    } else {
        degrees
    })
}

/// The bearing from one point to another, clockwise from north, in
/// hundredths of a degree in [0, 36000); `None` when they coincide.
pub fn bearing(from: Point, to: Point) -> Option<Centidegrees> {
    bearing_of(Vector::between(from, to)).map(|d| to_centidegrees(d).rem_euclid(FULL_TURN))
}

/// The difference `a - b` of two angles, wrapped into (-180°, 180°].
pub(crate) fn wrapped(a: Centidegrees, b: Centidegrees) -> Centidegrees {
    let d = (a - b).rem_euclid(FULL_TURN);
    if d > FULL_TURN / 2 { d - FULL_TURN } else { d }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(x: i64, y: i64) -> Point {
        Point { x, y }
    }

    /// Conventions (module docs): halves round away from zero.
    #[test]
    fn the_grid_rounds_halves_away_from_zero() {
        assert_eq!(to_grid(1.5), 2);
        assert_eq!(to_grid(-1.5), -2);
        assert_eq!(to_grid(2.49), 2);
        assert_eq!(to_grid(-0.4), 0);
        assert_eq!(to_centidegrees(22.505), 2251);
    }

    /// Conventions: x east, y north, bearings clockwise from north.
    #[test]
    fn bearings_run_clockwise_from_north() {
        let o = pt(0, 0);
        assert_eq!(bearing(o, pt(0, 100)), Some(0));
        assert_eq!(bearing(o, pt(100, 0)), Some(9000));
        assert_eq!(bearing(o, pt(0, -100)), Some(18000));
        assert_eq!(bearing(o, pt(-100, 0)), Some(27000));
        assert_eq!(bearing(o, pt(100, 100)), Some(4500));
        assert_eq!(bearing(o, pt(-100, 100)), Some(31500));
        assert_eq!(bearing(o, o), None);
    }

    #[test]
    fn turning_is_clockwise() {
        let north = Vector::new(0.0, 100.0);
        assert_eq!(north.turned(90.0), Vector::new(100.0, 0.0));
        assert_eq!(north.turned(180.0), Vector::new(0.0, -100.0));
        assert_eq!(north.turned(-90.0), Vector::new(-100.0, 0.0));
    }

    #[test]
    fn wrapped_differences_stay_within_half_a_turn() {
        assert_eq!(wrapped(100, 35_900), 200);
        assert_eq!(wrapped(35_900, 100), -200);
        assert_eq!(wrapped(18_000, 0), 18_000);
        assert_eq!(wrapped(0, 18_000), 18_000);
    }
}
