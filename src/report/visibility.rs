//! What a side can see at the end of a resolution (docs/RULINGS.md, REP-1).
//!
//! A side sees all of its own units. It sees a unit of another side when one
//! of its own units in play has a line of sight to it: a straight line from
//! the observer's front centre to the target's front centre, centre or
//! either front corner, not crossing a crest line and running no further
//! inside a wood than the wood's visibility (light woods 6", heavy woods
//! 4") or inside a built-up area (town block, chateau) than 2". A unit that
//! fires is revealed to every side; units that meet in a charge or a combat
//! see each other. On a hex map every unit is seen, until a hex ruleset
//! gives its own rule.

use std::collections::BTreeSet;

use crate::geometry::{Hundredths, Point};
use crate::geometry::{is_sight_blocked_by_lines, sees_through};
use crate::map::kinds;
use crate::rules::board::{Location, MapSpec, TerrainShape};
use crate::rules::ruleset::Event;
use crate::rules::state::UnitState;
use crate::rules::{GameState, Ruleset};

/// How far one sees through an area of terrain of `kind`, or `None` for a
/// kind that does not hide.
pub fn area_visibility(kind: &str) -> Option<Hundredths> {
    match kind {
        // Terrain, Light Woods: "Visibility and range inside light woods is
        // six inches."
        "light-woods" => Some(600),
        // Terrain, Heavy Woods: "Visibility and range inside heavy woods is
        // four inches."
        "heavy-woods" => Some(400),
        // Not in the rules: buildings hide what stands behind them, and
        // troops at the edge of a town are seen (REP-1).
        "town-block" | "chateau" => Some(200),
        _ => None,
    }
}

/// The terrain that hides, taken from the state once.
struct Cover<'a> {
    crests: Vec<Vec<Point>>,
    areas: Vec<(&'a [Point], Hundredths)>,
}

impl<'a> Cover<'a> {
    fn of(state: &'a GameState) -> Cover<'a> {
        let mut crests = Vec::new();
        let mut areas = Vec::new();
        for t in &state.terrain {
            match &t.shape {
                // Terrain, Gentle Hill Slopes: "block sighting past their
                // crestlines."
                TerrainShape::Line { points } if t.kind == "crest" => crests.push(points.clone()),
                TerrainShape::Area { points } => {
                    if let Some(v) = area_visibility(&t.kind) {
                        areas.push((points.as_slice(), v));
                    }
                }
                _ => {}
            }
        }
        Cover { crests, areas }
    }

    fn sees(&self, from: Point, to: Point) -> bool {
        !is_sight_blocked_by_lines(from, to, &self.crests)
            && self
                .areas
                .iter()
                .all(|&(area, v)| sees_through(from, to, area, v))
    }
}

/// The point a unit looks from: its front centre.
fn eye(unit: &UnitState) -> Option<Point> {
    match unit.spec.location {
        Location::Table { x, y } => Some(Point { x, y }),
        Location::Hex { .. } => None,
    }
}

/// The points of a unit an observer may see it by.
fn marks(ruleset: &dyn Ruleset, unit: &UnitState) -> Vec<Point> {
    match ruleset.footprint(&unit.spec) {
        Some(rect) => {
            let c = rect.corners();
            vec![rect.front_centre, rect.centre(), c[0], c[1]]
        }
        None => eye(unit).into_iter().collect(),
    }
}

/// The ids of the units `side` can see once the resolution is over.
pub fn visible_to(
    ruleset: &dyn Ruleset,
    state: &GameState,
    side: &str,
    events: &[Event],
) -> BTreeSet<String> {
    let own_ids: BTreeSet<&str> = state
        .units
        .iter()
        .filter(|u| u.spec.side == side)
        .map(|u| u.spec.id.as_str())
        .collect();
    let mut seen: BTreeSet<String> = own_ids.iter().map(|s| s.to_string()).collect();
    if matches!(state.map, MapSpec::Hex { .. }) {
        seen.extend(state.units.iter().map(|u| u.spec.id.clone()));
        return seen;
    }
    for event in events {
        // Light Woods: troops hidden on the edge are seen "unless they
        // fire, in which case they are revealed".
        if kinds::is_fire(&event.kind)
            && let Some(firer) = event.units.first()
        {
            seen.insert(firer.clone());
        }
        if kinds::is_contact(&event.kind)
            && event.units.iter().any(|u| own_ids.contains(u.as_str()))
        {
            seen.extend(event.units.iter().cloned());
        }
    }
    let cover = Cover::of(state);
    let eyes: Vec<Point> = state
        .units
        .iter()
        .filter(|u| u.spec.side == side && u.eliminated.is_none())
        .filter_map(eye)
        .collect();
    for target in state.units.iter().filter(|u| u.spec.side != side) {
        if seen.contains(&target.spec.id) {
            continue;
        }
        let points = marks(ruleset, target);
        let in_sight = eyes
            .iter()
            .any(|&from| points.iter().any(|&to| cover.sees(from, to)));
        if in_sight {
            seen.insert(target.spec.id.clone());
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::sample;
    use crate::rules::ruleset_for;

    fn sample_visible(side: &str) -> (sample::SampleTurn, BTreeSet<String>) {
        let turn = sample::demo_turn().expect("the demo campaign loads");
        let ruleset = ruleset_for(&turn.next.ruleset).expect("known");
        let seen = visible_to(ruleset, &turn.next, side, &turn.events);
        (turn, seen)
    }

    /// Heavy Woods: "Visibility and range inside heavy woods is four
    /// inches": the Jäger, five inches deep in the Wolfswald, are hidden.
    #[test]
    fn troops_deep_in_a_wood_are_hidden() {
        let (_, seen) = sample_visible("french");
        assert!(!seen.contains("jaeger"));
        assert!(seen.contains("ir-4"), "troops in the open are seen");
        assert!(seen.contains("1-ligne"), "a side sees its own");
    }

    /// "Troops hidden on the edge are seen from the outside at four inches
    /// unless they fire, in which case they are revealed."
    #[test]
    fn troops_that_fire_are_revealed() {
        let (mut turn, _) = sample_visible("french");
        turn.events.push(Event {
            kind: "shooting".to_string(),
            units: vec!["jaeger".to_string(), "12-dragons".to_string()],
            text: String::new(),
        });
        let ruleset = ruleset_for(&turn.next.ruleset).expect("known");
        assert!(visible_to(ruleset, &turn.next, "french", &turn.events).contains("jaeger"));
    }

    /// Gentle Hill Slopes: "block sighting past their crestlines."
    #[test]
    fn a_crest_hides_what_is_behind_it() {
        let (mut turn, _) = sample_visible("french");
        // Leave one French unit south of the Galgenberg crest (9,24)-(21,23)
        // and one Austrian north of it; every other unit leaves play.
        for u in &mut turn.next.units {
            if !matches!(u.spec.id.as_str(), "1-ligne" | "ir-1") {
                u.eliminated = Some("test".to_string());
                u.spec.location = Location::Table { x: 0, y: 0 };
                u.spec.side = "elsewhere".to_string();
            }
        }
        let ruleset = ruleset_for(&turn.next.ruleset).expect("known");
        let seen = visible_to(ruleset, &turn.next, "french", &[]);
        assert!(!seen.contains("ir-1"), "seen over the crest");
        // Moved east of the crest's end, the Austrians are in plain view.
        if let Some(u) = turn.next.units.iter_mut().find(|u| u.spec.id == "ir-1") {
            u.spec.location = Location::Table { x: 300, y: 3000 };
        }
        assert!(visible_to(ruleset, &turn.next, "french", &[]).contains("ir-1"));
    }
}
