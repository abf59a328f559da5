//! The rules core: pure functions from (state, orders, dice) to (state,
//! events). Nothing here reads a file, a clock or the network, iterates a
//! hash map, or uses platform maths, so a replay gives the same bytes on any
//! machine. Illegal or impossible orders are outcomes, never failures.
//!
//! The shared part: the state's envelope (`state`), the board (`board`), the
//! traits a ruleset implements (`ruleset`), how it reads its set-up
//! (`setup`) and is drawn (`look`), orders (`orders`), words and lengths
//! (`words`), the GM's corrections (`correction`), umpire call reports
//! (`umpire`), what an event or a roll shows and to whom (`told`), words that name sides (`phrase`), table pieces (`kernel`), and the list of rulesets
//! (`registry`, which declares each ruleset's folder, seen here as
//! `rules::<ruleset>`).

pub mod board;
pub mod correction;
pub mod facade;
pub mod kernel;
pub mod look;
pub mod names;
pub mod orders;
pub mod phrase;
pub mod reading;
pub mod refusal;
pub mod registry;
pub mod ruleset;
pub mod setup;
pub mod state;
#[cfg(test)]
pub mod testing;
pub mod told;
pub mod umpire;
pub mod victory;
pub mod words;

pub use facade::Ruleset;
pub use registry::*;
pub use ruleset::{PhaseKind, PhaseSpec, Presentation, Resolution, Rules};
pub use state::GameState;
pub use umpire::{UmpireError, UmpireLine, UmpireReport};
