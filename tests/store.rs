//! The store on its own: migrations, raw messages, submissions, the outbox.

use adjutant::store::{DB_FILE, Store, StoreError};
use chrono::{DateTime, Utc};

fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-01-05T09:00:00Z")
        .expect("valid")
        .with_timezone(&Utc)
}

#[test]
fn a_new_store_is_at_the_latest_schema_and_reopens_without_migrating_again() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(&dir.path().join("data")).expect("open");
    let version = store.schema_version().expect("version");
    assert!(version >= 1);
    drop(store);
    let store = Store::open(&dir.path().join("data")).expect("reopen");
    assert_eq!(store.schema_version().expect("version"), version);
    assert!(dir.path().join("data").join(DB_FILE).exists());
}

#[test]
fn a_store_from_a_newer_adjutant_is_refused_rather_than_damaged() {
    let dir = tempfile::tempdir().expect("dir");
    drop(Store::open(&dir.path().join("data")).expect("open"));
    let conn = rusqlite::Connection::open(dir.path().join("data").join(DB_FILE)).expect("raw open");
    conn.pragma_update(None, "user_version", 999).expect("bump");
    drop(conn);
    match Store::open(&dir.path().join("data")) {
        Err(StoreError::TooNew { found: 999, .. }) => {}
        other => panic!("expected TooNew, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn inbound_messages_are_kept_byte_for_byte() {
    let dir = tempfile::tempdir().expect("dir");
    let mut store = Store::open(&dir.path().join("data")).expect("open");
    let raw = b"From: a@example.org\r\nSubject: orders\r\n\r\n\xff\xfe not utf-8\r\n";
    let id = store.store_inbound(raw, "maildir", now()).expect("store");
    drop(store);
    let conn = rusqlite::Connection::open(dir.path().join("data").join(DB_FILE)).expect("raw open");
    let back: Vec<u8> = conn
        .query_row(
            "SELECT raw FROM inbound_messages WHERE id = ?1",
            [id],
            |r| r.get(0),
        )
        .expect("row");
    assert_eq!(back, raw);
}

#[test]
fn an_unknown_campaign_is_named_in_the_error() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(&dir.path().join("data")).expect("open");
    let err = store.campaign("waterloo").expect_err("no such campaign");
    assert!(err.to_string().contains("waterloo"), "{err}");
    assert!(!err.is_transient());
}
