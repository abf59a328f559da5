//! How the map's own pieces look: sides by their place in the rotation, the
//! arrows of a turn, and terrain a ruleset does not style. Kept apart from
//! the drawing so that the legend and the map cannot disagree; a ruleset's
//! terrain and markers are its own (`rules::look`).

use crate::rules::look::TerrainStyle;

/// How a terrain kind the ruleset does not know is drawn: grey, so that a
/// new kind is still seen.
pub const UNKNOWN_TERRAIN: TerrainStyle = TerrainStyle {
    fill: "#d0d0d0",
    stroke: "#808080",
    width: 4,
    dash: "8 8",
    label: "other terrain",
};

/// A side's colour by its place in the state's list of sides.
pub fn side_colour(index: usize) -> &'static str {
    const COLOURS: &[&str] = &["#2b59c3", "#c8102e", "#2e8b57", "#8e44ad", "#d4a017"];
    COLOURS[index % COLOURS.len()]
}

/// How an arrow of this turn is drawn.
pub struct ArrowStyle {
    pub id: &'static str,
    pub colour: &'static str,
    pub width: u32,
    pub dash: &'static str,
    pub label: &'static str,
}

pub const MOVE: ArrowStyle = ArrowStyle {
    id: "move",
    colour: "#1a1a1a",
    width: 8,
    dash: "",
    label: "move",
};
pub const CHARGE: ArrowStyle = ArrowStyle {
    id: "charge",
    colour: "#c0392b",
    width: 14,
    dash: "",
    label: "charge",
};
pub const RETREAT: ArrowStyle = ArrowStyle {
    id: "retreat",
    colour: "#7f5539",
    width: 8,
    dash: "25 15",
    label: "retreat or rout",
};
pub const FIRE: ArrowStyle = ArrowStyle {
    id: "fire",
    colour: "#e67e22",
    width: 6,
    dash: "12 10",
    label: "fire",
};

/// Fire ordered and not made, on the map of the side that ordered it.
pub const NO_SHOT: ArrowStyle = ArrowStyle {
    id: "no-shot",
    colour: "#8a8a8a",
    width: 4,
    dash: "6 10",
    label: "shot not made",
};

/// A declared attack not yet carried out (`rules::look::Aim`).
pub const AIM: ArrowStyle = ArrowStyle {
    id: "aim",
    colour: "#c0392b",
    width: 6,
    dash: "30 12",
    label: "declared charge",
};
