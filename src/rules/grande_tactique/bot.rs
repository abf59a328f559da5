//! The bot player: order lines a plain, aggressive player would send, every
//! one checked by the order validation before it is kept, so that the bot
//! declares and pays for charges as a player does.
//!
//! In the PIP Phase: eager cavalry and infantry charge an enemy they may
//! charge (firing infantry ceasing fire first), joining one their command
//! charges already (for the help of friends), else the nearest, the first
//! of a command on a target its principal; infantry with an enemy in range
//! starts firing; the rest advance towards the enemy, cavalry stopping
//! short of contact, or turn to face the nearest when none is ahead;
//! shaken and routed units rally with the PIPs left, and guns start
//! firing. In the combat phase, every firing unit fires
//! at the nearest enemy it may.

use super::field::Field;
use super::orders::check;
use super::state::{Arm, Morale, State};
use super::turn::Phase;
use crate::geometry::{Hundredths, distance_ahead_of_frontage_line, rect_distance};

/// Whether `lines` plus `candidate` check clean.
fn fits(state: &State, side: &str, lines: &[String], candidate: &str) -> bool {
    let mut all: Vec<(usize, &str)> = lines
        .iter()
        .enumerate()
        .map(|(k, l)| (k + 1, l.as_str()))
        .collect();
    all.push((lines.len() + 1, candidate));
    let sheet = check::check(state, side, &all);
    sheet.is_clean()
}

/// The enemies of unit `i` nearest first, with their distance.
fn enemies_by_distance(field: &Field, i: usize) -> Vec<(usize, Hundredths)> {
    let Some(r) = field.rect(i) else {
        return Vec::new();
    };
    let mut out: Vec<(usize, Hundredths)> = field
        .on_table()
        .filter(|&j| field.enemies(i, j))
        .filter_map(|j| field.rect(j).map(|o| (j, rect_distance(&r, &o))))
        .collect();
    out.sort_by_key(|&(j, d)| (d, field.id(j).to_string()));
    out
}

pub fn orders_for(state: &State, side: &str) -> Vec<String> {
    if state.finished.is_some() {
        return Vec::new();
    }
    let field = Field::new(state);
    let mut lines = match Phase::of(state) {
        Phase::Pips => pip_phase(state, &field, side),
        Phase::Combat => combat_phase(state, &field, side),
    };
    if lines.is_empty()
        && let Some(u) = state
            .units
            .iter()
            .find(|u| u.side == side && u.eliminated.is_none())
    {
        lines.push(format!("{}: hold", u.id));
    }
    lines
}

fn pip_phase(state: &State, field: &Field, side: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut try_line = |lines: &mut Vec<String>, line: String| -> bool {
        if fits(state, side, lines, &line) {
            lines.push(line);
            true
        } else {
            false
        }
    };
    let mine: Vec<usize> = field
        .on_table()
        .filter(|&i| field.unit(i).side == side)
        .collect();
    // Charges: joining a target its command charges already (help from
    // friends), else the nearest enemy it may charge.
    let mut chosen: Vec<(String, usize)> = Vec::new();
    for &i in &mine {
        let u = field.unit(i);
        if u.rules.morale != Morale::Eager || field.arm(i) == Arm::Artillery {
            continue;
        }
        let command = u.rules.command.clone();
        let joined: Vec<usize> = chosen
            .iter()
            .filter(|(c, _)| *c == command)
            .map(|&(_, t)| t)
            .collect();
        let nearest = enemies_by_distance(field, i)
            .into_iter()
            .take(4)
            .map(|(j, _)| j);
        // Firing infantry ceases fire to charge: "Infantry who are firing
        // cannot charge", and fire alone only shakes.
        let cease = (field.arm(i) == Arm::Infantry && u.rules.firing)
            .then(|| format!("{}: cease fire", field.id(i)));
        let mut chose = false;
        for j in joined.iter().copied().chain(nearest) {
            let principal = if joined.contains(&j) {
                ""
            } else {
                " principal"
            };
            let charge = format!("{}: charge {}{principal}", field.id(i), field.id(j));
            let charged = match &cease {
                Some(cease) => {
                    let mut with = lines.clone();
                    with.push(cease.clone());
                    let fit = fits(state, side, &with, &charge);
                    if fit {
                        lines.push(cease.clone());
                        lines.push(charge);
                    }
                    fit
                }
                None => try_line(&mut lines, charge),
            };
            if charged {
                if !joined.contains(&j) {
                    chosen.push((command.clone(), j));
                }
                chose = true;
                break;
            }
        }
        if chose {
            continue;
        }
        // Fire where an enemy is in range; else advance.
        if field.arm(i) == Arm::Infantry
            && !u.rules.firing
            && enemies_by_distance(field, i)
                .first()
                .is_some_and(|&(_, d)| d <= 400)
            && try_line(&mut lines, format!("{}: fire", field.id(i)))
        {
            continue;
        }
        advance(field, i, &mut lines, &mut try_line);
    }
    // Rally with the PIPs left: a shaken unit is of little use.
    for &i in &mine {
        if field.unit(i).rules.morale != Morale::Eager {
            try_line(&mut lines, format!("{}: rally", field.id(i)));
        }
    }
    // Guns fire at what they can reach.
    for &i in &mine {
        if field.arm(i) == Arm::Artillery && !field.unit(i).rules.firing {
            try_line(&mut lines, format!("{}: fire", field.id(i)));
        }
    }
    lines
}

/// Advances unit `i` towards the nearest enemy ahead of it, as far as it may
/// (cavalry short of contact, to charge next turn).
fn advance(
    field: &Field,
    i: usize,
    lines: &mut Vec<String>,
    try_line: &mut impl FnMut(&mut Vec<String>, String) -> bool,
) {
    let Some(r) = field.rect(i) else {
        return;
    };
    let ahead = enemies_by_distance(field, i).into_iter().find(|&(j, _)| {
        field.rect(j).is_some_and(|o| {
            o.corners()
                .iter()
                .any(|&c| distance_ahead_of_frontage_line(&r, c) > 0)
        })
    });
    if let Some((_, gap)) = ahead {
        let allowance = field.allowance(i);
        let mut d = (gap - 150).min(allowance);
        while d >= 100 {
            let inches = crate::rules::words::inches(d - d % 50);
            if try_line(lines, format!("{}: advance {inches}", field.id(i))) {
                return;
            }
            d -= 100;
        }
    }
    // Nothing ahead (a unit that fled and rallied faces away), or no room
    // to go forward: it turns to face the nearest enemy, to advance or
    // charge next turn; with no room to turn (at the table's edge, or
    // against friends), it first steps back, away from where it faces.
    if let Some((j, _)) = enemies_by_distance(field, i).first()
        && !try_line(lines, format!("{}: face {}", field.id(i), field.id(*j)))
    {
        for d in [3, 2, 1] {
            if try_line(lines, format!("{}: retire {d}", field.id(i))) {
                break;
            }
        }
    }
}

fn combat_phase(state: &State, field: &Field, side: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for i in field.on_table() {
        let u = field.unit(i);
        if u.side != side || !u.rules.firing {
            continue;
        }
        for (j, _) in enemies_by_distance(field, i).into_iter().take(5) {
            let line = format!("{}: fire at {}", field.id(i), field.id(j));
            if fits(state, side, &lines, &line) {
                lines.push(line);
                break;
            }
        }
    }
    lines
}
