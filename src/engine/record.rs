//! Sealing entries of a campaign's hash-linked record (spec
//! adjutant-audit-v3): the link of a resolution or a game master's act is
//! made here, from what the store holds, before the mail that names it is
//! written, and stored with it in one transaction. A campaign of spec v1 or
//! v2 keeps no record: every function here gives `None` for it.

use chrono::{DateTime, Utc};

use super::Result;
use crate::archive::ledger::{Link, ResolutionParts, Sealed, act_files, pretty, submissions_text};
pub use crate::archive::ledger::{beacon_record, genesis, genesis_of};
use crate::archive::{ActFile, act_dir};
use crate::audit::{Digest32, Kind};
use crate::store::{CampaignRecord, ResolutionRecord, ResolvedRecord, Store};

/// The campaign's head now: the digest of its last entry, or of its
/// genesis before the first. `None` for a campaign that keeps no record.
pub fn head(store: &Store, record: &CampaignRecord) -> Result<Option<Digest32>> {
    if !record.linked {
        return Ok(None);
    }
    Ok(Some(match store.ledger_last(&record.campaign.id)? {
        Some((_, digest)) => digest,
        None => genesis(record).digest(),
    }))
}

/// The number and `previous` of the next entry.
fn next(store: &Store, record: &CampaignRecord) -> Result<(u64, Digest32)> {
    Ok(match store.ledger_last(&record.campaign.id)? {
        Some((entry, digest)) => (entry + 1, digest),
        None => (1, genesis(record).digest()),
    })
}

/// The turns in the record: those closed less those closed and waiting
/// (for their beacon round), which are not yet in it. It is the
/// `after_turn` of an umpire call or an act recorded now.
fn resolved_turns(store: &Store, id: &str) -> Result<u64> {
    let waiting = store
        .pending_resolutions(id)?
        .iter()
        .filter(|r| r.kind == Kind::Turn)
        .count() as u64;
    Ok(store.resolution_counts(id)?.0 - waiting)
}

/// The entry of a resolution about to be recorded.
pub fn seal_resolution(
    store: &Store,
    record: &CampaignRecord,
    closed: &ResolutionRecord,
    result: &ResolvedRecord,
    next_state_json: &str,
) -> Result<Option<Sealed>> {
    if !record.linked {
        return Ok(None);
    }
    let id = &record.campaign.id;
    let after_turn = match closed.kind {
        Kind::Turn => closed.k - 1,
        // A call is made while a closed turn waits for its drand round (the
        // round cannot be had before its time), so it counts the turns
        // resolved, not the turns closed, as an act does.
        Kind::Umpire => resolved_turns(store, id)?,
    };
    let folder = crate::archive::resolution_dir(closed.kind, closed.k);
    let submissions = match closed.kind {
        Kind::Turn => Some(submissions_text(&store.phase_submissions(id, &folder)?)),
        Kind::Umpire => None,
    };
    let prior = store.state_json(&closed.prior_state_digest)?;
    let parts = ResolutionParts {
        closed,
        result,
        after_turn,
        prior_state_json: &prior,
        next_state_json,
        submissions,
        beacon: beacon_record(closed, result),
    };
    let (entry, previous) = next(store, record)?;
    let link = Link::of(id, entry, previous, &parts.folder(), &parts.files());
    Ok(Some(Sealed {
        link,
        act_json: None,
    }))
}

/// What a game master's act is, for its `act.json`.
pub struct ActFacts<'a> {
    /// `correction`, `rollback`, `extend`, `pause`, ... (see
    /// [`crate::archive::PLAIN_ACTS`]).
    pub kind: &'a str,
    pub command: &'a str,
    pub at: DateTime<Utc>,
    pub by: &'a str,
    pub reason: Option<&'a str>,
    pub orders_digest: Option<Digest32>,
    /// For a rollback: the turn it undoes.
    pub undoes_turn: Option<u64>,
    /// For an act that changes the state: the states' canonical JSON.
    pub states: Option<(&'a str, &'a str)>,
}

/// The entry of a game master's act about to be recorded.
pub fn seal_act(
    store: &Store,
    record: &CampaignRecord,
    facts: &ActFacts<'_>,
) -> Result<Option<Sealed>> {
    if !record.linked {
        return Ok(None);
    }
    let id = &record.campaign.id;
    let ledger = store.ledger(id)?;
    let n = ledger
        .iter()
        .filter(|e| e.folder.starts_with("gm/"))
        .count() as u64
        + 1;
    let file = ActFile {
        kind: facts.kind.to_string(),
        n,
        after_turn: resolved_turns(store, id)?,
        undoes_turn: facts.undoes_turn,
        command: facts.command.to_string(),
        prior_state_digest: facts
            .states
            .map(|(p, _)| Digest32::of(p.as_bytes()).to_hex()),
        next_state_digest: facts
            .states
            .map(|(_, n)| Digest32::of(n.as_bytes()).to_hex()),
        at: facts.at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        by: Some(facts.by.to_string()),
        reason: facts.reason.map(str::to_string),
        orders_digest: facts.orders_digest.map(|d| d.to_hex()),
    };
    let json = String::from_utf8(pretty(&file)).unwrap_or_default();
    let (entry, previous) = match ledger.last() {
        Some(last) => (last.entry + 1, last.digest),
        None => (1, genesis(record).digest()),
    };
    let link = Link::of(
        id,
        entry,
        previous,
        &act_dir(n),
        &act_files(&json, facts.states),
    );
    Ok(Some(Sealed {
        link,
        act_json: Some(json),
    }))
}
