//! The test vectors of docs/AUDIT.md, section 9: the library must produce
//! them, and the page must still print them.

use adjutant::audit::dice::{Dice, DiceStream, Die};
use adjutant::audit::{Digest32, HashChain, Kind, Manifest, SeedInputs, SideOrders};

const AUDIT_MD: &str = include_str!("../docs/AUDIT.md");

fn hex(d: Digest32) -> String {
    d.to_hex()
}

fn vector_chain() -> HashChain {
    HashChain::new(Digest32(core::array::from_fn(|i| i as u8)), 3).expect("length 3")
}

const ALPHA_ORDERS: &str = "hold grenadiers\nsalt 4711\n";

fn vector_manifest() -> Manifest {
    Manifest {
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
                digest: Some(Digest32::of(ALPHA_ORDERS.as_bytes())),
            },
        ],
    }
}

fn vector_seed_inputs() -> SeedInputs {
    SeedInputs {
        drawn: None,
        kind: Kind::Turn,
        campaign: "example".into(),
        resolution: 1,
        secret: vector_chain().secret_for(1).expect("in range"),
        manifest_digest: vector_manifest().digest(),
        prior_state_digest: Digest32::of(b"{}"),
        beacon: None,
    }
}

/// Asserts the library's value and that AUDIT.md prints it.
fn pinned(name: &str, got: String, expected: &str) {
    assert_eq!(got, expected, "vector {name}");
    assert!(
        AUDIT_MD.contains(expected),
        "docs/AUDIT.md no longer prints vector {name} = {expected}"
    );
}

#[test]
fn chain_vectors() {
    let chain = vector_chain();
    pinned(
        "h_1",
        hex(chain.link(1)),
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
    );
    pinned(
        "h_2",
        hex(chain.link(2)),
        "2f287b4d3d4910f6cada9e1bd1b4648099e8c52c81aa4a6aebfa6fc86f19834e",
    );
    pinned(
        "C",
        hex(chain.commitment()),
        "4e05063392f42b5180353ef82da86c714042155044d91ab3253f1bab08120a0a",
    );
    assert_eq!(chain.secret_for(1), Ok(chain.link(2)));
    assert_eq!(chain.secret_for(3), Ok(chain.link(0)));
    assert!(chain.secret_for(4).is_err());
    assert!(chain.secret_for(0).is_err());
    // Each revealed secret hashes to the one before, back to C.
    let mut previous = chain.commitment();
    for k in 1..=3 {
        let r = chain.secret_for(k).expect("in range");
        assert!(adjutant::audit::chain::check_link(k, &previous, &r).is_ok());
        previous = r;
    }
}

#[test]
fn manifest_vectors() {
    pinned(
        "alpha orders digest",
        hex(Digest32::of(ALPHA_ORDERS.as_bytes())),
        "cd0f0526d2ddf060421ef112dd0005c2fd548a3a1e4840f098c789ae59dd9b5c",
    );
    let manifest = vector_manifest();
    assert_eq!(
        manifest.text(),
        "adjutant-manifest-v1\ncampaign example\nresolution 1\nphase turn 1 orders (alpha active)\n\
         orders alpha cd0f0526d2ddf060421ef112dd0005c2fd548a3a1e4840f098c789ae59dd9b5c\norders beta none\n"
    );
    pinned(
        "manifest digest",
        hex(manifest.digest()),
        "e26b5c3e3af29dbf7e42585711df51a3fdde8de0ff84b631b5799ca6c0cd2afe",
    );
}

#[test]
fn seed_vectors() {
    let inputs = vector_seed_inputs();
    assert_eq!(inputs.preimage().len(), 184);
    pinned(
        "seed",
        hex(inputs.seed()),
        "48d7b3cc07974febc5e1e6c460a8bab0284d2b6824311b2727d6cc523fe328d2",
    );
    let with_beacon = SeedInputs {
        drawn: None,
        beacon: Some("2026-11-23 lottery 4 8 15 16 23 42".into()),
        ..inputs
    };
    pinned(
        "seed with beacon",
        hex(with_beacon.seed()),
        "dfc27b7ca25cf47c973f27f661943dac3554979892ecc6369007d3b7bfa189eb",
    );
}

#[test]
fn stream_and_dice_vectors() {
    let seed = vector_seed_inputs().seed();
    let mut stream = DiceStream::new(&seed);
    let words: Vec<String> = (0..8).map(|_| format!("{:08x}", stream.word())).collect();
    pinned(
        "first 8 words",
        words.join(" "),
        "f7c6f16a 8dab96ae b7566c89 40a4d329 9c730a8e bee0ea62 f74e2f00 ef1b309c",
    );
    let cases = [
        (Die::D6, "1 1 2 4 1 3 1 3 6 1 4 4 3 5 3 4 3 6 6 5", 20),
        (Die::D10, "2 6 9 5 8 6 2 0 5 0 1 3 4 6 4 9 0 1 5 8", 20),
        (Die::TwoD6, "2 6 4 4 7 8 8 7 9 11 7 7 3 3 6 7 6 11 6 8", 40),
        (
            Die::D100,
            "83 87 10 86 39 7 93 41 26 71 2 44 65 17 35 90 21 22 26 39",
            20,
        ),
    ];
    for (die, expected, words) in cases {
        let mut stream = DiceStream::new(&seed);
        let values: Vec<String> = (0..20)
            .map(|_| stream.roll(die, "vector").to_string())
            .collect();
        pinned(die.label(), values.join(" "), expected);
        assert_eq!(stream.words_used(), words, "{}", die.label());
    }
}

#[test]
fn rejection_vector() {
    let mut stream = DiceStream::new(&vector_seed_inputs().seed());
    let got: Vec<String> = (0..10)
        .map(|_| {
            let first = stream.words_used();
            let v = stream.below(3_000_000_000);
            format!("{v}@{first}+{}", stream.words_used() - first)
        })
        .collect();
    assert_eq!(
        got.join(" "),
        "2376832686@0+2 1084543785@2+2 2624785038@4+1 2578340825@5+4 1034263170@9+1 \
         1272326043@10+2 2574077564@12+1 2279326520@13+4 1912850525@17+2 2282258338@19+1"
    );
    assert!(AUDIT_MD.contains("2578340825@5+4"));
}

#[test]
fn umpire_chain_and_call_vectors() {
    let umpire = vector_chain().umpire_chain();
    pinned(
        "u_0",
        hex(umpire.link(0)),
        "6a854d30a43509a4a88ba74a6342df4a9ff84345c51aa20215e45292864b4976",
    );
    pinned(
        "U",
        hex(umpire.commitment()),
        "d821422635d2c669458caf990c677b1a43a455f60a772630e599f27fbc4b1492",
    );
    pinned(
        "q_1",
        hex(umpire.secret_for(1).expect("in range")),
        "5a28caf0e9810c47ea88bed8f3d40621ff9b3570ff1e71c61fad932e9e930c69",
    );
    let call = "rally grade c enemy-can-charge\n";
    let manifest = Manifest {
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
    assert!(manifest.text().contains("\ncall 1\n"));
    pinned(
        "call manifest digest",
        hex(manifest.digest()),
        "eabc5ad59a9d1ba9044cabdb73ad79e48ef31e05df1708523b34ccfb70251106",
    );
    let inputs = SeedInputs {
        drawn: None,
        kind: Kind::Umpire,
        campaign: "example".into(),
        resolution: 1,
        secret: umpire.secret_for(1).expect("in range"),
        manifest_digest: manifest.digest(),
        prior_state_digest: Digest32::of(b"{}"),
        beacon: None,
    };
    assert!(inputs.preimage().starts_with(b"adjutant-call-v1"));
    pinned(
        "call seed",
        hex(inputs.seed()),
        "93830a761a6a7cff197166a79bf81f9e488c69d2bbc6ef9861e1c8ad3a8e0cd6",
    );
}

/// docs/AUDIT.md section 11.7: the genesis and a link of spec v3.
#[test]
fn the_v3_genesis_and_link_vectors_hold() {
    use adjutant::archive::ledger::{Genesis, Link};
    let hex = |h: &str| Digest32::from_hex(h).expect("hex");
    let genesis = Genesis {
        campaign: "example".into(),
        ruleset: "sound-the-charge".into(),
        sides: vec!["alpha".into(), "beta".into()],
        chain_length: 3,
        commitment: hex("4e05063392f42b5180353ef82da86c714042155044d91ab3253f1bab08120a0a"),
        umpire_commitment: hex("d821422635d2c669458caf990c677b1a43a455f60a772630e599f27fbc4b1492"),
        beacon: Genesis::beacon_words(None, None),
        no_orders_policy: "stand-fast".into(),
        initial_state_digest: Digest32::of(b"{}"),
    };
    assert_eq!(
        genesis.digest().to_hex(),
        "98709817a0033f5aeee10a5bcf7bf561ac4d9936a4f50109cb6023b7c62e7b49"
    );
    let link = Link::of(
        "example",
        1,
        genesis.digest(),
        "turns/0001",
        &[
            (
                "orders/alpha.txt".into(),
                b"hold grenadiers\nsalt 4711\n".to_vec(),
            ),
            ("manifest.txt".into(), vector_manifest().text().into_bytes()),
        ],
    );
    assert_eq!(
        link.digest().to_hex(),
        "6c8fde539d123a1f308fd2da3437d160f035dd4f806c78c6791605bcb5c627e8"
    );
}
