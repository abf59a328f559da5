//! Words every ruleset's orders, umpire calls and the GM's corrections read
//! alike: how a line splits into words, and how a length in inches is
//! written, read exactly in hundredths with no floating point; a cursor
//! over a line's words (`cursor`) that every reader of orders and calls
//! goes through, so that a word read wrong is told of in one shape
//! whatever the ruleset; and the compass words of a map of hexes
//! (`compass`).

mod compass;
mod cursor;
pub mod lexicon;

pub use compass::{DIRECTION_WORDS, direction};
pub use cursor::{Cursor, Found, ReadError, Splitting, Token, by_verb};

/// The largest number an order or an umpire call takes (inches, figures,
/// dice): far beyond any table, small enough for every sum.
pub const MAX_NUMBER: u32 = 999;

/// Lower-cases and single-spaces a line's words.
pub fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_lowercase).collect()
}

/// Reads `3`, `2.5`, `2.25`, `1/2` or `2-1/2` as hundredths of an inch,
/// exactly, with no floating point. Anything else, more than two decimals,
/// or more than [`MAX_NUMBER`] inches is `None`.
pub fn parse_hundredths(text: &str) -> Option<u32> {
    hundredths_up_to(text, MAX_NUMBER)
}

/// As [`parse_hundredths`], up to `most` inches.
pub fn hundredths_up_to(text: &str, most: u32) -> Option<u32> {
    let whole_number = |s: &str| -> Option<u32> {
        if s.is_empty() || !s.chars().all(|c| c.is_ascii_digit()) || s.len() > 4 {
            return None;
        }
        s.parse::<u32>().ok()
    };
    let value = if let Some((whole, fraction)) = text.split_once('-') {
        whole_number(whole)?
            .checked_mul(100)?
            .checked_add(fraction_hundredths(fraction)?)?
    } else if text.contains('/') {
        fraction_hundredths(text)?
    } else if let Some((whole, decimals)) = text.split_once('.') {
        let whole = if whole.is_empty() {
            0
        } else {
            whole_number(whole)?
        };
        let part = match decimals.len() {
            1 => whole_number(decimals)? * 10,
            2 => whole_number(decimals)?,
            _ => return None,
        };
        whole.checked_mul(100)?.checked_add(part)?
    } else {
        whole_number(text)?.checked_mul(100)?
    };
    (u64::from(value) <= u64::from(most) * 100).then_some(value)
}

/// `1/2` -> 50, `3/4` -> 75, `1/4` -> 25: only fractions that come out in
/// whole hundredths.
fn fraction_hundredths(text: &str) -> Option<u32> {
    let (top, bottom) = text.split_once('/')?;
    let top: u64 = top.parse().ok()?;
    let bottom: u64 = bottom.parse().ok()?;
    let scaled = top.checked_mul(100)?;
    if bottom == 0 || top >= bottom || !scaled.is_multiple_of(bottom) {
        return None;
    }
    u32::try_from(scaled / bottom).ok()
}

/// Words that may follow a distance, or end it, and mean inches: `3 in`,
/// `3"`, `3''`, and the typographer's marks `3”` and `3″` that mail programs
/// put in.
pub const INCH_WORDS: &[&str] = &["\"", "''", "in", "inch", "inches", "\u{201d}", "\u{2033}"];

/// A distance written as one word, in hundredths of an inch: a number as
/// [`parse_hundredths`] reads it, in brackets or not, with or without an
/// inch word or mark stuck to it (`3"`, `3in`, `(2.5)`, `3″`).
pub fn inches_in(word: &str) -> Option<u32> {
    let bare = word.trim_start_matches('(').trim_end_matches(')');
    let bare = bare
        .strip_suffix("inches")
        .or_else(|| bare.strip_suffix("inch"))
        .or_else(|| bare.strip_suffix("in"))
        .unwrap_or(bare);
    let bare = bare.trim_end_matches(['"', '\'', '\u{201d}', '\u{2033}']);
    parse_hundredths(bare)
}

/// Hundredths of an inch as the shortest decimal of inches: `4`, `2.5`,
/// `0.25`, `-1.5`.
pub fn inches(h: i64) -> String {
    let sign = if h < 0 { "-" } else { "" };
    let h = h.unsigned_abs();
    match h % 100 {
        0 => format!("{sign}{}", h / 100),
        p if p % 10 == 0 => format!("{sign}{}.{}", h / 100, p / 10),
        p => format!("{sign}{}.{p:02}", h / 100),
    }
}

/// Hundredths of an inch as inches, with two decimals: `12.50`.
pub fn inches_fixed(h: u64) -> String {
    format!("{}.{:02}", h / 100, h % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inches_are_read_to_the_hundredth_without_floats() {
        assert_eq!(parse_hundredths("12"), Some(1200));
        assert_eq!(parse_hundredths("12.5"), Some(1250));
        assert_eq!(parse_hundredths("0.05"), Some(5));
        assert_eq!(parse_hundredths("2-1/2"), Some(250));
        assert_eq!(parse_hundredths("3/4"), Some(75));
        assert_eq!(parse_hundredths("12.345"), None);
        assert_eq!(parse_hundredths("-1"), None);
        assert_eq!(parse_hundredths("1000"), None);
        assert_eq!(hundredths_up_to("5000.25", 100_000), Some(500_025));
        assert_eq!(inches_fixed(1450), "14.50");
        assert_eq!(inches_in("3\u{2033}"), Some(300));
        assert_eq!(inches_in("(2.5in)"), Some(250));
        assert_eq!(inches_in("3''"), Some(300));
        assert_eq!(inches_in("three"), None);
    }

    #[test]
    fn inches_are_written_as_the_shortest_decimal() {
        assert_eq!(inches(450), "4.5");
        assert_eq!(inches(7200), "72");
        assert_eq!(inches(38), "0.38");
        assert_eq!(inches(-25), "-0.25");
        assert_eq!(inches(-150), "-1.5");
    }

    #[test]
    fn distances_are_exact_hundredths() {
        assert_eq!(parse_hundredths("3"), Some(300));
        assert_eq!(parse_hundredths("2.5"), Some(250));
        assert_eq!(parse_hundredths(".5"), Some(50));
        assert_eq!(parse_hundredths("2.25"), Some(225));
        assert_eq!(parse_hundredths("1/2"), Some(50));
        assert_eq!(parse_hundredths("2-3/4"), Some(275));
        assert_eq!(parse_hundredths("2.125"), None);
        assert_eq!(parse_hundredths("1/3"), None);
        assert_eq!(parse_hundredths("-1"), None);
        assert_eq!(parse_hundredths("1e9"), None);
        assert_eq!(parse_hundredths("99999"), None);
    }
}
