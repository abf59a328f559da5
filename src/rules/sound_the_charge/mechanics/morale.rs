//! The Morale Test if Hit by Shooting.

use serde::Serialize;

use super::super::tables::{self, Arm, Grade, Nation, TableFormation, Troop, morale};
use super::super::umpire::syntax::{
    FlagWord, GRADE_KEY, KeyWord, Lexicon, NATION_KEY, Reading, WIDER_BASING_FLAG, push_flags,
    tokens,
};
use super::super::umpire::{describe, grade_of, in_prose, nation_of};
use crate::audit::dice::{Dice, Die};
use crate::rules::kernel::{Modifier, total};
use crate::rules::umpire::UmpireError;
use crate::rules::umpire::{Called, Trace, forbidden};

pub(in super::super) static LEXICON: Lexicon = Lexicon {
    call: "morale",
    keys: &[
        GRADE_KEY,
        KeyWord {
            name: "hits",
            hint: "<shooting hits this turn>",
            aliases: &["hit"],
        },
        NATION_KEY,
    ],
    flags: &[
        FlagWord {
            name: "shaken",
            aliases: &[],
        },
        FlagWord {
            name: "general-attached",
            aliases: &["general", "with-general", "attached-general"],
        },
        FlagWord {
            name: "no-general",
            aliases: &["no-general-in-cr", "out-of-command", "no-cr"],
        },
        FlagWord {
            name: "advanced",
            aliases: &["advanced-full-speed", "advancing"],
        },
        FlagWord {
            name: "stationary",
            aliases: &["stood", "stood-still"],
        },
        FlagWord {
            name: "in-cover",
            aliases: &["cover", "not-in-open"],
        },
        WIDER_BASING_FLAG,
    ],
    fillers: &[
        "morale",
        "shooting-morale",
        "morale-test",
        "test",
        "shooting",
    ],
    kinds: true,
    bare: std::marker::PhantomData,
    formations: true,
    count: None,
};

/// A checked shooting morale test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoraleCall {
    pub troop: Option<Troop>,
    pub grade: Grade,
    /// Every hit the unit suffered by shooting this turn (ruling STC-6).
    pub hits: u32,
    pub nation: Option<Nation>,
    pub formation: Option<TableFormation>,
    pub shaken: bool,
    pub general_attached: bool,
    pub no_general: bool,
    /// It advanced full speed on its most recent move.
    pub advanced: bool,
    /// It stood still on its most recent turn.
    pub stationary: bool,
    /// Not in the open.
    pub in_cover: bool,
    pub wider_basing: bool,
}

/// What the test came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoraleResult {
    pub base_needed: i32,
    pub modifier: i32,
    /// The score the die needs: `base_needed - modifier`.
    pub needed: i32,
    pub roll: u32,
    pub passed: bool,
    pub retreat_inches: u32,
    pub rout_hits: u32,
    /// Whether the unit is shaken after the test.
    pub shaken: bool,
}

impl MoraleCall {
    pub fn parse(text: &str) -> Result<MoraleCall, UmpireError> {
        let r = LEXICON.read(text, &tokens(text), None)?;
        MoraleCall::from_reading(&r)
    }

    fn from_reading(r: &Reading) -> Result<MoraleCall, UmpireError> {
        let grade = grade_of(r)?;
        let Some(hits) = r.number_value("hits")? else {
            return Err(r.syntax("give the hits the unit suffered by shooting this turn: `hits 2`"));
        };
        r.exclusive(&["general-attached", "no-general"])?;
        r.exclusive(&["advanced", "stationary"])?;
        let call = MoraleCall {
            troop: r.kind,
            grade,
            hits,
            nation: nation_of(r)?,
            formation: r.formation,
            shaken: r.has("shaken"),
            general_attached: r.has("general-attached"),
            no_general: r.has("no-general"),
            advanced: r.has("advanced"),
            stationary: r.has("stationary"),
            in_cover: r.has("in-cover"),
            wider_basing: r.has("wider-basing"),
        };
        if call.troop.is_none() {
            if call.wider_basing {
                return Err(r.syntax(
                    "`wider-basing` changes the rout hits of cavalry only: name the troop type (infantry, cavalry or artillery)",
                ));
            }
            if let Some((reason, _)) = call.national(true) {
                return Err(r.syntax(format!(
                    "the national modifier \"{reason}\" is for infantry only: name the troop type (infantry, cavalry or artillery)"
                )));
            }
        }
        Ok(call)
    }

    /// The call in canonical form.
    pub fn canonical(&self) -> String {
        let mut w = vec!["morale".to_string()];
        if let Some(t) = self.troop {
            w.push(t.word().to_string());
        }
        w.push(format!("grade {}", self.grade.word()));
        w.push(format!("hits {}", self.hits));
        if let Some(n) = self.nation {
            w.push(format!("nation {}", n.word()));
        }
        if let Some(f) = self.formation {
            w.push(f.word().to_string());
        }
        push_flags(
            &mut w,
            &[
                (self.shaken, "shaken"),
                (self.general_attached, "general-attached"),
                (self.no_general, "no-general"),
                (self.advanced, "advanced"),
                (self.stationary, "stationary"),
                (self.in_cover, "in-cover"),
                (self.wider_basing, "wider-basing"),
            ],
        );
        w.join(" ")
    }

    fn infantry(&self) -> bool {
        self.troop.is_some_and(|t| t.arm() == Arm::Infantry)
    }

    /// The national modifier that fits the unit's formation and last move,
    /// if any. With `assume_infantry`, the troop type is taken to be
    /// infantry (to ask whether the type matters).
    fn national(&self, assume_infantry: bool) -> Option<(&'static str, i32)> {
        if !(assume_infantry || self.infantry()) {
            return None;
        }
        let column = self.formation == Some(TableFormation::Column);
        let line_in_open = self.formation == Some(TableFormation::Line) && !self.in_cover;
        match self.nation? {
            Nation::France if column && self.advanced => Some((morale::FRENCH_COLUMN, 1)),
            Nation::Russia if column && self.stationary => Some((morale::RUSSIAN_COLUMN, 1)),
            Nation::Spain if line_in_open => Some((morale::SPANISH_LINE, -1)),
            Nation::Spain if column && self.advanced => Some((morale::SPANISH_COLUMN, 1)),
            _ => None,
        }
    }

    fn modifiers(&self, trace: &mut Trace) -> Vec<Modifier> {
        let mut m = Vec::new();
        if self.formation == Some(TableFormation::Square) {
            m.push(Modifier::new(morale::SQUARE, 2));
        }
        let hits = i32::try_from(self.hits).unwrap_or(i32::MAX);
        m.push(Modifier::new(
            format!("{} (x{})", morale::EACH_HIT, self.hits),
            -hits,
        ));
        if self.shaken {
            m.push(Modifier::new(morale::SHAKEN, -2));
        }
        if self.general_attached {
            m.push(Modifier::new(morale::GENERAL_ATTACHED, 1));
        }
        if self.no_general {
            m.push(Modifier::new(morale::NO_GENERAL, -1));
        }
        match self.national(false) {
            Some((reason, value)) => m.push(Modifier::new(reason, value)),
            None if self.national(true).is_some() => trace.note(format!(
                "the national modifier of {} is for infantry only",
                self.nation.map_or("", Nation::heading)
            )),
            None => {}
        }
        m
    }
}

/// Resolves a shooting morale test.
pub fn resolve(
    call: &MoraleCall,
    dice: &mut dyn Dice,
) -> Result<Called<MoraleResult>, UmpireError> {
    if call.hits == 0 {
        return Err(forbidden(
            "no test: the unit suffered no hits by shooting",
            "Shooting Morale Test",
            "A unit hit by shooting must take a morale test.",
        ));
    }
    let mut trace = Trace::default();
    let base_needed = tables::test_needed(call.grade);
    trace.lookup(
        "Morale Test if Hit by Shooting",
        format!("Score to pass, Grade {}", call.grade.letter()),
        format!("{base_needed}-6"),
    );
    let modifiers = call.modifiers(&mut trace);
    for m in &modifiers {
        trace.modifier(m);
    }
    let modifier = total(&modifiers);
    let needed = base_needed - modifier;
    trace.note(format!(
        "the die needs {} ({base_needed}-6 base, {modifier:+})",
        tables::needed_text(needed)
    ));
    let unit = describe(call.grade, call.troop);
    let named = in_prose(call.grade, call.troop);
    let roll = trace.roll(
        dice,
        Die::D6,
        &format!("shooting morale test: {unit}, {} hits", call.hits),
    );
    let passed = i64::from(roll) >= i64::from(needed);
    let result = if passed {
        trace.outcome = format!(
            "The {named} rolled {roll} needing {}: it passes and carries on {}.",
            tables::needed_text(needed),
            if call.shaken {
                "shaken"
            } else {
                "in good morale"
            }
        );
        MoraleResult {
            base_needed,
            modifier,
            needed,
            roll,
            passed,
            retreat_inches: 0,
            rout_hits: 0,
            shaken: call.shaken,
        }
    } else {
        let (retreat_inches, listed) = tables::shooting_morale_failure(call.shaken);
        let cavalry = call.troop.is_some_and(|t| t.arm() == Arm::Cavalry);
        let rout_hits = if call.wider_basing && cavalry {
            let r = tables::wide_cavalry_rout_hits(listed);
            trace.note(format!(
                "Wider Cavalry Basing: \"Cavalry units suffer 1 less rout hit than listed, but with a minimum of 1 such hit\": {listed} -> {r}"
            ));
            r
        } else {
            listed
        };
        trace.outcome = format!(
            "The {named} rolled {roll} needing {}: it fails, retreats {retreat_inches} inches, {} shaken, and suffers {rout_hits} rout {}.",
            tables::needed_text(needed),
            if call.shaken { "remains" } else { "becomes" },
            if rout_hits == 1 { "hit" } else { "hits" }
        );
        MoraleResult {
            base_needed,
            modifier,
            needed,
            roll,
            passed,
            retreat_inches,
            rout_hits,
            shaken: true,
        }
    };
    Ok(trace.finish(call.canonical(), result))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::dice::ForcedDice;

    #[test]
    fn shaken_unit_failing_retreats_four_inches() {
        let call = MoraleCall::parse("morale grade C hits 2 shaken").unwrap();
        let mut dice = ForcedDice::new([5]);
        let r = resolve(&call, &mut dice).unwrap().result;
        assert_eq!(r.needed, 6);
        assert!(!r.passed);
        assert_eq!((r.retreat_inches, r.rout_hits), (4, 2));
        assert!(dice.problems().is_empty());
    }

    #[test]
    fn national_flags_need_the_troop_type() {
        assert!(MoraleCall::parse("morale grade c hits 1 nation france column advanced").is_err());
        assert!(
            MoraleCall::parse("morale infantry grade c hits 1 nation france column advanced")
                .is_ok()
        );
        assert!(MoraleCall::parse("morale grade c hits 1 nation britain column advanced").is_ok());
    }
}
