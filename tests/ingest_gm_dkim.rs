//! The GM's commands by mail, and DKIM for people whose campaign requires
//! it. The DNS is not used: the tests hand the verifier the key records.

use chrono::{DateTime, Duration, Utc};
use std::sync::Arc;

use mail_auth::common::crypto::Ed25519Key;
use mail_auth::common::headers::HeaderWriter;
use mail_auth::dkim::DkimSigner;

use adjutant::engine;
use adjutant::ingest::{IngestConfig, Outcome, ingest};
use adjutant::lifecycle::FixedClock;
use adjutant::mail::dkim::StaticKeys;
use adjutant::store::{OutgoingMail, Store};

const ID: &str = "sound-the-charge-demo";
const GM: &str = "The Umpire <umpire@example.org>";
const LANNES: &str = "Jean Lannes <lannes@french.invalid>";
const SUBJECT: &str = "[sound-the-charge-demo] turn 1";

/// An Ed25519 test key: the PKCS#8 form of the seed SHA-256("adjutant dkim
/// test key"), and its public key as a DKIM record publishes it.
const TEST_KEY: &str = "302e020100300506032b657004220420fcce18c963171b37e2d7f841e97cd8c31e5fe00b8b7aeaa09a49da3abc4b6fb7";
const TEST_PUBLIC: &str = "BM2zWoR5pYJm4B9RS/9RZYyULZVCpoElPq2WC2zceF4=";

fn now() -> FixedClock {
    FixedClock(
        DateTime::parse_from_rfc3339("2026-01-05T10:00:00Z")
            .expect("valid")
            .with_timezone(&Utc),
    )
}

/// adjutant sends from its own address here, not the GM's, so that the GM's
/// mail is read.
fn config() -> IngestConfig {
    let record = format!("v=DKIM1; k=ed25519; p={TEST_PUBLIC}");
    IngestConfig {
        own_addresses: vec!["adjutant@example.org".into()],
        dkim_keys: Arc::new(
            StaticKeys::new()
                .with("s1", "french.invalid", &record)
                .with("s1", "austrian.invalid", &record),
        ),
        ..IngestConfig::default()
    }
}

/// The bundled campaign; with `dkim`, the French player must sign.
fn setup(dkim: bool) -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("dir");
    let folder = dir.path().join("campaign");
    adjutant::demo::bundled_campaign(&folder).expect("writes");
    if dkim {
        let path = folder.join("campaign.toml");
        let text = std::fs::read_to_string(&path).expect("read");
        let text = text.replacen(
            "side = \"french\"\n",
            "side = \"french\"\nrequire_dkim = true\n",
            1,
        );
        std::fs::write(&path, text).expect("write");
    }
    let campaign = adjutant::campaign::load(&folder).expect("loads");
    let mut store = Store::open(&dir.path().join("data")).expect("store");
    engine::init(&mut store, &campaign, &folder, &now()).expect("init");
    (dir, store)
}

/// A message; its Message-ID is made from everything else in it, so that
/// two different messages never share one.
fn mail(from: &str, body: &str) -> Vec<u8> {
    let id = adjutant::audit::Digest32::of(format!("{from}{body}").as_bytes());
    format!(
        "From: {from}\r\nTo: adjutant@example.org\r\nSubject: {SUBJECT}\r\nMessage-ID: <{}@test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        &id.to_hex()[..16],
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// `raw` with a DKIM signature of `domain` prepended.
fn signed(raw: &[u8], domain: &str) -> Vec<u8> {
    let key = Ed25519Key::from_pkcs8_der(&hex::decode(TEST_KEY).expect("hex")).expect("key");
    let signature = DkimSigner::from_key(key)
        .domain(domain)
        .selector("s1")
        .headers(["From", "To", "Subject", "Message-ID"])
        .sign(raw)
        .expect("signs");
    let mut out = signature.to_header().into_bytes();
    out.extend_from_slice(raw);
    out
}

fn replies(store: &Store) -> Vec<OutgoingMail> {
    store
        .queued_mail(ID)
        .expect("outbox")
        .into_iter()
        .filter(|m| m.message_id.contains(".reply."))
        .collect()
}

const ORDERS: &str = "passphrase: vive-l-empereur\n1-ligne: hold\n";

#[test]
fn a_valid_aligned_signature_is_accepted() {
    let (_dir, mut store) = setup(true);
    let raw = signed(&mail(LANNES, ORDERS), "french.invalid");
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    assert!(matches!(outcome, Outcome::Accepted { .. }), "{outcome:?}");
}

#[test]
fn a_campaign_without_dkim_takes_unsigned_mail() {
    let (_dir, mut store) = setup(false);
    let outcome =
        ingest(&mut store, &mail(LANNES, ORDERS), "test", &config(), &now()).expect("ingest");
    assert!(matches!(outcome, Outcome::Accepted { .. }), "{outcome:?}");
}

#[test]
fn an_altered_body_a_foreign_domain_or_no_signature_is_refused_alike() {
    let (_dir, mut store) = setup(true);
    let good = signed(&mail(LANNES, ORDERS), "french.invalid");
    let text = String::from_utf8(good).expect("utf-8");
    let altered = text.replace("1-ligne: hold", "1-ligne: hold\r\n2-ligne: hold");
    let cases = [
        ("body altered", altered.into_bytes()),
        (
            "signed by another domain",
            signed(&mail(LANNES, ORDERS), "austrian.invalid"),
        ),
        ("unsigned", mail(LANNES, ORDERS)),
        (
            "signed, wrong passphrase",
            signed(
                &mail(LANNES, "passphrase: vive-le-roi\n1-ligne: hold\n"),
                "french.invalid",
            ),
        ),
    ];
    for (what, raw) in &cases {
        let outcome = ingest(&mut store, raw, "test", &config(), &now()).expect("ingest");
        assert!(
            matches!(outcome, Outcome::Refused { .. }),
            "{what}: {outcome:?}"
        );
    }
    assert!(engine::sides_in(&store, ID).expect("sides").is_empty());
    let bodies: Vec<String> = replies(&store).into_iter().map(|m| m.body).collect();
    assert_eq!(bodies.len(), cases.len());
    assert!(bodies.iter().all(|b| *b == bodies[0]), "{bodies:#?}");
    assert!(bodies[0].contains("do not match a player"), "{}", bodies[0]);
    assert!(!bodies[0].to_lowercase().contains("dkim"), "{}", bodies[0]);
}

#[test]
fn the_gm_s_commands_by_mail_are_done_line_by_line_and_answered() {
    let (_dir, mut store) = setup(false);
    let before = store.campaign(ID).expect("campaign").deadline;
    let raw = mail(
        GM,
        "passphrase: grand-quartier-general\ncommand: extend 24h\ncommand: surrender\nCommand status\n\n-- \nThe Umpire\ncommand: pause\n",
    );
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    assert_eq!(
        outcome,
        Outcome::Commands {
            campaign: ID.into(),
            done: 2,
            refused: 1
        }
    );
    let record = store.campaign(ID).expect("campaign");
    assert_eq!(record.deadline - before, Duration::hours(24));
    assert!(
        !record.paused,
        "a line below the signature is not a command"
    );
    let reply = &replies(&store)[0];
    assert_eq!(reply.recipient, "umpire@example.org");
    assert!(
        reply
            .body
            .contains("line 2: extend 1d\n    done: the deadline is now"),
        "{}",
        reply.body
    );
    assert!(
        reply
            .body
            .contains("line 3: surrender\n    refused: `surrender` is not a command"),
        "{}",
        reply.body
    );
    assert!(
        reply
            .body
            .contains("line 4: status\n    done: sound-the-charge-demo"),
        "{}",
        reply.body
    );
    // The extension is announced to both players.
    let announced: Vec<OutgoingMail> = store
        .queued_mail(ID)
        .expect("outbox")
        .into_iter()
        .filter(|m| m.message_id.contains(".gm1."))
        .collect();
    assert_eq!(announced.len(), 3);

    // Delivered again after a crash that left it stored but unfinished, the
    // message is handled again and nothing acts twice.
    let raw2 = mail(
        GM,
        "passphrase: grand-quartier-general\ncommand: extend 2h\n",
    );
    store.store_inbound(&raw2, "test", now().0).expect("stored");
    let deadline = store.campaign(ID).expect("campaign").deadline;
    ingest(&mut store, &raw2, "test", &config(), &now()).expect("first");
    assert_eq!(
        store.campaign(ID).expect("campaign").deadline - deadline,
        Duration::hours(2)
    );
    let outcome = ingest(&mut store, &raw2, "test", &config(), &now()).expect("again");
    assert!(matches!(outcome, Outcome::Duplicate { .. }), "{outcome:?}");
    assert_eq!(
        store.campaign(ID).expect("campaign").deadline - deadline,
        Duration::hours(2)
    );
}

#[test]
fn wrong_gm_credentials_get_the_players_refusal_and_change_nothing() {
    let (_dir, mut store) = setup(false);
    let before = store.campaign(ID).expect("campaign").deadline;
    for raw in [
        mail(GM, "passphrase: wrong\ncommand: extend 24h\n"),
        mail(LANNES, "passphrase: vive-l-empereur\ncommand: extend 24h\n"),
        mail(LANNES, "passphrase: nope\n1-ligne: hold\n"),
    ] {
        let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
        assert!(matches!(outcome, Outcome::Refused { .. }), "{outcome:?}");
    }
    assert_eq!(store.campaign(ID).expect("campaign").deadline, before);
    assert!(store.gm_log(ID).expect("log").is_empty());
    let bodies: Vec<String> = replies(&store).into_iter().map(|m| m.body).collect();
    assert!(bodies.iter().all(|b| *b == bodies[0]), "{bodies:#?}");
}

#[test]
fn a_gm_message_without_commands_says_how_to_write_them() {
    let (_dir, mut store) = setup(false);
    let raw = mail(GM, "passphrase: grand-quartier-general\n1-ligne: hold\n");
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    assert!(matches!(outcome, Outcome::Refused { .. }), "{outcome:?}");
    assert!(replies(&store)[0].body.contains("command: status"));
}

#[test]
fn the_verifier_says_why_for_the_log() {
    use adjutant::mail::dkim::{DkimVerdict, verify};
    let keys = config().dkim_keys;
    let raw = mail(LANNES, ORDERS);
    let sender = "lannes@french.invalid";
    assert_eq!(
        verify(&signed(&raw, "french.invalid"), sender, keys.as_ref()),
        DkimVerdict::Pass {
            domain: "french.invalid".into()
        }
    );
    let DkimVerdict::Fail(why) = verify(&signed(&raw, "austrian.invalid"), sender, keys.as_ref())
    else {
        panic!("a foreign domain passed");
    };
    assert!(why.contains("not the sender's domain"), "{why}");
    assert_eq!(
        verify(&raw, sender, keys.as_ref()),
        DkimVerdict::Fail("no DKIM signature".into())
    );
    // A signature whose key is not published fails, without any lookup.
    let no_keys = StaticKeys::new();
    assert!(matches!(
        verify(&signed(&raw, "french.invalid"), sender, &no_keys),
        DkimVerdict::Fail(_)
    ));
}

#[test]
fn a_player_replaced_by_mail_is_answered_at_the_new_address_only() {
    let (_dir, mut store) = setup(false);
    let raw = mail(
        GM,
        "passphrase: grand-quartier-general\ncommand: replace french ney@french.invalid passphrase Le Rougeaud\n",
    );
    let outcome = ingest(&mut store, &raw, "test", &config(), &now()).expect("ingest");
    assert!(
        matches!(outcome, Outcome::Commands { done: 1, .. }),
        "{outcome:?}"
    );
    let old = ingest(&mut store, &mail(LANNES, ORDERS), "test", &config(), &now()).expect("ingest");
    assert!(matches!(old, Outcome::Refused { .. }), "{old:?}");
    let new = ingest(
        &mut store,
        &mail(
            "Michel Ney <ney@french.invalid>",
            "passphrase: Le Rougeaud\n1-ligne: hold\n",
        ),
        "test",
        &config(),
        &now(),
    )
    .expect("ingest");
    assert!(
        matches!(&new, Outcome::Accepted { side, .. } if side == "french"),
        "{new:?}"
    );
    // The stored message holds the passphrase as sent; the GM log does not.
    let log = store.gm_log(ID).expect("log");
    assert_eq!(log[0].command, "replace french ney@french.invalid");
    assert!(!log[0].outcome.contains("Rougeaud"));
}

/// A GM whose campaign asks for DKIM (`[gm] require_dkim = true`) has
/// commands carried out only from mail signed by the GM's own domain; the
/// right passphrase alone, unsigned or signed by another domain, changes
/// nothing.
#[test]
fn a_gm_who_must_sign_has_commands_done_only_when_signed() {
    let dir = tempfile::tempdir().expect("dir");
    let folder = dir.path().join("campaign");
    adjutant::demo::bundled_campaign(&folder).expect("writes");
    let path = folder.join("campaign.toml");
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains("[gm]\n"));
    std::fs::write(
        &path,
        text.replacen("[gm]\n", "[gm]\nrequire_dkim = true\n", 1),
    )
    .expect("write");
    let campaign = adjutant::campaign::load(&folder).expect("loads");
    let mut store = Store::open(&dir.path().join("data")).expect("store");
    engine::init(&mut store, &campaign, &folder, &now()).expect("init");
    let record = format!("v=DKIM1; k=ed25519; p={TEST_PUBLIC}");
    let config = IngestConfig {
        dkim_keys: Arc::new(StaticKeys::new().with("s1", "example.org", &record).with(
            "s1",
            "french.invalid",
            &record,
        )),
        ..config()
    };
    let before = store.campaign(ID).expect("campaign").deadline;
    let extend = |n: u32| {
        mail(
            GM,
            &format!("passphrase: grand-quartier-general\ncommand: extend {n}h\n"),
        )
    };
    for raw in [extend(1), signed(&extend(2), "french.invalid")] {
        let outcome = ingest(&mut store, &raw, "test", &config, &now()).expect("ingest");
        assert!(matches!(outcome, Outcome::Refused { .. }), "{outcome:?}");
    }
    assert_eq!(store.campaign(ID).expect("campaign").deadline, before);
    assert!(store.gm_log(ID).expect("log").is_empty());
    let outcome = ingest(
        &mut store,
        &signed(&extend(3), "example.org"),
        "test",
        &config,
        &now(),
    )
    .expect("ingest");
    assert!(
        matches!(outcome, Outcome::Commands { done: 1, .. }),
        "{outcome:?}"
    );
    assert_eq!(
        store.campaign(ID).expect("campaign").deadline - before,
        Duration::hours(3)
    );
}
