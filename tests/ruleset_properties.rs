//! Properties every ruleset's resolution keeps, whichever ruleset it is.
//! Each test runs over every ruleset of the registry through the shared
//! `Ruleset` boundary and names none of them: a ruleset added to the
//! registry is covered as it is added.
//!
//! - The order in which the sides' orders arrive changes nothing.
//! - Replay gives identical bytes.
//! - Strengths never go negative.
//! - No unit ends inside another.
//! - No side is told of what it cannot see (REP-1, REP-3).
//!
//! What is resolved: every turn case of the case catalog (its position, its
//! orders and its forced dice, `tests/cases/<ruleset>/turns/`), each
//! followed by resolutions of random orders; and games from each ruleset's
//! demo position and from the catalog's positions, resolution after
//! resolution with seeded dice, the sides' orders those of the rulesets'
//! bots and templates, perturbed at random and mixed with the shapes of the
//! catalog's order lines (see [`orders_of`]). The seeds are fixed, so that a
//! failure reproduces: its message names the seed, the position and the
//! resolution. `ADJUTANT_PROPERTY_GAMES=<n>` plays n games of each ruleset
//! rather than the few of a default run, and
//! `ADJUTANT_PROPERTY_RESOLUTIONS=<n>` makes each of them n resolutions long,
//! and `ADJUTANT_PROPERTY_ONLY=<name>` plays only the game a failure names
//! (with the same two variables as the run that found it); docs/RELIABILITY.md
//! gives the figures of the last long run.

mod catalog;
mod support;

use support::seeded::SplitMix;

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::OnceLock;
use std::time::Instant;

use adjutant::audit::Digest32;
use adjutant::audit::dice::{Dice, DiceStream, ForcedDice, Roll};
use adjutant::campaign::load_texts;
use adjutant::geometry::Rect;
use adjutant::rules::board::Location;
use adjutant::rules::reading::Reading;
use adjutant::rules::ruleset::{Event, SideText};
use adjutant::rules::state::GameState;
use adjutant::rules::{PhaseKind, RULESETS, Ruleset};
use serde_json::Value;

use catalog::{TurnCase, case_files};

// ---- the properties ----

/// docs/RULINGS.md REP-1 and REP-3, for every side after every resolution:
/// every event and every roll says, as data, what it shows and to whom;
/// and nothing a side is told (an event's words, a roll's purpose) or shown
/// (its map) names a unit or general out of its sight at that moment. What
/// is told is decided from the data; the names are looked for in the words
/// here only, as the check. A name found only inside the name of a unit
/// the side does see (a "Guard" inside "Guard Grenadiers") is not counted.
#[test]
fn no_side_is_told_of_what_it_cannot_see() {
    every_resolution("what a side is told", told_problems);
}

fn told_problems(step: &Step<'_>) -> Vec<String> {
    use adjutant::report::heard::Audience as Hearer;
    use adjutant::rules::told::Heard;
    let mut problems = Vec::new();
    let (prior, next) = (step.prior, &step.next.state);
    let events = &step.next.events;
    for e in events.iter().filter(|e| e.shows.is_none()) {
        problems.push(format!(
            "the event `{}` ({}) says nothing of what it shows",
            e.text, e.kind
        ));
    }
    for r in step.next.rolls.iter().filter(|r| r.about.is_none()) {
        problems.push(format!(
            "roll {} ({}) says nothing of whom it concerns",
            r.index, r.purpose
        ));
    }
    // Each side, and the public (observers, REP-4), who sees only what
    // every side sees.
    let audiences = next
        .sides
        .iter()
        .map(|s| adjutant::report::Audience::Side(s.clone()))
        .chain([adjutant::report::Audience::Public]);
    let read = step.ruleset.read(next).expect("the state reads");
    let prior_read = step.ruleset.read(prior).expect("the state reads");
    for audience in audiences {
        let side = audience.word().to_string();
        let visible = adjutant::report::visibility(step.ruleset, &read, &audience, events);
        let hearer = Hearer::new(audience.who(), visible.as_ref(), prior, next);
        let sees = |id: &str| visible.as_ref().is_none_or(|v| v.contains(id));
        let pieces = |state: &GameState| -> Vec<(String, String)> {
            state
                .units
                .iter()
                .map(|u| (u.id.clone(), u.name.clone()))
                .chain(
                    state
                        .generals
                        .iter()
                        .map(|g| (g.id.clone(), g.name.clone())),
                )
                .collect()
        };
        let mut all = pieces(next);
        all.extend(pieces(prior));
        all.sort();
        all.dedup();
        let (seen, hidden): (Vec<_>, Vec<_>) = all.into_iter().partition(|(id, _)| sees(id));
        let names_hidden = |words: &str| -> Option<String> {
            hidden.iter().find_map(|(id, name)| {
                (mentions(words, id, &seen) || mentions(words, name, &seen))
                    .then(|| format!("{name} ({id})"))
            })
        };
        for e in events {
            if hearer.event(e) != Heard::Told {
                continue;
            }
            if let Some(who) = names_hidden(&e.text) {
                problems.push(format!(
                    "{side} is told `{}`, which names {who}, out of its sight",
                    e.text
                ));
            }
        }
        for r in &step.next.rolls {
            if hearer.roll(r)
                && let Some(who) = names_hidden(&r.purpose)
            {
                problems.push(format!(
                    "{side} is shown roll {} `{}`, which names {who}, out of its sight",
                    r.index, r.purpose
                ));
            }
        }
        let drawn: Vec<Event> = events
            .iter()
            .filter(|e| hearer.event(e) != Heard::Nothing)
            .cloned()
            .collect();
        let svg = adjutant::map::svg(&adjutant::map::MapInput {
            title: "",
            ruleset: step.ruleset,
            prior: &prior_read,
            next: &read,
            events: &drawn,
            visible: visible.as_ref(),
            strengths: adjutant::map::Strengths::Seen,
        });
        if let Some(who) = names_hidden(&svg) {
            problems.push(format!("{side}'s map shows {who}, out of its sight"));
        }
    }
    problems
}

/// Whether `words` name `name` as a word of its own (no letter, digit, `-`
/// or `_` either side), other than inside a name in `seen`. A name of one
/// or two letters (the catalog's positions call units `a`, `b`, `l`) cannot
/// be told from an article or a word of the text, and is not looked for:
/// what is told is decided from the ids the rules give, which this search
/// only checks.
fn mentions(words: &str, name: &str, seen: &[(String, String)]) -> bool {
    if name.chars().count() < 3 {
        return false;
    }
    let part = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let inside_seen = |at: usize| {
        seen.iter().flat_map(|(id, n)| [id, n]).any(|s| {
            s.len() > name.len()
                && words
                    .match_indices(s.as_str())
                    .any(|(from, m)| from <= at && at + name.len() <= from + m.len())
        })
    };
    words.match_indices(name).any(|(at, m)| {
        let before = words[..at].chars().next_back();
        let after = words[at + m.len()..].chars().next();
        !before.is_some_and(part) && !after.is_some_and(part) && !inside_seen(at)
    })
}

/// The sides' orders reach the ruleset as a map keyed by side, so the order
/// in which they were handed over cannot show by construction; what can is
/// the order the ruleset takes them from that map in, which is the byte
/// order of the sides' ids. So the sides are renamed (see [`stand_ins`])
/// with ids whose byte order is the reverse of theirs, the same orders
/// resolved with the same dice, and the result renamed back must be the same
/// bytes: state, events and every roll, in the same order.
#[test]
fn the_arrival_order_of_sides_orders_changes_nothing() {
    every_resolution("arrival order", arrival_problems);
}

fn arrival_problems(step: &Step<'_>) -> Vec<String> {
    let names = stand_ins(&step.prior.sides);
    let prior = match renamed(step.prior, &names) {
        Ok(p) => p,
        Err(e) => return vec![e],
    };
    let texts: BTreeMap<String, Sheet> = step
        .texts
        .iter()
        .map(|(side, sheet)| (names[side].clone(), sheet.clone()))
        .collect();
    match resolve(step.ruleset, &prior, &texts, step.dice) {
        Err(e) => vec![format!("with the sides renamed, the orders fail: {e}")],
        Ok(other) => {
            let back: BTreeMap<String, String> = names
                .iter()
                .map(|(name, stand_in)| (stand_in.clone(), name.clone()))
                .collect();
            differences(
                &step.next.bytes(),
                &Bytes::of_value(
                    &with_names(&other.state, &back),
                    &with_names(&other.events, &back),
                    &with_names(&other.rolls, &back),
                ),
                "in the order the sides were given",
                "with the sides' order reversed",
            )
        }
    }
}

/// The same prior state, orders and dice resolve to the same bytes twice;
/// and so does the prior state read back from its own canonical bytes, as
/// the archive and `verify` hold it, which must itself give those bytes
/// again.
#[test]
fn replay_gives_identical_bytes() {
    every_resolution("replay", replay_problems);
}

fn replay_problems(step: &Step<'_>) -> Vec<String> {
    let mut problems = Vec::new();
    let first = step.next.bytes();
    match resolve(step.ruleset, step.prior, step.texts, step.dice) {
        Ok(again) => problems.extend(differences(&first, &again.bytes(), "first", "again")),
        Err(e) => problems.push(format!("the second resolution fails: {e}")),
    }
    let stored = adjutant::canonical::to_string(&step.prior);
    let read: GameState = match serde_json::from_str(&stored) {
        Ok(s) => s,
        Err(e) => return vec![format!("the prior state does not read back: {e}")],
    };
    let restored = adjutant::canonical::to_string(&read);
    if restored != stored {
        problems.push(format!(
            "the prior state's bytes change on reading back: {}",
            first_difference(&stored, &restored)
        ));
    }
    match resolve(step.ruleset, &read, step.texts, step.dice) {
        Ok(replayed) => problems.extend(differences(
            &first,
            &replayed.bytes(),
            "from the state in memory",
            "from its stored bytes",
        )),
        Err(e) => problems.push(format!("from the stored bytes, the orders fail: {e}")),
    }
    problems
}

/// No count goes below zero. Every count a state holds is an unsigned
/// number, so going below zero shows as a panic in a build whose
/// arithmetic is checked (a debug build, as `cargo test` makes, or the long
/// run's: docs/RELIABILITY.md), or as a count that wrapped round to some
/// four thousand million where a value was cast: no whole number in a
/// unit, the game's part or the parameters may reach 2^31 either way. A
/// unit's strength (figures, or steps) is no more than it began the game
/// with, never rises in a resolution, and what it began with never changes.
#[test]
fn strengths_never_go_negative() {
    every_resolution("strengths", strength_problems);
}

fn strength_problems(step: &Step<'_>) -> Vec<String> {
    let mut problems = Vec::new();
    let next = &step.next.state;
    for u in &next.units {
        if u.strength > u.original_strength {
            problems.push(format!(
                "{} has strength {} of an original {}",
                u.id, u.strength, u.original_strength
            ));
        }
        if let Some(before) = step.prior.unit(&u.id) {
            if u.strength > before.strength {
                problems.push(format!(
                    "{}'s strength rose from {} to {}",
                    u.id, before.strength, u.strength
                ));
            }
            if u.original_strength != before.original_strength {
                problems.push(format!(
                    "{}'s original strength changed from {} to {}",
                    u.id, before.original_strength, u.original_strength
                ));
            }
        }
        match serde_json::to_value(u) {
            Ok(v) => out_of_range(&format!("unit {}", u.id), &v, &mut problems),
            Err(e) => problems.push(format!("{} does not serialise: {e}", u.id)),
        }
    }
    match serde_json::to_value(next) {
        Ok(Value::Object(mut whole)) => {
            // The units are done above; the rest is the envelope, the
            // game's part (flattened into it) and the parameters.
            whole.remove("units");
            out_of_range("the game", &Value::Object(whole), &mut problems);
        }
        _ => problems.push("the state does not serialise".to_string()),
    }
    problems
}

/// After every resolution, no two units in play overlap on a table (their
/// footprints from `Ruleset::footprint`; in contact they touch); on a map
/// of places (hexes), where the rules let units share a place, no place
/// holds units of two sides or more of a side's than the ruleset's
/// stacking limit (`Ruleset::stacking_limit`). A place already over the
/// limit before the resolution may stay as full, and two units that stood
/// on each other in the position given and did not move may stay so: the
/// test is what a resolution does.
#[test]
fn no_unit_ends_inside_another() {
    every_resolution("no unit inside another", overlap_problems);
}

fn overlap_problems(step: &Step<'_>) -> Vec<String> {
    let (prior, next) = (&step.prior, &step.next.state);
    let mut problems = Vec::new();
    let rects = footprints(step.ruleset, next);
    let before: BTreeMap<String, Rect> = footprints(step.ruleset, prior).into_iter().collect();
    for (i, (a, ra)) in rects.iter().enumerate() {
        for (b, rb) in &rects[i + 1..] {
            let as_given = before.get(a) == Some(ra) && before.get(b) == Some(rb);
            if ra.overlaps(rb) && !as_given {
                // What the resolution told of the two, to see how they met.
                let told: Vec<String> = step
                    .next
                    .events
                    .iter()
                    .filter(|e| e.units.iter().any(|u| u == a || u == b))
                    .map(|e| format!("[{}] {}", e.kind, e.text))
                    .collect();
                problems.push(format!("{a} overlaps {b}; of them: {}", told.join(" ")));
            }
        }
    }
    let Some(limit) = step.ruleset.stacking_limit(&reading(step.ruleset, next)) else {
        let unplaced: Vec<&str> = in_play(next)
            .filter(|u| matches!(u.location, Location::Hex { .. }))
            .map(|u| u.id.as_str())
            .collect();
        if !unplaced.is_empty() {
            problems.push(format!(
                "the ruleset gives no stacking limit for units on a map of places: {unplaced:?}"
            ));
        }
        return problems;
    };
    let (now, then) = (places(next), places(prior));
    for (hex, sides) in &now {
        if sides.len() > 1 && then.get(hex).is_none_or(|s| s.len() < 2) {
            problems.push(format!("hex {hex:?} holds units of two sides: {sides:?}"));
        }
        for (side, units) in sides {
            let was = then.get(hex).and_then(|s| s.get(side)).map_or(0, Vec::len);
            if units.len() > limit as usize && units.len() > was {
                problems.push(format!(
                    "hex {hex:?} holds {} units of {side} ({units:?}), over the limit of {limit}",
                    units.len()
                ));
            }
        }
    }
    problems
}

/// Every whole number in `value` below 2^31 either way.
fn out_of_range(what: &str, value: &Value, problems: &mut Vec<String>) {
    fn walk(path: &str, value: &Value, found: &mut Vec<String>) {
        match value {
            Value::Number(n) => {
                let fits = n.as_i64().is_some_and(|v| v.unsigned_abs() < 1 << 31);
                if !fits {
                    found.push(format!("{path} = {n}"));
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    walk(&format!("{path}[{i}]"), v, found);
                }
            }
            Value::Object(map) => {
                for (k, v) in map {
                    walk(&format!("{path}.{k}"), v, found);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk("", value, &mut found);
    for f in found {
        problems.push(format!("{what}: {f}, a count gone below zero"));
    }
}

fn in_play(state: &GameState) -> impl Iterator<Item = &adjutant::rules::state::UnitState> {
    state.units.iter().filter(|u| u.eliminated.is_none())
}

/// The footprints of the units in play, by id.
fn footprints(ruleset: &dyn Ruleset, state: &GameState) -> Vec<(String, Rect)> {
    in_play(state)
        .filter_map(|u| ruleset.footprint(u).map(|r| (u.id.clone(), r)))
        .collect()
}

/// The units in play on each hex, by side.
fn places(state: &GameState) -> BTreeMap<(u32, u32), BTreeMap<String, Vec<String>>> {
    let mut at: BTreeMap<(u32, u32), BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for u in in_play(state) {
        if let Location::Hex { column, row } = u.location {
            at.entry((column, row))
                .or_default()
                .entry(u.side.clone())
                .or_default()
                .push(u.id.clone());
        }
    }
    at
}

// ---- resolving, and the bytes of a resolution ----

/// A side's orders for a resolution: sent, as canonical text, or last
/// turn's standing (see `SideText`).
#[derive(Debug, Clone)]
enum Sheet {
    Sent(String),
    Standing(String),
}

/// How a resolution's dice are thrown: a catalog case's, or the audited
/// stream of a seed.
#[derive(Debug, Clone)]
enum DiceSpec {
    Forced(Vec<u32>),
    Seeded(Digest32),
}

/// What one resolution gave.
struct Resolved {
    state: GameState,
    events: Vec<Event>,
    rolls: Vec<Roll>,
}

impl Resolved {
    fn bytes(&self) -> Bytes {
        Bytes {
            state: adjutant::canonical::to_string(&self.state),
            events: adjutant::canonical::to_string(&self.events),
            rolls: adjutant::canonical::to_string(&self.rolls),
        }
    }
}

/// A resolution as canonical bytes, as the archive holds it.
struct Bytes {
    state: String,
    events: String,
    rolls: String,
}

impl Bytes {
    fn of_value(state: &Value, events: &Value, rolls: &Value) -> Bytes {
        Bytes {
            state: adjutant::canonical::to_string(state),
            events: adjutant::canonical::to_string(events),
            rolls: adjutant::canonical::to_string(rolls),
        }
    }
}

fn differences(a: &Bytes, b: &Bytes, a_is: &str, b_is: &str) -> Vec<String> {
    [
        ("state", &a.state, &b.state),
        ("events", &a.events, &b.events),
        ("dice", &a.rolls, &b.rolls),
    ]
    .into_iter()
    .filter(|(_, x, y)| x != y)
    .map(|(what, x, y)| {
        format!(
            "the {what} differ {a_is} and {b_is}: {}",
            first_difference(x, y)
        )
    })
    .collect()
}

/// Where two texts first differ, with some of each around it.
fn first_difference(a: &str, b: &str) -> String {
    let at = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i);
    let from = a[..at].char_indices().rev().nth(60).map_or(0, |(i, _)| i);
    let around = |s: &str| {
        s.get(from..)
            .unwrap_or("")
            .chars()
            .take(160)
            .collect::<String>()
    };
    format!("at byte {at}:\n      {}\n   vs {}", around(a), around(b))
}

/// The state read by its ruleset, for the questions the facade asks of a
/// state read once (every state here is one a ruleset made).
fn reading<'a>(ruleset: &dyn Ruleset, state: &'a GameState) -> Reading<'a> {
    ruleset.read(state).expect("the state reads")
}

/// Resolves one phase through the boundary, as the engine does.
fn resolve(
    ruleset: &dyn Ruleset,
    prior: &GameState,
    texts: &BTreeMap<String, Sheet>,
    dice: &DiceSpec,
) -> Result<Resolved, String> {
    let sent: BTreeMap<String, SideText<'_>> = texts
        .iter()
        .map(|(side, sheet)| {
            let text = match sheet {
                Sheet::Sent(t) => SideText::Sent(t),
                Sheet::Standing(t) => SideText::Standing(t),
            };
            (side.clone(), text)
        })
        .collect();
    let mut forced;
    let mut seeded;
    let dice: &mut dyn Dice = match dice {
        DiceSpec::Forced(values) => {
            forced = ForcedDice::new(values.iter().copied());
            &mut forced
        }
        DiceSpec::Seeded(seed) => {
            seeded = DiceStream::new(seed);
            &mut seeded
        }
    };
    let resolution = ruleset
        .resolve(
            &ruleset.read(prior).map_err(|e| e.to_string())?,
            &sent,
            dice,
        )
        .map_err(|e| e.to_string())?;
    Ok(Resolved {
        state: resolution.state,
        events: resolution.events,
        rolls: dice.log().to_vec(),
    })
}

// ---- renaming the sides ----

/// For each side of a state, an id that stands in for it, so that the
/// stand-ins' byte order is the reverse of the sides': the map of orders
/// is then taken in the other order. They begin with a digit, which no
/// text capitalises, and are written nowhere else.
fn stand_ins(sides: &[String]) -> BTreeMap<String, String> {
    let mut sorted = sides.to_vec();
    sorted.sort();
    sorted.dedup();
    let n = sorted.len();
    sorted
        .into_iter()
        .enumerate()
        .map(|(k, side)| (side, format!("{}-stand-in", n - 1 - k)))
        .collect()
}

/// The keys of the state's envelope; every other key of the state's
/// object is the ruleset's game part, flattened into it.
const ENVELOPE: &[&str] = &[
    "campaign",
    "ruleset",
    "turn",
    "phase",
    "active_side",
    "sides",
    "map",
    "terrain",
    "units",
    "generals",
    "standing_orders",
    "turn_limit",
    "options",
    "nations",
    "finished",
    "params",
];

/// The state with its sides renamed: wherever the envelope names a side
/// (the sides, the active side, each piece's side, the keys of the
/// standing orders and of the nations), and in the ruleset's parts (game,
/// parameters, units) every key and every text that is a side's id.
fn renamed(state: &GameState, names: &BTreeMap<String, String>) -> Result<GameState, String> {
    let name = |v: &mut Value| {
        if let Value::String(s) = v
            && let Some(n) = names.get(s.as_str())
        {
            *s = n.clone();
        }
    };
    let rename_keys = |v: &mut Value| {
        if let Value::Object(map) = v {
            *map = std::mem::take(map)
                .into_iter()
                .map(|(k, x)| (names.get(&k).cloned().unwrap_or(k), x))
                .collect();
        }
    };
    let mut whole = serde_json::to_value(state).map_err(|e| e.to_string())?;
    let Value::Object(top) = &mut whole else {
        return Err("the state is not an object".to_string());
    };
    for (key, value) in top.iter_mut() {
        match key.as_str() {
            "active_side" => name(value),
            "sides" => value.as_array_mut().into_iter().flatten().for_each(name),
            "standing_orders" | "nations" => rename_keys(value),
            "units" | "generals" => {
                for piece in value.as_array_mut().into_iter().flatten() {
                    let Value::Object(fields) = piece else {
                        continue;
                    };
                    for (k, v) in fields.iter_mut() {
                        if k == "side" {
                            name(v);
                        } else if !catalog::UNIT_FIELDS.contains(&k.as_str()) {
                            rename_within(v, names);
                        }
                    }
                }
            }
            "params" => rename_within(value, names),
            k if ENVELOPE.contains(&k) => {}
            _ => rename_within(value, names),
        }
    }
    serde_json::from_value(whole).map_err(|e| format!("the renamed state does not read: {e}"))
}

/// Every key and text in `value` that is one of `names`' keys, renamed.
fn rename_within(value: &mut Value, names: &BTreeMap<String, String>) {
    match value {
        Value::String(s) => {
            if let Some(n) = names.get(s.as_str()) {
                *s = n.clone();
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rename_within(v, names)),
        Value::Object(map) => {
            *map = std::mem::take(map)
                .into_iter()
                .map(|(k, mut v)| {
                    rename_within(&mut v, names);
                    (names.get(&k).cloned().unwrap_or(k), v)
                })
                .collect();
        }
        _ => {}
    }
}

/// `value` as JSON, with every stand-in in every key and text (the events'
/// words, the dice's purposes) given back its side's id.
fn with_names<T: serde::Serialize>(value: &T, back: &BTreeMap<String, String>) -> Value {
    fn walk(value: Value, back: &BTreeMap<String, String>) -> Value {
        let text = |s: String| {
            back.iter()
                .fold(s, |s, (stand_in, name)| s.replace(stand_in.as_str(), name))
        };
        match value {
            Value::String(s) => Value::String(text(s)),
            Value::Array(items) => Value::Array(items.into_iter().map(|v| walk(v, back)).collect()),
            Value::Object(map) => Value::Object(
                map.into_iter()
                    .map(|(k, v)| (text(k), walk(v, back)))
                    .collect(),
            ),
            other => other,
        }
    }
    walk(serde_json::to_value(value).unwrap_or(Value::Null), back)
}

// ---- where the games begin ----

/// A catalog case's own orders, by side, and its forced dice.
type CaseOrders = (BTreeMap<String, Vec<String>>, Vec<u32>);

/// A position to resolve from.
struct Start {
    /// Where it comes from, for a failure's message.
    name: String,
    ruleset: &'static dyn Ruleset,
    state: GameState,
    /// A catalog case's own orders, by side, and its forced dice.
    case: Option<CaseOrders>,
}

/// The state each ruleset's demo campaign begins in.
fn demo_starts() -> Vec<Start> {
    RULESETS
        .iter()
        .filter_map(|&ruleset| {
            let demo = ruleset.demo()?;
            let campaign = load_texts(
                Path::new(demo.folder),
                demo.campaign_toml,
                demo.scenario_toml,
            )
            .unwrap_or_else(|e| panic!("{}'s demo does not load:\n{e}", ruleset.id()));
            let state = campaign
                .initial_state(ruleset)
                .unwrap_or_else(|e| panic!("{}'s demo: {e}", ruleset.id()));
            Some(Start {
                name: format!("{} demo", ruleset.id()),
                ruleset,
                state,
                case: None,
            })
        })
        .collect()
}

/// Every turn case of the catalog, as its position, orders and dice.
fn case_starts() -> Vec<Start> {
    let (files, _) = case_files();
    files
        .iter()
        .filter(|f| f.kind == "turns")
        .map(|f| {
            let text = std::fs::read_to_string(&f.path).expect("a case file");
            let case: TurnCase =
                toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", f.name()));
            let (ruleset, state) = case
                .setting
                .start()
                .unwrap_or_else(|e| panic!("{}: {e}", f.name()));
            Start {
                name: f.name(),
                ruleset,
                state,
                case: Some((case.orders.clone(), case.dice.clone())),
            }
        })
        .collect()
}

/// The shapes of the catalog's order lines, by ruleset: what follows a
/// line's `<piece>:`, with each word that names a piece of its case
/// written `{piece}`, to be given another piece of a game.
fn order_shapes() -> BTreeMap<String, Vec<String>> {
    let (files, _) = case_files();
    let mut shapes: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files.iter().filter(|f| f.kind == "turns") {
        let Ok(text) = std::fs::read_to_string(&f.path) else {
            continue;
        };
        let Ok(case) = toml::from_str::<TurnCase>(&text) else {
            continue;
        };
        let ids: BTreeSet<&str> = case
            .setting
            .unit
            .iter()
            .chain(&case.setting.general)
            .filter_map(|p| p.get("id").and_then(toml::Value::as_str))
            .collect();
        for line in case.orders.values().flatten() {
            let Some((_, rest)) = line.split_once(':') else {
                continue;
            };
            let shape: Vec<&str> = rest
                .split_whitespace()
                .map(|w| if ids.contains(w) { "{piece}" } else { w })
                .collect();
            if !shape.is_empty() {
                shapes
                    .entry(f.ruleset.clone())
                    .or_default()
                    .insert(shape.join(" "));
            }
        }
    }
    shapes
        .into_iter()
        .map(|(r, s)| (r, s.into_iter().collect()))
        .collect()
}

// ---- random orders ----

/// The pieces of a state a random order may name.
struct Pieces {
    own: Vec<String>,
    enemy: Vec<String>,
    hexes: Vec<(u32, u32)>,
}

impl Pieces {
    fn of(state: &GameState, side: &str) -> Pieces {
        let mut own: Vec<String> = in_play(state)
            .filter(|u| u.side == side)
            .map(|u| u.id.clone())
            .collect();
        own.extend(
            state
                .generals
                .iter()
                .filter(|g| g.side == side && g.lost.is_none())
                .map(|g| g.id.clone()),
        );
        Pieces {
            own,
            enemy: in_play(state)
                .filter(|u| u.side != side)
                .map(|u| u.id.clone())
                .collect(),
            hexes: in_play(state)
                .filter_map(|u| match u.location {
                    Location::Hex { column, row } => Some((column, row)),
                    Location::Table { .. } => None,
                })
                .collect(),
        }
    }

    /// A piece to name in an order: most often an enemy.
    fn target(&self, rng: &mut SplitMix) -> String {
        let from = if rng.chance(70) && !self.enemy.is_empty() {
            &self.enemy
        } else {
            &self.own
        };
        rng.pick(from).cloned().unwrap_or_default()
    }
}

/// A number of an order line changed: halved, doubled, nudged, zero or
/// anything up to three times as far; a hex (four digits, `0304`) moved to
/// one next to some unit's.
fn renumbered(word: &str, rng: &mut SplitMix, pieces: &Pieces) -> String {
    if word.len() == 4
        && word.bytes().all(|b| b.is_ascii_digit())
        && let Some(&(c, r)) = rng.pick(&pieces.hexes)
    {
        let c = (c + rng.below(3) as u32).saturating_sub(1);
        let r = (r + rng.below(3) as u32).saturating_sub(1);
        return format!("{c:02}{r:02}");
    }
    // In hundredths, so that `2.5` stays a number of the same kind.
    let (whole, fraction) = word.split_once('.').unwrap_or((word, ""));
    let Ok(w) = whole.parse::<u64>() else {
        return word.to_string();
    };
    let f: u64 = format!("{fraction:0<2}")
        .get(..2)
        .and_then(|f| f.parse().ok())
        .unwrap_or(0);
    let h = w * 100 + f;
    let h = match rng.below(6) {
        0 => h / 2,
        1 => h * 2,
        2 => h + 100,
        3 => h.saturating_sub(100),
        4 => 0,
        _ => rng.below(3 * h as usize + 300) as u64,
    };
    if fraction.is_empty() {
        (h / 100).to_string()
    } else {
        format!("{}.{:02}", h / 100, h % 100)
    }
}

/// A line's words after its `<piece>:` with other pieces and numbers in
/// them.
fn perturbed(rest: &str, rng: &mut SplitMix, pieces: &Pieces) -> String {
    let all: BTreeSet<&str> = pieces
        .own
        .iter()
        .chain(&pieces.enemy)
        .map(String::as_str)
        .collect();
    rest.split_whitespace()
        .map(|w| {
            if w == "{piece}" || (all.contains(w) && rng.chance(50)) {
                pieces.target(rng)
            } else if w.starts_with(|c: char| c.is_ascii_digit()) && rng.chance(60) {
                renumbered(w, rng, pieces)
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The order text of `side` for a resolution: the ruleset's bot's lines,
/// or its template's, or none; some lines perturbed (another piece named,
/// other numbers, another order of the catalog's), dropped or given twice,
/// some orders added for its own pieces and now and then for an enemy's,
/// and a salt line. Whatever the ruleset refuses is left out, as the
/// engine leaves it out: what is resolved is the accepted orders'
/// canonical text.
fn orders_of(
    ruleset: &dyn Ruleset,
    state: &GameState,
    side: &str,
    shapes: &[String],
    rng: &mut SplitMix,
    lines_tally: &mut (usize, usize),
) -> String {
    let pieces = Pieces::of(state, side);
    let read = ruleset.read(state).expect("the state reads");
    let base = match rng.below(10) {
        0 | 1 => ruleset.order_template(&read, side),
        2 => Vec::new(),
        _ => ruleset.bot_orders(&read, side),
    };
    let mut lines = Vec::new();
    for line in base {
        if !rng.chance(30) {
            lines.push(line);
            continue;
        }
        let Some((head, rest)) = line.split_once(':') else {
            lines.push(line);
            continue;
        };
        match rng.below(6) {
            0 => {}
            1 => {
                lines.push(line.clone());
                lines.push(line);
            }
            2 => {
                if let Some(shape) = rng.pick(shapes) {
                    lines.push(format!("{head}: {}", perturbed(shape, rng, &pieces)));
                }
            }
            _ => lines.push(format!("{head}: {}", perturbed(rest, rng, &pieces))),
        }
    }
    for _ in 0..rng.below(4) {
        let head = if rng.chance(85) {
            rng.pick(&pieces.own).cloned()
        } else {
            rng.pick(&pieces.enemy).cloned()
        };
        if let (Some(head), Some(shape)) = (head, rng.pick(shapes)) {
            lines.push(format!("{head}: {}", perturbed(shape, rng, &pieces)));
        }
    }
    if rng.chance(20) {
        lines.push(format!("salt {}", rng.next()));
    }
    let sheet = ruleset.check_orders(&read, side, &lines.join("\n"));
    lines_tally.0 += lines.iter().filter(|l| !l.starts_with("salt ")).count();
    lines_tally.1 += sheet.accepted.len();
    sheet.canonical_text()
}

/// Every side's orders for the state's phase: in a phase of the active
/// side, its orders, and now and then the other sides' (standing orders
/// such as evading); in a phase of every side, each side's. A side that
/// sends none is left out, or its last orders stand.
fn sheets(
    ruleset: &dyn Ruleset,
    state: &GameState,
    shapes: &[String],
    rng: &mut SplitMix,
    lines_tally: &mut (usize, usize),
) -> BTreeMap<String, Sheet> {
    let everyone = ruleset.phase_of(state).kind == PhaseKind::AllSides;
    let mut texts = BTreeMap::new();
    for side in &state.sides {
        let expected = everyone || *side == state.active_side;
        if rng.chance(if expected { 90 } else { 50 }) {
            let text = orders_of(ruleset, state, side, shapes, rng, lines_tally);
            texts.insert(side.clone(), Sheet::Sent(text));
        } else if let Some(lines) = state.standing_orders.get(side)
            && !lines.is_empty()
            && rng.chance(50)
        {
            let text = lines.iter().map(|l| format!("{l}\n")).collect();
            texts.insert(side.clone(), Sheet::Standing(text));
        }
    }
    texts
}

/// A case's own orders, checked as the mail's are: their accepted lines'
/// canonical text.
fn case_sheets(
    ruleset: &dyn Ruleset,
    state: &GameState,
    orders: &BTreeMap<String, Vec<String>>,
) -> BTreeMap<String, Sheet> {
    orders
        .iter()
        .map(|(side, lines)| {
            let sheet = ruleset.check_orders(&reading(ruleset, state), side, &lines.join("\n"));
            (side.clone(), Sheet::Sent(sheet.canonical_text()))
        })
        .collect()
}

// ---- the games ----

/// One resolution to check.
struct Step<'a> {
    ruleset: &'static dyn Ruleset,
    prior: &'a GameState,
    texts: &'a BTreeMap<String, Sheet>,
    dice: &'a DiceSpec,
    next: &'a Resolved,
}

/// A game to check: where it begins, and the orders and dice of each of
/// its resolutions. The orders are worked out once, for every property to
/// resolve again: the rulesets' bots take most of the time.
struct Game {
    /// Where it begins and its seed, for a failure's message.
    name: String,
    ruleset: &'static dyn Ruleset,
    start: GameState,
    steps: Vec<(BTreeMap<String, Sheet>, DiceSpec)>,
}

/// Every game the properties are checked on, and the random order lines
/// written for them and accepted.
struct Inputs {
    games: Vec<Game>,
    cases: usize,
    lines: (usize, usize),
}

/// How many games of each ruleset, and how long each is.
struct Plan {
    games: u64,
    resolutions: usize,
    /// Random resolutions after each catalog case's own.
    after_case: usize,
}

fn plan() -> Plan {
    let var = |name: &str| {
        std::env::var(name).ok().map(|v| {
            v.parse::<usize>()
                .unwrap_or_else(|_| panic!("{name}={v} is not a number"))
        })
    };
    Plan {
        games: var("ADJUTANT_PROPERTY_GAMES").map_or(2, |n| n as u64),
        resolutions: var("ADJUTANT_PROPERTY_RESOLUTIONS").unwrap_or(16),
        after_case: 1,
    }
}

fn inputs() -> &'static Inputs {
    static INPUTS: OnceLock<Inputs> = OnceLock::new();
    INPUTS.get_or_init(games)
}

/// The games: every case of the catalog, its own orders and dice first and
/// then a little random play from where it ended; and for each ruleset,
/// games from its demo position and from its catalog's positions, taken in
/// turn by seed. Written on every core the machine has.
fn games() -> Inputs {
    let plan = plan();
    let demos = demo_starts();
    let cases = case_starts();
    let shapes = order_shapes();
    // Each job: where it begins, its seed, its length in random
    // resolutions, and whether it begins with the case's own.
    let mut jobs: Vec<(&Start, u64, usize, bool)> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c, i as u64, plan.after_case, true))
        .collect();
    for &ruleset in RULESETS {
        let from_cases: Vec<&Start> = cases
            .iter()
            .filter(|c| c.ruleset.id() == ruleset.id())
            .collect();
        let demo = demos.iter().find(|d| d.ruleset.id() == ruleset.id());
        for seed in 1..=plan.games {
            let start = match demo {
                Some(d) if seed % 2 == 1 || from_cases.is_empty() => d,
                _ => match from_cases.get(seed as usize * 7919 % from_cases.len().max(1)) {
                    Some(c) => c,
                    None => continue,
                },
            };
            jobs.push((start, seed, plan.resolutions, false));
        }
    }
    // One game alone, to see a failure again quickly.
    if let Ok(only) = std::env::var("ADJUTANT_PROPERTY_ONLY") {
        jobs.retain(|&(start, seed, _, own)| game_name(start, seed, own) == only);
        assert!(!jobs.is_empty(), "no game is named `{only}`");
    }
    let none = Vec::new();
    let shapes_of = |r: &dyn Ruleset| shapes.get(r.id()).unwrap_or(&none);
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let chunk = jobs.len().div_ceil(threads).max(1);
    let written: Vec<(Vec<Game>, (usize, usize))> = std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .chunks(chunk)
            .map(|part| {
                let shapes_of = &shapes_of;
                scope.spawn(move || {
                    let mut lines = (0, 0);
                    let games = part
                        .iter()
                        .map(|&(start, seed, length, own)| {
                            let shapes = shapes_of(start.ruleset);
                            write(start, seed, length, own, shapes, &mut lines)
                        })
                        .collect();
                    (games, lines)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a thread writing games"))
            .collect()
    });
    let mut inputs = Inputs {
        games: Vec::new(),
        cases: jobs.iter().filter(|j| j.3).count(),
        lines: (0, 0),
    };
    for (games, lines) in written {
        inputs.games.extend(games);
        inputs.lines.0 += lines.0;
        inputs.lines.1 += lines.1;
    }
    inputs
}

/// Writes a game from `start`: its case's own orders and dice first, if
/// `own` and it is a case, then `length` resolutions of random orders with seeded dice;
/// it ends early when the state says the game is over, or where a
/// resolution fails or panics (the properties then find it so, and say
/// where).
fn write(
    start: &Start,
    seed: u64,
    length: usize,
    own: bool,
    shapes: &[String],
    lines: &mut (usize, usize),
) -> Game {
    let ruleset = start.ruleset;
    let name = game_name(start, seed, own);
    let mut rng = SplitMix(seed ^ 0x5eed_0fa1_15d0_0d1e);
    let mut state = start.state.clone();
    let mut steps = Vec::new();
    if let Some((orders, dice)) = &start.case
        && own
    {
        steps.push((
            case_sheets(ruleset, &state, orders),
            DiceSpec::Forced(dice.clone()),
        ));
    }
    let total = steps.len() + length;
    loop {
        if let Some((texts, dice)) = steps.last() {
            let resolved = catch_unwind(AssertUnwindSafe(|| resolve(ruleset, &state, texts, dice)));
            match resolved {
                Ok(Ok(next)) => state = next.state,
                _ => break,
            }
        }
        if steps.len() >= total || state.finished.is_some() {
            break;
        }
        let k = steps.len();
        let texts = sheets(ruleset, &state, shapes, &mut rng, lines);
        let dice = Digest32::of(format!("ruleset-properties {name} {k}").as_bytes());
        steps.push((texts, DiceSpec::Seeded(dice)));
    }
    Game {
        name,
        ruleset,
        start: start.state.clone(),
        steps,
    }
}

/// A game's name in a failure's message, which `ADJUTANT_PROPERTY_ONLY`
/// takes to play it alone.
fn game_name(start: &Start, seed: u64, own: bool) -> String {
    if own {
        format!("{} (seed {seed})", start.name)
    } else {
        format!("{} game (seed {seed})", start.name)
    }
}

/// What the checks covered, by ruleset: resolutions, dice and seconds.
#[derive(Default)]
struct Tally {
    by_ruleset: BTreeMap<&'static str, (usize, usize, f64)>,
}

/// Resolves a game's steps in turn, each checked by `check`; the first
/// step that fails ends it.
fn replay(
    game: &Game,
    check: &dyn Fn(&Step<'_>) -> Vec<String>,
    tally: &mut Tally,
) -> Result<(), String> {
    let mut state = game.start.clone();
    for (k, (texts, dice)) in game.steps.iter().enumerate() {
        let clock = Instant::now();
        let where_ = || {
            format!(
                "{} (resolution {}, turn {} phase {}; orders {texts:?})",
                game.name,
                k + 1,
                state.turn,
                state.phase
            )
        };
        let next = resolve(game.ruleset, &state, texts, dice)
            .map_err(|e| format!("{}: the resolution fails: {e}", where_()))?;
        let problems = check(&Step {
            ruleset: game.ruleset,
            prior: &state,
            texts,
            dice,
            next: &next,
        });
        let t = tally.by_ruleset.entry(game.ruleset.id()).or_default();
        t.0 += 1;
        t.1 += next.rolls.len();
        t.2 += clock.elapsed().as_secs_f64();
        if !problems.is_empty() {
            return Err(format!("{}:\n  {}", where_(), problems.join("\n  ")));
        }
        state = next.state;
    }
    Ok(())
}

/// Runs `check` on every resolution of every game, and fails with every
/// game whose check failed (its first failure), a panic included.
fn every_resolution(property: &str, check: impl Fn(&Step<'_>) -> Vec<String>) {
    let clock = Instant::now();
    let inputs = inputs();
    let written = clock.elapsed().as_secs_f64();
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for game in &inputs.games {
        match catch_unwind(AssertUnwindSafe(|| replay(game, &check, &mut tally))) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => failures.push(e),
            Err(panic) => failures.push(format!(
                "{}: the resolution panicked: {}",
                game.name,
                panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("(no message)")
            )),
        }
    }
    let summary: Vec<String> = tally
        .by_ruleset
        .iter()
        .map(|(r, (n, rolls, secs))| format!("{r}: {n} resolutions, {rolls} dice, {secs:.1} s"))
        .collect();
    eprintln!(
        "{property}: {} games ({} of them catalog cases; {} random order lines written, {} \
         accepted) in {:.1} s, {written:.1} s of it writing them; {}",
        inputs.games.len(),
        inputs.cases,
        inputs.lines.0,
        inputs.lines.1,
        clock.elapsed().as_secs_f64(),
        summary.join("; ")
    );
    // Every ruleset of the registry was played: none is skipped unseen.
    let alone = std::env::var("ADJUTANT_PROPERTY_ONLY").is_ok();
    for ruleset in RULESETS.iter().filter(|_| !alone) {
        let played = tally.by_ruleset.get(ruleset.id()).map_or(0, |t| t.0);
        assert!(
            played >= 10,
            "{property}: {} had only {played} resolutions checked",
            ruleset.id()
        );
    }
    assert!(
        failures.is_empty(),
        "{property}: {} of the games failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

// ---- the checks find what they look for ----

/// The check `check` on a made-up resolution from each demo position, to
/// the state `change` makes of it; the rulesets it was made for, with what
/// it found.
fn made_up(
    check: fn(&Step<'_>) -> Vec<String>,
    change: impl Fn(&dyn Ruleset, &mut GameState) -> bool,
) -> Vec<(&'static str, Vec<String>)> {
    demo_starts()
        .into_iter()
        .filter_map(|start| {
            let mut next = start.state.clone();
            if !change(start.ruleset, &mut next) {
                return None;
            }
            let next = Resolved {
                state: next,
                events: Vec::new(),
                rolls: Vec::new(),
            };
            let problems = check(&Step {
                ruleset: start.ruleset,
                prior: &start.state,
                texts: &BTreeMap::new(),
                dice: &DiceSpec::Forced(Vec::new()),
                next: &next,
            });
            Some((start.ruleset.id(), problems))
        })
        .collect()
}

#[test]
fn the_overlap_check_finds_a_unit_moved_onto_another() {
    let found = made_up(overlap_problems, |ruleset, state| {
        let with: Vec<usize> = (0..state.units.len())
            .filter(|&i| ruleset.footprint(&state.units[i]).is_some())
            .collect();
        let [a, b, ..] = with[..] else {
            return false;
        };
        state.units[b].location = state.units[a].location;
        state.units[b].facing = state.units[a].facing;
        true
    });
    assert!(!found.is_empty(), "no ruleset gives its units footprints");
    for (ruleset, problems) in found {
        assert!(
            problems.iter().any(|p| p.contains("overlaps")),
            "{ruleset}: {problems:?}"
        );
    }
}

#[test]
fn the_stacking_check_finds_a_hex_too_full_or_shared_with_the_enemy() {
    let over = made_up(overlap_problems, |ruleset, state| {
        let Some(limit) = ruleset.stacking_limit(&reading(ruleset, state)) else {
            return false;
        };
        let side = state.active_side.clone();
        let mine: Vec<usize> = (0..state.units.len())
            .filter(|&i| state.units[i].side == side)
            .take(limit as usize + 1)
            .collect();
        let Some(&first) = mine.first() else {
            return false;
        };
        for &i in &mine {
            state.units[i].location = state.units[first].location;
        }
        mine.len() > limit as usize
    });
    let shared = made_up(overlap_problems, |ruleset, state| {
        if ruleset.stacking_limit(&reading(ruleset, state)).is_none() {
            return false;
        }
        let first = state.units[0].clone();
        match state.units.iter_mut().find(|u| u.side != first.side) {
            Some(enemy) => {
                enemy.location = first.location;
                true
            }
            None => false,
        }
    });
    assert!(
        !over.is_empty() && !shared.is_empty(),
        "no ruleset sets a stacking limit"
    );
    for (ruleset, problems) in over {
        assert!(
            problems.iter().any(|p| p.contains("over the limit")),
            "{ruleset}: {problems:?}"
        );
    }
    for (ruleset, problems) in shared {
        assert!(
            problems.iter().any(|p| p.contains("two sides")),
            "{ruleset}: {problems:?}"
        );
    }
}

#[test]
fn the_strength_check_finds_a_strength_risen_or_gone_below_zero() {
    let risen = made_up(strength_problems, |_, state| {
        state.units[0].strength = state.units[0].original_strength + 1;
        true
    });
    // What 0 - 1 wraps to in a count of 32 bits.
    let wrapped = made_up(strength_problems, |_, state| {
        state.units[0].strength = 0;
        state.units[0]
            .rules
            .insert("made_up".into(), u32::MAX.into());
        true
    });
    let in_the_game = made_up(strength_problems, |_, state| {
        state.game.insert("made_up".into(), u32::MAX.into());
        true
    });
    assert_eq!(risen.len(), RULESETS.len());
    for (ruleset, problems) in risen {
        assert!(
            problems.iter().any(|p| p.contains("of an original")),
            "{ruleset}: {problems:?}"
        );
    }
    for (ruleset, problems) in wrapped.into_iter().chain(in_the_game) {
        assert!(
            problems.iter().any(|p| p.contains("made_up = 4294967295")),
            "{ruleset}: {problems:?}"
        );
    }
}
