//! One full turn of Sound the Charge resolved at 2x50, 2x500 and 2x5000
//! units. The armies are laid out deterministically: pairs of rows facing
//! each other, most pairs three inches apart (the active side's infantry and
//! guns shoot, a battalion in ten charges, the cavalry moves), every fourth
//! pair in contact (close combat), with cavalry, guns and generals mixed
//! in. Figures and the command are in docs/PERFORMANCE.md.

use std::collections::BTreeMap;

use adjutant::audit::dice::DiceStream;
use adjutant::audit::digest::Digest32;
use adjutant::rules::board::{Location, MapSpec};
use adjutant::rules::ruleset::check_typed;
use adjutant::rules::sound_the_charge::orders::{Formation, StcOrder};
use adjutant::rules::sound_the_charge::state::TroopType;
use adjutant::rules::sound_the_charge::tables::Grade;
use adjutant::rules::sound_the_charge::{SoundTheCharge, State, StcUnit, Unit, turn};
use adjutant::rules::state::{GeneralState, Nothing};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

/// Units to a row.
const PER_ROW: usize = 50;
/// Hundredths of an inch between units' centres along a row.
const PITCH: i64 = 600;
/// Between one pair of rows and the next.
const ROW_GAP: i64 = 2000;

#[allow(clippy::too_many_arguments)]
fn unit(
    id: String,
    side: &str,
    troop: &str,
    strength: u32,
    formation: &str,
    x: i64,
    y: i64,
    facing: u32,
) -> Unit {
    Unit {
        id: id.clone(),
        name: id,
        side: side.to_string(),
        location: Location::Table { x, y },
        facing,
        strength,
        original_strength: strength,
        eliminated: None,
        rules: StcUnit {
            troop_type: TroopType::from_word(troop).expect("a troop type"),
            grade: [Grade::A, Grade::B, Grade::C, Grade::D][(x / PITCH) as usize % 4],
            gunners: if troop.ends_with("guns") {
                strength * 2
            } else {
                0
            },
            formation: Formation::from_word(formation).expect("a formation"),
            ranks: 1,
            figure_frontage: None,
            marks: Vec::new(),
            shaken: false,
            disordered: false,
            status: Default::default(),
        },
    }
}

fn general(id: String, side: &str, x: i64, y: i64) -> GeneralState {
    GeneralState {
        id: id.clone(),
        name: id,
        side: side.to_string(),
        location: Location::Table { x, y },
        attached_to: None,
        lost: None,
    }
}

/// Two armies of `n` units each and the active side's orders.
fn armies(n: usize) -> (State, BTreeMap<String, Vec<StcOrder>>) {
    let rows = n.div_ceil(PER_ROW);
    let mut units = Vec::with_capacity(2 * n);
    let mut generals = Vec::new();
    let mut text = String::new();
    for k in 0..n {
        let (row, col) = ((k / PER_ROW) as i64, (k % PER_ROW) as i64);
        let x = 400 + col * PITCH;
        let y = 1000 + row * ROW_GAP;
        let contact = col % 4 == 0;
        let red_front = if contact { y } else { y + 300 };
        let (troop, strength, formation) = match col % 10 {
            1 | 4 => ("heavy-cavalry", 9, "line"),
            5 => ("field-guns", 4, "unlimbered"),
            _ => ("line-infantry", 12, "line"),
        };
        units.push(unit(
            format!("b{k}"),
            "blue",
            troop,
            strength,
            formation,
            x,
            y,
            0,
        ));
        let (rt, rs, rf) = match col % 10 {
            7 => ("light-infantry", 8, "skirmish"),
            8 => ("line-infantry", 12, "column"),
            _ => ("line-infantry", 12, "line"),
        };
        units.push(unit(format!("r{k}"), "red", rt, rs, rf, x, red_front, 180));
        if col % 10 == 2 {
            generals.push(general(format!("gb{k}"), "blue", x, y - 400));
            generals.push(general(format!("gr{k}"), "red", x, red_front + 600));
        }
        // Infantry and guns 3" off shoot; one battalion in ten charges
        // instead, and the cavalry walks an inch forward, so that the
        // movement phase plans paths, charges and contacts too.
        if !contact && troop == "heavy-cavalry" {
            text.push_str(&format!("b{k}: forward 1\n"));
        } else if !contact && col % 10 == 9 {
            text.push_str(&format!("b{k}: charge r{k}\n"));
        } else if !contact {
            text.push_str(&format!("b{k}: shoot r{k}\n"));
        }
    }
    let state = State {
        campaign: "bench".to_string(),
        ruleset: adjutant::rules::sound_the_charge::ID.to_string(),
        turn: 1,
        phase: 0,
        active_side: "blue".to_string(),
        sides: vec!["blue".to_string(), "red".to_string()],
        map: MapSpec::Table {
            width: 800 + PER_ROW as i64 * PITCH,
            depth: 2000 + rows as i64 * ROW_GAP,
        },
        terrain: Vec::new(),
        units,
        generals,
        standing_orders: BTreeMap::new(),
        turn_limit: None,
        options: vec!["army-morale".to_string()],
        nations: BTreeMap::new(),
        finished: None,
        params: Nothing::default(),
        game: Nothing::default(),
    };
    let sheet = check_typed(&SoundTheCharge, &state, "blue", &text);
    assert!(
        sheet.rejections.is_empty(),
        "{:?}",
        sheet.rejections.first()
    );
    let mut orders = BTreeMap::new();
    orders.insert("blue".to_string(), sheet.accepted);
    (state, orders)
}

fn bench_turn(c: &mut Criterion) {
    let mut group = c.benchmark_group("turn");
    group.sample_size(10);
    for n in [50, 500, 5000] {
        let (state, orders) = armies(n);
        // The turn measured does the work it is meant to: fire, tests and
        // combats on every row.
        let (_, events) = turn::run(&state, &orders, &mut DiceStream::new(&Digest32([7; 32])));
        for kind in ["move", "charge", "shooting", "morale", "combat", "retreat"] {
            let count = events.iter().filter(|e| e.kind == kind).count();
            assert!(count >= n / 20, "only {count} `{kind}` events at 2x{n}");
        }
        group.bench_with_input(BenchmarkId::new("2x", n), &n, |b, _| {
            b.iter(|| {
                let mut dice = DiceStream::new(&Digest32([7; 32]));
                turn::run(&state, &orders, &mut dice)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_turn);
criterion_main!(benches);
