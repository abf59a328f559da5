//! Charges, evades and reinforcing a combat: Charging and Evading.
//!
//! "A unit must charge in order to contact the enemy and begin a close
//! combat. To charge, move the unit to contact the target unit. Some part of
//! the front face of the unit must contact the target of the charge."

use super::super::field::deployment::{CONTACT, ZONE_OF_CONTROL};
use super::super::orders::{Approach, Side, StcOrder};
use super::ChargeMade;
use super::SideOrders;
use super::fighting::{nation_of, steady};
use super::movement::{
    EVADE_MOST, MOVEMENT_TABLE, Phase, Slowing, because, box_of, ground, inches, rates, slow_wheel,
};
use crate::audit::dice::{Dice, Die};
use crate::geometry::bounds;
use crate::geometry::{
    self, Flank, Rect, Step, direction_away, path_hits, rect_distance, segment_touches_rect,
    segments_intersect, wheel_arc_length,
};
use crate::geometry::{Hundredths, Point};
use crate::rules::sound_the_charge::events::Kind;
use crate::rules::sound_the_charge::ground::TerrainKind;
use crate::rules::sound_the_charge::orders::Formation;
use crate::rules::sound_the_charge::tables::Arm;
use crate::rules::sound_the_charge::tables::Nation;
use crate::rules::told::About;

const CHARGING: &str = "Charging and Evading";

/// Whether some part of the front face of `r` touches `target`.
fn front_touches(r: &Rect, target: &Rect) -> bool {
    let c = r.corners();
    let near = Rect {
        front_centre: geometry::move_forward(target, CONTACT).front_centre,
        width: target.width + 2 * CONTACT,
        depth: target.depth + 2 * CONTACT,
        ..*target
    };
    segment_touches_rect(c[0], c[1], &near)
}

/// The shortest straight advance from `from`, up to `most`, that brings the
/// front of the unit into contact with `target`; `None` if no advance in
/// reach does. Scans in tenths of an inch, then refines to the hundredth.
fn advance_to_contact(from: &Rect, target: &Rect, most: Hundredths) -> Option<Hundredths> {
    let touching = |d: Hundredths| {
        let r = geometry::move_forward(from, d);
        rect_distance(&r, target) == 0
    };
    if touching(0) {
        // A first step (an oblique, a wheel) that cut into the target's
        // corner ends on it, not in contact with it (ruling STC-97).
        return (!from.overlaps(target) && front_touches(from, target)).then_some(0);
    }
    if path_hits(from, &[Step::Forward(most.max(0))], &[*target]).is_empty() && !touching(most) {
        return None;
    }
    let mut d = 0;
    while d < most {
        let next = (d + 10).min(most);
        if touching(next) {
            let mut lo = d;
            let mut hi = next;
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                if touching(mid) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            let r = geometry::move_forward(from, hi);
            return front_touches(&r, target).then_some(hi);
        }
        d = next;
    }
    None
}

/// A planned approach: the steps, where they end, their cost and whether
/// the charge bonus was used.
struct Approached {
    steps: Vec<Step>,
    end: Rect,
    cost: Hundredths,
    forward: Hundredths,
}

/// The ground factor over a straight advance: the worst of its middle and
/// its end.
fn ground_factor(p: &Phase, i: usize, from: &Rect, d: Hundredths) -> Result<Hundredths, String> {
    let u = &p.state.units[i];
    let mut f = 1;
    for r in [
        geometry::move_forward(from, d / 2),
        geometry::move_forward(from, d),
    ] {
        f = f.max(ground(&p.field, u, &r).map_err(|b| b.reason)?.factor);
    }
    Ok(f)
}

/// Charging, rule 2: "Charge bonus movement must be straight forward".
fn straight(
    p: &Phase,
    i: usize,
    start: &Rect,
    target: &Rect,
    reach: Hundredths,
) -> Option<Approached> {
    // The ground can slow the advance: scan at its worst factor first.
    let d = advance_to_contact(start, target, reach)?;
    let f = ground_factor(p, i, start, d).ok()?;
    let cost = d.saturating_mul(f);
    (cost <= reach).then(|| Approached {
        steps: vec![Step::Forward(d)],
        end: geometry::move_forward(start, d),
        cost,
        forward: d,
    })
}

/// Charging, rule 3: "A unit may wheel or oblique into contact, as long as it
/// is not using charge bonus movement." The cheapest wheel (whole degrees)
/// or oblique (tenths of an inch) followed by a straight advance that makes
/// contact within the normal allowance: a charge that wheels or obliques
/// takes no bonus at all (ruling STC-99).
fn wheel_or_oblique(
    p: &Phase,
    i: usize,
    start: &Rect,
    target: &Rect,
    allowance: Hundredths,
    approach: Approach,
) -> Option<Approached> {
    let u = &p.state.units[i];
    let slow_wheel =
        !steady(u) || u.rules.grade == crate::rules::sound_the_charge::tables::Grade::D;
    let mut best: Option<Approached> = None;
    let mut consider = |first: Step, first_cost: Hundredths| {
        if first_cost > allowance {
            return;
        }
        let turned = first.apply(start);
        // Contact during the first step itself counts as contact at its end.
        let rest = allowance - first_cost;
        let Some(d) = advance_to_contact(&turned, target, rest) else {
            return;
        };
        let f = ground_factor(p, i, &turned, d).unwrap_or(Hundredths::MAX / 8);
        let cost = first_cost.saturating_add(d.saturating_mul(f));
        if cost <= allowance && best.as_ref().is_none_or(|b| cost < b.cost) {
            best = Some(Approached {
                steps: vec![first, Step::Forward(d)],
                end: geometry::move_forward(&turned, d),
                cost,
                forward: d,
            });
        }
    };
    match approach {
        Approach::Wheel(side) => {
            let hinge = match side {
                Side::Left => Flank::Left,
                Side::Right => Flank::Right,
            };
            for deg in 1..=180 {
                let arc =
                    wheel_arc_length(start.width, deg as u32) * if slow_wheel { 2 } else { 1 };
                if arc > allowance {
                    break;
                }
                consider(Step::Wheel(hinge, deg), arc);
            }
        }
        Approach::Oblique(side) => {
            let flank = match side {
                Side::Left => Flank::Left,
                Side::Right => Flank::Right,
            };
            let mut o = 10;
            while o * 2 <= allowance {
                consider(Step::Oblique(flank, o), o * 2);
                o += 10;
            }
        }
        Approach::Straight => {}
    }
    best
}

/// The units a straight line of units passes, other than the target.
fn in_the_way(p: &Phase, i: usize, start: &Rect, steps: &[Step], target: usize) -> Vec<usize> {
    let area = super::movement::swept_box(start, steps);
    let (others, rects) = p
        .field
        .rects_near_except(area, ZONE_OF_CONTROL, &[i, target]);
    path_hits(start, steps, &rects)
        .into_iter()
        .map(|k| others[k])
        .collect()
}

/// Carries out a charge of unit `i` at enemy `t`.
pub fn charge(
    p: &mut Phase,
    i: usize,
    t: usize,
    approach: Approach,
    through: &[usize],
    passive: &[SideOrders],
    dice: &mut dyn Dice,
) {
    let what = "charge";
    let Some((start, target)) = may_charge_now(p, i, t) else {
        return;
    };
    if !launched(p, i, t, dice) {
        return;
    }
    let (normal, bonus) = charge_allowance(p, i, through);
    let plan = match approach {
        Approach::Straight => straight(p, i, &start, &target, normal + bonus),
        _ => wheel_or_oblique(p, i, &start, &target, normal, approach),
    };
    let Some(plan) = plan else {
        // The target cannot be reached. A straight charge still runs its
        // full distance, bonus and all, and is then disordered (Steadiness
        // and Disorder, 5: "If it uses its charge bonus movement but fails
        // to contact the enemy"); a wheel or oblique charge is not made.
        if approach == Approach::Straight && bonus > 0 {
            short_charge(p, i, &start, normal + bonus, through, t);
        } else {
            let tname = p.name(t);
            let mut slowed = charge_slowings(p, i, through, approach == Approach::Straight);
            if approach != Approach::Straight {
                slowed.push(Slowing::NoChargeBonus);
            }
            // Charging, rule 3: the wheel or oblique into contact costs as
            // any other ("Oblique [...] moves are done at half speed").
            slowed.extend(match approach {
                Approach::Oblique(_) => Some(Slowing::HalfSpeedStep("obliquing")),
                Approach::Wheel(_) => slow_wheel(&p.state.units[i]).map(Slowing::SlowWheel),
                Approach::Straight => None,
            });
            let why = because(&slowed);
            p.impossible_naming(
                i,
                what,
                &format!("{tname} cannot be reached this way within its allowance of {} ({MOVEMENT_TABLE}){why}", inches(normal)),
                &[t],
            );
        }
        return;
    };
    if !way_is_clear(p, i, t, &start, &plan, through) {
        return;
    }
    let bonus_used = plan.cost > normal;
    if target_evades(p, i, t, &plan, through, passive) {
        // "The unit charging at the skirmishers may either halt at the
        // point of evasion or continue their charge into some other unit
        // in the line of their charge." It halts (STC-49).
        let (id, tid, name) = (p.id(i), p.id(t), p.name(i));
        p.record.charges.push(ChargeMade {
            attacker: id.clone(),
            targets: Vec::new(),
            contacted: false,
            bonus_used,
            from: start,
        });
        p.event(
            Kind::ChargeHalts,
            &[&id, &tid],
            format!("{name} halts at the point of evasion."),
        );
        // The point of evasion may be where friendly skirmishers stand,
        // which the charge passed through: "If two units end movement
        // intermixed, move one unit slightly apart from the other and mark
        // both units disordered" (STC-44, STC-49).
        p.settle(i);
        return;
    }
    finish_move(p, i, &plan, through);
    let targets = targets_in_reach(p, i, t, &plan.end);
    tell_contact(p, i, t, approach, bonus_used, &targets);
    contact_disorder(p, i, &targets);
    terrain_disorder(p, i, &start, &plan.end, &target);
    // Contact may be made among friendly skirmishers the charge passed
    // through: "If two units end movement intermixed, move one unit slightly
    // apart from the other and mark both units disordered" (STC-44); the
    // friends are moved, so that the contact stands.
    p.settle_friends_of(i);
    p.record.charges.push(ChargeMade {
        attacker: p.id(i),
        targets,
        contacted: true,
        bonus_used,
        from: start,
    });
}

/// The charger's footprint and its target's, if the charge may be made at
/// all: both on the table, the charger fresh this turn and in a formation
/// that moves.
fn may_charge_now(p: &mut Phase, i: usize, t: usize) -> Option<(Rect, Rect)> {
    let what = "charge";
    let (Some(start), Some(target)) = (p.field.rect(i), p.field.rect(t)) else {
        p.impossible(i, what, "the target is no longer on the table");
        return None;
    };
    if p.movers[i].moved || p.movers[i].used > 0 {
        p.impossible(i, what, "it has already moved or maneuvered this turn");
        return None;
    }
    if matches!(
        p.state.units[i].rules.formation,
        Formation::Square | Formation::LLeft | Formation::LRight | Formation::U
    ) {
        p.impossible(
            i,
            what,
            "the unit may not move in its formation (Movement; Formations)",
        );
        return None;
    }
    Some((start, target))
}

/// Spain, Naples: "A Spanish cavalry unit must roll a 3-6 on one die in
/// order to launch a charge." Every other charge is launched.
fn launched(p: &mut Phase, i: usize, t: usize, dice: &mut dyn Dice) -> bool {
    let u = &p.state.units[i];
    let cavalry = u.rules.troop_type.arm() == Arm::Cavalry;
    if !(cavalry && nation_of(p.state, &u.side) == Some(Nation::Spain)) {
        return true;
    }
    let (id, name, tid, tname) = (p.id(i), p.name(i), p.id(t), p.name(t));
    // The roll, like a charge not launched, is the charging side's alone:
    // the enemy sees a charge come, or nothing.
    let roll = dice.throw(
        Die::D6,
        &format!("Spanish cavalry launches a charge: {name}"),
        Some(About::own(&[&id, &tid])),
    );
    if roll < 3 {
        p.event_naming(
            Kind::ChargeNotLaunched,
            &[&id],
            &[&tid],
            format!("{name} rolls {roll} and does not launch its charge at {tname} (National Modifiers, Spain, Naples: 3-6 needed)."),
        );
        return false;
    }
    true
}

/// How far the charger may go: what is left of its allowance, and its
/// charge bonus (none when blown, half out of command, none and half speed
/// through close-order friends).
fn charge_allowance(p: &Phase, i: usize, through: &[usize]) -> (Hundredths, Hundredths) {
    let u = &p.state.units[i];
    let normal = (p.movers[i].allowance.inches - p.movers[i].used).max(0);
    let rates = rates(u.rules.troop_type, nation_of(p.state, &u.side));
    let blown = super::fighting::option(p.state, "blown-cavalry") && u.rules.status.blown;
    let mut bonus = rates.and_then(|r| r.charge).unwrap_or(0);
    if blown {
        // Blown Cavalry: "Blown cavalry may not use charge speed".
        bonus = 0;
    }
    if !p.movers[i].in_command {
        // "A unit with no general in CR at the start of the phase moves at
        // half speed": the bonus too (STC-48).
        bonus /= 2;
    }
    // Charging, rule 2: charge bonus "may not be used to interpenetrate
    // friendly units (except skirmishers)"; Interpenetration: "at half speed".
    let through_close = through
        .iter()
        .any(|&j| p.state.units[j].rules.formation != Formation::Skirmish);
    if through_close {
        (normal / 2, 0)
    } else {
        (normal, bonus)
    }
}

/// Why the charger's reach is less than the Movement Table's: the
/// reductions of its allowance, no bonus when blown (if it would use its
/// `bonus`), and half speed through close-order friends (what
/// [`charge_allowance`] takes off).
fn charge_slowings(p: &Phase, i: usize, through: &[usize], bonus: bool) -> Vec<Slowing> {
    let mut slowed = p.movers[i].allowance.reductions.clone();
    if bonus
        && super::fighting::option(p.state, "blown-cavalry")
        && p.state.units[i].rules.status.blown
    {
        slowed.push(Slowing::Blown);
    }
    if through
        .iter()
        .any(|&j| p.state.units[j].rules.formation != Formation::Skirmish)
    {
        slowed.push(Slowing::Interpenetration);
    }
    slowed
}

/// Whether the charge's path is clear: no enemy in the way, friends only
/// as the charge names them and only standing still, and ground the
/// charger may enter at the end.
fn way_is_clear(
    p: &mut Phase,
    i: usize,
    t: usize,
    start: &Rect,
    plan: &Approached,
    through: &[usize],
) -> bool {
    let what = "charge";
    let side = p.state.units[i].side.clone();
    for j in in_the_way(p, i, start, &plan.steps, t) {
        let other = &p.state.units[j];
        if other.side != side {
            let why = format!("the enemy {} stands in the way", other.name);
            p.impossible_naming(i, what, &why, &[j]);
            return false;
        }
        if other.rules.formation != Formation::Skirmish && !through.contains(&j) {
            let why = format!(
                "{} stands in the way; name it with `through` to charge through it at half speed",
                other.name
            );
            p.impossible_naming(i, what, &why, &[j]);
            return false;
        }
        if (p.movers[j].moved || p.movers[j].maneuvered)
            && other.rules.formation != Formation::Skirmish
        {
            let why = format!(
                "{} has moved this turn; \"the other unit must stand still while you move through it\"",
                other.name
            );
            p.impossible_naming(i, what, &why, &[j]);
            return false;
        }
    }
    // Ground that stops the charger.
    let u = p.state.units[i].clone();
    if let Err(b) = ground(&p.field, &u, &plan.end) {
        p.impossible_naming(i, what, &b.reason, b.by.as_slice());
        return false;
    }
    true
}

/// The target's answer to the charge: its organic skirmishers rejoin it,
/// and a standing order to evade is carried out. Whether skirmishers or
/// gunners got away, so that the charger halts at the point of evasion (having moved
/// there).
fn target_evades(
    p: &mut Phase,
    i: usize,
    t: usize,
    plan: &Approached,
    through: &[usize],
    passive: &[SideOrders],
) -> bool {
    let (tid, tname) = (p.id(t), p.name(t));
    // Organic skirmishers rejoin: "If the enemy charges either the screen or
    // the parent, the skirmishers automatically rejoin the parent unit."
    if p.state.units[t].rules.status.skirmishers_out {
        p.state.units[t].rules.status.skirmishers_out = false;
        p.event(
            Kind::SkirmishersIn,
            &[&tid],
            format!("The skirmishers of {tname} rejoin their battalion as it is charged (Skirmish Screens)."),
        );
    }
    // The passive side's standing order to evade.
    let evade = passive
        .iter()
        .flat_map(|s| s.orders.iter())
        .find_map(|g| match &g.order {
            StcOrder::Evade { unit, into } if unit.as_str() == tid => Some(into.clone()),
            _ => None,
        });
    let Some(into) = evade else {
        return false;
    };
    let away = if p.state.units[t].rules.troop_type.arm() == Arm::Artillery {
        let square = into.as_ref().and_then(|s| p.field.index(s.as_str()));
        gunners_evade(p, t, &plan.end, square)
    } else {
        skirmishers_evade(p, t, &plan.end)
    };
    // Gunners that got away leave no crew at the guns: the charger halts
    // where contact would have been, as against skirmishers (STC-49).
    if away {
        finish_move(p, i, plan, through);
        return true;
    }
    false
}

/// The units the charge attacks: its target, and, by Zones of Control,
/// "If a unit charges to contact with one target, and also winds up within
/// one inch of other unengaged enemies, it must also count as attacking
/// those other units."
fn targets_in_reach(p: &Phase, i: usize, t: usize, end: &Rect) -> Vec<String> {
    let side = &p.state.units[i].side;
    let mut targets = vec![p.id(t)];
    // An enemy is engaged when a friend (not the charger) touches it.
    let engaged = |j: usize| {
        p.field
            .in_contact(j)
            .iter()
            .any(|&f| f != i && p.state.units[f].side == *side)
    };
    for j in p.field.zone_of_control(end, side, &[t]) {
        if !engaged(j) && !targets.contains(&p.id(j)) {
            targets.push(p.id(j));
        }
    }
    targets
}

/// The charge's contact as the despatch tells it, and each other enemy it
/// counts as attacking.
fn tell_contact(
    p: &mut Phase,
    i: usize,
    t: usize,
    approach: Approach,
    bonus_used: bool,
    targets: &[String],
) {
    let (id, name, tid, tname) = (p.id(i), p.name(i), p.id(t), p.name(t));
    p.event(
        Kind::Charge,
        &[&id, &tid],
        format!(
            "{name} charges {tname}{} and makes contact.",
            match approach {
                Approach::Straight if bonus_used => " with its charge bonus",
                Approach::Straight => "",
                Approach::Wheel(_) => ", wheeling into contact",
                Approach::Oblique(_) => ", obliquing into contact",
            }
        ),
    );
    for extra in targets.iter().skip(1) {
        let other = p
            .state
            .unit(extra)
            .map_or(extra.clone(), |o| o.name.clone());
        p.event(
            Kind::ChargeAlso,
            &[&id, extra],
            format!("{name} ends within 1\" of {other} and counts as attacking it too (Zones of Control)."),
        );
    }
}

/// Obstacles "disorder chargers"; town blocks are "disordering terrain to
/// enter or attack".
fn terrain_disorder(p: &mut Phase, i: usize, start: &Rect, end: &Rect, target: &Rect) {
    let crossed_obstacle =
        p.field
            .ground()
            .lines(p.state, TerrainKind::Obstacle)
            .any(|(_, points)| {
                points.windows(2).any(|w| {
                    segments_intersect(start.centre(), end.centre(), w[0], w[1])
                        || segment_touches_rect(w[0], w[1], end)
                })
            });
    let target_in_town = p.field.is_on(target, TerrainKind::is_built_up);
    let u = &p.state.units[i];
    if (crossed_obstacle || target_in_town)
        && u.rules.formation != Formation::Skirmish
        && !u.rules.disordered
    {
        let (id, name) = (p.id(i), p.name(i));
        p.state.units[i].rules.disordered = true;
        p.event(
            Kind::Disordered,
            &[&id],
            format!(
                "{name} is disordered by {} (Terrain Suggestions).",
                if crossed_obstacle {
                    "the obstacle it charged over"
                } else {
                    "attacking the town block"
                }
            ),
        );
    }
}

/// Moves the charger along its planned approach.
fn finish_move(p: &mut Phase, i: usize, plan: &Approached, _through: &[usize]) {
    p.movers[i].used += plan.cost;
    p.movers[i].moved = true;
    p.movers[i].forward += plan.forward;
    p.place(i, plan.end);
}

/// A straight charge that does not reach its target: the charger runs as
/// far as it can and is disordered for using its charge bonus without
/// contact.
fn short_charge(
    p: &mut Phase,
    i: usize,
    start: &Rect,
    reach: Hundredths,
    through: &[usize],
    t: usize,
) {
    let (id, name, tid, tname) = (p.id(i), p.name(i), p.id(t), p.name(t));
    let area = super::movement::swept_box(start, &[Step::Forward(reach)]);
    let (others, rects) = p.field.rects_near_except(area, ZONE_OF_CONTROL, &[i]);
    let mut d = reach;
    // Stop short of anything in the way (by tenths of an inch).
    while d > 0 {
        let hits: Vec<usize> = path_hits(start, &[Step::Forward(d)], &rects)
            .into_iter()
            .map(|k| others[k])
            .filter(|j| {
                !through.contains(j) && p.state.units[*j].rules.formation != Formation::Skirmish
            })
            .collect();
        let end = geometry::move_forward(start, d);
        let f = ground_factor(p, i, start, d).unwrap_or(Hundredths::MAX / 8);
        let on = p
            .field
            .table()
            .is_none_or(|(w, dd)| end.is_inside_table(w, dd));
        let zone = p
            .field
            .zone_of_control(&end, &p.state.units[i].side.clone(), &[]);
        if hits.is_empty() && d.saturating_mul(f) <= reach && on && zone.is_empty() {
            break;
        }
        d -= 10;
    }
    if d <= 0 {
        p.impossible_naming(
            i,
            "charge",
            &format!("{tname} is out of reach and there is no room to advance"),
            &[t],
        );
        return;
    }
    let end = geometry::move_forward(start, d);
    p.movers[i].used = p.movers[i].allowance.inches;
    p.movers[i].moved = true;
    p.movers[i].forward += d;
    p.place(i, end);
    p.state.units[i].rules.disordered = true;
    p.record.charges.push(ChargeMade {
        attacker: id.clone(),
        targets: Vec::new(),
        contacted: false,
        bonus_used: true,
        from: *start,
    });
    p.event_naming(
        Kind::ChargeFails,
        &[&id],
        &[&tid],
        format!(
            "{name} charges {inches} toward {tname} but fails to make contact, and is disordered (Steadiness and Disorder, 5).",
            inches = inches(d)
        ),
    );
    let why = because(&charge_slowings(p, i, through, true));
    p.not_done(
        &id,
        format!(
            "cannot charge: {tname} is not reached straight ahead within {} with the charge bonus ({MOVEMENT_TABLE}{why}); the charge would run {} and fall short, and the charger be disordered (Steadiness and Disorder, 5)",
            inches(reach),
            inches(d)
        ),
        None,
        vec![tid.clone()],
    );
    // It may stop among friendly skirmishers, which it passes through
    // freely (STC-44).
    p.settle(i);
}

/// Disorder on contact: "Infantry not in square contacted by steady enemy
/// cavalry" (Steadiness and Disorder, 2), and Charging, rule 6: "Infantry
/// that charges cavalry becomes disordered the same as if it has been
/// charged by the cavalry."
fn contact_disorder(p: &mut Phase, i: usize, targets: &[String]) {
    let u = p.state.units[i].clone();
    let charger_arm = u.rules.troop_type.arm();
    for tid in targets {
        let Some(t) = p.field.index(tid) else {
            continue;
        };
        let tu = p.state.units[t].clone();
        let target_arm = tu.rules.troop_type.arm();
        if charger_arm == Arm::Cavalry
            && steady(&u)
            && target_arm == Arm::Infantry
            && !matches!(tu.rules.formation, Formation::Square | Formation::Masse)
            && !tu.rules.disordered
        {
            // Prussia pre-1810: "Steady Prussian troops in line do not become
            // disordered if contacted by enemy cavalry."
            let prussian = nation_of(p.state, &tu.side) == Some(Nation::PrussiaPre1810)
                && steady(&tu)
                && tu.rules.formation == Formation::Line;
            if !prussian {
                p.state.units[t].rules.disordered = true;
                p.event(
                    Kind::Disordered,
                    &[tid],
                    format!(
                        "{} is contacted by steady cavalry and is disordered (Steadiness and Disorder, 2).",
                        tu.name
                    ),
                );
            }
        }
        if charger_arm == Arm::Infantry
            && target_arm == Arm::Cavalry
            && !p.state.units[i].rules.disordered
        {
            p.state.units[i].rules.disordered = true;
            p.event(
                Kind::Disordered,
                &[&u.id],
                format!(
                    "{} charged cavalry and is disordered ({CHARGING}, rule 6).",
                    u.name
                ),
            );
        }
    }
}

/// Evading skirmishers: "Evaders move like a retreating unit, but may evade
/// no more than eight inches. The evading troops need not about face, and
/// need evade only far enough to stay one inch away from the enemy troops."
/// They move straight away from the charger's end position, keeping their
/// facing (STC-49). Returns whether they got away.
fn skirmishers_evade(p: &mut Phase, t: usize, charger: &Rect) -> bool {
    let Some(start) = p.field.rect(t) else {
        return false;
    };
    let side = p.state.units[t].side.clone();
    let (tid, tname) = (p.id(t), p.name(t));
    let mut d = 25;
    while d <= EVADE_MOST {
        if let Some(v) = direction_away(charger.centre(), start.centre(), d) {
            let end = Rect {
                front_centre: Point {
                    x: start.front_centre.x + v.x,
                    y: start.front_centre.y + v.y,
                },
                ..start
            };
            let clear_of_charger = rect_distance(&end, charger) >= 100;
            let enemies_clear = p
                .field
                .enemies_near(&side, bounds(&end), 0)
                .into_iter()
                .all(|j| p.field.rect(j).is_none_or(|r| !end.overlaps(&r)));
            let lands = p.field.overlapping(&end, &[t]).is_empty();
            let on = p
                .field
                .table()
                .is_none_or(|(w, dd)| end.is_inside_table(w, dd));
            let (others, rects) =
                p.field
                    .rects_near_except(box_of(&start, &end), ZONE_OF_CONTROL, &[t]);
            let way_blocked = geometry::straight_move_hits(&start, end.front_centre, &rects)
                .into_iter()
                .any(|k| p.state.units[others[k]].side != side);
            if clear_of_charger && enemies_clear && lands && on && !way_blocked {
                p.place(t, end);
                p.record.evaded.insert(tid.clone());
                p.event(
                    Kind::Evade,
                    &[&tid],
                    format!(
                        "{tname} evades {} to {},{}.",
                        inches(d),
                        super::movement::coord(end.front_centre.x),
                        super::movement::coord(end.front_centre.y)
                    ),
                );
                return true;
            }
        }
        d += 25;
    }
    p.event(
        Kind::EvadeFails,
        &[&tid],
        format!("{tname} has no room to evade within 8\" and is caught."),
    );
    false
}

/// Gunners evading: "Gunners abandon their guns when they evade. Gunners may
/// evade into a friendly square within the arc of their evasion, or which is
/// within two inches of them." Returns whether they got away.
fn gunners_evade(p: &mut Phase, t: usize, charger: &Rect, square: Option<usize>) -> bool {
    let Some(guns) = p.field.rect(t) else {
        return false;
    };
    let (tid, tname) = (p.id(t), p.name(t));
    if let Some(s) = square
        && let Some(sq) = p.field.rect(s)
        && rect_distance(&guns, &sq) <= 200
    {
        let at = sq.centre();
        p.state.units[t].rules.status.gunners_at = Some(at);
        p.record.evaded.insert(tid.clone());
        let (sid, sname) = (p.id(s), p.name(s));
        p.event_naming(
            Kind::GunnersEvade,
            &[&tid],
            &[&sid],
            format!(
                "The gunners of {tname} abandon their guns and evade into the square of {sname}."
            ),
        );
        return true;
    }
    let from = guns.centre();
    let side = p.state.units[t].side.clone();
    let mut d = 25;
    while d <= EVADE_MOST {
        if let Some(v) = direction_away(charger.centre(), from, d) {
            let q = Point {
                x: from.x + v.x,
                y: from.y + v.y,
            };
            let clear = p.field.clear_of_enemies(&side, q, 100)
                && geometry::distance_to_rect(q, charger) >= 100
                && geometry::distance_to_rect(q, &guns) > 0;
            if clear {
                p.state.units[t].rules.status.gunners_at = Some(q);
                p.record.evaded.insert(tid.clone());
                p.event(
                    Kind::GunnersEvade,
                    &[&tid],
                    format!(
                        "The gunners of {tname} abandon their guns and evade {} to {},{}.",
                        inches(d),
                        super::movement::coord(q.x),
                        super::movement::coord(q.y)
                    ),
                );
                return true;
            }
        }
        d += 25;
    }
    p.event(
        Kind::GunnersEvadeFail,
        &[&tid],
        format!("The gunners of {tname} have no room to evade within 8\" and stay with the guns."),
    );
    false
}

/// Reinforcing a combat: the unit charges straight ahead into contact with
/// the friend (its rear, as the order is given) and fights alongside it
/// (STC-50).
pub fn reinforce(p: &mut Phase, i: usize, f: usize) {
    let what = "reinforce";
    let (Some(start), Some(friend)) = (p.field.rect(i), p.field.rect(f)) else {
        return;
    };
    if p.movers[i].moved || p.movers[i].used > 0 {
        p.impossible(i, what, "it has already moved or maneuvered this turn");
        return;
    }
    let u = p.state.units[i].clone();
    let normal = (p.movers[i].allowance.inches - p.movers[i].used).max(0);
    let mut bonus = rates(u.rules.troop_type, nation_of(p.state, &u.side))
        .and_then(|r| r.charge)
        .unwrap_or(0);
    if !p.movers[i].in_command {
        bonus /= 2;
    }
    let Some(plan) = straight(p, i, &start, &friend, normal + bonus) else {
        let fname = p.name(f);
        p.impossible_naming(
            i,
            what,
            &format!("{fname} is not straight ahead within reach"),
            &[f],
        );
        return;
    };
    if let Some(&j) = in_the_way(p, i, &start, &plan.steps, f).first() {
        let other = p.name(j);
        p.impossible_naming(i, what, &format!("{other} stands in the way"), &[j]);
        return;
    }
    finish_move(p, i, &plan, &[]);
    let (id, name, fid, fname) = (p.id(i), p.name(i), p.id(f), p.name(f));
    p.record.reinforcements.push((id.clone(), fid.clone()));
    p.event(
        Kind::Reinforce,
        &[&id, &fid],
        format!("{name} charges up behind {fname} to reinforce its combat."),
    );
}
