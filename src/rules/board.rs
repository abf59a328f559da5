//! The field every ruleset plays on: a table or a hex grid, where a piece
//! stands on it, and the terrain laid out on it. Part of the game state, so
//! that movement, sight and shooting depend on nothing the archive does not
//! hold.

use serde::{Deserialize, Serialize};

use crate::geometry::{Hundredths, Point};

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

/// A terrain feature: an area (polygon), a line (polyline), or on a hex map a
/// set of hexes or hexsides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Terrain {
    pub id: String,
    /// The ruleset's own word: `light-woods`, `heavy-woods`, `steep-slope`,
    /// `rough`, `gentle-hill`, `crest`, `obstacle`, `road`, `town-block`,
    /// `fieldworks`, `river`, `water`, `boat`; or a hex terrain type.
    pub kind: String,
    pub shape: TerrainShape,
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
