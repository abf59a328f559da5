//! End to end through a real mail stack: players' mail sent over SMTP to a
//! private Postfix, delivered by Dovecot into the GM's mailbox, read by
//! adjutant over IMAP and ingested.

mod support;

use std::time::Duration;

use support::mailstack::MailStack;

const GM: &str = "gm@adjutant.test";

#[test]
fn the_stack_delivers_smtp_mail_to_an_imap_mailbox() {
    let Some(stack) = MailStack::start(&[(GM, "gm-secret"), ("lannes@french.invalid", "p1")]) else {
        return;
    };
    let raw = b"From: lannes@french.invalid\r\nTo: gm@adjutant.test\r\nSubject: hello\r\nMessage-ID: <1@t>\r\n\r\n.dotted line\r\nbody\r\n";
    stack
        .send("lannes@french.invalid", &[GM], raw)
        .unwrap_or_else(|e| panic!("{e}\n{}", stack.logs()));
    let mail = stack.wait_for_mail(GM, 1, Duration::from_secs(20));
    let text = String::from_utf8_lossy(&mail[0]);
    assert!(text.contains("\r\n.dotted line\r\n"), "{text}");
}
