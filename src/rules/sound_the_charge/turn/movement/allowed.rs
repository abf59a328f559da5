//! What the rules forbid outright, checked when an order is given: the
//! formation a unit may take, moving in continuing combat, interpenetration,
//! and every order family's own restrictions, each refusal with its clause.

use super::*;
use crate::rules::state::GeneralState;

pub(super) fn formation_allowed(
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
pub(super) fn moves(order: &StcOrder) -> bool {
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

pub(super) fn refuse(problem: impl Into<String>, clause: &str) -> Result<(), Refusal> {
    Err(Refusal::new(problem, clause))
}

/// Whether the rules allow `side` to give this order now (references
/// already resolved to ids). Checks only what the state settles before the
/// turn; what depends on the turn's events is settled in resolution.
/// Optional Rules, Interpenetration Restrictions: a move or charge `through`
/// friends is refused under the option ("forbidden (except for retreat
/// moves)").
pub(super) fn interpenetration_allowed(state: &State, through: &[UnitId]) -> Result<(), Refusal> {
    if !through.is_empty() && super::super::fighting::option(state, "interpenetration-restrictions")
    {
        return refuse(
            "interpenetration is forbidden (except for retreat moves)",
            "Optional Rules, Interpenetration Restrictions",
        );
    }
    Ok(())
}

/// What the rules forbid an order outright, checked when it is given: the
/// side's turn, a general's few orders, the passive side's standing orders,
/// a unit held in combat, and each order family's own restrictions, each
/// refusal with the clause that forbids it.
pub fn allowed(field: &Field, side: &str, order: &StcOrder) -> Result<(), Refusal> {
    let state = field.state;
    let id = order.unit().as_str();
    let active = state.active_side == side;
    if let Some(g) = state.generals.iter().find(|g| g.id == id) {
        return allowed_general(g, active, order);
    }
    let Some(u) = state.unit(id) else {
        return refuse("no such unit", MOVEMENT);
    };
    if let Some(why) = &u.eliminated {
        return refuse(format!("the unit is no longer in play ({why})"), MOVEMENT);
    }
    let unit = Subject {
        field,
        u,
        arm: u.rules.troop_type.arm(),
        skirmishing: u.rules.formation == Formation::Skirmish,
    };
    // Troops in boats row, land or hold (Optional Rules, Boats).
    if active && super::super::boats::in_boats(u) {
        super::super::boats::allowed(field, u, order)?;
    }
    if !active {
        return allowed_passive(&unit, order);
    }
    if matches!(order, StcOrder::Evade { .. }) {
        return refuse(
            "evading is the passive side's answer to a charge; give it as a standing order in the enemy's turn",
            "Turn Sequence",
        );
    }
    let engaged = field.index(id).is_some_and(|i| field.is_engaged(i));
    if (moves(order) || matches!(order, StcOrder::Form { .. } | StcOrder::Face { .. }))
        && u.rules.status.in_combat
        && engaged
    {
        return refuse("units in a continuing close combat may not move", MOVEMENT);
    }
    if moves(order)
        && !matches!(order, StcOrder::Retreat { .. })
        && let Some((why, clause)) = may_not_move(u.rules.formation)
        && maneuver_cost(state, u, Formation::Line).0 == 2
    {
        return refuse(why, clause);
    }
    match order {
        StcOrder::Hold { .. } | StcOrder::Evade { .. } | StcOrder::Shoot { .. } => Ok(()),
        StcOrder::Move {
            road,
            steps,
            through,
            ..
        } => allowed_move(&unit, *road, steps, through),
        StcOrder::Charge {
            target, through, ..
        } => allowed_charge(&unit, target, through),
        StcOrder::Form { formation, .. } => allowed_form(&unit, *formation),
        StcOrder::Face { .. } => {
            if u.rules.formation == Formation::Square {
                return refuse(
                    "a square already faces \"outward in all directions\"",
                    "Formations, 3",
                );
            }
            Ok(())
        }
        StcOrder::Manhandle { .. }
        | StcOrder::MoveTo { .. }
        | StcOrder::LeaveGuns { .. }
        | StcOrder::ManGuns { .. } => allowed_free_or_guns(&unit, order),
        StcOrder::SkirmishersOut { .. }
        | StcOrder::SkirmishersIn { .. }
        | StcOrder::Screen { .. } => allowed_skirmishers(&unit, order),
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
        StcOrder::Reinforce { friend, .. } => allowed_reinforce(&unit, friend),
        StcOrder::Retreat { .. } => allowed_voluntary_retreat(&unit),
        StcOrder::Embark { .. } | StcOrder::Disembark { .. } => {
            if !super::super::fighting::option(state, "boats") {
                return refuse(
                    "boats are an optional rule this game does not use",
                    "Optional Rules, Boats",
                );
            }
            super::super::boats::allowed(field, u, order)
        }
    }
}

/// The unit an order is for, with what most checks ask of it.
struct Subject<'a> {
    field: &'a Field<'a>,
    u: &'a Unit,
    arm: Arm,
    skirmishing: bool,
}

impl Subject<'_> {
    fn guns(&self) -> bool {
        self.arm == Arm::Artillery
    }
}

/// Generals take only the orders a general can carry out, in their side's
/// turn.
fn allowed_general(g: &GeneralState, active: bool, order: &StcOrder) -> Result<(), Refusal> {
    if let Some(why) = &g.lost {
        return refuse(format!("the general is out of play ({why})"), "Generals");
    }
    if !active && !matches!(order, StcOrder::Hold { .. }) {
        return refuse(
            "generals move only in their side's active turn",
            "Turn Sequence",
        );
    }
    match order {
        StcOrder::Hold { .. } | StcOrder::MoveTo { .. } | StcOrder::Attach { .. } => Ok(()),
        StcOrder::Detach { .. } if g.attached_to.is_some() => Ok(()),
        StcOrder::Detach { .. } => refuse("the general is not attached to a unit", "Generals"),
        _ => refuse(
            "a general moves (`move to`), attaches or detaches; he gives no other order",
            "Generals",
        ),
    }
}

/// "Passive units only move during the other side's turn if retreating or
/// evading": the passive side holds, or stands ready to evade.
fn allowed_passive(unit: &Subject, order: &StcOrder) -> Result<(), Refusal> {
    let (u, guns) = (unit.u, unit.guns());
    let evading = "Charging and Evading, Evading";
    match order {
        StcOrder::Hold { .. } => Ok(()),
        StcOrder::Evade { into, .. } => {
            may_evade(u).map_err(|why| Refusal::new(why, evading))?;
            if let Some(into) = into {
                if !guns {
                    return refuse("only gunners may evade into a friendly square", evading);
                }
                if unit
                    .field
                    .state
                    .unit(into.as_str())
                    .map(|s| s.rules.formation)
                    != Some(Formation::Square)
                {
                    return refuse(format!("{} is not in square", into.as_str()), evading);
                }
            }
            Ok(())
        }
        _ => refuse(
            "it is not your active turn: the passive side gives only standing orders (`evade`); \
             \"Passive units only move during the other side's turn if retreating or evading\"",
            MOVEMENT,
        ),
    }
}

/// Whether a unit may evade an enemy charge, or why not: Evading,
/// "Skirmishers and gunners may evade an enemy charge", gunners only while
/// at their guns.
pub fn may_evade(u: &Unit) -> Result<(), &'static str> {
    let guns = u.rules.troop_type.arm() == Arm::Artillery;
    if !(u.rules.formation == Formation::Skirmish || guns) {
        return Err("only skirmishers and gunners may evade an enemy charge");
    }
    if guns && (u.rules.gunners == 0 || u.rules.status.gunners_at.is_some()) {
        return Err("the battery has no gunners at its guns to evade");
    }
    Ok(())
}

/// A move by steps: on a road only in column, through friends only as the
/// rules allow.
fn allowed_move(
    unit: &Subject,
    road: bool,
    steps: &[OrderStep],
    through: &[UnitId],
) -> Result<(), Refusal> {
    if road && !moves_at_column_rate(unit.u.rules.formation) {
        return refuse(
            "only \"a column or limbered battery\" moves at road speed",
            "Terrain Suggestions, Roads",
        );
    }
    interpenetration_allowed(unit.field.state, through)?;
    if !through.is_empty() && unit.skirmishing {
        return refuse(
            "skirmishers need no leave to pass friends; only close-order troops move through a friendly unit",
            INTERPENETRATION,
        );
    }
    if through.iter().any(|t| t.as_str() == unit.u.id) {
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

/// Who may charge whom: not the shaken, not guns, not a masse; skirmishers
/// only at guns and skirmishers; only infantry into a town.
fn allowed_charge(unit: &Subject, target: &UnitId, through: &[UnitId]) -> Result<(), Refusal> {
    let (field, u) = (unit.field, unit.u);
    if u.rules.shaken {
        return refuse(
            "the unit is shaken: shaken units may not charge",
            "Charging and Evading, rule 5",
        );
    }
    if unit.guns() {
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
    if let Some(t) = field.state.unit(target.as_str()) {
        let target_guns = t.rules.troop_type.arm() == Arm::Artillery;
        if unit.skirmishing && !(target_guns || t.rules.formation == Formation::Skirmish) {
            return refuse(
                "skirmishers may charge artillery and other skirmishers, but not close-order troops",
                "Charging and Evading, rule 7",
            );
        }
        // A chateau is a town block too ("If a town block actually
        // represents a single chateau").
        if let Some(rect) = basing::footprint(t)
            && unit.arm != Arm::Infantry
            && field.is_on(&rect, TerrainKind::is_built_up)
        {
            return refuse(
                "only infantry may attack or enter town blocks",
                "Terrain Suggestions, Towns",
            );
        }
    }
    interpenetration_allowed(field.state, through)
}

/// A formation change the unit's arm and nation allow; guns unlimber only
/// with gunners.
fn allowed_form(unit: &Subject, formation: Formation) -> Result<(), Refusal> {
    if let Err((why, clause)) = formation_allowed(unit.field.state, unit.u, formation) {
        return refuse(why, clause);
    }
    if formation == Formation::Unlimbered && unit.u.rules.gunners == 0 {
        return refuse(
            "the battery has no gunners to unlimber it",
            ARTILLERY_MOVEMENT,
        );
    }
    Ok(())
}

/// Moves to a spot (skirmishers, gunners away from their guns), manhandled
/// guns, and gunners leaving and manning their guns.
fn allowed_free_or_guns(unit: &Subject, order: &StcOrder) -> Result<(), Refusal> {
    let (u, guns) = (unit.u, unit.guns());
    let away = u.rules.status.gunners_at.is_some();
    match order {
        StcOrder::Manhandle { .. } => {
            if !guns || u.rules.formation != Formation::Unlimbered {
                return refuse("only unlimbered guns are manhandled", ARTILLERY_MOVEMENT);
            }
            if away || u.rules.gunners == 0 {
                return refuse("the gunners are away from their guns", ARTILLERY_MOVEMENT);
            }
            Ok(())
        }
        StcOrder::MoveTo { .. } if unit.skirmishing || (guns && away) => Ok(()),
        StcOrder::MoveTo { .. } => refuse(
            "only generals, skirmishers and gunners away from their guns move to a spot; \
             close-order units move by steps (`forward 4, wheel left 30`)",
            SKIRMISH_MOVEMENT,
        ),
        StcOrder::LeaveGuns { .. } => {
            if !guns || u.rules.gunners == 0 {
                return refuse(
                    "only a battery's gunners leave their guns",
                    ARTILLERY_MOVEMENT,
                );
            }
            if away {
                return refuse(
                    "the gunners have already left their guns",
                    ARTILLERY_MOVEMENT,
                );
            }
            Ok(())
        }
        StcOrder::ManGuns { .. } if !away => {
            refuse("the gunners are at their guns", ARTILLERY_MOVEMENT)
        }
        _ => Ok(()),
    }
}

/// Skirmish screens: a battalion's own skirmishers out and in, and a
/// skirmish unit screening others.
fn allowed_skirmishers(unit: &Subject, order: &StcOrder) -> Result<(), Refusal> {
    let u = unit.u;
    let screens = "Movement, Skirmish Screens";
    match order {
        StcOrder::SkirmishersOut { .. } => {
            if unit.arm != Arm::Infantry
                || !matches!(u.rules.formation, Formation::Line | Formation::Column)
            {
                return refuse(
                    "organic skirmishers belong to a battalion of infantry in line or column",
                    screens,
                );
            }
            if u.rules.status.skirmishers_out {
                return refuse("the skirmishers are already out", screens);
            }
            Ok(())
        }
        StcOrder::SkirmishersIn { .. } if !u.rules.status.skirmishers_out => {
            refuse("the battalion has no skirmishers out", screens)
        }
        StcOrder::Screen { .. } if !unit.skirmishing => {
            refuse("only a unit in skirmish order screens other units", screens)
        }
        _ => Ok(()),
    }
}

/// Charging into the rear of a friend in close combat: only a friend that
/// is fighting, and only troops that may charge.
fn allowed_reinforce(unit: &Subject, friend: &UnitId) -> Result<(), Refusal> {
    if unit.u.rules.shaken {
        return refuse(
            "the unit is shaken: shaken units may not charge",
            "Charging and Evading, rule 5",
        );
    }
    if unit.guns() {
        return refuse("guns may not charge", "Charging and Evading, rule 5");
    }
    if !unit
        .field
        .index(friend.as_str())
        .is_some_and(|f| unit.field.is_engaged(f))
    {
        return refuse(
            format!("{} is not in close combat", friend.as_str()),
            "Close Combat",
        );
    }
    Ok(())
}

/// Optional rule Voluntary Retreat: in force, not out of combat, and only
/// "a unit with a general in CR".
fn allowed_voluntary_retreat(unit: &Subject) -> Result<(), Refusal> {
    let field = unit.field;
    if !super::super::fighting::option(field.state, "voluntary-retreat") {
        return refuse(
            "voluntary retreat is an optional rule this game does not use",
            "Optional Rules, Voluntary Retreat",
        );
    }
    let Some(i) = field.index(&unit.u.id) else {
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
