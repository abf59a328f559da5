//! Issue 30, item 2, for Kulikovo and percentile fire: an order mail's
//! lines are tried at once as the phase will carry them out, through the
//! engine as a player's mail is taken (`engine::submit`, which stores what
//! `Rules::acknowledge` accepts). A line the phase would certainly not carry
//! out is refused with the clause; one whose outcome a die or the enemy may
//! change is accepted with a warning.

use chrono::{DateTime, Utc};

use adjutant::engine;
use adjutant::engine::gm::{GmCommand, Origin, execute};
use adjutant::lifecycle::FixedClock;
use adjutant::store::Store;

fn now() -> FixedClock {
    FixedClock(
        DateTime::parse_from_rfc3339("2026-01-05T10:00:00Z")
            .expect("valid")
            .with_timezone(&Utc),
    )
}

/// A store with the demo campaign of `ruleset` registered.
fn setup(ruleset: &str) -> (tempfile::TempDir, Store, String) {
    let dir = tempfile::tempdir().expect("dir");
    let demo = adjutant::demo::demo_of(Some(ruleset)).expect("a demo");
    let campaign =
        adjutant::demo::demo_campaign(&demo, &dir.path().join("campaign")).expect("loads");
    let id = campaign.id.clone();
    let mut store = Store::open(&dir.path().join("data")).expect("store");
    engine::init(&mut store, &campaign, &dir.path().join("campaign"), &now()).expect("init");
    (dir, store, id)
}

fn gm(store: &mut Store, id: &str, text: &str) {
    let command = GmCommand::parse(text, "Europe/Paris").expect("a command");
    let report = execute(store, id, &command, &Origin::cli(), &now()).expect("carried out");
    assert!(report.done, "{text}: {}", report.outcome);
}

/// The French open the demo's first Movement Phase: the 4e Léger steps
/// forward 3", then its voltigeurs sidestep 6" to the left, onto the
/// ground the battalion has just taken. Each line fits the table as it
/// stands, and the phase would not make the second; the acknowledgement
/// refuses it, with the phase's words, and takes the first.
#[test]
fn percentile_fire_refuses_a_move_onto_ground_a_friend_has_just_taken() {
    let (_dir, mut store, id) = setup("percentile-fire");
    let text = "4-leger: forward 3\nvoltigeurs: left 6\n";
    let done = engine::submit(&mut store, &id, "french", text, &now(), None).expect("submitted");
    let refused = done.sheet.refusals();
    assert_eq!(
        refused,
        [
            "line 2: voltigeurs: cannot move where its side's earlier lines leave the table: it would end on 4-leger (ruling PF-3: movement lies outside the chapter)"
        ]
    );
    assert_eq!(done.sheet.accepted, ["4-leger: forward 3"]);
    assert!(done.stored);
    // The other way round, the voltigeurs move first and the battalion's
    // step forward is the line the phase would not make.
    let text = "voltigeurs: left 6\n4-leger: forward 3\n";
    let done = engine::submit(&mut store, &id, "french", text, &now(), None).expect("submitted");
    assert_eq!(done.sheet.accepted, ["voltigeurs: left 6"]);
    assert_eq!(
        done.sheet.rejections.len(),
        1,
        "{:?}",
        done.sheet.rejections
    );
    assert_eq!(done.sheet.rejections[0].line, 2);
}

/// The Horde's first activation, the GM having set the Genoese crossbowmen
/// and the Tatar horse next to the Russians' advance guard and disordered
/// it: a fire at it may drive it off ("Target Disordered": "2-3 Retreat"),
/// and the shock written before the fire comes after it. The shock is
/// accepted with a warning naming the fire's line and the column.
#[test]
fn kulikovo_warns_of_an_attack_the_sides_own_fire_may_leave_without_its_target() {
    let (_dir, mut store, id) = setup("kulikovo");
    gm(&mut store, &id, "correct r-advance-1 disordered yes");
    gm(&mut store, &id, "correct c-genoese-1 at 10 9 facing 0");
    gm(&mut store, &id, "correct m-tatar-1 at 9 8 facing 1");
    let text = "m-tatar-1: shock r-advance-1\nc-genoese-1: fire at r-advance-1\n";
    let done = engine::submit(&mut store, &id, "horde", text, &now(), None).expect("submitted");
    assert!(
        done.sheet.refusals().is_empty(),
        "{:?}",
        done.sheet.refusals()
    );
    assert_eq!(done.sheet.accepted.len(), 2);
    assert_eq!(
        done.sheet.warned(),
        [
            "line 1: m-tatar-1: the fire at r-advance-1 on line 2 may make it retreat or retire, or eliminate it, before the shock segment, and this attack then lapses where it no longer fits the field (Missile Fire Results, Target Leg Unit, Target Disordered: \"2-3 Retreat\", \"4-6 Retire\", \"7+ Eliminated\")"
        ]
    );
    assert!(done.ready, "a warning keeps no side from being ready");
}
