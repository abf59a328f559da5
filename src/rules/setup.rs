//! How a ruleset reads its own part of a scenario's units and of the
//! campaign's parameters, without knowing the file format: the campaign
//! loader hands it a [`Keys`] view of one table, the ruleset asks for the
//! keys it knows, and every problem lands at the key's place in the file.
//! A key nobody asked for is reported by the loader as unknown.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;

use super::board::{Location, MapSpec};
use super::state::{Part, UnitState};

/// The words a campaign may use with a ruleset, for the campaign check:
/// an empty list allows any word.
#[derive(Debug, Clone, Copy, Default)]
pub struct Vocabulary {
    /// Optional rules a campaign may switch on.
    pub options: &'static [&'static str],
    /// Nations whose modifiers a side may take.
    pub nations: &'static [&'static str],
    /// Terrain kinds a scenario may lay out.
    pub terrain_kinds: &'static [&'static str],
    /// Whether the ruleset plays on a table, on hexes, or both.
    pub tables: bool,
    pub hexes: bool,
}

/// What a ruleset may consult while setting up one unit.
#[derive(Debug, Clone, Copy)]
pub struct SetupContext<'a> {
    /// The optional rules the campaign switched on.
    pub options: &'a [String],
    /// Each side's nation, by side id.
    pub nations: &'a BTreeMap<String, String>,
    /// The map, when it could be read.
    pub map: Option<&'a MapSpec>,
    /// The campaign's parameters as the ruleset read them (`null` where it
    /// takes none, or they did not read): a unit's keys may name what they
    /// define (a weapon of a chart).
    pub params: &'a serde_json::Value,
}

impl SetupContext<'_> {
    pub fn option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o == name)
    }

    /// The parameters in the ruleset's own type; its default where there
    /// are none or they do not read as that type.
    pub fn params<P: DeserializeOwned + Default>(&self) -> P {
        match self.params {
            serde_json::Value::Null => P::default(),
            v => serde_json::from_value(v.clone()).unwrap_or_default(),
        }
    }
}

/// The envelope's part of a unit, read by the loader before the ruleset
/// reads its own.
#[derive(Debug, Clone, Copy)]
pub struct UnitBasics<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub side: &'a str,
    /// Figures, gun models or steps, as the scenario gives them.
    pub strength: u32,
    pub location: Location,
    pub facing: u32,
}

impl UnitBasics<'_> {
    /// The unit as it begins the game, with the ruleset's part.
    pub fn unit<U: Part>(&self, rules: U) -> UnitState<U> {
        UnitState {
            id: self.id.to_string(),
            name: self.name.to_string(),
            side: self.side.to_string(),
            location: self.location,
            facing: self.facing,
            strength: self.strength,
            original_strength: self.strength,
            eliminated: None,
            rules,
        }
    }
}

/// One table of a campaign file, as a ruleset reads it. Each method reports
/// its own problem (a missing key, a wrong type, a word not in the list, a
/// number out of range) at the key's place and returns `None` where there
/// is no value to build on.
pub trait Keys {
    /// A word that must be one of `known` (any word where `known` is empty).
    /// `what` names it in a problem: `unknown troop type "dragoons"`.
    fn word(&mut self, key: &str, known: &[&str], what: &str) -> Option<String>;

    /// As [`Keys::word`], for a key that may be left out: `Some(None)` when
    /// it is absent.
    fn optional_word(&mut self, key: &str, known: &[&str], what: &str) -> Option<Option<String>>;

    /// A whole number in `min..=max`; `default` where the key is absent (a
    /// missing key is a problem when there is no default).
    fn count(&mut self, key: &str, min: u32, max: u32, default: Option<u32>) -> Option<u32>;

    /// A list of words, each one of `known` and none twice; empty when the
    /// key is absent.
    fn words(&mut self, key: &str, known: &[&str], what: &str) -> Option<Vec<String>>;

    /// A table of named whole numbers (`[ruleset.parameters.pips]`, `red = 2`).
    fn counts(&mut self, key: &str, min: u32, max: u32) -> Option<BTreeMap<String, u32>>;

    /// Whether the table has the key at all (it is then taken as asked for).
    fn has(&mut self, key: &str) -> bool;

    /// A length in inches (`4`, `2.5`), in hundredths of an inch, at most
    /// `most`; `default` where the key is absent (a missing key is a problem
    /// when there is no default).
    fn length(&mut self, key: &str, most: u32, default: Option<u32>) -> Option<u32>;

    /// A list of whole numbers, each in `min..=max` (a problem at each one
    /// that is not); empty when the key is absent.
    fn numbers(&mut self, key: &str, min: u32, max: u32) -> Option<Vec<u32>>;

    /// The keys of the table itself, in the order the file gives them, for
    /// a table whose keys are names the ruleset does not know in advance (a
    /// chart's rows). Listing them asks for none: each is then read (or
    /// reported as unknown) as any other key.
    fn names(&mut self) -> Vec<String>;

    /// Reads the table `key` through a view of its own: `read` asks for its
    /// keys, each problem lands at its place in the file, and a key `read`
    /// did not ask for is reported as unknown. `false` when the key is
    /// absent or is not a table (which is a problem).
    fn table(&mut self, key: &str, read: &mut dyn FnMut(&mut dyn Keys)) -> bool;

    /// Reads each table of the list of tables `key` (`[[a.b]]`, or
    /// `[{...}, {...}]`) as [`Keys::table`] reads one, with its place in the
    /// list from 0. `false` when the key is absent or is not such a list.
    fn tables(&mut self, key: &str, read: &mut dyn FnMut(usize, &mut dyn Keys)) -> bool;

    /// A problem with the value of `key` (or with the whole table, where the
    /// key is absent), with the clause that forbids it.
    fn problem(&mut self, key: &str, problem: String, clause: Option<&'static str>);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, PartialEq, serde::Deserialize)]
    struct Toy {
        needs: u32,
    }

    #[test]
    fn a_unit_reads_the_parameters_in_its_rulesets_type() {
        let nations = BTreeMap::new();
        let read = |params: &serde_json::Value| -> Toy {
            SetupContext {
                options: &[],
                nations: &nations,
                map: None,
                params,
            }
            .params()
        };
        assert_eq!(read(&serde_json::json!({ "needs": 4 })), Toy { needs: 4 });
        assert_eq!(read(&serde_json::Value::Null), Toy::default());
        assert_eq!(read(&serde_json::json!("odd")), Toy::default());
    }
}
