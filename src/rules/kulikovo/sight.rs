//! What each side sees (ruling KUL-24), and the line of fire between two
//! hexes (ruling KUL-21).
//!
//! The field of Kulikovo is open: a side sees every enemy unit but one in
//! woods that none of its units stands next to; a unit that fires is seen
//! by all, and units that meet in a charge or a shock see each other.
//!
//! The line of fire between two hexes (ruling KUL-21) is a straight line
//! between their centres. Adjacent hexes always see each other ("Blocks
//! LOS unless adjacent"). Otherwise the line is blocked by a hex it passes
//! through that is woods ("May fire into but not through") or holds a unit
//! (unless the campaign option `fire-over-units`), and by a level change, steep
//! slope, ridge or cliff it crosses. Where the line runs exactly along a
//! hexside, between two hexes, it is blocked only if it is blocked on both
//! sides of that hexside: the fire may go past either way.

use std::collections::BTreeSet;

use super::Kulikovo;
use super::clauses;
use super::field::Field;
use super::mechanics::moves::Refusal;
use super::params::Intervening;
use super::state::State;
use crate::geometry::Hex;
use crate::rules::look::EventClass;
use crate::rules::ruleset::{Event, Presentation};

/// The ids of the units `side` can see once the resolution is over.
pub(super) fn visible_to(
    rules: &Kulikovo,
    state: &State,
    side: &str,
    events: &[Event],
) -> BTreeSet<String> {
    let mut seen: BTreeSet<String> = state
        .units
        .iter()
        .filter(|u| u.side == side)
        .map(|u| u.id.clone())
        .collect();
    for event in events {
        let class = event.class(|k| rules.event_class(k));
        if class == EventClass::Fire
            && let Some(firer) = event.units.first()
        {
            seen.insert(firer.clone());
        }
        if class.is_contact()
            && event
                .units
                .iter()
                .any(|u| state.unit(u).is_some_and(|u| u.side == side))
        {
            seen.extend(event.units.iter().cloned());
        }
    }
    let field = Field::new(state.clone());
    for (i, u) in state.units.iter().enumerate() {
        if u.side == side || seen.contains(&u.id) {
            continue;
        }
        if u.eliminated.is_some() {
            seen.insert(u.id.clone());
            continue;
        }
        let at = field.hex(i);
        let hidden = field.ground.is_woods(at)
            && !field
                .enemies_next_to(at, &u.side)
                .iter()
                .any(|&j| field.unit(j).side == side);
        if !hidden {
            seen.insert(u.id.clone());
        }
    }
    seen
}

/// Whether a hex the line passes through (not its ends) stops it.
fn hex_blocks(field: &Field, hex: Hex) -> Option<Refusal> {
    if field.ground.is_woods(hex) {
        return Some(Refusal::new(
            format!("the woods in {} are in the way", hex.label()),
            clauses::WOODS_FIRE,
        ));
    }
    if field.readings.intervening_units == Intervening::Block && !field.at(hex).is_empty() {
        return Some(Refusal::new(
            format!("the unit in {} is in the way", hex.label()),
            "ruling KUL-21; campaign option fire-over-units",
        ));
    }
    None
}

/// Whether the line of fire from `from` to `to` is clear; why not if not.
pub fn line_of_fire(field: &Field, from: Hex, to: Hex) -> Result<(), Refusal> {
    if from.distance(to) <= 1 {
        return Ok(());
    }
    let steps = from.line_to(to);
    let last = steps.len() - 1;
    // The hexes the line can be said to be in, step by step, kept while
    // some way to them is clear.
    let mut open: BTreeSet<Hex> = BTreeSet::from([from]);
    let mut first_block: Option<Refusal> = None;
    for (k, step) in steps.iter().enumerate().skip(1) {
        let mut next = BTreeSet::new();
        for hex in step.hexes() {
            if k < last
                && let Some(r) = hex_blocks(field, hex)
            {
                first_block.get_or_insert(r);
                continue;
            }
            let reached = open.iter().any(|&p| match field.ground.between(p, hex) {
                Some(crossing) => match crossing.blocks_sight() {
                    Some(clause) => {
                        first_block.get_or_insert(Refusal::new(
                            format!(
                                "the hexside between {} and {} blocks the line of fire",
                                p.label(),
                                hex.label()
                            ),
                            clause,
                        ));
                        false
                    }
                    None => true,
                },
                None => false,
            });
            if reached {
                next.insert(hex);
            }
        }
        if next.is_empty() {
            return Err(first_block.unwrap_or_else(|| {
                Refusal::plain(format!(
                    "no line of fire from {} to {}",
                    from.label(),
                    to.label()
                ))
            }));
        }
        open = next;
    }
    if open.contains(&to) {
        Ok(())
    } else {
        Err(first_block
            .unwrap_or_else(|| Refusal::plain(format!("no line of fire to {}", to.label()))))
    }
}
