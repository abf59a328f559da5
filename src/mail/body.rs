//! Finds the orders in a message's text. Players reply to their report, so
//! the text may hold a pasted report, quoted lines, a reply header and a
//! signature around the orders; only the player's own new lines count.
//!
//! The rules, in order (documented for players in docs/PLAYERS.md):
//! - a line `-- ` (the signature delimiter, RFC 3676) ends the text; so do
//!   Outlook's separators (`-----Original Message-----` and its translations,
//!   a rule of underscores, a `From:`/`Sent:`/`To:`/`Subject:` block) and a
//!   reply header (`On ... wrote:`, `Am ... schrieb ...:`, ...) above a quote
//!   without `>` marks;
//! - lines starting with `>` are quoted and skipped, and a reply header above
//!   them with them;
//! - a BOM at the start of a line is ignored;
//! - a line reading `orders` (alone, optionally framed by `-`, `=` or `#`)
//!   starts the orders: the lines before it are ignored, but a passphrase,
//!   campaign or turn above it stands unless written again below; a line
//!   `end orders` ends them;
//! - `campaign <id>`, `turn <n>` and `passphrase <words>` lines (with or without
//!   a colon) are taken as such, wherever they stand, and are not orders; the
//!   template's `passphrase <your passphrase>` is neither.

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

/// How many lines, from the first of `lines`, a reply header takes (the
/// line a client writes above the message it quotes: `On ... wrote:`), if
/// they are one. Gmail wraps a long one over two lines, breaking inside the
/// address, so a line that starts like one is tried with the next.
fn attribution(lines: &[&str]) -> Option<usize> {
    let first = lines.first()?.trim();
    if is_attribution(first) {
        return Some(1);
    }
    let second = lines.get(1)?.trim();
    let wrapped = ["On ", "Am ", "Le ", "El ", "Il "]
        .iter()
        .any(|start| first.starts_with(start))
        && !second.is_empty()
        && !second.starts_with('>')
        && is_attribution(&format!("{first} {second}"));
    wrapped.then_some(2)
}

/// Whether `line` is a reply header as the common clients write it in
/// English, German, French, Spanish and Italian. French puts a space
/// (often a no-break space) before the colon.
fn is_attribution(line: &str) -> bool {
    let l = line.replace('\u{a0}', " ");
    let l = l.trim();
    (l.starts_with("On ") && l.ends_with("wrote:"))
        || (l.starts_with("Am ")
            && (l.ends_with("schrieb:") || (l.contains(" schrieb ") && l.ends_with(':'))))
        || (l.starts_with("Le ") && (l.ends_with("a écrit :") || l.ends_with("a écrit:")))
        || (l.starts_with("El ") && l.ends_with("escribió:"))
        || (l.len() > "ha scritto:".len() && l.ends_with(" ha scritto:"))
}

/// Whether `line` is the line Outlook writes above a message it quotes: a
/// rule of underscores, or "Original Message" between dashes in one of the
/// languages above.
fn is_quote_separator(line: &str) -> bool {
    let l = line.trim();
    if l.len() >= 20 && l.chars().all(|c| c == '_') {
        return true;
    }
    if !(l.starts_with("-----") && l.ends_with("-----")) {
        return false;
    }
    let inner = l.trim_matches('-').trim().to_lowercase();
    [
        "original message",
        "ursprüngliche nachricht",
        "message d'origine",
        "mensaje original",
        "messaggio originale",
    ]
    .contains(&inner.as_str())
}

/// The fields of the header block Outlook (and a forward) writes above a
/// quoted message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    From,
    Sent,
    To,
    Subject,
}

/// The field a line of such a header block names, in any of the languages
/// above: `From: ...`, `*From:* ...` (as plain text shows bold), `De : ...`.
fn header_field(line: &str) -> Option<Field> {
    let (key, _) = line.trim().trim_start_matches('*').split_once(':')?;
    let key = key
        .trim_end_matches('*')
        .trim_end_matches([' ', '\u{a0}'])
        .to_lowercase();
    match key.as_str() {
        "from" | "von" | "de" | "da" => Some(Field::From),
        "sent" | "date" | "gesendet" | "datum" | "envoyé" | "enviado" | "enviado el" | "fecha"
        | "inviato" | "data" => Some(Field::Sent),
        "to" | "cc" | "an" | "à" | "para" | "a" => Some(Field::To),
        "subject" | "betreff" | "objet" | "asunto" | "oggetto" => Some(Field::Subject),
        _ => None,
    }
}

/// Whether a header block above a quoted message starts at the first of
/// `lines`: a `From:` line, then, with no blank line between, more such
/// fields and a `Subject:` among them. A single `From: ...` line, or one
/// that merely starts with the word ("From the wood, advance"), is a
/// player's line. A long value may be wrapped onto a line of its own.
fn is_header_block(lines: &[&str]) -> bool {
    if lines.first().and_then(|l| header_field(l)) != Some(Field::From) {
        return false;
    }
    let mut wrapped = 0;
    for line in &lines[1..] {
        if line.trim().is_empty() {
            return false;
        }
        match header_field(line) {
            Some(Field::Subject) => return true,
            Some(Field::From) => return false,
            Some(_) => {}
            None if wrapped < 3 => wrapped += 1,
            None => return false,
        }
    }
    false
}

/// Whether a `passphrase` line's value is the placeholder the report's
/// order template shows (`passphrase <your passphrase>`): a quoted report
/// that slipped past every other rule must not set a passphrase.
fn is_placeholder(value: &str) -> bool {
    value.starts_with('<') && value.ends_with('>')
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
    // A byte order mark is no character a reader sees; some editors and
    // clients put one before the text, or before each pasted piece of it.
    let lines: Vec<&str> = body
        .lines()
        .map(|l| l.trim_start_matches('\u{feff}'))
        .collect();
    let mut text = OrderText::default();
    let mut i = 0;
    while i < lines.len() {
        let raw = lines[i];
        let number = i + 1;
        if raw == "-- " || raw.trim_end() == "--" {
            break;
        }
        if let Some(taken) = attribution(&lines[i..]) {
            // A quote marked with `>` ends where the marks end, and the
            // writer may go on below it (Thunderbird writes below the quote
            // by default); a quote without marks runs to the end.
            let next = lines[i + taken..].iter().find(|l| !l.trim().is_empty());
            if next.is_some_and(|l| l.trim_start().starts_with('>')) {
                i += taken;
                continue;
            }
            break;
        }
        if is_quote_separator(raw) || is_header_block(&lines[i..]) {
            break;
        }
        i += 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('>') {
            continue;
        }
        match bare(line).as_str() {
            "orders" => {
                // What came before was a pasted report, and its lines are
                // not orders. A passphrase, campaign or turn above the
                // marker is the player's own (a report holds none but the
                // template's placeholder, never taken) and stands unless
                // written again below it; a pasted opening's `campaign id
                // = ...` line names no campaign.
                text = OrderText {
                    lines: Vec::new(),
                    campaign: text.campaign.take().filter(|id| is_campaign_id(id)),
                    turn: text.turn,
                    passphrase: text.passphrase.take(),
                };
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
            if !is_placeholder(p) {
                text.passphrase = Some(p.to_string());
            }
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
    is_campaign_id(&id).then_some(id)
}

/// Whether `id` is written as campaign ids are: lower-case letters, digits
/// and hyphens.
fn is_campaign_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
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
    fn a_passphrase_above_the_orders_marker_is_kept() {
        let body = "passphrase gott-erhalte-franz\ncampaign muhlbach\nturn 4\nReport of turn 3\nir-1: hold\n=== ORDERS ===\nir-4: forward 2\n";
        let t = order_text(body);
        assert_eq!(t.passphrase.as_deref(), Some("gott-erhalte-franz"));
        assert_eq!(t.campaign.as_deref(), Some("muhlbach"));
        assert_eq!(t.turn, Some(4));
        assert_eq!(t.lines, vec![(7, "ir-4: forward 2".to_string())]);
        // One written below the marker replaces it.
        let t = order_text("passphrase old\nturn 3\nORDERS\npassphrase new\nturn 4\n");
        assert_eq!(t.passphrase.as_deref(), Some("new"));
        assert_eq!(t.turn, Some(4));
        // A pasted opening's `campaign id = ...` line names no campaign,
        // and the template's placeholder is no passphrase, above or below.
        let t = order_text(
            "campaign id = muhlbach\n    passphrase <your passphrase>\nORDERS\nir-1: hold\n",
        );
        assert_eq!(t.campaign, None);
        assert_eq!(t.passphrase, None);
    }

    #[test]
    fn a_word_that_merely_starts_like_a_key_is_an_order() {
        let t = order_text("turnip patrol\ncampaigner forward 2\n");
        assert_eq!(t.lines.len(), 2);
        assert_eq!(t.turn, None);
        assert_eq!(t.campaign, None);
    }

    /// The end of a report as adjutant sends it, as a reply quotes it
    /// without `>`: its `== Orders ==` heading, and the order template with
    /// its placeholder passphrase and a line for each unit.
    const REPORT_TAIL: &str = "== Orders ==\nManifest digest: abab\n  k.k. III. Armeekorps: no orders\n\n== Next ==\nand a body like this:\n\n    passphrase <your passphrase>\n    ir-1: hold\n    ir-4: hold\n";

    /// The player's own lines, as each test writes them above the quote.
    const OWN: &str = "passphrase gott-erhalte-franz\nir-1: advance 6 north\n\n";

    fn own_lines_only(body: &str) {
        let t = order_text(body);
        assert_eq!(
            t.passphrase.as_deref(),
            Some("gott-erhalte-franz"),
            "{body}"
        );
        assert_eq!(
            t.lines,
            vec![(2, "ir-1: advance 6 north".to_string())],
            "{body}"
        );
    }

    #[test]
    fn the_reply_headers_of_the_common_clients_begin_the_quote() {
        for header in [
            "On Mon, 30 Nov 2026 at 10:00, Adjutant <adjutant@example.org> wrote:",
            "On Mon, Nov 30, 2026 at 10:00 AM Adjutant <\nadjutant@example.org> wrote:",
            "On 30/11/2026 10:00, Adjutant wrote:",
            "Am Mo., 30. Nov. 2026 um 10:00 Uhr schrieb Adjutant <adjutant@example.org>:",
            "Am Mo., 30. Nov. 2026 um 10:00 Uhr schrieb Adjutant <\nadjutant@example.org>:",
            "Am 30.11.26 um 10:00 schrieb Adjutant:",
            "Le lun. 30 nov. 2026 à 10:00, Adjutant <adjutant@example.org> a écrit :",
            "Le 30/11/2026 à 10:00, Adjutant a\u{a0}écrit\u{a0}:",
            "El lun, 30 nov 2026 a las 10:00, Adjutant (<adjutant@example.org>) escribió:",
            "Il giorno lun 30 nov 2026 alle ore 10:00 Adjutant <adjutant@example.org> ha scritto:",
            "Il 30/11/26 10:00, Adjutant ha scritto:",
            "-----Original Message-----",
            "-----Ursprüngliche Nachricht-----",
            "-----Message d'origine-----",
            "-----Mensaje original-----",
            "-----Messaggio originale-----",
            "________________________________",
        ] {
            own_lines_only(&format!("{OWN}{header}\n{REPORT_TAIL}"));
        }
    }

    #[test]
    fn orders_written_below_a_quote_marked_with_gt_are_read() {
        let body = format!(
            "On 30/11/2026 10:00, Adjutant wrote:\n> {}\n\n{OWN}-- \nFML Reuss\n",
            REPORT_TAIL.replace('\n', "\n> ")
        );
        let t = order_text(&body);
        assert_eq!(t.passphrase.as_deref(), Some("gott-erhalte-franz"));
        let own: Vec<&str> = t.lines.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(own, ["ir-1: advance 6 north"]);
        // Without `>` marks the quote runs to the end, whatever follows.
        own_lines_only(&format!(
            "{OWN}On 30/11/2026 10:00, Adjutant wrote:\n\n{REPORT_TAIL}\n> x\n"
        ));
    }

    #[test]
    fn an_outlook_header_block_begins_the_quote_in_every_language() {
        for block in [
            "From: Adjutant <adjutant@example.org>\nSent: Monday, November 30, 2026 10:00 AM\nTo: Hohenzollern <fml@example.org>\nSubject: [muhlbach] resolution 1: turn 2 orders",
            "*From:* Adjutant <adjutant@example.org>\n*Sent:* Monday, November 30, 2026 10:00 AM\n*Subject:* [muhlbach] resolution 1",
            "From: Adjutant <adjutant@example.org>\nDate: Monday, 30 November 2026 at 10:00\nTo: Hohenzollern <fml@example.org>,\n Vukassovich <fml2@example.org>\nSubject: [muhlbach] resolution 1",
            "Von: Adjutant <adjutant@example.org>\nGesendet: Montag, 30. November 2026 10:00\nAn: Hohenzollern <fml@example.org>\nBetreff: [muhlbach] resolution 1",
            "De : Adjutant <adjutant@example.org>\nEnvoyé : lundi 30 novembre 2026 10:00\nÀ : Lannes <lannes@example.org>\nObjet : [muhlbach] resolution 1",
            "De\u{a0}: Adjutant <adjutant@example.org>\nEnvoyé\u{a0}: lundi 30 novembre 2026 10:00\nObjet\u{a0}: [muhlbach] resolution 1",
            "De: Adjutant <adjutant@example.org>\nEnviado: lunes, 30 de noviembre de 2026 10:00\nPara: Lannes <lannes@example.org>\nAsunto: [muhlbach] resolution 1",
            "Da: Adjutant <adjutant@example.org>\nInviato: lunedì 30 novembre 2026 10:00\nA: Lannes <lannes@example.org>\nOggetto: [muhlbach] resolution 1",
        ] {
            own_lines_only(&format!("{OWN}{block}\n\n{REPORT_TAIL}"));
        }
    }

    #[test]
    fn a_line_that_merely_looks_like_a_header_is_still_an_order() {
        let body = "passphrase p\nFrom the wood, advance\nir-1: hold\nFrom: the wood\nir-4: hold\nOn the hill, hold\nir-49: hold\nAm Bach: hold\n";
        let t = order_text(body);
        assert_eq!(t.lines.len(), 7, "{:?}", t.lines);
    }

    #[test]
    fn the_templates_placeholder_passphrase_is_never_taken() {
        let t = order_text("passphrase gott\nir-1: hold\n> x\npassphrase <your passphrase>\n");
        assert_eq!(t.passphrase.as_deref(), Some("gott"));
        assert_eq!(t.lines, vec![(2, "ir-1: hold".to_string())]);
        let t = order_text("    passphrase: <your passphrase>\nir-1: hold\n");
        assert_eq!(t.passphrase, None);
        assert_eq!(t.lines, vec![(2, "ir-1: hold".to_string())]);
    }

    #[test]
    fn a_byte_order_mark_is_ignored() {
        let t = order_text(
            "\u{feff}passphrase gott\n\u{feff}ir-1: hold\n\u{feff}\u{feff}-- \nir-4: hold\n",
        );
        assert_eq!(t.passphrase.as_deref(), Some("gott"));
        assert_eq!(t.lines, vec![(2, "ir-1: hold".to_string())]);
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
