use super::*;
use crate::report::sample::{self, SampleTurn};
use crate::rules::ruleset_for;

/// The report's input for `turn`, its states read as `read`
/// (`SampleTurn::readings`).
pub(crate) fn input_of<'a>(
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

fn orders() -> BTreeMap<String, String> {
    BTreeMap::from([(
        "french".to_string(),
        "1-ligne: hold\n12-dragons: hold\n".to_string(),
    )])
}

/// The text with its line breaks and runs of spaces made single spaces, so
/// that a sentence is found however the paragraph was wrapped.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn report_for(audience: Audience) -> (SampleTurn, Report, Prepared) {
    let turn = sample::demo_turn().expect("the demo campaign loads");
    let (report, prepared) = report_of(&turn, audience);
    (turn, report, prepared)
}

/// The report of `turn` for `audience`, as the first player receives it.
fn report_of(turn: &SampleTurn, audience: Audience) -> (Report, Prepared) {
    let orders = orders();
    let read = turn.readings().expect("the states read");
    let input = input_of(turn, &read, &orders);
    let prepared = prepare(&input, audience).expect("prepares");
    let person = turn.campaign.players[0].person.clone();
    let templates = Templates::embedded().expect("templates");
    let report = render(&input, &prepared, (&person).into(), &templates).expect("renders");
    (report, prepared)
}

/// A side's report never names a unit hidden from it: not in the text, the
/// HTML, the map, nor the dice.
#[test]
fn a_side_never_reads_of_a_unit_it_cannot_see() {
    let (turn, report, prepared) = report_for(Audience::Side("french".to_string()));
    let jaeger = turn.next.unit("jaeger").expect("in the sample");
    for (what, text) in [
        ("text", report.text.as_str()),
        ("html", report.html.as_str()),
        ("svg", prepared.svg.as_str()),
    ] {
        assert!(
            !text.contains("jaeger"),
            "the {what} names the hidden Jäger"
        );
        assert!(
            !text.contains(&jaeger.name),
            "the {what} names the hidden Jäger"
        );
        assert!(!text.contains("Jäger"), "the {what} names the hidden Jäger");
    }
    assert!(
        report
            .text
            .contains("1 more roll concerns troops out of your sight")
    );
    // What is in sight is told.
    assert!(report.text.contains("IR 49 Kerpen"));
    assert!(report.text.contains("Warasdiner Grenzer"));
}

/// Defect 9: unattached enemy generals were named in a side's report when
/// every unit of theirs was in sight, though REP-1 says only the GM sees
/// them. One attached to a unit in sight is seen with it; one's own
/// generals are always named.
#[test]
fn a_side_never_reads_of_an_unattached_enemy_general() {
    let mut turn = sample::demo_turn().expect("the demo campaign loads");
    // The Jäger come out of the wood: every Austrian unit is in sight.
    for state in [&mut turn.prior, &mut turn.next] {
        state
            .terrain
            .retain(|t| t.kind != "heavy-woods" && t.kind != "light-woods");
    }
    let (report, prepared) = report_of(&turn, Audience::Side("french".to_string()));
    for (what, text) in [
        ("text", report.text.as_str()),
        ("html", report.html.as_str()),
        ("svg", prepared.svg.as_str()),
    ] {
        for hidden in ["Hohenzollern", "Liechtenstein", "liechtenstein"] {
            assert!(!text.contains(hidden), "the {what} names {hidden}");
        }
    }
    assert!(
        report.text.contains("FML Vukassovich"),
        "attached to IR 4, in sight"
    );
    assert!(report.text.contains("Marshal Lannes"), "one's own general");
}

#[test]
fn the_gm_reads_of_everything() {
    let (_, report, prepared) = report_for(Audience::Gm);
    assert!(flat(&report.text).contains("2. Jäger-Bataillon moved 1-1/2 inches west."));
    assert!(report.html.contains("2. Jäger-Bataillon"));
    assert!(prepared.svg.contains(">jaeger "));
    assert!(
        report
            .text
            .contains("#8 d6 = 3  move: jaeger through heavy woods")
    );
    assert!(!report.text.contains("out of your sight"));
}

#[test]
fn the_despatch_is_told_by_sector() {
    let (_, report, _) = report_for(Audience::Side("french".to_string()));
    let text = &flat(&report.text);
    let at = |s: &str| {
        text.find(s)
            .unwrap_or_else(|| panic!("no `{s}` in\n{text}"))
    };
    assert!(at("Across the field:") < at("On the western flank:"));
    assert!(at("On the western flank:") < at("In the centre:"));
    assert!(text.contains("1er Régiment de Ligne and 12e Dragons stood fast."));
    assert!(text.contains("2e Régiment de Ligne advanced 4 inches north."));
}

/// A consequence is told with its cause: a unit in the centre disordered
/// by fire from the western flank is told of on the western flank, right
/// after the fire, not in a paragraph of its own.
#[test]
fn a_consequence_is_told_in_the_sector_of_its_cause() {
    let mut turn = sample::demo_turn().expect("loads");
    let event = |kind: &str, units: &[&str], text: &str| Event {
        kind: kind.to_string(),
        units: units.iter().map(|u| u.to_string()).collect(),
        path: Vec::new(),
        shows: None,
        text: text.to_string(),
    };
    turn.events.push(event(
        "shooting",
        &["12-dragons", "9-legere"],
        "The 12e Dragons fire at the 9e Légère.",
    ));
    turn.events
        .push(event("shaken", &["9-legere"], "The 9e Légère is shaken."));
    let (report, _) = report_of(&turn, Audience::Side("french".to_string()));
    let text = flat(&report.text);
    let west = text.find("On the western flank:").expect("a western flank");
    let centre = text.find("In the centre:").unwrap_or(text.len());
    let told = text
        .find("The 12e Dragons fire at the 9e Légère. The 9e Légère is shaken.")
        .unwrap_or_else(|| panic!("the two are not told together:\n{text}"));
    assert!(west < told && (told < centre || centre < west), "{text}");
}

#[test]
fn an_action_against_hidden_troops_names_only_ones_own() {
    let mut turn = sample::demo_turn().expect("loads");
    turn.events.push(Event {
        kind: "combat".to_string(),
        units: vec!["12-dragons".to_string(), "jaeger".to_string()],
        path: Vec::new(),
        shows: None,
        text: "12e Dragons fight the 2. Jäger-Bataillon.".to_string(),
    });
    // A combat reveals both sides to each other; a shooting from a hidden
    // unit reveals the firer; only an event of another kind keeps it hidden.
    turn.events.last_mut().expect("pushed").kind = "ambush".to_string();
    let (report, _) = report_of(&turn, Audience::Side("french".to_string()));
    assert!(flat(&report.text).contains("12e Dragons was in action against troops out of sight."));
    assert!(!report.text.contains("Jäger"));
}

/// docs/RULINGS.md REP-1: a side reads only of the units it sees. An event
/// of one of its own units whose text names a hidden enemy (a move barred
/// by the zone of an enemy it cannot see) is not told as written, though
/// the event lists only its own unit: the demo's report once read "cannot
/// move: the move would come within 1\" of the enemy 1er Régiment de Ligne"
/// to the side that could not see that regiment.
#[test]
fn a_sentence_naming_a_hidden_enemy_is_not_told_though_the_event_lists_only_ones_own() {
    let mut turn = sample::demo_turn().expect("loads");
    let jaeger = turn
        .next
        .unit("jaeger")
        .expect("in the sample")
        .name
        .clone();
    turn.events.push(Event {
        kind: "order-impossible".to_string(),
        units: vec!["12-dragons".to_string()],
        path: Vec::new(),
        shows: None,
        text: format!(
            "12e Dragons cannot move: the move would come within 1\" of the enemy {jaeger} (Movement, Zones of Control)."
        ),
    });
    let (report, _) = report_of(&turn, Audience::Side("french".to_string()));
    assert!(!report.text.contains(&jaeger), "{}", report.text);
    assert!(!report.html.contains(&jaeger));
    assert!(
        flat(&report.text).contains("12e Dragons was in action against troops out of sight."),
        "{}",
        report.text
    );
    let (report, _) = report_of(&turn, Audience::Gm);
    assert!(flat(&report.text).contains(&format!("the enemy {jaeger}")));
}

#[test]
fn the_deadline_is_in_the_readers_own_time_zone() {
    let (turn, report, _) = report_for(Audience::Side("french".to_string()));
    assert_eq!(turn.campaign.players[0].person.time_zone, "Europe/Paris");
    assert!(
        report
            .text
            .contains("Deadline: Wednesday 25 November 2026, 20:00 CET.")
    );
}

#[test]
fn the_map_travels_once_inline_and_the_svg_is_attached() {
    let (_, report, _) = report_for(Audience::Side("french".to_string()));
    let inline: Vec<&MailPart> = report
        .parts
        .iter()
        .filter(|p| p.content_id.is_some())
        .collect();
    assert_eq!(inline.len(), 1);
    let cid = inline[0].content_id.as_deref().expect("cid");
    assert!(report.html.contains(&format!("src=\"cid:{cid}\"")));
    assert!(inline[0].bytes.starts_with(b"\x89PNG"));
    let attached: Vec<&str> = report
        .parts
        .iter()
        .filter(|p| p.content_id.is_none())
        .map(|p| p.content_type.as_str())
        .collect();
    assert_eq!(attached, ["image/svg+xml"], "the PNG is not carried twice");
}

#[test]
fn html_escapes_what_players_wrote() {
    let mut turn = sample::demo_turn().expect("loads");
    turn.events[0].text = "<script>alert(1)</script> & more".to_string();
    let orders = orders();
    let read = turn.readings().expect("the states read");
    let input = input_of(&turn, &read, &orders);
    let prepared = prepare(&input, Audience::Gm).expect("prepares");
    let templates = Templates::embedded().expect("templates");
    let person = turn.campaign.gm.clone();
    let report = render(&input, &prepared, (&person).into(), &templates).expect("renders");
    assert!(!report.html.contains("<script>"));
    assert!(report.html.contains("&lt;script&gt;"));
    assert!(report.text.contains("<script>alert(1)</script> & more"));
}
