//! The bot player, and the order lines a report offers a side.

use super::state::State;

/// The bot's order lines for `side`.
pub fn orders_for(_state: &State, _side: &str) -> Vec<String> {
    vec!["pass".to_string()]
}

/// The lines a report offers `side` to reply with.
pub fn template(state: &State, side: &str) -> Vec<String> {
    let mut out = vec!["pass".to_string()];
    for u in state
        .units
        .iter()
        .filter(|u| u.side == side && u.eliminated.is_none())
    {
        out.push(format!("# {}: hold", u.id));
    }
    out
}
