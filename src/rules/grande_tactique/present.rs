//! How Grande Tactique's pieces look in the reports and on the map, and
//! what each side sees (ruling GT-10).
//!
//! A unit is drawn to scale from its base; a column has a stripe, a square a
//! heavy edge all round. Markers: S shaken, R routed, F firing. A Charge
//! marker is drawn as the map's declaration (`Presentation::aims`): "I use
//! triangular Charge markers and position them so as to point at the
//! target."
//!
//! A side sees its own units, and an enemy unit when one of its units in
//! play has a line from its front centre to that unit's centre or a front
//! corner that runs no farther into woods or a Built-Up Area than the
//! campaign's `sight_into_cover`. Units that meet in a charge see each
//! other; a unit that fires is seen by all.

use std::collections::BTreeSet;

use super::GrandeTactique;
use super::basing;
use super::field::Field;
use super::state::{Formation, Morale, State, Unit};
use crate::geometry::Point;
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
        visible_to(self, state, side, events)
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

pub(super) fn visible_to(
    rules: &GrandeTactique,
    state: &State,
    side: &str,
    events: &[Event],
) -> BTreeSet<String> {
    let own: BTreeSet<&str> = state
        .units
        .iter()
        .filter(|u| u.side == side)
        .map(|u| u.id.as_str())
        .collect();
    let mut seen: BTreeSet<String> = own.iter().map(|s| s.to_string()).collect();
    for e in events {
        let class = e.class(|k| rules.event_class(k));
        if class == EventClass::Fire
            && let Some(firer) = e.units.first()
        {
            seen.insert(firer.clone());
        }
        if class.is_contact() && e.units.iter().any(|u| own.contains(u.as_str())) {
            seen.extend(e.units.iter().cloned());
        }
    }
    let field = Field::new(state);
    let eyes: Vec<Point> = state
        .units
        .iter()
        .filter(|u| u.side == side && u.eliminated.is_none())
        .filter_map(|u| basing::footprint(u).map(|r| r.front_centre))
        .collect();
    let see = super::params::Params::inches(state.params.sight_into_cover);
    for u in state
        .units
        .iter()
        .filter(|u| u.side != side && u.eliminated.is_none())
    {
        if seen.contains(&u.id) {
            continue;
        }
        let Some(r) = basing::footprint(u) else {
            continue;
        };
        let c = r.corners();
        let points = [r.centre(), c[0], c[1]];
        let visible = eyes.iter().any(|&e| {
            points.iter().any(|&p| {
                field
                    .cover_areas()
                    .all(|(_, area)| crate::geometry::sees_through(e, p, area, see))
            })
        });
        if visible {
            seen.insert(u.id.clone());
        }
    }
    seen
}
