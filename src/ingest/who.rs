//! Who a message proves to come from: a player of a side, or the GM.

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
    pub(super) keys: &'a dyn KeySource,
}

impl Proof<'_> {
    /// Whether the proof meets `auth`: the passphrase, and for
    /// `passphrase-and-dkim` a valid DKIM signature aligned with the
    /// sender's domain.
    pub(super) fn meets(&self, auth: &Auth) -> bool {
        let Some(given) = self.passphrase else {
            return false;
        };
        match auth {
            Auth::Passphrase { hash } => passphrase::verify(given, hash),
            Auth::PassphraseAndDkim { hash } => {
                matches!(
                    dkim::verify(self.raw, self.sender, self.keys),
                    DkimVerdict::Pass { .. }
                ) && passphrase::verify(given, hash)
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
