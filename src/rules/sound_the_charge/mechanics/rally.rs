//! The Rally from Shaken Status Test.

use serde::Serialize;

use super::super::tables::{self, Arm, Grade, Nation, TableFormation, Troop, rally};
use super::super::umpire::syntax::{
    FlagWord, GRADE_KEY, Lexicon, NATION_KEY, Reading, push_flags, tokens,
};
use super::super::umpire::{describe, grade_of, in_prose, nation_of};
use crate::audit::dice::{Dice, Die};
use crate::rules::kernel::{Modifier, total};
use crate::rules::umpire::UmpireError;
use crate::rules::umpire::{Called, Trace, forbidden};

pub(in super::super) static LEXICON: Lexicon = Lexicon {
    call: "rally",
    keys: &[GRADE_KEY, NATION_KEY],
    flags: &[
        FlagWord {
            name: "enemy-can-charge",
            aliases: &[
                "enemy",
                "enemies-can-charge",
                "enemy-able-to-charge",
                "visible-enemy",
                "threatened",
            ],
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
            name: "in-cover",
            aliases: &["cover", "not-in-open"],
        },
        FlagWord {
            name: "in-contact",
            aliases: &["contact", "in-combat", "engaged"],
        },
        FlagWord {
            name: "playsheet-line",
            aliases: &["playsheet"],
        },
        FlagWord {
            name: "d-rally-by-table",
            aliases: &["grade-d-by-table"],
        },
    ],
    fillers: &["rally", "rally-test", "test", "from-shaken", "shaken"],
    kinds: true,
    bare: std::marker::PhantomData,
    formations: true,
    count: None,
};

/// A checked rally test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RallyCall {
    pub troop: Option<Troop>,
    pub grade: Grade,
    pub nation: Option<Nation>,
    pub formation: Option<TableFormation>,
    pub enemy_can_charge: bool,
    pub general_attached: bool,
    pub no_general: bool,
    pub in_cover: bool,
    pub in_contact: bool,
    /// The playsheet's optional "Most infantry in line formation: -1" for
    /// every nation (ruling STC-7).
    pub playsheet_line: bool,
    /// Read the table for a Grade D unit out of command (ruling STC-8).
    pub d_rally_by_table: bool,
}

/// What the test came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RallyResult {
    pub base_needed: i32,
    pub modifier: i32,
    /// The score the die needs: `base_needed - modifier`.
    pub needed: i32,
    pub roll: u32,
    pub passed: bool,
}

impl RallyCall {
    pub fn parse(text: &str) -> Result<RallyCall, UmpireError> {
        let r = LEXICON.read(text, &tokens(text), None)?;
        RallyCall::from_reading(&r)
    }

    fn from_reading(r: &Reading) -> Result<RallyCall, UmpireError> {
        let grade = grade_of(r)?;
        r.exclusive(&["general-attached", "no-general"])?;
        let call = RallyCall {
            troop: r.kind,
            grade,
            nation: nation_of(r)?,
            formation: r.formation,
            enemy_can_charge: r.has("enemy-can-charge"),
            general_attached: r.has("general-attached"),
            no_general: r.has("no-general"),
            in_cover: r.has("in-cover"),
            in_contact: r.has("in-contact"),
            playsheet_line: r.has("playsheet-line"),
            d_rally_by_table: r.has("d-rally-by-table"),
        };
        if call.troop.is_none()
            && let Some((reason, _)) = call.formation_modifier(true)
        {
            return Err(r.syntax(format!(
                "\"{reason}\" is for infantry only: name the troop type (infantry, cavalry or artillery)"
            )));
        }
        Ok(call)
    }

    /// The call in canonical form.
    pub fn canonical(&self) -> String {
        let mut w = vec!["rally".to_string()];
        if let Some(t) = self.troop {
            w.push(t.word().to_string());
        }
        w.push(format!("grade {}", self.grade.word()));
        if let Some(n) = self.nation {
            w.push(format!("nation {}", n.word()));
        }
        if let Some(f) = self.formation {
            w.push(f.word().to_string());
        }
        push_flags(
            &mut w,
            &[
                (self.enemy_can_charge, "enemy-can-charge"),
                (self.general_attached, "general-attached"),
                (self.no_general, "no-general"),
                (self.in_cover, "in-cover"),
                (self.in_contact, "in-contact"),
                (self.playsheet_line, "playsheet-line"),
                (self.d_rally_by_table, "d-rally-by-table"),
            ],
        );
        w.join(" ")
    }

    /// The one formation modifier for infantry, national or the playsheet's
    /// (they do not add up: ruling STC-7). With `assume_infantry`, the troop
    /// type is taken to be infantry.
    fn formation_modifier(&self, assume_infantry: bool) -> Option<(&'static str, i32)> {
        let infantry = self.troop.is_some_and(|t| t.arm() == Arm::Infantry);
        if !(assume_infantry || infantry) {
            return None;
        }
        let line = self.formation == Some(TableFormation::Line);
        let column = self.formation == Some(TableFormation::Column);
        let in_open = !self.in_cover;
        let national = match self.nation {
            Some(Nation::Austria) if line && in_open => Some(rally::AUSTRIA_LINE),
            Some(Nation::France) if line && in_open => Some(rally::FRANCE_LINE),
            Some(Nation::PrussiaPost1810) if line && in_open => Some(rally::PRUSSIA_POST_LINE),
            Some(Nation::PrussiaPre1810) if column => Some(rally::PRUSSIA_PRE_COLUMN),
            Some(Nation::Russia) if line => Some(rally::RUSSIA_LINE),
            _ => None,
        };
        match national {
            Some(reason) => Some((reason, -1)),
            None if self.playsheet_line && line => Some((rally::PLAYSHEET_LINE, -1)),
            None => None,
        }
    }
}

/// Resolves a rally test.
pub fn resolve(call: &RallyCall, dice: &mut dyn Dice) -> Result<Called<RallyResult>, UmpireError> {
    const CLAUSE: &str = "Rallying Shaken Units";
    if call.in_contact {
        return Err(forbidden(
            "a unit in contact with the enemy may not rally",
            CLAUSE,
            "Units in contact with the enemy may not rally.",
        ));
    }
    if call.grade == Grade::D && call.no_general && !call.d_rally_by_table {
        return Err(forbidden(
            "a Grade D unit with no general in CR cannot rally (ruling STC-8; `d-rally-by-table` reads the table instead)",
            CLAUSE,
            "Notice also that a Grade D unit out of command will not be able to rally from shaken status!",
        ));
    }
    let mut trace = Trace::default();
    let base_needed = tables::test_needed(call.grade);
    trace.lookup(
        "Rally from Shaken Status Test",
        format!("Grade {}", call.grade.letter()),
        format!("{base_needed}-6"),
    );
    if call.grade == Grade::D && call.no_general {
        trace.note(
            "Grade D with no general in CR: read by the table, as the call asks (ruling STC-8)",
        );
    }
    let mut modifiers = Vec::new();
    if call.enemy_can_charge {
        modifiers.push(Modifier::new(rally::ENEMY, -3));
    }
    if call.general_attached {
        modifiers.push(Modifier::new(rally::GENERAL_ATTACHED, 1));
    }
    if call.no_general {
        modifiers.push(Modifier::new(rally::NO_GENERAL, -1));
    }
    match call.formation_modifier(false) {
        Some((reason, value)) => modifiers.push(Modifier::new(reason, value)),
        None if call.formation_modifier(true).is_some() => {
            trace.note("the line/column modifiers are for infantry only")
        }
        None => {}
    }
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
    let roll = trace.roll(dice, Die::D6, &format!("rally test: {unit}"));
    let passed = i64::from(roll) >= i64::from(needed);
    trace.outcome = if passed {
        format!(
            "The {named} rolled {roll} needing {}: it rallies to good morale.",
            tables::needed_text(needed)
        )
    } else {
        format!(
            "The {named} rolled {roll} needing {}: it fails and stays shaken.",
            tables::needed_text(needed)
        )
    };
    let result = RallyResult {
        base_needed,
        modifier,
        needed,
        roll,
        passed,
    };
    Ok(trace.finish(call.canonical(), result))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::dice::ForcedDice;

    /// The text's example: Grade C, in command, enemy able to charge: 5-6.
    #[test]
    fn the_rules_example_needs_five() {
        let call = RallyCall::parse("rally line-infantry grade C enemy-can-charge").unwrap();
        let mut dice = ForcedDice::new([4]);
        let r = resolve(&call, &mut dice).unwrap().result;
        assert_eq!(r.needed, 5);
        assert!(!r.passed);
    }

    #[test]
    fn national_and_playsheet_line_penalties_do_not_add_up() {
        let call =
            RallyCall::parse("rally infantry grade c line nation russia playsheet-line").unwrap();
        let mut dice = ForcedDice::new([3]);
        let r = resolve(&call, &mut dice).unwrap().result;
        assert_eq!(r.modifier, -1);
    }
}
