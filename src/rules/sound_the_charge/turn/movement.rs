//! The movement phase: "moves all desired units, including making charge
//! moves. The passive side may make evade moves with eligible units in
//! response to charges."
//!
//! Orders are carried out in the order of their lines. Each unit has its
//! allowance for the turn, fixed at the start of the phase (half speed out of
//! command), and every move, wheel and maneuver spends part of it at the
//! rate the rules give. A move that would break a rule on the way (blocked
//! by a unit, into a zone of control, into impassable ground, off the
//! table) is not made: the unit stays where it was and the event says why.

use super::super::orders::{Facing, Formation, Place, Side, StcOrder, Step as OrderStep, UnitId};
use super::deployment::ZONE_OF_CONTROL;
use super::field::{Field, touches};
use super::fighting::{nation_of, steady};
use super::validate::Refusal;
use super::{Moved, SideOrders, TurnRecord};
use crate::audit::dice::{Dice, Die};
use crate::geometry::bounds;
use crate::geometry::{
    self, FacingChange, Flank, Rect, Step, bearing, direction_away, distance, path_hits,
    segments_intersect,
};
use crate::geometry::{Hundredths, Point};
use crate::rules::board::{Location, TerrainShape};
use crate::rules::ruleset::Event;
use crate::rules::sound_the_charge::basing;
use crate::rules::sound_the_charge::state::TroopType;
use crate::rules::sound_the_charge::state::{State, Unit};
use crate::rules::sound_the_charge::tables::Arm;
use crate::rules::sound_the_charge::tables::{Grade, Nation};

/// Generals: "Generals move freely at 18" per turn."
pub const GENERAL_MOVE: Hundredths = 1800;
/// Skirmish Movement: skirmishers "move at line rate (4 inches per turn)";
/// Artillery Movement: "Gunners move like skirmishers when away from their
/// guns."
pub const GUNNER_MOVE: Hundredths = 400;
/// Generals: a lone general contacted "may be moved up to nine inches out of
/// harm's way".
pub const GENERAL_ESCAPE: Hundredths = 900;
/// Pinning (optional): "within 4 inches of any enemy unit".
pub const PINNING_RANGE: Hundredths = 400;
/// Evading: "may evade no more than eight inches".
pub const EVADE_MOST: Hundredths = 800;
/// Voluntary Retreat: "up to 18" long", ending "at least four inches from
/// the nearest enemy unit".
pub const VOLUNTARY_RETREAT_MOST: Hundredths = 1800;
pub const VOLUNTARY_RETREAT_CLEAR: Hundredths = 400;

pub const MOVEMENT: &str = "Movement";
pub const MOVEMENT_TABLE: &str = "Movement Table";
pub const MANEUVERS: &str = "Maneuvers";
pub const FORMATIONS: &str = "Formations";
pub const ZONES: &str = "Movement, Zones of Control";
pub const INTERPENETRATION: &str = "Movement, Interpenetration";
pub const ARTILLERY_MOVEMENT: &str = "Movement, Artillery Movement";
pub const SKIRMISH_MOVEMENT: &str = "Movement, Skirmish Movement";

/// The rates of the Movement Table for one unit, in hundredths of an inch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rates {
    pub line: Hundredths,
    pub column: Hundredths,
    /// The charge bonus; `None` where the table says "NA" or leaves it empty.
    pub charge: Option<Hundredths>,
}

/// The farthest any unit of the Movement Table may charge: light cavalry
/// in column, 10" and a 4" bonus. Searches for enemies able to charge look
/// no farther (a test checks it against the table).
pub const LONGEST_CHARGE: Hundredths = 1400;

/// Movement Table, with the national modifiers that change it: "Austrian
/// horse guns move 10" per turn when limbered" and "Russian foot guns move
/// two inches slower than normal".
pub fn rates(troop_type: TroopType, nation: Option<Nation>) -> Option<Rates> {
    use TroopType as T;
    let r = |line, column, charge| Rates {
        line,
        column,
        charge,
    };
    let base = match troop_type {
        T::LineInfantry | T::LightInfantry => r(400, 600, Some(200)),
        T::HeavyCavalry | T::MediumCavalry => r(600, 800, Some(400)),
        T::LightCavalry => r(800, 1000, Some(400)),
        T::HorseGuns => r(400, 1400, None),
        T::LightGuns => r(400, 600, None),
        T::FieldGuns => r(300, 600, None),
        T::HeavyGuns => r(200, 400, None),
    };
    Some(match (troop_type, nation) {
        (T::HorseGuns, Some(Nation::Austria)) => Rates {
            column: 1000,
            ..base
        },
        (T::LightGuns | T::FieldGuns | T::HeavyGuns, Some(Nation::Russia)) => Rates {
            line: (base.line - 200).max(0),
            column: (base.column - 200).max(0),
            ..base
        },
        _ => base,
    })
}

/// Whether a formation moves at the column rate ("limbered guns move at
/// column rate") or the line rate ("Manhandled guns move at line rate";
/// skirmishers "move at line rate"; Austria: battalion-masse "moves at line
/// speed due to crowding of the ranks").
fn moves_at_column_rate(formation: Formation) -> bool {
    matches!(formation, Formation::Column | Formation::Limbered)
}

/// Formations the rules let a unit stand in but not move in: "Squares may not
/// move"; an "L" or "U" "may not move until it does another formation change
/// into a straight line or a proper column".
fn may_not_move(formation: Formation) -> Option<(&'static str, &'static str)> {
    match formation {
        Formation::Square => Some(("squares may not move", MOVEMENT)),
        Formation::LLeft | Formation::LRight | Formation::U => Some((
            "a unit in an \"L\" or \"U\" may not move until it forms a straight line or a proper column",
            FORMATIONS,
        )),
        _ => None,
    }
}

/// A grade as a number, A = 0 .. D = 3.
fn grade_rank(grade: Grade) -> u32 {
    match grade {
        Grade::A => 0,
        Grade::B => 1,
        Grade::C => 2,
        Grade::D => 3,
    }
}

/// The grade a unit maneuvers as: "France, Switzerland: All troops maneuver
/// as if one grade higher."
fn maneuver_grade(state: &State, u: &Unit) -> u32 {
    let g = grade_rank(u.rules.grade);
    match nation_of(state, &u.side) {
        Some(Nation::France) => g.saturating_sub(1),
        _ => g,
    }
}

/// How much of a turn a formation or facing change costs, in halves (1 =
/// half a turn, 2 = the whole turn), and whether it disorders the unit.
/// Maneuvers: "½ move for steady A-B, 1 move for steady C, 1 move plus
/// disorder for D"; "Limbering and unlimbering takes half a move"; Austria:
/// "Infantry in column may take half a turn to form or reform from
/// battalion-masse."
pub fn maneuver_cost(state: &State, u: &Unit, to: Formation) -> (u32, bool) {
    let grade = maneuver_grade(state, u);
    let disorders = grade >= 3;
    let masse = to == Formation::Masse || u.rules.formation == Formation::Masse;
    if matches!(to, Formation::Limbered | Formation::Unlimbered) || masse {
        return (1, disorders);
    }
    if steady(u) && grade <= 1 {
        (1, disorders)
    } else {
        (2, disorders)
    }
}

fn formation_allowed(
    state: &State,
    u: &Unit,
    to: Formation,
) -> Result<(), (&'static str, &'static str)> {
    let a = u.rules.troop_type.arm();
    let light = u.rules.troop_type == TroopType::LightInfantry;
    let current = u.rules.formation;
    match (to, a) {
        (Formation::Limbered | Formation::Unlimbered, Arm::Artillery) => Ok(()),
        (Formation::Limbered | Formation::Unlimbered, _) => {
            Err(("only guns limber and unlimber", ARTILLERY_MOVEMENT))
        }
        (_, Arm::Artillery) => Err((
            "guns are limbered or unlimbered; they take no other formation",
            ARTILLERY_MOVEMENT,
        )),
        (Formation::Line | Formation::Column, _) => Ok(()),
        (Formation::Square, Arm::Infantry) => Ok(()),
        (Formation::Square, _) => {
            Err(("a square is \"possible to infantry only\"", "Formations, 3"))
        }
        (Formation::Skirmish, Arm::Infantry) if light => Ok(()),
        (Formation::Skirmish, _) => Err((
            "skirmish order is \"possible only to light infantry troops\"",
            "Formations, 4",
        )),
        (Formation::LLeft | Formation::LRight | Formation::U, Arm::Infantry)
            if current == Formation::Line =>
        {
            Ok(())
        }
        (Formation::LLeft | Formation::LRight | Formation::U, _) => Err((
            "only infantry in line may fold back its flank figures into an \"L\" or \"U\"",
            FORMATIONS,
        )),
        (Formation::Masse, Arm::Infantry)
            if nation_of(state, &u.side) == Some(Nation::Austria)
                && matches!(current, Formation::Column | Formation::Masse) =>
        {
            Ok(())
        }
        (Formation::Masse, _) => Err((
            "only Austrian infantry in column may form battalion-masse",
            "National Modifiers, Austria",
        )),
    }
}

/// The orders that move a unit (as against standing, maneuvering in place or
/// giving a general's orders).
fn moves(order: &StcOrder) -> bool {
    matches!(
        order,
        StcOrder::Move { .. }
            | StcOrder::Charge { .. }
            | StcOrder::Manhandle { .. }
            | StcOrder::MoveTo { .. }
            | StcOrder::Reinforce { .. }
            | StcOrder::Retreat { .. }
    )
}

fn refuse(problem: impl Into<String>, clause: &str) -> Result<(), Refusal> {
    Err(Refusal::new(problem, clause))
}

/// Whether the rules allow `side` to give this order now (references
/// already resolved to ids). Checks only what the state settles before the
/// turn; what depends on the turn's events is settled in resolution.
/// Optional Rules, Interpenetration Restrictions: a move or charge `through`
/// friends is refused under the option ("forbidden (except for retreat
/// moves)").
fn interpenetration_allowed(state: &State, through: &[UnitId]) -> Result<(), Refusal> {
    if !through.is_empty() && super::fighting::option(state, "interpenetration-restrictions") {
        return refuse(
            "interpenetration is forbidden (except for retreat moves)",
            "Optional Rules, Interpenetration Restrictions",
        );
    }
    Ok(())
}

pub fn allowed(field: &Field, side: &str, order: &StcOrder) -> Result<(), Refusal> {
    let state = field.state;
    let id = order.unit().as_str();
    let active = state.active_side == side;
    // Generals take only the orders a general can carry out.
    if let Some(g) = state.generals.iter().find(|g| g.id == id) {
        if let Some(why) = &g.lost {
            return refuse(format!("the general is out of play ({why})"), "Generals");
        }
        if !active && !matches!(order, StcOrder::Hold { .. }) {
            return refuse(
                "generals move only in their side's active turn",
                "Turn Sequence",
            );
        }
        return match order {
            StcOrder::Hold { .. } | StcOrder::MoveTo { .. } | StcOrder::Attach { .. } => Ok(()),
            StcOrder::Detach { .. } if g.attached_to.is_some() => Ok(()),
            StcOrder::Detach { .. } => refuse("the general is not attached to a unit", "Generals"),
            _ => refuse(
                "a general moves (`move to`), attaches or detaches; he gives no other order",
                "Generals",
            ),
        };
    }
    let Some(u) = state.unit(id) else {
        return refuse("no such unit", MOVEMENT);
    };
    if let Some(why) = &u.eliminated {
        return refuse(format!("the unit is no longer in play ({why})"), MOVEMENT);
    }
    let a = u.rules.troop_type.arm();
    let skirmishing = u.rules.formation == Formation::Skirmish;
    let guns = a == Arm::Artillery;
    // Troops in boats row, land or hold (Optional Rules, Boats).
    if active && super::boats::in_boats(u) {
        super::boats::allowed(state, u, order)?;
    }
    if !active {
        return match order {
            StcOrder::Hold { .. } => Ok(()),
            StcOrder::Evade { into, .. } => {
                if !(skirmishing || guns) {
                    return refuse(
                        "only skirmishers and gunners may evade an enemy charge",
                        "Charging and Evading, Evading",
                    );
                }
                if guns && (u.rules.gunners == 0 || u.rules.status.gunners_at.is_some()) {
                    return refuse(
                        "the battery has no gunners at its guns to evade",
                        "Charging and Evading, Evading",
                    );
                }
                if let Some(into) = into {
                    if !guns {
                        return refuse(
                            "only gunners may evade into a friendly square",
                            "Charging and Evading, Evading",
                        );
                    }
                    if state.unit(into.as_str()).map(|s| s.rules.formation)
                        != Some(Formation::Square)
                    {
                        return refuse(
                            format!("{} is not in square", into.as_str()),
                            "Charging and Evading, Evading",
                        );
                    }
                }
                Ok(())
            }
            _ => refuse(
                "it is not your active turn: the passive side gives only standing orders (`evade`); \
                 \"Passive units only move during the other side's turn if retreating or evading\"",
                MOVEMENT,
            ),
        };
    }
    if matches!(order, StcOrder::Evade { .. }) {
        return refuse(
            "evading is the passive side's answer to a charge; give it as a standing order in the enemy's turn",
            "Turn Sequence",
        );
    }
    let engaged = field.index(id).is_some_and(|i| field.is_engaged(i));
    if moves(order) || matches!(order, StcOrder::Form { .. } | StcOrder::Face { .. }) {
        if u.rules.status.in_combat && engaged {
            return refuse("units in a continuing close combat may not move", MOVEMENT);
        }
        if u.rules.status.boat.is_some() {
            return refuse("the unit is in a boat", "Optional Rules, Boats");
        }
    }
    if moves(order)
        && !matches!(order, StcOrder::Retreat { .. })
        && let Some((why, clause)) = may_not_move(u.rules.formation)
        && maneuver_cost(state, u, Formation::Line).0 == 2
    {
        return refuse(why, clause);
    }
    match order {
        StcOrder::Hold { .. } | StcOrder::Evade { .. } => Ok(()),
        StcOrder::Move {
            road,
            steps,
            through,
            ..
        } => {
            if *road && !moves_at_column_rate(u.rules.formation) {
                return refuse(
                    "only \"a column or limbered battery\" moves at road speed",
                    "Terrain Suggestions, Roads",
                );
            }
            interpenetration_allowed(state, through)?;
            if !through.is_empty() && skirmishing {
                return refuse(
                    "skirmishers need no leave to pass friends; only close-order troops move through a friendly unit",
                    INTERPENETRATION,
                );
            }
            if through.iter().any(|t| t.as_str() == id) {
                return refuse("a unit cannot move through itself", INTERPENETRATION);
            }
            if steps
                .iter()
                .any(|s| matches!(s, OrderStep::Wheel { degrees: 0, .. }))
            {
                return refuse("a wheel of 0 degrees is no wheel", "Movement, Wheeling");
            }
            Ok(())
        }
        StcOrder::Charge {
            target, through, ..
        } => {
            if u.rules.shaken {
                return refuse(
                    "the unit is shaken: shaken units may not charge",
                    "Charging and Evading, rule 5",
                );
            }
            if guns {
                return refuse(
                    "guns have no charge (\"NA\") and gunners may not charge",
                    "Charging and Evading, rule 5",
                );
            }
            if u.rules.formation == Formation::Masse {
                return refuse(
                    "a unit in battalion-masse may not charge",
                    "National Modifiers, Austria",
                );
            }
            if let Some(t) = state.unit(target.as_str()) {
                let target_guns = t.rules.troop_type.arm() == Arm::Artillery;
                if skirmishing && !(target_guns || t.rules.formation == Formation::Skirmish) {
                    return refuse(
                        "skirmishers may charge artillery and other skirmishers, but not close-order troops",
                        "Charging and Evading, rule 7",
                    );
                }
                // A chateau is a town block too ("If a town block actually
                // represents a single chateau").
                if let Some(rect) = basing::footprint(t)
                    && a != Arm::Infantry
                    && (field.is_on(&rect, "town-block") || field.is_on(&rect, "chateau"))
                {
                    return refuse(
                        "only infantry may attack or enter town blocks",
                        "Terrain Suggestions, Towns",
                    );
                }
            }
            interpenetration_allowed(state, through)?;
            Ok(())
        }
        StcOrder::Form { formation, .. } => {
            if let Err((why, clause)) = formation_allowed(state, u, *formation) {
                return refuse(why, clause);
            }
            if *formation == Formation::Unlimbered && u.rules.gunners == 0 {
                return refuse(
                    "the battery has no gunners to unlimber it",
                    ARTILLERY_MOVEMENT,
                );
            }
            Ok(())
        }
        StcOrder::Face { .. } => {
            if u.rules.formation == Formation::Square {
                return refuse(
                    "a square already faces \"outward in all directions\"",
                    "Formations, 3",
                );
            }
            Ok(())
        }
        StcOrder::Manhandle { .. } => {
            if !guns || u.rules.formation != Formation::Unlimbered {
                return refuse("only unlimbered guns are manhandled", ARTILLERY_MOVEMENT);
            }
            if u.rules.status.gunners_at.is_some() || u.rules.gunners == 0 {
                return refuse("the gunners are away from their guns", ARTILLERY_MOVEMENT);
            }
            Ok(())
        }
        StcOrder::MoveTo { .. } => {
            if skirmishing || (guns && u.rules.status.gunners_at.is_some()) {
                Ok(())
            } else {
                refuse(
                    "only generals, skirmishers and gunners away from their guns move to a spot; \
                     close-order units move by steps (`forward 4, wheel left 30`)",
                    SKIRMISH_MOVEMENT,
                )
            }
        }
        StcOrder::LeaveGuns { .. } => {
            if !guns || u.rules.gunners == 0 {
                return refuse(
                    "only a battery's gunners leave their guns",
                    ARTILLERY_MOVEMENT,
                );
            }
            if u.rules.status.gunners_at.is_some() {
                return refuse(
                    "the gunners have already left their guns",
                    ARTILLERY_MOVEMENT,
                );
            }
            Ok(())
        }
        StcOrder::ManGuns { .. } => {
            if u.rules.status.gunners_at.is_none() {
                return refuse("the gunners are at their guns", ARTILLERY_MOVEMENT);
            }
            Ok(())
        }
        StcOrder::SkirmishersOut { .. } => {
            if a != Arm::Infantry
                || !matches!(u.rules.formation, Formation::Line | Formation::Column)
            {
                return refuse(
                    "organic skirmishers belong to a battalion of infantry in line or column",
                    "Movement, Skirmish Screens",
                );
            }
            if u.rules.status.skirmishers_out {
                return refuse(
                    "the skirmishers are already out",
                    "Movement, Skirmish Screens",
                );
            }
            Ok(())
        }
        StcOrder::SkirmishersIn { .. } => {
            if !u.rules.status.skirmishers_out {
                return refuse(
                    "the battalion has no skirmishers out",
                    "Movement, Skirmish Screens",
                );
            }
            Ok(())
        }
        StcOrder::Screen { .. } => {
            if !skirmishing {
                return refuse(
                    "only a unit in skirmish order screens other units",
                    "Movement, Skirmish Screens",
                );
            }
            Ok(())
        }
        StcOrder::Attach { .. } | StcOrder::Detach { .. } => refuse(
            "only a general attaches to or detaches from a unit",
            "Generals",
        ),
        StcOrder::Reform { .. } => {
            if !u.rules.disordered {
                return refuse("the unit is not disordered", "Steadiness and Disorder");
            }
            Ok(())
        }
        StcOrder::Reinforce { friend, .. } => {
            if u.rules.shaken {
                return refuse(
                    "the unit is shaken: shaken units may not charge",
                    "Charging and Evading, rule 5",
                );
            }
            if guns {
                return refuse("guns may not charge", "Charging and Evading, rule 5");
            }
            if !field
                .index(friend.as_str())
                .is_some_and(|f| field.is_engaged(f))
            {
                return refuse(
                    format!("{} is not in close combat", friend.as_str()),
                    "Close Combat",
                );
            }
            Ok(())
        }
        StcOrder::Retreat { .. } => {
            if !super::fighting::option(state, "voluntary-retreat") {
                return refuse(
                    "voluntary retreat is an optional rule this game does not use",
                    "Optional Rules, Voluntary Retreat",
                );
            }
            let Some(i) = field.index(id) else {
                return Ok(());
            };
            if field.is_engaged(i) {
                return refuse(
                    "a unit may not voluntarily retreat out of close combat",
                    "Optional Rules, Voluntary Retreat, 4",
                );
            }
            if !field.in_command(i) {
                return refuse(
                    "only \"a unit with a general in CR may do a voluntary retreat\"",
                    "Optional Rules, Voluntary Retreat",
                );
            }
            Ok(())
        }
        StcOrder::Embark { .. } | StcOrder::Disembark { .. } => {
            if !super::fighting::option(state, "boats") {
                return refuse(
                    "boats are an optional rule this game does not use",
                    "Optional Rules, Boats",
                );
            }
            super::boats::allowed(state, u, order)
        }
        StcOrder::Shoot { .. } => Ok(()),
    }
}

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
}

fn blocked<T>(reason: impl Into<String>) -> Result<T, Blocked> {
    Err(Blocked {
        reason: reason.into(),
    })
}

/// What moving through some ground does to a unit: how many times its
/// distance counts (1, 2 or 4), and whether it disorders the unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ground {
    pub factor: Hundredths,
    pub disorders: bool,
}

/// Terrain Suggestions: the ground under a footprint, for unit `u`.
pub fn ground(field: &Field, u: &Unit, rect: &Rect) -> Result<Ground, Blocked> {
    let a = u.rules.troop_type.arm();
    let skirmish = u.rules.formation == Formation::Skirmish;
    let infantry = a == Arm::Infantry;
    let mut g = Ground {
        factor: 1,
        disorders: false,
    };
    for t in field.terrain_under(rect) {
        let area = matches!(t.shape, TerrainShape::Area { .. });
        match (t.kind.as_str(), area) {
            ("light-woods", true) => {
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
            ("heavy-woods", true) => {
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
            ("steep-slope" | "rough", true) if !skirmish => {
                g.factor = g.factor.max(2);
                g.disorders = true;
            }
            // Boats: "troops must cross stretches of water using boats".
            ("water", true) => {
                return blocked(format!(
                    "troops cross the water ({}) only in boats (Optional Rules, Boats)",
                    t.id
                ));
            }
            ("town-block" | "chateau", true) | ("fieldworks", true) => {
                if !infantry {
                    return blocked(format!(
                        "only infantry may enter {} ({}) (Terrain Suggestions)",
                        t.kind, t.id
                    ));
                }
                g.disorders |= !skirmish;
            }
            ("fieldworks", false) => {
                // "Linear works protect troops behind them, if the troops are
                // within two inches of the works, and troops within this zone
                // are disordered."
                g.disorders |= !skirmish;
            }
            _ => {}
        }
    }
    Ok(g)
}

/// The unit's centre path crossing a terrain line, by kind.
fn lines_crossed<'f>(
    field: &Field<'f>,
    from: &Rect,
    to: &Rect,
) -> Vec<&'f crate::rules::board::Terrain> {
    let (a, b) = (from.centre(), to.centre());
    field
        .state
        .terrain
        .iter()
        .filter(|t| match &t.shape {
            TerrainShape::Line { points } => points
                .windows(2)
                .any(|w| segments_intersect(a, b, w[0], w[1])),
            _ => false,
        })
        .collect()
}

/// Whether a point lies within 1" of a road (STC-41: a unit is on a road
/// while its front centre is within 1" of the road's line).
fn on_road(field: &Field, p: Point) -> bool {
    field
        .state
        .terrain
        .iter()
        .any(|t| match (&t.shape, t.kind.as_str()) {
            (TerrainShape::Line { points }, "road") => points
                .windows(2)
                .any(|w| geometry::distance_to_segment(p, w[0], w[1]) <= 100),
            _ => false,
        })
}

/// A rectangle grown by `by` on every side, for the zone-of-control sweep.
fn grown(rect: &Rect, by: Hundredths) -> Rect {
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

/// How many inches of allowance one inch of `step` costs on open ground.
/// "Oblique, sidestep, and backstep moves are done at half speed. Units may
/// wheel backwards at one-quarter speed." "But the wheeling rate is at half
/// speed if the unit is Grade D or unsteady." Skirmishers (`free`) move
/// freely.
fn step_kind_factor(step: &Step, free: bool, slow_wheel: bool) -> Hundredths {
    if free {
        return 1;
    }
    match step {
        Step::Forward(_) => 1,
        Step::Backstep(_) | Step::Sidestep(..) | Step::Oblique(..) => 2,
        Step::Wheel(_, deg) if *deg < 0 => 4,
        Step::Wheel(..) if slow_wheel => 2,
        Step::Wheel(..) | Step::Face(_) => 1,
    }
}

/// The least `steps` can cost from `start`: on open ground, through no one.
fn least_cost(u: &Unit, start: &Rect, steps: &[Step], free: bool) -> Hundredths {
    let slow_wheel = grade_rank(u.rules.grade) >= 3 || !steady(u);
    let mut at = *start;
    let mut cost = 0;
    for step in steps {
        cost += step.distance(&at) * step_kind_factor(step, free, slow_wheel);
        at = step.apply(&at);
    }
    cost
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
    let unsteady = !steady(u);
    let grade_d = grade_rank(u.rules.grade) >= 3;
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
        let kind = step_kind_factor(step, rules.free, grade_d || unsteady);
        let mut terrain = 1;
        for r in [&half, &next] {
            let g = ground(field, u, r)?;
            terrain = terrain.max(g.factor);
            disorders |= g.disorders;
        }
        cost += step.distance(&at) * kind * terrain;
        if let Step::Forward(d) = step {
            forward += d;
        }
        for line in lines_crossed(field, &at, &next) {
            match line.kind.as_str() {
                // "Obstacles [...] usually cost double distance (or one inch
                // per rank) for close-order units to cross [...] Skirmishers
                // can usually cross them at no penalty." (STC-42)
                "obstacle" if !skirmish => cost += at.depth,
                "fieldworks" if !infantry => {
                    return blocked(format!(
                        "generally only infantry may cross fieldworks ({}) (Terrain Suggestions, Fieldworks)",
                        line.id
                    ));
                }
                // "It costs a full move to cross a line of fieldworks".
                "fieldworks" => crosses_works = true,
                "river" if !rules.road => {
                    return blocked(format!(
                        "the river ({}) cannot be crossed but by a road (STC-43)",
                        line.id
                    ));
                }
                _ => {}
            }
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
                return blocked(format!("the way is blocked by the enemy {}", other.name));
            }
            let friend_skirmishers = other.rules.formation == Formation::Skirmish;
            if skirmish || friend_skirmishers || rules.through.contains(&j) {
                if !passed.contains(&j) {
                    passed.push(j);
                }
                continue;
            }
            return blocked(format!(
                "the way is blocked by {}; name it with `through` to pass through it at half speed",
                other.name
            ));
        }
        // Zones of Control: "You may not move a unit within 1" of an enemy
        // unit unless it is charging that unit, or unless the enemy it
        // wishes to bypass is already in close combat with or being charged
        // by another friendly unit."
        let zones: Vec<(usize, Rect)> = near_enemies
            .iter()
            .copied()
            .filter(|j| !rules.exempt.contains(j) && !rules.bypass.contains(j))
            .filter_map(|j| field.rect(j).map(|r| (j, grown(&r, ZONE_OF_CONTROL - 1))))
            .collect();
        let zone_rects: Vec<Rect> = zones.iter().map(|(_, r)| *r).collect();
        // A unit already inside a zone at the start may leave it, not close
        // further: only zones it was clear of count.
        if let Some(&k) = path_hits(&at, &[*step], &zone_rects)
            .iter()
            .find(|&&k| !at.overlaps(&zone_rects[k]))
        {
            let j = zones[k].0;
            return blocked(format!(
                "the move would come within 1\" of the enemy {} ({ZONES})",
                field.unit(j).name
            ));
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

/// Per-unit bookkeeping of the movement phase.
pub struct Mover {
    /// The allowance for the turn, fixed at the start of the phase.
    pub allowance: Hundredths,
    pub used: Hundredths,
    pub maneuvered: bool,
    pub moved: bool,
    pub forward: Hundredths,
    pub in_command: bool,
}

/// The phase in progress: the state being changed, a field kept in step
/// with it, and what each unit has used.
pub struct Phase<'s, 'e> {
    pub state: &'s mut State,
    pub field: Field<'s>,
    pub movers: Vec<Mover>,
    pub record: &'e mut TurnRecord,
    pub events: &'e mut Vec<Event>,
}

impl Phase<'_, '_> {
    pub fn event(&mut self, kind: &str, units: &[&str], text: String) {
        self.events.push(Event {
            kind: kind.to_string(),
            units: units.iter().map(|u| u.to_string()).collect(),
            text,
        });
    }

    pub fn name(&self, i: usize) -> String {
        self.state.units[i].name.clone()
    }

    pub fn id(&self, i: usize) -> String {
        self.state.units[i].id.clone()
    }

    /// Puts unit `i` at `rect` (position and facing) in the state and the
    /// field.
    pub fn place(&mut self, i: usize, rect: Rect) {
        let u = &mut self.state.units[i];
        u.location = Location::Table {
            x: rect.front_centre.x,
            y: rect.front_centre.y,
        };
        u.facing = rect.facing;
        let r = basing::footprint(u);
        self.field.set_rect(i, r);
    }

    /// Refuses an order in resolution with an event.
    pub fn impossible(&mut self, i: usize, what: &str, reason: &str) {
        let (id, name) = (self.id(i), self.name(i));
        self.event(
            "order-impossible",
            &[&id],
            format!("{name} cannot {what}: {reason}."),
        );
    }

    /// Enemies near the box `area` that friends of `side` are engaged with
    /// or charging this turn, which a move there may pass within 1" of.
    pub fn bypassable(&self, side: &str, area: (i64, i64, i64, i64)) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .field
            .enemies_near(side, area, ZONE_OF_CONTROL)
            .into_iter()
            .filter(|&j| {
                self.field
                    .in_contact(j)
                    .iter()
                    .any(|&f| self.state.units[f].side == side)
            })
            .collect();
        for c in &self.record.charges {
            for t in &c.targets {
                if let Some(j) = self.field.index(t) {
                    out.push(j);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Separates unit `i` from friends it ended among: "If two units end
    /// movement intermixed, move one unit slightly apart from the other and
    /// mark both units disordered." The mover steps back along its facing
    /// until it is clear (STC-44).
    pub fn settle(&mut self, i: usize) {
        let Some(rect) = self.field.rect(i) else {
            return;
        };
        let side = self.state.units[i].side.clone();
        let hit = self.field.overlapping(&rect, &[i]);
        let friends: Vec<usize> = hit
            .iter()
            .copied()
            .filter(|&j| self.state.units[j].side == side)
            .collect();
        if friends.is_empty() {
            return;
        }
        let mut back = 10;
        let mut placed = None;
        while back <= 2400 {
            let r = geometry::backstep(&rect, back);
            if self.field.overlapping(&r, &[i]).is_empty()
                && self
                    .field
                    .table()
                    .is_none_or(|(w, d)| r.is_inside_table(w, d))
            {
                placed = Some(r);
                break;
            }
            back += 10;
        }
        if let Some(r) = placed {
            self.place(i, r);
        }
        let names: Vec<String> = friends.iter().map(|&j| self.name(j)).collect();
        self.state.units[i].rules.disordered = true;
        for &j in &friends {
            self.state.units[j].rules.disordered = true;
        }
        let (id, name) = (self.id(i), self.name(i));
        let mut units = vec![id];
        units.extend(friends.iter().map(|&j| self.id(j)));
        let refs: Vec<&str> = units.iter().map(String::as_str).collect();
        self.event(
            "intermixed",
            &refs,
            format!(
                "{name} ended its move intermixed with {}; it is moved apart and both are disordered.",
                names.join(" and ")
            ),
        );
    }

    fn remaining(&self, i: usize) -> Hundredths {
        (self.movers[i].allowance - self.movers[i].used).max(0)
    }
}

/// Moves the active side's units by their orders, in line order, with the
/// passive side's evades in answer to charges; then lone generals
/// contacted by the enemy.
pub fn phase(
    state: &mut State,
    active: &SideOrders,
    passive: &[SideOrders],
    record: &mut TurnRecord,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) {
    let snapshot = state.clone();
    let field = Field::new(&snapshot);
    // "A unit that begins the movement phase outside of CR moves at half
    // speed that phase."
    let movers: Vec<Mover> = (0..snapshot.units.len())
        .map(|i| {
            let u = &snapshot.units[i];
            let in_command = field.in_command(i);
            let base = allowance(&snapshot, &field, i);
            Mover {
                allowance: if in_command { base } else { base / 2 },
                used: 0,
                maneuvered: false,
                moved: false,
                forward: 0,
                in_command: in_command || u.eliminated.is_some(),
            }
        })
        .collect();
    // The field must outlive the borrow of `state`: rebuild it on a copy
    // that the phase keeps in step by `place`.
    let mut owned = snapshot.clone();
    let mut p = Phase {
        state: &mut owned,
        field: Field::new(&snapshot),
        movers,
        record,
        events,
    };
    for given in &active.orders {
        carry_out(&mut p, given.line, &given.order, passive, dice);
    }
    generals_contacted(&mut p, dice);
    // What the active side's units did, for the rules that look back to "its
    // most-recent active turn".
    let side = active.side.clone();
    for i in 0..p.state.units.len() {
        if p.state.units[i].side != side {
            continue;
        }
        let m = &p.movers[i];
        let (forward, allowance, moved) = (m.forward, m.allowance, m.moved || m.maneuvered);
        // A unit that only changed formation or facing moved no distance
        // (ruling STC-74: guns may unlimber and fire), though the change
        // used part of its allowance.
        let used = if m.moved { m.used } else { 0 };
        let u = &mut p.state.units[i];
        u.rules.status.last_advance = forward;
        u.rules.status.advanced_full_speed = forward > 0 && forward >= allowance;
        if moved {
            p.record.moved.insert(
                u.id.clone(),
                Moved {
                    distance: used,
                    allowance,
                },
            );
        }
    }
    *state = owned;
}

/// The allowance of unit `i` for the turn at full speed, before command.
fn allowance(state: &State, field: &Field, i: usize) -> Hundredths {
    let u = &state.units[i];
    let Some(r) = rates(u.rules.troop_type, nation_of(state, &u.side)) else {
        return 0;
    };
    if u.rules.formation == Formation::Skirmish && !u.rules.status.screening.is_empty() {
        // "you may advance the screen at column speed if it is screening a
        // series of advancing columns, and no part of the screen is more
        // than two inches from the columns".
        let own = field.rect(i);
        let all_columns = u.rules.status.screening.iter().all(|s| {
            field.index(s).is_some_and(|j| {
                state.units[j].rules.formation == Formation::Column
                    && match (own, field.rect(j)) {
                        (Some(a), Some(b)) => geometry::rect_is_within(&a, &b, 200),
                        _ => false,
                    }
            })
        });
        if all_columns {
            return r.column;
        }
    }
    // Regimental Guns: the gun "must be in contact with it at all times"
    // and "moves at manhandled (line) speed", so the battalion keeps to it.
    if moves_at_column_rate(u.rules.formation) && !super::fighting::regimental_gun(state, i) {
        r.column
    } else {
        r.line
    }
}

fn carry_out(
    p: &mut Phase,
    line: usize,
    order: &StcOrder,
    passive: &[SideOrders],
    dice: &mut dyn Dice,
) {
    let id = order.unit().as_str();
    if let Some(g) = p.state.generals.iter().position(|g| g.id == id) {
        general_order(p, g, order);
        return;
    }
    let Some(i) = p.field.index(id) else {
        return;
    };
    if p.state.units[i].eliminated.is_some() {
        return;
    }
    if p.record.reforming.contains(id)
        && (moves(order) || matches!(order, StcOrder::Form { .. } | StcOrder::Face { .. }))
    {
        p.impossible(
            i,
            "move",
            "it stands this turn to reform (Steadiness and Disorder)",
        );
        return;
    }
    let _ = line;
    match order {
        StcOrder::Hold { .. } => {
            let (id, name) = (p.id(i), p.name(i));
            p.event("hold", &[&id], format!("{name} stands fast."));
        }
        StcOrder::Move {
            road,
            steps,
            through,
            ..
        } => {
            let steps: Vec<Step> = steps.iter().map(kernel_step).collect();
            if super::boats::in_boats(&p.state.units[i]) {
                super::boats::row(p, i, &steps);
                return;
            }
            let through: Vec<usize> = through
                .iter()
                .filter_map(|t| p.field.index(t.as_str()))
                .collect();
            move_unit(p, i, &steps, &through, *road, "move");
        }
        StcOrder::Form {
            formation, facing, ..
        } => maneuver(p, i, Some(*formation), *facing),
        StcOrder::Face { facing, .. } => maneuver(p, i, None, Some(*facing)),
        StcOrder::Manhandle { to, toward, .. } | StcOrder::MoveTo { to, toward, .. } => {
            free_move(p, i, to, toward.as_ref());
        }
        StcOrder::LeaveGuns { to, .. } => leave_guns(p, i, to.as_ref()),
        StcOrder::ManGuns { .. } => man_guns(p, i),
        StcOrder::Charge {
            target,
            approach,
            through,
            ..
        } => {
            let through: Vec<usize> = through
                .iter()
                .filter_map(|t| p.field.index(t.as_str()))
                .collect();
            if let Some(t) = p.field.index(target.as_str()) {
                super::charge::charge(p, i, t, *approach, &through, passive, dice);
            }
        }
        StcOrder::Reinforce { friend, .. } => {
            if let Some(f) = p.field.index(friend.as_str()) {
                super::charge::reinforce(p, i, f);
            }
        }
        StcOrder::Retreat { distance, .. } => voluntary_retreat(p, i, *distance),
        StcOrder::SkirmishersOut { .. } => {
            p.state.units[i].rules.status.skirmishers_out = true;
            let (id, name) = (p.id(i), p.name(i));
            p.event(
                "skirmishers-out",
                &[&id],
                format!("{name} sends out its skirmishers."),
            );
        }
        StcOrder::SkirmishersIn { .. } => {
            p.state.units[i].rules.status.skirmishers_out = false;
            let (id, name) = (p.id(i), p.name(i));
            p.event(
                "skirmishers-in",
                &[&id],
                format!("{name} calls in its skirmishers."),
            );
        }
        StcOrder::Screen { screened, .. } => {
            p.state.units[i].rules.status.screening =
                screened.iter().map(|s| s.as_str().to_string()).collect();
            // A screen formed before it moves advances at the columns' rate.
            if !p.movers[i].moved {
                let full = allowance(p.state, &p.field, i);
                p.movers[i].allowance = if p.movers[i].in_command {
                    full
                } else {
                    full / 2
                };
            }
            let (id, name) = (p.id(i), p.name(i));
            p.event(
                "screen",
                &[&id],
                format!(
                    "{name} screens {}.",
                    screened
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
            );
        }
        StcOrder::Reform { .. } => {
            p.record.reforming.insert(p.id(i));
        }
        StcOrder::Embark { boat, .. } => super::boats::embark(p, i, boat.as_str()),
        StcOrder::Disembark { .. } => super::boats::disembark(p, i),
        // Shooting is the next phase's; evades answer charges; generals'
        // orders are handled above.
        StcOrder::Shoot { .. }
        | StcOrder::Evade { .. }
        | StcOrder::Attach { .. }
        | StcOrder::Detach { .. } => {}
    }
}

/// Moves unit `i` along `steps`.
pub fn move_unit(
    p: &mut Phase,
    i: usize,
    steps: &[Step],
    through: &[usize],
    road: bool,
    what: &str,
) {
    let Some(start) = p.field.rect(i) else {
        return;
    };
    if p.movers[i].moved {
        p.impossible(i, what, "it has already moved this turn");
        return;
    }
    let u = p.state.units[i].clone();
    if let Some((why, clause)) = may_not_move(u.rules.formation) {
        p.impossible(i, what, &format!("{why} ({clause})"));
        return;
    }
    if u.rules.troop_type.arm() == Arm::Artillery && u.rules.formation == Formation::Unlimbered {
        p.impossible(
            i,
            what,
            &format!("unlimbered guns are manhandled (`manhandle to x,y`) or limbered first ({ARTILLERY_MOVEMENT})"),
        );
        return;
    }
    let free = u.rules.formation == Formation::Skirmish;
    let bypass = p.bypassable(&u.side, swept_box(&start, steps));
    let rules = PathRules {
        through,
        exempt: &[],
        road,
        free,
        bypass: &bypass,
    };
    let plan = match plan_path(&p.field, &u, i, &start, steps, &rules) {
        Ok(plan) => plan,
        Err(b) => {
            // A move longer than the unit can go is that first, whatever
            // stands in its way further on.
            let left = p.remaining(i) * if road { 2 } else { 1 };
            let least = least_cost(&u, &start, steps, free);
            if least > left {
                p.impossible(
                    i,
                    what,
                    &format!(
                        "the move costs at least {} of movement and only {} is left ({MOVEMENT_TABLE})",
                        inches(least),
                        inches(left)
                    ),
                );
            } else {
                p.impossible(i, what, &b.reason);
            }
            return;
        }
    };
    let close_order_passed: Vec<usize> = plan
        .passed
        .iter()
        .copied()
        .filter(|&j| p.state.units[j].rules.formation != Formation::Skirmish)
        .collect();
    // "Close-order troops may move or charge through a friendly unit at
    // half speed." (STC-45: the whole move is at half speed.)
    let through_factor = if close_order_passed.is_empty() || free {
        1
    } else {
        2
    };
    let mut allowance = p.remaining(i);
    if road {
        // "A column or limbered battery spending its entire turn on a road
        // moves at 2X speed".
        if p.movers[i].used > 0 {
            p.impossible(
                i,
                what,
                "a road move must spend the entire turn on the road (Terrain Suggestions, Roads)",
            );
            return;
        }
        allowance *= 2;
    }
    let mut cost = plan.cost * through_factor;
    // Towns: "It costs half a move to emerge from a block (unless
    // retreating)".
    let in_town = |r: &Rect| p.field.is_on(r, "town-block") || p.field.is_on(r, "chateau");
    if in_town(&start) && !in_town(&plan.end) {
        cost += p.movers[i].allowance / 2;
    }
    if let Some(why) = super::town::over_capacity(&p.field, i, &plan.end) {
        p.impossible(i, what, &why);
        return;
    }
    // Fieldworks: "It costs a full move to cross a line of fieldworks": the
    // crossing must be the unit's whole move this turn.
    if plan.crosses_works {
        if p.movers[i].used > 0 {
            p.impossible(
                i,
                what,
                "crossing a line of fieldworks takes a full move (Terrain Suggestions, Fieldworks)",
            );
            return;
        }
        cost = cost.max(p.movers[i].allowance);
    }
    if cost > allowance {
        p.impossible(
            i,
            what,
            &format!(
                "the move costs {} of movement and only {} is left ({MOVEMENT_TABLE})",
                inches(cost),
                inches(allowance)
            ),
        );
        return;
    }
    for &j in &close_order_passed {
        if p.movers[j].moved || p.movers[j].maneuvered {
            let name = p.name(j);
            p.impossible(
                i,
                what,
                &format!("{name} has moved this turn; \"the other unit must stand still while you move through it\" ({INTERPENETRATION})"),
            );
            return;
        }
    }
    p.movers[i].used += if road { p.movers[i].allowance } else { cost };
    p.movers[i].moved = true;
    p.movers[i].forward += plan.forward;
    p.place(i, plan.end);
    if plan.disorders && !p.state.units[i].rules.disordered {
        p.state.units[i].rules.disordered = true;
        let (id, name) = (p.id(i), p.name(i));
        p.event(
            "disordered",
            &[&id],
            format!("{name} is disordered by the ground it crossed (Steadiness and Disorder, 1)."),
        );
    }
    let (id, name) = (p.id(i), p.name(i));
    let end = plan.end.front_centre;
    p.event(
        "move",
        &[&id],
        format!(
            "{name} moves to {},{} facing {}.",
            coord(end.x),
            coord(end.y),
            plan.end.facing
        ),
    );
    p.settle(i);
}

/// A formation and/or facing change about the front centre.
pub fn maneuver(p: &mut Phase, i: usize, formation: Option<Formation>, facing: Option<Facing>) {
    let what = "change formation or facing";
    if p.movers[i].maneuvered {
        p.impossible(
            i,
            what,
            "\"Only one formation/facing change per turn is allowed\" (Maneuvers)",
        );
        return;
    }
    let u = p.state.units[i].clone();
    let (halves, disorders) = match formation {
        Some(f) => maneuver_cost(p.state, &u, f),
        None => {
            let (h, d) = maneuver_cost(p.state, &u, Formation::Line);
            (h.max(1), d)
        }
    };
    let cost = p.movers[i].allowance * Hundredths::from(halves) / 2;
    if halves == 2 && p.movers[i].used > 0
        || p.movers[i].used + cost > p.movers[i].allowance && halves == 1
    {
        p.impossible(
            i,
            what,
            "it has not the time left this turn (Maneuvers: \"½ move for steady A-B, 1 move for steady C, 1 move plus disorder for D\")",
        );
        return;
    }
    let mut spec = u.clone();
    if let Some(f) = formation {
        spec.rules.formation = f;
    }
    if let Some(c) = facing {
        let turn = match c {
            Facing::Left => FacingChange::Left,
            Facing::Right => FacingChange::Right,
            Facing::About => FacingChange::About,
        };
        spec.facing = (spec.facing + turn.degrees()) % 360;
    }
    let Some(rect) = basing::footprint(&spec) else {
        p.impossible(i, what, "the formation has no footprint");
        return;
    };
    if let Some((w, d)) = p.field.table()
        && !rect.is_inside_table(w, d)
    {
        p.impossible(i, what, "the new formation would not fit on the table");
        return;
    }
    let hit = p.field.overlapping(&rect, &[i]);
    if let Some(&j) = hit.first() {
        let other = p.name(j);
        p.impossible(
            i,
            what,
            &format!("the new formation would run into {other}"),
        );
        return;
    }
    p.movers[i].used = (p.movers[i].used + cost).max(if halves == 2 {
        p.movers[i].allowance
    } else {
        0
    });
    p.movers[i].maneuvered = true;
    // The rest of the turn is at the new formation's rate (STC-54): the
    // share of the turn used is kept, the allowance is the new one.
    let old_allowance = p.movers[i].allowance;
    let mut changed = p.state.clone();
    changed.units[i].rules.formation = spec.rules.formation;
    let fresh = allowance(&changed, &p.field, i);
    let fresh = if p.movers[i].in_command {
        fresh
    } else {
        fresh / 2
    };
    if old_allowance > 0 {
        p.movers[i].used = p.movers[i].used * fresh / old_allowance;
    }
    p.movers[i].allowance = fresh;
    p.record.maneuvered.insert(u.id.clone());
    p.state.units[i].rules.formation = spec.rules.formation;
    p.state.units[i].facing = spec.facing;
    p.place(i, rect);
    let (id, name) = (p.id(i), p.name(i));
    let time = if halves == 1 {
        "half a turn"
    } else {
        "the whole turn"
    };
    p.event(
        "maneuver",
        &[&id],
        format!(
            "{name} forms {} facing {} ({time}).",
            spec.rules.formation, spec.facing
        ),
    );
    // "The unit becomes disordered if it is Grade D. The unit becomes shaken
    // if already disordered."
    if u.rules.disordered {
        p.state.units[i].rules.shaken = true;
        p.event(
            "shaken",
            &[&id],
            format!("{name} maneuvered while disordered and is shaken (Maneuvers)."),
        );
    } else if disorders {
        p.state.units[i].rules.disordered = true;
        p.event(
            "disordered",
            &[&id],
            format!("{name} is Grade D and is disordered by the maneuver (Maneuvers)."),
        );
    }
    // Pinning: "If a unit performs any maneuver other than a wheel within 4
    // inches of any enemy unit, the maneuvering unit becomes shaken at
    // once."
    if super::fighting::option(p.state, "pinning") {
        let side = u.side.clone();
        let near = p
            .field
            .enemies_near(&side, bounds(&rect), PINNING_RANGE)
            .into_iter()
            .any(|j| {
                p.field
                    .rect(j)
                    .is_some_and(|r| geometry::rect_is_within(&rect, &r, PINNING_RANGE))
            });
        if near && !p.state.units[i].rules.shaken {
            p.state.units[i].rules.shaken = true;
            p.event(
                "shaken",
                &[&id],
                format!("{name} maneuvered within 4\" of the enemy and is shaken (Optional Rules, Pinning)."),
            );
        }
    }
}

/// The point a place names: a spot, or a unit's front centre (a general's
/// spot).
fn place_point(p: &Phase, place: &Place) -> Option<Point> {
    match place {
        Place::Point { x, y } => Some(Point {
            x: Hundredths::from(*x),
            y: Hundredths::from(*y),
        }),
        Place::Unit(r) => {
            if let Some(i) = p.field.index(r.as_str()) {
                return p.field.rect(i).map(|r| r.centre());
            }
            p.state
                .generals
                .iter()
                .position(|g| g.id == r.as_str())
                .and_then(|g| p.field.general_at(g))
        }
    }
}

/// The facing, in whole degrees, from one point toward another.
fn facing_toward(from: Point, to: Point) -> Option<u32> {
    bearing(from, to).map(|c| (((c + 50) / 100) % 360) as u32)
}

/// Skirmishers and manhandled guns "may move and face freely in any
/// direction"; gunners away from their guns move like skirmishers.
fn free_move(p: &mut Phase, i: usize, to: &Place, toward: Option<&Place>) {
    let what = "move there";
    let Some(target) = place_point(p, to) else {
        p.impossible(i, what, "the place is not on the table");
        return;
    };
    if let Some(from) = p.state.units[i].rules.status.gunners_at {
        // Gunners away from their guns.
        let d = distance(from, target);
        if d > GUNNER_MOVE {
            p.impossible(i, what, &format!("gunners move 4\" like skirmishers and the spot is {} away ({ARTILLERY_MOVEMENT})", inches(d)));
            return;
        }
        p.state.units[i].rules.status.gunners_at = Some(target);
        let (id, name) = (p.id(i), p.name(i));
        p.event(
            "gunners-move",
            &[&id],
            format!(
                "The gunners of {name} move to {},{}.",
                coord(target.x),
                coord(target.y)
            ),
        );
        return;
    }
    let Some(start) = p.field.rect(i) else {
        return;
    };
    let u = p.state.units[i].clone();
    let facing = toward
        .and_then(|t| place_point(p, t))
        .and_then(|t| facing_toward(target, t))
        .unwrap_or(start.facing);
    let end = Rect {
        front_centre: target,
        facing,
        ..start
    };
    let d = distance(start.front_centre, target);
    let mut factor = 1;
    for r in [&end] {
        match ground(&p.field, &u, r) {
            Ok(g) => factor = factor.max(g.factor),
            Err(b) => {
                p.impossible(i, what, &b.reason);
                return;
            }
        }
    }
    let cost = d * factor;
    if cost > p.remaining(i) || p.movers[i].moved {
        p.impossible(
            i,
            what,
            &format!(
                "the move costs {} and only {} is left ({MOVEMENT_TABLE})",
                inches(cost),
                inches(p.remaining(i))
            ),
        );
        return;
    }
    if let Some((w, dd)) = p.field.table()
        && !end.is_inside_table(w, dd)
    {
        p.impossible(i, what, "the move would leave the table");
        return;
    }
    let side = u.side.clone();
    let turned = Rect { facing, ..start };
    let area = box_of(&turned, &end);
    let (others, rects) = p.field.rects_near_except(area, ZONE_OF_CONTROL, &[i]);
    let mut hits = geometry::straight_move_hits(&turned, target, &rects);
    hits.retain(|&k| p.state.units[others[k]].side != side);
    if let Some(&k) = hits.first() {
        let other = p.name(others[k]);
        p.impossible(i, what, &format!("the way is blocked by the enemy {other}"));
        return;
    }
    let bypass = p.bypassable(&side, area);
    if let Some(&j) = p.field.zone_of_control(&end, &side, &bypass).first() {
        let other = p.name(j);
        p.impossible(
            i,
            what,
            &format!("the move would end within 1\" of the enemy {other} ({ZONES})"),
        );
        return;
    }
    p.movers[i].used += cost;
    p.movers[i].moved = true;
    p.place(i, end);
    let (id, name) = (p.id(i), p.name(i));
    p.event(
        "move",
        &[&id],
        format!(
            "{name} moves to {},{} facing {facing}.",
            coord(target.x),
            coord(target.y)
        ),
    );
    p.settle(i);
}

fn leave_guns(p: &mut Phase, i: usize, to: Option<&Place>) {
    let Some(rect) = p.field.rect(i) else {
        return;
    };
    // Without a spot, the gunners stand 1" behind the guns (STC-46).
    let behind = geometry::backstep(&rect, rect.depth + 100).front_centre;
    let spot = to.and_then(|t| place_point(p, t)).unwrap_or(behind);
    let d = geometry::distance_to_rect(spot, &rect);
    if d > GUNNER_MOVE {
        p.impossible(i, "leave the guns", &format!("gunners move 4\" like skirmishers and the spot is {} from the guns ({ARTILLERY_MOVEMENT})", inches(d)));
        return;
    }
    p.state.units[i].rules.status.gunners_at = Some(spot);
    p.movers[i].moved = true;
    let (id, name) = (p.id(i), p.name(i));
    p.event(
        "gunners-leave",
        &[&id],
        format!(
            "The gunners of {name} leave their guns for {},{}.",
            coord(spot.x),
            coord(spot.y)
        ),
    );
}

fn man_guns(p: &mut Phase, i: usize) {
    let (Some(rect), Some(at)) = (p.field.rect(i), p.state.units[i].rules.status.gunners_at) else {
        return;
    };
    let d = geometry::distance_to_rect(at, &rect);
    if d > GUNNER_MOVE {
        p.impossible(
            i,
            "return to the guns",
            &format!(
                "the gunners are {} from their guns and move 4\" ({ARTILLERY_MOVEMENT})",
                inches(d)
            ),
        );
        return;
    }
    p.state.units[i].rules.status.gunners_at = None;
    p.movers[i].moved = true;
    let (id, name) = (p.id(i), p.name(i));
    p.event(
        "gunners-return",
        &[&id],
        format!("The gunners of {name} return to their guns."),
    );
}

fn general_order(p: &mut Phase, g: usize, order: &StcOrder) {
    let gid = p.state.generals[g].id.clone();
    let gname = p.state.generals[g].name.clone();
    let Some(from) = p.field.general_at(g) else {
        return;
    };
    let refuse = |p: &mut Phase, reason: String| {
        p.events.push(Event {
            kind: "order-impossible".to_string(),
            units: vec![gid.clone()],
            text: format!("{gname} cannot go there: {reason}."),
        });
    };
    match order {
        StcOrder::MoveTo { to, .. } => {
            let Some(target) = place_point(p, to) else {
                return;
            };
            let d = distance(from, target);
            if d > GENERAL_MOVE {
                refuse(
                    p,
                    format!(
                        "generals move 18\" and the spot is {} away (Generals)",
                        inches(d)
                    ),
                );
                return;
            }
            if let Some((w, dd)) = p.field.table()
                && !geometry::is_on_table(target, w, dd)
            {
                refuse(p, "the spot is off the table".to_string());
                return;
            }
            let gs = &mut p.state.generals[g];
            gs.attached_to = None;
            gs.location = Location::Table {
                x: target.x,
                y: target.y,
            };
            p.events.push(Event {
                kind: "general-move".to_string(),
                units: vec![gid.clone()],
                text: format!("{gname} rides to {},{}.", coord(target.x), coord(target.y)),
            });
        }
        StcOrder::Attach { to, .. } => {
            let Some(i) = p.field.index(to.as_str()) else {
                return;
            };
            let Some(rect) = p.field.rect(i) else {
                return;
            };
            let d = geometry::distance_to_rect(from, &rect);
            if d > GENERAL_MOVE {
                refuse(
                    p,
                    format!(
                        "generals move 18\" and the unit is {} away (Generals)",
                        inches(d)
                    ),
                );
                return;
            }
            let at = rect.centre();
            let gs = &mut p.state.generals[g];
            gs.attached_to = Some(to.as_str().to_string());
            gs.location = Location::Table { x: at.x, y: at.y };
            let uname = p.name(i);
            p.events.push(Event {
                kind: "general-attach".to_string(),
                units: vec![gid.clone(), to.as_str().to_string()],
                text: format!("{gname} attaches himself to {uname}."),
            });
        }
        StcOrder::Detach { .. } => {
            let gs = &mut p.state.generals[g];
            gs.attached_to = None;
            gs.location = Location::Table {
                x: from.x,
                y: from.y,
            };
            p.events.push(Event {
                kind: "general-detach".to_string(),
                units: vec![gid.clone()],
                text: format!("{gname} leaves the unit he was with."),
            });
        }
        _ => {}
    }
}

/// Generals: "If a lone general is contacted by an enemy unit, roll a die:
/// On a '1' the general is captured; otherwise he may be moved up to nine
/// inches out of harm's way." Checked for the passive side's lone generals
/// after the active side has moved, in the order of the generals.
fn generals_contacted(p: &mut Phase, dice: &mut dyn Dice) {
    let active = p.state.active_side.clone();
    for g in 0..p.state.generals.len() {
        let general = &p.state.generals[g];
        if general.side == active || general.lost.is_some() || general.attached_to.is_some() {
            continue;
        }
        let Some(at) = p.field.general_at(g) else {
            continue;
        };
        let side = general.side.clone();
        let contact: Vec<usize> = p
            .field
            .enemies_near(&side, (at.x, at.y, at.x, at.y), 50)
            .into_iter()
            .filter(|&j| {
                p.field
                    .rect(j)
                    .is_some_and(|r| geometry::distance_to_rect(at, &r) <= 50)
            })
            .collect();
        let Some(&j) = contact.first() else {
            continue;
        };
        let (gid, gname) = (general.id.clone(), general.name.clone());
        let roll = dice.roll(Die::D6, &format!("lone general contacted: {gname}"));
        if roll == 1 {
            p.state.generals[g].lost = Some("captured".to_string());
            p.events.push(Event {
                kind: "general-captured".to_string(),
                units: vec![gid],
                text: format!(
                    "{gname} is caught alone by {} and captured (rolled 1) (Generals).",
                    p.state.units[j].name
                ),
            });
            continue;
        }
        // Out of harm's way: straight away from the enemy, 1" clear of every
        // enemy, at most 9" (STC-47).
        let Some(rect) = p.field.rect(j) else {
            continue;
        };
        let mut placed = None;
        let mut d = 100;
        while d <= GENERAL_ESCAPE {
            if let Some(v) = direction_away(rect.centre(), at, d) {
                let q = Point {
                    x: at.x + v.x,
                    y: at.y + v.y,
                };
                let clear = p
                    .field
                    .enemies_near(&side, (q.x, q.y, q.x, q.y), 100)
                    .into_iter()
                    .all(|k| {
                        p.field
                            .rect(k)
                            .is_none_or(|r| geometry::distance_to_rect(q, &r) >= 100)
                    });
                let on = p
                    .field
                    .table()
                    .is_none_or(|(w, dd)| geometry::is_on_table(q, w, dd));
                if clear && on {
                    placed = Some(q);
                    break;
                }
            }
            d += 50;
        }
        match placed {
            Some(q) => {
                p.state.generals[g].location = Location::Table { x: q.x, y: q.y };
                p.events.push(Event {
                    kind: "general-escapes".to_string(),
                    units: vec![gid],
                    text: format!(
                        "{gname} is contacted by {} but escapes (rolled {roll}) to {},{}.",
                        p.state.units[j].name,
                        coord(q.x),
                        coord(q.y)
                    ),
                });
            }
            None => {
                p.state.generals[g].lost = Some("captured".to_string());
                p.events.push(Event {
                    kind: "general-captured".to_string(),
                    units: vec![gid],
                    text: format!(
                        "{gname} is contacted by {} and has nowhere within 9\" to go: captured.",
                        p.state.units[j].name
                    ),
                });
            }
        }
    }
}

/// Voluntary Retreat (optional rule): "up to 18" long, taken on a line away
/// from the nearest enemy unit [...] The unit must end the retreat farther
/// from all enemy units than it started, and at least four inches from the
/// nearest enemy unit [...] The unit suffers one rout hit and becomes
/// shaken. If the unit was already shaken, it suffers two rout hits and
/// remains shaken."
fn voluntary_retreat(p: &mut Phase, i: usize, wanted: Option<u32>) {
    let what = "retreat";
    let Some(start) = p.field.rect(i) else {
        return;
    };
    let side = p.state.units[i].side.clone();
    let enemies: Vec<(usize, Rect)> = p
        .field
        .enemies_of(&side)
        .filter_map(|j| p.field.rect(j).map(|r| (j, r)))
        .collect();
    let Some(&(_, nearest)) = enemies
        .iter()
        .min_by_key(|(j, r)| (geometry::rect_distance(&start, r), *j))
    else {
        p.impossible(i, what, "there is no enemy to retreat from");
        return;
    };
    let from = geometry::nearest_point_of_rect(start.centre(), &nearest);
    let before: Vec<Hundredths> = enemies
        .iter()
        .map(|(_, r)| geometry::rect_distance(&start, r))
        .collect();
    let fits = |r: &Rect| {
        enemies
            .iter()
            .zip(&before)
            .all(|((_, e), b)| geometry::rect_distance(r, e) > *b)
            && enemies
                .iter()
                .all(|(_, e)| geometry::rect_distance(r, e) >= VOLUNTARY_RETREAT_CLEAR)
            && p.field.overlapping(r, &[i]).is_empty()
            && p.field.table().is_none_or(|(w, d)| r.is_inside_table(w, d))
    };
    let shift = |d: Hundredths| {
        direction_away(from, start.centre(), d).map(|v| Rect {
            front_centre: Point {
                x: start.front_centre.x + v.x,
                y: start.front_centre.y + v.y,
            },
            ..start
        })
    };
    let end = match wanted {
        Some(d) => shift(Hundredths::from(d).min(VOLUNTARY_RETREAT_MOST)).filter(|r| fits(r)),
        None => (1..=VOLUNTARY_RETREAT_MOST / 25)
            .map(|k| k * 25)
            .filter_map(shift)
            .find(|r| fits(r)),
    };
    let Some(end) = end else {
        p.impossible(
            i,
            what,
            "no retreat of up to 18\" ends farther from every enemy, at least 4\" from the nearest, and clear of other units (Optional Rules, Voluntary Retreat, 1)",
        );
        return;
    };
    let (others, rects) = p.field.rects_except(&[i]);
    let hits = geometry::straight_move_hits(&start, end.front_centre, &rects);
    if let Some(&k) = hits
        .iter()
        .find(|&&k| p.state.units[others[k]].side != side)
    {
        let other = p.name(others[k]);
        p.impossible(
            i,
            what,
            &format!("the way back is blocked by the enemy {other}"),
        );
        return;
    }
    let hits_taken = if p.state.units[i].rules.shaken { 2 } else { 1 };
    p.movers[i].moved = true;
    p.movers[i].used = p.movers[i].allowance;
    p.place(i, end);
    let u = &mut p.state.units[i];
    u.rules.shaken = true;
    u.rules.status.rout_hits += hits_taken;
    u.strength = u.strength.saturating_sub(hits_taken);
    let (id, name) = (p.id(i), p.name(i));
    p.event(
        "voluntary-retreat",
        &[&id],
        format!(
            "{name} retreats {} to {},{}, shaken, and suffers {hits_taken} rout hit{}.",
            inches(distance(start.front_centre, end.front_centre)),
            coord(end.front_centre.x),
            coord(end.front_centre.y),
            if hits_taken == 1 { "" } else { "s" }
        ),
    );
    let r = basing::footprint(&p.state.units[i]);
    p.field.set_rect(i, r);
}

/// A coordinate in inches, without the mark: `36`, `12.5`.
pub fn coord(h: Hundredths) -> String {
    crate::rules::words::inches(h)
}

/// Hundredths of an inch as inches with the inch mark: `4"`, `2.5"`.
pub fn inches(h: Hundredths) -> String {
    format!("{}\"", crate::rules::words::inches(h))
}

/// Whether unit `i` is in contact with `j`.
pub fn in_contact(field: &Field, i: usize, j: usize) -> bool {
    match (field.rect(i), field.rect(j)) {
        (Some(a), Some(b)) => touches(&a, &b),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_troop_type_charges_farther_than_the_longest_charge() {
        let troops = [
            "line-infantry",
            "light-infantry",
            "heavy-cavalry",
            "medium-cavalry",
            "light-cavalry",
            "horse-guns",
            "light-guns",
            "field-guns",
            "heavy-guns",
        ];
        let nations = [
            None,
            Some(Nation::Austria),
            Some(Nation::Russia),
            Some(Nation::France),
        ];
        let longest = troops
            .iter()
            .filter_map(|t| TroopType::from_word(t))
            .flat_map(|t| nations.iter().filter_map(move |n| rates(t, *n)))
            .filter_map(|r| r.charge.map(|bonus| r.line.max(r.column) + bonus))
            .max();
        assert_eq!(longest, Some(LONGEST_CHARGE));
    }
}
