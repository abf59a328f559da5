//! The Shock Combat Phase, as far as fire goes: the defending unit's Final
//! Shock Combat Fire at each frontal shocking unit (11.84), the Supportive
//! Defensive Fire of friends whose Minimum Range Fire Zone the shocking
//! unit stood in (11.85), and the unit that replaced the one attacked and
//! may not fire at the attackers (11.86). The shock combat itself lies
//! outside the chapter: the GM settles it (ruling PF-2).

use std::collections::BTreeMap;

use super::fire::{make, morale_checks};
use super::movement::minimum_zone;
use super::reciprocal::mfp;
use super::{Phase, advance, non_phasing};
use crate::audit::dice::Dice;
use crate::geometry::{Fan, rect_distance};
use crate::rules::board::Location;
use crate::rules::percentile_fire::events::Kind;
use crate::rules::percentile_fire::field::Table;
use crate::rules::percentile_fire::field::eligible::{self, Plan, Request};
use crate::rules::percentile_fire::field::figures::FIRING_ANGLE;
use crate::rules::percentile_fire::mechanics::fire::Refusal;
use crate::rules::percentile_fire::mechanics::fire::factors::Occasion;
use crate::rules::percentile_fire::orders::{Action, Order, PfOrder};
use crate::rules::percentile_fire::state::{Formation, Moved, Shock, State, Unit};
use crate::rules::ruleset::Event;

const FINAL: &str = "11.84: \"Final Shock Combat Fire is part of the Shock Combat Phase when the defending unit(s) are eligible to Fire attack against the shocking enemy units attempting to elLter their position.\"";
const SUPPORT: &str = "11.85: \"friendly units within their Minimum Range Fire Zone of the frontal enemy shocking unilm4y Fire attack support the defensive Fire attack of the defending unit(s)\"";

fn shock_of<'s>(state: &'s State, attacker: &str) -> Vec<&'s Shock> {
    state
        .game
        .shocks
        .iter()
        .filter(|s| s.attacker == attacker)
        .collect()
}

fn request<'a>(firer: &'a Unit, target: &'a Unit, occasion: Occasion, attack: u32) -> Request<'a> {
    Request {
        firer,
        target,
        occasion,
        phase: Phase::Shock,
        shot: None,
        attack,
        batteries_at_target: 0,
        hierarchy: false,
    }
}

/// Final Shock Combat Fire of `firer` at `shocker` (11.84).
pub fn final_fire(
    state: &State,
    table: &Table,
    firer: &Unit,
    shocker: &str,
    attack: u32,
) -> Result<Plan, Refusal> {
    let host = table.host(state, firer).id.clone();
    let shock = shock_of(state, shocker)
        .into_iter()
        .find(|s| s.target == firer.id || s.target == host)
        .ok_or_else(|| Refusal::new(format!("{shocker} declared no shock against it"), FINAL))?;
    if shock.replaced {
        return Err(Refusal::new(
            "it replaced the unit attacked, and may not fire upon the attacking units",
            "11.86: \"that replacement unit, if within the Shock Combat Zone, cannot fire upon the attacking enemy units\"",
        ));
    }
    let target = state
        .unit(shocker)
        .ok_or_else(|| Refusal::new(format!("no unit {shocker}"), FINAL))?;
    let (Some(rect), Some(tr)) = (table.rect(state, firer), table.rect(state, target)) else {
        return Err(Refusal::new("a unit is off the table", FINAL));
    };
    let all_round = firer.rules.formation == Formation::Square
        || firer.rules.in_square.is_some()
        || table.in_building(&rect);
    if !all_round && Fan::ahead_of(&rect, FIRING_ANGLE).reach_to(&tr).is_none() {
        return Err(Refusal::new(
            format!("{shocker} does not shock its frontal face"),
            "11.80: \"Final Shock Combat Fire is given when the Shock attack is conducted in the Shock Combat Phase against each frontal shocking unit.\"",
        ));
    }
    eligible::plan(
        table,
        state,
        &request(firer, target, Occasion::FinalShock, attack),
    )
}

/// Supportive Defensive Fire of `firer` at `shocker` (11.85).
pub fn support(
    state: &State,
    table: &Table,
    firer: &Unit,
    shocker: &str,
    attack: u32,
) -> Result<Plan, Refusal> {
    let shocks = shock_of(state, shocker);
    let Some(shock) = shocks.first() else {
        return Err(Refusal::new(
            format!("{shocker} is no frontmost enemy unit shocking a friendly unit"),
            "11.85a: \"The frontmost enemy U[it dilsr bE a eligible Fire target to receive the Fire attagk. Units behind the frontmost unit cannot be fired upon by defensive Supportive Fire attacks\"",
        ));
    };
    let host = table.host(state, firer).id.clone();
    if shock.target == firer.id || shock.target == host {
        return Err(Refusal::new(
            "it is the unit attacked: it gives final shock combat fire, not supportive fire",
            SUPPORT,
        ));
    }
    if state
        .unit(&shock.target)
        .is_none_or(|t| t.side != firer.side)
    {
        return Err(Refusal::new(
            format!("{shocker} shocks no friendly unit"),
            SUPPORT,
        ));
    }
    if state
        .game
        .shocks
        .iter()
        .any(|s| s.replaced && s.target == firer.id)
    {
        return Err(Refusal::new(
            "it replaced the unit attacked, and may not fire upon the attacking units",
            "11.86",
        ));
    }
    // b. Within its Minimum Range Fire Zone before any movement.
    let (Some(rect), Some(end)) = (table.rect(state, firer), minimum_zone(state, firer)) else {
        return Err(Refusal::new("it has no Minimum Range Fire Zone", SUPPORT));
    };
    let before = shock.from;
    let inside = if firer.rules.formation == Formation::Square || firer.rules.in_square.is_some() {
        rect_distance(&rect, &before) <= end
    } else {
        Fan::ahead_of(&rect, FIRING_ANGLE)
            .reach_to(&before)
            .is_some_and(|d| d <= end)
    };
    if !inside {
        return Err(Refusal::new(
            format!("{shocker} was not within its Minimum Range Fire Zone before it moved"),
            "11.85b: \"Target must be withinthe Minimum Range Fire Zone of the friendly unit giving Fire support before any movement.\"",
        ));
    }
    // c. Not moved but to close the range.
    if firer.rules.moved == Moved::Moved {
        return Err(Refusal::new(
            "it moved in the preceding Movement Phase",
            "11.85c: \"Not have moved in the preceding Movement Phase except to \"Close the range to target\"\"",
        ));
    }
    // d. No passby fire at it in this turn or the last.
    if firer
        .rules
        .passby_fired
        .get(shocker)
        .is_some_and(|t| *t + 1 >= state.turn)
    {
        return Err(Refusal::new(
            format!("it gave {shocker} a Passby Fire attack this turn or the last"),
            "11.85d: \"Not given the Target unit a Passby Fire attack (11.82) in the current or previous turn.\"",
        ));
    }
    let target = state
        .unit(shocker)
        .ok_or_else(|| Refusal::new(format!("no unit {shocker}"), SUPPORT))?;
    eligible::plan(
        table,
        state,
        &request(firer, target, Occasion::Supportive, attack),
    )
}

/// Whether `u` may replace `replaced` to receive a shock (11.86).
pub fn replace_check(state: &State, u: &Unit, replaced: &str) -> Result<(), Refusal> {
    const CLAUSE: &str = "11.86: \"if a player replaces a unit with another friendly unit to receive the Shock Combat attack\"";
    let Some(r) = state.unit(replaced) else {
        return Err(Refusal::new(format!("no unit {replaced}"), CLAUSE));
    };
    if r.side != u.side || r.id == u.id {
        return Err(Refusal::new(
            format!("{replaced} is not another friendly unit"),
            CLAUSE,
        ));
    }
    if !state.game.shocks.iter().any(|s| s.target == replaced) {
        return Err(Refusal::new(
            format!("{replaced} receives no declared Shock Combat attack"),
            CLAUSE,
        ));
    }
    if state.game.shocks.iter().any(|s| s.target == u.id) {
        return Err(Refusal::new("it receives a shock of its own", CLAUSE));
    }
    Ok(())
}

/// Resolves the Shock Combat Phase.
pub fn resolve(
    state: &State,
    orders: &BTreeMap<String, Vec<Order>>,
    dice: &mut dyn Dice,
) -> (State, Vec<Event>) {
    let mut next = state.clone();
    let mut table = Table::new(&next);
    let mut events = Vec::new();
    let mut reduced = Vec::new();
    let defender = non_phasing(state);
    let list: Vec<&Order> = orders.get(&defender).into_iter().flatten().collect();
    replacements(&mut next, &mut table, &list, &mut events);
    for o in &list {
        let PfOrder::Unit { unit, action } = o else {
            continue;
        };
        let id = unit.as_str();
        let (shocker, occasion) = match action {
            Action::FinalFire(t) => (t.as_str(), Occasion::FinalShock),
            Action::Support(t) => (t.as_str(), Occasion::Supportive),
            _ => continue,
        };
        let Some(firer) = next.unit(id) else { continue };
        if firer.eliminated.is_some() || next.unit(shocker).is_none_or(|s| s.eliminated.is_some()) {
            continue;
        }
        let attack = firer.rules.fire_attacks + 1;
        let plan = match occasion {
            Occasion::FinalShock => final_fire(&next, &table, firer, shocker, attack),
            _ => support(&next, &table, firer, shocker, attack),
        };
        match plan {
            Ok(p) => {
                let ev = make(&mut next, &mut table, dice, &p, id, occasion, &mut reduced);
                events.push(ev);
            }
            Err(f) => events.push(
                Event::of(
                    Kind::FireLapsed,
                    &[id, shocker],
                    format!(
                        "{id} does not fire at {shocker}: {} ({}).",
                        f.problem,
                        f.cited()
                    ),
                )
                .also_naming(&f.naming),
            ),
        }
    }
    events.extend(morale_checks(&next, &reduced));
    if !reduced.is_empty() {
        events.push(mfp(&next));
    }
    for s in &next.game.shocks {
        let alive = |id: &str| next.unit(id).filter(|u| u.eliminated.is_none());
        if let (Some(a), Some(t)) = (alive(&s.attacker), alive(&s.target)) {
            events.push(Event::of(
                Kind::Shock,
                &[s.attacker.as_str(), s.target.as_str()],
                format!(
                    "The shock of {} against {} is to be fought: Shock Combat lies outside this chapter, and the GM settles it.",
                    a.name, t.name
                ),
            ));
        }
    }
    advance(&mut next, &mut events);
    (next, events)
}

/// Replacements first: the replacing unit takes the place of the unit
/// attacked, which takes its place (ruling PF-21). One that no longer fits
/// the table (the unit attacked already replaced by an earlier line) is not
/// made: by its place in `list`, with why.
fn replacements(
    next: &mut State,
    table: &mut Table,
    list: &[&Order],
    events: &mut Vec<Event>,
) -> Vec<(usize, Refusal)> {
    let mut not_made = Vec::new();
    for (index, o) in list.iter().enumerate() {
        let PfOrder::Unit {
            unit,
            action: Action::Replace(r),
        } = o
        else {
            continue;
        };
        let (id, r) = (unit.as_str(), r.as_str());
        let (Some(a), Some(b)) = (next.unit(id), next.unit(r)) else {
            continue;
        };
        if let Err(f) = replace_check(next, a, r) {
            not_made.push((index, f));
            continue;
        }
        let (la, fa, lb, fb) = (a.location, a.facing, b.location, b.facing);
        for u in next.units.iter_mut() {
            if u.id == id {
                u.location = lb;
                u.facing = fb;
            } else if u.id == r {
                u.location = la;
                u.facing = fa;
            }
        }
        for s in next.game.shocks.iter_mut().filter(|s| s.target == r) {
            s.target = id.to_string();
            s.replaced = true;
        }
        table.update(next, id);
        table.update(next, r);
        let at = |l: Location| match l {
            Location::Table { x, y } => format!(
                "({}, {})",
                crate::rules::words::inches(x),
                crate::rules::words::inches(y)
            ),
            Location::Hex { column, row } => format!("({column}, {row})"),
        };
        events.push(Event::of(
            Kind::Replace,
            &[id, r],
            format!(
                "{id} replaces {r} at {} to receive the shock; it may not fire upon the attackers (11.86).",
                at(lb)
            ),
        ));
    }
    not_made
}

/// The defending side's orders of the Shock Combat Phase the phase would
/// not carry out, for the acknowledgement (ruling PF-39): the replacements
/// as [`resolve`] makes them, first and with no die, then each fire
/// checked by the phase's own [`final_fire`] and [`support`] on the table
/// the replacements leave, before any fire is given. By the order's place
/// in `orders`, with why.
pub fn not_carried_out(state: &State, orders: &[Order]) -> Vec<(usize, Refusal)> {
    let mut next = state.clone();
    let mut table = Table::new(&next);
    let list: Vec<&Order> = orders.iter().collect();
    let mut out = replacements(&mut next, &mut table, &list, &mut Vec::new());
    for (index, o) in orders.iter().enumerate() {
        let PfOrder::Unit { unit, action } = o else {
            continue;
        };
        let Some(firer) = next.unit(unit.as_str()) else {
            continue;
        };
        let attack = firer.rules.fire_attacks + 1;
        let plan = match action {
            Action::FinalFire(t) => final_fire(&next, &table, firer, t.as_str(), attack),
            Action::Support(t) => support(&next, &table, firer, t.as_str(), attack),
            _ => continue,
        };
        if let Err(f) = plan {
            out.push((index, f));
        }
    }
    out.sort_by_key(|(index, _)| *index);
    out
}
