//! How each thing on the map looks: terrain by kind, sides by their place in
//! the rotation, markers by state. Kept apart from the drawing so that the
//! legend and the map cannot disagree.

/// How a terrain kind is drawn: an area's fill, or a line's stroke.
pub struct TerrainStyle {
    pub fill: &'static str,
    pub stroke: &'static str,
    /// Stroke width in hundredths of an inch.
    pub width: u32,
    /// An SVG dash pattern, or empty for a solid line.
    pub dash: &'static str,
    /// What the legend calls it.
    pub label: &'static str,
}

/// The look of a terrain kind; a kind the map does not know is drawn grey,
/// so that a new kind is still seen.
pub fn terrain(kind: &str) -> TerrainStyle {
    let s = |fill, stroke, width, dash, label| TerrainStyle {
        fill,
        stroke,
        width,
        dash,
        label,
    };
    match kind {
        "light-woods" => s("#b9dba0", "#6f9a55", 4, "", "light woods"),
        "heavy-woods" => s("#6f9e5c", "#3f6a31", 5, "", "heavy woods"),
        "gentle-hill" => s("#e8dcb2", "#b9a878", 3, "", "gentle hill"),
        "steep-slope" => s("#c7a77c", "#8a6a40", 5, "", "steep slope"),
        "rough" => s("#ddd0a8", "#a8946a", 3, "20 15", "rough ground"),
        "town-block" => s("#b3aca4", "#6d655c", 5, "", "town block"),
        "chateau" => s("#9b8f85", "#4f463e", 6, "", "chateau"),
        "crest" => s("none", "#8a6d3b", 8, "40 20", "crest line"),
        "obstacle" => s("none", "#5a4a3a", 10, "", "obstacle"),
        "road" => s("none", "#c9a66b", 30, "", "road"),
        "fieldworks" => s("none", "#6b4f2f", 18, "10 10", "fieldworks"),
        "river" => s("none", "#5b8fd6", 35, "", "river"),
        "water" => s("#a9c8ee", "#5b8fd6", 4, "", "water"),
        "boat" => s("#8b5a2b", "#4a2f14", 4, "", "boat"),
        _ => s("#d0d0d0", "#808080", 4, "8 8", "other terrain"),
    }
}

/// A side's colour by its place in the state's list of sides.
pub fn side_colour(index: usize) -> &'static str {
    const COLOURS: &[&str] = &["#2b59c3", "#c8102e", "#2e8b57", "#8e44ad", "#d4a017"];
    COLOURS[index % COLOURS.len()]
}

/// A state marker: the letter drawn in a disc next to the unit, its colour
/// and what the legend says of it.
pub struct Marker {
    pub letter: &'static str,
    pub colour: &'static str,
    pub label: &'static str,
}

pub const SHAKEN: Marker = Marker {
    letter: "S",
    colour: "#b00020",
    label: "shaken",
};
pub const DISORDERED: Marker = Marker {
    letter: "D",
    colour: "#d35400",
    label: "disordered",
};
pub const BLOWN: Marker = Marker {
    letter: "B",
    colour: "#6c3483",
    label: "blown",
};

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
