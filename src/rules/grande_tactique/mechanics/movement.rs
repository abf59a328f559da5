//! Moving outside a charge. The chapter leaves movement to the rest of the
//! rules but for two sentences: "As noted above under Movement, cavalry
//! cannot move to contact without charging. Infantry, however, may move to
//! contact without charging (or firing)." Ruling GT-6 gives the least a
//! campaign needs: a unit moves straight ahead or straight back up to its
//! move, or turns about its centre to face a bearing, or changes formation
//! about its front centre; it may not pass through or end on another unit,
//! nor leave the table.

use super::super::basing;
use super::super::clauses;
use super::super::field::{CONTACT, Field};
use super::super::state::{Arm, Formation};
use crate::geometry::{Hundredths, Rect, bearing, first_hit_along, move_forward};
use crate::rules::words::inches;

/// Why a move cannot be made, with the clause or ruling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stopped {
    pub problem: String,
    pub clause: String,
    /// How far it could go, where that is the question.
    pub at_most: Option<Hundredths>,
    /// The unit the problem names (the one in the way), by index.
    pub by: Option<usize>,
}

fn ruling(problem: String, at_most: Option<Hundredths>) -> Stopped {
    Stopped {
        problem,
        clause: "ruling GT-6".to_string(),
        at_most,
        by: None,
    }
}

/// Unit `i` moved straight ahead (`d` > 0) or back (`d` < 0), facing the
/// same way.
pub fn straight(field: &Field, i: usize, d: Hundredths) -> Result<Rect, Stopped> {
    let Some(from) = field.rect(i) else {
        return Err(ruling("it is not on the table".to_string(), None));
    };
    let allowance = field.allowance(i);
    if d.abs() > allowance {
        return Err(ruling(
            format!(
                "it moves {} inches at most, not {}",
                inches(allowance),
                inches(d.abs())
            ),
            Some(allowance),
        ));
    }
    let to = move_forward(&from, d);
    let (w, h) = field.table();
    if !to.is_inside_table(w, h) {
        return Err(ruling("it would leave the table".to_string(), None));
    }
    let (ids, rects) = field.obstacles_around(
        &[from.front_centre, to.front_centre],
        from.width.max(from.depth) + 100,
        &[i],
    );
    if let Some((k, reach)) = first_hit_along(&from, to.front_centre, &rects)
        && reach < d.abs()
    {
        return Err(Stopped {
            by: Some(ids[k]),
            ..ruling(
                format!(
                    "{} stands in the way after {} inches",
                    field.name(ids[k]),
                    inches(reach)
                ),
                Some(reach),
            )
        });
    }
    cavalry_not_to_contact(field, i, &to)?;
    Ok(to)
}

/// "cavalry cannot move to contact without charging".
fn cavalry_not_to_contact(field: &Field, i: usize, to: &Rect) -> Result<(), Stopped> {
    if field.arm(i) != Arm::Cavalry {
        return Ok(());
    }
    let touching: Vec<usize> = field
        .near(to, CONTACT, &[i])
        .into_iter()
        .filter(|&j| field.enemies(i, j))
        .collect();
    if let Some(&j) = touching.first() {
        return Err(Stopped {
            problem: format!(
                "it would end in contact with {} without charging",
                field.name(j)
            ),
            clause: format!("Charging: \"{}\"", clauses::CAVALRY_CONTACT),
            at_most: None,
            by: Some(j),
        });
    }
    Ok(())
}

/// Unit `i` turned about its centre to face `facing`.
pub fn face(field: &Field, i: usize, facing: u32) -> Result<Rect, Stopped> {
    let Some(from) = field.rect(i) else {
        return Err(ruling("it is not on the table".to_string(), None));
    };
    let centred = Rect {
        front_centre: from.centre(),
        facing: facing % 360,
        ..from
    };
    let to = move_forward(&centred, from.depth / 2);
    room(field, i, &to)?;
    cavalry_not_to_contact(field, i, &to)?;
    Ok(to)
}

/// The bearing from unit `i`'s centre to unit `j`'s, in whole degrees.
pub fn bearing_to(field: &Field, i: usize, j: usize) -> Option<u32> {
    let (a, b) = (field.rect(i)?, field.rect(j)?);
    let c = bearing(a.centre(), b.centre())?;
    Some((((c + 50) / 100) % 360) as u32)
}

/// Unit `i` in another formation, its front centre where it was.
pub fn form(field: &Field, i: usize, formation: Formation) -> Result<Rect, Stopped> {
    let Some(from) = field.rect(i) else {
        return Err(ruling("it is not on the table".to_string(), None));
    };
    if formation == Formation::Square && field.arm(i) != Arm::Infantry {
        return Err(Stopped {
            problem: "only infantry forms square".to_string(),
            clause: clauses::SQUARE_INFANTRY_ONLY.to_string(),
            at_most: None,
            by: None,
        });
    }
    let (width, depth) = basing::size(field.arm(i), formation);
    let to = Rect {
        width,
        depth,
        ..from
    };
    room(field, i, &to)?;
    Ok(to)
}

fn room(field: &Field, i: usize, to: &Rect) -> Result<(), Stopped> {
    let (w, h) = field.table();
    if !to.is_inside_table(w, h) {
        return Err(ruling("it would leave the table".to_string(), None));
    }
    let on: Vec<usize> = field
        .near(to, 0, &[i])
        .into_iter()
        .filter(|&j| field.rect(j).is_some_and(|r| r.overlaps(to)))
        .collect();
    if let Some(&j) = on.first() {
        return Err(Stopped {
            by: Some(j),
            ..ruling(
                format!("there is no room: {} stands there", field.name(j)),
                None,
            )
        });
    }
    Ok(())
}
