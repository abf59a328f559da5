//! Checks an archive: both chains, each manifest, each seed, every die, and a
//! re-run of every resolution through the rules, byte for byte.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use super::verify_links::{self, LinkCheck};
use super::{
    ActFile, CampaignFile, PLAIN_ACTS, ResolutionFile, SPEC, SPEC_LINKED, SPEC_WITH_ACTS, act_dir,
    joined_lines, resolution_dir,
};
use crate::audit::chain::check_link;
use crate::audit::dice::{Dice, DiceStream, Roll};
use crate::audit::manifest::{MANIFEST_HEADER, UMPIRE};
use crate::audit::{Digest32, Kind, Manifest, SeedInputs, SideOrders};
use crate::canonical;
use crate::resolution::{self, Inputs};
use crate::rules::correction::parse_line;
use crate::rules::{GameState, Ruleset, ruleset_for};

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
    pub kind: Kind,
    pub k: u64,
    pub phase: String,
    /// How many rolls were re-derived; `None` while the logs are withheld.
    pub rolls: Option<usize>,
    /// Empty when everything matched.
    pub problems: Vec<String>,
}

impl fmt::Display for ResolutionVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.kind {
            Kind::Turn => "turn resolution",
            Kind::Umpire => "umpire call",
        };
        if self.problems.is_empty() {
            let rolls = match self.rolls {
                Some(n) => format!("{n} rolls re-derived"),
                None => {
                    "logs not yet published; chain, manifest, states and seed check".to_string()
                }
            };
            write!(f, "{name} {} ({}): ok, {rolls}", self.k, self.phase)
        } else {
            write!(
                f,
                "{name} {} ({}): FAILED: {}",
                self.k,
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
    /// The game master's acts (corrections, rollbacks), in order.
    pub acts: Vec<ActVerdict>,
    /// Problems with the archive as a whole (missing resolutions, ...).
    pub problems: Vec<String>,
    /// Spec v3: the hash-linked record's heads, genesis first.
    pub links: Option<LinkCheck>,
    /// What checks but a reader must be told: a drand network that is not a
    /// public one adjutant knows, which the game master may control
    /// (docs/AUDIT.md, section 11.6). Not a failure.
    pub warnings: Vec<String>,
}

impl Verdict {
    /// Where `head` is in the record: 0 for the genesis, e for entry e.
    /// `None` if the archive does not hold it: it was cut short before it or
    /// rewritten, or the head is another campaign's.
    pub fn position_of(&self, head: &Digest32) -> Option<usize> {
        self.links.as_ref()?.heads.iter().position(|h| h == head)
    }

    pub fn ok(&self) -> bool {
        self.problems.is_empty()
            && self.resolutions.iter().all(|r| r.problems.is_empty())
            && self.acts.iter().all(|a| a.problems.is_empty())
    }
}

/// The verdict on one game master's act.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActVerdict {
    pub n: u64,
    /// The canonical command (`correct ...`, `rollback`).
    pub command: String,
    pub after_turn: u64,
    /// Empty when it checked.
    pub problems: Vec<String>,
}

impl fmt::Display for ActVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let head = format!(
            "game master's act {} after turn {} (`{}`)",
            self.n, self.after_turn, self.command
        );
        if self.problems.is_empty() && self.command == "rollback" {
            write!(
                f,
                "{head}: ok, restores the state turn {} started from",
                self.after_turn
            )
        } else if self.problems.is_empty() && self.command.starts_with("correct ") {
            write!(f, "{head}: ok, re-applied to the state before it")
        } else if self.problems.is_empty() {
            write!(f, "{head}: ok")
        } else {
            write!(f, "{head}: FAILED: {}", self.problems.join("; "))
        }
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

/// Side ids are `[a-z0-9-]+`, or `@umpire` for a call: anything else could
/// name a file outside the archive.
fn valid_side(side: &str) -> bool {
    side == UMPIRE
        || (!side.is_empty()
            && side
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'))
}

/// Verifies the archive in `dir`.
pub fn verify(dir: &Path) -> Result<Verdict, ArchiveError> {
    let head: CampaignFile = read_json(&dir.join("campaign.json"))?;
    let mut verdict = Verdict {
        campaign: head.campaign.clone(),
        resolutions: Vec::new(),
        acts: Vec::new(),
        problems: Vec::new(),
        links: None,
        warnings: Vec::new(),
    };
    if ![SPEC, SPEC_WITH_ACTS, SPEC_LINKED].contains(&head.spec.as_str()) {
        verdict.problems.push(format!(
            "the archive follows spec `{}`, this verifier knows `{SPEC}`, `{SPEC_WITH_ACTS}` and `{SPEC_LINKED}`",
            head.spec
        ));
        return Ok(verdict);
    }
    check_beacon_kind(&head, &mut verdict);
    let linked = head.spec == SPEC_LINKED;
    if linked {
        let links = verify_links::check(dir, &head);
        verdict.problems.extend(links.problems.iter().cloned());
        verdict.links = Some(links);
    } else if dir.join("genesis.txt").exists() || head.head.is_some() {
        verdict.problems.push(format!(
            "a `{}` archive holds no hash-linked record, but this one has genesis.txt or a head",
            head.spec
        ));
    }
    let Some(ruleset) = ruleset_for(&head.ruleset) else {
        verdict
            .problems
            .push(format!("unknown ruleset `{}`", head.ruleset));
        return Ok(verdict);
    };
    if head.spec == SPEC && head.acts > 0 {
        verdict.problems.push(format!(
            "campaign.json lists {} game master's acts, which a `{SPEC}` archive cannot hold",
            head.acts
        ));
    }
    let acts = read_acts(dir, head.acts, linked, &mut verdict.problems)?;
    let segments = check_turns_and_acts(&head, ruleset, dir, &acts, &mut verdict);
    check_calls(&head, ruleset, dir, &segments, &mut verdict);
    check_calls_order(dir, &head, &mut verdict);
    check_waivers(&head, dir, &acts, &mut verdict);
    for (kind, count) in [(Kind::Turn, head.turns), (Kind::Umpire, head.calls)] {
        let held = fs::read_dir(dir.join(kind.folder())).map_or(0, |d| d.count() as u64);
        if held != count {
            verdict.problems.push(format!(
                "campaign.json lists {count} in {}/, the archive holds {held}",
                kind.folder()
            ));
        }
    }
    Ok(verdict)
}

/// AUDIT.md sections 7 and 11.6: a campaign's beacon is a fixed text or a
/// drand network, never both; genesis.txt names only the network. A
/// network adjutant does not know is warned of: its dice are as honest as
/// whoever holds its key.
fn check_beacon_kind(head: &CampaignFile, verdict: &mut Verdict) {
    if head.beacon.is_some() && head.drand.is_some() {
        verdict.problems.push(
            "campaign.json has both a beacon text and a drand network; a campaign has one or neither"
                .to_string(),
        );
    }
    if let Some(info) = &head.drand
        && let Ok(network) = crate::beacon::Network::from_info_json(info.as_bytes())
        && network.known_name().is_none()
    {
        verdict.warnings.push(format!(
            "the campaign's drand chain {} is not quicknet's ({}) nor any public network adjutant knows: its dice are as honest as whoever holds that network's key, the game master perhaps",
            network.chain_hash_hex(),
            crate::beacon::QUICKNET.chain_hash_hex()
        ));
    }
}

/// Checks every turn and every act in the order they were made, and
/// returns every state the game passed through after each turn (index 0:
/// before the first), in order: the turn's next state, then the state after
/// each act that followed it. A turn starts from the last state before it;
/// an umpire call, which changes nothing, from any of them.
fn check_turns_and_acts(
    head: &CampaignFile,
    ruleset: &'static dyn Ruleset,
    dir: &Path,
    acts: &[ActEntry],
    verdict: &mut Verdict,
) -> Vec<Vec<Digest32>> {
    let initial = digest_field(
        &head.initial_state_digest,
        "initial_state_digest",
        &mut verdict.problems,
    );
    let mut segments: Vec<Vec<Digest32>> = vec![vec![initial]];
    let mut turn_priors: Vec<Digest32> = Vec::new();
    let mut previous = digest_field(&head.commitment, "commitment", &mut verdict.problems);
    let mut next_act = acts.iter().peekable();
    let last_state = |segments: &[Vec<Digest32>]| {
        segments
            .last()
            .and_then(|s| s.last())
            .copied()
            .unwrap_or(initial)
    };
    for k in 1..=head.turns + 1 {
        let t = k - 1;
        while let Some((file, states)) = next_act.next_if(|(a, _)| a.after_turn == t) {
            let current = last_state(&segments);
            let (v, next) = check_act(ruleset, file, states, current, &turn_priors, acts);
            if let (Some(seg), Some(next)) = (segments.last_mut(), next) {
                seg.push(next);
            }
            verdict.acts.push(v);
        }
        if k > head.turns {
            break;
        }
        let expected_prior = last_state(&segments);
        let (v, next, prior) = check_one(head, ruleset, dir, Kind::Turn, k, &mut previous, |_| {
            Some(vec![expected_prior])
        });
        turn_priors.push(prior.unwrap_or(Digest32::ZERO));
        segments.push(vec![next.unwrap_or(Digest32::ZERO)]);
        verdict.resolutions.push(v);
    }
    for (file, _) in next_act {
        verdict.problems.push(format!(
            "act {} says it follows turn {}, but the archive holds {} turns (or the acts are out of order)",
            file.n, file.after_turn, head.turns
        ));
    }
    segments
}

/// Checks every umpire call, each against the states the game passed
/// through after the turn it names.
fn check_calls(
    head: &CampaignFile,
    ruleset: &'static dyn Ruleset,
    dir: &Path,
    segments: &[Vec<Digest32>],
    verdict: &mut Verdict,
) {
    let mut previous = digest_field(
        &head.umpire_commitment,
        "umpire_commitment",
        &mut verdict.problems,
    );
    for k in 1..=head.calls {
        let (v, _, _) = check_one(head, ruleset, dir, Kind::Umpire, k, &mut previous, |t| {
            usize::try_from(t)
                .ok()
                .and_then(|t| segments.get(t).cloned())
        });
        verdict.resolutions.push(v);
    }
}

/// A turn resolved without the drand round its manifest named is the game
/// master's act, recorded before it.
fn check_waivers(head: &CampaignFile, dir: &Path, acts: &[ActEntry], verdict: &mut Verdict) {
    for k in 1..=head.turns {
        let path = dir
            .join(resolution_dir(Kind::Turn, k))
            .join("resolution.json");
        let Ok(file) = read_json::<ResolutionFile>(&path) else {
            continue;
        };
        let waived = file
            .beacon
            .as_ref()
            .is_some_and(|b| b.signature == crate::store::BEACON_WAIVED);
        if waived
            && !acts
                .iter()
                .any(|(a, _)| a.kind == "without-beacon" && a.after_turn == k - 1)
        {
            verdict.problems.push(format!(
                "turn {k} was resolved without its drand round, and no act of the game master says so"
            ));
        }
    }
}

/// The umpire calls' `after_turn`s against their order: calls are
/// archived in the order they were made, and the count of turns only grows,
/// so a call's is never less than the previous call's (AUDIT.md section 8,
/// step 3); and the record numbers its entries in the order recorded (section
/// 11.2), so a call follows exactly the turns recorded before it. After a
/// rollback a call's prior state is also the state before the undone turn:
/// the states alone cannot show a call moved before it.
fn check_calls_order(dir: &Path, head: &CampaignFile, verdict: &mut Verdict) {
    let mut previous: Option<u64> = None;
    for k in 1..=head.calls {
        let folder = resolution_dir(Kind::Umpire, k);
        let Ok(file) = read_json::<ResolutionFile>(&dir.join(&folder).join("resolution.json"))
        else {
            continue;
        };
        let mut problems = Vec::new();
        if let Some(p) = previous
            && file.after_turn < p
        {
            problems.push(format!(
                "it follows turn {}, but the previous call followed turn {p}: calls are archived in the order they were made",
                file.after_turn
            ));
        }
        previous = Some(previous.map_or(file.after_turn, |p| p.max(file.after_turn)));
        if let Some(links) = &verdict.links
            && let Some(at) = links.folders.iter().position(|f| *f == folder)
        {
            let turns = links.folders[..at]
                .iter()
                .filter(|f| f.starts_with("turns/"))
                .count() as u64;
            if turns != file.after_turn {
                problems.push(format!(
                    "it follows turn {}, but the record holds {turns} turns before it",
                    file.after_turn
                ));
            }
        }
        if let Some(v) = verdict
            .resolutions
            .iter_mut()
            .find(|r| r.kind == Kind::Umpire && r.k == k)
        {
            v.problems.extend(problems);
        }
    }
}

/// One act's file and the bytes of its two states.
type ActEntry = (ActFile, Option<(Vec<u8>, Vec<u8>)>);

/// Reads acts 1..=count. An act whose files cannot be read is kept with no
/// states, so that its verdict says what is missing.
fn read_acts(
    dir: &Path,
    count: u64,
    linked: bool,
    problems: &mut Vec<String>,
) -> Result<Vec<ActEntry>, ArchiveError> {
    let mut acts: Vec<ActEntry> = Vec::new();
    for n in 1..=count {
        let adir = dir.join(act_dir(n));
        let file: ActFile = read_json(&adir.join("act.json"))?;
        if file.n != n {
            problems.push(format!("gm/{n:04}/act.json says it is act {}", file.n));
        }
        if !linked && (PLAIN_ACTS.contains(&file.kind.as_str()) || file.by.is_some()) {
            problems.push(format!(
                "act {n} is of spec v3 (`{}`), in an archive that is not",
                file.kind
            ));
        }
        if linked && file.by.is_none() {
            problems.push(format!("act {n} does not say who asked for it"));
        }
        if let Some((last, _)) = acts.last()
            && last.after_turn > file.after_turn
        {
            problems.push(format!(
                "act {n} follows turn {}, but act {} followed turn {}: acts are out of order",
                file.after_turn, last.n, last.after_turn
            ));
        }
        let states = match (
            read(&adir.join("prior-state.json")),
            read(&adir.join("next-state.json")),
        ) {
            (Ok(p), Ok(x)) => Some((p, x)),
            _ => None,
        };
        acts.push((file, states));
    }
    let held = fs::read_dir(dir.join("gm")).map_or(0, |d| d.count() as u64);
    if held != count {
        problems.push(format!(
            "campaign.json lists {count} in gm/, the archive holds {held}"
        ));
    }
    Ok(acts)
}

/// Checks one act: its states' digests, that it starts from the state the
/// game was in (`current`), and that it makes its next state. A correction
/// is re-applied to the state before it, byte for byte; a rollback must
/// restore the state the last turn started from, once per turn. Returns the
/// verdict and the state after the act.
fn check_act(
    ruleset: &'static dyn Ruleset,
    file: &ActFile,
    states: &Option<(Vec<u8>, Vec<u8>)>,
    current: Digest32,
    turn_priors: &[Digest32],
    all: &[ActEntry],
) -> (ActVerdict, Option<Digest32>) {
    let mut v = ActVerdict {
        n: file.n,
        command: file.command.clone(),
        after_turn: file.after_turn,
        problems: Vec::new(),
    };
    let problems = &mut v.problems;
    if PLAIN_ACTS.contains(&file.kind.as_str()) {
        // An act that changes no state: it has none, and the game stays
        // where it was.
        if file.prior_state_digest.is_some() || file.next_state_digest.is_some() || states.is_some()
        {
            problems.push(format!(
                "a `{}` act changes no state and holds none",
                file.kind
            ));
        }
        let verb = file.kind.replace('-', " ");
        if !file.command.starts_with(&verb) {
            problems.push(format!(
                "a `{}` act's command starts `{verb}`, not `{}`",
                file.kind, file.command
            ));
        }
        if file.kind == "submit" && (file.reason.is_none() || file.orders_digest.is_none()) {
            problems
                .push("a `submit` act gives the operator's reason and the orders' digest".into());
        }
        return (v, None);
    }
    let prior = digest_field(
        file.prior_state_digest.as_deref().unwrap_or(""),
        "prior_state_digest",
        problems,
    );
    let next = digest_field(
        file.next_state_digest.as_deref().unwrap_or(""),
        "next_state_digest",
        problems,
    );
    let Some((prior_bytes, next_bytes)) = states else {
        problems.push("prior-state.json or next-state.json is missing".to_string());
        return (v, Some(next));
    };
    if Digest32::of(prior_bytes) != prior {
        problems.push(format!(
            "prior-state.json hashes to {}, act.json says {prior}",
            Digest32::of(prior_bytes)
        ));
    }
    if Digest32::of(next_bytes) != next {
        problems.push(format!(
            "next-state.json hashes to {}, act.json says {next}",
            Digest32::of(next_bytes)
        ));
    }
    if prior != current {
        problems.push(format!(
            "it starts from {prior}, but the game was in {current}"
        ));
    }
    match file.kind.as_str() {
        "correction" => {
            if file.undoes_turn.is_some() {
                problems.push("a correction undoes no turn".to_string());
            }
            let correction = match parse_line(&file.command) {
                Ok(c) => c,
                Err(e) => {
                    problems.push(format!("the command cannot be read: {e}"));
                    return (v, Some(next));
                }
            };
            if correction.to_string() != file.command {
                problems.push(format!(
                    "the command is not canonical; its canonical form is `{correction}`"
                ));
            }
            let state: GameState = match serde_json::from_slice(prior_bytes) {
                Ok(s) => s,
                Err(e) => {
                    problems.push(format!("prior-state.json is not a game state: {e}"));
                    return (v, Some(next));
                }
            };
            match ruleset.correct(&state, &correction) {
                Ok(made) => {
                    let made = canonical::to_string(&made);
                    if made.as_bytes() != next_bytes.as_slice() {
                        problems.push(format!(
                            "re-applying it gives the state {}, next-state.json is {next}",
                            Digest32::of(made.as_bytes())
                        ));
                    }
                }
                Err(e) => problems.push(format!("it does not apply to the state before it: {e}")),
            }
        }
        "rollback" => {
            if file.command != "rollback" {
                problems.push(format!(
                    "a rollback's command is `rollback`, not `{}`",
                    file.command
                ));
            }
            if file.undoes_turn != Some(file.after_turn) || file.after_turn == 0 {
                problems.push(format!(
                    "a rollback undoes the last turn before it ({}), it says {:?}",
                    file.after_turn, file.undoes_turn
                ));
            }
            let twice = all.iter().any(|(a, _)| {
                a.n < file.n && a.kind == "rollback" && a.undoes_turn == file.undoes_turn
            });
            if twice {
                problems.push(format!("turn {} is rolled back twice", file.after_turn));
            }
            let restored = usize::try_from(file.after_turn)
                .ok()
                .and_then(|t| t.checked_sub(1))
                .and_then(|i| turn_priors.get(i));
            if restored != Some(&next) {
                problems.push(format!(
                    "it must restore the state turn {} started from, not {next}",
                    file.after_turn
                ));
            }
        }
        other => problems.push(format!(
            "`{other}` is not a kind of act (correction, rollback)"
        )),
    }
    (v, Some(next))
}

/// Checks resolution k of `kind`. `prior_for(after_turn)` gives the state
/// its prior state must be. Returns the verdict and its next state's digest.
fn check_one(
    head: &CampaignFile,
    ruleset: &'static dyn Ruleset,
    dir: &Path,
    kind: Kind,
    k: u64,
    previous_secret: &mut Digest32,
    prior_for: impl Fn(u64) -> Option<Vec<Digest32>>,
) -> (ResolutionVerdict, Option<Digest32>, Option<Digest32>) {
    let rdir = dir.join(resolution_dir(kind, k));
    let mut verdict = ResolutionVerdict {
        kind,
        k,
        phase: "?".to_string(),
        rolls: None,
        problems: Vec::new(),
    };
    let file: ResolutionFile = match read_json(&rdir.join("resolution.json")) {
        Ok(f) => f,
        Err(e) => {
            verdict.problems.push(e.to_string());
            return (verdict, None, None);
        }
    };
    verdict.phase = file.phase.clone();
    let problems = &mut verdict.problems;
    if file.k != k || file.kind != kind {
        problems.push(format!(
            "resolution.json says {} {}, in the folder of {kind} {k}",
            file.kind, file.k
        ));
    }
    let secret = digest_field(&file.secret, "secret", problems);
    if let Err(e) = check_link(k, previous_secret, &secret) {
        problems.push(e.to_string());
    }
    *previous_secret = secret;
    let next = digest_field(&file.next_state_digest, "next_state_digest", problems);
    let prior = digest_field(&file.prior_state_digest, "prior_state_digest", problems);
    let Some(expected_prior) = prior_for(file.after_turn) else {
        problems.push(format!(
            "it follows turn {}, which the archive does not hold",
            file.after_turn
        ));
        return (verdict, Some(next), Some(prior));
    };
    if kind == Kind::Turn && file.after_turn + 1 != k {
        problems.push(format!("turn {k} says it follows turn {}", file.after_turn));
    }
    match check_files(head, ruleset, &rdir, &file, secret, expected_prior) {
        Ok((rolls, more)) => {
            verdict.rolls = rolls;
            verdict.problems.extend(more);
        }
        Err(e) => verdict.problems.push(e.to_string()),
    }
    (verdict, Some(next), Some(prior))
}

/// Checks one resolution's files; returns how many rolls were re-derived
/// (`None` while the logs are withheld) and what differed.
fn check_files(
    head: &CampaignFile,
    ruleset: &'static dyn Ruleset,
    rdir: &Path,
    file: &ResolutionFile,
    secret: Digest32,
    expected_prior: Vec<Digest32>,
) -> Result<(Option<usize>, Vec<String>), ArchiveError> {
    let mut problems = Vec::new();
    let (kind, k) = (file.kind, file.k);
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
    if head.spec == SPEC_LINKED && kind == Kind::Turn {
        check_submissions(rdir, &orders, &mut problems);
    }
    let states = read_states(rdir, file, &expected_prior, &mut problems)?;
    let drawn = drawn_round(head, file, &mut problems);
    let seed = SeedInputs {
        drawn,
        kind,
        campaign: head.campaign.clone(),
        resolution: k,
        secret,
        manifest_digest,
        prior_state_digest: states.prior_digest,
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
    let inputs = Rerun {
        head,
        ruleset,
        file,
        secret,
        manifest_digest,
        drawn,
        orders: &orders,
    };
    inputs.check(&states, logs.as_ref(), &mut problems);
    Ok((logged, problems))
}

/// A resolution's prior and next states as archived.
struct ArchivedStates {
    prior_bytes: Vec<u8>,
    prior_digest: Digest32,
    next_bytes: Vec<u8>,
}

/// Reads the prior and next states, and checks their digests against
/// resolution.json, the prior against the states the game passed through,
/// and that an umpire call changed nothing.
fn read_states(
    rdir: &Path,
    file: &ResolutionFile,
    expected_prior: &[Digest32],
    problems: &mut Vec<String>,
) -> Result<ArchivedStates, ArchiveError> {
    let prior_bytes = read(&rdir.join("prior-state.json"))?;
    let prior_digest = Digest32::of(&prior_bytes);
    if prior_digest.to_hex() != file.prior_state_digest {
        problems.push(format!(
            "prior-state.json hashes to {prior_digest}, resolution.json says {}",
            file.prior_state_digest
        ));
    }
    if !expected_prior.contains(&prior_digest) {
        let expected: Vec<String> = expected_prior.iter().map(Digest32::to_hex).collect();
        problems.push(format!(
            "the prior state {prior_digest} is not the state turn {} left ({}), nor one a game master's act made after it",
            file.after_turn,
            expected.join(" or ")
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
    if file.kind == Kind::Umpire && file.next_state_digest != file.prior_state_digest {
        problems.push("an umpire call changed the game state".to_string());
    }
    Ok(ArchivedStates {
        prior_bytes,
        prior_digest,
        next_bytes,
    })
}

/// The beacon round the manifest named: its signature checked against the
/// network the genesis committed to; its randomness is the seed's last 32
/// bytes. A round the game master waived takes none, and must be an act of
/// the record.
fn drawn_round(
    head: &CampaignFile,
    file: &ResolutionFile,
    problems: &mut Vec<String>,
) -> Option<Digest32> {
    let kind = file.kind;
    // AUDIT.md section 11.6: an umpire call takes no round; its seed's
    // beacon field is 32 zero bytes, whatever its resolution.json says.
    if kind == Kind::Umpire && file.beacon.is_some() {
        problems.push(
            "an umpire call takes no drand round (its seed's beacon field is 32 zero bytes), this one names one"
                .into(),
        );
    }
    let drawn = match (&file.beacon, &head.drand) {
        (None, _) => None,
        (Some(_), _) if kind == Kind::Umpire => None,
        (Some(b), _) if b.signature == crate::store::BEACON_WAIVED => None,
        (Some(_), None) => {
            problems
                .push("resolution.json names a drand round, campaign.json no drand network".into());
            None
        }
        (Some(b), Some(info)) => {
            let checked = crate::beacon::Network::from_info_json(info.as_bytes()).and_then(|net| {
                let signed = crate::beacon::SignedRound::from_hex(b.round, &b.signature)?;
                crate::beacon::verify(&net, &signed)
            });
            match checked {
                Ok(randomness) => Some(Digest32(*randomness.as_bytes())),
                Err(e) => {
                    problems.push(format!("drand round {}: {e}", b.round));
                    None
                }
            }
        }
    };
    if file.beacon.is_none() && head.drand.is_some() && kind == Kind::Turn {
        problems
            .push("the campaign takes a drand round for every turn; this one names none".into());
    }
    drawn
}

/// What re-running one resolution through the rules needs besides its
/// states.
struct Rerun<'a> {
    head: &'a CampaignFile,
    ruleset: &'static dyn Ruleset,
    file: &'a ResolutionFile,
    secret: Digest32,
    manifest_digest: Digest32,
    drawn: Option<Digest32>,
    orders: &'a BTreeMap<String, String>,
}

impl Rerun<'_> {
    /// Re-runs the resolution and compares its phase, logs and next state
    /// with the archive's.
    fn check(
        &self,
        states: &ArchivedStates,
        logs: Option<&(String, String)>,
        problems: &mut Vec<String>,
    ) {
        let (head, file) = (self.head, self.file);
        let prior: GameState = match serde_json::from_slice(&states.prior_bytes) {
            Ok(s) => s,
            Err(e) => {
                problems.push(format!("prior-state.json is not a game state: {e}"));
                return;
            }
        };
        let expected_phase = match file.kind {
            Kind::Turn => resolution::phase_label(self.ruleset, &prior),
            Kind::Umpire => "umpire".to_string(),
        };
        if file.phase != expected_phase {
            problems.push(format!(
                "the phase is `{}`, but the prior state is in `{expected_phase}`",
                file.phase
            ));
        }
        let run = resolution::run(&Inputs {
            drawn: self.drawn,
            prior: &resolution::Prior::new(self.ruleset, &prior),
            kind: file.kind,
            campaign: &head.campaign,
            k: file.k,
            secret: self.secret,
            manifest_digest: self.manifest_digest,
            prior_state_digest: states.prior_digest,
            beacon: head.beacon.as_deref(),
            policy: head.no_orders_policy,
            orders: self.orders,
        });
        let out = match run {
            Err(e) => {
                problems.push(format!("re-running it fails: {e}"));
                return;
            }
            Ok(out) => out,
        };
        if let Some((rolls_text, events_text)) = logs {
            let rolls = joined_lines(&out.rolls);
            if rolls != *rolls_text {
                problems.push(first_difference("rolls.jsonl", &rolls, rolls_text));
            }
            let events = joined_lines(&out.events);
            if events != *events_text {
                problems.push(first_difference("events.jsonl", &events, events_text));
            }
        }
        if out.next_state_json.as_bytes() != states.next_bytes.as_slice() {
            problems.push(format!(
                "re-running it gives the next state {}, next-state.json is {}",
                canonical::digest(&out.next_state),
                Digest32::of(&states.next_bytes)
            ));
        }
    }
}

/// Spec v3: `submissions.txt` lists, for each side with orders in the
/// manifest, those orders as its last accepted submission, and accepts no
/// orders the manifest leaves out.
fn check_submissions(rdir: &Path, orders: &BTreeMap<String, String>, problems: &mut Vec<String>) {
    let text = match fs::read_to_string(rdir.join("submissions.txt")) {
        Ok(t) => t,
        Err(e) => {
            problems.push(format!("cannot read submissions.txt: {e}"));
            return;
        }
    };
    let lines = match verify_links::parse_submissions(&text) {
        Ok(l) => l,
        Err(e) => {
            problems.push(e);
            return;
        }
    };
    let mut accepted: BTreeMap<&str, Digest32> = BTreeMap::new();
    for line in lines.iter().filter(|l| l.status == "accepted") {
        accepted.insert(&line.side, line.digest);
    }
    let in_manifest: BTreeMap<&str, Digest32> = orders
        .iter()
        .map(|(side, text)| (side.as_str(), Digest32::of(text.as_bytes())))
        .collect();
    if accepted != in_manifest {
        problems.push(
            "the accepted submissions in submissions.txt are not the orders in the manifest"
                .to_string(),
        );
    }
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

/// Checks the manifest: it must be exactly the manifest its fields make
/// (any other spelling would be another seed), list the sides it must, and
/// match each orders file. Returns the orders.
fn check_manifest(
    manifest: &str,
    head: &CampaignFile,
    file: &ResolutionFile,
    orders_dir: &Path,
    problems: &mut Vec<String>,
) -> Result<BTreeMap<String, String>, ArchiveError> {
    let mut sides = Vec::new();
    let mut orders = BTreeMap::new();
    // The header, campaign, number and phase lines; and the beacon round's
    // line where there is one (checked with the whole text below).
    let fixed = if file.beacon.is_some() { 5 } else { 4 };
    for line in manifest.lines().skip(fixed) {
        let parts: Vec<&str> = line.split(' ').collect();
        let ["orders", side, digest] = parts.as_slice() else {
            problems.push(format!(
                "manifest line `{line}` is not `orders <side> <digest>`"
            ));
            continue;
        };
        if !valid_side(side) {
            problems.push(format!(
                "manifest names the side `{side}`, which is not a side id"
            ));
            continue;
        }
        let digest = match *digest {
            "none" => None,
            hex => Some(digest_field(hex, "manifest digest", problems)),
        };
        sides.push(SideOrders {
            side: side.to_string(),
            digest,
        });
    }
    let rebuilt = Manifest {
        beacon_round: file.beacon.as_ref().map(|b| b.round),
        kind: file.kind,
        campaign: head.campaign.clone(),
        resolution: file.k,
        phase: file.phase.clone(),
        sides: sides.clone(),
    };
    if rebuilt.text() != manifest {
        problems.push(format!(
            "manifest.txt is not the canonical manifest of {} {} (header {MANIFEST_HEADER}, campaign, number, phase, sorted orders lines, each ending in LF)",
            file.kind, file.k
        ));
    }
    let listed: Vec<String> = sides.iter().map(|s| s.side.clone()).collect();
    let expected: Vec<String> = match file.kind {
        Kind::Turn => head.sides.clone(),
        Kind::Umpire => vec![UMPIRE.to_string()],
    };
    if listed != expected {
        problems.push(format!(
            "the manifest lists {listed:?}; it must list {expected:?}"
        ));
    }
    for entry in &sides {
        let path = orders_dir.join(format!("{}.txt", entry.side));
        match entry.digest {
            None => {
                if path.exists() {
                    problems.push(format!(
                        "{} sent no orders, yet orders/{}.txt exists",
                        entry.side, entry.side
                    ));
                }
            }
            Some(digest) => {
                let text = read(&path)?;
                // AUDIT.md section 2: a side that sent orders sent at least
                // one line; an empty file would stand for orders never given.
                if text.is_empty() {
                    problems.push(format!(
                        "orders/{}.txt is empty; a side with no orders is `none` in the manifest",
                        entry.side
                    ));
                }
                if Digest32::of(&text) != digest {
                    problems.push(format!(
                        "orders/{}.txt hashes to {}, the manifest says {digest}",
                        entry.side,
                        Digest32::of(&text)
                    ));
                }
                orders.insert(
                    entry.side.clone(),
                    String::from_utf8_lossy(&text).into_owned(),
                );
            }
        }
    }
    if let Ok(entries) = fs::read_dir(orders_dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let side = name.strip_suffix(".txt").unwrap_or(&name);
            if !listed.iter().any(|l| l == side) {
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
