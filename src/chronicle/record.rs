//! Gathering a campaign's record from the store: every resolution with its
//! states, events and rolls read back into values, the game master's acts,
//! the commitments, and the state the game stands in now. Nothing here
//! decides what a reader may see; `view` does.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::audit::Kind;
use crate::audit::dice::Roll;
use crate::rules::reading::Reading;
use crate::rules::ruleset::Event;
use crate::rules::{Ruleset, UmpireReport, ruleset_for};
use crate::store::GmAct;
use crate::store::{CampaignRecord, Store, StoreError};

use super::ChronicleError;

/// A campaign as its chronicle tells it.
pub struct Record {
    pub campaign: CampaignRecord,
    pub ruleset: &'static dyn Ruleset,
    /// U, the head of the umpire calls' chain.
    pub umpire_commitment: String,
    pub initial: Arc<Reading<'static>>,
    /// Every resolved resolution, turns and umpire calls, in the order they
    /// were closed.
    pub resolutions: Vec<Resolved>,
    /// Every act of the game master, numbered as its archive numbers it.
    pub acts: Vec<Act>,
    /// The state the game stands in now (after the last resolution or act).
    pub current: Arc<Reading<'static>>,
}

/// One act of the game master, as the timeline tells it.
pub struct Act {
    /// Its number, as its reply, its announcement and the archive give it.
    pub n: u64,
    /// `correction`, `rollback`, `extend`, ...
    pub kind: String,
    /// The canonical command.
    pub command: String,
    /// How many turn resolutions had been recorded before it.
    pub after_turn: u64,
    pub at: chrono::DateTime<chrono::Utc>,
}

/// Every act of the game master: from the archive's record of acts where
/// the campaign keeps one (every act, numbered as its folder), else the acts
/// on the state, the only ones numbered then.
fn every_act(
    store: &Store,
    campaign_id: &str,
    on_state: &[GmAct],
) -> Result<Vec<Act>, ChronicleError> {
    let mut acts = Vec::new();
    for entry in store.ledger(campaign_id)? {
        let Some(json) = entry.act_json else {
            continue;
        };
        let file: crate::archive::ActFile = serde_json::from_str(&json)
            .map_err(|e| damaged(format!("{}/act.json: {e}", entry.folder)))?;
        let at = chrono::DateTime::parse_from_rfc3339(&file.at)
            .map_err(|e| damaged(format!("{}/act.json: {e}", entry.folder)))?
            .with_timezone(&chrono::Utc);
        acts.push(Act {
            n: file.n,
            kind: file.kind,
            command: file.command,
            after_turn: file.after_turn,
            at,
        });
    }
    if acts.is_empty() {
        acts = on_state
            .iter()
            .map(|a| Act {
                n: a.n,
                kind: a.kind.as_str().to_string(),
                command: a.command.clone(),
                after_turn: a.after_turn,
                at: a.at,
            })
            .collect();
    }
    Ok(acts)
}

/// One resolution, read back.
pub struct Resolved {
    pub kind: Kind,
    pub k: u64,
    pub phase: String,
    pub resolved_at: chrono::DateTime<chrono::Utc>,
    pub manifest_text: String,
    pub manifest_digest: String,
    pub prior_state_digest: String,
    pub next_state_digest: String,
    pub secret: String,
    pub seed: String,
    /// Each side's canonical orders, by side id (`@umpire` for a call).
    pub orders: BTreeMap<String, String>,
    pub prior: Arc<Reading<'static>>,
    pub next: Arc<Reading<'static>>,
    /// A turn's events; a call has none (its report is `umpire`).
    pub events: Vec<Event>,
    pub rolls: Vec<Roll>,
    pub umpire: Option<UmpireReport>,
    /// How many turns had been resolved before it.
    pub after_turn: u64,
    /// For a turn a GM's act later rolled back.
    pub rolled_back: bool,
    /// The drand round's signature, hex, for a turn that took one.
    pub beacon_signature: Option<String>,
}

impl Resolved {
    /// Its name in the site's files and anchors: `turn-0003`, `call-0001`.
    pub fn slug(&self) -> String {
        slug(self.kind, self.k)
    }
}

/// The name of resolution `k` of `kind` in the site: `turn-0003`.
pub fn slug(kind: Kind, k: u64) -> String {
    let word = match kind {
        Kind::Turn => "turn",
        Kind::Umpire => "call",
    };
    format!("{word}-{k:04}")
}

fn damaged(what: String) -> ChronicleError {
    ChronicleError::Store(StoreError::Damaged(what))
}

/// Reads `campaign_id`'s whole record from the store.
pub fn gather(store: &Store, campaign_id: &str) -> Result<Record, ChronicleError> {
    let campaign = store.campaign(campaign_id)?;
    let ruleset = ruleset_for(&campaign.campaign.ruleset.id)
        .ok_or_else(|| ChronicleError::UnknownRuleset(campaign.campaign.ruleset.id.clone()))?;
    let acts = store.gm_acts(campaign_id)?;
    // States are shared between resolutions (a turn's next state is the
    // following one's prior): each is read once, into the ruleset's types.
    let mut states: BTreeMap<String, Arc<Reading<'static>>> = BTreeMap::new();
    let mut state =
        |digest: &crate::audit::Digest32| -> Result<Arc<Reading<'static>>, ChronicleError> {
            let hex = digest.to_hex();
            if let Some(s) = states.get(&hex) {
                return Ok(Arc::clone(s));
            }
            let s = Arc::new(ruleset.read_owned(store.state(digest)?)?);
            states.insert(hex, Arc::clone(&s));
            Ok(s)
        };
    let mut resolutions = Vec::new();
    let mut turns = 0;
    for r in store.resolutions(campaign_id)? {
        let Some(result) = r.result else {
            continue;
        };
        let after_turn = turns;
        if r.kind == Kind::Turn {
            turns += 1;
        }
        let mut events = Vec::new();
        let mut umpire = None;
        for line in &result.events {
            match r.kind {
                Kind::Turn => events.push(
                    serde_json::from_str::<Event>(line)
                        .map_err(|e| damaged(format!("an event of {}: {e}", slug(r.kind, r.k))))?,
                ),
                Kind::Umpire => {
                    let value: serde_json::Value = serde_json::from_str(line)
                        .map_err(|e| damaged(format!("the report of call {}: {e}", r.k)))?;
                    umpire = serde_json::from_value(value["report"].clone()).ok();
                }
            }
        }
        let mut rolls = result
            .rolls
            .iter()
            .map(|line| serde_json::from_str::<Roll>(line))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| damaged(format!("a roll of {}: {e}", slug(r.kind, r.k))))?;
        let prior = state(&r.prior_state_digest)?;
        // What each event and roll shows, and to whom, is not archived: the
        // turn is resolved again from its inputs to learn it, as `verify`
        // resolves it, and kept only where it gives the stored bytes.
        if r.kind == Kind::Turn
            && let Some((typed_events, typed_rolls)) = crate::resolution::typed_again(
                ruleset,
                &prior,
                &r.orders,
                campaign.campaign.no_orders_policy,
                &result.seed,
                (&result.events, &result.rolls),
            )
        {
            events = typed_events;
            rolls = typed_rolls;
        }
        resolutions.push(Resolved {
            kind: r.kind,
            k: r.k,
            phase: r.phase_label,
            resolved_at: result.resolved_at,
            manifest_text: r.manifest_text,
            manifest_digest: r.manifest_digest.to_hex(),
            prior_state_digest: r.prior_state_digest.to_hex(),
            next_state_digest: result.next_state_digest.to_hex(),
            secret: result.secret.to_hex(),
            seed: result.seed.to_hex(),
            beacon_signature: result
                .beacon_signature
                .clone()
                .filter(|s| s != crate::store::BEACON_WAIVED),
            orders: r.orders,
            prior,
            next: state(&result.next_state_digest)?,
            events,
            rolls,
            umpire,
            after_turn,
            rolled_back: r.kind == Kind::Turn && acts.iter().any(|a| a.undoes_turn == Some(r.k)),
        });
    }
    let initial = state(&campaign.initial_state_digest)?;
    let current = state(&campaign.current_state_digest)?;
    let acts = every_act(store, campaign_id, &acts)?;
    Ok(Record {
        umpire_commitment: campaign.chain.umpire_chain().commitment().to_hex(),
        campaign,
        ruleset,
        initial,
        resolutions,
        acts,
        current,
    })
}

impl Record {
    /// Whether the game is over: the state it stands in says so.
    pub fn finished(&self) -> Option<&str> {
        self.current.finished.as_deref()
    }

    /// The turns, in order, rolled-back ones included.
    pub fn turns(&self) -> impl Iterator<Item = &Resolved> {
        self.resolutions.iter().filter(|r| r.kind == Kind::Turn)
    }
}
