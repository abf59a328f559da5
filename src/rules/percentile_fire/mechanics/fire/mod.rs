//! One fire attack: its zone and chart row (`zone`), its modifiers in the
//! order they apply (`factors`), and the Fire Routine that rolls and reads
//! the chart (`routine`). Umpire calls and turns set attacks up their own
//! way and resolve them here alike.

pub mod effect;
pub mod factors;
pub mod routine;
pub mod zone;

pub use crate::rules::refusal::Refusal;
