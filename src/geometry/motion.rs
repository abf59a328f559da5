//! Moving a rectangle: forward and back, sidesteps, obliques, wheels about a
//! front corner, facing changes about the front centre, and paths of such
//! steps with the distance they use. Each move returns a new rectangle with
//! its front centre rounded to the grid.

use super::rect::Rect;
use super::vector::{Vector, axes, to_grid};
use crate::geometry::Hundredths;

/// A unit's left or right, seen as it faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flank {
    Left,
    Right,
}

/// Maneuvers: "A facing change must be by 90° or 180°".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FacingChange {
    /// 90° clockwise.
    Right,
    /// 90° anticlockwise.
    Left,
    /// 180°.
    About,
}

impl FacingChange {
    /// The turn in degrees clockwise.
    pub fn degrees(self) -> u32 {
        match self {
            FacingChange::Right => 90,
            FacingChange::Left => 270,
            FacingChange::About => 180,
        }
    }
}

/// The rectangle moved by an unrounded offset, its front centre then
/// rounded to the grid.
fn shifted(rect: &Rect, by: Vector) -> Rect {
    Rect {
        front_centre: Vector::at(rect.front_centre).plus(by).to_point(),
        ..*rect
    }
}

/// Moves a unit straight ahead along its facing by `d` (a negative `d` moves
/// it back).
pub fn move_forward(rect: &Rect, d: Hundredths) -> Rect {
    let (ahead, _) = axes(rect.facing);
    shifted(rect, ahead.scaled(d as f64))
}

/// Moves a unit straight back, still facing the same way, by `d`.
/// Movement: "Oblique, sidestep, and backstep moves are done at half speed."
pub fn backstep(rect: &Rect, d: Hundredths) -> Rect {
    move_forward(rect, -d)
}

/// Moves a unit sideways to a flank by `d`, still facing the same way.
/// Movement: "Oblique, sidestep, and backstep moves are done at half speed."
pub fn sidestep(rect: &Rect, flank: Flank, d: Hundredths) -> Rect {
    let (_, right) = axes(rect.facing);
    let sign = match flank {
        Flank::Left => -1.0,
        Flank::Right => 1.0,
    };
    shifted(rect, right.scaled(sign * d as f64))
}

/// The angle between an oblique move and the facing, in degrees.
pub const OBLIQUE_ANGLE: u32 = 45;

/// Moves a unit by `d` half forward, half sideways: along the direction
/// 45° off its facing towards a flank, still facing the same way. The rules
/// name the oblique ("Oblique, sidestep, and backstep moves are done at half
/// speed") but not its angle; 45° is the reading taken, and `d` is the
/// straight length moved.
pub fn oblique(rect: &Rect, flank: Flank, d: Hundredths) -> Rect {
    let (ahead, right) = axes(rect.facing);
    let side = match flank {
        Flank::Left => right.scaled(-1.0),
        Flank::Right => right,
    };
    let half = core::f64::consts::FRAC_1_SQRT_2;
    shifted(rect, ahead.plus(side).scaled(half * d as f64))
}

/// The turn of a wheel in degrees clockwise: a forward wheel on the left
/// front corner swings the right end forward, turning the unit to its left.
pub(crate) fn wheel_turn(hinge: Flank, degrees: i32) -> i32 {
    match hinge {
        Flank::Left => -degrees,
        Flank::Right => degrees,
    }
}

/// Wheels a unit about a front corner, "like swinging a door on a hinge"
/// (Movement, Wheeling), by `degrees`: positive wheels forward, negative
/// backward ("Units may wheel backwards at one-quarter speed"). The hinge
/// corner stays where it was (up to the rounding of the new front centre).
pub fn wheel(rect: &Rect, hinge: Flank, degrees: i32) -> Rect {
    let (_, right) = axes(rect.facing);
    let half = rect.width as f64 / 2.0;
    let to_hinge = match hinge {
        Flank::Left => -half,
        Flank::Right => half,
    };
    let corner = Vector::at(rect.front_centre).plus(right.scaled(to_hinge));
    let facing = (i64::from(rect.facing) + i64::from(wheel_turn(hinge, degrees))).rem_euclid(360);
    let facing = facing as u32;
    let (_, new_right) = axes(facing);
    Rect {
        front_centre: corner.minus(new_right.scaled(to_hinge)).to_point(),
        facing,
        ..*rect
    }
}

/// The distance a wheel uses: the arc the outer front corner travels, the
/// frontage times the angle in radians, on the grid.
pub fn wheel_arc_length(width: Hundredths, degrees: u32) -> Hundredths {
    to_grid(width as f64 * f64::from(degrees) * core::f64::consts::PI / 180.0)
}

/// The largest whole number of degrees (at most 360) a unit of this
/// frontage can wheel without its arc passing `allowance`.
pub fn wheel_angle_for(width: Hundredths, allowance: Hundredths) -> u32 {
    if width <= 0 {
        return 360;
    }
    if allowance <= 0 {
        return 0;
    }
    let estimate = allowance as f64 * 180.0 / (core::f64::consts::PI * width as f64);
    let mut degrees = (libm::floor(estimate) as u32).min(360);
    while degrees > 0 && wheel_arc_length(width, degrees) > allowance {
        degrees -= 1;
    }
    while degrees < 360 && wheel_arc_length(width, degrees + 1) <= allowance {
        degrees += 1;
    }
    degrees
}

/// Turns a unit to a new facing about its front centre, which stays put.
/// Maneuvers: "Formation changes are always done about the front center of
/// the unit. A facing change must be by 90° or 180°".
pub fn change_facing(rect: &Rect, change: FacingChange) -> Rect {
    Rect {
        facing: (rect.facing + change.degrees()) % 360,
        ..*rect
    }
}

/// One step of a unit's move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Forward(Hundredths),
    Backstep(Hundredths),
    Sidestep(Flank, Hundredths),
    Oblique(Flank, Hundredths),
    /// Wheel about the front corner on that flank; negative degrees wheel
    /// backward.
    Wheel(Flank, i32),
    Face(FacingChange),
}

impl Step {
    /// Where the step takes the unit.
    pub fn apply(self, rect: &Rect) -> Rect {
        match self {
            Step::Forward(d) => move_forward(rect, d),
            Step::Backstep(d) => backstep(rect, d),
            Step::Sidestep(flank, d) => sidestep(rect, flank, d),
            Step::Oblique(flank, d) => oblique(rect, flank, d),
            Step::Wheel(hinge, degrees) => wheel(rect, hinge, degrees),
            Step::Face(change) => change_facing(rect, change),
        }
    }

    /// The distance the step moves (a wheel's by its outer corner's arc; a
    /// facing change moves nothing: it costs time, which is the rules'
    /// business, as is the speed each kind of step is taken at).
    pub fn distance(self, rect: &Rect) -> Hundredths {
        match self {
            Step::Forward(d) | Step::Backstep(d) | Step::Sidestep(_, d) | Step::Oblique(_, d) => {
                d.abs()
            }
            Step::Wheel(_, degrees) => wheel_arc_length(rect.width, degrees.unsigned_abs()),
            Step::Face(_) => 0,
        }
    }
}

/// A unit's path: where it stands after each step, and the distance moved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path {
    /// The start, then the position after each step.
    pub positions: Vec<Rect>,
    /// The sum of the steps' distances.
    pub distance: Hundredths,
}

impl Path {
    /// Where the path ends.
    pub fn end(&self) -> Rect {
        self.positions[self.positions.len() - 1]
    }
}

/// Follows a list of steps from a start position.
pub fn follow(start: &Rect, steps: &[Step]) -> Path {
    let mut positions = vec![*start];
    let mut distance = 0;
    let mut at = *start;
    for step in steps {
        distance += step.distance(&at);
        at = step.apply(&at);
        positions.push(at);
    }
    Path {
        positions,
        distance,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::distance::distance;
    use crate::geometry::testgen::{Gen, pt, rect};

    /// Movement: "the active player may move his units up to their movement
    /// allowance".
    #[test]
    fn forward_and_back_along_the_facing() {
        let r = rect(1000, 1000, 0, 450, 50);
        assert_eq!(move_forward(&r, 400).front_centre, pt(1000, 1400));
        assert_eq!(backstep(&r, 200).front_centre, pt(1000, 800));
        let east = rect(1000, 1000, 90, 450, 50);
        assert_eq!(move_forward(&east, 400).front_centre, pt(1400, 1000));
        let ne = rect(0, 0, 45, 450, 50);
        assert_eq!(move_forward(&ne, 400).front_centre, pt(283, 283));
    }

    /// Movement: "moving forward then backward by d returns to the start
    /// within 1 hundredth", for any facing.
    #[test]
    fn forward_then_back_returns_to_the_start() {
        let mut g = Gen::new(5);
        for _ in 0..3000 {
            let r = g.rect();
            let d = g.range(0, 2400);
            let back = backstep(&move_forward(&r, d), d);
            assert_eq!(back.facing, r.facing);
            let off = (back.front_centre.x - r.front_centre.x)
                .abs()
                .max((back.front_centre.y - r.front_centre.y).abs());
            assert!(off <= 1, "{r:?} {d} -> {back:?}");
            let moved = distance(r.front_centre, move_forward(&r, d).front_centre);
            assert!((moved - d).abs() <= 1);
        }
    }

    /// Movement: "Oblique, sidestep, and backstep moves are done at half
    /// speed."
    #[test]
    fn sidesteps_and_obliques_keep_the_facing() {
        let r = rect(1000, 1000, 0, 450, 50);
        let s = sidestep(&r, Flank::Right, 200);
        assert_eq!((s.front_centre, s.facing), (pt(1200, 1000), 0));
        assert_eq!(sidestep(&r, Flank::Left, 200).front_centre, pt(800, 1000));
        let o = oblique(&r, Flank::Left, 200);
        assert_eq!((o.front_centre, o.facing), (pt(859, 1141), 0));
        let east = rect(1000, 1000, 90, 450, 50);
        assert_eq!(
            sidestep(&east, Flank::Right, 200).front_centre,
            pt(1000, 800)
        );
        assert_eq!(
            oblique(&east, Flank::Right, 200).front_centre,
            pt(1141, 859)
        );
    }

    /// Wheeling: "You normally wheel a unit at full speed about one front
    /// corner, like swinging a door on a hinge."
    #[test]
    fn a_wheel_swings_about_the_hinge_corner() {
        let r = rect(1000, 1000, 0, 400, 50);
        // Forward on the left corner: the right end swings forward, the unit
        // now faces west, its front running north from the hinge.
        let w = wheel(&r, Flank::Left, 90);
        assert_eq!(w.facing, 270);
        assert_eq!(w.front_centre, pt(800, 1200));
        assert_eq!(w.corners()[0], pt(800, 1000));
        // Forward on the right corner: faces east.
        let w = wheel(&r, Flank::Right, 90);
        assert_eq!((w.facing, w.front_centre), (90, pt(1200, 1200)));
        assert_eq!(w.corners()[1], pt(1200, 1000));
        // Backward on the right corner.
        let w = wheel(&r, Flank::Right, -45);
        assert_eq!(w.facing, 315);
        assert_eq!(w.corners()[1], pt(1200, 1000));
    }

    #[test]
    fn the_hinge_stays_put_for_any_wheel() {
        let mut g = Gen::new(6);
        for _ in 0..3000 {
            let r = g.rect();
            let degrees = g.range(-180, 180) as i32;
            let hinge = if g.next().is_multiple_of(2) {
                Flank::Left
            } else {
                Flank::Right
            };
            let corner = |x: &Rect| x.corners()[if hinge == Flank::Left { 0 } else { 1 }];
            let w = wheel(&r, hinge, degrees);
            let (a, b) = (corner(&r), corner(&w));
            assert!(
                (a.x - b.x).abs() <= 1 && (a.y - b.y).abs() <= 1,
                "{r:?} {degrees}"
            );
            // A wheel by nothing changes nothing.
            assert_eq!(wheel(&r, hinge, 0), r);
        }
    }

    /// Wheeling: the distance is the arc travelled by the outer front corner.
    #[test]
    fn wheel_distance_is_the_outer_corners_arc() {
        // A 4-1/2" line wheeling 90°: a quarter circle of radius 4-1/2".
        assert_eq!(wheel_arc_length(450, 90), 707);
        assert_eq!(wheel_arc_length(450, 0), 0);
        // With 4" to spend, it wheels 50° (arc 3.93"), not 51° (4.01").
        assert_eq!(wheel_angle_for(450, 400), 50);
        assert_eq!(wheel_arc_length(450, 51), 401);
        assert_eq!(wheel_angle_for(450, 0), 0);
        assert_eq!(wheel_angle_for(100, 100_000), 360);
        let mut g = Gen::new(7);
        for _ in 0..2000 {
            let w = g.range(1, 900);
            let a = g.range(0, 1400);
            let deg = wheel_angle_for(w, a);
            assert!(wheel_arc_length(w, deg) <= a);
            assert!(deg == 360 || wheel_arc_length(w, deg + 1) > a);
        }
    }

    /// Maneuvers: "Formation changes are always done about the front center
    /// of the unit. A facing change must be by 90° or 180°".
    #[test]
    fn facing_changes_turn_about_the_front_centre() {
        let r = rect(1000, 1000, 0, 450, 50);
        let right = change_facing(&r, FacingChange::Right);
        assert_eq!((right.front_centre, right.facing), (pt(1000, 1000), 90));
        assert_eq!(change_facing(&r, FacingChange::Left).facing, 270);
        assert_eq!(change_facing(&r, FacingChange::About).facing, 180);
        let mut g = Gen::new(8);
        for _ in 0..1000 {
            let r = g.rect();
            for change in [FacingChange::Right, FacingChange::Left, FacingChange::About] {
                let mut t = r;
                for _ in 0..4 {
                    t = change_facing(&t, change);
                }
                assert_eq!(t, r);
            }
            let about = change_facing(&r, FacingChange::About);
            assert_eq!(change_facing(&about, FacingChange::About), r);
        }
    }

    #[test]
    fn a_path_sums_its_steps() {
        let r = rect(1000, 1000, 0, 450, 50);
        let path = follow(
            &r,
            &[
                Step::Forward(200),
                Step::Wheel(Flank::Right, 90),
                Step::Forward(100),
                Step::Face(FacingChange::Left),
                Step::Sidestep(Flank::Left, 50),
            ],
        );
        assert_eq!(path.positions.len(), 6);
        assert_eq!(path.distance, 200 + 707 + 100 + 50);
        let end = path.end();
        assert_eq!(end.facing, 0);
        // Forward to y 1200; the wheel puts the front centre at
        // (1225, 1425) facing east; on 1" to x 1325; face left (north);
        // half an inch to the left, x 1275.
        assert_eq!(end.front_centre, pt(1275, 1425));
        assert_eq!(follow(&r, &[]).end(), r);
    }
}
