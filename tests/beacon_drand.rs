//! A campaign with a drand beacon (docs/AUDIT.md, section 11.6), against a
//! beacon served on loopback whose rounds verify against its own public key
//! (the real network is checked by the known answer of its round 123 in
//! `beacon::verify`'s tests). The manifest names a round not yet published;
//! the turn waits for it, is resolved with its randomness, and the archive
//! checks the round's signature. The salt-grinding attack that works without
//! a beacon cannot aim the dice. Resolving without the round is the game
//! master's act, shown in the report and checked by `verify`.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use adjutant::archive::{export, verify};
use adjutant::audit::{DiceStream, Kind, SeedInputs};
use adjutant::beacon::{Behaviour, TestBeacon, first_round_after, round_time, serve_for_tests};
use adjutant::engine::gm::{GmCommand, Origin, execute};
use adjutant::engine::{self};
use adjutant::lifecycle::FixedClock;
use adjutant::rules::ruleset_for;
use adjutant::store::Store;

const ID: &str = "sound-the-charge-demo";
const START: i64 = 1_767_607_200; // 2026-01-05T10:00:00Z

fn clock(unix: i64) -> FixedClock {
    FixedClock(DateTime::<Utc>::from_timestamp(unix, 0).expect("a time"))
}

struct Setup {
    _dir: tempfile::TempDir,
    dir: std::path::PathBuf,
    store: Store,
    server: adjutant::beacon::TestServer,
}

fn setup() -> Setup {
    let tmp = tempfile::tempdir().expect("dir");
    let dir = tmp.path().to_path_buf();
    let beacon = TestBeacon::from_seed([7; 32], START - 3_000, 3).expect("a test beacon");
    let info = beacon.network().to_info_json();
    let now_round = adjutant::beacon::round_at(beacon.network(), START);
    let server = serve_for_tests(beacon, now_round).expect("serves on loopback");
    let folder = dir.join("campaign");
    adjutant::demo::bundled_campaign(&folder).expect("writes");
    let toml = std::fs::read_to_string(folder.join("campaign.toml")).expect("toml");
    let toml = format!(
        "{toml}\n[dice.drand]\nurl = \"{}\"\ninfo = '''{info}'''\nmargin = \"1m\"\n",
        server.base_url()
    );
    std::fs::write(folder.join("campaign.toml"), toml).expect("write");
    let campaign = adjutant::campaign::load(&folder).expect("the campaign with drand loads");
    assert!(campaign.drand.is_some());
    let mut store = Store::open(&dir.join("data")).expect("store");
    engine::init(&mut store, &campaign, &folder, &clock(START)).expect("init");
    Setup {
        _dir: tmp,
        dir,
        store,
        server,
    }
}

fn gm(store: &mut Store, text: &str, at: i64) -> adjutant::engine::gm::GmReport {
    let command = GmCommand::parse(text, "Europe/Paris").expect("a command");
    execute(store, ID, &command, &Origin::cli(), &clock(at)).expect("carried out")
}

#[test]
fn a_turn_waits_for_the_round_its_manifest_named_and_takes_its_randomness() {
    let mut s = setup();
    let network = s.server.network().clone();
    engine::submit(
        &mut s.store,
        ID,
        "french",
        "1-ligne: hold\n",
        &clock(START),
        None,
    )
    .expect("orders");
    // Closed now; the round it names is published a minute later at least.
    let done = engine::resolve_now(&mut s.store, ID, &clock(START)).expect("closes");
    assert!(done.is_empty(), "nothing can be resolved before the round");
    let round = first_round_after(&network, START, 60);
    let published = round_time(&network, round).expect("a time");
    assert!(published > START + 60);
    let pending = s.store.pending_resolutions(ID).expect("pending");
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].beacon_round, Some(round));
    assert!(
        pending[0]
            .manifest_text
            .contains(&format!("\nbeacon drand round {round}\n")),
        "{}",
        pending[0].manifest_text
    );
    let manifest_mail = s
        .store
        .queued_mail(ID)
        .expect("mail")
        .into_iter()
        .find(|m| m.message_id.contains("r1.manifest"))
        .expect("the manifest mail");
    assert!(
        manifest_mail.body.contains(&format!("drand round {round}")),
        "{}",
        manifest_mail.body
    );

    // At its time, the relay has not published it yet: the turn waits.
    let done = engine::tick(&mut s.store, ID, &clock(published + 1)).expect("waits");
    assert!(done.is_empty());
    assert!(
        s.store.pending_resolutions(ID).expect("pending")[0]
            .beacon_tried_at
            .is_some()
    );
    // Published: resolved with it.
    s.server.set_now_round(round);
    let done = engine::tick(&mut s.store, ID, &clock(published + 40)).expect("resolves");
    assert_eq!(done.len(), 1);
    let reports: Vec<String> = s
        .store
        .queued_mail(ID)
        .expect("mail")
        .into_iter()
        .filter(|m| m.body.contains("== The dice can be checked =="))
        .map(|m| m.body.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert!(!reports.is_empty());
    for r in &reports {
        assert!(r.contains(&format!("drand round {round} of chain")), "{r}");
        assert!(r.contains("--beacon-field "), "{r}");
    }

    let archive = s.dir.join("archive");
    export::export(&s.store, ID, &archive).expect("export");
    let verdict = verify::verify(&archive).expect("readable");
    assert!(verdict.ok(), "{verdict:?}");
    let genesis = std::fs::read_to_string(archive.join("genesis.txt")).expect("genesis");
    assert!(
        genesis.contains(&format!("beacon drand {}\n", network.chain_hash_hex())),
        "{genesis}"
    );

    // Kept as a frozen archive (tests/frozen_archives.rs) when asked to.
    if std::env::var_os("ADJUTANT_BLESS").is_some() {
        let frozen = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/archives/drand-v3");
        let _ = std::fs::remove_dir_all(&frozen);
        export::export(&s.store, ID, &frozen).expect("frozen export");
    }

    // A signature changed in resolution.json is refused, whatever the link.
    let path = archive.join("turns/0001/resolution.json");
    let text = std::fs::read_to_string(&path).expect("resolution.json");
    let mut json: serde_json::Value = serde_json::from_str(&text).expect("json");
    let sig = json["beacon"]["signature"]
        .as_str()
        .expect("a signature")
        .to_string();
    let flipped = format!(
        "{}{}",
        &sig[..94],
        if sig.ends_with('0') { "1" } else { "0" }
    );
    json["beacon"]["signature"] = flipped.into();
    std::fs::write(&path, serde_json::to_string_pretty(&json).expect("json")).expect("write");
    let verdict = verify::verify(&archive).expect("readable");
    assert!(
        verdict.resolutions[0]
            .problems
            .iter()
            .any(|p| p.contains(&format!("drand round {round}"))),
        "{verdict:?}"
    );
}

/// The attack that chooses the dice without a beacon: the game master
/// computes, for salt after salt, the dice a player's orders would get. With
/// the beacon, the seed also takes a round not yet published, so the dice
/// ground for are not the dice thrown.
#[test]
fn with_the_beacon_salt_grinding_cannot_know_the_dice() {
    let mut s = setup();
    let record = s.store.campaign(ID).expect("campaign");
    let ruleset = ruleset_for("sound-the-charge").expect("ruleset");
    let state = s.store.state(&record.current_state_digest).expect("state");
    let label = adjutant::resolution::phase_label(ruleset, &state);
    let secret = record.chain.secret_for(1).expect("r_1");
    let network = s.server.network().clone();
    let round = first_round_after(&network, START, 60);
    let mut found = None;
    for salt in 0..10_000u32 {
        let text = format!("1-ligne: hold\nsalt {salt}\n");
        let canonical = ruleset
            .check_orders(&state, "french", &text)
            .canonical_text();
        let orders = BTreeMap::from([("french".to_string(), canonical)]);
        let mut manifest = adjutant::resolution::turn_manifest(ID, 1, &label, &state, &orders);
        // Even knowing which round will be named, not its value.
        manifest.beacon_round = Some(round);
        let seed = SeedInputs {
            kind: Kind::Turn,
            campaign: ID.to_string(),
            resolution: 1,
            secret,
            manifest_digest: manifest.digest(),
            prior_state_digest: record.current_state_digest,
            beacon: None,
            drawn: None,
        }
        .seed();
        let mut stream = DiceStream::new(&seed);
        if stream.below(6) == 5 && stream.below(6) == 5 && stream.below(6) == 5 {
            found = Some((text, seed));
            break;
        }
    }
    let (text, ground) = found.expect("a salt found for a guessed beacon");
    engine::submit(&mut s.store, ID, "french", &text, &clock(START), None).expect("orders");
    engine::resolve_now(&mut s.store, ID, &clock(START)).expect("closes");
    s.server.set_now_round(round);
    let published = round_time(&network, round).expect("a time");
    engine::tick(&mut s.store, ID, &clock(published + 1)).expect("resolves");
    let resolved = s.store.resolutions(ID).expect("resolutions").remove(0);
    let seed = resolved.result.expect("resolved").seed;
    assert_ne!(seed, ground, "the seed is not the one ground for");
    let mut stream = DiceStream::new(&seed);
    let thrown = [stream.below(6), stream.below(6), stream.below(6)];
    assert_ne!(
        thrown,
        [5, 5, 5],
        "the three sixes ground for are not thrown"
    );
}

#[test]
fn resolving_without_the_round_is_the_game_masters_act_and_the_report_says_so() {
    let mut s = setup();
    let network = s.server.network().clone();
    s.server.set_behaviour(Behaviour::Unavailable);
    engine::resolve_now(&mut s.store, ID, &clock(START)).expect("closes");
    let round = first_round_after(&network, START, 60);
    let published = round_time(&network, round).expect("a time");
    // Out of reach for long: the game master is told, once.
    for later in [11 * 60, 12 * 60] {
        let done = engine::tick(&mut s.store, ID, &clock(published + later)).expect("waits");
        assert!(done.is_empty());
    }
    let told: Vec<_> = s
        .store
        .queued_mail(ID)
        .expect("mail")
        .into_iter()
        .filter(|m| m.subject.contains("waits for the beacon"))
        .collect();
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].body.contains("without beacon"));

    let at = published + 13 * 60;
    let report = gm(&mut s.store, "without beacon", at);
    assert!(report.done, "{report:?}");
    assert!(s.store.pending_resolutions(ID).expect("pending").is_empty());
    let reports: Vec<String> = s
        .store
        .queued_mail(ID)
        .expect("mail")
        .into_iter()
        .filter(|m| m.body.contains("== The dice can be checked =="))
        .map(|m| m.body.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert!(!reports.is_empty());
    for r in &reports {
        assert!(
            r.contains(&format!(
                "NONE: the game master resolved this turn without drand round {round}"
            )),
            "{r}"
        );
    }
    assert!(
        !gm(&mut s.store, "without beacon", at).done,
        "nothing waits now"
    );

    let archive = s.dir.join("archive");
    export::export(&s.store, ID, &archive).expect("export");
    let verdict = verify::verify(&archive).expect("readable");
    assert!(verdict.ok(), "{verdict:?}");
    assert!(
        verdict.acts.iter().any(|a| a.command == "without beacon"),
        "{verdict:?}"
    );
}
