//! The movement phase: "moves all desired units, including making charge
//! moves. The passive side may make evade moves with eligible units in
//! response to charges."
//!
//! Orders are carried out in the order of their lines. Each unit has its
//! allowance for the turn, fixed at the start of the phase (half speed out of
//! command), and every move, wheel and maneuver spends part of it at the
//! rate the rules give. A move that would break a rule on the way (blocked
//! by a unit, into a zone of control, into impassable ground, off the
//! table) is not made: the unit stays where it was and the event says why.
//!
//! Here: the Movement Table's rates, the phase and the order each order is
//! carried out in, and straight moves. Beside it: `allowed` (what the rules
//! forbid, checked when an order is given), `path` (the ground and the cost
//! of a path of steps), `maneuver` (formation and facing changes), `free`
//! (free moves to a spot, gunners), `generals`, and `voluntary` (the
//! optional Voluntary Retreat).

mod allowance;
mod allowed;
mod free;
mod generals;
mod maneuver;
mod path;
mod voluntary;

pub use allowance::*;
pub use allowed::*;
use free::*;
use generals::*;
pub use maneuver::*;
pub use path::*;
use voluntary::*;

use super::super::field::deployment::ZONE_OF_CONTROL;
use super::super::field::{Field, touches};
use super::super::orders::check::Refusal;
use super::super::orders::{Facing, Formation, Place, Side, StcOrder, Step as OrderStep, UnitId};
use super::fighting::{nation_of, steady};
use super::{Moved, NotDone, SideOrders, TurnRecord};
use crate::audit::dice::{Dice, Die};
use crate::geometry::bounds;
use crate::geometry::{
    self, FacingChange, Flank, Rect, Step, bearing, direction_away, distance, path_hits,
    segments_intersect,
};
use crate::geometry::{Hundredths, Point};
use crate::rules::board::{Location, TerrainShape};
use crate::rules::ruleset::Event;
use crate::rules::sound_the_charge::basing;
use crate::rules::sound_the_charge::events::{Kind, event};
use crate::rules::sound_the_charge::ground::TerrainKind;
use crate::rules::sound_the_charge::state::TroopType;
use crate::rules::sound_the_charge::state::{State, Unit};
use crate::rules::sound_the_charge::tables::Arm;
use crate::rules::sound_the_charge::tables::{Grade, Nation};

/// Generals: "Generals move freely at 18" per turn."
pub const GENERAL_MOVE: Hundredths = 1800;
/// Skirmish Movement: skirmishers "move at line rate (4 inches per turn)";
/// Artillery Movement: "Gunners move like skirmishers when away from their
/// guns."
pub const GUNNER_MOVE: Hundredths = 400;
/// Generals: a lone general contacted "may be moved up to nine inches out of
/// harm's way".
pub const GENERAL_ESCAPE: Hundredths = 900;
/// Pinning (optional): "within 4 inches of any enemy unit".
pub const PINNING_RANGE: Hundredths = 400;
/// Evading: "may evade no more than eight inches".
pub const EVADE_MOST: Hundredths = 800;
/// Voluntary Retreat: "up to 18" long", ending "at least four inches from
/// the nearest enemy unit".
pub const VOLUNTARY_RETREAT_MOST: Hundredths = 1800;
pub const VOLUNTARY_RETREAT_CLEAR: Hundredths = 400;

pub const MOVEMENT: &str = "Movement";
pub const MOVEMENT_TABLE: &str = "Movement Table";
pub const MANEUVERS: &str = "Maneuvers";
pub const FORMATIONS: &str = "Formations";
pub const ZONES: &str = "Movement, Zones of Control";
pub const INTERPENETRATION: &str = "Movement, Interpenetration";
pub const ARTILLERY_MOVEMENT: &str = "Movement, Artillery Movement";
pub const SKIRMISH_MOVEMENT: &str = "Movement, Skirmish Movement";

/// The rates of the Movement Table for one unit, in hundredths of an inch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rates {
    pub line: Hundredths,
    pub column: Hundredths,
    /// The charge bonus; `None` where the table says "NA" or leaves it empty.
    pub charge: Option<Hundredths>,
}

/// The farthest any unit of the Movement Table may charge: light cavalry
/// in column, 10" and a 4" bonus. Searches for enemies able to charge look
/// no farther (a test checks it against the table).
pub const LONGEST_CHARGE: Hundredths = 1400;

/// Whether a formation moves at the column rate ("limbered guns move at
/// column rate") or the line rate ("Manhandled guns move at line rate";
/// skirmishers "move at line rate"; Austria: battalion-masse "moves at line
/// speed due to crowding of the ranks").
fn moves_at_column_rate(formation: Formation) -> bool {
    matches!(formation, Formation::Column | Formation::Limbered)
}

/// Formations the rules let a unit stand in but not move in: "Squares may not
/// move"; an "L" or "U" "may not move until it does another formation change
/// into a straight line or a proper column".
fn may_not_move(formation: Formation) -> Option<(&'static str, &'static str)> {
    match formation {
        Formation::Square => Some(("squares may not move", MOVEMENT)),
        Formation::LLeft | Formation::LRight | Formation::U => Some((
            "a unit in an \"L\" or \"U\" may not move until it forms a straight line or a proper column",
            FORMATIONS,
        )),
        _ => None,
    }
}

/// Per-unit bookkeeping of the movement phase.
pub struct Mover {
    /// The allowance for the turn, fixed at the start of the phase, with
    /// its reasons; a maneuver changes it (STC-54).
    pub allowance: Allowance,
    pub used: Hundredths,
    pub maneuvered: bool,
    pub moved: bool,
    pub forward: Hundredths,
    pub in_command: bool,
}

/// The phase in progress: the state being changed, a field kept in step
/// with it, and what each unit has used.
pub struct Phase<'s, 'e> {
    pub state: &'s mut State,
    pub field: Field<'s>,
    pub movers: Vec<Mover>,
    pub record: &'e mut TurnRecord,
    pub events: &'e mut Vec<Event>,
    /// The line of the order being carried out.
    pub line: usize,
}

impl Phase<'_, '_> {
    pub fn event(&mut self, kind: Kind, units: &[&str], text: String) {
        self.events.push(event(kind, units, text));
    }

    /// An event whose words also name `also` (units or generals its units
    /// do not list).
    pub fn event_naming(&mut self, kind: Kind, units: &[&str], also: &[&str], text: String) {
        self.events.push(event(kind, units, text).also_naming(also));
    }

    pub fn name(&self, i: usize) -> String {
        self.state.units[i].name.clone()
    }

    pub fn id(&self, i: usize) -> String {
        self.state.units[i].id.clone()
    }

    /// Puts unit `i` at `rect` (position and facing) in the state and the
    /// field.
    pub fn place(&mut self, i: usize, rect: Rect) {
        let u = &mut self.state.units[i];
        u.location = Location::Table {
            x: rect.front_centre.x,
            y: rect.front_centre.y,
        };
        u.facing = rect.facing;
        let r = basing::footprint(u);
        self.field.set_rect(i, r);
    }

    /// Refuses an order in resolution with an event.
    pub fn impossible(&mut self, i: usize, what: &str, reason: &str) {
        self.impossible_naming(i, what, reason, &[]);
    }

    /// Refuses an order in resolution with an event whose reason names
    /// other units, by index.
    pub fn impossible_naming(&mut self, i: usize, what: &str, reason: &str, named: &[usize]) {
        let (id, name) = (self.id(i), self.name(i));
        let named: Vec<String> = named.iter().map(|&j| self.id(j)).collect();
        self.events.push(
            event(
                Kind::OrderImpossible,
                &[&id],
                format!("{name} cannot {what}: {reason}."),
            )
            .also_naming(&named),
        );
        self.not_done(&id, format!("cannot {what}: {reason}"), None, named);
    }

    /// Records the order being carried out as not done (see [`NotDone`]).
    pub fn not_done(
        &mut self,
        unit: &str,
        problem: String,
        clause: Option<String>,
        named: Vec<String>,
    ) {
        self.record.not_done.push(NotDone {
            line: self.line,
            unit: unit.to_string(),
            problem,
            clause,
            named,
        });
    }

    /// Enemies near the box `area` that friends of `side` are engaged with
    /// or charging this turn, which a move there may pass within 1" of.
    pub fn bypassable(&self, side: &str, area: (i64, i64, i64, i64)) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .field
            .enemies_near(side, area, ZONE_OF_CONTROL)
            .into_iter()
            .filter(|&j| {
                self.field
                    .in_contact(j)
                    .iter()
                    .any(|&f| self.state.units[f].side == side)
            })
            .collect();
        for c in &self.record.charges {
            for t in &c.targets {
                if let Some(j) = self.field.index(t) {
                    out.push(j);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Separates unit `i` from friends it ended among: "If two units end
    /// movement intermixed, move one unit slightly apart from the other and
    /// mark both units disordered." The mover steps back along its facing
    /// until it is clear (STC-44).
    pub fn settle(&mut self, i: usize) {
        let Some(rect) = self.field.rect(i) else {
            return;
        };
        let friends = self.friends_on(i, &rect);
        if friends.is_empty() {
            return;
        }
        if let Some(r) = self.clear_place(i, |back| geometry::backstep(&rect, back)) {
            self.place(i, r);
        }
        let told = format!(
            "{} ended its move intermixed with {}; it is moved apart and both are disordered.",
            self.name(i),
            self.names_of(&friends)
        );
        self.disorder_intermixed(i, &friends, told);
    }

    /// Separates a charger in contact from the friends it ended among
    /// (friendly skirmishers it passed through): the same rule (STC-44),
    /// but stepping the charger back would break its contact, so each
    /// friend is the one moved, back the way the charger came, until it is
    /// clear.
    pub fn settle_friends_of(&mut self, i: usize) {
        let Some(charger) = self.field.rect(i) else {
            return;
        };
        let friends = self.friends_on(i, &charger);
        if friends.is_empty() {
            return;
        }
        for &j in &friends {
            let Some(rect) = self.field.rect(j) else {
                continue;
            };
            let clear = self.clear_place(j, |back| {
                let behind = geometry::backstep(&charger, back).front_centre;
                Rect {
                    front_centre: geometry::Point {
                        x: rect.front_centre.x + behind.x - charger.front_centre.x,
                        y: rect.front_centre.y + behind.y - charger.front_centre.y,
                    },
                    ..rect
                }
            });
            if let Some(r) = clear {
                self.place(j, r);
            }
        }
        let (which, all) = if friends.len() == 1 {
            ("which is", "both are")
        } else {
            ("which are", "all are")
        };
        let told = format!(
            "{} ended its charge intermixed with {}, {which} moved apart behind it; {all} disordered.",
            self.name(i),
            self.names_of(&friends)
        );
        self.disorder_intermixed(i, &friends, told);
    }

    /// Marks unit `i` and the friends it ended intermixed with disordered,
    /// and tells it in `told`.
    fn disorder_intermixed(&mut self, i: usize, friends: &[usize], told: String) {
        self.state.units[i].rules.disordered = true;
        for &j in friends {
            self.state.units[j].rules.disordered = true;
        }
        let units: Vec<String> = std::iter::once(i)
            .chain(friends.iter().copied())
            .map(|j| self.id(j))
            .collect();
        let refs: Vec<&str> = units.iter().map(String::as_str).collect();
        self.event(Kind::Intermixed, &refs, told);
    }

    /// The names of `units`, joined with "and".
    fn names_of(&self, units: &[usize]) -> String {
        let names: Vec<String> = units.iter().map(|&j| self.name(j)).collect();
        names.join(" and ")
    }

    /// The friends of unit `i` whose bases overlap `rect`.
    fn friends_on(&self, i: usize, rect: &Rect) -> Vec<usize> {
        let side = &self.state.units[i].side;
        self.field
            .overlapping(rect, &[i])
            .into_iter()
            .filter(|&j| self.state.units[j].side == *side)
            .collect()
    }

    /// The first place `moved(back)` gives, for `back` from a tenth of an
    /// inch up to 24 inches by tenths, where unit `i` overlaps no other unit
    /// and stands on the table.
    fn clear_place(&self, i: usize, moved: impl Fn(Hundredths) -> Rect) -> Option<Rect> {
        (1..=240).map(|tenths| moved(tenths * 10)).find(|r| {
            self.field.overlapping(r, &[i]).is_empty()
                && self
                    .field
                    .table()
                    .is_none_or(|(w, d)| r.is_inside_table(w, d))
        })
    }

    fn remaining(&self, i: usize) -> Hundredths {
        (self.movers[i].allowance.inches - self.movers[i].used).max(0)
    }
}

/// Moves the active side's units by their orders, in line order, with the
/// passive side's evades in answer to charges; then lone generals
/// contacted by the enemy.
pub fn phase(
    state: &mut State,
    active: &SideOrders,
    passive: &[SideOrders],
    record: &mut TurnRecord,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) {
    let snapshot = state.clone();
    let field = Field::new(&snapshot);
    // "A unit that begins the movement phase outside of CR moves at half
    // speed that phase."
    let movers: Vec<Mover> = (0..snapshot.units.len())
        .map(|i| {
            let u = &snapshot.units[i];
            let in_command = field.in_command(i);
            Mover {
                allowance: turn_allowance(&snapshot, &field, i, in_command),
                used: 0,
                maneuvered: false,
                moved: false,
                forward: 0,
                in_command: in_command || u.eliminated.is_some(),
            }
        })
        .collect();
    // The field must outlive the borrow of `state`: rebuild it on a copy
    // that the phase keeps in step by `place`.
    let mut owned = snapshot.clone();
    let mut p = Phase {
        state: &mut owned,
        field: Field::new(&snapshot),
        movers,
        record,
        events,
        line: 0,
    };
    for given in &active.orders {
        p.line = given.line;
        carry_out(&mut p, given.line, &given.order, passive, dice);
    }
    generals_contacted(&mut p, dice);
    // What the active side's units did, for the rules that look back to "its
    // most-recent active turn".
    let side = active.side.clone();
    for i in 0..p.state.units.len() {
        if p.state.units[i].side != side {
            continue;
        }
        let m = &p.movers[i];
        let (forward, allowance, moved) = (m.forward, m.allowance.inches, m.moved || m.maneuvered);
        // A unit that only changed formation or facing moved no distance
        // (ruling STC-74: guns may unlimber and fire), though the change
        // used part of its allowance.
        let used = if m.moved { m.used } else { 0 };
        let u = &mut p.state.units[i];
        u.rules.status.last_advance = forward;
        u.rules.status.advanced_full_speed = forward > 0 && forward >= allowance;
        if moved {
            p.record.moved.insert(
                u.id.clone(),
                Moved {
                    distance: used,
                    allowance,
                },
            );
        }
    }
    *state = owned;
}

fn carry_out(
    p: &mut Phase,
    line: usize,
    order: &StcOrder,
    passive: &[SideOrders],
    dice: &mut dyn Dice,
) {
    let id = order.unit().as_str();
    if let Some(g) = p.state.generals.iter().position(|g| g.id == id) {
        general_order(p, g, order);
        return;
    }
    let Some(i) = p.field.index(id) else {
        return;
    };
    if p.state.units[i].eliminated.is_some() {
        return;
    }
    if p.record.reforming.contains(id)
        && (moves(order) || matches!(order, StcOrder::Form { .. } | StcOrder::Face { .. }))
    {
        p.impossible(
            i,
            "move",
            "it stands this turn to reform (Steadiness and Disorder)",
        );
        return;
    }
    let _ = line;
    match order {
        StcOrder::Hold { .. } => {
            let (id, name) = (p.id(i), p.name(i));
            p.event(Kind::Hold, &[&id], format!("{name} stands fast."));
        }
        StcOrder::Move {
            road,
            steps,
            through,
            ..
        } => {
            let steps: Vec<Step> = steps.iter().map(kernel_step).collect();
            if super::boats::in_boats(&p.state.units[i]) {
                super::boats::row(p, i, &steps);
                return;
            }
            let through: Vec<usize> = through
                .iter()
                .filter_map(|t| p.field.index(t.as_str()))
                .collect();
            move_unit(p, i, &steps, &through, *road, "move");
        }
        StcOrder::Form {
            formation, facing, ..
        } => maneuver(p, i, Some(*formation), *facing),
        StcOrder::Face { facing, .. } => maneuver(p, i, None, Some(*facing)),
        StcOrder::Manhandle { to, toward, .. } | StcOrder::MoveTo { to, toward, .. } => {
            free_move(p, i, to, toward.as_ref());
        }
        StcOrder::LeaveGuns { to, .. } => leave_guns(p, i, to.as_ref()),
        StcOrder::ManGuns { .. } => man_guns(p, i),
        StcOrder::Charge {
            target,
            approach,
            through,
            ..
        } => {
            let through: Vec<usize> = through
                .iter()
                .filter_map(|t| p.field.index(t.as_str()))
                .collect();
            if let Some(t) = p.field.index(target.as_str()) {
                super::charge::charge(p, i, t, *approach, &through, passive, dice);
            }
        }
        StcOrder::Reinforce { friend, .. } => {
            if let Some(f) = p.field.index(friend.as_str()) {
                super::charge::reinforce(p, i, f);
            }
        }
        StcOrder::Retreat { distance, .. } => voluntary_retreat(p, i, *distance),
        StcOrder::SkirmishersOut { .. } => {
            p.state.units[i].rules.status.skirmishers_out = true;
            let (id, name) = (p.id(i), p.name(i));
            p.event(
                Kind::SkirmishersOut,
                &[&id],
                format!("{name} sends out its skirmishers."),
            );
        }
        StcOrder::SkirmishersIn { .. } => {
            p.state.units[i].rules.status.skirmishers_out = false;
            let (id, name) = (p.id(i), p.name(i));
            p.event(
                Kind::SkirmishersIn,
                &[&id],
                format!("{name} calls in its skirmishers."),
            );
        }
        StcOrder::Screen { screened, .. } => {
            p.state.units[i].rules.status.screening =
                screened.iter().map(|s| s.as_str().to_string()).collect();
            // A screen formed before it moves advances at the columns' rate.
            if !p.movers[i].moved {
                let in_command = p.movers[i].in_command;
                p.movers[i].allowance = turn_allowance(p.state, &p.field, i, in_command);
            }
            let (id, name) = (p.id(i), p.name(i));
            let screened_ids: Vec<&str> = screened.iter().map(|s| s.as_str()).collect();
            p.event_naming(
                Kind::Screen,
                &[&id],
                &screened_ids,
                format!(
                    "{name} screens {}.",
                    screened
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
            );
        }
        StcOrder::Reform { .. } => {
            p.record.reforming.insert(p.id(i));
        }
        StcOrder::Embark { boat, .. } => super::boats::embark(p, i, boat.as_str()),
        StcOrder::Disembark { .. } => super::boats::disembark(p, i),
        // Shooting is the next phase's; evades answer charges; generals'
        // orders are handled above.
        StcOrder::Shoot { .. }
        | StcOrder::Evade { .. }
        | StcOrder::Attach { .. }
        | StcOrder::Detach { .. } => {}
    }
}

/// Moves unit `i` along `steps`.
pub fn move_unit(
    p: &mut Phase,
    i: usize,
    steps: &[Step],
    through: &[usize],
    road: bool,
    what: &str,
) {
    let Some(start) = p.field.rect(i) else {
        return;
    };
    let u = p.state.units[i].clone();
    if let Some(why) = why_it_stands(p, i, &u) {
        p.impossible(i, what, &why);
        return;
    }
    let free = u.rules.formation == Formation::Skirmish;
    let bypass = p.bypassable(&u.side, swept_box(&start, steps));
    let rules = PathRules {
        through,
        exempt: &[],
        road,
        free,
        bypass: &bypass,
    };
    let plan = match plan_path(&p.field, &u, i, &start, steps, &rules) {
        Ok(plan) => plan,
        Err(b) => {
            match too_long(p, i, &u, &start, steps, &rules) {
                Some(why) => p.impossible(i, what, &why),
                None => p.impossible_naming(i, what, &b.reason, b.by.as_slice()),
            }
            return;
        }
    };
    let close_order_passed: Vec<usize> = plan
        .passed
        .iter()
        .copied()
        .filter(|&j| p.state.units[j].rules.formation != Formation::Skirmish)
        .collect();
    let half_speed = !close_order_passed.is_empty() && !free;
    let Some(cost) = cost_of_move(p, i, &start, &plan, half_speed, road, what) else {
        return;
    };
    if !passed_stand_still(p, i, &close_order_passed, what) {
        return;
    }
    p.movers[i].used += if road {
        p.movers[i].allowance.inches
    } else {
        cost
    };
    p.movers[i].moved = true;
    p.movers[i].forward += plan.forward;
    p.place(i, plan.end);
    if plan.disorders && !p.state.units[i].rules.disordered {
        p.state.units[i].rules.disordered = true;
        let (id, name) = (p.id(i), p.name(i));
        p.event(
            Kind::Disordered,
            &[&id],
            format!("{name} is disordered by the ground it crossed (Steadiness and Disorder, 1)."),
        );
    }
    let (id, name) = (p.id(i), p.name(i));
    let end = plan.end.front_centre;
    p.event(
        Kind::Move,
        &[&id],
        format!(
            "{name} moves to {},{} facing {}.",
            coord(end.x),
            coord(end.y),
            plan.end.facing
        ),
    );
    p.settle(i);
}

/// Why unit `u` may not move at all: it has moved this turn, it stands in a
/// formation that may not move, or it is unlimbered guns (which are
/// manhandled instead).
fn why_it_stands(p: &Phase, i: usize, u: &Unit) -> Option<String> {
    if p.movers[i].moved {
        return Some("it has already moved this turn".to_string());
    }
    if let Some((why, clause)) = may_not_move(u.rules.formation) {
        return Some(format!("{why} ({clause})"));
    }
    if u.rules.troop_type.arm() == Arm::Artillery && u.rules.formation == Formation::Unlimbered {
        return Some(format!(
            "unlimbered guns are manhandled (`manhandle to x,y`) or limbered first ({ARTILLERY_MOVEMENT})"
        ));
    }
    None
}

/// For a path that will not do: a move longer than the unit can go is
/// refused as that first, whatever stands in its way further on.
fn too_long(
    p: &Phase,
    i: usize,
    u: &Unit,
    start: &Rect,
    steps: &[Step],
    rules: &PathRules,
) -> Option<String> {
    let left = p.remaining(i) * if rules.road { 2 } else { 1 };
    let (least, slowed) = least_cost(u, start, steps, rules.free);
    if least <= left {
        return None;
    }
    let why = because(p.movers[i].allowance.reductions.iter().chain(&slowed));
    Some(format!(
        "the move costs at least {} of movement and only {} is left ({MOVEMENT_TABLE}){why}",
        inches(least),
        inches(left)
    ))
}

/// What the move costs, or `None` once it is refused: "Close-order troops
/// may move or charge through a friendly unit at half speed" (STC-45: the
/// whole move is at half speed, `half_speed`); a road move, a town's
/// emerging, its capacity and fieldworks as their own clauses give them.
fn cost_of_move(
    p: &mut Phase,
    i: usize,
    start: &Rect,
    plan: &PathPlan,
    half_speed: bool,
    road: bool,
    what: &str,
) -> Option<Hundredths> {
    let through_factor = if half_speed { 2 } else { 1 };
    let mut slowed = plan.slowed.clone();
    if half_speed {
        slowed.push(Slowing::Interpenetration);
    }
    let allowance = road_allowance(p, i, road, what)?;
    let mut cost = plan.cost * through_factor;
    // Towns: "It costs half a move to emerge from a block (unless
    // retreating)".
    let in_town = |r: &Rect| p.field.is_on(r, TerrainKind::is_built_up);
    if in_town(start) && !in_town(&plan.end) {
        cost += p.movers[i].allowance.inches / 2;
        slowed.push(Slowing::EmergingFromTown);
    }
    if let Some(why) = super::town::over_capacity(&p.field, i, &plan.end) {
        p.impossible(i, what, &why);
        return None;
    }
    if plan.crosses_works {
        cost = across_works(p, i, cost, what)?;
    }
    if cost > allowance {
        let why = because(p.movers[i].allowance.reductions.iter().chain(&slowed));
        p.impossible(
            i,
            what,
            &format!(
                "the move costs {} of movement and only {} is left ({MOVEMENT_TABLE}){why}",
                inches(cost),
                inches(allowance)
            ),
        );
        return None;
    }
    Some(cost)
}

/// What unit `i` has left to move: "A column or limbered battery spending
/// its entire turn on a road moves at 2X speed", so a road move is its
/// whole turn, at twice its allowance.
fn road_allowance(p: &mut Phase, i: usize, road: bool, what: &str) -> Option<Hundredths> {
    let allowance = p.remaining(i);
    if !road {
        return Some(allowance);
    }
    if p.movers[i].used > 0 {
        p.impossible(
            i,
            what,
            "a road move must spend the entire turn on the road (Terrain Suggestions, Roads)",
        );
        return None;
    }
    Some(allowance * 2)
}

/// Fieldworks: "It costs a full move to cross a line of fieldworks": the
/// crossing must be the unit's whole move this turn.
fn across_works(p: &mut Phase, i: usize, cost: Hundredths, what: &str) -> Option<Hundredths> {
    if p.movers[i].used > 0 {
        p.impossible(
            i,
            what,
            "crossing a line of fieldworks takes a full move (Terrain Suggestions, Fieldworks)",
        );
        return None;
    }
    Some(cost.max(p.movers[i].allowance.inches))
}

/// Interpenetration: "the other unit must stand still while you move
/// through it"; whether every close-order friend passed through has.
fn passed_stand_still(p: &mut Phase, i: usize, passed: &[usize], what: &str) -> bool {
    for &j in passed {
        if p.movers[j].moved || p.movers[j].maneuvered {
            let name = p.name(j);
            p.impossible_naming(
                i,
                what,
                &format!("{name} has moved this turn; \"the other unit must stand still while you move through it\" ({INTERPENETRATION})"),
                &[j],
            );
            return false;
        }
    }
    true
}

/// A coordinate in inches, without the mark: `36`, `12.5`.
pub fn coord(h: Hundredths) -> String {
    crate::rules::words::inches(h)
}

/// Hundredths of an inch as inches with the inch mark: `4"`, `2.5"`.
pub fn inches(h: Hundredths) -> String {
    format!("{}\"", crate::rules::words::inches(h))
}

/// Whether unit `i` is in contact with `j`.
pub fn in_contact(field: &Field, i: usize, j: usize) -> bool {
    match (field.rect(i), field.rect(j)) {
        (Some(a), Some(b)) => touches(&a, &b),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_troop_type_charges_farther_than_the_longest_charge() {
        let troops = [
            "line-infantry",
            "light-infantry",
            "heavy-cavalry",
            "medium-cavalry",
            "light-cavalry",
            "horse-guns",
            "light-guns",
            "field-guns",
            "heavy-guns",
        ];
        let nations = [
            None,
            Some(Nation::Austria),
            Some(Nation::Russia),
            Some(Nation::France),
        ];
        let longest = troops
            .iter()
            .filter_map(|t| TroopType::from_word(t))
            .flat_map(|t| nations.iter().filter_map(move |n| rates(t, *n)))
            .filter_map(|r| r.charge.map(|bonus| r.line.max(r.column) + bonus))
            .max();
        assert_eq!(longest, Some(LONGEST_CHARGE));
    }
}
