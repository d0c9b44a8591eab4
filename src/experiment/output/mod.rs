//! The files an experiment writes, as bytes: the binary decides where they go.
//!
//! Each file comes from one entry of [`EXPORTERS`]:
//! - `summary.md`: the question, a plain-words answer generated from the numbers, the tables;
//! - `results.csv`: every estimate of every run (tidy; see [`tidy_rows`]);
//! - `results.parquet` (feature `parquet`): the same table through polars (`data_frame`);
//! - `comparisons.csv`: every difference from the baseline, with interval and p-value;
//! - `per_turn.csv`: state shares by turn, where the scenario has turns;
//! - `sensitivity.csv`, `balance.csv`: with `sensitivity = true` or a `[balance]` section,
//!   every setting or value tried;
//! - `results.json`: all of it, with the experiment's definition, version, seed, trials and
//!   threads, so a published table can be regenerated;
//! - `timing.json`: how long each run took (the one file that differs between runs);
//! - charts, each as PNG and SVG: `outcomes`, `headline` (a metric as the headline: its mean
//!   per variant), `per_turn_<variant>`, `lines_<measure>` (battles: gaps, units lost and shaken
//!   per turn, a line per variant), `sweep`, `heatmap_<variant>`, `sensitivity`, `balance`;
//! - `index.html`: the report as one self-contained page.
//!
//! Everything but `timing.json` is the same to the byte when the experiment is run again.

use serde_json::json;

use super::compare::{Comparison, EXACTLY_ZERO, compare};
use super::{ExperimentResult, Run, SetValue};
use crate::error::{Error, Result};
use crate::report::chart::{Chart, Estimate, words};
use crate::report::{Cell, Report, signed};

mod answer;
mod charts;
mod html;
mod json;
mod page;
mod tables;

use answer::*;
use charts::*;
use page::*;
pub(crate) use page::{Page, Tab};
pub use tables::TidyRow;
#[cfg(feature = "parquet")]
pub use tables::data_frame;
pub use tables::tidy_rows;
use tables::*;

/// One file to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// Its name inside the output folder.
    pub name: String,
    /// Its contents.
    pub bytes: Vec<u8>,
}

impl OutputFile {
    fn new(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> OutputFile {
        OutputFile {
            name: name.into(),
            bytes: bytes.into(),
        }
    }
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

/// What every exporter reads: the result, its differences from the baseline, the report's
/// body, the command that made it, and the charts (drawn once, used by their files and the
/// page).
pub struct Context<'a> {
    result: &'a ExperimentResult,
    comparisons: Vec<Comparison>,
    page: Page,
    command: &'a str,
    charts: Vec<Drawn>,
}

/// A chart drawn to both formats.
struct Drawn {
    name: String,
    title: String,
    png: Vec<u8>,
    svg: String,
    /// As drawn for the page: without its caption, whose words are the second.
    page: (String, String),
}

impl<'a> Context<'a> {
    /// Compare, lay out the report and draw the charts of `result` (the PNGs at
    /// `chart_scale` × the standard size); `command` is how it was run (recorded in the
    /// files).
    ///
    /// # Errors
    /// A chart that fails to draw (never expected).
    pub fn new(
        result: &'a ExperimentResult,
        command: &'a str,
        chart_scale: f64,
    ) -> Result<Context<'a>> {
        let comparisons = compare(result);
        let page = page(result, &comparisons, command);
        let charts = charts(result)
            .into_iter()
            .map(|(name, chart)| {
                let fail = |e: String| Error::Conflict(format!("could not draw chart {name}: {e}"));
                Ok(Drawn {
                    png: chart.png_scaled(chart_scale).map_err(fail)?,
                    svg: chart.svg().map_err(fail)?,
                    page: chart.svg_for_page().map_err(fail)?,
                    title: chart.title().to_string(),
                    name,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Context {
            result,
            comparisons,
            page,
            command,
            charts,
        })
    }
}

/// One kind of output file: its name (a pattern for charts), what it holds, and how it is made
/// (none, one or several files of that kind).
pub struct Exporter {
    /// The file's name, or its pattern.
    pub file: &'static str,
    /// What it holds.
    pub about: &'static str,
    /// Its files for one result.
    pub write: fn(&Context) -> Result<Vec<OutputFile>>,
}

/// One CSV of per-variant tables (each header first): a `variant` column in front, the header
/// once; no file when there are none.
fn per_variant_csv<'a>(
    file: &str,
    tables: impl Iterator<Item = (&'a String, Vec<Vec<String>>)>,
) -> Vec<OutputFile> {
    let mut rows = Vec::new();
    for (i, (name, table)) in tables.enumerate() {
        for (j, mut row) in table.into_iter().enumerate() {
            if j == 0 && i > 0 {
                continue;
            }
            row.insert(
                0,
                if j == 0 {
                    "variant".into()
                } else {
                    name.clone()
                },
            );
            rows.push(row);
        }
    }
    if rows.is_empty() {
        return Vec::new();
    }
    vec![OutputFile::new(file, csv_bytes(rows))]
}

/// Every exporter, in the order their files are listed.
pub const EXPORTERS: &[Exporter] = &[
    Exporter {
        file: "summary.md",
        about: "the question, the answer in words, the tables",
        write: |c| {
            Ok(vec![OutputFile::new(
                "summary.md",
                summary_md(c.result, &c.page, |stem| {
                    c.charts
                        .iter()
                        .find(|d| d.name == stem)
                        .map(|d| d.title.clone())
                }),
            )])
        },
    },
    Exporter {
        file: "results.csv",
        about: "every estimate of every run, one row each",
        write: |c| Ok(vec![OutputFile::new("results.csv", results_csv(c.result))]),
    },
    Exporter {
        file: "comparisons.csv",
        about: "every difference from the baseline, with interval and p-value",
        write: |c| {
            let bytes = comparisons_csv(c.result, &c.comparisons);
            Ok(vec![OutputFile::new("comparisons.csv", bytes)])
        },
    },
    #[cfg(feature = "parquet")]
    Exporter {
        file: "results.parquet",
        about: "results.csv as a Parquet table",
        write: |c| {
            Ok(vec![OutputFile::new(
                "results.parquet",
                results_parquet(c.result)?,
            )])
        },
    },
    Exporter {
        file: "per_turn.csv",
        about: "the share in each state after each turn, where the scenario has turns",
        write: |c| {
            Ok(per_turn_csv(c.result)
                .map(|b| OutputFile::new("per_turn.csv", b))
                .into_iter()
                .collect())
        },
    },
    Exporter {
        file: "sensitivity.csv",
        about: "with sensitivity = true: every rule setting tried and its change to the headline",
        write: |c| {
            let tables = c.result.sensitivity.iter().map(|(n, x)| (n, x.csv_rows()));
            Ok(per_variant_csv("sensitivity.csv", tables))
        },
    },
    Exporter {
        file: "balance.csv",
        about: "with a [balance] section: every value tried for each variant solved, its headline and gap to the target",
        write: |c| {
            let tables = c.result.balance.iter().map(|(n, x)| (n, x.csv_rows()));
            Ok(per_variant_csv("balance.csv", tables))
        },
    },
    Exporter {
        file: "results.json",
        about: "everything, with the definition, version, seed, trials and threads",
        write: |c| Ok(vec![OutputFile::new("results.json", json::results(c))]),
    },
    Exporter {
        file: "timing.json",
        about: "how long each run took",
        write: |c| Ok(vec![OutputFile::new("timing.json", json::timing(c.result))]),
    },
    Exporter {
        file: "<chart>.png",
        about: "each chart as a PNG image",
        write: |c| {
            let png = |d: &Drawn| OutputFile::new(format!("{}.png", d.name), d.png.clone());
            Ok(c.charts.iter().map(png).collect())
        },
    },
    Exporter {
        file: "<chart>.svg",
        about: "each chart as an SVG drawing",
        write: |c| {
            let svg = |d: &Drawn| OutputFile::new(format!("{}.svg", d.name), d.svg.clone());
            Ok(c.charts.iter().map(svg).collect())
        },
    },
    Exporter {
        file: "index.html",
        about: "the report as one self-contained page with the charts inline",
        write: |c| {
            let svgs: Vec<html::PageChart> = c
                .charts
                .iter()
                .map(|d| html::PageChart {
                    stem: d.name.clone(),
                    title: d.title.clone(),
                    svg: d.page.0.clone(),
                    note: d.page.1.clone(),
                })
                .collect();
            let page = html::index_html(c.result, &c.page, c.command, &svgs);
            Ok(vec![OutputFile::new("index.html", page)])
        },
    },
];

/// The charts of an experiment's first sweep point (every variant's outcomes, each variant's
/// per-turn shares, a battle's per-turn lines overlaid), by file stem: what the explorer page
/// draws for one setting, or for A beside B.
pub fn point_charts(result: &ExperimentResult) -> Vec<(String, crate::report::chart::Chart)> {
    let per_point = result.experiment.variants.len().max(1);
    let first = &result.runs[..per_point.min(result.runs.len())];
    if first.is_empty() {
        return Vec::new();
    }
    charts::point_charts(result, first, "", &|_| None)
}

/// With two variants or more, the per-turn state shares of the first sweep point overlaid: a
/// chart per state, a line per variant.
pub fn per_turn_overlaid(result: &ExperimentResult) -> Vec<(String, crate::report::chart::Chart)> {
    let per_point = result.experiment.variants.len().max(1);
    let first = &result.runs[..per_point.min(result.runs.len())];
    charts::per_turn_overlaid(result, first)
}

/// With a `[sweep]`: the sweep chart (the first headline across the swept values, a line per
/// variant through the exact values where every run has them, estimates as dots with their
/// intervals beside them) and, with two axes, a heat map per variant; empty without a sweep.
pub fn sweep_charts(result: &ExperimentResult) -> Vec<(String, crate::report::chart::Chart)> {
    let per_point = result.experiment.variants.len().max(1);
    if result.experiment.sweep.is_empty() || result.runs.len() < per_point {
        return Vec::new();
    }
    let first = &result.runs[..per_point];
    charts::sweep_charts(result, first, Vec::new())
        .into_iter()
        .filter(|(name, _)| name == "sweep" || name.starts_with("heatmap_"))
        .collect()
}

/// The value of the outcome or metric `key` in a report, as an experiment's headline reads
/// it: an outcome's chance, or a metric's mean with its normal interval.
pub fn headline_cell(report: &crate::Report, key: &str) -> Option<crate::report::Cell> {
    answer::find(report, key)
}

/// The experiment's headline, read from its first run: the outcome or metric named, and
/// whether it is a metric (a mean) rather than an outcome (a chance).
pub fn headline(result: &ExperimentResult) -> Option<(String, bool)> {
    let first = result.runs.first()?;
    let head = answer::Head::of(&result.experiment, &first.report);
    Some((head.key, head.metric))
}

/// Every output file of an experiment's result, from [`EXPORTERS`]; `command` is how it was
/// run (recorded).
///
/// # Errors
/// A chart that fails to draw (never expected).
pub fn outputs(result: &ExperimentResult, command: &str) -> Result<Vec<OutputFile>> {
    outputs_scaled(result, command, 1.0)
}

/// [`outputs`] with the PNG charts drawn `chart_scale` times larger (the SVG charts are vector).
///
/// # Errors
/// As [`outputs`].
pub fn outputs_scaled(
    result: &ExperimentResult,
    command: &str,
    chart_scale: f64,
) -> Result<Vec<OutputFile>> {
    let context = Context::new(result, command, chart_scale)?;
    let mut files = Vec::new();
    for e in EXPORTERS {
        files.extend((e.write)(&context)?);
    }
    Ok(files)
}
