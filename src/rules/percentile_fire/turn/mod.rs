//! The phases of a turn and how the game moves through them. The chapter
//! names the Movement Phase, the Reciprocal Artillery Fire Phase, the
//! Reciprocal Infantry Fire Phase and the Shock Combat Phase; their order,
//! and the side that moves, are outside it (ruling PF-2): the sides take
//! the phasing role turn about, the phasing side moves, both sides fire in
//! the two reciprocal phases, and shocks declared in the move are met in
//! the Shock Combat Phase, which is passed over when none was declared.

pub mod fire;
pub mod movement;
pub mod reciprocal;
pub mod shock;

use super::events::Kind;
use super::state::State;
use crate::rules::ruleset::{Event, PhaseKind, PhaseSpec};

/// The phases, in the order a turn plays them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Movement,
    ArtilleryFire,
    InfantryFire,
    Shock,
}

pub const PHASES: &[PhaseSpec] = &[
    PhaseSpec {
        name: "movement",
        kind: PhaseKind::ActiveSide,
        summary: "the phasing side moves; the other side may give standing orders for opportunity and passby fire",
    },
    PhaseSpec {
        name: "artillery-fire",
        kind: PhaseKind::AllSides,
        summary: "both sides give the fire of their batteries, resolved one battery at a time, side about",
    },
    PhaseSpec {
        name: "infantry-fire",
        kind: PhaseKind::AllSides,
        summary: "both sides give the fire of their infantry and cavalry, resolved one unit at a time, side about",
    },
    PhaseSpec {
        name: "shock",
        kind: PhaseKind::AllSides,
        summary: "the defending side gives final shock combat and supportive fire against the shocks declared",
    },
];

impl Phase {
    pub const ALL: [Phase; 4] = [
        Phase::Movement,
        Phase::ArtilleryFire,
        Phase::InfantryFire,
        Phase::Shock,
    ];

    pub fn of(state: &State) -> Phase {
        Phase::ALL
            .get(state.phase as usize)
            .copied()
            .unwrap_or(Phase::Shock)
    }

    /// What the chapter calls it.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Movement => "Movement Phase",
            Phase::ArtilleryFire => "Reciprocal Artillery Fire Phase",
            Phase::InfantryFire => "Reciprocal Infantry Fire Phase",
            Phase::Shock => "Shock Combat Phase",
        }
    }

    pub fn index(self) -> u32 {
        match self {
            Phase::Movement => 0,
            Phase::ArtilleryFire => 1,
            Phase::InfantryFire => 2,
            Phase::Shock => 3,
        }
    }
}

/// The phase of the game, counted from the first: four a turn.
pub fn number(state: &State) -> u32 {
    state.turn.saturating_mul(4).saturating_add(state.phase)
}

/// The side that does not move this turn.
pub fn non_phasing(state: &State) -> String {
    state.next_side(&state.active_side)
}

/// Moves to the next phase: each unit's fire attacks of the phase are
/// forgotten (11.87 counts them in one phase only); past the last phase,
/// the next turn, with the other side phasing, and the end of the game at
/// the scenario's turn limit.
pub fn advance(state: &mut State, events: &mut Vec<Event>) {
    for u in &mut state.units {
        u.rules.fire_attacks = 0;
    }
    let mut next = Phase::ALL.get(state.phase as usize + 1).copied();
    if next == Some(Phase::Shock) && state.game.shocks.is_empty() {
        events.push(Event::of(
            Kind::Phase,
            &[],
            "No shock was declared: the Shock Combat Phase is passed over.",
        ));
        next = None;
    }
    let over = Phase::of(state).name();
    match next {
        Some(p) => {
            state.phase = p.index();
            events.push(Event::of(
                Kind::Phase,
                &[],
                format!("The {over} is over; the {} follows.", p.name()),
            ));
        }
        None => end_turn(state, events),
    }
}

fn end_turn(state: &mut State, events: &mut Vec<Event>) {
    state.phase = 0;
    state.game.shocks.clear();
    for u in &mut state.units {
        // A charge lasts the turn it is declared.
        u.rules.charging = false;
    }
    if state.turn_limit.is_some_and(|limit| state.turn >= limit) {
        state.finished = Some(format!("the turn limit ({}) was reached", state.turn));
        events.push(Event::of(
            Kind::GameOver,
            &[],
            format!("The game ends after turn {}.", state.turn),
        ));
        return;
    }
    state.turn += 1;
    state.active_side = state.next_side(&state.active_side);
    events.push(Event::of(
        Kind::Phase,
        &[],
        format!(
            "Turn {} begins: {} is the phasing side, in the Movement Phase.",
            state.turn, state.active_side
        ),
    ));
}
