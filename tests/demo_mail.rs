//! `adjutant demo` through the mail edge, and the daemon, `send` and
//! `outbox` subcommands run as a process.

use std::path::Path;
use std::process::{Command, Output};

use mail_parser::{MessageParser, MimeHeaders};

const BIN: &str = env!("CARGO_BIN_EXE_adjutant");

fn adjutant(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("runs")
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

/// A folder removed when the test ends, unless the test fails with
/// ADJUTANT_KEEP_DEMO set: a loop of runs keeps only the failures.
struct KeptOnFailure(Option<tempfile::TempDir>);

impl KeptOnFailure {
    fn path(&self) -> std::path::PathBuf {
        self.0
            .as_ref()
            .expect("held until dropped")
            .path()
            .to_path_buf()
    }
}

impl Drop for KeptOnFailure {
    fn drop(&mut self) {
        if std::thread::panicking()
            && std::env::var_os("ADJUTANT_KEEP_DEMO").is_some()
            && let Some(dir) = self.0.take()
        {
            eprintln!("the demo's folder is kept: {}", dir.keep().display());
        }
    }
}

#[test]
fn the_demo_plays_the_game_to_its_end_by_mail_and_verifies() {
    // The demo draws fresh chain secrets each run, so each run plays another
    // game; ADJUTANT_KEEP_DEMO=1 keeps the folder of a run that fails (the
    // store holds the secrets) for the failure to be looked into.
    let dir = KeptOnFailure(Some(tempfile::tempdir().expect("dir")));
    let root = dir.path();
    let mut said = Vec::new();
    let result = adjutant::demo::run(&root.join("demo"), None, &mut said).expect("demo runs");
    let said = String::from_utf8_lossy(&said).into_owned();
    assert!(result.verdict.ok(), "{said}");
    assert!(said.contains("the game is over"), "{said}");
    assert!(said.contains("reminder to "), "{said}");
    // The bots fight: they move, fire and charge, and the rules resolve it.
    for deed in [" moves to ", " shoots at ", " charges "] {
        assert!(said.contains(deed), "no{deed}in:\n{said}");
    }
    assert!(!said.contains("FAILED"), "{said}");
    // Every bot message was taken from new/ and stored.
    assert!(files(&result.maildir.join("new")).is_empty());
    assert_eq!(
        files(&result.maildir.join("cur")).len() as u32,
        result.orders_mailed
    );
    // The active side writes every turn, and the passive side its standing
    // orders (its skirmishers evade, and its guns when an enemy threatens
    // their flank) or that it sends none.
    assert!(result.orders_mailed > result.turns, "{said}");

    let mail = files(&result.outbox_dir);
    assert_eq!(mail.len(), result.sent, "one file per message sent");
    let (mut acks, mut reminders, mut results) = (0, 0, 0);
    for path in &mail {
        let raw = std::fs::read(path).expect("reads");
        let m = MessageParser::default()
            .parse(&raw)
            .expect("each file is a message");
        let id = m.message_id().expect("has its Message-ID").to_string();
        assert!(
            m.header_raw("Auto-Submitted").is_some(),
            "{} is marked automatic",
            path.display()
        );
        assert_eq!(
            adjutant::outbound::file::file_name(&format!("<{id}>")),
            path.file_name().expect("name").to_string_lossy()
        );
        if id.contains(".reply.") {
            acks += 1;
            assert!(
                m.in_reply_to().as_text().is_some(),
                "an ack threads under the orders"
            );
            // Orders are acknowledged line by line; a passive side with no
            // standing orders to give says it sends none, and is noted.
            let body = m.body_text(0).expect("body");
            assert!(
                body.contains("accepted") || body.contains("sends no orders"),
                "{body}"
            );
        }
        reminders += usize::from(id.contains(".remind."));
        results += usize::from(id.contains(".result."));
    }
    assert_eq!(
        acks as u32, result.orders_mailed,
        "one acknowledgement an order email"
    );
    assert_eq!(reminders, 1, "the late side of turn 1 is reminded once");
    assert_eq!(
        results as u32,
        3 * result.turns,
        "each result to the GM and both players"
    );

    no_side_report_names_a_unit_hidden_from_it(&result);
    no_side_is_told_what_only_the_enemy_knows(&result);
    every_report_chains_its_state_to_the_next(&result);

    // Running it again replaces its own folder.
    let mut sink = Vec::new();
    adjutant::demo::run(&root.join("demo"), None, &mut sink).expect("runs again");
}

#[test]
fn the_daemon_runs_once_from_its_config_and_the_outbox_lists_what_it_sent() {
    let dir = tempfile::tempdir().expect("dir");
    adjutant::demo::bundled_campaign(&dir.path().join("campaign")).expect("campaign");
    let config = dir.path().join("adjutant.toml");
    std::fs::write(
        &config,
        r#"
data_dir = "var"
campaigns = ["campaign"]
log_level = "warn"
[mail]
from = "adjutant <adjutant@example.org>"
[inbox]
kind = "maildir"
path = "Maildir"
[transport]
kind = "file"
dir = "sent"
"#,
    )
    .expect("config");
    let config = config.to_string_lossy().into_owned();
    let now = "--now=2026-01-05T09:00:00Z";
    let out = adjutant(&["daemon", "--config", &config, "--once", now]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("sent 3 message(s)"), "{}", text(&out));
    assert_eq!(files(&dir.path().join("sent")).len(), 3);

    let data = dir.path().join("var").to_string_lossy().into_owned();
    let out = adjutant(&["outbox", "--data", &data]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        text(&out).matches(": sent at ").count(),
        3,
        "{}",
        text(&out)
    );

    // Nothing is due now: `send` says so, and a second run sends nothing.
    let out = adjutant(&["send", "--config", &config, now]);
    assert!(text(&out).contains("nothing due"), "{}", text(&out));
    let out = adjutant(&["daemon", "--config", &config, "--once", now]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(files(&dir.path().join("sent")).len(), 3);
}

#[test]
fn requeue_refuses_a_message_that_is_not_dead() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("var").to_string_lossy().into_owned();
    let out = adjutant(&[
        "outbox",
        "--data",
        &data,
        "--requeue",
        "<nothing@example.org>",
    ]);
    assert!(!out.status.success());
    assert!(text(&out).contains("no dead message"), "{}", text(&out));
}

/// Waits up to a minute for `done`, polling; false if it never came.
fn eventually(mut done: impl FnMut() -> bool) -> bool {
    for _ in 0..600 {
        if done() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    false
}

#[test]
fn sigterm_stops_the_daemon_cleanly() {
    let dir = tempfile::tempdir().expect("dir");
    adjutant::demo::bundled_campaign(&dir.path().join("campaign")).expect("campaign");
    let config = dir.path().join("adjutant.toml");
    std::fs::write(
        &config,
        r#"
data_dir = "var"
campaigns = ["campaign"]
log_level = "info"
[mail]
from = "adjutant@example.org"
[inbox]
kind = "maildir"
path = "Maildir"
[transport]
kind = "file"
dir = "sent"
[intervals]
poll_seconds = 1
"#,
    )
    .expect("config");
    let mut child = Command::new(BIN)
        .args(["daemon", "--config", &config.to_string_lossy()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    let sent = dir.path().join("sent");
    let opened = eventually(|| files(&sent).len() == 3);
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let exited = eventually(|| child.try_wait().ok().flatten().is_some());
    if !exited {
        let _ = child.kill();
    }
    let out = child.wait_with_output().expect("waits");
    assert!(opened, "the opening mail went out: {}", text(&out));
    assert!(exited, "the daemon stopped after SIGTERM: {}", text(&out));
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("shutting down"), "{}", text(&out));
}

/// A daemon configuration over the bundled campaign in `dir`, sending from
/// `from`.
fn daemon_config(dir: &Path, from: &str) -> std::path::PathBuf {
    let config = dir.join("adjutant.toml");
    std::fs::write(
        &config,
        format!(
            r#"
data_dir = "var"
campaigns = ["campaign"]
log_level = "info"
[mail]
from = "{from}"
[inbox]
kind = "maildir"
path = "Maildir"
[transport]
kind = "file"
dir = "sent"
[intervals]
poll_seconds = 1
"#
        ),
    )
    .expect("config");
    config
}

/// Defect 13: two daemons on one data directory both ran, and `adjutant
/// send` ran beside the daemon. The second is refused, told who holds it.
#[test]
fn a_second_daemon_or_send_on_one_data_directory_is_refused_naming_the_first() {
    let dir = tempfile::tempdir().expect("dir");
    adjutant::demo::bundled_campaign(&dir.path().join("campaign")).expect("campaign");
    let config = daemon_config(dir.path(), "adjutant@example.org");
    let mut first = Command::new(BIN)
        .args(["daemon", "--config", &config.to_string_lossy()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    let sent = dir.path().join("sent");
    let up = eventually(|| files(&sent).len() == 3);
    let second = Command::new(BIN)
        .args(["daemon", "--config", &config.to_string_lossy()])
        .output()
        .expect("runs");
    let send = Command::new(BIN)
        .args(["send", "--config", &config.to_string_lossy()])
        .output()
        .expect("runs");
    let _ = Command::new("kill")
        .args(["-TERM", &first.id().to_string()])
        .status();
    let stopped = eventually(|| first.try_wait().ok().flatten().is_some());
    if !stopped {
        let _ = first.kill();
    }
    let _ = first.wait();
    assert!(up, "the first daemon came up");
    for (what, out) in [("a second daemon", &second), ("send", &send)] {
        assert!(!out.status.success(), "{what} ran beside the daemon");
        let said = text(out);
        assert!(
            said.contains("is in use by another adjutant"),
            "{what}: {said}"
        );
        assert!(
            said.contains(&format!("adjutant daemon, process {}", first.id())),
            "{what}: {said}"
        );
    }
    // Once the daemon has stopped, `send` runs.
    let send = Command::new(BIN)
        .args(["send", "--config", &config.to_string_lossy()])
        .output()
        .expect("runs");
    assert!(send.status.success(), "{}", text(&send));
}

/// Defect 12: with adjutant sending from the GM's own address, the GM's
/// command mail was ignored as adjutant's own, without a word. The daemon
/// refuses to start, and says why.
#[test]
fn a_daemon_sending_from_the_gms_address_refuses_to_start() {
    let dir = tempfile::tempdir().expect("dir");
    adjutant::demo::bundled_campaign(&dir.path().join("campaign")).expect("campaign");
    let config = daemon_config(dir.path(), "The Umpire <umpire@example.org>");
    let out = Command::new(BIN)
        .args(["daemon", "--config", &config.to_string_lossy(), "--once"])
        .output()
        .expect("runs");
    assert!(!out.status.success(), "{}", text(&out));
    let said = text(&out);
    assert!(
        said.contains("the GM's address umpire@example.org is adjutant's own"),
        "{said}"
    );
}

/// What a person reads in a report mail: the plain text and the HTML, and
/// the map's SVG.
fn readable(raw: &[u8]) -> (String, String) {
    let m = MessageParser::default().parse(raw).expect("a message");
    let mut prose = m.body_text(0).unwrap_or_default().into_owned();
    prose.push_str(&m.body_html(0).unwrap_or_default());
    let svg = m
        .attachments()
        .filter(|part| part.attachment_name().is_some_and(|n| n.ends_with(".svg")))
        .map(|part| String::from_utf8_lossy(part.contents()).into_owned())
        .collect();
    (prose, svg)
}

/// Whether `text` names `unit`: its name (lines rewrapped, as the plain text
/// is wrapped at 72 columns) or its id as a word of its own (the order of
/// battle, the dice's purposes and the map's labels use ids).
fn shows(text: &str, unit: &adjutant::rules::state::UnitState) -> bool {
    let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat(text).contains(&flat(&unit.name)) {
        return true;
    }
    let part_of_id = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    text.match_indices(&unit.id).any(|(at, id)| {
        let before = text[..at].chars().next_back();
        let after = text[at + id.len()..].chars().next();
        !before.is_some_and(part_of_id) && !after.is_some_and(part_of_id)
    })
}

/// Every message the demo sent, by file name.
fn sent_mail(result: &adjutant::demo::DemoResult) -> Vec<(String, Vec<u8>)> {
    files(&result.outbox_dir)
        .into_iter()
        .map(|p| {
            (
                p.file_name().expect("name").to_string_lossy().into_owned(),
                std::fs::read(&p).expect("reads"),
            )
        })
        .collect()
}

/// The report of resolution `k` that `address` received.
fn report_mail<'m>(
    mail: &'m [(String, Vec<u8>)],
    campaign: &str,
    k: u64,
    address: &str,
) -> &'m [u8] {
    let prefix = format!("{campaign}.r{k}.result.");
    mail.iter()
        .filter(|(name, _)| name.starts_with(&prefix))
        .map(|(_, raw)| raw.as_slice())
        .find(|raw| {
            MessageParser::default()
                .parse(raw)
                .and_then(|m| {
                    m.to()
                        .and_then(|t| t.first())
                        .and_then(|a| a.address.clone())
                })
                .is_some_and(|a| a == address)
        })
        .unwrap_or_else(|| panic!("no report {k} to {address}"))
}

/// docs/RULINGS.md REP-1: a side's report names only the units it can see.
/// For every resolution the demo played, the enemy units hidden from a side
/// at its end (as the ruleset's sight decides) appear nowhere in the report
/// mail that side's player received: not in the text, the HTML or the map.
fn no_side_report_names_a_unit_hidden_from_it(result: &adjutant::demo::DemoResult) {
    use adjutant::audit::Kind;
    let store = adjutant::store::Store::open(&result.data_dir).expect("store");
    let folder = tempfile::tempdir().expect("dir");
    let campaign = adjutant::demo::bundled_campaign(folder.path()).expect("campaign");
    let ruleset = adjutant::rules::ruleset_for(&campaign.ruleset.id).expect("ruleset");
    let mail = sent_mail(result);
    let mut hidden_checked = 0;
    let mut visible_found = 0;
    for r in store.resolutions(&campaign.id).expect("resolutions") {
        if r.kind != Kind::Turn {
            continue;
        }
        let done = r.result.as_ref().expect("resolved");
        let state = store.state(&done.next_state_digest).expect("state");
        let events: Vec<adjutant::rules::ruleset::Event> = done
            .events
            .iter()
            .map(|e| serde_json::from_str(e).expect("an event"))
            .collect();
        for player in &campaign.players {
            let seen = ruleset.visible_to(
                &ruleset.read(&state).expect("the state reads"),
                &player.side,
                &events,
            );
            let hidden: Vec<&adjutant::rules::state::UnitState> = state
                .units
                .iter()
                .filter(|u| u.side != player.side && !seen.contains(&u.id))
                .collect();
            let report = report_mail(&mail, &campaign.id, r.k, &player.person.address);
            let (prose, svg) = readable(report);
            assert!(
                prose.contains("Despatch") && svg.contains("<svg"),
                "report {} to {} was read",
                r.k,
                player.side
            );
            for unit in hidden {
                assert!(
                    !shows(&prose, unit) && !shows(&svg, unit),
                    "the report of resolution {} to {} shows {} ({}), hidden from it",
                    r.k,
                    player.side,
                    unit.name,
                    unit.id
                );
                hidden_checked += 1;
            }
            // The same search finds the enemies the side does see, so a
            // miss above is not the search failing.
            visible_found += state
                .units
                .iter()
                .filter(|u| u.side != player.side && seen.contains(&u.id))
                .filter(|u| shows(&prose, u) || shows(&svg, u))
                .count();
        }
    }
    assert!(
        hidden_checked > 0,
        "the demo hid no unit from any side, so this check checked nothing"
    );
    assert!(visible_found > 0, "no visible enemy was found either");
}

/// docs/RULINGS.md REP-3: what only the acting side knows (an order's target
/// when nothing came of it, why an order could not be carried out, a
/// standing order) is told to it and the GM, never to another side. Each
/// turn is resolved again from the store, as the chronicle does, to learn
/// what each event shows; its words are then looked for in every report
/// mail of the turn.
fn no_side_is_told_what_only_the_enemy_knows(result: &adjutant::demo::DemoResult) {
    use adjutant::audit::Kind;
    use adjutant::rules::told::Told;
    let store = adjutant::store::Store::open(&result.data_dir).expect("store");
    let folder = tempfile::tempdir().expect("dir");
    let campaign = adjutant::demo::bundled_campaign(folder.path()).expect("campaign");
    let ruleset = adjutant::rules::ruleset_for(&campaign.ruleset.id).expect("ruleset");
    let mail = sent_mail(result);
    let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let report_to = |k: u64, address: &str| -> String {
        flat(&readable(report_mail(&mail, &campaign.id, k, address)).0)
    };
    // The demo draws fresh secrets, so each run is another game: what the
    // acting side alone is told differs from run to run, and every such
    // event of the run is checked (a shot refused at resolution is pinned
    // by `a_shot_refused_at_resolution_is_told_to_its_side_alone`).
    for r in store.resolutions(&campaign.id).expect("resolutions") {
        if r.kind != Kind::Turn {
            continue;
        }
        let done = r.result.as_ref().expect("resolved");
        let prior = store.state(&r.prior_state_digest).expect("state");
        let read = ruleset.read(&prior).expect("the state reads");
        let (events, _) = adjutant::resolution::typed_again(
            ruleset,
            &read,
            &r.orders,
            campaign.no_orders_policy,
            &done.seed,
            (&done.events, &done.rolls),
        )
        .expect("the turn resolves again to its stored bytes");
        for event in &events {
            let shows = event
                .shows
                .as_ref()
                .expect("every event says what it shows");
            if shows.told != Told::ActingSide {
                continue;
            }
            let whose = adjutant::report::heard::Audience::new(
                adjutant::rules::told::Who::Gm,
                None,
                &prior,
                &prior,
            );
            let acting = event.names().next().and_then(|id| whose.side_of(id));
            let words = flat(&event.text);
            for player in &campaign.players {
                if Some(&player.side) == acting.as_ref() {
                    continue;
                }
                let report = report_to(r.k, &player.person.address);
                assert!(
                    !report.contains(&words),
                    "the report of resolution {} to {} tells the enemy's: {words}",
                    r.k,
                    player.side
                );
            }
            assert!(
                report_to(r.k, &campaign.gm.address).contains(&words),
                "the GM's report of resolution {} leaves out: {words}",
                r.k
            );
        }
    }
}

/// Issue 31, item 7: a player chains the states from the mail alone. Each
/// report gives the digest of the state its resolution made, which is the
/// archive's `next-state.json` and the next report's prior state.
fn every_report_chains_its_state_to_the_next(result: &adjutant::demo::DemoResult) {
    use adjutant::audit::{Digest32, Kind};
    let store = adjutant::store::Store::open(&result.data_dir).expect("store");
    let folder = tempfile::tempdir().expect("dir");
    let campaign = adjutant::demo::bundled_campaign(folder.path()).expect("campaign");
    let address = &campaign.players[0].person.address;
    let mail = sent_mail(result);
    let said = |k: u64, key: &str| -> String {
        let text = readable(report_mail(&mail, &campaign.id, k, address)).0;
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .unwrap_or_else(|| panic!("report {k} has no line '{key}'"))
            .trim()
            .to_string()
    };
    let turns: Vec<u64> = store
        .resolutions(&campaign.id)
        .expect("resolutions")
        .into_iter()
        .filter(|r| r.kind == Kind::Turn)
        .map(|r| r.k)
        .collect();
    assert!(turns.len() > 1, "{turns:?}");
    for k in &turns {
        let archived = std::fs::read(
            result
                .archive_dir
                .join(format!("turns/{k:04}/next-state.json")),
        )
        .expect("the archive holds the turn's next state");
        assert_eq!(
            said(*k, "next state digest = "),
            Digest32::of(&archived).to_hex(),
            "report {k}"
        );
    }
    for pair in turns.windows(2) {
        assert_eq!(
            said(pair[0], "next state digest = "),
            said(pair[1], "prior state digest = "),
            "reports {} and {}",
            pair[0],
            pair[1]
        );
    }
}
