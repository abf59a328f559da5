//! Dice from a seed: the ChaCha20 keystream read as little-endian u32 words,
//! mapped to dice by rejection sampling (docs/AUDIT.md, "Dice"). The mapping is
//! written out here rather than taken from a library's range sampling, because
//! libraries change theirs between versions and an auditor must reproduce it.

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use super::about::About;
use super::digest::Digest32;

/// The dice the rulesets use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Die {
    /// One six-sided die, 1-6.
    #[serde(rename = "d6")]
    D6,
    /// One ten-sided die read 0-9, as Kulikovo's tables do.
    #[serde(rename = "d10")]
    D10,
    /// Percentile dice, 1-100.
    #[serde(rename = "d100")]
    D100,
    /// Two six-sided dice added, 2-12; each face is drawn in turn.
    #[serde(rename = "2d6")]
    TwoD6,
}

impl Die {
    /// How many faces one die of this kind has.
    pub fn sides(self) -> u32 {
        match self {
            Die::D6 | Die::TwoD6 => 6,
            Die::D10 => 10,
            Die::D100 => 100,
        }
    }

    /// How many dice are thrown and added.
    pub fn count(self) -> u32 {
        match self {
            Die::TwoD6 => 2,
            _ => 1,
        }
    }

    /// The value of a face drawn as `below(sides)`.
    fn face(self, drawn: u32) -> u32 {
        match self {
            Die::D10 => drawn,
            _ => drawn + 1,
        }
    }

    /// The die a label names (`d6`, `d10`, `d100`, `2d6`).
    pub fn parse(label: &str) -> Option<Die> {
        [Die::D6, Die::D10, Die::D100, Die::TwoD6]
            .into_iter()
            .find(|d| d.label() == label)
    }

    pub fn label(self) -> &'static str {
        match self {
            Die::D6 => "d6",
            Die::D10 => "d10",
            Die::D100 => "d100",
            Die::TwoD6 => "2d6",
        }
    }

    /// The lowest and highest value a roll can take.
    pub fn range(self) -> (u32, u32) {
        let low = self.face(0) * self.count();
        let high = self.face(self.sides() - 1) * self.count();
        (low, high)
    }
}

/// One logged roll. `first_word` and `words` say which keystream words it
/// used, rejected ones included, so that a discarded roll shows as a gap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    pub index: u32,
    pub purpose: String,
    pub die: Die,
    pub sides: u32,
    pub faces: Vec<u32>,
    pub value: u32,
    pub first_word: u64,
    pub words: u64,
    /// Whom it concerns and who may be told it, as the rules made it;
    /// `None` for a roll read back from an archive, which keeps none of it,
    /// and for one made without saying (see [`Dice::throw`]).
    #[serde(skip)]
    pub about: Option<About>,
}

impl Roll {
    /// One d6 of a made-up turn (a sample report, a bench): the roll as the
    /// log would hold it, its word taken to be its index.
    pub fn made_up_d6(index: u32, purpose: &str, value: u32) -> Roll {
        Roll {
            index,
            purpose: purpose.to_string(),
            die: Die::D6,
            sides: 6,
            faces: vec![value],
            value,
            first_word: u64::from(index),
            words: 1,
            about: None,
        }
    }
}

/// Where the rules get their dice. The audited stream is the real source;
/// forced dice exist so that a rules case can pin the exact outcome.
pub trait Dice {
    /// Throws `die` for `purpose` (which rule, which unit), logs it with
    /// whom it concerns, and returns the value.
    fn throw(&mut self, die: Die, purpose: &str, about: Option<About>) -> u32;

    /// Throws `die` for `purpose`, concerning whatever the dice it is made
    /// through say (see [`Concerning`]).
    fn roll(&mut self, die: Die, purpose: &str) -> u32 {
        self.throw(die, purpose, None)
    }

    /// Every roll so far, in order.
    fn log(&self) -> &[Roll];
}

impl<'d> dyn Dice + 'd {
    /// These dice, with every roll made through them that does not say whom
    /// it concerns taken to concern `about`: how a step of a turn marks the
    /// rolls of the rules procedure it calls, which know nothing of ids.
    pub fn concerning(&mut self, about: About) -> Concerning<'_, 'd> {
        Concerning { dice: self, about }
    }
}

/// Dice that mark each roll made through them (see [`Dice::concerning`]).
pub struct Concerning<'a, 'd> {
    dice: &'a mut (dyn Dice + 'd),
    about: About,
}

impl Dice for Concerning<'_, '_> {
    fn throw(&mut self, die: Die, purpose: &str, about: Option<About>) -> u32 {
        let about = about.unwrap_or_else(|| self.about.clone());
        self.dice.throw(die, purpose, Some(about))
    }

    fn log(&self) -> &[Roll] {
        self.dice.log()
    }
}

/// The audited dice of one resolution.
pub struct DiceStream {
    rng: ChaCha20Rng,
    next_word: u64,
    log: Vec<Roll>,
}

impl DiceStream {
    /// ChaCha20 keyed with the seed, nonce and block counter zero.
    pub fn new(seed: &Digest32) -> DiceStream {
        DiceStream {
            rng: ChaCha20Rng::from_seed(*seed.as_bytes()),
            next_word: 0,
            log: Vec::new(),
        }
    }

    /// The next keystream word (little-endian u32).
    pub fn word(&mut self) -> u32 {
        self.next_word += 1;
        self.rng.next_u32()
    }

    /// A uniform value in 0..n: zone = 2^32 - (2^32 mod n); draw words until
    /// one is below the zone; return it mod n.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "below(0) has no values");
        let span = 1u64 << 32;
        let zone = span - span % u64::from(n);
        loop {
            let x = self.word();
            if u64::from(x) < zone {
                return x % n;
            }
        }
    }

    /// How many words have been drawn so far.
    pub fn words_used(&self) -> u64 {
        self.next_word
    }

    pub fn into_log(self) -> Vec<Roll> {
        self.log
    }
}

impl Dice for DiceStream {
    fn throw(&mut self, die: Die, purpose: &str, about: Option<About>) -> u32 {
        let first_word = self.next_word;
        let faces: Vec<u32> = (0..die.count())
            .map(|_| die.face(self.below(die.sides())))
            .collect();
        let value = faces.iter().sum();
        let index = u32::try_from(self.log.len()).unwrap_or(u32::MAX);
        self.log.push(Roll {
            index,
            purpose: purpose.to_string(),
            die,
            sides: die.sides(),
            faces,
            value,
            first_word,
            words: self.next_word - first_word,
            about,
        });
        value
    }

    fn log(&self) -> &[Roll] {
        &self.log
    }
}

/// Dice given in advance, for rules cases and examples. Each roll takes the
/// next value; a roll past the end, or a value the die cannot show, is noted
/// in [`ForcedDice::problems`] so that the case fails with a clear reason
/// instead of the rules core failing.
#[derive(Debug, Default, Clone)]
pub struct ForcedDice {
    values: Vec<u32>,
    next: usize,
    log: Vec<Roll>,
    problems: Vec<String>,
}

impl ForcedDice {
    pub fn new(values: impl IntoIterator<Item = u32>) -> ForcedDice {
        ForcedDice {
            values: values.into_iter().collect(),
            ..ForcedDice::default()
        }
    }

    /// Rolls asked for beyond the given values, values out of range, and
    /// values given but never used.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = self.problems.clone();
        if self.next < self.values.len() {
            problems.push(format!(
                "{} forced dice were never rolled: {:?}",
                self.values.len() - self.next,
                &self.values[self.next..]
            ));
        }
        problems
    }
}

impl Dice for ForcedDice {
    fn throw(&mut self, die: Die, purpose: &str, about: Option<About>) -> u32 {
        let (low, high) = die.range();
        let value = match self.values.get(self.next) {
            Some(&v) => {
                if v < low || v > high {
                    self.problems.push(format!(
                        "forced value {v} for `{purpose}` is not a {} roll",
                        die.label()
                    ));
                }
                v
            }
            None => {
                self.problems.push(format!(
                    "no forced die left for `{purpose}` ({})",
                    die.label()
                ));
                low
            }
        };
        self.next += 1;
        let index = u32::try_from(self.log.len()).unwrap_or(u32::MAX);
        self.log.push(Roll {
            index,
            purpose: purpose.to_string(),
            die,
            sides: die.sides(),
            faces: vec![value],
            value,
            first_word: 0,
            words: 0,
            about,
        });
        value
    }

    fn log(&self) -> &[Roll] {
        &self.log
    }
}

/// Dice for a preview that must not be taken for the real thing: every die
/// shows the middle of its range (a d6 3, a d10 4, a d100 50, 2d6 7), the
/// same whatever the seed, so that a game master may see what orders come
/// to without learning anything of the turn's dice, which do not yet exist.
#[derive(Debug, Default, Clone)]
pub struct PlaceholderDice {
    log: Vec<Roll>,
}

impl PlaceholderDice {
    /// The value every die of this kind shows.
    pub fn value_of(die: Die) -> u32 {
        let (low, high) = die.range();
        (low + high) / 2
    }
}

impl Dice for PlaceholderDice {
    fn throw(&mut self, die: Die, purpose: &str, about: Option<About>) -> u32 {
        let value = PlaceholderDice::value_of(die);
        let index = u32::try_from(self.log.len()).unwrap_or(u32::MAX);
        self.log.push(Roll {
            index,
            purpose: purpose.to_string(),
            die,
            sides: die.sides(),
            faces: vec![value],
            value,
            first_word: 0,
            words: 0,
            about,
        });
        value
    }

    fn log(&self) -> &[Roll] {
        &self.log
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8439, appendix A.1, test vector #1: the ChaCha20 block for the
    /// all-zero key, nonce and counter starts 76 b8 e0 ad a0 f1 3d 90.
    #[test]
    fn a_placeholder_die_shows_the_middle_of_its_range_whatever_is_asked() {
        let mut dice = PlaceholderDice::default();
        assert_eq!(dice.roll(Die::D6, "a"), 3);
        assert_eq!(dice.roll(Die::D10, "b"), 4);
        assert_eq!(dice.roll(Die::D100, "c"), 50);
        assert_eq!(dice.roll(Die::TwoD6, "d"), 7);
        assert_eq!(
            dice.roll(Die::D6, "a"),
            3,
            "the same again: no stream behind it"
        );
        assert_eq!(dice.log().len(), 5);
        assert!(
            dice.log().iter().all(|r| r.words == 0),
            "no keystream word drawn"
        );
    }

    #[test]
    fn keystream_is_standard_chacha20() {
        let mut stream = DiceStream::new(&Digest32::ZERO);
        assert_eq!(stream.word(), 0xade0_b876);
        assert_eq!(stream.word(), 0x903d_f1a0);
    }

    #[test]
    fn below_rejects_words_in_the_top_partial_zone() {
        // 2^32 mod 6 = 4, so the zone is 2^32 - 4 and only the top four words
        // are rejected; a stream of all values must never return 6 or more.
        let mut stream = DiceStream::new(&Digest32::of(b"x"));
        for _ in 0..10_000 {
            assert!(stream.below(6) < 6);
        }
    }

    #[test]
    fn each_roll_starts_where_the_last_ended() {
        let mut stream = DiceStream::new(&Digest32::of(b"rolls"));
        stream.roll(Die::D6, "a");
        stream.roll(Die::TwoD6, "b");
        stream.roll(Die::D100, "c");
        let log = stream.log();
        for pair in log.windows(2) {
            assert_eq!(pair[1].first_word, pair[0].first_word + pair[0].words);
        }
        assert_eq!(log[1].faces.len(), 2);
        assert_eq!(log[1].value, log[1].faces.iter().sum::<u32>());
    }

    #[test]
    fn forced_dice_report_what_went_wrong() {
        let mut dice = ForcedDice::new([7, 3]);
        dice.roll(Die::D6, "first");
        assert_eq!(dice.problems().len(), 2, "{:?}", dice.problems());
        dice.roll(Die::D6, "second");
        dice.roll(Die::D6, "third");
        assert_eq!(dice.problems().len(), 2, "{:?}", dice.problems());
    }
}
