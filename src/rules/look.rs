//! How a ruleset's pieces look in the reports and on the map: the words the
//! order of battle gives each unit, its shape and markers on the map, how
//! its terrain is drawn and what its event kinds mean to a reader. The
//! report and the map ask the ruleset for these and name no ruleset
//! themselves.

use std::collections::BTreeMap;

use crate::geometry::Rect;
use crate::rules::board::Location;

/// A state marker: the letter drawn in a disc next to the unit, its colour
/// and what the legend and the order of battle call it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marker {
    pub letter: &'static str,
    pub colour: &'static str,
    /// The state's word: `shaken`.
    pub label: &'static str,
}

/// How a unit's outline is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Outline {
    /// A plain outline with the front as the heavy edge.
    #[default]
    Solid,
    /// A loose cloud (skirmishers): pale, with a broken outline.
    Loose,
    /// Faces every way (a square): a heavy edge all round.
    AllRound,
}

/// Where and how a unit stands on the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// To scale, as the rectangle it covers on a table.
    Footprint {
        rect: Rect,
        outline: Outline,
        /// A line down its length, for a column.
        stripe: bool,
        /// A wheel at its centre, for guns.
        wheel: bool,
    },
    /// A counter at its location, a notch towards its facing.
    Counter,
    /// A counter as [`Shape::Counter`], with the unit's symbol printed on
    /// it: a letter or two for its arm or weapon, as on a printed counter.
    CounterWith { symbol: &'static str },
}

/// How one unit looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitLook {
    pub shape: Shape,
    /// What it is, in the order of battle: `line-infantry, grade B`.
    pub kind: String,
    /// How it stands, where the ruleset has formations: `column`.
    pub formation: Option<String>,
    /// Its states, in the order the markers are drawn.
    pub markers: Vec<Marker>,
}

/// How every unit of a state looks, by id.
pub type Look = BTreeMap<String, UnitLook>;

/// A unit marked in the state as about to act against another: an attack
/// declared in one phase and carried out in a later one. The map draws a
/// triangle on the unit pointing at its target and a dashed line to it, as
/// players mark such a declaration on a real table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aim {
    /// The unit that declared it, by id.
    pub from: String,
    /// The unit it is aimed at, by id.
    pub at: String,
}

/// An attack made where the attacker stands: a charge or a shock from its
/// place, with no move of its own for the map to draw. The event that tells
/// it carries it (`Event::striking`), and the map marks it as a charge that
/// crosses into the place it struck.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Strike {
    /// Where the attacker stood when it struck.
    pub from: Location,
    /// The place it struck: the defenders' hex, or where they stood.
    pub at: Location,
    /// The units it struck, by id.
    pub targets: Vec<String>,
}

/// How a terrain kind is drawn: an area's fill, or a line's stroke.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TerrainStyle {
    pub fill: &'static str,
    pub stroke: &'static str,
    /// Stroke width in the map's units (hundredths of an inch on a table).
    pub width: u32,
    /// An SVG dash pattern, or empty for a solid line.
    pub dash: &'static str,
    /// What the legend calls it.
    pub label: &'static str,
}

/// What an event kind means to the map and to sight: the map draws fire as
/// lines and moves as arrows styled by what moved the unit, and units that
/// met in a charge or a fight see each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventClass {
    /// Shooting: the event names the firer first, then its targets.
    Fire,
    /// Fire ordered and not made (out of range, out of the arc, no target
    /// in sight): the event names the unit that was to fire first, then
    /// its target. Nobody fired, so nobody is revealed and no fire line is
    /// drawn; the acting side's map marks the shot not made.
    NoShot,
    /// A charge or its kin that met its target: the event names the charger
    /// first, then whom it charges.
    Charge,
    /// A charge that ended short of its target: drawn as a charge, its end
    /// marked; nobody met.
    ChargeShort,
    /// A move away from the enemy that the player did not choose.
    Retreat,
    /// Fighting hand to hand.
    Combat,
    /// A move the player chose, told from the states either side of it.
    Move,
    /// A unit that stood fast: told once for every such unit of a sector.
    Hold,
    /// Anything else: told by its text, its units drawn where they stand.
    Other,
}

impl EventClass {
    /// Fighting in which both sides see each other, whatever the terrain.
    pub fn is_contact(self) -> bool {
        matches!(self, EventClass::Charge | EventClass::Combat)
    }
}
