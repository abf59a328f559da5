//! A cursor over the words of one line, each with the column it starts at,
//! which every order and umpire call reader goes through: one way to take a
//! word, a synonym, a number in its range, a distance, a hex or a side, and
//! one error that says where, what was expected and what was found.

use std::fmt;
use std::ops::RangeInclusive;

use super::compass;
use super::{INCH_WORDS, inches_in};
use crate::geometry::{Direction, Hex};

/// One word of a line, with the 1-based column (in characters) it starts
/// at. A quoted name is one word, its quotes left off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub column: usize,
    pub quoted: bool,
}

/// How a line splits into words. White space always parts words; the
/// default lower-cases them and knows nothing else.
#[derive(Debug, Clone, Copy, Default)]
pub struct Splitting {
    /// Characters besides white space that part words and are dropped, as
    /// the commas of a call written as a sentence.
    pub separators: &'static [char],
    /// Double quotes, straight or curly, hold a name with spaces as one word.
    pub quotes: bool,
    /// The words are kept as written (compared in any case all the same),
    /// for readers that write a name back as its player gave it.
    pub keep_case: bool,
    /// The characters of the line before the text split, so that columns
    /// count from the start of the whole line.
    pub offset: usize,
}

/// What stood where a word was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    Word(String),
    End,
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::Word(w) => write!(f, "`{w}`"),
            Found::End => f.write_str("the end of the line"),
        }
    }
}

/// A word that does not read: its 1-based column in characters, what the
/// reader expected there, in plain words, and what it found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: expected {expected}, found {found}")]
pub struct ReadError {
    pub column: usize,
    pub expected: String,
    pub found: Found,
}

impl ReadError {
    /// The word `token` is not what was expected.
    pub fn at(token: &Token, expected: impl Into<String>) -> ReadError {
        ReadError {
            column: token.column,
            expected: expected.into(),
            found: Found::Word(token.text.clone()),
        }
    }

    /// The line ended, at `column`, where more was expected.
    pub fn end(column: usize, expected: impl Into<String>) -> ReadError {
        ReadError {
            column,
            expected: expected.into(),
            found: Found::End,
        }
    }
}

/// Words compared in any case: a table's words are lower-case, a reader
/// that keeps the case as written still reads `Move` as `move`.
fn same(written: &str, word: &str) -> bool {
    written == word || written.to_lowercase() == word
}

/// The words of a line, read one at a time.
#[derive(Debug, Clone)]
pub struct Cursor {
    tokens: Vec<Token>,
    at: usize,
    /// The column just past the line's last character, where an error
    /// about a missing word points.
    end: usize,
}

impl Cursor {
    /// The words of `line`, parted by white space and lower-cased.
    pub fn of(line: &str) -> Cursor {
        let how = Splitting::default();
        // Without quotes nothing can fail to split.
        Cursor::split(line, how).unwrap_or_else(|_| Cursor::from_tokens(Vec::new(), 1))
    }

    /// The words of `text` as `how` splits them; only an unclosed quote
    /// fails.
    pub fn split(text: &str, how: Splitting) -> Result<Cursor, ReadError> {
        let chars: Vec<char> = text.chars().collect();
        let is_quote = |c: char| how.quotes && matches!(c, '"' | '\u{201c}' | '\u{201d}');
        let parts = |c: char| c.is_whitespace() || how.separators.contains(&c);
        let case = |s: String| if how.keep_case { s } else { s.to_lowercase() };
        let mut tokens = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if parts(chars[i]) {
                i += 1;
                continue;
            }
            let start = i;
            let column = how.offset + start + 1;
            if is_quote(chars[i]) {
                let close = (i + 1..chars.len()).find(|&k| is_quote(chars[k]));
                let Some(close) = close else {
                    // Told at the quote that opens it: the end of the line
                    // is where it was missed, the quote is what to mend.
                    return Err(ReadError {
                        column,
                        expected: "a double quote closing this name".to_string(),
                        found: Found::End,
                    });
                };
                let name: String = chars[i + 1..close].iter().collect();
                let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
                tokens.push(Token {
                    text: case(name),
                    column,
                    quoted: true,
                });
                i = close + 1;
                continue;
            }
            while i < chars.len() && !parts(chars[i]) {
                if is_quote(chars[i]) {
                    return Err(ReadError {
                        column: how.offset + i + 1,
                        expected: "a double quote only around a whole name".to_string(),
                        found: Found::Word(chars[start..=i].iter().collect()),
                    });
                }
                i += 1;
            }
            tokens.push(Token {
                text: case(chars[start..i].iter().collect()),
                column,
                quoted: false,
            });
        }
        Ok(Cursor::from_tokens(tokens, how.offset + chars.len() + 1))
    }

    /// A cursor over words a reader split itself; `end` is the column just
    /// past the line.
    pub fn from_tokens(tokens: Vec<Token>, end: usize) -> Cursor {
        Cursor { tokens, at: 0, end }
    }

    /// Every word of the line, read or not.
    pub fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// The next word, not taken.
    pub fn peek(&self) -> Option<&str> {
        self.peek_token().map(|t| t.text.as_str())
    }

    pub fn peek_token(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    /// The word `n` after the next one, not taken.
    pub fn peek_nth(&self, n: usize) -> Option<&str> {
        self.tokens.get(self.at + n).map(|t| t.text.as_str())
    }

    /// The column of the next word, or just past the line at its end.
    pub fn column(&self) -> usize {
        self.peek_token().map_or(self.end, |t| t.column)
    }

    /// The column just past the line.
    pub fn end_column(&self) -> usize {
        self.end
    }

    pub fn is_done(&self) -> bool {
        self.at >= self.tokens.len()
    }

    /// An error at the next word (or the end): `expected` was wanted there.
    pub fn error(&self, expected: impl Into<String>) -> ReadError {
        match self.peek_token() {
            Some(t) => ReadError::at(t, expected),
            None => ReadError::end(self.end, expected),
        }
    }

    /// Takes the next word, which must be there.
    pub fn word(&mut self, expected: &str) -> Result<Token, ReadError> {
        self.next()
            .ok_or_else(|| ReadError::end(self.end, expected))
    }

    /// How many words `phrase` (one or more words parted by spaces) takes
    /// if the line goes on with it here.
    fn matches(&self, phrase: &str) -> Option<usize> {
        let mut n = 0;
        for part in phrase.split_whitespace() {
            let t = self.tokens.get(self.at + n)?;
            // A quoted word is a name, never one of the reader's words.
            if t.quoted || !same(&t.text, part) {
                return None;
            }
            n += 1;
        }
        (n > 0).then_some(n)
    }

    /// Takes `word` if it comes next.
    pub fn eat(&mut self, word: &str) -> bool {
        match self.matches(word) {
            Some(n) => {
                self.at += n;
                true
            }
            None => false,
        }
    }

    /// Takes the first of the synonyms that comes next, the longest when
    /// several do, and gives what it means.
    pub fn eat_any<T: Copy>(&mut self, synonyms: &[(&str, T)]) -> Option<T> {
        self.eat_entry(synonyms.iter().map(|(w, v)| (*w, v)))
            .copied()
    }

    /// As [`Cursor::eat_any`] over any list of words and meanings.
    fn eat_entry<'t, T: 't>(
        &mut self,
        entries: impl Iterator<Item = (&'t str, &'t T)>,
    ) -> Option<&'t T> {
        let (n, value) = entries
            .filter_map(|(w, v)| self.matches(w).map(|n| (n, v)))
            .fold(None, |best: Option<(usize, &T)>, (n, v)| match best {
                Some((m, _)) if m >= n => best,
                _ => Some((n, v)),
            })?;
        self.at += n;
        Some(value)
    }

    /// Takes `word`, which must come next.
    pub fn expect(&mut self, word: &str) -> Result<(), ReadError> {
        if self.eat(word) {
            Ok(())
        } else {
            Err(self.error(format!("`{word}`")))
        }
    }

    /// Takes one of the synonyms, which must come next; `expected` names
    /// them in the error.
    pub fn expect_any<T: Copy>(
        &mut self,
        synonyms: &[(&str, T)],
        expected: &str,
    ) -> Result<T, ReadError> {
        self.eat_any(synonyms).ok_or_else(|| self.error(expected))
    }

    /// A whole number in `range`, which must come next: `what`, `from lo to
    /// hi`. A word that is no such number is left untaken.
    pub fn number(&mut self, what: &str, range: RangeInclusive<u32>) -> Result<u32, ReadError> {
        self.number_if(range.clone()).ok_or_else(|| {
            self.error(format!(
                "{what}, a whole number from {} to {}",
                range.start(),
                range.end()
            ))
        })
    }

    /// Takes the next word if it is a whole number in `range`.
    pub fn number_if(&mut self, range: RangeInclusive<u32>) -> Option<u32> {
        let n = self.peek().and_then(whole).filter(|n| range.contains(n))?;
        self.at += 1;
        Some(n)
    }

    /// A number with or without its sign (`+2`, `-1`, `3`) in `range`.
    pub fn signed(&mut self, what: &str, range: RangeInclusive<i32>) -> Result<i32, ReadError> {
        let read = |w: &str| -> Option<i32> {
            let (negative, digits) = match w.as_bytes().first() {
                Some(b'-') => (true, &w[1..]),
                Some(b'+') => (false, &w[1..]),
                _ => (false, w),
            };
            let n = i32::try_from(whole(digits)?).ok()?;
            Some(if negative { -n } else { n })
        };
        match self.peek().and_then(read).filter(|n| range.contains(n)) {
            Some(n) => {
                self.at += 1;
                Ok(n)
            }
            None => Err(self.error(format!(
                "{what}, a number from {} to {}",
                range.start(),
                range.end()
            ))),
        }
    }

    /// A distance in hundredths of an inch, as [`inches_in`] reads one word
    /// (`3`, `2.5"`, `2-1/2in`), and an inch word after it if one follows.
    pub fn inches(&mut self, what: &str) -> Result<u32, ReadError> {
        self.inches_if()
            .ok_or_else(|| self.error(format!("{what} in inches, as 3 or 2.5\"")))
    }

    /// Takes a distance if one comes next.
    pub fn inches_if(&mut self) -> Option<u32> {
        let h = self.peek().and_then(inches_in)?;
        self.at += 1;
        self.eat_inch_word();
        Some(h)
    }

    /// Takes an inch word or mark (`in`, `inches`, `"`) after a number.
    pub fn eat_inch_word(&mut self) -> bool {
        let here = self.peek().is_some_and(|w| INCH_WORDS.contains(&w));
        self.at += usize::from(here);
        here
    }

    /// A hex by its label (`0304`).
    pub fn hex(&mut self, what: &str) -> Result<Hex, ReadError> {
        let hex = self.peek().and_then(Hex::from_label);
        let hex = hex.ok_or_else(|| self.error(format!("{what}, a hex as 0304")))?;
        self.at += 1;
        Ok(hex)
    }

    /// A side of a hex by its words or number ([`compass::direction`]).
    pub fn direction(&mut self, what: &str) -> Result<Direction, ReadError> {
        let d = self.peek().and_then(compass::direction);
        let d = d.ok_or_else(|| self.error(format!("{what}, a side as n, ne, se, s, sw or nw")))?;
        self.at += 1;
        Ok(d)
    }

    /// A unit as written: every word up to the first of `stops` or the end,
    /// joined by single spaces, at the column of its first word. At least
    /// one word must be there.
    pub fn unit_until(&mut self, what: &str, stops: &[&str]) -> Result<Token, ReadError> {
        let first = self.at;
        while self.peek_token().is_some() && !stops.iter().any(|s| self.matches(s).is_some()) {
            self.at += 1;
        }
        let words = &self.tokens[first..self.at];
        let Some(head) = words.first() else {
            return Err(self.error(what));
        };
        Ok(Token {
            text: words
                .iter()
                .map(|t| t.text.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            column: head.column,
            quoted: words.len() == 1 && head.quoted,
        })
    }

    /// Every word not yet read, taken.
    pub fn rest(&mut self) -> Vec<Token> {
        let rest = self.tokens[self.at.min(self.tokens.len())..].to_vec();
        self.at = self.tokens.len();
        rest
    }

    /// The line must end here.
    pub fn finish(&self) -> Result<(), ReadError> {
        match self.peek_token() {
            Some(t) => Err(ReadError::at(t, "nothing more")),
            None => Ok(()),
        }
    }
}

impl Iterator for Cursor {
    type Item = Token;

    /// Takes the next word.
    fn next(&mut self) -> Option<Token> {
        let t = self.tokens.get(self.at).cloned();
        self.at += usize::from(t.is_some());
        t
    }
}

/// A whole number written in digits alone, no larger than a `u32`.
fn whole(w: &str) -> Option<u32> {
    if w.is_empty() || !w.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    w.parse().ok()
}

/// Reads the verb a line begins with: the entry of `table` one of whose
/// words (a word or several, `cease fire`) comes next, the longest match
/// first, so that a parse is one small function per verb. `expected` names
/// the verbs in the error, as the ruleset lists them for its players.
pub fn by_verb<'t, V>(
    cursor: &mut Cursor,
    table: &'t [(&[&str], V)],
    expected: &str,
) -> Result<&'t V, ReadError> {
    let entries = table
        .iter()
        .flat_map(|(words, v)| words.iter().map(move |w| (*w, v)));
    cursor
        .eat_entry(entries)
        .ok_or_else(|| cursor.error(expected))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_know_their_columns() {
        let c = Cursor::of("  Advance  3\" now");
        let cols: Vec<(&str, usize)> = c
            .tokens()
            .iter()
            .map(|t| (t.text.as_str(), t.column))
            .collect();
        assert_eq!(cols, [("advance", 3), ("3\"", 12), ("now", 15)]);
        assert_eq!(c.end_column(), 18);
    }

    #[test]
    fn separators_quotes_case_and_offset() {
        let how = Splitting {
            separators: &[','],
            quotes: true,
            keep_case: true,
            offset: 4,
        };
        let c = Cursor::split("Fire, \u{201c}Old  Guard\u{201d} x", how).expect("splits");
        let t = c.tokens();
        assert_eq!(t[0].text, "Fire");
        assert_eq!(
            (t[1].text.as_str(), t[1].column, t[1].quoted),
            ("Old Guard", 11, true)
        );
        assert_eq!(t[2].column, 24);
        let e = Cursor::split("a \"open", how).expect_err("unclosed");
        assert_eq!(e.column, 7);
        assert_eq!(e.found, Found::End);
        let e = Cursor::split("ab\"c\"", how).expect_err("a quote inside a word");
        assert_eq!(e.column, 7);
        let mut c = Cursor::split("\"at\" at", how).expect("splits");
        assert!(!c.eat("at"), "a quoted word is a name");
    }

    #[test]
    fn eat_and_expect() {
        let mut c = Cursor::of("Cease Fire at once");
        assert!(!c.eat("fire"));
        assert!(c.eat("cease fire"));
        assert_eq!(c.eat_any(&[("on", 1), ("at", 2), ("at once", 3)]), Some(3));
        assert!(c.is_done());
        let e = c.expect("now").expect_err("nothing left");
        assert_eq!(
            e.to_string(),
            "column 19: expected `now`, found the end of the line"
        );
    }

    #[test]
    fn numbers_keep_to_their_range() {
        let mut c = Cursor::of("4 9 -2 x");
        assert_eq!(c.number("a die", 1..=6), Ok(4));
        let e = c.number("a die", 1..=6).expect_err("9 is no die");
        assert_eq!(
            e.to_string(),
            "column 3: expected a die, a whole number from 1 to 6, found `9`"
        );
        assert_eq!(c.number_if(0..=10), Some(9));
        assert_eq!(c.signed("a modifier", -3..=3), Ok(-2));
        assert!(c.signed("a modifier", -3..=3).is_err());
        assert_eq!(c.peek(), Some("x"));
    }

    #[test]
    fn inches_hexes_and_sides() {
        let mut c = Cursor::of("2-1/2 inches 3\" 0304 NE far");
        assert_eq!(c.inches("a move"), Ok(250));
        assert_eq!(c.inches("a move"), Ok(300));
        assert_eq!(c.hex("the hex"), Ok(Hex::new(3, 4)));
        assert_eq!(c.direction("a facing").map(Direction::number), Ok(1));
        let e = c.inches("a move").expect_err("far is no distance");
        assert_eq!(e.column, 25);
        assert_eq!(e.found, Found::Word("far".into()));
    }

    #[test]
    fn a_unit_runs_to_its_stop_word() {
        let mut c = Cursor::of("2e ligne principal stay");
        let u = c.unit_until("the unit charged", &["principal", "stay"]);
        assert_eq!(u.map(|t| (t.text, t.column)), Ok(("2e ligne".into(), 1)));
        let e = c
            .unit_until("the unit charged", &["principal"])
            .expect_err("none");
        assert_eq!(e.column, 10);
        c.rest();
        assert_eq!(c.finish(), Ok(()));
        let c = Cursor::of("hold fast");
        assert_eq!(c.finish().map_err(|e| e.column), Err(1));
    }

    #[test]
    fn a_verb_table_reads_the_longest_verb() {
        type Read = fn(&mut Cursor) -> Result<String, ReadError>;
        let table: &[(&[&str], Read)] = &[
            (&["fire", "shoot"], |c| {
                Ok(format!("fire {}", c.rest().len()))
            }),
            (&["fire at"], |c| {
                c.word("a target").map(|t| format!("at {}", t.text))
            }),
            (&["hold", "halt"], |c| c.finish().map(|()| "hold".into())),
        ];
        let read = |line: &str| {
            let mut c = Cursor::of(line);
            by_verb(&mut c, table, "an order: fire, fire at, hold").and_then(|f| f(&mut c))
        };
        assert_eq!(read("Fire at b"), Ok("at b".into()));
        assert_eq!(read("shoot"), Ok("fire 0".into()));
        assert_eq!(read("halt"), Ok("hold".into()));
        assert_eq!(
            read("gallop").map_err(|e| e.to_string()),
            Err("column 1: expected an order: fire, fire at, hold, found `gallop`".into())
        );
    }
}
