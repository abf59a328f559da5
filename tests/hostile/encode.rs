//! The transfer encodings and charsets the corpus writes its messages in.
//! Written here, small and plain, so that what the corpus sends does not
//! depend on the parser it tests.

/// Standard base64 (RFC 2045), in lines of 76 characters.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + bytes.len() / 57 + 4);
    for (i, chunk) in bytes.chunks(3).enumerate() {
        if i > 0 && i % 19 == 0 {
            out.push('\n');
        }
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out.push('\n');
    out
}

/// Quoted-printable (RFC 2045 section 6.7): line breaks of the text kept as
/// hard breaks, lines longer than 76 characters broken softly, every byte
/// that is not plain printable ASCII written `=XX`.
pub fn quoted_printable(bytes: &[u8]) -> String {
    let mut out = String::new();
    let mut width = 0;
    let lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
    for (n, line) in lines.iter().enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        for (i, &b) in line.iter().enumerate() {
            let last = i + 1 == line.len();
            let literal = (33..=126).contains(&b) && b != b'=' || (b == b' ' && !last);
            let piece = if literal {
                (b as char).to_string()
            } else {
                format!("={b:02X}")
            };
            if width + piece.len() > 75 {
                out.push_str("=\n");
                width = 0;
            }
            width += piece.len();
            out.push_str(&piece);
        }
        if n + 1 < lines.len() {
            out.push('\n');
            width = 0;
        }
    }
    out
}

/// Quoted-printable of bytes that are no text of lines (UTF-16): every
/// byte but plain printable ASCII written `=XX`, line ends too, so that the
/// CRLF an MTA makes of a line end never lands inside a character.
pub fn quoted_printable_binary(bytes: &[u8]) -> String {
    let mut out = String::new();
    let mut width = 0;
    for &b in bytes {
        let piece = if (33..=126).contains(&b) && b != b'=' {
            (b as char).to_string()
        } else {
            format!("={b:02X}")
        };
        if width + piece.len() > 75 {
            out.push_str("=\n");
            width = 0;
        }
        width += piece.len();
        out.push_str(&piece);
    }
    out.push('\n');
    out
}

/// `text` in the charset `label`, as a mail client in that charset writes
/// it: UTF-16 with its byte order mark, the rest through `encoding_rs`, a
/// label no one knows as windows-1252 (what such a client most often means).
pub fn in_charset(text: &str, label: &str) -> Vec<u8> {
    let units = |big: bool| -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|u| {
                if big {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    };
    match label.to_ascii_lowercase().as_str() {
        "utf-16le" => units(false),
        "utf-16be" => units(true),
        "utf-16" => [&[0xFF, 0xFE][..], &units(false)].concat(),
        other => {
            let encoding = encoding_rs::Encoding::for_label(other.as_bytes())
                .unwrap_or(encoding_rs::WINDOWS_1252);
            encoding.encode(text).0.into_owned()
        }
    }
}

/// An encoded word (RFC 2047) of `text` in UTF-8, base64.
pub fn encoded_word(text: &str) -> String {
    format!("=?utf-8?B?{}?=", base64(text.as_bytes()).trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_encoders_write_what_the_rfc_examples_show() {
        assert_eq!(base64(b"Man"), "TWFu\n");
        assert_eq!(base64(b"Ma"), "TWE=\n");
        assert_eq!(base64(b"M"), "TQ==\n");
        assert_eq!(quoted_printable("é = x".as_bytes()), "=C3=A9 =3D x");
        assert_eq!(quoted_printable(b"a \nb"), "a=20\nb");
        assert_eq!(in_charset("é", "iso-8859-1"), vec![0xE9]);
        assert_eq!(in_charset("€", "windows-1252"), vec![0x80]);
        assert_eq!(in_charset("A", "utf-16"), vec![0xFF, 0xFE, 0x41, 0]);
        assert_eq!(quoted_printable_binary(b"A\n\0"), "A=0A=00\n");
    }
}
