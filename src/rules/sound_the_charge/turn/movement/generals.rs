//! Generals' orders (move, attach, detach) and generals caught alone by the
//! enemy.

use super::*;
use crate::rules::sound_the_charge::events::{Kind, event};
use crate::rules::told::About;

pub(super) fn general_order(p: &mut Phase, g: usize, order: &StcOrder) {
    let gid = p.state.generals[g].id.clone();
    let gname = p.state.generals[g].name.clone();
    let Some(from) = p.field.general_at(g) else {
        return;
    };
    let refuse = |p: &mut Phase, reason: String| {
        p.events.push(event(
            Kind::GeneralCannotGo,
            &[&gid],
            format!("{gname} cannot go there: {reason}."),
        ));
        p.not_done(&gid, format!("cannot go there: {reason}"), None, Vec::new());
    };
    match order {
        StcOrder::MoveTo { to, .. } => {
            let Some(target) = place_point(p, to) else {
                return;
            };
            let d = distance(from, target);
            if d > GENERAL_MOVE {
                refuse(
                    p,
                    format!(
                        "generals move 18\" and the spot is {} away (Generals)",
                        inches(d)
                    ),
                );
                return;
            }
            if let Some((w, dd)) = p.field.table()
                && !geometry::is_on_table(target, w, dd)
            {
                refuse(p, "the spot is off the table".to_string());
                return;
            }
            let gs = &mut p.state.generals[g];
            gs.attached_to = None;
            gs.location = Location::Table {
                x: target.x,
                y: target.y,
            };
            p.events.push(event(
                Kind::GeneralMove,
                &[&gid],
                format!("{gname} rides to {},{}.", coord(target.x), coord(target.y)),
            ));
        }
        StcOrder::Attach { to, .. } => {
            let Some(i) = p.field.index(to.as_str()) else {
                return;
            };
            let Some(rect) = p.field.rect(i) else {
                return;
            };
            let d = geometry::distance_to_rect(from, &rect);
            if d > GENERAL_MOVE {
                refuse(
                    p,
                    format!(
                        "generals move 18\" and the unit is {} away (Generals)",
                        inches(d)
                    ),
                );
                return;
            }
            let at = rect.centre();
            let gs = &mut p.state.generals[g];
            gs.attached_to = Some(to.as_str().to_string());
            gs.location = Location::Table { x: at.x, y: at.y };
            let uname = p.name(i);
            p.events.push(event(
                Kind::GeneralAttach,
                &[&gid, to.as_str()],
                format!("{gname} attaches himself to {uname}."),
            ));
        }
        StcOrder::Detach { .. } => {
            let gs = &mut p.state.generals[g];
            gs.attached_to = None;
            gs.location = Location::Table {
                x: from.x,
                y: from.y,
            };
            p.events.push(event(
                Kind::GeneralDetach,
                &[&gid],
                format!("{gname} leaves the unit he was with."),
            ));
        }
        _ => {}
    }
}

/// Generals: "If a lone general is contacted by an enemy unit, roll a die:
/// On a '1' the general is captured; otherwise he may be moved up to nine
/// inches out of harm's way." Checked for the passive side's lone generals
/// after the active side has moved, in the order of the generals.
pub(super) fn generals_contacted(p: &mut Phase, dice: &mut dyn Dice) {
    let active = p.state.active_side.clone();
    for g in 0..p.state.generals.len() {
        let general = &p.state.generals[g];
        if general.side == active || general.lost.is_some() || general.attached_to.is_some() {
            continue;
        }
        let Some(at) = p.field.general_at(g) else {
            continue;
        };
        let side = general.side.clone();
        let contact: Vec<usize> = p
            .field
            .enemies_near(&side, (at.x, at.y, at.x, at.y), 50)
            .into_iter()
            .filter(|&j| {
                p.field
                    .rect(j)
                    .is_some_and(|r| geometry::distance_to_rect(at, &r) <= 50)
            })
            .collect();
        let Some(&j) = contact.first() else {
            continue;
        };
        let (gid, gname) = (general.id.clone(), general.name.clone());
        let jid = p.id(j);
        let roll = dice.throw(
            Die::D6,
            &format!("lone general contacted: {gname}"),
            Some(About::units(&[&gid, &jid])),
        );
        if roll == 1 {
            p.state.generals[g].lost = Some("captured".to_string());
            p.events.push(
                event(
                    Kind::GeneralCaptured,
                    &[&gid],
                    format!(
                        "{gname} is caught alone by {} and captured (rolled 1) (Generals).",
                        p.state.units[j].name
                    ),
                )
                .also_naming(&[jid]),
            );
            continue;
        }
        // Out of harm's way: straight away from the enemy, 1" clear of every
        // enemy, at most 9" (STC-47).
        let Some(rect) = p.field.rect(j) else {
            continue;
        };
        let mut placed = None;
        let mut d = 100;
        while d <= GENERAL_ESCAPE {
            if let Some(v) = direction_away(rect.centre(), at, d) {
                let q = Point {
                    x: at.x + v.x,
                    y: at.y + v.y,
                };
                let clear = p.field.clear_of_enemies(&side, q, 100);
                let on = p
                    .field
                    .table()
                    .is_none_or(|(w, dd)| geometry::is_on_table(q, w, dd));
                if clear && on {
                    placed = Some(q);
                    break;
                }
            }
            d += 50;
        }
        match placed {
            Some(q) => {
                p.state.generals[g].location = Location::Table { x: q.x, y: q.y };
                let text = format!(
                    "{gname} is contacted by {} but escapes (rolled {roll}) to {},{}.",
                    p.state.units[j].name,
                    coord(q.x),
                    coord(q.y)
                );
                p.event_naming(Kind::GeneralEscapes, &[&gid], &[&p.id(j)], text);
            }
            None => {
                p.state.generals[g].lost = Some("captured".to_string());
                let text = format!(
                    "{gname} is contacted by {} and has nowhere within 9\" to go: captured.",
                    p.state.units[j].name
                );
                p.event_naming(Kind::GeneralCaptured, &[&gid], &[&p.id(j)], text);
            }
        }
    }
}
