//! What the acknowledgement foresees of a side's orders (ruling PF-39).
//! Validation checks each order against the table as it stands when the
//! orders are written; the phase carries them out one after another, each
//! on the table the earlier ones leave. In the Movement Phase a unit may
//! end where a friend has just moved; in the Shock Combat Phase the
//! replacements are made first, and a unit attacked that another has
//! replaced no longer receives the shock. The side's orders are tried
//! through the phase's own code ([`movement::not_moved`],
//! [`shock::not_carried_out`]): what it would certainly not carry out is
//! refused with its words and clause; what the enemy or a die may yet
//! change is warned of.

use std::collections::BTreeSet;

use super::{Action, Order, PfOrder};
use crate::rules::orders::{OrderSheet, Rejection, Warning};
use crate::rules::percentile_fire::check_lines;
use crate::rules::percentile_fire::mechanics::fire::Refusal;
use crate::rules::percentile_fire::sight;
use crate::rules::percentile_fire::state::State;
use crate::rules::percentile_fire::turn::{Phase, movement, non_phasing, shock};

/// Validation, less each line the phase would certainly not carry out,
/// checked again without it until nothing more is refused, and warnings.
pub fn acknowledge(state: &State, side: &str, lines: &[(usize, &str)]) -> OrderSheet<Order> {
    let mut kept = lines.to_vec();
    let mut refused: Vec<Rejection> = Vec::new();
    loop {
        let mut sheet = check_lines(state, side, &kept);
        // Each accepted order with its line: every line is accepted,
        // refused or unread, one of the three.
        let out: BTreeSet<usize> = sheet
            .rejections
            .iter()
            .map(|r| r.line)
            .chain(sheet.parse_errors.iter().map(|e| e.line))
            .collect();
        let given: Vec<(usize, &Order)> = kept
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

/// What an order is, in the words of a refusal.
fn what(action: &Action<crate::rules::names::UnitId>) -> String {
    match action {
        Action::Move(..) => "move".to_string(),
        Action::Face(_) => "change facing".to_string(),
        Action::Form(_) => "change formation".to_string(),
        Action::Retire => "retire".to_string(),
        Action::Charge(t) => format!("charge {t}"),
        Action::Shock(t) => format!("shock {t}"),
        Action::FinalFire(t) | Action::Support(t) => format!("fire at {t}"),
        Action::Replace(t) => format!("replace {t}"),
        _ => "carry out its order".to_string(),
    }
}

/// The lines the phase would not carry out: refused where nothing before
/// them can change that, warned of where the enemy or a die may.
fn foresee(state: &State, side: &str, given: &[(usize, &Order)]) -> (Vec<Rejection>, Vec<Warning>) {
    let orders: Vec<Order> = given.iter().map(|(_, o)| (*o).clone()).collect();
    let (mut refuse, mut warn) = (Vec::new(), Vec::new());
    // Never a word of a unit the side cannot see (REP-2): such a line is
    // accepted without one, and the phase's report tells what the side saw.
    let seen = sight::visible_to(state, side, &[]);
    let told = |f: &Refusal| f.naming.iter().all(|id| seen.contains(id));
    let unit_of = |index: usize| -> Option<(usize, String, &Action<_>)> {
        let (line, order) = given.get(index)?;
        match order {
            PfOrder::Unit { unit, action } => Some((*line, unit.as_str().to_string(), action)),
            PfOrder::Pass => None,
        }
    };
    match Phase::of(state) {
        Phase::Movement if side == state.active_side => {
            for nm in movement::not_moved(state, side, &orders) {
                let Some((line, unit, action)) = unit_of(nm.index) else {
                    continue;
                };
                if !told(&nm.why) {
                    continue;
                }
                let problem = format!(
                    "cannot {} where its side's earlier lines leave the table: {}",
                    what(action),
                    nm.why.problem
                );
                let clause = nm.why.clause.clone();
                if nm.movers.is_empty() {
                    refuse.push(Rejection {
                        line,
                        unit: Some(unit),
                        problem,
                        clause,
                    });
                } else {
                    warn.push(Warning {
                        line,
                        unit: Some(unit),
                        problem: format!(
                            "{problem}; the enemy's opportunity or passby fire at {} as it moves may change that",
                            nm.movers.join(" and ")
                        ),
                        clause,
                    });
                }
            }
        }
        Phase::Shock if side == non_phasing(state) => {
            for (index, why) in shock::not_carried_out(state, &orders) {
                let Some((line, unit, action)) = unit_of(index) else {
                    continue;
                };
                if !told(&why) {
                    continue;
                }
                // A fire given before it at a unit its words name (an enemy
                // in the field of fire) may reduce or destroy that unit
                // first; fire changes nothing else on the table.
                let earlier: BTreeSet<&str> = given
                    .iter()
                    .filter(|(l, _)| *l < line)
                    .filter_map(|(_, o)| match o.action() {
                        Some(Action::FinalFire(t) | Action::Support(t)) => Some(t.as_str()),
                        _ => None,
                    })
                    .collect();
                let target = match action {
                    Action::FinalFire(t) | Action::Support(t) => Some(t.as_str()),
                    _ => None,
                };
                let doubt: Vec<&str> = why
                    .naming
                    .iter()
                    .map(String::as_str)
                    .filter(|id| Some(*id) != target && earlier.contains(id))
                    .collect();
                let problem = format!(
                    "cannot {}: the Shock Combat Phase makes the side's replacements first, in the order written, and then {}",
                    what(action),
                    why.problem
                );
                let clause = why.clause.clone();
                if doubt.is_empty() {
                    refuse.push(Rejection {
                        line,
                        unit: Some(unit),
                        problem,
                        clause,
                    });
                } else {
                    warn.push(Warning {
                        line,
                        unit: Some(unit),
                        problem: format!(
                            "{problem}; the fire given earlier in the phase at {} may change that",
                            doubt.join(" and ")
                        ),
                        clause,
                    });
                }
            }
        }
        _ => {}
    }
    (refuse, warn)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    use crate::audit::dice::ForcedDice;
    use crate::rules::orders::OrderSheet;
    use crate::rules::percentile_fire::orders::Order;
    use crate::rules::percentile_fire::state::Shock;
    use crate::rules::percentile_fire::turn::Phase;
    use crate::rules::percentile_fire::{ID, PercentileFire, State, basing};
    use crate::rules::ruleset::Rules;

    const CAMPAIGN: &str = include_str!("../../../../campaigns/percentile-fire-demo/campaign.toml");

    /// A line of infantry in two ranks, by id, side, strength, front centre
    /// (in hundredths of an inch) and facing.
    fn line(id: &str, side: &str, strength: u32, at: (i64, i64), facing: u32) -> String {
        format!(
            "[[unit]]\nid = \"{id}\"\nname = \"{id}\"\nside = \"{side}\"\narm = \"infantry\"\nformation = \"line\"\nranks = 2\nweapon = \"musket\"\nstrength = {strength}\nx = {}\ny = {}\nfacing = {facing}\n\n",
            at.0 as f64 / 100.0,
            at.1 as f64 / 100.0
        )
    }

    /// The demo's sides on an open table, French phasing, in `phase`.
    fn start(units: &[String], phase: Phase) -> State {
        let scenario = format!(
            "[scenario]\ntitle = \"foresee\"\nfirst_active = \"french\"\n\n[map]\nkind = \"table\"\nwidth = 48\ndepth = 36\n\n{}",
            units.concat()
        );
        let campaign = crate::campaign::load_texts(Path::new("foresee"), CAMPAIGN, &scenario)
            .expect("the position loads");
        let ruleset = crate::rules::ruleset_for(ID).expect("registered");
        let mut state = campaign
            .initial_state(ruleset)
            .expect("sets up")
            .typed::<PercentileFire>()
            .expect("reads");
        state.phase = phase.index();
        state
    }

    fn sheets(s: &State, side: &str, lines: &[&str]) -> (OrderSheet<Order>, OrderSheet<Order>) {
        let numbered: Vec<(usize, &str)> =
            lines.iter().enumerate().map(|(n, l)| (n + 1, *l)).collect();
        (
            PercentileFire.check_orders(s, side, &numbered),
            PercentileFire.acknowledge(s, side, &numbered),
        )
    }

    fn texts<T: ToString>(all: &[T]) -> Vec<String> {
        all.iter().map(ToString::to_string).collect()
    }

    /// What the phase tells of `side`'s accepted orders, resolved alone on
    /// dice that are never thrown.
    fn told(s: &State, side: &str, sheet: &OrderSheet<Order>) -> Vec<String> {
        let orders = BTreeMap::from([(side.to_string(), sheet.accepted.clone())]);
        let (_, events) = PercentileFire.resolve(s, &orders, &mut ForcedDice::new([]));
        events
            .iter()
            .filter(|e| e.kind == "move-lapsed" || e.kind == "fire-lapsed")
            .map(|e| e.text.clone())
            .collect()
    }

    /// French `a` turns to face east on its front centre; `b`, 4.75" ahead
    /// of it, steps back 2" into the ground `a` has just turned onto. Each
    /// order fits the table as it stands, so validation takes both.
    fn crowded(more: &[String]) -> State {
        let mut units = vec![
            line("a", "french", 12, (1000, 1000), 0),
            line("b", "french", 2, (925, 1400), 0),
            line("far", "allied", 12, (4000, 3400), 180),
        ];
        units.extend(more.iter().cloned());
        start(&units, Phase::Movement)
    }

    const CROWDED: [&str; 2] = ["a: face 90", "b: back 2"];

    #[test]
    fn a_move_onto_ground_a_friend_has_just_taken_is_refused_with_the_phases_words() {
        let s = crowded(&[]);
        let (checked, acked) = sheets(&s, "french", &CROWDED);
        assert!(checked.is_clean(), "{:?}", checked.rejections);
        // The phase, carrying the lines out in their order, does not make
        // b's move: the reproduction of what the acknowledgement missed.
        assert_eq!(
            told(&s, "french", &checked),
            [
                "b does not move: it would end on a (ruling PF-3: movement lies outside the chapter)."
            ]
        );
        assert_eq!(
            texts(&acked.rejections),
            [
                "line 2: b: cannot move where its side's earlier lines leave the table: it would end on a (ruling PF-3: movement lies outside the chapter)"
            ]
        );
        assert_eq!(acked.accepted.len(), 1);
        assert!(acked.warnings.is_empty(), "{:?}", acked.warnings);
        // Resolution re-checks by validation alone, which still takes it.
        assert_eq!(
            PercentileFire
                .check_orders(&s, "french", &[(2, "b: back 2")])
                .accepted
                .len(),
            1
        );
    }

    #[test]
    fn a_move_that_the_enemys_opportunity_fire_may_clear_is_warned_of() {
        // Allied `e` faces west 1.75" off a's right: a's change of facing
        // is within its Minimum Range Fire Zone (musket, 2"), and its
        // opportunity fire, if it stands ready, may destroy a first.
        let s = crowded(&[line("e", "allied", 4, (1400, 925), 270)]);
        let (checked, acked) = sheets(&s, "french", &CROWDED);
        assert!(checked.is_clean(), "{:?}", checked.rejections);
        assert!(acked.is_clean(), "{:?}", acked.rejections);
        assert_eq!(acked.accepted.len(), 2);
        assert_eq!(
            texts(&acked.warnings),
            [
                "line 2: b: cannot move where its side's earlier lines leave the table: it would end on a; the enemy's opportunity or passby fire at a as it moves may change that (ruling PF-3: movement lies outside the chapter)"
            ]
        );
    }

    #[test]
    fn the_order_of_the_lines_decides_which_is_refused_and_standing_orders_are_not_foreseen() {
        let s = crowded(&[]);
        // b steps back before a turns: b's move is made, and a cannot
        // then turn onto the ground b has taken.
        let (_, acked) = sheets(&s, "french", &["b: back 2", "a: face 90"]);
        assert_eq!(acked.rejections.len(), 1, "{:?}", acked.rejections);
        assert_eq!(acked.rejections[0].line, 2, "{:?}", acked.rejections);
        let lines = [(1, "far: opportunity fire")];
        assert_eq!(
            PercentileFire.acknowledge(&s, "allied", &lines),
            PercentileFire.check_orders(&s, "allied", &lines)
        );
    }

    /// The Shock Combat Phase: French hussars have shocked allied `x`
    /// from just south of its front; allied `y` and `z` stand aside.
    fn shocked() -> State {
        let cavalry = "[[unit]]\nid = \"hussars\"\nname = \"hussars\"\nside = \"french\"\narm = \"cavalry\"\nformation = \"line\"\nweapon = \"carbine\"\nstrength = 8\nx = 20\ny = 19.9\nfacing = 0\n\n".to_string();
        let mut s = start(
            &[
                cavalry,
                line("x", "allied", 12, (2000, 2000), 180),
                line("y", "allied", 12, (3000, 2500), 180),
                line("z", "allied", 12, (3600, 2500), 180),
            ],
            Phase::Shock,
        );
        let from = s
            .unit("hussars")
            .and_then(basing::footprint)
            .expect("on the table");
        s.game.shocks.push(Shock {
            attacker: "hussars".to_string(),
            target: "x".to_string(),
            charge: false,
            from,
            replaced: false,
        });
        s
    }

    #[test]
    fn a_second_replacement_and_the_replaced_units_final_fire_are_refused() {
        let s = shocked();
        let lines = ["x: final fire hussars", "y: replace x", "z: replace x"];
        let (checked, acked) = sheets(&s, "allied", &lines);
        assert!(checked.is_clean(), "{:?}", checked.rejections);
        // The phase makes y's replacement, then neither z's (x no longer
        // receives the shock) nor x's fire (the shock is no longer x's).
        let orders = BTreeMap::from([("allied".to_string(), checked.accepted.clone())]);
        let (_, events) = PercentileFire.resolve(&s, &orders, &mut ForcedDice::new([]));
        assert_eq!(
            events.iter().filter(|e| e.kind == "replace").count(),
            1,
            "{events:#?}"
        );
        assert_eq!(
            told(&s, "allied", &checked),
            [
                "x does not fire at hussars: hussars declared no shock against it (11.84: \"Final Shock Combat Fire is part of the Shock Combat Phase when the defending unit(s) are eligible to Fire attack against the shocking enemy units attempting to elLter their position.\")."
            ]
        );
        assert_eq!(
            texts(&acked.rejections),
            [
                "line 1: x: cannot fire at hussars: the Shock Combat Phase makes the side's replacements first, in the order written, and then hussars declared no shock against it (11.84: \"Final Shock Combat Fire is part of the Shock Combat Phase when the defending unit(s) are eligible to Fire attack against the shocking enemy units attempting to elLter their position.\")",
                "line 3: z: cannot replace x: the Shock Combat Phase makes the side's replacements first, in the order written, and then x receives no declared Shock Combat attack (11.86: \"if a player replaces a unit with another friendly unit to receive the Shock Combat attack\")"
            ]
        );
        assert_eq!(texts(&acked.accepted), ["y: replace x"]);
        // Without the replacement, x's final fire stands.
        let (_, acked) = sheets(&s, "allied", &["x: final fire hussars"]);
        assert!(acked.is_clean(), "{:?}", acked.rejections);
    }
}
