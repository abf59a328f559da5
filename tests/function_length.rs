//! No function in `src/` is longer than `LONGEST` lines: a function that
//! runs on for pages interleaves several clauses or steps, so a ruling on one
//! means reading them all and a case can only pin the whole. Split such a
//! function by rule step or clause (as `grande_tactique/charge/` is).
//!
//! A function's length is counted from the line of its `fn` to the line of
//! its closing brace, found by matching braces in the source with comments,
//! strings (raw strings included) and char literals blanked, so that a
//! `'{'` or a `"}"` is not taken for a brace. Test modules count too.

use std::fs;
use std::path::{Path, PathBuf};

/// The most lines a function may have.
const LONGEST: usize = 150;

/// The source with every comment, string literal and char literal replaced
/// by spaces (line ends kept), so that only code's own braces remain.
fn blank_literals(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out: Vec<char> = Vec::with_capacity(chars.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let prev_ident = i > 0 && ident(chars[i - 1]);
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.extend([' ', ' ']);
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.extend([' ', ' ']);
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if let Some(len) = raw_string_at(&chars, i).filter(|_| !prev_ident) {
            for k in i..i + len {
                out.push(blank(chars[k]));
            }
            i += len;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' && (!prev_ident || byte_prefix(&chars, i)) {
            match char_literal_len(&chars, i) {
                Some(len) => {
                    out.extend(std::iter::repeat_n(' ', len));
                    i += len;
                }
                // A lifetime or a label: left as it is.
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// The length of a raw string (`r"..."`, `r#"..."#`, `br#"..."#`) starting
/// at `i`, if one does.
fn raw_string_at(chars: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if matches!(chars.get(j), Some('b' | 'c')) {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while chars.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if chars.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < chars.len() {
        if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
            return Some(j + 1 + hashes - i);
        }
        j += 1;
    }
    Some(chars.len() - i)
}

/// Whether the quote at `i` follows a lone `b`, as a byte literal's does.
fn byte_prefix(chars: &[char], i: usize) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    i >= 1 && chars[i - 1] == 'b' && (i < 2 || !ident(chars[i - 2]))
}

/// The length of a char literal (`'x'`, `'\n'`, `'\u{7b}'`) starting at
/// `i`, or `None` where the quote begins a lifetime or a label.
fn char_literal_len(chars: &[char], i: usize) -> Option<usize> {
    match chars.get(i + 1)? {
        '\\' => {
            let mut j = i + 2;
            while j < chars.len() && chars[j] != '\'' {
                j += 1;
            }
            Some(j + 1 - i)
        }
        _ if chars.get(i + 2) == Some(&'\'') => Some(3),
        _ => None,
    }
}

/// Every function with a body in a file: its name, the line of its `fn`
/// (from 1) and its length in lines.
fn functions(source: &str) -> Vec<(String, usize, usize)> {
    let code: Vec<char> = blank_literals(source).chars().collect();
    let line_at = |i: usize| code[..i].iter().filter(|c| **c == '\n').count() + 1;
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut found = Vec::new();
    let mut i = 0;
    while i + 2 < code.len() {
        let is_fn = code[i] == 'f'
            && code[i + 1] == 'n'
            && code[i + 2].is_whitespace()
            && (i == 0 || !ident(code[i - 1]));
        if !is_fn {
            i += 1;
            continue;
        }
        let mut j = i + 2;
        while j < code.len() && code[j].is_whitespace() {
            j += 1;
        }
        let name: String = code[j..].iter().take_while(|c| ident(**c)).collect();
        // The body's opening brace, or the `;` of a declaration without one.
        let mut k = j;
        while k < code.len() && code[k] != '{' && code[k] != ';' {
            k += 1;
        }
        if k >= code.len() || code[k] == ';' || name.is_empty() {
            i = k.max(i + 1);
            continue;
        }
        let mut depth = 0usize;
        let mut end = k;
        for (m, c) in code.iter().enumerate().skip(k) {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = m;
                        break;
                    }
                }
                _ => {}
            }
        }
        let (first, last) = (line_at(i), line_at(end));
        found.push((name, first, last - first + 1));
        // Functions nested in this one are counted on their own as well.
        i = k + 1;
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_function_in_src_is_longer_than_the_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut long = Vec::new();
    for path in files {
        let source = fs::read_to_string(&path).unwrap();
        for (name, line, length) in functions(&source) {
            if length > LONGEST {
                let shown = path.strip_prefix(root).unwrap_or(&path).display();
                long.push(format!("{length:4} lines: {shown}:{line} {name}"));
            }
        }
    }
    long.sort();
    long.reverse();
    assert!(
        long.is_empty(),
        "{} functions are longer than {LONGEST} lines; split each by its steps:\n{}",
        long.len(),
        long.join("\n")
    );
}

#[test]
fn braces_in_literals_and_comments_are_not_counted() {
    let source = r####"
fn a() {
    let c = '{';
    let q = [b'"', b'\\'];
    let d = '\u{7b}';
    let s = "}}}";
    let r = r#"{"#;
    let b = br##"}"# "##;
    // }
    /* { /* } */ */
    let l: &'static str = "x";
    'outer: loop { break 'outer; }
}
fn b<'a>(x: &'a str) -> &'a str { x }
trait T { fn c(&self); }
"####;
    let found = functions(source);
    assert_eq!(
        found,
        vec![("a".to_string(), 2, 12), ("b".to_string(), 14, 1)],
        "{}",
        blank_literals(source)
    );
}
