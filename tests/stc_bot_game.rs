//! The bundled Sound the Charge campaign played bot against bot through the
//! engine (orders submitted as text, turns resolved with the audited dice)
//! to a finish, and its archive verified.

use adjutant::archive;
use adjutant::demo::bundled_campaign;
use adjutant::engine;
use adjutant::lifecycle::FixedClock;
use adjutant::rules::sound_the_charge::{SoundTheCharge, bot};
use adjutant::store::Store;
use chrono::{DateTime, Duration, Utc};

/// Each game draws a fresh chain secret, so each plays out differently:
/// two games of some 25 turns each cover more of the rules.
#[test]
fn the_bundled_campaign_plays_bot_against_bot_to_a_finish_and_verifies() {
    for _ in 0..2 {
        play_one_game();
    }
}

fn play_one_game() {
    let dir = tempfile::tempdir().expect("tempdir");
    let campaign = bundled_campaign(&dir.path().join("campaign")).expect("campaign");
    let mut store = Store::open(&dir.path().join("data")).expect("store");
    let start: DateTime<Utc> = DateTime::parse_from_rfc3339("2026-01-05T09:00:00Z")
        .map(|t| t.with_timezone(&Utc))
        .expect("time");
    engine::init(
        &mut store,
        &campaign,
        &dir.path().join("campaign"),
        &FixedClock(start),
    )
    .expect("init");
    let mut now = start;
    let mut turns = 0;
    let mut moves = 0;
    let mut charges = 0;
    loop {
        let record = store.campaign(&campaign.id).expect("record");
        let state = store.state(&record.current_state_digest).expect("state");
        if state.finished.is_some() {
            break;
        }
        assert!(turns < 40, "the game did not finish");
        let side = state.active_side.clone();
        let typed = state.typed::<SoundTheCharge>().expect("the state reads");
        let lines = bot::orders_for(&typed, &side);
        assert!(
            !lines.is_empty(),
            "turn {}: no orders for {side}",
            state.turn
        );
        now += Duration::hours(1);
        // The passive side gives its standing orders (evade), or says it
        // sends none: the phase waits for every side.
        for other in state.sides.iter().filter(|s| **s != side) {
            let standing = bot::orders_for(&typed, other);
            if standing.is_empty() {
                engine::declare_none(&mut store, &campaign.id, other, &FixedClock(now), None)
                    .expect("no orders");
            } else {
                let text = format!("{}\n", standing.join("\n"));
                engine::submit(
                    &mut store,
                    &campaign.id,
                    other,
                    &text,
                    &FixedClock(now),
                    None,
                )
                .expect("standing orders");
            }
        }
        let text = format!("{}\nsalt bot-{turns}\n", lines.join("\n"));
        engine::submit(
            &mut store,
            &campaign.id,
            &side,
            &text,
            &FixedClock(now),
            None,
        )
        .expect("submit");
        for resolved in engine::tick(&mut store, &campaign.id, &FixedClock(now)).expect("tick") {
            for e in &resolved.events {
                moves += usize::from(e.contains(" moves to "));
                charges += usize::from(e.contains(" charges "));
            }
        }
        turns += 1;
    }
    assert!(moves > 10, "the bots hardly moved: {moves} moves");
    assert!(charges + moves > 0);
    let out = dir.path().join("archive");
    archive::export::export(&store, &campaign.id, &out).expect("export");
    let verdict = archive::verify::verify(&out).expect("verify");
    assert!(verdict.ok(), "{:?}", verdict.problems);
}

#[test]
fn every_line_the_bots_give_is_accepted_in_either_role() {
    use adjutant::rules::ruleset::check_typed;
    let dir = tempfile::tempdir().expect("tempdir");
    let campaign = bundled_campaign(&dir.path().join("campaign")).expect("campaign");
    let ruleset = adjutant::rules::ruleset_for(&campaign.ruleset.id).expect("known");
    let state = campaign
        .initial_state(ruleset)
        .expect("the initial state")
        .typed::<SoundTheCharge>()
        .expect("reads");
    for side in &state.sides {
        let lines = bot::orders_for(&state, side);
        let sheet = check_typed(&SoundTheCharge, &state, side, &lines.join("\n"));
        assert!(
            sheet.is_clean(),
            "{side}: {:?} {:?}",
            sheet.parse_errors,
            sheet.rejections
        );
        assert_eq!(sheet.accepted.len(), lines.len());
    }
}
