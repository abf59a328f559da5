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
use crate::engine::{self, EngineError, mail};
use crate::lifecycle::Clock;
use crate::mail::body::{campaign_from_subject, turn_from_subject};
use crate::mail::{Inbound, Limits, order_text, parse};
use crate::resolution;
use crate::rules::ruleset_for;
use crate::store::{OutgoingMail, Store, StoreError};
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
}

impl Default for IngestConfig {
    fn default() -> IngestConfig {
        IngestConfig {
            own_addresses: Vec::new(),
            reply_domain: "adjutant.invalid".to_string(),
            limits: Limits::default(),
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
    /// The same bytes were handled before; nothing was done again.
    Duplicate { earlier: String },
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
            Outcome::Duplicate { earlier } => {
                format!("duplicate of a message already handled ({earlier})")
            }
        }
    }
}

/// Stores `raw`, handles it, and records the outcome and reply.
pub fn ingest(
    store: &mut Store,
    raw: &[u8],
    source: &str,
    config: &IngestConfig,
    clock: &dyn Clock,
) -> Result<Outcome, IngestError> {
    if let Some(earlier) = store.handled_before(raw)? {
        return Ok(Outcome::Duplicate { earlier });
    }
    let now = clock.now();
    let id = store.store_inbound(raw, source, now)?;
    let (outcome, campaign, reply) = handle(store, raw, config, clock)?;
    let status = match outcome {
        Outcome::Accepted { .. } => "accepted",
        Outcome::Refused { .. } => "refused",
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
}

type Handled = (Outcome, Option<String>, Option<OutgoingMail>);

fn handle(
    store: &mut Store,
    raw: &[u8],
    config: &IngestConfig,
    clock: &dyn Clock,
) -> Result<Handled, IngestError> {
    let digest = Digest32::of(raw);
    let message = match parse(raw, &config.limits) {
        Ok(m) => m,
        // Too large or not mail at all: there may be no one to answer, and
        // answering junk invites more.
        Err(e) => {
            return Ok((
                Outcome::Ignored {
                    reason: e.to_string(),
                },
                None,
                None,
            ));
        }
    };
    if let Some(why) = &message.automatic {
        let reason = format!("sent automatically ({why:?}); no reply, per RFC 3834");
        return Ok((Outcome::Ignored { reason }, None, None));
    }
    let Some(sender) = message.from.clone() else {
        let reason = "no sender address".to_string();
        return Ok((Outcome::Ignored { reason }, None, None));
    };
    if config
        .own_addresses
        .iter()
        .any(|a| a.eq_ignore_ascii_case(&sender))
    {
        let reason = "sent from adjutant's own address".to_string();
        return Ok((Outcome::Ignored { reason }, None, None));
    }
    let text = order_text(&message.body);
    let named = campaign_from_subject(&message.subject).or_else(|| text.campaign.clone());
    let campaign_id = match named {
        Some(id) => id,
        None => match store.campaigns_of(&sender)?.as_slice() {
            [only] => only.clone(),
            _ => {
                let reason = "it does not say which campaign it is for".to_string();
                let hint = "Put the campaign id in the subject, as in [campaign-id], or a line `campaign <id>`.";
                return refuse(config, &message, &sender, &digest, None, reason, Some(hint));
            }
        },
    };
    let record = match store.campaign(&campaign_id) {
        Ok(r) => r,
        Err(StoreError::NoCampaign(_)) => {
            let reason = format!("there is no campaign `{campaign_id}` here");
            return refuse(config, &message, &sender, &digest, None, reason, None);
        }
        Err(e) => return Err(e.into()),
    };
    let campaign = &record.campaign;
    // Who is writing, and do they prove it? The reply to a failure says only
    // that, never which part failed, so it cannot be used to probe.
    let side = match authenticate(campaign, &sender, text.passphrase.as_deref()) {
        Some(side) => side,
        None => {
            let reason =
                "the sender and passphrase do not match a player of this campaign".to_string();
            let hint =
                "Send from your registered address, with a line `passphrase <your passphrase>`.";
            return refuse(
                config,
                &message,
                &sender,
                &digest,
                Some(&record.campaign),
                reason,
                Some(hint),
            );
        }
    };
    let Some(side) = side else {
        let reason =
            "orders come from the players; the GM's commands are not taken by mail yet".to_string();
        return refuse(
            config,
            &message,
            &sender,
            &digest,
            Some(campaign),
            reason,
            None,
        );
    };
    let ruleset = ruleset_for(&campaign.ruleset.id)
        .ok_or_else(|| EngineError::UnknownRuleset(campaign.ruleset.id.clone()))?;
    let state = store.state(&record.current_state_digest)?;
    let phase = resolution::phase_label(ruleset, &state);
    let person = campaign
        .players
        .iter()
        .find(|p| p.person.address.eq_ignore_ascii_case(&sender))
        .map(|p| &p.person)
        .unwrap_or(&campaign.gm);
    let deadline = mail::local_time(person, record.deadline);
    let named_turn = turn_from_subject(&message.subject).or(text.turn);
    if let Some(turn) = named_turn.filter(|t| *t != state.turn) {
        let reason = format!(
            "they are for turn {turn}, but the current phase is {phase}, with its deadline {deadline}"
        );
        return refuse(
            config,
            &message,
            &sender,
            &digest,
            Some(campaign),
            reason,
            None,
        );
    }
    let order_source = toml_orders(&message).unwrap_or_else(|| text.as_numbered_text());
    let submitted = match engine::submit(store, &campaign.id, &side, &order_source, clock, None) {
        Ok(s) => s,
        Err(e @ (EngineError::Finished(_) | EngineError::Paused(_))) => {
            return refuse(
                config,
                &message,
                &sender,
                &digest,
                Some(campaign),
                e.to_string(),
                None,
            );
        }
        Err(e) => return Err(e.into()),
    };
    let refused: Vec<String> = submitted
        .sheet
        .parse_errors
        .iter()
        .map(ToString::to_string)
        .chain(submitted.sheet.rejections.iter().map(ToString::to_string))
        .collect();
    let templates = Templates::for_campaign(&record.source_dir)?;
    if !submitted.stored {
        let reason = "no line of it is an order that can be accepted".to_string();
        let hint = refused.join("\n");
        return refuse_with(
            config,
            &templates,
            &message,
            &sender,
            &digest,
            Some(campaign),
            reason,
            Some(&hint),
        );
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
            "deadline": deadline,
        }),
    )?;
    let reply = reply_to(config, &message, &sender, &digest, Some(campaign), body);
    let outcome = Outcome::Accepted {
        campaign: campaign.id.clone(),
        side,
        digest: submitted.digest,
        replaced: submitted.replaced,
        refused_lines: refused.len(),
    };
    Ok((outcome, Some(campaign.id.clone()), Some(reply)))
}

/// The side of the player `sender` proves to be: `Some(Some(side))` for a
/// player, `Some(None)` for the GM, `None` when the address or passphrase
/// does not match.
fn authenticate(campaign: &Campaign, sender: &str, given: Option<&str>) -> Option<Option<String>> {
    let given = given?;
    let ok = |auth: &Auth| match auth {
        Auth::Passphrase { hash } | Auth::PassphraseAndDkim { hash } => {
            passphrase::verify(given, hash)
        }
    };
    if let Some(player) = campaign
        .players
        .iter()
        .find(|p| p.person.address.eq_ignore_ascii_case(sender))
    {
        return ok(&player.person.auth).then(|| Some(player.side.clone()));
    }
    (campaign.gm.address.eq_ignore_ascii_case(sender) && ok(&campaign.gm.auth)).then_some(None)
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

fn reply_to(
    config: &IngestConfig,
    message: &Inbound,
    sender: &str,
    digest: &Digest32,
    campaign: Option<&Campaign>,
    body: String,
) -> OutgoingMail {
    let purpose = format!("reply.{}", &digest.to_hex()[..16]);
    let message_id = match campaign {
        Some(c) => mail::message_id(c, &purpose, sender),
        None => format!("<{purpose}@{}>", config.reply_domain),
    };
    let subject = if message.subject.to_lowercase().starts_with("re:") {
        message.subject.clone()
    } else {
        format!("Re: {}", message.subject)
    };
    let mut reply = OutgoingMail::text(message_id, sender.to_string(), subject, body);
    // The reply threads under the player's message and is marked as an
    // automatic answer to it (RFC 3834).
    reply.in_reply_to = message
        .message_id
        .as_deref()
        .and_then(crate::outbound::message::reply_reference);
    reply
}

#[allow(clippy::too_many_arguments)]
fn refuse_with(
    config: &IngestConfig,
    templates: &Templates,
    message: &Inbound,
    sender: &str,
    digest: &Digest32,
    campaign: Option<&Campaign>,
    reason: String,
    hint: Option<&str>,
) -> Result<Handled, IngestError> {
    let body = templates.render("refused.txt", json!({ "reason": reason, "hint": hint }))?;
    let reply = reply_to(config, message, sender, digest, campaign, body);
    Ok((
        Outcome::Refused { reason },
        campaign.map(|c| c.id.clone()),
        Some(reply),
    ))
}

fn refuse(
    config: &IngestConfig,
    message: &Inbound,
    sender: &str,
    digest: &Digest32,
    campaign: Option<&Campaign>,
    reason: String,
    hint: Option<&str>,
) -> Result<Handled, IngestError> {
    refuse_with(
        config,
        &Templates::embedded()?,
        message,
        sender,
        digest,
        campaign,
        reason,
        hint,
    )
}
