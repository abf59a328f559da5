//! The fuzz targets, replayed on the stable toolchain: every file of every
//! seed corpus (`fuzz/corpus/<target>/`) and every input a fuzz run once
//! failed on (`fuzz/regressions/<target>/`, each named after the defect it
//! found) goes through the very body the fuzz target runs
//! (`fuzz/bodies/`), so that a defect once fixed stays fixed. The long runs
//! are `fuzz/run` (docs/RELIABILITY.md, "Fuzzing").

#[allow(dead_code)]
#[path = "../fuzz/bodies/mod.rs"]
mod bodies;

#[allow(dead_code)]
mod hostile;

use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// The files of one folder, sorted; none if it does not exist.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

/// Runs every seed and regression input of `name` through its body, and
/// lists each that fails with what it said.
fn replay(name: &str) {
    let targets = bodies::targets();
    let target = targets
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no fuzz target {name}"));
    let seeds = files(&fuzz_dir().join("corpus").join(name));
    assert!(
        seeds.len() >= 5,
        "fuzz/corpus/{name} holds {} seeds; write them with `cargo test --test fuzz_corpus -- --ignored write_seed_corpus`",
        seeds.len()
    );
    let regressions = files(&fuzz_dir().join("regressions").join(name));
    let mut failed = Vec::new();
    for file in seeds.iter().chain(&regressions) {
        let data = std::fs::read(file).expect("reads");
        if let Err(panic) =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (target.run)(&data)))
        {
            let why = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failed.push(format!("{}: {why}", file.display()));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} inputs fail:\n{}",
        failed.len(),
        seeds.len() + regressions.len(),
        failed.join("\n")
    );
    println!(
        "{name}: {} seeds and {} regression inputs replayed",
        seeds.len(),
        regressions.len()
    );
}

#[test]
fn orders_sound_the_charge() {
    replay("orders_sound_the_charge");
}

#[test]
fn orders_kulikovo() {
    replay("orders_kulikovo");
}

#[test]
fn orders_grande_tactique() {
    replay("orders_grande_tactique");
}

#[test]
fn orders_percentile_fire() {
    replay("orders_percentile_fire");
}

#[test]
fn mail() {
    replay("mail");
}

#[test]
fn ingest() {
    replay("ingest");
}

#[test]
fn campaign() {
    replay("campaign");
}

/// Every ruleset of the registry has its orders target, a fuzz target file
/// and a seed corpus; every target is a binary of the fuzz package and is
/// replayed above.
#[test]
fn every_target_is_built_seeded_and_replayed() {
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).expect("reads");
    let this = std::fs::read_to_string(file!()).expect("reads this file");
    for target in bodies::targets() {
        let name = &target.name;
        assert!(
            fuzz_dir()
                .join("fuzz_targets")
                .join(format!("{name}.rs"))
                .is_file(),
            "no fuzz/fuzz_targets/{name}.rs"
        );
        assert!(
            manifest.contains(&format!("name = \"{name}\"")),
            "fuzz/Cargo.toml builds no {name}"
        );
        assert!(
            this.contains(&format!("replay(\"{name}\")")),
            "no test here replays {name}"
        );
    }
    for ruleset in adjutant::rules::registry::RULESETS {
        let name = bodies::orders::target_name(ruleset.id());
        assert!(
            bodies::targets().iter().any(|t| t.name == name),
            "{} has no orders target",
            ruleset.id()
        );
    }
}

/// Writes the seed corpora from the project's own examples: the rules case
/// catalog's orders and each ruleset's bots and order templates; the mail
/// fixtures and the hostile corpus; the shipped campaigns and the loader's
/// fixtures. Run by hand when they change:
///
///     cargo test --test fuzz_corpus -- --ignored write_seed_corpus
#[test]
#[ignore]
fn write_seed_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = fuzz_dir().join("corpus");
    let write = |target: &str, name: &str, data: &[u8]| {
        let dir = corpus.join(target);
        std::fs::create_dir_all(&dir).expect("a corpus folder");
        let name: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        std::fs::write(dir.join(name), data).expect("writes");
    };
    for target in bodies::targets() {
        let _ = std::fs::remove_dir_all(corpus.join(&target.name));
    }

    // Orders: each case of the catalog (its line, or each side's orders),
    // with a first byte that varies the state and side; the bots' orders
    // and the templates, in each state.
    for ruleset in adjutant::rules::registry::RULESETS {
        let id = ruleset.id();
        let target = bodies::orders::target_name(id);
        let cases = root.join("tests/cases").join(id);
        let mut n = 0u8;
        for kind in ["orders", "turns"] {
            for file in files(&cases.join(kind)) {
                let text = std::fs::read_to_string(&file).expect("reads");
                let case: toml::Table = toml::from_str(&text).expect("a case");
                let mut texts = Vec::new();
                if let Some(line) = case.get("line").and_then(|l| l.as_str()) {
                    texts.push(line.to_string());
                }
                if let Some(orders) = case.get("orders").and_then(|o| o.as_table()) {
                    for lines in orders.values().filter_map(|l| l.as_array()) {
                        let lines: Vec<&str> = lines.iter().filter_map(|l| l.as_str()).collect();
                        texts.push(lines.join("\n"));
                    }
                }
                let stem = file.file_stem().expect("a name").to_string_lossy();
                for (i, text) in texts.iter().enumerate() {
                    let mut input = vec![b'0' + n % 32];
                    n = n.wrapping_add(1);
                    input.extend_from_slice(text.as_bytes());
                    write(&target, &format!("case-{kind}-{stem}-{i}"), &input);
                }
            }
        }
        for (name, input) in bodies::orders::seeds(id) {
            write(&target, &name, &input);
        }
    }

    // Mail: the parser's golden messages and the hostile corpus (but its
    // huge messages, which the fuzzer's length limit would cut anyway),
    // written for the demo's first turn as the ingest target has it.
    let messages: Vec<(String, Vec<u8>)> = files(&root.join("tests/mail/inbound"))
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "eml"))
        .map(|f| {
            let name = f.file_stem().expect("a name").to_string_lossy().to_string();
            (format!("inbound-{name}"), std::fs::read(&f).expect("reads"))
        })
        .collect();
    let ctx = hostile::Context {
        turn: 1,
        old_report: (
            "sound-the-charge-demo.r1.french@adjutant.invalid".to_string(),
            "[sound-the-charge-demo] resolution 1: report".to_string(),
        ),
        first_orders: hostile::first_orders(),
    };
    for (name, raw) in &messages {
        write("mail", name, raw);
        write("ingest", name, raw);
    }
    // The whole ingest path takes a third of a second a message in a debug
    // build: its seeds are the first two of each family, the parser's all.
    let mut per_family = std::collections::BTreeMap::new();
    for case in hostile::corpus(&ctx) {
        if case.raw.len() > 16 * 1024 {
            continue;
        }
        let name = format!("hostile-{}-{}", case.family, case.name);
        write("mail", &name, &case.raw);
        let seen = per_family.entry(case.family).or_insert(0);
        *seen += 1;
        if *seen <= 2 {
            write("ingest", &name, &case.raw);
        }
    }

    // Campaigns: the shipped ones and the loader's fixtures, both files in
    // one input.
    let mut folders = Vec::new();
    for parent in ["campaigns", "tests/fixtures/campaigns"] {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join(parent))
            .expect("a folder")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        folders.extend(dirs);
    }
    for folder in folders {
        let campaign = std::fs::read(folder.join("campaign.toml")).unwrap_or_default();
        let scenario = std::fs::read(folder.join("scenario.toml")).unwrap_or_default();
        let mut input = campaign;
        input.extend_from_slice(bodies::campaign::SPLIT);
        input.extend_from_slice(&scenario);
        let name = folder.file_name().expect("a name").to_string_lossy();
        write("campaign", &name, &input);
    }
}
