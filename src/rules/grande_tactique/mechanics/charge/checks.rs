//! The modifiers of the two checks of a charge: the attackers' (the
//! principal's own, the cuirassiers' and lancers' bonuses, help from
//! friends) and the defenders' (its own, its cover, square against
//! cavalry, being charged by more than one unit).

use super::super::super::setup::CUIRASSIER_BONUS_IN_FOLLOW_UPS;
use super::super::super::state::{Arm, Formation, TroopType};
use super::super::morale::{bonus, cover, penalty, standing};
use super::{Kind, Play};
use crate::rules::kernel::Modifier;

/// The attackers' check: one roll for them all, with the principal's
/// modifiers (ruling GT-13).
pub fn attackers(play: &Play, attackers: &[usize], t: usize, kind: Kind) -> Vec<Modifier> {
    let f = &play.field;
    let p = attackers[0];
    let params = f.params();
    let mut mods = standing(f.unit(p), params);
    let target_arm = f.arm(t);
    // "Cuirassiers receive a +1 morale bonus when charging cavalry"; "This
    // bonus does not apply to Morale Checks when attempting to perform a
    // follow-up charge" (GT-14).
    let follow_up = matches!(kind, Kind::FollowUp(_));
    if f.troop(p) == TroopType::Cuirassiers
        && target_arm == Arm::Cavalry
        && (!follow_up || f.option(CUIRASSIER_BONUS_IN_FOLLOW_UPS))
    {
        mods.push(Modifier::new("cuirassiers charging cavalry", 1));
    }
    // "Lancers receive a +1 morale bonus when charging infantry".
    if f.troop(p) == TroopType::Lancers && target_arm == Arm::Infantry {
        mods.push(Modifier::new("lancers charging infantry", 1));
    }
    if attackers.len() > 1 || play.friends_pending(t, p) {
        mods.push(bonus(
            "charging with help from friends",
            params.help_from_friends_bonus,
        ));
    }
    mods
}

/// The defenders' check.
pub fn defender(play: &Play, attackers: &[usize], t: usize) -> Vec<Modifier> {
    let f = &play.field;
    let params = f.params();
    let mut mods = standing(f.unit(t), params);
    mods.extend(cover(f, t));
    if f.unit(t).rules.formation == Formation::Square && f.arm(attackers[0]) == Arm::Cavalry {
        mods.push(bonus(
            "in square against cavalry",
            params.square_against_cavalry_bonus,
        ));
    }
    if attackers.len() > 1 || play.friends_pending(t, attackers[0]) {
        mods.push(penalty(
            "charged by more than one unit",
            params.charged_by_several_penalty,
        ));
    }
    mods
}

/// The check that decides between a follow-up charge and pursuit: the
/// unit's own modifiers and the penalty of the follow-up it would make.
/// "For the first follow-up charge, there is a -1 penalty to the Morale
/// Check." "For the second follow-up charge, there is a -2 penalty to the
/// Morale Check."
pub fn follow_up(play: &Play, p: usize, number: u32) -> Vec<Modifier> {
    let f = &play.field;
    let mut mods = standing(f.unit(p), f.params());
    mods.push(match number {
        1 => Modifier::new("first follow-up charge", -1),
        _ => Modifier::new("second follow-up charge", -2),
    });
    mods
}
