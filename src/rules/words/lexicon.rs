//! Reading the words of an umpire call whose words come in any order.
//!
//! A call is one line: its name, then `key value` pairs, flags and (where
//! the call takes a unit) a count, the unit's kind and its formation, in
//! any order and any case. The kinds and formations are the ruleset's own
//! words ([`Bare`]); the rest is the same for every ruleset. Words may be joined by hyphens or written apart (`soft cover`
//! and `soft-cover` are the same word), and `key=value` reads as `key
//! value`. Every word must mean something: an unknown word is an error that
//! lists the words the call takes, so a typo never passes silently.

use std::collections::{BTreeMap, BTreeSet};

use super::{Cursor, INCH_WORDS, MAX_NUMBER, ReadError, Splitting, Token, inches_in};
use crate::rules::umpire::UmpireError;

/// A class of words a call takes bare, as a ruleset names them: a unit's
/// kind (its troop type, weapon system or arm) or its formation.
pub trait Bare: Copy + PartialEq + Sized + 'static {
    /// What one is called in messages (`troop type`, `formation`).
    const WHAT: &'static str;
    /// A word that may stand before one (`formation line`), if any.
    const KEY: Option<&'static str> = None;
    /// How the words a call takes list them.
    fn listing() -> String;
    /// What is expected after the [`Bare::KEY`].
    fn expected() -> String {
        format!("a {}: {}", Self::WHAT, Self::listing())
    }
    /// The one a word (or hyphen-joined phrase) names, if any.
    fn read(word: &str) -> Option<Self>;
    /// Its word, for messages.
    fn word(self) -> &'static str;
}

/// The class of a ruleset whose calls take no such word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoWord {}

impl Bare for NoWord {
    const WHAT: &'static str = "word";
    fn listing() -> String {
        String::new()
    }
    fn read(_: &str) -> Option<NoWord> {
        None
    }
    fn word(self) -> &'static str {
        match self {}
    }
}

/// A key, which takes the next word as its value.
#[derive(Debug)]
pub struct KeyWord {
    pub name: &'static str,
    /// How the value is written, for the help and the error messages.
    pub hint: &'static str,
    pub aliases: &'static [&'static str],
}

/// A flag: a word that says something holds.
#[derive(Debug)]
pub struct FlagWord {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
}

/// The words one call (or one side of a call) takes: its kinds of unit
/// `K` and formations `F`.
#[derive(Debug)]
pub struct Lexicon<K: Bare, F: Bare> {
    /// The call's name, for messages.
    pub call: &'static str,
    pub keys: &'static [KeyWord],
    pub flags: &'static [FlagWord],
    /// Words that read well but add nothing (`target`, `at`, `with`).
    pub fillers: &'static [&'static str],
    /// Whether a word of the unit's kind is taken.
    pub kinds: bool,
    /// Whether formation words are taken, bare or after their key.
    pub formations: bool,
    /// What a bare number counts, if the call takes one.
    pub count: Option<&'static str>,
    /// The ruleset's kinds and formations, named by the type alone.
    pub bare: std::marker::PhantomData<(K, F)>,
}

/// What the words of a call said.
#[derive(Debug)]
pub struct Reading<K: Bare, F: Bare> {
    pub lexicon: &'static Lexicon<K, F>,
    /// The whole call as typed, trimmed, for error messages.
    pub text: String,
    pub count: Option<u32>,
    pub kind: Option<K>,
    pub formation: Option<F>,
    /// Each key's value, as the word it was written in.
    values: BTreeMap<&'static str, Token>,
    flags: BTreeSet<&'static str>,
    /// What stands just after the words read (the end of the line, or the
    /// `vs` of a combat call), where a missing value is told of.
    after: ReadError,
}

/// What separates the words of a call besides spaces.
const SEPARATORS: &[char] = &[',', ';', '=', ':', '(', ')', '[', ']', '{', '}'];

/// Splits a call into lower-case words, each with its column. Commas,
/// semicolons, brackets, `=` and `:` separate words; underscores read as
/// hyphens; a full stop ending a word is dropped.
pub fn tokens(text: &str) -> Vec<Token> {
    let how = Splitting {
        separators: SEPARATORS,
        ..Splitting::default()
    };
    // Without quotes nothing can fail to split.
    let split = Cursor::split(text, how).unwrap_or_else(|_| Cursor::of(""));
    split
        .tokens()
        .iter()
        .map(|t| Token {
            text: t.text.replace('_', "-").trim_end_matches('.').to_string(),
            ..t.clone()
        })
        .filter(|t| !t.text.is_empty())
        .collect()
}

/// The words joined by hyphens, as a phrase of the lexicon is written.
fn phrase(words: &[Token]) -> String {
    words
        .iter()
        .map(|t| t.text.as_str())
        .collect::<Vec<_>>()
        .join("-")
}

impl<K: Bare, F: Bare> Lexicon<K, F> {
    /// The words this call takes, as one line for error messages.
    pub fn words(&self) -> String {
        let mut parts = Vec::new();
        if let Some(count) = self.count {
            parts.push(format!("<{count}>"));
        }
        if self.kinds {
            parts.push(K::listing());
        }
        for key in self.keys {
            parts.push(format!("{} {}", key.name, key.hint));
        }
        if self.formations {
            parts.push(F::listing());
        }
        for flag in self.flags {
            parts.push(flag.name.to_string());
        }
        parts.join(", ")
    }

    fn key(&self, word: &str) -> Option<&'static str> {
        self.keys
            .iter()
            .find(|k| k.name == word || k.aliases.contains(&word))
            .map(|k| k.name)
    }

    fn flag(&self, word: &str) -> Option<&'static str> {
        self.flags
            .iter()
            .find(|f| f.name == word || f.aliases.contains(&word))
            .map(|f| f.name)
    }

    fn kind(&self, word: &str) -> Option<K> {
        if self.kinds { K::read(word) } else { None }
    }

    fn formation(&self, word: &str) -> Option<F> {
        if self.formations { F::read(word) } else { None }
    }

    /// Reads `words` (already split by [`tokens`]) as this call's words;
    /// `after` is the word that follows them, if the line goes on.
    pub fn read(
        &'static self,
        text: &str,
        words: &[Token],
        after: Option<&Token>,
    ) -> Result<Reading<K, F>, UmpireError> {
        let end = text.chars().count() + 1;
        let mut reading = Reading {
            lexicon: self,
            text: text.trim().to_string(),
            count: None,
            kind: None,
            formation: None,
            values: BTreeMap::new(),
            flags: BTreeSet::new(),
            after: after.map_or(ReadError::end(end, ""), |t| ReadError::at(t, "")),
        };
        let mut i = 0;
        'words: while i < words.len() {
            // The longest run of words that makes one known word wins, so
            // that `line infantry` is a troop type, not a formation.
            for len in (1..=3).rev() {
                if i + len > words.len() {
                    continue;
                }
                let phrase = phrase(&words[i..i + len]);
                if let Some(used) = reading.take_phrase(&phrase, &words[i + len..])? {
                    i += len + used;
                    continue 'words;
                }
            }
            let token = &words[i];
            let word = token.text.as_str();
            if let Some((key, value)) = word
                .split_once('-')
                .and_then(|(k, v)| self.key(k).map(|k| (k, v)))
                && !value.is_empty()
            {
                let value = Token {
                    text: value.to_string(),
                    column: token.column + word.len() - value.len(),
                    quoted: false,
                };
                reading.set_value(key, &value)?;
                i += 1;
                continue;
            }
            if word.chars().all(|c| c.is_ascii_digit()) {
                let Some(what) = self.count else {
                    return Err(reading.unread(ReadError::at(
                        token,
                        format!(
                            "a word of `{}` (a bare number counts nothing here): {}",
                            self.call,
                            self.words()
                        ),
                    )));
                };
                let n = reading.number(what, token)?;
                if reading.count.is_some_and(|c| c != n) {
                    return Err(reading.syntax(format!("two numbers of {what} given")));
                }
                reading.count = Some(n);
                i += 1;
                continue;
            }
            return Err(reading.unread(ReadError::at(
                token,
                format!("a word of `{}`: {}", self.call, self.words()),
            )));
        }
        Ok(reading)
    }
}

impl<K: Bare, F: Bare> Reading<K, F> {
    /// Takes one known word; returns how many of the following words it
    /// used as its value, or `None` if the word is not known.
    fn take_phrase(&mut self, phrase: &str, rest: &[Token]) -> Result<Option<usize>, UmpireError> {
        let lexicon = self.lexicon;
        if lexicon.fillers.contains(&phrase) || INCH_WORDS.contains(&phrase) {
            return Ok(Some(0));
        }
        if let Some(flag) = lexicon.flag(phrase) {
            self.flags.insert(flag);
            return Ok(Some(0));
        }
        if lexicon.formations && F::KEY == Some(phrase) {
            let Some(value) = rest.first() else {
                return Err(self.missing(&F::expected()));
            };
            let Some(formation) = F::read(&value.text) else {
                return Err(self.unread(ReadError::at(value, F::expected())));
            };
            self.set_formation(formation)?;
            return Ok(Some(1));
        }
        if let Some(formation) = lexicon.formation(phrase) {
            self.set_formation(formation)?;
            return Ok(Some(0));
        }
        if let Some(kind) = lexicon.kind(phrase) {
            if self.kind.is_some_and(|t| t != kind) {
                return Err(self.syntax(format!(
                    "two {}s given (`{}` and `{}`)",
                    K::WHAT,
                    self.kind.map_or("", K::word),
                    kind.word()
                )));
            }
            self.kind = Some(kind);
            return Ok(Some(0));
        }
        if let Some(key) = lexicon.key(phrase) {
            let Some(value) = rest.first() else {
                let hint = lexicon
                    .keys
                    .iter()
                    .find(|k| k.name == key)
                    .map_or("", |k| k.hint);
                return Err(self.missing(&format!("a value for `{key}`: `{key} {hint}`")));
            };
            self.set_value(key, value)?;
            // A distance may be followed by a word for inches.
            let skip = usize::from(
                rest.get(1)
                    .is_some_and(|w| INCH_WORDS.contains(&w.text.as_str())),
            );
            return Ok(Some(1 + skip));
        }
        Ok(None)
    }

    fn set_value(&mut self, key: &'static str, value: &Token) -> Result<(), UmpireError> {
        match self.values.get(key) {
            Some(old) if old.text != value.text => Err(self.syntax(format!(
                "`{key}` is given twice (`{}` and `{}`)",
                old.text, value.text
            ))),
            Some(_) => Ok(()),
            None => {
                self.values.insert(key, value.clone());
                Ok(())
            }
        }
    }

    fn set_formation(&mut self, formation: F) -> Result<(), UmpireError> {
        match self.formation {
            Some(old) if old != formation => Err(self.syntax(format!(
                "two {}s given (`{}` and `{}`)",
                F::WHAT,
                old.word(),
                formation.word()
            ))),
            _ => {
                self.formation = Some(formation);
                Ok(())
            }
        }
    }

    /// A word of this call read wrong.
    fn unread(&self, e: ReadError) -> UmpireError {
        self.syntax(e.to_string())
    }

    /// A word missing after the last one read.
    fn missing(&self, expected: &str) -> UmpireError {
        self.unread(ReadError {
            expected: expected.to_string(),
            ..self.after.clone()
        })
    }

    /// A syntax error for this call.
    pub fn syntax(&self, problem: impl Into<String>) -> UmpireError {
        UmpireError::Syntax {
            call: self.text.clone(),
            problem: problem.into(),
        }
    }

    /// Whether `flag` was given.
    pub fn has(&self, flag: &'static str) -> bool {
        debug_assert!(
            self.lexicon.flags.iter().any(|f| f.name == flag),
            "`{flag}` is not a flag of `{}`",
            self.lexicon.call
        );
        self.flags.contains(flag)
    }

    /// Removes `flag` and says whether it was given (for flags a side of a
    /// call hands up to the whole call).
    pub fn take(&mut self, flag: &'static str) -> bool {
        self.flags.remove(flag)
    }

    /// The raw value of `key`, if given.
    pub fn value(&self, key: &'static str) -> Option<&str> {
        debug_assert!(
            self.lexicon.keys.iter().any(|k| k.name == key),
            "`{key}` is not a key of `{}`",
            self.lexicon.call
        );
        self.values.get(key).map(|t| t.text.as_str())
    }

    /// Fails if more than one of `flags` was given.
    pub fn exclusive(&self, flags: &[&'static str]) -> Result<(), UmpireError> {
        let given: Vec<&str> = flags.iter().copied().filter(|f| self.has(f)).collect();
        if given.len() > 1 {
            return Err(self.syntax(format!(
                "`{}` cannot all hold at once; give one",
                given.join("` and `")
            )));
        }
        Ok(())
    }

    /// A whole number no larger than [`MAX_NUMBER`].
    fn number(&self, what: &str, word: &Token) -> Result<u32, UmpireError> {
        let mut w = Cursor::from_tokens(vec![word.clone()], word.column);
        w.number(what, 0..=MAX_NUMBER).map_err(|e| self.unread(e))
    }

    /// The whole-number value of `key`, if given.
    pub fn number_value(&self, key: &'static str) -> Result<Option<u32>, UmpireError> {
        match self.values.get(key) {
            None => Ok(None),
            Some(word) => self.number(&format!("`{key}`"), word).map(Some),
        }
    }

    /// The value of `key` as a distance in hundredths of an inch: `3`,
    /// `2.5`, `2.25`, `3"`, `3in`, `1/2`, `2-1/2`.
    pub fn inches_value(&self, key: &'static str) -> Result<Option<u32>, UmpireError> {
        let Some(word) = self.values.get(key) else {
            return Ok(None);
        };
        inches_in(&word.text).map(Some).ok_or_else(|| {
            self.unread(ReadError::at(
                word,
                format!(
                    "a distance in inches after `{key}`, as `{key} 3` or `{key} 2.5` (at most {MAX_NUMBER})"
                ),
            ))
        })
    }
}

/// Appends the words of the flags that are on, in the order given: the
/// fixed order of a call's canonical form.
pub fn push_flags(words: &mut Vec<String>, flags: &[(bool, &str)]) {
    words.extend(
        flags
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, word)| (*word).to_string()),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call of a ruleset whose calls take no kind or formation words.
    static PLAIN: Lexicon<NoWord, NoWord> = Lexicon {
        call: "plain",
        keys: &[KeyWord {
            name: "range",
            hint: "<inches>",
            aliases: &["at"],
        }],
        flags: &[FlagWord {
            name: "uphill",
            aliases: &["up-hill"],
        }],
        fillers: &["target"],
        kinds: false,
        formations: false,
        count: None,
        bare: std::marker::PhantomData,
    };

    fn read(text: &str) -> Result<Reading<NoWord, NoWord>, UmpireError> {
        PLAIN.read(text, &tokens(text), None)
    }

    #[test]
    fn keys_and_flags_read_in_any_order_and_spelling() {
        let r = read("Up Hill, target at=2.5\"").expect("reads");
        assert!(r.has("uphill"));
        assert_eq!(r.inches_value("range").expect("inches"), Some(250));
        assert_eq!(r.kind, None);
        let r = read("range 3 inches").expect("reads");
        assert!(!r.has("uphill"));
        assert_eq!(r.inches_value("range").expect("inches"), Some(300));
    }

    #[test]
    fn a_word_the_call_does_not_take_is_told_with_the_words_it_does() {
        let e = read("uphill 12").expect_err("no count").to_string();
        assert!(e.contains("a bare number counts nothing here"), "{e}");
        let e = read("range 2 line").expect_err("no formations").to_string();
        assert!(
            e.contains("found `line`") && e.contains("range <inches>, uphill"),
            "{e}"
        );
        assert!(read("range").is_err(), "a key wants its value");
    }
}
