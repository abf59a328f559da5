//! Golden files for the inbound mail edge: each `tests/mail/inbound/*.eml`
//! is parsed, with LF and with CRLF line ends, and the parsed message and its
//! order text must equal `*.json` beside it. On a mismatch the actual result
//! is written to `*.json.failed` for review.

use std::fs;
use std::path::Path;

use adjutant::mail::{Limits, order_text, parse};

fn result_json(raw: &[u8]) -> serde_json::Value {
    match parse(raw, &Limits::default()) {
        Ok(message) => {
            let orders = order_text(&message.body);
            serde_json::json!({ "message": message, "orders": orders })
        }
        Err(e) => serde_json::json!({ "error": e.to_string() }),
    }
}

#[test]
fn every_fixture_parses_to_its_golden_file_with_lf_and_crlf() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mail/inbound");
    let mut fixtures: Vec<_> = fs::read_dir(&dir)
        .expect("fixture folder")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    fixtures.sort();
    assert!(
        fixtures.len() >= 9,
        "found only {} fixtures",
        fixtures.len()
    );
    let mut failures = Vec::new();
    for eml in &fixtures {
        let lf = fs::read(eml)
            .expect("read")
            .iter()
            .copied()
            .filter(|&b| b != b'\r')
            .collect::<Vec<u8>>();
        let crlf: Vec<u8> = String::from_utf8_lossy(&lf)
            .replace('\n', "\r\n")
            .into_bytes();
        let expected_path = eml.with_extension("json");
        let actual = result_json(&lf);
        let actual_text = serde_json::to_string_pretty(&actual).expect("json") + "\n";
        match fs::read_to_string(&expected_path) {
            Ok(expected) if expected == actual_text => {}
            _ => {
                fs::write(eml.with_extension("json.failed"), &actual_text).expect("write");
                failures.push(format!("{} (LF)", eml.display()));
                continue;
            }
        }
        if result_json(&crlf) != actual {
            failures.push(format!("{} differs with CRLF line ends", eml.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "mismatches (see *.json.failed):\n{}",
        failures.join("\n")
    );
}

#[test]
fn an_oversized_message_is_refused_with_the_limit_named() {
    let raw = vec![b'a'; 600 * 1024];
    let err = parse(&raw, &Limits::default()).expect_err("too large");
    assert!(err.to_string().contains("over the limit"), "{err}");
}

#[test]
fn junk_bytes_never_panic() {
    // A deterministic stream of awkward inputs: truncated headers, stray
    // boundaries, invalid UTF-8, long lines.
    let pieces: [&[u8]; 8] = [
        b"From: a@b\r\n",
        b"Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\n",
        b"\xff\xfe\x00",
        b"Subject: =?utf-8?b?////?=\r\n",
        b"\r\n\r\n",
        b"--x--",
        b"Auto-Submitted:\r\n",
        b"Return-Path: <\r\n",
    ];
    let mut state: u32 = 7;
    for _ in 0..2000 {
        let mut raw = Vec::new();
        for _ in 0..6 {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            raw.extend_from_slice(pieces[(state >> 16) as usize % pieces.len()]);
        }
        let _ = result_json(&raw);
    }
}
