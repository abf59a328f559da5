//! The field of one activation: the state with its ground and an index of
//! the units in play by hex and by id, so that every question a move, a
//! fire or a combat asks (who stands here, whose zone of control is this,
//! which leaders are in this hex) costs the neighbours of a hex, not every
//! unit. Checking orders and resolving them both work on a field: the
//! check moves units on a copy to see what each line finds.

use std::collections::BTreeMap;

use super::ground::Ground;
use super::mechanics::combat::Aspect;
use super::params::Readings;
use super::state::{State, Unit};
use crate::geometry::{Direction, Hex, Occupancy};
use crate::rules::board::Location;

/// Where `to` lies from `from`'s point of view (ruling KUL-11): a
/// neighbour across one of the three sides ahead is in front, across one
/// of the two beside in the flank, across the one behind in the rear.
pub fn aspect(facing: Direction, side: Direction) -> Aspect {
    match side.sixths_off(facing) {
        0 | 1 => Aspect::Front,
        2 => Aspect::Flank,
        _ => Aspect::Rear,
    }
}

/// The state of one activation and its index.
pub struct Field {
    pub state: State,
    pub ground: Ground,
    /// The readings the campaign's options choose.
    pub readings: Readings,
    by_hex: Occupancy,
    by_id: BTreeMap<String, usize>,
    /// Leaders in play by the hex they stand in, and those attached to each
    /// unit, by index into the state's generals.
    leaders: Occupancy,
    attached: BTreeMap<usize, Vec<usize>>,
}

impl Field {
    pub fn new(state: State) -> Field {
        let ground = Ground::of(&state.map, &state.terrain);
        let readings = Readings::of(&state.options);
        let mut field = Field {
            state,
            ground,
            readings,
            by_hex: Occupancy::new(),
            by_id: BTreeMap::new(),
            leaders: Occupancy::new(),
            attached: BTreeMap::new(),
        };
        for (i, u) in field.state.units.iter().enumerate() {
            field.by_id.insert(u.id.clone(), i);
            if u.eliminated.is_none()
                && let Some(h) = u.location.hex()
            {
                field.by_hex.place(i, h);
            }
        }
        field.index_leaders();
        field
    }

    /// Indexes the leaders again, after one joined a unit or left play: an
    /// attached leader stands where his unit does.
    pub fn index_leaders(&mut self) {
        self.leaders.clear();
        self.attached.clear();
        for k in 0..self.state.generals.len() {
            let g = &self.state.generals[k];
            if g.lost.is_some() {
                continue;
            }
            let unit = g
                .attached_to
                .as_deref()
                .and_then(|id| self.by_id.get(id).copied())
                .filter(|&i| self.state.units[i].eliminated.is_none());
            let at = match unit {
                Some(i) => {
                    self.attached.entry(i).or_default().push(k);
                    self.state.units[i].location.hex()
                }
                None => g.location.hex(),
            };
            if let Some(h) = at {
                self.state.generals[k].location = Location::in_hex(h);
                self.leaders.place(k, h);
            }
        }
    }

    pub fn unit(&self, i: usize) -> &Unit {
        &self.state.units[i]
    }

    pub fn unit_mut(&mut self, i: usize) -> &mut Unit {
        &mut self.state.units[i]
    }

    /// The index of the unit with this id.
    pub fn index(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    pub fn in_play(&self, i: usize) -> bool {
        self.state.units[i].eliminated.is_none()
    }

    pub fn hex(&self, i: usize) -> Hex {
        self.state.units[i].location.hex().unwrap_or(Hex::new(0, 0))
    }

    pub fn facing(&self, i: usize) -> Direction {
        Direction::of_facing(self.state.units[i].facing)
    }

    /// The units in play in a hex, in the order of the state.
    pub fn at(&self, hex: Hex) -> &[usize] {
        self.by_hex.at(hex)
    }

    /// Whether a hex holds a unit of another side than `side`.
    pub fn enemy_at(&self, hex: Hex, side: &str) -> bool {
        self.at(hex)
            .iter()
            .any(|&j| self.state.units[j].side != side)
    }

    /// The units in a hex of `side`.
    pub fn friends_at(&self, hex: Hex, side: &str) -> usize {
        self.at(hex)
            .iter()
            .filter(|&&j| self.state.units[j].side == side)
            .count()
    }

    /// Whether `hex` is in the zone of control of a unit of another side
    /// than `side` (ruling KUL-7): a unit that is not retired controls the
    /// three hexes ahead of it, but not across the Nepravda or a cliff.
    pub fn enemy_zoc(&self, hex: Hex, side: &str) -> bool {
        Direction::ALL.into_iter().any(|d| {
            let Some(n) = hex.neighbour(d) else {
                return false;
            };
            self.at(n).iter().any(|&j| {
                let u = &self.state.units[j];
                u.side != side
                    && !u.rules.retired
                    && aspect(Direction::of_facing(u.facing), d.opposite()) == Aspect::Front
                    && self
                        .ground
                        .crossing(n, d.opposite())
                        .uncrossable()
                        .is_none()
            })
        })
    }

    /// The leaders in play of `side` in a hex: those attached to a unit
    /// there, and those standing there alone.
    pub fn leaders_at(&self, hex: Hex, side: &str) -> Vec<super::mechanics::fire::Leader> {
        self.leaders
            .at(hex)
            .iter()
            .map(|&k| &self.state.generals[k])
            .filter(|g| g.lost.is_none() && g.side == side)
            .map(|g| super::mechanics::fire::Leader {
                id: g.id.clone(),
                name: g.name.clone(),
            })
            .collect()
    }

    /// The leaders attached to unit `i`, by index into the generals.
    pub fn leaders_with(&self, i: usize) -> Vec<usize> {
        self.attached.get(&i).cloned().unwrap_or_default()
    }

    /// Moves a unit to a hex, and its attached leaders with it.
    pub fn put(&mut self, i: usize, to: Hex) {
        let from = self.hex(i);
        self.by_hex.shift(i, from, to);
        self.state.units[i].location = Location::in_hex(to);
        for k in self.leaders_with(i) {
            self.leaders.lift(k, from);
            self.state.generals[k].location = Location::in_hex(to);
            self.leaders.place(k, to);
        }
    }

    /// Takes a unit out of play, with the reason. Its leaders stay where
    /// they stood until `eliminate` finds them a new unit.
    pub fn remove(&mut self, i: usize, why: String) {
        let at = self.hex(i);
        self.by_hex.lift(i, at);
        self.state.units[i].eliminated = Some(why);
    }

    /// The enemies of `side` in the hexes next to `hex`.
    pub fn enemies_next_to(&self, hex: Hex, side: &str) -> Vec<usize> {
        Direction::ALL
            .into_iter()
            .filter_map(|d| hex.neighbour(d))
            .flat_map(|n| self.at(n).iter().copied())
            .filter(|&j| self.state.units[j].side != side)
            .collect()
    }
}
