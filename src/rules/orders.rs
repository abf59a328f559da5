//! The three steps of an order: text, parsed order (syntax only), validated
//! order (checked against the state and phase). Each step has its own error
//! type, so a reply can say which step failed, on which line, under which
//! rule.

use std::fmt;

/// The syntax of one line could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct ParseError {
    pub line: usize,
    pub problem: String,
}

/// A line that is not an order of the ruleset, from the syntax step alone:
/// where it failed (1-based column, in characters), the whole message, and
/// an example of the right form (empty when the ruleset has none to give).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct LineError {
    pub column: usize,
    pub message: String,
    pub example: String,
}

/// A well-formed order the state or the phase does not allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {}{problem}{}", unit.as_ref().map(|u| format!("{u}: ")).unwrap_or_default(), clause.as_ref().map(|c| format!(" ({c})")).unwrap_or_default())]
pub struct Rejection {
    pub line: usize,
    pub unit: Option<String>,
    pub problem: String,
    /// The rule that forbids it, e.g. `Charging, rule 5`.
    pub clause: Option<String>,
}

/// An accepted order whose outcome hangs on what comes before it in the
/// phase and cannot be known when it is given (the enemy's answer, a die of
/// the turn): it stands, and the acknowledgement says what may undo it and
/// under which rule. A warning refuses nothing and does not keep a side from
/// being ready.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub line: usize,
    pub unit: Option<String>,
    pub problem: String,
    /// The rule it turns on, e.g. `Charging and Evading, Evading`.
    pub clause: Option<String>,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        if let Some(unit) = &self.unit {
            write!(f, "{unit}: ")?;
        }
        write!(f, "{}", self.problem)?;
        if let Some(clause) = &self.clause {
            write!(f, " ({clause})")?;
        }
        Ok(())
    }
}

/// One side's orders for a phase once checked: the accepted orders, in the
/// order given, every line that was refused, and the warnings on accepted
/// lines. A ruleset fills it with its own order type; outside the rules core
/// the orders are their canonical lines ([`OrderSheet::erase`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderSheet<O = String> {
    pub accepted: Vec<O>,
    pub salt: Vec<String>,
    pub parse_errors: Vec<ParseError>,
    pub rejections: Vec<Rejection>,
    /// Only the acknowledgement gives these (`Rules::acknowledge`); they are
    /// no part of the canonical text or its digest.
    pub warnings: Vec<Warning>,
}

impl<O> Default for OrderSheet<O> {
    fn default() -> Self {
        OrderSheet {
            accepted: Vec::new(),
            salt: Vec::new(),
            parse_errors: Vec::new(),
            rejections: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

impl<O: fmt::Display> OrderSheet<O> {
    /// The canonical text: one order per line, then the salt lines, each
    /// ending in LF. Its SHA-256 is the side's order digest.
    pub fn canonical_text(&self) -> String {
        canonical_text(&self.accepted, &self.salt)
    }

    pub fn is_clean(&self) -> bool {
        self.parse_errors.is_empty() && self.rejections.is_empty()
    }

    /// Every refused line, wording or rule, as the reply words it, in the
    /// order of the lines.
    pub fn refusals(&self) -> Vec<String> {
        let mut all: Vec<(usize, String)> = self
            .parse_errors
            .iter()
            .map(|e| (e.line, e.to_string()))
            .chain(self.rejections.iter().map(|r| (r.line, r.to_string())))
            .collect();
        all.sort_by_key(|(line, _)| *line);
        all.into_iter().map(|(_, text)| text).collect()
    }

    /// Every warning, as the reply words it, in the order of the lines.
    pub fn warned(&self) -> Vec<String> {
        let mut all: Vec<&Warning> = self.warnings.iter().collect();
        all.sort_by_key(|w| w.line);
        all.into_iter().map(ToString::to_string).collect()
    }

    /// The sheet with each order as its canonical line.
    pub fn erase(self) -> OrderSheet {
        OrderSheet {
            accepted: self.accepted.iter().map(ToString::to_string).collect(),
            salt: self.salt,
            parse_errors: self.parse_errors,
            rejections: self.rejections,
            warnings: self.warnings,
        }
    }
}

impl OrderSheet {
    /// A sheet for a state whose ruleset parts do not read (damaged bytes):
    /// nothing is accepted, and the reply says why.
    pub fn unreadable_state(e: &super::state::PartError) -> OrderSheet {
        OrderSheet {
            rejections: vec![Rejection {
                line: 0,
                unit: None,
                problem: format!("the game state cannot be read ({e}); tell the GM"),
                clause: None,
            }],
            ..OrderSheet::default()
        }
    }
}

/// See [`OrderSheet::canonical_text`].
pub fn canonical_text<O: fmt::Display>(orders: &[O], salt: &[String]) -> String {
    let mut out = String::new();
    for order in orders {
        out.push_str(&order.to_string());
        out.push('\n');
    }
    for s in salt {
        out.push_str("salt ");
        out.push_str(s);
        out.push('\n');
    }
    out
}

/// Splits order text into meaningful lines: numbered from 1, trimmed, with
/// blank lines and `#` comments dropped.
pub fn order_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}
