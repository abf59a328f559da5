//! A ruleset is a folder: outside `src/rules/<ruleset>/`, no source file
//! names a ruleset, by its id (`sound-the-charge`) or its module
//! (`sound_the_charge`), but the registry that lists them. The report, the
//! map, the engine and the demo ask the ruleset; they never ask which one
//! it is.

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
