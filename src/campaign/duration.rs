//! Durations as campaign files and the game master write them (`48h`, `2d`,
//! `90m`, `1d12h`), read by one grammar and held to one bound: the longest
//! wait adjutant keeps. Every deadline is a time the store can write and
//! read back only while it stays within the calendar's years 0 to 9999; a
//! phase length or an extension without a bound could carry it past that
//! (or overflow the arithmetic), so the bound is checked where the number is
//! read, with words the writer can act on.

use chrono::Duration;

/// The longest a phase may last, and the furthest ahead of now a game master
/// may move a deadline: a year and a day, in minutes.
pub const LONGEST_WAIT_MINUTES: u32 = 366 * MINUTES_A_DAY;

const MINUTES_A_DAY: u32 = 24 * 60;

/// The longest wait as a duration.
pub fn longest_wait() -> Duration {
    Duration::minutes(i64::from(LONGEST_WAIT_MINUTES))
}

/// Why a duration's text was not taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DurationError {
    #[error("`{0}` is not a duration")]
    NotADuration(String),
    #[error("`{0}` is longer than {longest}, the longest wait adjutant keeps", longest = text(LONGEST_WAIT_MINUTES))]
    TooLong(String),
}

/// Reads a duration written `48h`, `2d`, `90m` or `1d12h`, in minutes, up to
/// [`LONGEST_WAIT_MINUTES`]. Digits without a unit, other units, signs and
/// fractions are not durations.
pub fn parse(text: &str) -> Result<u32, DurationError> {
    let wrong = || DurationError::NotADuration(text.to_string());
    let too_long = || DurationError::TooLong(text.to_string());
    let mut minutes: u64 = 0;
    let mut number = String::new();
    for c in text.trim().chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let scale: u64 = match c {
            'd' => u64::from(MINUTES_A_DAY),
            'h' => 60,
            'm' => 1,
            _ => return Err(wrong()),
        };
        if number.is_empty() {
            return Err(wrong());
        }
        // Digits past what a u64 holds are a number still, only too long.
        let n: u64 = number.parse().map_err(|_| too_long())?;
        minutes = n
            .checked_mul(scale)
            .and_then(|m| minutes.checked_add(m))
            .ok_or_else(too_long)?;
        number.clear();
    }
    if !number.is_empty() || text.trim().is_empty() {
        return Err(wrong());
    }
    match u32::try_from(minutes) {
        Ok(m) if m <= LONGEST_WAIT_MINUTES => Ok(m),
        _ => Err(too_long()),
    }
}

/// Minutes as a duration is written: `2d`, `1d12h`, `90m` as `1h30m`.
pub fn text(minutes: u32) -> String {
    let (days, hours, minutes) = (minutes / MINUTES_A_DAY, minutes / 60 % 24, minutes % 60);
    let mut text = String::new();
    for (n, unit) in [(days, 'd'), (hours, 'h'), (minutes, 'm')] {
        if n > 0 {
            text.push_str(&format!("{n}{unit}"));
        }
    }
    if text.is_empty() {
        text.push_str("0m");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_in_days_hours_and_minutes() {
        assert_eq!(parse("48h"), Ok(2880));
        assert_eq!(parse("2d"), Ok(2880));
        assert_eq!(parse("90m"), Ok(90));
        assert_eq!(parse("1d12h"), Ok(2160));
        assert_eq!(parse("0m"), Ok(0));
        for bad in ["", "48", "h", "48 h", "2w", "-1h", "1.5h", "d12h"] {
            assert_eq!(
                parse(bad),
                Err(DurationError::NotADuration(bad.into())),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_duration_past_the_longest_wait_is_too_long_however_it_is_written() {
        assert_eq!(parse("366d"), Ok(LONGEST_WAIT_MINUTES));
        for long in [
            "367d",
            "366d1m",
            "8785h",
            "95000000d",
            "99999999999d",
            "99999999999999999999999d",
            "1d99999999999999999999999m",
        ] {
            assert_eq!(
                parse(long),
                Err(DurationError::TooLong(long.into())),
                "{long}"
            );
        }
        assert_eq!(
            parse("367d").map_err(|e| e.to_string()),
            Err("`367d` is longer than 366d, the longest wait adjutant keeps".into())
        );
    }

    #[test]
    fn durations_written_back() {
        assert_eq!(text(2880), "2d");
        assert_eq!(text(2160), "1d12h");
        assert_eq!(text(90), "1h30m");
        assert_eq!(text(0), "0m");
    }
}
