//! A table of a campaign file that a ruleset reads for itself (a unit's
//! troop type, grade and formation; the campaign's parameters): every key
//! and value kept with its place in the file, and the [`Keys`] view the
//! ruleset asks through, which reports each problem there. The loader reads
//! the keys every ruleset shares itself, then reports any key nobody asked
//! for as unknown.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::ops::Range;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use toml::Spanned;

use super::Problem;
use super::raw::Inches;
use super::source::Source;
use crate::rules::setup::Keys;

/// A value of a campaign file, with the place of each of its parts.
#[derive(Debug, Clone, PartialEq)]
pub enum KeyValue {
    Text(String),
    Whole(i64),
    Decimal(f64),
    Flag(bool),
    List(Vec<Spanned<KeyValue>>),
    Table(Table),
    /// A date or time, which no ruleset key takes.
    Other,
}

/// A table's keys and values.
pub type Table = BTreeMap<Spanned<String>, Spanned<KeyValue>>;

impl KeyValue {
    /// What the value is, for "wrong type: expected ..., found ...".
    pub fn found(&self) -> String {
        match self {
            KeyValue::Text(s) => format!("the string \"{s}\""),
            KeyValue::Whole(n) => format!("the number {n}"),
            KeyValue::Decimal(x) => format!("the number {x}"),
            KeyValue::Flag(b) => format!("{b}"),
            KeyValue::List(_) => "a list".to_string(),
            KeyValue::Table(_) => "a table".to_string(),
            KeyValue::Other => "a date".to_string(),
        }
    }
}

impl<'de> Deserialize<'de> for KeyValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ValueVisitor;
        impl<'de> Visitor<'de> for ValueVisitor {
            type Value = KeyValue;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a value")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<KeyValue, E> {
                Ok(KeyValue::Flag(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<KeyValue, E> {
                Ok(KeyValue::Whole(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<KeyValue, E> {
                Ok(i64::try_from(v).map_or(KeyValue::Decimal(v as f64), KeyValue::Whole))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<KeyValue, E> {
                Ok(KeyValue::Decimal(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<KeyValue, E> {
                Ok(KeyValue::Text(v.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<KeyValue, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<Spanned<KeyValue>>()? {
                    items.push(item);
                }
                Ok(KeyValue::List(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<KeyValue, A::Error> {
                let mut table = Table::new();
                while let Some((k, v)) = map.next_entry::<Spanned<String>, Spanned<KeyValue>>()? {
                    table.insert(k, v);
                }
                // A date arrives as a one-key table in the toml crate's
                // private form; no ruleset key takes one.
                if table.len() == 1
                    && table
                        .keys()
                        .next()
                        .is_some_and(|k| k.get_ref().starts_with("$__toml"))
                {
                    return Ok(KeyValue::Other);
                }
                Ok(KeyValue::Table(table))
            }
        }
        deserializer.deserialize_any(ValueVisitor)
    }
}

/// One table as a ruleset reads it (see [`Keys`]).
pub struct TableKeys<'a> {
    source: &'a Source,
    table: &'a Table,
    /// The whole table, where a missing key is reported.
    at: Range<usize>,
    /// The ruleset's id, which a clause's hint starts with.
    ruleset: &'a str,
    asked: BTreeSet<String>,
    problems: &'a mut Vec<Problem>,
}

impl<'a> TableKeys<'a> {
    pub fn new(
        source: &'a Source,
        table: &'a Table,
        at: Range<usize>,
        ruleset: &'a str,
        problems: &'a mut Vec<Problem>,
    ) -> TableKeys<'a> {
        TableKeys {
            source,
            table,
            at,
            ruleset,
            asked: BTreeSet::new(),
            problems,
        }
    }

    fn get(&mut self, key: &str) -> Option<&'a Spanned<KeyValue>> {
        self.asked.insert(key.to_string());
        self.table.get(key)
    }

    fn push(&mut self, problem: Problem) {
        self.problems.push(problem);
    }

    fn missing(&mut self, key: &str) {
        let problem = self
            .source
            .at(self.at.clone(), format!("missing key `{key}`"));
        self.push(problem);
    }

    fn wrong_type(&mut self, value: &Spanned<KeyValue>, expected: &str) {
        let problem = self.source.at(
            value.span(),
            format!(
                "wrong type: expected {expected}, found {}",
                value.get_ref().found()
            ),
        );
        self.push(problem);
    }

    /// A string, or a wrong-type problem.
    fn text(&mut self, value: &Spanned<KeyValue>) -> Option<String> {
        match value.get_ref() {
            KeyValue::Text(s) => Some(s.clone()),
            _ => {
                self.wrong_type(value, "a string");
                None
            }
        }
    }

    fn known(
        &mut self,
        value: &Spanned<KeyValue>,
        word: String,
        known: &[&str],
        what: &str,
    ) -> Option<String> {
        if known.is_empty() || known.contains(&word.as_str()) {
            return Some(word);
        }
        let problem = self
            .source
            .at(value.span(), format!("unknown {what} `{word}`"))
            .with_hint(format!("expected one of {}", known.join(", ")));
        self.push(problem);
        None
    }

    fn whole(&mut self, value: &Spanned<KeyValue>, key: &str, min: u32, max: u32) -> Option<u32> {
        let KeyValue::Whole(n) = *value.get_ref() else {
            self.wrong_type(value, "a whole number");
            return None;
        };
        if n < i64::from(min) || n > i64::from(max) {
            let range = if max == u32::MAX {
                format!("at least {min}")
            } else {
                format!("from {min} to {max}")
            };
            let problem = self
                .source
                .at(value.span(), format!("{key} must be {range}, not {n}"));
            self.push(problem);
            return None;
        }
        u32::try_from(n).ok()
    }

    /// Reads a table held in this one through a view of its own, then
    /// reports the keys it was not asked for.
    fn nested(&mut self, table: &Table, at: Range<usize>, read: &mut dyn FnMut(&mut dyn Keys)) {
        let mut keys = TableKeys::new(self.source, table, at, self.ruleset, self.problems);
        read(&mut keys);
        keys.report_unknown(&[]);
    }

    /// Every key of the table that was neither asked for nor in `shared`
    /// (the keys the loader itself reads), each reported as unknown.
    pub fn report_unknown(mut self, shared: &[&str]) {
        let mut allowed: Vec<String> = shared.iter().map(|s| s.to_string()).collect();
        allowed.extend(
            self.asked
                .iter()
                .filter(|k| !shared.contains(&k.as_str()))
                .cloned(),
        );
        let unknown: Vec<&Spanned<String>> = self
            .table
            .keys()
            .filter(|k| !allowed.contains(k.get_ref()))
            .collect();
        let hint = if allowed.is_empty() {
            "nothing is read here: this ruleset takes no such keys".to_string()
        } else {
            format!("the keys allowed here are {}", allowed.join(", "))
        };
        for key in unknown {
            let problem = self
                .source
                .at(key.span(), format!("unknown key `{}`", key.get_ref()))
                .with_hint(hint.clone());
            self.push(problem);
        }
    }
}

impl Keys for TableKeys<'_> {
    fn word(&mut self, key: &str, known: &[&str], what: &str) -> Option<String> {
        match self.optional_word(key, known, what)? {
            Some(word) => Some(word),
            None => {
                self.missing(key);
                None
            }
        }
    }

    fn optional_word(&mut self, key: &str, known: &[&str], what: &str) -> Option<Option<String>> {
        let Some(value) = self.get(key) else {
            return Some(None);
        };
        let word = self.text(value)?;
        self.known(value, word, known, what).map(Some)
    }

    fn count(&mut self, key: &str, min: u32, max: u32, default: Option<u32>) -> Option<u32> {
        match (self.get(key), default) {
            (Some(value), _) => self.whole(value, key, min, max),
            (None, Some(d)) => Some(d),
            (None, None) => {
                self.missing(key);
                None
            }
        }
    }

    fn words(&mut self, key: &str, known: &[&str], what: &str) -> Option<Vec<String>> {
        let Some(value) = self.get(key) else {
            return Some(Vec::new());
        };
        let KeyValue::List(items) = value.get_ref() else {
            self.wrong_type(value, "a list of strings");
            return None;
        };
        let mut words: Vec<String> = Vec::new();
        let mut good = true;
        for item in items {
            let Some(word) = self.text(item) else {
                good = false;
                continue;
            };
            let Some(word) = self.known(item, word, known, what) else {
                good = false;
                continue;
            };
            if words.contains(&word) {
                let problem = self
                    .source
                    .at(item.span(), format!("{what} `{word}` is given twice"));
                self.push(problem);
                good = false;
                continue;
            }
            words.push(word);
        }
        good.then_some(words)
    }

    fn counts(&mut self, key: &str, min: u32, max: u32) -> Option<BTreeMap<String, u32>> {
        let Some(value) = self.get(key) else {
            return Some(BTreeMap::new());
        };
        let KeyValue::Table(table) = value.get_ref() else {
            self.wrong_type(value, "a table of whole numbers");
            return None;
        };
        let mut out = BTreeMap::new();
        let mut good = true;
        for (name, v) in table {
            match self.whole(v, name.get_ref(), min, max) {
                Some(n) => {
                    out.insert(name.get_ref().clone(), n);
                }
                None => good = false,
            }
        }
        good.then_some(out)
    }

    fn has(&mut self, key: &str) -> bool {
        self.get(key).is_some()
    }

    fn length(&mut self, key: &str, most: u32, default: Option<u32>) -> Option<u32> {
        let Some(value) = self.get(key) else {
            if default.is_none() {
                self.missing(key);
            }
            return default;
        };
        let inches = match *value.get_ref() {
            KeyValue::Whole(n) => n as f64,
            KeyValue::Decimal(x) => x,
            _ => {
                self.wrong_type(value, "a number of inches, such as 4 or 2.5");
                return None;
            }
        };
        let hundredths = libm::round(inches * 100.0);
        if !hundredths.is_finite() || hundredths < 0.0 || hundredths > f64::from(most) {
            let problem = self.source.at(
                value.span(),
                format!(
                    "{key} must be from 0 to {} inches, not {inches}",
                    crate::rules::words::inches(i64::from(most))
                ),
            );
            self.push(problem);
            return None;
        }
        Some(hundredths as u32)
    }

    fn numbers(&mut self, key: &str, min: u32, max: u32) -> Option<Vec<u32>> {
        let Some(value) = self.get(key) else {
            return Some(Vec::new());
        };
        let KeyValue::List(items) = value.get_ref() else {
            self.wrong_type(value, "a list of whole numbers");
            return None;
        };
        let mut out = Vec::with_capacity(items.len());
        let mut good = true;
        for item in items {
            match self.whole(item, key, min, max) {
                Some(n) => out.push(n),
                None => good = false,
            }
        }
        good.then_some(out)
    }

    fn names(&mut self) -> Vec<String> {
        let mut keys: Vec<&Spanned<String>> = self.table.keys().collect();
        keys.sort_by_key(|k| k.span().start);
        keys.into_iter().map(|k| k.get_ref().clone()).collect()
    }

    fn table(&mut self, key: &str, read: &mut dyn FnMut(&mut dyn Keys)) -> bool {
        let Some(value) = self.get(key) else {
            return false;
        };
        let KeyValue::Table(table) = value.get_ref() else {
            self.wrong_type(value, "a table");
            return false;
        };
        self.nested(table, value.span(), read);
        true
    }

    fn tables(&mut self, key: &str, read: &mut dyn FnMut(usize, &mut dyn Keys)) -> bool {
        let Some(value) = self.get(key) else {
            return false;
        };
        let KeyValue::List(items) = value.get_ref() else {
            self.wrong_type(value, "a list of tables");
            return false;
        };
        let mut good = true;
        for (at, item) in items.iter().enumerate() {
            match item.get_ref() {
                KeyValue::Table(table) => {
                    self.nested(table, item.span(), &mut |keys| read(at, keys))
                }
                _ => {
                    self.wrong_type(item, "a table");
                    good = false;
                }
            }
        }
        good
    }

    fn problem(&mut self, key: &str, problem: String, clause: Option<&'static str>) {
        let at = self.table.get(key).map_or(self.at.clone(), Spanned::span);
        let mut p = self.source.at(at, problem);
        p.hint = clause.map(|c| format!("{}, {c}", self.ruleset));
        self.push(p);
    }
}

/// A length in inches from a table's value, for the loader's own keys.
pub fn inches(value: &Spanned<KeyValue>) -> Result<Spanned<Inches>, String> {
    match *value.get_ref() {
        KeyValue::Whole(n) => Ok(Spanned::new(value.span(), Inches(n as f64))),
        KeyValue::Decimal(x) => Ok(Spanned::new(value.span(), Inches(x))),
        ref other => Err(format!(
            "wrong type: expected a number of inches, such as 12 or 12.5, found {}",
            other.found()
        )),
    }
}

/// A whole number from a table's value, for the loader's own keys.
pub fn whole(value: &Spanned<KeyValue>) -> Result<Spanned<i64>, String> {
    match *value.get_ref() {
        KeyValue::Whole(n) => Ok(Spanned::new(value.span(), n)),
        ref other => Err(format!(
            "wrong type: expected a whole number, found {}",
            other.found()
        )),
    }
}

/// A string from a table's value, for the loader's own keys.
pub fn text(value: &Spanned<KeyValue>) -> Result<Spanned<String>, String> {
    match value.get_ref() {
        KeyValue::Text(s) => Ok(Spanned::new(value.span(), s.clone())),
        other => Err(format!(
            "wrong type: expected a string, found {}",
            other.found()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Reads `text` as one table through `read`; the problems, as text.
    fn read_with(text: &str, read: &mut dyn FnMut(&mut dyn Keys)) -> Vec<String> {
        let source = Source::from_text(Path::new("c.toml"), text);
        let table: Table = toml::from_str(text).expect("the test's TOML reads");
        let mut problems = Vec::new();
        let mut keys = TableKeys::new(&source, &table, 0..text.len(), "toy", &mut problems);
        read(&mut keys);
        keys.report_unknown(&[]);
        problems.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn lengths_are_read_to_the_hundredth_of_an_inch() {
        let mut got = Vec::new();
        let problems = read_with("a = 4\nb = 2.5\nc = -1\nd = \"far\"\n", &mut |k| {
            got.push(k.length("a", 1000, None));
            got.push(k.length("b", 1000, None));
            got.push(k.length("c", 1000, None));
            got.push(k.length("d", 1000, None));
            got.push(k.length("e", 1000, Some(300)));
        });
        assert_eq!(got, [Some(400), Some(250), None, None, Some(300)]);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].starts_with("c.toml:3:5: c must be from 0 to 10 inches, not -1"));
        assert!(problems[1].contains("c.toml:4:5: wrong type: expected a number of inches"));
    }

    #[test]
    fn a_list_of_numbers_reports_each_bad_one_at_its_place() {
        let mut got = Vec::new();
        let problems = read_with("row = [10, 20, 300, 40]\nnone = 3\n", &mut |k| {
            got.push(k.numbers("row", 0, 200));
            got.push(k.numbers("none", 0, 200));
            got.push(k.numbers("absent", 0, 200));
        });
        assert_eq!(got, [None, None, Some(Vec::new())]);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].starts_with("c.toml:1:16: row must be from 0 to 200, not 300"));
        assert!(problems[1].contains("expected a list of whole numbers"));
    }

    #[test]
    fn nested_tables_are_read_by_name_and_their_unknown_keys_reported() {
        let text = "[chart.b]\nfirst = 1\n\n[chart.a]\nfirst = 2\nstray = 3\n";
        let mut got = Vec::new();
        let problems = read_with(text, &mut |k| {
            assert!(k.table("chart", &mut |chart| {
                for name in chart.names() {
                    chart.table(&name, &mut |row| {
                        got.push((name.clone(), row.count("first", 0, 9, None)));
                    });
                }
            }));
            assert!(!k.table("absent", &mut |_| {}));
        });
        assert_eq!(
            got,
            [("b".to_string(), Some(1)), ("a".to_string(), Some(2))]
        );
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("c.toml:6:1: unknown key `stray`"));
    }

    #[test]
    fn each_table_of_a_list_is_read_with_its_place() {
        let text = "rows = [{ roll = 1 }, { roll = 2, odd = true }, 3]\n";
        let mut got = Vec::new();
        let problems = read_with(text, &mut |k| {
            assert!(!k.tables("rows", &mut |at, row| {
                got.push((at, row.count("roll", 0, 9, None)));
            }));
        });
        assert_eq!(got, [(0, Some(1)), (1, Some(2))]);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("unknown key `odd`")));
        assert!(problems.iter().any(|p| p.contains("expected a table")));
    }
}
