//! Who the engine's mail goes to, its Message-IDs and its times; the words
//! come from the templates (`crate::templates`).

use crate::audit::Digest32;
use crate::campaign::{Campaign, Person};
use crate::store::OutgoingMail;

/// Everyone who hears of the campaign: the GM first, then the players.
pub fn everyone(campaign: &Campaign) -> Vec<&Person> {
    let mut people: Vec<&Person> = Vec::new();
    for person in std::iter::once(&campaign.gm).chain(campaign.players.iter().map(|p| &p.person)) {
        // A GM who also plays a side gets one copy, not two.
        if !people
            .iter()
            .any(|p| p.address.eq_ignore_ascii_case(&person.address))
        {
            people.push(person);
        }
    }
    people
}

/// A Message-ID made from what the mail is about, never from a clock or a
/// random number: a step repeated after a crash makes the same ID, and the
/// outbox takes it once.
pub fn message_id(campaign: &Campaign, purpose: &str, recipient: &str) -> String {
    let domain = campaign
        .gm
        .address
        .rsplit_once('@')
        .map_or("adjutant.invalid", |(_, d)| d);
    let who = &Digest32::of(recipient.as_bytes()).to_hex()[..12];
    format!("<{}.{purpose}.{who}@{domain}>", campaign.id)
}

/// What every [`message_id`] of `purpose` in `campaign` starts with,
/// whoever it is to.
pub fn message_id_prefix(campaign: &Campaign, purpose: &str) -> String {
    format!("<{}.{purpose}.", campaign.id)
}

/// One message to each person of the campaign, the body written for each.
pub fn to_all<E>(
    campaign: &Campaign,
    purpose: &str,
    subject: &str,
    body: impl Fn(&Person) -> Result<String, E>,
) -> Result<Vec<OutgoingMail>, E> {
    everyone(campaign)
        .into_iter()
        .map(|p| {
            Ok(OutgoingMail::text(
                message_id(campaign, purpose, &p.address),
                p.address.clone(),
                format!("[{}] {subject}", campaign.id),
                body(p)?,
            ))
        })
        .collect()
}
