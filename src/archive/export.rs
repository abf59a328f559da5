//! Writes a campaign's archive from the store.

use std::fs;
use std::path::{Path, PathBuf};

use super::{CampaignFile, ResolutionFile, SPEC, resolution_dir};
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
    pub resolutions: u64,
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

fn lines(items: &[String]) -> Vec<u8> {
    items
        .iter()
        .flat_map(|l| format!("{l}\n").into_bytes())
        .collect()
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
    let resolutions = store.resolutions(campaign_id)?;
    let mut done = 0;
    let mut pending = 0;
    for r in &resolutions {
        let Some(result) = &r.result else {
            pending += 1;
            continue;
        };
        done += 1;
        let dir = out.join(resolution_dir(r.k));
        let file = ResolutionFile {
            k: r.k,
            kind: r.kind.clone(),
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
        write(&dir.join("rolls.jsonl"), &lines(&result.rolls))?;
        write(&dir.join("events.jsonl"), &lines(&result.events))?;
    }
    let campaign = &record.campaign;
    let head = CampaignFile {
        spec: SPEC.to_string(),
        campaign: campaign.id.clone(),
        title: campaign.title.clone(),
        ruleset: campaign.ruleset.id.clone(),
        sides: {
            let mut sides: Vec<String> = campaign.sides.iter().map(|s| s.id.clone()).collect();
            sides.sort();
            sides
        },
        chain_length: record.chain.length(),
        commitment: record.commitment.to_hex(),
        beacon: campaign.beacon.clone(),
        no_orders_policy: campaign.no_orders_policy,
        initial_state_digest: record.initial_state_digest.to_hex(),
        resolutions: done,
    };
    write(&out.join("campaign.json"), &pretty(&head))?;
    Ok(Exported {
        resolutions: done,
        pending,
    })
}
