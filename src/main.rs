//! The `adjutant` command: argument parsing and printing only; the library
//! does the work.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use chrono::{DateTime, Utc};
use clap::{Parser, Subcommand};

use adjutant::audit::Digest32;
use adjutant::lifecycle::{Clock, FixedClock, SystemClock};
use adjutant::store::Store;
use adjutant::store::lock::DataDirLock;
use adjutant::{archive, campaign, engine};

#[derive(Parser)]
#[command(
    name = "adjutant",
    version,
    about = "A play-by-email turn adjudicator for tabletop wargames, with audited dice."
)]
struct Cli {
    /// Pretend it is this time (RFC 3339), for tests and replays.
    #[arg(long, global = true, hide = true)]
    now: Option<DateTime<Utc>>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a bundled campaign end to end into a folder and verify its archive.
    Demo {
        /// Where to put the campaign, data directory and archive.
        #[arg(long, default_value = "out/demo")]
        out: PathBuf,
        /// The demo campaign to play, by its folder under `campaigns/`
        /// (the first ruleset's by default).
        #[arg(long, conflicts_with = "ruleset")]
        campaign: Option<String>,
        /// The ruleset whose demo campaign to play.
        #[arg(long)]
        ruleset: Option<String>,
    },
    /// Load and check campaign folders; print every problem as file:line:column.
    Check {
        #[arg(required = true)]
        campaigns: Vec<PathBuf>,
    },
    /// Hash a passphrase for a campaign file (reads it from standard input).
    Passphrase,
    /// Register a campaign in the store, draw its chain secret, print its commitment.
    Init {
        #[arg(long, default_value = "./var")]
        data: PathBuf,
        campaign: PathBuf,
    },
    /// Show where each campaign stands.
    Status {
        #[arg(long, default_value = "./var")]
        data: PathBuf,
        #[arg(long)]
        campaign: Option<String>,
    },
    /// Enter a side's orders for the current phase (from a file, or - for standard input).
    Submit {
        #[arg(long, default_value = "./var")]
        data: PathBuf,
        #[arg(long)]
        campaign: String,
        #[arg(long)]
        side: String,
        /// Why the operator enters these orders (a player's letter lost, a
        /// phone call): the archive records it with the act.
        #[arg(long)]
        reason: String,
        orders: PathBuf,
    },
    /// Close and resolve every phase that is due (deadline passed or all orders in).
    Tick {
        #[arg(long, default_value = "./var")]
        data: PathBuf,
        #[arg(long)]
        campaign: Option<String>,
    },
    /// Close and resolve the current phase now (the GM's "resolve now").
    Resolve {
        #[arg(long, default_value = "./var")]
        data: PathBuf,
        #[arg(long)]
        campaign: String,
    },
    /// Perform one umpire call with the audited dice; `help` lists the calls.
    Umpire {
        #[arg(long, default_value = "./var")]
        data: PathBuf,
        #[arg(long)]
        campaign: String,
        call: String,
    },
    /// Take one message on standard input (for an MTA pipe or procmail). Exit
    /// status 0 when it was handled (whatever the reply says), 75 (EX_TEMPFAIL)
    /// when the MTA should try again later.
    Ingest {
        #[arg(long, default_value = "./var")]
        data: PathBuf,
        /// Adjutant's own sending address; mail from it is never answered.
        #[arg(long = "own-address")]
        own_addresses: Vec<String>,
    },
    /// Ingest every message in a Maildir's new/ folder, moving each to cur/ once stored.
    Maildir {
        #[arg(long, default_value = "./var")]
        data: PathBuf,
        #[arg(long = "own-address")]
        own_addresses: Vec<String>,
        maildir: PathBuf,
    },
    /// Read a mailbox over IMAP: ingest each waiting message, then flag it
    /// seen (or move it) once stored; keep watching with IDLE (or polling)
    /// unless --once is given.
    Imap(ImapArgs),
    /// Run the daemon: the inbox, deadlines, reminders and the outbox, until SIGTERM or SIGINT.
    Daemon {
        /// The daemon's configuration file (see deploy/adjutant.example.toml).
        #[arg(long)]
        config: PathBuf,
        /// Run the loop until nothing is pending, then stop (for tests and cron).
        #[arg(long)]
        once: bool,
    },
    /// Send what is due in the outbox once, through the configured transport, and stop.
    /// Not while the daemon runs on the same data directory.
    Send {
        #[arg(long)]
        config: PathBuf,
    },
    /// List the outbox: each message's state, attempts and last error.
    Outbox {
        #[arg(long, default_value = "./var")]
        data: PathBuf,
        #[arg(long)]
        campaign: Option<String>,
        /// Put a dead message (by Message-ID) back in the queue, due now.
        #[arg(long)]
        requeue: Option<String>,
    },
    /// A game master's command (docs/GM-COMMANDS.md): status, extend 24h,
    /// extend to 2026-11-25 18:00, resolve now, pause, resume,
    /// replace SIDE ADDRESS hash HASH, change ..., correct UNIT ...,
    /// rollback, without beacon.
    Gm {
        #[arg(long, default_value = "./var")]
        data: PathBuf,
        #[arg(long)]
        campaign: String,
        /// For `correct`: why, recorded with the act and told with it (the
        /// same as ending the command with `because ...`).
        #[arg(long)]
        reason: Option<String>,
        /// The command and its words.
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        command: Vec<String>,
    },
    /// Work with a campaign's public archive.
    Archive {
        #[command(subcommand)]
        command: ArchiveCommand,
    },
    /// Check an exported archive: chain, manifests, seeds, every die, every resolution.
    Verify {
        archive: PathBuf,
        /// A head a player received in a report or acknowledgement (spec v3):
        /// the archive must hold, unchanged, everything up to it.
        #[arg(long)]
        head: Vec<String>,
        /// A folder of received mail (files or a Maildir): every head,
        /// commitment, revealed secret and manifest digest of the campaign
        /// found in it must be in the archive.
        #[arg(long)]
        mail: Option<PathBuf>,
    },
    /// Re-derive the dice of one resolution from the lines its report gives
    /// (docs/AUDIT.md): each roll as INDEX:DIE@FIRST_WORD, e.g. 3:2d6@7.
    Dice {
        #[arg(long)]
        campaign: String,
        /// A turn resolution's number.
        #[arg(long, conflicts_with = "umpire")]
        turn: Option<u64>,
        /// An umpire call's number.
        #[arg(long)]
        umpire: Option<u64>,
        #[arg(long)]
        secret: String,
        #[arg(long)]
        manifest: String,
        #[arg(long)]
        prior: String,
        /// The seed's 32 beacon bytes, hex (absent: zeros, no beacon).
        #[arg(long = "beacon-field")]
        beacon_field: Option<String>,
        rolls: Vec<String>,
    },
    /// Write the campaign's chronicle: a static web site of every turn, with
    /// the dice checked in the browser. A side's shows only what it saw while
    /// the game runs; without --side, the game master's shows everything.
    Chronicle {
        #[arg(long, default_value = "./var")]
        data: PathBuf,
        #[arg(long)]
        campaign: String,
        /// The folder to write the site into (new, or an earlier chronicle's).
        #[arg(long)]
        out: PathBuf,
        /// The side whose chronicle to write; the game master's without it.
        #[arg(long)]
        side: Option<String>,
    },
}

#[derive(clap::Args)]
struct ImapArgs {
    #[arg(long, default_value = "./var")]
    data: PathBuf,
    #[arg(long = "own-address")]
    own_addresses: Vec<String>,
    /// The IMAP server's name or address.
    #[arg(long)]
    host: String,
    /// The port; by default 993 for tls, 143 for starttls and plain.
    #[arg(long)]
    port: Option<u16>,
    #[arg(long)]
    user: String,
    /// A file holding the password (its first line). Never given on the
    /// command line, where other users of the machine could read it.
    #[arg(long, conflicts_with = "password_env")]
    password_file: Option<PathBuf>,
    /// The environment variable holding the password.
    #[arg(long, default_value = "ADJUTANT_IMAP_PASSWORD")]
    password_env: String,
    #[arg(long, default_value = "INBOX")]
    mailbox: String,
    /// tls, starttls, or plain (plain only to a loopback address).
    #[arg(long, default_value = "tls")]
    security: adjutant::inbox::imap::Security,
    /// PEM certificates to trust besides the system's.
    #[arg(long)]
    ca_file: Option<PathBuf>,
    /// Move each stored message to this folder instead of flagging it seen.
    #[arg(long)]
    move_to: Option<String>,
    /// Take what is waiting and stop.
    #[arg(long)]
    once: bool,
    /// Seconds between polls when the server has no IDLE.
    #[arg(long, default_value_t = 60)]
    poll_seconds: u64,
}

#[derive(Subcommand)]
enum ArchiveCommand {
    /// Write the campaign's archive (docs/AUDIT.md) into a new folder.
    Export {
        #[arg(long, default_value = "./var")]
        data: PathBuf,
        #[arg(long)]
        campaign: String,
        #[arg(long)]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    hold_allocator_to_two_arenas();
    let cli = Cli::parse();
    let clock: Box<dyn Clock> = match cli.now {
        Some(t) => Box::new(FixedClock(t)),
        None => Box::new(SystemClock),
    };
    match run(cli.command, clock.as_ref()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("adjutant: {}", in_words(&e));
            ExitCode::FAILURE
        }
    }
}

/// An error and its causes in one line, each cause told once: the library's
/// messages often end with their cause already (`cannot read F: reason`), and
/// the chain would say the reason again.
fn in_words(e: &anyhow::Error) -> String {
    let mut told = String::new();
    for cause in e.chain() {
        let words = cause.to_string();
        if told.contains(&words) {
            continue;
        }
        if !told.is_empty() {
            told.push_str(": ");
        }
        told.push_str(&words);
    }
    told
}

/// Sends logs to standard error at the configured level (the journal under
/// systemd).
fn init_logs(level: tracing::Level) {
    // A second call (tests running the CLI in-process) keeps the first.
    let _ = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .try_init();
}

fn daemon_from(config: &Path, clock: &dyn Clock) -> Result<adjutant::daemon::Daemon> {
    let config = adjutant::daemon::DaemonConfig::load(config)?;
    init_logs(config.log_level);
    let mut daemon = adjutant::daemon::Daemon::from_config(&config, "adjutant daemon", clock)?;
    let campaigns: Vec<&Path> = config.campaigns.iter().map(PathBuf::as_path).collect();
    daemon.start(&campaigns, clock)?;
    Ok(daemon)
}

fn ingest_config(own_addresses: Vec<String>) -> adjutant::ingest::IngestConfig {
    adjutant::ingest::IngestConfig {
        own_addresses,
        ..Default::default()
    }
}

fn open(data: &Path) -> Result<Store> {
    Store::open(data).with_context(|| format!("opening the store in {}", data.display()))
}

fn run(command: Command, clock: &dyn Clock) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    match command {
        Command::Demo {
            out: dir,
            campaign,
            ruleset,
        } => cmd_demo(dir, campaign.or(ruleset), &mut out),
        Command::Check { campaigns } => cmd_check(campaigns, &mut out),
        Command::Passphrase => cmd_passphrase(&mut out),
        Command::Init {
            data,
            campaign: dir,
        } => cmd_init(data, dir, clock, &mut out),
        Command::Status { data, campaign } => cmd_status(data, campaign, clock, &mut out),
        Command::Submit {
            data,
            campaign,
            side,
            reason,
            orders,
        } => cmd_submit(data, campaign, side, &reason, orders, clock, &mut out),
        Command::Tick { data, campaign } => cmd_tick(data, campaign, clock, &mut out),
        Command::Resolve { data, campaign } => cmd_resolve(data, campaign, clock, &mut out),
        Command::Umpire {
            data,
            campaign,
            call,
        } => cmd_umpire(data, campaign, call, clock, &mut out),
        Command::Ingest {
            data,
            own_addresses,
        } => cmd_ingest(data, own_addresses, clock, &mut out),
        Command::Maildir {
            data,
            own_addresses,
            maildir,
        } => cmd_maildir(data, own_addresses, maildir, clock, &mut out),
        Command::Imap(args) => {
            imap(args, clock, &mut out)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Daemon { config, once } => cmd_daemon(config, once, clock, &mut out),
        Command::Send { config } => cmd_send(config, clock, &mut out),
        Command::Outbox {
            data,
            campaign,
            requeue,
        } => cmd_outbox(data, campaign, requeue, clock, &mut out),
        Command::Gm {
            data,
            campaign,
            reason,
            command,
        } => cmd_gm(data, campaign, command, reason, clock, &mut out),
        Command::Archive {
            command:
                ArchiveCommand::Export {
                    data,
                    campaign,
                    out: dir,
                },
        } => cmd_archive(data, campaign, dir, &mut out),
        Command::Verify {
            archive: dir,
            head,
            mail,
        } => cmd_verify(dir, &head, mail.as_deref(), &mut out),
        Command::Dice {
            campaign,
            turn,
            umpire,
            secret,
            manifest,
            prior,
            beacon_field,
            rolls,
        } => cmd_dice(
            &campaign,
            turn,
            umpire,
            [&secret, &manifest, &prior],
            beacon_field.as_deref(),
            &rolls,
            &mut out,
        ),
        Command::Chronicle {
            data,
            campaign,
            out: dir,
            side,
        } => cmd_chronicle(data, campaign, dir, side, &mut out),
    }
}

/// `adjutant demo`.
fn cmd_demo(dir: PathBuf, asked: Option<String>, out: &mut impl Write) -> Result<ExitCode> {
    let result = adjutant::demo::run(&dir, asked.as_deref(), out)?;
    writeln!(
        out,
        "campaign data: {}\norders mailed by the bots: {}\nreports and every other message sent: {}\narchive: {}  (check it: adjutant verify {})\nchronicle, every turn with its dice checked in the browser: {}",
        result.data_dir.display(),
        result.maildir.display(),
        result.outbox_dir.display(),
        result.archive_dir.display(),
        result.archive_dir.display(),
        result.chronicle.display()
    )?;
    if !result.verdict.ok() {
        bail!("the demo's archive did not verify");
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant chronicle`.
fn cmd_chronicle(
    data: PathBuf,
    campaign: String,
    dir: PathBuf,
    side: Option<String>,
    out: &mut impl Write,
) -> Result<ExitCode> {
    use adjutant::chronicle::{self, Reader};
    let store = open(&data)?;
    let reader = side.map_or(Reader::Gm, Reader::Side);
    let written = chronicle::write(&store, &campaign, reader, &dir)?;
    writeln!(
        out,
        "chronicle of {campaign}: {} turns, {} umpire calls, {} dice{}\nopen {}",
        written.turns,
        written.calls,
        written.dice,
        if written.full {
            " (everything)".to_string()
        } else {
            format!(
                " shown, {} withheld until the game is over",
                written.withheld
            )
        },
        written.index.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `adjutant check`.
fn cmd_check(campaigns: Vec<PathBuf>, out: &mut impl Write) -> Result<ExitCode> {
    let mut failed = false;
    for dir in campaigns {
        match campaign::load(&dir) {
            Ok(c) => writeln!(
                out,
                "{}: ok ({}, {} sides, {} units)",
                dir.display(),
                c.ruleset.id,
                c.sides.len(),
                c.scenario.units.len()
            )?,
            Err(problems) => {
                failed = true;
                eprintln!("{problems}");
            }
        }
    }
    if failed {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant passphrase`.
fn cmd_passphrase(out: &mut impl Write) -> Result<ExitCode> {
    let mut text = String::new();
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprint!("passphrase: ");
    }
    std::io::stdin().read_line(&mut text)?;
    let passphrase = text.trim_end_matches(['\n', '\r']);
    if passphrase.is_empty() {
        bail!("an empty passphrase protects nothing");
    }
    writeln!(out, "{}", campaign::passphrase::hash(passphrase)?)?;
    Ok(ExitCode::SUCCESS)
}

/// `adjutant init`.
fn cmd_init(
    data: PathBuf,
    dir: PathBuf,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let loaded = campaign::load(&dir).map_err(|p| anyhow::anyhow!("{p}"))?;
    let mut store = open(&data)?;
    let record = engine::init(&mut store, &loaded, &dir, clock)?;
    writeln!(
        out,
        "registered {} in {}\ncommitment C = {}\numpire commitment U = {}\nchain length N = {}\nfirst deadline: {}",
        loaded.id,
        data.display(),
        record.commitment,
        record.chain.umpire_chain().commitment(),
        record.chain.length(),
        record.deadline
    )?;
    // What went into the outbox: the opening mail, one to each person.
    let queued = store.queued_mail(&loaded.id)?;
    writeln!(
        out,
        "queued {} opening message(s); `adjutant send` or the daemon sends them:",
        queued.len()
    )?;
    for mail in &queued {
        writeln!(out, "  to {}: {}", mail.recipient, mail.subject)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant status`.
fn cmd_status(
    data: PathBuf,
    campaign: Option<String>,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let store = open(&data)?;
    let ids = match campaign {
        Some(id) => vec![id],
        None => store.campaign_ids()?,
    };
    if ids.is_empty() {
        writeln!(out, "no campaigns in {}", data.display())?;
    }
    for id in ids {
        writeln!(
            out,
            "{}",
            adjutant::engine::status::describe(&store, &id, clock.now())?
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant submit`.
fn cmd_submit(
    data: PathBuf,
    campaign: String,
    side: String,
    reason: &str,
    orders: PathBuf,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let text = if orders.as_os_str() == "-" {
        let mut t = String::new();
        std::io::stdin().read_to_string(&mut t)?;
        t
    } else {
        std::fs::read_to_string(&orders).with_context(|| format!("reading {}", orders.display()))?
    };
    let mut store = open(&data)?;
    if engine::says_no_orders(text.lines()) {
        let declared =
            engine::gm::declare_none_by_operator(&mut store, &campaign, &side, reason, clock)?;
        writeln!(
            out,
            "{side} sends no orders for {}{}",
            declared.phase_key,
            if declared.withdrawn {
                " (its earlier orders for this phase are withdrawn)"
            } else {
                ""
            }
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let done = engine::gm::submit_by_operator(&mut store, &campaign, &side, &text, reason, clock)?;
    for refusal in done.sheet.refusals() {
        writeln!(out, "refused: {refusal}")?;
    }
    if let (false, Some(word)) = (done.stored, done.word) {
        // `ready` or `wait` alone: the side's orders stand as they are.
        let said = engine::ready::say(&mut store, &campaign, &side, word, clock, None)?;
        writeln!(
            out,
            "{side} is {} for {}; its orders stand: {}",
            if said.ready { "ready" } else { "not ready" },
            said.phase_key,
            said.standing.as_deref().unwrap_or("none")
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    if !done.stored {
        writeln!(out, "nothing accepted: no orders were stored for {side}")?;
        return Ok(ExitCode::FAILURE);
    }
    writeln!(out, "accepted for {} ({}):", side, done.phase_key)?;
    write!(out, "{}", done.sheet.canonical_text())?;
    // Accepted, but what comes first in the phase may undo them.
    for warning in done.sheet.warned() {
        writeln!(out, "warning: {warning}")?;
    }
    writeln!(
        out,
        "digest {}{}",
        done.digest,
        if done.replaced {
            " (replaces your earlier orders for this phase)"
        } else {
            ""
        }
    )?;
    writeln!(
        out,
        "{}",
        if done.ready {
            "ready: the phase may close as soon as every side is ready"
        } else {
            "not ready: the phase waits for the deadline, corrected orders, or the word `ready`"
        }
    )?;
    if !done.sheet.is_clean() {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant tick`.
fn cmd_tick(
    data: PathBuf,
    campaign: Option<String>,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let mut store = open(&data)?;
    let ids = match campaign {
        Some(id) => vec![id],
        None => store.campaign_ids()?,
    };
    // One campaign's trouble must not stop the others' deadlines.
    let mut failed = false;
    for id in ids {
        match engine::tick(&mut store, &id, clock) {
            Ok(done) if done.is_empty() => {
                let open = engine::OpenPhase::read(&store, &id)?;
                let why = if open.state.finished.is_some() {
                    "the game is over".to_string()
                } else if open.record.paused {
                    "the campaign is paused".to_string()
                } else {
                    format!(
                        "{} of {} sides ready, deadline {}",
                        open.ready.len(),
                        open.state.sides.len(),
                        open.record
                            .deadline
                            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
                    )
                };
                writeln!(out, "{id}: nothing due ({why})")?;
            }
            Ok(done) => {
                for r in done {
                    writeln!(
                        out,
                        "{id}: resolution {}: {} ({} rolls){}",
                        r.k,
                        r.phase_label,
                        r.rolls,
                        match r.reason {
                            Some(adjutant::lifecycle::CloseReason::AllReady) =>
                                ", every side ready",
                            Some(adjutant::lifecycle::CloseReason::Deadline) => ", at its deadline",
                            None => "",
                        }
                    )?;
                }
            }
            Err(e) => {
                failed = true;
                eprintln!("adjutant: {id}: {e}");
            }
        }
    }
    if failed {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant resolve`.
fn cmd_resolve(
    data: PathBuf,
    campaign: String,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let mut store = open(&data)?;
    for r in engine::resolve_now(&mut store, &campaign, clock)? {
        writeln!(
            out,
            "{campaign}: resolution {}: {} ({} rolls)",
            r.k, r.phase_label, r.rolls
        )?;
        for e in &r.events {
            writeln!(out, "  {e}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant umpire`.
fn cmd_umpire(
    data: PathBuf,
    campaign: String,
    call: String,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let mut store = open(&data)?;
    if call.trim().eq_ignore_ascii_case("help") {
        let record = store.campaign(&campaign)?;
        let ruleset =
            adjutant::rules::ruleset_for(&record.campaign.ruleset.id).context("unknown ruleset")?;
        writeln!(out, "{}", ruleset.umpire_help())?;
        return Ok(ExitCode::SUCCESS);
    }
    let (k, report) = engine::umpire(&mut store, &campaign, &call, clock)?;
    writeln!(out, "umpire call {k}\n{report}")?;
    Ok(ExitCode::SUCCESS)
}

/// `adjutant ingest`.
fn cmd_ingest(
    data: PathBuf,
    own_addresses: Vec<String>,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    // sysexits.h: EX_TEMPFAIL makes Postfix and procmail keep the
    // message and retry, so our own failure never bounces a player's
    // orders.
    const EX_TEMPFAIL: u8 = 75;
    let mut raw = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut raw) {
        eprintln!("adjutant: cannot read the message: {e}");
        return Ok(ExitCode::from(EX_TEMPFAIL));
    }
    let config = ingest_config(own_addresses);
    let outcome = Store::open(&data)
        .map_err(adjutant::ingest::IngestError::from)
        .and_then(|mut store| adjutant::ingest::ingest(&mut store, &raw, "stdin", &config, clock));
    match outcome {
        // Held for a phase that is closing: the MTA keeps it and offers it
        // again, by when the daemon has closed the phase.
        Ok(outcome) if outcome.is_held() => {
            eprintln!("adjutant: {}; try again later", outcome.summary());
            return Ok(ExitCode::from(EX_TEMPFAIL));
        }
        Ok(outcome) => writeln!(out, "{}", outcome.summary())?,
        Err(e) => {
            eprintln!("adjutant: {e}; the message was not taken, try again later");
            return Ok(ExitCode::from(EX_TEMPFAIL));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant maildir`.
fn cmd_maildir(
    data: PathBuf,
    own_addresses: Vec<String>,
    maildir: PathBuf,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let _lock = DataDirLock::acquire(&data, "adjutant maildir", clock.now())?;
    let mut store = open(&data)?;
    let config = ingest_config(own_addresses);
    for (name, outcome) in adjutant::inbox::maildir::scan(&maildir, &mut store, &config, clock)? {
        writeln!(out, "{name}: {}", outcome.summary())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant daemon`.
fn cmd_daemon(
    config: PathBuf,
    once: bool,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let mut daemon = daemon_from(&config, clock)?;
    daemon.stop_on_signals()?;
    if once {
        for pass in daemon.run_until_quiet(clock, 1000)? {
            for note in &pass.notes {
                writeln!(out, "{note}")?;
            }
        }
    } else {
        daemon.when_quiet(give_back_free_memory).run(clock)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// glibc gives each new thread an arena of its own, up to eight a core, and
/// the report threads of a burst of resolutions leave each arena holding
/// pages that stay the daemon's until it ends (measured: 26 MB of heap after
/// a burst, against 8 MB with two arenas, for the same work and CPU time;
/// docs/PERFORMANCE.md). Set before any thread starts.
fn hold_allocator_to_two_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt takes two integers and changes a setting of the
    // allocator; called before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
}

/// Returns the memory the allocator holds free to the system. glibc keeps
/// what a burst of resolutions freed (in each report thread's arena too)
/// for reuse, so a daemon that once made a thousand reports would stay at
/// its peak for good; `malloc_trim` gives back every free page of every
/// arena. Elsewhere there is nothing to do.
fn give_back_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointer and only releases pages that the
    // allocator itself holds free; it is safe to call at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// `adjutant send`.
fn cmd_send(config: PathBuf, clock: &dyn Clock, out: &mut impl Write) -> Result<ExitCode> {
    let config = adjutant::daemon::DaemonConfig::load(&config)?;
    init_logs(config.log_level);
    let mut daemon = adjutant::daemon::Daemon::from_config(&config, "adjutant send", clock)?;
    daemon.start(&[], clock)?;
    // Batch after batch until nothing is due: a message that failed
    // waits for its next attempt, so this ends.
    let mut any = false;
    while !daemon.store().outbox_due(clock.now(), 1)?.is_empty() {
        for note in daemon.handle(&adjutant::daemon::Event::OutboxDue, clock)? {
            any = true;
            writeln!(out, "{note}")?;
        }
    }
    if !any {
        writeln!(out, "nothing due in the outbox")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant outbox`.
fn cmd_outbox(
    data: PathBuf,
    campaign: Option<String>,
    requeue: Option<String>,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let mut store = open(&data)?;
    if let Some(id) = requeue {
        if !store.outbox_requeue(&id, clock.now())? {
            bail!("no dead message {id} in the outbox");
        }
        writeln!(out, "{id}: queued again")?;
        return Ok(ExitCode::SUCCESS);
    }
    for e in store.outbox(campaign.as_deref())? {
        let when = match e.status {
            adjutant::store::OutboxStatus::Sent => e
                .sent_at
                .map(|t| format!(" at {}", t.to_rfc3339()))
                .unwrap_or_default(),
            adjutant::store::OutboxStatus::Queued if e.attempts > 0 => {
                format!(", next attempt {}", e.next_attempt_at.to_rfc3339())
            }
            _ => String::new(),
        };
        writeln!(
            out,
            "{} {} to {}: {}{when}, {} attempt(s){}",
            e.mail.message_id,
            e.mail.subject,
            e.mail.recipient,
            e.status.as_str(),
            e.attempts,
            e.last_error
                .map(|err| format!("; last error: {err}"))
                .unwrap_or_default()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant gm`.
fn cmd_gm(
    data: PathBuf,
    campaign: String,
    command: Vec<String>,
    reason: Option<String>,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let mut store = open(&data)?;
    let zone = store.campaign(&campaign)?.campaign.schedule.time_zone;
    let mut parsed = engine::gm::GmCommand::parse(&command.join(" "), &zone)?;
    if let Some(reason) = reason {
        match &mut parsed {
            engine::gm::GmCommand::Correct(_, given @ None) if !reason.trim().is_empty() => {
                *given = Some(reason.trim().to_string());
            }
            engine::gm::GmCommand::Correct(..) => {
                anyhow::bail!(
                    "give the reason once: `--reason` or `because ...`, not both, and not empty"
                )
            }
            _ => anyhow::bail!("`--reason` goes with `correct` only"),
        }
    }
    let report = engine::gm::execute(
        &mut store,
        &campaign,
        &parsed,
        &engine::gm::Origin::cli(),
        clock,
    )?;
    writeln!(
        out,
        "{}: {}\n{}",
        report.command,
        if report.done { "done" } else { "refused" },
        report.outcome
    )?;
    if !report.done {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant archive export`.
fn cmd_archive(
    data: PathBuf,
    campaign: String,
    dir: PathBuf,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let store = open(&data)?;
    let done = archive::export::export(&store, &campaign, &dir)?;
    writeln!(
        out,
        "wrote {} turn resolutions and {} umpire calls to {}",
        done.turns,
        done.calls,
        dir.display()
    )?;
    if done.acts > 0 {
        writeln!(out, "with {} game master's acts", done.acts)?;
    }
    writeln!(out, "the archive follows {}", done.spec)?;
    if done.pending > 0 {
        writeln!(
            out,
            "({} closed phase(s) not yet resolved were left out)",
            done.pending
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant dice`: the dice of one resolution from its seed inputs.
fn cmd_dice(
    campaign: &str,
    turn: Option<u64>,
    umpire: Option<u64>,
    [secret, manifest, prior]: [&String; 3],
    beacon_field: Option<&str>,
    rolls: &[String],
    out: &mut impl Write,
) -> Result<ExitCode> {
    use adjutant::audit::{DiceStream, Die, Kind, SeedInputs};
    let (kind, k) = match (turn, umpire) {
        (Some(k), None) => (Kind::Turn, k),
        (None, Some(k)) => (Kind::Umpire, k),
        _ => anyhow::bail!("give --turn K or --umpire K"),
    };
    let hex = |what: &str, v: &str| {
        Digest32::from_hex(v).with_context(|| format!("{what} must be 64 hex digits"))
    };
    let seed = SeedInputs::seed_of_fields(
        kind,
        campaign,
        k,
        &hex("--secret", secret)?,
        &hex("--manifest", manifest)?,
        &hex("--prior", prior)?,
        &beacon_field.map_or(Ok(Digest32::ZERO), |b| hex("--beacon-field", b))?,
    );
    writeln!(out, "seed {seed}")?;
    for spec in rolls {
        let parsed = spec.split_once(':').and_then(|(i, rest)| {
            let (die, word) = rest.split_once('@')?;
            Some((
                i.parse::<u64>().ok()?,
                Die::parse(die)?,
                word.parse::<u64>().ok()?,
            ))
        });
        let Some((index, die, word)) = parsed else {
            anyhow::bail!("`{spec}` is not INDEX:DIE@FIRST_WORD, e.g. 3:2d6@7");
        };
        let mut stream = DiceStream::new(&seed);
        for _ in 0..word {
            stream.word();
        }
        use adjutant::audit::dice::Dice as _;
        let roll = stream.roll(die, "");
        let faces = stream
            .log()
            .last()
            .map(|r| r.faces.clone())
            .unwrap_or_default();
        writeln!(
            out,
            "#{index} {} = {roll} {faces:?} (stream words from {word})",
            die.label()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `adjutant verify`.
fn cmd_verify(
    dir: PathBuf,
    heads: &[String],
    mail: Option<&Path>,
    out: &mut impl Write,
) -> Result<ExitCode> {
    let verdict = archive::verify::verify(&dir)?;
    let mut failed_anchor = false;
    for head in heads {
        let digest = Digest32::from_hex(head).context("--head must be 64 hex digits")?;
        match verdict.position_of(&digest) {
            Some(0) => writeln!(out, "head {digest}: the record's genesis; it holds it")?,
            Some(e) => writeln!(
                out,
                "head {digest}: entry {e} of the record; the archive holds, unchanged, every entry up to it"
            )?,
            None => {
                failed_anchor = true;
                writeln!(
                    out,
                    "head {digest}: NOT in this archive: it was cut short before that head, or rewritten (or the head is of another campaign)"
                )?;
            }
        }
    }
    if let Some(mail) = mail {
        let check = archive::mail_check::check(&dir, &verdict, mail);
        writeln!(
            out,
            "mail: {} messages read, {} of the campaign; checked {} heads, {} revealed secrets, {} manifest digests, {} commitments{}",
            check.messages,
            check.of_campaign,
            check.heads,
            check.secrets,
            check.manifests,
            check.commitments,
            match check.furthest_entry {
                Some(e) => format!("; the furthest head received is entry {e}"),
                None => String::new(),
            }
        )?;
        for p in &check.problems {
            writeln!(out, "mail: {p}")?;
        }
        failed_anchor |= !check.problems.is_empty();
    }
    if failed_anchor {
        print_verdict(&verdict, out)?;
        return Ok(ExitCode::FAILURE);
    }
    print_verdict(&verdict, out)
}

fn print_verdict(verdict: &archive::verify::Verdict, out: &mut impl Write) -> Result<ExitCode> {
    for line in &verdict.resolutions {
        writeln!(out, "{line}")?;
    }
    if let Some(links) = &verdict.links {
        writeln!(
            out,
            "hash-linked record: genesis and {} entries, head {}",
            links.heads.len().saturating_sub(1),
            links.heads.last().map(|h| h.to_hex()).unwrap_or_default()
        )?;
    }
    for act in &verdict.acts {
        writeln!(out, "{act}")?;
    }
    for p in &verdict.problems {
        writeln!(out, "archive: {p}")?;
    }
    for w in &verdict.warnings {
        writeln!(out, "WARNING: {w}")?;
    }
    let failed = verdict
        .resolutions
        .iter()
        .filter(|r| !r.problems.is_empty())
        .count();
    writeln!(
        out,
        "{}: {} resolutions checked, {} failed, {} problems with the archive as a whole",
        verdict.campaign,
        verdict.resolutions.len(),
        failed,
        verdict.problems.len()
    )?;
    if !verdict.acts.is_empty() {
        let bad = verdict
            .acts
            .iter()
            .filter(|a| !a.problems.is_empty())
            .count();
        writeln!(
            out,
            "{} game master's acts checked, {bad} failed",
            verdict.acts.len()
        )?;
    }
    if !verdict.ok() {
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

fn imap(args: ImapArgs, clock: &dyn Clock, out: &mut impl Write) -> Result<()> {
    use adjutant::inbox::imap::{AfterStore, ImapConfig, ImapInbox, Security};
    use std::time::Duration;

    let password = match &args.password_file {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("reading the password file {}", path.display()))?
            .lines()
            .next()
            .unwrap_or_default()
            .to_string(),
        None => std::env::var(&args.password_env).with_context(|| {
            format!(
                "no IMAP password: set {} or give --password-file",
                args.password_env
            )
        })?,
    };
    let port = args.port.unwrap_or(match args.security {
        Security::Tls => 993,
        Security::StartTls | Security::Plain => 143,
    });
    let mut config = ImapConfig::new(&args.host, port, &args.user, &password);
    config.mailbox = args.mailbox.clone();
    config.security = args.security;
    config.ca_file = args.ca_file.clone();
    if let Some(folder) = &args.move_to {
        config.after = AfterStore::MoveTo(folder.clone());
    }
    let _lock = DataDirLock::acquire(&args.data, "adjutant imap", clock.now())?;
    let mut store = open(&args.data)?;
    let ingest_config = ingest_config(args.own_addresses.clone());
    // IDLE is renewed well inside the 29 minutes RFC 2177 allows.
    let idle_timeout = Duration::from_secs(25 * 60);
    let poll = Duration::from_secs(args.poll_seconds.max(1));
    let mut backoff = Duration::from_secs(5);
    loop {
        let round = (|| -> Result<()> {
            let mut inbox = ImapInbox::connect(config.clone())?;
            loop {
                let summary = inbox.fetch_once(&mut store, &ingest_config, clock)?;
                for (uid, outcome) in &summary.outcomes {
                    writeln!(out, "uid {uid}: {}", outcome.summary())?;
                }
                out.flush()?;
                if args.once {
                    inbox.logout();
                    return Ok(());
                }
                backoff = Duration::from_secs(5);
                let wait = if inbox.supports_idle() {
                    idle_timeout
                } else {
                    poll
                };
                inbox.idle_wait(wait)?;
            }
        })();
        match round {
            Ok(()) => return Ok(()),
            Err(e) if args.once => return Err(e),
            Err(e) => {
                // A dropped connection or a server restart: nothing was lost
                // (a message is flagged only once stored), so try again.
                eprintln!(
                    "adjutant: {}; reconnecting in {} s",
                    in_words(&e),
                    backoff.as_secs()
                );
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(Duration::from_secs(300));
            }
        }
    }
}
