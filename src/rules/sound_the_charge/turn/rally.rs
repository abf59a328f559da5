//! The rally step: "The active side tests to rally shaken units".

use super::{SideOrders, TurnRecord};
use crate::audit::dice::Dice;
use crate::rules::ruleset::Event;
use crate::rules::state::GameState;

/// Tests every shaken unit of the active side that may rally.
pub fn phase(
    _state: &mut GameState,
    _active: &SideOrders,
    _record: &mut TurnRecord,
    _dice: &mut dyn Dice,
    _events: &mut Vec<Event>,
) {
}
