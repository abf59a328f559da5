//! Text sent as `format=flowed` (RFC 3676) joined back into the lines the
//! writer typed. Thunderbird sends plain text this way by default: a long
//! order is broken over two lines, the first ending in a space, and read
//! line by line it would be two broken orders.

/// `text` (with LF line ends) with its flowed lines joined.
///
/// RFC 3676, section 4: a line ending in a space is soft-broken and joins
/// the next; with `DelSp=yes` that one space is deleted as they are joined
/// (4.2). A line's leading `>` characters are its quote depth, and lines
/// join only with lines of the same depth (4.5). One space at the start of
/// a line, after any quote marks, was added by the sender to protect a line
/// starting with a space, `>` or `From ` and is removed (4.4). The
/// signature separator `-- ` is never flowed (4.3). Quoted lines are
/// written back as their `>` marks, a space, and their text.
pub fn unflow(text: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(text.len());
    // The paragraph being joined: its quote depth and its text so far.
    let mut open: Option<(usize, String)> = None;
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        // The text after the last line end is a line only if it holds
        // something; a final line end closes the last line.
        let last = lines.peek().is_none();
        if last && line.is_empty() {
            if let Some((depth, joined)) = open.take() {
                push_line(&mut out, depth, &joined);
                out.push('\n');
            }
            break;
        }
        let depth = line.chars().take_while(|&c| c == '>').count();
        let content = &line[depth..];
        let content = content.strip_prefix(' ').unwrap_or(content);
        if let Some((open_depth, joined)) = open.take() {
            if open_depth == depth && content != "-- " {
                open = Some((depth, joined));
            } else {
                // A soft break before a line of another depth, or before
                // the signature separator, is a hard one.
                push_line(&mut out, open_depth, &joined);
                out.push('\n');
            }
        }
        let flowed = content.ends_with(' ') && content != "-- ";
        let (depth, mut joined) = open.take().unwrap_or((depth, String::new()));
        if flowed {
            joined.push_str(if delsp {
                &content[..content.len() - 1]
            } else {
                content
            });
            if last {
                push_line(&mut out, depth, &joined);
            } else {
                open = Some((depth, joined));
            }
            continue;
        }
        joined.push_str(content);
        push_line(&mut out, depth, &joined);
        if !last {
            out.push('\n');
        }
    }
    out
}

/// Writes one unflowed line: its quote marks, a space, its text.
fn push_line(out: &mut String, depth: usize, text: &str) {
    for _ in 0..depth {
        out.push('>');
    }
    if depth > 0 && !text.is_empty() {
        out.push(' ');
    }
    out.push_str(text);
}

#[cfg(test)]
mod tests {
    use super::unflow;

    #[test]
    fn a_line_ending_in_a_space_joins_the_next() {
        assert_eq!(
            unflow(
                "ir-1: advance 6 north, then \nwheel left\nir-4: hold\n",
                false
            ),
            "ir-1: advance 6 north, then wheel left\nir-4: hold\n"
        );
        // A paragraph of several lines is one line.
        assert_eq!(unflow("a \nb \nc\nd\n", false), "a b c\nd\n");
    }

    #[test]
    fn delsp_deletes_the_space_of_the_soft_break() {
        assert_eq!(
            unflow("ir-1: adv \nance 6 north\nir-4: hold\n", true),
            "ir-1: advance 6 north\nir-4: hold\n"
        );
        // Only one space is the break's; the writer's own stays.
        assert_eq!(unflow("a  \nb\n", true), "a b\n");
    }

    #[test]
    fn space_stuffing_is_removed() {
        assert_eq!(
            unflow(" From the wood, advance\n  indented\n >not quoted\n", false),
            "From the wood, advance\n indented\n>not quoted\n"
        );
    }

    #[test]
    fn the_signature_separator_is_never_flowed() {
        assert_eq!(
            unflow("ir-1: hold\n-- \nMarshal Lannes\n", false),
            "ir-1: hold\n-- \nMarshal Lannes\n"
        );
        assert_eq!(unflow("> -- \n> sig\n", false), "> -- \n> sig\n");
        assert_eq!(unflow("thanks \n-- \nsig\n", false), "thanks \n-- \nsig\n");
    }

    #[test]
    fn quoted_lines_flow_only_with_lines_of_the_same_depth() {
        assert_eq!(
            unflow(">> deep \n>> er\n> one \n> two \nown\n> \n", false),
            ">> deep er\n> one two \nown\n>\n"
        );
        // A flowed line followed by another depth ends its paragraph.
        assert_eq!(
            unflow("> passphrase <your \nir-1: hold\n", false),
            "> passphrase <your \nir-1: hold\n"
        );
        // Quote marks are counted without spaces between them.
        assert_eq!(unflow(">>> x\n", false), ">>> x\n");
    }

    #[test]
    fn a_final_flowed_line_and_a_missing_line_end_are_kept() {
        assert_eq!(unflow("a \nb", false), "a b");
        assert_eq!(unflow("a ", false), "a ");
        assert_eq!(unflow("", false), "");
    }
}
