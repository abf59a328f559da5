//! A small deterministic generator of points and rectangles for the
//! property tests: the same cases on every run and every machine.

use super::Rect;
use crate::geometry::Point;

pub(crate) fn pt(x: i64, y: i64) -> Point {
    Point { x, y }
}

pub(crate) fn rect(x: i64, y: i64, facing: u32, width: i64, depth: i64) -> Rect {
    Rect {
        front_centre: pt(x, y),
        facing,
        width,
        depth,
    }
}

/// xorshift64*: tiny, fast and good enough to spread test cases.
pub(crate) struct Gen(u64);

impl Gen {
    pub(crate) fn new(seed: u64) -> Self {
        Gen(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A whole number in `lo..=hi`.
    pub(crate) fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    /// A point on a 6' by 4' table.
    pub(crate) fn point(&mut self) -> Point {
        pt(self.range(0, 7200), self.range(0, 4800))
    }

    /// A facing: a quarter of the time a multiple of 90, else any degree.
    pub(crate) fn facing(&mut self) -> u32 {
        if self.next().is_multiple_of(4) {
            (self.range(0, 3) * 90) as u32
        } else {
            self.range(0, 359) as u32
        }
    }

    /// A unit-sized rectangle somewhere on the table.
    pub(crate) fn rect(&mut self) -> Rect {
        Rect {
            front_centre: self.point(),
            facing: self.facing(),
            width: self.range(50, 900),
            depth: self.range(50, 400),
        }
    }
}
