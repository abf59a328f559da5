//! HTML to the text a reader sees, for orders sent from a client that writes
//! HTML only: lines where the page shows lines.

/// The text of `html`, a line for each line the page shows.
///
/// mail-parser's `html_to_text` does the work (tags, entities, `<head>`,
/// `<style>` and `<script>` left out) but breaks lines only at `<br>` and
/// `</p>`: orders written in a table, a list, a `<pre>` block or paragraphs
/// left unclosed would run into one line, the passphrase with the order
/// after it. Each block element is first given a `<br>` at its start and
/// end, each line end inside `<pre>` becomes one, and each table cell gets
/// a space before it. Lines with nothing on them are left out, those this
/// makes and those of the page alike, so that a reply's "line 3" is the
/// third line of text the writer sees.
pub fn to_text(html: &str) -> String {
    let text = mail_parser::decoders::html::html_to_text(&break_at_blocks(html));
    let mut out = String::with_capacity(text.len());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The elements that begin and end a line of their own when an HTML text is
/// shown.
const HTML_BLOCKS: &[&str] = &[
    "address",
    "article",
    "blockquote",
    "dd",
    "div",
    "dl",
    "dt",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "tr",
    "ul",
];

/// `html` with a `<br>` at the start and end of each block element and at
/// each line end inside `<pre>`, and a space before each table cell.
fn break_at_blocks(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + html.len() / 8);
    let mut in_pre = false;
    let mut rest = html;
    while let Some(at) = rest.find(|c: char| c == '<' || (in_pre && c == '\n')) {
        let (before, tail) = rest.split_at(at);
        out.push_str(before);
        if let Some(after) = tail.strip_prefix('\n') {
            out.push_str("<br>");
            rest = after;
            continue;
        }
        let tag = &tail[1..];
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase();
        if HTML_BLOCKS.contains(&name.as_str()) {
            out.push_str("<br>");
        } else if name == "td" || name == "th" {
            out.push(' ');
        }
        if name == "pre" {
            in_pre = !closing;
        }
        out.push('<');
        rest = tag;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::to_text;

    fn lines(html: &str) -> Vec<String> {
        to_text(html)
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn blocks_tables_and_pre_are_lines_of_their_own() {
        let want = ["passphrase: x", "1-ligne: hold"];
        for html in [
            "<pre>passphrase: x\n1-ligne: hold\n</pre>",
            "<table><tr><td>passphrase: x</td></tr><tr><td>1-ligne: hold</td></tr></table>",
            "<p>passphrase: x<p>1-ligne: hold",
            "<ul><li>passphrase: x</li><li>1-ligne: hold</li></ul>",
            "<DIV>passphrase: x</DIV><H3>1-ligne: hold</H3>",
        ] {
            assert_eq!(lines(html), want, "{html}");
        }
        assert_eq!(
            lines("<table><tr><td>1-ligne:</td><td>hold</td></tr></table>"),
            ["1-ligne: hold"]
        );
        assert_eq!(
            lines("<script>var p = '<div>passphrase: x</div>';</script><p>a</p>"),
            ["a"]
        );
    }
}
