//! Generals keep the troops in command: "A unit with no general in CR at
//! the start of the phase moves at half speed", and a unit out of command
//! fights, rallies and tests its morale at 1 worse.

use super::planner::Planner;
use crate::geometry::{self, Point};
use crate::rules::sound_the_charge::field::Field;
use crate::rules::sound_the_charge::turn::movement::{GENERAL_MOVE, coord};

/// A general rides no nearer than this to the middle of his troops: there
/// he has most of them within his 8" radius.
const CLOSE_ENOUGH: i64 = 200;

/// Each general not attached to a unit rides toward the middle of the
/// units he is the nearest general to (18" at most: "Generals move freely
/// at 18" per turn"), so that the side's generals share out its troops.
pub fn ride(p: &mut Planner) {
    let moves: Vec<(String, Point)> = {
        let field = Field::new(&p.seen);
        let free: Vec<(usize, Point)> = p
            .seen
            .generals
            .iter()
            .enumerate()
            .filter(|(_, g)| g.side == p.side && g.lost.is_none() && g.attached_to.is_none())
            .filter_map(|(k, _)| field.general_at(k).map(|at| (k, at)))
            .collect();
        free.iter()
            .filter_map(|&(k, at)| {
                let mine: Vec<Point> = field
                    .friends_of(p.side)
                    .filter_map(|i| field.rect(i).map(|r| r.centre()))
                    .filter(|c| nearest_general(&free, *c) == Some(k))
                    .collect();
                let middle = middle(&mine)?;
                let d = geometry::distance(at, middle);
                if d <= CLOSE_ENOUGH {
                    return None;
                }
                let step = d.min(GENERAL_MOVE);
                let to = Point {
                    x: at.x + (middle.x - at.x) * step / d,
                    y: at.y + (middle.y - at.y) * step / d,
                };
                Some((p.seen.generals[k].id.clone(), to))
            })
            .collect()
    };
    for (id, to) in moves {
        let line = format!("{id}: move to {},{}", coord(to.x), coord(to.y));
        p.try_move(&id, &[line]);
    }
}

/// The general, of those free, nearest to a point.
fn nearest_general(free: &[(usize, Point)], c: Point) -> Option<usize> {
    free.iter()
        .min_by_key(|(k, at)| (geometry::distance(*at, c), *k))
        .map(|(k, _)| *k)
}

/// The mean of points.
fn middle(points: &[Point]) -> Option<Point> {
    let n = i64::try_from(points.len()).ok().filter(|&n| n > 0)?;
    Some(Point {
        x: points.iter().map(|p| p.x).sum::<i64>() / n,
        y: points.iter().map(|p| p.y).sum::<i64>() / n,
    })
}
