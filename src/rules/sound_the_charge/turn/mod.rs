//! The turn of Sound the Charge, phase by phase.
//!
//! "The active side tests to rally shaken units, then moves all desired
//! units, including making charge moves. [...] The active side then does all
//! shooting with eligible units. Passive units test if hit by shooting. Both
//! sides fight one round of close combat with units in contact with each
//! other. Losing units automatically do retreat moves and suffer rout hits."

pub mod fighting;
pub mod retreat;
pub mod shooting;
