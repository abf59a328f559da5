//! A view of the table for validation and the movement phase: the state with
//! its [`Deployment`] (footprints on the spatial index, command, the ground
//! with its kinds read), terrain under and across a footprint or a move, who
//! touches whom, zones of control, and friend and enemy queries. A `Field`
//! is built from a state and reads it; phases build a fresh one after they
//! change positions.

pub mod deployment;

use crate::geometry::{self, Rect, rect_distance, rect_intersects_polygon, segment_touches_rect};
use crate::geometry::{Hundredths, Point};
use crate::rules::board::{Location, Terrain, TerrainShape};
use crate::rules::sound_the_charge::ground::{Ground, TerrainKind};
use crate::rules::sound_the_charge::state::{State, Unit};
use crate::rules::sound_the_charge::tables::Arm;

use crate::rules::sound_the_charge::orders::Formation;
use deployment::{CONTACT, Deployment, ZONE_OF_CONTROL};

/// The table as validation and the movement phase see it: the state, and
/// where its units stand ([`Deployment`]).
pub struct Field<'a> {
    pub state: &'a State,
    deployment: Deployment,
}

impl<'a> Field<'a> {
    pub fn new(state: &'a State) -> Field<'a> {
        Field {
            state,
            deployment: Deployment::new(state),
        }
    }

    /// The index of a unit by id.
    pub fn index(&self, id: &str) -> Option<usize> {
        self.deployment.index_of(id)
    }

    pub fn unit(&self, i: usize) -> &'a Unit {
        &self.state.units[i]
    }

    /// The unit's footprint, if it is on the table.
    pub fn rect(&self, i: usize) -> Option<Rect> {
        self.deployment.index.rect(i)
    }

    /// Puts a unit's footprint where a phase has moved it.
    pub fn set_rect(&mut self, i: usize, rect: Option<Rect>) {
        self.deployment.index.set(i, rect);
    }

    /// The indices of every unit on the table.
    pub fn on_table(&self) -> impl Iterator<Item = usize> + '_ {
        self.deployment.index.on_table()
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
        self.deployment
            .index
            .near(&r, CONTACT, &[])
            .into_iter()
            .filter(|&j| self.state.units[j].side != *side)
            .collect()
    }

    /// Whether unit `i` touches an enemy unit.
    pub fn is_engaged(&self, i: usize) -> bool {
        !self.in_contact(i).is_empty()
    }

    /// Enemies of `side` that a footprint at `rect` would come within 1" of
    /// (closer than 1", STC-36), leaving out `except`.
    pub fn zone_of_control(&self, rect: &Rect, side: &str, except: &[usize]) -> Vec<usize> {
        self.deployment
            .index
            .grid
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
        self.deployment.index.overlapping(rect, except)
    }

    /// The footprints of every unit on the table, and their indices, for the
    /// kernel's sweep tests.
    pub fn rects_except(&self, except: &[usize]) -> (Vec<usize>, Vec<Rect>) {
        self.deployment.index.rects_except(except)
    }

    /// Units on the table whose bounds come within `d` of the box
    /// `(x0, y0, x1, y1)`, ascending: a superset the caller measures. A
    /// move's checks ask this for the ground its path sweeps, so that they
    /// cost the neighbours, not every unit.
    pub fn near_box(&self, area: (i64, i64, i64, i64), d: Hundredths) -> Vec<usize> {
        self.deployment.index.near_box(area, d)
    }

    /// [`Field::rects_except`] for the units within `d` of the box `area`
    /// only, in the same (ascending) order.
    pub fn rects_near_except(
        &self,
        area: (i64, i64, i64, i64),
        d: Hundredths,
        except: &[usize],
    ) -> (Vec<usize>, Vec<Rect>) {
        self.deployment.index.rects_near_except(area, d, except)
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

    /// Whether no enemy of `side` stands within `gap` of the point `q`.
    pub fn clear_of_enemies(&self, side: &str, q: Point, gap: Hundredths) -> bool {
        self.enemies_near(side, (q.x, q.y, q.x, q.y), gap)
            .into_iter()
            .all(|k| {
                self.rect(k)
                    .is_none_or(|r| crate::geometry::distance_to_rect(q, &r) >= gap)
            })
    }

    /// The terrain, its kinds read once.
    pub fn ground(&self) -> &Ground {
        &self.deployment.ground
    }

    /// The terrain features a footprint stands in or on, with their kinds:
    /// areas it overlaps and lines it touches.
    pub fn terrain_under(&self, rect: &Rect) -> Vec<(TerrainKind, &'a Terrain)> {
        self.deployment
            .ground
            .features(self.state)
            .filter(|(_, t)| match &t.shape {
                TerrainShape::Area { points } => rect_intersects_polygon(rect, points),
                TerrainShape::Line { points } => line_touches_rect(points, rect),
                _ => false,
            })
            .collect()
    }

    /// Whether a footprint stands in or on terrain of a kind `kind` holds
    /// of.
    pub fn is_on(&self, rect: &Rect, kind: impl Fn(TerrainKind) -> bool) -> bool {
        self.terrain_under(rect).iter().any(|(k, _)| kind(*k))
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
        self.deployment.general_attached(self.state, i)
    }

    /// Whether a general has unit `i` in command ([`Deployment::in_command`]).
    pub fn in_command(&self, i: usize) -> bool {
        self.deployment.in_command(self.state, i)
    }

    /// The unit's arm.
    pub fn arm(&self, i: usize) -> Arm {
        self.state.units[i].rules.troop_type.arm()
    }

    /// Whether the unit is skirmishing.
    pub fn is_skirmishing(&self, i: usize) -> bool {
        self.state.units[i].rules.formation == Formation::Skirmish
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
