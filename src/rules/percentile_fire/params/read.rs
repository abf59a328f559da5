//! Reads the campaign's tables through `Keys`, checking each as it goes;
//! every problem lands at its key. A table the campaign gives replaces the
//! sample's whole (docs/ORDERS-percentile-fire.md, "Campaign parameters").

use std::collections::BTreeMap;

use super::{
    Accuracy, AccuracyBand, ArmClasses, Base, ChartRow, ClassLine, CriticalEffect, CriticalHit,
    FiresFirst, OfficerEffect, OfficerHit, Params, Row, TerrainEffect, Weapon, WeaponKind,
    die_table, line, modifier,
};
use crate::audit::dice::Die;
use crate::geometry::Hundredths;
use crate::rules::kernel::Ratio;
use crate::rules::percentile_fire::ground::TerrainKind;
use crate::rules::percentile_fire::setup::NATIONS;
use crate::rules::percentile_fire::state::{Arm, Class, Shot, Word};
use crate::rules::setup::Keys;

/// The longest range or move a table may give: 200 inches.
const MOST: u32 = 20_000;

/// The largest percentage a chart may print.
const MOST_PERCENT: u32 = 999;

const CHARTS: &str = "11.15 step 5: \"The artillery Fire Charts are by poundage of the cannon and what the choice was for type of shot\"";
const RANGES: &str = "11.32: \"Shot Zone is the range for shot found on the Weapon Range chart\"";
const CLASSES: &str = "11.15 step 7: \"Firing Class information is located under each nationality in the National Characteristics Rules\"";
const CRITICAL: &str = "11.75: \"Roll a 6D once [...] If a 6 is rolled, consult the second Artillery Critical Hit table section\"";
const MODIFIERS: &str = "11.15 step 9: \"Factor the base percent value by the Fire Combat Modifiers found on the Fire Chart\"";

/// Reads every table the keys give over `base`; `None` when any has a
/// problem (each is reported).
pub fn params(keys: &mut dyn Keys, base: Params) -> Option<Params> {
    let mut p = base;
    let mut good = true;
    let mut take = |ok: bool| good &= ok;
    match keys.optional_word("fires_first", FiresFirst::WORDS, "side to fire first") {
        Some(Some(w)) => p.fires_first = FiresFirst::from_word(&w).unwrap_or_default(),
        Some(None) => {}
        None => take(false),
    }
    if let Some(read) = each(keys, "firing_class", firing_class) {
        take(read.is_some());
        p.firing_class = read.unwrap_or_default();
    }
    if let Some(read) = each(keys, "weapons", weapon) {
        take(read.is_some());
        p.weapons = read.unwrap_or_default();
    }
    if let Some(read) = each(keys, "fire_chart", chart_row) {
        take(read.is_some());
        p.fire_chart = read.unwrap_or_default();
    }
    if keys.has("modifiers") {
        let read = ratios(keys, "modifiers");
        take(read.is_some());
        p.modifiers = read.unwrap_or_default();
    }
    if let Some(read) = each(keys, "terrain", terrain) {
        take(read.is_some());
        p.terrain = read.unwrap_or_default();
    }
    if keys.has("accuracy") {
        let read = accuracy(keys);
        take(read.is_some());
        p.accuracy = read.unwrap_or_default();
    }
    if keys.has("critical_hit") {
        let read = critical_hit(keys);
        take(read.is_some());
        p.critical_hit = read.unwrap_or_default();
    }
    if keys.has("officer_hit") {
        let read = officer_hit(keys);
        take(read.is_some());
        p.officer_hit = read.unwrap_or_default();
    }
    if keys.has("movement") {
        let read = lengths(keys, "movement", MOVERS);
        take(read.is_some());
        p.movement = read.unwrap_or_default();
    }
    if let Some(read) = each(keys, "basing", base_of) {
        take(read.is_some());
        p.basing = read.unwrap_or_default();
    }
    match keys.count("column_frontage", 1, 100, Some(p.column_frontage.max(1))) {
        Some(n) => p.column_frontage = n,
        None => take(false),
    }
    (good && whole(keys, &p)).then_some(p)
}

/// Reads a table of named tables, each with `read` (given the name); `None`
/// when the key is absent, `Some(None)` when any entry has a problem.
#[allow(clippy::type_complexity)]
fn each<T>(
    keys: &mut dyn Keys,
    key: &str,
    read: fn(&str, &mut dyn Keys) -> Option<T>,
) -> Option<Option<BTreeMap<String, T>>> {
    let mut out = BTreeMap::new();
    let mut good = true;
    let present = keys.table(key, &mut |table| {
        for name in table.names() {
            let mut entry = None;
            if !table.table(&name, &mut |e| entry = read(&name, e)) {
                table.problem(
                    &name,
                    format!("`{name}` must be a table of its own keys"),
                    None,
                );
            }
            match entry {
                Some(v) => {
                    out.insert(name, v);
                }
                None => good = false,
            }
        }
    });
    if !present {
        // A key given as something other than a table was reported.
        return keys.has(key).then_some(None);
    }
    Some(good.then_some(out))
}

fn class(keys: &mut dyn Keys, key: &str) -> Option<Class> {
    let words = Class::words();
    keys.word(key, &words, "firing class")
        .and_then(|w| Class::from_word(&w))
}

fn firing_class(name: &str, keys: &mut dyn Keys) -> Option<ArmClasses> {
    let infantry = class(keys, "infantry");
    let cavalry = class(keys, "cavalry");
    let artillery = class(keys, "artillery");
    if name != "default" && !NATIONS.contains(&name) {
        keys.problem(
            "infantry",
            format!(
                "`{name}` is no nation: the nations are {} (and `default` for any other)",
                NATIONS.join(", ")
            ),
            Some(CLASSES),
        );
        return None;
    }
    Some(ArmClasses {
        infantry: infantry?,
        cavalry: cavalry?,
        artillery: artillery?,
    })
}

/// Whether a name may stand in a chart row's name: no spaces.
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
}

fn weapon(name: &str, keys: &mut dyn Keys) -> Option<Weapon> {
    let kind = keys
        .word("kind", WeaponKind::WORDS, "weapon kind")
        .and_then(|w| WeaponKind::from_word(&w))?;
    let mut w = Weapon {
        kind,
        minimum: None,
        maximum: None,
        shot: None,
        roundshot: None,
        maximum_roundshot: None,
        shell_minimum: None,
        shell: None,
        rocket: None,
    };
    let mut good = true;
    let mut optional = |keys: &mut dyn Keys, key: &str, slot: &mut Option<Hundredths>| {
        if keys.has(key) {
            match keys.length(key, MOST, None) {
                Some(v) => *slot = Some(i64::from(v)),
                None => good = false,
            }
        }
    };
    match kind {
        WeaponKind::SmallArms => {
            optional(keys, "minimum", &mut w.minimum);
            optional(keys, "maximum", &mut w.maximum);
        }
        WeaponKind::Gun | WeaponKind::Siege | WeaponKind::Howitzer | WeaponKind::Mortar => {
            optional(keys, "shot", &mut w.shot);
            optional(keys, "roundshot", &mut w.roundshot);
            optional(keys, "maximum_roundshot", &mut w.maximum_roundshot);
            optional(keys, "shell_minimum", &mut w.shell_minimum);
            optional(keys, "shell", &mut w.shell);
        }
        WeaponKind::Rocket => optional(keys, "rocket", &mut w.rocket),
    }
    if !good {
        return None;
    }
    let mut problem = |key: &str, text: String| {
        keys.problem(key, text, Some(RANGES));
        None::<Weapon>
    };
    if !plain_name(name) {
        return problem(
            "kind",
            format!("a weapon's name is lower-case letters, digits, `-` and `.`, not `{name}`"),
        );
    }
    match kind {
        WeaponKind::SmallArms => match (w.minimum, w.maximum) {
            (Some(min), Some(max)) if min <= max => {}
            (Some(_), Some(_)) => {
                return problem(
                    "maximum",
                    "the Maximum Range Fire Zone extends beyond the minimum".into(),
                );
            }
            _ => {
                return problem(
                    "kind",
                    "small arms need `minimum` and `maximum`, where their two fire zones end"
                        .into(),
                );
            }
        },
        WeaponKind::Rocket if w.rocket.is_none() => {
            return problem(
                "kind",
                "a rocket needs `rocket`, where its zone ends".into(),
            );
        }
        WeaponKind::Gun | WeaponKind::Siege if w.roundshot.is_none() => {
            return problem(
                "kind",
                "a gun needs `roundshot`, where its Normal Roundshot Zone ends".into(),
            );
        }
        WeaponKind::Howitzer | WeaponKind::Mortar if w.shell.is_none() => {
            return problem(
                "kind",
                "a howitzer or mortar needs `shell_minimum` and `shell`, its Shellfire Zone".into(),
            );
        }
        _ => {}
    }
    if let (Some(rs), Some(max)) = (w.roundshot, w.maximum_roundshot)
        && max < rs
    {
        return problem(
            "maximum_roundshot",
            "the Maximum Roundshot Zone continues the Normal Roundshot Zone outward".into(),
        );
    }
    if w.maximum_roundshot.is_some() && w.roundshot.is_none() {
        return problem(
            "maximum_roundshot",
            "a Maximum Roundshot Zone needs `roundshot`".into(),
        );
    }
    match (w.shell_minimum, w.shell) {
        (Some(min), Some(max)) if min < max => {}
        (None, None) => {}
        (Some(_), Some(_)) => {
            return problem(
                "shell",
                "the Shellfire Zone runs from its minimum range outward".into(),
            );
        }
        _ => {
            return problem(
                "shell",
                "a Shellfire Zone needs both `shell_minimum` and `shell`".into(),
            );
        }
    }
    Some(w)
}

fn class_line(keys: &mut dyn Keys, key: &str, columns: usize) -> Option<ClassLine> {
    let mut out = None;
    let mut lengths_ok = true;
    let present = keys.table(key, &mut |t| {
        let massed = t.numbers("massed", 0, MOST_PERCENT);
        let linear = t.numbers("linear", 0, MOST_PERCENT);
        for (k, v) in [("massed", &massed), ("linear", &linear)] {
            if let Some(v) = v
                && v.len() != columns
            {
                t.problem(
                    k,
                    format!(
                        "{} percentages for {columns} columns: one under each column",
                        v.len()
                    ),
                    Some(CHARTS),
                );
                lengths_ok = false;
            }
        }
        if let (Some(massed), Some(linear)) = (massed, linear) {
            out = Some(ClassLine { massed, linear });
        }
    });
    if !present {
        keys.problem(
            key,
            format!("missing the Firing Class line `{key}` (massed and linear)"),
            Some(CHARTS),
        );
        return None;
    }
    out.filter(|_| lengths_ok)
}

fn chart_row(_name: &str, keys: &mut dyn Keys) -> Option<ChartRow> {
    let columns = keys.numbers("columns", 1, 999)?;
    if columns.is_empty() || columns.windows(2).any(|w| w[1] <= w[0]) {
        keys.problem(
            "columns",
            "the columns count the figures or cannon firing, rising from left to right".into(),
            Some(CHARTS),
        );
        return None;
    }
    let a = class_line(keys, "A", columns.len());
    let b = class_line(keys, "B", columns.len());
    let c = class_line(keys, "C", columns.len());
    Some(ChartRow {
        columns,
        a: a?,
        b: b?,
        c: c?,
    })
}

fn ratio(keys: &mut dyn Keys, key: &str) -> Option<Ratio> {
    let text = keys.word(key, &[], "factor")?;
    match Ratio::parse(&text).filter(|r| r.numerator() > 0) {
        Some(r) => Some(r),
        None => {
            keys.problem(
                key,
                format!("`{text}` is not a factor such as \"x2/3\" or \"x1/2\""),
                Some(MODIFIERS),
            );
            None
        }
    }
}

fn ratios(keys: &mut dyn Keys, key: &str) -> Option<BTreeMap<String, Ratio>> {
    let mut out = BTreeMap::new();
    let mut good = true;
    let present = keys.table(key, &mut |t| {
        for name in t.names() {
            match ratio(t, &name) {
                Some(r) => {
                    out.insert(name, r);
                }
                None => good = false,
            }
        }
    });
    (present && good).then_some(out)
}

fn terrain(kind: &str, keys: &mut dyn Keys) -> Option<TerrainEffect> {
    let cover = if keys.has("cover") {
        Some(ratio(keys, "cover")?)
    } else {
        None
    };
    let sight = if keys.has("sight") {
        Some(i64::from(keys.length("sight", MOST, None)?))
    } else {
        None
    };
    if TerrainKind::parse(kind).is_none() {
        keys.problem(
            if cover.is_some() { "cover" } else { "sight" },
            format!(
                "`{kind}` is no terrain kind: the kinds are {}",
                TerrainKind::KINDS.join(", ")
            ),
            None,
        );
        return None;
    }
    Some(TerrainEffect { cover, sight })
}

fn bands(keys: &mut dyn Keys, key: &str) -> Option<Vec<AccuracyBand>> {
    let mut out = Vec::new();
    let mut good = true;
    let present = keys.tables(key, &mut |_, t| {
        let beyond = t.length("beyond", MOST, None);
        let factor = ratio(t, "factor");
        match (beyond, factor) {
            (Some(beyond), Some(factor)) => out.push(AccuracyBand {
                beyond: i64::from(beyond),
                factor,
            }),
            _ => good = false,
        }
    });
    if !present || !good {
        if !present {
            keys.problem(
                key,
                format!("missing the `{key}` accuracy bands"),
                Some("11.54"),
            );
        }
        return None;
    }
    if out.first().is_none_or(|b| b.beyond != 0)
        || out.windows(2).any(|w| w[1].beyond <= w[0].beyond)
    {
        keys.problem(
            key,
            "the bands start at `beyond = 0` and go outward: the table is consulted at any range for indirect fire".into(),
            Some("11.54: \"the Shell/Rocket Accuracy table is automatically consulted at any range to target\""),
        );
        return None;
    }
    Some(out)
}

fn accuracy(keys: &mut dyn Keys) -> Option<Accuracy> {
    let mut out = None;
    keys.table("accuracy", &mut |t| {
        let shell = bands(t, "shell");
        let rocket = bands(t, "rocket");
        if let (Some(shell), Some(rocket)) = (shell, rocket) {
            out = Some(Accuracy { shell, rocket });
        }
    });
    out
}

fn rows<E>(
    keys: &mut dyn Keys,
    key: &str,
    words: &[&str],
    read: fn(&str) -> Option<E>,
) -> Option<Vec<Row<E>>> {
    let mut out = Vec::new();
    let mut good = true;
    let present = keys.tables(key, &mut |_, t| {
        let roll = t.word("roll", &[], "band of scores");
        let effect = t.word("effect", words, "effect");
        match (roll, effect.and_then(|e| read(&e))) {
            (Some(roll), Some(effect)) => out.push(Row { roll, effect }),
            _ => good = false,
        }
    });
    if !present {
        keys.problem(key, format!("missing the `{key}` rows"), None);
        return None;
    }
    good.then_some(out)
}

/// Checks rows make a table with a result for every score in `low..=high`.
fn covers<E: Clone>(
    keys: &mut dyn Keys,
    key: &str,
    rows: &[Row<E>],
    low: i32,
    high: i32,
    clause: &'static str,
) -> bool {
    let table = die_table(rows);
    let gap = match &table {
        Some(t) => (low..=high).find(|s| t.lookup(*s).is_none()),
        None => Some(low),
    };
    match (table, gap) {
        (Some(_), None) => true,
        (None, _) => {
            keys.problem(
                key,
                "the rows' bands (`1-3`, `4`, `6+`) must rise with no gap or overlap".into(),
                Some(clause),
            );
            false
        }
        (Some(_), Some(score)) => {
            keys.problem(
                key,
                format!("no row for a roll of {score}: the rows must cover {low} to {high}"),
                Some(clause),
            );
            false
        }
    }
}

fn critical_hit(keys: &mut dyn Keys) -> Option<CriticalHit> {
    let mut out = None;
    keys.table("critical_hit", &mut |t| {
        let first = rows(t, "first", CriticalEffect::WORDS, CriticalEffect::from_word);
        let second = rows(
            t,
            "second",
            CriticalEffect::WORDS,
            CriticalEffect::from_word,
        );
        let (Some(first), Some(second)) = (first, second) else {
            return;
        };
        // The first section takes 1 to 5: a 6 goes to the second, where
        // shellfire's +1 may make a 7.
        let ok = covers(t, "first", &first, 1, 5, CRITICAL)
            && covers(t, "second", &second, 1, 7, CRITICAL);
        if ok {
            out = Some(CriticalHit { first, second });
        }
    });
    out
}

fn officer_hit(keys: &mut dyn Keys) -> Option<OfficerHit> {
    let mut out = None;
    keys.table("officer_hit", &mut |t| {
        let die = t
            .word("die", &["d6", "d10", "d100"], "die")
            .map(|d| match d.as_str() {
                "d10" => Die::D10,
                "d100" => Die::D100,
                _ => Die::D6,
            });
        let rows = rows(t, "rows", OfficerEffect::WORDS, OfficerEffect::from_word);
        let (Some(die), Some(rows)) = (die, rows) else {
            return;
        };
        let (low, high) = die.range();
        if covers(
            t,
            "rows",
            &rows,
            low as i32,
            high as i32,
            "11.15 step 11: \"creates a roll on the random officer hit chart\"",
        ) {
            out = Some(OfficerHit { die, rows });
        }
    });
    out
}

/// Who has a movement allowance: each arm, and skirmishers.
const MOVERS: &[&str] = &[
    "infantry",
    "cavalry",
    "artillery",
    "headquarters",
    "train",
    "skirmish",
];

fn lengths(
    keys: &mut dyn Keys,
    key: &str,
    required: &[&str],
) -> Option<BTreeMap<String, Hundredths>> {
    let mut out = BTreeMap::new();
    let mut good = true;
    keys.table(key, &mut |t| {
        for name in required {
            match t.length(name, MOST, None) {
                Some(v) => {
                    out.insert(name.to_string(), i64::from(v));
                }
                None => good = false,
            }
        }
    });
    good.then_some(out)
}

fn base_of(name: &str, keys: &mut dyn Keys) -> Option<Base> {
    let frontage = keys.length("frontage", MOST, None);
    let depth = keys.length("depth", MOST, None);
    if Arm::from_word(name).is_none() {
        keys.problem(
            "frontage",
            format!(
                "`{name}` is no arm: the arms are {}",
                Arm::words().join(", ")
            ),
            None,
        );
        return None;
    }
    let base = Base {
        frontage: i64::from(frontage?),
        depth: i64::from(depth?),
    };
    if base.frontage == 0 || base.depth == 0 {
        keys.problem("frontage", "a base has a frontage and a depth".into(), None);
        return None;
    }
    Some(base)
}

/// Checks the tables against each other: every row names a weapon and a
/// shot it has a zone for, every zone has its row, every line and named
/// modifier the rules apply is there.
fn whole(keys: &mut dyn Keys, p: &Params) -> bool {
    let mut problems: Vec<(&str, String, &'static str)> = Vec::new();
    for name in p.fire_chart.keys() {
        if line::ALL.contains(&name.as_str()) {
            continue;
        }
        let Some((weapon, what)) = name.split_once(' ') else {
            problems.push((
                "fire_chart",
                format!(
                    "row `{name}` is neither a small arms line ({}) nor `<weapon> <shot>`",
                    line::ALL.join(", ")
                ),
                CHARTS,
            ));
            continue;
        };
        let Some(w) = p.weapons.get(weapon) else {
            problems.push((
                "fire_chart",
                format!("row `{name}`: no weapon `{weapon}` in the Weapon Range Chart"),
                CHARTS,
            ));
            continue;
        };
        let fits = if w.kind == WeaponKind::SmallArms {
            line::ALL.contains(&what)
        } else {
            Shot::from_word(what).is_some_and(|s| w.shots().contains(&s) && s != Shot::Ball)
        };
        if !fits {
            problems.push((
                "fire_chart",
                format!("row `{name}`: `{weapon}` has no fire zone for `{what}`"),
                CHARTS,
            ));
        }
    }
    for l in line::ALL {
        if !p.fire_chart.contains_key(*l) {
            problems.push((
                "fire_chart",
                format!("no row `{l}`: every small arms Fire Chart line is needed"),
                "11.34: \"Minimum Range Fire Zone uses the normal 2 rank,3 rank or square firing horizontal row Fire Chart lines\"",
            ));
        }
    }
    for (name, w) in &p.weapons {
        let needs: Vec<Vec<Shot>> = match w.kind {
            WeaponKind::SmallArms => Vec::new(),
            _ => {
                let mut n = Vec::new();
                if w.roundshot.is_some() {
                    n.push(vec![Shot::Roundshot]);
                }
                if w.shot.is_some() {
                    n.push(vec![Shot::Shot]);
                }
                if w.shell.is_some() {
                    n.push(vec![Shot::Shell, Shot::Shrapnel]);
                }
                if w.rocket.is_some() {
                    n.push(vec![Shot::Rocket]);
                }
                n
            }
        };
        for shots in needs {
            if !shots.iter().any(|s| p.artillery_row(name, *s).is_some()) {
                problems.push((
                    "fire_chart",
                    format!(
                        "no row `{name} {}`: `{name}` has that fire zone",
                        shots[0].word()
                    ),
                    CHARTS,
                ));
            }
        }
    }
    for m in modifier::REQUIRED {
        if !p.modifiers.contains_key(*m) {
            problems.push((
                "modifiers",
                format!("no modifier `{m}`: the rules apply it by itself"),
                MODIFIERS,
            ));
        }
    }
    if !p.firing_class.contains_key("default") {
        problems.push((
            "firing_class",
            "no `default` firing classes, for a side of any other nation".into(),
            CLASSES,
        ));
    }
    for arm in ["infantry", "cavalry", "artillery", "headquarters", "train"] {
        if !p.basing.contains_key(arm) {
            problems.push((
                "basing",
                format!("no base for `{arm}`"),
                "11.43: \"Artillery uses the entire frontal face base width\"",
            ));
        }
    }
    let good = problems.is_empty();
    for (key, text, clause) in problems {
        keys.problem(key, text, Some(clause));
    }
    good
}

#[cfg(test)]
mod tests {
    use super::super::plain::PlainKeys;
    use super::super::{SAMPLE, sample};
    use super::*;

    #[test]
    fn the_sample_tables_read_clean_and_whole() {
        let mut keys = PlainKeys::of(SAMPLE);
        let read = params(&mut keys, Params::default());
        assert!(keys.problems.is_empty(), "{:#?}", keys.problems);
        let p = read.expect("the sample reads");
        assert_eq!(p, sample());
        assert!(p.fire_chart.contains_key("12pdr roundshot"));
        assert!(p.weapons.contains_key("musket"));
    }

    #[test]
    fn a_chart_row_with_a_percentage_missing_is_refused() {
        let text = "[fire_chart.two-rank]\ncolumns = [1, 2]\nA = { massed = [10, 20], linear = [5, 10] }\nB = { massed = [10], linear = [5, 10] }\nC = { massed = [10, 20], linear = [5, 10] }\n";
        let mut keys = PlainKeys::of(text);
        assert!(params(&mut keys, sample()).is_none());
        assert!(
            keys.problems
                .iter()
                .any(|p| p.contains("fire_chart.two-rank.B.massed: 1 percentages for 2 columns")),
            "{:?}",
            keys.problems
        );
    }
}

#[cfg(test)]
mod in_a_campaign {
    use std::path::Path;

    /// A table a campaign gives wrong is reported at its place in the file.
    #[test]
    fn a_bad_chart_row_is_reported_at_its_line_and_column() {
        let campaign = include_str!("../../../../campaigns/percentile-fire-demo/campaign.toml");
        let scenario = include_str!("../../../../campaigns/percentile-fire-demo/scenario.toml");
        let broken = campaign.replacen(
            "[[side]]",
            "[ruleset.parameters.fire_chart.two-rank]\ncolumns = [1, 2]\nA = { massed = [10, 20], linear = [5, 10] }\nB = { massed = [10, 20], linear = [5, 1000] }\nC = { massed = [10, 20], linear = [5, 10] }\n\n[[side]]",
            1,
        );
        let line = broken
            .lines()
            .position(|l| l.starts_with("B = { massed = [10, 20], linear = [5, 1000]"))
            .expect("the broken line")
            + 1;
        let problems = crate::campaign::load_texts(Path::new("demo"), &broken, scenario)
            .expect_err("the broken row is refused")
            .to_string();
        let at = format!("demo/campaign.toml:{line}:39: linear must be from 0 to 999, not 1000");
        assert!(problems.contains(&at), "{problems}");
        assert_eq!(problems.lines().count(), 1, "{problems}");
        assert!(crate::campaign::load_texts(Path::new("demo"), campaign, scenario).is_ok());
    }
}
