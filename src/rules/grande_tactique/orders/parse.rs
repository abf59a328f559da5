//! Reading one order line: the syntax alone, units as written. Words are
//! read in any case; a unit is named by its id or the start of its name,
//! which may hold spaces (`1er cuirassiers: charge 2e ligne principal`).

use super::super::state::Formation;
use super::{Action, Order, Written};
use crate::rules::words::inches_in;

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

/// One word of the line, lowered, with the column it starts at.
#[derive(Debug, Clone)]
struct Word {
    text: String,
    column: usize,
}

fn words_of(text: &str, offset: usize) -> Vec<Word> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut start = 0;
    for (k, c) in text.chars().enumerate() {
        if c.is_whitespace() {
            if !current.is_empty() {
                out.push(Word {
                    text: std::mem::take(&mut current).to_lowercase(),
                    column: offset + start + 1,
                });
            }
        } else {
            if current.is_empty() {
                start = k;
            }
            current.push(c);
        }
    }
    if !current.is_empty() {
        out.push(Word {
            text: current.to_lowercase(),
            column: offset + start + 1,
        });
    }
    out
}

fn fail(column: usize, message: impl Into<String>, verb: &str) -> SyntaxError {
    SyntaxError {
        column,
        message: message.into(),
        example: example(verb),
    }
}

/// A unit named by the words given, joined by single spaces.
fn named(words: &[Word]) -> String {
    words
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads one order line.
pub fn parse(line: &str) -> Result<Written, SyntaxError> {
    let Some(colon) = line.find(':') else {
        return Err(fail(
            1,
            "an order names its unit, then a colon, then what it does",
            "charge",
        ));
    };
    let unit_part = &line[..colon];
    let unit_words = words_of(unit_part, 0);
    if unit_words.is_empty() {
        return Err(fail(1, "no unit is named before the colon", "charge"));
    }
    let offset = unit_part.chars().count() + 1;
    let words = words_of(&line[colon + 1..], offset);
    let end = line.chars().count() + 1;
    let Some((verb, rest)) = words.split_first() else {
        return Err(fail(
            end,
            format!("no order after the colon; the orders are: {VERBS}"),
            "charge",
        ));
    };
    let action = action(verb, rest, end)?;
    Ok(Order {
        unit: named(&unit_words),
        action,
    })
}

fn action(verb: &Word, rest: &[Word], end: usize) -> Result<Action<String>, SyntaxError> {
    let at_end = |what: &str, v: &str| fail(end, what.to_string(), v);
    let nothing_more = |v: &str| -> Result<(), SyntaxError> {
        match rest.first() {
            Some(w) => Err(fail(w.column, format!("`{}` has nothing after it", v), v)),
            None => Ok(()),
        }
    };
    Ok(match verb.text.as_str() {
        "charge" | "charges" => {
            let mut principal = false;
            let mut stay = false;
            let mut target = rest.to_vec();
            while let Some(last) = target.last() {
                match last.text.as_str() {
                    "principal" => principal = true,
                    "stay" | "stays" => stay = true,
                    _ => break,
                }
                target.pop();
            }
            if target.is_empty() {
                return Err(at_end("`charge` names the enemy unit it charges", "charge"));
            }
            Action::Charge {
                target: named(&target),
                principal,
                stay,
            }
        }
        "advance" | "forward" | "retire" | "back" => {
            let v = if matches!(verb.text.as_str(), "advance" | "forward") {
                "advance"
            } else {
                "retire"
            };
            let Some(first) = rest.first() else {
                return Err(at_end(&format!("`{v}` needs a distance in inches"), v));
            };
            let d = inches_in(&first.text).filter(|d| *d > 0).ok_or_else(|| {
                fail(
                    first.column,
                    format!("`{}` is not a distance in inches", first.text),
                    v,
                )
            })?;
            if let Some(w) = rest.get(1)
                && !matches!(w.text.as_str(), "in" | "inch" | "inches" | "\"" | "''")
            {
                return Err(fail(w.column, format!("`{v}` takes one distance"), v));
            }
            if v == "advance" {
                Action::Advance(i64::from(d))
            } else {
                Action::Retire(i64::from(d))
            }
        }
        "face" => {
            if rest.is_empty() {
                return Err(at_end(
                    "`face` needs a bearing in degrees or a unit",
                    "face",
                ));
            }
            let first = &rest[0];
            if first.text.chars().all(|c| c.is_ascii_digit()) {
                let b: u32 = first
                    .text
                    .parse()
                    .ok()
                    .filter(|b| *b < 360)
                    .ok_or_else(|| fail(first.column, "a bearing is 0 to 359 degrees", "face"))?;
                if let Some(w) = rest.get(1) {
                    return Err(fail(w.column, "`face` takes one bearing", "face"));
                }
                Action::Face(b)
            } else {
                Action::FaceUnit(named(rest))
            }
        }
        "form" => {
            let Some(first) = rest.first() else {
                return Err(at_end("`form` needs line, column or square", "form"));
            };
            let x = Formation::from_word(&first.text).ok_or_else(|| {
                fail(
                    first.column,
                    format!(
                        "`{}` is not a formation: line, column or square",
                        first.text
                    ),
                    "form",
                )
            })?;
            if let Some(w) = rest.get(1) {
                return Err(fail(w.column, "`form` takes one formation", "form"));
            }
            Action::Form(x)
        }
        "fire" => match rest.first().map(|w| w.text.as_str()) {
            None => Action::StartFiring,
            Some("at" | "on") => {
                if rest.len() < 2 {
                    return Err(at_end("`fire at` names the enemy unit fired at", "fire"));
                }
                Action::FireAt(named(&rest[1..]))
            }
            Some(_) => {
                return Err(fail(
                    rest[0].column,
                    "`fire` alone starts firing; `fire at <unit>` fires at a target",
                    "fire",
                ));
            }
        },
        "cease" => {
            match rest.first() {
                Some(w) if w.text == "fire" || w.text == "firing" => {}
                Some(w) => return Err(fail(w.column, "write `cease fire`", "cease")),
                None => return Err(at_end("write `cease fire`", "cease")),
            }
            if let Some(w) = rest.get(1) {
                return Err(fail(w.column, "`cease fire` has nothing after it", "cease"));
            }
            Action::CeaseFire
        }
        "rally" => {
            nothing_more("rally")?;
            Action::Rally
        }
        "hold" => {
            nothing_more("hold")?;
            Action::Hold
        }
        other => {
            return Err(fail(
                verb.column,
                format!("`{other}` is not an order; the orders are: {VERBS}"),
                "charge",
            ));
        }
    })
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
