//! Canonical JSON: compact, object keys sorted by byte order, integers only.
//! States and events are stored and archived in this form, and their digests
//! are taken over these bytes.

use serde::Serialize;

use crate::audit::Digest32;

/// Serialises `value` canonically. serde_json's map keeps its keys sorted
/// (the `preserve_order` feature is off), so going through a `Value` sorts
/// every object, including flattened and nested ones.
pub fn to_string<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(v) => v.to_string(),
        // Every type we serialise has string keys and no non-finite floats,
        // so this cannot happen; if it ever did, the result is still valid
        // JSON, and verify would report the state as not reproducible
        // rather than the core panicking mid-resolution.
        Err(e) => serde_json::json!({ "serialisation-error": e.to_string() }).to_string(),
    }
}

/// SHA-256 of the canonical form.
pub fn digest<T: Serialize>(value: &T) -> Digest32 {
    Digest32::of(to_string(value).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::dice::{Die, Roll};

    #[test]
    fn keys_are_sorted_at_every_depth_and_there_is_no_white_space() {
        let value = serde_json::json!({"b": 1, "a": {"z": [2, {"y": 1, "x": 0}], "c": "é"}});
        assert_eq!(
            to_string(&value),
            r#"{"a":{"c":"é","z":[2,{"x":0,"y":1}]},"b":1}"#
        );
    }

    #[test]
    fn strings_are_escaped_as_docs_audit_md_says_and_no_more() {
        let value = serde_json::json!({"s": "q\"b\\/\u{8}\t\n\u{c}\r\u{1}\u{1f}é€😀"});
        assert_eq!(
            to_string(&value),
            "{\"s\":\"q\\\"b\\\\/\\b\\t\\n\\f\\r\\u0001\\u001fé€😀\"}"
        );
    }

    #[test]
    fn a_roll_has_exactly_the_bytes_docs_audit_md_shows() {
        let roll = Roll {
            index: 0,
            purpose: "...".into(),
            die: Die::D6,
            sides: 6,
            faces: vec![4],
            value: 4,
            first_word: 0,
            words: 1,
            about: None,
        };
        let expected = r#"{"die":"d6","faces":[4],"first_word":0,"index":0,"purpose":"...","sides":6,"value":4,"words":1}"#;
        assert_eq!(to_string(&roll), expected);
        assert!(include_str!("../docs/AUDIT.md").contains(expected));
    }
}
