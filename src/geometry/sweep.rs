//! Whether a moving rectangle passes through others: for interpenetration,
//! blocked paths and contact along the way.
//!
//! A straight move is checked exactly: the ground a rectangle sweeps moving
//! in a straight line is the convex hull of its start and end positions, and
//! that hull is tested against each obstacle by the separating axis test.
//! A turn (a wheel or a facing change) is cut into slices in which the
//! outer corner moves at most [`TURN_SLICE`]; each slice is taken as the
//! hull of its two ends, which leaves out at most a sliver of the outer arc
//! `TURN_SLICE² / (8 × radius)` deep: under a quarter of a hundredth for a
//! frontage of half an inch or more, within [`CONTACT_SLACK`](super::CONTACT_SLACK).

use super::convex;
use super::distance::distance;
use super::motion::{FacingChange, Flank, Step, wheel_turn};
use super::rect::Rect;
use super::route::point_between;
use super::vector::Vector;
use crate::geometry::{Hundredths, Point};

/// The farthest the outer corner of a turning unit moves between two
/// checked positions, in hundredths of an inch.
pub const TURN_SLICE: f64 = 10.0;

/// The obstacles (by index, in order) that a convex swept area overlaps.
fn hits(area: &[Vector], obstacles: &[Rect]) -> Vec<usize> {
    obstacles
        .iter()
        .enumerate()
        .filter(|(_, o)| convex::overlaps(area, &o.exact_corners()))
        .map(|(i, _)| i)
        .collect()
}

/// The obstacles a rectangle overlaps at some point of a straight move of
/// its front centre to `to`, facing unchanged, start and end included.
/// Touching is not overlapping. Interpenetration: "Close-order troops may
/// move or charge through a friendly unit at half speed."
pub fn straight_move_hits(start: &Rect, to: Point, obstacles: &[Rect]) -> Vec<usize> {
    let end = Rect {
        front_centre: to,
        ..*start
    };
    let mut corners = start.exact_corners().to_vec();
    corners.extend(end.exact_corners());
    hits(&convex::hull(&corners), obstacles)
}

/// The corners of a rectangle turned clockwise by `degrees` about `pivot`.
fn turned_corners(rect: &Rect, pivot: Vector, degrees: f64) -> Vec<Vector> {
    rect.exact_corners()
        .iter()
        .map(|c| pivot.plus(c.minus(pivot).turned(degrees)))
        .collect()
}

/// The obstacles a rectangle overlaps while turning clockwise by `degrees`
/// about `pivot`, `reach` being the distance of its farthest corner from the
/// pivot.
fn turn_hits(
    rect: &Rect,
    pivot: Vector,
    degrees: f64,
    reach: f64,
    obstacles: &[Rect],
) -> Vec<usize> {
    let arc = reach * degrees.abs() * core::f64::consts::PI / 180.0;
    let slices = libm::ceil(arc / TURN_SLICE).max(1.0) as u32;
    let mut found = Vec::new();
    for k in 0..slices {
        let from = degrees * f64::from(k) / f64::from(slices);
        let to = degrees * f64::from(k + 1) / f64::from(slices);
        let mut corners = turned_corners(rect, pivot, from);
        corners.extend(turned_corners(rect, pivot, to));
        found.extend(hits(&convex::hull(&corners), obstacles));
    }
    found.sort_unstable();
    found.dedup();
    found
}

/// The obstacles a unit overlaps while wheeling about a front corner
/// (forward for positive degrees), as [`wheel`](super::wheel) moves it.
pub fn wheel_hits(rect: &Rect, hinge: Flank, degrees: i32, obstacles: &[Rect]) -> Vec<usize> {
    let [front_left, front_right, rear_right, rear_left] = rect.exact_corners();
    let (pivot, far) = match hinge {
        Flank::Left => (front_left, rear_right),
        Flank::Right => (front_right, rear_left),
    };
    let reach = far.minus(pivot).length();
    let turn = f64::from(wheel_turn(hinge, degrees));
    turn_hits(rect, pivot, turn, reach, obstacles)
}

/// The obstacles a unit overlaps while turning about its front centre.
pub fn facing_change_hits(rect: &Rect, change: FacingChange, obstacles: &[Rect]) -> Vec<usize> {
    let pivot = Vector::at(rect.front_centre);
    let reach = Vector::new(rect.width as f64 / 2.0, rect.depth as f64).length();
    let turn = match change {
        FacingChange::Right => 90.0,
        FacingChange::Left => -90.0,
        FacingChange::About => 180.0,
    };
    turn_hits(rect, pivot, turn, reach, obstacles)
}

/// The obstacles a unit overlaps anywhere along a path of steps from
/// `start`, by index, in order.
pub fn path_hits(start: &Rect, steps: &[Step], obstacles: &[Rect]) -> Vec<usize> {
    let mut found = Vec::new();
    let mut at = *start;
    for &step in steps {
        let next = step.apply(&at);
        found.extend(match step {
            Step::Wheel(hinge, degrees) => wheel_hits(&at, hinge, degrees, obstacles),
            Step::Face(change) => facing_change_hits(&at, change, obstacles),
            _ => straight_move_hits(&at, next.front_centre, obstacles),
        });
        at = next;
    }
    found.sort_unstable();
    found.dedup();
    found
}

/// The obstacles a rectangle overlaps on its way from one footprint to
/// another whose front centre and facing both differ (a charger that turns
/// to meet its target as it closes): the convex hull of the two, which
/// holds every position of a move that turns no more than it goes.
pub fn move_hits(start: &Rect, end: &Rect, obstacles: &[Rect]) -> Vec<usize> {
    let mut corners = start.exact_corners().to_vec();
    corners.extend(end.exact_corners());
    hits(&convex::hull(&corners), obstacles)
}

/// How far a rectangle moving its front centre straight towards `to`,
/// facing unchanged, gets before it would run into one of the obstacles:
/// the first obstacle it meets (the lowest index of those met at the same
/// distance) and the distance moved, in whole hundredths, at which it
/// touches it (the longest clear move, less the hundredth of
/// [`CONTACT_SLACK`](super::CONTACT_SLACK) it may run in); `None` when the whole move is clear. 0 when it overlaps one
/// already.
pub fn first_hit_along(start: &Rect, to: Point, obstacles: &[Rect]) -> Option<(usize, Hundredths)> {
    let length = distance(start.front_centre, to);
    let at = |d: Hundredths| point_between(start.front_centre, to, d, length.max(1));
    let mut first: Option<(usize, Hundredths)> = None;
    for i in straight_move_hits(start, to, obstacles) {
        let one = [obstacles[i]];
        // A prefix of the move that hits stays hit when it is longer, so the
        // touching distance is found by halving.
        let (mut clear, mut hit) = (0, length);
        if !straight_move_hits(start, start.front_centre, &one).is_empty() {
            hit = 0;
        }
        while hit - clear > 1 {
            let mid = (clear + hit) / 2;
            if straight_move_hits(start, at(mid), &one).is_empty() {
                clear = mid;
            } else {
                hit = mid;
            }
        }
        // The longest clear move may run a hundredth into the obstacle
        // (CONTACT_SLACK); a hundredth less touches it without doing so.
        let touching = if hit == 0 { 0 } else { (clear - 1).max(0) };
        if first.is_none_or(|(_, d)| touching < d) {
            first = Some((i, touching));
        }
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::motion::move_forward;
    use crate::geometry::testgen::{Gen, pt, rect};

    /// Interpenetration: a move through a friendly unit passes through it,
    /// even when it ends beyond it.
    #[test]
    fn a_straight_move_through_a_unit_hits_it() {
        let r = rect(1000, 1000, 0, 450, 50);
        let friend = rect(1000, 1300, 0, 450, 50);
        let aside = rect(1600, 1300, 0, 450, 50);
        let hit = straight_move_hits(&r, pt(1000, 1600), &[aside, friend]);
        assert_eq!(hit, vec![1]);
        // Stopping short of it: clear; ending in contact: clear.
        assert!(straight_move_hits(&r, pt(1000, 1200), &[friend]).is_empty());
        assert!(straight_move_hits(&r, pt(1000, 1250), &[friend]).is_empty());
    }

    /// A diagonal move can clip a corner that neither end overlaps.
    #[test]
    fn a_diagonal_move_clips_a_corner_between_its_ends() {
        let r = rect(0, 0, 0, 100, 100);
        let post = rect(300, 300, 0, 100, 100);
        assert!(!r.overlaps(&post));
        assert!(
            !Rect {
                front_centre: pt(600, 600),
                ..r
            }
            .overlaps(&post)
        );
        assert_eq!(straight_move_hits(&r, pt(600, 600), &[post]), vec![0]);
        // Moving past it along a parallel line a little aside: clear.
        assert!(straight_move_hits(&r, pt(0, 600), &[post]).is_empty());
    }

    /// A straight move hits whatever some position along it overlaps.
    #[test]
    fn sampled_positions_agree_with_the_sweep() {
        let mut g = Gen::new(9);
        for _ in 0..400 {
            let r = g.rect();
            let d = g.range(0, 800);
            let o = g.rect();
            let swept = !straight_move_hits(&r, move_forward(&r, d).front_centre, &[o]).is_empty();
            let end = move_forward(&r, d);
            let end_v = Vector::at(end.front_centre);
            let start_v = Vector::at(r.front_centre);
            let sampled = (0..=200).any(|k| {
                let at = start_v.plus(end_v.minus(start_v).scaled(f64::from(k) / 200.0));
                let probe = Rect {
                    front_centre: at.to_point(),
                    ..r
                };
                probe.overlaps(&o)
            });
            // Every sampled overlap is seen by the sweep (rounding aside).
            if sampled {
                assert!(swept, "{r:?} {d} {o:?}");
            }
        }
    }

    /// Wheeling: a wheel can swing the free end into a unit standing to the
    /// side that the start and end positions both miss.
    #[test]
    fn a_wheel_sweeps_its_arc() {
        let r = rect(1000, 1000, 0, 400, 50);
        // Forward on the right corner to face east: the left end passes
        // over the ground ahead of the hinge at a radius of 4".
        let in_the_arc = rect(1000 + 200 - 283, 1000 + 283, 0, 20, 20);
        let end = crate::geometry::motion::wheel(&r, Flank::Right, 90);
        assert!(!r.overlaps(&in_the_arc));
        assert!(!end.overlaps(&in_the_arc));
        assert_eq!(wheel_hits(&r, Flank::Right, 90, &[in_the_arc]), vec![0]);
        // Outside the radius: clear.
        let beyond = rect(1000 + 200 - 320, 1000 + 320, 0, 20, 20);
        assert!(wheel_hits(&r, Flank::Right, 90, &[beyond]).is_empty());
        // Wheeling backward does not reach it.
        assert!(wheel_hits(&r, Flank::Right, -90, &[in_the_arc]).is_empty());
    }

    #[test]
    fn a_path_reports_each_obstacle_once() {
        let r = rect(1000, 1000, 0, 450, 50);
        let friend = rect(1000, 1300, 0, 450, 50);
        let steps = [Step::Forward(400), Step::Backstep(400)];
        assert_eq!(path_hits(&r, &steps, &[friend]), vec![0]);
        assert!(path_hits(&r, &[Step::Face(FacingChange::About)], &[friend]).is_empty());
    }

    /// Cavalry pursuit: pursuing cavalry that meets a unit in its way stops
    /// in contact with it.
    #[test]
    fn the_first_unit_met_and_how_far_the_move_gets() {
        let r = rect(1000, 1000, 0, 400, 100);
        let near = rect(1000, 1600, 0, 400, 100);
        let far = rect(1000, 2600, 0, 400, 100);
        let aside = rect(3000, 1600, 0, 400, 100);
        // The front reaches the near unit's rear edge (at y = 1500) after 5".
        assert_eq!(
            first_hit_along(&r, pt(1000, 3000), &[far, near, aside]),
            Some((1, 500))
        );
        assert_eq!(first_hit_along(&r, pt(1000, 1400), &[near]), None);
        // Already overlapping: it gets nowhere.
        let on = rect(1000, 1050, 0, 400, 100);
        assert_eq!(first_hit_along(&r, pt(1000, 3000), &[on]), Some((0, 0)));
    }

    #[test]
    fn stopping_where_the_first_hit_says_is_clear_and_touching() {
        let mut g = Gen::new(31);
        for _ in 0..300 {
            let (r, to) = (g.rect(), g.point());
            let obstacles: Vec<Rect> = (0..3).map(|_| g.rect()).collect();
            if let Some((i, d)) = first_hit_along(&r, to, &obstacles)
                && d > 0
            {
                let len = distance(r.front_centre, to);
                let stop = point_between(r.front_centre, to, d, len.max(1));
                assert!(straight_move_hits(&r, stop, &obstacles).is_empty());
                let on = point_between(r.front_centre, to, (d + 3).min(len), len.max(1));
                assert!(straight_move_hits(&r, on, &obstacles[i..=i]).len() == 1);
            }
        }
    }

    /// A turning move clears what lies beside both its ends.
    #[test]
    fn a_move_that_turns_hits_what_lies_between() {
        let start = rect(0, 0, 0, 400, 100);
        let end = rect(1000, 1000, 90, 400, 100);
        let between = rect(500, 500, 0, 200, 100);
        let away = rect(-1500, 1500, 0, 200, 100);
        assert_eq!(move_hits(&start, &end, &[away, between]), vec![1]);
    }
}
