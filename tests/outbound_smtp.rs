//! The SMTP transport against a scripted SMTP server on 127.0.0.1: what it
//! sends, and how it reads the server's replies (4xx transient, 5xx
//! permanent, no server at all transient).

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::thread::JoinHandle;

use adjutant::outbound::{SmtpConfig, SmtpSecurity, SmtpTransport, Transport, build};
use adjutant::store::OutgoingMail;

/// A one-connection SMTP server that answers MAIL FROM with `mail_reply`
/// and returns everything the client said.
fn server(mail_reply: &'static str) -> (u16, JoinHandle<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let port = listener.local_addr().expect("addr").port();
    let handle = std::thread::spawn(move || {
        let (stream, _) = listener.accept().expect("accept");
        converse(stream, mail_reply)
    });
    (port, handle)
}

fn converse(stream: TcpStream, mail_reply: &str) -> String {
    let mut out = stream.try_clone().expect("clone");
    let mut reader = BufReader::new(stream);
    let mut said = String::new();
    let mut send = |line: &str| {
        out.write_all(format!("{line}\r\n").as_bytes())
            .expect("write");
    };
    send("220 test ESMTP");
    let mut in_data = false;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        said.push_str(&line);
        if in_data {
            if line == ".\r\n" {
                in_data = false;
                send("250 queued");
            }
            continue;
        }
        let upper = line.to_ascii_uppercase();
        if upper.starts_with("EHLO") {
            send("250 test");
        } else if upper.starts_with("MAIL FROM") {
            send(mail_reply);
        } else if upper.starts_with("RCPT TO") {
            send("250 ok");
        } else if upper.starts_with("DATA") {
            in_data = true;
            send("354 go on");
        } else if upper.starts_with("QUIT") {
            send("221 bye");
            break;
        } else {
            send("250 ok");
        }
    }
    said
}

fn transport(port: u16) -> SmtpTransport {
    SmtpTransport::new(&SmtpConfig {
        host: "127.0.0.1".into(),
        port: Some(port),
        security: SmtpSecurity::Plain,
        username: None,
        password_file: None,
        ca_file: None,
        timeout_seconds: Some(10),
        connections: None,
    })
    .expect("loopback plain text is allowed")
}

fn message() -> adjutant::outbound::BuiltMessage {
    let mail = OutgoingMail::text(
        "<c.r1.result.abc@example.org>".into(),
        "lannes@french.invalid".into(),
        "[c] resolution 1".into(),
        "The 2e Ligne stands fast.\n".into(),
    );
    build(&mail, "adjutant@example.org", chrono::DateTime::UNIX_EPOCH).expect("builds")
}

#[test]
fn a_message_goes_over_smtp_with_its_own_message_id() {
    let (port, server) = server("250 ok");
    transport(port).send(&message()).expect("sent");
    let said = server.join().expect("server");
    assert!(said.contains("MAIL FROM:<adjutant@example.org>"), "{said}");
    assert!(said.contains("RCPT TO:<lannes@french.invalid>"), "{said}");
    assert!(
        said.contains("Message-ID: <c.r1.result.abc@example.org>"),
        "{said}"
    );
}

#[test]
fn a_4xx_reply_is_transient() {
    let (port, server) = server("451 4.3.0 try again later");
    let e = transport(port).send(&message()).expect_err("refused");
    assert!(e.is_transient(), "{e}");
    let _ = server.join();
}

#[test]
fn a_5xx_reply_is_permanent() {
    let (port, server) = server("550 5.1.1 no such user");
    let e = transport(port).send(&message()).expect_err("refused");
    assert!(e.is_permanent(), "{e}");
    assert!(e.message.contains("no such user"), "{e}");
    let _ = server.join();
}

#[test]
fn no_server_at_all_is_transient() {
    // Bind and drop a listener to find a port nobody is listening on.
    let port = TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    let e = transport(port).send(&message()).expect_err("no server");
    assert!(e.is_transient(), "{e}");
}
