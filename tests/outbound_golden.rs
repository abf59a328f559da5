//! Golden files at the outbound edge: each outgoing message shape builds to
//! exactly the bytes in `tests/mail/outbound/<name>.eml`. On a mismatch the
//! test writes `<name>.eml.failed` beside it to compare; with
//! `ADJUTANT_BLESS=1` it rewrites the golden file instead.

use std::path::PathBuf;

use chrono::{DateTime, Utc};

use adjutant::outbound::build;
use adjutant::store::{MailPart, OutgoingMail};

fn golden(name: &str, mail: &OutgoingMail) {
    let date: DateTime<Utc> = DateTime::parse_from_rfc3339("2026-01-07T19:00:00Z")
        .expect("valid")
        .with_timezone(&Utc);
    let built = build(mail, "adjutant <adjutant@example.org>", date).expect("builds");
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/mail/outbound")
        .join(format!("{name}.eml"));
    if std::env::var_os("ADJUTANT_BLESS").is_some() {
        std::fs::write(&path, &built.bytes).expect("blessed");
        return;
    }
    let expected = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with ADJUTANT_BLESS=1 to create it)",
            path.display()
        )
    });
    if built.bytes != expected {
        let failed = path.with_extension("eml.failed");
        std::fs::write(&failed, &built.bytes).expect("written");
        panic!(
            "{name}: the built message differs from {}; see {}",
            path.display(),
            failed.display()
        );
    }
}

fn report() -> OutgoingMail {
    OutgoingMail::text(
        "<sound-the-charge-demo.r3.result.5e0a4c1d2b3f@example.org>".into(),
        "Jean Lannes <lannes@french.invalid>".into(),
        "[sound-the-charge-demo] resolution 3: turn 3 orders (french active)".into(),
        "Resolution 3: turn 3 orders (french active)\n\n1er Régiment de Ligne stands fast.\n"
            .into(),
    )
}

#[test]
fn a_plain_text_report() {
    golden("text", &report());
}

#[test]
fn an_acknowledgement_threads_under_the_orders() {
    let mut ack = report();
    ack.message_id =
        "<sound-the-charge-demo.reply.0123456789abcdef.5e0a4c1d2b3f@example.org>".into();
    ack.subject = "Re: [sound-the-charge-demo] orders".into();
    ack.body = "Your orders for turn 3 orders (french active) are accepted.\n".into();
    ack.in_reply_to = Some("<turn3.french@bots.demo.invalid>".into());
    golden("reply", &ack);
}

#[test]
fn a_report_with_html_a_map_inline_and_an_attachment() {
    let mut m = report();
    m.html = Some(
        "<h1>Resolution 3</h1><p>1er Régiment de Ligne stands fast.</p><img src=\"cid:map-3\" alt=\"map\">"
            .into(),
    );
    m.parts = vec![
        MailPart {
            filename: "map-3.png".into(),
            content_type: "image/png".into(),
            content_id: Some("map-3".into()),
            bytes: vec![0x89, b'P', b'N', b'G', 13, 10, 26, 10, 0, 0, 0, 13],
        },
        MailPart {
            filename: "rolls-3.json".into(),
            content_type: "application/json".into(),
            content_id: None,
            bytes: b"[]\n".to_vec(),
        },
    ];
    golden("html-inline-attachment", &m);
}

#[test]
fn html_without_inline_images_is_an_alternative_only() {
    let mut m = report();
    m.html = Some("<p>1er Régiment de Ligne stands fast.</p>".into());
    golden("html", &m);
}
