//! Missile fire: one unit's fire at one target, read off the Range Die Roll
//! Modifiers and the Missile Fire Results, with the Death of Leader check.
//! The umpire call and the turn build a [`FireCall`] and resolve it here,
//! so that both read the tables the one way.

use serde::Serialize;

use super::super::clauses;
use super::super::params::{DeathCheck, Params, Readings};
use super::super::state::{Condition, Weapon};
use super::super::tables::{self, Missile};
use crate::audit::dice::{Dice, Die};
use crate::rules::kernel::{Modifier, total};
use crate::rules::told::About;
use crate::rules::umpire::Trace;

/// One unit's fire, as the tables need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FireCall {
    pub firer: Weapon,
    pub firer_disordered: bool,
    pub target: Weapon,
    pub condition: Condition,
    /// In hexes, 1 or 2.
    pub range: u32,
    /// The fire comes in through the target's flank or rear (ruling KUL-20).
    pub angled: bool,
    /// The leaders in the target's hex.
    pub leaders: Vec<Leader>,
    /// Who fires at whom, for the dice's purposes: `b-1 at t-3`.
    pub who: String,
}

/// A leader in the target's hex: his id, which an umpire call, naming no
/// leader of the state, leaves empty, and his name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leader {
    pub id: String,
    pub name: String,
}

/// One Death of Leader check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LeaderCheck {
    /// The leader's id, as [`Leader::id`].
    #[serde(skip)]
    pub id: String,
    pub leader: String,
    pub roll: u32,
    pub killed: bool,
}

/// What the fire did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FireOutcome {
    pub roll: u32,
    pub drm: i32,
    pub modified: i32,
    pub column: &'static str,
    pub band: &'static str,
    pub result: &'static str,
    #[serde(skip)]
    pub effect: Missile,
    pub leader_checks: Vec<LeaderCheck>,
    /// The Die Roll Modifiers the fire took.
    #[serde(skip)]
    pub modifiers: Vec<Modifier>,
}

/// The modifiers of one fire, each in the rules' words.
pub fn modifiers(call: &FireCall) -> Vec<Modifier> {
    let mut m = Vec::new();
    if let Some(drm) = tables::range_drm(call.firer, call.range) {
        m.push(Modifier::new(
            format!(
                "{}: {}, range {} hex{}",
                clauses::RANGE_DRM,
                tables::range_row(call.firer),
                call.range,
                if call.range == 1 { "" } else { "es" }
            ),
            drm,
        ));
    }
    if call.angled && call.target.is_horse() {
        m.push(Modifier::new(clauses::ANGLED, 1));
    }
    if call.firer_disordered {
        m.push(Modifier::new(clauses::FIRER_DISORDERED, -1));
    }
    if call.target == Weapon::H {
        m.push(Modifier::new(clauses::AT_HEAVY, -1));
    }
    m
}

/// Resolves one fire: the roll, its modifiers, the result; then, on a roll
/// of 9 or more with a leader in the target's hex, a Death of Leader check
/// for each (ruling KUL-17).
pub fn resolve(
    call: &FireCall,
    params: &Params,
    readings: &Readings,
    dice: &mut dyn Dice,
    trace: &mut Trace,
) -> FireOutcome {
    let mods = modifiers(call);
    for m in &mods {
        trace.modifier(m);
    }
    let drm = total(&mods);
    let roll = trace.roll(dice, Die::D10, &format!("missile fire: {}", call.who));
    let modified = roll as i32 + drm;
    let table = tables::missile(call.target.is_horse(), call.condition.is_disordered());
    let row = table.row(modified);
    trace.lookup(
        format!("{} ({})", table.name, table.column),
        format!("{roll} {drm:+} = {modified}: {}", row.printed),
        row.result.words(),
    );
    let check_on = match readings.death_check {
        DeathCheck::Natural => roll as i32,
        DeathCheck::Modified => modified,
    };
    let mut leader_checks = Vec::new();
    if check_on >= 9 && !call.leaders.is_empty() {
        trace.note(format!(
            "{} ({} roll {check_on})",
            clauses::DEATH_OF_LEADER,
            match readings.death_check {
                DeathCheck::Natural => "the die's",
                DeathCheck::Modified => "the modified",
            }
        ));
        for leader in &call.leaders {
            // The check is the leader's: whoever sees him learns of it.
            let mut check = if leader.id.is_empty() {
                death_of_leader(&leader.name, params, dice, trace)
            } else {
                death_of_leader(
                    &leader.name,
                    params,
                    &mut dice.concerning(About::units(&[&leader.id])),
                    trace,
                )
            };
            check.id.clone_from(&leader.id);
            leader_checks.push(check);
        }
    }
    FireOutcome {
        roll,
        drm,
        modified,
        column: table.column,
        band: row.printed,
        result: row.result.words(),
        effect: row.result,
        leader_checks,
        modifiers: mods,
    }
}

/// The Death of Leader check (13.3, not in the text; ruling KUL-17): a d10,
/// the leader killed on `leader_killed_at_most` or less.
pub fn death_of_leader(
    leader: &str,
    params: &Params,
    dice: &mut dyn Dice,
    trace: &mut Trace,
) -> LeaderCheck {
    let roll = trace.roll(dice, Die::D10, &format!("death of leader: {leader}"));
    let killed = roll <= params.leader_killed_at_most;
    trace.lookup(
        "Death of Leader (13.3, campaign parameter leader_killed_at_most)",
        format!("{roll} against 0-{}", params.leader_killed_at_most),
        if killed { "killed" } else { "unharmed" },
    );
    LeaderCheck {
        id: String::new(),
        leader: leader.to_string(),
        roll,
        killed,
    }
}
