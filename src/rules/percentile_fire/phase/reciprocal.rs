//! The Reciprocal Fire Phases: "both Players may fire all, some or none of
//! their eligible units by alternately firing one unit at a time until all
//! desired, permissible fire has been executed" (11.0). Each side's fire
//! orders are taken in the order it wrote them, one of each side in turn,
//! the side the campaign names first (`fires_first`); when one side has
//! fired all it ordered, the other fires the rest. Each attack is checked
//! again on the table as it then stands: a firer destroyed before its turn
//! does not fire, and a target gone is no target.

use std::collections::{BTreeMap, BTreeSet};

use super::fire::{make, morale_checks};
use super::{Phase, advance, non_phasing};
use crate::audit::dice::Dice;
use crate::rules::percentile_fire::events::Kind;
use crate::rules::percentile_fire::fire::factors::Occasion;
use crate::rules::percentile_fire::orders::{Action, Order, PfOrder};
use crate::rules::percentile_fire::params::FiresFirst;
use crate::rules::percentile_fire::state::{Arm, Counterbattery, Formation, Shot, State, Unit};
use crate::rules::percentile_fire::table::Table;
use crate::rules::percentile_fire::table::eligible::{self, Request};
use crate::rules::ruleset::Event;

/// One fire order of a side.
struct FireOrder {
    firer: String,
    target: String,
    shot: Option<Shot>,
}

fn fire_orders(orders: Option<&Vec<Order>>) -> Vec<FireOrder> {
    orders
        .into_iter()
        .flatten()
        .filter_map(|o| match o {
            PfOrder::Unit {
                unit,
                action: Action::Fire { target, shot },
            } => Some(FireOrder {
                firer: unit.as_str().to_string(),
                target: target.as_str().to_string(),
                shot: *shot,
            }),
            _ => None,
        })
        .collect()
}

/// The sides in the order they fire.
pub fn firing_order(state: &State) -> [String; 2] {
    let (phasing, other) = (state.active_side.clone(), non_phasing(state));
    match state.params.fires_first {
        FiresFirst::Phasing => [phasing, other],
        FiresFirst::NonPhasing => [other, phasing],
    }
}

/// A battalion's regimental artillery as the battery it fires as (11.24d).
fn regimental_battery(u: &Unit) -> Option<Unit> {
    if u.rules.regimental_guns == 0 {
        return None;
    }
    let mut b = u.clone();
    b.rules.arm = Arm::Artillery;
    b.rules.formation = Formation::Unlimbered;
    b.rules.weapon = u.rules.regimental_weapon.clone()?;
    b.rules.cannon = u.rules.regimental_guns;
    b.rules.cannon_lost = 0;
    b.rules.howitzers = 0;
    b.rules.ammunition = None;
    b.rules.class = None;
    b.rules.artillery_officer = false;
    b.strength = 1;
    Some(b)
}

/// Resolves a Reciprocal Fire Phase.
pub fn resolve(
    state: &State,
    orders: &BTreeMap<String, Vec<Order>>,
    dice: &mut dyn Dice,
) -> (State, Vec<Event>) {
    let phase = Phase::of(state);
    let mut next = state.clone();
    let mut table = Table::new(&next);
    let mut events = Vec::new();
    let sides = firing_order(state);
    let lists = [
        fire_orders(orders.get(&sides[0])),
        fire_orders(orders.get(&sides[1])),
    ];
    events.push(Event::of(
        Kind::FireOrders,
        &[],
        format!(
            "{}: {} fires first; {} fire orders from {}, {} from {}, one unit at a time side about.",
            phase.name(),
            sides[0],
            lists[0].len(),
            sides[0],
            lists[1].len(),
            sides[1]
        ),
    ));
    let mut reduced = Vec::new();
    let mut batteries: BTreeMap<String, u32> = BTreeMap::new();
    let mut fired: BTreeSet<String> = BTreeSet::new();
    let mut at_batteries: BTreeSet<String> = BTreeSet::new();
    let longest = lists[0].len().max(lists[1].len());
    for i in 0..longest {
        for list in &lists {
            let Some(o) = list.get(i) else { continue };
            let (Some(firer), Some(target)) =
                (table.unit(&next, &o.firer), table.unit(&next, &o.target))
            else {
                continue;
            };
            if firer.eliminated.is_some() {
                events.push(Event::of(
                    Kind::FireLapsed,
                    &[o.firer.as_str()],
                    format!("{} was destroyed before it could fire.", firer.name),
                ));
                continue;
            }
            let host = table.host(&next, target).id.clone();
            let req = Request {
                firer,
                target,
                occasion: Occasion::Reciprocal,
                phase,
                shot: o.shot,
                attack: firer.rules.fire_attacks + 1,
                batteries_at_target: batteries.get(&host).copied().unwrap_or(0),
                hierarchy: true,
            };
            let plan = match eligible::plan(&table, &next, &req) {
                Ok(p) => p,
                Err(f) => {
                    events.push(
                        Event::of(
                            Kind::FireLapsed,
                            &[o.firer.as_str(), o.target.as_str()],
                            format!(
                                "{} does not fire at {}: {} ({}).",
                                firer.name, target.name, f.problem, f.clause
                            ),
                        )
                        .also_naming(&f.naming),
                    );
                    continue;
                }
            };
            let is_battery = firer.rules.arm == Arm::Artillery;
            let target_battery = table
                .unit(&next, &plan.target)
                .is_some_and(|t| t.rules.arm == Arm::Artillery);
            let regimental = (phase == Phase::InfantryFire)
                .then(|| regimental_battery(firer))
                .flatten();
            let ev = make(
                &mut next,
                &mut table,
                dice,
                &plan,
                &o.firer,
                Occasion::Reciprocal,
                &mut reduced,
            );
            events.push(ev);
            fired.insert(o.firer.clone());
            if is_battery {
                *batteries.entry(plan.target.clone()).or_insert(0) += 1;
                if target_battery {
                    at_batteries.insert(o.firer.clone());
                }
            }
            // "Any regimental artillery attached executes fire attacks with
            // the infantry battalion" (11.24d).
            if let (Some(guns), Some(t)) = (regimental, next.unit(&plan.target)) {
                let req = Request {
                    firer: &guns,
                    target: t,
                    occasion: Occasion::Reciprocal,
                    phase: Phase::ArtilleryFire,
                    shot: None,
                    attack: 1,
                    batteries_at_target: 0,
                    hierarchy: false,
                };
                match eligible::plan(&table, &next, &req) {
                    Ok(mut p) => {
                        p.attack.label =
                            format!("{}'s regimental guns at {}", guns.id, plan.target);
                        let mut ev = make(
                            &mut next,
                            &mut table,
                            dice,
                            &p,
                            &o.firer,
                            Occasion::Reciprocal,
                            &mut reduced,
                        );
                        ev.text = format!(
                            "Its regimental artillery fires with it (11.24d): {}",
                            ev.text
                        );
                        events.push(ev);
                    }
                    Err(f) => events.push(
                        Event::of(
                            Kind::FireLapsed,
                            &[o.firer.as_str()],
                            format!(
                                "The regimental guns of {} do not fire: {} ({}).",
                                guns.name, f.problem, f.clause
                            ),
                        )
                        .also_naming(&f.naming),
                    ),
                }
            }
        }
    }
    events.extend(morale_checks(&next, &reduced));
    if phase == Phase::ArtilleryFire {
        events.extend(counterbattery(&mut next, &fired, &at_batteries));
    }
    if !reduced.is_empty() {
        events.push(mfp(&next));
    }
    advance(&mut next, &mut events);
    (next, events)
}

/// The MFP points each side has lost so far (11.73).
pub fn mfp(state: &State) -> Event {
    Event::of(
        Kind::Mfp,
        &[],
        format!(
            "MFP points lost so far (11.73): {}.",
            state
                .sides
                .iter()
                .map(|s| format!("{s} {}", state.game.mfp_lost.get(s).copied().unwrap_or(0)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )
}

/// The counterbattery markers at the end of the Reciprocal Artillery Fire
/// Phase after the one they were placed in: "Remain silent on the next
/// Reciprocal Artillery Fire Phase" removes an A (11.76c); a B that did
/// not "Fire upon enemy artillery during the next Reciprocal Artillery Fire
/// Phase" loses one ammunition round (11.77c). Either way the requirement
/// is met and the marker removed ("Counterbattery B marker do not change
/// over to a counterbattery A marker [...] but are removed").
fn counterbattery(
    state: &mut State,
    fired: &BTreeSet<String>,
    at_batteries: &BTreeSet<String>,
) -> Vec<Event> {
    let now = super::number(state);
    let mut out = Vec::new();
    for u in state.units.iter_mut().filter(|u| u.eliminated.is_none()) {
        let Some(marker) = u.rules.counterbattery else {
            continue;
        };
        if u.rules.counterbattery_since >= now || at_batteries.contains(&u.id) {
            continue;
        }
        let text = match marker {
            Counterbattery::A if !fired.contains(&u.id) => format!(
                "{} stayed silent through the Reciprocal Artillery Fire Phase: its Counterbattery A marker is removed (11.76c).",
                u.name
            ),
            Counterbattery::A => continue,
            Counterbattery::B => {
                let lost = u.rules.ammunition.as_mut().and_then(|a| {
                    [
                        Shot::Roundshot,
                        Shot::Shot,
                        Shot::Shell,
                        Shot::Shrapnel,
                        Shot::Rocket,
                    ]
                    .into_iter()
                    .find(|s| a.get(s).is_some_and(|n| *n > 0))
                    .inspect(|s| {
                        if let Some(n) = a.get_mut(s) {
                            *n -= 1;
                        }
                    })
                });
                format!(
                    "{} did not fire upon enemy artillery: {} and its Counterbattery B marker is removed (11.77c).",
                    u.name,
                    match lost {
                        Some(s) => format!("it loses one round of {s}"),
                        None => "it has no round to lose".to_string(),
                    }
                )
            }
        };
        u.rules.counterbattery = None;
        u.rules.counterbattery_since = 0;
        out.push(Event::of(Kind::Counterbattery, &[u.id.as_str()], text));
    }
    out
}
