//! The files of a campaign's hash-linked record, made from what the store
//! holds, byte for byte as the archive holds them, both when an entry is
//! recorded (to seal it) and when the archive is exported. The format
//! itself is [`crate::ledger`]'s.

pub use crate::ledger::{
    BeaconRecord, GENESIS_HEADER, Genesis, LATE_FILES, LINK_FILE, LINK_HEADER, Link,
    LinkParseError, Sealed, SubmissionLine, act_files, pretty, submissions_text,
};

use super::{ResolutionFile, joined_lines, resolution_dir};
use crate::audit::Digest32;
use crate::store::{CampaignRecord, ResolutionRecord, ResolvedRecord};

/// The files of one resolution's folder, by path inside it.
pub struct ResolutionParts<'a> {
    pub closed: &'a ResolutionRecord,
    pub result: &'a ResolvedRecord,
    /// How many turns had been resolved before it.
    pub after_turn: u64,
    pub prior_state_json: &'a str,
    pub next_state_json: &'a str,
    /// `submissions.txt` (spec v3 turns only).
    pub submissions: Option<String>,
    /// Extra keys of `resolution.json` (spec v3: the beacon round).
    pub beacon: Option<BeaconRecord>,
}

impl ResolutionParts<'_> {
    pub fn folder(&self) -> String {
        resolution_dir(self.closed.kind, self.closed.k)
    }

    pub fn files(&self) -> Vec<(String, Vec<u8>)> {
        let r = self.closed;
        let result = self.result;
        let file = ResolutionFile {
            kind: r.kind,
            k: r.k,
            after_turn: self.after_turn,
            phase: r.phase_label.clone(),
            secret: result.secret.to_hex(),
            manifest_digest: r.manifest_digest.to_hex(),
            seed: result.seed.to_hex(),
            prior_state_digest: r.prior_state_digest.to_hex(),
            next_state_digest: result.next_state_digest.to_hex(),
            resolved_at: result
                .resolved_at
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            beacon: self.beacon.clone(),
        };
        let mut files = vec![
            ("resolution.json".to_string(), pretty(&file)),
            (
                "manifest.txt".to_string(),
                r.manifest_text.as_bytes().to_vec(),
            ),
        ];
        for (side, text) in &r.orders {
            files.push((format!("orders/{side}.txt"), text.as_bytes().to_vec()));
        }
        files.push((
            "prior-state.json".to_string(),
            self.prior_state_json.as_bytes().to_vec(),
        ));
        files.push((
            "next-state.json".to_string(),
            self.next_state_json.as_bytes().to_vec(),
        ));
        files.push((
            "rolls.jsonl".to_string(),
            joined_lines(&result.rolls).into_bytes(),
        ));
        files.push((
            "events.jsonl".to_string(),
            joined_lines(&result.events).into_bytes(),
        ));
        if let Some(text) = &self.submissions {
            files.push(("submissions.txt".to_string(), text.as_bytes().to_vec()));
        }
        files
    }
}

/// What the campaign fixed at registration, as `genesis.txt` says it.
pub fn genesis(record: &CampaignRecord) -> Genesis {
    genesis_of(&record.campaign, &record.chain, record.initial_state_digest)
}

/// The genesis of a campaign about to be registered with `chain`.
pub fn genesis_of(
    campaign: &crate::campaign::Campaign,
    chain: &crate::audit::HashChain,
    initial_state_digest: Digest32,
) -> Genesis {
    let mut sides: Vec<String> = campaign.sides.iter().map(|s| s.id.clone()).collect();
    sides.sort();
    Genesis {
        campaign: campaign.id.clone(),
        ruleset: campaign.ruleset.id.clone(),
        sides,
        chain_length: chain.length(),
        commitment: chain.commitment(),
        umpire_commitment: chain.umpire_chain().commitment(),
        beacon: Genesis::beacon_words(
            campaign.beacon.as_deref(),
            campaign
                .drand
                .as_ref()
                .and_then(|d| d.network().ok())
                .map(|n| n.chain_hash_hex())
                .as_deref(),
        ),
        no_orders_policy: campaign.no_orders_policy.as_str().to_string(),
        initial_state_digest,
    }
}

/// The beacon round a resolution's `resolution.json` names, if any.
pub fn beacon_record(closed: &ResolutionRecord, result: &ResolvedRecord) -> Option<BeaconRecord> {
    Some(BeaconRecord {
        round: closed.beacon_round?,
        signature: result.beacon_signature.clone()?,
    })
}
