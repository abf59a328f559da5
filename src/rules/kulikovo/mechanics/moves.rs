//! Movement by movement points: a unit's walk along a path of hexes,
//! step by step, at the chart's costs, with what the terrain, the enemy and
//! the campaign's parameters forbid. Checking a move, carrying it out and
//! the bot's search all walk this one way.

use super::super::field::{Field, aspect};
use super::super::orders::{Step, direction_name};
use super::combat::Aspect;
use crate::geometry::{Direction, Hex};

pub use crate::rules::refusal::Refusal;

pub const FRONT_RULING: &str = "ruling KUL-6: a unit moves into the three hexes ahead of it and turns to face another way with `face`";
pub const ZOC_RULING: &str =
    "ruling KUL-7: a unit that enters an enemy zone of control stops there";
pub const RETIRED_ZOC: &str = "ruling KUL-9: a retired unit may not enter an enemy zone of control";
pub const PATH_RULING: &str = "ruling KUL-5: a move is a path of hexes, each next to the last";
pub const ENEMY_RULING: &str = "ruling KUL-5: a unit never enters a hex of the enemy";
pub const STACKING: &str = "ruling KUL-7: campaign parameter stacking_limit";

/// One unit's walk.
#[derive(Debug, Clone)]
pub struct Walker {
    pub unit: usize,
    pub at: Hex,
    pub facing: Direction,
    /// Movement points spent in this activation, earlier orders included.
    pub mp_used: u32,
    pub allowance: u32,
    /// Where it entered an enemy zone of control, and so stopped.
    pub stopped: Option<Hex>,
    /// The hexes it has stood in, its start first.
    pub path: Vec<Hex>,
}

impl Walker {
    pub fn new(field: &Field, unit: usize, mp_used: u32) -> Walker {
        let at = field.hex(unit);
        let weapon = field.unit(unit).rules.weapon;
        Walker {
            unit,
            at,
            facing: field.facing(unit),
            mp_used,
            allowance: field.state.params.movement.of(weapon),
            stopped: None,
            path: vec![at],
        }
    }

    pub fn left(&self) -> u32 {
        self.allowance.saturating_sub(self.mp_used)
    }

    fn afford(&self, field: &Field, cost: u32, what: String, clause: &str) -> Result<(), Refusal> {
        if self.mp_used + cost > self.allowance {
            let weapon = field.unit(self.unit).rules.weapon;
            return Err(Refusal::new(
                format!(
                    "{what} costs {cost} MP and it has {} left of {} (campaign parameter movement.{weapon})",
                    self.left(),
                    self.allowance
                ),
                clause,
            ));
        }
        Ok(())
    }

    /// The movement points to enter `to` from where the walker stands,
    /// with the clauses that make them; or why it may not.
    pub fn cost_to(&self, field: &Field, to: Hex) -> Result<(u32, Vec<&'static str>), Refusal> {
        let unit = field.unit(self.unit);
        if !field.ground.contains(to) {
            return Err(Refusal::plain(format!(
                "hex {} is not on the map",
                to.label()
            )));
        }
        let Some(side) = self.at.side_towards(to) else {
            return Err(Refusal::new(
                format!(
                    "hex {} does not touch hex {}, where it stands then",
                    to.label(),
                    self.at.label()
                ),
                PATH_RULING,
            ));
        };
        if aspect(self.facing, side) != Aspect::Front {
            return Err(Refusal::new(
                format!(
                    "hex {} is not ahead of it (it faces {} in {})",
                    to.label(),
                    direction_name(self.facing),
                    self.at.label()
                ),
                FRONT_RULING,
            ));
        }
        let crossing = field.ground.crossing(self.at, side);
        if let Some((problem, clause)) = crossing.uncrossable() {
            return Err(Refusal::new(
                format!("{problem} (between {} and {})", self.at.label(), to.label()),
                clause,
            ));
        }
        if field.enemy_at(to, &unit.side) {
            return Err(Refusal::new(
                format!("hex {} holds the enemy", to.label()),
                ENEMY_RULING,
            ));
        }
        if unit.rules.retired && field.enemy_zoc(to, &unit.side) {
            return Err(Refusal::new(
                format!("hex {} is in an enemy zone of control", to.label()),
                RETIRED_ZOC,
            ));
        }
        let (base, clause) = field.ground.hex_cost(to);
        let mut cost = base;
        let mut why = vec![clause];
        for (extra, clause) in crossing.extra_mp() {
            cost += extra;
            why.push(clause);
        }
        Ok((cost, why))
    }

    /// Takes one step.
    pub fn step(&mut self, field: &Field, step: Step) -> Result<(), Refusal> {
        match step {
            Step::Hex(to) => {
                if let Some(at) = self.stopped {
                    return Err(Refusal::new(
                        format!(
                            "it entered an enemy zone of control in {} and must stop there",
                            at.label()
                        ),
                        ZOC_RULING,
                    ));
                }
                let (cost, why) = self.cost_to(field, to)?;
                self.afford(
                    field,
                    cost,
                    format!("entering {}", to.label()),
                    &why.join("; "),
                )?;
                self.mp_used += cost;
                self.at = to;
                self.path.push(to);
                if field.enemy_zoc(to, &field.unit(self.unit).side) {
                    self.stopped = Some(to);
                }
                Ok(())
            }
            Step::Face(d) => {
                let sixths = u32::from(d.sixths_off(self.facing));
                let cost = sixths * field.state.params.facing_cost;
                self.afford(
                    field,
                    cost,
                    format!("turning {sixths} hexside(s) to face {}", direction_name(d)),
                    "ruling KUL-6: campaign parameter facing_cost",
                )?;
                self.mp_used += cost;
                self.facing = d;
                Ok(())
            }
        }
    }

    /// Whether the hex it ends in has room: no more than the stacking
    /// limit of its side's units, itself counted.
    pub fn check_end(&self, field: &Field) -> Result<(), Refusal> {
        let unit = field.unit(self.unit);
        if self.at == field.hex(self.unit) {
            return Ok(());
        }
        let limit = field.state.params.stacking_limit;
        let there = field.friends_at(self.at, &unit.side) as u32;
        if there + 1 > limit {
            return Err(Refusal::new(
                format!(
                    "hex {} already holds {there} unit(s) of its side; a hex holds {limit}",
                    self.at.label()
                ),
                STACKING,
            ));
        }
        Ok(())
    }

    /// Whether it changed hex.
    pub fn moved(&self) -> bool {
        self.path.len() > 1
    }
}
