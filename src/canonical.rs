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
        // Every type we serialise has string keys and no non-finite floats;
        // a failure here is a programming error, and an empty object keeps
        // the digest well-defined rather than panicking in a resolution.
        Err(e) => format!("{{\"serialisation-error\":{:?}}}", e.to_string()),
    }
}

/// SHA-256 of the canonical form.
pub fn digest<T: Serialize>(value: &T) -> Digest32 {
    Digest32::of(to_string(value).as_bytes())
}
