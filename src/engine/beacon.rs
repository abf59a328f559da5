//! The beacon value a closed turn's seed takes (docs/AUDIT.md, section
//! 11.6): the randomness of the drand round its manifest named, fetched and
//! checked against the network's public key, or nothing where the game
//! master resolved without it (an act every report shows). A round not yet
//! published, or a relay out of reach, makes the resolution wait; the game
//! master is told once when the wait grows long.

use chrono::{DateTime, Duration, Utc};

use super::{EngineError, Result, mail};
use crate::audit::Digest32;
use crate::beacon::{self, BeaconError};
use crate::lifecycle::Clock;
use crate::report::audit_footer::NO_LIVE_BEACON;
use crate::store::{BEACON_WAIVED, CampaignRecord, ResolutionRecord, Store};

/// How long after a round's time a failed fetch is tried again.
pub const RETRY_SECONDS: i64 = 30;
/// How long past a round's time the game master is told that the
/// resolution still waits for it.
pub const TELL_GM_AFTER_MINUTES: i64 = 10;

/// The beacon of one resolution, as its seed takes it and its report says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drawn {
    /// The seed's last 32 bytes; `None` where the game master waived it.
    pub value: Option<Digest32>,
    /// The round's signature, hex, or `waived`.
    pub signature: String,
    /// For the report's `beacon:` line.
    pub said: String,
}

/// When a closed resolution's round may first be asked for again: its
/// publication time, then [`RETRY_SECONDS`] after each failed try. `None`
/// for a resolution that takes no round.
pub fn next_try(record: &CampaignRecord, closed: &ResolutionRecord) -> Option<DateTime<Utc>> {
    let round = closed.beacon_round?;
    if closed.beacon_waived {
        return None;
    }
    let network = record.campaign.drand.as_ref()?.network().ok()?;
    let at = DateTime::<Utc>::from_timestamp(beacon::round_time(&network, round)?, 0)?;
    Some(match closed.beacon_tried_at {
        Some(tried) => at.max(tried + Duration::seconds(RETRY_SECONDS)),
        None => at,
    })
}

/// The beacon value of `closed`, or [`EngineError::BeaconWaiting`].
pub fn draw(
    store: &mut Store,
    record: &CampaignRecord,
    closed: &ResolutionRecord,
    clock: &dyn Clock,
) -> Result<Option<Drawn>> {
    let Some(round) = closed.beacon_round else {
        return Ok(None);
    };
    if closed.beacon_waived {
        return Ok(Some(Drawn {
            value: None,
            signature: BEACON_WAIVED.to_string(),
            said: format!(
                "NONE: the game master resolved this turn without drand round {round}, which its manifest named (an act in the archive); {NO_LIVE_BEACON}"
            ),
        }));
    }
    let Some(drand) = &record.campaign.drand else {
        return Err(EngineError::Beacon(BeaconError::BadNetwork {
            reason: format!("the manifest names drand round {round}, the campaign no drand beacon"),
        }));
    };
    let network = drand.network()?;
    let now = clock.now();
    let published = beacon::round_time(&network, round)
        .and_then(|t| DateTime::<Utc>::from_timestamp(t, 0))
        .unwrap_or(now);
    let waiting = |why: String| EngineError::BeaconWaiting {
        k: closed.k,
        round,
        why,
    };
    if now < published {
        return Err(waiting(format!("it is published at {published}")));
    }
    let timeout = std::time::Duration::from_secs(u64::from(network.period_secs()) + 5);
    match beacon::fetch(&drand.url, &network, round, timeout) {
        Ok(signed) => {
            let randomness = beacon::verify(&network, &signed)?;
            Ok(Some(Drawn {
                value: Some(Digest32(*randomness.as_bytes())),
                signature: signed.signature_hex(),
                said: format!(
                    "drand round {round} of chain {}, published at {}, after this turn's manifest was mailed; its randomness {randomness} is the seed's last 32 bytes",
                    network.chain_hash_hex(),
                    published.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
                ),
            }))
        }
        Err(e) if e.is_transient() => {
            store.beacon_tried(&record.campaign.id, closed.kind, closed.k, now)?;
            if now >= published + Duration::minutes(TELL_GM_AFTER_MINUTES) {
                tell_gm(store, record, closed.k, round, &e.to_string(), now)?;
            }
            Err(waiting(e.to_string()))
        }
        // A signature that does not verify, a wrong round: never used.
        Err(e) => Err(EngineError::Beacon(e)),
    }
}

/// One message to the game master per resolution (its Message-ID is fixed,
/// so the outbox takes it once).
fn tell_gm(
    store: &mut Store,
    record: &CampaignRecord,
    k: u64,
    round: u64,
    why: &str,
    now: DateTime<Utc>,
) -> Result<()> {
    let campaign = &record.campaign;
    let body = format!(
        "Resolution {k} of {} waits for drand round {round}, which its manifest named: {why}.\n\nadjutant keeps trying every {RETRY_SECONDS} seconds; nothing is lost, and the dice will be the same whenever the round is had. If the beacon stays out of reach, you can resolve without it with the command\n\n    without beacon\n\nwhich is recorded as your act and shown in every report of this turn: without the round, you hold every input of its dice.\n",
        campaign.title
    );
    let message = crate::store::OutgoingMail::text(
        mail::message_id(campaign, &format!("r{k}.beacon-wait"), &campaign.gm.address),
        campaign.gm.address.clone(),
        format!("{}: resolution {k} waits for the beacon", campaign.title),
        body,
    );
    store.queue(Some(&campaign.id), &[message], now)?;
    Ok(())
}
