//! Maps and reports of a turn of two sides with 500 units each: what one
//! resolution's mail costs to make (each side's report and the GM's, each
//! with its visibility, despatch, SVG and PNG). docs/PERFORMANCE.md holds
//! the figure and the command.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use criterion::{Criterion, criterion_group, criterion_main};

use adjutant::report::{self, Audience, ReportInput, sample};
use adjutant::templates::Templates;

fn reports(c: &mut Criterion) {
    let campaign = sample::demo_campaign().expect("the demo campaign loads");
    let turn = sample::large_turn(&campaign, 500).expect("the large turn");
    let orders = BTreeMap::new();
    let ruleset = adjutant::rules::ruleset_for(&turn.prior.ruleset).expect("known");
    let input = ReportInput {
        campaign: &turn.campaign,
        ruleset,
        k: 1,
        phase: "turn 1 orders (french active)",
        prior: &turn.prior,
        next: &turn.next,
        events: &turn.events,
        rolls: &turn.rolls,
        orders: &orders,
        manifest_digest: "ab".repeat(32),
        audit: sample::footer(),
        chronicle: Default::default(),
        deadline: DateTime::parse_from_rfc3339("2026-11-25T19:00:00Z")
            .ok()
            .map(|d| d.with_timezone(&Utc)),
    };
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
                let prepared = report::prepare_all(&input, audiences).expect("prepares");
                for (p, person) in prepared.iter().zip(people) {
                    report::render(&input, p, person.into(), &templates).expect("renders");
                }
            })
        },
    );
    group.bench_function("2x500 units: the GM's map SVG alone", |b| {
        b.iter(|| {
            adjutant::map::svg(&adjutant::map::MapInput {
                title: "bench",
                ruleset,
                prior: &turn.prior,
                next: &turn.next,
                events: &turn.events,
                visible: None,
                strengths: adjutant::map::Strengths::Seen,
            })
        })
    });
    group.finish();
}

criterion_group!(benches, reports);
criterion_main!(benches);
