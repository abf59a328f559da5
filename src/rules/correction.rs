//! A game master's correction of one unit: the text `correct <unit> ...`,
//! its one canonical form, and the new state it makes.
//!
//! A correction is part of the recorded history, not a silent edit: the
//! archive holds its canonical text with the states before and after, and
//! `verify` re-applies the text to the state before and compares the bytes
//! (docs/AUDIT.md, "Game master's acts"). So applying one is pure and
//! deterministic, like a resolution: no dice, no clock, no I/O.

use std::fmt;

use crate::rules::GameState;
use crate::rules::board::Location;

/// The fields a correction may set, each at most once. `None` leaves the
/// field as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Correction {
    pub unit: String,
    pub strength: Option<u32>,
    pub formation: Option<String>,
    pub position: Option<Position>,
    pub facing: Option<u32>,
    pub shaken: Option<bool>,
    pub disordered: Option<bool>,
}

/// A position as written: on a table, hundredths of an inch (written in
/// inches, with up to two decimals); on a hex map, column and row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position(pub u64, pub u64);

/// Why a correction's text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CorrectionSyntaxError {
    #[error("a correction names a unit: `correct <unit> strength 10 formation line ...`")]
    NoUnit,
    #[error(
        "a correction sets at least one of: strength, formation, position, facing, shaken, disordered"
    )]
    NothingToSet,
    #[error(
        "`{0}` is not something a correction sets (strength, formation, position, facing, shaken, disordered)"
    )]
    UnknownField(String),
    #[error("{0} is set twice")]
    Twice(&'static str),
    #[error("{field} needs a value: {expected}")]
    Missing {
        field: &'static str,
        expected: &'static str,
    },
    #[error("`{value}` is not a valid {field}: {expected}")]
    Bad {
        field: &'static str,
        value: String,
        expected: &'static str,
    },
}

/// Why a correction cannot apply to the state.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CorrectionError {
    #[error("there is no unit `{0}` in the game")]
    NoUnit(String),
    #[error("unit `{0}` has left play ({1}); it cannot be corrected")]
    Eliminated(String, String),
    #[error("strength {given} is more than the unit's original strength {original}")]
    TooStrong { given: u32, original: u32 },
    #[error("`{given}` is not a formation of this ruleset ({known})")]
    Formation { given: String, known: String },
    #[error("facing {0} is out of range ({1})")]
    Facing(u32, &'static str),
    #[error("the position must be {0}")]
    PositionKind(&'static str),
}

fn yes_no(field: &'static str, word: Option<&str>) -> Result<bool, CorrectionSyntaxError> {
    match word {
        Some("yes" | "true" | "on") => Ok(true),
        Some("no" | "false" | "off") => Ok(false),
        Some(other) => Err(CorrectionSyntaxError::Bad {
            field,
            value: other.to_string(),
            expected: "yes or no",
        }),
        None => Err(CorrectionSyntaxError::Missing {
            field,
            expected: "yes or no",
        }),
    }
}

fn whole(field: &'static str, word: Option<&str>) -> Result<u32, CorrectionSyntaxError> {
    let expected = "a whole number";
    let word = word.ok_or(CorrectionSyntaxError::Missing { field, expected })?;
    word.parse().map_err(|_| CorrectionSyntaxError::Bad {
        field,
        value: word.to_string(),
        expected,
    })
}

/// Reads `12`, `12.5` or `12.05` (inches) as hundredths, without floats, so
/// that the same text always gives the same integer.
fn hundredths(word: &str) -> Option<u64> {
    let (whole, fraction) = word.split_once('.').unwrap_or((word, ""));
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) || fraction.len() > 2 {
        return None;
    }
    if !fraction.bytes().all(|b| b.is_ascii_digit()) || (word.contains('.') && fraction.is_empty())
    {
        return None;
    }
    let whole: u64 = whole.parse().ok()?;
    let cents: u64 = match fraction.len() {
        0 => 0,
        1 => fraction.parse::<u64>().ok()? * 10,
        _ => fraction.parse().ok()?,
    };
    whole.checked_mul(100)?.checked_add(cents)
}

impl Correction {
    /// Reads the words after `correct`. Words are compared lower-cased; a
    /// `=` between a field and its value is allowed (`strength=10`).
    pub fn parse(text: &str) -> Result<Correction, CorrectionSyntaxError> {
        let lowered = text.to_lowercase().replace('=', " ");
        let mut words = lowered.split_whitespace();
        let unit = words.next().ok_or(CorrectionSyntaxError::NoUnit)?;
        let mut c = Correction {
            unit: unit.to_string(),
            ..Correction::default()
        };
        while let Some(field) = words.next() {
            match field {
                "strength" => {
                    once(&c.strength, "strength")?;
                    c.strength = Some(whole("strength", words.next())?);
                }
                "formation" => {
                    once(&c.formation, "formation")?;
                    let expected = "a formation word, e.g. line or column";
                    let word = words.next().ok_or(CorrectionSyntaxError::Missing {
                        field: "formation",
                        expected,
                    })?;
                    if !word.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') {
                        return Err(CorrectionSyntaxError::Bad {
                            field: "formation",
                            value: word.to_string(),
                            expected,
                        });
                    }
                    c.formation = Some(word.to_string());
                }
                "position" | "at" => {
                    once(&c.position, "position")?;
                    let expected = "two numbers, x and y in inches (table) or column and row (hex)";
                    let mut coordinate = || {
                        let w = words.next().map(|w| w.trim_end_matches(',')).ok_or(
                            CorrectionSyntaxError::Missing {
                                field: "position",
                                expected,
                            },
                        )?;
                        Ok::<String, CorrectionSyntaxError>(w.to_string())
                    };
                    // "12,30" written without a space holds both numbers.
                    let first = coordinate()?;
                    let (x, y) = match first.split_once(',') {
                        Some((x, y)) => (x.to_string(), y.to_string()),
                        None => (first.clone(), coordinate()?),
                    };
                    let read = |w: &str| {
                        hundredths(w).ok_or(CorrectionSyntaxError::Bad {
                            field: "position",
                            value: w.to_string(),
                            expected: "a number, with at most two decimals",
                        })
                    };
                    c.position = Some(Position(read(&x)?, read(&y)?));
                }
                "facing" => {
                    once(&c.facing, "facing")?;
                    c.facing = Some(whole("facing", words.next())?);
                }
                "shaken" => {
                    once(&c.shaken, "shaken")?;
                    c.shaken = Some(yes_no("shaken", words.next())?);
                }
                "disordered" => {
                    once(&c.disordered, "disordered")?;
                    c.disordered = Some(yes_no("disordered", words.next())?);
                }
                other => return Err(CorrectionSyntaxError::UnknownField(other.to_string())),
            }
        }
        if c == (Correction {
            unit: c.unit.clone(),
            ..Correction::default()
        }) {
            return Err(CorrectionSyntaxError::NothingToSet);
        }
        Ok(c)
    }

    /// Applies the correction to `state`, for a ruleset whose formations are
    /// `formations` (empty: any formation word). The state is otherwise
    /// unchanged; nothing rolls.
    pub fn apply(
        &self,
        state: &GameState,
        formations: &[&str],
    ) -> Result<GameState, CorrectionError> {
        let mut next = state.clone();
        let unit = next
            .units
            .iter_mut()
            .find(|u| u.spec.id == self.unit)
            .ok_or_else(|| CorrectionError::NoUnit(self.unit.clone()))?;
        if let Some(why) = &unit.eliminated {
            return Err(CorrectionError::Eliminated(self.unit.clone(), why.clone()));
        }
        if let Some(s) = self.strength {
            if s > unit.original_strength {
                return Err(CorrectionError::TooStrong {
                    given: s,
                    original: unit.original_strength,
                });
            }
            unit.spec.strength = s;
        }
        if let Some(f) = &self.formation {
            if !formations.is_empty() && !formations.contains(&f.as_str()) {
                return Err(CorrectionError::Formation {
                    given: f.clone(),
                    known: formations.join(", "),
                });
            }
            unit.spec.formation = f.clone();
        }
        let on_hexes = matches!(unit.spec.location, Location::Hex { .. });
        if let Some(Position(x, y)) = self.position {
            unit.spec.location = if on_hexes {
                // Hex positions are whole columns and rows, written without
                // decimals: `position 3 4` reads as 300 and 400 hundredths.
                if x % 100 != 0 || y % 100 != 0 {
                    return Err(CorrectionError::PositionKind("a column and a row"));
                }
                let col = u32::try_from(x / 100)
                    .map_err(|_| CorrectionError::PositionKind("a column and a row"))?;
                let row = u32::try_from(y / 100)
                    .map_err(|_| CorrectionError::PositionKind("a column and a row"))?;
                Location::Hex { column: col, row }
            } else {
                let x =
                    i64::try_from(x).map_err(|_| CorrectionError::PositionKind("on the table"))?;
                let y =
                    i64::try_from(y).map_err(|_| CorrectionError::PositionKind("on the table"))?;
                Location::Table { x, y }
            };
        }
        if let Some(f) = self.facing {
            let (most, range) = if on_hexes {
                (5, "hexside 0 to 5")
            } else {
                (359, "0 to 359 degrees")
            };
            if f > most {
                return Err(CorrectionError::Facing(f, range));
            }
            unit.spec.facing = f;
        }
        if let Some(s) = self.shaken {
            unit.shaken = s;
        }
        if let Some(d) = self.disordered {
            unit.disordered = d;
        }
        Ok(next)
    }
}

fn once<T>(slot: &Option<T>, field: &'static str) -> Result<(), CorrectionSyntaxError> {
    match slot {
        Some(_) => Err(CorrectionSyntaxError::Twice(field)),
        None => Ok(()),
    }
}

fn inches(h: u64) -> String {
    format!("{}.{:02}", h / 100, h % 100)
}

/// The canonical text: `correct <unit>` then each field set, in the fixed
/// order strength, formation, position, facing, shaken, disordered; a
/// position as two numbers with two decimals.
impl fmt::Display for Correction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "correct {}", self.unit)?;
        if let Some(s) = self.strength {
            write!(f, " strength {s}")?;
        }
        if let Some(x) = &self.formation {
            write!(f, " formation {x}")?;
        }
        if let Some(Position(x, y)) = self.position {
            write!(f, " position {} {}", inches(x), inches(y))?;
        }
        if let Some(x) = self.facing {
            write!(f, " facing {x}")?;
        }
        let word = |b: bool| if b { "yes" } else { "no" };
        if let Some(x) = self.shaken {
            write!(f, " shaken {}", word(x))?;
        }
        if let Some(x) = self.disordered {
            write!(f, " disordered {}", word(x))?;
        }
        Ok(())
    }
}

/// Reads a whole canonical line `correct ...` (as the archive holds it).
pub fn parse_line(line: &str) -> Result<Correction, CorrectionSyntaxError> {
    let rest = line
        .trim()
        .strip_prefix("correct ")
        .ok_or(CorrectionSyntaxError::NoUnit)?;
    Correction::parse(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_in_any_order_give_one_canonical_text() {
        let a = Correction::parse("1-ligne Shaken no strength=10 AT 12.5, 30 formation column")
            .expect("reads");
        let b = Correction::parse(
            "1-ligne formation column position 12.50,30 strength 10 shaken false",
        )
        .expect("reads");
        assert_eq!(a, b);
        assert_eq!(
            a.to_string(),
            "correct 1-ligne strength 10 formation column position 12.50 30.00 shaken no"
        );
        assert_eq!(parse_line(&a.to_string()), Ok(a));
    }

    #[test]
    fn inches_are_read_to_the_hundredth_without_floats() {
        assert_eq!(hundredths("12"), Some(1200));
        assert_eq!(hundredths("12.5"), Some(1250));
        assert_eq!(hundredths("0.05"), Some(5));
        assert_eq!(hundredths("12.345"), None);
        assert_eq!(hundredths("12."), None);
        assert_eq!(hundredths("-1"), None);
        assert_eq!(hundredths(".5"), None);
    }

    #[test]
    fn bad_corrections_say_what_is_wrong() {
        assert_eq!(Correction::parse(""), Err(CorrectionSyntaxError::NoUnit));
        assert_eq!(
            Correction::parse("garde"),
            Err(CorrectionSyntaxError::NothingToSet)
        );
        assert_eq!(
            Correction::parse("garde morale 3"),
            Err(CorrectionSyntaxError::UnknownField("morale".into()))
        );
        assert_eq!(
            Correction::parse("garde strength 3 strength 4"),
            Err(CorrectionSyntaxError::Twice("strength"))
        );
        assert!(matches!(
            Correction::parse("garde shaken maybe"),
            Err(CorrectionSyntaxError::Bad {
                field: "shaken",
                ..
            })
        ));
        assert!(matches!(
            Correction::parse("garde strength"),
            Err(CorrectionSyntaxError::Missing {
                field: "strength",
                ..
            })
        ));
    }
}
