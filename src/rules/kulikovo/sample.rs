//! A made-up turn on the demo field.

use super::Kulikovo;
use super::state::State;
use crate::rules::ruleset::Preview;

/// The preview turn.
pub fn preview(initial: &State) -> Preview<Kulikovo> {
    Preview {
        prior: initial.clone(),
        next: initial.clone(),
        events: Vec::new(),
        rolls: Vec::new(),
    }
}
