//! Headless Chromium driven over the DevTools protocol, for tests that look
//! at pages as a reader would: open a page from the disk, press keys, run
//! script in it and read the answer, and collect every console error,
//! uncaught exception and failed load on the way.
//!
//! The protocol's WebSocket is spoken here in a few lines (text frames,
//! masked as a client must), over loopback only, so that nothing is
//! downloaded at test time. Where Chromium is missing the test says so on
//! the terminal and passes; `ADJUTANT_REQUIRE_BROWSER=1` (set by `.ci/run`,
//! which installs Debian's `chromium`) makes that a failure.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

const REQUIRE: &str = "ADJUTANT_REQUIRE_BROWSER";

/// The flags Chromium needs here: headless, and nothing that reaches for the
/// network on its own (this machine's network is closed).
const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--remote-debugging-port=0",
];

fn chromium() -> Option<PathBuf> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// One running Chromium with one page, stopped (by its own pid) on drop.
pub struct Browser {
    child: Child,
    _profile: tempfile::TempDir,
    socket: TcpStream,
    next_id: u64,
    /// Every protocol event received so far.
    pub events: Vec<Value>,
}

impl Browser {
    /// Starts Chromium, or returns `None` when it is not installed, having
    /// said so; with `ADJUTANT_REQUIRE_BROWSER=1` it panics instead.
    pub fn start() -> Option<Browser> {
        let Some(binary) = chromium() else {
            if std::env::var(REQUIRE).as_deref() == Ok("1") {
                panic!("the browser tests need Chromium: apt-get install -y chromium");
            }
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED a browser test: Chromium is not installed (apt-get install -y chromium; \
                 .ci/run installs it). {REQUIRE}=1 makes this a failure."
            );
            return None;
        };
        let profile = tempfile::tempdir().expect("a profile folder");
        let mut child = Command::new(binary)
            .args(FLAGS)
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        // Chromium says where its DevTools listen on standard error; the rest
        // of what it says is drained by a thread, so that it never blocks.
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = BufReader::new(stderr).lines();
        let mut browser_url = None;
        for line in lines.by_ref() {
            let line = line.unwrap_or_default();
            if let Some(at) = line.find("ws://") {
                browser_url = Some(line[at..].trim().to_string());
                break;
            }
        }
        std::thread::spawn(move || for _ in lines {});
        let browser_url = browser_url.expect("chromium gives its DevTools address");
        let authority = browser_url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .expect("host:port")
            .to_string();
        let page = page_socket(&authority);
        let socket = connect(&authority, &page);
        let mut browser = Browser {
            child,
            _profile: profile,
            socket,
            next_id: 0,
            events: Vec::new(),
        };
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            browser.call(domain, json!({}));
        }
        Some(browser)
    }

    /// Sends one command and returns its result; events that come before
    /// it are kept in `events`.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({ "id": id, "method": method, "params": params }).to_string();
        send(&mut self.socket, message.as_bytes());
        loop {
            let reply: Value =
                serde_json::from_slice(&receive(&mut self.socket)).expect("protocol JSON");
            if reply["id"].as_u64() == Some(id) {
                if !reply["error"].is_null() {
                    panic!("{method}: {}", reply["error"]);
                }
                return reply["result"].clone();
            }
            self.events.push(reply);
        }
    }

    /// Waits for the event `method`, keeping the others.
    pub fn wait_for(&mut self, method: &str) -> Value {
        if let Some(at) = self.events.iter().position(|e| e["method"] == method) {
            return self.events.remove(at);
        }
        loop {
            let event: Value =
                serde_json::from_slice(&receive(&mut self.socket)).expect("protocol JSON");
            if event["method"] == method {
                return event;
            }
            self.events.push(event);
        }
    }

    /// A phone-sized window: 390 by 844 CSS pixels, as a phone's browser
    /// lays a page out.
    pub fn phone(&mut self) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true }),
        );
    }

    /// Opens a file and waits until it has loaded.
    pub fn open(&mut self, path: &Path) {
        self.events.retain(|e| e["method"] != "Page.loadEventFired");
        let url = format!("file://{}", path.display());
        self.call("Page.navigate", json!({ "url": url }));
        self.wait_for("Page.loadEventFired");
    }

    /// Runs `expression` in the page (awaiting a promise) and returns its
    /// value; an exception fails the test.
    pub fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "awaitPromise": true, "returnByValue": true }),
        );
        if !result["exceptionDetails"].is_null() {
            panic!("`{expression}` threw: {}", result["exceptionDetails"]);
        }
        result["result"]["value"].clone()
    }

    /// Presses and releases a key (`ArrowRight`, `Home`, ...).
    pub fn key(&mut self, key: &str, code: u32) {
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({ "type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code }),
            );
        }
    }

    /// Every console error, uncaught exception and failed load so far.
    pub fn errors(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match e["method"].as_str()? {
                "Runtime.exceptionThrown" => {
                    Some(format!("exception: {}", e["params"]["exceptionDetails"]))
                }
                "Runtime.consoleAPICalled"
                    if matches!(e["params"]["type"].as_str(), Some("error" | "assert")) =>
                {
                    Some(format!("console.error: {}", e["params"]["args"]))
                }
                "Log.entryAdded" if e["params"]["entry"]["level"] == "error" => Some(format!(
                    "{}: {}",
                    e["params"]["entry"]["source"], e["params"]["entry"]["text"]
                )),
                _ => None,
            })
            .collect()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The WebSocket path of the browser's first page, from `/json/list`.
fn page_socket(authority: &str) -> String {
    for _ in 0..50 {
        if let Ok(mut stream) = TcpStream::connect(authority) {
            let _ = write!(
                stream,
                "GET /json/list HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n"
            );
            let text = http_answer(&mut stream);
            if let Some(body) = text.split("\r\n\r\n").nth(1)
                && let Ok(Value::Array(targets)) = serde_json::from_str::<Value>(body)
                && let Some(url) = targets
                    .iter()
                    .find(|t| t["type"] == "page")
                    .and_then(|t| t["webSocketDebuggerUrl"].as_str())
            {
                return url
                    .trim_start_matches("ws://")
                    .trim_start_matches(authority)
                    .to_string();
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("chromium lists no page");
}

/// An HTTP answer, read as far as its Content-Length says: the DevTools
/// server may keep the connection open.
fn http_answer(stream: &mut TcpStream) -> String {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&bytes).to_string();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head
                .lines()
                .find_map(|l| {
                    let (name, value) = l.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse::<usize>().ok())?
                })
                .unwrap_or(0);
            if body.len() >= length {
                return text;
            }
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return String::from_utf8_lossy(&bytes).to_string(),
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
        }
    }
}

/// Opens a WebSocket to `path` on `authority`.
fn connect(authority: &str, path: &str) -> TcpStream {
    let mut stream = TcpStream::connect(authority).expect("DevTools connection");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .expect("timeout");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {authority}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: YWRqdXRhbnQtY2hyb25pY2xl\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    .expect("handshake");
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        stream.read_exact(&mut byte).expect("handshake answer");
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head);
    assert!(head.starts_with("HTTP/1.1 101"), "no WebSocket: {head}");
    stream
}

/// Sends one text frame, masked as a client's must be.
fn send(stream: &mut TcpStream, payload: &[u8]) {
    let mask = [0x5a, 0x17, 0xc3, 0x88];
    let mut frame = vec![0x81];
    match payload.len() {
        n if n < 126 => frame.push(0x80 | n as u8),
        n if n <= 0xffff => {
            frame.push(0x80 | 126);
            frame.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            frame.push(0x80 | 127);
            frame.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    frame.extend_from_slice(&mask);
    frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    stream.write_all(&frame).expect("send");
}

/// Receives one whole message (continuation frames joined); answers pings.
fn receive(stream: &mut TcpStream) -> Vec<u8> {
    let mut message = Vec::new();
    loop {
        let mut head = [0u8; 2];
        stream.read_exact(&mut head).expect("a frame");
        let (fin, opcode) = (head[0] & 0x80 != 0, head[0] & 0x0f);
        let masked = head[1] & 0x80 != 0;
        let len = match head[1] & 0x7f {
            126 => {
                let mut b = [0u8; 2];
                stream.read_exact(&mut b).expect("length");
                u64::from(u16::from_be_bytes(b))
            }
            127 => {
                let mut b = [0u8; 8];
                stream.read_exact(&mut b).expect("length");
                u64::from_be_bytes(b)
            }
            n => u64::from(n),
        };
        let mut mask = [0u8; 4];
        if masked {
            stream.read_exact(&mut mask).expect("mask");
        }
        let mut payload = vec![0u8; len as usize];
        stream.read_exact(&mut payload).expect("payload");
        if masked {
            for (i, b) in payload.iter_mut().enumerate() {
                *b ^= mask[i % 4];
            }
        }
        match opcode {
            0x8 => panic!("chromium closed the DevTools connection"),
            0x9 => {
                let mut pong = vec![0x8a, 0x80];
                pong.extend_from_slice(&[0, 0, 0, 0]);
                stream.write_all(&pong).expect("pong");
                continue;
            }
            0xa => continue,
            _ => message.extend_from_slice(&payload),
        }
        if fin {
            return message;
        }
    }
}
