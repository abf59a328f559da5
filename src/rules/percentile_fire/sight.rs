//! What each side sees (ruling PF-22): all of its own units, every enemy
//! unit one of its units in play can observe as fire combat observes it
//! (11.26, 11.45: crest lines and the sight terrain allows, a garrison seen
//! at its building's walls), and every unit that fired, charged or shocked
//! in the phase, which gives itself away.

use std::collections::BTreeSet;

use super::field::Table;
use super::state::State;
use crate::rules::look::EventClass;
use crate::rules::ruleset::{Event, Presentation};

/// The ids of the units `side` sees once the phase is over.
pub fn visible_to(state: &State, side: &str, events: &[Event]) -> BTreeSet<String> {
    let table = Table::new(state);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let eyes: Vec<_> = state
        .units
        .iter()
        .filter(|u| u.side == side)
        .inspect(|u| {
            seen.insert(u.id.clone());
        })
        .filter(|u| u.eliminated.is_none())
        .filter_map(|u| table.rect(state, u))
        .map(|r| r.front_centre)
        .collect();
    for u in state.units.iter().filter(|u| u.side != side) {
        let Some(r) = table.rect(state, u) else {
            continue;
        };
        if eyes.iter().any(|&e| table.sees(e, &r, &state.params)) {
            seen.insert(u.id.clone());
        }
    }
    // Who fired, charged or shocked gave itself away; its target was
    // seen by it.
    let rules = super::PercentileFire;
    for e in events {
        if matches!(
            e.class(|k| rules.event_class(k)),
            EventClass::Fire | EventClass::Charge | EventClass::ChargeShort
        ) {
            seen.extend(e.units.iter().cloned());
        }
    }
    seen
}
