//! What one reader is shown of each resolution. A turn is what that side's
//! report showed (`report::view`: the same visibility, despatch, order of
//! battle, dice and map); an umpire call or a GM's act as it was announced
//! to everyone, unless its words name a unit out of the reader's sight.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::audit::Kind;
use crate::audit::dice::Roll;
use crate::report::{self, Audience, ReportInput};
use crate::rules::GameState;

use super::record::{Record, Resolved};

/// One resolution as the reader sees it.
pub struct Shown<'r> {
    pub r: &'r Resolved,
    /// A turn's report context for this reader (`report::view`).
    pub context: Value,
    /// A turn's map, as this reader's report drew it.
    pub svg: Option<String>,
    /// What the reader sees after it, by id; `None` for everything.
    pub visible: Option<BTreeSet<String>>,
    /// The rolls shown, whole (the dice check needs their words).
    pub rolls: Vec<&'r Roll>,
    /// How many rolls concern troops out of sight, and are left out.
    pub withheld: usize,
    /// The orders texts shown: the reader's own, or every side's.
    pub orders: BTreeMap<String, String>,
    /// An umpire call's report, unless it names a unit out of sight.
    pub call: Option<String>,
}

/// Whether text names a unit or general of `state` that `visible` leaves
/// out: the report's own test for a roll's purpose.
pub fn names_unseen(text: &str, state: &GameState, visible: Option<&BTreeSet<String>>) -> bool {
    report::heard::names_hidden(text, &report::heard::hidden_names(state, visible))
}

/// Every resolution of `record` as `audience` sees it, in order.
pub fn shown<'r>(record: &'r Record, audience: &Audience) -> Vec<Shown<'r>> {
    // Each turn's view is independent of the others: they are made on every
    // core, as the reports of one resolution are.
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let chunk = record.resolutions.len().div_ceil(cores).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = record
            .resolutions
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|r| one(record, r, audience))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| match h.join() {
                Ok(shown) => shown,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    })
}

fn one<'r>(record: &'r Record, r: &'r Resolved, audience: &Audience) -> Shown<'r> {
    let own = |side: &str| match audience {
        Audience::Gm => true,
        Audience::Side(s) => s == side,
        Audience::Public => false,
    };
    match r.kind {
        Kind::Turn => {
            let input = ReportInput {
                campaign: &record.campaign.campaign,
                ruleset: record.ruleset,
                k: r.k,
                phase: &r.phase,
                prior: &r.prior,
                next: &r.next,
                events: &r.events,
                rolls: &r.rolls,
                orders: &r.orders,
                manifest_digest: r.manifest_digest.clone(),
                audit: crate::report::audit_footer::AuditFooter {
                    secret: r.secret.clone(),
                    commitment: record.campaign.commitment.to_hex(),
                    ..Default::default()
                },
                deadline: None,
                chronicle: BTreeMap::new(),
            };
            let view = report::view(&input, audience.clone());
            // The rolls the report lists, by index: the same choice, whole.
            let listed: BTreeSet<u64> = view.context["dice"]
                .as_array()
                .map(|d| d.iter().filter_map(|r| r["index"].as_u64()).collect())
                .unwrap_or_default();
            let rolls: Vec<&Roll> = r
                .rolls
                .iter()
                .filter(|roll| listed.contains(&u64::from(roll.index)))
                .collect();
            Shown {
                r,
                withheld: r.rolls.len() - rolls.len(),
                rolls,
                orders: r
                    .orders
                    .iter()
                    .filter(|(side, _)| own(side))
                    .map(|(s, t)| (s.clone(), t.clone()))
                    .collect(),
                call: None,
                svg: Some(view.svg),
                visible: view.visible,
                context: view.context,
            }
        }
        Kind::Umpire => {
            // A call changes nothing: what the reader sees is what it saw
            // before it.
            let visible = report::visibility(record.ruleset, &r.prior, audience, &[]);
            let text = r
                .umpire
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default();
            let hidden = names_unseen(&text, &r.prior, visible.as_ref())
                || r.rolls
                    .iter()
                    .any(|roll| names_unseen(&roll.purpose, &r.prior, visible.as_ref()));
            Shown {
                r,
                context: Value::Null,
                svg: None,
                rolls: if hidden {
                    Vec::new()
                } else {
                    r.rolls.iter().collect()
                },
                withheld: if hidden { r.rolls.len() } else { 0 },
                orders: if hidden {
                    BTreeMap::new()
                } else {
                    r.orders.clone()
                },
                call: (!hidden).then_some(text),
                visible,
            }
        }
    }
}
