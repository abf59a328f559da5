//! A crash at any step of taking a message, and the same message delivered
//! again: each message has one outcome and one reply, orders are one
//! submission, a GM command is carried out once. The process is stopped for
//! real (aborted at a named failpoint, as `kill -9` would stop it), then
//! started again on the same store, as an MTA retries a delivery.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use adjutant::store::{DB_FILE, Store};
use chrono::{DateTime, Utc};

const BIN: &str = env!("CARGO_BIN_EXE_adjutant");
const ID: &str = "sound-the-charge-demo";
const NOW: &str = "2026-01-05T10:00:00Z";

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .to_string_lossy()
        .into_owned()
}

fn adjutant(data: &Path, args: &[&str], stdin: &[u8], failpoint: Option<&str>) -> Output {
    let mut command = Command::new(BIN);
    command
        .args(["--now", NOW])
        .args(args)
        .args(["--data", &data.to_string_lossy()])
        .env_remove(adjutant::failpoint::VARIABLE)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(point) = failpoint {
        command.env(adjutant::failpoint::VARIABLE, point);
    }
    let mut child = command.spawn().expect("runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("writes");
    child.wait_with_output().expect("waits")
}

fn init() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("data");
    let out = Command::new(BIN)
        .args(["--now", NOW, "init", "--data", &data.to_string_lossy()])
        .arg(repo("campaigns/sound-the-charge-demo"))
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

fn message(from: &str, message_id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: adjutant@example.org\r\nSubject: [{ID}] orders\r\nMessage-ID: {message_id}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// Takes `raw` with the process stopped at `point`, then takes it again.
fn crash_then_retry(data: &Path, raw: &[u8], point: &str) {
    let args = ["ingest", "--own-address", "adjutant@example.org"];
    let crashed = adjutant(data, &args, raw, Some(point));
    assert!(
        crashed.status.code().is_none(),
        "the process did not stop at {point}: {:?} {}",
        crashed.status,
        String::from_utf8_lossy(&crashed.stderr)
    );
    let retried = adjutant(data, &args, raw, None);
    assert!(
        retried.status.success(),
        "after {point}: {}",
        String::from_utf8_lossy(&retried.stderr)
    );
}

fn count(data: &Path, sql: &str) -> i64 {
    let conn = rusqlite::Connection::open(data.join(DB_FILE)).expect("opens");
    conn.query_row(sql, [], |r| r.get(0)).expect("counts")
}

/// One message: one stored row, with an outcome, and one reply.
fn one_outcome_one_reply(data: &Path, point: &str) {
    assert_eq!(
        count(data, "SELECT COUNT(*) FROM inbound_messages"),
        1,
        "{point}: one message, one record"
    );
    assert_eq!(
        count(
            data,
            "SELECT COUNT(*) FROM inbound_messages WHERE outcome IS NOT NULL"
        ),
        1,
        "{point}: the message has its outcome"
    );
    assert_eq!(
        count(
            data,
            "SELECT COUNT(*) FROM outbox WHERE message_id LIKE '%.reply.%'"
        ),
        1,
        "{point}: one reply"
    );
}

#[test]
fn orders_taken_across_a_crash_at_any_step_are_one_submission_and_one_reply() {
    let raw = message(
        "Jean Lannes <lannes@french.invalid>",
        "<orders@french.invalid>",
        "passphrase: vive-l-empereur\n1-ligne: hold\n",
    );
    for point in ["ingest:stored", "ingest:handled", "ingest:finished"] {
        let dir = init();
        let data = dir.path().join("data");
        crash_then_retry(&data, &raw, point);
        one_outcome_one_reply(&data, point);
        assert_eq!(
            count(&data, "SELECT COUNT(*) FROM submissions"),
            1,
            "{point}: one submission"
        );
        let conn = rusqlite::Connection::open(data.join(DB_FILE)).expect("opens");
        let reply: String = conn
            .query_row(
                "SELECT body FROM outbox WHERE message_id LIKE '%.reply.%'",
                [],
                |r| r.get(0),
            )
            .expect("the reply");
        assert!(
            !reply.contains("replace"),
            "{point}: the reply claims a replacement: {reply}"
        );
    }
}

fn deadline(data: &Path) -> DateTime<Utc> {
    Store::open(data)
        .expect("opens")
        .campaign(ID)
        .expect("campaign")
        .deadline
}

#[test]
fn an_extend_sent_once_moves_the_deadline_once_however_the_process_stops() {
    let raw = message(
        "The Umpire <umpire@example.org>",
        "<extend@example.org>",
        "passphrase: grand-quartier-general\ncommand: extend 1h\n",
    );
    for point in [
        "ingest:stored",
        "gm:logged",
        "ingest:handled",
        "ingest:finished",
    ] {
        let dir = init();
        let data = dir.path().join("data");
        let before = deadline(&data);
        crash_then_retry(&data, &raw, point);
        one_outcome_one_reply(&data, point);
        assert_eq!(
            deadline(&data) - before,
            chrono::Duration::hours(1),
            "{point}: the deadline moved once"
        );
        assert_eq!(
            count(&data, "SELECT COUNT(*) FROM gm_log"),
            1,
            "{point}: one command carried out"
        );
        assert_eq!(
            count(
                &data,
                "SELECT COUNT(*) FROM outbox WHERE message_id LIKE '%.gm1.%'"
            ),
            3,
            "{point}: announced once to each of three people"
        );
    }
}

#[test]
fn a_resolve_now_sent_once_resolves_once_however_the_process_stops() {
    let raw = message(
        "The Umpire <umpire@example.org>",
        "<resolve@example.org>",
        "passphrase: grand-quartier-general\ncommand: resolve now\n",
    );
    for point in [
        "ingest:stored",
        "gm:logged",
        "engine:closed",
        "engine:resolved",
        "ingest:handled",
        "ingest:finished",
    ] {
        let dir = init();
        let data = dir.path().join("data");
        crash_then_retry(&data, &raw, point);
        one_outcome_one_reply(&data, point);
        assert_eq!(
            count(
                &data,
                "SELECT COUNT(*) FROM resolutions WHERE kind = 'turn'"
            ),
            1,
            "{point}: one resolution"
        );
        assert_eq!(
            count(
                &data,
                "SELECT COUNT(*) FROM resolutions WHERE kind = 'turn' AND resolved_at IS NOT NULL"
            ),
            1,
            "{point}: resolved"
        );
        assert_eq!(count(&data, "SELECT COUNT(*) FROM gm_log"), 1, "{point}");
    }
}
