//! The campaign engine: registers campaigns, takes orders, closes phases and
//! resolves them, and performs umpire calls, each step through the store.
//!
//! A phase is resolved in two transactions. The first closes it: the
//! manifest and the orders it covers are fixed, and the manifest mail is
//! queued. The second records the resolution. If the process dies between
//! the two, [`tick`] finds the closed phase and resolves it from what was
//! stored, drawing exactly the same dice, since they depend on nothing else.

pub mod beacon;
pub mod gm;
pub mod mail;
pub mod preview;
pub mod ready;
pub mod record;
pub mod reports;
pub mod status;
#[cfg(test)]
pub(crate) mod tests;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use chrono::{DateTime, Utc};

use crate::audit::manifest::UMPIRE;
use crate::audit::{ChainError, Digest32, HashChain, Kind};
use crate::campaign::Campaign;
use crate::lifecycle::{self, Clock, CloseReason, ScheduleError};
use crate::report::audit_footer::NO_LIVE_BEACON;
use crate::resolution::{self, Inputs, Prior, RunError};
use crate::rules::orders::OrderSheet;
use crate::rules::reading::Reading;
use crate::rules::{GameState, Ruleset, UmpireError, UmpireReport, ruleset_for};
use crate::store::{CampaignRecord, ResolutionRecord, ResolvedRecord, Store, StoreError};
use crate::templates::{TemplateError, Templates};
use serde_json::json;

/// What can stop an engine step.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    #[error(transparent)]
    Chain(#[from] ChainError),
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("this adjutant does not know the ruleset `{0}`")]
    UnknownRuleset(String),
    #[error("`{side}` is not a side of campaign {campaign}; the sides are: {known}")]
    UnknownSide {
        campaign: String,
        side: String,
        known: String,
    },
    #[error("the game is over ({0}); no more orders are taken")]
    Finished(String),
    #[error("campaign {0} is paused by its GM")]
    Paused(String),
    #[error("the deadline of this phase ({0}) has passed; the phase is being resolved")]
    DeadlinePassed(String),
    #[error(
        "campaign {campaign} has used all {length} secrets of its {kind} chain; start a new campaign to go on"
    )]
    ChainExhausted {
        campaign: String,
        kind: Kind,
        length: u32,
    },
    #[error(transparent)]
    Call(#[from] UmpireError),
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error(transparent)]
    Report(#[from] crate::report::ReportError),
    #[error(transparent)]
    State(#[from] crate::rules::state::PartError),
    /// The campaign's drand beacon is misconfigured or answered falsely.
    #[error(transparent)]
    Beacon(#[from] crate::beacon::BeaconError),
    /// A closed turn waits for its beacon round: not yet published, or the
    /// relay could not be reached. It is tried again; nothing was lost.
    #[error("resolution {k} waits for drand round {round}: {why}")]
    BeaconWaiting { k: u64, round: u64, why: String },
}

pub type Result<T> = std::result::Result<T, EngineError>;

/// The outcome of a side's submission.
#[derive(Debug, Clone)]
pub struct Submitted {
    pub sheet: OrderSheet,
    pub phase_key: String,
    pub digest: Digest32,
    /// Whether an earlier submission for the phase was replaced.
    pub replaced: bool,
    /// Whether the side's accepted orders for the phase were these very
    /// orders already (sent again): nothing was stored, nothing replaced.
    pub unchanged: bool,
    /// Whether it was stored. A text whose every line was refused is not:
    /// it must not count as the side's orders, nor replace good ones.
    pub stored: bool,
    /// The word `ready` or `wait` the text held, if any.
    pub word: Option<ready::Word>,
    /// Whether the side is now ready for the phase to close early (see
    /// [`ready`]); unchanged when nothing was stored.
    pub ready: bool,
    /// The state the orders were checked against, read once for the whole
    /// message: its acknowledgement's map of the orders as they will be
    /// tried is drawn on this reading. `None` for a state that does not
    /// read, whose sheet accepts nothing and says why.
    pub state: Option<Reading<'static>>,
}

/// One resolution that was carried out.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub k: u64,
    pub phase_label: String,
    pub reason: Option<CloseReason>,
    /// The narrative lines of the events.
    pub events: Vec<String>,
    pub rolls: usize,
    /// The report of an umpire call.
    pub umpire: Option<UmpireReport>,
}

fn ruleset_of(campaign: &Campaign) -> Result<&'static dyn Ruleset> {
    ruleset_for(&campaign.ruleset.id)
        .ok_or_else(|| EngineError::UnknownRuleset(campaign.ruleset.id.clone()))
}

/// Registers a checked campaign: draws its chain secret, stores its initial
/// state and first deadline, and queues the opening mail with the commitment.
pub fn init(
    store: &mut Store,
    campaign: &Campaign,
    source_dir: &Path,
    clock: &dyn Clock,
) -> Result<CampaignRecord> {
    let ruleset = ruleset_of(campaign)?;
    let chain = HashChain::generate(campaign.chain_length)?;
    let state = campaign.initial_state(ruleset)?;
    let now = clock.now();
    let deadline = lifecycle::deadline(&campaign.schedule, ruleset.phase_of(&state).name, now)?;
    let commitment = chain.commitment();
    let phase = resolution::phase_label(ruleset, &state);
    // The first head of a campaign that keeps a hash-linked record.
    let genesis = chain.umpire_origin().map(|_| {
        let initial = Digest32::of(crate::canonical::to_string(&state).as_bytes());
        record::genesis_of(campaign, &chain, initial).digest()
    });
    // Stored absolute, so that a daemon started elsewhere still finds the
    // campaign's own templates.
    let source_dir = &source_dir
        .canonicalize()
        .unwrap_or_else(|_| source_dir.to_path_buf());
    let templates = Templates::for_campaign(source_dir)?;
    let subject = format!("{}: the campaign opens", campaign.title);
    // One opening for each side and one for the GM, each with its map, all
    // from one reading of the state.
    let read = ruleset
        .read(&state)
        .map_err(|e| EngineError::Report(e.into()))?;
    let mut openings = BTreeMap::new();
    for person in mail::everyone(campaign) {
        let side = crate::report::opening::side_of(campaign, person).map(str::to_string);
        if let std::collections::btree_map::Entry::Vacant(slot) = openings.entry(side) {
            let side = slot.key().clone();
            slot.insert(crate::report::opening::prepare(
                campaign,
                ruleset,
                &read,
                side.as_deref(),
            )?);
        }
    }
    let mut opening = mail::to_all(campaign, "opening", &subject, |p| {
        let side = crate::report::opening::side_of(campaign, p).map(str::to_string);
        let mut context = openings
            .get(&side)
            .map(|o| o.context.clone())
            .unwrap_or_default();
        context["campaign"] =
            json!({"id": campaign.id, "title": campaign.title, "ruleset": campaign.ruleset.id});
        context["commitment"] = json!(commitment.to_hex());
        context["umpire_commitment"] = json!(chain.umpire_chain().commitment().to_hex());
        context["chain_length"] = json!(chain.length());
        context["genesis"] = json!(genesis.as_ref().map(|g| g.to_hex()));
        let network = campaign.drand.as_ref().and_then(|d| d.network().ok());
        context["drand"] = json!(network.as_ref().map(|n| n.chain_hash_hex()));
        context["drand_name"] = json!(network.as_ref().and_then(|n| n.known_name()));
        context["drand_untrusted"] = json!(
            network
                .as_ref()
                .filter(|n| n.known_name().is_none())
                .map(|n| crate::campaign::untrusted_network_words(&n.chain_hash_hex()))
        );
        context["phase"] = json!(phase);
        context["deadline"] = json!(crate::lifecycle::local_time(p, deadline));
        context["person"] = json!({"name": p.name, "address": p.address});
        templates.render("opening.txt", context)
    })?;
    for message in &mut opening {
        let side = campaign
            .players
            .iter()
            .find(|p| p.person.address.eq_ignore_ascii_case(&message.recipient))
            .map(|p| p.side.clone());
        if let Some(o) = openings.get(&side) {
            message.parts.push(crate::report::opening::map_part(o));
        }
    }
    store.register_campaign(
        campaign, source_dir, &chain, &state, now, deadline, &opening,
    )?;
    Ok(store.campaign(&campaign.id)?)
}

/// The campaign, its ruleset and its state, if `side` may send orders for
/// the current phase now: the game goes on, is not paused, the deadline has
/// not passed, and the side is one of the campaign's.
fn open_phase(
    store: &Store,
    campaign_id: &str,
    side: &str,
    clock: &dyn Clock,
) -> Result<(CampaignRecord, &'static dyn Ruleset, GameState)> {
    let record = store.campaign(campaign_id)?;
    let ruleset = ruleset_of(&record.campaign)?;
    let state = store.state(&record.current_state_digest)?;
    if let Some(why) = crate::report::outcome::ending_of(&record.campaign, ruleset, &state)? {
        return Err(EngineError::Finished(why));
    }
    if record.paused {
        return Err(EngineError::Paused(campaign_id.to_string()));
    }
    if clock.now() >= record.deadline {
        // Past the deadline, orders are taken only in the grace the
        // schedule gives a side that has sent nothing.
        let key = resolution::phase_key(ruleset, &state);
        let sent = sides_in_phase(store, campaign_id, &key)?;
        let late = !lifecycle::silent_sides(ruleset, &state, &sent).is_empty();
        if clock.now() >= record.campaign.schedule.closes_at(record.deadline, late) {
            return Err(EngineError::DeadlinePassed(
                record
                    .deadline
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            ));
        }
    }
    if !state.sides.iter().any(|s| s == side) {
        return Err(EngineError::UnknownSide {
            campaign: campaign_id.to_string(),
            side: side.to_string(),
            known: state.sides.join(", "),
        });
    }
    Ok((record, ruleset, state))
}

/// What became of a side's word that it sends no orders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredNone {
    pub phase_key: String,
    /// Whether orders it had sent for the phase were withdrawn.
    pub withdrawn: bool,
}

/// Records that `side` sends no orders for the current phase: the phase
/// need not wait for it, and the campaign's rule for a side without orders
/// applies to it (stand fast, or its standing orders). Orders it sent
/// earlier for the phase are withdrawn; orders it sends later replace the
/// word.
pub fn declare_none(
    store: &mut Store,
    campaign_id: &str,
    side: &str,
    clock: &dyn Clock,
    message: Option<i64>,
) -> Result<DeclaredNone> {
    let (record, ruleset, state) = open_phase(store, campaign_id, side, clock)?;
    let phase_key = resolution::phase_key(ruleset, &state);
    let withdrawn = store.declare_no_orders(
        campaign_id,
        &record.current_state_digest,
        &phase_key,
        side,
        clock.now(),
        message,
    )?;
    Ok(DeclaredNone {
        phase_key,
        withdrawn,
    })
}

/// Whether an order text says the side sends none: its one line (blank
/// lines and `#` comments aside) reads `no orders` or `none`, with or
/// without a full stop.
pub fn says_no_orders<'a>(lines: impl IntoIterator<Item = &'a str>) -> bool {
    let mut lines = lines
        .into_iter()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let (Some(only), None) = (lines.next(), lines.next()) else {
        return false;
    };
    let words: Vec<String> = only
        .trim_end_matches(['.', '!'])
        .split_whitespace()
        .map(str::to_lowercase)
        .collect();
    words == ["no", "orders"] || words == ["none"]
}

/// The key of the campaign's current phase, under which its orders are kept.
pub fn phase_key(store: &Store, campaign_id: &str) -> Result<String> {
    let record = store.campaign(campaign_id)?;
    let ruleset = ruleset_of(&record.campaign)?;
    let state = store.state(&record.current_state_digest)?;
    Ok(resolution::phase_key(ruleset, &state))
}

/// Checks a side's orders for the current phase as the acknowledgement
/// does (`Ruleset::acknowledge`: a line the phase would certainly not carry
/// out is refused, a doubtful one warned of) and stores the accepted ones,
/// replacing an earlier submission for the phase.
pub fn submit(
    store: &mut Store,
    campaign_id: &str,
    side: &str,
    text: &str,
    clock: &dyn Clock,
    message: Option<i64>,
) -> Result<Submitted> {
    let (record, ruleset, state) = open_phase(store, campaign_id, side, clock)?;
    let (word, orders) = ready::take_words(text);
    let phase_key = resolution::phase_key(ruleset, &state);
    // The state is read here, once for the message. One that does not read
    // (damaged bytes) takes no orders: the sheet refuses them, saying so,
    // and the player is asked to tell the GM.
    let (sheet, state) = match ruleset.read_owned(state) {
        Ok(read) => (ruleset.acknowledge(&read, side, &orders), Some(read)),
        Err(e) => (OrderSheet::unreadable_state(&e), None),
    };
    let canonical = sheet.canonical_text();
    let ready = ready::Word::ready(word, !sheet.is_clean());
    // A text with no order accepted (every line refused, or no line at all)
    // is not the side's orders, whatever salt or comments it carries: it
    // must not replace good ones or close the phase. A salt line is no
    // order; alone it once wiped a side's orders when every order line
    // beside it had a typo.
    if sheet.accepted.is_empty() {
        let ready = store
            .readiness(campaign_id, &record.current_state_digest, &phase_key)?
            .get(side)
            .copied()
            .unwrap_or(false);
        return Ok(Submitted {
            digest: Digest32::of(canonical.as_bytes()),
            sheet,
            phase_key,
            replaced: false,
            unchanged: false,
            stored: false,
            word,
            ready,
            state,
        });
    }
    // The same orders again (the player pressed send twice, or resent them
    // to be sure) change nothing: they are not a replacement. Whether the
    // side is ready is what this message says.
    let standing = store.accepted_submissions(campaign_id, &phase_key)?;
    if standing
        .get(side)
        .is_some_and(|s| s.canonical_text == canonical)
    {
        store.say_ready(
            campaign_id,
            &record.current_state_digest,
            &phase_key,
            side,
            ready,
            clock.now(),
            message,
        )?;
        return Ok(Submitted {
            digest: Digest32::of(canonical.as_bytes()),
            sheet,
            phase_key,
            replaced: false,
            unchanged: true,
            stored: true,
            word,
            ready,
            state,
        });
    }
    let replaced = store.submit_orders(
        campaign_id,
        &record.current_state_digest,
        &phase_key,
        side,
        text,
        &canonical,
        ready,
        clock.now(),
        message,
    )?;
    Ok(Submitted {
        digest: Digest32::of(canonical.as_bytes()),
        sheet,
        phase_key,
        replaced,
        unchanged: false,
        stored: true,
        word,
        ready,
        state,
    })
}

/// The sides that are in for the current phase: those that sent orders and
/// those that said they send none.
pub fn sides_in(store: &Store, campaign_id: &str) -> Result<BTreeSet<String>> {
    sides_in_phase(store, campaign_id, &phase_key(store, campaign_id)?)
}

/// [`sides_in`] for a phase whose key the caller already has.
pub fn sides_in_phase(store: &Store, campaign_id: &str, key: &str) -> Result<BTreeSet<String>> {
    let mut sides: BTreeSet<String> = store
        .accepted_submissions(campaign_id, key)?
        .into_keys()
        .collect();
    sides.extend(store.sides_sending_none(campaign_id, key)?);
    Ok(sides)
}

/// Brings a campaign up to date at the clock's time: finishes a phase closed
/// before a crash, then closes and resolves the current phase if it is due.
pub fn tick(store: &mut Store, campaign_id: &str, clock: &dyn Clock) -> Result<Vec<Resolved>> {
    let mut done = finish_closed(store, campaign_id, clock)?;
    if let Some(reason) = due_now(store, campaign_id, clock.now())? {
        done.extend(close_and_resolve(store, campaign_id, clock, Some(reason))?);
    }
    Ok(done)
}

/// A campaign's open phase as the store holds it, read once: what asks
/// whether the phase is due, and what reminds its silent sides, read the
/// same things.
pub struct OpenPhase {
    pub record: CampaignRecord,
    pub ruleset: &'static dyn Ruleset,
    pub state: GameState,
    /// The key its orders are kept under.
    pub key: String,
    /// The sides that are in: sent orders, or said they send none.
    pub sent: BTreeSet<String>,
    /// The sides ready for the phase to close before its deadline.
    pub ready: BTreeSet<String>,
}

impl OpenPhase {
    pub fn read(store: &Store, campaign_id: &str) -> Result<OpenPhase> {
        let record = store.campaign(campaign_id)?;
        let ruleset = ruleset_of(&record.campaign)?;
        let state = store.state(&record.current_state_digest)?;
        let key = resolution::phase_key(ruleset, &state);
        let sent = sides_in_phase(store, campaign_id, &key)?;
        let ready = ready::ready_in(store, campaign_id, &record.current_state_digest, &key)?;
        Ok(OpenPhase {
            record,
            ruleset,
            state,
            key,
            sent,
            ready,
        })
    }

    /// Whether nothing will close it or remind anyone until something
    /// changes: the GM paused the campaign, or the game is over.
    pub fn at_rest(&self) -> bool {
        self.record.paused || self.state.finished.is_some()
    }

    /// Why it should close at `now`, if it should: its deadline (and any
    /// grace for a silent side) passed or every side is ready, and the GM
    /// has not paused it.
    pub fn due(&self, now: DateTime<Utc>) -> Option<CloseReason> {
        if self.record.paused {
            return None;
        }
        lifecycle::due(&self.state, self.closes_at(), &self.ready, now)
    }

    /// The sides the phase needs that have sent nothing.
    pub fn silent(&self) -> Vec<String> {
        lifecycle::silent_sides(self.ruleset, &self.state, &self.sent)
    }

    /// When it closes whoever is ready: its deadline, or the end of its
    /// grace while a side it needs is silent.
    pub fn closes_at(&self) -> DateTime<Utc> {
        let late = !self.silent().is_empty();
        self.record
            .campaign
            .schedule
            .closes_at(self.record.deadline, late)
    }
}

/// Why the open phase of a campaign should close at `now`, if it should
/// (see [`OpenPhase::due`]).
pub fn due_now(
    store: &Store,
    campaign_id: &str,
    now: DateTime<Utc>,
) -> Result<Option<CloseReason>> {
    Ok(OpenPhase::read(store, campaign_id)?.due(now))
}

/// Why a campaign takes no more mail until its phase is closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closing {
    /// The phase was closed and its resolution waits (a beacon round, a
    /// store that could not be written): the next phase has not opened.
    Resolving,
    /// The phase is due to close.
    Due(CloseReason),
}

/// Whether the campaign's phase is closing at `now`: closed and not yet
/// resolved, or due (see [`due_now`]). Mail that comes meanwhile belongs to
/// the phase after it, as it would had the phase been closed at once.
pub fn closing(store: &Store, campaign_id: &str, now: DateTime<Utc>) -> Result<Option<Closing>> {
    if !store.pending_resolutions(campaign_id)?.is_empty() {
        return Ok(Some(Closing::Resolving));
    }
    Ok(due_now(store, campaign_id, now)?.map(Closing::Due))
}

/// Closes and resolves the current phase now, whoever has sent orders (the
/// GM's "resolve now").
pub fn resolve_now(
    store: &mut Store,
    campaign_id: &str,
    clock: &dyn Clock,
) -> Result<Vec<Resolved>> {
    // A phase closed before a crash is the one the GM meant to resolve; the
    // phase that follows has only just opened and must not close with it.
    let done = finish_closed(store, campaign_id, clock)?;
    if !done.is_empty() {
        return Ok(done);
    }
    Ok(close_and_resolve(store, campaign_id, clock, None)?
        .into_iter()
        .collect())
}

/// The number the next resolution of `kind` takes, if its chain has a
/// secret left for it. Checked before a phase is closed, so that a campaign
/// never fixes a manifest it cannot resolve.
fn next_k(store: &Store, record: &CampaignRecord, kind: Kind) -> Result<u64> {
    let k = store.next_k(&record.campaign.id, kind)?;
    if k > u64::from(record.chain.length()) {
        return Err(EngineError::ChainExhausted {
            campaign: record.campaign.id.clone(),
            kind,
            length: record.chain.length(),
        });
    }
    Ok(k)
}

fn close_and_resolve(
    store: &mut Store,
    campaign_id: &str,
    clock: &dyn Clock,
    reason: Option<CloseReason>,
) -> Result<Option<Resolved>> {
    let record = store.campaign(campaign_id)?;
    let campaign = &record.campaign;
    let ruleset = ruleset_of(campaign)?;
    let state = store.state(&record.current_state_digest)?;
    if let Some(why) = crate::report::outcome::ending_of(campaign, ruleset, &state)? {
        return Err(EngineError::Finished(why));
    }
    let key = resolution::phase_key(ruleset, &state);
    let orders: BTreeMap<String, String> = store
        .accepted_submissions(campaign_id, &key)?
        .into_iter()
        .map(|(side, s)| (side, s.canonical_text))
        .collect();
    let k = next_k(store, &record, Kind::Turn)?;
    let label = resolution::phase_label(ruleset, &state);
    let mut manifest = resolution::turn_manifest(&campaign.id, k, &label, &state, &orders);
    // The round is named now, before it is published and before the manifest
    // mail goes out: nobody can know the dice until the round exists.
    let beacon = match &campaign.drand {
        Some(drand) => {
            let network = drand.network()?;
            let round = crate::beacon::first_round_after(
                &network,
                clock.now().timestamp(),
                drand.margin_seconds,
            );
            let at = crate::beacon::round_time(&network, round)
                .and_then(|t| DateTime::<Utc>::from_timestamp(t, 0))
                .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
            manifest.beacon_round = Some(round);
            let untrusted = network
                .known_name()
                .is_none()
                .then(|| crate::campaign::untrusted_network_words(&network.chain_hash_hex()));
            Some(
                json!({"round": round, "at": at, "chain": network.chain_hash_hex(), "untrusted": untrusted}),
            )
        }
        None => None,
    };
    let text = manifest.text();
    let digest = manifest.digest();
    let templates = Templates::for_campaign(&record.source_dir)?;
    let subject = format!("manifest of resolution {k}");
    let manifest_mail = mail::to_all(campaign, &format!("r{k}.manifest"), &subject, |_| {
        templates.render(
            "manifest.txt",
            json!({"phase": label, "k": k, "manifest": text, "manifest_digest": digest.to_hex(),
                   "beacon": beacon}),
        )
    })?;
    let closed = ResolutionRecord {
        k,
        kind: Kind::Turn,
        phase_label: label,
        closed_at: clock.now(),
        manifest_text: text,
        manifest_digest: digest,
        prior_state_digest: record.current_state_digest,
        orders,
        beacon_round: manifest.beacon_round,
        beacon_tried_at: None,
        beacon_waived: false,
        result: None,
    };
    store.close_phase(campaign_id, &closed, Some(&key), &manifest_mail)?;
    crate::failpoint::hit("engine:closed");
    match resolve_closed(store, &record, &Prior::new(ruleset, &state), &closed, clock) {
        Ok(mut resolved) => {
            resolved.reason = reason;
            Ok(Some(resolved))
        }
        // Closed and stored: it resolves when its round comes.
        Err(EngineError::BeaconWaiting { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Resolves every phase that was closed but not resolved (after a crash).
fn finish_closed(store: &mut Store, campaign_id: &str, clock: &dyn Clock) -> Result<Vec<Resolved>> {
    let pending = store.pending_resolutions(campaign_id)?;
    let mut done = Vec::new();
    for closed in pending {
        let record = store.campaign(campaign_id)?;
        let state = store.state(&closed.prior_state_digest)?;
        let ruleset = ruleset_of(&record.campaign)?;
        match resolve_closed(store, &record, &Prior::new(ruleset, &state), &closed, clock) {
            Ok(r) => done.push(r),
            // In order: what follows waits with it.
            Err(EngineError::BeaconWaiting { .. }) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

/// Resolves a closed phase or call from its prior state, read once for the
/// resolution and its reports.
fn resolve_closed(
    store: &mut Store,
    record: &CampaignRecord,
    prior: &Prior<'_>,
    closed: &ResolutionRecord,
    clock: &dyn Clock,
) -> Result<Resolved> {
    let campaign = &record.campaign;
    let ruleset = prior.ruleset();
    let kind = closed.kind;
    let secret = record.chain.for_kind(kind).secret_for(closed.k)?;
    let drawn = beacon::draw(store, record, closed, clock)?;
    let output = resolution::run(&Inputs {
        drawn: drawn.as_ref().and_then(|d| d.value),
        prior,
        kind,
        campaign: &campaign.id,
        k: closed.k,
        secret,
        manifest_digest: closed.manifest_digest,
        prior_state_digest: closed.prior_state_digest,
        beacon: campaign.beacon.as_deref(),
        policy: campaign.no_orders_policy,
        orders: &closed.orders,
    })?;
    let now = clock.now();
    let next_phase = match kind {
        Kind::Turn if output.next_state.finished.is_none() => {
            let phase = ruleset.phase_of(&output.next_state).name;
            Some((now, lifecycle::deadline(&campaign.schedule, phase, now)?))
        }
        _ => None,
    };
    let k = closed.k;
    let narrative: Vec<String> = output.event_values.iter().map(|e| e.text.clone()).collect();
    let result = ResolvedRecord {
        resolved_at: now,
        secret,
        seed: output.seed,
        next_state_digest: Digest32::of(output.next_state_json.as_bytes()),
        events: output.events.clone(),
        rolls: output.rolls.clone(),
        beacon_signature: drawn.as_ref().map(|d| d.signature.clone()),
    };
    // Sealed before the mail is written, so that the mail names the head
    // this resolution makes; stored with it in one transaction.
    let sealed = record::seal_resolution(store, record, closed, &result, &output.next_state_json)?;
    let footer = crate::report::audit_footer::AuditFooter::new(
        &campaign.id,
        kind,
        k,
        secret,
        record.commitment,
        record.chain.umpire_chain().commitment(),
        closed.manifest_digest,
        closed.prior_state_digest,
        drawn
            .as_ref()
            .and_then(|d| d.value)
            .unwrap_or_else(|| crate::audit::SeedInputs::beacon_field(campaign.beacon.as_deref())),
        match (&drawn, &campaign.beacon) {
            (Some(d), _) => d.said.clone(),
            (None, None) => NO_LIVE_BEACON.to_string(),
            (None, Some(text)) => format!("the fixed text \"{text}\"; {NO_LIVE_BEACON}"),
        },
        sealed.as_ref().map(|s| s.digest()),
    )
    .made(result.next_state_digest, result.beacon_signature.as_deref());
    let templates = Templates::for_campaign(&record.source_dir)?;
    let announce = match &output.umpire {
        Some(report) => {
            let subject = format!("umpire call {k}");
            let rolls: Vec<&crate::audit::Roll> = output.roll_values.iter().collect();
            mail::to_all(campaign, &format!("r{k}.umpire"), &subject, |_| {
                templates.render(
                    "umpire.txt",
                    json!({
                        "k": k,
                        "report": report.to_string(),
                        "secret": secret.to_hex(),
                        "commitment": footer.umpire_commitment,
                        "audit": footer,
                        "dice_command": footer.dice_command(&rolls),
                    }),
                )
            })?
        }
        None => {
            // Each state is read once for all the audiences' reports: the
            // prior as the resolution read it.
            let next = ruleset.read(&output.next_state)?;
            let input = crate::report::ReportInput {
                campaign,
                ruleset,
                k,
                phase: &closed.phase_label,
                prior: prior.read()?,
                next: &next,
                events: &output.event_values,
                rolls: &output.roll_values,
                orders: &closed.orders,
                manifest_digest: closed.manifest_digest.to_hex(),
                audit: footer.clone(),
                deadline: next_phase.map(|(_, d)| d),
                chronicle: crate::chronicle::publish::links(record, k),
            };
            reports::resolution_mail(campaign, &input, &templates)?
        }
    };
    store.record_resolution(
        &campaign.id,
        kind,
        k,
        &result,
        &output.next_state,
        next_phase,
        sealed.as_ref(),
        &announce,
    )?;
    crate::failpoint::hit("engine:resolved");
    Ok(Resolved {
        k,
        phase_label: closed.phase_label.clone(),
        reason: None,
        events: narrative,
        rolls: output.rolls.len(),
        umpire: output.umpire,
    })
}

/// Performs one umpire call as its own resolution, recorded and archived
/// like any other. A call that cannot be read is refused before it uses up
/// a secret.
pub fn umpire(
    store: &mut Store,
    campaign_id: &str,
    call: &str,
    clock: &dyn Clock,
) -> Result<(u64, UmpireReport)> {
    finish_closed(store, campaign_id, clock)?;
    let record = store.campaign(campaign_id)?;
    let campaign = &record.campaign;
    let ruleset = ruleset_of(campaign)?;
    let state = store.state(&record.current_state_digest)?;
    // Read once, for the trial and the resolution alike.
    let prior = Prior::new(ruleset, &state);
    let read = prior
        .read()
        .map_err(|e| UmpireError::State(e.to_string()))?;
    // A trial run on throwaway dice finds a bad call before any secret is
    // spent on it, and gives the canonical text the manifest records.
    let mut trial = crate::audit::DiceStream::new(&Digest32::ZERO);
    let canonical = ruleset.umpire(read, call, &mut trial)?.call;
    let k = next_k(store, &record, Kind::Umpire)?;
    let orders_text = format!("{canonical}\n");
    let manifest = resolution::umpire_manifest(&campaign.id, k, &orders_text);
    let closed = ResolutionRecord {
        k,
        kind: Kind::Umpire,
        phase_label: "umpire".to_string(),
        closed_at: clock.now(),
        manifest_text: manifest.text(),
        manifest_digest: manifest.digest(),
        prior_state_digest: record.current_state_digest,
        orders: BTreeMap::from([(UMPIRE.to_string(), orders_text)]),
        beacon_round: None,
        beacon_tried_at: None,
        beacon_waived: false,
        result: None,
    };
    store.close_phase(campaign_id, &closed, None, &[])?;
    let resolved = resolve_closed(store, &record, &prior, &closed, clock)?;
    let report = resolved
        .umpire
        .ok_or_else(|| StoreError::Damaged(format!("resolution {k} gave no umpire report")))?;
    Ok((k, report))
}
