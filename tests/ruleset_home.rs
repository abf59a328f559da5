//! A ruleset is a folder: outside `src/rules/<ruleset>/`, no source file
//! names a ruleset, by its id (`sound-the-charge`) or its module
//! (`sound_the_charge`), but the registry that lists them. The report, the
//! map, the engine and the demo ask the ruleset; they never ask which one
//! it is.
//!
//! Inside its folder, a ruleset gives each role the one name every other
//! ruleset gives it (docs/ARCHITECTURE.md, "Adding a ruleset"), so that
//! whoever knows one folder finds their way in the next.

use std::fs;
use std::path::{Path, PathBuf};

use adjutant::rules::registry::RULESETS;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_shared_source_file_names_a_ruleset() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 50, "found only {} source files", files.len());
    let mut named = Vec::new();
    for ruleset in RULESETS {
        let id = ruleset.id();
        let module = id.replace('-', "_");
        let home = src.join("rules").join(&module);
        assert!(home.is_dir(), "{id} has no folder {}", home.display());
        for file in &files {
            if file.starts_with(&home) || file == &src.join("rules").join("registry.rs") {
                continue;
            }
            let text = fs::read_to_string(file).expect("reads");
            for word in [id, module.as_str()] {
                for (n, line) in text.lines().enumerate() {
                    if line.contains(word) {
                        named.push(format!(
                            "{}:{}: names `{word}`: {}",
                            file.strip_prefix(root).unwrap_or(file).display(),
                            n + 1,
                            line.trim()
                        ));
                    }
                }
            }
        }
    }
    assert!(named.is_empty(), "{}", named.join("\n"));
}

/// A role of the folder: its name, as `<name>.rs` or `<name>/mod.rs`, and
/// whether every ruleset has it.
struct Role {
    name: &'static str,
    required: bool,
    what: &'static str,
}

const fn role(name: &'static str, required: bool, what: &'static str) -> Role {
    Role {
        name,
        required,
        what,
    }
}

/// The folder's roles, as docs/ARCHITECTURE.md's table gives them.
const FOLDER: &[Role] = &[
    role("mod", true, "the value, `Rules`, `DEMO`"),
    role("state", true, "`Parts` and `FIELDS`"),
    role(
        "setup",
        true,
        "`setup_unit` and the words a campaign may use",
    ),
    role("params", false, "`setup_params`"),
    role("events", true, "its event kinds"),
    role("ground", false, "terrain kinds and what they do"),
    role("basing", false, "footprints on a table"),
    role("field", true, "the state and its index"),
    role("sight", true, "who sees whom"),
    role(
        "mechanics",
        false,
        "procedures the turn and the calls share",
    ),
    role("orders", true, "the order type, its reading and checking"),
    role("turn", true, "`resolve`"),
    role("umpire", true, "`umpire` and `umpire_help`"),
    role("tables", false, "the text's tables"),
    role("clauses", false, "the text's clauses"),
    role("present", true, "`Presentation`"),
    role("sample", true, "`preview`"),
    role("bot", true, "`bot_orders`"),
    role("tests", false, "unit tests across the folder"),
    role("told_tests", false, "tests of who is told what"),
];

/// The roles inside `orders/`.
const ORDERS: &[Role] = &[
    role("mod", true, "the order type"),
    role("parse", true, "reading a line"),
    role("check", true, "`check_orders`"),
    role("foresee", false, "`acknowledge`"),
    role("display", false, "the canonical text"),
    role(
        "words",
        false,
        "the order language's own splitting and synonyms",
    ),
];

/// Where `dir` strays from `roles`: an entry that is no role's, or a role
/// every ruleset has that is missing.
fn strays(dir: &Path, roles: &[Role]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut entries: Vec<String> = fs::read_dir(dir)
        .expect("a ruleset folder")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    for entry in &entries {
        let name = entry.strip_suffix(".rs").unwrap_or(entry);
        let is_dir = dir.join(entry).is_dir();
        if is_dir == entry.ends_with(".rs") || !roles.iter().any(|r| r.name == name) {
            problems.push(format!(
                "{}: `{entry}` is no role of the layout",
                dir.display()
            ));
        } else if is_dir && !dir.join(entry).join("mod.rs").is_file() {
            problems.push(format!("{}: `{entry}/` has no mod.rs", dir.display()));
        }
    }
    for r in roles.iter().filter(|r| r.required) {
        let file = dir.join(format!("{}.rs", r.name)).is_file();
        let folder = r.name != "mod" && dir.join(r.name).join("mod.rs").is_file();
        if !file && !folder {
            problems.push(format!("{}: no `{}` ({})", dir.display(), r.name, r.what));
        }
    }
    problems
}

#[test]
fn every_ruleset_folder_has_the_one_layout() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join("rules");
    let mut problems = Vec::new();
    for ruleset in RULESETS {
        let home = rules.join(ruleset.id().replace('-', "_"));
        problems.extend(strays(&home, FOLDER));
        let orders = home.join("orders");
        if orders.is_dir() {
            problems.extend(strays(&orders, ORDERS));
        } else {
            problems.push(format!("{}: `orders` is not a folder", home.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The check is no empty promise: a folder with a stray file, a role
/// under another name and a role missing is told of each.
#[test]
fn a_folder_off_the_layout_is_told_where() {
    let dir = std::env::temp_dir().join(format!("ruleset-layout-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("phase")).expect("a folder");
    for file in ["mod.rs", "state.rs", "validate.rs", "phase/mod.rs"] {
        fs::write(dir.join(file), "").expect("a file");
    }
    let problems = strays(&dir, FOLDER).join("\n");
    fs::remove_dir_all(&dir).expect("cleaned up");
    assert!(problems.contains("`phase` is no role"), "{problems}");
    assert!(problems.contains("`validate.rs` is no role"), "{problems}");
    assert!(problems.contains("no `turn`"), "{problems}");
    assert!(problems.contains("no `sight`"), "{problems}");
    assert!(!problems.contains("no `state`"), "{problems}");
}
