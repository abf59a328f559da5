//! The percentile fire chapter: chapter 11.0 "Fire Combat" of a detailed
//! Napoleonic ruleset, on a continuous table, percentile dice.
//!
//! "During the Reciprocal Fire Phases, both Players may fire all, some or
//! none of their eligible units by alternately firing one unit at a time
//! until all desired, permissible fire has been executed in accordance with
//! the Fire Procedure and the Fire Combat rules." The chapter gives the
//! Fire Routines (11.15, 11.16) and who may fire at whom; its charts and
//! tables are the campaign's parameters (`params`, sample data shipped).

pub mod basing;
pub mod params;
pub mod setup;
pub mod state;

pub use state::{PfGame, PfUnit, State, Unit};

/// The id campaigns name the ruleset by.
pub const ID: &str = "percentile-fire";

/// The ruleset as a value; its campaign's readings and tables are carried
/// in the game state (`options`, `params`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PercentileFire;
