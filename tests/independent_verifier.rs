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
