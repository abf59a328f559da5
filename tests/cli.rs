//! The `adjutant` command as a GM and an auditor use it, run as a process.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_adjutant");
const CAMPAIGN: &str = "sound-the-charge-demo";

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .to_string_lossy()
        .into_owned()
}

fn adjutant(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("runs")
}

/// Runs `adjutant args` with `input` on its standard input.
fn adjutant_with_input(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write");
    child.wait_with_output().expect("waits")
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

#[test]
fn check_passes_the_shipped_campaign_and_names_file_line_column_for_a_broken_one() {
    let ok = adjutant(&["check", &repo("campaigns/sound-the-charge-demo")]);
    assert!(ok.status.success(), "{}", text(&ok));
    assert!(text(&ok).contains("ok (sound-the-charge"));

    let broken = adjutant(&["check", &repo("tests/fixtures/campaigns/unknown-grade")]);
    assert!(!broken.status.success());
    let out = text(&broken);
    assert!(
        out.contains("scenario.toml:15:9: unknown grade `E`"),
        "{out}"
    );
}

#[test]
fn passphrase_prints_a_hash_the_campaign_check_accepts() {
    let out = adjutant_with_input(&["passphrase"], b"en avant\n");
    assert!(out.status.success());
    let hash = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    assert!(adjutant::campaign::passphrase::verify("en avant", &hash));
    assert!(!adjutant::campaign::passphrase::verify("en arriere", &hash));
}

#[test]
fn a_gm_runs_a_campaign_and_an_auditor_verifies_it() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("var");
    let data = data.to_str().expect("utf-8");
    let campaign = repo("campaigns/sound-the-charge-demo");
    let at = |t: &str| format!("--now={t}");

    let init = adjutant(&[
        "init",
        "--data",
        data,
        &campaign,
        &at("2026-01-05T09:00:00Z"),
    ]);
    assert!(init.status.success(), "{}", text(&init));
    assert!(text(&init).contains("commitment C = "));
    // It says what mail it queued, and to whom.
    assert!(
        text(&init).contains("queued 3 opening message(s)")
            && text(&init).contains("to lannes@french.invalid: "),
        "{}",
        text(&init)
    );
    // A second registration of the same campaign is refused.
    let again = adjutant(&[
        "init",
        "--data",
        data,
        &campaign,
        &at("2026-01-05T09:00:00Z"),
    ]);
    assert!(!again.status.success());
    assert!(
        text(&again).contains("already registered"),
        "{}",
        text(&again)
    );

    let status = adjutant(&["status", "--data", data, &at("2026-01-05T10:00:00Z")]);
    assert!(status.status.success(), "{}", text(&status));
    let s = text(&status);
    assert!(s.contains("turn 1 orders (french active)"), "{s}");
    assert!(
        s.contains("french (IIe Corps de l'Armée d'Allemagne): no orders yet (required)"),
        "{s}"
    );
    // The GM's view: who plays what, from where, and the mail waiting.
    assert!(
        s.contains("played by Marshal Lannes <lannes@french.invalid>, Europe/Paris"),
        "{s}"
    );
    assert!(s.contains("sides (0 of 2 ready)"), "{s}");
    assert!(
        s.contains("outbox: 3 queued, 0 in flight, 0 sent, 0 given up"),
        "{s}"
    );

    // Orders with one bad line: the good line is accepted, the bad one refused.
    let orders = dir.path().join("orders.txt");
    let submit_file = |content: &str| {
        std::fs::write(&orders, content).expect("write");
        adjutant(&[
            "submit",
            "--data",
            data,
            "--campaign",
            CAMPAIGN,
            "--side",
            "french",
            "--reason",
            "the French player's letter came by hand",
            orders.to_str().expect("utf-8"),
            &at("2026-01-05T10:00:00Z"),
        ])
    };
    // Every line refused: nothing is stored, and the phase does not close.
    let submit = submit_file("no-such-unit: hold\n");
    assert!(!submit.status.success());
    assert!(
        text(&submit).contains("nothing accepted"),
        "{}",
        text(&submit)
    );
    let tick = adjutant(&["tick", "--data", data, &at("2026-01-05T10:01:00Z")]);
    assert!(tick.status.success());
    assert!(!text(&tick).contains("resolution"), "{}", text(&tick));

    let submit = submit_file("no-such-unit: hold\n1-ligne: hold\n");
    let s = text(&submit);
    assert!(
        !submit.status.success(),
        "a refused line makes the exit status non-zero"
    );
    assert!(s.contains("refused: line 1: no-such-unit"), "{s}");
    assert!(s.contains("accepted for french"), "{s}");
    assert!(s.contains("1-ligne: hold\n"), "{s}");

    // The phase waits for the other side, which says it sends none.
    let tick = adjutant(&["tick", "--data", data, &at("2026-01-05T10:02:00Z")]);
    assert!(!text(&tick).contains("resolution"), "{}", text(&tick));
    std::fs::write(&orders, "No orders.\n").expect("write");
    let none = adjutant(&[
        "submit",
        "--data",
        data,
        "--campaign",
        CAMPAIGN,
        "--side",
        "austrian",
        "--reason",
        "the Austrian player said so by telephone",
        orders.to_str().expect("utf-8"),
        &at("2026-01-05T10:03:00Z"),
    ]);
    assert!(none.status.success(), "{}", text(&none));
    assert!(
        text(&none).contains("austrian sends no orders"),
        "{}",
        text(&none)
    );
    // The French orders had a refused line: the French side is not ready,
    // and the phase waits for it, or for the deadline.
    let tick = adjutant(&["tick", "--data", data, &at("2026-01-05T10:04:00Z")]);
    assert!(tick.status.success(), "{}", text(&tick));
    assert!(
        text(&tick).contains("nothing due (1 of 2 sides ready, deadline "),
        "{}",
        text(&tick)
    );
    std::fs::write(&orders, "ready\n").expect("write");
    let ready = adjutant(&[
        "submit",
        "--data",
        data,
        "--campaign",
        CAMPAIGN,
        "--side",
        "french",
        "--reason",
        "the player said so by telephone",
        orders.to_str().expect("utf-8"),
        &at("2026-01-05T10:04:30Z"),
    ]);
    assert!(ready.status.success(), "{}", text(&ready));
    assert!(text(&ready).contains("french is ready"), "{}", text(&ready));
    let tick = adjutant(&["tick", "--data", data, &at("2026-01-05T10:05:00Z")]);
    assert!(tick.status.success(), "{}", text(&tick));
    assert!(
        text(&tick).contains("resolution 1: turn 1 orders (french active)"),
        "{}",
        text(&tick)
    );

    let resolve = adjutant(&[
        "resolve",
        "--data",
        data,
        "--campaign",
        CAMPAIGN,
        &at("2026-01-05T11:00:00Z"),
    ]);
    assert!(resolve.status.success(), "{}", text(&resolve));
    assert!(
        text(&resolve).contains("austrian sent no orders"),
        "{}",
        text(&resolve)
    );

    let help = adjutant(&["umpire", "--data", data, "--campaign", CAMPAIGN, "help"]);
    assert!(help.status.success());
    assert!(text(&help).contains("shoot"), "{}", text(&help));
    let bad = adjutant(&[
        "umpire",
        "--data",
        data,
        "--campaign",
        CAMPAIGN,
        "shoot wildly",
    ]);
    assert!(!bad.status.success());
    let call = adjutant(&[
        "umpire",
        "--data",
        data,
        "--campaign",
        CAMPAIGN,
        "shoot 8 line-infantry grade C range 2",
        &at("2026-01-05T11:10:00Z"),
    ]);
    assert!(call.status.success(), "{}", text(&call));
    // The refused call used up no secret: the good call is call 1.
    assert!(
        text(&call).starts_with("umpire call 1\n"),
        "{}",
        text(&call)
    );

    let archive = dir.path().join("archive");
    let archive = archive.to_str().expect("utf-8");
    let export = adjutant(&[
        "archive",
        "export",
        "--data",
        data,
        "--campaign",
        CAMPAIGN,
        "--out",
        archive,
    ]);
    assert!(export.status.success(), "{}", text(&export));
    assert!(
        text(&export).contains("wrote 2 turn resolutions and 1 umpire calls"),
        "{}",
        text(&export)
    );

    let verify = adjutant(&["verify", archive]);
    assert!(verify.status.success(), "{}", text(&verify));
    let v = text(&verify);
    let resolutions_ok = v
        .lines()
        .filter(|l| !l.starts_with("game master") && l.contains("): ok"))
        .count();
    assert_eq!(resolutions_ok, 3, "{v}");
    assert!(v.contains("umpire call 1 (umpire): ok, "), "{v}");
    assert!(v.contains("hash-linked record: genesis and "), "{v}");

    // Orders the operator entered are acts of the record, with who entered
    // them and why, and the turn's submissions say they came from the GM.
    let acts: Vec<String> = std::fs::read_dir(Path::new(archive).join("gm"))
        .expect("gm/")
        .map(|e| std::fs::read_to_string(e.expect("entry").path().join("act.json")).expect("act"))
        .collect();
    assert!(
        acts.iter()
            .any(|a| a.contains("\"command\": \"submit french\"")
                && a.contains("letter came by hand")
                && a.contains("\"by\": \"operator ")),
        "{acts:?}"
    );
    assert!(
        acts.iter()
            .any(|a| a.contains("\"command\": \"submit austrian none\"")),
        "{acts:?}"
    );
    let submissions =
        std::fs::read_to_string(Path::new(archive).join("turns/0001/submissions.txt"))
            .expect("submissions.txt");
    assert!(
        submissions
            .lines()
            .any(|l| l.contains(" french ") && l.ends_with(" accepted gm")),
        "{submissions}"
    );

    // One changed secret: verify names the resolution and exits non-zero.
    let path = Path::new(archive).join("turns/0002/resolution.json");
    let json = std::fs::read_to_string(&path).expect("read");
    let mut file: serde_json::Value = serde_json::from_str(&json).expect("json");
    let secret = file["secret"].as_str().expect("secret").to_string();
    let swapped = if secret.ends_with('a') { "b" } else { "a" };
    file["secret"] = format!("{}{swapped}", &secret[..63]).into();
    std::fs::write(&path, file.to_string()).expect("write");
    let verify = adjutant(&["verify", archive]);
    assert!(!verify.status.success());
    let v = text(&verify);
    assert!(v.contains("turn resolution 2 (turn"), "{v}");
    assert!(v.contains("FAILED"), "{v}");
}

#[test]
fn ingest_tells_an_mta_to_retry_when_the_store_cannot_be_opened() {
    let dir = tempfile::tempdir().expect("dir");
    // A file where the data directory should be: the store cannot open.
    let blocked = dir.path().join("var");
    std::fs::write(&blocked, b"not a directory").expect("write");
    let message = b"From: a@b.invalid\r\nSubject: x\r\n\r\nhold x\r\n";
    let out = adjutant_with_input(
        &["ingest", "--data", blocked.to_str().expect("utf-8")],
        message,
    );
    assert_eq!(out.status.code(), Some(75), "{}", text(&out));

    // With a store, a message from a stranger is handled: exit 0.
    let data = dir.path().join("data");
    let out = adjutant_with_input(
        &["ingest", "--data", data.to_str().expect("utf-8")],
        message,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("refused"), "{}", text(&out));
}

#[test]
fn demo_names_its_campaigns_when_asked_for_one_it_does_not_ship() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let out_dir = dir.path().join("demo");
    let out = adjutant(&[
        "demo",
        "--campaign",
        "no-such-campaign",
        "--out",
        &out_dir.to_string_lossy(),
    ]);
    assert!(!out.status.success());
    let said = text(&out);
    assert!(
        said.contains("no demo campaign `no-such-campaign`"),
        "{said}"
    );
    assert!(said.contains(&format!("{CAMPAIGN} (ruleset ")), "{said}");
    assert!(!out_dir.exists(), "nothing is written for a demo not found");
}

/// An error is told once: the operating system's reason is not repeated
/// after the message that already gives it.
#[test]
fn an_error_gives_its_cause_once() {
    let out = adjutant(&["daemon", "--config", "/nonexistent/adjutant.toml"]);
    assert!(!out.status.success());
    let said = text(&out);
    assert!(
        said.contains("cannot read /nonexistent/adjutant.toml: No such file or directory"),
        "{said}"
    );
    assert_eq!(
        said.matches("No such file or directory").count(),
        1,
        "{said}"
    );
}
