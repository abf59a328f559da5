//! The end of a game in words: the scenario's verdict (`rules::victory`)
//! on the state the game ended in, with the sides named as the campaign
//! names them, for the last report, the chronicle and the demo alike.

use serde_json::{Value, json};

use crate::campaign::Campaign;
use crate::rules::reading::Reading;
use crate::rules::state::PartError;
use crate::rules::victory::{self, Decided, Verdict};
use crate::rules::{GameState, Ruleset};

/// The verdict on `state`, if the game is over and the scenario says how
/// it is won.
pub fn verdict(campaign: &Campaign, ruleset: &dyn Ruleset, state: &Reading) -> Option<Verdict> {
    state.finished.as_ref()?;
    let conditions = campaign.scenario.victory.as_ref()?;
    Some(victory::judge(
        conditions,
        state,
        &ruleset.broken_armies(state),
    ))
}

/// The verdict in one sentence: who won and why, then each side's points.
pub fn sentence(campaign: &Campaign, verdict: &Verdict) -> String {
    let name = |id: &str| campaign.side_name(id);
    let plural = |n: u32, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    let broken: Vec<String> = verdict
        .scores
        .iter()
        .filter(|s| s.broken)
        .map(|s| name(&s.side))
        .collect();
    let head = match (&verdict.winner, verdict.decided) {
        (Some(w), Decided::ArmiesBroken) => {
            format!("{} wins: {} broke", name(w), broken.join(" and "))
        }
        (None, Decided::ArmiesBroken) => {
            format!("The battle is drawn: {} broke", broken.join(" and "))
        }
        (Some(w), Decided::Points) => format!("{} wins on points", name(w)),
        (None, Decided::Points) => "The battle is drawn on points".to_string(),
    };
    let scores: Vec<String> = verdict
        .scores
        .iter()
        .map(|s| {
            let mut why = Vec::new();
            if !s.held.is_empty() {
                why.push(format!("holding {}", s.held.join(", ")));
            }
            why.push(format!(
                "{} eliminated",
                plural(s.enemy_lost, "enemy unit", "enemy units")
            ));
            format!(
                "{} {} ({})",
                name(&s.side),
                plural(s.points, "point", "points"),
                why.join("; ")
            )
        })
        .collect();
    format!("{}. {}.", head, scores.join(", "))
}

/// How the game ended, for people: the rule that ended it in its own
/// words, with each side it names as the campaign names it; `None` while
/// the game goes on. Where the ruleset keeps no sides apart (a turn limit),
/// the words the state holds.
pub fn ending(campaign: &Campaign, ruleset: &dyn Ruleset, state: &Reading) -> Option<String> {
    let finished = state.finished.as_ref()?;
    Some(match ruleset.ending(state) {
        Some(words) => words.render(|id| campaign.side_name(id)),
        None => finished.clone(),
    })
}

/// [`ending`] of a state not yet read: read only once the game is over,
/// so that the many checks of a game going on decode nothing.
pub fn ending_of(
    campaign: &Campaign,
    ruleset: &dyn Ruleset,
    state: &GameState,
) -> Result<Option<String>, PartError> {
    if state.finished.is_none() {
        return Ok(None);
    }
    Ok(ending(campaign, ruleset, &ruleset.read(state)?))
}

/// What a template is given of the end: `null` while the game goes on or
/// where the scenario names no winner.
pub fn context(campaign: &Campaign, ruleset: &dyn Ruleset, state: &Reading) -> Value {
    let Some(v) = verdict(campaign, ruleset, state) else {
        return Value::Null;
    };
    let name = |id: &str| campaign.side_name(id);
    json!({
        "sentence": sentence(campaign, &v),
        "winner": v.winner.as_deref().map(name),
        "decided": v.decided,
        "scores": v.scores.iter().map(|s| json!({
            "side": s.side,
            "name": name(&s.side),
            "points": s.points,
            "held": s.held,
            "enemy_lost": s.enemy_lost,
            "broken": s.broken,
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::victory::Score;

    fn score(side: &str, points: u32, held: &[&str], enemy_lost: u32, broken: bool) -> Score {
        Score {
            side: side.into(),
            points,
            held: held.iter().map(|h| h.to_string()).collect(),
            enemy_lost,
            broken,
        }
    }

    #[test]
    fn the_verdict_names_the_sides_as_the_campaign_does() {
        let turn = crate::report::sample::demo_turn().expect("the demo campaign loads");
        let campaign = &turn.campaign;
        let (french, austrian) = (&campaign.sides[0], &campaign.sides[1]);
        let v = Verdict {
            winner: Some(austrian.id.clone()),
            decided: Decided::ArmiesBroken,
            scores: vec![
                score(&french.id, 4, &[], 4, true),
                score(&austrian.id, 5, &["Mühlbach"], 1, false),
            ],
        };
        assert_eq!(
            sentence(campaign, &v),
            format!(
                "{a} wins: {f} broke. {f} 4 points (4 enemy units eliminated), {a} 5 points (holding Mühlbach; 1 enemy unit eliminated).",
                a = austrian.name,
                f = french.name
            )
        );
        let v = Verdict {
            winner: None,
            decided: Decided::Points,
            scores: vec![
                score(&french.id, 1, &[], 1, false),
                score(&austrian.id, 0, &[], 0, false),
            ],
        };
        assert!(sentence(campaign, &v).starts_with("The battle is drawn on points. "));
        assert!(!sentence(campaign, &v).contains(&format!("{} ", french.id)));
    }

    #[test]
    fn a_report_is_given_the_verdict_once_the_game_is_over_and_not_before() {
        let turn = crate::report::sample::demo_turn().expect("the demo campaign loads");
        let mut campaign = turn.campaign.clone();
        let ruleset = crate::rules::ruleset_for(&turn.next.ruleset).expect("known");
        campaign.scenario.victory = Some(crate::rules::victory::Victory {
            objectives: Vec::new(),
            points_per_unit: 1,
            margin: 1,
            broken_army_loses: true,
        });
        let mut next = turn.next.clone();
        next.finished = None;
        assert_eq!(
            context(&campaign, ruleset, &ruleset.read(&next).expect("reads")),
            Value::Null
        );
        next.finished = Some("the turn limit (1) was reached".into());
        let read = ruleset.read(&next).expect("the state reads");
        let told = context(&campaign, ruleset, &read);
        assert!(
            told["sentence"]
                .as_str()
                .is_some_and(|s| s.contains("points")),
            "{told}"
        );
        assert_eq!(
            told["scores"].as_array().map(Vec::len),
            Some(campaign.sides.len())
        );
        campaign.scenario.victory = None;
        assert_eq!(context(&campaign, ruleset, &read), Value::Null);
    }
}
