//! Reading one order line: the syntax alone, units as written. Words are
//! read in any case; a unit is named by its id or the start of its name,
//! which may hold spaces (`1er cuirassiers: charge 2e ligne principal`).

use super::super::state::Formation;
use super::{Action, Order, Written};
use crate::rules::words::{Cursor, Found, ReadError, Splitting, Token, by_verb, inches_in};

/// Why a line does not read: where (1-based column, in characters), what,
/// and the right form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} (for example `{example}`)")]
pub struct SyntaxError {
    pub column: usize,
    pub message: String,
    pub example: String,
}

/// The forms of each verb, for the hint.
const EXAMPLES: &[(&str, &str)] = &[
    ("charge", "2e-cuirassiers: charge uhlans principal"),
    ("advance", "1-ligne: advance 4"),
    ("retire", "1-ligne: retire 2"),
    ("face", "1-ligne: face 90"),
    ("form", "1-ligne: form square"),
    ("fire", "1-ligne: fire"),
    ("cease", "1-ligne: cease fire"),
    ("rally", "1-ligne: rally"),
    ("hold", "1-ligne: hold"),
];

const VERBS: &str = "charge, advance, retire, face, form, fire, fire at, cease fire, rally, hold";

fn example(verb: &str) -> String {
    EXAMPLES
        .iter()
        .find(|(v, _)| *v == verb)
        .map_or("2e-cuirassiers: charge uhlans principal", |(_, e)| e)
        .to_string()
}

/// A word read wrong, with the example of the verb it belongs to.
fn fail(e: ReadError, verb: &str) -> SyntaxError {
    SyntaxError {
        column: e.column,
        message: e.to_string(),
        example: example(verb),
    }
}

/// Words joined by single spaces.
fn named(words: &[Token]) -> String {
    words
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads one order line.
pub fn parse(line: &str) -> Result<Written, SyntaxError> {
    let Some(colon) = line.find(':') else {
        let found = Found::Word(line.split_whitespace().collect::<Vec<_>>().join(" "));
        let expected = "the unit's name, a colon, then what it does".to_string();
        return Err(fail(
            ReadError {
                column: 1,
                expected,
                found,
            },
            "charge",
        ));
    };
    let unit_part = &line[..colon];
    let Ok(unit) = Cursor::of(unit_part).unit_until("", &[]) else {
        let expected = "the unit's name before the colon".to_string();
        let found = Found::Word(":".to_string());
        return Err(fail(
            ReadError {
                column: 1,
                expected,
                found,
            },
            "charge",
        ));
    };
    let how = Splitting {
        offset: unit_part.chars().count() + 1,
        ..Splitting::default()
    };
    // Without quotes nothing can fail to split.
    let mut w = Cursor::split(&line[colon + 1..], how).unwrap_or_else(|_| Cursor::of(""));
    let expected = format!("an order: {VERBS}");
    let (verb, read) = by_verb(&mut w, VERB_TABLE, &expected).map_err(|e| fail(e, "charge"))?;
    let action = read(&mut w).map_err(|e| fail(e, verb))?;
    Ok(Order {
        unit: unit.text,
        action,
    })
}

/// How the words after a verb are read.
type Read = fn(&mut Cursor) -> Result<Action<String>, ReadError>;

/// Each verb with its synonyms, the verb its example is under, and its
/// reader.
const VERB_TABLE: &[(&[&str], (&str, Read))] = &[
    (&["charge", "charges"], ("charge", charge)),
    (
        &["advance", "forward"],
        ("advance", |w| distance(w).map(Action::Advance)),
    ),
    (
        &["retire", "back"],
        ("retire", |w| distance(w).map(Action::Retire)),
    ),
    (&["face"], ("face", face)),
    (&["form"], ("form", form)),
    (&["fire"], ("fire", fire)),
    (&["cease"], ("cease", cease)),
    (
        &["rally"],
        ("rally", |w| w.finish().map(|()| Action::Rally)),
    ),
    (&["hold"], ("hold", |w| w.finish().map(|()| Action::Hold))),
];

/// `charge <unit> [principal] [stay]`: the two words may come in any order
/// after the unit's name.
fn charge(w: &mut Cursor) -> Result<Action<String>, ReadError> {
    let end = w.end_column();
    let mut target = w.rest();
    let (mut principal, mut stay) = (false, false);
    while let Some(last) = target.last() {
        match last.text.as_str() {
            "principal" => principal = true,
            "stay" | "stays" => stay = true,
            _ => break,
        }
        target.pop();
    }
    if target.is_empty() {
        return Err(ReadError::end(end, "the enemy unit charged"));
    }
    Ok(Action::Charge {
        target: named(&target),
        principal,
        stay,
    })
}

/// Words that may follow a move's distance. A word after them is not read,
/// as it never was: orders given before stand as they were read.
const INCH_WORD: &[(&str, ())] = &[
    ("in", ()),
    ("inch", ()),
    ("inches", ()),
    ("\"", ()),
    ("''", ()),
];

/// A distance to advance or retire, in hundredths of an inch.
fn distance(w: &mut Cursor) -> Result<i64, ReadError> {
    const DISTANCE: &str = "a distance in inches, as 3 or 2.5\"";
    let first = w.word(DISTANCE)?;
    let d = inches_in(&first.text)
        .filter(|d| *d > 0)
        .ok_or_else(|| ReadError::at(&first, DISTANCE))?;
    if !w.is_done() && w.eat_any(INCH_WORD).is_none() {
        return Err(w.error("one distance and nothing more"));
    }
    Ok(i64::from(d))
}

/// `face <bearing>` or `face <unit>`.
fn face(w: &mut Cursor) -> Result<Action<String>, ReadError> {
    let digits = w
        .peek()
        .is_some_and(|t| t.chars().all(|c| c.is_ascii_digit()));
    if !digits {
        let unit = w.unit_until("a bearing in degrees or a unit", &[])?;
        return Ok(Action::FaceUnit(unit.text));
    }
    let b = w.number("a bearing in degrees", 0..=359)?;
    w.finish()?;
    Ok(Action::Face(b))
}

/// `form line|column|square`.
fn form(w: &mut Cursor) -> Result<Action<String>, ReadError> {
    const FORMATION: &str = "a formation: line, column or square";
    let first = w.word(FORMATION)?;
    let x = Formation::from_word(&first.text).ok_or_else(|| ReadError::at(&first, FORMATION))?;
    w.finish()?;
    Ok(Action::Form(x))
}

/// `fire` alone starts firing; `fire at <unit>` fires at a target.
fn fire(w: &mut Cursor) -> Result<Action<String>, ReadError> {
    if w.is_done() {
        return Ok(Action::StartFiring);
    }
    if w.eat_any(&[("at", ()), ("on", ())]).is_none() {
        return Err(w.error("`at` and the enemy unit fired at, or nothing"));
    }
    let target = w.unit_until("the enemy unit fired at", &[])?;
    Ok(Action::FireAt(target.text))
}

/// `cease fire`.
fn cease(w: &mut Cursor) -> Result<Action<String>, ReadError> {
    w.expect_any(&[("fire", ()), ("firing", ())], "`fire`")?;
    w.finish()?;
    Ok(Action::CeaseFire)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical(line: &str) -> String {
        parse(line)
            .map(|o| o.to_string())
            .unwrap_or_else(|e| e.to_string())
    }

    #[test]
    fn orders_read_to_their_canonical_form() {
        assert_eq!(
            canonical("1-Cuir: Charge Uhlans Principal"),
            "1-cuir: charge uhlans principal"
        );
        assert_eq!(
            canonical("1er cuirassiers: charge 2e ligne stay principal"),
            "1er cuirassiers: charge 2e ligne principal stay"
        );
        assert_eq!(canonical("a: forward 3.5\""), "a: advance 3.5");
        assert_eq!(canonical("a: back 2 inches"), "a: retire 2");
        assert_eq!(canonical("a: face 90"), "a: face 90");
        assert_eq!(canonical("a: face the uhlans"), "a: face the uhlans");
        assert_eq!(canonical("a: form SQUARE"), "a: form square");
        assert_eq!(canonical("a: fire"), "a: fire");
        assert_eq!(canonical("a: fire at b"), "a: fire at b");
        assert_eq!(canonical("a: cease fire"), "a: cease fire");
        assert_eq!(canonical("a: rally"), "a: rally");
        assert_eq!(canonical("a: hold"), "a: hold");
    }

    #[test]
    fn errors_say_where() {
        let e = parse("a: gallop 3").expect_err("no such verb");
        assert_eq!(e.column, 4);
        let e = parse("a: advance far").expect_err("no distance");
        assert_eq!(e.column, 12);
        let e = parse("a: face 400").expect_err("bearing");
        assert_eq!(e.column, 9);
        let e = parse("a charge b").expect_err("no colon");
        assert_eq!(e.column, 1);
    }
}
