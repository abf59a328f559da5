//! Each rules text, sentence by sentence, and where adjutant adjudicates it:
//! `tests/catalog/sentences/<ruleset>.toml` lists every sentence of the
//! text in order, each with the cases that quote it, or the reason it is
//! not adjudicated (an example, a designer's note, a heading, a rule the
//! scenario or the umpire settles). A sentence no case quotes and no reason
//! excuses is a clause nobody has checked.
//!
//! The format of an entry:
//!
//! ```toml
//! [[sentence]]
//! text = "..."            # the sentence as the text gives it, misprints kept
//! cases = ["turns/a.toml"] # cases (under tests/cases/<ruleset>/) that quote it
//! quote = "..."           # optional: the part those cases quote, when less
//!                         # than the whole (a run of at least six words)
//! ruling = "STC-12"       # optional: the ruling in docs/RULINGS.md that reads it
//! not_adjudicated = "..." # instead of cases: why no case can quote it
//! open = "..."            # instead of cases: a rule adjutant applies that no
//!                         # case quotes yet, and where it is applied
//! ```
//!
//! `open` entries are a debt, counted against `OPEN_AT_MOST` so that it
//! can only shrink.
//!
//! Rulesets whose chapter lives in a `clauses.rs` (every sentence a
//! constant) are held by `every_clause_constant_is_quoted_by_a_case`.

use serde::Deserialize;
use std::fs;
use std::path::{Path, PathBuf};

/// The rulesets whose sentences are mapped in a file, and the rules text
/// each map follows (read only where the texts are at hand, to check that
/// the map leaves no sentence out).
const MAPPED: &[(&str, &str)] = &[
    ("sound-the-charge", "004-sound-the-charge.txt"),
    ("percentile-fire", "003-percentile-fire-combat.txt"),
];

/// How many sentences of each mapped ruleset may still be `open`: a rule
/// applied with no case quoting it. Lower it as cases are written.
const OPEN_AT_MOST: &[(&str, usize)] = &[("sound-the-charge", 1), ("percentile-fire", 0)];

/// The rulesets that keep their chapter's sentences in `clauses.rs`.
const CLAUSE_FILES: &[(&str, &str)] = &[
    ("grande-tactique", "src/rules/grande_tactique/clauses.rs"),
    ("kulikovo", "src/rules/kulikovo/clauses.rs"),
];

/// The fewest words a partial quote may have: fewer could match by chance.
const SHORTEST_QUOTE: usize = 6;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SentenceMap {
    sentence: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    text: String,
    #[serde(default)]
    cases: Vec<String>,
    quote: Option<String>,
    ruling: Option<String>,
    not_adjudicated: Option<String>,
    open: Option<String>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Text compared as a reader compares it: curly quotes as straight, runs
/// of white space as one space, a line-end hyphenation kept as printed.
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        let c = match c {
            '\u{2018}' | '\u{2019}' | '\u{2032}' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{2033}' => '"',
            '\u{2013}' | '\u{2014}' => '-',
            c => c,
        };
        if c.is_whitespace() {
            space = !out.is_empty();
        } else {
            if space {
                out.push(' ');
                space = false;
            }
            out.push(c);
        }
    }
    out
}

/// Every string a case file holds, joined: what the case says it checks.
fn case_words(path: &Path) -> Result<String, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let value: toml::Value =
        toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut strings = Vec::new();
    collect_strings(&value, &mut strings);
    Ok(plain(&strings.join(" ")))
}

fn collect_strings(value: &toml::Value, out: &mut Vec<String>) {
    match value {
        toml::Value::String(s) => out.push(s.clone()),
        toml::Value::Array(items) => items.iter().for_each(|v| collect_strings(v, out)),
        toml::Value::Table(table) => table.values().for_each(|v| collect_strings(v, out)),
        _ => {}
    }
}

fn read_map(ruleset: &str) -> SentenceMap {
    let path = root().join(format!("tests/catalog/sentences/{ruleset}.toml"));
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What is wrong with one entry of a ruleset's map, if anything.
fn entry_problems(ruleset: &str, entry: &Entry, rulings: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let text = plain(&entry.text);
    let excuses = [&entry.not_adjudicated, &entry.open];
    let given = excuses.iter().filter(|e| e.is_some()).count();
    match (given, entry.cases.is_empty()) {
        (0, true) => problems.push("no case quotes it and no reason is given".into()),
        (1, true) => {}
        (0, false) => {}
        _ => problems.push("has more than one of cases, not_adjudicated and open".into()),
    }
    for reason in excuses.into_iter().flatten() {
        if reason.trim().len() < 10 {
            problems.push(format!("gives no real reason ({reason:?})"));
        }
    }
    let quote = match &entry.quote {
        Some(q) => {
            let q = plain(q);
            if !text.contains(&q) {
                problems.push(format!("its quote {q:?} is not part of the sentence"));
            }
            if q.split(' ').count() < SHORTEST_QUOTE && q != text {
                problems.push(format!(
                    "its quote {q:?} is shorter than {SHORTEST_QUOTE} words"
                ));
            }
            q
        }
        None => text.clone(),
    };
    for case in &entry.cases {
        let path = root().join("tests/cases").join(ruleset).join(case);
        match case_words(&path) {
            Ok(words) if words.contains(&quote) => {}
            Ok(_) => problems.push(format!("{case} does not quote {quote:?}")),
            Err(e) => problems.push(e),
        }
    }
    if let Some(id) = &entry.ruling
        && !rulings.contains(&format!("{id}."))
        && !rulings.contains(&format!("{id} "))
    {
        problems.push(format!("ruling {id} is not in docs/RULINGS.md"));
    }
    problems
}

#[test]
fn every_sentence_is_quoted_by_a_case_or_excused() {
    let rulings = fs::read_to_string(root().join("docs/RULINGS.md")).unwrap();
    let mut failures = Vec::new();
    for &(ruleset, _) in MAPPED {
        let map = read_map(ruleset);
        let open = map.sentence.iter().filter(|e| e.open.is_some()).count();
        let ceiling = OPEN_AT_MOST
            .iter()
            .find(|(id, _)| *id == ruleset)
            .map_or(0, |(_, n)| *n);
        eprintln!("{ruleset}: {} sentences, {open} open", map.sentence.len());
        if open > ceiling {
            failures.push(format!(
                "{ruleset}: {open} sentences are open, at most {ceiling} may be"
            ));
        }
        for (n, entry) in map.sentence.iter().enumerate() {
            for problem in entry_problems(ruleset, entry, &rulings) {
                failures.push(format!(
                    "{ruleset} sentence {} ({:.60}...): {problem}",
                    n + 1,
                    entry.text
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The sentences of a rules text, as the map is made from it: the text run
/// together, cut after a full stop, question or exclamation mark that a
/// space follows.
fn sentences(text: &str) -> Vec<String> {
    let text = plain(text);
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if matches!(b, b'.' | b'?' | b'!') && bytes.get(i + 1) == Some(&b' ') {
            out.push(text[start..=i].to_string());
            start = i + 2;
        }
    }
    if start < text.len() {
        out.push(text[start..].to_string());
    }
    out
}

/// Where the rules texts are at hand, the map holds each of their
/// sentences, in order: a sentence left out of the map would escape the
/// check above. Where they are not (they are not part of the repository),
/// the map's own order and quotes are still checked by the test above.
#[test]
fn the_map_follows_the_text_sentence_by_sentence() {
    let dir = std::env::var_os("ADJUTANT_RULES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/rules"));
    for &(ruleset, file) in MAPPED {
        let Ok(text) = fs::read_to_string(dir.join(file)) else {
            eprintln!("SKIPPED: {} is not at hand", dir.join(file).display());
            continue;
        };
        let map = read_map(ruleset);
        let mapped: Vec<String> = map.sentence.iter().map(|e| plain(&e.text)).collect();
        let whole = mapped.join(" ");
        let mut at = 0;
        for sentence in sentences(&text) {
            match whole[at..].find(&sentence) {
                Some(i) => at += i + sentence.len(),
                None => {
                    panic!("{ruleset}: the map leaves out, or misplaces, the sentence {sentence:?}")
                }
            }
        }
    }
}

/// A constant's string literal in a `clauses.rs`, with its escapes read.
fn clause_constants(source: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(i) = rest.find("pub const ") {
        rest = &rest[i + "pub const ".len()..];
        let name: String = rest.chars().take_while(|c| *c != ':').collect();
        let Some(open) = rest.find('"') else { break };
        let mut value = String::new();
        let mut chars = rest[open + 1..].char_indices();
        let mut end = 0;
        while let Some((j, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, e)) = chars.next() {
                        value.push(match e {
                            'n' => '\n',
                            't' => '\t',
                            other => other,
                        });
                    }
                }
                '"' => {
                    end = open + 1 + j + 1;
                    break;
                }
                c => value.push(c),
            }
        }
        out.push((name, value));
        rest = &rest[end..];
    }
    out
}

/// Grande Tactique and Kulikovo keep their chapters' sentences as
/// constants: each one is quoted by at least one of that ruleset's cases.
#[test]
fn every_clause_constant_is_quoted_by_a_case() {
    let mut failures = Vec::new();
    for &(ruleset, file) in CLAUSE_FILES {
        let source = fs::read_to_string(root().join(file)).unwrap();
        let constants = clause_constants(&source);
        assert!(constants.len() > 20, "{file}: too few clauses read");
        let mut all_cases = String::new();
        let dir = root().join("tests/cases").join(ruleset);
        for kind in ["orders", "turns", "umpire"] {
            let mut paths: Vec<PathBuf> = fs::read_dir(dir.join(kind))
                .unwrap()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .collect();
            paths.sort();
            for path in paths {
                all_cases.push_str(&case_words(&path).unwrap());
                all_cases.push('\n');
            }
        }
        for (name, value) in constants {
            if !all_cases.contains(&plain(&value)) {
                failures.push(format!("{ruleset}: no case quotes {name} ({value:?})"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn plain_text_and_sentences_are_cut_as_documented() {
    assert_eq!(plain(" a\n  “b’s”\tc "), "a \"b's\" c");
    assert_eq!(
        sentences("One two. Three?\nFour! 3.5 inches"),
        vec!["One two.", "Three?", "Four!", "3.5 inches"]
    );
    let consts =
        clause_constants("pub const A: &str = \"x \\\"y\\\" z\";\npub const B: &str =\n    \"w\";");
    assert_eq!(
        consts,
        vec![("A".into(), "x \"y\" z".into()), ("B".into(), "w".into())]
    );
}
