#![allow(dead_code)]

//! The bundled Sound the Charge campaign played by mail in process: a
//! store with the campaign registered, messages as an MTA delivers them,
//! and the replies queued.

use std::sync::atomic::{AtomicUsize, Ordering};

use chrono::{DateTime, Utc};

use adjutant::engine;
use adjutant::ingest::{IngestConfig, Outcome, ingest};
use adjutant::lifecycle::FixedClock;
use adjutant::store::{OutgoingMail, Store};

pub const ID: &str = "sound-the-charge-demo";
pub const GM: &str = "The Umpire <umpire@example.org>";
pub const LANNES: &str = "Jean Lannes <lannes@french.invalid>";
pub const HOHENZOLLERN: &str = "Hohenzollern <hohenzollern@austrian.invalid>";
pub const SUBJECT: &str = "[sound-the-charge-demo] orders";

pub fn at(text: &str) -> FixedClock {
    FixedClock(
        DateTime::parse_from_rfc3339(text)
            .expect("valid")
            .with_timezone(&Utc),
    )
}

/// The campaign's first phase opened at this time.
pub fn now() -> FixedClock {
    at("2026-01-05T10:00:00Z")
}

/// adjutant sends from an address of its own, so the GM's mail is read.
pub fn config() -> IngestConfig {
    IngestConfig {
        own_addresses: vec!["adjutant@example.org".into()],
        ..IngestConfig::default()
    }
}

/// A store with the bundled campaign registered at [`now`].
pub fn setup() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("dir");
    let campaign = adjutant::demo::bundled_campaign(&dir.path().join("campaign")).expect("loads");
    let mut store = Store::open(&dir.path().join("data")).expect("store");
    engine::init(&mut store, &campaign, &dir.path().join("campaign"), &now()).expect("init");
    (dir, store)
}

/// A message as an MTA delivers it.
pub fn delivered(from: &str, message_id: &str, subject: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: adjutant@example.org\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\nDate: Mon, 05 Jan 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// Sends `body` from `from` at `clock`, and returns what became of it with
/// the reply it got.
pub fn send(
    store: &mut Store,
    from: &str,
    body: &str,
    clock: &FixedClock,
) -> (Outcome, Option<OutgoingMail>) {
    static SENT: AtomicUsize = AtomicUsize::new(0);
    let before = replies(store).len();
    let id = format!("<m{}@test.invalid>", SENT.fetch_add(1, Ordering::Relaxed));
    let outcome = ingest(
        store,
        &delivered(from, &id, SUBJECT, body),
        "test",
        &config(),
        clock,
    )
    .expect("ingest");
    let reply = replies(store)
        .into_iter()
        .skip(before)
        .find(|m| from.contains(m.recipient.as_str()));
    (outcome, reply)
}

/// The replies queued, oldest first.
pub fn replies(store: &Store) -> Vec<OutgoingMail> {
    store
        .queued_mail(ID)
        .expect("outbox")
        .into_iter()
        .filter(|m| m.message_id.contains(".reply."))
        .collect()
}

/// Whether a tick at `clock` closes and resolves the phase.
pub fn closes(store: &mut Store, clock: &FixedClock) -> bool {
    !engine::tick(store, ID, clock).expect("tick").is_empty()
}
