//! The `Keys` view of a TOML text the ruleset carries itself (its sample
//! tables): the same reader then checks the sample as it checks a
//! campaign's tables, and a problem names the key path, there being no
//! campaign file to point into.

use std::collections::BTreeMap;

use crate::rules::setup::Keys;

/// A TOML table read through `Keys`; problems are kept as text.
pub struct PlainKeys {
    table: toml::Table,
    path: String,
    pub problems: Vec<String>,
}

impl PlainKeys {
    /// The view of a whole TOML text; a text that does not read is one
    /// problem and an empty table.
    pub fn of(text: &str) -> PlainKeys {
        match text.parse::<toml::Table>() {
            Ok(table) => PlainKeys::at(table, String::new()),
            Err(e) => PlainKeys {
                table: toml::Table::new(),
                path: String::new(),
                problems: vec![e.to_string()],
            },
        }
    }

    fn at(table: toml::Table, path: String) -> PlainKeys {
        PlainKeys {
            table,
            path,
            problems: Vec::new(),
        }
    }

    fn name(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn push(&mut self, key: &str, problem: impl Into<String>) {
        let at = self.name(key);
        self.problems.push(format!("{at}: {}", problem.into()));
    }

    fn whole(&mut self, key: &str, value: &toml::Value, min: u32, max: u32) -> Option<u32> {
        match value.as_integer() {
            Some(n) if n >= i64::from(min) && n <= i64::from(max) => u32::try_from(n).ok(),
            Some(n) => {
                self.push(key, format!("must be from {min} to {max}, not {n}"));
                None
            }
            None => {
                self.push(key, "expected a whole number");
                None
            }
        }
    }

    fn nested(&mut self, key: &str, table: toml::Table, read: &mut dyn FnMut(&mut dyn Keys)) {
        let mut keys = PlainKeys::at(table, self.name(key));
        read(&mut keys);
        self.problems.append(&mut keys.problems);
    }
}

impl Keys for PlainKeys {
    fn word(&mut self, key: &str, known: &[&str], what: &str) -> Option<String> {
        match self.optional_word(key, known, what)? {
            Some(w) => Some(w),
            None => {
                self.push(key, "missing");
                None
            }
        }
    }

    fn optional_word(&mut self, key: &str, known: &[&str], what: &str) -> Option<Option<String>> {
        let Some(value) = self.table.get(key) else {
            return Some(None);
        };
        let Some(word) = value.as_str().map(str::to_string) else {
            self.push(key, "expected a string");
            return None;
        };
        if !known.is_empty() && !known.contains(&word.as_str()) {
            self.push(key, format!("unknown {what} `{word}`"));
            return None;
        }
        Some(Some(word))
    }

    fn count(&mut self, key: &str, min: u32, max: u32, default: Option<u32>) -> Option<u32> {
        match (self.table.get(key).cloned(), default) {
            (Some(v), _) => self.whole(key, &v, min, max),
            (None, Some(d)) => Some(d),
            (None, None) => {
                self.push(key, "missing");
                None
            }
        }
    }

    fn words(&mut self, key: &str, known: &[&str], what: &str) -> Option<Vec<String>> {
        let Some(value) = self.table.get(key) else {
            return Some(Vec::new());
        };
        let Some(items) = value.as_array() else {
            self.push(key, "expected a list of strings");
            return None;
        };
        let words: Option<Vec<String>> = items
            .iter()
            .map(|i| i.as_str().map(str::to_string))
            .collect();
        match words {
            Some(w)
                if w.iter()
                    .all(|w| known.is_empty() || known.contains(&w.as_str())) =>
            {
                Some(w)
            }
            _ => {
                self.push(key, format!("expected a list of {what}s"));
                None
            }
        }
    }

    fn counts(&mut self, key: &str, min: u32, max: u32) -> Option<BTreeMap<String, u32>> {
        let Some(value) = self.table.get(key).cloned() else {
            return Some(BTreeMap::new());
        };
        let Some(table) = value.as_table() else {
            self.push(key, "expected a table of whole numbers");
            return None;
        };
        let mut out = BTreeMap::new();
        let mut good = true;
        for (name, v) in table {
            match self.whole(&format!("{key}.{name}"), v, min, max) {
                Some(n) => {
                    out.insert(name.clone(), n);
                }
                None => good = false,
            }
        }
        good.then_some(out)
    }

    fn has(&mut self, key: &str) -> bool {
        self.table.contains_key(key)
    }

    fn problem(&mut self, key: &str, problem: String, clause: Option<&'static str>) {
        let text = match clause {
            Some(c) => format!("{problem} ({c})"),
            None => problem,
        };
        self.push(key, text);
    }

    fn length(&mut self, key: &str, most: u32, default: Option<u32>) -> Option<u32> {
        let Some(value) = self.table.get(key).cloned() else {
            if default.is_none() {
                self.push(key, "missing");
            }
            return default;
        };
        let inches = match value {
            toml::Value::Integer(n) => n as f64,
            toml::Value::Float(x) => x,
            _ => {
                self.push(key, "expected a number of inches");
                return None;
            }
        };
        let h = libm::round(inches * 100.0);
        if !(0.0..=f64::from(most)).contains(&h) {
            self.push(key, format!("{inches} is out of range"));
            return None;
        }
        Some(h as u32)
    }

    fn numbers(&mut self, key: &str, min: u32, max: u32) -> Option<Vec<u32>> {
        let Some(value) = self.table.get(key).cloned() else {
            return Some(Vec::new());
        };
        let Some(items) = value.as_array() else {
            self.push(key, "expected a list of whole numbers");
            return None;
        };
        let mut out = Vec::new();
        let mut good = true;
        for item in items {
            match self.whole(key, item, min, max) {
                Some(n) => out.push(n),
                None => good = false,
            }
        }
        good.then_some(out)
    }

    fn names(&mut self) -> Vec<String> {
        self.table.keys().cloned().collect()
    }

    fn table(&mut self, key: &str, read: &mut dyn FnMut(&mut dyn Keys)) -> bool {
        let Some(value) = self.table.get(key).cloned() else {
            return false;
        };
        let toml::Value::Table(table) = value else {
            self.push(key, "expected a table");
            return false;
        };
        self.nested(key, table, read);
        true
    }

    fn tables(&mut self, key: &str, read: &mut dyn FnMut(usize, &mut dyn Keys)) -> bool {
        let Some(value) = self.table.get(key).cloned() else {
            return false;
        };
        let toml::Value::Array(items) = value else {
            self.push(key, "expected a list of tables");
            return false;
        };
        for (at, item) in items.into_iter().enumerate() {
            match item {
                toml::Value::Table(t) => {
                    self.nested(&format!("{key}[{at}]"), t, &mut |k| read(at, k));
                }
                _ => {
                    self.push(key, "expected a list of tables");
                    return false;
                }
            }
        }
        true
    }
}
