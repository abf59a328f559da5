//! The demo's chronicle opened from the disk in headless Chromium, in a
//! phone-sized window: every page fits the width and loads every picture,
//! the stepper goes through every turn with the arrow keys, the dice check
//! marks every resolution checked, and a copy with one die changed is
//! marked not checked; each resolution's page checks its own dice and
//! marks itself, and a copy of a page with a die or its despatch changed is
//! marked not checked there, showing the checked dice; no console error,
//! exception or failed load on the way.

mod support;

use std::path::Path;

use serde_json::Value;

use support::browser::Browser;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("dir");
    for entry in std::fs::read_dir(from).expect("read") {
        let path = entry.expect("entry").path();
        let target = to.join(path.file_name().expect("name"));
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy");
        }
    }
}

/// The dice check's verdict on the page open: the summary and each
/// resolution's mark.
fn verdict(browser: &mut Browser) -> (String, String, Vec<String>) {
    let v = browser.eval(
        "window.adjutantDice.then(() => ({
            verdict: document.body.getAttribute('data-dice-verdict'),
            text: document.getElementById('verdict').textContent,
            marks: Array.from(document.querySelectorAll('td[data-dice]')).map(c => c.textContent),
        }))",
    );
    let marks = v["marks"]
        .as_array()
        .expect("marks")
        .iter()
        .map(|m| m.as_str().unwrap_or_default().to_string())
        .collect();
    (
        v["verdict"].as_str().unwrap_or_default().to_string(),
        v["text"].as_str().unwrap_or_default().to_string(),
        marks,
    )
}

/// A resolution page's own check, once it has run: its verdict, what it
/// says, and each die the page then shows.
fn page_verdict(browser: &mut Browser) -> (String, String, Vec<String>) {
    let v = browser.eval(
        "window.adjutantDice.then(() => ({
            verdict: document.body.getAttribute('data-dice-verdict'),
            text: document.getElementById('verdict').textContent,
            dice: Array.from(document.querySelectorAll('tr[data-roll]')).map(r => r.cells[1].textContent),
        }))",
    );
    let dice = v["dice"]
        .as_array()
        .expect("dice")
        .iter()
        .map(|d| d.as_str().unwrap_or_default().to_string())
        .collect();
    (
        v["verdict"].as_str().unwrap_or_default().to_string(),
        v["text"].as_str().unwrap_or_default().to_string(),
        dice,
    )
}

/// The page's first die written otherwise (`d6 = 4` as `d6 = 3`): the page,
/// the die as written and as changed.
fn change_first_die(html: &str) -> (String, String, String) {
    let row = html.find("<tr data-roll=").expect("a die on the page");
    let cell = row + html[row..].find("</td><td>").expect("its roll") + "</td><td>".len();
    let end = cell + html[cell..].find("</td>").expect("its end");
    let was = &html[cell..end];
    let (die, rest) = was.split_once(" = ").expect("die = value");
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let value: u32 = digits.parse().expect("a value");
    let other = if value > 1 { value - 1 } else { value + 1 };
    let changed = format!("{die} = {other}{}", &rest[digits.len()..]);
    (
        format!("{}{changed}{}", &html[..cell], &html[end..]),
        was.to_string(),
        changed,
    )
}

/// A number the page's despatch or call tells written otherwise: one that
/// quotes dice (after `rolled `) if there is one, else the first; `None`
/// when they tell no number.
fn change_a_told_number(html: &str) -> Option<String> {
    let told: Vec<(usize, &str)> = html
        .match_indices(" data-told=")
        .filter_map(|(at, _)| {
            let open = at + html[at..].find('>')? + 1;
            let end = open + html[open..].find("</")?;
            Some((open, &html[open..end]))
        })
        .collect();
    let quoted = told.iter().find_map(|&(at, words)| {
        let d = words.find("rolled ")? + "rolled ".len();
        words[d..]
            .starts_with(|c: char| c.is_ascii_digit())
            .then_some(at + d)
    });
    let first = || {
        told.iter()
            .find_map(|&(at, words)| words.find(|c: char| c.is_ascii_digit()).map(|d| at + d))
    };
    let at = quoted.or_else(first)?;
    let new = if html[at..].starts_with('1') {
        '2'
    } else {
        '1'
    };
    Some(format!("{}{new}{}", &html[..at], &html[at + 1..]))
}

#[test]
fn the_demos_chronicle_in_a_browser() {
    let Some(mut browser) = Browser::start() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tmp");
    let demo = adjutant::demo::run(&tmp.path().join("demo"), None, &mut std::io::sink())
        .expect("the demo plays");
    let site = demo.chronicle.parent().expect("the site").to_path_buf();
    browser.phone();

    // Every page fits a phone's width and shows its pictures.
    let mut pages = vec![
        site.join("index.html"),
        site.join("turns.html"),
        site.join("units.html"),
        site.join("dice.html"),
    ];
    let mut resolutions: Vec<_> = std::fs::read_dir(site.join("r"))
        .expect("pages")
        .map(|e| e.expect("entry").path())
        .collect();
    resolutions.sort();
    assert!(resolutions.len() > 1, "a page per resolution");
    pages.extend(resolutions.iter().cloned());
    for page in &pages {
        browser.open(page);
        if resolutions.contains(page) {
            let written = std::fs::read_to_string(page)
                .expect("the page")
                .matches("<tr data-roll=")
                .count();
            let (verdict, text, dice) = page_verdict(&mut browser);
            assert_eq!(verdict, "checked", "{}: {text}", page.display());
            assert_eq!(dice.len(), written, "{}: its dice", page.display());
        }
        let fit = browser.eval(
            "({ wide: document.documentElement.scrollWidth, window: window.innerWidth,
                images: Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src) })",
        );
        assert_eq!(fit["window"], 390, "a phone's width");
        assert!(
            fit["wide"].as_i64() <= fit["window"].as_i64(),
            "{} is {} px wide in a {} px window",
            page.display(),
            fit["wide"],
            fit["window"]
        );
        assert_eq!(
            fit["images"],
            Value::Array(Vec::new()),
            "{}: pictures that did not load",
            page.display()
        );
    }

    // The stepper: every turn, one arrow key at a time, the map in place.
    browser.open(&site.join("turns.html"));
    let steps = browser
        .eval("JSON.parse(document.getElementById('steps').textContent).map(s => s.map)")
        .as_array()
        .expect("steps")
        .clone();
    let turns = resolutions
        .iter()
        .filter(|p| p.to_string_lossy().contains("turn-"))
        .count();
    assert_eq!(steps.len(), turns + 1, "the start and every turn");
    let shown = |browser: &mut Browser| {
        browser.eval(
            "new Promise(done => {
                const map = document.getElementById('step-map');
                const report = () => done({ step: Number(document.body.getAttribute('data-step')),
                    src: map.getAttribute('src'), loaded: map.naturalWidth > 0,
                    label: document.getElementById('step-label').textContent,
                    wide: document.documentElement.scrollWidth });
                if (map.complete) report(); else map.addEventListener('load', report, { once: true });
            })",
        )
    };
    for (i, map) in steps.iter().enumerate() {
        if i > 0 {
            browser.key("ArrowRight", 39);
        }
        let at = shown(&mut browser);
        assert_eq!(at["step"], i as u64, "step {i}");
        assert_eq!(&at["src"], map, "step {i} shows its own map");
        assert_eq!(at["loaded"], true, "step {i}'s map loaded");
        assert!(at["wide"].as_i64() <= Some(390), "step {i} fits the width");
        assert!(
            at["label"].as_str().is_some_and(|l| l.starts_with(&format!(
                "{} of {}",
                i + 1,
                steps.len()
            ))),
            "step {i}: {}",
            at["label"]
        );
    }
    browser.key("ArrowRight", 39);
    assert_eq!(
        shown(&mut browser)["step"],
        (steps.len() - 1) as u64,
        "no step past the last"
    );
    browser.key("Home", 36);
    assert_eq!(shown(&mut browser)["step"], 0, "Home goes to the start");

    // The dice check: every resolution of the demo checked.
    browser.open(&site.join("dice.html"));
    let (verdict_all, text, marks) = verdict(&mut browser);
    assert_eq!(verdict_all, "checked", "{text}");
    assert_eq!(marks.len(), resolutions.len());
    assert!(marks.iter().all(|m| m == "checked"), "{marks:?}");
    eprintln!("the demo's dice check: {text}");

    // A copy with one die changed: that resolution is not checked.
    let copy = tmp.path().join("changed");
    copy_dir(&site, &copy);
    let data_path = copy.join("dice-data.js");
    let script = std::fs::read_to_string(&data_path).expect("data");
    let json = script
        .trim()
        .trim_start_matches("window.ADJUTANT_DICE = ")
        .trim_end_matches(';');
    let mut data: Value = serde_json::from_str(json).expect("the data is JSON");
    let (at, slug) = {
        let resolutions = data["resolutions"].as_array_mut().expect("resolutions");
        let (at, r) = resolutions
            .iter_mut()
            .enumerate()
            .find(|(_, r)| r["rolls"].as_array().is_some_and(|d| !d.is_empty()))
            .expect("a resolution with dice");
        let roll = &mut r["rolls"][0];
        let face = roll["faces"][0].as_u64().expect("a face");
        let sides = roll["sides"].as_u64().expect("sides");
        let changed = if face == sides { face - 1 } else { face + 1 };
        roll["faces"][0] = changed.into();
        roll["value"] = (roll["value"].as_u64().expect("value") + changed - face).into();
        (at, r["slug"].as_str().expect("slug").to_string())
    };
    std::fs::write(&data_path, format!("window.ADJUTANT_DICE = {data};\n")).expect("write");
    browser.open(&copy.join("dice.html"));
    let (verdict_changed, text, marks) = verdict(&mut browser);
    assert_eq!(verdict_changed, "not-checked", "{text}");
    for (i, mark) in marks.iter().enumerate() {
        if i == at {
            assert!(mark.starts_with("not checked"), "{slug}: {mark}");
        } else {
            assert_eq!(mark, "checked", "only {slug} was changed");
        }
    }

    // A copy with one die changed on a turn page: that page marks itself
    // not checked and shows the checked die; the dice page, which checks
    // the data, has nothing to say of it.
    let copy = tmp.path().join("page-changed");
    copy_dir(&site, &copy);
    let page = resolutions
        .iter()
        .map(|p| copy.join("r").join(p.file_name().expect("name")))
        .find(|p| {
            p.to_string_lossy().contains("turn-")
                && std::fs::read_to_string(p).is_ok_and(|t| t.contains("<tr data-roll="))
        })
        .expect("a turn with dice");
    let html = std::fs::read_to_string(&page).expect("the page");
    let (changed, was, now) = change_first_die(&html);
    std::fs::write(&page, changed).expect("write");
    browser.open(&page);
    let (verdict_page, text, dice) = page_verdict(&mut browser);
    assert_eq!(verdict_page, "not-checked", "{text}");
    assert!(text.contains(&now) && text.contains(&was), "{text}");
    assert_eq!(dice[0], was, "the page shows the checked die");
    browser.open(&copy.join("dice.html"));
    assert_eq!(verdict(&mut browser).0, "checked", "the data is unchanged");

    // The same page with a number of its despatch changed instead, its dice
    // as written: marked not checked.
    let told = change_a_told_number(&html).expect("a despatch that tells a number");
    std::fs::write(&page, told).expect("write");
    browser.open(&page);
    let (verdict_told, text, _) = page_verdict(&mut browser);
    assert_eq!(verdict_told, "not-checked", "{text}");
    assert!(text.contains("despatch"), "{text}");

    // With JavaScript off, a page says its dice are not checked.
    browser.call(
        "Emulation.setScriptExecutionDisabled",
        serde_json::json!({ "value": true }),
    );
    browser.open(&resolutions[0]);
    let off = browser.eval(
        "Array.from(document.querySelectorAll('#dice noscript, #dice .not-checked')).map(e => e.textContent).join(' ')",
    );
    browser.call(
        "Emulation.setScriptExecutionDisabled",
        serde_json::json!({ "value": false }),
    );
    assert!(
        off.as_str()
            .is_some_and(|t| t.contains("Not checked: JavaScript is off")),
        "{off}"
    );

    let errors = browser.errors();
    assert!(errors.is_empty(), "errors in the browser: {errors:#?}");
}
