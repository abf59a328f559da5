//! What the game master sees and does by mail (issue 30): one number for
//! each act everywhere, a status that shows players and mail, and a preview
//! with placeholder dice that changes nothing.

mod support;

use adjutant::chronicle::{self, Reader};
use adjutant::ingest::Outcome;
use support::by_mail::{GM, ID, LANNES, now, replies, send, setup};

const GM_PASS: &str = "passphrase: grand-quartier-general\n";

fn gm(store: &mut adjutant::store::Store, commands: &[&str]) -> String {
    let body: String = std::iter::once(GM_PASS.to_string())
        .chain(commands.iter().map(|c| format!("command: {c}\n")))
        .collect();
    let (outcome, reply) = send(store, GM, &body, &now());
    assert!(matches!(outcome, Outcome::Commands { .. }), "{outcome:?}");
    reply.expect("the GM's reply").body
}

#[test]
fn every_act_has_one_number_in_the_reply_the_announcement_and_the_chronicle() {
    let (dir, mut store) = setup();
    let reply = gm(&mut store, &["extend 12h", "correct 1-ligne strength 11"]);
    assert!(reply.contains("(act 1)"), "{reply}");
    assert!(
        reply.contains("corrected: correct 1-ligne strength 11 (act 2)"),
        "{reply}"
    );
    assert!(!reply.contains("done: done:"), "{reply}");
    // The announcement of the correction says act 2 too.
    let announced = store
        .queued_mail(ID)
        .expect("outbox")
        .into_iter()
        .filter(|m| LANNES.contains(m.recipient.as_str()) && m.subject.contains("the game master"))
        .map(|m| m.body)
        .collect::<Vec<_>>();
    assert_eq!(announced.len(), 2, "{announced:?}");
    assert!(announced[0].contains("act 1,"), "{}", announced[0]);
    assert!(announced[1].contains("act 2,"), "{}", announced[1]);
    // The chronicle's timeline lists both acts under the same numbers.
    let out = dir.path().join("chronicle");
    chronicle::write(&store, ID, Reader::Gm, &out).expect("written");
    let index = std::fs::read_to_string(out.join("index.html")).expect("index");
    assert!(
        index.contains("act 1: extend"),
        "the extension is in the timeline"
    );
    assert!(
        index.contains("act 2: correction"),
        "the correction keeps its number"
    );
}

#[test]
fn the_status_names_players_their_readiness_and_the_refused_mail() {
    let (_dir, mut store) = setup();
    send(
        &mut store,
        LANNES,
        "passphrase: vive-l-empereur\n1-ligne: hold\nfoo: hold\n",
        &now(),
    );
    send(
        &mut store,
        LANNES,
        "passphrase: wrong\n1-ligne: hold\n",
        &now(),
    );
    let reply = gm(&mut store, &["status"]);
    assert!(reply.contains("sides (0 of 2 ready)"), "{reply}");
    assert!(reply.contains("orders in, not ready"), "{reply}");
    assert!(
        reply.contains("<lannes@french.invalid>, Europe/Paris"),
        "{reply}"
    );
    assert!(
        reply.contains("<hohenzollern@austrian.invalid>, Europe/Vienna"),
        "{reply}"
    );
    assert!(
        reply.contains("refused since the phase opened: 1")
            && reply.contains("lannes@french.invalid: the sender and passphrase do not match"),
        "{reply}"
    );
    assert!(reply.contains("outbox: "), "{reply}");
}

#[test]
fn the_preview_shows_placeholder_dice_to_the_gm_alone_and_changes_nothing() {
    let (_dir, mut store) = setup();
    // The French bot's orders for turn 1.
    let record = store.campaign(ID).expect("record");
    let state = store.state(&record.current_state_digest).expect("state");
    let ruleset = adjutant::rules::ruleset_for("sound-the-charge").expect("known");
    let orders = ruleset
        .bot_orders(&ruleset.read(&state).expect("the state reads"), "french")
        .join("\n");
    send(
        &mut store,
        LANNES,
        &format!("passphrase: vive-l-empereur\n{orders}\n"),
        &now(),
    );
    let mail_before = store.queued_mail(ID).expect("outbox").len();
    let reply = gm(&mut store, &["preview"]);
    assert!(reply.contains("PREVIEW of turn 1 orders"), "{reply}");
    assert!(reply.contains("NOT THE RESULT"), "{reply}");
    assert!(reply.contains("d6 3"), "{reply}");
    assert!(reply.contains("french: digest "), "{reply}");
    assert!(reply.contains("austrian: none"), "{reply}");
    assert!(
        reply.contains("dice (placeholders, not drawn): "),
        "{reply}"
    );
    assert!(
        reply.contains("Lannes rides to "),
        "what the orders come to: {reply}"
    );
    // Only the GM's reply was queued, and nothing was resolved.
    let mail = store.queued_mail(ID).expect("outbox");
    assert_eq!(mail.len(), mail_before + 1);
    assert!(
        mail.last()
            .is_some_and(|m| GM.contains(m.recipient.as_str()))
    );
    assert_eq!(store.resolution_counts(ID).expect("counts"), (0, 0));
    assert_eq!(replies(&store).len(), 2);
}

/// Asking again by mail (issue 30): a player asks for the latest report,
/// the situation and a template, and gets each at its registered address
/// alone, with its own side's view.
#[test]
fn a_player_asks_for_the_report_the_situation_and_a_template() {
    let (_dir, mut store) = setup();
    let (outcome, reply) = send(
        &mut store,
        LANNES,
        "passphrase: vive-l-empereur\nsend report\n",
        &now(),
    );
    assert!(matches!(outcome, Outcome::Asked { .. }), "{outcome:?}");
    assert!(
        reply
            .expect("answered")
            .body
            .contains("no report has been sent to you yet")
    );
    // A turn resolved: every side's report is queued.
    send(
        &mut store,
        LANNES,
        "passphrase: vive-l-empereur\n1-ligne: hold\n",
        &now(),
    );
    send(
        &mut store,
        support::by_mail::HOHENZOLLERN,
        "passphrase: gott-erhalte-franz\nno orders\n",
        &now(),
    );
    assert!(support::by_mail::closes(&mut store, &now()));
    let before = store.queued_mail(ID).expect("outbox").len();
    let (outcome, reply) = send(
        &mut store,
        LANNES,
        "passphrase: vive-l-empereur\nSend report.\nsend situation\nsend template\n",
        &now(),
    );
    assert!(matches!(outcome, Outcome::Asked { .. }), "{outcome:?}");
    let reply = reply.expect("answered").body;
    assert!(reply.contains("the latest report follows"), "{reply}");
    let mail = store.queued_mail(ID).expect("outbox");
    let new: Vec<_> = mail[before..].iter().collect();
    assert_eq!(
        new.len(),
        4,
        "the reply, the report, the situation, the template"
    );
    assert!(
        new.iter().all(|m| m.recipient == "lannes@french.invalid"),
        "to the player alone"
    );
    let report = new
        .iter()
        .find(|m| m.subject.contains("(sent again)"))
        .expect("the report");
    assert!(
        report.subject.contains("resolution 1"),
        "{}",
        report.subject
    );
    assert!(!report.parts.is_empty(), "with its map");
    let situation = new
        .iter()
        .find(|m| m.subject.contains("the situation"))
        .expect("the situation");
    assert!(
        situation.body.contains("1-ligne: 1er Régiment de Ligne"),
        "{}",
        situation.body
    );
    assert!(
        !situation.body.contains("Jäger"),
        "no enemy out of sight is named"
    );
    assert_eq!(situation.parts.len(), 1, "its map");
    let template = new
        .iter()
        .find(|m| m.subject.contains("an order template"))
        .expect("the template");
    assert!(
        template.body.contains("passphrase <your passphrase>"),
        "{}",
        template.body
    );
}
