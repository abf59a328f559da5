//! A measurement, not a check: what fifty players writing at once feel of a
//! running `adjutant daemon`. The private Postfix and Dovecot of the
//! end-to-end tests run on 127.0.0.1; the daemon reads its mailbox over IMAP
//! (IDLE) and sends through Postfix, as a host runs it. Fifty players of one
//! side, each with an address and a passphrase of their own, send one order
//! email each at the same moment; the time from Postfix accepting each
//! message over SMTP until the acknowledgement is in that player's mailbox
//! is measured (Dovecot's Maildir files are counted, without a word to the
//! server, every 5 ms). The first burst is every player's first message
//! since the daemon started (each pays for argon2); the second is the same
//! players again (their passphrases remembered). Then the daemon's memory
//! after the burst, and how long SIGTERM takes in the middle of a third.
//! It asserts nothing about time and is ignored by default; run it with
//!
//!     cargo test --release --test mail_latency -- --ignored --nocapture
//!
//! and copy the printed figures into docs/PERFORMANCE.md with that command.

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use support::mailstack::{MailStack, smtp_send};
use support::process::{Running, proc_kb};

const ADJUTANT: &str = "adjutant@example.org";
const GM: &str = "umpire@example.org";
/// The passive side's one player, who writes nothing: the phase stays open
/// however many of the active side write.
const HOHENZOLLERN: &str = "hohenzollern@austrian.invalid";
const PLAYERS: usize = 50;

fn player(i: usize) -> String {
    format!("officer{i}@french.invalid")
}

fn passphrase(i: usize) -> String {
    format!("en-avant-{i}")
}

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    // Nearest rank: the smallest value with at least p% of values at or below it.
    let rank = (p * sorted.len()).div_ceil(100).max(1);
    sorted[rank - 1]
}

/// The Sound the Charge demo with fifty players on the French side, each
/// with a passphrase of their own, and the Austrian side's one player.
fn campaign_of_fifty(dir: &Path) {
    adjutant::demo::bundled_campaign(dir).expect("campaign");
    let file = dir.join("campaign.toml");
    let text = std::fs::read_to_string(&file).expect("campaign.toml");
    let head = &text[..text.find("[[player]]").expect("players")];
    let tail = &text[text.find("[schedule]").expect("schedule")..];
    let hash = |p: &str| adjutant::campaign::passphrase::hash(p).expect("hashed");
    let mut players = String::new();
    for i in 0..PLAYERS {
        players.push_str(&format!(
            "[[player]]\nname = \"Officer {i}\"\naddress = \"{}\"\nside = \"french\"\n\
             time_zone = \"Europe/Paris\"\npassphrase_hash = \"{}\"\n\n",
            player(i),
            hash(&passphrase(i))
        ));
    }
    players.push_str(&format!(
        "[[player]]\nname = \"FML Hohenzollern\"\naddress = \"{HOHENZOLLERN}\"\nside = \"austrian\"\n\
         time_zone = \"Europe/Vienna\"\npassphrase_hash = \"{}\"\n\n",
        hash("gott-erhalte-franz")
    ));
    std::fs::write(&file, format!("{head}{players}{tail}")).expect("written");
}

/// Every player sends one order email at the same moment; returns, for
/// each, when Postfix accepted it.
fn burst(stack: &MailStack, round: usize) -> BTreeMap<usize, Instant> {
    let barrier = Arc::new(Barrier::new(PLAYERS));
    let port = stack.smtp_port;
    let senders: Vec<_> = (0..PLAYERS)
        .map(|i| {
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                let raw = format!(
                    "From: {from}\r\nTo: {ADJUTANT}\r\nSubject: [sound-the-charge-demo] orders for turn 1\r\n\
                     Message-ID: <latency.{round}.{i}@french.invalid>\r\n\
                     Content-Type: text/plain; charset=utf-8\r\n\r\n\
                     passphrase: {pass}\r\n1-ligne: hold\r\nsalt {round}.{i}\r\n",
                    from = player(i),
                    pass = passphrase(i)
                );
                barrier.wait();
                smtp_send(port, &player(i), &[ADJUTANT], raw.as_bytes()).expect("SMTP accepted");
                (i, Instant::now())
            })
        })
        .collect();
    senders
        .into_iter()
        .map(|s| s.join().expect("sender"))
        .collect()
}

/// When each player's mailbox came to hold `n` messages.
fn arrivals(stack: &MailStack, n: usize) -> BTreeMap<usize, Instant> {
    let mut arrived = BTreeMap::new();
    let deadline = Instant::now() + Duration::from_secs(300);
    while arrived.len() < PLAYERS && Instant::now() < deadline {
        for i in 0..PLAYERS {
            if !arrived.contains_key(&i) && stack.delivered_count(&player(i)) >= n {
                arrived.insert(i, Instant::now());
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(
        arrived.len(),
        PLAYERS,
        "every player answered:\n{}",
        stack.logs()
    );
    arrived
}

fn report(label: &str, sent: &BTreeMap<usize, Instant>, arrived: &BTreeMap<usize, Instant>) {
    let mut latencies: Vec<Duration> = sent
        .iter()
        .map(|(i, at)| arrived[i].saturating_duration_since(*at))
        .collect();
    latencies.sort();
    println!(
        "{label}, {PLAYERS} players at once, SMTP acceptance -> acknowledgement in the player's mailbox: \
         p50 {:.2} s, p95 {:.2} s, max {:.2} s",
        percentile(&latencies, 50).as_secs_f64(),
        percentile(&latencies, 95).as_secs_f64(),
        latencies[latencies.len() - 1].as_secs_f64()
    );
}

#[test]
#[ignore = "a measurement; run with --ignored --nocapture"]
fn fifty_first_time_players_at_once_through_a_running_daemon() {
    let mut users: Vec<(String, String)> = vec![
        (ADJUTANT.into(), "adjutant-pw".into()),
        (GM.into(), "gm-pw".into()),
        (HOHENZOLLERN.into(), "h-pw".into()),
    ];
    users.extend((0..PLAYERS).map(|i| (player(i), format!("pw-{i}"))));
    let users: Vec<(&str, &str)> = users
        .iter()
        .map(|(u, p)| (u.as_str(), p.as_str()))
        .collect();
    let Some(stack) = MailStack::start(&users) else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    campaign_of_fifty(&dir.path().join("campaign"));
    let config = dir.path().join("adjutant.toml");
    std::fs::write(
        &config,
        format!(
            r#"data_dir = "var"
campaigns = ["campaign"]
log_level = "warn"
[mail]
from = "adjutant <{ADJUTANT}>"
[intervals]
poll_seconds = 600
{mail}"#,
            mail = stack.daemon_mail_config(ADJUTANT, &dir.path().join("imap.pw")),
        ),
    )
    .expect("config");
    let mut daemon = Running(Some(
        Command::new(env!("CARGO_BIN_EXE_adjutant"))
            .args(["daemon", "--config", &config.to_string_lossy()])
            .env_remove(adjutant::failpoint::VARIABLE)
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("starts"),
    ));
    let pid = daemon.0.as_ref().expect("running").id();
    // Every player has the opening mail: the daemon is up, and waits on IDLE.
    arrivals(&stack, 1);
    stack.wait_until_queue_is_empty(Duration::from_secs(60));
    std::thread::sleep(Duration::from_secs(2));

    let sent = burst(&stack, 1);
    report(
        "first messages (each pays for argon2)",
        &sent,
        &arrivals(&stack, 2),
    );
    stack.wait_until_queue_is_empty(Duration::from_secs(60));
    // The loop goes quiet and gives back what the burst freed.
    std::thread::sleep(Duration::from_secs(3));
    println!(
        "the daemon after the burst: VmRSS {} kB, VmHWM (peak) {} kB",
        proc_kb(pid, "VmRSS"),
        proc_kb(pid, "VmHWM")
    );

    let sent = burst(&stack, 2);
    report(
        "second messages (passphrases remembered)",
        &sent,
        &arrivals(&stack, 3),
    );
    stack.wait_until_queue_is_empty(Duration::from_secs(60));
    std::thread::sleep(Duration::from_secs(2));

    // SIGTERM in the middle of a batch: once the first acknowledgement of a
    // third burst is out, the rest being handled.
    let _ = burst(&stack, 3);
    let started = Instant::now();
    while (0..PLAYERS).all(|i| stack.delivered_count(&player(i)) < 4) {
        assert!(started.elapsed() < Duration::from_secs(60), "no answer");
        std::thread::sleep(Duration::from_millis(2));
    }
    let answered = (0..PLAYERS)
        .filter(|i| stack.delivered_count(&player(*i)) >= 4)
        .count();
    let mut child = daemon.0.take().expect("running");
    let term = Instant::now();
    let status = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let exited = child.wait().expect("waits");
    println!(
        "SIGTERM with {answered} of {PLAYERS} answered: the daemon stopped in {:.2} s ({exited})",
        term.elapsed().as_secs_f64()
    );
}
