//! The default ruleset's preview turn on its demo campaign (see
//! `Presentation::preview`): the input of the report's golden files, of the
//! bench and of the preview the browser check looks at.

use std::path::Path;

use crate::audit::dice::Roll;
use crate::campaign::Campaign;
use crate::rules::board::Location;
use crate::rules::reading::Reading;
use crate::rules::registry::RULESETS;
use crate::rules::ruleset::Event;
use crate::rules::{GameState, ruleset_for};

/// The states either side of one resolution, what happened and the dice.
#[derive(Debug, Clone)]
pub struct SampleTurn {
    pub campaign: Campaign,
    pub prior: GameState,
    pub next: GameState,
    pub events: Vec<Event>,
    pub rolls: Vec<Roll>,
}

impl SampleTurn {
    /// Both states read by the campaign's ruleset, as the engine reads them
    /// once for a resolution's reports.
    pub fn readings(&self) -> Result<(Reading<'_>, Reading<'_>), String> {
        let ruleset = ruleset_for(&self.prior.ruleset)
            .ok_or_else(|| format!("unknown ruleset `{}`", self.prior.ruleset))?;
        let read = |s| ruleset.read(s).map_err(|e| e.to_string());
        Ok((read(&self.prior)?, read(&self.next)?))
    }
}

/// The first ruleset's demo campaign, from this source tree.
pub fn demo_campaign() -> Result<Campaign, String> {
    let demo = RULESETS
        .iter()
        .find_map(|r| r.demo())
        .ok_or("no ruleset ships a demo campaign")?;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("campaigns")
        .join(demo.folder);
    crate::campaign::load(&dir).map_err(|p| p.to_string())
}

/// The preview turn on the demo campaign.
pub fn demo_turn() -> Result<SampleTurn, String> {
    turn_on(demo_campaign()?)
}

/// The preview turn of a campaign's ruleset, from the state it begins in.
pub fn turn_on(campaign: Campaign) -> Result<SampleTurn, String> {
    let ruleset = ruleset_for(&campaign.ruleset.id)
        .ok_or_else(|| format!("unknown ruleset `{}`", campaign.ruleset.id))?;
    let initial = campaign.initial_state(ruleset).map_err(|e| e.to_string())?;
    let initial = ruleset.read(&initial).map_err(|e| e.to_string())?;
    let preview = ruleset
        .preview(&initial)
        .ok_or_else(|| format!("{} has no preview turn", ruleset.id()))?;
    Ok(SampleTurn {
        campaign,
        prior: preview.prior,
        next: preview.next,
        events: preview.events,
        rolls: preview.rolls,
    })
}

/// A turn of two sides with `per_side` units each, in rows across a table
/// big enough for them, every unit moving and a fifth of them firing: the
/// bench's load.
pub fn large_turn(campaign: &Campaign, per_side: usize) -> Result<SampleTurn, String> {
    let base = turn_on(campaign.clone())?;
    let mut prior = base.prior.clone();
    let template = prior.units.first().cloned().ok_or("the demo has no unit")?;
    // A unit whose state the preview changed (shaken, say) lends its part to
    // every fifth unit, so that the maps carry markers as real ones do.
    let changed = base
        .next
        .units
        .iter()
        .find(|u| base.prior.unit(&u.id).is_some_and(|p| p.rules != u.rules))
        .map_or(template.rules.clone(), |u| u.rules.clone());
    let columns = 25i64;
    let rows = (per_side as i64 + columns - 1) / columns;
    let width = columns * 350 + 1000;
    let depth = rows * 2 * 200 + 3000;
    prior.map = crate::rules::board::MapSpec::Table { width, depth };
    prior.units.clear();
    let sides = prior.sides.clone();
    for (s, side) in sides.iter().take(2).enumerate() {
        for i in 0..per_side as i64 {
            let mut u = template.clone();
            u.id = format!("{side}-{i}");
            u.name = format!("{side} regiment {i}");
            u.side = side.to_string();
            u.strength = 8;
            let (col, row) = (i % columns, i / columns);
            let y = if s == 0 {
                500 + row * 200
            } else {
                depth - 500 - row * 200
            };
            u.location = Location::Table {
                x: 500 + col * 350,
                y,
            };
            u.facing = if s == 0 { 0 } else { 180 };
            prior.units.push(u);
        }
    }
    let mut next = prior.clone();
    let mut events = Vec::new();
    let mut rolls = Vec::new();
    for (i, u) in next.units.iter_mut().enumerate() {
        if let Location::Table { x, y } = u.location {
            let dy = if u.side == sides[0] { 100 } else { -100 };
            u.location = Location::Table { x, y: y + dy };
        }
        events.push(Event::naming(
            "move",
            &[&u.id],
            format!("{} advances 1 inch.", u.name),
        ));
        if i % 5 == 0 {
            u.rules = changed.clone();
            rolls.push(Roll::made_up_d6(
                rolls.len() as u32 + 1,
                &format!("morale: {}", u.id),
                2,
            ));
        }
    }
    for i in (0..per_side).step_by(5) {
        let (a, b) = (format!("{}-{i}", sides[0]), format!("{}-{i}", sides[1]));
        events.push(Event::naming(
            "shooting",
            &[&a, &b],
            format!(
                "{} regiment {i} fires at {} regiment {i}: 1 hit.",
                sides[0], sides[1]
            ),
        ));
        rolls.push(Roll::made_up_d6(
            rolls.len() as u32 + 1,
            &format!("shooting: {a} at {b}"),
            5,
        ));
    }
    Ok(SampleTurn {
        campaign: campaign.clone(),
        prior,
        next,
        events,
        rolls,
    })
}

/// The audit lines of a made-up resolution (a sample report, a bench): made-up
/// digests, recognisable in the text.
pub fn footer() -> super::audit_footer::AuditFooter {
    let made_up = |b: u8| crate::audit::Digest32([b; 32]);
    super::audit_footer::AuditFooter::new(
        "sample",
        crate::audit::Kind::Turn,
        1,
        made_up(0xcd),
        made_up(0xef),
        made_up(0xab),
        made_up(0x12),
        made_up(0x34),
        crate::audit::Digest32::ZERO,
        super::audit_footer::NO_LIVE_BEACON.to_string(),
        Some(made_up(0x56)),
    )
    .made(made_up(0x78), None)
}
