//! The six sides of a hex as orders and calls name them: a facing, the side
//! a unit turns to, the way a path leaves a hex.

use crate::geometry::Direction;

/// Each side's words, by its number 0-5 (north first, clockwise), as the
/// players write them: the short form, the long forms, and the number.
pub const DIRECTION_WORDS: [&[&str]; 6] = [
    &["n", "north", "0"],
    &["ne", "north-east", "northeast", "1"],
    &["se", "south-east", "southeast", "2"],
    &["s", "south", "3"],
    &["sw", "south-west", "southwest", "4"],
    &["nw", "north-west", "northwest", "5"],
];

/// Reads a hexside: `n`, `ne`, `north-east`, ... or its number 0-5, in any
/// case.
pub fn direction(word: &str) -> Option<Direction> {
    let w = word.to_lowercase();
    let n = DIRECTION_WORDS
        .iter()
        .position(|words| words.contains(&w.as_str()))?;
    Direction::from_number(u8::try_from(n).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_side_reads_by_its_words_and_its_number() {
        for (n, words) in DIRECTION_WORDS.iter().enumerate() {
            for w in *words {
                let d = direction(w).map(Direction::number);
                assert_eq!(d, u8::try_from(n).ok(), "{w}");
            }
        }
        assert_eq!(direction("North-East").map(Direction::number), Some(1));
        assert_eq!(direction("6"), None);
        assert_eq!(direction("up"), None);
    }
}
