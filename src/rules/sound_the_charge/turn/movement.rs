//! The movement phase: "moves all desired units, including making charge
//! moves. The passive side may make evade moves with eligible units in
//! response to charges."

use super::{SideOrders, TurnRecord};
use crate::audit::dice::Dice;
use crate::rules::ruleset::Event;
use crate::rules::state::GameState;

/// Moves the active side's units by their orders, in line order, with the
/// passive side's evades in answer to charges.
pub fn phase(
    state: &mut GameState,
    active: &SideOrders,
    _passive: &[SideOrders],
    _record: &mut TurnRecord,
    _dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) {
    for given in &active.orders {
        if let StcOrder::Hold { unit } = &given.order {
            let id = unit.as_str();
            let name = state
                .unit(id)
                .map_or(id.to_string(), |u| u.spec.name.clone());
            events.push(Event {
                kind: "hold".to_string(),
                units: vec![id.to_string()],
                text: format!("{name} stands fast."),
            });
        }
    }
}

use super::super::orders::StcOrder;
use super::validate::Refusal;

/// Whether the rules allow `side` to give this order now (references
/// already resolved to ids).
pub fn allowed(_state: &GameState, _side: &str, _order: &StcOrder) -> Result<(), Refusal> {
    Ok(())
}
