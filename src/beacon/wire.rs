//! drand's HTTP JSON formats (API v1): a chain's `/info` and a round's
//! `/public/{round}`. Both parsers are lenient about fields they do not use
//! and strict about the ones they do.

use serde::{Deserialize, Serialize};

use super::error::BeaconError;
use super::network::{Network, PUBLIC_KEY_LEN, Scheme};
use super::verify::{SignedRound, randomness_of};

#[derive(Debug, Serialize, Deserialize)]
struct InfoJson {
    public_key: String,
    period: u32,
    genesis_time: i64,
    hash: String,
    #[serde(rename = "groupHash")]
    group_hash: String,
    #[serde(rename = "schemeID")]
    scheme_id: String,
    #[serde(default)]
    metadata: Option<MetadataJson>,
}

#[derive(Debug, Serialize, Deserialize)]
struct MetadataJson {
    #[serde(rename = "beaconID", default)]
    beacon_id: String,
}

#[derive(Debug, Serialize, Deserialize)]
struct RoundJson {
    round: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    randomness: Option<String>,
    signature: String,
}

impl Network {
    /// Reads a chain's info as drand serves it at `/{chain hash}/info`, and
    /// checks that its `hash` is the chain hash its parameters derive. The
    /// caller still checks that this is the chain it wanted
    /// ([`Network::expect_chain_hash`]): a relay could serve another chain
    /// whole.
    pub fn from_info_json(json: &[u8]) -> Result<Network, BeaconError> {
        let bad = |reason: String| BeaconError::BadNetwork { reason };
        let info: InfoJson =
            serde_json::from_slice(json).map_err(|e| bad(format!("chain info: {e}")))?;
        let scheme = Scheme::from_id(&info.scheme_id)?;
        let public_key: [u8; PUBLIC_KEY_LEN] =
            decode_hex(&info.public_key, "public_key").map_err(bad)?;
        let group_hash: [u8; 32] = decode_hex(&info.group_hash, "groupHash").map_err(bad)?;
        let claimed: [u8; 32] = decode_hex(&info.hash, "hash").map_err(bad)?;
        let beacon_id = info.metadata.map(|m| m.beacon_id).unwrap_or_default();
        let network = Network::new(
            scheme,
            public_key,
            info.period,
            info.genesis_time,
            group_hash,
            &beacon_id,
        )?;
        if network.chain_hash() != &claimed {
            return Err(bad(format!(
                "the info says its hash is {}, but its parameters hash to {}",
                hex::encode(claimed),
                network.chain_hash_hex()
            )));
        }
        Ok(network)
    }

    /// The chain's info in drand's format: what a relay serves and what an
    /// archive can keep, read back by [`Network::from_info_json`].
    pub fn to_info_json(&self) -> String {
        let info = InfoJson {
            public_key: hex::encode(self.public_key()),
            period: self.period_secs(),
            genesis_time: self.genesis_time(),
            hash: self.chain_hash_hex(),
            group_hash: hex::encode(self.group_hash()),
            scheme_id: self.scheme().id().to_string(),
            metadata: Some(MetadataJson {
                beacon_id: self.beacon_id().to_string(),
            }),
        };
        // Strings and integers only: serialising cannot fail.
        serde_json::to_string(&info).unwrap_or_default()
    }
}

/// Reads a round as a relay serves it. A `randomness` field, when present,
/// must be SHA-256 of the signature; the signature itself is checked later,
/// by `verify`. The error is a reason for the caller to wrap with the URL.
pub(crate) fn parse_round(json: &[u8]) -> Result<SignedRound, String> {
    let parsed: RoundJson = serde_json::from_slice(json).map_err(|e| format!("round JSON: {e}"))?;
    let signed =
        SignedRound::from_hex(parsed.round, &parsed.signature).map_err(|e| e.to_string())?;
    if let Some(served) = parsed.randomness {
        let served: [u8; 32] = decode_hex(&served, "randomness")?;
        let derived = randomness_of(&signed.signature);
        if &served != derived.as_bytes() {
            return Err(format!(
                "round {}: the randomness field {} is not SHA-256 of the signature ({})",
                signed.round,
                hex::encode(served),
                derived
            ));
        }
    }
    Ok(signed)
}

/// A round in the relay's format, with its randomness, as drand serves it.
pub(crate) fn round_json(signed: &SignedRound) -> String {
    let round = RoundJson {
        round: signed.round,
        randomness: Some(randomness_of(&signed.signature).to_hex()),
        signature: signed.signature_hex(),
    };
    serde_json::to_string(&round).unwrap_or_default()
}

fn decode_hex<const N: usize>(text: &str, field: &str) -> Result<[u8; N], String> {
    let mut out = [0u8; N];
    hex::decode_to_slice(text, &mut out)
        .map_err(|e| format!("{field} is not {N} bytes of hex: {e}"))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::network::QUICKNET;
    use super::super::verify::verify;
    use super::*;

    /// quicknet's info as drand's relays serve it, written out by hand from
    /// the published parameters.
    const QUICKNET_INFO: &str = r#"{"public_key":"83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a","period":3,"genesis_time":1692803367,"hash":"52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971","groupHash":"f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e","schemeID":"bls-unchained-g1-rfc9380","metadata":{"beaconID":"quicknet"}}"#;

    const ROUND_123: &str = r#"{"round":123,"randomness":"RANDOMNESS","signature":"b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92"}"#;

    fn round_123_with(randomness: &str) -> String {
        ROUND_123.replace("RANDOMNESS", randomness)
    }

    #[test]
    fn quicknet_info_parses_to_the_constant() {
        let n = Network::from_info_json(QUICKNET_INFO.as_bytes()).expect("quicknet's info");
        assert_eq!(n, QUICKNET);
        assert!(n.expect_chain_hash(QUICKNET.chain_hash()).is_ok());
    }

    #[test]
    fn info_round_trips_through_its_json() {
        let back = Network::from_info_json(QUICKNET.to_info_json().as_bytes()).expect("own output");
        assert_eq!(back, QUICKNET);
    }

    #[test]
    fn info_whose_hash_does_not_match_its_parameters_is_refused() {
        // A relay that swapped the period, or served another key under
        // quicknet's hash, is caught by the hash alone.
        let tampered = QUICKNET_INFO.replace("\"period\":3", "\"period\":30");
        let err = Network::from_info_json(tampered.as_bytes()).expect_err("period changed");
        assert!(err.to_string().contains("hash to"), "{err}");
        let other_id = QUICKNET_INFO.replace("\"quicknet\"", "\"evilnet\"");
        assert!(Network::from_info_json(other_id.as_bytes()).is_err());
    }

    #[test]
    fn info_with_missing_or_malformed_fields_is_refused() {
        for broken in [
            QUICKNET_INFO.replace("\"groupHash\"", "\"group\""),
            QUICKNET_INFO.replace("bls-unchained-g1-rfc9380", "pedersen-bls-chained"),
            QUICKNET_INFO.replace("\"period\":3", "\"period\":-3"),
            QUICKNET_INFO.replace("\"hash\":\"52db", "\"hash\":\"zzdb"),
            QUICKNET_INFO.replace("\"public_key\":\"83cf", "\"public_key\":\"83"),
            "[]".to_string(),
            String::new(),
        ] {
            let got = Network::from_info_json(broken.as_bytes());
            assert!(
                matches!(got, Err(BeaconError::BadNetwork { .. })),
                "{broken}: {got:?}"
            );
        }
    }

    #[test]
    fn a_round_with_its_true_randomness_parses_and_verifies() {
        let signature = hex::decode(
            "b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92",
        )
        .expect("hex");
        let randomness = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&signature));
        let signed = parse_round(round_123_with(&randomness).as_bytes()).expect("well formed");
        assert_eq!(signed.round, 123);
        assert_eq!(
            verify(&QUICKNET, &signed).expect("verifies").to_hex(),
            randomness
        );
    }

    #[test]
    fn a_round_without_randomness_parses_and_extra_fields_are_ignored() {
        let json = r#"{"round":123,"signature":"b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92","previous_signature":"00"}"#;
        let signed = parse_round(json.as_bytes()).expect("no randomness field");
        assert!(verify(&QUICKNET, &signed).is_ok());
    }

    #[test]
    fn a_randomness_field_that_is_not_the_hash_of_the_signature_is_refused() {
        let wrong = "00".repeat(32);
        let err = parse_round(round_123_with(&wrong).as_bytes()).expect_err("wrong randomness");
        assert!(err.contains("not SHA-256 of the signature"), "{err}");
        assert!(parse_round(round_123_with("abcd").as_bytes()).is_err());
    }

    #[test]
    fn malformed_rounds_are_refused() {
        for broken in [
            r#"{"round":-1,"signature":"00"}"#,
            r#"{"round":1}"#,
            r#"{"round":1,"signature":"abc"}"#,
            r#"{"round":"1","signature":"00"}"#,
            "not json",
        ] {
            assert!(parse_round(broken.as_bytes()).is_err(), "{broken}");
        }
    }

    #[test]
    fn round_json_is_read_back_by_parse_round() {
        let signed = parse_round(round_123_with(&"00".repeat(32)).replace(r#""randomness":"0000000000000000000000000000000000000000000000000000000000000000","#, "").as_bytes())
            .expect("no randomness");
        let back =
            parse_round(round_json(&signed).as_bytes()).expect("own output, with randomness");
        assert_eq!(back, signed);
        assert!(round_json(&signed).contains("\"randomness\""));
    }
}
