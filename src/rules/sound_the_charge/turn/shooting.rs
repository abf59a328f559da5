//! The shooting phase: "The active side then does all shooting with
//! eligible units. Passive units test if hit by shooting."

use super::{SideOrders, TurnRecord};
use crate::audit::dice::Dice;
use crate::rules::ruleset::Event;
use crate::rules::state::GameState;

/// Resolves the active side's `shoot` orders in line order, the passive
/// units' morale tests and their retreats; records each target's hits in
/// `record.shooting_hits`. Units that charged, moved too far, are shaken or
/// are reforming this turn may not shoot (see [`TurnRecord`]).
pub fn phase(
    _state: &mut GameState,
    _active: &SideOrders,
    _record: &mut TurnRecord,
    _dice: &mut dyn Dice,
    _events: &mut Vec<Event>,
) {
}
