//! Target categorization, massed or linear (11.60-11.66), read off the
//! table.

use super::Table;
use super::figures::FIRING_ANGLE;
use crate::geometry::{Fan, Hundredths, Point, Rect, passes_through_both_flanks, rect_distance};
use crate::rules::percentile_fire::mechanics::fire::routine::Routine;
use crate::rules::percentile_fire::params::Category;
use crate::rules::percentile_fire::state::{Arm, Formation, State, Unit};
use crate::rules::percentile_fire::umpire::MASSED_BATTERY;

/// "To determine if a massed battery, draw a radius of 6" around the
/// subject artillery battery, measuring from the battery base edge" (11.63).
pub const MASSED_RADIUS: Hundredths = 600;

/// "if no gap of 1" exists between two units then both units are a massed
/// target" (11.65).
pub const GAP: Hundredths = 100;

/// "All infantry or cavalry Fire attacks executed at 1" range or less
/// automatically use the Massed target line" (11.66).
pub const CLOSE: Hundredths = 100;

/// A target's category, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Categorized {
    pub category: Category,
    pub why: String,
    /// The unit `why` names besides the target, by id: the friend within
    /// 1" that masses it.
    pub naming: Option<String>,
}

fn massed(why: impl Into<String>) -> Categorized {
    Categorized {
        category: Category::Massed,
        why: why.into(),
        naming: None,
    }
}

fn linear(why: impl Into<String>) -> Categorized {
    Categorized {
        category: Category::Linear,
        why: why.into(),
        naming: None,
    }
}

/// The cannon counted for a battery's massed test: its own and those of
/// every battery whose base comes within 6" of its base edge (ruling PF-12:
/// a battery partly within counts whole).
pub fn cannon_around(table: &Table, state: &State, battery: &Unit, rect: &Rect) -> u32 {
    let own = battery.rules.cannon_now();
    let near: u32 = table
        .index
        .near(rect, MASSED_RADIUS, &[])
        .into_iter()
        .filter_map(|i| state.units.get(i))
        .filter(|u| u.id != battery.id && u.rules.arm == Arm::Artillery)
        .map(|u| u.rules.cannon_now())
        .sum();
    own + near
}

/// Whether a line of fire from `from` enfilades a target (11.64): it runs
/// through both end flanks of a line (of a battery's forward 1"), and the
/// firer stands outside the target's own 22° fire zone.
pub fn enfiladed(target: &Unit, rect: &Rect, from: Point) -> bool {
    let u = &target.rules;
    let multi_figure = target.strength > 1 || u.arm == Arm::Artillery;
    let linear_formation = match u.arm {
        Arm::Infantry | Arm::Cavalry => u.formation == Formation::Line,
        Arm::Artillery => u.formation == Formation::Unlimbered,
        _ => false,
    };
    if !multi_figure || !linear_formation {
        return false;
    }
    let front = if u.arm == Arm::Artillery {
        Rect {
            depth: rect.depth.min(100),
            ..*rect
        }
    } else {
        *rect
    };
    passes_through_both_flanks(&front, from, front.centre())
        && !Fan::ahead_of(rect, FIRING_ANGLE).contains(from)
}

/// The category of `target` (its square's unit, for one in a square) to a
/// fire attack from `from` at `range`.
#[allow(clippy::too_many_arguments)]
pub fn categorize(
    table: &Table,
    state: &State,
    target: &Unit,
    rect: &Rect,
    from: Point,
    range: Hundredths,
    routine: Routine,
) -> Categorized {
    let u = &target.rules;
    if u.arm == Arm::Artillery
        && !u.crewed
        && u.formation == Formation::Unlimbered
        && routine == Routine::Artillery
    {
        return linear("an uncrewed battery is a linear target to artillery fire (11.61b)");
    }
    match (u.arm, u.formation) {
        (Arm::Infantry | Arm::Cavalry, Formation::Column) => {
            return massed("a column is a massed target (11.61a)");
        }
        (_, Formation::Square) => return massed("a square is a massed target (11.61a)"),
        (Arm::Artillery, Formation::Limbered) => {
            return massed("a limbered battery is a massed target (11.61a)");
        }
        (Arm::Train, _) => return massed("a train is a massed target (11.61a)"),
        _ => {}
    }
    if u.in_square.is_some() {
        return massed("artillery within a square is a massed target (11.61a, 11.62)");
    }
    if table.in_building(rect) || table.in_redoubt(rect) {
        return massed("a unit within a building or redoubt is a massed target (11.61a)");
    }
    if routine == Routine::SmallArms && range <= CLOSE {
        return massed(
            "infantry and cavalry fire at 1\" or less uses the Massed target line (11.66)",
        );
    }
    if u.arm == Arm::Artillery {
        let cannon = cannon_around(table, state, target, rect);
        if cannon >= MASSED_BATTERY {
            return massed(format!(
                "{cannon} cannon within 6\" of the battery: a massed artillery target (11.63)"
            ));
        }
    }
    if enfiladed(target, rect, from) {
        return massed("enfiladed: the line of fire passes through both end flanks (11.64)");
    }
    let close_friend = table
        .index
        .near(rect, GAP, &[])
        .into_iter()
        .filter_map(|i| state.units.get(i))
        .find(|f| {
            f.id != target.id
                && f.side == target.side
                && f.rules.in_square.is_none()
                && table
                    .index
                    .index(&f.id)
                    .and_then(|i| table.index.rect(i))
                    .is_some_and(|r| rect_distance(rect, &r) < GAP)
        });
    if let Some(f) = close_friend {
        return Categorized {
            naming: Some(f.id.clone()),
            ..massed(format!(
                "no 1\" gap between it and {}: both are massed targets (11.65)",
                f.id
            ))
        };
    }
    match u.formation {
        Formation::Skirmish => linear("skirmish order is a linear target (11.61b)"),
        Formation::Unlimbered => {
            linear("an unlimbered battery not massed is a linear target (11.61b)")
        }
        _ => linear("a line formation is a linear target (11.61b)"),
    }
}
