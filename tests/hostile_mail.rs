//! The hostile mail corpus (`tests/hostile/`) sent through the real Postfix
//! and Dovecot to a running daemon, and the defects it found, each pinned
//! by a test named after it that runs in process.

mod hostile;
mod support;

use chrono::{DateTime, Utc};

use adjutant::engine;
use adjutant::ingest::{IngestConfig, Outcome, ingest};
use adjutant::lifecycle::FixedClock;
use adjutant::store::{OutgoingMail, Store};
use hostile::{ADJUTANT, CAMPAIGN, LANNES, LANNES_PASS, head, message};

fn now() -> FixedClock {
    FixedClock(
        DateTime::parse_from_rfc3339("2026-01-05T10:00:00Z")
            .expect("valid")
            .with_timezone(&Utc),
    )
}

fn config() -> IngestConfig {
    IngestConfig {
        own_addresses: vec![ADJUTANT.into()],
        ..IngestConfig::default()
    }
}

fn setup() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("dir");
    let campaign = adjutant::demo::bundled_campaign(&dir.path().join("campaign")).expect("loads");
    let mut store = Store::open(&dir.path().join("data")).expect("store");
    engine::init(&mut store, &campaign, &dir.path().join("campaign"), &now()).expect("init");
    (dir, store)
}

/// Every reply queued, to anyone.
fn replies(store: &Store) -> Vec<OutgoingMail> {
    store
        .outbox(None)
        .expect("outbox")
        .into_iter()
        .map(|e| e.mail)
        .filter(|m| m.message_id.contains("reply."))
        .collect()
}

fn take(store: &mut Store, raw: &[u8]) -> Outcome {
    ingest(store, raw, "test", &config(), &now()).expect("ingest")
}

fn orders_with(headers: &str, body: &str) -> Vec<u8> {
    message(&headers.replace("\r\n", "\n"), body.as_bytes())
}

const GOOD: &str = "passphrase: vive-l-empereur\n1-ligne: hold\n";

/// Defect: `Precedence: auto_reply`, which vacation robots set, was not
/// read as automatic mail, and the robot's quoted orders were taken and
/// acknowledged: a reply to a robot.
#[test]
fn precedence_auto_reply_is_automatic_mail() {
    let (_dir, mut store) = setup();
    let raw = orders_with(
        &format!(
            "{}Precedence: auto_reply\n",
            head(LANNES, "[sound-the-charge-demo] orders", "auto-reply")
        ),
        GOOD,
    );
    let outcome = take(&mut store, &raw);
    assert!(matches!(outcome, Outcome::Ignored { .. }), "{outcome:?}");
    assert!(replies(&store).is_empty());
}

/// Defect: a delivery failure from a MAILER-DAEMON address that came with a
/// return path (no `Return-Path: <>`, no report type) was refused, and the
/// refusal went to MAILER-DAEMON: a reply to a robot, and the start of a
/// loop with a mail system that bounces it.
#[test]
fn mail_from_a_mailer_daemon_address_gets_no_reply() {
    let (_dir, mut store) = setup();
    for (n, from) in [
        "MAILER-DAEMON@mx.french.invalid",
        "Mail Delivery Subsystem <mailer-daemon@mx.austrian.invalid>",
    ]
    .iter()
    .enumerate()
    {
        let raw = orders_with(
            &head(
                from,
                "Delivery Status Notification (Failure)",
                &format!("dsn-{n}"),
            ),
            "Delivery to the following recipient failed permanently.\n",
        );
        let outcome = take(&mut store, &raw);
        assert!(matches!(outcome, Outcome::Ignored { .. }), "{outcome:?}");
    }
    assert!(replies(&store).is_empty(), "{:#?}", replies(&store));
}

/// Defect: in an HTML-only message, lines were broken only at `<br>` and
/// `</p>`: orders in a `<pre>` block, a table or paragraphs left unclosed
/// ran into one line, the passphrase with the first order after it, and
/// the player was told the passphrase did not match.
#[test]
fn html_orders_in_a_pre_block_a_table_or_unclosed_paragraphs_are_read() {
    let (_dir, mut store) = setup();
    for (n, html) in [
        "<pre>passphrase: vive-l-empereur\n1-ligne: hold\n</pre>",
        "<table><tr><td>passphrase: vive-l-empereur</td></tr><tr><td>1-ligne: hold</td></tr></table>",
        "<html><body><p>passphrase: vive-l-empereur<p>1-ligne: hold<div><span>",
        "<ul><li>passphrase: vive-l-empereur</li><li>1-ligne: hold</li></ul>",
        "<h3>passphrase: vive-l-empereur</h3><blockquote>1-ligne: hold</blockquote>",
    ]
    .iter()
    .enumerate()
    {
        let raw = orders_with(
            &format!(
                "{}MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n",
                head(LANNES, "[sound-the-charge-demo] orders", &format!("html-{n}"))
            ),
            html,
        );
        let outcome = take(&mut store, &raw);
        assert!(
            matches!(
                outcome,
                Outcome::Accepted {
                    refused_lines: 0,
                    ..
                }
            ),
            "{html}: {outcome:?}"
        );
    }
}

/// Defect: a multipart message without a boundary has no part that can be
/// told from another; its text was read as empty and the player told the
/// passphrase did not match. The reply says it could not be read, and why.
#[test]
fn a_multipart_without_a_boundary_is_told_it_could_not_be_read() {
    let (_dir, mut store) = setup();
    for (n, content_type) in ["multipart/mixed", "multipart/alternative; boundary=\"\""]
        .iter()
        .enumerate()
    {
        let raw = orders_with(
            &format!(
                "{}MIME-Version: 1.0\nContent-Type: {content_type}\n",
                head(
                    LANNES,
                    "[sound-the-charge-demo] orders",
                    &format!("nob-{n}")
                )
            ),
            GOOD,
        );
        let Outcome::Refused { reason } = take(&mut store, &raw) else {
            panic!("{content_type}: not refused");
        };
        assert!(reason.contains("could not be read"), "{reason}");
        assert!(reason.contains("boundary"), "{reason}");
    }
}

/// Defect: a reply repeated the subject it answers however long it was: a
/// 60 KB subject came back as a 60 KB header. The reply's subject keeps
/// the start of it.
#[test]
fn a_reply_repeats_no_more_than_the_start_of_a_long_subject() {
    let (_dir, mut store) = setup();
    let subject = format!("[sound-the-charge-demo] {}", "orders ".repeat(9000));
    let raw = orders_with(&head(LANNES, &subject, "long-subject"), GOOD);
    take(&mut store, &raw);
    let reply = replies(&store).pop().expect("a reply");
    assert!(
        reply
            .subject
            .starts_with("Re: [sound-the-charge-demo] orders")
    );
    assert!(
        reply.subject.chars().count() <= 200,
        "{} characters",
        reply.subject.chars().count()
    );
}

/// Defect: a NUL byte in an order line was repeated in the refusal, and a
/// NUL is no character a mail may carry (RFC 5322).
#[test]
fn no_nul_byte_reaches_a_reply() {
    let (_dir, mut store) = setup();
    let raw = orders_with(
        &head(LANNES, "[sound-the-charge-demo] orders", "nul"),
        &format!("passphrase: {LANNES_PASS}\n1-li\0ne: hold\n2-ligne\0: hold\n"),
    );
    take(&mut store, &raw);
    let reply = replies(&store).pop().expect("a reply");
    assert!(!reply.body.contains('\0'), "{:?}", reply.body);
    assert!(!reply.subject.contains('\0'));
    let _ = CAMPAIGN;
}

// ---- the corpus through Postfix and Dovecot to a running daemon ----------

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use adjutant::audit::Digest32;
use adjutant::store::DB_FILE;
use hostile::{Context, Expect, GM, HOHENZOLLERN};
use support::mailstack::MailStack;
use support::process::{Running, proc_kb};

/// The other campaign's players, who get its opening mail.
const LASALLE: &str = "lasalle@french.invalid";
const SCHWARZENBERG: &str = "schwarzenberg@austrian.invalid";
/// How long the corpus may take, from the first message sent to the last
/// reply queued, before the daemon counts as stalled.
const STALL: Duration = Duration::from_secs(240);
const WAIT: Duration = Duration::from_secs(60);

/// What the corpus may add to the daemon's peak resident memory (VmHWM)
/// over its peak before the corpus: one IMAP batch fetched whole (64
/// messages of at most the 512 KiB limit and a byte, 32 MiB) and the
/// working memory of argon2 on each of this machine's two cores (19 MiB
/// each, the batch's passphrases checked in parallel), 70 MiB, and a little
/// room. However many messages come, this is what one batch holds.
const CORPUS_COST_LIMIT_KB: u64 = 72 * 1024;
/// The daemon's peak resident memory may not pass this at all: measured
/// at 116 to 127 MiB on this machine (debug build, as `cargo test` runs
/// it), with room; see docs/RELIABILITY.md.
const PEAK_LIMIT_KB: u64 = 160 * 1024;

/// Kills the daemon if the test fails before stopping it.
fn text_of(raw: &[u8]) -> String {
    mail_parser::MessageParser::default()
        .parse(raw)
        .and_then(|m| m.body_text(0).map(|t| t.into_owned()))
        .unwrap_or_default()
}

fn header_of(raw: &[u8], name: &str) -> String {
    let message = mail_parser::MessageParser::default().parse(raw);
    match name {
        "Message-ID" => message
            .as_ref()
            .and_then(|m| m.message_id())
            .unwrap_or_default()
            .to_string(),
        "In-Reply-To" => message
            .as_ref()
            .and_then(|m| m.in_reply_to().as_text())
            .unwrap_or_default()
            .to_string(),
        _ => message
            .as_ref()
            .and_then(|m| m.subject())
            .unwrap_or_default()
            .to_string(),
    }
}

/// One query's rows, each cell as text (blobs as bytes).
fn query(data: &Path, sql: &str) -> Vec<Vec<Vec<u8>>> {
    let conn = rusqlite::Connection::open_with_flags(
        data.join(DB_FILE),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("open the store read-only");
    conn.busy_timeout(Duration::from_secs(10)).expect("timeout");
    let mut stmt = conn.prepare(sql).expect("prepares");
    let width = stmt.column_count();
    stmt.query_map([], |row| {
        (0..width)
            .map(|i| {
                Ok(match row.get::<_, rusqlite::types::Value>(i)? {
                    rusqlite::types::Value::Blob(b) => b,
                    rusqlite::types::Value::Text(t) => t.into_bytes(),
                    rusqlite::types::Value::Integer(n) => n.to_string().into_bytes(),
                    other => format!("{other:?}").into_bytes(),
                })
            })
            .collect::<Result<Vec<_>, _>>()
    })
    .expect("queries")
    .collect::<Result<_, _>>()
    .expect("rows")
}

fn count(data: &Path, sql: &str) -> usize {
    query(data, sql)
        .first()
        .and_then(|r| String::from_utf8_lossy(&r[0]).parse().ok())
        .unwrap_or(0)
}

fn send(stack: &MailStack, envelope: &str, raw: &[u8]) -> String {
    let reply = stack
        .send(envelope, &[ADJUTANT], raw)
        .unwrap_or_else(|e| panic!("Postfix refused a message: {e}"));
    // "250 2.0.0 Ok: queued as 4C1B2A3D5E"
    reply
        .split_whitespace()
        .last()
        .expect("a queue id")
        .to_string()
}

/// The messages in `user`'s mailbox that answer a message whose Message-ID
/// holds `needle`, waiting for at least `n`.
fn wait_for_reply(stack: &MailStack, user: &str, needle: &str) -> Vec<u8> {
    let start = Instant::now();
    loop {
        if let Some(m) = stack
            .read_mailbox(user)
            .into_iter()
            .find(|m| text_of(m).contains(needle) || header_of(m, "Subject").contains(needle))
        {
            return m;
        }
        assert!(start.elapsed() < WAIT, "no mail with `{needle}` for {user}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The daemon's folder: its configuration, the two campaigns, its data.
fn prepare(root: &Path, stack: &MailStack) {
    adjutant::demo::bundled_campaign(&root.join("campaign")).expect("campaign");
    let other = adjutant::demo::demo_of(Some("grande-tactique")).expect("a demo");
    adjutant::demo::demo_campaign(&other, &root.join("other")).expect("other campaign");
    let mail = stack.daemon_mail_config(ADJUTANT, &root.join("imap.pw"));
    std::fs::write(
        root.join("adjutant.toml"),
        format!(
            r#"
data_dir = "var"
campaigns = ["campaign", "other"]
log_level = "info"
[mail]
from = "adjutant <{ADJUTANT}>"
reply_domain = "example.org"
# Each message of the corpus must get its own answer, whatever order
# Postfix delivers them in; the rations of refusals and acknowledgements
# are tested on their own (tests/players_mail.rs, tests/mail_e2e.rs).
max_refusals_per_hour = 100000
max_acknowledgements_per_hour = 100000
{mail}[intervals]
poll_seconds = 5
"#
        ),
    )
    .expect("config");
}

/// Whether a Message-ID is one of adjutant's replies: `reply.` and the
/// first 16 hex digits of the digest of the message it answers.
fn is_reply_id(id: &str) -> bool {
    id.match_indices("reply.").any(|(at, m)| {
        let digits = &id.as_bytes()[at + m.len()..];
        digits.len() > 16
            && digits[..16].iter().all(u8::is_ascii_hexdigit)
            && !digits[16].is_ascii_hexdigit()
    })
}

/// What the test saw of one case.
struct Seen {
    status: String,
    outcome: String,
    reply: Option<(String, String)>,
}

#[test]
fn the_hostile_corpus_through_postfix_and_dovecot_gets_its_documented_outcomes() {
    let mut users: Vec<(String, String)> =
        [ADJUTANT, GM, LANNES, HOHENZOLLERN, LASALLE, SCHWARZENBERG]
            .iter()
            .map(|a| (a.to_string(), format!("{a}-password")))
            .collect();
    users.extend((0..hostile::STRANGERS).map(|n| (hostile::stranger(n), format!("s{n}-password"))));
    let users: Vec<(&str, &str)> = users
        .iter()
        .map(|(a, p)| (a.as_str(), p.as_str()))
        .collect();
    let test_started = Instant::now();
    let Some(stack) = MailStack::start(&users) else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let root = dir.path();
    prepare(root, &stack);
    let data = root.join("var");
    let log_path = root.join("daemon.log");
    let log = std::fs::File::create(&log_path).expect("log file");
    // The log goes to a file: a pipe nobody reads would fill and stop the
    // daemon, which is the stall this test looks for.
    let mut daemon = Running(Some(
        Command::new(env!("CARGO_BIN_EXE_adjutant"))
            .args(["daemon", "--config"])
            .arg(root.join("adjutant.toml"))
            .stdout(Stdio::from(log.try_clone().expect("log")))
            .stderr(Stdio::from(log))
            .spawn()
            .expect("the daemon starts"),
    ));
    let pid = daemon.0.as_ref().expect("running").id();
    let daemon_log = || std::fs::read_to_string(&log_path).unwrap_or_default();

    // Warm up: two resolutions, so that the corpus can replay old orders.
    stack.wait_for_mail(LANNES, 1, WAIT);
    let start_rss = proc_kb(pid, "VmRSS");
    send(&stack, LANNES, &hostile::first_orders());
    for k in 1..=2u32 {
        if k == 2 {
            send(
                &stack,
                LANNES,
                &message(
                    &head(LANNES, "[sound-the-charge-demo] orders", "warmup-2"),
                    GOOD.as_bytes(),
                ),
            );
        }
        send(
            &stack,
            HOHENZOLLERN,
            &message(
                &head(
                    HOHENZOLLERN,
                    "[sound-the-charge-demo] orders",
                    &format!("warmup-none-{k}"),
                ),
                b"passphrase: gott-erhalte-franz\nno orders\n",
            ),
        );
        wait_for_reply(&stack, LANNES, &format!("[{CAMPAIGN}] resolution {k}:"));
    }
    let old_report = stack
        .read_mailbox(LANNES)
        .into_iter()
        .find(|m| header_of(m, "Message-ID").contains(".r1.result."))
        .expect("the report of resolution 1");
    let state = query(
        &data,
        &format!(
            "SELECT json FROM states WHERE digest = (SELECT current_state FROM campaigns WHERE id = '{CAMPAIGN}')"
        ),
    );
    let state: serde_json::Value = serde_json::from_slice(&state[0][0]).expect("the state is JSON");
    let ctx = Context {
        turn: state["turn"].as_u64().expect("a turn") as u32,
        old_report: (
            header_of(&old_report, "Message-ID"),
            header_of(&old_report, "Subject"),
        ),
        first_orders: hostile::first_orders(),
    };
    assert_eq!(ctx.turn, 3, "two resolutions played");
    let before: usize = count(&data, "SELECT COUNT(*) FROM inbound_messages");
    let last_before: usize = count(&data, "SELECT COALESCE(MAX(id), 0) FROM inbound_messages");
    let replies_before = count(
        &data,
        "SELECT COUNT(*) FROM outbox WHERE message_id LIKE '%reply.%'",
    );
    let warm_rss = proc_kb(pid, "VmRSS");
    let warm_peak = proc_kb(pid, "VmHWM");

    // The corpus.
    let cases = hostile::corpus(&ctx);
    assert!(cases.len() >= 200, "{} cases", cases.len());
    let started = Instant::now();
    let queued: Vec<String> = cases
        .iter()
        .map(|c| send(&stack, &c.envelope, &c.raw))
        .collect();
    let sent_in = started.elapsed();
    let stored_expected = cases.iter().filter(|c| c.expect != Expect::Repeat).count();
    let replies_expected = cases
        .iter()
        .filter(|c| matches!(c.expect, Expect::Reply { .. }))
        .count();
    // Every message taken, every reply sent: the daemon neither crashed nor
    // stalled. Its memory is watched all along.
    let mut peak_rss = 0;
    loop {
        peak_rss = peak_rss.max(proc_kb(pid, "VmRSS"));
        let child = daemon.0.as_mut().expect("running");
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the daemon stopped ({status}):\n{}", daemon_log());
        }
        let done = count(
            &data,
            "SELECT COUNT(*) FROM inbound_messages WHERE outcome IS NOT NULL",
        );
        let replies = count(
            &data,
            "SELECT COUNT(*) FROM outbox WHERE message_id LIKE '%reply.%' AND status = 'sent'",
        );
        let waiting = count(&data, "SELECT COUNT(*) FROM outbox WHERE status = 'queued'");
        if done >= before + stored_expected
            && replies >= replies_before + replies_expected
            && waiting == 0
        {
            break;
        }
        assert!(
            started.elapsed() < STALL,
            "stalled: {} of {stored_expected} messages taken, {} of {replies_expected} replies sent, {waiting} queued\n{}",
            done - before,
            replies - replies_before,
            daemon_log()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let taken_in = started.elapsed();
    let after_corpus_rss = proc_kb(pid, "VmRSS");

    // Still at work: a good order after the corpus is acknowledged.
    let good_after = Instant::now();
    send(
        &stack,
        LANNES,
        &message(
            &head(LANNES, "[sound-the-charge-demo] orders", "after-the-corpus"),
            "passphrase: vive-l-empereur\n1-ligne: hold\nsalt after-the-corpus\n".as_bytes(),
        ),
    );
    let ack = wait_for_reply(&stack, LANNES, "salt after-the-corpus");
    assert!(text_of(&ack).contains(hostile::phrase::ACCEPTED));
    let good_after = good_after.elapsed();
    let peak = proc_kb(pid, "VmHWM");
    let end_rss = proc_kb(pid, "VmRSS");
    // "Sent" in the store is Postfix having taken a reply, not Dovecot
    // having it: the mailboxes are read once Postfix has handed on all.
    stack.wait_until_queue_is_empty(WAIT);

    // What each case came to: its stored row (found by the queue id
    // Postfix wrote in its Received header), its outcome and its reply.
    let rows = query(
        &data,
        &format!("SELECT id, raw, status, outcome FROM inbound_messages WHERE id > {last_before}"),
    );
    let outbox: BTreeMap<String, (String, String, String)> = query(
        &data,
        "SELECT message_id, recipient, status, body FROM outbox WHERE message_id LIKE '%reply.%'",
    )
    .into_iter()
    .map(|r| {
        let t = |i: usize| String::from_utf8_lossy(&r[i]).into_owned();
        (t(0), (t(1), t(2), t(3)))
    })
    .collect();
    let mut mailboxes: BTreeMap<String, (String, String)> = BTreeMap::new();
    for (user, _) in &users {
        for raw in stack.read_mailbox(user) {
            let id = header_of(&raw, "Message-ID");
            if is_reply_id(&id) {
                let previous = mailboxes.insert(id.clone(), (user.to_string(), text_of(&raw)));
                assert!(previous.is_none(), "reply {id} delivered twice");
            }
        }
    }
    let mut failures = Vec::new();
    let mut seen: BTreeMap<&str, Seen> = BTreeMap::new();
    for (case, queue_id) in cases.iter().zip(&queued) {
        let mine: Vec<&Vec<Vec<u8>>> = rows
            .iter()
            .filter(|r| {
                let raw = String::from_utf8_lossy(&r[1]);
                raw.match_indices(&format!("with ESMTP id {queue_id}"))
                    .any(|(at, m)| {
                        !raw[at + m.len()..].starts_with(|c: char| c.is_ascii_alphanumeric())
                    })
            })
            .collect();
        let (row, status, outcome) = match (&case.expect, mine.as_slice()) {
            (Expect::Repeat, []) => {
                seen.insert(
                    &case.name,
                    Seen {
                        status: "repeat".into(),
                        outcome: "not stored again".into(),
                        reply: None,
                    },
                );
                continue;
            }
            (_, [row]) => (
                row,
                String::from_utf8_lossy(&row[2]).into_owned(),
                String::from_utf8_lossy(&row[3]).into_owned(),
            ),
            (_, more) => {
                failures.push(format!("{}: stored {} times", case.name, more.len()));
                continue;
            }
        };
        let reply_key = format!("reply.{}", &Digest32::of(&row[1]).to_hex()[..16]);
        let queued_reply = outbox.iter().find(|(id, _)| id.contains(&reply_key));
        let delivered = mailboxes.iter().find(|(id, _)| id.contains(&reply_key));
        let stored = String::from_utf8_lossy(&row[1][..row[1].len().min(1500)]).into_owned();
        let mut fail = |why: String| {
            failures.push(format!(
                "{}: {why} (outcome: {outcome})\n    as stored: {stored:?}",
                case.name
            ))
        };
        match &case.expect {
            Expect::Reply {
                to,
                status: want,
                phrase,
            } => {
                if status != *want {
                    fail(format!("status {status}, expected {want}"));
                }
                match (queued_reply, delivered) {
                    (Some((_, (recipient, sent, body))), Some((_, (mailbox, text)))) => {
                        if recipient != to || mailbox != to {
                            fail(format!(
                                "reply to {recipient}, in {mailbox}'s mailbox, expected {to}"
                            ));
                        }
                        if sent != "sent" {
                            fail(format!("reply {sent}"));
                        }
                        if !body.contains(phrase.as_str()) || !text.contains(phrase.as_str()) {
                            fail(format!("the reply does not say `{phrase}`: {text}"));
                        }
                    }
                    (q, d) => fail(format!(
                        "expected a reply to {to}: queued {}, delivered {}",
                        q.is_some(),
                        d.is_some()
                    )),
                }
            }
            Expect::Silent { status: want } => {
                if status != *want {
                    fail(format!("status {status}, expected {want}"));
                }
                if queued_reply.is_some() || delivered.is_some() {
                    fail("answered, expected silence".into());
                }
            }
            Expect::Repeat => fail("stored again, expected a repeat".into()),
        }
        seen.insert(
            &case.name,
            Seen {
                status,
                outcome,
                reply: delivered.map(|(_, (to, text))| (to.clone(), text.clone())),
            },
        );
    }
    // The replayed message was answered once in all, in the warm-up.
    let first_acks = stack
        .read_mailbox(LANNES)
        .iter()
        .filter(|m| header_of(m, "In-Reply-To").contains("warmup-1@hostile.test"))
        .count();
    if first_acks != 1 {
        failures.push(format!(
            "replay/the-same-message: {first_acks} replies to the first orders"
        ));
    }
    // No reply but those expected, to anyone, and no secret in any.
    let expected_replies = replies_before + replies_expected + 1;
    if mailboxes.len() != expected_replies {
        failures.push(format!(
            "{} replies delivered, expected {expected_replies}",
            mailboxes.len()
        ));
    }
    for (id, (user, text)) in &mailboxes {
        for secret in hostile::SECRETS {
            if text.contains(secret) {
                failures.push(format!("a passphrase in the reply {id} to {user}"));
            }
        }
    }
    let log_text = daemon_log();
    if log_text.contains("panicked") {
        failures.push(format!("the daemon panicked:\n{log_text}"));
    }
    // Nor in the daemon's log, with the password of its mailbox.
    let imap_password = stack.password(ADJUTANT);
    for secret in hostile::SECRETS.iter().chain([&imap_password.as_str()]) {
        if log_text.contains(secret) {
            failures.push(format!("`{secret}` in the daemon's log"));
        }
    }

    // The figures, for docs/RELIABILITY.md.
    let mut families: BTreeMap<&str, (usize, BTreeMap<String, usize>)> = BTreeMap::new();
    for case in &cases {
        let entry = families.entry(case.family).or_default();
        entry.0 += 1;
        if let Some(s) = seen.get(case.name.as_str()) {
            let what = match &s.reply {
                Some((to, _))
                    if to.as_str() == LANNES
                        || to.as_str() == HOHENZOLLERN
                        || to.as_str() == GM =>
                {
                    s.status.clone()
                }
                Some(_) => format!("{} (stranger)", s.status),
                None => format!("{}, silent", s.status),
            };
            *entry.1.entry(what).or_default() += 1;
            let _ = &s.outcome;
        }
    }
    eprintln!(
        "hostile corpus: {} messages, {} stored, {} replies expected",
        cases.len(),
        stored_expected,
        replies_expected
    );
    for (family, (n, outcomes)) in &families {
        eprintln!("  {family:<16} {n:>3}  {outcomes:?}");
    }
    eprintln!(
        "sent through Postfix in {:.1} s; all taken and answered {:.1} s after the first was sent; \
         a good order after it acknowledged in {:.1} s",
        sent_in.as_secs_f64(),
        taken_in.as_secs_f64(),
        good_after.as_secs_f64()
    );
    eprintln!(
        "daemon memory: {start_rss} kB after start, {warm_rss} kB after two resolutions (peak \
         {warm_peak} kB), {peak_rss} kB resident at most while the corpus was taken, \
         {after_corpus_rss} kB after it, {end_rss} kB at the end; peak (VmHWM) {peak} kB; \
         the whole test {:.1} s",
        test_started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        peak < PEAK_LIMIT_KB,
        "the daemon's peak memory was {peak} kB, over {PEAK_LIMIT_KB} kB"
    );
    assert!(
        peak.saturating_sub(warm_peak) < CORPUS_COST_LIMIT_KB,
        "the corpus raised the daemon's peak memory from {warm_peak} kB to {peak} kB"
    );

    // SIGTERM: it stops cleanly.
    let mut child = daemon.0.take().expect("running");
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    let status = child.wait().expect("waits");
    assert!(status.success(), "{status}\n{}", daemon_log());
}
