//! The passphrases of a batch of messages, checked on other cores while the
//! batch is taken one message at a time.
//!
//! A passphrase check is argon2, slow by design (some 14 ms at the campaign
//! default), and a batch of orders arriving together (a deadline's last
//! minutes, fifty players at once) would otherwise wait for each check in
//! turn. A source that fetched several messages calls [`precheck`] first: it
//! reads each message far enough to know who claims to send it and with
//! what passphrase, and hands those claims, in the batch's order, to
//! threads that check them beside the ingest of the batch. Nothing is
//! decided there: ingest authenticates each message exactly as it would
//! without the batch. When it comes to a message, the check is done (its
//! verdict is taken), under way (it waits for it), or not begun (it takes
//! the check back and makes it itself), so the first messages are answered
//! while the last are still being checked, and no core waits on another.
//! The passphrase is never kept, nor anything computed from it but the yes
//! or no.

use std::collections::BTreeMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use super::IngestConfig;
use crate::audit::Digest32;
use crate::campaign::{Auth, passphrase};
use crate::mail::body::campaign_from_subject;
use crate::mail::{order_text, parse};
use crate::store::Store;

/// How long ingest waits for a check under way before making it itself.
const STRANDED: std::time::Duration = std::time::Duration::from_secs(10);

/// A check of a batch, by the message's digest and the hash checked against.
type Key = (Digest32, String);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Check {
    /// Not begun: ingest, coming to it first, makes it itself.
    Waiting,
    /// A checking thread has it.
    Under,
    Done(bool),
}

#[derive(Debug, Default)]
struct Checks {
    state: BTreeMap<Key, Check>,
    /// The passphrases of the checks not yet begun, in the batch's order.
    queue: std::collections::VecDeque<(Key, String)>,
}

/// The checks of the batch being taken, each verdict taken once.
#[derive(Debug, Default)]
pub struct Prechecked {
    checks: Mutex<Checks>,
    done: Condvar,
}

impl Prechecked {
    fn lock(&self) -> Option<MutexGuard<'_, Checks>> {
        self.checks.lock().ok()
    }

    /// The verdict on the message `digest` against `hash`: at once if it is
    /// worked out, after the checking thread that has it finishes, or
    /// `None` where the batch has no such check or it was not begun (then
    /// no thread will begin it, and the caller checks it itself).
    pub(super) fn take(&self, digest: &Digest32, hash: &str) -> Option<bool> {
        let key = (*digest, hash.to_string());
        let mut checks = self.lock()?;
        loop {
            match checks.state.get(&key).copied()? {
                Check::Done(verdict) => {
                    checks.state.remove(&key);
                    return Some(verdict);
                }
                Check::Waiting => {
                    checks.state.remove(&key);
                    checks.queue.retain(|(k, _)| *k != key);
                    return None;
                }
                Check::Under => {
                    // A check takes milliseconds; one not done in this long
                    // has lost its thread, and the caller makes it itself.
                    let (next, waited) = self.done.wait_timeout(checks, STRANDED).ok()?;
                    checks = next;
                    if waited.timed_out() {
                        checks.state.remove(&key);
                        return None;
                    }
                }
            }
        }
    }

    /// The next check not yet begun, now under way.
    fn begin_next(&self) -> Option<(Key, String)> {
        let mut checks = self.lock()?;
        let (key, given) = checks.queue.pop_front()?;
        checks.state.insert(key.clone(), Check::Under);
        Some((key, given))
    }

    fn finish(&self, key: Key, verdict: bool) {
        if let Some(mut checks) = self.lock() {
            // A batch cleared meanwhile has no use for it.
            if checks.state.get(&key) == Some(&Check::Under) {
                checks.state.insert(key, Check::Done(verdict));
            }
            self.done.notify_all();
        }
    }

    /// How many verdicts wait to be taken or worked out.
    pub fn pending(&self) -> usize {
        self.lock().map_or(0, |c| c.state.len())
    }

    /// Forgets every check not taken (the batch is done, or stopped): none
    /// not yet begun will be, and a verdict still under way is dropped when
    /// it comes.
    pub fn clear(&self) {
        if let Some(mut checks) = self.lock() {
            checks.state.clear();
            checks.queue.clear();
            self.done.notify_all();
        }
    }
}

/// Hands the passphrases the messages of a batch offer, against the people
/// their senders claim to be, to threads that check them in the batch's
/// order beside its ingest, and returns at once; the verdicts wait in
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
            let Ok(campaign) = store.campaign_definition(&id) else {
                continue;
            };
            campaigns.insert(id.clone(), campaign);
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
    if let Some(mut checks) = config.prechecked.lock() {
        for (digest, hash, given) in jobs {
            let key = (digest, hash);
            checks.state.insert(key.clone(), Check::Waiting);
            checks.queue.push_back((key, given));
        }
    }
    // Ingest takes a core of its own, checking what no thread has begun;
    // the others check ahead of it.
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .saturating_sub(1)
        .max(1);
    for _ in 0..threads {
        let prechecked = Arc::clone(&config.prechecked);
        let spawned = std::thread::Builder::new()
            .name("passphrases".into())
            .spawn(move || {
                let mut verifier = passphrase::Verifier::default();
                while let Some((key, given)) = prechecked.begin_next() {
                    let verdict = verifier.verify(&given, &key.1);
                    prechecked.finish(key, verdict);
                }
            });
        if spawned.is_err() {
            // No thread to be had: ingest checks each message itself.
            break;
        }
    }
}
