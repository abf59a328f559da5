//! The passphrases of a batch of messages, checked on every core before the
//! batch is taken one message at a time.
//!
//! A passphrase check is argon2, slow by design (some 14 ms at the campaign
//! default), and a batch of orders arriving together (a deadline's last
//! minutes) would otherwise wait for each check in turn. A source that
//! fetched several messages calls [`precheck`] first: it reads each message
//! far enough to know who claims to send it and with what passphrase, checks
//! those claims in parallel, and keeps each verdict, by the message's digest
//! and the hash it was checked against, for `ingest` to take. Nothing is
//! decided here: ingest authenticates each message exactly as it would
//! without the batch, and a verdict it does not find it works out itself.
//! The passphrase is never kept, nor anything computed from it but the
//! yes or no.

use std::collections::BTreeMap;
use std::sync::Mutex;

use super::IngestConfig;
use crate::audit::Digest32;
use crate::campaign::{Auth, passphrase};
use crate::mail::body::campaign_from_subject;
use crate::mail::{order_text, parse};
use crate::store::Store;

/// Verdicts worked out ahead, each taken once.
#[derive(Debug, Default)]
pub struct Prechecked {
    verdicts: Mutex<BTreeMap<(Digest32, String), bool>>,
}

impl Prechecked {
    /// The verdict on the message `digest` against `hash`, if it was worked
    /// out ahead; it is forgotten once taken.
    pub(super) fn take(&self, digest: &Digest32, hash: &str) -> Option<bool> {
        self.verdicts
            .lock()
            .ok()?
            .remove(&(*digest, hash.to_string()))
    }

    fn put(&self, digest: Digest32, hash: String, verdict: bool) {
        if let Ok(mut v) = self.verdicts.lock() {
            v.insert((digest, hash), verdict);
        }
    }

    /// How many verdicts wait to be taken.
    pub fn pending(&self) -> usize {
        self.verdicts.lock().map_or(0, |v| v.len())
    }

    /// Forgets every verdict not taken (the batch is done).
    pub fn clear(&self) {
        if let Ok(mut v) = self.verdicts.lock() {
            v.clear();
        }
    }
}

/// Checks, on every core, the passphrases the messages of a batch offer
/// against the people their senders claim to be, and keeps the verdicts in
/// `config.prechecked` for `ingest`. A message that cannot be read, or names
/// no campaign known here, is left to ingest.
pub fn precheck(store: &Store, raws: &[&[u8]], config: &IngestConfig) {
    let mut jobs: Vec<(Digest32, String, String)> = Vec::new();
    let mut campaigns = BTreeMap::new();
    for raw in raws {
        let Ok(message) = parse(raw, &config.limits) else {
            continue;
        };
        let Some(sender) = message.from.as_deref() else {
            continue;
        };
        let text = order_text(&message.body);
        let Some(given) = text.passphrase.clone() else {
            continue;
        };
        let id = match campaign_from_subject(&message.subject).or(text.campaign.clone()) {
            Some(id) => id,
            None => match store.campaigns_of(sender).ok().as_deref() {
                Some([only]) => only.clone(),
                _ => continue,
            },
        };
        if !campaigns.contains_key(&id) {
            let Ok(record) = store.campaign(&id) else {
                continue;
            };
            campaigns.insert(id.clone(), record.campaign);
        }
        let Some(campaign) = campaigns.get(&id) else {
            continue;
        };
        let digest = Digest32::of(raw);
        let people =
            std::iter::once(&campaign.gm).chain(campaign.players.iter().map(|p| &p.person));
        for person in people.filter(|p| p.address.eq_ignore_ascii_case(sender)) {
            let hash = match &person.auth {
                Auth::Passphrase { hash } | Auth::PassphraseAndDkim { hash } => hash.clone(),
            };
            // Found right before: ingest will know it without argon2.
            if !config.remembered.knows(&given, &hash) {
                jobs.push((digest, hash, given.clone()));
            }
        }
    }
    if jobs.len() < 2 {
        // One check gains nothing from another thread.
        return;
    }
    let workers = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(jobs.len());
    let chunk = jobs.len().div_ceil(workers);
    std::thread::scope(|scope| {
        for part in jobs.chunks(chunk) {
            scope.spawn(move || {
                let mut verifier = passphrase::Verifier::default();
                for (digest, hash, given) in part {
                    let verdict = verifier.verify(given, hash);
                    config.prechecked.put(*digest, hash.clone(), verdict);
                }
            });
        }
    });
}
