//! A run series' spread: its median with an interval from order statistics, its range, and its
//! outliers (Tukey's fences).

use super::*;

/// Several measurements of one rate (or time): their median with an interval, least and
/// greatest, and every one of them.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Spread {
    /// The median.
    pub median: f64,
    /// The least.
    pub min: f64,
    /// The greatest.
    pub max: f64,
    /// (max − min) / median.
    pub spread: f64,
    /// The median's interval (order statistics: it holds the true median with probability
    /// `confidence` whatever the distribution of the runs).
    pub ci_low: f64,
    /// Its upper end.
    pub ci_high: f64,
    /// The interval's confidence: 95%, or the most the repeats allow (93.75% with 5).
    pub confidence: f64,
    /// The interval is wider than [`NOISE`] of the median: the runs disagree.
    pub noisy: bool,
    /// What the samples measure: `trials/s`, `ms` (a solve, a request) or `ratio`.
    #[serde(default)]
    pub unit: String,
    /// The runs (places in `samples`, from 0) beyond Tukey's fences ([`FENCE`] interquartile
    /// ranges outside the quartiles): flagged, still counted.
    #[serde(default)]
    pub outliers: Vec<usize>,
    /// Every run's figure, in the order they ran (warm-up runs not among them).
    pub samples: Vec<f64>,
}

/// P(X ≤ k) for X ~ Binomial(n, ½).
pub(super) fn binomial_half_cdf(n: usize, k: usize) -> f64 {
    let mut term = 0.5f64.powi(n as i32);
    let mut sum = 0.0;
    for i in 0..=k.min(n) {
        sum += term;
        term *= (n - i) as f64 / (i + 1) as f64;
    }
    sum
}

/// The median of sorted figures.
pub(crate) fn median_of_sorted(xs: &[f64]) -> f64 {
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// The median's interval from order statistics at `confidence` (it holds the true median with
/// that probability whatever the distribution of the runs): its ends and its own confidence,
/// which with too few runs is the most the extremes give (93.75% with 5).
pub(crate) fn median_interval(xs: &[f64], confidence: f64) -> (f64, f64, f64) {
    let n = xs.len();
    // The widest k with [x(k), x(n+1−k)] holding the median at `confidence`.
    let mut k = 1;
    while k < n / 2 && 2.0 * binomial_half_cdf(n, k) <= 1.0 - confidence {
        k += 1;
    }
    (
        xs[k - 1],
        xs[n - k],
        1.0 - 2.0 * binomial_half_cdf(n, k - 1),
    )
}

/// The places of the figures beyond Tukey's fences (quartiles by linear interpolation).
pub(super) fn outliers(samples: &[f64], sorted: &[f64]) -> Vec<usize> {
    let n = sorted.len();
    if n < 4 {
        return Vec::new();
    }
    let quantile = |p: f64| {
        let h = (n - 1) as f64 * p;
        let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
        sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
    };
    let (q1, q3) = (quantile(0.25), quantile(0.75));
    let (low, high) = (q1 - FENCE * (q3 - q1), q3 + FENCE * (q3 - q1));
    (0..samples.len())
        .filter(|&i| samples[i] < low || samples[i] > high)
        .collect()
}

impl Spread {
    /// The figures of `samples`, in the order they ran, measured in `unit`.
    pub fn of(samples: Vec<f64>, unit: &str) -> Spread {
        let mut xs = samples.clone();
        xs.sort_by(f64::total_cmp);
        let n = xs.len();
        let median = median_of_sorted(&xs);
        let (min, max) = (xs[0], xs[n - 1]);
        let (ci_low, ci_high, confidence) = median_interval(&xs, CONFIDENCE);
        let rel = |w: f64| if median > 0.0 { w / median } else { 0.0 };
        Spread {
            median,
            min,
            max,
            spread: rel(max - min),
            ci_low,
            ci_high,
            confidence,
            noisy: rel(ci_high - ci_low) > NOISE,
            unit: unit.into(),
            outliers: outliers(&samples, &xs),
            samples,
        }
    }

    /// The median's interval's width over the median.
    pub fn width(&self) -> f64 {
        if self.median > 0.0 {
            (self.ci_high - self.ci_low) / self.median
        } else {
            0.0
        }
    }
}
