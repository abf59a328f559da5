//! What one audience learns of each event and roll of a resolution: from
//! what the rules say each shows and to whom (`rules::told`), and the
//! audience's sight. An event or roll read back from an archive, which
//! keeps no such data, is judged by its words instead: a unit or general
//! out of sight named in them keeps it back.

use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};

use crate::audit::Roll;
use crate::rules::GameState;
use crate::rules::ruleset::Event;
use crate::rules::told::{self, Heard, Hearer, Who};

/// Who reads, and the states either side of the resolution. Every event
/// and roll of the resolution is put to it, so what each question needs of
/// the states (whose each piece is, the words out of sight) is found once,
/// at the first question, not once an event.
pub struct Audience<'a> {
    pub who: Who<'a>,
    pub visible: Option<&'a BTreeSet<String>>,
    pub prior: &'a GameState,
    pub next: &'a GameState,
    owners: OnceCell<BTreeMap<&'a str, &'a str>>,
    hidden: OnceCell<HiddenWords>,
}

impl<'a> Audience<'a> {
    pub fn new(
        who: Who<'a>,
        visible: Option<&'a BTreeSet<String>>,
        prior: &'a GameState,
        next: &'a GameState,
    ) -> Audience<'a> {
        Audience {
            who,
            visible,
            prior,
            next,
            owners: OnceCell::new(),
            hidden: OnceCell::new(),
        }
    }

    fn sees(&self, id: &str) -> bool {
        self.visible.is_none_or(|v| v.contains(id))
    }

    /// Whose a unit, a general or a side is: as the state after the
    /// resolution has it, else as the state before it.
    pub fn side_of(&self, id: &str) -> Option<String> {
        let owners = self.owners.get_or_init(|| {
            let mut owners = BTreeMap::new();
            // Inserted from the last place asked to the first, so that the
            // first place that knows an id has the last word.
            for state in [self.prior, self.next] {
                for side in state.sides.iter().rev() {
                    owners.insert(side.as_str(), side.as_str());
                }
                for g in state.generals.iter().rev() {
                    owners.insert(g.id.as_str(), g.side.as_str());
                }
                for u in state.units.iter().rev() {
                    owners.insert(u.id.as_str(), u.side.as_str());
                }
            }
            owners
        });
        owners.get(id).map(|s| s.to_string())
    }

    /// The ids and names out of sight, lower-cased once.
    fn hidden(&self) -> &HiddenWords {
        self.hidden
            .get_or_init(|| HiddenWords::of(&hidden_names(self.next, self.visible)))
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
                    || self.hidden().named_in(&event.text);
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
            None => !self.hidden().named_in(&roll.purpose),
        }
    }
}

/// The ids and names of the pieces out of sight, lower-cased, as words
/// are searched for them.
struct HiddenWords {
    ids: BTreeSet<String>,
    names: Vec<String>,
}

impl HiddenWords {
    fn of(hidden: &[(&str, &str)]) -> HiddenWords {
        HiddenWords {
            ids: hidden.iter().map(|(id, _)| id.to_lowercase()).collect(),
            names: hidden.iter().map(|(_, name)| name.to_lowercase()).collect(),
        }
    }

    /// Whether `words` name one: its id as a whole word, or its name
    /// anywhere (case does not matter).
    fn named_in(&self, words: &str) -> bool {
        let lower = words.to_lowercase();
        lower
            .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
            .any(|w| self.ids.contains(w))
            || self.names.iter().any(|name| lower.contains(name.as_str()))
    }
}

/// Whether words (a roll's purpose, an event's text) name a unit out of
/// sight: its id as a whole word, or its name anywhere (case does not
/// matter). For what was read back from an archive alone: what the rules
/// made carries its ids.
pub fn names_hidden(words: &str, hidden: &[(&str, &str)]) -> bool {
    HiddenWords::of(hidden).named_in(words)
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
