//! One message can never stop the host: a running daemon reads two
//! campaigns' mail over IMAP from a real Dovecot and answers through a real
//! Postfix; a GM's command that once panicked the daemon, and a message
//! whose handling panics, are each answered (refused, or set aside with the
//! GM told once), and the next message, for the other campaign, is answered
//! as if nothing had happened.
//!
//! The stack comes from `tests/support/mailstack.rs`; `.ci/run` installs
//! Postfix and Dovecot.

mod support;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use support::mailstack::MailStack;

/// The daemon's own mailbox, and the address it sends from.
const ADJUTANT: &str = "adjutant@example.org";
/// The Sound the Charge demo's GM.
const UMPIRE: &str = "umpire@example.org";
const LANNES: &str = "lannes@french.invalid";
/// A player of the other campaign, Kulikovo 1380.
const DMITRY: &str = "dmitry@russians.invalid";
const WAIT: Duration = Duration::from_secs(60);

fn stack() -> Option<MailStack> {
    MailStack::start(&[
        (ADJUTANT, "adjutant-imap-password"),
        (UMPIRE, "umpire-imap-password"),
        (LANNES, "lannes-imap-password"),
        (DMITRY, "dmitry-imap-password"),
        ("chronicler@example.org", "chronicler-imap-password"),
        ("hohenzollern@austrian.invalid", "h-imap-password"),
        ("mamai@horde.invalid", "mamai-imap-password"),
    ])
}

fn text_of(raw: &[u8]) -> String {
    mail_parser::MessageParser::default()
        .parse(raw)
        .and_then(|m| m.body_text(0).map(|t| t.into_owned()))
        .unwrap_or_default()
}

fn message(from: &str, id: &str, subject: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {ADJUTANT}\r\nSubject: {subject}\r\nMessage-ID: <{id}@poison.test>\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// The daemon, killed if the test fails before stopping it.
struct Daemon(Option<Child>);

impl Daemon {
    /// `adjutant daemon` over both campaigns, with `failpoint` armed when
    /// given.
    fn start(dir: &Path, stack: &MailStack, failpoint: Option<&str>) -> Daemon {
        let config = dir.join("adjutant.toml");
        let campaigns = concat!(env!("CARGO_MANIFEST_DIR"), "/campaigns");
        std::fs::write(
            &config,
            format!(
                r#"data_dir = "var"
campaigns = ["campaign", "{campaigns}/kulikovo-1380"]
log_level = "info"
[mail]
from = "adjutant <{ADJUTANT}>"
[intervals]
poll_seconds = 600
{mail}"#,
                mail = stack.daemon_mail_config(ADJUTANT, &dir.join("imap.pw")),
            ),
        )
        .expect("config");
        let mut command = Command::new(env!("CARGO_BIN_EXE_adjutant"));
        command
            .args(["daemon", "--config", &config.to_string_lossy()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command.env_remove(adjutant::failpoint::VARIABLE);
        if let Some(point) = failpoint {
            command.env(adjutant::failpoint::VARIABLE, point);
        }
        Daemon(Some(command.spawn().expect("starts")))
    }

    /// Stops it with SIGTERM and returns its log; it must still be running
    /// and stop cleanly.
    fn stop(mut self) -> String {
        let mut child = self.0.take().expect("running");
        assert!(
            child.try_wait().expect("waits").is_none(),
            "the daemon stopped by itself"
        );
        let status = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        let out = child.wait_with_output().expect("output");
        let log = String::from_utf8_lossy(&out.stderr).into_owned()
            + &String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{log}");
        log
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if let Some(child) = self.0.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Waits until `user` has `n` messages and returns the text of the last.
fn nth_reply(stack: &MailStack, user: &str, n: usize) -> String {
    let inbox = stack.wait_for_mail(user, n, WAIT);
    text_of(&inbox[n - 1])
}

#[test]
fn a_poison_gm_mail_is_answered_and_the_next_campaign_s_mail_still_is() {
    let Some(stack) = stack() else { return };
    let dir = tempfile::tempdir().expect("dir");
    adjutant::demo::bundled_campaign(&dir.path().join("campaign")).expect("campaign");

    // Issue 28, defect 1: `extend 99999999999d` panicked the daemon, and
    // the message, left unseen, panicked it again at every restart.
    let daemon = Daemon::start(dir.path(), &stack, None);
    stack.wait_for_mail(UMPIRE, 1, WAIT);
    stack.wait_for_mail(DMITRY, 1, WAIT);
    let send = |from: &str, raw: Vec<u8>| {
        stack
            .send(from, &[ADJUTANT], &raw)
            .unwrap_or_else(|e| panic!("{e}\n{}", stack.logs()));
    };
    send(
        UMPIRE,
        message(
            UMPIRE,
            "huge-extend",
            "[sound-the-charge-demo] commands",
            "passphrase grand-quartier-general\ncommand: extend 99999999999d\n",
        ),
    );
    // Sent one after the other: Postfix may deliver two at once in either
    // order, and this one must come after the poison.
    stack.wait_for_mail(UMPIRE, 2, WAIT);
    send(
        DMITRY,
        message(
            DMITRY,
            "after-the-extend",
            "[kulikovo-1380] turn 1",
            "passphrase za-zemlyu-russkuyu\nno orders\n",
        ),
    );
    let refused = nth_reply(&stack, UMPIRE, 2);
    assert!(
        refused.contains("is longer than 366d"),
        "the GM's reply:\n{refused}"
    );
    let answered = nth_reply(&stack, DMITRY, 2);
    assert!(
        !answered.contains("could not handle"),
        "Dmitry's reply:\n{answered}"
    );
    daemon.stop();

    // A message whose handling panics (a fault of adjutant's own, armed at
    // the GM's commands) is set aside: the GM is told once, the daemon
    // lives, and the next message is answered.
    let daemon = Daemon::start(dir.path(), &stack, Some("panic:ingest:gm-commands"));
    let poison = message(
        UMPIRE,
        "poison",
        "[sound-the-charge-demo] status please",
        "passphrase grand-quartier-general\ncommand: status\n",
    );
    send(UMPIRE, poison.clone());
    let told = nth_reply(&stack, UMPIRE, 3);
    assert!(
        told.contains("could not handle a message for sound-the-charge-demo")
            && told.contains("failpoint ingest:gm-commands"),
        "the GM's notice:\n{told}"
    );
    send(
        DMITRY,
        message(
            DMITRY,
            "after-the-panic",
            "[kulikovo-1380] turn 1 again",
            "passphrase za-zemlyu-russkuyu\nno orders\n",
        ),
    );
    let answered = nth_reply(&stack, DMITRY, 3);
    assert!(
        !answered.contains("could not handle"),
        "Dmitry's reply:\n{answered}"
    );
    // The same message delivered again is the one already set aside: the
    // GM is not told twice.
    send(UMPIRE, poison);
    send(
        DMITRY,
        message(
            DMITRY,
            "after-the-repeat",
            "[kulikovo-1380] turn 1, last",
            "passphrase za-zemlyu-russkuyu\nno orders\n",
        ),
    );
    stack.wait_for_mail(DMITRY, 4, WAIT);
    stack.wait_until_queue_is_empty(WAIT);
    assert_eq!(stack.read_mailbox(UMPIRE).len(), 3, "the GM told once");
    let log = daemon.stop();
    assert!(log.contains("failpoint ingest:gm-commands"), "{log}");
}
