//! The campaign's parameters: what the Charging chapter refers to and does
//! not contain (the Morale Check, Fleeing & Routing, PIP generation,
//! movement and firing), each with the default documented in
//! docs/RULINGS.md (GT-3 to GT-9) and in docs/CAMPAIGN-FILES.md.
//! Read once, when the campaign is loaded, through `Keys`; carried in the
//! state so that `verify` re-runs every resolution from the archive alone.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::geometry::Hundredths;
use crate::rules::setup::Keys;

/// The parameters, with their defaults (`Params::default()`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Params {
    /// The Morale Check: one d6, plus modifiers, passes on this or more
    /// (GT-3: "one d6 needing 4+").
    pub morale_check_needs: u32,
    /// Taken from a shaken (or routed) unit's Morale Check.
    pub shaken_penalty: u32,
    /// Added to a veteran unit's Morale Check.
    pub veteran_bonus: u32,
    /// Added to the Morale Check of a unit in a Built-Up Area.
    pub built_up_area_bonus: u32,
    /// Added to the Morale Check of a unit in woods.
    pub woods_bonus: u32,
    /// "the morale bonus for charging a target with help from friends".
    pub help_from_friends_bonus: u32,
    /// "the morale penalty for being charged by more than one unit".
    pub charged_by_several_penalty: u32,
    /// Added to the Morale Check of a unit that is in square when charged
    /// by cavalry.
    pub square_against_cavalry_bonus: u32,
    /// Bonuses and penalties the campaign adds, by a mark units carry.
    pub morale_bonus: BTreeMap<String, u32>,
    pub morale_penalty: BTreeMap<String, u32>,
    /// PIP generation (GT-5): d6 rolled for each command at the end of a
    /// turn for the next; by command where the campaign says otherwise.
    pub pip_dice: u32,
    pub command_pip_dice: BTreeMap<String, u32>,
    /// Each command's PIPs in the first turn.
    pub first_turn_pips: u32,
    /// What moves, formation changes and rallies cost (GT-6).
    pub move_pips: u32,
    pub formation_pips: u32,
    pub rally_pips: u32,
    /// Moves in inches (GT-6); cavalry's 9" and cuirassiers' 6" are the
    /// chapter's own ("Cuirassiers move at 6” (rather than 9”)").
    pub infantry_move: u32,
    pub artillery_move: u32,
    /// Firing (GT-7), in inches, and the penalty on the target's check.
    pub infantry_range: u32,
    pub artillery_range: u32,
    pub fire_penalty: u32,
    /// How far one sees into woods or a Built-Up Area, in inches (GT-10).
    pub sight_into_cover: u32,
    /// Fleeing & Routing (GT-8).
    pub friends_passed_through: FriendsPassedThrough,
    pub artillery_that_fails: ArtilleryThatFails,
    pub routed_charged_by_infantry: RoutedChargedByInfantry,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            morale_check_needs: 4,
            shaken_penalty: 1,
            veteran_bonus: 1,
            built_up_area_bonus: 1,
            woods_bonus: 0,
            help_from_friends_bonus: 1,
            charged_by_several_penalty: 1,
            square_against_cavalry_bonus: 0,
            morale_bonus: BTreeMap::new(),
            morale_penalty: BTreeMap::new(),
            pip_dice: 1,
            command_pip_dice: BTreeMap::new(),
            first_turn_pips: 3,
            move_pips: 1,
            formation_pips: 1,
            rally_pips: 1,
            infantry_move: 6,
            artillery_move: 4,
            infantry_range: 4,
            artillery_range: 12,
            fire_penalty: 0,
            sight_into_cover: 2,
            friends_passed_through: FriendsPassedThrough::NoEffect,
            artillery_that_fails: ArtilleryThatFails::Captured,
            routed_charged_by_infantry: RoutedChargedByInfantry::Flees,
        }
    }
}

/// "First resolve all effects (if any) of a fleeing unit’s passing through
/// friends (see the rules for Fleeing and Routing)": the rules for Fleeing
/// and Routing are not in the chapter (GT-8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FriendsPassedThrough {
    /// No effect.
    NoEffect,
    /// Each friend passed through takes a Morale Check; one that fails is
    /// shaken.
    MoraleCheck,
}

/// What artillery that fails its Morale Check against a charge does (GT-8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArtilleryThatFails {
    /// The guns are taken and removed from the game.
    Captured,
    /// The gunners flee as infantry do, 7".
    Flees,
}

/// "Charges against routed units are automatically successful, with the
/// results specified under Fleeing & Routing": for infantry, which the
/// chapter does not say (GT-8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RoutedChargedByInfantry {
    /// The routed unit flees again, still routed, and the infantry takes
    /// the position.
    Flees,
    /// The routed unit is destroyed, as one charged by cavalry is.
    Destroyed,
}

impl Params {
    /// The d6 a command rolls for its PIPs.
    pub fn pip_dice_of(&self, command: &str) -> u32 {
        self.command_pip_dice
            .get(command)
            .copied()
            .unwrap_or(self.pip_dice)
    }

    pub fn inches(n: u32) -> Hundredths {
        Hundredths::from(n) * 100
    }
}

/// Reads a word parameter among `choices`, each an enum value and its word.
fn choice<T: Copy>(
    keys: &mut dyn Keys,
    key: &str,
    choices: &[(&str, T)],
    default: T,
    what: &str,
) -> Option<T> {
    let words: Vec<&str> = choices.iter().map(|(w, _)| *w).collect();
    let word = keys.optional_word(key, &words, what)?;
    Some(match word {
        None => default,
        Some(w) => choices
            .iter()
            .find(|(c, _)| *c == w)
            .map_or(default, |(_, v)| *v),
    })
}

/// Reads `[ruleset.parameters]`: every key optional, each checked where it
/// is written. `None` when any problem was reported.
pub fn read(keys: &mut dyn Keys) -> Option<Params> {
    let d = Params::default();
    let mut ok = true;
    let mut count = |keys: &mut dyn Keys, key: &str, min: u32, max: u32, default: u32| {
        let v = keys.count(key, min, max, Some(default));
        ok &= v.is_some();
        v.unwrap_or(default)
    };
    let morale_check_needs = count(keys, "morale_check_needs", 1, 12, d.morale_check_needs);
    let shaken_penalty = count(keys, "shaken_penalty", 0, 6, d.shaken_penalty);
    let veteran_bonus = count(keys, "veteran_bonus", 0, 6, d.veteran_bonus);
    let built_up_area_bonus = count(keys, "built_up_area_bonus", 0, 6, d.built_up_area_bonus);
    let woods_bonus = count(keys, "woods_bonus", 0, 6, d.woods_bonus);
    let help_from_friends_bonus = count(
        keys,
        "help_from_friends_bonus",
        0,
        6,
        d.help_from_friends_bonus,
    );
    let charged_by_several_penalty = count(
        keys,
        "charged_by_several_penalty",
        0,
        6,
        d.charged_by_several_penalty,
    );
    let square_against_cavalry_bonus = count(
        keys,
        "square_against_cavalry_bonus",
        0,
        6,
        d.square_against_cavalry_bonus,
    );
    let pip_dice = count(keys, "pip_dice", 0, 6, d.pip_dice);
    let first_turn_pips = count(keys, "first_turn_pips", 0, 36, d.first_turn_pips);
    let move_pips = count(keys, "move_pips", 0, 6, d.move_pips);
    let formation_pips = count(keys, "formation_pips", 0, 6, d.formation_pips);
    let rally_pips = count(keys, "rally_pips", 0, 6, d.rally_pips);
    let infantry_move = count(keys, "infantry_move", 1, 48, d.infantry_move);
    let artillery_move = count(keys, "artillery_move", 0, 48, d.artillery_move);
    let infantry_range = count(keys, "infantry_range", 0, 48, d.infantry_range);
    let artillery_range = count(keys, "artillery_range", 0, 96, d.artillery_range);
    let fire_penalty = count(keys, "fire_penalty", 0, 6, d.fire_penalty);
    let sight_into_cover = count(keys, "sight_into_cover", 0, 48, d.sight_into_cover);
    let mut table = |keys: &mut dyn Keys, key: &str, max: u32| {
        let v = keys.counts(key, 0, max);
        ok &= v.is_some();
        v.unwrap_or_default()
    };
    let morale_bonus = table(keys, "morale_bonus", 6);
    let morale_penalty = table(keys, "morale_penalty", 6);
    let command_pip_dice = table(keys, "command_pip_dice", 6);
    let friends_passed_through = choice(
        keys,
        "friends_passed_through",
        &[
            ("no-effect", FriendsPassedThrough::NoEffect),
            ("morale-check", FriendsPassedThrough::MoraleCheck),
        ],
        d.friends_passed_through,
        "effect of a fleeing unit on friends",
    );
    let artillery_that_fails = choice(
        keys,
        "artillery_that_fails",
        &[
            ("captured", ArtilleryThatFails::Captured),
            ("flees", ArtilleryThatFails::Flees),
        ],
        d.artillery_that_fails,
        "result for artillery",
    );
    let routed_charged_by_infantry = choice(
        keys,
        "routed_charged_by_infantry",
        &[
            ("flees", RoutedChargedByInfantry::Flees),
            ("destroyed", RoutedChargedByInfantry::Destroyed),
        ],
        d.routed_charged_by_infantry,
        "result for a routed unit",
    );
    let (
        Some(friends_passed_through),
        Some(artillery_that_fails),
        Some(routed_charged_by_infantry),
    ) = (
        friends_passed_through,
        artillery_that_fails,
        routed_charged_by_infantry,
    )
    else {
        return None;
    };
    ok.then_some(Params {
        morale_check_needs,
        shaken_penalty,
        veteran_bonus,
        built_up_area_bonus,
        woods_bonus,
        help_from_friends_bonus,
        charged_by_several_penalty,
        square_against_cavalry_bonus,
        morale_bonus,
        morale_penalty,
        pip_dice,
        command_pip_dice,
        first_turn_pips,
        move_pips,
        formation_pips,
        rally_pips,
        infantry_move,
        artillery_move,
        infantry_range,
        artillery_range,
        fire_penalty,
        sight_into_cover,
        friends_passed_through,
        artillery_that_fails,
        routed_charged_by_infantry,
    })
}
