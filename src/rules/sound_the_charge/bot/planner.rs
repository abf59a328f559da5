//! The bot's order sheet as it is written: each line checked as a player's
//! mail is checked, and each move tried the way the acknowledgement shows a
//! player how his orders will be tried (`turn::planned_moves`), on the
//! table as the side sees it. A move that the phase would not carry out is
//! not written, and the next choice is tried instead.

use std::collections::BTreeSet;

use crate::rules::ruleset::{Event, check_typed};
use crate::rules::sound_the_charge::SoundTheCharge;
use crate::rules::sound_the_charge::state::State;
use crate::rules::sound_the_charge::turn::planned_moves;

use super::view::seen_by;

/// Event kinds by which the movement phase says an order was not carried
/// out as given.
const NOT_DONE: &[&str] = &["order-impossible", "charge-fails"];

pub struct Planner<'a> {
    pub side: &'a str,
    /// The side's view of the table with the moves written so far made:
    /// a unit planned later finds its friends where they will stand.
    pub seen: State,
    lines: Vec<String>,
    ordered: BTreeSet<String>,
    /// The side's generals by id.
    generals: BTreeSet<String>,
}

impl<'a> Planner<'a> {
    pub fn new(state: &State, side: &'a str) -> Planner<'a> {
        Planner {
            side,
            seen: seen_by(state, side),
            lines: Vec::new(),
            ordered: BTreeSet::new(),
            generals: state
                .generals
                .iter()
                .filter(|g| g.side == side)
                .map(|g| g.id.clone())
                .collect(),
        }
    }

    /// The lines written: the generals' first, then the units' in the
    /// order they were planned.
    pub fn into_lines(self) -> Vec<String> {
        let (mut generals, units): (Vec<String>, Vec<String>) =
            self.lines.into_iter().partition(|l| {
                self.generals
                    .iter()
                    .any(|g| l.starts_with(&format!("{g}:")))
            });
        generals.extend(units);
        generals
    }

    /// Whether unit `id` has its orders.
    pub fn has_orders(&self, id: &str) -> bool {
        self.ordered.contains(id)
    }

    /// Writes lines for unit `id` that move nothing in the movement phase
    /// (hold, reform, shoot, evade), as they are.
    pub fn give(&mut self, id: &str, lines: &[String]) {
        self.lines.extend(lines.iter().cloned());
        self.ordered.insert(id.to_string());
    }

    /// How the movement phase would carry out `lines` for unit `id`: the
    /// side's view after them and the events that name the unit first;
    /// `None` if they do not read and check as orders, or if an event says
    /// the unit could not do as it was told.
    fn trial(&self, id: &str, lines: &[String]) -> Option<(State, Vec<Event>)> {
        let sheet = check_typed(&SoundTheCharge, &self.seen, self.side, &lines.join("\n"));
        if !sheet.is_clean() || sheet.accepted.len() != lines.len() {
            return None;
        }
        let (next, events) = planned_moves(&self.seen, self.side, &sheet.accepted);
        let own: Vec<Event> = events
            .into_iter()
            .filter(|e| e.units.first().is_some_and(|u| u == id))
            .collect();
        if own.iter().any(|e| NOT_DONE.contains(&e.kind.as_str())) {
            return None;
        }
        Some((next, own))
    }

    /// Tries lines that move unit `id`, and writes them if the movement
    /// phase carries them out without leaving the unit intermixed with a
    /// friend ("If two units end movement intermixed, [...] mark both units
    /// disordered": a move that costs two units their order is no move).
    pub fn try_move(&mut self, id: &str, lines: &[String]) -> bool {
        let Some((next, events)) = self.trial(id, lines) else {
            return false;
        };
        if events.iter().any(|e| e.kind == "intermixed") {
            return false;
        }
        self.seen = next;
        self.give(id, lines);
        true
    }

    /// Tries a charge, and writes it if it makes contact.
    pub fn try_charge(&mut self, id: &str, line: &str) -> bool {
        let lines = [line.to_string()];
        let Some((next, events)) = self.trial(id, &lines) else {
            return false;
        };
        if !events.iter().any(|e| e.kind == "charge") {
            return false;
        }
        self.seen = next;
        self.give(id, &lines);
        true
    }
}
