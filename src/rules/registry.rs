//! The rulesets adjutant knows: the one place outside a ruleset's own folder
//! that names it. Each ruleset's folder is declared here as a module (seen
//! from outside as `rules::<name>`), and its value listed in [`RULESETS`];
//! adding a ruleset adds one line to each.

#[path = "sound_the_charge/mod.rs"]
pub mod sound_the_charge;

#[path = "kulikovo/mod.rs"]
pub mod kulikovo;

#[path = "grande_tactique/mod.rs"]
pub mod grande_tactique;

#[path = "percentile_fire/mod.rs"]
pub mod percentile_fire;

use super::facade::Ruleset;
use grande_tactique::GrandeTactique;
use kulikovo::Kulikovo;
use percentile_fire::PercentileFire;
use sound_the_charge::SoundTheCharge;

/// Every ruleset, in the order `adjutant demo` offers them (the first is
/// the default).
pub const RULESETS: &[&dyn Ruleset] =
    &[&SoundTheCharge, &Kulikovo, &GrandeTactique, &PercentileFire];

/// The ruleset a campaign names, if adjutant knows it.
pub fn ruleset_for(id: &str) -> Option<&'static dyn Ruleset> {
    RULESETS.iter().copied().find(|r| r.id() == id)
}

/// The ids of every ruleset, for error messages.
pub fn known_rulesets() -> Vec<&'static str> {
    RULESETS.iter().map(|r| r.id()).collect()
}
