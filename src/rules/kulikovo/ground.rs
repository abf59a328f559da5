//! The ground of a Kulikovo map, read once from the scenario's terrain: what
//! stands in each hex (clear or woods, and its level) and what runs along
//! each hexside (the three rivers, steep slopes, ridges, cliffs). A level
//! change is not written in the scenario: it is every hexside between hexes
//! of different levels that is not a steep slope or a cliff (ruling KUL-3),
//! so the two can never disagree.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use super::clauses;
use crate::geometry::{Direction, Hex, HexGrid, Hexside};
use crate::rules::board::{MapSpec, Terrain, TerrainShape};

/// Terrain kinds laid out as hexes.
pub const HEX_KINDS: &[&str] = &["clear", "woods", "level-1", "level-2", "level-3"];
/// Terrain kinds laid out as hexsides.
pub const SIDE_KINDS: &[&str] = &[
    "nepravda-river",
    "smolka-river",
    "nigni-dubik-river",
    "steep-slope",
    "ridge",
    "cliff",
];
/// Every terrain kind a scenario may use.
pub const TERRAIN_KINDS: &[&str] = &[
    "clear",
    "woods",
    "level-1",
    "level-2",
    "level-3",
    "nepravda-river",
    "smolka-river",
    "nigni-dubik-river",
    "steep-slope",
    "ridge",
    "cliff",
];

/// A feature along a hexside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SideFeature {
    Nepravda,
    Smolka,
    NigniDubik,
    SteepSlope,
    Ridge,
    Cliff,
}

impl SideFeature {
    fn of_kind(kind: &str) -> Option<SideFeature> {
        Some(match kind {
            "nepravda-river" => SideFeature::Nepravda,
            "smolka-river" => SideFeature::Smolka,
            "nigni-dubik-river" => SideFeature::NigniDubik,
            "steep-slope" => SideFeature::SteepSlope,
            "ridge" => SideFeature::Ridge,
            "cliff" => SideFeature::Cliff,
            _ => return None,
        })
    }

    /// The chart's row.
    pub fn name(self) -> &'static str {
        match self {
            SideFeature::Nepravda => "the Nepravda River",
            SideFeature::Smolka => "the Smolka River",
            SideFeature::NigniDubik => "the River Nigni Dubik",
            SideFeature::SteepSlope => "a steep slope",
            SideFeature::Ridge => "a ridge",
            SideFeature::Cliff => "a cliff",
        }
    }
}

/// The map's terrain, by hex and by hexside.
#[derive(Debug, Clone, Default)]
pub struct Ground {
    pub grid: Option<HexGrid>,
    woods: BTreeSet<Hex>,
    levels: BTreeMap<Hex, u8>,
    sides: BTreeMap<Hexside, Vec<SideFeature>>,
}

/// What lies between a hex and its neighbour, seen from the first: the
/// features along the side and which way the ground goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Crossing {
    pub nepravda: bool,
    pub smolka: bool,
    pub nigni_dubik: bool,
    pub steep: bool,
    pub ridge: bool,
    pub cliff: bool,
    /// The far hex's level against the near one's.
    pub level: Level,
}

/// Which way the ground goes across a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Level {
    #[default]
    Same,
    Up,
    Down,
}

impl Crossing {
    /// A change of level that is neither a steep slope nor a cliff: the
    /// chart's Level Change row (ruling KUL-3).
    pub fn level_change(&self) -> bool {
        self.level != Level::Same && !self.steep && !self.cliff
    }

    /// Either stream: "Smolka River and River Nigni Dubik" share a row.
    pub fn stream(&self) -> Option<SideFeature> {
        if self.smolka {
            Some(SideFeature::Smolka)
        } else if self.nigni_dubik {
            Some(SideFeature::NigniDubik)
        } else {
            None
        }
    }

    /// Why nothing may move across, with the clause: the Nepravda and a
    /// cliff are "Uncrossable".
    pub fn uncrossable(&self) -> Option<(&'static str, &'static str)> {
        if self.nepravda {
            Some(("the Nepravda River is uncrossable", clauses::NEPRAVDA_MOVE))
        } else if self.cliff {
            Some(("a cliff is uncrossable", clauses::CLIFF_MOVE))
        } else {
            None
        }
    }

    /// The movement points the side adds to entering the hex beyond it, each
    /// with the clause: "+1 MP to cross hex side" for a stream, "+1 MP to
    /// move to lower or higher level" for a level change or steep slope
    /// (once, ruling KUL-3), "No movement cost" for a ridge.
    pub fn extra_mp(&self) -> Vec<(u32, &'static str)> {
        let mut out = Vec::new();
        if self.stream().is_some() {
            out.push((1, clauses::STREAM_MP));
        }
        if self.steep {
            out.push((1, clauses::STEEP_MP));
        } else if self.level_change() {
            out.push((1, clauses::LEVEL_MP));
        }
        out
    }

    /// Whether the side blocks a line of sight that crosses it: "Blocks LOS
    /// unless adjacent" (level change, steep slope, ridge, cliff).
    pub fn blocks_sight(&self) -> Option<&'static str> {
        if self.cliff {
            Some(clauses::CLIFF_FIRE)
        } else if self.steep {
            Some(clauses::STEEP_FIRE)
        } else if self.ridge {
            Some(clauses::RIDGE_FIRE)
        } else if self.level_change() {
            Some(clauses::LEVEL_FIRE)
        } else {
            None
        }
    }

    /// Why a shock attack may not go across: the Nepravda and a cliff, "Not
    /// allowed".
    pub fn no_shock(&self) -> Option<(&'static str, &'static str)> {
        if self.nepravda {
            Some((
                "no shock across the Nepravda River",
                clauses::NEPRAVDA_SHOCK,
            ))
        } else if self.cliff {
            Some(("no shock across a cliff", clauses::CLIFF_SHOCK))
        } else {
            None
        }
    }

    /// Why a charge may not go across: the Nepravda, a stream, a steep slope
    /// or a cliff, "Not allowed".
    pub fn no_charge(&self) -> Option<(&'static str, &'static str)> {
        if self.nepravda {
            Some((
                "no charge across the Nepravda River",
                clauses::NEPRAVDA_CHARGE,
            ))
        } else if self.cliff {
            Some(("no charge across a cliff", clauses::CLIFF_CHARGE))
        } else if let Some(s) = self.stream() {
            Some((
                match s {
                    SideFeature::Smolka => "no charge across the Smolka River",
                    _ => "no charge across the River Nigni Dubik",
                },
                clauses::STREAM_CHARGE,
            ))
        } else if self.steep {
            Some(("no charge across a steep slope", clauses::STEEP_CHARGE))
        } else {
            None
        }
    }
}

impl Ground {
    /// The ground of a map and its terrain. Features of a kind laid out in
    /// the wrong shape (woods as hexsides, a ridge as hexes) are not read:
    /// the kinds' shapes are in docs/RULINGS.md (Kulikovo: the campaign files).
    pub fn of(map: &MapSpec, terrain: &[Terrain]) -> Ground {
        let grid = match *map {
            MapSpec::Hex { columns, rows } => Some(HexGrid { columns, rows }),
            MapSpec::Table { .. } => None,
        };
        let mut ground = Ground {
            grid,
            ..Ground::default()
        };
        for t in terrain {
            match &t.shape {
                TerrainShape::Hexes { hexes } => {
                    let level = match t.kind.as_str() {
                        "level-1" => Some(1),
                        "level-2" => Some(2),
                        "level-3" => Some(3),
                        _ => None,
                    };
                    for &(c, r) in hexes {
                        let hex = Hex::new(c, r);
                        if t.kind == "woods" {
                            ground.woods.insert(hex);
                        }
                        if let Some(l) = level {
                            // A hex in two level features stands at the
                            // higher.
                            let at = ground.levels.entry(hex).or_insert(l);
                            *at = (*at).max(l);
                        }
                    }
                }
                TerrainShape::Hexsides { sides } => {
                    let Some(feature) = SideFeature::of_kind(&t.kind) else {
                        continue;
                    };
                    for &(c, r, s) in sides {
                        let Some(d) = Direction::from_number(s) else {
                            continue;
                        };
                        let list = ground
                            .sides
                            .entry(Hexside::new(Hex::new(c, r), d))
                            .or_default();
                        if !list.contains(&feature) {
                            list.push(feature);
                            list.sort();
                        }
                    }
                }
                TerrainShape::Area { .. } | TerrainShape::Line { .. } => {}
            }
        }
        ground
    }

    pub fn contains(&self, hex: Hex) -> bool {
        self.grid.is_some_and(|g| g.contains(hex))
    }

    pub fn is_woods(&self, hex: Hex) -> bool {
        self.woods.contains(&hex)
    }

    /// The hex's level: 0 unless a level feature lists it.
    pub fn level(&self, hex: Hex) -> u8 {
        self.levels.get(&hex).copied().unwrap_or(0)
    }

    /// The features along one hexside.
    pub fn features(&self, hex: Hex, side: Direction) -> &[SideFeature] {
        self.sides
            .get(&Hexside::new(hex, side))
            .map_or(&[], Vec::as_slice)
    }

    /// What lies between `from` and its neighbour across `side`.
    pub fn crossing(&self, from: Hex, side: Direction) -> Crossing {
        let mut c = Crossing::default();
        for f in self.features(from, side) {
            match f {
                SideFeature::Nepravda => c.nepravda = true,
                SideFeature::Smolka => c.smolka = true,
                SideFeature::NigniDubik => c.nigni_dubik = true,
                SideFeature::SteepSlope => c.steep = true,
                SideFeature::Ridge => c.ridge = true,
                SideFeature::Cliff => c.cliff = true,
            }
        }
        if let Some(to) = from.neighbour(side) {
            c.level = match self.level(to).cmp(&self.level(from)) {
                Ordering::Greater => Level::Up,
                Ordering::Less => Level::Down,
                Ordering::Equal => Level::Same,
            };
        }
        c
    }

    /// The crossing between two neighbours, from `from`; `None` if they do
    /// not touch.
    pub fn between(&self, from: Hex, to: Hex) -> Option<Crossing> {
        from.side_towards(to).map(|d| self.crossing(from, d))
    }

    /// The movement points to enter `hex`, by its terrain, with the clause:
    /// "Clear 1 MP", "Woods 2 MP".
    pub fn hex_cost(&self, hex: Hex) -> (u32, &'static str) {
        if self.is_woods(hex) {
            (2, clauses::WOODS_MP)
        } else {
            (1, clauses::CLEAR)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terrain(kind: &str, shape: TerrainShape) -> Terrain {
        Terrain {
            id: kind.to_string(),
            kind: kind.to_string(),
            shape,
        }
    }

    fn ground() -> Ground {
        Ground::of(
            &MapSpec::Hex {
                columns: 6,
                rows: 6,
            },
            &[
                terrain(
                    "level-1",
                    TerrainShape::Hexes {
                        hexes: vec![(2, 2), (2, 3)],
                    },
                ),
                terrain(
                    "steep-slope",
                    TerrainShape::Hexsides {
                        sides: vec![(2, 3, 3)],
                    },
                ),
                terrain(
                    "smolka-river",
                    TerrainShape::Hexsides {
                        sides: vec![(3, 3, 0), (3, 2, 3)],
                    },
                ),
                terrain(
                    "woods",
                    TerrainShape::Hexes {
                        hexes: vec![(4, 4)],
                    },
                ),
            ],
        )
    }

    #[test]
    fn a_level_change_is_every_side_between_levels_but_a_steep_slope() {
        let g = ground();
        let up = g.crossing(Hex::new(2, 1), Direction::South);
        assert_eq!(up.level, Level::Up);
        assert!(up.level_change());
        assert_eq!(up.extra_mp(), vec![(1, clauses::LEVEL_MP)]);
        let steep = g.crossing(Hex::new(2, 4), Direction::North);
        assert_eq!(steep.level, Level::Up);
        assert!(steep.steep && !steep.level_change());
        assert_eq!(steep.extra_mp(), vec![(1, clauses::STEEP_MP)]);
        let flat = g.crossing(Hex::new(2, 2), Direction::South);
        assert_eq!(flat, Crossing::default());
    }

    #[test]
    fn a_side_named_twice_from_either_hex_is_one_feature() {
        let g = ground();
        assert_eq!(
            g.features(Hex::new(3, 2), Direction::South),
            &[SideFeature::Smolka]
        );
        assert!(g.crossing(Hex::new(3, 3), Direction::North).smolka);
        assert_eq!(g.hex_cost(Hex::new(4, 4)).0, 2);
        assert_eq!(g.hex_cost(Hex::new(4, 3)).0, 1);
    }
}
