//! The rally step: "The active side tests to rally shaken units".
//!
//! Every shaken unit of the active side takes the Rally from Shaken Status
//! Test at the start of the turn, without an order (STC-51): a test can only
//! help it. The test is the umpire call's own (`rally.rs` of the ruleset),
//! with its flags read off the table.

use super::super::field::Field;
use super::fighting::nation_of;
use super::movement::rates;
use super::{SideOrders, TurnRecord};
use crate::audit::dice::Dice;
use crate::geometry::Hundredths;
use crate::geometry::{
    distance_ahead_of_frontage_line, is_sight_blocked_by_lines, nearest_point_of_rect,
    rect_distance,
};
use crate::rules::ruleset::Event;
use crate::rules::sound_the_charge::events::{Kind, event};
use crate::rules::sound_the_charge::ground::TerrainKind;
use crate::rules::sound_the_charge::mechanics::rally::{RallyCall, resolve};
use crate::rules::sound_the_charge::orders::Formation;
use crate::rules::sound_the_charge::state::State;
use crate::rules::sound_the_charge::tables::Arm;
use crate::rules::told::About;
use crate::rules::umpire::UmpireError;

/// Whether unit `i` stands in cover: woods, a town block, a chateau or
/// fieldworks.
pub fn in_cover(field: &Field, i: usize) -> bool {
    field.rect(i).is_some_and(|r| {
        field.terrain_under(&r).iter().any(|(k, _)| {
            matches!(
                k,
                TerrainKind::LightWoods
                    | TerrainKind::HeavyWoods
                    | TerrainKind::TownBlock
                    | TerrainKind::Chateau
                    | TerrainKind::Fieldworks
            )
        })
    })
}

/// Rally: "Any visible enemies able to charge the unit?" An enemy is able to
/// charge when it may charge at all (not shaken, not guns, not in square,
/// "L", "U" or battalion-masse, not held in a continuing combat, and as
/// skirmishers only at guns or skirmishers), some part of the unit lies
/// ahead of its frontage line within its move plus its charge bonus, and no
/// crest line blocks the view from its front centre
/// to the unit's nearest point (STC-52).
pub fn enemy_can_charge(field: &Field, i: usize) -> bool {
    let state = field.state;
    let Some(rect) = field.rect(i) else {
        return false;
    };
    let target = &state.units[i];
    let crests = field.ground().crests();
    let near = field.enemies_near(
        &target.side,
        crate::geometry::bounds(&rect),
        super::movement::LONGEST_CHARGE,
    );
    near.into_iter().any(|j| {
        let e = &state.units[j];
        let Some(er) = field.rect(j) else {
            return false;
        };
        if e.rules.shaken
            || e.rules.troop_type.arm() == Arm::Artillery
            || matches!(
                e.rules.formation,
                Formation::Square
                    | Formation::LLeft
                    | Formation::LRight
                    | Formation::U
                    | Formation::Masse
            )
            || (e.rules.status.in_combat && field.is_engaged(j))
        {
            return false;
        }
        if e.rules.formation == Formation::Skirmish
            && !(target.rules.formation == Formation::Skirmish
                || target.rules.troop_type.arm() == Arm::Artillery)
        {
            return false;
        }
        let Some(r) = rates(e.rules.troop_type, nation_of(state, &e.side)) else {
            return false;
        };
        // A column with its regimental gun keeps to the gun's line speed.
        let base = if matches!(e.rules.formation, Formation::Column | Formation::Limbered)
            && !super::fighting::regimental_gun(state, j)
        {
            r.column
        } else {
            r.line
        };
        let blown = super::fighting::option(state, "blown-cavalry") && e.rules.status.blown;
        let bonus = if blown { 0 } else { r.charge.unwrap_or(0) };
        // Command is measured at the start of the enemy's own movement
        // phase, which has not come: its full reach counts (STC-52).
        let reach: Hundredths = base + bonus;
        let ahead = rect
            .corners()
            .iter()
            .any(|&c| distance_ahead_of_frontage_line(&er, c) > 0);
        let near = nearest_point_of_rect(er.front_centre, &rect);
        ahead
            && rect_distance(&er, &rect) <= reach
            && !is_sight_blocked_by_lines(er.front_centre, near, crests)
    })
}

/// A rally test for unit `i`, read off the table.
pub fn rally_call(field: &Field, i: usize) -> Option<RallyCall> {
    let state = field.state;
    let u = &state.units[i];
    let grade = u.rules.grade;
    let attached = field.general_attached(i);
    Some(RallyCall {
        troop: Some(u.rules.troop_type.named()),
        grade,
        nation: nation_of(state, &u.side),
        formation: super::fighting::formation_of(u),
        enemy_can_charge: enemy_can_charge(field, i),
        general_attached: attached,
        no_general: !attached && !field.in_command(i),
        in_cover: in_cover(field, i),
        in_contact: field.is_engaged(i),
        playsheet_line: super::fighting::option(state, "playsheet-line-rally"),
        d_rally_by_table: super::fighting::option(state, "d-rally-by-table"),
    })
}

/// Tests every shaken unit of the active side, in the order of the units.
pub fn phase(
    state: &mut State,
    active: &SideOrders,
    record: &mut TurnRecord,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) {
    let calls: Vec<(usize, Option<RallyCall>)> = {
        let field = Field::new(state);
        field
            .friends_of(&active.side)
            .filter(|&i| state.units[i].rules.shaken)
            .map(|i| (i, rally_call(&field, i)))
            .collect()
    };
    for (i, call) in calls {
        let (id, name) = (state.units[i].id.clone(), state.units[i].name.clone());
        let Some(call) = call else {
            continue;
        };
        record.rallied.insert(id.clone());
        // A rally's die, like a rally that fails, is its own side's: the
        // enemy sees a unit rally, or nothing.
        match resolve(&call, &mut dice.concerning(About::own(&[&id]))) {
            Ok(called) => {
                let r = called.result;
                let needed = crate::rules::sound_the_charge::tables::needed_text(r.needed);
                if r.passed {
                    state.units[i].rules.shaken = false;
                    events.push(event(
                        Kind::Rally,
                        &[&id],
                        format!(
                            "{name} rolls {} needing {needed} and rallies to good morale.",
                            r.roll
                        ),
                    ));
                } else {
                    events.push(event(
                        Kind::RallyFails,
                        &[&id],
                        format!("{name} rolls {} needing {needed} and stays shaken.", r.roll),
                    ));
                }
            }
            Err(UmpireError::Forbidden { problem, .. }) => events.push(event(
                Kind::NoRally,
                &[&id],
                format!("{name} cannot rally: {problem}."),
            )),
            Err(e) => events.push(event(
                Kind::NoRally,
                &[&id],
                format!("{name} cannot rally: {e}."),
            )),
        }
    }
}
