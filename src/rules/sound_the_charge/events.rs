//! The kinds of event a Sound the Charge turn tells, what each means to the
//! map and to sight, and who is told of it (docs/RULINGS.md REP-3): what
//! happened where the enemy could see it is told to whoever sees every unit
//! it names; an order's target when nothing came of it, why an order could
//! not be carried out, a standing order, and a test that changed nothing an
//! enemy could see are told to the acting side alone.

use crate::rules::look::EventClass;
use crate::rules::ruleset::Event;
use crate::rules::told::{EventKind, Told};

crate::event_kinds! {
pub enum Kind {
    /// A unit that stood fast.
    Hold,
    /// A move made, as ordered.
    Move,
    /// An order that could not be carried out, and why.
    OrderImpossible,
    /// A side that sent no orders.
    NoOrders,
    /// Friends that ended their moves intermixed, and are disordered.
    Intermixed,
    /// A change of formation or facing.
    Maneuver,
    Shaken,
    Disordered,
    SkirmishersOut,
    SkirmishersIn,
    Screen,
    GunnersMove,
    GunnersLeave,
    GunnersReturn,
    VoluntaryRetreat,
    Embark,
    Disembark,
    GeneralMove,
    GeneralAttach,
    GeneralDetach,
    /// A general's move that could not be made, and why.
    GeneralCannotGo,
    GeneralCaptured,
    GeneralEscapes,
    /// A general with a unit that suffered hits, and his roll.
    GeneralHit,
    /// A charge that met its target.
    Charge,
    /// A charger that ended within an inch of another enemy, which it
    /// attacks too.
    ChargeAlso,
    /// A charge that stopped where its target evaded from.
    ChargeHalts,
    /// A charge that the national modifier's roll kept from starting.
    ChargeNotLaunched,
    /// A charge that fell short of its target.
    ChargeFails,
    /// A target's standing order to evade, carried out.
    Evade,
    /// A target that would have evaded and had no room.
    EvadeFails,
    GunnersEvade,
    /// Gunners whose standing order to evade had no room.
    GunnersEvadeFail,
    Reinforce,
    /// A volley, or a bounce through, made.
    Shot,
    /// A shot ordered and not made, and why.
    NoShot,
    /// A die aimed at a regimental gun.
    RegimentalGun,
    /// A die that could not be aimed at a regimental gun, and why.
    RegimentalGunNoAim,
    /// A morale test after shooting, or why none was taken.
    Morale,
    Rout,
    /// A round of close combat, those who reinforce it, or why it was not
    /// fought; a cavalry regiment blown by it.
    Combat,
    GunAbandoned,
    FollowUp,
    /// A unit off the table tests to come back.
    Return,
    Retreat,
    /// A unit eliminated retreating or in close combat.
    EliminatedRetreating,
    EliminatedInCombat,
    Shattered,
    ArmyMorale,
    Rally,
    /// A rally tested and failed: nothing changed that the enemy saw.
    RallyFails,
    /// A rally that could not be tried, and why.
    NoRally,
    Reform,
    /// A reform that could not be made, and why.
    ReformFails,
    GameOver,
}
}

impl EventKind for Kind {
    const ALL: &'static [Kind] = Kind::LIST;

    /// As the archive has always written it: a shot made and a shot not
    /// made were both `shooting`, a general's move refused and a unit's both
    /// `order-impossible`.
    fn name(self) -> &'static str {
        match self {
            Kind::Hold => "hold",
            Kind::Move => "move",
            Kind::OrderImpossible | Kind::GeneralCannotGo => "order-impossible",
            Kind::NoOrders => "no-orders",
            Kind::Intermixed => "intermixed",
            Kind::Maneuver => "maneuver",
            Kind::Shaken => "shaken",
            Kind::Disordered => "disordered",
            Kind::SkirmishersOut => "skirmishers-out",
            Kind::SkirmishersIn => "skirmishers-in",
            Kind::Screen => "screen",
            Kind::GunnersMove => "gunners-move",
            Kind::GunnersLeave => "gunners-leave",
            Kind::GunnersReturn => "gunners-return",
            Kind::VoluntaryRetreat => "voluntary-retreat",
            Kind::Embark => "embark",
            Kind::Disembark => "disembark",
            Kind::GeneralMove => "general-move",
            Kind::GeneralAttach => "general-attach",
            Kind::GeneralDetach => "general-detach",
            Kind::GeneralCaptured => "general-captured",
            Kind::GeneralEscapes => "general-escapes",
            Kind::GeneralHit => "general",
            Kind::Charge => "charge",
            Kind::ChargeAlso => "charge-also",
            Kind::ChargeHalts => "charge-halts",
            Kind::ChargeNotLaunched => "charge-not-launched",
            Kind::ChargeFails => "charge-fails",
            Kind::Evade => "evade",
            Kind::EvadeFails | Kind::GunnersEvadeFail => "evade-fails",
            Kind::GunnersEvade => "gunners-evade",
            Kind::Reinforce => "reinforce",
            Kind::Shot | Kind::NoShot => "shooting",
            Kind::RegimentalGun | Kind::RegimentalGunNoAim => "regimental-gun",
            Kind::Morale => "morale",
            Kind::Rout => "rout",
            Kind::Combat | Kind::EliminatedInCombat => "combat",
            Kind::GunAbandoned => "gun-abandoned",
            Kind::FollowUp => "follow-up",
            Kind::Return => "return",
            Kind::Retreat | Kind::EliminatedRetreating => "retreat",
            Kind::Shattered => "shattered",
            Kind::ArmyMorale => "army-morale",
            Kind::Rally => "rally",
            Kind::RallyFails => "rally-fails",
            Kind::NoRally => "no-rally",
            Kind::Reform => "reform",
            Kind::ReformFails => "reform-fails",
            Kind::GameOver => "game-over",
        }
    }

    fn class(self) -> EventClass {
        match self {
            Kind::Hold => EventClass::Hold,
            Kind::Move => EventClass::Move,
            Kind::Shot | Kind::RegimentalGun => EventClass::Fire,
            Kind::NoShot | Kind::RegimentalGunNoAim => EventClass::NoShot,
            Kind::Charge | Kind::FollowUp => EventClass::Charge,
            Kind::ChargeHalts | Kind::ChargeFails => EventClass::ChargeShort,
            Kind::Retreat | Kind::EliminatedRetreating | Kind::Rout | Kind::Evade => {
                EventClass::Retreat
            }
            Kind::Combat | Kind::EliminatedInCombat => EventClass::Combat,
            Kind::OrderImpossible
            | Kind::NoOrders
            | Kind::Intermixed
            | Kind::Maneuver
            | Kind::Shaken
            | Kind::Disordered
            | Kind::SkirmishersOut
            | Kind::SkirmishersIn
            | Kind::Screen
            | Kind::GunnersMove
            | Kind::GunnersLeave
            | Kind::GunnersReturn
            | Kind::VoluntaryRetreat
            | Kind::Embark
            | Kind::Disembark
            | Kind::GeneralMove
            | Kind::GeneralAttach
            | Kind::GeneralDetach
            | Kind::GeneralCannotGo
            | Kind::GeneralCaptured
            | Kind::GeneralEscapes
            | Kind::GeneralHit
            | Kind::ChargeAlso
            | Kind::ChargeNotLaunched
            | Kind::EvadeFails
            | Kind::GunnersEvade
            | Kind::GunnersEvadeFail
            | Kind::Reinforce
            | Kind::Morale
            | Kind::GunAbandoned
            | Kind::Return
            | Kind::Shattered
            | Kind::ArmyMorale
            | Kind::Rally
            | Kind::RallyFails
            | Kind::NoRally
            | Kind::Reform
            | Kind::ReformFails
            | Kind::GameOver => EventClass::Other,
        }
    }

    fn told(self) -> Told {
        match self {
            Kind::OrderImpossible
            | Kind::NoOrders
            | Kind::GeneralCannotGo
            | Kind::ChargeNotLaunched
            | Kind::EvadeFails
            | Kind::GunnersEvadeFail
            | Kind::NoShot
            | Kind::RegimentalGunNoAim
            | Kind::RallyFails
            | Kind::NoRally
            | Kind::ReformFails => Told::ActingSide,
            Kind::ArmyMorale | Kind::GameOver => Told::Everyone,
            Kind::Hold
            | Kind::Move
            | Kind::Intermixed
            | Kind::Maneuver
            | Kind::Shaken
            | Kind::Disordered
            | Kind::SkirmishersOut
            | Kind::SkirmishersIn
            | Kind::Screen
            | Kind::GunnersMove
            | Kind::GunnersLeave
            | Kind::GunnersReturn
            | Kind::VoluntaryRetreat
            | Kind::Embark
            | Kind::Disembark
            | Kind::GeneralMove
            | Kind::GeneralAttach
            | Kind::GeneralDetach
            | Kind::GeneralCaptured
            | Kind::GeneralEscapes
            | Kind::GeneralHit
            | Kind::Charge
            | Kind::ChargeAlso
            | Kind::ChargeHalts
            | Kind::ChargeFails
            | Kind::Evade
            | Kind::GunnersEvade
            | Kind::Reinforce
            | Kind::Shot
            | Kind::RegimentalGun
            | Kind::Morale
            | Kind::Rout
            | Kind::Combat
            | Kind::GunAbandoned
            | Kind::FollowUp
            | Kind::Return
            | Kind::Retreat
            | Kind::EliminatedRetreating
            | Kind::EliminatedInCombat
            | Kind::Shattered
            | Kind::Rally
            | Kind::Reform => Told::InSight,
        }
    }
}

/// An event of `kind` naming `units` (the one who acted first).
pub fn event(kind: Kind, units: &[&str], text: impl Into<String>) -> Event {
    Event::of(kind, units, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An event read back from an archive is classed by the first kind of
    /// its name: for the names two kinds share, the one that happened.
    #[test]
    fn a_shared_name_reads_back_as_what_happened() {
        assert_eq!(Kind::class_of_name("shooting"), EventClass::Fire);
        assert_eq!(Kind::class_of_name("regimental-gun"), EventClass::Fire);
        assert_eq!(Kind::class_of_name("combat"), EventClass::Combat);
        assert_eq!(Kind::class_of_name("retreat"), EventClass::Retreat);
    }
}

#[cfg(test)]
mod preview {
    use super::*;
    use crate::rules::sound_the_charge::orders::{StcOrder, UnitId, parse};
    use crate::rules::sound_the_charge::turn::fighting::testing::{state, unit};
    use crate::rules::sound_the_charge::turn::planned_moves;

    /// An order whose units are written by their ids.
    fn order(text: &str) -> StcOrder {
        parse(text)
            .expect("parses")
            .try_map(|r, _| Ok::<_, ()>(UnitId::of(r.as_str())))
            .expect("ids")
    }

    /// Zones of Control: "You may not move a unit within 1" of an enemy
    /// unit". The move refused names the enemy whose zone barred it, as
    /// data: a side that does not see that enemy hears only that its unit
    /// was in action against troops out of sight (REP-1), and the enemy is
    /// told nothing of the order (REP-3).
    #[test]
    fn a_move_barred_by_an_enemy_names_it() {
        use crate::report::heard::Audience;
        use crate::rules::told::Heard;
        let s = state(vec![
            unit(
                "1-line",
                "blue",
                "line-infantry",
                "C",
                12,
                "line",
                (3600, 1000),
                0,
            ),
            unit(
                "9-line",
                "red",
                "line-infantry",
                "C",
                12,
                "line",
                (3600, 1250),
                180,
            ),
        ]);
        let order = order("1-line: forward 2");
        let (next, events) = planned_moves(&s, "blue", &[order]);
        let barred = events
            .iter()
            .find(|e| e.kind == "order-impossible")
            .expect("the move is refused");
        assert_eq!(
            barred.names().collect::<Vec<_>>(),
            ["1-line", "9-line"],
            "{}",
            barred.text
        );
        let (prior, next) = (s.raw(), next.raw());
        let own: std::collections::BTreeSet<String> = ["1-line".to_string()].into();
        let both: std::collections::BTreeSet<String> =
            ["1-line".to_string(), "9-line".to_string()].into();
        let heard = |side, visible| {
            Audience::new(
                crate::rules::told::Who::Side(side),
                Some(visible),
                &prior,
                &next,
            )
            .event(barred)
        };
        assert_eq!(heard("blue", &own), Heard::OwnInAction);
        assert_eq!(heard("blue", &both), Heard::Told);
        assert_eq!(heard("red", &both), Heard::Nothing);
    }

    /// Steadiness and Disorder, 5: "If it uses its charge bonus movement
    /// but fails to contact the enemy". The acknowledgement's preview of a
    /// charge that falls short draws it as a charge (the issue: it was a
    /// plain black move arrow), its end barred.
    #[test]
    fn a_charge_that_falls_short_is_previewed_as_a_charge() {
        let s = state(vec![
            unit(
                "1-line",
                "blue",
                "line-infantry",
                "C",
                12,
                "line",
                (3600, 1000),
                0,
            ),
            unit(
                "9-line",
                "red",
                "line-infantry",
                "C",
                12,
                "line",
                (3600, 1700),
                180,
            ),
        ]);
        let order = order("1-line: charge 9-line");
        let (_, events) = planned_moves(&s, "blue", &[order]);
        let short = events
            .iter()
            .find(|e| e.kind == "charge-fails")
            .expect("the charge falls short");
        assert_eq!(short.class(|_| EventClass::Other), EventClass::ChargeShort);
        assert_eq!(short.names().collect::<Vec<_>>(), ["1-line", "9-line"]);
    }
}
