//! Builds the bytes of an outgoing message with lettre's builder.
//!
//! Everything that would vary between two builds of the same message is
//! passed in or derived from it: the Date is the time the message was queued,
//! the Message-ID is the one stored in the outbox (never generated here), and
//! the MIME boundaries are derived from the Message-ID. So a retry sends the
//! very same bytes, and golden tests can compare them.
//!
//! The MIME shape follows what the message carries:
//! - text only: one `text/plain` part;
//! - text and HTML: `multipart/alternative`;
//! - HTML with inline images: the text and HTML alternative and the images
//!   in `multipart/related` (the HTML refers to them as `cid:`), so that each
//!   image travels once, shown in the HTML and, to a reader of the text, as
//!   an attachment of the message;
//! - attachments: all of the above and the files in `multipart/mixed`.
//!
//! Every message is marked `Auto-Submitted` (RFC 3834): `auto-replied` when
//! it answers a message (acknowledgements, refusals), `auto-generated`
//! otherwise (reports, manifests, reminders), so that well-behaved
//! responders do not answer it and no loop starts.

use std::time::SystemTime;

use chrono::{DateTime, Utc};
use lettre::address::Envelope;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::{Message, message::MessageBuilder};

use crate::audit::Digest32;
use crate::store::{MailPart, OutgoingMail};

/// A message ready for a transport: its final bytes and its envelope.
#[derive(Debug, Clone)]
pub struct BuiltMessage {
    /// The Message-ID with its angle brackets, as stored in the outbox.
    pub message_id: String,
    pub envelope: Envelope,
    pub bytes: Vec<u8>,
}

/// Why a message could not be built; always permanent, since building it
/// again gives the same result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    #[error("`{0}` is not a mail address")]
    Address(String),
    #[error("`{value}` is not a MIME type (part {filename})")]
    ContentType { filename: String, value: String },
    #[error("`{0}` is not a Message-ID in angle brackets")]
    MessageId(String),
    #[error("cannot build the message: {0}")]
    Mime(String),
}

/// `id` in angle brackets, whether or not it came with them (mail-parser
/// gives a Message-ID without them).
pub fn bracketed(id: &str) -> String {
    let id = id.trim();
    if id.starts_with('<') && id.ends_with('>') {
        id.to_string()
    } else {
        format!("<{id}>")
    }
}

/// The Message-ID of a message being answered, in angle brackets, if it is
/// a plausible one: printable ASCII with an `@`, no spaces or brackets
/// inside, at most 250 characters. Anything else (a hostile or broken
/// header) is dropped, so that it can neither break the reply's headers nor
/// keep the reply from being sent.
pub fn reply_reference(id: &str) -> Option<String> {
    let inner = id.trim().trim_start_matches('<').trim_end_matches('>');
    let plausible = !inner.is_empty()
        && inner.len() <= 250
        && inner.contains('@')
        && inner
            .bytes()
            .all(|b| b.is_ascii_graphic() && !matches!(b, b'<' | b'>' | b'"' | b'\\'));
    plausible.then(|| format!("<{inner}>"))
}

/// Builds `mail`, sent from `from` (a mailbox such as
/// `adjutant <adjutant@example.org>`), dated `date`.
pub fn build(
    mail: &OutgoingMail,
    from: &str,
    date: DateTime<Utc>,
) -> Result<BuiltMessage, BuildError> {
    let from: Mailbox = from
        .parse()
        .map_err(|_| BuildError::Address(from.to_string()))?;
    let to: Mailbox = mail
        .recipient
        .parse()
        .map_err(|_| BuildError::Address(mail.recipient.clone()))?;
    let id = mail.message_id.trim();
    if !(id.starts_with('<') && id.ends_with('>') && id.contains('@')) || id.contains(['\r', '\n'])
    {
        return Err(BuildError::MessageId(mail.message_id.clone()));
    }
    let auto = if mail.in_reply_to.is_some() {
        "auto-replied"
    } else {
        "auto-generated"
    };
    let mut builder: MessageBuilder = Message::builder()
        .from(from)
        .to(to)
        .subject(mail.subject.clone())
        .date(SystemTime::from(date))
        .message_id(Some(id.to_string()))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            auto.to_string(),
        ));
    if let Some(parent) = &mail.in_reply_to {
        let parent = bracketed(parent);
        if parent.contains(['\r', '\n']) {
            return Err(BuildError::MessageId(parent));
        }
        builder = builder.in_reply_to(parent.clone()).references(parent);
    }
    let message = body(builder, mail)?;
    Ok(BuiltMessage {
        message_id: id.to_string(),
        envelope: message.envelope().clone(),
        bytes: message.formatted(),
    })
}

/// The boundary of the `n`th multipart of a message: fixed by its
/// Message-ID, so that the same message always has the same bytes.
fn boundary(message_id: &str, n: u8) -> String {
    let digest = Digest32::of(message_id.as_bytes()).to_hex();
    format!("=_adjutant_{}_{n}", &digest[..24])
}

fn file_part(part: &MailPart, inline: bool) -> Result<SinglePart, BuildError> {
    let content_type =
        ContentType::parse(&part.content_type).map_err(|_| BuildError::ContentType {
            filename: part.filename.clone(),
            value: part.content_type.clone(),
        })?;
    let attachment = match (&part.content_id, inline) {
        (Some(cid), true) => Attachment::new_inline_with_name(
            cid.trim_matches(['<', '>']).to_string(),
            part.filename.clone(),
        ),
        _ => Attachment::new(part.filename.clone()),
    };
    Ok(attachment.body(part.bytes.clone(), content_type))
}

fn body(builder: MessageBuilder, mail: &OutgoingMail) -> Result<Message, BuildError> {
    let mime = |e: lettre::error::Error| BuildError::Mime(e.to_string());
    let id = &mail.message_id;
    // Inline images only make sense beside HTML that shows them; without
    // HTML they travel as ordinary attachments.
    let (inline, attached): (Vec<&MailPart>, Vec<&MailPart>) = mail
        .parts
        .iter()
        .partition(|p| p.content_id.is_some() && mail.html.is_some());
    let text = SinglePart::plain(mail.body.clone());
    let core: Option<MultiPart> = match &mail.html {
        None => None,
        Some(html) => {
            let alternative = MultiPart::alternative()
                .boundary(boundary(id, 1))
                .singlepart(text.clone())
                .singlepart(SinglePart::html(html.clone()));
            Some(if inline.is_empty() {
                alternative
            } else {
                let mut related = MultiPart::related()
                    .boundary(boundary(id, 2))
                    .multipart(alternative);
                for part in &inline {
                    related = related.singlepart(file_part(part, true)?);
                }
                related
            })
        }
    };
    if attached.is_empty() {
        return match core {
            Some(core) => builder.multipart(core).map_err(mime),
            None => builder.singlepart(text).map_err(mime),
        };
    }
    let mixed = MultiPart::mixed().boundary(boundary(id, 0));
    let mut mixed = match core {
        Some(core) => mixed.multipart(core),
        None => mixed.singlepart(text),
    };
    for part in &attached {
        mixed = mixed.singlepart(file_part(part, false)?);
    }
    builder.multipart(mixed).map_err(mime)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-01-05T10:00:00Z")
            .expect("valid")
            .with_timezone(&Utc)
    }

    fn mail() -> OutgoingMail {
        OutgoingMail::text(
            "<c.r1.result.abc@example.org>".into(),
            "Jean Lannes <lannes@french.invalid>".into(),
            "[c] resolution 1".into(),
            "The 2e Ligne stands fast.\n".into(),
        )
    }

    fn text(built: &BuiltMessage) -> String {
        String::from_utf8(built.bytes.clone()).expect("ascii")
    }

    #[test]
    fn the_same_message_builds_to_the_same_bytes() {
        let mut m = mail();
        m.html = Some("<p>The 2e Ligne stands fast.</p><img src=\"cid:map\">".into());
        m.parts.push(MailPart {
            filename: "map.png".into(),
            content_type: "image/png".into(),
            content_id: Some("map".into()),
            bytes: vec![0x89, b'P', b'N', b'G'],
        });
        let a = build(&m, "adjutant <adjutant@example.org>", at()).expect("builds");
        let b = build(&m, "adjutant <adjutant@example.org>", at()).expect("builds");
        assert_eq!(a.bytes, b.bytes);
        let t = text(&a);
        assert!(
            t.contains("Message-ID: <c.r1.result.abc@example.org>"),
            "{t}"
        );
        assert!(t.contains("Date: Mon, 05 Jan 2026 10:00:00 +0000"), "{t}");
        assert!(t.contains("Auto-Submitted: auto-generated"), "{t}");
    }

    #[test]
    fn a_reply_names_its_parent_and_is_auto_replied() {
        let mut m = mail();
        m.in_reply_to = Some("orders-1@french.invalid".into());
        let t = text(&build(&m, "adjutant@example.org", at()).expect("builds"));
        assert!(t.contains("In-Reply-To: <orders-1@french.invalid>"), "{t}");
        assert!(t.contains("References: <orders-1@french.invalid>"), "{t}");
        assert!(t.contains("Auto-Submitted: auto-replied"), "{t}");
    }

    #[test]
    fn only_plausible_message_ids_are_answered_by_reference() {
        assert_eq!(reply_reference("a.b@c").as_deref(), Some("<a.b@c>"));
        assert_eq!(reply_reference("<a.b@c>").as_deref(), Some("<a.b@c>"));
        assert_eq!(reply_reference("a b@c"), None);
        assert_eq!(reply_reference("a@c\r\nBcc: x@y"), None);
        assert_eq!(reply_reference("no-at-sign"), None);
    }

    #[test]
    fn a_bad_recipient_cannot_be_built() {
        let mut m = mail();
        m.recipient = "not an address".into();
        assert_eq!(
            build(&m, "adjutant@example.org", at()).map(|_| ()),
            Err(BuildError::Address("not an address".into()))
        );
    }

    #[test]
    fn a_message_id_is_never_made_up() {
        let mut m = mail();
        m.message_id = "no-brackets".into();
        assert!(matches!(
            build(&m, "adjutant@example.org", at()),
            Err(BuildError::MessageId(_))
        ));
    }
}
