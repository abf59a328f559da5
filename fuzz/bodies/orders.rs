//! A player's orders, through the boundary every ruleset shares
//! (`Ruleset::read_line`, `check_orders`, `planned`, `resolve`), against real
//! states of the ruleset's own demo campaign: the state it begins in and
//! those after each phase of its first turns, played by its bots.
//!
//! The input's first byte picks the state and the side; the rest is the
//! order text, as a player's mail carries it.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use adjutant::audit::Digest32;
use adjutant::audit::dice::DiceStream;
use adjutant::rules::Ruleset;
use adjutant::rules::registry::{RULESETS, ruleset_for};
use adjutant::rules::ruleset::SideText;
use adjutant::rules::state::GameState;

/// The name of a ruleset's orders target: `orders_` and its module's name.
pub fn target_name(ruleset: &str) -> String {
    format!("orders_{}", ruleset.replace('-', "_"))
}

/// How many phases past the first the prepared states reach: enough for
/// two turns of every ruleset in the registry.
const PHASES_PLAYED: usize = 8;

/// A state to send orders in, with what each side's bot orders read as
/// there (their canonical text), for the sides the input does not write.
struct Prepared {
    state: GameState,
    bots: BTreeMap<String, String>,
}

/// The states of each ruleset, made once per process (by position in
/// the registry).
fn prepared(ruleset: &'static dyn Ruleset) -> &'static [Prepared] {
    static PREPARED: [OnceLock<Vec<Prepared>>; 8] = [const { OnceLock::new() }; 8];
    let at = RULESETS
        .iter()
        .position(|r| r.id() == ruleset.id())
        .expect("a ruleset of the registry");
    PREPARED[at].get_or_init(|| prepare(ruleset))
}

fn prepare(ruleset: &dyn Ruleset) -> Vec<Prepared> {
    let campaign = super::demo_campaign(ruleset);
    let mut state = campaign
        .initial_state(ruleset)
        .unwrap_or_else(|e| panic!("{}: no initial state: {e}", ruleset.id()));
    let mut states = Vec::new();
    for phase in 0..=PHASES_PLAYED {
        let read = ruleset
            .read(&state)
            .unwrap_or_else(|e| panic!("{}: a state it resolved does not read: {e}", ruleset.id()));
        let bots: BTreeMap<String, String> = state
            .sides
            .iter()
            .map(|side| {
                let text = ruleset.bot_orders(&read, side).join("\n");
                let canonical = ruleset.check_orders(&read, side, &text).canonical_text();
                (side.clone(), canonical)
            })
            .collect();
        let texts: BTreeMap<String, SideText<'_>> = bots
            .iter()
            .map(|(side, text)| (side.clone(), SideText::Sent(text.as_str())))
            .collect();
        let seed = Digest32::of(format!("fuzz {} {phase}", ruleset.id()).as_bytes());
        let next = ruleset.resolve(&read, &texts, &mut DiceStream::new(&seed));
        states.push(Prepared {
            state: state.clone(),
            bots: bots.clone(),
        });
        drop(read);
        match next {
            Ok(resolution) if resolution.state.finished.is_none() => state = resolution.state,
            _ => break,
        }
    }
    states
}

/// Runs one input against the ruleset `id`.
pub fn run(id: &str, data: &[u8]) {
    let ruleset = ruleset_for(id).unwrap_or_else(|| panic!("no ruleset {id}"));
    let states = prepared(ruleset);
    let Some((&choice, text)) = data.split_first() else {
        return;
    };
    let choice = usize::from(choice);
    let here = &states[choice % states.len()];
    let state = &here.state;
    let side = &state.sides[(choice / states.len()) % state.sides.len()];
    // Mail reaches the rules as text: the parser has decoded any charset.
    let text = String::from_utf8_lossy(text);

    // The syntax step alone: a line that reads gives its canonical text,
    // which reads again as itself.
    for line in text.lines() {
        if let Ok(canonical) = ruleset.read_line(line) {
            assert_eq!(
                ruleset.read_line(&canonical).as_ref(),
                Ok(&canonical),
                "{id}: the canonical text of {line:?} does not read as itself"
            );
        }
    }

    // The state, read once for all that follows, as one mail reads it.
    let read = ruleset
        .read(state)
        .unwrap_or_else(|e| panic!("{id}: a prepared state does not read: {e}"));

    // Both steps, as `engine::submit` takes a side's mail. What it stores is
    // the canonical text of the lines accepted; the resolution reads that
    // text again and refuses it unless it checks clean and is canonical.
    let sheet = ruleset.check_orders(&read, side, &text);
    let canonical = sheet.canonical_text();
    if sheet.accepted.is_empty() && sheet.salt.is_empty() {
        return;
    }
    let again = ruleset.check_orders(&read, side, &canonical);
    assert!(
        again.is_clean(),
        "{id}, {side}: the accepted orders no longer check: {:?}\n{canonical}",
        again.refusals()
    );
    assert_eq!(
        again.canonical_text(),
        canonical,
        "{id}, {side}: the accepted orders are not canonical"
    );

    // The acknowledgement's map of the orders as they will be tried.
    let _ = ruleset.planned(&read, side, &canonical);

    // The phase resolved with these orders and the bots' for the others.
    let mut texts: BTreeMap<String, SideText<'_>> = here
        .bots
        .iter()
        .map(|(s, t)| (s.clone(), SideText::Sent(t.as_str())))
        .collect();
    texts.insert(side.clone(), SideText::Sent(canonical.as_str()));
    let seed = Digest32::of(data);
    if let Err(e) = ruleset.resolve(&read, &texts, &mut DiceStream::new(&seed)) {
        panic!("{id}, {side}: accepted orders do not resolve: {e}\n{canonical}");
    }
}

/// Seeds from the ruleset itself, for `fuzz/corpus/`: in each prepared state,
/// for each side, the orders its bot gives and the order template its
/// report offers a player, each with the first byte that picks that state
/// and side. Named `<what>-<state>-<side>`.
pub fn seeds(id: &str) -> Vec<(String, Vec<u8>)> {
    let ruleset = ruleset_for(id).unwrap_or_else(|| panic!("no ruleset {id}"));
    let states = prepared(ruleset);
    let mut seeds = Vec::new();
    for (at, here) in states.iter().enumerate() {
        for (s, side) in here.state.sides.iter().enumerate() {
            let choice = u8::try_from(at + s * states.len()).expect("few states and sides");
            let read = ruleset
                .read(&here.state)
                .unwrap_or_else(|e| panic!("{id}: a prepared state does not read: {e}"));
            for (what, lines) in [
                ("bot", ruleset.bot_orders(&read, side)),
                ("template", ruleset.order_template(&read, side)),
            ] {
                let mut input = vec![choice];
                input.extend_from_slice(lines.join("\n").as_bytes());
                seeds.push((format!("{what}-{at}-{side}"), input));
            }
        }
    }
    seeds
}
