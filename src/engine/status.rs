//! `adjutant status`: where a campaign stands, in a few lines.

use chrono::{DateTime, Utc};
use std::fmt::Write;

use super::{self as engine, EngineError};
use crate::lifecycle;
use crate::resolution;
use crate::rules::ruleset_for;
use crate::store::Store;

/// Describes campaign `id` at `now`: phase, deadline, who has sent orders.
pub fn describe(store: &Store, id: &str, now: DateTime<Utc>) -> Result<String, EngineError> {
    let record = store.campaign(id)?;
    let campaign = &record.campaign;
    let ruleset = ruleset_for(&campaign.ruleset.id)
        .ok_or_else(|| EngineError::UnknownRuleset(campaign.ruleset.id.clone()))?;
    let state = store.state(&record.current_state_digest)?;
    let (turns, calls) = store.resolution_counts(id)?;
    let sent = engine::sides_in(store, id)?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} — {} ({})",
        campaign.id, campaign.title, campaign.ruleset.id
    );
    let _ = writeln!(out, "  commitment {}", record.commitment);
    let _ = writeln!(
        out,
        "  {turns} turn resolutions and {calls} umpire calls; each chain holds {} secrets",
        record.chain.length()
    );
    if let Some(why) = &state.finished {
        let _ = writeln!(out, "  the game is over: {why}");
        return Ok(out.trim_end().to_string());
    }
    if !store.pending_resolutions(id)?.is_empty() {
        let _ = writeln!(
            out,
            "  a closed phase awaits resolution (the next `adjutant tick` resolves it)"
        );
    }
    let phase = ruleset.phase_of(&state);
    let _ = writeln!(
        out,
        "  phase: {} — {}",
        resolution::phase_label(ruleset, &state),
        phase.summary
    );
    let left = record.deadline - now;
    let _ = writeln!(
        out,
        "  deadline {} ({}){}",
        record
            .deadline
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        if left > chrono::Duration::zero() {
            // Rounded up: a deadline 30 seconds away is "in 0h01m", not 0h00m.
            let minutes = (left.num_seconds() + 59) / 60;
            format!("in {}h{:02}m", minutes / 60, minutes % 60)
        } else {
            "passed".to_string()
        },
        if record.paused { ", paused" } else { "" }
    );
    let required = lifecycle::required_sides(ruleset, &state);
    let none = store.sides_sending_none(id, &resolution::phase_key(ruleset, &state))?;
    for side in &state.sides {
        let status = match (sent.contains(side), required.contains(side)) {
            (true, _) if none.contains(side) => "in: sends no orders",
            (true, _) => "orders in",
            (false, true) => "no orders yet (required)",
            (false, false) => "no orders yet (optional; the phase waits for them or the deadline)",
        };
        let _ = writeln!(out, "  {side}: {status}");
    }
    Ok(out.trim_end().to_string())
}
