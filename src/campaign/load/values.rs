//! The small checks both files share: ids, names from a ruleset's lists,
//! counts, lengths, durations and time zones. Each reports its own problem
//! and returns the checked value, or `None` where there is none to build on.

use std::collections::BTreeMap;

use toml::Spanned;

use super::Problem;
use super::raw::Inches;
use super::source::Source;
use crate::geometry::Hundredths;

/// Largest length taken, in inches: far beyond any table, and small enough
/// that hundredths of it never overflow the sums of the geometry.
const MAX_INCHES: f64 = 1_000_000.0;

/// Checks an id is `[a-z0-9-]+`.
pub fn id(source: &Source, id: &Spanned<String>, problems: &mut Vec<Problem>) -> bool {
    let text = id.get_ref();
    let good = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !good {
        problems.push(
            source
                .at(id.span(), format!("`{text}` is not a valid id"))
                .with_hint("ids are lower-case letters, digits and `-`, such as `2nd-hussars`"),
        );
    }
    good
}

/// Checks a name or title is not blank.
pub fn text(source: &Source, value: &Spanned<String>, what: &str, problems: &mut Vec<Problem>) {
    if value.get_ref().trim().is_empty() {
        problems.push(source.at(value.span(), format!("the {what} is empty")));
    }
}

/// Checks a word is one of `allowed` (an empty list allows any), with the
/// list in the hint.
pub fn known(
    source: &Source,
    value: &Spanned<String>,
    allowed: &[&str],
    what: &str,
    problems: &mut Vec<Problem>,
) -> bool {
    let good = allowed.is_empty() || allowed.contains(&value.get_ref().as_str());
    if !good {
        // A list with a duplicate in it (two sides of one id) names it once.
        let mut names: Vec<&str> = Vec::new();
        for name in allowed {
            if !names.contains(name) {
                names.push(name);
            }
        }
        problems.push(
            source
                .at(
                    value.span(),
                    format!("unknown {what} `{}`", value.get_ref()),
                )
                .with_hint(format!("expected one of {}", names.join(", "))),
        );
    }
    good
}

/// The ids given so far in one namespace, with what and where each was,
/// so that a second use names the first.
#[derive(Default)]
pub struct Ids {
    seen: BTreeMap<String, (&'static str, usize)>,
}

impl Ids {
    /// Records an id; a duplicate is a problem at the second.
    pub fn claim(
        &mut self,
        source: &Source,
        id: &Spanned<String>,
        what: &'static str,
        problems: &mut Vec<Problem>,
    ) {
        let line = source.line(id.span().start);
        if let Some((first, at)) = self.seen.get(id.get_ref()) {
            problems.push(source.at(
                id.span(),
                format!(
                    "duplicate id `{}`: the {first} at line {at} has it already",
                    id.get_ref()
                ),
            ));
        } else {
            self.seen.insert(id.get_ref().clone(), (what, line));
        }
    }
}

/// Checks a whole number lies in `min..=max`.
pub fn count(
    source: &Source,
    value: &Spanned<i64>,
    what: &str,
    min: i64,
    max: i64,
    problems: &mut Vec<Problem>,
) -> Option<u32> {
    let n = *value.get_ref();
    if n < min || n > max {
        let range = if max >= i64::from(u32::MAX) {
            format!("at least {min}")
        } else {
            format!("from {min} to {max}")
        };
        problems.push(source.at(value.span(), format!("{what} must be {range}, not {n}")));
        return None;
    }
    u32::try_from(n).ok()
}

/// Converts inches as written to hundredths, rounding to the nearest.
pub fn hundredths(
    source: &Source,
    value: &Spanned<Inches>,
    problems: &mut Vec<Problem>,
) -> Option<Hundredths> {
    let Inches(inches) = *value.get_ref();
    if !inches.is_finite() || inches.abs() > MAX_INCHES {
        problems.push(source.at(value.span(), format!("{inches} is not a length in inches")));
        return None;
    }
    Some(libm::round(inches * 100.0) as Hundredths)
}

/// Hundredths as inches for a message: `4.5`, `12`, `0.38`.
pub fn inches(h: Hundredths) -> String {
    crate::rules::words::inches(h)
}

/// Checks an IANA time zone name.
pub fn time_zone(source: &Source, value: &Spanned<String>, problems: &mut Vec<Problem>) -> bool {
    let good = value.get_ref().parse::<chrono_tz::Tz>().is_ok();
    if !good {
        problems.push(
            source
                .at(
                    value.span(),
                    format!("unknown time zone `{}`", value.get_ref()),
                )
                .with_hint(
                    "give an IANA time zone name, such as `Europe/Paris` or `America/New_York`",
                ),
        );
    }
    good
}

/// Reads a duration written `48h`, `2d`, `90m` or `1d12h`, in minutes, up
/// to the longest wait (`campaign::duration`, the one grammar the GM's
/// commands read too).
pub fn parse_duration(text: &str) -> Result<u32, String> {
    crate::campaign::duration::parse(text).map_err(|e| e.to_string())
}

pub use crate::campaign::duration::text as duration_text;

/// Reads a time of day `HH:MM`, 24-hour.
pub fn parse_time_of_day(text: &str) -> Option<(u32, u32)> {
    let (h, m) = text.split_once(':')?;
    if h.len() != 2 || m.len() != 2 {
        return None;
    }
    let h: u32 = h.parse().ok()?;
    let m: u32 = m.parse().ok()?;
    (h < 24 && m < 60).then_some((h, m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_of_day() {
        assert_eq!(parse_time_of_day("20:00"), Some((20, 0)));
        assert_eq!(parse_time_of_day("00:59"), Some((0, 59)));
        for bad in ["24:00", "12:60", "8:00", "20h00", "20:00:00", ""] {
            assert_eq!(parse_time_of_day(bad), None, "{bad}");
        }
    }

    #[test]
    fn inches_for_messages() {
        assert_eq!(inches(450), "4.5");
        assert_eq!(inches(7200), "72");
        assert_eq!(inches(38), "0.38");
        assert_eq!(inches(-25), "-0.25");
        assert_eq!(inches(-150), "-1.5");
    }
}
