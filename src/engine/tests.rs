//! Each request reads the campaign's state into its ruleset's types once
//! (docs/ARCHITECTURE.md, "A state is read once per request"): an order
//! text taken, a turn resolved and reported, an umpire call made, a
//! preview given. The states decoded while each runs are recorded
//! (`rules::testing::decoded_during`), and a second decode of one state is
//! a failure. The requests are made on the default demo campaign, whatever
//! its ruleset.

use chrono::{DateTime, Utc};

use crate::campaign::Campaign;
use crate::lifecycle::FixedClock;
use crate::rules::ruleset::Demo;
use crate::rules::testing::{decoded_during, most_decodes_of_one_state};
use crate::rules::{Ruleset, ruleset_for};
use crate::store::Store;

/// The default demo campaign, opened in a store of its own.
pub(crate) struct Opened {
    /// The campaign's folder and the store's, removed when it is dropped.
    pub _dir: tempfile::TempDir,
    pub store: Store,
    pub campaign: Campaign,
    pub ruleset: &'static dyn Ruleset,
    pub demo: Demo,
}

impl Opened {
    pub fn new() -> Opened {
        let dir = tempfile::tempdir().expect("dir");
        let folder = dir.path().join("campaign");
        let campaign = crate::demo::bundled_campaign(&folder).expect("loads");
        let ruleset = ruleset_for(&campaign.ruleset.id).expect("a known ruleset");
        let demo = ruleset.demo().expect("the default ruleset ships a demo");
        let mut store = Store::open(&dir.path().join("data")).expect("store");
        super::init(&mut store, &campaign, &folder, &Opened::now()).expect("init");
        Opened {
            _dir: dir,
            store,
            campaign,
            ruleset,
            demo,
        }
    }

    /// The moment every request is made at: the campaign's first phase.
    pub fn now() -> FixedClock {
        FixedClock(
            DateTime::parse_from_rfc3339("2026-01-05T10:00:00Z")
                .expect("valid")
                .with_timezone(&Utc),
        )
    }

    /// The side whose orders the phase waits for, and the orders its bot
    /// gives (every line of which its rules accept).
    pub fn orders(&self) -> (String, String) {
        let record = self.store.campaign(&self.campaign.id).expect("campaign");
        let state = self
            .store
            .state(&record.current_state_digest)
            .expect("state");
        let read = self.ruleset.read(&state).expect("the state reads");
        let side = state.active_side.clone();
        let lines = self.ruleset.bot_orders(&read, &side);
        assert!(!lines.is_empty(), "the bot of {side} gives no orders");
        (side, lines.join("\n"))
    }

    /// `side`'s orders, submitted.
    fn submit(&mut self, side: &str, orders: &str) {
        let id = self.campaign.id.clone();
        super::submit(&mut self.store, &id, side, orders, &Opened::now(), None).expect("submitted");
    }
}

#[test]
fn an_order_text_is_acknowledged_on_one_reading_of_the_state() {
    let mut opened = Opened::new();
    let (side, orders) = opened.orders();
    let id = opened.campaign.id.clone();
    let (submitted, decoded) = decoded_during(|| {
        super::submit(&mut opened.store, &id, &side, &orders, &Opened::now(), None)
    });
    assert!(submitted.expect("submitted").stored);
    assert_eq!(
        decoded.len(),
        1,
        "the state was decoded {} times",
        decoded.len()
    );
}

#[test]
fn a_turn_is_resolved_and_reported_on_one_reading_of_each_state() {
    let mut opened = Opened::new();
    let (side, orders) = opened.orders();
    opened.submit(&side, &orders);
    let id = opened.campaign.id.clone();
    let (resolved, decoded) =
        decoded_during(|| super::resolve_now(&mut opened.store, &id, &Opened::now()));
    assert_eq!(resolved.expect("resolved").len(), 1);
    // The prior state, resolved and reported on; the next, reported on.
    assert_eq!(
        most_decodes_of_one_state(&decoded),
        1,
        "a state was decoded more than once: {} decodes in all",
        decoded.len()
    );
    assert_eq!(decoded.len(), 2, "{} decodes", decoded.len());
}

#[test]
fn an_umpire_call_is_tried_and_resolved_on_one_reading_of_the_state() {
    let mut opened = Opened::new();
    let call = opened.demo.calls.first().expect("the demo has a call");
    let id = opened.campaign.id.clone();
    let (called, decoded) =
        decoded_during(|| super::umpire(&mut opened.store, &id, call, &Opened::now()));
    called.expect("the call is made");
    assert_eq!(
        decoded.len(),
        1,
        "the state was decoded {} times",
        decoded.len()
    );
}

#[test]
fn a_preview_reads_the_state_once() {
    let mut opened = Opened::new();
    let (side, orders) = opened.orders();
    opened.submit(&side, &orders);
    let (preview, decoded) =
        decoded_during(|| super::preview::describe(&opened.store, &opened.campaign.id));
    assert!(preview.expect("a preview").starts_with("PREVIEW"));
    assert_eq!(
        decoded.len(),
        1,
        "the state was decoded {} times",
        decoded.len()
    );
}
