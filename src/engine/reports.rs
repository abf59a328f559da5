//! The mail of a resolved turn: each person gets the report of their side
//! (the GM the report with everything), as text and HTML with the map.

use std::collections::BTreeMap;

use super::mail;
use crate::campaign::{Campaign, Observer, Observing};
use crate::report::{self, Addressee, Audience, Prepared, ReportError, ReportInput};
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
    let observers: Vec<&Observer> = campaign
        .observers
        .iter()
        .filter(|o| o.receives == Observing::Reports)
        .collect();
    let mut audiences: Vec<Audience> = people
        .iter()
        .map(|p| audience_of(campaign, &p.address))
        .chain(observers.first().map(|_| Audience::Public))
        .collect();
    audiences.sort();
    audiences.dedup();
    let prepared: BTreeMap<Audience, Prepared> = report::prepare_all(input, audiences)?
        .into_iter()
        .map(|p| (p.audience.clone(), p))
        .collect();
    let readers = people
        .into_iter()
        .map(|p| (audience_of(campaign, &p.address), Addressee::from(p)))
        .chain(
            observers
                .into_iter()
                .map(|o| (Audience::Public, Addressee::from(o))),
        );
    let mut out = Vec::new();
    for (audience, person) in readers {
        let Some(p) = prepared.get(&audience) else {
            continue;
        };
        let r = report::render(input, p, person, templates)?;
        let mut message = OutgoingMail::text(
            mail::message_id(campaign, &format!("r{}.result", input.k), person.address),
            person.address.to_string(),
            format!("[{}] {}", campaign.id, r.subject),
            r.text,
        );
        message.html = Some(r.html);
        message.parts = r.parts;
        out.push(message);
    }
    // Observers who follow the public chronicle: a note with the link.
    if let Some(link) = input.chronicle.get(&Audience::Public) {
        for o in campaign
            .observers
            .iter()
            .filter(|o| o.receives == Observing::Chronicle)
        {
            let body = templates.render(
                "observed.txt",
                serde_json::json!({
                    "campaign": campaign.title,
                    "phase": input.phase,
                    "k": input.k,
                    "link": link,
                    "finished": crate::report::outcome::ending(campaign, input.ruleset, input.next),
                    "deadline": input.deadline.map(|d| crate::lifecycle::local_time_in(&o.time_zone, d)),
                }),
            )?;
            out.push(OutgoingMail::text(
                mail::message_id(campaign, &format!("r{}.observed", input.k), &o.address),
                o.address.clone(),
                format!("[{}] {} resolved", campaign.id, input.phase),
                body,
            ));
        }
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
        let (prior, next) = turn.readings().expect("the states read");
        let input = ReportInput {
            campaign: &turn.campaign,
            ruleset: ruleset_for(&turn.prior.ruleset).expect("known"),
            k: 4,
            phase: "turn 1 orders (french active)",
            prior: &prior,
            next: &next,
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
            assert_eq!(m.parts.len(), 2, "the map once as PNG, once as SVG");
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

    /// Observers (REP-4): the public report goes to those who take reports,
    /// showing only what every side saw; those who follow the chronicle get
    /// its link; no one else's mail changes.
    #[test]
    fn observers_get_the_public_view_or_the_chronicles_link() {
        let turn = sample::demo_turn().expect("the demo campaign loads");
        let mut campaign = turn.campaign.clone();
        for (name, receives) in [
            ("reader", Observing::Reports),
            ("follower", Observing::Chronicle),
        ] {
            campaign.observers.push(Observer {
                name: name.to_string(),
                address: format!("{name}@club.invalid"),
                time_zone: "Europe/London".to_string(),
                receives,
            });
        }
        let orders = BTreeMap::from([("french".to_string(), "1-ligne: hold\n".to_string())]);
        let chronicle = BTreeMap::from([(
            Audience::Public,
            "https://club.invalid/c/public-0123/r/turn-0004.html".to_string(),
        )]);
        let (prior, next) = turn.readings().expect("the states read");
        let input = ReportInput {
            campaign: &campaign,
            ruleset: ruleset_for(&turn.prior.ruleset).expect("known"),
            k: 4,
            phase: "turn 1 orders (french active)",
            prior: &prior,
            next: &next,
            events: &turn.events,
            rolls: &turn.rolls,
            orders: &orders,
            manifest_digest: String::new(),
            audit: Default::default(),
            chronicle,
            deadline: None,
        };
        let templates = Templates::embedded().expect("templates");
        let mail = resolution_mail(&campaign, &input, &templates).expect("reports");
        let to: Vec<&str> = mail.iter().map(|m| m.recipient.as_str()).collect();
        assert_eq!(
            to,
            [
                "umpire@example.org",
                "lannes@french.invalid",
                "hohenzollern@austrian.invalid",
                "reader@club.invalid",
                "follower@club.invalid",
            ]
        );
        let public = &mail[3];
        assert!(
            public.body.contains("The observers' report"),
            "{}",
            public.body
        );
        // The Jäger are hidden from the French, so from the public too; and
        // no side's orders are shown, only their digests.
        assert!(!public.body.contains("Jäger"), "{}", public.body);
        assert!(!public.body.contains("1-ligne: hold"), "{}", public.body);
        assert!(
            !public.body.contains("Reply to this message"),
            "{}",
            public.body
        );
        assert!(public.html.as_deref().is_some_and(|h| !h.contains("Jäger")));
        let visible = report::visibility(input.ruleset, &next, &Audience::Public, &turn.events)
            .expect("a sight");
        for side in &turn.next.sides {
            let seen = report::visibility(
                input.ruleset,
                &next,
                &Audience::Side(side.clone()),
                &turn.events,
            )
            .expect("a sight");
            assert!(
                visible.is_subset(&seen),
                "the public sees no more than {side}"
            );
        }
        // Every event the public is told, every side is told too.
        let view = report::view(&input, Audience::Public);
        let sides: Vec<report::View> = turn
            .next
            .sides
            .iter()
            .map(|s| report::view(&input, Audience::Side(s.clone())))
            .collect();
        let lines = |v: &report::View| v.context["sectors"].to_string();
        assert!(!lines(&view).contains("Jäger"));
        assert!(
            sides.iter().any(|v| lines(v) != lines(&view)),
            "the public is told less than some side"
        );
        let note = &mail[4];
        assert!(
            note.body
                .contains("https://club.invalid/c/public-0123/r/turn-0004.html"),
            "{}",
            note.body
        );
        assert!(note.parts.is_empty() && note.html.is_none());
    }
}
