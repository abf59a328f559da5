//! Maneuvers: formation and facing changes, what they cost by the unit's
//! grade and steadiness, and carrying one out.

use super::*;
use crate::rules::sound_the_charge::events::Kind;

/// A grade as a number, A = 0 .. D = 3.
pub(super) fn grade_rank(grade: Grade) -> u32 {
    match grade {
        Grade::A => 0,
        Grade::B => 1,
        Grade::C => 2,
        Grade::D => 3,
    }
}

/// The grade a unit maneuvers as: "France, Switzerland: All troops maneuver
/// as if one grade higher."
pub(super) fn maneuver_grade(state: &State, u: &Unit) -> u32 {
    let g = grade_rank(u.rules.grade);
    match nation_of(state, &u.side) {
        Some(Nation::France) => g.saturating_sub(1),
        _ => g,
    }
}

/// How much of a turn a formation or facing change costs, in halves (1 =
/// half a turn, 2 = the whole turn), and whether it disorders the unit.
/// Maneuvers: "½ move for steady A-B, 1 move for steady C, 1 move plus
/// disorder for D"; "Limbering and unlimbering takes half a move"; Austria:
/// "Infantry in column may take half a turn to form or reform from
/// battalion-masse."
pub fn maneuver_cost(state: &State, u: &Unit, to: Formation) -> (u32, bool) {
    let grade = maneuver_grade(state, u);
    let disorders = grade >= 3;
    let masse = to == Formation::Masse || u.rules.formation == Formation::Masse;
    if matches!(to, Formation::Limbered | Formation::Unlimbered) || masse {
        return (1, disorders);
    }
    if steady(u) && grade <= 1 {
        (1, disorders)
    } else {
        (2, disorders)
    }
}

/// Skirmishers facing: "Skirmishing figures may move and face freely in any
/// direction each turn" (Skirmish Movement). The turn about the front
/// centre costs nothing of the move and is no maneuver: it is not the one
/// formation/facing change of the turn, and it neither disorders nor pins
/// (ruling STC-102).
fn face_freely(p: &mut Phase, i: usize, c: Facing) {
    let what = "face";
    let mut spec = p.state.units[i].clone();
    let turn = match c {
        Facing::Left => FacingChange::Left,
        Facing::Right => FacingChange::Right,
        Facing::About => FacingChange::About,
    };
    spec.facing = (spec.facing + turn.degrees()) % 360;
    let Some(rect) = basing::footprint(&spec) else {
        p.impossible(i, what, "the formation has no footprint");
        return;
    };
    if let Some((w, d)) = p.field.table()
        && !rect.is_inside_table(w, d)
    {
        p.impossible(i, what, "the unit would not fit on the table facing so");
        return;
    }
    if let Some(&j) = p.field.overlapping(&rect, &[i]).first() {
        let other = p.name(j);
        p.impossible_naming(
            i,
            what,
            &format!("facing so it would run into {other}"),
            &[j],
        );
        return;
    }
    p.state.units[i].facing = spec.facing;
    p.place(i, rect);
    let (id, name) = (p.id(i), p.name(i));
    p.event(
        Kind::Maneuver,
        &[&id],
        format!(
            "{name} faces {} (Skirmish Movement: \"Skirmishing figures may move and face freely in any direction each turn\").",
            spec.facing
        ),
    );
}

/// A formation and/or facing change about the front centre.
pub fn maneuver(p: &mut Phase, i: usize, formation: Option<Formation>, facing: Option<Facing>) {
    let what = "change formation or facing";
    if let (None, Some(c)) = (formation, facing)
        && p.state.units[i].rules.formation == Formation::Skirmish
    {
        face_freely(p, i, c);
        return;
    }
    if p.movers[i].maneuvered {
        p.impossible(
            i,
            what,
            "\"Only one formation/facing change per turn is allowed\" (Maneuvers)",
        );
        return;
    }
    let u = p.state.units[i].clone();
    let (halves, disorders) = match formation {
        Some(f) => maneuver_cost(p.state, &u, f),
        None => {
            let (h, d) = maneuver_cost(p.state, &u, Formation::Line);
            (h.max(1), d)
        }
    };
    let cost = p.movers[i].allowance.inches * Hundredths::from(halves) / 2;
    if halves == 2 && p.movers[i].used > 0
        || p.movers[i].used + cost > p.movers[i].allowance.inches && halves == 1
    {
        let whole = (halves == 2)
            .then(|| whole_turn_change(p.state, &u).map(Slowing::WholeTurnChange))
            .flatten();
        let why = because(p.movers[i].allowance.reductions.iter().chain(&whole));
        p.impossible(
            i,
            what,
            &format!("it has not the time left this turn (Maneuvers: \"½ move for steady A-B, 1 move for steady C, 1 move plus disorder for D\"){why}"),
        );
        return;
    }
    let mut spec = u.clone();
    if let Some(f) = formation {
        spec.rules.formation = f;
    }
    if let Some(c) = facing {
        let turn = match c {
            Facing::Left => FacingChange::Left,
            Facing::Right => FacingChange::Right,
            Facing::About => FacingChange::About,
        };
        spec.facing = (spec.facing + turn.degrees()) % 360;
    }
    let Some(rect) = basing::footprint(&spec) else {
        p.impossible(i, what, "the formation has no footprint");
        return;
    };
    if let Some((w, d)) = p.field.table()
        && !rect.is_inside_table(w, d)
    {
        p.impossible(i, what, "the new formation would not fit on the table");
        return;
    }
    let hit = p.field.overlapping(&rect, &[i]);
    if let Some(&j) = hit.first() {
        let other = p.name(j);
        p.impossible_naming(
            i,
            what,
            &format!("the new formation would run into {other}"),
            &[j],
        );
        return;
    }
    p.movers[i].used = (p.movers[i].used + cost).max(if halves == 2 {
        p.movers[i].allowance.inches
    } else {
        0
    });
    p.movers[i].maneuvered = true;
    // The rest of the turn is at the new formation's rate (STC-54): the
    // share of the turn used is kept, the allowance is the new one.
    let old_allowance = p.movers[i].allowance.inches;
    let mut changed = p.state.clone();
    changed.units[i].rules.formation = spec.rules.formation;
    let mut fresh = turn_allowance(&changed, &p.field, i, p.movers[i].in_command);
    if old_allowance > 0 {
        p.movers[i].used = p.movers[i].used * fresh.inches / old_allowance;
    }
    fresh.reductions.push(Slowing::Maneuvered {
        halves,
        why: (halves == 2)
            .then(|| whole_turn_change(p.state, &u))
            .flatten(),
    });
    p.movers[i].allowance = fresh;
    p.record.maneuvered.insert(u.id.clone());
    p.state.units[i].rules.formation = spec.rules.formation;
    p.state.units[i].facing = spec.facing;
    p.place(i, rect);
    let (id, name) = (p.id(i), p.name(i));
    let time = if halves == 1 {
        "half a turn"
    } else {
        "the whole turn"
    };
    p.event(
        Kind::Maneuver,
        &[&id],
        format!(
            "{name} forms {} facing {} ({time}).",
            spec.rules.formation, spec.facing
        ),
    );
    maneuver_effects(p, i, u.rules.disordered, disorders, &rect);
}

/// What a maneuver does to the unit that made it: disorder or shaken by
/// its grade and state (Maneuvers), and shaken near the enemy (Pinning).
fn maneuver_effects(p: &mut Phase, i: usize, was_disordered: bool, disorders: bool, rect: &Rect) {
    let (id, name) = (p.id(i), p.name(i));
    // "The unit becomes disordered if it is Grade D. The unit becomes shaken
    // if already disordered."
    if was_disordered {
        p.state.units[i].rules.shaken = true;
        p.event(
            Kind::Shaken,
            &[&id],
            format!("{name} maneuvered while disordered and is shaken (Maneuvers)."),
        );
    } else if disorders {
        p.state.units[i].rules.disordered = true;
        p.event(
            Kind::Disordered,
            &[&id],
            format!("{name} is Grade D and is disordered by the maneuver (Maneuvers)."),
        );
    }
    // Pinning: "If a unit performs any maneuver other than a wheel within 4
    // inches of any enemy unit, the maneuvering unit becomes shaken at
    // once."
    if super::super::fighting::option(p.state, "pinning") {
        let side = p.state.units[i].side.clone();
        let near = p
            .field
            .enemies_near(&side, bounds(rect), PINNING_RANGE)
            .into_iter()
            .any(|j| {
                p.field
                    .rect(j)
                    .is_some_and(|r| geometry::rect_is_within(rect, &r, PINNING_RANGE))
            });
        if near && !p.state.units[i].rules.shaken {
            p.state.units[i].rules.shaken = true;
            p.event(
                Kind::Shaken,
                &[&id],
                format!("{name} maneuvered within 4\" of the enemy and is shaken (Optional Rules, Pinning)."),
            );
        }
    }
}
