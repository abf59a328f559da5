//! The path of a move: the ground under and across a footprint, what each
//! step costs by its kind and the ground, and the plan of a whole path of
//! steps with what blocks it.

use super::*;

/// The kernel's step for an order's step.
pub fn kernel_step(step: &OrderStep) -> Step {
    let flank = |s: &Side| match s {
        Side::Left => Flank::Left,
        Side::Right => Flank::Right,
    };
    let d = |x: &u32| Hundredths::from(*x);
    match step {
        OrderStep::Forward { distance } => Step::Forward(d(distance)),
        OrderStep::Backstep { distance } => Step::Backstep(d(distance)),
        OrderStep::Sidestep { side, distance } => Step::Sidestep(flank(side), d(distance)),
        OrderStep::Oblique { side, distance } => Step::Oblique(flank(side), d(distance)),
        OrderStep::Wheel {
            side,
            degrees,
            backward,
        } => {
            let deg = i32::try_from(*degrees).unwrap_or(360).min(360);
            Step::Wheel(flank(side), if *backward { -deg } else { deg })
        }
    }
}

/// A move that cannot be made, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocked {
    pub reason: String,
    /// The unit the reason names (the enemy in the way), by index.
    pub by: Option<usize>,
}

pub(super) fn blocked<T>(reason: impl Into<String>) -> Result<T, Blocked> {
    Err(Blocked {
        reason: reason.into(),
        by: None,
    })
}

/// [`blocked`] by unit `j`, which the reason names.
fn blocked_by<T>(reason: impl Into<String>, j: usize) -> Result<T, Blocked> {
    Err(Blocked {
        reason: reason.into(),
        by: Some(j),
    })
}

/// What moving through some ground does to a unit: how many times its
/// distance counts (1, 2 or 4), and whether it disorders the unit; the
/// terrain that slows it most, by id, when it is slowed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ground {
    pub factor: Hundredths,
    pub disorders: bool,
    pub slowed_by: Option<String>,
}

/// Terrain Suggestions: the ground under a footprint, for unit `u`.
pub fn ground(field: &Field, u: &Unit, rect: &Rect) -> Result<Ground, Blocked> {
    let a = u.rules.troop_type.arm();
    let skirmish = u.rules.formation == Formation::Skirmish;
    let infantry = a == Arm::Infantry;
    let mut g = Ground {
        factor: 1,
        disorders: false,
        slowed_by: None,
    };
    for (kind, t) in field.terrain_under(rect) {
        let slower = g.factor;
        let area = matches!(t.shape, TerrainShape::Area { .. });
        match (kind, area) {
            (TerrainKind::LightWoods, true) => {
                // "Skirmishers move through light woods at full speed.
                // Close-order infantry moves at half speed. Cavalry and
                // artillery move at 1/4 speed. Light woods are disordering
                // terrain."
                let f = if skirmish {
                    1
                } else if infantry {
                    2
                } else {
                    4
                };
                g.factor = g.factor.max(f);
                g.disorders |= !skirmish;
            }
            (TerrainKind::HeavyWoods, true) => {
                // "Only infantry may enter. Skirmishers move at 1/2 speed,
                // close-order infantry at 1/4 speed."
                if !infantry {
                    return blocked(format!(
                        "only infantry may enter heavy woods ({}) (Terrain Suggestions, Heavy Woods)",
                        t.id
                    ));
                }
                g.factor = g.factor.max(if skirmish { 2 } else { 4 });
            }
            // "All close-order troops move at half speed (up or down) and
            // are disordered. Skirmishers however move normally."
            (TerrainKind::SteepSlope | TerrainKind::Rough, true) if !skirmish => {
                g.factor = g.factor.max(2);
                g.disorders = true;
            }
            // Boats: "troops must cross stretches of water using boats".
            (TerrainKind::Water, true) => {
                return blocked(format!(
                    "troops cross the water ({}) only in boats (Optional Rules, Boats)",
                    t.id
                ));
            }
            (TerrainKind::TownBlock | TerrainKind::Chateau | TerrainKind::Fieldworks, true) => {
                if !infantry {
                    return blocked(format!(
                        "only infantry may enter {kind} ({}) (Terrain Suggestions)",
                        t.id
                    ));
                }
                g.disorders |= !skirmish;
            }
            (TerrainKind::Fieldworks, false) => {
                // "Linear works protect troops behind them, if the troops are
                // within two inches of the works, and troops within this zone
                // are disordered."
                g.disorders |= !skirmish;
            }
            _ => {}
        }
        if g.factor > slower {
            g.slowed_by = Some(t.id.clone());
        }
    }
    Ok(g)
}

/// The terrain lines the unit's centre path crosses, with their kinds.
pub(super) fn lines_crossed<'f>(
    field: &Field<'f>,
    from: &Rect,
    to: &Rect,
) -> Vec<(TerrainKind, &'f crate::rules::board::Terrain)> {
    let (a, b) = (from.centre(), to.centre());
    field
        .ground()
        .features(field.state)
        .filter(|(_, t)| match &t.shape {
            TerrainShape::Line { points } => points
                .windows(2)
                .any(|w| segments_intersect(a, b, w[0], w[1])),
            _ => false,
        })
        .collect()
}

/// Whether a point lies within 1" of a road (STC-41: a unit is on a road
/// while its front centre is within 1" of the road's line).
pub(super) fn on_road(field: &Field, p: Point) -> bool {
    field
        .ground()
        .lines(field.state, TerrainKind::Road)
        .any(|(_, points)| {
            points
                .windows(2)
                .any(|w| geometry::distance_to_segment(p, w[0], w[1]) <= 100)
        })
}

/// A rectangle grown by `by` on every side, for the zone-of-control sweep.
/// How far an enemy's zone of control is grown for the overlap test of a
/// move: 1" and the contact slack, so that a footprint ending exactly 1"
/// away (touching within the slack) is clear of it, and one ending 0.99" or
/// closer overlaps it ("You may not move a unit within 1" of an enemy unit";
/// STC-36: closer than 1" on the grid).
const ZONE_REACH: Hundredths = ZONE_OF_CONTROL + 1;

pub(super) fn grown(rect: &Rect, by: Hundredths) -> Rect {
    Rect {
        front_centre: geometry::move_forward(rect, by).front_centre,
        facing: rect.facing,
        width: rect.width + 2 * by,
        depth: rect.depth + 2 * by,
    }
}

/// The cost and the outcome of one path for unit `i`, checked against the
/// table: `Ok((end, cost, disordered))`.
pub struct PathPlan {
    pub end: Rect,
    pub cost: Hundredths,
    pub disorders: bool,
    /// Friends the path passed through.
    pub passed: Vec<usize>,
    pub forward: Hundredths,
    /// Whether the path crosses a line of fieldworks: "It costs a full move
    /// to cross a line of fieldworks".
    pub crosses_works: bool,
    /// What made the path cost more than its length, in the order met.
    pub slowed: Vec<Slowing>,
}

/// What a path may pass.
pub struct PathRules<'r> {
    /// Friends the order names to pass through ("through").
    pub through: &'r [usize],
    /// Enemies the unit may come within 1" of, and touch at the end (the
    /// target of a charge).
    pub exempt: &'r [usize],
    /// Whether this is a road move.
    pub road: bool,
    /// Whether each step moves at full speed (skirmishers, manhandled guns).
    pub free: bool,
    /// Enemies engaged or charged by friends, which do not stop a move
    /// ("unless the enemy it wishes to bypass is already in close combat
    /// with or being charged by another friendly unit").
    pub bypass: &'r [usize],
}

/// Plans a path of steps for unit `i`: every step's cost by its kind and the
/// ground, and everything that would stop it.
pub fn plan_path(
    field: &Field,
    u: &Unit,
    i: usize,
    start: &Rect,
    steps: &[Step],
    rules: &PathRules,
) -> Result<PathPlan, Blocked> {
    let side = u.side.as_str();
    let slow = slow_wheel(u);
    let mut slowed = Vec::new();
    let mut at = *start;
    let mut cost = 0;
    let mut forward = 0;
    let mut disorders = false;
    let mut passed = Vec::new();
    let mut crosses_works = false;
    let infantry = u.rules.troop_type.arm() == Arm::Infantry;
    let skirmish = u.rules.formation == Formation::Skirmish;
    // Only the units near the ground the path sweeps can stop it.
    let area = swept_box(start, steps);
    let (others, other_rects) = field.rects_near_except(area, ZONE_OF_CONTROL, &[i]);
    let near_enemies = field.enemies_near(side, area, ZONE_OF_CONTROL);
    for step in steps {
        let next = step.apply(&at);
        let half = match *step {
            Step::Forward(d) => Step::Forward(d / 2),
            Step::Backstep(d) => Step::Backstep(d / 2),
            Step::Sidestep(f, d) => Step::Sidestep(f, d / 2),
            Step::Oblique(f, d) => Step::Oblique(f, d / 2),
            Step::Wheel(f, deg) => Step::Wheel(f, deg / 2),
            Step::Face(c) => Step::Face(c),
        }
        .apply(&at);
        let (kind, kind_slowing) = step_rate(step, rules.free, slow);
        let mut terrain = 1;
        let mut slowest = None;
        for r in [&half, &next] {
            let g = ground(field, u, r)?;
            if g.factor > terrain {
                slowest = g.slowed_by;
            }
            terrain = terrain.max(g.factor);
            disorders |= g.disorders;
        }
        cost += step.distance(&at) * kind * terrain;
        slowed.extend(kind_slowing);
        if let Some(id) = slowest {
            slowed.push(ground_slowing(field, &id, terrain));
        }
        let before_lines = cost;
        if let Step::Forward(d) = step {
            forward += d;
        }
        for (kind, line) in lines_crossed(field, &at, &next) {
            match kind {
                // "Obstacles [...] usually cost double distance (or one inch
                // per rank) for close-order units to cross [...] Skirmishers
                // can usually cross them at no penalty." (STC-42)
                TerrainKind::Obstacle if !skirmish => cost += at.depth,
                TerrainKind::Fieldworks if !infantry => {
                    return blocked(format!(
                        "generally only infantry may cross fieldworks ({}) (Terrain Suggestions, Fieldworks)",
                        line.id
                    ));
                }
                // "It costs a full move to cross a line of fieldworks".
                TerrainKind::Fieldworks => crosses_works = true,
                TerrainKind::River if !rules.road => {
                    return blocked(format!(
                        "the river ({}) cannot be crossed but by a road (STC-43)",
                        line.id
                    ));
                }
                _ => {}
            }
        }
        if cost > before_lines {
            slowed.push(Slowing::Obstacle);
        }
        if rules.road && !(on_road(field, at.front_centre) && on_road(field, next.front_centre)) {
            return blocked(
                "the move leaves the road; a road move must spend the entire turn on a road (Terrain Suggestions, Roads)",
            );
        }
        if let Some((w, d)) = field.table()
            && !next.is_inside_table(w, d)
        {
            return blocked("the move would leave the table");
        }
        // What the step passes through.
        for k in path_hits(&at, &[*step], &other_rects) {
            let j = others[k];
            let other = field.unit(j);
            if rules.exempt.contains(&j) {
                continue;
            }
            if other.side != side {
                return blocked_by(format!("the way is blocked by the enemy {}", other.name), j);
            }
            let friend_skirmishers = other.rules.formation == Formation::Skirmish;
            if skirmish || friend_skirmishers || rules.through.contains(&j) {
                if !passed.contains(&j) {
                    passed.push(j);
                }
                continue;
            }
            return blocked_by(
                format!(
                    "the way is blocked by {}; name it with `through` to pass through it at half speed",
                    other.name
                ),
                j,
            );
        }
        // Zones of Control: "You may not move a unit within 1" of an enemy
        // unit unless it is charging that unit, or unless the enemy it
        // wishes to bypass is already in close combat with or being charged
        // by another friendly unit."
        let zones: Vec<(usize, Rect)> = near_enemies
            .iter()
            .copied()
            .filter(|j| !rules.exempt.contains(j) && !rules.bypass.contains(j))
            .filter_map(|j| field.rect(j).map(|r| (j, grown(&r, ZONE_REACH))))
            .collect();
        let zone_rects: Vec<Rect> = zones.iter().map(|(_, r)| *r).collect();
        // A unit already inside a zone at the start may leave it, not close
        // further: only zones it was clear of count.
        if let Some(&k) = path_hits(&at, &[*step], &zone_rects)
            .iter()
            .find(|&&k| !at.overlaps(&zone_rects[k]))
        {
            let j = zones[k].0;
            return blocked_by(
                format!(
                    "the move would come within 1\" of the enemy {} ({ZONES})",
                    field.unit(j).name
                ),
                j,
            );
        }
        at = next;
    }
    Ok(PathPlan {
        end: at,
        cost,
        disorders,
        passed,
        forward,
        crosses_works,
        slowed,
    })
}

/// The box a path of `steps` from `start` may sweep: the bounds of every
/// footprint along it, grown by the unit's width and depth, which hold the
/// arc of a wheel about a front corner.
pub fn swept_box(start: &Rect, steps: &[Step]) -> (i64, i64, i64, i64) {
    let mut at = *start;
    let mut b = bounds(start);
    for step in steps {
        at = step.apply(&at);
        let n = bounds(&at);
        b = (b.0.min(n.0), b.1.min(n.1), b.2.max(n.2), b.3.max(n.3));
    }
    let g = start.width + start.depth;
    (b.0 - g, b.1 - g, b.2 + g, b.3 + g)
}

/// The box of two footprints, for a straight move from one to the other.
pub fn box_of(a: &Rect, b: &Rect) -> (i64, i64, i64, i64) {
    let (p, q) = (bounds(a), bounds(b));
    (p.0.min(q.0), p.1.min(q.1), p.2.max(q.2), p.3.max(q.3))
}
