//! The table as fire combat reads it: every unit's footprint in one
//! spatial index (a unit standing in a square stands in its square's
//! footprint), the terrain areas and crest lines, who sees whom (11.26,
//! 11.45), and the cover a unit stands in (11.14). The tests a fire attack
//! must pass are in `eligible`; the target's category in `target`; the
//! figures that fire in `figures`; indirect fire in `indirect`.

pub mod eligible;
pub mod figures;
pub mod indirect;
pub mod target;

use std::collections::BTreeMap;

use super::basing;
use super::ground::TerrainKind;
use super::params::Params;
use super::state::{State, Unit};
use crate::geometry::{
    Hundredths, Point, Rect, SpatialIndex, distance_to_rect, is_sight_blocked_by_lines,
    length_inside_polygon, nearest_point_of_rect, point_in_polygon,
};
use crate::rules::board::TerrainShape;
use crate::rules::kernel::Ratio;

/// Cells of the spatial index: about the reach of a musket.
const CELL: Hundredths = 600;

/// A terrain area: its kind, read once from the state's word, and outline.
#[derive(Debug, Clone)]
pub struct Area {
    pub id: String,
    pub kind: TerrainKind,
    pub points: Vec<Point>,
}

/// The footprints and the terrain of a state.
#[derive(Debug, Clone)]
pub struct Table {
    /// Every unit's footprint by its place in `state.units`; `None` for a
    /// unit out of play or standing in a square.
    pub index: SpatialIndex,
    /// The terrain areas of a kind the chapter reads (set-up refuses any
    /// other), in the state's order.
    pub areas: Vec<Area>,
    /// Crest lines, which block sight.
    pub crests: Vec<Vec<Point>>,
    /// The units standing in each square, by the square's unit, as places
    /// in `state.units`.
    squares: BTreeMap<String, Vec<usize>>,
}

impl Table {
    pub fn new(state: &State) -> Table {
        let rects: Vec<Option<Rect>> = state.units.iter().map(own_rect).collect();
        let index = SpatialIndex::new(state.units.iter().map(|u| u.id.as_str()), rects, CELL);
        let mut areas = Vec::new();
        let mut crests = Vec::new();
        for t in &state.terrain {
            let Some(kind) = TerrainKind::parse(&t.kind) else {
                continue;
            };
            match &t.shape {
                TerrainShape::Area { points } => areas.push(Area {
                    id: t.id.clone(),
                    kind,
                    points: points.clone(),
                }),
                TerrainShape::Line { points } if kind == TerrainKind::Crest => {
                    crests.push(points.clone());
                }
                _ => {}
            }
        }
        let mut squares: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, u) in state.units.iter().enumerate() {
            if let Some(host) = &u.rules.in_square {
                squares.entry(host.clone()).or_default().push(i);
            }
        }
        Table {
            index,
            areas,
            crests,
            squares,
        }
    }

    /// Puts a unit's footprint where it stands now.
    pub fn update(&mut self, state: &State, id: &str) {
        if let (Some(i), Some(u)) = (self.index.index(id), state.unit(id)) {
            self.index.set(i, own_rect(u));
        }
    }

    /// The unit whose square `u` stands in, or `u` itself.
    pub fn host<'s>(&self, state: &'s State, u: &'s Unit) -> &'s Unit {
        u.rules
            .in_square
            .as_deref()
            .and_then(|s| self.unit(state, s))
            .filter(|h| h.eliminated.is_none())
            .unwrap_or(u)
    }

    /// The ground a unit covers: its own, or its square's.
    pub fn rect(&self, state: &State, u: &Unit) -> Option<Rect> {
        let host = self.host(state, u);
        self.index.index(&host.id).and_then(|i| self.index.rect(i))
    }

    /// The units that make one square: its own unit and those standing in
    /// it, in the state's order (11.28: "A infantry square [...] is
    /// considered one target even if more than one unit makes up the
    /// square").
    pub fn square<'s>(&self, state: &'s State, host: &Unit) -> Vec<&'s Unit> {
        let own = self
            .unit(state, &host.id)
            .filter(|u| u.eliminated.is_none());
        let members = self
            .squares
            .get(&host.id)
            .into_iter()
            .flatten()
            .filter_map(|&i| state.units.get(i))
            .filter(|u| u.eliminated.is_none());
        own.into_iter().chain(members).collect()
    }

    /// A unit by its id, through the index.
    pub fn unit<'s>(&self, state: &'s State, id: &str) -> Option<&'s Unit> {
        self.index
            .index(id)
            .and_then(|i| state.units.get(i))
            .filter(|u| u.id == id)
    }

    /// The kinds of the areas a point lies in.
    pub fn kinds_at(&self, p: Point) -> Vec<TerrainKind> {
        self.areas
            .iter()
            .filter(|a| point_in_polygon(p, &a.points))
            .map(|a| a.kind)
            .collect()
    }

    /// The area a unit stands in, by its centre: a building, a redoubt, a
    /// wood.
    pub fn stands_in(&self, rect: &Rect, kind: impl Fn(TerrainKind) -> bool) -> Option<&Area> {
        let c = rect.centre();
        self.areas
            .iter()
            .find(|a| kind(a.kind) && point_in_polygon(c, &a.points))
    }

    /// Whether a unit stands in a building of Class I, II or III.
    pub fn in_building(&self, rect: &Rect) -> bool {
        self.stands_in(rect, TerrainKind::is_building).is_some()
    }

    /// Whether a unit mans a redoubt.
    pub fn in_redoubt(&self, rect: &Rect) -> bool {
        self.stands_in(rect, |k| k == TerrainKind::Redoubt)
            .is_some()
    }

    /// The best cover a unit stands in (11.14): the smallest factor of the
    /// terrain under its centre, with its kind.
    pub fn cover(&self, rect: &Rect, params: &Params) -> Option<(TerrainKind, Ratio)> {
        let c = rect.centre();
        self.areas
            .iter()
            .filter(|a| point_in_polygon(c, &a.points))
            .filter_map(|a| {
                params
                    .terrain_effect(a.kind)
                    .and_then(|t| t.cover)
                    .map(|r| (a.kind, r))
            })
            .min_by(|(_, x), (_, y)| {
                (u64::from(x.numerator()) * u64::from(y.denominator()))
                    .cmp(&(u64::from(y.numerator()) * u64::from(x.denominator())))
            })
    }

    /// Whether a straight line of sight runs clear from one point to
    /// another: no crest line across it, and no further inside any area
    /// than the area lets sight run (ruling PF-15), but the buildings in
    /// `garrisons`, whose walls the units within fire out of and are seen
    /// at.
    fn clear_line_but(&self, from: Point, to: Point, params: &Params, garrisons: &[usize]) -> bool {
        if is_sight_blocked_by_lines(from, to, &self.crests) {
            return false;
        }
        self.areas.iter().enumerate().all(|(i, a)| {
            if garrisons.contains(&i) {
                return true;
            }
            match params.terrain_effect(a.kind).and_then(|t| t.sight) {
                Some(limit) => length_inside_polygon(from, to, &a.points) <= limit,
                None => true,
            }
        })
    }

    /// Whether a straight line of sight runs clear from one point to
    /// another (see [`Table::sees`]).
    pub fn clear_line(&self, from: Point, to: Point, params: &Params) -> bool {
        self.clear_line_but(from, to, params, &[])
    }

    /// Whether a point sees any of a unit: its front centre, its centre or
    /// its point nearest the observer (11.26: "A unit cannot fire at a
    /// target unit it cannot observe"). A building the observer or the
    /// target stands in hides neither: its garrison fires out of its walls
    /// and is seen at them.
    pub fn sees(&self, from: Point, target: &Rect, params: &Params) -> bool {
        let centre = target.centre();
        let garrisons: Vec<usize> = self
            .areas
            .iter()
            .enumerate()
            .filter(|(_, a)| a.kind.is_building())
            .filter(|(_, a)| {
                point_in_polygon(from, &a.points) || point_in_polygon(centre, &a.points)
            })
            .map(|(i, _)| i)
            .collect();
        [
            nearest_point_of_rect(from, target),
            target.front_centre,
            centre,
        ]
        .into_iter()
        .any(|p| self.clear_line_but(from, p, params, &garrisons))
    }

    /// How far a point is from a unit's nearest point.
    pub fn distance(from: Point, target: &Rect) -> Hundredths {
        distance_to_rect(from, target)
    }
}

/// A unit's own footprint: none out of play or inside a square.
fn own_rect(u: &Unit) -> Option<Rect> {
    if u.eliminated.is_some() {
        return None;
    }
    basing::footprint(u)
}
