//! The report templates a GM can edit: every template renders for every
//! shipped campaign, and one edited in a campaign folder changes the mail at
//! the next resolution without a rebuild.

use std::path::Path;

use chrono::{DateTime, Utc};

use adjutant::engine;
use adjutant::ingest::{IngestConfig, ingest};
use adjutant::lifecycle::FixedClock;
use adjutant::store::Store;
use adjutant::templates::DEFAULTS;

fn now() -> FixedClock {
    FixedClock(
        DateTime::parse_from_rfc3339("2026-01-05T10:00:00Z")
            .expect("valid")
            .with_timezone(&Utc),
    )
}

/// The players' passphrases of a shipped campaign, by side, as its ruleset's
/// demo gives them (a shipped campaign's passphrases are no secret).
fn player_passphrases(
    ruleset: &dyn adjutant::rules::Ruleset,
    folder: &Path,
) -> &'static [(&'static str, &'static str)] {
    ruleset
        .demo()
        .filter(|d| folder.file_name().is_some_and(|n| n == d.folder))
        .map_or(&[], |d| d.passphrases)
}

/// The GM's address and passphrase in the shipped campaigns.
fn gm_passphrase(campaign: &str) -> Option<(&'static str, &'static str)> {
    match campaign {
        "sound-the-charge-demo" => Some(("umpire@example.org", "grand-quartier-general")),
        "kulikovo-1380" => Some(("chronicler@example.org", "stol-velikogo-knyazya")),
        "grande-tactique-demo" => Some(("umpire@example.org", "grand-quartier-general")),
        "percentile-fire-demo" => Some(("provost@example.org", "le-grand-prevot")),
        _ => None,
    }
}

/// A message; its Message-ID is made from everything else in it, so that
/// two different messages never share one.
fn message(from: &str, subject: &str, body: &str) -> Vec<u8> {
    let id = adjutant::audit::Digest32::of(format!("{from}{subject}{body}").as_bytes());
    format!(
        "From: {from}\r\nTo: gm@example.org\r\nSubject: {subject}\r\nMessage-ID: <{}@test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        &id.to_hex()[..16],
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// Every template is rendered for every shipped campaign: the opening mail,
/// an acknowledgement and a refusal, the manifest, the reports (text, HTML,
/// map caption) and an umpire call through the engine, and the reminder
/// (which the daemon's loop sends) with the context the daemon gives it.
#[test]
fn every_template_renders_for_every_shipped_campaign() {
    // A template added to the defaults must be added to this test too.
    let names: Vec<&str> = DEFAULTS.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names,
        [
            "opening.txt",
            "manifest.txt",
            "umpire.txt",
            "ack.txt",
            "ack.html",
            "no-orders.txt",
            "ready.txt",
            "refused.txt",
            "stranger.txt",
            "quiet.txt",
            "quiet-acks.txt",
            "failed.txt",
            "failed-gm.txt",
            "reminder.txt",
            "late.txt",
            "situation.txt",
            "report.txt",
            "observed.txt",
            "report.html",
            "map-caption.txt",
            "gm.txt",
            "gm-reply.txt"
        ]
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns");
    let mut seen = 0;
    for entry in std::fs::read_dir(&root).expect("campaigns/") {
        let dir = entry.expect("entry").path();
        if !dir.join("campaign.toml").exists() {
            continue;
        }
        seen += 1;
        let campaign = adjutant::campaign::load(&dir).expect("a shipped campaign loads");
        let data = tempfile::tempdir().expect("dir");
        let mut store = Store::open(&data.path().join("data")).expect("store");
        engine::init(&mut store, &campaign, &dir, &now()).expect("opening.txt");
        let config = IngestConfig::default();
        // A stranger's mail is refused (refused.txt).
        ingest(
            &mut store,
            &message(
                "stranger@nowhere.invalid",
                &format!("[{}] orders", campaign.id),
                "x",
            ),
            "test",
            &config,
            &now(),
        )
        .expect("refused.txt");
        // The first side's bot orders (ack.txt); the others say they send
        // none (no-orders.txt).
        let ruleset = adjutant::rules::ruleset_for(&campaign.ruleset.id).expect("known");
        for (n, (side, passphrase)) in player_passphrases(ruleset, &dir).iter().enumerate() {
            let address = &campaign
                .players
                .iter()
                .find(|p| p.side == *side)
                .expect("the side has a player")
                .person
                .address;
            let record = store.campaign(&campaign.id).expect("record");
            let state = store.state(&record.current_state_digest).expect("state");
            let orders = if n == 0 {
                ruleset
                    .bot_orders(&ruleset.read(&state).expect("the state reads"), side)
                    .join("\n")
            } else {
                "no orders".to_string()
            };
            let outcome = ingest(
                &mut store,
                &message(
                    address,
                    &format!("[{}] orders turn 1", campaign.id),
                    &format!("passphrase {passphrase}\n{orders}\n"),
                ),
                "test",
                &config,
                &now(),
            )
            .expect("ack.txt, no-orders.txt");
            assert!(
                matches!(
                    outcome,
                    adjutant::ingest::Outcome::Accepted { .. }
                        | adjutant::ingest::Outcome::NoOrders { .. }
                ),
                "{}: {side}: {outcome:?}",
                campaign.id
            );
            // The first side says it waits, without orders (ready.txt).
            if n == 0 {
                let outcome = ingest(
                    &mut store,
                    &message(
                        address,
                        &format!("[{}] orders turn 1", campaign.id),
                        &format!("passphrase {passphrase}\nwait\n"),
                    ),
                    "test",
                    &config,
                    &now(),
                )
                .expect("ready.txt");
                assert!(
                    matches!(
                        outcome,
                        adjutant::ingest::Outcome::Ready { ready: false, .. }
                    ),
                    "{}: {side}: {outcome:?}",
                    campaign.id
                );
                // And asks for the situation and a template (situation.txt).
                let outcome = ingest(
                    &mut store,
                    &message(
                        address,
                        &format!("[{}] request", campaign.id),
                        &format!("passphrase {passphrase}\nsend situation\nsend template\n"),
                    ),
                    "test",
                    &config,
                    &now(),
                )
                .expect("situation.txt");
                assert!(
                    matches!(outcome, adjutant::ingest::Outcome::Asked { .. }),
                    "{}: {side}: {outcome:?}",
                    campaign.id
                );
            }
        }
        engine::resolve_now(&mut store, &campaign.id, &now())
            .expect("manifest.txt, report.txt, report.html, map-caption.txt");
        // The first umpire call of the campaign's ruleset's demo.
        let call = adjutant::rules::ruleset_for(&campaign.ruleset.id)
            .and_then(|r| r.demo())
            .and_then(|d| d.calls.first().copied())
            .expect("every shipped campaign's ruleset has a demo with calls");
        engine::umpire(&mut store, &campaign.id, call, &now()).expect("umpire.txt");
        // The GM's commands by mail: the reply (gm-reply.txt) and the
        // announcement to everyone (gm.txt).
        let gm_by_mail = gm_passphrase(&campaign.id);
        if let Some((address, passphrase)) = gm_by_mail {
            ingest(
                &mut store,
                &message(
                    address,
                    &format!("[{}] commands", campaign.id),
                    &format!("passphrase: {passphrase}\ncommand: status\ncommand: extend 24h\n"),
                ),
                "test",
                &config,
                &now(),
            )
            .expect("gm-reply.txt, gm.txt");
        }
        let templates = adjutant::templates::Templates::for_campaign(&dir).expect("templates");
        let reminder = templates
            .render(
                "reminder.txt",
                serde_json::json!({
                    "campaign": {"id": campaign.id, "title": campaign.title},
                    "side": campaign.sides[0].name,
                    "phase": "turn 1 orders",
                    "deadline": "Monday 5 January 2026, 20:00 CET",
                    "no_orders": campaign.no_orders_policy,
                    "orders_in": false,
                    "last": false,
                    "another": true,
                }),
            )
            .expect("reminder.txt");
        // The GM's note of who is late (late.txt), with the context the
        // daemon gives it.
        let late = templates
            .render(
                "late.txt",
                serde_json::json!({
                    "campaign": {"id": campaign.id, "title": campaign.title},
                    "phase": "turn 1 orders",
                    "late": [campaign.sides[0].name],
                    "deadline": "Monday 5 January 2026, 20:00 CET",
                    "grace_until": "Monday 5 January 2026, 22:00 CET",
                    "no_orders": campaign.no_orders_policy,
                }),
            )
            .expect("late.txt");
        assert!(late.contains(&campaign.sides[0].name));
        // An observer's note with the public chronicle's link (observed.txt),
        // with the context the resolution's mail gives it.
        let observed = templates
            .render(
                "observed.txt",
                serde_json::json!({
                    "campaign": campaign.title,
                    "phase": "turn 1 orders",
                    "k": 1,
                    "link": "https://club.invalid/c/public-0123/r/turn-0001.html",
                    "finished": null,
                    "deadline": "Monday 5 January 2026, 20:00 CET",
                }),
            )
            .expect("observed.txt");
        assert!(observed.contains("https://club.invalid/c/public-0123/r/turn-0001.html"));
        assert!(reminder.contains("turn 1 orders"));
        // The GM's notice that an address is no longer answered (quiet.txt),
        // with the context ingest gives it; stranger.txt answers the
        // stranger above.
        let quiet = templates
            .render(
                "quiet.txt",
                serde_json::json!({
                    "sender": "robot@example.invalid",
                    "campaign": campaign.id,
                    "refused": 5,
                    "limit": 5,
                }),
            )
            .expect("quiet.txt");
        assert!(quiet.contains("robot@example.invalid"));
        // The GM's notice that an address is no longer acknowledged
        // (quiet-acks.txt), with the context ingest gives it.
        let quiet_acks = templates
            .render(
                "quiet-acks.txt",
                serde_json::json!({
                    "sender": "script@example.invalid",
                    "campaign": campaign.id,
                    "accepted": 30,
                    "limit": 30,
                }),
            )
            .expect("quiet-acks.txt");
        assert!(quiet_acks.contains("script@example.invalid"));
        // A message set aside (failed.txt to its sender, failed-gm.txt to
        // the GM), with the context ingest gives them.
        let failed = templates
            .render("failed.txt", serde_json::json!({}))
            .expect("failed.txt");
        assert!(failed.contains("Nothing in it was taken"));
        let failed_gm = templates
            .render(
                "failed-gm.txt",
                serde_json::json!({
                    "campaign": campaign.id,
                    "sender": "player@example.invalid",
                    "subject": "orders",
                    "received": "2026-01-05T10:00:00Z",
                    "why": "stored data is damaged",
                    "inbound": 7,
                    "told_sender": true,
                }),
            )
            .expect("failed-gm.txt");
        assert!(failed_gm.contains("stored data is damaged"));
        let mail = store.queued_mail(&campaign.id).expect("outbox");
        for purpose in [".opening.", ".r1.manifest.", ".r1.result.", ".r1.umpire."] {
            assert!(
                mail.iter().any(|m| m.message_id.contains(purpose)),
                "{}: no {purpose} mail",
                campaign.id
            );
        }
        if let Some((address, _)) = gm_by_mail {
            let reply = mail
                .iter()
                .find(|m| m.recipient == address && m.body.starts_with("Your commands"))
                .expect("the GM's reply lists the commands");
            assert!(reply.body.contains(": status\n"), "{}", reply.body);
            assert!(reply.body.contains(": extend 1d\n"), "{}", reply.body);
            assert!(
                mail.iter()
                    .any(|m| m.message_id.contains(".gm") && m.recipient != address),
                "{}: no announcement of the GM's command",
                campaign.id
            );
        }
        let report = mail
            .iter()
            .find(|m| m.message_id.contains(".r1.result."))
            .expect("a report");
        assert!(report.body.contains("== Despatch =="));
    }
    assert!(seen > 0, "no shipped campaign found");
}

/// A GM edits the report template in the campaign folder: the next report
/// uses it, with no rebuild and no restart.
#[test]
fn a_template_edited_in_the_campaign_folder_changes_the_report() {
    let dir = tempfile::tempdir().expect("dir");
    let folder = dir.path().join("campaign");
    let campaign = adjutant::demo::bundled_campaign(&folder).expect("loads");
    let mut store = Store::open(&dir.path().join("data")).expect("store");
    engine::init(&mut store, &campaign, &folder, &now()).expect("init");
    std::fs::create_dir_all(folder.join("templates")).expect("templates/");
    std::fs::write(
        folder.join("templates/report.txt"),
        "Despatch number {{ k }} for {{ reader.name }}.",
    )
    .expect("write");
    engine::resolve_now(&mut store, &campaign.id, &now()).expect("resolves");
    std::fs::write(
        folder.join("templates/report.txt"),
        "A second hand wrote number {{ k }}.",
    )
    .expect("write");
    engine::resolve_now(&mut store, &campaign.id, &now()).expect("resolves");
    let bodies: Vec<String> = store
        .queued_mail(&campaign.id)
        .expect("outbox")
        .into_iter()
        .filter(|m| m.recipient == "lannes@french.invalid" && m.message_id.contains(".result."))
        .map(|m| m.body)
        .collect();
    assert_eq!(
        bodies,
        [
            "Despatch number 1 for IIe Corps de l'Armée d'Allemagne.\n",
            "A second hand wrote number 2.\n"
        ]
    );
}

/// The HTML report and the caption can be replaced the same way.
#[test]
fn the_html_report_and_caption_can_be_replaced_too() {
    use adjutant::report::{self, Audience, sample};
    let dir = tempfile::tempdir().expect("dir");
    std::fs::create_dir_all(dir.path().join("templates")).expect("templates/");
    std::fs::write(
        dir.path().join("templates/report.html"),
        "<p>{{ map.caption }}</p>",
    )
    .expect("write");
    std::fs::write(
        dir.path().join("templates/map-caption.txt"),
        "Our field & theirs",
    )
    .expect("write");
    let templates = adjutant::templates::Templates::for_campaign(dir.path()).expect("loads");
    let turn = sample::demo_turn().expect("sample");
    let orders = Default::default();
    let (prior, next) = turn.readings().expect("the states read");
    let input = report::ReportInput {
        campaign: &turn.campaign,
        ruleset: adjutant::rules::ruleset_for(&turn.prior.ruleset).expect("known"),
        k: 3,
        phase: "turn 2 orders (austrian active)",
        prior: &prior,
        next: &next,
        events: &turn.events,
        rolls: &turn.rolls,
        orders: &orders,
        manifest_digest: String::new(),
        audit: Default::default(),
        chronicle: Default::default(),
        deadline: None,
    };
    let prepared = report::prepare(&input, Audience::Gm).expect("prepares");
    let r =
        report::render(&input, &prepared, (&turn.campaign.gm).into(), &templates).expect("renders");
    assert_eq!(r.html, "<p>Our field &amp; theirs</p>\n");
}
