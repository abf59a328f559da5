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
use crate::rules::percentile_fire::fire::Forbidden;
use crate::rules::percentile_fire::fire::factors::{self, Circumstances, Occasion};
use crate::rules::percentile_fire::fire::routine::{Against, FireAttack, Routine};
use crate::rules::percentile_fire::fire::zone::{self, FiringLine};
use crate::rules::percentile_fire::params::{Params, WeaponKind};
use crate::rules::percentile_fire::phase::Phase;
use crate::rules::percentile_fire::setup::NEAREST_WITHIN_FOUR;
use crate::rules::percentile_fire::state::{Arm, Formation, Morale, Shot, State, Unit};
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
pub fn never_fires(u: &Unit) -> Result<(), Forbidden> {
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
    Err(Forbidden::new(why, clause))
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
) -> Result<(), Forbidden> {
    const CLAUSE: &str = "11.22: \"Only artillery batteries which are \"crewed\" and unlimbered are eligible to fire during the Reciprocal Artillery Fire Phase. Only infantry or cavalry formations are eligible during the Reciprocal Infantry Fire Phase.\"";
    let siege = params
        .weapons
        .get(&u.rules.weapon)
        .is_some_and(|w| w.kind == WeaponKind::Siege);
    if siege && occasion != Occasion::Reciprocal {
        return Err(Forbidden::new(
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
        (Phase::ArtilleryFire, _) => Err(Forbidden::new(
            "only batteries fire in the Reciprocal Artillery Fire Phase",
            CLAUSE,
        )),
        (Phase::InfantryFire, _) => Err(Forbidden::new(
            "only infantry and cavalry fire in the Reciprocal Infantry Fire Phase (a regimental gun fires with its battalion)",
            CLAUSE,
        )),
        (p, _) => Err(Forbidden::new(
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
) -> Result<Option<String>, Forbidden> {
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
            return Err(Forbidden::new(
                format!("{} stands in its field of fire", other.id),
                "11.43: \"No friendly figures can be within the Fire Zone between the firing unit and the target unit.\"",
            )
            .naming(&[&other.id]));
        }
        if other.rules.formation == Formation::Skirmish && routine == Routine::Artillery {
            screen.get_or_insert_with(|| other.id.clone());
            continue;
        }
        return Err(Forbidden::new(
            format!("{} stands between it and the target", other.id),
            if other.rules.formation == Formation::Skirmish {
                "11.46: \"Artillery batteries may engage enemy units behind a open order skirmisher formation\""
            } else {
                "11.45: \"In general, a unitwhich cannot be observed cannot be fired upon.\""
            },
        )
        .naming(&[&other.id]));
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

/// The fire attack of a request, or why it may not be made.
pub fn plan(table: &Table, state: &State, req: &Request<'_>) -> Result<Plan, Forbidden> {
    let params = &state.params;
    let firer = req.firer;
    never_fires(firer)?;
    fires_in(firer, req.phase, req.occasion, params)?;
    let target = table.host(state, req.target);
    if target.side == firer.side {
        return Err(Forbidden::new(
            format!("{} is not an enemy unit", target.id),
            "11.11: \"a Player must identify which of his units is firing and which Enemy unit is the target\"",
        )
        .naming(&[&target.id]));
    }
    if target.eliminated.is_some() {
        return Err(
            Forbidden::new(format!("{} is no longer in play", target.id), "11.11")
                .naming(&[&target.id]),
        );
    }
    let (Some(rect), Some(target_rect)) = (table.rect(state, firer), table.rect(state, target))
    else {
        return Err(Forbidden::new("a unit is off the table", "11.40"));
    };
    let shocked = req.hierarchy && shock_first(state, firer, target)?;
    let weapon = params.weapons.get(&firer.rules.weapon).ok_or_else(|| {
        Forbidden::new(
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
        return Err(Forbidden::new(
            format!(
                "small arms fire no {}",
                req.shot.map(|s| s.to_string()).unwrap_or_default()
            ),
            "11.16",
        ));
    }
    if firer.rules.rounds(shot) == Some(0) {
        return Err(Forbidden::new(
            format!("it has no {shot} left on its roster"),
            "11.15 step 2: \"Mark off the ammunition used on the roster\"",
        ));
    }
    let range = rect_distance(&rect, &target_rect);
    let mut notes = vec![format!(
        "{} at {}: {}\" between them",
        firer.id,
        target.id,
        inches(range)
    )];
    // Line of sight, or indirect fire (11.26, 11.45, 11.50).
    let eye = rect.front_centre;
    let indirect = if table.sees(eye, &target_rect, params) {
        None
    } else if routine == Routine::Artillery {
        Some(indirect::allowed(
            table,
            state,
            params,
            firer,
            eye,
            target_rect.centre(),
            shot,
        )?)
    } else {
        return Err(Forbidden::new(
            "it cannot observe the target",
            "11.26: \"A unit cannot fire at a target unit it cannot observe\"",
        ));
    };
    if let Some(system) = indirect {
        notes.push(format!("it cannot see the target: indirect fire, {system}"));
    }
    // The zone and the chart row.
    let disordered = firer.rules.morale == Morale::Disordered || table.in_building(&rect);
    let (zoned, reach, limit) = match routine {
        Routine::Artillery => {
            // Indirect fire is the howitzers' (11.51a), but English guns'
            // shrapnel (11.55).
            let (name, _) = match indirect {
                Some(_)
                    if shot != Shot::Shrapnel
                        || indirect::indirect_weapon(params, firer).is_some() =>
                {
                    indirect::indirect_weapon(params, firer)
                        .unwrap_or((firer.rules.weapon.clone(), firer.rules.cannon_now()))
                }
                _ => (firer.rules.weapon.clone(), 0),
            };
            (
                zone::artillery(params, &name, shot, range, indirect.is_some())?,
                Hundredths::MAX,
                Hundredths::MAX,
            )
        }
        Routine::SmallArms => {
            let max = weapon.maximum.unwrap_or(0);
            // 11.66: at 1" or less the figures within 1" count, at least
            // half the unit's.
            let reach = if range <= target::CLOSE {
                target::CLOSE
            } else {
                max
            };
            (
                zone::small_arms(
                    params,
                    &firer.rules.weapon,
                    firing_line(firer),
                    range,
                    disordered,
                )?,
                reach,
                max,
            )
        }
    };
    notes.push(zoned.note.clone());
    // The figures or cannon firing; a converged skirmish screen as one.
    let group = converged(table, state, firer);
    let mut firing = figures::firing(table, state, firer, &rect, &target_rect, reach, limit)?;
    let mut with = Vec::new();
    for other in group.iter().skip(1) {
        let Some(r) = table.rect(state, other) else {
            continue;
        };
        if let Ok(f) = figures::firing(table, state, other, &r, &target_rect, reach, limit)
            && table.sees(r.front_centre, &target_rect, params)
        {
            firing.count += f.count;
            with.push(other.id.clone());
        }
    }
    if let (Some(_), Some((_, n))) = (indirect, indirect::indirect_weapon(params, firer))
        && firer.rules.howitzers_now() > 0
        && n < firing.count
    {
        firing.count = n;
        firing.why = format!("{n} howitzers fire indirect (11.51a)");
    }
    notes.push(firing.why.clone());
    if !with.is_empty() {
        notes.push(format!(
            "fires with {} as one converged skirmish unit (11.27)",
            with.join(", ")
        ));
    }
    // The field of fire; indirect fire goes over it.
    let screened_by = if indirect.is_some() {
        None
    } else {
        field_of_fire(
            table,
            state,
            firer,
            target,
            &firing,
            &target_rect,
            routine,
            req.occasion,
        )?
    };
    if let Some(s) = &screened_by {
        notes.push(format!(
            "fires past the skirmish screen of {s}, which suffers no casualties (11.46)"
        ));
    }
    if req.hierarchy && !shocked {
        hierarchy(table, state, req, target, &rect)?;
    }
    let Categorized {
        category,
        why,
        naming: massed_with,
    } = target::categorize(table, state, target, &target_rect, eye, range, routine);
    notes.push(why);
    let class = class_of(
        state,
        firer,
        if routine == Routine::Artillery {
            Arm::Artillery
        } else {
            firer.rules.arm
        },
    )
    .ok_or_else(|| {
        Forbidden::new(
            "no firing class for its nation in the campaign's table",
            "11.15 step 7",
        )
    })?;
    let target_charging = target.rules.arm == Arm::Cavalry && target.rules.charging;
    let circumstances = Circumstances {
        occasion: Some(req.occasion),
        attack: req.attack,
        target_charging,
        screened: screened_by.is_some(),
        artillery_officer: firer.rules.artillery_officer,
        target_battery_dispersed: target.rules.arm == Arm::Artillery
            && target.rules.in_square.is_none(),
        cover: table.cover(&target_rect, params),
        named: Vec::new(),
    };
    if let Some(why) = factors::not_doubled(routine, &circumstances) {
        notes.push(why.to_string());
    }
    let (_, screen) = crate::rules::percentile_fire::umpire::readings(state);
    let factors = factors::factors(routine, &zoned.factors, &circumstances, params, screen)?;
    let attached = officers(table, state, target);
    let members = table.square(state, target);
    let against = if members.len() > 1 {
        Against::Figures
    } else {
        match target.rules.arm {
            Arm::Artillery => Against::Battery,
            Arm::Train => Against::Train,
            _ => Against::Figures,
        }
    };
    Ok(Plan {
        attack: FireAttack {
            routine,
            row: zoned.row,
            shot,
            firing: firing.count,
            class,
            category,
            range,
            factors,
            against,
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
fn shock_first(state: &State, firer: &Unit, target: &Unit) -> Result<bool, Forbidden> {
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
        return Err(Forbidden::new(
            format!(
                "{} attempts Shock Combat against it and must be its target",
                shockers.join(", ")
            ),
            "11.44a: \"Enemy unit attempting frontal face Shock Combat against the firing\" unit",
        )
        .naming(&shockers));
    }
    Ok(true)
}

/// The Hierarchy of Target Selection (11.44): the targets that come before
/// the player's own selection.
fn hierarchy(
    table: &Table,
    state: &State,
    req: &Request<'_>,
    target: &Unit,
    rect: &Rect,
) -> Result<(), Forbidden> {
    let firer = req.firer;
    let artillery = firer.rules.arm == Arm::Artillery;
    // Other targets are tried only as far as a rule needs them, nearest
    // first, so that a unit firing at the enemy before it costs little.
    let eligible = |t: &Unit| {
        let ask = Request {
            target: t,
            hierarchy: false,
            ..*req
        };
        plan(table, state, &ask).is_ok()
    };
    let centre = rect.front_centre;
    let enemies_within = |radius: Hundredths| -> Vec<(Hundredths, &Unit)> {
        let mut out: Vec<(Hundredths, &Unit)> = table
            .index
            .near(rect, radius, &[])
            .into_iter()
            .filter_map(|i| state.units.get(i))
            .filter(|u| u.side != firer.side && u.eliminated.is_none())
            .filter_map(|u| {
                table
                    .rect(state, u)
                    .map(|r| (distance_to_rect(centre, &r), u))
            })
            .collect();
        out.sort_by(|a, b| (a.0, &a.1.id).cmp(&(b.0, &b.1.id)));
        out
    };
    let reach = zone::reach(&state.params, &firer.rules.weapon);
    if artillery {
        // b. Counterbattery markers turn a battery on the enemy artillery.
        if firer.rules.counterbattery.is_some()
            && target.rules.arm != Arm::Artillery
            && enemies_within(reach)
                .into_iter()
                .any(|(_, u)| u.rules.arm == Arm::Artillery && eligible(u))
        {
            return Err(Forbidden::new(
                "under a counterbattery marker it must engage an enemy battery it can",
                "11.44b: \"Any enemy artillery battery if under the influence of Counterbattery A or B effect\"",
            ));
        }
        // d. No more than two batteries on one target, but with an
        // artillery officer or no other target.
        if req.batteries_at_target >= 2
            && !firer.rules.artillery_officer
            && enemies_within(reach)
                .into_iter()
                .any(|(_, u)| u.id != target.id && eligible(u))
        {
            return Err(Forbidden::new(
                format!(
                    "{} has been fired upon by 2 batteries this phase",
                    target.id
                ),
                "11.28: \"A maximum of two (2) artillery batteries can fire upon the same target unless NO OTHER POSSIBLE TARGET IS AVAILABLE within range.\"",
            )
            .naming(&[&target.id]));
        }
    }
    // e (artillery) and b (infantry and cavalry): the nearest formed,
    // close order enemy to the frontal facing centre point.
    let within = if artillery || state.options.iter().any(|o| o == NEAREST_WITHIN_FOUR) {
        NEAREST_WITHIN
    } else {
        Hundredths::MAX
    };
    let target_distance = table
        .rect(state, target)
        .map_or(Hundredths::MAX, |r| distance_to_rect(centre, &r));
    let limit = if formed(target) {
        within.min(target_distance.saturating_sub(1))
    } else {
        within
    };
    let nearer = enemies_within(limit.min(reach))
        .into_iter()
        .filter(|(d, u)| *d <= limit && u.id != target.id && formed(u))
        .find(|(_, u)| eligible(u));
    if let Some((d, u)) = nearer {
        return Err(Forbidden::new(
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
        .naming(&[&u.id]));
    }
    Ok(())
}
