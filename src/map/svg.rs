//! A small SVG writer that takes integers only, so that the bytes it writes
//! never depend on how a machine formats a float.

use super::style::ArrowStyle;
use crate::rules::look::Marker;

pub struct Svg {
    out: String,
}

/// Escapes text for an XML text node or attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// `M x y L x y ... Z` for a closed shape.
pub fn closed_path(points: &[(i64, i64)]) -> String {
    let mut d = String::new();
    for (i, (x, y)) in points.iter().enumerate() {
        d.push_str(if i == 0 { "M" } else { "L" });
        d.push_str(&format!("{x} {y}"));
    }
    d.push('Z');
    d
}

fn points_attr(points: &[(i64, i64)]) -> String {
    points
        .iter()
        .map(|(x, y)| format!("{x},{y}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn dash_attr(dash: &str) -> String {
    if dash.is_empty() {
        String::new()
    } else {
        format!(" stroke-dasharray=\"{dash}\"")
    }
}

impl Svg {
    /// A picture `width` by `height` units, shown `px_w` by `px_h` pixels.
    pub fn new(width: i64, height: i64, px_w: i64, px_h: i64) -> Svg {
        let mut out = String::with_capacity(64 * 1024);
        out.push_str(&format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{px_w}\" height=\"{px_h}\" viewBox=\"0 0 {width} {height}\" font-family=\"Ubuntu, sans-serif\">\n"
        ));
        Svg { out }
    }

    pub fn raw(&mut self, text: &str) {
        self.out.push_str(text);
    }

    /// One arrowhead marker per arrow style, in the style's colour.
    pub fn defs_arrows(&mut self, styles: &[ArrowStyle]) {
        self.out.push_str("<defs>\n");
        for st in styles {
            self.out.push_str(&format!(
                "<marker id=\"head-{}\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\"><path d=\"M0 0L10 5L0 10Z\" fill=\"{}\"/></marker>\n",
                st.id, st.colour
            ));
        }
        self.out.push_str("</defs>\n");
    }

    pub fn polygon(
        &mut self,
        points: &[(i64, i64)],
        fill: &str,
        stroke: &str,
        width: u32,
        dash: &str,
        fill_opacity: &str,
    ) {
        let opacity = if fill_opacity.is_empty() {
            String::new()
        } else {
            format!(" fill-opacity=\"{fill_opacity}\"")
        };
        self.out.push_str(&format!(
            "<polygon points=\"{}\" fill=\"{fill}\"{opacity} stroke=\"{stroke}\" stroke-width=\"{width}\" stroke-linejoin=\"round\"{}/>\n",
            points_attr(points),
            dash_attr(dash)
        ));
    }

    pub fn polyline(&mut self, points: &[(i64, i64)], stroke: &str, width: u32, dash: &str) {
        self.out.push_str(&format!(
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{width}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"{}/>\n",
            points_attr(points),
            dash_attr(dash)
        ));
    }

    pub fn arrow(&mut self, from: (i64, i64), to: (i64, i64), st: &ArrowStyle) {
        self.out.push_str(&format!(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{} marker-end=\"url(#head-{})\"/>\n",
            from.0,
            from.1,
            to.0,
            to.1,
            st.colour,
            st.width,
            dash_attr(st.dash),
            st.id
        ));
    }

    /// An arrow along a route of two or more points, its head at the last.
    pub fn route_arrow(&mut self, points: &[(i64, i64)], st: &ArrowStyle) {
        let list: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
        self.out.push_str(&format!(
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linejoin=\"round\"{} marker-end=\"url(#head-{})\"/>\n",
            list.join(" "),
            st.colour,
            st.width,
            dash_attr(st.dash),
            st.id
        ));
    }

    /// A bar across the end of an arrow from `from` to `to`: where a
    /// charge stopped short.
    pub fn halt_mark(&mut self, from: (i64, i64), to: (i64, i64), st: &ArrowStyle) {
        let (dx, dy) = ((to.0 - from.0) as f64, (to.1 - from.1) as f64);
        let len = libm::sqrt(dx * dx + dy * dy);
        if len < 1.0 {
            return;
        }
        let half = f64::from(st.width) * 3.0;
        let (px, py) = (-dy / len * half, dx / len * half);
        let a = (to.0 + px.round() as i64, to.1 + py.round() as i64);
        let b = (to.0 - px.round() as i64, to.1 - py.round() as i64);
        self.out.push_str(&format!(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>\n",
            a.0, a.1, b.0, b.1, st.colour, st.width
        ));
    }

    /// A cross at `at`: the target of a shot not made.
    pub fn cross_mark(&mut self, at: (i64, i64), st: &ArrowStyle) {
        let r = i64::from(st.width) * 5;
        for (a, b) in [
            ((at.0 - r, at.1 - r), (at.0 + r, at.1 + r)),
            ((at.0 - r, at.1 + r), (at.0 + r, at.1 - r)),
        ] {
            self.out.push_str(&format!(
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>\n",
                a.0, a.1, b.0, b.1, st.colour, st.width
            ));
        }
    }

    pub fn text(&mut self, x: i64, y: i64, size: u32, anchor: &str, fill: &str, text: &str) {
        self.out.push_str(&format!(
            "<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\" text-anchor=\"{anchor}\" fill=\"{fill}\">{}</text>\n",
            escape(text)
        ));
    }

    /// A state marker: a disc in the marker's colour with its letter.
    pub fn marker(&mut self, x: i64, y: i64, m: &Marker) {
        self.marker_sized(x, y, 34, m);
    }

    /// A state marker of radius `r`, its letter scaled with it.
    pub fn marker_sized(&mut self, x: i64, y: i64, r: i64, m: &Marker) {
        self.out.push_str(&format!(
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"{}\" stroke=\"#ffffff\" stroke-width=\"{}\"/>\n",
            m.colour,
            (r * 5 / 34).max(2)
        ));
        let size = u32::try_from(r * 48 / 34).unwrap_or(48);
        self.text(x, y + r / 2, size, "middle", "#ffffff", m.letter);
    }

    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}
