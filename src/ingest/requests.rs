//! A player's request by mail for what it was sent or may know: the latest
//! report again (`send report`), the situation as the side sees it now, with
//! its map (`send situation`), or an order template for the open phase
//! (`send template`). Each is answered to the player's own registered
//! address, with the side's own view, and changes nothing.

use serde_json::json;

use super::letter::Letter;
use super::{Handled, IngestError, Outcome};
use crate::campaign::Campaign;
use crate::engine::EngineError;
use crate::lifecycle::Clock;
use crate::mail::body::OrderText;
use crate::report::opening;
use crate::resolution;
use crate::rules::ruleset_for;
use crate::store::{CampaignRecord, MailPart, OutgoingMail, Store};
use crate::templates::Templates;

/// What a player may ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    Report,
    Situation,
    Template,
}

impl Request {
    fn of_line(line: &str) -> Option<Request> {
        let words: Vec<String> = line
            .trim_end_matches(['.', '!', '?'])
            .split_whitespace()
            .map(str::to_lowercase)
            .collect();
        match words
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice()
        {
            ["send", "report"] | ["send", "the", "report"] | ["send", "last", "report"] => {
                Some(Request::Report)
            }
            ["send", "situation"] | ["send", "the", "situation"] => Some(Request::Situation),
            ["send", "template"]
            | ["send", "orders", "template"]
            | ["send", "order", "template"] => Some(Request::Template),
            _ => None,
        }
    }

    fn word(self) -> &'static str {
        match self {
            Request::Report => "report",
            Request::Situation => "situation",
            Request::Template => "template",
        }
    }
}

/// The requests of a message whose every line (comments aside) is one;
/// `None` for a message with any other line, which is orders.
pub fn requests(text: &OrderText) -> Option<Vec<Request>> {
    let lines: Vec<&str> = text
        .lines
        .iter()
        .map(|(_, l)| l.as_str())
        .filter(|l| !l.starts_with('#'))
        .collect();
    if lines.is_empty() {
        return None;
    }
    let mut asked: Vec<Request> = Vec::new();
    for line in lines {
        let r = Request::of_line(line)?;
        if !asked.contains(&r) {
            asked.push(r);
        }
    }
    Some(asked)
}

/// Answers a player's requests: the reply says what follows, and each
/// thing asked for comes in a message of its own, to the player's
/// registered address alone.
pub(super) fn answer(
    store: &mut Store,
    letter: &Letter<'_>,
    record: &CampaignRecord,
    side: &str,
    asked: &[Request],
    clock: &dyn Clock,
) -> Result<Handled, IngestError> {
    let campaign = &record.campaign;
    let Some(player) = campaign
        .players
        .iter()
        .find(|p| p.person.address.eq_ignore_ascii_case(&letter.sender))
    else {
        return letter.refuse(
            Some(campaign),
            "only a player may ask for a side's view".into(),
            None,
        );
    };
    let ruleset = ruleset_for(&campaign.ruleset.id)
        .ok_or_else(|| EngineError::UnknownRuleset(campaign.ruleset.id.clone()))?;
    let state = store.state(&record.current_state_digest)?;
    let phase = resolution::phase_label(ruleset, &state);
    let deadline = crate::lifecycle::local_time(&player.person, record.deadline);
    let address = &player.person.address;
    let tag = &letter.digest.to_hex()[..16];
    let mut sent: Vec<OutgoingMail> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    // The state, read when a view of it is first asked for and then kept
    // for the others: a message asking for the situation and a template
    // reads it once.
    let mut reading = None;
    for r in asked {
        let id = crate::engine::mail::message_id(
            campaign,
            &format!("asked.{}.{tag}", r.word()),
            address,
        );
        match r {
            Request::Report => match latest_report(store, campaign, address)? {
                Some(mut copy) => {
                    notes.push(format!("the latest report follows: \"{}\"", copy.subject));
                    copy.message_id = id;
                    copy.subject = format!("{} (sent again)", copy.subject);
                    copy.in_reply_to = None;
                    sent.push(copy);
                }
                None => notes.push(
                    "no report has been sent to you yet: nothing has been resolved; ask for the situation instead".into(),
                ),
            },
            Request::Situation | Request::Template => {
                let moment = format!("turn {}", state.turn);
                let read = match reading {
                    Some(ref read) => read,
                    None => reading.insert(
                        ruleset
                            .read(&state)
                            .map_err(|e| EngineError::Report(e.into()))?,
                    ),
                };
                let view = opening::prepare_at(campaign, ruleset, read, Some(side), &moment)
                    .map_err(EngineError::Report)?;
                let templates = Templates::for_campaign(&record.source_dir)?;
                let mut context = view.context.clone();
                context["campaign"] = json!({"id": campaign.id, "title": campaign.title});
                context["phase"] = json!(phase);
                context["deadline"] = json!(deadline);
                context["whole"] = json!(*r == Request::Situation);
                let body = templates.render("situation.txt", context)?;
                let subject = format!(
                    "[{}] {}: {phase}",
                    campaign.id,
                    if *r == Request::Situation { "the situation" } else { "an order template" }
                );
                let mut mail = OutgoingMail::text(id, address.clone(), subject, body);
                if *r == Request::Situation {
                    mail.parts.push(MailPart {
                        filename: view.file_name.clone(),
                        content_type: "image/png".to_string(),
                        content_id: None,
                        bytes: view.png,
                    });
                    notes.push("the situation as your troops see it follows, with its map".into());
                } else {
                    notes.push("an order template for the open phase follows".into());
                }
                sent.push(mail);
            }
        }
    }
    let now = clock.now();
    store.queue(Some(&campaign.id), &sent, now)?;
    let body = format!(
        "Your requests for {} ({side}):\n{}\n\nThey change nothing: your orders for {phase} stand as they were. Deadline: {deadline}.\n",
        campaign.id,
        notes
            .iter()
            .map(|n| format!("    {n}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let reply = letter.reply(Some(campaign), body);
    let outcome = Outcome::Asked {
        campaign: campaign.id.clone(),
        side: side.to_string(),
        what: asked
            .iter()
            .map(|r| r.word())
            .collect::<Vec<_>>()
            .join(", "),
    };
    Ok((outcome, Some(campaign.id.clone()), Some(reply)))
}

/// The latest report sent to `address` in `campaign`, as queued.
fn latest_report(
    store: &Store,
    campaign: &Campaign,
    address: &str,
) -> Result<Option<OutgoingMail>, IngestError> {
    Ok(store
        .outbox(Some(&campaign.id))?
        .into_iter()
        .rev()
        .map(|e| e.mail)
        .find(|m| m.message_id.contains(".result.") && m.recipient.eq_ignore_ascii_case(address)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[&str]) -> OrderText {
        OrderText {
            lines: lines
                .iter()
                .enumerate()
                .map(|(n, l)| (n + 1, l.to_string()))
                .collect(),
            ..OrderText::default()
        }
    }

    #[test]
    fn a_message_of_requests_alone_is_a_request_and_one_with_orders_is_not() {
        assert_eq!(
            requests(&text(&[
                "Send report.",
                "# thanks",
                "send situation",
                "send report"
            ])),
            Some(vec![Request::Report, Request::Situation])
        );
        assert_eq!(requests(&text(&["send template", "1-ligne: hold"])), None);
        assert_eq!(requests(&text(&[])), None);
    }
}
