//! The state of a game between resolutions. It is stored and archived as
//! canonical JSON (see [`crate::canonical`]), and its digest goes into the
//! next resolution's seed, so every field is an integer, a string, a bool or
//! an ordered collection: no floats, no hash maps.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::campaign::{GeneralSpec, UnitSpec};
use crate::rules::board::{MapSpec, Terrain};

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
    /// The turn-by-turn status the rules keep on a unit. Every field has a
    /// serde default and is left out of the canonical JSON while it holds
    /// its default, so states written before a field existed read back and
    /// digest exactly as they did.
    #[serde(flatten)]
    pub status: UnitStatus,
}

/// What the rules remember about a unit from turn to turn, beyond its
/// morale and order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitStatus {
    /// Rout hits suffered ("Rout hits are not regained during the battle").
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rout_hits: u32,
    /// Loss hits suffered by shooting and in close combat.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub loss_hits: u32,
    /// Optional rule Blown Cavalry: "After completing its second round of
    /// combat during a game, a cavalry regiment is blown".
    #[serde(default, skip_serializing_if = "is_false")]
    pub blown: bool,
    /// Rounds of close combat the unit has completed this game.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub combat_rounds: u32,
    /// Set when the unit fought a round of close combat in the last combat
    /// phase and is still in contact: "Units in a continuing close combat
    /// may not move."
    #[serde(default, skip_serializing_if = "is_false")]
    pub in_combat: bool,
    /// The turn of the unit's most recent combat round, for Stationary
    /// Cavalry ("it was not in combat on the most-recent game turn").
    #[serde(default, skip_serializing_if = "is_zero")]
    pub last_combat_turn: u32,
    /// How far the unit advanced (straight ahead or charging) on its side's
    /// most recent active turn, in hundredths of an inch; for Stationary
    /// Cavalry and the French, Russian and Spanish column modifiers.
    #[serde(default, skip_serializing_if = "is_zero_i64")]
    pub last_advance: i64,
    /// Whether that advance was at its full speed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub advanced_full_speed: bool,
    /// Where the gunners stand when they have left their guns (the point of
    /// their stand's front centre); `None` while they serve the guns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gunners_at: Option<crate::geometry::Point>,
    /// A battalion's organic skirmish screen is out.
    #[serde(default, skip_serializing_if = "is_false")]
    pub skirmishers_out: bool,
    /// The units a separate skirmish unit screens, by id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub screening: Vec<String>,
    /// Optional rule Boats: the boat the unit is in, by id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boat: Option<String>,
    /// Optional rule Regimental Guns: why the battalion's gun is out of
    /// action ("a single hit will disable the gun"; "it must abandon the
    /// gun"), once it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regimental_gun_lost: Option<String>,
    /// Britain, Portugal: where cavalry that followed an enemy off the table
    /// left it (its centre), while it is off the table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left_from: Option<crate::geometry::Point>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_zero_i64(n: &i64) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
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
