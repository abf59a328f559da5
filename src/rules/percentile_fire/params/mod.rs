//! The campaign parameters: every table the chapter refers to but does not
//! contain (the Fire Charts, the Weapon Range Chart, the Fire Combat
//! Modifiers, the firing classes by nation, the shell and rocket accuracy
//! table, the artillery critical hit table, the random officer hit chart),
//! and what play outside the chapter needs (movement allowances, basing).
//!
//! A campaign gives them in `[ruleset.parameters]`
//! (docs/ORDERS-percentile-fire.md, "Campaign parameters"), read and
//! checked at load through `Keys` (`read`). A table it leaves out is the
//! ruleset's sample (`sample.toml`, read by the same reader through
//! `plain`): made-up values for play-testing, never the publisher's. The
//! tables in force are kept whole in the game state, so an archive replays
//! with the very tables it was played with.

pub mod plain;
pub mod read;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::ground::TerrainKind;
use super::state::{Arm, Class, Shot, Word};
use crate::audit::dice::Die;
use crate::geometry::Hundredths;
use crate::rules::kernel::{Band, DieTable, Ratio};

/// Every table in force.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Params {
    /// Who fires first in a Reciprocal Fire Phase (11.0).
    #[serde(default)]
    pub fires_first: FiresFirst,
    /// Firing classes by nation, and `default` for any other (11.15 step 7).
    #[serde(default)]
    pub firing_class: BTreeMap<String, ArmClasses>,
    /// The Weapon Range Chart, by weapon name.
    #[serde(default)]
    pub weapons: BTreeMap<String, Weapon>,
    /// The Fire Charts, by row name.
    #[serde(default)]
    pub fire_chart: BTreeMap<String, ChartRow>,
    /// The Fire Combat Modifiers, by name.
    #[serde(default)]
    pub modifiers: BTreeMap<String, Ratio>,
    /// What terrain does to sight and to fire at a unit in it (11.14,
    /// 11.45), by terrain kind.
    #[serde(default)]
    pub terrain: BTreeMap<String, TerrainEffect>,
    /// The Shell/Rocket Accuracy table (11.32, 11.33, 11.54).
    #[serde(default)]
    pub accuracy: Accuracy,
    /// The Artillery/train Critical Hit Table (11.75).
    #[serde(default)]
    pub critical_hit: CriticalHit,
    /// The random officer hit chart (14.62).
    #[serde(default)]
    pub officer_hit: OfficerHit,
    /// Movement allowances by arm, and `skirmish` (outside the chapter:
    /// ruling PF-3).
    #[serde(default)]
    pub movement: BTreeMap<String, Hundredths>,
    /// Figure and cannon bases by arm, for footprints.
    #[serde(default)]
    pub basing: BTreeMap<String, Base>,
    /// Figures across the front of a column.
    #[serde(default)]
    pub column_frontage: u32,
}

/// Which side fires first in a Reciprocal Fire Phase.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FiresFirst {
    #[default]
    Phasing,
    NonPhasing,
}

impl FiresFirst {
    pub const WORDS: &'static [&'static str] = &["phasing", "non-phasing"];

    pub fn from_word(word: &str) -> Option<FiresFirst> {
        match word {
            "phasing" => Some(FiresFirst::Phasing),
            "non-phasing" => Some(FiresFirst::NonPhasing),
            _ => None,
        }
    }
}

/// A nation's firing class for each arm that fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmClasses {
    pub infantry: Class,
    pub cavalry: Class,
    pub artillery: Class,
}

impl ArmClasses {
    pub fn of(&self, arm: Arm) -> Option<Class> {
        match arm {
            Arm::Infantry => Some(self.infantry),
            Arm::Cavalry => Some(self.cavalry),
            Arm::Artillery => Some(self.artillery),
            Arm::Headquarters | Arm::Train => None,
        }
    }
}

/// What a weapon is, for its fire zones (11.32-11.37).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WeaponKind {
    /// Muskets, rifles, carbines, bows and the like.
    SmallArms,
    Gun,
    Howitzer,
    Mortar,
    Rocket,
    /// Siege artillery: no Minimum Range Fire Zone (11.32), no opportunity,
    /// passby, final shock, supportive or multiple fire (11.89).
    Siege,
}

impl WeaponKind {
    pub const WORDS: &'static [&'static str] =
        &["small-arms", "gun", "howitzer", "mortar", "rocket", "siege"];

    pub fn from_word(word: &str) -> Option<WeaponKind> {
        Some(match word {
            "small-arms" => WeaponKind::SmallArms,
            "gun" => WeaponKind::Gun,
            "howitzer" => WeaponKind::Howitzer,
            "mortar" => WeaponKind::Mortar,
            "rocket" => WeaponKind::Rocket,
            "siege" => WeaponKind::Siege,
            _ => return None,
        })
    }

    pub fn is_artillery(self) -> bool {
        self != WeaponKind::SmallArms
    }

    /// "Only artillery batteries with howitzers or mortars have a indirect
    /// fire capabilities" (11.50).
    pub fn fires_indirect(self) -> bool {
        matches!(self, WeaponKind::Howitzer | WeaponKind::Mortar)
    }
}

/// One line of the Weapon Range Chart: where each fire zone ends, in
/// hundredths of an inch; `None` where the weapon has no such zone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weapon {
    pub kind: WeaponKind,
    /// Small arms: the end of the Minimum Range Fire Zone, and of the
    /// Maximum Range Fire Zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum: Option<Hundredths>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum: Option<Hundredths>,
    /// Artillery: the end of the Shot Zone, of the Normal Roundshot Zone
    /// and of the Maximum Roundshot Zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shot: Option<Hundredths>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roundshot: Option<Hundredths>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum_roundshot: Option<Hundredths>,
    /// The Shellfire Zone: from its minimum range out to its end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shell_minimum: Option<Hundredths>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shell: Option<Hundredths>,
    /// The Rocket Zone's end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rocket: Option<Hundredths>,
}

impl Weapon {
    /// The farthest it reaches with any shot.
    pub fn reach(&self) -> Hundredths {
        [
            self.maximum,
            self.shot,
            self.roundshot,
            self.maximum_roundshot,
            self.shell,
            self.rocket,
        ]
        .into_iter()
        .flatten()
        .max()
        .unwrap_or(0)
    }

    /// The shot types it has a zone for.
    pub fn shots(&self) -> Vec<Shot> {
        let mut out = Vec::new();
        if self.kind == WeaponKind::SmallArms {
            out.push(Shot::Ball);
        }
        if self.roundshot.is_some() {
            out.push(Shot::Roundshot);
        }
        if self.shot.is_some() {
            out.push(Shot::Shot);
        }
        if self.shell.is_some() {
            out.push(Shot::Shell);
            out.push(Shot::Shrapnel);
        }
        if self.rocket.is_some() {
            out.push(Shot::Rocket);
        }
        out
    }
}

/// The two target classifications: "Within the Firing Class lines are two
/// target classifications; Massed and Linear target" (11.15 step 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    Massed,
    Linear,
}

impl Category {
    pub fn word(self) -> &'static str {
        match self {
            Category::Massed => "massed",
            Category::Linear => "linear",
        }
    }
}

/// One Firing Class line of a chart row: a base percent for each column,
/// for each target classification.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassLine {
    pub massed: Vec<u32>,
    pub linear: Vec<u32>,
}

/// One Fire Chart row: its columns (the number of figures or cannon
/// firing) and the percentages under them by Firing Class.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChartRow {
    pub columns: Vec<u32>,
    #[serde(rename = "A")]
    pub a: ClassLine,
    #[serde(rename = "B")]
    pub b: ClassLine,
    #[serde(rename = "C")]
    pub c: ClassLine,
}

impl ChartRow {
    /// "Travel horizontal along the Firing Chart row till the number equal
    /// to the number of cannon firing is located": the column of that
    /// number; where the row has no such column, the largest below it
    /// (ruling PF-9). `None` for none firing.
    pub fn column(&self, firing: u32) -> Option<(usize, u32)> {
        self.columns
            .iter()
            .enumerate()
            .rev()
            .find(|(_, c)| **c <= firing)
            .map(|(i, c)| (i, *c))
    }

    pub fn line(&self, class: Class) -> &ClassLine {
        match class {
            Class::A => &self.a,
            Class::B => &self.b,
            Class::C => &self.c,
        }
    }

    /// The base percent at a column for a class and a target category.
    pub fn base(&self, at: usize, class: Class, category: Category) -> Option<u32> {
        let line = self.line(class);
        match category {
            Category::Massed => line.massed.get(at).copied(),
            Category::Linear => line.linear.get(at).copied(),
        }
    }
}

/// What a terrain kind does in fire combat.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerrainEffect {
    /// The Fire Combat Modifier for fire at a unit in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover: Option<Ratio>,
    /// How far a line of sight may run inside it; `None` where it does not
    /// limit sight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sight: Option<Hundredths>,
}

/// One band of the accuracy table: at ranges beyond `beyond`, the factor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccuracyBand {
    pub beyond: Hundredths,
    pub factor: Ratio,
}

/// The Shell/Rocket Accuracy table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accuracy {
    pub shell: Vec<AccuracyBand>,
    pub rocket: Vec<AccuracyBand>,
}

impl Accuracy {
    /// The band for a range: the last whose start it lies beyond (the
    /// first band starts at 0 and takes 0 too).
    pub fn band(bands: &[AccuracyBand], range: Hundredths) -> Option<&AccuracyBand> {
        bands
            .iter()
            .rev()
            .find(|b| range > b.beyond || (b.beyond == 0 && range >= 0))
    }
}

/// A result on a table read by a die: the scores, as the rules print them
/// (`1-3`, `6+`), and the result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row<E> {
    pub roll: String,
    pub effect: E,
}

/// A table of rows, read by a modified roll.
pub fn die_table<E: Clone>(rows: &[Row<E>]) -> Option<DieTable<E>> {
    let rows: Option<Vec<(Band, E)>> = rows
        .iter()
        .map(|r| Band::parse(&r.roll).ok().map(|b| (b, r.effect.clone())))
        .collect();
    DieTable::new(rows?).ok()
}

/// What a critical hit does to a battery or train (11.75-11.77).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CriticalEffect {
    NoEffect,
    CounterbatteryA,
    CounterbatteryB,
    /// Another cannon or train material lost.
    Cannon,
    /// A crew figure lost.
    Crew,
    /// A round of each type of ammunition lost.
    Ammunition,
}

impl CriticalEffect {
    pub const WORDS: &'static [&'static str] = &[
        "no-effect",
        "counterbattery-a",
        "counterbattery-b",
        "cannon",
        "crew",
        "ammunition",
    ];

    pub fn from_word(word: &str) -> Option<CriticalEffect> {
        Some(match word {
            "no-effect" => CriticalEffect::NoEffect,
            "counterbattery-a" => CriticalEffect::CounterbatteryA,
            "counterbattery-b" => CriticalEffect::CounterbatteryB,
            "cannon" => CriticalEffect::Cannon,
            "crew" => CriticalEffect::Crew,
            "ammunition" => CriticalEffect::Ammunition,
            _ => return None,
        })
    }

    pub fn word(self) -> &'static str {
        match self {
            CriticalEffect::NoEffect => "no-effect",
            CriticalEffect::CounterbatteryA => "counterbattery-a",
            CriticalEffect::CounterbatteryB => "counterbattery-b",
            CriticalEffect::Cannon => "cannon",
            CriticalEffect::Crew => "crew",
            CriticalEffect::Ammunition => "ammunition",
        }
    }
}

/// The Artillery/train Critical Hit Table: "Roll a 6D once and match the
/// die roll to the Artillery Critical Hit first section [...] If a 6 is
/// rolled, consult the second Artillery Critical Hit table section".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CriticalHit {
    /// Rolls 1 to 5.
    pub first: Vec<Row<CriticalEffect>>,
    /// Rolls 1 to 6 and beyond (shellfire and rockets add 1).
    pub second: Vec<Row<CriticalEffect>>,
}

/// What an officer hit does to the officer (14.62).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OfficerEffect {
    Killed,
    Wounded,
    Unhurt,
}

impl OfficerEffect {
    pub const WORDS: &'static [&'static str] = &["killed", "wounded", "unhurt"];

    pub fn from_word(word: &str) -> Option<OfficerEffect> {
        Some(match word {
            "killed" => OfficerEffect::Killed,
            "wounded" => OfficerEffect::Wounded,
            "unhurt" => OfficerEffect::Unhurt,
            _ => return None,
        })
    }

    pub fn word(self) -> &'static str {
        match self {
            OfficerEffect::Killed => "killed",
            OfficerEffect::Wounded => "wounded",
            OfficerEffect::Unhurt => "unhurt",
        }
    }

    /// Whether the officer leaves play.
    pub fn is_lost(self) -> bool {
        self != OfficerEffect::Unhurt
    }
}

/// The random officer hit chart: its die and rows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfficerHit {
    pub die: Die,
    pub rows: Vec<Row<OfficerEffect>>,
}

impl Default for OfficerHit {
    fn default() -> Self {
        OfficerHit {
            die: Die::D6,
            rows: Vec::new(),
        }
    }
}

/// A figure's (or a cannon's, or a base's) frontage and depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Base {
    pub frontage: Hundredths,
    pub depth: Hundredths,
}

/// The names of the Fire Combat Modifiers the rules apply by themselves;
/// a campaign may name others for umpire calls.
pub mod modifier {
    /// "Maximum Roundshot Zone [...] The fire attack effect is reduced"
    /// (11.32).
    pub const MAXIMUM_ROUNDSHOT: &str = "maximum-roundshot-zone";
    /// "the fire effect percentage reduced per the modifier located on the
    /// Artillery Fire Chart" (11.54).
    pub const INDIRECT: &str = "indirect-fire";
    /// "Artillery officers attached [...] increase the Fire attack
    /// effectiveness" (11.29).
    pub const ARTILLERY_OFFICER: &str = "artillery-officer";
    /// The "defensive dispersement modifier" an artillery battery receives
    /// as a target but in a square (11.78).
    pub const DISPERSEMENT: &str = "artillery-dispersement";

    pub const REQUIRED: &[&str] = &[MAXIMUM_ROUNDSHOT, INDIRECT, ARTILLERY_OFFICER, DISPERSEMENT];
}

/// The Fire Chart lines of small arms (11.34-11.37).
pub mod line {
    pub const TWO_RANK: &str = "two-rank";
    pub const THREE_RANK: &str = "three-rank";
    pub const SQUARE: &str = "square";
    pub const MOUNTED: &str = "mounted";
    pub const SKIRMISH: &str = "skirmish";
    /// "the Maximum Range/ Disordered Fire Chart Line" (11.34).
    pub const MAXIMUM_RANGE: &str = "maximum-range";

    pub const ALL: &[&str] = &[
        TWO_RANK,
        THREE_RANK,
        SQUARE,
        MOUNTED,
        SKIRMISH,
        MAXIMUM_RANGE,
    ];
}

impl Params {
    /// What the campaign's terrain table says a kind does to fire and
    /// sight, if it names the kind.
    pub fn terrain_effect(&self, kind: TerrainKind) -> Option<&TerrainEffect> {
        self.terrain.get(kind.as_str())
    }

    /// A nation's firing class for an arm, or the `default` entry's.
    pub fn class_of(&self, nation: Option<&str>, arm: Arm) -> Option<Class> {
        nation
            .and_then(|n| self.firing_class.get(n))
            .or_else(|| self.firing_class.get("default"))
            .and_then(|c| c.of(arm))
    }

    /// A named modifier's factor.
    pub fn modifier(&self, name: &str) -> Option<Ratio> {
        self.modifiers.get(name).copied()
    }

    /// The chart row for small arms on a line: the weapon's own row if the
    /// chart has one (`rifle skirmish`), else the line's.
    pub fn small_arms_row(&self, weapon: &str, line: &str) -> Option<(String, &ChartRow)> {
        let own = format!("{weapon} {line}");
        if let Some(row) = self.fire_chart.get(&own) {
            return Some((own, row));
        }
        self.fire_chart.get(line).map(|r| (line.to_string(), r))
    }

    /// The chart row for artillery: `<weapon> <shot>`.
    pub fn artillery_row(&self, weapon: &str, shot: Shot) -> Option<(String, &ChartRow)> {
        let name = format!("{weapon} {}", shot.word());
        self.fire_chart.get(&name).map(|r| (name, r))
    }

    /// The movement allowance of an arm, or of skirmishers.
    pub fn allowance(&self, key: &str) -> Hundredths {
        self.movement.get(key).copied().unwrap_or(0)
    }
}

/// The tables the ruleset ships for play-testing: SAMPLE DATA, made up,
/// not the publisher's (whose charts the chapter does not contain).
pub const SAMPLE: &str = include_str!("sample.toml");

/// The sample tables, read by the campaign reader.
pub fn sample() -> Params {
    let mut keys = plain::PlainKeys::of(SAMPLE);
    read::params(&mut keys, Params::default()).unwrap_or_default()
}
