//! Retreats and retirements (rulings KUL-8 and KUL-9): a unit falls back a
//! hex at a time, each hex further from the enemy that drove it off than
//! the last, never into the enemy, across the Nepravda or over the stacking
//! limit. Of the hexes left it takes one across no cliff and out of the
//! enemy's zones of control if it can, heading for the campaign's
//! `retreat_toward` or else its own rear. A unit that can go nowhere but
//! over a cliff goes over and is eliminated ("Eliminated if forced to
//! retreat across"); one that can go nowhere at all is eliminated.

use super::super::clauses;
use super::super::events::{Kind, event};
use super::super::field::Field;
use super::Log;
use crate::geometry::{Direction, Hex};
use crate::rules::board::Location;

/// How a fall back ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// It stands in this hex.
    Stands(Hex),
    Eliminated,
}

/// The distance from a hex to the nearest of `from`.
fn nearest(hex: Hex, from: &[Hex]) -> u32 {
    from.iter()
        .map(|&f| hex.distance(f))
        .min()
        .unwrap_or(u32::MAX)
}

/// How a hex to fall back to is chosen, best first: not across a cliff,
/// out of enemy zones of control, nearest the direction the unit heads for,
/// then by hexside number.
type Preference = (bool, bool, u8, u8);

/// The hex one step back from where unit `i` stands, away from `from`: the
/// hex, and whether it lies across a cliff; `None` if there is none.
fn step_back(field: &Field, i: usize, from: &[Hex]) -> Option<(Direction, Hex, bool)> {
    let unit = field.unit(i);
    let at = field.hex(i);
    let here = nearest(at, from);
    let preferred = field
        .state
        .params
        .retreat_toward
        .get(&unit.side)
        .and_then(|&d| Direction::from_number(d))
        .unwrap_or(field.facing(i).opposite());
    let limit = field.state.params.stacking_limit as usize;
    let mut best: Option<(Preference, Direction, Hex, bool)> = None;
    for d in Direction::ALL {
        let Some(n) = at.neighbour(d) else {
            continue;
        };
        if !field.ground.contains(n) || nearest(n, from) <= here {
            continue;
        }
        let crossing = field.ground.crossing(at, d);
        if crossing.nepravda || field.enemy_at(n, &unit.side) {
            continue;
        }
        if field.friends_at(n, &unit.side) >= limit {
            continue;
        }
        let key = (
            crossing.cliff,
            field.enemy_zoc(n, &unit.side),
            d.sixths_off(preferred),
            d.number(),
        );
        if best.as_ref().is_none_or(|b| key < b.0) {
            best = Some((key, d, n, crossing.cliff));
        }
    }
    best.map(|(_, d, n, cliff)| (d, n, cliff))
}

/// Falls unit `i` back `hexes` hexes away from the enemy in `from`;
/// `verb` tells it ("retreats", "retires").
pub fn fall_back(
    field: &mut Field,
    i: usize,
    from: &[Hex],
    hexes: u32,
    verb: &str,
    log: &mut Log,
) -> Fallback {
    let start = field.hex(i);
    let mut path = vec![Location::in_hex(start)];
    let name = field.unit(i).name.clone();
    let id = field.unit(i).id.clone();
    for _ in 0..hexes {
        match step_back(field, i, from) {
            Some((_, to, true)) => {
                path.push(Location::in_hex(to));
                log.events.push(
                    event(
                        Kind::Retreat,
                        &[&id],
                        format!(
                            "{name} {verb} from {} and, with nowhere else to go, goes over the cliff into {}: eliminated ({}).",
                            start.label(),
                            to.label(),
                            clauses::CLIFF_MOVE
                        ),
                    )
                    .along(path),
                );
                super::eliminate(
                    field,
                    i,
                    format!("forced to retreat across a cliff into {}", to.label()),
                    log,
                );
                return Fallback::Eliminated;
            }
            Some((_, to, false)) => {
                field.put(i, to);
                path.push(Location::in_hex(to));
            }
            None => {
                let at = field.hex(i);
                if path.len() > 1 {
                    log.events.push(
                        event(
                            Kind::Retreat,
                            &[&id],
                            format!("{name} {verb} from {} to {}.", start.label(), at.label()),
                        )
                        .along(path),
                    );
                }
                log.events.push(event(
                    Kind::Eliminated,
                    &[&id],
                    format!(
                        "{name} cannot fall back from {} (enemy, river, map edge or friends all round) and is eliminated (ruling KUL-8).",
                        at.label()
                    ),
                ));
                super::eliminate(
                    field,
                    i,
                    format!("could not fall back from {}", at.label()),
                    log,
                );
                return Fallback::Eliminated;
            }
        }
    }
    let end = field.hex(i);
    log.events.push(
        event(
            Kind::Retreat,
            &[&id],
            format!("{name} {verb} from {} to {}.", start.label(), end.label()),
        )
        .along(path),
    );
    Fallback::Stands(end)
}
