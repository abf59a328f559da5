//! What each side sees.

use std::collections::BTreeSet;

use super::state::State;
use crate::rules::ruleset::Event;

/// The ids of the units `side` sees: for now every unit on the table.
pub fn visible_to(state: &State, _side: &str, _events: &[Event]) -> BTreeSet<String> {
    state.units.iter().map(|u| u.id.clone()).collect()
}
