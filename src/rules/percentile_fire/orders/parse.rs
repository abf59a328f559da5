//! Reads one order line, words with their columns, so that an error names
//! where the line went wrong.

use super::{Action, PfOrder, UnitRef, Way, Written};
use crate::rules::orders::LineError;
use crate::rules::percentile_fire::state::{Formation, Shot, Word};
use crate::rules::words::{INCH_WORDS, inches_in};

/// One word of the line and the column (from 1, in characters) it starts.
#[derive(Debug, Clone)]
struct Tok {
    word: String,
    column: usize,
}

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

fn tokens(text: &str, from: usize) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut start = 0;
    for (i, c) in text.chars().enumerate() {
        if c.is_whitespace() || c == ',' {
            if !current.is_empty() {
                out.push(Tok {
                    word: current.to_lowercase(),
                    column: from + start,
                });
                current.clear();
            }
        } else {
            if current.is_empty() {
                start = i;
            }
            current.push(c);
        }
    }
    if !current.is_empty() {
        out.push(Tok {
            word: current.to_lowercase(),
            column: from + start,
        });
    }
    out
}

struct Line {
    toks: Vec<Tok>,
    at: usize,
    end: usize,
    hint: String,
}

impl Line {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.at).map(|t| t.word.as_str())
    }

    fn column(&self) -> usize {
        self.toks.get(self.at).map_or(self.end, |t| t.column)
    }

    fn error(&self, message: impl Into<String>) -> LineError {
        LineError {
            column: self.column(),
            message: format!("column {}: {}", self.column(), message.into()),
            example: self.hint.clone(),
        }
    }

    fn next(&mut self) -> Option<String> {
        let w = self.peek().map(str::to_string);
        self.at += usize::from(w.is_some());
        w
    }

    fn eat(&mut self, word: &str) -> bool {
        let here = self.peek() == Some(word);
        self.at += usize::from(here);
        here
    }

    fn expect(&mut self, word: &str) -> Result<(), LineError> {
        if self.eat(word) {
            Ok(())
        } else {
            Err(self.error(format!("expected `{word}`")))
        }
    }

    fn finish(&self) -> Result<(), LineError> {
        match self.peek() {
            None => Ok(()),
            Some(w) => Err(self.error(format!("`{w}` is more than the order takes"))),
        }
    }

    /// The rest of the line as a unit reference.
    fn target(&mut self, what: &str) -> Result<UnitRef, LineError> {
        self.eat("at");
        if self.peek().is_none() {
            return Err(self.error(format!("expected {what}")));
        }
        let words: Vec<String> = std::iter::from_fn(|| self.next()).collect();
        Ok(UnitRef::new(&words.join(" ")))
    }

    fn distance(&mut self) -> Result<i64, LineError> {
        let Some(word) = self.peek() else {
            return Err(self.error("expected a distance in inches"));
        };
        let Some(h) = inches_in(word).filter(|h| *h > 0) else {
            return Err(self.error(format!(
                "`{word}` is not a distance in inches (4, 2.5, 1-1/2)"
            )));
        };
        self.at += 1;
        if self.peek().is_some_and(|w| INCH_WORDS.contains(&w)) {
            self.at += 1;
        }
        Ok(i64::from(h))
    }
}

/// Reads one order line.
pub fn parse(line: &str) -> Result<Written, LineError> {
    let text = line.trim();
    let lead = line.chars().count() - line.trim_start().chars().count();
    if text.eq_ignore_ascii_case("pass") {
        return Ok(PfOrder::Pass);
    }
    // The unit: what comes before the first colon, or the first word.
    let (unit, rest, rest_from) = match text.split_once(':') {
        Some((u, rest)) => (u.trim().to_string(), rest, lead + u.chars().count() + 2),
        None => {
            let first = text.split_whitespace().next().unwrap_or("");
            (
                first.to_string(),
                &text[first.len()..],
                lead + first.chars().count() + 1,
            )
        }
    };
    let end = line.chars().count() + 1;
    let mut l = Line {
        toks: tokens(rest, rest_from),
        at: 0,
        end,
        hint: "2-ligne: fire ir-49".to_string(),
    };
    if unit.is_empty() {
        return Err(LineError {
            column: lead + 1,
            message: format!(
                "column {}: expected the unit, then a colon and its order, or `pass`",
                lead + 1
            ),
            example: l.hint,
        });
    }
    let unit = UnitRef::new(&unit);
    let Some(verb) = l.peek().map(str::to_string) else {
        return Err(l.error(format!(
            "expected an order after the unit; the orders are: {}",
            EXAMPLES
                .iter()
                .map(|(v, _)| *v)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    };
    if !EXAMPLES.iter().any(|(v, _)| *v == verb) {
        return Err(l.error(format!(
            "`{verb}` is not an order; the orders are: {}",
            EXAMPLES
                .iter()
                .map(|(v, _)| *v)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    l.hint = example(&verb);
    l.at += 1;
    let action = match verb.as_str() {
        "hold" => Action::Hold,
        "retire" => Action::Retire,
        "forward" | "back" | "left" | "right" => {
            let way = match verb.as_str() {
                "forward" => Way::Forward,
                "back" => Way::Back,
                "left" => Way::Left,
                _ => Way::Right,
            };
            Action::Move(way, l.distance()?)
        }
        "face" => {
            let Some(deg) = l
                .peek()
                .and_then(|w| w.trim_end_matches('°').parse::<u32>().ok())
                .filter(|d| *d < 360)
            else {
                return Err(
                    l.error("expected a facing in whole degrees, 0 to 359 (0 north, 90 east)")
                );
            };
            l.at += 1;
            Action::Face(deg)
        }
        "form" => {
            let Some(form) = l
                .peek()
                .and_then(|w| FORMATIONS.iter().find(|(n, _)| *n == w))
                .map(|(_, f)| *f)
            else {
                return Err(l.error(
                    "expected a formation: line, column, square, skirmish, limber or unlimber",
                ));
            };
            l.at += 1;
            Action::Form(form)
        }
        "charge" => Action::Charge(l.target("the unit charged")?),
        "shock" => Action::Shock(l.target("the unit attacked")?),
        "opportunity" => {
            let passby = l.eat("and");
            if passby {
                l.expect("passby")?;
            }
            l.expect("fire")?;
            Action::Standing {
                opportunity: true,
                passby,
            }
        }
        "passby" => {
            l.expect("fire")?;
            Action::Standing {
                opportunity: false,
                passby: true,
            }
        }
        "fire" => {
            l.eat("at");
            // A trailing shot word predetermines the shot.
            let shot = l
                .toks
                .last()
                .and_then(|t| Shot::from_word(&t.word))
                .filter(|_| l.toks.len() > l.at + 1);
            if shot.is_some() {
                l.toks.pop();
            }
            let target = l.target("the target")?;
            Action::Fire { target, shot }
        }
        "final" => {
            l.expect("fire")?;
            Action::FinalFire(l.target("the shocking unit")?)
        }
        "support" => {
            l.eat("fire");
            Action::Support(l.target("the shocking unit")?)
        }
        _ => Action::Replace(l.target("the unit replaced")?),
    };
    l.finish()?;
    Ok(PfOrder::Unit { unit, action })
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
        assert!(
            e.message.contains("`volley` is not an order"),
            "{}",
            e.message
        );
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
