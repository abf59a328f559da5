use super::super::fighting::testing::{state, unit};
use super::*;
use crate::audit::dice::ForcedDice;
use crate::rules::board::Location;
use crate::rules::state::GeneralState;

fn general(id: &str, side: &str, at: (i64, i64)) -> GeneralState {
    GeneralState {
        id: id.to_string(),
        name: id.to_string(),
        side: side.to_string(),
        location: Location::Table { x: at.0, y: at.1 },
        attached_to: None,
        lost: None,
    }
}

/// Both sides with a general close by, so no unit is out of command.
fn in_command(mut s: State) -> State {
    s.generals.push(general("gb", "blue", (2000, 1500)));
    s.generals.push(general("gr", "red", (2000, 2500)));
    s
}

fn charged(ids: &[&str]) -> TurnFacts {
    let mut f = TurnFacts::default();
    for id in ids {
        f.charged.insert(id.to_string());
    }
    f
}

fn fight(s: &mut State, facts: &TurnFacts, dice: &[u32]) -> Vec<Event> {
    let mut d = ForcedDice::new(dice.iter().copied());
    let ev = resolve(s, facts, &mut d);
    assert!(d.problems().is_empty(), "{:?}\n{ev:#?}", d.problems());
    ev
}

fn grenadiers_and_battery() -> State {
    in_command(state(vec![
        unit(
            "gren",
            "blue",
            "line-infantry",
            "B",
            12,
            "line",
            (2000, 2000),
            0,
        ),
        unit(
            "bat",
            "red",
            "field-guns",
            "C",
            4,
            "unlimbered",
            (2000, 2000),
            180,
        ),
    ]))
}

#[test]
fn grenadiers_against_the_battery_example() {
    // Artillery in Combat, example: "A unit of 12 Grade B infantry charges to
    // contact with a 4-gun battery of Grade C field guns. The grenadiers get
    // 2 combat points, plus 1 for their higher grade. The guns get 2 points
    // for artillery plus 3 points for their defensive fire. [...] The
    // grenadiers roll 3 dice for a 5-6, scoring two hits. The guns roll 4
    // dice for a 3-6, also scoring two hits. Since the grenadiers failed to
    // outright win, they suffer two hits plus two rout hits and must retreat
    // shaken, while the gun crews remain undamaged."
    let mut s = grenadiers_and_battery();
    let ev = fight(&mut s, &charged(&["gren"]), &[5, 6, 1, 3, 4, 1, 2]);
    let gren = &s.units[0];
    let bat = &s.units[1];
    assert_eq!(gren.strength, 8, "{ev:#?}");
    assert_eq!(gren.rules.status.rout_hits, 2);
    assert!(gren.rules.shaken);
    assert_eq!(gren.location, Location::Table { x: 2000, y: 1600 });
    assert_eq!(bat.rules.gunners, 8);
    assert!(bat.eliminated.is_none());
    assert!(
        ev[0].text.contains("3 points, 3 dice needing 5-6"),
        "{}",
        ev[0].text
    );
    assert!(
        ev[0].text.contains("5 points, 4 dice needing 3-6"),
        "{}",
        ev[0].text
    );
    let kinds: Vec<&str> = ev.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["combat", "rout", "retreat"]);
}

#[test]
fn grenadiers_that_win_wipe_out_the_battery() {
    // "If the grenadiers had won the combat, they would have still suffered
    // two hits, but wiped out the entire battery."
    let mut s = grenadiers_and_battery();
    let ev = fight(&mut s, &charged(&["gren"]), &[5, 6, 6, 3, 4, 1, 2]);
    assert_eq!(s.units[0].strength, 10, "{ev:#?}");
    assert!(!s.units[0].rules.shaken);
    assert!(s.units[0].rules.disordered);
    assert!(s.units[1].eliminated.is_some());
}

#[test]
fn infantry_beaten_by_cavalry_suffers_double_rout_hits() {
    // "If an infantry unit loses a round of combat, and it was fighting
    // against cavalry [...], it suffers double rout hits." Heavy cavalry (4)
    // against infantry in line disordered by the contact (2 - 1, no
    // defensive fire): advantage, 3-6 against 5-6 at disadvantage by 3...
    let mut s = in_command(state(vec![
        unit(
            "cuir",
            "blue",
            "heavy-cavalry",
            "C",
            12,
            "line",
            (2000, 2000),
            0,
        ),
        unit(
            "inf",
            "red",
            "line-infantry",
            "C",
            12,
            "line",
            (2000, 2000),
            180,
        ),
    ]));
    let ev = fight(&mut s, &charged(&["cuir"]), &[3, 3, 1, 1, 6, 1, 1]);
    let inf = &s.units[1];
    assert_eq!(inf.rules.status.loss_hits, 2, "{ev:#?}");
    assert_eq!(inf.rules.status.rout_hits, 4);
    assert_eq!(inf.strength, 6);
    assert!(inf.rules.shaken);
}

#[test]
fn cavalry_bounces_off_a_square() {
    // Cavalry Bouncing off Squares: "If a cavalry unit is fighting against a
    // square, and neither the square nor the cavalry loses that round of
    // combat, the cavalry unit must still make a retreat move of at least
    // four inches. The cavalry unit is disordered but not shaken."
    let mut s = in_command(state(vec![
        unit(
            "drag",
            "blue",
            "medium-cavalry",
            "C",
            12,
            "line",
            (2000, 2000),
            0,
        ),
        unit(
            "sq",
            "red",
            "line-infantry",
            "C",
            12,
            "square",
            (2000, 2000),
            180,
        ),
    ]));
    let ev = fight(&mut s, &charged(&["drag"]), &[1, 1, 1, 1, 1, 1, 1]);
    let drag = &s.units[0];
    assert!(drag.rules.disordered, "{ev:#?}");
    assert!(!drag.rules.shaken);
    assert_eq!(drag.location, Location::Table { x: 2000, y: 1600 });
    assert!(ev.iter().any(|e| e.kind == "retreat"));
}

#[test]
fn skirmishers_in_the_open_are_overrun() {
    // Skirmishers in Combat: "Skirmishers in the open are unable to face
    // attacks by close-order troops; if they cannot evade the enemy charge
    // they are overrun and eliminated." No dice.
    let mut s = in_command(state(vec![
        unit(
            "inf",
            "blue",
            "line-infantry",
            "C",
            12,
            "line",
            (2000, 2000),
            0,
        ),
        unit(
            "sk",
            "red",
            "light-infantry",
            "C",
            8,
            "skirmish",
            (2000, 2000),
            180,
        ),
    ]));
    let ev = fight(&mut s, &charged(&["inf"]), &[]);
    assert!(s.units[1].eliminated.is_some(), "{ev:#?}");
}

#[test]
fn a_unit_with_two_enemies_divides_its_dice() {
    // Eligible Figures in Combat: "If a unit is under attack by multiple
    // enemies, the unit divides its dice as evenly as possible among all
    // enemy units." 12 infantry: 3 dice, 2 against the first, 1 against the
    // second.
    let mut s = in_command(state(vec![
        unit(
            "a1",
            "blue",
            "line-infantry",
            "C",
            8,
            "line",
            (1850, 2000),
            0,
        ),
        unit(
            "a2",
            "blue",
            "line-infantry",
            "C",
            8,
            "line",
            (2150, 2000),
            0,
        ),
        unit(
            "def",
            "red",
            "line-infantry",
            "C",
            12,
            "line",
            (2000, 2000),
            180,
        ),
    ]));
    let ev = fight(&mut s, &charged(&["a1", "a2"]), &[1, 1, 1, 1, 1, 1, 1]);
    let combats: Vec<&Event> = ev.iter().filter(|e| e.kind == "combat").collect();
    assert_eq!(combats.len(), 2, "{ev:#?}");
    assert!(
        combats[0].text.contains("2 dice needing"),
        "{}",
        combats[0].text
    );
    assert!(
        combats[1].text.contains("1 dice needing"),
        "{}",
        combats[1].text
    );
}

#[test]
fn attacked_from_opposite_sides_the_loser_is_eliminated() {
    // Retreat Moves, restriction 5: "If a unit is under attack from two
    // opposite sides, and it loses the close combat round, it cannot retreat
    // and is eliminated."
    let mut s = in_command(state(vec![
        unit(
            "front",
            "blue",
            "line-infantry",
            "C",
            12,
            "line",
            (2000, 2000),
            0,
        ),
        unit(
            "rear",
            "blue",
            "line-infantry",
            "C",
            12,
            "line",
            (2000, 2100),
            180,
        ),
        unit(
            "mid",
            "red",
            "line-infantry",
            "C",
            12,
            "column",
            (2000, 2000),
            180,
        ),
    ]));
    // The column is 1.5" wide, 1.5" deep: the front unit touches its front,
    // the rear unit its rear (rear at y 2150, facing south from y 2150).
    s.units[1].location = Location::Table { x: 2000, y: 2150 };
    let ev = fight(
        &mut s,
        &charged(&["front", "rear"]),
        &[6, 6, 6, 6, 6, 6, 1, 1],
    );
    assert!(s.units[2].eliminated.is_some(), "{ev:#?}");
    assert!(ev.iter().any(|e| e.text.contains("restriction 5")));
}

#[test]
fn russian_infantry_loses_only_by_two_hits() {
    // Russia: "Russian infantry does not lose a round of combat unless it
    // suffers at least two more hits than it inflicted." Continuing combat
    // (no charge this turn): 3 dice each needing 4-6. Red suffers 2,
    // inflicts 1.
    let base = || {
        in_command(state(vec![
            unit(
                "b",
                "blue",
                "line-infantry",
                "C",
                12,
                "line",
                (2000, 2000),
                0,
            ),
            unit(
                "r",
                "red",
                "line-infantry",
                "C",
                12,
                "line",
                (2000, 2000),
                180,
            ),
        ]))
    };
    let dice = [4, 5, 1, 4, 1, 1];
    let mut s = base();
    fight(&mut s, &TurnFacts::default(), &dice);
    assert!(s.units[1].rules.shaken, "without the nation red loses");
    let mut s = base();
    s.nations.insert("red".to_string(), "russia".to_string());
    let ev = fight(&mut s, &TurnFacts::default(), &dice);
    assert!(!s.units[1].rules.shaken, "{ev:#?}");
    assert!(s.units[1].rules.status.in_combat);
}

#[test]
fn blown_cavalry_after_its_second_round_only_with_the_option() {
    let base = || {
        let mut s = in_command(state(vec![
            unit(
                "h",
                "blue",
                "light-cavalry",
                "C",
                12,
                "line",
                (2000, 2000),
                0,
            ),
            unit(
                "k",
                "red",
                "light-cavalry",
                "C",
                12,
                "line",
                (2000, 2000),
                180,
            ),
        ]));
        s.units[0].rules.status.combat_rounds = 1;
        s
    };
    let dice = [1, 1, 1, 1, 1, 1, 1, 1];
    let mut s = base();
    fight(&mut s, &TurnFacts::default(), &dice);
    assert!(!s.units[0].rules.status.blown);
    let mut s = base();
    s.options.push("blown-cavalry".to_string());
    let ev = fight(&mut s, &TurnFacts::default(), &dice);
    assert!(s.units[0].rules.status.blown, "{ev:#?}");
    assert!(!s.units[1].rules.status.blown);
}
