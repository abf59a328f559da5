//! The ingest path per message (parse, authenticate, validate, store, queue
//! the reply) against mail-parser's bare parse of the same messages.
//!
//!     cargo bench --bench ingest
//!
//! The passphrase check is argon2 by design, and argon2 is meant to be slow:
//! at the campaign default (m=19456 KiB, t=2) it costs milliseconds and
//! dwarfs everything else. So the path is measured twice: with the default
//! cost, and with the cheapest argon2 parameters (m=8 KiB, t=1), which show
//! what the rest of the path costs. The store is on /dev/shm where there is
//! one, so that the figures are CPU rather than the disk's fsync; one more
//! group puts it on disk, where each commit waits for the disk.
//! docs/PERFORMANCE.md has the figures.

use std::hint::black_box;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use argon2::password_hash::PasswordHasher;
use argon2::{Algorithm, Argon2, Params, Version};
use chrono::{DateTime, Utc};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

use adjutant::ingest::{IngestConfig, Outcome, ingest};
use adjutant::lifecycle::FixedClock;
use adjutant::store::Store;

const ID: &str = "sound-the-charge-demo";
const DEFAULT_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$LvrDofjkF7LkLSWbAtCYrQ$at6QiSzxBn887hHdwRwlmNzKeRqP0QK+7gTUb+xKJxo";

fn clock() -> FixedClock {
    FixedClock(
        DateTime::parse_from_rfc3339("2026-01-05T10:00:00Z")
            .expect("valid")
            .with_timezone(&Utc),
    )
}

/// argon2id with its smallest parameters: for measuring the rest of the
/// path only, never for a campaign.
fn cheap_hash(passphrase: &str) -> String {
    let params = Params::new(8, 1, 1, None).expect("params");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password_with_salt(passphrase.as_bytes(), b"benchsaltbenchsa")
        .expect("hash")
        .to_string()
}

/// A store in `root` holding the bundled campaign, with the French player's
/// passphrase hashed as `hash`.
fn setup(root: &Path, hash: &str) -> Store {
    setup_with(root, hash, false)
}

/// The same, the French player also required to sign with DKIM if `dkim`.
fn setup_with(root: &Path, hash: &str, dkim: bool) -> Store {
    let folder = root.join("campaign");
    adjutant::demo::bundled_campaign(&folder).expect("writes");
    let path = folder.join("campaign.toml");
    let mut text = std::fs::read_to_string(&path)
        .expect("read")
        .replace(DEFAULT_HASH, hash);
    if dkim {
        text = text.replacen(
            "side = \"french\"\n",
            "side = \"french\"\nrequire_dkim = true\n",
            1,
        );
    }
    std::fs::write(&path, text).expect("write");
    let campaign = adjutant::campaign::load(&folder).expect("loads");
    let mut store = Store::open(&root.join("data")).expect("store");
    adjutant::engine::init(&mut store, &campaign, &folder, &clock()).expect("init");
    store
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A realistic order message, about 850 bytes, different each time (its
/// Message-ID and salt line), so that none is taken for a duplicate.
fn message() -> Vec<u8> {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!(
        "Return-Path: <lannes@french.invalid>\r\n\
Received: from mail.french.invalid (mail.french.invalid [192.0.2.7])\r\n\
\tby mx.example.org with ESMTPS id 4Xyz{n}; Mon, 05 Jan 2026 09:58:12 +0100\r\n\
From: Jean Lannes <lannes@french.invalid>\r\n\
To: The Umpire <umpire@example.org>\r\n\
Subject: Re: [sound-the-charge-demo] orders for turn 1\r\n\
Date: Mon, 05 Jan 2026 09:58:10 +0100\r\n\
Message-ID: <orders-{n}@french.invalid>\r\n\
MIME-Version: 1.0\r\n\
Content-Type: text/plain; charset=utf-8\r\n\
Content-Transfer-Encoding: 8bit\r\n\
\r\n\
passphrase: vive-l-empereur\r\n\
\r\n\
1-ligne: hold\r\n\
2-ligne: hold\r\n\
salt {n}\r\n\
\r\n\
Vive l'Empereur !\r\n\
-- \r\n\
Jean Lannes, duc de Montebello\r\n\
\r\n\
> Your orders for turn 1 orders (french active) are accepted.\r\n\
> Deadline: Wednesday 7 January 2026, 20:00 CET.\r\n"
    )
    .into_bytes()
}

const TEST_KEY: &str = "302e020100300506032b657004220420fcce18c963171b37e2d7f841e97cd8c31e5fe00b8b7aeaa09a49da3abc4b6fb7";
const TEST_PUBLIC: &str = "BM2zWoR5pYJm4B9RS/9RZYyULZVCpoElPq2WC2zceF4=";

/// `raw` signed by french.invalid.
fn signed(raw: &[u8]) -> Vec<u8> {
    use mail_auth::common::headers::HeaderWriter;
    let key =
        mail_auth::common::crypto::Ed25519Key::from_pkcs8_der(&hex::decode(TEST_KEY).expect("hex"))
            .expect("key");
    let signature = mail_auth::dkim::DkimSigner::from_key(key)
        .domain("french.invalid")
        .selector("s1")
        .headers(["From", "To", "Subject", "Message-ID", "Date"])
        .sign(raw)
        .expect("signs");
    let mut out = signature.to_header().into_bytes();
    out.extend_from_slice(raw);
    out
}

/// Every message pays for its passphrase check: nothing is remembered
/// from one message to the next (the rows with "remembered" say otherwise).
/// Every message is acknowledged: the bench sends thousands from one
/// address, far past the hourly ration a host keeps.
fn config() -> IngestConfig {
    IngestConfig {
        own_addresses: vec!["adjutant@example.org".into()],
        remembered: std::sync::Arc::new(adjutant::campaign::passphrase::Remembered::nothing()),
        limits: adjutant::mail::Limits {
            max_acknowledgements_per_hour: usize::MAX,
            ..adjutant::mail::Limits::default()
        },
        ..IngestConfig::default()
    }
}

fn tmpfs() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        tempfile::tempdir_in(shm).expect("tmpfs dir")
    } else {
        tempfile::tempdir().expect("dir")
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("ingest");
    group.bench_function("mail-parser bare parse", |b| {
        b.iter_batched(
            message,
            |raw| {
                black_box(mail_parser::MessageParser::default().parse(&raw));
            },
            BatchSize::SmallInput,
        )
    });
    let config = config();
    let runs = [
        (
            "whole path, cheap argon2, tmpfs",
            cheap_hash("vive-l-empereur"),
            tmpfs(),
        ),
        (
            "whole path, default argon2, tmpfs",
            DEFAULT_HASH.to_string(),
            tmpfs(),
        ),
        (
            "whole path, cheap argon2, disk",
            cheap_hash("vive-l-empereur"),
            tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("dir"),
        ),
    ];
    for (name, hash, dir) in &runs {
        let mut store = setup(dir.path(), hash);
        // The first message shows that the path is the one measured: orders
        // accepted and a reply queued.
        let first = ingest(&mut store, &message(), "bench", &config, &clock()).expect("ingest");
        assert!(matches!(first, Outcome::Accepted { .. }), "{first:?}");
        group.bench_function(*name, |b| {
            b.iter_batched(
                message,
                |raw| {
                    black_box(
                        ingest(&mut store, &raw, "bench", &config, &clock()).expect("ingest"),
                    );
                },
                BatchSize::SmallInput,
            )
        });
    }
    // The usual case of a running campaign: the player's passphrase was
    // found right by an earlier message, and is remembered.
    {
        let dir = tmpfs();
        let mut store = setup(dir.path(), DEFAULT_HASH);
        let config = IngestConfig {
            remembered: std::sync::Arc::default(),
            ..self::config()
        };
        let first = ingest(&mut store, &message(), "bench", &config, &clock()).expect("ingest");
        assert!(matches!(first, Outcome::Accepted { .. }), "{first:?}");
        group.bench_function("whole path, default argon2 remembered, tmpfs", |b| {
            b.iter_batched(
                message,
                |raw| {
                    black_box(
                        ingest(&mut store, &raw, "bench", &config, &clock()).expect("ingest"),
                    );
                },
                BatchSize::SmallInput,
            )
        });
    }
    // DKIM on top: an Ed25519 signature (the test key of
    // tests/ingest_gm_dkim.rs), its key handed over as a table.
    {
        let dir = tmpfs();
        let mut store = setup_with(dir.path(), &cheap_hash("vive-l-empereur"), true);
        let config = IngestConfig {
            dkim_keys: std::sync::Arc::new(adjutant::mail::dkim::StaticKeys::new().with(
                "s1",
                "french.invalid",
                &format!("v=DKIM1; k=ed25519; p={TEST_PUBLIC}"),
            )),
            ..self::config()
        };
        let first =
            ingest(&mut store, &signed(&message()), "bench", &config, &clock()).expect("ingest");
        assert!(matches!(first, Outcome::Accepted { .. }), "{first:?}");
        group.bench_function("whole path, cheap argon2, DKIM-signed, tmpfs", |b| {
            b.iter_batched(
                || signed(&message()),
                |raw| {
                    black_box(
                        ingest(&mut store, &raw, "bench", &config, &clock()).expect("ingest"),
                    );
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.bench_function("argon2 verify alone, default cost", |b| {
        b.iter(|| adjutant::campaign::passphrase::verify("vive-l-empereur", DEFAULT_HASH))
    });
    group.finish();

    // Where the time of the whole path goes: its larger steps, one by one,
    // on the same campaign (tmpfs, cheap argon2).
    let dir = tmpfs();
    let mut store = setup(dir.path(), &cheap_hash("vive-l-empereur"));
    let record = store.campaign(ID).expect("campaign");
    let mut group = c.benchmark_group("ingest steps");
    group.bench_function("adjutant's parse and order lines", |b| {
        b.iter_batched(
            message,
            |raw| {
                let m = adjutant::mail::parse(&raw, &adjutant::mail::Limits::default())
                    .expect("parses");
                black_box(adjutant::mail::order_text(&m.body));
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("load the campaign record", |b| {
        b.iter(|| black_box(store.campaign(ID).expect("campaign")))
    });
    group.bench_function("load the game state", |b| {
        b.iter(|| black_box(store.state(&record.current_state_digest).expect("state")))
    });
    group.bench_function("load templates and render the reply", |b| {
        b.iter(|| {
            let t = adjutant::templates::Templates::for_campaign(&record.source_dir)
                .expect("templates");
            black_box(t.render(
                "refused.txt",
                serde_json::json!({"reason": "x", "hint": null}),
            ))
        })
    });
    group.bench_function("check and store the orders (engine::submit)", |b| {
        b.iter(|| {
            black_box(
                adjutant::engine::submit(
                    &mut store,
                    ID,
                    "french",
                    "1-ligne: hold\n2-ligne: hold\n",
                    &clock(),
                    None,
                )
                .expect("submits"),
            )
        })
    });
    // The acknowledgement's picture: the orders drawn on the field as the
    // side sees it (the demo's first turn stands in for the planned moves).
    let turn = adjutant::report::sample::demo_turn().expect("the demo turn");
    let ruleset = adjutant::rules::ruleset_for(&turn.prior.ruleset).expect("ruleset");
    let (prior, next) = turn.readings().expect("the states read");
    let input = adjutant::map::MapInput {
        title: "your orders as they will be tried",
        ruleset,
        prior: &prior,
        next: &next,
        events: &turn.events,
        visible: None,
        strengths: adjutant::map::Strengths::Seen,
    };
    group.bench_function("the acknowledgement's map, SVG", |b| {
        b.iter(|| black_box(adjutant::map::glance_svg(&input)))
    });
    let svg = adjutant::map::glance_svg(&input);
    group.bench_function("the acknowledgement's map, PNG 800 px wide", |b| {
        b.iter(|| black_box(adjutant::map::png_at_most(&svg, 800).expect("draws")))
    });
    let full = adjutant::map::svg(&input);
    group.bench_function("the same with the inch grid, PNG 800 px wide", |b| {
        b.iter(|| black_box(adjutant::map::png_at_most(&full, 800).expect("draws")))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
