//! What each side is told of an activation (ruling KUL-25): an order that
//! came to nothing is its own side's, never the enemy's.

use std::collections::BTreeMap;

use super::Kulikovo;
use super::orders::{KulOrder, Then};
use super::state::State;
use crate::audit::dice::ForcedDice;
use crate::rules::names::UnitId;
use crate::rules::ruleset::{Event, Presentation, Rules};
use crate::rules::told::Heard;

fn demo() -> State {
    crate::rules::testing::demo_state(&Kulikovo)
}

/// What the GM (`None`) or a side hears of each event of a resolution.
fn heard(prior: &State, next: &State, events: &[Event], side: Option<&str>) -> Vec<Heard> {
    let (prior, next_raw) = (prior.raw(), next.raw());
    let visible = side.map(|s| Kulikovo.visible_to(next, s, events));
    let audience = crate::report::heard::Audience::new(
        side.map_or(crate::rules::told::Who::Gm, crate::rules::told::Who::Side),
        visible.as_ref(),
        &prior,
        &next_raw,
    );
    events.iter().map(|e| audience.event(e)).collect()
}

/// A fire out of range and an attack on a unit not next to the attacker
/// lapse: the Horde is told why, the Russians, who see both units in the
/// open, are told nothing of an order that never reached them.
#[test]
fn an_order_that_lapses_is_told_to_its_own_side_alone() {
    let state = demo();
    assert_eq!(state.active_side, "horde");
    let orders = BTreeMap::from([(
        "horde".to_string(),
        vec![
            KulOrder::Fire {
                unit: UnitId::of("l-horse-3"),
                target: UnitId::of("r-advance-2"),
            },
            KulOrder::Shock {
                unit: UnitId::of("m-tatar-1"),
                target: UnitId::of("r-advance-1"),
                then: Then::Stop,
            },
        ],
    )]);
    let (next, events) = Rules::resolve(&Kulikovo, &state, &orders, &mut ForcedDice::new([]));
    let lapsed: Vec<usize> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind == "order-lapsed")
        .map(|(k, _)| k)
        .collect();
    assert_eq!(lapsed.len(), 2, "{events:#?}");
    let gm = heard(&state, &next, &events, None);
    let horde = heard(&state, &next, &events, Some("horde"));
    let russians = heard(&state, &next, &events, Some("russians"));
    for k in lapsed {
        let text = &events[k].text;
        assert_eq!(gm[k], Heard::Told, "{text}");
        assert_eq!(horde[k], Heard::Told, "{text}");
        assert_eq!(russians[k], Heard::Nothing, "{text}");
    }
    // The enemy each lapsed order was aimed at is named by id, not left to
    // a search of the words.
    let named: Vec<Vec<&str>> = events
        .iter()
        .filter(|e| e.kind == "order-lapsed")
        .map(|e| e.names().collect())
        .collect();
    assert_eq!(
        named,
        [["l-horse-3", "r-advance-2"], ["m-tatar-1", "r-advance-1"]]
    );
}

/// A shock made from the attacker's hex (issue: an attack whose attacker
/// stays in its hex left no mark on the map): its event carries the strike,
/// from the attacker's hex into the defender's, and the map draws it as a
/// charge arrow there.
#[test]
fn an_attack_from_the_attackers_hex_is_drawn_on_the_map() {
    use crate::geometry::{Direction, Hex};
    use crate::rules::board::Location;
    use crate::rules::look::Strike;
    let mut state = demo();
    let at_hex = |state: &State, id: &str| {
        let u = state.units.iter().find(|u| u.id == id);
        u.and_then(|u| u.location.hex())
            .unwrap_or_else(|| panic!("{id} is not on a hex"))
    };
    let target = at_hex(&state, "r-advance-1");
    let taken: Vec<Hex> = state
        .units
        .iter()
        .filter_map(|u| u.location.hex())
        .collect();
    let (side, from) = Direction::ALL
        .iter()
        .find_map(|&d| {
            target
                .neighbour(d)
                .filter(|h| !taken.contains(h))
                .map(|h| (d, h))
        })
        .expect("a free hex next to the Russians' advance guard");
    let m = state
        .units
        .iter()
        .position(|u| u.id == "m-tatar-1")
        .expect("the Tatar horse");
    state.units[m].location = Location::Hex {
        column: from.column,
        row: from.row,
    };
    state.units[m].facing = u32::from(side.opposite().number());
    let orders = BTreeMap::from([(
        "horde".to_string(),
        vec![KulOrder::Shock {
            unit: UnitId::of("m-tatar-1"),
            target: UnitId::of("r-advance-1"),
            then: Then::Stop,
        }],
    )]);
    let (next, mut events) =
        Rules::resolve(&Kulikovo, &state, &orders, &mut ForcedDice::new([5; 8]));
    let k = events
        .iter()
        .position(|e| {
            matches!(e.kind.as_str(), "shock" | "charge")
                && e.units.first().map(String::as_str) == Some("m-tatar-1")
        })
        .unwrap_or_else(|| panic!("no attack: {events:#?}"));
    let strike = events[k].shows.as_ref().and_then(|s| s.strike.clone());
    assert_eq!(
        strike,
        Some(Strike {
            from: Location::Hex {
                column: from.column,
                row: from.row
            },
            at: Location::Hex {
                column: target.column,
                row: target.row
            },
            targets: vec!["r-advance-1".to_string()],
        })
    );
    let (prior, next) = (state.raw(), next.raw());
    let ruleset = crate::rules::ruleset_for("kulikovo").expect("registered");
    let read = |s| ruleset.read(s).expect("the state reads");
    let (prior, next) = (read(&prior), read(&next));
    let charges = |events: &[Event]| {
        crate::map::svg(&crate::map::MapInput {
            title: "test",
            ruleset,
            prior: &prior,
            next: &next,
            events,
            visible: None,
            strengths: crate::map::Strengths::Seen,
        })
        .matches("marker-end=\"url(#head-charge)\"")
        .count()
    };
    let with = charges(&events);
    if let Some(shows) = events[k].shows.as_mut() {
        shows.strike = None;
    }
    assert_eq!(with, charges(&events) + 1);
}

/// Issue 30: the end of the game names the broken army and the winner as
/// the reader knows them, while the state and the event keep the ids the
/// archive always held (ruling KUL-22's words).
#[test]
fn the_army_that_breaks_and_the_winner_are_told_by_name() {
    let mut s = demo();
    s.params.army_breaks_at.insert("horde".into(), 1);
    let lost = s
        .units
        .iter()
        .position(|u| u.side == "horde")
        .expect("a horde unit");
    s.units[lost].eliminated = Some("routed".into());
    let mut log = super::turn::Log::default();
    let s = super::turn::end::finish_phase(s, &mut log);
    assert_eq!(
        s.finished.as_deref(),
        Some("horde breaks, having lost 1 unit: the battle goes to russians.")
    );
    let words = Kulikovo.ending(&s).expect("the game ended by a break");
    assert_eq!(Some(words.with_ids()), s.finished);
    let breaks = log
        .events
        .iter()
        .find(|e| e.kind == "army-breaks")
        .expect("the break is told");
    assert_eq!(Some(&breaks.text), s.finished.as_ref());
    assert_eq!(
        breaks.told_with(|id| format!("<{id}>")),
        "<horde> breaks, having lost 1 unit: the battle goes to <russians>."
    );
    assert_eq!(Kulikovo.broken_armies(&s), ["horde"]);
}
