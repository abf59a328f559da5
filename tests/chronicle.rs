//! The campaign chronicle written from a real store: a side's site names
//! no unit hidden from it while the game runs, and shows everything once it
//! is over; the daemon's copy keeps a folder for each reader, and the
//! reports link to the reader's own.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, Utc};

use adjutant::chronicle::{self, Reader, publish};
use adjutant::engine;
use adjutant::lifecycle::FixedClock;
use adjutant::report::{self, Audience};
use adjutant::store::Store;

fn start() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-01-05T09:00:00Z")
        .map(|t| t.with_timezone(&Utc))
        .expect("a time")
}

/// The demo campaign, with a turn limit of `limit`, and a chronicle url
/// where one is given, registered in a store in `dir`; returns the store
/// and the campaign id.
fn campaign(dir: &Path, limit: u32, url: Option<&str>) -> (Store, String) {
    campaign_with(dir, limit, url, "")
}

/// The same, with `extra` TOML added to the campaign file.
fn campaign_with(dir: &Path, limit: u32, url: Option<&str>, extra: &str) -> (Store, String) {
    let folder = dir.join("campaign");
    let demo = adjutant::demo::demo_of(None).expect("a demo");
    adjutant::demo::demo_campaign(&demo, &folder).expect("the demo campaign");
    let scenario = std::fs::read_to_string(folder.join("scenario.toml")).expect("scenario");
    let scenario: String = scenario
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("turn_limit = ") {
                format!("turn_limit = {limit}\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    std::fs::write(folder.join("scenario.toml"), scenario).expect("write");
    if let Some(url) = url {
        let mut text = std::fs::read_to_string(folder.join("campaign.toml")).expect("campaign");
        text.push_str(&format!("\n[chronicle]\nurl = \"{url}\"\n"));
        std::fs::write(folder.join("campaign.toml"), text).expect("write");
    }
    if !extra.is_empty() {
        let mut text = std::fs::read_to_string(folder.join("campaign.toml")).expect("campaign");
        text.push_str(extra);
        std::fs::write(folder.join("campaign.toml"), text).expect("write");
    }
    let loaded = adjutant::campaign::load(&folder).expect("it loads");
    assert_eq!(loaded.scenario.turn_limit, Some(limit));
    let mut store = Store::open(&dir.join("data")).expect("store");
    engine::init(&mut store, &loaded, &folder, &FixedClock(start())).expect("init");
    (store, loaded.id)
}

/// Plays `turns` turns with the bots' orders; returns the clock's time.
fn play(store: &mut Store, id: &str, turns: u32, mut now: DateTime<Utc>) -> DateTime<Utc> {
    for _ in 0..turns {
        let record = store.campaign(id).expect("campaign");
        let state = store.state(&record.current_state_digest).expect("state");
        if state.finished.is_some() {
            break;
        }
        now += Duration::hours(1);
        for side in &state.sides {
            let lines = adjutant::demo::bots::orders_for(&state, side).expect("the state reads");
            if !lines.is_empty() {
                engine::submit(store, id, side, &lines.join("\n"), &FixedClock(now), None)
                    .expect("orders");
            }
        }
        engine::resolve_now(store, id, &FixedClock(now)).expect("resolves");
    }
    now
}

/// Every file of a site, as text (the maps too).
fn files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(files(&path));
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            out.push((path, text));
        }
    }
    out
}

/// The units out of `audience`'s sight at each resolution, by the reports'
/// own visibility: (page, hidden units as (id, name)).
fn hidden_by_page(
    record: &chronicle::Record,
    audience: &Audience,
) -> Vec<(String, Vec<(String, String)>)> {
    record
        .turns()
        .map(|r| {
            let visible = report::visibility(record.ruleset, &r.next, audience, &r.events);
            let hidden = report::heard::hidden_names(&r.next, visible.as_ref())
                .into_iter()
                .map(|(id, name)| (id.to_string(), name.to_string()))
                .collect();
            (format!("r/{}.html", r.slug()), hidden)
        })
        .collect()
}

fn names(text: &str, hidden: &[(String, String)]) -> bool {
    let pairs: Vec<(&str, &str)> = hidden
        .iter()
        .map(|(i, n)| (i.as_str(), n.as_str()))
        .collect();
    report::heard::names_hidden(text, &pairs)
}

#[test]
fn a_sides_chronicle_names_no_unit_hidden_from_it_until_the_game_is_over() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (mut store, id) = campaign(tmp.path(), 5, None);
    let mut now = play(&mut store, &id, 3, start());
    // A turn whose active side sends nothing: that it sent none is its own.
    now += Duration::hours(1);
    engine::resolve_now(&mut store, &id, &FixedClock(now)).expect("resolves");
    engine::umpire(
        &mut store,
        &id,
        "shoot 12 line-infantry grade b range 3",
        &FixedClock(now + Duration::minutes(5)),
    )
    .expect("a call");
    let record = chronicle::gather(&store, &id).expect("record");
    assert!(record.finished().is_none(), "the game still runs");
    let sides = record.initial.sides.clone();
    let mut some_hidden = 0;
    let mut never_seen = 0;
    let mut enemy_intent = 0;
    for side in &sides {
        let out = tmp.path().join(format!("site-{side}"));
        let written =
            chronicle::write(&store, &id, Reader::Side(side.clone()), &out).expect("written");
        assert!(!written.full);
        let audience = Audience::Side(side.clone());
        // Each resolution's page names none of the units hidden at it.
        for (page, hidden) in hidden_by_page(&record, &audience) {
            let text = std::fs::read_to_string(out.join(&page)).expect("the page");
            some_hidden += hidden.len();
            assert!(
                !names(&text, &hidden),
                "{side}'s {page} names a unit hidden from it: {hidden:?}"
            );
        }
        // Nor does it tell what only the enemy knows (REP-3): the record's
        // turns were resolved again, so each event says who is told.
        for r in record.turns() {
            let text = std::fs::read_to_string(out.join(format!("r/{}.html", r.slug())))
                .expect("the page");
            for e in &r.events {
                let shows = e
                    .shows
                    .as_ref()
                    .expect("the chronicle's events say what they show");
                let whose = report::heard::Audience::new(
                    adjutant::rules::told::Who::Gm,
                    None,
                    &r.prior,
                    &r.next,
                );
                let acting = e.names().next().and_then(|id| whose.side_of(id));
                if shows.told != adjutant::rules::told::Told::ActingSide
                    || acting.as_deref() == Some(side.as_str())
                {
                    continue;
                }
                // The words up to the first that HTML escapes.
                let plain: String = e
                    .text
                    .chars()
                    .take_while(|c| !matches!(c, '"' | '&' | '<' | '>' | '\''))
                    .collect();
                assert!(
                    !text.contains(plain.trim()),
                    "{side}'s {} tells the enemy's: {}",
                    r.slug(),
                    e.text
                );
                enemy_intent += 1;
            }
        }
        // The whole site names no unit the side never saw.
        let mut ever_seen = BTreeSet::new();
        ever_seen.extend(
            report::visibility(record.ruleset, &record.initial, &audience, &[]).unwrap_or_default(),
        );
        for r in record.turns() {
            ever_seen.extend(
                report::visibility(record.ruleset, &r.next, &audience, &r.events)
                    .unwrap_or_default(),
            );
        }
        let never: Vec<(String, String)> = record
            .initial
            .units
            .iter()
            .filter(|u| !ever_seen.contains(&u.id))
            .map(|u| (u.id.clone(), u.name.clone()))
            .collect();
        never_seen += never.len();
        for (path, text) in files(&out) {
            assert!(
                !names(&text, &never),
                "{} names a unit {side} never saw: {never:?}",
                path.display()
            );
        }
        // The GM's chronicle names them.
        let gm = tmp.path().join("site-gm");
        chronicle::write(&store, &id, Reader::Gm, &gm).expect("the GM's");
        let all: String = files(&gm).into_iter().map(|(_, t)| t).collect();
        assert!(
            never.is_empty() || names(&all, &never),
            "the GM's chronicle shows every unit"
        );
    }
    assert!(some_hidden > 0, "some unit is out of some side's sight");
    assert!(never_seen > 0, "some side never saw some enemy unit");
    assert!(
        enemy_intent > 0,
        "no sentence of the enemy's own was checked"
    );

    // Once the game is over, a side's chronicle shows everything.
    play(&mut store, &id, 10, now + Duration::hours(1));
    let record = chronicle::gather(&store, &id).expect("record");
    assert!(record.finished().is_some(), "the turn limit ends the game");
    let side = &sides[0];
    let out = tmp.path().join(format!("site-{side}"));
    let written = chronicle::write(&store, &id, Reader::Side(side.clone()), &out).expect("again");
    assert!(written.full);
    assert_eq!(written.withheld, 0);
    let all: String = files(&out).into_iter().map(|(_, t)| t).collect();
    for (page, hidden) in hidden_by_page(&record, &Audience::Side(side.clone())) {
        if !hidden.is_empty() {
            assert!(names(&all, &hidden), "{page}'s hidden units are shown now");
        }
    }
}

#[test]
fn the_daemons_copy_has_a_folder_for_each_reader_and_the_reports_link_to_it() {
    let tmp = tempfile::tempdir().expect("tmp");
    let url = "https://example.org/chronicle";
    let (mut store, id) = campaign(tmp.path(), 2, Some(url));
    play(&mut store, &id, 1, start());
    let served = tmp.path().join("www");
    let top = publish::publish(&store, &id, &served).expect("published");
    let record = store.campaign(&id).expect("campaign");
    let links = publish::links(&record, 1);
    assert_eq!(links.len(), 3, "each side's and the GM's");
    for (audience, link) in &links {
        let folder = publish::folder(&record, audience);
        assert!(
            link.starts_with(&format!("{url}/{folder}/")),
            "{link} is under {folder}"
        );
        let page = link.trim_start_matches(&format!("{url}/"));
        assert!(top.join(page).exists(), "{page} was written");
        // The report mail of that reader links to it.
        let mail = store.queued_mail(&id).expect("mail");
        let reader = match audience {
            Audience::Gm => record.campaign.gm.address.clone(),
            Audience::Public => unreachable!("this campaign has no observers"),
            Audience::Side(s) => record
                .campaign
                .players
                .iter()
                .find(|p| &p.side == s)
                .map(|p| p.person.address.clone())
                .expect("a player"),
        };
        let report = mail
            .iter()
            .find(|m| m.message_id.contains(".r1.result.") && m.recipient == reader)
            .expect("the report");
        assert!(
            report.body.contains(link),
            "the text report links to {link}"
        );
        // The HTML escapes the slashes, as minijinja does; a browser reads
        // them back.
        let escaped = link.replace('/', "&#x2f;");
        assert!(
            report
                .html
                .as_deref()
                .unwrap_or_default()
                .contains(&escaped),
            "the HTML report links to {link}"
        );
    }
    // The folders cannot be guessed from the side's name alone, and the top
    // is not the whole chronicle while the game runs.
    let folders: Vec<String> = links.keys().map(|a| publish::folder(&record, a)).collect();
    assert!(folders.iter().all(|f| f.len() > 16));
    let front = std::fs::read_to_string(top.join("index.html")).expect("front");
    assert!(front.contains("The game goes on"));
    assert!(!top.join("dice.html").exists());
    // Once over, the whole chronicle is at the top.
    play(&mut store, &id, 5, start() + Duration::hours(3));
    publish::publish(&store, &id, &served).expect("published again");
    assert!(top.join("dice.html").exists());
    let front = std::fs::read_to_string(top.join("index.html")).expect("front");
    assert!(front.contains("The end of the game"));
}

#[test]
fn a_chronicle_is_written_only_into_a_new_folder_or_an_earlier_chronicle() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (mut store, id) = campaign(tmp.path(), 3, None);
    play(&mut store, &id, 1, start());
    let taken = tmp.path().join("taken");
    std::fs::create_dir_all(&taken).expect("dir");
    std::fs::write(taken.join("notes.txt"), "mine").expect("write");
    let refused = chronicle::write(&store, &id, Reader::Gm, &taken);
    assert!(matches!(
        refused,
        Err(chronicle::ChronicleError::NotAChronicle(_))
    ));
    let out = tmp.path().join("site");
    chronicle::write(&store, &id, Reader::Gm, &out).expect("first");
    chronicle::write(&store, &id, Reader::Gm, &out).expect("again, over the first");
    let unknown = chronicle::write(&store, &id, Reader::Side("prussians".into()), &out);
    assert!(matches!(
        unknown,
        Err(chronicle::ChronicleError::UnknownSide { .. })
    ));
}

#[test]
fn the_daemon_rewrites_the_chronicle_after_a_resolution_and_only_then() {
    use adjutant::daemon::Daemon;
    use adjutant::ingest::IngestConfig;
    use adjutant::outbound::{DeliveryPolicy, FileTransport};

    let tmp = tempfile::tempdir().expect("tmp");
    let (store, id) = campaign(tmp.path(), 3, Some("https://example.org/c"));
    let www = tmp.path().join("www");
    let mut daemon = Daemon::new(
        store,
        None,
        Box::new(FileTransport::new(tmp.path().join("sent"))),
        DeliveryPolicy {
            from: "adjutant <adjutant@example.org>".to_string(),
            ..DeliveryPolicy::default()
        },
        IngestConfig::default(),
        Duration::seconds(30),
    )
    .with_chronicle(Some(www.clone()));
    let now = start() + Duration::hours(1);
    let record = daemon.store().campaign(&id).expect("campaign");
    let state = daemon
        .store()
        .state(&record.current_state_digest)
        .expect("state");
    for side in &state.sides {
        let lines = adjutant::demo::bots::orders_for(&state, side).expect("the state reads");
        if !lines.is_empty() {
            engine::submit(
                daemon.store_mut(),
                &id,
                side,
                &lines.join("\n"),
                &FixedClock(now),
                None,
            )
            .expect("orders");
        }
    }
    // Past the deadline: the phase is due, the daemon resolves it and
    // writes the chronicle.
    let later = record.deadline + Duration::minutes(1);
    let notes: Vec<String> = daemon
        .run_until_quiet(&FixedClock(later), 20)
        .expect("runs")
        .into_iter()
        .flat_map(|p| p.notes)
        .collect();
    assert!(
        notes.iter().any(|n| n.contains("chronicle written")),
        "{notes:?}"
    );
    let gm = publish::folder(&daemon.store().campaign(&id).expect("c"), &Audience::Gm);
    assert!(www.join(&id).join(gm).join("r/turn-0001.html").exists());
    // Nothing new: nothing rewritten.
    let again: Vec<String> = daemon
        .run_until_quiet(&FixedClock(later + Duration::minutes(1)), 20)
        .expect("runs")
        .into_iter()
        .flat_map(|p| p.notes)
        .collect();
    assert!(!again.iter().any(|n| n.contains("chronicle")), "{again:?}");
}

/// Observers (REP-4): a campaign that names them has a public chronicle,
/// whose pages name no unit hidden from any side; those who follow it are
/// sent its link, those who take reports the public report.
#[test]
fn observers_follow_the_public_chronicle_which_shows_no_more_than_every_side_sees() {
    let tmp = tempfile::tempdir().expect("tmp");
    let url = "https://example.org/chronicle";
    let observers = "\n[[observer]]\nname = \"Club reader\"\naddress = \"reader@club.invalid\"\n\n[[observer]]\nname = \"Follower\"\naddress = \"follower@club.invalid\"\nreceives = \"chronicle\"\n";
    let (mut store, id) = campaign_with(tmp.path(), 5, Some(url), observers);
    play(&mut store, &id, 3, start());
    let served = tmp.path().join("www");
    let top = publish::publish(&store, &id, &served).expect("published");
    let record = store.campaign(&id).expect("campaign");
    let links = publish::links(&record, 2);
    let public = links.get(&Audience::Public).expect("the public's link");
    let folder = publish::folder(&record, &Audience::Public);
    assert!(folder.starts_with("public-"), "{folder}");
    assert!(
        top.join(public.trim_start_matches(&format!("{url}/")))
            .exists()
    );
    let gathered = chronicle::gather(&store, &id).expect("record");
    let out = top.join(&folder);
    for (page, hidden) in hidden_by_page(&gathered, &Audience::Public) {
        let text = std::fs::read_to_string(out.join(&page)).expect("the page");
        assert!(
            !names(&text, &hidden),
            "{page} names a unit hidden from a side"
        );
    }
    let mail = store.queued_mail(&id).expect("mail");
    let note = mail
        .iter()
        .find(|m| m.message_id.contains(".r2.observed.") && m.recipient == "follower@club.invalid")
        .expect("the follower's note");
    assert!(note.body.contains(public.as_str()), "{}", note.body);
    let report = mail
        .iter()
        .find(|m| m.message_id.contains(".r2.result.") && m.recipient == "reader@club.invalid")
        .expect("the reader's report");
    assert!(
        report.body.contains("The observers' report"),
        "{}",
        report.body
    );
    assert!(
        report.body.contains(public.as_str()),
        "the report links to the public chronicle"
    );
    assert!(
        !mail
            .iter()
            .any(|m| m.recipient == "follower@club.invalid" && m.message_id.contains(".result.")),
        "the follower is sent the link, not the report"
    );
}
