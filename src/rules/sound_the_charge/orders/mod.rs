//! The Sound the Charge order language, syntax step: one line of an order
//! email becomes a typed [`StcOrder`], or an [`OrderSyntaxError`] that says
//! at which column it failed, what was expected there and how the order is
//! written. Nothing here looks at the game state: whether the unit exists,
//! is the writer's, or may do what it is told is the validation step's work.
//!
//! The shape of a line is `<unit>: <order>`. The unit comes first so that a
//! name with spaces is always delimited: everything before the first colon is
//! the unit (`2e régiment de ligne: forward 4`), or a quoted name (`"1er
//! Régiment" forward 4`), or, with neither, the first word alone (`2-ligne
//! forward 4`). Putting the verb first would leave a multi-word name running
//! into the order's own words (`charge 2e régiment 3e léger`: who charges
//! whom?). `docs/ORDERS.md` is the player's reference.
//!
//! Distances are integer hundredths of an inch (the table's grid), angles
//! whole degrees; no floating point is used, so the canonical text of an
//! order is exact.

mod display;
mod parse;
mod words;

use std::fmt;

pub use parse::parse;

/// A unit (or general, or boat) as the order names it: its id or a prefix of
/// its name, lower-cased with single spaces. Which unit it means is settled
/// by validation.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnitRef(pub String);

impl UnitRef {
    /// A reference as written: lower-cased, trimmed, inner spaces single.
    pub fn new(text: &str) -> UnitRef {
        UnitRef(
            text.split_whitespace()
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
                .join(" "),
        )
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Left or right, as seen by the unit facing its front.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    Left,
    Right,
}

/// Maneuvers: "A facing change must be by 90° or 180°".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Facing {
    /// 90° to the left.
    Left,
    /// 90° to the right.
    Right,
    /// 180°.
    About,
}

/// A formation a unit may be ordered into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Formation {
    Line,
    Column,
    Square,
    Skirmish,
    /// A line with its left flank figures folded back: "infantry may also
    /// form an "L" or even a "U" by folding back their flank figures".
    LLeft,
    /// A line with its right flank figures folded back.
    LRight,
    /// A line with both flanks folded back.
    U,
    /// Austria: "Infantry in column may take half a turn to form or reform
    /// from battalion-masse."
    Masse,
    /// Artillery Movement: "Limbering and unlimbering takes half a move."
    Limbered,
    Unlimbered,
}

/// One leg of a move. Movement: "Oblique, sidestep, and backstep moves are
/// done at half speed. Units may wheel backwards at one-quarter speed."
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    /// Straight ahead, in hundredths of an inch.
    Forward { distance: u32 },
    /// Straight back, still facing the front.
    Backstep { distance: u32 },
    /// Straight to one side, still facing the front.
    Sidestep { side: Side, distance: u32 },
    /// Diagonally forward to one side, still facing the front.
    Oblique { side: Side, distance: u32 },
    /// "wheel a unit [...] about one front corner, like swinging a door on a
    /// hinge": `side` is the way the front turns (a left wheel pivots on the
    /// left front corner); `backward` swings the front back instead.
    Wheel {
        side: Side,
        degrees: u32,
        backward: bool,
    },
}

/// A spot on the table: a point in table inches (hundredths), or a unit.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    Point { x: u32, y: u32 },
    Unit(UnitRef),
}

/// How a charge comes into contact. Charging, rule 2: "Charge bonus movement
/// must be straight forward"; rule 3: "A unit may wheel or oblique into
/// contact, as long as it is not using charge bonus movement."
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Approach {
    /// Straight ahead, with the charge bonus.
    Straight,
    /// Wheeling into contact, without the bonus.
    Wheel(Side),
    /// Obliquing into contact, without the bonus.
    Oblique(Side),
}

/// One order of Sound the Charge, as written (syntax only).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StcOrder {
    /// Stand fast this turn.
    Hold {
        unit: UnitRef,
    },
    /// A move: a path of steps, optionally all on a road, optionally passing
    /// through friendly units (interpenetration).
    Move {
        unit: UnitRef,
        road: bool,
        steps: Vec<Step>,
        through: Vec<UnitRef>,
    },
    /// A change of formation, possibly with a facing change; limbering and
    /// unlimbering are formation changes to `Limbered`/`Unlimbered`.
    Form {
        unit: UnitRef,
        formation: Formation,
        facing: Option<Facing>,
    },
    /// A facing change alone: "Facing changes count as formation changes."
    Face {
        unit: UnitRef,
        facing: Facing,
    },
    /// Guns manhandled to a spot: "Manhandled guns may move and face freely
    /// in any direction."
    Manhandle {
        unit: UnitRef,
        to: Place,
        toward: Option<Place>,
    },
    /// A free move to a spot: generals ("Generals move freely at 18" per
    /// turn"), skirmishers and gunners away from their guns.
    MoveTo {
        unit: UnitRef,
        to: Place,
        toward: Option<Place>,
    },
    /// The gunners leave their guns ("Gunners move like skirmishers when away
    /// from their guns").
    LeaveGuns {
        unit: UnitRef,
        to: Option<Place>,
    },
    /// The gunners return to their guns.
    ManGuns {
        unit: UnitRef,
    },
    Charge {
        unit: UnitRef,
        target: UnitRef,
        approach: Approach,
        through: Vec<UnitRef>,
    },
    /// A standing order of the passive side: evade if charged, optionally
    /// into a friendly square.
    Evade {
        unit: UnitRef,
        into: Option<UnitRef>,
    },
    /// Shooting; `split` is the second target of split fire.
    Shoot {
        unit: UnitRef,
        target: UnitRef,
        split: Option<UnitRef>,
        through_skirmishers: bool,
        at_regimental_gun: bool,
    },
    /// Send out the battalion's organic skirmish screen.
    SkirmishersOut {
        unit: UnitRef,
    },
    /// Call the organic skirmishers back into the battalion.
    SkirmishersIn {
        unit: UnitRef,
    },
    /// A separate skirmish unit screens these units.
    Screen {
        unit: UnitRef,
        screened: Vec<UnitRef>,
    },
    /// A general attaches to a unit.
    Attach {
        unit: UnitRef,
        to: UnitRef,
    },
    /// A general detaches from the unit he is with.
    Detach {
        unit: UnitRef,
    },
    /// Stand this turn to reform from disorder.
    Reform {
        unit: UnitRef,
    },
    /// Charge into the rear of a friend in combat to fight with it.
    Reinforce {
        unit: UnitRef,
        friend: UnitRef,
    },
    /// Optional rule Voluntary Retreat; `None` is as far as the rule needs.
    Retreat {
        unit: UnitRef,
        distance: Option<u32>,
    },
    /// Optional rule Boats.
    Embark {
        unit: UnitRef,
        boat: UnitRef,
    },
    Disembark {
        unit: UnitRef,
    },
}

impl StcOrder {
    /// The unit (or general) the order is for.
    pub fn unit(&self) -> &UnitRef {
        match self {
            StcOrder::Hold { unit }
            | StcOrder::Move { unit, .. }
            | StcOrder::Form { unit, .. }
            | StcOrder::Face { unit, .. }
            | StcOrder::Manhandle { unit, .. }
            | StcOrder::MoveTo { unit, .. }
            | StcOrder::LeaveGuns { unit, .. }
            | StcOrder::ManGuns { unit }
            | StcOrder::Charge { unit, .. }
            | StcOrder::Evade { unit, .. }
            | StcOrder::Shoot { unit, .. }
            | StcOrder::SkirmishersOut { unit }
            | StcOrder::SkirmishersIn { unit }
            | StcOrder::Screen { unit, .. }
            | StcOrder::Attach { unit, .. }
            | StcOrder::Detach { unit }
            | StcOrder::Reform { unit }
            | StcOrder::Reinforce { unit, .. }
            | StcOrder::Retreat { unit, .. }
            | StcOrder::Embark { unit, .. }
            | StcOrder::Disembark { unit } => unit,
        }
    }
}

/// Why a line is not an order: where (1-based column in characters, and the
/// word found there, empty at the end of the line), what was wrong, and an
/// example of the right form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderSyntaxError {
    pub column: usize,
    pub word: String,
    pub message: String,
    pub hint: String,
}

impl fmt::Display for OrderSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.word.is_empty() {
            write!(f, "column {}, at the end of the line: ", self.column)?;
        } else {
            write!(f, "column {}, at `{}`: ", self.column, self.word)?;
        }
        write!(f, "{}", self.message)?;
        if !self.hint.is_empty() {
            write!(f, "; for example `{}`", self.hint)?;
        }
        Ok(())
    }
}

impl std::error::Error for OrderSyntaxError {}
