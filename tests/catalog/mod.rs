//! The case catalog of every ruleset: one reader and one runner.
//!
//! A case is a file `tests/cases/<ruleset>/<kind>/<name>.toml`. Its first
//! key, `ruleset`, names the ruleset (the folder's name); the kind is the
//! folder it sits in:
//!
//! - `orders/`: one order `line` as a player writes it, and either the
//!   `canonical` text it reads as or the `error` (a part of the message) and
//!   the `column` it fails at; `rule` quotes the clause, where one applies.
//! - `umpire/`: a `call` as a GM types it, the forced `dice`, and what must
//!   come of it: `outcome` and `report` (texts they contain), `canonical`
//!   (the call's canonical form), `[expect]` (fields of the typed result,
//!   dotted for nesting, as `[expect.attacker] rout_hits = 4`), or `error`
//!   and `kind` (`forbidden`, `syntax`, `unknown-call`) for a refused call.
//! - `turns/`: a position, each side's `[orders]`, the forced `dice`, and
//!   what one resolved phase gives: `rejected` (each line validation
//!   refuses, as the reply words it; the acknowledgement may refuse more of
//!   what the turn would not carry out, `Rules::acknowledge`, but a case
//!   pins what resolution makes of what validation lets through), `[[event]]` (`kind`, and optionally `units` and an
//!   exact `text`, found in this order), `absent` (event kinds that must not
//!   occur) and `[[expect]]` (see [`expect`]).
//!
//! `rule` (required for umpire and turn cases) quotes the clause verbatim
//! from the rules text. Every die listed must be used, and no more asked
//! for, so the outcome is exact.
//!
//! A position is written as a scenario file writes it (docs/CAMPAIGN-FILES.md):
//! `[map]` (a 72 by 48 inch table by default), `[[terrain]]`, `[[unit]]` and
//! `[[general]]` in the same keys, in inches, and read by the same loader
//! and the ruleset's own setup. Besides: `sides` (default `["blue",
//! "red"]`), `nations` by side, `options`, `[parameters]` (the ruleset's
//! campaign parameters), `active` (default the first side), `turn` (default
//! 1), `phase` (by name; default the first), `turn_limit`. A unit or general
//! without a `name` is named by its id. What play has done to a unit before
//! the case begins is its `state`, keys of the unit as the game state holds
//! it (`state = { in_combat = true }`); `[game]` likewise sets keys of the
//! ruleset's game part. A state key the ruleset does not keep is an error,
//! not silently dropped.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use adjutant::audit::dice::{Dice, ForcedDice};
use adjutant::campaign::load_texts;
use adjutant::rules::ruleset::{Event, Resolution, SideText};
use adjutant::rules::state::GameState;
use adjutant::rules::{Ruleset, UmpireError, UmpireLine, ruleset_for};
use serde::Deserialize;
use serde_json::Value;

/// Where the catalog lives.
pub const ROOT: &str = "tests/cases";

/// The kinds of case, by the folder that holds them.
pub const KINDS: &[&str] = &["orders", "umpire", "turns"];

/// A hash the generated campaign gives its people: any well-formed hash
/// does, no case sends mail.
const SOME_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$ZH+F1i2YyiTxiJtyzL+UWw$XwsAgZ5Tild+ZrDJeOs0kO4EU1DauW7HWLQ9c36v5e0";

/// One case file, found in the catalog.
#[derive(Debug, Clone)]
pub struct CaseFile {
    pub path: PathBuf,
    /// The ruleset folder it sits in.
    pub ruleset: String,
    /// Its kind: one of [`KINDS`].
    pub kind: String,
}

impl CaseFile {
    pub fn name(&self) -> String {
        format!(
            "{}/{}/{}",
            self.ruleset,
            self.kind,
            self.path.file_stem().unwrap_or_default().to_string_lossy()
        )
    }
}

/// Every case file, sorted, and every file or folder that is not where a
/// case may be.
pub fn case_files() -> (Vec<CaseFile>, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(ROOT);
    let mut files = Vec::new();
    let mut strays = Vec::new();
    for ruleset in sorted_entries(&root) {
        let ruleset_id = file_name(&ruleset);
        if !ruleset.is_dir() {
            strays.push(format!("{ruleset_id}: not a ruleset folder"));
            continue;
        }
        for kind in sorted_entries(&ruleset) {
            let kind_name = file_name(&kind);
            if !kind.is_dir() || !KINDS.contains(&kind_name.as_str()) {
                strays.push(format!(
                    "{ruleset_id}/{kind_name}: not one of the kinds {KINDS:?}"
                ));
                continue;
            }
            for path in sorted_entries(&kind) {
                if path.extension().is_some_and(|x| x == "toml") {
                    files.push(CaseFile {
                        path,
                        ruleset: ruleset_id.clone(),
                        kind: kind_name.clone(),
                    });
                } else {
                    strays.push(format!("{}: not a case file", path.display()));
                }
            }
        }
    }
    (files, strays)
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    entries
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// Runs one case of any kind; returns every difference from what it
/// expects, empty when it passed.
pub fn check(file: &CaseFile) -> Vec<String> {
    let text = match fs::read_to_string(&file.path) {
        Ok(t) => t,
        Err(e) => return vec![format!("cannot read: {e}")],
    };
    let result = match file.kind.as_str() {
        "orders" => read::<LineCase>(&text).map(|c| (c.ruleset.clone(), check_line(&c))),
        "umpire" => read::<UmpireCase>(&text).map(|c| (c.setting.ruleset.clone(), check_call(&c))),
        _ => read::<TurnCase>(&text).map(|c| (c.setting.ruleset.clone(), check_turn(&c))),
    };
    match result {
        Err(e) => vec![format!("not a case: {e}")],
        Ok((ruleset, _)) if ruleset != file.ruleset => vec![format!(
            "names the ruleset `{ruleset}` but sits in the folder of `{}`",
            file.ruleset
        )],
        Ok((_, problems)) => problems,
    }
}

fn read<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, String> {
    toml::from_str(text).map_err(|e| e.to_string())
}

fn ruleset_named(id: &str) -> Result<&'static dyn Ruleset, String> {
    ruleset_for(id).ok_or_else(|| format!("there is no ruleset `{id}`"))
}

// ---- orders ----

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineCase {
    pub ruleset: String,
    pub line: String,
    pub canonical: Option<String>,
    pub error: Option<String>,
    pub column: Option<usize>,
    pub rule: Option<String>,
}

/// An order line read alone: its canonical text is a fixed point, or it
/// fails where the case says, with an example of the right form.
fn check_line(case: &LineCase) -> Vec<String> {
    let ruleset = match ruleset_named(&case.ruleset) {
        Ok(r) => r,
        Err(e) => return vec![e],
    };
    let mut problems = Vec::new();
    if case.rule.as_deref().is_some_and(|r| r.trim().is_empty()) {
        problems.push("`rule` is empty".to_string());
    }
    match (ruleset.read_line(&case.line), &case.canonical, &case.error) {
        (Ok(shown), Some(canonical), None) => {
            if &shown != canonical {
                problems.push(format!("canonical `{shown}`, expected `{canonical}`"));
            }
            match ruleset.read_line(&shown) {
                Ok(again) if again == shown => {}
                Ok(again) => problems.push(format!("`{shown}` reads back as `{again}`")),
                Err(e) => problems.push(format!("`{shown}` does not read back: {e}")),
            }
        }
        (Err(e), None, Some(wanted)) => {
            if !e.message.contains(wanted.as_str()) {
                problems.push(format!("error `{e}` does not contain `{wanted}`"));
            }
            match case.column {
                Some(column) if column != e.column => {
                    problems.push(format!("error at column {}, expected {column}", e.column));
                }
                None => problems.push("an error case must give `column`".to_string()),
                _ => {}
            }
            if e.example.is_empty() {
                problems.push("the error gives no example of the right form".to_string());
            }
        }
        (Ok(shown), None, Some(wanted)) => {
            problems.push(format!("read as `{shown}`, expected an error `{wanted}`"));
        }
        (Err(e), Some(canonical), None) => {
            problems.push(format!("failed ({e}), expected `{canonical}`"));
        }
        _ => problems.push("a case gives exactly one of `canonical` and `error`".to_string()),
    }
    problems
}

// ---- the position: umpire and turn cases ----

/// Where a case begins, as a scenario writes it; see the module's doc.
#[derive(Debug, Clone, Deserialize)]
pub struct Setting {
    pub ruleset: String,
    #[serde(default = "default_sides")]
    pub sides: Vec<String>,
    #[serde(default)]
    pub nations: BTreeMap<String, String>,
    #[serde(default)]
    pub options: Vec<String>,
    pub parameters: Option<toml::Table>,
    pub active: Option<String>,
    #[serde(default = "first_turn")]
    pub turn: u32,
    pub phase: Option<String>,
    pub turn_limit: Option<u32>,
    pub map: Option<toml::Table>,
    #[serde(default)]
    pub terrain: Vec<toml::Table>,
    #[serde(default)]
    pub unit: Vec<toml::Table>,
    #[serde(default)]
    pub general: Vec<toml::Table>,
    pub game: Option<toml::Table>,
    /// Whatever else the file holds: a key no case kind knows is an error.
    #[serde(flatten)]
    pub unknown: BTreeMap<String, toml::Value>,
}

fn default_sides() -> Vec<String> {
    vec!["blue".to_string(), "red".to_string()]
}

fn first_turn() -> u32 {
    1
}

impl Setting {
    /// A setting with no pieces, for a case built in code.
    pub fn empty(ruleset: &str) -> Setting {
        Setting {
            ruleset: ruleset.to_string(),
            sides: default_sides(),
            nations: BTreeMap::new(),
            options: Vec::new(),
            parameters: None,
            active: None,
            turn: 1,
            phase: None,
            turn_limit: None,
            map: None,
            terrain: Vec::new(),
            unit: Vec::new(),
            general: Vec::new(),
            game: None,
            unknown: BTreeMap::new(),
        }
    }

    fn unknown_keys(&self) -> Option<String> {
        (!self.unknown.is_empty()).then(|| {
            format!(
                "unknown key(s) {}",
                self.unknown
                    .keys()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }

    /// The campaign file of the case: its sides, each with a player, its
    /// options and parameters, one day for each phase.
    fn campaign_text(&self, ruleset: &dyn Ruleset) -> Result<String, String> {
        let mut file = toml::Table::new();
        file.insert(
            "campaign".into(),
            table([("id", "case".into()), ("title", "A case".into())]).into(),
        );
        let mut rules = table([
            ("id", self.ruleset.clone().into()),
            ("options", self.options.clone().into()),
        ]);
        if let Some(p) = &self.parameters {
            rules.insert("parameters".into(), p.clone().into());
        }
        file.insert("ruleset".into(), rules.into());
        let sides: Vec<toml::Value> = self
            .sides
            .iter()
            .map(|s| {
                let mut side = table([("id", s.clone().into()), ("name", s.clone().into())]);
                if let Some(n) = self.nations.get(s) {
                    side.insert("nation".into(), n.clone().into());
                }
                side.into()
            })
            .collect();
        file.insert("side".into(), sides.into());
        file.insert("gm".into(), person("The GM", "gm@case.invalid").into());
        let players: Vec<toml::Value> = self
            .sides
            .iter()
            .map(|s| {
                let mut p = person(s, &format!("{s}@case.invalid"));
                p.insert("side".into(), s.clone().into());
                p.into()
            })
            .collect();
        file.insert("player".into(), players.into());
        let mut schedule = table([("time_zone", "UTC".into())]);
        for phase in ruleset.phases() {
            schedule.insert(phase.name.to_string(), "24h".into());
        }
        file.insert("schedule".into(), schedule.into());
        toml::to_string(&file).map_err(|e| e.to_string())
    }

    /// The scenario file of the case: its map, terrain, units and generals.
    fn scenario_text(&self) -> Result<String, String> {
        let mut file = toml::Table::new();
        let mut head = table([
            ("title", "A case".into()),
            (
                "first_active",
                self.active
                    .clone()
                    .or_else(|| self.sides.first().cloned())
                    .unwrap_or_default()
                    .into(),
            ),
        ]);
        if let Some(limit) = self.turn_limit {
            head.insert("turn_limit".into(), i64::from(limit).into());
        }
        file.insert("scenario".into(), head.into());
        let map = self.map.clone().unwrap_or_else(|| {
            table([
                ("kind", "table".into()),
                ("width", 72_i64.into()),
                ("depth", 48_i64.into()),
            ])
        });
        file.insert("map".into(), map.into());
        file.insert("terrain".into(), self.terrain.clone().into());
        let named = |pieces: &[toml::Table], drop: &[&str]| -> toml::Value {
            pieces
                .iter()
                .map(|p| {
                    let mut p = p.clone();
                    for key in drop {
                        p.remove(*key);
                    }
                    if !p.contains_key("name")
                        && let Some(id) = p.get("id").cloned()
                    {
                        p.insert("name".into(), id);
                    }
                    toml::Value::Table(p)
                })
                .collect::<Vec<_>>()
                .into()
        };
        file.insert("unit".into(), named(&self.unit, &["state"]));
        file.insert("general".into(), named(&self.general, &[]));
        toml::to_string(&file).map_err(|e| e.to_string())
    }

    /// The game state the case begins in: the case's files loaded and
    /// checked as a campaign's are, then what play has done before it.
    pub fn start(&self) -> Result<(&'static dyn Ruleset, GameState), String> {
        if let Some(e) = self.unknown_keys() {
            return Err(e);
        }
        let ruleset = ruleset_named(&self.ruleset)?;
        let campaign = load_texts(
            Path::new("case"),
            &self.campaign_text(ruleset)?,
            &self.scenario_text()?,
        )
        .map_err(|e| format!("the position does not load:\n{e}"))?;
        let mut state = campaign.initial_state(ruleset).map_err(|e| e.to_string())?;
        state.turn = self.turn;
        if let Some(name) = &self.phase {
            state.phase = ruleset
                .phases()
                .iter()
                .position(|p| p.name == name.as_str())
                .and_then(|at| u32::try_from(at).ok())
                .ok_or_else(|| format!("there is no phase `{name}`"))?;
        }
        let mut given = Vec::new();
        for unit in &self.unit {
            let Some(changes) = unit.get("state") else {
                continue;
            };
            let id = unit.get("id").and_then(toml::Value::as_str).unwrap_or("");
            let changes = json(changes)?;
            let Some(at) = state.units.iter().position(|u| u.id == id) else {
                return Err(format!("no unit `{id}` for its state"));
            };
            let mut whole = serde_json::to_value(&state.units[at]).map_err(|e| e.to_string())?;
            merge(&mut whole, &changes, &format!("unit `{id}`"))?;
            state.units[at] =
                serde_json::from_value(whole).map_err(|e| format!("unit `{id}`: {e}"))?;
            given.push((Some(id.to_string()), changes));
        }
        if let Some(game) = &self.game {
            let changes = json(&toml::Value::Table(game.clone()))?;
            let mut whole = Value::Object(state.game.clone());
            merge(&mut whole, &changes, "the game")?;
            if let Value::Object(map) = whole {
                state.game = map;
            }
            given.push((None, changes));
        }
        let state = ruleset.reread(&state).map_err(|e| e.to_string())?;
        // Every key given must still be there as given: serde would drop a
        // misspelt one without a word.
        for (id, changes) in &given {
            let now = match id {
                Some(id) => serde_json::to_value(state.unit(id)).map_err(|e| e.to_string())?,
                None => Value::Object(state.game.clone()),
            };
            for (key, want) in changes.as_object().into_iter().flatten() {
                let got = now.get(key).cloned().unwrap_or(Value::Null);
                if !same(&got, want) {
                    return Err(format!(
                        "{}: the state key `{key}` = {want} reads back as {got}: not a key the ruleset keeps",
                        id.as_deref()
                            .map_or("the game".to_string(), |i| format!("unit `{i}`"))
                    ));
                }
            }
        }
        Ok((ruleset, state))
    }
}

fn table<const N: usize>(pairs: [(&str, toml::Value); N]) -> toml::Table {
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

fn person(name: &str, address: &str) -> toml::Table {
    table([
        ("name", name.into()),
        ("address", address.into()),
        ("passphrase_hash", SOME_HASH.into()),
    ])
}

fn json(value: &toml::Value) -> Result<Value, String> {
    serde_json::to_value(value).map_err(|e| e.to_string())
}

/// Sets each key of `changes` in the object `whole`.
fn merge(whole: &mut Value, changes: &Value, what: &str) -> Result<(), String> {
    let (Value::Object(whole), Value::Object(changes)) = (whole, changes) else {
        return Err(format!("{what}: the state is a table of keys"));
    };
    for (key, value) in changes {
        whole.insert(key.clone(), value.clone());
    }
    Ok(())
}

/// Whether a state value is what a case gives: numbers by value (TOML
/// writes 2, JSON may hold 2.0), a default the state leaves out (false, 0,
/// an empty list or text) as absent.
fn same(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Value::Null, w) => is_default(w),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (Value::Object(a), Value::Object(b)) => b
            .iter()
            .all(|(k, v)| same(a.get(k).unwrap_or(&Value::Null), v)),
        (a, b) => a == b,
    }
}

fn is_default(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
    }
}

/// Flattens nested objects into dotted keys; arrays and scalars are leaves.
fn flatten(prefix: &str, value: &Value, out: &mut Vec<(String, Value)>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, v, out);
            }
        }
        other => out.push((prefix.to_string(), other.clone())),
    }
}

// ---- umpire calls ----

#[derive(Debug, Deserialize)]
pub struct UmpireCase {
    pub rule: String,
    pub call: String,
    #[serde(default)]
    pub dice: Vec<u32>,
    pub outcome: Option<String>,
    #[serde(default)]
    pub report: Vec<String>,
    pub canonical: Option<String>,
    pub error: Option<String>,
    pub kind: Option<String>,
    #[serde(default)]
    pub expect: toml::Table,
    #[serde(flatten)]
    pub setting: Setting,
}

fn error_kind(e: &UmpireError) -> &'static str {
    match e {
        UmpireError::UnknownCall { .. } => "unknown-call",
        UmpireError::Syntax { .. } => "syntax",
        UmpireError::Forbidden { .. } => "forbidden",
        _ => "other",
    }
}

/// One umpire call on the case's position.
fn check_call(case: &UmpireCase) -> Vec<String> {
    let mut problems = Vec::new();
    if case.rule.trim().is_empty() {
        problems.push("no rule quoted".to_string());
    }
    let (ruleset, state) = match case.setting.start() {
        Ok(s) => s,
        Err(e) => return vec![e],
    };
    let state = match ruleset.read(&state) {
        Ok(read) => read,
        Err(e) => return vec![format!("the start state does not read: {e}")],
    };
    let mut dice = ForcedDice::new(case.dice.iter().copied());
    let outcome = ruleset.umpire(&state, &case.call, &mut dice);
    for p in dice.problems() {
        problems.push(format!("dice: {p}"));
    }
    let report = match (outcome, &case.error) {
        (Err(e), Some(wanted)) => {
            let shown = e.to_string();
            if !shown.contains(wanted.as_str()) {
                problems.push(format!("error `{shown}` does not contain `{wanted}`"));
            }
            if let Some(kind) = &case.kind
                && error_kind(&e) != kind
            {
                problems.push(format!("error kind {} is not {kind}", error_kind(&e)));
            }
            return problems;
        }
        (Err(e), None) => {
            problems.push(format!("the call failed: {e}"));
            return problems;
        }
        (Ok(r), Some(wanted)) => {
            problems.push(format!(
                "expected an error containing `{wanted}`, got: {}",
                r.outcome
            ));
            return problems;
        }
        (Ok(r), None) => r,
    };
    let shown = report.to_string();
    if let Some(wanted) = &case.outcome
        && !report.outcome.contains(wanted.as_str())
    {
        problems.push(format!(
            "outcome `{}` does not contain `{wanted}`",
            report.outcome
        ));
    }
    for wanted in &case.report {
        if !shown.contains(wanted.as_str()) {
            problems.push(format!("report does not contain `{wanted}`"));
        }
    }
    if let Some(wanted) = &case.canonical
        && &report.call != wanted
    {
        problems.push(format!("canonical `{}` is not `{wanted}`", report.call));
    }
    // Every roll the dice logged is in the report, in order.
    let logged: Vec<&str> = dice.log().iter().map(|r| r.purpose.as_str()).collect();
    let reported: Vec<&str> = report
        .lines
        .iter()
        .filter_map(|l| match l {
            UmpireLine::Roll { purpose, .. } => Some(purpose.as_str()),
            _ => None,
        })
        .collect();
    if logged != reported {
        problems.push(format!(
            "rolls logged {logged:?} differ from rolls reported {reported:?}"
        ));
    }
    // The canonical form is a fixed point and gives the same result.
    let mut again = ForcedDice::new(case.dice.iter().copied());
    match ruleset.umpire(&state, &report.call, &mut again) {
        Ok(r) if r == report && r.result == report.result => {}
        Ok(r) => problems.push(format!(
            "the canonical call `{}` gives a different result: {r}",
            report.call
        )),
        Err(e) => problems.push(format!("the canonical call `{}` fails: {e}", report.call)),
    }
    let mut actual = Vec::new();
    flatten("", &report.result, &mut actual);
    let mut expected = Vec::new();
    match json(&toml::Value::Table(case.expect.clone())) {
        Ok(v) => flatten("", &v, &mut expected),
        Err(e) => problems.push(format!("[expect] does not convert: {e}")),
    }
    for (key, want) in expected {
        match actual.iter().find(|(k, _)| *k == key) {
            None => problems.push(format!(
                "no result field `{key}`; the fields are: {}",
                actual
                    .iter()
                    .map(|(k, _)| k.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            Some((_, got)) if *got != want => {
                problems.push(format!("{key}: expected {want}, got {got}"));
            }
            Some(_) => {}
        }
    }
    if !problems.is_empty() {
        problems.push(format!("the report was:\n{shown}"));
    }
    problems
}

// ---- turns ----

/// The shared fields of every unit and general, as the state names them;
/// with the ruleset's own, the keys an `[[expect]]` may give.
pub const UNIT_FIELDS: &[&str] = &[
    "id",
    "name",
    "side",
    "location",
    "facing",
    "strength",
    "original_strength",
    "eliminated",
];
const GENERAL_FIELDS: &[&str] = &["id", "name", "side", "location", "attached_to", "lost"];

#[derive(Debug, Clone, Deserialize)]
pub struct TurnCase {
    pub rule: String,
    #[serde(default)]
    pub orders: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub dice: Vec<u32>,
    #[serde(default)]
    pub rejected: Vec<String>,
    #[serde(default)]
    pub event: Vec<EventWanted>,
    #[serde(default)]
    pub absent: Vec<String>,
    #[serde(default)]
    pub expect: Vec<toml::Table>,
    #[serde(flatten)]
    pub setting: Setting,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventWanted {
    pub kind: String,
    pub units: Option<Vec<String>>,
    pub text: Option<String>,
}

/// What one phase of a case gave.
pub struct Played {
    pub ruleset: &'static dyn Ruleset,
    pub start: GameState,
    /// Every refused line, as the reply words it, in side order.
    pub rejected: Vec<String>,
    pub resolution: Resolution,
    pub dice_problems: Vec<String>,
}

impl TurnCase {
    /// Plays the case's phase: each side's lines checked by validation, as
    /// resolution re-checks recorded orders, the accepted lines' canonical
    /// text resolved, with the forced
    /// dice, as the engine resolves a phase; `sides` gives the order in
    /// which the sides' orders are handed over.
    pub fn play_with(&self, sides: &[String]) -> Result<Played, String> {
        let (ruleset, start) = self.setting.start()?;
        let read = ruleset.read(&start).map_err(|e| e.to_string())?;
        let mut rejected = Vec::new();
        let mut texts = BTreeMap::new();
        for side in sides {
            let Some(lines) = self.orders.get(side) else {
                continue;
            };
            let sheet = ruleset.check_orders(&read, side, &lines.join("\n"));
            rejected.extend(sheet.parse_errors.iter().map(ToString::to_string));
            rejected.extend(sheet.rejections.iter().map(ToString::to_string));
            texts.insert(side.clone(), sheet.canonical_text());
        }
        let sent: BTreeMap<String, SideText<'_>> = texts
            .iter()
            .map(|(side, text)| (side.clone(), SideText::Sent(text)))
            .collect();
        let mut dice = ForcedDice::new(self.dice.iter().copied());
        let resolution = ruleset
            .resolve(&read, &sent, &mut dice)
            .map_err(|e| e.to_string())?;
        drop(read);
        Ok(Played {
            ruleset,
            start,
            rejected,
            resolution,
            dice_problems: dice.problems(),
        })
    }

    pub fn play(&self) -> Result<Played, String> {
        self.play_with(&self.setting.sides)
    }
}

fn check_turn(case: &TurnCase) -> Vec<String> {
    let mut problems = Vec::new();
    if case.rule.trim().is_empty() {
        problems.push("no rule quoted".to_string());
    }
    let played = match case.play() {
        Ok(p) => p,
        Err(e) => return vec![e],
    };
    if played.rejected != case.rejected {
        problems.push(format!(
            "refused lines differ:\n  expected {:?}\n  got      {:?}",
            case.rejected, played.rejected
        ));
    }
    problems.extend(played.dice_problems.iter().cloned());
    let events = &played.resolution.events;
    let shown = || {
        events
            .iter()
            .map(|e| format!("  [{}] {:?} {}", e.kind, e.units, e.text))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut from = 0;
    for want in &case.event {
        let found = events[from..].iter().position(|e: &Event| {
            e.kind == want.kind
                && want.units.as_ref().is_none_or(|u| *u == e.units)
                && want.text.as_ref().is_none_or(|t| *t == e.text)
        });
        match found {
            Some(at) => from += at + 1,
            None => problems.push(format!(
                "expected event {want:?} (in order) not found; the events:\n{}",
                shown()
            )),
        }
    }
    for kind in &case.absent {
        if events.iter().any(|e| e.kind == *kind) {
            problems.push(format!("an event `{kind}` occurred:\n{}", shown()));
        }
    }
    for want in &case.expect {
        problems.extend(expect(played.ruleset, &played.resolution.state, want));
    }
    problems
}

/// One `[[expect]]` of a turn case: the piece `id` (a unit or a general)
/// after the phase. `x` and `y` (inches, on a table) or `column` and `row`
/// (on a hex map) are where it stands; every other key is a key of the
/// piece as the game state holds it, compared by value, with a key the
/// state leaves out read as its default (false, 0, nothing). A `true` or
/// `false` given for a key the state holds as a reason or a record
/// (`eliminated`, `lost`, `regimental_gun_lost`) asks whether it has one. A
/// key that is no field of the piece is an error, not read as a default.
pub fn expect(ruleset: &dyn Ruleset, state: &GameState, want: &toml::Table) -> Vec<String> {
    let Some(id) = want.get("id").and_then(toml::Value::as_str) else {
        return vec!["an [[expect]] without an id".to_string()];
    };
    let (piece, fields): (_, Vec<&str>) =
        match (state.unit(id), state.generals.iter().find(|g| g.id == id)) {
            (Some(u), _) => (serde_json::to_value(u), {
                let mut f = UNIT_FIELDS.to_vec();
                f.extend(ruleset.unit_fields());
                f
            }),
            (None, Some(g)) => (serde_json::to_value(g), GENERAL_FIELDS.to_vec()),
            (None, None) => return vec![format!("no unit or general `{id}`")],
        };
    let Ok(piece) = piece else {
        return vec![format!("`{id}` does not serialise")];
    };
    let mut problems = Vec::new();
    for (key, wanted) in want.iter().filter(|(k, _)| k.as_str() != "id") {
        let wanted = match json(wanted) {
            Ok(w) => w,
            Err(e) => {
                problems.push(format!("{id} {key}: {e}"));
                continue;
            }
        };
        let got = match key.as_str() {
            "x" | "y" => {
                let at = piece.get("location").and_then(|l| l.get(key));
                let Some(h) = at.and_then(Value::as_i64) else {
                    problems.push(format!("{id} is not on a table"));
                    continue;
                };
                // Hundredths as the inches a case writes.
                let wanted_h = wanted.as_f64().map(|i| (i * 100.0).round() as i64);
                if wanted_h != Some(h) {
                    problems.push(format!(
                        "{id} {key}: got {}, expected {wanted}",
                        adjutant::rules::words::inches(h)
                    ));
                }
                continue;
            }
            "column" | "row" => piece
                .get("location")
                .and_then(|l| l.get(key))
                .cloned()
                .unwrap_or(Value::Null),
            _ => match piece.get(key) {
                Some(v) => v.clone(),
                // Left out of the JSON: its default, if it is a field at all.
                None if fields.contains(&key.as_str()) => Value::Null,
                None => {
                    problems.push(format!("{id}: `{key}` is not a field of it"));
                    continue;
                }
            },
        };
        let matches = match (&wanted, &got) {
            (Value::Bool(w), g) if !g.is_boolean() => *w != g.is_null(),
            _ => same(&got, &wanted),
        };
        if !matches {
            problems.push(format!("{id} {key}: got {got}, expected {wanted}"));
        }
    }
    problems
}
