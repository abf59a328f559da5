//! How a scenario is won: the victory conditions a scenario states
//! (`[victory]` in scenario.toml), judged on the state the game ended in.
//! None of the four rules texts says how a battle is won beyond an army
//! breaking, so the scenario says it: objectives held at the end, enemy
//! units eliminated, and whether an army the rules count as broken loses
//! outright. Pure: the same final state gives the same verdict, which
//! anyone can work out again from the archive's last state and the
//! scenario.

use serde::{Deserialize, Serialize};

use crate::geometry::Hundredths;
use crate::rules::GameState;
use crate::rules::board::Location;

/// A scenario's victory conditions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Victory {
    /// Places worth points to the side that holds them at the end.
    #[serde(default)]
    pub objectives: Vec<Objective>,
    /// Points a side scores for each enemy unit eliminated.
    pub points_per_unit: u32,
    /// How many points ahead of every other side a side must be to win;
    /// closer than that, the battle is drawn.
    pub margin: u32,
    /// Whether a side whose army the rules count as broken loses whatever
    /// the points say.
    pub broken_army_loses: bool,
}

/// A place worth points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Objective {
    pub name: String,
    pub at: Location,
    /// On a table, how near (front centre to the place, in hundredths of an
    /// inch) a unit must stand to hold it; on a hex map it must stand in
    /// the hex.
    pub radius: Hundredths,
    pub points: u32,
}

/// Why the verdict is what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decided {
    /// Every other side's army broke.
    ArmiesBroken,
    /// The points.
    Points,
}

/// One side's score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Score {
    pub side: String,
    pub points: u32,
    /// The objectives it holds, by name.
    pub held: Vec<String>,
    /// Enemy units eliminated.
    pub enemy_lost: u32,
    /// Whether the rules count its army as broken.
    pub broken: bool,
}

/// Who won, or that the battle is drawn, and the scores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The winning side; `None` for a draw.
    pub winner: Option<String>,
    pub decided: Decided,
    /// Every side's score, in the state's order of sides.
    pub scores: Vec<Score>,
}

/// Who holds `objective` in `state`: the one side with a unit in play on
/// it, or nobody where no side or several sides have one.
pub fn holder(objective: &Objective, state: &GameState) -> Option<String> {
    let mut sides: Vec<&str> = state
        .units
        .iter()
        .filter(|u| u.eliminated.is_none() && on(objective, u.location))
        .map(|u| u.side.as_str())
        .collect();
    sides.sort_unstable();
    sides.dedup();
    match sides.as_slice() {
        [one] => Some((*one).to_string()),
        _ => None,
    }
}

fn on(objective: &Objective, location: Location) -> bool {
    match (objective.at, location) {
        (Location::Table { x, y }, Location::Table { x: ux, y: uy }) => {
            let (dx, dy) = (i128::from(ux - x), i128::from(uy - y));
            let r = i128::from(objective.radius);
            dx * dx + dy * dy <= r * r
        }
        (Location::Hex { column, row }, Location::Hex { column: c, row: r }) => {
            column == c && row == r
        }
        _ => false,
    }
}

/// The verdict of `victory` on `state`, the state the game ended in, with
/// `broken` the sides whose army the rules count as broken in it.
pub fn judge(victory: &Victory, state: &GameState, broken: &[String]) -> Verdict {
    let held: Vec<(String, Option<String>, u32)> = victory
        .objectives
        .iter()
        .map(|o| (o.name.clone(), holder(o, state), o.points))
        .collect();
    let scores: Vec<Score> = state
        .sides
        .iter()
        .map(|side| {
            let enemy_lost = state
                .units
                .iter()
                .filter(|u| u.side != *side && u.eliminated.is_some())
                .count();
            let enemy_lost = u32::try_from(enemy_lost).unwrap_or(u32::MAX);
            let mine: Vec<&(String, Option<String>, u32)> = held
                .iter()
                .filter(|(_, h, _)| h.as_deref() == Some(side.as_str()))
                .collect();
            let points = mine.iter().map(|(_, _, p)| *p).fold(
                enemy_lost.saturating_mul(victory.points_per_unit),
                u32::saturating_add,
            );
            Score {
                side: side.clone(),
                points,
                held: mine.iter().map(|(n, _, _)| n.clone()).collect(),
                enemy_lost,
                broken: broken.contains(side),
            }
        })
        .collect();
    if victory.broken_army_loses && scores.iter().any(|s| s.broken) {
        let standing: Vec<&Score> = scores.iter().filter(|s| !s.broken).collect();
        let winner = match standing.as_slice() {
            [one] => Some(one.side.clone()),
            _ => None,
        };
        // Several sides still standing go on to the points among them.
        if winner.is_some() || standing.is_empty() {
            return Verdict {
                winner,
                decided: Decided::ArmiesBroken,
                scores,
            };
        }
    }
    let contenders: Vec<&Score> = scores
        .iter()
        .filter(|s| !(victory.broken_army_loses && s.broken))
        .collect();
    let best = contenders.iter().map(|s| s.points).max().unwrap_or(0);
    let leaders: Vec<&&Score> = contenders.iter().filter(|s| s.points == best).collect();
    let runner_up = contenders
        .iter()
        .filter(|s| s.points < best)
        .map(|s| s.points)
        .max();
    let winner = match leaders.as_slice() {
        [one] if best - runner_up.unwrap_or(0) >= victory.margin.max(1) => Some(one.side.clone()),
        _ => None,
    };
    Verdict {
        winner,
        decided: Decided::Points,
        scores,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::MapSpec;
    use crate::rules::state::{RawPart, UnitState};
    use std::collections::BTreeMap;

    fn unit(id: &str, side: &str, x: Hundredths, y: Hundredths, out: bool) -> UnitState<RawPart> {
        UnitState {
            id: id.into(),
            name: id.into(),
            side: side.into(),
            location: Location::Table { x, y },
            facing: 0,
            strength: 10,
            original_strength: 10,
            eliminated: out.then(|| "shattered".to_string()),
            rules: RawPart::new(),
        }
    }

    fn state(units: Vec<UnitState<RawPart>>) -> GameState {
        GameState {
            campaign: "c".into(),
            ruleset: "r".into(),
            turn: 10,
            phase: 0,
            active_side: "blue".into(),
            sides: vec!["blue".into(), "red".into()],
            map: MapSpec::Table {
                width: 4800,
                depth: 4800,
            },
            terrain: Vec::new(),
            units,
            generals: Vec::new(),
            standing_orders: BTreeMap::new(),
            turn_limit: Some(10),
            options: Vec::new(),
            nations: BTreeMap::new(),
            finished: Some("the turn limit (10) was reached".into()),
            params: serde_json::Value::Null,
            game: RawPart::new(),
        }
    }

    fn village(points: u32) -> Objective {
        Objective {
            name: "the village".into(),
            at: Location::Table { x: 1000, y: 1000 },
            radius: 300,
            points,
        }
    }

    fn conditions(objectives: Vec<Objective>) -> Victory {
        Victory {
            objectives,
            points_per_unit: 1,
            margin: 1,
            broken_army_loses: true,
        }
    }

    #[test]
    fn an_objective_is_held_by_the_one_side_with_a_unit_in_play_on_it() {
        let o = village(3);
        // 3" from the village exactly is on it; a shattered unit holds nothing.
        let s = state(vec![
            unit("b1", "blue", 1300, 1000, false),
            unit("r1", "red", 1000, 1000, true),
        ]);
        assert_eq!(holder(&o, &s).as_deref(), Some("blue"));
        let s = state(vec![
            unit("b1", "blue", 1300, 1000, false),
            unit("r1", "red", 1000, 1100, false),
        ]);
        assert_eq!(holder(&o, &s), None, "contested: nobody holds it");
        let s = state(vec![unit("b1", "blue", 1301, 1000, false)]);
        assert_eq!(holder(&o, &s), None, "beyond the radius");
    }

    #[test]
    fn points_decide_with_the_margin_and_a_tie_is_a_draw() {
        // Blue holds the village (3) and eliminated one red unit (1): 4
        // against red's 1 (one blue unit eliminated).
        let s = state(vec![
            unit("b1", "blue", 1000, 1000, false),
            unit("b2", "blue", 0, 0, true),
            unit("r1", "red", 3000, 3000, true),
            unit("r2", "red", 3000, 3000, false),
        ]);
        let v = judge(&conditions(vec![village(3)]), &s, &[]);
        assert_eq!(v.winner.as_deref(), Some("blue"));
        assert_eq!(v.decided, Decided::Points);
        assert_eq!(
            v.scores.iter().map(|s| s.points).collect::<Vec<_>>(),
            [4, 1]
        );
        assert_eq!(v.scores[0].held, ["the village"]);
        // A margin of 4 is not reached by 3 points: a draw.
        let mut c = conditions(vec![village(3)]);
        c.margin = 4;
        assert_eq!(judge(&c, &s, &[]).winner, None);
        // Equal points: a draw.
        let v = judge(&conditions(vec![village(0)]), &s, &[]);
        assert_eq!(v.winner, None);
    }

    #[test]
    fn a_broken_army_loses_whatever_the_points_unless_the_scenario_says_otherwise() {
        let s = state(vec![
            unit("b1", "blue", 1000, 1000, false),
            unit("r1", "red", 3000, 3000, false),
        ]);
        let v = judge(&conditions(vec![village(3)]), &s, &["blue".to_string()]);
        assert_eq!(v.winner.as_deref(), Some("red"));
        assert_eq!(v.decided, Decided::ArmiesBroken);
        assert!(v.scores[0].broken);
        let both = ["blue".to_string(), "red".to_string()];
        let v = judge(&conditions(vec![village(3)]), &s, &both);
        assert_eq!((v.winner, v.decided), (None, Decided::ArmiesBroken));
        let mut c = conditions(vec![village(3)]);
        c.broken_army_loses = false;
        let v = judge(&c, &s, &["blue".to_string()]);
        assert_eq!(
            (v.winner.as_deref(), v.decided),
            (Some("blue"), Decided::Points)
        );
    }
}
