//! The countercharge: "Exception: if cavalry fail when attempting to charge
//! cavalry, there is a countercharge: move the charged cavalry to meet the
//! charging cavalry 1/3rd of the way towards the point where the charge
//! began. From there, the charging cavalry flees (11”+2d6) and the charged
//! cavalry pursues it one inch less and becomes shaken."
//!
//! Ruling GT-15: the principal attacker is moved back from where it met the
//! target a third of the way towards the point its charge began (its front
//! centre before it moved; no way at all for a charge made from contact),
//! and the charged cavalry is set front to front with it there. Every
//! charging unit then flees, away from the charged cavalry; the charged
//! cavalry pursues the principal one inch less than it fled, stopping in
//! contact with any unit in its way (it has made no charge of its own, so
//! the follow-up clauses of Cavalry pursuit are not its), and is shaken.
//!
//! Ruling GT-25: where the principal's place a third of the way back, or
//! the charged cavalry's front to front with it, lies across another unit
//! than the charging ones (which flee from it at once) or off the table,
//! neither moves: they meet where they stand, and the countercharge goes on
//! from there.

use super::super::super::clauses;
use super::super::super::events;
use super::outcome::{Fled, flee};
use super::pursuit::{self, Pursuit};
use super::{Play, joined};
use crate::geometry::{Rect, Side, facing_onto, point_between, set_against};

pub fn countercharge(play: &mut Play, attackers: &[usize], t: usize, began: &[(usize, Rect)]) {
    let p = attackers[0];
    let (Some(pr), Some(tr)) = (play.field.rect(p), play.field.rect(t)) else {
        return;
    };
    let start = began
        .iter()
        .find(|(a, _)| *a == p)
        .map_or(pr.front_centre, |(_, b)| b.front_centre);
    let meet = point_between(pr.front_centre, start, 1, 3);
    let met = Rect {
        front_centre: meet,
        ..pr
    };
    let meeting = Rect {
        front_centre: set_against(&met, Side::Front, 0),
        facing: facing_onto(&met, Side::Front),
        ..tr
    };
    let (pn, tn) = (play.name(p), play.name(t));
    // Ruling GT-25: neither is set on another unit or off the table; the
    // charging units are no obstacle, since they flee from it at once.
    let mut except: Vec<usize> = attackers.to_vec();
    except.push(t);
    let in_the_way = play
        .field
        .no_room(&met, &except)
        .or_else(|| play.field.no_room(&meeting, &except));
    if let Some(why) = in_the_way {
        let what = match why {
            Some(j) => format!("{} stands there", play.name(j)),
            None => "the table's edge is there".to_string(),
        };
        play.say_naming(
            events::Kind::Countercharge,
            &[t, p],
            &why.into_iter().collect::<Vec<_>>(),
            format!(
                "{pn} fails its check against cavalry: {tn} countercharges, but has no room to meet it a third of the way back towards where its charge began ({what}), and they meet where they stand (ruling GT-25; \"{}\").",
                clauses::COUNTERCHARGE
            ),
        );
    } else {
        play.field.place(p, met);
        play.field.place(t, meeting);
        play.say_along(
            events::Kind::Countercharge,
            &[t, p],
            format!(
                "{pn} fails its check against cavalry: {tn} countercharges, meeting it a third of the way back towards where its charge began (\"{}\").",
                clauses::COUNTERCHARGE
            ),
            &[tr.front_centre, meeting.front_centre],
        );
    }
    // Away from the charged cavalry, the way it came to meet them (straight
    // back along the principal's facing), wherever they met.
    let direction = meeting.facing;
    let mut fled: Vec<Fled> = Vec::new();
    for &a in attackers {
        if play.field.in_play(a) {
            fled.push(flee(play, a, direction, &[t]));
        }
    }
    let names: Vec<String> = fled.iter().map(|f| f.name.clone()).collect();
    play.trace.note(format!(
        "{} fled: \"{}\"",
        joined(&names),
        clauses::COUNTERCHARGE_FLIGHT
    ));
    if let Some(principal) = fled.iter().find(|f| f.unit == p) {
        pursuit::pursue(play, t, principal, Pursuit::Countercharge);
    }
}
