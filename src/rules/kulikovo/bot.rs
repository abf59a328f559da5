//! The bot player.

use super::state::State;

/// Legal, plausible order lines for `side`.
pub fn orders_for(_state: &State, _side: &str) -> Vec<String> {
    vec!["pass".to_string()]
}
