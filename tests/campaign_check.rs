//! Campaign files: every shipped campaign loads clean, and every broken
//! fixture under `tests/fixtures/campaigns/<name>/` reports its problem at
//! the exact file, line and column.

use std::path::{Path, PathBuf};

use adjutant::campaign::{self, Problem};
use adjutant::rules::board::{Location, MapSpec};

/// One problem a fixture must report.
struct Expect {
    file: &'static str,
    line: usize,
    column: usize,
    /// A part of the message.
    message: &'static str,
}

const fn at(file: &'static str, line: usize, column: usize, message: &'static str) -> Expect {
    Expect {
        file,
        line,
        column,
        message,
    }
}

const C: &str = "campaign.toml";
const S: &str = "scenario.toml";

/// Each fixture and every problem it must yield, in file and line order.
const CASES: &[(&str, &[Expect])] = &[
    ("missing-file", &[at(S, 1, 1, "missing file")]),
    ("syntax-error", &[at(C, 3, 17, "invalid basic string")]),
    (
        "syntax-errors-in-both",
        &[
            at(C, 3, 17, "invalid basic string"),
            at(S, 18, 5, "expected"),
        ],
    ),
    ("unknown-key", &[at(C, 3, 1, "unknown key `titel`")]),
    (
        "unknown-schedule-key",
        &[at(C, 36, 1, "unknown key `movement`")],
    ),
    (
        "last-reminder-after-the-first",
        &[at(
            C,
            37,
            17,
            "the last reminder must come after the first: shorter than `reminder` (6h)",
        )],
    ),
    (
        "wrong-type",
        &[at(S, 16, 12, "wrong type: expected a whole number")],
    ),
    ("missing-key", &[at(S, 10, 1, "missing key `grade`")]),
    ("bad-id", &[at(C, 2, 6, "`My Fixture` is not a valid id")]),
    (
        "side-starts-with-at",
        &[at(C, 13, 6, "a side id cannot start with `@`")],
    ),
    ("duplicate-side", &[at(C, 17, 6, "duplicate id `red`")]),
    (
        "duplicate-unit",
        &[at(S, 23, 6, "duplicate id `b1`: the unit at line 11")],
    ),
    (
        "duplicate-general",
        &[at(S, 23, 6, "duplicate id `b1`: the unit at line 11")],
    ),
    (
        "duplicate-terrain",
        &[at(
            S,
            28,
            6,
            "duplicate id `wood`: the terrain feature at line 23",
        )],
    ),
    (
        "player-unknown-side",
        &[
            at(C, 13, 6, "side `red` has no player"),
            at(C, 30, 8, "the player's side `green` is not a side"),
        ],
    ),
    (
        "side-without-player",
        &[at(C, 13, 6, "side `red` has no player")],
    ),
    (
        "unknown-ruleset",
        &[at(C, 6, 6, "unknown ruleset `sound-the-trumpet`")],
    ),
    (
        "unknown-option",
        &[at(C, 7, 29, "unknown option `wider-infantry-basing`")],
    ),
    (
        "unknown-parameter",
        &[at(C, 10, 1, "unknown key `morale_check`")],
    ),
    (
        "unknown-nation",
        &[at(C, 15, 10, "unknown nation `ruritania`")],
    ),
    (
        "unknown-troop-type",
        &[at(S, 14, 14, "unknown troop type `dragoons`")],
    ),
    ("unknown-grade", &[at(S, 15, 9, "unknown grade `E`")]),
    (
        "unknown-formation",
        &[at(S, 17, 13, "unknown formation `wedge`")],
    ),
    (
        "unknown-terrain-kind",
        &[at(S, 24, 8, "unknown terrain kind `swamp`")],
    ),
    (
        "square-cavalry",
        &[at(S, 17, 13, "a heavy-cavalry unit cannot form square")],
    ),
    (
        "skirmish-line-infantry",
        &[at(S, 17, 13, "a line-infantry unit cannot skirmish")],
    ),
    (
        "limbered-infantry",
        &[at(S, 17, 13, "only guns are limbered")],
    ),
    ("unit-unknown-side", &[at(S, 13, 8, "unknown side `green`")]),
    (
        "general-unknown-side",
        &[at(S, 25, 8, "unknown side `green`")],
    ),
    (
        "unit-off-map",
        &[at(
            S,
            18,
            5,
            "unit `b1` (4.5 by 0.5 inches, facing 0) is off the table",
        )],
    ),
    (
        "units-overlap",
        &[at(S, 30, 5, "unit `r1` overlaps unit `b1` (line 11)")],
    ),
    (
        "general-unknown-unit",
        &[at(
            S,
            26,
            15,
            "general attached to `b9`, which is not a unit",
        )],
    ),
    (
        "general-other-side",
        &[at(S, 38, 15, "attached to unit `r1` of side `red`")],
    ),
    (
        "bad-time-zone",
        &[at(C, 34, 13, "unknown time zone `Europe/Pariss`")],
    ),
    (
        "bad-deadline-time",
        &[at(C, 36, 17, "`8pm` is not a time of day")],
    ),
    ("bad-duration", &[at(C, 35, 10, "`48` is not a duration")]),
    (
        "chain-length-zero",
        &[at(
            C,
            38,
            16,
            "chain_length must be from 1 to 100000, not 0",
        )],
    ),
    (
        "passphrase-not-hashed",
        &[at(C, 19, 19, "passphrase_hash is not an argon2 hash")],
    ),
    (
        "first-active-not-a-side",
        &[at(S, 3, 16, "unknown side `green`")],
    ),
    (
        "polygon-too-few-points",
        &[at(S, 25, 8, "an area needs at least 3 points, not 2")],
    ),
    (
        "line-too-few-points",
        &[at(S, 25, 8, "a line needs at least 2 points, not 1")],
    ),
    (
        "terrain-off-table",
        &[at(S, 25, 18, "point (30, 10) is off the table")],
    ),
    (
        "point-with-three-numbers",
        &[at(S, 25, 18, "a point is [x, y]: 2 numbers, not 3")],
    ),
    (
        "observer-problems",
        &[
            at(
                C,
                35,
                11,
                "address `blue@example.org` is already used by the player",
            ),
            at(
                C,
                40,
                12,
                "an observer can be sent the chronicle's link only where the campaign has one",
            ),
            at(C, 45, 12, "`everything`"),
        ],
    ),
    (
        "duplicate-address",
        &[at(
            C,
            29,
            11,
            "address `Blue@Example.org` is already used by the player `Blue player` at line 23",
        )],
    ),
    (
        "hex-outside-grid",
        &[
            at(S, 6, 8, "sound-the-charge is not played on a hex map"),
            at(S, 18, 10, "hex (20, 3) is outside the grid"),
        ],
    ),
    (
        "many-problems",
        &[
            at(C, 13, 6, "side `red` has no player"),
            at(C, 15, 10, "unknown nation `ruritania`"),
            at(C, 31, 8, "the player's side `green` is not a side"),
            at(C, 35, 13, "unknown time zone `Mars/Olympus`"),
            at(S, 3, 16, "unknown side `green`"),
            at(S, 15, 9, "unknown grade `E`"),
            at(
                S,
                30,
                5,
                "unit `r1` (4.5 by 0.5 inches, facing 180) is off the table",
            ),
            at(S, 38, 15, "attached to unit `r1` of side `red`"),
        ],
    ),
];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/campaigns")
}

fn problems_of(dir: &Path) -> Vec<Problem> {
    match campaign::load(dir) {
        Ok(_) => Vec::new(),
        Err(problems) => problems.0,
    }
}

#[test]
fn every_shipped_campaign_loads_without_problems() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns");
    let mut found = 0;
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("the campaigns folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("campaign.toml").is_file())
        .collect();
    dirs.sort();
    for dir in dirs {
        found += 1;
        if let Err(problems) = campaign::load(&dir) {
            panic!("{} does not load:\n{problems}", dir.display());
        }
    }
    assert!(found >= 1, "no campaign found under {}", root.display());
}

#[test]
fn every_broken_fixture_reports_its_problems_where_they_are() {
    let mut failures = Vec::new();
    for (name, expected) in CASES {
        let dir = fixtures().join(name);
        let got = problems_of(&dir);
        let fits = got.len() == expected.len()
            && got.iter().zip(expected.iter()).all(|(p, e)| {
                p.file == dir.join(e.file)
                    && p.line == e.line
                    && p.column == e.column
                    && p.message.contains(e.message)
            });
        if !fits {
            let got: Vec<String> = got.iter().map(ToString::to_string).collect();
            failures.push(format!("{name}: got\n  {}", got.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_fixture_folder_has_a_case() {
    let mut names: Vec<String> = std::fs::read_dir(fixtures())
        .expect("the fixtures folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    let orphans: Vec<&String> = names
        .iter()
        .filter(|n| !CASES.iter().any(|(c, _)| c == n))
        .collect();
    assert!(orphans.is_empty(), "fixtures with no case: {orphans:?}");
    assert!(names.len() >= 30, "found only {} fixtures", names.len());
}

#[test]
fn a_problem_reads_file_line_column_message_and_hint() {
    let dir = fixtures().join("unknown-key");
    let problems = problems_of(&dir);
    assert_eq!(
        problems[0].to_string(),
        format!(
            "{}:3:1: unknown key `titel` (hint: the keys allowed here are id, title)",
            dir.join("campaign.toml").display()
        )
    );
    let dir = fixtures().join("chain-length-zero");
    assert_eq!(
        problems_of(&dir)[0].to_string(),
        format!(
            "{}:38:16: chain_length must be from 1 to 100000, not 0",
            dir.join("campaign.toml").display()
        )
    );
}

#[test]
fn a_passphrase_in_place_of_its_hash_points_to_the_command() {
    let problems = problems_of(&fixtures().join("passphrase-not-hashed"));
    let hint = problems[0].hint.as_deref().unwrap_or_default();
    assert!(hint.contains("adjutant passphrase"), "{hint}");
}

#[test]
fn the_demo_campaign_is_what_its_files_say() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns/sound-the-charge-demo");
    let c = campaign::load(&dir).expect("the demo loads");
    assert_eq!(c.ruleset.id, "sound-the-charge");
    assert_eq!(
        c.scenario.map,
        MapSpec::Table {
            width: 7200,
            depth: 4800
        }
    );
    assert_eq!(c.scenario.turn_limit, Some(30));
    assert_eq!(c.schedule.phase_minutes.get("orders"), Some(&2880));
    assert_eq!(c.schedule.reminder_minutes, 720);
    for side in &c.sides {
        let units = c
            .scenario
            .units
            .iter()
            .filter(|u| u.side == side.id)
            .count();
        let generals = c
            .scenario
            .generals
            .iter()
            .filter(|g| g.side == side.id)
            .count();
        assert!((8..=12).contains(&units), "{}: {units} units", side.id);
        assert!(
            (2..=3).contains(&generals),
            "{}: {generals} generals",
            side.id
        );
    }
    // Every terrain kind of the ruleset is on the table, but the water and
    // boats of the optional Boats rule, which the demo does not play.
    let ruleset = adjutant::rules::ruleset_for(&c.ruleset.id).expect("a known ruleset");
    for kind in ruleset.vocabulary().terrain_kinds {
        if ["water", "boat"].contains(kind) && !c.ruleset.options.iter().any(|o| o == "boats") {
            continue;
        }
        assert!(
            c.scenario.terrain.iter().any(|t| t.kind == *kind),
            "no {kind}"
        );
    }
    // Decimal inches are stored in hundredths.
    let ir49 = c
        .scenario
        .units
        .iter()
        .find(|u| u.id == "ir-49")
        .expect("IR 49");
    assert_eq!(ir49.location, Location::Table { x: 3100, y: 3750 });
    // An attached general given no place stands at his unit's.
    let attached = c
        .scenario
        .generals
        .iter()
        .find(|g| g.id == "vukassovich")
        .expect("Vukassovich");
    assert_eq!(attached.attached_to.as_deref(), Some("ir-4"));
    assert_eq!(attached.location, Location::Table { x: 2200, y: 3800 });
}

#[test]
fn the_demo_passphrases_match_their_hashes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns/sound-the-charge-demo");
    let c = campaign::load(&dir).expect("the demo loads");
    let hash = |auth: &campaign::Auth| match auth {
        campaign::Auth::Passphrase { hash } | campaign::Auth::PassphraseAndDkim { hash } => {
            hash.clone()
        }
    };
    assert!(campaign::passphrase::verify(
        "grand-quartier-general",
        &hash(&c.gm.auth)
    ));
    for (player, phrase) in c
        .players
        .iter()
        .zip(["vive-l-empereur", "gott-erhalte-franz"])
    {
        assert!(
            campaign::passphrase::verify(phrase, &hash(&player.person.auth)),
            "{}",
            player.person.name
        );
    }
}
