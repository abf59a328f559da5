//! How the ruleset's pieces look in the reports and on the map, and what
//! each side sees.

use std::collections::BTreeSet;

use super::PercentileFire;
use super::basing;
use super::ground::TerrainKind;
use super::state::{Arm, Counterbattery, Formation, Morale, State, Unit};
use crate::rules::look::{EventClass, Look, Marker, Outline, Shape, TerrainStyle, UnitLook};
use crate::rules::ruleset::{Event, Presentation, Preview};
use crate::rules::told::EventKind;

pub const DISORDERED: Marker = Marker {
    letter: "D",
    colour: "#d35400",
    label: "morale disordered",
};
pub const ROUTING: Marker = Marker {
    letter: "R",
    colour: "#b00020",
    label: "routing",
};
pub const CANNON_LOSS: Marker = Marker {
    letter: "L",
    colour: "#555555",
    label: "cannon loss marker",
};
pub const COUNTERBATTERY_A: Marker = Marker {
    letter: "A",
    colour: "#1f618d",
    label: "counterbattery A",
};
pub const COUNTERBATTERY_B: Marker = Marker {
    letter: "B",
    colour: "#6c3483",
    label: "counterbattery B",
};
pub const CHARGING: Marker = Marker {
    letter: "C",
    colour: "#7d6608",
    label: "charging",
};

const MARKERS: &[Marker] = &[
    DISORDERED,
    ROUTING,
    CANNON_LOSS,
    COUNTERBATTERY_A,
    COUNTERBATTERY_B,
    CHARGING,
];

impl Presentation for PercentileFire {
    fn look(&self, state: &State) -> Look {
        state
            .units
            .iter()
            .map(|u| (u.id.clone(), unit_look(u)))
            .collect()
    }

    fn markers(&self) -> &'static [Marker] {
        MARKERS
    }

    fn terrain_style(&self, kind: &str) -> Option<TerrainStyle> {
        terrain_style(kind)
    }

    /// An event read back from an archive, by the kind it was written with
    /// (`events::Kind`).
    fn event_class(&self, kind: &str) -> EventClass {
        super::events::Kind::class_of_name(kind)
    }

    fn visible_to(&self, state: &State, side: &str, events: &[Event]) -> BTreeSet<String> {
        super::sight::visible_to(state, side, events)
    }

    fn order_template(&self, state: &State, side: &str) -> Vec<String> {
        super::bot::template(state, side)
    }

    fn preview(&self, initial: &State) -> Option<Preview<PercentileFire>> {
        Some(super::sample::preview(initial))
    }
}

/// How one unit looks: to scale from its footprint, its states as markers.
pub fn unit_look(u: &Unit) -> UnitLook {
    let r = &u.rules;
    let shape = match basing::footprint(u) {
        Some(rect) => Shape::Footprint {
            rect,
            outline: match r.formation {
                Formation::Skirmish => Outline::Loose,
                Formation::Square => Outline::AllRound,
                _ => Outline::Solid,
            },
            stripe: matches!(r.formation, Formation::Column | Formation::Limbered),
            wheel: r.arm == Arm::Artillery,
        },
        None => Shape::Counter,
    };
    let mut markers = Vec::new();
    match r.morale {
        Morale::Disordered => markers.push(DISORDERED),
        Morale::Routing => markers.push(ROUTING),
        Morale::Steady => {}
    }
    if r.cannon_lost > 0 {
        markers.push(CANNON_LOSS);
    }
    match r.counterbattery {
        Some(Counterbattery::A) => markers.push(COUNTERBATTERY_A),
        Some(Counterbattery::B) => markers.push(COUNTERBATTERY_B),
        None => {}
    }
    if r.charging {
        markers.push(CHARGING);
    }
    let kind = match r.arm {
        Arm::Artillery => format!(
            "artillery, {} x {}{}{}",
            r.cannon_now(),
            r.weapon,
            if r.cannon_lost > 0 {
                format!(" ({} lost)", r.cannon_lost)
            } else {
                String::new()
            },
            if r.artillery_officer {
                ", artillery officer"
            } else {
                ""
            }
        ),
        Arm::Infantry | Arm::Cavalry => format!("{}, {}", r.arm, r.weapon),
        other => other.to_string(),
    };
    UnitLook {
        shape,
        kind,
        formation: Some(r.in_square.as_ref().map_or_else(
            || r.formation.to_string(),
            |s| format!("in the square of {s}"),
        )),
        markers,
    }
}

/// The look of a terrain kind.
fn terrain_style(kind: &str) -> Option<TerrainStyle> {
    let s = |fill, stroke, width, dash, label| TerrainStyle {
        fill,
        stroke,
        width,
        dash,
        label,
    };
    Some(match TerrainKind::parse(kind)? {
        TerrainKind::LightWoods => s("#b9dba0", "#6f9a55", 4, "", "light woods"),
        TerrainKind::HeavyWoods => s("#6f9e5c", "#3f6a31", 5, "", "heavy woods"),
        TerrainKind::Hill => s("#e8dcb2", "#b9a878", 3, "", "hill"),
        TerrainKind::Crest => s("none", "#8a6d3b", 8, "40 20", "crest line"),
        TerrainKind::Building1 => s("#9b8f85", "#4f463e", 6, "", "building, Class I"),
        TerrainKind::Building2 => s("#b3aca4", "#6d655c", 5, "", "building, Class II"),
        TerrainKind::Building3 => s("#cfc9c2", "#857d74", 4, "", "building, Class III"),
        TerrainKind::Redoubt => s("#d8c3a5", "#6b4f2f", 10, "10 10", "redoubt"),
        TerrainKind::River => s("none", "#5b8fd6", 35, "", "river"),
        TerrainKind::Road => s("none", "#c9a66b", 30, "", "road"),
        TerrainKind::Rough => s("#ddd0a8", "#a8946a", 3, "20 15", "rough ground"),
        TerrainKind::Marsh => s("#c9d9c4", "#7d9a80", 3, "8 8", "marsh"),
    })
}
