//! Checks an archive: the chain, each manifest, each seed, every die, and a
//! re-run of every resolution through the rules, byte for byte.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use super::{CampaignFile, ResolutionFile, SPEC, resolution_dir};
use crate::audit::chain::check_link;
use crate::audit::dice::{Dice, DiceStream, Roll};
use crate::audit::manifest::{MANIFEST_HEADER, UMPIRE};
use crate::audit::{Digest32, SeedInputs};
use crate::canonical;
use crate::resolution::{self, Inputs, Kind};
use crate::rules::{GameState, ruleset_for};

/// The archive could not be read at all.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArchiveError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not valid: {problem}")]
    Invalid { path: PathBuf, problem: String },
}

/// The verdict on one resolution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolutionVerdict {
    pub k: u64,
    pub kind: String,
    pub phase: String,
    /// How many rolls were re-derived; `None` while the logs are withheld.
    pub rolls: Option<usize>,
    /// Empty when everything matched.
    pub problems: Vec<String>,
}

impl fmt::Display for ResolutionVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.problems.is_empty() {
            let rolls = match self.rolls {
                Some(n) => format!("{n} rolls re-derived"),
                None => {
                    "logs not yet published; chain, manifest, states and seed check".to_string()
                }
            };
            write!(
                f,
                "resolution {} ({}, {}): ok, {rolls}",
                self.k, self.kind, self.phase
            )
        } else {
            write!(
                f,
                "resolution {} ({}, {}): FAILED: {}",
                self.k,
                self.kind,
                self.phase,
                self.problems.join("; ")
            )
        }
    }
}

/// The verdict on a whole archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub campaign: String,
    pub resolutions: Vec<ResolutionVerdict>,
    /// Problems with the archive as a whole (missing resolutions, ...).
    pub problems: Vec<String>,
}

impl Verdict {
    pub fn ok(&self) -> bool {
        self.problems.is_empty() && self.resolutions.iter().all(|r| r.problems.is_empty())
    }
}

fn read(path: &Path) -> Result<Vec<u8>, ArchiveError> {
    fs::read(path).map_err(|source| ArchiveError::Read {
        path: path.to_path_buf(),
        source,
    })
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, ArchiveError> {
    serde_json::from_slice(&read(path)?).map_err(|e| ArchiveError::Invalid {
        path: path.to_path_buf(),
        problem: e.to_string(),
    })
}

fn digest_field(value: &str, name: &str, problems: &mut Vec<String>) -> Digest32 {
    Digest32::from_hex(value).unwrap_or_else(|_| {
        problems.push(format!("{name} `{value}` is not 64 hex digits"));
        Digest32::ZERO
    })
}

/// Verifies the archive in `dir`.
pub fn verify(dir: &Path) -> Result<Verdict, ArchiveError> {
    let head: CampaignFile = read_json(&dir.join("campaign.json"))?;
    let mut verdict = Verdict {
        campaign: head.campaign.clone(),
        resolutions: Vec::new(),
        problems: Vec::new(),
    };
    if head.spec != SPEC {
        verdict.problems.push(format!(
            "the archive follows spec `{}`, this verifier knows `{SPEC}`",
            head.spec
        ));
        return Ok(verdict);
    }
    let Some(ruleset) = ruleset_for(&head.ruleset) else {
        verdict
            .problems
            .push(format!("unknown ruleset `{}`", head.ruleset));
        return Ok(verdict);
    };
    let mut previous_secret = digest_field(&head.commitment, "commitment", &mut verdict.problems);
    let mut previous_state = digest_field(
        &head.initial_state_digest,
        "initial_state_digest",
        &mut verdict.problems,
    );
    for k in 1..=head.resolutions {
        let rdir = dir.join(resolution_dir(k));
        let mut problems = Vec::new();
        let file: ResolutionFile = match read_json(&rdir.join("resolution.json")) {
            Ok(f) => f,
            Err(e) => {
                verdict.resolutions.push(ResolutionVerdict {
                    k,
                    kind: "?".into(),
                    phase: "?".into(),
                    rolls: None,
                    problems: vec![e.to_string()],
                });
                continue;
            }
        };
        if file.k != k {
            problems.push(format!("resolution.json says k = {}", file.k));
        }
        let secret = digest_field(&file.secret, "secret", &mut problems);
        if let Err(e) = check_link(k, &previous_secret, &secret) {
            problems.push(e.to_string());
        }
        previous_secret = secret;
        let outcome = check_resolution(&head, ruleset, &rdir, &file, secret, previous_state);
        let rolls = match outcome {
            Ok((rolls, more)) => {
                problems.extend(more);
                rolls
            }
            Err(e) => {
                problems.push(e.to_string());
                None
            }
        };
        previous_state = digest_field(&file.next_state_digest, "next_state_digest", &mut problems);
        verdict.resolutions.push(ResolutionVerdict {
            k,
            kind: file.kind.clone(),
            phase: file.phase.clone(),
            rolls,
            problems,
        });
    }
    if let Ok(entries) = fs::read_dir(dir.join("resolutions")) {
        let extra = entries.count() as u64;
        if extra != head.resolutions {
            verdict.problems.push(format!(
                "campaign.json lists {} resolutions, the archive holds {extra}",
                head.resolutions
            ));
        }
    }
    Ok(verdict)
}

/// Checks one resolution; returns how many rolls were re-derived and what
/// differed.
fn check_resolution(
    head: &CampaignFile,
    ruleset: &'static dyn crate::rules::Ruleset,
    rdir: &Path,
    file: &ResolutionFile,
    secret: Digest32,
    expected_prior: Digest32,
) -> Result<(Option<usize>, Vec<String>), ArchiveError> {
    let mut problems = Vec::new();
    let k = file.k;
    // The manifest and the orders it covers.
    let manifest_bytes = read(&rdir.join("manifest.txt"))?;
    let manifest_digest = Digest32::of(&manifest_bytes);
    if manifest_digest.to_hex() != file.manifest_digest {
        problems.push(format!(
            "manifest.txt hashes to {manifest_digest}, resolution.json says {}",
            file.manifest_digest
        ));
    }
    let manifest = String::from_utf8_lossy(&manifest_bytes).into_owned();
    let orders = check_manifest(&manifest, head, file, &rdir.join("orders"), &mut problems)?;
    // The states.
    let prior_bytes = read(&rdir.join("prior-state.json"))?;
    let prior_digest = Digest32::of(&prior_bytes);
    if prior_digest.to_hex() != file.prior_state_digest {
        problems.push(format!(
            "prior-state.json hashes to {prior_digest}, resolution.json says {}",
            file.prior_state_digest
        ));
    }
    if prior_digest != expected_prior {
        problems.push(format!(
            "the prior state {prior_digest} is not the state the previous resolution left ({expected_prior})"
        ));
    }
    let next_bytes = read(&rdir.join("next-state.json"))?;
    if Digest32::of(&next_bytes).to_hex() != file.next_state_digest {
        problems.push(format!(
            "next-state.json hashes to {}, resolution.json says {}",
            Digest32::of(&next_bytes),
            file.next_state_digest
        ));
    }
    if file.kind == Kind::Umpire.as_str() && file.next_state_digest != file.prior_state_digest {
        problems.push("an umpire call changed the game state".to_string());
    }
    // The seed.
    let seed = SeedInputs {
        campaign: head.campaign.clone(),
        resolution: k,
        secret,
        manifest_digest,
        prior_state_digest: prior_digest,
        beacon: head.beacon.clone(),
    }
    .seed();
    if seed.to_hex() != file.seed {
        problems.push(format!(
            "the seed re-derives as {seed}, resolution.json says {}",
            file.seed
        ));
    }
    // Every die, from the log alone, if the logs are published yet.
    let logs = read_logs(rdir)?;
    let logged = logs
        .as_ref()
        .map(|(rolls, _)| replay_rolls(rolls, &seed, &mut problems));
    // And the whole resolution, through the rules.
    let prior: GameState = match serde_json::from_slice(&prior_bytes) {
        Ok(s) => s,
        Err(e) => {
            problems.push(format!("prior-state.json is not a game state: {e}"));
            return Ok((logged, problems));
        }
    };
    let Some(kind) = Kind::parse(&file.kind) else {
        problems.push(format!("unknown resolution kind `{}`", file.kind));
        return Ok((logged, problems));
    };
    let run = resolution::run(&Inputs {
        ruleset,
        kind,
        campaign: &head.campaign,
        k,
        secret,
        manifest_digest,
        beacon: head.beacon.as_deref(),
        policy: head.no_orders_policy,
        prior_state: &prior,
        orders: &orders,
    });
    match run {
        Err(e) => problems.push(format!("re-running it fails: {e}")),
        Ok(out) => {
            let joined =
                |items: &[String]| items.iter().map(|l| format!("{l}\n")).collect::<String>();
            if let Some((rolls_text, events_text)) = &logs {
                if joined(&out.rolls) != *rolls_text {
                    problems.push(first_difference(
                        "rolls.jsonl",
                        &joined(&out.rolls),
                        rolls_text,
                    ));
                }
                if joined(&out.events) != *events_text {
                    problems.push(first_difference(
                        "events.jsonl",
                        &joined(&out.events),
                        events_text,
                    ));
                }
            }
            if out.next_state_json.as_bytes() != next_bytes.as_slice() {
                problems.push(format!(
                    "re-running it gives the next state {}, next-state.json is {}",
                    canonical::digest(&out.next_state),
                    Digest32::of(&next_bytes)
                ));
            }
        }
    }
    Ok((logged, problems))
}

/// The roll and event logs, or `None` while they are withheld (both files
/// absent). One without the other is an incomplete archive.
fn read_logs(rdir: &Path) -> Result<Option<(String, String)>, ArchiveError> {
    let rolls = rdir.join("rolls.jsonl");
    let events = rdir.join("events.jsonl");
    if !rolls.exists() && !events.exists() {
        return Ok(None);
    }
    let text = |p: &Path| read(p).map(|b| String::from_utf8_lossy(&b).into_owned());
    Ok(Some((text(&rolls)?, text(&events)?)))
}

/// Checks the manifest's fields and order digests; returns the orders.
fn check_manifest(
    manifest: &str,
    head: &CampaignFile,
    file: &ResolutionFile,
    orders_dir: &Path,
    problems: &mut Vec<String>,
) -> Result<BTreeMap<String, String>, ArchiveError> {
    let mut lines = manifest.lines();
    let expect = [
        MANIFEST_HEADER.to_string(),
        format!("campaign {}", head.campaign),
        format!("resolution {}", file.k),
        format!("phase {}", file.phase),
    ];
    for wanted in &expect {
        match lines.next() {
            Some(line) if line == wanted => {}
            other => problems.push(format!(
                "manifest line `{}` should read `{wanted}`",
                other.unwrap_or("")
            )),
        }
    }
    let mut orders = BTreeMap::new();
    let mut listed = Vec::new();
    let mut last_side: Option<String> = None;
    for line in lines {
        let parts: Vec<&str> = line.split(' ').collect();
        let [word, side, digest] = parts.as_slice() else {
            problems.push(format!(
                "manifest line `{line}` is not `orders <side> <digest>`"
            ));
            continue;
        };
        if *word != "orders" {
            problems.push(format!("manifest line `{line}` is not an orders line"));
            continue;
        }
        if last_side
            .as_deref()
            .is_some_and(|l| l.as_bytes() >= side.as_bytes())
        {
            problems.push(format!("manifest sides are not sorted at `{side}`"));
        }
        last_side = Some(side.to_string());
        listed.push(side.to_string());
        let path = orders_dir.join(format!("{side}.txt"));
        if *digest == "none" {
            if path.exists() {
                problems.push(format!(
                    "{side} sent no orders, yet orders/{side}.txt exists"
                ));
            }
            continue;
        }
        let text = read(&path)?;
        if Digest32::of(&text).to_hex() != *digest {
            problems.push(format!(
                "orders/{side}.txt hashes to {}, the manifest says {digest}",
                Digest32::of(&text)
            ));
        }
        orders.insert(
            side.to_string(),
            String::from_utf8_lossy(&text).into_owned(),
        );
    }
    let expected: Vec<String> = if file.kind == Kind::Umpire.as_str() {
        vec![UMPIRE.to_string()]
    } else {
        head.sides.clone()
    };
    if listed != expected {
        problems.push(format!(
            "the manifest lists {listed:?}; a {} resolution must list {expected:?}",
            file.kind
        ));
    }
    if let Ok(entries) = fs::read_dir(orders_dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let side = name.trim_end_matches(".txt");
            if !orders.contains_key(side) && !manifest.contains(&format!("orders {side} none\n")) {
                problems.push(format!("orders/{name} is not in the manifest"));
            }
        }
    }
    Ok(orders)
}

/// Re-derives every logged roll from a fresh stream; returns how many.
fn replay_rolls(text: &str, seed: &Digest32, problems: &mut Vec<String>) -> usize {
    let mut stream = DiceStream::new(seed);
    let mut count = 0;
    for (i, line) in text.lines().enumerate() {
        let logged: Roll = match serde_json::from_str(line) {
            Ok(r) => r,
            Err(e) => {
                problems.push(format!("roll {i} is not a roll: {e}"));
                return count;
            }
        };
        if logged.index as usize != i {
            problems.push(format!("roll {i} says index {}", logged.index));
        }
        if logged.first_word != stream.words_used() {
            problems.push(format!(
                "roll {i} starts at word {}, the stream is at word {}",
                logged.first_word,
                stream.words_used()
            ));
            return count;
        }
        stream.roll(logged.die, &logged.purpose);
        let derived = stream.log().last().cloned();
        if derived.as_ref() != Some(&logged) {
            let d = derived.unwrap_or(logged.clone());
            problems.push(format!(
                "roll {i} ({}) re-derives as {} {:?} using {} words, the log says {} {:?} using {}",
                logged.purpose, d.value, d.faces, d.words, logged.value, logged.faces, logged.words
            ));
            return count;
        }
        count += 1;
    }
    count
}

fn first_difference(name: &str, derived: &str, archived: &str) -> String {
    let line = derived
        .lines()
        .zip(archived.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| derived.lines().count().min(archived.lines().count()));
    format!(
        "{name} differs from a re-run at line {}: re-run `{}`, archive `{}`",
        line + 1,
        derived.lines().nth(line).unwrap_or("(nothing)"),
        archived.lines().nth(line).unwrap_or("(nothing)")
    )
}
