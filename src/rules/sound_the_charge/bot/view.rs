//! What a side's player knows of the table: the state with every enemy unit
//! the side cannot see left out.
//!
//! A player learns the field from the side's report, which names only the
//! units its troops can see (ruling REP-1), and may name in orders only
//! the enemy units in sight as the orders are checked (REP-2). The bot
//! plans on the same knowledge: it reckons distances, odds and paths on
//! this view and never on the state the umpire holds.

use crate::rules::sound_the_charge::sight::Sight;
use crate::rules::sound_the_charge::state::State;

/// The state as `side` sees it: its own units and generals, and the enemy
/// units in its sight by the very test that decides which enemies its
/// orders may name. Enemy generals are left out: a report names an
/// unattached enemy general only to the GM.
pub fn seen_by(state: &State, side: &str) -> State {
    let sight = Sight::of(state, side);
    let hidden: Vec<String> = state
        .units
        .iter()
        .filter(|u| !sight.sees(u))
        .map(|u| u.id.clone())
        .collect();
    let mut seen = state.clone();
    seen.units.retain(|u| !hidden.contains(&u.id));
    seen.generals.retain(|g| g.side == side);
    seen
}
