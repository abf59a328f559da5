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
    // The test beacon's key is the test's own, as a game master's own
    // network's would be: the campaign must say it is not to be trusted.
    let toml = format!(
        "{toml}\n[dice.drand]\nurl = \"{}\"\ninfo = '''{info}'''\nmargin = \"1m\"\ntrusted = false\n",
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

/// Hands every message queued so far to a file transport at `at`, as the
/// daemon's sender does: the outbox records when each was taken.
fn hand_over(s: &mut Setup, at: i64) {
    use adjutant::outbound::{DeliveryPolicy, FileTransport, deliver_due};
    let policy = DeliveryPolicy {
        from: "adjutant <adjutant@example.org>".to_string(),
        batch: 10_000,
        ..DeliveryPolicy::default()
    };
    deliver_due(
        &mut s.store,
        &FileTransport::new(s.dir.join("sent")),
        &policy,
        &clock(at),
    )
    .expect("handed over");
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
    hand_over(&mut s, START + 2);
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
        .outbox(Some(ID))
        .expect("mail")
        .into_iter()
        .map(|e| e.mail)
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
        assert!(
            r.contains("handed to the mail server (at 2026-01-05T10:00:02Z)"),
            "the report gives when the manifest left: {r}"
        );
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
    // Issue 31, item 7: the signature is in every report, for a player to
    // check the round against the network's key from the mail alone.
    for r in &reports {
        assert!(r.contains(&format!("beacon signature = {sig}")), "{r}");
    }
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
    let read = ruleset.read(&state).expect("the state reads");
    for salt in 0..10_000u32 {
        let text = format!("1-ligne: hold\nsalt {salt}\n");
        let canonical = ruleset
            .check_orders(&read, "french", &text)
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
    hand_over(&mut s, START);
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
    hand_over(&mut s, START);
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

/// The bundled campaign with `drand` as its `[dice.drand]` table, loaded.
fn with_drand(drand: &str) -> Result<adjutant::campaign::Campaign, String> {
    let tmp = tempfile::tempdir().expect("dir");
    let folder = tmp.path().join("campaign");
    adjutant::demo::bundled_campaign(&folder).expect("writes");
    let toml = std::fs::read_to_string(folder.join("campaign.toml")).expect("toml");
    std::fs::write(
        folder.join("campaign.toml"),
        format!("{toml}\n[dice.drand]\n{drand}\n"),
    )
    .expect("write");
    adjutant::campaign::load(&folder).map_err(|p| p.to_string())
}

/// Issue 31, item 1: a network of the game master's own passed as a beacon.
/// `[dice.drand] info` took any network's /info, and with a network whose
/// key the game master holds, the game master could sign a round early and
/// grind a salt for the dice it wanted, while the opening mail said nobody
/// could know them. A network given by its /info that is not a known public
/// one is now refused at the check, unless the campaign says
/// `trusted = false`.
#[test]
fn a_network_that_is_not_a_known_public_one_is_refused_unless_the_campaign_says_untrusted() {
    let own = TestBeacon::from_seed([9; 32], START - 3_000, 3).expect("a network of one's own");
    let info = own.network().to_info_json();
    let refused = with_drand(&format!("info = '''{info}'''")).expect_err("refused");
    assert!(
        refused.contains("not a public network adjutant knows")
            && refused.contains(&own.network().chain_hash_hex())
            && refused.contains("trusted = false"),
        "{refused}"
    );
    let refused = with_drand(&format!("info = '''{info}'''\ntrusted = true")).expect_err("refused");
    assert!(refused.contains("not a public network"), "{refused}");
    let taken = with_drand(&format!("info = '''{info}'''\ntrusted = false"))
        .expect("taken when the campaign says so");
    let drand = taken.drand.expect("drand");
    assert_eq!(drand.known_network(), None);
    // quicknet, by name or by its own /info, is known.
    for table in [
        "network = \"quicknet\"".to_string(),
        format!("info = '''{}'''", adjutant::beacon::QUICKNET.to_info_json()),
    ] {
        let campaign = with_drand(&table).expect("quicknet is taken");
        assert_eq!(
            campaign.drand.expect("drand").known_network(),
            Some("quicknet")
        );
    }
    let refused = with_drand("network = \"mynet\"").expect_err("an unknown name");
    assert!(refused.contains("not a public drand network"), "{refused}");
}

/// Issue 31, item 1: with a network the campaign says is not to be trusted,
/// every mail that speaks of the beacon (the opening, each manifest, each
/// report) says the game master may control it, and `verify` warns.
#[test]
fn an_untrusted_network_is_named_so_in_every_mail_and_by_verify() {
    let mut s = setup();
    let network = s.server.network().clone();
    let chain = network.chain_hash_hex();
    let warning = "the game master may control it";
    let flat =
        |m: &adjutant::store::OutgoingMail| m.body.split_whitespace().collect::<Vec<_>>().join(" ");
    let openings: Vec<String> = s
        .store
        .queued_mail(ID)
        .expect("mail")
        .iter()
        .filter(|m| m.message_id.contains(".opening."))
        .map(flat)
        .collect();
    assert_eq!(openings.len(), 3);
    for o in &openings {
        assert!(o.contains(warning) && o.contains(&chain), "{o}");
        assert!(
            !o.contains("neither the game master nor any player can know"),
            "{o}"
        );
    }
    engine::submit(
        &mut s.store,
        ID,
        "french",
        "1-ligne: hold\n",
        &clock(START),
        None,
    )
    .expect("orders");
    engine::resolve_now(&mut s.store, ID, &clock(START)).expect("closes");
    hand_over(&mut s, START);
    let round = first_round_after(&network, START, 60);
    s.server.set_now_round(round);
    let published = round_time(&network, round).expect("a time");
    engine::tick(&mut s.store, ID, &clock(published + 1)).expect("resolves");
    let mail: Vec<adjutant::store::OutgoingMail> = s
        .store
        .outbox(Some(ID))
        .expect("outbox")
        .into_iter()
        .map(|e| e.mail)
        .collect();
    let manifests: Vec<String> = mail
        .iter()
        .filter(|m| m.message_id.contains("r1.manifest"))
        .map(flat)
        .collect();
    let reports: Vec<String> = mail
        .iter()
        .filter(|m| m.body.contains("== The dice can be checked =="))
        .map(flat)
        .collect();
    assert!(!manifests.is_empty() && !reports.is_empty());
    for m in manifests.iter().chain(&reports) {
        assert!(m.contains(warning), "{m}");
    }
    let archive = s.dir.join("archive");
    export::export(&s.store, ID, &archive).expect("export");
    let verdict = verify::verify(&archive).expect("readable");
    assert!(verdict.ok(), "it checks: {verdict:?}");
    assert!(
        verdict
            .warnings
            .iter()
            .any(|w| w.contains(&chain) && w.contains("not quicknet")),
        "{verdict:?}"
    );
}

/// Issue 31, item 1: a quicknet campaign's opening names the network and
/// where to compare its chain hash, and says nothing of a network the game
/// master controls.
#[test]
fn a_quicknet_campaign_s_opening_names_the_public_network() {
    let tmp = tempfile::tempdir().expect("dir");
    let folder = tmp.path().join("campaign");
    adjutant::demo::bundled_campaign(&folder).expect("writes");
    let toml = std::fs::read_to_string(folder.join("campaign.toml")).expect("toml");
    std::fs::write(
        folder.join("campaign.toml"),
        format!("{toml}\n[dice.drand]\nnetwork = \"quicknet\"\n"),
    )
    .expect("write");
    let campaign = adjutant::campaign::load(&folder).expect("loads");
    let mut store = Store::open(&tmp.path().join("data")).expect("store");
    engine::init(&mut store, &campaign, &folder, &clock(START)).expect("init");
    let opening = store
        .queued_mail(ID)
        .expect("mail")
        .into_iter()
        .find(|m| m.message_id.contains(".opening."))
        .expect("an opening");
    let text = opening
        .body
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.contains(&adjutant::beacon::QUICKNET.chain_hash_hex())
            && text.contains("drand's public quicknet")
            && text.contains("docs/AUDIT.md"),
        "{text}"
    );
    assert!(!text.contains("may control it"), "{text}");
}

/// Issue 31, item 3: "published after this turn's manifest was mailed" was
/// measured against when the manifest was queued. In one run the manifest
/// went out four seconds after its round was public, and the turn took the
/// round all the same. The outbox records when the mail server took each
/// manifest message; a round published before the last was taken is never
/// used, and the game master is told that only `without beacon` goes on.
#[test]
fn a_round_published_before_the_manifest_left_is_not_taken() {
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
    engine::resolve_now(&mut s.store, ID, &clock(START)).expect("closes");
    let round = first_round_after(&network, START, 60);
    let published = round_time(&network, round).expect("a time");
    s.server.set_now_round(round);
    // The round is public; the manifest still waits in the queue.
    let done = engine::tick(&mut s.store, ID, &clock(published + 1)).expect("waits");
    assert!(done.is_empty(), "not taken while the manifest has not left");
    // It leaves after the round's time: still not taken.
    hand_over(&mut s, published + 4);
    let done = engine::tick(&mut s.store, ID, &clock(published + 5)).expect("waits");
    assert!(
        done.is_empty(),
        "not taken: it was public before the manifest left"
    );
    let told: Vec<_> = s
        .store
        .outbox(Some(ID))
        .expect("mail")
        .into_iter()
        .map(|e| e.mail)
        .filter(|m| m.message_id.contains(".beacon-late."))
        .collect();
    assert_eq!(told.len(), 1, "the GM is told once");
    assert!(
        told[0].body.contains("without beacon")
            && told[0].body.contains("handed to the mail server"),
        "{}",
        told[0].body
    );
    let report = gm(&mut s.store, "without beacon", published + 6);
    assert!(report.done, "{report:?}");
    let resolved = s.store.resolutions(ID).expect("resolutions").remove(0);
    assert_eq!(
        resolved
            .result
            .expect("resolved")
            .beacon_signature
            .as_deref(),
        Some("waived")
    );
}

/// Issue 31, item 2: `without beacon` was taken at any moment after the
/// close: the game master waived in the very second the phase closed,
/// before the round existed (having ground a salt for the waived field),
/// and another time seconds after the round was public, able to compare the
/// two outcomes and keep one. A waiver is now taken only once the round's
/// time has come and the relay has been out of reach for ten minutes since,
/// and never while adjutant can have the round.
#[test]
fn without_beacon_is_refused_before_the_round_and_while_the_round_can_be_had() {
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
    engine::resolve_now(&mut s.store, ID, &clock(START)).expect("closes");
    hand_over(&mut s, START);
    let round = first_round_after(&network, START, 60);
    let published = round_time(&network, round).expect("a time");
    // The same second the phase closed: the round does not exist yet.
    let early = gm(&mut s.store, "without beacon", START);
    assert!(!early.done, "{early:?}");
    assert!(early.outcome.contains("is due at"), "{early:?}");
    // Seconds after the round is public: refused.
    s.server.set_now_round(round);
    let public = gm(&mut s.store, "without beacon", published + 7);
    assert!(!public.done, "{public:?}");
    assert!(public.outcome.contains("10 minutes"), "{public:?}");
    // Out of reach for ten minutes, then back: the round can be had, so it
    // is taken, never waived.
    s.server.set_behaviour(Behaviour::Unavailable);
    engine::tick(&mut s.store, ID, &clock(published + 11 * 60)).expect("waits");
    s.server.set_behaviour(Behaviour::Honest);
    let back = gm(&mut s.store, "without beacon", published + 12 * 60);
    assert!(!back.done, "{back:?}");
    assert!(back.outcome.contains("can be had now"), "{back:?}");
    let done = engine::tick(&mut s.store, ID, &clock(published + 12 * 60 + 1)).expect("resolves");
    assert_eq!(done.len(), 1);
    let resolved = s.store.resolutions(ID).expect("resolutions").remove(0);
    assert_ne!(
        resolved
            .result
            .expect("resolved")
            .beacon_signature
            .as_deref(),
        Some("waived")
    );
}

/// Issue 31, item 2: with the relay out of reach, the waiver waits for ten
/// minutes of failed tries after the round's time; the act records the
/// attempts and their times, and every report says when the waiver came
/// against the round's time.
#[test]
fn without_beacon_waits_for_ten_minutes_out_of_reach_and_the_act_and_reports_say_when() {
    let mut s = setup();
    let network = s.server.network().clone();
    s.server.set_behaviour(Behaviour::Unavailable);
    engine::resolve_now(&mut s.store, ID, &clock(START)).expect("closes");
    hand_over(&mut s, START);
    let round = first_round_after(&network, START, 60);
    let published = round_time(&network, round).expect("a time");
    engine::tick(&mut s.store, ID, &clock(published + 60)).expect("waits");
    let soon = gm(&mut s.store, "without beacon", published + 120);
    assert!(!soon.done, "two minutes out of reach is not ten: {soon:?}");
    assert!(soon.outcome.contains("10 minutes"), "{soon:?}");
    engine::tick(&mut s.store, ID, &clock(published + 11 * 60)).expect("waits");
    let waived = gm(&mut s.store, "without beacon", published + 12 * 60);
    assert!(waived.done, "{waived:?}");
    let archive = s.dir.join("archive");
    export::export(&s.store, ID, &archive).expect("export");
    let verdict = verify::verify(&archive).expect("readable");
    assert!(verdict.ok(), "{verdict:?}");
    let acts = std::fs::read_dir(archive.join("gm")).expect("gm").count();
    let act = std::fs::read_to_string(archive.join(format!("gm/{acts:04}/act.json"))).expect("act");
    let json: serde_json::Value = serde_json::from_str(&act).expect("json");
    let reason = json["reason"].as_str().expect("the act records why");
    let due = DateTime::<Utc>::from_timestamp(published, 0)
        .expect("a time")
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let last = DateTime::<Utc>::from_timestamp(published + 11 * 60, 0)
        .expect("a time")
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    assert!(
        reason.contains(&due) && reason.contains(&last) && reason.contains("12m after"),
        "{reason}"
    );
    let reports: Vec<String> = s
        .store
        .outbox(Some(ID))
        .expect("mail")
        .into_iter()
        .filter(|e| e.mail.body.contains("== The dice can be checked =="))
        .map(|e| e.mail.body.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert!(!reports.is_empty());
    for r in &reports {
        assert!(
            r.contains(&format!("12m after the round's time {due}")),
            "{r}"
        );
    }
}

/// A drand campaign's archive with turn 1 resolved by its round and umpire
/// call 1 made while the turn waited for it.
fn archive_with_a_call_made_while_a_turn_waits(s: &mut Setup) -> std::path::PathBuf {
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
    let done = engine::resolve_now(&mut s.store, ID, &clock(START)).expect("closes");
    assert!(done.is_empty(), "nothing can be resolved before the round");
    hand_over(s, START + 2);
    let round = first_round_after(&network, START, 60);
    let published = round_time(&network, round).expect("a time");

    // The round is not out yet: the call is made while turn 1 waits.
    let (k, _) = engine::umpire(
        &mut s.store,
        ID,
        "shoot 8 line-infantry grade C range 2",
        &clock(START + 10),
    )
    .expect("the call is made while the turn waits");
    assert_eq!(k, 1);
    assert_eq!(s.store.pending_resolutions(ID).expect("pending").len(), 1);

    s.server.set_now_round(round);
    let done = engine::tick(&mut s.store, ID, &clock(published + 1)).expect("resolves");
    assert_eq!(done.len(), 1);

    let archive = s.dir.join("archive");
    export::export(&s.store, ID, &archive).expect("the archive exports");
    archive
}

/// Regression: an umpire call made while a closed turn waits for its round
/// was sealed with an `after_turn` that counted the waiting turn, so the
/// export found the link no longer made by its files and refused the
/// archive as damaged. A call counts only the turns resolved before it, as
/// a game master's act does (docs/AUDIT.md, section 7).
#[test]
fn an_umpire_call_made_while_a_turn_waits_for_its_round_counts_only_resolved_turns() {
    let mut s = setup();
    let archive = archive_with_a_call_made_while_a_turn_waits(&mut s);
    let verdict = verify::verify(&archive).expect("readable");
    assert!(verdict.ok(), "{verdict:?}");
    let call = std::fs::read_to_string(archive.join("calls/0001/resolution.json"))
        .expect("the call's resolution.json");
    let call: serde_json::Value = serde_json::from_str(&call).expect("json");
    assert_eq!(call["after_turn"], 0, "{call}");
}

/// AUDIT.md section 11.6: umpire calls take no round, and a call's seed
/// has 32 zero bytes for the beacon. A `beacon` in a call's
/// resolution.json is refused, not mixed into its seed.
#[test]
fn verify_refuses_a_drand_round_in_an_umpire_call() {
    let mut s = setup();
    let archive = archive_with_a_call_made_while_a_turn_waits(&mut s);
    let turn: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(archive.join("turns/0001/resolution.json")).expect("read"),
    )
    .expect("json");
    let path = archive.join("calls/0001/resolution.json");
    let mut call: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
    call["beacon"] = turn["beacon"].clone();
    std::fs::write(&path, serde_json::to_string_pretty(&call).expect("json")).expect("write");
    let verdict = verify::verify(&archive).expect("readable");
    let problems = &verdict
        .resolutions
        .iter()
        .find(|r| r.kind == Kind::Umpire)
        .expect("the call's verdict")
        .problems;
    assert!(
        problems
            .iter()
            .any(|p| p.contains("an umpire call takes no drand round")),
        "{problems:?}"
    );
}

/// AUDIT.md sections 7 and 11.6: a campaign has a beacon text or a drand
/// network, never both; `genesis.txt` names only the network, so a text
/// added beside it would otherwise go unnoticed.
#[test]
fn verify_refuses_a_campaign_with_both_a_beacon_text_and_drand() {
    let mut s = setup();
    let archive = archive_with_a_call_made_while_a_turn_waits(&mut s);
    let path = archive.join("campaign.json");
    let mut head: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
    head["beacon"] = "The Times, 5 January 2026, first headline".into();
    std::fs::write(&path, serde_json::to_string_pretty(&head).expect("json")).expect("write");
    let verdict = verify::verify(&archive).expect("readable");
    assert!(
        verdict
            .problems
            .iter()
            .any(|p| p.contains("both a beacon text and a drand network")),
        "{verdict:?}"
    );
}
