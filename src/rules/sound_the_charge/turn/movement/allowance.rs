//! How far a unit may move this turn and what a move costs it, each with
//! the reasons the rules give: the Movement Table's rate, and every
//! reduction of it or surcharge on a move (command, formation, a national
//! modifier, a maneuver, the kind of step, steadiness, the ground, friends
//! passed through), each a [`Slowing`] with its cause and its clause. The
//! words that explain a move too long for what is left are made here alone,
//! from these values, for the turn's events, the preview and the
//! acknowledgement's refusals alike.

use std::fmt;

use super::*;

/// Why a unit moves slower than the Movement Table's rate, or pays more
/// for a move than its length: one cause, with the clause that says so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slowing {
    /// Movement, Units out of Command: "A unit that begins the movement
    /// phase outside of CR moves at half speed that phase."
    OutOfCommand,
    /// Regimental Guns: the gun "moves at manhandled (line) speed", and the
    /// battalion keeps to it, in column too.
    RegimentalGun,
    /// Austria: a unit in battalion-masse "moves at line speed due to
    /// crowding of the ranks".
    Masse,
    /// Russia: "Russian foot guns move two inches slower than normal."
    RussianFootGuns,
    /// Austria: "Austrian horse guns move 10" per turn when limbered."
    AustrianHorseGuns,
    /// Maneuvers: a formation or facing change spent half the turn (1) or
    /// the whole of it (2), with why the whole.
    Maneuvered { halves: u32, why: Option<Because> },
    /// Maneuvers: "A change of formation [...] costs a full turn's activity
    /// for Grade C or D troops, and all unsteady troops."
    WholeTurnChange(Because),
    /// "Oblique, sidestep, and backstep moves are done at half speed."
    HalfSpeedStep(&'static str),
    /// "Units may wheel backwards at one-quarter speed."
    WheelBack,
    /// Wheeling: "the wheeling rate is at half speed if the unit is Grade D
    /// or unsteady."
    SlowWheel(Because),
    /// Terrain Suggestions: ground the unit crosses at half or a quarter
    /// speed.
    Ground {
        terrain: String,
        kind: Option<TerrainKind>,
        factor: Hundredths,
    },
    /// Interpenetration: "Close-order troops may move or charge through a
    /// friendly unit at half speed."
    Interpenetration,
    /// Obstacles "usually cost double distance (or one inch per rank) for
    /// close-order units to cross" (STC-42).
    Obstacle,
    /// Towns: "It costs half a move to emerge from a block".
    EmergingFromTown,
    /// Blown Cavalry: "Blown cavalry may not use charge speed".
    Blown,
    /// Charging and Evading, rule 3: "A unit may wheel or oblique into
    /// contact, as long as it is not using charge bonus movement" (ruling
    /// STC-99).
    NoChargeBonus,
}

/// What about a unit slows it: its grade, or its being unsteady.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Because {
    /// The grade it maneuvers or wheels as.
    Grade(Grade),
    Disordered,
    Shaken,
}

impl fmt::Display for Because {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Because::Grade(g) => write!(f, "Grade {g:?}"),
            Because::Disordered => write!(f, "unsteady, disordered"),
            Because::Shaken => write!(f, "unsteady, shaken"),
        }
    }
}

impl Because {
    /// Why a unit is unsteady, if it is ("A unit is steady if it is not
    /// disordered and is in good morale").
    fn unsteady(u: &Unit) -> Option<Because> {
        if u.rules.shaken {
            Some(Because::Shaken)
        } else if u.rules.disordered {
            Some(Because::Disordered)
        } else {
            None
        }
    }
}

impl fmt::Display for Slowing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let speed = |factor: Hundredths| if factor >= 4 { "quarter" } else { "half" };
        match self {
            Slowing::OutOfCommand => write!(
                f,
                "half speed, no general in command radius at the start of the phase ({MOVEMENT}, Units out of Command)"
            ),
            Slowing::RegimentalGun => write!(
                f,
                "line speed, keeping to its regimental gun (Optional Rules, Regimental Guns)"
            ),
            Slowing::Masse => write!(
                f,
                "line speed in battalion-masse (National Modifiers, Austria)"
            ),
            Slowing::RussianFootGuns => write!(
                f,
                "2\" slower, Russian foot guns (National Modifiers, Russia)"
            ),
            Slowing::AustrianHorseGuns => write!(
                f,
                "10\" limbered, Austrian horse guns (National Modifiers, Austria)"
            ),
            Slowing::Maneuvered { halves, why } => write!(
                f,
                "{} spent changing formation or facing{} ({MANEUVERS})",
                if *halves >= 2 {
                    "its whole turn"
                } else {
                    "half its turn"
                },
                why.map(|w| format!(", {w}")).unwrap_or_default()
            ),
            Slowing::WholeTurnChange(why) => write!(
                f,
                "a formation or facing change takes the whole turn, {why} ({MANEUVERS})"
            ),
            Slowing::HalfSpeedStep(kind) => write!(
                f,
                "half speed {kind} ({MOVEMENT}, Oblique, Sidestep, and Backstep)"
            ),
            Slowing::WheelBack => write!(
                f,
                "quarter speed wheeling backwards ({MOVEMENT}, Oblique, Sidestep, and Backstep)"
            ),
            Slowing::SlowWheel(why) => {
                write!(f, "half speed wheeling, {why} ({MOVEMENT}, Wheeling)")
            }
            Slowing::Ground {
                terrain,
                kind,
                factor,
            } => write!(
                f,
                "{} speed in {terrain}, {} (Terrain Suggestions, {})",
                speed(*factor),
                kind.map(|k| k.as_str().replace('-', " "))
                    .unwrap_or_default(),
                terrain_heading(*kind)
            ),
            Slowing::Interpenetration => write!(
                f,
                "half speed through close-order friends ({INTERPENETRATION})"
            ),
            Slowing::Obstacle => write!(
                f,
                "its depth again to cross an obstacle (Terrain Suggestions, Obstacles)"
            ),
            Slowing::EmergingFromTown => write!(
                f,
                "half its move to emerge from a town block (Terrain Suggestions, Towns)"
            ),
            Slowing::Blown => write!(f, "no charge bonus, blown (Optional Rules, Blown Cavalry)"),
            Slowing::NoChargeBonus => write!(
                f,
                "no charge bonus, wheeling or obliquing into contact (Charging and Evading, rule 3)"
            ),
        }
    }
}

/// The heading of the Terrain Suggestions that slows a unit on ground of
/// this kind.
fn terrain_heading(kind: Option<TerrainKind>) -> &'static str {
    match kind {
        Some(TerrainKind::LightWoods) => "Light Woods",
        Some(TerrainKind::HeavyWoods) => "Heavy Woods",
        Some(TerrainKind::SteepSlope | TerrainKind::Rough) => "Steep Slopes and Rough Ground",
        _ => "Terrain",
    }
}

/// The reasons a unit's move is what it is, as a message gives them after
/// the numbers they explain: `": a; b"`, each once, or nothing when the
/// rules reduced nothing.
pub fn because<'a>(reasons: impl IntoIterator<Item = &'a Slowing>) -> String {
    let mut seen: Vec<&Slowing> = Vec::new();
    for r in reasons {
        if !seen.contains(&r) {
            seen.push(r);
        }
    }
    if seen.is_empty() {
        return String::new();
    }
    let words: Vec<String> = seen.iter().map(ToString::to_string).collect();
    format!(": {}", words.join("; "))
}

/// A unit's movement allowance: what it may move this turn, and every
/// reduction the rules made of the Movement Table's rate or of its turn to
/// get there, in the order made.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Allowance {
    pub inches: Hundredths,
    pub reductions: Vec<Slowing>,
}

impl Allowance {
    /// The allowance at half speed, for `why`.
    fn halved(mut self, why: Slowing) -> Allowance {
        self.inches /= 2;
        self.reductions.push(why);
        self
    }
}

/// The Movement Table's rates for a troop type, as printed.
fn table_rates(troop_type: TroopType) -> Rates {
    use TroopType as T;
    let r = |line, column, charge| Rates {
        line,
        column,
        charge,
    };
    match troop_type {
        T::LineInfantry | T::LightInfantry => r(400, 600, Some(200)),
        T::HeavyCavalry | T::MediumCavalry => r(600, 800, Some(400)),
        T::LightCavalry => r(800, 1000, Some(400)),
        T::HorseGuns => r(400, 1400, None),
        T::LightGuns => r(400, 600, None),
        T::FieldGuns => r(300, 600, None),
        T::HeavyGuns => r(200, 400, None),
    }
}

/// Movement Table, with the national modifiers that change it: "Austrian
/// horse guns move 10" per turn when limbered" and "Russian foot guns move
/// two inches slower than normal".
pub fn rates(troop_type: TroopType, nation: Option<Nation>) -> Option<Rates> {
    use TroopType as T;
    let base = table_rates(troop_type);
    Some(match (troop_type, nation) {
        (T::HorseGuns, Some(Nation::Austria)) => Rates {
            column: 1000,
            ..base
        },
        (T::LightGuns | T::FieldGuns | T::HeavyGuns, Some(Nation::Russia)) => Rates {
            line: (base.line - 200).max(0),
            column: (base.column - 200).max(0),
            ..base
        },
        _ => base,
    })
}

/// The allowance of unit `i` for the turn, at half speed when it began the
/// phase out of command.
pub fn turn_allowance(state: &State, field: &Field, i: usize, in_command: bool) -> Allowance {
    let full = full_allowance(state, field, i);
    if in_command {
        full
    } else {
        full.halved(Slowing::OutOfCommand)
    }
}

/// The allowance of unit `i` for the turn at full speed, before command:
/// the rate of its formation, with what reduces it.
fn full_allowance(state: &State, field: &Field, i: usize) -> Allowance {
    let u = &state.units[i];
    let nation = nation_of(state, &u.side);
    let Some(r) = rates(u.rules.troop_type, nation) else {
        return Allowance::default();
    };
    let printed = table_rates(u.rules.troop_type);
    let national = |inches: Hundredths, printed: Hundredths| {
        let mut reductions = Vec::new();
        if inches < printed {
            reductions.push(match nation {
                Some(Nation::Austria) => Slowing::AustrianHorseGuns,
                _ => Slowing::RussianFootGuns,
            });
        }
        Allowance { inches, reductions }
    };
    if u.rules.formation == Formation::Skirmish && !u.rules.status.screening.is_empty() {
        // "you may advance the screen at column speed if it is screening a
        // series of advancing columns, and no part of the screen is more
        // than two inches from the columns".
        let own = field.rect(i);
        let all_columns = u.rules.status.screening.iter().all(|s| {
            field.index(s).is_some_and(|j| {
                state.units[j].rules.formation == Formation::Column
                    && match (own, field.rect(j)) {
                        (Some(a), Some(b)) => geometry::rect_is_within(&a, &b, 200),
                        _ => false,
                    }
            })
        });
        if all_columns {
            return national(r.column, printed.column);
        }
    }
    // Regimental Guns: the gun "must be in contact with it at all times"
    // and "moves at manhandled (line) speed", so the battalion keeps to it.
    let gun = super::super::fighting::regimental_gun(state, i);
    if moves_at_column_rate(u.rules.formation) && !gun {
        return national(r.column, printed.column);
    }
    let mut line = national(r.line, printed.line);
    if moves_at_column_rate(u.rules.formation) && gun {
        line.reductions.push(Slowing::RegimentalGun);
    } else if u.rules.formation == Formation::Masse {
        line.reductions.push(Slowing::Masse);
    }
    line
}

/// Why unit `u` wheels at half speed, if it does: "if the unit is Grade D
/// or unsteady".
pub fn slow_wheel(u: &Unit) -> Option<Because> {
    if grade_rank(u.rules.grade) >= 3 {
        return Some(Because::Grade(u.rules.grade));
    }
    Because::unsteady(u)
}

/// Why a formation or facing change takes unit `u`'s whole turn, if it
/// does: "Grade C or D troops, and all unsteady troops".
pub(super) fn whole_turn_change(state: &State, u: &Unit) -> Option<Because> {
    if let Some(why) = Because::unsteady(u) {
        return Some(why);
    }
    let grade = match maneuver_grade(state, u) {
        0 => Grade::A,
        1 => Grade::B,
        2 => Grade::C,
        _ => Grade::D,
    };
    (grade_rank(grade) >= 2).then_some(Because::Grade(grade))
}

/// How many inches of allowance one inch of `step` costs on open ground,
/// and why, when it is more than one. "Oblique, sidestep, and backstep
/// moves are done at half speed. Units may wheel backwards at one-quarter
/// speed." "But the wheeling rate is at half speed if the unit is Grade D
/// or unsteady." Skirmishers (`free`) move freely.
pub(super) fn step_rate(
    step: &Step,
    free: bool,
    slow_wheel: Option<Because>,
) -> (Hundredths, Option<Slowing>) {
    if free {
        return (1, None);
    }
    match step {
        Step::Forward(_) => (1, None),
        Step::Backstep(_) => (2, Some(Slowing::HalfSpeedStep("backstepping"))),
        Step::Sidestep(..) => (2, Some(Slowing::HalfSpeedStep("sidestepping"))),
        Step::Oblique(..) => (2, Some(Slowing::HalfSpeedStep("obliquing"))),
        Step::Wheel(_, deg) if *deg < 0 => (4, Some(Slowing::WheelBack)),
        Step::Wheel(..) => match slow_wheel {
            Some(why) => (2, Some(Slowing::SlowWheel(why))),
            None => (1, None),
        },
        Step::Face(_) => (1, None),
    }
}

/// The least `steps` can cost from `start`: on open ground, through no
/// one; with what makes it cost more than its length.
pub(super) fn least_cost(
    u: &Unit,
    start: &Rect,
    steps: &[Step],
    free: bool,
) -> (Hundredths, Vec<Slowing>) {
    let slow = slow_wheel(u);
    let mut at = *start;
    let mut cost = 0;
    let mut slowed = Vec::new();
    for step in steps {
        let (rate, why) = step_rate(step, free, slow);
        cost += step.distance(&at) * rate;
        slowed.extend(why);
        at = step.apply(&at);
    }
    (cost, slowed)
}

/// The slowing of ground under a path, by the terrain that slowed it most.
pub(super) fn ground_slowing(field: &Field, terrain: &str, factor: Hundredths) -> Slowing {
    let kind = field
        .ground()
        .features(field.state)
        .find(|(_, t)| t.id == terrain)
        .map(|(k, _)| k);
    Slowing::Ground {
        terrain: terrain.to_string(),
        kind,
        factor,
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::fighting::testing::{state, unit};
    use super::*;

    /// The allowance of the first unit of `s` for the turn.
    fn of(s: &State, in_command: bool) -> Allowance {
        turn_allowance(s, &Field::new(s), 0, in_command)
    }

    #[test]
    fn the_allowance_carries_each_reduction_with_its_clause() {
        // Movement Table: line infantry 6" in column; out of command, half.
        let column = state(vec![unit(
            "a",
            "blue",
            "line-infantry",
            "C",
            12,
            "column",
            (2000, 2000),
            0,
        )]);
        assert_eq!(
            of(&column, true),
            Allowance {
                inches: 600,
                reductions: Vec::new()
            }
        );
        assert_eq!(
            of(&column, false),
            Allowance {
                inches: 300,
                reductions: vec![Slowing::OutOfCommand]
            }
        );
        // Russia: foot guns two inches slower, limbered at column rate.
        let mut guns = state(vec![unit(
            "g",
            "blue",
            "field-guns",
            "C",
            4,
            "limbered",
            (2000, 2000),
            0,
        )]);
        guns.nations
            .insert("blue".to_string(), "russia".to_string());
        assert_eq!(
            of(&guns, false),
            Allowance {
                inches: 200,
                reductions: vec![Slowing::RussianFootGuns, Slowing::OutOfCommand]
            }
        );
        // Austria: battalion-masse moves at line speed.
        let mut masse = column.clone();
        masse.units[0].rules.formation = Formation::Masse;
        masse
            .nations
            .insert("blue".to_string(), "austria".to_string());
        assert_eq!(
            of(&masse, true),
            Allowance {
                inches: 400,
                reductions: vec![Slowing::Masse]
            }
        );
    }

    #[test]
    fn a_step_costs_more_for_its_kind_and_the_units_steadiness_and_says_why() {
        let mut u = unit(
            "a",
            "blue",
            "line-infantry",
            "C",
            12,
            "line",
            (2000, 2000),
            0,
        );
        let start = crate::rules::sound_the_charge::basing::footprint(&u).expect("on the table");
        let (cost, why) = least_cost(&u, &start, &[Step::Forward(200)], false);
        assert_eq!((cost, why), (200, Vec::new()));
        u.rules.disordered = true;
        let (_, why) = least_cost(
            &u,
            &start,
            &[
                Step::Sidestep(Flank::Left, 100),
                Step::Wheel(Flank::Left, 20),
            ],
            false,
        );
        assert_eq!(
            why,
            [
                Slowing::HalfSpeedStep("sidestepping"),
                Slowing::SlowWheel(Because::Disordered)
            ]
        );
        assert_eq!(
            because(&why),
            ": half speed sidestepping (Movement, Oblique, Sidestep, and Backstep); half speed wheeling, unsteady, disordered (Movement, Wheeling)"
        );
    }

    #[test]
    fn no_reduction_says_nothing_and_each_reason_is_told_once() {
        assert_eq!(because(&[]), "");
        let twice = [Slowing::OutOfCommand, Slowing::OutOfCommand];
        assert_eq!(
            because(&twice),
            ": half speed, no general in command radius at the start of the phase (Movement, Units out of Command)"
        );
    }
}
