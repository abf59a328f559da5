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
        // When the waiver came against the round's time: the GM's log has
        // the last `without beacon` carried out.
        let when = store
            .gm_log(&record.campaign.id)?
            .into_iter()
            .rev()
            .find(|e| e.done && e.command == "without beacon")
            .map(|e| e.at);
        let due = record
            .campaign
            .drand
            .as_ref()
            .and_then(|d| d.network().ok())
            .and_then(|n| beacon::round_time(&n, round))
            .and_then(|t| DateTime::<Utc>::from_timestamp(t, 0));
        let timing = match (when, due) {
            (Some(w), Some(d)) if w >= d => format!(
                ", waiving it at {}, {} after the round's time {}",
                utc(w),
                crate::lifecycle::duration::text(
                    u32::try_from((w - d).num_minutes()).unwrap_or(u32::MAX)
                ),
                utc(d)
            ),
            (Some(w), Some(d)) => format!(
                ", waiving it at {}, BEFORE the round's time {}",
                utc(w),
                utc(d)
            ),
            _ => String::new(),
        };
        return Ok(Some(Drawn {
            value: None,
            signature: BEACON_WAIVED.to_string(),
            said: format!(
                "NONE: the game master resolved this turn without drand round {round}, which its manifest named (an act in the archive){timing}; {NO_LIVE_BEACON}"
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
    // The round protects the turn only if the players had the manifest
    // before anyone could know the round: every manifest message must have
    // been handed to the mail server (the outbox records when the transport
    // took it) before the round's time. Queued is not enough: a queue that
    // is slow to empty once let a round be public before the manifest left.
    let (handed, handed_at) = manifest_handed_over(store, record, closed)?;
    if handed.waiting > 0 && now < published {
        return Err(waiting(format!(
            "the manifest has not yet been handed to the mail server; the round is published at {published}"
        )));
    }
    if handed.waiting > 0 || handed_at >= published {
        let why = if handed.waiting > 0 {
            format!(
                "the manifest had not been handed to the mail server by {published}, when drand round {round} was published"
            )
        } else {
            format!(
                "the manifest was handed to the mail server at {handed_at}, not before {published}, when drand round {round} was published"
            )
        };
        let why = format!(
            "{why}: the round was public before the players had the manifest, so it is not taken; the game master may resolve `without beacon`, which every report shows"
        );
        if now >= published {
            tell_gm_late(store, record, closed.k, round, &why, now)?;
        }
        return Err(waiting(why));
    }
    if now < published {
        return Err(waiting(format!("it is published at {published}")));
    }
    let timeout = std::time::Duration::from_secs(u64::from(network.period_secs()) + 5);
    match beacon::fetch(&drand.url, &network, round, timeout) {
        Ok(signed) => {
            let randomness = beacon::verify(&network, &signed)?;
            let mut said = format!(
                "drand round {round} of chain {}, published at {}, after this turn's manifest was handed to the mail server (at {}); its randomness {randomness} is the seed's last 32 bytes",
                network.chain_hash_hex(),
                published.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                handed_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
            );
            if network.known_name().is_none() {
                said.push_str(&format!(
                    ". BUT {}",
                    crate::campaign::untrusted_network_words(&network.chain_hash_hex())
                ));
            }
            Ok(Some(Drawn {
                value: Some(Digest32(*randomness.as_bytes())),
                signature: signed.signature_hex(),
                said,
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

/// How far the manifest mail of `closed` got, and when the mail server took
/// the last of it (the close, when nothing was taken).
fn manifest_handed_over(
    store: &Store,
    record: &CampaignRecord,
    closed: &ResolutionRecord,
) -> Result<(crate::store::HandedOver, DateTime<Utc>)> {
    let prefix = mail::message_id_prefix(&record.campaign, &format!("r{}.manifest", closed.k));
    let handed = store.handed_over(&record.campaign.id, &prefix)?;
    let at = handed.last.unwrap_or(closed.closed_at);
    Ok((handed, at))
}

fn utc(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// Whether the game master may resolve `closed` without its round now
/// (`without beacon`), and if so what the act records of it; else why not.
///
/// A waiver lets the game master, who holds every other input, know the
/// dice: the seed's last 32 bytes are then zeros. So it is taken only where
/// the round is no use or cannot be had: once the round's time has come,
/// and either the manifest left too late for the round to protect the turn,
/// or adjutant has tried the relay since the round's time and failed for
/// [`TELL_GM_AFTER_MINUTES`] minutes, and fails again now, so that the round
/// is still unpublished as far as adjutant could learn. A round adjutant
/// can have is never waived: the next tick takes it.
pub fn may_waive(
    store: &Store,
    record: &CampaignRecord,
    closed: &ResolutionRecord,
    drand: &crate::campaign::DrandChoice,
    now: DateTime<Utc>,
) -> Result<std::result::Result<String, String>> {
    let round = closed.beacon_round.unwrap_or_default();
    let network = drand.network()?;
    let Some(due) =
        beacon::round_time(&network, round).and_then(|t| DateTime::<Utc>::from_timestamp(t, 0))
    else {
        return Ok(Err(format!("drand round {round} has no time")));
    };
    if now < due {
        return Ok(Err(format!(
            "drand round {round} is due at {}: nobody can know it is out of reach before it exists, and a waiver now would let the game master know the dice before anyone",
            utc(due)
        )));
    }
    let after = now - due;
    let late = format!(
        "the waiver came at {}, {} after drand round {round}'s time {}",
        utc(now),
        crate::lifecycle::duration::text(u32::try_from(after.num_minutes()).unwrap_or(u32::MAX)),
        utc(due)
    );
    let (handed, handed_at) = manifest_handed_over(store, record, closed)?;
    if handed.waiting > 0 || handed_at >= due {
        return Ok(Ok(format!(
            "{late}; the manifest had not left before that time (handed to the mail server: {}), so the round could not protect the turn",
            if handed.waiting > 0 {
                "not yet".to_string()
            } else {
                utc(handed_at)
            }
        )));
    }
    let stated = due + Duration::minutes(TELL_GM_AFTER_MINUTES);
    let tried = closed.beacon_tried_at;
    if now < stated || tried.is_none_or(|t| t < stated) {
        return Ok(Err(format!(
            "`without beacon` is for a relay out of reach for {TELL_GM_AFTER_MINUTES} minutes after the round's time: drand round {round} was due at {}, and adjutant must have tried for it and failed at {} or later (it last tried {})",
            utc(due),
            utc(stated),
            tried.map_or("never".to_string(), utc)
        )));
    }
    let timeout = std::time::Duration::from_secs(u64::from(network.period_secs()) + 5);
    match beacon::fetch(&drand.url, &network, round, timeout) {
        Ok(_) => Ok(Err(format!(
            "drand round {round} can be had now: the turn takes it at the next tick, never a waiver"
        ))),
        Err(e) => Ok(Ok(format!(
            "{late}; adjutant tried the relay {} for it from {} without it, last at {}, and again at {}: {e}",
            drand.url,
            utc(due),
            tried.map_or("never".to_string(), utc),
            utc(now)
        ))),
    }
}

/// One message to the game master per resolution whose round came before
/// its manifest left (its Message-ID is fixed, so the outbox takes it once).
fn tell_gm_late(
    store: &mut Store,
    record: &CampaignRecord,
    k: u64,
    round: u64,
    why: &str,
    now: DateTime<Utc>,
) -> Result<()> {
    let campaign = &record.campaign;
    let body = format!(
        "Resolution {k} of {} cannot take drand round {round}, which its manifest named: {why}.\n\nWaiting does not help: the round is the one the manifest named. You can resolve without it with the command\n\n    without beacon\n\nwhich is recorded as your act and shown in every report of this turn: without the round, you hold every input of its dice. A larger `margin` in [dice.drand] gives the manifest mail more time to leave.\n",
        campaign.title
    );
    let message = crate::store::OutgoingMail::text(
        mail::message_id(campaign, &format!("r{k}.beacon-late"), &campaign.gm.address),
        campaign.gm.address.clone(),
        format!(
            "{}: resolution {k} cannot take its beacon round",
            campaign.title
        ),
        body,
    );
    store.queue(Some(&campaign.id), &[message], now)?;
    Ok(())
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
