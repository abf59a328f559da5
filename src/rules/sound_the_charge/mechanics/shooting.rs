//! The shooting attack: Shooting, General Rules, and the Shooting Table.

use serde::Serialize;

use super::super::tables::{
    self, Arm, FireRow, Grade, Nation, RangeBand, TableFormation, Troop, to_hit,
};
use super::super::umpire::syntax::{
    FlagWord, GRADE_KEY, KeyWord, Lexicon, NATION_KEY, Reading, push_flags, tokens,
};
use super::super::umpire::{grade_of, nation_of};
use crate::audit::dice::{Dice, Die};
use crate::rules::kernel::{Modifier, total};
use crate::rules::umpire::UmpireError;
use crate::rules::umpire::{Called, Trace, forbidden};

pub(in super::super) static LEXICON: Lexicon = Lexicon {
    call: "shoot",
    keys: &[
        GRADE_KEY,
        KeyWord {
            name: "range",
            hint: "<inches>",
            aliases: &["at", "distance"],
        },
        KeyWord {
            name: "gunners",
            hint: "<figures>",
            aliases: &["crew"],
        },
        NATION_KEY,
    ],
    flags: &[
        FlagWord {
            name: "moved",
            aliases: &["moving"],
        },
        FlagWord {
            name: "disordered",
            aliases: &[],
        },
        FlagWord {
            name: "limbered",
            aliases: &[],
        },
        FlagWord {
            name: "charging",
            aliases: &["charged"],
        },
        FlagWord {
            name: "shaken",
            aliases: &[],
        },
        FlagWord {
            name: "dense",
            aliases: &[
                "dense-target",
                "target-dense",
                "target-square",
                "target-in-square",
                "enfiladed",
            ],
        },
        FlagWord {
            name: "artillery",
            aliases: &[
                "target-artillery",
                "target-guns",
                "target-battery",
                "artillery-target",
            ],
        },
        FlagWord {
            name: "soft-cover",
            aliases: &["target-soft-cover"],
        },
        FlagWord {
            name: "screened",
            aliases: &["screen", "through-screen", "through-skirmishers"],
        },
        FlagWord {
            name: "hard-cover",
            aliases: &["target-hard-cover"],
        },
        FlagWord {
            name: "skirmishing",
            aliases: &["skirmishers", "target-skirmishing", "target-skirmishers"],
        },
    ],
    fillers: &["shoot", "shooting", "fire", "firing", "target", "vs"],
    kinds: true,
    bare: std::marker::PhantomData,
    formations: true,
    count: Some("front-rank infantry figures or gun models"),
};

/// The target's state, as the Modifiers to Hit ask about it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct ShootingTarget {
    /// Dense Targets: "two or more ranks of figures deep, or enfiladed at
    /// 22.5° onto its flank, or in square".
    pub dense: bool,
    pub artillery: bool,
    pub soft_cover: bool,
    pub screened: bool,
    pub hard_cover: bool,
    pub skirmishing: bool,
}

/// A checked shooting call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShootingCall {
    /// Front-rank infantry figures, or gun models.
    pub figures: u32,
    pub troop: Troop,
    pub grade: Grade,
    /// Hundredths of an inch.
    pub range: u32,
    /// Gunner figures with the battery; `None` for full crews.
    pub gunners: Option<u32>,
    pub nation: Option<Nation>,
    pub formation: Option<TableFormation>,
    pub moved: bool,
    pub disordered: bool,
    pub limbered: bool,
    pub charging: bool,
    pub shaken: bool,
    pub target: ShootingTarget,
}

/// What the shooting came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShootingResult {
    pub band: RangeBand,
    pub dice: u32,
    /// The band's score before modifiers.
    pub base_needed: i32,
    /// The sum of the modifiers to hit.
    pub modifier: i32,
    /// The score each die needs: `base_needed - modifier`.
    pub needed: i32,
    pub rolls: Vec<u32>,
    pub hits: u32,
}

impl ShootingCall {
    pub fn parse(text: &str) -> Result<ShootingCall, UmpireError> {
        let r = LEXICON.read(text, &tokens(text), None)?;
        ShootingCall::from_reading(&r)
    }

    fn from_reading(r: &Reading) -> Result<ShootingCall, UmpireError> {
        let Some(troop) = r.kind else {
            if r.has("artillery") {
                return Err(r.syntax(
                    "name the firing guns: light-guns, field-guns or heavy-guns (`artillery` alone names the target)",
                ));
            }
            return Err(r.syntax(
                "name the firing troops: `<figures> line-infantry` (front rank) or `<models> field-guns`",
            ));
        };
        let Some(figures) = r.count else {
            return Err(r.syntax(format!(
                "give the number of {} before `{}`",
                if troop.arm() == Arm::Artillery {
                    "gun models"
                } else {
                    "front-rank figures"
                },
                troop.word()
            )));
        };
        if figures == 0 {
            return Err(r.syntax("the firing unit needs at least one figure or gun model"));
        }
        if troop == Troop::Artillery {
            return Err(
                r.syntax("say which guns: light-guns, field-guns or heavy-guns (Shooting Table)")
            );
        }
        let grade = grade_of(r)?;
        let Some(range) = r.inches_value("range")? else {
            return Err(r.syntax("give the range in inches: `range 3`"));
        };
        r.exclusive(&["soft-cover", "hard-cover"])?;
        Ok(ShootingCall {
            figures,
            troop,
            grade,
            range,
            gunners: r.number_value("gunners")?,
            nation: nation_of(r)?,
            formation: r.formation,
            moved: r.has("moved"),
            disordered: r.has("disordered"),
            limbered: r.has("limbered"),
            charging: r.has("charging"),
            shaken: r.has("shaken"),
            target: ShootingTarget {
                dense: r.has("dense"),
                artillery: r.has("artillery"),
                soft_cover: r.has("soft-cover"),
                screened: r.has("screened"),
                hard_cover: r.has("hard-cover"),
                skirmishing: r.has("skirmishing"),
            },
        })
    }

    /// The call in canonical form: fixed word order, lower case.
    pub fn canonical(&self) -> String {
        let mut w = vec![
            "shoot".to_string(),
            self.figures.to_string(),
            self.troop.word().to_string(),
            "grade".to_string(),
            self.grade.word().to_string(),
            "range".to_string(),
            tables::inches_text(self.range),
        ];
        if let Some(g) = self.gunners {
            w.push(format!("gunners {g}"));
        }
        if let Some(n) = self.nation {
            w.push(format!("nation {}", n.word()));
        }
        if let Some(f) = self.formation {
            w.push(f.word().to_string());
        }
        push_flags(
            &mut w,
            &[
                (self.moved, "moved"),
                (self.disordered, "disordered"),
                (self.limbered, "limbered"),
                (self.charging, "charging"),
                (self.shaken, "shaken"),
            ],
        );
        let t = &self.target;
        let target: Vec<&str> = [
            (t.dense, "dense"),
            (t.artillery, "artillery"),
            (t.soft_cover, "soft-cover"),
            (t.screened, "screened"),
            (t.hard_cover, "hard-cover"),
            (t.skirmishing, "skirmishing"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, word)| *word)
        .collect();
        if !target.is_empty() {
            w.push("target".to_string());
            w.extend(target.iter().map(|s| s.to_string()));
        }
        w.join(" ")
    }

    /// The firing unit as dice purposes and reports name it.
    fn unit(&self) -> String {
        format!("{} {}", self.figures, self.troop.word())
    }

    fn is_guns(&self) -> bool {
        self.troop.arm() == Arm::Artillery
    }

    /// Shooting, General Rules: who may not shoot.
    fn check(&self, row: Option<FireRow>) -> Result<FireRow, UmpireError> {
        const GENERAL: &str = "Shooting, General Rules";
        if self.troop.arm() == Arm::Cavalry {
            return Err(forbidden(
                "cavalry may not shoot",
                GENERAL,
                "Cavalry may not shoot.",
            ));
        }
        let Some(row) = row else {
            return Err(forbidden(
                "these troops have no row in the Shooting Table",
                "Shooting Table",
                "",
            ));
        };
        if self.charging {
            return Err(forbidden(
                "a charging unit may not shoot",
                GENERAL,
                "Charging units may not shoot.",
            ));
        }
        if self.shaken {
            return Err(forbidden(
                "a shaken unit may not shoot",
                GENERAL,
                "Shaken units may not shoot.",
            ));
        }
        if self.formation == Some(TableFormation::Square) && self.moved {
            return Err(forbidden(
                "a square cannot have moved",
                "Movement",
                "Squares may not move.",
            ));
        }
        if self.formation == Some(TableFormation::Skirmish) && self.troop == Troop::LineInfantry {
            return Err(forbidden(
                "line infantry cannot skirmish",
                "Formations",
                "Skirmish: A loose-order formation possible only to light infantry troops.",
            ));
        }
        if self.is_guns() {
            if self.limbered {
                return Err(forbidden(
                    "limbered guns may not shoot",
                    GENERAL,
                    "roll [...] one die per unlimbered gun model",
                ));
            }
            if self.moved {
                return Err(forbidden(
                    "guns that moved may not shoot",
                    GENERAL,
                    "Artillery may not move and shoot.",
                ));
            }
            if self.gunners.is_some_and(|g| g < 2) {
                return Err(forbidden(
                    "no gun model has the two gunners it needs",
                    GENERAL,
                    "A gun model needs two gunners to shoot.",
                ));
            }
        } else if self.target.screened {
            return Err(forbidden(
                "infantry may not shoot through a skirmish screen",
                "Shooting Through Skirmishers",
                "Infantry may not shoot through skirmishers.",
            ));
        }
        if tables::range_band(row, self.range).is_none() {
            return Err(UmpireError::Forbidden {
                problem: format!(
                    "the target is out of range: the far range of {} is {} inches, the target is {} inches away",
                    row.fire.to_lowercase(),
                    row.far,
                    tables::inches_text(self.range)
                ),
                clause: format!(
                    "Shooting Table: \"{} {} / {}\"",
                    row.fire, row.close, row.far
                ),
            });
        }
        Ok(row)
    }

    /// Shooting Table, Modifiers to Hit, plus the national ones (ruling
    /// STC-2). Different rows add up; a row counts once however many of its
    /// conditions hold (ruling STC-11).
    fn modifiers(&self, trace: &mut Trace) -> Vec<Modifier> {
        let mut m = Vec::new();
        match self.grade {
            Grade::A | Grade::B => m.push(Modifier::new(to_hit::GRADE_A_B, 1)),
            Grade::D => m.push(Modifier::new(to_hit::GRADE_D, -1)),
            Grade::C => {}
        }
        let t = &self.target;
        if t.dense {
            if self.is_guns() {
                m.push(Modifier::new(to_hit::DENSE, 1));
            } else {
                trace.note("dense target: only artillery gains \"Artillery vs. dense target: +1\"");
            }
        }
        if self.moved {
            // Guns that moved were refused in `check`.
            m.push(Modifier::new(to_hit::MOVED, -1));
        }
        if self.disordered && self.is_guns() {
            trace.note("disordered: \"Note that atty. is never disordered\", so guns take no -1 (ruling STC-14)");
        } else if self.disordered || self.formation == Some(TableFormation::Square) {
            m.push(Modifier::new(to_hit::DISORDERED_OR_SQUARE, -1));
        }
        if t.soft_cover || t.screened || (t.artillery && !t.hard_cover) {
            m.push(Modifier::new(to_hit::SOFT, -1));
        }
        if t.hard_cover || t.skirmishing {
            m.push(Modifier::new(to_hit::HARD, -2));
        }
        match self.nation {
            Some(Nation::Britain) if !self.is_guns() => {
                if self.disordered {
                    trace.note("Britain: disordered infantry is not steady, so no +1 to hit");
                } else {
                    m.push(Modifier::new(to_hit::BRITISH, 1));
                }
            }
            Some(Nation::Russia) => m.push(Modifier::new(to_hit::RUSSIAN, -1)),
            _ => {}
        }
        if self.limbered && !self.is_guns() {
            trace.note("limbered: only guns limber; no effect on infantry");
        }
        m
    }
}

/// Resolves a shooting attack.
pub fn resolve(
    call: &ShootingCall,
    dice: &mut dyn Dice,
) -> Result<Called<ShootingResult>, UmpireError> {
    let row = call.check(tables::fire_row(call.troop))?;
    let mut trace = Trace::default();
    let band = tables::range_band(row, call.range).unwrap_or(RangeBand::Far);
    let (band_word, base_needed) = match band {
        RangeBand::Close => ("close", tables::SHOOT_CLOSE_NEEDED),
        RangeBand::Far => ("far", tables::SHOOT_FAR_NEEDED),
    };
    trace.lookup(
        "Shooting Table",
        format!(
            "{}, range {} inches (close {} / far {})",
            row.fire,
            tables::inches_text(call.range),
            row.close,
            row.far
        ),
        format!("{band_word}: {}", tables::needed_text(base_needed)),
    );
    if call.is_guns() && row.fire != tables::MUSKETRY.fire {
        trace.note(
            "the guns rows print no score to hit; the musketry bands carry down (ruling STC-1)",
        );
    }
    let dice_count = if call.is_guns() {
        let gunners = call.gunners.unwrap_or(call.figures * 2);
        let n = tables::gun_dice(call.figures, gunners);
        let row = match call.gunners {
            Some(g) => format!(
                "{} unlimbered gun models, {g} gunners: one die per gun model with two gunners",
                call.figures
            ),
            None => format!(
                "{} unlimbered gun models, crews complete: one die per gun model",
                call.figures
            ),
        };
        trace.lookup("Shooting, dice", row, format!("{n} dice"));
        n
    } else {
        let n = tables::musketry_dice(call.figures);
        trace.lookup(
            "Shooting, dice",
            format!(
                "{} front-rank infantry figures: one die per four, a final remainder of three rounds up",
                call.figures
            ),
            format!("{n} dice"),
        );
        n
    };
    let modifiers = call.modifiers(&mut trace);
    for m in &modifiers {
        trace.modifier(m);
    }
    let modifier = total(&modifiers);
    let needed = base_needed - modifier;
    trace.note(format!(
        "each die needs {} ({} base, {modifier:+})",
        tables::needed_text(needed),
        tables::needed_text(base_needed)
    ));
    if needed > 6 {
        trace.note("no score can hit; the dice are rolled and logged all the same (ruling STC-10)");
    }
    let unit = call.unit();
    let mut rolls = Vec::new();
    for i in 1..=dice_count {
        let purpose = format!("shooting: {unit}, die {i} of {dice_count}");
        rolls.push(trace.roll(dice, Die::D6, &purpose));
    }
    let hits = rolls
        .iter()
        .filter(|&&v| i64::from(v) >= i64::from(needed))
        .count();
    let hits = u32::try_from(hits).unwrap_or(u32::MAX);
    let mut outcome = format!(
        "{unit} (grade {}) at {} inches, {band_word} range: {} {} needing {}",
        call.grade.letter(),
        tables::inches_text(call.range),
        dice_count,
        if dice_count == 1 { "die" } else { "dice" },
        tables::needed_text(needed)
    );
    if !rolls.is_empty() {
        let shown: Vec<String> = rolls.iter().map(u32::to_string).collect();
        outcome.push_str(&format!(" rolled {}", shown.join(", ")));
    }
    match hits {
        0 => outcome.push_str(": no hits, so no morale test."),
        1 => outcome.push_str(": 1 hit. The target takes a shooting morale test."),
        n => outcome.push_str(&format!(
            ": {n} hits. The target takes a shooting morale test."
        )),
    }
    if hits > 0 && call.target.artillery {
        outcome.push_str(" Each hit removes one gunner figure.");
    }
    trace.outcome = outcome;
    let result = ShootingResult {
        band,
        dice: dice_count,
        base_needed,
        modifier,
        needed,
        rolls,
        hits,
    };
    Ok(trace.finish(call.canonical(), result))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::dice::ForcedDice;

    fn shoot(text: &str, dice: &[u32]) -> Result<ShootingResult, UmpireError> {
        let mut d = ForcedDice::new(dice.iter().copied());
        let called = resolve(&ShootingCall::parse(text)?, &mut d)?;
        assert!(d.problems().is_empty(), "{:?}", d.problems());
        Ok(called.result)
    }

    #[test]
    fn grade_b_line_at_far_range_that_moved() {
        let r = shoot(
            "shoot 12 line-infantry grade B range 3 moved target soft-cover",
            &[5, 4, 6],
        )
        .unwrap();
        assert_eq!(r.band, RangeBand::Far);
        assert_eq!(r.dice, 3);
        assert_eq!(r.needed, 6);
        assert_eq!(r.hits, 1);
    }

    #[test]
    fn canonical_form_is_stable() {
        let a =
            ShootingCall::parse("SHOOT target soft cover moved range 3\" grade=b 12 line infantry")
                .unwrap();
        let b = ShootingCall::parse(&a.canonical()).unwrap();
        assert_eq!(a, b);
        assert_eq!(
            a.canonical(),
            "shoot 12 line-infantry grade b range 3 moved target soft-cover"
        );
    }
}
