//! The embedded store: one SQLite file in the data directory. Every inbound
//! message is stored before anything acts on it, and every step that changes
//! several tables is one transaction, so a crash leaves either all of a step
//! or none of it.

pub mod access;
pub mod disk;
mod gm;
mod ledger;
pub mod lock;
mod outbox;
mod schema;
mod turns;
mod write;

pub use gm::{ActKind, GmAct, GmChange, GmEntry};
pub use ledger::LedgerEntry;
pub use outbox::{HandedOver, OutboxEntry, OutboxStatus};

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::audit::{Digest32, HashChain, Kind};
use crate::campaign::Campaign;
use crate::rules::GameState;

/// The database file's name inside the data directory.
pub const DB_FILE: &str = "adjutant.sqlite3";

/// What can go wrong in the store.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The data directory or the database could not be made, or others
    /// can read it.
    #[error(transparent)]
    Access(#[from] access::AccessError),
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A database error that the disk under the data directory explains.
    #[error("database error: {source}: {trouble}")]
    Disk {
        source: rusqlite::Error,
        trouble: disk::DiskTrouble,
    },
    #[error(
        "the database is at schema version {found}, newer than this program knows ({known}); upgrade adjutant"
    )]
    TooNew { found: i64, known: i64 },
    #[error("no campaign `{0}` in this data directory (see `adjutant status`)")]
    NoCampaign(String),
    #[error("campaign `{0}` is already registered in this data directory")]
    Duplicate(String),
    #[error(
        "the phase of campaign {0} closed while the orders were being checked; send them again for the new phase"
    )]
    PhaseClosed(String),
    #[error(
        "campaign {0} changed while the command was being carried out (another command, or a phase closed); give it again"
    )]
    Changed(String),
    #[error("stored data is damaged: {0}")]
    Damaged(String),
    /// A value that could not be read back as written; nothing was stored.
    #[error("cannot store {0}")]
    Unstorable(String),
}

impl StoreError {
    /// Whether trying again later may succeed (a locked or busy database).
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _))
                if matches!(e.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
        )
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// A registered campaign as the store holds it.
#[derive(Debug, Clone)]
pub struct CampaignRecord {
    pub campaign: Campaign,
    /// The campaign folder it was registered from (for its templates).
    pub source_dir: PathBuf,
    pub chain: HashChain,
    pub commitment: Digest32,
    pub created_at: DateTime<Utc>,
    pub initial_state_digest: Digest32,
    pub current_state_digest: Digest32,
    pub phase_opened_at: DateTime<Utc>,
    pub deadline: DateTime<Utc>,
    pub paused: bool,
    /// The campaign keeps a hash-linked record (spec adjutant-audit-v3):
    /// registered with an umpire chain origin of its own.
    pub linked: bool,
}

/// One side's accepted orders for a phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    pub side: String,
    pub submitted_at: DateTime<Utc>,
    pub canonical_text: String,
    pub digest: Digest32,
}

/// A phase that has been closed: its manifest is fixed; it may or may not
/// have been resolved yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolutionRecord {
    pub kind: Kind,
    /// The number among resolutions of its kind, from 1.
    pub k: u64,
    pub phase_label: String,
    pub closed_at: DateTime<Utc>,
    pub manifest_text: String,
    pub manifest_digest: Digest32,
    pub prior_state_digest: Digest32,
    /// The canonical orders each side had in, by side id.
    pub orders: BTreeMap<String, String>,
    /// The drand round the manifest names (spec v3 with a drand beacon).
    pub beacon_round: Option<u64>,
    /// When that round was last asked for and not had.
    pub beacon_tried_at: Option<DateTime<Utc>>,
    /// The game master resolved it without its round (an act).
    pub beacon_waived: bool,
    pub result: Option<ResolvedRecord>,
}

/// What a resolution produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedRecord {
    pub resolved_at: DateTime<Utc>,
    pub secret: Digest32,
    pub seed: Digest32,
    pub next_state_digest: Digest32,
    /// Canonical JSON, one per event / roll.
    pub events: Vec<String>,
    pub rolls: Vec<String>,
    /// The beacon round's signature, hex, or [`BEACON_WAIVED`].
    pub beacon_signature: Option<String>,
}

/// What a resolution's beacon signature says when the game master resolved
/// it without the beacon (an act of the record).
pub const BEACON_WAIVED: &str = "waived";

/// A message waiting in (or gone from) the outbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMail {
    pub message_id: String,
    pub recipient: String,
    pub subject: String,
    /// The plain-text body; every message has one.
    pub body: String,
    /// An HTML alternative to `body`, for reports; it may show the parts
    /// that have a `content_id` inline (`<img src="cid:...">`).
    pub html: Option<String>,
    /// Files sent with the message: inline images (with a `content_id`)
    /// and attachments (without).
    pub parts: Vec<MailPart>,
    /// The Message-ID (with its angle brackets) of the message this one
    /// answers; a reply carries it as In-Reply-To and References, and is
    /// marked `Auto-Submitted: auto-replied` (RFC 3834).
    pub in_reply_to: Option<String>,
}

/// A file carried by an outgoing message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailPart {
    pub filename: String,
    /// A MIME type, e.g. `image/png`.
    pub content_type: String,
    /// Set for a part the HTML shows inline, without the angle brackets.
    pub content_id: Option<String>,
    pub bytes: Vec<u8>,
}

impl OutgoingMail {
    /// A plain-text message with nothing attached.
    pub fn text(message_id: String, recipient: String, subject: String, body: String) -> Self {
        OutgoingMail {
            message_id,
            recipient,
            subject,
            body,
            html: None,
            parts: Vec::new(),
            in_reply_to: None,
        }
    }
}

pub struct Store {
    conn: Connection,
    /// Shared by the connections opened from one another, so that their
    /// writers take turns in order (`turns`).
    writers: std::sync::Arc<turns::Queue>,
}

/// A time as the store writes it, checked by the very code that reads it
/// back: a time that would not read back (a year past 9999, which RFC 3339
/// cannot write, or before year 0) is refused here, before anything is
/// written, rather than found damaged by every later read.
fn ts(t: &DateTime<Utc>) -> Result<String> {
    let text = t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    match parse_ts(&text) {
        // Written to the second: what reads back is the same second.
        Ok(back) if back.timestamp() == t.timestamp() => Ok(text),
        _ => Err(StoreError::Unstorable(format!(
            "the time {text} (the store keeps times from 0000-01-01 to 9999-12-31, to the second)"
        ))),
    }
}

/// A count or number as the store writes it (SQLite's integers are signed):
/// one past `i64::MAX` is refused rather than stored negative.
fn int(n: u64) -> Result<i64> {
    i64::try_from(n).map_err(|_| {
        StoreError::Unstorable(format!(
            "the number {n} (the store keeps numbers up to {})",
            i64::MAX
        ))
    })
}

fn parse_ts(text: &str) -> Result<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| StoreError::Damaged(format!("bad timestamp `{text}`: {e}")))
}

fn parse_digest(text: &str) -> Result<Digest32> {
    Digest32::from_hex(text).map_err(|e| StoreError::Damaged(e.to_string()))
}

impl Store {
    /// Opens (creating if need be) the store in `data_dir` and brings its
    /// schema up to date. A database error that a full or read-only disk
    /// explains says so.
    pub fn open(data_dir: &Path) -> Result<Store> {
        Store::open_here(data_dir).map_err(|e| match e {
            StoreError::Sqlite(source) if disk::may_be_the_disk(&source) => {
                match disk::probe(data_dir) {
                    Some(trouble) => StoreError::Disk { source, trouble },
                    None => StoreError::Sqlite(source),
                }
            }
            e => e,
        })
    }

    fn open_here(data_dir: &Path) -> Result<Store> {
        let db_file = data_dir.join(DB_FILE);
        access::secure(data_dir, &db_file)?;
        let conn = Connection::open(&db_file)?;
        // WAL lets readers (status, export) run beside the daemon; FULL makes
        // a committed transaction survive a power cut, which is what
        // "an acknowledged order is durable" needs.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        let mut store = Store {
            conn,
            writers: std::sync::Arc::default(),
        };
        store.migrate()?;
        Ok(store)
    }

    /// Another connection to the same store, for work done beside this
    /// one's (the daemon resolves several campaigns at once, each on a
    /// connection of its own; SQLite takes their writes one at a time).
    /// `None` for a store that has no file.
    pub fn another(&self) -> Result<Option<Store>> {
        let Some(data_dir) = self.data_dir() else {
            return Ok(None);
        };
        let mut other = Store::open(data_dir)?;
        other.writers = std::sync::Arc::clone(&self.writers);
        Ok(Some(other))
    }

    /// Whether the data directory and the database are still the owner's
    /// alone (see [`access::check`]); a store without a file has nothing to
    /// check.
    pub fn check_access(&self) -> Result<()> {
        if let Some(data_dir) = self.data_dir() {
            access::check(data_dir, &data_dir.join(DB_FILE))?;
        }
        Ok(())
    }

    /// The data directory, for a store that has a file.
    fn data_dir(&self) -> Option<&Path> {
        self.conn
            .path()
            .filter(|p| !p.is_empty())
            .and_then(|p| Path::new(p).parent())
    }

    /// Whether the disk under the data directory can take a write now, and
    /// if not, why: what a failed step's log line needs to name its cause.
    pub fn disk_trouble(&self) -> Option<disk::DiskTrouble> {
        disk::probe(self.data_dir()?)
    }

    fn migrate(&mut self) -> Result<()> {
        let known = schema::MIGRATIONS.len() as i64;
        let found: i64 = self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?;
        if found > known {
            return Err(StoreError::TooNew { found, known });
        }
        for (i, sql) in schema::MIGRATIONS.iter().enumerate().skip(found as usize) {
            let tx = self.write()?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
            tx.commit()?;
        }
        Ok(())
    }

    /// The schema version in force.
    pub fn schema_version(&self) -> Result<i64> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// Registers a campaign with its chain, its initial state and its first
    /// phase, and queues the opening message to everyone, in one transaction.
    #[allow(clippy::too_many_arguments)]
    pub fn register_campaign(
        &mut self,
        campaign: &Campaign,
        source_dir: &Path,
        chain: &HashChain,
        initial_state: &GameState,
        now: DateTime<Utc>,
        deadline: DateTime<Utc>,
        opening_mail: &[OutgoingMail],
    ) -> Result<()> {
        let tx = self.write()?;
        let exists: bool = tx
            .query_row(
                "SELECT 1 FROM campaigns WHERE id = ?1",
                [&campaign.id],
                |_| Ok(true),
            )
            .optional()?
            .unwrap_or(false);
        if exists {
            return Err(StoreError::Duplicate(campaign.id.clone()));
        }
        let state_digest = put_state(&tx, initial_state)?;
        tx.execute(
            "INSERT INTO campaigns (id, title, ruleset, source_dir, campaign_json, chain_origin,
                chain_length, commitment, created_at, initial_state, current_state,
                phase_opened_at, deadline, umpire_origin)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?9, ?11, ?12)",
            params![
                campaign.id,
                campaign.title,
                campaign.ruleset.id,
                source_dir.display().to_string(),
                serde_json::to_string(campaign).map_err(|e| StoreError::Damaged(e.to_string()))?,
                chain.origin().as_bytes().to_vec(),
                chain.length(),
                chain.commitment().to_hex(),
                ts(&now)?,
                state_digest.to_hex(),
                ts(&deadline)?,
                chain.umpire_origin().map(|u| u.as_bytes().to_vec()),
            ],
        )?;
        for mail in opening_mail {
            queue_mail(&tx, Some(&campaign.id), mail, now)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// A number that changes when another connection (another process)
    /// commits to the store, and only then: SQLite's `data_version`.
    pub fn data_version(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("PRAGMA data_version", [], |r| r.get(0))?)
    }

    /// Every registered campaign id, sorted.
    pub fn campaign_ids(&self) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare("SELECT id FROM campaigns ORDER BY id")?;
        let ids = stmt
            .query_map([], |r| r.get(0))?
            .collect::<std::result::Result<Vec<String>, _>>()?;
        Ok(ids)
    }

    /// A registered campaign's definition alone (its sides, players, GM
    /// and schedule), read without the rest of its row: who plays where, and
    /// whom to tell of a failure, can still be known of a campaign whose
    /// other columns no longer read.
    pub fn campaign_definition(&self, id: &str) -> Result<Campaign> {
        let json: String = self
            .conn
            .query_row(
                "SELECT campaign_json FROM campaigns WHERE id = ?1",
                [id],
                |r| r.get(0),
            )
            .optional()?
            .ok_or_else(|| StoreError::NoCampaign(id.to_string()))?;
        serde_json::from_str(&json).map_err(|e| StoreError::Damaged(e.to_string()))
    }

    pub fn campaign(&self, id: &str) -> Result<CampaignRecord> {
        let row = self
            .conn
            .query_row(
                "SELECT campaign_json, chain_origin, chain_length, commitment, created_at,
                        initial_state, current_state, phase_opened_at, deadline, paused, source_dir,
                        umpire_origin
                 FROM campaigns WHERE id = ?1",
                [id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, Vec<u8>>(1)?,
                        r.get::<_, u32>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, String>(4)?,
                        r.get::<_, String>(5)?,
                        r.get::<_, String>(6)?,
                        r.get::<_, String>(7)?,
                        r.get::<_, String>(8)?,
                        r.get::<_, bool>(9)?,
                        r.get::<_, String>(10)?,
                        r.get::<_, Option<Vec<u8>>>(11)?,
                    ))
                },
            )
            .optional()?
            .ok_or_else(|| StoreError::NoCampaign(id.to_string()))?;
        let campaign: Campaign =
            serde_json::from_str(&row.0).map_err(|e| StoreError::Damaged(e.to_string()))?;
        let origin: [u8; 32] = row
            .1
            .try_into()
            .map_err(|_| StoreError::Damaged("chain origin is not 32 bytes".into()))?;
        let chain = match row.11 {
            None => HashChain::new(Digest32(origin), row.2),
            Some(umpire) => {
                let umpire: [u8; 32] = umpire.try_into().map_err(|_| {
                    StoreError::Damaged("umpire chain origin is not 32 bytes".into())
                })?;
                HashChain::with_umpire_origin(Digest32(origin), Digest32(umpire), row.2)
            }
        }
        .map_err(|e| StoreError::Damaged(e.to_string()))?;
        let linked = chain.umpire_origin().is_some();
        Ok(CampaignRecord {
            campaign,
            source_dir: PathBuf::from(row.10),
            chain,
            commitment: parse_digest(&row.3)?,
            created_at: parse_ts(&row.4)?,
            initial_state_digest: parse_digest(&row.5)?,
            current_state_digest: parse_digest(&row.6)?,
            phase_opened_at: parse_ts(&row.7)?,
            deadline: parse_ts(&row.8)?,
            paused: row.9,
            linked,
        })
    }

    /// The canonical JSON of a stored state.
    pub fn state_json(&self, digest: &Digest32) -> Result<String> {
        self.conn
            .query_row(
                "SELECT json FROM states WHERE digest = ?1",
                [digest.to_hex()],
                |r| r.get(0),
            )
            .optional()?
            .ok_or_else(|| StoreError::Damaged(format!("state {digest} is missing")))
    }

    pub fn state(&self, digest: &Digest32) -> Result<GameState> {
        let json = self.state_json(digest)?;
        serde_json::from_str(&json).map_err(|e| StoreError::Damaged(e.to_string()))
    }

    /// Stores a message's raw bytes before anything else looks at it, and
    /// returns its id (see [`Store::store_inbound_keyed`]).
    pub fn store_inbound(&mut self, raw: &[u8], source: &str, now: DateTime<Utc>) -> Result<i64> {
        self.store_inbound_keyed(raw, source, now, None, None)
    }

    /// Stores a message's raw bytes, with what tells it apart from other
    /// messages (`key`, see `mail::Inbound::key`) and its sender, and
    /// returns its id. The same bytes stored before but never finished (the
    /// process stopped while handling them) keep their row: one message, one
    /// record, however often it is delivered.
    pub fn store_inbound_keyed(
        &mut self,
        raw: &[u8],
        source: &str,
        now: DateTime<Utc>,
        key: Option<&Digest32>,
        sender: Option<&str>,
    ) -> Result<i64> {
        let digest = Digest32::of(raw).to_hex();
        let key = key.map(Digest32::to_hex);
        let tx = self.write()?;
        let unfinished: Option<i64> = tx
            .query_row(
                "SELECT id FROM inbound_messages
                 WHERE raw_digest = ?1 AND outcome IS NULL ORDER BY id LIMIT 1",
                [&digest],
                |r| r.get(0),
            )
            .optional()?;
        let id = match unfinished {
            Some(id) => {
                // Only what is new: a message held while its campaign's
                // phase closes is stored again at every poll, and the same
                // values would be written (and synced) each time.
                tx.execute(
                    "UPDATE inbound_messages
                     SET message_key = COALESCE(?2, message_key), sender = COALESCE(?3, sender)
                     WHERE id = ?1
                       AND (message_key IS NOT COALESCE(?2, message_key)
                            OR sender IS NOT COALESCE(?3, sender))",
                    params![id, key, sender],
                )?;
                id
            }
            None => {
                tx.execute(
                    "INSERT INTO inbound_messages
                        (received_at, source, raw, raw_digest, message_key, sender)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![ts(&now)?, source, raw, digest, key, sender],
                )?;
                tx.last_insert_rowid()
            }
        };
        tx.commit()?;
        Ok(id)
    }

    /// The outcome recorded for an earlier message, fully handled, with
    /// exactly these bytes, or with the same key (the same message delivered
    /// again, see `mail::Inbound::key`) whose orders or commands were taken.
    /// A refused message does not count by its key: else anyone who saw a
    /// player's Message-ID could send a forgery under it first and have the
    /// real message set aside as a repeat.
    pub fn handled_before(&self, raw: &[u8], key: Option<&Digest32>) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row(
                "SELECT outcome FROM inbound_messages
                 WHERE outcome IS NOT NULL
                   AND (raw_digest = ?1 OR (message_key = ?2 AND status IN ('accepted', 'gm', 'failed')))
                 ORDER BY id LIMIT 1",
                params![Digest32::of(raw).to_hex(), key.map(Digest32::to_hex)],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Records how a stored message was handled, with the reply to queue,
    /// in one transaction: a crash leaves either both or neither, and a
    /// message without an outcome is handled again on restart.
    pub fn finish_inbound(
        &mut self,
        id: i64,
        status: &str,
        outcome: &str,
        campaign: Option<&str>,
        reply: Option<&OutgoingMail>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let tx = self.write()?;
        tx.execute(
            "UPDATE inbound_messages SET status = ?2, outcome = ?3, campaign_id = ?4 WHERE id = ?1",
            params![id, status, outcome, campaign],
        )?;
        if let Some(mail) = reply {
            queue_mail(&tx, campaign, mail, now)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The messages for `campaign` refused since `since`, oldest first:
    /// when each came, its sender and why it was refused.
    pub fn refused_for(
        &self,
        campaign: &str,
        since: DateTime<Utc>,
    ) -> Result<Vec<(DateTime<Utc>, String, String)>> {
        let mut stmt = self.conn.prepare(
            "SELECT received_at, COALESCE(sender, ''), COALESCE(outcome, '') FROM inbound_messages
             WHERE campaign_id = ?1 AND status = 'refused' AND received_at >= ?2
             ORDER BY id",
        )?;
        let rows = stmt
            .query_map(params![campaign, ts(&since)?], |r| {
                Ok((r.get::<_, String>(0)?, r.get(1)?, r.get(2)?))
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(at, sender, outcome)| Ok((parse_ts(&at)?, sender, outcome)))
            .collect()
    }

    /// How many refusals were sent to `sender` since `since`.
    pub fn refusals_to(&self, sender: &str, since: DateTime<Utc>) -> Result<usize> {
        self.handled_from(sender, "refused", since)
    }

    /// How many messages from `sender` since `since` had their orders (or
    /// their word that they send none) taken.
    pub fn acceptances_to(&self, sender: &str, since: DateTime<Utc>) -> Result<usize> {
        self.handled_from(sender, "accepted", since)
    }

    fn handled_from(&self, sender: &str, status: &str, since: DateTime<Utc>) -> Result<usize> {
        let n: i64 = self.conn.query_row(
            "SELECT COUNT(*) FROM inbound_messages
             WHERE sender = ?1 AND status = ?2 AND received_at >= ?3",
            params![sender, status, ts(&since)?],
            |r| r.get(0),
        )?;
        Ok(n as usize)
    }

    /// Finds the campaigns where `address` is the GM or a player.
    pub fn campaigns_of(&self, address: &str) -> Result<Vec<String>> {
        let mut found = Vec::new();
        for id in self.campaign_ids()? {
            // A campaign whose definition cannot be read is no one's: it must
            // not stop the mail of every other campaign.
            let c = match self.campaign_definition(&id) {
                Ok(c) => c,
                Err(StoreError::Damaged(_)) => continue,
                Err(e) => return Err(e),
            };
            let matches = |a: &str| a.eq_ignore_ascii_case(address);
            if matches(&c.gm.address) || c.players.iter().any(|p| matches(&p.person.address)) {
                found.push(id);
            }
        }
        Ok(found)
    }

    /// Records a side's accepted orders for a phase; an earlier submission for
    /// the same phase is marked superseded in the same transaction. Returns
    /// whether one was replaced.
    #[allow(clippy::too_many_arguments)]
    pub fn submit_orders(
        &mut self,
        campaign: &str,
        checked_against: &Digest32,
        phase_key: &str,
        side: &str,
        raw_text: &str,
        canonical_text: &str,
        ready: bool,
        now: DateTime<Utc>,
        message: Option<i64>,
    ) -> Result<bool> {
        // IMMEDIATE takes the write lock before reading, so no phase can
        // close between the check below and the insert: an order that is
        // acknowledged is an order in the next manifest.
        let tx = self.write()?;
        phase_still_open(&tx, campaign, checked_against)?;
        let replaced = supersede(&tx, campaign, phase_key, side)?;
        let said = Said {
            campaign,
            state: checked_against,
            phase_key,
            side,
        };
        said.ready(&tx, ready, now, message)?;
        // Orders take the place of an earlier word that the side sends none.
        tx.execute(
            "DELETE FROM no_orders WHERE campaign_id = ?1 AND phase_key = ?2 AND side = ?3",
            params![campaign, phase_key, side],
        )?;
        tx.execute(
            "INSERT INTO submissions (campaign_id, phase_key, side, submitted_at, raw_text,
                canonical_text, digest, status, message_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'accepted', ?8)",
            params![
                campaign,
                phase_key,
                side,
                ts(&now)?,
                raw_text,
                canonical_text,
                Digest32::of(canonical_text.as_bytes()).to_hex(),
                message
            ],
        )?;
        tx.commit()?;
        Ok(replaced > 0)
    }

    /// Records that a side sends no orders for a phase, withdrawing any it
    /// sent before, in one transaction. Returns whether orders were
    /// withdrawn. Checked against the state as [`Store::submit_orders`] is.
    pub fn declare_no_orders(
        &mut self,
        campaign: &str,
        checked_against: &Digest32,
        phase_key: &str,
        side: &str,
        now: DateTime<Utc>,
        message: Option<i64>,
    ) -> Result<bool> {
        let tx = self.write()?;
        phase_still_open(&tx, campaign, checked_against)?;
        let withdrawn = supersede(&tx, campaign, phase_key, side)?;
        let said = Said {
            campaign,
            state: checked_against,
            phase_key,
            side,
        };
        said.ready(&tx, true, now, message)?;
        tx.execute(
            "INSERT OR REPLACE INTO no_orders (campaign_id, phase_key, side, declared_at, message_id)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![campaign, phase_key, side, ts(&now)?, message],
        )?;
        tx.commit()?;
        Ok(withdrawn > 0)
    }

    /// Records a side's word that it is ready for the phase to close, or
    /// that it waits for the deadline, leaving its orders as they stand.
    /// Checked against the state as [`Store::submit_orders`] is.
    #[allow(clippy::too_many_arguments)]
    pub fn say_ready(
        &mut self,
        campaign: &str,
        checked_against: &Digest32,
        phase_key: &str,
        side: &str,
        ready: bool,
        now: DateTime<Utc>,
        message: Option<i64>,
    ) -> Result<()> {
        let tx = self.write()?;
        phase_still_open(&tx, campaign, checked_against)?;
        let said = Said {
            campaign,
            state: checked_against,
            phase_key,
            side,
        };
        said.ready(&tx, ready, now, message)?;
        tx.commit()?;
        Ok(())
    }

    /// Each side's last word for a phase opened on `state`: ready (`true`)
    /// or waiting for the deadline. A side that said nothing is absent.
    pub fn readiness(
        &self,
        campaign: &str,
        state: &Digest32,
        phase_key: &str,
    ) -> Result<BTreeMap<String, bool>> {
        let mut stmt = self.conn.prepare(
            "SELECT side, ready FROM readiness
             WHERE campaign_id = ?1 AND state = ?2 AND phase_key = ?3",
        )?;
        let sides = stmt
            .query_map(params![campaign, state.to_hex(), phase_key], |r| {
                Ok((r.get(0)?, r.get::<_, i64>(1)? != 0))
            })?
            .collect::<std::result::Result<_, _>>()?;
        Ok(sides)
    }

    /// The sides that said they send no orders for a phase.
    pub fn sides_sending_none(
        &self,
        campaign: &str,
        phase_key: &str,
    ) -> Result<std::collections::BTreeSet<String>> {
        let mut stmt = self
            .conn
            .prepare("SELECT side FROM no_orders WHERE campaign_id = ?1 AND phase_key = ?2")?;
        let sides = stmt
            .query_map(params![campaign, phase_key], |r| r.get(0))?
            .collect::<std::result::Result<_, _>>()?;
        Ok(sides)
    }

    /// The accepted submission of each side for a phase still open (one a
    /// rollback replays starts with none: what was closed stays closed).
    pub fn accepted_submissions(
        &self,
        campaign: &str,
        phase_key: &str,
    ) -> Result<BTreeMap<String, Submission>> {
        let mut stmt = self.conn.prepare(
            "SELECT side, submitted_at, canonical_text, digest FROM submissions
             WHERE campaign_id = ?1 AND phase_key = ?2 AND status = 'accepted'
               AND closed_in IS NULL",
        )?;
        let rows = stmt
            .query_map(params![campaign, phase_key], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let mut out = BTreeMap::new();
        for (side, at, text, digest) in rows {
            out.insert(
                side.clone(),
                Submission {
                    side,
                    submitted_at: parse_ts(&at)?,
                    canonical_text: text,
                    digest: parse_digest(&digest)?,
                },
            );
        }
        Ok(out)
    }

    /// Closes a phase: fixes its manifest and the orders it covers, and
    /// queues the manifest mail, in one transaction. After this no order for
    /// the phase is taken, and the resolution can be run (again, after a
    /// crash) from what is stored.
    /// `phase_key` is the phase's key, for a turn: every submission made
    /// for it is marked as closed in this resolution.
    pub fn close_phase(
        &mut self,
        campaign: &str,
        record: &ResolutionRecord,
        phase_key: Option<&str>,
        mail: &[OutgoingMail],
    ) -> Result<()> {
        let tx = self.write()?;
        let kind = record.kind.as_str();
        if let Some(key) = phase_key {
            tx.execute(
                "UPDATE submissions SET closed_in = ?3
                 WHERE campaign_id = ?1 AND phase_key = ?2 AND closed_in IS NULL",
                params![
                    campaign,
                    key,
                    crate::ledger::resolution_dir(record.kind, record.k)
                ],
            )?;
        }
        tx.execute(
            "INSERT INTO resolutions (campaign_id, kind, k, phase_label, closed_at, manifest_text,
                manifest_digest, prior_state_digest, beacon_round)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                campaign,
                kind,
                int(record.k)?,
                record.phase_label,
                ts(&record.closed_at)?,
                record.manifest_text,
                record.manifest_digest.to_hex(),
                record.prior_state_digest.to_hex(),
                record.beacon_round.map(int).transpose()?,
            ],
        )?;
        for (side, text) in &record.orders {
            tx.execute(
                "INSERT INTO resolution_orders (campaign_id, kind, k, side, canonical_text)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![campaign, kind, int(record.k)?, side, text],
            )?;
        }
        for m in mail {
            queue_mail(&tx, Some(campaign), m, record.closed_at)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Records what a closed phase's resolution produced, the new state, and
    /// (for a turn) the next phase with its deadline, plus the mail that
    /// announces it, in one transaction.
    #[allow(clippy::too_many_arguments)]
    pub fn record_resolution(
        &mut self,
        campaign: &str,
        kind: Kind,
        k: u64,
        result: &ResolvedRecord,
        next_state: &GameState,
        next_phase: Option<(DateTime<Utc>, DateTime<Utc>)>,
        sealed: Option<&crate::ledger::Sealed>,
        mail: &[OutgoingMail],
    ) -> Result<()> {
        let tx = self.write()?;
        let digest = put_state(&tx, next_state)?;
        if digest != result.next_state_digest {
            return Err(StoreError::Damaged(format!(
                "{kind} {k}: next state digest {} does not match the state {digest}",
                result.next_state_digest
            )));
        }
        let updated = tx.execute(
            "UPDATE resolutions SET resolved_at = ?4, secret = ?5, seed = ?6, next_state_digest = ?7,
                beacon_signature = ?8
             WHERE campaign_id = ?1 AND kind = ?2 AND k = ?3 AND resolved_at IS NULL",
            params![
                campaign,
                kind.as_str(),
                int(k)?,
                ts(&result.resolved_at)?,
                result.secret.to_hex(),
                result.seed.to_hex(),
                digest.to_hex(),
                result.beacon_signature
            ],
        )?;
        if updated != 1 {
            return Err(StoreError::Damaged(format!(
                "{kind} {k} of {campaign} is not a closed, unresolved phase"
            )));
        }
        for (seq, json) in result.events.iter().enumerate() {
            tx.execute(
                "INSERT INTO events (campaign_id, kind, k, seq, json) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![campaign, kind.as_str(), int(k)?, int(seq as u64)?, json],
            )?;
        }
        for (idx, json) in result.rolls.iter().enumerate() {
            tx.execute(
                "INSERT INTO rolls (campaign_id, kind, k, idx, json) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![campaign, kind.as_str(), int(k)?, int(idx as u64)?, json],
            )?;
        }
        tx.execute(
            "UPDATE campaigns SET current_state = ?2 WHERE id = ?1",
            params![campaign, digest.to_hex()],
        )?;
        if let Some((opened, deadline)) = next_phase {
            tx.execute(
                "UPDATE campaigns SET phase_opened_at = ?2, deadline = ?3 WHERE id = ?1",
                params![campaign, ts(&opened)?, ts(&deadline)?],
            )?;
        }
        if let Some(sealed) = sealed {
            ledger::append(&tx, campaign, sealed, None)?;
        }
        for m in mail {
            queue_mail(&tx, Some(campaign), m, result.resolved_at)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The number the next resolution of `kind` takes.
    pub fn next_k(&self, campaign: &str, kind: Kind) -> Result<u64> {
        let last: Option<i64> = self.conn.query_row(
            "SELECT MAX(k) FROM resolutions WHERE campaign_id = ?1 AND kind = ?2",
            params![campaign, kind.as_str()],
            |r| r.get(0),
        )?;
        Ok(last.map_or(1, |k| k as u64 + 1))
    }

    /// How many resolutions of each kind a campaign has had (closed ones
    /// included).
    pub fn resolution_counts(&self, campaign: &str) -> Result<(u64, u64)> {
        Ok((
            self.next_k(campaign, Kind::Turn)? - 1,
            self.next_k(campaign, Kind::Umpire)? - 1,
        ))
    }

    /// Closed phases not yet resolved (left by a crash), oldest first.
    pub fn pending_resolutions(&self, campaign: &str) -> Result<Vec<ResolutionRecord>> {
        self.load_resolutions(campaign, "AND resolved_at IS NULL")
    }

    /// Every resolution of a campaign, closed or resolved, with its logs,
    /// in the order they were closed.
    pub fn resolutions(&self, campaign: &str) -> Result<Vec<ResolutionRecord>> {
        self.load_resolutions(campaign, "")
    }

    fn load_resolutions(&self, campaign: &str, filter: &str) -> Result<Vec<ResolutionRecord>> {
        // `filter` is a constant of this file, never input.
        let sql = format!(
            "SELECT kind, k, phase_label, closed_at, manifest_text, manifest_digest,
                    prior_state_digest, resolved_at, secret, seed, next_state_digest,
                    beacon_round, beacon_signature, beacon_tried_at
             FROM resolutions WHERE campaign_id = ?1 {filter} ORDER BY rowid"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        type Row = (
            String,
            i64,
            String,
            String,
            String,
            String,
            String,
            Option<String>,
            Option<String>,
            Option<String>,
            Option<String>,
            Option<i64>,
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
                    r.get(7)?,
                    r.get(8)?,
                    r.get(9)?,
                    r.get(10)?,
                    r.get(11)?,
                    r.get(12)?,
                    r.get(13)?,
                ))
            })?
            .collect::<std::result::Result<_, _>>()?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let kind = Kind::parse(&row.0)
                .ok_or_else(|| StoreError::Damaged(format!("resolution kind `{}`", row.0)))?;
            let k = u64::try_from(row.1)
                .map_err(|_| StoreError::Damaged(format!("resolution number {}", row.1)))?;
            let result = match (row.7, row.8, row.9, row.10) {
                (Some(at), Some(secret), Some(seed), Some(next)) => Some(ResolvedRecord {
                    resolved_at: parse_ts(&at)?,
                    secret: parse_digest(&secret)?,
                    seed: parse_digest(&seed)?,
                    next_state_digest: parse_digest(&next)?,
                    events: self.texts("events", "seq", campaign, kind, k)?,
                    rolls: self.texts("rolls", "idx", campaign, kind, k)?,
                    beacon_signature: row.12.clone(),
                }),
                _ => None,
            };
            out.push(ResolutionRecord {
                kind,
                k,
                phase_label: row.2,
                closed_at: parse_ts(&row.3)?,
                manifest_text: row.4,
                manifest_digest: parse_digest(&row.5)?,
                prior_state_digest: parse_digest(&row.6)?,
                orders: self.resolution_orders(campaign, kind, k)?,
                beacon_round: row.11.map(|r| r as u64),
                beacon_tried_at: row.13.as_deref().map(parse_ts).transpose()?,
                beacon_waived: row.12.as_deref() == Some(BEACON_WAIVED),
                result,
            });
        }
        Ok(out)
    }

    fn texts(
        &self,
        table: &str,
        order: &str,
        campaign: &str,
        kind: Kind,
        k: u64,
    ) -> Result<Vec<String>> {
        // Table and column names come from this file, never from input.
        let sql = format!(
            "SELECT json FROM {table} WHERE campaign_id = ?1 AND kind = ?2 AND k = ?3 ORDER BY {order}"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let rows = stmt
            .query_map(params![campaign, kind.as_str(), int(k)?], |r| r.get(0))?
            .collect::<std::result::Result<Vec<String>, _>>()?;
        Ok(rows)
    }

    fn resolution_orders(
        &self,
        campaign: &str,
        kind: Kind,
        k: u64,
    ) -> Result<BTreeMap<String, String>> {
        let mut stmt = self.conn.prepare(
            "SELECT side, canonical_text FROM resolution_orders
             WHERE campaign_id = ?1 AND kind = ?2 AND k = ?3",
        )?;
        let rows = stmt
            .query_map(params![campaign, kind.as_str(), int(k)?], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?
            .collect::<std::result::Result<BTreeMap<String, String>, _>>()?;
        Ok(rows)
    }

    /// Notes that the beacon round of a closed resolution was asked for at
    /// `at` and not had, so that the next try waits a while.
    pub fn beacon_tried(
        &mut self,
        campaign: &str,
        kind: Kind,
        k: u64,
        at: DateTime<Utc>,
    ) -> Result<()> {
        self.execute(
            "UPDATE resolutions SET beacon_tried_at = ?4
             WHERE campaign_id = ?1 AND kind = ?2 AND k = ?3 AND resolved_at IS NULL",
            params![campaign, kind.as_str(), int(k)?, ts(&at)?],
        )?;
        Ok(())
    }

    /// Sets the current phase's deadline (a GM's extension).
    pub fn set_deadline(&mut self, campaign: &str, deadline: DateTime<Utc>) -> Result<()> {
        let n = self.execute(
            "UPDATE campaigns SET deadline = ?2 WHERE id = ?1",
            params![campaign, ts(&deadline)?],
        )?;
        if n == 0 {
            return Err(StoreError::NoCampaign(campaign.to_string()));
        }
        Ok(())
    }

    /// Messages waiting to be sent (in flight ones included), oldest first.
    pub fn queued_mail(&self, campaign: &str) -> Result<Vec<OutgoingMail>> {
        Ok(self
            .outbox(Some(campaign))?
            .into_iter()
            .filter(|e| matches!(e.status, OutboxStatus::Queued | OutboxStatus::InFlight))
            .map(|e| e.mail)
            .collect())
    }
}

/// Stores a state under its digest (once) and returns the digest.
fn put_state(tx: &Connection, state: &GameState) -> Result<Digest32> {
    let json = crate::canonical::to_string(state);
    let digest = Digest32::of(json.as_bytes());
    tx.execute(
        "INSERT OR IGNORE INTO states (digest, json) VALUES (?1, ?2)",
        params![digest.to_hex(), json],
    )?;
    Ok(digest)
}

/// Queues a message with its parts. The Message-ID is unique, so queueing
/// the same message twice (a step repeated after a crash) is a no-op rather
/// than a duplicate. Returns whether it was new.
fn queue_mail(
    tx: &Connection,
    campaign: Option<&str>,
    mail: &OutgoingMail,
    now: DateTime<Utc>,
) -> Result<bool> {
    let inserted = tx.execute(
        "INSERT OR IGNORE INTO outbox (campaign_id, created_at, message_id, recipient, subject,
            body, next_attempt_at, html, in_reply_to)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?2, ?7, ?8)",
        params![
            campaign,
            ts(&now)?,
            mail.message_id,
            mail.recipient,
            mail.subject,
            mail.body,
            mail.html,
            mail.in_reply_to,
        ],
    )?;
    if inserted == 0 {
        return Ok(false);
    }
    let id = tx.last_insert_rowid();
    for (seq, part) in mail.parts.iter().enumerate() {
        tx.execute(
            "INSERT INTO outbox_parts (outbox_id, seq, filename, content_type, content_id, bytes)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                id,
                int(seq as u64)?,
                part.filename,
                part.content_type,
                part.content_id,
                part.bytes
            ],
        )?;
    }
    Ok(true)
}

/// Fails with `PhaseClosed` unless the campaign's phase is the one orders
/// were checked against and none is waiting to be resolved: read inside the
/// IMMEDIATE transaction that then writes, so no phase can close between.
fn phase_still_open(
    tx: &rusqlite::Connection,
    campaign: &str,
    checked_against: &Digest32,
) -> Result<()> {
    let (current, pending): (String, i64) = tx.query_row(
        "SELECT current_state, (SELECT COUNT(*) FROM resolutions
             WHERE campaign_id = ?1 AND resolved_at IS NULL)
         FROM campaigns WHERE id = ?1",
        [campaign],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if pending > 0 || current != checked_against.to_hex() {
        return Err(StoreError::PhaseClosed(campaign.to_string()));
    }
    Ok(())
}

/// Whose word a readiness row records: a side, in a phase opened on a state.
struct Said<'a> {
    campaign: &'a str,
    state: &'a Digest32,
    phase_key: &'a str,
    side: &'a str,
}

impl Said<'_> {
    fn ready(
        &self,
        tx: &rusqlite::Connection,
        ready: bool,
        now: DateTime<Utc>,
        message: Option<i64>,
    ) -> Result<()> {
        tx.execute(
            "INSERT OR REPLACE INTO readiness
                (campaign_id, state, phase_key, side, ready, said_at, message_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                self.campaign,
                self.state.to_hex(),
                self.phase_key,
                self.side,
                i64::from(ready),
                ts(&now)?,
                message
            ],
        )?;
        Ok(())
    }
}

/// Marks a side's accepted orders for a phase superseded; returns how many
/// there were (0 or 1).
fn supersede(
    tx: &rusqlite::Connection,
    campaign: &str,
    phase_key: &str,
    side: &str,
) -> Result<usize> {
    Ok(tx.execute(
        "UPDATE submissions SET status = 'superseded'
         WHERE campaign_id = ?1 AND phase_key = ?2 AND side = ?3 AND status = 'accepted'
           AND closed_in IS NULL",
        params![campaign, phase_key, side],
    )?)
}
