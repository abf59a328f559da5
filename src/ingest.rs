//! One inbound message, from raw bytes to stored orders and a queued reply.
//!
//! The raw bytes are stored first, before anything looks at them. The
//! message is then handled, and its outcome and reply are recorded in one
//! transaction. A message stored but not finished (a crash between the two)
//! is handled again from its bytes; a message already finished is not acted
//! on twice, and its reply has the same Message-ID, which the outbox takes
//! once.

use serde_json::json;

use crate::audit::Digest32;
use crate::campaign::{Auth, Campaign, passphrase};
use crate::engine::gm::{GmCommand, Origin};
use crate::engine::{self, EngineError, mail};
use crate::failpoint;
use crate::lifecycle::Clock;
use crate::mail::body::{OrderText, campaign_from_subject, report_from_subject, turn_from_subject};
use crate::mail::dkim::{self, DkimVerdict, KeySource};
use crate::mail::{Inbound, InboundError, Limits, order_text, parse};
use crate::resolution;
use crate::rules::ruleset_for;
use crate::store::{CampaignRecord, OutgoingMail, Store, StoreError};
use crate::templates::{TemplateError, Templates};

/// How the daemon receives mail.
#[derive(Debug, Clone)]
pub struct IngestConfig {
    /// Addresses adjutant sends from: mail from them is never answered, so
    /// that no loop can start.
    pub own_addresses: Vec<String>,
    /// The domain of Message-IDs of replies not tied to a campaign.
    pub reply_domain: String,
    pub limits: Limits,
    /// Where the DKIM keys of `passphrase-and-dkim` people come from: the
    /// DNS by default, a fixed table in tests.
    pub dkim_keys: std::sync::Arc<dyn KeySource>,
}

impl Default for IngestConfig {
    fn default() -> IngestConfig {
        IngestConfig {
            own_addresses: Vec::new(),
            reply_domain: "adjutant.invalid".to_string(),
            limits: Limits::default(),
            dkim_keys: dkim::dns(),
        }
    }
}

/// What became of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// Sent by a machine, a list or adjutant itself: stored, not answered.
    Ignored { reason: String },
    /// Not taken as orders; the reply says why.
    Refused { reason: String },
    /// Orders stored (some lines may have been refused).
    Accepted {
        campaign: String,
        side: String,
        digest: Digest32,
        replaced: bool,
        refused_lines: usize,
    },
    /// The side says it sends no orders for the phase.
    NoOrders {
        campaign: String,
        side: String,
        /// Whether orders it had sent for the phase were withdrawn.
        withdrawn: bool,
    },
    /// The same bytes were handled before; nothing was done again.
    Duplicate { earlier: String },
    /// The GM's commands, each done or refused; the reply says which.
    Commands {
        campaign: String,
        done: usize,
        refused: usize,
    },
}

/// A failure of ours (the store, a template): the message is stored and will
/// be handled again; an MTA should be told to retry.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IngestError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error(transparent)]
    Engine(#[from] EngineError),
}

impl Outcome {
    /// One line for the log and the inbound record.
    pub fn summary(&self) -> String {
        match self {
            Outcome::Ignored { reason } => format!("ignored: {reason}"),
            Outcome::Refused { reason } => format!("refused: {reason}"),
            Outcome::Accepted {
                campaign,
                side,
                digest,
                replaced,
                refused_lines,
            } => format!(
                "accepted: {campaign} {side} {digest}{}{}",
                if *replaced { " (replaces earlier)" } else { "" },
                if *refused_lines > 0 {
                    format!(", {refused_lines} line(s) refused")
                } else {
                    String::new()
                }
            ),
            Outcome::NoOrders {
                campaign,
                side,
                withdrawn,
            } => format!(
                "no orders: {campaign} {side}{}",
                if *withdrawn {
                    " (earlier orders withdrawn)"
                } else {
                    ""
                }
            ),
            Outcome::Duplicate { earlier } => {
                format!("duplicate of a message already handled ({earlier})")
            }
            Outcome::Commands {
                campaign,
                done,
                refused,
            } => format!("GM commands for {campaign}: {done} done, {refused} refused"),
        }
    }
}

/// Stores `raw`, handles it, and records the outcome and reply.
///
/// The bytes are stored first, in a transaction of their own: from then on
/// the message cannot be lost. Handling it (orders taken, GM commands
/// carried out), recording its outcome and queueing its reply are then one
/// transaction: a crash anywhere leaves either all of it or none, and a
/// message stored but never finished is handled again, from the start, when
/// it is delivered again. A message already finished (the same bytes, or
/// the same message as another delivery brings it, see `Inbound::key`) is
/// not acted on twice.
pub fn ingest(
    store: &mut Store,
    raw: &[u8],
    source: &str,
    config: &IngestConfig,
    clock: &dyn Clock,
) -> Result<Outcome, IngestError> {
    let parsed = parse(raw, &config.limits);
    let key = parsed.as_ref().ok().and_then(Inbound::key);
    if let Some(earlier) = store.handled_before(raw, key.as_ref())? {
        return Ok(Outcome::Duplicate { earlier });
    }
    let now = clock.now();
    let sender = parsed.as_ref().ok().and_then(|m| m.from.clone());
    let id = store.store_inbound_keyed(raw, source, now, key.as_ref(), sender.as_deref())?;
    failpoint::hit("ingest:stored");
    let outcome = store.atomically(|store| -> Result<Outcome, IngestError> {
        let (outcome, campaign, reply) = handle(store, raw, parsed, key, config, clock)?;
        failpoint::hit("ingest:handled");
        let status = match outcome {
            Outcome::Accepted { .. } | Outcome::NoOrders { .. } => "accepted",
            Outcome::Refused { .. } => "refused",
            Outcome::Commands { .. } => "gm",
            _ => "ignored",
        };
        store.finish_inbound(
            id,
            status,
            &outcome.summary(),
            campaign.as_deref(),
            reply.as_ref(),
            now,
        )?;
        Ok(outcome)
    })?;
    failpoint::hit("ingest:finished");
    Ok(outcome)
}

/// What became of a message, the campaign it was for, and the reply.
type Handled = (Outcome, Option<String>, Option<OutgoingMail>);

/// Screens the message, finds its campaign and its writer, and hands it to
/// the GM's commands or a player's orders.
fn handle(
    store: &mut Store,
    raw: &[u8],
    parsed: Result<Inbound, InboundError>,
    key: Option<Digest32>,
    config: &IngestConfig,
    clock: &dyn Clock,
) -> Result<Handled, IngestError> {
    let letter = match screen(raw, parsed, key, config) {
        Ok(letter) => letter,
        Err(reason) => return Ok((Outcome::Ignored { reason }, None, None)),
    };
    let text = order_text(&letter.message.body);
    let record = match identify_campaign(store, &letter, &text)? {
        Ok(record) => record,
        Err(answered) => return Ok(answered),
    };
    if let Some(why) = &letter.message.unreadable {
        let reason = format!("the message could not be read: {why}");
        return letter.refuse(Some(&record.campaign), reason, None);
    }
    // Lines `command: ...` make it a message from the GM, and only the GM's
    // credentials are then checked, even if the GM also plays a side.
    let commands: Vec<(usize, String)> = text
        .lines
        .iter()
        .filter_map(|(n, line)| command_line(line).map(|c| (*n, c.to_string())))
        .collect();
    // Who is writing, and do they prove it? The reply to a failure says only
    // that, never which part failed, so it cannot be used to probe.
    let proof = Proof {
        sender: &letter.sender,
        passphrase: text.passphrase.as_deref(),
        raw,
        keys: config.dkim_keys.as_ref(),
    };
    match authenticate(&record.campaign, &proof, !commands.is_empty()) {
        None => {
            let reason =
                "the sender and passphrase do not match a player of this campaign".to_string();
            let hint =
                "Send from your registered address, with a line `passphrase <your passphrase>`.";
            letter.refuse(Some(&record.campaign), reason, Some(hint))
        }
        Some(Who::Gm) => gm_commands(store, &letter, &record, &commands, clock),
        Some(Who::Player(side)) => take_orders(store, &letter, &record, &side, &text, clock),
    }
}

/// A message read far enough to be answered: whom to, and in reply to what.
struct Letter<'a> {
    config: &'a IngestConfig,
    message: Inbound,
    sender: String,
    /// The digest of its bytes, which numbers its reply.
    digest: Digest32,
    /// What tells this message apart from others (see `Inbound::key`): its
    /// GM commands are numbered by it, so that another delivery of the same
    /// message can never carry them out twice.
    key: Digest32,
}

/// Reads the message and decides whether it is one to answer at all; the
/// error is why not (junk, an automatic message, or our own).
fn screen<'a>(
    raw: &[u8],
    parsed: Result<Inbound, InboundError>,
    key: Option<Digest32>,
    config: &'a IngestConfig,
) -> Result<Letter<'a>, String> {
    // Too large or not mail at all: there may be no one to answer, and
    // answering junk invites more.
    let message = parsed.map_err(|e| e.to_string())?;
    if let Some(why) = &message.automatic {
        return Err(format!(
            "sent automatically ({why:?}); no reply, per RFC 3834"
        ));
    }
    let Some(sender) = message.from.clone() else {
        return Err("no sender address".to_string());
    };
    if config
        .own_addresses
        .iter()
        .any(|a| a.eq_ignore_ascii_case(&sender))
    {
        return Err("sent from adjutant's own address".to_string());
    }
    Ok(Letter {
        config,
        message,
        sender,
        digest: Digest32::of(raw),
        key: key.unwrap_or_else(|| Digest32::of(raw)),
    })
}

/// The campaign a message is for: named in its subject or a `campaign` line,
/// or the only one its sender plays in.
fn identify_campaign(
    store: &Store,
    letter: &Letter<'_>,
    text: &OrderText,
) -> Result<Result<CampaignRecord, Handled>, IngestError> {
    let named = campaign_from_subject(&letter.message.subject).or_else(|| text.campaign.clone());
    let campaign_id = match named {
        Some(id) => id,
        None => match store.campaigns_of(&letter.sender)?.as_slice() {
            [only] => only.clone(),
            _ => {
                let reason = "it does not say which campaign it is for".to_string();
                let hint = "Put the campaign id in the subject, as in [campaign-id], or a line `campaign <id>`.";
                return Ok(Err(letter.refuse(None, reason, Some(hint))?));
            }
        },
    };
    match store.campaign(&campaign_id) {
        Ok(record) => Ok(Ok(record)),
        Err(StoreError::NoCampaign(_)) => {
            let reason = format!("there is no campaign `{campaign_id}` here");
            Ok(Err(letter.refuse(None, reason, None)?))
        }
        Err(e) => Err(e.into()),
    }
}

/// A player's orders: checked against the current turn, submitted, and
/// acknowledged line by line.
fn take_orders(
    store: &mut Store,
    letter: &Letter<'_>,
    record: &CampaignRecord,
    side: &str,
    text: &OrderText,
    clock: &dyn Clock,
) -> Result<Handled, IngestError> {
    let campaign = &record.campaign;
    let ruleset = ruleset_for(&campaign.ruleset.id)
        .ok_or_else(|| EngineError::UnknownRuleset(campaign.ruleset.id.clone()))?;
    let state = store.state(&record.current_state_digest)?;
    let phase = resolution::phase_label(ruleset, &state);
    let person = campaign
        .players
        .iter()
        .find(|p| p.person.address.eq_ignore_ascii_case(&letter.sender))
        .map(|p| &p.person)
        .unwrap_or(&campaign.gm);
    let deadline = crate::lifecycle::local_time(person, record.deadline);
    // A reply to a report is meant for the phase that report opened: its
    // subject names the turn it reported on, not the turn of these orders.
    let latest = store.resolution_counts(&campaign.id)?.0;
    let named_turn = match letter.report_answered(&campaign.id) {
        Some(k) if k != latest => {
            let reason = format!(
                "they reply to the report of resolution {k}, but resolution {latest} has been resolved since; the current phase is {phase}, with its deadline {deadline}"
            );
            let hint = "Read the latest report, then reply to it (or write with the campaign id in brackets in the subject).";
            return letter.refuse(Some(campaign), reason, Some(hint));
        }
        Some(_) => text.turn,
        None => turn_from_subject(&letter.message.subject).or(text.turn),
    };
    if let Some(turn) = named_turn.filter(|t| *t != state.turn) {
        let reason = format!(
            "they are for turn {turn}, but the current phase is {phase}, with its deadline {deadline}"
        );
        return letter.refuse(Some(campaign), reason, None);
    }
    if engine::says_no_orders(text.lines.iter().map(|(_, l)| l.as_str())) {
        return declare_none(store, letter, record, side, &phase, &deadline, clock);
    }
    let limits = &letter.config.limits;
    if text.lines.len() > limits.max_lines {
        let reason = format!(
            "it holds {} order lines, more than the {} one message may carry",
            text.lines.len(),
            limits.max_lines
        );
        let hint = "Send one line for each order you give; no side has that many units.";
        return letter.refuse(Some(campaign), reason, Some(hint));
    }
    let order_source = toml_orders(&letter.message).unwrap_or_else(|| text.as_numbered_text());
    let submitted = match engine::submit(store, &campaign.id, side, &order_source, clock, None) {
        Ok(s) => s,
        Err(e @ (EngineError::Finished(_) | EngineError::Paused(_))) => {
            return letter.refuse(Some(campaign), e.to_string(), None);
        }
        Err(e) => return Err(e.into()),
    };
    let mut refused = submitted.sheet.refusals();
    let refused_lines = refused.len();
    // A reply lists so many refusals, then counts the rest: a message of a
    // thousand bad lines must not get a reply of megabytes.
    let unlisted = refused.len().saturating_sub(limits.max_refusals_listed);
    if unlisted > 0 {
        refused.truncate(limits.max_refusals_listed);
        refused.push(format!(
            "... and {unlisted} more refused lines, not listed; correct those above first"
        ));
    }
    let templates = Templates::for_campaign(&record.source_dir)?;
    if !submitted.stored {
        let reason = "no line of it is an order that can be accepted".to_string();
        let hint = refused.join("\n");
        return letter.refuse_with(&templates, Some(campaign), reason, Some(&hint));
    }
    let body = templates.render(
        "ack.txt",
        json!({
            "campaign": campaign.id,
            "side": side,
            "phase": phase,
            "accepted": submitted.sheet.canonical_text().lines().collect::<Vec<_>>(),
            "digest": submitted.digest.to_hex(),
            "refused": refused,
            "replaced": submitted.replaced,
            "unchanged": submitted.unchanged,
            "deadline": deadline,
        }),
    )?;
    let reply = letter.reply(Some(campaign), body);
    let outcome = Outcome::Accepted {
        campaign: campaign.id.clone(),
        side: side.to_string(),
        digest: submitted.digest,
        replaced: submitted.replaced,
        refused_lines,
    };
    Ok((outcome, Some(campaign.id.clone()), Some(reply)))
}

/// A side's word that it sends no orders for the phase: recorded, and
/// acknowledged with what then happens to its units.
fn declare_none(
    store: &mut Store,
    letter: &Letter<'_>,
    record: &CampaignRecord,
    side: &str,
    phase: &str,
    deadline: &str,
    clock: &dyn Clock,
) -> Result<Handled, IngestError> {
    let campaign = &record.campaign;
    let declared = match engine::declare_none(store, &campaign.id, side, clock, None) {
        Ok(d) => d,
        Err(e @ (EngineError::Finished(_) | EngineError::Paused(_))) => {
            return letter.refuse(Some(campaign), e.to_string(), None);
        }
        Err(e) => return Err(e.into()),
    };
    let templates = Templates::for_campaign(&record.source_dir)?;
    let body = templates.render(
        "no-orders.txt",
        json!({
            "campaign": campaign.id,
            "side": side,
            "phase": phase,
            "withdrawn": declared.withdrawn,
            "no_orders": campaign.no_orders_policy,
            "deadline": deadline,
        }),
    )?;
    let reply = letter.reply(Some(campaign), body);
    let outcome = Outcome::NoOrders {
        campaign: campaign.id.clone(),
        side: side.to_string(),
        withdrawn: declared.withdrawn,
    };
    Ok((outcome, Some(campaign.id.clone()), Some(reply)))
}

/// Who a message proves to come from.
enum Who {
    Player(String),
    Gm,
}

/// What a message offers as proof of its sender.
struct Proof<'a> {
    sender: &'a str,
    passphrase: Option<&'a str>,
    raw: &'a [u8],
    keys: &'a dyn KeySource,
}

impl Proof<'_> {
    /// Whether the proof meets `auth`: the passphrase, and for
    /// `passphrase-and-dkim` a valid DKIM signature aligned with the
    /// sender's domain.
    fn meets(&self, auth: &Auth) -> bool {
        let Some(given) = self.passphrase else {
            return false;
        };
        match auth {
            Auth::Passphrase { hash } => passphrase::verify(given, hash),
            Auth::PassphraseAndDkim { hash } => {
                matches!(
                    dkim::verify(self.raw, self.sender, self.keys),
                    DkimVerdict::Pass { .. }
                ) && passphrase::verify(given, hash)
            }
        }
    }
}

/// Who the sender proves to be: a player (by side) or the GM; `None` when
/// the address, passphrase or signature does not match. With `gm_only`, only
/// the GM's credentials are checked.
fn authenticate(campaign: &Campaign, proof: &Proof<'_>, gm_only: bool) -> Option<Who> {
    let is = |address: &str| address.eq_ignore_ascii_case(proof.sender);
    if !gm_only && let Some(player) = campaign.players.iter().find(|p| is(&p.person.address)) {
        return proof
            .meets(&player.person.auth)
            .then(|| Who::Player(player.side.clone()));
    }
    (is(&campaign.gm.address) && proof.meets(&campaign.gm.auth)).then_some(Who::Gm)
}

/// The command of a line `command: extend 24h` (or `command extend 24h`).
fn command_line(line: &str) -> Option<&str> {
    let head = line.get(..7)?;
    if !head.eq_ignore_ascii_case("command") {
        return None;
    }
    let rest = &line[7..];
    if let Some(after) = rest.strip_prefix(':') {
        return Some(after.trim());
    }
    rest.starts_with(char::is_whitespace).then(|| rest.trim())
}

/// Carries out the GM's command lines in order and replies line by line.
fn gm_commands(
    store: &mut Store,
    letter: &Letter<'_>,
    record: &CampaignRecord,
    commands: &[(usize, String)],
    clock: &dyn Clock,
) -> Result<Handled, IngestError> {
    let campaign = &record.campaign;
    if commands.is_empty() {
        let reason =
            "orders come from the players; the GM's mail carries command lines".to_string();
        let hint = "Write one command a line, as in `command: status` (see docs/GM-COMMANDS.md).";
        return letter.refuse(Some(campaign), reason, Some(hint));
    }
    let mut lines = Vec::new();
    let (mut done, mut refused) = (0, 0);
    for (number, text) in commands {
        let (command, outcome, ok) = match GmCommand::parse(text, &campaign.schedule.time_zone) {
            Err(e) => (text.clone(), format!("refused: {e}"), false),
            Ok(command) => {
                let origin = Origin {
                    source: "mail".into(),
                    key: Some(format!("{}:{number}", letter.key.to_hex())),
                };
                let report =
                    crate::engine::gm::execute(store, &campaign.id, &command, &origin, clock)?;
                let word = if report.done { "done" } else { "refused" };
                (
                    report.command,
                    format!("{word}: {}", report.outcome),
                    report.done,
                )
            }
        };
        if ok {
            done += 1;
        } else {
            refused += 1;
        }
        lines.push(json!({ "number": number, "command": command, "outcome": outcome }));
    }
    let templates = Templates::for_campaign(&record.source_dir)?;
    let body = templates.render(
        "gm-reply.txt",
        json!({ "campaign": campaign.id, "lines": lines }),
    )?;
    let reply = letter.reply(Some(campaign), body);
    let outcome = Outcome::Commands {
        campaign: campaign.id.clone(),
        done,
        refused,
    };
    Ok((outcome, Some(campaign.id.clone()), Some(reply)))
}

/// Orders from a TOML attachment (`orders = ["...", ...]`), which take the
/// place of the body's lines.
fn toml_orders(message: &Inbound) -> Option<String> {
    message.attachments.iter().find_map(|a| {
        let table: toml::Table = a.text.parse().ok()?;
        let list = table.get("orders")?.as_array()?;
        let lines: Vec<&str> = list.iter().filter_map(|v| v.as_str()).collect();
        Some(lines.iter().map(|l| format!("{l}\n")).collect())
    })
}

impl Letter<'_> {
    /// The resolution whose report this message answers, if it is a reply
    /// to one: by the report's Message-ID (`<id>.r<k>.result...`, see
    /// `engine::reports`) in In-Reply-To or References, else by the report's
    /// subject kept after `Re:`.
    fn report_answered(&self, campaign: &str) -> Option<u64> {
        let prefix = format!("{campaign}.r");
        self.message
            .replies_to
            .iter()
            .find_map(|id| {
                let (k, tail) = id.strip_prefix(&prefix)?.split_once('.')?;
                tail.starts_with("result.")
                    .then(|| k.parse().ok())
                    .flatten()
            })
            .or_else(|| report_from_subject(&self.message.subject))
    }

    /// A reply to this message, threaded under it.
    fn reply(&self, campaign: Option<&Campaign>, body: String) -> OutgoingMail {
        let purpose = format!("reply.{}", &self.digest.to_hex()[..16]);
        let message_id = match campaign {
            Some(c) => mail::message_id(c, &purpose, &self.sender),
            None => format!("<{purpose}@{}>", self.config.reply_domain),
        };
        let subject = &self.message.subject;
        let subject = if subject.to_lowercase().starts_with("re:") {
            subject.clone()
        } else {
            format!("Re: {subject}")
        };
        let mut reply = OutgoingMail::text(message_id, self.sender.clone(), subject, body);
        // The reply threads under the player's message and is marked as an
        // automatic answer to it (RFC 3834).
        reply.in_reply_to = self
            .message
            .message_id
            .as_deref()
            .and_then(crate::outbound::message::reply_reference);
        reply
    }

    /// Refuses the message with the campaign's own `refused.txt`.
    fn refuse_with(
        &self,
        templates: &Templates,
        campaign: Option<&Campaign>,
        reason: String,
        hint: Option<&str>,
    ) -> Result<Handled, IngestError> {
        let body = templates.render("refused.txt", json!({ "reason": reason, "hint": hint }))?;
        let reply = self.reply(campaign, body);
        Ok((
            Outcome::Refused { reason },
            campaign.map(|c| c.id.clone()),
            Some(reply),
        ))
    }

    /// Refuses the message with the embedded `refused.txt`.
    fn refuse(
        &self,
        campaign: Option<&Campaign>,
        reason: String,
        hint: Option<&str>,
    ) -> Result<Handled, IngestError> {
        self.refuse_with(&Templates::embedded()?, campaign, reason, hint)
    }
}
