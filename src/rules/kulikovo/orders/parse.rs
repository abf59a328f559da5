//! The syntax step: one line of text into an order naming units as
//! written, or where and why it does not read, with an example of the right
//! form.

use std::fmt;

use super::{KulOrder, Step, Then, Written};
use crate::geometry::{Direction, Hex};

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

/// One word of a line and the column it starts at.
#[derive(Debug, Clone)]
struct Token {
    text: String,
    column: usize,
    quoted: bool,
}

fn err(column: usize, message: impl Into<String>, example: &'static str) -> SyntaxError {
    SyntaxError {
        column,
        message: message.into(),
        example,
    }
}

/// Splits a line into words: spaces and commas part them, double quotes
/// hold a name with spaces together; a full stop at the end is dropped.
fn tokens(text: &str, offset: usize) -> Result<Vec<Token>, SyntaxError> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == ',' {
            i += 1;
            continue;
        }
        let start = i;
        if c == '"' || c == '\u{201c}' || c == '\u{201d}' {
            i += 1;
            let from = i;
            while i < chars.len() && !matches!(chars[i], '"' | '\u{201c}' | '\u{201d}') {
                i += 1;
            }
            if i >= chars.len() {
                return Err(err(
                    offset + start + 1,
                    "a quoted name is not closed",
                    EXAMPLE_ANY,
                ));
            }
            let name: String = chars[from..i].iter().collect();
            i += 1;
            out.push(Token {
                text: name.split_whitespace().collect::<Vec<_>>().join(" "),
                column: offset + start + 1,
                quoted: true,
            });
            continue;
        }
        while i < chars.len() && !chars[i].is_whitespace() && chars[i] != ',' {
            i += 1;
        }
        let word: String = chars[start..i].iter().collect();
        if let Some(at) = word.find(['"', '\u{201c}', '\u{201d}']) {
            return Err(err(
                offset + start + word[..at].chars().count() + 1,
                "a double quote inside a word; a name with spaces is quoted whole",
                EXAMPLE_ANY,
            ));
        }
        out.push(Token {
            text: word,
            column: offset + start + 1,
            quoted: false,
        });
    }
    if let Some(last) = out.last_mut()
        && !last.quoted
        && last.text.len() > 1
        && last.text.ends_with('.')
        && Hex::from_label(&last.text).is_none()
    {
        last.text.pop();
    }
    Ok(out)
}

/// Reads a hexside: `n`, `ne`, `north-east`, ... or its number 0-5.
pub fn direction(word: &str) -> Option<Direction> {
    let w = word.to_lowercase();
    let n = match w.as_str() {
        "n" | "north" | "0" => 0,
        "ne" | "north-east" | "northeast" | "1" => 1,
        "se" | "south-east" | "southeast" | "2" => 2,
        "s" | "south" | "3" => 3,
        "sw" | "south-west" | "southwest" | "4" => 4,
        "nw" | "north-west" | "northwest" | "5" => 5,
        _ => return None,
    };
    Direction::from_number(n)
}

/// The words that begin an order, with their synonyms.
fn verb(word: &str) -> Option<&'static str> {
    Some(match word {
        "move" | "march" | "go" => "move",
        "face" | "turn" => "face",
        "fire" | "shoot" => "fire",
        "shock" | "attack" => "shock",
        "charge" => "charge",
        "counter-charge" | "countercharge" => "counter-charge",
        "hold" | "halt" | "stand" => "hold",
        "join" => "join",
        _ => return None,
    })
}

const VERBS: &str = "move, face, fire, shock, charge, counter-charge, hold, join";

/// Reads one order line.
pub fn parse(line: &str) -> Result<Written, SyntaxError> {
    let trimmed = line.trim();
    let lead = line.chars().count() - line.trim_start().chars().count();
    if trimmed.trim_end_matches('.').eq_ignore_ascii_case("pass") {
        return Ok(KulOrder::Pass);
    }
    let (unit, words) = unit_and_words(trimmed, lead)?;
    let end = lead + trimmed.chars().count() + 1;
    let Some(first) = words.first() else {
        return Err(err(
            end,
            format!("an order is expected after the unit: {VERBS}"),
            EXAMPLE_ANY,
        ));
    };
    let Some(verb) = verb(&first.text.to_lowercase()) else {
        return Err(err(
            first.column,
            format!("`{}` is not an order; the orders are {VERBS}", first.text),
            EXAMPLE_ANY,
        ));
    };
    let unit = Ref(unit);
    let (order, at) = match verb {
        "move" | "face" => read_move(unit, &words, verb == "face", end)?,
        "fire" => read_fire(unit, &words, end)?,
        "shock" | "charge" => read_attack(unit, &words, verb == "shock", end)?,
        "counter-charge" => (KulOrder::CounterCharge { unit }, 1),
        "hold" => (KulOrder::Hold { unit }, 1),
        _ => read_join(unit, &words, end)?,
    };
    if let Some(t) = words.get(at) {
        return Err(err(
            t.column,
            format!("`{}` is not understood after the order", t.text),
            match verb {
                "fire" => EXAMPLE_FIRE,
                "join" => EXAMPLE_JOIN,
                _ => EXAMPLE_ANY,
            },
        ));
    }
    Ok(order)
}

/// The unit and the words of the order after it: the unit is everything
/// before the first colon outside quotes, or else the first word.
fn unit_and_words(trimmed: &str, lead: usize) -> Result<(String, Vec<Token>), SyntaxError> {
    let colon = {
        let mut quoted = false;
        trimmed.char_indices().find(|&(_, c)| {
            if c == '"' {
                quoted = !quoted;
            }
            c == ':' && !quoted
        })
    };
    let (unit, words) = match colon {
        Some((at, _)) => {
            let head = trimmed[..at].trim().trim_matches('"').trim();
            if head.is_empty() {
                return Err(err(lead + 1, "no unit before the colon", EXAMPLE_ANY));
            }
            let unit = head.split_whitespace().collect::<Vec<_>>().join(" ");
            let offset = lead + trimmed[..=at].chars().count();
            (unit, tokens(&trimmed[at + 1..], offset)?)
        }
        None => {
            let mut all = tokens(trimmed, lead)?;
            if all.is_empty() {
                return Err(err(lead + 1, "an empty order", EXAMPLE_ANY));
            }
            let first = all.remove(0);
            (first.text, all)
        }
    };
    // A name is written back in double quotes when it has a space or a
    // colon, so a quote inside one would end it early: the canonical text
    // would not read as the order it was read from.
    if unit.contains(['"', '\u{201c}', '\u{201d}']) {
        return Err(err(
            lead + 1,
            "a unit's name holds no double quote",
            EXAMPLE_ANY,
        ));
    }
    Ok((unit, words))
}

/// `move <hex> ... [face <hexside>] ...` or `face <hexside> [<hex> ...]`:
/// the order and the index of the first word after it.
fn read_move(
    unit: Ref,
    words: &[Token],
    face: bool,
    end: usize,
) -> Result<(Written, usize), SyntaxError> {
    let mut steps = Vec::new();
    let mut at = 1;
    if face {
        steps.push(Step::Face(hexside(words.get(1), end, EXAMPLE_FACE)?));
        at = 2;
    }
    while let Some(t) = words.get(at) {
        let word = t.text.to_lowercase();
        if word == "face" || word == "turn" {
            steps.push(Step::Face(hexside(words.get(at + 1), end, EXAMPLE_MOVE)?));
            at += 2;
        } else if let Some(hex) = Hex::from_label(&word) {
            steps.push(Step::Hex(hex));
            at += 1;
        } else {
            return Err(err(
                t.column,
                format!(
                    "`{}` is not a hex number (four digits, column then row, as the map prints them) or `face`",
                    t.text
                ),
                EXAMPLE_MOVE,
            ));
        }
    }
    if steps.is_empty() {
        return Err(err(
            end,
            "the hexes to move through are expected",
            EXAMPLE_MOVE,
        ));
    }
    Ok((KulOrder::Move { unit, steps }, at))
}

/// The hexside after `face`; `end` is the column past the line, where a
/// missing one is reported.
fn hexside(
    word: Option<&Token>,
    end: usize,
    example: &'static str,
) -> Result<Direction, SyntaxError> {
    let Some(t) = word else {
        return Err(err(
            end,
            "a hexside to face is expected: n, ne, se, s, sw or nw",
            example,
        ));
    };
    direction(&t.text).ok_or_else(|| {
        err(
            t.column,
            format!(
                "`{}` is not a hexside: n, ne, se, s, sw or nw (or 0-5)",
                t.text
            ),
            example,
        )
    })
}

/// `fire [at] <unit>`.
fn read_fire(unit: Ref, words: &[Token], end: usize) -> Result<(Written, usize), SyntaxError> {
    let mut at = 1;
    if words
        .get(1)
        .is_some_and(|t| !t.quoted && t.text.eq_ignore_ascii_case("at"))
    {
        at = 2;
    }
    let target = target(words, at, end, EXAMPLE_FIRE)?;
    Ok((KulOrder::Fire { unit, target }, at + 1))
}

/// `shock <unit> [then <unit>|any]` or `charge` the same.
fn read_attack(
    unit: Ref,
    words: &[Token],
    shock: bool,
    end: usize,
) -> Result<(Written, usize), SyntaxError> {
    let example = if shock { EXAMPLE_SHOCK } else { EXAMPLE_CHARGE };
    let target = target(words, 1, end, example)?;
    let (then, at) = read_then(words, 2, end)?;
    let order = if shock {
        KulOrder::Shock { unit, target, then }
    } else {
        KulOrder::Charge { unit, target, then }
    };
    Ok((order, at))
}

/// An attack's continuation, `then <unit>` or `then any`, from word `at`:
/// [`Then::Stop`] when the line ends there.
fn read_then(words: &[Token], at: usize, end: usize) -> Result<(Then<Ref>, usize), SyntaxError> {
    let Some(t) = words.get(at) else {
        return Ok((Then::Stop, at));
    };
    if t.quoted || !t.text.eq_ignore_ascii_case("then") {
        return Err(err(
            t.column,
            format!(
                "`{}` is not understood here; an attack may end `then <unit>` or `then any`",
                t.text
            ),
            EXAMPLE_SHOCK,
        ));
    }
    let Some(next) = words.get(at + 1) else {
        return Err(err(
            end,
            "whom the attack continues against is expected: a unit or `any`",
            EXAMPLE_SHOCK,
        ));
    };
    let then = if !next.quoted && next.text.eq_ignore_ascii_case("any") {
        Then::Any
    } else {
        Then::Unit(Ref(next.text.clone()))
    };
    Ok((then, at + 2))
}

/// `<leader>: join <unit>`.
fn read_join(leader: Ref, words: &[Token], end: usize) -> Result<(Written, usize), SyntaxError> {
    let unit = target(words, 1, end, EXAMPLE_JOIN)?;
    Ok((KulOrder::Join { leader, unit }, 2))
}

fn target(
    words: &[Token],
    at: usize,
    end: usize,
    example: &'static str,
) -> Result<Ref, SyntaxError> {
    match words.get(at) {
        Some(t) => Ok(Ref(t.text.clone())),
        None => Err(err(
            end,
            "the unit the order is aimed at is expected (its id, or its name in double quotes)",
            example,
        )),
    }
}
