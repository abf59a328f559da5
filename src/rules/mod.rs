//! The rules core: pure functions from (state, orders, dice) to (state,
//! events). Nothing here reads a file, a clock or the network, iterates a
//! hash map, or uses platform maths, so a replay gives the same bytes on any
//! machine. Illegal or impossible orders are outcomes, never failures.

pub mod board;
pub mod correction;
pub mod kernel;
pub mod orders;
pub mod ruleset;
pub mod sound_the_charge;
pub mod state;
pub mod umpire;

pub use ruleset::{PhaseKind, PhaseSpec, Resolution, Ruleset, ruleset_for};
pub use state::GameState;
pub use umpire::{UmpireError, UmpireLine, UmpireReport};
