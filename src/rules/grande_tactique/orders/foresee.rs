//! What the acknowledgement foresees of a side's PIP Phase orders (ruling
//! GT-27): validation measures each move, turn and change of formation on
//! the field as it stands when the orders are written, while the phase
//! carries a side's orders out in their order, each on the field as the
//! earlier ones leave it (`turn::not_made`, the phase's own code). A unit
//! that an earlier line moves into another's way is caught here.

use std::collections::BTreeSet;

use super::super::state::State;
use super::super::turn::{Phase, not_made};
use super::super::{GrandeTactique, sight};
use super::{Action, GtOrder, check};
use crate::rules::orders::{OrderSheet, Rejection, Warning};

/// See the module's words: validation, less each line the phase would
/// certainly not carry out, checked again without it until nothing more is
/// refused, and warnings.
pub fn acknowledge(state: &State, side: &str, lines: &[(usize, &str)]) -> OrderSheet<GtOrder> {
    let mut kept = lines.to_vec();
    let mut refused: Vec<Rejection> = Vec::new();
    loop {
        let mut sheet = check::check(state, side, &kept);
        if Phase::of(state) != Phase::Pips {
            sheet.rejections.extend(refused);
            sheet.rejections.sort_by_key(|r| r.line);
            return sheet;
        }
        // Each accepted order with its line: the lines neither refused nor
        // unread, in their order.
        let out: BTreeSet<usize> = sheet
            .rejections
            .iter()
            .map(|r| r.line)
            .chain(sheet.parse_errors.iter().map(|e| e.line))
            .collect();
        let given: Vec<(usize, &GtOrder)> = kept
            .iter()
            .map(|(l, _)| *l)
            .filter(|l| !out.contains(l))
            .zip(&sheet.accepted)
            .collect();
        let (refuse, warn) = foresee(state, side, &given);
        if refuse.is_empty() {
            sheet.rejections.extend(refused);
            sheet.rejections.sort_by_key(|r| r.line);
            sheet.warnings = warn;
            return sheet;
        }
        kept.retain(|(l, _)| !refuse.iter().any(|r| r.line == *l));
        refused.extend(refuse);
    }
}

/// The side's moves, turns and changes of formation the phase would not
/// make: refused for the side carried out first, warned of for another.
fn foresee(
    state: &State,
    side: &str,
    given: &[(usize, &GtOrder)],
) -> (Vec<Rejection>, Vec<Warning>) {
    let orders: Vec<GtOrder> = given.iter().map(|(_, o)| (*o).clone()).collect();
    let first = state.sides.first().is_some_and(|s| s == side);
    let seen = sight::visible_to(&GrandeTactique, state, side, &[]);
    let (mut refuse, mut warn) = (Vec::new(), Vec::new());
    for nm in not_made(state, side, &orders) {
        let Some((line, _)) = given.iter().find(|(_, o)| {
            o.unit.as_str() == nm.unit
                && matches!(
                    o.action,
                    Action::Advance(_)
                        | Action::Retire(_)
                        | Action::Face(_)
                        | Action::FaceUnit(_)
                        | Action::Form(_)
                )
        }) else {
            continue;
        };
        // Never a word of a unit the side cannot see (REP-2).
        if nm.by.as_ref().is_some_and(|b| !seen.contains(b)) {
            continue;
        }
        let problem = format!(
            "cannot {} where its side's earlier lines leave the field: {}",
            nm.what, nm.problem
        );
        if first {
            refuse.push(Rejection {
                line: *line,
                unit: Some(nm.unit),
                problem,
                clause: Some(nm.clause),
            });
        } else {
            warn.push(Warning {
                line: *line,
                unit: Some(nm.unit),
                problem: format!(
                    "{problem}; the orders of the side before it in the phase come first and may change that"
                ),
                clause: Some(nm.clause),
            });
        }
    }
    (refuse, warn)
}
