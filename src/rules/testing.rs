//! What the unit tests share: the state a ruleset's own demo campaign
//! opens with, read from the folder it ships in; and a record of the states
//! decoded into a ruleset's types, for the tests that hold a request to
//! reading its state once (docs/ARCHITECTURE.md, "A state is read once per
//! request").

use std::cell::RefCell;

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

thread_local! {
    /// The states [`GameState::typed`] decoded on this thread while
    /// [`decoded_during`] records; `None` while nothing records, so that
    /// other tests keep no copy of the states they decode.
    static DECODED: RefCell<Option<Vec<GameState>>> = const { RefCell::new(None) };
}

/// Notes that `state` was decoded into a ruleset's types (called by
/// [`GameState::typed`]).
pub(crate) fn note_decoded(state: &GameState) {
    DECODED.with(|decoded| {
        if let Some(states) = decoded.borrow_mut().as_mut() {
            states.push(state.clone());
        }
    });
}

/// Runs `f`, and gives back with its result every state decoded into a
/// ruleset's types meanwhile on this thread, in the order they were.
pub fn decoded_during<T>(f: impl FnOnce() -> T) -> (T, Vec<GameState>) {
    let outer = DECODED.with(|decoded| decoded.borrow_mut().replace(Vec::new()));
    let out = f();
    let states = DECODED.with(|decoded| std::mem::replace(&mut *decoded.borrow_mut(), outer));
    (out, states.unwrap_or_default())
}

/// How many times the state decoded most often in `states` was decoded.
pub fn most_decodes_of_one_state(states: &[GameState]) -> usize {
    states
        .iter()
        .map(|s| states.iter().filter(|t| *t == s).count())
        .max()
        .unwrap_or(0)
}
