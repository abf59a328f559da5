//! What a Sound the Charge scenario may set up: the troop types, grades,
//! formations, optional rules, nations, terrain and marks the rules name, and
//! which of them go together.

use super::state::{StcUnit, TroopType, Unit, UnitStatus};
use super::tables::{Arm, Grade};
use crate::rules::setup::{Keys, SetupContext, UnitBasics};
use crate::rules::sound_the_charge::orders::Formation;

/// Units, Troop Types, and Organization of Figures: "Infantry is rated as
/// line [...] or light"; "Cavalry is rated as light [...], medium [...], or
/// heavy"; "Artillery consists of light guns, field guns, and heavy guns."
/// Horse guns come from the Movement Table: "Horse guns (light or field
/// caliber)".
pub const TROOP_TYPES: &[&str] = &[
    "line-infantry",
    "light-infantry",
    "light-cavalry",
    "medium-cavalry",
    "heavy-cavalry",
    "light-guns",
    "field-guns",
    "heavy-guns",
    "horse-guns",
];

/// "There are four morale grades of units: A, B, C, and D, where As are the
/// best and Ds are the worst."
pub const GRADES: &[&str] = &["A", "B", "C", "D"];

/// Formations: "There are four basic formations for a unit in the game"
/// (column, line, square, skirmish); and for guns, Artillery Movement:
/// "Limbering and unlimbering takes half a move."
pub const FORMATIONS: &[&str] = &[
    "line",
    "column",
    "square",
    "skirmish",
    "limbered",
    "unlimbered",
];

/// The OPTIONAL RULES, by their headings: "Be sure to declare which optional
/// rules are in effect before play begins."
pub const OPTIONS: &[&str] = &[
    WIDER_CAVALRY_BASING,
    "blown-cavalry",
    "stationary-cavalry",
    "voluntary-retreat",
    "army-morale",
    "artillery-bounce-through",
    "interpenetration-restrictions",
    "regimental-guns",
    "boats",
    "pinning",
];

/// Wider Cavalry Basing: "Some players have based their armies with cavalry
/// mounted at 3/4" frontage per figure instead of 1/2"."
pub const WIDER_CAVALRY_BASING: &str = "wider-cavalry-basing";

/// National Modifiers, by their headings ("Britain, Portugal", "Prussia
/// pre-1810", "Prussia post-1810, French Allies other than Swiss", ...).
pub const NATIONS: &[&str] = &[
    "austria",
    "britain",
    "portugal",
    "france",
    "switzerland",
    "prussia-pre-1810",
    "prussia-post-1810",
    "french-allies",
    "russia",
    "spain",
    "naples",
];

/// Terrain Suggestions and Fieldworks, with the crest line of a gentle hill
/// ("block sighting past their crestlines") and the chateau ("If a town
/// block actually represents a single chateau") as features of their own:
/// the words of [`TerrainKind`](super::ground::TerrainKind), the kinds the
/// rules match on.
pub const TERRAIN_KINDS: &[&str] = super::ground::TerrainKind::KINDS;

/// States a unit may begin in: "Units begin the game in good morale" unless
/// the scenario says otherwise; "The unit is elite: +1" (playsheet); blown
/// cavalry (optional rule); a battalion with a regimental gun (optional
/// rule).
pub const MARKS: &[&str] = &["shaken", "disordered", "elite", "blown", "regimental-gun"];

const SQUARE: &str = "Formations: \"Square: A square, facing outward in all directions, possible to infantry only.\"";
const SKIRMISH: &str =
    "Formations: \"Skirmish: A loose-order formation possible only to light infantry troops.\"";
const LIMBERING: &str = "Artillery Movement: \"Manhandled guns move at line rate, limbered guns move at column rate. Limbering and unlimbering takes half a move.\"";
const GUNNERS: &str = "Shooting: \"A gun model needs two gunners to shoot.\" Gunners are figures of \"10 gunners\" each, and only batteries have them.";
const REGIMENTAL_GUN: &str = "Regimental Guns: \"A regimental gun is attached to a battalion of infantry and must be in contact with it at all times.\"";
const RANKS: &str = "Formations: \"Line: A formation wider than a column.\" Only a line's depth is the scenario's to choose.";

/// The part of a unit a problem is about: the key that gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitField {
    TroopType,
    Grade,
    Strength,
    Gunners,
    Formation,
    Ranks,
}

impl UnitField {
    fn key(self) -> &'static str {
        match self {
            UnitField::TroopType => "troop_type",
            UnitField::Grade => "grade",
            UnitField::Strength => "strength",
            UnitField::Gunners => "gunners",
            UnitField::Formation => "formation",
            UnitField::Ranks => "ranks",
        }
    }
}

/// Why a unit cannot be set up as the scenario gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupProblem {
    pub field: UnitField,
    pub problem: String,
    /// The clause of the rules that forbids it, quoted.
    pub clause: Option<&'static str>,
}

/// Reads a unit's Sound the Charge keys, in the state it begins the game:
/// "Units begin the game in good morale" unless the scenario marks them
/// shaken, disordered or blown.
pub fn setup_unit(
    basics: UnitBasics<'_>,
    keys: &mut dyn Keys,
    context: &SetupContext<'_>,
) -> Option<StcUnit> {
    // The lists are the words the enums read, so a word that passes reads.
    let troop_type = keys
        .word("troop_type", TROOP_TYPES, "troop type")
        .and_then(|w| TroopType::from_word(&w));
    let grade = keys
        .word("grade", GRADES, "grade")
        .and_then(|w| Grade::parse(&w.to_lowercase()));
    let formation = keys
        .word("formation", FORMATIONS, "formation")
        .and_then(|w| Formation::from_word(&w));
    let marks = keys.words("marks", MARKS, "mark");
    let gunners = keys.count("gunners", 0, 100_000, Some(0));
    let ranks = keys.count("ranks", 1, 100, Some(1));
    let marks = marks?;
    let has = |m: &str| marks.iter().any(|x| x == m);
    let mut part = StcUnit {
        troop_type: troop_type?,
        grade: grade?,
        gunners: gunners?,
        formation: formation?,
        ranks: ranks?,
        figure_frontage: None,
        shaken: has("shaken"),
        disordered: has("disordered"),
        status: UnitStatus {
            blown: has("blown"),
            ..UnitStatus::default()
        },
        marks,
    };
    apply_options(context.options, &mut part);
    let unit = basics.unit(part);
    let problems = unit_problems(&unit);
    let ranks_given = keys.has("ranks");
    for p in &problems {
        // A line given too many ranks by default is about its formation.
        let key = match p.field {
            UnitField::Ranks if !ranks_given => "formation",
            f => f.key(),
        };
        keys.problem(key, p.problem.clone(), p.clause);
    }
    problems.is_empty().then_some(unit.rules)
}

/// What keeps a unit as a GM's correction left it from standing: a
/// formation the scenario could not give it.
pub fn check_corrected(unit: &Unit) -> Result<(), String> {
    if !FORMATIONS.contains(&unit.rules.formation.word()) {
        return Err(format!(
            "`{}` is not a formation of this ruleset ({})",
            unit.rules.formation,
            FORMATIONS.join(", ")
        ));
    }
    Ok(())
}

/// What keeps a unit from being set up as given, once its troop type,
/// grade and formation are each known (a formation its troop type cannot
/// take, guns without gunners, ...).
pub fn unit_problems(unit: &Unit) -> Vec<SetupProblem> {
    let mut problems = Vec::new();
    let arm = unit.rules.troop_type.arm();
    let troop_type = unit.rules.troop_type.word();
    let mut problem = |field, problem: String, clause| {
        problems.push(SetupProblem {
            field,
            problem,
            clause: Some(clause),
        })
    };
    let formation = unit.rules.formation.word();
    match (formation, arm) {
        ("line" | "column" | "square" | "skirmish", Arm::Artillery) => problem(
            UnitField::Formation,
            format!("guns are `limbered` or `unlimbered`, not in {formation}"),
            LIMBERING,
        ),
        ("square", Arm::Cavalry) => problem(
            UnitField::Formation,
            format!("a {troop_type} unit cannot form square"),
            SQUARE,
        ),
        ("skirmish", _) if troop_type != "light-infantry" => problem(
            UnitField::Formation,
            format!("a {troop_type} unit cannot skirmish"),
            SKIRMISH,
        ),
        ("limbered" | "unlimbered", Arm::Infantry | Arm::Cavalry) => problem(
            UnitField::Formation,
            format!("only guns are {formation}; a {troop_type} unit is not"),
            LIMBERING,
        ),
        _ => {}
    }
    match arm {
        Arm::Artillery if unit.rules.gunners == 0 => problem(
            UnitField::Gunners,
            "a battery needs gunners".to_string(),
            GUNNERS,
        ),
        Arm::Infantry | Arm::Cavalry if unit.rules.gunners > 0 => problem(
            UnitField::Gunners,
            format!("a {troop_type} unit has no gunners"),
            GUNNERS,
        ),
        _ => {}
    }
    if unit.rules.ranks > 1 && formation != "line" {
        problem(
            UnitField::Ranks,
            format!("only a line takes `ranks`; a {formation} has the depth the rules give it"),
            RANKS,
        );
    } else if formation == "line" {
        let stands = super::basing::stands(unit);
        if i64::from(unit.rules.ranks) > stands {
            problem(
                UnitField::Ranks,
                format!(
                    "{} figures make {stands} stand(s), too few for {} ranks",
                    unit.strength, unit.rules.ranks
                ),
                RANKS,
            );
        }
    }
    if unit.rules.marks.iter().any(|m| m == "regimental-gun") && arm != Arm::Infantry {
        problem(
            UnitField::TroopType,
            format!(
                "only a battalion of infantry has a regimental gun, not {}",
                troop_type.replace('-', " ")
            ),
            REGIMENTAL_GUN,
        );
    }
    problems
}

/// Settles the campaign's basing option in the unit, so that its footprint
/// depends on the unit alone.
pub fn apply_options(options: &[String], unit: &mut StcUnit) {
    if unit.troop_type.arm() == Arm::Cavalry && options.iter().any(|o| o == WIDER_CAVALRY_BASING) {
        unit.figure_frontage = Some(super::basing::WIDER_CAVALRY_FRONTAGE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_battalion_of_infantry_has_a_regimental_gun() {
        let mut hussars = unit("light-cavalry", "line", 6);
        hussars.rules.marks.push("regimental-gun".to_string());
        let problems = unit_problems(&hussars);
        assert!(
            problems.iter().any(|p| p.clause == Some(REGIMENTAL_GUN)),
            "{problems:?}"
        );
        let mut battalion = unit("line-infantry", "line", 12);
        battalion.rules.marks.push("regimental-gun".to_string());
        assert_eq!(unit_problems(&battalion), Vec::new());
    }

    pub(crate) fn unit(troop_type: &str, formation: &str, strength: u32) -> Unit {
        let (x, y) = (0, 0);
        let mut u = crate::rules::sound_the_charge::turn::fighting::testing::unit(
            "u",
            "s",
            troop_type,
            "C",
            strength,
            formation,
            (x, y),
            0,
        );
        u.name = "U".to_string();
        u.rules.gunners = 0;
        u
    }

    fn fields(unit: &Unit) -> Vec<UnitField> {
        unit_problems(unit).into_iter().map(|p| p.field).collect()
    }

    #[test]
    fn the_words_a_scenario_may_use_are_the_enums_words() {
        let troops: Vec<&str> = TroopType::ALL.iter().map(|t| t.word()).collect();
        assert_eq!(troops, TROOP_TYPES);
        assert_eq!(TroopType::from_word("dragoons"), None);
        assert!(FORMATIONS.iter().all(|f| Formation::from_word(f).is_some()));
        assert!(
            GRADES
                .iter()
                .all(|g| Grade::parse(&g.to_lowercase()).is_some())
        );
    }

    #[test]
    fn square_is_for_infantry_only() {
        assert!(fields(&unit("line-infantry", "square", 12)).is_empty());
        assert!(fields(&unit("light-infantry", "square", 12)).is_empty());
        assert_eq!(
            fields(&unit("heavy-cavalry", "square", 12)),
            [UnitField::Formation]
        );
    }

    #[test]
    fn skirmish_is_for_light_infantry_only() {
        assert!(fields(&unit("light-infantry", "skirmish", 8)).is_empty());
        assert_eq!(
            fields(&unit("line-infantry", "skirmish", 8)),
            [UnitField::Formation]
        );
        assert_eq!(
            fields(&unit("light-cavalry", "skirmish", 8)),
            [UnitField::Formation]
        );
    }

    #[test]
    fn guns_limber_and_nothing_else_does() {
        let mut battery = unit("field-guns", "unlimbered", 4);
        battery.rules.gunners = 8;
        assert!(fields(&battery).is_empty());
        battery.rules.formation = Formation::Column;
        assert_eq!(fields(&battery), [UnitField::Formation]);
        assert_eq!(
            fields(&unit("line-infantry", "limbered", 12)),
            [UnitField::Formation]
        );
    }

    #[test]
    fn gunners_belong_to_batteries() {
        assert_eq!(
            fields(&unit("horse-guns", "limbered", 4)),
            [UnitField::Gunners]
        );
        let mut foot = unit("line-infantry", "line", 12);
        foot.rules.gunners = 2;
        assert_eq!(fields(&foot), [UnitField::Gunners]);
    }

    #[test]
    fn ranks_are_for_lines_with_stands_enough() {
        let mut line = unit("line-infantry", "line", 12);
        line.rules.ranks = 3;
        assert!(fields(&line).is_empty());
        line.rules.ranks = 4;
        assert_eq!(fields(&line), [UnitField::Ranks]);
        let mut column = unit("line-infantry", "column", 12);
        column.rules.ranks = 2;
        assert_eq!(fields(&column), [UnitField::Ranks]);
    }

    #[test]
    fn wider_basing_reaches_cavalry_only() {
        let options = [WIDER_CAVALRY_BASING.to_string()];
        let mut horse = unit("medium-cavalry", "line", 8);
        let mut foot = unit("line-infantry", "line", 12);
        apply_options(&options, &mut horse.rules);
        apply_options(&options, &mut foot.rules);
        assert_eq!(horse.rules.figure_frontage, Some(75));
        assert_eq!(foot.rules.figure_frontage, None);
        let mut plain = unit("medium-cavalry", "line", 12);
        apply_options(&[], &mut plain.rules);
        assert_eq!(plain.rules.figure_frontage, None);
    }
}
