//! The hash-linked record in the store (spec adjutant-audit-v3): one row per
//! entry, appended in the transaction that records the resolution or the
//! act, so an entry exists exactly when what it seals does.

use rusqlite::{Connection, OptionalExtension, params};

use super::{Result, Store, StoreError, parse_digest};
use crate::audit::Digest32;
use crate::ledger::{Sealed, SubmissionLine};

/// One stored entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerEntry {
    pub entry: u64,
    pub folder: String,
    pub link_text: String,
    pub digest: Digest32,
    /// A game master's act's `act.json`.
    pub act_json: Option<String>,
    /// A game master's act that changed the state: the states before and
    /// after it.
    pub act_states: Option<(Digest32, Digest32)>,
}

impl Store {
    /// The number and digest of the campaign's last entry, if it has one.
    pub fn ledger_last(&self, campaign: &str) -> Result<Option<(u64, Digest32)>> {
        last(&self.conn, campaign)
    }

    /// Every entry of the campaign, in order.
    pub fn ledger(&self, campaign: &str) -> Result<Vec<LedgerEntry>> {
        let mut stmt = self.conn.prepare(
            "SELECT entry, folder, link_text, digest, act_json, act_prior, act_next
             FROM ledger WHERE campaign_id = ?1 ORDER BY entry",
        )?;
        type Row = (
            i64,
            String,
            String,
            String,
            Option<String>,
            Option<String>,
            Option<String>,
        );
        let rows: Vec<Row> = stmt
            .query_map([campaign], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                ))
            })?
            .collect::<std::result::Result<_, _>>()?;
        rows.into_iter()
            .map(
                |(entry, folder, link_text, digest, act_json, prior, next)| {
                    let act_states = match (prior, next) {
                        (Some(p), Some(n)) => Some((parse_digest(&p)?, parse_digest(&n)?)),
                        _ => None,
                    };
                    Ok(LedgerEntry {
                        entry: entry as u64,
                        folder,
                        link_text,
                        digest: parse_digest(&digest)?,
                        act_json,
                        act_states,
                    })
                },
            )
            .collect()
    }

    /// The submissions made for the phase that resolution `folder` closed,
    /// in the order made.
    pub fn phase_submissions(&self, campaign: &str, folder: &str) -> Result<Vec<SubmissionLine>> {
        let mut stmt = self.conn.prepare(
            "SELECT submitted_at, side, digest, status, via IS 'gm' FROM submissions
             WHERE campaign_id = ?1 AND closed_in = ?2 ORDER BY id",
        )?;
        let rows = stmt
            .query_map(params![campaign, folder], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, bool>(4)?,
                ))
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(at, side, digest, status, by_gm)| {
                Ok(SubmissionLine {
                    at,
                    side,
                    digest: parse_digest(&digest)?,
                    status,
                    via: if by_gm { "gm" } else { "mail" }.to_string(),
                })
            })
            .collect()
    }
}

fn last(conn: &Connection, campaign: &str) -> Result<Option<(u64, Digest32)>> {
    let row: Option<(i64, String)> = conn
        .query_row(
            "SELECT entry, digest FROM ledger WHERE campaign_id = ?1
             ORDER BY entry DESC LIMIT 1",
            [campaign],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    row.map(|(e, d)| Ok((e as u64, parse_digest(&d)?)))
        .transpose()
}

/// Appends a sealed entry. It must follow the last one stored, and name
/// it: an entry sealed against a record that has moved on is refused, so
/// that no mail ever names a head the store does not hold.
pub(super) fn append(
    tx: &Connection,
    campaign: &str,
    sealed: &Sealed,
    act_states: Option<(Digest32, Digest32)>,
) -> Result<()> {
    let link = &sealed.link;
    match last(tx, campaign)? {
        Some((entry, digest)) if entry + 1 == link.entry && digest == link.previous => {}
        None if link.entry == 1 => {}
        _ => return Err(StoreError::Changed(campaign.to_string())),
    }
    tx.execute(
        "INSERT INTO ledger (campaign_id, entry, folder, link_text, digest, act_json,
            act_prior, act_next)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            campaign,
            super::int(link.entry)?,
            link.folder,
            link.text(),
            sealed.digest().to_hex(),
            sealed.act_json,
            act_states.map(|(p, _)| p.to_hex()),
            act_states.map(|(_, n)| n.to_hex()),
        ],
    )?;
    Ok(())
}
