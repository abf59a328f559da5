//! Who gets a refusal. A refusal answers mail adjutant did not ask for, so
//! it is rationed: an address no campaign knows (often forged, the sender
//! of spam or a bounce) gets one short answer a day that quotes nothing of
//! what it sent, so adjutant never carries spam to a third party; a
//! registered address gets so many refusals an hour and then silence, so a
//! robot that answers every refusal cannot loop with adjutant, and the GM is
//! told once a day that it happened.

use chrono::{DateTime, Duration, Utc};
use serde_json::json;

use super::{Handled, IngestError, Outcome};
use crate::engine::mail;
use crate::mail::Limits;
use crate::store::{OutgoingMail, Store};
use crate::templates::Templates;

/// The handled message as it will be answered, and any notice to queue
/// beside its answer.
pub(super) fn ration(
    store: &mut Store,
    sender: Option<&str>,
    handled: Handled,
    limits: &Limits,
    now: DateTime<Utc>,
) -> Result<Handled, IngestError> {
    let Some(sender) = sender else {
        return Ok(handled);
    };
    match &handled {
        (Outcome::Refused { .. }, _, Some(_)) => {
            ration_refusal(store, sender, handled, limits, now)
        }
        (
            Outcome::Accepted { .. } | Outcome::NoOrders { .. } | Outcome::Ready { .. },
            Some(_),
            Some(_),
        ) => ration_acknowledgement(store, sender, handled, limits, now),
        _ => Ok(handled),
    }
}

/// A refusal to `sender`, or a shorter one, or silence.
fn ration_refusal(
    store: &mut Store,
    sender: &str,
    handled: Handled,
    limits: &Limits,
    now: DateTime<Utc>,
) -> Result<Handled, IngestError> {
    let (_, campaign, Some(reply)) = &handled else {
        return Ok(handled);
    };
    if store.campaigns_of(sender)?.is_empty() {
        if store.refusals_to(sender, now - Duration::days(1))? > 0 {
            let reason =
                "an address no campaign knows is answered once a day, and this one was".to_string();
            return Ok((Outcome::Ignored { reason }, campaign.clone(), None));
        }
        // The same Message-ID and threading, none of the sender's words.
        let body = Templates::embedded()?.render("stranger.txt", json!({}))?;
        let mut short = OutgoingMail::text(
            reply.message_id.clone(),
            reply.recipient.clone(),
            "Your message to adjutant".to_string(),
            body,
        );
        short.in_reply_to = reply.in_reply_to.clone();
        return Ok((handled.0.clone(), campaign.clone(), Some(short)));
    }
    let refused = store.refusals_to(sender, now - Duration::hours(1))?;
    if refused < limits.max_refusals_per_hour {
        return Ok(handled);
    }
    if let Some(id) = campaign {
        let record = store.campaign(id)?;
        let c = &record.campaign;
        let templates = Templates::for_campaign(&record.source_dir)?;
        let body = templates.render(
            "quiet.txt",
            json!({
                "sender": sender,
                "campaign": c.id,
                "refused": refused,
                "limit": limits.max_refusals_per_hour,
            }),
        )?;
        // Once a day for each address: the day is in the Message-ID, which
        // the outbox takes once.
        let purpose = format!(
            "quiet.{}.{}",
            &crate::audit::Digest32::of(sender.as_bytes()).to_hex()[..12],
            now.format("%Y%m%d")
        );
        let notice = OutgoingMail::text(
            mail::message_id(c, &purpose, &c.gm.address),
            c.gm.address.clone(),
            format!("[{}] adjutant stopped answering {sender}", c.id),
            body,
        );
        store.queue(Some(id), &[notice], now)?;
    }
    let reason = format!(
        "not answered: {refused} refusals went to {sender} in the last hour, the most it is sent"
    );
    Ok((Outcome::Ignored { reason }, campaign.clone(), None))
}

/// A copy of `reply` for the GM of `campaign`, when the GM asked for copies
/// (`[gm] copies = true`) and the reply is not to the GM already.
pub(super) fn copy_to_gm(
    store: &mut Store,
    campaign: Option<&str>,
    reply: Option<&OutgoingMail>,
    now: DateTime<Utc>,
) -> Result<(), IngestError> {
    let (Some(id), Some(reply)) = (campaign, reply) else {
        return Ok(());
    };
    let record = store.campaign(id)?;
    let c = &record.campaign;
    if !c.gm_copies || c.gm.address.eq_ignore_ascii_case(&reply.recipient) {
        return Ok(());
    }
    let purpose = format!(
        "copy.{}",
        &crate::audit::Digest32::of(reply.message_id.as_bytes()).to_hex()[..16]
    );
    let copy = OutgoingMail::text(
        mail::message_id(c, &purpose, &c.gm.address),
        c.gm.address.clone(),
        format!("[{}] copy of the reply to {}", c.id, reply.recipient),
        format!(
            "A copy of adjutant's reply to {} (subject \"{}\"):\n\n{}",
            reply.recipient, reply.subject, reply.body
        ),
    );
    store.queue(Some(id), &[copy], now)?;
    Ok(())
}

/// An acknowledgement to `sender`, or silence once the address has had
/// `max_acknowledgements_per_hour` of them in the last hour. Its orders are
/// taken either way: only the answer (with its map) is held back, and the
/// GM is told once a day.
fn ration_acknowledgement(
    store: &mut Store,
    sender: &str,
    handled: Handled,
    limits: &Limits,
    now: DateTime<Utc>,
) -> Result<Handled, IngestError> {
    let (outcome, Some(id), Some(_)) = &handled else {
        return Ok(handled);
    };
    let accepted = store.acceptances_to(sender, now - Duration::hours(1))?;
    if accepted < limits.max_acknowledgements_per_hour {
        return Ok(handled);
    }
    let record = store.campaign(id)?;
    let c = &record.campaign;
    let templates = Templates::for_campaign(&record.source_dir)?;
    let body = templates.render(
        "quiet-acks.txt",
        json!({
            "sender": sender,
            "campaign": c.id,
            "accepted": accepted,
            "limit": limits.max_acknowledgements_per_hour,
        }),
    )?;
    let purpose = format!(
        "quiet-acks.{}.{}",
        &crate::audit::Digest32::of(sender.as_bytes()).to_hex()[..12],
        now.format("%Y%m%d")
    );
    let notice = OutgoingMail::text(
        mail::message_id(c, &purpose, &c.gm.address),
        c.gm.address.clone(),
        format!("[{}] adjutant stopped acknowledging {sender}", c.id),
        body,
    );
    store.queue(Some(id), &[notice], now)?;
    tracing::info!(
        %sender,
        campaign = %c.id,
        "orders taken, not acknowledged: {accepted} acknowledgements in the last hour"
    );
    Ok((outcome.clone(), Some(id.clone()), None))
}
