//! The close combat phase: "Both sides fight one round of close combat with
//! units in contact with each other. Losing units automatically do retreat
//! moves and suffer rout hits."
//!
//! Every unit in contact with an enemy fights. Each pair of enemies in
//! contact is one umpire combat call ([`crate::rules::sound_the_charge::mechanics::combat`])
//! built from the table: points, modifiers, dice and scores to hit come from
//! that call's code, so a one-against-one combat in a turn gives exactly what
//! the umpire call gives. "If a unit is under attack by multiple enemies, the
//! unit divides its dice as evenly as possible among all enemy units": a unit
//! with several enemies gives each pair its share of dice, and wins or loses
//! on all the hits it suffered against all it inflicted (ruling STC-70).
//! Losers retreat after every combat on the table has been fought.

use std::collections::{BTreeMap, BTreeSet};

use super::super::field::deployment::ZONE_OF_CONTROL;
use super::TurnRecord;
use super::fighting::{
    CONTACT, Cover, Deployment, TurnFacts, apply_hits, apply_rout_hits, arm_of, combat_cover,
    combat_figures, event, formation_of, general_attached, grade_of, has_mark,
    in_disordering_terrain, in_play, nation_of, on_steep_slope, option, troop_of, wider_basing,
};
use super::retreat::{Cause, RetreatOutcome, eliminate, retreat_in};
use crate::audit::dice::Dice;
use crate::geometry::{Hundredths, Point};
use crate::geometry::{
    Rect, are_mutually_protected, bearing, distance_ahead_of_frontage_line, distance_to_rect,
    rect_distance,
};
use crate::rules::ruleset::Event;
use crate::rules::sound_the_charge::events::Kind;
use crate::rules::sound_the_charge::ground::TerrainKind;
use crate::rules::sound_the_charge::mechanics::combat::{
    self as table, CombatCall, CombatResult, CombatSide, Decision,
};
use crate::rules::sound_the_charge::orders::Formation;
use crate::rules::sound_the_charge::state::{State, Unit};
use crate::rules::sound_the_charge::tables::{self, Arm, Nation};
use crate::rules::told::About;

/// Blown Cavalry: "After completing its second round of combat during a
/// game, a cavalry regiment is blown".
const BLOWN_AFTER: u32 = 2;

/// Which face of a unit an enemy touches: the edge most in contact with
/// it, or, when none touches, the bearing from the unit's centre to the
/// enemy's centre.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Face {
    Front,
    Right,
    Rear,
    Left,
}

pub(super) fn face_towards(me: &Rect, other: &Rect) -> Face {
    // The face the other unit touches: the edge of this unit with the most
    // of its length in contact. The bearing between the centres alone would
    // put two units on the front of a long line, one off each end of its
    // centre, on its two flanks, and so on "opposite sides".
    const SAMPLES: i64 = 20;
    let faces = [Face::Front, Face::Right, Face::Rear, Face::Left];
    let mut best: Option<(usize, Face)> = None;
    for ((a, b), face) in me.edges().into_iter().zip(faces) {
        let touching = (0..=SAMPLES)
            .filter(|k| {
                let p = Point {
                    x: a.x + (b.x - a.x) * k / SAMPLES,
                    y: a.y + (b.y - a.y) * k / SAMPLES,
                };
                distance_to_rect(p, other) <= CONTACT
            })
            .count();
        if touching > 0 && best.is_none_or(|(n, _)| touching > n) {
            best = Some((touching, face));
        }
    }
    if let Some((_, face)) = best {
        return face;
    }
    let Some(b) = bearing(me.centre(), other.centre()) else {
        return Face::Front;
    };
    let rel = (b / 100 - i64::from(me.facing)).rem_euclid(360);
    match rel {
        0..=45 | 315..=359 => Face::Front,
        46..=134 => Face::Right,
        135..=225 => Face::Rear,
        _ => Face::Left,
    }
}

/// Flank/rear Attacks: "the charging must begin the turn with one or more
/// of its figures behind the target unit's frontage line". An enemy that
/// charged this turn is judged where it began the turn (ruling STC-76); in a
/// continuing round, where it stands ("The flanked unit counts as under
/// flank/rear attack in continuing combat rounds as well, as long as the
/// flanking unit is in contact"). Squares and troops in town blocks "have no
/// flanks or rear". Mutually Protected Flanks: "flank/rear charges may not
/// be launched against the inner ends of the two units. Such attacks count
/// as frontal attacks."
fn under_flank_attack(
    state: &State,
    table: &Deployment,
    facts: &TurnFacts,
    me: usize,
    enemy: usize,
) -> bool {
    let (Some(r), Some(e)) = (table.index.rects[me], table.index.rects[enemy]) else {
        return false;
    };
    let began = facts
        .start
        .get(&state.units[enemy].id)
        .copied()
        .unwrap_or(e);
    let u = &state.units[me];
    if u.rules.formation == Formation::Square
        || table
            .ground
            .kinds_under(state, &r)
            .into_iter()
            .any(TerrainKind::is_built_up)
    {
        return false;
    }
    let behind = began
        .corners()
        .iter()
        .any(|&c| distance_ahead_of_frontage_line(&r, c) < -CONTACT);
    if !behind {
        return false;
    }
    // The inner end of a mutually protected pair: a friend beside the unit
    // with the flanker touching or within an inch of that friend.
    let protected = table.within(me, 100).into_iter().any(|f| {
        state.units[f].side == u.side
            && matches!(arm_of(&state.units[f]), Arm::Infantry | Arm::Cavalry)
            && table.index.rects[f]
                .is_some_and(|fr| are_mutually_protected(&r, &fr) && rect_distance(&e, &fr) <= 100)
    });
    !protected
}

/// Figures behind one rank of a friend that reinforce it: "If a unit is one
/// rank deep and engaged in an ongoing combat, a friend may charge into the
/// rear of the first unit and fight with its front rank. Cavalry may only
/// reinforce cavalry, and infantry may only reinforce infantry."
fn reinforcing_figures(
    state: &State,
    table: &Deployment,
    me: usize,
    engaged: &BTreeSet<usize>,
) -> (u32, Vec<usize>) {
    let u = &state.units[me];
    let arm = arm_of(u);
    if u.rules.formation != Formation::Line
        || u.rules.ranks > 1
        || !matches!(arm, Arm::Infantry | Arm::Cavalry)
    {
        return (0, Vec::new());
    }
    let Some(r) = table.index.rects[me] else {
        return (0, Vec::new());
    };
    let mut figures = 0;
    let mut who = Vec::new();
    for f in table.within(me, CONTACT) {
        let fu = &state.units[f];
        if fu.side != u.side || engaged.contains(&f) || arm_of(fu) != arm {
            continue;
        }
        let Some(fr) = table.index.rects[f] else {
            continue;
        };
        if face_towards(&r, &fr) != Face::Rear {
            continue;
        }
        let per = if arm == Arm::Cavalry { 3 } else { 4 };
        let front = match fu.rules.formation {
            Formation::Column => fu.strength.min(per),
            Formation::Line => {
                let stands = fu.strength.div_ceil(per);
                fu.strength
                    .min(stands.div_ceil(fu.rules.ranks.clamp(1, stands.max(1))) * per)
            }
            _ => 0,
        };
        figures += front;
        who.push(f);
    }
    (figures, who)
}

/// The figures that give `dice` dice of this unit's arm.
fn figures_for_dice(state: &State, i: usize, dice: u32) -> u32 {
    match arm_of(&state.units[i]) {
        Arm::Infantry => dice * 4,
        Arm::Cavalry if wider_basing(state) => dice * 2,
        Arm::Cavalry => dice * 3,
        _ => dice,
    }
}

fn dice_for_figures(state: &State, i: usize, figures: u32) -> u32 {
    match arm_of(&state.units[i]) {
        Arm::Infantry => tables::infantry_combat_dice(figures),
        Arm::Cavalry if wider_basing(state) => tables::wide_cavalry_combat_dice(figures),
        Arm::Cavalry => tables::cavalry_combat_dice(figures),
        _ => figures,
    }
}

/// One unit as the combat call describes it, against one enemy.
#[allow(clippy::too_many_arguments)]
fn side(
    state: &State,
    table: &Deployment,
    facts: &TurnFacts,
    me: usize,
    enemy: usize,
    figures: u32,
    attacker: bool,
    faces: &BTreeSet<Face>,
) -> CombatSide {
    let u = &state.units[me];
    let r = table.index.rects[me];
    let e = table.index.rects[enemy];
    let cover = match (attacker, r, e) {
        (false, Some(r), Some(e)) => combat_cover(state, &table.ground, &r, &e),
        _ => Cover::Open,
    };
    let cavalry = arm_of(u) == Arm::Cavalry;
    let masse_as_square = masse_as_square(state, table, me, enemy);
    CombatSide {
        figures,
        troop: troop_of(u),
        grade: grade_of(u),
        nation: nation_of(state, &u.side),
        formation: if masse_as_square {
            Some(crate::rules::sound_the_charge::tables::TableFormation::Square)
        } else {
            formation_of(u)
        },
        disordered: u.rules.disordered,
        shaken: u.rules.shaken,
        flank_rear: !masse_as_square && under_flank_attack(state, table, facts, me, enemy),
        opposite_sides: (faces.contains(&Face::Front) && faces.contains(&Face::Rear))
            || (faces.contains(&Face::Left) && faces.contains(&Face::Right)),
        general_attached: general_attached(state, &u.id),
        no_general: !table.in_command(state, me),
        elite: has_mark(u, "elite"),
        blown: cavalry
            && option(state, "blown-cavalry")
            && (u.rules.status.blown || has_mark(u, "blown")),
        stationary: cavalry
            && option(state, "stationary-cavalry")
            && facts.stationary_cavalry.contains(&u.id),
        up_steep_slope: attacker && r.is_some_and(|r| on_steep_slope(state, &table.ground, &r)),
        // Boats: "The defenders on the bank are also treated as if in soft
        // cover" against troops attacking as they disembark.
        soft_cover: cover == Cover::Soft
            || (!attacker && cover == Cover::Open && super::boats::landing(&state.units[enemy])),
        hard_cover: cover == Cover::Hard,
        disordering_terrain: r.is_some_and(|r| in_disordering_terrain(state, &table.ground, &r)),
    }
}

/// Austria: a unit in battalion-masse "is treated as if in square vs.
/// cavalry attacks against its front or flanks. Treat it as a normal column
/// for all other purposes."
fn masse_as_square(state: &State, table: &Deployment, me: usize, enemy: usize) -> bool {
    state.units[me].rules.formation == Formation::Masse
        && arm_of(&state.units[enemy]) == Arm::Cavalry
        && match (table.index.rects[me], table.index.rects[enemy]) {
            (Some(r), Some(e)) => face_towards(&r, &e) != Face::Rear,
            _ => false,
        }
}

/// What one unit's round came to, over all its enemies.
#[derive(Debug, Default)]
struct Tally {
    inflicted: u32,
    suffered: u32,
    /// Decided outright by a pair: overrun, guns held, bounced.
    overrun: bool,
    guns_held_by: Option<usize>,
    bounced_from: Option<usize>,
    guns_overrun: bool,
    /// The general's die the combat call rolled for this unit, if it did
    /// (ruling STC-17).
    general_roll: Option<u32>,
    enemies: Vec<usize>,
    shaken_or_flanked: bool,
    opposite_sides: bool,
}

/// Fights one round of every close combat on the table, applies hits,
/// retreats and rout hits, and sets each unit's `status.in_combat`,
/// `combat_rounds`, `last_combat_turn` and `blown`.
pub fn phase(
    state: &mut State,
    record: &mut TurnRecord,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) {
    let facts = TurnFacts::from_record(state, record);
    events.extend(resolve(state, &facts, dice));
}

/// Enemies in contact, by unit; and the pairs that fight without touching.
type Contacts = BTreeMap<usize, Vec<usize>>;
type Apart = BTreeSet<(usize, usize)>;
/// A unit's figures against one enemy, by (unit, enemy).
type Shares = BTreeMap<(usize, usize), u32>;
/// The friends reinforcing a unit, by unit.
type Reinforced = BTreeMap<usize, Vec<usize>>;

/// The combat phase on a state, with what movement did this turn in
/// `facts`: every pair in contact fights one round, each unit's dice shared
/// among its enemies, then the losers are settled.
pub fn resolve(state: &mut State, facts: &TurnFacts, dice: &mut dyn Dice) -> Vec<Event> {
    let mut events = Vec::new();
    let mut table = Deployment::new(state);
    let (contacts, apart) = contacts(state, &table, facts);
    if contacts.is_empty() {
        return events;
    }
    let (share, reinforced) = dice_shares(state, &table, &contacts);
    tell_reinforcements(state, &reinforced, &mut events);
    let mut tally: BTreeMap<usize, Tally> = BTreeMap::new();
    let mut fought: BTreeSet<(usize, usize)> = BTreeSet::new();
    let fights = Fights {
        contacts: &contacts,
        apart: &apart,
        share: &share,
        facts,
    };
    for (&i, enemies) in &contacts {
        for &j in enemies {
            if fought.insert((i.min(j), i.max(j))) {
                fight_pair(
                    state,
                    &table,
                    &fights,
                    (i, j),
                    &mut tally,
                    dice,
                    &mut events,
                );
            }
        }
    }
    settle(
        state,
        &mut table,
        &contacts,
        &apart,
        &tally,
        dice,
        &mut events,
    );
    super::army_morale::remove_shattered(state, &mut events);
    events
}

/// Guns whose gunners are away from them (they evaded, or left them): no
/// crew is left to fight them ("Gunners abandon their guns when they evade";
/// "A gun model needs two gunners to shoot"), so they fight no combat
/// (STC-49).
fn abandoned(u: &Unit) -> bool {
    arm_of(u) == Arm::Artillery && u.rules.status.gunners_at.is_some()
}

/// Every unit's enemies in contact; and, by Zones of Control, a charger
/// also attacks the unengaged enemies it ended within 1" of, touching or
/// not, as long as they are still that near when the combat is fought
/// (shooting may have driven them off). Those pairs fight without touching.
fn contacts(state: &State, table: &Deployment, facts: &TurnFacts) -> (Contacts, Apart) {
    let mut contacts = Contacts::new();
    for i in 0..state.units.len() {
        if table.index.rects[i].is_none() || !in_play(&state.units[i]) || abandoned(&state.units[i])
        {
            continue;
        }
        let side = &state.units[i].side;
        let enemies: Vec<usize> = table
            .within(i, CONTACT)
            .into_iter()
            .filter(|&j| state.units[j].side != *side && !abandoned(&state.units[j]))
            .collect();
        if !enemies.is_empty() {
            contacts.insert(i, enemies);
        }
    }
    let mut apart = Apart::new();
    for (charger, other) in &facts.also_attacking {
        let (Some(i), Some(j)) = (table.index_of(charger), table.index_of(other)) else {
            continue;
        };
        if !in_play(&state.units[i])
            || !in_play(&state.units[j])
            || !table.within(i, ZONE_OF_CONTROL - 1).contains(&j)
            || abandoned(&state.units[i])
            || abandoned(&state.units[j])
        {
            continue;
        }
        if contacts.get(&i).is_some_and(|l| l.contains(&j)) {
            continue;
        }
        apart.insert((i.min(j), i.max(j)));
        for (me, them) in [(i, j), (j, i)] {
            contacts.entry(me).or_default().push(them);
        }
    }
    (contacts, apart)
}

/// Each unit's figures against each of its enemies, its dice shared out
/// among them; and the friends reinforcing a unit, by unit.
fn dice_shares(state: &State, table: &Deployment, contacts: &Contacts) -> (Shares, Reinforced) {
    let engaged: BTreeSet<usize> = contacts.keys().copied().collect();
    let mut share = Shares::new();
    let mut reinforced = Reinforced::new();
    // Towns: all the figures inside a block fight, and its attackers count
    // all theirs up to 36 a side (12 against a chateau).
    let town_figures = super::town::combat_figures(state, table, contacts);
    for (&i, enemies) in contacts {
        let (extra, who) = reinforcing_figures(state, table, i, &engaged);
        if !who.is_empty() {
            reinforced.insert(i, who);
        }
        let figures = if super::boats::landing(&state.units[i]) {
            // Boats: troops attacking as they disembark "may only strike
            // with one die".
            figures_for_dice(state, i, 1)
        } else {
            town_figures.get(&i).copied().unwrap_or_else(|| {
                let spec = &state.units[i];
                if enemies.iter().any(|&j| masse_as_square(state, table, i, j)) {
                    // Against cavalry the masse fights with a square's
                    // figures (the faces Eligible Figures in Combat counts
                    // for a square, STC-22), not a column's two ranks.
                    let mut square = spec.clone();
                    square.rules.formation = Formation::Square;
                    combat_figures(&square) + extra
                } else {
                    combat_figures(spec) + extra
                }
            })
        };
        if enemies.len() == 1 {
            share.insert((i, enemies[0]), figures);
            continue;
        }
        let total = dice_for_figures(state, i, figures);
        let k = u32::try_from(enemies.len()).unwrap_or(1);
        for (n, &j) in enemies.iter().enumerate() {
            let d = total / k + u32::from((n as u32) < total % k);
            share.insert((i, j), figures_for_dice(state, i, d));
        }
    }
    (share, reinforced)
}

/// Reinforcing a Combat: the friends that fight with a unit, told once.
fn tell_reinforcements(state: &State, reinforced: &Reinforced, events: &mut Vec<Event>) {
    for (i, who) in reinforced {
        let names: Vec<String> = who.iter().map(|&f| state.units[f].name.clone()).collect();
        let ids: Vec<&str> = who.iter().map(|&f| state.units[f].id.as_str()).collect();
        events.push(
            event(
                Kind::Combat,
                &[&state.units[*i].id],
                format!(
                    "{} reinforce {} and fight with their front rank (Reinforcing a Combat).",
                    names.join(", "),
                    state.units[*i].name
                ),
            )
            .also_naming(&ids),
        );
    }
}

/// What every pair's round is fought with.
struct Fights<'a> {
    contacts: &'a Contacts,
    apart: &'a Apart,
    share: &'a Shares,
    facts: &'a TurnFacts,
}

/// One pair's round of close combat, through the umpire call's table, told
/// and tallied.
fn fight_pair(
    state: &State,
    table: &Deployment,
    fights: &Fights,
    (i, j): (usize, usize),
    tally: &mut BTreeMap<usize, Tally>,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) {
    let Fights {
        contacts,
        apart,
        share,
        facts,
    } = *fights;
    let key = (i.min(j), i.max(j));
    let active = &state.active_side;
    // The attacker is the active side's unit, unless it is a
    // square or a battery, which cannot attack: then the combat is
    // one the other unit began on its own turn.
    let (mut a, mut d) = if state.units[i].side == *active {
        (i, j)
    } else {
        (j, i)
    };
    // A masse that fights cavalry as a square cannot attack it
    // either.
    let cannot_attack = |k: usize, other: usize| {
        state.units[k].rules.formation == Formation::Square
            || arm_of(&state.units[k]) == Arm::Artillery
            || masse_as_square(state, table, k, other)
    };
    if cannot_attack(a, d) && !cannot_attack(d, a) {
        std::mem::swap(&mut a, &mut d);
    }
    let aid = state.units[a].id.clone();
    let did = state.units[d].id.clone();
    let continuing = !facts.charged.contains(&aid) || state.units[d].rules.status.in_combat;
    let faces = |me: usize| -> BTreeSet<Face> {
        let Some(r) = table.index.rects[me] else {
            return BTreeSet::new();
        };
        // An enemy fought without touching (Zones of Control) is on
        // no face: restriction 5 is for a unit attacked from two
        // sides, and that enemy attacks none of them.
        contacts[&me]
            .iter()
            .filter(|&&e| !apart.contains(&(me.min(e), me.max(e))))
            .filter_map(|&e| table.index.rects[e].map(|er| face_towards(&r, &er)))
            .collect()
    };
    let call = CombatCall {
        attacker: side(state, table, facts, a, d, share[&(a, d)], true, &faces(a)),
        defender: side(state, table, facts, d, a, share[&(d, a)], false, &faces(d)),
        continuing,
        wider_basing: wider_basing(state),
        // One general's die for a unit's whole round: the call
        // rolls it only when both units fight no one else.
        general_dice: contacts[&a].len() == 1 && contacts[&d].len() == 1,
    };
    let called = match table::resolve(&call, &mut dice.concerning(About::units(&[&aid, &did]))) {
        Ok(c) => c,
        Err(e) => {
            events.push(event(
                Kind::Combat,
                &[&aid, &did],
                format!(
                    "{} and {} do not fight: {e}.",
                    state.units[a].name, state.units[d].name
                ),
            ));
            return;
        }
    };
    record_pair(tally, a, d, &call, &called.result);
    let modifiers = called.report.modifiers();
    let r = &called.result;
    // A unit fighting several enemies wins or loses on all its hits
    // of the round together, so one pair's count of hits does not
    // say who lost; the rout event that follows does. Pairs the call
    // decides outright (overruns, guns, a bounce off a square) keep
    // its words.
    let several = (contacts[&a].len() > 1 || contacts[&d].len() > 1)
        && matches!(
            r.decision,
            Decision::AttackerLost | Decision::DefenderLost | Decision::NeitherLost
        );
    let outcome = if several {
        format!(
            "{} scores {} {} and {} scores {}; who lost is settled on each unit's hits of the whole round, in all its fights (Eligible Figures in Combat: \"If a unit is under attack by multiple enemies, the unit divides its dice as evenly as possible among all enemy units.\").",
            state.units[a].name,
            r.attacker.hits,
            if r.attacker.hits == 1 { "hit" } else { "hits" },
            state.units[d].name,
            r.defender.hits
        )
    } else {
        called.report.outcome.clone()
    };
    events.push(event(
        Kind::Combat,
        &[&aid, &did],
        format!(
            "{} ({} points, {} dice needing {}, rolled {:?}) against {} ({} points, {} dice needing {}, rolled {:?}): {}{}{}",
            state.units[a].name,
            r.attacker.points,
            r.attacker.dice,
            tables::needed_text(r.attacker.needed),
            r.attacker.rolls,
            state.units[d].name,
            r.defender.points,
            r.defender.dice,
            tables::needed_text(r.defender.needed),
            r.defender.rolls,
            outcome,
            if modifiers.is_empty() {
                String::new()
            } else {
                format!(" Modifiers: {}.", modifiers.join("; "))
            },
            if apart.contains(&key) {
                format!(
                    " {} ended its charge within 1\" of {} without touching it and counts as attacking it (Zones of Control): they fight this round only.",
                    state.units[a].name, state.units[d].name
                )
            } else {
                String::new()
            }
        ),
    ));
}

/// Adds one pair's result to both units' tallies.
fn record_pair(
    tally: &mut BTreeMap<usize, Tally>,
    a: usize,
    d: usize,
    call: &CombatCall,
    r: &CombatResult,
) {
    let at = tally.entry(a).or_default();
    at.inflicted += r.attacker.hits;
    at.suffered += r.attacker.hits_suffered;
    at.enemies.push(d);
    at.shaken_or_flanked |= call.attacker.shaken || call.attacker.flank_rear;
    at.opposite_sides |= call.attacker.opposite_sides;
    at.general_roll = at.general_roll.or(r.attacker.general_roll);
    match r.decision {
        Decision::GunsHeld => at.guns_held_by = Some(d),
        Decision::BouncedOffSquare => at.bounced_from = Some(d),
        _ => {}
    }
    let dt = tally.entry(d).or_default();
    dt.inflicted += r.defender.hits;
    dt.suffered += r.defender.hits_suffered;
    dt.enemies.push(a);
    dt.shaken_or_flanked |= call.defender.shaken || call.defender.flank_rear;
    dt.opposite_sides |= call.defender.opposite_sides;
    dt.general_roll = dt.general_roll.or(r.defender.general_roll);
    match r.decision {
        Decision::SkirmishersOverrun => dt.overrun = true,
        Decision::GunsOverrun => dt.guns_overrun = true,
        _ => {}
    }
}

/// "If a unit suffers more hits than it inflicts in a given round of
/// combat, it has lost"; Russia: "Russian infantry does not lose a round of
/// combat unless it suffers at least two more hits than it inflicted."
fn lost(state: &State, i: usize, t: &Tally) -> bool {
    let u = &state.units[i];
    if nation_of(state, &u.side) == Some(Nation::Russia) && arm_of(u) == Arm::Infantry {
        t.suffered >= t.inflicted + 2
    } else {
        t.suffered > t.inflicted
    }
}

/// The centre of a set of units, the cause of a retreat from several.
fn centre_of(table: &Deployment, units: &[usize]) -> Option<Point> {
    let pts: Vec<Point> = units
        .iter()
        .filter_map(|&j| table.index.rects[j].map(|r| r.centre()))
        .collect();
    let k = i64::try_from(pts.len()).ok().filter(|&k| k > 0)?;
    Some(Point {
        x: pts.iter().map(|p| p.x).sum::<i64>() / k,
        y: pts.iter().map(|p| p.y).sum::<i64>() / k,
    })
}

/// Applies every unit's round: hits, disorder (winners', and every unit's
/// that suffered hits), the loser's rout hits and retreat, overruns and
/// bounces; then the combat status.
fn settle(
    state: &mut State,
    table: &mut Deployment,
    contacts: &Contacts,
    apart: &Apart,
    tally: &BTreeMap<usize, Tally>,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) {
    let mut retreats: Vec<(usize, Cause, Hundredths)> = Vec::new();
    let mut landed_lost: Vec<usize> = Vec::new();
    // Units removed by the round itself, with the reason.
    let mut removals: Vec<(usize, String)> = Vec::new();
    for (&i, t) in tally {
        match settle_unit(state, table, i, t, tally, dice, events) {
            Settled::Removed(why) => removals.push((i, why)),
            Settled::Retreats {
                cause,
                distance,
                landed,
            } => {
                if landed {
                    landed_lost.push(i);
                }
                if let Some(c) = cause {
                    retreats.push((i, c, distance));
                }
            }
            Settled::Stands => {}
        }
    }
    for (i, why) in removals {
        let id = state.units[i].id.clone();
        eliminate(
            state,
            table,
            i,
            (Kind::EliminatedInCombat, &[&id], &[]),
            &why,
            events,
        );
    }
    let before = carry_out_retreats(state, table, retreats, tally, events);
    follow_ups(state, table, tally, apart, &before, dice, events);
    super::boats::after_combat(state, &table.ground, &landed_lost);
    next_turn_status(state, table, contacts, events);
}

/// What the round left a unit to do.
enum Settled {
    /// Out of play, with the reason.
    Removed(String),
    /// A retreat move from its enemies (where they could be found), and
    /// whether it was landing from boats.
    Retreats {
        cause: Option<Cause>,
        distance: Hundredths,
        landed: bool,
    },
    /// It holds its ground, disordered or not.
    Stands,
}

/// One unit's round: the general's die, overruns, hits, disorder, and what
/// losing, bouncing off a square or winning does to it.
fn settle_unit(
    state: &mut State,
    table: &Deployment,
    i: usize,
    t: &Tally,
    tally: &BTreeMap<usize, Tally>,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) -> Settled {
    let id = state.units[i].id.clone();
    // The die the combat call rolled stands whatever became of the unit
    // (crews overrun count the hits scored against them, ruling STC-17).
    if let Some(roll) = t.general_roll {
        let attached = state
            .generals
            .iter()
            .position(|g| g.lost.is_none() && g.attached_to.as_deref() == Some(id.as_str()));
        if let Some(n) = attached {
            super::shooting::general_rolled(state, n, i, t.suffered, true, roll, events);
        }
    }
    if t.overrun {
        return Settled::Removed("overrun: \"Skirmishers in the open are unable to face attacks by close-order troops; if they cannot evade the enemy charge they are overrun and eliminated.\" (Skirmishers in Combat)".to_string());
    }
    if t.guns_overrun {
        return Settled::Removed("the gun crews are eliminated: \"if the troops charging the guns win that round of combat, they suffer whatever hits were inflicted, but eliminate the gun crews.\" (Artillery in Combat)".to_string());
    }
    apply_hits(&mut state.units[i], t.suffered);
    if t.general_roll.is_none() {
        super::shooting::general_risk(state, i, t.suffered, true, dice, events);
    }
    let loses = t.guns_held_by.is_some() || (!is_guns_pairing(state, t) && lost(state, i, t));
    if loses && t.opposite_sides {
        return Settled::Removed("Retreat Moves, restriction 5: \"If a unit is under attack from two opposite sides, and it loses the close combat round, it cannot retreat and is eliminated.\"".to_string());
    }
    // Steadiness and Disorder, as the umpire call settles it for a pair:
    // winners, and every unit that suffered hits that round, the loser
    // too ("After one round of close combat, if the unit suffers any hits
    // that round"). A unit with several enemies won if one of them lost.
    let won = t.enemies.iter().any(|e| {
        tally.get(e).is_some_and(|et| {
            et.overrun || et.guns_overrun || et.guns_held_by.is_some() || lost(state, *e, et)
        })
    });
    if table::disordered_by_round(arm_of(&state.units[i]), won, t.suffered) {
        state.units[i].rules.disordered = true;
    }
    if loses {
        return lose_round(state, table, i, t, events);
    }
    if let Some(sq) = t.bounced_from {
        // Cavalry Bouncing off Squares: "the cavalry unit must still
        // make a retreat move of at least four inches. The cavalry unit
        // is disordered but not shaken."
        state.units[i].rules.disordered = true;
        return Settled::Retreats {
            cause: table.index.rects[sq].map(|r| Cause::Unit(r, state.units[sq].id.clone())),
            distance: Hundredths::from(tables::BOUNCE_OFF_SQUARE_INCHES) * 100,
            landed: false,
        };
    }
    Settled::Stands
}

/// Combat Results to Loser: shaken, rout hits (double for infantry losing
/// to cavalry, one less with wider cavalry basing), a regimental gun
/// abandoned, and a retreat from the enemy (in its boats, for troops
/// landing).
fn lose_round(
    state: &mut State,
    table: &Deployment,
    i: usize,
    t: &Tally,
    events: &mut Vec<Event>,
) -> Settled {
    let id = state.units[i].id.clone();
    let name = state.units[i].name.clone();
    let u = &state.units[i];
    let is_infantry = arm_of(u) == Arm::Infantry;
    let wide_cav = wider_basing(state) && arm_of(u) == Arm::Cavalry;
    let (inches, listed) = tables::combat_loser(u.rules.shaken || t.shaken_or_flanked);
    let cavalry_enemy = t
        .enemies
        .iter()
        .any(|&e| arm_of(&state.units[e]) == Arm::Cavalry);
    let mut rout = listed;
    let mut why = format!(
        "Combat Results to Loser: {}retreats {inches} inches, becomes shaken, and suffers {listed} rout hits",
        if u.rules.shaken || t.shaken_or_flanked {
            "already shaken, or under flank/rear attack: "
        } else {
            ""
        }
    );
    if is_infantry && cavalry_enemy {
        rout *= 2;
        why.push_str(&format!(
            "; \"Infantry losing to cavalry suffers double rout hits\": {rout}"
        ));
    }
    if wide_cav {
        rout = tables::wide_cavalry_rout_hits(rout);
        why.push_str(&format!("; Wider Cavalry Basing, one less: {rout}"));
    }
    let u = &mut state.units[i];
    u.rules.shaken = true;
    apply_rout_hits(u, rout);
    events.push(event(
        Kind::Rout,
        &[&id],
        format!(
            "{name} lost the round ({} hits suffered against {} inflicted) and suffers {rout} rout {} ({why}).",
            t.suffered,
            t.inflicted,
            if rout == 1 { "hit" } else { "hits" }
        ),
    ));
    let cause = if t.enemies.len() == 1 {
        let e = t.enemies[0];
        table.index.rects[e].map(|r| Cause::Unit(r, state.units[e].id.clone()))
    } else {
        centre_of(table, &t.enemies).map(Cause::Point)
    };
    // Boats: "If the disembarking troops lose the combat, they must
    // retreat one move in their boats."
    let landed = super::boats::landing(&state.units[i]);
    let distance = if landed {
        super::boats::BOAT_MOVE
    } else {
        Hundredths::from(inches) * 100
    };
    // Regimental Guns: "If the infantry unit loses a round of combat
    // and must retreat, it must abandon the gun."
    if super::fighting::regimental_gun(state, i) {
        state.units[i].rules.status.regimental_gun_lost =
            Some("abandoned when the battalion lost a round of combat".to_string());
        events.push(event(
            Kind::GunAbandoned,
            &[&id],
            format!("{name} must retreat and abandons its regimental gun (Regimental Guns: \"If the infantry unit loses a round of combat and must retreat, it must abandon the gun.\")."),
        ));
    }
    Settled::Retreats {
        cause,
        distance,
        landed,
    }
}

/// Every retreat of the round, in order; returns where each retreating unit
/// stood before it retreated, with the figures it had left, for cavalry
/// that follows it up.
fn carry_out_retreats(
    state: &mut State,
    table: &mut Deployment,
    retreats: Vec<(usize, Cause, Hundredths)>,
    tally: &BTreeMap<usize, Tally>,
    events: &mut Vec<Event>,
) -> BTreeMap<usize, Rect> {
    let before: BTreeMap<usize, Rect> = retreats
        .iter()
        .filter_map(|(i, _, _)| {
            crate::rules::sound_the_charge::basing::footprint(&state.units[*i]).map(|r| (*i, r))
        })
        .collect();
    for (i, cause, d) in retreats {
        if state.units[i].eliminated.is_some() {
            continue;
        }
        let bounced = tally.get(&i).is_some_and(|t| t.bounced_from.is_some());
        let was_shaken = state.units[i].rules.shaken;
        let outcome = retreat_in(state, table, i, cause, d, events);
        if bounced && matches!(outcome, RetreatOutcome::Retreated { .. }) {
            state.units[i].rules.shaken = was_shaken;
            // "The cavalry unit is disordered but not shaken": the retreat's
            // words say so too.
            let id = &state.units[i].id;
            if !was_shaken
                && let Some(e) = events
                    .iter_mut()
                    .rev()
                    .find(|e| e.kind == "retreat" && e.units.first() == Some(id))
            {
                e.text = e.text.replace(
                    ", shaken, facing the enemy.",
                    ", disordered but not shaken (Cavalry Bouncing off Squares), facing the enemy.",
                );
            }
        }
    }
    before
}

/// Britain, Portugal: cavalry that won follows up the first enemy it fought
/// that retreated from it (not one that bounced off a square, nor one
/// fought at an inch, STC-94).
fn follow_ups(
    state: &mut State,
    table: &mut Deployment,
    tally: &BTreeMap<usize, Tally>,
    apart: &Apart,
    before: &BTreeMap<usize, Rect>,
    dice: &mut dyn Dice,
    events: &mut Vec<Event>,
) {
    for (&i, t) in tally {
        if !super::pursuit::follows_up(state, i)
            || t.bounced_from.is_some()
            || before.contains_key(&i)
        {
            continue;
        }
        let won = t.enemies.iter().copied().find(|&e| {
            before.contains_key(&e)
                && !apart.contains(&(i.min(e), i.max(e)))
                && tally.get(&e).is_some_and(|et| et.bounced_from.is_none())
        });
        if let Some(e) = won {
            super::pursuit::follow_up(state, table, i, e, before[&e], dice, events);
        }
    }
}

/// The combat status the next turn reads: rounds fought (and cavalry blown
/// after its second), and who is still in contact.
fn next_turn_status(
    state: &mut State,
    table: &Deployment,
    contacts: &Contacts,
    events: &mut Vec<Event>,
) {
    let turn = state.turn;
    let blown_rule = option(state, "blown-cavalry");
    for &i in contacts.keys() {
        let u = &mut state.units[i];
        if u.eliminated.is_some() {
            continue;
        }
        u.rules.status.combat_rounds += 1;
        u.rules.status.last_combat_turn = turn;
        if blown_rule
            && arm_of(u) == Arm::Cavalry
            && u.rules.status.combat_rounds >= BLOWN_AFTER
            && !u.rules.status.blown
        {
            u.rules.status.blown = true;
            let (id, name) = (u.id.clone(), u.name.clone());
            events.push(event(
                Kind::Combat,
                &[&id],
                format!("{name} is blown (Blown Cavalry: \"After completing its second round of combat during a game, a cavalry regiment is blown\")."),
            ));
        }
    }
    for i in 0..state.units.len() {
        let side = state.units[i].side.clone();
        let still = in_play(&state.units[i])
            && table
                .within(i, CONTACT)
                .into_iter()
                .any(|j| state.units[j].side != side);
        state.units[i].rules.status.in_combat = still;
    }
}

/// Whether the unit's only fights were against or as a battery decided all
/// or nothing (its loss is decided by the pair, not by the count).
fn is_guns_pairing(state: &State, t: &Tally) -> bool {
    t.enemies
        .iter()
        .all(|&e| arm_of(&state.units[e]) == Arm::Artillery)
        && !t.enemies.is_empty()
}

#[cfg(test)]
mod tests;
