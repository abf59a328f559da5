//! What a scenario may set up under the percentile fire chapter: the arms,
//! formations, weapons, firing classes, ammunition, officers and markers
//! the chapter names, and which of them go together.

use std::collections::BTreeMap;

use super::params::{Params, WeaponKind};
use super::state::{
    Arm, Class, Counterbattery, Formation, Morale, PfUnit, Rating, Shot, Unit, Word,
};
use crate::rules::setup::{Keys, SetupContext, UnitBasics};

/// The optional readings a campaign may choose where players could
/// reasonably differ (docs/RULINGS.md).
pub const OPTIONS: &[&str] = &[
    ROUND_EACH_STEP,
    NEW_ROLL_FOR_EXTRA_FIGURES,
    SCREEN_BY_A_THIRD,
    NEAREST_WITHIN_FOUR,
];

/// PF-6: round the percent up after each modifier, not once at the end.
pub const ROUND_EACH_STEP: &str = "round-each-step";
/// PF-7: the chance of a further figure over 100% takes a roll of its own.
pub const NEW_ROLL_FOR_EXTRA_FIGURES: &str = "new-roll-for-extra-figures";
/// PF-8: a skirmish screen reduces artillery fire by a third (x2/3), not to
/// a third (x1/3).
pub const SCREEN_BY_A_THIRD: &str = "screen-by-a-third";
/// PF-14: infantry and cavalry must engage the nearest formed enemy only
/// within 4", as artillery must.
pub const NEAREST_WITHIN_FOUR: &str = "nearest-within-4";

/// The nations whose firing classes a campaign's table may give.
pub const NATIONS: &[&str] = &[
    "austria", "bavaria", "britain", "france", "portugal", "prussia", "russia", "saxony", "spain",
    "sweden",
];

/// Every terrain kind's word: the words of
/// [`TerrainKind`](super::ground::TerrainKind), the kinds the rules match on.
pub const TERRAIN_KINDS: &[&str] = super::ground::TerrainKind::KINDS;

/// States a unit may begin in.
pub const MARKS: &[&str] = &[
    "artillery-officer",
    "uncrewed",
    "charging",
    "counterbattery-a",
    "counterbattery-b",
];

const FORMATIONS: &str = "Formations 8.0, 9.0: infantry stand in line, column, square or skirmish order; cavalry in line, column or skirmish order; artillery limbered or unlimbered";
const WEAPONS: &str = "11.32: \"Shot Zone is the range for shot found on the Weapon Range chart\"";
const HOWITZERS: &str = "11.53: \"many nations had artillery batteries with 1 to 2 howitzers within the battery's organizational structure\"";
const REGIMENTAL: &str = "11.24d: \"Any regimental artillery attached executes fire attacks with the infantry battalion\"";

/// The formations each arm may stand in.
pub fn formations_of(arm: Arm) -> &'static [Formation] {
    use Formation::*;
    match arm {
        Arm::Infantry => &[Line, Column, Square, Skirmish],
        Arm::Cavalry => &[Line, Column, Skirmish],
        Arm::Artillery => &[Limbered, Unlimbered],
        Arm::Headquarters | Arm::Train => &[Line, Column],
    }
}

fn word<W: Word>(keys: &mut dyn Keys, key: &str, what: &str) -> Option<W> {
    let words = W::words();
    keys.word(key, &words, what).and_then(|w| W::from_word(&w))
}

fn optional<W: Word>(keys: &mut dyn Keys, key: &str, what: &str) -> Option<Option<W>> {
    let words = W::words();
    keys.optional_word(key, &words, what)
        .map(|w| w.and_then(|w| W::from_word(&w)))
}

/// Reads a unit's keys, in the state it begins the game.
pub fn setup_unit(
    basics: UnitBasics<'_>,
    keys: &mut dyn Keys,
    context: &SetupContext<'_>,
) -> Option<PfUnit> {
    let params: Params = context.params();
    let weapon_names: Vec<&str> = params.weapons.keys().map(String::as_str).collect();
    let arm: Option<Arm> = word(keys, "arm", "arm");
    let formation: Option<Formation> = word(keys, "formation", "formation");
    let ranks = keys.count("ranks", 1, 4, Some(2));
    let weapon = keys.optional_word("weapon", &weapon_names, "weapon");
    let class = optional::<Class>(keys, "class", "firing class");
    let rating = optional::<Rating>(keys, "rating", "rating");
    let morale = optional::<Morale>(keys, "morale", "morale status");
    let cannon = keys.count("cannon", 0, 1000, Some(0));
    let howitzers = keys.count("howitzers", 0, 1000, Some(0));
    let howitzer = keys.optional_word("howitzer", &weapon_names, "weapon");
    let ammunition = if keys.has("ammunition") {
        keys.counts("ammunition", 0, 100_000).map(Some)
    } else {
        Some(None)
    };
    let marks = keys.words("marks", MARKS, "mark");
    let in_square = keys.optional_word("in_square", &[], "unit");
    let cmr = keys.count("cmr", 0, 1000, Some(0));
    let light_figures = keys.count("light_figures", 0, 100_000, Some(0));
    let regimental_guns = keys.count("regimental_guns", 0, 100, Some(0));
    let regimental_weapon = keys.optional_word("regimental_weapon", &weapon_names, "weapon");
    let parent = keys.optional_word("parent", &[], "unit");

    let (arm, formation, marks) = (arm?, formation?, marks?);
    // Tables that did not read are reported at their keys; the units are
    // then based as the sample bases them, so as not to repeat the problem
    // as units off the table.
    let bases = if params.basing.is_empty() {
        super::params::sample()
    } else {
        params.clone()
    };
    let base = bases
        .basing
        .get(arm.word())
        .copied()
        .unwrap_or(super::params::Base {
            frontage: 100,
            depth: 100,
        });
    let mut unit = PfUnit::new(arm, formation, base, bases.column_frontage.max(1));
    unit.ranks = ranks?;
    unit.weapon = weapon?.unwrap_or_default();
    unit.class = class?;
    unit.rating = rating?.unwrap_or(Rating::Regular);
    unit.morale = morale?.unwrap_or(Morale::Steady);
    unit.cannon = cannon?;
    unit.howitzers = howitzers?;
    unit.howitzer = howitzer?;
    unit.in_square = in_square?;
    unit.cmr = cmr?;
    unit.light_figures = light_figures?;
    unit.regimental_guns = regimental_guns?;
    unit.regimental_weapon = regimental_weapon?;
    unit.parent = parent?;
    let has = |m: &str| marks.iter().any(|x| x == m);
    unit.artillery_officer = has("artillery-officer");
    unit.crewed = !has("uncrewed");
    unit.charging = has("charging");
    unit.counterbattery = if has("counterbattery-a") {
        Some(Counterbattery::A)
    } else if has("counterbattery-b") {
        Some(Counterbattery::B)
    } else {
        None
    };
    let mut good = true;
    if let Some(rounds) = ammunition? {
        let mut by_shot = BTreeMap::new();
        for (name, n) in rounds {
            match Shot::from_word(&name) {
                Some(shot) => {
                    by_shot.insert(shot, n);
                }
                None => {
                    keys.problem(
                        "ammunition",
                        format!(
                            "`{name}` is no type of ammunition: the types are {}",
                            Shot::words().join(", ")
                        ),
                        Some("11.15 step 2: \"Mark off the ammunition used on the roster\""),
                    );
                    good = false;
                }
            }
        }
        unit.ammunition = Some(by_shot);
    }
    let whole = basics.unit(unit);
    for (key, problem, clause) in unit_problems(&whole, &params) {
        keys.problem(key, problem, Some(clause));
        good = false;
    }
    good.then_some(whole.rules)
}

/// What keeps a unit from standing in the game, with the key at fault and
/// the clause: each check the scenario's keys and a GM's correction share.
pub fn unit_problems(unit: &Unit, params: &Params) -> Vec<(&'static str, String, &'static str)> {
    let u = &unit.rules;
    let mut out = Vec::new();
    if !formations_of(u.arm).contains(&u.formation) {
        out.push((
            "formation",
            format!(
                "{} cannot stand in {}: its formations are {}",
                u.arm,
                u.formation,
                formations_of(u.arm)
                    .iter()
                    .map(|f| f.word())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            FORMATIONS,
        ));
    }
    let kind = params.weapons.get(&u.weapon).map(|w| w.kind);
    // Tables that did not read say so themselves: no unit repeats it.
    let tables = !params.weapons.is_empty();
    match (u.arm, kind) {
        _ if !tables => {}
        (Arm::Infantry | Arm::Cavalry, Some(WeaponKind::SmallArms)) => {}
        (Arm::Artillery, Some(k)) if k.is_artillery() => {}
        (Arm::Headquarters | Arm::Train, _) if u.weapon.is_empty() => {}
        (Arm::Headquarters | Arm::Train, _) => out.push((
            "weapon",
            format!("a {} base carries no weapon that fires", u.arm),
            "11.23: \"The following unit type or formations may never fire: 1) Command headquarter bases [...] 8) All train units\"",
        )),
        (arm, None) => out.push((
            "weapon",
            format!(
                "{arm} needs a `weapon` of the Weapon Range Chart: {}",
                params.weapons.keys().cloned().collect::<Vec<_>>().join(", ")
            ),
            WEAPONS,
        )),
        (arm, Some(_)) => out.push((
            "weapon",
            format!(
                "`{}` is {} the weapon of {arm}",
                u.weapon,
                if arm == Arm::Artillery {
                    "small arms, not"
                } else {
                    "artillery, not"
                }
            ),
            WEAPONS,
        )),
    }
    if u.arm == Arm::Artillery {
        if u.cannon == 0 {
            out.push((
                "cannon",
                "a battery needs its `cannon`, the gun models it fires with (its strength is its crew figures)".into(),
                "11.15 step 6: \"till the number equal to the number of cannon firing is located\"",
            ));
        }
        if u.howitzers > u.cannon {
            out.push((
                "howitzers",
                format!(
                    "{} howitzers in a battery of {} cannon",
                    u.howitzers, u.cannon
                ),
                HOWITZERS,
            ));
        }
        let mixed = tables && u.howitzers > 0 && kind.is_some_and(|k| !k.fires_indirect());
        let howitzer_kind = u
            .howitzer
            .as_ref()
            .and_then(|h| params.weapons.get(h))
            .map(|w| w.kind);
        if mixed && !howitzer_kind.is_some_and(WeaponKind::fires_indirect) {
            out.push((
                "howitzer",
                "a battery of guns with howitzers names their weapon, a howitzer or mortar of the Weapon Range Chart".into(),
                HOWITZERS,
            ));
        }
    } else if u.cannon > 0 || u.howitzers > 0 {
        out.push(("cannon", "only artillery has cannon".into(), "11.15 step 6"));
    }
    if tables && u.regimental_guns > 0 {
        let gun = u
            .regimental_weapon
            .as_ref()
            .and_then(|w| params.weapons.get(w))
            .is_some_and(|w| w.kind == WeaponKind::Gun);
        if u.arm != Arm::Infantry || !gun {
            out.push((
                "regimental_guns",
                "regimental artillery is attached to an infantry battalion and names its `regimental_weapon`, a gun".into(),
                REGIMENTAL,
            ));
        }
    }
    if u.light_figures > unit.strength {
        out.push((
            "light_figures",
            format!(
                "{} light figures in a unit of {}",
                u.light_figures, unit.strength
            ),
            "11.79: \"light (voltiguer type) skirmish figures within the line battalion's formation\"",
        ));
    }
    if u.counterbattery.is_some() && u.arm != Arm::Artillery {
        out.push((
            "marks",
            "only a battery carries a counterbattery marker".into(),
            "11.76: \"Counterbattery A means the target battery must complete one of the following\"",
        ));
    }
    if u.in_square.as_deref() == Some(unit.id.as_str()) {
        out.push((
            "in_square",
            "a unit does not stand in its own square".into(),
            "11.78",
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::params::{plain::PlainKeys, sample};
    use super::*;
    use crate::rules::board::Location;

    fn read(text: &str, strength: u32) -> (Option<PfUnit>, Vec<String>) {
        let params = serde_json::to_value(sample()).expect("params serialise");
        let nations = BTreeMap::new();
        let context = SetupContext {
            options: &[],
            nations: &nations,
            map: None,
            params: &params,
        };
        let basics = UnitBasics {
            id: "u",
            name: "U",
            side: "blue",
            strength,
            location: Location::Table { x: 1000, y: 1000 },
            facing: 0,
        };
        let mut keys = PlainKeys::of(text);
        let unit = setup_unit(basics, &mut keys, &context);
        (unit, keys.problems)
    }

    #[test]
    fn a_battery_reads_its_cannon_ammunition_and_officer() {
        let (unit, problems) = read(
            "arm = \"artillery\"\nformation = \"unlimbered\"\nweapon = \"12pdr\"\ncannon = 6\nammunition = { roundshot = 20, shot = 8 }\nmarks = [\"artillery-officer\"]\n",
            12,
        );
        assert!(problems.is_empty(), "{problems:?}");
        let u = unit.expect("reads");
        assert_eq!(u.cannon_now(), 6);
        assert_eq!(u.rounds(Shot::Roundshot), Some(20));
        assert_eq!(u.rounds(Shot::Shell), Some(0));
        assert!(u.artillery_officer);
        assert_eq!(u.base.frontage, 150);
    }

    #[test]
    fn what_does_not_go_together_is_refused_with_its_clause() {
        let (unit, problems) = read(
            "arm = \"cavalry\"\nformation = \"square\"\nweapon = \"12pdr\"\n",
            12,
        );
        assert!(unit.is_none());
        assert!(
            problems
                .iter()
                .any(|p| p.contains("cavalry cannot stand in square")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|p| p.contains("`12pdr` is artillery, not the weapon of cavalry")),
            "{problems:?}"
        );
        let (unit, problems) = read(
            "arm = \"artillery\"\nformation = \"unlimbered\"\nweapon = \"6pdr\"\ncannon = 6\nhowitzers = 2\n",
            12,
        );
        assert!(unit.is_none());
        assert!(
            problems.iter().any(|p| p.starts_with("howitzer:")),
            "{problems:?}"
        );
    }
}
