//! A page for each resolution: the map (a turn's, as the reader's report
//! drew it), the despatch, each side's orders with their digests, the dice
//! with their purposes, the revealed secret and the seed. The page loads
//! the dice data and `check.js`, which checks its dice, writes them from
//! the checked entry and marks whether what the page says agrees with it.

use serde_json::{Value, json};

use crate::audit::Kind;
use crate::audit::manifest::orders_digest;

use super::record::Record;
use super::view::Shown;
use super::{ChronicleError, Sight, Site};

/// A resolution's name for people: `Turn resolution 3`, `Umpire call 1`.
pub fn title(kind: Kind, k: u64) -> String {
    match kind {
        Kind::Turn => format!("Resolution {k}"),
        Kind::Umpire => format!("Umpire call {k}"),
    }
}

/// When something happened, as the pages say it.
pub fn when(at: chrono::DateTime<chrono::Utc>) -> String {
    at.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// The path of a resolution's page from the site's top.
pub fn path(slug: &str) -> String {
    format!("r/{slug}.html")
}

/// The path of a turn's map from the site's top.
pub fn map_path(slug: &str) -> String {
    format!("maps/{slug}.svg")
}

/// The words a resolution's page tells beside its dice, each as one element
/// of the page holds it (`data-told` in `resolution.html`): a turn's
/// despatch, a sector's title and then its sentences as one paragraph; an
/// umpire call's report. `check.js` compares the page's with these, which
/// `dice-data.js` carries, so that a page whose words were changed alone is
/// caught: the despatch quotes dice the rules read, and nothing else ties
/// those numbers to the dice checked.
pub(crate) fn told(s: &Shown) -> Vec<String> {
    match s.r.kind {
        Kind::Turn => s.context["sectors"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|sector| {
                let sentences: Vec<&str> = sector["sentences"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                [
                    sector["title"].as_str().unwrap_or_default().to_string(),
                    sentences.join(" "),
                ]
            })
            .collect(),
        Kind::Umpire => s.call.iter().cloned().collect(),
    }
}

pub(crate) fn write_all(
    site: &Site,
    record: &Record,
    shown: &[Shown],
    sight: &Sight,
) -> Result<(), ChronicleError> {
    let _ = (record, sight);
    for (i, s) in shown.iter().enumerate() {
        let r = s.r;
        let slug = r.slug();
        if let Some(svg) = &s.svg {
            site.file(&map_path(&slug), svg.as_bytes())?;
        }
        let neighbour = |j: Option<usize>| {
            j.and_then(|j| shown.get(j))
                .map(|n| format!("{}.html", n.r.slug()))
        };
        let dice: Vec<Value> = s
            .rolls
            .iter()
            .map(|roll| {
                json!({
                    "index": roll.index,
                    "die": roll.die.label(),
                    "value": roll.value,
                    "faces": roll.faces,
                    "purpose": roll.purpose,
                })
            })
            .collect();
        let (sectors, orders) = match r.kind {
            Kind::Turn => (s.context["sectors"].clone(), s.context["orders"].clone()),
            Kind::Umpire => (
                Value::Null,
                json!(
                    s.orders
                        .values()
                        .map(|text| json!({
                            "name": "The call",
                            "digest": orders_digest(text).to_hex(),
                            "lines": text.lines().collect::<Vec<_>>(),
                        }))
                        .collect::<Vec<_>>()
                ),
            ),
        };
        let context = json!({
            "kind": r.kind.as_str(),
            "slug": slug,
            "phase": r.phase,
            "when": when(r.resolved_at),
            "rolled_back": r.rolled_back,
            "previous": neighbour(i.checked_sub(1)),
            "following": neighbour(Some(i + 1)),
            "map": s.svg.as_ref().map(|_| format!("../{}", map_path(&slug))),
            "call": s.call,
            "sectors": sectors,
            "orders": orders,
            "manifest_digest": r.manifest_digest,
            "dice": dice,
            "withheld": s.withheld,
            "secret_name": match r.kind {
                Kind::Turn => format!("r{}", r.k),
                Kind::Umpire => format!("q{}", r.k),
            },
            "secret": r.secret,
            "seed": r.seed,
        });
        site.page(
            "resolution.html",
            &path(&slug),
            ("../", &title(r.kind, r.k)),
            context,
            &["dice-data.js", "check.js"],
        )?;
    }
    Ok(())
}
