//! How Sound the Charge's pieces look in the reports and on the map. What
//! each side sees is `sight`'s.

use std::collections::BTreeSet;

use super::SoundTheCharge;
use super::basing;
use super::ground::TerrainKind;
use super::orders::Formation;
use super::state::{State, Unit};
use crate::rules::look::{EventClass, Look, Marker, Outline, Shape, TerrainStyle, UnitLook};
use crate::rules::ruleset::{Event, Presentation, Preview};
use crate::rules::told::EventKind;

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

impl Presentation for SoundTheCharge {
    fn look(&self, state: &State) -> Look {
        state
            .units
            .iter()
            .map(|u| (u.id.clone(), unit_look(u)))
            .collect()
    }

    fn markers(&self) -> &'static [Marker] {
        &[SHAKEN, DISORDERED, BLOWN]
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
        state
            .units
            .iter()
            .filter(|u| u.side == side && u.eliminated.is_none())
            .map(|u| format!("{}: hold", u.id))
            .collect()
    }

    fn preview(&self, initial: &State) -> Option<Preview<SoundTheCharge>> {
        Some(super::sample::preview(initial))
    }

    fn planned(
        &self,
        state: &State,
        side: &str,
        orders: &[super::orders::StcOrder],
    ) -> Option<(State, Vec<Event>)> {
        Some(super::turn::planned_moves(state, side, orders))
    }
}

/// How one unit looks: to scale from its footprint, its states as markers.
fn unit_look(u: &Unit) -> UnitLook {
    let formation = u.rules.formation;
    let shape = match basing::footprint(u) {
        Some(rect) => Shape::Footprint {
            rect,
            outline: match formation {
                // Skirmishers are a loose cloud; a square faces every way.
                Formation::Skirmish => Outline::Loose,
                Formation::Square => Outline::AllRound,
                _ => Outline::Solid,
            },
            stripe: matches!(formation, Formation::Column | Formation::Limbered),
            wheel: matches!(formation, Formation::Unlimbered | Formation::Limbered),
        },
        None => Shape::Counter,
    };
    let mut markers = Vec::new();
    if u.rules.shaken {
        markers.push(SHAKEN);
    }
    if u.rules.disordered {
        markers.push(DISORDERED);
    }
    // Blown Cavalry: play sets the unit's status, as does a scenario that
    // marks it blown at the start.
    if u.rules.status.blown {
        markers.push(BLOWN);
    }
    UnitLook {
        shape,
        kind: format!("{}, grade {}", u.rules.troop_type, u.rules.grade.letter()),
        formation: Some(formation.word().to_string()),
        markers,
    }
}

/// The look of a terrain kind of Sound the Charge.
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
        TerrainKind::GentleHill => s("#e8dcb2", "#b9a878", 3, "", "gentle hill"),
        TerrainKind::SteepSlope => s("#c7a77c", "#8a6a40", 5, "", "steep slope"),
        TerrainKind::Rough => s("#ddd0a8", "#a8946a", 3, "20 15", "rough ground"),
        TerrainKind::TownBlock => s("#b3aca4", "#6d655c", 5, "", "town block"),
        TerrainKind::Chateau => s("#9b8f85", "#4f463e", 6, "", "chateau"),
        TerrainKind::Crest => s("none", "#8a6d3b", 8, "40 20", "crest line"),
        TerrainKind::Obstacle => s("none", "#5a4a3a", 10, "", "obstacle"),
        TerrainKind::Road => s("none", "#c9a66b", 30, "", "road"),
        TerrainKind::Fieldworks => s("none", "#6b4f2f", 18, "10 10", "fieldworks"),
        TerrainKind::River => s("none", "#5b8fd6", 35, "", "river"),
        TerrainKind::Water => s("#a9c8ee", "#5b8fd6", 4, "", "water"),
        TerrainKind::Boat => s("#8b5a2b", "#4a2f14", 4, "", "boat"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::sample;

    fn typed(state: &crate::rules::GameState) -> State {
        state.typed::<SoundTheCharge>().expect("the sample reads")
    }

    /// Blown Cavalry: "After completing its second round of combat during a
    /// game, a cavalry regiment is blown." Play marks it in the unit's
    /// status, and that is what the map and the order of battle show: a
    /// unit blown in play carries the B, with no mark of the scenario's.
    #[test]
    fn cavalry_blown_in_play_is_shown_blown() {
        let turn = sample::demo_turn().expect("the demo campaign loads");
        let mut state = typed(&turn.prior);
        let hussars = state
            .units
            .iter_mut()
            .find(|u| u.id == "5-hussards")
            .expect("the hussars");
        assert!(!hussars.rules.marks.iter().any(|m| m == "blown"));
        assert!(!hussars.rules.status.blown);
        hussars.rules.status.blown = true;
        let look = SoundTheCharge.look(&state);
        assert_eq!(look["5-hussards"].markers, vec![BLOWN]);
        assert!(look["1-ligne"].markers.is_empty());
    }

    /// The order of battle names a unit by what it is, and how it stands.
    #[test]
    fn the_order_of_battle_gives_troop_type_grade_and_formation() {
        let turn = sample::demo_turn().expect("the demo campaign loads");
        let look = SoundTheCharge.look(&typed(&turn.prior));
        assert_eq!(look["1-ligne"].kind, "line-infantry, grade B");
        assert_eq!(look["1-ligne"].formation.as_deref(), Some("line"));
    }
}
