//! The combat tables as the rules print them: every band as printed, every
//! result in the table's own words, and typed so that play applies it.
//!
//! The die reads 0-9. A modified roll below a table's first band or above
//! its last is read in that end band: the Missile Fire Results print "0-4"
//! and "5+", the Shock and Charge Results "0 or less" and "8+" (ruling
//! KUL-4). The Charge Reluctance and Counter-Charge bands ("0-4", "5-9";
//! "0-3", "4-9") are closed: a roll modified below 0 or above 9 counts as 0
//! or 9.

use std::sync::LazyLock;

use super::state::Weapon;
use crate::rules::kernel::{Band, DieTable};

/// What a missile fire result does to its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missile {
    NoEffect,
    Disordered,
    Retreat,
    Retire,
    Eliminated,
}

impl Missile {
    /// The table's own words.
    pub fn words(self) -> &'static str {
        match self {
            Missile::NoEffect => "no effect",
            Missile::Disordered => "Disordered",
            Missile::Retreat => "Retreat",
            Missile::Retire => "Retire",
            Missile::Eliminated => "Eliminated",
        }
    }
}

/// One row of a table: its band as printed and its result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row<T> {
    pub printed: &'static str,
    pub result: T,
}

/// A results table: its name, its column's name and its rows.
pub struct Table<T: 'static> {
    pub name: &'static str,
    pub column: &'static str,
    rows: DieTable<Row<T>>,
}

impl<T: Copy> Table<T> {
    /// Builds a table from its printed rows: `(band as printed, band as
    /// read, result)`. The bands are the kernel's, which refuses a gap or an
    /// overlap; the tests build every table.
    fn new(name: &'static str, column: &'static str, rows: Vec<(&'static str, Band, T)>) -> Self {
        let rows = rows
            .into_iter()
            .map(|(printed, band, result)| (band, Row { printed, result }))
            .collect();
        Table {
            name,
            column,
            rows: DieTable::new(rows).unwrap_or_else(|e| panic!("{name}, {column}: {e}")),
        }
    }

    /// The row a modified roll falls in (every table is open at both ends).
    pub fn row(&self, modified: i32) -> Row<T> {
        match self.rows.lookup(modified) {
            Some(row) => *row,
            // Unreachable: every table here is open at both ends (tested).
            None => self.rows.rows()[0].1,
        }
    }

    pub fn rows(&self) -> impl Iterator<Item = Row<T>> + '_ {
        self.rows.rows().iter().map(|(_, r)| *r)
    }

    pub fn is_open(&self) -> bool {
        self.rows.is_open()
    }
}

use Band::{AtLeast, AtMost, Range};

fn missile_table(column: &'static str, rows: Vec<(&'static str, Band, Missile)>) -> Table<Missile> {
    Table::new("Missile Fire Results", column, rows)
}

/// Missile Fire Results, "Target Leg Unit", "Target Normal".
pub static LEG_NORMAL: LazyLock<Table<Missile>> = LazyLock::new(|| {
    missile_table(
        "Target Leg Unit, Target Normal",
        vec![
            ("0-4", AtMost(4), Missile::NoEffect),
            ("5+", AtLeast(5), Missile::Disordered),
        ],
    )
});

/// Missile Fire Results, "Target Leg Unit", "Target Disordered".
pub static LEG_DISORDERED: LazyLock<Table<Missile>> = LazyLock::new(|| {
    missile_table(
        "Target Leg Unit, Target Disordered",
        vec![
            ("0-1", AtMost(1), Missile::NoEffect),
            ("2-3", Range(2, 3), Missile::Retreat),
            ("4-6", Range(4, 6), Missile::Retire),
            ("7+", AtLeast(7), Missile::Eliminated),
        ],
    )
});

/// Missile Fire Results, "Target Horse Unit", "Target Normal".
pub static HORSE_NORMAL: LazyLock<Table<Missile>> = LazyLock::new(|| {
    missile_table(
        "Target Horse Unit, Target Normal",
        vec![
            ("0-5", AtMost(5), Missile::NoEffect),
            ("6+", AtLeast(6), Missile::Disordered),
        ],
    )
});

/// Missile Fire Results, "Target Horse Unit", "Target Disordered".
pub static HORSE_DISORDERED: LazyLock<Table<Missile>> = LazyLock::new(|| {
    missile_table(
        "Target Horse Unit, Target Disordered",
        vec![
            ("0-2", AtMost(2), Missile::NoEffect),
            ("3-7", Range(3, 7), Missile::Retire),
            ("8+", AtLeast(8), Missile::Eliminated),
        ],
    )
});

/// The Missile Fire Results column for a target.
pub fn missile(horse: bool, disordered: bool) -> &'static Table<Missile> {
    match (horse, disordered) {
        (false, false) => &LEG_NORMAL,
        (false, true) => &LEG_DISORDERED,
        (true, false) => &HORSE_NORMAL,
        (true, true) => &HORSE_DISORDERED,
    }
}

/// Range Die Roll Modifiers: "Range in Hexes 1 2; Bowman +1 -2; Light
/// Cavalry 0 -3; Crossbows +2 -3". `None` for a unit that does not fire or
/// a range the chart does not print.
pub fn range_drm(firer: Weapon, range: u32) -> Option<i32> {
    match (firer, range) {
        (Weapon::B, 1) => Some(1),
        (Weapon::B, 2) => Some(-2),
        (Weapon::L, 1) => Some(0),
        (Weapon::L, 2) => Some(-3),
        (Weapon::C, 1) => Some(2),
        (Weapon::C, 2) => Some(-3),
        _ => None,
    }
}

/// The row of the Range Die Roll Modifiers chart.
pub fn range_row(firer: Weapon) -> &'static str {
    match firer {
        Weapon::B => "Bowman",
        Weapon::L => "Light Cavalry",
        Weapon::C => "Crossbows",
        _ => "",
    }
}

/// The longest range the chart prints.
pub const LONGEST_RANGE: u32 = 2;

/// One cell of the Shock or Charge Results: what happens to each side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Combat {
    pub text: &'static str,
    pub attacker_disordered: bool,
    pub attacker_retreat: bool,
    pub defender_disordered: bool,
    pub defender_retreat: bool,
    pub defender_retired: bool,
    pub defender_eliminated: bool,
    pub continue_attack: bool,
}

const fn cell(text: &'static str) -> Combat {
    Combat {
        text,
        attacker_disordered: false,
        attacker_retreat: false,
        defender_disordered: false,
        defender_retreat: false,
        defender_retired: false,
        defender_eliminated: false,
        continue_attack: false,
    }
}

const AD_RETREAT: Combat = Combat {
    attacker_disordered: true,
    attacker_retreat: true,
    ..cell("Attacker Disordered Retreat 1 hex")
};
const AD: Combat = Combat {
    attacker_disordered: true,
    ..cell("Attacker Disordered")
};
const NO_RESULT: Combat = cell("No Result");
const DD: Combat = Combat {
    defender_disordered: true,
    ..cell("Defender Disordered")
};
const DD_RETREAT: Combat = Combat {
    defender_disordered: true,
    defender_retreat: true,
    ..cell("Defender Disordered Retreat 1 hex")
};
const D_RETIRED: Combat = Combat {
    defender_retired: true,
    ..cell("Defender Retired")
};
const D_ELIMINATED_CONTINUE: Combat = Combat {
    defender_eliminated: true,
    continue_attack: true,
    ..cell("Defender Eliminated Continue Attack")
};
const BOTH: Combat = Combat {
    attacker_disordered: true,
    defender_disordered: true,
    ..cell("Both Disordered")
};
const D_RETIRED_AD: Combat = Combat {
    defender_retired: true,
    attacker_disordered: true,
    ..cell("Defender Retired Attacker Disordered")
};
const D_ELIMINATED: Combat = Combat {
    defender_eliminated: true,
    ..cell("Defender Eliminated")
};
const DD_RETREAT_CONTINUE: Combat = Combat {
    defender_disordered: true,
    defender_retreat: true,
    continue_attack: true,
    ..cell("Defender Disordered Retreat 1 hex Continue Attack")
};

/// Shock Combat Results No Charge, "Defender Normal".
pub static SHOCK_NORMAL: LazyLock<Table<Combat>> = LazyLock::new(|| {
    Table::new(
        "Shock Combat Results No Charge",
        "Defender Normal",
        vec![
            ("0 or less", AtMost(0), AD_RETREAT),
            ("1", Range(1, 1), AD_RETREAT),
            ("2-3", Range(2, 3), AD),
            ("4", Range(4, 4), NO_RESULT),
            ("5", Range(5, 5), NO_RESULT),
            ("6-7", Range(6, 7), DD),
            ("8+", AtLeast(8), DD_RETREAT),
        ],
    )
});

/// Shock Combat Results No Charge, "Defender Disordered".
pub static SHOCK_DISORDERED: LazyLock<Table<Combat>> = LazyLock::new(|| {
    Table::new(
        "Shock Combat Results No Charge",
        "Defender Disordered",
        vec![
            ("0 or less", AtMost(0), AD_RETREAT),
            ("1", Range(1, 1), AD),
            ("2-3", Range(2, 3), NO_RESULT),
            ("4", Range(4, 4), NO_RESULT),
            ("5", Range(5, 5), D_RETIRED),
            ("6-7", Range(6, 7), D_RETIRED),
            ("8+", AtLeast(8), D_ELIMINATED_CONTINUE),
        ],
    )
});

/// Charge Results, "Defender Normal".
pub static CHARGE_NORMAL: LazyLock<Table<Combat>> = LazyLock::new(|| {
    Table::new(
        "Charge Results",
        "Defender Normal",
        vec![
            ("0 or less", AtMost(0), AD),
            ("1", Range(1, 1), AD),
            ("2-3", Range(2, 3), BOTH),
            ("4", Range(4, 4), DD),
            ("5-7", Range(5, 7), DD_RETREAT),
            ("8+", AtLeast(8), DD_RETREAT_CONTINUE),
        ],
    )
});

/// Charge Results, "Defender Disordered".
pub static CHARGE_DISORDERED: LazyLock<Table<Combat>> = LazyLock::new(|| {
    Table::new(
        "Charge Results",
        "Defender Disordered",
        vec![
            ("0 or less", AtMost(0), AD),
            ("1", Range(1, 1), D_RETIRED_AD),
            ("2-3", Range(2, 3), D_RETIRED_AD),
            ("4", Range(4, 4), D_RETIRED),
            ("5-7", Range(5, 7), D_ELIMINATED),
            ("8+", AtLeast(8), D_ELIMINATED_CONTINUE),
        ],
    )
});

/// The results table and column for a combat.
pub fn combat(charge: bool, disordered: bool) -> &'static Table<Combat> {
    match (charge, disordered) {
        (false, false) => &SHOCK_NORMAL,
        (false, true) => &SHOCK_DISORDERED,
        (true, false) => &CHARGE_NORMAL,
        (true, true) => &CHARGE_DISORDERED,
    }
}

/// The Weapons System Matrix for Shock & Charge: "Defender" rows (H, M, L,
/// R, C, B), "Attacker" columns (H, M, L, R). `None` for an attacker that
/// may not shock (B, C).
pub fn matrix(attacker: Weapon, defender: Weapon) -> Option<i32> {
    use Weapon::*;
    let column = match attacker {
        H => 0,
        M => 1,
        L => 2,
        R => 3,
        C | B => return None,
    };
    let row: [i32; 4] = match defender {
        H => [0, -1, -2, -1],
        M => [1, 0, -1, -1],
        L => [2, 1, 0, -1],
        R => [0, 0, -2, 0],
        C => [2, 1, 1, 2],
        B => [3, 3, 2, 3],
    };
    Some(row[column])
}

/// Charge Reluctance Die Roll: "0-4 attacking unit successfully Charges",
/// "5-9 unit must attack/Shock without benefit of Charge DRM".
pub fn reluctance(modified: i32) -> (&'static str, bool) {
    if modified.clamp(0, 9) <= 4 {
        ("0-4", true)
    } else {
        ("5-9", false)
    }
}

/// Counter-Charge Die Roll: "0-3 Successful; negate Charge DRM", "4-9
/// Unsuccessful; defends normally".
pub fn counter_charge(modified: i32) -> (&'static str, bool) {
    if modified.clamp(0, 9) <= 3 {
        ("0-3", true)
    } else {
        ("4-9", false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_builds_and_is_open_at_both_ends() {
        for t in [
            &*LEG_NORMAL,
            &*LEG_DISORDERED,
            &*HORSE_NORMAL,
            &*HORSE_DISORDERED,
        ] {
            assert!(t.is_open(), "{}", t.column);
        }
        for t in [
            &*SHOCK_NORMAL,
            &*SHOCK_DISORDERED,
            &*CHARGE_NORMAL,
            &*CHARGE_DISORDERED,
        ] {
            assert!(t.is_open(), "{}", t.column);
        }
    }

    #[test]
    fn the_ends_take_every_roll_beyond_them() {
        assert_eq!(LEG_DISORDERED.row(-4).result, Missile::NoEffect);
        assert_eq!(HORSE_DISORDERED.row(14).result, Missile::Eliminated);
        assert_eq!(SHOCK_NORMAL.row(-3).printed, "0 or less");
        assert_eq!(CHARGE_DISORDERED.row(12).printed, "8+");
        assert_eq!(reluctance(10), ("5-9", false));
        assert_eq!(counter_charge(-1), ("0-3", true));
    }
}
