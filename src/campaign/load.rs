//! Loading a campaign folder: `campaign.toml` and `scenario.toml` are read,
//! parsed into raw spanned tables, and checked into a [`Campaign`]. Every
//! problem found is reported at once, each as `file:line:column: message`,
//! so that a GM fixes a file in one pass rather than one error per run.
//!
//! The steps, each in its own module: `source` reads a file and turns byte
//! spans into lines and columns; `raw` is the files' shape as serde sees it
//! (syntax, types and unknown keys stop a file there); `campaign_file` and
//! `scenario_file` (with `forces` for units and generals) check the meaning
//! and build the model; `values` holds the small checks they share.

mod campaign_file;
mod forces;
mod keys;
mod raw;
mod scenario_file;
mod source;
mod values;
pub(crate) use values::parse_time_of_day;

use std::fmt;
use std::path::{Path, PathBuf};

use super::model::Campaign;
use source::Source;

/// The two files of a campaign folder.
pub const CAMPAIGN_FILE: &str = "campaign.toml";
pub const SCENARIO_FILE: &str = "scenario.toml";

/// One thing wrong in a campaign file, at the value it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub file: PathBuf,
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    pub message: String,
    /// How to put it right, where that is not plain from the message.
    pub hint: Option<String>,
}

impl Problem {
    pub fn with_hint(mut self, hint: impl Into<String>) -> Problem {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file.display(),
            self.line,
            self.column,
            self.message
        )?;
        if let Some(hint) = &self.hint {
            write!(f, " (hint: {hint})")?;
        }
        Ok(())
    }
}

/// Everything wrong with a campaign folder, in file and line order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", one_per_line(.0))]
pub struct Problems(pub Vec<Problem>);

fn one_per_line(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Loads and checks the campaign in `dir`.
pub fn load(dir: &Path) -> Result<Campaign, Problems> {
    let mut problems = Vec::new();
    let campaign_source = Source::read(&dir.join(CAMPAIGN_FILE), &mut problems);
    let scenario_source = Source::read(&dir.join(SCENARIO_FILE), &mut problems);
    check(campaign_source, scenario_source, problems)
}

/// Checks a campaign given as the text of its two files, as if they were
/// in `dir` (where problems say they are): for a campaign made up in
/// memory, such as a rules case's.
pub fn load_texts(dir: &Path, campaign: &str, scenario: &str) -> Result<Campaign, Problems> {
    check(
        Some(Source::from_text(&dir.join(CAMPAIGN_FILE), campaign)),
        Some(Source::from_text(&dir.join(SCENARIO_FILE), scenario)),
        Vec::new(),
    )
}

fn check(
    campaign_source: Option<Source>,
    scenario_source: Option<Source>,
    mut problems: Vec<Problem>,
) -> Result<Campaign, Problems> {
    // Both files are parsed before either is checked, so that a syntax
    // error in one does not hide one in the other.
    let campaign_raw = campaign_source
        .as_ref()
        .and_then(|s| s.parse::<raw::CampaignFile>(&mut problems));
    let scenario_raw = scenario_source
        .as_ref()
        .and_then(|s| s.parse::<raw::ScenarioFile>(&mut problems));

    let mut campaign = None;
    if let (Some(source), Some(raw)) = (&campaign_source, campaign_raw) {
        let checked = campaign_file::check(source, raw, &mut problems);
        // The scenario is checked against the campaign's sides and ruleset,
        // so it waits for a campaign file that parsed.
        if let (Some(source), Some(raw)) = (&scenario_source, scenario_raw) {
            let scenario = scenario_file::check(source, raw, &checked.context(), &mut problems);
            campaign = Some(checked.with_scenario(scenario));
        }
    }
    match campaign {
        Some(campaign) if problems.is_empty() => Ok(campaign),
        _ => {
            // Stable, so that problems at one spot keep the order found.
            problems.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
            Err(Problems(problems))
        }
    }
}
