//! Just enough HTTP/1.1 to GET one small JSON document from a relay, over
//! plain TCP or TLS, within one deadline for the whole exchange (connect,
//! handshake, request, answer), and with hard limits on what is read.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use rustls_connector::rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};
use rustls_connector::{HandshakeError, RustlsConnector};

use super::error::BeaconError;
use super::url::BaseUrl;

/// The largest body accepted: a round is about 250 bytes, a chain's info
/// about 500.
pub(crate) const MAX_BODY: usize = 64 * 1024;
/// The largest status line and header section accepted.
const MAX_HEAD: usize = 16 * 1024;
/// The longest chunk-size line accepted.
const MAX_CHUNK_LINE: usize = 1024;
/// All the bytes read for one answer, framing included, so that a relay
/// cannot keep the client busy with endless tiny chunks.
const MAX_TOTAL: usize = MAX_HEAD + 4 * MAX_BODY;

/// A status and, for a 200, the body; other statuses' bodies are not read.
#[derive(Debug)]
pub(crate) struct Response {
    pub status: u16,
    pub body: Vec<u8>,
}

/// Which certificates an `https://` relay may present.
#[derive(Clone)]
pub(crate) enum Trust {
    /// The system's root certificates, loaded once.
    System,
    /// Only these roots (the tests' own certificate authority).
    #[cfg_attr(not(test), allow(dead_code))]
    Roots(Arc<RootCertStore>),
}

/// GETs `url`'s prefix followed by `path`, which starts with '/'.
pub(crate) fn get(
    url: &BaseUrl,
    path: &str,
    timeout: Duration,
    trust: &Trust,
) -> Result<Response, BeaconError> {
    let shown = url.show(path);
    // A timeout too long to add to the clock is as good as none.
    let deadline = Instant::now()
        .checked_add(timeout)
        .unwrap_or_else(|| Instant::now() + Duration::from_secs(365 * 24 * 3600));
    let request = format!(
        "GET {}{} HTTP/1.1\r\nHost: {}\r\nUser-Agent: adjutant\r\nAccept: application/json\r\nConnection: close\r\n\r\n",
        url.prefix, path, url.authority
    );
    let outcome = connect(url, deadline).and_then(|tcp| {
        if url.tls {
            let tls = handshake(url, tcp, deadline, trust)?;
            exchange(tls, request.as_bytes(), deadline)
        } else {
            exchange(tcp, request.as_bytes(), deadline)
        }
    });
    outcome.map_err(|fail| match fail {
        Fail::Io(reason) => BeaconError::Unreachable { url: shown, reason },
        Fail::Protocol(reason) => BeaconError::BadAnswer { url: shown, reason },
    })
}

/// Why an exchange failed: on the way (retry may help) or in what came back.
#[derive(Debug)]
enum Fail {
    Io(String),
    Protocol(String),
}

fn remaining(deadline: Instant) -> Result<Duration, Fail> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        Err(Fail::Io("timed out".to_string()))
    } else {
        Ok(left)
    }
}

fn connect(url: &BaseUrl, deadline: Instant) -> Result<TcpStream, Fail> {
    // Name resolution goes through the system's resolver, which takes no
    // timeout; it is the one step the deadline does not bound.
    let addrs: Vec<SocketAddr> = (url.host.as_str(), url.port)
        .to_socket_addrs()
        .map_err(|e| Fail::Io(format!("cannot resolve {}: {e}", url.host)))?
        .collect();
    let mut last = format!("{} resolves to no address", url.host);
    for addr in addrs {
        match TcpStream::connect_timeout(&addr, remaining(deadline)?) {
            Ok(tcp) => return Ok(tcp),
            Err(e) => last = format!("cannot connect to {addr}: {e}"),
        }
    }
    Err(Fail::Io(last))
}

type TlsStream = StreamOwned<ClientConnection, TcpStream>;

fn handshake(
    url: &BaseUrl,
    tcp: TcpStream,
    deadline: Instant,
    trust: &Trust,
) -> Result<TlsStream, Fail> {
    let connector = match trust {
        Trust::System => system_connector()?,
        Trust::Roots(roots) => RustlsConnector::from(
            ClientConfig::builder()
                .with_root_certificates(Arc::clone(roots))
                .with_no_client_auth(),
        ),
    };
    let left = remaining(deadline)?;
    tcp.set_read_timeout(Some(left)).map_err(io_fail)?;
    tcp.set_write_timeout(Some(left)).map_err(io_fail)?;
    connector.connect(&url.host, tcp).map_err(|e| match e {
        // A blocking socket only "would block" when its timeout ran out.
        HandshakeError::WouldBlock(_) => Fail::Io("timed out during the TLS handshake".to_string()),
        HandshakeError::Failure(e) => Fail::Io(format!("TLS handshake failed: {e}")),
    })
}

/// A connector trusting the system's roots, built once: loading them reads
/// every certificate file of the system.
fn system_connector() -> Result<RustlsConnector, Fail> {
    static CONNECTOR: OnceLock<Result<RustlsConnector, String>> = OnceLock::new();
    let built = CONNECTOR.get_or_init(|| {
        let mut roots = RootCertStore::empty();
        // rustls-connector's own constructor panics when the system's store
        // cannot be read, hence this, which the IMAP client does too.
        if let Ok(native) = rustls_connector::rustls_native_certs::load_native_certs() {
            // A certificate the parser cannot take is no reason to fail: the
            // one that matters may be another.
            let _ = roots.add_parsable_certificates(native);
        }
        if roots.is_empty() {
            return Err("no trusted root certificate on this system (on Debian: the ca-certificates package)".to_string());
        }
        Ok(RustlsConnector::from(
            ClientConfig::builder().with_root_certificates(roots).with_no_client_auth(),
        ))
    });
    built.clone().map_err(Fail::Io)
}

fn io_fail(e: io::Error) -> Fail {
    Fail::Io(e.to_string())
}

/// The socket under a stream, to move its timeouts to the deadline.
trait Socket: Read + Write {
    fn tcp(&self) -> &TcpStream;
}

impl Socket for TcpStream {
    fn tcp(&self) -> &TcpStream {
        self
    }
}

impl Socket for TlsStream {
    fn tcp(&self) -> &TcpStream {
        &self.sock
    }
}

fn exchange<S: Socket>(mut stream: S, request: &[u8], deadline: Instant) -> Result<Response, Fail> {
    stream
        .tcp()
        .set_write_timeout(Some(remaining(deadline)?))
        .map_err(io_fail)?;
    stream
        .write_all(request)
        .and_then(|()| stream.flush())
        .map_err(|e| Fail::Io(format!("cannot send the request: {e}")))?;
    let mut incoming = Incoming {
        stream,
        buf: Vec::new(),
        pos: 0,
        eof: false,
        deadline,
    };
    let head = incoming.head()?;
    let (status, framing) = parse_head(&head)?;
    if status != 200 {
        return Ok(Response {
            status,
            body: Vec::new(),
        });
    }
    let body = match framing {
        Framing::Length(n) if n > MAX_BODY => {
            return Err(too_large());
        }
        Framing::Length(n) => incoming.take(n)?,
        Framing::Chunked => incoming.chunked()?,
        Framing::UntilClose => incoming.rest()?,
    };
    Ok(Response { status, body })
}

fn too_large() -> Fail {
    Fail::Protocol(format!("the body is over {} KiB", MAX_BODY / 1024))
}

/// How the body's end is marked.
#[derive(Debug, PartialEq, Eq)]
enum Framing {
    Length(usize),
    Chunked,
    UntilClose,
}

/// Reads the status line and headers (without the blank line that ends them).
fn parse_head(head: &[u8]) -> Result<(u16, Framing), Fail> {
    let bad = |reason: &str| Fail::Protocol(reason.to_string());
    let text = std::str::from_utf8(head).map_err(|_| bad("the header is not text"))?;
    let mut lines = text.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let mut parts = status_line.splitn(3, ' ');
    let version = parts.next().unwrap_or_default();
    let code = parts.next().unwrap_or_default();
    if !version.starts_with("HTTP/1.") {
        return Err(Fail::Protocol(format!(
            "not an HTTP/1 answer: {:?}",
            truncate(status_line)
        )));
    }
    if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Fail::Protocol(format!(
            "bad status line {:?}",
            truncate(status_line)
        )));
    }
    let status: u16 = code.parse().map_err(|_| bad("bad status code"))?;
    if status < 200 {
        return Err(Fail::Protocol(format!(
            "unexpected interim answer {status}"
        )));
    }
    let mut length: Option<usize> = None;
    let mut chunked = false;
    for line in lines {
        if line.starts_with([' ', '\t']) {
            return Err(bad("folded header lines are not accepted"));
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| Fail::Protocol(format!("bad header line {:?}", truncate(line))))?;
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            let n = if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
                // A length too long for usize is certainly over the limit.
                value.parse::<usize>().unwrap_or(usize::MAX)
            } else {
                return Err(Fail::Protocol(format!(
                    "bad Content-Length {:?}",
                    truncate(value)
                )));
            };
            if length.is_some_and(|m| m != n) {
                return Err(bad("two different Content-Length headers"));
            }
            length = Some(n);
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            let last = value.rsplit(',').next().unwrap_or_default().trim();
            if !last.eq_ignore_ascii_case("chunked") {
                return Err(Fail::Protocol(format!(
                    "unsupported Transfer-Encoding {:?}",
                    truncate(value)
                )));
            }
            chunked = true;
        }
    }
    // A chunked body ignores any Content-Length (RFC 9112, 6.3).
    let framing = match (chunked, length) {
        (true, _) => Framing::Chunked,
        (false, Some(n)) => Framing::Length(n),
        (false, None) => Framing::UntilClose,
    };
    Ok((status, framing))
}

/// At most 80 characters of something a relay sent, for a message.
fn truncate(s: &str) -> String {
    s.chars().take(80).collect()
}

/// The answer as it arrives, read against the deadline and the size limits.
struct Incoming<S> {
    stream: S,
    buf: Vec<u8>,
    pos: usize,
    eof: bool,
    deadline: Instant,
}

impl<S: Socket> Incoming<S> {
    /// Reads more; false at the end of the stream.
    fn fill(&mut self) -> Result<bool, Fail> {
        if self.eof {
            return Ok(false);
        }
        if self.buf.len() >= MAX_TOTAL {
            return Err(Fail::Protocol(format!(
                "the answer is over {} KiB",
                MAX_TOTAL / 1024
            )));
        }
        let left = remaining(self.deadline)?;
        self.stream
            .tcp()
            .set_read_timeout(Some(left))
            .map_err(io_fail)?;
        let mut chunk = [0u8; 8192];
        loop {
            match self.stream.read(&mut chunk) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    return Ok(true);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    return Err(Fail::Io("timed out waiting for the answer".to_string()));
                }
                // A TLS peer that closes without close_notify: the end of
                // the stream. Framing still catches a body cut short, and
                // the signature anything else.
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                    self.eof = true;
                    return Ok(false);
                }
                Err(e) => return Err(Fail::Io(format!("reading the answer: {e}"))),
            }
        }
    }

    fn available(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    /// The header section, up to and without its blank line.
    fn head(&mut self) -> Result<Vec<u8>, Fail> {
        loop {
            if let Some(i) = find(self.available(), b"\r\n\r\n")
                && i <= MAX_HEAD
            {
                let head = self.available()[..i].to_vec();
                self.pos += i + 4;
                return Ok(head);
            }
            if self.available().len() > MAX_HEAD {
                return Err(Fail::Protocol(format!(
                    "the header is over {} KiB",
                    MAX_HEAD / 1024
                )));
            }
            if !self.fill()? {
                return Err(Fail::Protocol(if self.buf.is_empty() {
                    "the connection closed without an answer".to_string()
                } else {
                    "the answer ends inside its header".to_string()
                }));
            }
        }
    }

    /// Exactly `n` bytes.
    fn take(&mut self, n: usize) -> Result<Vec<u8>, Fail> {
        while self.available().len() < n {
            if !self.fill()? {
                return Err(Fail::Protocol(
                    "the answer ends before its announced length".to_string(),
                ));
            }
        }
        let out = self.available()[..n].to_vec();
        self.pos += n;
        Ok(out)
    }

    /// A line ending in CRLF, without it.
    fn line(&mut self, max: usize) -> Result<Vec<u8>, Fail> {
        loop {
            if let Some(i) = find(self.available(), b"\r\n")
                && i <= max
            {
                let line = self.available()[..i].to_vec();
                self.pos += i + 2;
                return Ok(line);
            }
            if self.available().len() > max {
                return Err(Fail::Protocol("a chunk-size line is too long".to_string()));
            }
            if !self.fill()? {
                return Err(Fail::Protocol("the answer ends inside a chunk".to_string()));
            }
        }
    }

    /// A chunked body (RFC 9112, 7.1); trailers are not read.
    fn chunked(&mut self) -> Result<Vec<u8>, Fail> {
        let mut body = Vec::new();
        loop {
            let line = self.line(MAX_CHUNK_LINE)?;
            let size_text = line.split(|&b| b == b';').next().unwrap_or_default();
            let size_text = std::str::from_utf8(size_text).unwrap_or("").trim();
            if size_text.is_empty()
                || size_text.len() > 8
                || !size_text.bytes().all(|b| b.is_ascii_hexdigit())
            {
                return Err(Fail::Protocol(format!(
                    "bad chunk size {:?}",
                    truncate(size_text)
                )));
            }
            let size = usize::from_str_radix(size_text, 16)
                .map_err(|_| Fail::Protocol("bad chunk size".to_string()))?;
            if size == 0 {
                return Ok(body);
            }
            if body.len().saturating_add(size) > MAX_BODY {
                return Err(too_large());
            }
            body.extend_from_slice(&self.take(size)?);
            if self.take(2)? != b"\r\n" {
                return Err(Fail::Protocol("a chunk does not end with CRLF".to_string()));
            }
        }
    }

    /// Everything up to the end of the stream.
    fn rest(&mut self) -> Result<Vec<u8>, Fail> {
        while self.fill()? {
            if self.available().len() > MAX_BODY {
                return Err(too_large());
            }
        }
        if self.available().len() > MAX_BODY {
            return Err(too_large());
        }
        Ok(self.available().to_vec())
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::super::canned::{Canned, tls_trust};
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    fn get_from(server: &Canned, path: &str, timeout: Duration) -> Result<Response, BeaconError> {
        let url = BaseUrl::parse(&server.base_url()).expect("loopback URL");
        get(&url, path, timeout, &server.trust())
    }

    fn answer(bytes: &[u8]) -> (Result<Response, BeaconError>, String) {
        let server = Canned::plain(bytes.to_vec());
        let got = get_from(&server, "/x/public/1", 5 * SECOND);
        (got, server.request())
    }

    fn bad_answer(bytes: &[u8]) -> String {
        match answer(bytes).0 {
            Err(BeaconError::BadAnswer { reason, .. }) => reason,
            other => panic!("expected a bad answer, got {other:?}"),
        }
    }

    #[test]
    fn the_request_is_a_plain_http_1_1_get_with_host_and_close() {
        let (got, request) = answer(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
        let got = got.expect("an answer");
        assert_eq!((got.status, got.body.as_slice()), (200, b"{}".as_slice()));
        let mut lines = request.split("\r\n");
        assert_eq!(lines.next(), Some("GET /x/public/1 HTTP/1.1"));
        assert!(request.contains("\r\nHost: 127.0.0.1:"), "{request}");
        assert!(request.contains("\r\nConnection: close\r\n"), "{request}");
        assert!(request.ends_with("\r\n\r\n"), "{request}");
    }

    #[test]
    fn a_base_path_prefix_is_kept() {
        let server = Canned::plain(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".to_vec());
        let url = BaseUrl::parse(&format!("{}/relay/", server.base_url())).expect("URL");
        get(&url, "/x/info", 5 * SECOND, &Trust::System).expect("an answer");
        assert!(
            server
                .request()
                .starts_with("GET /relay/x/info HTTP/1.1\r\n")
        );
    }

    #[test]
    fn chunked_bodies_are_joined_and_extensions_ignored() {
        let (got, _) = answer(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\n{\"a\"\r\n9\r\n:1234567}\r\n0\r\n\r\n",
        );
        assert_eq!(got.expect("chunked").body, b"{\"a\":1234567}");
    }

    #[test]
    fn a_body_until_close_is_read_to_the_end() {
        let (got, _) = answer(b"HTTP/1.0 200 OK\r\n\r\n{\"round\":1}");
        assert_eq!(got.expect("until close").body, b"{\"round\":1}");
    }

    #[test]
    fn other_statuses_come_back_without_their_body() {
        let (got, _) = answer(b"HTTP/1.1 425 Too Early\r\nContent-Length: 5\r\n\r\nearly");
        let got = got.expect("a status");
        assert_eq!((got.status, got.body.len()), (425, 0));
    }

    #[test]
    fn bodies_over_64_kib_are_refused_however_framed() {
        let big = vec![b'7'; MAX_BODY + 1];
        let mut by_length =
            format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", big.len()).into_bytes();
        by_length.extend_from_slice(&big);
        assert!(bad_answer(&by_length).contains("over 64 KiB"));
        // Announced only: refused before a byte of it is read.
        assert!(
            bad_answer(b"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n")
                .contains("over 64 KiB")
        );
        let mut until_close = b"HTTP/1.1 200 OK\r\n\r\n".to_vec();
        until_close.extend_from_slice(&big);
        assert!(bad_answer(&until_close).contains("over 64 KiB"));
        let mut chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
        for _ in 0..=MAX_BODY / 1024 {
            chunked.extend_from_slice(b"400\r\n");
            chunked.extend_from_slice(&[b'7'; 1024]);
            chunked.extend_from_slice(b"\r\n");
        }
        chunked.extend_from_slice(b"0\r\n\r\n");
        assert!(bad_answer(&chunked).contains("over 64 KiB"));
        // Exactly 64 KiB is accepted.
        let mut limit =
            format!("HTTP/1.1 200 OK\r\nContent-Length: {MAX_BODY}\r\n\r\n").into_bytes();
        limit.extend_from_slice(&big[..MAX_BODY]);
        assert_eq!(answer(&limit).0.expect("at the limit").body.len(), MAX_BODY);
    }

    #[test]
    fn endless_framing_is_cut_off() {
        // One byte per chunk with long extensions: small body, huge answer.
        let mut chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
        let ext = "x".repeat(900);
        for _ in 0..400 {
            chunked.extend_from_slice(format!("1;{ext}\r\n7\r\n").as_bytes());
        }
        assert!(bad_answer(&chunked).contains("KiB"));
        let long_head = format!(
            "HTTP/1.1 200 OK\r\nX-Pad: {}\r\n\r\n",
            "p".repeat(MAX_HEAD + 10)
        );
        assert!(bad_answer(long_head.as_bytes()).contains("header is over"));
    }

    #[test]
    fn broken_answers_are_bad_answers() {
        for (bytes, says) in [
            (&b""[..], "without an answer"),
            (b"SSH-2.0-OpenSSH\r\n\r\n", "not an HTTP/1 answer"),
            (b"HTTP/1.1 2000 OK\r\n\r\n", "bad status line"),
            (b"HTTP/1.1 100 Continue\r\n\r\n", "interim"),
            (
                b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
                "before its announced length",
            ),
            (
                b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
                "two different",
            ),
            (
                b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
                "bad Content-Length",
            ),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
                "unsupported Transfer-Encoding",
            ),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                "bad chunk size",
            ),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXY0\r\n\r\n",
                "does not end with CRLF",
            ),
            (
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n",
                "ends inside a chunk",
            ),
            (
                b"HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n",
                "bad header line",
            ),
            (b"HTTP/1.1 200 OK\r\n folded: yes\r\n\r\n", "folded"),
            (b"HTTP/1.1 200 OK\r\nContent-Length: 1", "inside its header"),
        ] {
            let reason = bad_answer(bytes);
            assert!(
                reason.contains(says),
                "{:?}: {reason}",
                String::from_utf8_lossy(bytes)
            );
        }
    }

    #[test]
    fn a_silent_server_times_out_within_the_deadline() {
        let server = Canned::silent();
        let started = Instant::now();
        let got = get_from(&server, "/x/public/1", Duration::from_millis(300));
        let took = started.elapsed();
        assert!(
            matches!(&got, Err(BeaconError::Unreachable { reason, .. }) if reason.contains("timed out")),
            "{got:?}"
        );
        assert!(
            took >= Duration::from_millis(300) && took < Duration::from_secs(3),
            "{took:?}"
        );
    }

    #[test]
    fn an_endless_timeout_does_not_overflow_the_clock() {
        let server = Canned::plain(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".to_vec());
        let got = get_from(&server, "/x", Duration::MAX).expect("an answer");
        assert_eq!(got.body, b"ok");
    }

    #[test]
    fn a_closed_port_is_unreachable() {
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
            l.local_addr().expect("addr").port()
        };
        let url = BaseUrl::parse(&format!("http://127.0.0.1:{port}")).expect("URL");
        let got = get(&url, "/x", SECOND, &Trust::System);
        assert!(
            matches!(got, Err(BeaconError::Unreachable { .. })),
            "{got:?}"
        );
    }

    #[test]
    fn https_works_against_a_loopback_tls_server_with_its_own_authority() {
        let server = Canned::tls(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n".to_vec(),
        );
        let url = BaseUrl::parse(&server.base_url()).expect("URL");
        assert!(url.tls);
        let got = get(&url, "/x/info", 5 * SECOND, &server.trust()).expect("TLS answer");
        assert_eq!(got.body, b"ok");
        assert!(server.request().starts_with("GET /x/info HTTP/1.1\r\n"));
    }

    #[test]
    fn https_refuses_a_certificate_from_another_authority() {
        // The system's roots do not include the tests' authority.
        let server = Canned::tls(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".to_vec());
        let url = BaseUrl::parse(&server.base_url()).expect("URL");
        let got = get(&url, "/x", 5 * SECOND, &Trust::System);
        assert!(
            matches!(&got, Err(BeaconError::Unreachable { reason, .. }) if reason.contains("invalid peer certificate")),
            "{got:?}"
        );
        // And a trust store of its own that lacks it.
        let server = Canned::tls(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".to_vec());
        let url = BaseUrl::parse(&server.base_url()).expect("URL");
        let got = get(&url, "/x", 5 * SECOND, &tls_trust(false));
        assert!(
            matches!(&got, Err(BeaconError::Unreachable { reason, .. }) if reason.contains("invalid peer certificate")),
            "{got:?}"
        );
    }

    #[test]
    fn https_to_a_plain_http_server_fails_in_the_handshake() {
        let server = Canned::plain(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".to_vec());
        let url = BaseUrl::parse(&server.base_url().replace("http://", "https://")).expect("URL");
        // The plain server waits for a request's blank line that a TLS hello
        // never sends, so the handshake ends at the deadline, or at the
        // server's answer, which is no TLS record.
        let got = get(&url, "/x", SECOND, &tls_trust(true));
        assert!(
            matches!(&got, Err(BeaconError::Unreachable { reason, .. }) if reason.contains("TLS")),
            "{got:?}"
        );
    }
}
