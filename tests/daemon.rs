//! The daemon's event loop, driven to quiescence with a fixed clock: mail in
//! through a Maildir, acknowledgements, resolution when every side is in,
//! reminders once per phase and side, everything out through the file
//! transport, and a clean stop.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use chrono::{DateTime, Duration, Utc};

use adjutant::daemon::{Daemon, DaemonConfig, Event, MaildirSource};
use adjutant::inbox::maildir;
use adjutant::ingest::IngestConfig;
use adjutant::lifecycle::FixedClock;
use adjutant::outbound::{DeliveryPolicy, FileTransport};
use adjutant::store::{OutboxStatus, Store};

mod support;
use support::crash_harness::{contents, copy_dir};

const ID: &str = "sound-the-charge-demo";

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-01-05T09:00:00Z")
        .expect("valid")
        .with_timezone(&Utc)
}

struct Setup {
    dir: tempfile::TempDir,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().expect("dir");
        adjutant::demo::bundled_campaign(&dir.path().join("campaign")).expect("loads");
        Setup { dir }
    }
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    fn daemon(&self) -> Daemon {
        let store = Store::open(&self.path("data")).expect("store");
        let mut d = Daemon::new(
            store,
            Some(Box::new(MaildirSource::new(self.path("Maildir")))),
            Box::new(FileTransport::new(self.path("mail"))),
            DeliveryPolicy {
                from: "adjutant <adjutant@example.org>".into(),
                ..DeliveryPolicy::default()
            },
            IngestConfig {
                own_addresses: vec!["adjutant@example.org".into()],
                ..IngestConfig::default()
            },
            Duration::seconds(30),
        );
        d.start(&[self.path("campaign").as_path()], &FixedClock(t0()))
            .expect("starts");
        d
    }
    fn mail_files(&self) -> Vec<String> {
        files(&self.path("mail"))
    }
}

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn orders(n: u32) -> Vec<u8> {
    format!(
        "From: Jean Lannes <lannes@french.invalid>\r\nTo: adjutant@example.org\r\n\
         Subject: [{ID}] orders\r\nMessage-ID: <orders-{n}@french.invalid>\r\n\
         Date: Mon, 05 Jan 2026 10:00:00 +0000\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n\
         passphrase: vive-l-empereur\r\n1-ligne: hold\r\n"
    )
    .into_bytes()
}

/// The passive side's word that it sends no orders this phase.
fn no_orders(n: u32) -> Vec<u8> {
    format!(
        "From: Hohenzollern <hohenzollern@austrian.invalid>\r\nTo: adjutant@example.org\r\n\
         Subject: [{ID}] orders\r\nMessage-ID: <none-{n}@austrian.invalid>\r\n\
         Date: Mon, 05 Jan 2026 10:00:00 +0000\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n\
         passphrase: gott-erhalte-franz\r\nno orders\r\n"
    )
    .into_bytes()
}

fn count(names: &[String], part: &str) -> usize {
    names.iter().filter(|n| n.contains(part)).count()
}

#[test]
fn the_loop_acknowledges_resolves_and_mails_everything_once() {
    let s = Setup::new();
    let mut d = s.daemon();
    let clock = FixedClock(t0());
    d.run_until_quiet(&clock, 20).expect("settles");
    // The opening message, to the GM and both players.
    assert_eq!(
        count(&s.mail_files(), ".opening."),
        3,
        "{:?}",
        s.mail_files()
    );

    maildir::deliver(&s.path("Maildir"), "1.orders", &orders(1)).expect("delivered");
    maildir::deliver(&s.path("Maildir"), "2.none", &no_orders(1)).expect("delivered");
    let clock = FixedClock(t0() + Duration::hours(1));
    let passes = d.run_until_quiet(&clock, 20).expect("settles");
    let events: Vec<&Event> = passes.iter().flat_map(|p| &p.events).collect();
    assert!(events.contains(&&Event::MailArrived), "{events:?}");
    assert!(
        events.contains(&&Event::DeadlineReached {
            campaign: ID.into()
        }),
        "every side is in, so the phase closes: {events:?}"
    );
    let names = s.mail_files();
    assert_eq!(count(&names, ".reply."), 2, "{names:?}");
    assert_eq!(count(&names, ".r1.manifest."), 3, "{names:?}");
    assert_eq!(count(&names, ".r1.result."), 3, "{names:?}");
    let ack = names
        .iter()
        .filter(|n| n.contains(".reply."))
        .map(|n| std::fs::read_to_string(s.path("mail").join(n)).expect("reads"))
        .find(|m| m.contains("To: lannes@french.invalid"))
        .expect("the French acknowledgement");
    assert!(
        ack.contains("In-Reply-To: <orders-1@french.invalid>"),
        "{ack}"
    );
    assert!(ack.contains("Auto-Submitted: auto-replied"), "{ack}");
    assert!(files(&s.path("Maildir").join("new")).is_empty());
    assert!(
        d.store()
            .outbox(Some(ID))
            .expect("outbox")
            .iter()
            .all(|e| e.status == OutboxStatus::Sent)
    );

    // Nothing more to do: another pass finds nothing and sends nothing.
    let before = s.mail_files();
    let passes = d.run_until_quiet(&clock, 5).expect("settles");
    assert_eq!(passes.len(), 1);
    assert!(passes[0].events.is_empty());
    assert_eq!(s.mail_files(), before);
}

#[test]
fn a_silent_side_is_reminded_once_even_across_a_restart() {
    let s = Setup::new();
    let mut d = s.daemon();
    d.run_until_quiet(&FixedClock(t0()), 20).expect("settles");
    let deadline = d.store().campaign(ID).expect("campaign").deadline;
    // The demo campaign reminds 12 hours before the deadline.
    let early = FixedClock(deadline - Duration::hours(13));
    d.run_until_quiet(&early, 20).expect("settles");
    assert_eq!(count(&s.mail_files(), ".remind."), 0);

    let within = FixedClock(deadline - Duration::hours(11));
    let passes = d.run_until_quiet(&within, 20).expect("settles");
    assert!(
        passes[0].events.contains(&Event::ReminderDue {
            campaign: ID.into(),
            sides: vec!["french".into()]
        }),
        "{:?}",
        passes[0].events
    );
    let names = s.mail_files();
    assert_eq!(
        count(&names, ".remind.turn-1-orders.french."),
        1,
        "{names:?}"
    );
    let reminder = names.iter().find(|n| n.contains(".remind.")).expect("sent");
    let raw = std::fs::read(s.path("mail").join(reminder)).expect("reads");
    let m = mail_parser::MessageParser::default()
        .parse(&raw)
        .expect("parses");
    let to = m.to().and_then(|a| a.first()).and_then(|a| a.address());
    assert_eq!(to, Some("lannes@french.invalid"));
    let body = m.body_text(0).expect("body");
    assert!(body.contains("no orders from"), "{body}");
    assert!(body.contains("stands fast"), "{body}");

    d.run_until_quiet(&FixedClock(deadline - Duration::hours(2)), 20)
        .expect("settles");
    drop(d);
    let mut d = s.daemon();
    d.run_until_quiet(&FixedClock(deadline - Duration::hours(1)), 20)
        .expect("settles");
    assert_eq!(count(&s.mail_files(), ".remind."), 1, "one reminder, ever");

    // At the deadline the phase resolves without the silent side.
    let passes = d
        .run_until_quiet(&FixedClock(deadline), 20)
        .expect("settles");
    assert!(passes[0].events.contains(&Event::DeadlineReached {
        campaign: ID.into()
    }));
    assert_eq!(count(&s.mail_files(), ".r1.result."), 3);
}

#[test]
fn a_shutdown_request_stops_the_loop_before_any_work() {
    let s = Setup::new();
    let mut d = s.daemon();
    d.shutdown_flag().store(true, Ordering::SeqCst);
    let passes = d.run_until_quiet(&FixedClock(t0()), 20).expect("stops");
    assert_eq!(passes.len(), 1);
    assert_eq!(passes[0].events, vec![Event::Shutdown]);
    assert!(s.mail_files().is_empty(), "nothing was sent");
    // `run` returns at once too.
    d.run(&FixedClock(t0())).expect("stops cleanly");
}

/// Lateness (issue 30): a last reminder nearer the deadline, a grace that
/// keeps the phase open for a side that has sent nothing, and a note to the
/// GM at the deadline of who is late.
#[test]
fn a_late_side_gets_a_last_reminder_and_a_grace_and_the_gm_is_told() {
    let s = Setup::new();
    let file = s.path("campaign").join("campaign.toml");
    let text = std::fs::read_to_string(&file).expect("campaign file");
    let text = text.replacen(
        "reminder = \"12h\"",
        "reminder = \"12h\"\nlast_reminder = \"2h\"\ngrace = \"3h\"",
        1,
    );
    std::fs::write(&file, text).expect("written");
    let mut d = s.daemon();
    d.run_until_quiet(&FixedClock(t0()), 20).expect("settles");
    let deadline = d.store().campaign(ID).expect("campaign").deadline;
    d.run_until_quiet(&FixedClock(deadline - Duration::hours(11)), 20)
        .expect("settles");
    assert_eq!(count(&s.mail_files(), ".remind.turn-1-orders.french."), 1);
    d.run_until_quiet(&FixedClock(deadline - Duration::hours(1)), 20)
        .expect("settles");
    let names = s.mail_files();
    let last = names
        .iter()
        .find(|n| n.contains(".remind-last.turn-1-orders.french."))
        .expect("a last reminder");
    let body = std::fs::read_to_string(s.path("mail").join(last)).expect("reads");
    assert!(body.contains("This is the last reminder"), "{body}");

    // Past the deadline the grace holds the phase open, and the GM is told.
    let late = FixedClock(deadline + Duration::hours(1));
    d.run_until_quiet(&late, 20).expect("settles");
    let names = s.mail_files();
    assert_eq!(
        count(&names, ".r1.manifest."),
        0,
        "closed in its grace: {names:?}"
    );
    let note = names
        .iter()
        .find(|n| n.contains(".late.turn-1-orders."))
        .expect("the GM's note");
    let body = std::fs::read_to_string(s.path("mail").join(note)).expect("reads");
    assert!(body.contains("umpire@example.org"), "to the GM: {body}");
    assert!(
        body.contains("IIe Corps") && body.contains("(french)"),
        "{body}"
    );
    assert!(
        body.contains("holds the phase open for them until"),
        "{body}"
    );

    // Orders in the grace are taken, and close the phase: no side is late.
    maildir::deliver(&s.path("Maildir"), "1.orders", &orders(1)).expect("delivered");
    d.run_until_quiet(
        &FixedClock(deadline + Duration::hours(1) + Duration::minutes(1)),
        20,
    )
    .expect("settles");
    let names = s.mail_files();
    assert_eq!(count(&names, ".reply."), 1, "{names:?}");
    assert_eq!(count(&names, ".r1.result."), 3, "{names:?}");
    assert_eq!(count(&names, ".late."), 1, "told once");
    let manifest = d
        .store()
        .resolutions(ID)
        .expect("resolutions")
        .remove(0)
        .manifest_text;
    assert!(!manifest.contains("orders french none"), "{manifest}");
}

#[test]
fn the_next_wake_is_the_nearest_of_poll_reminder_deadline_and_retry() {
    let s = Setup::new();
    let mut d = s.daemon();
    d.run_until_quiet(&FixedClock(t0()), 20).expect("settles");
    let deadline = d.store().campaign(ID).expect("campaign").deadline;
    assert_eq!(
        d.next_wake(t0()).expect("wake"),
        t0() + Duration::seconds(30)
    );
    let near = deadline - Duration::hours(12) - Duration::seconds(10);
    assert_eq!(
        d.next_wake(near).expect("wake"),
        deadline - Duration::hours(12)
    );
    let nearer = deadline - Duration::seconds(5);
    assert_eq!(d.next_wake(nearer).expect("wake"), deadline);
}

#[test]
fn the_example_config_loads() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/adjutant.example.toml");
    let config = DaemonConfig::load(&path).expect("the example loads");
    assert_eq!(config.log_level, tracing::Level::INFO);
    assert!(config.data_dir.is_absolute());
    // The mail limits are settings, shipped at their defaults.
    assert_eq!(config.mail.limits(), adjutant::mail::Limits::default());
}

#[test]
fn a_restart_after_a_crash_mid_send_writes_no_message_twice() {
    let s = Setup::new();
    let mut d = s.daemon();
    // The crash: one opening message is marked as being sent and written,
    // and the process dies before recording the result.
    let entry = d.store().outbox_due(t0(), 1).expect("due").remove(0);
    assert!(
        d.store_mut()
            .outbox_begin_attempt(entry.id, t0())
            .expect("marked")
    );
    let files_transport = FileTransport::new(s.path("mail"));
    let built = adjutant::outbound::build(&entry.mail, "adjutant@example.org", entry.created_at)
        .expect("builds");
    adjutant::outbound::Transport::send(&files_transport, &built).expect("written");
    let first = std::fs::metadata(files_transport.path_for(&entry.mail.message_id))
        .and_then(|m| m.modified())
        .expect("written");
    drop(d);

    std::thread::sleep(std::time::Duration::from_millis(20));
    let mut d = s.daemon();
    d.run_until_quiet(&FixedClock(t0()), 20).expect("settles");
    assert_eq!(count(&s.mail_files(), ".opening."), 3);
    let again = std::fs::metadata(files_transport.path_for(&entry.mail.message_id))
        .and_then(|m| m.modified())
        .expect("still there");
    assert_eq!(
        first, again,
        "the file written before the crash was not written again"
    );
    let e = d
        .store()
        .outbox(None)
        .expect("outbox")
        .into_iter()
        .find(|e| e.id == entry.id)
        .expect("kept");
    assert_eq!((e.status, e.attempts), (OutboxStatus::Sent, 1));
}

/// An inbox that cannot be reached, as an IMAP server may not be.
struct Unreachable;

impl adjutant::daemon::InboxSource for Unreachable {
    fn describe(&self) -> String {
        "unreachable".into()
    }
    fn pending(&mut self) -> Result<bool, adjutant::daemon::SourceError> {
        Err(adjutant::daemon::SourceError {
            source_name: "unreachable".into(),
            message: "connection refused".into(),
        })
    }
    fn take(
        &mut self,
        _: &mut Store,
        _: &IngestConfig,
        _: &dyn adjutant::lifecycle::Clock,
    ) -> Result<Vec<(String, adjutant::ingest::Outcome)>, adjutant::daemon::SourceError> {
        Ok(Vec::new())
    }
}

#[test]
fn an_unreachable_inbox_does_not_stop_deadlines_or_mail() {
    let s = Setup::new();
    let store = Store::open(&s.path("data")).expect("store");
    let mut d = Daemon::new(
        store,
        Some(Box::new(Unreachable)),
        Box::new(FileTransport::new(s.path("mail"))),
        DeliveryPolicy::default(),
        IngestConfig::default(),
        Duration::seconds(30),
    );
    d.start(&[s.path("campaign").as_path()], &FixedClock(t0()))
        .expect("starts");
    d.run_until_quiet(&FixedClock(t0()), 20).expect("settles");
    assert_eq!(count(&s.mail_files(), ".opening."), 3);
    let deadline = d.store().campaign(ID).expect("campaign").deadline;
    d.run_until_quiet(&FixedClock(deadline), 20)
        .expect("settles");
    assert_eq!(count(&s.mail_files(), ".r1.result."), 3);
}

/// docs/PLAYERS.md: "A phase closes at its deadline, or as soon as every
/// side has sent orders or said it sends none." A message behind the one
/// that brings the last side in, waiting in the same Maildir, comes after
/// the phase closed: the French word "no orders" there is for the next
/// phase, and must not withdraw the orders they sent for this one.
#[test]
fn mail_waiting_behind_the_last_side_in_is_for_the_next_phase() {
    let s = Setup::new();
    let mut d = s.daemon();
    d.run_until_quiet(&FixedClock(t0()), 20).expect("settles");
    let maildir = s.path("Maildir");
    maildir::deliver(&maildir, "1.orders", &orders(1)).expect("delivered");
    maildir::deliver(&maildir, "2.none", &no_orders(1)).expect("delivered");
    let french_none = String::from_utf8(no_orders(2))
        .expect("text")
        .replace(
            "Hohenzollern <hohenzollern@austrian.invalid>",
            "Jean Lannes <lannes@french.invalid>",
        )
        .replace("gott-erhalte-franz", "vive-l-empereur")
        .replace("none-2@austrian", "none-2@french");
    maildir::deliver(&maildir, "3.none", french_none.as_bytes()).expect("delivered");

    let clock = FixedClock(t0() + Duration::hours(1));
    let passes = d.run_until_quiet(&clock, 20).expect("settles");
    let notes: Vec<&String> = passes.iter().flat_map(|p| &p.notes).collect();
    let resolved = notes
        .iter()
        .position(|n| n.contains("resolution 1"))
        .expect("the phase closed");
    let third = notes
        .iter()
        .position(|n| n.contains("3.none"))
        .expect("the third message taken");
    assert!(third > resolved, "taken after the phase closed: {notes:#?}");
    assert!(
        notes[third].contains("no orders: sound-the-charge-demo french"),
        "{notes:#?}"
    );
    assert!(
        !notes[third].contains("withdrawn"),
        "nothing of the closed phase withdrawn: {notes:#?}"
    );
    let manifest = d.store().resolutions(ID).expect("resolutions");
    assert_eq!(manifest.len(), 1);
    assert!(
        engine_sides_in(d.store()).contains("french"),
        "the French word counts for the phase that opened"
    );
    assert!(files(&maildir.join("new")).is_empty());
}

fn engine_sides_in(store: &Store) -> std::collections::BTreeSet<String> {
    adjutant::engine::sides_in(store, ID).expect("sides")
}

/// A daemon over the store in `root/data` that writes its mail to
/// `root/mail`, with no inbox, resolving `at_once` campaigns at a time.
fn daemon_in(root: &Path, at_once: usize) -> Daemon {
    Daemon::new(
        Store::open(&root.join("data")).expect("store"),
        None,
        Box::new(FileTransport::new(root.join("mail"))),
        DeliveryPolicy {
            from: "adjutant <adjutant@example.org>".into(),
            ..DeliveryPolicy::default()
        },
        IngestConfig::default(),
        Duration::seconds(30),
    )
    .resolving_at_once(at_once)
}

#[test]
fn campaigns_due_together_resolve_side_by_side_as_they_would_one_by_one() {
    // The four rulesets' demos, registered once (each campaign's chain is
    // drawn at random when it is registered) and copied, so that both
    // copies hold the same secrets.
    let dir = tempfile::tempdir().expect("dir");
    let (one_by_one, together) = (dir.path().join("one-by-one"), dir.path().join("together"));
    let mut folders = Vec::new();
    for ruleset in adjutant::rules::registry::RULESETS {
        let demo = adjutant::demo::demo_of(Some(ruleset.id())).expect("a demo");
        let folder = dir.path().join("campaigns").join(ruleset.id());
        adjutant::demo::demo_campaign(&demo, &folder).expect("demo campaign");
        folders.push(folder);
    }
    let folders: Vec<&Path> = folders.iter().map(PathBuf::as_path).collect();
    {
        let mut d = daemon_in(&one_by_one, 1);
        d.start(&folders, &FixedClock(t0())).expect("starts");
        d.run_until_quiet(&FixedClock(t0()), 20).expect("settles");
    }
    copy_dir(&one_by_one, &together);

    // Long after every deadline: each campaign's first phase is due.
    let late = FixedClock(t0() + Duration::days(30));
    let mut results = Vec::new();
    for (root, at_once) in [(&one_by_one, 1), (&together, 4)] {
        let mut d = daemon_in(root, at_once);
        d.start(&folders, &late).expect("starts");
        let passes = d.run_until_quiet(&late, 20).expect("settles");
        let resolved: Vec<&String> = passes
            .iter()
            .flat_map(|p| &p.notes)
            .filter(|n| n.contains(": resolution 1 "))
            .collect();
        assert_eq!(resolved.len(), folders.len(), "{passes:?}");
        assert!(passes.iter().all(|p| p.failures.is_empty()), "{passes:?}");
        let mut archives = BTreeMap::new();
        for id in d.store().campaign_ids().expect("ids") {
            let out = root.join("archive").join(&id);
            adjutant::archive::export::export(d.store(), &id, &out).expect("exports");
            archives.insert(id, contents(&out));
        }
        results.push((contents(&root.join("mail")), archives));
    }
    let (mail, archives) = &results[0];
    assert_eq!(archives.len(), folders.len());
    assert!(
        mail.keys()
            .filter(|n| n.to_string_lossy().contains(".r1.result."))
            .count()
            >= folders.len(),
        "each campaign mailed its results: {:?}",
        mail.keys()
    );
    assert!(
        results[1].0 == *mail,
        "the mail written differs: {:?} against {:?}",
        results[1].0.keys(),
        mail.keys()
    );
    assert!(results[1].1 == *archives, "the archives differ");
}

#[test]
fn the_maps_of_mail_sent_long_ago_leave_the_store_as_the_policy_says() {
    let s = Setup::new();
    let mut d = s.daemon();
    d.run_until_quiet(&FixedClock(t0()), 20).expect("settles");
    maildir::deliver(&s.path("Maildir"), "1.orders", &orders(1)).expect("delivered");
    maildir::deliver(&s.path("Maildir"), "2.none", &no_orders(1)).expect("delivered");
    let sent_at = t0() + Duration::hours(1);
    d.run_until_quiet(&FixedClock(sent_at), 20)
        .expect("settles");
    let attachments = |d: &Daemon| {
        d.store()
            .outbox(Some(ID))
            .expect("outbox")
            .iter()
            .map(|e| e.mail.parts.len())
            .sum::<usize>()
    };
    // The attachments of the opening mail, and of the mail sent an hour
    // later with the results (their maps).
    let sent_when = |d: &Daemon, when| {
        d.store()
            .outbox(Some(ID))
            .expect("outbox")
            .iter()
            .filter(|e| e.sent_at == Some(when))
            .map(|e| e.mail.parts.len())
            .sum::<usize>()
    };
    let (opening, later) = (sent_when(&d, t0()), sent_when(&d, sent_at));
    assert!(opening >= 3, "the opening mail carries the map");
    assert!(later >= 3, "so do the results");
    assert_eq!(attachments(&d), opening + later);

    // The default keeps them thirty days from their sending.
    let kept = Duration::days(i64::from(
        DeliveryPolicy::default().keep_sent_attachments_days,
    ));
    assert_eq!(kept, Duration::days(30));
    let second = Duration::seconds(1);
    assert_eq!(d.drop_old_attachments(&FixedClock(t0() + kept)), 0);
    assert_eq!(attachments(&d), opening + later);
    assert_eq!(
        d.drop_old_attachments(&FixedClock(t0() + kept + second)),
        opening
    );
    assert_eq!(attachments(&d), later, "the results keep theirs");
    assert_eq!(d.drop_old_attachments(&FixedClock(sent_at + kept)), 0);
    assert_eq!(
        d.drop_old_attachments(&FixedClock(sent_at + kept + second)),
        later
    );
    assert_eq!(attachments(&d), 0);
    assert!(
        d.store().outbox(Some(ID)).expect("outbox").iter().any(|e| e
            .mail
            .message_id
            .contains(".r1.result.")
            && !e.mail.body.is_empty()),
        "the text of each message stays"
    );
}

#[test]
fn a_policy_of_no_days_keeps_every_map() {
    let s = Setup::new();
    let mut d = s.daemon();
    d.run_until_quiet(&FixedClock(t0()), 20).expect("settles");
    maildir::deliver(&s.path("Maildir"), "1.orders", &orders(1)).expect("delivered");
    maildir::deliver(&s.path("Maildir"), "2.none", &no_orders(1)).expect("delivered");
    d.run_until_quiet(&FixedClock(t0() + Duration::hours(1)), 20)
        .expect("settles");
    drop(d);
    let store = Store::open(&s.path("data")).expect("store");
    let mut d = Daemon::new(
        store,
        None,
        Box::new(FileTransport::new(s.path("mail"))),
        DeliveryPolicy {
            keep_sent_attachments_days: 0,
            ..DeliveryPolicy::default()
        },
        IngestConfig::default(),
        Duration::seconds(30),
    );
    assert_eq!(
        d.drop_old_attachments(&FixedClock(t0() + Duration::days(4000))),
        0
    );
}

/// Issue 28: a daemon that refused to start because a campaign's GM writes
/// from the daemon's own address had registered the campaign first (its
/// chain drawn, its opening mail queued). Everything is now checked before
/// anything is registered.
#[test]
fn a_daemon_that_refuses_to_start_registers_nothing() {
    let s = Setup::new();
    let store = Store::open(&s.path("data")).expect("store");
    let mut d = Daemon::new(
        store,
        None,
        Box::new(FileTransport::new(s.path("mail"))),
        DeliveryPolicy::default(),
        IngestConfig {
            own_addresses: vec!["umpire@example.org".into()],
            ..IngestConfig::default()
        },
        Duration::seconds(30),
    );
    let refused = d
        .start(&[s.path("campaign").as_path()], &FixedClock(t0()))
        .expect_err("the GM writes from adjutant's own address");
    assert!(
        refused.to_string().contains("umpire@example.org"),
        "{refused}"
    );
    assert!(d.store().campaign_ids().expect("ids").is_empty());
    assert!(d.store().outbox(None).expect("outbox").is_empty());
}

/// Issue 31, item 8: the modes of the data directory and the store were
/// checked only when the daemon started, so a running daemon whose data
/// directory and database were made 0755 and 0644 went on without a word.
/// Each pass looks again; a loosened store stops the daemon with a clear
/// error, and the GM is mailed a note before it stops.
#[test]
fn a_store_loosened_while_the_daemon_runs_stops_it_and_the_gm_is_told() {
    use std::os::unix::fs::PermissionsExt;
    for (loosened, mode) in [("data", 0o755), ("data/adjutant.sqlite3", 0o644)] {
        let s = Setup::new();
        let mut d = s.daemon();
        let clock = FixedClock(t0());
        d.run_until_quiet(&clock, 20).expect("settles");
        let path = s.path(loosened);
        assert!(path.exists(), "{}", path.display());
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
        let err = d
            .run_until_quiet(&clock, 20)
            .expect_err("a loosened store stops the daemon");
        let words = err.to_string();
        assert!(
            words.contains(&path.display().to_string()) && words.contains(&format!("{mode:04o}")),
            "the error names the file and its mode: {words}"
        );
        let notes: Vec<String> = s
            .mail_files()
            .into_iter()
            .filter(|n| n.contains(".access."))
            .collect();
        assert_eq!(notes.len(), 1, "one note, to the GM: {:?}", s.mail_files());
        let note = std::fs::read_to_string(s.path("mail").join(&notes[0])).expect("note");
        assert!(note.contains("To: umpire@example.org"), "{note}");
        assert!(note.contains(&format!("{mode:04o}")), "{note}");
    }
}
