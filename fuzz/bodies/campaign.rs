//! A campaign folder as a GM writes it, through the loader `adjutant check`
//! and `adjutant init` use (`campaign::load`), then what `init` does with a
//! campaign that checks: its ruleset, its initial state, its first deadline,
//! and what each side is first shown and may first send.
//!
//! The input is both files: `campaign.toml`, then the line [`SPLIT`], then
//! `scenario.toml` (without the line, the whole input is `campaign.toml`
//! and the scenario is empty).

use adjutant::campaign::load;
use adjutant::rules::registry::ruleset_for;
use chrono::{DateTime, Utc};

/// The line between the two files in an input.
pub const SPLIT: &[u8] = b"\n# ---- scenario.toml ----\n";

pub fn run(data: &[u8]) {
    let (campaign, scenario) = match data.windows(SPLIT.len()).position(|w| w == SPLIT) {
        Some(at) => (&data[..at], &data[at + SPLIT.len()..]),
        None => (data, &b""[..]),
    };
    let dir = tempfile::Builder::new()
        .prefix("adjutant-fuzz-")
        .tempdir_in(super::ingest::scratch())
        .expect("a scratch folder");
    std::fs::write(dir.path().join("campaign.toml"), campaign).expect("writes");
    std::fs::write(dir.path().join("scenario.toml"), scenario).expect("writes");

    let checked = match load(dir.path()) {
        Ok(checked) => checked,
        Err(problems) => {
            // Every problem points into one of the two files, at a line and
            // column that exist.
            assert!(!problems.0.is_empty(), "refused without a reason");
            for problem in &problems.0 {
                let text = if problem.file.ends_with("campaign.toml") {
                    campaign
                } else {
                    assert!(problem.file.ends_with("scenario.toml"), "{problem}");
                    scenario
                };
                let lines = text.iter().filter(|b| **b == b'\n').count() + 1;
                assert!(
                    problem.line >= 1 && problem.line <= lines && problem.column >= 1,
                    "a problem at no place in the file: {problem}"
                );
            }
            return;
        }
    };

    // A campaign that checks is one `init` can register.
    let ruleset = ruleset_for(&checked.ruleset.id)
        .unwrap_or_else(|| panic!("checked with an unknown ruleset {}", checked.ruleset.id));
    let state = checked
        .initial_state(ruleset)
        .unwrap_or_else(|e| panic!("checked, yet no initial state: {e}"));
    let now: DateTime<Utc> = DateTime::parse_from_rfc3339("2026-01-05T10:00:00Z")
        .expect("a valid time")
        .with_timezone(&Utc);
    if let Err(e) =
        adjutant::lifecycle::deadline(&checked.schedule, ruleset.phase_of(&state).name, now)
    {
        panic!("checked, yet no first deadline: {e}");
    }
    let read = ruleset
        .read(&state)
        .unwrap_or_else(|e| panic!("checked, yet its initial state does not read: {e}"));
    let _ = ruleset.look(&read);
    for side in &state.sides {
        let _ = ruleset.order_template(&read, side);
        let bot = ruleset.bot_orders(&read, side).join("\n");
        let _ = ruleset.check_orders(&read, side, &bot);
    }
}
