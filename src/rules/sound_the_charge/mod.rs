//! "Sound the Charge" (Wes Rogers, 2008): Napoleonic miniatures on a
//! continuous table, D6, distances in inches.
//!
//! The turn: "The active side tests to rally shaken units, then moves all
//! desired units, including making charge moves. [...] The active side then
//! does all shooting with eligible units. [...] Both sides fight one round of
//! close combat [...] The active side reforms disordered units which stood
//! inactive this turn." The two sides trade the active role each turn.

pub mod basing;
pub mod bot;
pub mod combat;
pub mod general;
pub mod morale;
pub mod orders;
pub mod rally;
pub mod setup;
pub mod shooting;
pub mod syntax;
pub mod tables;
pub mod turn;
pub mod umpire;

use std::collections::BTreeMap;

use super::orders::{Order, OrderSheet, ParseError, Rejection, order_lines, words};
use super::ruleset::{Event, PhaseKind, PhaseSpec, Resolution, Ruleset, SetupProblem};
use super::state::{GameState, GeneralState, UnitState, UnitStatus};
use super::umpire::{UmpireError, UmpireReport};
use crate::audit::dice::Dice;
use crate::campaign::{Campaign, UnitSpec};
use crate::geometry::Rect;

pub const ID: &str = "sound-the-charge";

/// The ruleset as a value; the campaign's optional rules and national
/// modifiers are carried in the game state (`options`, `nations`).
pub struct SoundTheCharge;

/// Turn Sequence: "Each turn, one side will be either "active" or
/// "passive". The two sides trade active and passive roles each turn."
/// One mailed phase covers the active side's whole turn.
const PHASES: &[PhaseSpec] = &[PhaseSpec {
    name: "orders",
    kind: PhaseKind::ActiveSide,
    summary: "the active side gives its orders for the turn; the passive side may give standing orders",
}];

impl Ruleset for SoundTheCharge {
    fn id(&self) -> &'static str {
        ID
    }

    fn turn_phases(&self) -> &'static [PhaseSpec] {
        PHASES
    }

    fn initial_state(&self, campaign: &Campaign) -> GameState {
        let scenario = &campaign.scenario;
        GameState {
            campaign: campaign.id.clone(),
            ruleset: ID.to_string(),
            turn: 1,
            phase: 0,
            active_side: scenario.first_active.clone(),
            sides: campaign.sides.iter().map(|s| s.id.clone()).collect(),
            map: scenario.map.clone(),
            terrain: scenario.terrain.clone(),
            units: scenario
                .units
                .iter()
                .map(|u| UnitState {
                    spec: u.clone(),
                    original_strength: u.strength,
                    shaken: u.marks.iter().any(|m| m == "shaken"),
                    disordered: u.marks.iter().any(|m| m == "disordered"),
                    eliminated: None,
                    status: UnitStatus {
                        blown: u.marks.iter().any(|m| m == "blown"),
                        ..UnitStatus::default()
                    },
                })
                .collect(),
            generals: scenario
                .generals
                .iter()
                .map(|g| GeneralState {
                    spec: g.clone(),
                    lost: None,
                })
                .collect(),
            standing_orders: BTreeMap::new(),
            turn_limit: scenario.turn_limit,
            options: campaign.ruleset.options.clone(),
            nations: campaign
                .sides
                .iter()
                .filter_map(|s| s.nation.clone().map(|n| (s.id.clone(), n)))
                .collect(),
            finished: None,
        }
    }

    fn parse_order(&self, line: usize, text: &str) -> Result<Order, ParseError> {
        orders::parse(text)
            .map(|o| to_order(&o))
            .map_err(|e| ParseError {
                line,
                problem: e.to_string(),
            })
    }

    fn validate(
        &self,
        state: &GameState,
        side: &str,
        line: usize,
        order: Order,
    ) -> Result<Order, Rejection> {
        let parsed = orders::parse(&order.to_string()).map_err(|e| Rejection {
            line,
            unit: order.unit.clone(),
            problem: e.to_string(),
            clause: None,
        })?;
        let field = turn::field::Field::new(state);
        turn::validate::check(&field, side, line, &parsed).map(|o| to_order(&o))
    }

    /// As the default, but each order is checked with the side's other
    /// orders of the sheet, which decide whether a unit may shoot (ruling
    /// STC-71: a unit that charges may not; guns that unlimber may).
    fn check_orders(&self, state: &GameState, side: &str, text: &str) -> OrderSheet {
        let mut sheet = OrderSheet::default();
        let mut parsed = Vec::new();
        for (line, raw) in order_lines(text) {
            let w = words(raw);
            if w.first().map(String::as_str) == Some("salt") {
                sheet.salt.push(w[1..].join(" "));
                continue;
            }
            match orders::parse(raw) {
                Ok(order) => parsed.push((line, order)),
                Err(e) => sheet.parse_errors.push(ParseError {
                    line,
                    problem: e.to_string(),
                }),
            }
        }
        // Every other order first, on its own, then against the unit's
        // earlier lines; then each `shoot` order with the other orders
        // accepted, so that a move refused does not count against a shot.
        let is_shot = |o: &orders::StcOrder| matches!(o, orders::StcOrder::Shoot { .. });
        let field = turn::field::Field::new(state);
        let mut given = OrdersOfUnits::default();
        let mut results: Vec<Option<Result<orders::StcOrder, Rejection>>> = parsed
            .iter()
            .map(|(line, o)| {
                (!is_shot(o)).then(|| {
                    turn::validate::check(&field, side, *line, o)
                        .and_then(|o| given.admit(*line, o))
                })
            })
            .collect();
        // The orders accepted, their units resolved to ids.
        let others: Vec<orders::StcOrder> = results
            .iter()
            .filter_map(|r| match r {
                Some(Ok(o)) => Some(o.clone()),
                _ => None,
            })
            .collect();
        for ((line, o), r) in parsed.iter().zip(results.iter_mut()) {
            if r.is_none() {
                *r = Some(
                    turn::validate::check_in_sheet(&field, side, *line, o, &others)
                        .and_then(|o| given.admit(*line, o)),
                );
            }
        }
        for r in results.into_iter().flatten() {
            match r {
                Ok(o) => sheet.accepted.push(to_order(&o)),
                Err(r) => sheet.rejections.push(r),
            }
        }
        sheet
    }

    fn resolve(
        &self,
        state: &GameState,
        orders: &BTreeMap<String, Vec<Order>>,
        dice: &mut dyn Dice,
    ) -> Resolution {
        let (mut next, mut events) = turn::run(state, orders, dice);
        if next.finished.is_none() {
            advance_phase(&mut next, PHASES.len(), &mut events);
        }
        Resolution {
            state: next,
            events,
        }
    }

    fn umpire(&self, call: &str, dice: &mut dyn Dice) -> Result<UmpireReport, UmpireError> {
        umpire::call(call, dice)
    }

    fn umpire_help(&self) -> &'static str {
        umpire::HELP
    }

    fn troop_types(&self) -> &'static [&'static str] {
        setup::TROOP_TYPES
    }

    fn grades(&self) -> &'static [&'static str] {
        setup::GRADES
    }

    fn formations(&self) -> &'static [&'static str] {
        setup::FORMATIONS
    }

    fn footprint(&self, unit: &UnitSpec) -> Option<Rect> {
        basing::footprint(unit)
    }

    fn options(&self) -> &'static [&'static str] {
        setup::OPTIONS
    }

    fn nations(&self) -> &'static [&'static str] {
        setup::NATIONS
    }

    fn terrain_kinds(&self) -> &'static [&'static str] {
        setup::TERRAIN_KINDS
    }

    fn marks(&self) -> &'static [&'static str] {
        setup::MARKS
    }

    fn unit_problems(&self, unit: &UnitSpec) -> Vec<SetupProblem> {
        setup::unit_problems(unit)
    }

    fn apply_options(&self, options: &[String], unit: &mut UnitSpec) {
        setup::apply_options(options, unit)
    }
}

/// Moves to the next phase, the next turn and the other side's active turn,
/// and ends the game at the scenario's turn limit.
fn advance_phase(state: &mut GameState, phases: usize, events: &mut Vec<Event>) {
    state.phase += 1;
    if state.phase as usize >= phases {
        state.phase = 0;
        if state.turn_limit.is_some_and(|limit| state.turn >= limit) {
            state.finished = Some(format!("the turn limit ({}) was reached", state.turn));
            events.push(Event {
                kind: "game-over".to_string(),
                units: Vec::new(),
                text: format!("The game ends after turn {}.", state.turn),
            });
            return;
        }
        state.turn += 1;
        state.active_side = state.next_side(&state.active_side);
    }
}

/// The generic order of a typed order: the unit, the verb (the first word
/// after the unit) and the rest of its canonical text, so that
/// `Order::to_string` gives back the canonical line.
pub fn to_order(order: &orders::StcOrder) -> Order {
    let unit = order.unit().as_str().to_string();
    let text = order.to_string();
    let rest = text
        .strip_prefix(&format!("{unit}: "))
        .or_else(|| text.strip_prefix(&format!("\"{unit}\": ")))
        .unwrap_or(&text);
    let mut words = rest.split_whitespace().map(str::to_string);
    Order {
        verb: words.next().unwrap_or_default(),
        unit: Some(unit),
        words: words.collect(),
    }
}

/// What a sheet has already given each unit, so that a line contradicting
/// another one is refused rather than left for the turn to trip over: `hold`
/// with anything else, a second move (a path of steps is one line), a
/// second shot. A formation change and a move, or a move and a shot, may be
/// given on separate lines.
#[derive(Default)]
struct OrdersOfUnits {
    /// By unit id: the line of its `hold`, of its move, of its shot, and of
    /// its first order of any kind.
    lines: BTreeMap<String, [Option<usize>; 4]>,
}

impl OrdersOfUnits {
    const HOLD: usize = 0;
    const MOVE: usize = 1;
    const SHOT: usize = 2;
    const ANY: usize = 3;

    fn admit(
        &mut self,
        line: usize,
        order: orders::StcOrder,
    ) -> Result<orders::StcOrder, Rejection> {
        use orders::StcOrder as O;
        let unit = order.unit().as_str().to_string();
        let kind = match &order {
            O::Hold { .. } => Some(Self::HOLD),
            O::Move { .. }
            | O::Charge { .. }
            | O::Manhandle { .. }
            | O::MoveTo { .. }
            | O::Reinforce { .. }
            | O::Retreat { .. } => Some(Self::MOVE),
            O::Shoot { .. } => Some(Self::SHOT),
            _ => None,
        };
        let seen = self.lines.entry(unit.clone()).or_default();
        let conflict = match kind {
            Some(Self::HOLD) => seen[Self::ANY].map(|l| (l, "`hold` must be its only order")),
            Some(k) if seen[k].is_some() => seen[k].map(|l| {
                (
                    l,
                    if k == Self::MOVE {
                        "one move a turn: write the whole path on one line (`forward 2, wheel left 30`)"
                    } else {
                        "one shooting order a turn: split fire is one line (`shoot <target> split <second target>`)"
                    },
                )
            }),
            _ => seen[Self::HOLD].map(|l| (l, "it holds, so it can be given nothing else")),
        };
        if let Some((earlier, why)) = conflict {
            return Err(Rejection {
                line,
                unit: Some(unit.clone()),
                problem: format!("it is also given an order on line {earlier}; {why}"),
                clause: None,
            });
        }
        if let Some(k) = kind {
            seen[k] = Some(line);
        }
        seen[Self::ANY].get_or_insert(line);
        Ok(order)
    }
}
