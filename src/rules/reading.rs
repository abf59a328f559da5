//! A state read once into its ruleset's own types for the length of one
//! request. A report asks many things of the same state (what is drawn,
//! who sees what, the aims, the order template, how the game ended): each
//! question is asked of the reading, so the state's parts are decoded once,
//! and a state that does not read is an error where it is read, never an
//! empty answer further on.

use std::any::Any;
use std::borrow::Cow;
use std::ops::Deref;
use std::sync::Arc;

use super::state::{GameState, Parts};

/// One state and its parts as its ruleset's types. It derefs to the raw
/// state, which every question about sides, units' places and the phase
/// reads alike. It borrows the raw state, or owns it where the reading is
/// kept (a chronicle holds every state of its campaign read). A clone
/// shares the typed state.
#[derive(Clone)]
pub struct Reading<'a> {
    raw: Cow<'a, GameState>,
    ruleset: &'static str,
    typed: Arc<dyn Any + Send + Sync>,
}

impl<'a> Reading<'a> {
    /// The reading of `raw` by ruleset `ruleset`, whose typed state is
    /// `typed`. Only the facade makes one (`Ruleset::read`).
    pub(super) fn new<R: Parts + 'static>(
        raw: Cow<'a, GameState>,
        ruleset: &'static str,
        typed: GameState<R>,
    ) -> Reading<'a>
    where
        GameState<R>: Send + Sync,
    {
        Reading {
            raw,
            ruleset,
            typed: Arc::new(typed),
        }
    }

    /// The same reading, borrowing its raw state: it shares the typed
    /// state and copies nothing.
    pub fn borrowed(&self) -> Reading<'_> {
        Reading {
            raw: Cow::Borrowed(&self.raw),
            ruleset: self.ruleset,
            typed: Arc::clone(&self.typed),
        }
    }

    /// The raw state it was read from.
    pub fn raw(&self) -> &GameState {
        &self.raw
    }

    /// The typed state, for the ruleset that read it. Asking another
    /// ruleset's question of it is a mistake in the program, not in any
    /// input: the engine reads a state with the ruleset it then asks.
    pub(super) fn typed<R: Parts + 'static>(&self) -> &GameState<R> {
        self.typed.downcast_ref().unwrap_or_else(|| {
            panic!(
                "a state read by {} was asked of another ruleset",
                self.ruleset
            )
        })
    }
}

impl std::fmt::Debug for Reading<'_> {
    /// The raw state, and which ruleset read it: the typed state says
    /// nothing more.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reading")
            .field("ruleset", &self.ruleset)
            .field("raw", &self.raw)
            .finish_non_exhaustive()
    }
}

impl Deref for Reading<'_> {
    type Target = GameState;

    fn deref(&self) -> &GameState {
        &self.raw
    }
}
