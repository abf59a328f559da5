//! Raw RFC 5322 bytes through the parse that finds a message's sender,
//! subject, text and attachments (`mail::parse`, and `parse_headers` for a
//! message too large to read whole), then the search of its text for the
//! campaign, turn, passphrase and order lines (`mail::order_text`, the
//! subject's `[campaign]`, `turn <n>` and `resolution <k>`). No store, no
//! network: the parse is the part a stranger's bytes reach first.

use adjutant::mail::body::{campaign_from_subject, report_from_subject, turn_from_subject};
use adjutant::mail::{InboundError, Limits, order_text, parse, parse_headers};

pub fn run(data: &[u8]) {
    super::let_mail_parser_panics_unwind();
    let limits = Limits::default();
    match parse(data, &limits) {
        Ok(message) => {
            // What the rest of adjutant relies on: text with LF line ends and
            // no NUL, a sender's address lower-cased.
            assert!(!message.body.contains('\r'), "a CR left in the body");
            assert!(!message.body.contains('\0'), "a NUL left in the body");
            assert!(!message.subject.contains('\0'), "a NUL left in the subject");
            if let Some(from) = &message.from {
                assert_eq!(from, &from.to_lowercase(), "the sender is not lower-cased");
            }
            let _ = message.key();
            let _ = campaign_from_subject(&message.subject);
            let _ = turn_from_subject(&message.subject);
            let _ = report_from_subject(&message.subject);
            numbered_as_written(&message.body);
            for attachment in &message.attachments {
                numbered_as_written(&attachment.text);
            }
            // The parse is a function of the bytes alone.
            assert_eq!(parse(data, &limits).as_ref(), Ok(&message));
        }
        Err(InboundError::TooLarge { .. }) => assert!(data.len() > limits.max_bytes),
        Err(_) => {}
    }
    if let Some(headers) = parse_headers(data) {
        assert!(headers.body.is_empty() && headers.attachments.is_empty());
    }
    // A body the parser could hand over is any text at all.
    let text = String::from_utf8_lossy(data);
    numbered_as_written(&text);
}

/// The order lines found in `body`, as the order checker is given them,
/// stand at the numbers of the lines they were in, so that a reply's "line
/// 7" points at the player's line 7.
fn numbered_as_written(body: &str) {
    let orders = order_text(body);
    let numbered = orders.as_numbered_text();
    let lines: Vec<&str> = numbered.lines().collect();
    for (number, line) in &orders.lines {
        assert!(!line.is_empty(), "line {number} is empty");
        assert_eq!(
            lines.get(number - 1),
            Some(&line.as_str()),
            "line {number} is not where it was written"
        );
    }
}
