//! The hostile mail corpus: every message with the outcome it must have.
//!
//! Each [`Case`] is one message as a mail client, a robot, a broken MTA or
//! an attacker writes it, with its envelope sender and its expected
//! [`Expect`]: a reply to whom, with what status in the store and a phrase
//! the reply must say; silence (automatic mail, our own mail, junk); or a
//! repeat of a message handled before. The cases are grouped in families
//! (`family`), each documented where it is written and in
//! docs/RELIABILITY.md, "The hostile mail corpus".
//!
//! The corpus is written for the demo campaign (`sound-the-charge-demo`)
//! after two resolutions, in its third turn, with a second campaign
//! (`grande-tactique-demo`) registered beside it. Good orders come only from
//! the French player: the Austrian side never sends any, so that no message
//! of the corpus closes the phase and every outcome is the same whatever
//! order Postfix delivers them in.

pub mod encode;

use encode::{base64, encoded_word, in_charset, quoted_printable, quoted_printable_binary};

pub const CAMPAIGN: &str = "sound-the-charge-demo";
pub const OTHER_CAMPAIGN: &str = "grande-tactique-demo";
/// adjutant's own address: the mailbox it reads and the sender of its mail.
pub const ADJUTANT: &str = "adjutant@example.org";
pub const GM: &str = "umpire@example.org";
pub const LANNES: &str = "lannes@french.invalid";
pub const HOHENZOLLERN: &str = "hohenzollern@austrian.invalid";
pub const LANNES_PASS: &str = "vive-l-empereur";
pub const HOHENZOLLERN_PASS: &str = "gott-erhalte-franz";
pub const GM_PASS: &str = "grand-quartier-general";
/// Every passphrase of the corpus, right or wrong: none may appear in a
/// reply.
pub const SECRETS: &[&str] = &[
    LANNES_PASS,
    HOHENZOLLERN_PASS,
    GM_PASS,
    "vive-le-roi",
    "en-avant-les-cuirassiers",
];
/// How many addresses no campaign knows the corpus writes from, each once.
pub const STRANGERS: usize = 16;

/// The `n`th address no campaign knows (a mailbox of the test's stack, so
/// that an answer to it can be seen arriving).
pub fn stranger(n: usize) -> String {
    assert!(n < STRANGERS, "stranger {n}: raise STRANGERS");
    format!("s{n:02}@strangers.invalid")
}

const SUBJECT: &str = "[sound-the-charge-demo] orders";
const ORDERS: &str = "1-ligne: hold\n";

/// The phrases a reply must say, as the templates word them.
pub mod phrase {
    /// `ack.txt`: orders accepted, wholly or partly.
    pub const ACCEPTED: &str = "Digest of your accepted orders";
    /// The authentication refusal (`ingest`), worded alike for a wrong
    /// passphrase, none, a wrong sender and a signature missing.
    pub const NO_MATCH: &str = "do not match a player of this campaign";
    /// `stranger.txt`: the one answer a day to an address no campaign knows.
    pub const STRANGER: &str = "This address answers such messages at most";
    pub const UNREADABLE: &str = "could not be read";
    pub const TOO_LARGE: &str = "The limit is 512 KB";
    pub const TOO_MANY_LINES: &str = "more than the 500 one message may carry";
    pub const NO_CAMPAIGN_HERE: &str = "there is no campaign `";
    pub const WHICH_CAMPAIGN: &str = "does not say which campaign it is for";
    pub const NO_ORDER_LINE: &str = "no line of it is an order that can be accepted";
    pub const GM_REPLY: &str = "Your commands for sound-the-charge-demo, line by line";
    pub const ORDERS_FROM_PLAYERS: &str = "orders come from the players";
}

/// What must become of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// Stored with `status`, and one reply to `to` that says `phrase`.
    Reply {
        to: String,
        status: &'static str,
        phrase: String,
    },
    /// Stored with `status` (`ignored`), and no reply to anyone.
    Silent { status: &'static str },
    /// The same message as one handled before (the same sender and
    /// Message-ID, its orders taken): not acted on again, no reply, nothing
    /// stored again (its first delivery is).
    Repeat,
}

/// One message of the corpus.
#[derive(Debug, Clone)]
pub struct Case {
    pub family: &'static str,
    pub name: String,
    /// The SMTP envelope sender (`MAIL FROM`); empty for a bounce's `<>`.
    pub envelope: String,
    pub raw: Vec<u8>,
    pub expect: Expect,
}

/// What the corpus needs to know of the campaign it is sent to.
#[derive(Debug, Clone)]
pub struct Context {
    /// The turn now open (the third, after two resolutions).
    pub turn: u32,
    /// The Message-ID (without brackets) and subject of the French
    /// player's report of resolution 1.
    pub old_report: (String, String),
    /// The bytes of the French player's orders of the first turn, as sent.
    pub first_orders: Vec<u8>,
}

/// The French player's orders of the first turn, as the warm-up sends them
/// (and a replay sends them again).
pub fn first_orders() -> Vec<u8> {
    message(
        &head(
            LANNES,
            "[sound-the-charge-demo] orders for turn 1",
            "warmup-1",
        ),
        format!("passphrase: {LANNES_PASS}\n{ORDERS}").as_bytes(),
    )
}

/// Headers of a plain message: From, To, Subject, Message-ID (from `id`)
/// and Date, one per line, ending with a line end.
pub fn head(from: &str, subject: &str, id: &str) -> String {
    format!(
        "From: {from}\nTo: {ADJUTANT}\nSubject: {subject}\nMessage-ID: <{id}@hostile.test>\n\
         Date: Mon, 05 Jan 2026 10:00:00 +0000\n"
    )
}

/// `head` and `body`, with an empty line between.
pub fn message(head: &str, body: &[u8]) -> Vec<u8> {
    let mut raw = head.as_bytes().to_vec();
    raw.push(b'\n');
    raw.extend_from_slice(body);
    raw
}

/// A plain-text message in UTF-8.
fn plain(from: &str, subject: &str, id: &str, extra: &str, body: &str) -> Vec<u8> {
    message(
        &format!(
            "{}{extra}MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n",
            head(from, subject, id)
        ),
        body.as_bytes(),
    )
}

fn good_body() -> String {
    format!("passphrase: {LANNES_PASS}\n{ORDERS}")
}

/// Builds the corpus, case by case.
struct Corpus {
    cases: Vec<Case>,
}

impl Corpus {
    fn add(&mut self, family: &'static str, name: &str, envelope: &str, raw: Vec<u8>, e: Expect) {
        let name = format!("{family}/{name}");
        assert!(
            self.cases.iter().all(|c| c.name != name),
            "two cases named {name}"
        );
        self.cases.push(Case {
            family,
            name,
            envelope: envelope.to_string(),
            raw,
            expect: e,
        });
    }
}

/// The Message-ID's local part for the case `family/name`.
fn id(family: &str, name: &str) -> String {
    format!("{family}.{name}")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '.' })
        .collect()
}

fn reply(to: &str, status: &'static str, phrase: &str) -> Expect {
    Expect::Reply {
        to: to.to_string(),
        status,
        phrase: phrase.to_string(),
    }
}

fn accepted() -> Expect {
    reply(LANNES, "accepted", phrase::ACCEPTED)
}

fn accepted_saying(words: &str) -> Expect {
    reply(LANNES, "accepted", words)
}

fn refused(to: &str, words: &str) -> Expect {
    reply(to, "refused", words)
}

fn silent() -> Expect {
    Expect::Silent { status: "ignored" }
}

/// The whole corpus.
pub fn corpus(ctx: &Context) -> Vec<Case> {
    let mut c = Corpus { cases: Vec::new() };
    encodings_and_charsets(&mut c);
    html(&mut c);
    structure(&mut c);
    malformed(&mut c);
    huge(&mut c);
    nul_bytes(&mut c);
    broken_encodings(&mut c);
    attachments(&mut c);
    spoofed(&mut c);
    passphrases(&mut c);
    campaigns_and_phases(&mut c, ctx);
    replays(&mut c, ctx);
    automatic(&mut c);
    bounces(&mut c);
    out_of_office(&mut c);
    own_address(&mut c);
    c.cases
}

/// The charsets of the corpus, each with a greeting in its own script (a
/// line no order reads, which the acknowledgement lists as refused).
const CHARSETS: &[(&str, &str)] = &[
    ("us-ascii", "Sire, my orders for the day."),
    ("utf-8", "Sire, voici mes ordres — Lannes ✓"),
    (
        "iso-8859-1",
        "Sire, voici mes ordres pour l'armée, à Ratisbonne.",
    ),
    ("latin1", "Sire, l'armée avance à l'aube."),
    ("windows-1252", "Sire, “mes ordres” – 5 € pour l’armée…"),
    ("iso-8859-15", "Sire, 5 € pour l'œuvre de l'armée."),
    ("koi8-r", "Сир, мои приказы на сегодня."),
    ("shift_jis", "陛下、本日の命令です。"),
    ("euc-jp", "陛下、本日の命令です。"),
    ("iso-2022-jp", "陛下、本日の命令です。"),
    ("gb18030", "陛下，这是我今天的命令。"),
    ("big5", "陛下，這是我今天的命令。"),
    ("utf-16", "Sire, voici mes ordres — ✓ 陛下"),
    ("utf-16le", "Sire, voici mes ordres — ✓ 陛下"),
    ("utf-16be", "Sire, voici mes ordres — ✓ 陛下"),
];

/// Every transfer encoding (7bit, 8bit, binary, quoted-printable, base64)
/// of orders in every charset, and labels no one knows: each is accepted.
/// A 7bit label on 8-bit bytes is a lie many clients tell; it is read
/// anyway. UTF-16 travels only in base64 or quoted-printable: its NUL bytes
/// and its line ends cannot cross SMTP's DATA raw (that needs BINARYMIME).
fn encodings_and_charsets(c: &mut Corpus) {
    const FAMILY: &str = "charset";
    for (charset, greeting) in CHARSETS {
        let text = format!("{greeting}\n{}", good_body());
        let bytes = in_charset(&text, charset);
        for cte in ["7bit", "8bit", "binary", "quoted-printable", "base64"] {
            let wide = charset.starts_with("utf-16");
            if wide && !matches!(cte, "quoted-printable" | "base64") {
                continue;
            }
            let body = match cte {
                "quoted-printable" if wide => quoted_printable_binary(&bytes).into_bytes(),
                "quoted-printable" => quoted_printable(&bytes).into_bytes(),
                "base64" => base64(&bytes).into_bytes(),
                _ => bytes.clone(),
            };
            let name = format!("{charset}-{cte}");
            let raw = message(
                &format!(
                    "{}MIME-Version: 1.0\nContent-Type: text/plain; charset=\"{charset}\"\n\
                     Content-Transfer-Encoding: {cte}\n",
                    head(LANNES, SUBJECT, &id(FAMILY, &name))
                ),
                &body,
            );
            c.add(FAMILY, &name, LANNES, raw, accepted());
        }
    }
    // Labels no one knows, or none at all, on 8-bit text: the orders, plain
    // ASCII, are read whatever the rest becomes.
    let latin = in_charset(
        &format!("Sire, l'armée est prête.\n{}", good_body()),
        "iso-8859-1",
    );
    for (name, content_type) in [
        ("unknown-label", "text/plain; charset=x-no-such-charset"),
        ("klingon", "text/plain; charset=\"x-klingon-pIqaD\""),
        ("empty-label", "text/plain; charset=\"\""),
        ("no-label", "text/plain"),
        ("utf-8-label-on-latin1-bytes", "text/plain; charset=utf-8"),
        ("no-content-type", ""),
    ] {
        for cte in ["8bit", "quoted-printable", "base64"] {
            let body = match cte {
                "quoted-printable" => quoted_printable(&latin).into_bytes(),
                "base64" => base64(&latin).into_bytes(),
                _ => latin.clone(),
            };
            let ct = if content_type.is_empty() {
                String::new()
            } else {
                format!("Content-Type: {content_type}\n")
            };
            let case = format!("{name}-{cte}");
            let raw = message(
                &format!(
                    "{}MIME-Version: 1.0\n{ct}Content-Transfer-Encoding: {cte}\n",
                    head(LANNES, SUBJECT, &id(FAMILY, &case))
                ),
                &body,
            );
            c.add(FAMILY, &case, LANNES, raw, accepted());
        }
    }
    // A subject in an encoded word, in several charsets: read, and the
    // campaign found in it.
    for (name, subject) in [
        (
            "subject-utf8-b",
            encoded_word("[sound-the-charge-demo] ordres de l'armée"),
        ),
        (
            "subject-latin1-q",
            "=?iso-8859-1?Q?[sound-the-charge-demo]_ordres_de_l'arm=E9e?=".to_string(),
        ),
        (
            "subject-iso2022jp-b",
            format!(
                "[sound-the-charge-demo] =?iso-2022-jp?B?{}?=",
                base64(&in_charset("命令", "iso-2022-jp")).trim_end()
            ),
        ),
        (
            "subject-unknown-charset",
            "[sound-the-charge-demo] =?x-unknown?Q?ordres?=".to_string(),
        ),
    ] {
        let raw = plain(LANNES, &subject, &id(FAMILY, name), "", &good_body());
        c.add(FAMILY, name, LANNES, raw, accepted());
    }
}

/// Orders written in HTML only, as webmail and phone clients send them:
/// read through the HTML, markup, entities and all; what a style or script
/// block holds is no text.
fn html(c: &mut Corpus) {
    const FAMILY: &str = "html";
    let cases: &[(&str, &str, &str)] = &[
        (
            "paragraphs",
            "",
            "<html><body><p>Sire,</p><p>passphrase: vive-l-empereur</p><p>1-ligne: hold</p></body></html>",
        ),
        (
            "line-breaks",
            "",
            "<div>passphrase: vive-l-empereur<br>1-ligne: hold<br/></div>",
        ),
        (
            "entities",
            "",
            "<p>passphrase:&nbsp;vive-l-empereur</p>\n<p>1-ligne:&#32;hold</p><p>&lt;signed&gt; &amp; sealed</p>",
        ),
        (
            "upper-case-tags",
            "",
            "<HTML><BODY><P>passphrase: vive-l-empereur</P><P>1-ligne: hold</P></BODY></HTML>",
        ),
        (
            "comments-and-style",
            "",
            "<html><head><style>p { color: red }</style></head><body><!-- a comment --><p>passphrase: vive-l-empereur</p><p>1-ligne: hold</p></body></html>",
        ),
        (
            "pre-block",
            "",
            "<pre>passphrase: vive-l-empereur\n1-ligne: hold\n</pre>",
        ),
        (
            "table-layout",
            "",
            "<table><tr><td>passphrase: vive-l-empereur</td></tr><tr><td>1-ligne: hold</td></tr></table>",
        ),
        (
            "unclosed-tags",
            "",
            "<html><body><p>passphrase: vive-l-empereur<p>1-ligne: hold<div><span>",
        ),
        (
            "base64",
            "base64",
            "<p>passphrase: vive-l-empereur</p><p>1-ligne: hold</p>",
        ),
        (
            "quoted-printable-latin1",
            "quoted-printable",
            "<p>Sire, l'arm\u{e9}e.</p><p>passphrase: vive-l-empereur</p><p>1-ligne: hold</p>",
        ),
    ];
    for (name, cte, html) in cases {
        let (charset, body) = match *cte {
            "base64" => ("utf-8", base64(html.as_bytes()).into_bytes()),
            "quoted-printable" => (
                "iso-8859-1",
                quoted_printable(&in_charset(html, "iso-8859-1")).into_bytes(),
            ),
            _ => ("utf-8", html.as_bytes().to_vec()),
        };
        let cte_header = if cte.is_empty() {
            String::new()
        } else {
            format!("Content-Transfer-Encoding: {cte}\n")
        };
        let raw = message(
            &format!(
                "{}MIME-Version: 1.0\nContent-Type: text/html; charset={charset}\n{cte_header}",
                head(LANNES, SUBJECT, &id(FAMILY, name))
            ),
            &body,
        );
        c.add(FAMILY, name, LANNES, raw, accepted());
    }
    // A passphrase only in a script block is no text a person wrote.
    let raw = message(
        &format!(
            "{}MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n",
            head(LANNES, SUBJECT, &id(FAMILY, "passphrase-in-script"))
        ),
        b"<html><head><script>var x = 'passphrase: vive-l-empereur';</script></head><body><p>1-ligne: hold</p></body></html>",
    );
    c.add(
        FAMILY,
        "passphrase-in-script",
        LANNES,
        raw,
        refused(LANNES, phrase::NO_MATCH),
    );
    // multipart/alternative, the text and the HTML saying the same.
    let raw = message(
        &format!(
            "{}MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=\"alt\"\n",
            head(LANNES, SUBJECT, &id(FAMILY, "alternative"))
        ),
        b"--alt\nContent-Type: text/plain; charset=utf-8\n\npassphrase: vive-l-empereur\n1-ligne: hold\n\
          --alt\nContent-Type: text/html; charset=utf-8\n\n<p>passphrase: vive-l-empereur<br>1-ligne: hold</p>\n--alt--\n",
    );
    c.add(FAMILY, "alternative", LANNES, raw, accepted());
    // HTML first in the alternative (the wrong order): the plain part still
    // counts.
    let raw = message(
        &format!(
            "{}MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=\"alt\"\n",
            head(LANNES, SUBJECT, &id(FAMILY, "alternative-html-first"))
        ),
        b"--alt\nContent-Type: text/html; charset=utf-8\n\n<p>passphrase: vive-l-empereur<br>1-ligne: hold</p>\n\
          --alt\nContent-Type: text/plain; charset=utf-8\n\npassphrase: vive-l-empereur\n1-ligne: hold\n--alt--\n",
    );
    c.add(FAMILY, "alternative-html-first", LANNES, raw, accepted());
}

/// Messages of several parts, and messages within messages.
fn structure(c: &mut Corpus) {
    const FAMILY: &str = "nested";
    let mixed = |name: &str, parts: &[u8]| {
        message(
            &format!(
                "{}MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"outer\"\n",
                head(LANNES, SUBJECT, &id(FAMILY, name))
            ),
            parts,
        )
    };
    // Orders with a forwarded message attached: the writer's own text
    // counts, the forwarded one does not.
    let forwarded = plain(
        HOHENZOLLERN,
        "[sound-the-charge-demo] orders",
        "inner-1",
        "",
        &format!("passphrase: {HOHENZOLLERN_PASS}\nno orders\n"),
    );
    let mut parts = format!(
        "--outer\nContent-Type: text/plain; charset=utf-8\n\n{}\n--outer\n\
         Content-Type: message/rfc822\nContent-Disposition: attachment\n\n",
        good_body()
    )
    .into_bytes();
    parts.extend_from_slice(&forwarded);
    parts.extend_from_slice(b"\n--outer--\n");
    c.add(
        FAMILY,
        "orders-with-forwarded-message",
        LANNES,
        mixed("orders-with-forwarded-message", &parts),
        accepted(),
    );
    // Only a forwarded message, which holds the French orders: not the
    // writer's own words, so no passphrase is found in them.
    let inner = plain(LANNES, SUBJECT, "inner-2", "", &good_body());
    let mut parts = b"--outer\nContent-Type: message/rfc822\n\n".to_vec();
    parts.extend_from_slice(&inner);
    parts.extend_from_slice(b"\n--outer--\n");
    c.add(
        FAMILY,
        "only-a-forwarded-message",
        LANNES,
        mixed("only-a-forwarded-message", &parts),
        refused(LANNES, phrase::NO_MATCH),
    );
    // The whole message is a message/rfc822.
    let raw = message(
        &format!(
            "{}MIME-Version: 1.0\nContent-Type: message/rfc822\n",
            head(LANNES, SUBJECT, &id(FAMILY, "message-rfc822-top"))
        ),
        &inner,
    );
    c.add(
        FAMILY,
        "message-rfc822-top",
        LANNES,
        raw,
        refused(LANNES, phrase::NO_MATCH),
    );
    // Messages within messages, deeper than any client forwards: the
    // parser must neither overflow its stack nor take long.
    for depth in [20usize, 200, 2000] {
        let mut inner = plain(HOHENZOLLERN, "deepest", "deepest", "", "no orders\n");
        for level in 0..depth {
            let mut outer = format!(
                "From: {HOHENZOLLERN}\nSubject: level {level}\nMIME-Version: 1.0\n\
                 Content-Type: message/rfc822\n\n"
            )
            .into_bytes();
            outer.extend_from_slice(&inner);
            inner = outer;
        }
        let name = format!("rfc822-depth-{depth}");
        let mut parts = format!(
            "--outer\nContent-Type: text/plain; charset=utf-8\n\n{}\n--outer\n\
             Content-Type: message/rfc822\n\n",
            good_body()
        )
        .into_bytes();
        parts.extend_from_slice(&inner);
        parts.extend_from_slice(b"\n--outer--\n");
        c.add(FAMILY, &name, LANNES, mixed(&name, &parts), accepted());
    }
    // Multiparts within multiparts, each with its own boundary.
    for depth in [50usize, 1000] {
        let mut body = format!("--b{depth}\nContent-Type: text/plain\n\n{}\n", good_body());
        for level in (0..depth).rev() {
            body = format!(
                "--b{level}\nContent-Type: multipart/mixed; boundary=\"b{}\"\n\n{body}--b{}--\n",
                level + 1,
                level + 1
            );
        }
        let name = format!("multipart-depth-{depth}");
        let raw = message(
            &format!(
                "{}MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"b0\"\n",
                head(LANNES, SUBJECT, &id(FAMILY, &name))
            ),
            format!("{body}--b0--\n").as_bytes(),
        );
        c.add(FAMILY, &name, LANNES, raw, accepted());
    }
    // multipart/signed (S/MIME, PGP/MIME): the signed text is read.
    let raw = message(
        &format!(
            "{}MIME-Version: 1.0\nContent-Type: multipart/signed; protocol=\"application/pgp-signature\"; micalg=pgp-sha256; boundary=\"sig\"\n",
            head(LANNES, SUBJECT, &id(FAMILY, "pgp-signed"))
        ),
        format!(
            "--sig\nContent-Type: text/plain; charset=utf-8\n\n{}\n--sig\nContent-Type: application/pgp-signature\n\n\
             -----BEGIN PGP SIGNATURE-----\niQEzBAEBCAAdFiEE\n-----END PGP SIGNATURE-----\n--sig--\n",
            good_body()
        )
        .as_bytes(),
    );
    c.add(FAMILY, "pgp-signed", LANNES, raw, accepted());
    // An encrypted message: nothing in it can be read.
    let raw = message(
        &format!(
            "{}MIME-Version: 1.0\nContent-Type: multipart/encrypted; protocol=\"application/pgp-encrypted\"; boundary=\"enc\"\n",
            head(LANNES, SUBJECT, &id(FAMILY, "pgp-encrypted"))
        ),
        b"--enc\nContent-Type: application/pgp-encrypted\n\nVersion: 1\n--enc\nContent-Type: application/octet-stream\n\n\
          -----BEGIN PGP MESSAGE-----\nhQEMA0b3Zx9ZZZZZAQf+\n-----END PGP MESSAGE-----\n--enc--\n",
    );
    c.add(
        FAMILY,
        "pgp-encrypted",
        LANNES,
        raw,
        refused(LANNES, phrase::NO_MATCH),
    );
}

/// MIME that breaks its own rules: boundaries missing, wrong or never
/// closed, headers without a colon, Content-Type garbage. What can be read
/// is read: orders found are taken; a multipart without a boundary is told
/// it could not be read; where no passphrase can be found, the reply says
/// the sender and passphrase do not match.
fn malformed(c: &mut Corpus) {
    const FAMILY: &str = "malformed";
    let good = good_body();
    let with = |name: &str, extra: &str, body: &str| {
        message(
            &format!(
                "{}MIME-Version: 1.0\n{extra}",
                head(LANNES, SUBJECT, &id(FAMILY, name))
            ),
            body.as_bytes(),
        )
    };
    let cases: Vec<(&str, String, String, Expect)> = vec![
        (
            "multipart-without-boundary",
            "Content-Type: multipart/mixed\n".into(),
            good.clone(),
            refused(LANNES, phrase::UNREADABLE),
        ),
        (
            "boundary-never-used",
            "Content-Type: multipart/mixed; boundary=\"nowhere\"\n".into(),
            good.clone(),
            accepted(),
        ),
        (
            "closing-boundary-missing",
            "Content-Type: multipart/mixed; boundary=\"zz\"\n".into(),
            format!("--zz\nContent-Type: text/plain\n\n{good}"),
            accepted(),
        ),
        (
            "empty-boundary",
            "Content-Type: multipart/mixed; boundary=\"\"\n".into(),
            format!("--\nContent-Type: text/plain\n\n{good}----\n"),
            refused(LANNES, phrase::UNREADABLE),
        ),
        (
            "boundary-of-2000-chars",
            format!(
                "Content-Type: multipart/mixed; boundary=\"{}\"\n",
                "b".repeat(2000)
            ),
            format!(
                "--{0}\nContent-Type: text/plain\n\n{good}--{0}--\n",
                "b".repeat(2000)
            ),
            accepted(),
        ),
        (
            "wrong-closing-boundary",
            "Content-Type: multipart/mixed; boundary=\"right\"\n".into(),
            format!("--right\nContent-Type: text/plain\n\n{good}--wrong--\n"),
            accepted(),
        ),
        (
            "orders-in-the-preamble",
            "Content-Type: multipart/mixed; boundary=\"p\"\n".into(),
            format!("{good}--p\nContent-Type: text/plain\n\nnothing here\n--p--\n"),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "part-headers-without-blank-line",
            "Content-Type: multipart/mixed; boundary=\"q\"\n".into(),
            format!(
                "--q\nContent-Type: text/plain\npassphrase: {LANNES_PASS}\n1-ligne: hold\n--q--\n"
            ),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "garbage-content-type",
            "Content-Type: ;;;; ===; charset\n".into(),
            good.clone(),
            accepted(),
        ),
        (
            "content-type-without-subtype",
            "Content-Type: text\n".into(),
            good.clone(),
            accepted(),
        ),
        (
            "two-content-types",
            "Content-Type: text/plain\nContent-Type: multipart/mixed; boundary=x\n".into(),
            good.clone(),
            accepted(),
        ),
        (
            "unterminated-quoted-parameter",
            "Content-Type: text/plain; charset=\"utf-8\n".into(),
            good.clone(),
            accepted(),
        ),
        (
            "application-type-body",
            "Content-Type: application/octet-stream\n".into(),
            good.clone(),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "folded-header-of-whitespace",
            "X-Folded: start\n \n\t\n \nContent-Type: text/plain\n".into(),
            good.clone(),
            accepted(),
        ),
        (
            "headers-only",
            "Content-Type: text/plain\n".into(),
            String::new(),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "mime-version-99",
            "Content-Type: text/plain\nMIME-Version: 99.7 (from the future)\n".into(),
            good.clone(),
            accepted(),
        ),
    ];
    for (name, extra, body, expect) in cases {
        c.add(FAMILY, name, LANNES, with(name, &extra, &body), expect);
    }
    // A line that is no header among the headers: the header section ends
    // there for some readers and not for others.
    let raw = format!(
        "From: {LANNES}\nTo: {ADJUTANT}\nThis line is no header at all\nSubject: {SUBJECT}\n\
         Message-ID: <{}@hostile.test>\n\n{good}",
        id(FAMILY, "line-without-colon")
    )
    .into_bytes();
    c.add(FAMILY, "line-without-colon", LANNES, raw, accepted());
    // Bare CRs as line ends (old Mac clients). SMTP allows none (RFC 5321
    // section 2.3.8), and Postfix delivers each as a space: the lines run
    // into one, the passphrase with the order after it, and the reply says
    // the passphrase does not match.
    let raw = message(
        &head(LANNES, SUBJECT, &id(FAMILY, "bare-cr-line-ends")),
        format!("passphrase: {LANNES_PASS}\r1-ligne: hold\r").as_bytes(),
    );
    c.add(
        FAMILY,
        "bare-cr-line-ends",
        LANNES,
        raw,
        refused(LANNES, phrase::NO_MATCH),
    );
    // An encoded word that is not one.
    let raw = plain(
        LANNES,
        "[sound-the-charge-demo] =?utf-8?B?!!!notbase64?= =?utf-8?Q?=ZZ?= =?",
        &id(FAMILY, "broken-encoded-words"),
        "",
        &good,
    );
    c.add(FAMILY, "broken-encoded-words", LANNES, raw, accepted());
    // No Message-ID, no Date: Postfix adds both on the way in.
    let raw = format!("From: {LANNES}\nTo: {ADJUTANT}\nSubject: {SUBJECT}\n\n{good}").into_bytes();
    c.add(FAMILY, "no-message-id-no-date", LANNES, raw, accepted());
    // No From: Postfix writes the envelope sender in it.
    let raw = format!(
        "To: {ADJUTANT}\nSubject: {SUBJECT}\nMessage-ID: <{}@hostile.test>\n\n{good}",
        id(FAMILY, "no-from")
    )
    .into_bytes();
    c.add(FAMILY, "no-from", LANNES, raw, accepted());
    // A From that is an empty group: no one to answer.
    let raw = format!(
        "From: undisclosed-senders:;\nTo: {ADJUTANT}\nSubject: {SUBJECT}\nMessage-ID: <{}@hostile.test>\n\n{good}",
        id(FAMILY, "from-an-empty-group")
    )
    .into_bytes();
    c.add(FAMILY, "from-an-empty-group", LANNES, raw, silent());
}

/// Huge headers and bodies: read within the limits, answered with the limit
/// past them; the reply never grows with what was sent.
fn huge(c: &mut Corpus) {
    const FAMILY: &str = "huge";
    let good = good_body();
    // A subject of 60 KB (under Postfix's 100 KB header limit).
    let subject = format!(
        "[sound-the-charge-demo] {}",
        "orders ".repeat(60 * 1024 / 7)
    );
    let raw = plain(LANNES, &subject, &id(FAMILY, "subject-60k"), "", &good);
    c.add(FAMILY, "subject-60k", LANNES, raw, accepted());
    // The same subject on a message that is refused.
    let raw = plain(
        LANNES,
        &subject,
        &id(FAMILY, "subject-60k-refused"),
        "",
        "passphrase: vive-le-roi\n1-ligne: hold\n",
    );
    c.add(
        FAMILY,
        "subject-60k-refused",
        LANNES,
        raw,
        refused(LANNES, phrase::NO_MATCH),
    );
    // 4,000 headers of 90 bytes.
    let many: String = (0..4000)
        .map(|n| format!("X-Filler-{n}: {}\n", "f".repeat(76)))
        .collect();
    let raw = plain(LANNES, SUBJECT, &id(FAMILY, "4000-headers"), &many, &good);
    c.add(FAMILY, "4000-headers", LANNES, raw, accepted());
    // One header folded over 5,000 lines (about 90 KB).
    let folded = format!("X-Folded:{}\n", "\n x".repeat(5000));
    let raw = plain(
        LANNES,
        SUBJECT,
        &id(FAMILY, "header-folded-5000"),
        &folded,
        &good,
    );
    c.add(FAMILY, "header-folded-5000", LANNES, raw, accepted());
    // A body of 400 KB of prose after the orders (under the limit).
    let prose = "The army marches at dawn. ".repeat(400 * 1024 / 26);
    let raw = plain(
        LANNES,
        SUBJECT,
        &id(FAMILY, "body-400k-prose"),
        "",
        &format!("{good}\n{}\n", prose),
    );
    c.add(FAMILY, "body-400k-prose", LANNES, raw, accepted());
    // One line of 300 KB, no line end: a refused line, which the reply must
    // not repeat at length.
    let raw = plain(
        LANNES,
        SUBJECT,
        &id(FAMILY, "line-300k"),
        "",
        &format!("{good}{}", "x".repeat(300 * 1024)),
    );
    c.add(FAMILY, "line-300k", LANNES, raw, accepted());
    // 499 order lines: taken, with the refusals listed up to the limit.
    let lines: String = (0..499).map(|n| format!("ghost-{n}: hold\n")).collect();
    let raw = plain(
        LANNES,
        SUBJECT,
        &id(FAMILY, "499-lines"),
        "",
        &format!("{good}{lines}"),
    );
    c.add(
        FAMILY,
        "499-lines",
        LANNES,
        raw,
        accepted_saying("more refused lines, not listed"),
    );
    // 30,000 order lines: more than one message may carry.
    let lines: String = (0..30_000).map(|_| "1-ligne: hold\n").collect();
    let raw = plain(
        LANNES,
        SUBJECT,
        &id(FAMILY, "30000-lines"),
        "",
        &format!("passphrase: {LANNES_PASS}\n{lines}"),
    );
    c.add(
        FAMILY,
        "30000-lines",
        LANNES,
        raw,
        refused(LANNES, phrase::TOO_MANY_LINES),
    );
    // Over the size limit: 600 KB, 4 MB of text, 3 MB of attachment.
    for (name, kb) in [("body-600k", 600usize), ("body-4m", 4096)] {
        let raw = plain(
            LANNES,
            SUBJECT,
            &id(FAMILY, name),
            "",
            &format!("{good}{}", "x".repeat(76).repeat(kb * 1024 / 76)),
        );
        c.add(
            FAMILY,
            name,
            LANNES,
            raw,
            refused(LANNES, phrase::TOO_LARGE),
        );
    }
    let blob: Vec<u8> = (0..3 * 1024 * 1024u32)
        .map(|i| (i * 7 % 251) as u8)
        .collect();
    let raw = message(
        &format!(
            "{}MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"big\"\n",
            head(LANNES, SUBJECT, &id(FAMILY, "attachment-3m"))
        ),
        format!(
            "--big\nContent-Type: text/plain\n\n{good}\n--big\nContent-Type: application/octet-stream\n\
             Content-Transfer-Encoding: base64\nContent-Disposition: attachment; filename=\"map.bin\"\n\n{}--big--\n",
            base64(&blob)
        )
        .as_bytes(),
    );
    c.add(
        FAMILY,
        "attachment-3m",
        LANNES,
        raw,
        refused(LANNES, phrase::TOO_LARGE),
    );
    // Over the limit and from a robot: not answered at all.
    let raw = plain(
        LANNES,
        SUBJECT,
        &id(FAMILY, "body-600k-auto-submitted"),
        "Auto-Submitted: auto-generated\n",
        &format!("{good}{}", "x".repeat(600 * 1024)),
    );
    c.add(FAMILY, "body-600k-auto-submitted", LANNES, raw, silent());
}

/// NUL bytes where no text has them.
fn nul_bytes(c: &mut Corpus) {
    const FAMILY: &str = "nul";
    let good = good_body();
    let cases: Vec<(&str, Vec<u8>, Expect)> = vec![
        (
            "between-the-orders",
            [good.as_bytes(), b"\0\0\0\n", ORDERS.as_bytes()].concat(),
            accepted(),
        ),
        (
            "inside-an-order-line",
            format!("passphrase: {LANNES_PASS}\n1-li\0ne: hold\n").into_bytes(),
            refused(LANNES, phrase::NO_ORDER_LINE),
        ),
        (
            "inside-the-passphrase",
            format!("passphrase: vive-l-\0empereur\n{ORDERS}").into_bytes(),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "a-body-of-nul",
            [good.as_bytes(), &[0u8; 4096][..]].concat(),
            accepted(),
        ),
    ];
    for (name, body, expect) in cases {
        let raw = message(
            &format!(
                "{}MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n",
                head(LANNES, SUBJECT, &id(FAMILY, name))
            ),
            &body,
        );
        c.add(FAMILY, name, LANNES, raw, expect);
    }
    let mut raw =
        format!("From: {LANNES}\nTo: {ADJUTANT}\nSubject: [sound-the-charge-demo] or\0ders\n")
            .into_bytes();
    raw.extend_from_slice(
        format!(
            "Message-ID: <{}@hostile.test>\nX-Nul: a\0b\n\n{good}",
            id(FAMILY, "in-headers")
        )
        .as_bytes(),
    );
    c.add(FAMILY, "in-headers", LANNES, raw, accepted());
    // NUL in a base64 part's decoded text.
    let decoded = [good.as_bytes(), b"\0\0trailing\0"].concat();
    let raw = message(
        &format!(
            "{}MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n",
            head(LANNES, SUBJECT, &id(FAMILY, "in-decoded-base64"))
        ),
        base64(&decoded).as_bytes(),
    );
    c.add(FAMILY, "in-decoded-base64", LANNES, raw, accepted());
}

/// Transfer encodings that are broken or unknown.
fn broken_encodings(c: &mut Corpus) {
    const FAMILY: &str = "broken-encoding";
    let good = good_body();
    let b64 = base64(good.as_bytes());
    // With a line after the orders, whose loss costs nothing: 47 bytes,
    // which base64 pads with one `=`.
    let padded = base64(format!("{good}Sire\n").as_bytes());
    let cases: Vec<(&str, &str, String, Expect)> = vec![
        (
            "base64-garbage",
            "base64",
            "%%%% this is not base64 at all %%%%\n".into(),
            refused(LANNES, phrase::UNREADABLE),
        ),
        (
            "base64-without-padding",
            "base64",
            padded.trim_end().trim_end_matches('=').to_string(),
            accepted(),
        ),
        (
            "base64-cut-short",
            "base64",
            padded[..padded.len() - 6].to_string(),
            accepted(),
        ),
        (
            "base64-with-spaces",
            "base64",
            b64.chars()
                .enumerate()
                .flat_map(|(i, ch)| if i % 10 == 9 { vec![ch, ' '] } else { vec![ch] })
                .collect(),
            accepted(),
        ),
        (
            "base64-of-random-bytes",
            "base64",
            base64(
                &(0..600u32)
                    .map(|i| (i * 131 % 256) as u8)
                    .collect::<Vec<u8>>(),
            ),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "base64-label-on-plain-text",
            "base64",
            good.clone(),
            refused(LANNES, phrase::UNREADABLE),
        ),
        (
            "quoted-printable-bad-escapes",
            "quoted-printable",
            format!("Sire =ZZ =4\n{good}=XY\n"),
            accepted(),
        ),
        (
            "quoted-printable-soft-break-in-passphrase",
            "quoted-printable",
            "passphrase: vive-l-emp=\nereur\n1-ligne: hold\n".into(),
            accepted(),
        ),
        ("unknown-encoding", "x-uuencode", good.clone(), accepted()),
        ("upper-case-encoding", "BASE64", b64.clone(), accepted()),
    ];
    for (name, cte, body, expect) in cases {
        let raw = message(
            &format!(
                "{}MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: {cte}\n",
                head(LANNES, SUBJECT, &id(FAMILY, name))
            ),
            body.as_bytes(),
        );
        c.add(FAMILY, name, LANNES, raw, expect);
    }
}

/// Orders with files attached: binaries and archives are passed over, a
/// TOML file of orders is read.
fn attachments(c: &mut Corpus) {
    const FAMILY: &str = "attachment";
    let good = good_body();
    let files: Vec<(&str, &str, Vec<u8>)> = vec![
        (
            "zip",
            "application/zip",
            [
                &b"PK\x03\x04\x14\0\0\0\x08\0"[..],
                &[0x9c; 200][..],
                b"PK\x05\x06",
            ]
            .concat(),
        ),
        (
            "gzip",
            "application/gzip",
            [&b"\x1f\x8b\x08\0\0\0\0\0\0\x03"[..], &[0xab; 300][..]].concat(),
        ),
        (
            "tar",
            "application/x-tar",
            [
                &b"orders.txt\0"[..],
                &[0u8; 245][..],
                b"ustar\0",
                &[b'7'; 250][..],
            ]
            .concat(),
        ),
        (
            "seven-zip",
            "application/x-7z-compressed",
            [&b"7z\xbc\xaf\x27\x1c"[..], &[0x11; 100][..]].concat(),
        ),
        (
            "executable",
            "application/x-msdownload",
            [&b"MZ\x90\0\x03\0"[..], &[0u8; 58][..], b"PE\0\0"].concat(),
        ),
        (
            "pdf",
            "application/pdf",
            b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n".to_vec(),
        ),
        (
            "png",
            "image/png",
            [&b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"[..], &[0x42; 64][..]].concat(),
        ),
        (
            "octet-stream",
            "application/octet-stream",
            (0..2048u32).map(|i| (i * 97 % 256) as u8).collect(),
        ),
    ];
    for (name, content_type, bytes) in files {
        let raw = message(
            &format!(
                "{}MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"att\"\n",
                head(LANNES, SUBJECT, &id(FAMILY, name))
            ),
            format!(
                "--att\nContent-Type: text/plain; charset=utf-8\n\n{good}\n--att\nContent-Type: {content_type}; name=\"f.{name}\"\n\
                 Content-Transfer-Encoding: base64\nContent-Disposition: attachment; filename=\"f.{name}\"\n\n{}--att--\n",
                base64(&bytes)
            )
            .as_bytes(),
        );
        c.add(FAMILY, name, LANNES, raw, accepted());
    }
    // A binary attachment sent raw (8bit), as a broken client does.
    let mut raw = message(
        &format!(
            "{}MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"raw\"\n",
            head(LANNES, SUBJECT, &id(FAMILY, "raw-8bit-binary"))
        ),
        format!(
            "--raw\nContent-Type: text/plain\n\n{good}\n--raw\nContent-Type: application/octet-stream\n\
             Content-Transfer-Encoding: 8bit\n\n"
        )
        .as_bytes(),
    );
    raw.extend(
        (0..1500u32)
            .map(|i| (i * 37 % 256) as u8)
            .filter(|b| *b != b'\n'),
    );
    raw.extend_from_slice(b"\n--raw--\n");
    c.add(FAMILY, "raw-8bit-binary", LANNES, raw, accepted());
    // Orders in a TOML file, the body saying only the passphrase.
    let toml = "orders = [\"1-ligne: hold\"]\n";
    let raw = message(
        &format!(
            "{}MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"t\"\n",
            head(LANNES, SUBJECT, &id(FAMILY, "toml-orders"))
        ),
        format!(
            "--t\nContent-Type: text/plain\n\npassphrase: {LANNES_PASS}\n\n--t\nContent-Type: application/toml\n\
             Content-Disposition: attachment; filename=\"orders.toml\"\n\n{toml}--t--\n"
        )
        .as_bytes(),
    );
    c.add(FAMILY, "toml-orders", LANNES, raw, accepted());
    // A TOML file that is no TOML: the body's orders count.
    let raw = message(
        &format!(
            "{}MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"t\"\n",
            head(LANNES, SUBJECT, &id(FAMILY, "broken-toml"))
        ),
        format!(
            "--t\nContent-Type: text/plain\n\n{good}\n--t\nContent-Type: application/toml\n\
             Content-Disposition: attachment; filename=\"orders.toml\"\n\norders = [[[ \"\0\n--t--\n"
        )
        .as_bytes(),
    );
    c.add(FAMILY, "broken-toml", LANNES, raw, accepted());
}

/// Senders who are not who they say, or say it badly.
fn spoofed(c: &mut Corpus) {
    const FAMILY: &str = "spoofed";
    let good = good_body();
    let no_pass = ORDERS.to_string();
    let sender_header = format!("Sender: {LANNES}\n");
    let reply_to = format!("Reply-To: {}\n", stranger(3));
    let cases: Vec<(&str, &str, String, &str, String, Expect)> = vec![
        // (name, envelope, From header, extra headers, body, expect)
        (
            "from-a-player-without-passphrase",
            "mallory@strangers.invalid",
            LANNES.into(),
            "",
            no_pass.clone(),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "from-a-player-with-the-other-sides-passphrase",
            HOHENZOLLERN,
            LANNES.into(),
            "",
            format!("passphrase: {HOHENZOLLERN_PASS}\n{ORDERS}"),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "from-a-player-with-the-gms-passphrase",
            GM,
            LANNES.into(),
            "",
            format!("passphrase: {GM_PASS}\n{ORDERS}"),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "from-the-other-side-with-a-stolen-passphrase",
            HOHENZOLLERN,
            HOHENZOLLERN.into(),
            "",
            good.clone(),
            refused(HOHENZOLLERN, phrase::NO_MATCH),
        ),
        (
            "the-address-in-capitals",
            LANNES,
            "Marshal Lannes <LANNES@FRENCH.INVALID>".into(),
            "",
            good.clone(),
            accepted(),
        ),
        (
            "the-address-as-display-name",
            "mallory@strangers.invalid",
            format!("\"{LANNES}\" <{}>", stranger(0)),
            "",
            good.clone(),
            refused(&stranger(0), phrase::STRANGER),
        ),
        (
            "two-from-addresses",
            LANNES,
            format!("{LANNES}, {}", stranger(1)),
            "",
            no_pass.clone(),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "sender-header-of-a-player",
            "mallory@strangers.invalid",
            stranger(2),
            &sender_header,
            good.clone(),
            refused(&stranger(2), phrase::STRANGER),
        ),
        (
            "reply-to-a-victim",
            "mallory@strangers.invalid",
            LANNES.into(),
            &reply_to,
            no_pass.clone(),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "envelope-of-another-with-the-right-passphrase",
            "mallory@strangers.invalid",
            LANNES.into(),
            "",
            good.clone(),
            accepted(),
        ),
        (
            "gm-command-without-passphrase",
            "mallory@strangers.invalid",
            GM.into(),
            "",
            "command: extend 240h\n".into(),
            refused(GM, phrase::NO_MATCH),
        ),
        (
            "gm-command-with-a-players-passphrase",
            LANNES,
            GM.into(),
            "",
            format!("passphrase: {LANNES_PASS}\ncommand: resolve now\n"),
            refused(GM, phrase::NO_MATCH),
        ),
        (
            "player-gives-a-gm-command",
            LANNES,
            LANNES.into(),
            "",
            format!("passphrase: {LANNES_PASS}\ncommand: resolve now\n"),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "gm-status-with-the-gms-passphrase",
            GM,
            GM.into(),
            "",
            format!("passphrase: {GM_PASS}\ncommand: status\n"),
            reply(GM, "gm", phrase::GM_REPLY),
        ),
        (
            "gm-sends-orders",
            GM,
            GM.into(),
            "",
            format!("passphrase: {GM_PASS}\n{ORDERS}"),
            refused(GM, phrase::ORDERS_FROM_PLAYERS),
        ),
        (
            "encoded-word-address",
            LANNES,
            format!("{} <{LANNES}>", encoded_word("Maréchal Lannes")),
            "",
            good.clone(),
            accepted(),
        ),
    ];
    for (name, envelope, from, extra, body, expect) in cases {
        let raw = message(
            &format!(
                "From: {from}\nTo: {ADJUTANT}\nSubject: {SUBJECT}\nMessage-ID: <{}@hostile.test>\n{extra}\
                 Content-Type: text/plain; charset=utf-8\n",
                id(FAMILY, name)
            ),
            body.as_bytes(),
        );
        c.add(FAMILY, name, envelope, raw, expect);
    }
    // Addresses no campaign knows, with guesses: each answered once, briefly.
    for n in 4..STRANGERS {
        let name = format!("stranger-{n}");
        let raw = plain(
            &stranger(n),
            "[sound-the-charge-demo] CHEAP WATCHES http://spam.invalid",
            &id(FAMILY, &name),
            "",
            "passphrase: letmein\nvisit http://spam.invalid\n",
        );
        c.add(
            FAMILY,
            &name,
            &stranger(n),
            raw,
            refused(&stranger(n), phrase::STRANGER),
        );
    }
}

/// Passphrases wrong in every way a person or an attacker gets them wrong.
fn passphrases(c: &mut Corpus) {
    const FAMILY: &str = "passphrase";
    let cases: Vec<(&str, String, Expect)> = vec![
        (
            "wrong",
            "passphrase: vive-le-roi".into(),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "empty",
            "passphrase:".into(),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "in-capitals",
            "passphrase: VIVE-L-EMPEREUR".into(),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "cyrillic-lookalike",
            "passphrase: vivе-l-еmpеrеur".into(),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "ten-kilobytes",
            format!("passphrase: {}", "vive-l-empereur".repeat(700)),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "right-then-wrong",
            format!("passphrase: {LANNES_PASS}\npassphrase: vive-le-roi"),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "the-other-campaigns",
            "passphrase: en-avant-les-cuirassiers".into(),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "with-spaces-around",
            format!("passphrase:    {LANNES_PASS}   "),
            accepted(),
        ),
        (
            "quoted",
            format!("> passphrase: {LANNES_PASS}"),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "after-the-signature",
            format!("-- \npassphrase: {LANNES_PASS}"),
            refused(LANNES, phrase::NO_MATCH),
        ),
    ];
    for (name, line, expect) in cases {
        let body = if name == "after-the-signature" {
            format!("{ORDERS}{line}\n")
        } else {
            format!("{line}\n{ORDERS}")
        };
        let raw = plain(LANNES, SUBJECT, &id(FAMILY, name), "", &body);
        c.add(FAMILY, name, LANNES, raw, expect);
    }
    // The passphrase only in the subject.
    let raw = plain(
        LANNES,
        &format!("[sound-the-charge-demo] passphrase: {LANNES_PASS}"),
        &id(FAMILY, "in-the-subject"),
        "",
        ORDERS,
    );
    c.add(
        FAMILY,
        "in-the-subject",
        LANNES,
        raw,
        refused(LANNES, phrase::NO_MATCH),
    );
}

/// Orders for a campaign that is not theirs, or none, or another turn.
fn campaigns_and_phases(c: &mut Corpus, ctx: &Context) {
    const FAMILY: &str = "campaign";
    let good = good_body();
    let cases: Vec<(&str, &str, String, String, Expect)> = vec![
        (
            "no-such-campaign",
            LANNES,
            "[no-such-campaign] orders".into(),
            good.clone(),
            refused(LANNES, phrase::NO_CAMPAIGN_HERE),
        ),
        (
            "the-other-campaign",
            LANNES,
            format!("[{OTHER_CAMPAIGN}] orders"),
            good.clone(),
            refused(LANNES, "do not match a player of this campaign"),
        ),
        (
            "the-other-campaign-by-line",
            LANNES,
            "orders".into(),
            format!("campaign {OTHER_CAMPAIGN}\n{good}"),
            refused(LANNES, phrase::NO_MATCH),
        ),
        (
            "gm-of-two-names-neither",
            GM,
            "orders".into(),
            format!("passphrase: {GM_PASS}\ncommand: status\n"),
            refused(GM, phrase::WHICH_CAMPAIGN),
        ),
        (
            "no-campaign-named-one-played",
            LANNES,
            "my orders".into(),
            good.clone(),
            accepted(),
        ),
        (
            "campaign-in-capitals",
            LANNES,
            "[SOUND-THE-CHARGE-DEMO] orders".into(),
            good.clone(),
            accepted(),
        ),
        (
            "campaign-id-with-injection",
            LANNES,
            "[sound-the-charge-demo'; DROP TABLE campaigns; --] orders".into(),
            good.clone(),
            accepted(),
        ),
        (
            "a-later-turn-in-the-subject",
            LANNES,
            format!("[{CAMPAIGN}] orders for turn {}", ctx.turn + 5),
            good.clone(),
            refused(LANNES, &format!("they are for turn {}", ctx.turn + 5)),
        ),
        (
            "an-earlier-turn-in-a-line",
            LANNES,
            SUBJECT.into(),
            format!("turn 1\n{good}"),
            refused(LANNES, "they are for turn 1"),
        ),
        (
            "turn-zero",
            LANNES,
            format!("[{CAMPAIGN}] orders for turn 0"),
            good.clone(),
            refused(LANNES, "they are for turn 0"),
        ),
        (
            "the-current-turn",
            LANNES,
            format!("[{CAMPAIGN}] orders for turn {}", ctx.turn),
            good.clone(),
            accepted(),
        ),
        (
            "gm-sends-orders-to-the-other-campaign",
            GM,
            format!("[{OTHER_CAMPAIGN}] orders"),
            format!("passphrase: {GM_PASS}\n{ORDERS}"),
            refused(GM, phrase::ORDERS_FROM_PLAYERS),
        ),
    ];
    for (name, from, subject, body, expect) in cases {
        let raw = plain(from, &subject, &id(FAMILY, name), "", &body);
        c.add(FAMILY, name, from, raw, expect);
    }
}

/// Old orders sent again: the very message (a repeat), its text as a new
/// message naming its old turn, and a reply to an old report.
fn replays(c: &mut Corpus, ctx: &Context) {
    const FAMILY: &str = "replay";
    c.add(
        FAMILY,
        "the-same-message",
        LANNES,
        ctx.first_orders.clone(),
        Expect::Repeat,
    );
    let text = String::from_utf8_lossy(&ctx.first_orders).into_owned();
    let renamed = text.replace("<warmup-1@hostile.test>", "<replay.renamed@hostile.test>");
    assert_ne!(renamed, text);
    c.add(
        FAMILY,
        "under-a-new-message-id",
        LANNES,
        renamed.into_bytes(),
        refused(LANNES, "they are for turn 1"),
    );
    let (report_id, report_subject) = &ctx.old_report;
    let raw = plain(
        LANNES,
        &format!("Re: {report_subject}"),
        &id(FAMILY, "reply-to-an-old-report"),
        &format!("In-Reply-To: <{report_id}>\nReferences: <{report_id}>\n"),
        &good_body(),
    );
    c.add(
        FAMILY,
        "reply-to-an-old-report",
        LANNES,
        raw,
        refused(LANNES, "they reply to the report of resolution 1"),
    );
    let raw = plain(
        LANNES,
        &format!("Re: {report_subject}"),
        &id(FAMILY, "old-report-by-subject"),
        "",
        &good_body(),
    );
    c.add(
        FAMILY,
        "old-report-by-subject",
        LANNES,
        raw,
        refused(LANNES, "they reply to the report of resolution 1"),
    );
}

/// Mail a machine sent (RFC 3834 and the vendors' marks): never answered,
/// however good the orders in it.
fn automatic(c: &mut Corpus) {
    const FAMILY: &str = "automatic";
    let headers: &[(&str, &str)] = &[
        ("auto-replied", "Auto-Submitted: auto-replied\n"),
        ("auto-generated", "Auto-Submitted: auto-generated\n"),
        ("auto-notified", "Auto-Submitted: auto-notified\n"),
        (
            "auto-replied-with-parameter",
            "Auto-Submitted: auto-replied; owner-email=\"lannes@french.invalid\"\n",
        ),
        (
            "auto-submitted-in-capitals",
            "AUTO-SUBMITTED: AUTO-GENERATED\n",
        ),
        ("precedence-bulk", "Precedence: bulk\n"),
        ("precedence-junk", "Precedence: junk\n"),
        ("precedence-list", "Precedence: list\n"),
        ("precedence-auto-reply", "Precedence: auto_reply\n"),
        ("precedence-in-capitals", "Precedence: BULK\n"),
        ("x-autoreply", "X-Autoreply: yes\n"),
        ("x-autorespond", "X-Autorespond: Out of office\n"),
        ("x-autogenerated", "X-Autogenerated: Reply\n"),
        ("list-id", "List-Id: The Army <army.lists.invalid>\n"),
        (
            "list-id-and-list-post",
            "List-Id: <army.lists.invalid>\nList-Post: <mailto:army@lists.invalid>\n",
        ),
    ];
    for (name, header) in headers {
        let raw = plain(LANNES, SUBJECT, &id(FAMILY, name), header, &good_body());
        c.add(FAMILY, name, LANNES, raw, silent());
    }
    // Auto-Submitted: no is a person's mail: answered.
    let raw = plain(
        LANNES,
        SUBJECT,
        &id(FAMILY, "auto-submitted-no"),
        "Auto-Submitted: no\n",
        &good_body(),
    );
    c.add(FAMILY, "auto-submitted-no", LANNES, raw, accepted());
    // Outlook marks people's mail so: answered.
    let raw = plain(
        LANNES,
        SUBJECT,
        &id(FAMILY, "x-auto-response-suppress"),
        "X-Auto-Response-Suppress: All\n",
        &good_body(),
    );
    c.add(FAMILY, "x-auto-response-suppress", LANNES, raw, accepted());
    // Precedence: first-class is a person's.
    let raw = plain(
        LANNES,
        SUBJECT,
        &id(FAMILY, "precedence-first-class"),
        "Precedence: first-class\n",
        &good_body(),
    );
    c.add(FAMILY, "precedence-first-class", LANNES, raw, accepted());
}

/// Bounces and delivery notices, null return path or not.
fn bounces(c: &mut Corpus) {
    const FAMILY: &str = "bounce";
    let our_reply = format!(
        "From: adjutant <{ADJUTANT}>\nTo: {LANNES}\nSubject: Re: {SUBJECT}\n\
         Message-ID: <{CAMPAIGN}.reply.0123456789abcdef@example.org>\nAuto-Submitted: auto-replied\n\n\
         Your message was not taken as orders.\n"
    );
    let report = |name: &str, from: &str, report_type: &str| {
        message(
            &format!(
                "From: {from}\nTo: {ADJUTANT}\nSubject: Undelivered Mail Returned to Sender\n\
                 Message-ID: <{}@hostile.test>\nMIME-Version: 1.0\n\
                 Content-Type: multipart/report; report-type={report_type}; boundary=\"rep\"\n",
                id(FAMILY, name)
            ),
            format!(
                "--rep\nContent-Type: text/plain\n\nThis is the mail system. passphrase: {LANNES_PASS}\n{ORDERS}\n\
                 --rep\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.french.invalid\n\n\
                 Final-Recipient: rfc822; {LANNES}\nAction: failed\nStatus: 5.1.1\n\n\
                 --rep\nContent-Type: message/rfc822\n\n{our_reply}\n--rep--\n"
            )
            .as_bytes(),
        )
    };
    // The null return path: Dovecot writes it as Return-Path: <>.
    c.add(
        FAMILY,
        "null-return-path-report",
        "",
        report(
            "null-return-path-report",
            "Mail Delivery System <MAILER-DAEMON@mx.french.invalid>",
            "delivery-status",
        ),
        silent(),
    );
    let raw = plain(
        "MAILER-DAEMON@mx.french.invalid",
        "Undelivered Mail Returned to Sender",
        &id(FAMILY, "null-return-path-plain"),
        "",
        &format!("I could not deliver your message.\n\n{}", good_body()),
    );
    c.add(FAMILY, "null-return-path-plain", "", raw, silent());
    // A null return path on mail claiming to be a player's orders.
    let raw = plain(
        LANNES,
        SUBJECT,
        &id(FAMILY, "null-return-path-orders"),
        "",
        &good_body(),
    );
    c.add(FAMILY, "null-return-path-orders", "", raw, silent());
    // A report sent with a return path (broken MTAs do): its type tells.
    c.add(
        FAMILY,
        "report-with-return-path",
        "postmaster@mx.french.invalid",
        report(
            "report-with-return-path",
            "postmaster@mx.french.invalid",
            "delivery-status",
        ),
        silent(),
    );
    c.add(
        FAMILY,
        "read-receipt",
        LANNES,
        report("read-receipt", LANNES, "disposition-notification"),
        silent(),
    );
    // MAILER-DAEMON in the From, with a return path and a plain body: no
    // robot header, no report type; the address itself is a robot's.
    for (name, from) in [
        ("mailer-daemon-from", "MAILER-DAEMON@mx.french.invalid"),
        (
            "mailer-daemon-display-name",
            "Mail Delivery Subsystem <mailer-daemon@mx.austrian.invalid>",
        ),
    ] {
        let raw = plain(
            from,
            "Delivery Status Notification (Failure)",
            &id(FAMILY, name),
            "",
            &format!(
                "Delivery to the following recipient failed permanently:\n\n {LANNES}\n\n{our_reply}"
            ),
        );
        c.add(FAMILY, name, "bounces@mx.french.invalid", raw, silent());
    }
}

/// Out-of-office robots that set no header at all, known by their subjects.
fn out_of_office(c: &mut Corpus) {
    const FAMILY: &str = "out-of-office";
    let subjects = [
        "Out of Office: [sound-the-charge-demo] orders",
        "Out of the office until Monday",
        "Automatic reply: [sound-the-charge-demo] resolution 2",
        "Auto Reply: Re: [sound-the-charge-demo]",
        "AutoReply: your message",
        "AUTO: Jean Lannes is out of the office (returning 12/01/2026)",
        "Away from the office",
        "On vacation",
        "Abwesenheitsnotiz: [sound-the-charge-demo] orders",
        "Automatische Antwort: [sound-the-charge-demo]",
        "Réponse automatique : [sound-the-charge-demo]",
        "Absence du bureau",
        "Risposta automatica: [sound-the-charge-demo]",
        "Respuesta automática: [sound-the-charge-demo]",
        "Automatisch antwoord: [sound-the-charge-demo]",
        "Autosvar: [sound-the-charge-demo]",
    ];
    for (n, subject) in subjects.iter().enumerate() {
        let name = format!("subject-{n:02}");
        let raw = plain(
            HOHENZOLLERN,
            subject,
            &id(FAMILY, &name),
            "",
            "I am away until Monday with no access to my mail.\n",
        );
        c.add(FAMILY, &name, HOHENZOLLERN, raw, silent());
    }
    // The subject in an encoded word, as most clients write a non-ASCII one.
    let raw = plain(
        HOHENZOLLERN,
        &encoded_word("Réponse automatique : absent"),
        &id(FAMILY, "encoded-subject"),
        "",
        "Je suis absent.\n",
    );
    c.add(FAMILY, "encoded-subject", HOHENZOLLERN, raw, silent());
    // A robot that answers with no mark at all, quoting our refusal: it is
    // refused like anyone (the refusal ration stops a loop, see
    // docs/PLAYERS.md), and the quote is never read as orders.
    let raw = plain(
        HOHENZOLLERN,
        "Re: Re: [sound-the-charge-demo] orders",
        &id(FAMILY, "unmarked-robot"),
        "",
        "Thank you for your message. I will answer as soon as I can.\n\n\
         > Your message was not taken as orders: the sender and passphrase do not match\n",
    );
    c.add(
        FAMILY,
        "unmarked-robot",
        HOHENZOLLERN,
        raw,
        refused(HOHENZOLLERN, phrase::NO_MATCH),
    );
}

/// Mail from adjutant's own address: never answered, whatever it says, so
/// that no loop can start.
fn own_address(c: &mut Corpus) {
    const FAMILY: &str = "own-address";
    for (name, from, envelope) in [
        ("plain", ADJUTANT.to_string(), ADJUTANT),
        ("capitals", "ADJUTANT@EXAMPLE.ORG".to_string(), ADJUTANT),
        (
            "another-display-name",
            format!("Marshal Lannes <{ADJUTANT}>"),
            LANNES,
        ),
        (
            "forged-envelope",
            ADJUTANT.to_string(),
            "mallory@strangers.invalid",
        ),
    ] {
        let raw = plain(&from, SUBJECT, &id(FAMILY, name), "", &good_body());
        c.add(FAMILY, name, envelope, raw, silent());
    }
    // One of our own refusals, come back as a new message.
    let raw = plain(
        ADJUTANT,
        &format!("Re: {SUBJECT}"),
        &id(FAMILY, "our-refusal-back"),
        "Auto-Submitted: auto-replied\n",
        "Your message was not taken as orders: the sender and passphrase do not match a player.\n",
    );
    c.add(FAMILY, "our-refusal-back", ADJUTANT, raw, silent());
}
