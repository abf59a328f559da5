//! The demo's chronicle opened from the disk in headless Chromium, in a
//! phone-sized window: every page fits the width and loads every picture,
//! the stepper goes through every turn with the arrow keys, the dice check
//! marks every resolution checked, and a copy with one die changed is
//! marked not checked; no console error, exception or failed load on the way.

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

    let errors = browser.errors();
    assert!(errors.is_empty(), "errors in the browser: {errors:#?}");
}
