//! What Sound the Charge keeps in the game state beyond the shared envelope:
//! each unit's troop type, grade, formation, basing, morale and order, and
//! the turn-by-turn status the rules remember.

use serde::{Deserialize, Serialize};

use super::SoundTheCharge;
use super::orders::Formation;
use super::tables::{Arm, Grade, Troop};
use crate::geometry::{Hundredths, Point};
use crate::rules::state::{GameState, Nothing, Parts, UnitState};

impl Parts for SoundTheCharge {
    type Unit = StcUnit;
    type Game = Nothing;
    type Params = Nothing;
}

/// The game state as Sound the Charge reads it.
pub type State = GameState<SoundTheCharge>;

/// One unit as Sound the Charge reads it.
pub type Unit = UnitState<StcUnit>;

/// Every field of [`StcUnit`] (with [`UnitStatus`]'s), by its name in the
/// state, for the GM's corrections.
pub const FIELDS: &[&str] = &[
    "troop_type",
    "grade",
    "gunners",
    "formation",
    "ranks",
    "figure_frontage",
    "marks",
    "shaken",
    "disordered",
    "rout_hits",
    "loss_hits",
    "blown",
    "combat_rounds",
    "in_combat",
    "last_combat_turn",
    "last_advance",
    "advanced_full_speed",
    "gunners_at",
    "skirmishers_out",
    "screening",
    "boat",
    "embarking",
    "disembarking",
    "landing",
    "regimental_gun_lost",
    "left_from",
];

/// Sound the Charge's part of a unit. Its words are read into enums once,
/// when the scenario is loaded; the state's JSON holds the same words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StcUnit {
    pub troop_type: TroopType,
    /// Morale grade, written `A`..`D`.
    #[serde(with = "grade_letter")]
    pub grade: Grade,
    /// Gunners, for artillery; zero otherwise.
    pub gunners: u32,
    pub formation: Formation,
    /// Ranks of stands in a line; other formations take their depth from
    /// the rules.
    #[serde(default = "one_rank")]
    pub ranks: u32,
    /// Frontage per figure, where the campaign's "Wider Cavalry Basing"
    /// bases the unit other than the standard; `None` for the standard
    /// basing. Set at setup from the campaign's options, so that a unit's
    /// footprint depends on it alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figure_frontage: Option<Hundredths>,
    /// Marks the rules know by name: `elite`, `regimental-gun`, and the
    /// states a unit began in.
    pub marks: Vec<String>,
    pub shaken: bool,
    pub disordered: bool,
    /// The turn-by-turn status. Every field has a serde default and is left
    /// out of the canonical JSON while it holds its default, so states
    /// written before a field existed read back and digest exactly as they
    /// did.
    #[serde(flatten)]
    pub status: UnitStatus,
}

fn one_rank() -> u32 {
    1
}

/// Units, Troop Types, and Organization of Figures: "Infantry is rated as
/// line [...] or light"; "Cavalry is rated as light [...], medium [...], or
/// heavy"; "Artillery consists of light guns, field guns, and heavy guns."
/// Horse guns come from the Movement Table: "Horse guns (light or field
/// caliber)".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TroopType {
    LineInfantry,
    LightInfantry,
    LightCavalry,
    MediumCavalry,
    HeavyCavalry,
    LightGuns,
    FieldGuns,
    HeavyGuns,
    HorseGuns,
}

impl TroopType {
    pub const ALL: [TroopType; 9] = [
        TroopType::LineInfantry,
        TroopType::LightInfantry,
        TroopType::LightCavalry,
        TroopType::MediumCavalry,
        TroopType::HeavyCavalry,
        TroopType::LightGuns,
        TroopType::FieldGuns,
        TroopType::HeavyGuns,
        TroopType::HorseGuns,
    ];

    /// The word a scenario and the state write it as.
    pub fn word(self) -> &'static str {
        match self {
            TroopType::LineInfantry => "line-infantry",
            TroopType::LightInfantry => "light-infantry",
            TroopType::LightCavalry => "light-cavalry",
            TroopType::MediumCavalry => "medium-cavalry",
            TroopType::HeavyCavalry => "heavy-cavalry",
            TroopType::LightGuns => "light-guns",
            TroopType::FieldGuns => "field-guns",
            TroopType::HeavyGuns => "heavy-guns",
            TroopType::HorseGuns => "horse-guns",
        }
    }

    pub fn from_word(word: &str) -> Option<TroopType> {
        TroopType::ALL.into_iter().find(|t| t.word() == word)
    }

    pub fn arm(self) -> Arm {
        self.in_tables().arm()
    }

    /// The troop type the tables read it as, where the calibre of guns
    /// matters (shooting, close combat). Horse guns are "light or field
    /// caliber" and the unit does not say which: ruling STC-61 reads them
    /// as light guns.
    pub fn in_tables(self) -> Troop {
        match self {
            TroopType::LineInfantry => Troop::LineInfantry,
            TroopType::LightInfantry => Troop::LightInfantry,
            TroopType::LightCavalry => Troop::LightCavalry,
            TroopType::MediumCavalry => Troop::MediumCavalry,
            TroopType::HeavyCavalry => Troop::HeavyCavalry,
            TroopType::LightGuns | TroopType::HorseGuns => Troop::LightGuns,
            TroopType::FieldGuns => Troop::FieldGuns,
            TroopType::HeavyGuns => Troop::HeavyGuns,
        }
    }

    /// The troop type a call names it as where the calibre does not matter
    /// (the rally test): horse guns are then artillery, not read as any one
    /// calibre.
    pub fn named(self) -> Troop {
        match self {
            TroopType::HorseGuns => Troop::Artillery,
            other => other.in_tables(),
        }
    }
}

impl std::fmt::Display for TroopType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

/// The grade as the state holds it: its capital letter, as the rules print
/// it ("A, B, C, and D").
mod grade_letter {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::Grade;

    pub fn serialize<S: Serializer>(grade: &Grade, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(grade.letter())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Grade, D::Error> {
        let text = String::deserialize(d)?;
        Grade::parse(&text.to_lowercase())
            .ok_or_else(|| serde::de::Error::custom(format!("`{text}` is not a grade A to D")))
    }
}

/// What the rules remember about a unit from turn to turn, beyond its
/// morale and order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitStatus {
    /// Rout hits suffered ("Rout hits are not regained during the battle").
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rout_hits: u32,
    /// Loss hits suffered by shooting and in close combat.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub loss_hits: u32,
    /// Optional rule Blown Cavalry: "After completing its second round of
    /// combat during a game, a cavalry regiment is blown".
    #[serde(default, skip_serializing_if = "is_false")]
    pub blown: bool,
    /// Rounds of close combat the unit has completed this game.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub combat_rounds: u32,
    /// Set when the unit fought a round of close combat in the last combat
    /// phase and is still in contact: "Units in a continuing close combat
    /// may not move."
    #[serde(default, skip_serializing_if = "is_false")]
    pub in_combat: bool,
    /// The turn of the unit's most recent combat round, for Stationary
    /// Cavalry ("it was not in combat on the most-recent game turn").
    #[serde(default, skip_serializing_if = "is_zero")]
    pub last_combat_turn: u32,
    /// How far the unit advanced (straight ahead or charging) on its side's
    /// most recent active turn, in hundredths of an inch; for Stationary
    /// Cavalry and the French, Russian and Spanish column modifiers.
    #[serde(default, skip_serializing_if = "is_zero_i64")]
    pub last_advance: i64,
    /// Whether that advance was at its full speed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub advanced_full_speed: bool,
    /// Where the gunners stand when they have left their guns (the point of
    /// their stand's front centre); `None` while they serve the guns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gunners_at: Option<Point>,
    /// A battalion's organic skirmish screen is out.
    #[serde(default, skip_serializing_if = "is_false")]
    pub skirmishers_out: bool,
    /// The units a separate skirmish unit screens, by id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub screening: Vec<String>,
    /// Optional rule Boats: the boat the unit is in, by id. The one place
    /// that says a unit is in boats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boat: Option<String>,
    /// Boats: guns half way through embarking ("two turns for
    /// artillery"), the boat they are embarking in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embarking: Option<String>,
    /// Boats: guns half way through disembarking.
    #[serde(default, skip_serializing_if = "is_false")]
    pub disembarking: bool,
    /// Boats: the unit attacks as it disembarks this turn ("Troops in boats
    /// may attack an enemy as they disembark"), until its combat is decided.
    #[serde(default, skip_serializing_if = "is_false")]
    pub landing: bool,
    /// Optional rule Regimental Guns: why the battalion's gun is out of
    /// action ("a single hit will disable the gun"; "it must abandon the
    /// gun"), once it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regimental_gun_lost: Option<String>,
    /// Britain, Portugal: where cavalry that followed an enemy off the table
    /// left it (its centre), while it is off the table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left_from: Option<Point>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_zero_i64(n: &i64) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}
