//! "Grande Tactique", its "Charging" chapter: the charge procedure of a
//! Napoleonic miniatures ruleset, on a continuous table, with PIPs, eager,
//! shaken and routed morale and Morale Checks.
//!
//! The chapter is played exactly as written: charges declared and paid for
//! in the PIP Phase, combined charges with a principal attacker, the
//! attackers' and defenders' Morale Checks, countercharges, Locked in
//! Combat, taking the position, follow-up charges, pursuit, cuirassiers and
//! lancers. What it refers to and does not contain (the Morale Check,
//! Fleeing & Routing, PIP generation, movement and firing) is the
//! campaign's parameters with documented defaults; every reading is a
//! ruling `GT-n` in docs/RULINGS.md.

pub mod basing;
pub mod bot;
pub mod clauses;
pub mod events;
pub mod field;
pub mod mechanics;
pub mod orders;
pub mod params;
pub mod present;
pub mod sample;
pub mod setup;
pub mod sight;
pub mod state;
#[cfg(test)]
mod told_tests;
pub mod turn;
pub mod umpire;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use crate::audit::dice::Dice;
use crate::geometry::Rect;
use crate::rules::orders::{LineError, OrderSheet};
use crate::rules::phrase::Phrase;
use crate::rules::ruleset::{Demo, Event, PhaseSpec, Rules};
use crate::rules::setup::{Keys, SetupContext, UnitBasics, Vocabulary};
use crate::rules::umpire::{UmpireError, UmpireReport};

pub use params::Params;
pub use state::{GtGame, GtUnit, State, Unit};

pub const ID: &str = "grande-tactique";

/// The ruleset as a value; the campaign's options and parameters are in the
/// game state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GrandeTactique;

/// The campaign this ruleset ships, played by `adjutant demo`.
const DEMO: Demo = Demo {
    folder: "grande-tactique-demo",
    campaign_toml: include_str!("../../../campaigns/grande-tactique-demo/campaign.toml"),
    scenario_toml: include_str!("../../../campaigns/grande-tactique-demo/scenario.toml"),
    passphrases: &[
        ("french", "en-avant-les-cuirassiers"),
        ("austrian", "die-ulanen-reiten"),
    ],
    // Calls that stand whatever the game did to the units.
    calls: &[
        "morale veteran shaken built-up-area",
        "morale cuirassiers-charging-cavalry help-from-friends",
        "locked 1-cuirassiers vs ulanen-schwarzenberg",
    ],
};

impl Rules for GrandeTactique {
    type Order = orders::GtOrder;

    fn id(&self) -> &'static str {
        ID
    }

    fn phases(&self) -> &'static [PhaseSpec] {
        turn::PHASES
    }

    fn vocabulary(&self) -> Vocabulary {
        Vocabulary {
            options: setup::OPTIONS,
            nations: &[],
            terrain_kinds: setup::TERRAIN_KINDS,
            tables: true,
            hexes: false,
        }
    }

    fn setup_unit(
        &self,
        unit: UnitBasics<'_>,
        keys: &mut dyn Keys,
        context: &SetupContext<'_>,
    ) -> Option<GtUnit> {
        setup::setup_unit(unit, keys, context)
    }

    fn setup_params(&self, keys: &mut dyn Keys) -> Option<Params> {
        params::read(keys)
    }

    /// Every command begins with the campaign's `first_turn_pips` (GT-5).
    fn initial_game(&self, state: &State) -> GtGame {
        let mut pips = BTreeMap::new();
        for (side, commands) in turn::commands(state) {
            let by: BTreeMap<String, u32> = commands
                .into_iter()
                .map(|c| (c, state.params.first_turn_pips))
                .collect();
            pips.insert(side, by);
        }
        GtGame {
            pips,
            charges: Vec::new(),
        }
    }

    fn read_line(&self, line: &str) -> Result<String, LineError> {
        orders::parse(line)
            .map(|o| o.to_string())
            .map_err(|e| LineError {
                column: e.column,
                message: e.message.clone(),
                example: e.example.clone(),
            })
    }

    fn check_orders(
        &self,
        state: &State,
        side: &str,
        lines: &[(usize, &str)],
    ) -> OrderSheet<orders::GtOrder> {
        orders::check::check(state, side, lines)
    }

    /// Validation, then the PIP Phase's moves, turns and changes of
    /// formation tried as the phase carries them out, the side's own orders
    /// in their order (ruling GT-27): validation measures each on the field
    /// as it stands, the phase on the field as the side's earlier lines
    /// leave it. For the side whose orders the phase carries out first, one
    /// it would not make is refused with the rules' words and clause; for a
    /// side after it, the first side's moves come before and may change
    /// that, so it is warned of.
    fn acknowledge(
        &self,
        state: &State,
        side: &str,
        lines: &[(usize, &str)],
    ) -> OrderSheet<orders::GtOrder> {
        orders::foresee::acknowledge(state, side, lines)
    }

    fn resolve(
        &self,
        state: &State,
        orders: &BTreeMap<String, Vec<orders::GtOrder>>,
        dice: &mut dyn Dice,
    ) -> (State, Vec<Event>) {
        turn::run(state, orders, dice)
    }

    fn umpire(
        &self,
        state: &State,
        call: &str,
        dice: &mut dyn Dice,
    ) -> Result<UmpireReport, UmpireError> {
        umpire::call(state, call, dice)
    }

    fn umpire_help(&self) -> &'static str {
        umpire::HELP
    }

    fn unit_fields(&self) -> &'static [&'static str] {
        state::FIELDS
    }

    fn check_unit(&self, unit: &Unit) -> Result<(), String> {
        setup::check_corrected(unit)
    }

    fn footprint(&self, unit: &Unit) -> Option<Rect> {
        basing::footprint(unit)
    }

    fn bot_orders(&self, state: &State, side: &str) -> Vec<String> {
        bot::orders_for(state, side)
    }

    /// Ruling GT-22: a side with no unit left in play that is not routed,
    /// in a state the game ended in.
    fn broken_armies(&self, state: &State) -> Vec<String> {
        if state.finished.is_none() {
            return Vec::new();
        }
        turn::end::routed_armies(state)
    }

    fn ending(&self, state: &State) -> Option<Phrase> {
        turn::end::ending(state)
    }

    fn demo(&self) -> Option<Demo> {
        Some(DEMO)
    }
}
