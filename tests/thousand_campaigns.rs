//! Many campaigns on one host: campaigns of ten players each, of all four
//! rulesets, whose deadlines fall in the same minute, resolved by one
//! running `adjutant daemon` that hands its mail to a real Postfix (which
//! Dovecot delivers), on 127.0.0.1.
//!
//! The campaigns are registered and one side of each sends its orders before
//! the daemon starts; the daemon then sends the opening mail and the
//! reminders, goes quiet, and at the common deadline resolves every campaign
//! and mails every report. The test measures, from the daemon's own store:
//! how long after the deadline the last report was queued and the last
//! message handed to Postfix; and from `/proc`: the daemon's memory and CPU
//! before, during and after the burst. It checks that nothing is lost: each
//! campaign resolved once, every message queued was taken by Postfix and is
//! in its recipient's mailbox exactly once.
//!
//! `cargo test` runs 8 campaigns and checks what holds at any size. The
//! figures in docs/PERFORMANCE.md are those of the release build with a
//! thousand, where the targets are asserted too:
//!
//!     ADJUTANT_LOAD_CAMPAIGNS=1000 ADJUTANT_REQUIRE_MAILSTACK=1 \
//!         cargo test --release --test thousand_campaigns -- --nocapture

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use chrono::{DateTime, SubsecRound, Utc};

use adjutant::engine;
use adjutant::lifecycle::FixedClock;
use adjutant::rules::registry::{RULESETS, ruleset_for};
use adjutant::store::{OutboxStatus, Store};
use support::cheap_hash::cheap_hash;
use support::mailstack::MailStack;
use support::process::{Running, proc_kb};

const ADJUTANT: &str = "adjutant@host.test";
const GM: &str = "gm@host.test";
const PLAYERS: usize = 10;

/// The targets asserted at a thousand campaigns (a release build).
const RESOLVED_WITHIN: Duration = Duration::from_secs(60);
const SENT_WITHIN: Duration = Duration::from_secs(300);
const RSS_AFTER_BURST_KB: u64 = 40 * 1024;
/// "Near zero": a hundredth of one core while nothing is due.
const IDLE_CPU_SHARE: f64 = 0.01;

fn player(n: usize) -> String {
    format!("p{n}@players.test")
}

fn campaigns_asked() -> usize {
    std::env::var("ADJUTANT_LOAD_CAMPAIGNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8)
}

/// The CPU time the process has used, user and system, in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command name, which is in parentheses and may
    // hold spaces: utime and stime are the 14th and 15th of the line.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let tick = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    tick(11) + tick(12)
}

fn ticks_per_second() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(100.0)
}

/// Writes campaign `n`: the bundled demo of one of the four rulesets, taken
/// in turn, under an id of its own, with the host's GM, ten players shared
/// out over its sides, and a one-hour phase with no fixed hour of day (so
/// that the deadline is exactly an hour after registration).
fn write_campaign(dir: &Path, n: usize, hashes: &[String]) -> PathBuf {
    let ruleset = RULESETS[n % RULESETS.len()];
    let demo = adjutant::demo::demo_of(Some(ruleset.id())).expect("every ruleset has a demo");
    let folder = dir.join(format!("c{n:04}"));
    adjutant::demo::demo_campaign(&demo, &folder).expect("demo campaign");
    let path = folder.join("campaign.toml");
    let text = std::fs::read_to_string(&path).expect("campaign.toml");
    let mut table: toml::Table = text.parse().expect("campaign.toml parses");
    let sides: Vec<String> = table["side"]
        .as_array()
        .expect("sides")
        .iter()
        .map(|s| s["id"].as_str().expect("side id").to_string())
        .collect();
    let campaign = table["campaign"].as_table_mut().expect("[campaign]");
    campaign.insert("id".into(), format!("load-{n:04}").into());
    let gm = table["gm"].as_table_mut().expect("[gm]");
    gm.insert("address".into(), GM.into());
    gm.insert("passphrase_hash".into(), hashes[PLAYERS].clone().into());
    let players: Vec<toml::Value> = (0..PLAYERS)
        .map(|p| {
            let mut t = toml::Table::new();
            t.insert("name".into(), format!("Player {p}").into());
            t.insert("address".into(), player(p).into());
            t.insert("side".into(), sides[p % sides.len()].clone().into());
            t.insert("time_zone".into(), "Europe/Paris".into());
            t.insert("passphrase_hash".into(), hashes[p].clone().into());
            toml::Value::Table(t)
        })
        .collect();
    table.insert("player".into(), toml::Value::Array(players));
    let schedule = table["schedule"].as_table_mut().expect("[schedule]");
    let phases: Vec<String> = schedule
        .keys()
        .filter(|k| {
            !matches!(
                k.as_str(),
                "time_zone" | "deadline_time" | "reminder" | "no_orders"
            )
        })
        .cloned()
        .collect();
    for phase in phases {
        schedule.insert(phase, "1h".into());
    }
    schedule.remove("deadline_time");
    schedule.insert("reminder".into(), "30m".into());
    std::fs::write(&path, toml::to_string(&table).expect("toml")).expect("write campaign.toml");
    folder
}

/// Registers every campaign at `registered` and has the first side of each
/// send its bot's orders, as the daemon's store holds them before it starts.
fn register(data: &Path, folders: &[PathBuf], registered: DateTime<Utc>) {
    let mut store = Store::open(data).expect("store");
    let clock = FixedClock(registered);
    for folder in folders {
        let loaded = adjutant::campaign::load(folder).expect("campaign loads");
        engine::init(&mut store, &loaded, folder, &clock).expect("registered");
        let record = store.campaign(&loaded.id).expect("record");
        let state = store.state(&record.current_state_digest).expect("state");
        let ruleset = ruleset_for(&loaded.ruleset.id).expect("ruleset");
        let side = &loaded.sides[0].id;
        let orders = ruleset
            .bot_orders(&ruleset.read(&state).expect("the state reads"), side)
            .join("\n");
        if !orders.trim().is_empty() {
            engine::submit(&mut store, &loaded.id, side, &orders, &clock, None)
                .expect("the bot's orders are taken");
        }
    }
}

fn write_config(root: &Path, stack: &MailStack, folders: &[PathBuf]) -> PathBuf {
    let campaigns: Vec<String> = folders
        .iter()
        .map(|f| format!("{:?}", f.display().to_string()))
        .collect();
    let path = root.join("adjutant.toml");
    std::fs::write(
        &path,
        format!(
            r#"
data_dir = "var"
campaigns = [{campaigns}]
log_level = "info"
[mail]
from = "adjutant <{ADJUTANT}>"
reply_domain = "host.test"
[inbox]
kind = "none"
{transport}[intervals]
poll_seconds = 60
"#,
            campaigns = campaigns.join(", "),
            transport = stack.daemon_transport_config(),
        ),
    )
    .expect("config");
    path
}

/// The outbox as the daemon's store holds it: how many messages are not yet
/// sent, the latest time one was queued and the latest it was sent, each
/// counted from `since`.
struct OutboxSeen {
    unsent: usize,
    dead: usize,
    by_recipient: BTreeMap<String, Vec<String>>,
    last_queued: Option<DateTime<Utc>>,
    last_sent: Option<DateTime<Utc>>,
}

fn outbox_seen(data: &Path, since: DateTime<Utc>) -> OutboxSeen {
    // Straight from the table, without the bodies: a thousand campaigns'
    // mail is gigabytes, and reading it all every poll would load the
    // machine the daemon is measured on.
    let conn = rusqlite::Connection::open_with_flags(
        data.join(adjutant::store::DB_FILE),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("the store, read beside the daemon");
    conn.busy_timeout(Duration::from_secs(30))
        .expect("busy timeout");
    let mut stmt = conn
        .prepare("SELECT status, created_at, sent_at, recipient, message_id FROM outbox")
        .expect("outbox query");
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
            ))
        })
        .expect("outbox rows");
    let time = |t: &str| {
        DateTime::parse_from_rfc3339(t)
            .expect("a stored time")
            .with_timezone(&Utc)
    };
    let mut seen = OutboxSeen {
        unsent: 0,
        dead: 0,
        by_recipient: BTreeMap::new(),
        last_queued: None,
        last_sent: None,
    };
    for row in rows {
        let (status, created, sent, recipient, message_id) = row.expect("an outbox row");
        match status.as_str() {
            s if s == OutboxStatus::Sent.as_str() => {}
            s if s == OutboxStatus::Dead.as_str() => seen.dead += 1,
            _ => seen.unsent += 1,
        }
        let created = time(&created);
        if created >= since {
            seen.last_queued = seen.last_queued.max(Some(created));
        }
        if let Some(sent) = sent.as_deref().map(time).filter(|t| *t >= since) {
            seen.last_sent = seen.last_sent.max(Some(sent));
        }
        seen.by_recipient
            .entry(recipient.to_ascii_lowercase())
            .or_default()
            .push(bare_id(&message_id));
    }
    seen
}

/// How many turns have been resolved, over all campaigns.
fn resolved(data: &Path) -> u64 {
    let store = Store::open(data).expect("store beside the daemon");
    store
        .campaign_ids()
        .expect("ids")
        .iter()
        .map(|id| store.resolution_counts(id).expect("counts").0)
        .sum()
}

/// A Message-ID without its angle brackets.
fn bare_id(id: &str) -> String {
    id.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_string()
}

/// The Message-IDs in `user`'s INBOX, as Dovecot holds them.
fn delivered_ids(stack: &MailStack, user: &str) -> Vec<String> {
    let mut session = stack.session(user);
    let mailbox = session.examine("INBOX").expect("EXAMINE");
    let mut ids = Vec::new();
    if mailbox.exists > 0 {
        let fetches = session
            .fetch("1:*", "BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]")
            .expect("FETCH");
        for f in fetches.iter() {
            let header = String::from_utf8_lossy(f.header().unwrap_or_default()).to_string();
            let id = header
                .split_once(':')
                .map(|(_, v)| v.split_whitespace().collect::<String>())
                .unwrap_or_default();
            ids.push(bare_id(&id));
        }
    }
    let _ = session.logout();
    ids
}

fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_secs(1));
    }
    start.elapsed()
}

fn mb(kb: u64) -> String {
    format!("{:.1} MB", kb as f64 / 1024.0)
}

#[test]
fn campaigns_whose_deadlines_fall_in_one_minute_are_resolved_and_mailed_in_time() {
    let n = campaigns_asked();
    let full = n >= 1000;
    let mut users: Vec<(String, String)> = vec![
        (ADJUTANT.into(), "a-password".into()),
        (GM.into(), "gm-password".into()),
    ];
    users.extend((0..PLAYERS).map(|p| (player(p), format!("p{p}-password"))));
    let users_ref: Vec<(&str, &str)> = users
        .iter()
        .map(|(a, p)| (a.as_str(), p.as_str()))
        .collect();
    let Some(stack) = MailStack::start(&users_ref) else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let root = dir.path();
    let data = root.join("var");

    // Set-up: the campaigns written, registered an hour before a deadline
    // that leaves the daemon time to send the opening mail and reminders
    // first, so that the burst starts from a quiet daemon.
    let setup = Instant::now();
    let hashes: Vec<String> = (0..=PLAYERS)
        .map(|p| cheap_hash(&format!("pass-{p}"), b"thousand-campaigns"))
        .collect();
    let folders: Vec<PathBuf> = (0..n).map(|c| write_campaign(root, c, &hashes)).collect();
    let lead = chrono::Duration::seconds(40 + (n as i64) * 45 / 100);
    // Registering takes longer on a loaded machine (39 s for eight beside
    // other builds, against the lead's 43): one registration into a scratch
    // store, timed, says how long the rest will take, so that the daemon
    // still starts a whole lead before the deadline.
    let scratch = tempfile::tempdir().expect("dir");
    let probe = Instant::now();
    register(&scratch.path().join("var"), &folders[..1], Utc::now());
    let registering = chrono::Duration::from_std(probe.elapsed() * 2 * (n as u32))
        .expect("a short time")
        + chrono::Duration::seconds(2);
    // In whole seconds, as the store keeps its times: a report queued in the
    // deadline's own second is not before it.
    let deadline = (Utc::now() + registering + lead).trunc_subsecs(0);
    register(&data, &folders, deadline - chrono::Duration::hours(1));
    let config = write_config(root, &stack, &folders);
    println!(
        "{n} campaigns written and registered in {:.1} s; deadline in {} s",
        setup.elapsed().as_secs_f64(),
        (deadline - Utc::now()).num_seconds()
    );

    let log_path = root.join("daemon.log");
    let log = std::fs::File::create(&log_path).expect("log");
    let started = Utc::now();
    let mut daemon = Running(Some(
        Command::new(env!("CARGO_BIN_EXE_adjutant"))
            .args(["daemon", "--config"])
            .arg(&config)
            .stdout(Stdio::from(log.try_clone().expect("log")))
            .stderr(Stdio::from(log))
            .spawn()
            .expect("the daemon starts"),
    ));
    let pid = daemon.0.as_ref().expect("running").id();
    let daemon_log = || std::fs::read_to_string(&log_path).unwrap_or_default();

    // Before the deadline: the opening mail and reminders all sent.
    let before = wait_until("opening mail sent", lead.to_std().expect("lead"), || {
        Utc::now() > started + chrono::Duration::seconds(1) && {
            let seen = outbox_seen(&data, started);
            seen.unsent == 0 && seen.dead == 0
        }
    });
    let seen = outbox_seen(&data, started);
    let queued_before: usize = seen.by_recipient.values().map(Vec::len).sum();
    assert!(
        Utc::now() + chrono::Duration::seconds(5) < deadline,
        "the opening mail took too long for the burst to start from quiet: lengthen the lead"
    );
    println!(
        "opening mail and reminders: {queued_before} messages sent {:.1} s after start",
        before.as_secs_f64()
    );
    // Idle: nothing due until the deadline.
    let rss_quiet = proc_kb(pid, "VmRSS");
    let idle_span = (deadline - Utc::now() - chrono::Duration::seconds(2))
        .to_std()
        .unwrap_or_default()
        .min(Duration::from_secs(30));
    let t0 = cpu_ticks(pid);
    std::thread::sleep(idle_span);
    let idle_before = (cpu_ticks(pid) - t0) as f64 / ticks_per_second() / idle_span.as_secs_f64();
    assert_eq!(resolved(&data), 0, "nothing resolves before the deadline");

    // The burst.
    let wait_deadline = (deadline - Utc::now()).to_std().unwrap_or_default();
    std::thread::sleep(wait_deadline);
    let cpu_at_deadline = cpu_ticks(pid);
    let mut rss_peak_burst = 0;
    wait_until("every campaign resolved", Duration::from_secs(600), || {
        rss_peak_burst = rss_peak_burst.max(proc_kb(pid, "VmRSS"));
        resolved(&data) >= n as u64
    });
    wait_until("every report sent", Duration::from_secs(900), || {
        rss_peak_burst = rss_peak_burst.max(proc_kb(pid, "VmRSS"));
        let seen = outbox_seen(&data, deadline);
        seen.unsent == 0 && seen.dead == 0
    });
    let burst_cpu = (cpu_ticks(pid) - cpu_at_deadline) as f64 / ticks_per_second();
    let seen = outbox_seen(&data, deadline);
    let last_queued = (seen.last_queued.expect("reports queued") - deadline)
        .to_std()
        .unwrap_or_default();
    let last_sent = (seen.last_sent.expect("reports sent") - deadline)
        .to_std()
        .unwrap_or_default();
    let total: usize = seen.by_recipient.values().map(Vec::len).sum();
    let reports = total - queued_before;

    // After the burst: idle again, and the memory given back.
    std::thread::sleep(Duration::from_secs(5));
    let t1 = cpu_ticks(pid);
    let idle_after_span = Duration::from_secs(if full { 30 } else { 10 });
    std::thread::sleep(idle_after_span);
    let idle_after =
        (cpu_ticks(pid) - t1) as f64 / ticks_per_second() / idle_after_span.as_secs_f64();
    let rss_after = proc_kb(pid, "VmRSS");
    let (anon_after, file_after) = (proc_kb(pid, "RssAnon"), proc_kb(pid, "RssFile"));
    let hwm = proc_kb(pid, "VmHWM");

    println!(
        "campaigns: {n}, players each: {PLAYERS}, resolutions: {}",
        resolved(&data)
    );
    let store_bytes: u64 = std::fs::read_dir(&data)
        .expect("data dir")
        .filter_map(|e| e.ok()?.metadata().ok())
        .map(|m| m.len())
        .sum();
    println!(
        "store: {:.1} MB in the data directory after {total} messages",
        store_bytes as f64 / 1e6
    );
    println!("reports and other mail of the burst: {reports}");
    println!(
        "last report queued {:.1} s after the deadline",
        last_queued.as_secs_f64()
    );
    println!(
        "last message handed to Postfix {:.1} s after the deadline",
        last_sent.as_secs_f64()
    );
    println!("CPU during the burst: {burst_cpu:.1} s");
    println!(
        "idle CPU: {:.2} % of a core before the burst, {:.2} % after",
        idle_before * 100.0,
        idle_after * 100.0
    );
    println!(
        "memory: {} quiet before the deadline, {} peak in the burst, {} after it \
         ({} of it heap and stacks, {} the program's own file pages; VmHWM {})",
        mb(rss_quiet),
        mb(rss_peak_burst),
        mb(rss_after),
        mb(anon_after),
        mb(file_after),
        mb(hwm)
    );

    // Nothing lost: each campaign resolved once, and every message queued is
    // in its recipient's mailbox exactly once.
    let store = Store::open(&data).expect("store");
    for id in store.campaign_ids().expect("ids") {
        assert_eq!(
            store.resolution_counts(&id).expect("counts").0,
            1,
            "{id} resolved once"
        );
    }
    drop(store);
    for (user, _) in &users {
        let mut expected = seen.by_recipient.get(user).cloned().unwrap_or_default();
        let deadline_for_mail = Instant::now() + Duration::from_secs(120);
        let mut delivered = delivered_ids(&stack, user);
        while delivered.len() < expected.len() && Instant::now() < deadline_for_mail {
            std::thread::sleep(Duration::from_millis(500));
            delivered = delivered_ids(&stack, user);
        }
        expected.sort();
        delivered.sort();
        assert_eq!(
            delivered.len(),
            expected.len(),
            "{user}: every message queued delivered once\n{}",
            stack.logs()
        );
        assert_eq!(delivered, expected, "{user}: the very messages queued");
    }
    assert!(!daemon_log().contains("panicked"), "{}", daemon_log());

    if full {
        assert!(
            last_queued <= RESOLVED_WITHIN,
            "reports queued {last_queued:?} after the deadline"
        );
        assert!(
            last_sent <= SENT_WITHIN,
            "mail sent {last_sent:?} after the deadline"
        );
        assert!(
            rss_after <= RSS_AFTER_BURST_KB,
            "memory after the burst {}",
            mb(rss_after)
        );
        assert!(idle_after <= IDLE_CPU_SHARE, "idle CPU {idle_after}");
        assert!(idle_before <= IDLE_CPU_SHARE, "idle CPU {idle_before}");
    }
    let child = daemon.0.as_mut().expect("running");
    let _ = Command::new("kill").arg(child.id().to_string()).status();
    let status = child.wait().expect("daemon exits");
    assert!(
        status.success(),
        "the daemon stops cleanly: {status}\n{}",
        daemon_log()
    );
    daemon.0 = None;
}
