//! The Fire Routines, step by step: for artillery (11.15) and for infantry
//! or cavalry (11.16). A fire attack set up (what fires, how many, at what
//! range, the chart row, the modifiers) is resolved here alone, for an
//! umpire call and for a turn alike: the percentage roll, the base percent
//! read from the chart, the modifiers, rounding up, the hit, the figures
//! lost over 100% (11.71), the officer hit (step 11) and the critical hit
//! (11.75).

use serde::Serialize;

use super::super::super::params::{Category, CriticalEffect, OfficerEffect, Params, die_table};
use super::super::super::state::{Class, Shot};
use crate::audit::dice::{Dice, Die};
use crate::geometry::Hundredths;
use crate::rules::kernel::{Exact, Factor, Ratio};
use crate::rules::told::About;
use crate::rules::umpire::Trace;
use crate::rules::words::inches;

/// Which routine: "Fire Routine for Artillery" (11.15) or "for Infantry or
/// Cavalry units" (11.16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Routine {
    Artillery,
    SmallArms,
}

impl Routine {
    /// The step that rolls the percentage die.
    fn roll_step(self) -> &'static str {
        match self {
            Routine::Artillery => "11.15 step 3",
            Routine::SmallArms => "11.16 step 2",
        }
    }

    fn officer_step(self) -> &'static str {
        match self {
            Routine::Artillery => "11.15 step 11",
            Routine::SmallArms => "11.16 step 10",
        }
    }

    fn counting(self, n: u32) -> &'static str {
        match (self, n) {
            (Routine::Artillery, _) => "cannon",
            (Routine::SmallArms, 1) => "figure",
            (Routine::SmallArms, _) => "figures",
        }
    }
}

/// What the target is, for what it loses: "the Fire attack causes the loss
/// of cannon or train material in lieu of the artillery battery crew
/// figure" (11.74).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Against {
    Figures,
    Battery,
    Train,
}

/// How the percent is rounded and the chance over 100% taken: the
/// campaign's readings (rulings PF-6, PF-7).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Readings {
    pub round_each_step: bool,
    pub new_roll_for_extra_figures: bool,
}

/// One fire attack, set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FireAttack {
    pub routine: Routine,
    /// The chart row (`12pdr roundshot`, `two-rank`).
    pub row: String,
    pub shot: Shot,
    /// Figures or cannon firing.
    pub firing: u32,
    pub class: Class,
    pub category: Category,
    pub range: Hundredths,
    /// The modifiers, in the order they apply.
    pub factors: Vec<Factor>,
    pub against: Against,
    /// The officers attached to the target, by name (step 11).
    pub officers: Vec<String>,
    /// The same officers by the id of the general or of the battery each
    /// serves; none for an umpire call, whose officers are only words.
    pub officer_ids: Vec<String>,
    /// What the set-up decided (the zone, the line, why the target is
    /// massed), told before the chart is read.
    pub notes: Vec<String>,
    /// Who fires at whom, for the rolls' purposes.
    pub label: String,
    /// The same by id, firer first, for whom its rolls are told to; none
    /// for an umpire call, whose rolls concern no unit on a table.
    pub concerns: Vec<String>,
}

/// The roll for one attached officer (step 11).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OfficerRoll {
    pub officer: String,
    /// The general, or the battery whose artillery officer he is, by id;
    /// none in an umpire call. Not in a call's result, which names him.
    #[serde(skip)]
    pub id: Option<String>,
    /// The percent chance: 5% per figure hit.
    pub chance: u32,
    pub roll: u32,
    pub hit: bool,
    /// The roll on the random officer hit chart, and what it gave.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chart_roll: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<OfficerEffect>,
}

/// The critical hit rolls (11.75): the first section, and the second when
/// the first reads 6.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CriticalRoll {
    pub first: u32,
    pub bonus: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second: Option<u32>,
    pub effect: CriticalEffect,
}

/// What one fire attack gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FireResult {
    pub routine: Routine,
    pub row: String,
    pub firing: u32,
    /// The chart column read.
    pub column: u32,
    pub class: Class,
    pub category: Category,
    pub range: Hundredths,
    pub base: u32,
    /// The modifiers as printed (`x2/3`), in order.
    pub factors: Vec<String>,
    /// The modified base percent before rounding, to the hundredth of a
    /// percent, as text (`26.67`).
    pub exact: String,
    /// The MODIFIED BASE PERCENT, rounded up.
    pub percent: i64,
    pub roll: u32,
    /// The roll for the chance of a further figure over 100%, where the
    /// campaign takes one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra_roll: Option<u32>,
    pub hit: bool,
    /// Figures (or cannon, or train material) lost.
    pub lost: u32,
    pub against: Against,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub officers: Vec<OfficerRoll>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical: Option<CriticalRoll>,
    /// The arithmetic in one line, for the report: base, each modifier,
    /// the rounded percent, the roll.
    pub arithmetic: String,
}

/// Why a fire attack set up cannot be read off the chart: only tables
/// that do not hold what the set-up asks for (damaged or odd parameters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChartGap(pub String);

/// The percent's arithmetic: the base and the factors as exact fractions,
/// rounded up once at the end (11.15 step 9: "The final fractional is
/// always raised to the next whole number percentage"), or after each
/// modifier where the campaign reads it so (ruling PF-6).
pub fn modified_percent(base: u32, factors: &[Factor], readings: Readings) -> (Exact, i64) {
    let exact = Exact::whole(i64::from(base)).times_all(factors);
    let rounded = if readings.round_each_step {
        crate::rules::kernel::percent_rounded_up_each(i64::from(base), factors)
    } else {
        crate::rules::kernel::percent_rounded_up_once(i64::from(base), factors)
    };
    (exact, rounded)
}

/// An exact percent to the hundredth, as text: `26.67`, `60`.
pub fn percent_text(exact: Exact) -> String {
    let hundredths = exact.times(Ratio::whole(100)).round_nearest();
    match (hundredths % 100).abs() {
        0 => format!("{}", hundredths / 100),
        p if p % 10 == 0 => format!("{}.{}", hundredths / 100, p / 10),
        p => format!("{}.{p:02}", hundredths / 100),
    }
}

/// A d100 as the dice read it: 100 is "00".
pub fn d100_text(roll: u32) -> String {
    match roll {
        100 => "00".to_string(),
        n => format!("{n:02}"),
    }
}

/// Figures lost for a roll against a rounded percent, with the further
/// roll where the campaign takes one (11.71).
fn figures_lost(percent: i64, roll: u32, extra: Option<u32>) -> (bool, u32) {
    // "A roll of 1 percent (01) is always a hit."
    let always = roll == 1;
    if percent < 100 {
        let hit = always || i64::from(roll) <= percent;
        return (hit, u32::from(hit));
    }
    // "A percentage value greater than 100% gives a automatic one (1)
    // figure loss to the target unit and the possibility to lose additional
    // figures": each whole 100% a figure, the rest the chance of one more.
    let certain = u32::try_from(percent / 100).unwrap_or(u32::MAX);
    let rest = percent % 100;
    let decider = extra.unwrap_or(roll);
    let further = rest > 0 && (decider == 1 || i64::from(decider) <= rest);
    (true, certain + u32::from(further))
}

/// The chart's column and base percent for an attack (steps 5-8), or the
/// gap in the campaign's Fire Chart that leaves it unsettled.
fn read_chart(a: &FireAttack, params: &Params) -> Result<(u32, u32), ChartGap> {
    let row = params
        .fire_chart
        .get(&a.row)
        .ok_or_else(|| ChartGap(format!("the Fire Chart has no row `{}`", a.row)))?;
    let (at, column) = row.column(a.firing).ok_or_else(|| {
        ChartGap(format!(
            "the row `{}` has no column for {} {}",
            a.row,
            a.firing,
            a.routine.counting(a.firing)
        ))
    })?;
    let base = row
        .base(at, a.class, a.category)
        .ok_or_else(|| ChartGap(format!("the row `{}` is short of column {column}", a.row)))?;
    Ok((column, base))
}

/// A roll of the routine, marked as concerning `about` where the attack
/// was set up on the table.
fn roll_about(
    trace: &mut Trace,
    dice: &mut dyn Dice,
    about: Option<About>,
    die: Die,
    purpose: &str,
) -> u32 {
    match about {
        Some(about) => trace.roll(&mut dice.concerning(about), die, purpose),
        None => trace.roll(dice, die, purpose),
    }
}

/// Whom a roll of an attack concerns, where it was set up on the table:
/// its firer and target and the officer rolled for. An attack the charts
/// cannot settle is not made: its roll is then the firer's side's alone, as
/// the order behind it is.
fn about(a: &FireAttack, refused: bool, officer: Option<&String>) -> Option<About> {
    if a.concerns.is_empty() {
        return None;
    }
    let ids: Vec<&str> = a
        .concerns
        .iter()
        .chain(officer)
        .map(String::as_str)
        .collect();
    Some(if refused {
        About::own(&ids)
    } else {
        About::units(&ids)
    })
}

/// Runs the routine: rolls, reads the chart, applies the modifiers, and
/// settles the figures lost, the officers and any critical hit.
pub fn resolve(
    attack: &FireAttack,
    params: &Params,
    readings: Readings,
    dice: &mut dyn Dice,
    trace: &mut Trace,
) -> Result<FireResult, ChartGap> {
    let a = attack;
    let chart = read_chart(a, params);
    let refused = chart.is_err();
    let roll = percentage_roll(a, refused, dice, trace);
    let (column, base) = chart?;
    trace_chart(a, column, base, trace);
    let (exact, percent) = modify(a, base, readings, trace);
    let extra_roll = (readings.new_roll_for_extra_figures && percent > 100 && percent % 100 != 0)
        .then(|| {
            roll_about(
                trace,
                dice,
                about(a, refused, None),
                Die::D100,
                &format!("{}: chance of a further figure (11.71)", a.label),
            )
        });
    let (hit, lost) = figures_lost(percent, roll, extra_roll);
    let verdict = verdict(a, percent, roll, extra_roll, hit, lost);
    trace.note(verdict.clone());
    let officers = officer_rolls(a, refused, lost, params, dice, trace);
    let critical = critical_hit(a, refused, lost, params, dice, trace);
    let shown = percent_text(exact);
    let arithmetic = arithmetic(a, base, &shown, percent, &verdict, &officers);
    // The critical hit is told once, with what it did to the target
    // (`effect::critical`), not here as well.
    Ok(FireResult {
        routine: a.routine,
        row: a.row.clone(),
        firing: a.firing,
        column,
        class: a.class,
        category: a.category,
        range: a.range,
        base,
        factors: a.factors.iter().map(|f| f.ratio.to_string()).collect(),
        exact: shown,
        percent,
        roll,
        extra_roll,
        hit,
        lost,
        against: a.against,
        officers,
        critical,
        arithmetic,
    })
}

/// Step 3 (11.16 step 2): "Roll a percentage die set to generate a random
/// value", before the range is measured or the chart read; the attack's
/// notes follow it.
fn percentage_roll(a: &FireAttack, refused: bool, dice: &mut dyn Dice, trace: &mut Trace) -> u32 {
    let roll = roll_about(
        trace,
        dice,
        about(a, refused, None),
        Die::D100,
        &format!("{}: percentage roll ({})", a.label, a.routine.roll_step()),
    );
    for note in &a.notes {
        trace.note(note.clone());
    }
    roll
}

/// Steps 5-8 as read: the row, the column for the cannon or figures
/// firing, the class and the target's category, and the base percent.
fn trace_chart(a: &FireAttack, column: u32, base: u32, trace: &mut Trace) {
    trace.lookup(
        "Fire Chart",
        format!(
            "{}, {} {} firing (column {column}), class {}, {} target",
            a.row,
            a.firing,
            a.routine.counting(a.firing),
            a.class,
            a.category.word()
        ),
        format!("base {base}%"),
    );
}

/// Step 9: the modifiers applied to the base percent, and "The final
/// fractional is always raised to the next whole number percentage" (once
/// at the end, or at each step where the campaign reads it so: ruling
/// PF-6). The exact percent and the rounded one.
fn modify(a: &FireAttack, base: u32, readings: Readings, trace: &mut Trace) -> (Exact, i64) {
    for f in &a.factors {
        trace.note(format!("modifier {} {}", f.ratio, f.reason));
    }
    let (exact, percent) = modified_percent(base, &a.factors, readings);
    if a.factors.is_empty() {
        trace.note(format!("modified base percent: no modifiers, {percent}%"));
        return (exact, percent);
    }
    trace.note(if readings.round_each_step {
        // Each step shown as it is rounded (ruling PF-6's option).
        let mut p = i64::from(base);
        let mut steps = format!("{base}%");
        for f in &a.factors {
            let exact = Exact::whole(p).times(f.ratio);
            p = exact.round_up();
            steps.push_str(&format!(" {} = {}% -> {p}%", f.ratio, percent_text(exact)));
        }
        format!("modified base percent, rounded up at each step: {steps}")
    } else {
        let chain: String = a.factors.iter().map(|f| format!(" {}", f.ratio)).collect();
        format!(
            "modified base percent: {base}%{chain} = {}% -> {percent}%{}",
            percent_text(exact),
            if exact.is_whole() {
                ""
            } else {
                " (rounded up)"
            }
        )
    });
    (exact, percent)
}

/// Step 10 of 11.15: the roll against the percent, in words: a miss, a hit, "A roll
/// of 1 percent (01) is always a hit", or the figures lost over 100%
/// (11.71), counted as what the target loses (11.74).
fn verdict(
    a: &FireAttack,
    percent: i64,
    roll: u32,
    extra_roll: Option<u32>,
    hit: bool,
    lost: u32,
) -> String {
    let unit = match a.against {
        Against::Figures => "figure",
        Against::Battery if a.routine == Routine::Artillery => "cannon",
        Against::Train if a.routine == Routine::Artillery => "train material",
        _ => "crew figure",
    };
    let what = |n: u32| -> String {
        match (n, unit) {
            (1, u) => format!("1 {u}"),
            (n, "cannon") => format!("{n} cannon"),
            (n, "train material") => format!("{n} train material"),
            (n, u) => format!("{n} {u}s"),
        }
    };
    if !hit {
        format!("roll {} against {percent}%: a miss", d100_text(roll))
    } else if percent >= 100 {
        let rest = percent % 100;
        let decider = extra_roll.unwrap_or(roll);
        if rest == 0 {
            format!(
                "{percent}%: {} lost, whatever the roll ({})",
                what(lost),
                d100_text(roll)
            )
        } else {
            format!(
                "{percent}%: {} for each whole 100% and a {rest}% chance of one more; roll {} {}: {} lost",
                what(1).replacen("1 ", "one ", 1),
                d100_text(decider),
                if lost > u32::try_from(percent / 100).unwrap_or(0) {
                    "hits"
                } else {
                    "misses"
                },
                what(lost)
            )
        }
    } else if roll == 1 && i64::from(roll) > percent {
        format!(
            "roll 01 against {percent}%: 01 is always a hit, {} lost",
            what(1)
        )
    } else {
        format!(
            "roll {} against {percent}%: a hit, {} lost",
            d100_text(roll),
            what(1)
        )
    }
}

/// Step 11 (11.16 step 10): a roll for each officer attached to the
/// target, where it lost anything.
fn officer_rolls(
    a: &FireAttack,
    refused: bool,
    lost: u32,
    params: &Params,
    dice: &mut dyn Dice,
    trace: &mut Trace,
) -> Vec<OfficerRoll> {
    let mut officers = Vec::new();
    if lost == 0 {
        return officers;
    }
    for (i, officer) in a.officers.iter().enumerate() {
        let id = a.officer_ids.get(i);
        let step = a.routine.officer_step();
        let mut rolled = match about(a, refused, id) {
            Some(about) => officer_roll(
                officer,
                lost,
                &a.label,
                step,
                params,
                &mut dice.concerning(about),
                trace,
            ),
            None => officer_roll(officer, lost, &a.label, step, params, dice, trace),
        };
        rolled.id = id.cloned();
        officers.push(rolled);
    }
    officers
}

/// The critical hit roll (11.75) of artillery that hit a battery or a
/// train, with its bonus for shell, shrapnel and rockets.
fn critical_hit(
    a: &FireAttack,
    refused: bool,
    lost: u32,
    params: &Params,
    dice: &mut dyn Dice,
    trace: &mut Trace,
) -> Option<CriticalRoll> {
    let hits = lost > 0
        && a.routine == Routine::Artillery
        && matches!(a.against, Against::Battery | Against::Train);
    if !hits {
        return None;
    }
    let bonus = matches!(a.shot, Shot::Shell | Shot::Shrapnel | Shot::Rocket);
    Some(match about(a, refused, None) {
        Some(about) => critical_roll(&a.label, bonus, params, &mut dice.concerning(about), trace),
        None => critical_roll(&a.label, bonus, params, dice, trace),
    })
}

/// The attack's arithmetic in one line, for the report: the chart read,
/// the modifiers, the percent, the verdict and the officers' rolls.
fn arithmetic(
    a: &FireAttack,
    base: u32,
    shown: &str,
    percent: i64,
    verdict: &str,
    officers: &[OfficerRoll],
) -> String {
    let mut arithmetic = format!(
        "{}, {} {} firing, class {}, {} target at {}\": base {base}%",
        a.row,
        a.firing,
        a.routine.counting(a.firing),
        a.class,
        a.category.word(),
        inches(a.range)
    );
    if a.factors.is_empty() {
        arithmetic.push_str(", no modifiers");
    } else {
        arithmetic.push_str(&format!(
            " ({}) = {shown}%",
            a.factors
                .iter()
                .map(|f| format!("{} {}", f.ratio, f.reason))
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    arithmetic.push_str(&format!(" -> {percent}%; {verdict}"));
    for o in officers {
        arithmetic.push_str(&format!(
            "; officer {}: {}% roll {}{}",
            o.officer,
            o.chance,
            d100_text(o.roll),
            match o.effect {
                Some(e) => format!(", hit, {}", e.word()),
                None => ", not hit".to_string(),
            }
        ));
    }
    arithmetic
}

/// Step 11: "For each figure hit there is a 5% chance that the officer
/// figure was also hit. Roll a percentage die set to determine if the
/// officer was hit. Anytime a 1 or 100 percent (01, 00) are rolled there is
/// automatically a sequence found in the Random Officer hit rules (14.62)
/// to determine effect and creates a roll on the random officer hit chart"
/// (ruling PF-5: 01 and 00 hit the officer whatever the chance, and every
/// officer hit is settled on the chart).
pub fn officer_roll(
    officer: &str,
    lost: u32,
    label: &str,
    step: &str,
    params: &Params,
    dice: &mut dyn Dice,
    trace: &mut Trace,
) -> OfficerRoll {
    let chance = lost.saturating_mul(5);
    let roll = trace.roll(
        dice,
        Die::D100,
        &format!("{label}: was {officer} hit? ({step})"),
    );
    let automatic = roll == 1 || roll == 100;
    let hit = automatic || roll <= chance;
    trace.note(format!(
        "{officer}: {chance}% ({lost} figure{} hit x 5%), roll {}: {}",
        if lost == 1 { "" } else { "s" },
        d100_text(roll),
        match (hit, automatic) {
            (true, true) => "01 or 00, the random officer hit sequence",
            (true, false) => "hit",
            (false, _) => "not hit",
        }
    ));
    let (chart_roll, effect) = if hit {
        let r = trace.roll(
            dice,
            params.officer_hit.die,
            &format!("{label}: random officer hit chart for {officer} (14.62)"),
        );
        let effect = die_table(&params.officer_hit.rows)
            .and_then(|t| t.lookup(r as i32).copied())
            .unwrap_or(OfficerEffect::Unhurt);
        trace.lookup(
            "Random officer hit chart",
            format!("{} {r}", params.officer_hit.die.label()),
            effect.word(),
        );
        (Some(r), Some(effect))
    } else {
        (None, None)
    };
    OfficerRoll {
        officer: officer.to_string(),
        id: None,
        chance,
        roll,
        hit,
        chart_roll,
        effect,
    }
}

/// 11.75: "Roll a 6D once and match the die roll to the Artillery Critical
/// Hit first section [...] If a 6 is rolled, consult the second Artillery
/// Critical Hit table section for results. Shellfire and rocket Fire
/// attacks add +1 to each roll" (ruling PF-11: a modified 6 or more goes to
/// the second section).
pub fn critical_roll(
    label: &str,
    shellfire: bool,
    params: &Params,
    dice: &mut dyn Dice,
    trace: &mut Trace,
) -> CriticalRoll {
    let bonus = u32::from(shellfire);
    let first = trace.roll(
        dice,
        Die::D6,
        &format!("{label}: Artillery/train Critical Hit Table, first section (11.75)"),
    );
    let read = |rows: &[super::super::super::params::Row<CriticalEffect>], score: u32| {
        die_table(rows)
            .and_then(|t| t.lookup(score as i32).copied())
            .unwrap_or(CriticalEffect::NoEffect)
    };
    let plus = if bonus > 0 {
        " +1 (shellfire or rocket)"
    } else {
        ""
    };
    let shown = |roll: u32| {
        if bonus > 0 {
            format!("{roll}{plus} = {}", roll + bonus)
        } else {
            roll.to_string()
        }
    };
    if first + bonus < 6 {
        let effect = read(&params.critical_hit.first, first + bonus);
        trace.lookup(
            "Critical Hit Table, first section",
            shown(first),
            effect.word(),
        );
        return CriticalRoll {
            first,
            bonus,
            second: None,
            effect,
        };
    }
    trace.note(format!(
        "first section {first}{plus} = {}: consult the second section",
        first + bonus
    ));
    let second = trace.roll(
        dice,
        Die::D6,
        &format!("{label}: Artillery/train Critical Hit Table, second section (11.75)"),
    );
    let effect = read(&params.critical_hit.second, second + bonus);
    trace.lookup(
        "Critical Hit Table, second section",
        shown(second),
        effect.word(),
    );
    CriticalRoll {
        first,
        bonus,
        second: Some(second),
        effect,
    }
}

/// A Fire Combat Modifier of the campaign's table, by name, as a factor
/// with its reason; `None` where the table lacks it.
pub fn table_factor(params: &Params, name: &str, reason: &str) -> Option<Factor> {
    params
        .modifier(name)
        .map(|r| Factor::new(format!("{reason} ({name})"), r))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_thirds(n: usize) -> Vec<Factor> {
        (0..n)
            .map(|_| Factor::new("repeated", Ratio::new(2, 3).expect("ratio")))
            .collect()
    }

    /// 11.87: "1st Fire attack Final base= 90% / 2nd [...] 60% / 3rd [...]
    /// 40% / 4th [...] 27%".
    #[test]
    fn the_repeated_fire_example_of_11_87() {
        let r = Readings::default();
        let got: Vec<i64> = (0..4)
            .map(|n| modified_percent(90, &two_thirds(n), r).1)
            .collect();
        assert_eq!(got, [90, 60, 40, 27]);
        assert_eq!(
            percent_text(modified_percent(90, &two_thirds(3), r).0),
            "26.67"
        );
    }

    #[test]
    fn over_one_hundred_percent_one_figure_and_the_rest_a_chance() {
        // 11.71: "a 140% Modified Base Fire attack means 1 figure is lost
        // and a chance of 40% towards a second figure".
        assert_eq!(figures_lost(140, 40, None), (true, 2));
        assert_eq!(figures_lost(140, 41, None), (true, 1));
        assert_eq!(figures_lost(140, 100, None), (true, 1));
        assert_eq!(figures_lost(240, 12, None), (true, 3));
        assert_eq!(figures_lost(200, 1, None), (true, 2));
        // A roll of its own for the further figure, where the campaign
        // takes one.
        assert_eq!(figures_lost(140, 90, Some(40)), (true, 2));
        assert_eq!(figures_lost(140, 10, Some(41)), (true, 1));
        // "A roll of 1 percent (01) is always a hit."
        assert_eq!(figures_lost(0, 1, None), (true, 1));
        assert_eq!(figures_lost(30, 31, None), (false, 0));
        assert_eq!(figures_lost(30, 30, None), (true, 1));
        // "00" reads 100: a miss under 100%.
        assert_eq!(figures_lost(99, 100, None), (false, 0));
    }
}
