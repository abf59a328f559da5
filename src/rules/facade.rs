//! The ruleset as everything outside the rules core sees it: [`Ruleset`],
//! the state with raw parts and orders as canonical text, which every type
//! implementing the typed [`Rules`] and [`Presentation`] gets for free. A
//! question about a state, checking orders and resolving from it included,
//! is asked of the state already read ([`Reading`], made by
//! [`Ruleset::read`] once per request); only the calls that make a new
//! state (set-up, `reread`) or change one unit (a correction) decode the
//! parts they need themselves. Each works on typed values and encodes the
//! result. It sits above `ruleset` and `correction`, which it calls, so
//! that neither of those needs the other.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use super::correction::{self, Correction, CorrectionError};
use super::look::{Aim, EventClass, Look, Marker, TerrainStyle};
use super::orders::{LineError, OrderSheet};
use super::phrase::Phrase;
use super::reading::Reading;
use super::ruleset::{
    Demo, Event, PhaseSpec, Presentation, Preview, Resolution, ResolveError, Rules, SideText,
    acknowledge_typed, check_typed, phase_in, resolve_typed,
};
use super::setup::{Keys, SetupContext, UnitBasics, Vocabulary};
use super::state::{GameState, PartError, RawPart, UnitState};
use super::umpire::{UmpireError, UmpireReport};
use crate::audit::dice::Dice;
use crate::geometry::Rect;

/// A ruleset as the engine, the store, the archive, the report and the map
/// see it: the state with raw parts, orders as canonical text. Every type
/// that implements [`Rules`] and [`Presentation`] is one.
pub trait Ruleset: Sync {
    fn id(&self) -> &'static str;
    fn phases(&self) -> &'static [PhaseSpec];
    fn vocabulary(&self) -> Vocabulary;

    /// The current phase's spec.
    fn phase_of(&self, state: &GameState) -> &'static PhaseSpec;

    /// Reads the ruleset's part of one unit (see [`Rules::setup_unit`]).
    fn setup_unit(
        &self,
        unit: UnitBasics<'_>,
        keys: &mut dyn Keys,
        context: &SetupContext<'_>,
    ) -> Option<RawPart>;

    /// Reads the campaign's parameters (see [`Rules::setup_params`]).
    fn setup_params(&self, keys: &mut dyn Keys) -> Option<serde_json::Value>;

    /// Fills in the ruleset's part of the game in a state just set up.
    fn initial_game(&self, state: &GameState) -> Result<GameState, PartError>;

    /// The state as the ruleset's types read it and write it back: an error
    /// if its parts do not read as this ruleset's, and without any key the
    /// ruleset does not keep.
    fn reread(&self, state: &GameState) -> Result<GameState, PartError>;

    /// Reads one order line, the syntax step alone (see [`Rules::read_line`]).
    fn read_line(&self, line: &str) -> Result<String, LineError>;

    /// Reads and checks a whole order text for `side`: salt lines are taken
    /// as written, every other line is checked by the ruleset.
    fn check_orders(&self, state: &Reading, side: &str, text: &str) -> OrderSheet;

    /// Reads and checks a whole order text for `side` as its
    /// acknowledgement does (see [`Rules::acknowledge`]): what it accepts
    /// is what is stored and later resolved.
    fn acknowledge(&self, state: &Reading, side: &str, text: &str) -> OrderSheet;

    /// Resolves the current phase from each side's orders.
    fn resolve(
        &self,
        state: &Reading,
        orders: &BTreeMap<String, SideText<'_>>,
        dice: &mut dyn Dice,
    ) -> Result<Resolution, ResolveError>;

    /// Makes an umpire call on the state (see [`Rules::umpire`]).
    fn umpire(
        &self,
        state: &Reading,
        call: &str,
        dice: &mut dyn Dice,
    ) -> Result<UmpireReport, UmpireError>;
    fn umpire_help(&self) -> &'static str;

    /// Applies a GM's correction of one unit.
    fn correct(
        &self,
        state: &GameState,
        correction: &Correction,
    ) -> Result<GameState, CorrectionError>;

    /// A unit's footprint on a table, if the ruleset gives it one.
    fn footprint(&self, unit: &UnitState) -> Option<Rect>;

    /// The fields of the ruleset's part of a unit that its JSON leaves out
    /// while they hold their default (see [`Rules::unit_fields`]).
    fn unit_fields(&self) -> &'static [&'static str];

    /// How many units of a side may share a place (see
    /// [`Rules::stacking_limit`]).
    fn stacking_limit(&self, state: &Reading) -> Option<u32>;

    /// The state read into this ruleset's types once, for the questions
    /// below: an error if its parts do not read as this ruleset's.
    fn read_state<'a>(&self, state: Cow<'a, GameState>) -> Result<Reading<'a>, PartError>;

    /// [`Ruleset::read_state`] of a state borrowed for one request.
    fn read<'a>(&self, state: &'a GameState) -> Result<Reading<'a>, PartError> {
        self.read_state(Cow::Borrowed(state))
    }

    /// [`Ruleset::read_state`] of a state the reading keeps.
    fn read_owned(&self, state: GameState) -> Result<Reading<'static>, PartError> {
        self.read_state(Cow::Owned(state))
    }

    fn look(&self, state: &Reading) -> Look;
    fn markers(&self) -> &'static [Marker];
    fn terrain_style(&self, kind: &str) -> Option<TerrainStyle>;
    fn event_class(&self, kind: &str) -> EventClass;
    fn visible_to(&self, state: &Reading, side: &str, events: &[Event]) -> BTreeSet<String>;
    fn order_template(&self, state: &Reading, side: &str) -> Vec<String>;
    fn aims(&self, state: &Reading) -> Vec<Aim>;
    /// A made-up turn from the state a campaign begins in (see
    /// [`Presentation::preview`]).
    fn preview(&self, initial: &Reading) -> Option<Preview>;
    /// How a side's accepted orders will be tried (see
    /// [`Presentation::planned`]), from their canonical text.
    fn planned(
        &self,
        state: &Reading,
        side: &str,
        canonical: &str,
    ) -> Option<(Reading<'static>, Vec<Event>)>;
    fn bot_orders(&self, state: &Reading, side: &str) -> Vec<String>;
    fn broken_armies(&self, state: &Reading) -> Vec<String>;
    fn ending(&self, state: &Reading) -> Option<Phrase>;
    fn demo(&self) -> Option<Demo>;
}

impl<R: Rules + Presentation> Ruleset for R {
    fn id(&self) -> &'static str {
        Rules::id(self)
    }

    fn phases(&self) -> &'static [PhaseSpec] {
        Rules::phases(self)
    }

    fn vocabulary(&self) -> Vocabulary {
        Rules::vocabulary(self)
    }

    fn phase_of(&self, state: &GameState) -> &'static PhaseSpec {
        phase_in(Rules::phases(self), state.phase)
    }

    fn setup_unit(
        &self,
        unit: UnitBasics<'_>,
        keys: &mut dyn Keys,
        context: &SetupContext<'_>,
    ) -> Option<RawPart> {
        let part = Rules::setup_unit(self, unit, keys, context)?;
        match serde_json::to_value(part) {
            Ok(serde_json::Value::Object(map)) => Some(map),
            _ => None,
        }
    }

    fn setup_params(&self, keys: &mut dyn Keys) -> Option<serde_json::Value> {
        let params = Rules::setup_params(self, keys)?;
        if params == R::Params::default() {
            return Some(serde_json::Value::Null);
        }
        serde_json::to_value(params).ok()
    }

    fn initial_game(&self, state: &GameState) -> Result<GameState, PartError> {
        let mut typed = state.typed::<R>()?;
        typed.game = Rules::initial_game(self, &typed);
        Ok(typed.raw())
    }

    fn reread(&self, state: &GameState) -> Result<GameState, PartError> {
        state.typed::<R>().map(|typed| typed.raw())
    }

    fn read_line(&self, line: &str) -> Result<String, LineError> {
        Rules::read_line(self, line)
    }

    fn check_orders(&self, state: &Reading, side: &str, text: &str) -> OrderSheet {
        check_typed(self, state.typed::<R>(), side, text).erase()
    }

    fn acknowledge(&self, state: &Reading, side: &str, text: &str) -> OrderSheet {
        acknowledge_typed(self, state.typed::<R>(), side, text).erase()
    }

    fn resolve(
        &self,
        state: &Reading,
        orders: &BTreeMap<String, SideText<'_>>,
        dice: &mut dyn Dice,
    ) -> Result<Resolution, ResolveError> {
        let (next, events) = resolve_typed(self, state.typed::<R>(), orders, dice)?;
        Ok(Resolution {
            state: next.raw(),
            events,
        })
    }

    fn umpire(
        &self,
        state: &Reading,
        call: &str,
        dice: &mut dyn Dice,
    ) -> Result<UmpireReport, UmpireError> {
        Rules::umpire(self, state.typed::<R>(), call, dice)
    }

    fn umpire_help(&self) -> &'static str {
        Rules::umpire_help(self)
    }

    fn correct(&self, state: &GameState, c: &Correction) -> Result<GameState, CorrectionError> {
        correction::apply(self, state, c)
    }

    fn unit_fields(&self) -> &'static [&'static str] {
        Rules::unit_fields(self)
    }

    fn footprint(&self, unit: &UnitState) -> Option<Rect> {
        let typed = unit.typed::<R::Unit>(Rules::id(self)).ok()?;
        Rules::footprint(self, &typed)
    }

    fn stacking_limit(&self, state: &Reading) -> Option<u32> {
        Rules::stacking_limit(self, state.typed::<R>())
    }

    fn read_state<'a>(&self, state: Cow<'a, GameState>) -> Result<Reading<'a>, PartError> {
        let typed = state.typed::<R>()?;
        Ok(Reading::new(state, Rules::id(self), typed))
    }

    fn look(&self, state: &Reading) -> Look {
        Presentation::look(self, state.typed::<R>())
    }

    fn markers(&self) -> &'static [Marker] {
        Presentation::markers(self)
    }

    fn terrain_style(&self, kind: &str) -> Option<TerrainStyle> {
        Presentation::terrain_style(self, kind)
    }

    fn event_class(&self, kind: &str) -> EventClass {
        Presentation::event_class(self, kind)
    }

    fn visible_to(&self, state: &Reading, side: &str, events: &[Event]) -> BTreeSet<String> {
        Presentation::visible_to(self, state.typed::<R>(), side, events)
    }

    fn order_template(&self, state: &Reading, side: &str) -> Vec<String> {
        Presentation::order_template(self, state.typed::<R>(), side)
    }

    fn aims(&self, state: &Reading) -> Vec<Aim> {
        Presentation::aims(self, state.typed::<R>())
    }

    fn planned(
        &self,
        state: &Reading,
        side: &str,
        canonical: &str,
    ) -> Option<(Reading<'static>, Vec<Event>)> {
        let typed = state.typed::<R>();
        let sheet = check_typed(self, typed, side, canonical);
        let (next, events) = Presentation::planned(self, typed, side, &sheet.accepted)?;
        Some((
            Reading::new(Cow::Owned(next.raw()), Rules::id(self), next),
            events,
        ))
    }

    fn preview(&self, initial: &Reading) -> Option<Preview> {
        let p = Presentation::preview(self, initial.typed::<R>())?;
        Some(Preview {
            prior: p.prior.raw(),
            next: p.next.raw(),
            events: p.events,
            rolls: p.rolls,
        })
    }

    fn bot_orders(&self, state: &Reading, side: &str) -> Vec<String> {
        Rules::bot_orders(self, state.typed::<R>(), side)
    }

    fn broken_armies(&self, state: &Reading) -> Vec<String> {
        Rules::broken_armies(self, state.typed::<R>())
    }

    fn ending(&self, state: &Reading) -> Option<Phrase> {
        state.finished.as_ref()?;
        Rules::ending(self, state.typed::<R>())
    }

    fn demo(&self) -> Option<Demo> {
        Rules::demo(self)
    }
}
