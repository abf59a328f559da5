//! Britain, Portugal (national modifier): "Cavalry must follow up a
//! retreating enemy in combat on a die score of 1-4, and fight another round
//! of combat next turn. If the enemy retreats off the table, the cavalry
//! must also leave; test at the start of each active turn to see if it
//! returns. It returns on a 5-6. Place the unit on the edge of the table. It
//! is in good order and morale when it returns, and in any formation. It
//! returns as near as possible to where it left. It may not charge on the
//! turn it returns." Ruling STC-96.

use super::fighting::{CONTACT, Deployment, arm_of, event, in_play, nation_of};
use crate::audit::dice::{Dice, Die};
use crate::geometry::Point;
use crate::geometry::{Rect, rect_distance, straight_move_hits};
use crate::rules::board::{Location, MapSpec};
use crate::rules::ruleset::Event;
use crate::rules::sound_the_charge::basing;
use crate::rules::sound_the_charge::events::Kind;
use crate::rules::sound_the_charge::state::State;
use crate::rules::sound_the_charge::tables::{Arm, Nation};
use crate::rules::told::About;

/// Why a unit is out of play while it is off the table following up.
pub const LEFT_FOLLOWING: &str = "left the table following up";

const CLAUSE: &str = "National Modifiers, Britain, Portugal";

/// Whether unit `i` is cavalry that must test to follow up.
pub fn follows_up(state: &State, i: usize) -> bool {
    let u = &state.units[i];
    in_play(u) && arm_of(u) == Arm::Cavalry && nation_of(state, &u.side) == Some(Nation::Britain)
}

/// The follow-up of cavalry `i` after its enemy `e` retreated from
/// `before` (its footprint before the retreat): on 1-4 it moves as far and
/// the same way as the enemy's centre did, so it is in contact again and
/// the combat goes on; if the enemy was forced off the table, it leaves the
/// table too. On 5-6 it holds its ground.
pub fn follow_up(
    state: &mut State,
    table: &mut Deployment,
    i: usize,
    e: usize,
    before: Rect,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) {
    let id = state.units[i].id.clone();
    let name = state.units[i].name.clone();
    let eid = state.units[e].id.clone();
    let ename = state.units[e].name.clone();
    let off_table = state.units[e].eliminated.as_deref() == Some(super::retreat::FORCED_OFF_TABLE);
    if !to_be_followed(state, table, i, e, off_table) {
        return;
    }
    let roll = dice.throw(
        Die::D6,
        &format!("follow up: {name}"),
        Some(About::units(&[&id, &eid])),
    );
    let units = [id.as_str(), eid.as_str()];
    if roll >= 5 {
        events.push(event(
            Kind::FollowUp,
            &units,
            format!("{name} rolls {roll} and holds its ground instead of following up {ename} ({CLAUSE}: \"Cavalry must follow up a retreating enemy in combat on a die score of 1-4\")."),
        ));
        return;
    }
    let Some(mine) = table.index.rects[i] else {
        return;
    };
    if off_table {
        leave_table(state, table, i, &mine);
        events.push(event(
            Kind::FollowUp,
            &units,
            format!("{name} rolls {roll} and follows {ename} off the table ({CLAUSE}: \"If the enemy retreats off the table, the cavalry must also leave; test at the start of each active turn to see if it returns. It returns on a 5-6.\")."),
        ));
        return;
    }
    let Some(after) = table.index.rects[e] else {
        return;
    };
    let (to, in_contact) = closing_place(&mine, &before, &after);
    let blocked = in_the_way(table, i, e, &mine, &to);
    let off = match state.map {
        MapSpec::Table { width, depth } => !to.is_inside_table(width, depth),
        MapSpec::Hex { .. } => true,
    };
    if let Some(j) = blocked.filter(|_| !off) {
        events.push(
            event(
                Kind::FollowUp,
                &units,
                format!(
                    "{name} rolls {roll} but cannot follow up {ename}: {} is in the way.",
                    state.units[j].name
                ),
            )
            .also_naming(&[&state.units[j].id]),
        );
        return;
    }
    if off {
        events.push(event(
            Kind::FollowUp,
            &units,
            format!("{name} rolls {roll} but cannot follow up {ename} without leaving the table."),
        ));
        return;
    }
    if !in_contact {
        events.push(event(
            Kind::FollowUp,
            &units,
            format!("{name} rolls {roll} but cannot close with {ename} again."),
        ));
        return;
    }
    state.units[i].location = Location::Table {
        x: to.front_centre.x,
        y: to.front_centre.y,
    };
    table.refresh(state, i);
    events.push(event(
        Kind::FollowUp,
        &units,
        format!("{name} rolls {roll} and follows up {ename}; they fight another round next turn ({CLAUSE}: \"Cavalry must follow up a retreating enemy in combat on a die score of 1-4, and fight another round of combat next turn.\")."),
    ));
}

/// Whether cavalry `i` tests to follow up enemy `e`: an enemy gone for
/// another cause than being forced off the table, or shattered and about
/// to leave play, is not followed; nor does cavalry still held by another
/// enemy break off from it ("Units may not break off combat").
fn to_be_followed(state: &State, table: &Deployment, i: usize, e: usize, off_table: bool) -> bool {
    if !off_table
        && (!in_play(&state.units[e]) || super::army_morale::is_shattered(&state.units[e]))
    {
        return false;
    }
    let side = &state.units[i].side;
    let held = table
        .within(i, CONTACT)
        .into_iter()
        .any(|j| j != e && state.units[j].side != *side && in_play(&state.units[j]));
    !held
}

/// "If the enemy retreats off the table, the cavalry must also leave": it
/// is out of play, remembering where it left (it "returns as near as
/// possible to where it left").
fn leave_table(state: &mut State, table: &mut Deployment, i: usize, mine: &Rect) {
    let u = &mut state.units[i];
    u.eliminated = Some(LEFT_FOLLOWING.to_string());
    u.rules.status.left_from = Some(mine.centre());
    u.rules.status.in_combat = false;
    table.refresh(state, i);
}

/// Where cavalry standing at `mine` follows to, moved as far and the same
/// way as the enemy's centre moved from `before` to `after`, and whether it
/// touches the enemy there. A unit whose shape changed as it retreated (a
/// square ends in column) may need a little more to touch.
fn closing_place(mine: &Rect, before: &Rect, after: &Rect) -> (Rect, bool) {
    let (dx, dy) = (
        after.centre().x - before.centre().x,
        after.centre().y - before.centre().y,
    );
    let shifted = |k: f64| Rect {
        front_centre: Point {
            x: mine.front_centre.x + libm::round(dx as f64 * k) as i64,
            y: mine.front_centre.y + libm::round(dy as f64 * k) as i64,
        },
        ..*mine
    };
    let mut to = shifted(1.0);
    let length = libm::sqrt((dx * dx + dy * dy) as f64);
    let mut extra = 0.0;
    if length > 0.0 {
        for _ in 0..3 {
            let gap = rect_distance(&to, after);
            if gap <= CONTACT {
                break;
            }
            extra += gap as f64;
            to = shifted(1.0 + extra / length);
        }
    }
    let in_contact = rect_distance(&to, after) <= CONTACT;
    (to, in_contact)
}

/// The unit other than `i` and its enemy `e` that stops a follow-up from
/// `mine` to `to`: the first its way runs into, or one standing on `to`.
fn in_the_way(table: &Deployment, i: usize, e: usize, mine: &Rect, to: &Rect) -> Option<usize> {
    let area = super::movement::box_of(mine, to);
    let others: Vec<usize> = table
        .index
        .grid
        .near_box(area, CONTACT)
        .into_iter()
        .filter(|&j| j != i && j != e && table.index.rects[j].is_some())
        .collect();
    let rects: Vec<Rect> = others
        .iter()
        .filter_map(|&j| table.index.rects[j])
        .collect();
    straight_move_hits(mine, to.front_centre, &rects)
        .first()
        .map(|&k| others[k])
        .or_else(|| {
            others
                .iter()
                .copied()
                .find(|&j| table.index.rects[j].is_some_and(|r| r.overlaps(to)))
        })
}

/// The test at the start of the active side's turn for its cavalry off the
/// table: on 5-6 it comes back at the edge nearest where it left, facing
/// onto the table, in good order and morale, in the formation it had.
pub fn returns(state: &mut State, dice: &mut dyn Dice, events: &mut Vec<Event>) {
    let MapSpec::Table { width, depth } = state.map else {
        return;
    };
    let active = state.active_side.clone();
    for i in 0..state.units.len() {
        let u = &state.units[i];
        if u.side != active || u.eliminated.as_deref() != Some(LEFT_FOLLOWING) {
            continue;
        }
        let Some(left) = u.rules.status.left_from else {
            continue;
        };
        let (id, name) = (u.id.clone(), u.name.clone());
        let roll = dice.throw(
            Die::D6,
            &format!("return to the table: {name}"),
            Some(About::units(&[&id])),
        );
        if roll < 5 {
            events.push(event(
                Kind::Return,
                &[&id],
                format!("{name} rolls {roll} and stays off the table ({CLAUSE}: \"It returns on a 5-6.\")."),
            ));
            continue;
        }
        match place_at_edge(state, i, left, width, depth) {
            Some(at) => {
                let u = &mut state.units[i];
                u.location = Location::Table {
                    x: at.front_centre.x,
                    y: at.front_centre.y,
                };
                u.facing = at.facing;
                u.eliminated = None;
                u.rules.shaken = false;
                u.rules.disordered = false;
                u.rules.status.left_from = None;
                u.rules.status.in_combat = false;
                events.push(event(
                    Kind::Return,
                    &[&id],
                    format!("{name} rolls {roll} and returns to the table at its edge, in good order and morale ({CLAUSE}: \"Place the unit on the edge of the table. It is in good order and morale when it returns, and in any formation. It returns as near as possible to where it left.\")."),
                ));
            }
            None => events.push(event(
                Kind::Return,
                &[&id],
                format!("{name} rolls {roll} but finds no room at the edge of the table to return; it tests again next turn."),
            )),
        }
    }
}

/// The footprint at the table edge nearest `left`, facing onto the table,
/// as near to `left` along the edge as other units allow (every half inch,
/// either way, up to 12 inches).
fn place_at_edge(state: &State, i: usize, left: Point, width: i64, depth: i64) -> Option<Rect> {
    let spec = &state.units[i];
    // The edge nearest the point it left from, and the facing onto the table.
    let edges = [
        (left.y, 0u32),
        (depth - left.y, 180),
        (left.x, 90),
        (width - left.x, 270),
    ];
    let (_, facing) = edges.iter().copied().min_by_key(|&(d, f)| (d, f))?;
    let mut probe = spec.clone();
    probe.facing = facing;
    probe.location = Location::Table { x: 0, y: 0 };
    let shape = basing::footprint(&probe)?;
    let (w, d) = (shape.width, shape.depth);
    let along_edge = if matches!(facing, 0 | 180) {
        width
    } else {
        depth
    };
    if w > along_edge {
        return None;
    }
    let side = &spec.side;
    // No unit where it stands, and no enemy within 1" (Zones of Control):
    // "It may not charge on the turn it returns".
    let others: Vec<(bool, Rect)> = state
        .units
        .iter()
        .enumerate()
        .filter(|&(j, u)| j != i && in_play(u))
        .filter_map(|(_, u)| basing::footprint(u).map(|r| (u.side != *side, r)))
        .collect();
    for k in 0..=48i64 {
        let shift = if k % 2 == 0 {
            k / 2 * 50
        } else {
            -(k + 1) / 2 * 50
        };
        let front = match facing {
            0 => Point {
                x: (left.x + shift).clamp(w / 2, width - w / 2),
                y: d,
            },
            180 => Point {
                x: (left.x + shift).clamp(w / 2, width - w / 2),
                y: depth - d,
            },
            90 => Point {
                x: d,
                y: (left.y + shift).clamp(w / 2, depth - w / 2),
            },
            _ => Point {
                x: width - d,
                y: (left.y + shift).clamp(w / 2, depth - w / 2),
            },
        };
        let at = Rect {
            front_centre: front,
            ..shape
        };
        let clear = others.iter().all(|(enemy, o)| {
            let too_near =
                *enemy && rect_distance(o, &at) < super::super::field::deployment::ZONE_OF_CONTROL;
            !(o.overlaps(&at) || too_near)
        });
        if at.is_inside_table(width, depth) && clear {
            return Some(at);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::fighting::testing::{state, unit};
    use super::*;
    use crate::audit::dice::ForcedDice;

    /// Blue cavalry that left over the north edge (48") at x 36", and a red
    /// battalion standing `red_at`.
    fn off_the_table(red_at: (i64, i64)) -> State {
        let mut hussars = unit(
            "hus",
            "blue",
            "light-cavalry",
            "C",
            12,
            "line",
            (3600, 4550),
            0,
        );
        hussars.eliminated = Some(LEFT_FOLLOWING.to_string());
        hussars.rules.shaken = true;
        hussars.rules.disordered = true;
        hussars.rules.status.left_from = Some(Point { x: 3600, y: 4900 });
        let foot = unit("foot", "red", "line-infantry", "C", 12, "line", red_at, 180);
        state(vec![hussars, foot])
    }

    #[test]
    fn cavalry_off_the_table_returns_on_5_or_6_at_the_edge_it_left_in_good_order() {
        let mut s = off_the_table((1000, 1000));
        let mut dice = ForcedDice::new([5]);
        let mut events = Vec::new();
        returns(&mut s, &mut dice, &mut events);
        let u = &s.units[0];
        assert_eq!(u.eliminated, None, "{events:?}");
        assert!(!u.rules.shaken && !u.rules.disordered);
        // Facing south onto the table, its rear on the north edge.
        let r = basing::footprint(u).expect("on the table");
        assert_eq!(u.facing, 180);
        assert_eq!(r.front_centre.x, 3600);
        assert!(r.is_inside_table(7200, 4800));
        assert_eq!(r.front_centre.y + r.depth, 4800);
        assert_eq!(events[0].kind, "return");
    }

    #[test]
    fn cavalry_off_the_table_stays_off_on_1_to_4() {
        let mut s = off_the_table((1000, 1000));
        let mut dice = ForcedDice::new([4]);
        let mut events = Vec::new();
        returns(&mut s, &mut dice, &mut events);
        assert_eq!(s.units[0].eliminated.as_deref(), Some(LEFT_FOLLOWING));
    }

    #[test]
    fn a_returning_unit_is_placed_beside_a_unit_standing_where_it_left() {
        // The red battalion stands at the edge just where the hussars left.
        let mut s = off_the_table((3600, 4700));
        let mut dice = ForcedDice::new([6]);
        let mut events = Vec::new();
        returns(&mut s, &mut dice, &mut events);
        let mine = basing::footprint(&s.units[0]).expect("returned");
        let theirs = basing::footprint(&s.units[1]).expect("there");
        assert!(!mine.overlaps(&theirs));
        assert_ne!(mine.front_centre.x, 3600);
    }
}
