//! Towns, for the fighting phases: "Troops inside may fire out any side
//! with up to 12 figures. Troops in town blocks have no flanks or rear. All
//! troops inside a block may fight. Attackers may attack each side of a
//! block with up to 36 figures; count all the figures in the attacking
//! units, up to 36, not just figures in the front two ranks." And: "If a
//! town block actually represents a single chateau or fortified manor house,
//! then the number of attackers should be reduced to 12 maximum against any
//! side."
//!
//! A unit is in a block when the centre of its footprint is (ruling
//! STC-62); the side of a block an attacker attacks is the face of the
//! defending unit it touches (ruling STC-91).

use std::collections::BTreeMap;

use super::combat::{Face, face_towards};
use super::fighting::{Deployment, arm_of};
use crate::geometry::{Point, Rect, point_in_polygon};
use crate::rules::board::Terrain;
use crate::rules::sound_the_charge::ground::{Ground, TerrainKind};
use crate::rules::sound_the_charge::state::State;
use crate::rules::sound_the_charge::tables::Arm;

/// "Troops inside may fire out any side with up to 12 figures."
pub const FIRE_OUT: u32 = 12;
/// "Attackers may attack each side of a block with up to 36 figures".
pub const ATTACKERS_PER_SIDE: u32 = 36;
/// A chateau: "reduced to 12 maximum against any side".
pub const CHATEAU_ATTACKERS_PER_SIDE: u32 = 12;

/// The kind of built-up area a footprint stands in, if any: a chateau
/// before a town block.
pub fn built_up(state: &State, ground: &Ground, rect: &Rect) -> Option<TerrainKind> {
    let kinds = ground.kinds_under(state, rect);
    [TerrainKind::Chateau, TerrainKind::TownBlock]
        .into_iter()
        .find(|k| kinds.contains(k))
}

/// The figures that fire out of a block: every figure of an infantry unit
/// inside, up to twelve; `None` for a unit not in a block.
pub fn fire_out_figures(state: &State, ground: &Ground, i: usize, rect: &Rect) -> Option<u32> {
    let u = &state.units[i];
    if arm_of(u) != Arm::Infantry || built_up(state, ground, rect).is_none() {
        return None;
    }
    Some(u.strength.min(FIRE_OUT))
}

/// The figures that fight in close combat where a block is concerned, by
/// unit: every figure of a unit inside a block ("All troops inside a block
/// may fight"), and for units outside attacking one, all their figures up
/// to 36 a side of the block (12 for a chateau), shared out among the
/// attackers of a side in the order of the units in the state. Units not
/// in the map fight with their usual figures.
pub fn combat_figures(
    state: &State,
    table: &Deployment,
    contacts: &BTreeMap<usize, Vec<usize>>,
) -> BTreeMap<usize, u32> {
    let mut figures = BTreeMap::new();
    for (&d, enemies) in contacts {
        let Some(dr) = table.index.rects[d] else {
            continue;
        };
        let Some(kind) = built_up(state, &table.ground, &dr) else {
            continue;
        };
        figures.insert(d, state.units[d].strength);
        let cap = if kind == TerrainKind::Chateau {
            CHATEAU_ATTACKERS_PER_SIDE
        } else {
            ATTACKERS_PER_SIDE
        };
        let mut left: BTreeMap<Face, u32> = BTreeMap::new();
        for &a in enemies {
            let Some(ar) = table.index.rects[a] else {
                continue;
            };
            if built_up(state, &table.ground, &ar).is_some() {
                continue;
            }
            let room = left.entry(face_towards(&dr, &ar)).or_insert(cap);
            let n = state.units[a].strength.min(*room);
            *room -= n;
            let all = state.units[a].strength;
            let e = figures.entry(a).or_insert(0);
            *e = (*e + n).min(all);
        }
    }
    figures
}

/// Towns: "A block can hold 24 figures."
pub const BLOCK_HOLDS: u32 = 24;

/// The town blocks and chateaux that hold a point, with their kinds and
/// outlines.
fn blocks_at<'s>(
    state: &'s State,
    ground: &Ground,
    p: Point,
) -> Vec<(TerrainKind, &'s Terrain, &'s [Point])> {
    ground
        .areas(state, TerrainKind::is_built_up)
        .filter(|(_, _, points)| point_in_polygon(p, points))
        .collect()
}

/// Why unit `i` may not end a move at `end`, if the block it would stand in
/// would then hold more than 24 figures: its own and those of every other
/// unit whose centre is in the block (ruling STC-92).
pub fn over_capacity(field: &super::Field, i: usize, end: &Rect) -> Option<String> {
    let state = field.state;
    for (kind, block, points) in blocks_at(state, field.ground(), end.centre()) {
        let xs = points.iter().map(|p| p.x);
        let ys = points.iter().map(|p| p.y);
        let area = (
            xs.clone().min().unwrap_or(0),
            ys.clone().min().unwrap_or(0),
            xs.max().unwrap_or(0),
            ys.max().unwrap_or(0),
        );
        let there: u32 = field
            .near_box(area, 0)
            .into_iter()
            .filter(|&j| j != i)
            .filter_map(|j| field.rect(j).map(|r| (j, r)))
            .filter(|(_, r)| point_in_polygon(r.centre(), points))
            .map(|(j, _)| field.unit(j).strength)
            .sum();
        let mine = state.units[i].strength;
        if there + mine > BLOCK_HOLDS {
            return Some(format!(
                "{} ({}) already holds {there} figures, and {mine} more would pass the 24 a block can hold (Terrain Suggestions, Towns: \"A block can hold 24 figures.\")",
                kind.as_str().replace('-', " "),
                block.id
            ));
        }
    }
    None
}

/// Whether a retreat that began at `start` would end at `end` still inside
/// the block it began in: "A unit in a block that fails a fire test or
/// loses a round of combat must retreat out of the block it occupies."
pub fn still_in_block(state: &State, ground: &Ground, start: &Rect, end: &Rect) -> bool {
    let end_centre = end.centre();
    blocks_at(state, ground, start.centre())
        .iter()
        .any(|(_, _, points)| point_in_polygon(end_centre, points))
}
