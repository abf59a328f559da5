//! Commands that take in and send mail: `ingest`, `maildir`, `imap`,
//! `daemon`, `send`, `outbox`.

use super::*;

/// `adjutant ingest`.
pub(crate) fn cmd_ingest(
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
pub(crate) fn cmd_maildir(
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
pub(crate) fn cmd_daemon(
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

/// `adjutant send`.
pub(crate) fn cmd_send(
    config: PathBuf,
    clock: &dyn Clock,
    out: &mut impl Write,
) -> Result<ExitCode> {
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
pub(crate) fn cmd_outbox(
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

pub(crate) fn imap(args: ImapArgs, clock: &dyn Clock, out: &mut impl Write) -> Result<()> {
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
