//! Retreat Moves: the retreat zone, "centered along a line pointing directly
//! away from the cause of the failure, and spreads outward along a 45° angle
//! to either side of that line, in a cone. The zone is 18 inches long."

use super::distance::nearest_in_rect;
use super::rect::Rect;
use super::vector::Vector;
use crate::geometry::{Hundredths, Point};

/// "The zone is 18 inches long."
pub const RETREAT_ZONE_LENGTH: Hundredths = 1800;

/// A retreat zone: a cone from `apex` (the retreating unit's centre of mass
/// where it stood) along `axis`, an integer vector pointing directly away
/// from the cause, [`RETREAT_ZONE_LENGTH`] long, so that every test on it is
/// exact integer arithmetic. The zone spreads 45° either side of the axis
/// and ends 18" out along it (the reading taken of "18 inches long": the
/// length of its centre line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetreatZone {
    pub apex: Point,
    pub axis: Point,
}

/// The direction directly away from `cause` as seen from `from`, as an
/// integer vector `length` long (rounded to the grid); `None` when the two
/// points coincide.
pub fn direction_away(cause: Point, from: Point, length: Hundredths) -> Option<Point> {
    away(Vector::at(cause), Vector::at(from), length)
}

fn away(cause: Vector, from: Vector, length: Hundredths) -> Option<Point> {
    let v = from.minus(cause);
    let len = v.length();
    (len > 0.0).then(|| v.scaled(length as f64 / len).to_point())
}

impl RetreatZone {
    /// The zone of a unit whose centre of mass is `centre`, retreating from
    /// a point (a general, a firing figure); `None` when they coincide.
    pub fn away_from_point(cause: Point, centre: Point) -> Option<RetreatZone> {
        let axis = direction_away(cause, centre, RETREAT_ZONE_LENGTH)?;
        Some(RetreatZone { apex: centre, axis })
    }

    /// The zone of a unit whose centre of mass is `centre`, retreating from
    /// an enemy unit: directly away from the nearest point of that unit,
    /// which for a unit in front of a long line is square to the line; from
    /// its centre when `centre` lies inside it. `None` when even the centres
    /// coincide.
    pub fn away_from_rect(cause: &Rect, centre: Point) -> Option<RetreatZone> {
        let from = Vector::at(centre);
        let axis = away(nearest_in_rect(from, cause), from, RETREAT_ZONE_LENGTH)
            .or_else(|| direction_away(cause.centre(), centre, RETREAT_ZONE_LENGTH))?;
        Some(RetreatZone { apex: centre, axis })
    }

    /// Whether a point (a retreating unit's centre of mass) lies in the zone,
    /// edges included: no more than 45° off the axis and no farther along it
    /// than 18".
    pub fn contains(&self, p: Point) -> bool {
        let (ax, ay) = (i128::from(self.axis.x), i128::from(self.axis.y));
        let (px, py) = (i128::from(p.x - self.apex.x), i128::from(p.y - self.apex.y));
        let along = px * ax + py * ay;
        let across = (px * ay - py * ax).abs();
        // Along the axis by along/|axis|; off it by across/|axis|: within 45°
        // when across <= along, and within the length when
        // along/|axis| <= length, that is along <= length * |axis|, squared.
        let axis2 = ax * ax + ay * ay;
        let length = i128::from(RETREAT_ZONE_LENGTH);
        along >= 0 && across <= along && along * along <= length * length * axis2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::testgen::{Gen, pt, rect};

    /// Retreat Moves: "centered along a line pointing directly away from the
    /// cause of the failure, and spreads outward along a 45° angle to either
    /// side of that line, in a cone. The zone is 18 inches long."
    #[test]
    fn the_zone_is_a_cone_eighteen_inches_long() {
        let zone = RetreatZone::away_from_point(pt(1000, 2000), pt(1000, 1000)).expect("apart");
        assert_eq!(zone.axis, pt(0, -1800));
        assert!(zone.contains(pt(1000, 1000)));
        assert!(zone.contains(pt(1000, 600)));
        assert!(zone.contains(pt(1400, 600)));
        assert!(zone.contains(pt(600, 600)));
        assert!(!zone.contains(pt(1401, 600)));
        assert!(zone.contains(pt(1000, -800)));
        assert!(!zone.contains(pt(1000, -801)));
        assert!(!zone.contains(pt(1000, 1001)));
    }

    #[test]
    fn directly_away_from_a_unit_is_square_to_its_front() {
        // An enemy line facing south, its front at y 20"; our unit's centre
        // 2" below its right half.
        let enemy = rect(1000, 2000, 180, 900, 50);
        let zone = RetreatZone::away_from_rect(&enemy, pt(1300, 1800)).expect("apart");
        assert_eq!(zone.axis, pt(0, -1800));
        // Off the end of the line: away from its corner.
        let zone = RetreatZone::away_from_rect(&enemy, pt(1650, 1800)).expect("apart");
        assert_eq!(zone.axis, pt(1273, -1273));
        assert_eq!(
            direction_away(pt(0, 0), pt(300, 400), 500),
            Some(pt(300, 400))
        );
        assert_eq!(direction_away(pt(5, 5), pt(5, 5), 500), None);
    }

    /// The cone is symmetric about its axis.
    #[test]
    fn the_zone_is_symmetric_about_its_axis() {
        let mut g = Gen::new(10);
        for _ in 0..3000 {
            let apex = g.point();
            let cause = match g.range(0, 3) {
                0 => pt(apex.x, apex.y + 500),
                1 => pt(apex.x + 500, apex.y),
                2 => pt(apex.x - 300, apex.y - 300),
                _ => pt(apex.x, apex.y - 500),
            };
            let zone = RetreatZone::away_from_point(cause, apex).expect("apart");
            let p = pt(apex.x + g.range(-2000, 2000), apex.y + g.range(-2000, 2000));
            let (dx, dy) = (p.x - apex.x, p.y - apex.y);
            // Reflections about the axis: vertical, horizontal, diagonal.
            let m = match zone.axis {
                Point { x: 0, .. } => pt(apex.x - dx, p.y),
                Point { y: 0, .. } => pt(p.x, apex.y - dy),
                _ => pt(apex.x + dy, apex.y + dx),
            };
            assert_eq!(zone.contains(p), zone.contains(m), "{zone:?} {p:?} {m:?}");
        }
    }
}
