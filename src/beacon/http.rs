//! GETs one small JSON document from a relay, over plain HTTP or TLS, with
//! ureq: within one deadline for the whole exchange (connect, handshake,
//! request, answer), with a hard limit on the body read, and trusting only
//! the roots asked for. No proxy from the environment: a relay is reached
//! as its URL says, so a test's loopback relay is the one asked.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use ureq::tls::{Certificate, RootCerts, TlsConfig};

use super::error::BeaconError;
use super::url::BaseUrl;

/// The largest body accepted: a round is about 250 bytes, a chain's info
/// about 500.
pub(crate) const MAX_BODY: usize = 64 * 1024;
/// The largest header section accepted.
const MAX_HEAD: usize = 16 * 1024;

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
    Roots(Arc<Vec<Certificate<'static>>>),
}

/// GETs `url`'s prefix followed by `path`, which starts with '/'.
pub(crate) fn get(
    url: &BaseUrl,
    path: &str,
    timeout: Duration,
    trust: &Trust,
) -> Result<Response, BeaconError> {
    let shown = url.show(path);
    let unreachable = |reason: String| BeaconError::Unreachable {
        url: shown.clone(),
        reason,
    };
    let bad = |reason: String| BeaconError::BadAnswer {
        url: shown.clone(),
        reason,
    };
    let roots = match (url.tls, trust) {
        (false, _) => RootCerts::Specific(Arc::new(Vec::new())),
        (true, Trust::System) => RootCerts::Specific(system_roots().map_err(unreachable)?),
        (true, Trust::Roots(roots)) => RootCerts::Specific(Arc::clone(roots)),
    };
    // A timeout too long to add to the clock is as good as none.
    let deadline = (timeout < Duration::from_secs(365 * 24 * 3600)).then_some(timeout);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(deadline)
        .http_status_as_error(false)
        .proxy(None)
        .max_redirects(0)
        .max_response_header_size(MAX_HEAD)
        .user_agent("adjutant")
        .tls_config(TlsConfig::builder().root_certs(roots).build())
        .build()
        .into();
    let scheme = if url.tls { "https" } else { "http" };
    let full = format!("{scheme}://{}{}{path}", url.authority, url.prefix);
    let mut answer = match agent
        .get(&full)
        .header("Accept", "application/json")
        .header("Connection", "close")
        .call()
    {
        Ok(answer) => answer,
        Err(e) => return Err(failure(e, unreachable, bad)),
    };
    let status = answer.status().as_u16();
    if status != 200 {
        return Ok(Response {
            status,
            body: Vec::new(),
        });
    }
    let body = answer
        .body_mut()
        .with_config()
        .limit(MAX_BODY as u64)
        .read_to_vec()
        .map_err(|e| failure(e, unreachable, bad))?;
    Ok(Response { status, body })
}

/// A failure as the beacon tells it: on the way (retry may help) or in
/// what came back.
fn failure(
    e: ureq::Error,
    unreachable: impl Fn(String) -> BeaconError,
    bad: impl Fn(String) -> BeaconError,
) -> BeaconError {
    match e {
        ureq::Error::Timeout(what) => unreachable(format!("timed out ({what})")),
        ureq::Error::BodyExceedsLimit(_) => {
            bad(format!("the body is over {} KiB", MAX_BODY / 1024))
        }
        ureq::Error::Io(e) => unreachable(e.to_string()),
        ureq::Error::HostNotFound => unreachable("the host resolves to no address".to_string()),
        ureq::Error::ConnectionFailed => unreachable("cannot connect".to_string()),
        ureq::Error::Tls(e) => unreachable(format!("TLS handshake failed: {e}")),
        ureq::Error::Rustls(e) => unreachable(format!("TLS handshake failed: {e}")),
        other => bad(other.to_string()),
    }
}

/// The system's root certificates, loaded once: loading them reads every
/// certificate file of the system.
fn system_roots() -> Result<Arc<Vec<Certificate<'static>>>, String> {
    static ROOTS: OnceLock<Result<Arc<Vec<Certificate<'static>>>, String>> = OnceLock::new();
    ROOTS
        .get_or_init(|| {
            let native = rustls_connector::rustls_native_certs::load_native_certs()
                .map_err(|e| format!("cannot read this system's root certificates: {e}"))?;
            let roots: Vec<Certificate<'static>> = native
                .iter()
                .map(|der| Certificate::from_der(der.as_ref()).to_owned())
                .collect();
            if roots.is_empty() {
                return Err("no trusted root certificate on this system (on Debian: the ca-certificates package)".to_string());
            }
            Ok(Arc::new(roots))
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::super::canned::{Canned, tls_trust};
    use super::*;
    use std::time::Instant;

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
        let lower = request.to_ascii_lowercase();
        assert!(lower.contains("\r\nhost: 127.0.0.1:"), "{request}");
        assert!(lower.contains("\r\nconnection: close\r\n"), "{request}");
        assert!(lower.contains("\r\nuser-agent: adjutant\r\n"), "{request}");
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
        // Announced only: refused, whatever the length says.
        refused(b"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n");
        let mut announced = format!(
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n",
            10 * MAX_BODY
        )
        .into_bytes();
        announced.extend_from_slice(&big);
        assert!(bad_answer(&announced).contains("over 64 KiB"));
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

    /// What a malformed or cut-off answer gives: an error (which one
    /// depends on where the answer broke off), never a body.
    fn refused(bytes: &[u8]) -> BeaconError {
        match answer(bytes).0 {
            Err(e) => e,
            Ok(r) => panic!(
                "{:?} was taken as status {} with {} bytes",
                String::from_utf8_lossy(bytes),
                r.status,
                r.body.len()
            ),
        }
    }

    #[test]
    fn endless_framing_is_bounded() {
        // One byte per chunk with long extensions: a small body in a huge
        // answer is read within the deadline, and is no more than its bytes.
        let mut chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
        let ext = "x".repeat(900);
        for _ in 0..400 {
            chunked.extend_from_slice(format!("1;{ext}\r\n7\r\n").as_bytes());
        }
        match answer(&chunked).0 {
            Ok(r) => assert!(r.body.len() <= 400 && r.body.iter().all(|b| *b == b'7')),
            Err(e) => assert!(!e.to_string().is_empty()),
        }
        let long_head = format!(
            "HTTP/1.1 200 OK\r\nX-Pad: {}\r\n\r\n",
            "p".repeat(MAX_HEAD + 10)
        );
        refused(long_head.as_bytes());
    }

    #[test]
    fn broken_answers_are_refused() {
        for bytes in [
            &b""[..],
            b"SSH-2.0-OpenSSH\r\n\r\n",
            b"HTTP/1.1 2000 OK\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
            b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
            b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n",
            b"HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nContent-Length: 1",
        ] {
            let e = refused(bytes);
            assert!(
                matches!(
                    e,
                    BeaconError::BadAnswer { .. } | BeaconError::Unreachable { .. }
                ),
                "{:?}: {e:?}",
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
            matches!(&got, Err(BeaconError::Unreachable { reason, .. })
                if reason.contains("TLS") || reason.contains("timed out")),
            "{got:?}"
        );
    }
}
