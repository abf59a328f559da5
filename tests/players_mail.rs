//! What a real campaign by mail trips over: each defect found by playing
//! for real, pinned by a test named after it. Mail through the real Postfix
//! and Dovecot is in `mail_e2e`; these run the ingest path in process.

use chrono::{DateTime, Duration, Utc};

use adjutant::engine;
use adjutant::ingest::{IngestConfig, Outcome, ingest};
use adjutant::lifecycle::FixedClock;
use adjutant::store::{OutgoingMail, Store};

const ID: &str = "sound-the-charge-demo";
const GM: &str = "The Umpire <umpire@example.org>";
const LANNES: &str = "Jean Lannes <lannes@french.invalid>";
const HOHENZOLLERN: &str = "Hohenzollern <hohenzollern@austrian.invalid>";
const SUBJECT: &str = "[sound-the-charge-demo] orders";

fn at(text: &str) -> FixedClock {
    FixedClock(
        DateTime::parse_from_rfc3339(text)
            .expect("valid")
            .with_timezone(&Utc),
    )
}

fn now() -> FixedClock {
    at("2026-01-05T10:00:00Z")
}

/// adjutant sends from an address of its own, so the GM's mail is read.
fn config() -> IngestConfig {
    IngestConfig {
        own_addresses: vec!["adjutant@example.org".into()],
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

/// A message as an MTA delivers it: `trace` stands for the headers each
/// delivery adds (Received, Delivered-To), which differ between two
/// deliveries of one message.
fn delivered(trace: &str, from: &str, message_id: &str, subject: &str, body: &str) -> Vec<u8> {
    format!(
        "{trace}From: {from}\r\nTo: adjutant@example.org\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\nDate: Mon, 05 Jan 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

fn received(n: u32) -> String {
    format!(
        "Received: from client.example.org (localhost [127.0.0.1])\r\n\tby mx.example.org with ESMTP id {n:08X}; Mon, 05 Jan 2026 10:00:0{n} +0000\r\nDelivered-To: adjutant+{n}@example.org\r\n"
    )
}

fn replies(store: &Store) -> Vec<OutgoingMail> {
    store
        .queued_mail(ID)
        .expect("outbox")
        .into_iter()
        .filter(|m| m.message_id.contains(".reply."))
        .collect()
}

/// Defect 1: a GM command delivered twice ran twice, because a repeated
/// message was recognised only by identical bytes.
#[test]
fn a_gm_command_delivered_twice_by_an_mta_runs_once() {
    let (_dir, mut store) = setup();
    let before = store.campaign(ID).expect("campaign").deadline;
    let body = "passphrase: grand-quartier-general\ncommand: extend 1h\n";
    let mid = "<cmd-1@umpire.example.org>";
    let first = delivered(
        &received(1),
        GM,
        mid,
        "[sound-the-charge-demo] command",
        body,
    );
    let second = delivered(
        &received(2),
        GM,
        mid,
        "[sound-the-charge-demo] command",
        body,
    );
    assert_ne!(first, second);
    let one = ingest(&mut store, &first, "test", &config(), &now()).expect("first");
    assert!(matches!(one, Outcome::Commands { done: 1, .. }), "{one:?}");
    let two = ingest(&mut store, &second, "test", &config(), &now()).expect("second");
    assert!(matches!(two, Outcome::Duplicate { .. }), "{two:?}");
    let record = store.campaign(ID).expect("campaign");
    assert_eq!(record.deadline - before, Duration::hours(1));
    assert_eq!(store.gm_log(ID).expect("log").len(), 1);
    assert_eq!(replies(&store).len(), 1, "one reply to one command");
}

/// Defect 1, for orders: the same orders delivered twice are taken once and
/// acknowledged once; the second delivery claims no replacement.
#[test]
fn orders_delivered_twice_by_an_mta_are_taken_once() {
    let (_dir, mut store) = setup();
    let body = "passphrase: vive-l-empereur\n1-ligne: hold\n";
    let mid = "<orders-1@french.invalid>";
    let first = delivered(&received(1), LANNES, mid, SUBJECT, body);
    let second = delivered(&received(2), LANNES, mid, SUBJECT, body);
    let one = ingest(&mut store, &first, "test", &config(), &now()).expect("first");
    assert!(
        matches!(
            one,
            Outcome::Accepted {
                replaced: false,
                ..
            }
        ),
        "{one:?}"
    );
    let two = ingest(&mut store, &second, "test", &config(), &now()).expect("second");
    assert!(matches!(two, Outcome::Duplicate { .. }), "{two:?}");
    assert_eq!(replies(&store).len(), 1);
}

/// Defect 1, by content: the same orders sent again as a new message (the
/// player pressed send twice) change nothing, and the reply says so rather
/// than claiming they replaced earlier ones.
#[test]
fn the_same_orders_sent_again_are_acknowledged_as_unchanged() {
    let (_dir, mut store) = setup();
    let body = "passphrase: vive-l-empereur\n1-ligne: hold\n";
    let first = delivered("", LANNES, "<a@french.invalid>", SUBJECT, body);
    let again = delivered("", LANNES, "<b@french.invalid>", SUBJECT, body);
    ingest(&mut store, &first, "test", &config(), &now()).expect("first");
    let two = ingest(&mut store, &again, "test", &config(), &now()).expect("again");
    assert!(
        matches!(
            two,
            Outcome::Accepted {
                replaced: false,
                ..
            }
        ),
        "{two:?}"
    );
    let acks = replies(&store);
    assert_eq!(acks.len(), 2);
    assert!(
        acks[1]
            .body
            .contains("the same as the orders you sent earlier"),
        "{}",
        acks[1].body
    );
    assert!(!acks[1].body.contains("replace"), "{}", acks[1].body);
}

/// A message with no Message-ID at all is still recognised when delivered
/// again, by who sent it and what it says.
#[test]
fn a_message_without_a_message_id_delivered_twice_acts_once() {
    let (_dir, mut store) = setup();
    let before = store.campaign(ID).expect("campaign").deadline;
    let body = "passphrase: grand-quartier-general\ncommand: extend 1h\n";
    let strip = |raw: Vec<u8>| -> Vec<u8> {
        String::from_utf8(raw)
            .expect("text")
            .replace("Message-ID: <none>\r\n", "")
            .into_bytes()
    };
    let first = strip(delivered(
        &received(1),
        GM,
        "<none>",
        "[sound-the-charge-demo] c",
        body,
    ));
    let second = strip(delivered(
        &received(2),
        GM,
        "<none>",
        "[sound-the-charge-demo] c",
        body,
    ));
    ingest(&mut store, &first, "test", &config(), &now()).expect("first");
    let two = ingest(&mut store, &second, "test", &config(), &now()).expect("second");
    assert!(matches!(two, Outcome::Duplicate { .. }), "{two:?}");
    assert_eq!(
        store.campaign(ID).expect("campaign").deadline - before,
        Duration::hours(1)
    );
}

/// A forgery sent first under a player's Message-ID is refused, and does not
/// make the real message a repeat.
#[test]
fn a_refused_forgery_under_a_message_id_does_not_shadow_the_real_message() {
    let (_dir, mut store) = setup();
    let mid = "<seen-in-transit@french.invalid>";
    let forged = delivered(
        "",
        LANNES,
        mid,
        SUBJECT,
        "passphrase: guess\n1-ligne: hold\n",
    );
    let real = delivered(
        "",
        LANNES,
        mid,
        SUBJECT,
        "passphrase: vive-l-empereur\n1-ligne: hold\n",
    );
    let one = ingest(&mut store, &forged, "test", &config(), &now()).expect("forged");
    assert!(matches!(one, Outcome::Refused { .. }), "{one:?}");
    let two = ingest(&mut store, &real, "test", &config(), &now()).expect("real");
    assert!(matches!(two, Outcome::Accepted { .. }), "{two:?}");
}

/// Resolves the current phase now, as the GM's `resolve now` does.
fn resolve(store: &mut Store) {
    engine::resolve_now(store, ID, &now()).expect("resolves");
}

/// The report of resolution `k` that `address` was sent.
fn report_to(store: &Store, k: u64, address: &str) -> OutgoingMail {
    store
        .queued_mail(ID)
        .expect("outbox")
        .into_iter()
        .find(|m| m.message_id.contains(&format!(".r{k}.result.")) && m.recipient == address)
        .expect("the report")
}

/// A reply to `report`, as a mail client writes it: "Re:" and the
/// report's subject, In-Reply-To and References naming it.
fn reply_to(report: &OutgoingMail, from: &str, message_id: &str, body: &str) -> Vec<u8> {
    let trace = format!("In-Reply-To: {0}\r\nReferences: {0}\r\n", report.message_id);
    delivered(
        &trace,
        from,
        message_id,
        &format!("Re: {}", report.subject),
        body,
    )
}

/// Defect 2: a reply to the latest report, whose subject names the turn it
/// reported, was refused as orders "for turn 2"; it is for the phase now open.
#[test]
fn a_reply_to_the_latest_report_is_for_the_phase_now_open() {
    let (_dir, mut store) = setup();
    resolve(&mut store);
    resolve(&mut store);
    let report = report_to(&store, 2, "lannes@french.invalid");
    assert!(report.subject.contains("turn 2"), "{}", report.subject);
    let raw = reply_to(
        &report,
        LANNES,
        "<reply-1@french.invalid>",
        "passphrase: vive-l-empereur\n1-ligne: hold\n",
    );
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    assert!(matches!(outcome, Outcome::Accepted { .. }), "{outcome:?}");
    // Its subject alone tells the same, when a client drops In-Reply-To.
    let bare = delivered(
        "",
        LANNES,
        "<reply-2@french.invalid>",
        &format!("Re: {}", report.subject),
        "passphrase: vive-l-empereur\n1-ligne: hold\n2-ligne: hold\n",
    );
    let outcome = ingest(&mut store, &bare, "test", &config(), &now()).expect("ingest");
    assert!(matches!(outcome, Outcome::Accepted { .. }), "{outcome:?}");
}

/// A reply to an older report is refused, naming the latest resolution: its
/// orders answer a situation that has moved on.
#[test]
fn a_reply_to_an_older_report_is_refused_naming_the_latest() {
    let (_dir, mut store) = setup();
    resolve(&mut store);
    resolve(&mut store);
    let old = report_to(&store, 1, "lannes@french.invalid");
    let raw = reply_to(
        &old,
        LANNES,
        "<late@french.invalid>",
        "passphrase: vive-l-empereur\n1-ligne: hold\n",
    );
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    let Outcome::Refused { reason } = &outcome else {
        panic!("{outcome:?}");
    };
    assert!(reason.contains("report of resolution 1"), "{reason}");
    assert!(reason.contains("resolution 2"), "{reason}");
}

/// Whether the phase has closed early (resolved by `tick` before its
/// deadline).
fn closed_early(store: &mut Store) -> bool {
    !engine::tick(store, ID, &now()).expect("tick").is_empty()
}

/// Defect 3: in a phase where one side is active, the phase closed as soon
/// as the active side's orders were in, and the passive side's standing
/// orders, sent a moment later, were refused for the old turn. It closes
/// early only once every side has sent orders or said it sends none.
#[test]
fn the_passive_side_may_still_send_once_the_active_side_is_in() {
    let (_dir, mut store) = setup();
    let active = delivered(
        "",
        LANNES,
        "<t1@french.invalid>",
        SUBJECT,
        "passphrase: vive-l-empereur\n1-ligne: hold\n",
    );
    ingest(&mut store, &active, "test", &config(), &now()).expect("active side");
    assert!(!closed_early(&mut store), "closed before the passive side");
    let passive = delivered(
        "",
        HOHENZOLLERN,
        "<t1@austrian.invalid>",
        SUBJECT,
        "passphrase: gott-erhalte-franz\nno orders\n",
    );
    let outcome = ingest(&mut store, &passive, "test", &config(), &now()).expect("passive");
    assert!(matches!(outcome, Outcome::NoOrders { .. }), "{outcome:?}");
    let ack = replies(&store)
        .into_iter()
        .find(|m| m.recipient == "hohenzollern@austrian.invalid")
        .expect("acknowledged");
    assert!(ack.body.contains("sends no orders"), "{}", ack.body);
    assert!(closed_early(&mut store), "every side is in");
    // The manifest says `none` for the side that sent none.
    let manifest = store
        .resolutions(ID)
        .expect("resolutions")
        .into_iter()
        .next()
        .expect("resolution 1")
        .manifest_text;
    assert!(manifest.contains("orders austrian none"), "{manifest}");
}

/// A side that said it sends none may change its mind: orders sent later
/// replace the word, and `no orders` after orders withdraws them.
#[test]
fn no_orders_and_orders_replace_each_other() {
    let (_dir, mut store) = setup();
    let say = |store: &mut Store, n: u32, body: &str| {
        let raw = delivered(
            "",
            LANNES,
            &format!("<m{n}@french.invalid>"),
            SUBJECT,
            &format!("passphrase: vive-l-empereur\n{body}"),
        );
        ingest(store, &raw, "test", &config(), &now()).expect("ingest")
    };
    say(&mut store, 1, "1-ligne: hold\n");
    assert!(engine::sides_in(&store, ID).expect("in").contains("french"));
    let withdrawn = say(&mut store, 2, "No orders.\n");
    assert!(
        matches!(
            withdrawn,
            Outcome::NoOrders {
                withdrawn: true,
                ..
            }
        ),
        "{withdrawn:?}"
    );
    let sheets = store
        .accepted_submissions(ID, &engine::phase_key(&store, ID).expect("key"))
        .expect("subs");
    assert!(sheets.is_empty(), "the orders were withdrawn");
    assert!(engine::sides_in(&store, ID).expect("in").contains("french"));
    let again = say(&mut store, 3, "1-ligne: hold\n");
    assert!(matches!(again, Outcome::Accepted { .. }), "{again:?}");
    let sheets = store
        .accepted_submissions(ID, &engine::phase_key(&store, ID).expect("key"))
        .expect("subs");
    assert!(sheets.contains_key("french"));
}

/// The refusals of `body`'s lines, as the acknowledgement or refusal words
/// them, sent by the French player.
fn refusals_of(store: &mut Store, n: u32, body: &str) -> String {
    let raw = delivered(
        "",
        LANNES,
        &format!("<probe-{n}@french.invalid>"),
        SUBJECT,
        &format!("passphrase: vive-l-empereur\n1-ligne: hold\n{body}"),
    );
    ingest(store, &raw, "test", &config(), &now()).expect("ingest");
    let reply = replies(store)
        .into_iter()
        .find(|m| {
            m.in_reply_to
                .as_deref()
                .is_some_and(|r| r.contains(&format!("probe-{n}@")))
        })
        .expect("a reply");
    reply
        .body
        .lines()
        .filter(|l| l.contains("line 3"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Defect 4: an order naming a hidden enemy unit was refused with "is not
/// one of your units" and an unknown name with "no unit here has the id":
/// the difference told the player the unit exists. The Jäger stand deep in
/// the Wolfswald, out of French sight (docs/RULINGS.md, REP-1).
#[test]
fn a_hidden_enemy_and_a_unit_that_does_not_exist_are_refused_alike() {
    let (_dir, mut store) = setup();
    let words = |body: String, name: &str| body.replace(name, "X");
    let hidden = refusals_of(&mut store, 1, "jaeger: forward 2\n");
    let unknown = refusals_of(&mut store, 2, "nobody: forward 2\n");
    assert_eq!(
        words(hidden.clone(), "jaeger"),
        words(unknown, "nobody"),
        "{hidden}"
    );
    // Aimed at: a hidden target reads as one that does not exist.
    let hidden = refusals_of(&mut store, 3, "batterie-a-pied: shoot jaeger\n");
    let unknown = refusals_of(&mut store, 4, "batterie-a-pied: shoot nobody\n");
    assert_eq!(
        words(hidden.clone(), "jaeger"),
        words(unknown, "nobody"),
        "{hidden}"
    );
    // And so does a name that fits several units, one of them hidden: the
    // reply lists no hidden unit's id.
    let seen = refusals_of(&mut store, 5, "batterie-a-pied: shoot ir-4\n");
    assert!(
        !seen.contains("no enemy unit"),
        "a unit in sight is found: {seen}"
    );
}

/// Defect 8: the text of a `salt` line was lower-cased in the store, the
/// digest and the echo, though docs/ORDERS.md says it is kept as written.
#[test]
fn a_salt_line_is_kept_as_written() {
    let (_dir, mut store) = setup();
    let raw = delivered(
        "",
        LANNES,
        "<salt@french.invalid>",
        SUBJECT,
        "passphrase: vive-l-empereur\n1-ligne: hold\nSALT  The Eagles   Fly at Dawn\n",
    );
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    let Outcome::Accepted { digest, .. } = outcome else {
        panic!("{outcome:?}");
    };
    let canonical = "1-ligne: hold\nsalt The Eagles Fly at Dawn\n";
    assert_eq!(digest, adjutant::audit::Digest32::of(canonical.as_bytes()));
    let ack = replies(&store).pop().expect("ack");
    assert!(
        ack.body.contains("    salt The Eagles Fly at Dawn\n"),
        "{}",
        ack.body
    );
}

/// Defect 15: refusals were listed wording errors first, then the others,
/// out of line order, and a wording error did not name its unit.
#[test]
fn refusals_come_in_line_order_and_each_names_its_unit() {
    let (_dir, mut store) = setup();
    let raw = delivered(
        "",
        LANNES,
        "<order@french.invalid>",
        SUBJECT,
        "passphrase: vive-l-empereur\n1-ligne: hold\nnobody: hold\n2-ligne: forwrd 2\n3-ligne: hold\n",
    );
    ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    let ack = replies(&store).pop().expect("ack").body;
    let refused: Vec<&str> = ack
        .lines()
        .filter(|l| l.trim_start().starts_with("line "))
        .collect();
    assert_eq!(refused.len(), 2, "{ack}");
    assert!(refused[0].contains("line 3: nobody:"), "{ack}");
    assert!(refused[1].contains("line 4: 2-ligne:"), "{ack}");
}

/// Defect 10: 10,000 identical `evade` lines were all accepted, and 10,000
/// junk lines got a 4 MB reply. The same order given twice is refused naming
/// the line that gave it first; a message of more lines than any side has
/// units is refused whole; a reply lists so many refusals and counts the rest.
#[test]
fn repeated_orders_and_floods_of_lines_get_a_short_clear_reply() {
    let (_dir, mut store) = setup();
    let send = |store: &mut Store, n: u32, from: &str, pass: &str, lines: &str| {
        let raw = delivered(
            "",
            from,
            &format!("<flood-{n}@example.org>"),
            SUBJECT,
            &format!("passphrase: {pass}\n{lines}"),
        );
        let outcome = ingest(store, &raw, "test", &config(), &now()).expect("ingest");
        let reply = replies(store)
            .into_iter()
            .find(|m| {
                m.in_reply_to
                    .as_deref()
                    .is_some_and(|r| r.contains(&format!("flood-{n}@")))
            })
            .expect("a reply");
        (outcome, reply.body)
    };
    // The Austrians are passive in turn 1: `evade` is their standing order.
    let evades = "grenzer: evade\n".repeat(300);
    let (outcome, body) = send(&mut store, 1, HOHENZOLLERN, "gott-erhalte-franz", &evades);
    let Outcome::Accepted { refused_lines, .. } = outcome else {
        panic!("{outcome:?}");
    };
    assert_eq!(refused_lines, 299);
    assert!(
        body.contains("line 3: grenzer: it repeats the order on line 2"),
        "{body}"
    );
    assert!(body.contains("and 249 more refused lines"), "{body}");
    assert!(body.len() < 20_000, "a reply of {} bytes", body.len());
    // Ten thousand lines: refused whole, in a few lines.
    let junk = "xyzzy\n".repeat(10_000);
    let (outcome, body) = send(&mut store, 2, LANNES, "vive-l-empereur", &junk);
    assert!(matches!(outcome, Outcome::Refused { .. }), "{outcome:?}");
    assert!(
        body.contains("10000 order lines, more than the 500"),
        "{body}"
    );
    assert!(body.len() < 2_000, "a reply of {} bytes", body.len());
}

/// Defect 7: a multipart message missing its closing boundary was told "the
/// sender and passphrase do not match". What can be read is read.
#[test]
fn a_multipart_message_without_its_closing_boundary_is_read() {
    let (_dir, mut store) = setup();
    let raw = format!(
        "From: {LANNES}\r\nTo: adjutant@example.org\r\nSubject: {SUBJECT}\r\nMessage-ID: <broken@french.invalid>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"zz\"\r\n\r\n--zz\r\nContent-Type: text/plain; charset=utf-8\r\n\r\npassphrase: vive-l-empereur\r\n1-ligne: hold\r\n"
    );
    let outcome = ingest(&mut store, raw.as_bytes(), "test", &config(), &now()).expect("ingest");
    assert!(matches!(outcome, Outcome::Accepted { .. }), "{outcome:?}");
}

/// Defect 7: a message whose text cannot be read at all is told so, not
/// that its passphrase is wrong.
#[test]
fn a_message_with_no_readable_text_is_told_it_could_not_be_read() {
    let (_dir, mut store) = setup();
    let raw = format!(
        "From: {LANNES}\r\nTo: adjutant@example.org\r\nSubject: {SUBJECT}\r\nMessage-ID: <unreadable@french.invalid>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"zz\"\r\n\r\n--zz\r\nContent-Type: text/plain; charset=x-no-such-charset\r\nContent-Transfer-Encoding: base64\r\n\r\n%%%% not base64 %%%%\r\n"
    );
    let outcome = ingest(&mut store, raw.as_bytes(), "test", &config(), &now()).expect("ingest");
    let Outcome::Refused { reason } = &outcome else {
        panic!("{outcome:?}");
    };
    assert!(reason.contains("could not be read"), "{reason}");
    assert!(!reason.contains("passphrase"), "{reason}");
}

/// Defect 5: a message over the size limit vanished without a reply. It is
/// answered with its size and the limit.
#[test]
fn a_message_over_the_size_limit_is_answered_with_the_limit() {
    let (_dir, mut store) = setup();
    let padding = "x".repeat(76).repeat(8_000);
    let raw = delivered(
        "",
        LANNES,
        "<huge@french.invalid>",
        SUBJECT,
        &format!("passphrase: vive-l-empereur\n1-ligne: hold\n{padding}\n"),
    );
    assert!(raw.len() > 600_000);
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    let Outcome::Refused { reason } = &outcome else {
        panic!("{outcome:?}");
    };
    assert!(
        reason.contains("over the limit of 524288 bytes"),
        "{reason}"
    );
    let reply = replies(&store).pop().expect("answered");
    assert_eq!(reply.recipient, "lannes@french.invalid");
    assert!(reply.body.contains("512 KB"), "{}", reply.body);
}

/// An automatic reply of a robot that sets no Auto-Submitted header, known
/// by its subject or a vendor header.
fn robot(n: u32, subject: &str, header: &str) -> Vec<u8> {
    delivered(
        header,
        LANNES,
        &format!("<robot-{n}@french.invalid>"),
        subject,
        "I am away until Monday with no access to my mail.\n",
    )
}

/// Defect 6: a naive out-of-office robot (no Auto-Submitted header) got 25
/// refusals in 15 seconds. Its usual marks are read as automatic mail.
#[test]
fn an_out_of_office_robot_without_auto_submitted_gets_no_reply() {
    let (_dir, mut store) = setup();
    let robots = [
        robot(
            1,
            "Out of Office: Re: [sound-the-charge-demo] resolution 1",
            "",
        ),
        robot(2, "Automatic reply: [sound-the-charge-demo] orders", ""),
        robot(3, "AUTO: Jean Lannes is out of the office", ""),
        robot(4, "Abwesenheitsnotiz: [sound-the-charge-demo]", ""),
        robot(5, "Réponse automatique : [sound-the-charge-demo]", ""),
        robot(
            6,
            "Re: [sound-the-charge-demo] orders",
            "X-Autoreply: yes\r\n",
        ),
        robot(
            7,
            "Re: [sound-the-charge-demo] orders",
            "X-Autorespond: on\r\n",
        ),
    ];
    for raw in &robots {
        let outcome = ingest(&mut store, raw, "test", &config(), &now()).expect("ingest");
        assert!(matches!(outcome, Outcome::Ignored { .. }), "{outcome:?}");
    }
    assert!(replies(&store).is_empty());
}

/// Defect 6: a robot no rule recognises is answered a few times an hour,
/// then not at all; the GM is told once.
#[test]
fn refusals_to_one_sender_stop_after_five_an_hour_and_the_gm_is_told_once() {
    let (_dir, mut store) = setup();
    for n in 0..25 {
        let raw = delivered(
            "",
            LANNES,
            &format!("<loop-{n}@french.invalid>"),
            &format!("Re: Re: [sound-the-charge-demo] your message ({n})"),
            "I will answer as soon as I can.\n",
        );
        ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    }
    assert_eq!(replies(&store).len(), 5, "five refusals, then silence");
    let told: Vec<OutgoingMail> = store
        .queued_mail(ID)
        .expect("outbox")
        .into_iter()
        .filter(|m| m.recipient == "umpire@example.org" && m.message_id.contains(".quiet."))
        .collect();
    assert_eq!(told.len(), 1, "the GM is told once");
    assert!(
        told[0].body.contains("lannes@french.invalid"),
        "{}",
        told[0].body
    );
    // An hour later the sender is answered again.
    let later = delivered(
        "",
        LANNES,
        "<after@french.invalid>",
        SUBJECT,
        "passphrase: vive-l-empereur\n1-ligne: hold\n",
    );
    let outcome = ingest(
        &mut store,
        &later,
        "test",
        &config(),
        &at("2026-01-05T11:01:00Z"),
    )
    .expect("ingest");
    assert!(matches!(outcome, Outcome::Accepted { .. }), "{outcome:?}");
}

/// Issue 28: 500 valid order mails (0.17 MB in) brought 500
/// acknowledgements with maps (35 MB out). One address gets so many
/// acknowledgements an hour; its orders are still taken after that, and the
/// GM is told once.
#[test]
fn acknowledgements_to_one_sender_stop_after_thirty_an_hour_and_the_gm_is_told_once() {
    let (_dir, mut store) = setup();
    let units = ["1-ligne", "2-ligne"];
    for n in 0..40 {
        let raw = delivered(
            "",
            LANNES,
            &format!("<flood-{n}@french.invalid>"),
            SUBJECT,
            &format!(
                "passphrase: vive-l-empereur\n{}: hold\nsalt {n}\n",
                units[n % 2]
            ),
        );
        let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
        assert!(matches!(outcome, Outcome::Accepted { .. }), "{outcome:?}");
    }
    let acks = replies(&store);
    assert_eq!(acks.len(), 30, "thirty acknowledgements, then silence");
    // The orders past the ration were taken: the latest stands.
    let standing = store
        .accepted_submissions(ID, &engine::phase_key(&store, ID).expect("phase"))
        .expect("submissions");
    assert!(
        standing["french"].canonical_text.contains("salt 39"),
        "{}",
        standing["french"].canonical_text
    );
    let told: Vec<OutgoingMail> = store
        .queued_mail(ID)
        .expect("outbox")
        .into_iter()
        .filter(|m| m.recipient == "umpire@example.org" && m.message_id.contains(".quiet-acks."))
        .collect();
    assert_eq!(told.len(), 1, "the GM is told once");
    assert!(
        told[0]
            .body
            .contains("stopped acknowledging lannes@french.invalid"),
        "{}",
        told[0].body
    );
    // An hour later the sender is answered again.
    let later = delivered(
        "",
        LANNES,
        "<after-flood@french.invalid>",
        SUBJECT,
        "passphrase: vive-l-empereur\n1-ligne: hold\n",
    );
    ingest(
        &mut store,
        &later,
        "test",
        &config(),
        &at("2026-01-05T11:01:00Z"),
    )
    .expect("ingest");
    assert_eq!(replies(&store).len(), 31);
}

/// Defect 11: refusals went to any From address, forged or not, with the
/// sender's subject reflected. An address no campaign knows is answered at
/// most once a day, briefly, quoting nothing of what it sent.
#[test]
fn an_unregistered_address_is_answered_once_a_day_quoting_nothing() {
    let (_dir, mut store) = setup();
    for n in 0..3 {
        let raw = delivered(
            "",
            "Forged <victim@elsewhere.invalid>",
            &format!("<spam-{n}@elsewhere.invalid>"),
            "[sound-the-charge-demo] BUY CHEAP PILLS http://spam.invalid",
            "passphrase: guess\n",
        );
        ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    }
    let answers: Vec<OutgoingMail> = store
        .outbox(None)
        .expect("outbox")
        .into_iter()
        .map(|e| e.mail)
        .filter(|m| m.recipient == "victim@elsewhere.invalid")
        .collect();
    assert_eq!(answers.len(), 1, "once a day: {answers:#?}");
    let reply = &answers[0];
    for reflected in ["PILLS", "spam.invalid", "guess"] {
        assert!(!reply.subject.contains(reflected), "{}", reply.subject);
        assert!(!reply.body.contains(reflected), "{}", reply.body);
    }
}

/// The opening mail names each player's side, lists its units with ids,
/// places and states, gives the first deadline and an order template to
/// reply with, and attaches the field as the side sees it; the GM's lists
/// every side.
#[test]
fn the_opening_mail_tells_each_player_what_they_command() {
    let (_dir, store) = setup();
    let opening = |to: &str| {
        store
            .queued_mail(ID)
            .expect("outbox")
            .into_iter()
            .find(|m| m.message_id.contains(".opening.") && m.recipient == to)
            .expect("an opening mail")
    };
    let french = opening("lannes@french.invalid");
    let body = &french.body;
    assert!(body.contains("You command"), "{body}");
    assert!(body.contains("(side `french`)"), "{body}");
    assert!(body.contains("  1-ligne: "), "{body}");
    assert!(body.contains(" inches, facing "), "{body}");
    assert!(!body.contains("ir-4"), "no enemy unit is listed: {body}");
    assert!(body.contains("Deadline: "), "{body}");
    assert!(body.contains("    1-ligne: hold\n"), "the template: {body}");
    assert!(body.contains("Your orders are due"), "{body}");
    assert!(body.contains("commitment C = "), "{body}");
    assert!(
        french
            .parts
            .iter()
            .any(|p| p.content_type == "image/png" && p.filename.ends_with("-start-french.png")),
        "the map is attached"
    );
    let austrian = opening("hohenzollern@austrian.invalid");
    assert!(austrian.body.contains("`no orders`"), "{}", austrian.body);
    let gm = opening("umpire@example.org");
    assert!(gm.body.contains("You are its game master"), "{}", gm.body);
    assert!(
        gm.body.contains("  1-ligne: ") && gm.body.contains("  ir-4: "),
        "{}",
        gm.body
    );
}

/// The acknowledgement shows the orders on the map: an inline picture of
/// the side's units with each accepted move drawn as it will be tried, so a
/// misread move is seen before the deadline.
#[test]
fn the_acknowledgement_draws_the_accepted_moves_on_the_map() {
    let (_dir, mut store) = setup();
    let raw = delivered(
        "",
        LANNES,
        "<mapped@french.invalid>",
        SUBJECT,
        "passphrase: vive-l-empereur\n1-ligne: forward 4\n12-dragons: forward 6, wheel right 45, forward 3\n",
    );
    ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    let ack = replies(&store).pop().expect("ack");
    // A move the rules will not let happen is told now: refused, with the
    // rule, since nothing the enemy does first can make it shorter (issue
    // 30, item 2); the move that stands is drawn.
    assert!(
        ack.body
            .contains("line 3: 12-dragons: cannot move: the move costs"),
        "{}",
        ack.body
    );
    // And why so little is left (issue 30, item 4): the dragoons stand far
    // from any general, and move at half speed.
    assert!(
        ack.body.contains(
            "is left (Movement Table): half speed, no general in command radius at the start of the phase (Movement, Units out of Command)"
        ),
        "{}",
        ack.body
    );
    assert!(
        ack.body.contains("1er Régiment de Ligne moves to"),
        "{}",
        ack.body
    );
    let html = ack.html.as_deref().expect("an HTML part");
    let image = ack
        .parts
        .iter()
        .find(|p| p.content_type == "image/png")
        .expect("the map");
    let cid = image.content_id.as_deref().expect("shown inline");
    assert!(html.contains(&format!("cid:{cid}")), "{html}");
    assert!(image.bytes.starts_with(b"\x89PNG"));
    // What it draws: 1-ligne four inches on, as the movement would take it.
    let record = store.campaign(ID).expect("record");
    let state = store.state(&record.current_state_digest).expect("state");
    let ruleset = adjutant::rules::ruleset_for(&state.ruleset).expect("known");
    let read = ruleset.read(&state).expect("the state reads");
    let (planned, events) = ruleset
        .planned(&read, "french", "1-ligne: forward 4\n")
        .expect("a plan");
    let before = state.unit("1-ligne").expect("there").location;
    let after = planned.unit("1-ligne").expect("there").location;
    let (
        adjutant::rules::board::Location::Table { y: y0, .. },
        adjutant::rules::board::Location::Table { y: y1, .. },
    ) = (before, after)
    else {
        panic!("a table");
    };
    assert_eq!(y1 - y0, 400, "four inches north");
    assert!(
        events
            .iter()
            .any(|e| e.units.first().map(String::as_str) == Some("1-ligne"))
    );
}

/// The GM may ask for a copy of every acknowledgement and refusal
/// (`[gm] copies = true`).
#[test]
fn a_gm_who_asks_gets_a_copy_of_every_acknowledgement_and_refusal() {
    let dir = tempfile::tempdir().expect("dir");
    let folder = dir.path().join("campaign");
    adjutant::demo::bundled_campaign(&folder).expect("writes");
    let path = folder.join("campaign.toml");
    let text = std::fs::read_to_string(&path).expect("reads");
    std::fs::write(&path, text.replacen("[gm]\n", "[gm]\ncopies = true\n", 1)).expect("writes");
    let campaign = adjutant::campaign::load(&folder).expect("loads");
    assert!(campaign.gm_copies);
    let mut store = Store::open(&dir.path().join("data")).expect("store");
    engine::init(&mut store, &campaign, &folder, &now()).expect("init");
    for (n, body) in [
        "passphrase: vive-l-empereur\n1-ligne: hold\n",
        "passphrase: wrong\n",
    ]
    .iter()
    .enumerate()
    {
        let raw = delivered(
            "",
            LANNES,
            &format!("<copied-{n}@french.invalid>"),
            SUBJECT,
            body,
        );
        ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    }
    let copies: Vec<OutgoingMail> = store
        .queued_mail(ID)
        .expect("outbox")
        .into_iter()
        .filter(|m| m.message_id.contains(".copy.") && m.recipient == "umpire@example.org")
        .collect();
    assert_eq!(copies.len(), 2);
    assert!(
        copies[0].body.contains("are accepted"),
        "{}",
        copies[0].body
    );
    assert!(
        copies[1].body.contains("do not match a player"),
        "{}",
        copies[1].body
    );
}

/// A batch's passphrases are checked ahead, on every core; each message is
/// then judged exactly as it would be alone.
#[test]
fn passphrases_checked_ahead_for_a_batch_judge_each_message_as_alone() {
    let (_dir, mut store) = setup();
    let good = delivered(
        "",
        LANNES,
        "<b-1@french.invalid>",
        SUBJECT,
        "passphrase: vive-l-empereur\n1-ligne: hold\n",
    );
    let wrong = delivered(
        "",
        LANNES,
        "<b-2@french.invalid>",
        SUBJECT,
        "passphrase: vive-le-roi\n1-ligne: hold\n",
    );
    let gm = delivered(
        "",
        GM,
        "<b-3@example.org>",
        "[sound-the-charge-demo] c",
        "passphrase: grand-quartier-general\ncommand: status\n",
    );
    let config = config();
    adjutant::ingest::precheck(&store, &[&good[..], &wrong[..], &gm[..]], &config);
    assert_eq!(config.prechecked.pending(), 3, "one verdict a message");
    let outcomes: Vec<Outcome> = [&good, &wrong, &gm]
        .iter()
        .map(|raw| ingest(&mut store, raw, "test", &config, &now()).expect("ingest"))
        .collect();
    assert!(
        matches!(outcomes[0], Outcome::Accepted { .. }),
        "{outcomes:?}"
    );
    assert!(
        matches!(outcomes[1], Outcome::Refused { .. }),
        "{outcomes:?}"
    );
    assert!(
        matches!(outcomes[2], Outcome::Commands { done: 1, .. }),
        "{outcomes:?}"
    );
    assert_eq!(config.prechecked.pending(), 0, "every verdict taken");
}

#[test]
fn a_passphrase_remembered_admits_only_itself() {
    let (_dir, mut store) = setup();
    let config = config();
    let right = delivered(
        "",
        LANNES,
        "<r-1@french.invalid>",
        SUBJECT,
        "passphrase: vive-l-empereur\n1-ligne: hold\n",
    );
    let wrong = delivered(
        "",
        LANNES,
        "<r-2@french.invalid>",
        SUBJECT,
        "passphrase: vive-le-roi\n1-ligne: hold\n",
    );
    let again = delivered(
        "",
        LANNES,
        "<r-3@french.invalid>",
        SUBJECT,
        "passphrase: vive-l-empereur\n1-ligne: hold\nsalt 3\n",
    );
    let first = ingest(&mut store, &right, "test", &config, &now()).expect("ingest");
    assert!(matches!(first, Outcome::Accepted { .. }), "{first:?}");
    // Once found right, the passphrase is remembered: a wrong one after it is
    // still refused, the right one still taken.
    let refused = ingest(&mut store, &wrong, "test", &config, &now()).expect("ingest");
    assert!(matches!(refused, Outcome::Refused { .. }), "{refused:?}");
    let taken = ingest(&mut store, &again, "test", &config, &now()).expect("ingest");
    assert!(matches!(taken, Outcome::Accepted { .. }), "{taken:?}");
}

/// Issue 30, item 2: Sound the Charge accepted a shot out of range (or out
/// of the firer's arc) without a word, and it failed only at resolution;
/// percentile fire refuses such fire at once. On turn 1 the French foot
/// battery stands 26.5" from IR 49, beyond the 20" of field guns: the
/// acknowledgement refuses the line with the clause, as resolution would
/// have told it.
#[test]
fn a_shot_out_of_range_is_refused_when_the_orders_are_acknowledged() {
    let (_dir, mut store) = setup();
    let refused = refusals_of(&mut store, 1, "batterie-a-pied: shoot ir-49\n");
    assert!(
        refused.contains(
            "line 3: batterie-a-pied: IR 49 Kerpen is out of range: the far range of field guns is 20 inches"
        ),
        "{refused}"
    );
    assert!(
        refused.contains("(Shooting Table: \"Field guns 6 / 20\")"),
        "{refused}"
    );
    // The line that stood is taken; the refusal keeps the side from being
    // ready, as any refused line does.
    let ack = replies(&store).pop().expect("ack").body;
    assert!(ack.contains("    1-ligne: hold\n"), "{ack}");
    assert!(!ack.contains("    batterie-a-pied: shoot ir-49\n"), "{ack}");
    assert!(
        ack.contains("You are not ready, since a line was refused"),
        "{ack}"
    );
}

/// Issue 30, item 2: a line whose outcome hangs on what comes before it in
/// the turn is not refused but warned of, under its rule. 2e de Ligne is
/// shaken (the GM's correction): it tests to rally before it moves, and
/// shaken it wheels at half speed, so a wheel too long for it as the table
/// stands but not once rallied is accepted with a warning, which keeps no
/// one from being ready; a move too long either way is refused.
#[test]
fn a_move_that_a_rally_test_may_change_is_warned_of_not_refused() {
    let (_dir, mut store) = setup();
    let gm = delivered(
        "",
        GM,
        "<shake@umpire.example.org>",
        "[sound-the-charge-demo] command",
        "passphrase: grand-quartier-general\ncommand: correct 2-ligne shaken yes\n",
    );
    let done = ingest(&mut store, &gm, "test", &config(), &now()).expect("command");
    assert!(
        matches!(done, Outcome::Commands { done: 1, .. }),
        "{done:?}"
    );
    let raw = delivered(
        "",
        LANNES,
        "<warned@french.invalid>",
        SUBJECT,
        "passphrase: vive-l-empereur\n1-ligne: hold\n2-ligne: wheel left 180\n",
    );
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    assert!(
        matches!(
            outcome,
            Outcome::Accepted {
                refused_lines: 0,
                ..
            }
        ),
        "{outcome:?}"
    );
    let ack = replies(&store).pop().expect("ack").body;
    assert!(ack.contains("    2-ligne: wheel left 180\n"), "{ack}");
    assert!(
        ack.contains("Warnings:\n    line 3: 2-ligne: cannot move: the move costs"),
        "{ack}"
    );
    assert!(
        ack.contains("a rally test at the start of the turn may change that"),
        "{ack}"
    );
    assert!(ack.contains("You are ready."), "{ack}");
    let refused = refusals_of(&mut store, 1, "2-ligne: forward 12\n");
    assert!(
        refused.contains("line 3: 2-ligne: cannot move: the move costs 12\""),
        "{refused}"
    );
}
