//! A unit's front: where its figures stand along it, the frontage line that
//! decides flank and rear attacks, enfilade onto a flank, and Mutually
//! Protected Flanks.

use super::rect::Rect;
use super::vector::{Centidegrees, Vector, axes, bearing_of, to_centidegrees, to_grid};
use crate::geometry::{Hundredths, Point};

/// The front centre of each of `figures` figures (or stands) spread evenly
/// along the front edge of a rectangle, from the left end to the right, on
/// the grid. A line's width is its figures times their frontage, so this is
/// where each figure of that frontage stands. Shooting: "Measure the range
/// from the front center of each firing figure or model".
pub fn figure_front_centres(rect: &Rect, figures: u32) -> Vec<Point> {
    let (_, right) = axes(rect.facing);
    let front = Vector::at(rect.front_centre);
    let n = f64::from(figures);
    let width = rect.width as f64;
    (0..figures)
        .map(|i| {
            let side = width * (2.0 * f64::from(i) + 1.0 - n) / (2.0 * n);
            front.plus(right.scaled(side)).to_point()
        })
        .collect()
}

/// How far ahead of a unit's frontage line a point lies, on the grid:
/// negative behind it. The frontage line is "a line extended sideways along
/// the front of its front rank" (Flank/rear Attacks).
pub fn distance_ahead_of_frontage_line(target: &Rect, p: Point) -> Hundredths {
    let (ahead, _) = axes(target.facing);
    to_grid(Vector::between(target.front_centre, p).dot(ahead))
}

/// Whether a point lies behind a unit's frontage line (on the line is not
/// behind). Flank/rear Attacks: "To count as a flank or rear attack, the
/// charging must begin the turn with one or more of its figures behind the
/// target unit's frontage line (a line extended sideways along the front of
/// its front rank)."
pub fn is_behind_frontage_line(target: &Rect, p: Point) -> bool {
    distance_ahead_of_frontage_line(target, p) < 0
}

/// Whether any part of a unit (any corner) lies behind another's frontage
/// line. Which of the charger's figures count is the rules' reading; this is
/// the "any part of it" test, and [`is_behind_frontage_line`] takes single
/// figures from [`figure_front_centres`].
pub fn any_part_behind_frontage_line(target: &Rect, unit: &Rect) -> bool {
    unit.corners()
        .iter()
        .any(|&c| is_behind_frontage_line(target, c))
}

/// Dense Targets: "enfiladed at 22.5° onto its flank", in hundredths of a
/// degree.
pub const ENFILADE_ANGLE: Centidegrees = 2250;

/// The angle between a line of fire (from `from` to `to`) and a unit's
/// frontage line, in hundredths of a degree from 0 (fire running along the
/// line, from a flank) to 9000 (fire square to the front or rear); `None`
/// when the two points coincide.
pub fn angle_onto_frontage_line(target: &Rect, from: Point, to: Point) -> Option<Centidegrees> {
    if from == to {
        return None;
    }
    let (ahead, right) = axes(target.facing);
    let fire = Vector::between(from, to);
    // Measured against the line, not along it: the sign of each part drops
    // out, so fire either way along the same line makes the same angle.
    let radians = libm::atan2(fire.dot(ahead).abs(), fire.dot(right).abs());
    Some(to_centidegrees(radians * 180.0 / core::f64::consts::PI))
}

/// Whether a line of fire enfilades a unit: it runs within 22.5° of the
/// unit's frontage line, so it comes in onto a flank. Dense Targets: "A
/// dense target is a unit [...] enfiladed at 22.5° onto its flank". The
/// reading taken: 22.5° or less from the line of the front counts.
pub fn is_enfiladed(target: &Rect, from: Point, to: Point) -> bool {
    angle_onto_frontage_line(target, from, to).is_some_and(|a| a <= ENFILADE_ANGLE)
}

/// Mutually Protected Flanks: "near corners one inch or less apart".
pub const PROTECTED_CORNER_GAP: Hundredths = 100;

/// The nearest pair of front corners of two units (the first of `a`, the
/// second of `b`), the "near corners" of Mutually Protected Flanks, with the
/// far front corner of each.
fn near_and_far_corners(a: &Rect, b: &Rect) -> ([Vector; 2], [Vector; 2]) {
    let ca = a.exact_corners();
    let cb = b.exact_corners();
    let mut best = (0, 0, f64::INFINITY);
    for (i, a) in ca.iter().take(2).enumerate() {
        for (j, b) in cb.iter().take(2).enumerate() {
            let d = a.minus(*b).length();
            if d < best.2 {
                best = (i, j, d);
            }
        }
    }
    let (i, j, _) = best;
    ([ca[i], cb[j]], [ca[1 - i], cb[1 - j]])
}

/// The distance between the near front corners of two units, on the grid.
pub fn near_corner_gap(a: &Rect, b: &Rect) -> Hundredths {
    let ([na, nb], _) = near_and_far_corners(a, b);
    to_grid(na.minus(nb).length())
}

/// The inner angle between two units' fronts, in hundredths of a degree:
/// the angle between the two fronts, each run from its near corner along
/// the front to its far corner. Two units side by side in one line make
/// 180°; an outward-facing right angle makes 90°.
pub fn inner_angle(a: &Rect, b: &Rect) -> Centidegrees {
    let ([na, nb], [fa, fb]) = near_and_far_corners(a, b);
    let along_a = bearing_of(fa.minus(na)).unwrap_or(0.0);
    let along_b = bearing_of(fb.minus(nb)).unwrap_or(0.0);
    let d = to_centidegrees(along_a - along_b).rem_euclid(36_000);
    d.min(36_000 - d)
}

/// Whether each unit faces away from the other: the other's centre lies
/// behind its frontage line.
fn face_outward(a: &Rect, b: &Rect) -> bool {
    is_behind_frontage_line(a, b.centre()) && is_behind_frontage_line(b, a.centre())
}

/// Mutually Protected Flanks: "If two infantry or cavalry units are facing
/// outward with their near corners one inch or less apart, and the inner
/// angle between them is at least 90°, flank/rear charges may not be
/// launched against the inner ends of the two units." Whether the two
/// units are so placed (their troop types are the rules' business).
pub fn are_mutually_protected(a: &Rect, b: &Rect) -> bool {
    near_corner_gap(a, b) <= PROTECTED_CORNER_GAP && inner_angle(a, b) >= 9000 && face_outward(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::testgen::{Gen, pt, rect};

    /// Shooting: "Measure the range from the front center of each firing
    /// figure or model".
    #[test]
    fn figures_stand_evenly_along_the_front() {
        // Twelve infantry at 3/8" make a 4-1/2" line facing north.
        let line = rect(1000, 1000, 0, 450, 50);
        let f = figure_front_centres(&line, 12);
        assert_eq!(f.len(), 12);
        // 18.75 and 56.25 hundredths from the left end: rounded away from 0.
        assert_eq!(f[0], pt(794, 1000));
        assert_eq!(f[1], pt(831, 1000));
        assert_eq!(f[11], pt(1206, 1000));
        // Facing east, left is north.
        let guns = rect(1000, 1000, 90, 300, 150);
        assert_eq!(
            figure_front_centres(&guns, 3),
            vec![pt(1000, 1100), pt(1000, 1000), pt(1000, 900)]
        );
        assert!(figure_front_centres(&guns, 0).is_empty());
    }

    /// Flank/rear Attacks: "one or more of its figures behind the target
    /// unit's frontage line (a line extended sideways along the front of its
    /// front rank)".
    #[test]
    fn the_frontage_line_runs_sideways_along_the_front() {
        let target = rect(1000, 1000, 0, 450, 50);
        // Far out to the side but a hair behind the line: behind.
        assert!(is_behind_frontage_line(&target, pt(3000, 999)));
        // On the line itself: not behind.
        assert!(!is_behind_frontage_line(&target, pt(3000, 1000)));
        assert!(!is_behind_frontage_line(&target, pt(1000, 1500)));
        assert_eq!(distance_ahead_of_frontage_line(&target, pt(0, 700)), -300);
        // A cavalry column off the flank, its rear corners behind the line.
        let charger = rect(1600, 1030, 270, 150, 400);
        assert!(any_part_behind_frontage_line(&target, &charger));
        let in_front = rect(1600, 1300, 180, 150, 100);
        assert!(!any_part_behind_frontage_line(&target, &in_front));
    }

    /// Dense Targets: "enfiladed at 22.5° onto its flank".
    #[test]
    fn enfilade_is_fire_within_twenty_two_and_a_half_degrees_of_the_line() {
        let target = rect(1000, 1000, 0, 450, 50);
        // Fire straight along the line from the right flank.
        assert_eq!(
            angle_onto_frontage_line(&target, pt(2000, 1000), pt(1225, 1000)),
            Some(0)
        );
        assert!(is_enfiladed(&target, pt(2000, 1000), pt(1225, 1000)));
        // Fire square onto the front.
        assert_eq!(
            angle_onto_frontage_line(&target, pt(1000, 2000), pt(1000, 1000)),
            Some(9000)
        );
        assert!(!is_enfiladed(&target, pt(1000, 2000), pt(1000, 1000)));
        // 22.5° exactly: tan 22.5° = 0.41421; (1000, 414.21) rounds to 22.5.
        assert!(is_enfiladed(&target, pt(2225, 1414), pt(1225, 1000)));
        // 30°: not.
        assert!(!is_enfiladed(&target, pt(2225, 1577), pt(1225, 1000)));
        // From the left, and on a turned unit.
        assert!(is_enfiladed(&target, pt(0, 900), pt(775, 1000)));
        let turned = rect(1000, 1000, 90, 450, 50);
        assert!(is_enfiladed(&turned, pt(1000, 3000), pt(1000, 1225)));
    }

    #[test]
    fn the_enfilade_angle_is_the_same_either_way_along_the_line() {
        let mut g = Gen::new(4);
        for _ in 0..2000 {
            let t = g.rect();
            let (a, b) = (g.point(), g.point());
            assert_eq!(
                angle_onto_frontage_line(&t, a, b),
                angle_onto_frontage_line(&t, b, a)
            );
            if let Some(x) = angle_onto_frontage_line(&t, a, b) {
                assert!((0..=9000).contains(&x));
            }
        }
    }

    /// Mutually Protected Flanks: "facing outward with their near corners
    /// one inch or less apart, and the inner angle between them is at least
    /// 90°".
    #[test]
    fn an_outward_right_angle_protects_the_inner_flanks() {
        // One line faces north, its right end at (20", 20"); the other faces
        // east, its left end just below that corner: an outward "L".
        let north = rect(1775, 2000, 0, 450, 50);
        let east = rect(2000, 1775, 90, 450, 50);
        assert_eq!(near_corner_gap(&north, &east), 0);
        assert_eq!(inner_angle(&north, &east), 9000);
        assert!(are_mutually_protected(&north, &east));
        // Side by side in one line: 180°, and each lies behind the other's
        // frontage line, so the reading counts them too (harmlessly: their
        // inner flanks touch, and nothing can charge between them).
        let beside = rect(2225, 2000, 0, 450, 50);
        assert_eq!(inner_angle(&north, &beside), 18_000);
        assert!(are_mutually_protected(&north, &beside));
        // More than an inch apart.
        let far = rect(2000, 1674, 90, 450, 50);
        assert_eq!(near_corner_gap(&north, &far), 101);
        assert!(!are_mutually_protected(&north, &far));
        // A right angle, but the second unit faces in towards the first.
        let inward = rect(2000, 1775, 270, 450, 50);
        assert!(!are_mutually_protected(&north, &inward));
        // Opened out to 120°: still protected. Its front left corner is put
        // on the other unit's front right corner.
        let bent = Rect { facing: 60, ..east };
        let [fl, ..] = bent.corners();
        let bent = Rect {
            front_centre: pt(
                bent.front_centre.x + 2000 - fl.x,
                bent.front_centre.y + 2000 - fl.y,
            ),
            ..bent
        };
        assert!(near_corner_gap(&north, &bent) <= 1);
        assert_eq!(inner_angle(&north, &bent), 12_000);
        assert!(are_mutually_protected(&north, &bent));
    }
}
