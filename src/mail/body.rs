//! Finds the orders in a message's text. Players reply to their report, so
//! the text may hold a pasted report, quoted lines, a reply header and a
//! signature around the orders; only the player's own new lines count.
//!
//! The rules, in order (documented for players in docs/ORDERS.md):
//! - a line `-- ` (the signature delimiter, RFC 3676) ends the text; so do a
//!   reply header (`On ... wrote:`, `-----Original Message-----`) and
//!   Outlook's underscore rule;
//! - lines starting with `>` are quoted and skipped;
//! - a line reading `orders` (alone, optionally framed by `-`, `=` or `#`)
//!   starts the orders: everything before it is ignored; a line `end orders`
//!   ends them;
//! - `campaign <id>`, `turn <n>` and `passphrase <words>` lines (with or without
//!   a colon) are taken as such, wherever they stand, and are not orders.

use serde::Serialize;

/// The order text of a message, with each line's number in the body so that
/// replies can say "line 7".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct OrderText {
    /// (line number in the body, from 1; the line, trimmed)
    pub lines: Vec<(usize, String)>,
    pub campaign: Option<String>,
    pub turn: Option<u32>,
    pub passphrase: Option<String>,
}

impl OrderText {
    /// The order lines as one text, for the ruleset's order checker. Line
    /// numbers are kept by padding with empty lines, which it skips.
    pub fn as_numbered_text(&self) -> String {
        let mut out = String::new();
        let mut at = 1;
        for (number, line) in &self.lines {
            while at < *number {
                out.push('\n');
                at += 1;
            }
            out.push_str(line);
            out.push('\n');
            at += 1;
        }
        out
    }
}

fn is_reply_header(line: &str) -> bool {
    let l = line.trim();
    (l.starts_with("On ") && l.ends_with("wrote:"))
        || (l.starts_with("Le ") && l.ends_with("a écrit :"))
        || (l.starts_with("Am ") && l.ends_with("schrieb:"))
        || l.eq_ignore_ascii_case("-----Original Message-----")
        || (l.len() >= 20 && l.chars().all(|c| c == '_'))
}

/// The line with framing characters and case removed, for marker tests.
fn bare(line: &str) -> String {
    line.trim()
        .trim_matches(|c: char| c == '-' || c == '=' || c == '#' || c == '*' || c.is_whitespace())
        .to_lowercase()
}

/// Splits `key value` or `key: value` if the line starts with `key`.
fn keyed<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let head = line.get(..key.len())?;
    if !head.eq_ignore_ascii_case(key) {
        return None;
    }
    let rest = &line[key.len()..];
    if !(rest.starts_with(':') || rest.starts_with(char::is_whitespace)) {
        return None;
    }
    let value = rest.trim_start_matches(':').trim();
    (!value.is_empty()).then_some(value)
}

/// Finds the orders in `body`.
pub fn order_text(body: &str) -> OrderText {
    let mut text = OrderText::default();
    for (i, raw) in body.lines().enumerate() {
        let number = i + 1;
        if raw == "-- " || raw.trim_end() == "--" || is_reply_header(raw) {
            break;
        }
        let line = raw.trim();
        if line.is_empty() || line.starts_with('>') {
            continue;
        }
        match bare(line).as_str() {
            "orders" => {
                // What came before was a pasted report, keys included.
                text = OrderText::default();
                continue;
            }
            "end orders" | "end of orders" => break,
            _ => {}
        }
        if let Some(id) = keyed(line, "campaign") {
            text.campaign = Some(id.to_lowercase());
        } else if let Some(n) = keyed(line, "turn").and_then(|t| t.parse().ok()) {
            text.turn = Some(n);
        } else if let Some(p) = keyed(line, "passphrase") {
            text.passphrase = Some(p.to_string());
        } else {
            text.lines.push((number, line.to_string()));
        }
    }
    text
}

/// The campaign id named in a subject as `[id]`, if any.
pub fn campaign_from_subject(subject: &str) -> Option<String> {
    let start = subject.find('[')?;
    let end = start + subject[start..].find(']')?;
    let id = subject[start + 1..end].trim().to_lowercase();
    let valid = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    valid.then_some(id)
}

/// The turn named in a subject as `turn <n>`, if any; `Err` with the digits
/// when they are more than any turn number holds.
pub fn turn_from_subject(subject: &str) -> Option<Result<u32, String>> {
    let lower = subject.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(2).find_map(|w| {
        if w[0] != "turn" || !w[1].chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        // A number too long to be any turn is still the turn the writer
        // named: it is refused as a wrong turn, not passed over.
        Some(w[1].parse().map_err(|_| w[1].to_string()))
    })
}

/// The resolution whose report a subject answers: our reports are titled
/// `[id] resolution <k>: ...`, and a reply keeps that after its `Re:`.
pub fn report_from_subject(subject: &str) -> Option<u64> {
    let lower = subject.to_lowercase();
    let at = lower.find("resolution ")?;
    let rest = &lower[at + "resolution ".len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() || !rest[digits.len()..].starts_with(':') {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_lines_signature_and_reply_header_are_not_orders() {
        let body = "hold 1-ligne\n> hold garde\nhold 2-ligne\n-- \nMarshal Lannes\nhold 3-ligne\n";
        let t = order_text(body);
        assert_eq!(
            t.lines,
            vec![(1, "hold 1-ligne".into()), (3, "hold 2-ligne".into())]
        );
        let body = "hold 1-ligne\nOn Mon, 5 Jan 2026, GM <gm@example.org> wrote:\n> hold x\n";
        assert_eq!(order_text(body).lines.len(), 1);
    }

    #[test]
    fn a_pasted_report_before_the_orders_marker_is_ignored() {
        let body = "Report of turn 3\nThe 2e Ligne stands fast.\n\n=== ORDERS ===\ncampaign: muhlbach\nturn 4\npassphrase: vive l'empereur\nhold 1-ligne\nend orders\nthanks!\n";
        let t = order_text(body);
        assert_eq!(t.lines, vec![(8, "hold 1-ligne".into())]);
        assert_eq!(t.campaign.as_deref(), Some("muhlbach"));
        assert_eq!(t.turn, Some(4));
        assert_eq!(t.passphrase.as_deref(), Some("vive l'empereur"));
        assert_eq!(t.as_numbered_text().lines().count(), 8);
        assert_eq!(t.as_numbered_text().lines().nth(7), Some("hold 1-ligne"));
    }

    #[test]
    fn a_word_that_merely_starts_like_a_key_is_an_order() {
        let t = order_text("turnip patrol\ncampaigner forward 2\n");
        assert_eq!(t.lines.len(), 2);
        assert_eq!(t.turn, None);
        assert_eq!(t.campaign, None);
    }

    #[test]
    fn subjects_name_the_campaign_and_turn() {
        assert_eq!(
            campaign_from_subject("Re: [muhlbach-1809] resolution 3: turn 2"),
            Some("muhlbach-1809".into())
        );
        assert_eq!(campaign_from_subject("[Fwd: hello there]"), None);
        assert_eq!(turn_from_subject("Re: orders for Turn 12"), Some(Ok(12)));
        assert_eq!(turn_from_subject("no number"), None);
        assert_eq!(turn_from_subject("the turn of the tide"), None);
        assert_eq!(
            turn_from_subject("[c] turn 99999999999999999999"),
            Some(Err("99999999999999999999".into()))
        );
        assert_eq!(
            report_from_subject("Re: [muhlbach-1809] Resolution 3: turn 2 orders"),
            Some(3)
        );
        assert_eq!(report_from_subject("Re: manifest of resolution 3"), None);
        assert_eq!(report_from_subject("resolution pending: turn 2"), None);
    }
}
