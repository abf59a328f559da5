//! The bot player: legal, plausible orders for either side. In its own
//! activation each unit, in turn, on a field that carries the earlier
//! units' moves: missile troops fire at what they can reach (light cavalry
//! closing to two hexes first), shock troops that stand next to an enemy
//! attack it (charging when they may) and the others close on the enemy by
//! the way that gives the best attack, or the nearest to it; disordered and
//! retired units hold. In the other side's activation its horse stands
//! ready to counter-charge. Every line is checked as a player's would be,
//! and a line the check refuses is left out.

use std::collections::{BTreeMap, BTreeSet};

use super::field::Field;
use super::ground::SideFeature;
use super::mechanics::allowed::{may_attack, may_fire};
use super::mechanics::combat::{self, Aspect, Attacker, Defender, Engagement};
use super::orders::check::{self, may_counter_charge};
use super::orders::{Step, direction_word};
use super::state::{State, Weapon};
use super::tables;
use crate::geometry::{Direction, Hex};

/// Legal, plausible order lines for `side`.
pub fn orders_for(state: &State, side: &str) -> Vec<String> {
    if state.finished.is_some() {
        return Vec::new();
    }
    let lines = if state.active_side == side {
        activation(state, side)
    } else {
        counter_charges(state, side)
    };
    keep_accepted(state, side, lines)
}

/// Drops every line the check refuses, until the sheet is clean.
fn keep_accepted(state: &State, side: &str, mut lines: Vec<String>) -> Vec<String> {
    for _ in 0..4 {
        let numbered: Vec<(usize, &str)> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| (i + 1, l.as_str()))
            .collect();
        let sheet = check::check(state, side, &numbered);
        if sheet.is_clean() {
            return lines;
        }
        let bad: BTreeSet<usize> = sheet
            .rejections
            .iter()
            .map(|r| r.line)
            .chain(sheet.parse_errors.iter().map(|e| e.line))
            .collect();
        lines = lines
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !bad.contains(&(i + 1)))
            .map(|(_, l)| l)
            .collect();
    }
    Vec::new()
}

/// The passive side's horse, ready to counter-charge.
fn counter_charges(state: &State, side: &str) -> Vec<String> {
    let field = Field::new(state.clone());
    if field.readings.counter_charge == super::params::CounterCharge::Always {
        return Vec::new();
    }
    (0..state.units.len())
        .filter(|&i| {
            let u = field.unit(i);
            u.side == side
                && field.in_play(i)
                && matches!(u.rules.weapon, Weapon::H | Weapon::M)
                && may_counter_charge(&field, i).is_ok()
        })
        .map(|i| format!("{}: counter-charge", field.unit(i).id))
        .collect()
}

/// A state of a unit's search: where it stands and which way it faces.
type Place = (Hex, Direction);

/// Every place a unit can reach this activation, with the steps there and
/// the movement points spent: a search over hexes and facings at the
/// chart's costs, by the walker that checks orders.
fn reach(field: &Field, i: usize) -> BTreeMap<Place, (u32, Vec<Step>, bool)> {
    let start = super::mechanics::moves::Walker::new(field, i, 0);
    let mut best: BTreeMap<Place, (u32, Vec<Step>, bool)> = BTreeMap::new();
    best.insert((start.at, start.facing), (0, Vec::new(), false));
    let mut frontier = vec![(start, Vec::new())];
    while let Some((w, steps)) = frontier.pop() {
        let mut next = Vec::new();
        for d in Direction::ALL {
            if d != w.facing {
                next.push(Step::Face(d));
            }
            if let Some(n) = w.at.neighbour(d) {
                next.push(Step::Hex(n));
            }
        }
        for s in next {
            let mut w2 = w.clone();
            if w2.step(field, s).is_err() {
                continue;
            }
            let key = (w2.at, w2.facing);
            if best.get(&key).is_some_and(|(c, _, _)| *c <= w2.mp_used) {
                continue;
            }
            let mut steps2: Vec<Step> = steps.clone();
            steps2.push(s);
            best.insert(key, (w2.mp_used, steps2.clone(), w2.stopped.is_some()));
            frontier.push((w2, steps2));
        }
    }
    best
}

/// The nearest enemy unit's distance from a hex.
fn nearest_enemy(field: &Field, hex: Hex, side: &str, enemies: &[usize]) -> u32 {
    enemies
        .iter()
        .filter(|&&j| field.in_play(j) && field.unit(j).side != side)
        .map(|&j| hex.distance(field.hex(j)))
        .min()
        .unwrap_or(u32::MAX)
}

/// The move line for a path of steps.
fn move_line(id: &str, steps: &[Step]) -> String {
    let words: Vec<String> = steps
        .iter()
        .map(|s| match s {
            Step::Hex(h) => h.label(),
            Step::Face(d) => format!("face {}", direction_word(*d)),
        })
        .collect();
    format!("{id}: move {}", words.join(" "))
}

/// What an attack on `j` from where `i` stands would add to the roll.
fn attack_value(
    field: &Field,
    i: usize,
    j: usize,
    aspect: Aspect,
    charge: bool,
    moved: bool,
) -> i32 {
    let u = field.unit(i);
    let t = field.unit(j);
    let (from, to) = (field.hex(i), field.hex(j));
    let crossing = from
        .side_towards(to)
        .map(|d| field.ground.crossing(from, d))
        .unwrap_or_default();
    let mut across = Vec::new();
    if let Some(s) = crossing.stream() {
        across.push(s);
    }
    if crossing.steep {
        across.push(SideFeature::SteepSlope);
    }
    if crossing.ridge {
        across.push(SideFeature::Ridge);
    }
    let a = Attacker {
        name: u.id.clone(),
        weapon: u.rules.weapon,
        charging: charge,
        moved,
        disordered: u.rules.disordered,
        aspect,
        uphill: crossing.level_change() && crossing.level == super::ground::Level::Up,
        across,
    };
    let e = Engagement {
        attackers: vec![a.clone()],
        defender: Defender {
            name: t.id.clone(),
            weapon: t.rules.weapon,
            condition: t.rules.condition(),
            shock_drm: t.rules.shock_drm,
            units: field.at(to).len() as u32,
        },
        attacker_leader: false,
        defender_leader: false,
        russian_heavy_leader: false,
        continued: 0,
        counter_charge: false,
    };
    let charging: Vec<&Attacker> = if charge { vec![&a] } else { Vec::new() };
    let drm = combat::modifiers(&e, &field.state.params, &field.readings, &charging, false)
        .iter()
        .map(|m| m.value)
        .sum::<i32>();
    // A disordered or retired defender is read in the better column.
    drm + if t.rules.condition().is_disordered() {
        2
    } else {
        0
    }
}

/// The best attack unit `i` can make from where it stands on the field:
/// its target, whether it charges, and how good it is.
fn best_attack(
    field: &Field,
    i: usize,
    began_in_zoc: bool,
    moved: bool,
) -> Option<(usize, bool, i32)> {
    let side = field.unit(i).side.clone();
    let mut best: Option<(usize, bool, i32)> = None;
    for j in field.enemies_next_to(field.hex(i), &side) {
        for charge in [true, false] {
            if let Ok(aspect) = may_attack(field, i, j, charge, began_in_zoc) {
                let v = attack_value(field, i, j, aspect, charge, moved);
                if best.is_none_or(|b| v > b.2) {
                    best = Some((j, charge, v));
                }
                break;
            }
        }
    }
    best
}

/// The active side's orders.
fn activation(state: &State, side: &str) -> Vec<String> {
    let mut field = Field::new(state.clone());
    let enemies: Vec<usize> = (0..state.units.len())
        .filter(|&j| field.in_play(j) && field.unit(j).side != side)
        .collect();
    let began: Vec<bool> = (0..state.units.len())
        .map(|i| field.in_play(i) && field.enemy_zoc(field.hex(i), &field.unit(i).side))
        .collect();
    let mut moves = Vec::new();
    let mut attacks = Vec::new();
    let ours: Vec<usize> = (0..state.units.len())
        .filter(|&i| field.in_play(i) && field.unit(i).side == side)
        .collect();
    for i in ours {
        let u = field.unit(i).clone();
        if u.rules.retired || (u.rules.disordered && field.enemy_zoc(field.hex(i), side)) {
            continue;
        }
        if u.rules.weapon.fires() {
            missile(&mut field, i, &enemies, &mut moves);
            continue;
        }
        if u.rules.disordered {
            continue;
        }
        // Already next to an enemy: attack from here.
        if let Some((j, charge, v)) = best_attack(&field, i, began[i], false)
            && v >= 0
        {
            attacks.push(attack_line(&field, i, j, charge));
            continue;
        }
        // Else the best attack within reach, or the nearest place to the enemy.
        let places = reach(&field, i);
        let mut chosen: Option<(i32, Place)> = None;
        for (&(hex, facing), (_, _, _)) in &places {
            if (hex, facing) == (field.hex(i), field.facing(i)) {
                continue;
            }
            let mut trial = Field::new(field.state.clone());
            if hex != trial.hex(i)
                && trial.friends_at(hex, side) >= trial.state.params.stacking_limit as usize
            {
                continue;
            }
            trial.put(i, hex);
            trial.unit_mut(i).facing = u32::from(facing.number());
            let score = match best_attack(&trial, i, began[i], hex != field.hex(i)) {
                Some((_, _, v)) => 100 + v,
                None => {
                    -(nearest_enemy(&trial, hex, side, &enemies) as i32) * 2
                        - i32::from(facing.number() != toward(&trial, hex, side, &enemies).number())
                }
            };
            if chosen.is_none_or(|c| score > c.0) {
                chosen = Some((score, (hex, facing)));
            }
        }
        if let Some((score, place)) = chosen {
            let here = -(nearest_enemy(&field, field.hex(i), side, &enemies) as i32) * 2;
            if score <= here {
                continue;
            }
            let steps = places[&place].1.clone();
            moves.push(move_line(&u.id, &steps));
            field.put(i, place.0);
            field.unit_mut(i).facing = u32::from(place.1.number());
            if score >= 100
                && let Some((j, charge, _)) = best_attack(&field, i, began[i], true)
            {
                attacks.push(attack_line(&field, i, j, charge));
            }
        }
    }
    moves.extend(attacks);
    if moves.is_empty() {
        moves.push("pass".to_string());
    }
    moves
}

/// The direction from a hex towards the nearest enemy.
fn toward(field: &Field, hex: Hex, side: &str, enemies: &[usize]) -> Direction {
    let target = enemies
        .iter()
        .filter(|&&j| field.in_play(j) && field.unit(j).side != side)
        .min_by_key(|&&j| (hex.distance(field.hex(j)), j))
        .map(|&j| field.hex(j));
    let Some(t) = target else {
        return Direction::North;
    };
    Direction::ALL
        .into_iter()
        .filter_map(|d| hex.neighbour(d).map(|n| (n.distance(t), d)))
        .min()
        .map_or(Direction::North, |(_, d)| d)
}

fn attack_line(field: &Field, i: usize, j: usize, charge: bool) -> String {
    format!(
        "{}: {} {} then any",
        field.unit(i).id,
        if charge { "charge" } else { "shock" },
        field.unit(j).id
    )
}

/// A missile unit: fire if it can, else close (light cavalry then fires).
fn missile(field: &mut Field, i: usize, enemies: &[usize], lines: &mut Vec<String>) {
    let u = field.unit(i).clone();
    let side = u.side.clone();
    let target_now = best_target(field, i, enemies, 0, false);
    if let Some(j) = target_now {
        lines.push(format!("{}: fire at {}", u.id, field.unit(j).id));
        return;
    }
    let places = reach(field, i);
    let mut chosen: Option<(i32, Place)> = None;
    for (&(hex, facing), (mp, _, _)) in &places {
        if (hex, facing) == (field.hex(i), field.facing(i)) {
            continue;
        }
        let mut trial = Field::new(field.state.clone());
        if hex != trial.hex(i)
            && trial.friends_at(hex, &side) >= trial.state.params.stacking_limit as usize
        {
            continue;
        }
        trial.put(i, hex);
        trial.unit_mut(i).facing = u32::from(facing.number());
        let near = nearest_enemy(&trial, hex, &side, enemies) as i32;
        let can_fire =
            u.rules.weapon == Weapon::L && best_target(&trial, i, enemies, *mp, true).is_some();
        // Close to two hexes, no nearer: missile troops do not seek shock.
        let score = if can_fire {
            100 - (near - 2).abs()
        } else if near <= 1 {
            -50
        } else {
            -(near - 2).abs() * 2
                - i32::from(facing.number() != toward(&trial, hex, &side, enemies).number())
        };
        if chosen.is_none_or(|c| score > c.0) {
            chosen = Some((score, (hex, facing)));
        }
    }
    let here = -((nearest_enemy(field, field.hex(i), &side, enemies) as i32 - 2).abs() * 2);
    let Some((score, place)) = chosen else {
        return;
    };
    if score <= here {
        return;
    }
    let (mp, steps, _) = places[&place].clone();
    lines.push(move_line(&u.id, &steps));
    field.put(i, place.0);
    field.unit_mut(i).facing = u32::from(place.1.number());
    if u.rules.weapon == Weapon::L
        && let Some(j) = best_target(field, i, enemies, mp, true)
    {
        lines.push(format!("{}: fire at {}", u.id, field.unit(j).id));
    }
}

/// The enemy unit `i` fires at best from where it stands, having spent
/// `mp_used`: the one the fire does most to.
fn best_target(
    field: &Field,
    i: usize,
    enemies: &[usize],
    mp_used: u32,
    moved: bool,
) -> Option<usize> {
    enemies
        .iter()
        .copied()
        .filter(|&j| field.in_play(j))
        .filter_map(|j| {
            let line = may_fire(field, i, j, mp_used, moved).ok()?;
            let t = field.unit(j);
            let drm = tables::range_drm(field.unit(i).rules.weapon, line.range).unwrap_or(0)
                + i32::from(line.angled.is_some())
                - i32::from(t.rules.weapon == Weapon::H)
                + if t.rules.condition().is_disordered() {
                    3
                } else {
                    0
                };
            Some((drm, std::cmp::Reverse(j), j))
        })
        .max()
        .map(|(_, _, j)| j)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::kulikovo::Kulikovo;
    use crate::rules::ruleset::Rules;

    fn demo() -> State {
        crate::rules::testing::demo_state(&Kulikovo)
    }

    /// The bot's lines are all accepted, and the active side does more
    /// than pass.
    #[test]
    fn the_bots_orders_check_clean_for_both_sides() {
        let state = demo();
        for side in ["horde", "russians"] {
            let lines = orders_for(&state, side);
            let numbered: Vec<(usize, &str)> = lines
                .iter()
                .enumerate()
                .map(|(i, l)| (i + 1, l.as_str()))
                .collect();
            let sheet = Kulikovo.check_orders(&state, side, &numbered);
            assert!(sheet.is_clean(), "{side}: {:?}", sheet.rejections);
            if side == state.active_side {
                assert!(lines.iter().any(|l| l.contains(": move ")), "{lines:?}");
            } else {
                assert!(
                    lines.iter().all(|l| l.ends_with("counter-charge")),
                    "{lines:?}"
                );
            }
        }
    }

    #[test]
    fn the_bot_orders_nothing_once_the_game_is_over() {
        let mut state = demo();
        state.finished = Some("over".into());
        assert!(orders_for(&state, "horde").is_empty());
    }

    /// The bots play the demo campaign to its end with audited dice: the
    /// armies close, fire, shock and charge, and the game ends by a broken
    /// army or the turn limit.
    #[test]
    fn the_bots_play_the_demo_to_a_finish_with_real_fighting() {
        use crate::audit::dice::DiceStream;
        use crate::audit::digest::Digest32;
        use crate::rules::ruleset::SideText;
        use crate::rules::ruleset::resolve_typed;
        let mut state = demo();
        let mut kinds: BTreeMap<String, u32> = BTreeMap::new();
        let mut rounds = 0;
        while state.finished.is_none() && rounds < 40 {
            rounds += 1;
            // Each side's lines, checked as a mail's are, as canonical text.
            let texts: BTreeMap<String, String> = state
                .sides
                .iter()
                .map(|s| {
                    let text: String = orders_for(&state, s)
                        .iter()
                        .map(|l| format!("{l}\n"))
                        .collect();
                    let sheet = crate::rules::ruleset::check_typed(&Kulikovo, &state, s, &text);
                    // A player's acknowledgement takes the bot's lines whole
                    // (ruling KUL-26).
                    let acked =
                        crate::rules::ruleset::acknowledge_typed(&Kulikovo, &state, s, &text);
                    assert!(acked.is_clean(), "{s}: {:?}", acked.rejections);
                    assert_eq!(acked.accepted, sheet.accepted, "{s}");
                    (s.clone(), sheet.canonical_text())
                })
                .filter(|(_, t)| !t.is_empty())
                .collect();
            let sent: BTreeMap<String, SideText<'_>> = texts
                .iter()
                .map(|(s, t)| (s.clone(), SideText::Sent(t)))
                .collect();
            let mut dice = DiceStream::new(&Digest32::of(format!("kulikovo {rounds}").as_bytes()));
            let (next, events) =
                resolve_typed(&Kulikovo, &state, &sent, &mut dice).expect("resolves");
            for e in &events {
                *kinds.entry(e.kind.clone()).or_default() += 1;
            }
            state = next;
        }
        eprintln!("{rounds} rounds: {kinds:?}; {:?}", state.finished);
        assert!(state.finished.is_some(), "not over after {rounds} rounds");
        for kind in ["march", "fire", "shock", "charge"] {
            assert!(
                kinds.get(kind).copied().unwrap_or(0) > 0,
                "no {kind}: {kinds:?}"
            );
        }
    }
}
