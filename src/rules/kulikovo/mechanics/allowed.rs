//! Who may fire at whom and who may attack whom, with the clause that
//! forbids what may not be: asked when orders are checked and again when
//! they are carried out, on the field as it stands then.

use super::super::clauses;
use super::super::field::{Field, aspect};
use super::super::params::FootFire;
use super::super::sight::line_of_fire;
use super::super::state::Weapon;
use super::super::tables;
use super::combat::Aspect;
use super::moves::Refusal;
use crate::geometry::{Hex, LineStep};

pub const FIRE_OR_ATTACK: &str =
    "ruling KUL-20: a unit fires or attacks in an activation, not both";
pub const RETIRED_NO_ACTION: &str = "ruling KUL-9: a retired unit may not fire, shock or charge";
pub const DISORDERED_NO_CHARGE: &str = "ruling KUL-16: a disordered unit may shock (\"-2 Attacker is Disordered Shock only\") but may not charge";
pub const FRONT_ONLY: &str =
    "ruling KUL-11: a unit fires and attacks through the three hexes ahead of it";
pub const FOOT_FIRE: &str =
    "ruling KUL-20: bowmen and crossbows move or fire, unless the campaign option move-and-fire";

/// What one fire would be: its range and whether it is angled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FireLine {
    pub range: u32,
    /// Angled fire at a Horse Unit: the aspects of the target the line
    /// comes in by, told to the players as they are.
    pub angled: Option<Angle>,
    /// Movement points light cavalry spends to fire.
    pub mp: u32,
}

/// Whether the first hex a line from `from` enters lies ahead of a unit
/// facing `facing`.
fn leaves_by_front(field: &Field, i: usize, from: Hex, to: Hex) -> bool {
    let facing = field.facing(i);
    let steps = from.line_to(to);
    let Some(first) = steps.get(1) else {
        return false;
    };
    first.hexes().iter().any(|&h| {
        from.side_towards(h)
            .is_some_and(|d| aspect(facing, d) == Aspect::Front)
    })
}

/// The sides of a target that angled fire comes in by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Angle {
    Flank,
    Rear,
    /// Along the hexside between a flank hex and the rear hex.
    FlankAndRear,
}

impl Angle {
    pub fn words(self) -> &'static str {
        match self {
            Angle::Flank => "flank",
            Angle::Rear => "rear",
            Angle::FlankAndRear => "flank and rear",
        }
    }
}

/// Whether fire from `from` reaches the target at `to` through its flank or
/// rear (ruling KUL-20), and through which: the last hex the line passes
/// before the target lies off the target's front (both, where the line
/// runs between two).
fn enters_off_front(field: &Field, target: usize, from: Hex, to: Hex) -> Option<Angle> {
    let facing = field.facing(target);
    let steps = to.line_to(from);
    let first = steps.get(1)?;
    let mut aspects = Vec::new();
    for h in first.hexes() {
        let a = aspect(facing, to.side_towards(h)?);
        if a == Aspect::Front {
            return None;
        }
        aspects.push(a);
    }
    match (
        aspects.contains(&Aspect::Flank),
        aspects.contains(&Aspect::Rear),
    ) {
        (true, true) => Some(Angle::FlankAndRear),
        (true, false) => Some(Angle::Flank),
        (false, true) => Some(Angle::Rear),
        (false, false) => None,
    }
}

/// Whether unit `i` may fire at unit `j` now, having spent `mp_used` and
/// having `moved` (changed hex or turned) this activation.
pub fn may_fire(
    field: &Field,
    i: usize,
    j: usize,
    mp_used: u32,
    moved: bool,
) -> Result<FireLine, Refusal> {
    let u = field.unit(i);
    let t = field.unit(j);
    let w = u.rules.weapon;
    if !w.fires() {
        return Err(Refusal::new(
            format!("{} do not fire", w.words()),
            format!(
                "{}: \"Bowman\", \"Light Cavalry\", \"Crossbows\"",
                clauses::RANGE_DRM
            ),
        ));
    }
    if u.rules.retired {
        return Err(Refusal::new("it is retired", RETIRED_NO_ACTION));
    }
    if !field.in_play(j) || t.side == u.side {
        return Err(Refusal::plain(format!("{} is not an enemy unit in play", t.id)).naming(&t.id));
    }
    let (from, to) = (field.hex(i), field.hex(j));
    let range = from.distance(to);
    if tables::range_drm(w, range).is_none() {
        return Err(Refusal::new(
            format!(
                "{} is {range} hexes away; missile fire reaches 1 or 2",
                t.id
            ),
            format!("{}: \"Range in Hexes 1 2\"", clauses::RANGE_DRM),
        )
        .naming(&t.id));
    }
    if !leaves_by_front(field, i, from, to) {
        return Err(Refusal::new(
            format!("{} in {} is not ahead of it", t.id, to.label()),
            FRONT_ONLY,
        )
        .naming(&t.id));
    }
    line_of_fire(field, from, to)?;
    let mut mp = 0;
    match w {
        Weapon::L => {
            let params = &field.state.params;
            mp = params.light_cavalry_fire_cost;
            let mut clause =
                "ruling KUL-20: campaign parameter light_cavalry_fire_cost".to_string();
            if field.enemy_zoc(from, &u.side) {
                mp += 1;
                clause = format!("{clause}; {}", clauses::ZOC_FIRE);
            }
            let allowance = params.movement.of(w);
            if mp_used + mp > allowance {
                return Err(Refusal::new(
                    format!(
                        "firing costs light cavalry {mp} MP here and it has {} left",
                        allowance.saturating_sub(mp_used)
                    ),
                    clause,
                ));
            }
        }
        _ => {
            if moved && field.readings.foot_fire == FootFire::MoveOrFire {
                return Err(Refusal::new(
                    format!("{} that moved this activation may not fire", w.words()),
                    FOOT_FIRE,
                ));
            }
        }
    }
    Ok(FireLine {
        range,
        angled: if t.rules.weapon.is_horse() {
            enters_off_front(field, j, from, to)
        } else {
            None
        },
        mp,
    })
}

/// Whether unit `i` may attack unit `j` now (`charge` for a charge), given
/// whether it began the activation in an enemy zone of control.
pub fn may_attack(
    field: &Field,
    i: usize,
    j: usize,
    charge: bool,
    began_in_zoc: bool,
) -> Result<Aspect, Refusal> {
    let u = field.unit(i);
    let t = field.unit(j);
    let w = u.rules.weapon;
    if !w.may_shock() {
        return Err(Refusal::new(
            format!("{} may not attack", w.words()),
            clauses::NO_SHOCK,
        ));
    }
    if charge && !w.may_charge() {
        return Err(Refusal::new(
            "light cavalry may not charge",
            clauses::NO_CHARGE_L,
        ));
    }
    if u.rules.retired {
        return Err(Refusal::new("it is retired", RETIRED_NO_ACTION));
    }
    if charge && u.rules.disordered {
        return Err(Refusal::new("it is disordered", DISORDERED_NO_CHARGE));
    }
    if charge && began_in_zoc {
        return Err(Refusal::new(
            "it began the activation in an enemy zone of control",
            clauses::ZOC_CHARGE,
        ));
    }
    if !field.in_play(j) || t.side == u.side {
        return Err(Refusal::plain(format!("{} is not an enemy unit in play", t.id)).naming(&t.id));
    }
    let (from, to) = (field.hex(i), field.hex(j));
    let Some(side) = from.side_towards(to) else {
        return Err(Refusal::new(
            format!(
                "{} in {} is not next to it (in {})",
                t.id,
                to.label(),
                from.label()
            ),
            FRONT_ONLY,
        )
        .naming(&t.id));
    };
    if aspect(field.facing(i), side) != Aspect::Front {
        return Err(Refusal::new(
            format!("{} in {} is not ahead of it", t.id, to.label()),
            FRONT_ONLY,
        )
        .naming(&t.id));
    }
    let crossing = field.ground.crossing(from, side);
    if let Some((problem, clause)) = crossing.no_shock() {
        return Err(Refusal::new(problem, clause));
    }
    if charge {
        if let Some((problem, clause)) = crossing.no_charge() {
            return Err(Refusal::new(problem, clause));
        }
        if field.ground.is_woods(to) {
            return Err(
                Refusal::new(format!("{} stands in woods", t.id), clauses::WOODS_CHARGE)
                    .naming(&t.id),
            );
        }
    }
    Ok(aspect(field.facing(j), side.opposite()))
}

/// Whether a line runs between two hexes anywhere (for tests of sight).
pub fn runs_along_a_side(from: Hex, to: Hex) -> bool {
    from.line_to(to)
        .iter()
        .any(|s| matches!(s, LineStep::Between(..)))
}
