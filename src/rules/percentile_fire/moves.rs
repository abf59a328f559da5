//! Movement, which the chapter leaves to other rules: the minimal default
//! of ruling PF-3. A unit moves straight (forward, back, left or right,
//! keeping its facing) up to its allowance, changes facing on its front
//! centre, or changes formation on its front centre, one of these a
//! Movement Phase; a battery moves limbered; a charge or shock moves
//! straight ahead into contact with a target in its path. Opportunity and
//! passby fire are what the chapter makes of these moves.

use super::basing;
use super::fire::Forbidden;
use super::orders::{Action, Way};
use super::setup::formations_of;
use super::state::{Arm, Counterbattery, Formation, State, Unit, Word};
use super::table::Table;
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

/// Where a movement order would take a unit, or why it may not make it.
pub fn end_of<U: Named>(
    state: &State,
    table: &Table,
    u: &Unit,
    action: &Action<U>,
) -> Result<Moved, Forbidden> {
    if u.rules.in_square.is_some() {
        return Err(Forbidden::new(
            "it stands within a square and moves with it",
            "11.62",
        ));
    }
    let Some(rect) = table.rect(state, u) else {
        return Err(Forbidden::new("it is not on the table", MOVES));
    };
    let reach = allowance(state, u);
    let artillery = u.rules.arm == Arm::Artillery;
    let marker = u.rules.counterbattery;
    let plain = |rect: Rect, distance, closing| Moved {
        rect,
        formation: u.rules.formation,
        distance,
        closing,
    };
    let moved = match action {
        Action::Move(way, d) => {
            if artillery && u.rules.formation == Formation::Unlimbered {
                return Err(Forbidden::new(
                    "an unlimbered battery does not move: limber it first",
                    MOVES,
                ));
            }
            if let Some(m) = marker {
                return Err(Forbidden::new(
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
            if *d > reach {
                return Err(Forbidden::new(
                    format!(
                        "{}\" is more than its allowance of {}\"",
                        inches(*d),
                        inches(reach)
                    ),
                    MOVES,
                ));
            }
            let end = match way {
                Way::Forward => move_forward(&rect, *d),
                Way::Back => backstep(&rect, *d),
                Way::Left => sidestep(&rect, Flank::Left, *d),
                Way::Right => sidestep(&rect, Flank::Right, *d),
            };
            plain(end, *d, *way == Way::Forward)
        }
        Action::Retire => {
            if artillery && u.rules.formation == Formation::Unlimbered {
                return Err(Forbidden::new(
                    "an unlimbered battery limbers up before it retires",
                    "11.76d: \"limber up the artillery battery and move a full move towards the rear area\"",
                ));
            }
            plain(backstep(&rect, reach), reach, false)
        }
        Action::Face(facing) => plain(
            Rect {
                facing: *facing,
                ..rect
            },
            0,
            false,
        ),
        Action::Form(f) => {
            if !formations_of(u.rules.arm).contains(f) {
                return Err(Forbidden::new(
                    format!("{} cannot form {f}", u.rules.arm),
                    "Formations 8.0, 9.0",
                ));
            }
            if *f == u.rules.formation {
                return Err(Forbidden::new(format!("it already stands in {f}"), MOVES));
            }
            if marker.is_some() && *f == Formation::Unlimbered {
                return Err(Forbidden::new(
                    "under a counterbattery marker a limbered battery stays limbered",
                    "11.76e: \"Limbered artillery batteries or train units must retire one full move to rear area or remain limbered in olace.\"",
                ));
            }
            let end = reshaped(u, *f, &rect).unwrap_or(rect);
            Moved {
                rect: end,
                formation: *f,
                distance: 0,
                closing: false,
            }
        }
        Action::Charge(t) | Action::Shock(t) => {
            if matches!(action, Action::Charge(_)) && u.rules.arm != Arm::Cavalry {
                return Err(Forbidden::new(
                    "only cavalry charges; infantry declares shock",
                    "11.83: \"is a cavalry performing \"Charge movement\"\"",
                ));
            }
            if !matches!(u.rules.arm, Arm::Infantry | Arm::Cavalry)
                || u.rules.formation == Formation::Skirmish
            {
                return Err(Forbidden::new(
                    "only formed infantry or cavalry makes a shock attack",
                    MOVES,
                ));
            }
            let t = t.as_str();
            let Some(target) = state.unit(t) else {
                return Err(Forbidden::new(format!("no unit {t}"), MOVES).naming(&[t]));
            };
            let Some(tr) = table.rect(state, target) else {
                return Err(Forbidden::new(format!("{t} is not on the table"), MOVES).naming(&[t]));
            };
            let Some(gap) = Fan::ahead_of(&rect, 0).reach_to(&tr) else {
                return Err(Forbidden::new(
                    format!("{t} is not in its path straight ahead"),
                    MOVES,
                )
                .naming(&[t]));
            };
            if gap > reach {
                return Err(Forbidden::new(
                    format!(
                        "{t} is {}\" ahead, beyond its allowance of {}\"",
                        inches(gap),
                        inches(reach)
                    ),
                    MOVES,
                )
                .naming(&[t]));
            }
            plain(move_forward(&rect, gap), gap, true)
        }
        _ => plain(rect, 0, false),
    };
    if let MapSpec::Table { width, depth } = &state.map
        && !moved.rect.is_inside_table(*width, *depth)
    {
        return Err(Forbidden::new("it would leave the table", MOVES));
    }
    let mut except: Vec<usize> = table
        .square(state, u)
        .iter()
        .filter_map(|m| table.index.index(&m.id))
        .collect();
    if let Action::Charge(t) | Action::Shock(t) = action
        && let Some(i) = table.index.index(t.as_str())
    {
        except.push(i);
    }
    if let Some(&i) = table.index.overlapping(&moved.rect, &except).first() {
        let other = state.units.get(i).map(|o| o.id.as_str());
        return Err(Forbidden::new(
            format!("it would end on {}", other.unwrap_or("another unit")),
            MOVES,
        )
        .naming(other.as_slice()));
    }
    Ok(moved)
}
