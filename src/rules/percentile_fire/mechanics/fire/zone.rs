//! Fire zones by weapon and formation (11.30-11.37): which zone a range
//! falls in, the Fire Chart row that zone reads, and what the zone does to
//! the fire attack (the Maximum Roundshot Zone's reduced effect, the
//! Shell/Rocket Accuracy table).

use super::Refusal;
use crate::geometry::Hundredths;
use crate::rules::kernel::Factor;
use crate::rules::percentile_fire::params::{Accuracy, Params, Weapon, WeaponKind, line, modifier};
use crate::rules::percentile_fire::state::{Shot, Word};
use crate::rules::words::inches;

/// "Minimum Range Fire Zone extends out for all non siege artillery from
/// 0" to 4". Siege artillery has no Minimum Range Fire Zone." (11.32,
/// 11.33)
pub const ARTILLERY_MINIMUM_ZONE: Hundredths = 400;

/// "All shellfire attacks instigated beyond 15" use a special accuracy
/// table." (11.32)
pub const SHELL_ACCURACY_BEYOND: Hundredths = 1500;

/// The fire zones the chapter names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zone {
    Minimum,
    /// Small arms beyond the minimum zone.
    Maximum,
    Shot,
    NormalRoundshot,
    MaximumRoundshot,
    Shellfire,
    Rocket,
}

impl Zone {
    pub fn name(self) -> &'static str {
        match self {
            Zone::Minimum => "Minimum Range Fire Zone",
            Zone::Maximum => "Maximum Range Fire Zone",
            Zone::Shot => "Shot Zone",
            Zone::NormalRoundshot => "Normal Roundshot Zone",
            Zone::MaximumRoundshot => "Maximum Roundshot Zone",
            Zone::Shellfire => "Shellfire Zone",
            Zone::Rocket => "Rocket Zone",
        }
    }
}

/// The line a small arms unit fires on by its formation (11.34-11.37),
/// before its zone or disorder moves it to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FiringLine {
    TwoRank,
    ThreeRank,
    Square,
    Mounted,
    Skirmish,
}

impl FiringLine {
    pub const WORDS: &'static [&'static str] =
        &["two-rank", "three-rank", "square", "mounted", "skirmish"];

    pub fn word(self) -> &'static str {
        match self {
            FiringLine::TwoRank => line::TWO_RANK,
            FiringLine::ThreeRank => line::THREE_RANK,
            FiringLine::Square => line::SQUARE,
            FiringLine::Mounted => line::MOUNTED,
            FiringLine::Skirmish => line::SKIRMISH,
        }
    }

    pub fn from_word(word: &str) -> Option<FiringLine> {
        Some(match word {
            "two-rank" => FiringLine::TwoRank,
            "three-rank" => FiringLine::ThreeRank,
            "square" => FiringLine::Square,
            "mounted" => FiringLine::Mounted,
            "skirmish" => FiringLine::Skirmish,
            _ => return None,
        })
    }
}

/// A fire attack's zone: the row it reads, what the set-up tells, and the
/// factors the zone brings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Zoned {
    pub zone: Zone,
    pub row: String,
    pub note: String,
    pub factors: Vec<Factor>,
}

fn weapon<'a>(params: &'a Params, name: &str) -> Result<&'a Weapon, Refusal> {
    params.weapons.get(name).ok_or_else(|| {
        Refusal::new(
            format!(
                "no weapon `{name}` in the Weapon Range Chart; the weapons are {}",
                params
                    .weapons
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            "11.32: \"the Weapon Range chart\"",
        )
    })
}

/// Whether a range lies in a weapon's Minimum Range Fire Zone, where
/// opportunity, passby and supportive fire are given (11.80-11.85).
pub fn in_minimum_zone(params: &Params, name: &str, range: Hundredths) -> bool {
    params.weapons.get(name).is_some_and(|w| match w.kind {
        WeaponKind::SmallArms => w.minimum.is_some_and(|m| range <= m),
        WeaponKind::Siege => false,
        _ => range <= ARTILLERY_MINIMUM_ZONE,
    })
}

/// The farthest a unit's weapon reaches.
pub fn reach(params: &Params, name: &str) -> Hundredths {
    params.weapons.get(name).map_or(0, Weapon::reach)
}

/// Small arms (11.34-11.37): the zone the range falls in and the line it
/// reads: the formation's line in the Minimum Range Fire Zone, the
/// Maximum Range/Disordered line beyond it or when the firer is morale
/// disordered or in a building, the Skirmish line always for skirmishers.
pub fn small_arms(
    params: &Params,
    name: &str,
    firing_line: FiringLine,
    range: Hundredths,
    disordered: bool,
) -> Result<Zoned, Refusal> {
    let w = weapon(params, name)?;
    let (Some(minimum), Some(maximum)) = (w.minimum, w.maximum) else {
        return Err(Refusal::new(
            format!("`{name}` is no small arm"),
            "11.16: \"Fire Routine for Infantry or Cavalry units\"",
        ));
    };
    if range > maximum {
        return Err(Refusal::new(
            format!(
                "{}\" is beyond the range of a {name} ({}\")",
                inches(range),
                inches(maximum)
            ),
            "11.34: \"Maximum Range Fire Zone extends from beyond the minimum Range Fire Zone range to the maximum range\"",
        ));
    }
    let zone = if range <= minimum {
        Zone::Minimum
    } else {
        Zone::Maximum
    };
    let (chosen, why) = match (firing_line, zone, disordered) {
        (FiringLine::Skirmish, _, _) => (
            line::SKIRMISH,
            "skirmishers use the Skirmish Fire Chart Line in both zones (11.37)",
        ),
        (_, _, true) => (
            line::MAXIMUM_RANGE,
            "a morale disordered firer, or one in a building, uses the Morale Disordered Fire Chart Line (11.36)",
        ),
        (_, Zone::Maximum, _) => (
            line::MAXIMUM_RANGE,
            "Maximum Range Fire attacks use the Maximum Range/Disordered Fire Chart Line (11.34, 11.35)",
        ),
        (l, _, _) => (
            l.word(),
            "the Minimum Range Fire Zone uses the formation's own line (11.34, 11.35)",
        ),
    };
    let (row, _) = params.small_arms_row(name, chosen).ok_or_else(|| {
        Refusal::new(
            format!("the Fire Chart has no row `{chosen}`"),
            "11.16 step 4: \"Determine the correct Fire Chart row to use\"",
        )
    })?;
    Ok(Zoned {
        zone,
        note: format!(
            "{name} at {}\": {} ({}-{}\"); {why}: row `{row}`",
            inches(range),
            zone.name(),
            if zone == Zone::Minimum {
                "0".to_string()
            } else {
                inches(minimum)
            },
            inches(if zone == Zone::Minimum {
                minimum
            } else {
                maximum
            }),
        ),
        row,
        factors: Vec::new(),
    })
}

/// The shot a battery fires when none is named: "If not predetermined,
/// the default is Roundshot or common Shell" (11.15 step 2).
pub fn default_shot(params: &Params, name: &str) -> Shot {
    match params.weapons.get(name).map(|w| w.kind) {
        Some(WeaponKind::Howitzer | WeaponKind::Mortar) => Shot::Shell,
        Some(WeaponKind::Rocket) => Shot::Rocket,
        _ => Shot::Roundshot,
    }
}

fn accuracy_factor(
    bands: &[crate::rules::percentile_fire::params::AccuracyBand],
    range: Hundredths,
    what: &str,
) -> Option<Factor> {
    Accuracy::band(bands, range).map(|b| {
        Factor::new(
            format!(
                "{what} Accuracy table{}",
                if b.beyond > 0 {
                    format!(", beyond {}\"", inches(b.beyond))
                } else {
                    String::new()
                }
            ),
            b.factor,
        )
    })
}

/// Artillery (11.32, 11.33): the zone a shot at a range falls in, its row
/// (`<weapon> <shot>`), and the zone's factors.
pub fn artillery(
    params: &Params,
    name: &str,
    shot: Shot,
    range: Hundredths,
    indirect: bool,
) -> Result<Zoned, Refusal> {
    let w = weapon(params, name)?;
    const ZONES: &str = "11.32: \"There are five (5) fire zones for artillery batteries\"";
    let beyond = |zone: &str, end: Hundredths| {
        Refusal::new(
            format!(
                "{}\" is beyond the {zone} of a {name} ({}\")",
                inches(range),
                inches(end)
            ),
            ZONES,
        )
    };
    let none = || {
        Refusal::new(
            format!("a {name} fires no {shot}; it fires {}", {
                let s: Vec<&str> = w
                    .shots()
                    .iter()
                    .filter(|s| params.artillery_row(name, **s).is_some())
                    .map(|s| s.word())
                    .collect();
                s.join(", ")
            }),
            "11.15 step 5: \"The artillery Fire Charts are by poundage of the cannon and what the choice was for type of shot\"",
        )
    };
    if !w.kind.is_artillery() {
        return Err(Refusal::new(
            format!("`{name}` is a small arm"),
            "11.15: \"Fire Routine for Artillery\"",
        ));
    }
    if indirect && !matches!(shot, Shot::Shell | Shot::Shrapnel) {
        return Err(Refusal::new(
            format!("indirect fire is shellfire, not {shot}"),
            if shot == Shot::Rocket {
                "11.56: \"Rocket Fire attacks cannot use indirect Fire\""
            } else {
                "11.50: \"Only artillery batteries with howitzers or mortars have a indirect fire capabilities\""
            },
        ));
    }
    let mut factors = Vec::new();
    let (zone, end) = match shot {
        Shot::Shot => {
            let end = w.shot.ok_or_else(none)?;
            if range > end {
                return Err(beyond("Shot Zone", end));
            }
            (Zone::Shot, end)
        }
        Shot::Roundshot => {
            let normal = w.roundshot.ok_or_else(none)?;
            let most = w.maximum_roundshot.unwrap_or(normal);
            if range <= normal {
                (Zone::NormalRoundshot, normal)
            } else if range <= most {
                factors.push(
                    params
                        .modifier(modifier::MAXIMUM_ROUNDSHOT)
                        .map(|r| {
                            Factor::new(
                                "Maximum Roundshot Zone: \"The fire attack effect is reduced\" (11.32)",
                                r,
                            )
                        })
                        .ok_or_else(|| {
                            Refusal::new(
                                format!("no modifier `{}`", modifier::MAXIMUM_ROUNDSHOT),
                                "11.32",
                            )
                        })?,
                );
                (Zone::MaximumRoundshot, most)
            } else {
                return Err(beyond("Maximum Roundshot Zone", most));
            }
        }
        Shot::Shell | Shot::Shrapnel => {
            let (Some(min), Some(end)) = (w.shell_minimum, w.shell) else {
                return Err(none());
            };
            if range < min {
                return Err(Refusal::new(
                    format!(
                        "{}\" is inside the Shellfire Zone's minimum range of {}\"",
                        inches(range),
                        inches(min)
                    ),
                    "11.32: \"Shellfire Zone has a minimum range of 6-7\", where no fire attacks can be made\"",
                ));
            }
            if range > end {
                return Err(beyond("Shellfire Zone", end));
            }
            if indirect || range > SHELL_ACCURACY_BEYOND {
                factors.extend(accuracy_factor(&params.accuracy.shell, range, "Shell"));
            }
            (Zone::Shellfire, end)
        }
        Shot::Rocket => {
            let end = w.rocket.ok_or_else(none)?;
            if range > end {
                return Err(beyond("Rocket Zone", end));
            }
            factors.extend(accuracy_factor(&params.accuracy.rocket, range, "Rocket"));
            (Zone::Rocket, end)
        }
        Shot::Ball => return Err(none()),
    };
    if indirect {
        let r = params.modifier(modifier::INDIRECT).ok_or_else(|| {
            Refusal::new(format!("no modifier `{}`", modifier::INDIRECT), "11.54")
        })?;
        factors.push(Factor::new(
            "indirect fire: \"the fire effect percentage reduced per the modifier\" (11.54)",
            r,
        ));
    }
    let (row, _) = params.artillery_row(name, shot).ok_or_else(none)?;
    Ok(Zoned {
        zone,
        note: format!(
            "{name} {shot} at {}\": {} (to {}\"){}",
            inches(range),
            zone.name(),
            inches(end),
            if indirect { ", indirect fire" } else { "" }
        ),
        row,
        factors,
    })
}

/// The shot types a weapon fires: a zone for it and a chart row.
pub fn shots_of(params: &Params, name: &str) -> Vec<Shot> {
    params.weapons.get(name).map_or_else(Vec::new, |w| {
        w.shots()
            .into_iter()
            .filter(|s| *s != Shot::Ball && params.artillery_row(name, *s).is_some())
            .collect()
    })
}

/// Every zone a weapon has, as the umpire's help tells them: name and
/// extent.
pub fn zones_of(params: &Params, name: &str) -> Vec<(Zone, Hundredths, Hundredths)> {
    let Some(w) = params.weapons.get(name) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    match w.kind {
        WeaponKind::SmallArms => {
            if let (Some(min), Some(max)) = (w.minimum, w.maximum) {
                out.push((Zone::Minimum, 0, min));
                out.push((Zone::Maximum, min, max));
            }
        }
        kind => {
            if kind != WeaponKind::Siege {
                out.push((Zone::Minimum, 0, ARTILLERY_MINIMUM_ZONE));
            }
            if let Some(s) = w.shot {
                out.push((Zone::Shot, 0, s));
            }
            if let Some(rs) = w.roundshot {
                out.push((Zone::NormalRoundshot, 0, rs));
                if let Some(m) = w.maximum_roundshot.filter(|m| *m > rs) {
                    out.push((Zone::MaximumRoundshot, rs, m));
                }
            }
            if let (Some(min), Some(max)) = (w.shell_minimum, w.shell) {
                out.push((Zone::Shellfire, min, max));
            }
            if let Some(r) = w.rocket {
                out.push((Zone::Rocket, 0, r));
            }
        }
    }
    out
}
