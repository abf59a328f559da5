//! What the acknowledgement foresees of the active side's orders, before
//! the enemy answers and before any die of the turn (ruling STC-100).
//!
//! The orders are tried as the turn carries them out: the movement phase on
//! the state as it stands ([`super::super::turn::plan`], which the preview draws), then
//! each shot with the shooting phase's own checks ([`shooting::may_fire`])
//! on the table the moves leave, since "The active side then does all
//! shooting" after it has moved (Turn Sequence). An order that fails there
//! is refused, in the words and with the clause the turn would give, when
//! nothing that comes before it in the turn could change that. When
//! something could (an enemy's evade, a rally test, a launch roll, cavalry
//! coming back onto the table, an earlier volley that sends a unit back),
//! the order stands with a warning instead; so does an order that succeeds
//! there against a target that may yet evade.

use std::collections::{BTreeMap, BTreeSet};

use super::super::turn::fighting::{arm_of, nation_of, option};
use super::super::turn::movement::{
    ARTILLERY_MOVEMENT, MANEUVERS, MOVEMENT, SKIRMISH_MOVEMENT, may_evade,
};
use super::super::turn::shooting::{self, NoShot, Shot};
use super::super::turn::{Given, NotDone, SideOrders};
use crate::rules::orders::{Rejection, Warning};
use crate::rules::sound_the_charge::orders::StcOrder;
use crate::rules::sound_the_charge::sight::Sight;
use crate::rules::sound_the_charge::state::State;
use crate::rules::sound_the_charge::tables::{Arm, Nation};

const EVADING: &str = "Charging and Evading, Evading";

/// What the acknowledgement says of the active side's accepted orders
/// beyond what the rules forbid outright.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Foreseen {
    /// Lines the turn would certainly not carry out.
    pub refused: Vec<Rejection>,
    /// Lines whose outcome hangs on what comes before them in the turn.
    pub warnings: Vec<Warning>,
}

/// What may come before an order in the turn and change how it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Doubt {
    /// An enemy charged earlier in the phase may evade ("The passive side
    /// may make evade moves with eligible units in response to charges").
    Evade,
    /// A shaken unit tests to rally before it moves ("The active side tests
    /// to rally shaken units, then moves").
    Rally,
    /// Spain, Naples: "A Spanish cavalry unit must roll a 3-6 on one die in
    /// order to launch a charge."
    Launch,
    /// British cavalry off the table following up "test at the start of
    /// each active turn to see if it returns".
    Return,
    /// An earlier volley of the phase may send a unit back ("retreat two
    /// inches shaken").
    Volley,
}

impl Doubt {
    fn words(self) -> &'static str {
        match self {
            Doubt::Evade => "an enemy's evade earlier in the movement",
            Doubt::Rally => "a rally test at the start of the turn",
            Doubt::Launch => "a Spanish launch roll earlier in the movement",
            Doubt::Return => "cavalry coming back onto the table at the start of the turn",
            Doubt::Volley => "an earlier volley that sends a unit back",
        }
    }
}

/// What in the sheet and the state may make the turn go otherwise than
/// the plan, which has no enemy answering and no die.
struct Doubts {
    /// Enemy units a charge of the sheet is aimed at that may evade it,
    /// with the charger.
    evaders: BTreeMap<String, String>,
    /// Lines whose outcome rests on the enemy or a die, with what: charges
    /// at those who may evade, Spanish cavalry charges, and the orders of
    /// shaken units (they may rally first).
    lines: BTreeMap<usize, Doubt>,
    /// The side's shaken units.
    shaken: BTreeSet<String>,
    /// Whether units of the side are off the table, following up.
    returning: bool,
}

impl Doubts {
    fn of(state: &State, side: &str, orders: &[Given]) -> Doubts {
        let mut evaders = BTreeMap::new();
        let mut lines = BTreeMap::new();
        let shaken: BTreeSet<String> = state
            .units
            .iter()
            .filter(|u| u.side == side && u.eliminated.is_none() && u.rules.shaken)
            .map(|u| u.id.clone())
            .collect();
        for g in orders {
            let unit = g.order.unit().as_str();
            if shaken.contains(unit) && shifts(&g.order) {
                lines.insert(g.line, Doubt::Rally);
            }
            let StcOrder::Charge { target, .. } = &g.order else {
                continue;
            };
            let spanish = state.unit(unit).is_some_and(|u| {
                arm_of(u) == Arm::Cavalry && nation_of(state, side) == Some(Nation::Spain)
            });
            if spanish {
                lines.insert(g.line, Doubt::Launch);
            }
            if state
                .unit(target.as_str())
                .is_some_and(|t| may_evade(t).is_ok())
            {
                evaders.insert(target.as_str().to_string(), unit.to_string());
                lines.entry(g.line).or_insert(Doubt::Evade);
            }
        }
        let returning = state.units.iter().any(|u| {
            u.side == side
                && u.eliminated.as_deref() == Some(super::super::turn::pursuit::LEFT_FOLLOWING)
        });
        Doubts {
            evaders,
            lines,
            shaken,
            returning,
        }
    }

    /// What may change the outcome of the order on `line` for `unit` in
    /// the movement phase, if anything.
    fn before(&self, line: usize, unit: &str) -> Option<Doubt> {
        if self.shaken.contains(unit) {
            return Some(Doubt::Rally);
        }
        if self.returning {
            return Some(Doubt::Return);
        }
        self.lines.range(..line).next().map(|(_, d)| *d)
    }

    /// What may leave the table at the shooting otherwise than the plan
    /// leaves it, if anything.
    fn any(&self) -> Option<Doubt> {
        if self.returning {
            return Some(Doubt::Return);
        }
        self.lines.values().next().copied()
    }
}

/// Orders that move a unit's footprint before the shooting.
fn shifts(order: &StcOrder) -> bool {
    matches!(
        order,
        StcOrder::Move { .. }
            | StcOrder::Charge { .. }
            | StcOrder::Manhandle { .. }
            | StcOrder::MoveTo { .. }
            | StcOrder::Reinforce { .. }
            | StcOrder::Retreat { .. }
            | StcOrder::Form { .. }
            | StcOrder::Face { .. }
            | StcOrder::Embark { .. }
            | StcOrder::Disembark { .. }
    )
}

/// The rule of an order's kind, for a refusal whose words cite none.
fn rule_of(state: &State, order: &StcOrder) -> &'static str {
    match order {
        StcOrder::Charge { .. } => "Charging and Evading",
        StcOrder::Reinforce { .. } => "Close Combat, Reinforcing a Combat",
        StcOrder::Form { .. } | StcOrder::Face { .. } => MANEUVERS,
        StcOrder::Manhandle { .. } | StcOrder::LeaveGuns { .. } | StcOrder::ManGuns { .. } => {
            ARTILLERY_MOVEMENT
        }
        StcOrder::MoveTo { unit, .. } if state.unit(unit.as_str()).is_none() => "Generals",
        StcOrder::MoveTo { .. } => SKIRMISH_MOVEMENT,
        StcOrder::Attach { .. } | StcOrder::Detach { .. } => "Generals",
        StcOrder::Retreat { .. } => "Optional Rules, Voluntary Retreat",
        StcOrder::Embark { .. } | StcOrder::Disembark { .. } => "Optional Rules, Boats",
        _ => MOVEMENT,
    }
}

/// Whether words end by citing their rule in brackets, as the movement
/// phase's reasons mostly do ("... is left (Movement Table)").
fn cites_its_rule(words: &str) -> bool {
    words.ends_with(')')
}

/// Foresees the active side's accepted `orders` (with their lines). The
/// passive side's standing orders answer the enemy's and are not foreseen.
pub fn foresee(state: &State, side: &str, orders: &[Given]) -> Foreseen {
    let mut out = Foreseen::default();
    if side != state.active_side || orders.is_empty() {
        return out;
    }
    let active = SideOrders {
        side: side.to_string(),
        orders: orders.to_vec(),
    };
    let planned = super::super::turn::plan(state, &active);
    let doubts = Doubts::of(state, side, orders);
    // A refusal or warning never names a unit the side cannot see: what
    // it would tell of one is left for the turn's report, which tells each
    // side what it saw (REP-1, REP-2).
    let sight = Sight::of(state, side);
    let seen = |id: &str| state.unit(id).is_none_or(|u| sight.sees(u));
    let order_on = |line: usize| orders.iter().find(|g| g.line == line);
    let mut told = BTreeSet::new();
    for nd in &planned.record.not_done {
        let Some(given) = order_on(nd.line) else {
            continue;
        };
        if !told.insert(nd.line) || !nd.named.iter().all(|id| seen(id)) {
            continue;
        }
        let clause = nd.clause.clone().or_else(|| {
            (!cites_its_rule(&nd.problem)).then(|| rule_of(state, &given.order).to_string())
        });
        // A failure that stands with no other unit on the table, and the
        // unit rallied if it is shaken (a move too long even so, ground it
        // may not enter), is certain whatever comes before it.
        let doubt = match doubts.before(nd.line, &nd.unit) {
            Some(_) if fails_alone(state, orders, given) => None,
            d => d,
        };
        match doubt {
            None => out.refused.push(refusal(nd, clause)),
            Some(doubt) => out.warnings.push(Warning {
                line: nd.line,
                unit: Some(nd.unit.clone()),
                problem: format!(
                    "{}, as the table stands; {} may change that",
                    nd.problem,
                    doubt.words()
                ),
                clause,
            }),
        }
    }
    // A charge that meets its target in the plan, at a target that may
    // evade it.
    for g in orders {
        let StcOrder::Charge { unit, target, .. } = &g.order else {
            continue;
        };
        if told.contains(&g.line) || !doubts.evaders.contains_key(target.as_str()) {
            continue;
        }
        let Some(t) = state.unit(target.as_str()) else {
            continue;
        };
        let guns = arm_of(t) == Arm::Artillery;
        out.warnings.push(Warning {
            line: g.line,
            unit: Some(unit.as_str().to_string()),
            problem: if guns {
                format!(
                    "the gunners of {} may evade the charge, abandoning their guns",
                    t.name
                )
            } else {
                format!(
                    "{} may evade the charge, which then halts at the point of evasion",
                    t.name
                )
            },
            clause: Some(format!(
                "{EVADING}: \"Skirmishers and gunners may evade an enemy charge.\""
            )),
        });
        told.insert(g.line);
    }
    shots(state, &planned, orders, &doubts, &seen, &mut told, &mut out);
    out.refused.sort_by_key(|r| r.line);
    out.warnings.sort_by_key(|w| w.line);
    out
}

/// Whether `given` fails in the movement phase with no unit on the table
/// but its own and those its order names (its target, the friend it
/// reinforces, the units it screens), carrying out its own orders up to
/// it, and the unit steady if it is shaken. Other units only ever stand in
/// the way, and a passed rally test only helps ("the wheeling rate is at
/// half speed if the unit is Grade D or unsteady"): a failure even so does
/// not hang on anything that comes before it.
fn fails_alone(state: &State, orders: &[Given], given: &Given) -> bool {
    let unit = given.order.unit().as_str();
    let mut keep: BTreeSet<String> = BTreeSet::from([unit.to_string()]);
    let _ = given.order.try_map(|r, _| {
        keep.insert(r.as_str().to_string());
        Ok::<(), ()>(())
    });
    if let Some(u) = state.unit(unit) {
        keep.extend(u.rules.status.screening.iter().cloned());
    }
    let mut alone = state.clone();
    alone.units.retain(|u| keep.contains(&u.id));
    for u in &mut alone.units {
        if u.id == unit {
            u.rules.shaken = false;
        }
    }
    let own = SideOrders {
        side: state.active_side.clone(),
        orders: orders
            .iter()
            .filter(|g| g.line <= given.line && g.order.unit().as_str() == unit)
            .cloned()
            .collect(),
    };
    super::super::turn::plan(&alone, &own)
        .record
        .not_done
        .iter()
        .any(|nd| nd.line == given.line)
}

fn refusal(nd: &NotDone, clause: Option<String>) -> Rejection {
    Rejection {
        line: nd.line,
        unit: Some(nd.unit.clone()),
        problem: nd.problem.clone(),
        clause,
    }
}

/// The side's shots, in the order the shooting phase fires them (by the
/// firer's id, then the line), each checked on the table the moves leave.
fn shots(
    state: &State,
    planned: &super::super::turn::Planned,
    orders: &[Given],
    doubts: &Doubts,
    seen: &dyn Fn(&str) -> bool,
    told: &mut BTreeSet<usize>,
    out: &mut Foreseen,
) {
    let facts =
        super::super::turn::fighting::TurnFacts::from_record(&planned.state, &planned.record);
    let mut list: Vec<Shot> = orders
        .iter()
        .filter_map(|g| match &g.order {
            StcOrder::Shoot {
                unit,
                target,
                split,
                through_skirmishers,
                at_regimental_gun,
            } => Some(Shot {
                line: g.line,
                firer: unit.as_str().to_string(),
                target: target.as_str().to_string(),
                split: split.as_ref().map(|s| s.as_str().to_string()),
                through_skirmishers: *through_skirmishers,
                at_gun: *at_regimental_gun,
            }),
            _ => None,
        })
        .collect();
    list.sort_by(|a, b| a.firer.cmp(&b.firer).then(a.line.cmp(&b.line)));
    let bounce = option(state, "artillery-bounce-through");
    // Units an earlier volley may send back; all of them, once guns have
    // fired with bounce-through ("Any additional targets the line touches
    // (enemy or friendly)").
    let mut struck: BTreeSet<String> = BTreeSet::new();
    let mut struck_all = false;
    for shot in &list {
        if told.contains(&shot.line) {
            continue;
        }
        let firer_moves = orders
            .iter()
            .any(|g| g.order.unit().as_str() == shot.firer && shifts(&g.order));
        let fires = |struck: &mut BTreeSet<String>, struck_all: &mut bool| {
            struck.insert(shot.target.clone());
            struck.extend(shot.split.clone());
            let guns = state
                .unit(&shot.firer)
                .is_some_and(|u| arm_of(u) == Arm::Artillery);
            *struck_all |= bounce && guns;
        };
        let why = match shooting::may_fire(&planned.state, &facts, shot) {
            Ok(()) => {
                if let Some(charger) = doubts.evaders.get(&shot.target) {
                    let name = |id: &str| state.unit(id).map_or(id.to_string(), |u| u.name.clone());
                    out.warnings.push(Warning {
                        line: shot.line,
                        unit: Some(shot.firer.clone()),
                        problem: format!(
                            "{} may evade the charge of {} before the shooting, and is shot at where it then stands",
                            name(&shot.target),
                            name(charger)
                        ),
                        clause: Some(
                            "Turn Sequence: \"The active side then does all shooting with eligible units.\""
                                .to_string(),
                        ),
                    });
                }
                fires(&mut struck, &mut struck_all);
                continue;
            }
            Err(why) => why,
        };
        if !why.naming.iter().all(|id| seen(id)) {
            fires(&mut struck, &mut struck_all);
            continue;
        }
        // Whether the failure lies with the firer, its target and the
        // ground alone: then it stands as long as those two stand where
        // the plan puts them. Otherwise any unit may change it.
        let alone = {
            let mut two = planned.state.clone();
            two.units
                .retain(|u| u.id == shot.firer || u.id == shot.target);
            let first = Shot {
                split: None,
                ..shot.clone()
            };
            shooting::may_fire(&two, &facts, &first).is_err()
        };
        let hit = |id: &str| struck_all || struck.contains(id);
        let doubt = if alone {
            if doubts.evaders.contains_key(&shot.target) {
                Some(Doubt::Evade)
            } else if hit(&shot.firer) || hit(&shot.target) {
                Some(Doubt::Volley)
            } else if firer_moves {
                doubts.any()
            } else {
                None
            }
        } else if struck_all || !struck.is_empty() {
            Some(Doubt::Volley)
        } else {
            doubts.any()
        };
        match doubt {
            None => out.refused.push(shot_refusal(shot, why)),
            Some(doubt) => {
                out.warnings.push(Warning {
                    line: shot.line,
                    unit: Some(shot.firer.clone()),
                    problem: format!(
                        "{}, as the table will stand at the shooting; {} may change that",
                        why.problem,
                        doubt.words()
                    ),
                    clause: Some(why.clause),
                });
                fires(&mut struck, &mut struck_all);
            }
        }
    }
}

fn shot_refusal(shot: &Shot, why: NoShot) -> Rejection {
    Rejection {
        line: shot.line,
        unit: Some(shot.firer.clone()),
        problem: why.problem,
        clause: Some(why.clause),
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::turn::fighting::testing::{state, unit};
    use crate::rules::orders::OrderSheet;
    use crate::rules::ruleset::Rules;
    use crate::rules::sound_the_charge::orders::StcOrder;
    use crate::rules::sound_the_charge::{SoundTheCharge, State};

    /// Blue line infantry facing north at (20, 20), and what else a test
    /// puts on the table.
    fn table(more: Vec<crate::rules::sound_the_charge::Unit>) -> State {
        let mut units = vec![unit(
            "blue-1",
            "blue",
            "line-infantry",
            "C",
            12,
            "line",
            (2000, 2000),
            0,
        )];
        units.extend(more);
        state(units)
    }

    /// Red line infantry facing south, its front at `y`.
    fn red_line(id: &str, x: i64, y: i64) -> crate::rules::sound_the_charge::Unit {
        unit(id, "red", "line-infantry", "C", 12, "line", (x, y), 180)
    }

    fn sheets(s: &State, lines: &[&str]) -> (OrderSheet<StcOrder>, OrderSheet<StcOrder>) {
        let numbered: Vec<(usize, &str)> =
            lines.iter().enumerate().map(|(n, l)| (n + 1, *l)).collect();
        (
            SoundTheCharge.check_orders(s, "blue", &numbered),
            SoundTheCharge.acknowledge(s, "blue", &numbered),
        )
    }

    fn texts<T: ToString>(all: &[T]) -> Vec<String> {
        all.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_shot_out_of_range_is_refused_with_the_clause_and_still_checks_for_resolution() {
        // Musketry 2 / 4: 4.5" is beyond it. The rules' check still
        // accepts it, so orders accepted before are resolved as they were.
        let s = table(vec![red_line("red-1", 2000, 2450)]);
        let (checked, acked) = sheets(&s, &["blue-1: shoot red-1"]);
        assert!(checked.is_clean());
        assert!(acked.accepted.is_empty());
        assert_eq!(
            texts(&acked.rejections),
            [
                "line 1: blue-1: red-1 is out of range: the far range of musketry is 4 inches, the nearest figure is 4.5 inches away (Shooting Table: \"Musketry 2 / 4\")"
            ]
        );
    }

    #[test]
    fn a_shot_outside_the_arc_of_fire_is_refused_with_the_clause() {
        // Red stands 2.75" off blue's right flank: in range, out of arc.
        let s = table(vec![unit(
            "red-1",
            "red",
            "line-infantry",
            "C",
            12,
            "line",
            (2500, 2000),
            270,
        )]);
        let (_, acked) = sheets(&s, &["blue-1: shoot red-1"]);
        assert_eq!(
            texts(&acked.rejections),
            [
                "line 1: blue-1: red-1 is outside the arc of fire (Shooting, General Rules: \"The arc of fire is 45° to either side.\")"
            ]
        );
    }

    #[test]
    fn a_shot_is_measured_from_where_the_firers_move_leaves_it() {
        // Shooting comes after movement: a step forward brings red, 4.5"
        // off, into musket range, and the line stands.
        let s = table(vec![red_line("red-1", 2000, 2450)]);
        let (_, acked) = sheets(&s, &["blue-1: forward 1", "blue-1: shoot red-1"]);
        assert!(acked.is_clean(), "{:?}", acked.rejections);
        assert!(acked.warnings.is_empty(), "{:?}", acked.warnings);
        assert_eq!(acked.accepted.len(), 2);
        // A step back spends all of the 2" its out-of-command half speed
        // leaves (backstep at half speed), more than half of it: the line
        // may not shoot after it.
        let s = table(vec![red_line("red-1", 2000, 2300)]);
        let (checked, acked) = sheets(&s, &["blue-1: backstep 1", "blue-1: shoot red-1"]);
        assert!(checked.is_clean());
        assert_eq!(
            texts(&acked.rejections),
            [
                "line 2: blue-1: infantry that moved more than half speed may not shoot (Shooting, General Rules: \"Infantry may move half speed and fire at a penalty.\")"
            ]
        );
    }

    #[test]
    fn a_move_beyond_the_allowance_is_refused_and_one_an_enemys_evade_may_change_is_warned() {
        // Blue-1 has 2" (half speed, no general in command radius): 5" is
        // certainly too far.
        let s = table(vec![red_line("red-1", 2000, 4000)]);
        let (checked, acked) = sheets(&s, &["blue-1: forward 5"]);
        assert!(checked.is_clean());
        assert_eq!(acked.rejections.len(), 1, "{:?}", acked.rejections);
        assert!(
            acked.rejections[0]
                .to_string()
                .starts_with("line 1: blue-1: cannot move: the move costs 5\" of movement"),
            "{}",
            acked.rejections[0]
        );
        // Hussars charge red skirmishers first, who may evade: that cannot
        // make the move shorter, and it is still refused; but a move that
        // would end within an inch of red-2 is only warned of, as an evade
        // before it may change the table.
        let s = table(vec![
            unit(
                "hussars",
                "blue",
                "light-cavalry",
                "C",
                12,
                "line",
                (4000, 2000),
                0,
            ),
            unit(
                "voltigeurs",
                "red",
                "light-infantry",
                "C",
                8,
                "skirmish",
                (4000, 2500),
                180,
            ),
            red_line("red-2", 2000, 2250),
        ]);
        let (_, acked) = sheets(&s, &["hussars: charge voltigeurs", "blue-1: forward 5"]);
        assert_eq!(acked.rejections.len(), 1, "{:?}", acked.rejections);
        let (_, acked) = sheets(&s, &["hussars: charge voltigeurs", "blue-1: forward 2"]);
        assert!(acked.is_clean(), "{:?}", acked.rejections);
        assert_eq!(
            texts(&acked.warnings),
            [
                "line 1: hussars: voltigeurs may evade the charge, which then halts at the point of evasion (Charging and Evading, Evading: \"Skirmishers and gunners may evade an enemy charge.\")",
                "line 2: blue-1: cannot move: the move would come within 1\" of the enemy red-2 (Movement, Zones of Control), as the table stands; an enemy's evade earlier in the movement may change that"
            ]
        );
        // With no charge before it, the same move is refused.
        let (_, acked) = sheets(&s, &["blue-1: forward 2"]);
        assert_eq!(acked.rejections.len(), 1, "{:?}", acked.rejections);
    }

    #[test]
    fn a_shot_at_a_target_that_may_evade_first_is_warned_not_refused() {
        let s = table(vec![
            unit(
                "hussars",
                "blue",
                "light-cavalry",
                "C",
                12,
                "line",
                (4000, 2000),
                0,
            ),
            unit(
                "voltigeurs",
                "red",
                "light-infantry",
                "C",
                8,
                "skirmish",
                (4000, 2500),
                180,
            ),
            unit(
                "blue-2",
                "blue",
                "line-infantry",
                "C",
                12,
                "line",
                (4600, 2200),
                0,
            ),
        ]);
        let (_, acked) = sheets(
            &s,
            &["hussars: charge voltigeurs", "blue-2: shoot voltigeurs"],
        );
        assert!(acked.is_clean(), "{:?}", acked.rejections);
        let warned = texts(&acked.warnings);
        assert_eq!(warned.len(), 2, "{warned:?}");
        assert!(warned[1].starts_with("line 2: blue-2: "), "{warned:?}");
        assert!(warned[1].contains("evade"), "{warned:?}");
    }

    #[test]
    fn a_shaken_units_move_is_warned_of_since_it_rallies_first() {
        // Shaken, blue-1 wheels at half speed: 45 degrees of its 4.5" front
        // cost 3.53" of the 2" it has (out of command); rallied, still too
        // much for a wheel of 45, but not of 20.
        let mut s = table(vec![red_line("red-1", 2000, 4000)]);
        s.units[0].rules.shaken = true;
        let (_, acked) = sheets(&s, &["blue-1: wheel left 45"]);
        assert_eq!(acked.rejections.len(), 1, "{:?}", acked.rejections);
        let (_, acked) = sheets(&s, &["blue-1: wheel left 20"]);
        assert!(acked.is_clean(), "{:?}", acked.rejections);
        assert_eq!(acked.warnings.len(), 1);
        assert!(
            acked.warnings[0]
                .problem
                .ends_with("a rally test at the start of the turn may change that"),
            "{}",
            acked.warnings[0]
        );
    }

    #[test]
    fn a_shot_that_stood_on_a_refused_unlimbering_is_refused_in_its_turn() {
        // The battery cannot unlimber where a friend stands beside it; its
        // guns then stay limbered, and limbered guns do not shoot.
        let s = table(vec![
            unit(
                "battery",
                "blue",
                "field-guns",
                "C",
                4,
                "limbered",
                (3000, 2000),
                0,
            ),
            unit(
                "blue-2",
                "blue",
                "line-infantry",
                "C",
                12,
                "line",
                (3300, 2000),
                0,
            ),
            red_line("red-1", 3000, 2800),
        ]);
        let (checked, acked) = sheets(&s, &["battery: unlimber", "battery: shoot red-1"]);
        assert!(checked.is_clean());
        let refused = texts(&acked.rejections);
        assert_eq!(refused.len(), 2, "{refused:?}");
        assert!(
            refused[0].starts_with("line 1: battery: cannot change formation or facing: the new formation would run into blue-2"),
            "{refused:?}"
        );
        assert!(
            refused[1].contains("limbered guns may not shoot"),
            "{refused:?}"
        );
    }

    #[test]
    fn the_passive_sides_standing_orders_are_not_foreseen() {
        let s = table(vec![unit(
            "voltigeurs",
            "red",
            "light-infantry",
            "C",
            8,
            "skirmish",
            (4000, 2500),
            180,
        )]);
        let lines = [(1, "voltigeurs: evade")];
        assert_eq!(
            SoundTheCharge.acknowledge(&s, "red", &lines),
            SoundTheCharge.check_orders(&s, "red", &lines)
        );
    }
}
