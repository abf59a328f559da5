//! A campaign through several resolutions: orders in, early close, deadline
//! close with a silent side, umpire calls; then export, verify, and verify
//! failing after one die, one order, one secret or one state byte is changed.

use std::fs;
use std::path::Path;

use chrono::{DateTime, Duration, Utc};

use adjutant::archive::{export::export, resolution_dir, verify::verify};
use adjutant::audit::Kind;
use adjutant::campaign::Campaign;
use adjutant::engine;
use adjutant::lifecycle::FixedClock;
use adjutant::store::Store;

fn start() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-01-05T09:00:00Z")
        .expect("valid")
        .with_timezone(&Utc)
}

struct Played {
    _dir: tempfile::TempDir,
    store: Store,
    campaign: Campaign,
    archive: std::path::PathBuf,
}

/// Plays: 1 = turn closed early (all in), 2 = turn closed at the deadline
/// with no orders, 3.. = the demo's umpire calls.
fn play() -> Played {
    let dir = tempfile::tempdir().expect("temp dir");
    let campaign = adjutant::demo::bundled_campaign(&dir.path().join("campaign")).expect("loads");
    let mut store = Store::open(&dir.path().join("data")).expect("store");
    let record = engine::init(
        &mut store,
        &campaign,
        &dir.path().join("campaign"),
        &FixedClock(start()),
    )
    .expect("init");
    let state = store.state(&record.current_state_digest).expect("state");
    let side = state.active_side.clone();
    let unit = state
        .units
        .iter()
        .find(|u| u.side == side)
        .expect("a unit")
        .id
        .clone();

    // Nothing is due before the deadline while the active side is silent.
    let early = FixedClock(start() + Duration::hours(1));
    assert!(
        engine::tick(&mut store, &campaign.id, &early)
            .expect("tick")
            .is_empty()
    );

    // Nothing accepted: nothing stored, and the side is not "in".
    let refused = engine::submit(
        &mut store,
        &campaign.id,
        &side,
        "NOSUCHUNIT: hold\n",
        &early,
        None,
    )
    .expect("submit");
    assert!(!refused.stored);
    assert!(
        engine::sides_in(&store, &campaign.id)
            .expect("sides")
            .is_empty()
    );
    // A first submission, then a replacement: the second one counts.
    let first = engine::submit(
        &mut store,
        &campaign.id,
        &side,
        &format!("NOSUCHUNIT: hold\n{unit}: hold\n"),
        &early,
        None,
    )
    .expect("submit");
    assert!(first.stored);
    assert_eq!(first.sheet.rejections.len(), 1, "{:?}", first.sheet);
    let second = engine::submit(
        &mut store,
        &campaign.id,
        &side,
        &format!("# my orders\n{unit}: HOLD\nsalt Lucky Seven\n"),
        &early,
        None,
    )
    .expect("submit");
    assert!(second.replaced);
    assert!(second.sheet.is_clean(), "{:?}", second.sheet);
    assert_eq!(
        second.sheet.canonical_text(),
        format!("{unit}: hold\nsalt Lucky Seven\n")
    );

    // The other side says it sends none: every side is in, the phase
    // closes early.
    let other = campaign
        .players
        .iter()
        .map(|p| p.side.clone())
        .find(|s| *s != side)
        .expect("another side");
    engine::declare_none(&mut store, &campaign.id, &other, &early, None).expect("declares");
    let done = engine::tick(&mut store, &campaign.id, &early).expect("tick");
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].k, 1);
    assert_eq!(
        done[0].reason,
        Some(adjutant::lifecycle::CloseReason::AllReady)
    );

    // Turn 2: the other side is active and says nothing; the deadline passes.
    let record = store.campaign(&campaign.id).expect("campaign");
    let state = store.state(&record.current_state_digest).expect("state");
    assert_eq!(state.turn, 2);
    assert_ne!(state.active_side, side, "the sides trade the active role");
    let late = FixedClock(record.deadline);
    let done = engine::tick(&mut store, &campaign.id, &late).expect("tick");
    assert_eq!(done.len(), 1);
    assert_eq!(
        done[0].reason,
        Some(adjutant::lifecycle::CloseReason::Deadline)
    );
    assert!(
        done[0].events.iter().any(|e| e.contains("sent no orders")),
        "{:?}",
        done[0].events
    );

    for (i, call) in adjutant::demo::demo_of(None)
        .expect("a demo")
        .calls
        .iter()
        .enumerate()
    {
        let at = FixedClock(record.deadline + Duration::minutes(i as i64 + 1));
        let (k, report) = engine::umpire(&mut store, &campaign.id, call, &at).expect("call");
        assert_eq!(k, 1 + i as u64, "umpire calls are numbered on their own");
        assert!(!report.outcome.is_empty());
    }
    let archive = dir.path().join("archive");
    let exported = export(&store, &campaign.id, &archive).expect("export");
    assert_eq!(exported.turns, 2);
    assert_eq!(
        exported.calls,
        adjutant::demo::demo_of(None).expect("a demo").calls.len() as u64
    );
    Played {
        _dir: dir,
        store,
        campaign,
        archive,
    }
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("mkdir");
    for entry in fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Copies the archive, changes one file with `edit`, and returns the
/// problems verify reports for resolution `k`.
fn tampered(
    played: &Played,
    kind: Kind,
    k: u64,
    file: &str,
    edit: impl Fn(String) -> String,
) -> Vec<String> {
    let copy = played
        ._dir
        .path()
        .join(format!("tampered-{kind}-{k}-{}", file.replace('/', "-")));
    copy_dir(&played.archive, &copy);
    let path = copy.join(resolution_dir(kind, k)).join(file);
    let text = fs::read_to_string(&path).expect("read");
    let changed = edit(text.clone());
    assert_ne!(changed, text, "the edit must change {file}");
    fs::write(&path, changed).expect("write");
    let verdict = verify(&copy).expect("readable");
    assert!(
        !verdict.ok(),
        "verify must fail after {file} of {k} changed"
    );
    verdict
        .resolutions
        .iter()
        .find(|r| r.kind == kind && r.k == k)
        .map(|r| r.problems.clone())
        .unwrap_or_default()
}

#[test]
fn a_played_campaign_exports_and_verifies() {
    let played = play();
    let verdict = verify(&played.archive).expect("readable");
    assert!(verdict.ok(), "{verdict:#?}");
    assert_eq!(
        verdict.resolutions.len(),
        2 + adjutant::demo::demo_of(None).expect("a demo").calls.len()
    );
    assert!(
        verdict
            .resolutions
            .iter()
            .filter_map(|r| r.rolls)
            .sum::<usize>()
            > 0,
        "the umpire calls rolled dice"
    );
    let status = adjutant::engine::status::describe(&played.store, &played.campaign.id, start())
        .expect("status");
    assert!(status.contains("turn 3"), "{status}");
}

#[test]
fn an_archive_whose_logs_are_withheld_still_checks_its_chain_manifests_and_seeds() {
    let played = play();
    for (kind, k) in [(Kind::Turn, 1), (Kind::Umpire, 1)] {
        let dir = played.archive.join(resolution_dir(kind, k));
        fs::remove_file(dir.join("rolls.jsonl")).expect("remove");
        fs::remove_file(dir.join("events.jsonl")).expect("remove");
    }
    let verdict = verify(&played.archive).expect("readable");
    assert!(verdict.ok(), "{verdict:#?}");
    assert_eq!(verdict.resolutions[2].rolls, None);
    assert!(
        verdict.resolutions[2]
            .to_string()
            .contains("not yet published")
    );
}

#[test]
fn verify_fails_when_one_die_is_changed() {
    let played = play();
    let problems = tampered(&played, Kind::Umpire, 1, "rolls.jsonl", |text| {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let mut roll: serde_json::Value = serde_json::from_str(&lines[0]).expect("json");
        let value = roll["value"].as_u64().expect("value");
        let other = if value == 6 { 5 } else { value + 1 };
        roll["value"] = other.into();
        roll["faces"] = serde_json::json!([other]);
        lines[0] = roll.to_string();
        lines.join("\n") + "\n"
    });
    assert!(
        problems.iter().any(|p| p.contains("roll 0")),
        "{problems:?}"
    );
}

#[test]
fn verify_fails_when_one_order_is_changed() {
    let played = play();
    let side_file = fs::read_dir(
        played
            .archive
            .join(resolution_dir(Kind::Turn, 1))
            .join("orders"),
    )
    .expect("orders")
    .next()
    .expect("one side sent orders")
    .expect("entry")
    .file_name()
    .to_string_lossy()
    .into_owned();
    let problems = tampered(
        &played,
        Kind::Turn,
        1,
        &format!("orders/{side_file}"),
        |text| text.replace("salt Lucky Seven", "salt Lucky Eight"),
    );
    assert!(
        problems.iter().any(|p| p.contains("the manifest says")),
        "{problems:?}"
    );
}

#[test]
fn verify_refuses_an_empty_orders_file_as_docs_audit_md_section_2_says() {
    let played = play();
    let problems = tampered(&played, Kind::Umpire, 1, "orders/@umpire.txt", |_| {
        String::new()
    });
    assert!(
        problems.iter().any(|p| p.contains("is empty")),
        "{problems:?}"
    );
}

#[test]
fn verify_fails_when_an_umpire_call_is_changed() {
    let played = play();
    let problems = tampered(&played, Kind::Umpire, 2, "orders/@umpire.txt", |text| {
        text.replace("hits 2", "hits 1")
    });
    assert!(!problems.is_empty());
}

#[test]
fn verify_fails_when_one_secret_is_changed() {
    let played = play();
    let problems = tampered(&played, Kind::Turn, 2, "resolution.json", |text| {
        let mut file: serde_json::Value = serde_json::from_str(&text).expect("json");
        let secret = file["secret"].as_str().expect("secret").to_string();
        let flipped = if secret.starts_with('0') { "1" } else { "0" };
        file["secret"] = format!("{flipped}{}", &secret[1..]).into();
        file.to_string()
    });
    assert!(
        problems.iter().any(|p| p.contains("SHA-256 of the secret")),
        "{problems:?}"
    );
}

#[test]
fn verify_fails_when_a_state_is_changed() {
    let played = play();
    let problems = tampered(&played, Kind::Turn, 1, "next-state.json", |text| {
        text.replacen("\"turn\":2", "\"turn\":3", 1)
    });
    assert!(
        problems.iter().any(|p| p.contains("next-state.json")),
        "{problems:?}"
    );
}

#[test]
fn a_phase_closed_before_a_crash_is_resolved_on_the_next_tick_with_the_same_dice() {
    let dir = tempfile::tempdir().expect("temp dir");
    let campaign = adjutant::demo::bundled_campaign(&dir.path().join("campaign")).expect("loads");
    let mut store = Store::open(&dir.path().join("data")).expect("store");
    let record =
        engine::init(&mut store, &campaign, dir.path(), &FixedClock(start())).expect("init");
    // Close an umpire call as the engine would, then "crash" before resolving.
    let call = "shoot 12 line-infantry grade b range 3\n";
    let manifest = adjutant::resolution::umpire_manifest(&campaign.id, 1, call);
    let orders: std::collections::BTreeMap<String, String> =
        [("@umpire".to_string(), call.to_string())].into();
    let closed = adjutant::store::ResolutionRecord {
        kind: Kind::Umpire,
        k: 1,
        phase_label: "umpire".into(),
        closed_at: start(),
        manifest_text: manifest.text(),
        manifest_digest: manifest.digest(),
        prior_state_digest: record.current_state_digest,
        orders: orders.clone(),
        beacon_round: None,
        beacon_tried_at: None,
        beacon_waived: false,
        result: None,
    };
    store
        .close_phase(&campaign.id, &closed, None, &[])
        .expect("close");
    drop(store);

    // Restart: the store reopens and the next tick finishes the call.
    let mut store = Store::open(&dir.path().join("data")).expect("reopen");
    let done = engine::tick(&mut store, &campaign.id, &FixedClock(start())).expect("tick");
    assert_eq!(done.len(), 1);
    assert_eq!((done[0].k, done[0].rolls), (1, 3));
    let stored = store.resolutions(&campaign.id).expect("list");
    assert_eq!(stored.len(), 1, "nothing was resolved twice");
    let rolls = stored[0].result.as_ref().expect("resolved").rolls.clone();

    // The dice are those the stored inputs give, and nothing else.
    let prior = store.state(&record.current_state_digest).expect("state");
    let ruleset = adjutant::rules::ruleset_for(&campaign.ruleset.id).expect("ruleset");
    let again = adjutant::resolution::run(&adjutant::resolution::Inputs {
        drawn: None,
        prior: &adjutant::resolution::Prior::new(ruleset, &prior),
        kind: Kind::Umpire,
        campaign: &campaign.id,
        k: 1,
        secret: record.chain.umpire_chain().secret_for(1).expect("secret"),
        manifest_digest: manifest.digest(),
        prior_state_digest: record.current_state_digest,
        beacon: campaign.beacon.as_deref(),
        policy: campaign.no_orders_policy,
        orders: &orders,
    })
    .expect("runs");
    assert_eq!(rolls, again.rolls);

    // Ticking again does nothing more and queues no mail twice.
    let queued = store.queued_mail(&campaign.id).expect("outbox").len();
    assert!(
        engine::tick(&mut store, &campaign.id, &FixedClock(start()))
            .expect("tick")
            .is_empty()
    );
    assert_eq!(
        store.queued_mail(&campaign.id).expect("outbox").len(),
        queued
    );
}

#[test]
fn a_turn_is_not_moved_onto_another_secret_by_umpire_calls() {
    // Two campaigns from the same bundled files; one asks umpire calls before
    // its first turn. The turn's secret, manifest and so seed stay the same.
    let play_turn = |calls: usize| {
        let dir = tempfile::tempdir().expect("temp dir");
        let campaign =
            adjutant::demo::bundled_campaign(&dir.path().join("campaign")).expect("loads");
        let mut store = Store::open(&dir.path().join("data")).expect("store");
        engine::init(&mut store, &campaign, dir.path(), &FixedClock(start())).expect("init");
        for _ in 0..calls {
            engine::umpire(
                &mut store,
                &campaign.id,
                "rally grade c",
                &FixedClock(start()),
            )
            .expect("call");
        }
        engine::resolve_now(&mut store, &campaign.id, &FixedClock(start())).expect("turn");
        let turn = store
            .resolutions(&campaign.id)
            .expect("list")
            .into_iter()
            .find(|r| r.kind == Kind::Turn)
            .expect("the turn");
        (turn.k, turn.manifest_text)
    };
    assert_eq!(play_turn(0), play_turn(3));
}

#[test]
fn the_same_resolution_run_twice_gives_the_same_bytes() {
    let played = play();
    let first = verify(&played.archive).expect("readable");
    let second = verify(&played.archive).expect("readable");
    assert_eq!(first, second);
    let resolutions = played.store.resolutions(&played.campaign.id).expect("list");
    for r in resolutions {
        let result = r.result.expect("resolved");
        for pair in result.rolls.windows(2) {
            let a: serde_json::Value = serde_json::from_str(&pair[0]).expect("json");
            let b: serde_json::Value = serde_json::from_str(&pair[1]).expect("json");
            assert_eq!(
                b["first_word"].as_u64(),
                Some(a["first_word"].as_u64().unwrap_or(0) + a["words"].as_u64().unwrap_or(0))
            );
        }
    }
}
