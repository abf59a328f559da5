//! Indirect fire (11.50-11.57): howitzers and mortars firing into a
//! blocking terrain feature they can see but not the target in it (the
//! General system), or, for Prussian regular batteries and English
//! batteries firing shrapnel, at a target in clear ground behind it (the
//! Prussian system).

use super::Table;
use crate::geometry::{
    Point, nearest_point_of_segment, point_in_polygon, polygons_meet, polygons_overlap,
};
use crate::rules::percentile_fire::ground::TerrainKind;
use crate::rules::percentile_fire::mechanics::fire::Refusal;
use crate::rules::percentile_fire::params::{Params, WeaponKind};
use crate::rules::percentile_fire::state::{Rating, Shot, State, Unit};

/// A blocking terrain feature: the areas "occupying the same area" on the
/// table grouped as one (11.52).
#[derive(Debug, Clone)]
pub struct Feature {
    pub areas: Vec<usize>,
}

/// Whether an area blocks sight: its kind limits sight in the campaign's
/// terrain table, or it is a hill (its crest line blocks).
fn blocks(params: &Params, kind: TerrainKind) -> bool {
    kind == TerrainKind::Hill
        || params
            .terrain_effect(kind)
            .is_some_and(|t| t.sight.is_some())
}

/// The blocking terrain features: overlapping blocking areas grouped,
/// each group one feature ("a Town placed upon a hill would be one terrain
/// feature while a hill with a woods behind would be two terrain features
/// adjacent"), and building models that meet, edge to edge, grouped too
/// ("Town building models are considered one terrain feature for this
/// rule", 11.51; ruling PF-40).
pub fn features(table: &Table, params: &Params) -> Vec<Feature> {
    let blocking: Vec<usize> = (0..table.areas.len())
        .filter(|&i| blocks(params, table.areas[i].kind))
        .collect();
    let mut group: Vec<usize> = (0..table.areas.len()).collect();
    fn root(group: &mut [usize], i: usize) -> usize {
        let mut r = i;
        while group[r] != r {
            r = group[r];
        }
        group[i] = r;
        r
    }
    for (n, &a) in blocking.iter().enumerate() {
        for &b in &blocking[n + 1..] {
            let (area_a, area_b) = (&table.areas[a], &table.areas[b]);
            let one_town = area_a.kind.is_building()
                && area_b.kind.is_building()
                && polygons_meet(&area_a.points, &area_b.points);
            if one_town || polygons_overlap(&area_a.points, &area_b.points) {
                let (ra, rb) = (root(&mut group, a), root(&mut group, b));
                group[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    let mut out: Vec<Feature> = Vec::new();
    let mut roots: Vec<usize> = Vec::new();
    for &a in &blocking {
        let r = root(&mut group, a);
        match roots.iter().position(|&x| x == r) {
            Some(at) => out[at].areas.push(a),
            None => {
                roots.push(r);
                out.push(Feature { areas: vec![a] });
            }
        }
    }
    out
}

/// Whether a battery sees some part of a feature: a corner of one of its
/// areas, or the point of its outline nearest the battery.
fn sees_feature(table: &Table, params: &Params, from: Point, f: &Feature) -> bool {
    f.areas.iter().any(|&a| {
        let pts = &table.areas[a].points;
        let nearest = (0..pts.len())
            .map(|i| nearest_point_of_segment(from, pts[i], pts[(i + 1) % pts.len()]))
            .min_by_key(|p| (p.x - from.x).pow(2) + (p.y - from.y).pow(2));
        pts.iter()
            .copied()
            .chain(nearest)
            .any(|p| table.clear_line(from, p, params))
    })
}

/// The weapon a battery fires indirect with: its own if it is a howitzer
/// or mortar battery, else its howitzers'; and how many fire.
pub fn indirect_weapon(params: &Params, u: &Unit) -> Option<(String, u32)> {
    let own = params.weapons.get(&u.rules.weapon)?;
    if own.kind.fires_indirect() {
        return Some((u.rules.weapon.clone(), u.rules.cannon_now()));
    }
    let n = u.rules.howitzers_now();
    let h = u.rules.howitzer.clone()?;
    (n > 0
        && params
            .weapons
            .get(&h)
            .is_some_and(|w| w.kind.fires_indirect()))
    .then_some((h, n))
}

/// Whether a battery that cannot see its target may fire at it indirect,
/// and by which system; or why not.
#[allow(clippy::too_many_arguments)]
pub fn allowed(
    table: &Table,
    state: &State,
    params: &Params,
    battery: &Unit,
    from: Point,
    target_at: Point,
    shot: Shot,
) -> Result<&'static str, Refusal> {
    const BLIND: &str = "11.26: \"A unit cannot fire at a target unit it cannot observe (exception Howitzerl mortar indirect fire 11.50)\"";
    let kind = params.weapons.get(&battery.rules.weapon).map(|w| w.kind);
    if kind == Some(WeaponKind::Rocket) {
        return Err(Refusal::new(
            "it cannot observe the target, and rockets fire no indirect fire",
            "11.56: \"Rocket Fire attacks canfi use indirect Fire.\"",
        ));
    }
    if battery.rules.rating == Rating::Militia {
        return Err(Refusal::new(
            "it cannot observe the target, and militia rated crews use no indirect fire",
            "11.57: \"Militia rated artillery crews cannot use indirect Fire.\"",
        ));
    }
    let nation = state.nations.get(&battery.side).map(String::as_str);
    // "English artillery batteries firing with shrapnel shell may use the
    // Prussian system" (11.55): guns too; their howitzers firing common
    // shell follow the General system.
    let english_shrapnel = nation == Some("britain") && shot == Shot::Shrapnel;
    if !english_shrapnel {
        if indirect_weapon(params, battery).is_none() {
            return Err(Refusal::new(
                "it cannot observe the target, and only howitzers or mortars fire indirect",
                BLIND,
            ));
        }
        if !matches!(shot, Shot::Shell | Shot::Shrapnel) {
            return Err(Refusal::new(
                format!("it cannot observe the target, and indirect fire is shellfire, not {shot}"),
                "11.54: \"The artillery battery using indirect Fire attack\"",
            ));
        }
    }
    let prussian = nation == Some("prussia") && battery.rules.rating == Rating::Regular;
    let feats = features(table, params);
    let seen: Vec<&Feature> = feats
        .iter()
        .filter(|f| sees_feature(table, params, from, f))
        .collect();
    // The General system: INTO the feature it sees.
    if seen.iter().any(|f| {
        f.areas
            .iter()
            .any(|&a| point_in_polygon(target_at, &table.areas[a].points))
    }) {
        return Ok("the General system: into a blocking terrain feature it can see (11.51a)");
    }
    // The Prussian system: behind it, in clear ground.
    let behind = seen.iter().any(|f| {
        f.areas.iter().any(|&a| {
            crate::geometry::length_inside_polygon(from, target_at, &table.areas[a].points) > 0
        })
    });
    if behind && (prussian || english_shrapnel) {
        return Ok(if prussian {
            "the Prussian system: behind a blocking terrain feature (11.51b)"
        } else {
            "English shrapnel by the Prussian system: behind a blocking terrain feature (11.55)"
        });
    }
    if behind {
        return Err(Refusal::new(
            "it cannot observe the target, which stands behind a terrain feature: only the Prussian system fires on the other side",
            "11.51a: \"Fire attack INTO a blocking terrain feature (see xx.xx) but not on the OTHER SIDE of the terrain feature\"",
        ));
    }
    Err(Refusal::new("it cannot observe the target", BLIND))
}
