//! The mail of a resolved turn: each person gets the report of their side
//! (the GM the report with everything), as text and HTML with the map.

use std::collections::BTreeMap;

use super::mail;
use crate::campaign::Campaign;
use crate::report::{self, Audience, Prepared, ReportError, ReportInput};
use crate::store::OutgoingMail;
use crate::templates::Templates;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::sample;
    use crate::rules::ruleset_for;

    /// Every person gets one report mail: the players their side's, the GM
    /// the one with everything; each with an HTML body showing the map
    /// inline, and the map attached as PNG and SVG.
    #[test]
    fn each_person_gets_the_report_of_their_side() {
        let turn = sample::demo_turn().expect("the demo campaign loads");
        let orders = BTreeMap::new();
        let input = ReportInput {
            campaign: &turn.campaign,
            ruleset: ruleset_for(&turn.prior.ruleset).expect("known"),
            k: 4,
            phase: "turn 1 orders (french active)",
            prior: &turn.prior,
            next: &turn.next,
            events: &turn.events,
            rolls: &turn.rolls,
            orders: &orders,
            manifest_digest: String::new(),
            audit: Default::default(),
            chronicle: Default::default(),
            deadline: None,
        };
        let templates = Templates::embedded().expect("templates");
        let mail = resolution_mail(&turn.campaign, &input, &templates).expect("reports");
        let to: Vec<&str> = mail.iter().map(|m| m.recipient.as_str()).collect();
        assert_eq!(
            to,
            [
                "umpire@example.org",
                "lannes@french.invalid",
                "hohenzollern@austrian.invalid"
            ]
        );
        for m in &mail {
            assert!(m.message_id.contains(".r4.result."));
            let html = m.html.as_deref().expect("an HTML body");
            let inline = m
                .parts
                .iter()
                .find(|p| p.content_id.is_some())
                .expect("an inline map");
            let cid = inline.content_id.as_deref().unwrap_or_default();
            assert!(html.contains(&format!("cid:{cid}")));
            assert_eq!(m.parts.len(), 3);
        }
        assert!(
            mail[0].body.contains("2. Jäger-Bataillon"),
            "the GM sees all"
        );
        assert!(!mail[1].body.contains("Jäger"), "hidden from the French");
        assert!(
            !mail[1]
                .html
                .as_deref()
                .unwrap_or_default()
                .contains("Jäger")
        );
        assert!(
            mail[2].body.contains("2. Jäger-Bataillon"),
            "the Austrians' own"
        );
    }
}
