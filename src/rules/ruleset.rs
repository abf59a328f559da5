//! The one trait every ruleset implements, and the list of rulesets.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::orders::{Order, OrderSheet, ParseError, Rejection, order_lines, words};
use super::state::GameState;
use super::umpire::{UmpireError, UmpireReport};
use crate::audit::dice::Dice;
use crate::campaign::Campaign;

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

/// What a resolution produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    pub state: GameState,
    pub events: Vec<Event>,
}

/// One thing that happened, as the report and the archive tell it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub kind: String,
    /// The units involved, by id.
    pub units: Vec<String>,
    pub text: String,
}

/// The part of a unit's setup a [`SetupProblem`] is about, so that the
/// campaign check can point at the value in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitField {
    TroopType,
    Grade,
    Strength,
    Gunners,
    Formation,
    Ranks,
}

/// Why a unit cannot be set up as the scenario gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupProblem {
    pub field: UnitField,
    pub problem: String,
    /// The clause of the rules that forbids it, quoted.
    pub clause: Option<&'static str>,
}

/// A ruleset: its phases, its orders and how a phase is resolved.
pub trait Ruleset: Sync {
    /// The id campaigns name it by.
    fn id(&self) -> &'static str;
    /// The phases of one turn, in order.
    fn turn_phases(&self) -> &'static [PhaseSpec];
    /// The state at the start of the game.
    fn initial_state(&self, campaign: &Campaign) -> GameState;
    /// Reads one order line (syntax only).
    fn parse_order(&self, line: usize, text: &str) -> Result<Order, ParseError>;
    /// Checks a parsed order against the state, for `side`, in the current phase.
    fn validate(
        &self,
        state: &GameState,
        side: &str,
        line: usize,
        order: Order,
    ) -> Result<Order, Rejection>;
    /// Resolves the current phase with every side's accepted orders (a side
    /// that sent none is absent from the map), and moves to the next phase.
    fn resolve(
        &self,
        state: &GameState,
        orders: &BTreeMap<String, Vec<Order>>,
        dice: &mut dyn Dice,
    ) -> Resolution;
    /// Performs one umpire call.
    fn umpire(&self, call: &str, dice: &mut dyn Dice) -> Result<UmpireReport, UmpireError>;
    /// The umpire calls this ruleset offers, with how each is written.
    fn umpire_help(&self) -> &'static str;

    /// The troop types, grades and formations a scenario may use, for the
    /// campaign check's "unknown unit type" and the like. Empty means any.
    fn troop_types(&self) -> &'static [&'static str] {
        &[]
    }
    fn grades(&self) -> &'static [&'static str] {
        &[]
    }
    fn formations(&self) -> &'static [&'static str] {
        &[]
    }

    /// The rectangle a unit covers on a table, for the off-map and overlap
    /// checks; `None` where the ruleset has no footprint (hex maps).
    fn footprint(&self, _unit: &crate::campaign::UnitSpec) -> Option<crate::geometry::Rect> {
        None
    }

    /// The optional rules a campaign may switch on, the nations whose
    /// modifiers a side may take, the terrain kinds a scenario may lay out
    /// and the marks a unit may start with, for the campaign check. Empty
    /// means any.
    fn options(&self) -> &'static [&'static str] {
        &[]
    }
    fn nations(&self) -> &'static [&'static str] {
        &[]
    }
    fn terrain_kinds(&self) -> &'static [&'static str] {
        &[]
    }
    fn marks(&self) -> &'static [&'static str] {
        &[]
    }

    /// What keeps a unit from being set up as the scenario gives it, once
    /// its troop type, grade and formation are each known (a formation its
    /// troop type cannot take, guns without gunners, ...).
    fn unit_problems(&self, _unit: &crate::campaign::UnitSpec) -> Vec<SetupProblem> {
        Vec::new()
    }

    /// Settles in a unit what the campaign's options change about it before
    /// play, such as wider bases, so later code reads it from the unit.
    fn apply_options(&self, _options: &[String], _unit: &mut crate::campaign::UnitSpec) {}

    /// The current phase's spec.
    fn phase_of(&self, state: &GameState) -> &'static PhaseSpec {
        let phases = self.turn_phases();
        &phases[(state.phase as usize).min(phases.len() - 1)]
    }

    /// Reads and checks a whole order text for `side`: salt lines are taken
    /// as they are, every other line goes through parse and validate.
    fn check_orders(&self, state: &GameState, side: &str, text: &str) -> OrderSheet {
        let mut sheet = OrderSheet::default();
        for (line, raw) in order_lines(text) {
            let w = words(raw);
            if w.first().map(String::as_str) == Some("salt") {
                sheet.salt.push(w[1..].join(" "));
                continue;
            }
            match self.parse_order(line, raw) {
                Err(e) => sheet.parse_errors.push(e),
                Ok(order) => match self.validate(state, side, line, order) {
                    Ok(order) => sheet.accepted.push(order),
                    Err(r) => sheet.rejections.push(r),
                },
            }
        }
        sheet
    }
}

/// The ruleset a campaign names, if adjutant knows it.
pub fn ruleset_for(id: &str) -> Option<&'static dyn Ruleset> {
    match id {
        super::sound_the_charge::ID => Some(&super::sound_the_charge::SoundTheCharge),
        _ => None,
    }
}

/// The ids of every ruleset, for error messages.
pub const KNOWN_RULESETS: &[&str] = &[super::sound_the_charge::ID];
