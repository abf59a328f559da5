//! Finding the way forward: a player measures a few ways toward the enemy
//! (straight at it, or bearing off to pass a wood or a friend) and takes
//! the one that brings the unit nearest where it should stand. Each way
//! is costed by the movement phase's own path planner, ground, friends and
//! zones of control included, on the side's view of the table.

use crate::geometry::{
    Flank, Hundredths, Rect, Step, bearing, distance_to_rect, rect_distance, wheel_angle_for,
};
use crate::rules::sound_the_charge::field::Field;
use crate::rules::sound_the_charge::orders::Formation;
use crate::rules::sound_the_charge::tables::Grade;
use crate::rules::sound_the_charge::turn::fighting::steady;
use crate::rules::sound_the_charge::turn::movement::{PathRules, coord, plan_path};

/// The bearings tried, off the line to the objective, in degrees: straight
/// at it first, then bearing off further and further to either side.
const BEARINGS_OFF: [i64; 5] = [0, 25, -25, 60, -60];

/// A way found: the steps as an order writes them, the friends it passes
/// through, and how near it leaves the unit to where it should stand.
pub struct Way {
    pub steps: String,
    pub through: Vec<String>,
    /// How far its front centre would stand from where it should, and
    /// that with the price of disorder and of passing friends.
    gap: Hundredths,
    miss: Hundredths,
}

impl Way {
    /// The order line for unit `id`.
    pub fn line(&self, id: &str) -> String {
        if self.through.is_empty() {
            format!("{id}: {}", self.steps)
        } else {
            format!(
                "{id}: {} through {}",
                self.steps,
                self.through.join(" and ")
            )
        }
    }
}

/// The ways for unit `i`, with its move `allowance`, toward standing
/// `short` of `goal`, best first; only those that bring its front nearer
/// than it stands (a wheel alone swings a wide unit's flank forward and
/// gains nothing). Ground that would disorder the unit counts as 3" further off,
/// and passing through friends ("at half speed") as 2".
pub fn ways_toward(
    field: &Field,
    i: usize,
    allowance: Hundredths,
    goal: &Rect,
    short: Hundredths,
) -> Vec<Way> {
    let Some(start) = field.rect(i) else {
        return Vec::new();
    };
    let u = field.unit(i);
    let now = (distance_to_rect(start.front_centre, goal) - short).abs();
    let Some(to_goal) = bearing(start.front_centre, goal.centre()) else {
        return Vec::new();
    };
    // "The wheeling rate is at half speed if the unit is Grade D or
    // unsteady."
    let rate = if !steady(u) || u.rules.grade == Grade::D {
        2
    } else {
        1
    };
    let most_wheel = i64::from(wheel_angle_for(start.width, allowance / rate));
    let friends: Vec<usize> = field
        .friends_of(&u.side)
        .filter(|&j| j != i && field.unit(j).rules.formation != Formation::Skirmish)
        .collect();
    let mut found: Vec<Way> = Vec::new();
    for off in BEARINGS_OFF {
        let heading = to_goal / 100 + off;
        let turn = wrapped_degrees(heading - i64::from(start.facing));
        let degrees = turn.abs().min(most_wheel).min(90);
        let wheel = (degrees >= 3).then(|| {
            let flank = if turn > 0 { Flank::Right } else { Flank::Left };
            Step::Wheel(flank, i32::try_from(degrees).unwrap_or(0))
        });
        // Through friends only where no way round them was found.
        for through in [&[][..], &friends[..]] {
            let rules = PathRules {
                through,
                exempt: &[],
                road: false,
                free: u.rules.formation == Formation::Skirmish,
                bypass: &[],
            };
            if let Some(way) = longest(field, i, &start, wheel, allowance, goal, short, &rules) {
                if way.gap < now - 25 && !found.iter().any(|f| f.steps == way.steps) {
                    found.push(way);
                }
                break;
            }
        }
    }
    found.sort_by_key(|w| w.miss);
    found
}

/// The longest march forward after `wheel` that the planner allows within
/// the allowance (passing friends costs double: "Close-order troops may
/// move or charge through a friendly unit at half speed"), stopping no
/// nearer than `short` to `goal`.
#[allow(clippy::too_many_arguments)]
fn longest(
    field: &Field,
    i: usize,
    start: &Rect,
    wheel: Option<Step>,
    allowance: Hundredths,
    goal: &Rect,
    short: Hundredths,
    rules: &PathRules,
) -> Option<Way> {
    let u = field.unit(i);
    // What one march of `d` after the wheel comes to, if the planner
    // allows it within the allowance.
    let try_march = |d: Hundredths| -> Option<Way> {
        let mut steps: Vec<Step> = wheel.into_iter().collect();
        if d >= 25 {
            steps.push(Step::Forward(d));
        }
        let plan = plan_path(field, u, i, start, &steps, rules).ok()?;
        let cost = if plan.passed.is_empty() {
            plan.cost
        } else {
            plan.cost * 2
        };
        if steps.is_empty() || cost > allowance || rect_distance(&plan.end, goal) < short {
            return None;
        }
        let gap = (distance_to_rect(plan.end.front_centre, goal) - short).abs();
        let mut miss = gap;
        if plan.disorders {
            miss += 300;
        }
        if !plan.passed.is_empty() {
            miss += 200;
        }
        Some(Way {
            steps: written(&steps),
            through: plan
                .passed
                .iter()
                .map(|&j| field.unit(j).id.clone())
                .collect(),
            gap,
            miss,
        })
    };
    // The longest march allowed, by halving the interval between what is
    // known to be allowed and what is not, to a quarter inch.
    if let Some(way) = try_march(allowance) {
        return Some(way);
    }
    let (mut lo, mut hi) = (0, allowance);
    let mut best = try_march(0);
    while hi - lo > 25 {
        let mid = (lo + hi) / 2;
        match try_march(mid) {
            Some(way) => {
                best = Some(way);
                lo = mid;
            }
            None => hi = mid,
        }
    }
    best
}

/// Steps as an order writes them: `wheel left 20, forward 3.5`.
fn written(steps: &[Step]) -> String {
    steps
        .iter()
        .filter_map(|s| match s {
            Step::Forward(d) => Some(format!("forward {}", coord(*d))),
            Step::Wheel(Flank::Left, deg) => Some(format!("wheel left {deg}")),
            Step::Wheel(Flank::Right, deg) => Some(format!("wheel right {deg}")),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Degrees wrapped into (-180, 180].
fn wrapped_degrees(d: i64) -> i64 {
    let d = d.rem_euclid(360);
    if d > 180 { d - 360 } else { d }
}
