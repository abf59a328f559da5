//! The Movement Phase: the phasing side's moves (ruling PF-3), one order at
//! a time in the order given, and the non-phasing side's standing orders
//! for the fire those moves create: opportunity fire at a unit changing
//! facing or formation within the Minimum Range Fire Zone (11.81), passby
//! fire at a unit going by the flank or charging past (11.83). Shocks and
//! charges move into contact and are declared for the Shock Combat Phase.

use std::collections::BTreeMap;

use super::fire::{make, morale_checks};
use super::reciprocal::mfp;
use super::{Phase, advance, non_phasing};
use crate::audit::dice::Dice;
use crate::geometry::{Fan, Hundredths, Rect, nearest_point_of_segment, rect_distance};
use crate::rules::board::Location;
use crate::rules::percentile_fire::events::Kind;
use crate::rules::percentile_fire::fire::Forbidden;
use crate::rules::percentile_fire::fire::factors::Occasion;
use crate::rules::percentile_fire::fire::zone::ARTILLERY_MINIMUM_ZONE;
use crate::rules::percentile_fire::moves::{self, Moved};
use crate::rules::percentile_fire::orders::{Action, Order, PfOrder};
use crate::rules::percentile_fire::params::WeaponKind;
use crate::rules::percentile_fire::state::{
    self, Arm, Counterbattery, Formation, Shock, State, Unit,
};
use crate::rules::percentile_fire::table::Table;
use crate::rules::percentile_fire::table::eligible::{self, Request};
use crate::rules::percentile_fire::table::figures::FIRING_ANGLE;
use crate::rules::ruleset::Event;
use crate::rules::words::inches;

/// The non-phasing side's standing orders, by unit.
#[derive(Debug, Clone, Copy, Default)]
struct Standing {
    opportunity: bool,
    passby: bool,
}

/// Where a unit's Minimum Range Fire Zone ends (11.32-11.37).
pub fn minimum_zone(state: &State, u: &Unit) -> Option<Hundredths> {
    let w = state.params.weapons.get(&u.rules.weapon)?;
    match w.kind {
        WeaponKind::SmallArms => w.minimum,
        WeaponKind::Siege => None,
        _ => Some(ARTILLERY_MINIMUM_ZONE),
    }
}

/// Whether part of a footprint lies in a unit's Minimum Range Fire Zone:
/// within its frontal fire zone angle (all round for a square) and the
/// zone's range (ruling PF-10).
pub fn in_minimum_zone(table: &Table, state: &State, firer: &Unit, target: &Rect) -> bool {
    let (Some(rect), Some(end)) = (table.rect(state, firer), minimum_zone(state, firer)) else {
        return false;
    };
    if firer.rules.formation == Formation::Square || firer.rules.in_square.is_some() {
        return rect_distance(&rect, target) <= end;
    }
    Fan::ahead_of(&rect, FIRING_ANGLE)
        .reach_to(target)
        .is_some_and(|d| d <= end)
}

/// Whether a standing order for passby fire lets `firer` fire at a unit
/// moving from `start` to `end` (11.83): its path comes within the frontal
/// fire zone angle and the Minimum Range Fire Zone (a, b) and it ends past
/// the flank, wholly out of the frontal fire zone (c), a move straight
/// away staying in it; never at a unit shocking the firer itself (d).
fn passes_by(
    table: &Table,
    state: &State,
    firer: &Unit,
    start: &Rect,
    end: &Rect,
    shocking: Option<&str>,
) -> bool {
    let (Some(rect), Some(zone_end)) = (table.rect(state, firer), minimum_zone(state, firer))
    else {
        return false;
    };
    if shocking == Some(firer.id.as_str()) {
        return false;
    }
    let fan = Fan::ahead_of(&rect, FIRING_ANGLE);
    let came_within = fan.reach_to_move(start, end).is_some_and(|d| d <= zone_end);
    let cleared = fan.reach_to(end).is_none();
    came_within && cleared
}

/// Whether any unit of the non-phasing side could fire at a unit making
/// `action` from `start` to `end`, had it a standing order for it: the
/// acknowledgement's measure of what the enemy's fire may change (ruling
/// PF-39). Opportunity fire at a change of facing or formation within the
/// Minimum Range Fire Zone (11.81), passby fire at any other move (11.83).
fn exposed_to_fire(
    table: &Table,
    state: &State,
    action: &Action<crate::rules::names::UnitId>,
    start: &Rect,
    end: &Rect,
) -> bool {
    let other = non_phasing(state);
    let shocking = match action {
        Action::Charge(t) | Action::Shock(t) => Some(t.as_str()),
        _ => None,
    };
    state
        .units
        .iter()
        .filter(|f| f.side == other && f.eliminated.is_none())
        .filter(|f| {
            eligible::never_fires(f).is_ok()
                && eligible::fires_in(f, Phase::Movement, Occasion::Opportunity, &state.params)
                    .is_ok()
        })
        .any(|f| match action {
            Action::Face(_) | Action::Form(_) => in_minimum_zone(table, state, f, start),
            _ => passes_by(table, state, f, start, end, shocking),
        })
}

/// A unit placed at another footprint, for the table.
fn place(state: &mut State, id: &str, rect: &Rect, formation: Formation) {
    if let Some(u) = state.units.iter_mut().find(|u| u.id == id) {
        u.location = Location::Table {
            x: rect.front_centre.x,
            y: rect.front_centre.y,
        };
        u.facing = rect.facing;
        u.rules.formation = formation;
    }
}

/// Every opportunity or passby attack the standing orders give at a unit,
/// resolved in the order of the state's units.
#[allow(clippy::too_many_arguments)]
fn standing_fire(
    next: &mut State,
    table: &mut Table,
    dice: &mut dyn Dice,
    standing: &BTreeMap<String, Standing>,
    mover: &str,
    occasion: Occasion,
    fits: &dyn Fn(&Table, &State, &Unit, &Rect) -> bool,
    events: &mut Vec<Event>,
    reduced: &mut Vec<String>,
) {
    let ids: Vec<String> = next
        .units
        .iter()
        .filter(|u| {
            standing.get(&u.id).is_some_and(|s| match occasion {
                Occasion::Opportunity => s.opportunity,
                _ => s.passby,
            })
        })
        .map(|u| u.id.clone())
        .collect();
    for id in ids {
        let (Some(firer), Some(target)) = (next.unit(&id), next.unit(mover)) else {
            continue;
        };
        if firer.eliminated.is_some() || target.eliminated.is_some() {
            continue;
        }
        let Some(target_rect) = table.rect(next, target) else {
            continue;
        };
        if !fits(table, next, firer, &target_rect) {
            continue;
        }
        let req = Request {
            firer,
            target,
            occasion,
            phase: Phase::Movement,
            shot: None,
            attack: firer.rules.fire_attacks + 1,
            batteries_at_target: 0,
            hierarchy: false,
        };
        match eligible::plan(table, next, &req) {
            Ok(plan) => {
                let ev = make(next, table, dice, &plan, &id, occasion, reduced);
                events.push(ev);
            }
            Err(f) => events.push(
                Event::of(
                    Kind::FireLapsed,
                    &[id.as_str(), mover],
                    format!(
                        "{} may not give {} at {}: {} ({}).",
                        firer.name,
                        occasion.name(),
                        target.name,
                        f.problem,
                        f.clause
                    ),
                )
                .also_naming(&f.naming),
            ),
        }
    }
}

/// A move of the phasing side the phase did not make, and why: for the
/// acknowledgement (ruling PF-39).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotMoved {
    /// The order's place in the side's list.
    pub index: usize,
    pub unit: String,
    pub why: Forbidden,
    /// The units of its side the words name (the friend it would end on)
    /// that moved before it where an enemy unit could fire at them on
    /// their way, if it stood ready: that fire may have reduced or
    /// destroyed them first, and so cleared the way.
    pub movers: Vec<String>,
}

/// Resolves the Movement Phase.
pub fn resolve(
    state: &State,
    orders: &BTreeMap<String, Vec<Order>>,
    dice: &mut dyn Dice,
) -> (State, Vec<Event>) {
    let (next, events, _) = play(state, orders, dice);
    (next, events)
}

/// The moves of `side`'s `orders` the phase would not make, carried out as
/// [`resolve`] carries them out with no standing orders of the enemy: no
/// fire is given, so no die is thrown (the stream is a throwaway's).
pub fn not_moved(state: &State, side: &str, orders: &[Order]) -> Vec<NotMoved> {
    let mut dice = crate::audit::DiceStream::new(&crate::audit::Digest32::ZERO);
    let only = BTreeMap::from([(side.to_string(), orders.to_vec())]);
    play(state, &only, &mut dice).2
}

/// The phase, with the moves it did not make.
fn play(
    state: &State,
    orders: &BTreeMap<String, Vec<Order>>,
    dice: &mut dyn Dice,
) -> (State, Vec<Event>, Vec<NotMoved>) {
    let mut not_made = Vec::new();
    // The units of the phasing side that moved where the enemy may fire at
    // them on their way.
    let mut exposed: Vec<String> = Vec::new();
    let mut next = state.clone();
    let phasing = state.active_side.clone();
    for u in next.units.iter_mut().filter(|u| u.side == phasing) {
        u.rules.moved = state::Moved::Still;
    }
    let mut table = Table::new(&next);
    let mut events = Vec::new();
    let mut reduced = Vec::new();
    let mut standing: BTreeMap<String, Standing> = BTreeMap::new();
    for o in orders.get(&non_phasing(state)).into_iter().flatten() {
        if let PfOrder::Unit {
            unit,
            action:
                Action::Standing {
                    opportunity,
                    passby,
                },
        } = o
        {
            standing.insert(
                unit.as_str().to_string(),
                Standing {
                    opportunity: *opportunity,
                    passby: *passby,
                },
            );
        }
    }
    if !standing.is_empty() {
        // The archive lists no units for it; the units it names, all the
        // non-phasing side's, say whose it is.
        let ready: Vec<&String> = standing.keys().collect();
        let event = Event::of(
            Kind::StandingOrders,
            &[],
            format!(
                "{} stands ready: {}.",
                non_phasing(state),
                standing
                    .iter()
                    .map(|(id, s)| format!(
                        "{id} {}",
                        match (s.opportunity, s.passby) {
                            (true, true) => "opportunity and passby fire",
                            (true, false) => "opportunity fire",
                            _ => "passby fire",
                        }
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
        events.push(event.also_naming(&ready));
    }
    for (index, o) in orders.get(&phasing).into_iter().flatten().enumerate() {
        let PfOrder::Unit { unit, action } = o else {
            continue;
        };
        let id = unit.as_str();
        let Some(u) = next.unit(id) else { continue };
        if u.eliminated.is_some() || matches!(action, Action::Hold) {
            continue;
        }
        let moved: Moved = match moves::end_of(&next, &table, u, action) {
            Ok(m) => m,
            Err(f) => {
                not_made.push(NotMoved {
                    index,
                    unit: id.to_string(),
                    why: f.clone(),
                    movers: f
                        .naming
                        .iter()
                        .filter(|n| exposed.contains(n))
                        .cloned()
                        .collect(),
                });
                events.push(
                    Event::of(
                        Kind::MoveLapsed,
                        &[id],
                        format!("{} does not move: {} ({}).", u.name, f.problem, f.clause),
                    )
                    .also_naming(&f.naming),
                );
                continue;
            }
        };
        let Some(start) = table.rect(&next, u) else {
            continue;
        };
        let name = u.name.clone();
        if exposed_to_fire(&table, &next, action, &start, &moved.rect) {
            exposed.push(id.to_string());
        }
        match action {
            Action::Face(_) | Action::Form(_) => {
                // "Anytime a enemy formation changes Facing or Formation
                // within a the Minimum Range Fire Zone, the non- phasing
                // player may elect to Fire attack" (11.81), at the unit as
                // it attempts the change.
                standing_fire(
                    &mut next,
                    &mut table,
                    dice,
                    &standing,
                    id,
                    Occasion::Opportunity,
                    &|t, s, f, r| in_minimum_zone(t, s, f, r),
                    &mut events,
                    &mut reduced,
                );
            }
            _ => {
                // 11.83: passby fire at a unit whose path runs within the
                // frontal fire zone angle and the Minimum Range Fire Zone
                // and which completely clears the frontal fire zone; not at
                // a unit shocking the firer (d), never at a retreat (e).
                let shocking = match action {
                    Action::Charge(t) | Action::Shock(t) => Some(t.as_str().to_string()),
                    _ => None,
                };
                if matches!(action, Action::Charge(_))
                    && let Some(m) = next.units.iter_mut().find(|m| m.id == id)
                {
                    m.rules.charging = true;
                }
                let end = moved.rect;
                let passes = |t: &Table, s: &State, f: &Unit, _r: &Rect| -> bool {
                    passes_by(t, s, f, &start, &end, shocking.as_deref())
                };
                let firers: Vec<String> = standing
                    .iter()
                    .filter(|(_, s)| s.passby)
                    .map(|(f, _)| f.clone())
                    .filter(|f| {
                        next.unit(f).is_some_and(|fu| {
                            fu.eliminated.is_none() && passes(&table, &next, fu, &end)
                        })
                    })
                    .collect();
                for f in firers {
                    // Fired at where its path came nearest the firer
                    // (ruling PF-20).
                    let Some(fr) = next.unit(&f).and_then(|fu| table.rect(&next, fu)) else {
                        continue;
                    };
                    let at = nearest_point_of_segment(
                        fr.front_centre,
                        start.front_centre,
                        end.front_centre,
                    );
                    let there = Rect {
                        front_centre: at,
                        ..end
                    };
                    let formation = next.unit(id).map_or(moved.formation, |m| m.rules.formation);
                    place(&mut next, id, &there, formation);
                    table.update(&next, id);
                    let one: BTreeMap<String, Standing> = [(
                        f.clone(),
                        Standing {
                            opportunity: false,
                            passby: true,
                        },
                    )]
                    .into();
                    standing_fire(
                        &mut next,
                        &mut table,
                        dice,
                        &one,
                        id,
                        Occasion::Passby,
                        &|_, _, _, _| true,
                        &mut events,
                        &mut reduced,
                    );
                }
            }
        }
        // The move, if the unit still stands.
        if next.unit(id).is_none_or(|m| m.eliminated.is_some()) {
            continue;
        }
        place(&mut next, id, &moved.rect, moved.formation);
        table.update(&next, id);
        let mut text = match action {
            Action::Move(way, d) => format!("{name} moves {} {}\".", way.word(), inches(*d)),
            Action::Retire => format!(
                "{name} retires a full move, {}\", to the rear.",
                inches(moved.distance)
            ),
            Action::Face(f) => format!("{name} changes facing to {f}°."),
            Action::Form(f) => format!("{name} forms {f}."),
            Action::Charge(t) => format!(
                "{name} charges {t}, {}\" into contact.",
                inches(moved.distance)
            ),
            Action::Shock(t) => format!(
                "{name} advances {}\" into contact with {t} to shock it.",
                inches(moved.distance)
            ),
            _ => String::new(),
        };
        let mut units = vec![id];
        if let Some(m) = next.units.iter_mut().find(|m| m.id == id) {
            m.rules.moved = if moved.closing {
                state::Moved::ClosedRange
            } else {
                state::Moved::Moved
            };
            // The counterbattery markers a move meets (11.76b, d; 11.77d).
            if let Some(marker) = m.rules.counterbattery {
                let met = match action {
                    Action::Face(_) if marker == Counterbattery::A => {
                        Some("changed facing while remaining in position (11.76b)")
                    }
                    Action::Retire => {
                        Some("limbered and retired a full move to the rear (11.76d, 11.77d)")
                    }
                    _ => None,
                };
                if let Some(why) = met {
                    m.rules.counterbattery = None;
                    m.rules.counterbattery_since = 0;
                    text.push_str(&format!(
                        " It has {why}: its counterbattery marker is removed."
                    ));
                }
            }
        }
        if let Action::Charge(t) | Action::Shock(t) = action {
            units.push(t.as_str());
            next.game.shocks.push(Shock {
                attacker: id.to_string(),
                target: t.as_str().to_string(),
                charge: matches!(action, Action::Charge(_)),
                from: start,
                replaced: false,
            });
        }
        let kind = match action {
            Action::Charge(_) => Kind::Charge,
            Action::Shock(_) => Kind::Shock,
            _ => Kind::Move,
        };
        let start_at = Location::Table {
            x: start.front_centre.x,
            y: start.front_centre.y,
        };
        let end_at = Location::Table {
            x: moved.rect.front_centre.x,
            y: moved.rect.front_centre.y,
        };
        let mut ev = Event::of(kind, &units, text);
        if start_at != end_at {
            ev = ev.along(vec![start_at, end_at]);
        }
        events.push(ev);
    }
    // "Limbered artillery batteries or train units must retire one full
    // move to rear area or remain limbered in place" (11.76e, 11.77e): a
    // limbered battery that stayed limbered through the phase meets it.
    for m in next.units.iter_mut().filter(|m| {
        m.eliminated.is_none()
            && m.rules.arm == Arm::Artillery
            && m.rules.formation == Formation::Limbered
            && m.rules.counterbattery.is_some()
    }) {
        m.rules.counterbattery = None;
        m.rules.counterbattery_since = 0;
        events.push(Event::of(
            Kind::Counterbattery,
            &[m.id.as_str()],
            format!(
                "{} remains limbered: its counterbattery marker is removed (11.76e, 11.77e).",
                m.name
            ),
        ));
    }
    events.extend(morale_checks(&next, &reduced));
    if !reduced.is_empty() {
        events.push(mfp(&next));
    }
    advance(&mut next, &mut events);
    (next, events, not_made)
}
