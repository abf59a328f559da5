//! What a Kulikovo scenario sets up: each unit's weapon system, its Shock
//! DRM and the state it begins in; the nations whose modifier the text
//! names.

use super::state::{KulUnit, Weapon};
use crate::rules::setup::{Keys, SetupContext, UnitBasics};

/// The weapon systems, as the counters print them.
pub const WEAPONS: &[&str] = &["H", "M", "L", "R", "C", "B"];

/// A unit's Shock DRM as a scenario writes it.
pub const SHOCK_DRMS: &[&str] = &["-3", "-2", "-1", "0", "+1", "+2", "+3"];

/// The states a unit may begin in.
pub const CONDITIONS: &[&str] = &["normal", "disordered", "retired"];

/// "+1 Russian Heavy Cavalry stacked with Leader when Attacking": the
/// Russians, and the Golden Horde they fought.
pub const NATIONS: &[&str] = &["russian", "horde"];

/// Reads a unit's Kulikovo keys.
pub fn setup_unit(
    _basics: UnitBasics<'_>,
    keys: &mut dyn Keys,
    _context: &SetupContext<'_>,
) -> Option<KulUnit> {
    let weapon = keys
        .word("weapon", WEAPONS, "weapon system")
        .and_then(|w| Weapon::from_letter(&w));
    let shock = keys.optional_word("shock_drm", SHOCK_DRMS, "shock DRM");
    let condition = keys.optional_word("condition", CONDITIONS, "condition");
    let shock_drm = match shock? {
        Some(w) => w.trim_start_matches('+').parse::<i32>().ok()?,
        None => 0,
    };
    let condition = condition?;
    Some(KulUnit {
        weapon: weapon?,
        shock_drm,
        disordered: condition.as_deref() == Some("disordered"),
        retired: condition.as_deref() == Some("retired"),
        upset_turn: 0,
    })
}
