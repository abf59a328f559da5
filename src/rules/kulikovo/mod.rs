//! "Kulikovo 1380: The Golden Horde" (Richard H. Berg, Against the Odds
//! #18), a system derived from "Men of Iron": counters on a hex map, a die
//! read 0-9, the terrain effects chart and the combat tables (missile fire,
//! shock, charge, the weapons system matrix, charge reluctance and
//! counter-charge). The text gives the tables only; the sequence of play,
//! movement allowances, stacking, facing, Retire, leaders and the Strength
//! Advantage numbers are campaign parameters (`params`) and rulings (KUL- in
//! docs/RULINGS.md).

pub mod bot;
pub mod clauses;
pub mod events;
pub mod field;
pub mod ground;
pub mod mechanics;
pub mod orders;
pub mod params;
pub mod present;
pub mod sample;
pub mod setup;
pub mod sight;
pub mod state;
pub mod tables;
#[cfg(test)]
mod told_tests;
pub mod turn;
pub mod umpire;

pub use state::{KulUnit, State, Unit, Weapon};

pub const ID: &str = "kulikovo";

/// The ruleset as a value; the campaign's parameters are carried in the
/// game state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kulikovo;

use std::collections::BTreeMap;

use crate::audit::dice::Dice;
use crate::rules::orders::{LineError, OrderSheet};
use crate::rules::phrase::Phrase;
use crate::rules::ruleset::{Demo, Event, PhaseKind, PhaseSpec, Rules};
use crate::rules::setup::{Keys, SetupContext, UnitBasics, Vocabulary};
use crate::rules::umpire::{UmpireError, UmpireReport};

/// A turn is two activations, one a side, each one phase by mail (ruling
/// KUL-1); the second ends with the recovery of disordered and retired
/// units.
const PHASES: &[PhaseSpec] = &[
    PhaseSpec {
        name: "first-activation",
        kind: PhaseKind::ActiveSide,
        summary: "the side with the initiative moves, fires, shocks and charges; the other side may order counter-charges",
    },
    PhaseSpec {
        name: "second-activation",
        kind: PhaseKind::ActiveSide,
        summary: "the other side moves, fires, shocks and charges; the first may order counter-charges; then disordered and retired units recover",
    },
];

impl Rules for Kulikovo {
    type Order = orders::KulOrder;

    fn id(&self) -> &'static str {
        ID
    }

    fn phases(&self) -> &'static [PhaseSpec] {
        PHASES
    }

    fn vocabulary(&self) -> Vocabulary {
        Vocabulary {
            options: params::OPTIONS,
            nations: setup::NATIONS,
            terrain_kinds: ground::TERRAIN_KINDS,
            tables: false,
            hexes: true,
        }
    }

    fn setup_unit(
        &self,
        unit: UnitBasics<'_>,
        keys: &mut dyn Keys,
        context: &SetupContext<'_>,
    ) -> Option<KulUnit> {
        setup::setup_unit(unit, keys, context)
    }

    fn setup_params(&self, keys: &mut dyn Keys) -> Option<params::Params> {
        params::read(keys)
    }

    fn initial_game(&self, state: &State) -> state::KulGame {
        state::KulGame {
            first_side: state.active_side.clone(),
        }
    }

    fn read_line(&self, line: &str) -> Result<String, LineError> {
        orders::parse::parse(line)
            .map(|o| o.to_string())
            .map_err(|e| LineError {
                column: e.column,
                message: e.to_string(),
                example: e.example.to_string(),
            })
    }

    fn check_orders(
        &self,
        state: &State,
        side: &str,
        lines: &[(usize, &str)],
    ) -> OrderSheet<orders::KulOrder> {
        orders::check::check(state, side, lines)
    }

    /// Validation, which already tries each line as the activation carries
    /// it out with no die, and warnings of the lines whose target the
    /// side's own fire may drive off or destroy first (ruling KUL-26).
    fn acknowledge(
        &self,
        state: &State,
        side: &str,
        lines: &[(usize, &str)],
    ) -> OrderSheet<orders::KulOrder> {
        orders::foresee::acknowledge(state, side, lines)
    }

    fn resolve(
        &self,
        state: &State,
        orders: &BTreeMap<String, Vec<orders::KulOrder>>,
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

    /// Ruling KUL-7: "no move, retreat or advance ends with more than
    /// `stacking_limit` units of a side in a hex (leaders do not count)";
    /// KUL-5 and KUL-8: a unit never enters a hex holding the enemy.
    fn stacking_limit(&self, state: &State) -> Option<u32> {
        Some(state.params.stacking_limit)
    }

    fn bot_orders(&self, state: &State, side: &str) -> Vec<String> {
        bot::orders_for(state, side)
    }

    /// Ruling KUL-22: a side that has lost `army_breaks_at` units or more,
    /// as the end of the turn that ended the game found it.
    fn broken_armies(&self, state: &State) -> Vec<String> {
        if state.finished.is_none() {
            return Vec::new();
        }
        turn::end::broken(state)
    }

    fn ending(&self, state: &State) -> Option<Phrase> {
        turn::end::breaks(state)
    }

    fn demo(&self) -> Option<Demo> {
        Some(DEMO)
    }
}

/// The campaign this ruleset ships, played by `adjutant demo --campaign
/// kulikovo-1380`.
const DEMO: Demo = Demo {
    folder: "kulikovo-1380",
    campaign_toml: include_str!("../../../campaigns/kulikovo-1380/campaign.toml"),
    scenario_toml: include_str!("../../../campaigns/kulikovo-1380/scenario.toml"),
    passphrases: &[("russians", "za-zemlyu-russkuyu"), ("horde", "mamai-khan")],
    calls: &[
        "fire B at M range 1",
        "charge H vs R through flank counter-charge",
        "shock R vs L disordered",
        "reluctance M",
        "counter-charge shock +1 flank",
        "matrix L vs B",
        "terrain steep-slope",
        "death-of-leader",
    ],
};
