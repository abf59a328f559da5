//! docs/PLAYERS.md keeps its promises: every complete order mail it shows is
//! taken, whole, for the campaign it names, as the guide says.

use std::path::Path;

use chrono::{DateTime, Utc};

use adjutant::engine;
use adjutant::ingest::{IngestConfig, Outcome, ingest};
use adjutant::lifecycle::FixedClock;
use adjutant::rules::registry::RULESETS;
use adjutant::store::Store;

/// The order mails of the guide's section "A complete order mail for each
/// ruleset": each an indented block beginning `To:`.
fn example_mails() -> Vec<String> {
    let page = include_str!("../docs/PLAYERS.md");
    let start = page
        .find("## A complete order mail for each ruleset")
        .expect("the section");
    let end = start
        + page[start..]
            .find("\n## For the GM")
            .expect("the next section");
    let mut mails = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in page[start..end].lines() {
        if let Some(text) = line.strip_prefix("    ") {
            if text.starts_with("To:") {
                if let Some(m) = current.take() {
                    mails.push(m.join("\n"));
                }
                current = Some(Vec::new());
            }
            if let Some(m) = current.as_mut() {
                m.push(text.to_string());
            }
        } else if line.trim().is_empty() {
            if let Some(m) = current.as_mut() {
                m.push(String::new());
            }
        } else if let Some(m) = current.take() {
            mails.push(m.join("\n"));
        }
    }
    mails.extend(current.map(|m| m.join("\n")));
    mails
}

#[test]
fn every_example_mail_of_the_players_guide_is_taken_whole() {
    let mails = example_mails();
    assert!(mails.len() >= 4, "found {} example mails", mails.len());
    let now = FixedClock(
        DateTime::parse_from_rfc3339("2026-01-05T10:00:00Z")
            .expect("valid")
            .with_timezone(&Utc),
    );
    for mail in &mails {
        let subject = mail
            .lines()
            .find_map(|l| l.strip_prefix("Subject: "))
            .expect("a subject");
        let id = &subject[1..subject.find(']').expect("[id]")];
        let demo = RULESETS
            .iter()
            .find_map(|r| r.demo().filter(|d| d.folder == id))
            .unwrap_or_else(|| panic!("no shipped campaign {id}"));
        let passphrase = mail
            .lines()
            .find_map(|l| l.strip_prefix("passphrase: "))
            .expect("a passphrase line");
        let side = demo
            .passphrases
            .iter()
            .find(|(_, p)| *p == passphrase)
            .map(|(s, _)| *s)
            .expect("a demo passphrase");
        let dir = tempfile::tempdir().expect("dir");
        let folder = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("campaigns")
            .join(id);
        let campaign = adjutant::campaign::load(&folder).expect("loads");
        let address = &campaign
            .players
            .iter()
            .find(|p| p.side == side)
            .expect("the side's player")
            .person
            .address;
        let mut store = Store::open(&dir.path().join("data")).expect("store");
        engine::init(&mut store, &campaign, &folder, &now).expect("init");
        let (head, body) = mail.split_once("\n\n").expect("headers and body");
        let raw = format!(
            "From: {address}\r\n{}\r\nMessage-ID: <guide@example.invalid>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
            head.replace('\n', "\r\n"),
            body.replace('\n', "\r\n")
        );
        let config = IngestConfig {
            own_addresses: vec!["adjutant@example.org".into()],
            ..IngestConfig::default()
        };
        let outcome = ingest(&mut store, raw.as_bytes(), "test", &config, &now).expect("ingest");
        assert!(
            matches!(
                outcome,
                Outcome::Accepted {
                    refused_lines: 0,
                    ..
                }
            ),
            "{id} ({side}): {outcome:?}\n{mail}"
        );
    }
}
