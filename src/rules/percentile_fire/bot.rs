//! The bot player, and the order lines a report offers a side. The bot
//! plays as a player would: the phasing side closes to musket range with
//! its infantry and cavalry, its batteries standing; the other side stands
//! ready with opportunity and passby fire; in the fire phases each unit
//! fires at the nearest target the rules let it; in the Shock Combat Phase
//! the unit attacked gives final fire and its friends support it. Every
//! line is checked by the rules before it is sent.

use std::collections::BTreeMap;

use super::PercentileFire;
use super::fire::factors::Occasion;
use super::moves;
use super::phase::{Phase, non_phasing, shock};
use super::state::{Arm, State, Unit};
use super::table::Table;
use super::table::eligible::{self, Request};
use crate::geometry::{Fan, distance_to_rect};
use crate::rules::ruleset::Rules;
use crate::rules::words::inches;

/// How near infantry and cavalry close: into a musket's Minimum Range Fire
/// Zone, where its fire tells.
const CLOSE_TO: i64 = 150;

/// The lines the rules accept of those given, or `pass`.
fn accepted(state: &State, side: &str, lines: Vec<String>) -> Vec<String> {
    let numbered: Vec<(usize, &str)> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| (i + 1, l.as_str()))
        .collect();
    let sheet = PercentileFire.check_orders(state, side, &numbered);
    let mut out: Vec<String> = sheet.accepted.iter().map(ToString::to_string).collect();
    if out.is_empty() {
        out.push("pass".to_string());
    }
    out
}

fn own<'s>(state: &'s State, side: &str) -> impl Iterator<Item = &'s Unit> + 's {
    let side = side.to_string();
    state
        .units
        .iter()
        .filter(move |u| u.side == side && u.eliminated.is_none())
}

/// The phasing side's moves: straight on toward the enemy ahead.
fn moves_for(state: &State, table: &Table, side: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for u in own(state, side) {
        if !matches!(u.rules.arm, Arm::Infantry | Arm::Cavalry) || u.rules.in_square.is_some() {
            continue;
        }
        let Some(rect) = table.rect(state, u) else {
            continue;
        };
        let lane = Fan::ahead_of(&rect, 3000);
        let ahead = state
            .units
            .iter()
            .filter(|e| e.side != side && e.eliminated.is_none())
            .filter_map(|e| table.rect(state, e))
            .filter_map(|r| lane.reach_to(&r))
            .min();
        let Some(gap) = ahead.filter(|g| *g > 0) else {
            continue;
        };
        // Cavalry charges what stands in its path within its move.
        if u.rules.arm == Arm::Cavalry {
            let path = Fan::ahead_of(&rect, 0);
            let charged = state
                .units
                .iter()
                .filter(|e| e.side != side && e.eliminated.is_none())
                .filter_map(|e| {
                    table
                        .rect(state, e)
                        .and_then(|r| path.reach_to(&r))
                        .map(|d| (d, e))
                })
                // In contact already: the GM settles the shock.
                .filter(|(d, _)| *d > 0 && *d <= moves::allowance(state, u))
                .min_by(|a, b| (a.0, &a.1.id).cmp(&(b.0, &b.1.id)));
            if let Some((_, e)) = charged {
                lines.push(format!("{}: charge {}", u.id, e.id));
                continue;
            }
        }
        let step = (gap - CLOSE_TO).min(moves::allowance(state, u));
        if step >= 50 {
            lines.push(format!("{}: forward {}", u.id, inches(step - step % 25)));
        }
    }
    lines
}

/// The fire of each unit that fires in this phase, at the nearest target
/// the rules let it take.
fn fire_for(state: &State, table: &Table, side: &str, phase: Phase) -> Vec<String> {
    let mut lines = Vec::new();
    let mut batteries: BTreeMap<String, u32> = BTreeMap::new();
    for u in own(state, side) {
        if eligible::never_fires(u).is_err()
            || eligible::fires_in(u, phase, Occasion::Reciprocal, &state.params).is_err()
            || (u.rules.in_square.is_some() && u.rules.arm != Arm::Artillery)
        {
            continue;
        }
        let Some(rect) = table.rect(state, u) else {
            continue;
        };
        let base = Request {
            firer: u,
            target: u,
            occasion: Occasion::Reciprocal,
            phase,
            shot: None,
            attack: u.rules.fire_attacks + 1,
            batteries_at_target: 0,
            hierarchy: true,
        };
        let mut targets: Vec<(i64, &Unit)> = eligible::candidates(table, state, &base)
            .into_iter()
            .filter_map(|(t, _)| {
                table
                    .rect(state, t)
                    .map(|r| (distance_to_rect(rect.front_centre, &r), t))
            })
            .collect();
        targets.sort_by(|a, b| (a.0, &a.1.id).cmp(&(b.0, &b.1.id)));
        for (_, t) in targets {
            let host = table.host(state, t).id.clone();
            let req = Request {
                target: t,
                batteries_at_target: batteries.get(&host).copied().unwrap_or(0),
                ..base
            };
            if eligible::plan(table, state, &req).is_ok() {
                lines.push(format!("{}: fire {}", u.id, t.id));
                if u.rules.arm == Arm::Artillery {
                    *batteries.entry(host).or_insert(0) += 1;
                }
                break;
            }
        }
    }
    lines
}

/// The defending side's fire in the Shock Combat Phase.
fn shock_for(state: &State, table: &Table, side: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for u in own(state, side) {
        for s in &state.game.shocks {
            let line = if s.target == u.id {
                shock::final_fire(state, table, u, &s.attacker, 1)
                    .is_ok()
                    .then(|| format!("{}: final fire {}", u.id, s.attacker))
            } else {
                shock::support(state, table, u, &s.attacker, 1)
                    .is_ok()
                    .then(|| format!("{}: support {}", u.id, s.attacker))
            };
            if let Some(l) = line {
                lines.push(l);
                break;
            }
        }
    }
    lines
}

/// The bot's order lines for `side`.
pub fn orders_for(state: &State, side: &str) -> Vec<String> {
    let table = Table::new(state);
    let phase = Phase::of(state);
    let lines = match phase {
        Phase::Movement if state.active_side == side => moves_for(state, &table, side),
        Phase::Movement => own(state, side)
            .filter(|u| eligible::never_fires(u).is_ok())
            .map(|u| format!("{}: opportunity and passby fire", u.id))
            .collect(),
        Phase::ArtilleryFire | Phase::InfantryFire => fire_for(state, &table, side, phase),
        Phase::Shock if non_phasing(state) == side => shock_for(state, &table, side),
        Phase::Shock => Vec::new(),
    };
    accepted(state, side, lines)
}

/// The lines a report offers `side` to reply with: `pass`, then each unit's
/// likely order as a comment to take up.
pub fn template(state: &State, side: &str) -> Vec<String> {
    let mut out = vec!["pass".to_string()];
    let suggested = orders_for(state, side);
    for u in own(state, side) {
        let mine = format!("{}:", u.id);
        match suggested.iter().find(|l| l.starts_with(&mine)) {
            Some(l) => out.push(format!("# {l}")),
            None => out.push(format!("# {}: hold", u.id)),
        }
    }
    out
}
