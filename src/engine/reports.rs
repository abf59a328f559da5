//! The mail of a resolved turn: each person gets the report of their side
//! (the GM the report with everything), as text and HTML with the map.

use std::collections::BTreeMap;

use super::mail;
use crate::audit::dice::Roll;
use crate::campaign::Campaign;
use crate::report::{self, Audience, Prepared, ReportError, ReportInput};
use crate::rules::ruleset::Event;
use crate::store::OutgoingMail;
use crate::templates::Templates;

/// Reads the events and rolls of a resolution back from their canonical
/// JSON. They were written by the same program a moment before, so a line
/// that does not read is left out rather than stopping the mail.
pub fn decode(events: &[String], rolls: &[String]) -> (Vec<Event>, Vec<Roll>) {
    (
        events
            .iter()
            .filter_map(|e| serde_json::from_str(e).ok())
            .collect(),
        rolls
            .iter()
            .filter_map(|r| serde_json::from_str(r).ok())
            .collect(),
    )
}

/// Who reads what a person receives.
fn audience_of(campaign: &Campaign, address: &str) -> Audience {
    if campaign.gm.address.eq_ignore_ascii_case(address) {
        return Audience::Gm;
    }
    campaign
        .players
        .iter()
        .find(|p| p.person.address.eq_ignore_ascii_case(address))
        .map_or(Audience::Gm, |p| Audience::Side(p.side.clone()))
}

/// One report mail to each person of the campaign. Each audience's map and
/// despatch are made once, however many people share them.
pub fn resolution_mail(
    campaign: &Campaign,
    input: &ReportInput,
    templates: &Templates,
) -> Result<Vec<OutgoingMail>, ReportError> {
    let people = mail::everyone(campaign);
    let mut audiences: Vec<Audience> = people
        .iter()
        .map(|p| audience_of(campaign, &p.address))
        .collect();
    audiences.sort();
    audiences.dedup();
    let prepared: BTreeMap<Audience, Prepared> = report::prepare_all(input, audiences)?
        .into_iter()
        .map(|p| (p.audience.clone(), p))
        .collect();
    let mut out = Vec::new();
    for person in people {
        let audience = audience_of(campaign, &person.address);
        let Some(p) = prepared.get(&audience) else {
            continue;
        };
        let r = report::render(input, p, person, templates)?;
        let mut message = OutgoingMail::text(
            mail::message_id(campaign, &format!("r{}.result", input.k), &person.address),
            person.address.clone(),
            format!("[{}] {}", campaign.id, r.subject),
            r.text,
        );
        message.html = Some(r.html);
        message.parts = r.parts;
        out.push(message);
    }
    Ok(out)
}
