//! Whether a charge is worth making: the Combat Points table worked from
//! what a player sees of both units before giving the order.
//!
//! The umpire's round of combat weighs more (generals in command, cover
//! under each footprint, the dice divided among several enemies); a player
//! reckons the table's big lines, and so does the bot: the troop types,
//! the grades, defensive fire, disorder, shaken, a flank, a square.

use crate::rules::sound_the_charge::orders::Formation;
use crate::rules::sound_the_charge::state::{State, Unit};
use crate::rules::sound_the_charge::tables::{
    self, Arm, artillery_defensive_fire, gun_calibre_defensive_fire,
};
use crate::rules::sound_the_charge::turn::fighting::{combat_figures, option, steady};

/// The attacker's combat points less the defender's, were `attacker` to
/// charge `defender` now; `flank` when it would strike the defender's flank
/// or rear. Positive: the attacker is at advantage.
pub fn charge_odds(state: &State, attacker: &Unit, defender: &Unit, flank: bool) -> i32 {
    let cavalry = attacker.rules.troop_type.arm() == Arm::Cavalry;
    let target_arm = defender.rules.troop_type.arm();
    // "Squares have no flanks or rear"; a masse counts as a square against
    // cavalry on its front or flanks (Austria).
    let square = defender.rules.formation == Formation::Square
        || (cavalry && defender.rules.formation == Formation::Masse);
    let flank = flank && !square;
    // Steadiness and Disorder, 2: "Infantry not in square contacted by
    // steady enemy cavalry" is disordered before the round is fought.
    let disordered = defender.rules.disordered
        || (cavalry && steady(attacker) && target_arm == Arm::Infantry && !square);

    // Charging, rule 6: "Infantry that charges cavalry becomes disordered
    // the same as if it has been charged by the cavalry."
    let attacker_disordered = attacker.rules.disordered
        || (attacker.rules.troop_type.arm() == Arm::Infantry && target_arm == Arm::Cavalry);
    let mut attack =
        base_points(attacker) + attacker.rules.grade.grades_above(defender.rules.grade);
    if attacker_disordered {
        attack -= 1;
    }
    if cavalry && option(state, "blown-cavalry") && attacker.rules.status.blown {
        attack -= 1;
    }
    if cavalry && square {
        attack -= 4;
    }

    let mut defence =
        base_points(defender) + defender.rules.grade.grades_above(attacker.rules.grade);
    if defender.rules.shaken {
        defence -= 2;
    }
    // "The unit is disordered: (does not apply to artillery)".
    if disordered && target_arm != Arm::Artillery {
        defence -= 1;
    }
    if flank {
        defence -= 2;
    }
    // "A unit gets no defensive fire points if the unsteady, in square, in
    // column, in a continuing combat, or under flank/rear attack."
    let fires = !defender.rules.shaken
        && !disordered
        && !flank
        && !defender.rules.status.in_combat
        && !matches!(
            defender.rules.formation,
            Formation::Square | Formation::Column | Formation::Masse | Formation::Skirmish
        );
    if fires {
        defence += match target_arm {
            Arm::Infantry => 1,
            Arm::Artillery => {
                artillery_defensive_fire(defender.rules.grade)
                    + gun_calibre_defensive_fire(defender.rules.troop_type.in_tables())
            }
            Arm::Cavalry => 0,
        };
    }
    attack - defence
}

/// "Heavy cavalry: 4 / Medium Cavalry: 3 / Light Cavalry: 2 / Infantry and
/// artillery: 2".
fn base_points(u: &Unit) -> i32 {
    tables::base_combat_points(u.rules.troop_type.in_tables()).map_or(2, |(p, _)| p)
}

/// The dice a unit rolls in combat: "Roll one die per four eligible
/// infantry figures, or per three eligible cavalry figures"; guns one a
/// model.
fn combat_dice(u: &Unit) -> i32 {
    let figures = combat_figures(u);
    let dice = match u.rules.troop_type.arm() {
        Arm::Infantry => tables::infantry_combat_dice(figures),
        Arm::Cavalry => tables::cavalry_combat_dice(figures),
        Arm::Artillery => figures,
    };
    i32::try_from(dice).unwrap_or(0)
}

/// The faces of a die that hit, by the Scores to Hit in Combat.
fn faces_that_hit(points_over: i32) -> i32 {
    7 - tables::combat_needed(points_over).0
}

/// Whether the odds are good enough to charge: the hits the attacker may
/// expect to score against those it may expect to take, "If a unit suffers
/// more hits than it inflicts in a given round of combat, it has lost." It
/// charges when it expects to score at least as many. Cavalry charges
/// infantry a little worse than even, for "If an infantry unit loses a
/// round of combat, and it was fighting against cavalry [...], it suffers
/// double rout hits"; guns it charges only to win outright, for "If the
/// charging troops lose or tie that round of combat, they retreat as if
/// they had lost".
pub fn worth_charging(attacker: &Unit, defender: &Unit, points_over: i32) -> bool {
    let scored = combat_dice(attacker) * faces_that_hit(points_over);
    let taken = combat_dice(defender) * faces_that_hit(-points_over);
    match (
        attacker.rules.troop_type.arm(),
        defender.rules.troop_type.arm(),
    ) {
        (Arm::Cavalry, Arm::Infantry) => scored * 5 >= taken * 4,
        (_, Arm::Artillery) => scored * 5 > taken * 6,
        _ => scored >= taken,
    }
}
