//! The umpire calls: each table of the rules text asked for alone, with the
//! lookups, modifiers and dice shown. The calls build the same
//! [`FireCall`](super::mechanics::fire::FireCall) and
//! [`Engagement`](super::mechanics::combat::Engagement) a turn builds, so a call and a
//! turn read the tables the one way.

use serde::Serialize;
use serde_json::json;

use super::clauses;
use super::ground::{Ground, SideFeature};
use super::mechanics::combat::{self, Aspect, Attacker, Defender, Engagement};
use super::mechanics::fire::{self, FireCall};
use super::params::Readings;
use super::state::{Condition, State, Weapon};
use super::tables;
use crate::audit::dice::Dice;
use crate::rules::umpire::{Trace, UmpireError, UmpireReport, forbidden};
use crate::rules::words::{Cursor, ReadError};

/// How each call is written.
pub const HELP: &str = "\
fire <B|C|L> [disordered] at <H|M|L|R|C|B> [disordered|retired] range <1|2> [angled] [leader]
shock <attackers: H M L R> vs <defender> [disordered|retired] [through front|flank|rear ...] [across smolka|nigni-dubik|ridge|steep-slope ...] [uphill] [into woods] [attacker-disordered] [attacker-leader] [defender-leader] [russian-heavy-leader] [defender-shock <+n|-n>] [defenders <n>] [continued <n>]
charge <attackers: H M R> vs <defender> [disordered|retired] [through ...] [uphill] [across ridge] [moved] [counter-charge] [attacker-leader] [defender-leader] [russian-heavy-leader] [defender-shock <+n|-n>] [defenders <n>] [continued <n>]
reluctance <H|M|R>
counter-charge [shock <+n|-n>] [flank]
matrix <attacker> vs <defender>
terrain <clear|woods|nepravda-river|smolka-river|nigni-dubik-river|level-change|steep-slope|ridge|cliff|enemy-zoc>
death-of-leader
move <H|M|L|R|C|B> <hex> <hex> ...   (movement points along a path of hexes on the campaign's map)";

/// A call that does not read; [`call`] names the call it is in.
fn syntax(problem: impl Into<String>) -> UmpireError {
    UmpireError::Syntax {
        call: String::new(),
        problem: problem.into(),
    }
}

/// A weapon system by its letter.
fn weapon(w: &mut Cursor, what: &str) -> Result<Weapon, ReadError> {
    let expected = format!("the {what}'s weapon system: H, M, L, R, C or B");
    let word = w.word(&expected)?;
    Weapon::from_letter(&word.text).ok_or_else(|| ReadError::at(&word, expected))
}

/// The defender's or target's state, normal when not written.
fn condition(w: &mut Cursor) -> Condition {
    w.eat_any(&[
        ("disordered", Condition::Disordered),
        ("retired", Condition::Retired),
    ])
    .unwrap_or(Condition::Normal)
}

/// A count the calls take: hexes of range, defending units, attacks.
fn count(w: &mut Cursor, what: &str) -> Result<u32, ReadError> {
    w.number(what, 0..=99)
}

/// A die roll modifier such as +1 or -1.
fn modifier(w: &mut Cursor, what: &str) -> Result<i32, ReadError> {
    w.signed(&format!("{what}, such as +1 or -1"), -9..=9)
}

fn report<T: Serialize>(call: String, trace: Trace, result: &T) -> UmpireReport {
    let mut called = trace.finish(call, ());
    called.report.result = serde_json::to_value(result).unwrap_or(serde_json::Value::Null);
    called.report
}

/// Performs one call on the campaign's state.
pub fn call(state: &State, text: &str, dice: &mut dyn Dice) -> Result<UmpireReport, UmpireError> {
    let mut w = Cursor::of(text);
    let read = crate::rules::umpire::call_of(&mut w, CALLS)?;
    read(state, &mut w, dice).map_err(|e| e.within(text))
}

/// How a call is read and made.
type Call = fn(&State, &mut Cursor, &mut dyn Dice) -> Result<UmpireReport, UmpireError>;

/// The calls by name, each read by a function of its own.
const CALLS: &[(&[&str], Call)] = &[
    (&["fire"], fire_call),
    (&["shock"], |state, w, dice| {
        combat_call(state, w, false, dice)
    }),
    (&["charge"], |state, w, dice| {
        combat_call(state, w, true, dice)
    }),
    (&["reluctance"], |_, w, dice| reluctance_call(w, dice)),
    (&["counter-charge"], counter_call),
    (&["matrix"], |_, w, _| matrix_call(w)),
    (&["terrain"], |_, w, _| terrain_call(w)),
    (&["death-of-leader"], death_call),
    (&["move"], |state, w, _| move_call(state, w)),
];

fn fire_call(
    state: &State,
    w: &mut Cursor,
    dice: &mut dyn Dice,
) -> Result<UmpireReport, UmpireError> {
    let firer = weapon(w, "firer")?;
    let firer_disordered = w.eat("disordered");
    w.expect("at")?;
    let target = weapon(w, "target")?;
    let condition = condition(w);
    w.expect("range")?;
    let range = count(w, "the range in hexes")?;
    let angled = w.eat("angled");
    let leader = w.eat("leader");
    w.finish()?;
    if !firer.fires() {
        return Err(forbidden(
            &format!("{} do not fire", firer.words()),
            clauses::RANGE_DRM,
            "Bowman, Light Cavalry, Crossbows",
        ));
    }
    if tables::range_drm(firer, range).is_none() {
        return Err(forbidden(
            &format!("range {range}: the chart gives ranges of 1 and 2 hexes"),
            clauses::RANGE_DRM,
            "Range in Hexes 1 2",
        ));
    }
    let canonical = format!(
        "fire {firer}{} at {target}{} range {range}{}{}",
        if firer_disordered { " disordered" } else { "" },
        match condition {
            Condition::Normal => "",
            c =>
                if c == Condition::Disordered {
                    " disordered"
                } else {
                    " retired"
                },
        },
        if angled { " angled" } else { "" },
        if leader { " leader" } else { "" },
    );
    let call = FireCall {
        firer,
        firer_disordered,
        target,
        condition,
        range,
        angled,
        leaders: if leader {
            vec![fire::Leader {
                id: String::new(),
                name: "the leader".to_string(),
            }]
        } else {
            Vec::new()
        },
        who: format!("{firer} at {target}"),
    };
    let mut trace = Trace::default();
    if angled && !target.is_horse() {
        trace.note("angled fire counts only at a Horse Unit: no modifier at a Leg Unit");
    }
    if condition == Condition::Retired {
        trace.note("a retired target is read in the Target Disordered column (ruling KUL-9)");
    }
    let out = fire::resolve(
        &call,
        &state.params,
        &Readings::of(&state.options),
        dice,
        &mut trace,
    );
    let killed = out.leader_checks.iter().any(|c| c.killed);
    trace.outcome = format!(
        "{} ({} {}){}",
        out.result,
        out.column,
        out.band,
        if killed {
            "; the leader is killed"
        } else if !out.leader_checks.is_empty() {
            "; the leader survives"
        } else {
            ""
        }
    );
    Ok(report(canonical, trace, &out))
}

/// The terrain words of a combat call: `across <feature>`, `uphill`, `into
/// woods`.
#[derive(Default)]
struct CallTerrain {
    across: Vec<SideFeature>,
    nepravda: bool,
    cliff: bool,
    uphill: bool,
    woods: bool,
}

/// The hexsides an attack may be across.
const ACROSS: &[&str] = &[
    "smolka",
    "nigni-dubik",
    "ridge",
    "steep-slope",
    "nepravda",
    "cliff",
];

fn across_word(w: &mut Cursor) -> Result<&'static str, ReadError> {
    let expected = format!("a hexside: {}", ACROSS.join(", "));
    let word = w.word(&expected)?;
    ACROSS
        .iter()
        .copied()
        .find(|k| *k == word.text)
        .ok_or_else(|| ReadError::at(&word, expected))
}

/// A shock or charge call as read, before anything is checked.
struct CombatCall {
    weapons: Vec<Weapon>,
    defender: Weapon,
    condition: Condition,
    aspects: Vec<Aspect>,
    terrain: CallTerrain,
    /// The `across` words as written, first use of each, for the canonical
    /// call.
    across_words: Vec<&'static str>,
    moved: bool,
    counter: bool,
    att_dis: bool,
    att_leader: bool,
    def_leader: bool,
    russian: bool,
    shock_drm: i32,
    defenders: u32,
    continued: u32,
}

fn combat_call(
    state: &State,
    w: &mut Cursor,
    charge: bool,
    dice: &mut dyn Dice,
) -> Result<UmpireReport, UmpireError> {
    let mut call = read_combat_call(w, charge)?;
    refuse_attackers(&call, charge)?;
    refuse_terrain(&call.terrain, charge)?;
    let engagement = engagement(&mut call, charge)?;
    let canonical = canonical_combat(&call, charge);
    let mut trace = Trace::default();
    if call.terrain.woods {
        trace.note("Terrain Effects, Woods, Shock Combat: \"No effect\"");
    }
    if call.condition == Condition::Retired {
        trace.note("a retired defender is read in the Defender Disordered column (ruling KUL-9)");
    }
    let out = combat::resolve(
        &engagement,
        &state.params,
        &Readings::of(&state.options),
        dice,
        &mut trace,
    );
    trace.outcome = format!(
        "{} ({}, {} {})",
        out.result, out.table, out.column, out.band
    );
    Ok(report(canonical, trace, &out))
}

/// Reads `<attackers> vs <defender> [condition]` and the words after it;
/// `moved` and `counter-charge` are words of a charge only.
fn read_combat_call(w: &mut Cursor, charge: bool) -> Result<CombatCall, UmpireError> {
    let mut weapons = Vec::new();
    while w.peek().is_some_and(|p| p != "vs") {
        weapons.push(weapon(w, "attacker")?);
    }
    if weapons.is_empty() {
        return Err(w.error("the attackers' weapon systems before `vs`").into());
    }
    w.expect("vs")?;
    let defender = weapon(w, "defender")?;
    let condition = condition(w);
    let mut call = CombatCall {
        weapons,
        defender,
        condition,
        aspects: Vec::new(),
        terrain: CallTerrain::default(),
        across_words: Vec::new(),
        moved: false,
        counter: false,
        att_dis: false,
        att_leader: false,
        def_leader: false,
        russian: false,
        shock_drm: 0,
        defenders: 1,
        continued: 0,
    };
    while let Some(word) = w.next() {
        match word.text.as_str() {
            "through" => read_aspects(w, &mut call.aspects)?,
            "across" => read_across(w, &mut call)?,
            "uphill" => call.terrain.uphill = true,
            "into" => {
                w.expect("woods")?;
                call.terrain.woods = true;
            }
            "moved" if charge => call.moved = true,
            "counter-charge" if charge => call.counter = true,
            "attacker-disordered" => call.att_dis = true,
            "attacker-leader" => call.att_leader = true,
            "defender-leader" => call.def_leader = true,
            "russian-heavy-leader" => call.russian = true,
            "defender-shock" => call.shock_drm = modifier(w, "the shock DRM")?,
            "defenders" => call.defenders = count(w, "the defending units")?.max(1),
            "continued" => call.continued = count(w, "the continued attacks")?,
            _ => return Err(ReadError::at(&word, "a word of the call").into()),
        }
    }
    Ok(call)
}

/// `through front|flank|rear ...`: at least one aspect, each kept once.
fn read_aspects(w: &mut Cursor, aspects: &mut Vec<Aspect>) -> Result<(), UmpireError> {
    const ASPECTS: &[(&str, Aspect)] = &[
        ("front", Aspect::Front),
        ("flank", Aspect::Flank),
        ("rear", Aspect::Rear),
    ];
    let mut any = false;
    while let Some(a) = w.eat_any(ASPECTS) {
        any = true;
        if !aspects.contains(&a) {
            aspects.push(a);
        }
    }
    if !any {
        return Err(w.error("an aspect: front, flank or rear").into());
    }
    Ok(())
}

/// `across <hexside>`: the Nepravda and a cliff are only marked here, to be
/// refused once the whole call is read.
fn read_across(w: &mut Cursor, call: &mut CombatCall) -> Result<(), UmpireError> {
    let k = across_word(w)?;
    if !call.across_words.contains(&k) {
        call.across_words.push(k);
    }
    let terrain = &mut call.terrain;
    match k {
        "smolka" => terrain.across.push(SideFeature::Smolka),
        "nigni-dubik" => terrain.across.push(SideFeature::NigniDubik),
        "ridge" => terrain.across.push(SideFeature::Ridge),
        "steep-slope" => terrain.across.push(SideFeature::SteepSlope),
        "nepravda" => terrain.nepravda = true,
        _ => terrain.cliff = true,
    }
    Ok(())
}

/// The Weapons System Matrix: "Bowman (B) and Crossbow (C) may not Shock
/// Attack or Charge", "Light Cavalry (L) may not Charge"; and a disordered
/// unit may not charge (ruling KUL-16).
fn refuse_attackers(call: &CombatCall, charge: bool) -> Result<(), UmpireError> {
    for &a in &call.weapons {
        if !a.may_shock() {
            return Err(forbidden(
                &format!("{} may not attack", a.words()),
                clauses::MATRIX,
                "Bowman (B) and Crossbow (C) may not Shock Attack or Charge.",
            ));
        }
        if charge && !a.may_charge() {
            return Err(forbidden(
                "light cavalry may not charge",
                clauses::MATRIX,
                "Light Cavalry (L) may not Charge.",
            ));
        }
    }
    if charge && call.att_dis {
        return Err(UmpireError::Forbidden {
            problem: "a disordered unit may not charge".to_string(),
            clause: format!("ruling KUL-16; {}", clauses::DRM_DISORDERED),
        });
    }
    Ok(())
}

/// The Terrain Effects Chart's "Not allowed": no attack across the Nepravda
/// or a cliff; no charge into woods, across a stream or a steep slope.
fn refuse_terrain(terrain: &CallTerrain, charge: bool) -> Result<(), UmpireError> {
    if terrain.nepravda {
        let c = if charge {
            clauses::NEPRAVDA_CHARGE
        } else {
            clauses::NEPRAVDA_SHOCK
        };
        return Err(UmpireError::Forbidden {
            problem: "no attack across the Nepravda River".to_string(),
            clause: c.to_string(),
        });
    }
    if terrain.cliff {
        let c = if charge {
            clauses::CLIFF_CHARGE
        } else {
            clauses::CLIFF_SHOCK
        };
        return Err(UmpireError::Forbidden {
            problem: "no attack across a cliff".to_string(),
            clause: c.to_string(),
        });
    }
    if !charge {
        return Ok(());
    }
    let refused = if terrain.woods {
        Some(("no charge into woods", clauses::WOODS_CHARGE))
    } else if terrain
        .across
        .iter()
        .any(|f| matches!(f, SideFeature::Smolka | SideFeature::NigniDubik))
    {
        Some(("no charge across a stream", clauses::STREAM_CHARGE))
    } else if terrain.across.contains(&SideFeature::SteepSlope) {
        Some(("no charge across a steep slope", clauses::STEEP_CHARGE))
    } else {
        None
    };
    match refused {
        Some((problem, clause)) => Err(UmpireError::Forbidden {
            problem: problem.to_string(),
            clause: clause.to_string(),
        }),
        None => Ok(()),
    }
}

/// The engagement the call asks for. The aspects are sorted (front when
/// none is named), so the canonical call names them in one order.
fn engagement(call: &mut CombatCall, charge: bool) -> Result<Engagement, UmpireError> {
    let aspects = &mut call.aspects;
    if aspects.is_empty() {
        aspects.push(Aspect::Front);
    }
    aspects.sort();
    let weapons = &call.weapons;
    // Each attacker comes through one of the aspects named, in turn.
    let attackers: Vec<Attacker> = weapons
        .iter()
        .enumerate()
        .map(|(i, &weapon)| Attacker {
            name: if weapons.len() == 1 {
                weapon.letter().to_string()
            } else {
                format!("{weapon}{}", i + 1)
            },
            weapon,
            charging: charge,
            moved: call.moved,
            disordered: call.att_dis,
            aspect: aspects[i.min(aspects.len() - 1)],
            uphill: call.terrain.uphill,
            across: call.terrain.across.clone(),
        })
        .collect();
    // More aspects than attackers would leave an aspect no attacker comes
    // through.
    if aspects.len() > attackers.len() {
        return Err(syntax(
            "name no more aspects after `through` than there are attackers",
        ));
    }
    Ok(Engagement {
        attackers,
        defender: Defender {
            name: call.defender.letter().to_string(),
            weapon: call.defender,
            condition: call.condition,
            shock_drm: call.shock_drm,
            units: call.defenders,
        },
        attacker_leader: call.att_leader,
        defender_leader: call.def_leader,
        russian_heavy_leader: call.russian,
        continued: call.continued,
        counter_charge: call.counter,
    })
}

/// The call written the one way: words in the order of `HELP`, defaults
/// left out.
fn canonical_combat(call: &CombatCall, charge: bool) -> String {
    let letters: Vec<&str> = call.weapons.iter().map(|w| w.letter()).collect();
    let mut canonical = format!(
        "{} {} vs {}",
        if charge { "charge" } else { "shock" },
        letters.join(" "),
        call.defender
    );
    match call.condition {
        Condition::Normal => {}
        c => canonical.push_str(&format!(" {}", c.word())),
    }
    if call.aspects != [Aspect::Front] {
        let words: Vec<&str> = call.aspects.iter().map(|a| a.word()).collect();
        canonical.push_str(&format!(" through {}", words.join(" ")));
    }
    for k in &call.across_words {
        canonical.push_str(&format!(" across {k}"));
    }
    for (flag, word) in [
        (call.terrain.uphill, "uphill"),
        (call.terrain.woods, "into woods"),
        (call.moved, "moved"),
        (call.counter, "counter-charge"),
        (call.att_dis, "attacker-disordered"),
        (call.att_leader, "attacker-leader"),
        (call.def_leader, "defender-leader"),
        (call.russian, "russian-heavy-leader"),
    ] {
        if flag {
            canonical.push(' ');
            canonical.push_str(word);
        }
    }
    if call.shock_drm != 0 {
        canonical.push_str(&format!(" defender-shock {:+}", call.shock_drm));
    }
    if call.defenders != 1 {
        canonical.push_str(&format!(" defenders {}", call.defenders));
    }
    if call.continued != 0 {
        canonical.push_str(&format!(" continued {}", call.continued));
    }
    canonical
}

fn reluctance_call(w: &mut Cursor, dice: &mut dyn Dice) -> Result<UmpireReport, UmpireError> {
    let weapon = weapon(w, "charging unit")?;
    w.finish()?;
    if !weapon.may_charge() {
        return Err(forbidden(
            &format!("{} may not charge", weapon.words()),
            clauses::MATRIX,
            if weapon == Weapon::L {
                "Light Cavalry (L) may not Charge."
            } else {
                "Bowman (B) and Crossbow (C) may not Shock Attack or Charge."
            },
        ));
    }
    let mut trace = Trace::default();
    let r = combat::reluctance(weapon.letter(), weapon, dice, &mut trace);
    trace.outcome = if r.charges {
        format!("{} ({}): the unit charges", r.band, r.modified)
    } else {
        format!(
            "{} ({}): the unit must attack without benefit of the Charge DRM",
            r.band, r.modified
        )
    };
    Ok(report(format!("reluctance {weapon}"), trace, &r))
}

fn counter_call(
    state: &State,
    w: &mut Cursor,
    dice: &mut dyn Dice,
) -> Result<UmpireReport, UmpireError> {
    let mut shock_drm = 0;
    let mut flank = false;
    while let Some(word) = w.next() {
        match word.text.as_str() {
            "shock" => shock_drm = modifier(w, "the shock DRM")?,
            "flank" => flank = true,
            _ => return Err(ReadError::at(&word, "a word of the call").into()),
        }
    }
    let mut trace = Trace::default();
    let r = combat::counter_charge(
        "the defender",
        &Readings::of(&state.options),
        shock_drm,
        flank,
        dice,
        &mut trace,
    );
    trace.outcome = if r.successful {
        format!(
            "{} ({}): successful, the Charge DRM is negated",
            r.band, r.modified
        )
    } else {
        format!(
            "{} ({}): unsuccessful, the defender defends normally",
            r.band, r.modified
        )
    };
    let mut canonical = "counter-charge".to_string();
    if shock_drm != 0 {
        canonical.push_str(&format!(" shock {shock_drm:+}"));
    }
    if flank {
        canonical.push_str(" flank");
    }
    Ok(report(canonical, trace, &r))
}

fn matrix_call(w: &mut Cursor) -> Result<UmpireReport, UmpireError> {
    let attacker = weapon(w, "attacker")?;
    w.expect("vs")?;
    let defender = weapon(w, "defender")?;
    w.finish()?;
    let Some(value) = tables::matrix(attacker, defender) else {
        return Err(forbidden(
            &format!("{} may not attack", attacker.words()),
            clauses::MATRIX,
            "Bowman (B) and Crossbow (C) may not Shock Attack or Charge.",
        ));
    };
    let mut trace = Trace::default();
    trace.lookup(
        clauses::MATRIX,
        format!("defender {defender}, attacker {attacker}"),
        format!("{value:+}"),
    );
    trace.outcome = format!("{value:+} to the shock or charge roll");
    Ok(report(
        format!("matrix {attacker} vs {defender}"),
        trace,
        &json!({ "value": value }),
    ))
}

/// The Terrain Effects chart, row by row: movement, shock, charge and
/// missile fire, as printed.
pub const CHART: &[(&str, &str, [&str; 4])] = &[
    (
        "clear",
        "Clear",
        ["1 MP", "No effect", "No effect", "No effect"],
    ),
    (
        "woods",
        "Woods",
        [
            "2 MP",
            "No effect",
            "Not allowed into",
            "May fire into but not through",
        ],
    ),
    (
        "nepravda-river",
        "Nepravda River",
        ["Uncrossable", "Not allowed", "Not allowed", "No effect"],
    ),
    (
        "smolka-river",
        "Smolka River and River Nigni Dubik",
        [
            "+1 MP to cross hex side",
            "-1 across",
            "Not allowed",
            "No effect",
        ],
    ),
    (
        "nigni-dubik-river",
        "Smolka River and River Nigni Dubik",
        [
            "+1 MP to cross hex side",
            "-1 across",
            "Not allowed",
            "No effect",
        ],
    ),
    (
        "level-change",
        "Level Change",
        [
            "+1 MP to move to lower or higher level",
            "-1 if all attacking units on lower level",
            "-1 into higher level",
            "Blocks LOS unless adjacent",
        ],
    ),
    (
        "steep-slope",
        "Steep Slope",
        [
            "+1 MP to move to lower or higher level",
            "-2 across hex side",
            "Not allowed",
            "Blocks LOS unless adjacent",
        ],
    ),
    (
        "ridge",
        "Ridge",
        [
            "No movement cost",
            "-1 across hex side",
            "No effect",
            "Blocks LOS unless adjacent",
        ],
    ),
    (
        "cliff",
        "Cliff",
        [
            "Uncrossable Eliminated if forced to retreat across",
            "Not allowed",
            "Not allowed",
            "Blocks LOS unless adjacent",
        ],
    ),
    (
        "enemy-zoc",
        "Enemy ZOC",
        [
            "+1 MP for Light Cavalry to Missile Fire",
            "No effect",
            "Cannot have started activation within",
            "See MP cost for Light Cavalry",
        ],
    ),
];

const COLUMNS: [&str; 4] = [
    "MP Costs & Other Movement Effects",
    "Shock Combat",
    "Charge Combat",
    "Missile Fire",
];

fn terrain_call(w: &mut Cursor) -> Result<UmpireReport, UmpireError> {
    let kinds: Vec<&str> = CHART.iter().map(|(k, _, _)| *k).collect();
    let expected = format!("a row of the chart: {}", kinds.join(", "));
    let kind = w.word(&expected)?;
    w.finish()?;
    let Some((key, row, cells)) = CHART.iter().find(|(k, _, _)| *k == kind.text) else {
        return Err(ReadError::at(&kind, expected).into());
    };
    let mut trace = Trace::default();
    for (column, cell) in COLUMNS.iter().zip(cells) {
        trace.lookup("Terrain Effects", format!("{row}, {column}"), *cell);
    }
    trace.outcome = format!(
        "{row}: movement {}; shock {}; charge {}; missile fire {}",
        cells[0], cells[1], cells[2], cells[3]
    );
    Ok(report(
        format!("terrain {key}"),
        trace,
        &json!({
            "row": row,
            "movement": cells[0],
            "shock": cells[1],
            "charge": cells[2],
            "missile_fire": cells[3],
        }),
    ))
}

fn death_call(
    state: &State,
    w: &mut Cursor,
    dice: &mut dyn Dice,
) -> Result<UmpireReport, UmpireError> {
    w.finish()?;
    let mut trace = Trace::default();
    trace.note(clauses::DEATH_OF_LEADER);
    let check = fire::death_of_leader("the leader", &state.params, dice, &mut trace);
    trace.outcome = if check.killed {
        format!("{}: the leader is killed", check.roll)
    } else {
        format!("{}: the leader survives", check.roll)
    };
    Ok(report("death-of-leader".to_string(), trace, &check))
}

fn move_call(state: &State, w: &mut Cursor) -> Result<UmpireReport, UmpireError> {
    let weapon = weapon(w, "moving unit")?;
    let mut path = Vec::new();
    while !w.is_done() {
        path.push(w.hex("a hex of the path")?);
    }
    if path.len() < 2 {
        return Err(w
            .error("the hex the unit starts in and at least one more")
            .into());
    }
    let ground = Ground::of(&state.map, &state.terrain);
    let mut trace = Trace::default();
    let mut cost = 0;
    for pair in path.windows(2) {
        let (from, to) = (pair[0], pair[1]);
        if !ground.contains(to) {
            return Err(syntax(format!("hex {} is not on the map", to.label())));
        }
        let Some(crossing) = ground.between(from, to) else {
            return Err(syntax(format!(
                "hex {} does not touch hex {}",
                to.label(),
                from.label()
            )));
        };
        if let Some((problem, clause)) = crossing.uncrossable() {
            return Err(UmpireError::Forbidden {
                problem: format!("{problem} between {} and {}", from.label(), to.label()),
                clause: clause.to_string(),
            });
        }
        let (base, clause) = ground.hex_cost(to);
        trace.lookup(
            "Terrain Effects",
            format!("enter {}", to.label()),
            format!("{base} MP ({clause})"),
        );
        cost += base;
        for (extra, clause) in crossing.extra_mp() {
            trace.lookup(
                "Terrain Effects",
                format!("cross into {}", to.label()),
                format!("+{extra} MP ({clause})"),
            );
            cost += extra;
        }
    }
    let allowance = state.params.movement.of(weapon);
    trace.outcome = format!(
        "{cost} MP; {} has {allowance} (campaign parameter movement.{weapon})",
        weapon.words()
    );
    let labels: Vec<String> = path.iter().map(|h| h.label()).collect();
    Ok(report(
        format!("move {weapon} {}", labels.join(" ")),
        trace,
        &json!({ "cost": cost, "allowance": allowance }),
    ))
}
