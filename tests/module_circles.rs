//! No two top-level modules of the library use each other, directly or
//! through others: the modules form layers (the rules core at the bottom,
//! the record format below the store, the archive and the engine, the
//! daemon on top), so each can be read, tested and changed knowing only
//! what is below it.
//!
//! A module uses another where one of its files names `crate::<other>`
//! (in a `use` or in a path), outside comments, string literals and test
//! code (`#[cfg(test)]` items and the files of test modules): a unit test
//! may set up its case with what is above it, as the catalog's cases do.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

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

/// The top-level module a file of `src/` belongs to (`None` for the crate
/// root and the binary's own files: `main.rs` and its `cli/`).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).ok()?;
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main" | "cli")).then(|| name.to_string())
}

/// The source without its comments and the insides of its string literals
/// (a path written in a doc comment or an error message uses nothing).
fn code_only(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' => {
                out.push('"');
                while let Some(c) = chars.next() {
                    if c == '\\' {
                        chars.next();
                    } else if c == '"' {
                        break;
                    }
                }
                out.push('"');
            }
            c => out.push(c),
        }
    }
    out
}

/// The top-level modules a piece of code names as `crate::<module>`,
/// including those in a grouped `use crate::{a, b::c}`.
fn named_modules(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + "crate::".len()..];
        if before.is_some_and(ident) {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            for item in split_top_level(&group[..end_of_group(group)]) {
                let name: String = item.trim().chars().take_while(|c| ident(*c)).collect();
                if !name.is_empty() && name != "self" {
                    found.insert(name);
                }
            }
        } else {
            let name: String = rest.chars().take_while(|c| ident(*c)).collect();
            if !name.is_empty() {
                found.insert(name);
            }
        }
    }
    found
}

/// Where a `{ ... }` group that starts just before `group` ends.
fn end_of_group(group: &str) -> usize {
    let mut depth = 0;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return i,
            '}' => depth -= 1,
            _ => {}
        }
    }
    group.len()
}

/// The items of a group, split at its own commas (not those of a nested
/// group).
fn split_top_level(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    items
}

/// The code with every `#[cfg(test)]` item taken out, and the names of
/// the test modules it declares in files of their own (`#[cfg(test)] mod
/// tests;`).
fn without_tests(code: &str) -> (String, Vec<String>) {
    const MARK: &str = "#[cfg(test)]";
    let mut out = String::with_capacity(code.len());
    let mut files = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find(MARK) {
        out.push_str(&rest[..i]);
        rest = &rest[i + MARK.len()..];
        let Some(end) = rest.find(['{', ';']) else {
            break;
        };
        if rest.as_bytes()[end] == b';' {
            let item: Vec<&str> = rest[..end].split_whitespace().collect();
            if let [.., "mod", name] = item.as_slice() {
                files.push((*name).to_string());
            }
            rest = &rest[end + 1..];
        } else {
            let close = end + 1 + end_of_group(&rest[end + 1..]);
            rest = rest.get(close + 1..).unwrap_or("");
        }
    }
    out.push_str(rest);
    (out, files)
}

/// The folder a file's child modules live in: its own for `mod.rs` and
/// `lib.rs`, else one named after it beside it.
fn child_dir(file: &Path) -> PathBuf {
    let parent = file.parent().unwrap_or(Path::new("."));
    match file.file_stem().and_then(|s| s.to_str()) {
        Some("mod" | "lib" | "main") => parent.to_path_buf(),
        Some(stem) => parent.join(stem),
        None => parent.to_path_buf(),
    }
}

/// Which top-level module uses which, from the sources under `src/`.
fn uses(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let src = root.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(&src, f)).collect();
    let mut code_of: BTreeMap<PathBuf, String> = BTreeMap::new();
    let mut test_files: BTreeSet<PathBuf> = BTreeSet::new();
    for file in &files {
        let (code, tests) = without_tests(&code_only(&fs::read_to_string(file).unwrap()));
        for name in tests {
            let dir = child_dir(file);
            test_files.insert(dir.join(format!("{name}.rs")));
            test_files.insert(dir.join(&name).join("mod.rs"));
        }
        code_of.insert(file.clone(), code);
    }
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let Some(from) = module_of(&src, file) else {
            continue;
        };
        // A test module's own test modules are test code too.
        if test_files
            .iter()
            .any(|t| file.starts_with(t.with_extension("")))
        {
            continue;
        }
        if test_files.contains(file) {
            continue;
        }
        let code = &code_of[file];
        let entry = graph.entry(from.clone()).or_default();
        for to in named_modules(code) {
            if to != from && modules.contains(&to) {
                entry.insert(to);
            }
        }
    }
    graph
}

/// The circles in a graph: each set of two or more modules that reach one
/// another (Tarjan's strongly connected components), with one path round.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(m) = stack.pop() {
            for next in graph.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|m| (m, reach(m))).collect();
    let mut done = BTreeSet::new();
    let mut found = Vec::new();
    for m in graph.keys() {
        if done.contains(m) || !reachable[m].contains(m) {
            continue;
        }
        let group: Vec<String> = graph
            .keys()
            .filter(|n| reachable[m].contains(*n) && reachable[*n].contains(m))
            .cloned()
            .collect();
        done.extend(group.iter().cloned());
        found.push(group);
    }
    found
}

#[test]
fn no_top_level_modules_use_each_other_in_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let graph = uses(root);
    assert!(graph.len() > 10, "too few modules read: {graph:?}");
    let found = circles(&graph);
    let told: Vec<String> = found
        .iter()
        .map(|group| {
            let arrows: Vec<String> = group
                .iter()
                .flat_map(|a| {
                    graph[a]
                        .iter()
                        .filter(|b| group.contains(b))
                        .map(move |b| format!("{a} -> {b}"))
                })
                .collect();
            format!("{{{}}}: {}", group.join(", "), arrows.join(", "))
        })
        .collect();
    assert!(
        found.is_empty(),
        "top-level modules in a circle (each arrow: a module naming `crate::<other>`):\n{}",
        told.join("\n")
    );
}

#[test]
fn test_code_is_left_out() {
    let (code, files) = without_tests(
        "use crate::a;\n#[cfg(test)]\nmod tests {\n use crate::b; fn f() { crate::c::g(); }\n}\n#[cfg(test)]\nmod more;\nuse crate::d;",
    );
    let names: Vec<String> = named_modules(&code).into_iter().collect();
    assert_eq!(names, vec!["a", "d"]);
    assert_eq!(files, vec!["more"]);
}

#[test]
fn grouped_and_plain_paths_are_read() {
    let code = code_only(
        "use crate::a::b;\nuse crate::{c::{d, e}, f, self};\n// crate::g\nlet s = \"crate::h\";\ncrate::j::k();",
    );
    let names: Vec<String> = named_modules(&code).into_iter().collect();
    assert_eq!(names, vec!["a", "c", "f", "j"]);
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(circles(&graph), vec![vec!["a", "b", "c"]]);
}
