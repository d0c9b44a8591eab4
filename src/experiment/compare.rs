//! Comparisons of each variant with the baseline (the first variant) at the same sweep point:
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
    /// Two-sided p-value of "no difference".
    pub p_value: f64,
    /// The difference is distinguishable from chance at the experiment's confidence level.
    pub distinguishable: bool,
    /// The exact difference, where both exact values are known.
    pub exact_difference: Option<f64>,
}

/// Outcome names that mean the same thing across systems.
fn same_outcome(a: &str, b: &str) -> bool {
    let gone = |s: &str| s == "eliminated" || s == "removed";
    a == b || (gone(a) && gone(b))
}

/// The difference of two estimated proportions `a − b` with Newcombe's interval and the
/// pooled z-test. Returns (difference, low, high, p-value), or `None` without counts.
pub fn proportions(a: &Cell, na: u64, b: &Cell, nb: u64) -> Option<(f64, f64, f64, f64)> {
    let (ka, kb) = (a.count?, b.count?);
    let (la, ua, lb, ub) = (a.ci_low?, a.ci_high?, b.ci_low?, b.ci_high?);
    let (pa, pb) = (a.p, b.p);
    let d = pa - pb;
    let low = d - ((pa - la).powi(2) + (ub - pb).powi(2)).sqrt();
    let high = d + ((ua - pa).powi(2) + (pb - lb).powi(2)).sqrt();
    let pooled = (ka + kb) as f64 / (na + nb) as f64;
    let se = (pooled * (1.0 - pooled) * (1.0 / na as f64 + 1.0 / nb as f64)).sqrt();
    let p = if se > 0.0 {
        two_sided_p(d / se)
    } else if d == 0.0 {
        1.0
    } else {
        0.0
    };
    Some((d, low, high, p))
}

/// The difference of two means `a − b` with its normal interval at quantile `z` and z-test.
pub fn means(a: &MetricRow, b: &MetricRow, z: f64) -> Option<(f64, f64, f64, f64)> {
    let (va, vb) = (a.value?, b.value?);
    let se = (a.stderr.unwrap_or(0.0).powi(2) + b.stderr.unwrap_or(0.0).powi(2)).sqrt();
    let d = va - vb;
    let p = if se > 0.0 {
        two_sided_p(d / se)
    } else if d == 0.0 {
        1.0
    } else {
        0.0
    };
    Some((d, d - z * se, d + z * se, p))
}

/// Every comparison of an experiment's variants with its first, point by point.
pub fn compare(result: &ExperimentResult) -> Vec<Comparison> {
    let exp = &result.experiment;
    let alpha = 1.0 - exp.confidence;
    let z = z_for_confidence(exp.confidence);
    let per_point = exp.variants.len();
    let mut out = Vec::new();
    for chunk in result.runs.chunks(per_point) {
        let base = &chunk[0];
        for run in &chunk[1..] {
            let row = |kind: &str,
                       name: &str,
                       est: f64,
                       base_est: f64,
                       stats: (f64, f64, f64, f64),
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
                distinguishable: stats.3 < alpha,
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
    out
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
        assert!(p < 0.01);
        let (_, _, _, p) = proportions(&cell(50, 100), 100, &cell(50, 100), 100).unwrap();
        assert!((p - 1.0).abs() < 1e-12);
        assert!(same_outcome("eliminated", "removed") && !same_outcome("good", "removed"));
    }
}
