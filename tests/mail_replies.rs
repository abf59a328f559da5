//! Replies as the common mail clients write them: each
//! `tests/mail/replies/*.eml` answers a report, quoting it below or above
//! the player's own lines in its client's way (Outlook's header block,
//! Gmail's wrapped `On ... wrote:`, a blockquote, format=flowed, ...), and
//! the orders, passphrase and line numbers read from it must equal
//! `*.json` beside it; on a mismatch the actual result is written to
//! `*.json.failed` for review. Each is read with the line ends it was
//! written with and with the other kind.

use std::fs;
use std::path::Path;

use adjutant::mail::{Limits, order_text, parse};

fn result_json(raw: &[u8]) -> serde_json::Value {
    match parse(raw, &Limits::default()) {
        Ok(message) => {
            let orders = order_text(&message.body);
            serde_json::json!({ "from_html": message.from_html, "orders": orders })
        }
        Err(e) => serde_json::json!({ "error": e.to_string() }),
    }
}

#[test]
fn every_client_reply_yields_only_the_players_own_lines() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mail/replies");
    let mut fixtures: Vec<_> = fs::read_dir(&dir)
        .expect("fixture folder")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    fixtures.sort();
    assert!(
        fixtures.len() >= 18,
        "found only {} fixtures",
        fixtures.len()
    );
    let mut failures = Vec::new();
    for eml in &fixtures {
        let raw = fs::read(eml).expect("read");
        let lf: Vec<u8> = raw.iter().copied().filter(|&b| b != b'\r').collect();
        let crlf: Vec<u8> = lf
            .iter()
            .flat_map(|&b| {
                if b == b'\n' {
                    vec![b'\r', b'\n']
                } else {
                    vec![b]
                }
            })
            .collect();
        let actual = result_json(&raw);
        let orders = &actual["orders"];
        // Every fixture's player gives a passphrase; the quoted template's
        // placeholder is never it.
        let passphrase = orders["passphrase"].as_str().unwrap_or("");
        if passphrase.is_empty() || passphrase.starts_with('<') {
            failures.push(format!("{}: passphrase {passphrase:?}", eml.display()));
        }
        // The quoted templates give every unit `hold`, which no fixture's
        // player does: such a line is the quoted report read as orders.
        let lines = orders["lines"].as_array().cloned().unwrap_or_default();
        if lines
            .iter()
            .any(|l| l[1].as_str().is_some_and(|l| l.ends_with(": hold")))
        {
            failures.push(format!("{}: a template line read", eml.display()));
        }
        let actual_text = serde_json::to_string_pretty(&actual).expect("json") + "\n";
        match fs::read_to_string(eml.with_extension("json")) {
            Ok(expected) if expected == actual_text => {}
            _ => {
                fs::write(eml.with_extension("json.failed"), &actual_text).expect("write");
                failures.push(format!("{} (as written)", eml.display()));
                continue;
            }
        }
        for (form, bytes) in [("LF", &lf), ("CRLF", &crlf)] {
            if result_json(bytes) != actual {
                failures.push(format!("{} differs with {form} line ends", eml.display()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "mismatches (see *.json.failed):\n{}",
        failures.join("\n")
    );
}
