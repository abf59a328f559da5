//! The text of the mail adjutant sends, from templates a GM can edit without
//! rebuilding: the defaults in `templates/` are compiled in, and a file of the
//! same name in the campaign folder's `templates/` replaces one.

use minijinja::Environment;
use serde::Serialize;
use std::path::Path;

/// The templates and their compiled-in defaults.
pub const DEFAULTS: &[(&str, &str)] = &[
    ("opening.txt", include_str!("../templates/opening.txt")),
    ("manifest.txt", include_str!("../templates/manifest.txt")),
    ("umpire.txt", include_str!("../templates/umpire.txt")),
    ("ack.txt", include_str!("../templates/ack.txt")),
    ("ack.html", include_str!("../templates/ack.html")),
    ("no-orders.txt", include_str!("../templates/no-orders.txt")),
    ("ready.txt", include_str!("../templates/ready.txt")),
    ("refused.txt", include_str!("../templates/refused.txt")),
    ("stranger.txt", include_str!("../templates/stranger.txt")),
    ("quiet.txt", include_str!("../templates/quiet.txt")),
    (
        "quiet-acks.txt",
        include_str!("../templates/quiet-acks.txt"),
    ),
    ("failed.txt", include_str!("../templates/failed.txt")),
    ("failed-gm.txt", include_str!("../templates/failed-gm.txt")),
    ("reminder.txt", include_str!("../templates/reminder.txt")),
    ("late.txt", include_str!("../templates/late.txt")),
    ("situation.txt", include_str!("../templates/situation.txt")),
    ("report.txt", include_str!("../templates/report.txt")),
    ("observed.txt", include_str!("../templates/observed.txt")),
    ("report.html", include_str!("../templates/report.html")),
    (
        "map-caption.txt",
        include_str!("../templates/map-caption.txt"),
    ),
    ("gm.txt", include_str!("../templates/gm.txt")),
    ("gm-reply.txt", include_str!("../templates/gm-reply.txt")),
];

/// `{{ text | sentence }}`: the text ending in exactly one full stop (or
/// the `!` or `?` it ends with), for a sentence the rules wrote with its own
/// stop and a template would end with another.
pub fn sentence(text: String) -> String {
    let t = text.trim_end();
    if t.ends_with(['.', '!', '?']) {
        t.to_string()
    } else {
        format!("{t}.")
    }
}

/// A template could not be read or rendered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TemplateError {
    #[error("cannot read template {path}: {source}")]
    Read {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("template {name}: {source}")]
    Render {
        name: String,
        source: minijinja::Error,
    },
}

/// The templates in force for one campaign.
pub struct Templates {
    env: Environment<'static>,
}

impl Templates {
    fn empty() -> Templates {
        let mut env = Environment::new();
        // Mail is plain text: nothing is HTML-escaped but the HTML report
        // (`.html` templates), and a missing value is an error rather than
        // a silent blank in a player's report.
        env.set_auto_escape_callback(|name| {
            if name.ends_with(".html") {
                minijinja::AutoEscape::Html
            } else {
                minijinja::AutoEscape::None
            }
        });
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        // `{{ text | wrap }}` (or `wrap(60)`) folds a paragraph of plain
        // text at 72 columns, for the text reports.
        env.add_filter("wrap", |text: String, width: Option<usize>| {
            wrap(&text, width.unwrap_or(72))
        });
        env.add_filter("sentence", sentence);
        Templates { env }
    }

    /// The compiled-in defaults only.
    pub fn embedded() -> Result<Templates, TemplateError> {
        Templates::load(None)
    }

    /// The defaults, with any file of the same name in `campaign_dir/templates/`
    /// in its place.
    pub fn for_campaign(campaign_dir: &Path) -> Result<Templates, TemplateError> {
        Templates::load(Some(campaign_dir))
    }

    fn load(campaign_dir: Option<&Path>) -> Result<Templates, TemplateError> {
        let mut templates = Templates::empty();
        for (name, default) in DEFAULTS {
            let path = campaign_dir.map(|d| d.join("templates").join(name));
            let source = if let Some(path) = path.filter(|p| p.exists()) {
                std::fs::read_to_string(&path).map_err(|source| TemplateError::Read {
                    path: path.clone(),
                    source,
                })?
            } else {
                (*default).to_string()
            };
            templates
                .env
                .add_template_owned(*name, source)
                .map_err(|source| TemplateError::Render {
                    name: name.to_string(),
                    source,
                })?;
        }
        Ok(templates)
    }

    pub fn render(&self, name: &str, context: impl Serialize) -> Result<String, TemplateError> {
        let err = |source| TemplateError::Render {
            name: name.to_string(),
            source,
        };
        let mut text = self
            .env
            .get_template(name)
            .map_err(err)?
            .render(minijinja::value::Serde(context))
            .map_err(err)?;
        // The engine drops a template's final newline; mail text ends with one.
        text.push('\n');
        Ok(text)
    }
}

/// Wraps `text` at `width` columns (counted in characters).
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split_whitespace() {
        let len = word.chars().count();
        if line > 0 && line + 1 + len > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::sentence;

    #[test]
    fn a_sentence_ends_in_one_full_stop_however_it_was_written() {
        assert_eq!(
            sentence("The game ends with french losing.".into()),
            "The game ends with french losing."
        );
        assert_eq!(
            sentence("the turn limit (12) was reached".into()),
            "the turn limit (12) was reached."
        );
        assert_eq!(sentence("Victory! ".into()), "Victory!");
    }
}
