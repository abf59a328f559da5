//! Umpire calls: each step of the charge procedure asked for in words, on
//! the units of the game as they stand (a case gives its positions), with
//! every modifier and die shown. A call changes nothing in the game: it
//! reports what would happen.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, json};

use super::clauses;
use super::field::Field;
use super::mechanics::charge::{self, Group, Kind, Play, eligible};
use super::mechanics::morale::{self, bonus, cover, penalty, standing};
use super::state::{Arm, State};
use crate::audit::dice::Dice;
use crate::rules::kernel::Modifier;
use crate::rules::names;
use crate::rules::umpire::{Trace, UmpireError, UmpireReport, forbidden, unread};
use crate::rules::words::{Cursor, Token, inches};

pub const HELP: &str = "\
Grande Tactique umpire calls (units by id or name; words in any case):

morale [<unit>] [shaken|routed] [veteran] [built-up-area] [woods] [square-against-cavalry]
       [cuirassiers-charging-cavalry] [lancers-charging-infantry] [help-from-friends]
       [charged-by-several] [first-follow-up|second-follow-up] [under-fire]
  One Morale Check: one d6 needing the campaign's morale_check_needs (4) once modified.
  A unit named brings its own modifiers (shaken, veteran, its marks, its cover).
  e.g. morale veteran shaken built-up-area

may-charge <unit> at <target>
  Whether the unit may charge the target now, and what it costs in PIPs.

charge <unit> [<unit> ...] at <target> [principal <unit>] [stay]
  The whole charge, as the combat phase resolves it: contact, both checks, the
  countercharge or Locked in Combat, flight, taking the position, follow-up
  charges and pursuit. The first unit is the principal unless one is named.
  e.g. charge 1-cuirassiers 2-cuirassiers at uhlans principal 1-cuirassiers

countercharge <cavalry> at <cavalry>
  The countercharge alone, as after a failed check: the charger moves to
  contact, both meet a third of the way back, the charger flees, the charged
  cavalry pursues.

locked <unit> vs <unit>
  Locked in Combat: both roll until one beats the other (veteran +1, lancers -1).

flee <unit> from <enemy>
  A unit flees from an enemy: its distance, its path, where it ends.

pursue <cavalry> after <unit>
  The unit flees from the cavalry, which pursues it.

follow-up <cavalry> after <prior target> [second]
  The check for a follow-up charge (-1, or -2 for the second) and the new targets
  within 8 inches of where the prior target stood, each with why it will do or not.
";

fn syntax(call: &str, problem: impl Into<String>) -> UmpireError {
    UmpireError::Syntax {
        call: call.to_string(),
        problem: problem.into(),
    }
}

/// Looks up a unit named by words.
fn unit(state: &State, call: &str, name: &Token) -> Result<usize, UmpireError> {
    let u = names::find(state.units.iter(), &name.text).map_err(|e| syntax(call, e.to_string()))?;
    state
        .units
        .iter()
        .position(|x| x.id == u.id)
        .ok_or_else(|| syntax(call, "no such unit"))
}

/// Two units with a word between them (`<unit> at <target>`): the words up
/// to the first `word`, and every word after it.
fn pair(
    state: &State,
    call: &str,
    w: &mut Cursor,
    word: &str,
    form: &str,
) -> Result<(usize, usize), UmpireError> {
    let unread = |e| unread(call, &e, form);
    let first = w.unit_until("a unit", &[word]).map_err(unread)?;
    w.expect(word).map_err(unread)?;
    let second = w.unit_until("a unit", &[]).map_err(unread)?;
    Ok((unit(state, call, &first)?, unit(state, call, &second)?))
}

/// How a call is read and made.
type Call = fn(&State, &str, &mut Cursor, &mut dyn Dice) -> Result<UmpireReport, UmpireError>;

/// The calls by name, each read by a function of its own.
const CALLS: &[(&[&str], Call)] = &[
    (&["morale"], morale_call),
    (&["may-charge"], |state, call, w, _| {
        may_charge(state, call, w)
    }),
    (&["charge"], |state, call, w, dice| {
        charge_call(state, call, w, dice, false)
    }),
    (&["countercharge"], |state, call, w, dice| {
        charge_call(state, call, w, dice, true)
    }),
    (&["locked"], locked),
    (&["flee"], flee),
    (&["pursue"], pursue),
    (&["follow-up"], follow_up),
];

pub fn call(state: &State, call: &str, dice: &mut dyn Dice) -> Result<UmpireReport, UmpireError> {
    let mut w = Cursor::of(call);
    if w.is_done() {
        return Err(unread(call, &w.error("a call"), ""));
    }
    let read = crate::rules::umpire::call_of(&mut w, CALLS)?;
    read(state, call, &mut w, dice)
}

fn report(call: String, trace: Trace, outcome: String, result: Value) -> UmpireReport {
    UmpireReport {
        call,
        lines: trace.lines,
        outcome,
        result,
    }
}

/// The flags a `morale` call takes, with their modifiers.
fn flag(params: &super::params::Params, word: &str) -> Option<Modifier> {
    Some(match word {
        "shaken" => penalty("shaken", params.shaken_penalty),
        "routed" => penalty("routed", params.shaken_penalty),
        "veteran" => bonus("veteran", params.veteran_bonus),
        "built-up-area" => bonus("in a Built-Up Area", params.built_up_area_bonus),
        "woods" => bonus("in woods", params.woods_bonus),
        "square-against-cavalry" => bonus(
            "in square against cavalry",
            params.square_against_cavalry_bonus,
        ),
        "cuirassiers-charging-cavalry" => Modifier::new("cuirassiers charging cavalry", 1),
        "lancers-charging-infantry" => Modifier::new("lancers charging infantry", 1),
        "help-from-friends" => bonus(
            "charging with help from friends",
            params.help_from_friends_bonus,
        ),
        "charged-by-several" => penalty(
            "charged by more than one unit",
            params.charged_by_several_penalty,
        ),
        "first-follow-up" => Modifier::new("first follow-up charge", -1),
        "second-follow-up" => Modifier::new("second follow-up charge", -2),
        "under-fire" => penalty("under fire", params.fire_penalty),
        _ => return None,
    })
}

const FLAGS: &[&str] = &[
    "shaken",
    "routed",
    "veteran",
    "built-up-area",
    "woods",
    "square-against-cavalry",
    "cuirassiers-charging-cavalry",
    "lancers-charging-infantry",
    "help-from-friends",
    "charged-by-several",
    "first-follow-up",
    "second-follow-up",
    "under-fire",
];

fn morale_call(
    state: &State,
    call: &str,
    w: &mut Cursor,
    dice: &mut dyn Dice,
) -> Result<UmpireReport, UmpireError> {
    let params = &state.params;
    let field = Field::new(state);
    let mut flags: Vec<&str> = Vec::new();
    let mut named: Vec<Token> = Vec::new();
    for word in w.rest() {
        match FLAGS.iter().find(|f| **f == word.text) {
            Some(f) => {
                if !flags.contains(f) {
                    flags.push(f);
                }
            }
            None => named.push(word),
        }
    }
    if flags.contains(&"first-follow-up") && flags.contains(&"second-follow-up") {
        return Err(forbidden(
            "one follow-up penalty applies, not both",
            "Follow-up charges by cavalry",
            clauses::FOLLOW_UP_PENALTIES,
        ));
    }
    let mut mods = Vec::new();
    let mut who = "the unit".to_string();
    let mut canonical = vec!["morale".to_string()];
    if let Some(first) = named.first() {
        let name = Token {
            text: named
                .iter()
                .map(|t| t.text.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            ..first.clone()
        };
        let i = unit(state, call, &name)?;
        who = field.name(i).to_string();
        canonical.push(field.id(i).to_string());
        mods.extend(standing(field.unit(i), params));
        mods.extend(cover(&field, i));
    }
    flags.sort_by_key(|f| FLAGS.iter().position(|x| x == f));
    for f in &flags {
        canonical.push(f.to_string());
        if let Some(m) = flag(params, f)
            && !mods.iter().any(|x| x.reason == m.reason)
        {
            mods.push(m);
        }
    }
    let mut trace = Trace::default();
    let check = morale::roll(&mut trace, dice, params, &who, "(umpire call)", mods);
    let outcome = format!("{who}: {}.", check.sentence());
    Ok(report(
        canonical.join(" "),
        trace,
        outcome,
        serde_json::to_value(&check).unwrap_or(Value::Null),
    ))
}

fn may_charge(state: &State, call: &str, w: &mut Cursor) -> Result<UmpireReport, UmpireError> {
    let (i, t) = pair(state, call, w, "at", "may-charge <unit> at <target>")?;
    let field = Field::new(state);
    let refused = |r: eligible::Refusal| UmpireError::Forbidden {
        problem: format!(
            "{} may not charge {}: {}",
            field.name(i),
            field.name(t),
            r.problem
        ),
        clause: r.clause.unwrap_or_default(),
    };
    eligible::may_charge(&field, i, field.unit(i).rules.firing).map_err(refused)?;
    eligible::may_be_charged(&field, i, t).map_err(refused)?;
    let (cost, way) = eligible::cost(&field, i, t).map_err(refused)?;
    let mut trace = Trace::default();
    trace.lookup(
        "Charging: PIPs",
        if cost == 1 {
            "in contact"
        } else {
            "moving to contact"
        },
        format!("{cost} PIP{}", if cost == 1 { "" } else { "s" }),
    );
    trace.note(clauses::COST);
    let outcome = if cost == 1 {
        format!(
            "{} may charge {}, in contact: 1 PIP.",
            field.name(i),
            field.name(t)
        )
    } else {
        format!(
            "{} may charge {}, moving {} inches to contact: 2 PIPs.",
            field.name(i),
            field.name(t),
            inches(way.length)
        )
    };
    Ok(report(
        format!("may-charge {} at {}", field.id(i), field.id(t)),
        trace,
        outcome,
        json!({ "pips": cost, "distance": way.length as f64 / 100.0 }),
    ))
}

/// Every unit as the call left it, for the typed result.
fn units_after(field: &Field) -> Value {
    let mut out = serde_json::Map::new();
    for u in &field.state.units {
        let (x, y) = match u.location {
            crate::rules::board::Location::Table { x, y } => (x, y),
            crate::rules::board::Location::Hex { .. } => (0, 0),
        };
        out.insert(
            u.id.clone(),
            json!({
                "morale": u.rules.morale.word(),
                "x": x as f64 / 100.0,
                "y": y as f64 / 100.0,
                "facing": u.facing,
                "eliminated": u.eliminated.is_some(),
                "firing": u.rules.firing,
                "charges_made": u.rules.charges_made,
            }),
        );
    }
    Value::Object(out)
}

#[derive(Serialize)]
struct Told {
    kind: String,
    text: String,
}

fn charge_call(
    state: &State,
    call: &str,
    w: &mut Cursor,
    dice: &mut dyn Dice,
    counter_only: bool,
) -> Result<UmpireReport, UmpireError> {
    let form = if counter_only {
        "countercharge <cavalry> at <cavalry>"
    } else {
        "charge <unit> [<unit> ...] at <target> [principal <unit>] [stay]"
    };
    let unread = |e| unread(call, &e, form);
    // Attackers: one word each (ids, or single-word names).
    let before = w.unit_until("the charging unit", &["at"]).map_err(unread)?;
    w.expect("at").map_err(unread)?;
    // `stay` is the last word; the principal follows the first `principal`.
    let mut after = w.rest();
    let stay = after.last().is_some_and(|t| t.text == "stay");
    if stay {
        after.pop();
    }
    let joined = |words: &[Token]| Token {
        text: words
            .iter()
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        column: words.first().map_or(w.end_column(), |t| t.column),
        quoted: false,
    };
    let (target_words, principal_words) = match after.iter().position(|t| t.text == "principal") {
        Some(p) => (joined(&after[..p]), joined(&after[p + 1..])),
        None => (joined(&after), joined(&[])),
    };
    let t = unit(state, call, &target_words)?;
    let mut attackers = Vec::new();
    for word in before.text.split(' ') {
        let a = unit(
            state,
            call,
            &Token {
                text: word.to_string(),
                ..before.clone()
            },
        )?;
        if !attackers.contains(&a) {
            attackers.push(a);
        }
    }
    if !principal_words.text.is_empty() {
        let p = unit(state, call, &principal_words)?;
        let Some(at) = attackers.iter().position(|&a| a == p) else {
            return Err(forbidden(
                "the principal must be one of the charging units",
                "Charging",
                clauses::PRINCIPAL,
            ));
        };
        attackers.remove(at);
        attackers.insert(0, p);
    }
    let field = Field::new(state);
    let refused = |i: usize, r: eligible::Refusal| UmpireError::Forbidden {
        problem: format!(
            "{} may not charge {}: {}",
            field.name(i),
            field.name(t),
            r.problem
        ),
        clause: r.clause.unwrap_or_default(),
    };
    let command = field.unit(attackers[0]).rules.command.clone();
    for &a in &attackers {
        eligible::may_charge(&field, a, field.unit(a).rules.firing).map_err(|r| refused(a, r))?;
        eligible::may_be_charged(&field, a, t).map_err(|r| refused(a, r))?;
        if field.unit(a).rules.command != command {
            return Err(forbidden(
                &format!(
                    "{} is of command `{}`, the principal of `{command}`",
                    field.name(a),
                    field.unit(a).rules.command
                ),
                "Charging",
                clauses::ONE_COMMAND,
            ));
        }
    }
    if counter_only && (field.arm(attackers[0]) != Arm::Cavalry || field.arm(t) != Arm::Cavalry) {
        return Err(forbidden(
            "a countercharge is cavalry charging cavalry",
            "Attacker Morale Check Results (in charge)",
            clauses::COUNTERCHARGE,
        ));
    }
    let canonical = format!(
        "{} {} at {}{}{}",
        if counter_only {
            "countercharge"
        } else {
            "charge"
        },
        attackers
            .iter()
            .map(|&a| field.id(a).to_string())
            .collect::<Vec<_>>()
            .join(" "),
        field.id(t),
        if attackers.len() > 1 {
            format!(" principal {}", field.id(attackers[0]))
        } else {
            String::new()
        },
        if stay { " stay" } else { "" }
    );
    let mut play = Play::new(state, dice);
    if counter_only {
        charge::countercharge_call(&mut play, attackers[0], t);
    } else {
        let group = Group {
            target: t,
            attackers: attackers.clone(),
            moving: vec![true; attackers.len()],
            stay,
        };
        charge::resolve(&mut play, &group, Kind::Declared);
    }
    let told: Vec<Told> = play
        .events
        .iter()
        .map(|e| Told {
            kind: e.kind.clone(),
            text: e.text.clone(),
        })
        .collect();
    let kinds: Vec<&str> = told.iter().map(|t| t.kind.as_str()).collect();
    let outcome = play
        .events
        .iter()
        .filter(|e| e.kind != "morale-check")
        .map(|e| e.text.clone())
        .collect::<Vec<_>>()
        .join(" ");
    let result = json!({
        "kinds": kinds,
        "units": units_after(&play.field),
    });
    let trace = std::mem::take(&mut play.trace);
    Ok(report(canonical, trace, outcome, result))
}

fn locked(
    state: &State,
    call: &str,
    w: &mut Cursor,
    dice: &mut dyn Dice,
) -> Result<UmpireReport, UmpireError> {
    let (a, d) = pair(state, call, w, "vs", "locked <unit> vs <unit>")?;
    let field = Field::new(state);
    let like = field.arm(a) == field.arm(d) && matches!(field.arm(a), Arm::Cavalry | Arm::Infantry);
    if !like {
        return Err(forbidden(
            &format!(
                "{} ({}) and {} ({}) are not cavalry against cavalry or infantry against infantry",
                field.name(a),
                field.arm(a).word(),
                field.name(d),
                field.arm(d).word()
            ),
            "Locked in Combat",
            clauses::LOCKED,
        ));
    }
    let mut trace = Trace::default();
    let (am, dm) = (
        charge::lock_modifiers(&field, a),
        charge::lock_modifiers(&field, d),
    );
    let (won, rounds) =
        charge::lock_dice(&mut trace, dice, (field.name(a), &am), (field.name(d), &dm));
    let (winner, loser) = if won { (a, d) } else { (d, a) };
    let flight = match field.arm(loser) {
        Arm::Cavalry => "11\" + 2d6",
        _ => "7\"",
    };
    let outcome = format!(
        "{} wins, {} loses and flees ({flight}).",
        field.name(winner),
        field.name(loser)
    );
    Ok(report(
        format!("locked {} vs {}", field.id(a), field.id(d)),
        trace,
        outcome,
        json!({
            "winner": field.id(winner),
            "loser": field.id(loser),
            "rounds": rounds.len(),
            "totals": rounds.iter().map(|(x, y)| vec![*x, *y]).collect::<Vec<_>>(),
        }),
    ))
}

fn flee(
    state: &State,
    call: &str,
    w: &mut Cursor,
    dice: &mut dyn Dice,
) -> Result<UmpireReport, UmpireError> {
    let (u, e) = pair(state, call, w, "from", "flee <unit> from <enemy>")?;
    let mut play = Play::new(state, dice);
    let direction = play.field.unit(e).facing;
    let fled = charge::flee_call(&mut play, u, direction, &[e]);
    let outcome = play
        .events
        .iter()
        .map(|e| e.text.clone())
        .collect::<Vec<_>>()
        .join(" ");
    let result = json!({
        "fled": fled,
        "units": units_after(&play.field),
    });
    let canonical = format!("flee {} from {}", play.field.id(u), play.field.id(e));
    let trace = std::mem::take(&mut play.trace);
    Ok(report(canonical, trace, outcome, result))
}

fn pursue(
    state: &State,
    call: &str,
    w: &mut Cursor,
    dice: &mut dyn Dice,
) -> Result<UmpireReport, UmpireError> {
    let (p, u) = pair(state, call, w, "after", "pursue <cavalry> after <unit>")?;
    let field = Field::new(state);
    if field.arm(p) != Arm::Cavalry {
        return Err(forbidden(
            &format!("{} is not cavalry", field.name(p)),
            "Cavalry pursuit",
            clauses::VICTORIOUS_PURSUE,
        ));
    }
    let mut play = Play::new(state, dice);
    charge::pursue_call(&mut play, p, u);
    let outcome = play
        .events
        .iter()
        .map(|e| e.text.clone())
        .collect::<Vec<_>>()
        .join(" ");
    let result = json!({
        "kinds": play.events.iter().map(|e| e.kind.clone()).collect::<Vec<_>>(),
        "units": units_after(&play.field),
    });
    let canonical = format!("pursue {} after {}", play.field.id(p), play.field.id(u));
    let trace = std::mem::take(&mut play.trace);
    Ok(report(canonical, trace, outcome, result))
}

fn follow_up(
    state: &State,
    call: &str,
    w: &mut Cursor,
    dice: &mut dyn Dice,
) -> Result<UmpireReport, UmpireError> {
    // `second` is the last word, whatever the prior target is called.
    let mut tokens = w.rest();
    let second = tokens.last().is_some_and(|t| t.text == "second");
    if second {
        tokens.pop();
    }
    let end = tokens
        .last()
        .map_or(w.end_column(), |t| t.column + t.text.chars().count());
    let (p, prior) = pair(
        state,
        call,
        &mut Cursor::from_tokens(tokens, end),
        "after",
        "follow-up <cavalry> after <prior target> [second]",
    )?;
    let field = Field::new(state);
    if field.arm(p) != Arm::Cavalry {
        return Err(forbidden(
            &format!("{} is not cavalry", field.name(p)),
            "Follow-up charges by cavalry",
            clauses::FOLLOW_UP_CHECK,
        ));
    }
    let Some(stood) = field.rect(prior) else {
        return Err(syntax(call, "the prior target is not on the table"));
    };
    let mut trace = Trace::default();
    let mut mods = standing(field.unit(p), field.params());
    mods.push(if second {
        Modifier::new("second follow-up charge", -2)
    } else {
        Modifier::new("first follow-up charge", -1)
    });
    let check = morale::roll(
        &mut trace,
        dice,
        field.params(),
        field.name(p),
        if second {
            "to decide a second follow-up charge"
        } else {
            "to decide a first follow-up charge"
        },
        mods,
    );
    // The prior target has fled: it is no candidate, nor in the way.
    let mut without = field.clone();
    without.remove(prior, "fled".to_string());
    let found = charge::candidates(&without, p, &stood);
    for (_, c) in &found {
        trace.note(match &c.refused {
            None => format!("{}: a target, {} inches away", c.unit, inches(c.distance)),
            Some(why) => format!("{}: {why}", c.unit),
        });
    }
    let chosen = found
        .iter()
        .find(|(_, c)| c.refused.is_none())
        .map(|(_, c)| c.unit.clone());
    let outcome = match (&chosen, check.passed) {
        (_, false) => format!(
            "{} fails: it pursues {} (\"{}\").",
            field.name(p),
            field.name(prior),
            clauses::FOLLOW_UP_FAIL
        ),
        (Some(c), true) => format!("{} passes and charges {c}.", field.name(p)),
        (None, true) => format!(
            "{} passes but finds no target: \"{}\"",
            field.name(p),
            clauses::NO_NEW_TARGET
        ),
    };
    let candidates: BTreeMap<String, Value> = found
        .iter()
        .map(|(_, c)| {
            (
                c.unit.clone(),
                json!({ "target": c.refused.is_none(), "why": c.refused.clone().unwrap_or_default() }),
            )
        })
        .collect();
    Ok(report(
        format!(
            "follow-up {} after {}{}",
            field.id(p),
            field.id(prior),
            if second { " second" } else { "" }
        ),
        trace,
        outcome,
        json!({
            "check": check,
            "chosen": chosen,
            "candidates": candidates,
        }),
    ))
}
