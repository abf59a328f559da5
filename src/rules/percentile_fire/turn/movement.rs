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
use crate::rules::names::UnitId;
use crate::rules::percentile_fire::events::Kind;
use crate::rules::percentile_fire::field::Table;
use crate::rules::percentile_fire::field::eligible::{self, Request};
use crate::rules::percentile_fire::field::figures::FIRING_ANGLE;
use crate::rules::percentile_fire::mechanics::fire::Refusal;
use crate::rules::percentile_fire::mechanics::fire::factors::Occasion;
use crate::rules::percentile_fire::mechanics::fire::zone::ARTILLERY_MINIMUM_ZONE;
use crate::rules::percentile_fire::mechanics::moves::{self, Moved};
use crate::rules::percentile_fire::orders::{Action, Order, PfOrder};
use crate::rules::percentile_fire::params::WeaponKind;
use crate::rules::percentile_fire::state::{
    self, Arm, Counterbattery, Formation, Shock, State, Unit,
};
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
    action: &Action<UnitId>,
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
                        f.cited()
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
    pub why: Refusal,
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

/// The phase under way: the state it makes and its table, the dice, the
/// enemy's standing orders, what it has told, the units fire reduced, and
/// the moves it did not make.
struct Play<'a> {
    next: State,
    table: Table,
    dice: &'a mut dyn Dice,
    standing: BTreeMap<String, Standing>,
    events: Vec<Event>,
    reduced: Vec<String>,
    /// The units of the phasing side that moved where the enemy may fire
    /// at them on their way.
    exposed: Vec<String>,
    not_made: Vec<NotMoved>,
}

/// The phase, with the moves it did not make.
fn play(
    state: &State,
    orders: &BTreeMap<String, Vec<Order>>,
    dice: &mut dyn Dice,
) -> (State, Vec<Event>, Vec<NotMoved>) {
    let mut next = state.clone();
    let phasing = state.active_side.clone();
    for u in next.units.iter_mut().filter(|u| u.side == phasing) {
        u.rules.moved = state::Moved::Still;
    }
    let table = Table::new(&next);
    let standing = standing_orders(state, orders);
    let mut play = Play {
        next,
        table,
        dice,
        events: standing_told(state, &standing).into_iter().collect(),
        standing,
        reduced: Vec::new(),
        exposed: Vec::new(),
        not_made: Vec::new(),
    };
    for (index, o) in orders.get(&phasing).into_iter().flatten().enumerate() {
        play.order(index, o);
    }
    play.limbered_stay();
    let Play {
        mut next,
        mut events,
        reduced,
        not_made,
        ..
    } = play;
    events.extend(morale_checks(&next, &reduced));
    if !reduced.is_empty() {
        events.push(mfp(&next));
    }
    advance(&mut next, &mut events);
    (next, events, not_made)
}

/// The non-phasing side's standing orders for opportunity and passby fire
/// (11.81, 11.83), by unit.
fn standing_orders(
    state: &State,
    orders: &BTreeMap<String, Vec<Order>>,
) -> BTreeMap<String, Standing> {
    let mut standing = BTreeMap::new();
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
    standing
}

/// The event telling the standing orders, if there are any.
fn standing_told(state: &State, standing: &BTreeMap<String, Standing>) -> Option<Event> {
    if standing.is_empty() {
        return None;
    }
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
    Some(event.also_naming(&ready))
}

impl Play<'_> {
    /// One order of the phasing side: the fire the enemy's standing orders
    /// give at the unit as it goes, then the move if it still stands.
    fn order(&mut self, index: usize, o: &Order) {
        let PfOrder::Unit { unit, action } = o else {
            return;
        };
        let id = unit.as_str();
        let Some(u) = self.next.unit(id) else { return };
        if u.eliminated.is_some() || matches!(action, Action::Hold) {
            return;
        }
        let moved: Moved = match moves::end_of(&self.next, &self.table, u, action) {
            Ok(m) => m,
            Err(f) => {
                let name = u.name.clone();
                self.lapsed(index, id, &name, f);
                return;
            }
        };
        let Some(start) = self.table.rect(&self.next, u) else {
            return;
        };
        let name = u.name.clone();
        if exposed_to_fire(&self.table, &self.next, action, &start, &moved.rect) {
            self.exposed.push(id.to_string());
        }
        match action {
            Action::Face(_) | Action::Form(_) => self.opportunity_fire(id),
            _ => self.passby_fire(id, action, &start, &moved),
        }
        if self.next.unit(id).is_none_or(|m| m.eliminated.is_some()) {
            return;
        }
        self.make_move(id, &name, action, &start, &moved);
    }

    /// A move the unit may not make: told, and kept for the
    /// acknowledgement with the friends it names that the enemy could
    /// have fired at on their way.
    fn lapsed(&mut self, index: usize, id: &str, name: &str, f: Refusal) {
        self.not_made.push(NotMoved {
            index,
            unit: id.to_string(),
            why: f.clone(),
            movers: f
                .naming
                .iter()
                .filter(|n| self.exposed.contains(n))
                .cloned()
                .collect(),
        });
        self.events.push(
            Event::of(
                Kind::MoveLapsed,
                &[id],
                format!("{name} does not move: {} ({}).", f.problem, f.cited()),
            )
            .also_naming(&f.naming),
        );
    }

    /// "Anytime a enemy formation changes Facing or Formation within a the
    /// Minimum Range Fire Zone, the non- phasing player may elect to Fire
    /// attack" (11.81), at the unit as it attempts the change.
    fn opportunity_fire(&mut self, id: &str) {
        standing_fire(
            &mut self.next,
            &mut self.table,
            self.dice,
            &self.standing,
            id,
            Occasion::Opportunity,
            &|t, s, f, r| in_minimum_zone(t, s, f, r),
            &mut self.events,
            &mut self.reduced,
        );
    }

    /// 11.83: passby fire at a unit whose path runs within the frontal
    /// fire zone angle and the Minimum Range Fire Zone and which completely
    /// clears the frontal fire zone; not at a unit shocking the firer (d),
    /// never at a retreat (e). Each firer fires at it where its path came
    /// nearest the firer (ruling PF-20).
    fn passby_fire(&mut self, id: &str, action: &Action<UnitId>, start: &Rect, moved: &Moved) {
        let shocking = match action {
            Action::Charge(t) | Action::Shock(t) => Some(t.as_str().to_string()),
            _ => None,
        };
        if matches!(action, Action::Charge(_))
            && let Some(m) = self.next.units.iter_mut().find(|m| m.id == id)
        {
            m.rules.charging = true;
        }
        let end = moved.rect;
        let firers: Vec<String> = self
            .standing
            .iter()
            .filter(|(_, s)| s.passby)
            .map(|(f, _)| f.clone())
            .filter(|f| {
                self.next.unit(f).is_some_and(|fu| {
                    fu.eliminated.is_none()
                        && passes_by(
                            &self.table,
                            &self.next,
                            fu,
                            start,
                            &end,
                            shocking.as_deref(),
                        )
                })
            })
            .collect();
        for f in firers {
            let Some(fr) = self
                .next
                .unit(&f)
                .and_then(|fu| self.table.rect(&self.next, fu))
            else {
                continue;
            };
            let at =
                nearest_point_of_segment(fr.front_centre, start.front_centre, end.front_centre);
            let there = Rect {
                front_centre: at,
                ..end
            };
            let formation = self
                .next
                .unit(id)
                .map_or(moved.formation, |m| m.rules.formation);
            place(&mut self.next, id, &there, formation);
            self.table.update(&self.next, id);
            let one: BTreeMap<String, Standing> = [(
                f.clone(),
                Standing {
                    opportunity: false,
                    passby: true,
                },
            )]
            .into();
            standing_fire(
                &mut self.next,
                &mut self.table,
                self.dice,
                &one,
                id,
                Occasion::Passby,
                &|_, _, _, _| true,
                &mut self.events,
                &mut self.reduced,
            );
        }
    }

    /// The move itself: the unit placed at its end, marked as moved or
    /// closing, its counterbattery marker removed where the move meets it,
    /// a shock or charge declared for the Shock Combat Phase.
    fn make_move(
        &mut self,
        id: &str,
        name: &str,
        action: &Action<UnitId>,
        start: &Rect,
        moved: &Moved,
    ) {
        place(&mut self.next, id, &moved.rect, moved.formation);
        self.table.update(&self.next, id);
        let mut text = move_words(name, action, moved);
        let mut units = vec![id];
        if let Some(m) = self.next.units.iter_mut().find(|m| m.id == id) {
            m.rules.moved = if moved.closing {
                state::Moved::ClosedRange
            } else {
                state::Moved::Moved
            };
            if let Some(why) = counterbattery_met(m, action) {
                m.rules.counterbattery = None;
                m.rules.counterbattery_since = 0;
                text.push_str(&format!(
                    " It has {why}: its counterbattery marker is removed."
                ));
            }
        }
        if let Action::Charge(t) | Action::Shock(t) = action {
            units.push(t.as_str());
            self.next.game.shocks.push(Shock {
                attacker: id.to_string(),
                target: t.as_str().to_string(),
                charge: matches!(action, Action::Charge(_)),
                from: *start,
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
        self.events.push(ev);
    }

    /// "Limbered artillery batteries or train units must retire one full
    /// move to rear area or remain limbered in place" (11.76e, 11.77e): a
    /// limbered battery that stayed limbered through the phase meets it.
    fn limbered_stay(&mut self) {
        for m in self.next.units.iter_mut().filter(|m| {
            m.eliminated.is_none()
                && m.rules.arm == Arm::Artillery
                && m.rules.formation == Formation::Limbered
                && m.rules.counterbattery.is_some()
        }) {
            m.rules.counterbattery = None;
            m.rules.counterbattery_since = 0;
            self.events.push(Event::of(
                Kind::Counterbattery,
                &[m.id.as_str()],
                format!(
                    "{} remains limbered: its counterbattery marker is removed (11.76e, 11.77e).",
                    m.name
                ),
            ));
        }
    }
}

/// The words telling a move.
fn move_words(name: &str, action: &Action<UnitId>, moved: &Moved) -> String {
    match action {
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
    }
}

/// The counterbattery marker a unit's move meets, if it has one the move
/// meets (11.76b, d; 11.77d), and how.
fn counterbattery_met(m: &Unit, action: &Action<UnitId>) -> Option<&'static str> {
    let marker = m.rules.counterbattery?;
    match action {
        Action::Face(_) if marker == Counterbattery::A => {
            Some("changed facing while remaining in position (11.76b)")
        }
        Action::Retire => Some("limbered and retired a full move to the rear (11.76d, 11.77d)"),
        _ => None,
    }
}
