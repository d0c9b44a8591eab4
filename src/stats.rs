//! Interval estimates: Wilson score intervals for probabilities, means with standard errors from
//! integer histograms. Wilson intervals stay accurate at counts in the billions, where a Beta
//! inverse CDF can be slow or wrong (DESIGN.md, "Statistics").

/// The two-sided standard normal quantile for a confidence level, e.g. 0.95 → 1.959964.
///
/// Acklam's rational approximation refined by one Halley step (error below 1e-12 on (0, 1)).
pub fn z_for_confidence(confidence: f64) -> f64 {
    inverse_normal_cdf(0.5 + confidence / 2.0)
}

/// The standard normal quantile function Φ⁻¹(p) for 0 < p < 1.
pub fn inverse_normal_cdf(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let plow = 0.02425;
    let x = if p < plow {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else if p <= 1.0 - plow {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    } else {
        let q = (-2.0 * (1.0 - p).ln()).sqrt();
        -(((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    // One Halley refinement step against the complementary error function.
    let e = 0.5 * erfc(-x / std::f64::consts::SQRT_2) - p;
    let u = e * (2.0 * std::f64::consts::PI).sqrt() * (x * x / 2.0).exp();
    x - u / (1.0 + x * u / 2.0)
}

/// The complementary error function: the Taylor series of erf below 0.5, Laplace's continued
/// fraction (evaluated by Lentz's method) above; relative error near machine precision.
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let r = if z < 0.5 {
        1.0 - erf_series(z)
    } else {
        erfc_continued_fraction(z)
    };
    if x < 0.0 { 2.0 - r } else { r }
}

fn erf_series(x: f64) -> f64 {
    // erf(x) = 2/√π Σ (−1)^n x^(2n+1) / (n! (2n+1))
    let mut sum = 0.0;
    let mut term = x;
    let x2 = x * x;
    for n in 0..60 {
        let t = term / (2 * n + 1) as f64;
        sum += t;
        if t.abs() < 1e-17 * sum.abs() {
            break;
        }
        term *= -x2 / (n + 1) as f64;
    }
    sum * 2.0 / std::f64::consts::PI.sqrt()
}

fn erfc_continued_fraction(x: f64) -> f64 {
    // Lentz's algorithm for erfc(x) = exp(−x²)/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + …))))
    let tiny = 1e-300;
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for n in 1..500 {
        let a = n as f64 / 2.0;
        d = x + a * d;
        d = if d.abs() < tiny { tiny } else { d };
        c = x + a / c;
        c = if c.abs() < tiny { tiny } else { c };
        d = 1.0 / d;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / f
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

    #[test]
    fn normal_quantiles() {
        assert!((z_for_confidence(0.95) - 1.959_963_984_540_054).abs() < 1e-9);
        assert!((z_for_confidence(0.99) - 2.575_829_303_548_901).abs() < 1e-9);
        assert!((inverse_normal_cdf(0.5)).abs() < 1e-12);
        assert!((inverse_normal_cdf(1e-6) + 4.753_424_308_822_899).abs() < 1e-8);
        assert!((erfc(1.0) - 0.157_299_207_050_285_13).abs() < 1e-14);
        assert!((erfc(-0.3) - 1.328_626_759_459_127_4).abs() < 1e-14);
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
