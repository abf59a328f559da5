//! The chronicle of a campaign of 100 resolutions: what `adjutant
//! chronicle` costs to write (the game master's, with everything; a side's
//! of a finished game is the same). The campaign is the demo's with a turn
//! limit of 100 and without the optional army morale, played by its bots
//! (umpire calls make up the 100 should the game end sooner). The GM's site is left in `target/chronicle-100/` for
//! the browser's half of the measure (docs/PERFORMANCE.md).

use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, Utc};
use criterion::{Criterion, criterion_group, criterion_main};

use adjutant::chronicle::{self, Reader};
use adjutant::engine;
use adjutant::lifecycle::FixedClock;
use adjutant::store::Store;

const RESOLUTIONS: u64 = 100;

/// The demo campaign with room for 100 turns, played to its end by the
/// bots, then umpire calls to make up 100 resolutions.
fn campaign(dir: &Path) -> (Store, String) {
    let folder = dir.join("campaign");
    let demo = adjutant::demo::demo_of(None).expect("a demo");
    adjutant::demo::demo_campaign(&demo, &folder).expect("the demo campaign");
    let edit = |file: &str, from: &str, to: &str| {
        let path = folder.join(file);
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.contains(from), "{file} has {from}");
        std::fs::write(&path, text.replace(from, to)).expect("write");
    };
    edit("scenario.toml", "turn_limit = 30", "turn_limit = 100");
    edit("campaign.toml", "chain_length = 100", "chain_length = 200");
    // Without the optional army morale the game lasts to its turn limit:
    // 100 turns, each with its map.
    edit(
        "campaign.toml",
        "options = [\"army-morale\", \"blown-cavalry\"]",
        "options = [\"blown-cavalry\"]",
    );
    let loaded = adjutant::campaign::load(&folder).expect("it loads");
    let mut store = Store::open(&dir.join("data")).expect("store");
    let mut now: DateTime<Utc> = DateTime::parse_from_rfc3339("2026-01-05T09:00:00Z")
        .map(|t| t.with_timezone(&Utc))
        .expect("a time");
    engine::init(&mut store, &loaded, &folder, &FixedClock(now)).expect("init");
    let id = loaded.id.clone();
    let mut made = 0;
    while made < RESOLUTIONS {
        now += Duration::hours(1);
        let record = store.campaign(&id).expect("campaign");
        let state = store.state(&record.current_state_digest).expect("state");
        if state.finished.is_some() {
            let call = demo.calls[made as usize % demo.calls.len()];
            engine::umpire(&mut store, &id, call, &FixedClock(now)).expect("a call");
        } else {
            for side in &state.sides {
                let lines =
                    adjutant::demo::bots::orders_for(&state, side).expect("the state reads");
                if !lines.is_empty() {
                    engine::submit(
                        &mut store,
                        &id,
                        side,
                        &lines.join("\n"),
                        &FixedClock(now),
                        None,
                    )
                    .expect("orders");
                }
            }
            engine::resolve_now(&mut store, &id, &FixedClock(now)).expect("resolves");
        }
        made += 1;
    }
    (store, id)
}

fn chronicle(c: &mut Criterion) {
    let tmp = tempfile::tempdir().expect("tmp");
    let (store, id) = campaign(tmp.path());
    let record = chronicle::gather(&store, &id).expect("record");
    assert_eq!(record.resolutions.len() as u64, RESOLUTIONS);
    let turns = record.turns().count();
    let dice: usize = record.resolutions.iter().map(|r| r.rolls.len()).sum();
    let kept = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/chronicle-100");
    let _ = std::fs::remove_dir_all(&kept);
    chronicle::write(&store, &id, Reader::Gm, &kept).expect("written");
    eprintln!(
        "a campaign of {RESOLUTIONS} resolutions ({turns} turns, {} umpire calls, {dice} dice); the GM's site is in {}",
        RESOLUTIONS as usize - turns,
        kept.display()
    );
    let mut group = c.benchmark_group("chronicle");
    group.sample_size(10);
    group.bench_function("write 100 resolutions", |b| {
        let out = tmp.path().join("gm");
        b.iter(|| chronicle::write(&store, &id, Reader::Gm, &out).expect("written"))
    });
    group.finish();
}

criterion_group!(benches, chronicle);
criterion_main!(benches);
