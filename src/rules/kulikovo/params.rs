//! The campaign's parameters: what the terrain chart and the combat tables
//! leave to the players (movement allowances, stacking, facing, what Retire
//! does, leaders, the Strength Advantage numbers, the sequence of play), and
//! the readings of the ambiguous clauses where players could differ. Each
//! has a default, documented with its ruling in docs/RULINGS.md (KUL-); the
//! defaults are made for adjutant, sample values and not the publisher's.
//! The readings of an ambiguous clause players could take either way are
//! the campaign's options (`OPTIONS`), read into [`Readings`].

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::state::Weapon;
use crate::rules::setup::Keys;

/// An enum read from one of its words.
macro_rules! choice {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $word:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
        pub enum $name {
            #[default]
            $($(#[$vdoc])* #[serde(rename = $word)] $variant),+
        }

        impl $name {
            pub const WORDS: &'static [&'static str] = &[$($word),+];

            pub fn from_word(word: &str) -> Option<$name> {
                [$($name::$variant),+].into_iter().zip(Self::WORDS).find(|(_, w)| **w == word).map(|(v, _)| v)
            }
        }
    };
}

choice! {
    /// Whether bowmen and crossbows may move and fire in one activation.
    FootFire { MoveOrFire = "move-or-fire", MoveAndFire = "move-and-fire" }
}

choice! {
    /// "+/-1 If subordinate unit stacked with its Leader or overall
    /// Leader": who gets which sign (ruling KUL-13).
    LeaderDrm { BothSides = "both-sides", AttackerOnly = "attacker-only" }
}

choice! {
    /// Which way the defender's Shock DRM counts (ruling KUL-14).
    ShockSign { FavoursDefender = "favours-defender", AsPrinted = "as-printed" }
}

choice! {
    /// "+4 Attacking through any combination of Front, Flank & Rear"
    /// (ruling KUL-15).
    Combination { AnyTwo = "any-two", AllThree = "all-three" }
}

choice! {
    /// What a Disordered result does to a unit already disordered (ruling
    /// KUL-16).
    Again { NoEffect = "no-effect", Retreat = "retreat", Retire = "retire" }
}

choice! {
    /// "On DR of 9+": the die as rolled, or with its modifiers (ruling
    /// KUL-17).
    DeathCheck { Natural = "natural", Modified = "modified" }
}

choice! {
    /// Which side activates first in a turn (ruling KUL-1).
    Initiative { Fixed = "fixed", Alternate = "alternate" }
}

choice! {
    /// Which defenders try the Counter-Charge Die Roll (ruling KUL-19).
    CounterCharge { WhenOrdered = "when-ordered", Always = "always" }
}

choice! {
    /// Whether units between a firer and its target block the line of fire
    /// (ruling KUL-21).
    Intervening { Block = "block", Clear = "clear" }
}

/// Movement points by weapon system.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Allowances(pub BTreeMap<Weapon, u32>);

impl Default for Allowances {
    fn default() -> Allowances {
        Allowances(BTreeMap::from([
            (Weapon::H, 5),
            (Weapon::M, 6),
            (Weapon::L, 8),
            (Weapon::R, 4),
            (Weapon::C, 4),
            (Weapon::B, 4),
        ]))
    }
}

impl Allowances {
    pub fn of(&self, weapon: Weapon) -> u32 {
        self.0.get(&weapon).copied().unwrap_or(0)
    }
}

/// The campaign's parameters, every one with its default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Params {
    /// Movement points a unit spends in its activation (KUL-5).
    pub movement: Allowances,
    /// How far (in hexes) a leader may go to join a unit (KUL-12).
    pub leader_range: u32,
    /// Movement points per hexside a unit turns (KUL-6).
    pub facing_cost: u32,
    /// Units a hex may hold at the end of any move; leaders do not count
    /// (KUL-7).
    pub stacking_limit: u32,
    /// Movement points light cavalry spends to fire, before the chart's +1
    /// in an enemy zone of control (KUL-20).
    pub light_cavalry_fire_cost: u32,
    /// Hexes a Retired unit falls back (KUL-9).
    pub retire_hexes: u32,
    /// The direction (hexside 0-5) each side's retreats and retirements
    /// head for, by side; a side not named falls back to its units' rear
    /// (KUL-8).
    pub retreat_toward: BTreeMap<String, u8>,
    /// Strength Advantage: the DRM per unit one side has more than the
    /// other, and its largest size either way (KUL-18).
    pub strength_step: u32,
    pub strength_most: u32,
    pub disordered_again: Again,
    /// The Death of Leader check (13.3, not in the text): the leader is
    /// killed on a d10 of this or less (KUL-17).
    pub leader_killed_at_most: u32,
    /// The game ends when a side has lost this many units, by side (KUL-22).
    pub army_breaks_at: BTreeMap<String, u32>,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            movement: Allowances::default(),
            leader_range: 6,
            facing_cost: 1,
            stacking_limit: 2,
            light_cavalry_fire_cost: 1,
            retire_hexes: 2,
            retreat_toward: BTreeMap::new(),
            strength_step: 1,
            strength_most: 2,
            disordered_again: Again::default(),
            leader_killed_at_most: 1,
            army_breaks_at: BTreeMap::new(),
        }
    }
}

/// The campaign options: the other reading of an ambiguous clause, where
/// players could differ (docs/RULINGS.md). Off, the ruling's reading holds.
pub const OPTIONS: &[&str] = &[
    ALTERNATE_INITIATIVE,
    MOVE_AND_FIRE,
    LEADER_DRM_ATTACKER_ONLY,
    SHOCK_DRM_AS_PRINTED,
    COMBINATION_ALL_THREE,
    DEATH_CHECK_MODIFIED,
    AUTOMATIC_COUNTER_CHARGE,
    FIRE_OVER_UNITS,
];

pub const ALTERNATE_INITIATIVE: &str = "alternate-initiative";
pub const MOVE_AND_FIRE: &str = "move-and-fire";
pub const LEADER_DRM_ATTACKER_ONLY: &str = "leader-drm-attacker-only";
pub const SHOCK_DRM_AS_PRINTED: &str = "shock-drm-as-printed";
pub const COMBINATION_ALL_THREE: &str = "combination-all-three";
pub const DEATH_CHECK_MODIFIED: &str = "death-check-modified";
pub const AUTOMATIC_COUNTER_CHARGE: &str = "automatic-counter-charge";
pub const FIRE_OVER_UNITS: &str = "fire-over-units";

/// The readings in force, from the campaign's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Readings {
    pub foot_fire: FootFire,
    pub leader_drm: LeaderDrm,
    pub defender_shock_drm: ShockSign,
    pub combination: Combination,
    pub death_check: DeathCheck,
    pub initiative: Initiative,
    pub counter_charge: CounterCharge,
    pub intervening_units: Intervening,
}

impl Readings {
    pub fn of(options: &[String]) -> Readings {
        let on = |o: &str| options.iter().any(|x| x == o);
        Readings {
            foot_fire: if on(MOVE_AND_FIRE) {
                FootFire::MoveAndFire
            } else {
                FootFire::MoveOrFire
            },
            leader_drm: if on(LEADER_DRM_ATTACKER_ONLY) {
                LeaderDrm::AttackerOnly
            } else {
                LeaderDrm::BothSides
            },
            defender_shock_drm: if on(SHOCK_DRM_AS_PRINTED) {
                ShockSign::AsPrinted
            } else {
                ShockSign::FavoursDefender
            },
            combination: if on(COMBINATION_ALL_THREE) {
                Combination::AllThree
            } else {
                Combination::AnyTwo
            },
            death_check: if on(DEATH_CHECK_MODIFIED) {
                DeathCheck::Modified
            } else {
                DeathCheck::Natural
            },
            initiative: if on(ALTERNATE_INITIATIVE) {
                Initiative::Alternate
            } else {
                Initiative::Fixed
            },
            counter_charge: if on(AUTOMATIC_COUNTER_CHARGE) {
                CounterCharge::Always
            } else {
                CounterCharge::WhenOrdered
            },
            intervening_units: if on(FIRE_OVER_UNITS) {
                Intervening::Clear
            } else {
                Intervening::Block
            },
        }
    }
}

/// Every parameter's key, for the documentation's list.
pub const KEYS: &[&str] = &[
    "movement",
    "leader_range",
    "facing_cost",
    "stacking_limit",
    "light_cavalry_fire_cost",
    "retire_hexes",
    "retreat_toward",
    "strength_step",
    "strength_most",
    "disordered_again",
    "leader_killed_at_most",
    "army_breaks_at",
];

/// Reads a word parameter into its enum, keeping the default when absent.
fn choose<T: Copy>(
    keys: &mut dyn Keys,
    key: &str,
    words: &[&str],
    read: fn(&str) -> Option<T>,
    default: T,
    ok: &mut bool,
) -> T {
    match keys.optional_word(key, words, key) {
        Some(Some(word)) => read(&word).unwrap_or(default),
        Some(None) => default,
        None => {
            *ok = false;
            default
        }
    }
}

/// Reads a whole-number parameter, keeping the default when absent.
fn number(keys: &mut dyn Keys, key: &str, min: u32, max: u32, default: u32, ok: &mut bool) -> u32 {
    keys.count(key, min, max, Some(default)).unwrap_or_else(|| {
        *ok = false;
        default
    })
}

/// Reads `[ruleset.parameters]`: every key optional, each problem at its
/// key.
pub fn read(keys: &mut dyn Keys) -> Option<Params> {
    let d = Params::default();
    let mut ok = true;
    let mut movement = d.movement.clone();
    match keys.counts("movement", 0, 99) {
        Some(given) => {
            for (letter, mp) in given {
                match Weapon::from_letter(&letter).filter(|w| w.letter() == letter) {
                    Some(w) => {
                        movement.0.insert(w, mp);
                    }
                    None => {
                        keys.problem(
                            "movement",
                            format!(
                                "`{letter}` is not a weapon system; the movement allowances are given for H, M, L, R, C and B"
                            ),
                            None,
                        );
                        ok = false;
                    }
                }
            }
        }
        None => ok = false,
    }
    let retreat_toward = match keys.counts("retreat_toward", 0, 5) {
        Some(map) => map
            .into_iter()
            .map(|(side, n)| (side, u8::try_from(n).unwrap_or(0)))
            .collect(),
        None => {
            ok = false;
            BTreeMap::new()
        }
    };
    let army_breaks_at = keys
        .counts("army_breaks_at", 1, 100_000)
        .unwrap_or_else(|| {
            ok = false;
            BTreeMap::new()
        });
    let params = Params {
        movement,
        leader_range: number(keys, "leader_range", 0, 99, d.leader_range, &mut ok),
        facing_cost: number(keys, "facing_cost", 0, 99, d.facing_cost, &mut ok),
        stacking_limit: number(keys, "stacking_limit", 1, 99, d.stacking_limit, &mut ok),
        light_cavalry_fire_cost: number(
            keys,
            "light_cavalry_fire_cost",
            0,
            99,
            d.light_cavalry_fire_cost,
            &mut ok,
        ),
        retire_hexes: number(keys, "retire_hexes", 1, 99, d.retire_hexes, &mut ok),
        retreat_toward,
        strength_step: number(keys, "strength_step", 0, 9, d.strength_step, &mut ok),
        strength_most: number(keys, "strength_most", 0, 9, d.strength_most, &mut ok),
        disordered_again: choose(
            keys,
            "disordered_again",
            Again::WORDS,
            Again::from_word,
            d.disordered_again,
            &mut ok,
        ),
        leader_killed_at_most: number(
            keys,
            "leader_killed_at_most",
            0,
            9,
            d.leader_killed_at_most,
            &mut ok,
        ),
        army_breaks_at,
    };
    ok.then_some(params)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::kulikovo::Kulikovo;
    use std::path::Path;

    const CAMPAIGN: &str = include_str!("../../../campaigns/kulikovo-1380/campaign.toml");
    const SCENARIO: &str = include_str!("../../../campaigns/kulikovo-1380/scenario.toml");

    /// The demo campaign with its `[ruleset.parameters]` table replaced.
    fn with_parameters(table: &str) -> Result<crate::campaign::Campaign, String> {
        let start = CAMPAIGN
            .find("[ruleset.parameters]")
            .expect("the demo has parameters");
        let end = CAMPAIGN.find("[[side]]").expect("and sides");
        let text = format!("{}{table}\n\n{}", &CAMPAIGN[..start], &CAMPAIGN[end..]);
        crate::campaign::load_texts(Path::new("test"), &text, SCENARIO).map_err(|p| p.to_string())
    }

    fn params(table: &str) -> Params {
        let c = with_parameters(table).expect("loads");
        let ruleset = crate::rules::ruleset_for("kulikovo").expect("registered");
        c.initial_state(ruleset)
            .expect("sets up")
            .typed::<Kulikovo>()
            .expect("reads")
            .params
    }

    #[test]
    fn no_parameters_take_every_default() {
        assert_eq!(params(""), Params::default());
    }

    #[test]
    fn every_parameter_is_read() {
        let p = params(
            "[ruleset.parameters]\nleader_range = 3\nfacing_cost = 0\nstacking_limit = 1\n\
             light_cavalry_fire_cost = 2\nretire_hexes = 3\nstrength_step = 2\nstrength_most = 4\n\
             disordered_again = \"retire\"\nleader_killed_at_most = 0\n\
             movement = { H = 7, B = 3 }\nretreat_toward = { russians = 5 }\narmy_breaks_at = { horde = 4 }",
        );
        assert_eq!(p.leader_range, 3);
        assert_eq!(p.facing_cost, 0);
        assert_eq!(p.stacking_limit, 1);
        assert_eq!(p.light_cavalry_fire_cost, 2);
        assert_eq!(p.retire_hexes, 3);
        assert_eq!((p.strength_step, p.strength_most), (2, 4));
        assert_eq!(p.disordered_again, Again::Retire);
        assert_eq!(p.leader_killed_at_most, 0);
        assert_eq!((p.movement.of(Weapon::H), p.movement.of(Weapon::B)), (7, 3));
        assert_eq!(
            p.movement.of(Weapon::L),
            8,
            "a weapon not given keeps its default"
        );
        assert_eq!(p.retreat_toward.get("russians"), Some(&5));
        assert_eq!(p.army_breaks_at.get("horde"), Some(&4));
    }

    #[test]
    fn a_bad_parameter_is_a_problem_at_its_key() {
        for (table, wanted) in [
            ("[ruleset.parameters]\nstacking_limit = 0", "stacking_limit"),
            ("[ruleset.parameters]\ndisordered_again = \"rout\"", "rout"),
            (
                "[ruleset.parameters]\nmovement = { X = 3 }",
                "`X` is not a weapon system",
            ),
            (
                "[ruleset.parameters]\nretreat_toward = { russians = 6 }",
                "russians",
            ),
            (
                "[ruleset.parameters]\nleader_killed_at_most = 10",
                "leader_killed_at_most",
            ),
            ("[ruleset.parameters]\nmorale = 3", "unknown key `morale`"),
        ] {
            let e = with_parameters(table).expect_err(table);
            assert!(e.contains(wanted), "{table}: {e}");
            assert!(e.contains("campaign.toml:"), "{e}");
        }
    }

    #[test]
    fn the_campaign_files_page_lists_every_key_and_option() {
        let page = include_str!("../../../docs/CAMPAIGN-FILES.md");
        let section = page
            .split("\n## Kulikovo 1380")
            .nth(1)
            .expect("docs/CAMPAIGN-FILES.md has a Kulikovo section");
        for key in KEYS.iter().chain(OPTIONS) {
            assert!(
                section.contains(&format!("| `{key}` |")),
                "docs/CAMPAIGN-FILES.md does not list `{key}`"
            );
        }
        for word in super::super::setup::NATIONS
            .iter()
            .chain(super::super::ground::TERRAIN_KINDS)
        {
            assert!(
                section.contains(&format!("`{word}`")),
                "docs/CAMPAIGN-FILES.md does not name `{word}`"
            );
        }
    }

    #[test]
    fn the_options_choose_the_other_readings() {
        let all: Vec<String> = OPTIONS.iter().map(|o| o.to_string()).collect();
        let r = Readings::of(&all);
        assert_eq!(r.foot_fire, FootFire::MoveAndFire);
        assert_eq!(r.leader_drm, LeaderDrm::AttackerOnly);
        assert_eq!(r.defender_shock_drm, ShockSign::AsPrinted);
        assert_eq!(r.combination, Combination::AllThree);
        assert_eq!(r.death_check, DeathCheck::Modified);
        assert_eq!(r.initiative, Initiative::Alternate);
        assert_eq!(r.counter_charge, CounterCharge::Always);
        assert_eq!(r.intervening_units, Intervening::Clear);
        assert_eq!(Readings::of(&[]), Readings::default());
    }
}
