//! How much room a piece of text takes on the map: the advances of the face
//! compiled into the program, the one [`super::png`] draws with, summed in
//! the face's own whole units and scaled in integers, so that the same text
//! measures the same on every machine.
//!
//! Kerning is left out: it only ever draws letters of this face a little
//! closer, so the width measured is never less than the width drawn.

use std::sync::OnceLock;

use skrifa::raw::TableProvider;
use skrifa::{FontRef, GlyphId, MetadataProvider};

/// The compiled-in face, read once.
struct Face {
    font: FontRef<'static>,
    units_per_em: i64,
    /// Above and below the baseline, in the face's units.
    ascender: i64,
    descender: i64,
    /// The advances of the printable ASCII letters, the most of any label,
    /// looked up once.
    ascii: [i64; 128],
    /// The advance of the glyph drawn for a letter the face lacks.
    missing: i64,
}

impl Face {
    fn read() -> Option<Face> {
        let font = FontRef::new(epaint_default_fonts::UBUNTU_LIGHT).ok()?;
        let units_per_em = i64::from(font.head().ok()?.units_per_em()).max(1);
        let hhea = font.hhea().ok()?;
        let hmtx = font.hmtx().ok()?;
        let charmap = font.charmap();
        let advance = |glyph: GlyphId| hmtx.advance(glyph).map_or(0, i64::from);
        let missing = advance(GlyphId::NOTDEF);
        let mut ascii = [missing; 128];
        for (code, width) in (0u32..).zip(ascii.iter_mut()) {
            if let Some(glyph) = charmap.map(code) {
                *width = advance(glyph);
            }
        }
        Some(Face {
            units_per_em,
            ascender: i64::from(hhea.ascender().to_i16()),
            descender: -i64::from(hhea.descender().to_i16()),
            ascii,
            missing,
            font,
        })
    }

    fn advance(&self, c: char) -> i64 {
        if let Some(&width) = self.ascii.get(c as usize) {
            return width;
        }
        let glyph = self.font.charmap().map(c);
        let hmtx = self.font.hmtx().ok();
        match (glyph, hmtx) {
            (Some(glyph), Some(hmtx)) => hmtx.advance(glyph).map_or(self.missing, i64::from),
            _ => self.missing,
        }
    }
}

fn face() -> Option<&'static Face> {
    static FACE: OnceLock<Option<Face>> = OnceLock::new();
    FACE.get_or_init(Face::read).as_ref()
}

/// The width of `text` at font size `size`, in the SVG's units, rounded up.
pub fn width(text: &str, size: i64) -> i64 {
    match face() {
        Some(face) => {
            let units: i64 = text.chars().map(|c| face.advance(c)).sum();
            (units * size + face.units_per_em - 1) / face.units_per_em
        }
        // The face is compiled in and reads; were it ever not to, three
        // fifths of the size a letter is wider than any of its letters
        // but the widest capitals.
        None => text.chars().count() as i64 * size * 3 / 5,
    }
}

/// How far the face reaches above and below the baseline at font size
/// `size`, in the SVG's units, rounded up.
pub fn extent(size: i64) -> (i64, i64) {
    match face() {
        Some(face) => {
            let up = face.units_per_em;
            (
                (face.ascender * size + up - 1) / up,
                (face.descender * size + up - 1) / up,
            )
        }
        None => (size, size / 4),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_in_face_is_read() {
        assert!(face().is_some());
        // Wider letters measure wider; the width grows with the size.
        assert!(width("mmmm", 100) > width("iiii", 100));
        assert_eq!(width("", 100), 0);
        assert!(width("Austrian", 110) > width("Austrian", 55));
        let (up, down) = extent(100);
        assert!(up > 50 && up <= 110 && down > 0 && down < 50, "{up} {down}");
        // The ellipsis a cut title ends with is in the face.
        let face = face().expect("read");
        assert!(face.font.charmap().map('\u{2026}').is_some());
        assert!(width("é", 100) > 0);
    }
}
