//! The state of a game between resolutions. It is stored and archived as
//! canonical JSON (see [`crate::canonical`]), and its digest goes into the
//! next resolution's seed, so every field is an integer, a string, a bool or
//! an ordered collection: no floats, no hash maps.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::campaign::{GeneralSpec, MapSpec, Terrain, UnitSpec};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    pub campaign: String,
    pub ruleset: String,
    /// Game turn, from 1.
    pub turn: u32,
    /// Index of the current phase in the ruleset's phases of a turn.
    pub phase: u32,
    /// The side whose turn it is, in rules that alternate sides.
    pub active_side: String,
    /// Sides in the order they take the active role.
    pub sides: Vec<String>,
    /// The table or hex grid, and the terrain on it: part of the state so
    /// that movement, sight and shooting depend on nothing the archive does
    /// not hold.
    pub map: MapSpec,
    pub terrain: Vec<Terrain>,
    pub units: Vec<UnitState>,
    pub generals: Vec<GeneralState>,
    /// Canonical order lines each side gave last, kept for the
    /// standing-orders policy.
    pub standing_orders: BTreeMap<String, Vec<String>>,
    /// The game ends after this turn if nothing else ends it first.
    pub turn_limit: Option<u32>,
    /// The optional rules in force, by name. They are part of the state so
    /// that a resolution depends on nothing the archive does not hold.
    pub options: Vec<String>,
    /// Each side's nation, for the national modifiers, by side id.
    pub nations: BTreeMap<String, String>,
    /// Set when the game is over, with the reason.
    pub finished: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitState {
    #[serde(flatten)]
    pub spec: UnitSpec,
    /// Strength at the start of the game, for "reduced to one quarter of its
    /// original strength" and the like.
    pub original_strength: u32,
    pub shaken: bool,
    pub disordered: bool,
    /// Set when the unit leaves play, with the reason.
    pub eliminated: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneralState {
    #[serde(flatten)]
    pub spec: GeneralSpec,
    /// Set when the general is killed, disabled or captured.
    pub lost: Option<String>,
}

impl GameState {
    pub fn unit(&self, id: &str) -> Option<&UnitState> {
        self.units.iter().find(|u| u.spec.id == id)
    }

    /// The side after `side` in the rotation.
    pub fn next_side(&self, side: &str) -> String {
        let at = self.sides.iter().position(|s| s == side).unwrap_or(0);
        self.sides
            .get((at + 1) % self.sides.len().max(1))
            .cloned()
            .unwrap_or_default()
    }
}
