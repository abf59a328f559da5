//! Who a message proves to come from: a player of a side, or the GM.

use super::batch::Prechecked;
use crate::audit::Digest32;
use crate::campaign::{Auth, Campaign, passphrase};
use crate::mail::dkim::{self, DkimVerdict, KeySource};

/// Who a message proves to come from.
pub(super) enum Who {
    Player(String),
    Gm,
}

/// What a message offers as proof of its sender.
pub(super) struct Proof<'a> {
    pub(super) sender: &'a str,
    pub(super) passphrase: Option<&'a str>,
    pub(super) raw: &'a [u8],
    /// The digest of `raw`, by which a verdict worked out ahead is found.
    pub(super) digest: &'a Digest32,
    pub(super) keys: &'a dyn KeySource,
    pub(super) prechecked: &'a Prechecked,
    pub(super) remembered: &'a passphrase::Remembered,
}

impl Proof<'_> {
    /// Whether the proof meets `auth`: the passphrase, and for
    /// `passphrase-and-dkim` a valid DKIM signature aligned with the
    /// sender's domain.
    pub(super) fn meets(&self, auth: &Auth) -> bool {
        let Some(given) = self.passphrase else {
            return false;
        };
        // A verdict worked out ahead, with the batch, or a passphrase found
        // right before, or one worked out now.
        let passes = |hash: &str| {
            let right = self.prechecked.take(self.digest, hash).unwrap_or_else(|| {
                self.remembered.knows(given, hash) || passphrase::verify(given, hash)
            });
            if right {
                self.remembered.remember(given, hash);
            }
            right
        };
        match auth {
            Auth::Passphrase { hash } => passes(hash),
            Auth::PassphraseAndDkim { hash } => {
                matches!(
                    dkim::verify(self.raw, self.sender, self.keys),
                    DkimVerdict::Pass { .. }
                ) && passes(hash)
            }
        }
    }
}

/// Who the sender proves to be: a player (by side) or the GM; `None` when
/// the address, passphrase or signature does not match. With `gm_only`, only
/// the GM's credentials are checked.
pub(super) fn authenticate(campaign: &Campaign, proof: &Proof<'_>, gm_only: bool) -> Option<Who> {
    let is = |address: &str| address.eq_ignore_ascii_case(proof.sender);
    if !gm_only && let Some(player) = campaign.players.iter().find(|p| is(&p.person.address)) {
        return proof
            .meets(&player.person.auth)
            .then(|| Who::Player(player.side.clone()));
    }
    (is(&campaign.gm.address) && proof.meets(&campaign.gm.auth)).then_some(Who::Gm)
}
