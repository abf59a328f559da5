//! DKIM (RFC 6376) for a person whose campaign asks for it
//! (`passphrase-and-dkim`): the message must carry a valid signature from
//! the sender's own domain.
//!
//! The signature is checked by mail-auth. The public keys come from a
//! [`KeySource`]: DNS in the daemon ([`DnsKeys`]), a fixed table in tests
//! ([`StaticKeys`]). Every key a message's signatures need is looked up
//! first and handed to mail-auth's verifier through its resolver cache, so
//! the verifier itself never goes to the network: it is polled once, and a
//! verifier that would still wait counts as a failure.

use std::borrow::Borrow;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::future::Future;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll, Waker};

use mail_auth::common::parse::TxtRecordParser;
use mail_auth::common::resolver::ToFqdn;
use mail_auth::common::verify::DomainKey;
use mail_auth::{
    AuthenticatedMessage, DkimResult, DnsError, Error, MessageAuthenticator, Parameters,
    ResolverCache, Txt,
};

/// Where DKIM public keys come from: the TXT record at
/// `<selector>._domainkey.<domain>.`.
pub trait KeySource: Send + Sync + std::fmt::Debug {
    /// The TXT record's text at `name` (lower case, ending with a dot), or
    /// `None` if there is none or it cannot be had.
    fn txt(&self, name: &str) -> Option<String>;
}

/// A fixed table of TXT records, by name. For tests, and for a site that
/// pins its players' keys rather than trusting DNS.
#[derive(Debug, Clone, Default)]
pub struct StaticKeys(BTreeMap<String, String>);

impl StaticKeys {
    pub fn new() -> StaticKeys {
        StaticKeys::default()
    }

    /// Adds the key record of `selector` at `domain`.
    pub fn with(mut self, selector: &str, domain: &str, record: &str) -> StaticKeys {
        let name = format!("{selector}._domainkey.{domain}")
            .to_fqdn()
            .into_owned();
        self.0.insert(name, record.to_string());
        self
    }
}

impl KeySource for StaticKeys {
    fn txt(&self, name: &str) -> Option<String> {
        self.0.get(name).cloned()
    }
}

/// Keys from the DNS, with the system's resolver configuration. The
/// resolver is made on first use, so that a campaign without DKIM never
/// touches it.
#[derive(Default)]
pub struct DnsKeys {
    inner: OnceLock<Option<(tokio::runtime::Runtime, MessageAuthenticator)>>,
}

impl std::fmt::Debug for DnsKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DnsKeys")
    }
}

impl KeySource for DnsKeys {
    fn txt(&self, name: &str) -> Option<String> {
        let inner = self.inner.get_or_init(|| {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .ok()?;
            let resolver = {
                let _entered = runtime.enter();
                MessageAuthenticator::new_system_conf().ok()?
            };
            Some((runtime, resolver))
        });
        let (runtime, resolver) = inner.as_ref()?;
        let bytes = runtime.block_on(resolver.txt_raw_lookup(name)).ok()?;
        String::from_utf8(bytes).ok()
    }
}

/// The keys the daemon uses unless told otherwise: the DNS.
pub fn dns() -> Arc<dyn KeySource> {
    Arc::new(DnsKeys::default())
}

/// Whether a message's DKIM signature vouches for its sender.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DkimVerdict {
    /// A valid signature from this domain, aligned with the sender's.
    Pass { domain: String },
    /// Why not, for the log (never for the reply, which reveals nothing).
    Fail(String),
}

/// The TXT records a verification may ask for, filled in beforehand.
#[derive(Default)]
struct Prefilled(RefCell<Vec<(Box<str>, Txt)>>);

impl ResolverCache<Box<str>, Txt> for Prefilled {
    fn get<Q>(&self, name: &Q) -> Option<Txt>
    where
        Box<str>: Borrow<Q>,
        Q: std::hash::Hash + Eq + ?Sized,
    {
        self.0
            .borrow()
            .iter()
            .find(|(k, _)| k.borrow() == name)
            .map(|(_, v)| v.clone())
    }

    fn remove<Q>(&self, name: &Q) -> Option<Txt>
    where
        Box<str>: Borrow<Q>,
        Q: std::hash::Hash + Eq + ?Sized,
    {
        let mut entries = self.0.borrow_mut();
        let at = entries.iter().position(|(k, _)| k.borrow() == name)?;
        Some(entries.remove(at).1)
    }

    fn insert(&self, key: Box<str>, value: Txt, _valid_until: std::time::Instant) {
        self.0.borrow_mut().push((key, value));
    }
}

fn not_found() -> Txt {
    Txt::Error(Error::Dns(DnsError::InvalidRecordType))
}

/// Whether `domain` is `sender_domain` or a parent of it (`example.org`
/// signs for `mail.example.org`): relaxed alignment, as DMARC has it. A
/// signature from any other domain says nothing about the sender.
fn aligned(domain: &str, sender_domain: &str) -> bool {
    let (d, s) = (
        domain.to_ascii_lowercase(),
        sender_domain.to_ascii_lowercase(),
    );
    s == d || s.ends_with(&format!(".{d}"))
}

/// Checks `raw`'s DKIM signatures for the sender address `sender`.
pub fn verify(raw: &[u8], sender: &str, keys: &dyn KeySource) -> DkimVerdict {
    let Some((_, sender_domain)) = sender.rsplit_once('@') else {
        return DkimVerdict::Fail("the sender address has no domain".into());
    };
    let Some(message) = AuthenticatedMessage::parse(raw) else {
        return DkimVerdict::Fail("the message cannot be read for DKIM".into());
    };
    if message.dkim_headers.is_empty() {
        return DkimVerdict::Fail("no DKIM signature".into());
    }
    let cache = Prefilled::default();
    let far = std::time::Instant::now() + std::time::Duration::from_secs(60);
    for header in &message.dkim_headers {
        let signature = &header.header;
        // Third-party signatures (RFC 6541) would need other lookups, and
        // only the sender's own domain counts here anyway.
        if signature.atps.is_some() {
            return DkimVerdict::Fail("a third-party (ATPS) signature".into());
        }
        let name = format!("{}._domainkey.{}", signature.s, signature.d)
            .to_fqdn()
            .into_owned();
        let record = keys
            .txt(&name)
            .map(|t| match DomainKey::parse(t.as_bytes()) {
                Ok(key) => Txt::DomainKey(Arc::new(key)),
                Err(e) => Txt::Error(e),
            })
            .unwrap_or_else(not_found);
        cache.insert(name.into_boxed_str(), record, far);
        // A failed signature that asks for reports makes the verifier look
        // up the report address: none, without going out.
        let report = format!("_report._domainkey.{}", signature.d)
            .to_fqdn()
            .into_owned();
        cache.insert(report.into_boxed_str(), not_found(), far);
    }
    let Some(authenticator) = verifier() else {
        return DkimVerdict::Fail("the DKIM verifier could not be set up".into());
    };
    let params = Parameters::new(&message).with_txt_cache(&cache);
    let Some(outputs) = poll_once(authenticator.verify_dkim(params)) else {
        return DkimVerdict::Fail("the verifier wanted a key it was not given".into());
    };
    let mut why = Vec::new();
    for output in &outputs {
        let domain = output.signature().map(|s| s.d.clone()).unwrap_or_default();
        match output.result() {
            DkimResult::Pass if aligned(&domain, sender_domain) => {
                return DkimVerdict::Pass { domain };
            }
            DkimResult::Pass => why.push(format!(
                "a valid signature from {domain}, which is not the sender's domain {sender_domain}"
            )),
            other => why.push(format!("signature from {domain}: {other:?}")),
        }
    }
    DkimVerdict::Fail(why.join("; "))
}

/// mail-auth's verifier, made once: it carries a DNS resolver, which is
/// never asked anything here (every key is in the cache) but costs time to
/// make.
fn verifier() -> Option<&'static MessageAuthenticator> {
    static VERIFIER: OnceLock<Option<MessageAuthenticator>> = OnceLock::new();
    VERIFIER
        .get_or_init(|| {
            MessageAuthenticator::new(
                mail_auth::hickory_resolver::config::ResolverConfig::default(),
                mail_auth::hickory_resolver::config::ResolverOpts::default(),
            )
            .ok()
        })
        .as_ref()
}

/// Polls a future once. Every key is already in the cache, so the
/// verifier finishes at once; if it did not, it would be waiting on the
/// network, which it must not use here.
fn poll_once<F: Future>(future: F) -> Option<F::Output> {
    let mut future = std::pin::pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(out) => Some(out),
        Poll::Pending => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alignment_is_the_domain_or_a_parent_of_it() {
        assert!(aligned("french.invalid", "french.invalid"));
        assert!(aligned("French.Invalid", "mail.french.invalid"));
        assert!(!aligned("mail.french.invalid", "french.invalid"));
        assert!(!aligned("ench.invalid", "french.invalid"));
        assert!(!aligned("austrian.invalid", "french.invalid"));
    }
}
