//! Parses a raw message into what adjutant needs of it: who sent it, its
//! subject, its text (HTML turned to text when there is no plain part), TOML
//! attachments, and whether it was sent by a machine rather than a person.

use mail_parser::{HeaderValue, MessageParser, MimeHeaders, PartType};
use serde::Serialize;

/// Limits on what is accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest raw message taken, in bytes. Orders are a few hundred
    /// bytes; anything far larger is a mistake or an attack.
    pub max_bytes: usize,
    /// The most order lines one message may carry: far more than any side
    /// has units, so that only a mistake or an attack meets it.
    pub max_lines: usize,
    /// The most refused lines a reply lists one by one; the rest are
    /// counted, so that a reply stays a readable size.
    pub max_refusals_listed: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_bytes: 512 * 1024,
            max_lines: 500,
            max_refusals_listed: 50,
        }
    }
}

/// Why a message could not be taken at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InboundError {
    #[error(
        "the message is {size} bytes, over the limit of {limit} bytes; send the orders as plain text"
    )]
    TooLarge { size: usize, limit: usize },
    #[error("the bytes are not an email message")]
    NotAMessage,
}

/// Why a message must get no reply: RFC 3834's rules against answering
/// machines, bounces and lists, so that no mail loop can start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "detail")]
pub enum Automatic {
    /// `Auto-Submitted` other than `no` (RFC 3834 section 5).
    AutoSubmitted(String),
    /// `Precedence: bulk`, `list` or `junk`.
    Precedence(String),
    /// A `List-Id` header: mail from a mailing list.
    List(String),
    /// An empty return path (`Return-Path: <>`): a bounce or notification.
    NullReturnPath,
    /// A delivery status report (`multipart/report`).
    DeliveryReport,
    /// A well-known vendor auto-reply header (`X-Autoreply`, `X-Autorespond`).
    VendorAutoReply(String),
}

/// A TOML attachment, which may carry orders instead of the body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Attachment {
    pub name: String,
    pub text: String,
}

/// What adjutant takes from a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Inbound {
    pub message_id: Option<String>,
    /// The sender's address, lower-cased.
    pub from: Option<String>,
    pub subject: String,
    /// The first text body (decoded from any charset and transfer encoding),
    /// with line ends as LF.
    pub body: String,
    /// Whether `body` came from an HTML part.
    pub from_html: bool,
    pub attachments: Vec<Attachment>,
    /// The Message-IDs it answers (In-Reply-To, then References), without
    /// angle brackets.
    pub replies_to: Vec<String>,
    /// Why its text could not be read, when it could not (a part that says
    /// it is base64 and is not): the reply says so, rather than finding no
    /// passphrase in the garbage.
    pub unreadable: Option<String>,
    /// Set when the message was sent by a machine: it must get no reply.
    pub automatic: Option<Automatic>,
}

impl Inbound {
    /// What makes two deliveries one message: who sent it and its
    /// Message-ID, or, for a message without one, who sent it and what it
    /// says. An MTA adds its own headers to each delivery (Received,
    /// Delivered-To), so the bytes of two deliveries differ; this does not.
    /// `None` without a sender, when there is no one to tell apart.
    pub fn key(&self) -> Option<crate::audit::Digest32> {
        let from = self.from.as_deref()?;
        let what = match self.message_id.as_deref().map(str::trim) {
            Some(id) if !id.is_empty() => format!("message-id\n{from}\n{id}"),
            _ => {
                let attachments: Vec<&str> =
                    self.attachments.iter().map(|a| a.text.as_str()).collect();
                format!(
                    "content\n{from}\n{}\n{}\n{}",
                    self.subject,
                    self.body,
                    attachments.join("\n")
                )
            }
        };
        Some(crate::audit::Digest32::of(what.as_bytes()))
    }
}

/// Parses `raw`. Never panics, whatever the bytes.
pub fn parse(raw: &[u8], limits: &Limits) -> Result<Inbound, InboundError> {
    if raw.len() > limits.max_bytes {
        return Err(InboundError::TooLarge {
            size: raw.len(),
            limit: limits.max_bytes,
        });
    }
    let message = MessageParser::default()
        .parse(raw)
        .ok_or(InboundError::NotAMessage)?;
    if message.headers().is_empty() {
        return Err(InboundError::NotAMessage);
    }
    let from = message
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .map(|a| a.trim().to_lowercase());
    // mail-parser offers an HTML part as the text body when there is no
    // plain one (converting it to text); the part's own type tells which.
    // A multipart message cut short (its closing boundary missing) has its
    // parts read but none listed as its text: the first text part is then
    // taken, so that what can be read is read.
    let text_part = message.text_part(0).or_else(|| {
        message
            .parts
            .iter()
            .find(|p| matches!(p.body, PartType::Text(_) | PartType::Html(_)))
    });
    let from_html = text_part.is_some_and(|part| part.is_content_type("text", "html"));
    let body = match text_part.map(|p| &p.body) {
        Some(PartType::Text(t)) => t.to_string(),
        Some(PartType::Html(h)) => mail_parser::decoders::html::html_to_text(h),
        _ => String::new(),
    }
    .replace("\r\n", "\n")
    .replace('\r', "\n");
    let unreadable = text_part.and_then(|p| undecodable(raw, p));
    let attachments = message
        .attachments()
        .filter_map(|part| {
            let name = part.attachment_name()?.to_string();
            let is_toml = name.to_lowercase().ends_with(".toml")
                || part.is_content_type("application", "toml")
                || part.is_content_type("text", "x-toml");
            let text = part.text_contents()?;
            is_toml.then(|| Attachment {
                name,
                text: text.replace("\r\n", "\n"),
            })
        })
        .collect();
    let mut replies_to = Vec::new();
    for value in [message.in_reply_to(), message.references()] {
        for id in message_ids(value) {
            if !replies_to.contains(&id) {
                replies_to.push(id);
            }
        }
    }
    Ok(Inbound {
        unreadable,
        replies_to,
        message_id: message.message_id().map(str::to_string),
        from,
        subject: message.subject().unwrap_or_default().trim().to_string(),
        body,
        from_html,
        attachments,
        automatic: automatic(&message),
    })
}

/// Why a text part's content cannot be decoded, if it cannot: mail-parser
/// hands back base64 that is not base64 as it stands, which would be read as
/// a line of garbage.
fn undecodable(raw: &[u8], part: &mail_parser::MessagePart<'_>) -> Option<String> {
    let encoding = part
        .content_transfer_encoding()
        .map(|e| e.trim().to_ascii_lowercase())?;
    if encoding != "base64" {
        return None;
    }
    let content = raw.get(part.offset_body as usize..part.offset_end as usize)?;
    let base64 = |b: &u8| b.is_ascii_alphanumeric() || b"+/=\r\n\t -".contains(b);
    (!content.iter().all(base64)).then(|| {
        "its text part says it is in base64, and is not; send your orders as plain text".to_string()
    })
}

/// The Message-IDs a header holds, without angle brackets.
fn message_ids(value: &HeaderValue<'_>) -> Vec<String> {
    let bare = |id: &str| {
        id.trim()
            .trim_start_matches('<')
            .trim_end_matches('>')
            .to_string()
    };
    match value {
        HeaderValue::Text(id) => vec![bare(id)],
        HeaderValue::TextList(ids) => ids.iter().map(|id| bare(id)).collect(),
        _ => Vec::new(),
    }
}

fn header_text(message: &mail_parser::Message<'_>, name: &str) -> Option<String> {
    match message.header(name)? {
        HeaderValue::Text(t) => Some(t.trim().to_string()),
        HeaderValue::TextList(list) => Some(list.join(" ").trim().to_string()),
        HeaderValue::Address(a) => a
            .first()
            .and_then(|a| a.address())
            .map(|a| a.trim().to_string()),
        _ => message.header_raw(name).map(|r| r.trim().to_string()),
    }
}

fn automatic(message: &mail_parser::Message<'_>) -> Option<Automatic> {
    if let Some(value) = message.header_raw("Auto-Submitted") {
        let value = value.trim().to_lowercase();
        let keyword = value.split(';').next().unwrap_or("").trim();
        if keyword != "no" {
            return Some(Automatic::AutoSubmitted(value));
        }
    }
    if let Some(value) = message.header_raw("Precedence") {
        let value = value.trim().to_lowercase();
        if ["bulk", "list", "junk"].contains(&value.as_str()) {
            return Some(Automatic::Precedence(value));
        }
    }
    if let Some(id) = header_text(message, "List-Id") {
        return Some(Automatic::List(id));
    }
    if let Some(raw) = message.header_raw("Return-Path") {
        let inner = raw
            .trim()
            .trim_start_matches('<')
            .trim_end_matches('>')
            .trim();
        if inner.is_empty() {
            return Some(Automatic::NullReturnPath);
        }
    }
    if message.is_content_type("multipart", "report") {
        return Some(Automatic::DeliveryReport);
    }
    // Not X-Auto-Response-Suppress: Outlook puts it on ordinary mail written
    // by people, whose orders must still be acknowledged.
    for name in ["X-Autoreply", "X-Autorespond"] {
        if let Some(value) = message.header_raw(name) {
            return Some(Automatic::VendorAutoReply(format!(
                "{name}: {}",
                value.trim()
            )));
        }
    }
    None
}
