//! The kill schedule of `tests/kill_schedule.rs` through a real Postfix and
//! Dovecot: the daemon takes its mail over IMAP from its mailbox on a
//! private Dovecot, into which a private Postfix on 127.0.0.1 delivers the
//! players' and the GM's mail, and sends its own over SMTP through that
//! Postfix, which hands it to Dovecot for the players' mailboxes. It is
//! killed with SIGKILL at seeded random moments, again and again, and
//! started again each time.
//!
//! Each wave of the script (`crash_harness::script`) is sent into Postfix
//! over SMTP, addressed to adjutant, each message under its From address
//! as envelope sender (the bytes that are no mail under the French
//! player's). Once Dovecot holds all of the wave, the very bytes it holds
//! (with the headers Postfix and Dovecot added) are put into the Maildir of
//! a calm copy of the same store, which takes the wave in one run through
//! the file transport, timed: both copies take the same messages, byte for
//! byte, in the same order. The rough copy, configured with the stack's
//! IMAP inbox and SMTP transport, is then started and killed at seeded
//! random moments within that time, up to `ADJUTANT_KILLS_PER_WAVE` kills
//! that find it at work (the harness of `tests/kill_schedule.rs`); and one
//! or two more times, before or after those, a seeded 0 to 40 ms after the
//! store first shows a message marked in flight, which random moments
//! seldom find: the daemon spends most of a wave taking mail and resolving.
//! Then it is left to finish the wave, after which nothing may be left
//! unseen in its mailbox or waiting in its outbox. Both copies run at the
//! same fixed clock, so that the rough copy can be held to the calm one
//! byte for byte. At the end:
//!
//! - the rough copy's store holds what the calm copy's holds (each message
//!   taken once, with the same outcome; the same outbox, deadline, GM log,
//!   submissions and resolutions), its archive is the calm copy's byte for
//!   byte, and `adjutant verify` passes on it;
//! - every message of the script is in adjutant's mailbox once and was
//!   taken, and every order mail got one reply (one Message-ID answering it
//!   in In-Reply-To) in its sender's mailbox;
//! - every message the calm copy wrote arrived in its recipient's mailbox,
//!   with the bytes the calm copy wrote (under the trace headers Postfix
//!   and Dovecot add), and no other message arrived;
//! - no passphrase, right or wrong, and no secret of either chain not yet
//!   revealed, is in the mailboxes, the archive or the daemon's log (at
//!   `debug`), nor adjutant's IMAP password in the log.
//!
//! What SMTP cannot promise, and what is checked instead. A message is
//! marked in flight in the store before it is handed to the server, and
//! marked sent once the server has taken it; a kill between the two leaves
//! it marked in flight, and a restart cannot ask the server whether it took
//! it (`src/outbound/delivery.rs`, `InDoubt`). The test keeps the default,
//! `in_doubt = "resend"`, and checks the duplicates message by message:
//! after each kill that landed, it reads from the store which messages were
//! in flight; a message may arrive `1 + k` times only if `k` kills found it
//! in flight, every copy with the same Message-ID and the same bytes, and
//! every other message must arrive exactly once. This is the stronger of
//! the two honest checks: with `in_doubt = "dead-letter"` nothing would ever
//! arrive twice by construction, but a message the server never took would
//! be set aside, and "nothing lost" would then rest on the test doing the
//! GM's part (looking in the mailboxes and requeueing) rather than on the
//! daemon, and in a configuration other than the one GMs run. Here the
//! daemon must lose nothing by itself, and each duplicate must be accounted
//! for by the one window SMTP cannot close. The summary line says how many
//! duplicates there were: with the kills aimed at a send, more than half
//! the messages a kill found in flight had already been taken by Postfix,
//! and arrived twice.
//!
//! The schedule is seeded and reproducible in what it does, not in what a
//! kill finds (that depends on the machine's speed): each seed prints its
//! kills, and `ADJUTANT_KILL_FIRST_SEED` replays a seed. So that a message
//! in doubt is met whatever the machine's speed, each seed's first wave
//! also runs the daemon once stopped at the failpoint `outbox:handed` (it
//! aborts the moment the server has a message the store has not recorded). `cargo test` runs
//! one seed of three phases; a long run:
//!
//!     ADJUTANT_REQUIRE_MAILSTACK=1 ADJUTANT_KILL_SEEDS=3 ADJUTANT_KILL_PHASES=6 \
//!         cargo test --test kill_schedule_mailstack -- --nocapture
//!
//! (docs/RELIABILITY.md has the figures.)
//!
//! Without Postfix and Dovecot (or not as root) the test says it skipped
//! and passes; `ADJUTANT_REQUIRE_MAILSTACK=1` makes that a failure.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

use support::crash_harness::{
    Copies, Killed, calm_wave, contents, daemon, kill_repeatedly_noting, no_passphrase_in,
    no_unrevealed_secret_in, rows, run_to_the_end, same_archive, same_store, script, setting,
};
use support::mailstack::MailStack;
use support::seeded::SplitMix;

const ADJUTANT: &str = "adjutant@example.org";
const GM: &str = "umpire@example.org";
const LANNES: &str = "lannes@french.invalid";
const HOHENZOLLERN: &str = "hohenzollern@austrian.invalid";
/// Everyone adjutant writes to in the demo campaign.
const PEOPLE: [&str; 3] = [GM, LANNES, HOHENZOLLERN];
/// How long Postfix and Dovecot may take to deliver what they were given.
const WAIT: Duration = Duration::from_secs(60);
/// Kills aimed at SMTP's in-doubt window in each wave: up to this many.
const AIMED_KILLS: u64 = 2;
/// The messages marked in flight: handed, or about to be handed, to the
/// server, with no result recorded.
const IN_FLIGHT: &str = "SELECT message_id FROM outbox
     WHERE status = 'queued' AND attempt_started_at IS NOT NULL";

/// The mail of `raw` as parsed for its headers.
fn parsed(raw: &[u8]) -> Option<mail_parser::Message<'_>> {
    mail_parser::MessageParser::default().parse(raw)
}

fn message_id(raw: &[u8]) -> Option<String> {
    parsed(raw).and_then(|m| m.message_id().map(str::to_string))
}

fn in_reply_to(raw: &[u8]) -> Option<String> {
    parsed(raw).and_then(|m| m.in_reply_to().as_text().map(str::to_string))
}

/// The address a script's message comes from, which is also its envelope
/// sender; bytes that are no mail go in under the French player's.
fn sender(raw: &[u8]) -> String {
    parsed(raw)
        .and_then(|m| {
            m.from()
                .and_then(|f| f.first())
                .and_then(|a| a.address())
                .map(str::to_ascii_lowercase)
        })
        .unwrap_or_else(|| LANNES.to_string())
}

/// `bytes` with every line ending CRLF, as IMAP hands a message out.
fn crlf(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 32);
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' && (i == 0 || bytes[i - 1] != b'\r') {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

/// A delivered message without the trace headers Postfix and Dovecot put
/// on top of it (`Return-Path`, `Delivered-To`, `Received`): what the
/// sender handed over.
fn without_trace(raw: &[u8]) -> &[u8] {
    let mut at = 0;
    let mut in_trace = false;
    while at < raw.len() {
        let end = raw[at..]
            .windows(2)
            .position(|w| w == b"\r\n")
            .map_or(raw.len(), |p| at + p + 2);
        let line = &raw[at..end];
        let continued = line.first().is_some_and(|b| *b == b' ' || *b == b'\t');
        let trace = ["return-path:", "delivered-to:", "received:"]
            .iter()
            .any(|h| line.len() >= h.len() && line[..h.len()].eq_ignore_ascii_case(h.as_bytes()));
        if trace || (continued && in_trace) {
            in_trace = true;
            at = end;
        } else {
            break;
        }
    }
    &raw[at..]
}

/// Whether `delivered`, as IMAP hands it out, is the message `written`:
/// the same bytes under the trace headers, with every line ending CRLF
/// (SMTP's), but for the empty lines at the end: the SMTP client ends what
/// it hands over with a CRLF of its own before the closing dot, which the
/// server keeps.
fn same_message(delivered: &[u8], written: &[u8]) -> bool {
    fn trimmed(mut b: &[u8]) -> &[u8] {
        while let Some(rest) = b.strip_suffix(b"\r\n") {
            b = rest;
        }
        b
    }
    trimmed(without_trace(delivered)) == trimmed(&crlf(written))
}

/// Pairs of text columns from the store in the data directory `data`.
fn pairs(data: &Path, sql: &str) -> Vec<(String, String)> {
    let conn = rusqlite::Connection::open(data.join(adjutant::store::DB_FILE)).expect("opens");
    let mut stmt = conn.prepare(sql).expect("prepares");
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("queries")
        .collect::<Result<_, _>>()
        .expect("rows")
}

fn count(data: &Path, sql: &str) -> usize {
    let conn = rusqlite::Connection::open(data.join(adjutant::store::DB_FILE)).expect("opens");
    conn.query_row(sql, [], |r| r.get::<_, i64>(0))
        .expect("counts") as usize
}

fn bare(id: &str) -> String {
    id.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_string()
}

/// The rough copy's configuration: the calm copy's, with the stack's IMAP
/// inbox and SMTP transport in place of the Maildir and the file transport.
fn configure_rough(root: &Path, stack: &MailStack) {
    let config = root.join("adjutant.toml");
    let text = std::fs::read_to_string(&config).expect("reads");
    let (head, _) = text.split_once("[inbox]").expect("an [inbox] section");
    let mail = stack.daemon_mail_config(ADJUTANT, &root.join("imap.pw"));
    std::fs::write(&config, format!("{head}{mail}")).expect("writes");
}

/// What the rough copy's mail came to, over a seed.
#[derive(Default)]
struct Sending {
    /// Every Message-ID found marked in flight after a kill, once for each
    /// kill that found it so.
    in_flight_at_kills: BTreeMap<String, usize>,
    /// Kills that found at least one message in flight.
    kills_while_sending: usize,
    /// Kills aimed at a send in flight that found the daemon at work.
    aimed: usize,
    /// Runs stopped at the failpoint `outbox:handed`.
    stopped_handed: usize,
}

/// After a kill: which messages the store shows in flight (noted in
/// `sending`), and how many messages had been taken and sent.
fn note_kill(root: &Path, sending: &mut Sending) -> (usize, usize) {
    let data = root.join("var");
    let conn = rusqlite::Connection::open(data.join(adjutant::store::DB_FILE)).expect("opens");
    let mut stmt = conn.prepare(IN_FLIGHT).expect("prepares");
    let in_flight: Vec<String> = stmt
        .query_map([], |r| r.get(0))
        .expect("queries")
        .collect::<Result<_, _>>()
        .expect("rows");
    if !in_flight.is_empty() {
        sending.kills_while_sending += 1;
    }
    for id in in_flight {
        *sending.in_flight_at_kills.entry(bare(&id)).or_default() += 1;
    }
    (
        count(&data, "SELECT COUNT(*) FROM inbound_messages"),
        count(&data, "SELECT COUNT(*) FROM outbox WHERE status = 'sent'"),
    )
}

/// Starts the daemon and kills it a seeded 0 to 40 ms after the store first
/// shows a message marked in flight: within SMTP's in-doubt window, which
/// the kills at random moments seldom find (the daemon spends most of a
/// wave taking mail and resolving, and a group of messages is in flight
/// for some tens of milliseconds). Returns whether the kill found the
/// daemon at work; a daemon that got through the wave first, or had
/// nothing to send, is left to end.
fn kill_while_sending(
    root: &Path,
    schedule: &mut SplitMix,
    into: &mut Killed,
    sending: &mut Sending,
) -> bool {
    let data = root.join("var");
    let conn = rusqlite::Connection::open_with_flags(
        data.join(adjutant::store::DB_FILE),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("opens");
    conn.busy_timeout(Duration::from_secs(5)).expect("timeout");
    let delay = Duration::from_millis(schedule.within(0, 41));
    let mut child = daemon(root).spawn().expect("starts");
    into.tried += 1;
    loop {
        if child.try_wait().expect("waits").is_some() {
            return false;
        }
        // (The store may be busy or not yet made: look again.)
        let marked = conn
            .prepare(IN_FLIGHT)
            .and_then(|mut stmt| stmt.exists([]))
            .unwrap_or(false);
        if marked {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    std::thread::sleep(delay);
    if child.try_wait().expect("waits").is_some() {
        return false;
    }
    // Child::kill sends SIGKILL: no handler runs, nothing is flushed.
    child.kill().expect("kills");
    child.wait().expect("reaped");
    into.landed += 1;
    sending.aimed += 1;
    let noted = note_kill(root, sending);
    into.taken_at_kills.push(noted);
    true
}

/// Starts the daemon stopped at the failpoint `outbox:handed`: it aborts,
/// as a kill would stop it, the moment the transport has a message that the
/// store has not recorded as sent, the very middle of SMTP's in-doubt
/// window, which kills at random moments find only as the machine's speed
/// allows. Returns whether it stopped there (a daemon with nothing to send
/// ends by itself).
fn stop_once_handed(root: &Path, into: &mut Killed, sending: &mut Sending) -> bool {
    into.tried += 1;
    let status = daemon(root)
        .env(adjutant::failpoint::VARIABLE, "outbox:handed")
        .status()
        .expect("runs");
    if status.success() {
        return false;
    }
    into.landed += 1;
    sending.stopped_handed += 1;
    let noted = note_kill(root, sending);
    into.taken_at_kills.push(noted);
    true
}

fn one_seed(stack: &MailStack, seed: u64, phases: usize, kills_per_wave: u64) {
    let started = Instant::now();
    let copies = Copies::new();
    let (calm, rough) = (&copies.calm, &copies.rough);
    let (calm_data, rough_data) = (calm.join("var"), rough.join("var"));
    configure_rough(rough, stack);
    // The campaign's opening mail went out before the copies split (through
    // the file transport): only what comes after is compared.
    let opening: BTreeSet<_> = contents(&calm.join("sent")).into_keys().collect();
    let waves = script(phases);
    let messages: Vec<(String, Vec<u8>)> = waves.iter().flatten().cloned().collect();
    println!(
        "seed {seed}: {phases} phases, {} waves, up to {kills_per_wave} kills a wave",
        waves.len()
    );

    let mut schedule = SplitMix(seed);
    let mut killed = Killed::default();
    let mut sending = Sending::default();
    let mut delivered = 0;
    for (n, wave) in waves.iter().enumerate() {
        // Into Postfix, addressed to adjutant, and wait until Dovecot holds
        // all of it: both copies take the same mail together.
        for (_, raw) in wave {
            stack
                .send(&sender(raw), &[ADJUTANT], raw)
                .unwrap_or_else(|e| panic!("seed {seed}: Postfix refused a message: {e}"));
        }
        delivered += wave.len();
        let inbox = stack.wait_for_mail(ADJUTANT, delivered, WAIT);
        assert_eq!(inbox.len(), delivered, "seed {seed}: each message once");
        // The calm copy takes the very bytes Dovecot holds, in the order it
        // holds them, so that both copies see the same messages.
        let arrived: Vec<(String, Vec<u8>)> = inbox[delivered - wave.len()..]
            .iter()
            .enumerate()
            .map(|(i, raw)| {
                (
                    format!("{:05}.eml", delivered - wave.len() + i),
                    raw.clone(),
                )
            })
            .collect();
        // The rough copy's run of a wave, over IMAP and SMTP, takes as long
        // as the calm copy's (measured: within a tenth, debug build), so
        // the kills fall within the calm copy's time.
        let window = calm_wave(calm, &arrived);
        // The kills at random moments, and the kills aimed at a send, in a
        // seeded order: aimed first, they find the wave's first sends;
        // after, whatever sending is left.
        let kills = schedule.within(1, kills_per_wave + 1);
        let aimed = schedule.within(1, AIMED_KILLS + 1);
        let aimed_first = schedule.chance(50);
        let aim = |schedule: &mut SplitMix, killed: &mut Killed, sending: &mut Sending| {
            for _ in 0..aimed {
                if !kill_while_sending(rough, schedule, killed, sending) {
                    break;
                }
            }
        };
        // Once a seed, at the first wave, the daemon stops where a message
        // is surely in doubt.
        if n == 0 {
            assert!(
                stop_once_handed(rough, &mut killed, &mut sending),
                "seed {seed}: the daemon had nothing to send in the first wave"
            );
        }
        if aimed_first {
            aim(&mut schedule, &mut killed, &mut sending);
        }
        kill_repeatedly_noting(rough, &mut schedule, kills, window, &mut killed, |root| {
            note_kill(root, &mut sending)
        });
        if !aimed_first {
            aim(&mut schedule, &mut killed, &mut sending);
        }
        run_to_the_end(rough);
        // The wave is done: nothing left unseen in the mailbox, nothing
        // waiting in the outbox (a send that failed would wait for a clock
        // that does not move).
        assert_eq!(
            stack.count(ADJUTANT, "INBOX", "UNSEEN"),
            0,
            "seed {seed}, wave {n}: mail left unseen in adjutant's mailbox"
        );
        assert_eq!(
            count(
                &rough_data,
                "SELECT COUNT(*) FROM outbox WHERE status <> 'sent'"
            ),
            0,
            "seed {seed}, wave {n}: mail not sent: {:?}",
            rows(
                &rough_data,
                "SELECT message_id, status, last_error FROM outbox WHERE status <> 'sent'"
            )
        );
    }

    // Every message of the script was delivered to adjutant once and taken.
    assert_eq!(delivered, messages.len());
    assert_eq!(
        count(&rough_data, "SELECT COUNT(*) FROM inbound_messages"),
        messages.len(),
        "seed {seed}: every message taken once"
    );
    same_store(seed, &calm_data, &rough_data);

    // What the calm copy wrote, by Message-ID, with its recipient.
    let recipients: BTreeMap<String, String> =
        pairs(&calm_data, "SELECT message_id, recipient FROM outbox")
            .into_iter()
            .map(|(id, to)| (bare(&id), to.to_ascii_lowercase()))
            .collect();
    let mut written: BTreeMap<String, (String, Vec<u8>)> = BTreeMap::new();
    for (name, bytes) in contents(&calm.join("sent")) {
        if opening.contains(&name) {
            continue;
        }
        let id = message_id(&bytes).expect("adjutant's mail has a Message-ID");
        let to = recipients
            .get(&id)
            .unwrap_or_else(|| panic!("{id} is in the calm copy's outbox"))
            .clone();
        assert!(
            PEOPLE.contains(&to.as_str()),
            "seed {seed}: {id} is for {to}"
        );
        written.insert(id, (to, bytes));
    }
    assert!(!written.is_empty(), "seed {seed}: the calm copy wrote mail");

    // All of it in the mailboxes, then nothing left in Postfix's queue, so
    // that any second copy has arrived too.
    let seen = |who: &str| -> BTreeSet<String> {
        stack
            .read_mailbox(who)
            .iter()
            .filter_map(|m| message_id(m))
            .collect()
    };
    let waited = Instant::now();
    for who in PEOPLE {
        let wanted: BTreeSet<&String> = written
            .iter()
            .filter(|(_, (to, _))| to == who)
            .map(|(id, _)| id)
            .collect();
        loop {
            let have = seen(who);
            let missing: Vec<&&String> = wanted.iter().filter(|id| !have.contains(**id)).collect();
            if missing.is_empty() {
                break;
            }
            assert!(
                waited.elapsed() < WAIT,
                "seed {seed}: {} message(s) never reached {who}: {missing:?}",
                missing.len()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    stack.wait_until_queue_is_empty(WAIT);

    // Each message arrived with the bytes written, once, or more often only
    // as often as kills found it in flight.
    let mut duplicates = 0;
    let mut arrived = 0;
    let mailboxes = copies.dir.path().join("mailboxes");
    let mut replies: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut arrived_ids = BTreeSet::new();
    for who in PEOPLE {
        let mut copies_of: BTreeMap<String, usize> = BTreeMap::new();
        for (i, raw) in stack.read_mailbox(who).iter().enumerate() {
            let folder = mailboxes.join(who);
            std::fs::create_dir_all(&folder).expect("dir");
            std::fs::write(folder.join(format!("{i:05}.eml")), raw).expect("writes");
            let id = message_id(raw).unwrap_or_default();
            let Some((to, bytes)) = written.get(&id) else {
                panic!("seed {seed}: {who} got a message the calm copy never wrote: {id}");
            };
            assert_eq!(to, who, "seed {seed}: {id} reached the wrong mailbox");
            assert!(
                same_message(raw, bytes),
                "seed {seed}: {id} arrived with other bytes than the calm copy wrote"
            );
            if let Some(answered) = in_reply_to(raw) {
                replies.entry(answered).or_default().insert(id.clone());
            }
            arrived_ids.insert(id.clone());
            *copies_of.entry(id).or_default() += 1;
            arrived += 1;
        }
        for (id, n) in copies_of {
            let in_flight = sending.in_flight_at_kills.get(&id).copied().unwrap_or(0);
            assert!(
                n <= 1 + in_flight,
                "seed {seed}: {id} reached {who} {n} times, but only {in_flight} kill(s) found it in flight"
            );
            duplicates += n - 1;
        }
    }

    let lost: Vec<&String> = written
        .keys()
        .filter(|id| !arrived_ids.contains(*id))
        .collect();
    assert!(lost.is_empty(), "seed {seed}: never arrived: {lost:?}");

    // One reply to each order mail of the script, in its sender's mailbox.
    let mut answered = 0;
    for (_, raw) in &messages {
        let Some(id) = message_id(raw) else {
            continue;
        };
        let got = replies.get(&id).cloned().unwrap_or_default();
        assert_eq!(
            got.len(),
            1,
            "seed {seed}: {id} got {} replies: {got:?}",
            got.len()
        );
        let reply = got.iter().next().expect("one");
        assert_eq!(
            written[reply].0,
            sender(raw),
            "seed {seed}: the reply to {id} went elsewhere"
        );
        answered += 1;
    }
    assert!(answered > 0, "seed {seed}: no order mail was answered");

    let archive = same_archive(seed, copies.dir.path(), &calm_data, &rough_data);
    let logs = copies.dir.path().join("logs");
    std::fs::create_dir_all(&logs).expect("dir");
    std::fs::copy(rough.join("daemon.log"), logs.join("rough.log")).expect("copies");
    let log = std::fs::read_to_string(logs.join("rough.log")).expect("the daemon's log");
    assert!(
        !log.contains(&stack.password(ADJUTANT)),
        "seed {seed}: the IMAP password is in the daemon's log"
    );
    let places = [mailboxes, archive, logs];
    no_passphrase_in(seed, &places);
    no_unrevealed_secret_in(seed, &rough_data, &places);

    let in_flight: usize = sending.in_flight_at_kills.values().sum();
    println!(
        "seed {seed}: {} waves, {} mail messages in, {} written by the calm copy ({arrived} arrived, {duplicates} duplicate(s)), {answered} order mails answered once, {:?} resolutions; {} of {} starts killed while the daemon worked ({} of them aimed at a send, {} stopped at outbox:handed), {} of them finding mail in flight ({in_flight} messages); (messages taken, mail sent) at each kill: {:?}; {:.1} s",
        waves.len(),
        messages.len(),
        written.len(),
        rows(&rough_data, "SELECT COUNT(*) FROM resolutions"),
        killed.landed,
        killed.tried,
        sending.aimed,
        sending.stopped_handed,
        sending.kills_while_sending,
        killed.taken_at_kills,
        started.elapsed().as_secs_f64(),
    );
    assert!(
        killed.landed >= waves.len(),
        "seed {seed}: only {} kills landed in {} waves",
        killed.landed,
        waves.len()
    );
    assert!(
        sending.kills_while_sending > 0,
        "seed {seed}: no kill found a message in flight"
    );
    assert_eq!(
        sending.stopped_handed, 1,
        "seed {seed}: the stop at outbox:handed"
    );
}

#[test]
fn killed_at_random_behind_postfix_and_dovecot_the_daemon_loses_nothing_and_answers_once() {
    let users: Vec<(&str, String)> = [ADJUTANT, GM, LANNES, HOHENZOLLERN]
        .iter()
        .map(|a| (*a, format!("{a}-password")))
        .collect();
    let users: Vec<(&str, &str)> = users.iter().map(|(a, p)| (*a, p.as_str())).collect();
    let first = setting("ADJUTANT_KILL_FIRST_SEED", 1);
    let seeds = setting("ADJUTANT_KILL_SEEDS", 1);
    let phases = setting("ADJUTANT_KILL_PHASES", 3) as usize;
    let kills_per_wave = setting("ADJUTANT_KILLS_PER_WAVE", 5);
    for seed in first..first + seeds {
        // A stack of its own for each seed: empty mailboxes, and the
        // script's Message-IDs new to Postfix and Dovecot.
        let Some(stack) = MailStack::start(&users) else {
            return;
        };
        one_seed(&stack, seed, phases, kills_per_wave);
    }
}
