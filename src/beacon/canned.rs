//! Test-only loopback servers that answer one connection with canned bytes,
//! over plain TCP or TLS, to drive the HTTP client through every shape of
//! answer a relay could give.
//!
//! The TLS certificates in `testdata/` were made once for these tests with
//! OpenSSL (EC P-256, valid from 2020 to 2120, so that no clock near the
//! present makes them stale): `test-authority.pem`, a CA;
//! `loopback-cert.pem` and `loopback-key.pem`, a server certificate it
//! signed for 127.0.0.1 and localhost; `other-authority.pem`, an unrelated
//! CA. They guard nothing: the key is public.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use rustls_connector::rustls::pki_types::pem::PemObject;
use rustls_connector::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls_connector::rustls::{ServerConfig, ServerConnection, StreamOwned};

use super::http::Trust;

const TEST_AUTHORITY: &str = include_str!("testdata/test-authority.pem");
const OTHER_AUTHORITY: &str = include_str!("testdata/other-authority.pem");
const LOOPBACK_CERT: &str = include_str!("testdata/loopback-cert.pem");
const LOOPBACK_KEY: &str = include_str!("testdata/loopback-key.pem");

/// How long a canned server waits on a client before giving up on it.
const PATIENCE: Duration = Duration::from_secs(5);

enum Mode {
    Plain(Vec<u8>),
    Tls(Vec<u8>),
    Silent,
}

/// One connection, answered (or not) and closed.
pub(crate) struct Canned {
    addr: SocketAddr,
    tls: bool,
    served: Mutex<Option<JoinHandle<Vec<u8>>>>,
}

impl Canned {
    pub fn plain(answer: Vec<u8>) -> Canned {
        Canned::start(Mode::Plain(answer))
    }

    pub fn tls(answer: Vec<u8>) -> Canned {
        Canned::start(Mode::Tls(answer))
    }

    /// Accepts, reads the request, and never answers.
    pub fn silent() -> Canned {
        Canned::start(Mode::Silent)
    }

    fn start(mode: Mode) -> Canned {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
        let addr = listener.local_addr().expect("its address");
        let tls = matches!(mode, Mode::Tls(_));
        let handle = std::thread::spawn(move || {
            let Ok((tcp, _)) = listener.accept() else {
                return Vec::new();
            };
            let _ = tcp.set_read_timeout(Some(PATIENCE));
            let _ = tcp.set_write_timeout(Some(PATIENCE));
            match mode {
                Mode::Plain(answer) => answer_on(tcp, &answer),
                Mode::Tls(answer) => {
                    let config = Arc::new(server_config());
                    let Ok(conn) = ServerConnection::new(config) else {
                        return Vec::new();
                    };
                    let mut stream = StreamOwned::new(conn, tcp);
                    let request = read_head(&mut stream);
                    let _ = stream.write_all(&answer);
                    stream.conn.send_close_notify();
                    let _ = stream.flush();
                    request
                }
                Mode::Silent => {
                    let mut tcp = tcp;
                    let request = read_head(&mut tcp);
                    // Wait for the client to give up and close.
                    let mut sink = [0u8; 64];
                    while matches!(tcp.read(&mut sink), Ok(n) if n > 0) {}
                    request
                }
            }
        });
        Canned {
            addr,
            tls,
            served: Mutex::new(Some(handle)),
        }
    }

    pub fn base_url(&self) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        format!("{scheme}://{}", self.addr)
    }

    /// The roots that make this server's certificate good.
    pub fn trust(&self) -> Trust {
        tls_trust(true)
    }

    /// The request the server read, once it has closed the connection.
    pub fn request(&self) -> String {
        let handle = self.served.lock().expect("not poisoned").take();
        let bytes = handle
            .map(|h| h.join().expect("server thread"))
            .unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl Drop for Canned {
    fn drop(&mut self) {
        if let Ok(mut served) = self.served.lock()
            && let Some(handle) = served.take()
        {
            // Wake an accept that no client reached, then wait for the thread.
            let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
            let _ = handle.join();
        }
    }
}

fn answer_on(mut tcp: TcpStream, answer: &[u8]) -> Vec<u8> {
    let request = read_head(&mut tcp);
    let _ = tcp.write_all(answer);
    let _ = tcp.flush();
    request
}

/// Reads up to the blank line ending a request's head (or 8 KiB).
fn read_head(stream: &mut impl Read) -> Vec<u8> {
    let mut got = Vec::new();
    let mut byte = [0u8; 1];
    while !got.ends_with(b"\r\n\r\n") && got.len() < 8192 {
        match stream.read(&mut byte) {
            Ok(1) => got.push(byte[0]),
            _ => break,
        }
    }
    got
}

fn server_config() -> ServerConfig {
    let chain =
        vec![CertificateDer::from_pem_slice(LOOPBACK_CERT.as_bytes()).expect("test certificate")];
    let key = PrivateKeyDer::from_pem_slice(LOOPBACK_KEY.as_bytes()).expect("test key");
    ServerConfig::builder()
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .expect("a usable test certificate")
}

/// Roots holding the tests' authority (`true`) or only an unrelated one.
pub(crate) fn tls_trust(with_test_authority: bool) -> Trust {
    let pem = if with_test_authority {
        TEST_AUTHORITY
    } else {
        OTHER_AUTHORITY
    };
    let der = CertificateDer::from_pem_slice(pem.as_bytes()).expect("test authority");
    let root = ureq::tls::Certificate::from_der(der.as_ref()).to_owned();
    Trust::Roots(Arc::new(vec![root]))
}
