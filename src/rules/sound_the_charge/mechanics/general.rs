//! The dice of Generals: "If a general is attached to a unit that suffers
//! two or more shooting or close combat hits, roll a die: On a '1' the
//! general is killed/disabled and removed from play. If a lone general is
//! contacted by an enemy unit, roll a die: On a '1' the general is captured;
//! otherwise he may be moved up to nine inches out of harm's way."

use serde::Serialize;

use super::super::umpire::syntax::{FlagWord, KeyWord, Lexicon, tokens};
use crate::audit::dice::{Dice, Die};
use crate::rules::umpire::UmpireError;
use crate::rules::umpire::{Called, Trace, forbidden};

pub(in super::super) static LEXICON: Lexicon = Lexicon {
    call: "general",
    keys: &[KeyWord {
        name: "hits",
        hint: "<hits the unit suffered>",
        aliases: &["hit"],
    }],
    flags: &[FlagWord {
        name: "contacted",
        aliases: &["lone", "lone-general-contacted", "contacted-by-enemy"],
    }],
    fillers: &["general", "general-risk", "risk", "attached"],
    kinds: false,
    bare: std::marker::PhantomData,
    formations: false,
    count: None,
};

/// Which of the two rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GeneralCall {
    /// Attached to a unit that suffered this many shooting or combat hits.
    UnitHit(u32),
    /// A lone general contacted by an enemy unit.
    Contacted,
}

/// What the die said.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GeneralResult {
    pub roll: u32,
    /// Killed/disabled, or captured: removed from play.
    pub lost: bool,
}

impl GeneralCall {
    pub fn parse(text: &str) -> Result<GeneralCall, UmpireError> {
        let r = LEXICON.read(text, &tokens(text), None)?;
        let hits = r.number_value("hits")?;
        match (hits, r.has("contacted")) {
            (Some(h), false) => Ok(GeneralCall::UnitHit(h)),
            (None, true) => Ok(GeneralCall::Contacted),
            _ => Err(r.syntax(
                "write `general hits <n>` (attached to a unit that was hit) or `general contacted` (a lone general)",
            )),
        }
    }

    pub fn canonical(&self) -> String {
        match self {
            GeneralCall::UnitHit(h) => format!("general hits {h}"),
            GeneralCall::Contacted => "general contacted".to_string(),
        }
    }
}

/// Rolls for a general.
pub fn resolve(
    call: &GeneralCall,
    dice: &mut dyn Dice,
) -> Result<Called<GeneralResult>, UmpireError> {
    let mut trace = Trace::default();
    let (purpose, lost_text, safe_text) = match *call {
        GeneralCall::UnitHit(h) if h < 2 => {
            return Err(forbidden(
                "no roll: the general's unit suffered fewer than two hits",
                "Generals",
                "If a general is attached to a unit that suffers two or more shooting or close combat hits, roll a die",
            ));
        }
        GeneralCall::UnitHit(h) => (
            format!("general: attached to a unit that suffered {h} hits"),
            "On a '1' the general is killed/disabled and removed from play.",
            "The general is unhurt.",
        ),
        GeneralCall::Contacted => (
            "general: lone general contacted by an enemy unit".to_string(),
            "On a '1' the general is captured.",
            "The general escapes: he may be moved up to nine inches out of harm's way.",
        ),
    };
    let roll = trace.roll(dice, Die::D6, &purpose);
    let lost = roll == 1;
    trace.outcome = format!(
        "Rolled {roll}. {}",
        if lost { lost_text } else { safe_text }
    );
    Ok(trace.finish(call.canonical(), GeneralResult { roll, lost }))
}
