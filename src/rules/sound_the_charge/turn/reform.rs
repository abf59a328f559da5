//! Reform: "The active side reforms disordered units which stood inactive
//! this turn."

use super::{SideOrders, TurnRecord};
use crate::rules::ruleset::Event;
use crate::rules::state::GameState;

/// Reforms the active side's disordered units that stood this turn.
pub fn phase(
    _state: &mut GameState,
    _active: &SideOrders,
    _record: &mut TurnRecord,
    _events: &mut Vec<Event>,
) {
}
