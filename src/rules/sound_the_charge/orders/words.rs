//! The words of the order language: splitting a line into tokens, and the
//! tables of verbs and keywords with their synonyms. The first phrase given
//! for a meaning is its canonical spelling; the others are accepted and
//! written back in the canonical one.

use super::{Facing, Formation, Side};
use crate::rules::words::{Found, INCH_WORDS, ReadError};

/// The longest line read; a longer one is refused rather than scanned.
pub const MAX_LINE_CHARS: usize = 1000;

/// A word of a line: a bare word (lower-cased, a full stop at its end
/// dropped), a quoted name (lower-cased, inner spaces single), or a `,`,
/// `;` (read as `,`: both separate steps of a path and items of a list) or
/// `:` (which ends the unit's name), each a word of its own.
pub use crate::rules::words::Token;

/// Whether a token is a bare word, neither a quoted name nor a mark.
pub fn is_word(t: &Token) -> bool {
    !t.quoted && t.text != "," && t.text != ":"
}

fn is_open_quote(c: char) -> bool {
    matches!(c, '"' | '\u{201c}' | '\u{201e}')
}

fn is_close_quote(c: char) -> bool {
    matches!(c, '"' | '\u{201d}' | '\u{201c}')
}

fn is_break(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | ';' | ':')
}

/// Whether a word ends in a digit (so a quote mark after it is an inch mark).
fn ends_in_digit(tok: Option<&Token>) -> bool {
    tok.is_some_and(|t| is_word(t) && t.text.ends_with(|c: char| c.is_ascii_digit()))
}

/// Splits a line into tokens. A double quote at the start of a word opens a
/// quoted name, unless it stands alone after a number (`3 "`, an inch mark);
/// a quote inside a word (`3"`) is part of the word. A full stop ending a
/// word is dropped, so that `forward 4.` reads as `forward 4`.
pub fn tokenize(line: &str) -> Result<Vec<Token>, ReadError> {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() > MAX_LINE_CHARS {
        return Err(ReadError {
            column: MAX_LINE_CHARS + 1,
            expected: format!("a line of at most {MAX_LINE_CHARS} characters"),
            found: Found::Word(chars[MAX_LINE_CHARS..].iter().take(10).collect()),
        });
    }
    let mut tokens: Vec<Token> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == ',' || c == ';' || c == ':' {
            tokens.push(Token {
                text: if c == ':' { ":" } else { "," }.to_string(),
                column,
                quoted: false,
            });
            i += 1;
            continue;
        }
        let next_breaks = chars.get(i + 1).is_none_or(|&n| is_break(n));
        if is_open_quote(c) && !(next_breaks && ends_in_digit(tokens.last())) {
            let start = i + 1;
            let Some(len) = chars[start..].iter().position(|&q| is_close_quote(q)) else {
                return Err(ReadError {
                    column,
                    expected: "a double quote closing this name".to_string(),
                    found: Found::End,
                });
            };
            let inner: String = chars[start..start + len].iter().collect();
            tokens.push(Token {
                text: super::UnitRef::new(&inner).0,
                column,
                quoted: true,
            });
            i = start + len + 1;
            continue;
        }
        let start = i;
        while i < chars.len() && !is_break(chars[i]) {
            i += 1;
        }
        let shown: String = chars[start..i].iter().collect();
        let word = shown.to_lowercase();
        let word = word.strip_suffix('.').unwrap_or(&word).to_string();
        if !word.is_empty() {
            tokens.push(Token {
                text: word,
                column,
                quoted: false,
            });
        }
    }
    Ok(tokens)
}

/// What the word after the unit orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Hold,
    Forward,
    Backstep,
    Sidestep,
    Oblique,
    Wheel,
    Road,
    Form,
    Limber,
    Unlimber,
    Face,
    FaceLeft,
    FaceRight,
    FaceAbout,
    Manhandle,
    MoveTo,
    LeaveGuns,
    ManGuns,
    Charge,
    Evade,
    Shoot,
    SkirmishersOut,
    SkirmishersIn,
    Screen,
    Attach,
    Detach,
    Reform,
    Reinforce,
    Retreat,
    Embark,
    Disembark,
}

/// Every verb phrase. The first phrase of each verb is its canonical word.
pub const VERBS: &[(&str, Verb)] = &[
    ("hold", Verb::Hold),
    ("halt", Verb::Hold),
    ("stand", Verb::Hold),
    ("stand fast", Verb::Hold),
    ("stand still", Verb::Hold),
    ("forward", Verb::Forward),
    ("advance", Verb::Forward),
    ("fwd", Verb::Forward),
    ("march", Verb::Forward),
    ("ahead", Verb::Forward),
    ("move forward", Verb::Forward),
    ("go forward", Verb::Forward),
    ("march forward", Verb::Forward),
    ("backstep", Verb::Backstep),
    ("back", Verb::Backstep),
    ("backward", Verb::Backstep),
    ("backwards", Verb::Backstep),
    ("back step", Verb::Backstep),
    ("back-step", Verb::Backstep),
    ("step back", Verb::Backstep),
    ("move back", Verb::Backstep),
    ("sidestep", Verb::Sidestep),
    ("side step", Verb::Sidestep),
    ("side-step", Verb::Sidestep),
    ("step", Verb::Sidestep),
    ("oblique", Verb::Oblique),
    ("obl", Verb::Oblique),
    ("wheel", Verb::Wheel),
    ("pivot", Verb::Wheel),
    ("by road", Verb::Road),
    ("road", Verb::Road),
    ("along road", Verb::Road),
    ("along the road", Verb::Road),
    ("on road", Verb::Road),
    ("form", Verb::Form),
    ("form into", Verb::Form),
    ("formation", Verb::Form),
    ("change formation", Verb::Form),
    ("change formation to", Verb::Form),
    ("change to", Verb::Form),
    ("limber", Verb::Limber),
    ("limber up", Verb::Limber),
    ("unlimber", Verb::Unlimber),
    ("deploy guns", Verb::Unlimber),
    ("face", Verb::Face),
    ("turn", Verb::Face),
    ("change facing", Verb::Face),
    ("left face", Verb::FaceLeft),
    ("left turn", Verb::FaceLeft),
    ("right face", Verb::FaceRight),
    ("right turn", Verb::FaceRight),
    ("about face", Verb::FaceAbout),
    ("about turn", Verb::FaceAbout),
    ("right about", Verb::FaceAbout),
    ("manhandle", Verb::Manhandle),
    ("prolonge", Verb::Manhandle),
    ("move", Verb::MoveTo),
    ("ride", Verb::MoveTo),
    ("go", Verb::MoveTo),
    ("gallop", Verb::MoveTo),
    ("leave guns", Verb::LeaveGuns),
    ("leave the guns", Verb::LeaveGuns),
    ("abandon guns", Verb::LeaveGuns),
    ("abandon the guns", Verb::LeaveGuns),
    ("gunners leave", Verb::LeaveGuns),
    ("man guns", Verb::ManGuns),
    ("man the guns", Verb::ManGuns),
    ("crew guns", Verb::ManGuns),
    ("return to guns", Verb::ManGuns),
    ("return to the guns", Verb::ManGuns),
    ("gunners return", Verb::ManGuns),
    ("charge", Verb::Charge),
    ("attack", Verb::Charge),
    ("assault", Verb::Charge),
    ("evade", Verb::Evade),
    ("evade charges", Verb::Evade),
    ("evade if charged", Verb::Evade),
    ("shoot", Verb::Shoot),
    ("fire", Verb::Shoot),
    ("volley", Verb::Shoot),
    ("open fire", Verb::Shoot),
    ("skirmishers out", Verb::SkirmishersOut),
    ("send skirmishers", Verb::SkirmishersOut),
    ("send out skirmishers", Verb::SkirmishersOut),
    ("deploy skirmishers", Verb::SkirmishersOut),
    ("screen out", Verb::SkirmishersOut),
    ("skirmishers in", Verb::SkirmishersIn),
    ("recall skirmishers", Verb::SkirmishersIn),
    ("call in skirmishers", Verb::SkirmishersIn),
    ("screen in", Verb::SkirmishersIn),
    ("screen", Verb::Screen),
    ("attach", Verb::Attach),
    ("join", Verb::Attach),
    ("detach", Verb::Detach),
    ("reform", Verb::Reform),
    ("re-form", Verb::Reform),
    ("rest", Verb::Reform),
    ("dress ranks", Verb::Reform),
    ("reinforce", Verb::Reinforce),
    ("support", Verb::Reinforce),
    ("retreat", Verb::Retreat),
    ("retire", Verb::Retreat),
    ("fall back", Verb::Retreat),
    ("withdraw", Verb::Retreat),
    ("voluntary retreat", Verb::Retreat),
    ("embark", Verb::Embark),
    ("board", Verb::Embark),
    ("disembark", Verb::Disembark),
    ("land", Verb::Disembark),
];

/// The verbs that may begin a later step of a path.
pub const STEPS: &[(&str, Verb)] = &[
    ("forward", Verb::Forward),
    ("advance", Verb::Forward),
    ("fwd", Verb::Forward),
    ("ahead", Verb::Forward),
    ("backstep", Verb::Backstep),
    ("back", Verb::Backstep),
    ("backward", Verb::Backstep),
    ("backwards", Verb::Backstep),
    ("back step", Verb::Backstep),
    ("step back", Verb::Backstep),
    ("sidestep", Verb::Sidestep),
    ("side step", Verb::Sidestep),
    ("side-step", Verb::Sidestep),
    ("step", Verb::Sidestep),
    ("oblique", Verb::Oblique),
    ("obl", Verb::Oblique),
    ("wheel", Verb::Wheel),
    ("pivot", Verb::Wheel),
];

pub const SIDES: &[(&str, Side)] = &[
    ("left", Side::Left),
    ("right", Side::Right),
    ("l", Side::Left),
    ("r", Side::Right),
];

pub const FACINGS: &[(&str, Facing)] = &[
    ("left", Facing::Left),
    ("right", Facing::Right),
    ("about", Facing::About),
    ("rear", Facing::About),
    ("around", Facing::About),
    ("to the left", Facing::Left),
    ("to the right", Facing::Right),
    ("to the rear", Facing::About),
];

pub const FORMATIONS: &[(&str, Formation)] = &[
    ("line", Formation::Line),
    ("column", Formation::Column),
    ("square", Formation::Square),
    ("skirmish", Formation::Skirmish),
    ("l-left", Formation::LLeft),
    ("l-right", Formation::LRight),
    ("u", Formation::U),
    ("masse", Formation::Masse),
    ("limbered", Formation::Limbered),
    ("unlimbered", Formation::Unlimbered),
    ("col", Formation::Column),
    ("skirmishers", Formation::Skirmish),
    ("skirmish order", Formation::Skirmish),
    ("open order", Formation::Skirmish),
    ("l left", Formation::LLeft),
    ("l right", Formation::LRight),
    ("battalion masse", Formation::Masse),
    ("battalion-masse", Formation::Masse),
];

/// A move's road clause, when it follows the steps.
pub const ROAD: &[(&str, ())] = &[
    ("by road", ()),
    ("road", ()),
    ("along road", ()),
    ("along the road", ()),
    ("on road", ()),
];
/// Joins the steps of a path.
pub const THEN: &[(&str, ())] = &[(",", ()), ("then", ()), (", then", ()), ("and then", ())];
/// Joins the units of a list.
pub const AND: &[(&str, ())] = &[("and", ()), (",", ()), ("&", ()), (", and", ())];
pub const THROUGH: &[(&str, ())] = &[
    ("through", ()),
    ("thru", ()),
    ("interpenetrating", ()),
    ("passing through", ()),
];
pub const BACKWARD: &[(&str, ())] = &[("back", ()), ("backward", ()), ("backwards", ())];
pub const TO: &[(&str, ())] = &[("to", ()), ("towards", ()), ("toward", ())];
pub const FACING: &[(&str, ())] = &[
    ("facing", ()),
    ("facing towards", ()),
    ("facing toward", ()),
    ("face towards", ()),
    ("face toward", ()),
];
/// Introduces the facing change that goes with a formation change.
pub const FACE: &[(&str, ())] = &[
    ("face", ()),
    ("and face", ()),
    (", face", ()),
    ("facing", ()),
];
pub const INTO: &[(&str, ())] = &[("into", ()), ("in", ()), ("to", ())];
pub const AT: &[(&str, ())] = &[("at", ()), ("on", ())];
pub const SPLIT: &[(&str, ())] = &[
    ("split", ()),
    ("split fire", ()),
    ("split fire at", ()),
    ("split at", ()),
    ("and split", ()),
];
pub const THROUGH_SKIRMISHERS: &[(&str, ())] = &[
    ("through skirmishers", ()),
    ("through the skirmishers", ()),
    ("through screen", ()),
    ("through the screen", ()),
    ("over skirmishers", ()),
];
pub const AT_GUN: &[(&str, ())] = &[
    ("one die at gun", ()),
    ("one die at the gun", ()),
    ("one die at regimental gun", ()),
    ("one die at the regimental gun", ()),
    ("at regimental gun", ()),
    ("at the regimental gun", ()),
];
pub const DEGREE_WORDS: &[&str] = &["°", "deg", "degree", "degrees"];
pub const APPROACH_WHEEL: &[(&str, ())] = &[("wheel", ()), ("wheeling", ()), ("by wheel", ())];
pub const APPROACH_OBLIQUE: &[(&str, ())] =
    &[("oblique", ()), ("obliquing", ()), ("by oblique", ())];
pub const STRAIGHT: &[(&str, ())] = &[("straight", ()), ("straight ahead", ())];

/// The canonical words of a table, for "expected one of" messages.
pub fn canonical<T: PartialEq + Copy>(table: &[(&'static str, T)]) -> Vec<&'static str> {
    let mut seen: Vec<T> = Vec::new();
    let mut out = Vec::new();
    for (phrase, meaning) in table {
        if !seen.contains(meaning) {
            seen.push(*meaning);
            out.push(*phrase);
        }
    }
    out
}

/// Whether `word` is a word of any phrase of the language, so that a unit
/// with that id must be quoted where the grammar could read it as a keyword.
pub fn is_keyword(word: &str) -> bool {
    fn in_table<T>(table: &[(&str, T)], word: &str) -> bool {
        table.iter().any(|(p, _)| p.split(' ').any(|w| w == word))
    }
    in_table(VERBS, word)
        || in_table(SIDES, word)
        || in_table(FACINGS, word)
        || in_table(FORMATIONS, word)
        || [
            THEN,
            AND,
            THROUGH,
            BACKWARD,
            TO,
            FACING,
            FACE,
            INTO,
            AT,
            SPLIT,
            THROUGH_SKIRMISHERS,
            AT_GUN,
            APPROACH_WHEEL,
            APPROACH_OBLIQUE,
            STRAIGHT,
        ]
        .iter()
        .any(|t| in_table(t, word))
        || INCH_WORDS.contains(&word)
        || DEGREE_WORDS.contains(&word)
}

/// The line that shows how a verb is written, for hints.
pub fn example(verb: Verb) -> &'static str {
    match verb {
        Verb::Hold => "2-ligne: hold",
        Verb::Forward | Verb::Backstep | Verb::Sidestep | Verb::Oblique | Verb::Wheel => {
            "2-ligne: forward 2, wheel left 45, sidestep right 1.5"
        }
        Verb::Road => "2-ligne: by road forward 12",
        Verb::Form => "2-ligne: form column face left",
        Verb::Limber => "6-foot: limber",
        Verb::Unlimber => "6-foot: unlimber face right",
        Verb::Face | Verb::FaceLeft | Verb::FaceRight | Verb::FaceAbout => "2-ligne: face left",
        Verb::Manhandle => "6-foot: manhandle to 24,30 facing 3-ligne",
        Verb::MoveTo => "ney: move to 2-ligne",
        Verb::LeaveGuns => "6-foot: leave guns to 20,12",
        Verb::ManGuns => "6-foot: man guns",
        Verb::Charge => "5-hussards: charge 3-linie",
        Verb::Evade => "17-legere: evade into 2-ligne",
        Verb::Shoot => "2-ligne: shoot 3-linie split 4-linie",
        Verb::SkirmishersOut => "2-ligne: skirmishers out",
        Verb::SkirmishersIn => "2-ligne: skirmishers in",
        Verb::Screen => "9-legere: screen 1-ligne and 2-ligne",
        Verb::Attach => "ney: attach to 2-ligne",
        Verb::Detach => "ney: detach",
        Verb::Reform => "2-ligne: reform",
        Verb::Reinforce => "3-ligne: reinforce 2-ligne",
        Verb::Retreat => "2-ligne: retreat 6",
        Verb::Embark => "2-ligne: embark boat-1",
        Verb::Disembark => "2-ligne: disembark",
    }
}
