//! Exact non-negative fractions for publishable tables and for user-given probabilities.

use std::fmt;

/// A non-negative fraction `num / den` in lowest terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Frac {
    /// Numerator.
    pub num: u64,
    /// Denominator (at least 1).
    pub den: u64,
}

/// The greatest common divisor.
pub fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Frac {
    /// `num / den` in lowest terms; `None` when `den` is 0.
    pub fn new(num: u64, den: u64) -> Option<Frac> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den).max(1);
        Some(Frac {
            num: num / g,
            den: den / g,
        })
    }

    /// Parse `3/8`, `0.375` or `1`. `None` for anything else (negative numbers, garbage, a zero
    /// denominator, more than 18 decimal places).
    pub fn parse(s: &str) -> Option<Frac> {
        let s = s.trim();
        if let Some((a, b)) = s.split_once('/') {
            return Frac::new(a.trim().parse().ok()?, b.trim().parse().ok()?);
        }
        let (int, dec) = s.split_once('.').unwrap_or((s, ""));
        if (int.is_empty() && dec.is_empty())
            || !int.chars().all(|c| c.is_ascii_digit())
            || !dec.chars().all(|c| c.is_ascii_digit())
            || dec.len() > 18
        {
            return None;
        }
        let den = 10u64.checked_pow(dec.len() as u32)?;
        let int: u64 = if int.is_empty() { 0 } else { int.parse().ok()? };
        let dec_v: u64 = if dec.is_empty() { 0 } else { dec.parse().ok()? };
        Frac::new(int.checked_mul(den)?.checked_add(dec_v)?, den)
    }

    /// The value as a float.
    pub fn value(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// One minus this fraction (for a fraction at most 1).
    pub fn complement(self) -> Frac {
        Frac::new(self.den - self.num, self.den).expect("den > 0")
    }
}

impl fmt::Display for Frac {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

/// The least common multiple of the denominators, `None` past `u64`.
pub fn common_denominator(fracs: &[Frac]) -> Option<u64> {
    fracs
        .iter()
        .try_fold(1u64, |l, f| (l / gcd(l, f.den)).checked_mul(f.den))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_reduces() {
        assert_eq!(Frac::parse("0.25"), Frac::new(1, 4));
        assert_eq!(Frac::parse("2/6"), Frac::new(1, 3));
        assert_eq!(Frac::parse(".5"), Frac::new(1, 2));
        assert_eq!(Frac::parse("1"), Frac::new(1, 1));
        assert_eq!(Frac::parse("-1"), None);
        assert_eq!(Frac::parse("1/0"), None);
        assert_eq!(Frac::parse("abc"), None);
        assert_eq!(Frac::parse("."), None);
        assert_eq!(Frac::new(20, 36).unwrap().to_string(), "5/9");
        assert_eq!(
            common_denominator(&[Frac::new(1, 4).unwrap(), Frac::new(1, 6).unwrap()]),
            Some(12)
        );
    }
}
