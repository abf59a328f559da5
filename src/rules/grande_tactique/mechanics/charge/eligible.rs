//! Who may charge whom, and what it costs: "Only eager cavalry and eager
//! infantry not in square and not firing can charge." "You can charge if
//! already in contact and not firing (spending 1 PIP), or you can move to
//! contact (spending 1 PIP) and then charge (spending an additional PIP)."
//! Each refusal quotes the sentence that forbids it.

use super::super::super::clauses;
use super::super::super::field::Field;
use super::super::super::state::{Arm, Formation, Morale};
use super::contact::{self, Approach, NoWay};
use crate::geometry::distance_ahead_of_frontage_line;
use crate::rules::words::inches;

pub use crate::rules::refusal::Refusal;

/// A refusal quoting the sentence of the Charging chapter that forbids it.
fn charging(problem: impl Into<String>, sentence: &str) -> Refusal {
    Refusal::quoting(problem, "Charging", sentence)
}

/// Whether unit `i` may charge at all; `firing` says whether it is firing
/// (its order sheet may have told it to cease fire).
pub fn may_charge(field: &Field, i: usize, firing: bool) -> Result<(), Refusal> {
    let u = field.unit(i);
    if u.eliminated.is_some() {
        return Err(charging(
            "it is no longer on the field",
            clauses::ONLY_EAGER,
        ));
    }
    match field.arm(i) {
        Arm::Artillery => {
            return Err(charging(
                "artillery cannot charge",
                clauses::ARTILLERY_CANNOT,
            ));
        }
        Arm::Infantry if u.rules.formation == Formation::Square => {
            return Err(charging("it is in square", clauses::SQUARES_CANNOT));
        }
        _ => {}
    }
    match u.rules.morale {
        Morale::Shaken => return Err(charging("it is shaken", clauses::SHAKEN_CANNOT)),
        Morale::Routed => return Err(charging("it is routed, not eager", clauses::ONLY_EAGER)),
        Morale::Eager => {}
    }
    if firing && field.arm(i) == Arm::Infantry {
        return Err(charging(
            "it is firing (order `cease fire` first)",
            clauses::FIRING_CANNOT,
        ));
    }
    Ok(())
}

/// Whether `t` is a target `i` may charge: an enemy in play, some part of
/// it ahead of `i`'s front (ruling GT-11).
pub fn may_be_charged(field: &Field, i: usize, t: usize) -> Result<(), Refusal> {
    if !field.enemies(i, t) {
        return Err(Refusal::ruling("it is not an enemy unit", "GT-11"));
    }
    if !field.in_play(t) {
        return Err(Refusal::ruling("it is no longer on the field", "GT-11"));
    }
    let (Some(a), Some(r)) = (field.rect(i), field.rect(t)) else {
        return Err(Refusal::ruling("it is not on the table", "GT-11"));
    };
    if !field.in_contact(i, t)
        && r.corners()
            .iter()
            .all(|&c| distance_ahead_of_frontage_line(&a, c) <= 0)
    {
        return Err(Refusal::ruling(
            "no part of it lies to the charger's front",
            "GT-11",
        ));
    }
    Ok(())
}

/// The PIPs a charge by `i` on `t` costs, and its way to contact when it
/// must move: 1 in contact, 2 when it moves to contact first.
pub fn cost(field: &Field, i: usize, t: usize) -> Result<(u32, Approach), Refusal> {
    let allowance = field.allowance(i);
    match contact::approach(field, i, t, Some(allowance)) {
        Ok(way) if way.side.is_none() => Ok((1, way)),
        Ok(way) => Ok((2, way)),
        Err(NoWay::OutOfReach {
            needs,
            has,
            around: true,
        }) => Err(charging(
            format!(
                "it may not charge through the Built-Up Area, and the way round it to {} is {} inches; it moves {}",
                field.name(t),
                inches(needs),
                inches(has)
            ),
            clauses::BUA,
        )),
        Err(NoWay::OutOfReach { needs, has, .. }) => Err(Refusal::ruling(
            format!(
                "it cannot reach {}: the way to contact is {} inches and it moves {}",
                field.name(t),
                inches(needs),
                inches(has)
            ),
            "GT-11",
        )),
        Err(NoWay::ThroughBuiltUpArea) => Err(charging(
            format!(
                "it finds no way round the Built-Up Area to {}",
                field.name(t)
            ),
            clauses::BUA,
        )),
        Err(NoWay::Blocked { by }) => Err(Refusal::ruling(
            match by {
                Some(b) => format!("{} stands in the way to {}", field.name(b), field.name(t)),
                None => format!("there is no room against {}", field.name(t)),
            },
            "GT-11",
        )),
    }
}
