//! The boundary a ruleset plugs into.
//!
//! A ruleset's folder implements two typed traits on its own type:
//! [`Rules`] (its parts of the state, its orders, the resolution of a phase,
//! its umpire calls, its set-up) and [`Presentation`] (how its pieces look
//! and what each side sees). Everything outside the rules core holds the
//! state with raw parts and talks to a ruleset through
//! [`Ruleset`](super::facade::Ruleset), which every such type gets for free
//! (`facade`).
//! Orders cross this boundary as their canonical text only; inside, a line
//! is parsed once into the ruleset's own order type.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::board::Location;
use super::look::{Aim, EventClass, Look, Marker, Strike, TerrainStyle};
use super::orders::{LineError, OrderSheet, ParseError, order_lines};
use super::phrase::Phrase;
use super::setup::{Keys, SetupContext, UnitBasics, Vocabulary};
use super::state::{GameState, Parts, UnitState};
use super::told::{EventKind, Shows, Told};
use super::umpire::{UmpireError, UmpireReport};
use crate::audit::dice::{Dice, Roll};
use crate::geometry::Rect;

/// Who must send orders before a phase can close early.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PhaseKind {
    /// Only the active side gives orders; the passive side may give standing
    /// orders (such as evading), which are optional.
    ActiveSide,
    /// Every side gives orders at once.
    AllSides,
}

/// One phase of a turn as a ruleset declares it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PhaseSpec {
    /// The schedule key for its duration (`orders`, ...).
    pub name: &'static str,
    pub kind: PhaseKind,
    /// What the players do in it, for the status line and the reminder.
    pub summary: &'static str,
}

/// One thing that happened, as the report and the archive tell it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub kind: String,
    /// The units involved, by id.
    pub units: Vec<String>,
    pub text: String,
    /// The way the first unit named went, from where it stood to where it
    /// ended, through every turn of its route (a path of hexes, a flight
    /// that bent round an obstacle). Empty when a straight line from the
    /// prior state's location to the next one tells it; left out of the
    /// archive's bytes then, so events written before it read the same.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<Location>,
    /// What it shows and to whom, as the rules made it; `None` for an
    /// event read back from an archive, which keeps none of it, and for an
    /// event made without a kind of its ruleset's (see [`Event::of`]).
    #[serde(skip)]
    pub shows: Option<Shows>,
}

impl Event {
    pub fn new(kind: &str, units: Vec<String>, text: impl Into<String>) -> Event {
        Event {
            kind: kind.to_string(),
            units,
            text: text.into(),
            path: Vec::new(),
            shows: None,
        }
    }

    /// An event of one of its ruleset's kinds, naming `units` (the one who
    /// acted first, then the ones it touched).
    pub fn of<K: EventKind>(kind: K, units: &[&str], text: impl Into<String>) -> Event {
        Event {
            shows: Some(Shows {
                class: kind.class(),
                told: kind.told(),
                also: Vec::new(),
                strike: None,
                words: None,
            }),
            ..Event::naming(kind.name(), units, text)
        }
    }

    /// An event of one of its ruleset's kinds whose words name sides: its
    /// text is `words` with each side's id, as the archive keeps it; a
    /// reader is told `words` with the side's name (see [`Shows::words`]).
    pub fn worded<K: EventKind>(kind: K, units: &[&str], words: Phrase) -> Event {
        let mut event = Event::of(kind, units, words.with_ids());
        if let Some(shows) = &mut event.shows {
            shows.words = Some(words);
        }
        event
    }

    /// What a reader is told: its words with each side as `side_name`
    /// gives it, where the rules kept the sides apart, else its text.
    pub fn told_with(&self, side_name: impl Fn(&str) -> String) -> String {
        match self.shows.as_ref().and_then(|s| s.words.as_ref()) {
            Some(words) => words.render(side_name),
            None => self.text.clone(),
        }
    }

    /// The event with more units and generals its words name (see
    /// [`Shows::also`]). An event made without a kind has nowhere to keep
    /// them, and stays as it is.
    pub fn also_naming<S: AsRef<str>>(mut self, ids: &[S]) -> Event {
        if let Some(shows) = &mut self.shows {
            for id in ids {
                let id = id.as_ref();
                if !self.units.iter().any(|u| u == id) && !shows.also.iter().any(|a| a == id) {
                    shows.also.push(id.to_string());
                }
            }
        }
        self
    }

    /// What it means to the map and to sight: as the rules made it, else
    /// (read back from an archive) as `by_kind` says of the kind it was
    /// written with.
    pub fn class(&self, by_kind: impl FnOnce(&str) -> EventClass) -> EventClass {
        self.shows
            .as_ref()
            .map_or_else(|| by_kind(&self.kind), |s| s.class)
    }

    /// Every unit and general it names, by id: its units, then the rest its
    /// words name.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.units
            .iter()
            .chain(self.shows.iter().flat_map(|s| s.also.iter()))
            .map(String::as_str)
    }

    /// The event with the attack its first unit made where it stands (see
    /// [`Strike`]). An event made without a kind has nowhere to keep it,
    /// and stays as it is.
    pub fn striking(mut self, strike: Strike) -> Event {
        if let Some(shows) = &mut self.shows {
            shows.strike = Some(strike);
        }
        self
    }

    /// The event with the route its first unit took (see [`Event::path`]).
    pub fn along(mut self, path: Vec<Location>) -> Event {
        self.path = path;
        self
    }

    /// An event naming its units by id as written: `Event::naming("move",
    /// &["1-ligne"], "...")`.
    pub fn naming(kind: &str, units: &[&str], text: impl Into<String>) -> Event {
        Event::new(kind, units.iter().map(|u| u.to_string()).collect(), text)
    }
}

crate::event_kinds! {
    /// The events every ruleset's resolution tells, told here rather than
    /// by a ruleset.
    pub enum SharedKind {
        /// A side that sent no orders, whose last orders were repeated: its
        /// own (REP-3), as the enemy sees only its units act.
        StandingOrders,
    }
}

impl EventKind for SharedKind {
    const ALL: &'static [SharedKind] = SharedKind::LIST;

    fn name(self) -> &'static str {
        match self {
            SharedKind::StandingOrders => "standing-orders",
        }
    }

    fn class(self) -> EventClass {
        match self {
            SharedKind::StandingOrders => EventClass::Other,
        }
    }

    fn told(self) -> Told {
        match self {
            SharedKind::StandingOrders => Told::ActingSide,
        }
    }
}

/// A campaign a ruleset ships to play out of the box (`adjutant demo`): its
/// two files, as text, with the folder name it is known by in `campaigns/`,
/// the players' passphrases (public, as the campaign file says), and the
/// umpire calls the demo asks once the game is over.
#[derive(Debug, Clone, Copy)]
pub struct Demo {
    pub folder: &'static str,
    pub campaign_toml: &'static str,
    pub scenario_toml: &'static str,
    /// By side.
    pub passphrases: &'static [(&'static str, &'static str)],
    pub calls: &'static [&'static str],
}

/// A ruleset's adjudication: its parts of the state, its set-up, its
/// orders, the resolution of a phase and its umpire calls. Pure: no I/O, no
/// clock, no hash maps, and it cannot fail: an illegal or impossible order
/// is an outcome with its reason.
pub trait Rules: Parts {
    /// One order once checked against the state: every unit it names
    /// resolved to an id. Its `Display` is the order's one canonical text,
    /// which the manifest's digest covers and which reads back to the same
    /// order.
    type Order: Clone + fmt::Display + fmt::Debug + PartialEq + Send + Sync;

    /// The id campaigns name it by.
    fn id(&self) -> &'static str;

    /// The phases of one turn, in order.
    fn phases(&self) -> &'static [PhaseSpec];

    /// The words a campaign may use with it.
    fn vocabulary(&self) -> Vocabulary;

    /// Reads the ruleset's part of one unit from the scenario's keys, in
    /// the state it begins the game in.
    fn setup_unit(
        &self,
        unit: UnitBasics<'_>,
        keys: &mut dyn Keys,
        context: &SetupContext<'_>,
    ) -> Option<Self::Unit>;

    /// Reads the campaign's `[ruleset.parameters]`. The default takes none.
    fn setup_params(&self, _keys: &mut dyn Keys) -> Option<Self::Params> {
        Some(Self::Params::default())
    }

    /// The ruleset's part of the game when it begins.
    fn initial_game(&self, _state: &GameState<Self>) -> Self::Game {
        Self::Game::default()
    }

    /// Reads one order line, the syntax step alone (units not yet looked
    /// up): its canonical text as written, or where and why it does not
    /// read. For tools, fuzzing and the case catalog; `check_orders` does
    /// both steps.
    fn read_line(&self, line: &str) -> Result<String, LineError>;

    /// Reads and checks the order lines of `side` (salt lines are taken out
    /// before), each with its line number.
    fn check_orders(
        &self,
        state: &GameState<Self>,
        side: &str,
        lines: &[(usize, &str)],
    ) -> OrderSheet<Self::Order>;

    /// Reads and checks the order lines of `side` as its acknowledgement
    /// does: [`Rules::check_orders`], and besides, a line that the phase
    /// would certainly not carry out against the state as it stands is
    /// refused with its clause, and an accepted line whose outcome hangs on
    /// what comes first in the phase (the enemy's answer, a die) gets a
    /// warning. Resolution never asks it, only `check_orders`: refusing more
    /// here changes no resolution, and orders accepted before a refusal was
    /// added resolve as they did. The default looks no further than
    /// `check_orders`.
    fn acknowledge(
        &self,
        state: &GameState<Self>,
        side: &str,
        lines: &[(usize, &str)],
    ) -> OrderSheet<Self::Order> {
        self.check_orders(state, side, lines)
    }

    /// Resolves the current phase with every side's accepted orders (a side
    /// that sent none is absent from the map), and moves to the next phase.
    fn resolve(
        &self,
        state: &GameState<Self>,
        orders: &BTreeMap<String, Vec<Self::Order>>,
        dice: &mut dyn Dice,
    ) -> (GameState<Self>, Vec<Event>);

    /// Performs one umpire call, which may read the state and the
    /// campaign's parameters.
    fn umpire(
        &self,
        state: &GameState<Self>,
        call: &str,
        dice: &mut dyn Dice,
    ) -> Result<UmpireReport, UmpireError>;

    /// The umpire calls this ruleset offers, with how each is written.
    fn umpire_help(&self) -> &'static str;

    /// What keeps a unit, as a GM's correction left it, from standing in the
    /// game (a formation the ruleset does not have, ...).
    fn check_unit(&self, _unit: &UnitState<Self::Unit>) -> Result<(), String> {
        Ok(())
    }

    /// Every field of the ruleset's part of a unit, by its name in the
    /// state, for the GM's corrections: those left out of the JSON while
    /// they hold their default must be listed here to be settable.
    fn unit_fields(&self) -> &'static [&'static str] {
        &[]
    }

    /// The rectangle a unit covers on a table, for the off-map and overlap
    /// checks and the map; `None` where the ruleset has no footprint.
    fn footprint(&self, _unit: &UnitState<Self::Unit>) -> Option<Rect> {
        None
    }

    /// The most units of one side that may stand in one place of a map of
    /// places (a hex) once a resolution is over, where no place then holds
    /// units of two sides; `None` where units stand on a table, whose
    /// footprints may not overlap instead, or share places without limit.
    fn stacking_limit(&self, _state: &GameState<Self>) -> Option<u32> {
        None
    }

    /// The bot player: legal, plausible order lines for `side`.
    fn bot_orders(&self, state: &GameState<Self>, side: &str) -> Vec<String>;

    /// The sides whose army the rules count as broken in `state`, a state
    /// the game ended in: what a scenario's victory conditions take for an
    /// army broken (`rules::victory`). Decided from the state alone, as the
    /// rule that ended the game decided it; none where the rules have no
    /// such rule.
    fn broken_armies(&self, _state: &GameState<Self>) -> Vec<String> {
        Vec::new()
    }

    /// How the game ended, in words that keep the sides they name apart,
    /// read from a state the game ended in, as the rule that ended it made
    /// them: its `finished`, rendered with ids. `None` where that text
    /// names no side (a turn limit) or the game goes on.
    fn ending(&self, _state: &GameState<Self>) -> Option<Phrase> {
        None
    }

    /// The campaign it ships, if any.
    fn demo(&self) -> Option<Demo> {
        None
    }
}

/// How a ruleset's pieces look, and what each side sees.
pub trait Presentation: Rules {
    /// How every unit in the state looks, by id.
    fn look(&self, state: &GameState<Self>) -> Look;

    /// Every marker a unit may carry, for the map's legend and caption.
    fn markers(&self) -> &'static [Marker];

    /// How a terrain kind of this ruleset is drawn; `None` for a kind it
    /// does not know (drawn grey).
    fn terrain_style(&self, kind: &str) -> Option<TerrainStyle>;

    /// What an event kind means to the map and to sight.
    fn event_class(&self, kind: &str) -> EventClass;

    /// The ids of the units `side` can see once the resolution is over.
    fn visible_to(&self, state: &GameState<Self>, side: &str, events: &[Event])
    -> BTreeSet<String>;

    /// The order lines a report offers `side` to reply with.
    fn order_template(&self, state: &GameState<Self>, side: &str) -> Vec<String>;

    /// What the state marks as declared and not yet carried out (see
    /// [`Aim`]). None by default.
    fn aims(&self, _state: &GameState<Self>) -> Vec<Aim> {
        Vec::new()
    }

    /// How `side`'s accepted `orders` will be tried, for the map of its
    /// acknowledgement: the state once its own moves and charges are made,
    /// no enemy answering and no die of the turn's, with an event for each,
    /// so that a player sees a misread move before the deadline. `None`
    /// where the ruleset draws no such map.
    fn planned(
        &self,
        _state: &GameState<Self>,
        _side: &str,
        _orders: &[Self::Order],
    ) -> Option<(GameState<Self>, Vec<Event>)> {
        None
    }

    /// A made-up turn from the state its demo campaign begins in, that shows
    /// every part of a report: the report's golden files, its bench and the
    /// browser preview show it.
    fn preview(&self, _initial: &GameState<Self>) -> Option<Preview<Self>> {
        None
    }
}

/// A made-up turn: the states either side of it, what happened and the
/// dice (see [`Presentation::preview`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview<R: Parts = super::state::Raw> {
    pub prior: GameState<R>,
    pub next: GameState<R>,
    pub events: Vec<Event>,
    pub rolls: Vec<Roll>,
}

/// What a resolution produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    pub state: GameState,
    pub events: Vec<Event>,
}

/// The orders a turn is resolved with, by side: what a side sent, as
/// recorded, or, for a side that sent none, its standing orders to repeat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SideText<'a> {
    /// Recorded canonical text: it must check clean and be canonical.
    Sent(&'a str),
    /// Last turn's lines, repeated: those that no longer apply lapse.
    Standing(&'a str),
}

/// Why recorded orders could not be resolved. Only damaged or forged inputs
/// cause these: orders were checked when they were accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResolveError {
    #[error("the orders of {side} no longer check against the prior state: {problems}")]
    Orders { side: String, problems: String },
}

/// Salt lines are the players' own and no ruleset's: `salt <text>`.
/// The word `salt` may be written in any case; the text after it is kept as
/// written, its words single-spaced (docs/ORDERS.md, docs/AUDIT.md). A line
/// whose first word is `salt` is a salt line, or a refusal that says why it
/// cannot be one: the archive holds canonical salt lines only (AUDIT.md,
/// section 2), so what could not be one is never taken.
fn salt_of(line: &str) -> Option<Result<String, &'static str>> {
    let mut words = line.split_whitespace();
    let first = words.next()?;
    if !first.eq_ignore_ascii_case("salt") {
        return None;
    }
    let words: Vec<&str> = words.collect();
    if words.is_empty() {
        return Some(Err(
            "a salt line needs its text after the word salt (such as `salt 4711`); a bare `salt` is not taken",
        ));
    }
    if words.iter().any(|w| w.chars().any(char::is_control)) {
        return Some(Err(
            "a salt line may not hold a control character; write its text in plain words",
        ));
    }
    Some(Ok(words.join(" ")))
}

/// Checks a text with the typed ruleset: the typed sheet, with the salt.
pub fn check_typed<R: Rules>(
    rules: &R,
    state: &GameState<R>,
    side: &str,
    text: &str,
) -> OrderSheet<R::Order> {
    with_salt(text, |lines| rules.check_orders(state, side, lines))
}

/// Checks a text with the typed ruleset as the acknowledgement does (see
/// [`Rules::acknowledge`]): the typed sheet, with the salt.
pub fn acknowledge_typed<R: Rules>(
    rules: &R,
    state: &GameState<R>,
    side: &str,
    text: &str,
) -> OrderSheet<R::Order> {
    with_salt(text, |lines| rules.acknowledge(state, side, lines))
}

/// The sheet `check` gives for the order lines of `text`, with its salt
/// lines taken out first and kept as written.
fn with_salt<O>(
    text: &str,
    check: impl FnOnce(&[(usize, &str)]) -> OrderSheet<O>,
) -> OrderSheet<O> {
    let mut salt = Vec::new();
    let mut bad_salt = Vec::new();
    let mut lines = Vec::new();
    for (line, raw) in order_lines(text) {
        match salt_of(raw) {
            Some(Ok(s)) => salt.push(s),
            Some(Err(problem)) => bad_salt.push(ParseError {
                line,
                problem: problem.to_string(),
            }),
            None => lines.push((line, raw)),
        }
    }
    let mut sheet = check(&lines);
    sheet.salt = salt;
    if !bad_salt.is_empty() {
        sheet.parse_errors.extend(bad_salt);
        sheet.parse_errors.sort_by_key(|e| e.line);
    }
    sheet
}

/// Resolves a phase with the typed ruleset from each side's recorded text:
/// each text is read once, here, into the ruleset's orders.
pub fn resolve_typed<R: Rules>(
    rules: &R,
    state: &GameState<R>,
    texts: &BTreeMap<String, SideText<'_>>,
    dice: &mut dyn Dice,
) -> Result<(GameState<R>, Vec<Event>), ResolveError> {
    let mut orders = BTreeMap::new();
    let mut notes = Vec::new();
    // Sides in the state's order, so that the notes come in that order.
    for side in &state.sides {
        let Some(text) = texts.get(side) else {
            continue;
        };
        match *text {
            SideText::Sent(text) => {
                let sheet = check_typed(rules, state, side, text);
                if !sheet.is_clean() || sheet.canonical_text() != text {
                    let problems: Vec<String> = sheet
                        .parse_errors
                        .iter()
                        .map(ToString::to_string)
                        .chain(sheet.rejections.iter().map(ToString::to_string))
                        .collect();
                    return Err(ResolveError::Orders {
                        side: side.clone(),
                        problems: if problems.is_empty() {
                            "the text is not in canonical form".to_string()
                        } else {
                            problems.join("; ")
                        },
                    });
                }
                orders.insert(side.clone(), sheet.accepted);
            }
            SideText::Standing(text) => {
                // Last turn's orders may no longer fit (a unit since
                // eliminated): those lines lapse, with a word in the log,
                // rather than stopping the resolution.
                let sheet = check_typed(rules, state, side, text);
                let lapsed = sheet.parse_errors.len() + sheet.rejections.len();
                notes.push(
                    Event::worded(
                        SharedKind::StandingOrders,
                        &[],
                        Phrase::side(side).then(format!(
                            " sent no orders; its last orders stand{}.",
                            if lapsed == 0 {
                                String::new()
                            } else {
                                format!(", less {lapsed} that no longer apply")
                            }
                        )),
                    )
                    .also_naming(&[side]),
                );
                orders.insert(side.clone(), sheet.accepted);
            }
        }
    }
    let (next, events) = rules.resolve(state, &orders, dice);
    notes.extend(events);
    Ok((next, notes))
}

/// The phase at `index` of a turn's phases; the last one for an index past
/// the end, and a placeholder for a ruleset that declares none, so that a
/// damaged state cannot make the engine fail here.
pub fn phase_in(phases: &'static [PhaseSpec], index: u32) -> &'static PhaseSpec {
    const NONE: PhaseSpec = PhaseSpec {
        name: "orders",
        kind: PhaseKind::AllSides,
        summary: "every side gives its orders",
    };
    let at = (index as usize).min(phases.len().saturating_sub(1));
    phases.get(at).unwrap_or(&NONE)
}
