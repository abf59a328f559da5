//! What each side is told of a phase (ruling GT-24): an order that could
//! not be carried out, and a test that changed nothing the enemy could see,
//! are the acting side's alone.

use std::collections::BTreeMap;

use super::GrandeTactique;
use super::orders::{Action, GtOrder};
use super::state::{Formation, Morale, State};
use crate::audit::dice::{Dice, ForcedDice};
use crate::rules::names::UnitId;
use crate::rules::ruleset::{Event, Presentation, Rules};
use crate::rules::told::Heard;

fn demo() -> State {
    crate::rules::testing::demo_state(&GrandeTactique)
}

fn order(unit: &str, action: Action<UnitId>) -> GtOrder {
    GtOrder {
        unit: UnitId::of(unit),
        action,
    }
}

/// An audience of a resolution: the GM (`None`) or a side.
fn audience<'a>(
    prior: &'a crate::rules::GameState,
    next: &'a crate::rules::GameState,
    visible: Option<&'a std::collections::BTreeSet<String>>,
    side: Option<&'a str>,
) -> crate::report::heard::Audience<'a> {
    crate::report::heard::Audience::new(
        side.map_or(crate::rules::told::Who::Gm, crate::rules::told::Who::Side),
        visible,
        prior,
        next,
    )
}

/// A shaken unit's rally that fails, and a change of formation the rules
/// forbid, in sight of the enemy: the French are told, with the die; the
/// Austrians are told nothing, and not shown the die.
#[test]
fn a_failed_rally_and_a_refused_order_are_told_to_their_own_side_alone() {
    let mut state = demo();
    if let Some(u) = state.units.iter_mut().find(|u| u.id == "5-hussards") {
        u.rules.morale = Morale::Shaken;
    }
    let orders = BTreeMap::from([(
        "french".to_string(),
        vec![
            order("5-hussards", Action::Rally),
            order("7-chasseurs", Action::Form(Formation::Square)),
        ],
    )]);
    let mut dice = ForcedDice::new([1]);
    let (next, events) = Rules::resolve(&GrandeTactique, &state, &orders, &mut dice);
    let rolls = dice.log().to_vec();
    let (prior_raw, next_raw) = (state.raw(), next.raw());
    let seen = |side: &str| GrandeTactique.visible_to(&next, side, &events);
    let (french_sees, austrians_see) = (seen("french"), seen("austrian"));
    assert!(austrians_see.contains("5-hussards") && austrians_see.contains("7-chasseurs"));
    let gm = audience(&prior_raw, &next_raw, None, None);
    let french = audience(&prior_raw, &next_raw, Some(&french_sees), Some("french"));
    let austrians = audience(
        &prior_raw,
        &next_raw,
        Some(&austrians_see),
        Some("austrian"),
    );
    let told: Vec<&Event> = events
        .iter()
        .filter(|e| {
            e.units
                .iter()
                .any(|u| u == "5-hussards" || u == "7-chasseurs")
        })
        .collect();
    assert_eq!(
        told.len(),
        3,
        "the check, the rally, the refusal: {events:#?}"
    );
    for e in told {
        assert_eq!(gm.event(e), Heard::Told, "{}", e.text);
        assert_eq!(french.event(e), Heard::Told, "{}", e.text);
        assert_eq!(austrians.event(e), Heard::Nothing, "{}", e.text);
    }
    assert_eq!(rolls.len(), 1, "{rolls:?}");
    assert!(gm.roll(&rolls[0]) && french.roll(&rolls[0]));
    assert!(!austrians.roll(&rolls[0]), "{}", rolls[0].purpose);
}
