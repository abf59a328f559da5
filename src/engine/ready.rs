//! Whether a side is ready for its phase to close before the deadline. A
//! phase closes early only once every side is ready: a message whose every
//! line was accepted says so, one with a refused line does not (its sender
//! may want to correct it), a word that the side sends no orders does, and
//! the words `ready` and `wait` say it outright, alone or among orders.

use std::collections::BTreeSet;

use super::{Result, open_phase};
use crate::lifecycle::Clock;
use crate::resolution;
use crate::store::Store;

/// A side's word on whether the phase may close before its deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Word {
    /// `ready`: close the phase as soon as every side is ready, whatever
    /// was refused.
    Ready,
    /// `wait` (or `not ready`): keep the phase open for me until the
    /// deadline, though my orders stand.
    Wait,
}

impl Word {
    /// The word a line says, if it is one: `ready`, `wait` or `not ready`,
    /// in any case, with or without a full stop.
    pub fn of_line(line: &str) -> Option<Word> {
        let words: Vec<String> = line
            .trim()
            .trim_end_matches(['.', '!'])
            .split_whitespace()
            .map(str::to_lowercase)
            .collect();
        match words
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice()
        {
            ["ready"] => Some(Word::Ready),
            ["wait"] | ["not", "ready"] => Some(Word::Wait),
            _ => None,
        }
    }

    /// Whether a side is ready, given its word (if any) and whether a line
    /// of its message was refused.
    pub fn ready(word: Option<Word>, refused: bool) -> bool {
        match word {
            Some(Word::Ready) => true,
            Some(Word::Wait) => false,
            None => !refused,
        }
    }
}

/// The words of a text's lines, and the text with those lines left blank
/// (so that the lines of orders keep their numbers). The last word counts.
pub fn take_words(text: &str) -> (Option<Word>, String) {
    let mut word = None;
    let mut rest = String::with_capacity(text.len());
    for line in text.lines() {
        match Word::of_line(line) {
            Some(w) => word = Some(w),
            None => rest.push_str(line),
        }
        rest.push('\n');
    }
    (word, rest)
}

/// Records a side's word alone (a message with no orders in it), leaving
/// the orders it sent for the phase as they stand.
pub fn say(
    store: &mut Store,
    campaign_id: &str,
    side: &str,
    word: Word,
    clock: &dyn Clock,
    message: Option<i64>,
) -> Result<Said> {
    let (record, ruleset, state) = open_phase(store, campaign_id, side, clock)?;
    let phase_key = resolution::phase_key(ruleset, &state);
    let ready = word == Word::Ready;
    store.say_ready(
        campaign_id,
        &record.current_state_digest,
        &phase_key,
        side,
        ready,
        clock.now(),
        message,
    )?;
    let standing = store
        .accepted_submissions(campaign_id, &phase_key)?
        .remove(side)
        .map(|s| s.digest.to_hex());
    Ok(Said {
        ready,
        standing,
        phase_key,
    })
}

/// What became of a side's word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    pub ready: bool,
    /// The digest of the orders the side has in for the phase, if any.
    pub standing: Option<String>,
    pub phase_key: String,
}

/// The sides ready for the current phase to close.
pub fn sides_ready(store: &Store, campaign_id: &str) -> Result<BTreeSet<String>> {
    let record = store.campaign(campaign_id)?;
    let ruleset = super::ruleset_of(&record.campaign)?;
    let state = store.state(&record.current_state_digest)?;
    let key = resolution::phase_key(ruleset, &state);
    ready_in(store, campaign_id, &record.current_state_digest, &key)
}

/// [`sides_ready`] for a phase whose state and key the caller already has.
pub fn ready_in(
    store: &Store,
    campaign_id: &str,
    state: &crate::audit::Digest32,
    key: &str,
) -> Result<BTreeSet<String>> {
    Ok(store
        .readiness(campaign_id, state, key)?
        .into_iter()
        .filter_map(|(side, ready)| ready.then_some(side))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_are_read_in_any_case_with_or_without_a_full_stop() {
        assert_eq!(Word::of_line("Ready."), Some(Word::Ready));
        assert_eq!(Word::of_line("  READY"), Some(Word::Ready));
        assert_eq!(Word::of_line("wait"), Some(Word::Wait));
        assert_eq!(Word::of_line("Not ready!"), Some(Word::Wait));
        assert_eq!(Word::of_line("ready 5-hussards"), None);
        assert_eq!(Word::of_line("5-hussards: wait"), None);
    }

    #[test]
    fn a_word_line_is_blanked_so_that_order_lines_keep_their_numbers() {
        let (word, rest) = take_words("ir-1: hold\nready\nir-2: hold\n");
        assert_eq!(word, Some(Word::Ready));
        assert_eq!(rest, "ir-1: hold\n\nir-2: hold\n");
        assert_eq!(take_words("ir-1: hold\n").0, None);
        assert_eq!(
            take_words("ready\nwait\n").0,
            Some(Word::Wait),
            "the last word counts"
        );
    }

    #[test]
    fn a_refused_line_leaves_the_side_not_ready_unless_it_says_ready() {
        assert!(Word::ready(None, false));
        assert!(!Word::ready(None, true));
        assert!(Word::ready(Some(Word::Ready), true));
        assert!(!Word::ready(Some(Word::Wait), false));
    }
}
