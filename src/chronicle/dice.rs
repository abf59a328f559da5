//! The dice page and its data (`dice-data.js`): for every resolution the
//! reader may see, the seed inputs of docs/AUDIT.md section 4, the manifest,
//! the orders texts shown and the rolls shown, which `check.js` re-derives
//! in the browser, on the dice page for every resolution and on each
//! resolution's page for its own; and the words that page tells beside its
//! dice, which its script compares with the page's.

use serde_json::{Value, json};

use crate::audit::Digest32;

use super::record::{Record, Resolved};
use super::view::Shown;
use super::{ChronicleError, Site, page};

/// The 32-byte beacon field of a resolution's seed, in hex: the randomness
/// of the drand round it took (SHA-256 of the round's signature, which
/// `verify` checks against the network's key), else SHA-256 of the
/// campaign's beacon text, or 32 zero bytes without one. Written here, from
/// the record, so that the page's script takes the field as it is and a
/// spec version that makes it otherwise changes this function alone.
pub fn beacon_field(record: &Record, r: &Resolved) -> String {
    if let Some(bytes) = r
        .beacon_signature
        .as_deref()
        .and_then(|s| hex::decode(s).ok())
    {
        return Digest32::of(&bytes).to_hex();
    }
    record
        .campaign
        .campaign
        .beacon
        .as_deref()
        .map_or(Digest32::ZERO, |b| Digest32::of(b.as_bytes()))
        .to_hex()
}

/// The data `check.js` reads.
pub fn data(record: &Record, shown: &[Shown]) -> Value {
    let resolutions: Vec<Value> = shown
        .iter()
        .map(|s| {
            let r = s.r;
            json!({
                "slug": r.slug(),
                "kind": r.kind.as_str(),
                "k": r.k,
                "tag": String::from_utf8_lossy(r.kind.seed_tag()),
                "secret": r.secret,
                "manifest": r.manifest_text,
                "manifest_digest": r.manifest_digest,
                "prior_state_digest": r.prior_state_digest,
                "beacon_field": beacon_field(record, r),
                "seed": r.seed,
                "orders": s.orders,
                "rolls": s.rolls,
                "withheld": s.withheld,
                "told": page::told(s),
            })
        })
        .collect();
    json!({
        "campaign": record.campaign.campaign.id,
        "commitments": {
            "turn": record.campaign.commitment.to_hex(),
            "umpire": record.umpire_commitment,
        },
        "resolutions": resolutions,
    })
}

/// Writes `dice.html` and `dice-data.js`; returns how many rolls are shown
/// and how many withheld.
pub(crate) fn write(
    site: &Site,
    record: &Record,
    shown: &[Shown],
) -> Result<(usize, usize), ChronicleError> {
    let data = data(record, shown);
    let json = serde_json::to_string(&data).unwrap_or_else(|_| "null".to_string());
    site.file(
        "dice-data.js",
        format!("window.ADJUTANT_DICE = {json};\n").as_bytes(),
    )?;
    let rows: Vec<Value> = shown
        .iter()
        .map(|s| {
            json!({
                "slug": s.r.slug(),
                "title": format!("{}: {}", page::title(s.r.kind, s.r.k), s.r.phase),
                "page": page::path(&s.r.slug()),
                "dice": s.rolls.len(),
                "withheld": s.withheld,
            })
        })
        .collect();
    let dice = shown.iter().map(|s| s.rolls.len()).sum();
    let withheld = shown.iter().map(|s| s.withheld).sum();
    site.page(
        "dice.html",
        "dice.html",
        ("", "the dice"),
        json!({
            "resolutions": rows,
            "withheld": withheld,
            "beacon": record.campaign.campaign.beacon.is_some(),
            "commitments": {
                "turn": record.campaign.commitment.to_hex(),
                "umpire": record.umpire_commitment,
            },
        }),
        &["dice-data.js", "check.js"],
    )?;
    Ok((dice, withheld))
}
