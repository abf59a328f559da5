//! A made-up turn on the demo field, with moves, a charge, fire, a morale
//! test, a rout, blown cavalry and a unit hidden in a wood: what the report's
//! golden files, the report bench and the browser preview show, since it
//! exercises every part of a report.

use super::SoundTheCharge;
use super::state::{State, Unit};
use crate::audit::dice::Roll;
use crate::rules::board::Location;
use crate::rules::ruleset::{Event, Preview};

fn place(state: &mut State, id: &str, x: i64, y: i64, facing: u32) {
    if let Some(u) = state.units.iter_mut().find(|u| u.id == id) {
        u.location = Location::Table { x, y };
        u.facing = facing;
    }
}

fn unit<'a>(state: &'a mut State, id: &str) -> Option<&'a mut Unit> {
    state.units.iter_mut().find(|u| u.id == id)
}

/// The preview turn on the demo campaign's field (its unit ids), from the
/// state it begins in.
pub fn preview(initial: &State) -> Preview<SoundTheCharge> {
    let mut prior = initial.clone();
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
        u.strength = 10;
        u.rules.shaken = true;
    }
    if let Some(u) = unit(&mut next, "17-legere") {
        u.rules.disordered = true;
    }
    if let Some(u) = unit(&mut next, "5-hussards") {
        u.rules.status.blown = true;
        u.strength = 11;
    }
    if let Some(u) = unit(&mut next, "grenzer") {
        u.strength = 5;
        u.rules.shaken = true;
        u.facing = 0;
    }
    if let Some(u) = unit(&mut next, "brigade-battery") {
        u.eliminated = Some("shattered by fire".to_string());
        u.strength = 0;
    }
    next.active_side = "austrian".to_string();
    next.turn = 2;
    let events = vec![
        Event::naming("weather", &[], "A light rain falls over the field."),
        Event::naming("hold", &["1-ligne"], "1er Régiment de Ligne stands fast."),
        Event::naming("hold", &["12-dragons"], "12e Dragons stands fast."),
        Event::naming(
            "move",
            &["2-ligne"],
            "2e Régiment de Ligne advances 4 inches.",
        ),
        Event::naming(
            "move",
            &["3-ligne"],
            "3e Régiment de Ligne advances 6 inches.",
        ),
        Event::naming(
            "charge",
            &["5-hussards", "grenzer"],
            "5e Hussards charge the Warasdiner Grenzer, who do not stand.",
        ),
        Event::naming(
            "combat",
            &["5-hussards", "grenzer"],
            "5e Hussards beat the Warasdiner Grenzer in close combat, 7 to 3; the Grenzer lose 3 figures.",
        ),
        Event::naming(
            "rout",
            &["grenzer"],
            "The Warasdiner Grenzer rout 6-1/2 inches to the rear.",
        ),
        Event::naming(
            "shooting",
            &["batterie-a-pied", "ir-49"],
            "Batterie à pied (12-pdr) fires at IR 49 Kerpen at 24 inches, needing 5 or 6: 2 hits.",
        ),
        Event::naming(
            "morale",
            &["ir-49"],
            "IR 49 Kerpen tests morale after 2 hits, rolls 2 against 4, and is shaken.",
        ),
        Event::naming(
            "shooting",
            &["batterie-a-pied", "brigade-battery"],
            "Batterie à pied (12-pdr) fires at the brigade battery: 4 hits.",
        ),
        Event::naming(
            "shattered",
            &["brigade-battery"],
            "The brigade battery is shattered and leaves the field.",
        ),
        Event::naming(
            "disordered",
            &["17-legere"],
            "17e Léger is disordered crossing the churchyard wall.",
        ),
        Event::naming(
            "move",
            &["jaeger"],
            "2. Jäger-Bataillon moves 1-1/2 inches west inside the Wolfswald.",
        ),
    ];
    let rolls = vec![
        Roll::made_up_d6(1, "combat: 5-hussards", 5),
        Roll::made_up_d6(2, "combat: grenzer", 2),
        Roll::made_up_d6(3, "shooting: batterie-a-pied at ir-49", 5),
        Roll::made_up_d6(4, "shooting: batterie-a-pied at ir-49", 6),
        Roll::made_up_d6(5, "morale: ir-49 after shooting", 2),
        Roll::made_up_d6(6, "shooting: batterie-a-pied at brigade-battery", 6),
        Roll::made_up_d6(7, "disorder: 17-legere crossing the wall", 1),
        Roll::made_up_d6(8, "move: jaeger through heavy woods", 3),
    ];
    Preview {
        prior,
        next,
        events,
        rolls,
    }
}
