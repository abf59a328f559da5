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

mod calm;
pub mod config;
mod sender;
pub use crate::inbox::source;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

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
use crate::store::lock::DataDirLock;
use crate::store::{OutgoingMail, Store, StoreError};
use crate::templates::{TemplateError, Templates};

pub use config::{DaemonConfig, InboxConfig, TransportConfig};
pub use source::{InboxSource, MaildirSource, SourceError, Waited};

/// The longest single wait on an inbox that can announce mail (IMAP IDLE),
/// well under the 29 minutes after which RFC 2177 has a client renew IDLE; a
/// shutdown breaks the wait at once.
pub const IDLE_SPAN: std::time::Duration = std::time::Duration::from_secs(300);

/// How long a daemon that stops for a loosened store waits for the outbox's
/// thread to send the GMs' notes.
const SEND_BEFORE_STOPPING: std::time::Duration = std::time::Duration::from_secs(30);

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
    #[error("cannot start the outbox's thread: {0}")]
    Thread(std::io::Error),
    /// Every message waiting is held until its campaign's phase is closed
    /// (a resolution waiting for its beacon round): nothing to do yet.
    #[error("{0} message(s) wait until their campaign's phase is closed")]
    MailWaits(usize),
    /// The data directory or the store was made readable by others while
    /// the daemon ran: it stops rather than go on leaking.
    #[error(
        "stopped: the store is no longer its owner's alone, and it holds every campaign's unrevealed secrets: {0}. Each campaign's GM was mailed a note; the daemon will not start until the mode is restored"
    )]
    Loosened(String),
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
    /// The events that found only mail to hold for a later phase: neither
    /// done nor failed, and nothing to do until time passes.
    pub waiting: usize,
}

impl Pass {
    /// Whether the pass did anything, so that more may follow at once.
    fn worked(&self) -> bool {
        self.failures.len() + self.waiting < self.events.len()
    }
}

/// The daemon and everything it works with.
pub struct Daemon {
    store: Store,
    source: Option<Box<dyn InboxSource>>,
    transport: Arc<dyn Transport>,
    policy: DeliveryPolicy,
    /// Set while [`Daemon::run`] sends the outbox from a thread of its own
    /// (`sender`): the loop's passes then leave the outbox alone.
    sending_apart: bool,
    ingest: IngestConfig,
    poll: Duration,
    shutdown: Arc<AtomicBool>,
    /// Where each campaign's chronicle is kept current, if anywhere.
    chronicle_dir: Option<PathBuf>,
    /// When each campaign next needs the loop (see [`calm`]).
    calm: calm::Calm,
    /// Called when the loop goes quiet after work (see [`Daemon::when_quiet`]).
    when_quiet: Option<fn()>,
    /// How many due campaigns are resolved at once (see
    /// [`Daemon::resolving_at_once`]).
    resolvers: usize,
    /// The data directory's lock, for a daemon made from its configuration:
    /// no other daemon, `send` or inbox reader runs on the same store.
    _lock: Option<DataDirLock>,
}

/// What one campaign needs at a moment, worked out in one read of it.
#[derive(Debug, Default)]
struct Needs {
    /// Its phase is due to close (or a closed one to be resolved).
    due: bool,
    /// The sides whose reminders are due and not yet all queued.
    reminders: Vec<String>,
    /// When none of that holds: the earliest time it may, if nothing else
    /// changes the campaign (its deadline, its reminders, a beacon round).
    quiet_until: Option<DateTime<Utc>>,
    /// Every time ahead at which it will need something: its reminder
    /// window, its deadline, a beacon round.
    times: Vec<DateTime<Utc>>,
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
        let shutdown = Arc::new(AtomicBool::new(false));
        // A batch of mail being taken stops between two messages when the
        // daemon is to stop.
        let ingest = IngestConfig {
            stop: Arc::clone(&shutdown),
            ..ingest
        };
        Daemon {
            store,
            source,
            transport: Arc::from(transport),
            policy,
            sending_apart: false,
            ingest,
            poll,
            shutdown,
            chronicle_dir: None,
            calm: calm::Calm::default(),
            when_quiet: None,
            resolvers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            _lock: None,
        }
    }

    /// Resolves up to `n` due campaigns at once, each on a thread of its
    /// own (one: one after another). By default, as many as the machine
    /// has cores.
    pub fn resolving_at_once(mut self, n: usize) -> Daemon {
        self.resolvers = n.max(1);
        self
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

    /// Has the loop call `f` each time it goes quiet after doing work,
    /// before it sleeps: the program gives the allocator's freed memory
    /// back to the system there (a burst of resolutions leaves much of it
    /// free but held), which the library, having no unsafe code, cannot.
    pub fn when_quiet(mut self, f: fn()) -> Daemon {
        self.when_quiet = Some(f);
        self
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// A failed step in words for the log, with what the data directory's
    /// disk says when it cannot be written: the store's own error may be
    /// no more than "disk I/O error", and an operator needs the cause.
    fn failure_in_words(&self, e: &impl std::fmt::Display) -> String {
        let words = e.to_string();
        match self.store.disk_trouble() {
            Some(trouble) if !words.contains(&trouble.to_string()) => format!("{words}; {trouble}"),
            _ => words,
        }
    }

    pub fn store_mut(&mut self) -> &mut Store {
        // Whoever writes through it may change any campaign.
        self.calm.forget_all();
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
        let mut new = Vec::new();
        for dir in campaigns {
            let loaded = campaign::load(dir).map_err(|p| DaemonError::Campaign {
                path: dir.to_path_buf(),
                problems: p.to_string(),
            })?;
            if !known.contains(&loaded.id) {
                new.push((dir, loaded));
            }
        }
        // Everything is checked before anything is registered: a daemon
        // that refuses to start leaves the store as it found it.
        for id in &known {
            self.check_own_addresses(&self.store.campaign_definition(id)?)?;
        }
        for (_, loaded) in &new {
            self.check_own_addresses(loaded)?;
        }
        for (dir, loaded) in new {
            let record = engine::init(&mut self.store, &loaded, dir, clock)?;
            tracing::info!(campaign = %loaded.id, commitment = %record.commitment, "registered");
        }
        self.settle_in_flight(clock, "outbox reconciled after a restart")?;
        self.drop_old_attachments(clock);
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
    fn check_own_addresses(&self, campaign: &campaign::Campaign) -> Result<(), DaemonError> {
        let people = std::iter::once(("the GM".to_string(), &campaign.gm)).chain(
            campaign
                .players
                .iter()
                .map(|p| (format!("the player of {}", p.side), &p.person)),
        );
        for (who, person) in people {
            let own = self
                .ingest
                .own_addresses
                .iter()
                .any(|a| a.eq_ignore_ascii_case(&person.address));
            if own {
                return Err(DaemonError::OwnAddress {
                    campaign: campaign.id.clone(),
                    who,
                    address: person.address.clone(),
                });
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
        self.calm.under(self.store.data_version()?);
        let mut reminders = Vec::new();
        for id in &ids {
            if self.calm.quiet(id, now) {
                continue;
            }
            match self.needs(id, now) {
                Ok(needs) => {
                    if needs.due {
                        events.push(Event::DeadlineReached {
                            campaign: id.clone(),
                        });
                    } else if !needs.reminders.is_empty() {
                        reminders.push(Event::ReminderDue {
                            campaign: id.clone(),
                            sides: needs.reminders,
                        });
                    } else if let Some(t) = needs.quiet_until {
                        self.calm.hold(id, t, needs.times);
                    }
                }
                Err(e) => {
                    let words = self.failure_in_words(&e);
                    tracing::error!(campaign = %id, "cannot tell what the campaign needs: {words}")
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
        events.extend(reminders);
        // A message left marked in flight by this process (its send's result
        // could not be recorded: a full disk) is settled by the outbox pass,
        // not only after a restart.
        let outbox_due = !self.sending_apart
            && (!self.store.outbox_due(now, 1)?.is_empty()
                || !self.store.outbox_in_flight()?.is_empty());
        if outbox_due {
            events.push(Event::OutboxDue);
        }
        Ok(events)
    }

    /// Drops the attachments of messages sent longer ago than the policy
    /// keeps them (`keep_sent_attachments_days`), so that the store grows
    /// by the text of the mail, not its maps. Done when the daemon starts
    /// and each time the loop goes quiet after work; a failure is logged
    /// (it is tried again then) and stops nothing.
    pub fn drop_old_attachments(&mut self, clock: &dyn Clock) -> usize {
        let days = self.policy.keep_sent_attachments_days;
        if days == 0 {
            return 0;
        }
        let before = clock.now() - Duration::days(i64::from(days));
        match self.store.outbox_drop_sent_attachments(before) {
            Ok(0) => 0,
            Ok(n) => {
                tracing::info!(
                    attachments = n,
                    days,
                    "attachments of mail sent long ago dropped from the store"
                );
                n
            }
            Err(e) => {
                tracing::warn!("cannot drop old attachments: {e}");
                0
            }
        }
    }

    /// Settles the messages marked in flight whose result was never
    /// recorded (`outbound::reconcile`), and logs them with `why`.
    fn settle_in_flight(&mut self, clock: &dyn Clock, why: &str) -> Result<(), DaemonError> {
        let settled = reconcile(
            &mut self.store,
            self.transport.as_ref(),
            &self.policy,
            clock,
        )?;
        if !settled.is_empty() {
            tracing::info!(?settled, "{why}");
        }
        Ok(())
    }

    /// What campaign `id` needs at `now`: whether its phase is due, which
    /// reminders are due and not yet queued, and else when it may next need
    /// something.
    fn needs(&self, id: &str, now: DateTime<Utc>) -> Result<Needs, DaemonError> {
        if let Some(first) = self.store.pending_resolutions(id)?.first() {
            // A turn waiting for its beacon round is due when the round may
            // be had, not before: the loop does not spin on it.
            let record = self.store.campaign(id)?;
            return Ok(match engine::beacon::next_try(&record, first) {
                Some(t) if t > now => Needs {
                    quiet_until: Some(t),
                    times: vec![t],
                    ..Needs::default()
                },
                _ => Needs {
                    due: true,
                    ..Needs::default()
                },
            });
        }
        let open = engine::OpenPhase::read(&self.store, id)?;
        if open.at_rest() {
            return Ok(Needs {
                quiet_until: Some(DateTime::<Utc>::MAX_UTC),
                ..Needs::default()
            });
        }
        if open.due(now).is_some() {
            return Ok(Needs {
                due: true,
                ..Needs::default()
            });
        }
        let (record, c, key) = (&open.record, &open.record.campaign, &open.key);
        let mut reminders = Vec::new();
        for (side, which) in lifecycle::reminders_due(
            open.ruleset,
            &open.state,
            &c.schedule,
            record.deadline,
            &open.ready,
            now,
        ) {
            for player in c.players.iter().filter(|p| p.side == side) {
                if !self
                    .store
                    .outbox_has(&reminder_id(c, key, which, &side, &player.person))?
                {
                    reminders.push(side);
                    break;
                }
            }
        }
        if self.late_notice(&open, now)?.is_some() {
            reminders.push("the game master".to_string());
        }
        // The next times anything may change: each reminder's window, the
        // deadline, the end of a grace.
        let lead = |minutes: u32| record.deadline - Duration::minutes(i64::from(minutes));
        let mut times: Vec<DateTime<Utc>> = [
            c.schedule.reminder_minutes,
            c.schedule.last_reminder_minutes,
        ]
        .into_iter()
        .filter(|m| *m > 0)
        .map(lead)
        .collect();
        times.push(record.deadline);
        times.push(open.closes_at());
        let quiet_until = times
            .iter()
            .copied()
            .filter(|t| *t > now)
            .min()
            .unwrap_or_else(|| open.closes_at());
        Ok(Needs {
            reminders,
            quiet_until: Some(quiet_until),
            times,
            ..Needs::default()
        })
    }

    /// Queues the GM's note of who is late, if it is due: before a phase
    /// closes at its deadline without them, whether campaigns are resolved
    /// one by one or together.
    fn tell_who_is_late(
        &mut self,
        campaign: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<String>, DaemonError> {
        let open = engine::OpenPhase::read(&self.store, campaign)?;
        let Some(note) = self.late_notice(&open, now)? else {
            return Ok(None);
        };
        self.store.queue(Some(campaign), &[note], now)?;
        Ok(Some(format!(
            "{campaign}: the game master told who is late"
        )))
    }

    /// The GM's note that sides the phase needs have sent nothing by its
    /// deadline, if it is due at `now` and not yet queued: once a phase,
    /// at the deadline, saying whether a grace holds the phase open.
    fn late_notice(
        &self,
        open: &engine::OpenPhase,
        now: DateTime<Utc>,
    ) -> Result<Option<OutgoingMail>, DaemonError> {
        let (record, c) = (&open.record, &open.record.campaign);
        let silent = open.silent();
        if now < record.deadline || silent.is_empty() {
            return Ok(None);
        }
        let id = mail::message_id(c, &format!("late.{}", open.key), &c.gm.address);
        if self.store.outbox_has(&id)? {
            return Ok(None);
        }
        let names: Vec<String> = silent
            .iter()
            .map(|s| {
                c.sides
                    .iter()
                    .find(|d| d.id == *s)
                    .map_or(s.clone(), |d| format!("{} ({s})", d.name))
            })
            .collect();
        let phase = resolution::phase_label(open.ruleset, &open.state);
        let templates = Templates::for_campaign(&record.source_dir)?;
        let body = templates.render(
            "late.txt",
            json!({
                "campaign": {"id": c.id, "title": c.title},
                "phase": phase,
                "late": names,
                "deadline": crate::lifecycle::local_time(&c.gm, record.deadline),
                "grace_until": (c.schedule.grace_minutes > 0)
                    .then(|| crate::lifecycle::local_time(&c.gm, open.closes_at())),
                "no_orders": c.no_orders_policy,
            }),
        )?;
        Ok(Some(OutgoingMail::text(
            id,
            c.gm.address.clone(),
            format!("[{}] late: {}", c.id, names.join(", ")),
            body,
        )))
    }

    /// The reminders due in a campaign at `now` and not yet queued: each
    /// side with its messages, one per player of the side.
    fn reminders(
        &self,
        id: &str,
        now: DateTime<Utc>,
    ) -> Result<Vec<(String, Vec<OutgoingMail>)>, DaemonError> {
        let open = engine::OpenPhase::read(&self.store, id)?;
        if open.at_rest() {
            return Ok(Vec::new());
        }
        let (record, c, key) = (&open.record, &open.record.campaign, &open.key);
        let sides = lifecycle::reminders_due(
            open.ruleset,
            &open.state,
            &c.schedule,
            record.deadline,
            &open.ready,
            now,
        );
        let mut due: Vec<(String, Vec<OutgoingMail>)> = Vec::new();
        if let Some(note) = self.late_notice(&open, now)? {
            due.push(("the game master".to_string(), vec![note]));
        }
        if sides.is_empty() {
            return Ok(due);
        }
        let phase = resolution::phase_label(open.ruleset, &open.state);
        // The templates are read only for a reminder not yet queued.
        let mut fresh: Vec<(String, lifecycle::Reminder, &campaign::Player, String)> = Vec::new();
        for (side, which) in sides {
            for player in c.players.iter().filter(|p| p.side == side) {
                let id = reminder_id(c, key, which, &side, &player.person);
                if !self.store.outbox_has(&id)? {
                    fresh.push((side.clone(), which, player, id));
                }
            }
        }
        if fresh.is_empty() {
            return Ok(due);
        }
        let templates = Templates::for_campaign(&record.source_dir)?;
        for (side, which, player, message_id) in fresh {
            let side_name = c
                .sides
                .iter()
                .find(|s| s.id == side)
                .map_or(side.clone(), |s| s.name.clone());
            let p = &player.person;
            let body = templates.render(
                "reminder.txt",
                json!({
                    "campaign": {"id": c.id, "title": c.title},
                    "side": side_name,
                    "phase": phase,
                    "deadline": crate::lifecycle::local_time(p, record.deadline),
                    "no_orders": c.no_orders_policy,
                    "orders_in": open.sent.contains(&side),
                    "last": which == lifecycle::Reminder::Last,
                    "another": which == lifecycle::Reminder::First
                        && c.schedule.last_reminder_minutes > 0,
                }),
            )?;
            let message = OutgoingMail::text(
                message_id,
                p.address.clone(),
                format!("[{}] reminder: your orders for {phase}", c.id),
                body,
            );
            match due.last_mut() {
                Some((last, messages)) if *last == side => messages.push(message),
                _ => due.push((side, vec![message])),
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
                let taken = source.take(&mut self.store, &self.ingest, clock);
                // Mail may touch any campaign (orders, a GM's command), but
                // mail held for a phase not yet open touches none: a daemon
                // waiting for a beacon round, offered the held mail at each
                // poll, does not work out every campaign's needs again.
                if taken
                    .as_ref()
                    .map_or(true, |t| t.iter().any(|(_, o)| !o.is_held()))
                {
                    self.calm.forget_all();
                }
                let taken = taken?;
                let held = taken.iter().filter(|(_, o)| o.is_held()).count();
                for (name, outcome) in taken.iter().filter(|(_, o)| !o.is_held()) {
                    tracing::info!(message = %name, "{}", outcome.summary());
                    notes.push(format!("mail {name}: {}", outcome.summary()));
                }
                if held > 0 && held == taken.len() {
                    return Err(DaemonError::MailWaits(held));
                }
                // A GM's command by mail may have resolved a phase, asked an
                // umpire call or corrected the state.
                notes.extend(self.keep_chronicles());
            }
            Event::DeadlineReached { campaign } => {
                self.calm.forget(campaign);
                notes.extend(self.tell_who_is_late(campaign, clock.now())?);
                notes.extend(resolve_due(&mut self.store, campaign, clock)?);
                notes.extend(self.keep_chronicles());
            }
            Event::ReminderDue { campaign, .. } => {
                self.calm.forget(campaign);
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
                self.settle_in_flight(
                    clock,
                    "outbox: sends whose result was not recorded settled",
                )?;
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

    /// Resolves the campaigns `events` finds due on up to
    /// [`Daemon::resolving_at_once`] threads, each with a connection of its
    /// own to the store, and returns each campaign's outcome. A resolution
    /// and its reports (its maps drawn, a message for each reader) are work
    /// between short store transactions, which SQLite takes one at a time:
    /// made one after another, a burst of deadlines kept only one core of
    /// two busy.
    /// Each campaign is resolved whole on one thread, so what it writes is
    /// what it would write alone. Returns nothing (the pass then handles the
    /// campaigns one by one) for fewer than two campaigns or threads, or a
    /// store with no file to connect to again.
    fn resolve_together(
        &mut self,
        events: &[Event],
        clock: &dyn Clock,
        notes: &mut Vec<String>,
    ) -> BTreeMap<String, Result<Vec<String>, DaemonError>> {
        let due: Vec<&str> = events
            .iter()
            .filter_map(|e| match e {
                Event::DeadlineReached { campaign } => Some(campaign.as_str()),
                _ => None,
            })
            .collect();
        let threads = self.resolvers.min(due.len());
        if threads < 2 {
            return BTreeMap::new();
        }
        let mut stores = Vec::with_capacity(threads);
        for _ in 0..threads {
            match self.store.another() {
                Ok(Some(store)) => stores.push(store),
                Ok(None) => return BTreeMap::new(),
                Err(e) => {
                    tracing::warn!("resolving one campaign at a time: {e}");
                    return BTreeMap::new();
                }
            }
        }
        for campaign in &due {
            self.calm.forget(campaign);
            match self.tell_who_is_late(campaign, clock.now()) {
                Ok(told) => notes.extend(told),
                Err(e) => tracing::warn!(%campaign, "the GM could not be told who is late: {e}"),
            }
        }
        let next = AtomicUsize::new(0);
        let outcomes = Mutex::new(BTreeMap::new());
        let shutdown = &self.shutdown;
        std::thread::scope(|scope| {
            for mut store in stores {
                let (due, next, outcomes) = (&due, &next, &outcomes);
                scope.spawn(move || {
                    while !shutdown.load(Ordering::SeqCst) {
                        let Some(campaign) = due.get(next.fetch_add(1, Ordering::SeqCst)) else {
                            break;
                        };
                        let outcome = resolve_due(&mut store, campaign, clock);
                        outcomes
                            .lock()
                            .unwrap_or_else(|poisoned| poisoned.into_inner())
                            .insert(campaign.to_string(), outcome);
                    }
                });
            }
        });
        notes.extend(self.keep_chronicles());
        outcomes
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Finds what is pending and handles it, once. A failing event is logged
    /// and the others still run: one campaign's trouble must not hold up
    /// another's mail.
    pub fn pass(&mut self, clock: &dyn Clock) -> Result<Pass, DaemonError> {
        self.watch_access(clock)?;
        let events = self.pending(clock)?;
        let mut failures = Vec::new();
        let mut notes = Vec::new();
        let mut resolved = self.resolve_together(&events, clock, &mut notes);
        // Mail for a campaign whose phase is closing is held by ingest
        // (`Outcome::Held`) until the phase is closed; an event that found
        // nothing else is neither done nor failed, only waiting.
        let mut waiting = 0;
        for event in &events {
            // A shutdown asked for meanwhile stops the pass after the event
            // in hand; what is left is pending again after a restart.
            if *event == Event::Shutdown || self.shutdown.load(Ordering::SeqCst) {
                break;
            }
            let done = match event {
                Event::DeadlineReached { campaign } => resolved.remove(campaign),
                _ => None,
            };
            let result = match done {
                Some(result) => result,
                None => self.handle(event, clock),
            };
            match result {
                Ok(mut n) => notes.append(&mut n),
                Err(e @ DaemonError::MailWaits(_)) => {
                    tracing::info!("{e}");
                    waiting += 1;
                }
                Err(e) => {
                    let words = self.failure_in_words(&e);
                    tracing::error!(?event, "{words}");
                    failures.push((event.clone(), words));
                }
            }
        }
        Ok(Pass {
            events,
            failures,
            notes,
            waiting,
        })
    }

    /// Looks again at the modes of the data directory and the store, as
    /// [`Store::open`] did at start: one loosened while the daemon runs (a
    /// `chmod -R`, a restored backup) stops it, with a line in the log and a
    /// note to each campaign's GM, sent before it stops. Another failure to
    /// read a mode is logged and passed over, as the next pass looks again.
    fn watch_access(&mut self, clock: &dyn Clock) -> Result<(), DaemonError> {
        use crate::store::access::AccessError;
        let words = match self.store.check_access() {
            Ok(()) => return Ok(()),
            Err(StoreError::Access(
                e @ (AccessError::TooOpen { .. } | AccessError::NotADirectory { .. }),
            )) => e.to_string(),
            Err(e) => {
                tracing::warn!("cannot look at the store's modes: {e}");
                return Ok(());
            }
        };
        tracing::error!("the store is no longer its owner's alone, so the daemon stops: {words}");
        match self.tell_gms_of_access(&words, clock) {
            Ok(ids) => self.send_now(&ids, clock),
            Err(e) => tracing::error!("the GMs could not be told: {e}"),
        }
        Err(DaemonError::Loosened(words))
    }

    /// Queues the note of a loosened store to each campaign's GM; returns
    /// the notes' Message-IDs.
    fn tell_gms_of_access(
        &mut self,
        words: &str,
        clock: &dyn Clock,
    ) -> Result<Vec<String>, DaemonError> {
        let now = clock.now();
        let mut ids = Vec::new();
        for id in self.store.campaign_ids()? {
            let campaign = self.store.campaign_definition(&id)?;
            let body = format!(
                "adjutant has stopped: its store, which holds every unrevealed secret of the dice of {title}, can now be read by other users of its machine.\n\n    {words}\n\nNothing more is taken, resolved or sent until the mode is restored; then start adjutant again. The secrets of turns not yet resolved may have been read meanwhile: if anyone but you could have read them, say so to the players.\n",
                title = campaign.title
            );
            let message = OutgoingMail::text(
                mail::message_id(
                    &campaign,
                    &format!("access.{}", now.timestamp()),
                    &campaign.gm.address,
                ),
                campaign.gm.address.clone(),
                format!("[{id}] adjutant stopped: its store can be read by others"),
                body,
            );
            ids.push(message.message_id.clone());
            self.store.queue(Some(&id), &[message], now)?;
        }
        Ok(ids)
    }

    /// Sends the messages `ids` before the daemon stops: through the
    /// outbox's own thread when it runs (waiting a while for it), else here.
    fn send_now(&mut self, ids: &[String], clock: &dyn Clock) {
        if !self.sending_apart {
            if let Err(e) = self.handle(&Event::OutboxDue, clock) {
                tracing::error!("the GMs' notes could not be sent: {e}");
            }
            return;
        }
        self.ingest.queued.ring();
        let waiting = |store: &Store| -> bool {
            store.outbox(None).is_ok_and(|all| {
                all.iter().any(|e| {
                    ids.contains(&e.mail.message_id)
                        && matches!(
                            e.status,
                            crate::store::OutboxStatus::Queued
                                | crate::store::OutboxStatus::InFlight
                        )
                })
            })
        };
        let until = std::time::Instant::now() + SEND_BEFORE_STOPPING;
        while waiting(&self.store) && std::time::Instant::now() < until {
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
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
            let quiet = pass.events.len() == pass.waiting || pass.events.contains(&Event::Shutdown);
            let stuck = !pass.failures.is_empty() && !pass.worked();
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
    /// next reminder window or beacon round, the next retry, or the poll
    /// interval.
    pub fn next_wake(&self, now: DateTime<Utc>) -> Result<DateTime<Utc>, DaemonError> {
        let mut wake = now + self.poll;
        // The last pass worked out each campaign's next time of need; one
        // it could not read is looked at again within the poll interval.
        if let Some(t) = self.calm.next_after(now)
            && t < wake
        {
            wake = t;
        }
        if !self.sending_apart
            && let Some(t) = self.store.outbox_next_due()?
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
    /// between, while a thread of its own sends the outbox as mail is
    /// queued (`sender`; in the loop's passes for a store with no file to
    /// connect to again). Errors of single events are logged and the loop
    /// goes on; an error of the loop itself (the store cannot be read) stops
    /// it.
    pub fn run(&mut self, clock: &dyn Clock) -> Result<(), DaemonError> {
        let Some(store) = self.store.another()? else {
            return self.run_loop(clock);
        };
        let sender = sender::Sender {
            store,
            transport: Arc::clone(&self.transport),
            policy: self.policy.clone(),
            queued: Arc::clone(&self.ingest.queued),
            stop: Arc::clone(&self.shutdown),
            poll: self.poll,
        };
        std::thread::scope(|scope| {
            let sending = std::thread::Builder::new()
                .name("outbox".into())
                .spawn_scoped(scope, move || sender.run(clock))
                .map_err(DaemonError::Thread)?;
            self.sending_apart = true;
            let ran = self.run_loop(clock);
            self.sending_apart = false;
            // The sender stops after the group in hand, however the loop
            // ended.
            self.shutdown.store(true, Ordering::SeqCst);
            self.ingest.queued.ring();
            if sending.join().is_err() {
                tracing::error!(
                    "the outbox's thread failed; what it left in flight is settled at the next start"
                );
            }
            ran
        })
    }

    fn run_loop(&mut self, clock: &dyn Clock) -> Result<(), DaemonError> {
        let mut worked = false;
        loop {
            let pass = self.pass(clock)?;
            // What the pass queued (reports, reminders, replies) leaves now.
            self.ingest.queued.ring();
            if pass.events.contains(&Event::Shutdown) {
                tracing::info!("shutting down");
                return Ok(());
            }
            // Work found means more may follow at once (an accepted order
            // can make a phase due); a pass that only failed, or found only
            // mail to hold, waits, so a broken campaign does not spin.
            if pass.worked() {
                worked = true;
                continue;
            }
            if std::mem::take(&mut worked) {
                self.drop_old_attachments(clock);
                if let Some(f) = self.when_quiet {
                    f();
                }
            }
            let wake = self.next_wake(clock.now())?;
            self.wait_until(wake, clock);
        }
    }
}

/// Resolves what is due in one campaign (`engine::tick`), with a line for
/// each resolution made.
fn resolve_due(
    store: &mut Store,
    campaign: &str,
    clock: &dyn Clock,
) -> Result<Vec<String>, DaemonError> {
    let mut notes = Vec::new();
    for r in engine::tick(store, campaign, clock)? {
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
    Ok(notes)
}

/// The Message-ID of a reminder: one per phase, side and player, so that it
/// is queued once however often the loop looks and however often it
/// restarts.
fn reminder_id(
    c: &campaign::Campaign,
    key: &str,
    which: lifecycle::Reminder,
    side: &str,
    person: &campaign::Person,
) -> String {
    mail::message_id(c, &format!("{}.{key}.{side}", which.key()), &person.address)
}
