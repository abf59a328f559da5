//! Writes the reports of the demo campaign's sample turn as HTML pages a
//! browser can open on its own: the inline map (`cid:`) is pointed at the
//! PNG beside the page. `tests/browser/report_in_chromium.sh` looks at them.
//!
//!     cargo run --example report_preview -- out/report-preview

use std::collections::BTreeMap;
use std::path::PathBuf;

use adjutant::report::{self, Audience, ReportInput, sample};
use adjutant::templates::Templates;
use chrono::{DateTime, Utc};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "out/report-preview".to_string()),
    );
    std::fs::create_dir_all(&out)?;
    let turn = sample::demo_turn()?;
    let orders = BTreeMap::from([(
        "french".to_string(),
        "1-ligne: hold\n12-dragons: hold\n".to_string(),
    )]);
    let ruleset = adjutant::rules::ruleset_for(&turn.prior.ruleset).ok_or("unknown ruleset")?;
    let (prior, next) = turn.readings()?;
    let input = ReportInput {
        campaign: &turn.campaign,
        ruleset,
        k: 1,
        phase: "turn 1 orders (french active)",
        prior: &prior,
        next: &next,
        events: &turn.events,
        rolls: &turn.rolls,
        orders: &orders,
        manifest_digest: "ab".repeat(32),
        audit: adjutant::report::sample::footer(),
        chronicle: Default::default(),
        deadline: Some(DateTime::parse_from_rfc3339("2026-11-25T19:00:00Z")?.with_timezone(&Utc)),
    };
    let templates = Templates::embedded()?;
    for (name, audience, person) in [
        (
            "french",
            Audience::Side("french".into()),
            &turn.campaign.players[0].person,
        ),
        (
            "austrian",
            Audience::Side("austrian".into()),
            &turn.campaign.players[1].person,
        ),
        ("gm", Audience::Gm, &turn.campaign.gm),
    ] {
        let prepared = report::prepare(&input, audience)?;
        let r = report::render(&input, &prepared, person.into(), &templates)?;
        let mut html = r.html.clone();
        for part in &r.parts {
            if let Some(cid) = &part.content_id {
                html = html.replace(&format!("cid:{cid}"), &part.filename);
            }
            std::fs::write(out.join(&part.filename), &part.bytes)?;
        }
        std::fs::write(out.join(format!("{name}.html")), html)?;
        std::fs::write(out.join(format!("{name}.txt")), &r.text)?;
        println!("{}", out.join(format!("{name}.html")).display());
    }
    Ok(())
}
