//! Modifiers that multiply (x2, x2/3, 1/3) as well as add, on exact
//! fractions: a chance or a strength is carried unrounded through every
//! modifier and rounded once, where the ruleset's ruling says, to a whole
//! number or a whole percent. No floating point: the same figures on every
//! machine.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A positive fraction a value is multiplied by: `x2`, `x2/3`, `1/3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ratio {
    numerator: u32,
    denominator: u32,
}

impl Ratio {
    /// `numerator / denominator`, in lowest terms; `None` for a zero
    /// denominator.
    pub fn new(numerator: u32, denominator: u32) -> Option<Ratio> {
        if denominator == 0 {
            return None;
        }
        let g = gcd(u64::from(numerator), u64::from(denominator)) as u32;
        let g = g.max(1);
        Some(Ratio {
            numerator: numerator / g,
            denominator: denominator / g,
        })
    }

    pub fn whole(n: u32) -> Ratio {
        Ratio {
            numerator: n,
            denominator: 1,
        }
    }

    pub fn numerator(self) -> u32 {
        self.numerator
    }

    pub fn denominator(self) -> u32 {
        self.denominator
    }

    /// Reads a multiplier as the rules print it: `x2`, `×2`, `x2/3`, `2/3`,
    /// `1/3`, `(1/3)`.
    pub fn parse(text: &str) -> Option<Ratio> {
        let t = text.trim();
        let t = t
            .strip_prefix('(')
            .and_then(|t| t.strip_suffix(')'))
            .unwrap_or(t);
        let t = t
            .strip_prefix('x')
            .or_else(|| t.strip_prefix('×'))
            .or_else(|| t.strip_prefix('X'))
            .unwrap_or(t)
            .trim();
        match t.split_once('/') {
            Some((n, d)) => Ratio::new(n.trim().parse().ok()?, d.trim().parse().ok()?),
            None => Some(Ratio::whole(t.parse().ok()?)),
        }
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.denominator == 1 {
            write!(f, "x{}", self.numerator)
        } else {
            write!(f, "x{}/{}", self.numerator, self.denominator)
        }
    }
}

/// One multiplier with the rule that gives it, as a [`Modifier`] is one
/// addition.
///
/// [`Modifier`]: super::Modifier
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Factor {
    /// The rule's own words, e.g. `Opportunity fire`.
    pub reason: String,
    pub ratio: Ratio,
}

impl Factor {
    pub fn new(reason: impl Into<String>, ratio: Ratio) -> Factor {
        Factor {
            reason: reason.into(),
            ratio,
        }
    }
}

/// An exact value while modifiers apply to it: a fraction, kept in lowest
/// terms with a positive denominator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Exact {
    numerator: i128,
    denominator: i128,
}

impl Exact {
    pub fn whole(n: i64) -> Exact {
        Exact {
            numerator: i128::from(n),
            denominator: 1,
        }
    }

    fn reduced(numerator: i128, denominator: i128) -> Exact {
        let g = gcd_i128(numerator, denominator).max(1);
        let sign = if denominator < 0 { -1 } else { 1 };
        Exact {
            numerator: sign * numerator / g,
            denominator: sign * denominator / g,
        }
    }

    /// The value plus a whole number (a modifier that adds).
    pub fn plus(self, n: i64) -> Exact {
        Exact::reduced(
            self.numerator + i128::from(n) * self.denominator,
            self.denominator,
        )
    }

    /// The value times a ratio (a modifier that multiplies).
    pub fn times(self, ratio: Ratio) -> Exact {
        Exact::reduced(
            self.numerator * i128::from(ratio.numerator),
            self.denominator * i128::from(ratio.denominator),
        )
    }

    /// The value times every factor, in order.
    pub fn times_all(self, factors: &[Factor]) -> Exact {
        factors.iter().fold(self, |v, f| v.times(f.ratio))
    }

    /// Rounded up to the next whole number (26.67 is 27, -2.5 is -2).
    pub fn round_up(self) -> i64 {
        let q = self.numerator.div_euclid(self.denominator);
        let up = q + i128::from(self.numerator.rem_euclid(self.denominator) != 0);
        clamp(up)
    }

    /// Rounded down (26.67 is 26, -2.5 is -3).
    pub fn round_down(self) -> i64 {
        clamp(self.numerator.div_euclid(self.denominator))
    }

    /// Rounded to the nearest whole number, halves up (2.5 is 3).
    pub fn round_nearest(self) -> i64 {
        Exact::reduced(2 * self.numerator + self.denominator, 2 * self.denominator).round_down()
    }

    pub fn is_whole(self) -> bool {
        self.denominator == 1
    }
}

impl fmt::Display for Exact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.denominator == 1 {
            write!(f, "{}", self.numerator)
        } else {
            write!(f, "{}/{}", self.numerator, self.denominator)
        }
    }
}

/// A percentage after its multipliers, rounded up once, at the end, from
/// the unrounded product: "90% x2/3 x2/3 x2/3" is 26.67%, so 27%.
pub fn percent_rounded_up_once(base: i64, factors: &[Factor]) -> i64 {
    Exact::whole(base).times_all(factors).round_up()
}

/// A percentage after its multipliers, rounded up to a whole percent after
/// each one: "20% x2/3 x2/3" is 14%, then 10%.
pub fn percent_rounded_up_each(base: i64, factors: &[Factor]) -> i64 {
    factors
        .iter()
        .fold(base, |p, f| Exact::whole(p).times(f.ratio).round_up())
}

fn clamp(n: i128) -> i64 {
    i64::try_from(n).unwrap_or(if n < 0 { i64::MIN } else { i64::MAX })
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn gcd_i128(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_thirds(n: usize) -> Vec<Factor> {
        let r = Ratio::parse("x2/3").expect("reads");
        (0..n).map(|_| Factor::new("Repeated fire", r)).collect()
    }

    #[test]
    fn ratios_read_as_the_rules_print_them() {
        assert_eq!(Ratio::parse("x2"), Ratio::new(2, 1));
        assert_eq!(Ratio::parse("×2"), Ratio::new(2, 1));
        assert_eq!(Ratio::parse("x2/3"), Ratio::new(2, 3));
        assert_eq!(Ratio::parse("(1/3)"), Ratio::new(1, 3));
        assert_eq!(Ratio::parse("2/4"), Ratio::new(1, 2));
        assert_eq!(Ratio::parse("1/0"), None);
        assert_eq!(Ratio::parse("twice"), None);
        assert_eq!(
            Ratio::new(4, 6).map(|r| r.to_string()),
            Some("x2/3".to_string())
        );
        assert_eq!(Ratio::whole(2).to_string(), "x2");
    }

    /// 003, 11.87: "90% -> 60% -> 40% -> 27%": three repeated fires of x2/3
    /// from 90%, rounded up once from the product (90 x 8/27 = 26.67).
    #[test]
    fn the_repeated_fire_example_rounds_up_once_at_the_end() {
        assert_eq!(percent_rounded_up_once(90, &two_thirds(1)), 60);
        assert_eq!(percent_rounded_up_once(90, &two_thirds(2)), 40);
        assert_eq!(percent_rounded_up_once(90, &two_thirds(3)), 27);
        assert_eq!(percent_rounded_up_each(90, &two_thirds(3)), 27);
    }

    /// Where the two readings part: 20% twice x2/3 is 9% from the product
    /// (8.89) and 10% step by step (14, then 9.33).
    #[test]
    fn rounding_once_and_at_each_step_differ_for_other_bases() {
        assert_eq!(percent_rounded_up_once(20, &two_thirds(2)), 9);
        assert_eq!(percent_rounded_up_each(20, &two_thirds(2)), 10);
    }

    #[test]
    fn multiplying_and_adding_stay_exact_until_rounded() {
        let third = Ratio::parse("1/3").expect("reads");
        let double = Ratio::parse("x2").expect("reads");
        let v = Exact::whole(10).times(third);
        assert_eq!(v.to_string(), "10/3");
        assert!(!v.is_whole());
        assert_eq!(v.times(double).plus(1).to_string(), "23/3");
        assert_eq!(v.times(Ratio::whole(3)), Exact::whole(10));
        assert_eq!(Exact::whole(80).times(third).round_up(), 27);
        assert_eq!(Exact::whole(80).times(third).round_down(), 26);
        assert_eq!(Exact::whole(80).times(third).round_nearest(), 27);
        assert_eq!(
            Exact::whole(5)
                .times(Ratio::new(1, 2).expect("ratio"))
                .round_nearest(),
            3
        );
        assert_eq!(
            Exact::whole(-5)
                .times(Ratio::new(1, 2).expect("ratio"))
                .round_up(),
            -2
        );
        assert_eq!(
            Exact::whole(-5)
                .times(Ratio::new(1, 2).expect("ratio"))
                .round_down(),
            -3
        );
    }
}
