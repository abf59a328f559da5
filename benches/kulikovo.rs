//! One full turn of Kulikovo 1380 (both activations) at 2x30, 2x300 and
//! 2x3000 counters. The armies are laid out deterministically on a hex map:
//! rows of 60 counters of each side facing each other two hexes apart, the
//! weapon systems in turn along each row (H, M, L, R, C, B), a leader with
//! every thirtieth counter. In the first activation every blue missile unit
//! fires two hexes and every blue shock unit steps forward into the red
//! zone of control and charges or shocks the counter ahead, going on where
//! the result lets it; in the second, every red unit still in play fires at
//! or attacks what stands before it. Each activation is resolved as the
//! engine resolves a phase (`resolve_typed`: every side's recorded text
//! checked again, then the resolution), with audited dice. Figures and the
//! command are in docs/PERFORMANCE.md.

use std::collections::BTreeMap;

use adjutant::audit::dice::DiceStream;
use adjutant::audit::digest::Digest32;
use adjutant::geometry::Hex;
use adjutant::rules::board::{Location, MapSpec};
use adjutant::rules::kulikovo::params::Params;
use adjutant::rules::kulikovo::state::{KulGame, KulUnit};
use adjutant::rules::kulikovo::{Kulikovo, State, Unit, Weapon};
use adjutant::rules::ruleset::{SideText, check_typed, resolve_typed};
use adjutant::rules::state::GeneralState;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

/// Counters of a side to a row.
const PER_ROW: usize = 60;

fn unit(id: String, side: &str, weapon: Weapon, column: u32, row: u32, facing: u32) -> Unit {
    Unit {
        id: id.clone(),
        name: id,
        side: side.to_string(),
        location: Location::Hex { column, row },
        facing,
        strength: 1,
        original_strength: 1,
        eliminated: None,
        rules: KulUnit {
            weapon,
            shock_drm: 0,
            disordered: false,
            retired: false,
            upset_turn: 0,
        },
    }
}

/// The two armies, blue to activate first.
fn armies(n: usize) -> State {
    let rows = n.div_ceil(PER_ROW);
    let mut units = Vec::with_capacity(2 * n);
    let mut generals = Vec::new();
    for k in 0..n {
        let (band, col) = ((k / PER_ROW) as u32, (k % PER_ROW) as u32);
        let weapon = Weapon::ALL[col as usize % 6];
        units.push(unit(format!("b{k}"), "blue", weapon, col, 4 * band, 3));
        units.push(unit(format!("r{k}"), "red", weapon, col, 4 * band + 2, 0));
        if k % 30 == 0 {
            for (side, id) in [("blue", format!("b{k}")), ("red", format!("r{k}"))] {
                generals.push(GeneralState {
                    id: format!("g{id}"),
                    name: format!("g{id}"),
                    side: side.to_string(),
                    location: Location::Hex {
                        column: col,
                        row: 4 * band + if side == "blue" { 0 } else { 2 },
                    },
                    attached_to: Some(id),
                    lost: None,
                });
            }
        }
    }
    State {
        campaign: "bench".to_string(),
        ruleset: adjutant::rules::kulikovo::ID.to_string(),
        turn: 1,
        phase: 0,
        active_side: "blue".to_string(),
        sides: vec!["blue".to_string(), "red".to_string()],
        map: MapSpec::Hex {
            columns: PER_ROW as u32,
            rows: 4 * rows as u32 + 1,
        },
        terrain: Vec::new(),
        units,
        generals,
        standing_orders: BTreeMap::new(),
        turn_limit: None,
        options: Vec::new(),
        nations: BTreeMap::from([("blue".to_string(), "russian".to_string())]),
        finished: None,
        params: Params::default(),
        game: KulGame {
            first_side: "blue".to_string(),
        },
    }
}

fn hex(u: &Unit) -> Hex {
    match u.location {
        Location::Hex { column, row } => Hex::new(column, row),
        Location::Table { .. } => Hex::new(0, 0),
    }
}

/// The side's orders: missile units fire at the enemy in their column,
/// shock units step up and attack it; the canonical text of what checks.
fn orders(state: &State, side: &str) -> String {
    let at: BTreeMap<Hex, &Unit> = state
        .units
        .iter()
        .filter(|u| u.eliminated.is_none())
        .map(|u| (hex(u), u))
        .collect();
    let ahead = if side == "blue" { 1i64 } else { -1 };
    let mut text = String::new();
    for u in state
        .units
        .iter()
        .filter(|u| u.side == side && u.eliminated.is_none())
    {
        let h = hex(u);
        let near = |d: i64| {
            let row = i64::from(h.row) + d * ahead;
            u32::try_from(row)
                .ok()
                .and_then(|r| at.get(&Hex::new(h.column, r)))
                .filter(|t| t.side != side)
        };
        let target = near(1).or_else(|| near(2));
        let Some(t) = target else {
            continue;
        };
        let w = u.rules.weapon;
        if w.fires() {
            text.push_str(&format!("{}: fire at {}\n", u.id, t.id));
            continue;
        }
        if near(1).is_none() {
            let step = Hex::new(h.column, (i64::from(h.row) + ahead) as u32);
            text.push_str(&format!("{}: move {}\n", u.id, step.label()));
        }
        let verb = if w.may_charge() && near(1).is_none() {
            "charge"
        } else {
            "shock"
        };
        text.push_str(&format!("{}: {verb} {} then any\n", u.id, t.id));
    }
    let sheet = check_typed(&Kulikovo, state, side, &text);
    sheet.canonical_text()
}

/// One activation as the engine resolves it.
fn activation(state: &State, side: &str, text: &str, seed: u8) -> State {
    let texts = BTreeMap::from([(side.to_string(), SideText::Sent(text))]);
    let mut dice = DiceStream::new(&Digest32([seed; 32]));
    resolve_typed(&Kulikovo, state, &texts, &mut dice)
        .expect("the bench's orders check")
        .0
}

fn bench_turn(c: &mut Criterion) {
    let mut group = c.benchmark_group("kulikovo-turn");
    group.sample_size(10);
    for n in [30, 300, 3000] {
        let start = armies(n);
        let blue = orders(&start, "blue");
        let middle = activation(&start, "blue", &blue, 7);
        let red = orders(&middle, "red");
        // The turn measured does the work it is meant to: fire, charges and
        // shocks on every row, in both activations.
        assert!(
            blue.lines().count() >= 2 * n / 3,
            "{} blue lines",
            blue.lines().count()
        );
        assert!(
            red.lines().count() >= n / 3,
            "{} red lines",
            red.lines().count()
        );
        let texts = BTreeMap::from([("blue".to_string(), SideText::Sent(blue.as_str()))]);
        let (_, events) = resolve_typed(
            &Kulikovo,
            &start,
            &texts,
            &mut DiceStream::new(&Digest32([7; 32])),
        )
        .expect("resolves");
        for (kind, least) in [
            ("march", n / 6),
            ("fire", n / 6),
            ("charge", n / 30),
            ("shock", n / 30),
            ("retreat", n / 60),
            ("eliminated", n / 200),
        ] {
            let count = events.iter().filter(|e| e.kind == kind).count();
            assert!(count >= least, "only {count} `{kind}` events at 2x{n}");
        }
        let end = activation(&middle, "red", &red, 8);
        assert_eq!((end.turn, end.phase), (2, 0), "a whole turn");
        group.bench_with_input(BenchmarkId::new("2x", n), &n, |b, _| {
            b.iter(|| {
                let middle = activation(&start, "blue", &blue, 7);
                activation(&middle, "red", &red, 8)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_turn);
criterion_main!(benches);
