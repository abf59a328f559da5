//! Checks the hash-linked record of a spec v3 archive (docs/AUDIT.md,
//! section 11): `genesis.txt` says what `campaign.json` says; every folder
//! of a resolution or act has a `link.txt` that lists its files with their
//! digests and names the entry before it; the entries run 1, 2, ... without
//! a gap from the genesis to the head `campaign.json` names.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use super::CampaignFile;
use super::ledger::{Genesis, LATE_FILES, LINK_FILE, Link, SubmissionLine};
use crate::audit::Digest32;

/// What the record's check found: the digest of the genesis, then of each
/// entry in order (every head a player may have been sent), and problems.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LinkCheck {
    pub heads: Vec<Digest32>,
    /// The folder of each entry, in order.
    pub folders: Vec<String>,
    pub problems: Vec<String>,
}

fn genesis_of(head: &CampaignFile) -> Result<Genesis, String> {
    let digest = |v: &str, name: &str| {
        Digest32::from_hex(v).map_err(|_| format!("{name} in campaign.json is not 64 hex digits"))
    };
    Ok(Genesis {
        campaign: head.campaign.clone(),
        ruleset: head.ruleset.clone(),
        sides: head.sides.clone(),
        chain_length: head.chain_length,
        commitment: digest(&head.commitment, "commitment")?,
        umpire_commitment: digest(&head.umpire_commitment, "umpire_commitment")?,
        beacon: Genesis::beacon_words(
            head.beacon.as_deref(),
            match &head.drand {
                None => None,
                Some(info) => Some(
                    crate::beacon::Network::from_info_json(info.as_bytes())
                        .map_err(|e| format!("the drand network in campaign.json: {e}"))?
                        .chain_hash_hex(),
                ),
            }
            .as_deref(),
        ),
        no_orders_policy: head.no_orders_policy.as_str().to_string(),
        initial_state_digest: digest(&head.initial_state_digest, "initial_state_digest")?,
    })
}

/// Every file under `dir`, by its path inside it with `/`, sorted.
fn files_under(dir: &Path, prefix: &str, out: &mut Vec<String>) {
    let Ok(read) = fs::read_dir(dir) else {
        return;
    };
    for entry in read.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            files_under(&entry.path(), &path, out);
        } else {
            out.push(path);
        }
    }
}

/// The folders that hold a resolution or an act: `turns/0001`, ...
fn record_folders(dir: &Path) -> Vec<String> {
    let mut folders = Vec::new();
    for top in ["turns", "calls", "gm"] {
        if let Ok(read) = fs::read_dir(dir.join(top)) {
            for entry in read.flatten() {
                folders.push(format!("{top}/{}", entry.file_name().to_string_lossy()));
            }
        }
    }
    folders.sort();
    folders
}

/// Checks the record of the archive in `dir`.
pub fn check(dir: &Path, head: &CampaignFile) -> LinkCheck {
    let mut out = LinkCheck::default();
    let problems = &mut out.problems;
    let genesis = match genesis_of(head) {
        Ok(g) => g,
        Err(e) => {
            problems.push(e);
            return out;
        }
    };
    match fs::read(dir.join("genesis.txt")) {
        Ok(bytes) if bytes == genesis.text().as_bytes() => {}
        Ok(_) => problems.push(
            "genesis.txt is not the text campaign.json's fields make (section 11)".to_string(),
        ),
        Err(e) => problems.push(format!("cannot read genesis.txt: {e}")),
    }
    out.heads.push(genesis.digest());
    // Each folder's link, by entry number.
    let mut links: Vec<(Link, String)> = Vec::new();
    for folder in record_folders(dir) {
        let fdir = dir.join(&folder);
        let text = match fs::read_to_string(fdir.join(LINK_FILE)) {
            Ok(t) => t,
            Err(_) => {
                problems.push(format!("{folder} has no readable {LINK_FILE}"));
                continue;
            }
        };
        let link = match Link::parse(&text) {
            Ok(l) if l.text() == text => l,
            Ok(_) => {
                problems.push(format!("{folder}/{LINK_FILE} is not in canonical form"));
                continue;
            }
            Err(e) => {
                problems.push(format!("{folder}/{e}"));
                continue;
            }
        };
        if link.folder != folder {
            problems.push(format!(
                "{folder}/{LINK_FILE} says it is the record of {}",
                link.folder
            ));
        }
        if link.campaign != head.campaign {
            problems.push(format!(
                "{folder}/{LINK_FILE} names campaign {}",
                link.campaign
            ));
        }
        check_files(&fdir, &folder, &link, problems);
        links.push((link, text));
    }
    links.sort_by_key(|(l, _)| l.entry);
    let entries = head.entries.unwrap_or(0);
    if links.len() as u64 != entries {
        problems.push(format!(
            "campaign.json lists {entries} entries, the archive holds {} folders with a link",
            links.len()
        ));
    }
    let mut previous = genesis.digest();
    for (i, (link, text)) in links.iter().enumerate() {
        let expected = i as u64 + 1;
        if link.entry != expected {
            problems.push(format!(
                "{} is entry {}, where entry {expected} should be: an entry is missing or repeated",
                link.folder, link.entry
            ));
        }
        if link.previous != previous {
            problems.push(format!(
                "entry {} ({}) follows {}, but the entry before it is {previous}",
                link.entry, link.folder, link.previous
            ));
        }
        previous = Digest32::of(text.as_bytes());
        out.heads.push(previous);
        out.folders.push(link.folder.clone());
    }
    match head.head.as_deref().map(Digest32::from_hex) {
        Some(Ok(h)) if h == previous => {}
        Some(Ok(h)) => problems.push(format!(
            "campaign.json names the head {h}, the record's last entry is {previous}"
        )),
        _ => problems.push("campaign.json names no head".to_string()),
    }
    out
}

/// The files of one folder against its link: each listed file present
/// hashes to its digest; only the late logs may be absent (both or
/// neither); no file is left unlisted.
fn check_files(fdir: &Path, folder: &str, link: &Link, problems: &mut Vec<String>) {
    let mut present = Vec::new();
    files_under(fdir, "", &mut present);
    let present: BTreeSet<String> = present.into_iter().filter(|p| p != LINK_FILE).collect();
    let listed: BTreeSet<&str> = link.files.iter().map(|(n, _)| n.as_str()).collect();
    for name in &present {
        if !listed.contains(name.as_str()) {
            problems.push(format!("{folder}/{name} is not listed in its link"));
        }
    }
    let mut late_absent = 0;
    for (name, digest) in &link.files {
        if !present.contains(name) {
            if LATE_FILES.contains(&name.as_str()) {
                late_absent += 1;
            } else {
                problems.push(format!("{folder}/{name} is listed in its link but missing"));
            }
            continue;
        }
        match fs::read(fdir.join(name)) {
            Ok(bytes) if Digest32::of(&bytes) == *digest => {}
            Ok(bytes) => problems.push(format!(
                "{folder}/{name} hashes to {}, its link says {digest}",
                Digest32::of(&bytes)
            )),
            Err(e) => problems.push(format!("cannot read {folder}/{name}: {e}")),
        }
    }
    if late_absent == 1 {
        problems.push(format!(
            "{folder} holds one of rolls.jsonl and events.jsonl without the other"
        ));
    }
}

/// Reads a `submissions.txt` (spec v3), or says what is wrong with it.
pub fn parse_submissions(text: &str) -> Result<Vec<SubmissionLine>, String> {
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let words: Vec<&str> = line.split(' ').collect();
            let [at, side, digest, status, via] = words.as_slice() else {
                return Err(format!(
                    "submissions.txt line {}: expected `<time> <side> <digest> <status> <via>`",
                    i + 1
                ));
            };
            let digest = Digest32::from_hex(digest)
                .map_err(|_| format!("submissions.txt line {}: bad digest", i + 1))?;
            if !["accepted", "superseded"].contains(status) || !["mail", "gm"].contains(via) {
                return Err(format!(
                    "submissions.txt line {}: status is accepted or superseded, via is mail or gm",
                    i + 1
                ));
            }
            Ok(SubmissionLine {
                at: at.to_string(),
                side: side.to_string(),
                digest,
                status: status.to_string(),
                via: via.to_string(),
            })
        })
        .collect()
}
