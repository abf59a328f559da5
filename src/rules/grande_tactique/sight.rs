//! What each side sees (ruling GT-10), asked alike by the charge's checks,
//! the turn and the reports.
//!
//! A side sees its own units, and an enemy unit when one of its units in
//! play has a line from its front centre to that unit's centre or a front
//! corner that runs no farther into woods or a Built-Up Area than the
//! campaign's `sight_into_cover`. Units that meet in a charge see each
//! other; a unit that fires is seen by all.

use std::collections::BTreeSet;

use super::GrandeTactique;
use super::basing;
use super::field::Field;
use super::params::Params;
use super::state::State;
use crate::geometry::{Point, sees_through};
use crate::rules::look::EventClass;
use crate::rules::ruleset::{Event, Presentation};

/// Whether a line between two points runs no farther into woods or a
/// Built-Up Area than the campaign's `sight_into_cover` (ruling GT-10).
/// Bases in the way are the field's to judge (`Field::line_clear`).
pub fn through_cover(field: &Field, a: Point, b: Point) -> bool {
    let see = Params::inches(field.params().sight_into_cover);
    field
        .cover_areas()
        .all(|(_, area)| sees_through(a, b, area, see))
}

pub(super) fn visible_to(
    rules: &GrandeTactique,
    state: &State,
    side: &str,
    events: &[Event],
) -> BTreeSet<String> {
    let own: BTreeSet<&str> = state
        .units
        .iter()
        .filter(|u| u.side == side)
        .map(|u| u.id.as_str())
        .collect();
    let mut seen: BTreeSet<String> = own.iter().map(|s| s.to_string()).collect();
    for e in events {
        let class = e.class(|k| rules.event_class(k));
        if class == EventClass::Fire
            && let Some(firer) = e.units.first()
        {
            seen.insert(firer.clone());
        }
        if class.is_contact() && e.units.iter().any(|u| own.contains(u.as_str())) {
            seen.extend(e.units.iter().cloned());
        }
    }
    let field = Field::new(state);
    let eyes: Vec<Point> = state
        .units
        .iter()
        .filter(|u| u.side == side && u.eliminated.is_none())
        .filter_map(|u| basing::footprint(u).map(|r| r.front_centre))
        .collect();
    for u in state
        .units
        .iter()
        .filter(|u| u.side != side && u.eliminated.is_none())
    {
        if seen.contains(&u.id) {
            continue;
        }
        let Some(r) = basing::footprint(u) else {
            continue;
        };
        let c = r.corners();
        let points = [r.centre(), c[0], c[1]];
        let visible = eyes
            .iter()
            .any(|&e| points.iter().any(|&p| through_cover(&field, e, p)));
        if visible {
            seen.insert(u.id.clone());
        }
    }
    seen
}
