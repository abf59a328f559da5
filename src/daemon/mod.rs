//! The daemon: one event loop over [`Event`]s.
//!
//! Each pass of the loop asks what is pending at the clock's time (a
//! shutdown request, phases due, mail waiting in the inbox, reminders due,
//! messages due in the outbox), in that order, and handles each event
//! through the library: the inbox source and `ingest`, `engine::tick`, the
//! reminder mail, and outbox delivery. Nothing is kept in memory between
//! passes that the store does not also hold, so a restart picks up exactly
//! where the last pass stopped.
//!
//! When a pass finds nothing to do, the loop sleeps until the next thing it
//! knows of (a deadline, the start of a reminder window, a retry) or the
//! poll interval, whichever is sooner, waking early for a shutdown.
//! [`Daemon::run_until_quiet`] runs passes until nothing is pending, which
//! is how tests and the demo drive the loop with a fixed clock.

pub mod config;
pub mod source;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use chrono::{DateTime, Duration, Utc};
use serde_json::json;

use crate::campaign;
use crate::engine::{self, EngineError, mail};
use crate::ingest::IngestConfig;
use crate::lifecycle::{self, Clock};
use crate::outbound::{
    DeliveryPolicy, FileTransport, SendmailTransport, SmtpTransport, Transport, deliver_due,
    reconcile,
};
use crate::resolution;
use crate::rules::ruleset_for;
use crate::store::lock::DataDirLock;
use crate::store::{OutgoingMail, Store, StoreError};
use crate::templates::{TemplateError, Templates};

pub use config::{DaemonConfig, InboxConfig, TransportConfig};
pub use source::{InboxSource, MaildirSource, SourceError, Waited};

/// The longest single wait on an inbox that can announce mail (IMAP IDLE),
/// well under the 29 minutes after which RFC 2177 has a client renew IDLE; a
/// shutdown breaks the wait at once.
pub const IDLE_SPAN: std::time::Duration = std::time::Duration::from_secs(300);

/// Something the daemon has to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Mail may be waiting in the inbox.
    MailArrived,
    /// A campaign's phase is due: its deadline passed, every side that must
    /// has sent orders, or a phase closed before a crash awaits resolving.
    DeadlineReached { campaign: String },
    /// These sides of a campaign have sent no orders, the deadline is near,
    /// and they have not been reminded yet.
    ReminderDue {
        campaign: String,
        sides: Vec<String>,
    },
    /// Messages in the outbox are due to be sent.
    OutboxDue,
    /// SIGTERM or SIGINT: finish the event in hand and stop.
    Shutdown,
}

/// What can stop the daemon, or one event.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DaemonError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Source(#[from] SourceError),
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error(transparent)]
    Smtp(#[from] crate::outbound::smtp::SmtpSetupError),
    #[error("campaign folder {path}:\n{problems}")]
    Campaign {
        path: std::path::PathBuf,
        problems: String,
    },
    #[error("this adjutant does not know the ruleset `{0}`")]
    UnknownRuleset(String),
    #[error(transparent)]
    Lock(#[from] crate::store::lock::LockError),
    #[error(
        "campaign {campaign}: {who}'s address {address} is adjutant's own (its `from`, or one of `own_addresses`), and mail from adjutant's own address is never read, so that no mail loop can start; give adjutant an address of its own (see docs/PLAYERS.md, \"Where orders go\")"
    )]
    OwnAddress {
        campaign: String,
        who: String,
        address: String,
    },
    #[error("cannot watch for SIGTERM and SIGINT: {0}")]
    Signals(std::io::Error),
    #[error("the loop did not settle after {0} passes; see the log")]
    Unsettled(usize),
}

/// Whether an event failed because the store could not write at all.
fn store_unwritable(e: &DaemonError) -> bool {
    match e {
        DaemonError::Store(s) | DaemonError::Engine(EngineError::Store(s)) => s.is_unwritable(),
        _ => false,
    }
}

/// What one pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pass {
    /// The events found, in the order handled.
    pub events: Vec<Event>,
    /// The events that failed, with the error (logged too).
    pub failures: Vec<(Event, String)>,
    /// One line for each thing done (a message handled, a resolution, a
    /// reminder, mail sent), as the log says it.
    pub notes: Vec<String>,
}

/// The daemon and everything it works with.
pub struct Daemon {
    store: Store,
    source: Option<Box<dyn InboxSource>>,
    transport: Box<dyn Transport>,
    policy: DeliveryPolicy,
    ingest: IngestConfig,
    poll: Duration,
    shutdown: Arc<AtomicBool>,
    /// Where each campaign's chronicle is kept current, if anywhere.
    chronicle_dir: Option<PathBuf>,
    /// The data directory's lock, for a daemon made from its configuration:
    /// no other daemon, `send` or inbox reader runs on the same store.
    _lock: Option<DataDirLock>,
}

impl Daemon {
    /// A daemon over an open store. Registers nothing and sends nothing yet;
    /// call [`Daemon::start`] before the first pass.
    pub fn new(
        store: Store,
        source: Option<Box<dyn InboxSource>>,
        transport: Box<dyn Transport>,
        policy: DeliveryPolicy,
        ingest: IngestConfig,
        poll: Duration,
    ) -> Daemon {
        Daemon {
            store,
            source,
            transport,
            policy,
            ingest,
            poll,
            shutdown: Arc::new(AtomicBool::new(false)),
            chronicle_dir: None,
            _lock: None,
        }
    }

    /// Keeps each campaign's chronicle current in `dir` (see
    /// `chronicle::publish`): rewritten after every resolution or act.
    pub fn with_chronicle(mut self, dir: Option<PathBuf>) -> Daemon {
        self.chronicle_dir = dir;
        self
    }

    /// Rewrites the chronicle of every campaign whose record moved on since
    /// it was last written. What was written is told by a stamp file beside
    /// it (the counts of resolutions and acts), so a restart rewrites
    /// nothing that is current. A failure is logged and noted, never fatal:
    /// the game has already moved on.
    fn keep_chronicles(&self) -> Vec<String> {
        let Some(dir) = &self.chronicle_dir else {
            return Vec::new();
        };
        let mut notes = Vec::new();
        let ids = match self.store.campaign_ids() {
            Ok(ids) => ids,
            Err(e) => return vec![format!("chronicles: {e}")],
        };
        for id in ids {
            let stamp = match (self.store.resolution_counts(&id), self.store.gm_acts(&id)) {
                (Ok((turns, calls)), Ok(acts)) => format!("{turns} {calls} {}\n", acts.len()),
                _ => continue,
            };
            let stamp_file = dir.join(format!("{id}.stamp"));
            if std::fs::read_to_string(&stamp_file).ok().as_deref() == Some(stamp.as_str()) {
                continue;
            }
            match crate::chronicle::publish::publish(&self.store, &id, dir).and_then(|top| {
                std::fs::write(&stamp_file, &stamp)
                    .map(|()| top)
                    .map_err(|source| crate::chronicle::ChronicleError::Write {
                        path: stamp_file.clone(),
                        source,
                    })
            }) {
                Ok(top) => {
                    tracing::info!(campaign = %id, dir = %top.display(), "chronicle written");
                    notes.push(format!("{id}: chronicle written in {}", top.display()));
                }
                Err(e) => {
                    tracing::warn!(campaign = %id, "chronicle not written: {e}");
                    notes.push(format!("{id}: chronicle not written: {e}"));
                }
            }
        }
        notes
    }

    /// A daemon as the configuration file describes it, holding the lock of
    /// its data directory for `what` (`adjutant daemon`).
    pub fn from_config(
        config: &DaemonConfig,
        what: &str,
        clock: &dyn Clock,
    ) -> Result<Daemon, DaemonError> {
        let lock = DataDirLock::acquire(&config.data_dir, what, clock.now())?;
        let store = Store::open(&config.data_dir)?;
        let source: Option<Box<dyn InboxSource>> = match &config.inbox {
            InboxConfig::Maildir { path } => Some(Box::new(MaildirSource::new(path))),
            InboxConfig::Imap(imap) => {
                let connection = imap.connection().map_err(|message| SourceError {
                    source_name: format!("imap {}@{}", imap.user, imap.host),
                    message,
                })?;
                Some(Box::new(crate::inbox::imap::ImapSource::new(connection)))
            }
            InboxConfig::None => None,
        };
        let transport: Box<dyn Transport> = match &config.transport {
            TransportConfig::Smtp(smtp) => Box::new(SmtpTransport::new(smtp)?),
            TransportConfig::Sendmail { command } => Box::new(SendmailTransport::new(command)),
            TransportConfig::File { dir } => Box::new(FileTransport::new(dir)),
        };
        let mut own = config.mail.own_addresses.clone();
        if let Ok(from) = config.mail.from.parse::<lettre::message::Mailbox>() {
            own.push(from.email.to_string());
        }
        let ingest = IngestConfig {
            own_addresses: own,
            reply_domain: config.mail.reply_domain.clone(),
            limits: config.mail.limits(),
            ..IngestConfig::default()
        };
        let mut daemon = Daemon::new(
            store,
            source,
            transport,
            config.outbox.clone(),
            ingest,
            Duration::seconds(i64::from(config.intervals.poll_seconds)),
        );
        daemon._lock = Some(lock);
        Ok(daemon.with_chronicle(config.chronicle_dir.clone()))
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn store_mut(&mut self) -> &mut Store {
        &mut self.store
    }

    /// The flag that asks the loop to stop; setting it is what a signal does.
    pub fn shutdown_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.shutdown)
    }

    /// Makes SIGTERM and SIGINT set the shutdown flag, so the loop finishes
    /// the event in hand, and stops between two events.
    pub fn stop_on_signals(&self) -> Result<(), DaemonError> {
        for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
            signal_hook::flag::register(signal, Arc::clone(&self.shutdown))
                .map_err(DaemonError::Signals)?;
        }
        Ok(())
    }

    /// Registers the campaign folders not yet in the store, then settles
    /// what a crash left in flight in the outbox. Run once, before the loop.
    pub fn start(&mut self, campaigns: &[&Path], clock: &dyn Clock) -> Result<(), DaemonError> {
        let known = self.store.campaign_ids()?;
        for dir in campaigns {
            let loaded = campaign::load(dir).map_err(|p| DaemonError::Campaign {
                path: dir.to_path_buf(),
                problems: p.to_string(),
            })?;
            if known.contains(&loaded.id) {
                continue;
            }
            let record = engine::init(&mut self.store, &loaded, dir, clock)?;
            tracing::info!(campaign = %loaded.id, commitment = %record.commitment, "registered");
        }
        self.check_own_addresses()?;
        let settled = reconcile(
            &mut self.store,
            self.transport.as_ref(),
            &self.policy,
            clock,
        )?;
        if !settled.is_empty() {
            tracing::info!(?settled, "outbox reconciled after a restart");
        }
        tracing::info!(
            transport = %self.transport.describe(),
            inbox = %self.source.as_ref().map_or("none".to_string(), |s| s.describe()),
            "started"
        );
        Ok(())
    }

    /// Refuses to run when a campaign's GM or player writes from an address
    /// of adjutant's own: that mail would be ignored as adjutant's, without
    /// a word (a GM reading orders from the mailbox adjutant sends from).
    fn check_own_addresses(&self) -> Result<(), DaemonError> {
        for id in self.store.campaign_ids()? {
            let campaign = self.store.campaign(&id)?.campaign;
            let people = std::iter::once(("the GM".to_string(), &campaign.gm)).chain(
                campaign
                    .players
                    .iter()
                    .map(|p| (format!("the player of {}", p.side), &p.person)),
            );
            for (who, person) in people {
                if self
                    .ingest
                    .own_addresses
                    .iter()
                    .any(|a| a.eq_ignore_ascii_case(&person.address))
                {
                    return Err(DaemonError::OwnAddress {
                        campaign: id.clone(),
                        who,
                        address: person.address.clone(),
                    });
                }
            }
        }
        Ok(())
    }

    /// What is pending at the clock's time, in the order to handle it.
    pub fn pending(&mut self, clock: &dyn Clock) -> Result<Vec<Event>, DaemonError> {
        if self.shutdown.load(Ordering::SeqCst) {
            return Ok(vec![Event::Shutdown]);
        }
        let now = clock.now();
        let mut events = Vec::new();
        // A phase already due is closed before mail that waits is taken:
        // orders that came after every side was in (or after the deadline)
        // are for the next phase, however late the daemon gets to them (a
        // restart, a store that could not be written).
        let ids = self.store.campaign_ids()?;
        for id in &ids {
            match self.phase_due(id, now) {
                Ok(true) => events.push(Event::DeadlineReached {
                    campaign: id.clone(),
                }),
                Ok(false) => {}
                Err(e) => {
                    tracing::error!(campaign = %id, "cannot tell whether a phase is due: {e}")
                }
            }
        }
        // A source that cannot be reached (a network down, a folder made
        // unreadable) or a campaign that cannot be read is logged and passed
        // over: the rest of the daemon's work goes on, and the next pass
        // looks again.
        if let Some(source) = self.source.as_mut() {
            match source.pending() {
                Ok(true) => events.push(Event::MailArrived),
                Ok(false) => {}
                Err(e) => tracing::warn!("{e}"),
            }
        }
        for id in &ids {
            match self.reminders(id, now) {
                Ok(due) if !due.is_empty() => events.push(Event::ReminderDue {
                    campaign: id.clone(),
                    sides: due.into_iter().map(|(side, _)| side).collect(),
                }),
                Ok(_) => {}
                Err(e) => {
                    tracing::error!(campaign = %id, "cannot tell whether reminders are due: {e}")
                }
            }
        }
        // A message left marked in flight by this process (its send's result
        // could not be recorded: a full disk) is settled by the outbox pass,
        // not only after a restart.
        if !self.store.outbox_due(now, 1)?.is_empty() || !self.store.outbox_in_flight()?.is_empty()
        {
            events.push(Event::OutboxDue);
        }
        Ok(events)
    }

    fn phase_due(&self, id: &str, now: DateTime<Utc>) -> Result<bool, DaemonError> {
        let pending = self.store.pending_resolutions(id)?;
        let record = self.store.campaign(id)?;
        if let Some(first) = pending.first() {
            // A turn waiting for its beacon round is due when the round may
            // be had, not before: the loop does not spin on it.
            return Ok(engine::beacon::next_try(&record, first).is_none_or(|t| t <= now));
        }
        if record.paused {
            return Ok(false);
        }
        let state = self.store.state(&record.current_state_digest)?;
        let sent = engine::sides_in(&self.store, id)?;
        Ok(lifecycle::due(&state, record.deadline, &sent, now).is_some())
    }

    /// The reminders due in a campaign at `now` and not yet queued: each
    /// side with its messages, one per player of the side.
    fn reminders(
        &self,
        id: &str,
        now: DateTime<Utc>,
    ) -> Result<Vec<(String, Vec<OutgoingMail>)>, DaemonError> {
        let record = self.store.campaign(id)?;
        if record.paused {
            return Ok(Vec::new());
        }
        let c = &record.campaign;
        let ruleset = ruleset_for(&c.ruleset.id)
            .ok_or_else(|| DaemonError::UnknownRuleset(c.ruleset.id.clone()))?;
        let state = self.store.state(&record.current_state_digest)?;
        if state.finished.is_some() {
            return Ok(Vec::new());
        }
        let sent = engine::sides_in(&self.store, id)?;
        let sides =
            lifecycle::reminders_due(ruleset, &state, &c.schedule, record.deadline, &sent, now);
        if sides.is_empty() {
            return Ok(Vec::new());
        }
        let key = resolution::phase_key(ruleset, &state);
        let phase = resolution::phase_label(ruleset, &state);
        let templates = Templates::for_campaign(&record.source_dir)?;
        let mut due = Vec::new();
        for side in sides {
            let side_name = c
                .sides
                .iter()
                .find(|s| s.id == side)
                .map_or(side.clone(), |s| s.name.clone());
            let mut messages = Vec::new();
            for player in c.players.iter().filter(|p| p.side == side) {
                let p = &player.person;
                // One Message-ID per phase, side and player: queued once,
                // however often the loop looks, and however often it restarts.
                let message_id = mail::message_id(c, &format!("remind.{key}.{side}"), &p.address);
                if self.store.outbox_has(&message_id)? {
                    continue;
                }
                let body = templates.render(
                    "reminder.txt",
                    json!({
                        "campaign": {"id": c.id, "title": c.title},
                        "side": side_name,
                        "phase": phase,
                        "deadline": crate::lifecycle::local_time(p, record.deadline),
                        "no_orders": c.no_orders_policy,
                    }),
                )?;
                messages.push(OutgoingMail::text(
                    message_id,
                    p.address.clone(),
                    format!("[{}] reminder: your orders for {phase}", c.id),
                    body,
                ));
            }
            if !messages.is_empty() {
                due.push((side, messages));
            }
        }
        Ok(due)
    }

    /// Handles one event; returns a line for each thing done.
    pub fn handle(&mut self, event: &Event, clock: &dyn Clock) -> Result<Vec<String>, DaemonError> {
        let mut notes = Vec::new();
        match event {
            Event::Shutdown => {}
            Event::MailArrived => {
                let Some(source) = self.source.as_mut() else {
                    return Ok(notes);
                };
                for (name, outcome) in source.take(&mut self.store, &self.ingest, clock)? {
                    tracing::info!(message = %name, "{}", outcome.summary());
                    notes.push(format!("mail {name}: {}", outcome.summary()));
                }
                // A GM's command by mail may have resolved a phase, asked an
                // umpire call or corrected the state.
                notes.extend(self.keep_chronicles());
            }
            Event::DeadlineReached { campaign } => {
                for r in engine::tick(&mut self.store, campaign, clock)? {
                    tracing::info!(
                        %campaign,
                        k = r.k,
                        phase = %r.phase_label,
                        reason = ?r.reason,
                        rolls = r.rolls,
                        "resolved"
                    );
                    notes.push(format!(
                        "{campaign}: resolution {} ({}), {} rolls",
                        r.k, r.phase_label, r.rolls
                    ));
                }
                notes.extend(self.keep_chronicles());
            }
            Event::ReminderDue { campaign, .. } => {
                let now = clock.now();
                for (side, messages) in self.reminders(campaign, now)? {
                    let n = self.store.queue(Some(campaign), &messages, now)?;
                    tracing::info!(%campaign, %side, messages = n, "reminder queued");
                    notes.push(format!("{campaign}: reminder to {side} queued"));
                }
            }
            Event::OutboxDue => {
                // Nothing else sends from this store (the data directory's
                // lock), and no send of this process is under way between
                // two events: a message marked in flight is one whose result
                // the store could not take, and is settled as after a crash.
                let settled = reconcile(
                    &mut self.store,
                    self.transport.as_ref(),
                    &self.policy,
                    clock,
                )?;
                if !settled.is_empty() {
                    tracing::info!(
                        ?settled,
                        "outbox: sends whose result was not recorded settled"
                    );
                }
                let report = deliver_due(
                    &mut self.store,
                    self.transport.as_ref(),
                    &self.policy,
                    clock,
                )?;
                tracing::debug!(?report, "outbox pass");
                if !report.sent.is_empty() {
                    notes.push(format!("sent {} message(s)", report.sent.len()));
                }
                if !report.retried.is_empty() {
                    notes.push(format!(
                        "{} message(s) to be tried again",
                        report.retried.len()
                    ));
                }
                for (id, error) in &report.dead {
                    notes.push(format!("dead letter {id}: {error}"));
                }
            }
        }
        Ok(notes)
    }

    /// Finds what is pending and handles it, once. A failing event is logged
    /// and the others still run: one campaign's trouble must not hold up
    /// another's mail.
    pub fn pass(&mut self, clock: &dyn Clock) -> Result<Pass, DaemonError> {
        let events = self.pending(clock)?;
        let mut failures = Vec::new();
        let mut notes = Vec::new();
        // A due phase the store could not close (its disk full, read-only):
        // the mail waits too, or orders meant for the next phase would count
        // for this one.
        let mut unclosed = None;
        for event in &events {
            if *event == Event::Shutdown {
                break;
            }
            if *event == Event::MailArrived
                && let Some(campaign) = &unclosed
            {
                let e = format!("mail waits until the store can close the due phase of {campaign}");
                tracing::warn!("{e}");
                failures.push((event.clone(), e));
                continue;
            }
            match self.handle(event, clock) {
                Ok(mut n) => notes.append(&mut n),
                Err(e) => {
                    tracing::error!(?event, "{e}");
                    if let Event::DeadlineReached { campaign } = event
                        && store_unwritable(&e)
                    {
                        unclosed = Some(campaign.clone());
                    }
                    failures.push((event.clone(), e.to_string()));
                }
            }
        }
        Ok(Pass {
            events,
            failures,
            notes,
        })
    }

    /// Runs passes until nothing is pending (or a shutdown is asked for).
    /// Returns every pass. Fails if the loop does not settle within
    /// `max_passes` or a pass has nothing but failures (it would never
    /// settle).
    pub fn run_until_quiet(
        &mut self,
        clock: &dyn Clock,
        max_passes: usize,
    ) -> Result<Vec<Pass>, DaemonError> {
        let mut passes = Vec::new();
        for _ in 0..max_passes {
            let pass = self.pass(clock)?;
            let quiet = pass.events.is_empty() || pass.events.contains(&Event::Shutdown);
            let stuck = !pass.events.is_empty() && pass.failures.len() == pass.events.len();
            passes.push(pass);
            if quiet {
                return Ok(passes);
            }
            if stuck {
                return Err(DaemonError::Unsettled(passes.len()));
            }
        }
        Err(DaemonError::Unsettled(max_passes))
    }

    /// When the loop must look again at the latest: the next deadline, the
    /// next reminder window, the next retry, or the poll interval.
    pub fn next_wake(&self, now: DateTime<Utc>) -> Result<DateTime<Utc>, DaemonError> {
        let mut wake = now + self.poll;
        for id in self.store.campaign_ids()? {
            let record = self.store.campaign(&id)?;
            let lead = Duration::minutes(i64::from(record.campaign.schedule.reminder_minutes));
            let beacon = self
                .store
                .pending_resolutions(&id)?
                .first()
                .and_then(|closed| engine::beacon::next_try(&record, closed));
            for t in [record.deadline, record.deadline - lead]
                .into_iter()
                .chain(beacon)
            {
                if t > now && t < wake {
                    wake = t;
                }
            }
        }
        if let Some(t) = self.store.outbox_next_due()?
            && t < wake
        {
            wake = t.max(now);
        }
        Ok(wake)
    }

    /// Waits until `wake`, a shutdown, or (with a source that can tell, as
    /// IMAP IDLE does) the arrival of mail. The source watches the shutdown
    /// flag while it waits, so SIGTERM is answered at once.
    fn wait_until(&mut self, wake: DateTime<Utc>, clock: &dyn Clock) {
        let mut can_idle = true;
        while clock.now() < wake && !self.shutdown.load(Ordering::SeqCst) {
            let left = (wake - clock.now()).to_std().unwrap_or_default();
            if left.is_zero() {
                break;
            }
            if can_idle && let Some(source) = self.source.as_mut() {
                match source.wait_for_mail(left.min(IDLE_SPAN), &self.shutdown) {
                    Ok(Waited::MailMayBeWaiting) => return,
                    Ok(Waited::TimedOut) => continue,
                    Ok(Waited::Unsupported) => can_idle = false,
                    Err(e) => {
                        // The next pass reconnects and logs what fails then;
                        // until the wake, plain sleep, so that a server that
                        // is down is not hammered.
                        tracing::warn!("waiting for mail: {e}");
                        can_idle = false;
                    }
                }
            }
            std::thread::sleep(left.min(std::time::Duration::from_millis(250)));
        }
    }

    /// The daemon's life: passes until a shutdown is asked for, sleeping in
    /// between. Errors of single events are logged and the loop goes on; an
    /// error of the loop itself (the store cannot be read) stops it.
    pub fn run(&mut self, clock: &dyn Clock) -> Result<(), DaemonError> {
        loop {
            let pass = self.pass(clock)?;
            if pass.events.contains(&Event::Shutdown) {
                tracing::info!("shutting down");
                return Ok(());
            }
            // Work found means more may follow at once (an accepted order
            // can make a phase due); a pass that only failed waits, so a
            // broken campaign does not spin.
            if !pass.events.is_empty() && pass.failures.len() < pass.events.len() {
                continue;
            }
            let wake = self.next_wake(clock.now())?;
            self.wait_until(wake, clock);
        }
    }
}
