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

/// What stays the same along a path: the unit and what it may pass, and
/// the units near the ground the path sweeps (only they can stop it).
struct Walk<'w, 'f> {
    field: &'w Field<'f>,
    u: &'w Unit,
    rules: &'w PathRules<'w>,
    slow: Option<Because>,
    infantry: bool,
    skirmish: bool,
    others: Vec<usize>,
    other_rects: Vec<Rect>,
    near_enemies: Vec<usize>,
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
    let area = swept_box(start, steps);
    let (others, other_rects) = field.rects_near_except(area, ZONE_OF_CONTROL, &[i]);
    let walk = Walk {
        field,
        u,
        rules,
        slow: slow_wheel(u),
        infantry: u.rules.troop_type.arm() == Arm::Infantry,
        skirmish: u.rules.formation == Formation::Skirmish,
        others,
        other_rects,
        near_enemies: field.enemies_near(u.side.as_str(), area, ZONE_OF_CONTROL),
    };
    let mut plan = PathPlan {
        end: *start,
        cost: 0,
        disorders: false,
        passed: Vec::new(),
        forward: 0,
        crosses_works: false,
        slowed: Vec::new(),
    };
    for step in steps {
        let at = plan.end;
        let next = step.apply(&at);
        walk.pay_for_ground(&mut plan, step, &next)?;
        if let Step::Forward(d) = step {
            plan.forward += d;
        }
        walk.cross_lines(&mut plan, &next)?;
        walk.stay_on_road_and_table(&at, &next)?;
        walk.pass_units(&mut plan.passed, &at, step)?;
        walk.keep_out_of_zones(&at, step)?;
        plan.end = next;
    }
    Ok(plan)
}

impl Walk<'_, '_> {
    /// The step's cost by its kind and the ground: the ground at its half
    /// way and at its end, the slower of the two counting for the whole
    /// step; either may forbid it or disorder the unit.
    fn pay_for_ground(&self, plan: &mut PathPlan, step: &Step, next: &Rect) -> Result<(), Blocked> {
        let at = plan.end;
        let half = match *step {
            Step::Forward(d) => Step::Forward(d / 2),
            Step::Backstep(d) => Step::Backstep(d / 2),
            Step::Sidestep(f, d) => Step::Sidestep(f, d / 2),
            Step::Oblique(f, d) => Step::Oblique(f, d / 2),
            Step::Wheel(f, deg) => Step::Wheel(f, deg / 2),
            Step::Face(c) => Step::Face(c),
        }
        .apply(&at);
        let (kind, kind_slowing) = step_rate(step, self.rules.free, self.slow);
        let mut terrain = 1;
        let mut slowest = None;
        for r in [&half, next] {
            let g = ground(self.field, self.u, r)?;
            if g.factor > terrain {
                slowest = g.slowed_by;
            }
            terrain = terrain.max(g.factor);
            plan.disorders |= g.disorders;
        }
        plan.cost += step.distance(&at) * kind * terrain;
        plan.slowed.extend(kind_slowing);
        if let Some(id) = slowest {
            plan.slowed.push(ground_slowing(self.field, &id, terrain));
        }
        Ok(())
    }

    /// The lines of terrain the step crosses: obstacles, fieldworks and
    /// rivers.
    fn cross_lines(&self, plan: &mut PathPlan, next: &Rect) -> Result<(), Blocked> {
        let at = plan.end;
        let before_lines = plan.cost;
        for (kind, line) in lines_crossed(self.field, &at, next) {
            match kind {
                // "Obstacles [...] usually cost double distance (or one inch
                // per rank) for close-order units to cross [...] Skirmishers
                // can usually cross them at no penalty." (STC-42)
                TerrainKind::Obstacle if !self.skirmish => plan.cost += at.depth,
                TerrainKind::Fieldworks if !self.infantry => {
                    return blocked(format!(
                        "generally only infantry may cross fieldworks ({}) (Terrain Suggestions, Fieldworks)",
                        line.id
                    ));
                }
                // "It costs a full move to cross a line of fieldworks".
                TerrainKind::Fieldworks => plan.crosses_works = true,
                TerrainKind::River if !self.rules.road => {
                    return blocked(format!(
                        "the river ({}) cannot be crossed but by a road (STC-43)",
                        line.id
                    ));
                }
                _ => {}
            }
        }
        if plan.cost > before_lines {
            plan.slowed.push(Slowing::Obstacle);
        }
        Ok(())
    }

    /// A road move keeps to the road ("spending its entire turn on a
    /// road"); no move leaves the table.
    fn stay_on_road_and_table(&self, at: &Rect, next: &Rect) -> Result<(), Blocked> {
        let field = self.field;
        if self.rules.road
            && !(on_road(field, at.front_centre) && on_road(field, next.front_centre))
        {
            return blocked(
                "the move leaves the road; a road move must spend the entire turn on a road (Terrain Suggestions, Roads)",
            );
        }
        if let Some((w, d)) = field.table()
            && !next.is_inside_table(w, d)
        {
            return blocked("the move would leave the table");
        }
        Ok(())
    }

    /// What the step passes through: never an enemy (but one it may
    /// touch); friends only when they or the mover are skirmishers, or the
    /// order names them with `through` (Interpenetration). Those it passes
    /// are added to `passed`.
    fn pass_units(&self, passed: &mut Vec<usize>, at: &Rect, step: &Step) -> Result<(), Blocked> {
        for k in path_hits(at, &[*step], &self.other_rects) {
            let j = self.others[k];
            let other = self.field.unit(j);
            if self.rules.exempt.contains(&j) {
                continue;
            }
            if other.side != self.u.side {
                return blocked_by(format!("the way is blocked by the enemy {}", other.name), j);
            }
            let friend_skirmishers = other.rules.formation == Formation::Skirmish;
            if self.skirmish || friend_skirmishers || self.rules.through.contains(&j) {
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
        Ok(())
    }

    /// Zones of Control: "You may not move a unit within 1" of an enemy
    /// unit unless it is charging that unit, or unless the enemy it wishes
    /// to bypass is already in close combat with or being charged by
    /// another friendly unit."
    fn keep_out_of_zones(&self, at: &Rect, step: &Step) -> Result<(), Blocked> {
        let rules = self.rules;
        let zones: Vec<(usize, Rect)> = self
            .near_enemies
            .iter()
            .copied()
            .filter(|j| !rules.exempt.contains(j) && !rules.bypass.contains(j))
            .filter_map(|j| self.field.rect(j).map(|r| (j, grown(&r, ZONE_REACH))))
            .collect();
        let zone_rects: Vec<Rect> = zones.iter().map(|(_, r)| *r).collect();
        // A unit already inside a zone at the start may leave it, not close
        // further: only zones it was clear of count.
        if let Some(&k) = path_hits(at, &[*step], &zone_rects)
            .iter()
            .find(|&&k| !at.overlaps(&zone_rects[k]))
        {
            let j = zones[k].0;
            return blocked_by(
                format!(
                    "the move would come within 1\" of the enemy {} ({ZONES})",
                    self.field.unit(j).name
                ),
                j,
            );
        }
        Ok(())
    }
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
