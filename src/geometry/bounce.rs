//! Artillery Bounce-Through (optional rule): "Take a straight line from the
//! center of the firing battery to the nearest point of the target, then
//! continue it for the bounce-through distances listed below. Any additional
//! targets the line touches (enemy or friendly) are additional targets".

use super::distance::{nearest_in_rect, segments_gap};
use super::rect::Rect;
use super::vector::{Vector, to_grid};
use crate::geometry::{Hundredths, Point};

/// The line of a bounce-through: from the battery's centre to the nearest
/// point of the target, carried on `bounce` beyond it, both ends on the
/// grid; `None` when the battery's centre lies in the target.
pub fn bounce_through_line(
    battery_centre: Point,
    target: &Rect,
    bounce: Hundredths,
) -> Option<(Point, Point)> {
    let from = Vector::at(battery_centre);
    let hit = nearest_in_rect(from, target);
    let run = hit.minus(from);
    let len = run.length();
    if to_grid(len) == 0 {
        return None;
    }
    let end = hit.plus(run.scaled(bounce as f64 / len));
    Some((battery_centre, end.to_point()))
}

/// Whether the segment `a`-`b` touches a rectangle (comes within half a
/// hundredth of it, so touching on the grid counts), or runs inside it.
pub fn segment_touches_rect(a: Point, b: Point, rect: &Rect) -> bool {
    let (va, vb) = (Vector::at(a), Vector::at(b));
    if to_grid(va.minus(nearest_in_rect(va, rect)).length()) == 0 {
        return true;
    }
    let c = rect.exact_corners();
    (0..4).any(|i| to_grid(segments_gap(va, vb, c[i], c[(i + 1) % 4])) == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::testgen::{pt, rect};

    /// Artillery Bounce-Through: "Field Gun: 4 inches".
    #[test]
    fn the_line_carries_on_past_the_nearest_point() {
        let target = rect(1000, 2000, 180, 450, 50);
        let (from, end) = bounce_through_line(pt(1000, 1000), &target, 400).expect("apart");
        assert_eq!((from, end), (pt(1000, 1000), pt(1000, 2400)));
        // A second unit 3" behind the first is touched; one 5" behind is not.
        let behind = rect(1000, 2350, 180, 450, 50);
        assert!(segment_touches_rect(from, end, &behind));
        let far = rect(1000, 2550, 180, 450, 50);
        assert!(!segment_touches_rect(from, end, &far));
        // Off to one side: not touched; grazing a corner: touched.
        assert!(!segment_touches_rect(
            from,
            end,
            &rect(1400, 2300, 180, 450, 50)
        ));
        assert!(segment_touches_rect(
            from,
            end,
            &rect(1225, 2300, 180, 450, 50)
        ));
        assert_eq!(bounce_through_line(pt(1000, 2010), &target, 400), None);
    }
}
