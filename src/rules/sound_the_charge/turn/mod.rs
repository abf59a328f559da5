//! One turn of Sound the Charge, in the order the rules write it.
//!
//! Turn Sequence: "The active side tests to rally shaken units, then moves
//! all desired units, including making charge moves. The passive side may
//! make evade moves with eligible units in response to charges. [...] The
//! active side then does all shooting with eligible units. Passive units test
//! if hit by shooting. Both sides fight one round of close combat with units
//! in contact with each other. Losing units automatically do retreat moves
//! and suffer rout hits. The active side reforms disordered units which stood
//! inactive this turn." Then, with the optional rule, army morale; then the
//! turn limit, and the other side becomes active.
//!
//! Each phase is a function over the whole table taking the state, the
//! orders it needs, what earlier phases of this turn did ([`TurnRecord`]),
//! the audited dice and the event log. Phases draw dice in a fixed order
//! (units by their order of appearance in the state, orders by line), so the
//! same inputs give the same bytes whatever order the mails arrived in.

pub mod army_morale;
pub mod boats;
pub mod charge;
pub mod combat;
pub mod fighting;
pub mod movement;
pub mod overhead;
pub mod pursuit;
pub mod rally;
pub mod reform;
pub mod retreat;
pub mod shooting;
pub mod town;

use std::collections::{BTreeMap, BTreeSet};

use super::orders::StcOrder;
use crate::audit::dice::Dice;
use crate::geometry::Hundredths;
use crate::rules::ruleset::Event;
use crate::rules::sound_the_charge::events::{Kind, event};
use crate::rules::sound_the_charge::state::State;

pub use super::field::Field;

/// One accepted order: the line it came on and the order, every unit it
/// names resolved to an id by validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Given {
    pub line: usize,
    pub order: StcOrder,
}

/// A side's accepted orders for the turn, in the order of their lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SideOrders {
    pub side: String,
    pub orders: Vec<Given>,
}

impl SideOrders {
    /// The orders for one unit (or general), by id.
    pub fn for_unit<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a Given> + 'a {
        self.orders
            .iter()
            .filter(move |g| g.order.unit().as_str() == id)
    }
}

/// A charge made in the movement phase, for the phases after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargeMade {
    pub attacker: String,
    /// The unit charged, and any other unengaged enemy the charger ended
    /// within 1" of (Zones of Control: "it must also count as attacking
    /// those other units").
    pub targets: Vec<String>,
    /// Whether the charger reached contact.
    pub contacted: bool,
    /// Whether it used its charge bonus movement.
    pub bonus_used: bool,
    /// The charger's footprint before it charged, which is where it began
    /// the turn (a unit that has moved may not charge): Flank/rear Attacks,
    /// "the charging must begin the turn with one or more of its figures
    /// behind the target unit's frontage line".
    pub from: crate::geometry::Rect,
}

/// What the phases of this turn did that later phases read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnRecord {
    /// Units that moved (or changed formation or facing) this turn, with the
    /// distance moved and the allowance they had, in hundredths of an inch.
    /// Shooting: "Infantry may move half speed and fire at a penalty.
    /// Artillery may not move and shoot."
    pub moved: BTreeMap<String, Moved>,
    /// Units that changed formation or facing this turn.
    pub maneuvered: BTreeSet<String>,
    pub charges: Vec<ChargeMade>,
    /// Units that evaded a charge this turn.
    pub evaded: BTreeSet<String>,
    /// Units standing to reform ("The unit may not move, shoot, or be in
    /// combat on a turn during which it wishes to reform").
    pub reforming: BTreeSet<String>,
    /// Units that charged into the rear of a friend in combat to fight with
    /// it, and the friend: (unit, friend).
    pub reinforcements: Vec<(String, String)>,
    /// Units of the active side disordered when the turn began: only they
    /// can have stood a whole turn disordered, and so reform (STC-53).
    pub disordered_at_start: BTreeSet<String>,
    /// Units that took a rally test this turn, passed or not.
    pub rallied: BTreeSet<String>,
    /// Hits each unit took from shooting this turn, for the morale test's
    /// "Each hit suffered by shooting this turn".
    pub shooting_hits: BTreeMap<String, u32>,
    /// Orders the movement phase did not carry out as given, in the order
    /// it met them, for the acknowledgement (`foresee`), which refuses or
    /// warns of them before the turn is played.
    pub not_done: Vec<NotDone>,
}

/// An order the movement phase did not carry out as given: its line, the
/// unit or general it was for, what it could not do and why (the event's
/// words less the unit's name), and every unit those words name, by id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotDone {
    pub line: usize,
    pub unit: String,
    pub problem: String,
    /// The rule, where the words do not already end by citing one.
    pub clause: Option<String>,
    pub named: Vec<String>,
}

/// How far a unit moved this turn and what it could have moved.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Moved {
    pub distance: Hundredths,
    pub allowance: Hundredths,
}

impl TurnRecord {
    /// Whether the unit charged this turn ("Charging units may not shoot").
    pub fn charged(&self, id: &str) -> bool {
        self.charges.iter().any(|c| c.attacker == id)
    }
}

/// A side's accepted orders, each with its place in the side's canonical
/// list as its line.
fn given(side: &str, list: &[StcOrder]) -> SideOrders {
    SideOrders {
        side: side.to_string(),
        orders: list
            .iter()
            .enumerate()
            .map(|(i, order)| Given {
                line: i + 1,
                order: order.clone(),
            })
            .collect(),
    }
}

/// How the active side's orders will be tried, for the map of its
/// acknowledgement: the movement phase alone, on the state as it stands,
/// with no enemy answering (no evade) and dice from a throwaway stream, not
/// the turn's (which nobody knows before the deadline). The passive side
/// moves nothing of its own, so its orders draw nothing.
pub fn planned_moves(state: &State, side: &str, orders: &[StcOrder]) -> (State, Vec<Event>) {
    if side != state.active_side {
        return (state.clone(), Vec::new());
    }
    let planned = plan(state, &given(side, orders));
    (planned.state, planned.events)
}

/// The movement phase as [`planned_moves`] tries it, for the active side's
/// orders as given (with their lines): the state it leaves, its events, and
/// what it did, which the shooting phase would read.
pub struct Planned {
    pub state: State,
    pub events: Vec<Event>,
    pub record: TurnRecord,
}

/// See [`Planned`].
pub fn plan(state: &State, active: &SideOrders) -> Planned {
    let mut next = state.clone();
    let mut events = Vec::new();
    let mut dice = crate::audit::DiceStream::new(&crate::audit::Digest32::ZERO);
    let mut record = TurnRecord::default();
    movement::phase(&mut next, active, &[], &mut record, &mut dice, &mut events);
    Planned {
        state: next,
        events,
        record,
    }
}

/// Resolves one active turn: every phase in the order the rules give, then
/// army morale and the turn's end. `orders` holds each side's accepted
/// orders (a side that sent none is absent).
pub fn run(
    state: &State,
    orders: &BTreeMap<String, Vec<StcOrder>>,
    dice: &mut dyn Dice,
) -> (State, Vec<Event>) {
    let mut next = state.clone();
    let mut events = Vec::new();
    let active_side = state.active_side.clone();
    let active = given(
        &active_side,
        orders.get(&active_side).map_or(&[][..], Vec::as_slice),
    );
    if !orders.contains_key(&active_side) {
        events.push(
            event(
                Kind::NoOrders,
                &[],
                format!("{active_side} sent no orders; every unit stands fast."),
            )
            .also_naming(&[&active_side]),
        );
    }
    // The passive side's standing orders (evade), every passive side in the
    // state's order of sides.
    let passive: Vec<SideOrders> = state
        .sides
        .iter()
        .filter(|s| **s != active_side)
        .map(|s| given(s, orders.get(s).map_or(&[][..], Vec::as_slice)))
        .collect();
    let mut record = TurnRecord {
        disordered_at_start: state
            .units
            .iter()
            .filter(|u| u.rules.disordered && u.side == active_side)
            .map(|u| u.id.clone())
            .collect(),
        ..TurnRecord::default()
    };

    // Britain: cavalry that followed an enemy off the table "test at the
    // start of each active turn to see if it returns".
    pursuit::returns(&mut next, dice, &mut events);
    // "The active side tests to rally shaken units".
    rally::phase(&mut next, &active, &mut record, dice, &mut events);
    // "then moves all desired units, including making charge moves. The
    // passive side may make evade moves with eligible units in response to
    // charges."
    movement::phase(&mut next, &active, &passive, &mut record, dice, &mut events);
    army_morale::remove_shattered(&mut next, &mut events);
    // "The active side then does all shooting with eligible units. Passive
    // units test if hit by shooting."
    shooting::phase(&mut next, &active, &mut record, dice, &mut events);
    army_morale::remove_shattered(&mut next, &mut events);
    // "Both sides fight one round of close combat with units in contact with
    // each other. Losing units automatically do retreat moves and suffer
    // rout hits."
    combat::phase(&mut next, &mut record, dice, &mut events);
    army_morale::remove_shattered(&mut next, &mut events);
    // "The active side reforms disordered units which stood inactive this
    // turn."
    reform::phase(&mut next, &active, &mut record, &mut events);
    // Army Morale (optional): "if that side ends any turn (active or
    // passive) with half or more of its units eliminated [...] or in shaken
    // status".
    army_morale::check(&mut next, dice, &mut events);

    for side in &state.sides {
        if let Some(list) = orders.get(side) {
            next.standing_orders
                .insert(side.clone(), list.iter().map(ToString::to_string).collect());
        }
    }
    (next, events)
}
