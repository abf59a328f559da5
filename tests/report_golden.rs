//! Golden files for the reports: a fixed turn in, each audience's text and
//! HTML report and map SVG out, byte for byte; the map PNG compared by its
//! decoded pixels. On a mismatch the output is written next to the golden
//! file as `NAME.failed`; `ADJUTANT_BLESS=1` rewrites the golden files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use adjutant::report::sample::{self, SampleTurn};
use adjutant::report::{self, Audience, ReportInput};
use adjutant::rules::reading::Reading;
use adjutant::rules::ruleset_for;
use adjutant::templates::Templates;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report")
}

fn bless() -> bool {
    std::env::var_os("ADJUTANT_BLESS").is_some()
}

fn failed_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".failed");
    path.with_file_name(name)
}

/// Compares `actual` with the golden file `name`; on a mismatch writes
/// `name.failed` and returns a description of the failure.
fn check_bytes(name: &str, actual: &[u8]) -> Option<String> {
    let path = golden_dir().join(name);
    if bless() {
        std::fs::create_dir_all(golden_dir()).expect("golden dir");
        std::fs::write(&path, actual).expect("write golden");
        return None;
    }
    let expected = std::fs::read(&path).unwrap_or_default();
    let failed = failed_path(&path);
    if expected == actual {
        let _ = std::fs::remove_file(&failed);
        return None;
    }
    std::fs::write(&failed, actual).expect("write .failed");
    Some(format!(
        "{name} differs from its golden file; see {}",
        failed.display()
    ))
}

fn input_of<'a>(
    turn: &'a SampleTurn,
    read: &'a (Reading<'a>, Reading<'a>),
    orders: &'a BTreeMap<String, String>,
) -> ReportInput<'a> {
    ReportInput {
        campaign: &turn.campaign,
        ruleset: ruleset_for(&turn.prior.ruleset).expect("known ruleset"),
        k: 1,
        phase: "turn 1 orders (french active)",
        prior: &read.0,
        next: &read.1,
        events: &turn.events,
        rolls: &turn.rolls,
        orders,
        manifest_digest: "ab".repeat(32),
        audit: sample::footer(),
        chronicle: Default::default(),
        deadline: DateTime::parse_from_rfc3339("2026-11-25T19:00:00Z")
            .ok()
            .map(|d| d.with_timezone(&Utc)),
    }
}

/// The PNG may differ from the golden one by the rasteriser's rounding, not
/// by anything a player would see. tiny-skia picks a SIMD or a scalar
/// pipeline by the CPU, and the two round anti-aliased edges and glyph
/// coverage differently by a few levels of 255; nothing else in the picture
/// depends on the machine (the font is compiled in, the SVG is byte-exact).
/// So a channel may differ by up to 24 levels (a tenth of the range, less
/// than between any two colours the map uses), and at most 5 pixels in
/// 10,000 may differ by more: room for stray edge pixels, while a unit
/// drawn, moved or left out changes several hundred pixels (a 3" line of
/// infantry alone covers about 45 by 8 pixels plus its label).
const CHANNEL_TOLERANCE: i32 = 24;
const OUTLIERS_PER_10000: usize = 5;

fn check_png(name: &str, actual: &[u8]) -> Option<String> {
    use resvg::tiny_skia::Pixmap;
    let path = golden_dir().join(name);
    if bless() {
        std::fs::write(&path, actual).expect("write golden");
        return None;
    }
    let failed = failed_path(&path);
    let fail = |why: String| {
        std::fs::write(&failed, actual).expect("write .failed");
        Some(format!("{name}: {why}; see {}", failed.display()))
    };
    let Ok(expected) = Pixmap::load_png(&path) else {
        return fail("no golden PNG".to_string());
    };
    let Ok(got) = Pixmap::decode_png(actual) else {
        return fail("the PNG does not decode".to_string());
    };
    if (got.width(), got.height()) != (expected.width(), expected.height()) {
        return fail(format!(
            "{}x{} pixels, the golden file has {}x{}",
            got.width(),
            got.height(),
            expected.width(),
            expected.height()
        ));
    }
    let outliers = got
        .data()
        .chunks(4)
        .zip(expected.data().chunks(4))
        .filter(|(a, b)| {
            a.iter()
                .zip(b.iter())
                .any(|(x, y)| (i32::from(*x) - i32::from(*y)).abs() > CHANNEL_TOLERANCE)
        })
        .count();
    let pixels = (got.width() * got.height()) as usize;
    if outliers * 10_000 > pixels * OUTLIERS_PER_10000 {
        return fail(format!(
            "{outliers} of {pixels} pixels differ by more than {CHANNEL_TOLERANCE} levels"
        ));
    }
    let _ = std::fs::remove_file(&failed);
    None
}

#[test]
fn reports_and_maps_match_their_golden_files() {
    let turn = sample::demo_turn().expect("the demo campaign loads");
    let orders = BTreeMap::from([(
        "french".to_string(),
        "1-ligne: hold\n12-dragons: hold\n".to_string(),
    )]);
    let read = turn.readings().expect("the states read");
    let input = input_of(&turn, &read, &orders);
    let templates = Templates::embedded().expect("templates");
    let mut failures = Vec::new();
    for (name, audience, person) in [
        (
            "french",
            Audience::Side("french".to_string()),
            &turn.campaign.players[0].person,
        ),
        (
            "austrian",
            Audience::Side("austrian".to_string()),
            &turn.campaign.players[1].person,
        ),
        ("gm", Audience::Gm, &turn.campaign.gm),
    ] {
        let prepared = report::prepare(&input, audience).expect("prepares");
        let r = report::render(&input, &prepared, person.into(), &templates).expect("renders");
        failures.extend(check_bytes(&format!("{name}.txt"), r.text.as_bytes()));
        failures.extend(check_bytes(&format!("{name}.html"), r.html.as_bytes()));
        failures.extend(check_bytes(&format!("{name}.svg"), prepared.svg.as_bytes()));
        if name == "gm" {
            failures.extend(check_png("gm.png", &prepared.png));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The tolerance is not so loose that a different map passes: the GM's map
/// without the hidden Jäger fails against the GM's golden PNG.
#[test]
fn the_png_check_tells_a_different_map() {
    let turn = sample::demo_turn().expect("the demo campaign loads");
    if bless() {
        return;
    }
    let orders = BTreeMap::new();
    let mut fewer = turn.clone();
    fewer.next.units.retain(|u| u.id != "jaeger");
    fewer.prior.units.retain(|u| u.id != "jaeger");
    fewer
        .events
        .retain(|e| !e.units.iter().any(|u| u == "jaeger"));
    let read_fewer = fewer.readings().expect("the states read");
    let input_fewer = input_of(&fewer, &read_fewer, &orders);
    let gm = report::prepare(&input_fewer, Audience::Gm).expect("prepares");
    let verdict = check_png("gm.png", &gm.png);
    let _ = std::fs::remove_file(failed_path(&golden_dir().join("gm.png")));
    assert!(verdict.is_some(), "the French map passed as the GM's");
}
