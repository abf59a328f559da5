//! The table as the rules read it during a check or a resolution: the state
//! with every unit's base on one spatial index (`geometry::SpatialIndex`),
//! so that "who touches whom", "what lies in the way" and "who is within 8
//! inches" ask the units near a place, not every unit; and the terrain the
//! chapter names (woods, Built-Up Areas, linear terrain features).

use super::basing;
use super::params::Params;
use super::setup::{BUILT_UP_AREA, LINEAR_FEATURES, WOODS};
use super::state::{Arm, State, TroopType, Unit};
use crate::geometry::{
    Hundredths, Point, Rect, SpatialIndex, point_in_polygon, rect_distance,
    rect_intersects_polygon, segment_touches_rect,
};
use crate::rules::board::{Location, MapSpec, TerrainShape};

/// Two bases this close count as touching: in contact (positions are
/// stored to the hundredth, so bases set against each other at an angle may
/// stand a hundredth or two apart).
pub const CONTACT: Hundredths = 2;

/// The cell of the spatial index: about a unit's move.
const CELL: Hundredths = 800;

/// Cover a unit stands in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cover {
    Woods,
    BuiltUpArea,
}

impl Cover {
    pub fn word(self) -> &'static str {
        match self {
            Cover::Woods => "woods",
            Cover::BuiltUpArea => "a Built-Up Area",
        }
    }
}

/// The state and its index, kept in step.
#[derive(Debug, Clone)]
pub struct Field {
    pub state: State,
    index: SpatialIndex,
}

impl Field {
    pub fn new(state: &State) -> Field {
        let rects: Vec<Option<Rect>> = state
            .units
            .iter()
            .map(|u| {
                if u.eliminated.is_none() {
                    basing::footprint(u)
                } else {
                    None
                }
            })
            .collect();
        let index = SpatialIndex::new(state.units.iter().map(|u| u.id.as_str()), rects, CELL);
        Field {
            state: state.clone(),
            index,
        }
    }

    pub fn params(&self) -> &Params {
        &self.state.params
    }

    pub fn option(&self, name: &str) -> bool {
        self.state.options.iter().any(|o| o == name)
    }

    /// A unit's index by id (in play or not).
    pub fn at(&self, id: &str) -> Option<usize> {
        self.index.index(id)
    }

    pub fn unit(&self, i: usize) -> &Unit {
        &self.state.units[i]
    }

    pub fn unit_mut(&mut self, i: usize) -> &mut Unit {
        &mut self.state.units[i]
    }

    pub fn name(&self, i: usize) -> &str {
        &self.state.units[i].name
    }

    pub fn id(&self, i: usize) -> &str {
        &self.state.units[i].id
    }

    pub fn arm(&self, i: usize) -> Arm {
        self.state.units[i].rules.troop_type.arm()
    }

    pub fn troop(&self, i: usize) -> TroopType {
        self.state.units[i].rules.troop_type
    }

    pub fn in_play(&self, i: usize) -> bool {
        self.state
            .units
            .get(i)
            .is_some_and(|u| u.eliminated.is_none())
    }

    /// Its base, while it is on the table.
    pub fn rect(&self, i: usize) -> Option<Rect> {
        self.index.rect(i)
    }

    pub fn enemies(&self, i: usize, j: usize) -> bool {
        self.state.units[i].side != self.state.units[j].side
    }

    /// Puts a unit's base where it now stands.
    pub fn place(&mut self, i: usize, rect: Rect) {
        let u = &mut self.state.units[i];
        u.location = Location::Table {
            x: rect.front_centre.x,
            y: rect.front_centre.y,
        };
        u.facing = rect.facing % 360;
        let rect = basing::footprint(u);
        self.index.set(i, rect);
    }

    /// A unit's base once its part changed (a new formation).
    pub fn refresh(&mut self, i: usize) {
        let rect = basing::footprint(&self.state.units[i]);
        self.index.set(i, rect);
    }

    /// Takes a unit out of play.
    pub fn remove(&mut self, i: usize, why: String) {
        self.state.units[i].eliminated = Some(why);
        self.index.set(i, None);
    }

    /// Whether two units' bases touch.
    pub fn in_contact(&self, i: usize, j: usize) -> bool {
        match (self.rect(i), self.rect(j)) {
            (Some(a), Some(b)) => rect_distance(&a, &b) <= CONTACT,
            _ => false,
        }
    }

    /// The units in play whose bases touch unit `i`'s.
    pub fn touching(&self, i: usize) -> Vec<usize> {
        self.index.within(i, CONTACT)
    }

    /// The first unit in play (lowest index) whose base overlaps `rect`,
    /// but `except`.
    pub fn first_on(&self, rect: &Rect, except: &[usize]) -> Option<usize> {
        self.index.overlapping(rect, except).first().copied()
    }

    /// The units in play within `d` of a base, but `except`.
    pub fn near(&self, rect: &Rect, d: Hundredths, except: &[usize]) -> Vec<usize> {
        self.index.near(rect, d, except)
    }

    /// The bases (and indices) of units in play near the box around some
    /// points, but `except`: the obstacles a move among them may meet.
    pub fn obstacles_around(
        &self,
        points: &[Point],
        reach: Hundredths,
        except: &[usize],
    ) -> (Vec<usize>, Vec<Rect>) {
        let xs = points.iter().map(|p| p.x);
        let ys = points.iter().map(|p| p.y);
        let area = (
            xs.clone().min().unwrap_or(0),
            ys.clone().min().unwrap_or(0),
            xs.max().unwrap_or(0),
            ys.max().unwrap_or(0),
        );
        self.index.rects_near_except(area, reach, except)
    }

    /// What keeps a base from being set at `rect`: the first unit in play
    /// (but `except`) it would overlap, or the table's edge (`Some(None)`);
    /// `None` when there is room. A unit is never set on another.
    pub fn no_room(&self, rect: &Rect, except: &[usize]) -> Option<Option<usize>> {
        let (width, depth) = self.table();
        if !rect.is_inside_table(width, depth) {
            return Some(None);
        }
        self.index
            .overlapping(rect, except)
            .first()
            .map(|&j| Some(j))
    }

    /// Every unit in play, by index.
    pub fn on_table(&self) -> impl Iterator<Item = usize> + '_ {
        self.index.on_table()
    }

    /// The areas of one terrain kind.
    pub fn areas<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a [Point]> + 'a {
        self.state
            .terrain
            .iter()
            .filter_map(move |t| match &t.shape {
                TerrainShape::Area { points } if t.kind == kind => Some(points.as_slice()),
                _ => None,
            })
    }

    /// The areas that give cover, with their kind.
    pub fn cover_areas(&self) -> impl Iterator<Item = (Cover, &[Point])> + '_ {
        self.areas(WOODS)
            .map(|a| (Cover::Woods, a))
            .chain(self.areas(BUILT_UP_AREA).map(|a| (Cover::BuiltUpArea, a)))
    }

    /// The cover a unit stands in: its base's centre in woods or a
    /// Built-Up Area (ruling GT-10).
    pub fn cover_at(&self, rect: &Rect) -> Option<Cover> {
        let c = rect.centre();
        self.cover_areas()
            .find(|(_, a)| point_in_polygon(c, a))
            .map(|(k, _)| k)
    }

    /// The cover area a point lies in, with its kind.
    pub fn cover_area_at(&self, p: Point) -> Option<(Cover, Vec<Point>)> {
        self.cover_areas()
            .find(|(_, a)| point_in_polygon(p, a))
            .map(|(k, a)| (k, a.to_vec()))
    }

    /// Whether a base is partly in woods or a Built-Up Area, or lines a
    /// linear terrain feature (one runs within half an inch of it): where a
    /// unit told to "take the position" is "not obliged to leave".
    pub fn holds_cover(&self, rect: &Rect) -> bool {
        if self
            .cover_areas()
            .any(|(_, a)| rect_intersects_polygon(rect, a))
        {
            return true;
        }
        let grown = Rect {
            front_centre: crate::geometry::move_forward(rect, 50).front_centre,
            facing: rect.facing,
            width: rect.width + 100,
            depth: rect.depth + 100,
        };
        self.state.terrain.iter().any(|t| match &t.shape {
            TerrainShape::Line { points } if LINEAR_FEATURES.contains(&t.kind.as_str()) => points
                .windows(2)
                .any(|w| segment_touches_rect(w[0], w[1], &grown)),
            _ => false,
        })
    }

    /// Whether a line between two points is clear: it passes into no base
    /// in play but those of `except` (grazing one is not passing into it),
    /// and runs no farther into woods or a
    /// Built-Up Area than the campaign's `sight_into_cover` (ruling GT-10).
    pub fn line_clear(&self, a: Point, b: Point, except: &[usize]) -> bool {
        let (_, rects) = self.obstacles_around(&[a, b], 0, except);
        // A base the line only grazes (a neighbour touching the corner the
        // line is drawn from) does not hide what lies beyond: only one the
        // line passes into does.
        let inner = |r: &Rect| Rect {
            front_centre: crate::geometry::move_forward(r, -CONTACT).front_centre,
            facing: r.facing,
            width: (r.width - 2 * CONTACT).max(0),
            depth: (r.depth - 2 * CONTACT).max(0),
        };
        if rects.iter().any(|r| segment_touches_rect(a, b, &inner(r))) {
            return false;
        }
        super::sight::through_cover(self, a, b)
    }

    /// The table's width and depth.
    pub fn table(&self) -> (Hundredths, Hundredths) {
        match self.state.map {
            MapSpec::Table { width, depth } => (width, depth),
            MapSpec::Hex { .. } => (0, 0),
        }
    }

    /// A unit's move in hundredths: "Cuirassiers move at 6” (rather than
    /// 9”)"; infantry and artillery as the campaign says (GT-6).
    pub fn allowance(&self, i: usize) -> Hundredths {
        let p = self.params();
        match self.troop(i) {
            TroopType::Cuirassiers => 600,
            TroopType::Cavalry | TroopType::Lancers => 900,
            TroopType::Infantry => Params::inches(p.infantry_move),
            TroopType::Artillery => Params::inches(p.artillery_move),
        }
    }
}
