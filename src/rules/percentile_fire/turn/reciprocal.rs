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
use crate::rules::percentile_fire::field::Table;
use crate::rules::percentile_fire::field::eligible::{self, Request};
use crate::rules::percentile_fire::mechanics::fire::factors::Occasion;
use crate::rules::percentile_fire::orders::{Action, Order, PfOrder};
use crate::rules::percentile_fire::params::FiresFirst;
use crate::rules::percentile_fire::state::{Arm, Counterbattery, Formation, Shot, State, Unit};
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

/// A Reciprocal Fire Phase under way: the state it makes and its table,
/// the dice, what it has told, the units fire reduced, and what the
/// batteries have fired at.
struct Fire<'a> {
    phase: Phase,
    next: State,
    table: Table,
    dice: &'a mut dyn Dice,
    events: Vec<Event>,
    reduced: Vec<String>,
    /// The batteries that have fired at each target (11.28).
    batteries: BTreeMap<String, u32>,
    /// The units that fired, and the batteries that fired at a battery:
    /// what the counterbattery markers ask of them (11.76c, 11.77c).
    fired: BTreeSet<String>,
    at_batteries: BTreeSet<String>,
}

/// Resolves a Reciprocal Fire Phase: the sides' fire orders one of each
/// in turn, then the morale checks, the counterbattery markers met and
/// the MFP lost.
pub fn resolve(
    state: &State,
    orders: &BTreeMap<String, Vec<Order>>,
    dice: &mut dyn Dice,
) -> (State, Vec<Event>) {
    let phase = Phase::of(state);
    let sides = firing_order(state);
    let lists = [
        fire_orders(orders.get(&sides[0])),
        fire_orders(orders.get(&sides[1])),
    ];
    let next = state.clone();
    let mut fire = Fire {
        phase,
        table: Table::new(&next),
        next,
        dice,
        events: vec![announced(phase, &sides, &lists)],
        reduced: Vec::new(),
        batteries: BTreeMap::new(),
        fired: BTreeSet::new(),
        at_batteries: BTreeSet::new(),
    };
    let longest = lists[0].len().max(lists[1].len());
    for i in 0..longest {
        for list in &lists {
            if let Some(o) = list.get(i) {
                fire.order(o);
            }
        }
    }
    let Fire {
        mut next,
        mut events,
        reduced,
        fired,
        at_batteries,
        ..
    } = fire;
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

/// The phase's opening: who fires first and how many orders each side
/// gave, "by alternately firing one unit at a time" (11.0).
fn announced(phase: Phase, sides: &[String; 2], lists: &[Vec<FireOrder>; 2]) -> Event {
    Event::of(
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
    )
}

impl Fire<'_> {
    /// One fire order, checked again on the table as it now stands: a
    /// firer destroyed before its turn does not fire; the batteries at
    /// each target are counted (11.28); a battalion's regimental guns fire
    /// with it (11.24d).
    fn order(&mut self, o: &FireOrder) {
        let phase = self.phase;
        let (Some(firer), Some(target)) = (
            self.table.unit(&self.next, &o.firer),
            self.table.unit(&self.next, &o.target),
        ) else {
            return;
        };
        if firer.eliminated.is_some() {
            self.events.push(Event::of(
                Kind::FireLapsed,
                &[o.firer.as_str()],
                format!("{} was destroyed before it could fire.", firer.name),
            ));
            return;
        }
        let host = self.table.host(&self.next, target).id.clone();
        let req = Request {
            firer,
            target,
            occasion: Occasion::Reciprocal,
            phase,
            shot: o.shot,
            attack: firer.rules.fire_attacks + 1,
            batteries_at_target: self.batteries.get(&host).copied().unwrap_or(0),
            hierarchy: true,
        };
        let plan = match eligible::plan(&self.table, &self.next, &req) {
            Ok(p) => p,
            Err(f) => {
                self.events.push(
                    Event::of(
                        Kind::FireLapsed,
                        &[o.firer.as_str(), o.target.as_str()],
                        format!(
                            "{} does not fire at {}: {} ({}).",
                            firer.name,
                            target.name,
                            f.problem,
                            f.cited()
                        ),
                    )
                    .also_naming(&f.naming),
                );
                return;
            }
        };
        let is_battery = firer.rules.arm == Arm::Artillery;
        let target_battery = self
            .table
            .unit(&self.next, &plan.target)
            .is_some_and(|t| t.rules.arm == Arm::Artillery);
        let regimental = (phase == Phase::InfantryFire)
            .then(|| regimental_battery(firer))
            .flatten();
        let ev = make(
            &mut self.next,
            &mut self.table,
            self.dice,
            &plan,
            &o.firer,
            Occasion::Reciprocal,
            &mut self.reduced,
        );
        self.events.push(ev);
        self.fired.insert(o.firer.clone());
        if is_battery {
            *self.batteries.entry(plan.target.clone()).or_insert(0) += 1;
            if target_battery {
                self.at_batteries.insert(o.firer.clone());
            }
        }
        if let Some(guns) = regimental {
            self.regimental(&guns, o, &plan.target);
        }
    }

    /// "Any regimental artillery attached executes fire attacks with the
    /// infantry battalion" (11.24d): the battalion's guns, as a battery,
    /// at its target if it is still there.
    fn regimental(&mut self, guns: &Unit, o: &FireOrder, target: &str) {
        let Some(t) = self.next.unit(target) else {
            return;
        };
        let req = Request {
            firer: guns,
            target: t,
            occasion: Occasion::Reciprocal,
            phase: Phase::ArtilleryFire,
            shot: None,
            attack: 1,
            batteries_at_target: 0,
            hierarchy: false,
        };
        match eligible::plan(&self.table, &self.next, &req) {
            Ok(mut p) => {
                p.attack.label = format!("{}'s regimental guns at {}", guns.id, target);
                let mut ev = make(
                    &mut self.next,
                    &mut self.table,
                    self.dice,
                    &p,
                    &o.firer,
                    Occasion::Reciprocal,
                    &mut self.reduced,
                );
                ev.text = format!(
                    "Its regimental artillery fires with it (11.24d): {}",
                    ev.text
                );
                self.events.push(ev);
            }
            Err(f) => self.events.push(
                Event::of(
                    Kind::FireLapsed,
                    &[o.firer.as_str()],
                    format!(
                        "The regimental guns of {} do not fire: {} ({}).",
                        guns.name,
                        f.problem,
                        f.cited()
                    ),
                )
                .also_naming(&f.naming),
            ),
        }
    }
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
