//! How Kulikovo's pieces look in the reports and on the map. What each
//! side sees is `sight`'s.
//!
//! A unit is a counter with its weapon letter, a bar towards the hexside it
//! faces, and a marker for disordered (D) or retired (R).

use std::collections::BTreeSet;

use super::Kulikovo;
use super::field::Field;
use super::orders::check::may_counter_charge;
use super::orders::direction_name;
use super::state::{State, Unit};
use crate::rules::look::{EventClass, Look, Marker, Shape, TerrainStyle, UnitLook};
use crate::rules::ruleset::{Event, Presentation, Preview};
use crate::rules::told::EventKind;

pub const DISORDERED: Marker = Marker {
    letter: "D",
    colour: "#d35400",
    label: "disordered",
};
pub const RETIRED: Marker = Marker {
    letter: "R",
    colour: "#6c3483",
    label: "retired",
};

impl Presentation for Kulikovo {
    fn look(&self, state: &State) -> Look {
        state
            .units
            .iter()
            .map(|u| (u.id.clone(), unit_look(u)))
            .collect()
    }

    fn markers(&self) -> &'static [Marker] {
        &[DISORDERED, RETIRED]
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
        super::sight::visible_to(self, state, side, events)
    }

    fn order_template(&self, state: &State, side: &str) -> Vec<String> {
        order_template(state, side)
    }

    fn preview(&self, initial: &State) -> Option<Preview<Kulikovo>> {
        Some(super::sample::preview(initial))
    }
}

/// How one unit looks: its weapon letter on a counter, its state as
/// markers; in the order of battle, what it is and which way it faces.
fn unit_look(u: &Unit) -> UnitLook {
    let mut markers = Vec::new();
    if u.rules.retired {
        markers.push(RETIRED);
    } else if u.rules.disordered {
        markers.push(DISORDERED);
    }
    let drm = if u.rules.shock_drm != 0 {
        format!(", shock DRM {:+}", u.rules.shock_drm)
    } else {
        String::new()
    };
    UnitLook {
        shape: Shape::CounterWith {
            symbol: u.rules.weapon.letter(),
        },
        kind: format!("{} ({}){drm}", u.rules.weapon.words(), u.rules.weapon),
        formation: Some(format!(
            "facing {}",
            direction_name(crate::geometry::Direction::of_facing(u.facing))
        )),
        markers,
    }
}

/// The look of a terrain kind: hexes filled, hexsides drawn as lines.
pub fn terrain_style(kind: &str) -> Option<TerrainStyle> {
    let s = |fill, stroke, width, dash, label| TerrainStyle {
        fill,
        stroke,
        width,
        dash,
        label,
    };
    Some(match kind {
        "clear" => s("#f3f1e4", "#c9c6b0", 3, "", "clear"),
        "woods" => s("#7fae6a", "#3f6a31", 4, "", "woods"),
        "level-1" => s("#eadfb8", "#b9a878", 3, "", "level 1"),
        "level-2" => s("#dcc894", "#a38c56", 3, "", "level 2"),
        "level-3" => s("#cdb072", "#8a7038", 3, "", "level 3"),
        "nepravda-river" => s("none", "#2f6fc2", 24, "", "Nepravda River"),
        "smolka-river" => s("none", "#5b8fd6", 14, "", "Smolka River"),
        "nigni-dubik-river" => s("none", "#4f9fc8", 14, "", "River Nigni Dubik"),
        // "Steep Slope has yellow crest".
        "steep-slope" => s("none", "#e0b400", 16, "", "steep slope"),
        "ridge" => s("none", "#7a5a34", 12, "24 12", "ridge"),
        "cliff" => s("none", "#2b2118", 20, "10 6", "cliff"),
        _ => return None,
    })
}

/// The lines a report offers: for the side that activates next, a `hold`
/// for each of its units, to be changed; for the other, a counter-charge
/// for each unit that may, or `pass`.
fn order_template(state: &State, side: &str) -> Vec<String> {
    if state.finished.is_some() {
        return Vec::new();
    }
    let in_play = state
        .units
        .iter()
        .filter(|u| u.side == side && u.eliminated.is_none());
    if state.active_side == side {
        return in_play.map(|u| format!("{}: hold", u.id)).collect();
    }
    let field = Field::new(state.clone());
    let lines: Vec<String> = in_play
        .filter(|u| {
            field
                .index(&u.id)
                .is_some_and(|i| may_counter_charge(&field, i).is_ok())
        })
        .map(|u| format!("{}: counter-charge", u.id))
        .collect();
    if lines.is_empty() {
        vec!["pass".to_string()]
    } else {
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Location;

    fn demo() -> State {
        crate::rules::testing::demo_state(&Kulikovo)
    }

    /// Ruling KUL-24: the ambush regiment in the Green Oak Wood is hidden
    /// from the Horde until one of its units stands next to it.
    #[test]
    fn units_in_woods_are_hidden_until_an_enemy_stands_next_to_them() {
        let mut state = demo();
        let seen = Kulikovo.visible_to(&state, "horde", &[]);
        assert!(!seen.contains("h-ambush-1") && !seen.contains("h-ambush-2"));
        assert!(seen.contains("r-moscow"), "units in the open are seen");
        assert!(
            Kulikovo
                .visible_to(&state, "russians", &[])
                .contains("h-ambush-1")
        );
        // A Tatar next to the wood sees into it: 1704 is next to 1703.
        if let Some(u) = state.units.iter_mut().find(|u| u.id == "l-horse-6") {
            u.location = Location::Hex { column: 17, row: 5 };
        }
        let seen = Kulikovo.visible_to(&state, "horde", &[]);
        assert!(seen.contains("h-ambush-1"), "next to it");
        assert!(!seen.contains("h-ambush-2"), "two hexes off");
        // A unit that fires is seen by all.
        let fire = Event::naming("fire", &["h-ambush-2", "l-horse-6"], "");
        assert!(
            Kulikovo
                .visible_to(&state, "horde", &[fire])
                .contains("h-ambush-2")
        );
    }

    /// A counter shows its weapon letter; the order of battle, what it is
    /// and which way it faces; the markers, disordered or retired.
    #[test]
    fn a_unit_looks_as_its_counter() {
        let mut state = demo();
        let look = Kulikovo.look(&state);
        let l = &look["h-druzhina-1"];
        assert_eq!(l.shape, Shape::CounterWith { symbol: "H" });
        assert_eq!(l.kind, "heavy cavalry (H), shock DRM +1");
        assert_eq!(l.formation.as_deref(), Some("facing south"));
        assert!(l.markers.is_empty());
        state.units[0].rules.disordered = true;
        state.units[1].rules.retired = true;
        let look = Kulikovo.look(&state);
        assert_eq!(look[&state.units[0].id].markers, vec![DISORDERED]);
        assert_eq!(look[&state.units[1].id].markers, vec![RETIRED]);
    }

    /// Every terrain kind a scenario may use has a style of its own.
    #[test]
    fn every_terrain_kind_is_styled() {
        for kind in super::super::ground::TERRAIN_KINDS {
            assert!(terrain_style(kind).is_some(), "{kind}");
        }
        assert!(terrain_style("swamp").is_none());
    }

    /// The template offers the side to act a line for each unit, the other
    /// side its counter-charges.
    #[test]
    fn the_order_template_fits_the_phase() {
        let state = demo();
        let horde = Kulikovo.order_template(&state, "horde");
        assert!(horde.contains(&"h-guard-1: hold".to_string()));
        let russians = Kulikovo.order_template(&state, "russians");
        assert!(russians.contains(&"h-druzhina-1: counter-charge".to_string()));
        assert!(
            !russians.iter().any(|l| l.starts_with("b-")),
            "{russians:?}"
        );
    }
}
