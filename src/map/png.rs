//! The map's PNG, rendered from its SVG by resvg with a font compiled into
//! the program: the machine's fonts are never consulted, so a fresh machine
//! draws the same letters as the one the golden files were made on.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

/// The map could not be turned into a picture.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MapError {
    #[error("the map's SVG does not parse: {0}")]
    Svg(String),
    #[error("the map is too large to draw ({width} by {height} pixels)")]
    TooLarge { width: u32, height: u32 },
    #[error("the map's PNG could not be encoded: {0}")]
    Png(String),
}

/// The font database: the Ubuntu Light face shipped by the
/// `epaint_default_fonts` crate (Ubuntu Font Licence), loaded once.
fn fonts() -> &'static (Arc<usvg::fontdb::Database>, String) {
    static FONTS: OnceLock<(Arc<usvg::fontdb::Database>, String)> = OnceLock::new();
    FONTS.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(epaint_default_fonts::UBUNTU_LIGHT.to_vec());
        // Whatever the face calls its family, every generic family and the
        // default resolve to it, so no text ever falls back to nothing.
        let family = db
            .faces()
            .next()
            .and_then(|f| f.families.first().map(|(name, _)| name.clone()))
            .unwrap_or_else(|| "Ubuntu".to_string());
        db.set_sans_serif_family(family.clone());
        db.set_serif_family(family.clone());
        db.set_monospace_family(family.clone());
        (Arc::new(db), family)
    })
}

/// The largest picture drawn, in pixels a side: far beyond any table, it
/// keeps a mistaken scenario from asking for gigabytes.
const MAX_SIDE: u32 = 8000;

/// Renders an SVG (as [`super::svg`] writes it) to PNG bytes.
pub fn png(svg: &str) -> Result<Vec<u8>, MapError> {
    png_at_most(svg, MAX_SIDE)
}

/// Renders an SVG to PNG bytes no wider than `max_width` pixels, scaled
/// down whole where it is wider: a small picture costs a fraction of the
/// time of a full one (the pixels are most of the work).
pub fn png_at_most(svg: &str, max_width: u32) -> Result<Vec<u8>, MapError> {
    let (db, family) = fonts();
    let options = usvg::Options {
        fontdb: Arc::clone(db),
        font_family: family.clone(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| MapError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(MapError::TooLarge { width, height });
    }
    // Whole pixels, rounded down, so that the same SVG gives the same size
    // everywhere.
    let (width, height) = if width > max_width.max(1) {
        let w = max_width.max(1);
        (
            w,
            (u64::from(height) * u64::from(w) / u64::from(width)).max(1) as u32,
        )
    } else {
        (width, height)
    };
    let mut pixmap =
        tiny_skia::Pixmap::new(width, height).ok_or(MapError::TooLarge { width, height })?;
    let scale = width as f32 / tree.size().width();
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    encode(&pixmap).map_err(|e| MapError::Png(e.to_string()))
}

/// Encodes the picture as an RGB PNG with fast compression: the map is
/// drawn on an opaque page, so the alpha channel says nothing, and the
/// fast DEFLATE of the `png` crate costs a fraction of the default's time
/// for a file of much the same size.
fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, png::EncodingError> {
    let mut rgb = Vec::with_capacity(pixmap.data().len() / 4 * 3);
    for p in pixmap.pixels() {
        let c = p.demultiply();
        rgb.extend_from_slice(&[c.red(), c.green(), c.blue()]);
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&rgb)?;
    writer.finish()?;
    Ok(out)
}
