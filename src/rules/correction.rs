//! A game master's correction of one unit: the text `correct <unit> ...`,
//! its one canonical form, and the new state it makes.
//!
//! A correction sets the envelope's `strength`, `position` and `facing`, and
//! any field of the ruleset's part of the unit by its name in the state
//! (`formation column`, `shaken yes`, `rout_hits 2`). The ruleset then checks
//! the unit as corrected, as it would a unit set up by a scenario.
//!
//! A correction is part of the recorded history, not a silent edit: the
//! archive holds its canonical text with the states before and after, and
//! `verify` re-applies the text to the state before and compares the bytes
//! (docs/AUDIT.md, "Game master's acts"). So applying one is pure and
//! deterministic, like a resolution: no dice, no clock, no I/O.

use std::fmt;

use super::board::Location;
use super::ruleset::Rules;
use super::state::{GameState, PartError, UnitState};
use super::words::{hundredths_up_to, inches_fixed};

/// A position as written: on a table, hundredths of an inch (written in
/// inches, with up to two decimals); on a hex map, column and row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position(pub u64, pub u64);

/// A value for a field of the ruleset's part, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// `yes`, `true` or `on`; `no`, `false` or `off`.
    Flag(bool),
    Whole(u64),
    /// `none`: the field is cleared.
    Clear,
    /// A word: `column`, `l-left`.
    Word(String),
    /// A JSON value written without spaces, for a field that holds a list or
    /// a point: `["ir-1","ir-4"]`, `{"x":1200,"y":300}`; kept canonical.
    Json(String),
}

/// One field a correction sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setting {
    Strength(u32),
    Position(Position),
    Facing(u32),
    /// A field of the ruleset's part of the unit, by its name in the state.
    Part {
        field: String,
        value: Value,
    },
}

impl Setting {
    fn field(&self) -> &str {
        match self {
            Setting::Strength(_) => "strength",
            Setting::Position(_) => "position",
            Setting::Facing(_) => "facing",
            Setting::Part { field, .. } => field,
        }
    }
}

/// A correction, its settings in their canonical order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Correction {
    pub unit: String,
    pub settings: Vec<Setting>,
}

/// The order spec adjutant-audit-v2 fixed for the fields a correction could
/// first set (docs/AUDIT.md, section 10); any other field follows them, in
/// the byte order of its name.
const FIRST_FIELDS: &[&str] = &[
    "strength",
    "formation",
    "position",
    "facing",
    "shaken",
    "disordered",
];

fn rank(field: &str) -> (usize, String) {
    let at = FIRST_FIELDS
        .iter()
        .position(|f| *f == field)
        .unwrap_or(FIRST_FIELDS.len());
    (at, field.to_string())
}

/// Why a correction's text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CorrectionSyntaxError {
    #[error("a correction names a unit: `correct <unit> strength 10 formation line ...`")]
    NoUnit,
    #[error(
        "a correction sets at least one field: strength, position, facing, or a field of the unit such as formation"
    )]
    NothingToSet,
    #[error("{0} is set twice")]
    Twice(String),
    #[error("{field} needs a value: {expected}")]
    Missing {
        field: String,
        expected: &'static str,
    },
    #[error("`{value}` is not a valid {field}: {expected}")]
    Bad {
        field: String,
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
    #[error("facing {0} is out of range ({1})")]
    Facing(u32, &'static str),
    #[error("the position must be {0}")]
    PositionKind(&'static str),
    #[error("`{field}` is not something a correction sets on this unit; it sets {known}")]
    UnknownField { field: String, known: String },
    #[error("`{value}` is not a valid {field}: {problem}")]
    BadValue {
        field: String,
        value: String,
        problem: String,
    },
    /// The ruleset refuses the unit as corrected.
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    State(#[from] PartError),
}

fn whole(field: &str, word: Option<&str>) -> Result<u32, CorrectionSyntaxError> {
    let expected = "a whole number";
    let word = word.ok_or_else(|| CorrectionSyntaxError::Missing {
        field: field.to_string(),
        expected,
    })?;
    word.parse().map_err(|_| CorrectionSyntaxError::Bad {
        field: field.to_string(),
        value: word.to_string(),
        expected,
    })
}

/// Reads the value of a ruleset field, lexically: what it means is settled
/// against the unit when the correction is applied.
fn value(field: &str, word: Option<&str>) -> Result<Value, CorrectionSyntaxError> {
    let expected = "yes or no, a number, a word, none, or a JSON value without spaces";
    let word = word.ok_or_else(|| CorrectionSyntaxError::Missing {
        field: field.to_string(),
        expected,
    })?;
    let bad = || CorrectionSyntaxError::Bad {
        field: field.to_string(),
        value: word.to_string(),
        expected,
    };
    Ok(match word {
        "yes" | "true" | "on" => Value::Flag(true),
        "no" | "false" | "off" => Value::Flag(false),
        "none" => Value::Clear,
        w if w.starts_with('[') || w.starts_with('{') => {
            let json: serde_json::Value = serde_json::from_str(w).map_err(|_| bad())?;
            Value::Json(crate::canonical::to_string(&json))
        }
        w if w.bytes().all(|b| b.is_ascii_digit()) => Value::Whole(w.parse().map_err(|_| bad())?),
        w if w
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.')) =>
        {
            Value::Word(w.to_string())
        }
        _ => return Err(bad()),
    })
}

impl Correction {
    /// Reads the words after `correct`. Words are compared lower-cased; a
    /// `=` between a field and its value is allowed (`strength=10`), and a
    /// field's name may be written with `-` for `_` (`rout-hits 2`).
    pub fn parse(text: &str) -> Result<Correction, CorrectionSyntaxError> {
        let lowered = text.to_lowercase().replace('=', " ");
        let mut words = lowered.split_whitespace();
        let unit = words.next().ok_or(CorrectionSyntaxError::NoUnit)?;
        let mut settings: Vec<Setting> = Vec::new();
        while let Some(field) = words.next() {
            let setting = match field {
                "strength" => Setting::Strength(whole("strength", words.next())?),
                "position" | "at" => Setting::Position(position(&mut words)?),
                "facing" => Setting::Facing(whole("facing", words.next())?),
                other => {
                    let field = other.replace('-', "_");
                    let value = value(&field, words.next())?;
                    Setting::Part { field, value }
                }
            };
            if settings.iter().any(|s| s.field() == setting.field()) {
                return Err(CorrectionSyntaxError::Twice(setting.field().to_string()));
            }
            settings.push(setting);
        }
        if settings.is_empty() {
            return Err(CorrectionSyntaxError::NothingToSet);
        }
        settings.sort_by_key(|s| rank(s.field()));
        Ok(Correction {
            unit: unit.to_string(),
            settings,
        })
    }
}

/// Reads `12.5 30`, `12.5, 30` or `12.5,30`.
fn position<'a>(
    words: &mut impl Iterator<Item = &'a str>,
) -> Result<Position, CorrectionSyntaxError> {
    let expected = "two numbers, x and y in inches (table) or column and row (hex)";
    let mut coordinate = || {
        words
            .next()
            .map(|w| w.trim_end_matches(',').to_string())
            .ok_or(CorrectionSyntaxError::Missing {
                field: "position".to_string(),
                expected,
            })
    };
    // "12,30" written without a space holds both numbers.
    let first = coordinate()?;
    let (x, y) = match first.split_once(',') {
        Some((x, y)) => (x.to_string(), y.to_string()),
        None => (first.clone(), coordinate()?),
    };
    let read = |w: &str| {
        hundredths_up_to(w, 9_999)
            .map(u64::from)
            .ok_or(CorrectionSyntaxError::Bad {
                field: "position".to_string(),
                value: w.to_string(),
                expected: "a number, with at most two decimals",
            })
    };
    Ok(Position(read(&x)?, read(&y)?))
}

/// Applies `correction` to `state` for the ruleset `rules`. The state is
/// otherwise unchanged; nothing rolls.
pub fn apply<R: Rules>(
    rules: &R,
    state: &GameState,
    correction: &Correction,
) -> Result<GameState, CorrectionError> {
    let mut next = state.clone();
    let at = next
        .units
        .iter()
        .position(|u| u.id == correction.unit)
        .ok_or_else(|| CorrectionError::NoUnit(correction.unit.clone()))?;
    let unit = &mut next.units[at];
    if let Some(why) = &unit.eliminated {
        return Err(CorrectionError::Eliminated(
            correction.unit.clone(),
            why.clone(),
        ));
    }
    let on_hexes = matches!(unit.location, Location::Hex { .. });
    for setting in &correction.settings {
        match setting {
            Setting::Strength(s) => {
                if *s > unit.original_strength {
                    return Err(CorrectionError::TooStrong {
                        given: *s,
                        original: unit.original_strength,
                    });
                }
                unit.strength = *s;
            }
            Setting::Position(p) => unit.location = location(*p, on_hexes)?,
            Setting::Facing(f) => {
                let (most, range) = if on_hexes {
                    (5, "hexside 0 to 5")
                } else {
                    (359, "0 to 359 degrees")
                };
                if *f > most {
                    return Err(CorrectionError::Facing(*f, range));
                }
                unit.facing = *f;
            }
            Setting::Part { field, value } => set_part(rules, unit, field, value)?,
        }
    }
    // The unit as the ruleset holds it, so that the bytes are those a
    // resolution would write, and as the ruleset allows it.
    let typed = unit.typed::<R::Unit>(rules.id())?;
    rules.check_unit(&typed).map_err(CorrectionError::Refused)?;
    *unit = typed.raw();
    Ok(next)
}

/// Sets one field of the ruleset's part, read as the field's own type.
fn set_part<R: Rules>(
    rules: &R,
    unit: &mut UnitState,
    field: &str,
    value: &Value,
) -> Result<(), CorrectionError> {
    let known = fields_of::<R>(rules, unit)?;
    if !known.iter().any(|f| f == field) {
        return Err(CorrectionError::UnknownField {
            field: field.to_string(),
            known: ["strength", "position", "facing"]
                .into_iter()
                .map(str::to_string)
                .chain(known)
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    let json = match value {
        Value::Flag(b) => serde_json::Value::Bool(*b),
        Value::Whole(n) => serde_json::Value::from(*n),
        Value::Clear => serde_json::Value::Null,
        Value::Word(w) => serde_json::Value::String(w.clone()),
        Value::Json(text) => serde_json::from_str(text).unwrap_or(serde_json::Value::Null),
    };
    let before = unit.rules.insert(field.to_string(), json);
    if let Err(e) = unit.typed::<R::Unit>(rules.id()) {
        match before {
            Some(v) => unit.rules.insert(field.to_string(), v),
            None => unit.rules.remove(field),
        };
        return Err(CorrectionError::BadValue {
            field: field.to_string(),
            value: value.to_string(),
            problem: e.problem,
        });
    }
    Ok(())
}

/// The names of the fields of the ruleset's part of a unit: those it holds,
/// and those it leaves out of its JSON while they hold their default, which
/// a unit with every such field set shows.
fn fields_of<R: Rules>(rules: &R, unit: &UnitState) -> Result<Vec<String>, PartError> {
    let typed = unit.typed::<R::Unit>(rules.id())?;
    let mut fields: Vec<String> = typed.raw().rules.keys().cloned().collect();
    for f in rules.unit_fields() {
        if !fields.iter().any(|k| k == f) {
            fields.push(f.to_string());
        }
    }
    fields.sort();
    Ok(fields)
}

fn location(p: Position, on_hexes: bool) -> Result<Location, CorrectionError> {
    let Position(x, y) = p;
    if on_hexes {
        // Hex positions are whole columns and rows, written without
        // decimals: `position 3 4` reads as 300 and 400 hundredths.
        if x % 100 != 0 || y % 100 != 0 {
            return Err(CorrectionError::PositionKind("a column and a row"));
        }
        let column = u32::try_from(x / 100)
            .map_err(|_| CorrectionError::PositionKind("a column and a row"))?;
        let row = u32::try_from(y / 100)
            .map_err(|_| CorrectionError::PositionKind("a column and a row"))?;
        Ok(Location::Hex { column, row })
    } else {
        let x = i64::try_from(x).map_err(|_| CorrectionError::PositionKind("on the table"))?;
        let y = i64::try_from(y).map_err(|_| CorrectionError::PositionKind("on the table"))?;
        Ok(Location::Table { x, y })
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Flag(true) => f.write_str("yes"),
            Value::Flag(false) => f.write_str("no"),
            Value::Whole(n) => write!(f, "{n}"),
            Value::Clear => f.write_str("none"),
            Value::Word(w) | Value::Json(w) => f.write_str(w),
        }
    }
}

/// The canonical text: `correct <unit>` then each field set, in the order
/// of [`FIRST_FIELDS`] and then by name; a position as two numbers with two
/// decimals.
impl fmt::Display for Correction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "correct {}", self.unit)?;
        for setting in &self.settings {
            match setting {
                Setting::Strength(s) => write!(f, " strength {s}")?,
                Setting::Position(Position(x, y)) => {
                    write!(f, " position {} {}", inches_fixed(*x), inches_fixed(*y))?
                }
                Setting::Facing(x) => write!(f, " facing {x}")?,
                Setting::Part { field, value } => write!(f, " {field} {value}")?,
            }
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
    fn other_fields_follow_by_name_and_take_dashes_for_underscores() {
        let c =
            Correction::parse("garde rout-hits 2 disordered on blown yes screening [\"a\",\"b\"]")
                .expect("reads");
        assert_eq!(
            c.to_string(),
            r#"correct garde disordered yes blown yes rout_hits 2 screening ["a","b"]"#
        );
        assert_eq!(parse_line(&c.to_string()), Ok(c));
    }

    #[test]
    fn bad_corrections_say_what_is_wrong() {
        assert_eq!(Correction::parse(""), Err(CorrectionSyntaxError::NoUnit));
        assert_eq!(
            Correction::parse("garde"),
            Err(CorrectionSyntaxError::NothingToSet)
        );
        assert_eq!(
            Correction::parse("garde strength 3 strength 4"),
            Err(CorrectionSyntaxError::Twice("strength".into()))
        );
        assert!(matches!(
            Correction::parse("garde shaken may(be)"),
            Err(CorrectionSyntaxError::Bad { .. })
        ));
        assert!(matches!(
            Correction::parse("garde strength"),
            Err(CorrectionSyntaxError::Missing { .. })
        ));
        assert!(matches!(
            Correction::parse("garde position 12.345 3"),
            Err(CorrectionSyntaxError::Bad { .. })
        ));
    }
}
