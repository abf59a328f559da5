//! A message read far enough to be answered: who wrote it, what it answers,
//! and the replies adjutant writes to it.

use serde_json::json;

use super::{Handled, IngestConfig, IngestError, Outcome};
use crate::audit::Digest32;
use crate::campaign::Campaign;
use crate::engine::mail;
use crate::mail::body::report_from_subject;
use crate::mail::{Inbound, InboundError, parse_headers};
use crate::store::OutgoingMail;
use crate::templates::Templates;

/// A message read far enough to be answered: whom to, and in reply to what.
pub(super) struct Letter<'a> {
    pub(super) config: &'a IngestConfig,
    pub(super) message: Inbound,
    pub(super) sender: String,
    /// The digest of its bytes, which numbers its reply.
    pub(super) digest: Digest32,
    /// What tells this message apart from others (see `Inbound::key`): its
    /// GM commands are numbered by it, so that another delivery of the same
    /// message can never carry them out twice.
    pub(super) key: Digest32,
    /// Set when only its headers were read, the message being over the
    /// size limit: the reply says so.
    pub(super) too_large: Option<InboundError>,
}

/// Reads the message and decides whether it is one to answer at all; the
/// error is why not (junk, an automatic message, or our own).
pub(super) fn screen<'a>(
    raw: &[u8],
    parsed: Result<Inbound, InboundError>,
    key: Option<Digest32>,
    config: &'a IngestConfig,
) -> Result<Letter<'a>, String> {
    // Not mail at all: there may be no one to answer, and answering junk
    // invites more. Too large: its headers say who to tell so.
    let (message, too_large) = match parsed {
        Ok(message) => (message, None),
        Err(e @ InboundError::TooLarge { .. }) => match parse_headers(raw) {
            Some(headers) => (headers, Some(e)),
            None => return Err(e.to_string()),
        },
        Err(e) => return Err(e.to_string()),
    };
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
        too_large,
    })
}

/// How much of the subject it answers a reply repeats, in characters: a
/// subject line's worth. A reply must not grow with what it answers.
const SUBJECT_KEPT: usize = 150;

/// The start of `subject`, cut at a word where it is longer than
/// [`SUBJECT_KEPT`].
fn short_subject(subject: &str) -> String {
    if subject.chars().count() <= SUBJECT_KEPT {
        return subject.to_string();
    }
    let cut: String = subject.chars().take(SUBJECT_KEPT).collect();
    let cut = cut
        .rsplit_once(char::is_whitespace)
        .map_or(cut.as_str(), |(head, _)| head);
    format!("{} ...", cut.trim_end())
}

impl Letter<'_> {
    /// The resolution whose report this message answers, if it is a reply
    /// to one: by the report's Message-ID (`<id>.r<k>.result...`, see
    /// `engine::reports`) in In-Reply-To or References, else by the report's
    /// subject kept after `Re:`.
    pub(super) fn report_answered(&self, campaign: &str) -> Option<u64> {
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
    pub(super) fn reply(&self, campaign: Option<&Campaign>, body: String) -> OutgoingMail {
        let purpose = format!("reply.{}", &self.digest.to_hex()[..16]);
        let message_id = match campaign {
            Some(c) => mail::message_id(c, &purpose, &self.sender),
            None => format!("<{purpose}@{}>", self.config.reply_domain),
        };
        let subject = short_subject(&self.message.subject);
        let subject = if subject.to_lowercase().starts_with("re:") {
            subject
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
    pub(super) fn refuse_with(
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
    pub(super) fn refuse(
        &self,
        campaign: Option<&Campaign>,
        reason: String,
        hint: Option<&str>,
    ) -> Result<Handled, IngestError> {
        self.refuse_with(&Templates::embedded()?, campaign, reason, hint)
    }
}
