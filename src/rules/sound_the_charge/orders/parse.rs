//! Reading one line into an [`StcOrder`]. Forgiving in spelling (any case,
//! any spacing, synonyms, inches written many ways), strict in meaning:
//! every word must fit where it stands, and a word that does not is an error
//! naming what was expected there.

use super::words::{self, Tok, Token, Verb};
use super::{
    Approach, Facing, Formation, OrderSyntaxError, Place, Side, StcOrder, Step, UnitRef, Written,
};
use crate::rules::words::{INCH_WORDS, MAX_NUMBER, inches_in};

/// The most steps one path may have, and the most units one list may name.
const MAX_STEPS: usize = 20;
const MAX_LIST: usize = 12;
/// The longest unit reference read.
const MAX_REF_CHARS: usize = 100;

/// Reads one order line (syntax only).
pub fn parse(line: &str) -> Result<Written, OrderSyntaxError> {
    let tokens = words::tokenize(line)?;
    let mut p = Parser {
        toks: &tokens,
        pos: 0,
        end_column: line.chars().count() + 1,
        hint: "2-ligne: forward 4",
    };
    let (unit, colon) = p.subject()?;
    let Some(verb) = p.phrase(words::VERBS) else {
        let mut message = if p.at_end() {
            "expected an order after the unit".to_string()
        } else {
            format!("`{}` is not an order", p.shown())
        };
        message.push_str(&format!(
            "; the orders are: {}",
            words::canonical(words::VERBS).join(", ")
        ));
        if !colon && !p.at_end() {
            message.push_str(&format!(
                " (if `{} {}` is one unit's name, put a colon after it or quote it)",
                unit.0,
                p.shown()
            ));
        }
        return Err(p.error(message));
    };
    p.hint = words::example(verb);
    let order = p.order(unit, verb)?;
    p.finish(&[])?;
    Ok(order)
}

struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    end_column: usize,
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
        Ok(
            [
                Token {
                    tok: Tok::Word(w), ..
                },
            ],
        ) => w != reference || words::is_keyword(w) || numeric(w).is_some(),
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
        match &t.tok {
            Tok::Word(w) => joined.push(w.as_str()),
            _ => return true,
        }
    }
    joined.is_empty() || joined.join(" ") != reference
}

impl Parser<'_> {
    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    fn shown(&self) -> String {
        self.toks
            .get(self.pos)
            .map_or(String::new(), |t| t.shown.clone())
    }

    /// An error at the current token (or the end of the line).
    fn error(&self, message: impl Into<String>) -> OrderSyntaxError {
        self.error_at(self.pos, message)
    }

    fn error_at(&self, pos: usize, message: impl Into<String>) -> OrderSyntaxError {
        let (column, word) = match self.toks.get(pos) {
            Some(t) => (t.column, t.shown.clone()),
            None => (self.end_column, String::new()),
        };
        OrderSyntaxError {
            column,
            word,
            message: message.into(),
            hint: self.hint.to_string(),
        }
    }

    /// "expected X" at the current token, listing the allowed words.
    fn expected(&self, what: &str, allowed: &[&str]) -> OrderSyntaxError {
        let found = if self.at_end() {
            String::new()
        } else {
            format!(" but found `{}`", self.shown())
        };
        let mut message = format!("expected {what}{found}");
        if !allowed.is_empty() {
            message.push_str(&format!("; allowed here: {}", allowed.join(", ")));
        }
        self.error(message)
    }

    /// Fails unless the line ends here; `allowed` lists what else could have
    /// come next.
    fn finish(&self, allowed: &[&str]) -> Result<(), OrderSyntaxError> {
        if self.at_end() {
            return Ok(());
        }
        let mut all: Vec<&str> = allowed.to_vec();
        all.push("the end of the order");
        Err(self.error(format!(
            "unexpected `{}`; expected {}",
            self.shown(),
            all.join(", ")
        )))
    }

    /// Takes the longest phrase of `table` found at the current token.
    fn phrase<T: Copy>(&mut self, table: &[(&str, T)]) -> Option<T> {
        let mut best: Option<(usize, T)> = None;
        for (phrase, meaning) in table {
            let parts: Vec<&str> = phrase.split(' ').collect();
            let fits = parts.iter().enumerate().all(|(k, part)| {
                match self.toks.get(self.pos + k).map(|t| &t.tok) {
                    Some(Tok::Word(w)) => w == part,
                    Some(Tok::Comma) => *part == ",",
                    _ => false,
                }
            });
            if fits && best.is_none_or(|(len, _)| parts.len() > len) {
                best = Some((parts.len(), *meaning));
            }
        }
        let (len, meaning) = best?;
        self.pos += len;
        Some(meaning)
    }

    fn flag(&mut self, table: &[(&str, ())]) -> bool {
        self.phrase(table).is_some()
    }

    /// The unit the order is for, and whether a colon or quotes ended it.
    fn subject(&mut self) -> Result<(UnitRef, bool), OrderSyntaxError> {
        let Some(first) = self.toks.first() else {
            return Err(self.error("an empty line is not an order; expected a unit, then an order"));
        };
        if let Tok::Quoted(name) = &first.tok {
            self.check_ref(0, name)?;
            self.pos = 1;
            if matches!(self.toks.get(1).map(|t| &t.tok), Some(Tok::Colon)) {
                self.pos = 2;
            }
            return Ok((UnitRef(name.clone()), true));
        }
        if let Some(colon) = self.toks.iter().position(|t| t.tok == Tok::Colon) {
            if colon == 0 {
                return Err(self.error_at(0, "expected a unit's id or name before the `:`"));
            }
            let mut parts = Vec::new();
            for (k, t) in self.toks[..colon].iter().enumerate() {
                match &t.tok {
                    Tok::Word(w) => parts.push(w.as_str()),
                    _ => {
                        return Err(self.error_at(
                            k,
                            "a unit's name before the `:` may not hold quotes or commas; quote the whole name",
                        ));
                    }
                }
            }
            let name = parts.join(" ");
            self.check_ref(0, &name)?;
            self.pos = colon + 1;
            return Ok((UnitRef(name), true));
        }
        let Tok::Word(word) = &first.tok else {
            return Err(self.error_at(0, "expected a unit's id or name first"));
        };
        if self.phrase(words::VERBS).is_some() {
            self.pos = 0;
            return Err(self.error(format!(
                "`{}` is an order, but an order begins with the unit it is for, then a colon",
                first.shown
            )));
        }
        self.check_ref(0, word)?;
        self.pos = 1;
        Ok((UnitRef(word.clone()), false))
    }

    fn check_ref(&self, pos: usize, name: &str) -> Result<(), OrderSyntaxError> {
        if name.is_empty() {
            return Err(self.error_at(pos, "a unit's name may not be empty"));
        }
        if name.contains(['"', '\u{201c}', '\u{201d}', '\u{201e}']) {
            return Err(self.error_at(pos, "a unit's id or name may not hold quote marks"));
        }
        if name.chars().count() > MAX_REF_CHARS {
            return Err(self.error_at(
                pos,
                format!("a unit's id or name is at most {MAX_REF_CHARS} characters"),
            ));
        }
        Ok(())
    }

    /// A unit named after the verb: one word, or a quoted name.
    fn unit_ref(&mut self, what: &str) -> Result<UnitRef, OrderSyntaxError> {
        let found = match self.toks.get(self.pos).map(|t| &t.tok) {
            Some(Tok::Quoted(name)) => name.clone(),
            Some(Tok::Word(w)) if !words::is_keyword(w) => w.clone(),
            Some(Tok::Word(_)) => {
                return Err(self.error(format!(
                    "expected {what} but found the order word `{}`; quote a unit whose id is an order word",
                    self.shown()
                )));
            }
            _ => {
                return Err(self.expected(
                    what,
                    &["a unit's id", "a quoted name such as \"1er régiment\""],
                ));
            }
        };
        self.check_ref(self.pos, &found)?;
        self.pos += 1;
        Ok(UnitRef(found))
    }

    /// One or more units, joined by `and` or commas.
    fn unit_list(&mut self, what: &str) -> Result<Vec<UnitRef>, OrderSyntaxError> {
        let mut list = vec![self.unit_ref(what)?];
        loop {
            let before = self.pos;
            if !self.flag(words::AND) {
                return Ok(list);
            }
            if list.len() >= MAX_LIST {
                self.pos = before;
                return Err(self.error(format!("at most {MAX_LIST} units may be listed")));
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
        matches!(self.toks.get(self.pos).map(|t| &t.tok), Some(Tok::Word(w)) if numeric(w).is_some())
    }

    /// A distance in inches, as hundredths: `4`, `2.5`, `2-1/2`, `2 1/2`,
    /// `3"`, `3 in`, `3 inches`.
    fn distance(&mut self) -> Result<u32, OrderSyntaxError> {
        let Some(Tok::Word(w)) = self.toks.get(self.pos).map(|t| &t.tok) else {
            return Err(self.expected("a distance in inches", &["4", "2.5", "2-1/2", "3\"", "3in"]));
        };
        let Some(mut value) = numeric(w) else {
            return Err(self.error(format!(
                "expected a distance in inches but found `{}`; write it like `4`, `2.5`, `2-1/2` or `3\"` (at most two decimals, at most {MAX_NUMBER})",
                self.shown()
            )));
        };
        let at = self.pos;
        self.pos += 1;
        // `2 1/2`: a whole number followed by a fraction.
        if let Some(Tok::Word(f)) = self.toks.get(self.pos).map(|t| &t.tok)
            && f.contains('/')
            && value % 100 == 0
            && !w.contains(|c: char| !c.is_ascii_digit())
            && let Some(part) = numeric(f)
            && part < 100
        {
            value += part;
            self.pos += 1;
        }
        if let Some(Tok::Word(u)) = self.toks.get(self.pos).map(|t| &t.tok)
            && INCH_WORDS.contains(&u.as_str())
        {
            self.pos += 1;
        }
        if value == 0 {
            return Err(self.error_at(at, "a distance must be more than 0"));
        }
        Ok(value)
    }

    /// An angle in whole degrees, 1 to 180: `45`, `45°`, `45 deg`.
    fn degrees(&mut self) -> Result<u32, OrderSyntaxError> {
        let Some(Tok::Word(w)) = self.toks.get(self.pos).map(|t| &t.tok) else {
            return Err(self.expected("an angle in degrees", &["45", "90°"]));
        };
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
                self.pos += 1;
                if let Some(Tok::Word(u)) = self.toks.get(self.pos).map(|t| &t.tok)
                    && words::DEGREE_WORDS.contains(&u.as_str())
                {
                    self.pos += 1;
                }
                Ok(v)
            }
            _ => Err(self.error(format!(
                "expected an angle in whole degrees from 1 to 180 but found `{}`",
                self.shown()
            ))),
        }
    }

    /// A spot: `x,y` in table inches, or a unit.
    fn place(&mut self, what: &str) -> Result<Place<UnitRef>, OrderSyntaxError> {
        if !self.is_number_here() {
            return self.unit_ref(what).map(Place::Unit);
        }
        let x = self.distance_or_zero()?;
        if matches!(self.toks.get(self.pos).map(|t| &t.tok), Some(Tok::Comma)) {
            self.pos += 1;
        }
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
        let Some(Tok::Word(w)) = self.toks.get(self.pos).map(|t| &t.tok) else {
            return Err(self.expected("a coordinate in inches", &["24", "12.5"]));
        };
        let value = numeric(w).ok_or_else(|| self.error("expected a coordinate in inches"))?;
        self.pos += 1;
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
                return Err(self.error(format!("a path has at most {MAX_STEPS} steps")));
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
        let mut allowed = vec![", (the next step)"];
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
