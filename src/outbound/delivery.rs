//! Delivery from the durable outbox.
//!
//! A message is in the outbox (committed with the step that made it) before
//! anything tries to send it. To send it, delivery
//! 1. marks the attempt (`attempt_started_at`, attempts + 1) and commits,
//! 2. hands the bytes to the transport,
//! 3. records the result: sent; queued again after an exponential backoff
//!    (capped) on a transient error; dead, with the error, on a permanent
//!    error or once the attempts run out.
//!
//! A crash between 1 and 3 leaves the message marked in flight.
//! [`reconcile`], run when the daemon or `adjutant send` starts, asks the
//! transport whether the message went out. The file transport knows (the
//! file exists or not), so nothing is written twice and nothing is lost.
//! SMTP and sendmail cannot be asked: a server may have taken the message in
//! the instant before the crash. For them [`InDoubt`] chooses: send it again
//! (the default: a report arrives, perhaps twice, with the same Message-ID,
//! which many mail stores and clients fold into one), or set it aside as
//! dead for the GM to look at and requeue. The window opens when the last
//! byte of the message is handed to the server, which may queue it before
//! its reply reaches us, and closes with one small SQLite commit after the
//! reply: with several messages going out at once, each result is recorded
//! as it arrives, not when the slowest of its group is done. On loopback
//! the reply alone takes some 40 ms (TCP's delayed acknowledgement, see
//! `smtp::DEFAULT_CONNECTIONS`), so a crash while mail goes out finds most
//! of the messages in flight already queued by the server
//! (`tests/kill_schedule_mailstack.rs` counts them).

use chrono::{DateTime, Duration, Utc};
use serde::Deserialize;

use super::{BuiltMessage, Delivered, SendError, Transport, build};
use crate::lifecycle::Clock;
use crate::store::{OutboxEntry, Store, StoreError};

/// What to do with a message found in flight when the transport cannot say
/// whether it went out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum InDoubt {
    /// Send it again: nothing is lost, and a recipient may get it twice.
    #[default]
    Resend,
    /// Mark it dead with an explanation: nothing goes out twice, and the GM
    /// decides (`adjutant outbox --requeue ID`).
    DeadLetter,
}

/// How delivery behaves.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DeliveryPolicy {
    /// The sender of every message, e.g. `adjutant <adjutant@example.org>`.
    pub from: String,
    /// The wait after the first transient failure; it doubles each time.
    pub first_retry_seconds: u32,
    /// The longest wait between two attempts.
    pub max_retry_seconds: u32,
    /// Attempts before a message is given up as dead.
    pub max_attempts: u32,
    /// Messages sent in one pass, so a long queue cannot starve the rest of
    /// the daemon's work.
    pub batch: usize,
    pub in_doubt: InDoubt,
    /// Days a sent message keeps its attachments in the store (see
    /// `Store::outbox_drop_sent_attachments`); 0 keeps them for ever.
    pub keep_sent_attachments_days: u32,
}

impl Default for DeliveryPolicy {
    fn default() -> Self {
        DeliveryPolicy {
            from: "adjutant <adjutant@localhost>".to_string(),
            first_retry_seconds: 60,
            max_retry_seconds: 6 * 3600,
            max_attempts: 10,
            batch: 100,
            in_doubt: InDoubt::Resend,
            keep_sent_attachments_days: 30,
        }
    }
}

impl DeliveryPolicy {
    /// The wait after the `attempts`th failed attempt: the first wait, doubled
    /// for each attempt after the first, never more than the cap.
    pub fn backoff(&self, attempts: u32) -> Duration {
        let doublings = attempts.saturating_sub(1).min(32);
        let wait = u64::from(self.first_retry_seconds).saturating_mul(1u64 << doublings);
        Duration::seconds(wait.min(u64::from(self.max_retry_seconds)) as i64)
    }
}

/// What one pass did, by Message-ID.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeliveryReport {
    pub sent: Vec<String>,
    /// Messages to be tried again, and when.
    pub retried: Vec<(String, DateTime<Utc>)>,
    /// Messages given up, with the error.
    pub dead: Vec<(String, String)>,
    /// Messages found in flight that had gone out already.
    pub already_sent: Vec<String>,
}

impl DeliveryReport {
    pub fn is_empty(&self) -> bool {
        *self == DeliveryReport::default()
    }
}

/// Settles every message found in flight (after a crash): sent if the
/// transport knows it went out, queued again at once if it knows it did not,
/// and as `policy.in_doubt` says if it cannot tell.
///
/// Run it once when a process starts, before [`deliver_due`], and never
/// while another process may be sending from the same store.
pub fn reconcile(
    store: &mut Store,
    transport: &dyn Transport,
    policy: &DeliveryPolicy,
    clock: &dyn Clock,
) -> Result<DeliveryReport, StoreError> {
    let mut report = DeliveryReport::default();
    let now = clock.now();
    for entry in store.outbox_in_flight()? {
        let id = &entry.mail.message_id;
        match (transport.delivered(id), policy.in_doubt) {
            (Delivered::Yes, _) => {
                tracing::info!(message_id = %id, "found in flight and already delivered; not sent again");
                store.outbox_sent(entry.id, now)?;
                report.already_sent.push(id.clone());
            }
            (Delivered::No, _) => {
                tracing::info!(message_id = %id, "found in flight and not delivered; queued again");
                store.outbox_retry(entry.id, now, "interrupted before it went out")?;
                report.retried.push((id.clone(), now));
            }
            (Delivered::Unknown, InDoubt::Resend) => {
                tracing::warn!(message_id = %id, "found in flight; the transport cannot tell whether it went out, so it is sent again");
                store.outbox_retry(
                    entry.id,
                    now,
                    "interrupted mid-send; sent again (a recipient may see it twice, with the same Message-ID)",
                )?;
                report.retried.push((id.clone(), now));
            }
            (Delivered::Unknown, InDoubt::DeadLetter) => {
                let error = "interrupted mid-send; it may or may not have gone out: check, then `adjutant outbox --requeue ID` it if not";
                tracing::warn!(message_id = %id, "{error}");
                store.outbox_dead(entry.id, error)?;
                report.dead.push((id.clone(), error.to_string()));
            }
        }
    }
    Ok(report)
}

/// Sends the messages that are due, at most `policy.batch` of them, over
/// as many connections at once as the transport allows
/// ([`Transport::connections`]).
///
/// The attempts of a group are recorded (committed, in one transaction)
/// before any of its messages is handed to the transport, so a crash leaves
/// every message either untried or marked in flight for [`reconcile`]; and
/// each result is recorded the moment it comes back, so a message the server
/// took is not left marked while a slower one of its group is still going.
/// A store error stops the batch, but only after what was already marked has
/// been sent and recorded.
pub fn deliver_due(
    store: &mut Store,
    transport: &dyn Transport,
    policy: &DeliveryPolicy,
    clock: &dyn Clock,
) -> Result<DeliveryReport, StoreError> {
    let mut report = DeliveryReport::default();
    let due = store.outbox_due(clock.now(), policy.batch)?;
    for group in due.chunks(transport.connections().max(1)) {
        let mut failure = None;
        let mut built = Vec::with_capacity(group.len());
        for entry in group {
            // The Date is when the message was queued, so every attempt sends
            // the same bytes.
            match build(&entry.mail, &policy.from, entry.created_at) {
                Ok(message) => built.push((entry, message)),
                Err(e) => {
                    let error = format!("cannot be built: {e}");
                    tracing::error!(message_id = %entry.mail.message_id, "{error}");
                    report
                        .dead
                        .push((entry.mail.message_id.clone(), error.clone()));
                    store.outbox_dead(entry.id, &error)?;
                }
            }
        }
        // The whole group is marked in one commit before any of it is
        // handed over: a crash leaves each message untried or in flight.
        let ids: Vec<i64> = built.iter().map(|(entry, _)| entry.id).collect();
        let marked = store.outbox_begin_attempts(&ids, clock.now())?;
        let ready: Vec<(&OutboxEntry, BuiltMessage)> = built
            .into_iter()
            .zip(marked)
            .filter_map(|(ready, marked)| marked.then_some(ready))
            .collect();
        send_and_record(
            store,
            transport,
            &ready,
            policy,
            clock,
            &mut report,
            &mut failure,
        );
        if let Some(e) = failure {
            return Err(e);
        }
    }
    Ok(report)
}

/// Hands each marked message to the transport, in parallel threads when
/// there are several, and records each result as it comes back. A store
/// error while recording is kept (the first one) and the others are still
/// recorded.
fn send_and_record(
    store: &mut Store,
    transport: &dyn Transport,
    ready: &[(&OutboxEntry, BuiltMessage)],
    policy: &DeliveryPolicy,
    clock: &dyn Clock,
    report: &mut DeliveryReport,
    failure: &mut Option<StoreError>,
) {
    let mut keep = |store: &mut Store, entry: &OutboxEntry, result| {
        if let Err(e) = record(store, entry, result, policy, clock, report) {
            failure.get_or_insert(e);
        }
    };
    if ready.len() <= 1 {
        for (entry, built) in ready {
            keep(store, entry, transport.send(built));
        }
        return;
    }
    std::thread::scope(|scope| {
        let (results, arrivals) = std::sync::mpsc::channel();
        let sending: Vec<_> = ready
            .iter()
            .enumerate()
            .map(|(n, (_, built))| {
                let results = results.clone();
                scope.spawn(move || {
                    // The receiver outlives every sender in this scope.
                    let _ = results.send((n, transport.send(built)));
                })
            })
            .collect();
        drop(results);
        let mut answered = vec![false; ready.len()];
        for (n, result) in arrivals {
            answered[n] = true;
            keep(store, ready[n].0, result);
        }
        // Joined here, so that a thread that panicked is answered below
        // rather than taking the whole process down with it.
        for thread in sending {
            let _ = thread.join();
        }
        // A sending thread that failed unexpectedly answered nothing: its
        // message is tried again like after any transient failure.
        for (n, done) in answered.into_iter().enumerate() {
            if !done {
                keep(
                    store,
                    ready[n].0,
                    Err(SendError::transient("the transport failed unexpectedly")),
                );
            }
        }
    });
}

/// How long the record of a message handed over is tried while the store is
/// busy (another connection of the daemon holding its write lock): a record
/// lost would leave the message in flight, and a transport that cannot be
/// asked (SMTP) would then send it again.
const PERSIST_FOR: std::time::Duration = std::time::Duration::from_secs(120);

/// Runs `write` again while the store answers that it is busy or locked,
/// waiting a little longer each time, for up to [`PERSIST_FOR`]; any other
/// error, or the last busy one, is returned.
fn persist(mut write: impl FnMut() -> Result<(), StoreError>) -> Result<(), StoreError> {
    let started = std::time::Instant::now();
    let mut pause = std::time::Duration::from_millis(20);
    loop {
        match write() {
            Err(e) if e.is_transient() && started.elapsed() < PERSIST_FOR => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(std::time::Duration::from_secs(1));
            }
            done => return done,
        }
    }
}

/// Records what came of one attempt: sent, tried again later, or dead.
fn record(
    store: &mut Store,
    entry: &OutboxEntry,
    result: Result<(), SendError>,
    policy: &DeliveryPolicy,
    clock: &dyn Clock,
    report: &mut DeliveryReport,
) -> Result<(), StoreError> {
    let id = entry.mail.message_id.clone();
    let attempts = entry.attempts + 1;
    match result {
        Ok(()) => {
            // The transport has the message and the store does not know:
            // where a crash leaves a message in doubt.
            crate::failpoint::hit("outbox:handed");
            // Logged once recorded: a crash before the record leaves the
            // message in flight, and the log then says only what the
            // reconciliation after it decides.
            if let Err(e) = persist(|| store.outbox_sent(entry.id, clock.now())) {
                tracing::warn!(message_id = %id, to = %entry.mail.recipient,
                    "sent, but not recorded as sent: {e}");
                return Err(e);
            }
            tracing::info!(message_id = %id, to = %entry.mail.recipient, "sent");
            report.sent.push(id);
        }
        Err(e) if e.is_transient() && attempts < policy.max_attempts => {
            let next = clock.now() + policy.backoff(attempts);
            tracing::warn!(message_id = %id, attempts, %next, "transient failure: {e}");
            store.outbox_retry(entry.id, next, &e.message)?;
            report.retried.push((id, next));
        }
        Err(e) => {
            let error = if e.is_transient() {
                format!("gave up after {attempts} attempts: {e}")
            } else {
                format!("permanent failure: {e}")
            };
            tracing::error!(message_id = %id, "{error}");
            store.outbox_dead(entry.id, &error)?;
            report.dead.push((id, error));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_from_the_first_wait_up_to_the_cap() {
        let p = DeliveryPolicy {
            first_retry_seconds: 60,
            max_retry_seconds: 3600,
            ..DeliveryPolicy::default()
        };
        let waits: Vec<i64> = (1..=8).map(|n| p.backoff(n).num_seconds()).collect();
        assert_eq!(waits, vec![60, 120, 240, 480, 960, 1920, 3600, 3600]);
        assert_eq!(p.backoff(u32::MAX).num_seconds(), 3600);
    }
}
