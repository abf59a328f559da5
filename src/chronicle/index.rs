//! The front page: the sides, where the game stands or how it ended, the
//! timeline of turns, umpire calls and the game master's acts, and the
//! commitments the dice check starts from.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::audit::Kind;
use crate::report;
use crate::rules::GameState;

use super::record::Record;
use super::view::{Shown, names_unseen};
use super::{ChronicleError, Sight, Site, page, summary};

pub(crate) fn write(
    site: &Site,
    record: &Record,
    shown: &[Shown],
    sight: &Sight,
) -> Result<(), ChronicleError> {
    let campaign = &record.campaign.campaign;
    let start = report::visibility(record.ruleset, &record.initial, &sight.audience, &[]);
    let sides: Vec<Value> = campaign
        .sides
        .iter()
        .map(|s| {
            let seen = |id: &str| start.as_ref().is_none_or(|v| v.contains(id));
            json!({
                "id": s.id,
                "name": s.name,
                "units": record.initial.units.iter().filter(|u| u.side == s.id && seen(&u.id)).count(),
                "partial": matches!(&sight.audience, report::Audience::Side(own) if *own != s.id),
            })
        })
        .collect();

    // Resolutions and acts, in the order they happened.
    let mut timeline: Vec<(chrono::DateTime<chrono::Utc>, usize, Value)> = Vec::new();
    for s in shown {
        let r = s.r;
        let slug = r.slug();
        let text = match (r.kind, &s.call) {
            (Kind::Umpire, Some(call)) => call.lines().next().unwrap_or_default().to_string(),
            (Kind::Umpire, None) => "a call about troops out of your sight".to_string(),
            (Kind::Turn, _) if r.rolled_back => "rolled back by the game master".to_string(),
            (Kind::Turn, _) => String::new(),
        };
        timeline.push((
            r.resolved_at,
            0,
            json!({
                "when": page::when(r.resolved_at),
                "title": format!("{}: {}", page::title(r.kind, r.k), r.phase),
                "text": text,
                "page": page::path(&slug),
                "slug": slug,
                "dice": format!("{} dice", s.rolls.len()),
                "rolled_back": r.rolled_back,
            }),
        ));
    }
    for act in &record.acts {
        // What the reader saw at the time: the field after the turn the act
        // followed.
        let (state, visible): (&GameState, Option<BTreeSet<String>>) = shown
            .iter()
            .rev()
            .find(|s| s.r.kind == Kind::Turn && s.r.k == act.after_turn)
            .map_or_else(
                || (record.initial.raw(), start.clone()),
                |s| (s.r.next.raw(), s.visible.clone()),
            );
        let text = if names_unseen(&act.command, state, visible.as_ref()) {
            "a correction of a unit out of your sight".to_string()
        } else if act.kind == "replace" {
            // A player's address is not published: the side handed over is.
            let side = act.command.split_whitespace().nth(1).unwrap_or_default();
            format!("side {side} handed to another player")
        } else {
            format!("`{}`", act.command)
        };
        timeline.push((
            act.at,
            1,
            json!({
                "when": page::when(act.at),
                "title": format!("The game master's act {}: {}", act.n, act.kind),
                "text": text,
                "page": Value::Null,
                "slug": Value::Null,
                "dice": "",
                "rolled_back": false,
            }),
        ));
    }
    // Stable: at the same minute a resolution comes before the act after it.
    timeline.sort_by_key(|(at, order, _)| (*at, *order));
    let turns = record.turns().count();
    site.page(
        "index.html",
        "index.html",
        ("", "the chronicle"),
        json!({
            "turns": turns,
            "calls": record.resolutions.len() - turns,
            "acts": record.acts.len(),
            "sides": sides,
            "summary": summary::summary(record, sight),
            "timeline": timeline.into_iter().map(|(_, _, v)| v).collect::<Vec<_>>(),
            "commitments": {
                "turn": record.campaign.commitment.to_hex(),
                "umpire": record.umpire_commitment,
                "length": record.campaign.chain.length(),
                "beacon": campaign.beacon,
            },
        }),
        &[],
    )
}
