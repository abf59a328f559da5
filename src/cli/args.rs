//! The command line: every command and its arguments, as clap reads them.

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "adjutant",
    version,
    about = "A play-by-email turn adjudicator for tabletop wargames, with audited dice."
)]
pub(crate) struct Cli {
    /// Pretend it is this time (RFC 3339), for tests and replays.
    #[arg(long, global = true, hide = true)]
    pub(crate) now: Option<DateTime<Utc>>,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
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
pub(crate) struct ImapArgs {
    #[arg(long, default_value = "./var")]
    pub(crate) data: PathBuf,
    #[arg(long = "own-address")]
    pub(crate) own_addresses: Vec<String>,
    /// The IMAP server's name or address.
    #[arg(long)]
    pub(crate) host: String,
    /// The port; by default 993 for tls, 143 for starttls and plain.
    #[arg(long)]
    pub(crate) port: Option<u16>,
    #[arg(long)]
    pub(crate) user: String,
    /// A file holding the password (its first line). Never given on the
    /// command line, where other users of the machine could read it.
    #[arg(long, conflicts_with = "password_env")]
    pub(crate) password_file: Option<PathBuf>,
    /// The environment variable holding the password.
    #[arg(long, default_value = "ADJUTANT_IMAP_PASSWORD")]
    pub(crate) password_env: String,
    #[arg(long, default_value = "INBOX")]
    pub(crate) mailbox: String,
    /// tls, starttls, or plain (plain only to a loopback address).
    #[arg(long, default_value = "tls")]
    pub(crate) security: adjutant::inbox::imap::Security,
    /// PEM certificates to trust besides the system's.
    #[arg(long)]
    pub(crate) ca_file: Option<PathBuf>,
    /// Move each stored message to this folder instead of flagging it seen.
    #[arg(long)]
    pub(crate) move_to: Option<String>,
    /// Take what is waiting and stop.
    #[arg(long)]
    pub(crate) once: bool,
    /// Seconds between polls when the server has no IDLE.
    #[arg(long, default_value_t = 60)]
    pub(crate) poll_seconds: u64,
}

#[derive(Subcommand)]
pub(crate) enum ArchiveCommand {
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
