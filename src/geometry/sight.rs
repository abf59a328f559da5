//! Line of sight: blocked by lines (a hill's crest) and limited through
//! areas (woods) where "Visibility and range inside [...] is six inches".

use super::polygon::{length_inside_polygon, on_segment};
use super::rect::Rect;
use crate::geometry::{Hundredths, Point};

/// Whether the straight line from `from` to `to` is blocked by any of the
/// given segments: they share a point other than the line's own two ends
/// (an observer standing on a crest line sees past it; a line that grazes
/// the end of a crest is blocked). Exact on the grid. Terrain, Gentle Hill
/// Slopes: "These have no effect on movement but block sighting past their
/// crestlines."
pub fn is_sight_blocked(from: Point, to: Point, blockers: &[(Point, Point)]) -> bool {
    from != to && blockers.iter().any(|&(a, b)| blocks(from, to, a, b))
}

/// Whether the segment `a`-`b` shares with the sight line a point that is
/// neither of its ends.
fn blocks(from: Point, to: Point, a: Point, b: Point) -> bool {
    let inner = |p: Point| p != from && p != to && on_segment(p, from, to);
    let (o1, o2) = (orientation(from, to, a), orientation(from, to, b));
    let (o3, o4) = (orientation(a, b, from), orientation(a, b, to));
    let crossing = o1 * o2 < 0 && o3 * o4 < 0;
    crossing || inner(a) || inner(b) || (o1 == 0 && o2 == 0 && overlap_along(from, to, a, b))
}

/// Whether two segments on one line overlap by more than a point.
fn overlap_along(from: Point, to: Point, a: Point, b: Point) -> bool {
    let d = (i128::from(to.x - from.x), i128::from(to.y - from.y));
    let at = |p: Point| i128::from(p.x - from.x) * d.0 + i128::from(p.y - from.y) * d.1;
    let (lo, hi) = (at(a).min(at(b)), at(a).max(at(b)));
    let end = d.0 * d.0 + d.1 * d.1;
    lo.max(0) < hi.min(end)
}

/// The sign of the turn from `a`-`b` to `a`-`c`.
fn orientation(a: Point, b: Point, c: Point) -> i128 {
    (i128::from(b.x - a.x) * i128::from(c.y - a.y) - i128::from(b.y - a.y) * i128::from(c.x - a.x))
        .signum()
}

/// Whether the line from `from` to `to` is blocked by any crest line (an
/// open chain of points).
pub fn is_sight_blocked_by_lines(from: Point, to: Point, lines: &[Vec<Point>]) -> bool {
    lines.iter().any(|line| {
        let segments: Vec<(Point, Point)> = line.windows(2).map(|w| (w[0], w[1])).collect();
        is_sight_blocked(from, to, &segments)
    })
}

/// Whether the line from `from` to `to` sees through an area such as a
/// wood: it runs no more than `visibility` inside it. Terrain, Light Woods:
/// "Visibility and range inside light woods is six inches. Troops hidden on
/// the edge are seen from the outside at six inches".
pub fn sees_through(from: Point, to: Point, area: &[Point], visibility: Hundredths) -> bool {
    length_inside_polygon(from, to, area) <= visibility
}

/// Whether lines can be drawn from each of the `eyes` to the same two
/// corners of a target rectangle, every line allowed by `clear` (the caller
/// says what blocks one). Charging, Follow-up charges by cavalry: "visible
/// (attacker can draw lines between each of his two front corners and two
/// corners of the target base)".
pub fn sees_two_corners(
    eyes: &[Point],
    target: &Rect,
    clear: impl Fn(Point, Point) -> bool,
) -> bool {
    target
        .corners()
        .iter()
        .filter(|&&c| eyes.iter().all(|&e| clear(e, c)))
        .count()
        >= 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::testgen::{Gen, pt};

    /// Gentle Hill Slopes: "block sighting past their crestlines".
    #[test]
    fn a_crest_between_blocks_sight() {
        let crest = [(pt(0, 1000), pt(2000, 1000))];
        assert!(is_sight_blocked(pt(500, 500), pt(500, 1500), &crest));
        assert!(!is_sight_blocked(pt(500, 500), pt(1500, 900), &crest));
        // Standing on the crest, one sees down both sides.
        assert!(!is_sight_blocked(pt(500, 1000), pt(500, 1500), &crest));
        assert!(!is_sight_blocked(pt(500, 500), pt(500, 1000), &crest));
        // Past the end of the crest: clear; grazing its end: blocked.
        assert!(!is_sight_blocked(pt(2500, 500), pt(2500, 1500), &crest));
        assert!(is_sight_blocked(pt(1500, 500), pt(2500, 1500), &crest));
        // Along the crest itself: blocked.
        assert!(is_sight_blocked(pt(-500, 1000), pt(2500, 1000), &crest));
        let ridge = vec![vec![pt(0, 1000), pt(1000, 1200), pt(2000, 1000)]];
        assert!(is_sight_blocked_by_lines(
            pt(1000, 500),
            pt(1000, 2000),
            &ridge
        ));
        assert!(!is_sight_blocked_by_lines(
            pt(1000, 500),
            pt(3000, 500),
            &ridge
        ));
    }

    /// Light Woods: "Visibility and range inside light woods is six inches."
    #[test]
    fn woods_hide_beyond_their_visibility() {
        let wood = [pt(1000, 0), pt(2000, 0), pt(2000, 1000), pt(1000, 1000)];
        // 6" of woods between: seen. Skimming 10": not.
        assert!(sees_through(pt(0, 500), pt(1600, 500), &wood, 600));
        assert!(!sees_through(pt(0, 500), pt(3000, 500), &wood, 600));
        assert!(sees_through(pt(0, 1500), pt(3000, 1500), &wood, 0));
    }

    #[test]
    fn sight_is_blocked_both_ways() {
        let mut g = Gen::new(14);
        for _ in 0..3000 {
            let (a, b) = (g.point(), g.point());
            let crest = [(g.point(), g.point())];
            assert_eq!(
                is_sight_blocked(a, b, &crest),
                is_sight_blocked(b, a, &crest)
            );
        }
    }

    /// Follow-up charges: lines from both front corners to two corners.
    #[test]
    fn two_corners_seen_from_both_eyes() {
        use crate::geometry::segment_touches_rect;
        use crate::geometry::testgen::rect;
        let eyes = [pt(800, 1000), pt(1200, 1000)];
        let target = rect(1000, 2000, 180, 400, 100);
        assert!(sees_two_corners(&eyes, &target, |_, _| true));
        // A unit between hides the whole target.
        let screen = rect(1000, 1500, 0, 1200, 100);
        let clear = |a: Point, b: Point| !segment_touches_rect(a, b, &screen);
        assert!(!sees_two_corners(&eyes, &target, clear));
        // A post near one corner hides it from one eye only: three corners
        // stay in sight from both.
        let post = rect(1160, 1900, 0, 20, 20);
        let clear = |a: Point, b: Point| !segment_touches_rect(a, b, &post);
        assert!(sees_two_corners(&eyes, &target, clear));
    }
}
