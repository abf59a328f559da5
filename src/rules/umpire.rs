//! Umpire calls: one resolution asked for by the GM, with every table
//! lookup, modifier and die shown, drawn from the same audited dice.

use serde::{Deserialize, Serialize};
use std::fmt;

use super::kernel::Modifier;
use super::words::{Cursor, ReadError, by_verb};
use crate::audit::dice::{Dice, Die};

/// One step of an umpire call, in the order it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum UmpireLine {
    /// A value read from a table: which table, which row or column, what it gave.
    Lookup {
        table: String,
        row: String,
        value: String,
    },
    /// A modifier applied, with its reason in the rule's words.
    Modifier { reason: String, value: i32 },
    /// A die thrown, with its purpose and value (as logged in the roll log).
    Roll {
        purpose: String,
        die: String,
        value: u32,
    },
    /// Arithmetic or a rule applied, in words.
    Note { text: String },
}

/// The result of one umpire call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UmpireReport {
    /// The call in canonical form; its digest is what the manifest records.
    pub call: String,
    pub lines: Vec<UmpireLine>,
    /// The outcome in one or two sentences.
    pub outcome: String,
    /// The call's result as the ruleset types it (points, dice, hits...),
    /// as JSON, for tests and tools that read the figures rather than the
    /// words. Not archived: the report's words and dice are the record.
    #[serde(skip)]
    pub result: serde_json::Value,
}

/// Why a call could not be made. The message says what was wrong and how to
/// write it, citing the rule where one forbids it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UmpireError {
    /// No call of that name exists for the ruleset.
    #[error("unknown call `{name}`; the calls are: {known}")]
    UnknownCall { name: String, known: String },
    /// A call's words could not be read.
    #[error("in `{call}`: {problem}")]
    Syntax { call: String, problem: String },
    /// The game state the call would read cannot be read (damaged bytes).
    #[error("the game state cannot be read: {0}")]
    State(String),
    /// The call asks for something the rules forbid.
    #[error("{problem} ({clause})")]
    Forbidden { problem: String, clause: String },
}

impl UmpireReport {
    /// The modifiers the call applied, each as `reason +n`.
    pub fn modifiers(&self) -> Vec<String> {
        self.lines
            .iter()
            .filter_map(|l| match l {
                UmpireLine::Modifier { reason, value } => Some(format!("{reason} {value:+}")),
                _ => None,
            })
            .collect()
    }
}

impl fmt::Display for UmpireReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "call: {}", self.call)?;
        for line in &self.lines {
            match line {
                UmpireLine::Lookup { table, row, value } => {
                    writeln!(f, "  table   {table}: {row} -> {value}")?
                }
                UmpireLine::Modifier { reason, value } => {
                    writeln!(f, "  modifier {value:+} {reason}")?
                }
                UmpireLine::Roll {
                    purpose,
                    die,
                    value,
                } => writeln!(f, "  roll    {die} = {value}  ({purpose})")?,
                UmpireLine::Note { text } => writeln!(f, "  {text}")?,
            }
        }
        write!(f, "result: {}", self.outcome)
    }
}

/// A call's typed result with its report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Called<T> {
    pub result: T,
    pub report: UmpireReport,
}

/// The lines of a report as a call builds them.
#[derive(Debug, Default)]
pub struct Trace {
    pub lines: Vec<UmpireLine>,
    pub outcome: String,
}

impl Trace {
    pub fn lookup(
        &mut self,
        table: impl Into<String>,
        row: impl Into<String>,
        value: impl Into<String>,
    ) {
        self.lines.push(UmpireLine::Lookup {
            table: table.into(),
            row: row.into(),
            value: value.into(),
        });
    }

    pub fn modifier(&mut self, m: &Modifier) {
        self.lines.push(UmpireLine::Modifier {
            reason: m.reason.clone(),
            value: m.value,
        });
    }

    pub fn note(&mut self, text: impl Into<String>) {
        self.lines.push(UmpireLine::Note { text: text.into() });
    }

    /// Rolls one die of any kind and records it, as the roll log does.
    pub fn roll(&mut self, dice: &mut dyn Dice, die: Die, purpose: &str) -> u32 {
        let value = dice.roll(die, purpose);
        self.lines.push(UmpireLine::Roll {
            purpose: purpose.to_string(),
            die: die.label().to_string(),
            value,
        });
        value
    }

    pub fn finish<T>(self, call: String, result: T) -> Called<T> {
        Called {
            result,
            report: UmpireReport {
                call,
                lines: self.lines,
                outcome: self.outcome,
                result: serde_json::Value::Null,
            },
        }
    }
}

/// A word of `call` that does not read, as the shared reader words it, and
/// the form the call takes (none when `form` is empty).
pub fn unread(call: &str, e: &ReadError, form: &str) -> UmpireError {
    UmpireError::Syntax {
        call: call.to_string(),
        problem: if form.is_empty() {
            e.to_string()
        } else {
            format!("{e}; write {form}")
        },
    }
}

/// A word read wrong, from a reader that does not hold the call's text:
/// the reader's caller names the call with [`UmpireError::within`].
impl From<ReadError> for UmpireError {
    fn from(e: ReadError) -> UmpireError {
        UmpireError::Syntax {
            call: String::new(),
            problem: e.to_string(),
        }
    }
}

impl UmpireError {
    /// Names the call a syntax error was found in, where the reader that
    /// found it did not.
    pub fn within(self, text: &str) -> UmpireError {
        match self {
            UmpireError::Syntax { call, problem } if call.is_empty() => UmpireError::Syntax {
                call: text.to_string(),
                problem,
            },
            other => other,
        }
    }
}

/// A call the rules forbid, citing the clause: `heading` names the section,
/// `quote` gives its words (or is empty).
pub fn forbidden(problem: &str, heading: &str, quote: &str) -> UmpireError {
    UmpireError::Forbidden {
        problem: problem.to_string(),
        clause: if quote.is_empty() {
            heading.to_string()
        } else {
            format!("{heading}: \"{quote}\"")
        },
    }
}

/// The call a line names, read from its first words by a ruleset's table
/// of calls; a line naming none is `UnknownCall`, listing every call's
/// words, in every ruleset alike.
pub fn call_of<'t, F>(w: &mut Cursor, calls: &'t [(&[&str], F)]) -> Result<&'t F, UmpireError> {
    by_verb(w, calls, "a call").map_err(|_| UmpireError::UnknownCall {
        name: w.peek().unwrap_or_default().to_string(),
        known: calls
            .iter()
            .map(|(names, _)| names.join(", "))
            .collect::<Vec<_>>()
            .join(", "),
    })
}
