//! Every ruleset's case catalog, through one runner: see `catalog` for the
//! format of a case.

mod catalog;

use catalog::{case_files, check};

/// How many cases of each kind each ruleset has at least: the catalog must
/// not shrink unnoticed.
const AT_LEAST: &[(&str, &str, usize)] = &[
    ("sound-the-charge", "orders", 113),
    ("sound-the-charge", "umpire", 205),
    ("sound-the-charge", "turns", 285),
    ("kulikovo", "orders", 39),
    ("kulikovo", "umpire", 251),
    ("kulikovo", "turns", 264),
    ("grande-tactique", "orders", 35),
    ("grande-tactique", "umpire", 118),
    ("grande-tactique", "turns", 75),
    ("percentile-fire", "orders", 33),
    ("percentile-fire", "umpire", 141),
    ("percentile-fire", "turns", 177),
];

#[test]
fn every_case_of_every_ruleset_gives_what_its_rules_prescribe() {
    let (files, strays) = case_files();
    let mut failures: Vec<String> = strays;
    for &(ruleset, kind, least) in AT_LEAST {
        let found = files
            .iter()
            .filter(|f| f.ruleset == ruleset && f.kind == kind)
            .count();
        if found < least {
            failures.push(format!(
                "{ruleset}/{kind}: {found} cases, at least {least} expected"
            ));
        }
    }
    let mut failed = 0;
    for file in &files {
        let problems = check(file);
        if !problems.is_empty() {
            failed += 1;
            failures.push(format!("{}:\n  {}", file.name(), problems.join("\n  ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{failed} of {} cases failed:\n\n{}",
        files.len(),
        failures.join("\n\n")
    );
}

/// Every ruleset in the registry has cases of every kind.
#[test]
fn every_ruleset_has_a_catalog() {
    let (files, _) = case_files();
    for id in adjutant::rules::known_rulesets() {
        for kind in catalog::KINDS {
            assert!(
                files.iter().any(|f| f.ruleset == id && f.kind == *kind),
                "{id} has no {kind} cases"
            );
        }
    }
}
