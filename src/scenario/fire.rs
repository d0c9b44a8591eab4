//! The enemy's fire in `under-fire`: how many losses a turn of fire causes (docs/RULES.md §4).

use crate::dice::{Hits, Roll, Weights};
use crate::error::{Error, Result};
use crate::frac::{Frac, common_denominator};

/// Dice in one exact table; larger volleys are the sum of several tables.
const DICE_PER_TABLE: u32 = 20;

/// A turn of enemy fire, in the system's own loss unit (stands, hits, quarters or pips).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fire {
    hits: Hits,
    description: String,
}

impl Fire {
    /// `dice` dice each hitting on `to_hit` or more: the number of hits has exactly the
    /// distribution of rolling them.
    pub fn dice(dice: u32, to_hit: u8) -> Fire {
        Fire {
            hits: Hits::dice(dice, to_hit, DICE_PER_TABLE),
            description: format!("{dice} dice hitting on {to_hit}+"),
        }
    }

    /// An explicit distribution: `probs[k]` is the chance of `k` losses in a turn. `None` unless
    /// the probabilities add up to exactly 1 over a common denominator that fits 64 bits.
    pub fn table(probs: &[Frac]) -> Option<Fire> {
        let den = common_denominator(probs)?;
        let weights: Vec<u64> = probs.iter().map(|f| f.num * (den / f.den)).collect();
        let total = weights.iter().try_fold(0u64, |a, &w| a.checked_add(w))?;
        if total != den {
            return None;
        }
        let text: Vec<String> = probs.iter().map(|f| f.to_string()).collect();
        Some(Fire {
            hits: Hits::of(vec![Weights::new(weights)?]),
            description: format!("losses per turn 0.. with chances {}", text.join(", ")),
        })
    }

    /// No fire at all.
    pub fn none() -> Fire {
        Fire {
            hits: Hits::of(Vec::new()),
            description: "no fire".into(),
        }
    }

    /// The most losses one turn can cause.
    #[cfg(test)]
    pub fn max(&self) -> u32 {
        self.hits.max()
    }

    /// The expected losses per turn.
    pub fn mean(&self) -> f64 {
        self.hits
            .parts()
            .iter()
            .map(|t| (0..t.len()).map(|k| k as f64 * t.p(k)).sum::<f64>())
            .sum()
    }

    /// A one-line description for reports.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// One turn's losses.
    #[inline]
    pub fn sample<R: Roll>(&self, r: &mut R) -> u32 {
        r.hits(&self.hits)
    }
}

/// The enemy's fire as its parameters give it: `fire_dice` dice on `fire_to_hit`+, or the
/// chances of each loss a turn (`fire_loss`).
#[derive(Debug, Clone)]
pub struct FireParams {
    /// Dice a turn.
    pub dice: u32,
    /// The roll each needs.
    pub to_hit: u8,
    /// Chances of 0, 1, 2 … losses a turn (empty: the dice).
    pub loss: Vec<Frac>,
    /// The flag or key that gave `fire_dice`, if the user gave it (not its default).
    pub dice_given: Option<String>,
    /// The flag or key that gives `fire_loss`, for a message.
    pub loss_what: String,
}

/// The enemy's fire of `under-fire` from the keys `fire_dice`, `fire_to_hit` and `fire_loss`
/// (an explicit distribution of losses per turn, which replaces the dice).
///
/// # Errors
/// Both models given at once, or a distribution that does not add up to 1.
pub fn fire_model(p: &FireParams) -> Result<Fire> {
    let table = &p.loss;
    if table.is_empty() {
        return Ok(Fire::dice(p.dice, p.to_hit));
    }
    if let Some(dice) = &p.dice_given {
        return Err(Error::Conflict(format!(
            "--set fire_loss and {dice} are two fire models: give one of them"
        )));
    }
    Fire::table(table).ok_or_else(|| Error::Invalid {
        what: p.loss_what.clone(),
        value: table
            .iter()
            .map(|f| f.to_string())
            .collect::<Vec<_>>()
            .join(","),
        allowed: "the chances must add up to exactly 1".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::enumerate;

    #[test]
    fn large_volleys_split_into_tables() {
        let f = Fire::dice(45, 4);
        assert_eq!(f.max(), 45);
        assert!((f.mean() - 22.5).abs() < 1e-9);
        assert_eq!(Fire::none().max(), 0);
    }

    #[test]
    fn explicit_table_must_sum_to_one() {
        let p = |s: &str| Frac::parse(s).unwrap();
        assert!(Fire::table(&[p("0.5"), p("1/3"), p("1/6")]).is_some());
        assert!(Fire::table(&[p("0.5"), p("0.4")]).is_none());
        let f = Fire::table(&[p("0.25"), p("0.75")]).unwrap();
        let mut mean = 0.0;
        enumerate(|o| f.sample(o), |k, q| mean += f64::from(k) * q);
        assert!((mean - 0.75).abs() < 1e-15);
    }
}
