//! Sound the Charge on random tables: units of every troop type set up at
//! random, given random orders, never end overlapping or off the table.
//! The properties every ruleset keeps (replay, the order the sides' orders
//! arrive in, strengths, no unit inside another), over the case catalog and
//! games, are `ruleset_properties`'.

mod catalog;

use adjutant::geometry::Rect;
use adjutant::rules::state::GameState;
use catalog::{Played, Setting, TurnCase};

const RULESET: &str = "sound-the-charge";

/// The footprints of the units in play, by id.
fn footprints(played: &Played, state: &GameState) -> Vec<(String, Rect)> {
    state
        .units
        .iter()
        .filter(|u| u.eliminated.is_none())
        .filter_map(|u| played.ruleset.footprint(u).map(|r| (u.id.clone(), r)))
        .collect()
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

/// One unit of a random table, as a scenario writes it.
fn unit(
    id: &str,
    side: &str,
    troop: &str,
    grade: &str,
    formation: &str,
    at: (i64, i64),
    facing: i64,
) -> toml::Table {
    let guns = troop.ends_with("guns");
    let mut t = toml::Table::new();
    t.insert("id".into(), id.into());
    t.insert("side".into(), side.into());
    t.insert("troop_type".into(), troop.into());
    t.insert("grade".into(), grade.into());
    t.insert("strength".into(), (if guns { 4_i64 } else { 12 }).into());
    if guns {
        t.insert("gunners".into(), 8_i64.into());
    }
    t.insert("formation".into(), formation.into());
    t.insert("x".into(), (at.0 as f64 / 100.0).into());
    t.insert("y".into(), (at.1 as f64 / 100.0).into());
    t.insert("facing".into(), facing.into());
    t
}

#[test]
fn random_tables_and_orders_never_leave_units_overlapping() {
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
    let mut units_placed = 0;
    for round in 0..60 {
        let mut setting = Setting::empty(RULESET);
        setting.active = Some("blue".to_string());
        let mut placed: Vec<Rect> = Vec::new();
        for n in 0..12 {
            let (troop, formation) = TYPES[rng.next(TYPES.len() as u64) as usize];
            let side = if n % 2 == 0 { "blue" } else { "red" };
            let grade = ["A", "B", "C", "D"][rng.next(4) as usize];
            let at = (800 + rng.next(5600) as i64, 800 + rng.next(3200) as i64);
            let facing = (rng.next(8) * 45) as i64;
            let candidate = unit(&format!("u{n}"), side, troop, grade, formation, at, facing);
            // Set up alone first: only a unit that fits on the table beside
            // the others is placed.
            let mut alone = Setting::empty(RULESET);
            alone.unit.push(candidate.clone());
            let Ok((ruleset, state)) = alone.start() else {
                continue;
            };
            if let Some(r) = ruleset.footprint(&state.units[0])
                && placed.iter().all(|o| !o.overlaps(&r))
            {
                placed.push(r);
                setting.unit.push(candidate);
                units_placed += 1;
            }
        }
        let mut general = toml::Table::new();
        general.insert("id".into(), "gb".into());
        general.insert("side".into(), "blue".into());
        general.insert("x".into(), 36_i64.into());
        general.insert("y".into(), 24_i64.into());
        setting.general.push(general);
        let id = |u: &toml::Table| u["id"].as_str().unwrap_or_default().to_string();
        let is = |u: &toml::Table, side: &str| u["side"].as_str() == Some(side);
        let mut lines = Vec::new();
        for u in setting.unit.iter().filter(|u| is(u, "blue")) {
            lines.push(format!(
                "{}: {}",
                id(u),
                ORDERS[rng.next(ORDERS.len() as u64) as usize]
            ));
            if rng.next(3) == 0
                && let Some(t) = setting.unit.iter().find(|t| is(t, "red"))
            {
                lines.push(format!("{}: charge {}", id(u), id(t)));
            }
        }
        let case = TurnCase {
            rule: "random".to_string(),
            orders: [("blue".to_string(), lines)].into_iter().collect(),
            dice: vec![4; 40],
            rejected: Vec::new(),
            event: Vec::new(),
            absent: Vec::new(),
            expect: Vec::new(),
            setting,
        };
        let played = case.play().unwrap_or_else(|e| panic!("round {round}: {e}"));
        let rects = footprints(&played, &played.resolution.state);
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
    eprintln!("{units_placed} units placed in 60 tables");
    // Most candidates fit: a table is busy, not empty because set-up refused.
    assert!(
        units_placed >= 600,
        "only {units_placed} units placed in 60 tables"
    );
}
