//! Comparisons of each variant with its baseline (the first variant, or the one it names in
//! `against`) at the same sweep point:
//! the difference of every outcome probability and metric, its interval, a p-value, and whether
//! it can be told apart from chance.
//!
//! Proportions: Newcombe's hybrid score interval for a difference (method 10, from the two
//! Wilson intervals) and the pooled two-proportion z-test. Means: the normal interval and
//! z-test from the two standard errors. Outcomes are matched by name; `eliminated` and
//! `removed` both mean the unit is gone and are matched with each other.

use serde::Serialize;

use super::{ExperimentResult, SetValue};
use crate::report::{Cell, MetricRow};
use crate::stats::{two_sided_p, z_for_confidence};

/// One difference between a variant and the baseline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// The sweep point.
    pub point: Vec<SetValue>,
    /// The variant compared.
    pub variant: String,
    /// The baseline variant.
    pub baseline: String,
    /// `outcome` or `metric`.
    pub kind: String,
    /// The outcome or metric (the variant's name for it).
    pub name: String,
    /// The variant's estimate.
    pub estimate: f64,
    /// The baseline's estimate.
    pub baseline_estimate: f64,
    /// Variant minus baseline.
    pub difference: f64,
    /// Lower end of the difference's interval.
    pub low: f64,
    /// Upper end of the difference's interval.
    pub high: f64,
    /// Two-sided p-value of "no difference"; `None` when the test cannot be made (a mean with
    /// no standard error, or none on either side: no spread to test against).
    pub p_value: Option<f64>,
    /// The p-value adjusted by Holm's method for the family of comparisons a reader scans at
    /// once: every row of the experiment's comparison table decided by its estimates (every
    /// outcome and metric, each variant against the baseline, at every sweep point). `None`
    /// where the exact difference is known (it decides) or no test can be made. Equal to
    /// `p_value` in a family of one.
    pub p_adjusted: Option<f64>,
    /// How many comparisons with a p-value that family has.
    pub family: usize,
    /// The difference is real: where the exact difference is known, it is not zero (the exact
    /// values decide); else the estimates' difference is distinguishable from chance at the
    /// experiment's confidence level after Holm's adjustment (false when no test can be made).
    pub distinguishable: bool,
    /// The exact difference, where both exact values are known.
    pub exact_difference: Option<f64>,
}

/// Outcome names that mean the same thing across systems.
pub(crate) fn same_outcome(a: &str, b: &str) -> bool {
    let gone = |s: &str| s == "eliminated" || s == "removed";
    a == b || (gone(a) && gone(b))
}

/// A difference with its interval and p-value: (difference, low, high, p-value or `None` when
/// no test can be made).
pub type Difference = (f64, f64, f64, Option<f64>);

/// Newcombe's interval of the difference `pa − pb` of two proportions, from each one's own
/// interval (`(la, ua)` of `pa`, `(lb, ub)` of `pb`).
pub fn newcombe(pa: f64, (la, ua): (f64, f64), pb: f64, (lb, ub): (f64, f64)) -> (f64, f64) {
    let d = pa - pb;
    (
        d - ((pa - la).powi(2) + (ub - pb).powi(2)).sqrt(),
        d + ((ua - pa).powi(2) + (pb - lb).powi(2)).sqrt(),
    )
}

/// The difference of two estimated proportions `a − b` with Newcombe's interval and the
/// pooled z-test. Returns `None` without counts.
pub fn proportions(a: &Cell, na: u64, b: &Cell, nb: u64) -> Option<Difference> {
    let (ka, kb) = (a.count?, b.count?);
    let (la, ua, lb, ub) = (a.ci_low?, a.ci_high?, b.ci_low?, b.ci_high?);
    let (pa, pb) = (a.p, b.p);
    let d = pa - pb;
    let (low, high) = newcombe(pa, (la, ua), pb, (lb, ub));
    let pooled = (ka + kb) as f64 / (na + nb) as f64;
    let se = (pooled * (1.0 - pooled) * (1.0 / na as f64 + 1.0 / nb as f64)).sqrt();
    let p = if se > 0.0 {
        two_sided_p(d / se)
    } else if d == 0.0 {
        1.0
    } else {
        0.0
    };
    Some((d, low, high, Some(p)))
}

/// The difference of two means `a − b` with its normal interval at quantile `z` and z-test.
/// The test cannot be made (p-value `None`) when either side has no standard error, or both
/// have none above zero: there is no spread to measure the difference against.
pub fn means(a: &MetricRow, b: &MetricRow, z: f64) -> Option<Difference> {
    let (va, vb) = (a.value?, b.value?);
    let d = va - vb;
    let se = a
        .stderr
        .zip(b.stderr)
        .map(|(x, y)| (x * x + y * y).sqrt())
        .filter(|se| *se > 0.0);
    Some(match se {
        Some(se) => (d, d - z * se, d + z * se, Some(two_sided_p(d / se))),
        None => (d, d, d, None),
    })
}

/// Holm's step-down adjustment of `p` (in any order; `None`s are left out of the family and
/// stay `None`): the i-th smallest of m becomes max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎).
pub fn holm(p: &[Option<f64>]) -> Vec<Option<f64>> {
    let mut order: Vec<usize> = (0..p.len()).filter(|&i| p[i].is_some()).collect();
    order.sort_by(|&i, &j| p[i].unwrap().total_cmp(&p[j].unwrap()).then(i.cmp(&j)));
    let m = order.len();
    let mut out = vec![None; p.len()];
    let mut running = 0.0f64;
    for (rank, &i) in order.iter().enumerate() {
        let scaled = ((m - rank) as f64 * p[i].unwrap()).min(1.0);
        running = running.max(scaled);
        out[i] = Some(running);
    }
    out
}

/// Every comparison of an experiment's variants with their baselines, point by point.
pub fn compare(result: &ExperimentResult) -> Vec<Comparison> {
    let exp = &result.experiment;
    let alpha = 1.0 - exp.confidence;
    let z = z_for_confidence(exp.confidence);
    let per_point = exp.variants.len();
    let mut out = Vec::new();
    for chunk in result.runs.chunks(per_point) {
        for run in chunk {
            let Some(b) = exp.baseline_of(run.variant) else {
                continue;
            };
            let Some(base) = chunk.iter().find(|r| r.variant == b) else {
                continue;
            };
            let row = |kind: &str,
                       name: &str,
                       est: f64,
                       base_est: f64,
                       stats: Difference,
                       exact: Option<f64>| Comparison {
                point: run.point.clone(),
                variant: exp.variants[run.variant].name.clone(),
                baseline: exp.variants[base.variant].name.clone(),
                kind: kind.into(),
                name: name.into(),
                estimate: est,
                baseline_estimate: base_est,
                difference: stats.0,
                low: stats.1,
                high: stats.2,
                p_value: stats.3,
                p_adjusted: stats.3,
                family: 1,
                distinguishable: false,
                exact_difference: exact,
            };
            for o in &run.report.outcomes {
                let Some(b) = base
                    .report
                    .outcomes
                    .iter()
                    .find(|b| same_outcome(&b.outcome, &o.outcome))
                else {
                    continue;
                };
                if let Some(stats) =
                    proportions(&o.cell, run.report.trials, &b.cell, base.report.trials)
                {
                    let exact = o.cell.exact.zip(b.cell.exact).map(|(x, y)| x - y);
                    out.push(row("outcome", &o.outcome, o.cell.p, b.cell.p, stats, exact));
                }
            }
            for m in &run.report.metrics {
                let Some(b) = base.report.metrics.iter().find(|b| b.name == m.name) else {
                    continue;
                };
                if let Some(stats) = means(m, b, z) {
                    let exact = m.exact.zip(b.exact).map(|(x, y)| x - y);
                    out.push(row(
                        "metric",
                        &m.name,
                        m.value.unwrap_or(f64::NAN),
                        b.value.unwrap_or(f64::NAN),
                        stats,
                        exact,
                    ));
                }
            }
        }
    }
    judge(&mut out, alpha);
    out
}

/// An exact difference this close to 0 is none: the two processes are the same.
pub const EXACTLY_ZERO: f64 = 1e-12;

/// Decide every comparison: where the exact difference is known it decides (not zero: a real
/// difference); the rest — every row a reader scans at once in the comparison table, whatever
/// its outcome, metric, variant or sweep point — are one family, their p-values adjusted
/// together by Holm's method, so that with no real difference anywhere the chance that any
/// row is called real stays at most 1 − confidence.
fn judge(out: &mut [Comparison], alpha: f64) {
    let tested: Vec<usize> = (0..out.len())
        .filter(|&i| out[i].exact_difference.is_none())
        .collect();
    let raw: Vec<Option<f64>> = tested.iter().map(|&i| out[i].p_value).collect();
    let family = raw.iter().flatten().count();
    for (&i, adjusted) in tested.iter().zip(holm(&raw)) {
        out[i].p_adjusted = adjusted;
        out[i].family = family;
        out[i].distinguishable = adjusted.is_some_and(|p| p < alpha);
    }
    for c in out.iter_mut().filter(|c| c.exact_difference.is_some()) {
        c.p_adjusted = None;
        c.family = family;
        c.distinguishable = c.exact_difference.is_some_and(|e| e.abs() >= EXACTLY_ZERO);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::wilson;

    fn cell(k: u64, n: u64) -> Cell {
        let (lo, hi) = wilson(k, n, 1.959_963_984_540_054);
        Cell {
            count: Some(k),
            p: k as f64 / n as f64,
            ci_low: Some(lo),
            ci_high: Some(hi),
            exact: None,
        }
    }

    #[test]
    fn newcombe_interval_textbook_example() {
        // Newcombe (1998), example (a): 56/70 against 48/80: difference 0.2, interval
        // 0.0524 to 0.3339 (method 10).
        let (d, lo, hi, p) = proportions(&cell(56, 70), 70, &cell(48, 80), 80).unwrap();
        assert!((d - 0.2).abs() < 1e-12);
        assert!((lo - 0.0524).abs() < 5e-4, "{lo}");
        assert!((hi - 0.3339).abs() < 5e-4, "{hi}");
        assert!(p.unwrap() < 0.01);
        let (_, _, _, p) = proportions(&cell(50, 100), 100, &cell(50, 100), 100).unwrap();
        assert!((p.unwrap() - 1.0).abs() < 1e-12);
        assert!(same_outcome("eliminated", "removed") && !same_outcome("good", "removed"));
    }

    #[test]
    fn holm_adjusts_step_down_and_keeps_order() {
        // Holm (1979) by hand: m = 4, sorted 0.01, 0.02, 0.03, 0.04 become 0.04, 0.06, 0.06,
        // 0.06 (monotone), in the input's order; a missing test stays out of the family.
        let p = [Some(0.03), None, Some(0.01), Some(0.04), Some(0.02)];
        let a = holm(&p);
        let want = [Some(0.06), None, Some(0.04), Some(0.06), Some(0.06)];
        for (x, y) in a.iter().zip(want) {
            match (x, y) {
                (Some(x), Some(y)) => assert!((x - y).abs() < 1e-15, "{a:?}"),
                (None, None) => {}
                _ => panic!("{a:?}"),
            }
        }
        // Scaled values past 1 are 1; a family of one is unchanged.
        assert_eq!(holm(&[Some(0.6), Some(0.7)]), vec![Some(1.0), Some(1.0)]);
        assert_eq!(holm(&[Some(0.2)]), vec![Some(0.2)]);
    }

    #[test]
    fn a_mean_with_no_spread_cannot_be_tested() {
        let row = |value: f64, stderr: Option<f64>| MetricRow {
            name: "turns_to_removal".into(),
            value: Some(value),
            stderr,
            exact: None,
            n: Some(100),
            meaning: String::new(),
        };
        let (d, _, _, p) = means(&row(3.0, Some(0.0)), &row(2.0, Some(0.0)), 1.96).unwrap();
        assert_eq!((d, p), (1.0, None));
        assert_eq!(
            means(&row(3.0, None), &row(2.0, Some(0.1)), 1.96)
                .unwrap()
                .3,
            None
        );
        let (_, lo, hi, p) = means(&row(3.0, Some(0.3)), &row(2.0, Some(0.4)), 1.96).unwrap();
        assert!((hi - lo - 2.0 * 1.96 * 0.5).abs() < 1e-12);
        assert!(p.unwrap() > 0.0 && p.unwrap() < 0.1);
    }
}
