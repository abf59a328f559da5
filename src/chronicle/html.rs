//! The chronicle's page templates (`templates/chronicle/`), compiled in and
//! filled with minijinja as the mail templates are, every value
//! HTML-escaped and a missing one an error rather than a blank.

use minijinja::Environment;
use serde_json::Value;

use super::ChronicleError;

const TEMPLATES: &[(&str, &str)] = &[
    (
        "base.html",
        include_str!("../../templates/chronicle/base.html"),
    ),
    (
        "index.html",
        include_str!("../../templates/chronicle/index.html"),
    ),
    (
        "resolution.html",
        include_str!("../../templates/chronicle/resolution.html"),
    ),
    (
        "turns.html",
        include_str!("../../templates/chronicle/turns.html"),
    ),
    (
        "units.html",
        include_str!("../../templates/chronicle/units.html"),
    ),
    (
        "dice.html",
        include_str!("../../templates/chronicle/dice.html"),
    ),
];

pub(crate) struct Pages {
    env: Environment<'static>,
}

impl Pages {
    pub fn new() -> Result<Pages, ChronicleError> {
        let mut env = Environment::new();
        env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        env.add_filter("sentence", crate::templates::sentence);
        for (name, source) in TEMPLATES {
            env.add_template(name, source)
                .map_err(|source| ChronicleError::Template {
                    name: name.to_string(),
                    source,
                })?;
        }
        Ok(Pages { env })
    }

    pub fn render(&self, name: &str, context: &Value) -> Result<String, ChronicleError> {
        let err = |source| ChronicleError::Template {
            name: name.to_string(),
            source,
        };
        let mut text = self
            .env
            .get_template(name)
            .map_err(err)?
            .render(minijinja::value::Serde(context))
            .map_err(err)?;
        text.push('\n');
        Ok(text)
    }
}

/// JSON to put inside a `<script type="application/json">` element: `<`
/// written as `\u003c`, so that no text in it can close the element.
pub fn script_json(value: &Value) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|_| "null".to_string())
        .replace('<', "\\u003c")
}
