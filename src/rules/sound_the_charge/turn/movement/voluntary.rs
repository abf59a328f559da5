//! Optional rule Voluntary Retreat: a unit that falls back of its own will.

use super::*;
use crate::rules::sound_the_charge::events::Kind;

/// Voluntary Retreat (optional rule): "up to 18" long, taken on a line away
/// from the nearest enemy unit [...] The unit must end the retreat farther
/// from all enemy units than it started, and at least four inches from the
/// nearest enemy unit [...] The unit suffers one rout hit and becomes
/// shaken. If the unit was already shaken, it suffers two rout hits and
/// remains shaken."
pub(super) fn voluntary_retreat(p: &mut Phase, i: usize, wanted: Option<u32>) {
    let what = "retreat";
    let Some(start) = p.field.rect(i) else {
        return;
    };
    let side = p.state.units[i].side.clone();
    let enemies: Vec<(usize, Rect)> = p
        .field
        .enemies_of(&side)
        .filter_map(|j| p.field.rect(j).map(|r| (j, r)))
        .collect();
    let Some(&(_, nearest)) = enemies
        .iter()
        .min_by_key(|(j, r)| (geometry::rect_distance(&start, r), *j))
    else {
        p.impossible(i, what, "there is no enemy to retreat from");
        return;
    };
    let from = geometry::nearest_point_of_rect(start.centre(), &nearest);
    let before: Vec<Hundredths> = enemies
        .iter()
        .map(|(_, r)| geometry::rect_distance(&start, r))
        .collect();
    let fits = |r: &Rect| {
        enemies
            .iter()
            .zip(&before)
            .all(|((_, e), b)| geometry::rect_distance(r, e) > *b)
            && enemies
                .iter()
                .all(|(_, e)| geometry::rect_distance(r, e) >= VOLUNTARY_RETREAT_CLEAR)
            && p.field.overlapping(r, &[i]).is_empty()
            && p.field.table().is_none_or(|(w, d)| r.is_inside_table(w, d))
    };
    let shift = |d: Hundredths| {
        direction_away(from, start.centre(), d).map(|v| Rect {
            front_centre: Point {
                x: start.front_centre.x + v.x,
                y: start.front_centre.y + v.y,
            },
            ..start
        })
    };
    let end = match wanted {
        Some(d) => shift(Hundredths::from(d).min(VOLUNTARY_RETREAT_MOST)).filter(|r| fits(r)),
        None => (1..=VOLUNTARY_RETREAT_MOST / 25)
            .map(|k| k * 25)
            .filter_map(shift)
            .find(|r| fits(r)),
    };
    let Some(end) = end else {
        p.impossible(
            i,
            what,
            "no retreat of up to 18\" ends farther from every enemy, at least 4\" from the nearest, and clear of other units (Optional Rules, Voluntary Retreat, 1)",
        );
        return;
    };
    let (others, rects) = p.field.rects_except(&[i]);
    let hits = geometry::straight_move_hits(&start, end.front_centre, &rects);
    if let Some(&k) = hits
        .iter()
        .find(|&&k| p.state.units[others[k]].side != side)
    {
        let other = p.name(others[k]);
        p.impossible_naming(
            i,
            what,
            &format!("the way back is blocked by the enemy {other}"),
            &[others[k]],
        );
        return;
    }
    let hits_taken = if p.state.units[i].rules.shaken { 2 } else { 1 };
    p.movers[i].moved = true;
    p.movers[i].used = p.movers[i].allowance.inches;
    p.place(i, end);
    let u = &mut p.state.units[i];
    u.rules.shaken = true;
    u.rules.status.rout_hits += hits_taken;
    u.strength = u.strength.saturating_sub(hits_taken);
    let (id, name) = (p.id(i), p.name(i));
    p.event(
        Kind::VoluntaryRetreat,
        &[&id],
        format!(
            "{name} retreats {} to {},{}, shaken, and suffers {hits_taken} rout hit{}.",
            inches(distance(start.front_centre, end.front_centre)),
            coord(end.front_centre.x),
            coord(end.front_centre.y),
            if hits_taken == 1 { "" } else { "s" }
        ),
    );
    let r = basing::footprint(&p.state.units[i]);
    p.field.set_rect(i, r);
}
