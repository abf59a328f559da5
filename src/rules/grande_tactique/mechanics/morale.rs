//! The Morale Check. The chapter calls for it at every step ("First roll a
//! Morale Check for the attackers; then, if they pass, roll a Morale Check
//! for the defenders") and does not contain it: ruling GT-3 reads it as the
//! rest of the rules' examples do, one d6 that passes on the campaign's
//! `morale_check_needs` (4 by default) or more once modified. The modifiers
//! the chapter names are its own; those it leaves out are the campaign's
//! parameters.

use serde::Serialize;

use super::super::field::{Cover, Field};
use super::super::params::Params;
use super::super::state::{Morale, Unit};
use crate::audit::dice::{Dice, Die};
use crate::rules::kernel::{Modifier, total};
use crate::rules::umpire::Trace;

/// One Morale Check, as it was rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    pub roll: u32,
    pub modifiers: Vec<Modifier>,
    pub total: i32,
    pub needs: u32,
    pub passed: bool,
}

impl Check {
    /// `4 +1 (veteran) -1 (shaken) = 4, needing 4: passed`.
    pub fn sentence(&self) -> String {
        let mods: String = self
            .modifiers
            .iter()
            .map(|m| format!(" {:+} ({})", m.value, m.reason))
            .collect();
        format!(
            "{}{mods} = {}, needing {}: {}",
            self.roll,
            self.total,
            self.needs,
            if self.passed { "passed" } else { "failed" }
        )
    }
}

/// Rolls one Morale Check for `who`, for `what` (the roll's purpose in the
/// roll log and the report), with these modifiers (none of value 0).
pub fn roll(
    trace: &mut Trace,
    dice: &mut dyn Dice,
    params: &Params,
    who: &str,
    what: &str,
    modifiers: Vec<Modifier>,
) -> Check {
    let needs = params.morale_check_needs;
    trace.lookup(
        "Morale Check (ruling GT-3)",
        format!("{who}, {what}"),
        format!("one d6 needing {needs}+ once modified"),
    );
    let modifiers: Vec<Modifier> = modifiers.into_iter().filter(|m| m.value != 0).collect();
    for m in &modifiers {
        trace.modifier(m);
    }
    let roll = trace.roll(dice, Die::D6, &format!("Morale Check: {who}, {what}"));
    let total = i32::try_from(roll).unwrap_or(0) + total(&modifiers);
    let passed = total >= i32::try_from(needs).unwrap_or(i32::MAX);
    let check = Check {
        roll,
        modifiers,
        total,
        needs,
        passed,
    };
    trace.note(format!("{who}: {}", check.sentence()));
    check
}

fn signed(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// What a unit brings to every Morale Check it takes (GT-3): shaken (or
/// routed), veteran, and the campaign's marks.
pub fn standing(unit: &Unit, params: &Params) -> Vec<Modifier> {
    let mut out = Vec::new();
    match unit.rules.morale {
        Morale::Shaken => out.push(Modifier::new("shaken", -signed(params.shaken_penalty))),
        Morale::Routed => out.push(Modifier::new("routed", -signed(params.shaken_penalty))),
        Morale::Eager => {}
    }
    if unit.rules.veteran {
        out.push(Modifier::new("veteran", signed(params.veteran_bonus)));
    }
    for mark in &unit.rules.marks {
        if let Some(&b) = params.morale_bonus.get(mark) {
            out.push(Modifier::new(mark.clone(), signed(b)));
        }
        if let Some(&p) = params.morale_penalty.get(mark) {
            out.push(Modifier::new(mark.clone(), -signed(p)));
        }
    }
    out
}

/// The cover a unit stands in, for its check when it is charged or fired
/// on (GT-3).
pub fn cover(field: &Field, i: usize) -> Option<Modifier> {
    let rect = field.rect(i)?;
    let p = field.params();
    match field.cover_at(&rect)? {
        Cover::BuiltUpArea => Some(Modifier::new(
            "in a Built-Up Area",
            signed(p.built_up_area_bonus),
        )),
        Cover::Woods => Some(Modifier::new("in woods", signed(p.woods_bonus))),
    }
}

/// A check with no unit behind it: for the umpire call that names its
/// modifiers.
pub fn bonus(reason: &str, value: u32) -> Modifier {
    Modifier::new(reason, signed(value))
}

pub fn penalty(reason: &str, value: u32) -> Modifier {
    Modifier::new(reason, -signed(value))
}
