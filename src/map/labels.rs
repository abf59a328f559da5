//! Where the labels of units and generals go: each in turn at the first of
//! a few places around what it names that overlaps no label placed before
//! it, and where it can nothing drawn (units, markers, generals, the title,
//! hex numbers). The boxes are filed by cell of a grid, so that a label is
//! checked against its neighbours alone, and the same input gives the same
//! places on every machine: integers only, and a map ordered by its keys.

use std::collections::BTreeMap;

use super::measure;

/// A box on the page, in the SVG's units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Boxed {
    pub left: i64,
    pub top: i64,
    pub right: i64,
    pub bottom: i64,
}

impl Boxed {
    pub fn overlaps(&self, other: &Boxed) -> bool {
        self.left < other.right
            && other.left < self.right
            && self.top < other.bottom
            && other.top < self.bottom
    }
}

/// The box of `text` at font size `size`, written centred on `x` with its
/// baseline at `y`.
pub fn text_box(x: i64, y: i64, size: i64, text: &str) -> Boxed {
    sized_box(x, y, measure::width(text, size), measure::extent(size))
}

/// The box of a text `w` wide reaching `up` and `down` from its baseline,
/// written centred on `x` with its baseline at `y`.
fn sized_box(x: i64, y: i64, w: i64, (up, down): (i64, i64)) -> Boxed {
    let left = x - w / 2;
    Boxed {
        left,
        top: y - up,
        right: left + w,
        bottom: y + down,
    }
}

/// A label to be placed: its text and size, and the places it may go, best
/// first, each the baseline point it is written centred on.
#[derive(Debug, Clone)]
pub struct Wanted {
    pub text: String,
    pub size: i64,
    pub places: Vec<(i64, i64)>,
    /// Its width and reach above and below the baseline, measured once.
    width: i64,
    extent: (i64, i64),
}

impl Wanted {
    /// A label that goes at `first` if it can, else beside `body` (what it
    /// names: a unit, a general's diamond): below, above, right, left, then
    /// at the corners and a row further out.
    pub fn around(text: String, size: i64, first: (i64, i64), body: Boxed) -> Wanted {
        let w = measure::width(&text, size);
        let (up, down) = measure::extent(size);
        let gap = (size / 6).max(2);
        let below = body.bottom + gap + up;
        let above = body.top - gap - down;
        let row = up + down + gap;
        let mid_x = (body.left + body.right) / 2;
        let mid_y = (body.top + body.bottom) / 2 + (up - down) / 2;
        let right = body.right + gap + w / 2;
        let left = body.left - gap - w + w / 2;
        let places = vec![
            first,
            (mid_x, below),
            (mid_x, above),
            (right, mid_y),
            (left, mid_y),
            (right, below),
            (left, below),
            (right, above),
            (left, above),
            (mid_x, below + row),
            (mid_x, above - row),
        ];
        Wanted {
            text,
            size,
            places,
            width: w,
            extent: (up, down),
        }
    }

    fn at(&self, x: i64, y: i64) -> Boxed {
        sized_box(x, y, self.width, self.extent)
    }
}

/// The side of a cell of the grid the layout looks things up in: about a
/// label's width, so that a box is checked against its neighbours only.
const CELL: i64 = 400;

/// What is already on the page, by cell: each box is filed in every cell it
/// covers. A pair is counted once, in the cell where their overlap's top
/// left corner lies.
#[derive(Default)]
struct Grid {
    boxes: Vec<Boxed>,
    cells: BTreeMap<(i64, i64), Vec<usize>>,
}

fn cells(b: &Boxed) -> impl Iterator<Item = (i64, i64)> {
    let (x0, x1) = (b.left.div_euclid(CELL), (b.right - 1).div_euclid(CELL));
    let (y0, y1) = (b.top.div_euclid(CELL), (b.bottom - 1).div_euclid(CELL));
    (x0..=x1).flat_map(move |x| (y0..=y1).map(move |y| (x, y)))
}

impl Grid {
    fn add(&mut self, b: Boxed) {
        if b.right <= b.left || b.bottom <= b.top {
            return;
        }
        let i = self.boxes.len();
        self.boxes.push(b);
        for cell in cells(&b) {
            self.cells.entry(cell).or_default().push(i);
        }
    }

    /// How many boxes `b` overlaps.
    fn overlaps(&self, b: &Boxed) -> usize {
        let mut n = 0;
        for cell in cells(b) {
            let Some(ids) = self.cells.get(&cell) else {
                continue;
            };
            for &i in ids {
                let o = &self.boxes[i];
                if o.overlaps(b) {
                    let corner = (
                        o.left.max(b.left).div_euclid(CELL),
                        o.top.max(b.top).div_euclid(CELL),
                    );
                    if corner == cell {
                        n += 1;
                    }
                }
            }
        }
        n
    }
}

/// Places labels one after another, each at the first of its places that
/// overlaps no label placed before it, and of those the one that covers
/// the fewest units, markers and generals; where every place overlaps a
/// label, the one that overlaps fewest. Every box is kept inside the page.
/// Boxes are looked up by cell, so a label is checked against its
/// neighbours only, and the result depends on nothing but the order given.
pub struct Layout {
    page: Boxed,
    labels: Grid,
    bodies: Grid,
}

impl Layout {
    pub fn new(width: i64, height: i64) -> Layout {
        Layout {
            page: Boxed {
                left: 0,
                top: 0,
                right: width,
                bottom: height,
            },
            labels: Grid::default(),
            bodies: Grid::default(),
        }
    }

    /// Something drawn that labels should leave clear.
    pub fn body(&mut self, b: Boxed) {
        self.bodies.add(b);
    }

    /// Where `wanted` goes: the baseline point to write it centred on.
    pub fn place(&mut self, wanted: &Wanted) -> (i64, i64) {
        // The labels overlapped, then the things drawn, then the place.
        let mut best: Option<(usize, usize, (i64, i64))> = None;
        for &(x, y) in &wanted.places {
            let at = self.inside(x, y, wanted);
            let b = wanted.at(at.0, at.1);
            let key = (self.labels.overlaps(&b), self.bodies.overlaps(&b));
            if best.is_none_or(|(l, d, _)| key < (l, d)) {
                best = Some((key.0, key.1, at));
            }
            if key == (0, 0) {
                break;
            }
        }
        let Some((_, _, at)) = best else {
            return (0, 0);
        };
        self.labels.add(wanted.at(at.0, at.1));
        at
    }

    /// The point moved as little as keeps the label's box on the page.
    fn inside(&self, x: i64, y: i64, wanted: &Wanted) -> (i64, i64) {
        let b = wanted.at(x, y);
        let shift = |low: i64, high: i64, min: i64, max: i64| {
            if high - low > max - min || low < min {
                min - low
            } else if high > max {
                max - high
            } else {
                0
            }
        };
        (
            x + shift(b.left, b.right, self.page.left, self.page.right),
            y + shift(b.top, b.bottom, self.page.top, self.page.bottom),
        )
    }
}
