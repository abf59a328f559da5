//! Prints the test vectors of docs/AUDIT.md from the library's own code.
//! `cargo run --example audit_vectors` (the test `tests/audit_vectors.rs`
//! pins the same values).

use adjutant::audit::dice::{Dice, DiceStream, Die};
use adjutant::audit::{Digest32, HashChain, Kind, Manifest, SeedInputs, SideOrders};

fn main() {
    let origin = Digest32(core::array::from_fn(|i| i as u8));
    let chain = HashChain::new(origin, 3).expect("length 3");
    println!("h_0 = {}", chain.link(0));
    for i in 1..=3 {
        println!("h_{i} = {}", chain.link(i));
    }
    println!("C = {}", chain.commitment());
    for k in 1..=3 {
        println!("r_{k} = {}", chain.secret_for(k).expect("in range"));
    }
    let alpha = "hold grenadiers\nsalt 4711\n";
    let manifest = Manifest {
        beacon_round: None,
        kind: Kind::Turn,
        campaign: "example".into(),
        resolution: 1,
        phase: "turn 1 orders (alpha active)".into(),
        sides: vec![
            SideOrders {
                side: "beta".into(),
                digest: None,
            },
            SideOrders {
                side: "alpha".into(),
                digest: Some(Digest32::of(alpha.as_bytes())),
            },
        ],
    };
    println!(
        "orders alpha = {:?} digest {}",
        alpha,
        Digest32::of(alpha.as_bytes())
    );
    println!("manifest text = {:?}", manifest.text());
    println!("manifest digest = {}", manifest.digest());
    let prior = Digest32::of(b"{}");
    println!("prior state digest (of `{{}}`) = {prior}");
    let inputs = SeedInputs {
        drawn: None,
        kind: Kind::Turn,
        campaign: "example".into(),
        resolution: 1,
        secret: chain.secret_for(1).expect("in range"),
        manifest_digest: manifest.digest(),
        prior_state_digest: prior,
        beacon: None,
    };
    println!("preimage = {}", hex::encode(inputs.preimage()));
    let seed = inputs.seed();
    println!("seed = {seed}");
    let with_beacon = SeedInputs {
        drawn: None,
        beacon: Some("2026-11-23 lottery 4 8 15 16 23 42".into()),
        ..inputs.clone()
    };
    println!("seed with beacon = {}", with_beacon.seed());
    let umpire = chain.umpire_chain();
    println!("u_0 = {}", umpire.link(0));
    println!("U = {}", umpire.commitment());
    for j in 1..=3 {
        println!("q_{j} = {}", umpire.secret_for(j).expect("in range"));
    }
    let call = "rally grade c enemy-can-charge\n";
    let call_manifest = Manifest {
        beacon_round: None,
        kind: Kind::Umpire,
        campaign: "example".into(),
        resolution: 1,
        phase: "umpire".into(),
        sides: vec![SideOrders {
            side: "@umpire".into(),
            digest: Some(Digest32::of(call.as_bytes())),
        }],
    };
    println!("call digest = {}", Digest32::of(call.as_bytes()));
    println!("call manifest text = {:?}", call_manifest.text());
    println!("call manifest digest = {}", call_manifest.digest());
    let call_inputs = SeedInputs {
        drawn: None,
        kind: Kind::Umpire,
        campaign: "example".into(),
        resolution: 1,
        secret: umpire.secret_for(1).expect("in range"),
        manifest_digest: call_manifest.digest(),
        prior_state_digest: prior,
        beacon: None,
    };
    println!("call preimage = {}", hex::encode(call_inputs.preimage()));
    println!("call seed = {}", call_inputs.seed());
    for die in [Die::D6, Die::D10, Die::TwoD6, Die::D100] {
        let mut s = DiceStream::new(&seed);
        let values: Vec<u32> = (0..20).map(|_| s.roll(die, "vector")).collect();
        println!(
            "{} x20 = {:?} words used {}",
            die.label(),
            values,
            s.words_used()
        );
    }
    let mut s = DiceStream::new(&seed);
    let words: Vec<String> = (0..8).map(|_| format!("{:08x}", s.word())).collect();
    println!("first 8 words = {}", words.join(" "));
    let mut s = DiceStream::new(&seed);
    let mut out = Vec::new();
    for _ in 0..10 {
        let first = s.words_used();
        let v = s.below(3_000_000_000);
        out.push(format!("{v}@{first}+{}", s.words_used() - first));
    }
    println!("below(3000000000) x10 = {}", out.join(" "));
}
