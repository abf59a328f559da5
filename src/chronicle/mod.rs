//! The campaign chronicle: every turn of a campaign as a static web site
//! (plain files, nothing fetched from elsewhere) that a browser opens from
//! the disk or any web server serves, with the dice checked in the
//! reader's browser.
//!
//! `record` gathers the campaign from the store; `view` decides what one
//! reader is shown of each resolution, through the reports' own visibility
//! (`report::view`); each page is written by a module of its own (`index`,
//! `page` for a resolution, `turns`, `units`, `dice`) from the templates in
//! `templates/chronicle/` (`html`); `check.js` is the dice check and
//! `stepper.js` steps through the turns. `publish` keeps a copy for each
//! reader in a folder a web server serves, for the daemon.
//!
//! Fog of war: a side's chronicle shows only what that side's reports
//! showed while the game runs, and everything once it is over; the game
//! master's shows everything at any time.

mod dice;
mod html;
mod index;
mod page;
pub mod publish;
pub mod record;
mod summary;
mod turns;
mod units;
pub mod view;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::report::Audience;
use crate::store::{Store, StoreError};

pub use record::{Record, gather};

/// The dice check, written into every site as `check.js`.
pub const CHECK_JS: &str = include_str!("check.js");
/// The turn-by-turn stepper, `stepper.js`.
pub const STEPPER_JS: &str = include_str!("stepper.js");
/// The one stylesheet, `style.css`.
pub const STYLE_CSS: &str = include_str!("style.css");

/// A chronicle could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ChronicleError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("this adjutant does not know the ruleset `{0}`")]
    UnknownRuleset(String),
    #[error("a state of the campaign does not read: {0}")]
    State(#[from] crate::rules::state::PartError),
    #[error("`{side}` is not a side of campaign {campaign}; the sides are: {known}")]
    UnknownSide {
        campaign: String,
        side: String,
        known: String,
    },
    #[error("chronicle page {name}: {source}")]
    Template {
        name: String,
        source: minijinja::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0} exists and is not a chronicle; write the chronicle into a new folder")]
    NotAChronicle(PathBuf),
}

/// Who a chronicle is written for, as asked: the GM, or one side.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reader {
    Gm,
    Side(String),
    /// A campaign's observers: what every side sees (REP-4).
    Public,
}

/// Who the chronicle shows things to, once the fog of war is applied: a
/// side sees as its reports did while the game runs, and everything once
/// the game is over.
pub struct Sight {
    pub reader: Reader,
    pub audience: Audience,
    /// The reader's name, for the pages: a side's name, or "the game master".
    pub name: String,
}

impl Sight {
    pub fn of(record: &Record, reader: Reader) -> Result<Sight, ChronicleError> {
        let campaign = &record.campaign.campaign;
        let name = match &reader {
            Reader::Gm => "the game master".to_string(),
            Reader::Public => "observers".to_string(),
            Reader::Side(s) => campaign
                .side(s)
                .map(|side| side.name.clone())
                .ok_or_else(|| ChronicleError::UnknownSide {
                    campaign: campaign.id.clone(),
                    side: s.clone(),
                    known: campaign
                        .sides
                        .iter()
                        .map(|s| s.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                })?,
        };
        let audience = match (&reader, record.finished()) {
            (Reader::Side(s), None) => Audience::Side(s.clone()),
            (Reader::Public, None) => Audience::Public,
            _ => Audience::Gm,
        };
        Ok(Sight {
            reader,
            audience,
            name,
        })
    }

    /// Whether everything is shown.
    pub fn full(&self) -> bool {
        self.audience == Audience::Gm
    }

    /// The words each page opens with, and what the templates ask of the
    /// reader.
    fn context(&self) -> Value {
        let words = match (&self.reader, self.full()) {
            (Reader::Gm, _) => "The game master's chronicle: every unit, every die.".to_string(),
            (Reader::Public, true) => {
                "The campaign's chronicle, in full: the game is over, so nothing is hidden any more.".to_string()
            }
            (Reader::Public, false) => "The public chronicle: what every side saw, and nothing any side alone knew. The rest is shown once the game is over.".to_string(),
            (Reader::Side(_), true) => format!(
                "The chronicle of {}, in full: the game is over, so nothing is hidden any more.",
                self.name
            ),
            (Reader::Side(_), false) => format!(
                "The chronicle of {}: only what its troops saw, as its reports told it. The rest is shown once the game is over.",
                self.name
            ),
        };
        json!({ "words": words, "full": self.full(), "name": self.name })
    }
}

/// What a chronicle holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The site's front page.
    pub index: PathBuf,
    pub turns: usize,
    pub calls: usize,
    /// Rolls shown, and rolls withheld from this reader.
    pub dice: usize,
    pub withheld: usize,
    /// Whether everything is shown.
    pub full: bool,
}

/// The file that marks a folder as a chronicle, so that writing one again
/// into the same folder may replace it and nothing else.
const MARKER: &str = ".adjutant-chronicle";

/// Writes the chronicle of `campaign_id` for `reader` into `out` (created,
/// or a folder an earlier chronicle was written into).
pub fn write(
    store: &Store,
    campaign_id: &str,
    reader: Reader,
    out: &Path,
) -> Result<Written, ChronicleError> {
    let record = gather(store, campaign_id)?;
    write_record(&record, reader, out)
}

/// Writes the chronicle of a gathered record (see [`write`]).
pub fn write_record(
    record: &Record,
    reader: Reader,
    out: &Path,
) -> Result<Written, ChronicleError> {
    let sight = Sight::of(record, reader)?;
    prepare_folder(out)?;
    let shown = view::shown(record, &sight.audience);
    let pages = html::Pages::new()?;
    let base = json!({
        "campaign": {
            "id": record.campaign.campaign.id,
            "title": record.campaign.campaign.title,
            "ruleset": record.campaign.campaign.ruleset.id,
        },
        "reader": sight.context(),
    });
    let site = Site { out, base, pages };
    for (name, text) in [
        ("check.js", CHECK_JS),
        ("stepper.js", STEPPER_JS),
        ("style.css", STYLE_CSS),
    ] {
        site.file(name, text.as_bytes())?;
    }
    page::write_all(&site, record, &shown, &sight)?;
    turns::write(&site, record, &shown, &sight)?;
    units::write(&site, record, &shown, &sight)?;
    let (dice, withheld) = dice::write(&site, record, &shown)?;
    index::write(&site, record, &shown, &sight)?;
    Ok(Written {
        index: out.join("index.html"),
        turns: record.turns().count(),
        calls: record.resolutions.len() - record.turns().count(),
        dice,
        withheld,
        full: sight.full(),
    })
}

fn prepare_folder(out: &Path) -> Result<(), ChronicleError> {
    let io = |source| ChronicleError::Write {
        path: out.to_path_buf(),
        source,
    };
    let marker = out.join(MARKER);
    if out.exists() {
        let empty = std::fs::read_dir(out).map_err(io)?.next().is_none();
        if !empty && !marker.exists() {
            return Err(ChronicleError::NotAChronicle(out.to_path_buf()));
        }
    }
    std::fs::create_dir_all(out).map_err(io)?;
    std::fs::write(
        &marker,
        "an adjutant chronicle; writing the chronicle again replaces these files\n",
    )
    .map_err(io)
}

/// Where pages go, and what every page's template is given.
pub(crate) struct Site<'a> {
    out: &'a Path,
    base: Value,
    pages: html::Pages,
}

impl Site<'_> {
    /// Writes `bytes` as `name` (a path relative to the site), through a
    /// temporary file renamed into place, so that a web server serving the
    /// folder never sends half a page.
    fn file(&self, name: &str, bytes: &[u8]) -> Result<(), ChronicleError> {
        let path = self.out.join(name);
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| ChronicleError::Write { path, source }
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        let temporary = path.with_extension("partial");
        std::fs::write(&temporary, bytes).map_err(io(&temporary))?;
        std::fs::rename(&temporary, &path).map_err(io(&path))
    }

    /// Renders template `name` with `context` over the common context, in
    /// the frame of `base.html`, into file `path`; `root` is the way back to
    /// the site's top (`""`, `"../"`), `scripts` the site's scripts the page
    /// loads.
    fn page(
        &self,
        name: &str,
        path: &str,
        (root, title): (&str, &str),
        context: Value,
        scripts: &[&str],
    ) -> Result<(), ChronicleError> {
        let mut all = self.base.clone();
        if let (Some(all), Value::Object(more)) = (all.as_object_mut(), context) {
            all.extend(more);
            all.insert("root".into(), json!(root));
            all.insert("title".into(), json!(title));
            all.insert("scripts".into(), json!(scripts));
        }
        let body = self.pages.render(name, &all)?;
        all["body"] = json!(body);
        let text = self.pages.render("base.html", &all)?;
        self.file(path, text.as_bytes())
    }
}
