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
pub mod events;
pub mod field;
pub mod ground;
pub mod mechanics;
pub mod orders;
pub mod present;
pub mod sample;
pub mod setup;
pub mod sight;
pub mod state;
pub mod tables;
pub mod turn;
pub mod umpire;

use std::collections::BTreeMap;

use crate::audit::dice::Dice;
use crate::geometry::Rect;
use crate::rules::orders::{LineError, OrderSheet, ParseError, Rejection};
use crate::rules::phrase::Phrase;
use crate::rules::ruleset::{Demo, Event, PhaseKind, PhaseSpec, Rules};
use crate::rules::setup::{Keys, SetupContext, UnitBasics, Vocabulary};
use crate::rules::umpire::{UmpireError, UmpireReport};

pub use state::{State, StcUnit, Unit, UnitStatus};

pub const ID: &str = "sound-the-charge";

/// The ruleset as a value; the campaign's optional rules and national
/// modifiers are carried in the game state (`options`, `nations`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SoundTheCharge;

/// Turn Sequence: "Each turn, one side will be either "active" or
/// "passive". The two sides trade active and passive roles each turn."
/// One mailed phase covers the active side's whole turn.
const PHASES: &[PhaseSpec] = &[PhaseSpec {
    name: "orders",
    kind: PhaseKind::ActiveSide,
    summary: "the active side gives its orders for the turn; the passive side may give standing orders",
}];

/// The campaign this ruleset ships, played by `adjutant demo`.
const DEMO: Demo = Demo {
    folder: "sound-the-charge-demo",
    campaign_toml: include_str!("../../../campaigns/sound-the-charge-demo/campaign.toml"),
    scenario_toml: include_str!("../../../campaigns/sound-the-charge-demo/scenario.toml"),
    passphrases: &[
        ("french", "vive-l-empereur"),
        ("austrian", "gott-erhalte-franz"),
    ],
    calls: &[
        "shoot 12 line-infantry grade B range 3",
        "morale grade C hits 2",
        "combat attacker 12 line-infantry grade B vs defender 4 field-guns grade C",
        "rally grade C enemy-can-charge",
    ],
};

impl Rules for SoundTheCharge {
    type Order = orders::StcOrder;

    fn id(&self) -> &'static str {
        ID
    }

    fn phases(&self) -> &'static [PhaseSpec] {
        PHASES
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
    ) -> Option<StcUnit> {
        setup::setup_unit(unit, keys, context)
    }

    fn read_line(&self, line: &str) -> Result<String, LineError> {
        orders::parse(line)
            .map(|o| o.to_string())
            .map_err(|e| LineError {
                column: e.column,
                message: e.to_string(),
                example: e.hint.clone(),
            })
    }

    /// Each order is checked with the side's other orders of the sheet,
    /// which decide whether a unit may shoot (ruling STC-71: a unit that
    /// charges may not; guns that unlimber may).
    fn check_orders(
        &self,
        state: &State,
        side: &str,
        lines: &[(usize, &str)],
    ) -> OrderSheet<orders::StcOrder> {
        check_lines(state, side, lines).0
    }

    /// What `check_orders` accepts, tried as the turn would carry it out
    /// (`turn::foresee`, ruling STC-100): a line the turn would certainly
    /// not carry out is refused, and the rest checked again without it,
    /// since a line may stand on one refused (a shot beside the unlimbering
    /// of its guns), until nothing more is refused; what may yet go
    /// otherwise is warned of.
    fn acknowledge(
        &self,
        state: &State,
        side: &str,
        lines: &[(usize, &str)],
    ) -> OrderSheet<orders::StcOrder> {
        let mut kept = lines.to_vec();
        let mut refused = Vec::new();
        loop {
            let (mut sheet, given) = check_lines(state, side, &kept);
            let foreseen = orders::foresee::foresee(state, side, &given);
            if foreseen.refused.is_empty() {
                sheet.rejections.extend(refused);
                sheet.rejections.sort_by_key(|r| r.line);
                sheet.warnings = foreseen.warnings;
                return sheet;
            }
            let out: Vec<usize> = foreseen.refused.iter().map(|r| r.line).collect();
            kept.retain(|(line, _)| !out.contains(line));
            refused.extend(foreseen.refused);
        }
    }

    fn resolve(
        &self,
        state: &State,
        orders: &BTreeMap<String, Vec<orders::StcOrder>>,
        dice: &mut dyn Dice,
    ) -> (State, Vec<Event>) {
        let (mut next, mut events) = turn::run(state, orders, dice);
        if next.finished.is_none() {
            advance_phase(&mut next, PHASES.len(), &mut events);
        }
        (next, events)
    }

    /// The calls are free-standing: they read nothing of the state.
    fn umpire(
        &self,
        _state: &State,
        call: &str,
        dice: &mut dyn Dice,
    ) -> Result<UmpireReport, UmpireError> {
        umpire::call(call, dice)
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

    fn broken_armies(&self, state: &State) -> Vec<String> {
        turn::army_morale::broken_armies(state)
    }

    fn ending(&self, state: &State) -> Option<Phrase> {
        turn::army_morale::ending(state)
    }

    fn demo(&self) -> Option<Demo> {
        Some(DEMO)
    }
}

/// The sheet for `lines`, with each accepted order beside its line (see
/// `check_orders`).
fn check_lines(
    state: &State,
    side: &str,
    lines: &[(usize, &str)],
) -> (OrderSheet<orders::StcOrder>, Vec<turn::Given>) {
    let mut sheet = OrderSheet::default();
    let mut parsed = Vec::new();
    for &(line, raw) in lines {
        match orders::parse(raw) {
            Ok(order) => parsed.push((line, order)),
            // The unit is named as the line names it, when it does:
            // everything before the first colon (docs/ORDERS.md).
            Err(e) => sheet.parse_errors.push(ParseError {
                line,
                problem: match raw.split_once(':').map(|(u, _)| u.trim()) {
                    Some(unit) if !unit.is_empty() => format!("{unit}: {e}"),
                    _ => e.to_string(),
                },
            }),
        }
    }
    // Every other order first, on its own, then against the unit's
    // earlier lines; then each `shoot` order with the other orders
    // accepted, so that a move refused does not count against a shot.
    let is_shot = |o: &orders::Written| matches!(o, orders::StcOrder::Shoot { .. });
    let field = field::Field::new(state);
    let sight = sight::Sight::of(state, side);
    let mut given = OrdersOfUnits::default();
    let mut results: Vec<Option<Result<orders::StcOrder, Rejection>>> = parsed
        .iter()
        .map(|(line, o)| {
            (!is_shot(o)).then(|| {
                orders::check::check(&field, &sight, side, *line, o)
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
                orders::check::check_in_sheet(&field, &sight, side, *line, o, &others)
                    .and_then(|o| given.admit(*line, o)),
            );
        }
    }
    let mut accepted = Vec::new();
    for ((line, _), r) in parsed.iter().zip(results) {
        match r {
            Some(Ok(o)) => {
                accepted.push(turn::Given {
                    line: *line,
                    order: o.clone(),
                });
                sheet.accepted.push(o);
            }
            Some(Err(r)) => sheet.rejections.push(r),
            None => {}
        }
    }
    (sheet, accepted)
}

/// Moves to the next phase, the next turn and the other side's active turn,
/// and ends the game at the scenario's turn limit.
fn advance_phase(state: &mut State, phases: usize, events: &mut Vec<Event>) {
    state.phase += 1;
    if state.phase as usize >= phases {
        state.phase = 0;
        if state.turn_limit.is_some_and(|limit| state.turn >= limit) {
            state.finished = Some(format!("the turn limit ({}) was reached", state.turn));
            events.push(events::event(
                events::Kind::GameOver,
                &[],
                format!("The game ends after turn {}.", state.turn),
            ));
            return;
        }
        state.turn += 1;
        state.active_side = state.next_side(&state.active_side);
    }
}

/// What a sheet has already given each unit, so that a line contradicting
/// another one is refused rather than left for the turn to trip over: `hold`
/// with anything else, a second move (a path of steps is one line), a
/// second shot. A formation change and a move, or a move and a shot, may be
/// given on separate lines.
#[derive(Default)]
struct OrdersOfUnits {
    /// By unit id: the line of its `hold`, of its move, of its shot, of
    /// its evade, and of its first order of any kind.
    lines: BTreeMap<String, [Option<usize>; 5]>,
    /// By unit id, every order admitted for it, with its line: the same
    /// order given twice is refused, naming the line that gave it first.
    given: BTreeMap<String, Vec<(usize, orders::StcOrder)>>,
}

impl OrdersOfUnits {
    const HOLD: usize = 0;
    const MOVE: usize = 1;
    const SHOT: usize = 2;
    const EVADE: usize = 3;
    const ANY: usize = 4;

    fn admit(
        &mut self,
        line: usize,
        order: orders::StcOrder,
    ) -> Result<orders::StcOrder, Rejection> {
        use orders::StcOrder as O;
        let unit = order.unit().as_str().to_string();
        let given = self.given.entry(unit.clone()).or_default();
        if let Some((earlier, _)) = given.iter().find(|(_, o)| *o == order) {
            return Err(Rejection {
                line,
                unit: Some(unit),
                problem: format!("it repeats the order on line {earlier}; an order is given once"),
                clause: None,
            });
        }
        let kind = match &order {
            O::Hold { .. } => Some(Self::HOLD),
            O::Move { .. }
            | O::Charge { .. }
            | O::Manhandle { .. }
            | O::MoveTo { .. }
            | O::Reinforce { .. }
            | O::Retreat { .. } => Some(Self::MOVE),
            O::Shoot { .. } => Some(Self::SHOT),
            O::Evade { .. } => Some(Self::EVADE),
            _ => None,
        };
        let seen = self.lines.entry(unit.clone()).or_default();
        let conflict = match kind {
            Some(Self::HOLD) => seen[Self::ANY].map(|l| (l, "`hold` must be its only order")),
            Some(k) if seen[k].is_some() => seen[k].map(|l| {
                (
                    l,
                    match k {
                        Self::MOVE => {
                            "one move a turn: write the whole path on one line (`forward 2, wheel left 30`)"
                        }
                        Self::SHOT => {
                            "one shooting order a turn: split fire is one line (`shoot <target> split <second target>`)"
                        }
                        _ => "one evade order a turn",
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
        given.push((line, order.clone()));
        Ok(order)
    }
}
