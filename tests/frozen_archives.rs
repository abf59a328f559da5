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
//!
//! The one change they may take is a rules fix whose effect reaches one of
//! their resolutions: a defect put right changes what that resolution
//! gives, and every later one through its seed (docs/AUDIT.md: the seed
//! takes the prior state's digest). `ADJUTANT_BLESS=1 cargo test --test
//! frozen_archives` then re-runs an archive without acts or links (`demo`)
//! from its first resolution, each from the state the one before now left,
//! with its own secret and its sides' orders checked as the daemon checks
//! mail against that state (a line it now forbids is refused, and the
//! manifest follows), and rewrites the files that change (states, events,
//! rolls, orders, manifest, and the seed and digests of `resolution.json`).
//! Check that the first difference is the fix's effect and nothing else
//! before committing it. An archive with acts or links
//! cannot be blessed so: a fix that reaches one is a question for its spec.
//!
//! The other change they may take is to the words of events, when the
//! words the rules give are meant to change (a reason added to a refusal):
//! the same run
//!
//!     ADJUTANT_BLESS=1 cargo test --test frozen_archives
//!
//! and `every_frozen_resolution_re_runs_to_the_same_bytes` rewrites the
//! `events.jsonl` of each resolution whose next state and rolls still re-run
//! to the archived bytes, and only those; then check with `git diff` that
//! nothing but the words changed. A resolution whose state or dice differ
//! is never rewritten. The archives of spec v2 hold no digest of their
//! events; an archive whose hash links cover them fails
//! `the_frozen_archives_still_verify` after such a rewrite, and must be
//! exported again instead.

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
    if std::env::var_os("ADJUTANT_BLESS").is_some() {
        bless("demo");
    }
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
                // No orders folder: no side sent any.
                let orders = orders_of(&rdir);
                // A drand round's randomness is SHA-256 of its signature
                // (verify checks the signature itself).
                let drawn = file
                    .beacon
                    .as_ref()
                    .filter(|b| b.signature != "waived")
                    .map(|b| Digest32::of(&hex::decode(&b.signature).expect("hex")));
                let out = resolution::run(&Inputs {
                    drawn,
                    prior: &resolution::Prior::new(ruleset, &prior),
                    kind,
                    campaign: &head.campaign,
                    k,
                    secret: Digest32::from_hex(&file.secret).expect("secret"),
                    manifest_digest: Digest32::of(&read(&rdir.join("manifest.txt"))),
                    prior_state_digest: Digest32::of(&prior_bytes),
                    beacon: head.beacon.as_deref(),
                    policy: head.no_orders_policy,
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
                    adjutant::archive::joined_lines(&out.rolls),
                    text(&rdir.join("rolls.jsonl")),
                    "{what}: rolls"
                );
                let events = adjutant::archive::joined_lines(&out.events);
                if std::env::var_os("ADJUTANT_BLESS").is_some() {
                    // The state and the dice are the archived ones: only
                    // the words may differ.
                    fs::write(rdir.join("events.jsonl"), &events).expect("blessed");
                }
                assert_eq!(events, text(&rdir.join("events.jsonl")), "{what}: events");
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

/// The orders of a resolution's folder, by side (none: no side sent any).
fn orders_of(rdir: &Path) -> BTreeMap<String, String> {
    let mut orders = BTreeMap::new();
    for entry in fs::read_dir(rdir.join("orders")).into_iter().flatten() {
        let path = entry.expect("entry").path();
        let side = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a side file")
            .to_string();
        orders.insert(side, text(&path));
    }
    orders
}

/// Re-runs the archive `name` (no acts, no links, no beacon) from its
/// first turn, each resolution from the state the turn before it now
/// leaves, and rewrites what changed: see the module's doc.
fn bless(name: &str) {
    let dir = archive(name);
    let head: CampaignFile = json(&dir.join("campaign.json"));
    assert!(
        head.acts == 0 && head.entries.is_none() && head.beacon.is_none(),
        "{name}: an archive with acts, links or a beacon is not blessed"
    );
    let ruleset = ruleset_for(&head.ruleset).expect("a known ruleset");
    // The state each turn left, by turns resolved: 0 is the initial state.
    let first = dir.join(adjutant::archive::resolution_dir(Kind::Turn, 1));
    let mut after: Vec<String> = vec![text(&first.join("prior-state.json"))];
    for (kind, count) in [(Kind::Turn, head.turns), (Kind::Umpire, head.calls)] {
        for k in 1..=count {
            let rdir = dir.join(adjutant::archive::resolution_dir(kind, k));
            let mut file: ResolutionFile = json(&rdir.join("resolution.json"));
            let prior_json = after[usize::try_from(file.after_turn).expect("a count")].clone();
            let prior: GameState = serde_json::from_str(&prior_json).expect("a state");
            let prior_digest = Digest32::of(prior_json.as_bytes());
            let prior_read = ruleset.read(&prior).expect("the prior state reads");
            let mut orders = orders_of(&rdir);
            if kind == Kind::Turn {
                // The same mail, taken as the daemon takes it: each side's
                // orders checked against the state they now meet, a line
                // the new state forbids refused.
                for (side, sent) in &mut orders {
                    let taken = ruleset
                        .check_orders(&prior_read, side, sent)
                        .canonical_text();
                    if taken != *sent {
                        fs::write(rdir.join("orders").join(format!("{side}.txt")), &taken)
                            .expect("blessed");
                        *sent = taken;
                    }
                }
                let manifest =
                    resolution::turn_manifest(&head.campaign, k, &file.phase, &prior, &orders)
                        .text();
                if read(&rdir.join("manifest.txt")) != manifest.as_bytes() {
                    fs::write(rdir.join("manifest.txt"), &manifest).expect("blessed");
                }
                file.manifest_digest = Digest32::of(manifest.as_bytes()).to_hex();
            }
            let out = resolution::run(&Inputs {
                drawn: None,
                prior: &resolution::Prior::already_read(ruleset, &prior_read),
                kind,
                campaign: &head.campaign,
                k,
                secret: Digest32::from_hex(&file.secret).expect("secret"),
                manifest_digest: Digest32::from_hex(&file.manifest_digest).expect("digest"),
                prior_state_digest: prior_digest,
                beacon: None,
                policy: head.no_orders_policy,
                orders: &orders,
            })
            .unwrap_or_else(|e| panic!("{name} {kind} {k}: {e}"));
            file.seed = out.seed.to_hex();
            file.prior_state_digest = prior_digest.to_hex();
            file.next_state_digest = Digest32::of(out.next_state_json.as_bytes()).to_hex();
            let files = [
                ("resolution.json", adjutant::archive::ledger::pretty(&file)),
                ("prior-state.json", prior_json.into_bytes()),
                ("next-state.json", out.next_state_json.clone().into_bytes()),
                (
                    "events.jsonl",
                    adjutant::archive::joined_lines(&out.events).into_bytes(),
                ),
                (
                    "rolls.jsonl",
                    adjutant::archive::joined_lines(&out.rolls).into_bytes(),
                ),
            ];
            for (file_name, bytes) in files {
                let path = rdir.join(file_name);
                if read(&path) != bytes {
                    fs::write(&path, bytes).expect("blessed");
                }
            }
            if kind == Kind::Turn {
                after.push(out.next_state_json);
            }
        }
    }
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
