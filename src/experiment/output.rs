//! The files an experiment writes, as bytes: the binary decides where they go.
//!
//! - `summary.md`: the question, a plain-words answer generated from the numbers, the tables;
//! - `results.csv`: every estimate of every run (tidy; see [`tidy_rows`]);
//! - `results.parquet` (feature `parquet`): the same table through polars (`data_frame`);
//! - `comparisons.csv`: every difference from the baseline, with interval and p-value;
//! - `per_turn.csv`: state shares by turn, where the scenario has turns;
//! - `results.json`: all of it, with the experiment's definition, version, seed, trials and
//!   threads, so a published table can be regenerated;
//! - charts, each as PNG and SVG: `outcomes`, `per_turn_<variant>`, `lines_<measure>` (battles:
//!   gaps, units lost and shaken per turn, a line per variant), `sweep`, `heatmap_<variant>`.
//!
//! Everything but `timing.json` is the same to the byte when the experiment is run again.

use serde_json::json;

use super::compare::{Comparison, compare};
use super::{ExperimentResult, Run, SetValue};
use crate::error::{Error, Result};
use crate::report::chart::{Chart, Estimate};
use crate::report::{Cell, Report};

/// One file to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// Its name inside the output folder.
    pub name: String,
    /// Its contents.
    pub bytes: Vec<u8>,
}

/// A file-name-safe form of a variant's name.
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

fn point_label(exp: &super::Experiment, point: &[SetValue]) -> String {
    exp.sweep
        .iter()
        .zip(point)
        .map(|(a, v)| format!("{}={}", a.key, v.as_input()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The outcome an experiment's answer speaks of: the file's `headline`, else `recovered` where
/// the scenario has it, else the unit gone (removed or eliminated), else the first outcome.
pub fn headline(exp: &super::Experiment, report: &Report) -> String {
    if let Some(h) = &exp.headline {
        return h.clone();
    }
    if let Some(o) = report.outcomes.iter().find(|o| o.outcome == "recovered") {
        return o.outcome.clone();
    }
    report
        .outcomes
        .iter()
        .find(|o| o.outcome == "removed" || o.outcome == "eliminated")
        .or(report.outcomes.first())
        .map(|o| o.outcome.clone())
        .unwrap_or_default()
}

fn find<'a>(report: &'a Report, outcome: &str) -> Option<&'a Cell> {
    let gone = |s: &str| s == "removed" || s == "eliminated";
    report
        .outcomes
        .iter()
        .find(|o| o.outcome == outcome || (gone(outcome) && gone(&o.outcome)))
        .map(|o| &o.cell)
}

/// A p-value as text; below double precision's resolution it is given as a bound.
fn p_text(p: f64) -> String {
    if p < 1e-16 {
        "p < 1e-16".into()
    } else if p < 0.001 {
        format!("p = {p:.1e}")
    } else {
        format!("p = {p:.3}")
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The plain-words answer: each variant against the baseline on the headline outcome and the
/// holes metric, with the interval of the difference and whether chance could explain it.
pub fn answer(result: &ExperimentResult, comparisons: &[Comparison]) -> String {
    let exp = &result.experiment;
    let base = &exp.variants[0].name;
    let level = format!("{}%", (exp.confidence * 100.0).round());
    let first = &result.runs[0].report;
    let key = headline(exp, first);
    let mut out = String::new();
    if exp.variants.len() == 1 {
        let points = result.runs.len();
        out += &format!(
            "Under {base}, the chance of `{key}` ranges from {} to {} over the {points} settings swept (exact values; Monte Carlo estimates agree within their {level} intervals).",
            pct(result
                .runs
                .iter()
                .filter_map(|r| find(&r.report, &key))
                .filter_map(|c| c.exact)
                .fold(1.0, f64::min)),
            pct(result
                .runs
                .iter()
                .filter_map(|r| find(&r.report, &key))
                .filter_map(|c| c.exact)
                .fold(0.0, f64::max)),
        );
        return out;
    }
    for v in &exp.variants[1..] {
        let rows: Vec<&Comparison> = comparisons
            .iter()
            .filter(|c| {
                c.variant == v.name
                    && c.kind == "outcome"
                    && (c.name == key || find_same(&c.name, &key))
            })
            .collect();
        if rows.is_empty() {
            continue;
        }
        if rows.len() == 1 {
            let c = rows[0];
            out += &format!(
                "Under {}, `{}` has a chance of {} against {} under {base}: a difference of {:+.1} points ({level} interval {:+.1} to {:+.1}), {}. ",
                v.name,
                c.name,
                pct(c.estimate),
                pct(c.baseline_estimate),
                100.0 * c.difference,
                100.0 * c.low,
                100.0 * c.high,
                if c.distinguishable {
                    format!("which chance does not explain ({})", p_text(c.p_value))
                } else {
                    format!(
                        "which is not distinguishable from chance ({})",
                        p_text(c.p_value)
                    )
                }
            );
        } else {
            let lo = rows
                .iter()
                .map(|c| c.difference)
                .fold(f64::INFINITY, f64::min);
            let hi = rows
                .iter()
                .map(|c| c.difference)
                .fold(f64::NEG_INFINITY, f64::max);
            let clear = rows.iter().filter(|c| c.distinguishable).count();
            out += &format!(
                "Across the {} settings swept, {} changes the chance of `{key}` by {:+.1} to {:+.1} points against {base}; the difference is distinguishable from chance in {clear} of them. ",
                rows.len(),
                v.name,
                100.0 * lo,
                100.0 * hi
            );
        }
        let metric = |name: &str| -> Vec<&Comparison> {
            comparisons
                .iter()
                .filter(|c| c.variant == v.name && c.kind == "metric" && c.name == name)
                .collect()
        };
        // The holes metrics: of one unit under fire, or of side A's line in a battle.
        for (name, what, unit) in [
            (
                "empty_turns",
                "Its place in the line stands empty for",
                "turns",
            ),
            (
                "a_hole_turns",
                "Side A's line has positions standing empty for",
                "position-turns",
            ),
            ("a_units_lost", "Side A loses", "units"),
        ] {
            if let [c] = metric(name)[..] {
                out += &format!(
                    "{what} {:.2} {unit} on average against {:.2} ({:+.2}, {level} interval {:+.2} to {:+.2}{}). ",
                    c.estimate,
                    c.baseline_estimate,
                    c.difference,
                    c.low,
                    c.high,
                    if c.distinguishable {
                        ""
                    } else {
                        ", not distinguishable from chance"
                    }
                );
            }
        }
    }
    out.trim_end().to_string()
}

fn find_same(a: &str, b: &str) -> bool {
    let gone = |s: &str| s == "removed" || s == "eliminated";
    gone(a) && gone(b)
}

fn csv_bytes(rows: Vec<Vec<String>>) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.write_record(r).expect("in-memory CSV");
    }
    w.into_inner().expect("in-memory CSV")
}

fn opt(x: Option<f64>) -> String {
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
}

/// Every estimate of every run of an experiment, one row each, in a fixed order.
pub fn tidy_rows(result: &ExperimentResult) -> Vec<TidyRow> {
    let exp = &result.experiment;
    let finite = |x: Option<f64>| x.filter(|v| v.is_finite());
    let mut rows = Vec::new();
    for run in &result.runs {
        let point: Vec<String> = run.point.iter().map(SetValue::as_input).collect();
        let mut push =
            |section: &str, name: &str, turn: Option<u32>, c: &Cell, stderr: Option<f64>| {
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
                });
            };
        for o in &run.report.outcomes {
            push("outcome", &o.outcome, None, &o.cell, None);
        }
        for m in &run.report.metrics {
            let c = Cell {
                count: m.n,
                p: m.value.unwrap_or(f64::NAN),
                ci_low: None,
                ci_high: None,
                exact: m.exact,
            };
            push("metric", &m.name, None, &c, m.stderr);
        }
        for t in &run.report.tables {
            for row in &t.rows {
                for (col, c) in t.columns.iter().zip(&row.cells) {
                    push(&t.name, col, Some(row.turn), c, None);
                }
            }
        }
    }
    rows
}

fn results_csv(result: &ExperimentResult) -> Vec<u8> {
    let exp = &result.experiment;
    let mut header: Vec<String> = exp.sweep.iter().map(|a| a.key.clone()).collect();
    header.extend(
        [
            "variant", "system", "section", "name", "turn", "count", "estimate", "ci_low",
            "ci_high", "stderr", "exact",
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
    ]);
    DataFrame::new_infer_height(columns).map_err(fail)
}

#[cfg(feature = "parquet")]
fn results_parquet(result: &ExperimentResult) -> Result<Vec<u8>> {
    use polars::prelude::ParquetWriter;
    let mut df = data_frame(result)?;
    let mut bytes = Vec::new();
    ParquetWriter::new(&mut bytes)
        .finish(&mut df)
        .map_err(|e| Error::Conflict(format!("results.parquet: {e}")))?;
    Ok(bytes)
}

fn comparisons_csv(result: &ExperimentResult, comparisons: &[Comparison]) -> Vec<u8> {
    let mut header: Vec<String> = result
        .experiment
        .sweep
        .iter()
        .map(|a| a.key.clone())
        .collect();
    header.extend(
        [
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
            "distinguishable",
            "exact_difference",
        ]
        .map(String::from),
    );
    let mut rows = vec![header];
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
            opt(Some(c.p_value)),
            c.distinguishable.to_string(),
            opt(c.exact_difference),
        ]);
        rows.push(r);
    }
    csv_bytes(rows)
}

/// A table of the report, rendered to Markdown (`summary.md`) and HTML (`index.html`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Tab {
    /// Column heads, and whether each column holds numbers (right-aligned, sorted as numbers).
    pub head: Vec<(String, bool)>,
    /// The rows' cells, as text.
    pub rows: Vec<Vec<String>>,
}

impl Tab {
    fn new(head: &[(&str, bool)]) -> Tab {
        Tab {
            head: head.iter().map(|&(h, n)| (h.to_string(), n)).collect(),
            rows: Vec::new(),
        }
    }

    fn markdown(&self) -> String {
        let heads: Vec<&str> = self.head.iter().map(|h| h.0.as_str()).collect();
        let mut out = format!("| {} |\n|", heads.join(" | "));
        for (_, numeric) in &self.head {
            out += if *numeric { "---:|" } else { "---|" };
        }
        out += "\n";
        for r in &self.rows {
            out += &format!("| {} |\n", r.join(" | "));
        }
        out
    }
}

/// A section of the report: a heading, a paragraph (Markdown with `code` spans) and tables.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Section {
    /// The heading.
    pub title: String,
    /// The paragraph under it.
    pub intro: String,
    /// Its tables, in order.
    pub tables: Vec<Tab>,
}

/// The report's body: the question, the answer, a line on how it was run, the sections (each
/// variant, then the differences) and the reproduce line.
pub(crate) struct Page {
    pub question: String,
    pub answer: String,
    pub method: String,
    pub sections: Vec<Section>,
    pub reproduce: String,
}

pub(crate) fn page(result: &ExperimentResult, comparisons: &[Comparison], command: &str) -> Page {
    let exp = &result.experiment;
    let level = format!("{}%", (exp.confidence * 100.0).round());
    let method = format!(
        "Scenario `{}`, {} trials per variant{}, seed {}, {level} intervals; {}.",
        exp.scenario,
        crate::report::thousands(exp.trials),
        if exp.sweep.is_empty() {
            String::new()
        } else {
            " and setting".into()
        },
        exp.seed,
        if result
            .runs
            .iter()
            .any(|r| r.report.outcomes.iter().any(|o| o.cell.exact.is_some()))
        {
            "exact values beside every estimate"
        } else {
            "Monte Carlo only: this scenario has no exact solution"
        }
    );
    let mut sections = Vec::new();
    for run in &result.runs {
        let v = &exp.variants[run.variant];
        let at = point_label(exp, &run.point);
        let interval = format!("{level} interval");
        let mut outcomes = Tab::new(&[
            ("outcome", false),
            ("estimate", true),
            (&interval, true),
            ("exact", true),
        ]);
        for o in &run.report.outcomes {
            let c = &o.cell;
            outcomes.rows.push(vec![
                o.outcome.clone(),
                format!("{:.4}", c.p),
                format!(
                    "[{:.4}, {:.4}]",
                    c.ci_low.unwrap_or(f64::NAN),
                    c.ci_high.unwrap_or(f64::NAN)
                ),
                c.exact.map(|e| format!("{e:.4}")).unwrap_or("—".into()),
            ]);
        }
        let mut tables = vec![outcomes];
        if !run.report.metrics.is_empty() {
            let mut metrics = Tab::new(&[
                ("metric", false),
                ("mean", true),
                ("± s.e.", true),
                ("exact", true),
            ]);
            let f = |x: Option<f64>| {
                x.filter(|v| v.is_finite())
                    .map(|v| format!("{v:.4}"))
                    .unwrap_or("—".into())
            };
            for m in &run.report.metrics {
                metrics
                    .rows
                    .push(vec![m.name.clone(), f(m.value), f(m.stderr), f(m.exact)]);
            }
            tables.push(metrics);
        }
        sections.push(Section {
            title: if at.is_empty() {
                v.name.clone()
            } else {
                format!("{} ({at})", v.name)
            },
            intro: format!(
                "System `{}`; options: {}.",
                v.system,
                if v.options.is_empty() {
                    "none".into()
                } else {
                    v.options.join(", ")
                }
            ),
            tables,
        });
    }
    if !comparisons.is_empty() {
        let mut head = Vec::new();
        if !exp.sweep.is_empty() {
            head.push(("setting", false));
        }
        head.extend([
            ("variant", false),
            ("kind", false),
            ("name", false),
            ("difference", true),
            ("interval", true),
            ("p-value", true),
            ("chance?", false),
            ("exact", true),
        ]);
        let mut tab = Tab::new(&head);
        for c in comparisons {
            let mut row = Vec::new();
            if !exp.sweep.is_empty() {
                row.push(point_label(exp, &c.point));
            }
            row.extend([
                c.variant.clone(),
                c.kind.to_string(),
                c.name.clone(),
                format!("{:+.4}", c.difference),
                format!("[{:+.4}, {:+.4}]", c.low, c.high),
                p_text(c.p_value).trim_start_matches("p = ").to_string(),
                if c.distinguishable { "no" } else { "could be" }.to_string(),
                c.exact_difference
                    .map(|e| format!("{e:+.4}"))
                    .unwrap_or("—".into()),
            ]);
            tab.rows.push(row);
        }
        sections.push(Section {
            title: format!("Differences from {}", exp.variants[0].name),
            intro: format!(
                "Each variant minus the baseline at the same setting; intervals at {level} (Newcombe's for proportions); \"chance?\" says whether the difference could be chance at that level."
            ),
            tables: vec![tab],
        });
    }
    Page {
        question: exp.question.clone(),
        answer: answer(result, comparisons),
        method,
        sections,
        reproduce: format!(
            "`{command}` — morale-lab {}, seed {}, {} trials, {} threads (results do not depend on threads). The variant definitions are in `results.json`.",
            result.version, exp.seed, exp.trials, result.threads
        ),
    }
}

fn summary_md(result: &ExperimentResult, page: &Page) -> String {
    let mut out = format!(
        "# {}\n\n**Question.** {}\n\n**Answer.** {}\n\n{}\n\n",
        result.experiment.name, page.question, page.answer, page.method
    );
    for s in &page.sections {
        out += &format!("## {}\n\n{}\n\n", s.title, s.intro);
        let tables: Vec<String> = s.tables.iter().map(Tab::markdown).collect();
        out += &tables.join("\n");
        out += "\n";
    }
    out += &format!("## Reproduce\n\n{}\n", page.reproduce);
    out
}

fn estimate(c: &Cell) -> Estimate {
    Estimate {
        p: c.p,
        low: c.ci_low.unwrap_or(c.p),
        high: c.ci_high.unwrap_or(c.p),
    }
}

fn charts(result: &ExperimentResult) -> Vec<(String, Chart)> {
    let exp = &result.experiment;
    let per_point = exp.variants.len();
    let first: &[Run] = &result.runs[..per_point];
    let mut out = Vec::new();
    // Outcome bars at the first setting, categories from the baseline.
    let categories: Vec<String> = first[0]
        .report
        .outcomes
        .iter()
        .map(|o| o.outcome.clone())
        .collect();
    let at = point_label(exp, &first[0].point);
    out.push((
        "outcomes".to_string(),
        Chart::Bars {
            title: format!(
                "{}: outcomes{}",
                exp.name,
                if at.is_empty() {
                    String::new()
                } else {
                    format!(" ({at})")
                }
            ),
            series: first
                .iter()
                .map(|r| {
                    let vals = categories
                        .iter()
                        .map(|c| find(&r.report, c).map(estimate))
                        .collect();
                    (exp.variants[r.variant].name.clone(), vals)
                })
                .collect(),
            categories,
        },
    ));
    for r in first {
        if let Some(t) = r.report.tables.iter().find(|t| t.name == "per_turn") {
            out.push((
                format!("per_turn_{}", slug(&exp.variants[r.variant].name)),
                Chart::Stacked {
                    title: format!("{}: state after each turn", exp.variants[r.variant].name),
                    layers: t.columns.clone(),
                    shares: t
                        .rows
                        .iter()
                        .map(|row| row.cells.iter().map(|c| c.p).collect())
                        .collect(),
                },
            ));
        }
    }
    // Per-turn means of a battle's lines (gaps, units lost, shaken): one chart per measure,
    // a line per variant.
    if let Some(t0) = first[0].report.tables.iter().find(|t| t.name == "lines") {
        for (ci, col) in t0.columns.iter().enumerate() {
            let series = first
                .iter()
                .map(|r| {
                    let vals = r
                        .report
                        .tables
                        .iter()
                        .find(|t| t.name == "lines")
                        .map(|t| {
                            t.rows
                                .iter()
                                .map(|row| row.cells.get(ci).map(estimate))
                                .collect()
                        })
                        .unwrap_or_default();
                    (exp.variants[r.variant].name.clone(), vals)
                })
                .collect();
            out.push((
                format!("lines_{col}"),
                Chart::Lines {
                    title: format!("{}: {} after each turn (mean)", exp.name, col),
                    x_label: "turn".into(),
                    x_values: t0.rows.iter().map(|row| row.turn.to_string()).collect(),
                    y_label: col.clone(),
                    series,
                },
            ));
        }
    }
    let key = headline(exp, &first[0].report);
    if let Some(x) = exp.sweep.first() {
        let ys: Vec<Option<&SetValue>> = match exp.sweep.get(1) {
            Some(y) => y.values.iter().map(Some).collect(),
            None => vec![None],
        };
        let mut series = Vec::new();
        for (vi, v) in exp.variants.iter().enumerate() {
            for (yi, yv) in ys.iter().enumerate() {
                let vals = (0..x.values.len())
                    .map(|xi| {
                        let point = xi * ys.len() + yi;
                        find(&result.runs[point * per_point + vi].report, &key).map(estimate)
                    })
                    .collect();
                let name = match yv {
                    Some(y) => format!("{} ({}={})", v.name, exp.sweep[1].key, y.as_input()),
                    None => v.name.clone(),
                };
                series.push((name, vals));
            }
        }
        out.push((
            "sweep".to_string(),
            Chart::Lines {
                title: format!("{}: P({key}) by {}", exp.name, x.key),
                x_label: x.key.clone(),
                x_values: x.values.iter().map(SetValue::as_input).collect(),
                y_label: format!("P({key})"),
                series,
            },
        ));
        if let Some(y) = exp.sweep.get(1) {
            for (vi, v) in exp.variants.iter().enumerate() {
                let cells = (0..y.values.len())
                    .map(|yi| {
                        (0..x.values.len())
                            .map(|xi| {
                                let point = xi * y.values.len() + yi;
                                find(&result.runs[point * per_point + vi].report, &key)
                                    .map_or(f64::NAN, |c| c.exact.unwrap_or(c.p))
                            })
                            .collect()
                    })
                    .collect();
                out.push((
                    format!("heatmap_{}", slug(&v.name)),
                    Chart::Heat {
                        title: format!("{}: P({key}), exact", v.name),
                        x: (
                            x.key.clone(),
                            x.values.iter().map(SetValue::as_input).collect(),
                        ),
                        y: (
                            y.key.clone(),
                            y.values.iter().map(SetValue::as_input).collect(),
                        ),
                        cells,
                    },
                ));
            }
        }
    }
    out
}

/// Every output file of an experiment's result; `command` is how it was run (recorded).
///
/// # Errors
/// A chart that fails to draw (never expected).
pub fn outputs(result: &ExperimentResult, command: &str) -> Result<Vec<OutputFile>> {
    let comparisons = compare(result);
    let page = page(result, &comparisons, command);
    let mut files = vec![
        OutputFile {
            name: "summary.md".into(),
            bytes: summary_md(result, &page).into_bytes(),
        },
        OutputFile {
            name: "results.csv".into(),
            bytes: results_csv(result),
        },
        OutputFile {
            name: "comparisons.csv".into(),
            bytes: comparisons_csv(result, &comparisons),
        },
    ];
    #[cfg(feature = "parquet")]
    files.push(OutputFile {
        name: "results.parquet".into(),
        bytes: results_parquet(result)?,
    });
    // Per-turn shares, where the scenario has turns.
    let mut header: Vec<String> = result
        .experiment
        .sweep
        .iter()
        .map(|a| a.key.clone())
        .collect();
    header.extend(
        [
            "variant", "turn", "state", "estimate", "ci_low", "ci_high", "exact",
        ]
        .map(String::from),
    );
    let mut rows = vec![header];
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
    if rows.len() > 1 {
        files.push(OutputFile {
            name: "per_turn.csv".into(),
            bytes: csv_bytes(rows),
        });
    }
    // The results without timings, which differ from run to run.
    let mut stable = result.clone();
    let timing: Vec<_> = stable
        .runs
        .iter_mut()
        .map(|r| {
            let t = json!({"variant": r.variant, "point": r.point, "elapsed_s": r.report.elapsed_s, "trials_per_s": r.report.trials_per_s});
            r.report.elapsed_s = 0.0;
            r.report.trials_per_s = 0.0;
            t
        })
        .collect();
    let json_doc = json!({
        "version": stable.version,
        "command": command,
        "seed": stable.experiment.seed,
        "trials": stable.experiment.trials,
        "threads": stable.threads,
        "experiment": stable.experiment,
        "runs": stable.runs,
        "comparisons": comparisons,
    });
    files.push(OutputFile {
        name: "results.json".into(),
        bytes: (serde_json::to_string_pretty(&json_doc).expect("serialises") + "\n").into_bytes(),
    });
    files.push(OutputFile {
        name: "timing.json".into(),
        bytes: (serde_json::to_string_pretty(&timing).expect("serialises") + "\n").into_bytes(),
    });
    let mut svgs = Vec::new();
    for (name, chart) in charts(result) {
        let fail = |e: String| Error::Conflict(format!("could not draw chart {name}: {e}"));
        files.push(OutputFile {
            name: format!("{name}.png"),
            bytes: chart.png().map_err(fail)?,
        });
        let svg = chart.svg().map_err(fail)?;
        files.push(OutputFile {
            name: format!("{name}.svg"),
            bytes: svg.clone().into_bytes(),
        });
        svgs.push((name, chart.title().to_string(), svg));
    }
    files.push(OutputFile {
        name: "index.html".into(),
        bytes: super::html::index_html(result, &page, command, &svgs).into_bytes(),
    });
    Ok(files)
}
