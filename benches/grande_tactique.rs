//! One Grande Tactique turn (its PIP Phase and its combat phase) with two
//! armies of 200 units each and 40 charges declared, 20 by each side. The
//! armies stand in pairs of rows 4 inches apart, facing each other, with
//! cavalry and infantry mixed along each row; in every row pair two units
//! of each side charge the enemy opposite (cavalry moving to contact, the
//! rest in reach or in contact), the infantry fires. Figures and the
//! command are in docs/PERFORMANCE.md.

use std::collections::BTreeMap;

use adjutant::audit::dice::DiceStream;
use adjutant::audit::digest::Digest32;
use adjutant::rules::board::{Location, MapSpec};
use adjutant::rules::grande_tactique::state::{Formation, GtGame, GtUnit, Morale, TroopType};
use adjutant::rules::grande_tactique::{GrandeTactique, ID, Params, State, Unit};
use adjutant::rules::ruleset::{Rules, check_typed};
use criterion::{Criterion, criterion_group, criterion_main};

/// Units to a row, and rows to a side.
const PER_ROW: i64 = 20;
const ROWS: i64 = 10;
/// Between units' centres along a row, and between one pair of rows and
/// the next, in hundredths of an inch.
const PITCH: i64 = 600;
const ROW_GAP: i64 = 2400;
/// Between the two rows of a pair.
const FACING_GAP: i64 = 400;

fn unit(
    id: String,
    side: &str,
    troop: TroopType,
    command: String,
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
        strength: 8,
        original_strength: 8,
        eliminated: None,
        rules: GtUnit {
            troop_type: troop,
            command,
            formation: Formation::Line,
            morale: Morale::Eager,
            veteran: x % 3 == 0,
            firing: troop == TroopType::Infantry,
            marks: Vec::new(),
            charges_made: 0,
            charged: Vec::new(),
        },
    }
}

/// The armies and both sides' PIP Phase orders.
fn armies() -> (State, String, String) {
    let mut units = Vec::new();
    let mut blue = String::new();
    let mut red = String::new();
    for row in 0..ROWS {
        let y = 1000 + row * ROW_GAP;
        for col in 0..PER_ROW {
            let x = 500 + col * PITCH;
            let troop = match col % 5 {
                0 => TroopType::Cuirassiers,
                1 => TroopType::Lancers,
                2 => TroopType::Cavalry,
                _ => TroopType::Infantry,
            };
            let command = format!("c{}", row * 2 + col / 10);
            units.push(unit(
                format!("b{row}-{col}"),
                "blue",
                troop,
                command.clone(),
                x,
                y,
                0,
            ));
            let red_troop = if col % 4 == 0 {
                TroopType::Infantry
            } else {
                troop
            };
            units.push(unit(
                format!("r{row}-{col}"),
                "red",
                red_troop,
                command,
                x,
                y + FACING_GAP,
                180,
            ));
            // Two charges by each side in each row pair: blue cavalry at
            // columns 0 and 5 (moving to contact), red at columns 11 and
            // 17 (cavalry moving to contact).
            if col == 0 || col == 5 {
                blue.push_str(&format!("b{row}-{col}: charge r{row}-{col}\n"));
            }
            if col == 11 || col == 17 {
                red.push_str(&format!("r{row}-{col}: charge b{row}-{col}\n"));
            }
        }
    }
    let mut pips = BTreeMap::new();
    for side in ["blue", "red"] {
        let by: BTreeMap<String, u32> = (0..ROWS * 2).map(|c| (format!("c{c}"), 10)).collect();
        pips.insert(side.to_string(), by);
    }
    let state = State {
        campaign: "bench".to_string(),
        ruleset: ID.to_string(),
        turn: 1,
        phase: 0,
        active_side: "blue".to_string(),
        sides: vec!["blue".to_string(), "red".to_string()],
        map: MapSpec::Table {
            width: 1000 + PER_ROW * PITCH,
            depth: 2000 + ROWS * ROW_GAP,
        },
        terrain: Vec::new(),
        units,
        generals: Vec::new(),
        standing_orders: BTreeMap::new(),
        turn_limit: None,
        options: Vec::new(),
        nations: BTreeMap::new(),
        finished: None,
        params: Params::default(),
        game: GtGame {
            pips,
            charges: Vec::new(),
        },
    };
    (state, blue, red)
}

fn orders_of(
    state: &State,
    texts: &[(&str, &str)],
) -> BTreeMap<String, Vec<adjutant::rules::grande_tactique::orders::GtOrder>> {
    let mut orders = BTreeMap::new();
    for (side, text) in texts {
        let sheet = check_typed(&GrandeTactique, state, side, text);
        assert!(
            sheet.is_clean(),
            "{:?} {:?}",
            sheet.parse_errors.first(),
            sheet.rejections.first()
        );
        orders.insert(side.to_string(), sheet.accepted);
    }
    orders
}

fn bench_turn(c: &mut Criterion) {
    let (state, blue, red) = armies();
    let pip_orders = orders_of(&state, &[("blue", &blue), ("red", &red)]);
    let declared: usize = pip_orders.values().map(Vec::len).sum();
    assert_eq!(declared, 40, "40 charges declared");
    // The combat phase's orders: every firing infantry unit fires at the
    // enemy opposite, but those in a charge.
    let (after_pips, _) = GrandeTactique.resolve(
        &state,
        &pip_orders,
        &mut DiceStream::new(&Digest32([7; 32])),
    );
    assert_eq!(after_pips.game.charges.len(), 40);
    let fire = |side: &str, enemy: &str| -> String {
        after_pips
            .units
            .iter()
            .filter(|u| u.side == side && u.rules.firing)
            .filter(|u| {
                !after_pips
                    .game
                    .charges
                    .iter()
                    .any(|c| c.unit == u.id || c.target == u.id)
            })
            .map(|u| format!("{}: fire at {enemy}{}\n", u.id, &u.id[1..]))
            .collect()
    };
    let combat_orders = orders_of(
        &after_pips,
        &[("blue", &fire("blue", "r")), ("red", &fire("red", "b"))],
    );
    let turn = || {
        let mut dice = DiceStream::new(&Digest32([7; 32]));
        let (mid, mut events) = GrandeTactique.resolve(&state, &pip_orders, &mut dice);
        let (end, more) = GrandeTactique.resolve(&mid, &combat_orders, &mut dice);
        events.extend(more);
        (end, events)
    };
    // The turn measured does the work it is meant to.
    let (end, events) = turn();
    assert_eq!(end.turn, 2);
    for kind in [
        "charge-declared",
        "charge",
        "morale-check",
        "flight",
        "pursuit",
        "fire",
    ] {
        let count = events.iter().filter(|e| e.kind == kind).count();
        assert!(count >= 10, "only {count} `{kind}` events");
    }
    let mut group = c.benchmark_group("grande_tactique");
    group.sample_size(20);
    group.bench_function("turn 2x200 units, 40 charges", |b| b.iter(turn));
    group.finish();
}

criterion_group!(benches, bench_turn);
criterion_main!(benches);
