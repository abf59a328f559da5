//! The ingest path from raw message to stored orders and queued reply.

use chrono::{DateTime, Utc};

use adjutant::engine;
use adjutant::ingest::{IngestConfig, Outcome, ingest};
use adjutant::lifecycle::FixedClock;
use adjutant::store::Store;

const ID: &str = "sound-the-charge-demo";

fn now() -> FixedClock {
    FixedClock(
        DateTime::parse_from_rfc3339("2026-01-05T10:00:00Z")
            .expect("valid")
            .with_timezone(&Utc),
    )
}

fn config() -> IngestConfig {
    IngestConfig {
        own_addresses: vec!["umpire@example.org".into()],
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

/// A message; its Message-ID is made from everything else in it, so that
/// two different messages never share one.
fn mail(from: &str, subject: &str, headers: &str, body: &str) -> Vec<u8> {
    let id = adjutant::audit::Digest32::of(format!("{from}{subject}{headers}{body}").as_bytes());
    format!(
        "From: {from}\r\nTo: umpire@example.org\r\nSubject: {subject}\r\nMessage-ID: <{}@test>\r\n{headers}Content-Type: text/plain; charset=utf-8\r\n\r\n{}",
        &id.to_hex()[..16],
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

fn replies(store: &Store) -> Vec<adjutant::store::OutgoingMail> {
    store
        .queued_mail(ID)
        .expect("outbox")
        .into_iter()
        .filter(|m| m.message_id.contains(".reply."))
        .collect()
}

const LANNES: &str = "Jean Lannes <Lannes@french.invalid>";
const SUBJECT: &str = "[sound-the-charge-demo] orders for turn 1";

#[test]
fn good_orders_are_stored_and_acknowledged_once_even_if_delivered_twice() {
    let (_dir, mut store) = setup();
    let raw = mail(
        LANNES,
        SUBJECT,
        "",
        "passphrase: vive-l-empereur\n1-ligne: hold\nnowhere: hold\nsalt 42\n-- \nJ.L.\n",
    );
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    let Outcome::Accepted {
        side,
        refused_lines,
        replaced,
        ..
    } = &outcome
    else {
        panic!("{outcome:?}");
    };
    assert_eq!(side, "french");
    assert_eq!(*refused_lines, 1);
    assert!(!replaced);
    assert!(
        engine::sides_in(&store, ID)
            .expect("sides")
            .contains("french")
    );
    let acks = replies(&store);
    assert_eq!(acks.len(), 1);
    assert_eq!(acks[0].recipient, "lannes@french.invalid");
    assert!(
        acks[0].body.contains("    1-ligne: hold\n    salt 42\n"),
        "{}",
        acks[0].body
    );
    assert!(acks[0].body.contains("line 3: nowhere"), "{}", acks[0].body);
    assert!(
        acks[0].body.contains("Digest of your accepted orders: "),
        "{}",
        acks[0].body
    );

    let again = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    assert!(matches!(again, Outcome::Duplicate { .. }), "{again:?}");
    assert_eq!(replies(&store).len(), 1, "no second reply");
}

#[test]
fn a_message_stored_before_a_crash_is_handled_once_on_the_retry() {
    let (_dir, mut store) = setup();
    let raw = mail(
        LANNES,
        SUBJECT,
        "",
        "passphrase vive-l-empereur\ngarde: hold\n",
    );
    // The crash: stored, never finished.
    store.store_inbound(&raw, "test", now().0).expect("store");
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    assert!(matches!(outcome, Outcome::Accepted { .. }), "{outcome:?}");
    assert_eq!(replies(&store).len(), 1);
}

#[test]
fn a_wrong_passphrase_is_refused_without_saying_which_part_failed() {
    let (_dir, mut store) = setup();
    let raw = mail(
        LANNES,
        SUBJECT,
        "",
        "passphrase: vive-le-roi\n1-ligne: hold\n",
    );
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    assert!(matches!(outcome, Outcome::Refused { .. }), "{outcome:?}");
    assert!(
        engine::sides_in(&store, ID).expect("sides").is_empty(),
        "nothing stored as orders"
    );
    let reply = &replies(&store)[0];
    assert!(
        reply.body.contains("do not match a player"),
        "{}",
        reply.body
    );
    assert!(
        !reply.body.contains("french"),
        "reveals nothing else: {}",
        reply.body
    );

    // A stranger is told the same, in a short answer that quotes nothing
    // it sent (at most one a day, so adjutant never carries spam).
    let raw = mail(
        "spy@elsewhere.invalid",
        SUBJECT,
        "",
        "passphrase: vive-l-empereur\n1-ligne: hold\n",
    );
    ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    let stranger = store
        .outbox(None)
        .expect("outbox")
        .into_iter()
        .map(|e| e.mail)
        .find(|m| m.recipient == "spy@elsewhere.invalid")
        .expect("answered");
    assert!(
        stranger.body.contains("do not match a player"),
        "{}",
        stranger.body
    );
    assert!(!stranger.body.contains("french"), "{}", stranger.body);
    assert!(
        !stranger.subject.contains("orders for turn"),
        "{}",
        stranger.subject
    );
}

#[test]
fn machine_mail_and_our_own_mail_get_no_reply() {
    let (_dir, mut store) = setup();
    for raw in [
        mail(
            LANNES,
            SUBJECT,
            "Auto-Submitted: auto-replied\r\n",
            "away\n",
        ),
        mail(LANNES, SUBJECT, "Precedence: bulk\r\n", "1-ligne: hold\n"),
        mail(LANNES, SUBJECT, "Return-Path: <>\r\n", "1-ligne: hold\n"),
        mail(
            "umpire@example.org",
            SUBJECT,
            "",
            "passphrase grand-quartier-general\n",
        ),
    ] {
        let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
        assert!(matches!(outcome, Outcome::Ignored { .. }), "{outcome:?}");
    }
    assert!(
        store
            .queued_mail(ID)
            .expect("outbox")
            .iter()
            .all(|m| !m.message_id.contains(".reply."))
    );
}

#[test]
fn orders_for_another_turn_are_refused_naming_the_current_phase() {
    let (_dir, mut store) = setup();
    let raw = mail(
        LANNES,
        "[sound-the-charge-demo] orders for turn 4",
        "",
        "passphrase vive-l-empereur\n1-ligne: hold\n",
    );
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    let Outcome::Refused { reason } = outcome else {
        panic!()
    };
    assert!(reason.contains("turn 4"), "{reason}");
    assert!(reason.contains("turn 1 orders (french active)"), "{reason}");
    assert!(reason.contains("2026"), "names the deadline: {reason}");
}

#[test]
fn an_unknown_campaign_and_a_message_naming_none_are_refused_with_a_hint() {
    let (_dir, mut store) = setup();
    let raw = mail(
        LANNES,
        "[austerlitz] orders",
        "",
        "passphrase vive-l-empereur\n",
    );
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    assert!(
        matches!(&outcome, Outcome::Refused { reason } if reason.contains("austerlitz")),
        "{outcome:?}"
    );
    // A stranger writing without a campaign cannot be placed in one.
    let raw = mail("someone@else.invalid", "orders", "", "hold x\n");
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    assert!(
        matches!(&outcome, Outcome::Refused { reason } if reason.contains("which campaign")),
        "{outcome:?}"
    );
    // A player in only one campaign need not name it.
    let raw = mail(
        LANNES,
        "my orders",
        "",
        "passphrase vive-l-empereur\n1-ligne: hold\n",
    );
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    assert!(matches!(outcome, Outcome::Accepted { .. }), "{outcome:?}");
}

#[test]
fn orders_in_a_toml_attachment_replace_the_body() {
    let (_dir, mut store) = setup();
    let raw = format!(
        "From: {LANNES}\r\nSubject: {SUBJECT}\r\nMessage-ID: <t@test>\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n\
         passphrase: vive-l-empereur\r\nSee the attachment.\r\n--b\r\nContent-Type: application/toml\r\n\
         Content-Disposition: attachment; filename=\"orders.toml\"\r\n\r\norders = [\"garde: hold\"]\r\n--b--\r\n"
    );
    let outcome = ingest(&mut store, raw.as_bytes(), "test", &config(), &now()).expect("ingest");
    let Outcome::Accepted { refused_lines, .. } = outcome else {
        panic!("{outcome:?}")
    };
    assert_eq!(refused_lines, 0);
    assert!(replies(&store)[0].body.contains("    garde: hold\n"));
}

#[test]
fn a_maildir_message_leaves_new_only_once_stored_and_is_not_acted_on_twice() {
    use adjutant::inbox::maildir;
    let (dir, mut store) = setup();
    let root = dir.path().join("Maildir");
    let raw = mail(
        LANNES,
        SUBJECT,
        "",
        "passphrase vive-l-empereur\n1-ligne: hold\n",
    );
    maildir::deliver(&root, "0001.test", &raw).expect("deliver");
    let done = maildir::scan(&root, &mut store, &config(), &now()).expect("scan");
    assert_eq!(done.len(), 1);
    assert!(
        matches!(done[0].1, Outcome::Accepted { .. }),
        "{:?}",
        done[0].1
    );
    assert_eq!(std::fs::read_dir(root.join("new")).expect("new").count(), 0);
    assert!(root.join("cur/0001.test:2,S").exists());
    // The same message delivered again (as after a crash before the move).
    maildir::deliver(&root, "0002.test", &raw).expect("deliver");
    let done = maildir::scan(&root, &mut store, &config(), &now()).expect("scan");
    assert!(
        matches!(done[0].1, Outcome::Duplicate { .. }),
        "{:?}",
        done[0].1
    );
    assert_eq!(replies(&store).len(), 1);
}

#[test]
fn a_well_written_order_is_taken_and_a_misspelt_one_refused_with_its_column() {
    let (_dir, mut store) = setup();
    let raw = mail(
        LANNES,
        SUBJECT,
        "",
        "passphrase vive-l-empereur\n1-ligne: advance 4\n1-ligne forwrd 4\n",
    );
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    assert!(
        matches!(
            outcome,
            Outcome::Accepted {
                refused_lines: 1,
                ..
            }
        ),
        "{outcome:?}"
    );
    let body = &replies(&store)[0].body;
    assert!(
        body.contains("line 3: column"),
        "a misspelling is a syntax error with its column: {body}"
    );
}

/// docs/PLAYERS.md: "A phase closes at its deadline, or as soon as every
/// side has sent orders or said it sends none." Orders that come once the
/// deadline has passed are for the phase after it, even when the daemon has
/// not closed the phase yet: they are stored, held unanswered, and taken for
/// the next phase once it opens.
#[test]
fn orders_that_come_after_the_deadline_wait_for_the_next_phase() {
    let (_dir, mut store) = setup();
    let deadline = store.campaign(ID).expect("campaign").deadline;
    let late = FixedClock(deadline + chrono::Duration::minutes(1));
    let raw = mail(
        LANNES,
        "[sound-the-charge-demo] orders",
        "",
        "passphrase: vive-l-empereur\n1-ligne: hold\n",
    );
    let outcome = ingest(&mut store, &raw, "test", &config(), &late).expect("ingest");
    assert!(
        matches!(&outcome, Outcome::Held { campaign, .. } if campaign == ID),
        "{outcome:?}"
    );
    assert!(
        outcome.summary().contains("deadline has passed"),
        "{outcome:?}"
    );
    assert!(
        replies(&store).is_empty(),
        "a held message is not answered yet"
    );
    assert!(
        engine::sides_in(&store, ID).expect("sides").is_empty(),
        "nothing of it counts for the phase that is closing"
    );

    let resolved = engine::tick(&mut store, ID, &late).expect("the phase closes");
    assert_eq!(resolved.len(), 1);
    let outcome = ingest(&mut store, &raw, "test", &config(), &late).expect("ingest");
    assert!(
        matches!(&outcome, Outcome::Accepted { side, .. } if side == "french"),
        "offered again once the phase is closed, it is taken: {outcome:?}"
    );
    assert_eq!(replies(&store).len(), 1);
    assert!(
        engine::sides_in(&store, ID)
            .expect("sides")
            .contains("french"),
        "it counts for the phase that opened"
    );
}

/// Issue 28, defect 3: a message whose only readable line was its `salt`
/// (every order line misspelt) was "partly accepted" and replaced the
/// side's earlier orders with nothing. A message with no order accepted
/// replaces nothing, whatever salt or comments it carries, and says so.
#[test]
fn a_salt_line_alone_replaces_nothing_and_the_reply_says_the_earlier_orders_stand() {
    let (_dir, mut store) = setup();
    let good = mail(
        LANNES,
        SUBJECT,
        "",
        "passphrase: vive-l-empereur\n1-ligne: hold\n",
    );
    let first = ingest(&mut store, &good, "test", &config(), &now()).expect("ingest");
    let Outcome::Accepted { digest, .. } = first else {
        panic!("{first:?}");
    };
    let standing = |store: &Store| {
        store
            .accepted_submissions(ID, &engine::phase_key(store, ID).expect("phase"))
            .expect("submissions")
    };
    let before = standing(&store);
    for body in [
        "passphrase: vive-l-empereur\n1-ligen: hold\nsalt 7\n",
        "passphrase: vive-l-empereur\nsalt 7\n# a comment\n",
    ] {
        let raw = mail(LANNES, SUBJECT, "", body);
        let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
        let Outcome::Refused { reason } = &outcome else {
            panic!("{body:?}: {outcome:?}");
        };
        assert!(
            reason.contains("a salt line is no order")
                && reason.contains("orders you sent earlier for this phase stand"),
            "{reason}"
        );
    }
    assert_eq!(standing(&store), before, "the earlier orders stand");
    assert_eq!(before["french"].digest, digest);
}

/// Issue 28, defect 4: corrected orders sent under the Message-ID of the
/// first message (some clients reuse it on "send again") were logged as a
/// duplicate: no reply, and the old orders stayed. The same Message-ID with
/// other words is a new message; the very same message is still taken once.
#[test]
fn corrected_orders_under_the_same_message_id_are_a_new_message() {
    let (_dir, mut store) = setup();
    let with_id = |received: &str, body: &str| {
        format!(
            "Received: {received}\r\nFrom: {LANNES}\r\nTo: umpire@example.org\r\nSubject: {SUBJECT}\r\n\
             Message-ID: <same-id@french.invalid>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
            body.replace('\n', "\r\n")
        )
        .into_bytes()
    };
    let first = with_id("by mx1", "passphrase: vive-l-empereur\n1-ligne: hold\n");
    assert!(matches!(
        ingest(&mut store, &first, "test", &config(), &now()).expect("ingest"),
        Outcome::Accepted {
            replaced: false,
            ..
        }
    ));
    // The same message by another route: other bytes, the same words.
    let again = with_id("by mx2", "passphrase: vive-l-empereur\n1-ligne: hold\n");
    assert!(matches!(
        ingest(&mut store, &again, "test", &config(), &now()).expect("ingest"),
        Outcome::Duplicate { .. }
    ));
    let corrected = with_id(
        "by mx1",
        "passphrase: vive-l-empereur\n1-ligne: hold\n2-ligne: hold\n",
    );
    let outcome = ingest(&mut store, &corrected, "test", &config(), &now()).expect("ingest");
    assert!(
        matches!(outcome, Outcome::Accepted { replaced: true, .. }),
        "{outcome:?}"
    );
    let acks = replies(&store);
    assert_eq!(acks.len(), 2, "the correction is answered");
    assert!(
        acks[1]
            .body
            .contains("they replace the orders you sent earlier for this phase"),
        "{}",
        acks[1].body
    );
}

/// Issue 28: a message whose handling fails in a way that trying again
/// would repeat (here the campaign's row holds a deadline that does not
/// read, as `extend 95000000d` once stored) jammed the inbox: it had no
/// outcome, was offered again at every poll, and held back the mail behind
/// it. It is now set aside: its outcome says why, its GM is told once, its
/// sender that nothing was taken, and another delivery of it is a repeat.
#[test]
fn a_message_that_cannot_be_handled_is_set_aside_and_the_gm_told_once() {
    let (dir, store) = setup();
    drop(store);
    let db = dir.path().join("data").join(adjutant::store::DB_FILE);
    rusqlite::Connection::open(&db)
        .expect("raw open")
        .execute(
            "UPDATE campaigns SET deadline = '+262128-02-03T21:00:00Z'",
            [],
        )
        .expect("damaged");
    let mut store = Store::open(&dir.path().join("data")).expect("store");
    let message = |received: &str| {
        format!(
            "Received: {received}\r\nFrom: {LANNES}\r\nTo: umpire@example.org\r\nSubject: {SUBJECT}\r\n\
             Message-ID: <poison@french.invalid>\r\n\r\npassphrase: vive-l-empereur\r\n1-ligne: hold\r\n"
        )
        .into_bytes()
    };
    let outcome =
        ingest(&mut store, &message("by mx1"), "test", &config(), &now()).expect("set aside");
    let Outcome::Failed { campaign, why } = &outcome else {
        panic!("{outcome:?}");
    };
    assert_eq!(campaign.as_deref(), Some(ID));
    assert!(why.contains("bad timestamp"), "{why}");
    let again = ingest(&mut store, &message("by mx2"), "test", &config(), &now()).expect("ingest");
    assert!(matches!(again, Outcome::Duplicate { .. }), "{again:?}");

    let outbox = store.outbox(Some(ID)).expect("outbox");
    let to = |who: &str| -> Vec<_> {
        outbox
            .iter()
            .filter(|e| e.mail.recipient == who && !e.mail.message_id.contains(".opening."))
            .map(|e| &e.mail)
            .collect()
    };
    let gm = to("umpire@example.org");
    assert_eq!(gm.len(), 1, "the GM told once: {gm:?}");
    assert!(
        gm[0]
            .body
            .contains("could not handle a message for sound-the-charge-demo")
            && gm[0].body.contains("bad timestamp"),
        "{}",
        gm[0].body
    );
    let player = to("lannes@french.invalid");
    assert_eq!(player.len(), 1, "{player:?}");
    assert!(
        player[0].body.contains("Nothing in it was taken") && !player[0].body.contains("timestamp"),
        "{}",
        player[0].body
    );
}

/// Issue 28, smaller defects: a turn number too long to read in the subject
/// was passed over (the orders taken for the current turn), and comment
/// lines counted against the cap on order lines.
#[test]
fn an_unreadable_turn_is_a_wrong_turn_and_comments_are_no_order_lines() {
    let (_dir, mut store) = setup();
    let raw = mail(
        LANNES,
        "[sound-the-charge-demo] orders for turn 99999999999999999999",
        "",
        "passphrase: vive-l-empereur\n1-ligne: hold\n",
    );
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    let Outcome::Refused { reason } = &outcome else {
        panic!("{outcome:?}");
    };
    assert!(
        reason.contains("they are for turn 99999999999999999999, but the current phase is"),
        "{reason}"
    );

    let mut body = String::from("passphrase: vive-l-empereur\n1-ligne: hold\n");
    for n in 0..600 {
        body.push_str(&format!("# a note on the plan, {n}\n"));
    }
    let raw = mail(LANNES, SUBJECT, "", &body);
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    assert!(matches!(outcome, Outcome::Accepted { .. }), "{outcome:?}");
}
