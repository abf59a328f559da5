//! Where every unit stands and who commands it, for every phase of a turn:
//! the units' footprints on the shared spatial index
//! ([`crate::geometry::SpatialIndex`]), and the generals indexed by where
//! they stand and by the unit they are with, so that contact, zones of
//! control, targets and command radius cost the neighbours of a unit and
//! not every unit on the table. The phases keep it in step as units move,
//! retreat or leave play ([`Deployment::refresh`]). It holds the state's
//! terrain with its kinds read ([`Ground`]), for the phases' terrain rules.

use std::collections::BTreeMap;

use super::super::basing;
use super::super::turn::fighting::in_play;
use crate::geometry::{
    Hundredths, Point, Rect, SpatialIndex, bounds, distance, move_forward, nearest_point_of_rect,
    point_is_within_rect, segment_touches_rect,
};
use crate::rules::board::Location;
use crate::rules::sound_the_charge::ground::Ground;
use crate::rules::sound_the_charge::state::State;

/// The grid's cell: a little more than the longest range the phases ask
/// about often (musketry, the close ranges, command), so most queries visit
/// few cells.
pub const GRID_CELL: Hundredths = 800;

/// Two footprints this close (on the grid) are in contact; positions are
/// rounded to the hundredth, so units moved into contact at an angle may
/// stand a hundredth apart (docs/RULINGS.md, STC-26 and STC-36).
pub const CONTACT: Hundredths = 1;

/// Zones of Control: "You may not move a unit within 1" of an enemy unit";
/// a unit exactly 1" away is outside the zone (STC-36).
pub const ZONE_OF_CONTROL: Hundredths = 100;

/// Command Radius: "Generals have a command radius (CR) of eight inches".
pub const COMMAND_RADIUS: Hundredths = 800;

/// The units' footprints, the generals' command and the ground.
#[derive(Debug, Clone)]
pub struct Deployment {
    pub index: SpatialIndex,
    /// The terrain, its kinds read once.
    pub ground: Ground,
    /// Generals in play standing alone, by the cell of a command-radius
    /// grid.
    generals: BTreeMap<(i64, i64), Vec<usize>>,
    /// Generals in play attached to a unit, by the unit's id.
    attached: BTreeMap<String, Vec<usize>>,
}

/// Footprints of every unit in play, by index into `state.units`.
pub fn footprints(state: &State) -> Vec<Option<Rect>> {
    state
        .units
        .iter()
        .map(|u| {
            if in_play(u) {
                basing::footprint(u)
            } else {
                None
            }
        })
        .collect()
}

impl Deployment {
    pub fn new(state: &State) -> Deployment {
        let index = SpatialIndex::new(
            state.units.iter().map(|u| u.id.as_str()),
            footprints(state),
            GRID_CELL,
        );
        let mut generals: BTreeMap<(i64, i64), Vec<usize>> = BTreeMap::new();
        let mut attached: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (g, general) in state.generals.iter().enumerate() {
            if general.lost.is_some() {
                continue;
            }
            match (&general.attached_to, general.location) {
                (Some(unit), _) => attached.entry(unit.clone()).or_default().push(g),
                (None, Location::Table { x, y }) => generals
                    .entry((x.div_euclid(COMMAND_RADIUS), y.div_euclid(COMMAND_RADIUS)))
                    .or_default()
                    .push(g),
                (None, Location::Hex { .. }) => {}
            }
        }
        Deployment {
            index,
            ground: Ground::new(state),
            generals,
            attached,
        }
    }

    /// A unit's index by its id.
    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.index.index(id)
    }

    /// Takes unit `i`'s footprint again from the state after it moved,
    /// changed formation or left play.
    pub fn refresh(&mut self, state: &State, i: usize) {
        let new = state
            .units
            .get(i)
            .filter(|u| in_play(u))
            .and_then(basing::footprint);
        self.index.set(i, new);
    }

    /// Units in play within `d` of unit `i`'s footprint (exactly measured),
    /// other than `i`.
    pub fn within(&self, i: usize, d: Hundredths) -> Vec<usize> {
        self.index.within(i, d)
    }

    /// Whether a general of the unit's side is attached to unit `i`.
    pub fn general_attached(&self, state: &State, i: usize) -> bool {
        let u = &state.units[i];
        self.attached
            .get(&u.id)
            .is_some_and(|gs| gs.iter().any(|&g| state.generals[g].side == u.side))
    }

    /// Command Radius: "A unit within CR of a general acts normally", CR
    /// "measured from the head of the general's figure to the nearest point
    /// of the target unit" (STC-37). A general attached to a unit commands
    /// it alone: "a general's CR drops to zero if he attaches to a unit". A
    /// unit off the table is in no general's radius.
    pub fn in_command(&self, state: &State, i: usize) -> bool {
        if self.general_attached(state, i) {
            return true;
        }
        let Some(rect) = self.index.rect(i) else {
            return false;
        };
        let side = &state.units[i].side;
        let (x0, y0, x1, y1) = bounds(&rect);
        let c = COMMAND_RADIUS;
        for cx in (x0 - c).div_euclid(c)..=(x1 + c).div_euclid(c) {
            for cy in (y0 - c).div_euclid(c)..=(y1 + c).div_euclid(c) {
                for &g in self.generals.get(&(cx, cy)).into_iter().flatten() {
                    let general = &state.generals[g];
                    if general.side != *side {
                        continue;
                    }
                    if let Location::Table { x, y } = general.location
                        && point_is_within_rect(Point { x, y }, &rect, COMMAND_RADIUS)
                        && self.traced(state, i, Point { x, y }, &rect)
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether a general at `from` traces his command radius to unit `i`
    /// within 8" without passing through an enemy unit: "The path of CR may
    /// be traced in any desired manner, but not through impassable terrain
    /// or through enemy units" (STC-37). The straight line when no enemy
    /// footprint stands across it; else the shortest way round the enemy
    /// footprints within reach, by their corners (a way round convex
    /// obstacles bends only at their corners), to the nearest point or a
    /// corner of the unit's footprint. Passing along an enemy's edge or
    /// touching its corner is not passing through it.
    fn traced(&self, state: &State, i: usize, from: Point, rect: &Rect) -> bool {
        let side = &state.units[i].side;
        let reach = Rect {
            front_centre: from,
            facing: 0,
            width: 0,
            depth: 0,
        };
        let enemies: Vec<Rect> = self
            .index
            .grid
            .near_rect(&reach, COMMAND_RADIUS)
            .into_iter()
            .filter(|&j| j != i && state.units[j].side != *side)
            .filter_map(|j| self.index.rect(j))
            .filter(|r| point_is_within_rect(from, r, COMMAND_RADIUS))
            .collect();
        // Each enemy's inside, 0.02" in from its edges, so that a line along
        // an edge or by a corner is clear of it.
        let insides: Vec<Rect> = enemies
            .iter()
            .filter(|r| r.width > 4 && r.depth > 4)
            .map(|r| Rect {
                front_centre: move_forward(r, -2).front_centre,
                facing: r.facing,
                width: r.width - 4,
                depth: r.depth - 4,
            })
            .collect();
        let clear = |a: Point, b: Point| insides.iter().all(|r| !segment_touches_rect(a, b, r));
        let to_unit = |a: Point| -> Option<Hundredths> {
            let near = nearest_point_of_rect(a, rect);
            std::iter::once(near)
                .chain(rect.corners())
                .filter(|&q| clear(a, q))
                .map(|q| distance(a, q))
                .min()
        };
        if to_unit(from).is_some_and(|d| d <= COMMAND_RADIUS) {
            return true;
        }
        // Dijkstra over the enemies' corners within reach.
        let nodes: Vec<Point> = std::iter::once(from)
            .chain(enemies.iter().flat_map(|r| r.corners()))
            .filter(|&q| distance(from, q) <= COMMAND_RADIUS)
            .collect();
        let mut best = vec![Hundredths::MAX; nodes.len()];
        let mut done = vec![false; nodes.len()];
        best[0] = 0;
        while let Some(k) = (0..nodes.len())
            .filter(|&k| !done[k] && best[k] <= COMMAND_RADIUS)
            .min_by_key(|&k| best[k])
        {
            done[k] = true;
            if to_unit(nodes[k]).is_some_and(|d| best[k] + d <= COMMAND_RADIUS) {
                return true;
            }
            let at = nodes[k];
            for (n, &q) in nodes.iter().enumerate() {
                if done[n] {
                    continue;
                }
                let d = best[k] + distance(at, q);
                if d < best[n] && d <= COMMAND_RADIUS && clear(at, q) {
                    best[n] = d;
                }
            }
        }
        false
    }
}
