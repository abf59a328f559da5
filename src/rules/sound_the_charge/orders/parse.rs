//! Reading one line into an [`StcOrder`]. Forgiving in spelling (any case,
//! any spacing, synonyms, inches written many ways), strict in meaning:
//! every word must fit where it stands, and a word that does not is an error
//! naming what was expected there.

use super::words::{self, Token, Verb, is_word};
use super::{
    Approach, Facing, Formation, OrderSyntaxError, Place, Side, StcOrder, Step, UnitRef, Written,
};
use crate::rules::words::{Cursor, INCH_WORDS, MAX_NUMBER, ReadError, inches_in};

/// The most steps one path may have, and the most units one list may name.
const MAX_STEPS: usize = 20;
const MAX_LIST: usize = 12;
/// The longest unit reference read.
const MAX_REF_CHARS: usize = 100;

/// Reads one order line (syntax only).
pub fn parse(line: &str) -> Result<Written, OrderSyntaxError> {
    let tokens = words::tokenize(line).map_err(|e| {
        let hint = if e.column > words::MAX_LINE_CHARS {
            "2-ligne: forward 4"
        } else {
            "\"1er régiment\": forward 4"
        };
        OrderSyntaxError::of(e, hint)
    })?;
    let mut p = Parser {
        w: Cursor::from_tokens(tokens, line.chars().count() + 1),
        hint: "2-ligne: forward 4",
    };
    let (unit, colon) = p.subject()?;
    let Some(verb) = p.phrase(words::VERBS) else {
        let orders = words::canonical(words::VERBS).join(", ");
        let expected = match p.w.peek() {
            Some(next) if !colon => format!(
                "an order (if `{} {next}` is one unit's name, put a colon after it or quote it): {orders}",
                unit.0
            ),
            _ => format!("an order: {orders}"),
        };
        return Err(p.error(expected));
    };
    p.hint = words::example(verb);
    let order = p.order(unit, verb)?;
    p.finish(&[])?;
    Ok(order)
}

struct Parser {
    w: Cursor,
    /// An example of the order being read, for every error's hint.
    hint: &'static str,
}

/// Whether a word reads as a number of inches.
fn numeric(word: &str) -> Option<u32> {
    inches_in(word)
}

/// Whether a reference must be quoted where a unit is expected after the
/// verb: anything that does not read back as the same single word, or that
/// the grammar could read as a keyword or a number.
pub(super) fn needs_quotes(reference: &str) -> bool {
    match words::tokenize(reference).as_deref() {
        Ok([t]) if is_word(t) => {
            t.text != reference || words::is_keyword(&t.text) || numeric(&t.text).is_some()
        }
        _ => true,
    }
}

/// Whether a unit reference can stand bare before the colon.
pub(super) fn subject_needs_quotes(reference: &str) -> bool {
    let Ok(tokens) = words::tokenize(reference) else {
        return true;
    };
    let mut joined = Vec::new();
    for t in &tokens {
        if !is_word(t) {
            return true;
        }
        joined.push(t.text.as_str());
    }
    joined.is_empty() || joined.join(" ") != reference
}

impl Parser {
    fn at_end(&self) -> bool {
        self.w.is_done()
    }

    /// The next token if it is a bare word.
    fn word_here(&self) -> Option<&Token> {
        self.w.peek_token().filter(|t| is_word(t))
    }

    /// An error at the current token (or the end of the line): `expected`
    /// was wanted there.
    fn error(&self, expected: impl Into<String>) -> OrderSyntaxError {
        OrderSyntaxError::of(self.w.error(expected), self.hint)
    }

    /// An error at `token`.
    fn error_at(&self, token: &Token, expected: impl Into<String>) -> OrderSyntaxError {
        OrderSyntaxError::of(ReadError::at(token, expected), self.hint)
    }

    /// "expected X" at the current token, with the words allowed there.
    fn expected(&self, what: &str, allowed: &[&str]) -> OrderSyntaxError {
        if allowed.is_empty() {
            self.error(what)
        } else {
            self.error(format!("{what} ({})", allowed.join(", ")))
        }
    }

    /// Fails unless the line ends here; `allowed` lists what else could have
    /// come next.
    fn finish(&self, allowed: &[&str]) -> Result<(), OrderSyntaxError> {
        if self.at_end() {
            return Ok(());
        }
        let expected = match allowed {
            [] => "the end of the order".to_string(),
            _ => format!("{} or the end of the order", allowed.join(", ")),
        };
        Err(self.error(expected))
    }

    /// Takes the longest phrase of `table` found at the current token.
    fn phrase<T: Copy>(&mut self, table: &[(&str, T)]) -> Option<T> {
        self.w.eat_any(table)
    }

    fn flag(&mut self, table: &[(&str, ())]) -> bool {
        self.phrase(table).is_some()
    }

    /// Takes `n` tokens, already looked at.
    fn skip(&mut self, n: usize) {
        for _ in 0..n {
            self.w.next();
        }
    }

    /// The unit the order is for, and whether a colon or quotes ended it.
    fn subject(&mut self) -> Result<(UnitRef, bool), OrderSyntaxError> {
        let tokens = self.w.tokens().to_vec();
        let Some(first) = tokens.first() else {
            return Err(self.error("a unit, then an order"));
        };
        if first.quoted {
            self.check_ref(first, &first.text)?;
            self.skip(1);
            if tokens.get(1).is_some_and(|t| !t.quoted && t.text == ":") {
                self.skip(1);
            }
            return Ok((UnitRef(first.text.clone()), true));
        }
        if let Some(colon) = tokens.iter().position(|t| !t.quoted && t.text == ":") {
            if colon == 0 {
                return Err(self.error_at(first, "a unit's id or name before the `:`"));
            }
            let mut parts = Vec::new();
            for t in &tokens[..colon] {
                if !is_word(t) {
                    return Err(self.error_at(
                        t,
                        "a unit's name before the `:` without quotes or commas (quote the whole name)",
                    ));
                }
                parts.push(t.text.as_str());
            }
            let name = parts.join(" ");
            self.check_ref(first, &name)?;
            self.skip(colon + 1);
            return Ok((UnitRef(name), true));
        }
        if !is_word(first) {
            return Err(self.error_at(first, "a unit's id or name first"));
        }
        if self.w.clone().eat_any(words::VERBS).is_some() {
            return Err(self.error_at(
                first,
                "the unit the order is for, then a colon, before the order",
            ));
        }
        self.check_ref(first, &first.text)?;
        self.skip(1);
        Ok((UnitRef(first.text.clone()), false))
    }

    fn check_ref(&self, at: &Token, name: &str) -> Result<(), OrderSyntaxError> {
        if name.is_empty() {
            return Err(self.error_at(at, "a unit's id or name, not an empty one"));
        }
        if name.contains(['"', '\u{201c}', '\u{201d}', '\u{201e}']) {
            return Err(self.error_at(at, "a unit's id or name without quote marks"));
        }
        if name.chars().count() > MAX_REF_CHARS {
            return Err(self.error_at(
                at,
                format!("a unit's id or name of at most {MAX_REF_CHARS} characters"),
            ));
        }
        Ok(())
    }

    /// A unit named after the verb: one word, or a quoted name.
    fn unit_ref(&mut self, what: &str) -> Result<UnitRef, OrderSyntaxError> {
        let Some(t) = self.w.peek_token().cloned() else {
            return Err(self.expected(
                what,
                &["a unit's id", "a quoted name such as \"1er régiment\""],
            ));
        };
        if !t.quoted && !is_word(&t) {
            return Err(self.expected(
                what,
                &["a unit's id", "a quoted name such as \"1er régiment\""],
            ));
        }
        if !t.quoted && words::is_keyword(&t.text) {
            return Err(self.error(format!(
                "{what}, not an order word (quote a unit whose id is an order word)"
            )));
        }
        self.check_ref(&t, &t.text)?;
        self.skip(1);
        Ok(UnitRef(t.text))
    }

    /// One or more units, joined by `and` or commas.
    fn unit_list(&mut self, what: &str) -> Result<Vec<UnitRef>, OrderSyntaxError> {
        let mut list = vec![self.unit_ref(what)?];
        loop {
            let before = self.w.clone();
            if !self.flag(words::AND) {
                return Ok(list);
            }
            if list.len() >= MAX_LIST {
                self.w = before;
                return Err(self.error(format!(
                    "the end of the list (at most {MAX_LIST} units may be listed)"
                )));
            }
            list.push(self.unit_ref(what)?);
        }
    }

    fn side(&mut self) -> Result<Side, OrderSyntaxError> {
        self.phrase(words::SIDES)
            .ok_or_else(|| self.expected("a side", &["left", "right"]))
    }

    fn facing(&mut self) -> Result<Facing, OrderSyntaxError> {
        self.phrase(words::FACINGS)
            .ok_or_else(|| self.expected("a facing", &words::canonical(words::FACINGS)))
    }

    fn is_number_here(&self) -> bool {
        self.word_here().is_some_and(|t| numeric(&t.text).is_some())
    }

    /// A distance in inches, as hundredths: `4`, `2.5`, `2-1/2`, `2 1/2`,
    /// `3"`, `3 in`, `3 inches`.
    fn distance(&mut self) -> Result<u32, OrderSyntaxError> {
        let Some(at) = self.word_here().cloned() else {
            return Err(self.expected("a distance in inches", &["4", "2.5", "2-1/2", "3\"", "3in"]));
        };
        let w = at.text.as_str();
        let Some(mut value) = numeric(w) else {
            return Err(self.error(format!(
                "a distance in inches, written like `4`, `2.5`, `2-1/2` or `3\"` (at most two decimals, at most {MAX_NUMBER})"
            )));
        };
        self.skip(1);
        // `2 1/2`: a whole number followed by a fraction.
        if let Some(f) = self.word_here()
            && f.text.contains('/')
            && value % 100 == 0
            && !w.contains(|c: char| !c.is_ascii_digit())
            && let Some(part) = numeric(&f.text)
            && part < 100
        {
            value += part;
            self.skip(1);
        }
        if self
            .word_here()
            .is_some_and(|u| INCH_WORDS.contains(&u.text.as_str()))
        {
            self.skip(1);
        }
        if value == 0 {
            return Err(self.error_at(&at, "a distance of more than 0"));
        }
        Ok(value)
    }

    /// An angle in whole degrees, 1 to 180: `45`, `45°`, `45 deg`.
    fn degrees(&mut self) -> Result<u32, OrderSyntaxError> {
        let Some(w) = self.word_here().map(|t| t.text.clone()) else {
            return Err(self.expected("an angle in degrees", &["45", "90°"]));
        };
        let w = w.as_str();
        let digits = w
            .strip_suffix("degrees")
            .or_else(|| w.strip_suffix("deg"))
            .or_else(|| w.strip_suffix('°'))
            .unwrap_or(w);
        let value =
            (!digits.is_empty() && digits.len() <= 3 && digits.chars().all(|c| c.is_ascii_digit()))
                .then(|| digits.parse::<u32>().ok())
                .flatten();
        match value {
            Some(v) if (1..=180).contains(&v) => {
                self.skip(1);
                if self
                    .word_here()
                    .is_some_and(|u| words::DEGREE_WORDS.contains(&u.text.as_str()))
                {
                    self.skip(1);
                }
                Ok(v)
            }
            _ => Err(self.error("an angle in whole degrees from 1 to 180")),
        }
    }

    /// A spot: `x,y` in table inches, or a unit.
    fn place(&mut self, what: &str) -> Result<Place<UnitRef>, OrderSyntaxError> {
        if !self.is_number_here() {
            return self.unit_ref(what).map(Place::Unit);
        }
        let x = self.distance_or_zero()?;
        self.w.eat(",");
        if !self.is_number_here() {
            return Err(self.expected(
                "the second coordinate of a point (`x,y` in inches)",
                &["24,30", "12.5,8"],
            ));
        }
        let y = self.distance_or_zero()?;
        Ok(Place::Point { x, y })
    }

    fn distance_or_zero(&mut self) -> Result<u32, OrderSyntaxError> {
        let Some(w) = self.word_here() else {
            return Err(self.expected("a coordinate in inches", &["24", "12.5"]));
        };
        let value = numeric(&w.text).ok_or_else(|| self.error("a coordinate in inches"))?;
        self.skip(1);
        Ok(value)
    }

    /// One step of a path whose verb was just read.
    fn step(&mut self, verb: Verb) -> Result<Step, OrderSyntaxError> {
        Ok(match verb {
            Verb::Forward => Step::Forward {
                distance: self.distance()?,
            },
            Verb::Backstep => Step::Backstep {
                distance: self.distance()?,
            },
            Verb::Sidestep | Verb::Oblique => {
                let (side, distance) = if self.is_number_here() {
                    let d = self.distance()?;
                    (self.side()?, d)
                } else {
                    let s = self.side()?;
                    (s, self.distance()?)
                };
                if verb == Verb::Sidestep {
                    Step::Sidestep { side, distance }
                } else {
                    Step::Oblique { side, distance }
                }
            }
            _ => {
                let backward = self.flag(words::BACKWARD);
                let (side, degrees) = if self.is_number_here() {
                    let d = self.degrees()?;
                    (self.side()?, d)
                } else {
                    let s = self.side()?;
                    (s, self.degrees()?)
                };
                Step::Wheel {
                    side,
                    degrees,
                    backward,
                }
            }
        })
    }

    /// A move: `[by road] step, step, ... [through a and b] [by road]`.
    fn path(&mut self, unit: UnitRef, first: Verb) -> Result<Written, OrderSyntaxError> {
        let mut road = false;
        let mut verb = first;
        if verb == Verb::Road {
            road = true;
            verb = self.phrase(words::STEPS).ok_or_else(|| {
                self.expected("a step after `by road`", &words::canonical(words::STEPS))
            })?;
        }
        let mut steps = vec![self.step(verb)?];
        while self.flag(words::THEN) {
            if steps.len() >= MAX_STEPS {
                return Err(self.error(format!(
                    "the end of the path (a path has at most {MAX_STEPS} steps)"
                )));
            }
            let next = self.phrase(words::STEPS).ok_or_else(|| {
                self.expected("the next step of the path", &words::canonical(words::STEPS))
            })?;
            steps.push(self.step(next)?);
        }
        let mut through = Vec::new();
        if self.flag(words::THROUGH) {
            through = self.unit_list("the friendly unit moved through")?;
        }
        if !road && self.flag(words::ROAD) {
            road = true;
        }
        let mut allowed = vec!["`,` and the next step"];
        if through.is_empty() {
            allowed.push("through <unit>");
        } else {
            allowed.push("and <unit>");
        }
        if !road {
            allowed.push("by road");
        }
        self.finish(&allowed)?;
        Ok(StcOrder::Move {
            unit,
            road,
            steps,
            through,
        })
    }

    /// The facing change that may go with a formation change.
    fn form_facing(&mut self) -> Result<Option<Facing>, OrderSyntaxError> {
        if self.flag(words::FACE) {
            return self.facing().map(Some);
        }
        Ok(None)
    }

    fn toward(&mut self) -> Result<Option<Place<UnitRef>>, OrderSyntaxError> {
        if self.flag(words::FACING) {
            return self.place("the spot or unit to face").map(Some);
        }
        Ok(None)
    }

    fn order(&mut self, unit: UnitRef, verb: Verb) -> Result<Written, OrderSyntaxError> {
        let order = match verb {
            Verb::Hold => StcOrder::Hold { unit },
            Verb::Forward
            | Verb::Backstep
            | Verb::Sidestep
            | Verb::Oblique
            | Verb::Wheel
            | Verb::Road => return self.path(unit, verb),
            Verb::Form => {
                let formation = self.phrase(words::FORMATIONS).ok_or_else(|| {
                    self.expected("a formation", &words::canonical(words::FORMATIONS))
                })?;
                let facing = self.form_facing()?;
                self.finish_with(facing.is_none(), "face left|right|about")?;
                StcOrder::Form {
                    unit,
                    formation,
                    facing,
                }
            }
            Verb::Limber | Verb::Unlimber => {
                let facing = self.form_facing()?;
                self.finish_with(facing.is_none(), "face left|right|about")?;
                StcOrder::Form {
                    unit,
                    formation: if verb == Verb::Limber {
                        Formation::Limbered
                    } else {
                        Formation::Unlimbered
                    },
                    facing,
                }
            }
            Verb::Face => StcOrder::Face {
                unit,
                facing: self.facing()?,
            },
            Verb::FaceLeft => StcOrder::Face {
                unit,
                facing: Facing::Left,
            },
            Verb::FaceRight => StcOrder::Face {
                unit,
                facing: Facing::Right,
            },
            Verb::FaceAbout => StcOrder::Face {
                unit,
                facing: Facing::About,
            },
            Verb::Manhandle | Verb::MoveTo => {
                if !self.flag(words::TO) {
                    return Err(self.expected("`to` and a spot or unit", &["to"]));
                }
                let to = self.place("the spot or unit to move to")?;
                let toward = self.toward()?;
                self.finish_with(toward.is_none(), "facing <spot or unit>")?;
                if verb == Verb::Manhandle {
                    StcOrder::Manhandle { unit, to, toward }
                } else {
                    StcOrder::MoveTo { unit, to, toward }
                }
            }
            Verb::LeaveGuns => {
                let to = if self.flag(words::TO) {
                    Some(self.place("the spot or unit the gunners go to")?)
                } else {
                    None
                };
                self.finish_with(to.is_none(), "to <spot or unit>")?;
                StcOrder::LeaveGuns { unit, to }
            }
            Verb::ManGuns => StcOrder::ManGuns { unit },
            Verb::Charge => self.charge(unit)?,
            Verb::Evade => {
                let into = if self.flag(words::INTO) {
                    Some(self.unit_ref("the friendly square to evade into")?)
                } else {
                    None
                };
                self.finish_with(into.is_none(), "into <square>")?;
                StcOrder::Evade { unit, into }
            }
            Verb::Shoot => self.shoot(unit)?,
            Verb::SkirmishersOut => StcOrder::SkirmishersOut { unit },
            Verb::SkirmishersIn => StcOrder::SkirmishersIn { unit },
            Verb::Screen => StcOrder::Screen {
                unit,
                screened: self.unit_list("a unit to screen")?,
            },
            Verb::Attach => {
                self.flag(words::TO);
                StcOrder::Attach {
                    unit,
                    to: self.unit_ref("the unit to attach to")?,
                }
            }
            Verb::Detach => StcOrder::Detach { unit },
            Verb::Reform => StcOrder::Reform { unit },
            Verb::Reinforce => StcOrder::Reinforce {
                unit,
                friend: self.unit_ref("the friendly unit in combat to reinforce")?,
            },
            Verb::Retreat => {
                let distance = if self.at_end() {
                    None
                } else {
                    Some(self.distance()?)
                };
                StcOrder::Retreat { unit, distance }
            }
            Verb::Embark => {
                self.flag(words::INTO);
                StcOrder::Embark {
                    unit,
                    boat: self.unit_ref("the boat to embark in")?,
                }
            }
            Verb::Disembark => StcOrder::Disembark { unit },
        };
        Ok(order)
    }

    /// [`Parser::finish`] naming `clause` as allowed when it is still open.
    fn finish_with(&self, open: bool, clause: &str) -> Result<(), OrderSyntaxError> {
        if open {
            self.finish(&[clause])
        } else {
            self.finish(&[])
        }
    }

    /// `charge <target> [straight | wheel <side> | oblique <side>] [through <units>]`.
    fn charge(&mut self, unit: UnitRef) -> Result<Written, OrderSyntaxError> {
        let target = self.unit_ref("the unit to charge")?;
        let mut approach = None;
        let mut through = Vec::new();
        loop {
            if approach.is_none() {
                if self.flag(words::APPROACH_WHEEL) {
                    approach = Some(Approach::Wheel(self.side()?));
                    continue;
                }
                if self.flag(words::APPROACH_OBLIQUE) {
                    approach = Some(Approach::Oblique(self.side()?));
                    continue;
                }
                if self.flag(words::STRAIGHT) {
                    approach = Some(Approach::Straight);
                    continue;
                }
            }
            if through.is_empty() && self.flag(words::THROUGH) {
                through = self.unit_list("the friendly unit charged through")?;
                continue;
            }
            break;
        }
        let mut allowed = Vec::new();
        if approach.is_none() {
            allowed.extend(["wheel left|right", "oblique left|right"]);
        }
        if through.is_empty() {
            allowed.push("through <unit>");
        } else {
            allowed.push("and <unit>");
        }
        self.finish(&allowed)?;
        Ok(StcOrder::Charge {
            unit,
            target,
            approach: approach.unwrap_or(Approach::Straight),
            through,
        })
    }

    /// `shoot [at] <target> [split <target>] [through skirmishers] [one die at gun]`.
    fn shoot(&mut self, unit: UnitRef) -> Result<Written, OrderSyntaxError> {
        self.flag(words::AT);
        let target = self.unit_ref("the unit to shoot at")?;
        let mut split = None;
        let mut through_skirmishers = false;
        let mut at_regimental_gun = false;
        loop {
            if split.is_none() && self.flag(words::SPLIT) {
                split = Some(self.unit_ref("the second target of split fire")?);
                continue;
            }
            if !through_skirmishers && self.flag(words::THROUGH_SKIRMISHERS) {
                through_skirmishers = true;
                continue;
            }
            if !at_regimental_gun && self.flag(words::AT_GUN) {
                at_regimental_gun = true;
                continue;
            }
            break;
        }
        let mut allowed = Vec::new();
        if split.is_none() {
            allowed.push("split <unit>");
        }
        if !through_skirmishers {
            allowed.push("through skirmishers");
        }
        if !at_regimental_gun {
            allowed.push("one die at gun");
        }
        self.finish(&allowed)?;
        Ok(StcOrder::Shoot {
            unit,
            target,
            split,
            through_skirmishers,
            at_regimental_gun,
        })
    }
}
