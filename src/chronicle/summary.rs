//! Where the game stands, or how it ended: each side's losses (units out
//! of play, strength lost), the units that left play and why, the result.
//! A side's chronicle counts the enemy as far as that side sees it.

use serde_json::{Value, json};

use crate::report::{self, Audience};

use super::Sight;
use super::record::Record;

pub(crate) fn summary(record: &Record, sight: &Sight) -> Value {
    let state = &record.current;
    let visible = report::visibility(record.ruleset, state, &sight.audience, &[]);
    let sees = |id: &str| visible.as_ref().is_none_or(|v| v.contains(id));
    let campaign = &record.campaign.campaign;
    let name = |side: &str| campaign.side_name(side);
    let sides: Vec<Value> = state
        .sides
        .iter()
        .map(|side| {
            let units: Vec<_> = state
                .units
                .iter()
                .filter(|u| &u.side == side && sees(&u.id))
                .collect();
            let strength: u32 = units.iter().map(|u| u.original_strength).sum();
            let left: u32 = units
                .iter()
                .filter(|u| u.eliminated.is_none())
                .map(|u| u.strength.min(u.original_strength))
                .sum();
            json!({
                "name": name(side),
                "units": units.len(),
                "out": units.iter().filter(|u| u.eliminated.is_some()).count(),
                "strength": strength,
                "lost": strength - left,
                "partial": matches!(&sight.audience, Audience::Side(own) if own != side),
            })
        })
        .collect();
    let shattered: Vec<Value> = state
        .units
        .iter()
        .filter(|u| sees(&u.id))
        .filter_map(|u| {
            Some(json!({
                "id": u.id,
                "name": u.name,
                "side": name(&u.side),
                "why": u.eliminated.as_ref()?,
            }))
        })
        .collect();
    json!({
        "finished": report::outcome::ending(campaign, record.ruleset, state),
        "victory": report::outcome::context(campaign, record.ruleset, state),
        "phase": crate::resolution::phase_label(record.ruleset, state),
        "sides": sides,
        "shattered": shattered,
    })
}
