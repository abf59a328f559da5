//! The bot player, and the order lines a report offers a side. The bot
//! plays as a player would: the phasing side closes to musket range with
//! its infantry and cavalry, its batteries standing, and a column that has
//! closed forms line; the other side stands
//! ready with opportunity and passby fire; in the fire phases each unit
//! fires at the nearest target the rules let it; in the Shock Combat Phase
//! the unit attacked gives final fire and its friends support it. Every
//! line is checked as the acknowledgement checks a player's before it is
//! sent.

use std::collections::BTreeMap;

use super::PercentileFire;
use super::field::Table;
use super::field::eligible::{self, Request};
use super::mechanics::fire::factors::Occasion;
use super::mechanics::moves;
use super::state::{Arm, Formation, State, Unit};
use super::turn::{Phase, non_phasing, shock};
use crate::geometry::{Fan, distance_to_rect};
use crate::rules::ruleset::Rules;
use crate::rules::words::inches;

/// How near infantry and cavalry close: into a musket's Minimum Range Fire
/// Zone, where its fire tells.
const CLOSE_TO: i64 = 150;

/// The lines a player's acknowledgement accepts of those given (ruling
/// PF-39: a move onto ground an earlier line has just taken is left out),
/// or `pass`.
fn accepted(state: &State, side: &str, lines: Vec<String>) -> Vec<String> {
    let numbered: Vec<(usize, &str)> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| (i + 1, l.as_str()))
        .collect();
    let sheet = PercentileFire.acknowledge(state, side, &numbered);
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
        // A column that has closed deploys into line to bring its muskets
        // to bear (only its front rank fires, 11.24), under whatever
        // opportunity fire that draws (11.81).
        if u.rules.arm == Arm::Infantry
            && u.rules.formation == Formation::Column
            && gap < CLOSE_TO + 50
        {
            lines.push(format!("{}: form line", u.id));
            continue;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::dice::DiceStream;
    use crate::audit::digest::Digest32;
    use crate::rules::ruleset::{SideText, acknowledge_typed, check_typed, resolve_typed};

    fn demo() -> State {
        crate::rules::testing::demo_state(&PercentileFire)
    }

    /// The demo played to its end by the bots on dice drawn from `seed`:
    /// how many events of each kind came up.
    fn play(seed: &str) -> BTreeMap<String, u32> {
        let mut state = demo();
        let mut kinds: BTreeMap<String, u32> = BTreeMap::new();
        let mut rounds = 0;
        while state.finished.is_none() && rounds < 40 {
            rounds += 1;
            let texts: BTreeMap<String, String> = state
                .sides
                .iter()
                .map(|s| {
                    let text: String = orders_for(&state, s)
                        .iter()
                        .map(|l| format!("{l}\n"))
                        .collect();
                    let sheet = check_typed(&PercentileFire, &state, s, &text);
                    // What the bot writes, a player's acknowledgement takes
                    // whole (ruling PF-39).
                    let acked = acknowledge_typed(&PercentileFire, &state, s, &text);
                    assert!(acked.is_clean(), "{seed}: {s}: {:?}", acked.rejections);
                    assert_eq!(acked.accepted, sheet.accepted, "{seed}: {s}");
                    (s.clone(), sheet.canonical_text())
                })
                .filter(|(_, t)| !t.is_empty())
                .collect();
            let sent: BTreeMap<String, SideText<'_>> = texts
                .iter()
                .map(|(s, t)| (s.clone(), SideText::Sent(t)))
                .collect();
            let mut dice = DiceStream::new(&Digest32::of(format!("{seed} {rounds}").as_bytes()));
            let (next, events) =
                resolve_typed(&PercentileFire, &state, &sent, &mut dice).expect("resolves");
            for e in &events {
                *kinds.entry(e.kind.clone()).or_default() += 1;
            }
            state = next;
        }
        assert!(
            state.finished.is_some(),
            "{seed}: not over after {rounds} rounds"
        );
        kinds
    }

    /// The bots play the demo campaign to its end on six dice streams: the
    /// armies close and fire, a column deploys under opportunity fire
    /// (11.81), cavalry charges past a flank under passby fire (11.83), and
    /// the shocks are declared.
    #[test]
    fn the_bots_play_the_demo_through_opportunity_and_passby_fire() {
        for seed in ["sabugal", "ridge", "quinta", "road", "olive", "crest"] {
            let kinds = play(seed);
            for kind in [
                "move",
                "fire",
                "opportunity-fire",
                "passby-fire",
                "charge",
                "shock",
            ] {
                assert!(
                    kinds.get(kind).copied().unwrap_or(0) > 0,
                    "{seed}: no {kind}: {kinds:?}"
                );
            }
        }
    }
}
