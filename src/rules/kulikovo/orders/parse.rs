//! The syntax step: one line of text into an order naming units as
//! written, or where and why it does not read, with an example of the right
//! form.

use std::fmt;

use super::{KulOrder, Step, Then, Written};
use crate::geometry::Hex;
use crate::rules::words::{Cursor, Found, ReadError, Splitting, by_verb};

/// A unit as an order names it: its id, or the start of its name; written
/// back in double quotes when it has a space.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ref(pub String);

impl fmt::Display for Ref {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.contains(char::is_whitespace) || self.0.contains(':') {
            write!(f, "\"{}\"", self.0)
        } else {
            f.write_str(&self.0)
        }
    }
}

/// Why a line does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// 1-based, in characters.
    pub column: usize,
    pub message: String,
    pub example: &'static str,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)?;
        if !self.example.is_empty() {
            write!(f, " (for example `{}`)", self.example)?;
        }
        Ok(())
    }
}

const EXAMPLE_MOVE: &str = "r-great: move 1210 1211 face se 1311";
const EXAMPLE_FACE: &str = "r-great: face se";
const EXAMPLE_FIRE: &str = "b-kolomna: fire at t-horse-3";
const EXAMPLE_SHOCK: &str = "r-great: shock t-genoese-1 then any";
const EXAMPLE_CHARGE: &str = "h-druzhina: charge t-horse-2";
const EXAMPLE_JOIN: &str = "dmitry: join h-druzhina";
const EXAMPLE_ANY: &str = "h-druzhina: charge t-horse-2";

/// A word read wrong, with an example of the right form.
fn fail(e: ReadError, example: &'static str) -> SyntaxError {
    SyntaxError {
        column: e.column,
        message: format!("expected {}, found {}", e.expected, e.found),
        example,
    }
}

/// The words of an order after its unit: spaces and commas part them,
/// double quotes hold a name with spaces together; a full stop at the end
/// is dropped.
fn words(text: &str, offset: usize) -> Result<Cursor, SyntaxError> {
    let how = Splitting {
        separators: &[','],
        quotes: true,
        keep_case: true,
        offset,
    };
    let split = Cursor::split(text, how).map_err(|e| fail(e, EXAMPLE_ANY))?;
    let end = split.end_column();
    let mut tokens = split.tokens().to_vec();
    if let Some(last) = tokens.last_mut()
        && !last.quoted
        && last.text.len() > 1
        && last.text.ends_with('.')
        && Hex::from_label(&last.text).is_none()
    {
        last.text.pop();
    }
    Ok(Cursor::from_tokens(tokens, end))
}

/// How the words after a verb are read, for the unit the order is for.
type Read = fn(Ref, &mut Cursor) -> Result<Written, ReadError>;

/// The words that begin an order, with their synonyms, the example of the
/// right form, and the reader of the words after them.
const VERB_TABLE: &[(&[&str], (&str, Read))] = &[
    (
        &["move", "march", "go"],
        (EXAMPLE_MOVE, |unit, w| read_move(unit, w, false)),
    ),
    (
        &["face", "turn"],
        (EXAMPLE_FACE, |unit, w| read_move(unit, w, true)),
    ),
    (&["fire", "shoot"], (EXAMPLE_FIRE, read_fire)),
    (
        &["shock", "attack"],
        (EXAMPLE_SHOCK, |unit, w| read_attack(unit, w, true)),
    ),
    (
        &["charge"],
        (EXAMPLE_CHARGE, |unit, w| read_attack(unit, w, false)),
    ),
    (
        &["counter-charge", "countercharge"],
        (EXAMPLE_ANY, |unit, _| Ok(KulOrder::CounterCharge { unit })),
    ),
    (
        &["hold", "halt", "stand"],
        (EXAMPLE_ANY, |unit, _| Ok(KulOrder::Hold { unit })),
    ),
    (&["join"], (EXAMPLE_JOIN, read_join)),
];

const VERBS: &str = "move, face, fire, shock, charge, counter-charge, hold, join";

/// Reads one order line.
pub fn parse(line: &str) -> Result<Written, SyntaxError> {
    let trimmed = line.trim();
    let lead = line.chars().count() - line.trim_start().chars().count();
    if trimmed.trim_end_matches('.').eq_ignore_ascii_case("pass") {
        return Ok(KulOrder::Pass);
    }
    let (unit, mut w) = unit_and_words(trimmed, lead)?;
    let expected = format!("an order: {VERBS}");
    let (example, read) =
        by_verb(&mut w, VERB_TABLE, &expected).map_err(|e| fail(e, EXAMPLE_ANY))?;
    let order = read(Ref(unit), &mut w).map_err(|e| fail(e, example))?;
    w.finish().map_err(|e| fail(e, example))?;
    Ok(order)
}

/// The unit and the words of the order after it: the unit is everything
/// before the first colon outside quotes, or else the first word.
fn unit_and_words(trimmed: &str, lead: usize) -> Result<(String, Cursor), SyntaxError> {
    let colon = {
        let mut quoted = false;
        trimmed.char_indices().find(|&(_, c)| {
            if c == '"' {
                quoted = !quoted;
            }
            c == ':' && !quoted
        })
    };
    let at_start = |expected: &str, found: Found| {
        let e = ReadError {
            column: lead + 1,
            expected: expected.to_string(),
            found,
        };
        fail(e, EXAMPLE_ANY)
    };
    let (unit, words) = match colon {
        Some((at, _)) => {
            let head = trimmed[..at].trim().trim_matches('"').trim();
            if head.is_empty() {
                let found = Found::Word(trimmed[..=at].to_string());
                return Err(at_start("the unit's name before the colon", found));
            }
            let unit = head.split_whitespace().collect::<Vec<_>>().join(" ");
            let offset = lead + trimmed[..=at].chars().count();
            (unit, words(&trimmed[at + 1..], offset)?)
        }
        None => {
            let mut all = words(trimmed, lead)?;
            let Some(first) = all.next() else {
                return Err(at_start("a unit and its order", Found::End));
            };
            (first.text, all)
        }
    };
    // A name is written back in double quotes when it has a space or a
    // colon, so a quote inside one would end it early: the canonical text
    // would not read as the order it was read from.
    if unit.contains(['"', '\u{201c}', '\u{201d}']) {
        let found = Found::Word(unit);
        return Err(at_start("a unit's name without a double quote", found));
    }
    Ok((unit, words))
}

/// `move <hex> ... [face <hexside>] ...` or `face <hexside> [<hex> ...]`.
fn read_move(unit: Ref, w: &mut Cursor, face: bool) -> Result<Written, ReadError> {
    const HEXSIDE: &str = "a hexside to face";
    let mut steps = Vec::new();
    if face {
        steps.push(Step::Face(w.direction(HEXSIDE)?));
    }
    while !w.is_done() {
        if w.eat_any(&[("face", ()), ("turn", ())]).is_some() {
            steps.push(Step::Face(w.direction(HEXSIDE)?));
        } else {
            const HEX: &str =
                "a hex number (four digits, column then row, as the map prints them) or `face`";
            let t = w.word(HEX)?;
            let hex = Hex::from_label(&t.text).ok_or_else(|| ReadError::at(&t, HEX))?;
            steps.push(Step::Hex(hex));
        }
    }
    if steps.is_empty() {
        return Err(w.error("the hexes to move through"));
    }
    Ok(KulOrder::Move { unit, steps })
}

/// `fire [at] <unit>`.
fn read_fire(unit: Ref, w: &mut Cursor) -> Result<Written, ReadError> {
    w.eat("at");
    let target = target(w)?;
    Ok(KulOrder::Fire { unit, target })
}

/// `shock <unit> [then <unit>|any]` or `charge` the same.
fn read_attack(unit: Ref, w: &mut Cursor, shock: bool) -> Result<Written, ReadError> {
    let target = target(w)?;
    let then = read_then(w)?;
    Ok(if shock {
        KulOrder::Shock { unit, target, then }
    } else {
        KulOrder::Charge { unit, target, then }
    })
}

/// An attack's continuation, `then <unit>` or `then any`: [`Then::Stop`]
/// when the line ends there.
fn read_then(w: &mut Cursor) -> Result<Then<Ref>, ReadError> {
    if w.is_done() {
        return Ok(Then::Stop);
    }
    if !w.eat("then") {
        return Err(w.error("`then <unit>` or `then any`, or nothing"));
    }
    if w.eat("any") {
        return Ok(Then::Any);
    }
    let unit = w.word("whom the attack continues against: a unit or `any`")?;
    Ok(Then::Unit(Ref(unit.text)))
}

/// `<leader>: join <unit>`.
fn read_join(leader: Ref, w: &mut Cursor) -> Result<Written, ReadError> {
    let unit = target(w)?;
    Ok(KulOrder::Join { leader, unit })
}

/// The unit an order is aimed at.
fn target(w: &mut Cursor) -> Result<Ref, ReadError> {
    let t = w.word("the unit the order is aimed at (its id, or its name in double quotes)")?;
    Ok(Ref(t.text))
}
