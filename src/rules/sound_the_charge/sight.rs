//! What each side sees (docs/RULINGS.md, REP-1), and what on the ground
//! stops a line of fire: asked alike by the order check (an order may name
//! only what its writer sees), the turn's shooting, the bot and the
//! reports.
//!
//! A side sees all of its own units. It sees a unit of another side when one
//! of its own units in play has a line of sight to it: a straight line from
//! the observer's front centre to the target's front centre, centre or
//! either front corner, not crossing a crest line and running no further
//! inside a wood than the wood's visibility (light woods 6", heavy woods
//! 4") or inside a built-up area (town block, chateau) than 2". A unit that
//! fires is revealed to every side; units that meet in a charge or a combat
//! see each other.
//!
//! A line of fire is stopped by the same crest lines and the same woods'
//! visibility, read by the same functions here. It differs from a line of
//! sight where the rules make it differ: a wood's edge rule ("Troops hidden
//! on the edge are seen from the outside at six inches") is about being
//! seen, and a town block's 2" is REP-1's reading of who is seen, where the
//! rules say nothing of towns; a town's effect on shooting is its cover
//! (STC-72) and its blocks (STC-91).

use std::collections::{BTreeMap, BTreeSet};

use super::SoundTheCharge;
use super::basing;
use super::ground::{Ground, TerrainKind};
use super::state::{State, Unit};
use crate::geometry::{
    Hundredths, Point, distance, is_sight_blocked_by_lines, point_in_polygon, sees_through,
};
use crate::rules::board::{Location, TerrainShape};
use crate::rules::look::EventClass;
use crate::rules::ruleset::{Event, Presentation};

/// Gentle Hill Slopes: "block sighting past their crestlines", for a line
/// of sight and a line of fire alike.
pub fn crest_between(from: Point, to: Point, crests: &[Vec<Point>]) -> bool {
    is_sight_blocked_by_lines(from, to, crests)
}

/// The first wood a line of fire runs through for more than the wood's
/// visibility (Light Woods: "Visibility and range inside light woods is six
/// inches"; Heavy Woods, four), with that visibility: the same measure a
/// line of sight is held to inside a wood.
pub fn wood_across(
    state: &State,
    ground: &Ground,
    from: Point,
    to: Point,
) -> Option<(TerrainKind, Hundredths)> {
    ground.features(state).find_map(|(kind, t)| {
        let (Some(vis), TerrainShape::Area { points }) = (kind.woods_visibility(), &t.shape) else {
            return None;
        };
        (!sees_through(from, to, points, vis)).then_some((kind, vis))
    })
}

/// How far one sees through an area of terrain of `kind`, or `None` for a
/// kind that does not hide: inside woods as the rules give it
/// ([`TerrainKind::woods_visibility`]); not in the rules, buildings hide
/// what stands behind them, and troops at the edge of a town are seen
/// (REP-1).
pub fn area_visibility(kind: TerrainKind) -> Option<Hundredths> {
    if kind.is_built_up() {
        Some(200)
    } else {
        kind.woods_visibility()
    }
}

/// The terrain that hides, taken from the state once.
struct Cover<'a> {
    crests: Vec<Vec<Point>>,
    /// Each hiding area, how far one sees through it, and whether one
    /// standing in it sees out of it freely (a town block or chateau).
    areas: Vec<(&'a [Point], Hundredths, bool)>,
}

impl<'a> Cover<'a> {
    fn of(state: &'a State) -> Cover<'a> {
        let ground = Ground::new(state);
        let areas = ground
            .areas(state, |_| true)
            .filter_map(|(kind, _, points)| {
                area_visibility(kind).map(|v| (points, v, kind.is_built_up()))
            })
            .collect();
        // Terrain, Gentle Hill Slopes: "block sighting past their
        // crestlines."
        let crests = ground.crests().to_vec();
        Cover { crests, areas }
    }

    fn sees(&self, from: Point, to: Point) -> bool {
        !crest_between(from, to, &self.crests)
            && self.areas.iter().all(|&(area, v, building)| {
                // Towns: "Troops inside may fire out any side": they see
                // out of their own block (REP-1).
                (building && point_in_polygon(from, area))
                    || (sees_through(from, to, area, v)
                        && (building || edge_seen(from, to, area, v)))
            })
    }
}

/// Woods: "Troops hidden on the edge are seen from the outside at six
/// inches" (light woods; four in heavy woods): a point inside a wood is seen
/// only from within the wood's visibility of it, however little of the line
/// runs inside (REP-1).
fn edge_seen(from: Point, to: Point, area: &[Point], v: Hundredths) -> bool {
    !point_in_polygon(to, area) || distance(from, to) <= v
}

/// The point a unit looks from: its front centre.
fn eye(unit: &Unit) -> Option<Point> {
    match unit.location {
        Location::Table { x, y } => Some(Point { x, y }),
        Location::Hex { .. } => None,
    }
}

/// The points of a unit an observer may see it by.
fn sighting_points(unit: &Unit) -> Vec<Point> {
    match basing::footprint(unit) {
        Some(rect) => {
            let c = rect.corners();
            vec![rect.front_centre, rect.centre(), c[0], c[1]]
        }
        None => eye(unit).into_iter().collect(),
    }
}

/// What one side can see of the enemy now, asked unit by unit as orders
/// name them: an order may name only what its writer can see, else the
/// refusal would tell a hidden unit from one that does not exist. Each
/// answer is found once; most units in the open are seen from the first
/// eye that looks, so a sheet of orders costs little more than its targets.
pub struct Sight<'a> {
    side: &'a str,
    cover: Cover<'a>,
    eyes: Vec<Point>,
    known: std::cell::RefCell<BTreeMap<String, bool>>,
}

impl<'a> Sight<'a> {
    pub fn of(state: &'a State, side: &'a str) -> Sight<'a> {
        Sight {
            side,
            cover: Cover::of(state),
            eyes: state
                .units
                .iter()
                .filter(|u| u.side == side && u.eliminated.is_none())
                .filter_map(eye)
                .collect(),
            known: Default::default(),
        }
    }

    /// Whether the side sees the unit: its own always; an enemy if one of
    /// its units in play sees it across the cover between them.
    pub fn sees(&self, unit: &Unit) -> bool {
        if unit.side == self.side {
            return true;
        }
        if let Some(&known) = self.known.borrow().get(&unit.id) {
            return known;
        }
        let points = sighting_points(unit);
        let seen = self
            .eyes
            .iter()
            .any(|&from| points.iter().any(|&to| self.cover.sees(from, to)));
        self.known.borrow_mut().insert(unit.id.clone(), seen);
        seen
    }
}

/// The ids of the units `side` can see once the resolution is over.
pub(super) fn visible_to(
    rules: &SoundTheCharge,
    state: &State,
    side: &str,
    events: &[Event],
) -> BTreeSet<String> {
    let own_ids: BTreeSet<&str> = state
        .units
        .iter()
        .filter(|u| u.side == side)
        .map(|u| u.id.as_str())
        .collect();
    let mut seen: BTreeSet<String> = own_ids.iter().map(|s| s.to_string()).collect();
    for event in events {
        let class = event.class(|k| rules.event_class(k));
        // Light Woods: troops hidden on the edge are seen "unless they
        // fire, in which case they are revealed".
        if class == EventClass::Fire
            && let Some(firer) = event.units.first()
        {
            seen.insert(firer.clone());
        }
        if class.is_contact() && event.units.iter().any(|u| own_ids.contains(u.as_str())) {
            seen.extend(event.units.iter().cloned());
        }
    }
    let cover = Cover::of(state);
    let eyes: Vec<Point> = state
        .units
        .iter()
        .filter(|u| u.side == side && u.eliminated.is_none())
        .filter_map(eye)
        .collect();
    for target in state.units.iter().filter(|u| u.side != side) {
        if seen.contains(&target.id) {
            continue;
        }
        let points = sighting_points(target);
        let in_sight = eyes
            .iter()
            .any(|&from| points.iter().any(|&to| cover.sees(from, to)));
        if in_sight {
            seen.insert(target.id.clone());
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::sample;

    fn typed(state: &crate::rules::GameState) -> State {
        state.typed::<SoundTheCharge>().expect("the sample reads")
    }

    fn sample_visible(side: &str) -> (sample::SampleTurn, BTreeSet<String>) {
        let turn = sample::demo_turn().expect("the demo campaign loads");
        let seen = visible_to(&SoundTheCharge, &typed(&turn.next), side, &turn.events);
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
            path: Vec::new(),
            shows: None,
            text: String::new(),
        });
        let seen = visible_to(&SoundTheCharge, &typed(&turn.next), "french", &turn.events);
        assert!(seen.contains("jaeger"));
    }

    /// Gentle Hill Slopes: "block sighting past their crestlines."
    #[test]
    fn a_crest_hides_what_is_behind_it() {
        let (turn, _) = sample_visible("french");
        let mut next = typed(&turn.next);
        // Leave one French unit south of the Galgenberg crest (9,24)-(21,23)
        // and one Austrian north of it; every other unit leaves play.
        for u in &mut next.units {
            if !matches!(u.id.as_str(), "1-ligne" | "ir-1") {
                u.eliminated = Some("test".to_string());
                u.location = Location::Table { x: 0, y: 0 };
                u.side = "elsewhere".to_string();
            }
        }
        let seen = visible_to(&SoundTheCharge, &next, "french", &[]);
        assert!(!seen.contains("ir-1"), "seen over the crest");
        // Moved east of the crest's end, the Austrians are in plain view.
        if let Some(u) = next.units.iter_mut().find(|u| u.id == "ir-1") {
            u.location = Location::Table { x: 300, y: 3000 };
        }
        assert!(visible_to(&SoundTheCharge, &next, "french", &[]).contains("ir-1"));
    }
}
