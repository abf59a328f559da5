//! What the acknowledgement foresees of the active side's orders (ruling
//! KUL-26). Validation already tries every line as the activation carries
//! it out with no die: each move, turn, fire and leader's join on the
//! field as the earlier lines leave it, every attack on the field once
//! every move is made (`check`, through the walk and the tests of
//! `allowed` the turn itself uses). So nothing is left that the activation
//! would certainly not carry out, and nothing more is refused. What a die
//! of the activation may change is the field its own fire leaves: a target
//! that the Missile Fire Results make retreat or retire, or eliminate,
//! before a later fire or the shock segment. Such a line is warned of.

use std::collections::{BTreeMap, BTreeSet};

use super::{KulOrder, check};
use crate::rules::kulikovo::Kulikovo;
use crate::rules::kulikovo::clauses::MISSILE_RESULTS;
use crate::rules::kulikovo::state::State;
use crate::rules::kulikovo::tables::{self, Missile};
use crate::rules::orders::{OrderSheet, Warning};
use crate::rules::ruleset::Presentation;

/// Validation, and the warnings of the lines whose target the side's own
/// fire may drive off or destroy first.
pub fn acknowledge(state: &State, side: &str, lines: &[(usize, &str)]) -> OrderSheet<KulOrder> {
    let mut sheet = check::check(state, side, lines);
    if side != state.active_side {
        // The other side's counter-charges answer the enemy's charges.
        return sheet;
    }
    let out: BTreeSet<usize> = sheet
        .rejections
        .iter()
        .map(|r| r.line)
        .chain(sheet.parse_errors.iter().map(|e| e.line))
        .collect();
    let given: Vec<(usize, &KulOrder)> = lines
        .iter()
        .map(|(l, _)| *l)
        .filter(|l| !out.contains(l))
        .zip(&sheet.accepted)
        .collect();
    sheet.warnings = warnings(state, side, &given);
    sheet
}

/// Whether a fire may drive its target from its hex or destroy it: the
/// Missile Fire Results' column for it holds a Retreat, Retire or
/// Eliminated row. Its printed bands, if so.
fn moves_target(horse: bool, disordered: bool) -> Option<(&'static str, Vec<String>)> {
    let table = tables::missile(horse, disordered);
    let bands: Vec<String> = table
        .rows()
        .filter(|r| {
            matches!(
                r.result,
                Missile::Retreat | Missile::Retire | Missile::Eliminated
            )
        })
        .map(|r| format!("\"{} {}\"", r.printed, r.result.words()))
        .collect();
    (!bands.is_empty()).then_some((table.column, bands))
}

/// Whether a fire may leave its target disordered.
fn disorders(horse: bool, disordered: bool) -> bool {
    tables::missile(horse, disordered)
        .rows()
        .any(|r| r.result == Missile::Disordered)
}

/// The fires of the sheet at one target so far.
#[derive(Default)]
struct Fired {
    /// Whether the target may be disordered by now.
    disordered: bool,
    /// The lines of the fires made at it while it may have been
    /// disordered, which may have driven it off, with the column read.
    moving: Vec<usize>,
    column: Option<(&'static str, Vec<String>)>,
}

/// The lines, in the order the activation makes them (the movement and
/// missile fire segment in the order written, then the shock segment),
/// whose target a fire of the side made before them may have driven off or
/// destroyed.
fn warnings(state: &State, side: &str, given: &[(usize, &KulOrder)]) -> Vec<Warning> {
    let seen = Kulikovo.visible_to(state, side, &[]);
    let segments = given
        .iter()
        .filter(|(_, o)| !o.is_attack())
        .chain(given.iter().filter(|(_, o)| o.is_attack()));
    let mut fired: BTreeMap<String, Fired> = BTreeMap::new();
    let mut out = Vec::new();
    for (line, order) in segments {
        let (unit, target) = match order {
            KulOrder::Fire { unit, target }
            | KulOrder::Shock { unit, target, .. }
            | KulOrder::Charge { unit, target, .. } => (unit.as_str(), target.as_str()),
            _ => continue,
        };
        let Some(t) = state.unit(target) else {
            continue;
        };
        let horse = t.rules.weapon.is_horse();
        let so_far = fired.entry(target.to_string()).or_insert_with(|| Fired {
            disordered: t.rules.condition().is_disordered(),
            ..Fired::default()
        });
        // Never a word of a unit the side cannot see (REP-2).
        if let Some((column, bands)) = &so_far.column
            && seen.contains(target)
        {
            let what = if order.is_attack() {
                "before the shock segment, and this attack then lapses where it no longer fits the field"
            } else {
                "before this fire, which then lapses where it no longer fits the field"
            };
            let lines: Vec<String> = so_far.moving.iter().map(ToString::to_string).collect();
            out.push(Warning {
                line: *line,
                unit: Some(unit.to_string()),
                problem: format!(
                    "the fire at {target} on line {} may make it retreat or retire, or eliminate it, {what}",
                    lines.join(" and ")
                ),
                clause: Some(format!("{MISSILE_RESULTS}, {column}: {}", bands.join(", "))),
            });
        }
        if matches!(order, KulOrder::Fire { .. }) {
            if let Some(found) = moves_target(horse, so_far.disordered) {
                so_far.moving.push(*line);
                so_far.column.get_or_insert(found);
            }
            so_far.disordered |= disorders(horse, so_far.disordered);
        }
    }
    out.sort_by_key(|w| w.line);
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use crate::audit::dice::ForcedDice;
    use crate::geometry::{Direction, Hex};
    use crate::rules::board::Location;
    use crate::rules::kulikovo::{Kulikovo, State};
    use crate::rules::ruleset::Rules;

    fn demo() -> State {
        crate::rules::testing::demo_state(&Kulikovo)
    }

    fn hex_of(state: &State, id: &str) -> Hex {
        state
            .unit(id)
            .and_then(|u| u.location.hex())
            .unwrap_or_else(|| panic!("{id} is not on a hex"))
    }

    /// The demo's first activation with the Genoese crossbowmen and the
    /// Tatar horse each set next to the Russians' advance guard, in two
    /// free hexes south of it, facing it.
    fn close_up(disordered: bool) -> State {
        let mut state = demo();
        let target = hex_of(&state, "r-advance-1");
        let taken: Vec<Hex> = state
            .units
            .iter()
            .filter_map(|u| u.location.hex())
            .collect();
        let free: Vec<(Direction, Hex)> =
            [Direction::South, Direction::SouthWest, Direction::SouthEast]
                .into_iter()
                .filter_map(|d| target.neighbour(d).map(|h| (d, h)))
                .filter(|(_, h)| !taken.contains(h))
                .collect();
        assert!(free.len() >= 2, "{free:?}");
        for (id, (d, h)) in ["c-genoese-1", "m-tatar-1"].into_iter().zip(free) {
            let u = state
                .units
                .iter_mut()
                .find(|u| u.id == id)
                .expect("in the demo");
            u.location = Location::Hex {
                column: h.column,
                row: h.row,
            };
            u.facing = u32::from(d.opposite().number());
        }
        if let Some(t) = state.units.iter_mut().find(|u| u.id == "r-advance-1") {
            t.rules.disordered = disordered;
        }
        state
    }

    fn numbered<'a>(lines: &[&'a str]) -> Vec<(usize, &'a str)> {
        lines.iter().enumerate().map(|(n, l)| (n + 1, *l)).collect()
    }

    #[test]
    fn an_attack_on_a_disordered_target_the_sides_fire_may_drive_off_is_warned_of() {
        let state = close_up(true);
        let lines = numbered(&[
            "m-tatar-1: shock r-advance-1",
            "c-genoese-1: fire at r-advance-1",
        ]);
        let checked = Kulikovo.check_orders(&state, "horde", &lines);
        assert!(checked.is_clean(), "{:?}", checked.rejections);
        // Reproduced: the fire comes first, whatever the order of the
        // lines; a roll of 0 (+2 crossbows at 1 hex) reads "2-3 Retreat",
        // the advance guard falls back a hex, and the attack lapses.
        let orders = BTreeMap::from([("horde".to_string(), checked.accepted.clone())]);
        let (_, events) = Kulikovo.resolve(&state, &orders, &mut ForcedDice::new([0]));
        assert!(
            events.iter().any(|e| e.kind == "order-lapsed"
                && e.units.first().map(String::as_str) == Some("m-tatar-1")),
            "{events:#?}"
        );
        let acked = Kulikovo.acknowledge(&state, "horde", &lines);
        assert_eq!(acked.accepted, checked.accepted, "nothing more is refused");
        assert!(acked.is_clean(), "{:?}", acked.rejections);
        let warned: Vec<String> = acked.warnings.iter().map(ToString::to_string).collect();
        assert_eq!(
            warned,
            [
                "line 1: m-tatar-1: the fire at r-advance-1 on line 2 may make it retreat or retire, or eliminate it, before the shock segment, and this attack then lapses where it no longer fits the field (Missile Fire Results, Target Leg Unit, Target Disordered: \"2-3 Retreat\", \"4-6 Retire\", \"7+ Eliminated\")"
            ]
        );
    }

    #[test]
    fn one_fire_at_a_normal_target_only_disorders_it_and_is_not_warned_of() {
        // "Target Normal": "0-4 no effect", "5+ Disordered": the target
        // stays where it stands, and the attack after it is carried out.
        let state = close_up(false);
        let lines = numbered(&[
            "c-genoese-1: fire at r-advance-1",
            "m-tatar-1: shock r-advance-1",
        ]);
        let acked = Kulikovo.acknowledge(&state, "horde", &lines);
        assert!(acked.is_clean(), "{:?}", acked.rejections);
        assert!(acked.warnings.is_empty(), "{:?}", acked.warnings);
        // The Russians' counter-charges are not foreseen.
        let theirs = numbered(&["h-druzhina-1: counter-charge"]);
        assert_eq!(
            Kulikovo.acknowledge(&state, "russians", &theirs),
            Kulikovo.check_orders(&state, "russians", &theirs)
        );
    }

    /// Validation already is the activation with no die: the bot's orders
    /// less its fire, and with one attacked hex, are all carried out (no
    /// order lapses, no move is cut short) on any dice.
    #[test]
    fn without_fire_every_accepted_line_of_the_first_combat_is_carried_out() {
        let state = demo();
        for side in ["horde", "russians"] {
            let mut state = state.clone();
            state.active_side = side.to_string();
            let lines: Vec<String> = Kulikovo
                .bot_orders(&state, side)
                .into_iter()
                .filter(|l| !l.contains(" fire"))
                .collect();
            let numbered: Vec<(usize, &str)> = lines
                .iter()
                .enumerate()
                .map(|(n, l)| (n + 1, l.as_str()))
                .collect();
            let mut sheet = Kulikovo.check_orders(&state, side, &numbered);
            // Keep the attacks on the first hex attacked alone.
            let first = sheet.accepted.iter().find_map(|o| match o {
                super::KulOrder::Shock { target, .. } | super::KulOrder::Charge { target, .. } => {
                    Some(hex_of(&state, target.as_str()))
                }
                _ => None,
            });
            sheet.accepted.retain(|o| match o {
                super::KulOrder::Shock { target, .. } | super::KulOrder::Charge { target, .. } => {
                    Some(hex_of(&state, target.as_str())) == first
                }
                _ => true,
            });
            assert!(!sheet.accepted.is_empty(), "{side}: {lines:?}");
            let orders = BTreeMap::from([(side.to_string(), sheet.accepted.clone())]);
            for roll in 0..10 {
                let (_, events) =
                    Kulikovo.resolve(&state, &orders, &mut ForcedDice::new([roll; 16]));
                let lapsed: Vec<&str> = events
                    .iter()
                    .filter(|e| {
                        e.kind == "order-lapsed"
                            || (e.kind == "march" && e.text.contains("it goes no further"))
                    })
                    .map(|e| e.text.as_str())
                    .collect();
                assert!(lapsed.is_empty(), "{side}, roll {roll}: {lapsed:?}");
            }
        }
    }
}
