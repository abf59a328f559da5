//! Hex maps: flat-topped hexes in columns, odd columns shifted half a hex
//! south, as the scenario writes them (`column`, `row`, counting from 0 at
//! the north-west corner; docs/CAMPAIGN-FILES.md).
//!
//! Conventions, the same for every ruleset that plays on hexes:
//! - **Directions** are the six hexsides, clockwise from north
//!   ([`Direction`], 0 north to 5 north-west); a hex map's facing is one.
//! - **Arithmetic** is done in cube coordinates (q + r + s = 0), where a
//!   step to each side adds a fixed vector and a distance is half the sum of
//!   the differences; the scenario's offset coordinates are converted at
//!   the edges. Everything is integer: no rounding, no platform maths.
//! - **Lines** between hex centres are drawn exactly: where a line runs
//!   along a hexside, between two hexes, the step says so
//!   ([`LineStep::Between`]) and the ruleset's ruling decides what that
//!   means for sight.
//! - **Layout** for drawing: a hex's centre and corners for a given size,
//!   y down (south), hexside `s` running from corner `s` to corner `s + 1`.

use serde::{Deserialize, Serialize};

/// A hexside, or the direction across it, clockwise from north.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Direction {
    North,
    NorthEast,
    SouthEast,
    South,
    SouthWest,
    NorthWest,
}

impl Direction {
    pub const ALL: [Direction; 6] = [
        Direction::North,
        Direction::NorthEast,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::NorthWest,
    ];

    /// The hexside by its number, 0 (north) to 5, as a scenario gives it.
    pub fn from_number(n: u8) -> Option<Direction> {
        Direction::ALL.get(usize::from(n)).copied()
    }

    /// The hexside a piece on a hex map faces: its facing is the side's
    /// number, and any whole number of turns round is the same side.
    pub fn of_facing(facing: u32) -> Direction {
        u8::try_from(facing % 6)
            .ok()
            .and_then(Direction::from_number)
            .unwrap_or(Direction::North)
    }

    pub fn number(self) -> u8 {
        self as u8
    }

    /// The direction `sixths` sixths of a turn clockwise (negative:
    /// anticlockwise).
    pub fn turned(self, sixths: i32) -> Direction {
        let n = (i32::from(self.number()) + sixths).rem_euclid(6);
        Direction::ALL[n as usize]
    }

    pub fn opposite(self) -> Direction {
        self.turned(3)
    }

    /// How many sixths of a turn `self` lies off `facing`, either way: 0
    /// straight ahead, 1 and 2 to a side, 3 straight behind. A ruleset's
    /// ruling says which of these are its front, flank and rear.
    pub fn sixths_off(self, facing: Direction) -> u8 {
        let d = (i32::from(self.number()) - i32::from(facing.number())).rem_euclid(6) as u8;
        d.min(6 - d)
    }

    /// The cube vector of one step across this side.
    fn step(self) -> Cube {
        let (q, r) = match self {
            Direction::North => (0, -1),
            Direction::NorthEast => (1, -1),
            Direction::SouthEast => (1, 0),
            Direction::South => (0, 1),
            Direction::SouthWest => (-1, 1),
            Direction::NorthWest => (-1, 0),
        };
        Cube { q, r }
    }
}

/// A hex of the map, as the scenario and the state write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Hex {
    pub column: u32,
    pub row: u32,
}

/// Axial cube coordinates (s is -q - r): the form hex arithmetic is
/// simple in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Cube {
    q: i64,
    r: i64,
}

impl Cube {
    fn s(self) -> i64 {
        -self.q - self.r
    }

    fn plus(self, other: Cube) -> Cube {
        Cube {
            q: self.q + other.q,
            r: self.r + other.r,
        }
    }

    fn distance(self, other: Cube) -> u32 {
        let d = (self.q - other.q).abs() + (self.r - other.r).abs() + (self.s() - other.s()).abs();
        u32::try_from(d / 2).unwrap_or(u32::MAX)
    }

    /// The hex, if it has whole coordinates of 0 or more.
    fn hex(self) -> Option<Hex> {
        let column = self.q;
        // Odd columns sit half a hex further south.
        let row = self.r + (column - (column & 1)) / 2;
        Some(Hex {
            column: u32::try_from(column).ok()?,
            row: u32::try_from(row).ok()?,
        })
    }
}

impl Hex {
    pub fn new(column: u32, row: u32) -> Hex {
        Hex { column, row }
    }

    /// The hex's number as the map prints it in each hex and reports name
    /// it: column then row, two digits each (`0302` is column 3, row 2); on
    /// a map of a hundred columns or rows and more, where four digits no
    /// longer split one way, the two numbers with a dot between (`102.7`).
    pub fn label(self) -> String {
        if self.column < 100 && self.row < 100 {
            format!("{:02}{:02}", self.column, self.row)
        } else {
            format!("{}.{}", self.column, self.row)
        }
    }

    /// Reads a hex number as [`Hex::label`] writes it: four digits, the
    /// column then the row (`0302`); or, for a map of a hundred columns or
    /// rows and more, the two numbers with a dot between (`102.7`).
    pub fn from_label(text: &str) -> Option<Hex> {
        let number = |t: &str| -> Option<u32> {
            if t.is_empty() || t.len() > 5 || !t.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            t.parse().ok()
        };
        match text.split_once('.') {
            Some((column, row)) => Some(Hex::new(number(column)?, number(row)?)),
            // Four bytes, not four characters: a character of several bytes
            // must not be cut (the fuzzer's `1\u{fffd}` once panicked here).
            None if text.len() == 4 => {
                Some(Hex::new(number(text.get(..2)?)?, number(text.get(2..)?)?))
            }
            None => None,
        }
    }

    fn cube(self) -> Cube {
        let q = i64::from(self.column);
        let r = i64::from(self.row) - (q - (q & 1)) / 2;
        Cube { q, r }
    }

    /// Hexes from here to `other`, counting `other` and not this one: 1 for
    /// a neighbour.
    pub fn distance(self, other: Hex) -> u32 {
        self.cube().distance(other.cube())
    }

    /// The hex across `side`; `None` past the north or west edge of any
    /// map (a map's own size is [`HexGrid`]'s).
    pub fn neighbour(self, side: Direction) -> Option<Hex> {
        self.cube().plus(side.step()).hex()
    }

    /// The side this hex shares with `other`, if they are neighbours.
    pub fn side_towards(self, other: Hex) -> Option<Direction> {
        let (a, b) = (self.cube(), other.cube());
        Direction::ALL.into_iter().find(|d| a.plus(d.step()) == b)
    }

    /// The hexes a straight line from this hex's centre to `other`'s passes
    /// through, in order, both ends included; see [`LineStep`].
    pub fn line_to(self, other: Hex) -> Vec<LineStep> {
        let (a, b) = (self.cube(), other.cube());
        let n = a.distance(b);
        if n == 0 {
            return vec![LineStep::Hex(self)];
        }
        let n = i64::from(n);
        (0..=n)
            .map(|i| {
                // The point i/n of the way, as numerators over n.
                let at = |from: i64, to: i64| from * n + (to - from) * i;
                let point = [at(a.q, b.q), at(a.r, b.r), at(a.s(), b.s())];
                // Nudged one way and the other: a line that runs between two
                // hexes rounds to each of them.
                let one = round_cube(point, n, [1, 2, -3]);
                let other = round_cube(point, n, [-1, -2, 3]);
                match (one.hex(), other.hex()) {
                    (Some(x), Some(y)) if x != y => LineStep::Between(x.min(y), x.max(y)),
                    (Some(x), _) | (None, Some(x)) => LineStep::Hex(x),
                    (None, None) => LineStep::Hex(self),
                }
            })
            .collect()
    }
}

/// One step of a line between hex centres.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LineStep {
    /// The line passes through this hex.
    Hex(Hex),
    /// The line runs exactly along the hexside between these two hexes.
    Between(Hex, Hex),
}

impl LineStep {
    /// The hexes of the step: one, or the two the line runs between.
    pub fn hexes(self) -> Vec<Hex> {
        match self {
            LineStep::Hex(h) => vec![h],
            LineStep::Between(a, b) => vec![a, b],
        }
    }
}

/// Rounds a cube point given as numerators over `n` to the nearest hex,
/// each coordinate nudged by an infinitesimal multiple of `nudge`, exactly:
/// a tie (a line on a hexside or through a corner) goes the way the nudge
/// points.
fn round_cube(point: [i64; 3], n: i64, nudge: [i64; 3]) -> Cube {
    // Each coordinate rounded alone, with how far it moved: (numerator over
    // n, nudge) compared as value first and nudge second.
    let rounded: Vec<(i64, (i64, i64))> = point
        .iter()
        .zip(nudge)
        .map(|(&x, k)| {
            // floor((2x + n) / 2n): half up; an exact half goes down when
            // the nudge is negative.
            let mut m = (2 * x + n).div_euclid(2 * n);
            if (2 * x + n).rem_euclid(2 * n) == 0 && k < 0 {
                m -= 1;
            }
            let diff = x - m * n;
            let size = if diff == 0 {
                (0, k.abs())
            } else {
                (diff.abs(), diff.signum() * k)
            };
            (m, size)
        })
        .collect();
    let [(q, dq), (r, dr), (s, ds)] = [rounded[0], rounded[1], rounded[2]];
    // The coordinate that moved furthest is the one that gives way, so
    // that q + r + s stays 0.
    if dq > dr && dq > ds {
        Cube { q: -r - s, r }
    } else if dr > ds {
        Cube { q, r: -q - s }
    } else {
        Cube { q, r }
    }
}

/// The sides a path of hexes crosses, each as the hex it leaves and the
/// side it leaves by; an error names the first step that is not to a
/// neighbour.
pub fn path_sides(path: &[Hex]) -> Result<Vec<(Hex, Direction)>, NotAdjacent> {
    path.windows(2)
        .map(|w| {
            w[0].side_towards(w[1])
                .map(|d| (w[0], d))
                .ok_or(NotAdjacent {
                    from: w[0],
                    to: w[1],
                })
        })
        .collect()
}

/// A step of a path between hexes that do not touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("hex ({}, {}) does not touch hex ({}, {})", from.column, from.row, to.column, to.row)]
pub struct NotAdjacent {
    pub from: Hex,
    pub to: Hex,
}

/// One hexside, the same whichever of its two hexes names it: (3, 4)
/// north is (3, 3) south.
#[derive(Debug, Clone, Copy)]
pub struct Hexside {
    pub hex: Hex,
    pub side: Direction,
}

impl Hexside {
    pub fn new(hex: Hex, side: Direction) -> Hexside {
        Hexside { hex, side }
    }

    /// The side as one of the first three of the hex it belongs to (north,
    /// north-east, south-east), in cube coordinates, so that both names of
    /// a side compare equal.
    fn key(self) -> (Cube, Direction) {
        let cube = self.hex.cube();
        if self.side.number() < 3 {
            (cube, self.side)
        } else {
            (cube.plus(self.side.step()), self.side.opposite())
        }
    }
}

impl PartialEq for Hexside {
    fn eq(&self, other: &Hexside) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Hexside {}

/// Hexsides sort by their one name, so that a map of features by hexside
/// (a `BTreeMap`) finds a side whichever of its hexes names it.
impl Ord for Hexside {
    fn cmp(&self, other: &Hexside) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for Hexside {
    fn partial_cmp(&self, other: &Hexside) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The size of a hex map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HexGrid {
    pub columns: u32,
    pub rows: u32,
}

impl HexGrid {
    pub fn contains(self, hex: Hex) -> bool {
        hex.column < self.columns && hex.row < self.rows
    }

    /// The neighbours of a hex on the map, with the side each is across.
    pub fn neighbours(self, hex: Hex) -> Vec<(Direction, Hex)> {
        Direction::ALL
            .into_iter()
            .filter_map(|d| hex.neighbour(d).map(|n| (d, n)))
            .filter(|(_, n)| self.contains(*n))
            .collect()
    }
}

/// Where hexes are drawn: `radius` from centre to corner, `height` flat
/// side to flat side (radius times the square root of 3, rounded to an even
/// number so that half of it is whole), the first hex touching the origin,
/// y down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HexLayout {
    pub radius: i64,
    pub height: i64,
}

impl HexLayout {
    pub fn centre(self, hex: Hex) -> (i64, i64) {
        let (c, r) = (i64::from(hex.column), i64::from(hex.row));
        let shift = if hex.column % 2 == 1 {
            self.height / 2
        } else {
            0
        };
        (
            self.radius + c * (3 * self.radius / 2),
            self.height / 2 + r * self.height + shift,
        )
    }

    /// The six corners, clockwise from the north-west one: hexside `s`
    /// runs from corner `s` to corner `s + 1`.
    pub fn corners(self, hex: Hex) -> [(i64, i64); 6] {
        let (x, y) = self.centre(hex);
        let (r, h) = (self.radius, self.height / 2);
        [
            (x - r / 2, y - h),
            (x + r / 2, y - h),
            (x + r, y),
            (x + r / 2, y + h),
            (x - r / 2, y + h),
            (x - r, y),
        ]
    }

    /// The width and height of a map of `grid`'s size.
    pub fn extent(self, grid: HexGrid) -> (i64, i64) {
        (
            2 * self.radius + (i64::from(grid.columns.max(1)) - 1) * (3 * self.radius / 2),
            self.height * i64::from(grid.rows.max(1)) + self.height / 2,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(column: u32, row: u32) -> Hex {
        Hex::new(column, row)
    }

    #[test]
    fn neighbours_of_an_even_and_an_odd_column() {
        // Odd columns sit half a hex south: (2, 2)'s north-east neighbour
        // is (3, 1), (3, 2)'s is (4, 2).
        let even: Vec<Option<Hex>> = Direction::ALL
            .iter()
            .map(|&d| h(2, 2).neighbour(d))
            .collect();
        assert_eq!(
            even,
            [h(2, 1), h(3, 1), h(3, 2), h(2, 3), h(1, 2), h(1, 1)].map(Some)
        );
        let odd: Vec<Option<Hex>> = Direction::ALL
            .iter()
            .map(|&d| h(3, 2).neighbour(d))
            .collect();
        assert_eq!(
            odd,
            [h(3, 1), h(4, 2), h(4, 3), h(3, 3), h(2, 3), h(2, 2)].map(Some)
        );
        assert_eq!(h(0, 0).neighbour(Direction::North), None);
        assert_eq!(h(0, 0).neighbour(Direction::SouthWest), None);
    }

    #[test]
    fn every_neighbour_is_one_hex_away_and_faces_back() {
        for column in 1..6 {
            for row in 1..6 {
                let here = h(column, row);
                for d in Direction::ALL {
                    let there = here.neighbour(d).expect("inside");
                    assert_eq!(here.distance(there), 1);
                    assert_eq!(here.side_towards(there), Some(d));
                    assert_eq!(there.side_towards(here), Some(d.opposite()));
                    assert_eq!(Hexside::new(here, d), Hexside::new(there, d.opposite()));
                }
            }
        }
    }

    #[test]
    fn distances_along_columns_and_across_them() {
        assert_eq!(h(0, 0).distance(h(0, 5)), 5);
        assert_eq!(h(0, 0).distance(h(4, 0)), 4);
        // Four columns east, each odd one half a row further south: (4, 2)
        // is straight south-east.
        assert_eq!(h(0, 0).distance(h(4, 2)), 4);
        assert_eq!(h(0, 0).distance(h(4, 4)), 6);
        assert_eq!(h(3, 3).distance(h(3, 3)), 0);
    }

    #[test]
    fn facing_arithmetic() {
        assert_eq!(Direction::North.turned(-1), Direction::NorthWest);
        assert_eq!(Direction::NorthWest.turned(2), Direction::NorthEast);
        assert_eq!(Direction::SouthEast.opposite(), Direction::NorthWest);
        assert_eq!(Direction::South.sixths_off(Direction::North), 3);
        assert_eq!(Direction::NorthWest.sixths_off(Direction::NorthEast), 2);
        assert_eq!(Direction::North.sixths_off(Direction::NorthWest), 1);
        assert_eq!(Direction::from_number(4), Some(Direction::SouthWest));
        assert_eq!(Direction::from_number(6), None);
    }

    #[test]
    fn a_facing_is_its_hexside_whatever_the_whole_turns_round() {
        assert_eq!(Direction::of_facing(0), Direction::North);
        assert_eq!(Direction::of_facing(4), Direction::SouthWest);
        assert_eq!(Direction::of_facing(10), Direction::SouthWest);
        assert_eq!(Direction::of_facing(6), Direction::North);
    }

    #[test]
    fn a_line_down_a_column_passes_every_hex_of_it() {
        let steps = h(2, 1).line_to(h(2, 4));
        assert_eq!(
            steps,
            [h(2, 1), h(2, 2), h(2, 3), h(2, 4)].map(LineStep::Hex)
        );
    }

    #[test]
    fn a_line_along_hexsides_runs_between_two_hexes() {
        // From (0, 1) straight east to (2, 1) runs along the side between
        // (1, 0) and (1, 1), the odd column being half a hex south.
        let steps = h(0, 1).line_to(h(2, 1));
        assert_eq!(
            steps,
            vec![
                LineStep::Hex(h(0, 1)),
                LineStep::Between(h(1, 0), h(1, 1)),
                LineStep::Hex(h(2, 1)),
            ]
        );
        // The same line drawn the other way passes the same hexes.
        let mut back = h(2, 1).line_to(h(0, 1));
        back.reverse();
        assert_eq!(back, steps);
    }

    #[test]
    fn a_line_is_as_long_as_the_distance_and_each_step_touches_the_last() {
        let ends = [(h(0, 0), h(7, 3)), (h(5, 9), h(1, 2)), (h(3, 3), h(9, 4))];
        for (a, b) in ends {
            let steps = a.line_to(b);
            assert_eq!(steps.len() as u32, a.distance(b) + 1, "{a:?} to {b:?}");
            assert_eq!(steps.first(), Some(&LineStep::Hex(a)));
            assert_eq!(steps.last(), Some(&LineStep::Hex(b)));
            for w in steps.windows(2) {
                for x in w[0].hexes() {
                    assert!(
                        w[1].hexes().iter().any(|y| x.distance(*y) == 1),
                        "{w:?} from {a:?} to {b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_line_passes_the_same_hexes_drawn_either_way() {
        let hexes: Vec<Hex> = (0..7).flat_map(|c| (0..7).map(move |r| h(c, r))).collect();
        for &a in &hexes {
            for &b in &hexes {
                let mut back = b.line_to(a);
                back.reverse();
                assert_eq!(a.line_to(b), back, "{a:?} to {b:?}");
            }
        }
    }

    #[test]
    fn a_path_crosses_the_sides_between_its_hexes() {
        let path = [h(2, 2), h(2, 1), h(3, 1), h(4, 1)];
        assert_eq!(
            path_sides(&path),
            Ok(vec![
                (h(2, 2), Direction::North),
                (h(2, 1), Direction::SouthEast),
                (h(3, 1), Direction::NorthEast),
            ])
        );
        assert_eq!(
            path_sides(&[h(2, 2), h(4, 2)]),
            Err(NotAdjacent {
                from: h(2, 2),
                to: h(4, 2)
            })
        );
    }

    #[test]
    fn hex_numbers_read_back_as_the_map_prints_them() {
        assert_eq!(h(3, 2).label(), "0302");
        assert_eq!(h(12, 0).label(), "1200");
        assert_eq!(h(102, 7).label(), "102.7");
        assert_eq!(h(5, 100).label(), "5.100");
        assert_eq!(Hex::from_label("0302"), Some(h(3, 2)));
        assert_eq!(Hex::from_label("102.7"), Some(h(102, 7)));
        assert_eq!(Hex::from_label("302"), None);
        assert_eq!(Hex::from_label("03a2"), None);
        assert_eq!(Hex::from_label("10207"), None);
        // Four bytes that are two characters (a fuzz find: it panicked).
        assert_eq!(Hex::from_label("1\u{fffd}"), None);
        for hex in [h(0, 0), h(3, 2), h(99, 99), h(102, 7), h(5, 100)] {
            assert_eq!(Hex::from_label(&hex.label()), Some(hex));
        }
    }

    #[test]
    fn a_hexside_sorts_the_same_under_either_name() {
        use std::collections::BTreeMap;
        let mut sides = BTreeMap::new();
        sides.insert(Hexside::new(h(3, 4), Direction::North), "ford");
        assert_eq!(
            sides.get(&Hexside::new(h(3, 3), Direction::South)),
            Some(&"ford")
        );
        // An odd column's south-west side is the next column's north-east.
        let odd = Hexside::new(h(3, 2), Direction::SouthWest);
        let even = Hexside::new(h(2, 3), Direction::NorthEast);
        assert_eq!(odd.cmp(&even), std::cmp::Ordering::Equal);
        assert_ne!(
            Hexside::new(h(3, 3), Direction::North),
            Hexside::new(h(3, 3), Direction::South)
        );
    }

    #[test]
    fn the_grid_keeps_neighbours_on_the_map() {
        let grid = HexGrid {
            columns: 4,
            rows: 3,
        };
        assert_eq!(grid.neighbours(h(1, 1)).len(), 6);
        let corner: Vec<Direction> = grid.neighbours(h(0, 0)).iter().map(|(d, _)| *d).collect();
        assert_eq!(corner, [Direction::SouthEast, Direction::South]);
        assert!(!grid.contains(h(4, 0)));
    }

    #[test]
    fn a_hexside_runs_between_the_corners_it_shares_with_its_neighbour() {
        let layout = HexLayout {
            radius: 100,
            height: 174,
        };
        for hex in [h(2, 2), h(3, 2)] {
            let corners = layout.corners(hex);
            for d in Direction::ALL {
                let n = hex.neighbour(d).expect("inside");
                let theirs = layout.corners(n);
                let s = usize::from(d.number());
                let o = usize::from(d.opposite().number());
                // The same two corners, met from the other side.
                assert_eq!(corners[s], theirs[(o + 1) % 6], "{hex:?} {d:?}");
                assert_eq!(corners[(s + 1) % 6], theirs[o], "{hex:?} {d:?}");
            }
        }
    }
}
