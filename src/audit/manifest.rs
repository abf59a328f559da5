//! The manifest: which orders each side had in when a phase closed, fixed and
//! mailed to every side before the dice of that resolution exist.

use super::digest::Digest32;
use super::kind::Kind;

/// The first line of every manifest; it names the format's version.
pub const MANIFEST_HEADER: &str = "adjutant-manifest-v1";

/// The first line of a manifest that names the beacon round its seed will
/// take (spec v3 with a drand beacon).
pub const MANIFEST_HEADER_WITH_ROUND: &str = "adjutant-manifest-v3";

/// Who gave the orders of an umpire call. Side ids may not start with `@`,
/// so this cannot collide with a side.
pub const UMPIRE: &str = "@umpire";

/// One side's entry: the digest of its canonical orders, or none sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideOrders {
    pub side: String,
    pub digest: Option<Digest32>,
}

/// The manifest of resolution `resolution` of a campaign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    pub kind: Kind,
    pub campaign: String,
    /// The number among resolutions of its kind, from 1.
    pub resolution: u64,
    /// The phase that closed, e.g. `turn 3 orders (french active)`, or `umpire`.
    pub phase: String,
    /// The drand round whose randomness the seed will take, named before
    /// the round is published (spec v3 with a drand beacon).
    pub beacon_round: Option<u64>,
    /// One entry per side; [`Manifest::text`] sorts them by side id.
    pub sides: Vec<SideOrders>,
}

impl Manifest {
    /// The canonical text: LF-terminated lines, sides sorted by id byte order.
    /// Its SHA-256 is the manifest digest that goes into the seed.
    pub fn text(&self) -> String {
        let mut sides: Vec<&SideOrders> = self.sides.iter().collect();
        sides.sort_by(|a, b| a.side.as_bytes().cmp(b.side.as_bytes()));
        let header = match self.beacon_round {
            None => MANIFEST_HEADER,
            Some(_) => MANIFEST_HEADER_WITH_ROUND,
        };
        let mut out = format!(
            "{header}\ncampaign {}\n{} {}\nphase {}\n",
            one_line(&self.campaign),
            self.kind.manifest_word(),
            self.resolution,
            one_line(&self.phase)
        );
        if let Some(round) = self.beacon_round {
            out.push_str(&format!("beacon drand round {round}\n"));
        }
        for entry in sides {
            let digest = entry
                .digest
                .map_or_else(|| "none".to_string(), |d| d.to_hex());
            out.push_str(&format!("orders {} {}\n", one_line(&entry.side), digest));
        }
        out
    }

    pub fn digest(&self) -> Digest32 {
        Digest32::of(self.text().as_bytes())
    }
}

/// The digest of a side's canonical orders text.
pub fn orders_digest(canonical_orders: &str) -> Digest32 {
    Digest32::of(canonical_orders.as_bytes())
}

/// Fields are single tokens or phrases on one line; a stray line break would
/// let one field forge another, so it is folded to a space.
fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(sides: &[(&str, Option<&str>)]) -> Manifest {
        Manifest {
            beacon_round: None,
            kind: Kind::Turn,
            campaign: "c".into(),
            resolution: 7,
            phase: "turn 4 orders (b active)".into(),
            sides: sides
                .iter()
                .map(|(s, t)| SideOrders {
                    side: s.to_string(),
                    digest: t.map(orders_digest),
                })
                .collect(),
        }
    }

    #[test]
    fn the_order_sides_are_listed_in_does_not_change_the_manifest() {
        let a = manifest(&[
            ("b", Some("hold x\n")),
            ("a", None),
            ("c", Some("hold y\n")),
        ]);
        let b = manifest(&[
            ("c", Some("hold y\n")),
            ("b", Some("hold x\n")),
            ("a", None),
        ]);
        assert_eq!(a.text(), b.text());
        assert_eq!(a.digest(), b.digest());
    }

    #[test]
    fn a_line_break_in_a_field_cannot_forge_another_line() {
        let forged = Manifest {
            beacon_round: None,
            phase: "x\norders a none".into(),
            ..manifest(&[])
        };
        assert_eq!(forged.text().lines().count(), 4);
    }

    #[test]
    fn any_change_of_orders_changes_the_digest() {
        let a = manifest(&[("a", Some("hold x\n"))]);
        let b = manifest(&[("a", Some("hold x\nsalt 1\n"))]);
        assert_ne!(a.digest(), b.digest());
    }
}
