//! The game master's commands, shared by the mail edge and the CLI: one
//! syntax (`docs/GM-COMMANDS.md`), one place that carries them out.
//!
//! Every command is logged in the store, done or refused. Every command
//! that changes something is announced to everyone in the campaign, with a
//! Message-ID made from the command's number, in the same transaction as
//! the change. A correction and a rollback change the game state outside a
//! resolution: they are recorded as acts that the archive exports and
//! `verify` checks (docs/AUDIT.md, section 10), and they set aside the
//! orders sent for the open phase.

use chrono::{DateTime, Duration, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;
use serde_json::json;
use std::fmt;

use super::{EngineError, mail, ruleset_of};
use crate::audit::{Digest32, Kind};
use crate::campaign::{Auth, Campaign, passphrase};
use crate::lifecycle::duration::{self, DurationError};
use crate::lifecycle::{self, Clock};
use crate::resolution;
use crate::rules::correction::{Correction, CorrectionSyntaxError};
use crate::rules::{GameState, Ruleset};
use crate::store::{ActKind, CampaignRecord, GmChange, GmEntry, OutgoingMail, Store, StoreError};
use crate::templates::Templates;

/// A GM command, read but not yet carried out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GmCommand {
    /// Where the campaign stands; nothing changes.
    Status,
    /// What the open phase would come to with the orders in now, with
    /// placeholder dice; nothing changes.
    Preview,
    /// Move the current phase's deadline.
    Extend(Extension),
    /// Close and resolve the current phase now.
    ResolveNow,
    Pause,
    Resume,
    /// A new person plays a side.
    Replace {
        /// A side id, or the replaced player's address when a side has
        /// several players.
        who: String,
        address: String,
        secret: Secret,
    },
    /// A unit corrected, with the game master's reason if given
    /// (`... because <reason>`).
    Correct(Correction, Option<String>),
    /// A change to the registered campaign: a player's address or time
    /// zone, the campaign's time zone, the deadline time, a phase's length.
    Change(Change),
    /// Undo the last turn resolution.
    Rollback,
    /// Resolve the turn that waits for its beacon round without it.
    WithoutBeacon,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extension {
    /// Later by this much.
    By(Duration),
    /// To this time.
    To(DateTime<Utc>),
}

/// What a `change` command changes in the registered campaign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A player's address, by side or by the old address; the player keeps
    /// the passphrase.
    Address { who: String, address: String },
    /// A person's time zone (a side, a player's address or `gm`), or the
    /// campaign's own (`campaign`), in which deadlines fall.
    TimeZone { who: String, zone: String },
    /// The time of day deadlines are moved to, or none.
    DeadlineTime(Option<String>),
    /// How long a phase of the ruleset lasts.
    Phase { phase: String, minutes: u32 },
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Address { who, address } => write!(f, "change address {who} {address}"),
            Change::TimeZone { who, zone } => write!(f, "change time-zone {who} {zone}"),
            Change::DeadlineTime(Some(t)) => write!(f, "change deadline-time {t}"),
            Change::DeadlineTime(None) => write!(f, "change deadline-time none"),
            Change::Phase { phase, minutes } => {
                write!(f, "change phase {phase} {}", duration::text(*minutes))
            }
        }
    }
}

const CHANGE_USAGE: &str = "change address <side> <new address>, change time-zone <side, address, gm or campaign> <zone>, change deadline-time <HH:MM or none>, or change phase <phase> <duration>";

impl Change {
    /// Reads the words after `change`; `rest` as written, `lower` the same
    /// lower-cased (a time zone keeps its capitals).
    fn parse(rest: &[&str], lower: &[&str]) -> Result<Change, GmSyntaxError> {
        // "time zone" and "deadline time" may be written as two words.
        let (what, at) = match lower {
            ["time", "zone", ..] | ["deadline", "time", ..] => {
                (format!("{}-{}", lower[0], lower[1]), 2)
            }
            [w, ..] => ((*w).to_string(), 1),
            [] => return Err(GmSyntaxError::Usage(CHANGE_USAGE)),
        };
        let (rest, lower) = (&rest[at..], &lower[at..]);
        match (what.as_str(), lower) {
            ("address", [who, address]) => Ok(Change::Address {
                who: (*who).to_string(),
                address: (*address).to_string(),
            }),
            ("time-zone" | "zone", [who, _]) => Ok(Change::TimeZone {
                who: (*who).to_string(),
                zone: rest[1].to_string(),
            }),
            ("deadline-time", ["none"]) => Ok(Change::DeadlineTime(None)),
            ("deadline-time", [t]) => Ok(Change::DeadlineTime(Some((*t).to_string()))),
            ("phase", [phase, d]) => {
                let minutes = match duration::parse(d) {
                    Ok(0) | Err(DurationError::NotADuration(_)) => {
                        return Err(GmSyntaxError::Duration((*d).to_string()));
                    }
                    Err(DurationError::TooLong(_)) => {
                        return Err(GmSyntaxError::TooLong((*d).to_string()));
                    }
                    Ok(m) => m,
                };
                Ok(Change::Phase {
                    phase: (*phase).to_string(),
                    minutes,
                })
            }
            _ => Err(GmSyntaxError::Usage(CHANGE_USAGE)),
        }
    }
}

/// The new player's credential.
#[derive(Clone, PartialEq, Eq)]
pub enum Secret {
    /// A passphrase, hashed when the command is carried out and never stored.
    Passphrase(String),
    /// An argon2 PHC hash made with `adjutant passphrase`.
    Hash(String),
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A passphrase must not reach a log through a debug print.
        match self {
            Secret::Passphrase(_) => f.write_str("Passphrase(..)"),
            Secret::Hash(h) => write!(f, "Hash({h})"),
        }
    }
}

/// Why a command's text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GmSyntaxError {
    #[error("an empty command")]
    Empty,
    #[error(
        "`{0}` is not a command (status, preview, extend, resolve, pause, resume, replace, change, correct, rollback)"
    )]
    Unknown(String),
    #[error("`{0}` is not a duration such as 24h, 2d, 90m or 1d12h")]
    Duration(String),
    #[error(
        "`{0}` is longer than {longest}: a deadline may be moved at most that far ahead",
        longest = duration::text(duration::LONGEST_WAIT_MINUTES)
    )]
    TooLong(String),
    #[error(
        "`{0}` is not a time such as 2026-11-25T18:00:00Z or 2026-11-25 18:00 (the campaign's time zone)"
    )]
    Time(String),
    #[error("{0}")]
    Usage(&'static str),
    #[error("correct: {0}")]
    Correction(#[from] CorrectionSyntaxError),
}

/// An extension's length: the campaign files' grammar and bound
/// (`lifecycle::duration`), and more than nothing.
fn parse_duration(word: &str) -> Result<Duration, GmSyntaxError> {
    match duration::parse(word) {
        Ok(0) | Err(DurationError::NotADuration(_)) => Err(GmSyntaxError::Duration(word.into())),
        Ok(minutes) => Ok(Duration::minutes(i64::from(minutes))),
        Err(DurationError::TooLong(_)) => Err(GmSyntaxError::TooLong(word.into())),
    }
}

/// A duration as the log shows it, in the grammar the command reads.
fn show_duration(d: Duration) -> String {
    let minutes = u32::try_from(d.num_minutes().max(0)).unwrap_or(u32::MAX);
    duration::text(minutes)
}

fn parse_time(text: &str, zone: &str) -> Option<DateTime<Utc>> {
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Some(t.with_timezone(&Utc));
    }
    let naive = NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").ok()?;
    let tz: Tz = zone.parse().ok()?;
    tz.from_local_datetime(&naive)
        .earliest()
        .map(|t| t.with_timezone(&Utc))
}

/// A plain address `local@domain.tld`: no display name, no brackets, no
/// spaces, one `@`, a dot in the domain.
fn valid_address(a: &str) -> bool {
    let Some((local, domain)) = a.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !a
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "<>,;\"()[]\\".contains(c))
}

impl GmCommand {
    /// Reads one command. Words are not case-sensitive, but a passphrase is
    /// kept exactly as written. `zone` is the campaign's time zone, for a
    /// time written without one.
    pub fn parse(text: &str, zone: &str) -> Result<GmCommand, GmSyntaxError> {
        let text = text.trim();
        let mut words = text.split_whitespace();
        let verb = words.next().ok_or(GmSyntaxError::Empty)?.to_lowercase();
        let rest: Vec<&str> = words.collect();
        let lower: Vec<String> = rest.iter().map(|w| w.to_lowercase()).collect();
        let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
        let bare = |cmd: GmCommand| {
            if rest.is_empty() {
                Ok(cmd)
            } else {
                Err(GmSyntaxError::Usage("this command takes no words after it"))
            }
        };
        match (verb.as_str(), lower.as_slice()) {
            ("status", _) => bare(GmCommand::Status),
            ("preview", _) => bare(GmCommand::Preview),
            ("pause", _) => bare(GmCommand::Pause),
            ("resume", _) => bare(GmCommand::Resume),
            ("rollback", _) => bare(GmCommand::Rollback),
            ("roll", ["back"]) => Ok(GmCommand::Rollback),
            ("resolve", [] | ["now"]) => Ok(GmCommand::ResolveNow),
            ("without", ["beacon"]) => Ok(GmCommand::WithoutBeacon),
            ("extend", ["to", ..]) | ("deadline", _) => {
                let skip = usize::from(verb == "extend");
                let when = rest[skip..].join(" ");
                parse_time(&when, zone)
                    .map(|t| GmCommand::Extend(Extension::To(t)))
                    .ok_or(GmSyntaxError::Time(when))
            }
            ("extend", ["by", d] | [d]) => {
                parse_duration(d).map(|d| GmCommand::Extend(Extension::By(d)))
            }
            ("extend", _) => Err(GmSyntaxError::Usage(
                "extend 24h (or 2d, 90m, 1d12h), or extend to 2026-11-25 18:00",
            )),
            ("replace", [_, _, "passphrase", _, ..]) => Ok(GmCommand::Replace {
                who: lower[0].to_string(),
                address: lower[1].to_string(),
                secret: Secret::Passphrase(rest[3..].join(" ")),
            }),
            ("replace", [_, _, "hash", _]) => Ok(GmCommand::Replace {
                who: lower[0].to_string(),
                address: lower[1].to_string(),
                secret: Secret::Hash(rest[3].to_string()),
            }),
            ("replace", _) => Err(GmSyntaxError::Usage(
                "replace <side> <new address> passphrase <their passphrase> (or hash <argon2 hash>)",
            )),
            ("correct", _) => {
                // "... because <reason>": the rest of the line is the game
                // master's reason, kept as written.
                let because = lower.iter().position(|w| *w == "because");
                let (fields, reason) = match because {
                    Some(i) => {
                        let reason = rest[i + 1..].join(" ");
                        if reason.is_empty() {
                            return Err(GmSyntaxError::Usage(
                                "correct <unit> <field> <value> ... because <your reason>",
                            ));
                        }
                        (&rest[..i], Some(reason))
                    }
                    None => (&rest[..], None),
                };
                Ok(GmCommand::Correct(
                    Correction::parse(&fields.join(" "))?,
                    reason,
                ))
            }
            ("change", _) => Change::parse(&rest, &lower).map(GmCommand::Change),
            (other, _) => Err(GmSyntaxError::Unknown(other.to_string())),
        }
    }

    /// The command as the log and the announcements show it: a passphrase
    /// or hash is never part of it.
    pub fn canonical(&self) -> String {
        match self {
            GmCommand::Status => "status".into(),
            GmCommand::Preview => "preview".into(),
            GmCommand::Extend(Extension::By(d)) => format!("extend {}", show_duration(*d)),
            GmCommand::Extend(Extension::To(t)) => format!(
                "extend to {}",
                t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
            ),
            GmCommand::ResolveNow => "resolve now".into(),
            GmCommand::Pause => "pause".into(),
            GmCommand::Resume => "resume".into(),
            GmCommand::Replace { who, address, .. } => format!("replace {who} {address}"),
            GmCommand::Correct(c, _) => c.to_string(),
            GmCommand::Change(c) => c.to_string(),
            GmCommand::Rollback => "rollback".into(),
            GmCommand::WithoutBeacon => "without beacon".into(),
        }
    }
}

/// Where a command came from.
#[derive(Debug, Clone)]
pub struct Origin {
    /// `cli` or `mail`.
    pub source: String,
    /// For a command in a message: the message's digest and the line, so
    /// that a message handled again after a crash does not act twice.
    pub key: Option<String>,
    /// Who asked, as the archive records it: `gm <address>` for a command
    /// by mail, `operator <user>` at the command line.
    pub by: String,
}

impl Origin {
    pub fn cli() -> Origin {
        Origin {
            source: "cli".into(),
            key: None,
            by: operator(),
        }
    }
}

/// The operator at the command line, by the name the environment gives
/// (a shell's `USER` or `LOGNAME`), else by user id.
pub fn operator() -> String {
    let name = ["USER", "LOGNAME"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_graphic()));
    match name {
        Some(n) => format!("operator {n}"),
        // The owner of this process's own /proc entry is its user.
        None => match std::fs::metadata("/proc/self") {
            Ok(m) => format!("operator uid {}", std::os::unix::fs::MetadataExt::uid(&m)),
            Err(_) => "operator (unknown)".to_string(),
        },
    }
}

/// What became of a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GmReport {
    /// Its number in the campaign's GM log (the earlier number for a command
    /// already handled).
    pub n: Option<u64>,
    pub command: String,
    pub done: bool,
    /// What was done, or why not.
    pub outcome: String,
}

/// What a command will do, decided before anything is written.
struct Plan {
    outcome: String,
    change: GmChange,
    /// The announcement's words ("moved the deadline ..."), if any.
    announce: Option<String>,
    /// Extra mail (to a replaced player).
    extra: Vec<(String, String, String)>,
    /// After recording: resolve the phase now.
    resolve: bool,
    /// The unit the announcement names, if any: a player whose side cannot
    /// see it is told only that a unit out of its sight was changed
    /// (docs/RULINGS.md REP-1).
    names_unit: Option<String>,
    /// What the act's `reason` records: for `without beacon`, the round,
    /// its time, and adjutant's attempts to have it.
    act_reason: Option<String>,
}

/// A command's plan, or why it is refused (the outer error is the store's
/// or the engine's, not the GM's).
type Planned = Result<Result<Plan, String>, EngineError>;

fn refuse(why: impl Into<String>) -> Planned {
    Ok(Err(why.into()))
}

/// A plan that changes one thing and announces it.
fn simple(outcome: String, change: GmChange, announce: String) -> Planned {
    Ok(Ok(Plan {
        outcome,
        change,
        announce: Some(announce),
        extra: Vec::new(),
        resolve: false,
        names_unit: None,
        act_reason: None,
    }))
}

/// Where the campaign stands when a command is planned.
struct Standing<'a> {
    store: &'a Store,
    record: &'a CampaignRecord,
    ruleset: &'static dyn Ruleset,
    state: GameState,
    /// A phase closed but not yet resolved.
    pending: bool,
    now: DateTime<Utc>,
}

impl Standing<'_> {
    /// How the game ended, as the GM is told it; `None` while it goes on.
    /// A finished state that does not read is still over: it is said in
    /// the words the state holds, and the act is refused all the same.
    fn ending(&self) -> Option<String> {
        crate::report::outcome::ending_of(&self.record.campaign, self.ruleset, &self.state)
            .unwrap_or_else(|_| self.state.finished.clone())
    }
}

fn utc(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Carries out `command` on campaign `campaign_id`: logs it, makes its
/// change and announces it. A refusal is a report with `done: false`, not
/// an error; an error is our own failure (the store), and nothing was done.
pub fn execute(
    store: &mut Store,
    campaign_id: &str,
    command: &GmCommand,
    origin: &Origin,
    clock: &dyn Clock,
) -> Result<GmReport, EngineError> {
    let canonical = command.canonical();
    if let Some(key) = &origin.key
        && let Some(outcome) = store.gm_outcome(key)?
    {
        return Ok(GmReport {
            n: None,
            command: canonical,
            done: true,
            outcome: format!("(already handled) {outcome}"),
        });
    }
    let now = clock.now();
    let n = store.next_gm_n(campaign_id)?;
    let plan = plan(store, campaign_id, command, now)?;
    let (done, outcome) = match &plan {
        Ok(p) => (true, p.outcome.clone()),
        Err(why) => (false, why.clone()),
    };
    let mut entry = GmEntry {
        n,
        at: now,
        source: origin.source.clone(),
        origin: origin.key.clone(),
        command: canonical.clone(),
        done,
        outcome: outcome.clone(),
    };
    let Ok(plan) = plan else {
        store.record_gm(campaign_id, &entry, &GmChange::Nothing, None, &[])?;
        return Ok(GmReport {
            n: Some(n),
            command: canonical,
            done,
            outcome,
        });
    };
    let sealed = seal(
        store,
        campaign_id,
        command,
        &canonical,
        origin,
        now,
        &plan.change,
        plan.act_reason.as_deref(),
    )?;
    // The act's one number, which the reply, the announcement, the archive
    // and the chronicle all give.
    let act = act_number(store, campaign_id, sealed.as_ref(), &plan.change)?;
    let mut outcome = match act {
        Some(act) => format!("{outcome} (act {act})"),
        None => outcome,
    };
    entry.outcome = outcome.clone();
    let mail = announcement(store, campaign_id, n, act, &plan, sealed.as_ref())?;
    store.record_gm(campaign_id, &entry, &plan.change, sealed.as_ref(), &mail)?;
    crate::failpoint::hit("gm:logged");
    if plan.resolve {
        // Logged first, then resolved: a crash between the two leaves the
        // phase to its deadline, never resolves two phases for one command.
        match super::resolve_now(store, campaign_id, clock) {
            Ok(done) => {
                for r in done {
                    outcome.push_str(&format!(
                        "\nresolution {}: {} ({} rolls)",
                        r.k, r.phase_label, r.rolls
                    ));
                }
            }
            Err(e @ EngineError::Store(_)) => return Err(e),
            Err(e) => outcome.push_str(&format!("\nbut the resolution failed: {e}")),
        }
    }
    Ok(GmReport {
        n: Some(n),
        command: canonical,
        done,
        outcome,
    })
}

/// The record's entry for a command carried out (spec v3; `None` for a
/// campaign that keeps no record, and for `status`, which changes nothing).
#[allow(clippy::too_many_arguments)]
fn seal(
    store: &Store,
    campaign_id: &str,
    command: &GmCommand,
    canonical: &str,
    origin: &Origin,
    now: DateTime<Utc>,
    change: &GmChange,
    reason: Option<&str>,
) -> Result<Option<crate::archive::ledger::Sealed>, EngineError> {
    let kind = match command {
        GmCommand::Status | GmCommand::Preview => return Ok(None),
        GmCommand::Extend(_) => "extend",
        GmCommand::ResolveNow => "resolve-now",
        GmCommand::Pause => "pause",
        GmCommand::Resume => "resume",
        GmCommand::Replace { .. } => "replace",
        GmCommand::Correct(..) => "correction",
        GmCommand::Change(_) => "change",
        GmCommand::Rollback => "rollback",
        GmCommand::WithoutBeacon => "without-beacon",
    };
    let record = store.campaign(campaign_id)?;
    let (states, undoes_turn) = match change {
        GmChange::State {
            prior,
            next,
            undoes_turn,
            ..
        } => (
            Some((
                store.state_json(prior)?,
                crate::canonical::to_string(next.as_ref()),
            )),
            *undoes_turn,
        ),
        _ => (None, None),
    };
    super::record::seal_act(
        store,
        &record,
        &super::record::ActFacts {
            kind,
            command: canonical,
            at: now,
            by: &origin.by,
            reason,
            orders_digest: None,
            undoes_turn,
            states: states.as_ref().map(|(p, n)| (p.as_str(), n.as_str())),
        },
    )
}

fn plan(store: &Store, campaign_id: &str, command: &GmCommand, now: DateTime<Utc>) -> Planned {
    let record = store.campaign(campaign_id)?;
    let at = Standing {
        store,
        ruleset: ruleset_of(&record.campaign)?,
        state: store.state(&record.current_state_digest)?,
        pending: !store.pending_resolutions(campaign_id)?.is_empty(),
        record: &record,
        now,
    };
    match command {
        GmCommand::Status => Ok(Ok(Plan {
            outcome: super::status::describe(store, campaign_id, now)?,
            change: GmChange::Nothing,
            announce: None,
            extra: Vec::new(),
            resolve: false,
            names_unit: None,
            act_reason: None,
        })),
        GmCommand::Preview => Ok(Ok(Plan {
            outcome: super::preview::describe(store, campaign_id)?,
            change: GmChange::Nothing,
            announce: None,
            extra: Vec::new(),
            resolve: false,
            names_unit: None,
            act_reason: None,
        })),
        GmCommand::Extend(how) => plan_extend(&at, how),
        GmCommand::Pause => plan_pause(&at),
        GmCommand::Resume => plan_resume(&at),
        GmCommand::ResolveNow => plan_resolve_now(&at),
        GmCommand::WithoutBeacon => plan_without_beacon(&at),
        GmCommand::Replace {
            who,
            address,
            secret,
        } => plan_replace(&record.campaign, who, address, secret),
        GmCommand::Correct(correction, reason) => {
            let mut planned = plan_correct(&at, correction)?;
            if let (Ok(plan), Some(reason)) = (&mut planned, reason) {
                // The reason goes with the correction to everyone told of
                // it, and into the act's record.
                plan.outcome.push_str(&format!(", because {reason}"));
                if let Some(announce) = &mut plan.announce {
                    announce.push_str(&format!(", because {reason}"));
                }
                plan.act_reason = Some(reason.clone());
            }
            Ok(planned)
        }
        GmCommand::Change(change) => plan_change(&record.campaign, change),
        GmCommand::Rollback => plan_rollback(&at),
    }
}

fn plan_extend(at: &Standing, how: &Extension) -> Planned {
    if let Some(why) = at.ending() {
        return refuse(format!("the game is over ({why}); there is no deadline"));
    }
    // A deadline lies at most the longest wait ahead of now, so that no
    // run of extensions can carry it out of the store's calendar.
    let furthest = at.now + duration::longest_wait();
    let deadline = match how {
        Extension::By(d) => at.record.deadline.checked_add_signed(*d),
        Extension::To(t) => Some(*t),
    };
    let Some(deadline) = deadline.filter(|d| *d <= furthest) else {
        return refuse(format!(
            "a deadline may be at most {} ahead of now: {} at the latest (it is {})",
            duration::text(duration::LONGEST_WAIT_MINUTES),
            utc(furthest),
            utc(at.record.deadline)
        ));
    };
    if deadline <= at.now {
        return refuse(format!(
            "{} has already passed; give a later time",
            utc(deadline)
        ));
    }
    simple(
        format!(
            "the deadline is now {} (it was {})",
            utc(deadline),
            utc(at.record.deadline)
        ),
        GmChange::Deadline(deadline),
        "moved the deadline of the current phase".into(),
    )
}

fn plan_pause(at: &Standing) -> Planned {
    if at.record.paused {
        return refuse("the campaign is already paused");
    }
    if let Some(why) = at.ending() {
        return refuse(format!("the game is over ({why})"));
    }
    simple(
        "paused: no phase closes, no reminder is sent and no orders are taken until `resume`".into(),
        GmChange::Pause,
        "paused the campaign: no phase closes, no reminder is sent and no orders are taken until it resumes; the deadline will be pushed back by the time spent paused".into(),
    )
}

fn plan_resume(at: &Standing) -> Planned {
    if !at.record.paused {
        return refuse("the campaign is not paused");
    }
    // The deadline moves on by the time spent paused, so that the players
    // lose none of the time they had left.
    let paused_for = at
        .store
        .paused_since(&at.record.campaign.id)?
        .map_or(Duration::zero(), |since| {
            (at.now - since).max(Duration::zero())
        });
    let deadline = at.record.deadline + paused_for;
    simple(
        format!(
            "resumed after {}; the deadline is now {}",
            show_duration(paused_for),
            utc(deadline)
        ),
        GmChange::Resume { deadline },
        format!(
            "resumed the campaign after a pause of {}; the deadline moved on by as much",
            show_duration(paused_for)
        ),
    )
}

/// The turn closed and waiting for its drand round is resolved without it:
/// the game master's own act, which every report of the turn shows, since
/// without the round the game master holds every input of its dice.
fn plan_without_beacon(at: &Standing) -> Planned {
    let id = &at.record.campaign.id;
    let waiting = at
        .store
        .pending_resolutions(id)?
        .into_iter()
        .find(|r| r.beacon_round.is_some() && !r.beacon_waived);
    let Some(closed) = waiting else {
        return refuse("no resolution waits for its beacon round");
    };
    let round = closed.beacon_round.unwrap_or_default();
    let Some(drand) = &at.record.campaign.drand else {
        return refuse("the campaign takes no drand beacon");
    };
    let reason = match super::beacon::may_waive(at.store, at.record, &closed, drand, at.now)? {
        Ok(reason) => reason,
        Err(why) => return refuse(why),
    };
    Ok(Ok(Plan {
        outcome: format!(
            "resolving resolution {} without drand round {round}: {reason}",
            closed.k
        ),
        change: GmChange::WaiveBeacon {
            kind: closed.kind,
            k: closed.k,
        },
        announce: Some(format!(
            "resolved resolution {} ({}) without the drand round {round} its manifest named; its report says so, and that without the round the game master held every input of its dice. {reason}",
            closed.k, closed.phase_label
        )),
        extra: Vec::new(),
        resolve: true,
        names_unit: None,
        act_reason: Some(reason),
    }))
}

fn plan_resolve_now(at: &Standing) -> Planned {
    let record = at.record;
    if record.paused {
        return refuse("the campaign is paused; `resume` it first");
    }
    if let Some(why) = at.ending() {
        return refuse(format!("the game is over ({why})"));
    }
    let k = at.store.next_k(&record.campaign.id, Kind::Turn)?;
    if !at.pending && k > u64::from(record.chain.length()) {
        return refuse(format!(
            "the campaign has used all {} secrets of its chain",
            record.chain.length()
        ));
    }
    let label = resolution::phase_label(at.ruleset, &at.state);
    Ok(Ok(Plan {
        outcome: format!("closing and resolving {label} now"),
        change: GmChange::Nothing,
        announce: Some(format!(
            "closed {label} before its deadline, to be resolved now with whatever orders are in"
        )),
        extra: Vec::new(),
        resolve: true,
        names_unit: None,
        act_reason: None,
    }))
}

fn plan_correct(at: &Standing, correction: &Correction) -> Planned {
    if at.pending {
        return refuse(
            "a closed phase awaits its resolution; let it resolve (`adjutant tick`) first",
        );
    }
    if let Some(why) = at.ending() {
        return refuse(format!("the game is over ({why})"));
    }
    let next = match at.ruleset.correct(&at.state, correction) {
        Ok(next) => next,
        Err(e) => return refuse(e.to_string()),
    };
    if next == at.state {
        return refuse("that changes nothing");
    }
    let id = &at.record.campaign.id;
    let after_turn = at.store.next_k(id, Kind::Turn)? - 1;
    let planned = simple(
        format!("corrected: {correction}"),
        GmChange::State {
            kind: ActKind::Correction,
            after_turn,
            undoes_turn: None,
            prior: at.record.current_state_digest,
            next: Box::new(next),
            phase: None,
        },
        format!("corrected a unit: `{correction}`"),
    );
    planned.map(|p| {
        p.map(|p| Plan {
            names_unit: Some(correction.unit.clone()),
            act_reason: None,
            ..p
        })
    })
}

fn plan_rollback(at: &Standing) -> Planned {
    if at.pending {
        return refuse(
            "a closed phase awaits its resolution; let it resolve (`adjutant tick`) first",
        );
    }
    let (store, id) = (at.store, &at.record.campaign.id);
    let last = store.next_k(id, Kind::Turn)? - 1;
    if last == 0 {
        return refuse("no turn has been resolved yet");
    }
    let acts = store.gm_acts(id)?;
    if acts.iter().any(|a| a.undoes_turn == Some(last)) {
        return refuse(format!(
            "resolution {last} is already rolled back; only the last resolution can be, once"
        ));
    }
    let Some(undone) = store
        .resolutions(id)?
        .into_iter()
        .find(|r| r.kind == Kind::Turn && r.k == last)
    else {
        return Err(StoreError::Damaged(format!("turn resolution {last} is missing")).into());
    };
    let restored = store.state(&undone.prior_state_digest)?;
    let phase = at.ruleset.phase_of(&restored).name;
    let deadline = lifecycle::deadline(&at.record.campaign.schedule, phase, at.now)?;
    let label = resolution::phase_label(at.ruleset, &restored);
    simple(
        format!(
            "rolled back resolution {last} ({}); the game is back at {label}, deadline {}",
            undone.phase_label,
            utc(deadline),
        ),
        GmChange::State {
            kind: ActKind::Rollback,
            after_turn: last,
            undoes_turn: Some(last),
            prior: at.record.current_state_digest,
            next: Box::new(restored),
            phase: Some((at.now, deadline)),
        },
        format!(
            "rolled back resolution {last} ({}). Its dice stay in the archive, marked as rolled back; the phase will be resolved again as resolution {} with the next secret of the chain, never with the secret already revealed",
            undone.phase_label,
            last + 1
        ),
    )
}

fn plan_replace(
    campaign: &Campaign,
    who: &str,
    address: &str,
    secret: &Secret,
) -> Result<Result<Plan, String>, EngineError> {
    let index = match player_index(campaign, who) {
        Ok(i) => i,
        Err(why) => return refuse(why),
    };
    if let Err(why) = address_free(campaign, index, address) {
        return refuse(why);
    }
    let hash = match secret {
        Secret::Hash(h) if passphrase::is_phc(h) => h.clone(),
        Secret::Hash(_) => {
            return refuse("that is not an argon2 hash (make one with `adjutant passphrase`)");
        }
        Secret::Passphrase(p) if p.trim().is_empty() => {
            return refuse("an empty passphrase protects nothing");
        }
        Secret::Passphrase(p) => match passphrase::hash(p) {
            Ok(h) => h,
            Err(e) => return refuse(format!("the passphrase could not be hashed: {e}")),
        },
    };
    let mut updated = campaign.clone();
    let player = &mut updated.players[index];
    let old = player.person.address.clone();
    let side = player.side.clone();
    player.person.address = address.to_string();
    player.person.auth = match &player.person.auth {
        Auth::Passphrase { .. } => Auth::Passphrase { hash },
        Auth::PassphraseAndDkim { .. } => Auth::PassphraseAndDkim { hash },
    };
    Ok(Ok(Plan {
        outcome: format!("{address} now plays {side} in place of {old}"),
        change: GmChange::Campaign(Box::new(updated)),
        announce: Some(format!(
            "handed side {side} to a new player, {address}, in place of {old}"
        )),
        extra: vec![(
            old,
            "you no longer play in this campaign".into(),
            format!(
                "The game master has handed side {side} to another player. Mail from your address is no longer taken as orders for it."
            ),
        )],
        resolve: false,
        names_unit: None,
        act_reason: None,
    }))
}

/// The player a command names, by side or by address: exactly one.
fn player_index(campaign: &Campaign, who: &str) -> Result<usize, String> {
    let matching: Vec<usize> = campaign
        .players
        .iter()
        .enumerate()
        .filter(|(_, p)| p.side == who || p.person.address.eq_ignore_ascii_case(who))
        .map(|(i, _)| i)
        .collect();
    match matching.as_slice() {
        [one] => Ok(*one),
        [] => {
            let sides: Vec<&str> = campaign.sides.iter().map(|s| s.id.as_str()).collect();
            Err(format!(
                "`{who}` is neither a side with a player ({}) nor a player's address",
                sides.join(", ")
            ))
        }
        _ => Err(format!(
            "side {who} has several players; name the one you mean by address"
        )),
    }
}

/// Whether player `index` may take `address`: a plain address nobody else
/// in the campaign has.
fn address_free(campaign: &Campaign, index: usize, address: &str) -> Result<(), String> {
    if !valid_address(address) {
        return Err(format!("`{address}` is not an email address"));
    }
    let taken = campaign.gm.address.eq_ignore_ascii_case(address)
        || campaign
            .players
            .iter()
            .enumerate()
            .any(|(i, p)| i != index && p.person.address.eq_ignore_ascii_case(address));
    if taken {
        return Err(format!(
            "{address} already belongs to someone else in this campaign"
        ));
    }
    Ok(())
}

/// A change to the registered campaign, checked as the campaign file's
/// keys are (docs/CAMPAIGN-FILES.md): it takes effect at once for mail and
/// from the next deadline for the schedule; the phase open now keeps its
/// deadline (`extend` moves it).
fn plan_change(campaign: &Campaign, change: &Change) -> Planned {
    let mut updated = campaign.clone();
    let mut extra = Vec::new();
    let (outcome, announce) = match change {
        Change::Address { who, address } => {
            let index = match player_index(campaign, who) {
                Ok(i) => i,
                Err(why) => return refuse(why),
            };
            if let Err(why) = address_free(campaign, index, address) {
                return refuse(why);
            }
            let player = &mut updated.players[index];
            let old = std::mem::replace(&mut player.person.address, address.clone());
            let side = player.side.clone();
            // The old address hears of it too: a player whose address was
            // changed without their word learns it at once.
            extra.push((
                old.clone(),
                "your address for this campaign has changed".into(),
                format!(
                    "The game master has changed the address of side {side}'s player from {old} to {address}. Orders for {side} are taken from {address} now, with the same passphrase, and mail for it goes there. If you did not ask for this, write to the game master."
                ),
            ));
            (
                format!("side {side}'s player now writes from {address}, in place of {old}"),
                format!("changed the address of side {side}'s player to {address}"),
            )
        }
        Change::TimeZone { who, zone } => {
            if zone.parse::<Tz>().is_err() {
                return refuse(format!(
                    "`{zone}` is not a time zone: give an IANA name such as Europe/Paris"
                ));
            }
            if who == "campaign" {
                updated.schedule.time_zone = zone.clone();
                (
                    format!("deadlines now fall in {zone}, from the next one"),
                    format!(
                        "changed the campaign's time zone to {zone}: deadlines fall by its clock from the next one"
                    ),
                )
            } else if who == "gm" {
                updated.gm.time_zone = zone.clone();
                (
                    format!("the game master's mail now gives times in {zone}"),
                    format!("changed the game master's time zone to {zone}"),
                )
            } else {
                let index = match player_index(campaign, who) {
                    Ok(i) => i,
                    Err(why) => return refuse(why),
                };
                let player = &mut updated.players[index];
                player.person.time_zone = zone.clone();
                let side = player.side.clone();
                (
                    format!(
                        "mail to side {side}'s player {} now gives times in {zone}",
                        player.person.address
                    ),
                    format!("changed the time zone of side {side}'s player to {zone}"),
                )
            }
        }
        Change::DeadlineTime(time) => {
            if let Some(t) = time
                && crate::campaign::load::parse_time_of_day(t).is_none()
            {
                return refuse(format!(
                    "`{t}` is not a time of day: write it HH:MM on the 24-hour clock, such as 20:00, or none"
                ));
            }
            updated.schedule.deadline_time = time.clone();
            match time {
                Some(t) => (
                    format!("deadlines fall at {t} from the next one"),
                    format!("changed the deadline time: from the next phase, deadlines fall at {t} ({})", campaign.schedule.time_zone),
                ),
                None => (
                    "deadlines fall when their phase's length runs out, from the next one".into(),
                    "changed the deadline time: from the next phase, a deadline falls when its phase's length runs out".into(),
                ),
            }
        }
        Change::Phase { phase, minutes } => {
            let Some(length) = updated.schedule.phase_minutes.get_mut(phase) else {
                let phases: Vec<&String> = campaign.schedule.phase_minutes.keys().collect();
                return refuse(format!(
                    "`{phase}` is not a phase of this campaign ({})",
                    phases
                        .iter()
                        .map(|p| p.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            };
            *length = *minutes;
            let shortest = updated
                .schedule
                .phase_minutes
                .values()
                .min()
                .copied()
                .unwrap_or(*minutes);
            if updated.schedule.reminder_minutes > 0
                && updated.schedule.reminder_minutes >= shortest
            {
                return refuse(format!(
                    "the reminder ({}) must stay shorter than every phase: change the phase to more than that",
                    duration::text(updated.schedule.reminder_minutes)
                ));
            }
            let length = duration::text(*minutes);
            (
                format!("the {phase} phase lasts {length} from the next one"),
                format!("changed the length of the {phase} phase to {length}, from the next one"),
            )
        }
    };
    Ok(Ok(Plan {
        outcome,
        change: GmChange::Campaign(Box::new(updated)),
        announce: Some(announce),
        extra,
        resolve: false,
        names_unit: None,
        act_reason: None,
    }))
}

/// The number of the act a command makes, if it makes one: in a campaign
/// that keeps a record, its folder's (every act counts); before, only acts
/// on the state were numbered.
fn act_number(
    store: &Store,
    campaign_id: &str,
    sealed: Option<&crate::archive::ledger::Sealed>,
    change: &GmChange,
) -> Result<Option<usize>, EngineError> {
    Ok(match (sealed, change) {
        (Some(s), _) => s
            .link
            .folder
            .strip_prefix("gm/")
            .and_then(|n| n.parse::<usize>().ok()),
        (None, GmChange::State { .. }) => Some(store.gm_acts(campaign_id)?.len() + 1),
        (None, _) => None,
    })
}

/// The announcement of command `n`, act `act`, to everyone (after the
/// change, so that a replaced player's successor hears of it), plus any
/// extra mail.
fn announcement(
    store: &Store,
    campaign_id: &str,
    n: u64,
    act: Option<usize>,
    plan: &Plan,
    sealed: Option<&crate::archive::ledger::Sealed>,
) -> Result<Vec<OutgoingMail>, EngineError> {
    let Some(what) = &plan.announce else {
        return Ok(Vec::new());
    };
    let record = store.campaign(campaign_id)?;
    let campaign = match &plan.change {
        GmChange::Campaign(updated) => updated.as_ref().clone(),
        _ => record.campaign.clone(),
    };
    let ruleset = ruleset_of(&campaign)?;
    let (state, set_aside) = match &plan.change {
        GmChange::State { next, .. } => (next.as_ref().clone(), true),
        _ => (store.state(&record.current_state_digest)?, false),
    };
    let deadline = match &plan.change {
        GmChange::Deadline(d) | GmChange::Resume { deadline: d } => *d,
        GmChange::State {
            phase: Some((_, d)),
            ..
        } => *d,
        _ => record.deadline,
    };
    let paused = match &plan.change {
        GmChange::Pause => true,
        GmChange::Resume { .. } => false,
        _ => record.paused,
    };
    let head = sealed.map(|s| s.digest().to_hex());
    let templates = Templates::for_campaign(&record.source_dir)?;
    let phase = resolution::phase_label(ruleset, &state);
    let subject = format!("the game master: {}", first_words(what));
    // What a player is told: a unit its side cannot see is not named.
    let read = ruleset.read(&state)?;
    let finished = crate::report::outcome::ending(&campaign, ruleset, &read);
    let told = |p: &crate::campaign::Person| -> String {
        let side = campaign
            .players
            .iter()
            .find(|pl| pl.person.address.eq_ignore_ascii_case(&p.address))
            .map(|pl| pl.side.as_str());
        match (&plan.names_unit, side) {
            (Some(unit), Some(side)) if !ruleset.visible_to(&read, side, &[]).contains(unit) => {
                "corrected a unit out of your sight".to_string()
            }
            _ => what.clone(),
        }
    };
    let mut out = mail::to_all(&campaign, &format!("gm{n}"), &subject, |p| {
        templates.render(
            "gm.txt",
            json!({
                "what": told(p),
                "orders_set_aside": set_aside,
                "act": act,
                "phase": phase,
                "deadline": crate::lifecycle::local_time(p, deadline),
                "paused": paused,
                "finished": finished,
                "resolving": plan.resolve,
                "head": head,
            }),
        )
    })?;
    for (to, subject, body) in &plan.extra {
        out.push(OutgoingMail::text(
            mail::message_id(&campaign, &format!("gm{n}.notice"), to),
            to.clone(),
            format!("[{}] {subject}", campaign.id),
            body.clone(),
        ));
    }
    Ok(out)
}

/// The start of an announcement, for its subject line: its first clause,
/// whole, and cut at a word with an ellipsis only if it is very long.
fn first_words(what: &str) -> String {
    const MOST: usize = 70;
    let head = what
        .split([':', '.', ';', ','])
        .next()
        .unwrap_or(what)
        .trim();
    if head.chars().count() <= MOST {
        return head.to_string();
    }
    let cut: String = head.chars().take(MOST).collect();
    let at_word = cut.rfind(' ').map_or(cut.as_str(), |i| &cut[..i]);
    format!("{at_word} …")
}

/// Orders entered by the operator at the command line (`adjutant submit`):
/// taken like a player's, then recorded as a game master's act with the
/// operator's reason, and announced to everyone as the GM's acts by mail
/// are, so that no order reaches a manifest unseen by the players: a player
/// whose acknowledged orders the operator replaced hears of it at once, not
/// only by comparing digests. The act, its announcement and the mark that
/// the orders are the operator's are recorded after the orders are stored:
/// a crash between the two leaves orders marked as a player's, with no act,
/// and the command printed nothing; given again, it finds the same orders
/// standing and records the act then.
pub fn submit_by_operator(
    store: &mut Store,
    campaign_id: &str,
    side: &str,
    text: &str,
    reason: &str,
    clock: &dyn Clock,
) -> Result<super::Submitted, EngineError> {
    let done = super::submit(store, campaign_id, side, text, clock, None)?;
    if done.stored {
        let what = format!(
            "entered orders for side {side} at the command line{}, orders digest {}",
            if done.replaced {
                ", in place of the orders sent earlier for this phase"
            } else {
                ""
            },
            done.digest
        );
        record_operator_act(
            store,
            campaign_id,
            &format!("submit {side}"),
            reason,
            Some(done.digest),
            GmChange::OperatorOrders {
                phase_key: done.phase_key.clone(),
                side: side.to_string(),
            },
            what,
            clock,
        )?;
    }
    Ok(done)
}

/// The word that a side sends no orders, given by the operator at the
/// command line; recorded and announced as [`submit_by_operator`] records
/// orders.
pub fn declare_none_by_operator(
    store: &mut Store,
    campaign_id: &str,
    side: &str,
    reason: &str,
    clock: &dyn Clock,
) -> Result<super::DeclaredNone, EngineError> {
    let done = super::declare_none(store, campaign_id, side, clock, None)?;
    let what = format!(
        "said at the command line that side {side} sends no orders for this phase{}",
        if done.withdrawn {
            ", withdrawing the orders sent earlier for it"
        } else {
            ""
        }
    );
    record_operator_act(
        store,
        campaign_id,
        &format!("submit {side} none"),
        reason,
        None,
        GmChange::Nothing,
        what,
        clock,
    )?;
    Ok(done)
}

/// Records the operator's act and queues its announcement, in one
/// transaction, as [`execute`] does for a command.
#[allow(clippy::too_many_arguments)]
fn record_operator_act(
    store: &mut Store,
    campaign_id: &str,
    command: &str,
    reason: &str,
    orders_digest: Option<Digest32>,
    change: GmChange,
    what: String,
    clock: &dyn Clock,
) -> Result<(), EngineError> {
    let now = clock.now();
    let origin = Origin::cli();
    let record = store.campaign(campaign_id)?;
    let reason = reason.split_whitespace().collect::<Vec<_>>().join(" ");
    let sealed = super::record::seal_act(
        store,
        &record,
        &super::record::ActFacts {
            kind: "submit",
            command,
            at: now,
            by: &origin.by,
            reason: Some(&reason),
            // The word "none" has no digest; the archive shows the zeros.
            orders_digest: Some(orders_digest.unwrap_or(Digest32::ZERO)),
            undoes_turn: None,
            states: None,
        },
    )?;
    let n = store.next_gm_n(campaign_id)?;
    let act = act_number(store, campaign_id, sealed.as_ref(), &change)?;
    let plan = Plan {
        outcome: format!("entered by the operator: {reason}"),
        change,
        announce: Some(if reason.is_empty() {
            what
        } else {
            format!("{what}; the reason given: {reason}")
        }),
        extra: Vec::new(),
        resolve: false,
        names_unit: None,
        act_reason: None,
    };
    let mail = announcement(store, campaign_id, n, act, &plan, sealed.as_ref())?;
    let entry = GmEntry {
        n,
        at: now,
        source: origin.source.clone(),
        origin: None,
        command: command.to_string(),
        done: true,
        outcome: match act {
            Some(act) => format!("{} (act {act})", plan.outcome),
            None => plan.outcome.clone(),
        },
    };
    store.record_gm(campaign_id, &entry, &plan.change, sealed.as_ref(), &mail)?;
    Ok(())
}
