//! Reform: "The active side reforms disordered units which stood inactive
//! this turn." Steadiness and Disorder: "A unit must stand for one active
//! turn to reform from disorder. This is automatic. The unit may not move,
//! shoot, or be in combat on a turn during which it wishes to reform."

use super::super::field::Field;
use super::super::orders::StcOrder;
use super::{SideOrders, TurnRecord};
use crate::rules::ruleset::Event;
use crate::rules::sound_the_charge::events::{Kind, event};
use crate::rules::sound_the_charge::state::State;

/// Reforms the active side's disordered units that stood this turn: they did
/// not move, maneuver, charge or shoot, and are not in contact with the
/// enemy.
pub fn phase(
    state: &mut State,
    active: &SideOrders,
    record: &mut TurnRecord,
    events: &mut Vec<Event>,
) {
    let stood: Vec<(usize, Option<&'static str>)> = {
        let field = Field::new(state);
        field
            .friends_of(&active.side)
            .filter(|&i| state.units[i].rules.disordered)
            .map(|i| {
                let id = state.units[i].id.as_str();
                let shot = active
                    .for_unit(id)
                    .any(|g| matches!(g.order, StcOrder::Shoot { .. }));
                let why = if super::boats::in_boats(&state.units[i]) {
                    Some("it is in boats (Optional Rules, Boats: \"Units in boats are disordered.\")")
                } else if !record.disordered_at_start.contains(id) {
                    Some("it became disordered only this turn")
                } else if record.moved.contains_key(id) || record.charged(id) {
                    Some("it moved this turn")
                } else if record.maneuvered.contains(id) {
                    Some("it changed formation or facing this turn")
                } else if shot {
                    Some("it was ordered to shoot this turn")
                } else if field.is_engaged(i)
                    || state.units[i].rules.status.last_combat_turn == state.turn
                {
                    Some("it is in close combat")
                } else {
                    None
                };
                (i, why)
            })
            .collect()
    };
    for (i, why) in stood {
        let u = &mut state.units[i];
        let (id, name) = (u.id.clone(), u.name.clone());
        match why {
            None => {
                u.rules.disordered = false;
                events.push(event(
                    Kind::Reform,
                    &[&id],
                    format!("{name} stood this turn and reforms from disorder."),
                ));
            }
            Some(why) if record.reforming.contains(&id) => events.push(event(
                Kind::ReformFails,
                &[&id],
                format!("{name} cannot reform: {why} (Steadiness and Disorder)."),
            )),
            Some(_) => {}
        }
    }
}
