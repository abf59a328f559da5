//! What the rulesets' unit tests share: the state a ruleset's own demo
//! campaign opens with, read from the folder it ships in.

use super::facade::Ruleset;
use super::ruleset::{Presentation, Rules};
use super::state::GameState;

/// The initial state of the campaign `rules` ships as its demo
/// ([`Rules::demo`]), loaded from `campaigns/` as `adjutant demo` loads it.
pub fn demo_state<R: Rules + Presentation>(rules: &R) -> GameState<R> {
    let demo = rules.demo().expect("the ruleset ships a demo campaign");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("campaigns")
        .join(demo.folder);
    let campaign = crate::campaign::load(&dir).expect("the demo campaign loads");
    campaign
        .initial_state(rules as &dyn Ruleset)
        .expect("its initial state")
        .typed::<R>()
        .expect("its parts read")
}
