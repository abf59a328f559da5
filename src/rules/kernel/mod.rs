//! Pieces every ruleset's tables are made of: modifiers that add, with
//! their reasons (here); "score X or more on a die" bands (here); results
//! tables read by a modified roll, open at either end (`die_table`); and
//! modifiers that multiply, on exact fractions rounded where a ruling says
//! (`fraction`).

mod die_table;
mod fraction;

use serde::{Deserialize, Serialize};

pub use die_table::{Band, DieTable, DieTableError};
pub use fraction::{Exact, Factor, Ratio, percent_rounded_up_each, percent_rounded_up_once};

/// One modifier applied to a roll or to a total, with the rule that gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    /// The rule's own words, e.g. `Each hit suffered by shooting this turn`.
    pub reason: String,
    pub value: i32,
}

impl Modifier {
    pub fn new(reason: impl Into<String>, value: i32) -> Modifier {
        Modifier {
            reason: reason.into(),
            value,
        }
    }
}

/// The sum of a list of modifiers.
pub fn total(modifiers: &[Modifier]) -> i32 {
    modifiers.iter().map(|m| m.value).sum()
}

/// A die roll that passes when the modified score is at least `needed`. The
/// rules write this as a range, `2-6`; `0-6` means only a modifier can fail
/// it, a need above 6 means no score can pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreBand {
    pub needed: i32,
}

impl ScoreBand {
    pub fn passes(self, modified_score: i32) -> bool {
        modified_score >= self.needed
    }

    /// The band as the rules print it for a d6: `3-6`, `6`, `0-6`, `none`.
    pub fn d6_text(self) -> String {
        match self.needed {
            n if n > 6 => "none".to_string(),
            6 => "6".to_string(),
            n => format!("{n}-6"),
        }
    }
}
