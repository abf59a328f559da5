//! What one audience learns of each event and roll of a resolution: from
//! what the rules say each shows and to whom (`rules::told`), and the
//! audience's sight. An event or roll read back from an archive, which
//! keeps no such data, is judged by its words instead: a unit or general
//! out of sight named in them keeps it back.

use std::collections::BTreeSet;

use crate::audit::Roll;
use crate::rules::GameState;
use crate::rules::ruleset::Event;
use crate::rules::told::{self, Heard, Hearer, Who};

/// Who reads, and the states either side of the resolution.
pub struct Audience<'a> {
    pub who: Who<'a>,
    pub visible: Option<&'a BTreeSet<String>>,
    pub prior: &'a GameState,
    pub next: &'a GameState,
}

impl Audience<'_> {
    fn sees(&self, id: &str) -> bool {
        self.visible.is_none_or(|v| v.contains(id))
    }

    /// Whose a unit, a general or a side is.
    pub fn side_of(&self, id: &str) -> Option<String> {
        side_of(self.next, id).or_else(|| side_of(self.prior, id))
    }

    fn judge<'i>(&self, told: told::Told, ids: impl IntoIterator<Item = &'i str>) -> Heard {
        let sees = |id: &str| self.sees(id);
        let side_of = |id: &str| self.side_of(id);
        told::heard(
            told,
            ids,
            &Hearer {
                who: self.who,
                sees: &sees,
                side_of: &side_of,
            },
        )
    }

    /// What the audience learns of `event`.
    pub fn event(&self, event: &Event) -> Heard {
        match &event.shows {
            Some(shows) => self.judge(shows.told, event.names()),
            None => {
                let hidden = event.units.iter().any(|u| !self.sees(u))
                    || names_hidden(&event.text, &self.hidden_names());
                let side = self.who.side();
                let own = event
                    .units
                    .iter()
                    .any(|u| side.is_some() && self.side_of(u).as_deref() == side);
                match (hidden, own) {
                    (false, _) => Heard::Told,
                    (true, true) => Heard::OwnInAction,
                    (true, false) => Heard::Nothing,
                }
            }
        }
    }

    /// Whether the audience is shown `roll`.
    pub fn roll(&self, roll: &Roll) -> bool {
        match &roll.about {
            Some(about) => {
                self.judge(about.told, about.ids.iter().map(String::as_str)) == Heard::Told
            }
            None => !names_hidden(&roll.purpose, &self.hidden_names()),
        }
    }

    /// The units and generals out of sight, by id and name, as
    /// [`names_hidden`] takes them.
    pub fn hidden_names(&self) -> Vec<(&str, &str)> {
        hidden_names(self.next, self.visible)
    }
}

/// Whose a unit, a general or a side is in `state`.
fn side_of(state: &GameState, id: &str) -> Option<String> {
    state
        .unit(id)
        .map(|u| u.side.clone())
        .or_else(|| {
            state
                .generals
                .iter()
                .find(|g| g.id == id)
                .map(|g| g.side.clone())
        })
        .or_else(|| state.sides.iter().find(|s| *s == id).cloned())
}

/// Whether words (a roll's purpose, an event's text) name a unit out of
/// sight: its id as a whole word, or its name anywhere (case does not
/// matter). For what was read back from an archive alone: what the rules
/// made carries its ids.
pub fn names_hidden(words: &str, hidden: &[(&str, &str)]) -> bool {
    let lower = words.to_lowercase();
    let split: BTreeSet<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
        .collect();
    hidden.iter().any(|(id, name)| {
        split.contains(id.to_lowercase().as_str()) || lower.contains(&name.to_lowercase())
    })
}

/// The units and generals of `state` out of sight, by id and name.
pub fn hidden_names<'a>(
    state: &'a GameState,
    visible: Option<&BTreeSet<String>>,
) -> Vec<(&'a str, &'a str)> {
    let sees = |id: &str| visible.is_none_or(|v| v.contains(id));
    state
        .units
        .iter()
        .map(|u| (u.id.as_str(), u.name.as_str()))
        .chain(
            state
                .generals
                .iter()
                .map(|g| (g.id.as_str(), g.name.as_str())),
        )
        .filter(|(id, _)| !sees(id))
        .collect()
}
