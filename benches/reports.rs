//! Maps and reports of a turn of two sides with 500 units each: what one
//! resolution's mail costs to make (each side's report and the GM's, each
//! with its visibility, despatch, SVG and PNG). docs/PERFORMANCE.md holds
//! the figure and the command.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use criterion::{Criterion, criterion_group, criterion_main};

use adjutant::report::{self, Audience, ReportInput, sample};
use adjutant::rules::reading::Reading;
use adjutant::templates::Templates;

fn reports(c: &mut Criterion) {
    let campaign = sample::demo_campaign().expect("the demo campaign loads");
    let turn = sample::large_turn(&campaign, 500).expect("the large turn");
    let orders = BTreeMap::new();
    let ruleset = adjutant::rules::ruleset_for(&turn.prior.ruleset).expect("known");
    // The reports of a resolution are made from its stored states: each is
    // read into the ruleset's types once, as the engine reads them, and
    // that reading is counted in the reports' time.
    let templates = Templates::embedded().expect("templates");
    let mut group = c.benchmark_group("reports");
    group.sample_size(10);
    group.bench_function(
        "2x500 units: both sides' and the GM's reports and maps",
        |b| {
            b.iter(|| {
                let audiences = vec![
                    Audience::Side("french".into()),
                    Audience::Side("austrian".into()),
                    Audience::Gm,
                ];
                let people = [
                    &campaign.players[0].person,
                    &campaign.players[1].person,
                    &campaign.gm,
                ];
                let (prior, next) = turn.readings().expect("the states read");
                let input = input_of(&turn, &orders, &prior, &next);
                let prepared = report::prepare_all(&input, audiences).expect("prepares");
                for (p, person) in prepared.iter().zip(people) {
                    report::render(&input, p, person.into(), &templates).expect("renders");
                }
            })
        },
    );
    // The map alone is drawn from states already read: the reading is the
    // report's, once for every audience.
    let (prior, next) = turn.readings().expect("the states read");
    group.bench_function("2x500 units: the GM's map SVG alone", |b| {
        b.iter(|| {
            adjutant::map::svg(&adjutant::map::MapInput {
                title: "bench",
                ruleset,
                prior: &prior,
                next: &next,
                events: &turn.events,
                visible: None,
                strengths: adjutant::map::Strengths::Seen,
            })
        })
    });
    group.finish();
}

/// The bench turn's report input, its states read as `prior` and `next`.
fn input_of<'a>(
    turn: &'a sample::SampleTurn,
    orders: &'a BTreeMap<String, String>,
    prior: &'a Reading<'a>,
    next: &'a Reading<'a>,
) -> ReportInput<'a> {
    ReportInput {
        campaign: &turn.campaign,
        ruleset: adjutant::rules::ruleset_for(&turn.prior.ruleset).expect("known"),
        k: 1,
        phase: "turn 1 orders (french active)",
        prior,
        next,
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

criterion_group!(benches, reports);
criterion_main!(benches);
