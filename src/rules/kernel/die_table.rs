//! Results tables read by a modified die roll, as the rules print them: a
//! row for "0 or less", rows for "1", "2-3", ..., and a row for "8+". The
//! open rows at each end take every modified roll beyond them, so a table
//! whose ends are open has a result for any roll the modifiers can make.

use std::fmt;

/// The scores of one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Band {
    /// "0 or less": this score and every lower one.
    AtMost(i32),
    /// "2-3", or "4" alone: from the first score to the last, both in.
    Range(i32, i32),
    /// "8+": this score and every higher one.
    AtLeast(i32),
}

impl Band {
    pub fn contains(self, score: i32) -> bool {
        match self {
            Band::AtMost(n) => score <= n,
            Band::Range(low, high) => (low..=high).contains(&score),
            Band::AtLeast(n) => score >= n,
        }
    }

    /// The lowest score, `None` for an open low end.
    fn low(self) -> Option<i32> {
        match self {
            Band::AtMost(_) => None,
            Band::Range(low, _) | Band::AtLeast(low) => Some(low),
        }
    }

    /// The highest score, `None` for an open high end.
    fn high(self) -> Option<i32> {
        match self {
            Band::AtLeast(_) => None,
            Band::Range(_, high) | Band::AtMost(high) => Some(high),
        }
    }

    /// Reads a band as the rules print it: `0 or less`, `-1 or less`, `4`,
    /// `2-3`, `0-4`, `8+`, `9 or more`.
    pub fn parse(text: &str) -> Result<Band, DieTableError> {
        let text = text.trim();
        let bad = || DieTableError::Unreadable(text.to_string());
        let number = |t: &str| t.trim().parse::<i32>().map_err(|_| bad());
        if let Some(n) = text.strip_suffix("or less") {
            return Ok(Band::AtMost(number(n)?));
        }
        if let Some(n) = text.strip_suffix("or more") {
            return Ok(Band::AtLeast(number(n)?));
        }
        if let Some(n) = text.strip_suffix('+') {
            return Ok(Band::AtLeast(number(n)?));
        }
        // A range's dash follows a digit: `-2--1` is -2 to -1, `-3` is -3.
        let dash = text
            .char_indices()
            .skip(1)
            .find(|&(i, c)| c == '-' && text[..i].ends_with(|d: char| d.is_ascii_digit()))
            .map(|(i, _)| i);
        match dash {
            Some(i) => {
                let (low, high) = (number(&text[..i])?, number(&text[i + 1..])?);
                if low > high {
                    return Err(bad());
                }
                Ok(Band::Range(low, high))
            }
            None => {
                let n = number(text)?;
                Ok(Band::Range(n, n))
            }
        }
    }
}

impl fmt::Display for Band {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Band::AtMost(n) => write!(f, "{n} or less"),
            Band::Range(low, high) if low == high => write!(f, "{low}"),
            Band::Range(low, high) => write!(f, "{low}-{high}"),
            Band::AtLeast(n) => write!(f, "{n}+"),
        }
    }
}

/// Why rows do not make a table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DieTableError {
    #[error("`{0}` is not a band of scores (as `0 or less`, `4`, `2-3` or `8+`)")]
    Unreadable(String),
    #[error("a table needs at least one row")]
    Empty,
    #[error("no row for a roll of {0}")]
    Gap(i32),
    #[error("a roll of {0} falls in two rows")]
    Overlap(i32),
    #[error("only the first row may be open below and only the last open above")]
    OpenInside,
}

/// Rows of results, in order of score, with no gap and no score twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DieTable<T> {
    rows: Vec<(Band, T)>,
}

impl<T> DieTable<T> {
    /// The table of `rows`, lowest scores first.
    pub fn new(rows: Vec<(Band, T)>) -> Result<DieTable<T>, DieTableError> {
        if rows.is_empty() {
            return Err(DieTableError::Empty);
        }
        let last = rows.len() - 1;
        for (i, (band, _)) in rows.iter().enumerate() {
            let open_low = band.low().is_none();
            let open_high = band.high().is_none();
            if (open_low && i != 0) || (open_high && i != last) {
                return Err(DieTableError::OpenInside);
            }
        }
        for w in rows.windows(2) {
            let (Some(high), Some(low)) = (w[0].0.high(), w[1].0.low()) else {
                return Err(DieTableError::OpenInside);
            };
            if low <= high {
                return Err(DieTableError::Overlap(low));
            }
            if low > high + 1 {
                return Err(DieTableError::Gap(high + 1));
            }
        }
        Ok(DieTable { rows })
    }

    /// Reads rows as the rules print their bands.
    pub fn parse(rows: Vec<(&str, T)>) -> Result<DieTable<T>, DieTableError> {
        let rows = rows
            .into_iter()
            .map(|(band, result)| Band::parse(band).map(|b| (b, result)))
            .collect::<Result<Vec<_>, _>>()?;
        DieTable::new(rows)
    }

    /// Whether every roll, however modified, has a row: both ends open.
    pub fn is_open(&self) -> bool {
        let first = self.rows.first().map(|(b, _)| *b);
        let last = self.rows.last().map(|(b, _)| *b);
        first.is_some_and(|b| b.low().is_none()) && last.is_some_and(|b| b.high().is_none())
    }

    /// The row a modified roll falls in: its band and result. `None` only
    /// past a closed end.
    pub fn row(&self, score: i32) -> Option<(Band, &T)> {
        self.rows
            .iter()
            .find(|(band, _)| band.contains(score))
            .map(|(band, result)| (*band, result))
    }

    /// The result of a modified roll (see [`DieTable::row`]).
    pub fn lookup(&self, score: i32) -> Option<&T> {
        self.row(score).map(|(_, result)| result)
    }

    pub fn rows(&self) -> &[(Band, T)] {
        &self.rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kulikovo, Shock Combat Results No Charge, the Defender Normal column.
    fn shock_no_charge() -> DieTable<&'static str> {
        DieTable::parse(vec![
            ("0 or less", "Attacker Disordered Retreat 1 hex"),
            ("1", "Attacker Disordered Retreat 1 hex"),
            ("2-3", "Attacker Disordered"),
            ("4", "No Result"),
            ("5", "No Result"),
            ("6-7", "Defender Disordered"),
            ("8+", "Defender Disordered Retreat 1 hex"),
        ])
        .expect("the table reads")
    }

    #[test]
    fn open_ends_take_every_roll_beyond_them() {
        let table = shock_no_charge();
        assert!(table.is_open());
        assert_eq!(table.lookup(-7), Some(&"Attacker Disordered Retreat 1 hex"));
        assert_eq!(table.lookup(0), Some(&"Attacker Disordered Retreat 1 hex"));
        assert_eq!(table.lookup(3), Some(&"Attacker Disordered"));
        assert_eq!(table.lookup(7), Some(&"Defender Disordered"));
        assert_eq!(table.lookup(8), Some(&"Defender Disordered Retreat 1 hex"));
        assert_eq!(table.lookup(15), Some(&"Defender Disordered Retreat 1 hex"));
    }

    #[test]
    fn a_closed_table_has_no_row_past_its_ends() {
        // Kulikovo, Charge Reluctance Die Roll: "0-4 attacking unit
        // successfully Charges", "5-9 unit must attack/Shock without benefit
        // of Charge DRM".
        let table = DieTable::parse(vec![("0-4", "charges"), ("5-9", "no charge")]).expect("reads");
        assert!(!table.is_open());
        assert_eq!(table.lookup(4), Some(&"charges"));
        assert_eq!(table.lookup(5), Some(&"no charge"));
        assert_eq!(table.lookup(10), None);
        assert_eq!(
            table.row(9).map(|(b, _)| b.to_string()),
            Some("5-9".to_string())
        );
    }

    #[test]
    fn bands_read_and_print_as_the_rules_write_them() {
        for (text, band) in [
            ("0 or less", Band::AtMost(0)),
            ("-1 or less", Band::AtMost(-1)),
            ("4", Band::Range(4, 4)),
            ("2-3", Band::Range(2, 3)),
            ("-2--1", Band::Range(-2, -1)),
            ("-3", Band::Range(-3, -3)),
            ("8+", Band::AtLeast(8)),
            ("9 or more", Band::AtLeast(9)),
        ] {
            assert_eq!(Band::parse(text), Ok(band), "{text}");
        }
        assert_eq!(Band::AtLeast(9).to_string(), "9+");
        assert_eq!(Band::Range(6, 7).to_string(), "6-7");
        assert_eq!(Band::AtMost(0).to_string(), "0 or less");
        assert!(Band::parse("3-2").is_err());
        assert!(Band::parse("many").is_err());
    }

    #[test]
    fn a_table_with_a_gap_an_overlap_or_an_open_row_inside_is_refused() {
        let gap = DieTable::parse(vec![("0 or less", 'a'), ("2-3", 'b'), ("4+", 'c')]);
        assert_eq!(gap, Err(DieTableError::Gap(1)));
        let overlap = DieTable::parse(vec![("0-4", 'a'), ("4-9", 'b')]);
        assert_eq!(overlap, Err(DieTableError::Overlap(4)));
        let inside = DieTable::parse(vec![("0-4", 'a'), ("5+", 'b'), ("9", 'c')]);
        assert_eq!(inside, Err(DieTableError::OpenInside));
        assert_eq!(DieTable::<char>::new(Vec::new()), Err(DieTableError::Empty));
    }
}
