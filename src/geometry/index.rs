//! One spatial index for the pieces on a table: each piece's footprint by
//! its index, the footprints bucketed by square cells, and the pieces by
//! id. "Which pieces lie near this one, or near the ground this move
//! sweeps" then costs the neighbours, not every piece on the table, which
//! is what keeps a turn of thousands of units n log n (docs/PERFORMANCE.md).
//!
//! It knows nothing of sides, morale or command: a ruleset filters what it
//! returns and measures exactly. Every query answers in ascending index
//! order, so that a ruleset iterating its answer draws dice in an order
//! that depends on the state alone.

use std::collections::BTreeMap;

use super::{Hundredths, Point, Rect, rect_distance};

/// Axis-aligned bounds of a rectangle: `(x0, y0, x1, y1)`.
pub fn bounds(r: &Rect) -> (i64, i64, i64, i64) {
    let c = r.corners();
    let xs = c.iter().map(|p| p.x);
    let ys = c.iter().map(|p| p.y);
    (
        xs.clone().min().unwrap_or(0),
        ys.clone().min().unwrap_or(0),
        xs.max().unwrap_or(0),
        ys.max().unwrap_or(0),
    )
}

/// Footprints bucketed by square cells, so that "which pieces lie within d
/// of this box" visits the cells around the box only.
#[derive(Debug, Clone)]
pub struct Grid {
    cell: i64,
    cells: BTreeMap<(i64, i64), Vec<usize>>,
}

impl Grid {
    /// A grid of `cell`-sized squares over the given footprints (by index;
    /// `None` are left out).
    pub fn new(rects: &[Option<Rect>], cell: Hundredths) -> Grid {
        let cell = cell.max(1);
        // Built in bulk from sorted pairs: a map built from sorted input
        // costs far less than one insertion at a time.
        let mut pairs: Vec<((i64, i64), usize)> = Vec::with_capacity(rects.len() * 2);
        for (i, r) in rects.iter().enumerate() {
            let Some(r) = r else { continue };
            let (x0, y0, x1, y1) = bounds(r);
            for cx in x0.div_euclid(cell)..=x1.div_euclid(cell) {
                for cy in y0.div_euclid(cell)..=y1.div_euclid(cell) {
                    pairs.push(((cx, cy), i));
                }
            }
        }
        pairs.sort_unstable();
        let mut grouped: Vec<((i64, i64), Vec<usize>)> = Vec::new();
        for (c, i) in pairs {
            match grouped.last_mut() {
                Some((last, v)) if *last == c => v.push(i),
                _ => grouped.push((c, vec![i])),
            }
        }
        Grid {
            cell,
            cells: grouped.into_iter().collect(),
        }
    }

    /// Indices of pieces whose bounds come within `d` of the box
    /// `(x0, y0, x1, y1)`, each once, in ascending order. A superset: the
    /// caller measures exactly.
    pub fn near_box(&self, b: (i64, i64, i64, i64), d: Hundredths) -> Vec<usize> {
        let (x0, y0, x1, y1) = (b.0 - d, b.1 - d, b.2 + d, b.3 + d);
        let mut out = Vec::new();
        for cx in x0.div_euclid(self.cell)..=x1.div_euclid(self.cell) {
            for cy in y0.div_euclid(self.cell)..=y1.div_euclid(self.cell) {
                if let Some(v) = self.cells.get(&(cx, cy)) {
                    out.extend_from_slice(v);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    fn cells_of(&self, r: &Rect) -> Vec<(i64, i64)> {
        let (x0, y0, x1, y1) = bounds(r);
        let mut out = Vec::new();
        for cx in x0.div_euclid(self.cell)..=x1.div_euclid(self.cell) {
            for cy in y0.div_euclid(self.cell)..=y1.div_euclid(self.cell) {
                out.push((cx, cy));
            }
        }
        out
    }

    pub fn insert(&mut self, i: usize, r: &Rect) {
        for c in self.cells_of(r) {
            let v = self.cells.entry(c).or_default();
            if let Err(at) = v.binary_search(&i) {
                v.insert(at, i);
            }
        }
    }

    pub fn remove(&mut self, i: usize, r: &Rect) {
        for c in self.cells_of(r) {
            if let Some(v) = self.cells.get_mut(&c) {
                v.retain(|&j| j != i);
            }
        }
    }

    pub fn near_rect(&self, r: &Rect, d: Hundredths) -> Vec<usize> {
        self.near_box(bounds(r), d)
    }

    /// Pieces whose bounds meet the box around the segment `a`-`b`.
    pub fn along(&self, a: Point, b: Point) -> Vec<usize> {
        self.near_box((a.x.min(b.x), a.y.min(b.y), a.x.max(b.x), a.y.max(b.y)), 0)
    }
}

/// Every piece's footprint by index, on a [`Grid`], with the pieces by id:
/// kept in step by whoever moves a piece ([`SpatialIndex::set`]).
#[derive(Debug, Clone)]
pub struct SpatialIndex {
    /// Each piece's footprint, by its index; `None` for one off the table.
    /// Read it freely; change it only through [`SpatialIndex::set`], which
    /// keeps the grid in step.
    pub rects: Vec<Option<Rect>>,
    pub grid: Grid,
    ids: BTreeMap<String, usize>,
}

impl SpatialIndex {
    /// The index of pieces with these ids and footprints, in that order, on
    /// a grid of `cell`-sized squares. An id given twice keeps its first
    /// piece.
    pub fn new<'a>(
        ids: impl Iterator<Item = &'a str>,
        rects: Vec<Option<Rect>>,
        cell: Hundredths,
    ) -> SpatialIndex {
        let grid = Grid::new(&rects, cell);
        let mut by_id = BTreeMap::new();
        for (i, id) in ids.enumerate() {
            by_id.entry(id.to_string()).or_insert(i);
        }
        SpatialIndex {
            rects,
            grid,
            ids: by_id,
        }
    }

    /// A piece's index by its id.
    pub fn index(&self, id: &str) -> Option<usize> {
        self.ids.get(id).copied()
    }

    /// A piece's footprint, if it is on the table.
    pub fn rect(&self, i: usize) -> Option<Rect> {
        self.rects.get(i).copied().flatten()
    }

    /// Puts a piece's footprint where it now stands (`None`: off the table).
    pub fn set(&mut self, i: usize, rect: Option<Rect>) {
        if let Some(slot) = self.rects.get_mut(i) {
            if let Some(old) = slot {
                self.grid.remove(i, old);
            }
            if let Some(new) = &rect {
                self.grid.insert(i, new);
            }
            *slot = rect;
        }
    }

    /// The indices of every piece on the table, ascending.
    pub fn on_table(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.rects.len()).filter(|&i| self.rects[i].is_some())
    }

    /// Pieces on the table whose bounds come within `d` of the box `area`,
    /// ascending: a superset the caller measures.
    pub fn near_box(&self, area: (i64, i64, i64, i64), d: Hundredths) -> Vec<usize> {
        self.grid.near_box(area, d)
    }

    /// Pieces on the table within `d` of a footprint, measured exactly,
    /// other than those in `except`.
    pub fn near(&self, rect: &Rect, d: Hundredths, except: &[usize]) -> Vec<usize> {
        self.grid
            .near_rect(rect, d)
            .into_iter()
            .filter(|j| !except.contains(j))
            .filter(|&j| self.rect(j).is_some_and(|o| rect_distance(rect, &o) <= d))
            .collect()
    }

    /// Pieces on the table within `d` of piece `i`'s footprint (measured
    /// exactly), other than `i`.
    pub fn within(&self, i: usize, d: Hundredths) -> Vec<usize> {
        match self.rect(i) {
            Some(r) => self.near(&r, d, &[i]),
            None => Vec::new(),
        }
    }

    /// Pieces a footprint at `rect` overlaps, other than `except`.
    pub fn overlapping(&self, rect: &Rect, except: &[usize]) -> Vec<usize> {
        self.grid
            .near_rect(rect, 0)
            .into_iter()
            .filter(|j| !except.contains(j))
            .filter(|&j| self.rect(j).is_some_and(|o| rect.overlaps(&o)))
            .collect()
    }

    /// The footprints of the pieces within `d` of the box `area`, and their
    /// indices, ascending, leaving out `except`: for the sweep tests of a
    /// move, which need the rectangles themselves.
    pub fn rects_near_except(
        &self,
        area: (i64, i64, i64, i64),
        d: Hundredths,
        except: &[usize],
    ) -> (Vec<usize>, Vec<Rect>) {
        self.near_box(area, d)
            .into_iter()
            .filter(|j| !except.contains(j))
            .filter_map(|j| self.rect(j).map(|r| (j, r)))
            .unzip()
    }

    /// The footprints of every piece on the table and their indices, but
    /// `except`.
    pub fn rects_except(&self, except: &[usize]) -> (Vec<usize>, Vec<Rect>) {
        self.on_table()
            .filter(|j| !except.contains(j))
            .filter_map(|j| self.rect(j).map(|r| (j, r)))
            .unzip()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: i64, y: i64) -> Rect {
        Rect {
            front_centre: Point { x, y },
            facing: 0,
            width: 200,
            depth: 100,
        }
    }

    #[test]
    fn neighbours_are_found_by_cell_and_measured_exactly() {
        let rects = vec![
            Some(rect(0, 0)),
            Some(rect(250, 0)),
            None,
            Some(rect(5000, 5000)),
        ];
        let mut index = SpatialIndex::new(["a", "b", "c", "d"].into_iter(), rects, 800);
        assert_eq!(index.index("b"), Some(1));
        assert_eq!(index.within(0, 50), vec![1]);
        assert_eq!(index.within(0, 49), Vec::<usize>::new());
        assert_eq!(index.on_table().collect::<Vec<_>>(), vec![0, 1, 3]);
        // Moving a piece moves it on the grid too.
        index.set(3, Some(rect(300, 0)));
        assert_eq!(index.within(0, 100), vec![1, 3]);
        index.set(1, None);
        assert_eq!(index.within(0, 100), vec![3]);
        assert!(index.overlapping(&rect(250, 0), &[]).contains(&3));
    }
}
