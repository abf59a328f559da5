//! The turn-by-turn page: the field at the start and after each turn, one
//! at a time with the map in place, stepped through with a slider, buttons
//! or the arrow keys (`stepper.js`), each step with its despatch.

use serde_json::{Value, json};

use crate::audit::Kind;
use crate::map::{self, MapInput};
use crate::report;

use super::html::script_json;
use super::page;
use super::record::Record;
use super::view::Shown;
use super::{ChronicleError, Sight, Site};

/// The map of the field before the first turn.
pub const START_MAP: &str = "maps/start.svg";

pub(crate) fn write(
    site: &Site,
    record: &Record,
    shown: &[Shown],
    sight: &Sight,
) -> Result<(), ChronicleError> {
    let campaign = &record.campaign.campaign;
    let visible = report::visibility(record.ruleset, &record.initial, &sight.audience, &[]);
    let svg = map::svg(&MapInput {
        title: &format!(
            "{}: the field at the start ({})",
            campaign.title, sight.name
        ),
        ruleset: record.ruleset,
        prior: &record.initial,
        next: &record.initial,
        events: &[],
        visible: visible.as_ref(),
        strengths: map::Strengths::Seen,
    });
    site.file(START_MAP, svg.as_bytes())?;
    let mut steps = vec![json!({
        "label": "the field at the start",
        "map": START_MAP,
        "despatch": Vec::<String>::new(),
        "page": Value::Null,
    })];
    for s in shown.iter().filter(|s| s.r.kind == Kind::Turn) {
        let slug = s.r.slug();
        let despatch: Vec<String> = s.context["sectors"]
            .as_array()
            .map(|sectors| {
                sectors
                    .iter()
                    .map(|sector| {
                        let sentences: Vec<&str> = sector["sentences"]
                            .as_array()
                            .map(|l| l.iter().filter_map(Value::as_str).collect())
                            .unwrap_or_default();
                        format!(
                            "{}: {}",
                            sector["title"].as_str().unwrap_or_default(),
                            sentences.join(" ")
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        steps.push(json!({
            "label": format!(
                "after {} (resolution {}{})",
                s.r.phase,
                s.r.k,
                if s.r.rolled_back { ", rolled back" } else { "" }
            ),
            "map": page::map_path(&slug),
            "despatch": despatch,
            "page": page::path(&slug),
        }));
    }
    site.page(
        "turns.html",
        "turns.html",
        ("", "turn by turn"),
        json!({
            "first_map": START_MAP,
            "steps": steps,
            "steps_json": script_json(&json!(steps)),
        }),
        &["stepper.js"],
    )
}
