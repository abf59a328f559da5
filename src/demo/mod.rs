//! `adjutant demo`: plays a bundled campaign end to end through the mail
//! edge, on embedded defaults: the demo campaign of the ruleset asked for,
//! or of the first ruleset that ships one (`rules::registry`).
//!
//! Bot players (`bots`) write real order emails into a Maildir; the daemon's
//! event loop, driven turn by turn by a fixed clock, takes them in,
//! acknowledges them, sends a reminder to a side that is late, resolves each
//! turn when its orders are in, and writes every outgoing message to a folder
//! through the file transport. After the last turn the GM asks a series of
//! umpire calls (shooting, the morale test after shooting, a round of close
//! combat, a rally test), which are mailed too; then the archive is exported
//! and verified.

pub mod bots;

use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, Utc};

use crate::archive;
use crate::campaign::Campaign;
use crate::daemon::{Daemon, DaemonError, MaildirSource, Pass};
use crate::engine;
use crate::inbox::maildir;
use crate::ingest::IngestConfig;
use crate::lifecycle::{self, FixedClock};
use crate::outbound::{DeliveryPolicy, FileTransport};
use crate::rules::Ruleset;
use crate::rules::registry::RULESETS;
use crate::rules::ruleset::Demo;
use crate::rules::ruleset_for;
use crate::rules::state::GameState;
use crate::store::Store;

/// The address the demo's daemon sends from and players write to.
pub const DEMO_ADDRESS: &str = "adjutant@example.org";

/// The file that marks a folder as the demo's own.
const MARKER: &str = ".adjutant-demo";

/// More turns than any bundled scenario lasts: a guard, should a scenario
/// never end.
const MAX_TURNS: u32 = 50;

/// The demo asked for: by the ruleset's id or by its campaign's folder name
/// under `campaigns/` (the `folder` of its [`Demo`]); the first ruleset that
/// ships one when `None`.
pub fn demo_of(asked: Option<&str>) -> Result<Demo, DemoError> {
    let found = match asked {
        Some(asked) => RULESETS
            .iter()
            .find_map(|r| r.demo().filter(|d| r.id() == asked || d.folder == asked)),
        None => RULESETS.iter().find_map(|r| r.demo()),
    };
    found.ok_or_else(|| {
        let with: Vec<String> = RULESETS
            .iter()
            .filter_map(|r| {
                r.demo()
                    .map(|d| format!("{} (ruleset {})", d.folder, r.id()))
            })
            .collect();
        DemoError::NoDemo {
            asked: asked.unwrap_or("any").to_string(),
            known: with.join(", "),
        }
    })
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DemoError {
    #[error("cannot prepare {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0} is not empty and was not made by `adjutant demo`; give --out a new folder")]
    NotADemoFolder(PathBuf),
    #[error("the bundled campaign does not load:\n{0}")]
    Campaign(String),
    #[error("no demo campaign `{asked}`; the demo campaigns: {known}")]
    NoDemo { asked: String, known: String },
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    #[error(transparent)]
    Engine(#[from] engine::EngineError),
    #[error(transparent)]
    Daemon(#[from] DaemonError),
    #[error(transparent)]
    Maildir(#[from] maildir::MaildirError),
    #[error(transparent)]
    Export(#[from] archive::export::ExportError),
    #[error(transparent)]
    Archive(#[from] archive::verify::ArchiveError),
    #[error(transparent)]
    Chronicle(#[from] crate::chronicle::ChronicleError),
}

/// Where the demo put things, and whether its archive verified.
#[derive(Debug)]
pub struct DemoResult {
    pub data_dir: PathBuf,
    pub archive_dir: PathBuf,
    /// The chronicle's front page (the game master's, with everything).
    pub chronicle: PathBuf,
    /// Every message the daemon sent, one `.eml` file each.
    pub outbox_dir: PathBuf,
    /// The Maildir the bot players wrote their orders into.
    pub maildir: PathBuf,
    /// How many messages went out.
    pub sent: usize,
    /// How many turns were played.
    pub turns: u32,
    /// How many order emails the bots wrote (the active side's each turn,
    /// and the passive side's standing orders when it had any).
    pub orders_mailed: u32,
    pub verdict: archive::verify::Verdict,
}

/// Writes the default demo's campaign to `dir` and loads it.
pub fn bundled_campaign(dir: &Path) -> Result<Campaign, DemoError> {
    demo_campaign(&demo_of(None)?, dir)
}

/// Writes a demo's campaign to `dir` and loads it.
pub fn demo_campaign(demo: &Demo, dir: &Path) -> Result<Campaign, DemoError> {
    let io = |source| DemoError::Io {
        path: dir.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    std::fs::write(dir.join("campaign.toml"), demo.campaign_toml).map_err(io)?;
    std::fs::write(dir.join("scenario.toml"), demo.scenario_toml).map_err(io)?;
    crate::campaign::load(dir).map_err(|p| DemoError::Campaign(p.to_string()))
}

/// Prints what the passes did, but the bare counts of mail sent.
fn tell(say: &mut dyn Write, passes: &[Pass]) {
    for pass in passes {
        for note in &pass.notes {
            if !note.starts_with("sent ") {
                let _ = writeln!(say, "  {note}");
            }
        }
        for (event, error) in &pass.failures {
            let _ = writeln!(say, "  FAILED {event:?}: {error}");
        }
    }
}

/// Plays the demo asked for (see [`demo_of`]; the default's when `None`)
/// into `out`, writing progress to `say`.
pub fn run(
    out: &Path,
    ruleset: Option<&str>,
    say: &mut dyn Write,
) -> Result<DemoResult, DemoError> {
    let demo = demo_of(ruleset)?;
    make_demo_folder(out)?;
    let campaign_dir = out.join("campaign");
    let maildir_dir = out.join("maildir");
    let mail_dir = out.join("mail");
    let campaign = demo_campaign(&demo, &campaign_dir)?;
    let ruleset = ruleset_for(&campaign.ruleset.id)
        .ok_or_else(|| DemoError::Campaign(format!("unknown ruleset {}", campaign.ruleset.id)))?;
    introduce(say, &campaign, &maildir_dir, &mail_dir);
    // A fixed start time and a clock moved by hand keep the demo's output
    // the same on every run, except for the chain secret, which is fresh
    // each time.
    let start: DateTime<Utc> = DateTime::parse_from_rfc3339("2026-01-05T09:00:00Z")
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_default();
    let mut daemon = demo_daemon(&out.join("data"), &maildir_dir, &mail_dir)?;
    daemon.start(&[campaign_dir.as_path()], &FixedClock(start))?;
    tell(say, &daemon.run_until_quiet(&FixedClock(start), 100)?);
    let record = daemon.store().campaign(&campaign.id)?;
    let _ = writeln!(say, "commitment C = {}", record.commitment);
    let mut table = Table {
        daemon,
        campaign: &campaign,
        demo: &demo,
        ruleset,
        maildir: maildir_dir,
        now: start,
        turns: 0,
        orders_mailed: 0,
    };
    table.play(say)?;
    table.call_the_umpire(say)?;
    table.finish(out, mail_dir, say)
}

/// Clears `out` for a new demo and marks it as the demo's own. Only a
/// folder an earlier demo made (it holds the marker) is cleared: `--out .`
/// must never wipe a user's files.
fn make_demo_folder(out: &Path) -> Result<(), DemoError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| DemoError::Io { path, source }
    };
    let marker = out.join(MARKER);
    if out.exists() {
        let empty = std::fs::read_dir(out)
            .map(|mut d| d.next().is_none())
            .map_err(io(out))?;
        if !empty && !marker.exists() {
            return Err(DemoError::NotADemoFolder(out.to_path_buf()));
        }
        std::fs::remove_dir_all(out).map_err(io(out))?;
    }
    std::fs::create_dir_all(out).map_err(io(out))?;
    std::fs::write(
        &marker,
        "made by `adjutant demo`; the next demo run clears this folder\n",
    )
    .map_err(io(&marker))
}

/// The demo's opening lines: the campaign, and where mail goes.
fn introduce(say: &mut dyn Write, campaign: &Campaign, maildir_dir: &Path, mail_dir: &Path) {
    let _ = writeln!(
        say,
        "adjutant demo: {} ({}), {} units, sides {}.\n\
         Bot players mail their orders to {DEMO_ADDRESS} (a Maildir in {}); the daemon's loop\n\
         answers, resolves and mails every message as a file into {}.",
        campaign.title,
        campaign.ruleset.id,
        campaign.scenario.units.len(),
        campaign
            .sides
            .iter()
            .map(|s| s.id.as_str())
            .collect::<Vec<_>>()
            .join(" and "),
        maildir_dir.display(),
        mail_dir.display(),
    );
}

/// The daemon the demo drives: its store in `data_dir`, reading the bots'
/// Maildir and writing each message as a file into `mail_dir`.
fn demo_daemon(data_dir: &Path, maildir_dir: &Path, mail_dir: &Path) -> Result<Daemon, DemoError> {
    Ok(Daemon::new(
        Store::open(data_dir)?,
        Some(Box::new(MaildirSource::new(maildir_dir))),
        Box::new(FileTransport::new(mail_dir)),
        DeliveryPolicy {
            from: format!("adjutant <{DEMO_ADDRESS}>"),
            ..DeliveryPolicy::default()
        },
        IngestConfig {
            own_addresses: vec![DEMO_ADDRESS.to_string()],
            reply_domain: "example.org".to_string(),
            ..IngestConfig::default()
        },
        Duration::seconds(30),
    ))
}

/// The demo's game in play: the daemon, the campaign it runs, the bots'
/// Maildir and the hand-moved clock.
struct Table<'a> {
    daemon: Daemon,
    campaign: &'a Campaign,
    demo: &'a Demo,
    ruleset: &'static dyn Ruleset,
    maildir: PathBuf,
    now: DateTime<Utc>,
    turns: u32,
    orders_mailed: u32,
}

impl Table<'_> {
    /// Every turn, until the game ends (or `MAX_TURNS`).
    fn play(&mut self, say: &mut dyn Write) -> Result<(), DemoError> {
        for turn in 1..=MAX_TURNS {
            let record = self.daemon.store().campaign(&self.campaign.id)?;
            let state = self.daemon.store().state(&record.current_state_digest)?;
            if state.finished.is_some() {
                self.say_ending(say, &state);
                break;
            }
            self.turns = turn;
            if turn == 1 {
                // The first side is late, to show the reminder: the clock
                // jumps into the reminder window before its orders are
                // written.
                let lead = Duration::minutes(i64::from(self.campaign.schedule.reminder_minutes));
                self.now = record.deadline - lead + Duration::hours(1);
                let _ = writeln!(
                    say,
                    "turn 1: no orders yet, {} hours before the deadline",
                    lead.num_hours() - 1
                );
                tell(
                    say,
                    &self.daemon.run_until_quiet(&FixedClock(self.now), 100)?,
                );
            }
            self.now += Duration::hours(1);
            self.mail_every_side(say, turn, &state)?;
            tell(
                say,
                &self.daemon.run_until_quiet(&FixedClock(self.now), 100)?,
            );
            self.say_events(say)?;
        }
        Ok(())
    }

    /// How the game ended, and its result by the scenario.
    fn say_ending(&self, say: &mut dyn Write, state: &GameState) {
        let campaign = self.campaign;
        let read = crate::rules::ruleset_for(&state.ruleset)
            .and_then(|rules| Some((rules, rules.read(state).ok()?)));
        let why = read
            .as_ref()
            .and_then(|(rules, read)| crate::report::outcome::ending(campaign, *rules, read))
            .or_else(|| state.finished.clone())
            .unwrap_or_default();
        let _ = writeln!(say, "the game is over: {why}");
        if let Some(verdict) = read
            .as_ref()
            .and_then(|(rules, read)| crate::report::outcome::verdict(campaign, *rules, read))
        {
            let _ = writeln!(
                say,
                "the result: {}",
                crate::report::outcome::sentence(campaign, &verdict)
            );
        }
    }

    /// Every side writes: the passive side its standing orders (evade), or
    /// that it sends none, and the active side its orders; the phase closes
    /// once every side is in.
    fn mail_every_side(
        &mut self,
        say: &mut dyn Write,
        turn: u32,
        state: &GameState,
    ) -> Result<(), DemoError> {
        let required = lifecycle::required_sides(self.ruleset, state);
        let writers = state
            .sides
            .iter()
            .filter(|s| !required.contains(s))
            .chain(required.iter());
        for side in writers {
            let mut lines = bots::orders_for(state, side).map_err(engine::EngineError::from)?;
            if lines.is_empty() && !required.contains(side) {
                // A player with nothing to order says so, and the phase
                // need not wait for its deadline.
                lines.push("no orders".to_string());
            }
            self.mail_side(say, turn, state, side, &lines)?;
        }
        Ok(())
    }

    /// Each player of `side` mails `lines` into the Maildir.
    fn mail_side(
        &mut self,
        say: &mut dyn Write,
        turn: u32,
        state: &GameState,
        side: &str,
        lines: &[String],
    ) -> Result<(), DemoError> {
        let passphrase = self
            .demo
            .passphrases
            .iter()
            .find(|(s, _)| *s == side)
            .map(|(_, p)| *p)
            .ok_or_else(|| DemoError::Campaign(format!("no demo passphrase for {side}")))?;
        for player in self.campaign.players.iter().filter(|p| p.side == side) {
            let raw = bots::order_email(
                &player.person.name,
                &player.person.address,
                DEMO_ADDRESS,
                &self.campaign.id,
                passphrase,
                lines,
                &format!("<turn{turn}.{side}@bots.demo.invalid>"),
                self.now,
            );
            maildir::deliver(&self.maildir, &format!("{turn:04}.{side}"), &raw)?;
            self.orders_mailed += 1;
            let _ = writeln!(
                say,
                "turn {}: {} ({side}) mails {}",
                state.turn,
                player.person.name,
                lines.join("; ")
            );
        }
        Ok(())
    }

    /// The last resolution's events, as archived.
    fn say_events(&self, say: &mut dyn Write) -> Result<(), DemoError> {
        if let Some(last) = self.daemon.store().resolutions(&self.campaign.id)?.last()
            && let Some(result) = &last.result
        {
            for event in &result.events {
                if let Some(text) = serde_json::from_str::<serde_json::Value>(event)
                    .ok()
                    .and_then(|e| e.get("text").and_then(|t| t.as_str()).map(str::to_string))
                {
                    let _ = writeln!(say, "    {text}");
                }
            }
        }
        Ok(())
    }

    /// The GM's umpire calls the demo ships, each mailed.
    fn call_the_umpire(&mut self, say: &mut dyn Write) -> Result<(), DemoError> {
        for call in self.demo.calls {
            self.now += Duration::minutes(10);
            let (k, report) = engine::umpire(
                self.daemon.store_mut(),
                &self.campaign.id,
                call,
                &FixedClock(self.now),
            )?;
            let _ = writeln!(say, "umpire call {k}:\n{report}\n");
        }
        tell(
            say,
            &self.daemon.run_until_quiet(&FixedClock(self.now), 100)?,
        );
        Ok(())
    }

    /// Exports the archive, writes the chronicle and verifies the archive.
    fn finish(
        self,
        out: &Path,
        mail_dir: PathBuf,
        say: &mut dyn Write,
    ) -> Result<DemoResult, DemoError> {
        let (archive_dir, chronicle_dir) = (out.join("archive"), out.join("chronicle"));
        let store = self.daemon.store();
        let id = &self.campaign.id;
        let exported = archive::export::export(store, id, &archive_dir)?;
        let chronicle =
            crate::chronicle::write(store, id, crate::chronicle::Reader::Gm, &chronicle_dir)?;
        let verdict = archive::verify::verify(&archive_dir)?;
        let sent = store
            .outbox(Some(id))?
            .iter()
            .filter(|e| e.status == crate::store::OutboxStatus::Sent)
            .count();
        let _ = writeln!(
            say,
            "archive: {} turn resolutions and {} umpire calls in {}",
            exported.turns,
            exported.calls,
            archive_dir.display()
        );
        for line in &verdict.resolutions {
            let _ = writeln!(say, "  verify: {line}");
        }
        let _ = writeln!(
            say,
            "verify: {}\n{sent} messages sent to the GM and players, one .eml file each, in {}",
            if verdict.ok() {
                "all resolutions check"
            } else {
                "FAILED"
            },
            mail_dir.display()
        );
        Ok(DemoResult {
            data_dir: out.join("data"),
            archive_dir,
            chronicle: chronicle.index,
            outbox_dir: mail_dir,
            maildir: self.maildir,
            sent,
            turns: self.turns,
            orders_mailed: self.orders_mailed,
            verdict,
        })
    }
}
