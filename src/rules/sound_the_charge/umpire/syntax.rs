//! Sound the Charge's words for its umpire calls, read by the shared
//! lexicon (`rules::words::lexicon`): the troop types and formations the
//! calls take bare, and the keys and flags more than one call takes.

use super::super::tables::{TROOP_WORDS, TableFormation, Troop};
pub use crate::rules::words::lexicon::{Bare, FlagWord, KeyWord, push_flags, tokens};

/// The words one call (or one side of a call) takes.
pub type Lexicon = crate::rules::words::lexicon::Lexicon<Troop, TableFormation>;
/// What the words of a call said.
pub type Reading = crate::rules::words::lexicon::Reading<Troop, TableFormation>;

impl Bare for Troop {
    const WHAT: &'static str = "troop type";
    fn listing() -> String {
        format!(
            "a troop type ({})",
            TROOP_WORDS
                .iter()
                .filter_map(|(_, w)| w.first().copied())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
    fn read(word: &str) -> Option<Troop> {
        TROOP_WORDS
            .iter()
            .find(|(_, words)| words.contains(&word))
            .map(|(t, _)| *t)
    }
    fn word(self) -> &'static str {
        Troop::word(self)
    }
}

/// Formation words, bare or after `formation`.
impl Bare for TableFormation {
    const WHAT: &'static str = "formation";
    const KEY: Option<&'static str> = Some("formation");
    fn listing() -> String {
        "line, column, square or skirmish".to_string()
    }
    fn read(word: &str) -> Option<TableFormation> {
        TableFormation::parse(word)
    }
    fn word(self) -> &'static str {
        TableFormation::word(self)
    }
}

/// `grade <a-d>`, taken by every call: the morale grades of the rules, "A,
/// B, C, and D, where As are the best and Ds are the worst."
pub const GRADE_KEY: KeyWord = KeyWord {
    name: "grade",
    hint: "<a-d>",
    aliases: &[],
};

/// `nation <name>`, for the National Modifiers; one list for every call.
pub const NATION_KEY: KeyWord = KeyWord {
    name: "nation",
    hint: "<austria|britain|france|prussia-pre-1810|prussia-post-1810|russia|spain>",
    aliases: &[],
};

/// The optional rule Wider Cavalry Basing, in the calls it changes.
pub const WIDER_BASING_FLAG: FlagWord = FlagWord {
    name: "wider-basing",
    aliases: &["wider-cavalry-basing", "wide-basing"],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::umpire::UmpireError;

    static TEST: Lexicon = Lexicon {
        call: "test",
        keys: &[
            KeyWord {
                name: "grade",
                hint: "<a-d>",
                aliases: &[],
            },
            KeyWord {
                name: "range",
                hint: "<inches>",
                aliases: &["at"],
            },
        ],
        flags: &[
            FlagWord {
                name: "soft-cover",
                aliases: &["cover"],
            },
            FlagWord {
                name: "moved",
                aliases: &[],
            },
        ],
        fillers: &["target"],
        kinds: true,
        formations: true,
        count: Some("figures"),
        bare: std::marker::PhantomData,
    };

    fn read(text: &str) -> Result<Reading, UmpireError> {
        TEST.read(text, &tokens(text), None)
    }

    #[test]
    fn words_read_in_any_order_and_case() {
        let r = read("Target SOFT cover, 12 Line Infantry grade=B range 2.5\" moved").unwrap();
        assert_eq!(r.count, Some(12));
        assert_eq!(r.kind, Some(Troop::LineInfantry));
        assert_eq!(r.formation, None);
        assert_eq!(r.value("grade"), Some("b"));
        assert_eq!(r.inches_value("range").unwrap(), Some(250));
        assert!(r.has("soft-cover") && r.has("moved"));
    }

    #[test]
    fn glued_keys_and_inch_words_are_read() {
        let r = read("grade-c at 3 inches line").unwrap();
        assert_eq!(r.value("grade"), Some("c"));
        assert_eq!(r.inches_value("range").unwrap(), Some(300));
        assert_eq!(r.formation, Some(TableFormation::Line));
    }

    #[test]
    fn unknown_words_list_the_known_ones() {
        let e = read("12 infantry fixed-bayonets").unwrap_err().to_string();
        assert!(
            e.contains("column 13: expected a word of `test`: ")
                && e.contains("found `fixed-bayonets`"),
            "{e}"
        );
        assert!(e.contains("grade <a-d>") && e.contains("soft-cover"), "{e}");
    }

    #[test]
    fn conflicting_values_are_errors() {
        assert!(read("grade b grade c").is_err());
        assert!(read("grade b grade b").is_ok());
        assert!(read("12 infantry 11").is_err());
        assert!(read("line column").is_err());
        assert!(read("grade").is_err());
        assert!(read("99999 infantry").is_err());
    }
}
