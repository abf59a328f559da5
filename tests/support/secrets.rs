//! The secrets of a campaign's two chains that no report has revealed yet,
//! which nothing written (mail, archive, log) may hold.

#![allow(dead_code)]

use adjutant::store::Store;

/// Each secret of `campaign`'s turn and umpire chains not yet revealed, in
/// lower-case hex: resolution k reveals r_k = h_(N-k), so after `used`
/// resolutions of a chain its links h_0 .. h_(N-used-1) are still secret.
pub fn unrevealed(store: &Store, campaign: &str) -> Vec<String> {
    let record = store.campaign(campaign).expect("campaign");
    let (turns, calls) = store.resolution_counts(campaign).expect("counts");
    let n = record.chain.length();
    let mut secrets = Vec::new();
    for (chain, used) in [
        (record.chain.clone(), turns),
        (record.chain.umpire_chain(), calls),
    ] {
        for i in 0..n - used as u32 {
            secrets.push(chain.link(i).to_hex());
        }
    }
    secrets
}
