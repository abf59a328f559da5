//! Archives exported by earlier builds, kept as they were written: the
//! bundled campaign's 12 turns and 4 umpire calls (`demo`), and a shorter
//! game with a correction, a rollback and a second correction (`gm-acts`);
//! of spec v3, a game with every kind of act (`gm-acts-v3`) and a turn that
//! took a drand round (`drand-v3`).
//!
//! Whatever changes inside adjutant, a published archive must go on
//! verifying, and every resolution in it must re-run to the very bytes it
//! holds: the players' dice and the states they were told of do not change
//! with the program. This test checks both, the second without going
//! through `verify`, so that a change to the verifier cannot hide a change
//! to the rules.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use adjutant::archive::verify::verify;
use adjutant::archive::{ActFile, CampaignFile, ResolutionFile};
use adjutant::audit::{Digest32, Kind};
use adjutant::demo::bundled_campaign;
use adjutant::resolution::{self, Inputs};
use adjutant::rules::{GameState, ruleset_for};

const ARCHIVES: &str = "tests/fixtures/archives";

fn archive(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(ARCHIVES)
        .join(name)
}

fn read(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn json<T: serde::de::DeserializeOwned>(path: &Path) -> T {
    serde_json::from_slice(&read(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn text(path: &Path) -> String {
    String::from_utf8(read(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_frozen_archives_still_verify() {
    for name in ["demo", "gm-acts", "gm-acts-v3", "drand-v3"] {
        let verdict = verify(&archive(name)).expect("the archive reads");
        assert!(verdict.ok(), "{name}: {verdict:?}");
        let head: CampaignFile = json(&archive(name).join("campaign.json"));
        assert_eq!(
            verdict.resolutions.len() as u64,
            head.turns + head.calls,
            "{name}: every resolution was checked"
        );
        assert_eq!(verdict.acts.len() as u64, head.acts, "{name}: every act");
    }
}

/// Each resolution, run again from its prior state, its orders and its
/// secret, gives the archived next state, events and rolls byte for byte.
#[test]
fn every_frozen_resolution_re_runs_to_the_same_bytes() {
    let mut checked = 0;
    for name in ["demo", "gm-acts", "gm-acts-v3", "drand-v3"] {
        let dir = archive(name);
        let head: CampaignFile = json(&dir.join("campaign.json"));
        let ruleset = ruleset_for(&head.ruleset).expect("a known ruleset");
        for (kind, count) in [(Kind::Turn, head.turns), (Kind::Umpire, head.calls)] {
            for k in 1..=count {
                let rdir = dir.join(adjutant::archive::resolution_dir(kind, k));
                let file: ResolutionFile = json(&rdir.join("resolution.json"));
                let prior_bytes = read(&rdir.join("prior-state.json"));
                let prior: GameState = json(&rdir.join("prior-state.json"));
                let mut orders = BTreeMap::new();
                // No orders folder: no side sent any.
                for entry in fs::read_dir(rdir.join("orders")).into_iter().flatten() {
                    let path = entry.expect("entry").path();
                    let side = path
                        .file_stem()
                        .and_then(|s| s.to_str())
                        .expect("a side file")
                        .to_string();
                    orders.insert(side, text(&path));
                }
                // A drand round's randomness is SHA-256 of its signature
                // (verify checks the signature itself).
                let drawn = file
                    .beacon
                    .as_ref()
                    .filter(|b| b.signature != "waived")
                    .map(|b| Digest32::of(&hex::decode(&b.signature).expect("hex")));
                let out = resolution::run(&Inputs {
                    drawn,
                    ruleset,
                    kind,
                    campaign: &head.campaign,
                    k,
                    secret: Digest32::from_hex(&file.secret).expect("secret"),
                    manifest_digest: Digest32::of(&read(&rdir.join("manifest.txt"))),
                    prior_state_digest: Digest32::of(&prior_bytes),
                    beacon: head.beacon.as_deref(),
                    policy: head.no_orders_policy,
                    prior_state: &prior,
                    orders: &orders,
                })
                .unwrap_or_else(|e| panic!("{name} {kind} {k}: {e}"));
                let what = format!("{name} {kind} {k}");
                assert_eq!(
                    out.next_state_json,
                    text(&rdir.join("next-state.json")),
                    "{what}: next state"
                );
                assert_eq!(
                    adjutant::archive::joined_lines(&out.events),
                    text(&rdir.join("events.jsonl")),
                    "{what}: events"
                );
                assert_eq!(
                    adjutant::archive::joined_lines(&out.rolls),
                    text(&rdir.join("rolls.jsonl")),
                    "{what}: rolls"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(
        checked,
        16 + 6 + 5 + 1,
        "every frozen resolution was re-run"
    );
}

/// Each correction, applied again to the state before it, gives the state
/// after it byte for byte.
#[test]
fn every_frozen_correction_re_applies_to_the_same_bytes() {
    let dir = archive("gm-acts");
    let head: CampaignFile = json(&dir.join("campaign.json"));
    let ruleset = ruleset_for(&head.ruleset).expect("a known ruleset");
    let mut corrections = 0;
    for n in 1..=head.acts {
        let adir = dir.join(adjutant::archive::act_dir(n));
        let act: ActFile = json(&adir.join("act.json"));
        if act.kind != "correction" {
            continue;
        }
        let prior: GameState = json(&adir.join("prior-state.json"));
        let next = adjutant::rules::correction::parse_line(&act.command)
            .map_err(|e| e.to_string())
            .and_then(|c| ruleset.correct(&prior, &c).map_err(|e| e.to_string()))
            .unwrap_or_else(|e| panic!("act {n}: {e}"));
        assert_eq!(
            adjutant::canonical::to_string(&next),
            text(&adir.join("next-state.json")),
            "act {n}: `{}`",
            act.command
        );
        corrections += 1;
    }
    assert_eq!(corrections, 2);
}

/// The bundled campaign, loaded and set up today, starts from the very
/// state the frozen archives start from, but for its turn limit: the
/// frozen game was played to the twelve turns the campaign then had, and
/// the campaign now gives its battle thirty.
#[test]
fn the_bundled_campaign_still_starts_from_the_frozen_initial_state() {
    let head: CampaignFile = json(&archive("demo").join("campaign.json"));
    let dir = tempfile::tempdir().expect("tempdir");
    let campaign = bundled_campaign(dir.path()).expect("the bundled campaign loads");
    let ruleset = ruleset_for(&campaign.ruleset.id).expect("a known ruleset");
    let mut state = campaign.initial_state(ruleset).expect("the initial state");
    assert_eq!(state.turn_limit, Some(30));
    state.turn_limit = Some(head.turns as u32);
    assert_eq!(
        adjutant::canonical::digest(&state).to_hex(),
        head.initial_state_digest
    );
}
