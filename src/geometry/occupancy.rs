//! Who stands in each hex of a map: pieces by index into their owner's
//! list, kept by hex so that a question about a hex and its neighbours
//! costs those hexes, not every piece. A hex game's field keeps one for its
//! units and one for its leaders; the pieces themselves stay the field's.

use std::collections::BTreeMap;

use super::Hex;

/// The pieces in each hex, by index. A hex's pieces are listed in the
/// order they came there; `shift` keeps them in the order of the indices,
/// as a field that reads them "in the order of the state" wants.
#[derive(Clone, Debug, Default)]
pub struct Occupancy {
    by_hex: BTreeMap<Hex, Vec<usize>>,
}

impl Occupancy {
    pub fn new() -> Occupancy {
        Occupancy::default()
    }

    /// Forgets every piece.
    pub fn clear(&mut self) {
        self.by_hex.clear();
    }

    /// The pieces in a hex.
    pub fn at(&self, hex: Hex) -> &[usize] {
        self.by_hex.get(&hex).map_or(&[], Vec::as_slice)
    }

    /// Piece `i` comes to `hex`, after those already there.
    pub fn place(&mut self, i: usize, hex: Hex) {
        self.by_hex.entry(hex).or_default().push(i);
    }

    /// Piece `i` leaves `hex`; a hex left empty is forgotten.
    pub fn lift(&mut self, i: usize, hex: Hex) {
        if let Some(list) = self.by_hex.get_mut(&hex) {
            list.retain(|&j| j != i);
            if list.is_empty() {
                self.by_hex.remove(&hex);
            }
        }
    }

    /// Piece `i` moves from `from` to `to`, where the pieces are then in
    /// the order of their indices.
    pub fn shift(&mut self, i: usize, from: Hex, to: Hex) {
        self.lift(i, from);
        let list = self.by_hex.entry(to).or_default();
        list.push(i);
        list.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_found_where_they_stand_and_nowhere_else() {
        let (a, b) = (Hex::new(1, 1), Hex::new(1, 2));
        let mut o = Occupancy::new();
        o.place(3, a);
        o.place(1, a);
        assert_eq!(o.at(a), &[3, 1], "in the order they came");
        o.shift(3, a, b);
        o.place(0, b);
        o.shift(1, a, b);
        assert_eq!(o.at(a), &[] as &[usize]);
        assert_eq!(o.at(b), &[0, 1, 3], "a shift leaves the order of indices");
        o.lift(0, b);
        assert_eq!(o.at(b), &[1, 3]);
        o.clear();
        assert_eq!(o.at(b), &[] as &[usize]);
    }
}
