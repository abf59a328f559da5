//! Writes a campaign's archive from the store.

use std::fs;
use std::path::{Path, PathBuf};

use super::ledger::{LINK_FILE, Link, ResolutionParts, act_files, pretty, submissions_text};
use super::{ActFile, CampaignFile, SPEC, SPEC_LINKED, SPEC_WITH_ACTS, act_dir, resolution_dir};
use crate::audit::Kind;
use crate::store::{CampaignRecord, Store, StoreError};

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0} exists and is not empty; export into a new folder")]
    NotEmpty(PathBuf),
}

/// What an export wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exported {
    pub turns: u64,
    pub calls: u64,
    /// Game master's acts (corrections, rollbacks).
    pub acts: u64,
    /// Closed phases not yet resolved, left out (they have no secret to show).
    pub pending: u64,
    /// The spec version the archive follows.
    pub spec: &'static str,
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|source| ExportError::Write {
            path: parent.to_path_buf(),
            source,
        })?;
    }
    fs::write(path, bytes).map_err(|source| ExportError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes the archive of `campaign_id` into `out`, which must be empty or
/// absent.
pub fn export(store: &Store, campaign_id: &str, out: &Path) -> Result<Exported, ExportError> {
    if out.exists()
        && fs::read_dir(out)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        return Err(ExportError::NotEmpty(out.to_path_buf()));
    }
    let record = store.campaign(campaign_id)?;
    let mut done = Exported {
        turns: 0,
        calls: 0,
        acts: 0,
        pending: 0,
        spec: SPEC,
    };
    if record.linked {
        return export_linked(store, &record, out, done);
    }
    // In the order they were closed, so that each call knows which turn it
    // followed.
    for r in store.resolutions(campaign_id)? {
        let Some(result) = &r.result else {
            done.pending += 1;
            continue;
        };
        let after_turn = done.turns;
        match r.kind {
            Kind::Turn => done.turns += 1,
            Kind::Umpire => done.calls += 1,
        }
        let prior = store.state_json(&r.prior_state_digest)?;
        let next = store.state_json(&result.next_state_digest)?;
        let parts = ResolutionParts {
            closed: &r,
            result,
            after_turn,
            prior_state_json: &prior,
            next_state_json: &next,
            submissions: None,
            beacon: None,
        };
        write_files(&out.join(parts.folder()), &parts.files())?;
    }
    // The game master's acts, each with the states before and after it.
    let acts = store.gm_acts(campaign_id)?;
    for act in &acts {
        let dir = out.join(act_dir(act.n));
        let file = ActFile {
            kind: act.kind.as_str().to_string(),
            n: act.n,
            after_turn: act.after_turn,
            undoes_turn: act.undoes_turn,
            command: act.command.clone(),
            prior_state_digest: Some(act.prior_state_digest.to_hex()),
            next_state_digest: Some(act.next_state_digest.to_hex()),
            at: act.at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            by: None,
            reason: None,
            orders_digest: None,
        };
        write(&dir.join("act.json"), &pretty(&file))?;
        write(
            &dir.join("prior-state.json"),
            store.state_json(&act.prior_state_digest)?.as_bytes(),
        )?;
        write(
            &dir.join("next-state.json"),
            store.state_json(&act.next_state_digest)?.as_bytes(),
        )?;
    }
    done.acts = acts.len() as u64;
    if done.acts > 0 {
        done.spec = SPEC_WITH_ACTS;
    }
    let campaign = &record.campaign;
    let mut sides: Vec<String> = campaign.sides.iter().map(|s| s.id.clone()).collect();
    sides.sort();
    let head = CampaignFile {
        spec: done.spec.to_string(),
        campaign: campaign.id.clone(),
        title: campaign.title.clone(),
        ruleset: campaign.ruleset.id.clone(),
        sides,
        chain_length: record.chain.length(),
        commitment: record.commitment.to_hex(),
        umpire_commitment: record.chain.umpire_chain().commitment().to_hex(),
        beacon: campaign.beacon.clone(),
        drand: None,
        no_orders_policy: campaign.no_orders_policy,
        initial_state_digest: record.initial_state_digest.to_hex(),
        turns: done.turns,
        calls: done.calls,
        acts: done.acts,
        entries: None,
        head: None,
    };
    write(&out.join("campaign.json"), &pretty(&head))?;
    Ok(done)
}

fn write_files(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<(), ExportError> {
    for (name, bytes) in files {
        write(&dir.join(name), bytes)?;
    }
    Ok(())
}

/// Exports a campaign of spec v3: `genesis.txt`, then every entry of its
/// hash-linked record in order, each folder with its `link.txt`. Every
/// folder's files are made again from the store and must give the link that
/// was sealed (and mailed) when the entry was recorded: a store changed
/// since is refused, never exported as if it were the record.
fn export_linked(
    store: &Store,
    record: &CampaignRecord,
    out: &Path,
    mut done: Exported,
) -> Result<Exported, ExportError> {
    let campaign = &record.campaign;
    let genesis = super::ledger::genesis(record);
    write(&out.join("genesis.txt"), genesis.text().as_bytes())?;
    let resolutions = store.resolutions(&campaign.id)?;
    let entries = store.ledger(&campaign.id)?;
    let mut previous = genesis.digest();
    for entry in &entries {
        let files = if let Some(json) = &entry.act_json {
            done.acts += 1;
            let states = match entry.act_states {
                Some((p, n)) => Some((store.state_json(&p)?, store.state_json(&n)?)),
                None => None,
            };
            act_files(json, states.as_ref().map(|(p, n)| (p.as_str(), n.as_str())))
        } else {
            let Some(r) = resolutions
                .iter()
                .find(|r| resolution_dir(r.kind, r.k) == entry.folder)
            else {
                return Err(damaged(entry, "names no resolution"));
            };
            let Some(result) = &r.result else {
                return Err(damaged(entry, "names a resolution not yet resolved"));
            };
            let after_turn = match r.kind {
                Kind::Turn => {
                    done.turns += 1;
                    r.k - 1
                }
                Kind::Umpire => {
                    done.calls += 1;
                    done.turns
                }
            };
            let prior = store.state_json(&r.prior_state_digest)?;
            let next = store.state_json(&result.next_state_digest)?;
            let submissions = match r.kind {
                Kind::Turn => Some(submissions_text(
                    &store.phase_submissions(&campaign.id, &entry.folder)?,
                )),
                Kind::Umpire => None,
            };
            ResolutionParts {
                closed: r,
                result,
                after_turn,
                prior_state_json: &prior,
                next_state_json: &next,
                submissions,
                beacon: super::ledger::beacon_record(r, result),
            }
            .files()
        };
        let link = Link::of(&campaign.id, entry.entry, previous, &entry.folder, &files);
        if link.text() != entry.link_text {
            return Err(damaged(
                entry,
                "its files no longer make the link sealed when it was recorded",
            ));
        }
        let dir = out.join(&entry.folder);
        write_files(&dir, &files)?;
        write(&dir.join(LINK_FILE), entry.link_text.as_bytes())?;
        previous = entry.digest;
    }
    done.pending = resolutions.iter().filter(|r| r.result.is_none()).count() as u64;
    done.spec = SPEC_LINKED;
    let mut sides: Vec<String> = campaign.sides.iter().map(|s| s.id.clone()).collect();
    sides.sort();
    let head = CampaignFile {
        spec: SPEC_LINKED.to_string(),
        campaign: campaign.id.clone(),
        title: campaign.title.clone(),
        ruleset: campaign.ruleset.id.clone(),
        sides,
        chain_length: record.chain.length(),
        commitment: record.commitment.to_hex(),
        umpire_commitment: record.chain.umpire_chain().commitment().to_hex(),
        beacon: campaign.beacon.clone(),
        drand: campaign.drand.as_ref().map(|d| d.info.clone()),
        no_orders_policy: campaign.no_orders_policy,
        initial_state_digest: record.initial_state_digest.to_hex(),
        turns: done.turns,
        calls: done.calls,
        acts: done.acts,
        entries: Some(entries.len() as u64),
        head: Some(previous.to_hex()),
    };
    write(&out.join("campaign.json"), &pretty(&head))?;
    Ok(done)
}

fn damaged(entry: &crate::store::LedgerEntry, why: &str) -> ExportError {
    ExportError::Store(StoreError::Damaged(format!(
        "entry {} of the record ({}) {why}",
        entry.entry, entry.folder
    )))
}
