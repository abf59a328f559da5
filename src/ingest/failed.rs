//! A message whose handling failed in a way that handling it again would
//! only repeat: data of its campaign that no longer reads, a template that
//! does not render, a fault in adjutant's own code (a panic, caught). Left
//! without an outcome it would be offered again at every poll and after
//! every restart, fail each time, and hold back the mail queued behind it,
//! every campaign's. So it is set aside: its outcome recorded (failed, with
//! why), its campaign's GM told once, its sender told that nothing was
//! taken, and the inbox goes on. Its bytes stay in the store.

use chrono::{DateTime, Utc};
use serde_json::json;

use super::letter::screen;
use super::{IngestConfig, IngestError, Outcome};
use crate::audit::Digest32;
use crate::campaign::Campaign;
use crate::engine::mail;
use crate::mail::body::campaign_from_subject;
use crate::mail::{order_text, parse};
use crate::store::{OutgoingMail, Store};
use crate::templates::Templates;

/// Records stored message `id` as failed because of `why`, with the notices
/// it calls for, in one transaction. Fails only if the store cannot take
/// that record, and the message is then handled again later.
pub(super) fn set_aside(
    store: &mut Store,
    id: i64,
    raw: &[u8],
    key: Option<Digest32>,
    why: &str,
    config: &IngestConfig,
    now: DateTime<Utc>,
) -> Result<Outcome, IngestError> {
    let letter = screen(raw, parse(raw, &config.limits), key, config).ok();
    let campaign = letter.as_ref().and_then(|letter| {
        let named = campaign_from_subject(&letter.message.subject)
            .or_else(|| order_text(&letter.message.body).campaign);
        let id = match named {
            Some(id) => id,
            None => match store.campaigns_of(&letter.sender).ok()?.as_slice() {
                [only] => only.clone(),
                _ => return None,
            },
        };
        store.campaign_definition(&id).ok()
    });
    let outcome = Outcome::Failed {
        campaign: campaign.as_ref().map(|c| c.id.clone()),
        why: why.to_string(),
    };
    let mut reply = None;
    let mut notices = Vec::new();
    if let (Some(letter), Some(c)) = (&letter, &campaign) {
        let from_gm = c.gm.address.eq_ignore_ascii_case(&letter.sender);
        let from_player = c
            .players
            .iter()
            .any(|p| p.person.address.eq_ignore_ascii_case(&letter.sender));
        // The embedded templates: the campaign's own may be what failed.
        let templates = Templates::embedded()?;
        let gm_body = templates.render(
            "failed-gm.txt",
            json!({
                "campaign": c.id,
                "sender": letter.sender,
                "subject": letter.message.subject,
                "received": now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                "why": why,
                "inbound": id,
                "told_sender": from_player && !from_gm,
            }),
        )?;
        if from_gm {
            // The GM wrote it: the notice is the reply.
            reply = Some(letter.reply(Some(c), gm_body));
        } else {
            if from_player {
                let body = templates.render("failed.txt", json!({}))?;
                reply = Some(letter.reply(Some(c), body));
            }
            notices.push(gm_notice(c, &letter.key, gm_body));
        }
    }
    let campaign_id = campaign.as_ref().map(|c| c.id.clone());
    store.atomically(|store| -> Result<(), IngestError> {
        store.queue(campaign_id.as_deref(), &notices, now)?;
        store.finish_inbound(
            id,
            "failed",
            &outcome.summary(),
            campaign_id.as_deref(),
            reply.as_ref(),
            now,
        )?;
        Ok(())
    })?;
    Ok(outcome)
}

/// The GM's notice of one failed message: its Message-ID is made from the
/// message's key (`Inbound::key`), so however often the message is
/// delivered, the GM is told once.
fn gm_notice(c: &Campaign, message: &Digest32, body: String) -> OutgoingMail {
    let purpose = format!("failed.{}", &message.to_hex()[..16]);
    OutgoingMail::text(
        mail::message_id(c, &purpose, &c.gm.address),
        c.gm.address.clone(),
        format!("[{}] a message could not be handled", c.id),
        body,
    )
}

/// The words of a caught panic: its message where it has one.
pub(super) fn panic_words(panic: &(dyn std::any::Any + Send)) -> String {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string());
    format!("a fault in adjutant itself (a panic: {what}); please report it")
}
