//! The field every ruleset plays on: a table or a hex grid, where a piece
//! stands on it, and the terrain laid out on it. Part of the game state, so
//! that movement, sight and shooting depend on nothing the archive does not
//! hold.

use serde::{Deserialize, Serialize};

use crate::geometry::{Hex, Hundredths, Point};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum MapSpec {
    /// A table `width` by `depth` (hundredths of an inch); x runs east, y north.
    Table {
        width: Hundredths,
        depth: Hundredths,
    },
    /// A hex grid of `columns` by `rows`, flat-topped, odd columns shifted down.
    Hex { columns: u32, rows: u32 },
}

/// Where a piece stands: a point on a table, or a hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Location {
    Table { x: Hundredths, y: Hundredths },
    Hex { column: u32, row: u32 },
}

impl Location {
    /// The hex a piece stands in; `None` for one on a table.
    pub fn hex(self) -> Option<Hex> {
        match self {
            Location::Hex { column, row } => Some(Hex::new(column, row)),
            Location::Table { .. } => None,
        }
    }

    /// Where a piece standing in `hex` is.
    pub fn in_hex(hex: Hex) -> Location {
        Location::Hex {
            column: hex.column,
            row: hex.row,
        }
    }
}

/// A terrain feature: an area (polygon), a line (polyline), or on a hex map a
/// set of hexes or hexsides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Terrain {
    pub id: String,
    /// The ruleset's own word (`light-woods`, `crest`, `road`; a hex
    /// terrain type), one of its vocabulary's terrain kinds. The archived
    /// form: a ruleset reads it into its own enum of kinds once per state
    /// ([`terrain_kinds!`](crate::terrain_kinds)).
    pub kind: String,
    pub shape: TerrainShape,
}

/// Declares a ruleset's enum of terrain kinds from one list of variants and
/// the words a scenario writes them with, so that the words a campaign may
/// use ([`crate::rules::setup::Vocabulary::terrain_kinds`], `KINDS`) and the
/// kinds its rules match on cannot disagree. The ruleset reads each
/// feature's [`Terrain::kind`] into it once per state (`parse`), and its
/// rules match on the enum: a misspelt kind is a compile error, not a rule
/// silently left out.
#[macro_export]
macro_rules! terrain_kinds {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$vmeta:meta])* $variant:ident = $word:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
        $vis enum $name { $($(#[$vmeta])* $variant,)+ }

        impl $name {
            /// Every kind, in the order declared.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];
            /// Every kind's word, in the order declared.
            pub const KINDS: &'static [&'static str] = &[$($word,)+];

            /// The word a scenario and the state write the kind with.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $word,)+
                }
            }

            /// The kind a word names, if it names one.
            pub fn parse(word: &str) -> Option<$name> {
                match word {
                    $($word => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "kebab-case")]
pub enum TerrainShape {
    Area {
        points: Vec<Point>,
    },
    Line {
        points: Vec<Point>,
    },
    Hexes {
        hexes: Vec<(u32, u32)>,
    },
    /// Hexsides as (column, row, side 0-5 clockwise from north).
    Hexsides {
        sides: Vec<(u32, u32, u8)>,
    },
}

#[cfg(test)]
mod tests {
    use super::Location;

    #[test]
    fn a_hex_location_gives_its_hex_back_and_a_table_point_none() {
        let hex = crate::geometry::Hex::new(7, 12);
        assert_eq!(Location::in_hex(hex).hex(), Some(hex));
        let table = Location::Table { x: 100, y: 200 };
        assert_eq!(table.hex(), None);
    }

    crate::terrain_kinds! {
        enum Kind {
            Woods = "woods",
            TownBlock = "town-block",
        }
    }

    #[test]
    fn every_kind_reads_back_from_its_word_in_the_order_declared() {
        assert_eq!(Kind::KINDS, &["woods", "town-block"]);
        assert_eq!(Kind::ALL, &[Kind::Woods, Kind::TownBlock]);
        for (&kind, &word) in Kind::ALL.iter().zip(Kind::KINDS) {
            assert_eq!(kind.as_str(), word);
            assert_eq!(kind.to_string(), word);
            assert_eq!(Kind::parse(word), Some(kind));
        }
        assert_eq!(Kind::parse("swamp"), None);
        assert_eq!(Kind::parse("Woods"), None);
    }
}
