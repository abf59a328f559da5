//! A made-up turn on the demo field for the report's preview: declared
//! charges, a charge told step by step, a flight and a pursuit drawn as
//! they ran, fire, and the markers of shaken, routed and firing units.

use super::GrandeTactique;
use super::state::{DeclaredCharge, Morale, State};
use crate::audit::dice::Roll;
use crate::rules::board::Location;
use crate::rules::ruleset::{Event, Preview};

fn at(x: i64, y: i64) -> Location {
    Location::Table { x, y }
}

/// The preview turn on the demo campaign's field (its unit ids), from the
/// state it begins in; `None` on another field.
pub fn preview(initial: &State) -> Option<Preview<GrandeTactique>> {
    for id in [
        "1-cuirassiers",
        "ulanen-schwarzenberg",
        "48-ligne",
        "ir-49",
        "2-cuirassiers",
        "kienmayer-husaren",
    ] {
        initial.unit(id)?;
    }
    let prior = initial.clone();
    let mut next = prior.clone();
    let place = |s: &mut State, id: &str, x: i64, y: i64, facing: u32| {
        if let Some(u) = s.units.iter_mut().find(|u| u.id == id) {
            u.location = at(x, y);
            u.facing = facing;
        }
    };
    let morale = |s: &mut State, id: &str, m: Morale| {
        if let Some(u) = s.units.iter_mut().find(|u| u.id == id) {
            u.rules.morale = m;
        }
    };
    let (cx, cy) = match prior.unit("1-cuirassiers")?.location {
        Location::Table { x, y } => (x, y),
        Location::Hex { .. } => return None,
    };
    let (ux, uy) = match prior.unit("ulanen-schwarzenberg")?.location {
        Location::Table { x, y } => (x, y),
        Location::Hex { .. } => return None,
    };
    // The lancers fled north 16 inches; the cuirassiers pursued 15.
    place(&mut next, "ulanen-schwarzenberg", ux, uy + 1750, 0);
    morale(&mut next, "ulanen-schwarzenberg", Morale::Routed);
    place(&mut next, "1-cuirassiers", ux, uy + 1500, 0);
    morale(&mut next, "1-cuirassiers", Morale::Shaken);
    morale(&mut next, "ir-49", Morale::Shaken);
    if let Some(u) = next.units.iter_mut().find(|u| u.id == "48-ligne") {
        u.rules.firing = true;
    }
    // A charge declared for the next turn.
    next.game.charges.push(DeclaredCharge {
        unit: "2-cuirassiers".to_string(),
        target: "kienmayer-husaren".to_string(),
        command: "lasalle".to_string(),
        principal: true,
        moving: true,
        stay: false,
    });
    let mut charge = Event::naming(
        "charge",
        &["1-cuirassiers", "ulanen-schwarzenberg"],
        "1er Cuirassiers charges the Schwarzenberg Uhlans, moving 5.5 inches to contact against its front.",
    );
    charge.path = vec![at(cx, cy), at(ux, uy - 150)];
    let mut flight = Event::naming(
        "flight",
        &["ulanen-schwarzenberg"],
        "The Schwarzenberg Uhlans flee 16 inches (11 + 2d6 5) to the north, and are routed.",
    );
    flight.path = vec![at(ux, uy), at(ux, uy + 1750)];
    let mut pursuit = Event::naming(
        "pursuit",
        &["1-cuirassiers", "ulanen-schwarzenberg"],
        "1er Cuirassiers pursues the Schwarzenberg Uhlans to the north, 15 inches, one less than they fled.",
    );
    pursuit.path = vec![at(ux, uy - 150), at(ux, uy), at(ux, uy + 1500)];
    let events = vec![
        Event::naming(
            "charge-declared",
            &["1-cuirassiers", "ulanen-schwarzenberg"],
            "1er Cuirassiers (lasalle) declares a charge on the Schwarzenberg Uhlans, to move to contact first: 2 PIPs paid, 1 left.",
        ),
        charge,
        Event::naming(
            "morale-check",
            &["1-cuirassiers"],
            "1er Cuirassiers takes a Morale Check to charge the Schwarzenberg Uhlans: 4 +1 (veteran) +1 (cuirassiers charging cavalry) = 6, needing 4: passed.",
        ),
        Event::naming(
            "morale-check",
            &["ulanen-schwarzenberg"],
            "The Schwarzenberg Uhlans takes a Morale Check charged by 1er Cuirassiers: 2 = 2, needing 4: failed.",
        ),
        flight,
        Event::naming(
            "morale-check",
            &["1-cuirassiers"],
            "1er Cuirassiers takes a Morale Check to decide a first follow-up charge: 3 +1 (veteran) -1 (first follow-up charge) = 3, needing 4: failed.",
        ),
        pursuit,
        Event::naming("shaken", &["1-cuirassiers"], "1er Cuirassiers is shaken."),
        Event::naming(
            "fire",
            &["48-ligne", "ir-49"],
            "48e de Ligne fires at IR 49 Kerpen.",
        ),
        Event::naming("shaken", &["ir-49"], "IR 49 Kerpen is shaken by the fire."),
    ];
    let rolls = vec![
        Roll::made_up_d6(
            0,
            "Morale Check: 1er Cuirassiers, to charge the Schwarzenberg Uhlans",
            4,
        ),
        Roll::made_up_d6(
            1,
            "Morale Check: the Schwarzenberg Uhlans, charged by 1er Cuirassiers",
            2,
        ),
        Roll::made_up_d6(
            2,
            "Morale Check: 1er Cuirassiers, to decide a first follow-up charge",
            3,
        ),
        Roll::made_up_d6(
            3,
            "Morale Check: IR 49 Kerpen, under fire from 48e de Ligne",
            2,
        ),
    ];
    Some(Preview {
        prior,
        next,
        events,
        rolls,
    })
}
