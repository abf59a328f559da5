//! The verifier in `tests/independent_verifier/`, written from docs/AUDIT.md
//! alone in another language, must reproduce the test vectors and every die
//! of an archive this program exported, and reject a tampered copy.

use std::path::Path;
use std::process::Command;

fn python() -> Option<&'static str> {
    ["python3", "python"].into_iter().find(|p| {
        Command::new(p)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

fn run_verifier(python: &str, args: &[&str]) -> (bool, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/independent_verifier/verify.py");
    let out = Command::new(python)
        .arg(script)
        .args(args)
        .output()
        .expect("python runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn the_independent_verifier_checks_an_exported_archive() {
    let Some(python) = python() else {
        eprintln!("no Python on this machine: the independent verifier is run by .ci/run instead");
        return;
    };
    let (ok, text) = run_verifier(python, &["vectors"]);
    assert!(ok, "{text}");

    let dir = tempfile::tempdir().expect("dir");
    let mut sink = Vec::new();
    let result = adjutant::demo::run(&dir.path().join("demo"), None, &mut sink).expect("demo runs");
    assert!(result.verdict.ok());
    let archive = result.archive_dir.to_string_lossy().into_owned();
    let (ok, text) = run_verifier(python, &["archive", &archive]);
    assert!(ok, "{text}");
    let resolutions = result.verdict.resolutions.len();
    assert_eq!(
        text.lines()
            .filter(|l| (l.starts_with("turn ") || l.starts_with("call ")) && l.contains(": ok"))
            .count(),
        resolutions,
        "one ok line per resolution:\n{text}"
    );

    let rolls: usize = result
        .verdict
        .resolutions
        .iter()
        .filter_map(|r| r.rolls)
        .sum();
    assert!(rolls > 0);
    assert!(
        text.contains(&format!("{rolls} rolls replayed")),
        "the independent verifier replays all {rolls} rolls:\n{text}"
    );

    // One die changed: the independent verifier must catch it too.
    let with_dice = result
        .verdict
        .resolutions
        .iter()
        .find(|r| r.rolls.unwrap_or(0) > 0)
        .expect("a resolution with dice");
    let (kind, k) = (with_dice.kind, with_dice.k);
    let rolls = result
        .archive_dir
        .join(adjutant::archive::resolution_dir(kind, k))
        .join("rolls.jsonl");
    let text = std::fs::read_to_string(&rolls).expect("rolls");
    let mut first: serde_json::Value =
        serde_json::from_str(text.lines().next().expect("a roll")).expect("json");
    let value = first["value"].as_u64().expect("value");
    let other = if value == 1 { 2 } else { value - 1 };
    first["value"] = other.into();
    first["faces"] = serde_json::json!([other]);
    let rest: Vec<&str> = text.lines().skip(1).collect();
    let mut changed = first.to_string() + "\n";
    for line in rest {
        changed.push_str(line);
        changed.push('\n');
    }
    std::fs::write(&rolls, changed).expect("write");
    let (ok, text) = run_verifier(python, &["archive", &archive]);
    assert!(!ok, "a changed die must fail:\n{text}");
    let word = match kind {
        adjutant::audit::Kind::Turn => "turn",
        adjutant::audit::Kind::Umpire => "call",
    };
    assert!(
        text.lines()
            .any(|l| l.starts_with(&format!("{word} {k}:")) && l.contains("FAIL")),
        "{text}"
    );
}

const STC: &str = "sound-the-charge-demo";

fn at(text: &str) -> adjutant::lifecycle::FixedClock {
    adjutant::lifecycle::FixedClock(
        chrono::DateTime::parse_from_rfc3339(text)
            .expect("valid")
            .with_timezone(&chrono::Utc),
    )
}

/// Issue 31, item 5: a bare `salt` line in an order mail was taken and
/// archived as `salt ` (with its space), which docs/AUDIT.md section 2
/// forbids: `adjutant verify` passed the archive and the verifier written
/// from the page refused it, so an honest campaign failed the page's
/// verifier. The line is now refused at the acknowledgement, which names
/// it and says why; the orders beside it are taken, and the archive passes
/// both verifiers.
#[test]
fn a_bare_salt_line_is_refused_and_the_archive_passes_the_page_s_verifier() {
    use adjutant::ingest::{IngestConfig, Outcome, ingest};
    let dir = tempfile::tempdir().expect("dir");
    let campaign = adjutant::demo::bundled_campaign(&dir.path().join("campaign")).expect("loads");
    let mut store = adjutant::store::Store::open(&dir.path().join("data")).expect("store");
    let now = at("2026-01-05T10:00:00Z");
    adjutant::engine::init(&mut store, &campaign, &dir.path().join("campaign"), &now)
        .expect("init");
    let raw = format!(
        "From: Jean Lannes <lannes@french.invalid>\r\nTo: adjutant@example.org\r\nSubject: [{STC}] orders\r\nMessage-ID: <bare-salt@french.invalid>\r\nDate: Mon, 05 Jan 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\npassphrase: vive-l-empereur\r\n1-ligne: hold\r\nSALT\r\n"
    );
    let config = IngestConfig {
        own_addresses: vec!["adjutant@example.org".into()],
        ..IngestConfig::default()
    };
    let outcome = ingest(&mut store, raw.as_bytes(), "test", &config, &now).expect("ingest");
    let Outcome::Accepted { digest, .. } = outcome else {
        panic!("the order beside the bare salt line is taken: {outcome:?}");
    };
    assert_eq!(
        digest,
        adjutant::audit::Digest32::of(b"1-ligne: hold\n"),
        "the digest covers the order alone, no salt line"
    );
    let ack = store
        .queued_mail(STC)
        .expect("outbox")
        .into_iter()
        .find(|m| m.message_id.contains(".reply."))
        .expect("an acknowledgement");
    let refusal = ack
        .body
        .lines()
        .find(|l| l.contains("line 3"))
        .unwrap_or_else(|| panic!("the reply names line 3:\n{}", ack.body));
    assert!(
        refusal.contains("salt") && refusal.contains("text"),
        "the reply says why the bare salt line is not taken: {refusal}"
    );
    adjutant::engine::resolve_now(&mut store, STC, &now).expect("resolves");
    let archive = dir.path().join("archive");
    adjutant::archive::export::export(&store, STC, &archive).expect("export");
    let orders = std::fs::read_to_string(archive.join("turns/0001/orders/french.txt"))
        .expect("the french orders are archived");
    assert_eq!(orders, "1-ligne: hold\n");
    let verdict = adjutant::archive::verify::verify(&archive).expect("readable");
    assert!(verdict.ok(), "{verdict:?}");
    let Some(python) = python() else {
        eprintln!("no Python on this machine: the independent verifier is run by .ci/run instead");
        return;
    };
    let (ok, text) = run_verifier(python, &["archive", &archive.to_string_lossy()]);
    assert!(ok, "{text}");
}

/// Issue 31, item 5: every demo's archive, as `adjutant demo` makes it,
/// passes the verifier written from docs/AUDIT.md alone, for every ruleset
/// that ships a demo.
#[test]
fn every_demo_s_archive_passes_the_page_s_verifier() {
    let Some(python) = python() else {
        eprintln!("no Python on this machine: the independent verifier is run by .ci/run instead");
        return;
    };
    let mut played = 0;
    for ruleset in adjutant::rules::registry::RULESETS {
        if ruleset.demo().is_none() {
            continue;
        }
        let dir = tempfile::tempdir().expect("dir");
        let mut sink = Vec::new();
        let result = adjutant::demo::run(&dir.path().join("demo"), Some(ruleset.id()), &mut sink)
            .expect("demo runs");
        assert!(
            result.verdict.ok(),
            "{}: {:?}",
            ruleset.id(),
            result.verdict
        );
        let archive = result.archive_dir.to_string_lossy().into_owned();
        let (ok, text) = run_verifier(python, &["archive", &archive]);
        assert!(ok, "{}:\n{text}", ruleset.id());
        played += 1;
    }
    assert!(played >= 4, "the four rulesets' demos, found {played}");
}
