//! One result type for every scenario, and its renderings as text, CSV, Markdown and JSON.
//!
//! Renderers return strings; writing them anywhere is the binary's business.

use serde::Serialize;

pub mod chart;
mod fontsubset;
mod svgtext;
mod typeset;

/// Escape text for HTML and XML.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out += "&amp;",
            '<' => out += "&lt;",
            '>' => out += "&gt;",
            '"' => out += "&quot;",
            '\'' => out += "&#39;",
            c => out.push(c),
        }
    }
    out
}
use serde_json::{Map, Value};

/// The tool's version, recorded in every report (here, where the report lives).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// An estimate of a probability, with its interval and the exact value where one is known.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    /// Trials counted (`None` for an exact-only run).
    pub count: Option<u64>,
    /// The estimate (the exact value in an exact-only run).
    pub p: f64,
    /// Lower end of the Wilson interval.
    pub ci_low: Option<f64>,
    /// Upper end of the Wilson interval.
    pub ci_high: Option<f64>,
    /// The exact value.
    pub exact: Option<f64>,
}

/// The probability of one outcome of a scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OutcomeRow {
    /// The outcome's name (`pass`, `recovered`, `removed` …).
    pub outcome: String,
    /// Its estimate.
    #[serde(flatten)]
    pub cell: Cell,
}

/// An average over trials, with its standard error and exact value where known.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricRow {
    /// The metric's name (`turns_to_recover` …).
    pub name: String,
    /// The estimate (the exact value in an exact-only run); NaN is written as null.
    pub value: Option<f64>,
    /// Standard error of the estimate.
    pub stderr: Option<f64>,
    /// The exact value.
    pub exact: Option<f64>,
    /// Trials the average is taken over (for a conditional mean, those where it applies).
    pub n: Option<u64>,
    /// What it means.
    pub meaning: String,
}

/// A table of estimates by turn (per-turn state shares, turns to recover …).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    /// Short name (`per_turn`, `turns`).
    pub name: String,
    /// A title for humans.
    pub title: String,
    /// Column names.
    pub columns: Vec<String>,
    /// Rows, one per turn.
    pub rows: Vec<TableRow>,
}

/// One row of a [`Table`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableRow {
    /// The turn.
    pub turn: u32,
    /// One cell per column.
    pub cells: Vec<Cell>,
}

/// Everything one run found, and everything needed to run it again.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The tool's version.
    pub version: String,
    /// The scenario (`test`, `rally`, `under-fire`).
    pub scenario: String,
    /// The rule system (`rank-and-file` …).
    pub system: String,
    /// For a mechanic file: its path and the start of the SHA-256 of its text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Every parameter in force, defaults included.
    pub params: Map<String, Value>,
    /// The rule parameters that differ from the source's rules, with their values in this run
    /// (empty when the run plays the rules as written).
    pub rules_changed: Map<String, Value>,
    /// The source's values of the rule parameters in `rules_changed`.
    pub rules_source: Map<String, Value>,
    /// Every rule parameter as this run plays the rules.
    pub rules: Map<String, Value>,
    /// Optional rules switched on.
    pub options: Vec<String>,
    /// Monte Carlo trials (0 for an exact-only run).
    pub trials: u64,
    /// The seed.
    pub seed: u64,
    /// Worker threads used.
    pub threads: usize,
    /// Confidence level of the intervals.
    pub confidence: f64,
    /// Outcome probabilities.
    pub outcomes: Vec<OutcomeRow>,
    /// Averages.
    pub metrics: Vec<MetricRow>,
    /// Tables by turn.
    pub tables: Vec<Table>,
    /// The exact solution's total probability (1 up to rounding; checked).
    pub exact_mass: Option<f64>,
    /// Notes on how to read the numbers (model choices in force).
    pub notes: Vec<String>,
    /// Why the exact solution is missing where the scenario has one (over its budget).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_skipped: Option<String>,
    /// How Monte Carlo drew each turn (`table` or `dice`; none for an exact-only run).
    pub sampler: Option<String>,
    /// Wall-clock seconds of the Monte Carlo run.
    pub elapsed_s: f64,
    /// Trials per second.
    pub trials_per_s: f64,
}

/// A JSON value as a person types it: text without its quotes, anything else as JSON writes it.
pub fn json_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Aligned text for a terminal.
    Text,
    /// Tidy CSV: one estimate a row.
    Csv,
    /// Markdown tables.
    Markdown,
    /// One JSON object.
    Json,
}

impl Format {
    /// Parse `text`, `csv`, `md` or `json`.
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "text" => Some(Format::Text),
            "csv" => Some(Format::Csv),
            "md" | "markdown" => Some(Format::Markdown),
            "json" => Some(Format::Json),
            _ => None,
        }
    }
}

/// Each rule parameter in `changed` as `key=value (source: value)`, the source's value from
/// `source`.
pub fn rule_changes(changed: &Map<String, Value>, source: &Map<String, Value>) -> Vec<String> {
    changed
        .iter()
        .map(|(k, v)| {
            let was = source.get(k).map(json_text).unwrap_or_default();
            format!(
                "{} {} (source: {was})",
                crate::labels::param_in_prose(k),
                json_text(v)
            )
        })
        .collect()
}

/// The rules line of a report or an odds sheet of `system`: `as written`, or each rule
/// parameter that differs from the source with the source's value. For a mechanic file (a
/// system named by its `.rhai` path) the source is the file, named by `file` (its path and
/// the start of its SHA-256) where known, and the line says so.
pub fn rules_line(
    system: &str,
    file: Option<&str>,
    changed: &Map<String, Value>,
    source: &Map<String, Value>,
) -> String {
    let file = file.or(system.ends_with(".rhai").then_some(system));
    if changed.is_empty() {
        return match file {
            Some(f) => format!("as the file {f} writes them (no rule parameter changed)"),
            None => "as written (no rule parameter changed)".into(),
        };
    }
    let from = match file {
        Some(f) => format!("the file {f}"),
        None => "the source".to_string(),
    };
    let changes = rule_changes(changed, source).join(", ");
    if file.is_some() {
        format!(
            "changed from {from}: {}",
            changes.replace(" (source: ", " (the file: ")
        )
    } else {
        format!("changed from {from}: {changes}")
    }
}

/// `value` as one pretty-printed JSON object and a newline (NaN becomes null).
pub fn pretty_json<T: Serialize + ?Sized>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).expect("reports serialise");
    s.push('\n');
    s
}

/// A result that renders in every [`Format`]: its own text, Markdown and CSV, and JSON from
/// its serialisation.
pub trait Rendered: Serialize {
    /// Aligned plain text.
    fn to_text(&self) -> String;

    /// Markdown.
    fn to_markdown(&self) -> String;

    /// CSV.
    fn to_csv(&self) -> String;

    /// One pretty-printed JSON object (NaN becomes null).
    fn to_json(&self) -> String {
        pretty_json(self)
    }

    /// Render in `format`.
    fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.to_text(),
            Format::Csv => self.to_csv(),
            Format::Markdown => self.to_markdown(),
            Format::Json => self.to_json(),
        }
    }
}

impl Report {
    fn params_line(&self) -> String {
        self.params
            .iter()
            .map(|(k, v)| format!("{k}={}", json_text(v)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Each rule parameter that differs from the source, as `key=value (source: value)`.
    fn rule_changes(&self) -> Vec<String> {
        rule_changes(&self.rules_changed, &self.rules_source)
    }

    /// The rules line: `as written`, or each rule parameter that differs from the source with
    /// the source's value.
    pub fn rules_line(&self) -> String {
        rules_line(
            &self.system,
            self.source.as_deref(),
            &self.rules_changed,
            &self.rules_source,
        )
    }

    fn options_line(&self) -> String {
        if self.options.is_empty() {
            "none".into()
        } else {
            self.options.join(", ")
        }
    }

    fn header(&self) -> String {
        if self.trials == 0 {
            return self.header_without_time();
        }
        format!(
            "{} · {:.2} s ({:.1} M trials/s)",
            self.header_without_time(),
            self.elapsed_s,
            self.trials_per_s / 1e6
        )
    }

    /// The header without the run's time and speed, which differ from run to run: for the
    /// formats that are the same to the byte for the same seed and settings (Markdown).
    fn header_without_time(&self) -> String {
        if self.trials == 0 {
            format!(
                "morale-lab {} · {} · {} · exact solution only",
                self.version, self.scenario, self.system
            )
        } else {
            format!(
                "morale-lab {} · {} · {} · {} trials · seed {} · {} thread{}",
                self.version,
                self.scenario,
                self.system,
                thousands(self.trials),
                self.seed,
                self.threads,
                if self.threads == 1 { "" } else { "s" },
            )
        }
    }

    /// Whether this is an exact-only run (no trials: no estimates, counts or intervals).
    fn exact_only(&self) -> bool {
        self.trials == 0
    }
}

impl Rendered for Report {
    /// Aligned plain text.
    fn to_text(&self) -> String {
        let pct = format!("{}% interval", fmt_level(self.confidence));
        let mut out = String::new();
        out += &self.header();
        out += "\n";
        out += &format!(
            "params: {}\nrules: {}\noptions: {}\n",
            self.params_line(),
            self.rules_line(),
            self.options_line()
        );
        for n in self.notes.iter().chain(&self.exact_skipped) {
            out += &format!("note: {n}\n");
        }
        out += "\n";
        // An exact-only run has no estimates: its tables show the exact values alone.
        let only = self.exact_only();
        let mut rows = vec![if only {
            vec!["outcome".to_string(), "exact".into()]
        } else {
            vec![
                "outcome".to_string(),
                "estimate".into(),
                pct.clone(),
                "exact".into(),
            ]
        }];
        for o in &self.outcomes {
            rows.push(if only {
                vec![o.outcome.clone(), fmt_exact(o.cell.exact, 6)]
            } else {
                vec![
                    o.outcome.clone(),
                    fmt_p(Some(o.cell.p)),
                    fmt_ci(&o.cell),
                    fmt_exact(o.cell.exact, 6),
                ]
            });
        }
        pad_fractions(&mut rows, if only { 1 } else { 3 });
        out += &align(&rows);
        if !self.metrics.is_empty() {
            out += "\n";
            let mut rows = vec![if only {
                vec!["metric".to_string(), "exact".into(), "meaning".into()]
            } else {
                vec![
                    "metric".to_string(),
                    "mean".into(),
                    "± s.e.".into(),
                    "exact".into(),
                    "meaning".into(),
                ]
            }];
            for m in &self.metrics {
                rows.push(if only {
                    vec![m.name.clone(), fmt_exact(m.exact, 4), m.meaning.clone()]
                } else {
                    vec![
                        m.name.clone(),
                        fmt_num(m.value),
                        fmt_num(m.stderr),
                        fmt_exact(m.exact, 4),
                        m.meaning.clone(),
                    ]
                });
            }
            pad_fractions(&mut rows, if only { 1 } else { 3 });
            out += &align_free(&rows, if only { 2 } else { 4 });
        }
        for t in &self.tables {
            // Monte Carlo-only tables (battles) have no exact column.
            let exact = t
                .rows
                .iter()
                .any(|r| r.cells.iter().any(|c| c.exact.is_some()));
            out += &format!(
                "\n{} ({})\n",
                t.title,
                match (only, exact) {
                    (true, _) => "exact",
                    (false, true) => "estimate | exact",
                    (false, false) => "estimate",
                }
            );
            let mut header = vec!["turn".to_string()];
            header.extend(t.columns.iter().cloned());
            let mut rows = vec![header];
            for r in &t.rows {
                let mut row = vec![r.turn.to_string()];
                row.extend(r.cells.iter().map(|c| match (only, exact) {
                    (true, _) => fmt_p(c.exact),
                    (false, true) => format!("{} | {}", fmt_p(Some(c.p)), fmt_p(c.exact)),
                    (false, false) => fmt_p(Some(c.p)),
                }));
                rows.push(row);
            }
            out += &align(&rows);
        }
        out
    }

    /// Markdown: a heading, the parameters, and one table per section.
    fn to_markdown(&self) -> String {
        let pct = format!("{}% interval", fmt_level(self.confidence));
        let mut out = format!("### {}\n\n", self.header_without_time());
        out += &format!(
            "Parameters: `{}`  \nRules: {}  \nOptions: {}\n\n",
            self.params_line(),
            self.rules_line(),
            self.options_line()
        );
        for n in self.notes.iter().chain(&self.exact_skipped) {
            out += &format!("- {n}\n");
        }
        if !self.notes.is_empty() || self.exact_skipped.is_some() {
            out += "\n";
        }
        let only = self.exact_only();
        if only {
            out += "| outcome | exact |\n|---|---:|\n";
        } else {
            out += &format!("| outcome | estimate | {pct} | exact |\n|---|---:|---:|---:|\n");
        }
        for o in &self.outcomes {
            if only {
                out += &format!("| {} | {} |\n", o.outcome, fmt_exact(o.cell.exact, 6));
            } else {
                out += &format!(
                    "| {} | {} | {} | {} |\n",
                    o.outcome,
                    fmt_p(Some(o.cell.p)),
                    fmt_ci(&o.cell),
                    fmt_exact(o.cell.exact, 6)
                );
            }
        }
        if !self.metrics.is_empty() {
            if only {
                out += "\n| metric | exact | meaning |\n|---|---:|---|\n";
            } else {
                out += "\n| metric | mean | ± s.e. | exact | meaning |\n|---|---:|---:|---:|---|\n";
            }
            for m in &self.metrics {
                if only {
                    out += &format!(
                        "| {} | {} | {} |\n",
                        m.name,
                        fmt_exact(m.exact, 4),
                        m.meaning
                    );
                } else {
                    out += &format!(
                        "| {} | {} | {} | {} | {} |\n",
                        m.name,
                        fmt_num(m.value),
                        fmt_num(m.stderr),
                        fmt_exact(m.exact, 4),
                        m.meaning
                    );
                }
            }
        }
        for t in &self.tables {
            let exact = t
                .rows
                .iter()
                .any(|r| r.cells.iter().any(|c| c.exact.is_some()));
            out += &format!(
                "\n**{}** ({})\n\n| turn |",
                t.title,
                match (only, exact) {
                    (true, _) => "exact",
                    (false, true) => "estimate, exact in brackets",
                    (false, false) => "estimate",
                }
            );
            for c in &t.columns {
                out += &format!(" {c} |");
            }
            out += "\n|---:|";
            out += &"---:|".repeat(t.columns.len());
            out += "\n";
            for r in &t.rows {
                out += &format!("| {} |", r.turn);
                for c in &r.cells {
                    out += &match (only, exact) {
                        (true, _) => format!(" {} |", fmt_p(c.exact)),
                        (false, true) => format!(" {} ({}) |", fmt_p(Some(c.p)), fmt_p(c.exact)),
                        (false, false) => format!(" {} |", fmt_p(Some(c.p))),
                    };
                }
                out += "\n";
            }
        }
        out
    }

    /// Tidy CSV: `section,name,turn,count,estimate,ci_low,ci_high,stderr,exact`, one estimate a
    /// row (outcomes, metrics, then every cell of every table).
    fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let opt = |x: Option<f64>| {
            x.filter(|v| v.is_finite())
                .map(|v| v.to_string())
                .unwrap_or_default()
        };
        w.write_record([
            "section", "name", "turn", "count", "estimate", "ci_low", "ci_high", "stderr", "exact",
            "among",
        ])
        .expect("in-memory CSV");
        if let Some(why) = &self.exact_skipped {
            let mut row = vec![String::new(); 10];
            row[0] = "note".into();
            row[1] = why.clone();
            w.write_record(&row).expect("in-memory CSV");
        }
        // A rule parameter changed from the source: one `rule` row each, so a table cannot be
        // taken for the rules as written.
        for change in self.rule_changes() {
            let mut row = vec![String::new(); 10];
            row[0] = "rule".into();
            row[1] = change;
            w.write_record(&row).expect("in-memory CSV");
        }
        for o in &self.outcomes {
            let c = &o.cell;
            w.write_record([
                "outcome".to_string(),
                o.outcome.clone(),
                String::new(),
                c.count.map(|n| n.to_string()).unwrap_or_default(),
                opt(Some(c.p)),
                opt(c.ci_low),
                opt(c.ci_high),
                String::new(),
                opt(c.exact),
                String::new(),
            ])
            .expect("in-memory CSV");
        }
        for m in &self.metrics {
            w.write_record([
                "metric".to_string(),
                m.name.clone(),
                String::new(),
                m.n.map(|n| n.to_string()).unwrap_or_default(),
                opt(m.value),
                String::new(),
                String::new(),
                opt(m.stderr),
                opt(m.exact),
                among(&m.meaning).to_string(),
            ])
            .expect("in-memory CSV");
        }
        for t in &self.tables {
            for r in &t.rows {
                for (name, c) in t.columns.iter().zip(&r.cells) {
                    w.write_record([
                        t.name.clone(),
                        name.clone(),
                        r.turn.to_string(),
                        c.count.map(|n| n.to_string()).unwrap_or_default(),
                        opt(Some(c.p)),
                        opt(c.ci_low),
                        opt(c.ci_high),
                        String::new(),
                        opt(c.exact),
                        String::new(),
                    ])
                    .expect("in-memory CSV");
                }
            }
        }
        String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("UTF-8")
    }
}

/// The trials a mean is taken over, from its meaning's ", among …" (`units that recovered`);
/// empty for a mean over every trial. CSV and Parquet carry it in their `among` column, the
/// pages beside the name, so a conditional mean is never read as one over all trials.
pub fn among(meaning: &str) -> &str {
    meaning
        .rfind(", among ")
        .map_or("", |i| &meaning[i + ", among ".len()..])
}

/// `1234567` → `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `x` with its sign and `decimals` decimals, except that a value that rounds to zero has none:
/// `+0.0312`, `−1.5000` (a true minus sign), `0.0000` (never `−0.0000`).
pub fn signed(x: f64, decimals: usize) -> String {
    let s = format!("{x:+.decimals$}");
    if s[1..].chars().all(|c| c == '0' || c == '.') {
        format!("{:.decimals$}", 0.0)
    } else if let Some(rest) = s.strip_prefix('-') {
        // A true minus sign, as print sets it (a hyphen is shorter and breaks a line).
        format!("\u{2212}{rest}")
    } else {
        s
    }
}

/// `x` with a sign at `digits` places, or, where that would show 0, at the place of its first
/// digit that is not 0 ("+0.0006", never "−0.001" for −0.0006 nor "0.00" for a change): the
/// one rule for a change too small for its column. Past eight places "under 0.00000001".
pub fn signed_small(x: f64, digits: usize) -> String {
    if x == 0.0 || (x * 10f64.powi(digits as i32)).round() != 0.0 {
        return signed(x, digits);
    }
    let places = ((-x.abs().log10()).ceil() as usize).max(digits + 1);
    match places <= 8 {
        true => signed(x, places),
        false => "under 0.00000001".to_string(),
    }
}

/// `x` to at most `digits` places, with no trailing zeros: 1.0 → `1`, 4/3 → `1.333` (a mean of
/// exactly one hit is "1 hit", not "1.000 hits": writer trial 74).
pub fn up_to(x: f64, digits: usize) -> String {
    let s = format!("{x:.digits$}");
    match s.contains('.') {
        true => s.trim_end_matches('0').trim_end_matches('.').to_string(),
        false => s,
    }
}

/// [`up_to`] with its unit, singular at exactly 1: "1 hit", "1.333 hits".
pub fn up_to_units(x: f64, digits: usize, one: &str, many: &str) -> String {
    let n = up_to(x, digits);
    let unit = if n == "1" { one } else { many };
    format!("{n} {unit}")
}

/// A confidence level as a percentage, as given: 0.95 → `95`, 0.999 → `99.9`.
pub fn fmt_level(c: f64) -> String {
    let s = format!("{:.4}", c * 100.0);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn fmt_p(p: Option<f64>) -> String {
    match p {
        Some(v) if v.is_finite() => format!("{v:.6}"),
        _ => "—".into(),
    }
}

/// The simplest fraction a/b (b from 2 to 1,296 = 6^4, the denominators of up to four dice) equal
/// to `x` within 1e-12, for an exact value that is one; `None` for whole numbers and values no such
/// fraction matches (longer turn sequences, capped means).
pub fn simple_fraction(x: f64) -> Option<(u64, u64)> {
    if !x.is_finite() || x < 0.0 || (x - x.round()).abs() <= 1e-12 {
        return None;
    }
    (2..=1296u64).find_map(|b| {
        let a = (x * b as f64).round();
        ((x - a / b as f64).abs() <= 1e-12 && a < 1e15).then_some((a as u64, b))
    })
}

/// In column `col` of `rows` below the header, pad the fractions after the exact values (`0.555556
/// (5/9)`) to one width, so that the right-aligned decimals still line up.
fn pad_fractions(rows: &mut [Vec<String>], col: usize) {
    let suffix = |c: &str| c.find(" (").map_or(0, |i| c[i..].chars().count());
    let widest = rows
        .iter()
        .skip(1)
        .filter_map(|r| r.get(col))
        .map(|c| suffix(c))
        .max()
        .unwrap_or(0);
    for cell in rows.iter_mut().skip(1).filter_map(|r| r.get_mut(col)) {
        let pad = widest - suffix(cell);
        cell.push_str(&" ".repeat(pad));
    }
}

/// An exact value with its simple fraction beside it, if it has one: `0.555556 (5/9)`.
fn fmt_exact(x: Option<f64>, digits: usize) -> String {
    match x {
        Some(v) if v.is_finite() => match simple_fraction(v) {
            Some((a, b)) => format!("{v:.digits$} ({a}/{b})"),
            None => format!("{v:.digits$}"),
        },
        _ => "—".into(),
    }
}

fn fmt_num(x: Option<f64>) -> String {
    match x {
        Some(v) if v.is_finite() => format!("{v:.4}"),
        _ => "—".into(),
    }
}

fn fmt_ci(c: &Cell) -> String {
    match (c.ci_low, c.ci_high) {
        (Some(lo), Some(hi)) => format!("[{lo:.6}, {hi:.6}]"),
        _ => "—".into(),
    }
}

/// The width in characters of each column of `rows`.
pub(crate) fn widths(rows: &[Vec<String>]) -> Vec<usize> {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    (0..cols)
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect()
}

/// Rows as aligned text columns: the first left-aligned, the others right-aligned, two spaces
/// apart (a trailing fifth column of free text stays left-aligned).
pub fn align(rows: &[Vec<String>]) -> String {
    align_free(rows, 4)
}

/// [`align`], with the free-text column (left-aligned when it is a row's last) at `free`.
fn align_free(rows: &[Vec<String>], free: usize) -> String {
    let widths = widths(rows);
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (i, cell) in r.iter().enumerate() {
            let pad = widths[i] - cell.chars().count();
            if i == 0 {
                line += cell;
                line += &" ".repeat(pad);
            } else if i + 1 == r.len() && i == free {
                // A trailing free-text column (metric meanings) is left-aligned.
                line += "  ";
                line += cell;
            } else {
                line += "  ";
                line += &" ".repeat(pad);
                line += cell;
            }
        }
        out += line.trim_end();
        out += "\n";
    }
    out
}

/// Rows as CSV text.
pub(crate) fn csv_text(rows: Vec<Vec<String>>) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.write_record(r).expect("in-memory CSV");
    }
    String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("UTF-8 in, UTF-8 out")
}

/// Rows as aligned text columns, the first `text` columns left-aligned, the others
/// right-aligned, two spaces apart.
pub(crate) fn align_left(rows: &[Vec<String>], text: usize) -> String {
    let widths = widths(rows);
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (i, cell) in r.iter().enumerate() {
            let pad = " ".repeat(widths[i] - cell.chars().count());
            if i > 0 {
                line += "  ";
            }
            if i < text {
                line += cell;
                line += &pad;
            } else {
                line += &pad;
                line += cell;
            }
        }
        out += line.trim_end();
        out += "\n";
    }
    out
}

/// Rows as a Markdown table, the first row the header.
pub(crate) fn md_table(rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    for (i, r) in rows.iter().enumerate() {
        let cells: Vec<String> = r.iter().map(|c| c.replace('|', "\\|")).collect();
        out += &format!("| {} |\n", cells.join(" | "));
        if i == 0 {
            out += &format!(
                "|{}\n",
                r.iter()
                    .enumerate()
                    .map(|(j, _)| if j < 5 { " --- |" } else { " ---: |" })
                    .collect::<String>()
            );
        }
    }
    out
}

/// `text` in lines of at most `width` characters, broken at spaces (a longer word stands on a
/// line of its own), later lines indented by two spaces; each line ends with a newline.
pub(crate) fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            out += &line;
            out += "\n";
            line = "  ".into();
        } else if len > 0 && line != "  " {
            line.push(' ');
        }
        line += word;
    }
    out += &line;
    out + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_values_that_are_simple_fractions_show_them() {
        assert_eq!(simple_fraction(5.0 / 9.0), Some((5, 9)));
        assert_eq!(simple_fraction(1.0 / 3.0), Some((1, 3)));
        assert_eq!(simple_fraction(29.0 / 9.0), Some((29, 9)));
        assert_eq!(simple_fraction(671.0 / 1296.0), Some((671, 1296)));
        // Whole numbers, and values of longer sequences, have none.
        assert_eq!(simple_fraction(0.0), None);
        assert_eq!(simple_fraction(1.0), None);
        assert_eq!(simple_fraction(1.0 / 7776.0), None);
        assert_eq!(simple_fraction(0.422646), None);
        assert_eq!(fmt_exact(Some(5.0 / 9.0), 6), "0.555556 (5/9)");
        assert_eq!(fmt_exact(Some(0.25), 4), "0.2500 (1/4)");
        assert_eq!(fmt_exact(None, 6), "—");
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(fmt_level(0.95), "95");
        assert_eq!(fmt_level(0.999), "99.9");
    }
}
