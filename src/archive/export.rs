//! Writes a campaign's archive from the store.

use std::fs;
use std::path::{Path, PathBuf};

use super::{
    ActFile, CampaignFile, ResolutionFile, SPEC, SPEC_WITH_ACTS, act_dir, joined_lines,
    resolution_dir,
};
use crate::audit::Kind;
use crate::store::{Store, StoreError};

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

fn pretty<T: serde::Serialize>(value: &T) -> Vec<u8> {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text.into_bytes()
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
    };
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
        let dir = out.join(resolution_dir(r.kind, r.k));
        let file = ResolutionFile {
            kind: r.kind,
            k: r.k,
            after_turn,
            phase: r.phase_label.clone(),
            secret: result.secret.to_hex(),
            manifest_digest: r.manifest_digest.to_hex(),
            seed: result.seed.to_hex(),
            prior_state_digest: r.prior_state_digest.to_hex(),
            next_state_digest: result.next_state_digest.to_hex(),
            resolved_at: result
                .resolved_at
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        };
        write(&dir.join("resolution.json"), &pretty(&file))?;
        write(&dir.join("manifest.txt"), r.manifest_text.as_bytes())?;
        for (side, text) in &r.orders {
            write(
                &dir.join("orders").join(format!("{side}.txt")),
                text.as_bytes(),
            )?;
        }
        write(
            &dir.join("prior-state.json"),
            store.state_json(&r.prior_state_digest)?.as_bytes(),
        )?;
        write(
            &dir.join("next-state.json"),
            store.state_json(&result.next_state_digest)?.as_bytes(),
        )?;
        write(
            &dir.join("rolls.jsonl"),
            joined_lines(&result.rolls).as_bytes(),
        )?;
        write(
            &dir.join("events.jsonl"),
            joined_lines(&result.events).as_bytes(),
        )?;
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
            prior_state_digest: act.prior_state_digest.to_hex(),
            next_state_digest: act.next_state_digest.to_hex(),
            at: act.at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
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
    let campaign = &record.campaign;
    let mut sides: Vec<String> = campaign.sides.iter().map(|s| s.id.clone()).collect();
    sides.sort();
    let head = CampaignFile {
        spec: if acts.is_empty() {
            SPEC
        } else {
            SPEC_WITH_ACTS
        }
        .to_string(),
        campaign: campaign.id.clone(),
        title: campaign.title.clone(),
        ruleset: campaign.ruleset.id.clone(),
        sides,
        chain_length: record.chain.length(),
        commitment: record.commitment.to_hex(),
        umpire_commitment: record.chain.umpire_chain().commitment().to_hex(),
        beacon: campaign.beacon.clone(),
        no_orders_policy: campaign.no_orders_policy,
        initial_state_digest: record.initial_state_digest.to_hex(),
        turns: done.turns,
        calls: done.calls,
        acts: done.acts,
    };
    write(&out.join("campaign.json"), &pretty(&head))?;
    Ok(done)
}
