//! Shock and charge: one combat against one defending hex, read off the
//! Charge Reluctance Die Roll, the Counter-Charge Die Roll, the Die Roll
//! Modifiers for Shock or Charge, the Weapons System Matrix and the Shock or
//! Charge Results. The umpire call and the turn build an [`Engagement`] and
//! resolve it here.

use serde::Serialize;

use super::super::clauses;
use super::super::ground::SideFeature;
use super::super::params::{Combination, LeaderDrm, Params, Readings, ShockSign};
use super::super::state::{Condition, Weapon};
use super::super::tables::{self, Combat};
use crate::audit::dice::{Dice, Die};
use crate::rules::kernel::{Modifier, total};
use crate::rules::umpire::Trace;

/// Which part of the defender an attacker comes through (ruling KUL-11:
/// the three hexes ahead are its front, the two beside its flank, the one
/// behind its rear).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Aspect {
    Front,
    Flank,
    Rear,
}

impl Aspect {
    pub fn word(self) -> &'static str {
        match self {
            Aspect::Front => "front",
            Aspect::Flank => "flank",
            Aspect::Rear => "rear",
        }
    }
}

/// One attacking unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attacker {
    /// Its id (or its letter in an umpire call), for the dice's purposes.
    pub name: String,
    pub weapon: Weapon,
    /// It was ordered to charge (and may: not L, B or C, not disordered).
    pub charging: bool,
    /// It moved earlier in the activation.
    pub moved: bool,
    pub disordered: bool,
    pub aspect: Aspect,
    /// It attacks up a level change, from the lower level.
    pub uphill: bool,
    /// The features of the hexside it attacks across that the chart gives
    /// a shock DRM: the streams, a steep slope, a ridge.
    pub across: Vec<SideFeature>,
}

/// The defending hex, as one defender (ruling KUL-18: where several units
/// defend together, the profile most favourable to them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defender {
    pub name: String,
    pub weapon: Weapon,
    pub condition: Condition,
    pub shock_drm: i32,
    /// Units in the hex, for the Strength Advantage.
    pub units: u32,
}

/// Everything one combat needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Engagement {
    pub attackers: Vec<Attacker>,
    pub defender: Defender,
    /// Any attacking unit is stacked with a leader of its side.
    pub attacker_leader: bool,
    /// The defender is stacked with a leader of its side.
    pub defender_leader: bool,
    /// The attacking side is Russian and an attacking heavy cavalry unit is
    /// stacked with a leader.
    pub russian_heavy_leader: bool,
    /// Continued attacks made so far by this attacker in this activation.
    pub continued: u32,
    /// The defender tries the Counter-Charge Die Roll if charged.
    pub counter_charge: bool,
}

/// One reluctance roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reluctance {
    pub unit: String,
    pub roll: u32,
    pub modified: i32,
    pub band: &'static str,
    pub charges: bool,
}

/// The counter-charge roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CounterRoll {
    pub roll: u32,
    pub modified: i32,
    pub band: &'static str,
    pub successful: bool,
}

/// What the combat did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CombatOutcome {
    /// Resolved on the Charge Results.
    pub charge: bool,
    pub reluctance: Vec<Reluctance>,
    pub counter_charge: Option<CounterRoll>,
    pub roll: u32,
    pub drm: i32,
    pub modified: i32,
    pub table: &'static str,
    pub column: &'static str,
    pub band: &'static str,
    pub result: &'static str,
    #[serde(skip)]
    pub effect: Combat,
    /// The Die Roll Modifiers the combat roll took, in the list's order.
    #[serde(skip)]
    pub modifiers: Vec<Modifier>,
}

/// The Weapons System Matrix comparison for several attackers against one
/// defender: the column most favourable to the attackers (ruling KUL-18).
pub fn matrix_best(attackers: &[Weapon], defender: Weapon) -> Option<(Weapon, i32)> {
    attackers
        .iter()
        .filter_map(|&a| tables::matrix(a, defender).map(|v| (a, v)))
        .max_by_key(|&(a, v)| (v, std::cmp::Reverse(a)))
}

/// The Strength Advantage DRM (ruling KUL-18): `strength_step` for each
/// unit one side has more, at most `strength_most` either way.
pub fn strength_advantage(params: &Params, attackers: u32, defenders: u32) -> i32 {
    let step = params.strength_step as i32;
    let most = params.strength_most as i32;
    ((attackers as i32 - defenders as i32) * step).clamp(-most, most)
}

/// The flank, rear and combination DRM: one row, the largest that holds
/// (ruling KUL-15).
pub fn aspect_drm(readings: &Readings, aspects: &[Aspect]) -> Option<Modifier> {
    let has = |a: Aspect| aspects.contains(&a);
    let kinds = [Aspect::Front, Aspect::Flank, Aspect::Rear]
        .into_iter()
        .filter(|a| has(*a))
        .count();
    let combination = match readings.combination {
        Combination::AnyTwo => kinds >= 2,
        Combination::AllThree => kinds == 3,
    };
    if combination {
        Some(Modifier::new(clauses::DRM_COMBINATION, 4))
    } else if has(Aspect::Rear) {
        Some(Modifier::new(clauses::DRM_REAR, 3))
    } else if has(Aspect::Flank) {
        Some(Modifier::new(clauses::DRM_FLANK, 2))
    } else {
        None
    }
}

/// The terrain DRMs of a combat, in the chart's column for it.
fn terrain_drms(e: &Engagement, charge: bool) -> Vec<Modifier> {
    let any = |f: SideFeature| e.attackers.iter().any(|a| a.across.contains(&f));
    let mut m = Vec::new();
    if charge {
        if e.attackers.iter().any(|a| a.uphill) {
            m.push(Modifier::new(clauses::LEVEL_CHARGE, -1));
        }
        return m;
    }
    if any(SideFeature::Smolka) || any(SideFeature::NigniDubik) {
        m.push(Modifier::new(clauses::STREAM_SHOCK, -1));
    }
    if any(SideFeature::SteepSlope) {
        m.push(Modifier::new(clauses::STEEP_SHOCK, -2));
    }
    if any(SideFeature::Ridge) {
        m.push(Modifier::new(clauses::RIDGE_SHOCK, -1));
    }
    if !e.attackers.is_empty() && e.attackers.iter().all(|a| a.uphill) {
        m.push(Modifier::new(clauses::LEVEL_SHOCK, -1));
    }
    m
}

/// The Die Roll Modifiers for Shock or Charge, in the list's order, for a
/// combat resolved as a charge (`charging`: the units that passed their
/// reluctance roll) or a shock, with the charge DRM negated or not.
pub fn modifiers(
    e: &Engagement,
    params: &Params,
    readings: &Readings,
    charging: &[&Attacker],
    negated: bool,
) -> Vec<Modifier> {
    let charge = !charging.is_empty();
    let mut m = terrain_drms(e, charge);
    if e.attacker_leader {
        m.push(Modifier::new(
            format!("{} (attacker stacked with its leader)", clauses::DRM_LEADER),
            1,
        ));
    }
    if e.defender_leader && readings.leader_drm == LeaderDrm::BothSides {
        m.push(Modifier::new(
            format!("{} (defender stacked with its leader)", clauses::DRM_LEADER),
            -1,
        ));
    }
    if charge && !negated {
        if charging.iter().any(|a| a.weapon == Weapon::H) {
            m.push(Modifier::new(clauses::DRM_HEAVY, 2));
        } else if charging.iter().any(|a| a.weapon == Weapon::M) {
            m.push(Modifier::new(clauses::DRM_MEDIUM, 1));
        }
    }
    if charge && charging.iter().any(|a| a.moved) {
        m.push(Modifier::new(clauses::DRM_MOVED, -1));
    }
    if e.defender.shock_drm != 0 {
        let v = match readings.defender_shock_drm {
            ShockSign::FavoursDefender => -e.defender.shock_drm,
            ShockSign::AsPrinted => e.defender.shock_drm,
        };
        m.push(Modifier::new(
            format!(
                "{} (the defender's {:+})",
                clauses::DRM_SHOCK,
                e.defender.shock_drm
            ),
            v,
        ));
    }
    if !charge && e.attackers.iter().any(|a| a.disordered) {
        m.push(Modifier::new(clauses::DRM_DISORDERED, -2));
    }
    let strength = strength_advantage(params, e.attackers.len() as u32, e.defender.units);
    if strength != 0 {
        m.push(Modifier::new(
            format!(
                "{} ({} against {})",
                clauses::DRM_STRENGTH,
                e.attackers.len(),
                e.defender.units
            ),
            strength,
        ));
    }
    let aspects: Vec<Aspect> = e.attackers.iter().map(|a| a.aspect).collect();
    if let Some(a) = aspect_drm(readings, &aspects) {
        m.push(a);
    }
    if e.russian_heavy_leader {
        m.push(Modifier::new(clauses::DRM_RUSSIAN, 1));
    }
    if e.defender.condition == Condition::Retired {
        m.push(Modifier::new(clauses::DRM_RETIRED, 2));
    }
    if e.continued > 0 {
        m.push(Modifier::new(
            format!("{} ({} so far)", clauses::DRM_CONTINUED, e.continued),
            -(e.continued as i32),
        ));
    }
    let weapons: Vec<Weapon> = e.attackers.iter().map(|a| a.weapon).collect();
    if let Some((a, v)) = matrix_best(&weapons, e.defender.weapon) {
        m.push(Modifier::new(
            format!(
                "{} (attacker {a}, defender {})",
                clauses::DRM_MATRIX,
                e.defender.weapon
            ),
            v,
        ));
    }
    m
}

/// The Counter-Charge Die Roll's modifiers: the defender's Shock DRM (a DRM
/// that favours it makes success likelier, ruling KUL-14) and +1 through
/// the flank (or rear, ruling KUL-19).
pub fn counter_modifiers(readings: &Readings, shock_drm: i32, flank: bool) -> Vec<Modifier> {
    let mut m = Vec::new();
    if shock_drm != 0 {
        let v = match readings.defender_shock_drm {
            ShockSign::FavoursDefender => -shock_drm,
            ShockSign::AsPrinted => shock_drm,
        };
        m.push(Modifier::new(
            format!("{} ({shock_drm:+})", clauses::COUNTER_SHOCK),
            v,
        ));
    }
    if flank {
        m.push(Modifier::new(clauses::COUNTER_FLANK, 1));
    }
    m
}

/// The Charge Reluctance Die Roll for one unit: "Medium Cavalry (M) add
/// one (+1) to this DR".
pub fn reluctance(
    unit: &str,
    weapon: Weapon,
    dice: &mut dyn Dice,
    trace: &mut Trace,
) -> Reluctance {
    let roll = trace.roll(dice, Die::D10, &format!("charge reluctance: {unit}"));
    let plus = i32::from(weapon == Weapon::M);
    if plus != 0 {
        trace.modifier(&Modifier::new(clauses::RELUCTANCE_M, plus));
    }
    let modified = roll as i32 + plus;
    let (band, charges) = tables::reluctance(modified);
    trace.lookup(
        clauses::RELUCTANCE,
        format!("{unit}: {roll} {plus:+} = {modified}: {band}"),
        if charges {
            "attacking unit successfully Charges"
        } else {
            "unit must attack/Shock without benefit of Charge DRM"
        },
    );
    Reluctance {
        unit: unit.to_string(),
        roll,
        modified,
        band,
        charges,
    }
}

/// The Counter-Charge Die Roll.
pub fn counter_charge(
    defender: &str,
    readings: &Readings,
    shock_drm: i32,
    flank: bool,
    dice: &mut dyn Dice,
    trace: &mut Trace,
) -> CounterRoll {
    let mods = counter_modifiers(readings, shock_drm, flank);
    for m in &mods {
        trace.modifier(m);
    }
    let drm = total(&mods);
    let roll = trace.roll(dice, Die::D10, &format!("counter-charge: {defender}"));
    let modified = roll as i32 + drm;
    let (band, successful) = tables::counter_charge(modified);
    trace.lookup(
        clauses::COUNTER_CHARGE,
        format!("{roll} {drm:+} = {modified}: {band}"),
        if successful {
            "Successful; negate Charge DRM"
        } else {
            "Unsuccessful; defends normally"
        },
    );
    CounterRoll {
        roll,
        modified,
        band,
        successful,
    }
}

/// Resolves one combat: each charging unit's reluctance roll, the
/// defender's counter-charge roll if it was charged, then the combat roll
/// on the Charge Results (if any unit charges) or the Shock Combat Results
/// No Charge, in the defender's column.
pub fn resolve(
    e: &Engagement,
    params: &Params,
    readings: &Readings,
    dice: &mut dyn Dice,
    trace: &mut Trace,
) -> CombatOutcome {
    let mut reluctance_rolls = Vec::new();
    let mut charging: Vec<&Attacker> = Vec::new();
    for a in e.attackers.iter().filter(|a| a.charging) {
        let r = reluctance(&a.name, a.weapon, dice, trace);
        if r.charges {
            charging.push(a);
        }
        reluctance_rolls.push(r);
    }
    let charge = !charging.is_empty();
    if !reluctance_rolls.is_empty() && !charge {
        trace.note("no unit charges: the attack is a shock, without the Charge DRM");
    }
    let mut counter = None;
    if charge && e.counter_charge {
        let flank = charging.iter().any(|a| a.aspect != Aspect::Front);
        counter = Some(counter_charge(
            &e.defender.name,
            readings,
            e.defender.shock_drm,
            flank,
            dice,
            trace,
        ));
    }
    let negated = counter.as_ref().is_some_and(|c| c.successful);
    let mods = modifiers(e, params, readings, &charging, negated);
    for m in &mods {
        trace.modifier(m);
    }
    let drm = total(&mods);
    let names: Vec<&str> = e.attackers.iter().map(|a| a.name.as_str()).collect();
    let roll = trace.roll(
        dice,
        Die::D10,
        &format!(
            "{}: {} against {}",
            if charge { "charge" } else { "shock" },
            names.join(" and "),
            e.defender.name
        ),
    );
    let modified = roll as i32 + drm;
    let table = tables::combat(charge, e.defender.condition.is_disordered());
    let row = table.row(modified);
    trace.lookup(
        format!("{} ({})", table.name, table.column),
        format!("{roll} {drm:+} = {modified}: {}", row.printed),
        row.result.text,
    );
    CombatOutcome {
        charge,
        reluctance: reluctance_rolls,
        counter_charge: counter,
        roll,
        drm,
        modified,
        table: table.name,
        column: table.column,
        band: row.printed,
        result: row.result.text,
        effect: row.result,
        modifiers: mods,
    }
}
