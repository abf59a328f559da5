//! A relay's base URL: `http://` or `https://`, a host (a name, an IPv4
//! address or a bracketed IPv6 one), an optional port and an optional path
//! prefix. Anything else (credentials, a query, a fragment, characters that
//! could split an HTTP request line) is refused rather than passed on.

use super::error::BeaconError;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BaseUrl {
    pub tls: bool,
    /// The host to connect to and, with TLS, the name to check the
    /// certificate against; an IPv6 address without its brackets.
    pub host: String,
    pub port: u16,
    /// The `Host` header: the authority as written, lower-cased.
    pub authority: String,
    /// "" or a path starting with '/' and not ending with one.
    pub prefix: String,
}

impl BaseUrl {
    pub fn parse(url: &str) -> Result<BaseUrl, BeaconError> {
        let bad = |reason: &str| BeaconError::BadUrl {
            url: url.to_string(),
            reason: reason.to_string(),
        };
        let (tls, rest) = if let Some(rest) = strip_prefix_ignore_case(url, "https://") {
            (true, rest)
        } else if let Some(rest) = strip_prefix_ignore_case(url, "http://") {
            (false, rest)
        } else {
            return Err(bad("it must start with http:// or https://"));
        };
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        if authority.contains('@') {
            return Err(bad("credentials in the URL are not supported"));
        }
        let default_port = if tls { 443 } else { 80 };
        let (host, port) = split_host_port(authority, default_port).map_err(bad)?;
        if !path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/-._~%!$&'()*+,;=:@".contains(&b))
        {
            return Err(bad(
                "the path may hold only URL path characters (no query or fragment)",
            ));
        }
        Ok(BaseUrl {
            tls,
            host,
            port,
            authority: authority.to_ascii_lowercase(),
            prefix: path.trim_end_matches('/').to_string(),
        })
    }

    /// The full URL of `path` (which starts with '/'), for messages.
    pub fn show(&self, path: &str) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        format!("{scheme}://{}{}{path}", self.authority, self.prefix)
    }
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

fn split_host_port(authority: &str, default_port: u16) -> Result<(String, u16), &'static str> {
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let end = rest
            .find(']')
            .ok_or("an IPv6 address lacks its closing bracket")?;
        let host = &rest[..end];
        if host.is_empty()
            || !host
                .bytes()
                .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.')
        {
            return Err("the bracketed host is not an IPv6 address");
        }
        let after = &rest[end + 1..];
        let port = match after.strip_prefix(':') {
            Some(p) => Some(p),
            None if after.is_empty() => None,
            None => return Err("unexpected text after the IPv6 address"),
        };
        (host, port)
    } else {
        match authority.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return Err("the host is empty");
    }
    if !authority.starts_with('[')
        && !host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
    {
        return Err("the host may hold only letters, digits, '-' and '.'");
    }
    let port = match port {
        None => default_port,
        Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => match p.parse::<u16>()
        {
            Ok(0) | Err(_) => return Err("the port must be 1 to 65535"),
            Ok(n) => n,
        },
        Some(_) => return Err("the port must be 1 to 65535"),
    };
    Ok((host.to_ascii_lowercase(), port))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(url: &str) -> BaseUrl {
        BaseUrl::parse(url).unwrap_or_else(|e| panic!("{url}: {e}"))
    }

    #[test]
    fn the_usual_relays_parse() {
        let u = ok("https://api.drand.sh");
        assert_eq!(
            (u.tls, u.host.as_str(), u.port, u.prefix.as_str()),
            (true, "api.drand.sh", 443, "")
        );
        let u = ok("HTTPS://Drand.Cloudflare.com/");
        assert_eq!(
            (u.tls, u.host.as_str(), u.prefix.as_str()),
            (true, "drand.cloudflare.com", "")
        );
        let u = ok("http://127.0.0.1:8080/relay/v1/");
        assert_eq!((u.tls, u.host.as_str(), u.port), (false, "127.0.0.1", 8080));
        assert_eq!(u.prefix, "/relay/v1");
        assert_eq!(u.authority, "127.0.0.1:8080");
        assert_eq!(u.show("/x/info"), "http://127.0.0.1:8080/relay/v1/x/info");
    }

    #[test]
    fn ipv6_hosts_lose_their_brackets_but_keep_them_in_the_host_header() {
        let u = ok("http://[::1]:9000");
        assert_eq!(
            (u.host.as_str(), u.port, u.authority.as_str()),
            ("::1", 9000, "[::1]:9000")
        );
        assert_eq!(ok("https://[2001:db8::1]").port, 443);
    }

    #[test]
    fn anything_that_could_smuggle_or_surprise_is_refused() {
        for url in [
            "ftp://example.org",
            "example.org",
            "http://",
            "http://:80",
            "http://user:pw@example.org",
            "http://example.org:0",
            "http://example.org:65536",
            "http://example.org:http",
            "http://example.org:",
            "http://example.org/a?b=c",
            "http://example.org/a#b",
            "http://example.org/a b",
            "http://example.org/a\r\nHost: evil",
            "http://exa mple.org",
            "http://[::1",
            "http://[::1]x",
            "http://[zz]",
            "http://examplé.org",
        ] {
            assert!(
                matches!(BaseUrl::parse(url), Err(BeaconError::BadUrl { .. })),
                "{url:?}"
            );
        }
    }
}
