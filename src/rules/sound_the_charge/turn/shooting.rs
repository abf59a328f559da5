//! The shooting phase: "The active side then does all shooting with eligible
//! units. Passive units test if hit by shooting."
//!
//! An order `shoot` is checked twice. When it is given, [`validate`] refuses
//! what the rules forbid outright (cavalry, shaken or charging units, guns
//! that move, ...), and the acknowledgement (`foresee`) tries it with this
//! phase's own checks ([`may_fire`]: range, arc, sight, split fire) on the
//! table the side's moves leave, refusing it when it would certainly fail
//! (ruling STC-100). When the phase is resolved, [`resolve`] measures again
//! on the table as movement left it; an order that has become impossible
//! is an outcome with its reason. The dice,
//! the band and every modifier come from the umpire call's own code
//! ([`crate::rules::sound_the_charge::mechanics::shooting::resolve`] and
//! [`crate::rules::sound_the_charge::mechanics::morale::resolve`]), so a turn and an
//! umpire call given the same facts give the same answer.

use super::fighting::{
    Cover, Deployment, TurnFacts, apply_hits, apply_rout_hits, arm_of, event, formation_of,
    front_rank_figures, general_attached, grade_of, in_play, is_dense, nation_of, option,
    shooting_cover, troop_of, wider_basing,
};
use super::retreat::{self, Cause};
use super::{SideOrders, TurnRecord};
use crate::audit::dice::Dice;
use crate::geometry::{
    ARC_OF_FIRE, Rect, bounce_through_line, distance, distance_to_rect, figure_front_centres,
    is_enfiladed, nearest_point_of_rect, rect_distance, rect_is_in_arc, segment_touches_rect,
};
use crate::geometry::{Hundredths, Point};
use crate::rules::orders::Rejection;
use crate::rules::ruleset::Event;
use crate::rules::sound_the_charge::events::Kind;
use crate::rules::sound_the_charge::mechanics::morale::{self, MoraleCall};
use crate::rules::sound_the_charge::mechanics::shooting::{
    self as table, ShootingCall, ShootingTarget,
};
use crate::rules::sound_the_charge::orders::Formation;
use crate::rules::sound_the_charge::orders::{StcOrder, UnitId};
use crate::rules::sound_the_charge::sight;
use crate::rules::sound_the_charge::state::{State, Unit};
use crate::rules::sound_the_charge::tables::{self, Arm, Troop};
use crate::rules::told::About;

const GENERAL: &str = "Shooting, General Rules";
const SPLITTING: &str = "Splitting Fire";

/// A shooting order once its units are known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shot {
    /// The order's line, for reports.
    pub line: usize,
    pub firer: String,
    pub target: String,
    /// Split Fire: the second target.
    pub split: Option<String>,
    /// Shooting Through Skirmishers: "Artillery may choose to fire through
    /// skirmishers, hitting a rearward target instead".
    pub through_skirmishers: bool,
    /// Regimental Guns: "the enemy may choose to shoot at the regimental gun
    /// with one of its dice".
    pub at_gun: bool,
}

/// Why a shot cannot be made, with the clause that says so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoShot {
    pub problem: String,
    pub clause: String,
    /// The units the problem names besides the firer and its target (the
    /// unit standing in the line of fire), by id.
    pub naming: Vec<String>,
}

impl NoShot {
    fn new(problem: impl Into<String>, heading: &str, quote: &str) -> NoShot {
        NoShot {
            naming: Vec::new(),
            problem: problem.into(),
            clause: if quote.is_empty() {
                heading.to_string()
            } else {
                format!("{heading}: \"{quote}\"")
            },
        }
    }
}

fn reject(line: usize, unit: &str, why: NoShot) -> Rejection {
    Rejection {
        line,
        unit: Some(unit.to_string()),
        problem: why.problem,
        clause: Some(why.clause),
    }
}

/// Checks a `shoot` order of `side` against the state and the side's other
/// orders this turn (`sheet`, naming units by id). Geometry is checked only when no order in the
/// sheet moves the firer, since movement comes before shooting.
pub fn validate(
    state: &State,
    side: &str,
    line: usize,
    order: &StcOrder,
    sheet: &[StcOrder],
) -> Result<Shot, Rejection> {
    validate_with(state, side, line, order, sheet, true)
}

/// [`validate`], measuring range, arc and sight on the table as it stands
/// only when `geometry` is set.
fn validate_with(
    state: &State,
    side: &str,
    line: usize,
    order: &StcOrder,
    sheet: &[StcOrder],
    geometry: bool,
) -> Result<Shot, Rejection> {
    let StcOrder::Shoot {
        unit,
        target,
        split,
        through_skirmishers,
        at_regimental_gun,
    } = order
    else {
        return Err(Rejection {
            line,
            unit: Some(order.unit().as_str().to_string()),
            problem: "not a shooting order".to_string(),
            clause: None,
        });
    };
    let name = unit.as_str();
    let refuse = |why: NoShot| reject(line, name, why);
    // The order's units were looked up by validation: they are ids.
    let Some(fi) = state.units.iter().position(|u| u.id == name) else {
        return Err(refuse(NoShot::new(
            "no unit of that id or name",
            "Orders",
            "",
        )));
    };
    let firer = &state.units[fi];
    if firer.side != side {
        return Err(refuse(NoShot::new("is not your unit", "Orders", "")));
    }
    let target_id = target_in_play(state, side, target).map_err(refuse)?;
    let split_id = match split {
        Some(s) => Some(target_in_play(state, side, s).map_err(refuse)?),
        None => None,
    };
    if split_id.as_deref() == Some(target_id.as_str()) {
        return Err(refuse(NoShot::new(
            "split fire names the same target twice",
            SPLITTING,
            "have the remaining figures shoot against another",
        )));
    }
    if *at_regimental_gun {
        gun_may_be_aimed_at(state, &target_id).map_err(refuse)?;
    }
    let others = OthersOrders::of(firer, order, sheet).map_err(refuse)?;
    eligibility(
        state,
        fi,
        *through_skirmishers,
        others.unlimbers,
        others.guns_moving,
        &TurnFacts::default(),
    )
    .map_err(refuse)?;
    let shot = Shot {
        line,
        firer: firer.id.clone(),
        target: target_id,
        split: split_id,
        through_skirmishers: *through_skirmishers,
        at_gun: *at_regimental_gun,
    };
    if geometry && !others.moves && !sheet.is_empty() {
        let table = Deployment::new(state);
        aim(state, &table, &shot).map_err(refuse)?;
    }
    Ok(shot)
}

/// A target's id, if it is an enemy still in play.
fn target_in_play(state: &State, side: &str, target: &UnitId) -> Result<String, NoShot> {
    let t = target.as_str();
    let Some(tu) = state.units.iter().find(|u| u.id == t) else {
        return Err(NoShot::new(format!("no target unit `{t}`"), "Orders", ""));
    };
    if tu.side == side {
        return Err(NoShot::new(
            format!("{} is a friendly unit", tu.name),
            "Shooting",
            "",
        ));
    }
    if !in_play(tu) {
        return Err(NoShot::new(
            format!("{} is no longer in play", tu.name),
            "Shooting",
            "",
        ));
    }
    Ok(tu.id.clone())
}

/// Regimental Guns: "When an enemy unit fires at the infantry, the enemy may
/// choose to shoot at the regimental gun with one of its dice", under the
/// optional rule, at a gun still in action.
fn gun_may_be_aimed_at(state: &State, target_id: &str) -> Result<(), NoShot> {
    if !option(state, "regimental-guns") {
        return Err(NoShot::new(
            "the Regimental Guns optional rule is not in force",
            "Regimental Guns",
            "",
        ));
    }
    let in_action = state
        .units
        .iter()
        .position(|u| u.id == target_id)
        .is_some_and(|ti| super::fighting::regimental_gun(state, ti));
    if !in_action {
        return Err(NoShot::new(
            format!("{target_id} has no regimental gun in action"),
            "Regimental Guns",
            "When an enemy unit fires at the infantry, the enemy may choose to shoot at the regimental gun with one of its dice",
        ));
    }
    Ok(())
}

/// What the firer's other orders of the sheet decide about its shot
/// (ruling STC-71): charging, reforming and gunners leaving their guns
/// forbid it; unlimbering, moving and maneuvering change it.
struct OthersOrders {
    unlimbers: bool,
    /// It moves or changes formation or facing: the shot's range and arc
    /// are judged where it ends, in the turn, not here.
    moves: bool,
    /// Guns that move this turn may not shoot.
    guns_moving: bool,
}

impl OthersOrders {
    fn of(firer: &Unit, order: &StcOrder, sheet: &[StcOrder]) -> Result<OthersOrders, NoShot> {
        // The sheet names its units by id (resolved), so the firer's other
        // orders are found without looking any unit up again.
        let others: Vec<&StcOrder> = sheet
            .iter()
            .filter(|o| o.unit().as_str() == firer.id && *o != order)
            .collect();
        let any = |f: fn(&StcOrder) -> bool| others.iter().any(|o| f(o));
        if any(|o| matches!(o, StcOrder::Charge { .. } | StcOrder::Reinforce { .. })) {
            return Err(NoShot::new(
                "a charging unit may not shoot",
                GENERAL,
                "Charging units may not shoot.",
            ));
        }
        if any(|o| matches!(o, StcOrder::Reform { .. })) {
            return Err(NoShot::new(
                "a unit that reforms this turn may not shoot",
                "Steadiness and Disorder",
                "The unit may not move, shoot, or be in combat on a turn during which it wishes to reform.",
            ));
        }
        if firer.rules.troop_type.arm() == Arm::Artillery
            && any(|o| matches!(o, StcOrder::LeaveGuns { .. }))
        {
            return Err(NoShot::new(
                "gunners who leave their guns cannot fire them",
                "Artillery Movement",
                "Gunners move like skirmishers when away from their guns.",
            ));
        }
        Ok(OthersOrders {
            unlimbers: any(|o| {
                matches!(
                    o,
                    StcOrder::Form {
                        formation: Formation::Unlimbered,
                        ..
                    }
                )
            }),
            moves: any(|o| {
                matches!(
                    o,
                    StcOrder::Move { .. }
                        | StcOrder::Manhandle { .. }
                        | StcOrder::MoveTo { .. }
                        | StcOrder::Form { .. }
                        | StcOrder::Face { .. }
                )
            }),
            guns_moving: any(|o| {
                matches!(
                    o,
                    StcOrder::Move { .. } | StcOrder::Manhandle { .. } | StcOrder::MoveTo { .. }
                )
            }),
        })
    }
}

/// Who may not shoot at all: Shooting, General Rules, and the rules on
/// gunners and skirmish screens.
fn eligibility(
    state: &State,
    fi: usize,
    through_skirmishers: bool,
    unlimbers: bool,
    guns_moving: bool,
    facts: &TurnFacts,
) -> Result<(), NoShot> {
    let u = &state.units[fi];
    let id = &u.id;
    if !in_play(u) {
        return Err(NoShot::new("the unit is no longer in play", GENERAL, ""));
    }
    let troop = troop_of(u);
    if troop.arm() == Arm::Cavalry {
        return Err(NoShot::new(
            "cavalry may not shoot",
            GENERAL,
            "Cavalry may not shoot.",
        ));
    }
    if u.rules.shaken {
        return Err(NoShot::new(
            "a shaken unit may not shoot",
            GENERAL,
            "Shaken units may not shoot.",
        ));
    }
    if super::boats::in_boats(u) {
        return Err(NoShot::new(
            "troops in boats may not shoot",
            "Optional Rules, Boats",
            "Troops in boats may not shoot.",
        ));
    }
    if facts.charged.contains(id) {
        return Err(NoShot::new(
            "a charging unit may not shoot",
            GENERAL,
            "Charging units may not shoot.",
        ));
    }
    if troop.arm() == Arm::Artillery {
        if u.rules.formation == Formation::Limbered && !unlimbers {
            return Err(NoShot::new(
                "limbered guns may not shoot",
                GENERAL,
                "roll [...] one die per unlimbered gun model",
            ));
        }
        if guns_moving || facts.moved.contains(id) {
            return Err(NoShot::new(
                "guns that move may not shoot",
                GENERAL,
                "Artillery may not move and shoot.",
            ));
        }
        if u.rules.gunners < 2 {
            return Err(NoShot::new(
                "no gun model has the two gunners it needs",
                GENERAL,
                "A gun model needs two gunners to shoot.",
            ));
        }
    } else {
        if through_skirmishers {
            return Err(NoShot::new(
                "infantry may not shoot through skirmishers",
                "Shooting Through Skirmishers",
                "Infantry may not shoot through skirmishers.",
            ));
        }
        if facts.beyond_half_speed.contains(id) {
            return Err(NoShot::new(
                "infantry that moved more than half speed may not shoot",
                GENERAL,
                "Infantry may move half speed and fire at a penalty.",
            ));
        }
    }
    Ok(())
}

/// What the firer's figures can do against one target, measured on the
/// table.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Aim {
    /// The range of each figure or gun model that can hit the target.
    ranges: Vec<Hundredths>,
    /// Figures that cannot, for split fire.
    left_over: Vec<Point>,
    /// Fired through a friendly skirmish screen of the target.
    screened: bool,
    /// The fire strikes the target's organic skirmish screen, which stands
    /// before it (Skirmish Screens: "Count hits on an organic screen as hits
    /// against the parent unit"; ruling STC-101).
    at_screen: bool,
    /// The line of fire runs within 22.5° of the target's frontage line.
    enfiladed: bool,
    cover: Cover,
}

/// The front centres of the firer's figures or models, and the facing they
/// fire along: a square fires from the face towards the target.
fn firing_figures(
    state: &State,
    table: &Deployment,
    fi: usize,
    target: &Rect,
) -> (Vec<Point>, u32) {
    let u = &state.units[fi];
    let Some(rect) = table.index.rects[fi] else {
        return (Vec::new(), 0);
    };
    let town = super::town::fire_out_figures(state, &table.ground, fi, &rect);
    let n = town.unwrap_or_else(|| front_rank_figures(u));
    if u.rules.formation == Formation::Square || town.is_some() {
        // "A square may fire from any face": the face whose facing is
        // nearest the bearing to the target.
        let c = rect.centre();
        let t = target.centre();
        let bearing = crate::geometry::bearing(c, t).unwrap_or(0);
        let rel = (bearing / 100 - i64::from(rect.facing)).rem_euclid(360);
        let turn = (((rel + 45) / 90) % 4) as u32 * 90;
        let facing = (rect.facing + turn) % 360;
        // A square's faces are alike; a unit in a town block fires out of
        // the side of its footprint towards the target, a flank as wide as
        // the footprint is deep.
        let (half, width) = if town.is_some() && turn.is_multiple_of(180) {
            (rect.depth / 2, rect.width)
        } else if town.is_some() {
            (rect.width / 2, rect.depth)
        } else {
            (rect.width / 2, rect.width)
        };
        let (dx, dy) = unit_step(facing);
        let face = Rect {
            front_centre: Point {
                x: c.x + dx * half,
                y: c.y + dy * half,
            },
            facing,
            width,
            depth: rect.depth,
        };
        return (figure_front_centres(&face, n), facing);
    }
    (figure_front_centres(&rect, n), rect.facing)
}

/// The unit step of a facing that is a multiple of 90 degrees.
fn unit_step(facing: u32) -> (i64, i64) {
    match facing % 360 {
        90 => (1, 0),
        180 => (0, -1),
        270 => (-1, 0),
        _ => (0, 1),
    }
}

/// What blocks one figure's line of fire, if anything: why, and the unit
/// that stands in the way, by id, where one does.
#[allow(clippy::too_many_arguments)]
fn blocked(
    state: &State,
    table: &Deployment,
    fi: usize,
    ti: usize,
    from: Point,
    to: Point,
    through_skirmishers: bool,
    screened: &mut bool,
) -> Option<(String, Option<String>)> {
    if sight::crest_between(from, to, table.ground.crests()) {
        return Some(("a crest line blocks the line of sight (Gentle Hill Slopes: \"block sighting past their crestlines\")".to_string(), None));
    }
    if let Some((kind, vis)) = sight::wood_across(state, &table.ground, from, to) {
        return Some((
            format!(
                "the line of sight runs more than {} inches through {kind} (\"Visibility and range inside {} is {} inches\")",
                vis / 100,
                kind.as_str().replace('-', " "),
                if vis == 600 { "six" } else { "four" }
            ),
            None,
        ));
    }
    let me = &state.units[fi];
    let guns = arm_of(me) == Arm::Artillery;
    for j in table.index.grid.along(from, to) {
        if j == fi || j == ti {
            continue;
        }
        let Some(r) = table.index.rects[j] else {
            continue;
        };
        if !segment_touches_rect(from, to, &r) {
            continue;
        }
        let other = &state.units[j];
        let enemy = other.side != me.side;
        if enemy && arm_of(other) == Arm::Artillery {
            // "a unit may fire freely through enemy guns, hitting a
            // rearward target instead."
            continue;
        }
        if enemy && other.rules.formation == Formation::Skirmish {
            if guns && through_skirmishers {
                *screened = true;
                continue;
            }
            let why = if guns {
                format!(
                    "{} screens the target; order `through skirmishers` to fire through them (Shooting Through Skirmishers)",
                    other.name
                )
            } else {
                format!(
                    "{} screens the target: \"Infantry may not shoot through skirmishers.\"",
                    other.name
                )
            };
            return Some((why, Some(other.id.clone())));
        }
        if guns && let Some(own) = table.index.rects[fi] {
            match super::overhead::fire_over(
                state,
                &table.ground,
                &own,
                from,
                to,
                &r,
                &other.name,
                !enemy,
            ) {
                Ok(()) => continue,
                Err(why) => return Some((why, Some(other.id.clone()))),
            }
        }
        return Some((
            format!("{} stands in the line of fire", other.name),
            Some(other.id.clone()),
        ));
    }
    None
}

/// Firing into a Close Combat: "You may not shoot at a unit in close combat
/// unless the unit has a "hanging flank" of at least 7 foot, 5 cavalry, or 2
/// guns not touching the enemy." Figures of the target's front whose own
/// frontage does not reach an engaged enemy hang free.
fn close_combat_bar(state: &State, table: &Deployment, fi: usize, ti: usize) -> Option<NoShot> {
    let t = &state.units[ti];
    let side = &state.units[fi].side;
    let rect = table.index.rects[ti]?;
    let engaged: Vec<Rect> = table
        .within(ti, super::fighting::CONTACT)
        .into_iter()
        .filter(|&j| state.units[j].side == *side)
        .filter_map(|j| table.index.rects[j])
        .collect();
    if engaged.is_empty() {
        return None;
    }
    // A figure's frontage in hundredths, as a fraction: infantry 3/8" is
    // 75/2, which a whole number would round to a figure too few or too many
    // along a line.
    let (need, per, per_den, word) = match arm_of(t) {
        Arm::Cavalry => (5, 50, 1, "cavalry"),
        Arm::Artillery => (2, 100, 1, "guns"),
        _ => (7, 75, 2, "foot"),
    };
    let figures = t.strength.min(
        u32::try_from(rect.width * per_den / per)
            .unwrap_or(0)
            .max(1),
    );
    // A figure hangs free when no engaged enemy lies within a figure's
    // frontage of its front centre.
    let per = (per + per_den - 1) / per_den;
    let free = figure_front_centres(&rect, figures)
        .into_iter()
        .filter(|p| engaged.iter().all(|e| distance_to_rect(*p, e) > per))
        .count();
    (free < need).then(|| {
        NoShot::new(
            format!(
                "{} is in close combat and has {free} {word} hanging free, not the {need} it needs",
                t.name
            ),
            "Firing into a Close Combat",
            "You may not shoot at a unit in close combat unless the unit has a \"hanging flank\" of at least 7 foot, 5 cavalry, or 2 guns not touching the enemy.",
        )
    })
}

/// Measures one firer against one target: each figure's arc, range and
/// sight. Fails with the reason when no figure can hit.
fn aim_at(
    state: &State,
    table: &Deployment,
    fi: usize,
    ti: usize,
    through_skirmishers: bool,
    figures: &[Point],
    facing: u32,
) -> Result<Aim, NoShot> {
    let firer = &state.units[fi];
    let target = &state.units[ti];
    let Some(trect) = table.index.rects[ti] else {
        return Err(NoShot::new(
            format!("{} is no longer in play", target.name),
            "Shooting",
            "",
        ));
    };
    let troop = troop_of(firer);
    let Some(row) = tables::fire_row(troop) else {
        return Err(NoShot::new(
            "these troops have no row in the Shooting Table",
            "Shooting Table",
            "",
        ));
    };
    if let Some(bar) = close_combat_bar(state, table, fi, ti) {
        return Err(bar);
    }
    let far = Hundredths::from(row.far) * 100;
    let mut ranges = Vec::new();
    let mut left_over = Vec::new();
    let (mut in_arc, mut in_range) = (0, 0);
    let mut nearest = Hundredths::MAX;
    let mut sight = None;
    let mut screened = false;
    for &p in figures {
        if !rect_is_in_arc(p, facing, ARC_OF_FIRE, &trect) {
            left_over.push(p);
            continue;
        }
        in_arc += 1;
        let range = distance_to_rect(p, &trect);
        nearest = nearest.min(range);
        if range > far {
            left_over.push(p);
            continue;
        }
        in_range += 1;
        let to = nearest_point_of_rect(p, &trect);
        if let Some(why) = blocked(
            state,
            table,
            fi,
            ti,
            p,
            to,
            through_skirmishers,
            &mut screened,
        ) {
            sight.get_or_insert(why);
            left_over.push(p);
            continue;
        }
        ranges.push(range);
    }
    if ranges.is_empty() {
        return Err(if in_arc == 0 {
            NoShot::new(
                format!("{} is outside the arc of fire", target.name),
                GENERAL,
                "The arc of fire is 45° to either side.",
            )
        } else if in_range == 0 {
            NoShot::new(
                format!(
                    "{} is out of range: the far range of {} is {} inches, the nearest figure is {} inches away",
                    target.name,
                    row.fire.to_lowercase(),
                    row.far,
                    tables::inches_text(u32::try_from(nearest).unwrap_or(u32::MAX))
                ),
                "Shooting Table",
                &format!("{} {} / {}", row.fire, row.close, row.far),
            )
        } else {
            let (why, by) = sight.unwrap_or_default();
            let mut no = NoShot::new(
                format!("no line of sight to {}: {why}", target.name),
                "Shooting",
                "",
            );
            no.naming.extend(by);
            no
        });
    }
    let Some(frect) = table.index.rects[fi] else {
        return Err(NoShot::new("the unit is no longer in play", GENERAL, ""));
    };
    let from = frect.front_centre;
    let to = nearest_point_of_rect(from, &trect);
    let at_screen = organic_screen(firer, target, through_skirmishers, &mut screened);
    Ok(Aim {
        ranges,
        left_over,
        screened,
        at_screen,
        enfiladed: is_enfiladed(&trect, from, to),
        cover: shooting_cover(state, &table.ground, &trect, from, to, troop),
    })
}

/// Whether the fire at a battalion strikes its organic skirmish screen
/// (ruling STC-101). The screen stands within an inch before its parent
/// ("Organic skirmishers may never be more than one inch from their parent
/// unit"), so fire at the battalion meets it first: "Infantry may not shoot
/// through skirmishers", so their fire strikes the screen, a skirmishing
/// target, its hits counted against the parent ("Count hits on an organic
/// screen as hits against the parent unit"). Guns may instead fire through
/// it when ordered `through skirmishers`, at the battalion as a target
/// "screened by skirmishers".
fn organic_screen(
    firer: &Unit,
    target: &Unit,
    through_skirmishers: bool,
    screened: &mut bool,
) -> bool {
    if !target.rules.status.skirmishers_out || target.rules.formation == Formation::Skirmish {
        return false;
    }
    if arm_of(firer) == Arm::Artillery && through_skirmishers {
        *screened = true;
        return false;
    }
    true
}

/// Both targets of a shot, measured: the first, and the split target with
/// the figures that cannot hit the first.
fn aim(state: &State, table: &Deployment, shot: &Shot) -> Result<(Aim, Option<Aim>), NoShot> {
    let (Some(fi), Some(ti)) = (table.index_of(&shot.firer), table.index_of(&shot.target)) else {
        return Err(NoShot::new("a unit of the order is gone", "Shooting", ""));
    };
    let Some(trect) = table.index.rects[ti] else {
        return Err(NoShot::new(
            format!("{} is no longer in play", state.units[ti].name),
            "Shooting",
            "",
        ));
    };
    let (figures, facing) = firing_figures(state, table, fi, &trect);
    let first = aim_at(
        state,
        table,
        fi,
        ti,
        shot.through_skirmishers,
        &figures,
        facing,
    )?;
    let Some(split) = &shot.split else {
        return Ok((first, None));
    };
    if first.left_over.is_empty() {
        return Err(NoShot::new(
            "every figure can hit the first target, so the fire may not be split",
            SPLITTING,
            "A unit must concentrate all of its fire against one target if at all possible.",
        ));
    }
    let Some(si) = table.index_of(split) else {
        return Err(NoShot::new("the split target is gone", SPLITTING, ""));
    };
    let second = aim_at(
        state,
        table,
        fi,
        si,
        shot.through_skirmishers,
        &first.left_over,
        facing,
    )?;
    // "This target must be as close as possible to the first target
    // selected": no other enemy the left-over figures could hit may be
    // closer to the first target.
    let side = &state.units[fi].side;
    let split_gap = table.index.rects[si].map_or(Hundredths::MAX, |r| rect_distance(&r, &trect));
    for j in table.index.grid.near_rect(&trect, split_gap) {
        if j == si || j == ti || state.units[j].side == *side || !in_play(&state.units[j]) {
            continue;
        }
        let Some(r) = table.index.rects[j] else {
            continue;
        };
        if rect_distance(&r, &trect) >= split_gap {
            continue;
        }
        if aim_at(
            state,
            table,
            fi,
            j,
            shot.through_skirmishers,
            &first.left_over,
            facing,
        )
        .is_ok()
        {
            return Err(NoShot::new(
                format!(
                    "{} is closer to the first target than {}",
                    state.units[j].name, state.units[si].name
                ),
                SPLITTING,
                "This target must be as close as possible to the first target selected.",
            ));
        }
    }
    Ok((first, Some(second)))
}

/// The range the fire is taken at. Ruling STC-60: every figure measures its
/// own range; the unit's fire takes the band of its median figure, so that
/// it is at close range when at least half of the figures that can hit are.
fn fire_range(ranges: &[Hundredths]) -> u32 {
    let mut r = ranges.to_vec();
    r.sort_unstable();
    let median = r.get((r.len().saturating_sub(1)) / 2).copied().unwrap_or(0);
    u32::try_from(median).unwrap_or(u32::MAX)
}

/// The umpire call for a turn's shot: the same facts the GM would give.
fn call_for(
    state: &State,
    facts: &TurnFacts,
    fi: usize,
    ti: usize,
    aim: &Aim,
    figures: u32,
    range: u32,
) -> ShootingCall {
    let f = &state.units[fi];
    let t = &state.units[ti];
    let troop = troop_of(f);
    let guns = troop.arm() == Arm::Artillery;
    ShootingCall {
        figures,
        troop,
        grade: grade_of(f),
        range,
        gunners: guns.then_some(f.rules.gunners),
        nation: nation_of(state, &f.side),
        formation: formation_of(f),
        moved: facts.moved.contains(&f.id),
        disordered: f.rules.disordered,
        limbered: false,
        charging: false,
        shaken: false,
        target: ShootingTarget {
            // An organic screen struck in its parent's stead is loose
            // order, never dense (ruling STC-101).
            dense: (is_dense(t) || aim.enfiladed) && !aim.at_screen,
            artillery: arm_of(t) == Arm::Artillery,
            soft_cover: aim.cover == Cover::Soft,
            screened: aim.screened,
            hard_cover: aim.cover == Cover::Hard,
            skirmishing: t.rules.formation == Formation::Skirmish || aim.at_screen,
        },
    }
}

/// The running count of shooting hits each unit has suffered this turn
/// (ruling STC-6: each test counts them all).
pub type HitsThisTurn = std::collections::BTreeMap<String, u32>;

/// Resolves the shooting phase: every shot in turn (by the firer's id, so
/// the order the sides' orders came in does not matter), each target's
/// morale test after each unit's fire that hits it, its retreat and rout
/// hits; shattered units leave play at the end of the phase.
pub fn resolve(
    state: &mut State,
    shots: &[Shot],
    facts: &TurnFacts,
    hits_this_turn: &mut HitsThisTurn,
    dice: &mut dyn Dice,
) -> Vec<Event> {
    let mut events = Vec::new();
    let mut table = Deployment::new(state);
    let mut order: Vec<&Shot> = shots.iter().collect();
    order.sort_by(|a, b| a.firer.cmp(&b.firer).then(a.line.cmp(&b.line)));
    for shot in order {
        fire(
            state,
            &mut table,
            facts,
            shot,
            hits_this_turn,
            dice,
            &mut events,
        );
    }
    super::army_morale::remove_shattered(state, &mut events);
    events
}

/// The shooting phase of the turn: the active side's `shoot` orders, with
/// what movement did this turn taken from `record`.
pub fn phase(
    state: &mut State,
    active: &SideOrders,
    record: &mut TurnRecord,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) {
    let facts = TurnFacts::from_record(state, record);
    let mut shots = Vec::new();
    for given in &active.orders {
        let StcOrder::Shoot {
            unit,
            target,
            split,
            through_skirmishers,
            at_regimental_gun,
        } = &given.order
        else {
            continue;
        };
        if record.reforming.contains(unit.as_str()) {
            events.push(event(
                Kind::NoShot,
                &[unit.as_str(), target.as_str()],
                format!(
                    "{} stands to reform and does not shoot (Steadiness and Disorder: \"The unit may not move, shoot, or be in combat on a turn during which it wishes to reform.\").",
                    unit.as_str()
                ),
            ));
            continue;
        }
        shots.push(Shot {
            line: given.line,
            firer: unit.as_str().to_string(),
            target: target.as_str().to_string(),
            split: split.as_ref().map(|s| s.as_str().to_string()),
            through_skirmishers: *through_skirmishers,
            at_gun: *at_regimental_gun,
        });
    }
    let mut hits = std::mem::take(&mut record.shooting_hits);
    events.extend(resolve(state, &shots, &facts, &mut hits, dice));
    record.shooting_hits = hits;
}

/// The validation step's check of a `shoot` order whose units are already
/// resolved to ids: who may not shoot at all. Range, arc and sight depend on
/// where movement leaves the units, so they are measured when the phase is
/// resolved, and a shot they forbid becomes an outcome with its reason.
pub fn allowed(state: &State, side: &str, order: &StcOrder) -> Result<(), NoShot> {
    allowed_in_sheet(state, side, order, &[])
}

/// [`allowed`] with the side's other orders this turn (`sheet`), which
/// decide some of it (ruling STC-71): a unit that charges, reforms or leaves
/// its guns, or guns that move, may not shoot; guns that unlimber this turn
/// may (ruling STC-74).
pub fn allowed_in_sheet(
    state: &State,
    side: &str,
    order: &StcOrder,
    sheet: &[StcOrder],
) -> Result<(), NoShot> {
    validate_with(state, side, 0, order, sheet, false)
        .map(|_| ())
        .map_err(|r| NoShot {
            problem: r.problem,
            clause: r.clause.unwrap_or_default(),
            naming: Vec::new(),
        })
}

/// What the phase checks of a shot before any die: who may shoot, with
/// what movement did this turn, then each figure's arc, range and sight,
/// and split fire. The figures that can hit each target, or why none can.
fn checked(
    state: &State,
    table: &Deployment,
    facts: &TurnFacts,
    fi: usize,
    shot: &Shot,
) -> Result<(Aim, Option<Aim>), NoShot> {
    eligibility(state, fi, shot.through_skirmishers, false, false, facts)?;
    aim(state, table, shot)
}

/// The phase's own checks of a shot ([`checked`]) on the table as `state`
/// holds it, for the acknowledgement (`foresee`): why the shot would not be
/// made there, in the words and with the clause the turn would give. A
/// firer no longer on the table is not shot with, and not told of, as in
/// the turn.
pub fn may_fire(state: &State, facts: &TurnFacts, shot: &Shot) -> Result<(), NoShot> {
    let table = Deployment::new(state);
    match table.index_of(&shot.firer) {
        Some(fi) => checked(state, &table, facts, fi, shot).map(|_| ()),
        None => Ok(()),
    }
}

fn fire(
    state: &mut State,
    table: &mut Deployment,
    facts: &TurnFacts,
    shot: &Shot,
    hits_this_turn: &mut HitsThisTurn,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) {
    let Some(fi) = table.index_of(&shot.firer) else {
        return;
    };
    let fname = state.units[fi].name.clone();
    let no_shot = |why: NoShot, events: &mut Vec<Event>| {
        events.push(
            event(
                Kind::NoShot,
                &[&shot.firer, &shot.target],
                format!(
                    "{fname} does not shoot at {}: {} ({}).",
                    shot.target, why.problem, why.clause
                ),
            )
            .also_naming(&why.naming),
        );
    };
    let (first, second) = match checked(state, table, facts, fi, shot) {
        Ok(a) => a,
        Err(why) => return no_shot(why, events),
    };
    let Some(ti) = table.index_of(&shot.target) else {
        return;
    };
    let guns = arm_of(&state.units[fi]) == Arm::Artillery;
    let mut volleys = vec![(ti, first)];
    if let (Some(split), Some(second)) = (&shot.split, second)
        && let Some(si) = table.index_of(split)
    {
        volleys.push((si, second));
    }
    for (k, (ti, aim)) in volleys.into_iter().enumerate() {
        let figures = u32::try_from(aim.ranges.len()).unwrap_or(u32::MAX);
        let mut call = call_for(state, facts, fi, ti, &aim, figures, fire_range(&aim.ranges));
        let Some(cause) = table.index.rects[fi] else {
            return;
        };
        // Regimental Guns: one die at the target's gun first, if ordered
        // and the gun is still in action; the rest at the battalion.
        if k == 0 && shot.at_gun && super::fighting::regimental_gun(state, ti) {
            let (rest, one) = one_die_off(&call);
            fire_at_gun(state, fi, ti, &one, dice, events);
            match rest {
                Some(rest) => call = rest,
                None => continue,
            }
        }
        // The firer's own regimental gun "fires as part of the infantry
        // unit" at its first target.
        let gun = (k == 0 && super::fighting::regimental_gun(state, fi))
            .then(|| regimental_gun_call(&call));
        let dice_count = volley(
            state,
            table,
            facts,
            fi,
            ti,
            &call,
            gun.as_ref(),
            k == 1,
            hits_this_turn,
            dice,
            events,
            cause,
        );
        if guns && k == 0 && option(state, "artillery-bounce-through") && dice_count > 0 {
            bounce(
                state,
                table,
                facts,
                fi,
                ti,
                &call,
                hits_this_turn,
                dice,
                events,
            );
        }
    }
}

/// A call split into the fire at the battalion and the one die aimed at its
/// regimental gun: four figures of infantry fire ("one die per four
/// front-rank infantry figures"), or one gun model with its two gunners.
/// `None` for the rest when the one die was all the firer had.
fn one_die_off(call: &ShootingCall) -> (Option<ShootingCall>, ShootingCall) {
    let guns = call.troop.arm() == Arm::Artillery;
    let per_die = if guns { 1 } else { 4 };
    let mut one = call.clone();
    one.figures = per_die.min(call.figures);
    if guns {
        one.gunners = call.gunners.map(|g| g.min(2));
    }
    let mut rest = call.clone();
    rest.figures = call.figures.saturating_sub(per_die);
    if guns {
        rest.gunners = call.gunners.map(|g| g.saturating_sub(2));
    }
    // Three figures left still make a die ("Round up a final remainder of
    // three infantry figures").
    let rest_fires = if guns {
        rest.figures > 0 && rest.gunners.is_none_or(|g| g >= 2)
    } else {
        rest.figures >= 3
    };
    (rest_fires.then_some(rest), one)
}

/// The battalion's regimental gun firing with it: "Represent a regimental
/// gun by a light gun model with two gunners. The gun fires as part of the
/// infantry unit." One light gun at the unit's range and target, with the
/// unit's grade and nation; a gun that moved may not fire ("Artillery may
/// not move and shoot"), so the gun of a battalion that moved stays silent.
fn regimental_gun_call(unit: &ShootingCall) -> ShootingCall {
    ShootingCall {
        figures: 1,
        troop: Troop::LightGuns,
        gunners: Some(2),
        ..unit.clone()
    }
}

/// One die at the target's regimental gun: "a single hit will disable the
/// gun. A hit against the regimental gun however has no effect on the
/// unit's morale and does not trigger a shooting morale test."
fn fire_at_gun(
    state: &mut State,
    fi: usize,
    ti: usize,
    call: &ShootingCall,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) {
    let fid = state.units[fi].id.clone();
    let fname = state.units[fi].name.clone();
    let tid = state.units[ti].id.clone();
    let tname = state.units[ti].name.clone();
    match table::resolve(call, &mut dice.concerning(About::units(&[&fid, &tid]))) {
        Err(e) => events.push(event(
            Kind::RegimentalGunNoAim,
            &[&fid, &tid],
            format!("{fname} cannot aim a die at the regimental gun of {tname}: {e}."),
        )),
        Ok(called) => {
            let disabled = called.result.hits > 0;
            events.push(event(
                Kind::RegimentalGun,
                &[&fid, &tid],
                format!(
                    "{fname} aims one die at the regimental gun of {tname}: {}{}",
                    called.report.outcome,
                    if disabled {
                        " The gun is disabled (Regimental Guns: \"a single hit will disable the gun\"); the hit has no effect on the unit's morale."
                    } else {
                        ""
                    }
                ),
            ));
            if disabled {
                state.units[ti].rules.status.regimental_gun_lost =
                    Some(format!("disabled by the fire of {fname}"));
            }
        }
    }
}

/// Rolls one unit's fire at one target, applies the hits and the target's
/// morale test. Returns the dice rolled.
#[allow(clippy::too_many_arguments)]
fn volley(
    state: &mut State,
    table: &mut Deployment,
    facts: &TurnFacts,
    fi: usize,
    ti: usize,
    call: &ShootingCall,
    gun: Option<&ShootingCall>,
    split: bool,
    hits_this_turn: &mut HitsThisTurn,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
    cause: Rect,
) -> u32 {
    let fid = state.units[fi].id.clone();
    let fname = state.units[fi].name.clone();
    let tid = state.units[ti].id.clone();
    let tname = state.units[ti].name.clone();
    let mut dice = dice.concerning(About::units(&[&fid, &tid]));
    let called = match table::resolve(call, &mut dice) {
        Ok(c) => c,
        Err(e) => {
            events.push(event(
                Kind::NoShot,
                &[&fid, &tid],
                format!("{fname} does not shoot at {tname}: {e}."),
            ));
            return 0;
        }
    };
    let r = &called.result;
    let modifiers = called.report.modifiers();
    // The battalion's own regimental gun adds its die to the same fire, so
    // the target tests once for both.
    let (gun_hits, gun_text) = match gun.map(|g| table::resolve(g, &mut dice)) {
        None => (0, String::new()),
        Some(Ok(g)) => (
            g.result.hits,
            format!(
                " Its regimental gun fires with it as a light gun (Regimental Guns): {} {} needing {} rolled {}: {} {}.",
                g.result.dice,
                if g.result.dice == 1 { "die" } else { "dice" },
                tables::needed_text(g.result.needed),
                g.result
                    .rolls
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                g.result.hits,
                if g.result.hits == 1 { "hit" } else { "hits" }
            ),
        ),
        Some(Err(e)) => (
            0,
            format!(" Its regimental gun does not fire: {e} (Regimental Guns)."),
        ),
    };
    events.push(event(
        Kind::Shot,
        &[&fid, &tid],
        format!(
            "{fname} {} {tname}: {}{}{gun_text}",
            if split {
                "splits its fire onto"
            } else {
                "shoots at"
            },
            called.report.outcome,
            if modifiers.is_empty() {
                String::new()
            } else {
                format!(" Modifiers: {}.", modifiers.join("; "))
            }
        ),
    ));
    let dice_rolled = r.dice;
    let hits = r.hits + gun_hits;
    if r.hits == 0 && gun_hits > 0 {
        // The battalion's own words said no test; its gun's hit calls one.
        if let Some(last) = events.last_mut() {
            last.text
                .push_str(" With its gun's hit the target takes a shooting morale test after all.");
        }
    }
    if hits == 0 {
        return dice_rolled;
    }
    take_hits(
        state,
        table,
        facts,
        fi,
        ti,
        hits,
        hits_this_turn,
        &mut dice,
        events,
        cause,
    );
    dice_rolled
}

/// Applies shooting hits to a target and, if it belongs to the passive
/// side, its morale test with the retreat and rout hits of a failure.
#[allow(clippy::too_many_arguments)]
fn take_hits(
    state: &mut State,
    table: &mut Deployment,
    facts: &TurnFacts,
    fi: usize,
    ti: usize,
    hits: u32,
    hits_this_turn: &mut HitsThisTurn,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
    cause: Rect,
) {
    let fid = state.units[fi].id.clone();
    let tid = state.units[ti].id.clone();
    let tname = state.units[ti].name.clone();
    apply_hits(&mut state.units[ti], hits);
    let total = hits_this_turn.entry(tid.clone()).or_default();
    *total += hits;
    let total = *total;
    general_risk(state, ti, hits, false, dice, events);
    // "Passive units test if hit by shooting." Friends struck by a
    // bounce-through are the active side's and take no test (ruling
    // STC-65).
    if state.units[ti].side == state.active_side || !in_play(&state.units[ti]) {
        return;
    }
    if super::boats::in_boats(&state.units[ti]) {
        events.push(event(
            Kind::Morale,
            &[&tid, &fid],
            format!("{tname} takes no morale test: \"Troops in boats are a dense target, but take no morale test.\" (Optional Rules, Boats)."),
        ));
        return;
    }
    let t = &state.units[ti];
    let in_cover =
        table.index.rects[ti].is_some_and(|r| !table.ground.kinds_under(state, &r).is_empty());
    let call = MoraleCall {
        troop: Some(troop_of(t)),
        grade: grade_of(t),
        hits: total,
        nation: nation_of(state, &t.side),
        formation: formation_of(t),
        shaken: t.rules.shaken,
        general_attached: general_attached(state, &tid),
        no_general: !table.in_command(state, ti),
        advanced: facts.advanced_full_speed.contains(&tid),
        stationary: facts.stationary.contains(&tid),
        in_cover,
        wider_basing: wider_basing(state),
    };
    let called = match morale::resolve(&call, &mut dice.concerning(About::units(&[&tid, &fid]))) {
        Ok(c) => c,
        Err(e) => {
            events.push(event(
                Kind::Morale,
                &[&tid, &fid],
                format!("{tname} takes no morale test: {e}."),
            ));
            return;
        }
    };
    let r = called.result;
    events.push(event(
        Kind::Morale,
        &[&tid, &fid],
        format!(
            "{tname}, hit by shooting ({total} this turn): {}",
            called.report.outcome
        ),
    ));
    if r.passed {
        return;
    }
    let u = &mut state.units[ti];
    u.rules.shaken = true;
    apply_rout_hits(u, r.rout_hits);
    events.push(event(
        Kind::Rout,
        &[&tid, &fid],
        format!(
            "{tname} suffers {} rout {} (Morale Test if Hit by Shooting: \"If the unit fails, it must retreat two inches shaken, and suffers one rout hit. If already shaken, it retreats four inches, remains shaken, and suffers two rout hits.\").",
            r.rout_hits,
            if r.rout_hits == 1 { "hit" } else { "hits" }
        ),
    ));
    retreat::retreat_in(
        state,
        table,
        ti,
        Cause::Unit(cause, fid),
        Hundredths::from(r.retreat_inches) * 100,
        events,
    );
}

/// Generals: "If a general is attached to a unit that suffers two or more
/// shooting or close combat hits, roll a die: On a '1' the general is
/// killed/disabled and removed from play." Counted per unit's fire, and
/// rolled before the unit's morale test (ruling STC-75). `combat` names the
/// hits as close combat hits in the event.
pub(super) fn general_risk(
    state: &mut State,
    ti: usize,
    hits: u32,
    combat: bool,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) {
    if hits < 2 {
        return;
    }
    let tid = state.units[ti].id.clone();
    let attached: Vec<usize> = state
        .generals
        .iter()
        .enumerate()
        .filter(|(_, g)| g.lost.is_none() && g.attached_to.as_deref() == Some(tid.as_str()))
        .map(|(n, _)| n)
        .collect();
    for n in attached {
        let gid = state.generals[n].id.clone();
        let roll = dice.throw(
            crate::audit::dice::Die::D6,
            &format!("general: {gid} attached to {tid}, {hits} hits"),
            Some(About::units(&[&gid, &tid])),
        );
        general_rolled(state, n, ti, hits, combat, roll, events);
    }
}

/// Applies a general's die already rolled for the unit `ti` he is attached
/// to (by this phase or by the combat call): on a 1 he is out of play. Says
/// so in a `general` event either way.
pub(super) fn general_rolled(
    state: &mut State,
    n: usize,
    ti: usize,
    hits: u32,
    combat: bool,
    roll: u32,
    events: &mut Vec<Event>,
) {
    let tid = state.units[ti].id.clone();
    let g = &mut state.generals[n];
    let lost = roll == 1;
    if lost {
        g.lost = Some("killed or disabled".to_string());
    }
    events.push(event(
        Kind::GeneralHit,
        &[&g.id, &tid],
        format!(
            "{} is with {tid}, which suffered {hits} hits{}: rolled {roll}, {} (Generals: \"On a '1' the general is killed/disabled and removed from play\").",
            g.name,
            if combat { " in close combat" } else { "" },
            if lost { "killed or disabled" } else { "unharmed" }
        ),
    ));
}

/// Artillery Bounce-Through (optional rule): "Take a straight line from the
/// center of the firing battery to the nearest point of the target, then
/// continue it for the bounce-through distances listed below. Any additional
/// targets the line touches (enemy or friendly) are additional targets:
/// Light Gun: 4 inches, Field Gun: 4 inches, Heavy Gun: 6 inches."
/// Ruling STC-68: each additional target is shot at with the battery's dice
/// again, at its own range (within the far band) and modifiers.
#[allow(clippy::too_many_arguments)]
fn bounce(
    state: &mut State,
    table: &mut Deployment,
    facts: &TurnFacts,
    fi: usize,
    ti: usize,
    first: &ShootingCall,
    hits_this_turn: &mut HitsThisTurn,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) {
    let (Some(frect), Some(trect)) = (table.index.rects[fi], table.index.rects[ti]) else {
        return;
    };
    let length = match first.troop {
        Troop::HeavyGuns => 600,
        _ => 400,
    };
    let Some((a, b)) = bounce_through_line(frect.centre(), &trect, length) else {
        return;
    };
    let Some(row) = tables::fire_row(first.troop) else {
        return;
    };
    let far = row.far * 100;
    let extra: Vec<usize> = table
        .index
        .grid
        .along(a, b)
        .into_iter()
        .filter(|&j| j != fi && j != ti)
        .filter(|&j| table.index.rects[j].is_some_and(|r| segment_touches_rect(a, b, &r)))
        .collect();
    for j in extra {
        let Some(r) = table.index.rects[j] else {
            continue;
        };
        let range = u32::try_from(distance(
            frect.centre(),
            nearest_point_of_rect(frect.centre(), &r),
        ))
        .unwrap_or(u32::MAX)
        .min(far);
        let t = &state.units[j];
        let aim = Aim {
            ranges: Vec::new(),
            left_over: Vec::new(),
            screened: false,
            at_screen: false,
            enfiladed: is_enfiladed(&r, a, b),
            cover: shooting_cover(
                state,
                &table.ground,
                &r,
                a,
                nearest_point_of_rect(a, &r),
                first.troop,
            ),
        };
        let mut call = call_for(state, facts, fi, j, &aim, first.figures, range);
        call.formation = first.formation;
        events.push(event(
            Kind::Shot,
            &[&state.units[fi].id, &t.id],
            format!(
                "Artillery Bounce-Through: the line of fire carries on {} inches and touches {}.",
                length / 100,
                t.name
            ),
        ));
        volley(
            state,
            table,
            facts,
            fi,
            j,
            &call,
            None,
            false,
            hits_this_turn,
            dice,
            events,
            frect,
        );
    }
}

/// The arc of fire, for callers outside the module (reports, bots).
pub fn can_shoot_at(state: &State, firer: &str, target: &str) -> Result<(), NoShot> {
    let table = Deployment::new(state);
    let shot = Shot {
        line: 0,
        firer: firer.to_string(),
        target: target.to_string(),
        split: None,
        through_skirmishers: false,
        at_gun: false,
    };
    let Some(fi) = state.units.iter().position(|u| u.id == firer) else {
        return Err(NoShot::new("no such unit", "Orders", ""));
    };
    eligibility(state, fi, false, false, false, &TurnFacts::default())?;
    aim(state, &table, &shot).map(|_| ())
}

#[cfg(test)]
mod tests;
