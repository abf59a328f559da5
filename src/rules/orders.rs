//! The three steps of an order: text, parsed order (syntax only), validated
//! order (checked against the state and phase). Each step has its own error
//! type, so a reply can say which step failed, on which line, under which
//! rule.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One order as written, after syntax is checked. `unit` is the id the order
/// names once resolved; `words` are the rest, lower-cased and single-spaced.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Order {
    pub verb: String,
    pub unit: Option<String>,
    pub words: Vec<String>,
}

/// The canonical form: `unit: verb words`, the unit first as players write
/// it (docs/ORDERS.md), or `verb words` for an order that names no unit.
impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(unit) = &self.unit {
            write!(f, "{unit}: ")?;
        }
        f.write_str(&self.verb)?;
        for word in &self.words {
            write!(f, " {word}")?;
        }
        Ok(())
    }
}

/// The syntax of one line could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct ParseError {
    pub line: usize,
    pub problem: String,
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

/// One side's orders for a phase once checked: the accepted orders, in the
/// order given, and every line that was refused.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderSheet {
    pub accepted: Vec<Order>,
    pub salt: Vec<String>,
    pub parse_errors: Vec<ParseError>,
    pub rejections: Vec<Rejection>,
}

impl OrderSheet {
    /// The canonical text: one order per line, then the salt lines, each
    /// ending in LF. Its SHA-256 is the side's order digest.
    pub fn canonical_text(&self) -> String {
        canonical_text(&self.accepted, &self.salt)
    }

    pub fn is_clean(&self) -> bool {
        self.parse_errors.is_empty() && self.rejections.is_empty()
    }
}

/// See [`OrderSheet::canonical_text`].
pub fn canonical_text(orders: &[Order], salt: &[String]) -> String {
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

/// Lower-cases and single-spaces a line's words.
pub fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_lowercase).collect()
}
