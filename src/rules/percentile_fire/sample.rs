//! A made-up phase for the report's preview: the demo campaign's armies in
//! the Reciprocal Artillery Fire Phase of turn 1, both sides firing as the
//! bot would, with dice given in advance rather than drawn.

use std::collections::BTreeMap;

use super::PercentileFire;
use super::bot;
use super::state::State;
use super::turn::Phase;
use crate::audit::dice::{Dice, Die, Roll};
use crate::rules::ruleset::{Preview, Rules, check_typed};
use crate::rules::told::About;

/// Made-up dice, each kind from its own round of values, logged as the
/// audited dice log them.
#[derive(Default)]
struct Made {
    log: Vec<Roll>,
}

impl Dice for Made {
    fn throw(&mut self, die: Die, purpose: &str, about: Option<About>) -> u32 {
        const PERCENT: [u32; 8] = [37, 12, 88, 4, 61, 25, 95, 7];
        const SIX: [u32; 6] = [4, 2, 6, 1, 5, 3];
        let n = self.log.len();
        let value = match die {
            Die::D100 => PERCENT[n % PERCENT.len()],
            _ => SIX[n % SIX.len()].min(die.range().1).max(die.range().0),
        };
        let index = u32::try_from(n).unwrap_or(u32::MAX);
        self.log.push(Roll {
            index,
            purpose: purpose.to_string(),
            die,
            sides: die.sides(),
            faces: vec![value],
            value,
            first_word: u64::from(index),
            words: 1,
            about,
        });
        value
    }

    fn log(&self) -> &[Roll] {
        &self.log
    }
}

/// The preview phase from the state the demo begins in.
pub fn preview(initial: &State) -> Preview<PercentileFire> {
    let mut prior = initial.clone();
    prior.phase = Phase::ArtilleryFire.index();
    let mut orders = BTreeMap::new();
    for side in &prior.sides {
        let text = bot::orders_for(&prior, side).join("\n");
        orders.insert(
            side.clone(),
            check_typed(&PercentileFire, &prior, side, &text).accepted,
        );
    }
    let mut dice = Made::default();
    let (next, events) = PercentileFire.resolve(&prior, &orders, &mut dice);
    Preview {
        prior,
        next,
        events,
        rolls: dice.log().to_vec(),
    }
}
