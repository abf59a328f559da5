//! Movement, which the chapter leaves to other rules: the minimal default
//! of ruling PF-3. A unit moves straight (forward, back, left or right,
//! keeping its facing) up to its allowance, changes facing on its front
//! centre, or changes formation on its front centre, one of these a
//! Movement Phase; a battery moves limbered; a charge or shock moves
//! straight ahead into contact with a target in its path. Opportunity and
//! passby fire are what the chapter makes of these moves.

use super::super::basing;
use super::super::field::Table;
use super::super::orders::{Action, Way};
use super::super::setup::formations_of;
use super::super::state::{Arm, Counterbattery, Formation, State, Unit, Word};
use super::fire::Refusal;
use crate::geometry::{Fan, Flank, Hundredths, Rect, backstep, move_forward, sidestep};
use crate::rules::board::{Location, MapSpec};
use crate::rules::names::Named;
use crate::rules::words::inches;

const MOVES: &str = "ruling PF-3: movement lies outside the chapter";

/// Where a unit stands after a move: its place, facing and formation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moved {
    pub rect: Rect,
    pub formation: Formation,
    /// How far it went, in hundredths of an inch.
    pub distance: Hundredths,
    /// A move straight ahead: closing the range (11.85c).
    pub closing: bool,
}

/// A unit's allowance: its arm's, or the skirmishers'.
pub fn allowance(state: &State, u: &Unit) -> Hundredths {
    let key = if u.rules.formation == Formation::Skirmish {
        "skirmish"
    } else {
        Word::word(u.rules.arm)
    };
    state.params.allowance(key)
}

/// The footprint a unit would have in another formation, at its place.
fn reshaped(u: &Unit, formation: Formation, rect: &Rect) -> Option<Rect> {
    let mut v = u.clone();
    v.rules.formation = formation;
    v.location = Location::Table {
        x: rect.front_centre.x,
        y: rect.front_centre.y,
    };
    v.facing = rect.facing;
    v.rules.in_square = None;
    basing::footprint(&v)
}

/// Where a movement order would take a unit, or why it may not make it:
/// the move of its kind, then on the table and onto no other unit.
pub fn end_of<U: Named>(
    state: &State,
    table: &Table,
    u: &Unit,
    action: &Action<U>,
) -> Result<Moved, Refusal> {
    if u.rules.in_square.is_some() {
        return Err(Refusal::new(
            "it stands within a square and moves with it",
            "11.62",
        ));
    }
    let Some(rect) = table.rect(state, u) else {
        return Err(Refusal::new("it is not on the table", MOVES));
    };
    let reach = allowance(state, u);
    let plain = |rect: Rect, distance, closing| Moved {
        rect,
        formation: u.rules.formation,
        distance,
        closing,
    };
    let moved = match action {
        Action::Move(way, d) => straight(u, &rect, *way, *d, reach)?,
        Action::Retire => retire(u, &rect, reach)?,
        Action::Face(facing) => plain(
            Rect {
                facing: *facing,
                ..rect
            },
            0,
            false,
        ),
        Action::Form(f) => form(u, &rect, *f)?,
        Action::Charge(t) | Action::Shock(t) => {
            let charge = matches!(action, Action::Charge(_));
            let gap = into_contact(state, table, u, &rect, t.as_str(), charge, reach)?;
            plain(move_forward(&rect, gap), gap, true)
        }
        _ => plain(rect, 0, false),
    };
    let target = match action {
        Action::Charge(t) | Action::Shock(t) => Some(t.as_str()),
        _ => None,
    };
    clear_ground(state, table, u, &moved, target)?;
    Ok(moved)
}

/// A move straight forward, back, left or right, keeping its facing, up to
/// the allowance; not by an unlimbered battery, nor under a counterbattery
/// marker (11.76d, 11.77d).
fn straight(
    u: &Unit,
    rect: &Rect,
    way: Way,
    d: Hundredths,
    reach: Hundredths,
) -> Result<Moved, Refusal> {
    if u.rules.arm == Arm::Artillery && u.rules.formation == Formation::Unlimbered {
        return Err(Refusal::new(
            "an unlimbered battery does not move: limber it first",
            MOVES,
        ));
    }
    if let Some(m) = u.rules.counterbattery {
        return Err(Refusal::new(
            format!(
                "under a Counterbattery {m} marker it may only retire a full move to the rear or stay in place"
            ),
            if m == Counterbattery::A {
                "11.76d: \"If moved from position, limber up the artillery battery and move a full move towards the rear area.\""
            } else {
                "11.77d: \"If moved from position, limber up the artillery battery and move a full move towards the rear area.\""
            },
        ));
    }
    if d > reach {
        return Err(Refusal::new(
            format!(
                "{}\" is more than its allowance of {}\"",
                inches(d),
                inches(reach)
            ),
            MOVES,
        ));
    }
    let end = match way {
        Way::Forward => move_forward(rect, d),
        Way::Back => backstep(rect, d),
        Way::Left => sidestep(rect, Flank::Left, d),
        Way::Right => sidestep(rect, Flank::Right, d),
    };
    Ok(Moved {
        rect: end,
        formation: u.rules.formation,
        distance: d,
        closing: way == Way::Forward,
    })
}

/// A full move to the rear: "limber up the artillery battery and move a
/// full move towards the rear area" (11.76d).
fn retire(u: &Unit, rect: &Rect, reach: Hundredths) -> Result<Moved, Refusal> {
    if u.rules.arm == Arm::Artillery && u.rules.formation == Formation::Unlimbered {
        return Err(Refusal::new(
            "an unlimbered battery limbers up before it retires",
            "11.76d: \"limber up the artillery battery and move a full move towards the rear area\"",
        ));
    }
    Ok(Moved {
        rect: backstep(rect, reach),
        formation: u.rules.formation,
        distance: reach,
        closing: false,
    })
}

/// A change of formation on the front centre, to one of the arm's (8.0,
/// 9.0); a limbered battery under a counterbattery marker stays limbered
/// (11.76e).
fn form(u: &Unit, rect: &Rect, f: Formation) -> Result<Moved, Refusal> {
    if !formations_of(u.rules.arm).contains(&f) {
        return Err(Refusal::new(
            format!("{} cannot form {f}", u.rules.arm),
            "Formations 8.0, 9.0",
        ));
    }
    if f == u.rules.formation {
        return Err(Refusal::new(format!("it already stands in {f}"), MOVES));
    }
    if u.rules.counterbattery.is_some() && f == Formation::Unlimbered {
        return Err(Refusal::new(
            "under a counterbattery marker a limbered battery stays limbered",
            "11.76e: \"Limbered artillery batteries or train units must retire one full move to rear area or remain limbered in olace.\"",
        ));
    }
    Ok(Moved {
        rect: reshaped(u, f, rect).unwrap_or(*rect),
        formation: f,
        distance: 0,
        closing: false,
    })
}

/// A charge (cavalry's, 11.83) or a shock (formed infantry's or
/// cavalry's): straight ahead into contact with a target in its path
/// within the allowance. How far it goes.
fn into_contact(
    state: &State,
    table: &Table,
    u: &Unit,
    rect: &Rect,
    t: &str,
    charge: bool,
    reach: Hundredths,
) -> Result<Hundredths, Refusal> {
    if charge && u.rules.arm != Arm::Cavalry {
        return Err(Refusal::new(
            "only cavalry charges; infantry declares shock",
            "11.83: \"is a cavalry performing \"Charge movement\"\"",
        ));
    }
    if !matches!(u.rules.arm, Arm::Infantry | Arm::Cavalry)
        || u.rules.formation == Formation::Skirmish
    {
        return Err(Refusal::new(
            "only formed infantry or cavalry makes a shock attack",
            MOVES,
        ));
    }
    let Some(target) = state.unit(t) else {
        return Err(Refusal::new(format!("no unit {t}"), MOVES).naming_all(&[t]));
    };
    let Some(tr) = table.rect(state, target) else {
        return Err(Refusal::new(format!("{t} is not on the table"), MOVES).naming_all(&[t]));
    };
    let Some(gap) = Fan::ahead_of(rect, 0).reach_to(&tr) else {
        return Err(
            Refusal::new(format!("{t} is not in its path straight ahead"), MOVES).naming_all(&[t]),
        );
    };
    if gap > reach {
        return Err(Refusal::new(
            format!(
                "{t} is {}\" ahead, beyond its allowance of {}\"",
                inches(gap),
                inches(reach)
            ),
            MOVES,
        )
        .naming_all(&[t]));
    }
    Ok(gap)
}

/// The end of a move stays on the table and on no other unit but the
/// mover's own square and the unit it charges or shocks.
fn clear_ground(
    state: &State,
    table: &Table,
    u: &Unit,
    moved: &Moved,
    target: Option<&str>,
) -> Result<(), Refusal> {
    if let MapSpec::Table { width, depth } = &state.map
        && !moved.rect.is_inside_table(*width, *depth)
    {
        return Err(Refusal::new("it would leave the table", MOVES));
    }
    let mut except: Vec<usize> = table
        .square(state, u)
        .iter()
        .filter_map(|m| table.index.index(&m.id))
        .collect();
    if let Some(i) = target.and_then(|t| table.index.index(t)) {
        except.push(i);
    }
    if let Some(&i) = table.index.overlapping(&moved.rect, &except).first() {
        let other = state.units.get(i).map(|o| o.id.as_str());
        return Err(Refusal::new(
            format!("it would end on {}", other.unwrap_or("another unit")),
            MOVES,
        )
        .naming_all(other.as_slice()));
    }
    Ok(())
}
