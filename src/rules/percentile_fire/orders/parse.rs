//! Reads one order line, words with their columns, so that an error names
//! where the line went wrong.

use super::{Action, PfOrder, UnitRef, Way, Written};
use crate::rules::orders::LineError;
use crate::rules::percentile_fire::state::{Formation, Shot, Word};
use crate::rules::words::{Cursor, Found, ReadError, Splitting, by_verb, inches_in};

/// The orders, each with an example, for the error's hint.
const EXAMPLES: &[(&str, &str)] = &[
    ("hold", "2-ligne: hold"),
    ("forward", "2-ligne: forward 4"),
    ("back", "2-ligne: back 2"),
    ("left", "2-ligne: left 1.5"),
    ("right", "2-ligne: right 1.5"),
    ("face", "2-ligne: face 90"),
    ("form", "2-ligne: form square"),
    ("retire", "foot-battery: retire"),
    ("charge", "hussars: charge ir-49"),
    ("shock", "2-ligne: shock ir-49"),
    ("opportunity", "2-ligne: opportunity and passby fire"),
    ("passby", "2-ligne: passby fire"),
    ("fire", "foot-battery: fire ir-49 roundshot"),
    ("final", "2-ligne: final fire hussars"),
    ("support", "3-ligne: support hussars"),
    ("replace", "3-ligne: replace 2-ligne"),
];

const FORMATIONS: &[(&str, Formation)] = &[
    ("line", Formation::Line),
    ("column", Formation::Column),
    ("square", Formation::Square),
    ("skirmish", Formation::Skirmish),
    ("limber", Formation::Limbered),
    ("limbered", Formation::Limbered),
    ("unlimber", Formation::Unlimbered),
    ("unlimbered", Formation::Unlimbered),
];

fn example(verb: &str) -> String {
    EXAMPLES
        .iter()
        .find(|(v, _)| *v == verb)
        .map_or("2-ligne: fire ir-49", |(_, e)| e)
        .to_string()
}

/// A word read wrong, with the example of the order it belongs to.
fn fail(e: ReadError, verb: &str) -> LineError {
    LineError {
        column: e.column,
        message: e.to_string(),
        example: example(verb),
    }
}

/// How the words after a verb are read.
type Read = fn(&mut Cursor) -> Result<Action<UnitRef>, ReadError>;

/// Each order by its verb, with its reader.
const VERB_TABLE: &[(&[&str], (&str, Read))] = &[
    (&["hold"], ("hold", |_| Ok(Action::Hold))),
    (&["forward"], ("forward", |w| moving(w, Way::Forward))),
    (&["back"], ("back", |w| moving(w, Way::Back))),
    (&["left"], ("left", |w| moving(w, Way::Left))),
    (&["right"], ("right", |w| moving(w, Way::Right))),
    (&["face"], ("face", face)),
    (
        &["form"],
        ("form", |w| {
            let formations = "a formation: line, column, square, skirmish, limber or unlimber";
            w.expect_any(FORMATIONS, formations).map(Action::Form)
        }),
    ),
    (&["retire"], ("retire", |_| Ok(Action::Retire))),
    (
        &["charge"],
        ("charge", |w| {
            target(w, "the unit charged").map(Action::Charge)
        }),
    ),
    (
        &["shock"],
        ("shock", |w| {
            target(w, "the unit attacked").map(Action::Shock)
        }),
    ),
    (
        &["opportunity"],
        ("opportunity", |w| {
            let passby = w.eat("and");
            if passby {
                w.expect("passby")?;
            }
            w.expect("fire")?;
            Ok(Action::Standing {
                opportunity: true,
                passby,
            })
        }),
    ),
    (
        &["passby"],
        ("passby", |w| {
            w.expect("fire")?;
            Ok(Action::Standing {
                opportunity: false,
                passby: true,
            })
        }),
    ),
    (&["fire"], ("fire", fire)),
    (
        &["final"],
        ("final", |w| {
            w.expect("fire")?;
            target(w, "the shocking unit").map(Action::FinalFire)
        }),
    ),
    (
        &["support"],
        ("support", |w| {
            w.eat("fire");
            target(w, "the shocking unit").map(Action::Support)
        }),
    ),
    (
        &["replace"],
        ("replace", |w| {
            target(w, "the unit replaced").map(Action::Replace)
        }),
    ),
];

/// The rest of the line as a unit reference, after an `at` if one comes.
fn target(w: &mut Cursor, what: &str) -> Result<UnitRef, ReadError> {
    w.eat("at");
    let unit = w.unit_until(what, &[])?;
    Ok(UnitRef::new(&unit.text))
}

/// A move `way` by a distance in inches.
fn moving(w: &mut Cursor, way: Way) -> Result<Action<UnitRef>, ReadError> {
    const DISTANCE: &str = "a distance in inches (4, 2.5, 1-1/2)";
    let word = w.word(DISTANCE)?;
    let h = inches_in(&word.text)
        .filter(|h| *h > 0)
        .ok_or_else(|| ReadError::at(&word, DISTANCE))?;
    w.eat_inch_word();
    Ok(Action::Move(way, i64::from(h)))
}

/// `face <degrees>`, a degree mark allowed.
fn face(w: &mut Cursor) -> Result<Action<UnitRef>, ReadError> {
    const FACING: &str = "a facing in whole degrees, 0 to 359 (0 north, 90 east)";
    let word = w.word(FACING)?;
    let deg = word
        .text
        .trim_end_matches('°')
        .parse::<u32>()
        .ok()
        .filter(|d| *d < 360)
        .ok_or_else(|| ReadError::at(&word, FACING))?;
    Ok(Action::Face(deg))
}

/// `fire [at] <unit> [<shot>]`: a trailing shot word predetermines the
/// shot, when a target comes before it.
fn fire(w: &mut Cursor) -> Result<Action<UnitRef>, ReadError> {
    w.eat("at");
    let end = w.end_column();
    let mut rest = w.rest();
    let shot = rest
        .last()
        .and_then(|t| Shot::from_word(&t.text))
        .filter(|_| rest.len() > 1);
    if shot.is_some() {
        rest.pop();
    }
    let target = target(&mut Cursor::from_tokens(rest, end), "the target")?;
    Ok(Action::Fire { target, shot })
}

/// Reads one order line.
pub fn parse(line: &str) -> Result<Written, LineError> {
    let text = line.trim();
    let lead = line.chars().count() - line.trim_start().chars().count();
    if text.eq_ignore_ascii_case("pass") {
        return Ok(PfOrder::Pass);
    }
    // The unit: what comes before the first colon, or the first word.
    let (unit, rest, offset) = match text.split_once(':') {
        Some((u, rest)) => (u.trim().to_string(), rest, lead + u.chars().count() + 1),
        None => {
            let first = text.split_whitespace().next().unwrap_or("");
            (
                first.to_string(),
                &text[first.len()..],
                lead + first.chars().count(),
            )
        }
    };
    if unit.is_empty() {
        let found = if text.starts_with(':') {
            Found::Word(":".to_string())
        } else {
            Found::End
        };
        let expected = "the unit, then a colon and its order, or `pass`".to_string();
        let e = ReadError {
            column: lead + 1,
            expected,
            found,
        };
        return Err(fail(e, ""));
    }
    let how = Splitting {
        separators: &[','],
        offset,
        ..Splitting::default()
    };
    // Without quotes nothing can fail to split; a missing word is told of
    // just past the line as written, trailing spaces and all.
    let split = Cursor::split(rest, how).unwrap_or_else(|_| Cursor::of(""));
    let mut w = Cursor::from_tokens(split.tokens().to_vec(), line.chars().count() + 1);
    let orders: Vec<&str> = EXAMPLES.iter().map(|(v, _)| *v).collect();
    let expected = format!("an order: {}", orders.join(", "));
    let (verb, read) = by_verb(&mut w, VERB_TABLE, &expected).map_err(|e| fail(e, ""))?;
    let action = read(&mut w).map_err(|e| fail(e, verb))?;
    w.finish().map_err(|e| fail(e, verb))?;
    Ok(PfOrder::Unit {
        unit: UnitRef::new(&unit),
        action,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical(line: &str) -> String {
        parse(line)
            .map(|o| o.to_string())
            .unwrap_or_else(|e| e.message)
    }

    #[test]
    fn orders_read_to_their_canonical_text() {
        assert_eq!(canonical("pass"), "pass");
        assert_eq!(
            canonical("2-Ligne: Fire at IR 49 Shot"),
            "2-ligne: fire ir 49 shot"
        );
        assert_eq!(canonical("b1 fire ir-49"), "b1: fire ir-49");
        assert_eq!(canonical("2-ligne: forward 2.5\""), "2-ligne: forward 2.5");
        assert_eq!(canonical("2-ligne: form limbered"), "2-ligne: form limber");
        assert_eq!(
            canonical("3e léger: opportunity and passby fire"),
            "3e léger: opportunity and passby fire"
        );
        assert_eq!(
            canonical("x: support fire at hussars"),
            "x: support hussars"
        );
    }

    #[test]
    fn errors_say_where() {
        let e = parse("2-ligne: volley ir-49").expect_err("no such order");
        assert_eq!(e.column, 10);
        assert!(e.message.contains("found `volley`"), "{}", e.message);
        let e = parse("2-ligne: forward far").expect_err("no distance");
        assert_eq!(e.column, 18);
        let e = parse("2-ligne: face 400").expect_err("no facing");
        assert_eq!(e.column, 15);
    }
}

#[cfg(test)]
mod reference {
    use super::parse;

    /// The players' reference's complete order mail reads, line by line.
    #[test]
    fn the_example_mail_of_the_players_reference_reads() {
        let doc = include_str!("../../../../docs/ORDERS-percentile-fire.md");
        let mail = doc
            .split("## A complete order mail")
            .nth(1)
            .and_then(|s| s.split("\n## ").next())
            .expect("the reference has its example mail");
        let orders: Vec<&str> = mail
            .lines()
            .filter_map(|l| l.strip_prefix("    "))
            .map(str::trim)
            .filter(|l| {
                !l.is_empty()
                    && !l.starts_with('#')
                    && !l.contains("passphrase:")
                    && !l.starts_with("To:")
                    && !l.starts_with("Subject:")
                    && !l.starts_with("salt ")
            })
            .collect();
        assert_eq!(orders.len(), 4, "{orders:?}");
        for line in orders {
            assert!(parse(line).is_ok(), "{line}");
        }
    }
}
