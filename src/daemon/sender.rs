//! The outbox sent from a thread of its own while the daemon runs.
//!
//! Taken between two events of the loop, the outbox waited for the whole of
//! a batch of mail: fifty players writing at once got their
//! acknowledgements only after the fiftieth message was handled. Here a
//! thread, on a connection of its own to the store, sends each message as
//! soon as it is queued (ingest and the engine ring `IngestConfig::queued`),
//! while the loop goes on with the next. It is the only sender of the
//! running daemon, so what holds for the loop's outbox pass holds here:
//! every attempt is recorded before its message is handed over, and a
//! message found marked in flight between two rounds is one whose result
//! the store could not take, settled as after a crash (`reconcile`).
//!
//! A round sends at most one group (as many messages as the transport takes
//! at once), so that a stop is answered between two groups; a round that
//! fails (the store cannot be written, say) is logged with what the disk
//! says, and tried again after the poll interval, never in a spin.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use chrono::Duration;

use crate::lifecycle::Clock;
use crate::outbound::{
    DeliveryPolicy, DeliveryReport, Doorbell, Transport, deliver_due, reconcile,
};
use crate::store::{Store, StoreError};

/// What the sending thread works with.
pub(super) struct Sender {
    pub(super) store: Store,
    pub(super) transport: Arc<dyn Transport>,
    pub(super) policy: DeliveryPolicy,
    pub(super) queued: Arc<Doorbell>,
    pub(super) stop: Arc<AtomicBool>,
    /// The longest it waits without being rung.
    pub(super) poll: Duration,
}

impl Sender {
    /// Sends what is due, round after round, until `stop` is set.
    pub(super) fn run(mut self, clock: &dyn Clock) {
        let mut policy = self.policy.clone();
        policy.batch = self.transport.connections().max(1);
        while !self.stop.load(Ordering::SeqCst) {
            let wait = match self.round(&policy, clock) {
                Ok(report) if !report.sent.is_empty() || !report.retried.is_empty() => {
                    // More may be due at once.
                    continue;
                }
                Ok(_) => self.until_next_due(clock),
                Err(e) => {
                    let words = match self.store.disk_trouble() {
                        Some(trouble) if !e.to_string().contains(&trouble.to_string()) => {
                            format!("{e}; {trouble}")
                        }
                        _ => e.to_string(),
                    };
                    tracing::error!("outbox: {words}");
                    self.poll
                }
            };
            self.queued
                .wait(wait.to_std().unwrap_or_default(), &self.stop);
        }
    }

    /// Settles any message left in flight, then sends one group.
    fn round(
        &mut self,
        policy: &DeliveryPolicy,
        clock: &dyn Clock,
    ) -> Result<DeliveryReport, StoreError> {
        if !self.store.outbox_in_flight()?.is_empty() {
            let settled = reconcile(&mut self.store, self.transport.as_ref(), policy, clock)?;
            if !settled.is_empty() {
                tracing::info!(
                    ?settled,
                    "outbox: sends whose result was not recorded settled"
                );
            }
        }
        let report = deliver_due(&mut self.store, self.transport.as_ref(), policy, clock)?;
        if !report.is_empty() {
            tracing::debug!(?report, "outbox round");
        }
        for (id, error) in &report.dead {
            tracing::warn!(message_id = %id, "dead letter: {error}");
        }
        Ok(report)
    }

    /// How long until the next message is due (a retry), at most the poll
    /// interval.
    fn until_next_due(&self, clock: &dyn Clock) -> Duration {
        match self.store.outbox_next_due() {
            Ok(Some(t)) => (t - clock.now()).clamp(Duration::zero(), self.poll),
            _ => self.poll,
        }
    }
}
