//! The demo's bot players: what each side orders, and the order email a
//! player would write.
//!
//! [`orders_for`] is the one place the demo asks a bot what to order: a
//! ruleset with a bot of its own (Sound the Charge:
//! `rules::sound_the_charge::bot`) answers; any other holds its first unit.

use chrono::{DateTime, Utc};

use crate::rules::GameState;

/// The order lines `side` sends in `state` under the ruleset `ruleset_id`,
/// one order a line, as a player would type them.
pub fn orders_for(ruleset_id: &str, state: &GameState, side: &str) -> Vec<String> {
    if ruleset_id == crate::rules::sound_the_charge::ID {
        return crate::rules::sound_the_charge::bot::orders_for(state, side);
    }
    state
        .units
        .iter()
        .filter(|u| u.spec.side == side)
        .take(1)
        .map(|u| format!("{}: hold", u.spec.id))
        .collect()
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
