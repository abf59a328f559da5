//! A drand relay of one's own on loopback, for tests and the offline demo:
//! it serves a [`TestBeacon`]'s chain info and its rounds up to a "now"
//! round the caller moves, and answers 425 Too Early after it, as drand does.
//! It listens on 127.0.0.1 only, on a port the system picks, answers one
//! connection at a time, and stops when told or dropped.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use sha2::{Digest, Sha256};

use super::network::Network;
use super::test_beacon::TestBeacon;
use super::wire;

/// How the server answers, so that tests can see a relay misbehave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Behaviour {
    /// Rounds signed by the beacon: they verify.
    Honest,
    /// Rounds signed by another key, as a forging relay would serve them:
    /// well-formed, with a matching randomness field, and failing `verify`.
    WrongKey,
    /// 503 Service Unavailable for everything.
    Unavailable,
}

impl Behaviour {
    fn code(self) -> u8 {
        match self {
            Behaviour::Honest => 0,
            Behaviour::WrongKey => 1,
            Behaviour::Unavailable => 2,
        }
    }

    fn from_code(code: u8) -> Behaviour {
        match code {
            1 => Behaviour::WrongKey,
            2 => Behaviour::Unavailable,
            _ => Behaviour::Honest,
        }
    }
}

/// A running loopback relay. For tests and demos only.
pub struct TestServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

struct Shared {
    beacon: TestBeacon,
    forger: TestBeacon,
    now_round: AtomicU64,
    behaviour: AtomicU8,
    stopping: AtomicBool,
    served: AtomicU64,
}

/// How long the server waits on one client; a client that stalls delays the
/// next by at most this.
const PATIENCE: Duration = Duration::from_secs(2);

/// Starts a relay for `beacon` on 127.0.0.1, with rounds 1 to `now_round`
/// published.
pub fn serve_for_tests(beacon: TestBeacon, now_round: u64) -> io::Result<TestServer> {
    let network = beacon.network();
    // The forger's key comes from the chain hash, so that it differs from
    // the beacon's for every seed.
    let mut seed = Sha256::new();
    seed.update(b"adjutant-test-beacon-forger");
    seed.update(network.chain_hash());
    let forger = TestBeacon::from_seed(
        seed.finalize().into(),
        network.genesis_time(),
        network.period_secs(),
    )
    .map_err(io::Error::other)?;
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let addr = listener.local_addr()?;
    let shared = Arc::new(Shared {
        beacon,
        forger,
        now_round: AtomicU64::new(now_round),
        behaviour: AtomicU8::new(Behaviour::Honest.code()),
        stopping: AtomicBool::new(false),
        served: AtomicU64::new(0),
    });
    let for_thread = Arc::clone(&shared);
    let thread = std::thread::Builder::new()
        .name("beacon-test-server".to_string())
        .spawn(move || accept_loop(&listener, &for_thread))?;
    Ok(TestServer {
        addr,
        shared,
        thread: Some(thread),
    })
}

impl TestServer {
    /// `http://127.0.0.1:<port>`, the base URL to fetch from.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The chain served.
    pub fn network(&self) -> &Network {
        self.shared.beacon.network()
    }

    /// Publishes every round up to `round` (or, lower, unpublishes).
    pub fn set_now_round(&self, round: u64) {
        self.shared.now_round.store(round, Ordering::SeqCst);
    }

    pub fn now_round(&self) -> u64 {
        self.shared.now_round.load(Ordering::SeqCst)
    }

    pub fn set_behaviour(&self, behaviour: Behaviour) {
        self.shared
            .behaviour
            .store(behaviour.code(), Ordering::SeqCst);
    }

    /// How many requests it has answered, whatever the answer.
    pub fn requests_served(&self) -> u64 {
        self.shared.served.load(Ordering::SeqCst)
    }

    /// Stops listening and waits for the server's thread to end.
    pub fn stop(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        if let Some(thread) = self.thread.take() {
            self.shared.stopping.store(true, Ordering::SeqCst);
            // The accept loop sleeps in accept(): a connection wakes it to
            // see the flag.
            let _ = TcpStream::connect_timeout(&self.addr, PATIENCE);
            let _ = thread.join();
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.shut_down();
    }
}

fn accept_loop(listener: &TcpListener, shared: &Shared) {
    for conn in listener.incoming() {
        if shared.stopping.load(Ordering::SeqCst) {
            return;
        }
        if let Ok(stream) = conn {
            // A client that misbehaves only loses its own answer.
            let _ = answer(shared, stream);
        }
    }
}

fn answer(shared: &Shared, mut stream: TcpStream) -> io::Result<()> {
    stream.set_read_timeout(Some(PATIENCE))?;
    stream.set_write_timeout(Some(PATIENCE))?;
    let head = read_head(&mut stream)?;
    let (status, body) = route(shared, &head);
    shared.served.fetch_add(1, Ordering::SeqCst);
    let reason = match status {
        200 => "OK",
        404 => "Not Found",
        405 => "Method Not Allowed",
        425 => "Too Early",
        503 => "Service Unavailable",
        _ => "Bad Request",
    };
    let response = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(response.as_bytes())?;
    stream.flush()
}

/// The request's head, up to its blank line; at most 8 KiB.
fn read_head(stream: &mut TcpStream) -> io::Result<Vec<u8>> {
    let mut head = Vec::new();
    let mut chunk = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        if head.len() > 8192 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "request head too long",
            ));
        }
        let n = stream.read(&mut chunk)?;
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "closed mid-request",
            ));
        }
        head.extend_from_slice(&chunk[..n]);
    }
    Ok(head)
}

/// The status and JSON body for a request head.
fn route(shared: &Shared, head: &[u8]) -> (u16, String) {
    let behaviour = Behaviour::from_code(shared.behaviour.load(Ordering::SeqCst));
    if behaviour == Behaviour::Unavailable {
        return (503, String::new());
    }
    let line = head.split(|&b| b == b'\r').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    let mut words = line.split(' ');
    let (method, path) = (
        words.next().unwrap_or_default(),
        words.next().unwrap_or_default(),
    );
    if method != "GET" {
        return (405, String::new());
    }
    let network = shared.beacon.network();
    let parts: Vec<&str> = path.split('/').collect();
    let now = shared.now_round.load(Ordering::SeqCst);
    let signer = match behaviour {
        Behaviour::WrongKey => &shared.forger,
        _ => &shared.beacon,
    };
    match parts.as_slice() {
        ["", hash, "info"] if *hash == network.chain_hash_hex() => (200, network.to_info_json()),
        ["", hash, "public", which] if *hash == network.chain_hash_hex() => {
            let round = if *which == "latest" {
                Some(now)
            } else {
                which.parse::<u64>().ok()
            };
            match round {
                Some(0) | None => (404, String::new()),
                Some(r) if r > now => (425, String::new()),
                Some(r) => (200, wire::round_json(&signer.sign(r))),
            }
        }
        _ => (404, String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::error::BeaconError;
    use super::super::fetch::{fetch, fetch_info};
    use super::super::network::QUICKNET;
    use super::super::verify::verify;
    use super::*;

    const TIMEOUT: Duration = Duration::from_secs(5);

    fn server(now: u64) -> TestServer {
        let beacon = TestBeacon::from_seed([11; 32], 1_700_000_000, 3).expect("test beacon");
        serve_for_tests(beacon, now).expect("a loopback server")
    }

    #[test]
    fn it_listens_on_loopback_only_on_a_port_the_system_picked() {
        let s = server(1);
        assert!(s.addr().ip().is_loopback());
        assert_ne!(s.addr().port(), 0);
        assert!(s.base_url().starts_with("http://127.0.0.1:"));
    }

    #[test]
    fn info_then_rounds_up_to_now_fetch_and_verify_end_to_end() {
        let s = server(10);
        let network = fetch_info(&s.base_url(), s.network().chain_hash(), TIMEOUT).expect("info");
        assert_eq!(&network, s.network());
        let mut seen = Vec::new();
        for round in [1, 2, 10] {
            let signed = fetch(&s.base_url(), &network, round, TIMEOUT).expect("published round");
            let randomness = verify(&network, &signed).expect("verifies");
            seen.push(randomness);
        }
        seen.dedup();
        assert_eq!(seen.len(), 3, "each round has its own randomness");
        assert_eq!(s.requests_served(), 4);
    }

    #[test]
    fn later_rounds_are_too_early_until_now_moves() {
        let s = server(10);
        let got = fetch(&s.base_url(), s.network(), 11, TIMEOUT);
        assert_eq!(
            got,
            Err(BeaconError::NotYetPublished {
                round: 11,
                status: 425
            })
        );
        s.set_now_round(11);
        assert_eq!(s.now_round(), 11);
        let signed = fetch(&s.base_url(), s.network(), 11, TIMEOUT).expect("published now");
        assert!(verify(s.network(), &signed).is_ok());
    }

    #[test]
    fn latest_is_the_now_round() {
        let s = server(7);
        let url = super::super::url::BaseUrl::parse(&s.base_url()).expect("URL");
        let path = format!("/{}/public/latest", s.network().chain_hash_hex());
        let response =
            super::super::http::get(&url, &path, TIMEOUT, &super::super::http::Trust::System)
                .expect("an answer");
        let signed = wire::parse_round(&response.body).expect("a round");
        assert_eq!(signed.round, 7);
        assert!(verify(s.network(), &signed).is_ok());
    }

    #[test]
    fn another_chain_is_not_served() {
        let s = server(10);
        let got = fetch(&s.base_url(), &QUICKNET, 5, TIMEOUT);
        assert_eq!(
            got,
            Err(BeaconError::NotYetPublished {
                round: 5,
                status: 404
            })
        );
        let got = fetch_info(&s.base_url(), QUICKNET.chain_hash(), TIMEOUT);
        assert!(
            matches!(got, Err(BeaconError::HttpStatus { status: 404, .. })),
            "{got:?}"
        );
    }

    #[test]
    fn a_forging_relay_is_caught_and_an_unavailable_one_is_transient() {
        let s = server(10);
        s.set_behaviour(Behaviour::WrongKey);
        let got = fetch(&s.base_url(), s.network(), 3, TIMEOUT);
        assert!(
            matches!(got, Err(BeaconError::BadSignature { round: 3, .. })),
            "{got:?}"
        );
        s.set_behaviour(Behaviour::Unavailable);
        let got = fetch(&s.base_url(), s.network(), 3, TIMEOUT).expect_err("503");
        assert!(
            matches!(got, BeaconError::HttpStatus { status: 503, .. }) && got.is_transient(),
            "{got:?}"
        );
        s.set_behaviour(Behaviour::Honest);
        assert!(fetch(&s.base_url(), s.network(), 3, TIMEOUT).is_ok());
    }

    #[test]
    fn a_stopped_or_dropped_server_is_unreachable() {
        let s = server(10);
        let url = s.base_url();
        let network = s.network().clone();
        s.stop();
        let got = fetch(&url, &network, 1, TIMEOUT);
        assert!(
            matches!(got, Err(BeaconError::Unreachable { .. })),
            "{got:?}"
        );

        let s = server(10);
        let url = s.base_url();
        drop(s);
        let got = fetch(&url, &network, 1, TIMEOUT);
        assert!(
            matches!(got, Err(BeaconError::Unreachable { .. })),
            "{got:?}"
        );
    }

    #[test]
    fn a_client_that_sends_nothing_does_not_block_the_next() {
        let s = server(10);
        let idle = TcpStream::connect(s.addr()).expect("connect");
        let started = std::time::Instant::now();
        let signed =
            fetch(&s.base_url(), s.network(), 2, TIMEOUT).expect("served after the idle client");
        assert_eq!(signed.round, 2);
        assert!(started.elapsed() < TIMEOUT);
        drop(idle);
    }
}
