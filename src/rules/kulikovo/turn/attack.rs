//! The shock segment of an activation: after every move and fire, each
//! defending hex is attacked once by every unit ordered against a unit in
//! it, together (ruling KUL-18), in the order of the first line against it.
//! Each combat is resolved by `combat::resolve`, its results applied to
//! every unit on each side, and a "Continue Attack" carried on by the first
//! attacker as its order says (ruling KUL-23).

use std::collections::BTreeMap;

use super::super::events::{Kind, event};
use super::super::field::{Field, aspect};
use super::super::ground::{Level, SideFeature};
use super::super::mechanics::allowed::may_attack;
use super::super::mechanics::combat::{
    self, Aspect, Attacker, CombatOutcome, Defender, Engagement,
};
use super::super::orders::{KulOrder, Then, check::may_counter_charge};
use super::super::params::CounterCharge;
use super::super::state::{Condition, Weapon};
use super::act::{Segment, retire};
use super::retreat::fall_back;
use super::{Log, disorder, eliminate};
use crate::audit::dice::Dice;
use crate::geometry::Hex;
use crate::rules::board::Location;
use crate::rules::look::Strike;
use crate::rules::names::UnitId;
use crate::rules::told::About;
use crate::rules::umpire::Trace;

/// One attacker's order.
struct Order {
    unit: usize,
    /// The unit it names, which stood in the defending hex when the segment
    /// began.
    target: usize,
    charge: bool,
    then: Then<UnitId>,
}

/// Why an attack lapses whose target an earlier combat of the segment
/// drove off or destroyed (ruling KUL-18).
pub const TARGET_GONE: &str =
    "ruling KUL-18: an attack whose target an earlier combat has driven from its hex lapses";

/// Runs the shock segment.
pub fn segment(
    field: &mut Field,
    acts: &Segment,
    orders: &[KulOrder],
    counter: &[String],
    dice: &mut dyn Dice,
    log: &mut Log,
) {
    // The defending hexes in the order of their first line, with their
    // attackers.
    let mut hexes: Vec<(Hex, Vec<Order>)> = Vec::new();
    let mut place: BTreeMap<Hex, usize> = BTreeMap::new();
    for o in orders {
        let (unit, target, charge, then) = match o {
            KulOrder::Shock { unit, target, then } => (unit, target, false, then),
            KulOrder::Charge { unit, target, then } => (unit, target, true, then),
            _ => continue,
        };
        let (Some(i), Some(j)) = (field.index(unit.as_str()), field.index(target.as_str())) else {
            continue;
        };
        if !field.in_play(i) {
            continue;
        }
        if !field.in_play(j) {
            log.events.push(
                event(
                    Kind::OrderLapsed,
                    &[unit.as_str()],
                    format!(
                        "{} does not attack: {} is no longer in play.",
                        field.unit(i).name,
                        field.unit(j).name
                    ),
                )
                .also_naming(&[target.as_str()]),
            );
            continue;
        }
        let at = field.hex(j);
        let order = Order {
            unit: i,
            target: j,
            charge,
            then: then.clone(),
        };
        match place.get(&at) {
            Some(&k) => hexes[k].1.push(order),
            None => {
                place.insert(at, hexes.len());
                hexes.push((at, vec![order]));
            }
        }
    }
    for (hex, list) in hexes {
        combat_at(field, acts, hex, list, counter, dice, log);
    }
}

/// The units a hex defends with, of the side of its first unit.
fn defenders(field: &Field, hex: Hex, attacker_side: &str) -> Vec<usize> {
    field
        .at(hex)
        .iter()
        .copied()
        .filter(|&j| field.unit(j).side != attacker_side)
        .collect()
}

/// The defending hex as one defender (ruling KUL-18): the column, row and
/// Shock DRM most favourable to the defenders.
fn defender_profile(field: &Field, units: &[usize], attackers: &[Weapon]) -> Defender {
    let condition = units
        .iter()
        .map(|&j| field.unit(j).rules.condition())
        .min()
        .unwrap_or(Condition::Normal);
    let weapon = units
        .iter()
        .map(|&j| field.unit(j).rules.weapon)
        .min_by_key(|&w| (combat::matrix_best(attackers, w).map_or(0, |(_, v)| v), w))
        .unwrap_or(Weapon::R);
    let shock_drm = units
        .iter()
        .map(|&j| field.unit(j).rules.shock_drm)
        .max()
        .unwrap_or(0);
    let names: Vec<String> = units.iter().map(|&j| field.unit(j).id.clone()).collect();
    Defender {
        name: names.join(" and "),
        weapon,
        condition,
        shock_drm,
        units: units.len() as u32,
    }
}

/// One combat against the units in `hex`.
fn combat_at(
    field: &mut Field,
    acts: &Segment,
    hex: Hex,
    orders: Vec<Order>,
    counter: &[String],
    dice: &mut dyn Dice,
    log: &mut Log,
) {
    // An earlier combat of the segment may have driven a target from the
    // hex or destroyed it: its attacker is told, not left without a word.
    let (orders, gone): (Vec<Order>, Vec<Order>) = orders
        .into_iter()
        .partition(|o| field.in_play(o.target) && field.hex(o.target) == hex);
    for o in gone {
        let (name, t) = (field.unit(o.unit).name.clone(), field.unit(o.target));
        let why = if field.in_play(o.target) {
            format!(
                "{} is no longer in {}, it stands in {}",
                t.name,
                hex.label(),
                field.hex(o.target).label()
            )
        } else {
            format!("{} is no longer in play", t.name)
        };
        log.events.push(
            event(
                Kind::OrderLapsed,
                &[&field.unit(o.unit).id.clone()],
                format!("{name} does not attack {}: {why} ({TARGET_GONE}).", t.name),
            )
            .also_naming(&[&t.id]),
        );
    }
    let Some(first) = orders.first() else {
        return;
    };
    let side = field.unit(first.unit).side.clone();
    let def = defenders(field, hex, &side);
    if def.is_empty() {
        return;
    }
    // Each attacker checked again where it now stands.
    let mut attackers: Vec<(usize, Attacker, Then<UnitId>)> = Vec::new();
    for o in orders {
        let i = o.unit;
        let name = field.unit(i).name.clone();
        let began = acts.began_in_zoc.get(i).copied().unwrap_or(false);
        match may_attack(field, i, def[0], o.charge, began) {
            Ok(aspect) => {
                let a = attacker(field, acts, i, hex, o.charge, aspect);
                attackers.push((i, a, o.then));
            }
            Err(r) => log.events.push(
                event(
                    Kind::OrderLapsed,
                    &[&field.unit(i).id.clone()],
                    format!(
                        "{name} does not attack {}: {}{}.",
                        hex.label(),
                        r.problem,
                        r.clause.map(|c| format!(" ({c})")).unwrap_or_default()
                    ),
                )
                .also_naming(&r.naming),
            ),
        }
    }
    if attackers.is_empty() {
        return;
    }
    let lead = attackers[0].0;
    let then = attackers[0].2.clone();
    let units: Vec<usize> = attackers.iter().map(|(i, _, _)| *i).collect();
    let list: Vec<Attacker> = attackers.into_iter().map(|(_, a, _)| a).collect();
    let outcome = fight(field, &units, list, hex, &def, counter, 0, dice, log);
    if outcome.effect.continue_attack {
        continue_attack(field, lead, hex, then, counter, dice, log);
    }
}

/// An attacker as the combat reads it.
fn attacker(
    field: &Field,
    acts: &Segment,
    i: usize,
    target: Hex,
    charge: bool,
    aspect: Aspect,
) -> Attacker {
    let u = field.unit(i);
    let from = field.hex(i);
    let crossing = from
        .side_towards(target)
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
    Attacker {
        name: u.id.clone(),
        weapon: u.rules.weapon,
        charging: charge,
        moved: acts.done.get(&i).is_some_and(|d| d.moved),
        disordered: u.rules.disordered,
        aspect,
        uphill: crossing.level_change() && crossing.level == Level::Up,
        across,
    }
}

/// Resolves one combat and applies its results.
#[allow(clippy::too_many_arguments)]
fn fight(
    field: &mut Field,
    units: &[usize],
    attackers: Vec<Attacker>,
    hex: Hex,
    def: &[usize],
    counter: &[String],
    continued: u32,
    dice: &mut dyn Dice,
    log: &mut Log,
) -> CombatOutcome {
    let side = field.unit(units[0]).side.clone();
    let def_side = field.unit(def[0]).side.clone();
    let weapons: Vec<Weapon> = attackers.iter().map(|a| a.weapon).collect();
    let defender = defender_profile(field, def, &weapons);
    let attacker_leader = units
        .iter()
        .any(|&i| !field.leaders_at(field.hex(i), &side).is_empty());
    let russian = field
        .state
        .nations
        .get(&side)
        .is_some_and(|n| n == "russian");
    let russian_heavy_leader = russian
        && units.iter().any(|&i| {
            field.unit(i).rules.weapon == Weapon::H
                && !field.leaders_at(field.hex(i), &side).is_empty()
        });
    let counter_charge = def.iter().any(|&j| {
        may_counter_charge(field, j).is_ok()
            && (field.readings.counter_charge == CounterCharge::Always
                || counter.iter().any(|c| *c == field.unit(j).id))
    });
    let counter_shock = def
        .iter()
        .filter(|&&j| may_counter_charge(field, j).is_ok())
        .map(|&j| field.unit(j).rules.shock_drm)
        .max()
        .unwrap_or(0);
    let engagement = Engagement {
        attackers,
        defender: Defender {
            shock_drm: if counter_charge {
                defender.shock_drm.max(counter_shock)
            } else {
                defender.shock_drm
            },
            ..defender
        },
        attacker_leader,
        defender_leader: !field.leaders_at(hex, &def_side).is_empty(),
        russian_heavy_leader,
        continued,
        counter_charge,
    };
    // Every roll of a combat (reluctance, counter-charge, the combat) is
    // seen by both sides, who met in it.
    let ids: Vec<&str> = units
        .iter()
        .chain(def)
        .map(|&k| field.unit(k).id.as_str())
        .collect();
    let mut trace = Trace::default();
    let out = combat::resolve(
        &engagement,
        &field.state.params,
        &field.readings,
        &mut dice.concerning(About::units(&ids)),
        &mut trace,
    );
    tell(field, units, def, &engagement, &out, log);
    apply(field, units, hex, def, &out, log);
    out
}

/// The combat in a sentence or two.
fn tell(
    field: &Field,
    units: &[usize],
    def: &[usize],
    e: &Engagement,
    out: &CombatOutcome,
    log: &mut Log,
) {
    let names = |list: &[usize]| -> String {
        let n: Vec<String> = list
            .iter()
            .map(|&i| {
                format!(
                    "{} ({}, {})",
                    field.unit(i).name,
                    field.unit(i).rules.weapon,
                    field.hex(i).label()
                )
            })
            .collect();
        super::phrases::join(&n)
    };
    let mut text = format!(
        "{} {} {}",
        names(units),
        if out.charge {
            if units.len() == 1 {
                "charges"
            } else {
                "charge"
            }
        } else if units.len() == 1 {
            "attacks"
        } else {
            "attack"
        },
        names(def)
    );
    let aspects: Vec<&str> = {
        let mut a: Vec<Aspect> = e.attackers.iter().map(|a| a.aspect).collect();
        a.sort();
        a.dedup();
        a.iter().map(|a| a.word()).collect()
    };
    if aspects != ["front"] {
        text.push_str(&format!(" through its {}", aspects.join(" and ")));
    }
    text.push('.');
    for r in &out.reluctance {
        text.push_str(&format!(
            " {}: reluctance {} ({}), {}.",
            field
                .index(&r.unit)
                .map_or(r.unit.clone(), |i| field.unit(i).name.clone()),
            closed_roll(r.roll, r.modified),
            r.band,
            if r.charges {
                "it charges"
            } else {
                "it will not charge and attacks without the Charge DRM"
            }
        ));
    }
    if let Some(c) = &out.counter_charge {
        text.push_str(&format!(
            " Counter-charge {} ({}): {}.",
            closed_roll(c.roll, c.modified),
            c.band,
            if c.successful {
                "successful, the Charge DRM is negated"
            } else {
                "unsuccessful"
            }
        ));
    }
    text.push_str(&format!(
        " Rolled {}, {:+} = {}{}: {} ({}, {} {}).",
        out.roll,
        out.drm,
        out.modified,
        super::phrases::modifiers(&out.modifiers),
        out.result,
        out.table,
        out.column,
        out.band
    ));
    let mut ids: Vec<String> = units.iter().map(|&i| field.unit(i).id.clone()).collect();
    ids.extend(def.iter().map(|&j| field.unit(j).id.clone()));
    let kind = if out.charge {
        Kind::Charge
    } else {
        Kind::Shock
    };
    // The attackers strike from their hex into the defenders' (ruling
    // KUL-11): the map marks it, as it marks a charge that moves.
    let strike = match (units.first(), def.first()) {
        (Some(&a), Some(&d)) => Some(Strike {
            from: Location::in_hex(field.hex(a)),
            at: Location::in_hex(field.hex(d)),
            targets: def.iter().map(|&j| field.unit(j).id.clone()).collect(),
        }),
        _ => None,
    };
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let told = event(kind, &ids, text);
    log.events.push(match strike {
        Some(strike) => told.striking(strike),
        None => told,
    });
}

/// A roll on a closed table (the reluctance and counter-charge rolls): the
/// die, its modifier and the sum where there is one, and what a sum off
/// the 0-9 die reads as (ruling KUL-4), so that the player finds the die
/// of the dice list in the sentence.
fn closed_roll(roll: u32, modified: i32) -> String {
    let die = i32::try_from(roll).unwrap_or(i32::MAX);
    let mut text = if modified == die {
        roll.to_string()
    } else {
        format!("{roll} {:+} = {modified}", modified - die)
    };
    if !(0..=9).contains(&modified) {
        text.push_str(&format!(", read as {}", modified.clamp(0, 9)));
    }
    text
}

/// The results, on every unit of each side (ruling KUL-18).
fn apply(
    field: &mut Field,
    units: &[usize],
    hex: Hex,
    def: &[usize],
    out: &CombatOutcome,
    log: &mut Log,
) {
    let r = out.effect;
    let turn = field.state.turn;
    let attacker_hexes: Vec<Hex> = units.iter().map(|&i| field.hex(i)).collect();
    for &j in def {
        if !field.in_play(j) {
            continue;
        }
        let name = field.unit(j).name.clone();
        let id = field.unit(j).id.clone();
        if r.defender_eliminated {
            log.events.push(event(
                Kind::Eliminated,
                &[&id],
                format!("{name} is eliminated in {}.", hex.label()),
            ));
            eliminate(
                field,
                j,
                format!("eliminated in combat in {}", hex.label()),
                log,
            );
            continue;
        }
        if r.defender_disordered {
            again(field, j, turn, &attacker_hexes, log);
        }
        if !field.in_play(j) {
            continue;
        }
        if r.defender_retired {
            retire(field, j, &attacker_hexes, log);
        } else if r.defender_retreat {
            field.unit_mut(j).rules.upset_turn = turn;
            fall_back(field, j, &attacker_hexes, 1, "retreats", log);
        }
    }
    for &i in units {
        if !field.in_play(i) {
            continue;
        }
        if r.attacker_disordered {
            again(field, i, turn, &[hex], log);
        }
        if field.in_play(i) && r.attacker_retreat {
            field.unit_mut(i).rules.upset_turn = turn;
            fall_back(field, i, &[hex], 1, "retreats", log);
        }
    }
}

/// A Disordered result, with the campaign's `disordered_again` for a unit
/// already disordered (ruling KUL-16).
fn again(field: &mut Field, i: usize, turn: u32, from: &[Hex], log: &mut Log) {
    let (id, name) = (field.unit(i).id.clone(), field.unit(i).name.clone());
    let was = field.unit(i).rules.condition();
    match disorder(field, i, turn) {
        None if was == Condition::Normal => {
            log.events.push(event(
                Kind::Disordered,
                &[&id],
                format!("{name} is disordered."),
            ));
        }
        None => {}
        Some(super::super::params::Again::Retreat) => {
            log.events.push(event(
                Kind::Disordered,
                &[&id],
                format!(
                    "{name}, already {}, is disordered again and retreats (ruling KUL-16).",
                    was.word()
                ),
            ));
            fall_back(field, i, from, 1, "retreats", log);
        }
        Some(_) => {
            log.events.push(event(
                Kind::Disordered,
                &[&id],
                format!(
                    "{name}, already {}, is disordered again and retires (ruling KUL-16).",
                    was.word()
                ),
            ));
            retire(field, i, from, log);
        }
    }
}

/// "Continue Attack" (ruling KUL-23): the first attacker advances into the
/// hex the defenders left, if they left it, and attacks again, as a shock,
/// the enemy its order names, or with `then any` the enemy ahead of it.
fn continue_attack(
    field: &mut Field,
    lead: usize,
    hex: Hex,
    then: Then<UnitId>,
    counter: &[String],
    dice: &mut dyn Dice,
    log: &mut Log,
) {
    let mut then = then;
    let mut continued = 0;
    let mut last = hex;
    loop {
        if !field.in_play(lead) || matches!(then, Then::Stop) {
            if matches!(then, Then::Stop) && field.in_play(lead) {
                log.events.push(event(
                    Kind::ContinueNotOrdered,
                    &[&field.unit(lead).id.clone()],
                    format!(
                        "{} may continue the attack but was given no `then`.",
                        field.unit(lead).name
                    ),
                ));
            }
            return;
        }
        let side = field.unit(lead).side.clone();
        let (id, name) = (field.unit(lead).id.clone(), field.unit(lead).name.clone());
        let from = field.hex(lead);
        if field.at(last).is_empty()
            && from
                .side_towards(last)
                .is_some_and(|d| field.ground.crossing(from, d).uncrossable().is_none())
            && field.friends_at(last, &side) < field.state.params.stacking_limit as usize
        {
            field.put(lead, last);
            log.events.push(
                event(
                    Kind::Advance,
                    &[&id],
                    format!(
                        "{name} advances from {} into {}.",
                        from.label(),
                        last.label()
                    ),
                )
                .along(vec![Location::in_hex(from), Location::in_hex(last)]),
            );
        }
        let target = match &then {
            Then::Unit(u) => field.index(u.as_str()).filter(|&j| field.in_play(j)),
            Then::Any => next_target(field, lead),
            Then::Stop => None,
        };
        let Some(j) = target else {
            log.events.push(event(
                Kind::ContinueNoTarget,
                &[&id],
                format!("{name} finds no enemy to continue the attack against."),
            ));
            return;
        };
        let aspect = match may_attack(field, lead, j, false, false) {
            Ok(a) => a,
            Err(r) => {
                log.events.push(
                    event(
                        Kind::ContinueRefused,
                        &[&id],
                        format!(
                            "{name} does not continue the attack against {}: {}{}.",
                            field.unit(j).name,
                            r.problem,
                            r.clause.map(|c| format!(" ({c})")).unwrap_or_default()
                        ),
                    )
                    .also_naming(&[&field.unit(j).id])
                    .also_naming(&r.naming),
                );
                return;
            }
        };
        continued += 1;
        let at = field.hex(j);
        let def = defenders(field, at, &side);
        let segment = Segment {
            done: BTreeMap::new(),
            began_in_zoc: Vec::new(),
        };
        let a = attacker(field, &segment, lead, at, false, aspect);
        log.events.push(event(
            Kind::Continue,
            &[&id],
            format!("{name} continues the attack (continued attack {continued})."),
        ));
        let out = fight(
            field,
            &[lead],
            vec![a],
            at,
            &def,
            counter,
            continued,
            dice,
            log,
        );
        if !out.effect.continue_attack {
            return;
        }
        if matches!(then, Then::Unit(_)) {
            then = Then::Stop;
        }
        last = at;
    }
}

/// The enemy ahead of a unit to continue against: straight ahead first,
/// then ahead to the left and to the right.
fn next_target(field: &Field, i: usize) -> Option<usize> {
    let at = field.hex(i);
    let facing = field.facing(i);
    let side = &field.unit(i).side;
    for d in [facing, facing.turned(-1), facing.turned(1)] {
        if aspect(facing, d) != Aspect::Front {
            continue;
        }
        let Some(n) = at.neighbour(d) else {
            continue;
        };
        if let Some(&j) = field.at(n).iter().find(|&&j| field.unit(j).side != *side) {
            return Some(j);
        }
    }
    None
}
