//! `adjutant demo`: plays the bundled campaign on embedded defaults.
//!
//! Until the mail edge and the bot players exist, the demo registers the
//! bundled Sound the Charge campaign in a fresh data directory, plays turns
//! with orders written for each side, asks a series of umpire calls
//! (shooting, the morale test after shooting, a round of close combat, a
//! rally test), exports the archive and verifies it. It says so when it runs.

use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, Utc};

use crate::archive;
use crate::campaign::Campaign;
use crate::engine;
use crate::lifecycle::FixedClock;
use crate::store::Store;

/// The bundled campaign's files, compiled in so that the demo needs nothing
/// but the binary.
pub const CAMPAIGN_TOML: &str = include_str!("../campaigns/sound-the-charge-demo/campaign.toml");
pub const SCENARIO_TOML: &str = include_str!("../campaigns/sound-the-charge-demo/scenario.toml");

/// The file that marks a folder as the demo's own.
const MARKER: &str = ".adjutant-demo";

/// The umpire calls the demo asks for, in order.
pub const DEMO_CALLS: &[&str] = &[
    "shoot 12 line-infantry grade B range 3",
    "morale grade C hits 2",
    "combat attacker 12 line-infantry grade B vs defender 4 field-guns grade C",
    "rally grade C enemy-can-charge",
];

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
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    #[error(transparent)]
    Engine(#[from] engine::EngineError),
    #[error(transparent)]
    Export(#[from] archive::export::ExportError),
    #[error(transparent)]
    Archive(#[from] archive::verify::ArchiveError),
}

/// Where the demo put things, and whether its archive verified.
#[derive(Debug)]
pub struct DemoResult {
    pub data_dir: PathBuf,
    pub archive_dir: PathBuf,
    /// The queued mail, one text file per message.
    pub outbox_dir: PathBuf,
    pub verdict: archive::verify::Verdict,
}

/// Writes every queued message of the campaign to `dir`, one file each, so
/// that the demo's mail can be read without a mail server. Returns how many.
fn write_outbox(store: &Store, campaign: &str, dir: &Path) -> Result<usize, DemoError> {
    let io = |source| DemoError::Io {
        path: dir.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    let mail = store.queued_mail(campaign)?;
    for (i, m) in mail.iter().enumerate() {
        let who = m.recipient.split('@').next().unwrap_or("someone");
        let text = format!(
            "To: {}\nSubject: {}\nMessage-ID: {}\n\n{}",
            m.recipient, m.subject, m.message_id, m.body
        );
        std::fs::write(dir.join(format!("{:03}-{who}.txt", i + 1)), text).map_err(io)?;
    }
    Ok(mail.len())
}

/// Writes the embedded campaign to `dir` and loads it.
pub fn bundled_campaign(dir: &Path) -> Result<Campaign, DemoError> {
    let io = |source| DemoError::Io {
        path: dir.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    std::fs::write(dir.join("campaign.toml"), CAMPAIGN_TOML).map_err(io)?;
    std::fs::write(dir.join("scenario.toml"), SCENARIO_TOML).map_err(io)?;
    crate::campaign::load(dir).map_err(|p| DemoError::Campaign(p.to_string()))
}

/// Plays the demo into `out`, writing progress to `say`.
pub fn run(out: &Path, say: &mut dyn Write) -> Result<DemoResult, DemoError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| DemoError::Io { path, source }
    };
    // Only a folder an earlier demo made (it holds the marker) is cleared:
    // `--out .` must never wipe a user's files.
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
    .map_err(io(&marker))?;
    let campaign_dir = out.join("campaign");
    let data_dir = out.join("data");
    let archive_dir = out.join("archive");
    let campaign = bundled_campaign(&campaign_dir)?;
    let _ = writeln!(
        say,
        "adjutant demo: {} ({}), {} units, sides {}.\n\
         This demo plays turns from orders given on the command line and a series of umpire\n\
         calls; players' orders by email arrive with the mail edge.",
        campaign.title,
        campaign.ruleset.id,
        campaign.scenario.units.len(),
        campaign
            .sides
            .iter()
            .map(|s| s.id.as_str())
            .collect::<Vec<_>>()
            .join(" and ")
    );
    // A fixed start time keeps the demo's output the same on every run,
    // except for the chain secret, which is fresh each time.
    let start: DateTime<Utc> = DateTime::parse_from_rfc3339("2026-01-05T09:00:00Z")
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_default();
    let mut store = Store::open(&data_dir)?;
    let record = engine::init(&mut store, &campaign, &campaign_dir, &FixedClock(start))?;
    let _ = writeln!(say, "commitment C = {}", record.commitment);
    let mut now = start;
    for turn in 0..2 {
        let state = store.state(&store.campaign(&campaign.id)?.current_state_digest)?;
        let side = state.active_side.clone();
        let first_unit = state
            .units
            .iter()
            .find(|u| u.spec.side == side)
            .map(|u| u.spec.id.clone())
            .unwrap_or_default();
        now += Duration::hours(1);
        let orders = format!("{first_unit}: hold\nsalt demo-{turn}\n");
        let submitted = engine::submit(
            &mut store,
            &campaign.id,
            &side,
            &orders,
            &FixedClock(now),
            None,
        )?;
        let _ = writeln!(
            say,
            "turn {}: {side} sends orders (digest {})",
            state.turn, submitted.digest
        );
        for resolved in engine::tick(&mut store, &campaign.id, &FixedClock(now))? {
            let _ = writeln!(
                say,
                "  resolution {}: {}, {} rolls; {}",
                resolved.k,
                resolved.phase_label,
                resolved.rolls,
                resolved.events.join(" ")
            );
        }
    }
    for call in DEMO_CALLS {
        now += Duration::minutes(10);
        let (k, report) = engine::umpire(&mut store, &campaign.id, call, &FixedClock(now))?;
        let _ = writeln!(say, "umpire call {k}:\n{report}\n");
    }
    let exported = archive::export::export(&store, &campaign.id, &archive_dir)?;
    let verdict = archive::verify::verify(&archive_dir)?;
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
    let outbox_dir = out.join("outbox");
    let written = write_outbox(&store, &campaign.id, &outbox_dir)?;
    let _ = writeln!(
        say,
        "verify: {}\n{written} messages queued for the GM and players, one file each, in {}",
        if verdict.ok() {
            "all resolutions check"
        } else {
            "FAILED"
        },
        outbox_dir.display()
    );
    Ok(DemoResult {
        data_dir,
        archive_dir,
        outbox_dir,
        verdict,
    })
}
