use super::super::fighting::testing::{state, unit};
use super::*;
use crate::audit::dice::ForcedDice;
use crate::rules::sound_the_charge::orders::Formation;
use crate::rules::sound_the_charge::orders::{UnitId, parse};

/// Blue line infantry facing north at (20, 20); red line facing south, its
/// front `gap` hundredths ahead.
fn duel(gap: i64) -> State {
    state(vec![
        unit(
            "blue-1",
            "blue",
            "line-infantry",
            "C",
            12,
            "line",
            (2000, 2000),
            0,
        ),
        unit(
            "red-1",
            "red",
            "line-infantry",
            "C",
            12,
            "line",
            (2000, 2000 + gap),
            180,
        ),
    ])
}

/// An order whose units are written by their ids.
fn order(text: &str) -> StcOrder {
    parse(text)
        .expect("order parses")
        .try_map(|r, _| Ok::<_, ()>(UnitId::of(r.as_str())))
        .expect("ids")
}

fn shots(s: &State, side: &str, lines: &[&str]) -> Result<Vec<Shot>, Rejection> {
    let sheet: Vec<StcOrder> = lines.iter().map(|l| order(l)).collect();
    sheet
        .iter()
        .enumerate()
        .filter(|(_, o)| matches!(o, StcOrder::Shoot { .. }))
        .map(|(n, o)| validate(s, side, n + 1, o, &sheet))
        .collect()
}

fn run(s: &mut State, shots: &[Shot], facts: &TurnFacts, dice: &[u32]) -> Vec<Event> {
    let mut d = ForcedDice::new(dice.iter().copied());
    let ev = resolve(s, shots, facts, &mut HitsThisTurn::new(), &mut d);
    assert!(d.problems().is_empty(), "{:?}\n{ev:#?}", d.problems());
    ev
}

#[test]
fn musketry_close_range_hits_and_the_target_fails_its_test() {
    // Shooting, General Rules: "roll one die per four front-rank infantry
    // figures"; Musketry 2 / 4, 3-6 / 5-6. 12 figures at 1.5": 3 dice
    // needing 3. Morale Test if Hit by Shooting: Grade C 2-6, each hit -1,
    // no general in CR -1: needs 5; a 4 fails: "retreat two inches shaken,
    // and suffers one rout hit".
    let mut s = duel(150);
    let sh = shots(&s, "blue", &["blue-1: shoot red-1"]).unwrap();
    let ev = run(&mut s, &sh, &TurnFacts::default(), &[3, 2, 6, 4]);
    let red = &s.units[1];
    assert_eq!(red.strength, 9, "{ev:#?}");
    assert!(red.rules.shaken);
    assert_eq!(
        red.location,
        crate::rules::board::Location::Table { x: 2000, y: 2350 }
    );
    let kinds: Vec<&str> = ev.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["shooting", "morale", "rout", "retreat"]);
    assert_eq!(ev[0].units, ["blue-1", "red-1"]);
    assert!(ev[1].text.contains("needing 5"), "{}", ev[1].text);
}

#[test]
fn far_range_and_a_passed_test() {
    // 3" is far range for musketry: 5-6. The target passes on a 6.
    let mut s = duel(300);
    let sh = shots(&s, "blue", &["blue-1: shoot red-1"]).unwrap();
    let ev = run(&mut s, &sh, &TurnFacts::default(), &[5, 4, 6, 6]);
    assert_eq!(s.units[1].strength, 10, "{ev:#?}");
    assert!(!s.units[1].rules.shaken);
}

#[test]
fn remainder_of_three_rounds_up() {
    // "Round up a final remainder of three infantry figures": 11 roll 3
    // dice, 10 roll 2.
    let mut s = duel(150);
    s.units[0].strength = 11;
    let sh = shots(&s, "blue", &["blue-1: shoot red-1"]).unwrap();
    let ev = run(&mut s, &sh, &TurnFacts::default(), &[1, 1, 1]);
    assert!(ev[0].text.contains("3 dice"), "{}", ev[0].text);
    let mut s = duel(150);
    s.units[0].strength = 10;
    let ev = run(&mut s, &sh, &TurnFacts::default(), &[1, 1]);
    assert!(ev[0].text.contains("2 dice"), "{}", ev[0].text);
}

#[test]
fn cavalry_shaken_and_charging_units_may_not_shoot() {
    let mut s = duel(150);
    s.units[0].rules.troop_type = crate::rules::sound_the_charge::state::TroopType::LightCavalry;
    let e = shots(&s, "blue", &["blue-1: shoot red-1"]).unwrap_err();
    assert_eq!(
        e.clause.as_deref(),
        Some("Shooting, General Rules: \"Cavalry may not shoot.\"")
    );
    let mut s = duel(150);
    s.units[0].rules.shaken = true;
    let e = shots(&s, "blue", &["blue-1: shoot red-1"]).unwrap_err();
    assert!(e.to_string().contains("Shaken units may not shoot."), "{e}");
    let s = duel(150);
    let e = shots(&s, "blue", &["blue-1: charge red-1", "blue-1: shoot red-1"]).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(
        e.to_string().contains("Charging units may not shoot."),
        "{e}"
    );
}

#[test]
fn out_of_range_and_out_of_arc_are_refused_with_the_clause() {
    let s = duel(450);
    let e = shots(&s, "blue", &["blue-1: shoot red-1"]).unwrap_err();
    assert!(e.problem.contains("out of range"), "{e}");
    assert_eq!(
        e.clause.as_deref(),
        Some("Shooting Table: \"Musketry 2 / 4\"")
    );
    let mut s = duel(150);
    s.units[0].facing = 180;
    s.units[0].location = crate::rules::board::Location::Table { x: 2000, y: 2000 };
    let e = shots(&s, "blue", &["blue-1: shoot red-1"]).unwrap_err();
    assert!(e.problem.contains("arc of fire"), "{e}");
}

#[test]
fn fire_is_blocked_by_a_unit_in_the_way_but_not_by_enemy_guns() {
    let mut s = duel(350);
    s.units.push(unit(
        "blue-2",
        "blue",
        "line-infantry",
        "C",
        12,
        "line",
        (2000, 2150),
        0,
    ));
    let e = shots(&s, "blue", &["blue-1: shoot red-1"]).unwrap_err();
    assert!(e.problem.contains("line of fire"), "{e}");
    let mut s = duel(350);
    s.units.push(unit(
        "red-g",
        "red",
        "light-guns",
        "C",
        6,
        "unlimbered",
        (2000, 2150),
        180,
    ));
    assert!(shots(&s, "blue", &["blue-1: shoot red-1"]).is_ok());
}

#[test]
fn split_fire_only_when_some_figures_cannot_hit_the_first_target() {
    // "A unit must concentrate all of its fire against one target if at all
    // possible."
    let mut s = duel(150);
    s.units.push(unit(
        "red-2",
        "red",
        "line-infantry",
        "C",
        12,
        "line",
        (2600, 2150),
        180,
    ));
    let e = shots(&s, "blue", &["blue-1: shoot red-1 split red-2"]).unwrap_err();
    assert!(e.problem.contains("may not be split"), "{e}");
    // "If some of the figures cannot hit first target, the unit may split
    // its fire": two small columns 3.5" ahead, off either end of the line;
    // five figures reach the first (1 die), three the second (1 die, the
    // remainder of three rounding up).
    let mut s = state(vec![
        unit(
            "blue-1",
            "blue",
            "line-infantry",
            "C",
            12,
            "line",
            (2000, 2000),
            0,
        ),
        unit(
            "red-1",
            "red",
            "line-infantry",
            "C",
            4,
            "column",
            (1700, 2350),
            180,
        ),
        unit(
            "red-2",
            "red",
            "line-infantry",
            "C",
            4,
            "column",
            (2400, 2350),
            180,
        ),
    ]);
    let sh = shots(&s, "blue", &["blue-1: shoot red-1 split red-2"]).unwrap();
    let ev = run(&mut s, &sh, &TurnFacts::default(), &[1, 1]);
    assert_eq!(ev.len(), 2, "{ev:#?}");
    assert!(
        ev[1].text.contains("splits its fire onto"),
        "{}",
        ev[1].text
    );
}

#[test]
fn guns_at_far_range_with_modifiers() {
    // Field guns 6 / 20: at 10" far, 5-6. Grade B +1: needs 4. A line of
    // infantry is not dense.
    let mut s = state(vec![
        unit(
            "bat",
            "blue",
            "field-guns",
            "B",
            4,
            "unlimbered",
            (2000, 2000),
            0,
        ),
        unit(
            "red-1",
            "red",
            "line-infantry",
            "C",
            12,
            "line",
            (2000, 3000),
            180,
        ),
    ]);
    let sh = shots(&s, "blue", &["bat: shoot red-1"]).unwrap();
    let ev = run(&mut s, &sh, &TurnFacts::default(), &[4, 3, 6, 1, 6]);
    assert_eq!(s.units[1].strength, 10, "{ev:#?}");
    assert!(ev[0].text.contains("4 dice needing 4-6"), "{}", ev[0].text);
    // Against a column (dense): "Artillery vs. dense target: +1", needs 3.
    let mut s = state(vec![
        unit(
            "bat",
            "blue",
            "field-guns",
            "B",
            4,
            "unlimbered",
            (2000, 2000),
            0,
        ),
        unit(
            "red-1",
            "red",
            "line-infantry",
            "C",
            12,
            "column",
            (2000, 3000),
            180,
        ),
    ]);
    let ev = run(&mut s, &sh, &TurnFacts::default(), &[3, 3, 1, 1, 6]);
    assert!(ev[0].text.contains("needing 3-6"), "{}", ev[0].text);
    assert_eq!(s.units[1].strength, 10);
}

#[test]
fn guns_that_move_or_are_limbered_may_not_shoot() {
    let s = state(vec![
        unit(
            "bat",
            "blue",
            "field-guns",
            "C",
            4,
            "limbered",
            (2000, 2000),
            0,
        ),
        unit(
            "red-1",
            "red",
            "line-infantry",
            "C",
            12,
            "line",
            (2000, 3000),
            180,
        ),
    ]);
    let e = shots(&s, "blue", &["bat: shoot red-1"]).unwrap_err();
    assert!(e.problem.contains("limbered"), "{e}");
    let mut s = s;
    s.units[0].rules.formation = Formation::Unlimbered;
    let e = shots(&s, "blue", &["bat: forward 1", "bat: shoot red-1"]).unwrap_err();
    assert!(
        e.to_string().contains("Artillery may not move and shoot."),
        "{e}"
    );
}

#[test]
fn russian_fire_is_at_minus_one_only_when_the_nation_is_set() {
    // Russia: "All Russian fire is at -1 to hit" (ruling STC-2).
    let mut s = duel(150);
    let sh = shots(&s, "blue", &["blue-1: shoot red-1"]).unwrap();
    let ev = run(&mut s, &sh, &TurnFacts::default(), &[3, 3, 3, 6]);
    assert!(ev[0].text.contains("needing 3-6"), "{}", ev[0].text);
    let mut s = duel(150);
    s.nations.insert("blue".to_string(), "russia".to_string());
    let ev = run(&mut s, &sh, &TurnFacts::default(), &[3, 3, 3]);
    assert!(ev[0].text.contains("needing 4-6"), "{}", ev[0].text);
    assert_eq!(s.units[1].strength, 12);
}

#[test]
fn moving_infantry_shoots_at_minus_one_and_not_beyond_half_speed() {
    let mut s = duel(150);
    let sh = shots(&s, "blue", &["blue-1: shoot red-1"]).unwrap();
    let mut facts = TurnFacts::default();
    facts.moved.insert("blue-1".to_string());
    let ev = run(&mut s, &sh, &facts, &[3, 3, 3]);
    assert!(ev[0].text.contains("needing 4-6"), "{}", ev[0].text);
    let mut s = duel(150);
    facts.beyond_half_speed.insert("blue-1".to_string());
    let ev = run(&mut s, &sh, &facts, &[]);
    assert!(
        ev[0].text.contains("Infantry may move half speed"),
        "{}",
        ev[0].text
    );
}

#[test]
fn bounce_through_on_and_off() {
    // Artillery Bounce-Through: "Any additional targets the line touches
    // (enemy or friendly) are additional targets"; field guns 4 inches.
    let base = || {
        state(vec![
            unit(
                "bat",
                "blue",
                "field-guns",
                "C",
                2,
                "unlimbered",
                (2000, 2000),
                0,
            ),
            unit(
                "red-1",
                "red",
                "line-infantry",
                "C",
                12,
                "line",
                (2000, 2500),
                180,
            ),
            unit(
                "red-2",
                "red",
                "line-infantry",
                "C",
                12,
                "line",
                (2000, 2800),
                180,
            ),
        ])
    };
    let mut s = base();
    let sh = shots(&s, "blue", &["bat: shoot red-1"]).unwrap();
    let ev = run(&mut s, &sh, &TurnFacts::default(), &[1, 1]);
    assert_eq!(ev.len(), 1, "{ev:#?}");
    let mut s = base();
    s.options.push("artillery-bounce-through".to_string());
    let ev = run(&mut s, &sh, &TurnFacts::default(), &[1, 1, 6, 6, 6]);
    assert_eq!(s.units[2].strength, 10, "{ev:#?}");
    assert!(ev.iter().any(|e| e.text.contains("Bounce-Through")));
}

#[test]
fn firing_into_a_close_combat_needs_a_hanging_flank() {
    // "You may not shoot at a unit in close combat unless the unit has a
    // "hanging flank" of at least 7 foot [...] not touching the enemy."
    let mut s = state(vec![
        unit(
            "bat",
            "blue",
            "field-guns",
            "C",
            2,
            "unlimbered",
            (2000, 1000),
            0,
        ),
        unit(
            "blue-1",
            "blue",
            "line-infantry",
            "C",
            12,
            "line",
            (2000, 2000),
            0,
        ),
        unit(
            "red-1",
            "red",
            "line-infantry",
            "C",
            12,
            "line",
            (2000, 2000),
            180,
        ),
    ]);
    s.units[1].location = crate::rules::board::Location::Table { x: 2000, y: 2000 };
    let e = can_shoot_at(&s, "bat", "red-1").unwrap_err();
    assert!(e.clause.starts_with("Firing into a Close Combat"), "{e:?}");
}

/// REP-3: a shot checked when the orders came in and refused at resolution
/// (the target has moved out of range since) is an intent that came to
/// nothing: its side and the GM are told why, the enemy is told nothing,
/// though it sees both units; and it is not fire, so no map draws it as a
/// volley and it reveals nobody.
#[test]
fn a_shot_refused_at_resolution_is_told_to_its_side_alone() {
    use crate::report::heard::Audience;
    use crate::rules::look::EventClass;
    use crate::rules::told::Heard;
    let s = duel(350);
    let planned = shots(&s, "blue", &["blue-1: shoot red-1"]).expect("in range when sent");
    let mut s = duel(450);
    let prior = s.clone();
    let events = run(&mut s, &planned, &TurnFacts::default(), &[]);
    let refused = events
        .iter()
        .find(|e| e.text.contains("does not shoot at"))
        .expect("the shot is refused");
    assert_eq!(refused.class(|_| EventClass::Fire), EventClass::NoShot);
    let (prior, next) = (prior.raw(), s.raw());
    let everyone: std::collections::BTreeSet<String> = ["blue-1", "red-1"].map(String::from).into();
    let heard = |side: Option<&str>| {
        Audience::new(
            side.map_or(crate::rules::told::Who::Gm, crate::rules::told::Who::Side),
            side.map(|_| &everyone),
            &prior,
            &next,
        )
        .event(refused)
    };
    assert_eq!(heard(Some("red")), Heard::Nothing);
    assert_eq!(heard(Some("blue")), Heard::Told);
    assert_eq!(heard(None), Heard::Told);
}
