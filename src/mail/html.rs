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
/// third line of text the writer sees. Each line of text inside a
/// `<blockquote>` that a client marks as the message answered (as Gmail,
/// Thunderbird and Apple Mail quote it) is written as a quoted line,
/// starting `> `.
pub fn to_text(html: &str) -> String {
    let html = html.replace(QUOTED, "");
    let text = mail_parser::decoders::html::html_to_text(&break_at_blocks(&html));
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        if line.contains(QUOTED) {
            let line = line.replace(QUOTED, "");
            let line = line.trim();
            if !line.is_empty() {
                out.push_str("> ");
                out.push_str(line);
                out.push('\n');
            }
        } else if !line.trim().is_empty() {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// A character no mail carries (one of Unicode's private use), put before
/// each piece of text inside a quoting `<blockquote>` so that the lines it ends up
/// on can be told after the conversion, and written as quoted lines (`> `):
/// a reply's quoted message, in whatever client, is not the writer's own.
/// Any the message itself holds are removed first.
const QUOTED: char = '\u{e000}';

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
/// each line end inside `<pre>`, a space before each table cell, and
/// [`QUOTED`] before each piece of text inside a `<blockquote>` that holds
/// a quoted message.
fn break_at_blocks(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + html.len() / 8);
    let mut in_pre = false;
    let mut in_tag = false;
    // For each blockquote open, whether it holds a quoted message.
    let mut blockquotes: Vec<bool> = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(|c: char| c == '<' || (in_pre && c == '\n')) {
        let (before, tail) = rest.split_at(at);
        push_text(&mut out, before, blockquotes.contains(&true), &mut in_tag);
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
        if name == "blockquote" {
            // A stray closing tag closes nothing.
            if closing {
                blockquotes.pop();
            } else {
                blockquotes.push(quotes_a_message(tag));
            }
        }
        out.push('<');
        in_tag = true;
        rest = tag;
    }
    push_text(&mut out, rest, blockquotes.contains(&true), &mut in_tag);
    out
}

/// Whether a `<blockquote>` tag (`tag`, from after its `<`) is one a mail
/// client writes around the message answered: Thunderbird, Apple Mail and
/// most others mark it `type="cite"` (often with a `cite` address), Gmail
/// and others give it a class naming a quote (`gmail_quote`). A blockquote
/// without such a mark is what an editor's indent button makes, and stays
/// the writer's own text.
fn quotes_a_message(tag: &str) -> bool {
    let attributes = tag[..tag.find('>').unwrap_or(tag.len())]
        .get("blockquote".len()..)
        .unwrap_or("")
        .to_ascii_lowercase();
    attributes.contains("cite") || attributes.contains("quote")
}

/// Copies `piece` (what stands between two points `break_at_blocks` stops
/// at) to `out`: the end of the tag it starts in, if `in_tag`, then its
/// text, marked [`QUOTED`] if `quoted` and there is text to see.
fn push_text(out: &mut String, piece: &str, quoted: bool, in_tag: &mut bool) {
    let text = if *in_tag {
        match piece.find('>') {
            Some(end) => {
                out.push_str(&piece[..=end]);
                *in_tag = false;
                &piece[end + 1..]
            }
            None => {
                out.push_str(piece);
                return;
            }
        }
    } else {
        piece
    };
    if quoted && !text.trim().is_empty() {
        out.push(QUOTED);
    }
    out.push_str(text);
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

    #[test]
    fn each_line_inside_a_blockquote_is_a_quoted_line() {
        let html = "<div>passphrase: x</div><div>ir-1: advance</div>\
            <div class=\"gmail_quote\"><blockquote class=\"gmail_quote\" style=\"margin:0\">\
            <div>== Orders ==</div><pre>    passphrase &lt;your passphrase&gt;\n    ir-1: hold\n</pre>\
            <blockquote type=\"cite\"><p>older</p></blockquote><p>still quoted</p></blockquote></div>\
            <div>after the quote</div>";
        assert_eq!(
            lines(html),
            [
                "passphrase: x",
                "ir-1: advance",
                "> == Orders ==",
                "> passphrase <your passphrase>",
                "> ir-1: hold",
                "> older",
                "> still quoted",
                "after the quote",
            ]
        );
        // A stray closing tag opens nothing and closes nothing.
        assert_eq!(
            lines("</blockquote><p>a</p><BLOCKQUOTE TYPE=cite>b</BLOCKQUOTE><p>c</p>"),
            ["a", "> b", "c"]
        );
        // An editor's indent is a blockquote too, and the writer's own.
        assert_eq!(
            lines("<blockquote style=\"margin:0 0 0 40px;border:none\">ir-1: hold</blockquote>"),
            ["ir-1: hold"]
        );
        assert_eq!(
            lines("<blockquote type=\"cite\"><blockquote>a</blockquote>b</blockquote>c"),
            ["> a", "> b", "c"]
        );
    }
}
