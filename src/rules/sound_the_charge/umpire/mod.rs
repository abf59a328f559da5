//! Umpire calls for Sound the Charge: one resolution asked for in words,
//! answered with every table lookup, modifier and die.
//!
//! Each call is a procedure of `mechanics`, with a checked call type
//! (`parse`, then `canonical`), a typed result, and a `resolve` that rolls
//! the dice and writes the report, which the turn resolves too; its words
//! are read by the shared lexicon with this ruleset's words (`syntax`).
//! [`call`] reads the call's name and hands it on.

pub mod syntax;

use serde::Serialize;

use self::syntax::{Reading, tokens};
use super::mechanics::combat::{self, CombatCall, CombatResult};
use super::mechanics::general::{self, GeneralCall, GeneralResult};
use super::mechanics::morale::{self, MoraleCall, MoraleResult};
use super::mechanics::rally::{self, RallyCall, RallyResult};
use super::mechanics::shooting::{self, ShootingCall, ShootingResult};
use super::tables::{Grade, NATION_WORDS, Nation};
use crate::audit::dice::Dice;
use crate::rules::umpire::{Called, UmpireError, UmpireReport};

/// How each call is written. Words go in any order and any case; `key=value`
/// reads as `key value`, `soft cover` as `soft-cover`.
pub const HELP: &str = "\
Sound the Charge umpire calls (words in any order; flags are optional):

shoot <figures> <troops> grade <a-d> range <inches> [gunners <n>] [nation <n>]
      [moved] [disordered] [square] [limbered] [charging] [shaken]
      [target dense|artillery|soft-cover|screened|hard-cover|skirmishing ...]
  A shooting attack. <figures> counts front-rank infantry figures, or gun models.
  <troops>: infantry, line-infantry, light-infantry, light-guns, field-guns, heavy-guns.
  e.g. shoot 12 line-infantry grade B range 3 moved target soft-cover

morale [<troops>] grade <a-d> hits <n> [line|column|square] [shaken]
       [general-attached|no-general] [nation <n>] [advanced|stationary] [in-cover]
       [wider-basing]
  The morale test of a unit hit by shooting; <n> counts every shooting hit it
  suffered this turn. advanced/stationary: its most recent move (national rules).
  e.g. morale grade C hits 2 shaken

combat attacker <figures> <troops> grade <a-d> [flags] vs defender <figures> <troops> grade <a-d> [flags]
       [continuing] [wider-basing]
  One round of close combat. <figures> counts the figures in the first two ranks,
  or gun models. <troops> names the weight of cavalry and the guns:
  infantry, line-infantry, light-infantry, heavy-cavalry, medium-cavalry,
  light-cavalry, light-guns, field-guns, heavy-guns.
  Flags of either unit: line|column|square|skirmish, disordered, shaken, flank-rear,
  opposite-sides, general-attached|no-general, elite, blown, stationary, nation <n>;
  of the attacker: up-steep-slope; of the defender: soft-cover|hard-cover,
  disordering-terrain (skirmishers).
  e.g. combat attacker 12 line-infantry grade B vs defender 4 field-guns grade C

rally [<troops>] grade <a-d> [enemy-can-charge] [general-attached|no-general]
      [line|column] [nation <n>] [in-cover] [in-contact] [playsheet-line]
      [d-rally-by-table]
  The test to rally from shaken status.
  e.g. rally line-infantry grade C enemy-can-charge

general hits <n> | general contacted
  The die for a general attached to a unit that suffered two or more hits, or
  for a lone general contacted by the enemy.

Nations (national modifiers apply only when a nation is named): austria,
britain (portugal), france (switzerland), prussia-pre-1810,
prussia-post-1810 (french-allies), russia, spain (naples).
";

/// The calls by name, with the words that name each.
const CALLS: &[(&str, &[&str])] = &[
    ("shoot", &["shoot", "shooting", "fire"]),
    ("morale", &["morale", "shooting-morale", "morale-test"]),
    ("combat", &["combat", "close-combat", "melee"]),
    ("rally", &["rally", "rally-test"]),
    ("general", &["general", "general-risk"]),
];

/// The typed result of any call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "call", rename_all = "kebab-case")]
pub enum CallResult {
    Shoot(ShootingResult),
    Morale(MoraleResult),
    Combat(CombatResult),
    Rally(RallyResult),
    General(GeneralResult),
}

/// Performs one umpire call; the report carries the typed result as JSON.
pub fn call(text: &str, dice: &mut dyn Dice) -> Result<UmpireReport, UmpireError> {
    resolve(text, dice).map(|called| UmpireReport {
        result: serde_json::to_value(&called.result).unwrap_or_default(),
        ..called.report
    })
}

/// Performs one umpire call and keeps its typed result.
pub fn resolve(text: &str, dice: &mut dyn Dice) -> Result<Called<CallResult>, UmpireError> {
    let words = tokens(text);
    let name = words.first().map_or("", |t| t.text.as_str());
    let Some((call, _)) = CALLS.iter().find(|(_, names)| names.contains(&name)) else {
        return Err(UmpireError::UnknownCall {
            name: name.to_string(),
            known: CALLS.iter().map(|(c, _)| *c).collect::<Vec<_>>().join(", "),
        });
    };
    fn wrap<T>(called: Called<T>, into: impl FnOnce(T) -> CallResult) -> Called<CallResult> {
        Called {
            result: into(called.result),
            report: called.report,
        }
    }
    match *call {
        "shoot" => {
            shooting::resolve(&ShootingCall::parse(text)?, dice).map(|c| wrap(c, CallResult::Shoot))
        }
        "morale" => {
            morale::resolve(&MoraleCall::parse(text)?, dice).map(|c| wrap(c, CallResult::Morale))
        }
        "combat" => {
            combat::resolve(&CombatCall::parse(text)?, dice).map(|c| wrap(c, CallResult::Combat))
        }
        "rally" => {
            rally::resolve(&RallyCall::parse(text)?, dice).map(|c| wrap(c, CallResult::Rally))
        }
        _ => {
            general::resolve(&GeneralCall::parse(text)?, dice).map(|c| wrap(c, CallResult::General))
        }
    }
}

/// The `grade` a call must give.
pub(super) fn grade_of(r: &Reading) -> Result<Grade, UmpireError> {
    match r.value("grade") {
        None => Err(
            r.syntax("give the unit's morale grade: `grade a`, `grade b`, `grade c` or `grade d`")
        ),
        Some(word) => Grade::parse(word)
            .ok_or_else(|| r.syntax(format!("`grade {word}`: the grades are a, b, c and d"))),
    }
}

/// The `nation` a call may give.
pub(super) fn nation_of(r: &Reading) -> Result<Option<Nation>, UmpireError> {
    let Some(word) = r.value("nation") else {
        return Ok(None);
    };
    if let Some(n) = Nation::parse(word) {
        return Ok(Some(n));
    }
    let hint = if word.starts_with("prussia") {
        " (say prussia-pre-1810 or prussia-post-1810)"
    } else {
        ""
    };
    Err(r.syntax(format!(
        "`nation {word}` has no national modifiers{hint}; the nations are: {}",
        NATION_WORDS
            .iter()
            .filter_map(|(_, w)| w.first().copied())
            .collect::<Vec<_>>()
            .join(", ")
    )))
}

/// How a roll's purpose names a unit: `grade c line-infantry`, or `grade c
/// unit` when the call gave no troop type. The purpose is part of the
/// audited roll log, so these words never change.
pub(super) fn describe(grade: Grade, troop: Option<super::tables::Troop>) -> String {
    format!(
        "grade {} {}",
        grade.word(),
        troop.map_or("unit", super::tables::Troop::word)
    )
}

/// How an outcome's sentence names the unit, as the rules print a grade:
/// `Grade C line infantry`, or `Grade C unit`.
pub(super) fn in_prose(grade: Grade, troop: Option<super::tables::Troop>) -> String {
    format!(
        "Grade {} {}",
        grade.word().to_uppercase(),
        troop
            .map_or("unit", super::tables::Troop::word)
            .replace('-', " ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::dice::ForcedDice;

    /// Orders and calls read distances alike: the inch marks a mail program
    /// puts in (`3″`, `3”`) read as inches in a call as in an order.
    #[test]
    fn a_call_reads_the_inch_marks_an_order_reads() {
        let plain = call(
            "shoot 12 line-infantry grade B range 3",
            &mut ForcedDice::new([4, 4, 4]),
        )
        .expect("reads");
        for written in [
            "range 3\u{2033}",
            "range 3\u{201d}",
            "range 3\"",
            "range 3in",
        ] {
            let text = format!("shoot 12 line-infantry grade B {written}");
            let marked = call(&text, &mut ForcedDice::new([4, 4, 4]))
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(marked.call, plain.call, "{text}");
        }
    }

    #[test]
    fn unknown_calls_list_the_calls() {
        let mut dice = ForcedDice::new([]);
        let e = call("charge 12 infantry", &mut dice)
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown call `charge`"), "{e}");
        assert!(e.contains("shoot, morale, combat, rally, general"), "{e}");
        assert!(call("", &mut dice).is_err());
    }

    /// Word salads from every call's vocabulary, numbers and junk: no call
    /// may panic, and the same words and dice give the same answer.
    #[test]
    fn no_words_make_a_call_panic() {
        use super::syntax::Lexicon;
        let lexicons: [&Lexicon; 5] = [
            &shooting::LEXICON,
            &morale::LEXICON,
            &combat::LEXICON,
            &rally::LEXICON,
            &general::LEXICON,
        ];
        let mut vocabulary: Vec<String> = Vec::new();
        for lexicon in lexicons {
            for key in lexicon.keys {
                vocabulary.push(key.name.to_string());
                vocabulary.extend(key.aliases.iter().map(|a| a.to_string()));
            }
            for flag in lexicon.flags {
                vocabulary.push(flag.name.to_string());
                vocabulary.extend(flag.aliases.iter().map(|a| a.to_string()));
            }
            vocabulary.extend(lexicon.fillers.iter().map(|f| f.to_string()));
        }
        for (_, words) in super::super::tables::TROOP_WORDS {
            vocabulary.extend(words.iter().map(|w| w.to_string()));
        }
        for (_, words) in NATION_WORDS {
            vocabulary.extend(words.iter().map(|w| w.to_string()));
        }
        for w in [
            "a",
            "b",
            "c",
            "d",
            "e",
            "line",
            "column",
            "square",
            "skirmish",
            "formation",
            "vs",
            "defender",
            "attacker",
            "0",
            "1",
            "2",
            "3",
            "4",
            "11",
            "12",
            "999",
            "1000",
            "4294967296",
            "2.5",
            "2.125",
            "-1",
            "1/0",
            "3/4",
            "2-1/2",
            "\"",
            "inches",
            "=",
            "x",
            "prussia",
            "grade-b",
            "range-3",
            "hits-2",
        ] {
            vocabulary.push(w.to_string());
        }
        // Half the calls start from a well-formed one, so that the sweep
        // reaches the rules and not only the syntax errors.
        let skeletons = [
            "shoot",
            "morale",
            "combat",
            "rally",
            "general",
            "shoot 12 line-infantry grade b range 3",
            "shoot 4 field-guns grade c range 10",
            "morale infantry grade c hits 2",
            "combat attacker 12 light-cavalry grade c vs defender 12 line-infantry grade c",
            "combat attacker 12 line-infantry grade b vs defender 4 field-guns grade c",
            "rally infantry grade c",
        ];
        let mut state: u64 = 0x5eed;
        let mut next = |n: usize| -> usize {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) as usize) % n
        };
        let mut resolved = 0;
        for _ in 0..20_000 {
            let mut words = vec![skeletons[next(skeletons.len())].to_string()];
            for _ in 0..next(8) {
                words.push(vocabulary[next(vocabulary.len())].clone());
            }
            let text = words.join(" ");
            let faces: Vec<u32> = (0..40).map(|i| (i * 5 + 3) % 8).collect();
            let first = resolve(&text, &mut ForcedDice::new(faces.clone()));
            let second = resolve(&text, &mut ForcedDice::new(faces));
            assert_eq!(first, second, "{text}");
            if let Ok(called) = first {
                resolved += 1;
                // The canonical form reads back to itself.
                let again =
                    resolve(&called.report.call, &mut ForcedDice::new([])).map(|c| c.report.call);
                if let Ok(call) = again {
                    assert_eq!(call, called.report.call, "{text}");
                }
            }
        }
        assert!(resolved > 1_000, "only {resolved} calls resolved");
    }

    #[test]
    fn help_names_every_call() {
        for (name, _) in CALLS {
            assert!(HELP.contains(&format!("\n{name} ")), "{name}");
        }
    }
}
