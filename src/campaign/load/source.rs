//! One campaign file's text, and the places in it problems point at.

use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use super::Problem;

pub(super) struct Source {
    path: PathBuf,
    text: String,
}

impl Source {
    /// Reads a file; a missing or unreadable file is a problem at its line 1.
    pub fn read(path: &Path, problems: &mut Vec<Problem>) -> Option<Source> {
        match std::fs::read_to_string(path) {
            Ok(text) => Some(Source {
                path: path.to_path_buf(),
                text,
            }),
            Err(e) => {
                let problem = Problem {
                    file: path.to_path_buf(),
                    line: 1,
                    column: 1,
                    message: if e.kind() == std::io::ErrorKind::NotFound {
                        "missing file".to_string()
                    } else {
                        format!("cannot read the file: {e}")
                    },
                    hint: None,
                };
                problems.push(problem.with_hint(
                    "a campaign folder holds campaign.toml and scenario.toml, in UTF-8; see docs/CAMPAIGN-FILES.md",
                ));
                None
            }
        }
    }

    /// A file's text given as it is.
    pub fn from_text(path: &Path, text: &str) -> Source {
        Source {
            path: path.to_path_buf(),
            text: text.to_string(),
        }
    }

    /// Parses the whole file into `T`. serde stops at the first syntax
    /// error, wrong type or unknown key, which is reported here.
    pub fn parse<T: DeserializeOwned>(&self, problems: &mut Vec<Problem>) -> Option<T> {
        match toml::from_str::<T>(&self.text) {
            Ok(value) => Some(value),
            Err(e) => {
                let (message, hint) = explain(e.message());
                let mut problem = self.at(e.span().unwrap_or(0..0), message);
                problem.hint = hint;
                problems.push(problem);
                None
            }
        }
    }

    /// A problem at the start of a span of the file.
    pub fn at(&self, span: Range<usize>, message: impl Into<String>) -> Problem {
        let (line, column) = self.position(span.start);
        Problem {
            file: self.path.clone(),
            line,
            column,
            message: message.into(),
            hint: None,
        }
    }

    /// The 1-based line and column (in characters) of a byte offset.
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }

    /// The 1-based line of a byte offset, for "first given at line N".
    pub fn line(&self, offset: usize) -> usize {
        self.position(offset).0
    }
}

/// Rewords serde's messages in the words of a TOML file ("key", not
/// "field"), and moves the list of allowed keys into the hint.
fn explain(message: &str) -> (String, Option<String>) {
    let message = message.trim_end();
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let (key, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
        let allowed = backticked(expected);
        let hint = if allowed.is_empty() {
            "no keys are allowed here".to_string()
        } else {
            format!("the keys allowed here are {}", allowed.join(", "))
        };
        return (format!("unknown key {key}"), Some(hint));
    }
    if let Some(key) = message.strip_prefix("missing field ") {
        return (format!("missing key {key}"), None);
    }
    if let Some(rest) = message.strip_prefix("invalid type: ")
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        // serde names Rust's integer type; the file knows whole numbers.
        let expected = if expected == "i64" {
            "a whole number"
        } else {
            expected
        };
        return (
            format!("wrong type: expected {expected}, found {found}"),
            None,
        );
    }
    if let Some(rest) = message.strip_prefix("invalid length ") {
        return (format!("wrong number of items: {rest}"), None);
    }
    (message.to_string(), None)
}

/// The `quoted` words of serde's "expected one of `a`, `b`".
fn backticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(text: &str) -> Source {
        Source {
            path: PathBuf::from("f.toml"),
            text: text.to_string(),
        }
    }

    #[test]
    fn positions_are_one_based_and_count_characters() {
        let s = source("a = 1\nnom = \"Épée\" x\n");
        assert_eq!(s.position(0), (1, 1));
        assert_eq!(s.position(4), (1, 5));
        assert_eq!(s.position(6), (2, 1));
        // É and é take two bytes each; the x is still the 14th character.
        let x = s.text.find(" x").map(|i| i + 1).unwrap_or_default();
        assert_eq!(s.position(x), (2, 14));
    }

    #[test]
    fn unknown_keys_list_the_allowed_ones_in_the_hint() {
        let (message, hint) = explain("unknown field `foo`, expected one of `id`, `name`");
        assert_eq!(message, "unknown key `foo`");
        assert_eq!(hint.as_deref(), Some("the keys allowed here are id, name"));
        let (_, hint) = explain("unknown field `foo`, expected `id` or `title`");
        assert_eq!(hint.as_deref(), Some("the keys allowed here are id, title"));
    }

    #[test]
    fn wrong_types_say_what_was_expected() {
        let (message, _) = explain("invalid type: integer `3`, expected a string");
        assert_eq!(message, "wrong type: expected a string, found integer `3`");
        assert_eq!(explain("missing field `title`").0, "missing key `title`");
    }
}
