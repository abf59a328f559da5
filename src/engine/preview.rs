//! The game master's preview (`preview`, by mail or at the command line):
//! what the open phase would come to with the orders in now, every die a
//! placeholder at the middle of its range, marked as not the result. It
//! draws no die of the turn's seed and keeps nothing, so neither the GM nor
//! anyone the GM shows it to learns the turn's dice from it.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::{EngineError, OpenPhase};
use crate::audit::dice::{Die, PlaceholderDice};
use crate::resolution;
use crate::store::Store;

/// The preview of campaign `id`'s open phase, as the GM's reply gives it.
pub fn describe(store: &Store, id: &str) -> Result<String, EngineError> {
    let open = OpenPhase::read(store, id)?;
    let label = resolution::phase_label(open.ruleset, &open.state);
    if let Some(why) =
        crate::report::outcome::ending_of(&open.record.campaign, open.ruleset, &open.state)?
    {
        return Ok(format!("nothing to preview: the game is over ({why})"));
    }
    let submitted = store.accepted_submissions(id, &open.key)?;
    let orders: BTreeMap<String, String> = submitted
        .iter()
        .map(|(side, s)| (side.clone(), s.canonical_text.clone()))
        .collect();
    let policy = open.record.campaign.no_orders_policy;
    let (_, events, rolls) = resolution::preview(open.ruleset, &open.state, &orders, policy)
        .map_err(EngineError::Run)?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "PREVIEW of {label}, with the orders in now. NOT THE RESULT: every die is a placeholder at the middle of its range ({}); the turn's own dice do not exist until its phase closes.",
        [Die::D6, Die::D10, Die::D100, Die::TwoD6]
            .iter()
            .map(|d| format!("{} {}", d.label(), PlaceholderDice::value_of(*d)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(out, "orders:");
    for side in &open.state.sides {
        match submitted.get(side) {
            Some(s) => {
                let _ = writeln!(out, "  {side}: digest {}", s.digest);
            }
            None => {
                let _ = writeln!(out, "  {side}: none ({})", policy.as_str());
            }
        }
    }
    let _ = writeln!(out, "what would happen:");
    if events.is_empty() {
        let _ = writeln!(out, "  nothing");
    }
    for e in &events {
        let _ = writeln!(out, "  - {}", e.text);
    }
    let _ = writeln!(out, "dice (placeholders, not drawn): {}", rolls.len());
    for r in &rolls {
        let _ = writeln!(
            out,
            "  ? {}: {} (placeholder {})",
            r.purpose,
            r.die.label(),
            r.value
        );
    }
    Ok(out.trim_end().to_string())
}
