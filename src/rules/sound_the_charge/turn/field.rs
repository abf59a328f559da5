//! A view of the table for the phases: each unit's footprint, terrain under
//! and across a footprint or a move, who touches whom, zones of control,
//! command, and friend and enemy queries. A `Field` is built from a state
//! and reads it; phases build a fresh one after they change positions.

use crate::geometry::{
    self, Rect, point_is_within_rect, rect_distance, rect_intersects_polygon, segment_touches_rect,
};
use crate::geometry::{Hundredths, Point};
use crate::rules::board::{Location, Terrain, TerrainShape};
use crate::rules::sound_the_charge::setup::{Arm, arm};
use crate::rules::sound_the_charge::state::{State, Unit};
use std::collections::{BTreeMap, BTreeSet};

use super::fighting::{GRID_CELL, Grid, bounds};

/// Two footprints this close (on the grid) are in contact; positions are
/// rounded to the hundredth, so units moved into contact at an angle may
/// stand a hundredth apart (docs/RULINGS.md, STC-26 and STC-36).
pub const CONTACT: Hundredths = 1;

/// Zones of Control: "You may not move a unit within 1" of an enemy unit";
/// a unit exactly 1" away is outside the zone (STC-36).
pub const ZONE_OF_CONTROL: Hundredths = 100;

/// Command Radius: "Generals have a command radius (CR) of eight inches".
pub const COMMAND_RADIUS: Hundredths = 800;

/// The table as the phases see it.
pub struct Field<'a> {
    pub state: &'a State,
    /// Each unit's footprint, by its index in `state.units`; `None` for a
    /// unit out of play or without a footprint.
    rects: Vec<Option<Rect>>,
    /// The footprints on a spatial grid, unit indices by id, generals by
    /// the cell they stand in and by the unit they are attached to, so
    /// that contact, zone of control and command cost the neighbours and
    /// not every unit (the turn benchmark, docs/PERFORMANCE.md).
    grid: Grid,
    ids: BTreeMap<&'a str, usize>,
    general_cells: BTreeMap<(i64, i64), Vec<usize>>,
    attached: BTreeSet<&'a str>,
}

impl<'a> Field<'a> {
    pub fn new(state: &'a State) -> Field<'a> {
        let rects = state
            .units
            .iter()
            .map(|u| {
                if u.eliminated.is_some() {
                    None
                } else {
                    crate::rules::sound_the_charge::basing::footprint(u)
                }
            })
            .collect::<Vec<_>>();
        let grid = Grid::new(&rects, GRID_CELL);
        let mut ids = BTreeMap::new();
        for (i, u) in state.units.iter().enumerate() {
            ids.entry(u.id.as_str()).or_insert(i);
        }
        let mut general_cells: BTreeMap<(i64, i64), Vec<usize>> = BTreeMap::new();
        let mut attached = BTreeSet::new();
        for (g, general) in state.generals.iter().enumerate() {
            if general.lost.is_some() {
                continue;
            }
            match (&general.attached_to, general.location) {
                (Some(unit), _) => {
                    attached.insert(unit.as_str());
                }
                (None, Location::Table { x, y }) => general_cells
                    .entry((x.div_euclid(COMMAND_RADIUS), y.div_euclid(COMMAND_RADIUS)))
                    .or_default()
                    .push(g),
                (None, Location::Hex { .. }) => {}
            }
        }
        Field {
            state,
            rects,
            grid,
            ids,
            general_cells,
            attached,
        }
    }

    /// The index of a unit by id.
    pub fn index(&self, id: &str) -> Option<usize> {
        self.ids.get(id).copied()
    }

    pub fn unit(&self, i: usize) -> &'a Unit {
        &self.state.units[i]
    }

    /// The unit's footprint, if it is on the table.
    pub fn rect(&self, i: usize) -> Option<Rect> {
        self.rects.get(i).copied().flatten()
    }

    /// Puts a unit's footprint where a phase has moved it.
    pub fn set_rect(&mut self, i: usize, rect: Option<Rect>) {
        if let Some(slot) = self.rects.get_mut(i) {
            if let Some(old) = slot {
                self.grid.remove(i, old);
            }
            if let Some(new) = &rect {
                self.grid.insert(i, new);
            }
            *slot = rect;
        }
    }

    /// The indices of every unit on the table.
    pub fn on_table(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.rects.len()).filter(|&i| self.rects[i].is_some())
    }

    /// Units on the table of another side than `side`.
    pub fn enemies_of<'s>(&'s self, side: &'s str) -> impl Iterator<Item = usize> + 's {
        self.on_table()
            .filter(move |&i| self.state.units[i].side != side)
    }

    /// Units on the table of `side`.
    pub fn friends_of<'s>(&'s self, side: &'s str) -> impl Iterator<Item = usize> + 's {
        self.on_table()
            .filter(move |&i| self.state.units[i].side == side)
    }

    /// Enemy units touching unit `i`.
    pub fn in_contact(&self, i: usize) -> Vec<usize> {
        let Some(r) = self.rect(i) else {
            return Vec::new();
        };
        let side = &self.state.units[i].side;
        self.grid
            .near_rect(&r, CONTACT)
            .into_iter()
            .filter(|&j| self.state.units[j].side != *side)
            .filter(|&j| self.rect(j).is_some_and(|o| touches(&r, &o)))
            .collect()
    }

    /// Whether unit `i` touches an enemy unit.
    pub fn is_engaged(&self, i: usize) -> bool {
        !self.in_contact(i).is_empty()
    }

    /// Enemies of `side` that a footprint at `rect` would come within 1" of
    /// (closer than 1", STC-36), leaving out `except`.
    pub fn zone_of_control(&self, rect: &Rect, side: &str, except: &[usize]) -> Vec<usize> {
        self.grid
            .near_rect(rect, ZONE_OF_CONTROL)
            .into_iter()
            .filter(|&j| self.state.units[j].side != side)
            .filter(|j| !except.contains(j))
            .filter(|&j| {
                self.rect(j)
                    .is_some_and(|o| rect_distance(rect, &o) < ZONE_OF_CONTROL)
            })
            .collect()
    }

    /// Units (of any side) a footprint at `rect` overlaps, leaving out
    /// `except`.
    pub fn overlapping(&self, rect: &Rect, except: &[usize]) -> Vec<usize> {
        self.grid
            .near_rect(rect, 0)
            .into_iter()
            .filter(|j| !except.contains(j))
            .filter(|&j| self.rect(j).is_some_and(|o| rect.overlaps(&o)))
            .collect()
    }

    /// The footprints of every unit on the table, and their indices, for the
    /// kernel's sweep tests.
    pub fn rects_except(&self, except: &[usize]) -> (Vec<usize>, Vec<Rect>) {
        self.on_table()
            .filter(|j| !except.contains(j))
            .filter_map(|j| self.rect(j).map(|r| (j, r)))
            .unzip()
    }

    /// Units on the table whose bounds come within `d` of the box
    /// `(x0, y0, x1, y1)`, ascending: a superset the caller measures. A
    /// move's checks ask this for the ground its path sweeps, so that they
    /// cost the neighbours, not every unit.
    pub fn near_box(&self, area: (i64, i64, i64, i64), d: Hundredths) -> Vec<usize> {
        self.grid.near_box(area, d)
    }

    /// [`Field::rects_except`] for the units within `d` of the box `area`
    /// only, in the same (ascending) order.
    pub fn rects_near_except(
        &self,
        area: (i64, i64, i64, i64),
        d: Hundredths,
        except: &[usize],
    ) -> (Vec<usize>, Vec<Rect>) {
        self.near_box(area, d)
            .into_iter()
            .filter(|j| !except.contains(j))
            .filter_map(|j| self.rect(j).map(|r| (j, r)))
            .unzip()
    }

    /// Enemies of `side` within `d` of the box `area`, ascending (a
    /// superset, measured by the caller).
    pub fn enemies_near(
        &self,
        side: &str,
        area: (i64, i64, i64, i64),
        d: Hundredths,
    ) -> Vec<usize> {
        self.near_box(area, d)
            .into_iter()
            .filter(|&j| self.state.units[j].side != side)
            .collect()
    }

    /// The terrain features a footprint stands in or on: areas it overlaps
    /// and lines it touches.
    pub fn terrain_under(&self, rect: &Rect) -> Vec<&'a Terrain> {
        self.state
            .terrain
            .iter()
            .filter(|t| match &t.shape {
                TerrainShape::Area { points } => rect_intersects_polygon(rect, points),
                TerrainShape::Line { points } => line_touches_rect(points, rect),
                _ => false,
            })
            .collect()
    }

    /// Whether a footprint stands in or on terrain of this kind.
    pub fn is_on(&self, rect: &Rect, kind: &str) -> bool {
        self.terrain_under(rect).iter().any(|t| t.kind == kind)
    }

    /// Where general `g` stands, if he is on the table and not lost.
    pub fn general_at(&self, g: usize) -> Option<Point> {
        let general = self.state.generals.get(g)?;
        if general.lost.is_some() {
            return None;
        }
        if let Some(unit) = &general.attached_to {
            return self
                .index(unit)
                .and_then(|i| self.rect(i))
                .map(|r| r.front_centre);
        }
        match general.location {
            Location::Table { x, y } => Some(Point { x, y }),
            Location::Hex { .. } => None,
        }
    }

    /// Whether a general is attached to unit `i`.
    pub fn general_attached(&self, i: usize) -> bool {
        self.attached.contains(self.state.units[i].id.as_str())
    }

    /// Command Radius: "A unit within CR of a general acts normally". A
    /// general attached to a unit commands it alone ("a general's CR drops to
    /// zero if he attaches to a unit"); CR is measured straight to the
    /// nearest point of the unit (STC-37).
    pub fn in_command(&self, i: usize) -> bool {
        if self.general_attached(i) {
            return true;
        }
        let Some(r) = self.rect(i) else {
            return false;
        };
        let side = &self.state.units[i].side;
        let (x0, y0, x1, y1) = bounds(&r);
        let c = COMMAND_RADIUS;
        let cells = ((x0 - c).div_euclid(c)..=(x1 + c).div_euclid(c)).flat_map(|cx| {
            ((y0 - c).div_euclid(c)..=(y1 + c).div_euclid(c)).map(move |cy| (cx, cy))
        });
        cells
            .filter_map(|cell| self.general_cells.get(&cell))
            .flatten()
            .any(|&g| {
                let general = &self.state.generals[g];
                general.side == *side
                    && self
                        .general_at(g)
                        .is_some_and(|p| point_is_within_rect(p, &r, COMMAND_RADIUS))
            })
    }

    /// The unit's arm, if its troop type is known.
    pub fn arm(&self, i: usize) -> Option<Arm> {
        arm(&self.state.units[i].rules.troop_type)
    }

    /// Whether the unit is skirmishing.
    pub fn is_skirmishing(&self, i: usize) -> bool {
        self.state.units[i].rules.formation == "skirmish"
    }

    /// The table's size, if it is a table.
    pub fn table(&self) -> Option<(Hundredths, Hundredths)> {
        match self.state.map {
            crate::rules::board::MapSpec::Table { width, depth } => Some((width, depth)),
            crate::rules::board::MapSpec::Hex { .. } => None,
        }
    }
}

/// Whether two footprints touch or overlap.
pub fn touches(a: &Rect, b: &Rect) -> bool {
    rect_distance(a, b) <= CONTACT
}

/// Whether a terrain line touches a footprint.
fn line_touches_rect(points: &[Point], rect: &Rect) -> bool {
    points
        .windows(2)
        .any(|w| segment_touches_rect(w[0], w[1], rect))
        || (points.len() == 1 && geometry::point_is_within_rect(points[0], rect, 0))
}
