//! What an event or a roll shows, and to whom, as data: the form the report,
//! the map, the chronicle and the bots read (docs/RULINGS.md REP-3).
//!
//! None of it is archived. The archive keeps an event's kind, units and
//! words and a roll's purpose, byte for byte as they always were; the typed
//! form is made by the rules as they resolve, and made again when a
//! resolution is run again from the archive (the chronicle does).

use super::look::{EventClass, Strike};
use super::phrase::Phrase;
pub use crate::audit::about::{About, Told};

/// A ruleset's kinds of event, as an enum of its own: each says how the
/// archive writes it, what it means to the map and sight, and who is told.
/// A match over the enum is what makes every kind a ruleset emits have a
/// class; a kind spelt wrong does not compile.
pub trait EventKind: Copy + std::fmt::Debug + 'static {
    /// Every kind, for the checks that run over them all.
    const ALL: &'static [Self];

    /// The kind as the archive writes it. Kinds told apart after archives
    /// were written (a shot made, a shot not made) may share one.
    fn name(self) -> &'static str;

    fn class(self) -> EventClass;

    fn told(self) -> Told;

    /// The class of an event read back from an archive, by the name it was
    /// written with: the first kind of that name.
    fn class_of_name(name: &str) -> EventClass {
        Self::ALL
            .iter()
            .find(|k| k.name() == name)
            .map_or(EventClass::Other, |k| k.class())
    }
}

/// What one event shows (see [`crate::rules::ruleset::Event::shows`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shows {
    pub class: EventClass,
    pub told: Told,
    /// Every unit and general its words name that its units do not list,
    /// by id: the enemy whose zone barred a move, the general who fell.
    pub also: Vec<String>,
    /// An attack made where its first unit stands, for the map to mark.
    pub strike: Option<Strike>,
    /// Its words with the sides they name kept as ids, where they name a
    /// side: what a reader is told, with the campaign's names (its text is
    /// these words with the ids, as archived).
    pub words: Option<Phrase>,
}

/// What a reader learns of one event or roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heard {
    /// The whole of it.
    Told,
    /// Only that the reader's own troops were in action against troops out
    /// of its sight (REP-1).
    OwnInAction,
    /// Nothing.
    Nothing,
}

/// Who reads a resolution: the game master, who is told everything; a
/// side; or the public (a campaign's observers), told only what every side
/// is told and nothing any side alone knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who<'a> {
    Gm,
    Side(&'a str),
    Public,
}

impl<'a> Who<'a> {
    /// The side that reads, if a side does.
    pub fn side(self) -> Option<&'a str> {
        match self {
            Who::Side(s) => Some(s),
            Who::Gm | Who::Public => None,
        }
    }
}

/// Who reads, as [`heard`] asks: `sees` says whether a unit or general is
/// in the reader's sight, `side_of` whose it is (a side's own id is its
/// own).
pub struct Hearer<'a> {
    pub who: Who<'a>,
    pub sees: &'a dyn Fn(&str) -> bool,
    pub side_of: &'a dyn Fn(&str) -> Option<String>,
}

/// What `hearer` learns of something `told` as it is, naming `ids` (the one
/// who acted first) (REP-3).
pub fn heard<'i>(told: Told, ids: impl IntoIterator<Item = &'i str>, hearer: &Hearer) -> Heard {
    let ids: Vec<&str> = ids.into_iter().collect();
    let side = match hearer.who {
        Who::Gm => return Heard::Told,
        // The public has no troops of its own and no side's secrets: what
        // everyone is told, and what happened in its sight (REP-4).
        Who::Public => {
            return match told {
                Told::Everyone => Heard::Told,
                Told::ActingSide => Heard::Nothing,
                Told::InSight if ids.iter().all(|id| (hearer.sees)(id)) => Heard::Told,
                Told::InSight => Heard::Nothing,
            };
        }
        Who::Side(side) => side,
    };
    match told {
        Told::Everyone => Heard::Told,
        Told::ActingSide => {
            let acting = ids.first().and_then(|id| (hearer.side_of)(id));
            if acting.as_deref() != Some(side) {
                Heard::Nothing
            } else if ids.iter().all(|id| (hearer.sees)(id)) {
                Heard::Told
            } else {
                // Its own order, barred by an enemy it does not see: the
                // words would name that enemy.
                Heard::OwnInAction
            }
        }
        Told::InSight => {
            if ids.iter().all(|id| (hearer.sees)(id)) {
                Heard::Told
            } else if ids
                .iter()
                .any(|id| (hearer.side_of)(id).as_deref() == Some(side))
            {
                Heard::OwnInAction
            } else {
                Heard::Nothing
            }
        }
    }
}

/// Declares a ruleset's enum of event kinds and its list of every kind
/// ([`EventKind::ALL`]) from one list, so that no kind is left out of the
/// checks that run over them all. The `EventKind` impl's other methods
/// are written by hand beside it, as matches with no wildcard.
#[macro_export]
macro_rules! event_kinds {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$vmeta:meta])* $variant:ident,)+ }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        $vis enum $name { $($(#[$vmeta])* $variant,)+ }

        impl $name {
            /// Every kind, in the order declared.
            pub const LIST: &'static [$name] = &[$($name::$variant,)+];
        }
    };
}
