//! One fire attack made in a phase: the ammunition marked off (11.15 step
//! 2), the routine, its effect on the table, the attack counted for the
//! x2/3 of repeated fire (11.87); and the morale checks called for once all
//! fire against a unit is done (11.72, 11.88).

use crate::audit::dice::Dice;
use crate::rules::percentile_fire::events::Kind;
use crate::rules::percentile_fire::field::Table;
use crate::rules::percentile_fire::field::eligible::Plan;
use crate::rules::percentile_fire::mechanics::fire::effect;
use crate::rules::percentile_fire::mechanics::fire::factors::Occasion;
use crate::rules::percentile_fire::mechanics::fire::routine;
use crate::rules::percentile_fire::state::{Arm, State};
use crate::rules::percentile_fire::umpire::readings;
use crate::rules::ruleset::Event;
use crate::rules::umpire::Trace;

/// Makes a planned fire attack of `firer` and applies it; the units it
/// reduced are added to `reduced`.
pub fn make(
    state: &mut State,
    table: &mut Table,
    dice: &mut dyn Dice,
    plan: &Plan,
    firer: &str,
    occasion: Occasion,
    reduced: &mut Vec<String>,
) -> Event {
    // "Mark off the ammunition used on the roster" (step 2).
    if let Some(u) = state.units.iter_mut().find(|u| u.id == firer)
        && let Some(rounds) = u.rules.ammunition.as_mut()
        && let Some(n) = rounds.get_mut(&plan.shot)
    {
        *n = n.saturating_sub(1);
    }
    let (r, _) = readings(state);
    let mut trace = Trace::default();
    let result = match routine::resolve(&plan.attack, &state.params, r, dice, &mut trace) {
        Ok(result) => result,
        Err(gap) => {
            return Event::of(
                Kind::FireRefused,
                &[firer, plan.target.as_str()],
                format!("{firer} cannot fire at {}: {}.", plan.target, gap.0),
            );
        }
    };
    let applied = effect::apply(state, table, &plan.target, &result);
    for id in &applied.reduced {
        if !reduced.contains(id) {
            reduced.push(id.clone());
        }
    }
    // Counted for repeated fire, the converged screens with it.
    let turn = state.turn;
    let target_is_battery = table
        .unit(state, &plan.target)
        .is_some_and(|t| t.rules.arm == Arm::Artillery);
    let mut marker_met = None;
    for u in state
        .units
        .iter_mut()
        .filter(|u| u.id == firer || plan.converged.contains(&u.id))
    {
        u.rules.fire_attacks += 1;
        if occasion == Occasion::Passby {
            u.rules.passby_fired.insert(plan.target.clone(), turn);
        }
        // "Remain unlimbered and Fire attack at any enemy artillery battery
        // when the artillery battery conducts it's next Fire attack"
        // (11.76a, 11.77a).
        if u.id == firer && target_is_battery && u.rules.counterbattery.take().is_some() {
            u.rules.counterbattery_since = 0;
            marker_met = Some(u.name.clone());
        }
    }
    let mut notes: Vec<String> = plan.attack.notes.iter().skip(1).cloned().collect();
    if let Some(name) = marker_met {
        notes.push(format!(
            "{name} has fired on enemy artillery: its counterbattery marker is removed (11.76a, 11.77a)"
        ));
    }
    // Losses shrink footprints.
    let touched: Vec<String> = state
        .units
        .iter()
        .filter(|u| {
            u.id == plan.target || u.rules.in_square.as_deref() == Some(plan.target.as_str())
        })
        .map(|u| u.id.clone())
        .collect();
    for id in touched {
        table.update(state, &id);
    }
    effect::event(
        state,
        occasion,
        firer,
        &plan.target,
        &result,
        &applied,
        &notes,
    )
    .also_naming(&plan.naming)
}

/// The morale checks the losses call for, once all fire against each unit
/// is done: "All Opportunity Fire, Passby Fire, defensive Supportive Fire,
/// final Shock Combat Fire and multiple Fire attacks against a target unit
/// are completed before the target unit takes any required morale checks"
/// (11.88). The check itself (15.0) lies outside the chapter: the GM takes
/// it and sets the unit's morale by a correction (ruling PF-2).
pub fn morale_checks(state: &State, reduced: &[String]) -> Vec<Event> {
    reduced
        .iter()
        .filter_map(|id| state.unit(id))
        .filter(|u| u.eliminated.is_none())
        .map(|u| {
            Event::of(
                Kind::MoraleCheck,
                &[u.id.as_str()],
                format!(
                    "{} must take a morale check for its losses (11.72), its fire all done (11.88); the check lies outside this chapter: the GM takes it.",
                    u.name
                ),
            )
        })
        .collect()
}
