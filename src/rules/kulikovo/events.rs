//! The kinds of event a Kulikovo activation tells, what each means to the
//! map and to sight, and who is told of it (ruling KUL-25): what happened
//! where the enemy could see it is told to whoever sees every unit and
//! leader it names; an order that lapsed and why, a move cut short and
//! why, and a continued attack that was not made are told to the acting
//! side alone; the activation, a broken army and the end of the game are
//! told to every side.

use crate::rules::look::EventClass;
use crate::rules::ruleset::Event;
use crate::rules::told::{EventKind, Told};

crate::event_kinds! {
pub enum Kind {
    /// The activation begins: whose it is, and whether it passes.
    Activation,
    Hold,
    /// A move made as ordered, to its end.
    March,
    /// A move that stopped at a step it could not take, with why: its own
    /// side's, since its words give the order's intent and the reason.
    MarchCutShort,
    /// Missile fire made.
    Fire,
    Disordered,
    Eliminated,
    /// A retreat or a retirement.
    Retreat,
    /// A leader joins a unit.
    LeaderJoins,
    /// A leader whose unit was eliminated joins another.
    LeaderEscapes,
    LeaderCaptured,
    /// A leader killed by missile fire at his unit.
    LeaderKilled,
    /// A leader who survives the fire at his unit.
    LeaderSurvives,
    /// An order that no longer fits the field (a fire, an attack, a
    /// leader's join), and why.
    OrderLapsed,
    /// A combat on the Charge Results.
    Charge,
    /// A combat on the Shock Combat Results.
    Shock,
    /// A continued attack made.
    Continue,
    /// A continued attack the results allowed and the order did not ask.
    ContinueNotOrdered,
    /// A continued attack with no enemy to make it against.
    ContinueNoTarget,
    /// A continued attack the rules forbid, and why.
    ContinueRefused,
    /// The first attacker advances into the hex the defenders left.
    Advance,
    Recovery,
    ArmyBreaks,
    GameOver,
}
}

impl EventKind for Kind {
    const ALL: &'static [Kind] = Kind::LIST;

    /// As the archive has always written it: a move made and a move cut
    /// short were both `march`, the four ends of a continued attack
    /// `continue`, every leader's fate `leader`.
    fn name(self) -> &'static str {
        match self {
            Kind::Activation => "activation",
            Kind::Hold => "hold",
            Kind::March | Kind::MarchCutShort => "march",
            Kind::Fire => "fire",
            Kind::Disordered => "disordered",
            Kind::Eliminated => "eliminated",
            Kind::Retreat => "retreat",
            Kind::LeaderJoins
            | Kind::LeaderEscapes
            | Kind::LeaderCaptured
            | Kind::LeaderKilled
            | Kind::LeaderSurvives => "leader",
            Kind::OrderLapsed => "order-lapsed",
            Kind::Charge => "charge",
            Kind::Shock => "shock",
            Kind::Continue
            | Kind::ContinueNotOrdered
            | Kind::ContinueNoTarget
            | Kind::ContinueRefused => "continue",
            Kind::Advance => "advance",
            Kind::Recovery => "recovery",
            Kind::ArmyBreaks => "army-breaks",
            Kind::GameOver => "game-over",
        }
    }

    /// A march keeps the class it always had: its words, not the states,
    /// tell a move on the hexes (which hexes it went by, its MP, the zone
    /// of control it stopped in).
    fn class(self) -> EventClass {
        match self {
            Kind::Hold => EventClass::Hold,
            Kind::Fire => EventClass::Fire,
            Kind::Charge => EventClass::Charge,
            Kind::Shock => EventClass::Combat,
            Kind::Retreat => EventClass::Retreat,
            Kind::Activation
            | Kind::March
            | Kind::MarchCutShort
            | Kind::Disordered
            | Kind::Eliminated
            | Kind::LeaderJoins
            | Kind::LeaderEscapes
            | Kind::LeaderCaptured
            | Kind::LeaderKilled
            | Kind::LeaderSurvives
            | Kind::OrderLapsed
            | Kind::Continue
            | Kind::ContinueNotOrdered
            | Kind::ContinueNoTarget
            | Kind::ContinueRefused
            | Kind::Advance
            | Kind::Recovery
            | Kind::ArmyBreaks
            | Kind::GameOver => EventClass::Other,
        }
    }

    fn told(self) -> Told {
        match self {
            Kind::MarchCutShort
            | Kind::OrderLapsed
            | Kind::ContinueNotOrdered
            | Kind::ContinueNoTarget
            | Kind::ContinueRefused => Told::ActingSide,
            Kind::Activation | Kind::ArmyBreaks | Kind::GameOver => Told::Everyone,
            Kind::Hold
            | Kind::March
            | Kind::Fire
            | Kind::Disordered
            | Kind::Eliminated
            | Kind::Retreat
            | Kind::LeaderJoins
            | Kind::LeaderEscapes
            | Kind::LeaderCaptured
            | Kind::LeaderKilled
            | Kind::LeaderSurvives
            | Kind::Charge
            | Kind::Shock
            | Kind::Continue
            | Kind::Advance
            | Kind::Recovery => Told::InSight,
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

    /// An event read back from an archive keeps the class its kind always
    /// had.
    #[test]
    fn archived_kinds_read_back_as_before() {
        let classes = [
            ("fire", EventClass::Fire),
            ("charge", EventClass::Charge),
            ("shock", EventClass::Combat),
            ("retreat", EventClass::Retreat),
            ("hold", EventClass::Hold),
            ("march", EventClass::Other),
            ("order-lapsed", EventClass::Other),
            ("continue", EventClass::Other),
            ("leader", EventClass::Other),
        ];
        for (name, class) in classes {
            assert_eq!(Kind::class_of_name(name), class, "{name}");
        }
    }

    /// What is told to the acting side alone is never a fire, a combat or
    /// a retreat, which the enemy met.
    #[test]
    fn nothing_the_enemy_met_is_kept_from_it() {
        for &k in Kind::ALL {
            if k.told() == Told::ActingSide {
                assert_eq!(k.class(), EventClass::Other, "{k:?}");
            }
        }
    }
}
