//! The check step: every unit an order names looked up, then each order
//! held against the rules on the field as the earlier lines of the sheet
//! leave it. Moves, turns, fire and leaders' joins are carried out in the
//! order written; attacks come after them all (the shock segment), so they
//! are checked against where every unit ends up.

use std::collections::BTreeMap;

use super::parse::{Ref, parse};
use super::{KulOrder, Step, Then, Written};
use crate::rules::board::Location;
use crate::rules::kulikovo::field::Field;
use crate::rules::kulikovo::mechanics::allowed::{FIRE_OR_ATTACK, FOOT_FIRE, may_attack, may_fire};
use crate::rules::kulikovo::mechanics::moves::{Refusal, Walker};
use crate::rules::kulikovo::params::{CounterCharge, FootFire};
use crate::rules::kulikovo::state::State;
use crate::rules::names::{self, UnitId};
use crate::rules::orders::{OrderSheet, ParseError, Rejection};

pub const NOT_YOUR_ACTIVATION: &str =
    "ruling KUL-1: in the other side's activation a side gives counter-charge orders only";
pub const COUNTER_IN_OWN: &str =
    "ruling KUL-19: a counter-charge is ordered for the other side's activation";
const ONE_MOVE: &str = "ruling KUL-5: one move a unit an activation";
const ONE_FIRE: &str = "ruling KUL-20: a unit fires at one enemy unit, once an activation";
const ONE_ATTACK: &str = "ruling KUL-18: a unit makes one attack an activation";
const ONE_JOIN: &str = "ruling KUL-12: in his side's activation a leader may join one unit";

/// What a sheet has given a unit so far, by line.
#[derive(Debug, Default, Clone)]
pub struct Given {
    pub hold: Option<usize>,
    pub moved: Option<usize>,
    pub fire: Option<usize>,
    pub attack: Option<usize>,
    pub counter: Option<usize>,
    pub any: Option<usize>,
}

/// A unit's activation so far: what it spent and did.
#[derive(Debug, Default, Clone, Copy)]
pub struct Activity {
    pub mp_used: u32,
    pub moved: bool,
    pub fired: bool,
    pub attacked: bool,
}

/// Units looked up the way every ruleset does (`rules::names`), by id first
/// through an index, so that a long sheet costs a lookup per name.
pub struct Lookup<'a> {
    state: &'a State,
    ids: BTreeMap<String, usize>,
}

impl<'a> Lookup<'a> {
    pub fn new(state: &'a State) -> Lookup<'a> {
        let ids = state
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| (u.id.to_lowercase(), i))
            .collect();
        Lookup { state, ids }
    }

    /// A unit in play, of `side` when `own`, of another side otherwise.
    pub fn unit(&self, side: &str, own: bool, r: &Ref) -> Result<UnitId, String> {
        let fits = |i: usize| {
            let u = &self.state.units[i];
            u.eliminated.is_none() && ((u.side == side) == own)
        };
        if let Some(&i) = self.ids.get(&r.0.to_lowercase())
            && fits(i)
        {
            return Ok(UnitId::of(&self.state.units[i].id));
        }
        let pool = self
            .state
            .units
            .iter()
            .filter(|u| u.eliminated.is_none() && ((u.side == side) == own));
        match names::find(pool, &r.0) {
            Ok(u) => Ok(UnitId::of(&u.id)),
            Err(e) => Err(format!(
                "{} ({})",
                e,
                if own {
                    "one of your units in play"
                } else {
                    "an enemy unit in play"
                }
            )),
        }
    }

    /// A leader of `side` still in play.
    pub fn leader(&self, side: &str, r: &Ref) -> Result<UnitId, String> {
        let pool = self
            .state
            .generals
            .iter()
            .filter(|g| g.side == side && g.lost.is_none());
        names::find(pool, &r.0)
            .map(|g| UnitId::of(&g.id))
            .map_err(|e| format!("{e} (one of your leaders)"))
    }
}

fn reject(line: usize, unit: &str, r: Refusal) -> Rejection {
    Rejection {
        line,
        unit: Some(unit.to_string()),
        problem: r.problem,
        clause: r.clause,
    }
}

/// Every unit the order names, looked up.
fn resolve_names(look: &Lookup, side: &str, order: &Written) -> Result<KulOrder, String> {
    let own = |r: &Ref| look.unit(side, true, r);
    let enemy = |r: &Ref| look.unit(side, false, r);
    let then = |t: &Then<Ref>| -> Result<Then<UnitId>, String> {
        Ok(match t {
            Then::Stop => Then::Stop,
            Then::Any => Then::Any,
            Then::Unit(r) => Then::Unit(enemy(r)?),
        })
    };
    Ok(match order {
        KulOrder::Move { unit, steps } => KulOrder::Move {
            unit: own(unit)?,
            steps: steps.clone(),
        },
        KulOrder::Fire { unit, target } => KulOrder::Fire {
            unit: own(unit)?,
            target: enemy(target)?,
        },
        KulOrder::Shock {
            unit,
            target,
            then: t,
        } => KulOrder::Shock {
            unit: own(unit)?,
            target: enemy(target)?,
            then: then(t)?,
        },
        KulOrder::Charge {
            unit,
            target,
            then: t,
        } => KulOrder::Charge {
            unit: own(unit)?,
            target: enemy(target)?,
            then: then(t)?,
        },
        KulOrder::CounterCharge { unit } => KulOrder::CounterCharge { unit: own(unit)? },
        KulOrder::Hold { unit } => KulOrder::Hold { unit: own(unit)? },
        KulOrder::Join { leader, unit } => KulOrder::Join {
            leader: look.leader(side, leader)?,
            unit: own(unit)?,
        },
        KulOrder::Pass => KulOrder::Pass,
    })
}

/// Refuses a line that contradicts an earlier one for the same unit, with
/// the ruling it breaks where there is one (`hold` and `counter-charge`
/// standing alone are the order language's, not the game's).
fn admit(
    given: &mut BTreeMap<String, Given>,
    line: usize,
    order: &KulOrder,
    foot_fire: FootFire,
    fires_on_foot: bool,
) -> Result<(), Refusal> {
    let Some(unit) = order.unit() else {
        return Ok(());
    };
    let g = given.entry(unit.as_str().to_string()).or_default();
    let earlier = |l: Option<usize>, why: &str, clause: Option<&str>| -> Result<(), Refusal> {
        match l {
            Some(l) => Err(Refusal {
                problem: format!("it is also given an order on line {l}; {why}"),
                clause: clause.map(str::to_string),
                naming: Vec::new(),
            }),
            None => Ok(()),
        }
    };
    match order {
        KulOrder::Hold { .. } => earlier(g.any, "`hold` must be its only order", None)?,
        _ => earlier(g.hold, "it holds, so it can be given nothing else", None)?,
    }
    match order {
        KulOrder::Move { .. } => {
            earlier(
                g.moved,
                "one move a unit: write the whole path, turns and all, on one line",
                Some(ONE_MOVE),
            )?;
            if fires_on_foot && foot_fire == FootFire::MoveOrFire {
                earlier(g.fire, "bowmen and crossbows move or fire", Some(FOOT_FIRE))?;
            }
            g.moved = Some(line);
        }
        KulOrder::Fire { .. } => {
            earlier(g.fire, "a unit fires once an activation", Some(ONE_FIRE))?;
            earlier(
                g.attack,
                "a unit fires or attacks, not both",
                Some(FIRE_OR_ATTACK),
            )?;
            if fires_on_foot && foot_fire == FootFire::MoveOrFire {
                earlier(
                    g.moved,
                    "bowmen and crossbows move or fire",
                    Some(FOOT_FIRE),
                )?;
            }
            g.fire = Some(line);
        }
        KulOrder::Shock { .. } | KulOrder::Charge { .. } => {
            earlier(
                g.attack,
                "a unit attacks once an activation",
                Some(ONE_ATTACK),
            )?;
            earlier(
                g.fire,
                "a unit fires or attacks, not both",
                Some(FIRE_OR_ATTACK),
            )?;
            g.attack = Some(line);
        }
        KulOrder::CounterCharge { .. } => {
            earlier(g.counter, "one counter-charge order a unit", None)?;
            g.counter = Some(line);
        }
        KulOrder::Join { .. } => {
            earlier(
                g.moved,
                "a leader joins one unit an activation",
                Some(ONE_JOIN),
            )?;
            g.moved = Some(line);
        }
        KulOrder::Hold { .. } | KulOrder::Pass => {}
    }
    g.any.get_or_insert(line);
    Ok(())
}

/// Whether a unit may try the Counter-Charge Die Roll: one that may charge
/// (H, M, R), neither disordered nor retired (ruling KUL-19).
pub fn may_counter_charge(field: &Field, i: usize) -> Result<(), Refusal> {
    let u = field.unit(i);
    if !u.rules.weapon.may_charge() {
        return Err(Refusal::new(
            format!(
                "{} may not charge, so may not counter-charge",
                u.rules.weapon.words()
            ),
            "ruling KUL-19: only a unit that may charge counter-charges",
        ));
    }
    if u.rules.retired || u.rules.disordered {
        return Err(Refusal::new(
            format!("it is {}", u.rules.condition().word()),
            "ruling KUL-19: a disordered or retired unit does not counter-charge",
        ));
    }
    Ok(())
}

/// Checks one side's lines.
pub fn check(state: &State, side: &str, lines: &[(usize, &str)]) -> OrderSheet<KulOrder> {
    let mut sheet = OrderSheet::default();
    let look = Lookup::new(state);
    let mut field = Field::new(state.clone());
    let began_in_zoc: Vec<bool> = (0..field.state.units.len())
        .map(|i| field.in_play(i) && field.enemy_zoc(field.hex(i), &field.unit(i).side))
        .collect();
    let mut given: BTreeMap<String, Given> = BTreeMap::new();
    let mut activity: BTreeMap<usize, Activity> = BTreeMap::new();
    let mut results: Vec<(usize, Result<KulOrder, Rejection>)> = Vec::new();
    // Each attack with the place of its line among the results.
    let mut attacks: Vec<(usize, usize, KulOrder)> = Vec::new();
    for &(line, raw) in lines {
        let written = match parse(raw) {
            Ok(o) => o,
            Err(e) => {
                sheet.parse_errors.push(ParseError {
                    line,
                    problem: e.to_string(),
                });
                continue;
            }
        };
        let order = match resolve_names(&look, side, &written) {
            Ok(o) => o,
            Err(problem) => {
                results.push((line, Err(unknown_name(line, &written, problem))));
                continue;
            }
        };
        if matches!(order, KulOrder::Pass) {
            results.push((line, pass_alone(line, order, lines.len())));
            continue;
        }
        let unit_id = order
            .unit()
            .map_or(String::new(), |u| u.as_str().to_string());
        let admitted = in_activation(state, side, &order).and_then(|()| {
            let on_foot = fires_on_foot(&field, &unit_id);
            admit(&mut given, line, &order, field.readings.foot_fire, on_foot)
        });
        if let Err(r) = admitted {
            results.push((line, Err(reject(line, &unit_id, r))));
            continue;
        }
        if order.is_attack() {
            attacks.push((line, results.len(), order));
            results.push((line, Err(reject(line, &unit_id, Refusal::plain("pending")))));
            continue;
        }
        let outcome = carry_out(&mut field, &mut activity, &order);
        results.push((
            line,
            outcome
                .map(|()| order)
                .map_err(|r| reject(line, &unit_id, r)),
        ));
    }
    // The shock segment, on the field as the moves leave it.
    for (line, at, order) in attacks {
        let Some((unit, r)) = check_attack(&field, &activity, &began_in_zoc, &order) else {
            continue;
        };
        if let Some(slot) = results.get_mut(at) {
            slot.1 = r
                .map(|()| order.clone())
                .map_err(|r| reject(line, &unit, r));
        }
    }
    for (_, r) in results {
        match r {
            Ok(o) => sheet.accepted.push(o),
            Err(r) => sheet.rejections.push(r),
        }
    }
    sheet
}

/// A line naming a unit or leader that is not to be found, given under the
/// name as written.
fn unknown_name(line: usize, written: &Written, problem: String) -> Rejection {
    Rejection {
        line,
        unit: Some(written.unit().map_or(String::new(), |r| r.0.clone())),
        problem,
        clause: None,
    }
}

/// `pass` is no orders at all, so it stands alone on a sheet.
fn pass_alone(line: usize, order: KulOrder, count: usize) -> Result<KulOrder, Rejection> {
    if count > 1 {
        Err(Rejection {
            line,
            unit: None,
            problem: "`pass` means no orders at all: it stands alone".to_string(),
            clause: None,
        })
    } else {
        Ok(order)
    }
}

/// Ruling KUL-1: out of its own activation a side orders counter-charges
/// (and holds) only; ruling KUL-19: a counter-charge is for the other
/// side's activation.
fn in_activation(state: &State, side: &str, order: &KulOrder) -> Result<(), Refusal> {
    let active = state.active_side == side;
    let counter = matches!(order, KulOrder::CounterCharge { .. });
    if !active && !counter && !matches!(order, KulOrder::Hold { .. }) {
        return Err(Refusal::new(
            format!(
                "it is {}'s activation; {side} may only order units to counter-charge",
                state.active_side
            ),
            NOT_YOUR_ACTIVATION,
        ));
    }
    if active && counter {
        return Err(Refusal::new(
            format!(
                "it is {side}'s own activation, in which a unit charges; it counter-charges in the other side's"
            ),
            COUNTER_IN_OWN,
        ));
    }
    Ok(())
}

/// Whether the unit is bowmen or crossbows, who may move or fire but not
/// both where the campaign reads it so.
fn fires_on_foot(field: &Field, unit_id: &str) -> bool {
    field.index(unit_id).is_some_and(|i| {
        matches!(
            field.unit(i).rules.weapon,
            crate::rules::kulikovo::state::Weapon::B | crate::rules::kulikovo::state::Weapon::C
        )
    })
}

/// An attack checked in the shock segment: a unit that fired this
/// activation does not attack too; else the attack is held against
/// `may_attack`. The attacker's id with the result; `None` where a unit is
/// no longer to be found.
fn check_attack(
    field: &Field,
    activity: &BTreeMap<usize, Activity>,
    began_in_zoc: &[bool],
    order: &KulOrder,
) -> Option<(String, Result<(), Refusal>)> {
    let (unit, target, charge) = match order {
        KulOrder::Shock { unit, target, .. } => (unit, target, false),
        KulOrder::Charge { unit, target, .. } => (unit, target, true),
        _ => return None,
    };
    let (Some(i), Some(j)) = (field.index(unit.as_str()), field.index(target.as_str())) else {
        return None;
    };
    let fired = activity.get(&i).is_some_and(|a| a.fired);
    let r = if fired {
        Err(Refusal::new("it fires this activation", FIRE_OR_ATTACK))
    } else {
        may_attack(field, i, j, charge, began_in_zoc[i]).map(|_| ())
    };
    Some((unit.as_str().to_string(), r))
}

/// Carries out an order of the movement and fire segment on the check's
/// field (fire changes nothing there: its result is the dice's).
fn carry_out(
    field: &mut Field,
    activity: &mut BTreeMap<usize, Activity>,
    order: &KulOrder,
) -> Result<(), Refusal> {
    match order {
        KulOrder::Move { unit, steps } => {
            let Some(i) = field.index(unit.as_str()) else {
                return Err(Refusal::plain("no such unit"));
            };
            let act = activity.entry(i).or_default();
            let walk = walk(field, i, act.mp_used, steps)?;
            act.mp_used = walk.mp_used;
            act.moved |= walk.moved() || walk.facing != field.facing(i);
            let (to, facing) = (walk.at, walk.facing);
            field.put(i, to);
            field.unit_mut(i).facing = u32::from(facing.number());
            Ok(())
        }
        KulOrder::Fire { unit, target } => {
            let (Some(i), Some(j)) = (field.index(unit.as_str()), field.index(target.as_str()))
            else {
                return Err(Refusal::plain("no such unit"));
            };
            let act = activity.entry(i).or_default();
            let fire = may_fire(field, i, j, act.mp_used, act.mp_used > 0)?;
            act.mp_used += fire.mp;
            act.fired = true;
            Ok(())
        }
        KulOrder::Join { leader, unit } => join(field, leader.as_str(), unit.as_str()),
        KulOrder::CounterCharge { unit } => {
            let Some(i) = field.index(unit.as_str()) else {
                return Err(Refusal::plain("no such unit"));
            };
            may_counter_charge(field, i)?;
            if field.readings.counter_charge == CounterCharge::Always {
                return Err(Refusal::new(
                    "every unit that may counter-charge tries it in this campaign; no order is needed",
                    "ruling KUL-19: campaign option automatic-counter-charge",
                ));
            }
            Ok(())
        }
        KulOrder::Hold { .. }
        | KulOrder::Pass
        | KulOrder::Shock { .. }
        | KulOrder::Charge { .. } => Ok(()),
    }
}

/// Walks a path of steps from where the unit stands, every step allowed,
/// ending where the stacking limit lets it.
pub fn walk(field: &Field, i: usize, mp_used: u32, steps: &[Step]) -> Result<Walker, Refusal> {
    let mut w = Walker::new(field, i, mp_used);
    for &s in steps {
        w.step(field, s)?;
    }
    w.check_end(field)?;
    Ok(w)
}

/// A leader joins a unit of his side within his range (ruling KUL-12).
pub fn join(field: &mut Field, leader: &str, unit: &str) -> Result<(), Refusal> {
    let Some(i) = field.index(unit) else {
        return Err(Refusal::plain("no such unit"));
    };
    let to = field.hex(i);
    let range = field.state.params.leader_range;
    let Some(g) = field.state.generals.iter_mut().find(|g| g.id == leader) else {
        return Err(Refusal::plain("no such leader"));
    };
    let from = g.location.hex().unwrap_or(to);
    if from.distance(to) > range {
        return Err(Refusal::new(
            format!(
                "{} is {} hexes from {}; a leader joins a unit within {range}",
                to.label(),
                from.distance(to),
                from.label()
            ),
            "ruling KUL-12: campaign parameter leader_range",
        ));
    }
    g.attached_to = Some(unit.to_string());
    g.location = Location::in_hex(to);
    field.index_leaders();
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::rules::kulikovo::Kulikovo;
    use crate::rules::ruleset::check_typed;

    /// The complete example of docs/ORDERS-kulikovo.md checks as the page
    /// says on the demo campaign's first turn.
    #[test]
    fn the_example_of_the_order_reference_checks_as_it_says() {
        let page = include_str!("../../../../docs/ORDERS-kulikovo.md");
        let start = page
            .find("    passphrase: mamai-khan\n")
            .expect("the example");
        let block: String = page[start..]
            .lines()
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .map(|l| format!("{}\n", l.trim()))
            .collect();
        let state = crate::rules::testing::demo_state(&Kulikovo);
        let sheet = check_typed(&Kulikovo, &state, "horde", &block);
        assert!(sheet.parse_errors.is_empty(), "{:?}", sheet.parse_errors);
        let refused: Vec<String> = sheet.rejections.iter().map(ToString::to_string).collect();
        assert_eq!(
            refused,
            [
                "line 5: c-genoese-1: r-advance-1 is 4 hexes away; missile fire reaches 1 or 2 (Range Die Roll Modifiers: \"Range in Hexes 1 2\")"
            ]
        );
        assert_eq!(sheet.accepted.len(), 8);
        assert!(
            sheet
                .canonical_text()
                .contains("l-horse-6: move 1611 1510 1509 face nw\n")
        );
        assert_eq!(sheet.salt, ["the Horde rides at dawn"]);
    }
}
