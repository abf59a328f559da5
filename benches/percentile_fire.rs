//! One Reciprocal Infantry Fire Phase of the percentile fire chapter with
//! 2 x 200 firing units, and one Reciprocal Artillery Fire Phase with 2 x 50
//! batteries and 2 x 150 infantry, through the ruleset as the engine calls
//! it: each side's canonical orders checked again, then resolved one unit
//! a side at a time with the audited dice. The armies stand in facing rows
//! 3" apart, each unit firing at the one opposite. Figures and the command
//! are in docs/PERFORMANCE.md.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use adjutant::audit::dice::DiceStream;
use adjutant::audit::digest::Digest32;
use adjutant::campaign::load_texts;
use adjutant::rules::ruleset::SideText;
use adjutant::rules::state::GameState;
use adjutant::rules::{Ruleset, ruleset_for};
use criterion::{Criterion, criterion_group, criterion_main};

/// Units to a row, and inches between their centres.
const PER_ROW: usize = 20;
const PITCH: usize = 6;
/// Inches from one pair of facing rows to the next.
const ROW_GAP: usize = 12;

const HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$ZH+F1i2YyiTxiJtyzL+UWw$XwsAgZ5Tild+ZrDJeOs0kO4EU1DauW7HWLQ9c36v5e0";

fn campaign() -> String {
    format!(
        "[campaign]\nid = \"bench\"\ntitle = \"Bench\"\n\n[ruleset]\nid = \"percentile-fire\"\n\n\
         [[side]]\nid = \"blue\"\nname = \"Blue\"\n\n[[side]]\nid = \"red\"\nname = \"Red\"\n\n\
         [gm]\nname = \"GM\"\naddress = \"gm@bench.invalid\"\npassphrase_hash = \"{HASH}\"\n\n\
         [[player]]\nname = \"B\"\naddress = \"b@bench.invalid\"\nside = \"blue\"\npassphrase_hash = \"{HASH}\"\n\n\
         [[player]]\nname = \"R\"\naddress = \"r@bench.invalid\"\nside = \"red\"\npassphrase_hash = \"{HASH}\"\n\n\
         [schedule]\ntime_zone = \"UTC\"\nmovement = \"24h\"\nartillery-fire = \"24h\"\ninfantry-fire = \"24h\"\nshock = \"24h\"\n"
    )
}

/// Two armies of `n` units each in facing rows; every `batteries`-th pair
/// is two batteries. Each unit's order fires at the one opposite.
fn scenario(n: usize, every_battery: usize) -> (String, String, String) {
    let rows = n.div_ceil(PER_ROW);
    let mut s = format!(
        "[scenario]\ntitle = \"Bench\"\nfirst_active = \"blue\"\n\n[map]\nkind = \"table\"\nwidth = {}\ndepth = {}\n",
        PER_ROW * PITCH + 10,
        rows * ROW_GAP + 10
    );
    let (mut blue, mut red) = (String::new(), String::new());
    for k in 0..n {
        let (row, col) = (k / PER_ROW, k % PER_ROW);
        let x = 5 + col * PITCH;
        let y = 6 + row * ROW_GAP;
        let battery = every_battery > 0 && col % every_battery == 0;
        for (side, id, yy, facing) in [
            ("blue", format!("b{k}"), y, 0),
            ("red", format!("r{k}"), y + 3, 180),
        ] {
            let keys = if battery {
                "arm = \"artillery\"\nformation = \"unlimbered\"\nweapon = \"6pdr\"\ncannon = 2\nstrength = 4"
            } else {
                "arm = \"infantry\"\nformation = \"line\"\nweapon = \"musket\"\nstrength = 12"
            };
            let _ = write!(
                s,
                "\n[[unit]]\nid = \"{id}\"\nname = \"{id}\"\nside = \"{side}\"\n{keys}\nx = {x}\ny = {yy}\nfacing = {facing}\n"
            );
        }
        let line = |o: &mut String, me: char, them: char| {
            let _ = writeln!(o, "{me}{k}: fire {them}{k}");
        };
        line(&mut blue, 'b', 'r');
        line(&mut red, 'r', 'b');
    }
    (s, blue, red)
}

/// The state in the phase, and each side's canonical orders.
fn prepared(
    n: usize,
    every_battery: usize,
    phase: u32,
) -> (&'static dyn Ruleset, GameState, BTreeMap<String, String>) {
    let ruleset = ruleset_for("percentile-fire").expect("registered");
    let (text, blue, red) = scenario(n, every_battery);
    let campaign =
        load_texts(Path::new("bench"), &campaign(), &text).expect("the bench campaign loads");
    let mut state = campaign.initial_state(ruleset).expect("a state");
    state.phase = phase;
    let read = ruleset.read(&state).expect("the state reads");
    let mut orders = BTreeMap::new();
    for (side, text) in [("blue", blue), ("red", red)] {
        let sheet = ruleset.check_orders(&read, side, &text);
        orders.insert(side.to_string(), sheet.canonical_text());
    }
    drop(read);
    (ruleset, state, orders)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("percentile fire reciprocal phase");
    group.sample_size(20);
    for (name, n, batteries, phase) in [
        ("infantry fire, 2 x 200 firing units", 200, 0, 2),
        (
            "artillery fire, 2 x 50 batteries of 200 units a side",
            200,
            4,
            1,
        ),
    ] {
        let (ruleset, state, orders) = prepared(n, batteries, phase);
        let sent: BTreeMap<String, SideText<'_>> = orders
            .iter()
            .map(|(s, t)| (s.clone(), SideText::Sent(t)))
            .collect();
        let fired = orders.values().map(|t| t.lines().count()).sum::<usize>();
        assert!(
            fired >= 2 * n / if batteries > 0 { batteries } else { 1 },
            "orders refused"
        );
        // The state is read inside the loop, as a resolution reads its
        // prior state once, so that the figures stay those of a whole phase.
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut dice = DiceStream::new(&Digest32::of(b"percentile fire bench"));
                let read = ruleset.read(&state).expect("the state reads");
                ruleset.resolve(&read, &sent, &mut dice).expect("resolves")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
