//! One inbound message, from raw bytes to stored orders and a queued reply.
//!
//! The raw bytes are stored first, before anything looks at them. The
//! message is then handled, and its outcome and reply are recorded in one
//! transaction. A message stored but not finished (a crash between the two)
//! is handled again from its bytes; a message already finished is not acted
//! on twice, and its reply has the same Message-ID, which the outbox takes
//! once.

mod answer;
mod batch;
mod commands;
mod failed;
mod letter;
mod orders;
mod requests;
mod who;

use crate::audit::Digest32;
use crate::engine::{self, Closing, EngineError};
use crate::failpoint;
use crate::lifecycle::{Clock, CloseReason};
use crate::mail::body::{OrderText, campaign_from_subject};
use crate::mail::dkim::{self, KeySource};
use crate::mail::{Inbound, InboundError, Limits, order_text, parse};
use crate::store::{CampaignRecord, OutgoingMail, Store, StoreError};
use crate::templates::TemplateError;

pub use batch::{Prechecked, precheck};
use commands::{command_line, gm_commands};
use letter::{Letter, screen};
use orders::take_orders;
use who::{Proof, Who, authenticate};

/// How the daemon receives mail.
#[derive(Debug, Clone)]
pub struct IngestConfig {
    /// Addresses adjutant sends from: mail from them is never answered, so
    /// that no loop can start.
    pub own_addresses: Vec<String>,
    /// The domain of Message-IDs of replies not tied to a campaign.
    pub reply_domain: String,
    pub limits: Limits,
    /// Where the DKIM keys of `passphrase-and-dkim` people come from: the
    /// DNS by default, a fixed table in tests.
    pub dkim_keys: std::sync::Arc<dyn KeySource>,
    /// Passphrase verdicts a batch worked out ahead (see [`precheck`]).
    pub prechecked: std::sync::Arc<Prechecked>,
    /// Passphrases found right before, kept while the program runs.
    pub remembered: std::sync::Arc<crate::campaign::passphrase::Remembered>,
    /// Rung when a message is done (its reply queued), so that the reply
    /// leaves at once where a thread sends the outbox (the running daemon).
    pub queued: std::sync::Arc<crate::outbound::Doorbell>,
    /// Set when the program is to stop: a source taking a batch stops
    /// between two messages, and leaves the rest to be taken after a
    /// restart.
    pub stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl IngestConfig {
    /// Whether the program is to stop.
    pub fn stopping(&self) -> bool {
        self.stop.load(std::sync::atomic::Ordering::SeqCst)
    }
}

impl Default for IngestConfig {
    fn default() -> IngestConfig {
        IngestConfig {
            own_addresses: Vec::new(),
            reply_domain: "adjutant.invalid".to_string(),
            limits: Limits::default(),
            dkim_keys: dkim::dns(),
            prechecked: std::sync::Arc::default(),
            remembered: std::sync::Arc::default(),
            queued: std::sync::Arc::default(),
            stop: std::sync::Arc::default(),
        }
    }
}

/// What became of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// Sent by a machine, a list or adjutant itself: stored, not answered.
    Ignored { reason: String },
    /// Not taken as orders; the reply says why.
    Refused { reason: String },
    /// Orders stored (some lines may have been refused).
    Accepted {
        campaign: String,
        side: String,
        digest: Digest32,
        replaced: bool,
        refused_lines: usize,
    },
    /// The side says it sends no orders for the phase.
    NoOrders {
        campaign: String,
        side: String,
        /// Whether orders it had sent for the phase were withdrawn.
        withdrawn: bool,
    },
    /// The side's word `ready` or `wait`, without orders: its orders for
    /// the phase stand as they were.
    Ready {
        campaign: String,
        side: String,
        ready: bool,
    },
    /// A player asked for its latest report, the situation or an order
    /// template; each was queued to its registered address.
    Asked {
        campaign: String,
        side: String,
        what: String,
    },
    /// The same bytes were handled before; nothing was done again.
    Duplicate { earlier: String },
    /// The GM's commands, each done or refused; the reply says which.
    Commands {
        campaign: String,
        done: usize,
        refused: usize,
    },
    /// Not taken yet: the campaign's phase is closing, and what the message
    /// says belongs to the phase after it. It is stored, left in the inbox,
    /// and taken once the phase is closed; nothing is answered until then.
    Held { campaign: String, why: String },
    /// Handling it failed in a way that trying again would repeat (see
    /// [`IngestError::may_pass`]), or panicked: nothing in it was taken; it
    /// is set aside, its campaign's GM told once, and the inbox goes on.
    Failed {
        campaign: Option<String>,
        why: String,
    },
}

/// A failure of ours (the store, a template): the message is stored and will
/// be handled again; an MTA should be told to retry.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IngestError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error(transparent)]
    Engine(#[from] EngineError),
}

impl IngestError {
    /// Whether handling the same message again may go otherwise: the store
    /// busy, locked, out of room, read-only or otherwise failing to read or
    /// write (SQLite's own errors), or a campaign changed under the step.
    /// What fails for a reason of the message or of its campaign's data (a
    /// value that no longer reads, a template that does not render, a rule
    /// of the engine) fails the same way each time.
    pub fn may_pass(&self) -> bool {
        let store = |e: &StoreError| {
            matches!(
                e,
                StoreError::Sqlite(_)
                    | StoreError::Disk { .. }
                    | StoreError::Access(_)
                    | StoreError::TooNew { .. }
                    | StoreError::PhaseClosed(_)
                    | StoreError::Changed(_)
            )
        };
        match self {
            IngestError::Store(e) | IngestError::Engine(EngineError::Store(e)) => store(e),
            IngestError::Engine(EngineError::BeaconWaiting { .. }) => true,
            IngestError::Template(_) | IngestError::Engine(_) => false,
        }
    }
}

impl Outcome {
    /// Whether the message was left for later (see [`Outcome::Held`]): its
    /// source must keep it and offer it again.
    pub fn is_held(&self) -> bool {
        matches!(self, Outcome::Held { .. })
    }

    /// One line for the log and the inbound record.
    pub fn summary(&self) -> String {
        match self {
            Outcome::Ignored { reason } => format!("ignored: {reason}"),
            Outcome::Refused { reason } => format!("refused: {reason}"),
            Outcome::Accepted {
                campaign,
                side,
                digest,
                replaced,
                refused_lines,
            } => format!(
                "accepted: {campaign} {side} {digest}{}{}",
                if *replaced { " (replaces earlier)" } else { "" },
                if *refused_lines > 0 {
                    format!(", {refused_lines} line(s) refused")
                } else {
                    String::new()
                }
            ),
            Outcome::NoOrders {
                campaign,
                side,
                withdrawn,
            } => format!(
                "no orders: {campaign} {side}{}",
                if *withdrawn {
                    " (earlier orders withdrawn)"
                } else {
                    ""
                }
            ),
            Outcome::Ready {
                campaign,
                side,
                ready,
            } => format!(
                "{}: {campaign} {side}",
                if *ready { "ready" } else { "waits" }
            ),
            Outcome::Asked {
                campaign,
                side,
                what,
            } => format!("asked: {campaign} {side} {what}"),
            Outcome::Duplicate { earlier } => {
                format!("duplicate of a message already handled ({earlier})")
            }
            Outcome::Commands {
                campaign,
                done,
                refused,
            } => format!("GM commands for {campaign}: {done} done, {refused} refused"),
            Outcome::Held { campaign, why } => {
                format!("held until the phase of {campaign} is closed ({why})")
            }
            Outcome::Failed { why, .. } => format!("failed: {why}"),
        }
    }
}

/// Stores `raw`, handles it, and records the outcome and reply.
///
/// The bytes are stored first, in a transaction of their own: from then on
/// the message cannot be lost. Handling it (orders taken, GM commands
/// carried out), recording its outcome and queueing its reply are then one
/// transaction: a crash anywhere leaves either all of it or none, and a
/// message stored but never finished is handled again, from the start, when
/// it is delivered again. A message already finished (the same bytes, or
/// the same message as another delivery brings it, see `Inbound::key`) is
/// not acted on twice.
pub fn ingest(
    store: &mut Store,
    raw: &[u8],
    source: &str,
    config: &IngestConfig,
    clock: &dyn Clock,
) -> Result<Outcome, IngestError> {
    ingest_sized(store, raw, None, source, config, clock)
}

/// [`ingest`], for a source that fetched only the first bytes of a large
/// message and knows its whole `size` (IMAP's RFC822.SIZE): the reply to a
/// message over the limit gives its true size.
pub fn ingest_sized(
    store: &mut Store,
    raw: &[u8],
    size: Option<usize>,
    source: &str,
    config: &IngestConfig,
    clock: &dyn Clock,
) -> Result<Outcome, IngestError> {
    let parsed = match parse(raw, &config.limits) {
        Err(InboundError::TooLarge {
            size: fetched,
            limit,
        }) => Err(InboundError::TooLarge {
            size: size.map_or(fetched, |s| s.max(fetched)),
            limit,
        }),
        other => other,
    };
    let key = parsed.as_ref().ok().and_then(Inbound::key);
    if let Some(earlier) = store.handled_before(raw, key.as_ref())? {
        return Ok(Outcome::Duplicate { earlier });
    }
    let now = clock.now();
    let sender = parsed.as_ref().ok().and_then(|m| m.from.clone());
    let id = store.store_inbound_keyed(raw, source, now, key.as_ref(), sender.as_deref())?;
    failpoint::hit("ingest:stored");
    // A panic anywhere in handling one message is caught here (the
    // transaction it was in is rolled back), so that one message can never
    // stop the loop that takes every campaign's mail.
    let handled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        store.atomically(|store| -> Result<Outcome, IngestError> {
            let handled = handle(store, raw, parsed, key, config, clock)?;
            if let (held @ Outcome::Held { .. }, _, _) = handled {
                // Nothing is recorded: the message stays unfinished, and is
                // handled from the start when the source offers it again.
                return Ok(held);
            }
            let (outcome, campaign, reply) =
                answer::ration(store, sender.as_deref(), handled, &config.limits, now)?;
            answer::copy_to_gm(store, campaign.as_deref(), reply.as_ref(), now)?;
            failpoint::hit("ingest:handled");
            let status = match outcome {
                Outcome::Accepted { .. }
                | Outcome::NoOrders { .. }
                | Outcome::Ready { .. }
                | Outcome::Asked { .. } => "accepted",
                Outcome::Refused { .. } => "refused",
                Outcome::Commands { .. } => "gm",
                _ => "ignored",
            };
            store.finish_inbound(
                id,
                status,
                &outcome.summary(),
                campaign.as_deref(),
                reply.as_ref(),
                now,
            )?;
            Ok(outcome)
        })
    }));
    let outcome = match handled {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(e)) if e.may_pass() => return Err(e),
        Ok(Err(e)) => {
            tracing::error!(inbound = id, "a message could not be handled: {e}");
            failed::set_aside(store, id, raw, key, &e.to_string(), config, now)?
        }
        Err(panic) => {
            let why = failed::panic_words(panic.as_ref());
            tracing::error!(inbound = id, "{why}");
            failed::set_aside(store, id, raw, key, &why, config, now)?
        }
    };
    failpoint::hit("ingest:finished");
    config.queued.ring();
    Ok(outcome)
}

/// What became of a message, the campaign it was for, and the reply.
type Handled = (Outcome, Option<String>, Option<OutgoingMail>);

/// Screens the message, finds its campaign and its writer, and hands it to
/// the GM's commands or a player's orders.
fn handle(
    store: &mut Store,
    raw: &[u8],
    parsed: Result<Inbound, InboundError>,
    key: Option<Digest32>,
    config: &IngestConfig,
    clock: &dyn Clock,
) -> Result<Handled, IngestError> {
    let letter = match screen(raw, parsed, key, config) {
        Ok(letter) => letter,
        Err(reason) => return Ok((Outcome::Ignored { reason }, None, None)),
    };
    let text = order_text(&letter.message.body);
    let record = match identify_campaign(store, &letter, &text)? {
        Ok(record) => record,
        Err(answered) => return Ok(answered),
    };
    // Once a phase is due, whatever comes for the campaign comes after it:
    // orders sent after every side was in, or after the deadline, are for
    // the next phase, however many wait in the inbox together and however
    // late the daemon gets to them. So every message for it waits, in its
    // order, until the phase is closed.
    if let Some(closing) = engine::closing(store, &record.campaign.id, clock.now())? {
        let why = match closing {
            Closing::Resolving => "it is closed and being resolved",
            Closing::Due(CloseReason::Deadline) => "its deadline has passed",
            Closing::Due(CloseReason::AllReady) => "every side is ready",
        };
        let held = Outcome::Held {
            campaign: record.campaign.id.clone(),
            why: why.to_string(),
        };
        return Ok((held, None, None));
    }
    if let Some(e) = &letter.too_large {
        let hint = format!(
            "The limit is {} KB. Orders are a few lines of plain text: send them without attachments, pictures or a quoted report.",
            config.limits.max_bytes / 1024
        );
        return letter.refuse(Some(&record.campaign), e.to_string(), Some(&hint));
    }
    if let Some(why) = &letter.message.unreadable {
        let reason = format!("the message could not be read: {why}");
        return letter.refuse(Some(&record.campaign), reason, None);
    }
    // Lines `command: ...` make it a message from the GM, and only the GM's
    // credentials are then checked, even if the GM also plays a side.
    let commands: Vec<(usize, String)> = text
        .lines
        .iter()
        .filter_map(|(n, line)| command_line(line).map(|c| (*n, c.to_string())))
        .collect();
    // Who is writing, and do they prove it? The reply to a failure says only
    // that, never which part failed, so it cannot be used to probe.
    let proof = Proof {
        sender: &letter.sender,
        passphrase: text.passphrase.as_deref(),
        raw,
        digest: &letter.digest,
        keys: config.dkim_keys.as_ref(),
        prechecked: &config.prechecked,
        remembered: &config.remembered,
    };
    match authenticate(&record.campaign, &proof, !commands.is_empty()) {
        None => {
            let reason =
                "the sender and passphrase do not match a player of this campaign".to_string();
            let hint =
                "Send from your registered address, with a line `passphrase <your passphrase>`.";
            letter.refuse(Some(&record.campaign), reason, Some(hint))
        }
        Some(Who::Gm) => gm_commands(store, &letter, &record, &commands, clock),
        Some(Who::Player(side)) => take_orders(store, &letter, &record, &side, &text, clock),
    }
}

/// The campaign a message is for: named in its subject or a `campaign` line,
/// or the only one its sender plays in.
fn identify_campaign(
    store: &Store,
    letter: &Letter<'_>,
    text: &OrderText,
) -> Result<Result<CampaignRecord, Handled>, IngestError> {
    let named = campaign_from_subject(&letter.message.subject).or_else(|| text.campaign.clone());
    let campaign_id = match named {
        Some(id) => id,
        None => match store.campaigns_of(&letter.sender)?.as_slice() {
            [only] => only.clone(),
            _ => {
                let reason = "it does not say which campaign it is for".to_string();
                let hint = "Put the campaign id in the subject, as in [campaign-id], or a line `campaign <id>`.";
                return Ok(Err(letter.refuse(None, reason, Some(hint))?));
            }
        },
    };
    match store.campaign(&campaign_id) {
        Ok(record) => Ok(Ok(record)),
        Err(StoreError::NoCampaign(_)) => {
            let reason = format!("there is no campaign `{campaign_id}` here");
            Ok(Err(letter.refuse(None, reason, None)?))
        }
        Err(e) => Err(e.into()),
    }
}
