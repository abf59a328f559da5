//! The ground of the table, read once per state: each terrain feature's kind
//! as a [`TerrainKind`], so that the rules match on kinds the compiler
//! knows and a kind misspelt in a rule is an error, not a rule silently
//! left out. The state's terrain stays the archived form; a [`Ground`] is
//! built with the turn's [`Deployment`](super::field::deployment::Deployment)
//! and with each view of the table that reads terrain.
//!
//! The shapes stay in the state, where the Boats rule moves a boat's outline
//! with its unit (ruling STC-93): a feature is read where the state given
//! holds it now. The kinds and the order of the features never change in a
//! game, so one `Ground` serves every state a turn makes of the one it was
//! read from.

use crate::geometry::{Hundredths, Point, Rect, point_in_polygon};
use crate::rules::board::{Terrain, TerrainShape};
use crate::rules::sound_the_charge::state::State;

crate::terrain_kinds! {
    /// The terrain a scenario lays out: Terrain Suggestions' woods, hills,
    /// rough ground, obstacles, roads, towns and fieldworks; rivers (STC-43);
    /// and for the Boats optional rule, water and the boats on it.
    pub enum TerrainKind {
        LightWoods = "light-woods",
        HeavyWoods = "heavy-woods",
        GentleHill = "gentle-hill",
        /// A gentle hill's crest line.
        Crest = "crest",
        SteepSlope = "steep-slope",
        Rough = "rough",
        Obstacle = "obstacle",
        Road = "road",
        TownBlock = "town-block",
        /// "If a town block actually represents a single chateau or
        /// fortified manor house".
        Chateau = "chateau",
        Fieldworks = "fieldworks",
        River = "river",
        Water = "water",
        Boat = "boat",
    }
}

impl TerrainKind {
    /// A town block, or a chateau, which is one ("If a town block actually
    /// represents a single chateau").
    pub fn is_built_up(self) -> bool {
        matches!(self, TerrainKind::TownBlock | TerrainKind::Chateau)
    }

    /// How far one sees inside woods: "Visibility and range inside light
    /// woods is six inches", "inside heavy woods is four inches".
    pub fn woods_visibility(self) -> Option<Hundredths> {
        match self {
            TerrainKind::LightWoods => Some(600),
            TerrainKind::HeavyWoods => Some(400),
            _ => None,
        }
    }
}

/// The state's terrain features with their kinds read.
#[derive(Debug, Clone, Default)]
pub struct Ground {
    /// Each feature's kind, by its place in the state's terrain; `None` for
    /// a word this ruleset does not know (set-up refuses those), which no
    /// rule reads.
    kinds: Vec<Option<TerrainKind>>,
    /// Crest lines, which nothing moves: Gentle Hill Slopes "block sighting
    /// past their crestlines".
    crests: Vec<Vec<Point>>,
}

impl Ground {
    pub fn new(state: &State) -> Ground {
        let kinds: Vec<Option<TerrainKind>> = state
            .terrain
            .iter()
            .map(|t| TerrainKind::parse(&t.kind))
            .collect();
        let mut ground = Ground {
            kinds,
            crests: Vec::new(),
        };
        ground.crests = ground
            .lines(state, TerrainKind::Crest)
            .map(|(_, points)| points.to_vec())
            .collect();
        ground
    }

    /// Every feature of a known kind in `state` (the state this was read
    /// from, or one a turn made of it), with its kind, in the state's order.
    pub fn features<'s>(
        &self,
        state: &'s State,
    ) -> impl Iterator<Item = (TerrainKind, &'s Terrain)> {
        state
            .terrain
            .iter()
            .zip(&self.kinds)
            .filter_map(|(t, k)| k.map(|k| (k, t)))
    }

    /// The lines of one kind, with their points.
    pub fn lines<'s>(
        &self,
        state: &'s State,
        kind: TerrainKind,
    ) -> impl Iterator<Item = (&'s Terrain, &'s [Point])> {
        self.features(state)
            .filter(move |(k, _)| *k == kind)
            .filter_map(|(_, t)| match &t.shape {
                TerrainShape::Line { points } => Some((t, points.as_slice())),
                _ => None,
            })
    }

    /// The areas of one kind, with their outlines.
    pub fn areas<'s>(
        &self,
        state: &'s State,
        kind: impl Fn(TerrainKind) -> bool,
    ) -> impl Iterator<Item = (TerrainKind, &'s Terrain, &'s [Point])> {
        self.features(state)
            .filter(move |(k, _)| kind(*k))
            .filter_map(|(k, t)| match &t.shape {
                TerrainShape::Area { points } => Some((k, t, points.as_slice())),
                _ => None,
            })
    }

    /// The crest lines.
    pub fn crests(&self) -> &[Vec<Point>] {
        &self.crests
    }

    /// The kinds of the areas that hold `p`.
    pub fn kinds_at(&self, state: &State, p: Point) -> Vec<TerrainKind> {
        self.areas(state, |_| true)
            .filter(|(_, _, points)| point_in_polygon(p, points))
            .map(|(k, _, _)| k)
            .collect()
    }

    /// The terrain under a unit's centre of mass (ruling STC-62: a unit is
    /// in an area when its centre is).
    pub fn kinds_under(&self, state: &State, rect: &Rect) -> Vec<TerrainKind> {
        self.kinds_at(state, rect.centre())
    }

    /// Where the boat `id` is in the state's terrain.
    pub fn boat(&self, state: &State, id: &str) -> Option<usize> {
        state
            .terrain
            .iter()
            .zip(&self.kinds)
            .position(|(t, k)| *k == Some(TerrainKind::Boat) && t.id == id)
    }
}
