//! The words of an umpire call, through the shared cursor: lower-cased,
//! commas and semicolons read as spaces, and a count stuck to its `x`
//! (`6x12pdr`) taken apart.

use crate::rules::words::{Cursor, Splitting, Token};

/// A call written as a sentence parts its words with commas as often as
/// with spaces.
const SEPARATORS: &[char] = &[',', ';'];

/// The words of a call.
pub fn cursor(text: &str) -> Cursor {
    let how = Splitting {
        separators: SEPARATORS,
        ..Splitting::default()
    };
    // Without quotes nothing can fail to split.
    let plain = Cursor::split(text, how).unwrap_or_else(|_| Cursor::of(text));
    let end = plain.end_column();
    let mut tokens = Vec::new();
    for t in plain.tokens() {
        // `6x12pdr` and `6x` are a count and its weapon.
        let digits = t.text.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 && t.text[digits..].starts_with('x') {
            let part = |text: &str, at: usize| Token {
                text: text.to_string(),
                column: t.column + at,
                quoted: false,
            };
            tokens.push(part(&t.text[..digits], 0));
            tokens.push(part("x", digits));
            if t.text.len() > digits + 1 {
                tokens.push(part(&t.text[digits + 1..], digits + 1));
            }
        } else {
            tokens.push(t.clone());
        }
    }
    Cursor::from_tokens(tokens, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_stuck_to_its_x_is_taken_apart() {
        let w = cursor("Fire 6x12pdr, class B, roundshot, massed target, 8 inches");
        let all: Vec<(&str, usize)> = w
            .tokens()
            .iter()
            .map(|t| (t.text.as_str(), t.column))
            .collect();
        assert_eq!(
            all,
            [
                ("fire", 1),
                ("6", 6),
                ("x", 7),
                ("12pdr", 8),
                ("class", 15),
                ("b", 21),
                ("roundshot", 24),
                ("massed", 35),
                ("target", 42),
                ("8", 50),
                ("inches", 52)
            ]
        );
    }
}
