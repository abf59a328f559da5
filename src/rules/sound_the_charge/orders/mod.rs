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

pub mod check;
mod display;
pub mod foresee;
mod parse;
mod words;

use crate::rules::words::{Found, ReadError};
use std::fmt;

pub use crate::rules::names::{Named, UnitId};
pub use parse::parse;

/// An order as written, its units not yet looked up.
pub type Written = StcOrder<UnitRef>;

/// A unit (or general, or boat) as the order names it: its id or a prefix of
/// its name, lower-cased with single spaces. Which unit it means is settled
/// by validation, which turns an order of `UnitRef`s into one of
/// [`UnitId`]s.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnitRef(pub String);

impl Named for UnitRef {
    fn as_str(&self) -> &str {
        &self.0
    }
}

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

/// A formation a unit may be ordered into, and stands in: the state holds
/// its canonical word.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
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
pub enum Place<U = UnitId> {
    Point { x: u32, y: u32 },
    Unit(U),
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

/// One order of Sound the Charge: as written (`StcOrder<UnitRef>`, syntax
/// only), or checked, every unit it names looked up (`StcOrder<UnitId>`,
/// the default). A boat is terrain, not a unit, and stays as written.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StcOrder<U = UnitId> {
    /// Stand fast this turn.
    Hold {
        unit: U,
    },
    /// A move: a path of steps, optionally all on a road, optionally passing
    /// through friendly units (interpenetration).
    Move {
        unit: U,
        road: bool,
        steps: Vec<Step>,
        through: Vec<U>,
    },
    /// A change of formation, possibly with a facing change; limbering and
    /// unlimbering are formation changes to `Limbered`/`Unlimbered`.
    Form {
        unit: U,
        formation: Formation,
        facing: Option<Facing>,
    },
    /// A facing change alone: "Facing changes count as formation changes."
    Face {
        unit: U,
        facing: Facing,
    },
    /// Guns manhandled to a spot: "Manhandled guns may move and face freely
    /// in any direction."
    Manhandle {
        unit: U,
        to: Place<U>,
        toward: Option<Place<U>>,
    },
    /// A free move to a spot: generals ("Generals move freely at 18" per
    /// turn"), skirmishers and gunners away from their guns.
    MoveTo {
        unit: U,
        to: Place<U>,
        toward: Option<Place<U>>,
    },
    /// The gunners leave their guns ("Gunners move like skirmishers when away
    /// from their guns").
    LeaveGuns {
        unit: U,
        to: Option<Place<U>>,
    },
    /// The gunners return to their guns.
    ManGuns {
        unit: U,
    },
    Charge {
        unit: U,
        target: U,
        approach: Approach,
        through: Vec<U>,
    },
    /// A standing order of the passive side: evade if charged, optionally
    /// into a friendly square.
    Evade {
        unit: U,
        into: Option<U>,
    },
    /// Shooting; `split` is the second target of split fire.
    Shoot {
        unit: U,
        target: U,
        split: Option<U>,
        through_skirmishers: bool,
        at_regimental_gun: bool,
    },
    /// Send out the battalion's organic skirmish screen.
    SkirmishersOut {
        unit: U,
    },
    /// Call the organic skirmishers back into the battalion.
    SkirmishersIn {
        unit: U,
    },
    /// A separate skirmish unit screens these units.
    Screen {
        unit: U,
        screened: Vec<U>,
    },
    /// A general attaches to a unit.
    Attach {
        unit: U,
        to: U,
    },
    /// A general detaches from the unit he is with.
    Detach {
        unit: U,
    },
    /// Stand this turn to reform from disorder.
    Reform {
        unit: U,
    },
    /// Charge into the rear of a friend in combat to fight with it.
    Reinforce {
        unit: U,
        friend: U,
    },
    /// Optional rule Voluntary Retreat; `None` is as far as the rule needs.
    Retreat {
        unit: U,
        distance: Option<u32>,
    },
    /// Optional rule Boats.
    Embark {
        unit: U,
        boat: UnitRef,
    },
    Disembark {
        unit: U,
    },
}

/// Whose unit a reference of an order may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whose {
    /// One of the side's own units or generals.
    Own,
    /// One of the enemy's units.
    Enemy,
    /// Any unit, as a place to go or face.
    Any,
}

impl<U> Place<U> {
    fn try_map<V, E>(&self, f: &mut impl FnMut(&U, Whose) -> Result<V, E>) -> Result<Place<V>, E> {
        Ok(match self {
            Place::Point { x, y } => Place::Point { x: *x, y: *y },
            Place::Unit(u) => Place::Unit(f(u, Whose::Any)?),
        })
    }
}

impl<U> StcOrder<U> {
    /// The same order with every unit it names mapped by `f`, which is told
    /// whose unit each reference may name: how validation looks them up.
    pub fn try_map<V, E>(
        &self,
        mut f: impl FnMut(&U, Whose) -> Result<V, E>,
    ) -> Result<StcOrder<V>, E> {
        use StcOrder as O;
        let own = Whose::Own;
        let all = |list: &[U], f: &mut dyn FnMut(&U, Whose) -> Result<V, E>| {
            list.iter()
                .map(|u| f(u, own))
                .collect::<Result<Vec<V>, E>>()
        };
        Ok(match self {
            O::Hold { unit } => O::Hold {
                unit: f(unit, own)?,
            },
            O::Move {
                unit,
                road,
                steps,
                through,
            } => O::Move {
                unit: f(unit, own)?,
                road: *road,
                steps: steps.clone(),
                through: all(through, &mut f)?,
            },
            O::Form {
                unit,
                formation,
                facing,
            } => O::Form {
                unit: f(unit, own)?,
                formation: *formation,
                facing: *facing,
            },
            O::Face { unit, facing } => O::Face {
                unit: f(unit, own)?,
                facing: *facing,
            },
            O::Manhandle { unit, to, toward } => O::Manhandle {
                unit: f(unit, own)?,
                to: to.try_map(&mut f)?,
                toward: toward.as_ref().map(|p| p.try_map(&mut f)).transpose()?,
            },
            O::MoveTo { unit, to, toward } => O::MoveTo {
                unit: f(unit, own)?,
                to: to.try_map(&mut f)?,
                toward: toward.as_ref().map(|p| p.try_map(&mut f)).transpose()?,
            },
            O::LeaveGuns { unit, to } => O::LeaveGuns {
                unit: f(unit, own)?,
                to: to.as_ref().map(|p| p.try_map(&mut f)).transpose()?,
            },
            O::ManGuns { unit } => O::ManGuns {
                unit: f(unit, own)?,
            },
            O::Charge {
                unit,
                target,
                approach,
                through,
            } => O::Charge {
                unit: f(unit, own)?,
                target: f(target, Whose::Enemy)?,
                approach: *approach,
                through: all(through, &mut f)?,
            },
            O::Evade { unit, into } => O::Evade {
                unit: f(unit, own)?,
                into: into.as_ref().map(|u| f(u, own)).transpose()?,
            },
            O::Shoot {
                unit,
                target,
                split,
                through_skirmishers,
                at_regimental_gun,
            } => O::Shoot {
                unit: f(unit, own)?,
                target: f(target, Whose::Enemy)?,
                split: split.as_ref().map(|u| f(u, Whose::Enemy)).transpose()?,
                through_skirmishers: *through_skirmishers,
                at_regimental_gun: *at_regimental_gun,
            },
            O::SkirmishersOut { unit } => O::SkirmishersOut {
                unit: f(unit, own)?,
            },
            O::SkirmishersIn { unit } => O::SkirmishersIn {
                unit: f(unit, own)?,
            },
            O::Screen { unit, screened } => O::Screen {
                unit: f(unit, own)?,
                screened: all(screened, &mut f)?,
            },
            O::Attach { unit, to } => O::Attach {
                unit: f(unit, own)?,
                to: f(to, own)?,
            },
            O::Detach { unit } => O::Detach {
                unit: f(unit, own)?,
            },
            O::Reform { unit } => O::Reform {
                unit: f(unit, own)?,
            },
            O::Reinforce { unit, friend } => O::Reinforce {
                unit: f(unit, own)?,
                friend: f(friend, own)?,
            },
            O::Retreat { unit, distance } => O::Retreat {
                unit: f(unit, own)?,
                distance: *distance,
            },
            O::Embark { unit, boat } => O::Embark {
                unit: f(unit, own)?,
                boat: boat.clone(),
            },
            O::Disembark { unit } => O::Disembark {
                unit: f(unit, own)?,
            },
        })
    }

    /// The unit (or general) the order is for.
    pub fn unit(&self) -> &U {
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

/// Why a line is not an order: where (1-based column in characters), what
/// was expected there and what was found, as every ruleset's reader says
/// it, and an example of the right form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderSyntaxError {
    pub column: usize,
    pub expected: String,
    pub found: Found,
    pub hint: String,
}

impl OrderSyntaxError {
    /// A word read wrong, with an example of the order being read.
    pub fn of(e: ReadError, hint: &str) -> OrderSyntaxError {
        OrderSyntaxError {
            column: e.column,
            expected: e.expected,
            found: e.found,
            hint: hint.to_string(),
        }
    }
}

impl fmt::Display for OrderSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "column {}: expected {}, found {}",
            self.column, self.expected, self.found
        )?;
        if !self.hint.is_empty() {
            write!(f, " (for example `{}`)", self.hint)?;
        }
        Ok(())
    }
}

impl std::error::Error for OrderSyntaxError {}
