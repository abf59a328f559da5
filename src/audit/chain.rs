//! The hash chain: h_0 = secret, h_(i+1) = SHA-256(h_i), commitment C = h_N.
//! Resolution k uses r_k = h_(N-k), so each revealed secret hashes to the one
//! revealed before it (r_0 = C) and none can be chosen after the commitment.

use super::digest::Digest32;
use super::kind::Kind;

/// One link of the chain: a resolution's secret r_k, or h_0 itself.
pub type Secret = Digest32;
/// The published head of the chain, h_N.
pub type Commitment = Digest32;

/// The domain tag that derives the umpire calls' chain from h_0.
pub const UMPIRE_CHAIN_TAG: &[u8] = b"adjutant-umpire-chain-v1";

/// The longest chain a campaign may ask for. Each secret is found by hashing
/// from h_0, so the length bounds the work of every resolution; a campaign of
/// a hundred thousand resolutions is far beyond any real one.
pub const MAX_CHAIN_LENGTH: u32 = 100_000;

/// The whole chain, kept only by the store of the daemon that made it.
#[derive(Clone)]
pub struct HashChain {
    origin: Secret,
    length: u32,
    /// The umpire calls' own origin u_0, drawn apart from h_0 (spec v3), so
    /// that the turns' last revealed secret, h_0 itself, tells nothing of
    /// the calls' secrets. `None` in a campaign of spec v1 or v2, whose u_0
    /// is derived from h_0.
    umpire_origin: Option<Secret>,
}

/// Why a secret or a chain was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ChainError {
    /// A chain needs at least one resolution's secret.
    #[error("a hash chain must be at least 1 long")]
    EmptyChain,
    /// Longer than [`MAX_CHAIN_LENGTH`].
    #[error("a hash chain may be at most {MAX_CHAIN_LENGTH} long, not {0}")]
    TooLong(u32),
    /// Resolution numbers run from 1 to the chain length.
    #[error(
        "resolution {k} is outside the chain (1..={length}); the campaign has used up its secrets"
    )]
    OutOfRange { k: u64, length: u32 },
    /// SHA-256 of the revealed secret is not the previous link.
    #[error(
        "SHA-256 of the secret revealed for resolution {k} is {got}, not the previous link {expected}"
    )]
    BrokenLink {
        k: u64,
        expected: Digest32,
        got: Digest32,
    },
    /// The operating system would not give randomness.
    #[error("the operating system gave no randomness for the chain secret: {0}")]
    NoRandomness(String),
}

impl std::fmt::Debug for HashChain {
    /// Shows the length and the commitment, never the secret origin.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the commitment either: computing it hashes the whole chain.
        f.debug_struct("HashChain")
            .field("length", &self.length)
            .finish_non_exhaustive()
    }
}

impl HashChain {
    /// Builds the chain of `length` links on top of `origin` (h_0).
    pub fn new(origin: Secret, length: u32) -> Result<HashChain, ChainError> {
        if length == 0 {
            return Err(ChainError::EmptyChain);
        }
        if length > MAX_CHAIN_LENGTH {
            return Err(ChainError::TooLong(length));
        }
        Ok(HashChain {
            origin,
            length,
            umpire_origin: None,
        })
    }

    /// A chain whose umpire calls draw from an origin of their own (spec v3).
    pub fn with_umpire_origin(
        origin: Secret,
        umpire_origin: Secret,
        length: u32,
    ) -> Result<HashChain, ChainError> {
        let mut chain = HashChain::new(origin, length)?;
        chain.umpire_origin = Some(umpire_origin);
        Ok(chain)
    }

    /// Draws a fresh 32-byte h_0 and, apart from it, a fresh u_0 from the
    /// operating system.
    pub fn generate(length: u32) -> Result<HashChain, ChainError> {
        HashChain::with_umpire_origin(fresh()?, fresh()?, length)
    }

    /// The umpire calls' own chain, of the same length: from its own origin
    /// (spec v3), or from u_0 = SHA-256("adjutant-umpire-chain-v1" || h_0)
    /// in a campaign of spec v1 or v2. Calls draw from it so that no number
    /// of calls can move a turn onto another secret.
    pub fn umpire_chain(&self) -> HashChain {
        let origin = self.umpire_origin.unwrap_or_else(|| {
            let mut bytes = UMPIRE_CHAIN_TAG.to_vec();
            bytes.extend_from_slice(self.origin.as_bytes());
            Digest32::of(&bytes)
        });
        HashChain {
            origin,
            length: self.length,
            umpire_origin: None,
        }
    }

    /// The umpire calls' own origin, if drawn apart from h_0 (spec v3).
    pub fn umpire_origin(&self) -> Option<Secret> {
        self.umpire_origin
    }

    /// The chain resolutions of `kind` draw from.
    pub fn for_kind(&self, kind: Kind) -> HashChain {
        match kind {
            Kind::Turn => self.clone(),
            Kind::Umpire => self.umpire_chain(),
        }
    }

    pub fn origin(&self) -> Secret {
        self.origin
    }

    pub fn length(&self) -> u32 {
        self.length
    }

    /// h_i, by hashing h_0 i times. Chains are short (hundreds of links), so
    /// recomputing is cheaper than keeping every link in the store.
    pub fn link(&self, i: u32) -> Digest32 {
        let mut h = self.origin;
        for _ in 0..i {
            h = Digest32::of(h.as_bytes());
        }
        h
    }

    /// C = h_N.
    pub fn commitment(&self) -> Commitment {
        self.link(self.length)
    }

    /// r_k = h_(N-k), for k in 1..=N.
    pub fn secret_for(&self, k: u64) -> Result<Secret, ChainError> {
        if k == 0 || k > u64::from(self.length) {
            return Err(ChainError::OutOfRange {
                k,
                length: self.length,
            });
        }
        // k <= length <= u32::MAX, so the narrowing cannot fail.
        let k = u32::try_from(k).map_err(|_| ChainError::OutOfRange {
            k,
            length: self.length,
        })?;
        Ok(self.link(self.length - k))
    }
}

fn fresh() -> Result<Secret, ChainError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| ChainError::NoRandomness(e.to_string()))?;
    Ok(Digest32(bytes))
}

/// Checks that SHA-256(r_k) equals r_(k-1), where r_0 is the commitment.
pub fn check_link(k: u64, previous: &Digest32, revealed: &Secret) -> Result<(), ChainError> {
    let got = Digest32::of(revealed.as_bytes());
    if &got == previous {
        Ok(())
    } else {
        Err(ChainError::BrokenLink {
            k,
            expected: *previous,
            got,
        })
    }
}
