//! The state of a game between resolutions: a shared envelope (turn, phase,
//! sides, map, and what every ruleset knows of a unit: its id, name, side,
//! place, facing, strength and whether it has left play) around the parts
//! each ruleset declares for itself (its own unit part, game part and
//! campaign parameters).
//!
//! One struct serves both sides of the boundary. The engine, the store, the
//! report and the map hold [`GameState`] with the [`Raw`] parts, which keep a
//! ruleset's part as plain JSON maps they never look inside; a ruleset holds
//! `GameState<Its>` with its typed parts. [`GameState::typed`] and
//! [`GameState::raw`] convert one into the other. The parts are flattened
//! into the same JSON object as the envelope, and canonical JSON sorts every
//! key, so which struct a field lives in never shows in the bytes.
//!
//! The state is stored and archived as canonical JSON (see
//! [`crate::canonical`]), and its digest goes into the next resolution's
//! seed, so every field is an integer, a string, a bool or an ordered
//! collection: no floats, no hash maps.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

use super::board::{Location, MapSpec, Terrain};

/// What a part of the state must be: comparable, printable for tests, and
/// stored as JSON.
pub trait Part:
    Clone + PartialEq + Eq + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static
{
}

impl<T> Part for T where
    T: Clone + PartialEq + Eq + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static
{
}

/// The parts a ruleset adds to the shared state. A ruleset implements this
/// on its own type, and its state is `GameState<ThatType>`.
pub trait Parts: Clone + PartialEq + Eq + fmt::Debug + Send + Sync + 'static {
    /// What the ruleset keeps on each unit (its troop type, morale, marks).
    type Unit: Part;
    /// What the ruleset keeps on the game as a whole (points to spend,
    /// declarations that live from one phase to the next). Flattened into
    /// the state's JSON object, so its field names must not be the
    /// envelope's.
    type Game: Part + Default;
    /// The campaign's parameters for the tables the rules text leaves to the
    /// players, checked when the campaign is loaded. They are part of the
    /// state, so that `verify` re-runs a resolution that read them from the
    /// archive alone. Left out of the JSON while they hold their default.
    type Params: Part + Default;
}

/// A ruleset's part of a unit or of the game, as the shared code holds it:
/// the JSON object's fields, untouched.
pub type RawPart = serde_json::Map<String, serde_json::Value>;

/// The parts as the shared code holds them (see the module's comment).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Raw;

impl Parts for Raw {
    type Unit = RawPart;
    type Game = RawPart;
    type Params = serde_json::Value;
}

/// A game part or parameters for a ruleset that has none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Nothing {}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct GameState<R: Parts = Raw> {
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
    pub units: Vec<UnitState<R::Unit>>,
    pub generals: Vec<GeneralState>,
    /// Canonical order lines each side gave last, kept for the
    /// standing-orders policy.
    pub standing_orders: BTreeMap<String, Vec<String>>,
    /// The game ends after this turn if nothing else ends it first.
    pub turn_limit: Option<u32>,
    /// The optional rules in force, by name. They are part of the state so
    /// that a resolution depends on nothing the archive does not hold.
    pub options: Vec<String>,
    /// Each side's nation, for national modifiers, by side id.
    pub nations: BTreeMap<String, String>,
    /// Set when the game is over, with the reason.
    pub finished: Option<String>,
    /// The campaign's parameters (see [`Parts::Params`]).
    #[serde(default, skip_serializing_if = "is_default")]
    pub params: R::Params,
    /// The ruleset's part of the game (see [`Parts::Game`]).
    #[serde(flatten)]
    pub game: R::Game,
}

/// One unit: what every ruleset knows of it, and the ruleset's own part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct UnitState<U: Part = RawPart> {
    pub id: String,
    pub name: String,
    pub side: String,
    /// The front centre of the unit (table), or its hex.
    pub location: Location,
    /// Degrees clockwise from north (table), or hexside 0-5 (hex).
    pub facing: u32,
    /// Figures (gun models for artillery), or steps on a counter.
    pub strength: u32,
    /// Strength at the start of the game, for "reduced to one quarter of its
    /// original strength" and the like.
    pub original_strength: u32,
    /// Set when the unit leaves play, with the reason.
    pub eliminated: Option<String>,
    /// The ruleset's part of the unit (see [`Parts::Unit`]).
    #[serde(flatten)]
    pub rules: U,
}

/// A general (or leader): a piece of the envelope in every ruleset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneralState {
    pub id: String,
    pub name: String,
    pub side: String,
    pub location: Location,
    /// The unit the general is attached to, if any.
    pub attached_to: Option<String>,
    /// Set when the general is killed, disabled or captured. A scenario's
    /// generals are written without it.
    #[serde(default)]
    pub lost: Option<String>,
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// A stored state whose ruleset part does not read as the ruleset's own:
/// only damaged or forged state bytes cause this.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the state does not hold {ruleset}'s {what}: {problem}")]
pub struct PartError {
    pub ruleset: String,
    /// `unit <id>`, `game part` or `parameters`.
    pub what: String,
    pub problem: String,
}

fn decode<T: DeserializeOwned>(
    ruleset: &str,
    what: impl FnOnce() -> String,
    value: serde_json::Value,
) -> Result<T, PartError> {
    serde_json::from_value(value).map_err(|e| PartError {
        ruleset: ruleset.to_string(),
        what: what(),
        problem: e.to_string(),
    })
}

/// A part as JSON. Parts are plain data with string keys, so this cannot
/// fail; if it ever did, the part is left empty and the state's digest
/// check (`resolution::run`) or `verify` names the difference.
fn encode<T: Serialize>(part: &T) -> serde_json::Value {
    serde_json::to_value(part).unwrap_or(serde_json::Value::Null)
}

fn object(value: serde_json::Value) -> RawPart {
    match value {
        serde_json::Value::Object(map) => map,
        _ => RawPart::new(),
    }
}

impl<U: Part> UnitState<U> {
    /// The same unit with another part.
    pub fn with_part<V: Part>(&self, rules: V) -> UnitState<V> {
        UnitState {
            id: self.id.clone(),
            name: self.name.clone(),
            side: self.side.clone(),
            location: self.location,
            facing: self.facing,
            strength: self.strength,
            original_strength: self.original_strength,
            eliminated: self.eliminated.clone(),
            rules,
        }
    }
}

impl UnitState {
    /// The unit with its ruleset's typed part.
    pub fn typed<U: Part>(&self, ruleset: &str) -> Result<UnitState<U>, PartError> {
        let part = decode(
            ruleset,
            || format!("unit {}", self.id),
            serde_json::Value::Object(self.rules.clone()),
        )?;
        Ok(self.with_part(part))
    }
}

impl<U: Part> UnitState<U> {
    /// The unit with its part as the shared code holds it.
    pub fn raw(&self) -> UnitState {
        self.with_part(object(encode(&self.rules)))
    }
}

impl<R: Parts> GameState<R> {
    pub fn unit(&self, id: &str) -> Option<&UnitState<R::Unit>> {
        self.units.iter().find(|u| u.id == id)
    }

    /// The side after `side` in the rotation.
    pub fn next_side(&self, side: &str) -> String {
        let at = self.sides.iter().position(|s| s == side).unwrap_or(0);
        self.sides
            .get((at + 1) % self.sides.len().max(1))
            .cloned()
            .unwrap_or_default()
    }

    /// The same state with other parts: the envelope is copied, the units
    /// are mapped one by one.
    fn with_parts<S: Parts>(
        &self,
        units: Vec<UnitState<S::Unit>>,
        game: S::Game,
        params: S::Params,
    ) -> GameState<S> {
        GameState {
            campaign: self.campaign.clone(),
            ruleset: self.ruleset.clone(),
            turn: self.turn,
            phase: self.phase,
            active_side: self.active_side.clone(),
            sides: self.sides.clone(),
            map: self.map.clone(),
            terrain: self.terrain.clone(),
            units,
            generals: self.generals.clone(),
            standing_orders: self.standing_orders.clone(),
            turn_limit: self.turn_limit,
            options: self.options.clone(),
            nations: self.nations.clone(),
            finished: self.finished.clone(),
            params,
            game,
        }
    }

    /// The state as the shared code holds it.
    pub fn raw(&self) -> GameState {
        let params = encode(&self.params);
        // A default part is left out of the JSON, in the raw state too, so
        // that both serialise to the same bytes.
        let params = if self.params == R::Params::default() {
            serde_json::Value::Null
        } else {
            params
        };
        self.with_parts::<Raw>(
            self.units.iter().map(UnitState::raw).collect(),
            object(encode(&self.game)),
            params,
        )
    }
}

impl GameState {
    /// The state with a ruleset's typed parts.
    pub fn typed<R: Parts>(&self) -> Result<GameState<R>, PartError> {
        #[cfg(test)]
        super::testing::note_decoded(self);
        let ruleset = self.ruleset.as_str();
        let units = self
            .units
            .iter()
            .map(|u| u.typed(ruleset))
            .collect::<Result<Vec<_>, _>>()?;
        let game = decode(
            ruleset,
            || "game part".to_string(),
            serde_json::Value::Object(self.game.clone()),
        )?;
        let params = match &self.params {
            serde_json::Value::Null => R::Params::default(),
            other => decode(ruleset, || "parameters".to_string(), other.clone())?,
        };
        Ok(self.with_parts(units, game, params))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical;

    #[derive(Debug, Clone, PartialEq, Eq)]
    struct Toy;

    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
    struct ToyUnit {
        morale: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        markers: Vec<String>,
    }

    #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
    struct ToyGame {
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        points: BTreeMap<String, u32>,
    }

    #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
    struct ToyParams {
        needs: u32,
    }

    impl Parts for Toy {
        type Unit = ToyUnit;
        type Game = ToyGame;
        type Params = ToyParams;
    }

    fn toy(params: ToyParams) -> GameState<Toy> {
        GameState {
            campaign: "c".into(),
            ruleset: "toy".into(),
            turn: 1,
            phase: 0,
            active_side: "a".into(),
            sides: vec!["a".into(), "b".into()],
            map: MapSpec::Hex {
                columns: 3,
                rows: 3,
            },
            terrain: Vec::new(),
            units: vec![UnitState {
                id: "u".into(),
                name: "U".into(),
                side: "a".into(),
                location: Location::Hex { column: 1, row: 2 },
                facing: 3,
                strength: 4,
                original_strength: 5,
                eliminated: None,
                rules: ToyUnit {
                    morale: "eager".into(),
                    markers: vec!["ammo-low".into()],
                },
            }],
            generals: Vec::new(),
            standing_orders: BTreeMap::new(),
            turn_limit: None,
            options: Vec::new(),
            nations: BTreeMap::new(),
            finished: None,
            params,
            game: ToyGame {
                points: BTreeMap::from([("a".to_string(), 3)]),
            },
        }
    }

    #[test]
    fn typed_and_raw_states_are_the_same_bytes_and_convert_both_ways() {
        for params in [ToyParams::default(), ToyParams { needs: 4 }] {
            let typed = toy(params);
            let raw = typed.raw();
            assert_eq!(canonical::to_string(&raw), canonical::to_string(&typed));
            assert_eq!(raw.typed::<Toy>(), Ok(typed.clone()));
            let read: GameState =
                serde_json::from_str(&canonical::to_string(&typed)).expect("reads");
            assert_eq!(read, raw);
        }
    }

    #[test]
    fn the_parts_sit_beside_the_envelope_and_default_parameters_are_left_out() {
        let json = canonical::to_string(&toy(ToyParams::default()));
        assert!(json.contains(r#""morale":"eager""#), "{json}");
        assert!(json.contains(r#""points":{"a":3}"#), "{json}");
        assert!(!json.contains("params"), "{json}");
        let json = canonical::to_string(&toy(ToyParams { needs: 4 }));
        assert!(json.contains(r#""params":{"needs":4}"#), "{json}");
    }

    #[test]
    fn a_part_that_does_not_read_is_an_error_naming_the_unit() {
        let mut raw = toy(ToyParams::default()).raw();
        raw.units[0].rules.remove("morale");
        let e = raw.typed::<Toy>().expect_err("morale is missing");
        assert_eq!(e.what, "unit u");
    }
}
