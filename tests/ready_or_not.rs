//! A phase closes before its deadline only once every side is ready (issue
//! 30, defect 1): a message with a refused line does not say so, the words
//! `ready` and `wait` say it outright, and each acknowledgement says in its
//! first line whether the phase is still open or closes now.

#[allow(dead_code)]
mod support;

use adjutant::ingest::Outcome;
use support::by_mail::{HOHENZOLLERN, LANNES, closes, now, send, setup};

const FRENCH: &str = "passphrase: vive-l-empereur\n1-ligne: hold\n";
const AUSTRIAN: &str = "passphrase: gott-erhalte-franz\ngrenzer: evade\n";
const AUSTRIAN_TYPO: &str = "passphrase: gott-erhalte-franz\ngrenzer: evade\ngrenzr: evade\n";

fn first_line(body: &str) -> &str {
    body.lines().next().unwrap_or_default()
}

#[test]
fn a_typo_in_the_last_sides_message_does_not_close_the_phase() {
    let (_dir, mut store) = setup();
    let (_, ack) = send(&mut store, LANNES, FRENCH, &now());
    let ack = ack.expect("acknowledged");
    assert!(
        first_line(&ack.body).contains("is still open"),
        "{}",
        ack.body
    );
    assert!(ack.body.contains("You are ready."), "{}", ack.body);
    assert!(!closes(&mut store, &now()), "the Austrian side is not in");

    // The last side's message has a refused line: its sender must be able
    // to correct it before the deadline.
    let (outcome, ack) = send(&mut store, HOHENZOLLERN, AUSTRIAN_TYPO, &now());
    assert!(
        matches!(
            outcome,
            Outcome::Accepted {
                refused_lines: 1,
                ..
            }
        ),
        "{outcome:?}"
    );
    let ack = ack.expect("acknowledged");
    assert!(
        first_line(&ack.body).contains("is still open"),
        "{}",
        ack.body
    );
    assert!(
        ack.body
            .contains("You are not ready, since a line was refused"),
        "{}",
        ack.body
    );
    assert!(
        !closes(&mut store, &now()),
        "a refused line closed the phase"
    );

    // The corrected set says it is ready, and the phase closes.
    let (_, ack) = send(&mut store, HOHENZOLLERN, AUSTRIAN, &now());
    let ack = ack.expect("acknowledged");
    assert!(
        first_line(&ack.body).starts_with("Every side is ready:")
            && ack.body.contains("closes now"),
        "{}",
        ack.body
    );
    assert!(closes(&mut store, &now()));
}

#[test]
fn ready_lets_the_phase_close_without_the_refused_line() {
    let (_dir, mut store) = setup();
    send(&mut store, LANNES, FRENCH, &now());
    send(&mut store, HOHENZOLLERN, AUSTRIAN_TYPO, &now());
    assert!(!closes(&mut store, &now()));
    // The word alone: the orders stand, and the side is ready.
    let (outcome, reply) = send(
        &mut store,
        HOHENZOLLERN,
        "passphrase: gott-erhalte-franz\nReady.\n",
        &now(),
    );
    assert!(
        matches!(outcome, Outcome::Ready { ready: true, .. }),
        "{outcome:?}"
    );
    let reply = reply.expect("answered");
    assert!(
        first_line(&reply.body).starts_with("Every side is ready:"),
        "{}",
        reply.body
    );
    assert!(
        reply
            .body
            .contains("Your orders sent earlier for this phase stand, digest"),
        "{}",
        reply.body
    );
    assert!(closes(&mut store, &now()));
    // The orders that stood are the ones resolved.
    let manifest = store
        .resolutions(support::by_mail::ID)
        .expect("resolutions")
        .into_iter()
        .next()
        .expect("resolution 1")
        .manifest_text;
    assert!(!manifest.contains("orders austrian none"), "{manifest}");
}

#[test]
fn wait_keeps_the_phase_open_for_the_deadline_though_every_line_was_accepted() {
    let (_dir, mut store) = setup();
    send(&mut store, LANNES, &format!("{FRENCH}wait\n"), &now());
    let (outcome, ack) = send(&mut store, HOHENZOLLERN, AUSTRIAN, &now());
    assert!(
        matches!(
            outcome,
            Outcome::Accepted {
                refused_lines: 0,
                ..
            }
        ),
        "{outcome:?}"
    );
    assert!(first_line(&ack.expect("acknowledged").body).contains("is still open"));
    assert!(!closes(&mut store, &now()), "the French side said wait");
    // The French acknowledgement said why it is not ready.
    let french = support::by_mail::replies(&store)
        .into_iter()
        .find(|m| LANNES.contains(m.recipient.as_str()))
        .expect("acknowledged");
    assert!(french.body.contains("you said `wait`"), "{}", french.body);
    // `ready` later, without orders, closes it; the orders stand.
    let (outcome, _) = send(
        &mut store,
        LANNES,
        "passphrase: vive-l-empereur\nready\n",
        &now(),
    );
    assert!(
        matches!(outcome, Outcome::Ready { ready: true, .. }),
        "{outcome:?}"
    );
    assert!(closes(&mut store, &now()));
    let manifest = store
        .resolutions(support::by_mail::ID)
        .expect("resolutions")
        .into_iter()
        .next()
        .expect("resolution 1")
        .manifest_text;
    assert!(!manifest.contains("orders french none"), "{manifest}");
}

#[test]
fn the_same_orders_again_with_wait_take_back_the_word_ready() {
    let (_dir, mut store) = setup();
    send(&mut store, LANNES, FRENCH, &now());
    let (outcome, ack) = send(&mut store, LANNES, &format!("{FRENCH}wait\n"), &now());
    assert!(matches!(outcome, Outcome::Accepted { .. }), "{outcome:?}");
    let ack = ack.expect("acknowledged");
    assert!(
        ack.body.contains("same as the orders you sent earlier"),
        "{}",
        ack.body
    );
    send(&mut store, HOHENZOLLERN, AUSTRIAN, &now());
    assert!(
        !closes(&mut store, &now()),
        "the French side took back its readiness"
    );
}

#[test]
fn a_side_that_sends_no_orders_is_ready_and_the_deadline_closes_the_rest() {
    let (_dir, mut store) = setup();
    send(&mut store, LANNES, &format!("{FRENCH}wait\n"), &now());
    let (_, ack) = send(
        &mut store,
        HOHENZOLLERN,
        "passphrase: gott-erhalte-franz\nno orders\n",
        &now(),
    );
    assert!(first_line(&ack.expect("acknowledged").body).contains("is still open"));
    assert!(!closes(&mut store, &now()));
    // The deadline closes a phase whoever is ready.
    let late = support::by_mail::at("2026-02-05T10:00:00Z");
    assert!(closes(&mut store, &late));
}
