//! `adjutant status`: where a campaign stands, in a few lines.

use chrono::{DateTime, Duration, Utc};
use std::fmt::Write;

use super::{self as engine, EngineError};
use crate::lifecycle;
use crate::resolution;
use crate::rules::ruleset_for;
use crate::store::{OutboxStatus, Store};

/// Describes campaign `id` at `now` for its GM: phase, deadline, each side
/// with its players (addresses and time zones), who has sent orders and who
/// is ready or late, the messages refused since the phase opened, and the
/// campaign's outgoing mail.
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
    if let Some(why) = crate::report::outcome::ending_of(campaign, ruleset, &state)? {
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
    let key = resolution::phase_key(ruleset, &state);
    let none = store.sides_sending_none(id, &key)?;
    let ready = super::ready::ready_in(store, id, &record.current_state_digest, &key)?;
    let reminding =
        now >= record.deadline - Duration::minutes(i64::from(campaign.schedule.reminder_minutes));
    let _ = writeln!(
        out,
        "  sides ({} of {} ready):",
        ready.len(),
        state.sides.len()
    );
    for side in &state.sides {
        let status = match (sent.contains(side), required.contains(side)) {
            (true, _) if none.contains(side) => "sends no orders, ready",
            (true, _) if ready.contains(side) => "orders in, ready",
            (true, _) => "orders in, not ready (a line refused, or it said `wait`)",
            (false, _) if ready.contains(side) => "no orders, ready",
            (false, true) if reminding => "no orders yet (required), late: in the reminder window",
            (false, true) => "no orders yet (required)",
            (false, false) => "no orders yet (optional; the phase waits for them or the deadline)",
        };
        let name = campaign
            .sides
            .iter()
            .find(|s| s.id == *side)
            .map_or(side.as_str(), |s| s.name.as_str());
        let _ = writeln!(out, "  {side} ({name}): {status}");
        for p in campaign.players.iter().filter(|p| p.side == *side) {
            let _ = writeln!(
                out,
                "    played by {} <{}>, {}",
                p.person.name, p.person.address, p.person.time_zone
            );
        }
    }
    let refused = store.refused_for(id, record.phase_opened_at)?;
    if refused.is_empty() {
        let _ = writeln!(out, "  no message refused since the phase opened");
    } else {
        let _ = writeln!(out, "  refused since the phase opened: {}", refused.len());
        for (at, sender, why) in &refused {
            let _ = writeln!(
                out,
                "    {} {sender}: {}",
                at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                why.trim_start_matches("refused: ")
            );
        }
    }
    let outbox = store.outbox(Some(id))?;
    let count = |status: OutboxStatus| outbox.iter().filter(|e| e.status == status).count();
    let _ = writeln!(
        out,
        "  outbox: {} queued, {} in flight, {} sent, {} given up",
        count(OutboxStatus::Queued),
        count(OutboxStatus::InFlight),
        count(OutboxStatus::Sent),
        count(OutboxStatus::Dead)
    );
    for dead in outbox.iter().filter(|e| e.status == OutboxStatus::Dead) {
        let _ = writeln!(
            out,
            "    given up: to {} \"{}\": {}",
            dead.mail.recipient,
            dead.mail.subject,
            dead.last_error.as_deref().unwrap_or("no reason recorded")
        );
    }
    Ok(out.trim_end().to_string())
}
