//! The kinds of event a Grande Tactique phase tells, what each means to the
//! map and to sight, and who is told of it (ruling GT-24): what happened
//! where the enemy could see it (a Charge marker placed or removed, a move,
//! a charge, a flight) is told to whoever sees every unit it names; an
//! order that could not be carried out and why, a charge that lapsed, a
//! rally that failed, the check that decides a follow-up charge, and an
//! answer the rules call for that found no room are told to the acting
//! side alone; the PIPs rolled and the end of the game are told to every
//! side.

use crate::rules::look::EventClass;
use crate::rules::ruleset::Event;
use crate::rules::told::{EventKind, Told};

crate::event_kinds! {
pub enum Kind {
    /// A charge declared and paid for: its Charge marker is placed, "to
    /// clearly signal who it is the charging unit is charging".
    ChargeDeclared,
    /// A move or a turn made.
    Move,
    /// A move, turn or change of formation the rules forbid, and why.
    MoveRefused,
    Formation,
    Firing,
    CeaseFire,
    /// A Morale Check the enemy meets the outcome of: to charge, charged,
    /// under fire, passed through by a fleeing friend.
    MoraleCheck,
    /// A Morale Check its own side alone learns of: to rally, to decide a
    /// follow-up charge (the enemy sees a unit rally, or charge again, or
    /// pursue).
    MoraleCheckOwn,
    Rally,
    /// A rally tested and failed: nothing changed that the enemy saw.
    RallyFails,
    /// A Charge marker removed because another command charges the target.
    ChargeRemoved,
    /// A charge that lapsed before it moved (its target gone, out of reach,
    /// out of contact and paid for no move), and why.
    ChargeLapsed,
    /// A charger no longer eager, which does not charge.
    ChargeCancelled,
    Charge,
    FollowUp,
    Principal,
    Countercharge,
    Locked,
    Flight,
    Destroyed,
    Repulsed,
    Shaken,
    TurnToFace,
    /// A unit that would turn to face and has no room.
    NoRoomToTurn,
    /// A winner that stays in cover, as its order told it, rather than take
    /// the position.
    Stays,
    TakePosition,
    /// A winner that has no room to take the position.
    NoRoomToTakePosition,
    RoutedTarget,
    /// The Charge markers of a charge removed, once it is over.
    ChargeOver,
    /// Cavalry that passed its check and chose a new target.
    FollowUpChosen,
    /// Cavalry that passed its check and found no new target, with each
    /// enemy it looked at and why it would not do.
    FollowUpNoTarget,
    /// Cavalry that failed its check for a follow-up charge.
    FollowUpFails,
    /// Cavalry that has made its second follow-up charge, and pursues.
    FollowUpSpent,
    Pursuit,
    /// Cavalry with no room to pursue, which stays where it is.
    PursuitNoRoom,
    Fire,
    GameOver,
    /// Every command's PIPs for the next turn.
    Pips,
}
}

impl EventKind for Kind {
    const ALL: &'static [Kind] = Kind::LIST;

    /// As the archive has always written it: a rally and a failed one were
    /// both `rally`, every Morale Check `morale-check`, every end of the
    /// follow-up check `follow-up-check`.
    fn name(self) -> &'static str {
        match self {
            Kind::ChargeDeclared => "charge-declared",
            Kind::Move => "move",
            Kind::MoveRefused => "move-refused",
            Kind::Formation => "formation",
            Kind::Firing => "firing",
            Kind::CeaseFire => "cease-fire",
            Kind::MoraleCheck | Kind::MoraleCheckOwn => "morale-check",
            Kind::Rally | Kind::RallyFails => "rally",
            Kind::ChargeRemoved => "charge-removed",
            Kind::ChargeLapsed => "charge-lapsed",
            Kind::ChargeCancelled => "charge-cancelled",
            Kind::Charge => "charge",
            Kind::FollowUp => "follow-up",
            Kind::Principal => "principal",
            Kind::Countercharge => "countercharge",
            Kind::Locked => "locked",
            Kind::Flight => "flight",
            Kind::Destroyed => "destroyed",
            Kind::Repulsed => "repulsed",
            Kind::Shaken => "shaken",
            Kind::TurnToFace | Kind::NoRoomToTurn => "turn-to-face",
            Kind::Stays => "stays",
            Kind::TakePosition | Kind::NoRoomToTakePosition => "take-position",
            Kind::RoutedTarget => "routed-target",
            Kind::ChargeOver => "charge-over",
            Kind::FollowUpChosen
            | Kind::FollowUpNoTarget
            | Kind::FollowUpFails
            | Kind::FollowUpSpent => "follow-up-check",
            Kind::Pursuit | Kind::PursuitNoRoom => "pursuit",
            Kind::Fire => "fire",
            Kind::GameOver => "game-over",
            Kind::Pips => "pips",
        }
    }

    /// A pursuit with no room keeps the class of a pursuit: the pursuer
    /// and the unit it drove off met in the charge, and see each other
    /// (GT-10).
    fn class(self) -> EventClass {
        match self {
            Kind::Move => EventClass::Move,
            Kind::Fire => EventClass::Fire,
            Kind::Charge
            | Kind::FollowUp
            | Kind::Countercharge
            | Kind::Pursuit
            | Kind::PursuitNoRoom => EventClass::Charge,
            Kind::Flight => EventClass::Retreat,
            Kind::Locked => EventClass::Combat,
            Kind::ChargeDeclared
            | Kind::MoveRefused
            | Kind::Formation
            | Kind::Firing
            | Kind::CeaseFire
            | Kind::MoraleCheck
            | Kind::MoraleCheckOwn
            | Kind::Rally
            | Kind::RallyFails
            | Kind::ChargeRemoved
            | Kind::ChargeLapsed
            | Kind::ChargeCancelled
            | Kind::Principal
            | Kind::Destroyed
            | Kind::Repulsed
            | Kind::Shaken
            | Kind::TurnToFace
            | Kind::NoRoomToTurn
            | Kind::Stays
            | Kind::TakePosition
            | Kind::NoRoomToTakePosition
            | Kind::RoutedTarget
            | Kind::ChargeOver
            | Kind::FollowUpChosen
            | Kind::FollowUpNoTarget
            | Kind::FollowUpFails
            | Kind::FollowUpSpent
            | Kind::GameOver
            | Kind::Pips => EventClass::Other,
        }
    }

    fn told(self) -> Told {
        match self {
            Kind::MoveRefused
            | Kind::MoraleCheckOwn
            | Kind::RallyFails
            | Kind::ChargeLapsed
            | Kind::ChargeCancelled
            | Kind::NoRoomToTurn
            | Kind::Stays
            | Kind::NoRoomToTakePosition
            | Kind::FollowUpNoTarget
            | Kind::FollowUpFails
            | Kind::FollowUpSpent
            | Kind::PursuitNoRoom => Told::ActingSide,
            Kind::GameOver | Kind::Pips => Told::Everyone,
            Kind::ChargeDeclared
            | Kind::Move
            | Kind::Formation
            | Kind::Firing
            | Kind::CeaseFire
            | Kind::MoraleCheck
            | Kind::Rally
            | Kind::ChargeRemoved
            | Kind::Charge
            | Kind::FollowUp
            | Kind::Principal
            | Kind::Countercharge
            | Kind::Locked
            | Kind::Flight
            | Kind::Destroyed
            | Kind::Repulsed
            | Kind::Shaken
            | Kind::TurnToFace
            | Kind::TakePosition
            | Kind::RoutedTarget
            | Kind::ChargeOver
            | Kind::FollowUpChosen
            | Kind::Pursuit
            | Kind::Fire => Told::InSight,
        }
    }
}

/// An event of `kind` naming `units` (the one who acted first).
pub fn event(kind: Kind, units: Vec<String>, text: impl Into<String>) -> Event {
    let units: Vec<&str> = units.iter().map(String::as_str).collect();
    Event::of(kind, &units, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An event read back from an archive keeps the class its kind always
    /// had.
    #[test]
    fn archived_kinds_read_back_as_before() {
        let classes = [
            ("fire", EventClass::Fire),
            ("charge", EventClass::Charge),
            ("follow-up", EventClass::Charge),
            ("countercharge", EventClass::Charge),
            ("pursuit", EventClass::Charge),
            ("flight", EventClass::Retreat),
            ("locked", EventClass::Combat),
            ("move", EventClass::Move),
            ("rally", EventClass::Other),
            ("morale-check", EventClass::Other),
            ("charge-lapsed", EventClass::Other),
        ];
        for (name, class) in classes {
            assert_eq!(Kind::class_of_name(name), class, "{name}");
        }
    }
}
