//! A made-up turn on the demo field, with moves, a charge, fire, a morale
//! test, a rout and a unit hidden in a wood: the input of the report's
//! golden files, of the bench and of the preview the browser check looks at.
//! It exercises every part of a report, which a turn of the rules as they
//! stand (only `hold` is adjudicated so far) cannot yet do.

use std::path::Path;

use crate::audit::dice::{Die, Roll};
use crate::campaign::Campaign;
use crate::rules::board::Location;
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

/// The demo campaign, from this source tree.
pub fn demo_campaign() -> Result<Campaign, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns/sound-the-charge-demo");
    crate::campaign::load(&dir).map_err(|p| p.to_string())
}

/// The sample turn on the demo campaign.
pub fn demo_turn() -> Result<SampleTurn, String> {
    Ok(turn_on(demo_campaign()?))
}

fn event(kind: &str, units: &[&str], text: &str) -> Event {
    Event {
        kind: kind.to_string(),
        units: units.iter().map(|u| u.to_string()).collect(),
        text: text.to_string(),
    }
}

fn roll(index: u32, purpose: &str, value: u32) -> Roll {
    Roll {
        index,
        purpose: purpose.to_string(),
        die: Die::D6,
        sides: 6,
        faces: vec![value],
        value,
        first_word: u64::from(index),
        words: 1,
    }
}

fn place(state: &mut GameState, id: &str, x: i64, y: i64, facing: u32) {
    if let Some(u) = state.units.iter_mut().find(|u| u.spec.id == id) {
        u.spec.location = Location::Table { x, y };
        u.spec.facing = facing;
    }
}

fn unit<'a>(state: &'a mut GameState, id: &str) -> Option<&'a mut crate::rules::state::UnitState> {
    state.units.iter_mut().find(|u| u.spec.id == id)
}

/// The sample turn on a campaign laid out like the demo's (its unit ids).
pub fn turn_on(campaign: Campaign) -> SampleTurn {
    let ruleset = ruleset_for(&campaign.ruleset.id).unwrap_or_else(|| {
        ruleset_for(crate::rules::sound_the_charge::ID).expect("Sound the Charge is built in")
    });
    let mut prior = ruleset.initial_state(&campaign);
    // Before this turn: the hussars have come up on the right, the Jäger
    // have slipped deep into the Wolfswald, where no Frenchman can see them.
    place(&mut prior, "5-hussards", 4600, 2400, 0);
    place(&mut prior, "jaeger", 600, 4300, 180);
    let mut next = prior.clone();
    place(&mut next, "2-ligne", 2000, 1400, 0);
    place(&mut next, "3-ligne", 2400, 1600, 0);
    place(&mut next, "5-hussards", 4200, 3350, 0);
    place(&mut next, "grenzer", 4200, 4000, 0);
    place(&mut next, "jaeger", 450, 4300, 180);
    if let Some(u) = unit(&mut next, "ir-49") {
        u.spec.strength = 10;
        u.shaken = true;
    }
    if let Some(u) = unit(&mut next, "17-legere") {
        u.disordered = true;
    }
    if let Some(u) = unit(&mut next, "5-hussards") {
        u.spec.marks.push("blown".to_string());
        u.spec.strength = 11;
    }
    if let Some(u) = unit(&mut next, "grenzer") {
        u.spec.strength = 5;
        u.shaken = true;
        u.spec.facing = 0;
    }
    if let Some(u) = unit(&mut next, "brigade-battery") {
        u.eliminated = Some("shattered by fire".to_string());
        u.spec.strength = 0;
    }
    next.active_side = "austrian".to_string();
    next.turn = 2;
    let events = vec![
        event("weather", &[], "A light rain falls over the field."),
        event("hold", &["1-ligne"], "1er Régiment de Ligne stands fast."),
        event("hold", &["12-dragons"], "12e Dragons stands fast."),
        event(
            "move",
            &["2-ligne"],
            "2e Régiment de Ligne advances 4 inches.",
        ),
        event(
            "move",
            &["3-ligne"],
            "3e Régiment de Ligne advances 6 inches.",
        ),
        event(
            "charge",
            &["5-hussards", "grenzer"],
            "5e Hussards charge the Warasdiner Grenzer, who do not stand.",
        ),
        event(
            "combat",
            &["5-hussards", "grenzer"],
            "5e Hussards beat the Warasdiner Grenzer in close combat, 7 to 3; the Grenzer lose 3 figures.",
        ),
        event(
            "rout",
            &["grenzer"],
            "The Warasdiner Grenzer rout 6-1/2 inches to the rear.",
        ),
        event(
            "shooting",
            &["batterie-a-pied", "ir-49"],
            "Batterie à pied (12-pdr) fires at IR 49 Kerpen at 24 inches, needing 5 or 6: 2 hits.",
        ),
        event(
            "morale",
            &["ir-49"],
            "IR 49 Kerpen tests morale after 2 hits, rolls 2 against 4, and is shaken.",
        ),
        event(
            "shooting",
            &["batterie-a-pied", "brigade-battery"],
            "Batterie à pied (12-pdr) fires at the brigade battery: 4 hits.",
        ),
        event(
            "shattered",
            &["brigade-battery"],
            "The brigade battery is shattered and leaves the field.",
        ),
        event(
            "disordered",
            &["17-legere"],
            "17e Léger is disordered crossing the churchyard wall.",
        ),
        event(
            "move",
            &["jaeger"],
            "2. Jäger-Bataillon moves 1-1/2 inches west inside the Wolfswald.",
        ),
    ];
    let rolls = vec![
        roll(1, "combat: 5-hussards", 5),
        roll(2, "combat: grenzer", 2),
        roll(3, "shooting: batterie-a-pied at ir-49", 5),
        roll(4, "shooting: batterie-a-pied at ir-49", 6),
        roll(5, "morale: ir-49 after shooting", 2),
        roll(6, "shooting: batterie-a-pied at brigade-battery", 6),
        roll(7, "disorder: 17-legere crossing the wall", 1),
        roll(8, "move: jaeger through heavy woods", 3),
    ];
    SampleTurn {
        campaign,
        prior,
        next,
        events,
        rolls,
    }
}

/// A turn of two sides with `per_side` units each, in rows across a table
/// big enough for them, every unit moving and a fifth of them firing: the
/// bench's load.
pub fn large_turn(campaign: &Campaign, per_side: usize) -> SampleTurn {
    let base = turn_on(campaign.clone());
    let mut prior = base.prior.clone();
    let template: Vec<_> = prior.units.iter().take(2).cloned().collect();
    let columns = 25i64;
    let rows = (per_side as i64 + columns - 1) / columns;
    let width = columns * 350 + 1000;
    let depth = rows * 2 * 200 + 3000;
    prior.map = crate::rules::board::MapSpec::Table { width, depth };
    prior.units.clear();
    for (s, side) in ["french", "austrian"].iter().enumerate() {
        for i in 0..per_side as i64 {
            let mut u = template[0].clone();
            u.spec.id = format!("{side}-{i}");
            u.spec.name = format!(
                "{} regiment {i}",
                if s == 0 { "French" } else { "Austrian" }
            );
            u.spec.side = side.to_string();
            u.spec.strength = 8;
            let (col, row) = (i % columns, i / columns);
            let y = if s == 0 {
                500 + row * 200
            } else {
                depth - 500 - row * 200
            };
            u.spec.location = Location::Table {
                x: 500 + col * 350,
                y,
            };
            u.spec.facing = if s == 0 { 0 } else { 180 };
            prior.units.push(u);
        }
    }
    let mut next = prior.clone();
    let mut events = Vec::new();
    let mut rolls = Vec::new();
    for (i, u) in next.units.iter_mut().enumerate() {
        if let Location::Table { x, y } = u.spec.location {
            let dy = if u.spec.side == "french" { 100 } else { -100 };
            u.spec.location = Location::Table { x, y: y + dy };
        }
        events.push(event(
            "move",
            &[&u.spec.id],
            &format!("{} advances 1 inch.", u.spec.name),
        ));
        if i % 5 == 0 {
            u.shaken = true;
            rolls.push(roll(
                rolls.len() as u32 + 1,
                &format!("morale: {}", u.spec.id),
                2,
            ));
        }
    }
    for i in (0..per_side).step_by(5) {
        let (a, b) = (format!("french-{i}"), format!("austrian-{i}"));
        events.push(event(
            "shooting",
            &[&a, &b],
            &format!("French regiment {i} fires at Austrian regiment {i}: 1 hit."),
        ));
        rolls.push(roll(
            rolls.len() as u32 + 1,
            &format!("shooting: {a} at {b}"),
            5,
        ));
    }
    SampleTurn {
        campaign: campaign.clone(),
        prior,
        next,
        events,
        rolls,
    }
}
