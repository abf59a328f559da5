//! The Sound the Charge umpire case catalog.
//!
//! Every file in `tests/cases/sound-the-charge/umpire/` is one case: the
//! clause it pins (quoted from the rules), a call, the forced dice, and what
//! must come of it. All of them run through [`check`], which collects every
//! difference so that one run names every failing case.
//!
//! A case file holds:
//! - `id`: the file's name without `.toml`;
//! - `rule`: the clause, quoted verbatim from the rules text;
//! - `call`: the call as a GM would type it;
//! - `dice`: the forced d6 values, in the order the call rolls them (every
//!   one must be used, and no more asked for);
//! - `outcome`: text the report's outcome must contain;
//! - `report`: texts the whole report must contain;
//! - `canonical`: the call's canonical form;
//! - `error` and `kind` (`forbidden`, `syntax`, `unknown-call`) for a call
//!   that must be refused;
//! - `[expect]`: fields of the typed result, dotted for nesting
//!   (`[expect.attacker] rout_hits = 4`).

use std::fs;
use std::path::{Path, PathBuf};

use adjutant::audit::dice::{Dice, ForcedDice};
use adjutant::rules::UmpireError;
use adjutant::rules::sound_the_charge::umpire;
use serde::Deserialize;
use serde_json::Value;

const CASES: &str = "tests/cases/sound-the-charge/umpire";

/// The catalog must not shrink unnoticed.
const AT_LEAST: usize = 200;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    id: String,
    rule: String,
    call: String,
    #[serde(default)]
    dice: Vec<u32>,
    outcome: Option<String>,
    #[serde(default)]
    report: Vec<String>,
    canonical: Option<String>,
    error: Option<String>,
    kind: Option<String>,
    #[serde(default)]
    expect: toml::Table,
}

fn error_kind(e: &UmpireError) -> &'static str {
    match e {
        UmpireError::UnknownCall { .. } => "unknown-call",
        UmpireError::Syntax { .. } => "syntax",
        UmpireError::Forbidden { .. } => "forbidden",
        _ => "other",
    }
}

/// Flattens nested objects into dotted keys; arrays and scalars are leaves.
fn flatten(prefix: &str, value: &Value, out: &mut Vec<(String, Value)>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, v, out);
            }
        }
        other => out.push((prefix.to_string(), other.clone())),
    }
}

/// Runs one case file; returns what differed, empty when it passed.
fn check(path: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return vec![format!("cannot read: {e}")],
    };
    let case: Case = match toml::from_str(&text) {
        Ok(c) => c,
        Err(e) => return vec![format!("not a case: {e}")],
    };
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if case.id != stem {
        problems.push(format!("id `{}` is not the file name `{stem}`", case.id));
    }
    if case.rule.trim().is_empty() {
        problems.push("no rule quoted".to_string());
    }

    let mut dice = ForcedDice::new(case.dice.iter().copied());
    let outcome = umpire::resolve(&case.call, &mut dice);
    for p in dice.problems() {
        problems.push(format!("dice: {p}"));
    }

    let called = match (outcome, &case.error) {
        (Err(e), Some(wanted)) => {
            let shown = e.to_string();
            if !shown.contains(wanted.as_str()) {
                problems.push(format!("error `{shown}` does not contain `{wanted}`"));
            }
            if let Some(kind) = &case.kind
                && error_kind(&e) != kind
            {
                problems.push(format!("error kind {} is not {kind}", error_kind(&e)));
            }
            return problems;
        }
        (Err(e), None) => {
            problems.push(format!("the call failed: {e}"));
            return problems;
        }
        (Ok(c), Some(wanted)) => {
            problems.push(format!(
                "expected an error containing `{wanted}`, got: {}",
                c.report.outcome
            ));
            return problems;
        }
        (Ok(c), None) => c,
    };

    let report = &called.report;
    let shown = report.to_string();
    if let Some(wanted) = &case.outcome
        && !report.outcome.contains(wanted.as_str())
    {
        problems.push(format!(
            "outcome `{}` does not contain `{wanted}`",
            report.outcome
        ));
    }
    for wanted in &case.report {
        if !shown.contains(wanted.as_str()) {
            problems.push(format!("report does not contain `{wanted}`"));
        }
    }
    if let Some(wanted) = &case.canonical
        && &report.call != wanted
    {
        problems.push(format!("canonical `{}` is not `{wanted}`", report.call));
    }

    // Every roll the dice logged is in the report, in order.
    let logged: Vec<&str> = dice.log().iter().map(|r| r.purpose.as_str()).collect();
    let reported: Vec<&str> = report
        .lines
        .iter()
        .filter_map(|l| match l {
            adjutant::rules::UmpireLine::Roll { purpose, .. } => Some(purpose.as_str()),
            _ => None,
        })
        .collect();
    if logged != reported {
        problems.push(format!(
            "rolls logged {logged:?} differ from rolls reported {reported:?}"
        ));
    }

    // The canonical form is a fixed point and gives the same result.
    let mut again = ForcedDice::new(case.dice.iter().copied());
    match umpire::resolve(&report.call, &mut again) {
        Ok(c) if c.report == called.report && c.result == called.result => {}
        Ok(c) => problems.push(format!(
            "the canonical call `{}` gives a different result: {}",
            report.call, c.report
        )),
        Err(e) => problems.push(format!("the canonical call `{}` fails: {e}", report.call)),
    }

    let actual = match serde_json::to_value(&called.result) {
        Ok(v) => v,
        Err(e) => {
            problems.push(format!("result does not serialise: {e}"));
            return problems;
        }
    };
    let mut actual_fields = Vec::new();
    flatten("", &actual, &mut actual_fields);
    let expected = match serde_json::to_value(&case.expect) {
        Ok(v) => v,
        Err(e) => {
            problems.push(format!("[expect] does not convert: {e}"));
            return problems;
        }
    };
    let mut expected_fields = Vec::new();
    flatten("", &expected, &mut expected_fields);
    for (key, want) in expected_fields {
        match actual_fields.iter().find(|(k, _)| *k == key) {
            None => problems.push(format!(
                "no result field `{key}`; the fields are: {}",
                actual_fields
                    .iter()
                    .map(|(k, _)| k.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            Some((_, got)) if *got != want => {
                problems.push(format!("{key}: expected {want}, got {got}"));
            }
            Some(_) => {}
        }
    }
    if !problems.is_empty() {
        problems.push(format!("the report was:\n{shown}"));
    }
    problems
}

#[test]
fn sound_the_charge_umpire_cases() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(CASES);
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert!(
        files.len() >= AT_LEAST,
        "found {} cases in {}, expected at least {AT_LEAST}",
        files.len(),
        dir.display()
    );
    let mut failures = Vec::new();
    for file in &files {
        let problems = check(file);
        if !problems.is_empty() {
            let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("?");
            failures.push(format!("{name}:\n  {}", problems.join("\n  ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}
