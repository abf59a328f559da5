//! The words of an umpire call: lower-cased, commas read as spaces, and a
//! count stuck to its `x` (`6x12pdr`) taken apart.

use crate::geometry::Hundredths;
use crate::rules::words::{INCH_WORDS, inches_in};

pub struct Words {
    words: Vec<String>,
    at: usize,
}

impl Words {
    pub fn new(text: &str) -> Words {
        let cleaned: String = text
            .chars()
            .map(|c| if c == ',' || c == ';' { ' ' } else { c })
            .collect();
        let mut words = Vec::new();
        for w in crate::rules::words::words(&cleaned) {
            // `6x12pdr` and `6x` are a count and its weapon.
            let digits = w.chars().take_while(char::is_ascii_digit).count();
            if digits > 0 && w[digits..].starts_with('x') {
                words.push(w[..digits].to_string());
                words.push("x".to_string());
                if w.len() > digits + 1 {
                    words.push(w[digits + 1..].to_string());
                }
            } else {
                words.push(w);
            }
        }
        Words { words, at: 0 }
    }

    pub fn peek(&self) -> Option<&str> {
        self.words.get(self.at).map(String::as_str)
    }

    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<String> {
        let w = self.words.get(self.at).cloned();
        self.at += usize::from(w.is_some());
        w
    }

    /// Takes the word if it is the next one.
    pub fn eat(&mut self, word: &str) -> bool {
        let here = self.peek() == Some(word);
        self.at += usize::from(here);
        here
    }

    pub fn expect(&mut self, word: &str) -> Result<(), String> {
        if self.eat(word) {
            Ok(())
        } else {
            Err(format!("expected `{word}`"))
        }
    }

    pub fn number(&mut self) -> Option<u32> {
        let n = self
            .peek()
            .and_then(|w| w.parse::<u32>().ok())
            .filter(|n| *n <= crate::rules::words::MAX_NUMBER)?;
        self.at += 1;
        Some(n)
    }

    /// Takes an inch word after a number (`8 inches`).
    pub fn eat_inch_word(&mut self) {
        if self.peek().is_some_and(|w| INCH_WORDS.contains(&w)) {
            self.at += 1;
        }
    }

    /// A distance written as one word.
    pub fn inches(word: &str) -> Option<Hundredths> {
        inches_in(word).map(i64::from)
    }

    /// What is left, joined.
    pub fn rest(&mut self) -> Vec<String> {
        let rest = self.words[self.at..].to_vec();
        self.at = self.words.len();
        rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_stuck_to_its_x_is_taken_apart() {
        let mut w = Words::new("Fire 6x12pdr, class B, roundshot, massed target, 8 inches");
        let all: Vec<String> = std::iter::from_fn(|| w.next()).collect();
        assert_eq!(
            all,
            [
                "fire",
                "6",
                "x",
                "12pdr",
                "class",
                "b",
                "roundshot",
                "massed",
                "target",
                "8",
                "inches"
            ]
        );
    }
}
