//! End to end through a real mail stack: players' mail sent over SMTP to a
//! private Postfix on 127.0.0.1, delivered by Dovecot into the GM's mailbox,
//! read by adjutant over IMAP and ingested.
//!
//! The stack comes from `tests/support/mailstack.rs`; `.ci/run` installs
//! Postfix and Dovecot.

mod support;

use std::process::Command;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use adjutant::engine;
use adjutant::inbox::imap::{AfterStore, ImapConfig, ImapError, ImapInbox, Security, Wake};
use adjutant::ingest::{IngestConfig, Outcome};
use adjutant::lifecycle::FixedClock;
use adjutant::outbound::{DeliveryPolicy, SmtpConfig, SmtpSecurity, SmtpTransport, deliver_due};
use adjutant::store::Store;
use support::mailstack::MailStack;

const ID: &str = "sound-the-charge-demo";
/// The campaign's GM address, which is also the mailbox adjutant reads.
const GM: &str = "umpire@example.org";
const LANNES: &str = "lannes@french.invalid";
const HOHENZOLLERN: &str = "hohenzollern@austrian.invalid";
const SUBJECT: &str = "[sound-the-charge-demo] orders for turn 1";
const WAIT: Duration = Duration::from_secs(30);

fn stack() -> Option<MailStack> {
    MailStack::start(&[
        (GM, "gm-imap-password"),
        (LANNES, "lannes-imap-password"),
        (HOHENZOLLERN, "hohenzollern-imap-password"),
    ])
}

fn now() -> FixedClock {
    FixedClock(
        DateTime::parse_from_rfc3339("2026-01-05T10:00:00Z")
            .expect("valid")
            .with_timezone(&Utc),
    )
}

fn ingest_config() -> IngestConfig {
    IngestConfig {
        own_addresses: vec![GM.into()],
        ..IngestConfig::default()
    }
}

fn campaign_store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("dir");
    let campaign = adjutant::demo::bundled_campaign(&dir.path().join("campaign")).expect("loads");
    let mut store = Store::open(&dir.path().join("data")).expect("store");
    engine::init(&mut store, &campaign, &dir.path().join("campaign"), &now()).expect("init");
    (dir, store)
}

fn imap_config(stack: &MailStack) -> ImapConfig {
    let mut config = ImapConfig::new("127.0.0.1", stack.imap_port, GM, &stack.password(GM));
    config.security = Security::Plain;
    config.io_timeout = Duration::from_secs(20);
    config
}

/// A message; its Message-ID is made from everything else in it, so that
/// two different messages never share one.
fn mail(from: &str, subject: &str, headers: &str, body: &str) -> Vec<u8> {
    let id = adjutant::audit::Digest32::of(format!("{from}{subject}{headers}{body}").as_bytes());
    format!(
        "From: {from}\r\nTo: {GM}\r\nSubject: {subject}\r\nMessage-ID: <{}@test>\r\n{headers}\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{}",
        &id.to_hex()[..16],
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

fn send(stack: &MailStack, from: &str, raw: &[u8]) {
    stack
        .send(from, &[GM], raw)
        .unwrap_or_else(|e| panic!("SMTP refused the message: {e}\n{}", stack.logs()));
}

/// The outbox's SMTP transport pointed at the private Postfix.
fn smtp(stack: &MailStack) -> SmtpTransport {
    SmtpTransport::new(&SmtpConfig {
        host: "127.0.0.1".into(),
        port: Some(stack.smtp_port),
        security: SmtpSecurity::Plain,
        username: None,
        password_file: None,
        ca_file: None,
        timeout_seconds: Some(20),
        connections: None,
    })
    .expect("SMTP transport")
}

fn policy() -> DeliveryPolicy {
    DeliveryPolicy {
        from: format!("The Umpire <{GM}>"),
        ..DeliveryPolicy::default()
    }
}

fn text_of(raw: &[u8]) -> String {
    mail_parser::MessageParser::default()
        .parse(raw)
        .and_then(|m| m.body_text(0).map(|t| t.into_owned()))
        .unwrap_or_default()
}

fn replies_to(store: &Store, recipient: &str) -> Vec<adjutant::store::OutgoingMail> {
    store
        .queued_mail(ID)
        .expect("outbox")
        .into_iter()
        .filter(|m| m.message_id.contains(".reply.") && m.recipient == recipient)
        .collect()
}

#[test]
fn the_stack_delivers_smtp_mail_to_an_imap_mailbox() {
    let Some(stack) = stack() else { return };
    let raw = b"From: lannes@french.invalid\r\nTo: umpire@example.org\r\nSubject: hello\r\nMessage-ID: <1@t>\r\n\r\n.dotted line\r\nbody\r\n";
    send(&stack, LANNES, raw);
    let mail = stack.wait_for_mail(GM, 1, WAIT);
    let text = String::from_utf8_lossy(&mail[0]);
    assert!(text.contains("\r\n.dotted line\r\n"), "{text}");
}

#[test]
fn orders_sent_over_smtp_are_read_over_imap_stored_acknowledged_and_flagged_seen() {
    let Some(stack) = stack() else { return };
    let (_dir, mut store) = campaign_store();
    let raw = mail(
        "Jean Lannes <lannes@french.invalid>",
        SUBJECT,
        "",
        "passphrase: vive-l-empereur\n1-ligne: hold\nsalt 7\n-- \nJ.L.\n",
    );
    send(&stack, LANNES, &raw);
    stack.wait_for_mail(GM, 1, WAIT);

    let mut inbox = ImapInbox::connect(imap_config(&stack)).expect("IMAP login");
    let summary = inbox
        .fetch_once(&mut store, &ingest_config(), &now())
        .expect("fetch");
    assert_eq!(summary.fetched(), 1, "{summary:?}");
    let Outcome::Accepted { side, .. } = &summary.outcomes[0].1 else {
        panic!("{summary:?}");
    };
    assert_eq!(side, "french");
    assert!(
        engine::sides_in(&store, ID)
            .expect("sides")
            .contains("french"),
        "the orders are stored"
    );
    let acks = replies_to(&store, LANNES);
    assert_eq!(acks.len(), 1, "one acknowledgement queued");
    assert!(
        acks[0].body.contains("1-ligne: hold"),
        "the accepted order is echoed: {}",
        acks[0].body
    );

    // Flagged seen on the server only now, and not taken a second time.
    assert_eq!(stack.count(GM, "INBOX", "UNSEEN"), 0);
    assert_eq!(stack.count(GM, "INBOX", "ALL"), 1, "left in place");
    let again = inbox
        .fetch_once(&mut store, &ingest_config(), &now())
        .expect("fetch");
    assert_eq!(again.fetched(), 0, "{again:?}");
    assert_eq!(replies_to(&store, LANNES).len(), 1, "no second reply");

    // The acknowledgement goes out through Postfix and lands in the
    // player's own mailbox, where a mail client reads it over IMAP.
    // (The campaign's opening messages, queued at registration, go too.)
    let report = deliver_due(&mut store, &smtp(&stack), &policy(), &now()).expect("deliver");
    assert!(
        report.dead.is_empty() && report.retried.is_empty(),
        "{report:?}"
    );
    assert_eq!(
        report
            .sent
            .iter()
            .filter(|id| id.contains(".reply."))
            .count(),
        1,
        "{report:?}"
    );
    let received = stack.wait_for_mail(LANNES, 2, WAIT);
    let ack = received
        .iter()
        .find(|m| text_of(m).contains("Digest of your accepted orders: "))
        .unwrap_or_else(|| panic!("no acknowledgement among {} messages", received.len()));
    let raw = String::from_utf8_lossy(ack).into_owned();
    assert!(raw.contains("Auto-Submitted: auto-replied"), "{raw}");
    assert!(raw.contains(GM), "from adjutant's address: {raw}");
    assert!(text_of(ack).contains("1-ligne: hold"), "{}", text_of(ack));
    // Sent once: a second pass finds nothing due, and the player has no copy.
    let again = deliver_due(&mut store, &smtp(&stack), &policy(), &now()).expect("deliver");
    assert!(again.sent.is_empty(), "{again:?}");
    assert_eq!(stack.read_mailbox(LANNES).len(), 2);
    // What adjutant sent to its own address (the GM's opening message) is
    // read back, and never answered: no loop.
    stack.wait_for_mail(GM, 2, WAIT);
    let own = inbox
        .fetch_once(&mut store, &ingest_config(), &now())
        .expect("fetch");
    assert!(
        own.outcomes
            .iter()
            .all(|(_, o)| matches!(o, Outcome::Ignored { .. })),
        "{own:?}"
    );
    assert!(
        replies_to(&store, GM).is_empty(),
        "no reply to our own mail"
    );
    inbox.logout();
}

#[test]
fn a_message_fetched_again_after_a_crash_before_flagging_is_not_acted_on_twice() {
    let Some(stack) = stack() else { return };
    let (_dir, mut store) = campaign_store();
    let raw = mail(
        LANNES,
        SUBJECT,
        "",
        "passphrase vive-l-empereur\ngarde: hold\n",
    );
    send(&stack, LANNES, &raw);
    let delivered = stack.wait_for_mail(GM, 1, WAIT);
    // The crash: the bytes as delivered were ingested, the flag never set.
    adjutant::ingest::ingest(&mut store, &delivered[0], "imap", &ingest_config(), &now())
        .expect("ingest");
    assert_eq!(stack.count(GM, "INBOX", "UNSEEN"), 1);

    let mut inbox = ImapInbox::connect(imap_config(&stack)).expect("IMAP login");
    let summary = inbox
        .fetch_once(&mut store, &ingest_config(), &now())
        .expect("fetch");
    assert!(
        matches!(summary.outcomes[..], [(_, Outcome::Duplicate { .. })]),
        "{summary:?}"
    );
    assert_eq!(stack.count(GM, "INBOX", "UNSEEN"), 0, "flagged this time");
    assert_eq!(replies_to(&store, LANNES).len(), 1, "one reply in all");
}

#[test]
fn a_wrong_passphrase_hostile_mail_and_auto_replies_get_the_documented_treatment() {
    let Some(stack) = stack() else { return };
    let (_dir, mut store) = campaign_store();
    let wrong = mail(
        LANNES,
        SUBJECT,
        "",
        "passphrase: vive-le-roi\n1-ligne: hold\n",
    );
    let auto = mail(
        HOHENZOLLERN,
        "Out of office: [sound-the-charge-demo] orders for turn 1",
        "Auto-Submitted: auto-replied\r\n",
        "I am away until Monday.\n",
    );
    let bulk = mail(
        HOHENZOLLERN,
        SUBJECT,
        "Precedence: bulk\r\n",
        "passphrase gott-erhalte-franz\n1-ligne: hold\n",
    );
    // Hostile: a broken multipart (no closing boundary), 8-bit garbage in a
    // header and a body that claims base64 and is not.
    let mut hostile =
        format!("From: {HOHENZOLLERN}\r\nTo: {GM}\r\nSubject: =?utf-8?B?!!!notbase64?= ")
            .into_bytes();
    hostile.extend_from_slice(&[0xff, 0xfe, 0xc3]);
    hostile.extend_from_slice(
        b"\r\nMessage-ID: <hostile@test>\r\nMIME-Version: 1.0\r\n\
          Content-Type: multipart/mixed; boundary=\"zz\"\r\n\r\n--zz\r\n\
          Content-Type: text/plain; charset=x-no-such-charset\r\n\
          Content-Transfer-Encoding: base64\r\n\r\n%%%% not base64 %%%%\r\n",
    );
    // Larger than the size limit: taken, stored, and answered with its size
    // (the true size, though only the bytes past the limit were fetched)
    // and the limit.
    let huge = mail(
        HOHENZOLLERN,
        SUBJECT,
        "",
        &format!(
            "passphrase gott-erhalte-franz\n{}",
            "x".repeat(76).repeat(8000).as_str()
        ),
    );
    // One at a time, each in the mailbox before the next is sent: Postfix
    // delivers several at once, in any order, and the outcomes are read in
    // the order the mailbox holds them.
    for (i, (from, raw)) in [
        (LANNES, &wrong),
        (HOHENZOLLERN, &auto),
        (HOHENZOLLERN, &bulk),
        (HOHENZOLLERN, &hostile),
        (HOHENZOLLERN, &huge),
    ]
    .into_iter()
    .enumerate()
    {
        send(&stack, from, raw);
        stack.wait_for_mail(GM, i + 1, WAIT);
    }
    // The empty return path of a bounce: MAIL FROM:<>.
    let bounce = mail(
        "MAILER-DAEMON@austrian.invalid",
        "Undelivered Mail Returned to Sender",
        "",
        "passphrase gott-erhalte-franz\n1-ligne: hold\n",
    );
    stack
        .send("", &[GM], &bounce)
        .unwrap_or_else(|e| panic!("{e}\n{}", stack.logs()));
    stack.wait_for_mail(GM, 6, WAIT);

    let mut inbox = ImapInbox::connect(imap_config(&stack)).expect("IMAP login");
    let summary = inbox
        .fetch_once(&mut store, &ingest_config(), &now())
        .expect("fetch");
    let outcomes: Vec<&Outcome> = summary.outcomes.iter().map(|(_, o)| o).collect();
    assert_eq!(outcomes.len(), 6, "{outcomes:#?}");
    assert!(
        matches!(outcomes[0], Outcome::Refused { .. }),
        "wrong passphrase: {:?}",
        outcomes[0]
    );
    for (what, o) in [
        ("auto-reply", outcomes[1]),
        ("bulk", outcomes[2]),
        ("bounce", outcomes[5]),
    ] {
        assert!(matches!(o, Outcome::Ignored { .. }), "{what}: {o:?}");
    }
    let Outcome::Refused { reason } = outcomes[3] else {
        panic!("hostile mail: {:?}", outcomes[3]);
    };
    assert!(reason.contains("could not be read"), "{reason}");
    let Outcome::Refused { reason } = outcomes[4] else {
        panic!("oversize: {:?}", outcomes[4]);
    };
    let size: usize = reason
        .strip_prefix("the message is ")
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no size in {reason}"));
    assert!(
        size >= huge.len(),
        "the true size, not the bytes fetched: {reason}"
    );
    assert!(
        reason.contains("over the limit of 524288 bytes"),
        "{reason}"
    );
    assert!(
        engine::sides_in(&store, ID).expect("sides").is_empty(),
        "nothing stored as orders"
    );
    let refusal = replies_to(&store, LANNES);
    assert_eq!(refusal.len(), 1);
    assert!(
        refusal[0].body.contains("do not match a player"),
        "{}",
        refusal[0].body
    );
    assert!(
        !refusal[0].body.contains("vive-l-empereur"),
        "the reply reveals nothing"
    );
    assert!(
        replies_to(&store, HOHENZOLLERN)
            .iter()
            .all(|r| !r.body.contains("I am away")),
        "no answer to the auto-reply"
    );
    assert_eq!(
        replies_to(&store, HOHENZOLLERN).len(),
        2,
        "the unreadable and the oversize messages are answered"
    );
    // Every one was let go, so none comes round again.
    assert_eq!(stack.count(GM, "INBOX", "UNSEEN"), 0);

    // The refusal reaches the player; nothing reaches the machines.
    deliver_due(&mut store, &smtp(&stack), &policy(), &now()).expect("deliver");
    let received = stack.wait_for_mail(LANNES, 2, WAIT);
    assert!(
        received
            .iter()
            .any(|m| text_of(m).contains("do not match a player")),
        "no refusal among {} messages",
        received.len()
    );
}

#[test]
fn idle_wakes_when_mail_arrives_and_the_fetch_then_takes_it() {
    let Some(stack) = stack() else { return };
    let (_dir, mut store) = campaign_store();
    let mut inbox = ImapInbox::connect(imap_config(&stack)).expect("IMAP login");
    assert!(inbox.supports_idle(), "Dovecot offers IDLE");
    let empty = inbox
        .fetch_once(&mut store, &ingest_config(), &now())
        .expect("fetch");
    assert_eq!(empty.fetched(), 0);
    let port = stack.smtp_port;
    let raw = mail(
        LANNES,
        SUBJECT,
        "",
        "passphrase vive-l-empereur\n1-ligne: hold\n",
    );
    let sender = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(500));
        support::mailstack::smtp_send(port, LANNES, &[GM], &raw)
    });
    // Far longer than delivery takes: a wake by timeout would fail below.
    let wake = inbox.idle_wait(Duration::from_secs(60)).expect("IDLE");
    sender.join().expect("sender").expect("SMTP");
    assert_eq!(wake, Wake::Changed);
    let summary = inbox
        .fetch_once(&mut store, &ingest_config(), &now())
        .expect("fetch");
    assert!(
        matches!(summary.outcomes[..], [(_, Outcome::Accepted { .. })]),
        "{summary:?}"
    );
    // A quiet mailbox: the wait ends at its timeout.
    let quiet = inbox.idle_wait(Duration::from_secs(1)).expect("IDLE");
    assert_eq!(quiet, Wake::TimedOut);
    // And the connection is still good after IDLE.
    let none = inbox
        .fetch_once(&mut store, &ingest_config(), &now())
        .expect("fetch");
    assert_eq!(none.fetched(), 0);
}

#[test]
fn a_message_can_be_moved_to_a_folder_once_stored() {
    let Some(stack) = stack() else { return };
    let (_dir, mut store) = campaign_store();
    send(
        &stack,
        LANNES,
        &mail(
            LANNES,
            SUBJECT,
            "",
            "passphrase vive-l-empereur\n1-ligne: hold\n",
        ),
    );
    stack.wait_for_mail(GM, 1, WAIT);
    let mut config = imap_config(&stack);
    config.after = AfterStore::MoveTo("Handled".to_string());
    let mut inbox = ImapInbox::connect(config).expect("IMAP login");
    let summary = inbox
        .fetch_once(&mut store, &ingest_config(), &now())
        .expect("fetch");
    assert_eq!(summary.fetched(), 1);
    assert_eq!(stack.count(GM, "INBOX", "ALL"), 0, "moved out of the inbox");
    assert_eq!(stack.count(GM, "Handled", "ALL"), 1);
}

#[test]
fn tls_and_starttls_trust_the_given_authority_only() {
    let Some(stack) = stack() else { return };
    let mut tls = imap_config(&stack);
    tls.security = Security::Tls;
    tls.port = stack.imaps_port;
    tls.ca_file = Some(stack.ca_file.clone());
    ImapInbox::connect(tls.clone())
        .expect("TLS with the test authority")
        .logout();

    let mut starttls = imap_config(&stack);
    starttls.security = Security::StartTls;
    starttls.ca_file = Some(stack.ca_file.clone());
    ImapInbox::connect(starttls)
        .expect("STARTTLS with the test authority")
        .logout();

    // Without the authority, the server's certificate is not trusted and the
    // password is never sent.
    tls.ca_file = None;
    let err = ImapInbox::connect(tls).expect_err("untrusted certificate");
    assert!(matches!(err, ImapError::Tls { .. }), "{err}");

    let mut wrong = imap_config(&stack);
    wrong.password = "not-the-password".into();
    let err = ImapInbox::connect(wrong).expect_err("bad password");
    assert!(matches!(err, ImapError::Login { .. }), "{err}");
}

#[test]
fn python_smtplib_as_an_independent_client_and_the_imap_command() {
    let Some(stack) = stack() else { return };
    let dir = tempfile::tempdir().expect("dir");
    let campaign_dir = dir.path().join("campaign");
    adjutant::demo::bundled_campaign(&campaign_dir).expect("campaign");
    let data = dir.path().join("data");
    let bin = env!("CARGO_BIN_EXE_adjutant");
    let at = "2026-01-05T10:00:00Z";
    let init = Command::new(bin)
        .args(["--now", at, "init", "--data"])
        .arg(&data)
        .arg(&campaign_dir)
        .output()
        .expect("adjutant init");
    assert!(init.status.success(), "{init:?}");

    let script = r#"
import smtplib, sys
from email.message import EmailMessage
m = EmailMessage()
m["From"] = "Marshal Lannes <lannes@french.invalid>"
m["To"] = "umpire@example.org"
m["Subject"] = "Re: [sound-the-charge-demo] orders for turn 1"
m.set_content("Orders, Sire.\n\npassphrase: vive-l-empereur\n1-ligne: hold\n\n> quoted report line\n")
with smtplib.SMTP("127.0.0.1", int(sys.argv[1]), timeout=30) as s:
    s.send_message(m)
"#;
    let python = Command::new("python3")
        .args(["-c", script, &stack.smtp_port.to_string()])
        .output()
        .expect("python3");
    assert!(python.status.success(), "{python:?}\n{}", stack.logs());
    stack.wait_for_mail(GM, 1, WAIT);

    let password_file = dir.path().join("imap-password");
    std::fs::write(&password_file, format!("{}\n", stack.password(GM))).expect("write");
    let run = Command::new(bin)
        .args(["--now", at, "imap", "--once", "--security", "plain"])
        .args([
            "--host",
            "127.0.0.1",
            "--port",
            &stack.imap_port.to_string(),
        ])
        .args(["--user", GM, "--own-address", GM, "--data"])
        .arg(&data)
        .arg("--password-file")
        .arg(&password_file)
        .output()
        .expect("adjutant imap");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{run:?}");
    assert!(
        stdout.contains("accepted: sound-the-charge-demo french"),
        "{stdout}"
    );
    assert_eq!(stack.count(GM, "INBOX", "UNSEEN"), 0);

    // Plain text to an address off this machine is refused before any
    // connection is made (192.0.2.1 is a documentation address, RFC 5737).
    let refused = Command::new(bin)
        .args([
            "imap",
            "--once",
            "--security",
            "plain",
            "--host",
            "192.0.2.1",
        ])
        .args(["--user", GM, "--data"])
        .arg(&data)
        .arg("--password-file")
        .arg(&password_file)
        .output()
        .expect("adjutant imap");
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("plain text is allowed only"), "{stderr}");
}

#[test]
fn the_daemon_takes_mail_through_the_imap_source_and_comes_to_rest() {
    use adjutant::daemon::InboxSource;
    use adjutant::inbox::imap::ImapSource;

    let Some(stack) = stack() else { return };
    let (_dir, mut store) = campaign_store();
    let mut source = ImapSource::new(imap_config(&stack));
    assert!(!source.pending().expect("pending"), "an empty mailbox");
    send(
        &stack,
        LANNES,
        &mail(
            LANNES,
            SUBJECT,
            "",
            "passphrase vive-l-empereur\n1-ligne: hold\n",
        ),
    );
    stack.wait_for_mail(GM, 1, WAIT);
    assert!(source.pending().expect("pending"));
    let taken = source
        .take(&mut store, &ingest_config(), &now())
        .expect("take");
    assert!(
        matches!(taken[..], [(_, Outcome::Accepted { .. })]),
        "{taken:?}"
    );
    assert!(!source.pending().expect("pending"), "nothing left");
    assert!(
        source
            .describe()
            .starts_with("imap umpire@example.org@127.0.0.1:")
    );
}

/// Kills the daemon process if a test fails before stopping it.
struct Running(Option<std::process::Child>);

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(child) = self.0.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// `adjutant daemon --config` with `kind = "imap"`, as a GM would run it:
/// the opening mail goes out through Postfix, the orders come in over IMAP,
/// and the acknowledgement is in the player's mailbox long before the next
/// poll, because IDLE woke the loop; SIGTERM then stops it cleanly.
#[test]
fn the_configured_daemon_reads_imap_wakes_on_idle_and_stops_on_sigterm() {
    let Some(stack) = stack_with_adjutant() else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    adjutant::demo::bundled_campaign(&dir.path().join("campaign")).expect("campaign");
    std::fs::write(dir.path().join("imap.pw"), stack.password(ADJUTANT)).expect("password file");
    let config = dir.path().join("adjutant.toml");
    std::fs::write(
        &config,
        format!(
            r#"
data_dir = "var"
campaigns = ["campaign"]
log_level = "info"
[mail]
from = "adjutant <{ADJUTANT}>"
[inbox]
kind = "imap"
host = "127.0.0.1"
port = {imap}
security = "plain"
user = "{ADJUTANT}"
password_file = "imap.pw"
timeout_seconds = 20
[transport]
kind = "smtp"
host = "127.0.0.1"
port = {smtp}
security = "plain"
timeout_seconds = 20
[intervals]
# Far longer than the test waits: only IDLE can wake the loop in time.
poll_seconds = 600
"#,
            imap = stack.imap_port,
            smtp = stack.smtp_port
        ),
    )
    .expect("config");
    let mut daemon = Running(Some(
        Command::new(env!("CARGO_BIN_EXE_adjutant"))
            .args(["daemon", "--config", &config.to_string_lossy()])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("starts"),
    ));
    // The opening mail reaches the player: the daemon is up and waiting.
    stack.wait_for_mail(LANNES, 1, WAIT);
    // Let the daemon settle into IDLE.
    std::thread::sleep(Duration::from_secs(2));
    let sent_at = std::time::Instant::now();
    stack
        .send(
            LANNES,
            &[ADJUTANT],
            &to_adjutant(
                LANNES,
                "<idle-orders@french.invalid>",
                SUBJECT,
                "",
                "passphrase vive-l-empereur\n1-ligne: hold\n",
            ),
        )
        .unwrap_or_else(|e| panic!("{e}\n{}", stack.logs()));
    let inbox = stack.wait_for_mail(LANNES, 2, WAIT);
    let waited = sent_at.elapsed();
    assert!(
        inbox.iter().any(|raw| text_of(raw).contains("accepted")),
        "no acknowledgement among {} messages",
        inbox.len()
    );
    assert!(
        waited < Duration::from_secs(25),
        "the acknowledgement took {waited:?}"
    );
    let mut child = daemon.0.take().expect("running");
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    // SIGTERM breaks the wait on IDLE: the daemon stops within seconds (it
    // may be finishing the step in hand, in a debug build on a busy
    // machine), not at the end of its five-minute IDLE or ten-minute poll,
    // so that a restarted one never overlaps it.
    let limit = Duration::from_secs(10);
    let start = std::time::Instant::now();
    while child.try_wait().ok().flatten().is_none() && start.elapsed() < limit {
        std::thread::sleep(Duration::from_millis(20));
    }
    let stopped_in = start.elapsed();
    let exited = child.try_wait().ok().flatten();
    let _ = child.kill();
    let out = child.wait_with_output().expect("output");
    let log =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    let exited = exited.unwrap_or_else(|| panic!("no exit within {limit:?} of SIGTERM:\n{log}"));
    assert!(exited.success(), "{log}");
    assert!(
        stopped_in < Duration::from_secs(5),
        "SIGTERM took {stopped_in:?}:\n{log}"
    );
    assert!(log.contains("shutting down"), "{log}");
    assert!(log.contains("imap"), "the log names the IMAP inbox:\n{log}");
}

/// Runs swaks, an SMTP client independent of adjutant and of this harness,
/// against the private Postfix.
fn swaks(stack: &MailStack, args: &[&str]) {
    let out = Command::new("swaks")
        .args(["--server", "127.0.0.1", "--port"])
        .arg(stack.smtp_port.to_string())
        .args(["--to", GM, "--hide-all"])
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!("swaks is needed for this test (`.ci/run --install-only` installs it): {e}")
        });
    assert!(
        out.status.success(),
        "swaks {args:?}: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        stack.logs()
    );
}

/// Players' mail written and sent by swaks: a wrong passphrase is refused
/// with a reply that reveals nothing, orders in an HTML-only, quoted-printable
/// ISO-8859-1 message are accepted, and an out-of-office reply is ignored.
#[test]
fn mail_sent_by_swaks_gets_the_documented_replies() {
    let Some(stack) = stack() else { return };
    let (dir, mut store) = campaign_store();
    swaks(
        &stack,
        &[
            "--from",
            LANNES,
            "--header",
            &format!("Subject: {SUBJECT}"),
            "--body",
            "passphrase: vive-le-roi\n1-ligne: hold\n",
        ],
    );
    // The whole DATA of the second message, as a mail client might write it.
    let html = dir.path().join("html.eml");
    let data = format!(
        "From: Marshal Lannes <{LANNES}>\r\nTo: {GM}\r\nSubject: {SUBJECT}\r\n\
         Message-ID: <swaks.html@french.invalid>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/html; charset=iso-8859-1\r\n\
         Content-Transfer-Encoding: quoted-printable\r\n\r\n\
         <html><body><p>Sire, voici mes ordres pour l'arm=E9e.</p>\r\n\
         <p>passphrase: vive-l-empereur<br>1-ligne: hold</p></body></html>\r\n"
    );
    std::fs::write(&html, data).expect("write");
    swaks(
        &stack,
        &["--from", LANNES, "--data", &html.to_string_lossy()],
    );
    swaks(
        &stack,
        &[
            "--from",
            HOHENZOLLERN,
            "--header",
            "Subject: Abwesenheitsnotiz: [sound-the-charge-demo] orders",
            "--add-header",
            "Auto-Submitted: auto-replied",
            "--body",
            "Ich bin bis Montag nicht erreichbar.\n",
        ],
    );
    stack.wait_for_mail(GM, 3, WAIT);

    let mut inbox = ImapInbox::connect(imap_config(&stack)).expect("IMAP login");
    let summary = inbox
        .fetch_once(&mut store, &ingest_config(), &now())
        .expect("fetch");
    // Postfix may deliver the three in any order: each is found by what it
    // is, not by where it stands.
    let outcomes: Vec<&Outcome> = summary.outcomes.iter().map(|(_, o)| o).collect();
    assert_eq!(outcomes.len(), 3, "{outcomes:#?}");
    let count = |f: &dyn Fn(&Outcome) -> bool| outcomes.iter().filter(|o| f(o)).count();
    assert_eq!(
        count(&|o| matches!(o, Outcome::Refused { .. })),
        1,
        "{outcomes:#?}"
    );
    assert_eq!(
        count(&|o| matches!(o, Outcome::Accepted { side, .. } if side == "french")),
        1,
        "{outcomes:#?}"
    );
    assert_eq!(
        count(&|o| matches!(o, Outcome::Ignored { .. })),
        1,
        "{outcomes:#?}"
    );
    let replies = replies_to(&store, LANNES);
    assert_eq!(replies.len(), 2, "one reply to each of Lannes's messages");
    let refusal = replies
        .iter()
        .find(|r| r.body.contains("do not match a player"))
        .expect("the refusal");
    assert!(!refusal.body.contains("vive-l-empereur"));
    assert!(
        replies.iter().any(|r| r.body.contains("1-ligne: hold")),
        "the acknowledgement echoes the orders"
    );
    assert!(replies_to(&store, HOHENZOLLERN).is_empty());
}

/// adjutant's own address, distinct from the GM's, as docs/PLAYERS.md
/// advises: the GM's commands are then read.
const ADJUTANT: &str = "adjutant@example.org";
/// An address no campaign knows.
const STRANGER: &str = "stranger@example.org";

/// The stack with adjutant's own mailbox and a stranger's besides the
/// campaign's people.
fn stack_with_adjutant() -> Option<MailStack> {
    MailStack::start(&[
        (GM, "gm-imap-password"),
        (LANNES, "lannes-imap-password"),
        (HOHENZOLLERN, "hohenzollern-imap-password"),
        (ADJUTANT, "adjutant-imap-password"),
        (STRANGER, "stranger-imap-password"),
    ])
}

/// adjutant reading its own mailbox, sending from its own address.
fn adjutant_imap(stack: &MailStack) -> ImapConfig {
    let mut config = ImapConfig::new(
        "127.0.0.1",
        stack.imap_port,
        ADJUTANT,
        &stack.password(ADJUTANT),
    );
    config.security = Security::Plain;
    config.io_timeout = Duration::from_secs(20);
    config
}

fn adjutant_ingest() -> IngestConfig {
    IngestConfig {
        own_addresses: vec![ADJUTANT.into()],
        ..IngestConfig::default()
    }
}

/// A message to adjutant's address with a Message-ID of the test's choosing.
fn to_adjutant(from: &str, message_id: &str, subject: &str, headers: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {ADJUTANT}\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\n{headers}\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// How many of `messages` are not the campaign's opening mail.
fn not_opening(messages: &[Vec<u8>]) -> usize {
    messages
        .iter()
        .filter(|m| !text_of(m).contains("is open, under"))
        .count()
}

/// Takes what waits in adjutant's mailbox and sends every reply through
/// Postfix.
fn take_and_answer(stack: &MailStack, store: &mut Store) -> Vec<Outcome> {
    let mut inbox = ImapInbox::connect(adjutant_imap(stack)).expect("IMAP login");
    let summary = inbox
        .fetch_once(store, &adjutant_ingest(), &now())
        .expect("fetch");
    inbox.logout();
    let mut policy = policy();
    policy.from = format!("adjutant <{ADJUTANT}>");
    deliver_due(store, &smtp(stack), &policy, &now()).expect("deliver");
    summary.outcomes.into_iter().map(|(_, o)| o).collect()
}

/// Defect 1, through Postfix and Dovecot: one GM message delivered twice
/// (the same bytes sent twice; Postfix gives each delivery its own
/// Received and Delivered-To) extends the deadline once and is answered
/// once.
#[test]
fn a_gm_command_delivered_twice_through_postfix_runs_once() {
    let Some(stack) = stack_with_adjutant() else {
        return;
    };
    let (_dir, mut store) = campaign_store();
    let before = store.campaign(ID).expect("campaign").deadline;
    let raw = to_adjutant(
        GM,
        "<extend-once@example.org>",
        "[sound-the-charge-demo] command",
        "",
        "passphrase: grand-quartier-general\ncommand: extend 1h\n",
    );
    for _ in 0..2 {
        stack
            .send(GM, &[ADJUTANT], &raw)
            .unwrap_or_else(|e| panic!("{e}\n{}", stack.logs()));
    }
    let delivered = stack.wait_for_mail(ADJUTANT, 2, WAIT);
    assert_ne!(
        delivered[0], delivered[1],
        "each delivery has its own bytes"
    );
    let outcomes = take_and_answer(&stack, &mut store);
    assert!(
        matches!(outcomes[0], Outcome::Commands { done: 1, .. }),
        "{outcomes:?}"
    );
    assert!(
        matches!(outcomes[1], Outcome::Duplicate { .. }),
        "{outcomes:?}"
    );
    assert_eq!(
        store.campaign(ID).expect("campaign").deadline - before,
        chrono::Duration::hours(1)
    );
    // The GM's mailbox: besides the opening mail, one reply and one
    // announcement of the extension.
    stack.wait_for_mail(GM, 3, WAIT);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        not_opening(&stack.read_mailbox(GM)),
        2,
        "one reply and one announcement"
    );
}

/// Defect 6, through Postfix and Dovecot: a robot that sets no header at
/// all, answering each refusal, gets five and then silence; the GM is told
/// once; robots known by their subjects get none.
#[test]
fn an_auto_responder_loop_is_cut_after_five_refusals() {
    let Some(stack) = stack_with_adjutant() else {
        return;
    };
    let (_dir, mut store) = campaign_store();
    for n in 0..3 {
        let raw = to_adjutant(
            LANNES,
            &format!("<ooo-{n}@french.invalid>"),
            "Automatic reply: [sound-the-charge-demo] resolution 1",
            "",
            "I am away until Monday.\n",
        );
        stack.send(LANNES, &[ADJUTANT], &raw).expect("sent");
    }
    // The three in the mailbox first: Postfix delivers in any order, and
    // the outcomes are read in the order the mailbox holds them.
    stack.wait_for_mail(ADJUTANT, 3, WAIT);
    for n in 0..9 {
        let raw = to_adjutant(
            LANNES,
            &format!("<naive-{n}@french.invalid>"),
            &format!("Re: [sound-the-charge-demo] your message {n}"),
            "",
            "Thank you for your message. I will answer as soon as I can.\n",
        );
        stack.send(LANNES, &[ADJUTANT], &raw).expect("sent");
    }
    stack.wait_for_mail(ADJUTANT, 12, WAIT);
    let outcomes = take_and_answer(&stack, &mut store);
    assert_eq!(outcomes.len(), 12);
    assert!(
        outcomes[..3]
            .iter()
            .all(|o| matches!(o, Outcome::Ignored { .. })),
        "{outcomes:?}"
    );
    let refused = outcomes
        .iter()
        .filter(|o| matches!(o, Outcome::Refused { .. }))
        .count();
    assert_eq!(refused, 5, "{outcomes:?}");
    stack.wait_for_mail(LANNES, 6, WAIT);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        not_opening(&stack.read_mailbox(LANNES)),
        5,
        "five refusals reach the robot"
    );
    // The GM's mailbox holds the opening mail too: wait for the word itself.
    let told = Instant::now();
    while !stack
        .read_mailbox(GM)
        .iter()
        .any(|m| text_of(m).contains("stopped answering"))
    {
        assert!(told.elapsed() < WAIT, "the GM is told\n{}", stack.logs());
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Defect 11, through Postfix and Dovecot: an address no campaign knows is
/// answered once a day, and the answer quotes nothing it sent.
#[test]
fn a_stranger_is_answered_once_quoting_nothing() {
    let Some(stack) = stack_with_adjutant() else {
        return;
    };
    let (_dir, mut store) = campaign_store();
    for n in 0..3 {
        let raw = to_adjutant(
            STRANGER,
            &format!("<spam-{n}@example.org>"),
            "[sound-the-charge-demo] CHEAP WATCHES http://spam.invalid",
            "",
            "passphrase: letmein\nvisit http://spam.invalid\n",
        );
        stack.send(STRANGER, &[ADJUTANT], &raw).expect("sent");
    }
    stack.wait_for_mail(ADJUTANT, 3, WAIT);
    take_and_answer(&stack, &mut store);
    let answers = stack.wait_for_mail(STRANGER, 1, WAIT);
    std::thread::sleep(Duration::from_millis(500));
    let answers = stack
        .read_mailbox(STRANGER)
        .into_iter()
        .chain(answers)
        .collect::<Vec<_>>();
    let unique: std::collections::BTreeSet<String> = answers.iter().map(|m| text_of(m)).collect();
    assert_eq!(unique.len(), 1, "one answer");
    let text = unique.into_iter().next().expect("the answer");
    for reflected in ["WATCHES", "spam.invalid", "letmein"] {
        assert!(!text.contains(reflected), "{text}");
    }
}

/// Defect 17: read from the GM's own mailbox, the daemon marked all of the
/// GM's mail read. It reads one folder, where a rule files order mail, and
/// leaves the rest alone.
#[test]
fn only_the_configured_folder_is_read_and_the_inbox_left_alone() {
    let Some(stack) = stack_with_adjutant() else {
        return;
    };
    let (_dir, mut store) = campaign_store();
    // The GM's own mail, in the INBOX.
    stack
        .send(
            LANNES,
            &[ADJUTANT],
            &to_adjutant(
                LANNES,
                "<personal@french.invalid>",
                "dinner on Friday?",
                "",
                "Shall we?\n",
            ),
        )
        .expect("sent");
    stack.wait_for_mail(ADJUTANT, 1, WAIT);
    // Order mail, filed into Orders by the server's rule (here appended,
    // as Sieve's fileinto would).
    let orders = to_adjutant(
        LANNES,
        "<filed@french.invalid>",
        SUBJECT,
        "",
        "passphrase vive-l-empereur\n1-ligne: hold\n",
    );
    let mut session = stack.session(ADJUTANT);
    let _ = session.create("Orders");
    session.append("Orders", &orders).finish().expect("APPEND");
    let _ = session.logout();
    let mut config = adjutant_imap(&stack);
    config.mailbox = "Orders".to_string();
    let mut inbox = ImapInbox::connect(config).expect("IMAP login");
    let summary = inbox
        .fetch_once(&mut store, &adjutant_ingest(), &now())
        .expect("fetch");
    assert!(
        matches!(summary.outcomes[..], [(_, Outcome::Accepted { .. })]),
        "{summary:?}"
    );
    assert_eq!(
        stack.count(ADJUTANT, "INBOX", "UNSEEN"),
        1,
        "the inbox left alone"
    );
    assert_eq!(stack.count(ADJUTANT, "Orders", "UNSEEN"), 0);
}
