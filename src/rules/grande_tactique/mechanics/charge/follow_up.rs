//! Follow-up charges by cavalry: "When a cavalry unit charges and its
//! target fails a Morale Check, the charging cavalry must perform another
//! Morale Check to see if it pursues or, instead, undertakes a follow-up
//! charge against a new target". The new target "is wholly to its front,
//! visible (attacker can draw lines between each of his two front corners
//! and two corners of the target base), and at least partly within 8” of
//! where its prior target had stood."
//!
//! Ruling GT-19: "wholly to its front" is every corner of the target's base
//! on or ahead of the line of the cavalry's front edge; a line of sight is
//! blocked by any other unit's base it touches and by more than the
//! campaign's `sight_into_cover` of woods or a Built-Up Area (GT-10), and
//! two of the target's corners must be seen from both front corners; the
//! target must be reachable (no unit in the way, not through a Built-Up
//! Area); among several, the cavalry charges the nearest (then the lowest
//! id); no unit it has charged this turn is a new target.

use serde::Serialize;

use super::super::super::clauses;
use super::super::super::events;
use super::super::super::field::Field;
use super::checks;
use super::contact;
use super::outcome::Fled;
use super::pursuit::{self, Pursuit};
use super::{Group, Kind, Play};
use crate::geometry::{
    Hundredths, Rect, distance_ahead_of_frontage_line, rect_distance, sees_two_corners,
};

/// "within 8” of where its prior target had stood".
pub const WITHIN: Hundredths = 800;

/// A unit looked at as a new target, with why it will not do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Candidate {
    pub unit: String,
    /// From the cavalry's base to the candidate's, in hundredths.
    pub distance: Hundredths,
    /// `None` when it is a target; else what rules it out.
    pub refused: Option<String>,
    /// The unit in its way, by index, where that is what rules it out.
    #[serde(skip)]
    pub by: Option<usize>,
}

/// Every enemy within 8" of where the prior target stood, as a new target
/// for cavalry `p` or not; the targets first, nearest first.
pub fn candidates(field: &Field, p: usize, prior: &Rect) -> Vec<(usize, Candidate)> {
    let Some(pr) = field.rect(p) else {
        return Vec::new();
    };
    let corners = pr.corners();
    let eyes = [corners[0], corners[1]];
    let mut out: Vec<(usize, Candidate)> = field
        .near(prior, WITHIN, &[p])
        .into_iter()
        .filter(|&c| field.enemies(p, c))
        .filter_map(|c| {
            let cr = field.rect(c)?;
            let mut by = None;
            let refused = if field
                .unit(p)
                .rules
                .charged
                .contains(&field.id(c).to_string())
            {
                Some(format!(
                    "charged already this turn (\"{}\")",
                    clauses::NOT_TWICE
                ))
            } else if cr
                .corners()
                .iter()
                .any(|&k| distance_ahead_of_frontage_line(&pr, k) < 0)
            {
                Some("not wholly to its front".to_string())
            } else if !sees_two_corners(&eyes, &cr, |a, b| field.line_clear(a, b, &[p, c])) {
                Some("not visible from both front corners".to_string())
            } else {
                match contact::approach(field, p, c, None) {
                    Ok(_) => None,
                    Err(contact::NoWay::ThroughBuiltUpArea) => {
                        Some(format!("\"{}\"", clauses::BUA))
                    }
                    Err(contact::NoWay::Blocked { by: Some(b) }) => {
                        by = Some(b);
                        Some(format!("{} stands in the way", field.name(b)))
                    }
                    Err(_) => Some("no way to contact".to_string()),
                }
            };
            Some((
                c,
                Candidate {
                    unit: field.id(c).to_string(),
                    distance: rect_distance(&pr, &cr),
                    refused,
                    by,
                },
            ))
        })
        .collect();
    out.sort_by(|(_, a), (_, b)| {
        (a.refused.is_some(), a.distance, &a.unit).cmp(&(b.refused.is_some(), b.distance, &b.unit))
    });
    out
}

/// Cavalry `p` whose target fled or was destroyed: the check for a
/// follow-up charge, then the follow-up or the pursuit.
pub fn after_success(play: &mut Play, p: usize, fled: &Fled) {
    let name = play.name(p);
    let made = play.field.unit(p).rules.charges_made;
    if made >= 3 {
        play.say(
            events::Kind::FollowUpSpent,
            &[p],
            format!(
                "{name} has made its second follow-up charge this turn, successfully: it pursues (\"{}\").",
                clauses::SECOND_CHECK
            ),
        );
        pursuit::pursue(play, p, fled, Pursuit::AfterSecond);
        return;
    }
    let number = made.max(1);
    let what = if number == 1 {
        "to decide a first follow-up charge"
    } else {
        "to decide a second follow-up charge"
    };
    let mods = checks::follow_up(play, p, number);
    // Whether it charges again or pursues, the enemy sees; the check
    // itself is its own side's (ruling GT-24).
    let check = play.check(events::Kind::MoraleCheckOwn, p, &[], what, mods);
    if !check.passed {
        play.say(
            events::Kind::FollowUpFails,
            &[p],
            format!(
                "{name} fails: it must pursue (\"{}\").",
                clauses::FOLLOW_UP_FAIL
            ),
        );
        pursuit::pursue(play, p, fled, Pursuit::Victorious);
        return;
    }
    let all = candidates(&play.field, p, &fled.stood);
    let looked_at: Vec<usize> = all
        .iter()
        .filter(|(_, c)| c.refused.is_some())
        .flat_map(|(k, c)| std::iter::once(*k).chain(c.by))
        .collect();
    let refused: Vec<String> = all
        .iter()
        .filter_map(|(_, c)| c.refused.as_ref().map(|why| format!("{}: {why}", c.unit)))
        .collect();
    let found = all.into_iter().find(|(_, c)| c.refused.is_none());
    match found {
        None => {
            let why = if refused.is_empty() {
                "no enemy within 8 inches of where it stood".to_string()
            } else {
                refused.join("; ")
            };
            play.say_naming(
                events::Kind::FollowUpNoTarget,
                &[p],
                &looked_at,
                format!(
                    "{name} passes, but finds no new target ({why}): \"{}\"",
                    clauses::NO_NEW_TARGET
                ),
            );
            pursuit::pursue(play, p, fled, Pursuit::Victorious);
        }
        Some((c, _)) => {
            let target = play.name(c);
            play.say(
                events::Kind::FollowUpChosen,
                &[p, c],
                format!(
                    "{name} passes and must make a follow-up charge: it chooses {target} (\"{}\").",
                    clauses::FOLLOW_UP_PASS
                ),
            );
            let group = Group {
                target: c,
                attackers: vec![p],
                moving: vec![true],
                stay: false,
            };
            super::resolve(play, &group, Kind::FollowUp(number));
        }
    }
}
