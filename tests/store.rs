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

/// A message held while its campaign's phase closes is offered again at
/// every poll, and stored again each time: with the same bytes, sender and
/// key that writes nothing, so that a long wait (for a beacon round) does
/// not write the store at every poll. What is new (a key learnt later) is
/// still written.
#[test]
fn storing_an_unfinished_message_again_writes_nothing_new() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut store = Store::open(&data).unwrap();
    let watcher = Store::open(&data).unwrap();
    let raw = b"From: lannes@french.invalid\r\nSubject: orders\r\n\r\n1-ligne: hold\r\n";
    let sender = Some("lannes@french.invalid");
    let first = store
        .store_inbound_keyed(raw, "test", now(), None, sender)
        .unwrap();
    let seen = watcher.data_version().unwrap();
    let again = store
        .store_inbound_keyed(raw, "test", now(), None, sender)
        .unwrap();
    assert_eq!(first, again, "the same row");
    assert_eq!(watcher.data_version().unwrap(), seen, "nothing written");
    let key = adjutant::audit::Digest32::of(b"the message's key");
    store
        .store_inbound_keyed(raw, "test", now(), Some(&key), sender)
        .unwrap();
    assert_ne!(watcher.data_version().unwrap(), seen, "the key written");
}

/// Issue 28: `extend 95000000d` stored the deadline `+262128-02-03T21:00:00Z`,
/// which RFC 3339 cannot write, and from then on every read of the campaign
/// failed ("stored data is damaged: bad timestamp"). Every typed column is
/// now written through the code that reads it back: the extremes of the
/// calendar either read back as written or are refused before anything is
/// stored, and the campaign still reads.
#[test]
fn the_extremes_of_each_typed_column_read_back_or_are_refused_unwritten() {
    use adjutant::audit::Kind;
    use adjutant::store::OutgoingMail;
    use chrono::TimeZone;

    let dir = tempfile::tempdir().expect("dir");
    let campaign = adjutant::demo::bundled_campaign(&dir.path().join("campaign")).expect("loads");
    let mut store = Store::open(&dir.path().join("data")).expect("store");
    let clock = adjutant::lifecycle::FixedClock(now());
    adjutant::engine::init(&mut store, &campaign, &dir.path().join("campaign"), &clock)
        .expect("init");
    let id = campaign.id.as_str();

    let first = Utc
        .with_ymd_and_hms(0, 1, 1, 0, 0, 0)
        .single()
        .expect("a time");
    let last = Utc
        .with_ymd_and_hms(9999, 12, 31, 23, 59, 59)
        .single()
        .expect("a time");
    for readable in [first, last] {
        store
            .set_deadline(id, readable)
            .expect("a time of the calendar");
        assert_eq!(store.campaign(id).expect("reads").deadline, readable);
    }
    let before = store.campaign(id).expect("reads").deadline;
    let past_the_calendar = [
        DateTime::<Utc>::MIN_UTC,
        Utc.with_ymd_and_hms(-1, 12, 31, 23, 59, 59)
            .single()
            .expect("a time"),
        Utc.with_ymd_and_hms(10000, 1, 1, 0, 0, 0)
            .single()
            .expect("a time"),
        Utc.with_ymd_and_hms(262128, 2, 3, 21, 0, 0)
            .single()
            .expect("a time"),
        DateTime::<Utc>::MAX_UTC,
    ];
    for t in past_the_calendar {
        let unstorable = |e: StoreError| matches!(e, StoreError::Unstorable(_));
        assert!(
            store.set_deadline(id, t).is_err_and(unstorable),
            "deadline {t}"
        );
        assert!(
            store
                .store_inbound(b"Subject: x\r\n\r\nx", "test", t)
                .is_err_and(unstorable),
            "inbound at {t}"
        );
        let mail = OutgoingMail::text(
            format!("<{}@test.invalid>", t.timestamp()),
            "a@example.org".into(),
            "s".into(),
            "b".into(),
        );
        assert!(
            store.queue(Some(id), &[mail], t).is_err_and(unstorable),
            "queued at {t}"
        );
        assert!(
            store
                .beacon_tried(id, Kind::Turn, 1, t)
                .is_err_and(unstorable),
            "beacon tried at {t}"
        );
        assert_eq!(store.campaign(id).expect("still reads").deadline, before);
    }
    // A number past what SQLite's signed integers hold is refused, not
    // stored negative.
    assert!(matches!(
        store.beacon_tried(id, Kind::Turn, u64::MAX, now()),
        Err(StoreError::Unstorable(_))
    ));
    store
        .beacon_tried(id, Kind::Turn, i64::MAX as u64, now())
        .expect("the largest number stored");
    assert!(store.outbox(Some(id)).is_ok(), "the outbox still reads");
}
