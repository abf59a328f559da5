//! The kinds of event a percentile fire phase tells, what each means to the
//! map and to sight, and who is told of it (docs/RULINGS.md PF-38, REP-3):
//! what happened where the enemy could see it (a volley, a move, a charge
//! or shock met) is told to whoever sees every unit it names; a standing
//! order, an order that came to nothing and why, and fire ordered and not
//! made are told to the acting side alone; the phases and the MFP points
//! lost are told to every side.

use crate::rules::look::EventClass;
use crate::rules::told::{EventKind, Told};

crate::event_kinds! {
pub enum Kind {
    /// A phase over, the next begun, the Shock Combat Phase passed over.
    Phase,
    /// The opening of a Reciprocal Fire Phase, which counts both sides'
    /// fire orders: it names no unit, so no side is told it, only the GM
    /// (the count of an enemy's orders is no fact of the field).
    FireOrders,
    /// The non-phasing side's standing orders for opportunity and passby
    /// fire (11.81, 11.83).
    StandingOrders,
    /// A move, change of facing or formation, or retirement made.
    Move,
    /// A move that could not be made, and why.
    MoveLapsed,
    /// Cavalry charging into contact (11.83).
    Charge,
    /// A shock declared with a move into contact, and, in the Shock Combat
    /// Phase, the shock left to the GM to fight.
    Shock,
    /// A unit replacing the one attacked to receive the shock (11.86).
    Replace,
    /// A fire attack made in a Reciprocal Fire Phase.
    Fire,
    OpportunityFire,
    PassbyFire,
    FinalShockFire,
    SupportiveFire,
    /// Fire ordered, or a standing order's fire due, and not given: the
    /// firer destroyed first, its target gone, or a rule against it.
    FireLapsed,
    /// A fire attack the campaign's charts cannot settle.
    FireRefused,
    /// A unit that lost figures is to take its morale check (11.72, 11.88).
    MoraleCheck,
    /// The MFP points each side has lost (11.73).
    Mfp,
    /// A counterbattery marker met and removed (11.76, 11.77).
    Counterbattery,
    GameOver,
}
}

impl EventKind for Kind {
    const ALL: &'static [Kind] = Kind::LIST;

    /// As the archive has always written it: the opening of a Reciprocal
    /// Fire Phase is a `phase` as the others are.
    fn name(self) -> &'static str {
        match self {
            Kind::Phase | Kind::FireOrders => "phase",
            Kind::StandingOrders => "standing-fire",
            Kind::Move => "move",
            Kind::MoveLapsed => "move-lapsed",
            Kind::Charge => "charge",
            Kind::Shock => "shock",
            Kind::Replace => "replace",
            Kind::Fire => "fire",
            Kind::OpportunityFire => "opportunity-fire",
            Kind::PassbyFire => "passby-fire",
            Kind::FinalShockFire => "final-shock-fire",
            Kind::SupportiveFire => "supportive-fire",
            Kind::FireLapsed => "fire-lapsed",
            Kind::FireRefused => "fire-refused",
            Kind::MoraleCheck => "morale-check",
            Kind::Mfp => "mfp",
            Kind::Counterbattery => "counterbattery",
            Kind::GameOver => "game-over",
        }
    }

    fn class(self) -> EventClass {
        match self {
            Kind::Move => EventClass::Move,
            Kind::Charge | Kind::Shock => EventClass::Charge,
            Kind::Fire
            | Kind::OpportunityFire
            | Kind::PassbyFire
            | Kind::FinalShockFire
            | Kind::SupportiveFire => EventClass::Fire,
            Kind::FireLapsed | Kind::FireRefused => EventClass::NoShot,
            Kind::Phase
            | Kind::FireOrders
            | Kind::StandingOrders
            | Kind::MoveLapsed
            | Kind::Replace
            | Kind::MoraleCheck
            | Kind::Mfp
            | Kind::Counterbattery
            | Kind::GameOver => EventClass::Other,
        }
    }

    fn told(self) -> Told {
        match self {
            Kind::FireOrders
            | Kind::StandingOrders
            | Kind::MoveLapsed
            | Kind::FireLapsed
            | Kind::FireRefused => Told::ActingSide,
            // Every MFP point is a loss to fire told to the side that took
            // it and, but where a unit named is out of its sight, to the
            // side that fired: the totals add next to nothing (PF-38).
            Kind::Phase | Kind::Mfp | Kind::GameOver => Told::Everyone,
            Kind::Move
            | Kind::Charge
            | Kind::Shock
            | Kind::Replace
            | Kind::Fire
            | Kind::OpportunityFire
            | Kind::PassbyFire
            | Kind::FinalShockFire
            | Kind::SupportiveFire
            | Kind::MoraleCheck
            | Kind::Counterbattery => Told::InSight,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    use crate::audit::dice::{Dice, ForcedDice, Roll};
    use crate::report::heard::Audience;
    use crate::rules::look::EventClass;
    use crate::rules::percentile_fire::turn::Phase;
    use crate::rules::percentile_fire::{ID, PercentileFire, State};
    use crate::rules::ruleset::{Event, Rules, check_typed};
    use crate::rules::told::{EventKind, Heard};

    use super::Kind;

    const CAMPAIGN: &str = include_str!("../../../campaigns/percentile-fire-demo/campaign.toml");

    /// One infantry battalion, by id, side, front centre and facing.
    fn battalion(id: &str, side: &str, strength: u32, at: (u32, u32), facing: u32) -> String {
        format!(
            "[[unit]]\nid = \"{id}\"\nname = \"{id}\"\nside = \"{side}\"\narm = \"infantry\"\nformation = \"line\"\nweapon = \"musket\"\nstrength = {strength}\nx = {}\ny = {}\nfacing = {facing}\n\n",
            at.0, at.1
        )
    }

    /// The demo's sides on an open table, French phasing, in `phase`.
    fn start(units: &[String], phase: Phase) -> State {
        let scenario = format!(
            "[scenario]\ntitle = \"told\"\nfirst_active = \"french\"\n\n[map]\nkind = \"table\"\nwidth = 48\ndepth = 36\n\n{}",
            units.concat()
        );
        let campaign = crate::campaign::load_texts(Path::new("told"), CAMPAIGN, &scenario)
            .expect("the position loads");
        let ruleset = crate::rules::ruleset_for(ID).expect("registered");
        let mut state = campaign
            .initial_state(ruleset)
            .expect("sets up")
            .typed::<PercentileFire>()
            .expect("reads");
        state.phase = phase.index();
        state
    }

    /// A phase resolved on forced dice: the state after, its events and
    /// its rolls.
    fn resolve(state: &State, orders: &[(&str, &str)], dice: &[u32]) -> Played {
        let mut given = BTreeMap::new();
        for (side, text) in orders {
            let sheet = check_typed(&PercentileFire, state, side, text);
            assert!(sheet.is_clean(), "{side}: {:?}", sheet.rejections);
            given.insert(side.to_string(), sheet.accepted);
        }
        let mut forced = ForcedDice::new(dice.iter().copied());
        let (next, events) = PercentileFire.resolve(state, &given, &mut forced);
        assert!(forced.problems().is_empty(), "{:?}", forced.problems());
        Played {
            prior: state.clone(),
            next,
            events,
            rolls: forced.log().to_vec(),
        }
    }

    struct Played {
        prior: State,
        next: State,
        events: Vec<Event>,
        rolls: Vec<Roll>,
    }

    impl Played {
        /// The one event of `kind` whose words hold `words`.
        fn event(&self, kind: &str, words: &str) -> &Event {
            let found: Vec<&Event> = self
                .events
                .iter()
                .filter(|e| e.kind == kind && e.text.contains(words))
                .collect();
            assert_eq!(found.len(), 1, "{kind} `{words}` in {:#?}", self.events);
            found[0]
        }

        /// What `side` (`None`: the GM) is told of `event`, and of each
        /// roll.
        fn heard(&self, side: Option<&str>, event: &Event) -> Heard {
            self.with(side, |a| a.event(event))
        }

        fn shown_rolls(&self, side: Option<&str>) -> Vec<bool> {
            self.with(side, |a| self.rolls.iter().map(|r| a.roll(r)).collect())
        }

        fn with<T>(&self, side: Option<&str>, f: impl FnOnce(&Audience) -> T) -> T {
            let ruleset = crate::rules::ruleset_for(ID).expect("registered");
            let (prior, next) = (self.prior.raw(), self.next.raw());
            let audience = match side {
                Some(s) => crate::report::Audience::Side(s.to_string()),
                None => crate::report::Audience::Gm,
            };
            let read = ruleset.read(&next).expect("the state reads");
            let visible = crate::report::visibility(ruleset, &read, &audience, &self.events);
            f(&Audience::new(
                audience.who(),
                visible.as_ref(),
                &prior,
                &next,
            ))
        }

        /// Told to the acting side and the GM, and nothing to `enemy`,
        /// though `enemy` sees every unit the event names.
        fn told_only_to(&self, event: &Event, acting: &str, enemy: &str) {
            for id in &event.units {
                let seen = self.with(Some(enemy), |a| {
                    a.visible.is_none_or(|v| v.contains(id.as_str()))
                });
                assert!(seen, "{enemy} does not see {id}: the test proves nothing");
            }
            assert_eq!(self.heard(None, event), Heard::Told, "GM: {}", event.text);
            assert_eq!(
                self.heard(Some(acting), event),
                Heard::Told,
                "{acting}: {}",
                event.text
            );
            assert_eq!(
                self.heard(Some(enemy), event),
                Heard::Nothing,
                "{enemy}: {}",
                event.text
            );
        }
    }

    /// The standing orders of the non-phasing side are its own: the enemy
    /// that moves learns of them only by the fire they give. Untyped, the
    /// sentence "allied stands ready: b1 opportunity and passby fire" was
    /// told to the French, who see b1.
    #[test]
    fn standing_orders_are_told_to_their_own_side_alone() {
        let state = start(
            &[
                battalion("a1", "french", 16, (10, 6), 0),
                battalion("b1", "allied", 16, (10, 30), 180),
            ],
            Phase::Movement,
        );
        let played = resolve(
            &state,
            &[
                ("french", "a1: forward 2"),
                ("allied", "b1: opportunity and passby fire"),
            ],
            &[],
        );
        let ready = played.event("standing-fire", "stands ready");
        played.told_only_to(ready, "allied", "french");
        // The move itself was seen.
        let moved = played.event("move", "moves forward");
        assert_eq!(played.heard(Some("allied"), moved), Heard::Told);
    }

    /// A move that could not be made, and why, is the mover's own: the
    /// enemy sees only that it did not move. a2 would end on a1, which
    /// moved there first.
    #[test]
    fn a_move_not_made_is_told_to_the_mover_alone() {
        let state = start(
            &[
                battalion("a1", "french", 16, (10, 6), 0),
                battalion("a2", "french", 16, (10, 3), 0),
                battalion("b1", "allied", 16, (10, 30), 180),
            ],
            Phase::Movement,
        );
        let played = resolve(&state, &[("french", "a1: forward 3\na2: forward 5")], &[]);
        let lapsed = played.event("move-lapsed", "does not move");
        assert_eq!(lapsed.names().collect::<Vec<_>>(), ["a2", "a1"]);
        played.told_only_to(lapsed, "french", "allied");
    }

    /// Fire ordered and not made is the firer's own: its target, and why
    /// it came to nothing. The allied volley destroys a1 before it fires.
    #[test]
    fn fire_not_made_is_told_to_the_firing_side_alone() {
        let state = start(
            &[
                battalion("a1", "french", 1, (10, 14), 0),
                battalion("b1", "allied", 16, (10, 17), 180),
            ],
            Phase::InfantryFire,
        );
        let played = resolve(
            &state,
            &[("allied", "b1: fire a1"), ("french", "a1: fire b1")],
            &[1],
        );
        let fired = played.event("fire", "fires at");
        assert_eq!(played.heard(Some("french"), fired), Heard::Told);
        assert_eq!(played.heard(Some("allied"), fired), Heard::Told);
        let destroyed = played.event("fire-lapsed", "destroyed before");
        played.told_only_to(destroyed, "french", "allied");
        // The volleys' dice are seen by both sides: they fired.
        assert!(played.shown_rolls(Some("french")).iter().all(|s| *s));
        assert!(played.shown_rolls(Some("allied")).iter().all(|s| *s));
    }

    /// The opening of a Reciprocal Fire Phase counts both sides' fire
    /// orders, those that came to nothing too: only the GM is told it.
    /// The MFP points lost are every side's.
    #[test]
    fn the_count_of_fire_orders_is_the_gms_and_the_mfp_points_everyones() {
        let state = start(
            &[
                battalion("a1", "french", 1, (10, 14), 0),
                battalion("b1", "allied", 16, (10, 17), 180),
            ],
            Phase::InfantryFire,
        );
        let played = resolve(
            &state,
            &[("allied", "b1: fire a1"), ("french", "a1: fire b1")],
            &[1],
        );
        let opening = played.event("phase", "fire orders from");
        assert_eq!(played.heard(None, opening), Heard::Told);
        assert_eq!(played.heard(Some("allied"), opening), Heard::Nothing);
        assert_eq!(played.heard(Some("french"), opening), Heard::Nothing);
        let mfp = played.event("mfp", "MFP points");
        assert_eq!(played.heard(Some("allied"), mfp), Heard::Told);
        assert_eq!(played.heard(Some("french"), mfp), Heard::Told);
    }

    /// An archived kind reads back as it did, but for the deliberate
    /// change: fire not given is no shot.
    #[test]
    fn archived_kinds_read_back_by_their_first_kind() {
        assert_eq!(Kind::class_of_name("fire"), EventClass::Fire);
        assert_eq!(Kind::class_of_name("passby-fire"), EventClass::Fire);
        assert_eq!(Kind::class_of_name("charge"), EventClass::Charge);
        assert_eq!(Kind::class_of_name("shock"), EventClass::Charge);
        assert_eq!(Kind::class_of_name("move"), EventClass::Move);
        assert_eq!(Kind::class_of_name("fire-lapsed"), EventClass::NoShot);
        assert_eq!(Kind::class_of_name("phase"), EventClass::Other);
        assert_eq!(Kind::class_of_name("standing-fire"), EventClass::Other);
    }
}
