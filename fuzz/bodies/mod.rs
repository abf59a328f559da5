//! What each fuzz target does with its input, and the invariants it holds
//! the code to. The fuzz targets (`fuzz/fuzz_targets/`) and the replay of
//! every seed and regression input in `cargo test` (`tests/fuzz_corpus.rs`)
//! both call these functions, so that a defect the fuzzer once found is
//! checked on the stable toolchain for good.
//!
//! Each body takes the bytes a stranger controls and panics only when an
//! invariant fails; a panic anywhere beneath it is a defect of adjutant.

pub mod campaign;
pub mod ingest;
pub mod mail;
pub mod orders;

use adjutant::campaign::{Campaign, load_texts};
use adjutant::rules::Ruleset;

/// What a target does with one input.
pub type Body = Box<dyn Fn(&[u8]) + Sync>;

/// A fuzz target, by the name of its folder under `fuzz/corpus/` and
/// `fuzz/regressions/`, with the body it runs.
pub struct Target {
    pub name: String,
    pub run: Body,
}

/// Every target: one for the orders of each ruleset in the registry, the
/// mail parser, the whole ingest path, and the campaign loader.
pub fn targets() -> Vec<Target> {
    let mut targets: Vec<Target> = adjutant::rules::registry::RULESETS
        .iter()
        .map(|ruleset| {
            let id = ruleset.id();
            Target {
                name: orders::target_name(id),
                run: Box::new(move |data| orders::run(id, data)),
            }
        })
        .collect();
    targets.push(Target {
        name: "mail".to_string(),
        run: Box::new(mail::run),
    });
    targets.push(Target {
        name: "ingest".to_string(),
        run: Box::new(ingest::run),
    });
    targets.push(Target {
        name: "campaign".to_string(),
        run: Box::new(campaign::run),
    });
    targets
}

/// The campaign a ruleset ships, checked as `adjutant check` checks it.
pub fn demo_campaign(ruleset: &dyn Ruleset) -> Campaign {
    let demo = ruleset
        .demo()
        .unwrap_or_else(|| panic!("{} ships no demo campaign", ruleset.id()));
    load_texts(
        std::path::Path::new(demo.folder),
        demo.campaign_toml,
        demo.scenario_toml,
    )
    .unwrap_or_else(|p| panic!("the demo of {} does not load: {p}", ruleset.id()))
}

/// Lets a panic raised inside mail-parser (its `debug_assert!`s, which the
/// fuzz build compiles) unwind to the guard adjutant keeps around it
/// (`mail::inbound`), as it does in a debug build of adjutant, rather than
/// abort at once as libFuzzer's panic hook makes every panic do. Any other
/// panic still aborts: it is a defect of adjutant.
pub fn let_mail_parser_panics_unwind() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let aborting = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_mail_parser = info
                .location()
                .is_some_and(|at| at.file().contains("/mail-parser-"));
            if !in_mail_parser {
                aborting(info);
            }
        }));
    });
}
