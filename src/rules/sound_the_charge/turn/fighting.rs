//! What shooting, close combat and retreats need to know about the units on
//! the table: their troop type, grade, nation and formation in the tables'
//! own terms, cover, and the hits they take. Where they stand and who
//! commands them is the turn's one [`Deployment`].
//!
//! Everything here reads the [`State`] and a [`TurnFacts`] (what the
//! movement phase did this turn); nothing here changes either.

use std::collections::{BTreeMap, BTreeSet};

use crate::geometry::Point;
use crate::geometry::Rect;
use crate::rules::board::TerrainShape;
use crate::rules::sound_the_charge::basing;
use crate::rules::sound_the_charge::ground::{Ground, TerrainKind};
use crate::rules::sound_the_charge::orders::Formation;
use crate::rules::sound_the_charge::setup::WIDER_CAVALRY_BASING;
use crate::rules::sound_the_charge::state::State;
use crate::rules::sound_the_charge::state::Unit;
use crate::rules::sound_the_charge::tables::{Arm, Grade, Nation, TableFormation, Troop};

pub use super::super::field::deployment::{CONTACT, Deployment};

/// What the movement phase of this turn did, as shooting and combat ask
/// about it. The turn sequence fills it; cases and benches may give it
/// directly. Unit ids throughout.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnFacts {
    /// Units that moved this turn ("The firing unit moved this turn: -1").
    pub moved: BTreeSet<String>,
    /// Units that moved more than half their speed: "Infantry may move half
    /// speed and fire at a penalty."
    pub beyond_half_speed: BTreeSet<String>,
    /// Units that charged this turn ("Charging units may not shoot"); a
    /// combat with a charger in it is the round of the charge.
    pub charged: BTreeSet<String>,
    /// Units that advanced full speed on their most recent move (the French
    /// and Spanish column modifiers to shooting morale).
    pub advanced_full_speed: BTreeSet<String>,
    /// Units that stood still on their most recent turn (the Russian column
    /// modifier to shooting morale).
    pub stationary: BTreeSet<String>,
    /// Footprints at the start of the turn, for "the charging [unit] must
    /// begin the turn with one or more of its figures behind the target
    /// unit's frontage line". A unit absent here is taken where it stands.
    pub start: BTreeMap<String, Rect>,
    /// Cavalry that advanced less than two inches on its most recent active
    /// turn and was not in combat on the most recent game turn (Stationary
    /// Cavalry, optional rule).
    pub stationary_cavalry: BTreeSet<String>,
    /// Rounds of combat each cavalry unit has completed in the game (Blown
    /// Cavalry, optional rule: "After completing its second round of combat
    /// during a game, a cavalry regiment is blown").
    pub combat_rounds: BTreeMap<String, u32>,
    /// Chargers and the other unengaged enemies they ended within 1" of,
    /// which they fight as well as their target: Zones of Control, "If a
    /// unit charges to contact with one target, and also winds up within one
    /// inch of other unengaged enemies, it must also count as attacking
    /// those other units."
    pub also_attacking: BTreeSet<(String, String)>,
}

/// The tables' troop type for a unit (horse guns as light guns, ruling
/// STC-61: [`TroopType::in_tables`]).
pub fn troop_of(spec: &Unit) -> Troop {
    spec.rules.troop_type.in_tables()
}

pub fn arm_of(spec: &Unit) -> Arm {
    spec.rules.troop_type.arm()
}

pub fn grade_of(spec: &Unit) -> Grade {
    spec.rules.grade
}

/// The side's nation, for the national modifiers, when the campaign names one.
pub fn nation_of(state: &State, side: &str) -> Option<Nation> {
    state.nations.get(side).and_then(|n| Nation::parse(n))
}

/// The formation in the tables' terms; guns have none.
pub fn formation_of(spec: &Unit) -> Option<TableFormation> {
    TableFormation::parse(stands_as(spec).word())
}

/// The formation a unit counts as for the tables ([`basing::counts_as`];
/// the combat phase makes a masse a square against cavalry on its front or
/// flanks).
pub fn stands_as(spec: &Unit) -> Formation {
    basing::counts_as(spec.rules.formation)
}

pub fn option(state: &State, name: &str) -> bool {
    state.options.iter().any(|o| o == name)
}

pub fn wider_basing(state: &State) -> bool {
    option(state, WIDER_CAVALRY_BASING)
}

/// Whether a unit is still on the table.
pub fn in_play(u: &Unit) -> bool {
    u.eliminated.is_none() && u.strength > 0
}

pub fn has_mark(spec: &Unit, mark: &str) -> bool {
    spec.rules.marks.iter().any(|m| m == mark)
}

/// Whether unit `i` has a regimental gun in action: the optional rule is in
/// force, the scenario gave the battalion one (the `regimental-gun` mark),
/// and it has been neither disabled nor abandoned (ruling STC-95).
pub fn regimental_gun(state: &State, i: usize) -> bool {
    let u = &state.units[i];
    option(state, "regimental-guns")
        && has_mark(u, "regimental-gun")
        && u.rules.status.regimental_gun_lost.is_none()
        && in_play(u)
}

/// "A unit is steady if it is not disordered and is in good morale."
pub fn steady(u: &Unit) -> bool {
    !u.rules.shaken && !u.rules.disordered
}

/// A general is attached to the unit and still in play.
pub fn general_attached(state: &State, unit: &str) -> bool {
    state
        .generals
        .iter()
        .any(|g| g.lost.is_none() && g.attached_to.as_deref() == Some(unit))
}

/// The figures a unit has in its front rank: "one die per four front-rank
/// infantry figures", or its unlimbered gun models.
pub fn front_rank_figures(spec: &Unit) -> u32 {
    let n = spec.strength;
    match (arm_of(spec), stands_as(spec)) {
        (Arm::Infantry, Formation::Line) => {
            let stands = n.div_ceil(4);
            let ranks = spec.rules.ranks.clamp(1, stands.max(1));
            n.min(stands.div_ceil(ranks) * 4)
        }
        (Arm::Infantry, Formation::Column) => n.min(4),
        // "A square may fire from any face": the face towards the target,
        // a quarter of the stands (ruling STC-22).
        (Arm::Infantry, Formation::Square) => n.min(n.div_ceil(4).div_ceil(4) * 4),
        (Arm::Infantry, _) => n,
        (Arm::Artillery, Formation::Unlimbered) => n,
        _ => 0,
    }
}

/// "Eligible Figures in Combat: Each unit fights using all the figures in its
/// first two ranks, regardless of width [...] A unit in square strikes with
/// the side in contact plus the two adjacent sides." Guns: one die per model
/// (ruling STC-3).
pub fn combat_figures(spec: &Unit) -> u32 {
    let n = spec.strength;
    let per_stand = match arm_of(spec) {
        Arm::Infantry => 4,
        Arm::Cavalry => 3,
        _ => return n,
    };
    match stands_as(spec) {
        Formation::Line => {
            let stands = n.div_ceil(per_stand);
            let ranks = spec.rules.ranks.clamp(1, stands.max(1));
            n.min(stands.div_ceil(ranks) * per_stand * 2)
        }
        Formation::Column => n.min(per_stand * 2),
        Formation::Square => n.min(n.div_ceil(per_stand).div_ceil(4) * per_stand * 3),
        _ => n,
    }
}

/// Dense Targets: "A dense target is a unit two or more ranks of figures
/// deep, [...] or in square." (The enfilade is a matter of the line of fire
/// and is judged by the shooter.) A column or a line in ranks with more than
/// one stand is two ranks of figures deep.
pub fn is_dense(spec: &Unit) -> bool {
    // Boats: "Troops in boats are a dense target".
    if super::boats::in_boats(spec) {
        return true;
    }
    let per_stand = match arm_of(spec) {
        Arm::Infantry => 4,
        Arm::Cavalry => 3,
        _ => return false,
    };
    let stands = spec.strength.div_ceil(per_stand);
    match stands_as(spec) {
        Formation::Square => true,
        Formation::Column => stands > 1,
        Formation::Line => spec.rules.ranks > 1 && stands > 1,
        _ => false,
    }
}

/// Cover a target takes against shooting or an attacker in combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cover {
    Open,
    Soft,
    Hard,
}

/// Cover against shooting by `troop`. Terrain Suggestions: woods are "Soft
/// cover vs. shooting but not combat"; town blocks "usually give hard cover
/// [...] vs. musketry, or vs. light guns, and soft cover vs. field or heavy
/// artillery fire"; "Fieldworks give hard cover vs. all attacks"; obstacles
/// "usually give soft cover benefits" to troops behind them. A linear
/// obstacle or work covers a target when the line of fire crosses it within
/// two inches of the target ("if the troops are within two inches of the
/// works").
pub fn shooting_cover(
    state: &State,
    ground: &Ground,
    target: &Rect,
    from: Point,
    to: Point,
    troop: Troop,
) -> Cover {
    let mut cover = Cover::Open;
    for kind in ground.kinds_under(state, target) {
        let c = match kind {
            TerrainKind::LightWoods | TerrainKind::HeavyWoods | TerrainKind::Obstacle => {
                Cover::Soft
            }
            TerrainKind::TownBlock | TerrainKind::Chateau => {
                if matches!(troop, Troop::FieldGuns | Troop::HeavyGuns) {
                    Cover::Soft
                } else {
                    Cover::Hard
                }
            }
            TerrainKind::Fieldworks => Cover::Hard,
            _ => Cover::Open,
        };
        cover = cover.max(c);
    }
    for (kind, t) in ground.features(state) {
        let TerrainShape::Line { points } = &t.shape else {
            continue;
        };
        let Some(c) = line_cover(kind) else {
            continue;
        };
        if crate::geometry::segment_crosses_polyline(from, to, points)
            && points
                .windows(2)
                .any(|w| crate::geometry::distance_to_segment(to, w[0], w[1]) <= 200)
        {
            cover = cover.max(c);
        }
    }
    cover
}

/// The cover a line of terrain gives troops behind it: obstacles "usually
/// give soft cover benefits"; "Fieldworks give hard cover vs. all attacks".
fn line_cover(kind: TerrainKind) -> Option<Cover> {
    match kind {
        TerrainKind::Obstacle => Some(Cover::Soft),
        TerrainKind::Fieldworks => Some(Cover::Hard),
        _ => None,
    }
}

/// Cover a defender has in close combat: woods give none ("Soft cover vs.
/// shooting but not combat"); town blocks "usually give hard cover in
/// combat"; fieldworks hard "vs. all attacks"; linear obstacles soft.
pub fn combat_cover(state: &State, ground: &Ground, defender: &Rect, attacker: &Rect) -> Cover {
    let mut cover = Cover::Open;
    for kind in ground.kinds_under(state, defender) {
        cover = cover.max(match kind {
            TerrainKind::TownBlock | TerrainKind::Chateau | TerrainKind::Fieldworks => Cover::Hard,
            _ => Cover::Open,
        });
    }
    shooting_lines_cover(state, ground, attacker.centre(), defender.centre(), cover)
}

fn shooting_lines_cover(
    state: &State,
    ground: &Ground,
    from: Point,
    to: Point,
    mut cover: Cover,
) -> Cover {
    for (kind, t) in ground.features(state) {
        let TerrainShape::Line { points } = &t.shape else {
            continue;
        };
        let Some(c) = line_cover(kind) else {
            continue;
        };
        if crate::geometry::segment_crosses_polyline(from, to, points) {
            cover = cover.max(c);
        }
    }
    cover
}

/// Disordering terrain for "Skirmishers in disordering terrain such as
/// woods, rough ground, towns, etc."; "a simple linear obstacle such as a
/// wall or stream does not count".
pub fn in_disordering_terrain(state: &State, ground: &Ground, rect: &Rect) -> bool {
    ground.kinds_under(state, rect).iter().any(|k| {
        matches!(
            k,
            TerrainKind::LightWoods
                | TerrainKind::HeavyWoods
                | TerrainKind::Rough
                | TerrainKind::SteepSlope
                | TerrainKind::TownBlock
                | TerrainKind::Chateau
        )
    })
}

/// Whether the centre of `rect` is on a steep slope ("Attacking up steep
/// slope: -1"; ruling STC-63: the state has no heights, so an attacker whose
/// centre stands on a steep slope attacks up it).
pub fn on_steep_slope(state: &State, ground: &Ground, rect: &Rect) -> bool {
    ground
        .kinds_under(state, rect)
        .contains(&TerrainKind::SteepSlope)
}

pub use crate::rules::sound_the_charge::events::{Kind, event};

/// "Each hit a unit suffers removes one figure from the unit"; "Each hit
/// against an artillery unit removes one gunner figure. The gun models
/// themselves are never destroyed."
pub fn apply_hits(u: &mut Unit, hits: u32) {
    if arm_of(u) == Arm::Artillery {
        u.rules.gunners = u.rules.gunners.saturating_sub(hits);
    } else {
        u.strength = u.strength.saturating_sub(hits);
    }
    u.rules.status.loss_hits += hits;
}

/// Rout Hits: "Each rout hit removes one figure from play the same as a loss
/// hit. Rout hits are not regained during the battle."
pub fn apply_rout_hits(u: &mut Unit, hits: u32) {
    if arm_of(u) == Arm::Artillery {
        u.rules.gunners = u.rules.gunners.saturating_sub(hits);
    } else {
        u.strength = u.strength.saturating_sub(hits);
    }
    u.rules.status.rout_hits += hits;
}

impl TurnFacts {
    /// What the turn's movement did, from the turn's record and the units'
    /// status.
    pub fn from_record(state: &State, record: &super::TurnRecord) -> TurnFacts {
        let mut f = TurnFacts::default();
        for (id, m) in &record.moved {
            // Ruling STC-74: a change of formation or facing alone (no
            // distance) is not a move for shooting, so guns may unlimber and
            // fire.
            if m.distance == 0 {
                continue;
            }
            f.moved.insert(id.clone());
            if m.distance * 2 > m.allowance {
                f.beyond_half_speed.insert(id.clone());
            }
        }
        for c in &record.charges {
            f.charged.insert(c.attacker.clone());
            f.start.insert(c.attacker.clone(), c.from);
            if c.contacted {
                for other in c.targets.iter().skip(1) {
                    f.also_attacking.insert((c.attacker.clone(), other.clone()));
                }
            }
        }
        for u in &state.units {
            let id = &u.id;
            if u.rules.status.advanced_full_speed {
                f.advanced_full_speed.insert(id.clone());
            }
            if u.rules.status.last_advance == 0 && !record.moved.contains_key(id) {
                f.stationary.insert(id.clone());
            }
            // Stationary Cavalry: "if it did not advance at least two
            // inches on its most-recent active turn, and it was not in
            // combat on the most-recent game turn".
            if arm_of(u) == Arm::Cavalry
                && u.rules.status.last_advance < 200
                && !record
                    .charges
                    .iter()
                    .any(|c| c.attacker == *id && c.contacted)
                && u.rules.status.last_combat_turn + 1 < state.turn
            {
                f.stationary_cavalry.insert(id.clone());
            }
            f.combat_rounds
                .insert(id.clone(), u.rules.status.combat_rounds);
        }
        f
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! Small states for the unit tests of the turn's fighting modules.
    use super::*;
    use crate::rules::board::{Location, MapSpec};
    use crate::rules::sound_the_charge::state::{StcUnit, TroopType, Unit};
    use crate::rules::state::Nothing;

    #[allow(clippy::too_many_arguments)]
    pub fn unit(
        id: &str,
        side: &str,
        troop: &str,
        grade: &str,
        strength: u32,
        formation: &str,
        at: (i64, i64),
        facing: u32,
    ) -> Unit {
        Unit {
            id: id.to_string(),
            name: id.to_string(),
            side: side.to_string(),
            location: Location::Table { x: at.0, y: at.1 },
            facing,
            strength,
            original_strength: strength,
            eliminated: None,
            rules: StcUnit {
                troop_type: TroopType::from_word(troop).expect("a troop type"),
                grade: Grade::parse(&grade.to_lowercase()).expect("a grade"),
                gunners: if troop.ends_with("guns") {
                    strength * 2
                } else {
                    0
                },
                formation: Formation::from_word(formation).expect("a formation"),
                ranks: 1,
                figure_frontage: None,
                marks: Vec::new(),
                shaken: false,
                disordered: false,
                status: Default::default(),
            },
        }
    }

    pub fn state(units: Vec<Unit>) -> State {
        State {
            campaign: "test".to_string(),
            ruleset: "sound-the-charge".to_string(),
            turn: 1,
            phase: 0,
            active_side: "blue".to_string(),
            sides: vec!["blue".to_string(), "red".to_string()],
            map: MapSpec::Table {
                width: 7200,
                depth: 4800,
            },
            terrain: Vec::new(),
            units,
            generals: Vec::new(),
            standing_orders: BTreeMap::new(),
            turn_limit: None,
            options: Vec::new(),
            nations: BTreeMap::new(),
            finished: None,
            params: Nothing::default(),
            game: Nothing::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;

    #[test]
    fn front_rank_and_combat_figures() {
        let line = unit("a", "blue", "line-infantry", "C", 11, "line", (0, 0), 0);
        assert_eq!(front_rank_figures(&line), 11);
        let col = unit("a", "blue", "line-infantry", "C", 12, "column", (0, 0), 0);
        assert_eq!(front_rank_figures(&col), 4);
        assert_eq!(combat_figures(&col), 8);
        assert!(is_dense(&col));
        assert!(!is_dense(&line));
        let cav = unit("c", "red", "heavy-cavalry", "B", 12, "line", (0, 0), 0);
        assert_eq!(front_rank_figures(&cav), 0);
        assert_eq!(combat_figures(&cav), 12);
    }

    #[test]
    fn shattered_at_a_quarter() {
        use super::super::army_morale::is_shattered;
        let mut u = unit("a", "blue", "line-infantry", "C", 12, "line", (0, 0), 0);
        u.strength = 4;
        assert!(!is_shattered(&u));
        u.strength = 3;
        assert!(is_shattered(&u));
        let mut g = unit("g", "blue", "field-guns", "C", 4, "unlimbered", (0, 0), 0);
        g.rules.gunners = 3;
        assert!(!is_shattered(&g));
        g.rules.gunners = 2;
        assert!(is_shattered(&g));
    }

    #[test]
    fn grid_finds_neighbours_only() {
        let a = unit(
            "a",
            "blue",
            "line-infantry",
            "C",
            12,
            "line",
            (1000, 1000),
            0,
        );
        let b = unit(
            "b",
            "red",
            "line-infantry",
            "C",
            12,
            "line",
            (1000, 1300),
            180,
        );
        let c = unit(
            "c",
            "red",
            "line-infantry",
            "C",
            12,
            "line",
            (6000, 4000),
            180,
        );
        let s = state(vec![a, b, c]);
        let rects = super::super::super::field::deployment::footprints(&s);
        let grid = crate::geometry::Grid::new(&rects, 1200);
        let near = grid.near_rect(rects[0].as_ref().unwrap(), 400);
        assert_eq!(near, vec![0, 1]);
    }
}
