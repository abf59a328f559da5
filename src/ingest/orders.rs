//! A player's message: its orders, or its word that it sends none.

use serde_json::json;

use super::letter::Letter;
use super::{Handled, IngestError, Outcome};
use crate::campaign::Campaign;
use crate::engine::{self, EngineError, ready};
use crate::lifecycle::Clock;
use crate::mail::Inbound;
use crate::mail::body::{OrderText, turn_from_subject};
use crate::map::{self, MapInput};
use crate::resolution;
use crate::rules::Ruleset;
use crate::rules::reading::Reading;
use crate::rules::ruleset::Event;
use crate::rules::ruleset_for;
use crate::rules::told::Heard;
use crate::store::{CampaignRecord, MailPart, Store};
use crate::templates::Templates;

/// A player's orders: checked against the current turn, submitted, and
/// acknowledged line by line.
pub(super) fn take_orders(
    store: &mut Store,
    letter: &Letter<'_>,
    record: &CampaignRecord,
    side: &str,
    text: &OrderText,
    clock: &dyn Clock,
) -> Result<Handled, IngestError> {
    let campaign = &record.campaign;
    let ruleset = ruleset_for(&campaign.ruleset.id)
        .ok_or_else(|| EngineError::UnknownRuleset(campaign.ruleset.id.clone()))?;
    let state = store.state(&record.current_state_digest)?;
    let phase = resolution::phase_label(ruleset, &state);
    let person = campaign
        .players
        .iter()
        .find(|p| p.person.address.eq_ignore_ascii_case(&letter.sender))
        .map(|p| &p.person)
        .unwrap_or(&campaign.gm);
    let deadline = crate::lifecycle::local_time(person, record.deadline);
    // A reply to a report is meant for the phase that report opened: its
    // subject names the turn it reported on, not the turn of these orders.
    let latest = store.resolution_counts(&campaign.id)?.0;
    let named_turn = match letter.report_answered(&campaign.id) {
        Some(k) if k != latest => {
            let reason = format!(
                "they reply to the report of resolution {k}, but resolution {latest} has been resolved since; the current phase is {phase}, with its deadline {deadline}"
            );
            let hint = "Read the latest report, then reply to it (or write with the campaign id in brackets in the subject).";
            return letter.refuse(Some(campaign), reason, Some(hint));
        }
        Some(_) => text.turn.map(Ok),
        None => turn_from_subject(&letter.message.subject).or(text.turn.map(Ok)),
    };
    let wrong_turn = match named_turn {
        Some(Ok(turn)) if turn != state.turn => Some(turn.to_string()),
        Some(Err(unreadable)) => Some(unreadable),
        _ => None,
    };
    if let Some(turn) = wrong_turn {
        let reason = format!(
            "they are for turn {turn}, but the current phase is {phase}, with its deadline {deadline}"
        );
        return letter.refuse(Some(campaign), reason, None);
    }
    if let Some(asked) = super::requests::requests(text) {
        return super::requests::answer(store, letter, record, side, &asked, clock);
    }
    if engine::says_no_orders(text.lines.iter().map(|(_, l)| l.as_str())) {
        return declare_none(store, letter, record, side, &phase, &deadline, clock);
    }
    let limits = &letter.config.limits;
    // Comment lines are no orders, and a player who explains each order
    // must not be cut short by them.
    let order_lines = text
        .lines
        .iter()
        .filter(|(_, line)| !line.starts_with('#'))
        .count();
    if order_lines > limits.max_lines {
        let reason = format!(
            "it holds {order_lines} order lines, more than the {} one message may carry",
            limits.max_lines
        );
        let hint = "Send one line for each order you give; no side has that many units.";
        return letter.refuse(Some(campaign), reason, Some(hint));
    }
    let order_source = toml_orders(&letter.message).unwrap_or_else(|| text.as_numbered_text());
    let submitted = match engine::submit(store, &campaign.id, side, &order_source, clock, None) {
        Ok(s) => s,
        Err(e @ (EngineError::Finished(_) | EngineError::Paused(_))) => {
            return letter.refuse(Some(campaign), e.to_string(), None);
        }
        Err(e) => return Err(e.into()),
    };
    let mut refused = submitted.sheet.refusals();
    let refused_lines = refused.len();
    // A reply lists so many refusals, then counts the rest: a message of a
    // thousand bad lines must not get a reply of megabytes.
    let unlisted = refused.len().saturating_sub(limits.max_refusals_listed);
    if unlisted > 0 {
        refused.truncate(limits.max_refusals_listed);
        refused.push(format!(
            "... and {unlisted} more refused lines, not listed; correct those above first"
        ));
    }
    // Warnings are on accepted lines, which are never more than a side has
    // units: listed whole.
    let warnings = submitted.sheet.warned();
    let templates = Templates::for_campaign(&record.source_dir)?;
    if !submitted.stored {
        if let Some(word) = submitted.word {
            let said = Word {
                word,
                refused: &refused,
            };
            return said.take(store, letter, record, side, &phase, &deadline, clock);
        }
        let reason = "no line of it is an order that can be accepted (a salt line is no order), so it replaces nothing: orders you sent earlier for this phase stand as they were".to_string();
        let hint = refused.join("\n");
        return letter.refuse_with(&templates, Some(campaign), reason, Some(&hint));
    }
    let canonical = submitted.sheet.canonical_text();
    let read = submitted.state.as_ref();
    let tried = tried(ruleset, read, campaign, side, &canonical);
    let body = templates.render(
        "ack.txt",
        json!({
            "closes": closes_now(store, &campaign.id, clock)?,
            "ready": submitted.ready,
            "word": submitted.word.map(word_name),
            "campaign": campaign.id,
            "side": side,
            "phase": phase,
            "accepted": canonical.lines().collect::<Vec<_>>(),
            "digest": submitted.digest.to_hex(),
            "refused": refused,
            "warnings": warnings,
            "replaced": submitted.replaced,
            "unchanged": submitted.unchanged,
            "deadline": deadline,
            "tried": tried.as_ref().map(|t| t.notes.clone()).unwrap_or_default(),
            "head": crate::engine::record::head(store, record)?.map(|h| h.to_hex()),
        }),
    )?;
    let mut reply = letter.reply(Some(campaign), body);
    if let Some(png) = tried.and_then(|t| t.png) {
        let cid = format!("orders-{}@adjutant", &submitted.digest.to_hex()[..16]);
        reply.html = Some(templates.render(
            "ack.html",
            json!({ "campaign": campaign.id, "text": reply.body, "cid": cid }),
        )?);
        reply.parts.push(MailPart {
            filename: format!("{}-orders-{side}.png", campaign.id),
            content_type: "image/png".to_string(),
            content_id: Some(cid),
            bytes: png,
        });
    }
    let outcome = Outcome::Accepted {
        campaign: campaign.id.clone(),
        side: side.to_string(),
        digest: submitted.digest,
        replaced: submitted.replaced,
        refused_lines,
    };
    Ok((outcome, Some(campaign.id.clone()), Some(reply)))
}

/// The width of the acknowledgement's map, in pixels: a glance at the
/// moves, small enough to draw in a few milliseconds (the report's map is
/// the full-size one).
const ACK_MAP_WIDTH: u32 = 800;

struct Tried {
    notes: Vec<String>,
    png: Option<Vec<u8>>,
}

/// A side's accepted orders as they will be tried (see
/// `Presentation::planned`): what would come of each, in words, and the map
/// of it as the side sees the field. `None` where the ruleset tries none;
/// no map where it cannot be drawn (the acknowledgement then goes without).
/// `state` is the state the orders were checked against, as `submit` read
/// it, once for the message: `None` only where it did not read, and then
/// no order was stored.
fn tried(
    ruleset: &dyn Ruleset,
    state: Option<&Reading>,
    campaign: &Campaign,
    side: &str,
    canonical: &str,
) -> Option<Tried> {
    let state = state?;
    let (planned, events) = ruleset.planned(state, side, canonical)?;
    let visible = map::with_generals(state, side, ruleset.visible_to(state, side, &[]));
    // Only what the side may know, as its report would tell it: no word of
    // a unit it cannot see.
    let hearer = crate::report::heard::Audience::new(
        crate::rules::told::Who::Side(side),
        Some(&visible),
        state,
        &planned,
    );
    let told: Vec<&Event> = events
        .iter()
        .filter(|e| hearer.event(e) == Heard::Told)
        .collect();
    let notes = told.iter().map(|e| e.text.clone()).collect();
    let drawn: Vec<Event> = told.into_iter().cloned().collect();
    let svg = map::glance_svg(&MapInput {
        title: &format!("{}: your orders as they will be tried", campaign.title),
        ruleset,
        prior: state,
        next: &planned,
        events: &drawn,
        visible: Some(&visible),
        // The acknowledgement tells a side of its own forces alone.
        strengths: map::Strengths::OfSide(side),
    });
    Some(Tried {
        notes,
        png: map::png_at_most(&svg, ACK_MAP_WIDTH).ok(),
    })
}

/// A side's word that it sends no orders for the phase: recorded, and
/// acknowledged with what then happens to its units.
pub(super) fn declare_none(
    store: &mut Store,
    letter: &Letter<'_>,
    record: &CampaignRecord,
    side: &str,
    phase: &str,
    deadline: &str,
    clock: &dyn Clock,
) -> Result<Handled, IngestError> {
    let campaign = &record.campaign;
    let declared = match engine::declare_none(store, &campaign.id, side, clock, None) {
        Ok(d) => d,
        Err(e @ (EngineError::Finished(_) | EngineError::Paused(_))) => {
            return letter.refuse(Some(campaign), e.to_string(), None);
        }
        Err(e) => return Err(e.into()),
    };
    let templates = Templates::for_campaign(&record.source_dir)?;
    let body = templates.render(
        "no-orders.txt",
        json!({
            "closes": closes_now(store, &campaign.id, clock)?,
            "campaign": campaign.id,
            "side": side,
            "phase": phase,
            "withdrawn": declared.withdrawn,
            "no_orders": campaign.no_orders_policy,
            "deadline": deadline,
        }),
    )?;
    let reply = letter.reply(Some(campaign), body);
    let outcome = Outcome::NoOrders {
        campaign: campaign.id.clone(),
        side: side.to_string(),
        withdrawn: declared.withdrawn,
    };
    Ok((outcome, Some(campaign.id.clone()), Some(reply)))
}

/// Whether the phase closes as soon as this message is answered: every side
/// is now ready. The reply says so in its first line, so that nobody reads
/// "send the whole set again" of a phase already closed.
fn closes_now(store: &Store, campaign: &str, clock: &dyn Clock) -> Result<bool, IngestError> {
    Ok(engine::due_now(store, campaign, clock.now())?.is_some())
}

fn word_name(word: ready::Word) -> &'static str {
    match word {
        ready::Word::Ready => "ready",
        ready::Word::Wait => "wait",
    }
}

/// A message that says `ready` or `wait` and gives no order that could be
/// accepted: the word is recorded, the side's orders stand as they were.
struct Word<'a> {
    word: ready::Word,
    /// The lines of it that were refused, as the reply words them.
    refused: &'a [String],
}

impl Word<'_> {
    #[allow(clippy::too_many_arguments)]
    fn take(
        &self,
        store: &mut Store,
        letter: &Letter<'_>,
        record: &CampaignRecord,
        side: &str,
        phase: &str,
        deadline: &str,
        clock: &dyn Clock,
    ) -> Result<Handled, IngestError> {
        let campaign = &record.campaign;
        let said = match ready::say(store, &campaign.id, side, self.word, clock, None) {
            Ok(s) => s,
            Err(e @ (EngineError::Finished(_) | EngineError::Paused(_))) => {
                return letter.refuse(Some(campaign), e.to_string(), None);
            }
            Err(e) => return Err(e.into()),
        };
        let templates = Templates::for_campaign(&record.source_dir)?;
        let body = templates.render(
            "ready.txt",
            json!({
                "closes": closes_now(store, &campaign.id, clock)?,
                "ready": said.ready,
                "campaign": campaign.id,
                "side": side,
                "phase": phase,
                "standing": said.standing,
                "refused": self.refused,
                "no_orders": campaign.no_orders_policy,
                "deadline": deadline,
            }),
        )?;
        let reply = letter.reply(Some(campaign), body);
        let outcome = Outcome::Ready {
            campaign: campaign.id.clone(),
            side: side.to_string(),
            ready: said.ready,
        };
        Ok((outcome, Some(campaign.id.clone()), Some(reply)))
    }
}

/// Orders from a TOML attachment (`orders = ["...", ...]`), which take the
/// place of the body's lines.
pub(super) fn toml_orders(message: &Inbound) -> Option<String> {
    message.attachments.iter().find_map(|a| {
        let table: toml::Table = a.text.parse().ok()?;
        let list = table.get("orders")?.as_array()?;
        let lines: Vec<&str> = list.iter().filter_map(|v| v.as_str()).collect();
        Some(lines.iter().map(|l| format!("{l}\n")).collect())
    })
}

#[cfg(test)]
mod tests {
    //! A player's message is taken on one reading of the campaign's state
    //! (docs/ARCHITECTURE.md, "A state is read once per request"): the
    //! states decoded while it is ingested are recorded
    //! (`rules::testing::decoded_during`).

    use crate::engine::tests::Opened;
    use crate::ingest::{IngestConfig, Outcome, ingest};
    use crate::rules::GameState;
    use crate::rules::testing::decoded_during;

    /// A message from the player of `side` of the default demo campaign,
    /// with its passphrase and then `body`, ingested: its outcome, and the
    /// states decoded meanwhile.
    fn taken(opened: &mut Opened, side: &str, body: &str) -> (Outcome, Vec<GameState>) {
        let campaign = &opened.campaign;
        let player = campaign
            .players
            .iter()
            .find(|p| p.side == side)
            .expect("the side has a player");
        let passphrase = opened
            .demo
            .passphrases
            .iter()
            .find(|(s, _)| *s == side)
            .map(|(_, p)| *p)
            .expect("the demo gives the side's passphrase");
        let config = IngestConfig {
            own_addresses: vec![campaign.gm.address.clone()],
            ..IngestConfig::default()
        };
        let raw = format!(
            "From: {}\r\nTo: {}\r\nSubject: [{}] orders\r\nMessage-ID: <once@test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\npassphrase: {passphrase}\r\n{}",
            player.person.address,
            campaign.gm.address,
            campaign.id,
            body.replace('\n', "\r\n")
        );
        let (outcome, decoded) = decoded_during(|| {
            ingest(
                &mut opened.store,
                raw.as_bytes(),
                "test",
                &config,
                &Opened::now(),
            )
        });
        (outcome.expect("ingest"), decoded)
    }

    /// The orders are checked, stored and acknowledged with the map of
    /// them as they will be tried, all on the state `submit` read.
    #[test]
    fn an_order_mail_is_taken_and_acknowledged_on_one_reading_of_the_state() {
        let mut opened = Opened::new();
        let (side, orders) = opened.orders();
        let (outcome, decoded) = taken(&mut opened, &side, &format!("{orders}\n"));
        assert!(matches!(outcome, Outcome::Accepted { .. }), "{outcome:?}");
        assert_eq!(
            decoded.len(),
            1,
            "the state was decoded {} times",
            decoded.len()
        );
    }

    /// The situation and the order template are drawn from one reading.
    #[test]
    fn a_mail_asking_for_the_situation_and_a_template_reads_the_state_once() {
        let mut opened = Opened::new();
        let (side, _) = opened.orders();
        let (outcome, decoded) = taken(&mut opened, &side, "send situation\nsend template\n");
        assert!(matches!(outcome, Outcome::Asked { .. }), "{outcome:?}");
        assert_eq!(
            decoded.len(),
            1,
            "the state was decoded {} times",
            decoded.len()
        );
    }
}
