//! The Sound the Charge turn case catalog.
//!
//! Every file in `tests/cases/sound-the-charge/turns/` is one case: a small
//! scenario (units, generals, terrain), each side's order lines, the forced
//! dice, and what must come of one resolved turn. All run through [`check`],
//! which collects every difference so that one run names every failing case.
//!
//! A case file holds:
//! - `rule`: the clause the case pins, quoted verbatim from the rules text;
//! - `active`: the active side; `sides` (default `["blue", "red"]`);
//!   `turn` (default 1); `turn_limit`; `options` and `[nations]`;
//! - `table`: `[width, depth]` in hundredths of an inch (default 72" x 48");
//! - `[[unit]]`: `id`, `name` (default the id), `side`, `type`, `grade`,
//!   `strength`, `formation`, `x`, `y` (the front centre, in hundredths of an
//!   inch), `facing` (degrees clockwise from north), and optionally `ranks`,
//!   `gunners`, `marks`, `rout_hits`, `in_combat`, `blown`, and what its
//!   side's last turns left: `last_advance` (hundredths of an inch advanced
//!   on its most recent active turn), `last_combat_turn` and `combat_rounds`;
//! - `[[general]]`: `id`, `side`, `x`, `y`, optionally `attached`;
//! - `[[terrain]]`: `id`, `kind`, and `area` or `line` as `[[x, y], ...]` in
//!   hundredths;
//! - `[orders]`: each side's order lines, as a player writes them;
//! - `dice`: the forced d6 values in the order the turn rolls them (every one
//!   must be used, and no more asked for);
//! - `rejected`: every line refused, as the reply words it
//!   (`line 2: 1-line: ... (clause)`), in side order then line order;
//! - `[[event]]`: `kind`, and optionally `units` and `text` (exact); the
//!   events listed must occur in this order among the turn's events;
//! - `absent`: event kinds that must not occur;
//! - `[[expect]]`: `id` and any of `x`, `y`, `facing`, `formation`,
//!   `shaken`, `disordered`, `strength`, `gunners`, `eliminated`, `rout_hits`, `blown`,
//!   `in_combat`, `marks`, `regimental_gun_lost`; for a general's `id`: `general_at` (`[x, y]`), `attached`,
//!   `lost` (killed, disabled or captured: out of play).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use adjutant::audit::dice::ForcedDice;
use adjutant::geometry::Point;
use adjutant::rules::Rules;
use adjutant::rules::board::{Location, MapSpec, Terrain, TerrainShape};
use adjutant::rules::ruleset::check_typed;
use adjutant::rules::sound_the_charge::orders::Formation;
use adjutant::rules::sound_the_charge::setup::apply_options;
use adjutant::rules::sound_the_charge::state::TroopType;
use adjutant::rules::sound_the_charge::tables::Grade;
use adjutant::rules::sound_the_charge::{SoundTheCharge, State, StcUnit, Unit, UnitStatus};
use adjutant::rules::state::{GeneralState, Nothing};
use serde::Deserialize;

const CASES: &str = "tests/cases/sound-the-charge/turns";

/// The catalog must not shrink unnoticed.
const AT_LEAST: usize = 85;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    rule: String,
    active: String,
    #[serde(default = "default_sides")]
    sides: Vec<String>,
    #[serde(default = "one")]
    turn: u32,
    turn_limit: Option<u32>,
    #[serde(default)]
    options: Vec<String>,
    #[serde(default)]
    nations: BTreeMap<String, String>,
    table: Option<[i64; 2]>,
    #[serde(default)]
    unit: Vec<CaseUnit>,
    #[serde(default)]
    general: Vec<CaseGeneral>,
    #[serde(default)]
    terrain: Vec<CaseTerrain>,
    #[serde(default)]
    orders: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    dice: Vec<u32>,
    #[serde(default)]
    rejected: Vec<String>,
    #[serde(default)]
    event: Vec<CaseEvent>,
    #[serde(default)]
    absent: Vec<String>,
    #[serde(default)]
    expect: Vec<Expect>,
}

fn default_sides() -> Vec<String> {
    vec!["blue".to_string(), "red".to_string()]
}

fn one() -> u32 {
    1
}

fn twelve() -> u32 {
    12
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseUnit {
    id: String,
    name: Option<String>,
    side: String,
    #[serde(rename = "type")]
    troop_type: String,
    grade: String,
    #[serde(default = "twelve")]
    strength: u32,
    #[serde(default)]
    gunners: u32,
    formation: String,
    #[serde(default = "one")]
    ranks: u32,
    x: i64,
    y: i64,
    facing: u32,
    #[serde(default)]
    marks: Vec<String>,
    original_strength: Option<u32>,
    #[serde(default)]
    rout_hits: u32,
    #[serde(default)]
    in_combat: bool,
    #[serde(default)]
    last_advance: i64,
    #[serde(default)]
    last_combat_turn: u32,
    #[serde(default)]
    combat_rounds: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseGeneral {
    id: String,
    name: Option<String>,
    side: String,
    x: i64,
    y: i64,
    attached: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseTerrain {
    id: String,
    kind: String,
    area: Option<Vec<[i64; 2]>>,
    line: Option<Vec<[i64; 2]>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseEvent {
    kind: String,
    units: Option<Vec<String>>,
    text: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    id: String,
    x: Option<i64>,
    y: Option<i64>,
    facing: Option<u32>,
    formation: Option<String>,
    shaken: Option<bool>,
    disordered: Option<bool>,
    strength: Option<u32>,
    gunners: Option<u32>,
    eliminated: Option<bool>,
    rout_hits: Option<u32>,
    blown: Option<bool>,
    in_combat: Option<bool>,
    general_at: Option<[i64; 2]>,
    attached: Option<String>,
    lost: Option<bool>,
    marks: Option<Vec<String>>,
    /// Whether the unit's regimental gun has been disabled or abandoned.
    regimental_gun_lost: Option<bool>,
}

fn points(list: &[[i64; 2]]) -> Vec<Point> {
    list.iter().map(|[x, y]| Point { x: *x, y: *y }).collect()
}

/// The game state a case starts from.
pub fn start_state(case: &Case) -> State {
    let [width, depth] = case.table.unwrap_or([7200, 4800]);
    let units = case
        .unit
        .iter()
        .map(|u| case_unit(u, &case.options))
        .collect();
    State {
        campaign: "case".to_string(),
        ruleset: "sound-the-charge".to_string(),
        turn: case.turn,
        phase: 0,
        active_side: case.active.clone(),
        sides: case.sides.clone(),
        map: MapSpec::Table { width, depth },
        terrain: case
            .terrain
            .iter()
            .map(|t| Terrain {
                id: t.id.clone(),
                kind: t.kind.clone(),
                shape: match (&t.area, &t.line) {
                    (Some(a), _) => TerrainShape::Area { points: points(a) },
                    (None, Some(l)) => TerrainShape::Line { points: points(l) },
                    (None, None) => TerrainShape::Line { points: Vec::new() },
                },
            })
            .collect(),
        units,
        generals: case
            .general
            .iter()
            .map(|g| GeneralState {
                id: g.id.clone(),
                name: g.name.clone().unwrap_or_else(|| g.id.clone()),
                side: g.side.clone(),
                location: Location::Table { x: g.x, y: g.y },
                attached_to: g.attached.clone(),
                lost: None,
            })
            .collect(),
        standing_orders: BTreeMap::new(),
        turn_limit: case.turn_limit,
        options: case.options.clone(),
        nations: case.nations.clone(),
        finished: None,
        params: Nothing::default(),
        game: Nothing::default(),
    }
}

/// One unit of a case, as the game begins.
fn case_unit(u: &CaseUnit, options: &[String]) -> Unit {
    let mut rules = StcUnit {
        troop_type: TroopType::from_word(&u.troop_type).expect("a troop type"),
        grade: Grade::parse(&u.grade.to_lowercase()).expect("a grade"),
        gunners: u.gunners,
        formation: Formation::from_word(&u.formation).expect("a formation"),
        ranks: u.ranks,
        figure_frontage: None,
        marks: u.marks.clone(),
        shaken: u.marks.iter().any(|m| m == "shaken"),
        disordered: u.marks.iter().any(|m| m == "disordered"),
        status: UnitStatus {
            rout_hits: u.rout_hits,
            in_combat: u.in_combat,
            last_advance: u.last_advance,
            last_combat_turn: u.last_combat_turn,
            combat_rounds: u.combat_rounds,
            blown: u.marks.iter().any(|m| m == "blown"),
            ..UnitStatus::default()
        },
    };
    apply_options(options, &mut rules);
    Unit {
        id: u.id.clone(),
        name: u.name.clone().unwrap_or_else(|| u.id.clone()),
        side: u.side.clone(),
        location: Location::Table { x: u.x, y: u.y },
        facing: u.facing,
        strength: u.strength,
        original_strength: u.original_strength.unwrap_or(u.strength),
        eliminated: None,
        rules,
    }
}

/// Plays one case: every side's lines through parse and validate, the turn
/// resolved with the forced dice; returns every difference from what the
/// case expects.
pub fn check(case: &Case) -> Vec<String> {
    let mut problems = Vec::new();
    let state = start_state(case);
    let mut accepted = BTreeMap::new();
    let mut rejected = Vec::new();
    for side in &case.sides {
        let Some(lines) = case.orders.get(side) else {
            continue;
        };
        let sheet = check_typed(&SoundTheCharge, &state, side, &lines.join("\n"));
        rejected.extend(sheet.parse_errors.iter().map(ToString::to_string));
        rejected.extend(sheet.rejections.iter().map(ToString::to_string));
        accepted.insert(side.clone(), sheet.accepted);
    }
    if rejected != case.rejected {
        problems.push(format!(
            "refused lines differ:\n  expected {:?}\n  got      {:?}",
            case.rejected, rejected
        ));
    }
    let mut dice = ForcedDice::new(case.dice.iter().copied());
    let (next, events) = SoundTheCharge.resolve(&state, &accepted, &mut dice);
    problems.extend(dice.problems());
    let events = &events;
    let shown = || {
        events
            .iter()
            .map(|e| format!("  [{}] {:?} {}", e.kind, e.units, e.text))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut from = 0;
    for want in &case.event {
        let found = events[from..].iter().position(|e| {
            e.kind == want.kind
                && want.units.as_ref().is_none_or(|u| *u == e.units)
                && want.text.as_ref().is_none_or(|t| *t == e.text)
        });
        match found {
            Some(at) => from += at + 1,
            None => problems.push(format!(
                "expected event {want:?} (in order) not found; the events:\n{}",
                shown()
            )),
        }
    }
    for kind in &case.absent {
        if events.iter().any(|e| e.kind == *kind) {
            problems.push(format!("an event `{kind}` occurred:\n{}", shown()));
        }
    }
    let next = &next;
    for want in &case.expect {
        if let Some(g) = next.generals.iter().find(|g| g.id == want.id) {
            if let Some([x, y]) = want.general_at
                && g.location != (Location::Table { x, y })
            {
                problems.push(format!(
                    "general {} at {:?}, expected ({x}, {y})",
                    want.id, g.location
                ));
            }
            if want.attached.is_some() && want.attached != g.attached_to {
                problems.push(format!(
                    "general {} attached to {:?}, expected {:?}",
                    want.id, g.attached_to, want.attached
                ));
            }
            if let Some(e) = want.lost
                && g.lost.is_some() != e
            {
                problems.push(format!(
                    "general {} lost: got {:?}, expected {e}",
                    want.id, g.lost
                ));
            }
            continue;
        }
        let Some(u) = next.unit(&want.id) else {
            problems.push(format!("no unit {}", want.id));
            continue;
        };
        let Location::Table { x, y } = u.location else {
            problems.push(format!("unit {} is not on a table", want.id));
            continue;
        };
        let mut differ = |what: &str, got: String, expected: String| {
            if got != expected {
                problems.push(format!(
                    "{} {what}: got {got}, expected {expected}",
                    want.id
                ));
            }
        };
        let text = |v: &dyn std::fmt::Debug| format!("{v:?}");
        if let Some(e) = want.x {
            differ("x", text(&x), text(&e));
        }
        if let Some(e) = want.y {
            differ("y", text(&y), text(&e));
        }
        if let Some(e) = want.facing {
            differ("facing", text(&u.facing), text(&e));
        }
        if let Some(e) = &want.formation {
            differ("formation", text(&u.rules.formation.word()), text(e));
        }
        if let Some(e) = want.shaken {
            differ("shaken", text(&u.rules.shaken), text(&e));
        }
        if let Some(e) = want.disordered {
            differ("disordered", text(&u.rules.disordered), text(&e));
        }
        if let Some(e) = want.strength {
            differ("strength", text(&u.strength), text(&e));
        }
        if let Some(e) = want.gunners {
            differ("gunners", text(&u.rules.gunners), text(&e));
        }
        if let Some(e) = want.eliminated {
            differ("eliminated", text(&u.eliminated.is_some()), text(&e));
        }
        if let Some(e) = want.rout_hits {
            differ("rout hits", text(&u.rules.status.rout_hits), text(&e));
        }
        if let Some(e) = want.blown {
            differ("blown", text(&u.rules.status.blown), text(&e));
        }
        if let Some(e) = want.in_combat {
            differ("in combat", text(&u.rules.status.in_combat), text(&e));
        }
        if let Some(e) = &want.marks {
            differ("marks", text(&u.rules.marks), text(e));
        }
        if let Some(e) = want.regimental_gun_lost {
            differ(
                "regimental gun lost",
                text(&u.rules.status.regimental_gun_lost.is_some()),
                text(&e),
            );
        }
    }
    problems
}

fn case_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(Path::new(CASES))
        .expect("the turn case folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

pub fn load(path: &Path) -> Result<Case, String> {
    let text = fs::read_to_string(path).map_err(|e| e.to_string())?;
    toml::from_str(&text).map_err(|e| e.to_string())
}

#[test]
fn every_turn_case_gives_what_the_rules_prescribe() {
    let files = case_files();
    assert!(
        files.len() >= AT_LEAST,
        "only {} turn cases; at least {AT_LEAST} expected",
        files.len()
    );
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_stem().unwrap_or_default().to_string_lossy();
        match load(path) {
            Err(e) => failures.push(format!("{name}: cannot read: {e}")),
            Ok(case) => {
                if case.rule.trim().is_empty() {
                    failures.push(format!("{name}: no rule quoted"));
                }
                for p in check(&case) {
                    failures.push(format!("{name}: {p}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A busy case for the property tests: many units of both sides and orders
/// that move, charge, wheel and maneuver.
fn busy_cases() -> Vec<Case> {
    case_files()
        .iter()
        .filter_map(|p| load(p).ok())
        .filter(|c| !c.orders.is_empty())
        .collect()
}

/// Resolves a case's orders with the sides' sheets inserted in a given
/// order, and returns the canonical bytes of the resolution.
fn resolved_bytes(case: &Case, sides_in: &[String]) -> String {
    let state = start_state(case);
    let mut accepted = BTreeMap::new();
    for side in sides_in {
        if let Some(lines) = case.orders.get(side) {
            let sheet = check_typed(&SoundTheCharge, &state, side, &lines.join("\n"));
            accepted.insert(side.clone(), sheet.accepted);
        }
    }
    let mut dice = ForcedDice::new(case.dice.iter().copied());
    let (next, events) = SoundTheCharge.resolve(&state, &accepted, &mut dice);
    format!(
        "{}\n{}",
        adjutant::canonical::to_string(&next),
        adjutant::canonical::to_string(&events)
    )
}

#[test]
fn the_same_inputs_give_identical_bytes() {
    for case in busy_cases() {
        let a = resolved_bytes(&case, &case.sides);
        let b = resolved_bytes(&case, &case.sides);
        assert_eq!(a, b, "{}", case.rule);
    }
}

#[test]
fn the_order_in_which_sides_orders_arrived_does_not_matter() {
    for case in busy_cases() {
        let mut reversed = case.sides.clone();
        reversed.reverse();
        assert_eq!(
            resolved_bytes(&case, &case.sides),
            resolved_bytes(&case, &reversed),
            "{}",
            case.rule
        );
    }
}

#[test]
fn no_two_units_overlap_after_movement() {
    use adjutant::geometry::Rect;
    use adjutant::rules::sound_the_charge::basing::footprint;
    for case in busy_cases() {
        let state = start_state(&case);
        let mut accepted = BTreeMap::new();
        for side in &case.sides {
            if let Some(lines) = case.orders.get(side) {
                accepted.insert(
                    side.clone(),
                    check_typed(&SoundTheCharge, &state, side, &lines.join("\n")).accepted,
                );
            }
        }
        let mut dice = ForcedDice::new(case.dice.iter().copied());
        let (next, _) = SoundTheCharge.resolve(&state, &accepted, &mut dice);
        let rects: Vec<(String, Rect)> = next
            .units
            .iter()
            .filter(|u| u.eliminated.is_none())
            .filter_map(|u| footprint(u).map(|r| (u.id.clone(), r)))
            .collect();
        for (i, (a, ra)) in rects.iter().enumerate() {
            for (b, rb) in &rects[i + 1..] {
                assert!(!ra.overlaps(rb), "{a} overlaps {b} after: {}", case.rule);
            }
        }
    }
}

/// A small deterministic generator for the random tables below (a linear
/// congruential generator: the same seed gives the same tables everywhere).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n.max(1)
    }
}

#[test]
fn random_tables_and_orders_never_leave_units_overlapping() {
    use adjutant::rules::sound_the_charge::basing::footprint;
    const TYPES: &[(&str, &str)] = &[
        ("line-infantry", "line"),
        ("line-infantry", "column"),
        ("light-infantry", "skirmish"),
        ("light-cavalry", "line"),
        ("heavy-cavalry", "column"),
        ("field-guns", "unlimbered"),
        ("horse-guns", "limbered"),
    ];
    const ORDERS: &[&str] = &[
        "forward 4",
        "forward 8",
        "wheel left 30, forward 2",
        "wheel right 60",
        "sidestep left 2",
        "oblique right 3",
        "backstep 1",
        "form column",
        "form line",
        "face about",
        "limber",
        "by road forward 10",
    ];
    let mut rng = Lcg(7);
    for round in 0..60 {
        let mut case: Case = toml::from_str("rule = \"random\"\nactive = \"blue\"").expect("case");
        let mut placed: Vec<adjutant::geometry::Rect> = Vec::new();
        for n in 0..12 {
            let (troop, formation) = TYPES[rng.next(TYPES.len() as u64) as usize];
            let side = if n % 2 == 0 { "blue" } else { "red" };
            let unit = CaseUnit {
                id: format!("u{n}"),
                name: None,
                side: side.to_string(),
                troop_type: troop.to_string(),
                grade: ["A", "B", "C", "D"][rng.next(4) as usize].to_string(),
                strength: if troop.ends_with("guns") { 4 } else { 12 },
                gunners: if troop.ends_with("guns") { 8 } else { 0 },
                formation: formation.to_string(),
                ranks: 1,
                x: 800 + rng.next(5600) as i64,
                y: 800 + rng.next(3200) as i64,
                facing: (rng.next(8) * 45) as u32,
                marks: Vec::new(),
                original_strength: None,
                rout_hits: 0,
                in_combat: false,
                last_advance: 0,
                last_combat_turn: 0,
                combat_rounds: 0,
            };
            let spec = case_unit(&unit, &[]);
            if let Some(r) = footprint(&spec)
                && r.is_inside_table(7200, 4800)
                && placed.iter().all(|o| !o.overlaps(&r))
            {
                placed.push(r);
                case.unit.push(unit);
            }
        }
        case.general.push(CaseGeneral {
            id: "gb".to_string(),
            name: None,
            side: "blue".to_string(),
            x: 3600,
            y: 2400,
            attached: None,
        });
        let mut lines = Vec::new();
        for u in case.unit.iter().filter(|u| u.side == "blue") {
            lines.push(format!(
                "{}: {}",
                u.id,
                ORDERS[rng.next(ORDERS.len() as u64) as usize]
            ));
            if rng.next(3) == 0
                && let Some(t) = case.unit.iter().find(|t| t.side == "red")
            {
                lines.push(format!("{}: charge {}", u.id, t.id));
            }
        }
        case.orders.insert("blue".to_string(), lines);
        case.dice = vec![4; 40];
        let state = start_state(&case);
        let sheet = check_typed(
            &SoundTheCharge,
            &state,
            "blue",
            &case.orders["blue"].join("\n"),
        );
        let mut accepted = BTreeMap::new();
        accepted.insert("blue".to_string(), sheet.accepted);
        let mut dice = ForcedDice::new(case.dice.iter().copied());
        let (next, _) = SoundTheCharge.resolve(&state, &accepted, &mut dice);
        let rects: Vec<(String, adjutant::geometry::Rect)> = next
            .units
            .iter()
            .filter(|u| u.eliminated.is_none())
            .filter_map(|u| footprint(u).map(|r| (u.id.clone(), r)))
            .collect();
        for (i, (a, ra)) in rects.iter().enumerate() {
            assert!(
                ra.is_inside_table(7200, 4800),
                "round {round}: {a} left the table"
            );
            for (b, rb) in &rects[i + 1..] {
                assert!(
                    !ra.overlaps(rb),
                    "round {round}: {a} overlaps {b} after {:?}",
                    case.orders["blue"]
                );
            }
        }
    }
}
