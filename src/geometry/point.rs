//! A point on the table, in the fixed grid every length is held in.

use serde::{Deserialize, Serialize};

/// Lengths on a table are stored in hundredths of an inch, so that every
/// machine holds exactly the same numbers.
pub type Hundredths = i64;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    pub x: Hundredths,
    pub y: Hundredths,
}
