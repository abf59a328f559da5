//! The outbox as the delivery side sees it: claim a due message, mark an
//! attempt before the transport is called, then record what happened.
//!
//! Each of these is its own small transaction, committed before the next
//! step, so a crash leaves a trace of exactly how far a message got: queued
//! and never tried, tried and in flight (`attempt_started_at` set), or done
//! (sent, or dead with its error).

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::{MailPart, OutgoingMail, Result, Store, StoreError, parse_ts, queue_mail, ts};

/// Where a message stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutboxStatus {
    /// Waiting for its first or next attempt.
    Queued,
    /// An attempt began and its result was never recorded: the process
    /// stopped mid-send. Reconciled before anything else is sent.
    InFlight,
    /// Handed to the transport, which took it.
    Sent,
    /// Given up on: a permanent error, or too many attempts. `last_error`
    /// says why.
    Dead,
}

impl OutboxStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            OutboxStatus::Queued => "queued",
            OutboxStatus::InFlight => "in flight",
            OutboxStatus::Sent => "sent",
            OutboxStatus::Dead => "dead",
        }
    }
}

/// One row of the outbox, with its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxEntry {
    pub id: i64,
    pub campaign: Option<String>,
    /// When it was queued; the message's Date header, so that every attempt
    /// sends the same bytes.
    pub created_at: DateTime<Utc>,
    pub status: OutboxStatus,
    pub attempts: u32,
    pub next_attempt_at: DateTime<Utc>,
    pub last_error: Option<String>,
    pub sent_at: Option<DateTime<Utc>>,
    pub mail: OutgoingMail,
}

/// How far a group of messages got (see [`Store::handed_over`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HandedOver {
    /// Taken by the transport.
    pub sent: usize,
    /// Given up on.
    pub dead: usize,
    /// Queued, or in flight.
    pub waiting: usize,
    /// When the last of those taken was taken.
    pub last: Option<DateTime<Utc>>,
}

const COLUMNS: &str = "id, campaign_id, created_at, status, attempts, next_attempt_at, last_error,
    sent_at, attempt_started_at, message_id, recipient, subject, body, html, in_reply_to";

type Row = (
    i64,
    Option<String>,
    String,
    String,
    i64,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    OutgoingMail,
);

fn read_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Row> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get(7)?,
        r.get(8)?,
        OutgoingMail {
            message_id: r.get(9)?,
            recipient: r.get(10)?,
            subject: r.get(11)?,
            body: r.get(12)?,
            html: r.get(13)?,
            parts: Vec::new(),
            in_reply_to: r.get(14)?,
        },
    ))
}

impl Store {
    /// Queues messages outside any other step (reminders, for one), in one
    /// transaction. Returns how many were new: a Message-ID already in the
    /// outbox is not queued again.
    pub fn queue(
        &mut self,
        campaign: Option<&str>,
        mail: &[OutgoingMail],
        now: DateTime<Utc>,
    ) -> Result<usize> {
        let tx = self.write()?;
        let mut new = 0;
        for m in mail {
            if queue_mail(&tx, campaign, m, now)? {
                new += 1;
            }
        }
        tx.commit()?;
        Ok(new)
    }

    /// Whether a message with this Message-ID was ever queued.
    pub fn outbox_has(&self, message_id: &str) -> Result<bool> {
        Ok(self
            .conn
            .query_row(
                "SELECT 1 FROM outbox WHERE message_id = ?1",
                [message_id],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    fn entries(&self, filter: &str, args: &[&dyn rusqlite::ToSql]) -> Result<Vec<OutboxEntry>> {
        // `filter` is a constant of this module, never input.
        let sql = format!("SELECT {COLUMNS} FROM outbox {filter}");
        let mut stmt = self.conn.prepare(&sql)?;
        let rows: Vec<Row> = stmt
            .query_map(args, read_row)?
            .collect::<std::result::Result<_, _>>()?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let status = match (row.3.as_str(), row.8.is_some()) {
                ("queued", false) => OutboxStatus::Queued,
                ("queued", true) => OutboxStatus::InFlight,
                ("sent", _) => OutboxStatus::Sent,
                ("dead", _) => OutboxStatus::Dead,
                (other, _) => {
                    return Err(StoreError::Damaged(format!("outbox status `{other}`")));
                }
            };
            let mut mail = row.9;
            mail.parts = self.parts(row.0)?;
            out.push(OutboxEntry {
                id: row.0,
                campaign: row.1,
                created_at: parse_ts(&row.2)?,
                status,
                attempts: u32::try_from(row.4)
                    .map_err(|_| StoreError::Damaged(format!("outbox attempts {}", row.4)))?,
                next_attempt_at: parse_ts(&row.5)?,
                last_error: row.6,
                sent_at: row.7.as_deref().map(parse_ts).transpose()?,
                mail,
            });
        }
        Ok(out)
    }

    fn parts(&self, outbox_id: i64) -> Result<Vec<MailPart>> {
        let mut stmt = self.conn.prepare(
            "SELECT filename, content_type, content_id, bytes FROM outbox_parts
             WHERE outbox_id = ?1 ORDER BY seq",
        )?;
        let parts = stmt
            .query_map([outbox_id], |r| {
                Ok(MailPart {
                    filename: r.get(0)?,
                    content_type: r.get(1)?,
                    content_id: r.get(2)?,
                    bytes: r.get(3)?,
                })
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        Ok(parts)
    }

    /// Every message of the outbox (of one campaign, or all), oldest first.
    pub fn outbox(&self, campaign: Option<&str>) -> Result<Vec<OutboxEntry>> {
        match campaign {
            Some(c) => self.entries("WHERE campaign_id = ?1 ORDER BY id", &[&c]),
            None => self.entries("ORDER BY id", &[]),
        }
    }

    /// Queued messages whose next attempt is due at `now`, oldest first, at
    /// most `limit`. Messages in flight are not among them: they wait for
    /// [`Store::outbox_in_flight`] and reconciliation.
    pub fn outbox_due(&self, now: DateTime<Utc>, limit: usize) -> Result<Vec<OutboxEntry>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.entries(
            "WHERE status = 'queued' AND attempt_started_at IS NULL AND next_attempt_at <= ?1
             ORDER BY next_attempt_at, id LIMIT ?2",
            &[&ts(&now)?, &limit],
        )
    }

    /// Messages whose attempt began but whose result was never recorded.
    pub fn outbox_in_flight(&self) -> Result<Vec<OutboxEntry>> {
        self.entries(
            "WHERE status = 'queued' AND attempt_started_at IS NOT NULL ORDER BY id",
            &[],
        )
    }

    /// Drops the attachments (the maps, the orders file) of every message
    /// sent before `sent_before`, and returns how many it dropped.
    /// They are most of the store's size (a report's maps are some 200 KB),
    /// they went out long ago, and the archive and the chronicle draw the
    /// maps again from the states; the text of each message stays. A message
    /// queued, in flight or dead keeps all of it: it may still be sent.
    pub fn outbox_drop_sent_attachments(&mut self, sent_before: DateTime<Utc>) -> Result<usize> {
        let n = self.execute(
            "DELETE FROM outbox_parts WHERE outbox_id IN
                (SELECT id FROM outbox WHERE status = 'sent' AND sent_at < ?1)",
            [ts(&sent_before)?],
        )?;
        Ok(n)
    }

    /// The earliest time a queued message is next due, if any is waiting.
    pub fn outbox_next_due(&self) -> Result<Option<DateTime<Utc>>> {
        let next: Option<String> = self.conn.query_row(
            "SELECT MIN(next_attempt_at) FROM outbox
             WHERE status = 'queued' AND attempt_started_at IS NULL",
            [],
            |r| r.get(0),
        )?;
        next.as_deref().map(parse_ts).transpose()
    }

    /// Marks the start of an attempt, committed before the transport is
    /// called. Returns false if the message is no longer waiting (another
    /// process took it, or it is already done), in which case it must not be
    /// sent.
    pub fn outbox_begin_attempt(&mut self, id: i64, now: DateTime<Utc>) -> Result<bool> {
        let n = self.execute(
            "UPDATE outbox SET attempts = attempts + 1, attempt_started_at = ?2
             WHERE id = ?1 AND status = 'queued' AND attempt_started_at IS NULL",
            params![id, ts(&now)?],
        )?;
        Ok(n == 1)
    }

    /// [`Store::outbox_begin_attempt`] for several messages in one
    /// transaction, so that a group sent at once costs one commit to mark:
    /// each is marked, or none is. Returns, for each id in turn, whether it
    /// was marked (and so may be sent).
    pub fn outbox_begin_attempts(&mut self, ids: &[i64], now: DateTime<Utc>) -> Result<Vec<bool>> {
        let tx = self.write()?;
        let mut marked = Vec::with_capacity(ids.len());
        {
            let mut update = tx.prepare_cached(
                "UPDATE outbox SET attempts = attempts + 1, attempt_started_at = ?2
                 WHERE id = ?1 AND status = 'queued' AND attempt_started_at IS NULL",
            )?;
            for id in ids {
                marked.push(update.execute(params![id, ts(&now)?])? == 1);
            }
        }
        tx.commit()?;
        Ok(marked)
    }

    /// How far the messages whose Message-ID starts with `prefix` (the
    /// manifest mail of one resolution, to every person) got: each message
    /// the transport took is recorded with the time it took it, its
    /// hand-over to the mail server, which the drand round of the
    /// resolution must follow (docs/AUDIT.md, section 11.6).
    pub fn handed_over(&self, campaign: &str, prefix: &str) -> Result<HandedOver> {
        let mut stmt = self.conn.prepare(
            "SELECT status, sent_at FROM outbox WHERE campaign_id = ?1 AND substr(message_id, 1, length(?2)) = ?2",
        )?;
        let rows = stmt.query_map(params![campaign, prefix], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
        })?;
        let mut out = HandedOver::default();
        for row in rows {
            let (status, sent_at) = row?;
            match status.as_str() {
                "sent" => {
                    let at = parse_ts(sent_at.as_deref().unwrap_or_default())?;
                    out.sent += 1;
                    out.last = out.last.max(Some(at));
                }
                "dead" => out.dead += 1,
                _ => out.waiting += 1,
            }
        }
        Ok(out)
    }

    /// Records that the transport took the message.
    pub fn outbox_sent(&mut self, id: i64, now: DateTime<Utc>) -> Result<()> {
        self.outbox_update(
            "UPDATE outbox SET status = 'sent', sent_at = ?2, attempt_started_at = NULL
             WHERE id = ?1 AND status = 'queued'",
            params![id, ts(&now)?],
        )
    }

    /// Records a failed attempt to be tried again at `next`.
    pub fn outbox_retry(&mut self, id: i64, next: DateTime<Utc>, error: &str) -> Result<()> {
        self.outbox_update(
            "UPDATE outbox SET next_attempt_at = ?2, last_error = ?3, attempt_started_at = NULL
             WHERE id = ?1 AND status = 'queued'",
            params![id, ts(&next)?, error],
        )
    }

    /// Gives up on a message, keeping the error that decided it.
    pub fn outbox_dead(&mut self, id: i64, error: &str) -> Result<()> {
        self.outbox_update(
            "UPDATE outbox SET status = 'dead', last_error = ?2, attempt_started_at = NULL
             WHERE id = ?1 AND status = 'queued'",
            params![id, error],
        )
    }

    /// Puts a dead message back in the queue, due at `now`, with its attempts
    /// counted from zero again (the GM's "send it again" once the cause is
    /// fixed).
    pub fn outbox_requeue(&mut self, message_id: &str, now: DateTime<Utc>) -> Result<bool> {
        let n = self.execute(
            "UPDATE outbox SET status = 'queued', attempts = 0, next_attempt_at = ?2,
                attempt_started_at = NULL
             WHERE message_id = ?1 AND status = 'dead'",
            params![message_id, ts(&now)?],
        )?;
        Ok(n == 1)
    }

    fn outbox_update(&mut self, sql: &str, args: impl rusqlite::Params) -> Result<()> {
        let n = self.execute(sql, args)?;
        if n != 1 {
            return Err(StoreError::Damaged(
                "an outbox message changed state under the sender".to_string(),
            ));
        }
        Ok(())
    }
}
