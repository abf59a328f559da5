//! The preview turn: not made up but played, from the state the demo
//! campaign begins in, by the bots with dice from a fixed seed, up to the
//! first activation that has fire, a charge or a shock and a unit falling
//! back in it; so the report's preview shows moves along hex paths, fire,
//! combat, retreats and the markers of play.

use std::collections::BTreeMap;

use super::Kulikovo;
use super::bot;
use super::state::State;
use crate::audit::dice::{Dice, DiceStream};
use crate::audit::digest::Digest32;
use crate::rules::ruleset::{Preview, SideText, check_typed, resolve_typed};

/// The preview turn.
pub fn preview(initial: &State) -> Preview<Kulikovo> {
    let mut prior = initial.clone();
    let mut last = None;
    for round in 0..8 {
        let texts: BTreeMap<String, String> = prior
            .sides
            .iter()
            .map(|s| {
                let text: String = bot::orders_for(&prior, s)
                    .iter()
                    .map(|l| format!("{l}\n"))
                    .collect();
                (
                    s.clone(),
                    check_typed(&Kulikovo, &prior, s, &text).canonical_text(),
                )
            })
            .filter(|(_, t)| !t.is_empty())
            .collect();
        let sent: BTreeMap<String, SideText<'_>> = texts
            .iter()
            .map(|(s, t)| (s.clone(), SideText::Sent(t)))
            .collect();
        let mut dice = DiceStream::new(&Digest32::of(
            format!("kulikovo preview {round}").as_bytes(),
        ));
        let Ok((next, events)) = resolve_typed(&Kulikovo, &prior, &sent, &mut dice) else {
            break;
        };
        let full = ["fire", "retreat"]
            .iter()
            .all(|k| events.iter().any(|e| e.kind == *k))
            && events
                .iter()
                .any(|e| e.kind == "charge" || e.kind == "shock");
        let preview = Preview {
            prior: prior.clone(),
            next: next.clone(),
            events,
            rolls: dice.log().to_vec(),
        };
        if full || next.finished.is_some() {
            return preview;
        }
        last = Some(preview);
        prior = next;
    }
    last.unwrap_or(Preview {
        prior: initial.clone(),
        next: initial.clone(),
        events: Vec::new(),
        rolls: Vec::new(),
    })
}
