//! The percentile fire chapter: chapter 11.0 "Fire Combat" of a detailed
//! Napoleonic ruleset, on a continuous table, percentile dice.
//!
//! "During the Reciprocal Fire Phases, both Players may fire all, some or
//! none of their eligible units by alternately firing one unit at a time
//! until all desired, permissible fire has been executed in accordance with
//! the Fire Procedure and the Fire Combat rules." The chapter gives the
//! Fire Routines (11.15, 11.16, in `mechanics::fire`) and who may fire at
//! whom (`field`); its charts and tables are the campaign's parameters
//! (`params`, sample data shipped). Umpire calls (`umpire`) resolve one
//! fire attack set up in words; turns (`turn`) resolve the orders of a
//! phase on the table.

pub mod basing;
pub mod bot;
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
pub mod turn;
pub mod umpire;

use std::collections::BTreeMap;

use crate::audit::dice::Dice;
use crate::geometry::Rect;
use crate::rules::orders::{LineError, OrderSheet, ParseError};
use crate::rules::ruleset::{Demo, Event, PhaseSpec, Rules};
use crate::rules::setup::{Keys, SetupContext, UnitBasics, Vocabulary};
use crate::rules::umpire::{UmpireError, UmpireReport};

pub use state::{PfGame, PfUnit, State, Unit};

/// The id campaigns name the ruleset by.
pub const ID: &str = "percentile-fire";

/// The ruleset as a value; its campaign's readings and tables are carried
/// in the game state (`options`, `params`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PercentileFire;

/// The campaign this ruleset ships, played by `adjutant demo`.
const DEMO: Demo = Demo {
    folder: "percentile-fire-demo",
    campaign_toml: include_str!("../../../campaigns/percentile-fire-demo/campaign.toml"),
    scenario_toml: include_str!("../../../campaigns/percentile-fire-demo/scenario.toml"),
    passphrases: &[("allied", "hold-the-ridge"), ("french", "en-avant")],
    calls: &[
        "fire 6 x 12pdr, class B, roundshot, massed target, 8 inches",
        "fire 12 x musket class B two-rank linear 1.5\" opportunity attack 2",
        "critical hit shellfire",
        "officer hit 2 figures",
        "zones 9pdr 18\"",
    ],
};

impl Rules for PercentileFire {
    type Order = orders::Order;

    fn id(&self) -> &'static str {
        ID
    }

    fn phases(&self) -> &'static [PhaseSpec] {
        turn::PHASES
    }

    fn vocabulary(&self) -> Vocabulary {
        Vocabulary {
            options: setup::OPTIONS,
            nations: setup::NATIONS,
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
    ) -> Option<PfUnit> {
        setup::setup_unit(unit, keys, context)
    }

    /// The campaign's tables over the sample's: a table it gives replaces
    /// the sample's whole, so the state always holds every table in force.
    fn setup_params(&self, keys: &mut dyn Keys) -> Option<params::Params> {
        params::read::params(keys, params::sample())
    }

    fn read_line(&self, line: &str) -> Result<String, LineError> {
        orders::parse(line).map(|o| o.to_string())
    }

    fn check_orders(
        &self,
        state: &State,
        side: &str,
        lines: &[(usize, &str)],
    ) -> OrderSheet<orders::Order> {
        check_lines(state, side, lines)
    }

    /// Validation, and besides, tried through the phase's own code (ruling
    /// PF-39): a move that would end where a friend has just moved, a
    /// replacement of a unit already replaced, a fire the replacements
    /// leave without its shock, refused; what the enemy's fire may change,
    /// warned of.
    fn acknowledge(
        &self,
        state: &State,
        side: &str,
        lines: &[(usize, &str)],
    ) -> OrderSheet<orders::Order> {
        orders::foresee::acknowledge(state, side, lines)
    }

    fn resolve(
        &self,
        state: &State,
        orders: &BTreeMap<String, Vec<orders::Order>>,
        dice: &mut dyn Dice,
    ) -> (State, Vec<Event>) {
        match turn::Phase::of(state) {
            turn::Phase::Movement => turn::movement::resolve(state, orders, dice),
            turn::Phase::ArtilleryFire | turn::Phase::InfantryFire => {
                turn::reciprocal::resolve(state, orders, dice)
            }
            turn::Phase::Shock => turn::shock::resolve(state, orders, dice),
        }
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

    fn check_unit(&self, unit: &Unit) -> Result<(), String> {
        // The state's tables are not at hand here: what a correction sets
        // is checked for itself, and its weapon when it fires (ruling
        // PF-18).
        let problems = setup::unit_problems(unit, &params::Params::default());
        match problems.first() {
            None => Ok(()),
            Some((key, problem, clause)) => Err(format!("{key}: {problem} ({clause})")),
        }
    }

    fn unit_fields(&self) -> &'static [&'static str] {
        state::FIELDS
    }

    fn footprint(&self, unit: &Unit) -> Option<Rect> {
        basing::footprint(unit)
    }

    fn bot_orders(&self, state: &State, side: &str) -> Vec<String> {
        bot::orders_for(state, side)
    }

    fn demo(&self) -> Option<Demo> {
        Some(DEMO)
    }
}

/// Validation: each line read, its units looked up and the order checked
/// against the phase and the table as it stands.
pub(crate) fn check_lines(
    state: &State,
    side: &str,
    lines: &[(usize, &str)],
) -> OrderSheet<orders::Order> {
    let mut sheet = OrderSheet::default();
    let table = field::Table::new(state);
    let mut given = orders::check::Sheet::default();
    for &(line, raw) in lines {
        let written = match orders::parse(raw) {
            Ok(o) => o,
            Err(e) => {
                // Worded as the other rulesets word a line that does not
                // read: where, what was expected and found, and an example.
                sheet.parse_errors.push(ParseError {
                    line,
                    problem: format!("{} (for example `{}`)", e.message, e.example),
                });
                continue;
            }
        };
        let checked = orders::check::check(state, &table, &mut given, side, line, &written);
        match checked {
            Ok(o) => sheet.accepted.push(o),
            Err(r) => sheet.rejections.push(r),
        }
    }
    sheet
}
