//! Fetching a round, or a chain's info, from a drand HTTP relay, and checking
//! it before anyone uses it.

use std::time::Duration;

use super::error::BeaconError;
use super::http::{self, Trust};
use super::network::Network;
use super::url::BaseUrl;
use super::verify::{SignedRound, verify};
use super::wire;

/// GETs `{base_url}/{chain hash}/public/{round}` and returns the round once
/// it is the round asked for, its `randomness` field (if any) is the hash of
/// its signature, and its signature verifies against `network`. `timeout`
/// bounds the whole exchange, name resolution aside. `https://` relays are
/// checked against the system's root certificates.
///
/// The caller records the round and signature and calls [`verify`] for the
/// randomness, as an auditor will from the record.
pub fn fetch(
    base_url: &str,
    network: &Network,
    round: u64,
    timeout: Duration,
) -> Result<SignedRound, BeaconError> {
    fetch_trusting(base_url, network, round, timeout, &Trust::System)
}

pub(crate) fn fetch_trusting(
    base_url: &str,
    network: &Network,
    round: u64,
    timeout: Duration,
    trust: &Trust,
) -> Result<SignedRound, BeaconError> {
    let url = BaseUrl::parse(base_url)?;
    let path = format!("/{}/public/{round}", network.chain_hash_hex());
    let response = http::get(&url, &path, timeout, trust)?;
    match response.status {
        200 => {}
        // drand answers 425 Too Early for a future round; some relays and
        // caches answer 404.
        404 | 425 => {
            return Err(BeaconError::NotYetPublished {
                round,
                status: response.status,
            });
        }
        status => {
            return Err(BeaconError::HttpStatus {
                url: url.show(&path),
                status,
            });
        }
    }
    let signed = wire::parse_round(&response.body).map_err(|reason| BeaconError::BadAnswer {
        url: url.show(&path),
        reason,
    })?;
    if signed.round != round {
        // drand serves the latest round for round 0, and a broken cache
        // might serve any; either way it is not the round the turn names.
        return Err(BeaconError::BadAnswer {
            url: url.show(&path),
            reason: format!("asked for round {round}, got round {}", signed.round),
        });
    }
    verify(network, &signed)?;
    Ok(signed)
}

/// GETs `{base_url}/{chain hash}/info` and returns the network once its
/// parameters hash to `chain_hash`: with only the chain hash, a campaign can
/// learn and check the public key. A relay that does not serve the chain
/// answers 404 here, which tells it apart from a round not yet published.
pub fn fetch_info(
    base_url: &str,
    chain_hash: &[u8; 32],
    timeout: Duration,
) -> Result<Network, BeaconError> {
    fetch_info_trusting(base_url, chain_hash, timeout, &Trust::System)
}

pub(crate) fn fetch_info_trusting(
    base_url: &str,
    chain_hash: &[u8; 32],
    timeout: Duration,
    trust: &Trust,
) -> Result<Network, BeaconError> {
    let url = BaseUrl::parse(base_url)?;
    let path = format!("/{}/info", hex::encode(chain_hash));
    let response = http::get(&url, &path, timeout, trust)?;
    if response.status != 200 {
        return Err(BeaconError::HttpStatus {
            url: url.show(&path),
            status: response.status,
        });
    }
    let network = Network::from_info_json(&response.body)?;
    network.expect_chain_hash(chain_hash)?;
    Ok(network)
}

#[cfg(test)]
mod tests {
    use super::super::canned::Canned;
    use super::super::network::QUICKNET;
    use super::super::test_beacon::TestBeacon;
    use super::*;

    const TIMEOUT: Duration = Duration::from_secs(5);
    const ROUND_123: &str = r#"{"round":123,"signature":"b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92"}"#;

    fn ok_json(body: &str) -> Vec<u8> {
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    }

    fn beacon() -> TestBeacon {
        TestBeacon::from_seed([4; 32], 1_700_000_000, 3).expect("test beacon")
    }

    #[test]
    fn quicknet_round_123_fetched_from_loopback_verifies() {
        let server = Canned::plain(ok_json(ROUND_123));
        let signed = fetch(&server.base_url(), &QUICKNET, 123, TIMEOUT).expect("the real round");
        assert_eq!(signed.round, 123);
        assert!(server.request().starts_with(
            "GET /52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971/public/123 HTTP/1.1\r\n"
        ));
        assert!(verify(&QUICKNET, &signed).is_ok());
    }

    #[test]
    fn a_round_over_tls_verifies() {
        let b = beacon();
        let server = Canned::tls(ok_json(&wire::round_json(&b.sign(9))));
        let signed = fetch_trusting(&server.base_url(), b.network(), 9, TIMEOUT, &server.trust())
            .expect("over TLS");
        assert_eq!(signed, b.sign(9));
    }

    #[test]
    fn too_early_and_not_found_mean_not_yet_published() {
        for status in [425u16, 404] {
            let server = Canned::plain(
                format!("HTTP/1.1 {status} X\r\nContent-Length: 0\r\n\r\n").into_bytes(),
            );
            let got = fetch(&server.base_url(), &QUICKNET, 99, TIMEOUT);
            assert_eq!(got, Err(BeaconError::NotYetPublished { round: 99, status }));
        }
    }

    #[test]
    fn other_statuses_are_reported_as_such() {
        let server =
            Canned::plain(b"HTTP/1.1 503 Unavailable\r\nContent-Length: 0\r\n\r\n".to_vec());
        let got = fetch(&server.base_url(), &QUICKNET, 1, TIMEOUT).expect_err("503");
        assert!(
            matches!(&got, BeaconError::HttpStatus { status: 503, .. }),
            "{got:?}"
        );
        assert!(got.is_transient());
    }

    #[test]
    fn another_round_than_the_one_asked_for_is_refused_even_when_genuine() {
        let server = Canned::plain(ok_json(ROUND_123));
        let got =
            fetch(&server.base_url(), &QUICKNET, 122, TIMEOUT).expect_err("round 123 for 122");
        assert!(
            matches!(&got, BeaconError::BadAnswer { reason, .. } if reason.contains("got round 123")),
            "{got:?}"
        );
    }

    #[test]
    fn a_round_of_another_chain_has_a_bad_signature() {
        let server = Canned::plain(ok_json(&wire::round_json(&beacon().sign(123))));
        let got = fetch(&server.base_url(), &QUICKNET, 123, TIMEOUT).expect_err("not quicknet's");
        assert!(
            matches!(got, BeaconError::BadSignature { round: 123, .. }),
            "{got:?}"
        );
    }

    #[test]
    fn a_wrong_randomness_field_or_broken_json_is_a_bad_answer() {
        let wrong = ROUND_123.replace(
            "{\"round\":123,",
            &format!("{{\"round\":123,\"randomness\":\"{}\",", "11".repeat(32)),
        );
        for body in [wrong.as_str(), "{\"round\":123", "<html>busy</html>"] {
            let server = Canned::plain(ok_json(body));
            let got = fetch(&server.base_url(), &QUICKNET, 123, TIMEOUT);
            assert!(
                matches!(got, Err(BeaconError::BadAnswer { .. })),
                "{body}: {got:?}"
            );
        }
    }

    #[test]
    fn a_bad_url_is_refused_before_any_connection() {
        let got = fetch("ftp://127.0.0.1", &QUICKNET, 1, TIMEOUT);
        assert!(matches!(got, Err(BeaconError::BadUrl { .. })), "{got:?}");
    }

    #[test]
    fn info_is_fetched_and_checked_against_the_chain_hash() {
        let b = beacon();
        let server = Canned::plain(ok_json(&b.network().to_info_json()));
        let n = fetch_info(&server.base_url(), b.network().chain_hash(), TIMEOUT).expect("info");
        assert_eq!(&n, b.network());
        assert!(server.request().starts_with(&format!(
            "GET /{}/info HTTP/1.1\r\n",
            b.network().chain_hash_hex()
        )));

        // A relay serving another chain's info under the hash asked for.
        let server = Canned::plain(ok_json(&b.network().to_info_json()));
        let got = fetch_info(&server.base_url(), QUICKNET.chain_hash(), TIMEOUT)
            .expect_err("another chain");
        assert!(matches!(got, BeaconError::BadNetwork { .. }), "{got:?}");

        let server = Canned::plain(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".to_vec());
        let got = fetch_info(&server.base_url(), QUICKNET.chain_hash(), TIMEOUT)
            .expect_err("unknown chain");
        assert!(
            matches!(got, BeaconError::HttpStatus { status: 404, .. }),
            "{got:?}"
        );
    }

    #[test]
    fn info_over_tls() {
        let server = Canned::tls(ok_json(&QUICKNET.to_info_json()));
        let n = fetch_info_trusting(
            &server.base_url(),
            QUICKNET.chain_hash(),
            TIMEOUT,
            &server.trust(),
        )
        .expect("info");
        assert_eq!(n, QUICKNET);
    }
}
