//! Shattered units and the optional rule Army Morale.

use crate::audit::dice::Dice;
use crate::rules::ruleset::Event;
use crate::rules::state::GameState;

/// Shattered Units: "A unit reduced to one quarter of its original strength
/// is "shattered" and removed from play at the end of the current phase."
/// Called at the end of every phase of the turn.
pub fn remove_shattered(_state: &mut GameState, _events: &mut Vec<Event>) {}

/// Army Morale (optional rule): "An army's overall will to fight will break
/// if that side ends any turn (active or passive) with half or more of its
/// units eliminated (shattered or forced off-table) or in shaken status."
/// Sets `state.finished` when the game ends.
pub fn check(_state: &mut GameState, _dice: &mut dyn Dice, _events: &mut Vec<Event>) {}
