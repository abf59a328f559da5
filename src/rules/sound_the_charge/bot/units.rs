//! Each unit's part of the plan (see the module above): what it may reach,
//! whom it would rather fight, and the lines that get it there.

use super::odds::{charge_odds, worth_charging};
use super::paths;
use super::planner::Planner;
use crate::geometry::{
    self, Hundredths, Point, Rect, any_part_behind_frontage_line, is_sight_blocked_by_lines,
    rect_distance, rect_is_in_arc, segment_touches_rect,
};
use crate::rules::sound_the_charge::field::Field;
use crate::rules::sound_the_charge::orders::Formation;
use crate::rules::sound_the_charge::state::TroopType;
use crate::rules::sound_the_charge::tables::Arm;
use crate::rules::sound_the_charge::turn::fighting::{nation_of, option, regimental_gun};
use crate::rules::sound_the_charge::turn::movement::{coord, rates};
use crate::rules::sound_the_charge::turn::rally::enemy_can_charge;

/// The farthest any unit of the Movement Table reaches in one turn with its
/// charge bonus (light cavalry in column, 10" and 4").
pub const LONGEST_REACH: Hundredths = 1400;

/// Zones of Control: "You may not move a unit within 1" of an enemy unit
/// unless it is charging that unit." An advance stops a little beyond.
const STAND_OFF: Hundredths = 110;

/// Musketry: "Musketry 2 / 4".
const MUSKET_RANGE: Hundredths = 400;
const MUSKET_CLOSE: Hundredths = 200;

/// Infantry columns deploy into line within this distance of the enemy, in
/// time to fire and to meet a charge with defensive fire ("units in column
/// [...] get no defensive fire").
const DEPLOY_INFANTRY: Hundredths = 800;

/// Cavalry columns deploy into line within this distance: a line fights
/// with more figures in its first two ranks.
const DEPLOY_CAVALRY: Hundredths = 1600;

/// A disordered unit this near the enemy stands to reform before it is
/// charged; farther off it keeps marching.
const REFORM_WITHIN: Hundredths = 1200;

/// Gun ranges (far) of the Shooting Table, by troop type; horse guns are
/// read as light guns (ruling STC-61).
fn gun_range(troop_type: TroopType) -> Hundredths {
    match troop_type {
        TroopType::LightGuns | TroopType::HorseGuns => 1200,
        TroopType::FieldGuns => 2000,
        TroopType::HeavyGuns => 2400,
        _ => 0,
    }
}

/// What the plan needs to know of one unit, read off the side's view.
struct Unit {
    i: usize,
    id: String,
    rect: Rect,
    arm: Arm,
    formation: Formation,
    /// Its move this turn (half out of command: "A unit that begins the
    /// movement phase outside of CR moves at half speed that phase").
    allowance: Hundredths,
    /// Its charge bonus this turn (none when blown, half out of command:
    /// ruling STC-48).
    bonus: Hundredths,
}

impl Unit {
    fn read(field: &Field, id: &str) -> Option<Unit> {
        let i = field.index(id)?;
        let u = field.unit(i);
        let rect = field.rect(i)?;
        let r = rates(u.rules.troop_type, nation_of(field.state, &u.side))?;
        // A column with its regimental gun keeps to the gun's line speed.
        let column = matches!(u.rules.formation, Formation::Column | Formation::Limbered)
            && !regimental_gun(field.state, i);
        let mut allowance = if column { r.column } else { r.line };
        let blown = option(field.state, "blown-cavalry") && u.rules.status.blown;
        let mut bonus = if blown { 0 } else { r.charge.unwrap_or(0) };
        if !field.in_command(i) {
            allowance /= 2;
            bonus /= 2;
        }
        Some(Unit {
            i,
            id: id.to_string(),
            rect,
            arm: u.rules.troop_type.arm(),
            formation: u.rules.formation,
            allowance,
            bonus,
        })
    }
}

/// An enemy as the plan weighs it.
struct Enemy {
    i: usize,
    id: String,
    rect: Rect,
    distance: Hundredths,
    /// The combat points the unit would have over it, charging now.
    odds: i32,
    /// Already fighting one of the side's units.
    engaged: bool,
}

/// Every enemy the side sees, nearest first, weighed for unit `me`.
fn enemies(field: &Field, me: &Unit) -> Vec<Enemy> {
    let attacker = field.unit(me.i);
    let mut out: Vec<Enemy> = field
        .enemies_of(&attacker.side)
        .filter_map(|j| {
            let rect = field.rect(j)?;
            let defender = field.unit(j);
            let flank = any_part_behind_frontage_line(&rect, &me.rect);
            Some(Enemy {
                i: j,
                id: defender.id.clone(),
                rect,
                distance: rect_distance(&me.rect, &rect),
                odds: charge_odds(field.state, attacker, defender, flank),
                engaged: field.is_engaged(j),
            })
        })
        .collect();
    out.sort_by_key(|e| (e.distance, e.i));
    out
}

/// A unit held in a combat holds: "Units in a continuing close combat may
/// not move."
pub fn if_engaged(p: &mut Planner, id: &str) {
    let field = Field::new(&p.seen);
    if field.index(id).is_some_and(|i| field.is_engaged(i)) {
        p.give(id, &[format!("{id}: hold")]);
    }
}

/// Charge when in reach: the enemy with the best odds the unit can reach,
/// those fighting a friend first; straight ahead with the charge bonus, or
/// wheeling or obliquing into contact without it (Charging, rule 3).
pub fn charge_in_reach(p: &mut Planner, id: &str) {
    let candidates: Vec<String> = {
        let field = Field::new(&p.seen);
        let Some(me) = Unit::read(&field, id) else {
            return;
        };
        let u = field.unit(me.i);
        // "Gunners and shaken units may not charge"; skirmishers may charge
        // only guns and skirmishers, which the bot leaves to its lines.
        if u.rules.shaken || me.arm == Arm::Artillery || me.formation == Formation::Skirmish {
            return;
        }
        if matches!(
            me.formation,
            Formation::Square
                | Formation::LLeft
                | Formation::LRight
                | Formation::U
                | Formation::Masse
        ) {
            return;
        }
        let mut targets: Vec<Enemy> = enemies(&field, &me)
            .into_iter()
            .filter(|e| e.distance <= me.allowance + me.bonus)
            .filter(|e| worth_charging(u, field.unit(e.i), e.odds))
            .collect();
        targets.sort_by_key(|e| (!e.engaged, -e.odds, e.distance, e.i));
        targets
            .iter()
            .take(3)
            .flat_map(|e| {
                [
                    "",
                    " wheel left",
                    " wheel right",
                    " oblique left",
                    " oblique right",
                ]
                .map(|how| format!("{id}: charge {}{how}", e.id))
            })
            .collect()
    };
    for line in candidates {
        if p.try_charge(id, &line) {
            return;
        }
    }
}

/// The rest of the plan for a unit that did not charge.
pub fn plan(p: &mut Planner, id: &str) {
    let field = Field::new(&p.seen);
    let Some(me) = Unit::read(&field, id) else {
        return;
    };
    let u = field.unit(me.i);
    let foes = enemies(&field, &me);
    let shaken = u.rules.shaken;
    let disordered = u.rules.disordered;
    let threatened = enemy_can_charge(&field, me.i);
    drop(field);
    if shaken {
        return rally(p, &me, threatened);
    }
    if disordered && foes.first().is_some_and(|e| e.distance <= REFORM_WITHIN) {
        // "A unit must stand for one active turn to reform from disorder":
        // better now than while charged.
        return p.give(id, &[format!("{id}: reform")]);
    }
    match (me.arm, me.formation) {
        (Arm::Artillery, _) => guns(p, &me, &foes),
        (_, Formation::Skirmish) => skirmishers(p, &me, &foes),
        _ => close_order(p, &me, &foes),
    }
}

/// Rally: a shaken unit "must pass a rally test to return to good morale",
/// at 3 worse with "visible enemies able to charge the unit": it backs away
/// out of their reach ("It is vital to maintain a reserve line [...] behind
/// which retreating units can rally up"), facing them still.
fn rally(p: &mut Planner, me: &Unit, threatened: bool) {
    let id = &me.id;
    if threatened && me.arm != Arm::Artillery && me.formation != Formation::Square {
        // "Oblique, sidestep, and backstep moves are done at half speed."
        let mut d = me.allowance / 2;
        while d >= 50 {
            if p.try_move(id, &[format!("{id}: backstep {}", coord(d))]) {
                return;
            }
            d /= 2;
        }
    }
    p.give(id, &[format!("{id}: hold")]);
}

/// Whether the line from `from` to the target's centre is clear of every
/// other unit on the side's view (infantry may not fire through any, and
/// guns not through a unit as high as they stand: Overhead Fire) and of
/// crest lines (Gentle Hill Slopes: "block sighting past their
/// crestlines").
fn clear_line(field: &Field, from: Point, me: usize, target: &Enemy) -> bool {
    let to = target.rect.centre();
    !is_sight_blocked_by_lines(from, to, field.ground().crests())
        && !field
            .on_table()
            .filter(|&k| k != me && k != target.i)
            .filter_map(|k| field.rect(k))
            .any(|r| segment_touches_rect(from, to, &r))
}

/// The first enemy, nearest first, that the unit could shoot at from where
/// it stands: within `range`, in its arc of fire ("The arc of fire is 45°
/// to either side"), not locked in a combat (Firing into a Close Combat),
/// and with a clear line.
fn target_in_range<'e>(
    p: &Planner,
    me: &Unit,
    foes: &'e [Enemy],
    range: Hundredths,
) -> Option<&'e Enemy> {
    let field = Field::new(&p.seen);
    foes.iter()
        .filter(|e| e.distance <= range && !e.engaged)
        .find(|e| {
            rect_is_in_arc(me.rect.front_centre, me.rect.facing, 45, &e.rect)
                && clear_line(&field, me.rect.front_centre, me.i, e)
        })
}

/// Guns: unlimbered, they shoot what is in range, turn to face what is out
/// of their arc, and limber to follow an enemy out of range; limbered, they
/// unlimber and fire once within three quarters of their range, and come on
/// otherwise.
fn guns(p: &mut Planner, me: &Unit, foes: &[Enemy]) {
    let id = &me.id;
    let range = gun_range(p.seen.units[me.i].rules.troop_type);
    if me.formation == Formation::Unlimbered {
        if let Some(t) = target_in_range(p, me, foes, range) {
            return p.give(id, &[format!("{id}: shoot {}", t.id)]);
        }
        if let Some(t) = foes.iter().find(|e| e.distance <= range && !e.engaged) {
            // "Manhandled guns may move and face freely in any direction."
            let at = me.rect.front_centre;
            let line = format!(
                "{id}: manhandle to {},{} facing {}",
                coord(at.x),
                coord(at.y),
                t.id
            );
            if p.try_move(id, &[line]) {
                return;
            }
        }
        let out_of_range = foes.first().is_none_or(|e| e.distance > range);
        if !(out_of_range && p.try_move(id, &[format!("{id}: limber")])) {
            p.give(id, &[format!("{id}: hold")]);
        }
        return;
    }
    if foes.first().is_some_and(|e| e.distance <= range * 3 / 4)
        && p.try_move(id, &[format!("{id}: unlimber")])
    {
        // Unlimbering is not moving (ruling STC-74): the guns fire at once,
        // at what their front now covers.
        let me = Unit::read(&Field::new(&p.seen), id);
        if let Some(t) = me
            .as_ref()
            .and_then(|me| target_in_range(p, me, foes, range))
        {
            let line = format!("{id}: shoot {}", t.id);
            p.give(id, &[line]);
        }
        return;
    }
    if !advance(p, me, foes.first(), range * 2 / 3) {
        p.give(id, &[format!("{id}: hold")]);
    }
}

/// Skirmishers close to 3" of the nearest enemy and shoot once in range.
fn skirmishers(p: &mut Planner, me: &Unit, foes: &[Enemy]) {
    let id = &me.id;
    if let Some(t) = target_in_range(p, me, foes, MUSKET_RANGE) {
        return p.give(id, &[format!("{id}: shoot {}", t.id)]);
    }
    let Some(t) = foes.first() else {
        if !advance(p, me, None, 0) {
            p.give(id, &[format!("{id}: hold")]);
        }
        return;
    };
    // "Skirmishing figures may move and face freely in any direction": a
    // free move to 3" short of the enemy, facing it.
    let from = me.rect.front_centre;
    let to = t.rect.centre();
    let d = geometry::distance(from, to).max(1);
    let mut step = (d - 300 - t.rect.depth).clamp(0, me.allowance);
    while step >= 50 {
        let at = Point {
            x: from.x + (to.x - from.x) * step / d,
            y: from.y + (to.y - from.y) * step / d,
        };
        let line = format!(
            "{id}: move to {},{} facing {}",
            coord(at.x),
            coord(at.y),
            t.id
        );
        if p.try_move(id, &[line]) {
            return;
        }
        step = step * 2 / 3;
    }
    p.give(id, &[format!("{id}: hold")]);
}

/// Infantry and cavalry that did not charge: a square or folded line
/// forms column to move again, infantry lines fire at what is in musket
/// range, columns deploy into line near the enemy, and the rest advance
/// on the enemy they can best fight.
fn close_order(p: &mut Planner, me: &Unit, foes: &[Enemy]) {
    let id = &me.id;
    if matches!(
        me.formation,
        Formation::Square | Formation::LLeft | Formation::LRight | Formation::U | Formation::Masse
    ) {
        // "Squares may not move"; an "L" or "U" "may not move until it does
        // another formation change".
        return p.give(id, &[format!("{id}: form column")]);
    }
    let nearest = foes.first().map_or(Hundredths::MAX, |e| e.distance);
    let line_infantry = me.arm == Arm::Infantry && me.formation == Formation::Line;
    // A line fires at close range ("Musketry 2 / 4": 3-6 to hit there, 5-6
    // beyond); farther off it closes first, and fires at long range only
    // if it cannot.
    if line_infantry && let Some(t) = target_in_range(p, me, foes, MUSKET_CLOSE) {
        return p.give(id, &[format!("{id}: shoot {}", t.id)]);
    }
    let deploy = match me.arm {
        Arm::Cavalry => DEPLOY_CAVALRY,
        _ => DEPLOY_INFANTRY,
    };
    if me.formation == Formation::Column && nearest <= deploy {
        let form = format!("{id}: form line");
        if p.try_move(id, std::slice::from_ref(&form)) {
            return;
        }
    }
    // The best objective first; if no way toward it is open, the next.
    let advanced = objectives(foes)
        .into_iter()
        .take(2)
        .any(|t| advance(p, me, Some(t), STAND_OFF));
    if !advanced {
        let far = line_infantry
            .then(|| target_in_range(p, me, foes, MUSKET_RANGE))
            .flatten();
        let line = match far {
            Some(t) => format!("{id}: shoot {}", t.id),
            None => format!("{id}: hold"),
        };
        p.give(id, &[line]);
    }
}

/// The enemies to close on, best first: the nearest once the odds are
/// counted, an enemy at bad odds weighing as if 4" farther for each point
/// against, one already fighting a friend as if 3" nearer (support).
fn objectives(foes: &[Enemy]) -> Vec<&Enemy> {
    let mut out: Vec<&Enemy> = foes.iter().collect();
    out.sort_by_key(|e| {
        let against = 400 * i64::from((-e.odds).max(0));
        let support = if e.engaged { 300 } else { 0 };
        (e.distance + against - support, e.i)
    });
    out
}

/// Advance to contact: the way that brings the unit nearest to standing
/// `short` of the objective (`paths`), tried as the phase would carry it
/// out, the next way if not. With nothing in sight, straight on. Whether
/// it found a way.
fn advance(p: &mut Planner, me: &Unit, objective: Option<&Enemy>, short: Hundredths) -> bool {
    let id = &me.id;
    let lines: Vec<String> = match objective {
        Some(t) => {
            let field = Field::new(&p.seen);
            paths::ways_toward(&field, me.i, me.allowance, &t.rect, short)
                .iter()
                .map(|w| w.line(id))
                .collect()
        }
        None => [me.allowance, me.allowance / 2]
            .into_iter()
            .filter(|&d| d >= 25)
            .map(|d| format!("{id}: forward {}", coord(d)))
            .collect(),
    };
    lines
        .into_iter()
        .take(3)
        .any(|line| p.try_move(id, &[line]))
}
