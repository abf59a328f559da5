//! The daemon killed with SIGKILL at random moments, and started again each
//! time, while it takes a Maildir of order mails and GM commands, resolves
//! the phases they close and writes its mail through the file transport.
//! At the end everything must be as after one uninterrupted run from a copy
//! of the same store: the same mail, byte for byte (the clock is fixed, so
//! even the Date headers agree), each message with one outcome and one
//! reply, each `extend` carried out once, the same archive, and `verify`
//! passes. No passphrase, right or wrong, and no secret of either chain not
//! yet revealed, is in the mail, the archive or the daemon's log.
//!
//! The schedule is seeded and reproducible. `cargo test` runs a short
//! version: two seeds, each of four phases (42 messages in 16 waves) and at
//! least 30 kills that find the daemon at work. The long runs of
//! docs/RELIABILITY.md set the seeds and phases:
//!
//!     ADJUTANT_KILL_SEEDS=20 cargo test --release --test kill_schedule -- --nocapture
//!     ADJUTANT_KILL_SEEDS=3 ADJUTANT_KILL_PHASES=20 cargo test --release --test kill_schedule -- --nocapture
//!
//! and prints, for each seed, how many kills landed while the daemon was at
//! work and what it had done by then.

mod support;

use support::crash_harness::{
    Copies, Killed, calm_wave, check_the_end, deliver, kill_repeatedly, rows, run_to_the_end,
    script, setting,
};
use support::seeded::SplitMix;

fn one_seed(seed: u64, phases: usize, kills_per_wave: u64) {
    let copies = Copies::new();
    let (calm, rough) = (&copies.calm, &copies.rough);
    let waves = script(phases);
    let messages: Vec<(String, Vec<u8>)> = waves.iter().flatten().cloned().collect();

    // Wave by wave: the calm run takes each to the end, and is timed; the
    // rough run is started and killed up to `kills_per_wave` times within
    // that time, then left to finish the wave, so that both take the same
    // mail together and the kills fall anywhere in the work of a wave (taking
    // mail, resolving, writing mail).
    let mut schedule = SplitMix(seed);
    let mut killed = Killed::default();
    for wave in &waves {
        let window = calm_wave(calm, wave);
        deliver(rough, wave);
        let kills = schedule.within(1, kills_per_wave + 1);
        kill_repeatedly(rough, &mut schedule, kills, window, &mut killed);
        run_to_the_end(rough);
    }
    println!(
        "seed {seed}: {} waves, {} mail messages, {:?} resolutions; {} of {} starts killed while the daemon worked; (messages taken, mail written) at each kill: {:?}",
        waves.len(),
        messages.len(),
        rows(&rough.join("var"), "SELECT COUNT(*) FROM resolutions"),
        killed.landed,
        killed.tried,
        killed.taken_at_kills
    );
    assert!(
        killed.landed >= waves.len(),
        "seed {seed}: only {} kills landed in {} waves",
        killed.landed,
        waves.len()
    );
    check_the_end(seed, phases, &copies, &rough.join("var"), &messages);
}

#[test]
fn killed_at_random_the_daemon_ends_where_an_uninterrupted_run_ends() {
    let seeds = setting("ADJUTANT_KILL_SEEDS", 2);
    let phases = setting("ADJUTANT_KILL_PHASES", 4) as usize;
    let kills_per_wave = setting("ADJUTANT_KILLS_PER_WAVE", 5);
    for seed in 1..=seeds {
        one_seed(seed, phases, kills_per_wave);
    }
}
