//! Umpire calls for the percentile fire chapter: one resolution asked for
//! in words, answered with every lookup, modifier and die, from the
//! campaign's own tables.

pub mod fire_call;
pub mod on_table;
pub mod words;

use serde::Serialize;

use self::fire_call::FireCall;
use self::words::Words;
use super::fire::factors::ScreenReading;
use super::fire::routine::{self, CriticalRoll, OfficerRoll, Readings};
use super::fire::zone;
use super::setup::{NEW_ROLL_FOR_EXTRA_FIGURES, ROUND_EACH_STEP, SCREEN_BY_A_THIRD};
use super::state::State;
use crate::audit::dice::Dice;
use crate::rules::umpire::{Called, Trace, UmpireError, UmpireReport};
use crate::rules::words::inches;

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

/// The calls by name.
const CALLS: &[&str] = &["fire", "critical", "officer", "zones", "massed"];

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

fn syntax(text: &str, problem: &str) -> UmpireError {
    UmpireError::Syntax {
        call: text.to_string(),
        problem: problem.to_string(),
    }
}

/// Performs one umpire call and keeps its typed result.
pub fn resolve(
    state: &State,
    text: &str,
    dice: &mut dyn Dice,
) -> Result<Called<CallResult>, UmpireError> {
    let mut w = Words::new(text);
    let name = w.next().unwrap_or_default();
    let params = &state.params;
    let (readings, screen) = readings(state);
    match name.as_str() {
        "fire"
            if w.peek()
                .is_some_and(|n| n.parse::<u32>().is_err() && !n.contains('x')) =>
        {
            on_table::resolve(state, text, dice).map(|c| wrap(c, CallResult::Fire))
        }
        "fire" => {
            let call = FireCall::parse(text, params)?;
            fire_call::resolve(&call, params, readings, screen, dice)
                .map(|c| wrap(c, CallResult::Fire))
        }
        "critical" => {
            let rest = w.rest();
            let shellfire = match rest.iter().map(String::as_str).collect::<Vec<_>>()[..] {
                ["hit"] => false,
                ["hit", "shellfire" | "shell" | "rocket"] => true,
                _ => return Err(syntax(text, "write critical hit [shellfire]")),
            };
            let mut trace = Trace::default();
            let roll = routine::critical_roll("critical hit", shellfire, params, dice, &mut trace);
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
        "officer" => {
            let ok = w.eat("hit");
            let n = w.number();
            let tail = w.rest();
            let (true, Some(n), true) = (
                ok,
                n.filter(|n| *n >= 1),
                tail.is_empty() || tail == ["figures"] || tail == ["figure"],
            ) else {
                return Err(syntax(text, "write officer hit <n> figures (1 or more)"));
            };
            let mut trace = Trace::default();
            let roll = routine::officer_roll(
                "the officer",
                n,
                "officer hit",
                "11.15 step 11",
                params,
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
        "zones" => zones(text, &mut w, state).map(|c| wrap(c, CallResult::Zones)),
        "massed" => massed(text, &mut w).map(|c| wrap(c, CallResult::Massed)),
        other => Err(UmpireError::UnknownCall {
            name: other.to_string(),
            known: CALLS.join(", "),
        }),
    }
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

fn zones(text: &str, w: &mut Words, state: &State) -> Result<Called<ZonesResult>, UmpireError> {
    let weapon = w
        .next()
        .ok_or_else(|| syntax(text, "write zones <weapon> [<range>]"))?;
    if !state.params.weapons.contains_key(&weapon) {
        return Err(syntax(
            text,
            &format!(
                "no weapon `{weapon}`; the weapons are {}",
                state
                    .params
                    .weapons
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let range = match w.next() {
        Some(r) => {
            w.eat_inch_word();
            Some(Words::inches(&r).ok_or_else(|| syntax(text, "the range is in inches: 8\""))?)
        }
        None => None,
    };
    if w.peek().is_some() {
        return Err(syntax(text, "write zones <weapon> [<range>]"));
    }
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

fn massed(text: &str, w: &mut Words) -> Result<Called<MassedResult>, UmpireError> {
    let ok = w.eat("battery");
    let n = w.number();
    w.eat("cannon");
    let (true, Some(n), None) = (ok, n, w.peek()) else {
        return Err(syntax(text, "write fire <unit> at <unit> [<shot>] [opportunity|passby|final-shock|supportive] [attack <n>]
  One fire attack measured on the table as the game state stands: range, zone, the
  figures that bear, field of fire, sight, target category, cover, as a turn would.
  Without an occasion it is the unit's reciprocal fire, the hierarchy of targets
  applying. The state is not changed.
  e.g. fire 43rd-foot at voltigeurs

massed battery <n> cannon"));
    };
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
