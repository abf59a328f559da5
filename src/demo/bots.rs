//! The demo's bot players: what each side orders, and the order email a
//! player would write.
//!
//! [`orders_for`] is the one place the demo asks a bot what to order: the
//! campaign's ruleset plays its own bot.

use chrono::{DateTime, Utc};

use crate::rules::state::PartError;
use crate::rules::{GameState, ruleset_for};

/// The order lines `side` sends in `state`, one order a line, as a player
/// would type them; none for a ruleset adjutant does not know, and an
/// error for a state its ruleset cannot read.
pub fn orders_for(state: &GameState, side: &str) -> Result<Vec<String>, PartError> {
    match ruleset_for(&state.ruleset) {
        Some(r) => Ok(r.bot_orders(&r.read(state)?, side)),
        None => Ok(Vec::new()),
    }
}

/// A player's order email, a real RFC 5322 message: to adjutant's address,
/// the campaign in the subject, the passphrase and the orders in the body,
/// with a Message-ID and a Date of its own.
#[allow(clippy::too_many_arguments)]
pub fn order_email(
    from_name: &str,
    from: &str,
    to: &str,
    campaign: &str,
    passphrase: &str,
    lines: &[String],
    message_id: &str,
    date: DateTime<Utc>,
) -> Vec<u8> {
    let mut body = format!("passphrase: {passphrase}\r\n");
    for line in lines {
        body.push_str(line);
        body.push_str("\r\n");
    }
    body.push_str("\r\n-- \r\nsent by the demo's bot player\r\n");
    format!(
        "From: {from_name} <{from}>\r\n\
         To: {to}\r\n\
         Subject: [{campaign}] orders\r\n\
         Date: {}\r\n\
         Message-ID: {message_id}\r\n\
         MIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\
         Content-Transfer-Encoding: 8bit\r\n\
         \r\n\
         {body}",
        date.to_rfc2822()
    )
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_order_email_parses_as_mail_with_its_orders() {
        let raw = order_email(
            "Jean Lannes",
            "lannes@french.invalid",
            "adjutant@example.org",
            "c",
            "vive-l-empereur",
            &["1-ligne: hold".to_string()],
            "<t1.french@demo.invalid>",
            DateTime::UNIX_EPOCH,
        );
        let parsed = crate::mail::parse(&raw, &crate::mail::Limits::default()).expect("parses");
        assert_eq!(parsed.from.as_deref(), Some("lannes@french.invalid"));
        assert_eq!(parsed.subject, "[c] orders");
        assert!(parsed.body.contains("1-ligne: hold"), "{}", parsed.body);
    }
}
