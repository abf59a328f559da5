//! Umpire calls for the percentile fire chapter: one resolution asked for
//! in words, answered with every lookup, modifier and die, from the
//! campaign's own tables.

pub mod fire_call;
pub mod on_table;
pub mod words;

use serde::Serialize;

use self::fire_call::FireCall;
use super::mechanics::fire::factors::ScreenReading;
use super::mechanics::fire::routine::{self, CriticalRoll, OfficerRoll, Readings};
use super::mechanics::fire::zone;
use super::setup::{NEW_ROLL_FOR_EXTRA_FIGURES, ROUND_EACH_STEP, SCREEN_BY_A_THIRD};
use super::state::State;
use crate::audit::dice::Dice;
use crate::rules::umpire::{Called, Trace, UmpireError, UmpireReport, unread};
use crate::rules::words::{Cursor, MAX_NUMBER, ReadError, inches};

/// How each call is written.
pub const HELP: &str = "\
Percentile fire umpire calls (commas are read as spaces; the tables are the campaign's):

fire <n> x <weapon> class <A|B|C> [<shot>|<line>] <massed|linear> [target] <range>
     [against battery|battery-in-square|train] [in-square] [disordered] [in-building]
     [opportunity|passby|final-shock|supportive] [charging] [attack <n>] [screened]
     [indirect] [militia] [officers <n>] [artillery-officer] [cover <terrain>]
     [with <modifier> ...]
  One fire attack by the Fire Routine (11.15 artillery, 11.16 infantry or cavalry).
  <n> counts the cannon or figures firing (a square: all its figures, 11.24a).
  <shot>: roundshot, shot, shell, shrapnel, rocket (artillery; roundshot or shell
  by default). <line>: two-rank, three-rank, square, mounted, skirmish (small arms).
  against battery: artillery fire takes cannon (11.74) and rolls for a critical hit
  (11.75); attack <n>: the n-th fire attack of the unit in the phase (11.87);
  officers <n>: officers attached to the target (5% a figure, step 11).
  e.g. fire 6 x 12pdr, class B, roundshot, massed target, 8 inches
       fire 12 x musket class B two-rank linear 1.5\" opportunity attack 2

critical hit [shellfire]
  The Artillery/train Critical Hit Table (11.75); shellfire and rockets add 1.

officer hit <n> figures
  Whether an attached officer was hit when <n> figures were hit (step 11), and the
  random officer hit chart.

zones <weapon> [<range>]
  The fire zones of a weapon (11.32-11.37), and which hold a range.

fire <unit> at <unit> [<shot>] [opportunity|passby|final-shock|supportive] [attack <n>]
  One fire attack measured on the table as the game state stands: range, zone, the
  figures that bear, field of fire, sight, target category, cover, as a turn would.
  Without an occasion it is the unit's reciprocal fire, the hierarchy of targets
  applying. The state is not changed.
  e.g. fire 43rd-foot at voltigeurs

massed battery <n> cannon
  A battery with <n> cannon counted within 6\", its own included: 17+ is a massed
  target (11.63).
";

/// The typed result of any call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "call", rename_all = "kebab-case")]
pub enum CallResult {
    Fire(fire_call::FireCallResult),
    Critical(CriticalRoll),
    Officer(OfficerRoll),
    Zones(ZonesResult),
    Massed(MassedResult),
}

/// The campaign's readings of the contested rulings.
pub fn readings(state: &State) -> (Readings, ScreenReading) {
    let on = |o: &str| state.options.iter().any(|x| x == o);
    (
        Readings {
            round_each_step: on(ROUND_EACH_STEP),
            new_roll_for_extra_figures: on(NEW_ROLL_FOR_EXTRA_FIGURES),
        },
        ScreenReading {
            by_a_third: on(SCREEN_BY_A_THIRD),
        },
    )
}

/// Performs one umpire call; the report carries the typed result as JSON.
pub fn call(state: &State, text: &str, dice: &mut dyn Dice) -> Result<UmpireReport, UmpireError> {
    resolve(state, text, dice).map(|called| UmpireReport {
        result: serde_json::to_value(&called.result).unwrap_or_default(),
        ..called.report
    })
}

fn wrap<T>(called: Called<T>, into: impl FnOnce(T) -> CallResult) -> Called<CallResult> {
    Called {
        result: into(called.result),
        report: called.report,
    }
}

/// How a call is read and made: its words after the call's name, the
/// state and the dice.
type Call = fn(&State, &str, &mut Cursor, &mut dyn Dice) -> Result<Called<CallResult>, UmpireError>;

/// The calls by name, each read by a function of its own.
const CALLS: &[(&[&str], Call)] = &[
    (&["fire"], fire),
    (&["critical"], critical),
    (&["officer"], officer),
    (&["zones"], |state, text, w, _| {
        zones(text, w, state).map(|c| wrap(c, CallResult::Zones))
    }),
    (&["massed"], |_, text, w, _| {
        massed(text, w).map(|c| wrap(c, CallResult::Massed))
    }),
];

/// Performs one umpire call and keeps its typed result.
pub fn resolve(
    state: &State,
    text: &str,
    dice: &mut dyn Dice,
) -> Result<Called<CallResult>, UmpireError> {
    let mut w = words::cursor(text);
    let call = crate::rules::umpire::call_of(&mut w, CALLS)?;
    call(state, text, &mut w, dice)
}

/// A fire attack: on the table between two units, or set up in words.
fn fire(
    state: &State,
    text: &str,
    w: &mut Cursor,
    dice: &mut dyn Dice,
) -> Result<Called<CallResult>, UmpireError> {
    // A unit's name is no count: `fire 6 x ...` and `fire 6x12pdr` are
    // calls in words.
    if w.peek()
        .is_some_and(|n| n.parse::<u32>().is_err() && !n.contains('x'))
    {
        return on_table::resolve(state, text, dice).map(|c| wrap(c, CallResult::Fire));
    }
    let (readings, screen) = readings(state);
    let call = FireCall::parse(text, &state.params)?;
    fire_call::resolve(&call, &state.params, readings, screen, dice)
        .map(|c| wrap(c, CallResult::Fire))
}

/// `critical hit [shellfire]`: the Artillery/train Critical Hit Table.
fn critical(
    state: &State,
    text: &str,
    w: &mut Cursor,
    dice: &mut dyn Dice,
) -> Result<Called<CallResult>, UmpireError> {
    let unread = |e| unread(text, &e, "critical hit [shellfire]");
    w.expect("hit").map_err(unread)?;
    let shellfire = w
        .eat_any(&[("shellfire", ()), ("shell", ()), ("rocket", ())])
        .is_some();
    w.finish().map_err(unread)?;
    let mut trace = Trace::default();
    let roll = routine::critical_roll("critical hit", shellfire, &state.params, dice, &mut trace);
    trace.outcome = format!("critical hit: {}", roll.effect.word());
    let canonical = if shellfire {
        "critical hit shellfire"
    } else {
        "critical hit"
    };
    Ok(wrap(
        trace.finish(canonical.to_string(), roll),
        CallResult::Critical,
    ))
}

/// `officer hit <n> figures`: whether an attached officer was hit (step 11).
fn officer(
    state: &State,
    text: &str,
    w: &mut Cursor,
    dice: &mut dyn Dice,
) -> Result<Called<CallResult>, UmpireError> {
    let unread = |e| unread(text, &e, "officer hit <n> figures");
    w.expect("hit").map_err(unread)?;
    let n = w
        .number("the figures hit", 1..=MAX_NUMBER)
        .map_err(unread)?;
    w.eat_any(&[("figures", ()), ("figure", ())]);
    w.finish().map_err(unread)?;
    let mut trace = Trace::default();
    let roll = routine::officer_roll(
        "the officer",
        n,
        "officer hit",
        "11.15 step 11",
        &state.params,
        dice,
        &mut trace,
    );
    trace.outcome = match roll.effect {
        Some(e) => format!("the officer is hit: {}", e.word()),
        None => "the officer is not hit".to_string(),
    };
    Ok(wrap(
        trace.finish(format!("officer hit {n} figures"), roll),
        CallResult::Officer,
    ))
}

/// The zones of a weapon, and those a range falls in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ZonesResult {
    pub weapon: String,
    /// Each zone, `name from-to`.
    pub zones: Vec<String>,
    /// The zones that hold the range asked about.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub holding: Vec<String>,
}

fn zones(text: &str, w: &mut Cursor, state: &State) -> Result<Called<ZonesResult>, UmpireError> {
    let unread = |e| unread(text, &e, "zones <weapon> [<range>]");
    let weapons = || {
        let names: Vec<&str> = state.params.weapons.keys().map(String::as_str).collect();
        format!("a weapon of the campaign ({})", names.join(", "))
    };
    let weapon = w.word(&weapons()).map_err(unread)?;
    if !state.params.weapons.contains_key(&weapon.text) {
        return Err(unread(ReadError::at(&weapon, weapons())));
    }
    let weapon = weapon.text;
    let range = if w.is_done() {
        None
    } else {
        Some(i64::from(w.inches("the range").map_err(unread)?))
    };
    w.finish().map_err(unread)?;
    let mut trace = Trace::default();
    let all = zone::zones_of(&state.params, &weapon);
    let mut zones = Vec::new();
    let mut holding = Vec::new();
    for (z, from, to) in all {
        let text = format!("{} {}-{}\"", z.name(), inches(from), inches(to));
        trace.lookup("Weapon Range Chart", weapon.clone(), text.clone());
        if let Some(r) = range {
            // A zone holds its far end; one starting beyond another's end
            // ("from beyond the minimum Range Fire Zone") not its start.
            let starts_beyond = matches!(z, zone::Zone::Maximum | zone::Zone::MaximumRoundshot);
            let inside = if starts_beyond { r > from } else { r >= from } && r <= to;
            if inside {
                holding.push(z.name().to_string());
            }
        }
        zones.push(text);
    }
    trace.outcome = match range {
        Some(r) if holding.is_empty() => {
            format!("{}\" is beyond every zone of a {weapon}", inches(r))
        }
        Some(r) => format!("{}\": {}", inches(r), holding.join(", ")),
        None => zones.join("; "),
    };
    let canonical = match range {
        Some(r) => format!("zones {weapon} {}\"", inches(r)),
        None => format!("zones {weapon}"),
    };
    Ok(trace.finish(
        canonical,
        ZonesResult {
            weapon,
            zones,
            holding,
        },
    ))
}

/// 11.63: "If the result is 17+ cannon, that battery is a massed artillery
/// target."
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MassedResult {
    pub cannon: u32,
    pub massed: bool,
}

/// "17+ cannon" (11.63).
pub const MASSED_BATTERY: u32 = 17;

fn massed(text: &str, w: &mut Cursor) -> Result<Called<MassedResult>, UmpireError> {
    let unread = |e| unread(text, &e, "massed battery <n> cannon");
    w.expect("battery").map_err(unread)?;
    let n = w
        .number("the cannon counted", 0..=MAX_NUMBER)
        .map_err(unread)?;
    w.eat("cannon");
    w.finish().map_err(unread)?;
    let mut trace = Trace::default();
    let massed = n >= MASSED_BATTERY;
    trace.note(format!(
        "{n} cannon within 6\" of the battery's base, its own included: {}",
        if massed {
            "17 or more"
        } else {
            "fewer than 17"
        }
    ));
    trace.outcome = if massed {
        "a massed artillery target (11.63)".to_string()
    } else {
        "not a massed artillery target (11.63)".to_string()
    };
    Ok(trace.finish(
        format!("massed battery {n} cannon"),
        MassedResult { cannon: n, massed },
    ))
}
