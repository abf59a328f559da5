//! The durable outbox: recorded before it is sent, one attempt marked before
//! each send, retries with backoff, dead letters, and reconciliation after a
//! crash mid-send.

use chrono::{DateTime, Duration, Utc};

use adjutant::lifecycle::FixedClock;
use adjutant::outbound::{
    DeliveryPolicy, FileTransport, InDoubt, RecordingTransport, SendError, Transport, build,
    deliver_due, reconcile,
};
use adjutant::store::{MailPart, OutboxStatus, OutgoingMail, Store};
use mail_parser::MimeHeaders;

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-01-05T10:00:00Z")
        .expect("valid")
        .with_timezone(&Utc)
}

fn at(seconds: i64) -> FixedClock {
    FixedClock(t0() + Duration::seconds(seconds))
}

fn policy() -> DeliveryPolicy {
    DeliveryPolicy {
        from: "adjutant <adjutant@example.org>".into(),
        first_retry_seconds: 60,
        max_retry_seconds: 600,
        max_attempts: 5,
        ..DeliveryPolicy::default()
    }
}

fn mail(n: u32) -> OutgoingMail {
    OutgoingMail::text(
        format!("<test.m{n}@example.org>"),
        "lannes@french.invalid".into(),
        format!("message {n}"),
        format!("body {n}\n"),
    )
}

fn setup(messages: &[OutgoingMail]) -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("dir");
    let mut store = Store::open(&dir.path().join("data")).expect("store");
    store.queue(None, messages, t0()).expect("queued");
    (dir, store)
}

fn status(store: &Store, message_id: &str) -> (OutboxStatus, u32, DateTime<Utc>, Option<String>) {
    let e = store
        .outbox(None)
        .expect("outbox")
        .into_iter()
        .find(|e| e.mail.message_id == message_id)
        .expect("in the outbox");
    (e.status, e.attempts, e.next_attempt_at, e.last_error)
}

fn eml_files(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn html_parts_and_the_parent_id_survive_the_store() {
    let mut m = mail(1);
    m.html = Some("<p>map</p><img src=\"cid:map\">".into());
    m.in_reply_to = Some("<orders@french.invalid>".into());
    m.parts = vec![
        MailPart {
            filename: "map.png".into(),
            content_type: "image/png".into(),
            content_id: Some("map".into()),
            bytes: vec![0x89, b'P', b'N', b'G', 0, 1, 2],
        },
        MailPart {
            filename: "orders.toml".into(),
            content_type: "text/plain".into(),
            content_id: None,
            bytes: b"hold = [\"1-ligne\"]\n".to_vec(),
        },
    ];
    let (_dir, mut store) = setup(std::slice::from_ref(&m));
    let back = store.outbox(None).expect("outbox");
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].mail, m);
    assert_eq!(back[0].status, OutboxStatus::Queued);
    // Queueing the same Message-ID again is a no-op.
    assert_eq!(store.queue(None, &[m], t0()).expect("queue"), 0);
    assert_eq!(store.outbox(None).expect("outbox").len(), 1);
}

#[test]
fn a_message_is_sent_once_and_marked_sent() {
    let (_dir, mut store) = setup(&[mail(1), mail(2)]);
    let t = RecordingTransport::new();
    let r = deliver_due(&mut store, &t, &policy(), &at(0)).expect("delivers");
    assert_eq!(
        r.sent,
        vec!["<test.m1@example.org>", "<test.m2@example.org>"]
    );
    assert_eq!(t.sent().len(), 2);
    let again = deliver_due(&mut store, &t, &policy(), &at(10)).expect("delivers");
    assert!(again.is_empty());
    assert_eq!(t.sent().len(), 2);
    assert_eq!(
        status(&store, "<test.m1@example.org>").0,
        OutboxStatus::Sent
    );
}

#[test]
fn a_transient_error_is_retried_with_doubling_waits_then_succeeds() {
    let (_dir, mut store) = setup(&[mail(1)]);
    let t = RecordingTransport::new();
    t.script([
        Err(SendError::transient("451 try later")),
        Err(SendError::transient("421 busy")),
    ]);
    let id = "<test.m1@example.org>";
    let r = deliver_due(&mut store, &t, &policy(), &at(0)).expect("delivers");
    assert_eq!(
        r.retried,
        vec![(id.to_string(), t0() + Duration::seconds(60))]
    );
    let s = status(&store, id);
    assert_eq!((s.0, s.1), (OutboxStatus::Queued, 1));
    assert_eq!(s.3.as_deref(), Some("451 try later"));
    // Not due yet half-way through the wait.
    assert!(
        deliver_due(&mut store, &t, &policy(), &at(30))
            .expect("ok")
            .is_empty()
    );
    // The second failure waits twice as long, from the time it failed.
    let r = deliver_due(&mut store, &t, &policy(), &at(60)).expect("delivers");
    assert_eq!(
        r.retried,
        vec![(id.to_string(), t0() + Duration::seconds(60 + 120))]
    );
    assert!(
        deliver_due(&mut store, &t, &policy(), &at(179))
            .expect("ok")
            .is_empty()
    );
    let r = deliver_due(&mut store, &t, &policy(), &at(180)).expect("delivers");
    assert_eq!(r.sent, vec![id.to_string()]);
    assert_eq!(t.sent().len(), 1);
    assert_eq!(status(&store, id).1, 3);
}

#[test]
fn the_wait_is_capped() {
    let (_dir, mut store) = setup(&[mail(1)]);
    let t = RecordingTransport::new();
    let p = DeliveryPolicy {
        max_attempts: 20,
        ..policy()
    };
    t.script((0..6).map(|_| Err(SendError::transient("451"))));
    let mut now = 0;
    let mut waits = Vec::new();
    for _ in 0..6 {
        let r = deliver_due(&mut store, &t, &p, &at(now)).expect("delivers");
        let next = r.retried[0].1;
        waits.push((next - (t0() + Duration::seconds(now))).num_seconds());
        now = (next - t0()).num_seconds();
    }
    assert_eq!(waits, vec![60, 120, 240, 480, 600, 600]);
}

#[test]
fn a_permanent_error_makes_a_dead_letter_at_once() {
    let (_dir, mut store) = setup(&[mail(1)]);
    let t = RecordingTransport::new();
    t.script([Err(SendError::permanent("550 no such user"))]);
    let r = deliver_due(&mut store, &t, &policy(), &at(0)).expect("delivers");
    assert_eq!(r.dead.len(), 1);
    let (st, attempts, _, error) = status(&store, "<test.m1@example.org>");
    assert_eq!((st, attempts), (OutboxStatus::Dead, 1));
    assert!(error.expect("kept").contains("550 no such user"));
    // A dead letter is not tried again, however long one waits...
    assert!(
        deliver_due(&mut store, &t, &policy(), &at(86_400))
            .expect("ok")
            .is_empty()
    );
    // ...until the GM requeues it.
    assert!(
        store
            .outbox_requeue("<test.m1@example.org>", at(90_000).0)
            .expect("requeue")
    );
    let r = deliver_due(&mut store, &t, &policy(), &at(90_000)).expect("delivers");
    assert_eq!(r.sent.len(), 1);
}

#[test]
fn transient_errors_become_a_dead_letter_after_the_last_attempt() {
    let (_dir, mut store) = setup(&[mail(1)]);
    let t = RecordingTransport::new();
    t.script((0..5).map(|_| Err(SendError::transient("421 busy"))));
    let mut now = 0;
    for _ in 0..4 {
        let r = deliver_due(&mut store, &t, &policy(), &at(now)).expect("delivers");
        now = (r.retried[0].1 - t0()).num_seconds();
    }
    let r = deliver_due(&mut store, &t, &policy(), &at(now)).expect("delivers");
    assert!(
        r.dead[0].1.contains("gave up after 5 attempts"),
        "{:?}",
        r.dead
    );
    assert_eq!(
        status(&store, "<test.m1@example.org>").0,
        OutboxStatus::Dead
    );
    assert!(t.sent().is_empty());
}

#[test]
fn a_message_that_cannot_be_built_is_dead_without_an_attempt() {
    let mut bad = mail(1);
    bad.recipient = "nobody at all".into();
    let (_dir, mut store) = setup(&[bad, mail(2)]);
    let t = RecordingTransport::new();
    let r = deliver_due(&mut store, &t, &policy(), &at(0)).expect("delivers");
    assert_eq!(r.dead.len(), 1);
    assert_eq!(r.sent, vec!["<test.m2@example.org>"]);
}

/// Simulates a crash after the attempt was marked: the process stops before
/// (or after) the transport was called, and never records the result.
fn crash_mid_send(store: &mut Store, transport: Option<&dyn Transport>) {
    let entry = store.outbox_due(t0(), 1).expect("due").remove(0);
    assert!(store.outbox_begin_attempt(entry.id, t0()).expect("marked"));
    if let Some(t) = transport {
        let built = build(&entry.mail, &policy().from, entry.created_at).expect("builds");
        t.send(&built).expect("sent");
    }
}

#[test]
fn a_crash_after_the_file_was_written_sends_nothing_twice() {
    let (dir, mut store) = setup(&[mail(1)]);
    let out = dir.path().join("mail");
    let files = FileTransport::new(&out);
    crash_mid_send(&mut store, Some(&files));
    drop(store);
    let written = std::fs::read(files.path_for("<test.m1@example.org>")).expect("written");

    let mut store = Store::open(&dir.path().join("data")).expect("reopens");
    assert_eq!(
        status(&store, "<test.m1@example.org>").0,
        OutboxStatus::InFlight
    );
    // A message in flight is not due: only reconciliation settles it.
    assert!(store.outbox_due(at(3600).0, 10).expect("due").is_empty());
    let r = reconcile(&mut store, &files, &policy(), &at(5)).expect("reconciles");
    assert_eq!(r.already_sent, vec!["<test.m1@example.org>"]);
    assert!(
        deliver_due(&mut store, &files, &policy(), &at(5))
            .expect("ok")
            .is_empty()
    );
    assert_eq!(
        status(&store, "<test.m1@example.org>").0,
        OutboxStatus::Sent
    );
    assert_eq!(eml_files(&out), vec!["test.m1@example.org.eml"]);
    assert_eq!(
        std::fs::read(files.path_for("<test.m1@example.org>")).expect("kept"),
        written
    );
}

#[test]
fn a_crash_before_the_file_was_written_sends_it_once_on_restart() {
    let (dir, mut store) = setup(&[mail(1)]);
    let out = dir.path().join("mail");
    let files = FileTransport::new(&out);
    crash_mid_send(&mut store, None);
    drop(store);

    let mut store = Store::open(&dir.path().join("data")).expect("reopens");
    let r = reconcile(&mut store, &files, &policy(), &at(5)).expect("reconciles");
    assert_eq!(r.retried.len(), 1);
    let r = deliver_due(&mut store, &files, &policy(), &at(5)).expect("delivers");
    assert_eq!(r.sent, vec!["<test.m1@example.org>"]);
    assert_eq!(eml_files(&out), vec!["test.m1@example.org.eml"]);
    let (st, attempts, _, _) = status(&store, "<test.m1@example.org>");
    assert_eq!((st, attempts), (OutboxStatus::Sent, 2));
}

#[test]
fn a_crash_with_a_transport_that_cannot_tell_follows_the_in_doubt_choice() {
    // Resend: nothing is lost; the message goes out (again) once.
    let (_dir, mut store) = setup(&[mail(1)]);
    let smtp_like = RecordingTransport::forgetful();
    crash_mid_send(&mut store, Some(&smtp_like));
    let r = reconcile(&mut store, &smtp_like, &policy(), &at(5)).expect("reconciles");
    assert_eq!(r.retried.len(), 1);
    deliver_due(&mut store, &smtp_like, &policy(), &at(5)).expect("delivers");
    assert_eq!(
        smtp_like.sent().len(),
        2,
        "sent before the crash and once after"
    );
    assert_eq!(
        status(&store, "<test.m1@example.org>").0,
        OutboxStatus::Sent
    );

    // Dead letter: nothing goes out twice; the GM is told why.
    let (_dir, mut store) = setup(&[mail(1)]);
    let smtp_like = RecordingTransport::forgetful();
    crash_mid_send(&mut store, Some(&smtp_like));
    let p = DeliveryPolicy {
        in_doubt: InDoubt::DeadLetter,
        ..policy()
    };
    let r = reconcile(&mut store, &smtp_like, &p, &at(5)).expect("reconciles");
    assert_eq!(r.dead.len(), 1);
    assert!(
        deliver_due(&mut store, &smtp_like, &p, &at(5))
            .expect("ok")
            .is_empty()
    );
    assert_eq!(smtp_like.sent().len(), 1);
    let (st, _, _, error) = status(&store, "<test.m1@example.org>");
    assert_eq!(st, OutboxStatus::Dead);
    assert!(error.expect("why").contains("may or may not have gone out"));
}

#[test]
fn the_file_transport_writes_what_mail_parser_reads_back() {
    let mut m = mail(7);
    m.html = Some("<p>Le <b>2e Ligne</b> tient.</p><img src=\"cid:map-1\">".into());
    m.body = "Le 2e Ligne tient bon à Mühlbach.\n".into();
    m.parts = vec![
        MailPart {
            filename: "map.png".into(),
            content_type: "image/png".into(),
            content_id: Some("map-1".into()),
            bytes: vec![0x89, b'P', b'N', b'G', 13, 10, 26, 10],
        },
        MailPart {
            filename: "archive.txt".into(),
            content_type: "text/plain; charset=utf-8".into(),
            content_id: None,
            bytes: b"r_1 = 00ff\n".to_vec(),
        },
    ];
    m.in_reply_to = Some("<orders-7@french.invalid>".into());
    let (dir, mut store) = setup(std::slice::from_ref(&m));
    let files = FileTransport::new(dir.path().join("mail"));
    deliver_due(&mut store, &files, &policy(), &at(0)).expect("delivers");
    let raw = std::fs::read(files.path_for(&m.message_id)).expect("written");
    let parsed = mail_parser::MessageParser::default()
        .parse(&raw)
        .expect("parses");
    assert_eq!(parsed.message_id(), Some("test.m7@example.org"));
    assert_eq!(
        parsed.in_reply_to().as_text(),
        Some("orders-7@french.invalid")
    );
    assert_eq!(
        parsed.date().map(|d| d.to_timestamp()),
        Some(t0().timestamp())
    );
    assert_eq!(
        parsed.header_raw("Auto-Submitted").map(str::trim),
        Some("auto-replied")
    );
    // Mail text travels with CRLF line ends.
    assert_eq!(
        parsed
            .body_text(0)
            .map(|b| b.replace("\r\n", "\n"))
            .as_deref(),
        Some(m.body.as_str())
    );
    assert!(
        parsed
            .body_html(0)
            .expect("html")
            .contains("<b>2e Ligne</b>")
    );
    let text = String::from_utf8_lossy(&raw);
    assert!(text.contains("multipart/mixed"), "{text}");
    assert!(text.contains("multipart/alternative"), "{text}");
    assert!(text.contains("multipart/related"), "{text}");
    assert!(text.contains("Content-ID: <map-1>"), "{text}");
    let attachments: Vec<_> = parsed.attachments().collect();
    assert_eq!(attachments.len(), 2);
    assert!(
        attachments
            .iter()
            .any(|a| a.contents() == m.parts[0].bytes.as_slice())
    );
    assert!(
        attachments
            .iter()
            .any(|a| a.attachment_name() == Some("archive.txt"))
    );
}

/// Several messages go out at once over a transport that allows it; each
/// attempt is still marked before the sending starts, and each result is
/// recorded for its own message, whatever the order the sends finish in.
#[test]
fn messages_sent_at_once_each_get_their_own_result() {
    let messages: Vec<OutgoingMail> = (1..=6).map(mail).collect();
    let (_dir, mut store) = setup(&messages);
    let transport = RecordingTransport::parallel(4, std::time::Duration::from_millis(50));
    transport.fail("<test.m2@example.org>", SendError::transient("421 busy"));
    transport.fail(
        "<test.m5@example.org>",
        SendError::permanent("550 no such user"),
    );
    let mut report = deliver_due(&mut store, &transport, &policy(), &at(0)).expect("delivers");
    // Recorded as they came back, so in any order.
    report.sent.sort();
    assert_eq!(
        report.sent,
        [
            "<test.m1@example.org>",
            "<test.m3@example.org>",
            "<test.m4@example.org>",
            "<test.m6@example.org>"
        ]
    );
    assert_eq!(report.retried.len(), 1);
    assert_eq!(report.retried[0].0, "<test.m2@example.org>");
    assert_eq!(report.dead.len(), 1);
    assert!(report.dead[0].1.contains("550"), "{:?}", report.dead);
    assert!(
        transport.most_at_once() > 1,
        "the sends overlapped (at most {} at once)",
        transport.most_at_once()
    );
    assert!(transport.most_at_once() <= 4);
    let (s2, attempts2, next2, error2) = status(&store, "<test.m2@example.org>");
    assert_eq!(s2, OutboxStatus::Queued);
    assert_eq!(attempts2, 1);
    assert_eq!(next2, t0() + Duration::seconds(60));
    assert!(error2.is_some_and(|e| e.contains("421")));
    assert_eq!(
        status(&store, "<test.m5@example.org>").0,
        OutboxStatus::Dead
    );
    for n in [1, 3, 4, 6] {
        assert_eq!(
            status(&store, &format!("<test.m{n}@example.org>")).0,
            OutboxStatus::Sent
        );
    }
    assert_eq!(transport.sent().len(), 4);
}

/// A transport that looks at the store through its own connection while it
/// is handed each message, as a crash would find it.
struct Watching {
    data: std::path::PathBuf,
    marked_when_handed: std::sync::Mutex<Vec<String>>,
    fast_recorded_while_slow_sent: std::sync::Mutex<bool>,
}

impl Watching {
    fn status_of(&self, message_id: &str) -> OutboxStatus {
        let store = Store::open(&self.data).expect("a second connection");
        store
            .outbox(None)
            .expect("outbox")
            .into_iter()
            .find(|e| e.mail.message_id == message_id)
            .map(|e| e.status)
            .expect("in the outbox")
    }
}

impl Transport for Watching {
    fn describe(&self) -> String {
        "watching".into()
    }

    fn connections(&self) -> usize {
        2
    }

    fn send(&self, message: &adjutant::outbound::BuiltMessage) -> Result<(), SendError> {
        if self.status_of(&message.message_id) == OutboxStatus::InFlight {
            self.marked_when_handed
                .lock()
                .expect("lock")
                .push(message.message_id.clone());
        }
        // The first message is slow: the second, sent beside it, must be
        // recorded as sent before the first is done.
        if message.message_id == "<test.m1@example.org>" {
            for _ in 0..500 {
                if self.status_of("<test.m2@example.org>") == OutboxStatus::Sent {
                    *self.fast_recorded_while_slow_sent.lock().expect("lock") = true;
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        }
        Ok(())
    }

    fn delivered(&self, _message_id: &str) -> adjutant::outbound::Delivered {
        adjutant::outbound::Delivered::Unknown
    }
}

/// Sent two at a time, each message is already marked in flight in the
/// store when the transport is handed it, and each result is recorded as it
/// comes back: the quick one is marked sent while the slow one is still
/// going, so a crash then would leave only the slow one in doubt.
#[test]
fn each_message_is_marked_before_it_is_handed_over_and_recorded_as_it_returns() {
    let (dir, mut store) = setup(&[mail(1), mail(2)]);
    let transport = Watching {
        data: dir.path().join("data"),
        marked_when_handed: std::sync::Mutex::new(Vec::new()),
        fast_recorded_while_slow_sent: std::sync::Mutex::new(false),
    };
    let report = deliver_due(&mut store, &transport, &policy(), &at(0)).expect("delivers");
    assert_eq!(report.sent.len(), 2);
    let mut marked = transport.marked_when_handed.lock().expect("lock").clone();
    marked.sort();
    assert_eq!(marked, ["<test.m1@example.org>", "<test.m2@example.org>"]);
    assert!(
        *transport
            .fast_recorded_while_slow_sent
            .lock()
            .expect("lock"),
        "the quick message was recorded only after the slow one"
    );
}

#[test]
fn a_group_is_marked_in_one_commit_and_a_message_already_in_flight_is_not_marked_again() {
    let (_dir, mut store) = setup(&[mail(1), mail(2), mail(3)]);
    let ids: Vec<i64> = store
        .outbox_due(t0(), 10)
        .expect("due")
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids.len(), 3);
    assert!(store.outbox_begin_attempt(ids[1], t0()).expect("marked"));
    let marked = store.outbox_begin_attempts(&ids, t0()).expect("marked");
    assert_eq!(marked, vec![true, false, true]);
    for id in ["<test.m1@example.org>", "<test.m3@example.org>"] {
        assert_eq!(status(&store, id).0, OutboxStatus::InFlight, "{id}");
    }
    assert!(store.outbox_due(t0(), 10).expect("due").is_empty());
}

#[test]
fn a_sent_message_loses_its_attachments_once_old_and_one_still_to_send_keeps_them() {
    let with_map = |n: u32| {
        let mut m = mail(n);
        m.parts = vec![MailPart {
            filename: "map.png".into(),
            content_type: "image/png".into(),
            content_id: Some("map".into()),
            bytes: vec![0x89, b'P', b'N', b'G', n as u8],
        }];
        m
    };
    let (_dir, mut store) = setup(&[with_map(1), with_map(2)]);
    // The third is queued a day later, so the pass at t0 leaves it waiting.
    store
        .queue(None, &[with_map(3)], t0() + Duration::days(1))
        .expect("queued");
    let r = deliver_due(&mut store, &RecordingTransport::new(), &policy(), &at(0)).expect("sends");
    assert_eq!(r.sent.len(), 2);
    let parts = |store: &Store| -> Vec<(String, usize)> {
        store
            .outbox(None)
            .expect("outbox")
            .into_iter()
            .map(|e| (e.mail.message_id, e.mail.parts.len()))
            .collect()
    };

    // Sent at t0: kept while "before" is not after it.
    assert_eq!(store.outbox_drop_sent_attachments(t0()).expect("drops"), 0);
    assert!(parts(&store).iter().all(|(_, n)| *n == 1));

    let dropped = store
        .outbox_drop_sent_attachments(t0() + Duration::seconds(1))
        .expect("drops");
    assert_eq!(dropped, 2);
    assert_eq!(
        parts(&store),
        vec![
            ("<test.m1@example.org>".to_string(), 0),
            ("<test.m2@example.org>".to_string(), 0),
            ("<test.m3@example.org>".to_string(), 1),
        ]
    );
    // The text of a message whose attachments went stays.
    let first = store.outbox(None).expect("outbox").remove(0);
    assert_eq!(first.mail.body, "body 1\n");
    assert_eq!(first.status, OutboxStatus::Sent);
    assert_eq!(
        store
            .outbox_drop_sent_attachments(t0() + Duration::days(400))
            .expect("drops"),
        0,
        "the message still to send keeps its map however old it is"
    );
}
