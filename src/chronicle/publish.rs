//! The daemon's copy of a campaign's chronicle, kept current in a folder a
//! web server serves: after each resolution, one site for each side and one
//! for the game master, each in a folder whose name no one can guess
//! without being given it (its report links to it), and once the game is
//! over the whole chronicle at the campaign folder's top, for everyone.
//!
//! ```text
//! DIR/<campaign>/index.html                 the whole chronicle, once the game is over
//! DIR/<campaign>/<side>-<key>/index.html    a side's, while the game runs
//! DIR/<campaign>/gm-<key>/index.html        the game master's
//! DIR/<campaign>/public-<key>/index.html    the public's, for observers (REP-4)
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::audit::Digest32;
use crate::report::Audience;
use crate::store::{CampaignRecord, Store};

use super::record::{gather, slug};
use super::{ChronicleError, Reader, page, write_record};

/// The folder, under the campaign's, of one audience's chronicle: the side
/// id or `gm`, then 16 hex digits of a digest keyed with the campaign's
/// chain origin, which only the game master's machine holds, so that no
/// player can find another side's folder.
pub fn folder(campaign: &CampaignRecord, audience: &Audience) -> String {
    let word = audience.word();
    let mut bytes = b"adjutant-chronicle-folder-v1".to_vec();
    bytes.extend_from_slice(campaign.chain.origin().as_bytes());
    bytes.extend_from_slice(word.as_bytes());
    let key = Digest32::of(&bytes).to_hex();
    format!("{word}-{}", &key[..16])
}

/// Where each audience reads turn `k` in the chronicle served at the
/// campaign's `[chronicle] url`; empty where the campaign names none.
pub fn links(campaign: &CampaignRecord, k: u64) -> BTreeMap<Audience, String> {
    let Some(url) = &campaign.campaign.chronicle_url else {
        return BTreeMap::new();
    };
    let page = page::path(&slug(crate::audit::Kind::Turn, k));
    campaign
        .campaign
        .sides
        .iter()
        .map(|s| Audience::Side(s.id.clone()))
        .chain([Audience::Gm])
        .chain((!campaign.campaign.observers.is_empty()).then_some(Audience::Public))
        .map(|a| {
            let link = format!("{url}/{}/{page}", folder(campaign, &a));
            (a, link)
        })
        .collect()
}

/// Writes the chronicle of `campaign_id` for every audience under
/// `dir/<campaign id>/`, as the module's doc lays it out. Returns the
/// campaign's folder.
pub fn publish(store: &Store, campaign_id: &str, dir: &Path) -> Result<PathBuf, ChronicleError> {
    let record = gather(store, campaign_id)?;
    let top = dir.join(&record.campaign.campaign.id);
    super::prepare_folder(&top)?;
    let mut readers: Vec<Reader> = record
        .campaign
        .campaign
        .sides
        .iter()
        .map(|s| Reader::Side(s.id.clone()))
        .collect();
    readers.push(Reader::Gm);
    // The public's chronicle, for the campaign's observers.
    if !record.campaign.campaign.observers.is_empty() {
        readers.push(Reader::Public);
    }
    for reader in readers {
        let audience = match &reader {
            Reader::Side(s) => Audience::Side(s.clone()),
            Reader::Gm => Audience::Gm,
            Reader::Public => Audience::Public,
        };
        write_record(
            &record,
            reader,
            &top.join(folder(&record.campaign, &audience)),
        )?;
    }
    if record.finished().is_some() {
        write_record(&record, Reader::Gm, &top)?;
    } else {
        waiting_page(&top, &record.campaign.campaign.title)?;
    }
    Ok(top)
}

/// The campaign folder's front page while the game runs: the chronicle is
/// not public yet.
fn waiting_page(top: &Path, title: &str) -> Result<(), ChronicleError> {
    let io = |source| ChronicleError::Write {
        path: top.to_path_buf(),
        source,
    };
    let title = title
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let text = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{title}</title></head>\n<body><h1>{title}</h1><p>The game goes on. Each player's reports link to the chronicle of their side; the whole chronicle is published here once the game is over.</p></body></html>\n"
    );
    std::fs::write(top.join("index.html"), text).map_err(io)
}
