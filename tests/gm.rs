//! The game master's commands through the engine: each is logged, announced
//! and, where it changes the game state, recorded so that the archive still
//! verifies.

use chrono::{DateTime, Duration, Utc};

use adjutant::archive::{export, verify};
use adjutant::engine::gm::{GmCommand, Origin, execute};
use adjutant::engine::{self};
use adjutant::lifecycle::FixedClock;
use adjutant::store::Store;

const ID: &str = "sound-the-charge-demo";

fn at(text: &str) -> FixedClock {
    FixedClock(
        DateTime::parse_from_rfc3339(text)
            .expect("valid")
            .with_timezone(&Utc),
    )
}

fn start() -> FixedClock {
    at("2026-01-05T10:00:00Z")
}

fn setup() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("dir");
    let campaign = adjutant::demo::bundled_campaign(&dir.path().join("campaign")).expect("loads");
    let mut store = Store::open(&dir.path().join("data")).expect("store");
    engine::init(
        &mut store,
        &campaign,
        &dir.path().join("campaign"),
        &start(),
    )
    .expect("init");
    (dir, store)
}

fn gm(store: &mut Store, text: &str, clock: &FixedClock) -> adjutant::engine::gm::GmReport {
    let command = GmCommand::parse(text, "Europe/Paris").expect("a command");
    execute(store, ID, &command, &Origin::cli(), clock).expect("carried out")
}

fn mail_with(store: &Store, purpose: &str) -> Vec<adjutant::store::OutgoingMail> {
    store
        .queued_mail(ID)
        .expect("outbox")
        .into_iter()
        .filter(|m| m.message_id.contains(purpose))
        .collect()
}

fn archive_verdict(store: &Store, dir: &tempfile::TempDir, name: &str) -> verify::Verdict {
    let out = dir.path().join(name);
    export::export(store, ID, &out).expect("export");
    verify::verify(&out).expect("readable")
}

#[test]
fn the_command_syntax_reads_every_command_and_hides_passphrases() {
    let cases = [
        ("status", "status"),
        ("Extend 24h", "extend 1d"),
        ("extend by 1d12h", "extend 1d12h"),
        ("extend 90m", "extend 1h30m"),
        (
            "extend to 2026-01-08T19:00:00Z",
            "extend to 2026-01-08T19:00:00Z",
        ),
        // Paris is UTC+1 in January.
        (
            "extend to 2026-01-08 20:00",
            "extend to 2026-01-08T19:00:00Z",
        ),
        (
            "deadline 2026-01-08 20:00",
            "extend to 2026-01-08T19:00:00Z",
        ),
        ("resolve now", "resolve now"),
        ("resolve", "resolve now"),
        ("pause", "pause"),
        ("resume", "resume"),
        ("roll back", "rollback"),
        (
            "replace french Ney@French.invalid passphrase Le Brave des Braves",
            "replace french ney@french.invalid",
        ),
        (
            "correct 1-ligne strength 10 shaken yes",
            "correct 1-ligne strength 10 shaken yes",
        ),
    ];
    for (text, canonical) in cases {
        let command =
            GmCommand::parse(text, "Europe/Paris").unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(command.canonical(), canonical, "{text}");
    }
    let replace = GmCommand::parse("replace french a@b.invalid passphrase Secret Words", "UTC")
        .expect("reads");
    assert!(!format!("{replace:?}").contains("Secret"), "{replace:?}");
    for bad in [
        "",
        "surrender",
        "extend soon",
        "extend 0h",
        "extend to yesterday",
        "pause now",
        "replace french",
        "correct 1-ligne",
    ] {
        assert!(GmCommand::parse(bad, "UTC").is_err(), "{bad} was read");
    }
}

#[test]
fn status_is_logged_but_announced_to_nobody() {
    let (_dir, mut store) = setup();
    let report = gm(&mut store, "status", &start());
    assert!(report.done);
    assert!(report.outcome.contains("turn 1"), "{}", report.outcome);
    assert_eq!(store.gm_log(ID).expect("log").len(), 1);
    assert!(mail_with(&store, ".gm1.").is_empty());
}

#[test]
fn extend_moves_the_deadline_and_tells_everyone_once() {
    let (_dir, mut store) = setup();
    let before = store.campaign(ID).expect("campaign").deadline;
    let report = gm(&mut store, "extend 24h", &start());
    assert!(report.done, "{report:?}");
    let after = store.campaign(ID).expect("campaign").deadline;
    assert_eq!(after - before, Duration::hours(24));
    let announced = mail_with(&store, ".gm1.");
    assert_eq!(announced.len(), 3, "the GM and both players");
    assert!(
        announced[1]
            .body
            .contains("The game master moved the deadline"),
        "{}",
        announced[1].body
    );
    // A time already past is refused, logged, and changes nothing.
    let refused = gm(&mut store, "extend to 2026-01-01T00:00:00Z", &start());
    assert!(!refused.done);
    assert!(refused.outcome.contains("already passed"), "{refused:?}");
    assert_eq!(store.campaign(ID).expect("campaign").deadline, after);
    let log = store.gm_log(ID).expect("log");
    assert_eq!(log.len(), 2);
    assert!(log[0].done && !log[1].done);
    assert!(mail_with(&store, ".gm2.").is_empty());
}

/// Issue 28: `extend 99999999999d` panicked (`DateTime + TimeDelta
/// overflowed`) and `extend 95000000d` stored a deadline in the year 262128
/// that no later read could take. A deadline now lies at most 366 days
/// ahead: longer extensions are refused where they are read, or where the
/// deadline they make is worked out, and the campaign is left as it was.
#[test]
fn an_extension_past_the_longest_wait_is_refused_and_changes_nothing() {
    let (_dir, mut store) = setup();
    let before = store.campaign(ID).expect("campaign").deadline;
    for text in [
        "extend 99999999999d",
        "extend 95000000d",
        "extend 99999999999999999999999h",
        "extend 367d",
    ] {
        let refused = GmCommand::parse(text, "UTC").expect_err(text);
        assert!(
            refused.to_string().contains("is longer than 366d"),
            "{text}: {refused}"
        );
    }
    for text in [
        "extend 366d",
        "extend to 2027-01-07T10:00:01Z",
        "extend to 9999-12-31T23:59:59Z",
    ] {
        let report = gm(&mut store, text, &start());
        assert!(!report.done, "{text}: {report:?}");
        assert!(
            report
                .outcome
                .contains("at most 366d ahead of now: 2027-01-06T10:00:00Z at the latest"),
            "{text}: {}",
            report.outcome
        );
    }
    assert_eq!(store.campaign(ID).expect("still reads").deadline, before);
    // Up to the longest wait is taken; a second extension past it is not.
    assert!(gm(&mut store, "extend to 2027-01-06T10:00:00Z", &start()).done);
    assert!(!gm(&mut store, "extend 1m", &start()).done);
    assert!(
        gm(&mut store, "status", &start()).done,
        "status still reads"
    );
}

#[test]
fn a_paused_campaign_closes_nothing_and_resuming_pushes_the_deadline_by_the_pause() {
    let (_dir, mut store) = setup();
    let deadline = store.campaign(ID).expect("campaign").deadline;
    assert!(gm(&mut store, "pause", &start()).done);
    assert!(!gm(&mut store, "pause", &start()).done, "paused twice");
    let later = FixedClock(deadline + Duration::hours(1));
    assert!(
        engine::tick(&mut store, ID, &later)
            .expect("tick")
            .is_empty()
    );
    assert!(matches!(
        engine::submit(&mut store, ID, "french", "1-ligne: hold\n", &start(), None),
        Err(engine::EngineError::Paused(_))
    ));
    let paused_for = later.0 - start().0;
    let report = gm(&mut store, "resume", &later);
    assert!(report.done, "{report:?}");
    let record = store.campaign(ID).expect("campaign");
    assert!(!record.paused);
    assert_eq!(record.deadline, deadline + paused_for);
    assert!(!gm(&mut store, "resume", &later).done, "not paused");
}

#[test]
fn resolve_now_resolves_the_current_phase_once() {
    let (_dir, mut store) = setup();
    engine::submit(&mut store, ID, "french", "1-ligne: hold\n", &start(), None).expect("orders");
    let report = gm(&mut store, "resolve now", &start());
    assert!(report.done, "{report:?}");
    assert!(
        report.outcome.contains("resolution 1"),
        "{}",
        report.outcome
    );
    assert_eq!(store.next_k(ID, adjutant::audit::Kind::Turn).expect("k"), 2);
    let announced = mail_with(&store, ".gm1.");
    assert_eq!(announced.len(), 3);
    // Defect 16: the subject was cut off mid-clause ("... before its
    // deadline, to"), and the mail gave the closed phase's deadline.
    assert_eq!(
        announced[0].subject,
        "[sound-the-charge-demo] the game master: closed turn 1 orders (french active) before its deadline"
    );
    assert!(
        !announced[0].body.contains("Deadline:"),
        "{}",
        announced[0].body
    );
    assert!(
        announced[0]
            .body
            .contains("The report of the resolution follows")
    );
    // Issue 28: on the last turn this promised a next phase that never
    // came; whether one comes is known only once the turn is resolved.
    assert!(
        announced[0].body.contains("or says that the game is over"),
        "{}",
        announced[0].body
    );
}

/// Defect 16: an announcement once the game is over gave a deadline.
#[test]
fn an_announcement_after_the_game_is_over_gives_no_deadline() {
    let (_dir, mut store) = setup();
    let mut clock = start();
    while store
        .state(&store.campaign(ID).expect("record").current_state_digest)
        .expect("state")
        .finished
        .is_none()
    {
        engine::resolve_now(&mut store, ID, &clock).expect("resolves");
        clock = FixedClock(clock.0 + Duration::hours(1));
    }
    let report = gm(
        &mut store,
        "replace austrian somebody@austrian.invalid passphrase new-passphrase",
        &clock,
    );
    assert!(report.done, "{report:?}");
    let n = report.n.expect("numbered");
    let announced = mail_with(&store, &format!(".gm{n}."));
    assert!(!announced.is_empty());
    for mail in announced
        .iter()
        .filter(|m| !m.message_id.contains(".notice."))
    {
        assert!(!mail.body.contains("Deadline:"), "{}", mail.body);
        assert!(mail.body.contains("The game is over"), "{}", mail.body);
    }
}

#[test]
fn a_command_from_a_message_handled_twice_acts_once() {
    let (_dir, mut store) = setup();
    let command = GmCommand::parse("extend 24h", "UTC").expect("reads");
    let origin = Origin {
        source: "mail".into(),
        key: Some("abc:3".into()),
        by: "gm umpire@example.org".into(),
    };
    let before = store.campaign(ID).expect("campaign").deadline;
    execute(&mut store, ID, &command, &origin, &start()).expect("first");
    let again = execute(&mut store, ID, &command, &origin, &start()).expect("second");
    assert!(again.outcome.starts_with("(already handled)"), "{again:?}");
    assert_eq!(
        store.campaign(ID).expect("campaign").deadline - before,
        Duration::hours(24)
    );
    assert_eq!(store.gm_log(ID).expect("log").len(), 1);
}

#[test]
fn a_correction_is_an_act_in_the_archive_that_verify_re_applies() {
    let (dir, mut store) = setup();
    engine::submit(&mut store, ID, "french", "1-ligne: hold\n", &start(), None).expect("orders");
    let report = gm(
        &mut store,
        "correct 1-ligne strength 10 formation column at 14.5 10 facing 15 shaken yes",
        &start(),
    );
    assert!(report.done, "{report:?}");
    let record = store.campaign(ID).expect("campaign");
    let state = store.state(&record.current_state_digest).expect("state");
    let state = state
        .typed::<adjutant::rules::sound_the_charge::SoundTheCharge>()
        .expect("Sound the Charge's state");
    let unit = state.unit("1-ligne").expect("unit");
    assert_eq!(unit.strength, 10);
    assert_eq!(unit.rules.formation.word(), "column");
    assert_eq!(unit.facing, 15);
    assert!(unit.rules.shaken && !unit.rules.disordered);
    assert_eq!(
        unit.location,
        adjutant::rules::board::Location::Table { x: 1450, y: 1000 }
    );
    // The orders sent before were checked against the old state: set aside.
    assert!(engine::sides_in(&store, ID).expect("sides").is_empty());
    let announced = mail_with(&store, ".gm1.");
    assert!(
        announced[0].body.contains("Send your orders again"),
        "{}",
        announced[0].body
    );
    // Nonsense is refused and changes nothing.
    for bad in [
        "correct 1-ligne strength 40",
        "correct 1-ligne formation phalanx",
        "correct nobody shaken yes",
        "correct 1-ligne facing 400",
        "correct 1-ligne strength 10",
    ] {
        let r = gm(&mut store, bad, &start());
        assert!(!r.done, "{bad}: {r:?}");
    }
    assert_eq!(store.gm_acts(ID).expect("acts").len(), 1);

    engine::submit(&mut store, ID, "french", "1-ligne: hold\n", &start(), None).expect("orders");
    engine::resolve_now(&mut store, ID, &start()).expect("resolves");
    let verdict = archive_verdict(&store, &dir, "archive");
    assert!(verdict.ok(), "{verdict:?}");
    assert_eq!(verdict.acts.len(), 1);
    let head = std::fs::read_to_string(dir.path().join("archive/campaign.json")).expect("head");
    // A campaign registered now keeps the record of spec v3.
    assert!(head.contains("adjutant-audit-v3"), "{head}");

    // A correction edited after the fact no longer verifies.
    let act = dir.path().join("archive/gm/0001/act.json");
    let text = std::fs::read_to_string(&act).expect("act");
    std::fs::write(&act, text.replace("strength 10", "strength 11")).expect("write");
    let verdict = verify::verify(&dir.path().join("archive")).expect("readable");
    assert!(!verdict.ok());
    assert!(!verdict.acts[0].problems.is_empty(), "{verdict:?}");
}

#[test]
fn a_silent_edit_of_the_state_between_turns_fails_verification() {
    let (dir, mut store) = setup();
    gm(&mut store, "correct 1-ligne strength 9", &start());
    engine::resolve_now(&mut store, ID, &start()).expect("resolves");
    let out = dir.path().join("archive");
    export::export(&store, ID, &out).expect("export");
    // Without the act, turn 1 starts from a state no turn or act left.
    std::fs::remove_dir_all(out.join("gm")).expect("remove");
    let head = out.join("campaign.json");
    let text = std::fs::read_to_string(&head).expect("head");
    std::fs::write(
        &head,
        text.replace("\"acts\": 1", "\"acts\": 0")
            .replace("adjutant-audit-v2", "adjutant-audit-v1"),
    )
    .expect("write");
    let verdict = verify::verify(&out).expect("readable");
    assert!(!verdict.ok(), "{verdict:?}");
    assert!(
        verdict.resolutions[0]
            .problems
            .iter()
            .any(|p| p.contains("prior state")),
        "{verdict:?}"
    );
}

#[test]
fn a_rollback_restores_the_prior_state_and_never_reuses_the_revealed_secret() {
    let (dir, mut store) = setup();
    assert!(
        !gm(&mut store, "rollback", &start()).done,
        "nothing to undo"
    );
    engine::submit(&mut store, ID, "french", "1-ligne: hold\n", &start(), None).expect("orders");
    engine::resolve_now(&mut store, ID, &start()).expect("turn 1");
    let first = store.resolutions(ID).expect("resolutions").remove(0);
    let revealed = first.result.as_ref().expect("resolved").secret;

    let report = gm(&mut store, "rollback", &start());
    assert!(report.done, "{report:?}");
    let record = store.campaign(ID).expect("campaign");
    assert_eq!(record.current_state_digest, first.prior_state_digest);
    assert!(record.deadline > start().0);
    assert!(!gm(&mut store, "rollback", &start()).done, "once per turn");
    let announced = mail_with(&store, ".gm2.");
    assert!(
        announced[0]
            .body
            .contains("never with the secret already revealed"),
        "{}",
        announced[0].body
    );

    // The phase is played again as resolution 2, with the next secret.
    engine::submit(&mut store, ID, "french", "1-ligne: hold\n", &start(), None).expect("orders");
    engine::resolve_now(&mut store, ID, &start()).expect("again");
    let all = store.resolutions(ID).expect("resolutions");
    assert_eq!(all.len(), 2);
    assert_eq!(all[1].phase_label, first.phase_label);
    assert_eq!(all[1].prior_state_digest, first.prior_state_digest);
    let second = all[1].result.as_ref().expect("resolved").secret;
    assert_ne!(second, revealed);
    assert_eq!(adjutant::audit::Digest32::of(second.as_bytes()), revealed);

    let verdict = archive_verdict(&store, &dir, "archive");
    assert!(verdict.ok(), "{verdict:?}");
    assert_eq!(verdict.resolutions.len(), 2);
    assert_eq!(verdict.acts.len(), 1);
}

#[test]
fn a_replaced_player_is_known_by_the_new_address_and_passphrase_only() {
    let (_dir, mut store) = setup();
    let report = gm(
        &mut store,
        "replace french ney@french.invalid passphrase le brave des braves",
        &start(),
    );
    assert!(report.done, "{report:?}");
    let campaign = store.campaign(ID).expect("campaign").campaign;
    let player = campaign
        .players
        .iter()
        .find(|p| p.side == "french")
        .expect("french player");
    assert_eq!(player.person.address, "ney@french.invalid");
    let adjutant::campaign::Auth::Passphrase { hash } = &player.person.auth else {
        panic!("method kept");
    };
    assert!(adjutant::campaign::passphrase::verify(
        "le brave des braves",
        hash
    ));
    let log = store.gm_log(ID).expect("log");
    assert!(!log[0].command.contains("brave"), "{:?}", log[0]);
    let announced = mail_with(&store, ".gm1.");
    let to: Vec<&str> = announced.iter().map(|m| m.recipient.as_str()).collect();
    assert!(to.contains(&"ney@french.invalid"), "{to:?}");
    assert!(to.contains(&"lannes@french.invalid"), "{to:?}");
    for bad in [
        "replace prussian a@b.invalid passphrase x",
        "replace french not-an-address passphrase x",
        "replace french hohenzollern@austrian.invalid passphrase x",
        "replace french a@b.invalid hash not-a-hash",
    ] {
        assert!(!gm(&mut store, bad, &start()).done, "{bad}");
    }
}

fn adjutant(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["--now", "2026-01-05T10:00:00Z"])
        .args(args)
        .output()
        .expect("runs")
}

fn said(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

#[test]
fn the_cli_gives_the_same_commands_and_verify_shows_the_acts() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("data");
    let data = data.to_str().expect("utf-8");
    let campaign = dir.path().join("campaign");
    adjutant::demo::bundled_campaign(&campaign).expect("loads");
    let init = adjutant(&["init", "--data", data, campaign.to_str().expect("utf-8")]);
    assert!(init.status.success(), "{}", said(&init));

    let extend = adjutant(&["gm", "--data", data, "--campaign", ID, "extend", "24h"]);
    assert!(extend.status.success(), "{}", said(&extend));
    assert!(
        said(&extend).starts_with("extend 1d: done\nthe deadline is now"),
        "{}",
        said(&extend)
    );

    // Issue 28: this panicked (exit 101). Now a refusal in words, and the
    // campaign goes on.
    let huge = adjutant(&[
        "gm",
        "--data",
        data,
        "--campaign",
        ID,
        "extend",
        "99999999999d",
    ]);
    assert_eq!(huge.status.code(), Some(1), "{}", said(&huge));
    assert!(
        said(&huge).contains("`99999999999d` is longer than 366d"),
        "{}",
        said(&huge)
    );
    let status = adjutant(&["status", "--data", data]);
    assert!(status.status.success(), "{}", said(&status));

    let refused = adjutant(&["gm", "--data", data, "--campaign", ID, "resume"]);
    assert!(!refused.status.success());
    assert!(
        said(&refused).contains("resume: refused\nthe campaign is not paused"),
        "{}",
        said(&refused)
    );

    let bad = adjutant(&["gm", "--data", data, "--campaign", ID, "surrender"]);
    assert!(!bad.status.success());
    assert!(
        said(&bad).contains("`surrender` is not a command"),
        "{}",
        said(&bad)
    );

    let correct = adjutant(&[
        "gm",
        "--data",
        data,
        "--campaign",
        ID,
        "correct",
        "2-ligne",
        "disordered",
        "yes",
    ]);
    assert!(correct.status.success(), "{}", said(&correct));
    let resolve = adjutant(&["gm", "--data", data, "--campaign", ID, "resolve", "now"]);
    assert!(resolve.status.success(), "{}", said(&resolve));
    assert!(
        said(&resolve).contains("resolution 1:"),
        "{}",
        said(&resolve)
    );

    let archive = dir.path().join("archive");
    let archive = archive.to_str().expect("utf-8");
    let export = adjutant(&[
        "archive",
        "export",
        "--data",
        data,
        "--campaign",
        ID,
        "--out",
        archive,
    ]);
    assert!(export.status.success(), "{}", said(&export));
    let verified = adjutant(&["verify", archive]);
    assert!(verified.status.success(), "{}", said(&verified));
    assert!(
        said(&verified)
            .contains("game master's act 2 after turn 0 (`correct 2-ligne disordered yes`): ok"),
        "{}",
        said(&verified)
    );
}

/// docs/RULINGS.md REP-1: a side reads only of the units it sees. The
/// announcement of a correction names the unit to the GM and to a side that
/// sees it; a side that cannot see it is told only that a unit out of its
/// sight was corrected.
#[test]
fn a_correction_is_announced_without_naming_a_unit_to_a_side_that_cannot_see_it() {
    let (_dir, mut store) = setup();
    let record = store.campaign(ID).expect("campaign");
    let state = store.state(&record.current_state_digest).expect("state");
    let ruleset = adjutant::rules::ruleset_for(&state.ruleset).expect("ruleset");
    let seen_by_french = ruleset.visible_to(
        &ruleset.read(&state).expect("the state reads"),
        "french",
        &[],
    );
    let hidden = state
        .units
        .iter()
        .find(|u| u.side == "austrian" && !seen_by_french.contains(&u.id))
        .expect("an Austrian unit the French cannot see at the start")
        .clone();
    let report = gm(
        &mut store,
        &format!("correct {} shaken yes", hidden.id),
        &start(),
    );
    assert!(report.done, "{report:?}");
    let announced = mail_with(&store, ".gm1.");
    assert_eq!(announced.len(), 3, "the GM and both players");
    for m in &announced {
        let french = m.recipient.contains("french.invalid");
        let names = m.body.contains(&hidden.id) || m.body.contains(&hidden.name);
        assert_eq!(names, !french, "to {}:\n{}", m.recipient, m.body);
        if french {
            assert!(
                m.body.contains("corrected a unit out of your sight"),
                "{}",
                m.body
            );
        }
    }
}

/// Issue 31, item 9: the command line printed "(act 2)" for what the
/// archive numbers act 11, counting only the acts on the state. The number
/// it prints is the archive's, whatever acts came before: extensions,
/// pauses, orders the operator entered.
#[test]
fn the_cli_prints_the_number_the_archive_gives_the_act() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("data");
    let data = data.to_str().expect("utf-8");
    let campaign = dir.path().join("campaign");
    adjutant::demo::bundled_campaign(&campaign).expect("loads");
    let init = adjutant(&["init", "--data", data, campaign.to_str().expect("utf-8")]);
    assert!(init.status.success(), "{}", said(&init));
    for command in [["extend", "24h"], ["pause", ""], ["resume", ""]] {
        let args: Vec<&str> = ["gm", "--data", data, "--campaign", ID]
            .into_iter()
            .chain(command.into_iter().filter(|w| !w.is_empty()))
            .collect();
        let done = adjutant(&args);
        assert!(done.status.success(), "{}", said(&done));
    }
    let orders = dir.path().join("orders.txt");
    std::fs::write(&orders, "1-ligne: hold\n").expect("write");
    let submit = adjutant(&[
        "submit",
        "--data",
        data,
        "--campaign",
        ID,
        "--side",
        "french",
        "--reason",
        "the French player's letter came by hand",
        orders.to_str().expect("utf-8"),
    ]);
    assert!(submit.status.success(), "{}", said(&submit));
    let correct = adjutant(&[
        "gm",
        "--data",
        data,
        "--campaign",
        ID,
        "correct",
        "2-ligne",
        "disordered",
        "yes",
    ]);
    assert!(correct.status.success(), "{}", said(&correct));
    let printed: usize = said(&correct)
        .split("(act ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("an act number: {}", said(&correct)));
    let archive = dir.path().join("archive");
    let archive = archive.to_str().expect("utf-8");
    let export = adjutant(&[
        "archive",
        "export",
        "--data",
        data,
        "--campaign",
        ID,
        "--out",
        archive,
    ]);
    assert!(export.status.success(), "{}", said(&export));
    let verified = adjutant(&["verify", archive]);
    assert!(verified.status.success(), "{}", said(&verified));
    let line = said(&verified)
        .lines()
        .find(|l| l.contains("(`correct 2-ligne disordered yes`)"))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("{}", said(&verified)));
    assert!(
        line.starts_with(&format!("game master's act {printed} after turn 0")),
        "printed act {printed}, the archive says: {line}"
    );
    // Four acts came before it: the extension, the pause, the resumption
    // and the orders the operator entered.
    assert_eq!(printed, 5, "{line}");
}

/// Issue 31, item 6: orders the operator entered at the command line (even
/// in place of orders a player had sent and had acknowledged) were an act
/// of the record that reached no one: the player learnt of it only by
/// comparing digests. Each such act is announced to everyone as the GM's
/// acts by mail are, with its number, the digest entered and the head.
#[test]
fn orders_the_operator_enters_are_announced_to_every_player() {
    let (dir, mut store) = setup();
    let own = engine::submit(&mut store, ID, "french", "1-ligne: hold\n", &start(), None)
        .expect("the player's orders");
    assert!(own.stored);
    let reason = "the French player's letter came by hand";
    let entered = engine::gm::submit_by_operator(
        &mut store,
        ID,
        "french",
        "2-ligne: hold\n",
        reason,
        &start(),
    )
    .expect("entered");
    assert!(entered.stored && entered.replaced, "{entered:?}");
    let n = store.gm_log(ID).expect("log").last().expect("logged").n;
    let announced = mail_with(&store, &format!(".gm{n}."));
    let to: Vec<&str> = announced.iter().map(|m| m.recipient.as_str()).collect();
    for who in [
        "lannes@french.invalid",
        "hohenzollern@austrian.invalid",
        "umpire@example.org",
    ] {
        assert!(to.iter().any(|t| t.contains(who)), "{who} is told: {to:?}");
    }
    let body = &announced[0].body;
    assert!(body.contains("french"), "{body}");
    assert!(body.contains("in place of"), "{body}");
    assert!(body.contains(&entered.digest.to_hex()), "{body}");
    assert!(body.contains(reason), "{body}");
    assert!(body.contains("act 1,"), "{body}");
    assert!(
        !body.contains("2-ligne"),
        "the orders themselves stay the side's own: {body}"
    );
    let verdict = archive_verdict(&store, &dir, "archive");
    assert!(verdict.ok(), "{verdict:?}");
    let head = verdict
        .links
        .as_ref()
        .and_then(|l| l.heads.last())
        .expect("a head")
        .to_hex();
    assert!(
        body.contains(&format!("archive head = {head}")),
        "the announcement gives the head the act made: {body}"
    );

    // The word that a side sends none is announced too.
    engine::gm::declare_none_by_operator(
        &mut store,
        ID,
        "austrian",
        "said so by telephone",
        &start(),
    )
    .expect("declared");
    let n = store.gm_log(ID).expect("log").last().expect("logged").n;
    let announced = mail_with(&store, &format!(".gm{n}."));
    assert_eq!(announced.len(), to.len(), "everyone is told");
    let body = &announced[0].body;
    assert!(
        body.contains("austrian") && body.contains("no orders") && body.contains("act 2,"),
        "{body}"
    );
}

fn act_json(dir: &tempfile::TempDir, name: &str, store: &Store, n: u64) -> serde_json::Value {
    let out = dir.path().join(name);
    export::export(store, ID, &out).expect("export");
    let text = std::fs::read_to_string(out.join(format!("gm/{n:04}/act.json"))).expect("act");
    serde_json::from_str(&text).expect("json")
}

#[test]
fn a_changed_address_keeps_the_passphrase_and_the_old_address_is_told() {
    let (dir, mut store) = setup();
    let before = store.campaign(ID).expect("campaign").campaign;
    let report = gm(
        &mut store,
        "change address french Ney@French.invalid",
        &start(),
    );
    assert!(report.done, "{report:?}");
    assert_eq!(report.command, "change address french ney@french.invalid");
    assert!(report.outcome.ends_with("(act 1)"), "{}", report.outcome);
    let after = store.campaign(ID).expect("campaign").campaign;
    let french = |c: &adjutant::campaign::Campaign| {
        c.players
            .iter()
            .find(|p| p.side == "french")
            .expect("french")
            .person
            .clone()
    };
    let (old, new) = (french(&before), french(&after));
    assert_eq!(new.address, "ney@french.invalid");
    assert_eq!(new.auth, old.auth, "the passphrase stays");
    // Everyone hears of it at the new address; the old one is told apart.
    let to: Vec<String> = mail_with(&store, ".gm1.")
        .iter()
        .map(|m| m.recipient.clone())
        .collect();
    assert!(to.contains(&"ney@french.invalid".to_string()), "{to:?}");
    let notice = mail_with(&store, "gm1.notice");
    assert_eq!(notice.len(), 1);
    assert_eq!(notice[0].recipient, old.address);
    assert!(notice[0].body.contains("ney@french.invalid"));

    let act = act_json(&dir, "archive", &store, 1);
    assert_eq!(act["kind"], "change");
    assert_eq!(act["command"], "change address french ney@french.invalid");
    let verdict = archive_verdict(&store, &dir, "archive2");
    assert!(verdict.ok(), "{verdict:?}");

    for bad in [
        "change address prussian a@b.invalid",
        "change address french not-an-address",
        "change address french hohenzollern@austrian.invalid",
    ] {
        assert!(!gm(&mut store, bad, &start()).done, "{bad}");
    }
}

#[test]
fn a_changed_schedule_holds_from_the_next_phase_and_the_open_one_keeps_its_deadline() {
    let (_dir, mut store) = setup();
    let deadline = store.campaign(ID).expect("campaign").deadline;
    // 48h from 11:00 in Paris, moved to the next 20:00.
    assert_eq!(deadline.to_rfc3339(), "2026-01-07T19:00:00+00:00");
    // The reminder (12h) must stay shorter than every phase.
    let short = gm(&mut store, "change phase orders 6h", &start());
    assert!(
        !short.done && short.outcome.contains("reminder"),
        "{short:?}"
    );
    for good in [
        "change phase orders 36h",
        "change deadline time 09:30",
        "change time zone french Europe/Vienna",
    ] {
        let report = gm(&mut store, good, &start());
        assert!(report.done, "{good}: {report:?}");
    }
    for bad in [
        "change phase battle 36h",
        "change deadline-time 25:00",
        "change time-zone campaign Mars/Olympus",
        "change phase orders 0h",
    ] {
        let refused = GmCommand::parse(bad, "Europe/Paris").map(|c| {
            execute(&mut store, ID, &c, &Origin::cli(), &start())
                .expect("ran")
                .done
        });
        assert!(!matches!(refused, Ok(true)), "{bad}");
    }
    let record = store.campaign(ID).expect("campaign");
    assert_eq!(
        record.deadline, deadline,
        "the open phase keeps its deadline"
    );
    assert_eq!(record.campaign.schedule.phase_minutes["orders"], 36 * 60);
    assert_eq!(
        record.campaign.schedule.deadline_time.as_deref(),
        Some("09:30")
    );
    let french = record
        .campaign
        .players
        .iter()
        .find(|p| p.side == "french")
        .expect("french");
    assert_eq!(french.person.time_zone, "Europe/Vienna");
    // The next phase opens now: 36h on is 23:00 in Paris on the 6th, and the
    // deadline moves to the next 09:30 there.
    assert!(gm(&mut store, "resolve now", &start()).done);
    let next = store.campaign(ID).expect("campaign").deadline;
    assert_eq!(next.to_rfc3339(), "2026-01-07T08:30:00+00:00");
}

#[test]
fn a_correction_carries_the_game_masters_reason_to_the_archive_and_the_announcement() {
    let (dir, mut store) = setup();
    let report = gm(
        &mut store,
        "correct 1-ligne strength 10 because a base was miscounted at set-up",
        &start(),
    );
    assert!(report.done, "{report:?}");
    assert_eq!(report.command, "correct 1-ligne strength 10");
    assert!(
        report
            .outcome
            .contains("because a base was miscounted at set-up"),
        "{}",
        report.outcome
    );
    let act = act_json(&dir, "archive", &store, 1);
    assert_eq!(act["reason"], "a base was miscounted at set-up");
    assert_eq!(act["command"], "correct 1-ligne strength 10");
    let told: Vec<String> = mail_with(&store, ".gm1.")
        .iter()
        .map(|m| m.body.clone())
        .collect();
    assert!(
        told.iter()
            .any(|b| b.contains("because a base was miscounted at set-up")),
        "{told:?}"
    );
    assert!(archive_verdict(&store, &dir, "archive2").ok());
    assert!(GmCommand::parse("correct 1-ligne strength 10 because", "UTC").is_err());
}

#[test]
fn the_cli_takes_a_corrections_reason_with_reason() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("data");
    let data = data.to_str().expect("utf-8");
    let campaign = dir.path().join("campaign");
    adjutant::demo::bundled_campaign(&campaign).expect("loads");
    let init = adjutant(&["init", "--data", data, campaign.to_str().expect("utf-8")]);
    assert!(init.status.success(), "{}", said(&init));
    let out = adjutant(&[
        "gm",
        "--data",
        data,
        "--campaign",
        ID,
        "--reason",
        "lost a base at the table",
        "correct",
        "1-ligne",
        "strength",
        "10",
    ]);
    assert!(out.status.success(), "{}", said(&out));
    assert!(
        said(&out).contains("because lost a base at the table (act 1)"),
        "{}",
        said(&out)
    );
    let wrong = adjutant(&[
        "gm",
        "--data",
        data,
        "--campaign",
        ID,
        "--reason",
        "x",
        "extend",
        "1h",
    ]);
    assert!(!wrong.status.success(), "{}", said(&wrong));
}
