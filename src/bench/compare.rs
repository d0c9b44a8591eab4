//! `bench --compare`: a bench against a saved one (a baseline), case by case: the ratio of
//! speeds new/old with its interval, and the same for each case's ratio to its hand-written
//! loop, which does not move with the machine. Verdicts: faster, slower or same at a stated
//! threshold; `--fail-on-drop` turns a drop of the hand-loop ratio into a failure (CI's guard).

use statrs::distribution::{ContinuousCDF, StudentsT};

use morale_lab::error::{Error, Result};
use morale_lab::report::align;

use super::{Bench, provenance};

/// Read a saved bench (`bench --save`, or `--format json`'s output).
///
/// # Errors
/// Not JSON of a bench, or of another layout.
pub fn parse(text: &str, name: &str) -> Result<Bench> {
    let bad = |allowed: String| Error::Invalid {
        what: "--compare".into(),
        value: name.into(),
        allowed,
    };
    let v: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| bad(format!("a file written by bench --save ({e})")))?;
    let schema = v.get("schema").and_then(serde_json::Value::as_u64);
    if schema != Some(u64::from(provenance::SCHEMA)) {
        return Err(bad(format!(
            "a file written by bench --save of layout {} (this one is {}); save the baseline again with this build",
            provenance::SCHEMA,
            schema.map_or_else(|| "without a layout".into(), |s| format!("layout {s}"))
        )));
    }
    serde_json::from_value(v).map_err(|e| bad(format!("a file written by bench --save ({e})")))
}

/// The quantile `p` of Student's t with `df` degrees of freedom (bisection on statrs' CDF, whose
/// inverse is not relied on).
fn t_quantile(p: f64, df: f64) -> f64 {
    let Ok(t) = StudentsT::new(0.0, 1.0, df) else {
        return f64::NAN;
    };
    let (mut lo, mut hi) = (0.0, 1e3);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if t.cdf(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

fn mean_var(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    (
        m,
        xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0),
    )
}

fn median(xs: &[f64]) -> f64 {
    super::Spread::of(xs.to_vec()).median
}

/// A change of speed, new over old, with its interval and verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// new / old (geometric means of the runs, or of the rounds' ratios).
    pub ratio: f64,
    /// The interval's ends.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// faster, slower or same.
    pub verdict: &'static str,
}

/// The confidence of a change's interval.
const CONFIDENCE: f64 = 0.95;

/// The change from `old` to `new`, each a list of rounds (one per file) of runs' speeds
/// (higher is faster). With as many rounds each side, two or more, they are paired round by
/// round (the rounds of two builds run alternately): the interval is Student's t on the logs
/// of the rounds' ratios of medians. Otherwise every run is pooled each side: Welch's t on
/// the logs. `None` with fewer than two runs a side.
pub fn change(old: &[Vec<f64>], new: &[Vec<f64>], threshold: f64) -> Option<Change> {
    let q = (1.0 + CONFIDENCE) / 2.0;
    let (mid, half) = if old.len() == new.len() && old.len() >= 2 {
        let d: Vec<f64> = old
            .iter()
            .zip(new)
            .map(|(o, n)| (median(n) / median(o)).ln())
            .collect();
        let (m, v) = mean_var(&d);
        let r = d.len() as f64;
        (m, t_quantile(q, r - 1.0) * (v / r).sqrt())
    } else {
        let logs = |side: &[Vec<f64>]| -> Vec<f64> {
            side.iter().flatten().map(|x| x.ln()).collect::<Vec<_>>()
        };
        let (a, b) = (logs(old), logs(new));
        if a.len() < 2 || b.len() < 2 {
            return None;
        }
        let ((ma, va), (mb, vb)) = (mean_var(&a), mean_var(&b));
        let (sa, sb) = (va / a.len() as f64, vb / b.len() as f64);
        let se = (sa + sb).sqrt();
        let df = if se > 0.0 {
            (sa + sb).powi(2)
                / (sa.powi(2) / (a.len() as f64 - 1.0) + sb.powi(2) / (b.len() as f64 - 1.0))
        } else {
            1.0
        };
        (mb - ma, t_quantile(q, df) * se)
    };
    let (ratio, low, high) = (mid.exp(), (mid - half).exp(), (mid + half).exp());
    let verdict = if low > 1.0 && ratio > 1.0 + threshold {
        "faster"
    } else if high < 1.0 && ratio < 1.0 - threshold {
        "slower"
    } else {
        "same"
    };
    Some(Change {
        ratio,
        low,
        high,
        verdict,
    })
}

fn change_text(c: Option<&Change>) -> [String; 2] {
    match c {
        None => ["—".into(), "too few runs".into()],
        Some(c) => [
            format!("{:.3} ({:.3}–{:.3})", c.ratio, c.low, c.high),
            c.verdict.into(),
        ],
    }
}

fn side_text(label: &str, side: &[Bench]) -> String {
    let b = &side[0];
    let mut commits: Vec<String> = side.iter().map(|b| b.build.short()).collect();
    commits.dedup();
    format!(
        "{label} {} · {} · {} · {} threads · {} · {} file(s), {} runs a case each\n",
        commits.join(", "),
        b.date,
        b.machine.cpu,
        b.machine.threads,
        b.build.rustc,
        side.len(),
        b.repeats
    )
}

/// What a comparison found: its tables, and the cases whose hand-loop ratio fell by more
/// than the allowed drop.
#[derive(Debug)]
pub struct Compared {
    /// The tables.
    pub text: String,
    /// `case (sampler): ratio` for each drop beyond `--fail-on-drop`.
    pub dropped: Vec<String>,
    /// How many hand-loop ratios were compared.
    pub guarded: usize,
}

/// Compare `new` with `old` (each one bench or several rounds of one); `threshold` is the
/// smallest change called faster or slower; `drop` the largest fall of a hand-loop ratio
/// allowed.
pub fn compare(old: &[Bench], new: &[Bench], threshold: f64, drop: Option<f64>) -> Compared {
    let mut text = format!(
        "bench --compare: speed now over the baseline's, case by case (new/old above 1: faster)\n{}{}",
        side_text("baseline:", old),
        side_text("now:     ", new)
    );
    text += &format!(
        "a change is called faster or slower when its {:.0}% interval lies wholly on that side of 1 and it passes ±{:.0}%; intervals are Student's t on the logarithms of the runs (of the rounds' ratios, paired, when both sides have as many saved rounds)\n",
        CONFIDENCE * 100.0,
        threshold * 100.0
    );
    let first = &new[0];
    let rounds = |side: &[Bench], case: &str, sampler: &str, f: fn(&super::CaseRow) -> Vec<f64>| {
        side.iter()
            .filter_map(|b| {
                b.cases
                    .iter()
                    .find(|c| c.case == case && c.sampler == sampler)
                    .map(f)
            })
            .filter(|v| !v.is_empty())
            .collect::<Vec<_>>()
    };
    let mut rows = vec![vec![
        "case".to_string(),
        "sampler".into(),
        "old /s".into(),
        "new /s".into(),
        "new/old (interval)".into(),
        "verdict".into(),
    ]];
    let mut refs = vec![vec![
        "against its hand loop".to_string(),
        "sampler".into(),
        "old ×".into(),
        "new ×".into(),
        "new/old (interval)".into(),
        "verdict".into(),
    ]];
    let mut dropped = Vec::new();
    let mut missing = Vec::new();
    for c in &first.cases {
        let speeds = |b: &super::CaseRow| b.per_second.samples.clone();
        let (o, n) = (
            rounds(old, &c.case, &c.sampler, speeds),
            rounds(new, &c.case, &c.sampler, speeds),
        );
        if o.is_empty() {
            missing.push(format!("{} ({})", c.case, c.sampler));
            continue;
        }
        let ch = change(&o, &n, threshold);
        let flat = |v: &[Vec<f64>]| median(&v.concat());
        let [r, verdict] = change_text(ch.as_ref());
        rows.push(vec![
            c.case.clone(),
            c.sampler.clone(),
            super::rate_text(flat(&o)),
            super::rate_text(flat(&n)),
            r,
            verdict,
        ]);
        let ratios = |b: &super::CaseRow| b.ratio_samples.clone();
        let (o, n) = (
            rounds(old, &c.case, &c.sampler, ratios),
            rounds(new, &c.case, &c.sampler, ratios),
        );
        if o.is_empty() || n.is_empty() {
            continue;
        }
        let ch = change(&o, &n, threshold);
        if let (Some(d), Some(ch)) = (drop, &ch)
            && ch.high < 1.0
            && ch.ratio < 1.0 - d
        {
            dropped.push(format!(
                "{} ({}): {:.3} of the baseline's ratio to its hand loop",
                c.case, c.sampler, ch.ratio
            ));
        }
        let [r, verdict] = change_text(ch.as_ref());
        refs.push(vec![
            c.case.clone(),
            c.sampler.clone(),
            format!("{:.2}×", flat(&o)),
            format!("{:.2}×", flat(&n)),
            r,
            verdict,
        ]);
    }
    if rows.len() > 1 {
        text += "\n";
        text += &align(&rows);
    }
    let mut exact = vec![vec![
        "exact solution".to_string(),
        "old ms".into(),
        "new ms".into(),
        "speed new/old (interval)".into(),
        "verdict".into(),
    ]];
    for e in &first.exact {
        let side = |s: &[Bench]| {
            s.iter()
                .filter_map(|b| b.exact.iter().find(|x| x.case == e.case))
                .map(|x| x.ms.samples.iter().map(|ms| 1.0 / ms).collect::<Vec<_>>())
                .collect::<Vec<_>>()
        };
        let (o, n) = (side(old), side(new));
        if o.is_empty() {
            missing.push(e.case.clone());
            continue;
        }
        let ms = |v: &[Vec<f64>]| 1.0 / median(&v.concat());
        let [r, verdict] = change_text(change(&o, &n, threshold).as_ref());
        exact.push(vec![
            e.case.clone(),
            super::ms_text(ms(&o)),
            super::ms_text(ms(&n)),
            r,
            verdict,
        ]);
    }
    if exact.len() > 1 {
        text += "\n";
        text += &align(&exact);
    }
    let guarded = refs.len() - 1;
    if guarded > 0 {
        text += "\n";
        text += &align(&refs);
        text += "(a ratio to a hand-written loop run alternately in the same process does not move with the machine's speed or load: compare these across machines and days)\n";
    }
    if !missing.is_empty() {
        text += &format!("not in the baseline: {}\n", missing.join(", "));
    }
    Compared {
        text,
        dropped,
        guarded,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_are_the_tables() {
        assert!((t_quantile(0.975, 4.0) - 2.776).abs() < 1e-3);
        assert!((t_quantile(0.975, 1e6) - 1.960).abs() < 1e-3);
    }

    #[test]
    fn a_change_is_called_only_beyond_the_noise_and_the_threshold() {
        let same = change(
            &[vec![100.0, 102.0, 98.0, 101.0, 99.0]],
            &[vec![101.0, 99.0, 100.0, 103.0, 97.0]],
            0.1,
        )
        .unwrap();
        assert_eq!(same.verdict, "same");
        assert!(same.low < 1.0 && 1.0 < same.high);
        let slower = change(
            &[vec![100.0, 102.0, 98.0, 101.0, 99.0]],
            &[vec![50.0, 51.0, 49.0, 50.5, 49.5]],
            0.1,
        )
        .unwrap();
        assert_eq!(slower.verdict, "slower");
        assert!((slower.ratio - 0.5).abs() < 0.01);
        // 3% faster beyond doubt, but within a 10% threshold: the same.
        let small = change(&[vec![100.0; 3]], &[vec![103.0, 103.0, 103.1]], 0.1).unwrap();
        assert_eq!(small.verdict, "same");
        assert_eq!(
            change(&[vec![100.0; 3]], &[vec![130.0, 131.0, 130.5]], 0.1)
                .unwrap()
                .verdict,
            "faster"
        );
        // Rounds paired: each round's ratio is 2, whatever the machine did between rounds.
        let paired = change(
            &[vec![100.0], vec![50.0], vec![80.0]],
            &[vec![200.0], vec![100.0], vec![160.0]],
            0.1,
        )
        .unwrap();
        assert!((paired.ratio - 2.0).abs() < 1e-9 && paired.verdict == "faster");
        assert!(change(&[vec![1.0]], &[vec![2.0]], 0.1).is_none());
    }
}
