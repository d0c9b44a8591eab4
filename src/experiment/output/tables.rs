//! The tidy tables: `results.csv`, `results.parquet`, `comparisons.csv`, `per_turn.csv`.

use super::*;

pub(super) fn csv_bytes(rows: Vec<Vec<String>>) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.write_record(r).expect("in-memory CSV");
    }
    w.into_inner().expect("in-memory CSV")
}

pub(super) fn opt(x: Option<f64>) -> String {
    x.filter(|v| v.is_finite())
        .map(|v| v.to_string())
        .unwrap_or_default()
}

/// One row of the tidy results table (`results.csv`, `results.parquet`): one estimate of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct TidyRow {
    /// The sweep point's values, as given (one per sweep axis; empty without a sweep).
    pub point: Vec<String>,
    /// The variant's name.
    pub variant: String,
    /// The variant's rule system.
    pub system: String,
    /// `outcome`, `metric`, or the name of a per-turn table.
    pub section: String,
    /// The outcome, metric or column name.
    pub name: String,
    /// The turn, for per-turn tables.
    pub turn: Option<u32>,
    /// Trials behind the estimate (Monte Carlo only).
    pub count: Option<u64>,
    /// The estimate (the exact value with `exact_only`).
    pub estimate: Option<f64>,
    /// Lower end of the interval.
    pub ci_low: Option<f64>,
    /// Upper end of the interval.
    pub ci_high: Option<f64>,
    /// Standard error (metrics).
    pub stderr: Option<f64>,
    /// The exact value where known.
    pub exact: Option<f64>,
    /// The trials a metric's mean is taken over (`units that recovered`); empty for every
    /// trial and for shares.
    pub among: String,
}

/// Every estimate of every run of an experiment, one row each, in a fixed order.
pub fn tidy_rows(result: &ExperimentResult) -> Vec<TidyRow> {
    let exp = &result.experiment;
    let finite = |x: Option<f64>| x.filter(|v| v.is_finite());
    let mut rows = Vec::new();
    for run in &result.runs {
        let point: Vec<String> = run.point.iter().map(SetValue::as_input).collect();
        let mut push = |section: &str,
                        name: &str,
                        turn: Option<u32>,
                        c: &Cell,
                        stderr: Option<f64>,
                        among: &str| {
            rows.push(TidyRow {
                point: point.clone(),
                variant: exp.variants[run.variant].name.clone(),
                system: run.report.system.clone(),
                section: section.to_string(),
                name: name.to_string(),
                turn,
                count: c.count,
                estimate: finite(Some(c.p)),
                ci_low: finite(c.ci_low),
                ci_high: finite(c.ci_high),
                stderr: finite(stderr),
                exact: finite(c.exact),
                among: among.to_string(),
            });
        };
        for o in &run.report.outcomes {
            push("outcome", &o.outcome, None, &o.cell, None, "");
        }
        for m in &run.report.metrics {
            let c = Cell {
                count: m.n,
                p: m.value.unwrap_or(f64::NAN),
                ci_low: None,
                ci_high: None,
                exact: m.exact,
            };
            push(
                "metric",
                &m.name,
                None,
                &c,
                m.stderr,
                crate::report::among(&m.meaning),
            );
        }
        for t in &run.report.tables {
            for row in &t.rows {
                for (col, c) in t.columns.iter().zip(&row.cells) {
                    push(&t.name, col, Some(row.turn), c, None, "");
                }
            }
        }
    }
    rows
}

pub(super) fn results_csv(result: &ExperimentResult) -> Vec<u8> {
    let exp = &result.experiment;
    let mut header: Vec<String> = exp.sweep.iter().map(|a| a.key.clone()).collect();
    header.extend(
        [
            "variant", "system", "section", "name", "turn", "count", "estimate", "ci_low",
            "ci_high", "stderr", "exact", "among",
        ]
        .map(String::from),
    );
    let mut rows = vec![header];
    for t in tidy_rows(result) {
        let mut r = t.point;
        r.extend([
            t.variant,
            t.system,
            t.section,
            t.name,
            t.turn.map(|n| n.to_string()).unwrap_or_default(),
            t.count.map(|n| n.to_string()).unwrap_or_default(),
            opt(t.estimate),
            opt(t.ci_low),
            opt(t.ci_high),
            opt(t.stderr),
            opt(t.exact),
            t.among,
        ]);
        rows.push(r);
    }
    csv_bytes(rows)
}

/// The tidy results (the rows of [`tidy_rows`], sweep axes first) as a polars `DataFrame`.
///
/// # Errors
/// A column polars refuses (never expected: every column has one value per row).
#[cfg(feature = "parquet")]
pub fn data_frame(result: &ExperimentResult) -> Result<polars::prelude::DataFrame> {
    use polars::prelude::{Column, DataFrame};
    let rows = tidy_rows(result);
    let fail = |e: polars::prelude::PolarsError| Error::Conflict(format!("results table: {e}"));
    let mut columns: Vec<Column> = result
        .experiment
        .sweep
        .iter()
        .enumerate()
        .map(|(i, axis)| {
            let v: Vec<String> = rows.iter().map(|r| r.point[i].clone()).collect();
            Column::new(axis.key.as_str().into(), v)
        })
        .collect();
    let text = |f: fn(&TidyRow) -> &String| rows.iter().map(|r| f(r).clone()).collect::<Vec<_>>();
    let real = |f: fn(&TidyRow) -> Option<f64>| rows.iter().map(f).collect::<Vec<_>>();
    columns.extend([
        Column::new("variant".into(), text(|r| &r.variant)),
        Column::new("system".into(), text(|r| &r.system)),
        Column::new("section".into(), text(|r| &r.section)),
        Column::new("name".into(), text(|r| &r.name)),
        Column::new(
            "turn".into(),
            rows.iter().map(|r| r.turn).collect::<Vec<_>>(),
        ),
        Column::new(
            "count".into(),
            rows.iter().map(|r| r.count).collect::<Vec<_>>(),
        ),
        Column::new("estimate".into(), real(|r| r.estimate)),
        Column::new("ci_low".into(), real(|r| r.ci_low)),
        Column::new("ci_high".into(), real(|r| r.ci_high)),
        Column::new("stderr".into(), real(|r| r.stderr)),
        Column::new("exact".into(), real(|r| r.exact)),
        Column::new("among".into(), text(|r| &r.among)),
    ]);
    DataFrame::new_infer_height(columns).map_err(fail)
}

#[cfg(feature = "parquet")]
pub(super) fn results_parquet(result: &ExperimentResult) -> Result<Vec<u8>> {
    use polars::prelude::ParquetWriter;
    let mut df = data_frame(result)?;
    let mut bytes = Vec::new();
    ParquetWriter::new(&mut bytes)
        .finish(&mut df)
        .map_err(|e| Error::Conflict(format!("results.parquet: {e}")))?;
    Ok(bytes)
}

/// A table's header: the swept keys, then `columns`.
fn header(result: &ExperimentResult, columns: &[&str]) -> Vec<String> {
    let sweep = result.experiment.sweep.iter().map(|a| a.key.clone());
    sweep.chain(columns.iter().map(|c| c.to_string())).collect()
}

/// `comparisons.csv`: every difference from the baseline, one row each.
pub(super) fn comparisons_csv(result: &ExperimentResult, comparisons: &[Comparison]) -> Vec<u8> {
    let mut rows = vec![header(
        result,
        &[
            "variant",
            "baseline",
            "kind",
            "name",
            "estimate",
            "baseline_estimate",
            "difference",
            "low",
            "high",
            "p_value",
            "p_holm",
            "family",
            "distinguishable",
            "exact_difference",
            "among",
        ],
    )];
    // A conditional mean's condition, from any run that reports the metric.
    let among = |name: &str| -> String {
        result
            .runs
            .iter()
            .flat_map(|r| &r.report.metrics)
            .find(|m| m.name == name)
            .map_or(String::new(), |m| {
                crate::report::among(&m.meaning).to_string()
            })
    };
    for c in comparisons {
        let mut r: Vec<String> = c.point.iter().map(SetValue::as_input).collect();
        r.extend([
            c.variant.clone(),
            c.baseline.clone(),
            c.kind.clone(),
            c.name.clone(),
            opt(Some(c.estimate)),
            opt(Some(c.baseline_estimate)),
            opt(Some(c.difference)),
            opt(Some(c.low)),
            opt(Some(c.high)),
            opt(c.p_value),
            opt(c.p_adjusted),
            c.family.to_string(),
            c.distinguishable.to_string(),
            // A difference the report calls "exactly the same" is 0 here too, not the
            // rounding left over from subtracting two exact values.
            opt(c.exact_difference.map(|e| {
                if e.abs() < crate::experiment::compare::EXACTLY_ZERO {
                    0.0
                } else {
                    e
                }
            })),
            if c.kind == "metric" {
                among(&c.name)
            } else {
                String::new()
            },
        ]);
        rows.push(r);
    }
    csv_bytes(rows)
}

/// `per_turn.csv`: the share of trials in each state after each turn, one row per (run, turn,
/// state); `None` when no run has turns.
pub(super) fn per_turn_csv(result: &ExperimentResult) -> Option<Vec<u8>> {
    let mut rows = vec![header(
        result,
        &[
            "variant", "turn", "state", "estimate", "ci_low", "ci_high", "exact",
        ],
    )];
    for run in &result.runs {
        if let Some(t) = run.report.tables.iter().find(|t| t.name == "per_turn") {
            for row in &t.rows {
                for (col, c) in t.columns.iter().zip(&row.cells) {
                    let mut r: Vec<String> = run.point.iter().map(SetValue::as_input).collect();
                    r.extend([
                        result.experiment.variants[run.variant].name.clone(),
                        row.turn.to_string(),
                        col.clone(),
                        opt(Some(c.p)),
                        opt(c.ci_low),
                        opt(c.ci_high),
                        opt(c.exact),
                    ]);
                    rows.push(r);
                }
            }
        }
    }
    (rows.len() > 1).then(|| csv_bytes(rows))
}
