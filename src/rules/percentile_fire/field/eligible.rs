//! Eligibility to fire (11.20-11.29, 11.40-11.46), read off the table, and
//! the fire attack that follows from it: who may never fire, who fires in
//! which phase, the 22 degree angle and range, the field of fire, line of
//! sight (or indirect fire), the hierarchy of target selection, and the
//! target's category, cover and officers.

use super::Table;
use super::figures::{self, Firing};
use super::indirect;
use super::target::{self, Categorized};
use crate::geometry::{
    Hundredths, Rect, corridor_overlaps, distance_to_rect, nearest_point_of_rect, rect_distance,
};
use crate::rules::percentile_fire::mechanics::fire::Refusal;
use crate::rules::percentile_fire::mechanics::fire::factors::{self, Circumstances, Occasion};
use crate::rules::percentile_fire::mechanics::fire::routine::{Against, FireAttack, Routine};
use crate::rules::percentile_fire::mechanics::fire::zone::{self, FiringLine, Zoned};
use crate::rules::percentile_fire::params::{Params, Weapon, WeaponKind};
use crate::rules::percentile_fire::setup::NEAREST_WITHIN_FOUR;
use crate::rules::percentile_fire::state::{Arm, Formation, Morale, Shot, State, Unit};
use crate::rules::percentile_fire::turn::Phase;
use crate::rules::words::inches;

/// "Nearest formed, close order formation enemy unit to frontal facing
/// center point if within 4"" (11.44e).
pub const NEAREST_WITHIN: Hundredths = 400;

/// "unless there is a gap of 4" or greater in the skirmish (open) order
/// formation screen" (11.27).
pub const CONVERGED_GAP: Hundredths = 400;

/// One fire attack asked for.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub firer: &'a Unit,
    pub target: &'a Unit,
    pub occasion: Occasion,
    pub phase: Phase,
    pub shot: Option<Shot>,
    /// Which fire attack of the firer in this phase, from 1.
    pub attack: u32,
    /// Batteries that have fired at the target this phase (11.28).
    pub batteries_at_target: u32,
    /// Whether the hierarchy of target selection applies (a fire attack of
    /// the player's choosing; opportunity, passby, final shock and
    /// supportive fire have their target given).
    pub hierarchy: bool,
}

/// A fire attack set up from the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub attack: FireAttack,
    /// The unit fired at: a square's own unit for a square (11.28).
    pub target: String,
    pub shot: Shot,
    pub range: Hundredths,
    /// How it fires without seeing the target (11.50).
    pub indirect: Option<&'static str>,
    /// The skirmish screen it fires past (11.46).
    pub screened_by: Option<String>,
    /// Skirmish screens firing with it as one converged unit (11.27).
    pub converged: Vec<String>,
    /// Every unit its notes name besides the firer and the target, by id
    /// (the converged screens, the screen fired past, the friend that
    /// masses the target), so that whoever is told of the attack is
    /// judged by them.
    pub naming: Vec<String>,
}

/// "The following unit type or formations may never fire" (11.23), and a
/// battery with no crew to serve it (11.22).
pub fn never_fires(u: &Unit) -> Result<(), Refusal> {
    let r = &u.rules;
    let (why, clause) = match r.arm {
        Arm::Headquarters => (
            "a command headquarter base never fires",
            "11.23: \"1) Command headquarter bases\"",
        ),
        Arm::Train => ("a train unit never fires", "11.23: \"8) All train units\""),
        Arm::Cavalry if r.morale == Morale::Disordered => (
            "morale disordered cavalry never fires",
            "11.23: \"2) Morale disordered Cavalry units\"",
        ),
        Arm::Cavalry if r.charging => (
            "cavalry in a state of charge never fires",
            "11.23: \"3) Cavalry in \"state of Charge or declared charge\"\"",
        ),
        _ if r.morale == Morale::Routing => (
            "a routing unit never fires",
            "11.23: \"4) Routing morale status units\"",
        ),
        Arm::Artillery if r.formation == Formation::Limbered => (
            "a limbered battery never fires",
            "11.23: \"6) Limbered artillery batteries\"",
        ),
        Arm::Artillery if !r.crewed || u.strength == 0 => (
            "a battery without its crew cannot fire; its crews fire no weapons of their own",
            "11.23: \"7) Artillery crews\"",
        ),
        _ if r
            .ammunition
            .as_ref()
            .is_some_and(|a| a.values().all(|n| *n == 0)) =>
        {
            (
                "it has no ammunition left",
                "11.23: \"5) Units without available ammunition\"",
            )
        }
        _ => return Ok(()),
    };
    Err(Refusal::new(why, clause))
}

/// "Only artillery batteries which are "crewed" and unlimbered are eligible
/// to fire during the Reciprocal Artillery Fire Phase. Only infantry or
/// cavalry formations are eligible during the Reciprocal Infantry Fire
/// Phase." (11.22)
pub fn fires_in(
    u: &Unit,
    phase: Phase,
    occasion: Occasion,
    params: &Params,
) -> Result<(), Refusal> {
    const CLAUSE: &str = "11.22: \"Only artillery batteries which are \"crewed\" and unlimbered are eligible to fire during the Reciprocal Artillery Fire Phase. Only infantry or cavalry formations are eligible during the Reciprocal Infantry Fire Phase.\"";
    let siege = params
        .weapons
        .get(&u.rules.weapon)
        .is_some_and(|w| w.kind == WeaponKind::Siege);
    if siege && occasion != Occasion::Reciprocal {
        return Err(Refusal::new(
            format!("siege artillery gives no {}", occasion.name()),
            "11.89: \"Siege artillery in any form cannot perform Opportunity, Passby Fire, final Shock Combat Fire, Supportive Fire or'multiple Fire attacks.\"",
        ));
    }
    if occasion != Occasion::Reciprocal {
        return Ok(());
    }
    match (phase, u.rules.arm) {
        (Phase::ArtilleryFire, Arm::Artillery) => Ok(()),
        (Phase::InfantryFire, Arm::Infantry | Arm::Cavalry) => Ok(()),
        (Phase::ArtilleryFire, _) => Err(Refusal::new(
            "only batteries fire in the Reciprocal Artillery Fire Phase",
            CLAUSE,
        )),
        (Phase::InfantryFire, _) => Err(Refusal::new(
            "only infantry and cavalry fire in the Reciprocal Infantry Fire Phase (a regimental gun fires with its battalion)",
            CLAUSE,
        )),
        (p, _) => Err(Refusal::new(
            format!("there is no reciprocal fire in the {}", p.name()),
            "11.0: \"During the Reciprocal Fire Phases, both Players may fire\"",
        )),
    }
}

/// The line a small arms unit fires on by its formation.
pub fn firing_line(u: &Unit) -> FiringLine {
    match (u.rules.arm, u.rules.formation) {
        (_, Formation::Skirmish) => FiringLine::Skirmish,
        (_, Formation::Square) => FiringLine::Square,
        (Arm::Cavalry, _) => FiringLine::Mounted,
        _ if u.rules.ranks >= 3 => FiringLine::ThreeRank,
        _ => FiringLine::TwoRank,
    }
}

/// The firing class of a unit: its own, or its nation's (11.15 step 7).
pub fn class_of(
    state: &State,
    u: &Unit,
    arm: Arm,
) -> Option<crate::rules::percentile_fire::state::Class> {
    u.rules.class.or_else(|| {
        state
            .params
            .class_of(state.nations.get(&u.side).map(String::as_str), arm)
    })
}

/// Whether a unit is "formed, close order" (11.44): infantry or cavalry not
/// in skirmish order.
pub fn formed(u: &Unit) -> bool {
    matches!(u.rules.arm, Arm::Infantry | Arm::Cavalry) && u.rules.formation != Formation::Skirmish
}

/// The skirmish screens firing as one converged unit with `u` (11.27):
/// screens deployed from one battalion with no gap of 4" or more between
/// them, `u` first.
pub fn converged<'s>(table: &Table, state: &'s State, u: &'s Unit) -> Vec<&'s Unit> {
    let mut group = vec![u];
    let Some(parent) = u.rules.parent.as_deref() else {
        return group;
    };
    if u.rules.formation != Formation::Skirmish {
        return group;
    }
    let mut grew = true;
    while grew {
        grew = false;
        for other in state.units.iter().filter(|o| {
            o.eliminated.is_none()
                && o.side == u.side
                && o.rules.formation == Formation::Skirmish
                && o.rules.parent.as_deref() == Some(parent)
        }) {
            if group.iter().any(|g| g.id == other.id) {
                continue;
            }
            let touches =
                group
                    .iter()
                    .any(|g| match (table.rect(state, g), table.rect(state, other)) {
                        (Some(a), Some(b)) => rect_distance(&a, &b) < CONVERGED_GAP,
                        _ => false,
                    });
            if touches {
                group.push(other);
                grew = true;
            }
        }
    }
    group
}

/// What stands in the field of fire between a firer and its target
/// (11.43): friendly figures block it (for artillery, not in the
/// situations of 11.80); an enemy skirmish screen screens it for artillery
/// (11.46) and blocks small arms; any other enemy unit blocks it (ruling
/// PF-16).
#[allow(clippy::too_many_arguments)]
fn field_of_fire(
    table: &Table,
    state: &State,
    firer: &Unit,
    target: &Unit,
    firing: &Firing,
    target_rect: &Rect,
    routine: Routine,
    occasion: Occasion,
) -> Result<Option<String>, Refusal> {
    let to = nearest_point_of_rect(firing.from, target_rect);
    let area = (
        firing.from.x.min(to.x),
        firing.from.y.min(to.y),
        firing.from.x.max(to.x),
        firing.from.y.max(to.y),
    );
    let host = table.host(state, firer).id.clone();
    let Some(firer_rect) = table.rect(state, firer) else {
        return Ok(None);
    };
    let mut screen = None;
    for i in table.index.near_box(area, firing.width / 2 + 1) {
        let Some(other) = state.units.get(i) else {
            continue;
        };
        if other.id == host || other.id == target.id || other.eliminated.is_some() {
            continue;
        }
        let Some(r) = table.index.rect(i) else {
            continue;
        };
        if !corridor_overlaps(firing.from, to, firing.width, &r) {
            continue;
        }
        // An enemy unit beside the target, no nearer to the firer, is no
        // obstacle: only one between them is.
        if other.side != firer.side
            && rect_distance(&r, &firer_rect) >= rect_distance(target_rect, &firer_rect)
        {
            continue;
        }
        if other.side == firer.side {
            if routine == Routine::Artillery && occasion != Occasion::Reciprocal {
                continue;
            }
            return Err(Refusal::new(
                format!("{} stands in its field of fire", other.id),
                "11.43: \"No friendly figures can be within the Fire Zone between the firing unit and the target unit.\"",
            )
            .naming_all(&[&other.id]));
        }
        if other.rules.formation == Formation::Skirmish && routine == Routine::Artillery {
            screen.get_or_insert_with(|| other.id.clone());
            continue;
        }
        return Err(Refusal::new(
            format!("{} stands between it and the target", other.id),
            if other.rules.formation == Formation::Skirmish {
                "11.46: \"Artillery batteries may engage enemy units behind a open order skirmisher formation\""
            } else {
                "11.45: \"In general, a unitwhich cannot be observed cannot be fired upon.\""
            },
        )
        .naming_all(&[&other.id]));
    }
    Ok(screen)
}

/// The officers attached to a target (step 11): generals attached to it
/// (to any unit of its square), and a battery's artillery officer; each by
/// name, and by the id of the general or of the battery he serves.
pub fn officers(table: &Table, state: &State, target: &Unit) -> Vec<(String, String)> {
    let members = table.square(state, target);
    let mut out: Vec<(String, String)> = state
        .generals
        .iter()
        .filter(|g| g.lost.is_none())
        .filter(|g| {
            g.attached_to
                .as_deref()
                .is_some_and(|a| members.iter().any(|m| m.id == a))
        })
        .map(|g| (g.name.clone(), g.id.clone()))
        .collect();
    for m in members {
        if m.rules.artillery_officer {
            out.push((format!("the artillery officer of {}", m.name), m.id.clone()));
        }
    }
    out
}

/// A fire attack as far as it has been set up: the two units and their
/// footprints, the routine and shot, the range, how it sees the target,
/// and the notes told so far.
struct Aim<'s> {
    firer: &'s Unit,
    /// The unit fired at: a square's own unit for a square (11.28).
    target: &'s Unit,
    rect: Rect,
    target_rect: Rect,
    routine: Routine,
    shot: Shot,
    range: Hundredths,
    /// How it fires without seeing the target (11.50).
    indirect: Option<&'static str>,
    notes: Vec<String>,
}

/// The fire attack of a request, or why it may not be made: the firer and
/// target, the routine and shot, line of sight, the zone, the figures
/// firing, the field of fire, then the hierarchy; the attack follows.
pub fn plan(table: &Table, state: &State, req: &Request<'_>) -> Result<Plan, Refusal> {
    let (target, rect, target_rect) = parties(table, state, req)?;
    let shocked = req.hierarchy && shock_first(state, req.firer, target)?;
    let (routine, shot, weapon) = routine_and_shot(&state.params, req)?;
    let range = rect_distance(&rect, &target_rect);
    let mut aim = Aim {
        firer: req.firer,
        target,
        rect,
        target_rect,
        routine,
        shot,
        range,
        indirect: None,
        notes: vec![format!(
            "{} at {}: {}\" between them",
            req.firer.id,
            target.id,
            inches(range)
        )],
    };
    aim.indirect = sight(table, state, &aim)?;
    if let Some(system) = aim.indirect {
        aim.notes
            .push(format!("it cannot see the target: indirect fire, {system}"));
    }
    let (zoned, reach, limit) = zoned(table, state, &aim, weapon)?;
    aim.notes.push(zoned.note.clone());
    let (firing, with) = figures_firing(table, state, &mut aim, reach, limit)?;
    let screened_by = if aim.indirect.is_some() {
        None
    } else {
        field_of_fire(
            table,
            state,
            aim.firer,
            target,
            &firing,
            &target_rect,
            routine,
            req.occasion,
        )?
    };
    if let Some(s) = &screened_by {
        aim.notes.push(format!(
            "fires past the skirmish screen of {s}, which suffers no casualties (11.46)"
        ));
    }
    if req.hierarchy && !shocked {
        hierarchy(table, state, req, target, &rect)?;
    }
    attack(
        table,
        state,
        req,
        aim,
        zoned,
        firing.count,
        with,
        screened_by,
    )
}

/// Whether the firer may fire at all in this phase (11.22-11.23) and the
/// target is an enemy unit in play (11.11), both on the table (11.40):
/// the target (a square's own unit for a square) and the two footprints.
fn parties<'s>(
    table: &Table,
    state: &'s State,
    req: &Request<'s>,
) -> Result<(&'s Unit, Rect, Rect), Refusal> {
    let firer = req.firer;
    never_fires(firer)?;
    fires_in(firer, req.phase, req.occasion, &state.params)?;
    let target = table.host(state, req.target);
    if target.side == firer.side {
        return Err(Refusal::new(
            format!("{} is not an enemy unit", target.id),
            "11.11: \"a Player must identify which of his units is firing and which Enemy unit is the target\"",
        )
        .naming_all(&[&target.id]));
    }
    if target.eliminated.is_some() {
        return Err(
            Refusal::new(format!("{} is no longer in play", target.id), "11.11")
                .naming_all(&[&target.id]),
        );
    }
    let (Some(rect), Some(target_rect)) = (table.rect(state, firer), table.rect(state, target))
    else {
        return Err(Refusal::new("a unit is off the table", "11.40"));
    };
    Ok((target, rect, target_rect))
}

/// The firer's weapon in the Weapon Range Chart (11.32), the routine it
/// fires by (11.15 or 11.16) and the shot it fires, with rounds of it left
/// to mark off (11.15 step 2).
fn routine_and_shot<'p>(
    params: &'p Params,
    req: &Request<'_>,
) -> Result<(Routine, Shot, &'p Weapon), Refusal> {
    let firer = req.firer;
    let weapon = params.weapons.get(&firer.rules.weapon).ok_or_else(|| {
        Refusal::new(
            format!(
                "its weapon `{}` is not in the Weapon Range Chart",
                firer.rules.weapon
            ),
            "11.32: \"the Weapon Range chart\"",
        )
    })?;
    let routine = if weapon.kind.is_artillery() {
        Routine::Artillery
    } else {
        Routine::SmallArms
    };
    let shot = match routine {
        Routine::Artillery => req
            .shot
            .unwrap_or_else(|| zone::default_shot(params, &firer.rules.weapon)),
        Routine::SmallArms => Shot::Ball,
    };
    if req.shot.is_some_and(|s| s != shot) {
        return Err(Refusal::new(
            format!(
                "small arms fire no {}",
                req.shot.map(|s| s.to_string()).unwrap_or_default()
            ),
            "11.16",
        ));
    }
    if firer.rules.rounds(shot) == Some(0) {
        return Err(Refusal::new(
            format!("it has no {shot} left on its roster"),
            "11.15 step 2: \"Mark off the ammunition used on the roster\"",
        ));
    }
    Ok((routine, shot, weapon))
}

/// Line of sight, or indirect fire (11.26, 11.45, 11.50): `None` where the
/// firer sees the target, else how a battery fires at it unseen.
fn sight(table: &Table, state: &State, aim: &Aim) -> Result<Option<&'static str>, Refusal> {
    let params = &state.params;
    let eye = aim.rect.front_centre;
    if table.sees(eye, &aim.target_rect, params) {
        Ok(None)
    } else if aim.routine == Routine::Artillery {
        Ok(Some(indirect::allowed(
            table,
            state,
            params,
            aim.firer,
            eye,
            aim.target_rect.centre(),
            aim.shot,
        )?))
    } else {
        Err(Refusal::new(
            "it cannot observe the target",
            "11.26: \"A unit cannot fire at a target unit it cannot observe\"",
        ))
    }
}

/// The fire zone and the chart row (11.32-11.37), with how far the figures
/// that fire may be from the target and the weapon's maximum range.
fn zoned(
    table: &Table,
    state: &State,
    aim: &Aim,
    weapon: &Weapon,
) -> Result<(Zoned, Hundredths, Hundredths), Refusal> {
    let params = &state.params;
    let firer = aim.firer;
    let disordered = firer.rules.morale == Morale::Disordered || table.in_building(&aim.rect);
    match aim.routine {
        Routine::Artillery => {
            // Indirect fire is the howitzers' (11.51a), but English guns'
            // shrapnel (11.55).
            let (name, _) = match aim.indirect {
                Some(_)
                    if aim.shot != Shot::Shrapnel
                        || indirect::indirect_weapon(params, firer).is_some() =>
                {
                    indirect::indirect_weapon(params, firer)
                        .unwrap_or((firer.rules.weapon.clone(), firer.rules.cannon_now()))
                }
                _ => (firer.rules.weapon.clone(), 0),
            };
            Ok((
                zone::artillery(params, &name, aim.shot, aim.range, aim.indirect.is_some())?,
                Hundredths::MAX,
                Hundredths::MAX,
            ))
        }
        Routine::SmallArms => {
            let max = weapon.maximum.unwrap_or(0);
            // 11.66: at 1" or less the figures within 1" count, at least
            // half the unit's.
            let reach = if aim.range <= target::CLOSE {
                target::CLOSE
            } else {
                max
            };
            Ok((
                zone::small_arms(
                    params,
                    &firer.rules.weapon,
                    firing_line(firer),
                    aim.range,
                    disordered,
                )?,
                reach,
                max,
            ))
        }
    }
}

/// The figures or cannon firing (11.15 step 4, 11.41, 11.42); a converged
/// skirmish screen as one (11.27); only the howitzers for indirect fire
/// (11.51a). With the screens that fire with the firer.
fn figures_firing(
    table: &Table,
    state: &State,
    aim: &mut Aim,
    reach: Hundredths,
    limit: Hundredths,
) -> Result<(Firing, Vec<String>), Refusal> {
    let params = &state.params;
    let (firer, target_rect) = (aim.firer, &aim.target_rect);
    let group = converged(table, state, firer);
    let mut firing = figures::firing(table, state, firer, &aim.rect, target_rect, reach, limit)?;
    let mut with = Vec::new();
    for other in group.iter().skip(1) {
        let Some(r) = table.rect(state, other) else {
            continue;
        };
        if let Ok(f) = figures::firing(table, state, other, &r, target_rect, reach, limit)
            && table.sees(r.front_centre, target_rect, params)
        {
            firing.count += f.count;
            with.push(other.id.clone());
        }
    }
    if let (Some(_), Some((_, n))) = (aim.indirect, indirect::indirect_weapon(params, firer))
        && firer.rules.howitzers_now() > 0
        && n < firing.count
    {
        firing.count = n;
        firing.why = format!("{n} howitzers fire indirect (11.51a)");
    }
    aim.notes.push(firing.why.clone());
    if !with.is_empty() {
        aim.notes.push(format!(
            "fires with {} as one converged skirmish unit (11.27)",
            with.join(", ")
        ));
    }
    Ok((firing, with))
}

/// The attack itself, once the firer may make it: the target's category
/// (11.15 step 8), the firing class (step 7), the factors (step 9), what
/// the casualties fall on and the officers attached (step 11).
#[allow(clippy::too_many_arguments)]
fn attack(
    table: &Table,
    state: &State,
    req: &Request<'_>,
    aim: Aim,
    zoned: Zoned,
    count: u32,
    with: Vec<String>,
    screened_by: Option<String>,
) -> Result<Plan, Refusal> {
    let params = &state.params;
    let Aim {
        firer,
        target,
        target_rect,
        routine,
        shot,
        range,
        indirect,
        mut notes,
        rect,
    } = aim;
    let Categorized {
        category,
        why,
        naming: massed_with,
    } = target::categorize(
        table,
        state,
        target,
        &target_rect,
        rect.front_centre,
        range,
        routine,
    );
    notes.push(why);
    let class = firing_class(state, firer, routine)?;
    let circumstances = circumstances(table, params, req, target, &target_rect, &screened_by);
    if let Some(why) = factors::not_doubled(routine, &circumstances) {
        notes.push(why.to_string());
    }
    let (_, screen) = crate::rules::percentile_fire::umpire::readings(state);
    let factors = factors::factors(routine, &zoned.factors, &circumstances, params, screen)?;
    let attached = officers(table, state, target);
    Ok(Plan {
        attack: FireAttack {
            routine,
            row: zoned.row,
            shot,
            firing: count,
            class,
            category,
            range,
            factors,
            against: against(table, state, target),
            officers: attached.iter().map(|(name, _)| name.clone()).collect(),
            officer_ids: attached.into_iter().map(|(_, id)| id).collect(),
            notes,
            label: format!("{} at {}", firer.id, target.id),
            concerns: vec![firer.id.clone(), target.id.clone()],
        },
        target: target.id.clone(),
        shot,
        range,
        indirect,
        naming: with
            .iter()
            .chain(&screened_by)
            .chain(&massed_with)
            .cloned()
            .collect(),
        screened_by,
        converged: with,
    })
}

/// The firer's class for the chart (11.15 step 7): a battery's by the
/// artillery's, any other's by its arm.
fn firing_class(
    state: &State,
    firer: &Unit,
    routine: Routine,
) -> Result<crate::rules::percentile_fire::state::Class, Refusal> {
    class_of(
        state,
        firer,
        if routine == Routine::Artillery {
            Arm::Artillery
        } else {
            firer.rules.arm
        },
    )
    .ok_or_else(|| {
        Refusal::new(
            "no firing class for its nation in the campaign's table",
            "11.15 step 7",
        )
    })
}

/// The circumstances the factors read (11.15 step 9).
fn circumstances(
    table: &Table,
    params: &Params,
    req: &Request<'_>,
    target: &Unit,
    target_rect: &Rect,
    screened_by: &Option<String>,
) -> Circumstances {
    Circumstances {
        occasion: Some(req.occasion),
        attack: req.attack,
        target_charging: target.rules.arm == Arm::Cavalry && target.rules.charging,
        screened: screened_by.is_some(),
        artillery_officer: req.firer.rules.artillery_officer,
        target_battery_dispersed: target.rules.arm == Arm::Artillery
            && target.rules.in_square.is_none(),
        cover: table.cover(target_rect, params),
        named: Vec::new(),
    }
}

/// What the casualties fall on: figures, a battery's cannon or a train; a
/// square's figures whatever units form it.
fn against(table: &Table, state: &State, target: &Unit) -> Against {
    let members = table.square(state, target);
    if members.len() > 1 {
        Against::Figures
    } else {
        match target.rules.arm {
            Arm::Artillery => Against::Battery,
            Arm::Train => Against::Train,
            _ => Against::Figures,
        }
    }
}

/// The enemy units a firer could fire at now, the hierarchy aside, with
/// each plan.
pub fn candidates<'s>(table: &Table, state: &'s State, req: &Request<'_>) -> Vec<(&'s Unit, Plan)> {
    let Some(rect) = table.rect(state, req.firer) else {
        return Vec::new();
    };
    let reach = zone::reach(&state.params, &req.firer.rules.weapon);
    let mut out = Vec::new();
    for i in table.index.near(&rect, reach, &[]) {
        let Some(t) = state.units.get(i) else {
            continue;
        };
        if t.side == req.firer.side || t.eliminated.is_some() {
            continue;
        }
        let ask = Request {
            target: t,
            hierarchy: false,
            ..*req
        };
        if let Ok(p) = plan(table, state, &ask) {
            out.push((t, p));
        }
    }
    out
}

/// "a. Enemy unit attempting frontal face Shock Combat against the firing"
/// unit (11.44): before any other choice. `Ok(true)` when the target is
/// such a unit, and the rest of the hierarchy is then moot.
fn shock_first(state: &State, firer: &Unit, target: &Unit) -> Result<bool, Refusal> {
    let shockers: Vec<&str> = state
        .game
        .shocks
        .iter()
        .filter(|s| s.target == firer.id)
        .map(|s| s.attacker.as_str())
        .filter(|a| state.unit(a).is_some_and(|u| u.eliminated.is_none()))
        .collect();
    if shockers.is_empty() {
        return Ok(false);
    }
    if !shockers.contains(&target.id.as_str()) {
        return Err(Refusal::new(
            format!(
                "{} attempts Shock Combat against it and must be its target",
                shockers.join(", ")
            ),
            "11.44a: \"Enemy unit attempting frontal face Shock Combat against the firing\" unit",
        )
        .naming_all(&shockers));
    }
    Ok(true)
}

/// The Hierarchy of Target Selection (11.44): the targets that come before
/// the player's own selection. For a battery, the enemy artillery under a
/// counterbattery marker (b) and no third battery at one target (d); for
/// any unit, the nearest formed enemy (e for artillery, b for infantry and
/// cavalry).
fn hierarchy(
    table: &Table,
    state: &State,
    req: &Request<'_>,
    target: &Unit,
    rect: &Rect,
) -> Result<(), Refusal> {
    let h = Others {
        table,
        state,
        req,
        rect,
    };
    if req.firer.rules.arm == Arm::Artillery {
        h.counterbattery_first(target)?;
        h.two_batteries_at_most(target)?;
    }
    h.nearest_formed(target)
}

/// The other targets a firer might have, tried only as far as a rule
/// needs them, nearest first, so that a unit firing at the enemy before it
/// costs little.
struct Others<'a> {
    table: &'a Table,
    state: &'a State,
    req: &'a Request<'a>,
    rect: &'a Rect,
}

impl Others<'_> {
    /// Whether the firer could fire at `t` instead, the hierarchy aside.
    fn eligible(&self, t: &Unit) -> bool {
        let ask = Request {
            target: t,
            hierarchy: false,
            ..*self.req
        };
        plan(self.table, self.state, &ask).is_ok()
    }

    /// The enemy units within `radius` of the firer, each with its
    /// distance from the firer's front centre, nearest first.
    fn enemies_within(&self, radius: Hundredths) -> Vec<(Hundredths, &Unit)> {
        let (table, state) = (self.table, self.state);
        let centre = self.rect.front_centre;
        let mut out: Vec<(Hundredths, &Unit)> = table
            .index
            .near(self.rect, radius, &[])
            .into_iter()
            .filter_map(|i| state.units.get(i))
            .filter(|u| u.side != self.req.firer.side && u.eliminated.is_none())
            .filter_map(|u| {
                table
                    .rect(state, u)
                    .map(|r| (distance_to_rect(centre, &r), u))
            })
            .collect();
        out.sort_by(|a, b| (a.0, &a.1.id).cmp(&(b.0, &b.1.id)));
        out
    }

    fn reach(&self) -> Hundredths {
        zone::reach(&self.state.params, &self.req.firer.rules.weapon)
    }

    /// b. Counterbattery markers turn a battery on the enemy artillery.
    fn counterbattery_first(&self, target: &Unit) -> Result<(), Refusal> {
        if self.req.firer.rules.counterbattery.is_some()
            && target.rules.arm != Arm::Artillery
            && self
                .enemies_within(self.reach())
                .into_iter()
                .any(|(_, u)| u.rules.arm == Arm::Artillery && self.eligible(u))
        {
            return Err(Refusal::new(
                "under a counterbattery marker it must engage an enemy battery it can",
                "11.44b: \"Any enemy artillery battery if under the influence of Counterbattery A or B effect\"",
            ));
        }
        Ok(())
    }

    /// d. No more than two batteries on one target, but with an artillery
    /// officer or no other target.
    fn two_batteries_at_most(&self, target: &Unit) -> Result<(), Refusal> {
        if self.req.batteries_at_target >= 2
            && !self.req.firer.rules.artillery_officer
            && self
                .enemies_within(self.reach())
                .into_iter()
                .any(|(_, u)| u.id != target.id && self.eligible(u))
        {
            return Err(Refusal::new(
                format!(
                    "{} has been fired upon by 2 batteries this phase",
                    target.id
                ),
                "11.28: \"A maximum of two (2) artillery batteries can fire upon the same target unless NO OTHER POSSIBLE TARGET IS AVAILABLE within range.\"",
            )
            .naming_all(&[&target.id]));
        }
        Ok(())
    }

    /// e (artillery) and b (infantry and cavalry): the nearest formed,
    /// close order enemy to the frontal facing centre point; for artillery
    /// (and for all where the campaign reads it so) only within 4".
    fn nearest_formed(&self, target: &Unit) -> Result<(), Refusal> {
        let (table, state) = (self.table, self.state);
        let artillery = self.req.firer.rules.arm == Arm::Artillery;
        let within = if artillery || state.options.iter().any(|o| o == NEAREST_WITHIN_FOUR) {
            NEAREST_WITHIN
        } else {
            Hundredths::MAX
        };
        let target_distance = table.rect(state, target).map_or(Hundredths::MAX, |r| {
            distance_to_rect(self.rect.front_centre, &r)
        });
        let limit = if formed(target) {
            within.min(target_distance.saturating_sub(1))
        } else {
            within
        };
        let nearer = self
            .enemies_within(limit.min(self.reach()))
            .into_iter()
            .filter(|(d, u)| *d <= limit && u.id != target.id && formed(u))
            .find(|(_, u)| self.eligible(u));
        if let Some((d, u)) = nearer {
            return Err(Refusal::new(
                format!(
                    "{}, {}\" from its front centre, is the nearest formed enemy and must be its target",
                    u.id,
                    inches(d)
                ),
                if artillery {
                    "11.44e: \"Nearest formed, close order formation enemy unit to frontal facing center point if within 4\"\""
                } else {
                    "11.44b: \"Nearest formed, close order formation enemy unit to frontal facing center point.\""
                },
            )
            .naming_all(&[&u.id]));
        }
        Ok(())
    }
}
