//! The `adjutant` command's parts: one module for each group of commands,
//! and what they share (opening the store, starting the daemon, logs, how
//! an error is put into words).

pub mod args;
pub mod audit;
pub mod mail;
pub mod memory;
pub mod setup;
pub mod turns;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};

use adjutant::audit::Digest32;
use adjutant::lifecycle::Clock;
use adjutant::store::Store;
use adjutant::store::lock::DataDirLock;
use adjutant::{archive, campaign, engine};

use args::ImapArgs;
use memory::give_back_free_memory;

/// An error and its causes in one line, each cause told once: the library's
/// messages often end with their cause already (`cannot read F: reason`), and
/// the chain would say the reason again.
pub(crate) fn in_words(e: &anyhow::Error) -> String {
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
pub(crate) fn init_logs(level: tracing::Level) {
    // A second call (tests running the CLI in-process) keeps the first.
    let _ = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .try_init();
}

pub(crate) fn daemon_from(config: &Path, clock: &dyn Clock) -> Result<adjutant::daemon::Daemon> {
    let config = adjutant::daemon::DaemonConfig::load(config)?;
    init_logs(config.log_level);
    let mut daemon = adjutant::daemon::Daemon::from_config(&config, "adjutant daemon", clock)?;
    let campaigns: Vec<&Path> = config.campaigns.iter().map(PathBuf::as_path).collect();
    daemon.start(&campaigns, clock)?;
    Ok(daemon)
}

pub(crate) fn ingest_config(own_addresses: Vec<String>) -> adjutant::ingest::IngestConfig {
    adjutant::ingest::IngestConfig {
        own_addresses,
        ..Default::default()
    }
}

pub(crate) fn open(data: &Path) -> Result<Store> {
    Store::open(data).with_context(|| format!("opening the store in {}", data.display()))
}
