//! The tables of Sound the Charge that the umpire calls read, as data and
//! small functions. Each item cites the clause or table row it encodes; the
//! words in quotes are the rules' own.
//!
//! Distances are kept in hundredths of an inch, so that comparing a range
//! with a band never goes through floating point.

use serde::Serialize;

/// Hundredths of an inch per inch.
pub const HUNDREDTHS: u32 = 100;

/// Units, Troop Types, and Organization of Figures: "There are four morale
/// grades of units: A, B, C, and D, where As are the best and Ds are the
/// worst."
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    A,
    B,
    C,
    D,
}

impl Grade {
    pub fn parse(word: &str) -> Option<Grade> {
        match word {
            "a" => Some(Grade::A),
            "b" => Some(Grade::B),
            "c" => Some(Grade::C),
            "d" => Some(Grade::D),
            _ => None,
        }
    }

    /// The grade as the canonical call writes it.
    pub fn word(self) -> &'static str {
        match self {
            Grade::A => "a",
            Grade::B => "b",
            Grade::C => "c",
            Grade::D => "d",
        }
    }

    /// The grade as the rules print it.
    pub fn letter(self) -> &'static str {
        match self {
            Grade::A => "A",
            Grade::B => "B",
            Grade::C => "C",
            Grade::D => "D",
        }
    }

    /// 0 for A up to 3 for D: how many grades below the best.
    fn rank(self) -> i32 {
        match self {
            Grade::A => 0,
            Grade::B => 1,
            Grade::C => 2,
            Grade::D => 3,
        }
    }

    /// Combat Points: "Each morale grade above the enemy: +1". Zero when the
    /// unit is not above the enemy.
    pub fn grades_above(self, enemy: Grade) -> i32 {
        (enemy.rank() - self.rank()).max(0)
    }
}

/// The three arms. Infantry "is rated as line [...] or light"; cavalry "as
/// light [...], medium [...], or heavy"; "Artillery consists of light guns,
/// field guns, and heavy guns."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Arm {
    Infantry,
    Cavalry,
    Artillery,
}

/// A troop type as a call names it. The unqualified words (`infantry`,
/// `cavalry`, `artillery`) serve where the weight or calibre does not
/// matter; calls that need it ask for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Troop {
    Infantry,
    LineInfantry,
    LightInfantry,
    Cavalry,
    HeavyCavalry,
    MediumCavalry,
    LightCavalry,
    Artillery,
    LightGuns,
    FieldGuns,
    HeavyGuns,
}

/// The words a call accepts for each troop type. The first of each row is
/// the canonical one; the cavalry examples are the rules' own ("light, such
/// as hussars, chausseurs, and lancers, medium such as dragoons, or heavy,
/// such as cuirassiers").
pub const TROOP_WORDS: &[(Troop, &[&str])] = &[
    (Troop::Infantry, &["infantry", "foot"]),
    (Troop::LineInfantry, &["line-infantry"]),
    (Troop::LightInfantry, &["light-infantry"]),
    (Troop::Cavalry, &["cavalry", "horse"]),
    (Troop::HeavyCavalry, &["heavy-cavalry", "cuirassiers"]),
    (Troop::MediumCavalry, &["medium-cavalry", "dragoons"]),
    (
        Troop::LightCavalry,
        &[
            "light-cavalry",
            "hussars",
            "chasseurs",
            "chausseurs",
            "lancers",
        ],
    ),
    (Troop::Artillery, &["artillery", "guns", "battery"]),
    (Troop::LightGuns, &["light-guns", "light-gun"]),
    (Troop::FieldGuns, &["field-guns", "field-gun"]),
    (Troop::HeavyGuns, &["heavy-guns", "heavy-gun"]),
];

impl Troop {
    /// The canonical word for the type.
    pub fn word(self) -> &'static str {
        TROOP_WORDS
            .iter()
            .find(|(t, _)| *t == self)
            .and_then(|(_, words)| words.first().copied())
            .unwrap_or("unit")
    }

    pub fn arm(self) -> Arm {
        match self {
            Troop::Infantry | Troop::LineInfantry | Troop::LightInfantry => Arm::Infantry,
            Troop::Cavalry | Troop::HeavyCavalry | Troop::MediumCavalry | Troop::LightCavalry => {
                Arm::Cavalry
            }
            Troop::Artillery | Troop::LightGuns | Troop::FieldGuns | Troop::HeavyGuns => {
                Arm::Artillery
            }
        }
    }
}

/// National Modifiers, grouped as the text groups them. Naming a nation in a
/// call applies its modifiers; naming none applies none ("you may use the
/// suggestions below as written, disregard them, or change them").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Nation {
    /// "Austria".
    Austria,
    /// "Britain, Portugal".
    Britain,
    /// "France, Switzerland".
    France,
    /// "Prussia pre-1810".
    PrussiaPre1810,
    /// "Prussia post-1810, French Allies other than Swiss: Treat as
    /// Austrians except no battalion-masse and no horse artillery movement
    /// penalty."
    PrussiaPost1810,
    /// "Russia".
    Russia,
    /// "Spain, Naples".
    Spain,
}

/// The words for each nation; the first is canonical.
pub const NATION_WORDS: &[(Nation, &[&str])] = &[
    (Nation::Austria, &["austria", "austrian", "austrians"]),
    (
        Nation::Britain,
        &[
            "britain",
            "british",
            "portugal",
            "portuguese",
            "britain-portugal",
        ],
    ),
    (
        Nation::France,
        &[
            "france",
            "french",
            "switzerland",
            "swiss",
            "france-switzerland",
        ],
    ),
    (
        Nation::PrussiaPre1810,
        &[
            "prussia-pre-1810",
            "prussian-pre-1810",
            "prussians-pre-1810",
        ],
    ),
    (
        Nation::PrussiaPost1810,
        &[
            "prussia-post-1810",
            "prussian-post-1810",
            "prussians-post-1810",
            "french-allies",
            "french-ally",
        ],
    ),
    (Nation::Russia, &["russia", "russian", "russians"]),
    (
        Nation::Spain,
        &["spain", "spanish", "naples", "neapolitan", "spain-naples"],
    ),
];

impl Nation {
    pub fn parse(word: &str) -> Option<Nation> {
        NATION_WORDS
            .iter()
            .find(|(_, words)| words.contains(&word))
            .map(|(n, _)| *n)
    }

    pub fn word(self) -> &'static str {
        NATION_WORDS
            .iter()
            .find(|(n, _)| *n == self)
            .and_then(|(_, words)| words.first().copied())
            .unwrap_or("")
    }

    /// The nation as the text's heading names it.
    pub fn heading(self) -> &'static str {
        match self {
            Nation::Austria => "Austria",
            Nation::Britain => "Britain, Portugal",
            Nation::France => "France, Switzerland",
            Nation::PrussiaPre1810 => "Prussia pre-1810",
            Nation::PrussiaPost1810 => "Prussia post-1810, French Allies other than Swiss",
            Nation::Russia => "Russia",
            Nation::Spain => "Spain, Naples",
        }
    }
}

/// Formations: "There are four basic formations for a unit in the game:
/// Column [...] Line [...] Square [...] Skirmish".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TableFormation {
    Line,
    Column,
    Square,
    Skirmish,
}

impl TableFormation {
    pub fn parse(word: &str) -> Option<TableFormation> {
        match word {
            "line" => Some(TableFormation::Line),
            "column" => Some(TableFormation::Column),
            "square" => Some(TableFormation::Square),
            "skirmish" | "skirmishing" | "skirmish-order" => Some(TableFormation::Skirmish),
            _ => None,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            TableFormation::Line => "line",
            TableFormation::Column => "column",
            TableFormation::Square => "square",
            TableFormation::Skirmish => "skirmish",
        }
    }
}

/// One row of the Shooting Table: "Type of Fire / Range (Close / Far)".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FireRow {
    pub fire: &'static str,
    /// Close range, whole inches.
    pub close: u32,
    /// Far range, whole inches.
    pub far: u32,
}

/// Shooting Table: "Musketry 2 / 4".
pub const MUSKETRY: FireRow = FireRow {
    fire: "Musketry",
    close: 2,
    far: 4,
};
/// Shooting Table: "Light guns 4 / 12".
pub const LIGHT_GUNS: FireRow = FireRow {
    fire: "Light guns",
    close: 4,
    far: 12,
};
/// Shooting Table: "Field guns 6 / 20".
pub const FIELD_GUNS: FireRow = FireRow {
    fire: "Field guns",
    close: 6,
    far: 20,
};
/// Shooting Table: "Heavy guns 8 / 24".
pub const HEAVY_GUNS: FireRow = FireRow {
    fire: "Heavy guns",
    close: 8,
    far: 24,
};

/// Shooting Table, "Score to Hit": "3-6 / 5-6", printed on the musketry
/// row only. The guns rows are blank; ruling STC-1 carries the musketry
/// bands down to them.
pub const SHOOT_CLOSE_NEEDED: i32 = 3;
/// See [`SHOOT_CLOSE_NEEDED`].
pub const SHOOT_FAR_NEEDED: i32 = 5;

/// The Shooting Table row for a troop type, if it may shoot at all.
pub fn fire_row(troop: Troop) -> Option<FireRow> {
    match troop {
        Troop::Infantry | Troop::LineInfantry | Troop::LightInfantry => Some(MUSKETRY),
        Troop::LightGuns => Some(LIGHT_GUNS),
        Troop::FieldGuns => Some(FIELD_GUNS),
        Troop::HeavyGuns => Some(HEAVY_GUNS),
        _ => None,
    }
}

/// Close or far range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RangeBand {
    Close,
    Far,
}

/// Which band of `row` a range (in hundredths of an inch) falls in; `None`
/// beyond far range. A range equal to a band's figure is inside it.
pub fn range_band(row: FireRow, range_hundredths: u32) -> Option<RangeBand> {
    if range_hundredths <= row.close * HUNDREDTHS {
        Some(RangeBand::Close)
    } else if range_hundredths <= row.far * HUNDREDTHS {
        Some(RangeBand::Far)
    } else {
        None
    }
}

/// Shooting, General Rules: "roll one die per four front-rank infantry
/// figures in the firing unit [...] Round up a final remainder of three
/// infantry figures."
pub fn musketry_dice(front_rank_figures: u32) -> u32 {
    front_rank_figures / 4 + u32::from(front_rank_figures % 4 == 3)
}

/// Shooting, General Rules: "one die per unlimbered gun model [...] A gun
/// model needs two gunners to shoot." Ruling STC-12: the battery's gunners
/// man as many models as they make pairs.
pub fn gun_dice(gun_models: u32, gunners: u32) -> u32 {
    gun_models.min(gunners / 2)
}

/// Shooting Table, Modifiers to Hit, in the table's words.
pub mod to_hit {
    pub const GRADE_A_B: &str = "The firing unit is Grade A-B";
    pub const GRADE_D: &str = "The firing unit is Grade D";
    pub const DENSE: &str = "Artillery vs. dense target";
    pub const MOVED: &str = "The firing unit moved this turn";
    pub const DISORDERED_OR_SQUARE: &str = "The firing unit is disordered and/or in square";
    pub const SOFT: &str = "Target is in soft cover or screened by skirmishers, or is artillery in the open or in soft cover";
    pub const HARD: &str = "Target is in hard cover, or is skirmishing";
    pub const BRITISH: &str =
        "Britain, Portugal: Steady infantry gets [...] a +1 to hit when firing";
    pub const RUSSIAN: &str = "Russia: All Russian fire is at -1 to hit";
}

/// "Score to pass: A / B / C / D: 0-6 / 1-6 / 2-6 / 3-6", the same for the
/// Morale Test if Hit by Shooting and the Rally from Shaken Status Test.
pub fn test_needed(grade: Grade) -> i32 {
    match grade {
        Grade::A => 0,
        Grade::B => 1,
        Grade::C => 2,
        Grade::D => 3,
    }
}

/// Morale Test if Hit by Shooting, modifiers in the table's words.
pub mod morale {
    pub const SQUARE: &str = "The unit is in square";
    pub const EACH_HIT: &str = "Each hit suffered by shooting this turn";
    pub const SHAKEN: &str = "The unit is shaken";
    pub const GENERAL_ATTACHED: &str = "General attached";
    pub const NO_GENERAL: &str = "No general in CR";
    pub const FRENCH_COLUMN: &str = "France, Switzerland: Infantry columns get +1 vs. shooting morale if they advanced full speed on their most-recent move";
    pub const RUSSIAN_COLUMN: &str = "Russia: Russian infantry in column gets +1 vs. shooting morale if stationary on its most-recent turn";
    pub const SPANISH_LINE: &str =
        "Spain, Naples: Spanish infantry in line in the open suffers a -1 on shooting morale";
    pub const SPANISH_COLUMN: &str = "Spain, Naples: Spanish infantry in column gets a +1 bonus to shooting morale if it advanced full speed on its most-recent turn";
}

/// Morale Test if Hit by Shooting: "If the unit fails, it must retreat two
/// inches shaken, and suffers one rout hit. If already shaken, it retreats
/// four inches, remains shaken, and suffers two rout hits." Returns
/// (retreat inches, rout hits).
pub fn shooting_morale_failure(already_shaken: bool) -> (u32, u32) {
    if already_shaken { (4, 2) } else { (2, 1) }
}

/// Rally from Shaken Status Test, modifiers in the table's words.
pub mod rally {
    pub const ENEMY: &str = "Any visible enemies able to charge the unit?";
    pub const GENERAL_ATTACHED: &str = "General attached to the unit";
    pub const NO_GENERAL: &str = "No general in Command Radius";
    pub const AUSTRIA_LINE: &str =
        "Austria: Infantry suffers a -1 vs. rally from shaken tests if in line in the open";
    pub const FRANCE_LINE: &str = "France, Switzerland: Infantry suffers -1 vs. rally from shaken tests if in line in the open";
    pub const PRUSSIA_POST_LINE: &str = "Prussia post-1810, French Allies other than Swiss: Treat as Austrians (infantry -1 vs. rally if in line in the open)";
    pub const PRUSSIA_PRE_COLUMN: &str =
        "Prussia pre-1810: Prussian infantry suffers a -1 on rally from shaken tests if in column";
    pub const RUSSIA_LINE: &str =
        "Russia: Russian infantry in line gets a -1 penalty to rally from shaken";
    pub const PLAYSHEET_LINE: &str = "Most infantry in line formation (playsheet, optional)";
}

/// Combat Points: "Heavy cavalry: 4 / Medium Cavalry: 3 / Light Cavalry: 2 /
/// Infantry and artillery: 2". `None` for a type too vague to score.
pub fn base_combat_points(troop: Troop) -> Option<(i32, &'static str)> {
    match troop {
        Troop::HeavyCavalry => Some((4, "Heavy cavalry")),
        Troop::MediumCavalry => Some((3, "Medium Cavalry")),
        Troop::LightCavalry => Some((2, "Light Cavalry")),
        Troop::Infantry
        | Troop::LineInfantry
        | Troop::LightInfantry
        | Troop::LightGuns
        | Troop::FieldGuns
        | Troop::HeavyGuns => Some((2, "Infantry and artillery")),
        Troop::Cavalry | Troop::Artillery => None,
    }
}

/// Combat Points: "Atty. defensive fire: A / B / C / D: +5 / +4 / +3 / +1".
pub fn artillery_defensive_fire(grade: Grade) -> i32 {
    match grade {
        Grade::A => 5,
        Grade::B => 4,
        Grade::C => 3,
        Grade::D => 1,
    }
}

/// Combat Points: "Defensive fire from heavy / light guns: +1 / -1"; field
/// guns take neither.
pub fn gun_calibre_defensive_fire(troop: Troop) -> i32 {
    match troop {
        Troop::HeavyGuns => 1,
        Troop::LightGuns => -1,
        _ => 0,
    }
}

/// Combat Points and Modifiers to Combat Points, in the table's words.
pub mod points {
    pub const ARTILLERY_FIRE: &str = "Atty. defensive fire";
    pub const HEAVY_GUNS: &str = "Defensive fire from heavy guns";
    pub const LIGHT_GUNS: &str = "Defensive fire from light guns";
    pub const INFANTRY_FIRE: &str = "Infantry defensive fire";
    pub const BRITISH_FIRE: &str = "Infantry defensive fire (steady British)";
    pub const GRADE_ABOVE: &str = "Each morale grade above the enemy";
    pub const ELITE: &str = "The unit is elite (playsheet)";
    pub const FLANK_REAR: &str = "The unit is under flank/rear attack";
    pub const DISORDERED: &str = "The unit is disordered";
    pub const SHAKEN: &str = "The unit is shaken";
    pub const STEEP_SLOPE: &str = "Attacking up steep slope";
    pub const SOFT_COVER: &str = "The unit is attacking soft cover";
    pub const HARD_COVER: &str = "The unit is attacking hard cover";
    pub const VS_SQUARE: &str = "Cavalry vs. a square";
    pub const GENERAL_ATTACHED: &str = "General attached";
    pub const NO_GENERAL: &str = "No general within CR";
    pub const BLOWN: &str = "Blown cavalry (optional rule)";
    pub const STATIONARY: &str = "Stationary cavalry (optional rule)";
}

/// Scores to Hit in Combat, by how many points the unit has over the enemy:
/// "At advantage: 3-6 / Even points: 4-6 / At disadvantage by 1-2 points:
/// 5-6 / At disadvantage by 3 or more points: 6". Returns the score needed
/// and the row.
pub fn combat_needed(points_over_enemy: i32) -> (i32, &'static str) {
    match points_over_enemy {
        d if d > 0 => (3, "At advantage"),
        0 => (4, "Even points"),
        -2..=-1 => (5, "At disadvantage by 1-2 points"),
        _ => (6, "At disadvantage by 3 or more points"),
    }
}

/// Dice in Combat: "Roll one die per four eligible infantry figures, or per
/// three eligible cavalry figures involved in the combat. Round up a final
/// remainder of three infantry or two cavalry."
pub fn infantry_combat_dice(figures: u32) -> u32 {
    figures / 4 + u32::from(figures % 4 == 3)
}

/// See [`infantry_combat_dice`].
pub fn cavalry_combat_dice(figures: u32) -> u32 {
    figures / 3 + u32::from(figures % 3 == 2)
}

/// Wider Cavalry Basing (optional rule): "In combat, roll one die per two
/// cavalry figures without rounding up any remainder."
pub fn wide_cavalry_combat_dice(figures: u32) -> u32 {
    figures / 2
}

/// Combat Results to Loser: "If already shaken, or under flank/rear attack,
/// the losing unit retreats 6 inches, becomes shaken, and suffers 4 rout
/// hits. Otherwise, it retreats 4 inches, becomes shaken, and suffers 2 rout
/// hits." Returns (retreat inches, rout hits).
pub fn combat_loser(shaken_or_flanked: bool) -> (u32, u32) {
    if shaken_or_flanked { (6, 4) } else { (4, 2) }
}

/// Cavalry Bouncing off Squares: "the cavalry unit must still make a
/// retreat move of at least four inches."
pub const BOUNCE_OFF_SQUARE_INCHES: u32 = 4;

/// Wider Cavalry Basing (optional rule): "Cavalry units suffer 1 less rout
/// hit than listed, but with a minimum of 1 such hit."
pub fn wide_cavalry_rout_hits(listed: u32) -> u32 {
    listed.saturating_sub(1).max(1)
}

/// The final score a die needs, as the rules print it: `5-6`, `6`, `none`,
/// or `1-6` when every score passes.
pub fn needed_text(needed: i32) -> String {
    match needed {
        n if n > 6 => "none".to_string(),
        6 => "6".to_string(),
        n if n <= 1 => "1-6 (every score)".to_string(),
        n => format!("{n}-6"),
    }
}

/// Writes hundredths of an inch as the shortest decimal: 300 -> `3`,
/// 250 -> `2.5`, 225 -> `2.25`.
pub fn inches_text(hundredths: u32) -> String {
    crate::rules::words::inches(i64::from(hundredths))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NOTES.md: "11 infantry roll 3 dice, 10 roll 2, 11 cavalry roll 4".
    #[test]
    fn dice_counts_round_the_remainders_the_rules_name() {
        assert_eq!(musketry_dice(11), 3);
        assert_eq!(musketry_dice(10), 2);
        assert_eq!(infantry_combat_dice(11), 3);
        assert_eq!(infantry_combat_dice(10), 2);
        assert_eq!(cavalry_combat_dice(11), 4);
        assert_eq!(cavalry_combat_dice(10), 3);
        assert_eq!(wide_cavalry_combat_dice(11), 5);
        assert_eq!(gun_dice(4, 7), 3);
    }

    #[test]
    fn range_bands_include_their_edges() {
        assert_eq!(range_band(MUSKETRY, 200), Some(RangeBand::Close));
        assert_eq!(range_band(MUSKETRY, 201), Some(RangeBand::Far));
        assert_eq!(range_band(MUSKETRY, 400), Some(RangeBand::Far));
        assert_eq!(range_band(MUSKETRY, 401), None);
        assert_eq!(range_band(HEAVY_GUNS, 2400), Some(RangeBand::Far));
    }

    #[test]
    fn combat_bands_follow_the_points() {
        assert_eq!(combat_needed(2).0, 3);
        assert_eq!(combat_needed(0).0, 4);
        assert_eq!(combat_needed(-2).0, 5);
        assert_eq!(combat_needed(-3).0, 6);
        assert_eq!(combat_needed(-30).0, 6);
    }

    #[test]
    fn inches_are_written_shortest() {
        assert_eq!(inches_text(300), "3");
        assert_eq!(inches_text(250), "2.5");
        assert_eq!(inches_text(225), "2.25");
        assert_eq!(inches_text(5), "0.05");
    }

    #[test]
    fn grade_differences_count_only_upwards() {
        assert_eq!(Grade::A.grades_above(Grade::C), 2);
        assert_eq!(Grade::C.grades_above(Grade::A), 0);
        assert_eq!(Grade::B.grades_above(Grade::B), 0);
    }
}
