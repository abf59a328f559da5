//! A round of close combat between two units: Close Combat, Combat Points
//! and Modifiers to Combat Points, Scores to Hit in Combat, Dice in Combat,
//! Combat Results, Artillery in Combat, Cavalry Bouncing off Squares,
//! Skirmishers in Combat, and the national and optional rules that touch
//! them.

use serde::Serialize;

use super::super::tables::{self, Arm, Grade, Nation, TableFormation, Troop, points};
use super::super::umpire::syntax::{
    FlagWord, GRADE_KEY, Lexicon, NATION_KEY, Reading, WIDER_BASING_FLAG, push_flags, tokens,
};
use super::super::umpire::{grade_of, nation_of};
use crate::audit::dice::{Dice, Die};
use crate::rules::kernel::{Modifier, total};
use crate::rules::umpire::UmpireError;
use crate::rules::umpire::{Called, Trace, forbidden};

/// The words of one side of a combat call. `continuing` and `wider-basing`
/// belong to the whole call and may be written on either side.
pub(in super::super) static LEXICON: Lexicon = Lexicon {
    call: "combat",
    keys: &[GRADE_KEY, NATION_KEY],
    flags: &[
        FlagWord {
            name: "disordered",
            aliases: &[],
        },
        FlagWord {
            name: "shaken",
            aliases: &[],
        },
        FlagWord {
            name: "flank-rear",
            aliases: &[
                "flank",
                "rear",
                "flanked",
                "flank-attack",
                "rear-attack",
                "flank-or-rear",
                "under-flank-rear-attack",
            ],
        },
        FlagWord {
            name: "opposite-sides",
            aliases: &["attacked-from-opposite-sides", "surrounded"],
        },
        FlagWord {
            name: "general-attached",
            aliases: &["general", "with-general", "attached-general"],
        },
        FlagWord {
            name: "no-general",
            aliases: &["no-general-in-cr", "out-of-command", "no-cr"],
        },
        FlagWord {
            name: "elite",
            aliases: &[],
        },
        FlagWord {
            name: "blown",
            aliases: &["blown-cavalry"],
        },
        FlagWord {
            name: "stationary",
            aliases: &["stationary-cavalry"],
        },
        FlagWord {
            name: "up-steep-slope",
            aliases: &["steep-slope", "uphill", "up-slope"],
        },
        FlagWord {
            name: "soft-cover",
            aliases: &["in-soft-cover"],
        },
        FlagWord {
            name: "hard-cover",
            aliases: &["in-hard-cover"],
        },
        FlagWord {
            name: "disordering-terrain",
            aliases: &["in-disordering-terrain", "difficult-terrain"],
        },
        FlagWord {
            name: "continuing",
            aliases: &["continuing-combat", "ongoing"],
        },
        WIDER_BASING_FLAG,
    ],
    fillers: &[
        "combat",
        "close-combat",
        "melee",
        "attacker",
        "defender",
        "charges",
        "charging",
    ],
    kinds: true,
    bare: std::marker::PhantomData,
    formations: true,
    count: Some("figures in the first two ranks, or gun models"),
};

/// Words that part the attacker from the defender.
const VERSUS: &[&str] = &["vs", "v", "versus", "against"];

/// Attacker (the charging unit) or defender.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    Attacker,
    Defender,
}

impl Role {
    fn word(self) -> &'static str {
        match self {
            Role::Attacker => "attacker",
            Role::Defender => "defender",
        }
    }
}

/// One unit in the combat, as the call describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CombatSide {
    /// Figures in the first two ranks (Eligible Figures in Combat), or gun
    /// models.
    pub figures: u32,
    pub troop: Troop,
    pub grade: Grade,
    pub nation: Option<Nation>,
    pub formation: Option<TableFormation>,
    pub disordered: bool,
    pub shaken: bool,
    pub flank_rear: bool,
    /// Under attack from two opposite sides (Retreat Moves, restriction 5).
    pub opposite_sides: bool,
    pub general_attached: bool,
    pub no_general: bool,
    /// The playsheet's "The unit is elite: +1" (ruling STC-5).
    pub elite: bool,
    pub blown: bool,
    pub stationary: bool,
    pub up_steep_slope: bool,
    pub soft_cover: bool,
    pub hard_cover: bool,
    pub disordering_terrain: bool,
}

/// A checked combat call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CombatCall {
    pub attacker: CombatSide,
    pub defender: CombatSide,
    /// A continuing combat: not the round of the charge.
    pub continuing: bool,
    /// Wider Cavalry Basing (optional rule).
    pub wider_basing: bool,
    /// Whether the call rolls the die of a general attached to a unit that
    /// suffers two or more hits. An umpire call does; a turn in which a unit
    /// fights several enemies rolls one die for the unit's whole round
    /// instead, since the rule counts the hits the unit suffers, not each
    /// enemy's.
    #[serde(skip)]
    pub general_dice: bool,
}

/// How the round was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    AttackerLost,
    DefenderLost,
    /// Neither lost: the combat continues next turn.
    NeitherLost,
    /// Cavalry Bouncing off Squares.
    BouncedOffSquare,
    /// Artillery in Combat: the chargers lost or tied and retreat; the gun
    /// crews suffer no hits.
    GunsHeld,
    /// Artillery in Combat: the chargers won and eliminate the gun crews.
    GunsOverrun,
    /// Skirmishers in Combat: skirmishers in the open overrun.
    SkirmishersOverrun,
}

/// What the round did to one unit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CombatSideResult {
    pub points: i32,
    pub needed: i32,
    pub dice: u32,
    pub rolls: Vec<u32>,
    /// Hits this unit scored.
    pub hits: u32,
    /// Loss hits this unit suffers.
    pub hits_suffered: u32,
    pub lost: bool,
    pub retreat_inches: u32,
    pub rout_hits: u32,
    /// Shaken after the round.
    pub shaken: bool,
    /// Disordered after the round.
    pub disordered: bool,
    pub eliminated: bool,
    /// The die rolled for an attached general, if one was.
    pub general_roll: Option<u32>,
    pub general_lost: bool,
}

/// What the round came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CombatResult {
    pub decision: Decision,
    pub attacker: CombatSideResult,
    pub defender: CombatSideResult,
}

impl CombatSide {
    fn from_reading(r: &Reading, role: Role) -> Result<CombatSide, UmpireError> {
        let who = role.word();
        let Some(troop) = r.kind else {
            return Err(r.syntax(format!(
                "name the {who}'s troop type, e.g. `{who} 12 line-infantry grade b`"
            )));
        };
        match troop {
            Troop::Cavalry => {
                return Err(r.syntax(format!(
                    "say the {who}'s weight of cavalry: heavy-cavalry, medium-cavalry or light-cavalry (Combat Points)"
                )));
            }
            Troop::Artillery => {
                return Err(r.syntax(format!(
                    "say the {who}'s guns: light-guns, field-guns or heavy-guns (Combat Points)"
                )));
            }
            _ => {}
        }
        let Some(figures) = r.count else {
            return Err(r.syntax(format!(
                "give the {who}'s {} before `{}`",
                if troop.arm() == Arm::Artillery {
                    "gun models"
                } else {
                    "figures in the first two ranks"
                },
                troop.word()
            )));
        };
        if figures == 0 {
            return Err(r.syntax(format!("the {who} needs at least one figure")));
        }
        r.exclusive(&["general-attached", "no-general"])?;
        r.exclusive(&["soft-cover", "hard-cover"])?;
        let side = CombatSide {
            figures,
            troop,
            grade: grade_of(r)?,
            nation: nation_of(r)?,
            formation: r.formation,
            disordered: r.has("disordered"),
            shaken: r.has("shaken"),
            flank_rear: r.has("flank-rear"),
            opposite_sides: r.has("opposite-sides"),
            general_attached: r.has("general-attached"),
            no_general: r.has("no-general"),
            elite: r.has("elite"),
            blown: r.has("blown"),
            stationary: r.has("stationary"),
            up_steep_slope: r.has("up-steep-slope"),
            soft_cover: r.has("soft-cover"),
            hard_cover: r.has("hard-cover"),
            disordering_terrain: r.has("disordering-terrain"),
        };
        match role {
            Role::Attacker if side.soft_cover || side.hard_cover => Err(r.syntax(
                "mark cover on the defender: the attacker takes \"The unit is attacking soft cover / hard cover: -1 / -2\"",
            )),
            Role::Defender if side.up_steep_slope => Err(r.syntax(
                "mark `up-steep-slope` on the attacker: \"Attacking up steep slope: -1\"",
            )),
            _ => Ok(side),
        }
    }

    fn arm(&self) -> Arm {
        self.troop.arm()
    }

    fn is_skirmishing(&self) -> bool {
        self.formation == Some(TableFormation::Skirmish)
    }

    fn is_square(&self) -> bool {
        self.formation == Some(TableFormation::Square)
    }

    fn is_russian_infantry(&self) -> bool {
        self.nation == Some(Nation::Russia) && self.arm() == Arm::Infantry
    }

    fn canonical(&self, role: Role) -> Vec<String> {
        let mut w = vec![
            role.word().to_string(),
            self.figures.to_string(),
            self.troop.word().to_string(),
            format!("grade {}", self.grade.word()),
        ];
        if let Some(n) = self.nation {
            w.push(format!("nation {}", n.word()));
        }
        if let Some(f) = self.formation {
            w.push(f.word().to_string());
        }
        push_flags(
            &mut w,
            &[
                (self.disordered, "disordered"),
                (self.shaken, "shaken"),
                (self.flank_rear, "flank-rear"),
                (self.opposite_sides, "opposite-sides"),
                (self.general_attached, "general-attached"),
                (self.no_general, "no-general"),
                (self.elite, "elite"),
                (self.blown, "blown"),
                (self.stationary, "stationary"),
                (self.up_steep_slope, "up-steep-slope"),
                (self.soft_cover, "soft-cover"),
                (self.hard_cover, "hard-cover"),
                (self.disordering_terrain, "disordering-terrain"),
            ],
        );
        w
    }

    /// How reports and dice purposes name the unit.
    fn name(&self, role: Role) -> String {
        format!("{} {} {}", role.word(), self.figures, self.troop.word())
    }
}

impl CombatCall {
    pub fn parse(text: &str) -> Result<CombatCall, UmpireError> {
        let words = tokens(text);
        let syntax = |problem: &str| UmpireError::Syntax {
            call: text.trim().to_string(),
            problem: problem.to_string(),
        };
        let parts: Vec<usize> = words
            .iter()
            .enumerate()
            .filter(|(_, w)| VERSUS.contains(&w.text.as_str()))
            .map(|(i, _)| i)
            .collect();
        let (attacker, defender, between) = match parts.as_slice() {
            [i] => (&words[..*i], &words[*i + 1..], &words[*i]),
            [] => match words.iter().position(|w| w.text == "defender") {
                Some(i) => (&words[..i], &words[i..], &words[i]),
                None => {
                    return Err(syntax(
                        "write the two units as `combat attacker <figures> <troops> grade <g> ... vs defender <figures> <troops> grade <g> ...`",
                    ));
                }
            },
            _ => {
                return Err(syntax(
                    "one `vs` only: a call is one attacker against one defender",
                ));
            }
        };
        let mut a = LEXICON.read(text, attacker, Some(between))?;
        let mut d = LEXICON.read(text, defender, None)?;
        let continuing = a.take("continuing") | d.take("continuing");
        let wider_basing = a.take("wider-basing") | d.take("wider-basing");
        Ok(CombatCall {
            attacker: CombatSide::from_reading(&a, Role::Attacker)?,
            defender: CombatSide::from_reading(&d, Role::Defender)?,
            continuing,
            wider_basing,
            general_dice: true,
        })
    }

    /// The call in canonical form.
    pub fn canonical(&self) -> String {
        let mut w = vec!["combat".to_string()];
        w.extend(self.attacker.canonical(Role::Attacker));
        w.push("vs".to_string());
        w.extend(self.defender.canonical(Role::Defender));
        if self.continuing {
            w.push("continuing".to_string());
        }
        if self.wider_basing {
            w.push("wider-basing".to_string());
        }
        w.join(" ")
    }

    fn side(&self, role: Role) -> &CombatSide {
        match role {
            Role::Attacker => &self.attacker,
            Role::Defender => &self.defender,
        }
    }

    /// What the rules forbid outright.
    fn check(&self) -> Result<(), UmpireError> {
        const CHARGING: &str = "Charging, rule 5";
        let a = &self.attacker;
        let d = &self.defender;
        for (role, side) in [(Role::Attacker, a), (Role::Defender, d)] {
            if side.is_square() && side.arm() != Arm::Infantry {
                return Err(forbidden(
                    &format!("the {} cannot be in square", role.word()),
                    "Formations",
                    "Square: A square, facing outward in all directions, possible to infantry only.",
                ));
            }
            if side.is_skirmishing()
                && !matches!(side.troop, Troop::LightInfantry | Troop::Infantry)
            {
                return Err(forbidden(
                    &format!("the {} cannot skirmish", role.word()),
                    "Formations",
                    "Skirmish: A loose-order formation possible only to light infantry troops.",
                ));
            }
            if side.is_square() && side.flank_rear {
                return Err(forbidden(
                    "a square cannot be under flank/rear attack",
                    "Flank/rear Attacks",
                    "Squares have no flanks or rear.",
                ));
            }
        }
        if a.is_square() {
            return Err(forbidden(
                "a square cannot be the attacker",
                "Movement",
                "Squares may not move.",
            ));
        }
        if !self.continuing {
            if a.arm() == Arm::Artillery {
                return Err(forbidden(
                    "guns cannot charge",
                    CHARGING,
                    "Gunners and shaken units may not charge.",
                ));
            }
            if a.shaken {
                return Err(forbidden(
                    "a shaken unit cannot charge",
                    CHARGING,
                    "Gunners and shaken units may not charge.",
                ));
            }
            if a.is_skirmishing() && !(d.arm() == Arm::Artillery || d.is_skirmishing()) {
                return Err(forbidden(
                    "skirmishers cannot charge close-order troops",
                    "Charging, rule 7",
                    "Skirmishers may charge artillery and other skirmishers, but not close-order troops.",
                ));
            }
        }
        Ok(())
    }
}

/// The state each unit fights in, after the effects of contact.
struct Fighting {
    disordered: bool,
}

/// "Infantry not in square contacted by steady enemy cavalry becomes
/// disordered at once (no defensive fire points). This does NOT apply to
/// artillery!" With the Prussian exception: "Steady Prussian troops in line
/// do not become disordered if contacted by enemy cavalry."
fn contact_disorders(
    infantry: &CombatSide,
    cavalry: &CombatSide,
    cavalry_disordered: bool,
) -> Option<bool> {
    if infantry.arm() != Arm::Infantry
        || infantry.is_square()
        || cavalry.arm() != Arm::Cavalry
        || cavalry_disordered
        || cavalry.shaken
    {
        return None;
    }
    let steady_prussian_line = infantry.nation == Some(Nation::PrussiaPre1810)
        && !infantry.disordered
        && !infantry.shaken
        && infantry.formation == Some(TableFormation::Line);
    Some(!steady_prussian_line)
}

impl CombatCall {
    /// Works out who fights disordered: the flags given, plus the effects
    /// of contact in the round of the charge.
    fn fighting(&self, trace: &mut Trace) -> (Fighting, Fighting) {
        let a = &self.attacker;
        let d = &self.defender;
        let mut a_dis = a.disordered;
        let mut d_dis = d.disordered;
        for (side, dis) in [(a, &mut a_dis), (d, &mut d_dis)] {
            if side.arm() == Arm::Artillery && *dis {
                trace
                    .note("\"Note that atty. is never disordered\": the guns fight as if in order");
                *dis = false;
            }
        }
        if d.is_skirmishing() && d.disordering_terrain && !a.is_skirmishing() {
            trace.note(
                "Skirmishers in Combat: \"skirmishers in disordering terrain [...] are simply treated as disordered line infantry when in combat\"",
            );
            d_dis = true;
        }
        if !self.continuing {
            match contact_disorders(d, a, a_dis) {
                Some(true) if !d_dis => {
                    trace.note(
                        "\"Infantry not in square contacted by steady enemy cavalry becomes disordered at once (no defensive fire points)\"",
                    );
                    d_dis = true;
                }
                Some(false) => trace.note(
                    "Prussia pre-1810: \"Steady Prussian troops in line do not become disordered if contacted by enemy cavalry\"",
                ),
                _ => {}
            }
            if a.arm() == Arm::Infantry && d.arm() == Arm::Cavalry {
                match contact_disorders(a, d, d.disordered) {
                    Some(false) => trace.note(
                        "Prussia pre-1810: \"Steady Prussian troops in line do not become disordered if contacted by enemy cavalry\"",
                    ),
                    _ if !a_dis => {
                        trace.note(
                            "Charging, rule 6: \"Infantry that charges cavalry becomes disordered the same as if it has been charged by the cavalry\"",
                        );
                        a_dis = true;
                    }
                    _ => {}
                }
            }
        }
        (
            Fighting { disordered: a_dis },
            Fighting { disordered: d_dis },
        )
    }

    /// Combat Points and Modifiers to Combat Points for one unit.
    fn points(&self, role: Role, fighting: &Fighting, trace: &mut Trace) -> i32 {
        let me = self.side(role);
        let enemy = match role {
            Role::Attacker => &self.defender,
            Role::Defender => &self.attacker,
        };
        let who = me.name(role);
        let (base, row) =
            tables::base_combat_points(me.troop).unwrap_or((2, "Infantry and artillery"));
        trace.lookup("Combat Points", format!("{who}: {row}"), base.to_string());
        let mut m: Vec<Modifier> = Vec::new();
        // Defensive Fire: "A steady passive infantry unit is assumed to make a
        // defensive fire to repel a charge." Guns fire case shot likewise.
        if role == Role::Defender && me.arm() != Arm::Cavalry {
            let mut none_because = Vec::new();
            if self.continuing {
                none_because.push("in a continuing combat");
            }
            if me.shaken || fighting.disordered {
                none_because.push("unsteady");
            }
            if me.is_square() {
                none_because.push("in square");
            }
            if me.formation == Some(TableFormation::Column) {
                none_because.push("in column");
            }
            if me.flank_rear {
                none_because.push("under flank/rear attack");
            }
            if none_because.is_empty() {
                if me.arm() == Arm::Artillery {
                    m.push(Modifier::new(
                        format!("{}: Grade {}", points::ARTILLERY_FIRE, me.grade.letter()),
                        tables::artillery_defensive_fire(me.grade),
                    ));
                    match tables::gun_calibre_defensive_fire(me.troop) {
                        1 => m.push(Modifier::new(points::HEAVY_GUNS, 1)),
                        -1 => m.push(Modifier::new(points::LIGHT_GUNS, -1)),
                        _ => {}
                    }
                } else if me.nation == Some(Nation::Britain) {
                    m.push(Modifier::new(points::BRITISH_FIRE, 2));
                } else {
                    m.push(Modifier::new(points::INFANTRY_FIRE, 1));
                }
            } else {
                trace.note(format!(
                    "{who}: no defensive fire points ({})",
                    none_because.join(", ")
                ));
            }
        }
        let above = me.grade.grades_above(enemy.grade);
        if above > 0 {
            m.push(Modifier::new(
                format!(
                    "{} (Grade {} against {})",
                    points::GRADE_ABOVE,
                    me.grade.letter(),
                    enemy.grade.letter()
                ),
                above,
            ));
        }
        if me.elite {
            m.push(Modifier::new(points::ELITE, 1));
        }
        if me.flank_rear {
            m.push(Modifier::new(points::FLANK_REAR, -2));
        }
        if fighting.disordered {
            m.push(Modifier::new(points::DISORDERED, -1));
        }
        if me.shaken {
            m.push(Modifier::new(points::SHAKEN, -2));
        }
        if me.up_steep_slope {
            m.push(Modifier::new(points::STEEP_SLOPE, -1));
        }
        if role == Role::Attacker {
            if enemy.soft_cover {
                m.push(Modifier::new(points::SOFT_COVER, -1));
            }
            if enemy.hard_cover {
                m.push(Modifier::new(points::HARD_COVER, -2));
            }
        }
        if me.arm() == Arm::Cavalry && enemy.is_square() {
            m.push(Modifier::new(points::VS_SQUARE, -4));
        }
        if me.general_attached {
            m.push(Modifier::new(points::GENERAL_ATTACHED, 1));
        }
        if me.no_general {
            m.push(Modifier::new(points::NO_GENERAL, -1));
        }
        for (on, reason) in [
            (me.blown, points::BLOWN),
            (me.stationary, points::STATIONARY),
        ] {
            if !on {
                continue;
            }
            if me.arm() == Arm::Cavalry {
                m.push(Modifier::new(reason, -1));
            } else {
                trace.note(format!(
                    "{who}: \"{reason}\" is for cavalry only; no effect"
                ));
            }
        }
        for modifier in &m {
            trace.modifier(&Modifier::new(
                format!("{who}: {}", modifier.reason),
                modifier.value,
            ));
        }
        if me.elite {
            trace.note("\"The unit is elite: +1\" is on the playsheet only (ruling STC-5)");
        }
        if me.disordering_terrain && !me.is_skirmishing() {
            trace.note(format!(
                "{who}: disordering terrain matters to skirmishers only here; mark the unit disordered if it is"
            ));
        }
        let points = base + total(&m);
        trace.note(format!("{who}: {points} combat points"));
        points
    }

    /// Dice in Combat for one unit.
    fn dice_count(&self, role: Role, trace: &mut Trace) -> u32 {
        let me = self.side(role);
        let who = me.name(role);
        let (n, row) = match me.arm() {
            Arm::Infantry => (
                tables::infantry_combat_dice(me.figures),
                "one die per four eligible infantry figures; a final remainder of three rounds up",
            ),
            Arm::Cavalry if self.wider_basing => (
                tables::wide_cavalry_combat_dice(me.figures),
                "Wider Cavalry Basing: one die per two cavalry figures without rounding up any remainder",
            ),
            Arm::Cavalry => (
                tables::cavalry_combat_dice(me.figures),
                "one die per three eligible cavalry figures; a final remainder of two rounds up",
            ),
            Arm::Artillery => (me.figures, "one die per gun model (ruling STC-3)"),
        };
        trace.lookup(
            "Dice in Combat",
            format!("{who}: {row}"),
            format!("{n} dice"),
        );
        n
    }

    /// Combat Results to Loser for `role`: (retreat inches, rout hits,
    /// eliminated).
    fn loser(&self, role: Role, trace: &mut Trace) -> (u32, u32, bool) {
        let me = self.side(role);
        let enemy = match role {
            Role::Attacker => &self.defender,
            Role::Defender => &self.attacker,
        };
        if me.opposite_sides {
            trace.note(
                "Retreat Moves, restriction 5: \"If a unit is under attack from two opposite sides, and it loses the close combat round, it cannot retreat and is eliminated.\"",
            );
            return (0, 0, true);
        }
        let (retreat, listed) = tables::combat_loser(me.shaken || me.flank_rear);
        trace.lookup(
            "Combat Results to Loser",
            if me.shaken || me.flank_rear {
                "already shaken, or under flank/rear attack"
            } else {
                "otherwise"
            },
            format!("retreats {retreat} inches, becomes shaken, {listed} rout hits"),
        );
        let mut rout = listed;
        if me.arm() == Arm::Infantry && enemy.arm() == Arm::Cavalry {
            rout *= 2;
            trace.note(format!(
                "\"Infantry losing to cavalry suffers double rout hits\": {listed} -> {rout}"
            ));
        }
        if self.wider_basing && me.arm() == Arm::Cavalry {
            let fewer = tables::wide_cavalry_rout_hits(rout);
            trace.note(format!(
                "Wider Cavalry Basing: \"Cavalry units suffer 1 less rout hit than listed, but with a minimum of 1 such hit\": {rout} -> {fewer}"
            ));
            rout = fewer;
        }
        if me.is_square() {
            trace.note("\"Squares that retreat end the move in column.\"");
        }
        (retreat, rout, false)
    }
}

/// Whether a unit that suffered `suffered` and inflicted `inflicted` hits
/// lost: "If a unit suffers more hits than it inflicts in a given round of
/// combat, it has lost." Russian infantry: "does not lose a round of combat
/// unless it suffers at least two more hits than it inflicted."
fn lost(side: &CombatSide, suffered: u32, inflicted: u32, trace: &mut Trace, who: &str) -> bool {
    if side.is_russian_infantry() {
        if suffered == inflicted + 1 {
            trace.note(format!(
                "{who}: \"Russian infantry does not lose a round of combat unless it suffers at least two more hits than it inflicted\""
            ));
        }
        suffered >= inflicted + 2
    } else {
        suffered > inflicted
    }
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Resolves one round of close combat.
pub fn resolve(
    call: &CombatCall,
    dice: &mut dyn Dice,
) -> Result<Called<CombatResult>, UmpireError> {
    call.check()?;
    let mut trace = Trace::default();
    if let Some(overrun) = skirmishers_overrun(call, &mut trace) {
        return Ok(trace.finish(call.canonical(), overrun));
    }
    let (mut ar, mut dr) = roll_round(call, &mut trace, dice);
    let battery = call.defender.arm() == Arm::Artillery
        && call.defender.figures >= 2
        && !call.defender.flank_rear;
    let (decision, result_text) = if battery {
        against_guns(call, &mut ar, &mut dr, &mut trace)
    } else {
        who_lost(call, &mut ar, &mut dr, &mut trace)
    };
    disorder_after_round(call, &mut ar, &mut dr, &mut trace);
    let general_text = general_dice(call, &mut ar, &mut dr, &mut trace, dice);
    let (a_name, d_name) = (
        call.attacker.name(Role::Attacker),
        call.defender.name(Role::Defender),
    );
    trace.outcome = format!(
        "{}. {}. {result_text}{general_text}",
        side_text(&a_name, &ar),
        side_text(&d_name, &dr)
    );
    let result = CombatResult {
        decision,
        attacker: ar,
        defender: dr,
    };
    Ok(trace.finish(call.canonical(), result))
}

/// Skirmishers in Combat: "Skirmishers in the open are unable to face
/// attacks by close-order troops; if they cannot evade the enemy charge
/// they are overrun and eliminated." No dice are rolled.
fn skirmishers_overrun(call: &CombatCall, trace: &mut Trace) -> Option<CombatResult> {
    let (a, d) = (&call.attacker, &call.defender);
    if !(d.is_skirmishing() && !d.disordering_terrain && !a.is_skirmishing()) {
        return None;
    }
    let d_name = d.name(Role::Defender);
    trace.note(
        "Skirmishers in Combat: \"Skirmishers in the open are unable to face attacks by close-order troops; if they cannot evade the enemy charge they are overrun and eliminated.\"",
    );
    trace.outcome = format!(
        "The {d_name} skirmishing in the open cannot face close-order troops: if it could not evade, it is overrun and eliminated. No dice are rolled."
    );
    Some(CombatResult {
        decision: Decision::SkirmishersOverrun,
        attacker: CombatSideResult {
            shaken: a.shaken,
            disordered: a.disordered,
            ..CombatSideResult::default()
        },
        defender: CombatSideResult {
            eliminated: true,
            shaken: d.shaken,
            disordered: d.disordered,
            ..CombatSideResult::default()
        },
    })
}

/// The round's dice: each side's points, the score it needs on the Scores
/// to Hit in Combat, its dice and its hits.
fn roll_round(
    call: &CombatCall,
    trace: &mut Trace,
    dice: &mut dyn Dice,
) -> (CombatSideResult, CombatSideResult) {
    let (a, d) = (&call.attacker, &call.defender);
    let a_name = a.name(Role::Attacker);
    let d_name = d.name(Role::Defender);
    let (a_fight, d_fight) = call.fighting(trace);
    let a_points = call.points(Role::Attacker, &a_fight, trace);
    let d_points = call.points(Role::Defender, &d_fight, trace);
    let (a_needed, a_row) = tables::combat_needed(a_points - d_points);
    let (d_needed, d_row) = tables::combat_needed(d_points - a_points);
    trace.lookup(
        "Scores to Hit in Combat",
        format!("{a_name}: {a_row} ({a_points} against {d_points})"),
        tables::needed_text(a_needed),
    );
    trace.lookup(
        "Scores to Hit in Combat",
        format!("{d_name}: {d_row} ({d_points} against {a_points})"),
        tables::needed_text(d_needed),
    );
    let a_dice = call.dice_count(Role::Attacker, trace);
    let d_dice = call.dice_count(Role::Defender, trace);
    let mut roll_all = |who: &str, n: u32, trace: &mut Trace| -> Vec<u32> {
        (1..=n)
            .map(|i| {
                trace.roll(
                    dice,
                    Die::D6,
                    &format!("close combat: {who}, die {i} of {n}"),
                )
            })
            .collect()
    };
    let a_rolls = roll_all(&a_name, a_dice, trace);
    let d_rolls = roll_all(&d_name, d_dice, trace);
    let count = |rolls: &[u32], needed: i32| -> u32 {
        let n = rolls
            .iter()
            .filter(|&&v| i64::from(v) >= i64::from(needed))
            .count();
        u32::try_from(n).unwrap_or(u32::MAX)
    };
    let a_hits = count(&a_rolls, a_needed);
    let d_hits = count(&d_rolls, d_needed);
    let ar = CombatSideResult {
        points: a_points,
        needed: a_needed,
        dice: a_dice,
        rolls: a_rolls,
        hits: a_hits,
        hits_suffered: d_hits,
        shaken: a.shaken,
        disordered: a_fight.disordered,
        ..CombatSideResult::default()
    };
    let dr = CombatSideResult {
        points: d_points,
        needed: d_needed,
        dice: d_dice,
        rolls: d_rolls,
        hits: d_hits,
        hits_suffered: a_hits,
        shaken: d.shaken,
        disordered: d_fight.disordered,
        ..CombatSideResult::default()
    };
    (ar, dr)
}

/// Artillery in Combat: all or nothing. "If the charging troops lose or tie
/// that round of combat, they retreat as if they had lost a round of
/// combat, and the gun crews suffer no hits. However, if the troops
/// charging the guns win that round of combat, they suffer whatever hits
/// were inflicted, but eliminate the gun crews."
fn against_guns(
    call: &CombatCall,
    ar: &mut CombatSideResult,
    dr: &mut CombatSideResult,
    trace: &mut Trace,
) -> (Decision, String) {
    let a = &call.attacker;
    let a_name = a.name(Role::Attacker);
    let (a_hits, d_hits) = (ar.hits, dr.hits);
    trace.note(
        "Artillery in Combat: \"If the charging troops lose or tie that round of combat, they retreat as if they had lost a round of combat, and the gun crews suffer no hits. However, if the troops charging the guns win that round of combat, they suffer whatever hits were inflicted, but eliminate the gun crews.\"",
    );
    if a_hits > d_hits {
        dr.lost = true;
        dr.eliminated = true;
        let text = format!(
            "The chargers win against the guns: the {a_name} suffers {} and the gun crews are eliminated; it remains in position, disordered.",
            plural(d_hits, "hit", "hits")
        );
        return (Decision::GunsOverrun, text);
    }
    if a.is_russian_infantry() && d_hits == a_hits + 1 {
        trace.note(
            "Russian infantry that fails to win against guns still retreats: the chargers \"lose or tie\" (ruling STC-13)",
        );
    }
    dr.hits_suffered = 0;
    let (retreat, rout, eliminated) = call.loser(Role::Attacker, trace);
    ar.lost = true;
    ar.retreat_inches = retreat;
    ar.rout_hits = rout;
    ar.eliminated = eliminated;
    ar.shaken = true;
    let mut text = format!(
        "The chargers failed to outright win against the guns: the {a_name} suffers {}",
        plural(d_hits, "hit", "hits")
    );
    if eliminated {
        text.push_str(" and, unable to retreat, is eliminated");
    } else {
        text.push_str(&format!(
            " plus {} and retreats {retreat} inches shaken",
            plural(rout, "rout hit", "rout hits")
        ));
    }
    text.push_str("; the gun crews suffer no hits.");
    (Decision::GunsHeld, text)
}

/// Who lost the round, and what the loser suffers; or cavalry bouncing off
/// a square; or neither, and the combat goes on.
fn who_lost(
    call: &CombatCall,
    ar: &mut CombatSideResult,
    dr: &mut CombatSideResult,
    trace: &mut Trace,
) -> (Decision, String) {
    let (a, d) = (&call.attacker, &call.defender);
    let a_name = a.name(Role::Attacker);
    let d_name = d.name(Role::Defender);
    let (a_hits, d_hits) = (ar.hits, dr.hits);
    let a_lost = lost(a, d_hits, a_hits, trace, &a_name);
    let d_lost = lost(d, a_hits, d_hits, trace, &d_name);
    if a_lost || d_lost {
        let (loser_role, loser_name, winner_name) = if a_lost {
            (Role::Attacker, &a_name, &d_name)
        } else {
            (Role::Defender, &d_name, &a_name)
        };
        let decision = if a_lost {
            Decision::AttackerLost
        } else {
            Decision::DefenderLost
        };
        let (retreat, rout, eliminated) = call.loser(loser_role, trace);
        // The winner's disorder is settled with every unit's, after the round
        // (`disorder_after_round`).
        let (loser, winner_side) = if a_lost { (ar, d) } else { (dr, a) };
        loser.lost = true;
        loser.retreat_inches = retreat;
        loser.rout_hits = rout;
        loser.eliminated = eliminated;
        loser.shaken = true;
        let mut text = format!(
            "The {loser_name} lost ({} suffered against {} inflicted)",
            loser.hits_suffered, loser.hits
        );
        if eliminated {
            text.push_str(": it cannot retreat and is eliminated.");
        } else {
            text.push_str(&format!(
                ": it retreats {retreat} inches, becomes shaken and suffers {}.",
                plural(rout, "rout hit", "rout hits")
            ));
        }
        text.push_str(&format!(
            " The {winner_name} remains in position{}.",
            if winner_side.arm() == Arm::Artillery {
                ""
            } else {
                ", disordered"
            }
        ));
        return (decision, text);
    }
    if a.arm() == Arm::Cavalry && d.is_square() {
        trace.note(
            "Cavalry Bouncing off Squares: \"the cavalry unit must still make a retreat move of at least four inches. The cavalry unit is disordered but not shaken.\"",
        );
        ar.retreat_inches = tables::BOUNCE_OFF_SQUARE_INCHES;
        ar.disordered = true;
        let text = format!(
            "Neither the square nor the cavalry lost: the {a_name} bounces off the square, retreating at least {} inches, disordered but not shaken.",
            tables::BOUNCE_OFF_SQUARE_INCHES
        );
        return (Decision::BouncedOffSquare, text);
    }
    (
        Decision::NeitherLost,
        "Neither unit lost: the combat continues next turn.".to_string(),
    )
}

/// Whether a round of close combat leaves a unit disordered, for the umpire
/// call and the resolved turn alike: Combat Results, "Winning units remain
/// in position, disordered"; Steadiness and Disorder, cause 3, "After one
/// round of close combat, if the unit suffers any hits that round", winner,
/// loser or neither; and "Note that atty. is never disordered." A unit
/// already disordered stays so whatever this says.
pub(crate) fn disordered_by_round(arm: Arm, won: bool, hits_suffered: u32) -> bool {
    arm != Arm::Artillery && (won || hits_suffered > 0)
}

/// Steadiness and Disorder after the round ([`disordered_by_round`]), for
/// each side still in play. Artillery is never disordered; each hit on it
/// removes a gunner.
fn disorder_after_round(
    call: &CombatCall,
    ar: &mut CombatSideResult,
    dr: &mut CombatSideResult,
    trace: &mut Trace,
) {
    let (a, d) = (&call.attacker, &call.defender);
    let (a_won, d_won) = (dr.lost, ar.lost);
    for (res, side, won) in [(&mut *ar, a, a_won), (&mut *dr, d, d_won)] {
        if !res.eliminated && disordered_by_round(side.arm(), won, res.hits_suffered) {
            res.disordered = true;
        }
        if side.arm() == Arm::Artillery {
            res.disordered = false;
        }
    }
    if d.arm() == Arm::Artillery && dr.hits_suffered > 0 && !dr.eliminated {
        trace.note("\"Each hit against an artillery unit removes one gunner figure.\"");
    }
}

/// Generals: "If a general is attached to a unit that suffers two or more
/// shooting or close combat hits, roll a die: On a '1' the general is
/// killed/disabled and removed from play." The words of each die rolled.
fn general_dice(
    call: &CombatCall,
    ar: &mut CombatSideResult,
    dr: &mut CombatSideResult,
    trace: &mut Trace,
    dice: &mut dyn Dice,
) -> String {
    let (a, d) = (&call.attacker, &call.defender);
    let a_name = a.name(Role::Attacker);
    let d_name = d.name(Role::Defender);
    let mut text = String::new();
    for (res, side, name) in [(ar, a, &a_name), (dr, d, &d_name)] {
        if call.general_dice && side.general_attached && res.hits_suffered >= 2 {
            let roll = trace.roll(
                dice,
                Die::D6,
                &format!("general: attached to {name}, {} hits", res.hits_suffered),
            );
            res.general_roll = Some(roll);
            res.general_lost = roll == 1;
            text.push_str(&format!(
                " The general with the {name} rolled {roll}: {}.",
                if roll == 1 {
                    "killed/disabled and removed from play"
                } else {
                    "unhurt"
                }
            ));
        }
    }
    text
}

/// "attacker 12 line-infantry: 3 points, 3 dice needing 5-6 rolled 5, 6, 2:
/// 2 hits".
fn side_text(name: &str, r: &CombatSideResult) -> String {
    let rolled: Vec<String> = r.rolls.iter().map(u32::to_string).collect();
    format!(
        "The {name}: {} points, {} needing {}{}: {}",
        r.points,
        plural(r.dice, "die", "dice"),
        tables::needed_text(r.needed),
        if rolled.is_empty() {
            String::new()
        } else {
            format!(" rolled {}", rolled.join(", "))
        },
        plural(r.hits, "hit", "hits")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::dice::ForcedDice;

    fn fight(text: &str, dice: &[u32]) -> CombatResult {
        let call = CombatCall::parse(text).unwrap();
        assert_eq!(CombatCall::parse(&call.canonical()).unwrap(), call);
        let mut d = ForcedDice::new(dice.iter().copied());
        let r = resolve(&call, &mut d).unwrap();
        assert!(d.problems().is_empty(), "{:?}", d.problems());
        r.result
    }

    /// Artillery in Combat, the text's example.
    #[test]
    fn grenadiers_against_a_field_battery() {
        let r = fight(
            "combat attacker 12 line-infantry grade B vs defender 4 field-guns grade C",
            &[5, 6, 2, 3, 4, 1, 2],
        );
        assert_eq!((r.attacker.points, r.defender.points), (3, 5));
        assert_eq!((r.attacker.needed, r.defender.needed), (5, 3));
        assert_eq!((r.attacker.hits, r.defender.hits), (2, 2));
        assert_eq!(r.decision, Decision::GunsHeld);
        assert_eq!((r.attacker.retreat_inches, r.attacker.rout_hits), (4, 2));
        assert_eq!(r.defender.hits_suffered, 0);
    }

    #[test]
    fn sides_may_be_written_without_vs() {
        let call =
            CombatCall::parse("combat 12 infantry grade c defender 12 infantry grade c").unwrap();
        assert_eq!(
            call.canonical(),
            "combat attacker 12 infantry grade c vs defender 12 infantry grade c"
        );
    }
}
