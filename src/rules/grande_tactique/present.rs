//! How Grande Tactique's pieces look in the reports and on the map. What
//! each side sees is `sight`'s.
//!
//! A unit is drawn to scale from its base; a column has a stripe, a square a
//! heavy edge all round. Markers: S shaken, R routed, F firing. A Charge
//! marker is drawn as the map's declaration (`Presentation::aims`): "I use
//! triangular Charge markers and position them so as to point at the
//! target."

use std::collections::BTreeSet;

use super::GrandeTactique;
use super::basing;
use super::state::{Formation, Morale, State, Unit};
use crate::rules::look::{Aim, EventClass, Look, Marker, Outline, Shape, TerrainStyle, UnitLook};
use crate::rules::ruleset::{Event, Presentation, Preview};
use crate::rules::told::EventKind;

pub const SHAKEN: Marker = Marker {
    letter: "S",
    colour: "#b00020",
    label: "shaken",
};
pub const ROUTED: Marker = Marker {
    letter: "R",
    colour: "#6c3483",
    label: "routed",
};
pub const FIRING: Marker = Marker {
    letter: "F",
    colour: "#d35400",
    label: "firing",
};

impl Presentation for GrandeTactique {
    fn look(&self, state: &State) -> Look {
        state
            .units
            .iter()
            .map(|u| (u.id.clone(), unit_look(u)))
            .collect()
    }

    fn markers(&self) -> &'static [Marker] {
        &[SHAKEN, ROUTED, FIRING]
    }

    fn terrain_style(&self, kind: &str) -> Option<TerrainStyle> {
        let s = |fill, stroke, width, dash, label| TerrainStyle {
            fill,
            stroke,
            width,
            dash,
            label,
        };
        Some(match kind {
            "woods" => s("#8fbf73", "#4f7a3a", 4, "", "woods"),
            "built-up-area" => s("#b3aca4", "#6d655c", 5, "", "Built-Up Area"),
            "hill" => s("#e8dcb2", "#b9a878", 3, "", "hill"),
            "hedge" => s("none", "#3f6a31", 12, "6 6", "hedge"),
            "wall" => s("none", "#5a4a3a", 10, "", "wall"),
            "stream" => s("none", "#5b8fd6", 20, "", "stream"),
            "road" => s("none", "#c9a66b", 30, "", "road"),
            _ => return None,
        })
    }

    /// An event read back from an archive, by the kind it was written with
    /// (`events::Kind`).
    fn event_class(&self, kind: &str) -> EventClass {
        super::events::Kind::class_of_name(kind)
    }

    fn visible_to(&self, state: &State, side: &str, events: &[Event]) -> BTreeSet<String> {
        super::sight::visible_to(self, state, side, events)
    }

    /// A line for each unit of the side in play: `hold`, to be changed.
    fn order_template(&self, state: &State, side: &str) -> Vec<String> {
        state
            .units
            .iter()
            .filter(|u| u.side == side && u.eliminated.is_none())
            .map(|u| format!("{}: hold", u.id))
            .collect()
    }

    /// "At that time, charging units have a Charge marker placed them,
    /// positioned in such a way as to clearly signal who it is the charging
    /// unit is charging."
    fn aims(&self, state: &State) -> Vec<Aim> {
        state
            .game
            .charges
            .iter()
            .map(|c| Aim {
                from: c.unit.clone(),
                at: c.target.clone(),
            })
            .collect()
    }

    fn preview(&self, initial: &State) -> Option<Preview<GrandeTactique>> {
        super::sample::preview(initial)
    }
}

fn unit_look(u: &Unit) -> UnitLook {
    let shape = match basing::footprint(u) {
        Some(rect) => Shape::Footprint {
            rect,
            outline: if u.rules.formation == Formation::Square {
                Outline::AllRound
            } else {
                Outline::Solid
            },
            stripe: u.rules.formation == Formation::Column,
            wheel: u.rules.troop_type.arm() == super::state::Arm::Artillery,
        },
        None => Shape::Counter,
    };
    let mut markers = Vec::new();
    match u.rules.morale {
        Morale::Shaken => markers.push(SHAKEN),
        Morale::Routed => markers.push(ROUTED),
        Morale::Eager => {}
    }
    if u.rules.firing {
        markers.push(FIRING);
    }
    let mut kind = format!("{}, command {}", u.rules.troop_type, u.rules.command);
    if u.rules.veteran {
        kind.push_str(", veteran");
    }
    for m in &u.rules.marks {
        kind.push_str(", ");
        kind.push_str(m);
    }
    UnitLook {
        shape,
        kind,
        formation: Some(u.rules.formation.word().to_string()),
        markers,
    }
}
