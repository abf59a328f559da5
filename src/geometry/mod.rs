//! Plane geometry on the fixed grid of hundredths of an inch.

use serde::{Deserialize, Serialize};

use crate::campaign::Point;

/// A rectangle on the table: the front centre, the facing in degrees
/// clockwise from north (+y), the frontage (width) and the depth behind the
/// front, all in hundredths of an inch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rect {
    pub front_centre: Point,
    pub facing: u32,
    pub width: i64,
    pub depth: i64,
}
