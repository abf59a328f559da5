//! The umpire's fire call on the table: one unit's fire attack at another
//! as the game state stands, measured as a turn measures it, resolved by the
//! Fire Routine. The state is not changed: the GM applies what the call
//! gives by a correction, where the call stands for play.

use super::fire_call::FireCallResult;
use super::words;
use crate::audit::dice::Dice;
use crate::rules::names;
use crate::rules::percentile_fire::field::Table;
use crate::rules::percentile_fire::field::eligible::{self, Request};
use crate::rules::percentile_fire::mechanics::fire::factors::Occasion;
use crate::rules::percentile_fire::mechanics::fire::routine::{self, Routine};
use crate::rules::percentile_fire::state::{Arm, Shot, State, Word};
use crate::rules::percentile_fire::turn::Phase;
use crate::rules::umpire::{Called, Trace, UmpireError, unread};
use crate::rules::words::{Cursor, MAX_NUMBER, ReadError};

const FORM: &str =
    "fire <unit> at <unit> [<shot>] [opportunity|passby|final-shock|supportive] [attack <n>]";

/// The call's words: the firing unit, its target, and what it fires
/// (`None` for its own choice), on what occasion and which attack.
type Words = (String, String, Option<Shot>, Option<Occasion>, u32);

fn read(w: &mut Cursor) -> Result<Words, ReadError> {
    w.expect("fire")?;
    let firer = w.word("the firing unit")?.text;
    w.expect("at")?;
    let target = w.word("the target")?.text;
    let (mut shot, mut occasion, mut attack) = (None, None, 1);
    while let Some(word) = w.next() {
        if let Some(s) = Shot::from_word(&word.text) {
            shot = Some(s);
        } else if let Some(o) = Occasion::from_word(&word.text) {
            occasion = Some(o);
        } else if word.text == "attack" {
            attack = w.number("which fire attack of the phase", 1..=MAX_NUMBER)?;
        } else {
            return Err(ReadError::at(&word, "a shot, an occasion or attack <n>"));
        }
    }
    Ok((firer, target, shot, occasion, attack))
}

/// Reads and resolves the call.
pub fn resolve(
    state: &State,
    text: &str,
    dice: &mut dyn Dice,
) -> Result<Called<FireCallResult>, UmpireError> {
    let (firer, target, shot, occasion, attack) =
        read(&mut words::cursor(text)).map_err(|e| unread(text, &e, FORM))?;
    let in_play = || state.units.iter().filter(|u| u.eliminated.is_none());
    let look = |r: &str| {
        names::find(in_play(), r).map_err(|e| UmpireError::Syntax {
            call: text.to_string(),
            problem: e.to_string(),
        })
    };
    let (f, t) = (look(&firer)?, look(&target)?);
    let table = Table::new(state);
    let occasion = occasion.unwrap_or(Occasion::Reciprocal);
    let phase = match occasion {
        Occasion::Reciprocal if f.rules.arm == Arm::Artillery => Phase::ArtilleryFire,
        Occasion::Reciprocal => Phase::InfantryFire,
        Occasion::Opportunity | Occasion::Passby => Phase::Movement,
        _ => Phase::Shock,
    };
    let req = Request {
        firer: f,
        target: t,
        occasion,
        phase,
        shot,
        attack,
        batteries_at_target: 0,
        hierarchy: occasion == Occasion::Reciprocal,
    };
    let plan = eligible::plan(&table, state, &req).map_err(|e| UmpireError::Forbidden {
        problem: format!("{} may not fire at {}: {}", f.id, t.id, e.problem),
        clause: e.clause.unwrap_or_default(),
    })?;
    let (readings, _) = super::readings(state);
    let mut trace = Trace::default();
    let fire =
        routine::resolve(&plan.attack, &state.params, readings, dice, &mut trace).map_err(|g| {
            UmpireError::Forbidden {
                problem: g.0,
                clause: "11.15 step 5".to_string(),
            }
        })?;
    trace.outcome = format!(
        "{} at {}: {}% to hit; roll {}: {}",
        f.id,
        plan.target,
        fire.percent,
        routine::d100_text(fire.roll),
        if fire.lost == 0 {
            "no loss".to_string()
        } else {
            format!("{} lost", fire.lost)
        }
    );
    let mut canonical = format!("fire {} at {}", f.id, t.id);
    if let Some(s) = shot {
        canonical.push_str(&format!(" {}", s.word()));
    }
    if occasion != Occasion::Reciprocal {
        canonical.push_str(&format!(" {}", occasion.word()));
    }
    if attack > 1 {
        canonical.push_str(&format!(" attack {attack}"));
    }
    let routine_name = match fire.routine {
        Routine::Artillery => "11.15 Fire Routine for Artillery",
        Routine::SmallArms => "11.16 Fire Routine for Infantry or Cavalry units",
    };
    Ok(trace.finish(canonical, FireCallResult { fire, routine_name }))
}
