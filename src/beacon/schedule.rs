//! When each round of a chain is published: round 1 at the genesis time,
//! round r at genesis + (r - 1) * period. Integer arithmetic only, widened to
//! i128 so that no time or margin a caller passes can overflow.

use super::network::Network;

/// The round current at `unix_time`: the last one published at or before it,
/// or 0 before the genesis time, when no round exists yet. (drand's own
/// `CurrentRound` says 1 before genesis; 0 keeps "published by then" true.)
pub fn round_at(network: &Network, unix_time: i64) -> u64 {
    let since = i128::from(unix_time) - i128::from(network.genesis_time());
    if since < 0 {
        return 0;
    }
    to_round(since / i128::from(network.period_secs()) + 1)
}

/// The first round published strictly after `unix_time + margin_secs`: a
/// round nobody can know at `unix_time`, with `margin_secs` to spare for
/// clocks that disagree and mail that is slow to leave.
pub fn first_round_after(network: &Network, unix_time: i64, margin_secs: u32) -> u64 {
    let limit = i128::from(unix_time) + i128::from(margin_secs);
    let since = limit - i128::from(network.genesis_time());
    if since < 0 {
        return 1;
    }
    // The round current at `limit` is since / period + 1; it was published
    // at or before `limit`, so the next one is the first after it.
    to_round(since / i128::from(network.period_secs()) + 2)
}

/// Unix time at which `round` is published; `None` for round 0, which no
/// unchained network signs, and for a round so far ahead that its time does
/// not fit an i64.
pub fn round_time(network: &Network, round: u64) -> Option<i64> {
    if round == 0 {
        return None;
    }
    let t = i128::from(network.genesis_time())
        + (i128::from(round) - 1) * i128::from(network.period_secs());
    i64::try_from(t).ok()
}

/// A network's genesis time is never negative and its period at least one
/// second (see `Network::new`), so the largest round the two functions above
/// compute is (i64::MAX + u32::MAX) / 1 + 2, below u64::MAX: the saturation
/// never happens and is there only to avoid a panic path.
fn to_round(r: i128) -> u64 {
    u64::try_from(r).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::super::network::QUICKNET;
    use super::*;

    const GENESIS: i64 = 1692803367;

    #[test]
    fn round_one_is_published_at_genesis_and_nothing_before() {
        assert_eq!(round_at(&QUICKNET, GENESIS - 1), 0);
        assert_eq!(round_at(&QUICKNET, GENESIS), 1);
        assert_eq!(round_at(&QUICKNET, GENESIS + 2), 1);
        assert_eq!(round_at(&QUICKNET, GENESIS + 3), 2);
        assert_eq!(round_at(&QUICKNET, i64::MIN), 0);
    }

    #[test]
    fn round_times_follow_the_period() {
        assert_eq!(round_time(&QUICKNET, 0), None);
        assert_eq!(round_time(&QUICKNET, 1), Some(GENESIS));
        assert_eq!(round_time(&QUICKNET, 2), Some(GENESIS + 3));
        // Round 123, the known-answer round of `verify`'s tests.
        assert_eq!(round_time(&QUICKNET, 123), Some(1692803733));
        assert_eq!(round_time(&QUICKNET, u64::MAX), None);
    }

    #[test]
    fn first_round_after_is_strictly_after_time_plus_margin() {
        // Exactly on a publication time: that round is not "after".
        assert_eq!(first_round_after(&QUICKNET, GENESIS, 0), 2);
        assert_eq!(first_round_after(&QUICKNET, GENESIS - 1, 0), 1);
        assert_eq!(first_round_after(&QUICKNET, GENESIS - 4, 3), 1);
        assert_eq!(first_round_after(&QUICKNET, GENESIS - 3, 3), 2);
        assert_eq!(first_round_after(&QUICKNET, GENESIS + 2, 0), 2);
        assert_eq!(first_round_after(&QUICKNET, GENESIS + 3, 0), 3);
        // A margin of a minute is twenty rounds on quicknet.
        assert_eq!(first_round_after(&QUICKNET, GENESIS, 60), 22);
        assert_eq!(first_round_after(&QUICKNET, i64::MIN, u32::MAX), 1);
    }

    #[test]
    fn the_three_agree_around_every_second_of_a_stretch() {
        for t in GENESIS - 10..GENESIS + 100 {
            for margin in [0u32, 1, 2, 3, 7, 60] {
                let r = first_round_after(&QUICKNET, t, margin);
                let limit = t + i64::from(margin);
                assert!(
                    round_time(&QUICKNET, r).expect("in range") > limit,
                    "t={t} m={margin}"
                );
                if r > 1 {
                    assert!(round_time(&QUICKNET, r - 1).expect("in range") <= limit);
                }
                assert_eq!(r, round_at(&QUICKNET, limit) + 1);
            }
            let now = round_at(&QUICKNET, t);
            if now > 0 {
                assert!(round_time(&QUICKNET, now).expect("in range") <= t);
            }
            assert!(round_time(&QUICKNET, now + 1).expect("in range") > t);
        }
    }

    #[test]
    fn the_far_future_does_not_overflow() {
        let one_second = Network::new(QUICKNET.scheme(), *QUICKNET.public_key(), 1, 0, [0; 32], "")
            .expect("valid");
        assert_eq!(round_at(&one_second, i64::MAX), i64::MAX as u64 + 1);
        assert_eq!(
            first_round_after(&one_second, i64::MAX, u32::MAX),
            i64::MAX as u64 + u64::from(u32::MAX) + 2
        );
        assert_eq!(round_time(&one_second, i64::MAX as u64 + 1), Some(i64::MAX));
        assert_eq!(round_time(&one_second, i64::MAX as u64 + 2), None);
    }
}
