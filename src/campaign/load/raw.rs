//! The campaign files as serde reads them: every value keeps its span, and
//! every table refuses keys it does not know. Nothing here is checked beyond
//! its TOML type; see docs/CAMPAIGN-FILES.md for what each key means.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use toml::Spanned;

use super::keys::Table;

// ---- campaign.toml ----

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignFile {
    pub campaign: Spanned<CampaignTable>,
    pub ruleset: Spanned<RulesetTable>,
    #[serde(default, rename = "side")]
    pub sides: Vec<Spanned<SideTable>>,
    pub gm: Spanned<GmTable>,
    #[serde(default, rename = "player")]
    pub players: Vec<Spanned<PlayerTable>>,
    #[serde(default, rename = "observer")]
    pub observers: Vec<Spanned<ObserverTable>>,
    /// Read as a map: besides its fixed keys it holds one duration per
    /// phase of the ruleset, named as the ruleset names its phases.
    pub schedule: Spanned<BTreeMap<Spanned<String>, Spanned<toml::Value>>>,
    pub dice: Option<Spanned<DiceTable>>,
    pub chronicle: Option<Spanned<ChronicleTable>>,
}

/// `[chronicle]`: where the campaign's chronicle is published on the web.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChronicleTable {
    pub url: Spanned<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignTable {
    pub id: Spanned<String>,
    pub title: Spanned<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetTable {
    pub id: Spanned<String>,
    #[serde(default)]
    pub options: Vec<Spanned<String>>,
    /// The ruleset reads these itself (`keys`).
    pub parameters: Option<Spanned<Table>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideTable {
    pub id: Spanned<String>,
    pub name: Spanned<String>,
    pub nation: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GmTable {
    pub name: Spanned<String>,
    pub address: Spanned<String>,
    pub time_zone: Option<Spanned<String>>,
    pub passphrase_hash: Spanned<String>,
    #[serde(default)]
    pub require_dkim: bool,
    /// Whether the GM gets a copy of every acknowledgement and refusal.
    #[serde(default)]
    pub copies: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerTable {
    pub name: Spanned<String>,
    pub address: Spanned<String>,
    pub side: Spanned<String>,
    pub time_zone: Option<Spanned<String>>,
    pub passphrase_hash: Spanned<String>,
    #[serde(default)]
    pub require_dkim: bool,
}

/// `[[observer]]`: someone who follows the campaign without playing.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObserverTable {
    pub name: Spanned<String>,
    pub address: Spanned<String>,
    pub time_zone: Option<Spanned<String>>,
    /// `reports` (the default) or `chronicle`.
    pub receives: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceTable {
    pub chain_length: Option<Spanned<i64>>,
    pub beacon: Option<Spanned<String>>,
    pub drand: Option<Spanned<DrandTable>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrandTable {
    /// `quicknet`, drand's network whose parameters are built in.
    pub network: Option<Spanned<String>>,
    /// Another network's `/info` JSON.
    pub info: Option<Spanned<String>>,
    pub url: Option<Spanned<String>>,
    pub margin: Option<Spanned<String>>,
    /// `false`: the campaign knows that its network (given by `info`) is no
    /// public one adjutant knows, and that the game master may control it;
    /// every mail and report then says so.
    pub trusted: Option<Spanned<bool>>,
}

// ---- scenario.toml ----

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    pub scenario: Spanned<ScenarioTable>,
    pub map: Spanned<MapTable>,
    pub victory: Option<Spanned<VictoryTable>>,
    #[serde(default)]
    pub terrain: Vec<Spanned<TerrainTable>>,
    #[serde(default, rename = "unit")]
    /// Each unit's keys: the loader reads the shared ones, the ruleset
    /// its own (`keys`).
    pub units: Vec<Spanned<Table>>,
    #[serde(default, rename = "general")]
    pub generals: Vec<Spanned<GeneralTable>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioTable {
    pub title: Spanned<String>,
    pub first_active: Spanned<String>,
    pub turn_limit: Option<Spanned<i64>>,
}

/// `[victory]`: how the scenario is won.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryTable {
    #[serde(default, rename = "objective")]
    pub objectives: Vec<Spanned<ObjectiveTable>>,
    pub points_per_unit: Option<Spanned<i64>>,
    pub margin: Option<Spanned<i64>>,
    pub broken_army_loses: Option<bool>,
}

/// `[[victory.objective]]`: a place worth points to the side holding it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectiveTable {
    pub name: Spanned<String>,
    pub x: Option<Spanned<Inches>>,
    pub y: Option<Spanned<Inches>>,
    pub column: Option<Spanned<i64>>,
    pub row: Option<Spanned<i64>>,
    pub radius: Option<Spanned<Inches>>,
    pub points: Spanned<i64>,
}

impl ObjectiveTable {
    pub fn place(&self) -> Place<'_> {
        Place {
            x: self.x.as_ref(),
            y: self.y.as_ref(),
            column: self.column.as_ref(),
            row: self.row.as_ref(),
        }
    }
}

/// One table for both kinds of map; which keys a kind needs is a check.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapTable {
    pub kind: Spanned<String>,
    pub width: Option<Spanned<Inches>>,
    pub depth: Option<Spanned<Inches>>,
    pub columns: Option<Spanned<i64>>,
    pub rows: Option<Spanned<i64>>,
}

/// A feature gives exactly one of its shapes; that too is a check. Points
/// and hexes are read as lists and their length checked after, because
/// serde would take `[1, 2, 3]` for a pair and drop the 3.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainTable {
    pub id: Spanned<String>,
    pub kind: Spanned<String>,
    pub area: Option<Spanned<Vec<Spanned<Vec<Inches>>>>>,
    pub line: Option<Spanned<Vec<Spanned<Vec<Inches>>>>>,
    pub hexes: Option<Spanned<Vec<Spanned<Vec<i64>>>>>,
    pub hexsides: Option<Spanned<Vec<Spanned<Vec<i64>>>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralTable {
    pub id: Spanned<String>,
    pub name: Spanned<String>,
    pub side: Spanned<String>,
    pub x: Option<Spanned<Inches>>,
    pub y: Option<Spanned<Inches>>,
    pub column: Option<Spanned<i64>>,
    pub row: Option<Spanned<i64>>,
    pub attached_to: Option<Spanned<String>>,
}

/// Where a piece stands: `x` and `y` on a table, `column` and `row` on a
/// hex map. The keys sit in the unit's or general's own table (serde's
/// `flatten` would lose their spans and let unknown keys through).
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    pub x: Option<&'a Spanned<Inches>>,
    pub y: Option<&'a Spanned<Inches>>,
    pub column: Option<&'a Spanned<i64>>,
    pub row: Option<&'a Spanned<i64>>,
}

impl GeneralTable {
    pub fn place(&self) -> Place<'_> {
        Place {
            x: self.x.as_ref(),
            y: self.y.as_ref(),
            column: self.column.as_ref(),
            row: self.row.as_ref(),
        }
    }
}

/// A length in inches as written: an integer or a decimal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Inches(pub f64);

impl<'de> Deserialize<'de> for Inches {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct InchesVisitor;
        impl Visitor<'_> for InchesVisitor {
            type Value = Inches;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number of inches, such as 12 or 12.5")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Inches, E> {
                Ok(Inches(v as f64))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Inches, E> {
                Ok(Inches(v as f64))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Inches, E> {
                Ok(Inches(v))
            }
        }
        deserializer.deserialize_any(InchesVisitor)
    }
}
