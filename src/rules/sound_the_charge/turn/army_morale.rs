//! Shattered units and the optional rule Army Morale.

use super::fighting::{arm_of, event, option};
use crate::audit::dice::Dice;
use crate::rules::phrase::Phrase;
use crate::rules::ruleset::Event;
use crate::rules::sound_the_charge::events::Kind;
use crate::rules::sound_the_charge::state::{State, Unit};
use crate::rules::sound_the_charge::tables::Arm;

/// The optional rule's name in `state.options`.
pub const ARMY_MORALE: &str = "army-morale";

/// Shattered Units: "A unit reduced to one quarter of its original strength
/// is "shattered" and removed from play at the end of the current phase."
/// Ruling STC-64: at or below a quarter; a battery counts its gunners
/// against full crews of two a model, and is gone when no gunner is left.
pub fn is_shattered(u: &Unit) -> bool {
    if u.eliminated.is_some() {
        return false;
    }
    if arm_of(u) == Arm::Artillery {
        let full = u.original_strength * 2;
        u.rules.gunners == 0 || u.rules.gunners * 4 <= full
    } else {
        u.strength == 0 || u.strength * 4 <= u.original_strength
    }
}

/// Removes the shattered units at the end of a phase, with an event each.
pub fn remove_shattered(state: &mut State, events: &mut Vec<Event>) {
    for u in &mut state.units {
        if is_shattered(u) {
            u.eliminated = Some("shattered".to_string());
            events.push(event(
                Kind::Shattered,
                &[&u.id],
                format!(
                    "{} is shattered ({} of {} {}) and removed from play (Shattered Units: \"A unit reduced to one quarter of its original strength is shattered and removed from play at the end of the current phase\").",
                    u.name,
                    if arm_of(u) == Arm::Artillery {
                        u.rules.gunners
                    } else {
                        u.strength
                    },
                    if arm_of(u) == Arm::Artillery {
                        u.original_strength * 2
                    } else {
                        u.original_strength
                    },
                    if arm_of(u) == Arm::Artillery {
                        "gunners"
                    } else {
                        "figures"
                    }
                ),
            ));
        }
    }
}

/// Army Morale (optional rule): "An army's overall will to fight will break
/// if that side ends any turn (active or passive) with half or more of its
/// units eliminated (shattered or forced off-table) or in shaken status. If
/// both sides end the turn with their morale broken, then the passive side's
/// morale breaks but the active side's morale holds." Sets `state.finished`
/// when the game ends: "At a convention or in a one-off game, play ends at
/// that point, with the broken side losing" (ruling STC-69: adjutant plays
/// the one-off reading; the campaign retreat off-table is not played).
pub fn check(state: &mut State, _dice: &mut dyn Dice, events: &mut Vec<Event>) {
    if !option(state, ARMY_MORALE) || state.finished.is_some() {
        return;
    }
    let (both, broken) = breaking(state);
    if let Some(side) = both {
        events.push(Event::worded(
            Kind::ArmyMorale,
            &[],
            Phrase::words("Both armies end the turn broken; ")
                .then_side(&side)
                .then(" is the active side and its morale holds (Army Morale: \"If both sides end the turn with their morale broken, then the passive side's morale breaks but the active side's morale holds.\")."),
        ));
    }
    let Some(broken) = broken else {
        return;
    };
    let words = breaks(&broken);
    state.finished = Some(words.with_ids());
    events.push(Event::worded(Kind::ArmyMorale, &[], words));
}

/// The words of an army's morale breaking, which end the game.
fn breaks((side, gone, shaken, total): &Broken) -> Phrase {
    Phrase::side(side)
        .then(format!("'s army morale breaks: {gone} of its {total} units eliminated and {shaken} shaken, half or more (Army Morale: \"An army's overall will to fight will break if that side ends any turn (active or passive) with half or more of its units eliminated (shattered or forced off-table) or in shaken status.\"). The game ends with "))
        .then_side(side)
        .then(" losing.")
}

/// How a game that army morale ended ended: the words [`check`] wrote,
/// read again from the state it left.
pub fn ending(state: &State) -> Option<Phrase> {
    if !option(state, ARMY_MORALE) || state.finished.is_none() {
        return None;
    }
    breaking(state).1.as_ref().map(breaks)
}

/// A side whose army broke: the side, its units eliminated, shaken and in
/// all.
type Broken = (String, usize, usize, usize);

/// The side whose army breaks at the end of a turn in `state`, if one
/// does, with its units eliminated, shaken and in all; and the active side
/// when both armies were broken and the active side's held. The state a
/// game ended in by army morale still shows it (nothing moves after the
/// check), so [`broken_armies`] reads the same from it.
fn breaking(state: &State) -> (Option<String>, Option<Broken>) {
    let mut broken = Vec::new();
    for side in &state.sides {
        let units: Vec<&Unit> = state.units.iter().filter(|u| u.side == *side).collect();
        if units.is_empty() {
            continue;
        }
        let gone = units.iter().filter(|u| u.eliminated.is_some()).count();
        let shaken = units
            .iter()
            .filter(|u| u.eliminated.is_none() && u.rules.shaken)
            .count();
        if (gone + shaken) * 2 >= units.len() {
            broken.push((side.clone(), gone, shaken, units.len()));
        }
    }
    let mut held = None;
    if broken.len() > 1 {
        let active = state.active_side.clone();
        held = broken
            .iter()
            .find(|(s, ..)| *s == active)
            .map(|(s, ..)| s.clone());
        broken.retain(|(s, ..)| *s != active);
    }
    (held, broken.into_iter().next())
}

/// The side whose army morale broke, in a state the game ended in (Army
/// Morale, optional rule): the side [`check`] found, read again from the
/// state it left.
pub fn broken_armies(state: &State) -> Vec<String> {
    if !option(state, ARMY_MORALE) || state.finished.is_none() {
        return Vec::new();
    }
    breaking(state)
        .1
        .map(|(side, ..)| side)
        .into_iter()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::fighting::testing::{state, unit};
    use super::*;
    use crate::audit::dice::ForcedDice;

    fn armies() -> State {
        let mut s = state(vec![
            unit(
                "b1",
                "blue",
                "line-infantry",
                "C",
                12,
                "line",
                (1000, 1000),
                0,
            ),
            unit(
                "b2",
                "blue",
                "line-infantry",
                "C",
                12,
                "line",
                (2000, 1000),
                0,
            ),
            unit(
                "r1",
                "red",
                "line-infantry",
                "C",
                12,
                "line",
                (1000, 3000),
                180,
            ),
            unit(
                "r2",
                "red",
                "line-infantry",
                "C",
                12,
                "line",
                (2000, 3000),
                180,
            ),
            unit(
                "r3",
                "red",
                "line-infantry",
                "C",
                12,
                "line",
                (3000, 3000),
                180,
            ),
        ]);
        s.options.push(ARMY_MORALE.to_string());
        s
    }

    fn run(s: &mut State) -> Vec<Event> {
        let mut ev = Vec::new();
        check(s, &mut ForcedDice::new([]), &mut ev);
        ev
    }

    #[test]
    fn half_shaken_or_eliminated_breaks_the_army() {
        // "half or more of its units eliminated (shattered or forced
        // off-table) or in shaken status": one of two blue units shaken.
        let mut s = armies();
        s.units[0].rules.shaken = true;
        let ev = run(&mut s);
        assert_eq!(ev.len(), 1);
        assert_eq!(ev[0].kind, "army-morale");
        assert!(
            s.finished
                .as_deref()
                .unwrap_or("")
                .starts_with("blue's army morale breaks")
        );
    }

    /// Issue 30's "Result: french's army morale breaks ... The game ends
    /// with french losing": the words keep the side apart, so that a
    /// reader is told its name, and the archive keeps the id as before.
    #[test]
    fn the_broken_army_is_named_by_whoever_reads_it() {
        let mut s = armies();
        s.units[0].rules.shaken = true;
        let ev = run(&mut s);
        let words = ending(&s).expect("the game ended by army morale");
        assert_eq!(Some(words.with_ids()), s.finished);
        assert_eq!(ev[0].text, words.with_ids());
        let told = ev[0].told_with(|id| format!("the {} army", id.to_uppercase()));
        assert!(
            told.starts_with("the BLUE army's army morale breaks")
                && told.ends_with("The game ends with the BLUE army losing."),
            "{told}"
        );
        assert_eq!(words.sides().collect::<Vec<_>>(), ["blue", "blue"]);
        assert!(
            ending(&armies()).is_none(),
            "no ending while the game goes on"
        );
    }

    #[test]
    fn less_than_half_holds() {
        // Red has one of three eliminated: less than half.
        let mut s = armies();
        s.units[2].eliminated = Some("shattered".to_string());
        assert!(run(&mut s).is_empty());
        assert!(s.finished.is_none());
    }

    #[test]
    fn both_broken_the_passive_side_breaks() {
        // "If both sides end the turn with their morale broken, then the
        // passive side's morale breaks but the active side's morale holds."
        let mut s = armies();
        s.units[0].rules.shaken = true;
        s.units[2].rules.shaken = true;
        s.units[3].eliminated = Some("forced off-table".to_string());
        let ev = run(&mut s);
        assert_eq!(ev.len(), 2, "{ev:#?}");
        assert!(
            s.finished
                .as_deref()
                .unwrap_or("")
                .starts_with("red's army morale breaks")
        );
    }

    #[test]
    fn the_rule_is_optional() {
        let mut s = armies();
        s.options.clear();
        s.units[0].rules.shaken = true;
        assert!(run(&mut s).is_empty());
        assert!(s.finished.is_none());
    }
}
