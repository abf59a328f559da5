//! The game master's commands in the store: the log of every command, the
//! acts that changed the game state, and the changes themselves, each
//! command with its announcement mail in one transaction.

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};

use super::{Result, Store, StoreError, parse_digest, parse_ts, put_state, queue_mail, ts};
use crate::audit::Digest32;
use crate::campaign::Campaign;
use crate::rules::GameState;

/// One line of the GM's log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GmEntry {
    /// The command's number in the campaign's log, from 1.
    pub n: u64,
    pub at: DateTime<Utc>,
    /// `cli` or `mail`.
    pub source: String,
    /// For a command taken from a message: the message's digest and the
    /// line, so that the message handled again does not act twice.
    pub origin: Option<String>,
    /// The command in canonical form (a passphrase is never logged).
    pub command: String,
    /// Whether it was carried out; a refused command is logged too.
    pub done: bool,
    /// What was done, or why not.
    pub outcome: String,
}

/// The two kinds of act that change the game state outside a resolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActKind {
    Correction,
    Rollback,
}

impl ActKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ActKind::Correction => "correction",
            ActKind::Rollback => "rollback",
        }
    }

    fn parse(s: &str) -> Option<ActKind> {
        match s {
            "correction" => Some(ActKind::Correction),
            "rollback" => Some(ActKind::Rollback),
            _ => None,
        }
    }
}

/// An act that changed the game state, as stored and archived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GmAct {
    /// Its number among the campaign's acts, from 1.
    pub n: u64,
    pub kind: ActKind,
    /// The canonical command (`correct ...`, `rollback`).
    pub command: String,
    /// How many turn resolutions had been recorded before it.
    pub after_turn: u64,
    /// For a rollback, the turn resolution it undid.
    pub undoes_turn: Option<u64>,
    pub prior_state_digest: Digest32,
    pub next_state_digest: Digest32,
    pub at: DateTime<Utc>,
}

/// What a command changes besides the log.
#[derive(Debug, Clone)]
pub enum GmChange {
    Nothing,
    /// A new deadline for the current phase.
    Deadline(DateTime<Utc>),
    /// A closed resolution is to be resolved without its beacon round.
    WaiveBeacon {
        kind: crate::audit::Kind,
        k: u64,
    },
    /// The orders a side has in for a phase were entered by the operator.
    OperatorOrders {
        phase_key: String,
        side: String,
    },
    Pause,
    /// Resumes play with the deadline moved on by the time spent paused.
    Resume {
        deadline: DateTime<Utc>,
    },
    /// The campaign with a side's player replaced.
    Campaign(Box<Campaign>),
    /// A new game state: a correction or a rollback.
    State {
        kind: ActKind,
        after_turn: u64,
        undoes_turn: Option<u64>,
        prior: Digest32,
        next: Box<GameState>,
        /// For a rollback: the reopened phase's opening time and deadline.
        phase: Option<(DateTime<Utc>, DateTime<Utc>)>,
    },
}

impl Store {
    /// The number the next GM command of `campaign` takes.
    pub fn next_gm_n(&self, campaign: &str) -> Result<u64> {
        let last: Option<i64> = self.conn.query_row(
            "SELECT MAX(n) FROM gm_log WHERE campaign_id = ?1",
            [campaign],
            |r| r.get(0),
        )?;
        Ok(last.map_or(1, |n| n as u64 + 1))
    }

    /// The outcome recorded for a command from `origin`, if it was handled.
    pub fn gm_outcome(&self, origin: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row(
                "SELECT outcome FROM gm_log WHERE origin = ?1",
                [origin],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// When the campaign was paused, if it is paused and the time is known.
    pub fn paused_since(&self, campaign: &str) -> Result<Option<DateTime<Utc>>> {
        let since: Option<String> = self
            .conn
            .query_row(
                "SELECT paused_since FROM campaigns WHERE id = ?1 AND paused = 1",
                [campaign],
                |r| r.get(0),
            )
            .optional()?
            .flatten();
        since.as_deref().map(parse_ts).transpose()
    }

    /// Records a GM command, makes its change and queues its mail, in one
    /// transaction. `entry.n` must be the next number: if another command
    /// was recorded meanwhile, or (for a state change) the state moved on,
    /// nothing is done and [`StoreError::Changed`] says so.
    pub fn record_gm(
        &mut self,
        campaign: &str,
        entry: &GmEntry,
        change: &GmChange,
        sealed: Option<&crate::ledger::Sealed>,
        mail: &[super::OutgoingMail],
    ) -> Result<()> {
        let tx = self.write()?;
        let last: Option<i64> = tx.query_row(
            "SELECT MAX(n) FROM gm_log WHERE campaign_id = ?1",
            [campaign],
            |r| r.get(0),
        )?;
        if last.map_or(1, |n| n as u64 + 1) != entry.n {
            return Err(StoreError::Changed(campaign.to_string()));
        }
        tx.execute(
            "INSERT INTO gm_log (campaign_id, n, at, source, origin, command, done, outcome)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                campaign,
                super::int(entry.n)?,
                ts(&entry.at)?,
                entry.source,
                entry.origin,
                entry.command,
                entry.done,
                entry.outcome
            ],
        )?;
        let act_states = apply_change(&tx, campaign, entry, change)?;
        if let Some(sealed) = sealed {
            super::ledger::append(&tx, campaign, sealed, act_states)?;
        }
        for m in mail {
            queue_mail(&tx, Some(campaign), m, entry.at)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The campaign's GM log, oldest first.
    pub fn gm_log(&self, campaign: &str) -> Result<Vec<GmEntry>> {
        let mut stmt = self.conn.prepare(
            "SELECT n, at, source, origin, command, done, outcome FROM gm_log
             WHERE campaign_id = ?1 ORDER BY n",
        )?;
        let rows = stmt
            .query_map([campaign], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, Option<String>>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, bool>(5)?,
                    r.get::<_, String>(6)?,
                ))
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(n, at, source, origin, command, done, outcome)| {
                Ok(GmEntry {
                    n: n as u64,
                    at: parse_ts(&at)?,
                    source,
                    origin,
                    command,
                    done,
                    outcome,
                })
            })
            .collect()
    }

    /// The acts that changed the campaign's state, in order.
    pub fn gm_acts(&self, campaign: &str) -> Result<Vec<GmAct>> {
        let mut stmt = self.conn.prepare(
            "SELECT n, kind, command, after_turn, undoes_turn, prior_state, next_state, at
             FROM gm_acts WHERE campaign_id = ?1 ORDER BY n",
        )?;
        let rows = stmt
            .query_map([campaign], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, Option<i64>>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, String>(6)?,
                    r.get::<_, String>(7)?,
                ))
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(n, kind, command, after, undoes, prior, next, at)| {
                Ok(GmAct {
                    n: n as u64,
                    kind: ActKind::parse(&kind)
                        .ok_or_else(|| StoreError::Damaged(format!("GM act kind `{kind}`")))?,
                    command,
                    after_turn: after as u64,
                    undoes_turn: undoes.map(|t| t as u64),
                    prior_state_digest: parse_digest(&prior)?,
                    next_state_digest: parse_digest(&next)?,
                    at: parse_ts(&at)?,
                })
            })
            .collect()
    }
}

/// Makes a GM command's change inside its transaction; for a change of
/// state, returns the states it went from and to, which the ledger records.
fn apply_change(
    tx: &Connection,
    campaign: &str,
    entry: &GmEntry,
    change: &GmChange,
) -> Result<Option<(Digest32, Digest32)>> {
    match change {
        GmChange::Nothing => {}
        GmChange::Deadline(deadline) => {
            tx.execute(
                "UPDATE campaigns SET deadline = ?2 WHERE id = ?1",
                params![campaign, ts(deadline)?],
            )?;
        }
        GmChange::WaiveBeacon { kind, k } => {
            let n = tx.execute(
                "UPDATE resolutions SET beacon_signature = ?4
                 WHERE campaign_id = ?1 AND kind = ?2 AND k = ?3 AND resolved_at IS NULL
                   AND beacon_round IS NOT NULL",
                params![
                    campaign,
                    kind.as_str(),
                    super::int(*k)?,
                    super::BEACON_WAIVED
                ],
            )?;
            if n != 1 {
                return Err(StoreError::Changed(campaign.to_string()));
            }
        }
        GmChange::OperatorOrders { phase_key, side } => {
            tx.execute(
                "UPDATE submissions SET via = 'gm'
                 WHERE campaign_id = ?1 AND phase_key = ?2 AND side = ?3
                   AND status = 'accepted' AND closed_in IS NULL",
                params![campaign, phase_key, side],
            )?;
        }
        GmChange::Pause => {
            tx.execute(
                "UPDATE campaigns SET paused = 1, paused_since = ?2 WHERE id = ?1",
                params![campaign, ts(&entry.at)?],
            )?;
        }
        GmChange::Resume { deadline } => {
            tx.execute(
                "UPDATE campaigns SET paused = 0, paused_since = NULL, deadline = ?2
                 WHERE id = ?1",
                params![campaign, ts(deadline)?],
            )?;
        }
        GmChange::Campaign(updated) => {
            tx.execute(
                "UPDATE campaigns SET campaign_json = ?2 WHERE id = ?1",
                params![
                    campaign,
                    serde_json::to_string(updated.as_ref())
                        .map_err(|e| StoreError::Damaged(e.to_string()))?
                ],
            )?;
        }
        GmChange::State { .. } => return change_state(tx, campaign, entry, change),
    }
    Ok(None)
}

/// A correction's or a rollback's new state, made current and recorded as
/// an act, if the state has not moved on meanwhile.
fn change_state(
    tx: &Connection,
    campaign: &str,
    entry: &GmEntry,
    change: &GmChange,
) -> Result<Option<(Digest32, Digest32)>> {
    let GmChange::State {
        kind,
        after_turn,
        undoes_turn,
        prior,
        next,
        phase,
    } = change
    else {
        return Ok(None);
    };
    let (current, pending): (String, i64) = tx.query_row(
        "SELECT current_state, (SELECT COUNT(*) FROM resolutions
             WHERE campaign_id = ?1 AND resolved_at IS NULL)
         FROM campaigns WHERE id = ?1",
        [campaign],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if pending > 0 || current != prior.to_hex() {
        return Err(StoreError::Changed(campaign.to_string()));
    }
    let digest = put_state(tx, next.as_ref())?;
    let acts: Option<i64> = tx.query_row(
        "SELECT MAX(n) FROM gm_acts WHERE campaign_id = ?1",
        [campaign],
        |r| r.get(0),
    )?;
    tx.execute(
        "INSERT INTO gm_acts (campaign_id, n, kind, command, after_turn, undoes_turn,
            prior_state, next_state, at, log_n)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            campaign,
            acts.map_or(1, |n| n + 1),
            kind.as_str(),
            entry.command,
            super::int(*after_turn)?,
            undoes_turn.map(super::int).transpose()?,
            prior.to_hex(),
            digest.to_hex(),
            ts(&entry.at)?,
            super::int(entry.n)?
        ],
    )?;
    tx.execute(
        "UPDATE campaigns SET current_state = ?2 WHERE id = ?1",
        params![campaign, digest.to_hex()],
    )?;
    let moved = (*prior, digest);
    // Orders were checked against the state that no longer
    // holds, and a GM who knew them could otherwise choose the
    // new state for the dice it gives: every side sends again.
    tx.execute(
        "UPDATE submissions SET status = 'superseded'
         WHERE campaign_id = ?1 AND status = 'accepted' AND closed_in IS NULL",
        [campaign],
    )?;
    if let Some((opened, deadline)) = phase {
        tx.execute(
            "UPDATE campaigns SET phase_opened_at = ?2, deadline = ?3 WHERE id = ?1",
            params![campaign, ts(opened)?, ts(deadline)?],
        )?;
    }
    Ok(Some(moved))
}
