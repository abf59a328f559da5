//! A fire attack's modifiers, in the order they apply: the zone's (the
//! Maximum Roundshot Zone, the accuracy table, indirect fire), then those
//! of the Fire Combat Modifiers table the situation calls for (cover, an
//! artillery officer, a battery's dispersement, any the umpire names), then
//! the skirmish screen (11.46), then the doubling of opportunity, passby,
//! final shock and supportive fire (11.81-11.85), and last the x2/3 of each
//! fire attack after the first in the phase (11.87), which the example
//! applies to "a final BASE MODIFIER value". Rounded up once at the end the
//! order does not change the percent; rounded at each step (ruling PF-6)
//! it is this order.

use super::Refusal;
use super::routine::Routine;
use crate::rules::kernel::{Factor, Ratio};
use crate::rules::percentile_fire::ground::TerrainKind;
use crate::rules::percentile_fire::params::{Params, modifier};

/// When a fire attack is made (11.0, 11.80).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Occasion {
    /// In a Reciprocal Fire Phase.
    Reciprocal,
    Opportunity,
    Passby,
    FinalShock,
    Supportive,
}

impl Occasion {
    pub const WORDS: &'static [&'static str] =
        &["opportunity", "passby", "final-shock", "supportive"];

    pub fn word(self) -> &'static str {
        match self {
            Occasion::Reciprocal => "reciprocal",
            Occasion::Opportunity => "opportunity",
            Occasion::Passby => "passby",
            Occasion::FinalShock => "final-shock",
            Occasion::Supportive => "supportive",
        }
    }

    pub fn from_word(word: &str) -> Option<Occasion> {
        Some(match word {
            "opportunity" => Occasion::Opportunity,
            "passby" => Occasion::Passby,
            "final-shock" => Occasion::FinalShock,
            "supportive" => Occasion::Supportive,
            _ => return None,
        })
    }

    /// What the chapter calls it.
    pub fn name(self) -> &'static str {
        match self {
            Occasion::Reciprocal => "reciprocal fire",
            Occasion::Opportunity => "opportunity fire",
            Occasion::Passby => "passby fire",
            Occasion::FinalShock => "final shock combat fire",
            Occasion::Supportive => "supportive defensive fire",
        }
    }
}

/// What decides a fire attack's modifiers beyond its zone.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Circumstances {
    pub occasion: Option<Occasion>,
    /// Which fire attack of the unit in this phase: 1 for the first.
    pub attack: u32,
    /// The target is cavalry in a state of charge or a declared charge
    /// that passed its morale check (11.83a, 11.85).
    pub target_charging: bool,
    /// Artillery firing at a unit behind a skirmish screen (11.46).
    pub screened: bool,
    /// An artillery officer attached to the firing battery (11.29).
    pub artillery_officer: bool,
    /// The target is a battery standing in the open, not in a square: it
    /// has the defensive dispersement modifier (11.78).
    pub target_battery_dispersed: bool,
    /// The terrain the target stands in, with its cover factor (11.14).
    pub cover: Option<(TerrainKind, Ratio)>,
    /// Modifiers of the campaign's table the umpire names.
    pub named: Vec<String>,
}

/// The readings a campaign may choose for the modifiers (ruling PF-8).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScreenReading {
    pub by_a_third: bool,
}

/// "11.87" for the k-th fire attack, as an ordinal.
fn ordinal(k: u32) -> String {
    let suffix = match (k % 10, k % 100) {
        (1, n) if n != 11 => "st",
        (2, n) if n != 12 => "nd",
        (3, n) if n != 13 => "rd",
        _ => "th",
    };
    format!("{k}{suffix}")
}

fn named(params: &Params, name: &str, reason: &str) -> Result<Factor, Refusal> {
    params
        .modifier(name)
        .map(|r| Factor::new(reason.to_string(), r))
        .ok_or_else(|| {
            Refusal::new(
                format!(
                    "no Fire Combat Modifier `{name}` in the campaign's table; the modifiers are {}",
                    params.modifiers.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
                "11.15 step 9: \"Factor the base percent value by the Fire Combat Modifiers found on the Fire Chart\"",
            )
        })
}

/// Every modifier of a fire attack, in order (see the module's comment).
pub fn factors(
    routine: Routine,
    zone: &[Factor],
    c: &Circumstances,
    params: &Params,
    screen: ScreenReading,
) -> Result<Vec<Factor>, Refusal> {
    let mut out = zone.to_vec();
    if let Some((kind, ratio)) = &c.cover {
        out.push(Factor::new(
            format!("target in {kind}: terrain reduces fire (11.14)"),
            *ratio,
        ));
    }
    for name in &c.named {
        out.push(named(params, name, name)?);
    }
    if c.artillery_officer && routine == Routine::Artillery {
        out.push(named(
            params,
            modifier::ARTILLERY_OFFICER,
            "artillery officer attached: \"increase the Fire attack effectiveness\" (11.29)",
        )?);
    }
    if c.target_battery_dispersed {
        out.push(named(
            params,
            modifier::DISPERSEMENT,
            "battery target: defensive dispersement modifier (11.78)",
        )?);
    }
    if c.screened {
        let (n, why) = if screen.by_a_third {
            (2, "reduced by a third")
        } else {
            (1, "reduced to a third")
        };
        out.push(Factor::new(
            format!("behind a skirmish screen, {why} (11.46)"),
            Ratio::new(n, 3).unwrap_or(Ratio::whole(1)),
        ));
    }
    let doubled = match c.occasion {
        None | Some(Occasion::Reciprocal) => None,
        Some(Occasion::Opportunity) => Some("opportunity fire is DOUBLED (11.81)"),
        Some(Occasion::Passby) if routine == Routine::Artillery && c.target_charging => None,
        Some(Occasion::Passby) => Some("passby fire is DOUBLED (11.83)"),
        Some(Occasion::FinalShock) => Some("final shock combat fire is DOUBLED (11.84)"),
        Some(Occasion::Supportive) if routine == Routine::Artillery && c.target_charging => None,
        Some(Occasion::Supportive) => Some("supportive defensive fire is DOUBLED (11.85)"),
    };
    if let Some(why) = doubled {
        out.push(Factor::new(why, Ratio::whole(2)));
    }
    for k in 2..=c.attack.max(1) {
        out.push(Factor::new(
            format!("{} fire attack in the phase (11.87)", ordinal(k)),
            Ratio::new(2, 3).unwrap_or(Ratio::whole(1)),
        ));
    }
    Ok(out)
}

/// Why a doubled occasion was not doubled, for the report.
pub fn not_doubled(routine: Routine, c: &Circumstances) -> Option<&'static str> {
    match c.occasion {
        Some(Occasion::Passby) if routine == Routine::Artillery && c.target_charging => {
            Some("artillery passby fire at charging cavalry is not doubled (11.83a)")
        }
        Some(Occasion::Supportive) if routine == Routine::Artillery && c.target_charging => Some(
            "artillery supportive fire at charging cavalry is \"Normal effect..ie not doubled\" (11.85)",
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_for_the_reasons() {
        assert_eq!(ordinal(2), "2nd");
        assert_eq!(ordinal(3), "3rd");
        assert_eq!(ordinal(4), "4th");
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(22), "22nd");
    }
}
