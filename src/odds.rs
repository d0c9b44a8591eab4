//! Publishable odds tables: exact pass chances as fractions and percentages, computed by the
//! rules' own code and enumerated exactly (no sampling).

use serde::Serialize;

use crate::frac::Frac;
use crate::report::Format;

/// One cell: an exact chance, or a dash with a reason.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OddsCell {
    /// The chance as a reduced fraction (`None` where the rules forbid the test).
    pub fraction: Option<String>,
    /// The chance as a number.
    pub p: f64,
    /// What the cell shows: `5/9 (55.6%)`.
    pub text: String,
}

/// One table of an odds sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OddsSection {
    /// The table's title.
    pub title: String,
    /// What the rows are.
    pub row_header: String,
    /// Column headings.
    pub columns: Vec<String>,
    /// Rows: a label and one cell per column.
    pub rows: Vec<(String, Vec<OddsCell>)>,
}

/// An odds sheet: a few tables and the notes that say how to read them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Odds {
    /// The rule system.
    pub system: String,
    /// The tool's version.
    pub version: String,
    /// The sheet's title.
    pub title: String,
    /// The tables.
    pub sections: Vec<OddsSection>,
    /// Notes (rule ids, what a dash means).
    pub notes: Vec<String>,
}

/// A cell from an exact fraction.
pub fn cell(f: Frac) -> OddsCell {
    OddsCell {
        fraction: Some(f.to_string()),
        p: f.value(),
        text: format!("{} ({:.1}%)", f, 100.0 * f.value()),
    }
}

/// An exact probability (a multiple of 1/6^k) as a reduced fraction.
pub fn to_frac(p: f64, den: u64) -> Frac {
    Frac::new((p * den as f64).round() as u64, den).expect("den > 0")
}

impl Odds {
    /// Render in `format`.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Json => {
                let mut s = serde_json::to_string_pretty(self).expect("odds serialise");
                s.push('\n');
                s
            }
            Format::Csv => {
                let mut w = csv::Writer::from_writer(Vec::new());
                w.write_record(["table", "row", "column", "fraction", "p", "percent"])
                    .expect("in-memory CSV");
                for s in &self.sections {
                    for (label, cells) in &s.rows {
                        for (col, c) in s.columns.iter().zip(cells) {
                            w.write_record([
                                s.title.clone(),
                                label.clone(),
                                col.clone(),
                                c.fraction.clone().unwrap_or_default(),
                                c.p.to_string(),
                                format!("{:.1}", 100.0 * c.p),
                            ])
                            .expect("in-memory CSV");
                        }
                    }
                }
                String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("UTF-8")
            }
            Format::Markdown => {
                let mut out = format!("## {}\n\n", self.title);
                for s in &self.sections {
                    out += &format!("### {}\n\n| {} |", s.title, s.row_header);
                    for c in &s.columns {
                        out += &format!(" {c} |");
                    }
                    out += "\n|---:|";
                    out += &"---:|".repeat(s.columns.len());
                    out += "\n";
                    for (label, cells) in &s.rows {
                        out += &format!("| {label} |");
                        for c in cells {
                            out += &format!(" {} |", c.text);
                        }
                        out += "\n";
                    }
                    out += "\n";
                }
                for n in &self.notes {
                    out += &format!("- {n}\n");
                }
                out
            }
            Format::Text => {
                let mut out = format!("{}\n", self.title);
                for s in &self.sections {
                    out += &format!("\n{}\n", s.title);
                    let mut widths: Vec<usize> = std::iter::once(s.row_header.chars().count())
                        .chain(s.columns.iter().map(|c| c.chars().count()))
                        .collect();
                    for (label, cells) in &s.rows {
                        widths[0] = widths[0].max(label.chars().count());
                        for (i, c) in cells.iter().enumerate() {
                            widths[i + 1] = widths[i + 1].max(c.text.chars().count());
                        }
                    }
                    let line = |first: &str, rest: Vec<&str>| {
                        let mut l = format!("{first:>w$}", w = widths[0]);
                        for (i, r) in rest.iter().enumerate() {
                            l += &format!("  {r:>w$}", w = widths[i + 1]);
                        }
                        l + "\n"
                    };
                    out += &line(
                        &s.row_header,
                        s.columns.iter().map(String::as_str).collect(),
                    );
                    for (label, cells) in &s.rows {
                        out += &line(label, cells.iter().map(|c| c.text.as_str()).collect());
                    }
                }
                out += "\n";
                for n in &self.notes {
                    out += &format!("{n}\n");
                }
                out
            }
        }
    }
}
