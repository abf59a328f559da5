//! What a Grande Tactique scenario may set up: the troop types, formations,
//! morale states, marks, options and terrain kinds, and which of them go
//! together.

use super::clauses;
use super::state::{Formation, GtUnit, Morale, TroopType, Unit};
use crate::rules::setup::{Keys, SetupContext, UnitBasics};

/// The troop types the chapter names.
pub const TROOP_TYPES: &[&str] = &["infantry", "cavalry", "cuirassiers", "lancers", "artillery"];

pub const FORMATIONS: &[&str] = &["line", "column", "square"];

pub const MORALE: &[&str] = &["eager", "shaken", "routed"];

/// Marks the rules read: a veteran unit ("Veteran troops receive a +1"), a
/// unit that begins the game firing. Any other word is the campaign's own
/// mark, for its morale bonuses and penalties.
pub const VETERAN: &str = "veteran";
pub const FIRING: &str = "firing";

/// Options a campaign may switch on where players could read the chapter
/// differently (docs/RULINGS.md).
pub const OPTIONS: &[&str] = &[ATTACKER_TURNS_TO_FACE, CUIRASSIER_BONUS_IN_FOLLOW_UPS];

/// GT-12: "if there is only one attacker, they also turn to face": the
/// defenders turn, unless this option makes it the attacker.
pub const ATTACKER_TURNS_TO_FACE: &str = "attacker-turns-to-face";

/// GT-14: the cuirassiers' bonus "does not apply to Morale Checks when
/// attempting to perform a follow-up charge": by default neither to the
/// check that decides the follow-up nor to the follow-up charge's own
/// check; this option gives it to the latter.
pub const CUIRASSIER_BONUS_IN_FOLLOW_UPS: &str = "cuirassier-bonus-in-follow-up-charges";

/// Terrain the chapter names (woods, Built-Up Areas, linear terrain
/// features) and a few kinds that only look.
pub const TERRAIN_KINDS: &[&str] = &[
    WOODS,
    BUILT_UP_AREA,
    "hedge",
    "wall",
    "stream",
    "hill",
    "road",
];
pub const WOODS: &str = "woods";
pub const BUILT_UP_AREA: &str = "built-up-area";
/// "a linear terrain feature".
pub const LINEAR_FEATURES: &[&str] = &["hedge", "wall", "stream"];

/// Reads Grande Tactique's keys of one unit.
pub fn setup_unit(
    unit: UnitBasics<'_>,
    keys: &mut dyn Keys,
    _context: &SetupContext<'_>,
) -> Option<GtUnit> {
    let troop = keys.word("troop_type", TROOP_TYPES, "troop type");
    let command = keys.word("command", &[], "command");
    let formation = keys.optional_word("formation", FORMATIONS, "formation");
    let morale = keys.optional_word("morale", MORALE, "morale");
    let marks = keys.words("marks", &[], "mark");
    let troop = TroopType::from_word(&troop?)?;
    let formation = formation?
        .as_deref()
        .map_or(Some(Formation::Line), Formation::from_word)?;
    let morale = morale?
        .as_deref()
        .map_or(Some(Morale::Eager), Morale::from_word)?;
    let command = command?;
    if !is_id(&command) {
        keys.problem(
            "command",
            format!("command `{command}` is not an id (lower-case letters, digits and `-`)"),
            None,
        );
        return None;
    }
    let mut marks = marks?;
    let veteran = take(&mut marks, VETERAN);
    let firing = take(&mut marks, FIRING);
    let part = GtUnit {
        troop_type: troop,
        command,
        formation,
        morale,
        veteran,
        firing,
        marks,
        charges_made: 0,
        charged: Vec::new(),
    };
    if let Err((key, why, clause)) = fits(&part) {
        keys.problem(key, format!("unit `{}`: {why}", unit.id), Some(clause));
        return None;
    }
    Some(part)
}

fn is_id(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

fn take(marks: &mut Vec<String>, word: &str) -> bool {
    let had = marks.iter().any(|m| m == word);
    marks.retain(|m| m != word);
    had
}

/// What keeps a unit's part from standing: the key at fault, why, and the
/// clause.
fn fits(part: &GtUnit) -> Result<(), (&'static str, String, &'static str)> {
    if part.formation == Formation::Square && part.troop_type != TroopType::Infantry {
        return Err((
            "formation",
            format!("{} cannot form square", part.troop_type),
            clauses::SQUARE_INFANTRY_ONLY,
        ));
    }
    if part.firing && part.troop_type.arm() == super::state::Arm::Cavalry {
        return Err((
            "marks",
            "cavalry does not fire".to_string(),
            clauses::DEFENDERS_START_FIRING,
        ));
    }
    Ok(())
}

/// What keeps a unit, as a GM's correction left it, from standing.
pub fn check_corrected(unit: &Unit) -> Result<(), String> {
    fits(&unit.rules).map_err(|(_, why, clause)| format!("{why} ({clause})"))
}
