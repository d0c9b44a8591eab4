//! Publishable odds tables: exact pass chances as fractions and percentages, computed by the
//! rules' own code and enumerated exactly (no sampling).

use serde::Serialize;

use serde_json::{Map, Value};

use crate::frac::Frac;
use crate::params::Resolved;
use crate::report::{Format, rules_line};

/// What a sheet is asked for beyond its rules: each system takes the ones that apply to it and
/// refuses the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OddsAsk {
    /// Starting stands: the test table marks the rows where the 50% rule fails every test, and
    /// the rally tables are for a unit of this size (default 8).
    pub stands: Option<u8>,
    /// A test table for every unit size (`--stands any`): its first column gives the sizes the
    /// 50% rule fails at each loss, and no row is marked for one size.
    pub any_size: bool,
    /// The last row of the by-losses test table (default 6).
    pub max_lost: Option<u8>,
    /// Stands the rallying unit has already lost (default none).
    pub lost: Option<u8>,
    /// The rally tables' last rally phase (default 8): a sheet to set beside a report of
    /// another game length (12 turns) gives the chances by its last turn.
    pub phases: Option<u8>,
}

impl OddsAsk {
    /// Refuse what `system`'s sheet does not take: `takes` lists the flags it does
    /// (`--stands`, `--max-lost`, `--lost`, `--phases`), `why` says what its sheet is instead.
    ///
    /// # Errors
    /// [`crate::Error::Invalid`] naming the first flag given that `takes` lacks.
    pub fn only(&self, system: &str, takes: &[&str], why: &str) -> crate::error::Result<()> {
        for (flag, value) in [
            ("--stands", self.stands.or(self.any_size.then_some(0))),
            ("--max-lost", self.max_lost),
            ("--lost", self.lost),
            ("--phases", self.phases),
        ] {
            if let Some(v) = value
                && !takes.contains(&flag)
            {
                return Err(crate::error::Error::Invalid {
                    what: flag.into(),
                    value: match (flag, self.any_size && self.stands.is_none()) {
                        ("--stands", true) => "any".to_string(),
                        _ => v.to_string(),
                    },
                    allowed: format!("the {system} odds sheet takes no {flag}: {why}"),
                });
            }
        }
        Ok(())
    }
}

/// The largest denominator a sheet prints as a fraction: 6^3 = 216, the chances three dice
/// make (and 2^7 = 128, seven tests of even chances, among others). A chance whose reduced fraction has a larger denominator shows its percentage alone.
pub const MOST_DENOMINATOR: u64 = 216;

/// How to read a sheet's cells, said on every sheet in every format.
pub const READING: &str = "Each table answers the question in its title: find the row for the situation in its first column and the column for the unit or roll in its head; the cell where they cross is the chance. Every chance is exact. Each cell gives it as a percentage, in bold; in a table where every chance is a simple fraction, the fraction is beneath it (1/6: one chance in six). A chance that is not certain but rounds to 0% or 100% shows as <0.1% or >99.9%, in lighter type.";

/// [`READING`] for the plain-text and Markdown sheets, which have no bold and no second line:
/// the fraction first, the percentage in brackets.
pub const READING_PLAIN: &str = "Each table answers the question in its title: find the row for the situation in its first column and the column for the unit or roll in its head; the cell where they cross is the chance. Every chance is exact. Each cell gives it as a fraction where its bottom number is 216 or less (1/6: one chance in six), with its percentage in brackets, else as a percentage alone. A chance that is not certain but rounds to 0% or 100% shows as <0.1% or >99.9%.";

/// What a cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CellKind {
    /// An exact chance.
    Chance,
    /// An exact mean (volley hits).
    Mean,
    /// Words: what a rule does there (`fails (50% rule)`, a dash).
    Note,
}

/// One cell of a sheet, the same in every format.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OddsCell {
    /// A chance, a mean, or words.
    pub kind: CellKind,
    /// The exact value as a reduced fraction, where its denominator is at most
    /// [`MOST_DENOMINATOR`] (`None` for words, and for a chance shown as a percentage alone).
    pub fraction: Option<String>,
    /// The value as a number (`None` for words).
    pub value: Option<f64>,
    /// What the cell shows in every format: `5/9 (55.6%)`, `85.2%`, `7/6 (1.17)`, or the words.
    pub text: String,
}

impl OddsCell {
    /// A cell of words (what a rule does there, or a dash).
    pub fn note(text: &str) -> OddsCell {
        OddsCell {
            kind: CellKind::Note,
            fraction: None,
            value: None,
            text: text.into(),
        }
    }
    /// An exact chance `p`, with its fraction where it has one of at most [`MOST_DENOMINATOR`].
    pub fn chance(p: f64) -> OddsCell {
        let fraction = crate::report::simple_fraction(p)
            .filter(|(_, d)| *d <= MOST_DENOMINATOR)
            .map(|(n, d)| format!("{n}/{d}"))
            .or_else(|| (p == 0.0 || p == 1.0).then(|| format!("{p}")));
        OddsCell::shown(CellKind::Chance, fraction, p)
    }

    /// A chance or a mean `value` whose fraction is `fraction` where the sheet shows one: the
    /// text is the fraction with the percentage (a mean: two decimals) in brackets, or the
    /// percentage (the decimals) alone.
    fn shown(kind: CellKind, fraction: Option<String>, value: f64) -> OddsCell {
        let number = match kind {
            CellKind::Mean => format!("{value:.2}"),
            _ => percent_text(value),
        };
        OddsCell {
            kind,
            text: match &fraction {
                Some(f) => format!("{f} ({number})"),
                None => number,
            },
            fraction,
            value: Some(value),
        }
    }
}

impl CellKind {
    /// Its name in CSV and JSON.
    pub fn name(self) -> &'static str {
        match self {
            CellKind::Chance => "chance",
            CellKind::Mean => "mean",
            CellKind::Note => "note",
        }
    }
}

/// A chance as a percentage for a sheet: one decimal, never 0.0% or 100.0% for a chance that
/// is neither (the data's percentage likewise: [`percent_data`]).
pub fn percent_text(p: f64) -> String {
    never_certain(&percent_1(p), p)
}

/// A chance's one-decimal percentage `text` (without its sign) as shown: ">99.9%" or "<0.1%"
/// where it reads 100.0 or 0.0 for a chance `p` that is neither.
pub fn never_certain(text: &str, p: f64) -> String {
    match text {
        "100.0" if p < 1.0 => ">99.9%".into(),
        "0.0" if p > 0.0 => "<0.1%".into(),
        t => format!("{t}%"),
    }
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
    /// Notes printed under the table (a rule that overrides it, a row left out).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub foot: Vec<String>,
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
    /// A line under the title (a rule set's description), if any.
    pub subtitle: Option<String>,
    /// The tables.
    pub sections: Vec<OddsSection>,
    /// Notes (rule ids, what a dash means).
    pub notes: Vec<String>,
    /// The rule parameters that differ from the source's rules, with their values on this
    /// sheet (empty when it shows the rules as written).
    pub rules_changed: Map<String, Value>,
    /// The source's values of the rule parameters in `rules_changed`.
    pub rules_source: Map<String, Value>,
    /// Every rule parameter as this sheet plays the rules.
    pub rules: Map<String, Value>,
}

/// The text sheet's width: it fits a 100-column terminal.
const TEXT_WIDTH: usize = 100;

/// The columns (indices into the cells, after the row label's `widths[0]`) in as few consecutive
/// groups as fit `width` with the label and two spaces before each column, the groups as even in
/// size as that allows (a column wider than `width` alone is a group of its own).
fn column_groups(widths: &[usize], width: usize) -> Vec<std::ops::Range<usize>> {
    let cols = widths.len() - 1;
    let fits = |r: &std::ops::Range<usize>| {
        r.len() <= 1 || widths[0] + r.clone().map(|i| 2 + widths[i + 1]).sum::<usize>() <= width
    };
    for n in 1..=cols.max(1) {
        // n groups, the first `cols % n` of them one column longer.
        let (size, extra) = (cols / n, cols % n);
        let mut start = 0;
        let groups: Vec<_> = (0..n)
            .map(|g| {
                let len = size + usize::from(g < extra);
                start += len;
                start - len..start
            })
            .collect();
        if groups.iter().all(fits) {
            return groups;
        }
    }
    (0..cols).map(|i| i..i + 1).collect()
}

pub(crate) use crate::report::wrap;

/// A chance as a percentage to one decimal, rounded half away from zero as a rulebook reader
/// expects (1/16 is 6.3%, not the 6.2% of rounding half to even). Exact where it matters: a
/// chance whose tenth of a percent ends in exactly one half has a denominator dividing 2,000, and
/// the dice's fractions among them (powers of two) are exact in binary.
pub fn percent_1(p: f64) -> String {
    format!("{:.1}", (p * 1000.0).round() / 10.0)
}

/// A chance as a percentage for the data (the CSV's `percent`): one decimal, or as many more as
/// keep a chance that is not certain off 100 and one that is not impossible off 0 (the sheet's
/// promise, where its text says ">99.9%": 99.97, not 100.0).
pub fn percent_data(p: f64) -> String {
    let one = percent_1(p);
    if !((one == "100.0" && p < 1.0) || (one == "0.0" && p > 0.0)) {
        return one;
    }
    for digits in 2..=12 {
        let t = format!("{:.*}", digits, 100.0 * p);
        let v: f64 = t.parse().unwrap_or(0.0);
        if v > 0.0 && v < 100.0 {
            return t;
        }
    }
    format!("{}", 100.0 * p)
}

/// A cell from an exact chance as a fraction: the fraction shown where its denominator is at
/// most [`MOST_DENOMINATOR`], else the percentage alone (see [`READING`]).
pub fn cell(f: Frac) -> OddsCell {
    OddsCell::shown(CellKind::Chance, shown_fraction(f), f.value())
}

/// A cell from an exact mean as a fraction: `7/6 (1.17)`.
pub fn mean_cell(f: Frac) -> OddsCell {
    OddsCell::shown(CellKind::Mean, shown_fraction(f), f.value())
}

/// `f` as the sheet shows it: where its denominator is at most [`MOST_DENOMINATOR`].
fn shown_fraction(f: Frac) -> Option<String> {
    (f.den <= MOST_DENOMINATOR).then(|| f.to_string())
}

/// A modifier with its sign, as a rulebook prints it: +1, 0, −1 (a true minus sign).
pub fn signed(n: i32) -> String {
    match n {
        0 => "0".into(),
        n if n > 0 => format!("+{n}"),
        n => format!("−{}", -n),
    }
}

/// An exact probability (a multiple of 1/6^k) as a reduced fraction.
pub fn to_frac(p: f64, den: u64) -> Frac {
    Frac::new((p * den as f64).round() as u64, den).expect("den > 0")
}

impl Odds {
    /// A sheet of `sections` and `notes` showing the rules as written (see [`Odds::set_rules`]).
    pub fn new(
        system: &str,
        title: &str,
        mut sections: Vec<OddsSection>,
        notes: Vec<String>,
    ) -> Odds {
        drop_zero_rows(&mut sections);
        Odds {
            system: system.into(),
            version: crate::report::VERSION.into(),
            title: title.into(),
            subtitle: None,
            sections,
            notes,
            rules_changed: Map::new(),
            rules_source: Map::new(),
            rules: Map::new(),
        }
    }

    /// Say which rules the sheet shows: every rule parameter of `r`, and those changed from
    /// the source.
    pub fn set_rules(&mut self, r: &Resolved) {
        self.rules = r.rules_json();
        let changed = r.rules_changed();
        self.rules_changed = changed
            .iter()
            .map(|c| (c.key.to_string(), c.value.clone()))
            .collect();
        self.rules_source = changed
            .iter()
            .map(|c| (c.key.to_string(), Value::from(c.source)))
            .collect();
    }

    /// Title the sheet with `title` and, under it, `subtitle` (a rule set's name and
    /// description, or the user's own title).
    pub fn set_title(&mut self, title: &str, subtitle: Option<&str>) {
        self.title = title.into();
        self.subtitle = subtitle
            .filter(|s| !s.trim().is_empty())
            .map(str::to_string);
    }

    /// The rules line: "as written", or each rule parameter changed from the source.
    pub fn rules_line(&self) -> String {
        rules_line(&self.system, None, &self.rules_changed, &self.rules_source)
    }

    /// The sheet as a player reads it: every title, note and word cell in a player's words
    /// ([`in_players_words`]), the ids said once in a last note.
    fn for_players(&self) -> Odds {
        let mut ids = Vec::new();
        let mut o = self.clone();
        for s in &mut o.sections {
            s.title = in_players_words(&s.title, &mut ids);
            for f in &mut s.foot {
                *f = in_players_words(f, &mut ids);
            }
            for (_, cells) in &mut s.rows {
                for c in cells.iter_mut().filter(|c| c.kind == CellKind::Note) {
                    c.text = in_players_words(&c.text, &mut ids);
                }
            }
        }
        for n in &mut o.notes {
            *n = in_players_words(n, &mut ids);
        }
        o.notes.extend(rule_ids_line(&ids));
        o
    }

    /// Render in `format`: JSON and CSV as the data is (rule ids included), the others in a
    /// player's words.
    pub fn render(&self, format: Format) -> String {
        if matches!(format, Format::Markdown | Format::Text) {
            return self.for_players().render_read(format);
        }
        self.render_read(format)
    }

    fn render_read(&self, format: Format) -> String {
        match format {
            Format::Json => crate::report::pretty_json(self),
            Format::Csv => {
                let mut w = csv::Writer::from_writer(Vec::new());
                w.write_record([
                    "table", "row", "column", "kind", "text", "fraction", "value", "percent",
                ])
                .expect("in-memory CSV");
                // The rules the sheet shows: a row per rule parameter changed from the source.
                for (k, v) in &self.rules_changed {
                    let was = self.rules_source.get(k).map(crate::report::json_text);
                    w.write_record([
                        "rule".to_string(),
                        k.clone(),
                        format!("source: {}", was.unwrap_or_default()),
                        "rule".to_string(),
                        crate::report::json_text(v),
                        String::new(),
                        String::new(),
                        String::new(),
                    ])
                    .expect("in-memory CSV");
                }
                for s in &self.sections {
                    for f in &s.foot {
                        w.write_record([s.title.as_str(), "", "", "note", f, "", "", ""])
                            .expect("in-memory CSV");
                    }
                    for (label, cells) in &s.rows {
                        for (col, c) in s.columns.iter().zip(cells) {
                            w.write_record([
                                s.title.clone(),
                                label.clone(),
                                col.clone(),
                                c.kind.name().to_string(),
                                c.text.clone(),
                                c.fraction.clone().unwrap_or_default(),
                                c.value.map(|v| v.to_string()).unwrap_or_default(),
                                match (c.kind, c.value) {
                                    (CellKind::Chance, Some(v)) => percent_data(v),
                                    _ => String::new(),
                                },
                            ])
                            .expect("in-memory CSV");
                        }
                    }
                }
                String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("UTF-8")
            }
            Format::Markdown => {
                let mut out = format!("## {}\n\n", self.title);
                if let Some(sub) = &self.subtitle {
                    out += &format!("_{sub}_\n\n");
                }
                out += &format!("Rules: {}\n\n{READING_PLAIN}\n\n", self.rules_line());
                for s in &self.sections {
                    out += &format!("### {}\n\n| {} |", s.title, s.row_header);
                    for c in &s.columns {
                        out += &format!(" {c} |");
                    }
                    out += "\n|---|";
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
                    for f in &s.foot {
                        out += &format!("{f}\n\n");
                    }
                }
                for n in &self.notes {
                    out += &format!("- {n}\n");
                }
                out
            }
            Format::Text => {
                let mut out = format!("{}\n", self.title);
                if let Some(sub) = &self.subtitle {
                    out += &wrap(sub, TEXT_WIDTH);
                }
                out += &format!("rules: {}\n", self.rules_line());
                out += &wrap(READING_PLAIN, TEXT_WIDTH);
                for s in &self.sections {
                    // A title wider than the terminal wraps, as the notes do.
                    out += "\n";
                    out += &wrap(&s.title, TEXT_WIDTH);
                    let mut widths: Vec<usize> = std::iter::once(s.row_header.chars().count())
                        .chain(s.columns.iter().map(|c| c.chars().count()))
                        .collect();
                    for (label, cells) in &s.rows {
                        widths[0] = widths[0].max(label.chars().count());
                        for (i, c) in cells.iter().enumerate() {
                            widths[i + 1] = widths[i + 1].max(c.text.chars().count());
                        }
                    }
                    // Columns in groups that fit the terminal, each group a table of its own
                    // under the rows' labels.
                    let groups = column_groups(&widths, TEXT_WIDTH);
                    for (g, cols) in groups.iter().enumerate() {
                        if g > 0 {
                            out += "\n";
                            out += &wrap(&format!("{} (continued)", s.title), TEXT_WIDTH);
                        }
                        let line = |first: &str, rest: Vec<&str>| {
                            let mut l = format!("{first:<w$}", w = widths[0]);
                            for (i, r) in cols.clone().zip(rest) {
                                l += &format!("  {r:>w$}", w = widths[i + 1]);
                            }
                            l + "\n"
                        };
                        out += &line(
                            &s.row_header,
                            s.columns[cols.clone()].iter().map(String::as_str).collect(),
                        );
                        for (label, cells) in &s.rows {
                            out += &line(
                                label,
                                cells[cols.clone()]
                                    .iter()
                                    .map(|c| c.text.as_str())
                                    .collect(),
                            );
                        }
                    }
                    for f in &s.foot {
                        out += &wrap(f, TEXT_WIDTH);
                    }
                }
                out += "\n";
                for n in &self.notes {
                    out += &wrap(n, TEXT_WIDTH);
                }
                out
            }
        }
    }

    /// A print-ready quick-reference page: one self-contained HTML file (no script, nothing
    /// fetched) whose tables fit the printable width of both A4 and US Letter (180 mm), each
    /// cell the exact fraction above its percentage, each table kept on one page where it fits,
    /// and the rules in force (the sheet's notes) before the tables.
    pub fn html(&self) -> String {
        self.html_on(None)
    }

    /// [`Odds::html`] for a paper size the page asks the printer for (`@page size`); `None`
    /// leaves it to the browser's print dialog.
    pub fn html_on(&self, paper: Option<Paper>) -> String {
        // On the printed sheet the rules box ends with the rules themselves: the ids' line
        // is for the text and Markdown forms, beside the data.
        let mut o = self.for_players();
        if !self.notes.is_empty() && o.notes.len() > self.notes.len() {
            o.notes.pop();
        }
        let page = match paper {
            None => String::new(),
            Some(p) => format!("\n@page {{ size: {}; }}", p.css()),
        };
        o.html_read().replacen(
            "</style>",
            &format!("{page}</style>"),
            usize::from(paper.is_some()),
        )
    }

    fn html_read(&self) -> String {
        use crate::report::escape_html as esc;
        // Every printed page names the sheet at its foot, beside its number: a loose second
        // page is still read as what it is. (A CSS string: quotes, backslashes and `<`
        // escaped, no line breaks.)
        // And at its first page's head, small and grey, what worked it out, for a writer to
        // credit, without a version number, a software string on a printed page (writer trial
        // 74); the screen's line keeps it (writer trial 59; on every page it read as a stamp, trial 65); on the sheet's body it took a line a player has no use for (trial 56).
        let quoted = |t: &str| {
            t.replace('\\', "\\\\")
                .replace('"', "\\\"")
                .replace(['\n', '\r'], " ")
                .replace('<', "\\3c ")
        };
        let named = format!(
            "@page {{ @top-right {{ content: \"\"; }} @bottom-left {{ content: \"{}\"; font: 7pt \"DejaVu Sans\", sans-serif; color: #666; }} }} @page :first {{ @top-right {{ content: \"Figures worked out with morale-lab\"; font: 7pt \"DejaVu Sans\", sans-serif; color: #666; }} }}\n",
            quoted(&self.title),
        );
        let mut out = format!(
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{ODDS_CSS}{named}</style>\n</head>\n<body>\n<main>\n<h1>{}</h1>\n{}<p class=\"howto\"><strong>How to read.</strong> {}</p>\n<p class=\"meta rules{}\"><strong>Rules:</strong> {} {}.<span class=\"made\"> Worked out exactly by morale-lab {}.</span></p>\n",
            esc(&self.title),
            esc(&self.title),
            self.subtitle
                .as_ref()
                .map(|sub| format!("<p class=\"subtitle\">{}</p>\n", esc(sub)))
                .unwrap_or_default(),
            esc(READING),
            if self.rules_changed.is_empty() {
                ""
            } else {
                " changed"
            },
            // A player's sheet: "Rank & File as written", without the tool's word for its
            // numbers.
            esc(&crate::labels::capitalised(&crate::labels::system(
                &self.system
            ))),
            esc(&{
                let line = self
                    .rules_line()
                    .replace(" (no rule parameter changed)", "");
                // "As written" is not the whole truth where the sheet reads a silence of the
                // sources its own way: the notes say where, and the line points to them.
                match self
                    .notes
                    .iter()
                    .any(|n| n.contains("this sheet's assumption"))
                {
                    true => {
                        format!(
                            "{line}. Where the rules give no number, the rules in force below say what this sheet assumes"
                        )
                    }
                    false => line,
                }
            }),
            esc(&self.version),
        );
        // The rules in force before the tables: a player reads how a test is rolled, and what
        // the sheet reads the rules as, on the first page, before the odds that follow from it.
        out += "<section class=\"rules\">\n<h2>The rules in force</h2>\n<ul>\n";
        for n in &self.notes {
            out += &format!("<li>{}</li>\n", esc(n));
        }
        out += "</ul>\n</section>\n";
        for s in &self.sections {
            // Fractions in a table where every chance has one, else none: under some cells
            // and not their neighbours they read as patchy (writer trial 74, twice).
            let fractions = s.rows.iter().all(|(_, cells)| {
                cells
                    .iter()
                    .filter(|c| c.kind != CellKind::Note)
                    .all(|c| c.fraction.is_some())
            }) && s
                .rows
                .iter()
                .any(|(_, cells)| cells.iter().any(|c| c.fraction.is_some()));
            // A table of one column and a few rows (a chance and the chance re-rolled) lies on
            // its side: two rows across the page, not a tall column down it.
            out += &match s.columns.len() == 1 && (2..=8).contains(&s.rows.len()) {
                true => section_across(s, fractions),
                false => section_table(s, fractions),
            };
        }
        out += "</main>\n</body>\n</html>\n";
        out
    }
}

/// A cell of a sheet's table: its percentage in bold, and beneath it its simple fraction where
/// `fractions` (a table whose every chance has one; elsewhere none is shown, as fractions under
/// some cells and not their neighbours read as patchy, writer trial 74).
fn cell_html(c: &OddsCell, fractions: bool) -> String {
    use crate::report::escape_html as esc;
    // A chance that rounds to a certainty (">99.9%", "<0.1%") is set lighter than the
    // others: a table's run of them reads as a plain band, not a wall of bold.
    let f = match c.text.starts_with(['>', '<']) {
        true => "f edge",
        false => "f",
    };
    match (c.kind, c.fraction.as_ref().filter(|_| fractions)) {
        (CellKind::Note, _) => format!("<td class=\"x\">{}</td>", esc(&c.text)),
        // Every cell's bold line is its percentage; a simple fraction is beneath it.
        (_, Some(fr)) => format!(
            "<td><span class=\"{f}\">{}</span><span class=\"p\">{}</span></td>",
            esc(&percent(&c.text)),
            esc(fr)
        ),
        (_, None) => format!(
            "<td><span class=\"{f}\">{}</span></td>",
            esc(&percent(&c.text))
        ),
    }
}

/// A table of one column and a few rows, on its side: its rows across the page.
fn section_across(s: &OddsSection, fractions: bool) -> String {
    use crate::report::escape_html as esc;
    let mut out = String::new();
    out += &format!(
        "<section>\n<h2>{}</h2>\n<table class=\"across\">\n<tbody>\n<tr><th scope=\"row\">{}</th>",
        esc(&s.title),
        esc(&s.row_header)
    );
    for (label, _) in &s.rows {
        out += &format!("<td class=\"h\">{}</td>", esc(label));
    }
    out += &format!("</tr>\n<tr><th scope=\"row\">{}</th>", esc(&s.columns[0]));
    for (_, cells) in &s.rows {
        out += &cells
            .first()
            .map(|c| cell_html(c, fractions))
            .unwrap_or_default();
    }
    out += "</tr>\n</tbody>\n</table>\n";
    for f in &s.foot {
        out += &format!("<p class=\"foot\">{}</p>\n", esc(f));
    }
    out += "</section>\n";
    out
}

/// A table of a sheet, its columns grouped by class where they carry a leader's bonus.
fn section_table(s: &OddsSection, fractions: bool) -> String {
    use crate::report::escape_html as esc;
    let mut out = String::new();
    // A table of one or two columns at half the width, not stretched across the page.
    // Columns of one class with and without a leader's bonus ("Veteran", "Veteran +1
    // leader", "Veteran +2 leader") go under the class's name, each headed by its
    // bonus alone: heads of three lines made the rally table hard to scan (writer
    // trial 54).
    let groups = head_groups(&s.columns);
    let two = groups.iter().any(|g| g.1.len() > 1);
    out += &format!(
        "<section>\n<h2>{}</h2>\n<table{}>\n<thead><tr><th scope=\"col\"{}>{}</th>",
        esc(&s.title),
        if s.columns.len() <= 2 {
            " class=\"narrow\""
        } else {
            ""
        },
        if two { " rowspan=\"2\"" } else { "" },
        esc(&s.row_header)
    );
    // A head wraps at its spaces only: "Regular + re-roll" never breaks inside
    // "re-roll" (a non-breaking hyphen).
    let head = |c: &str| esc(c).replace('-', "\u{2011}");
    if two {
        // A column alone under its name spans both rows, unless its help is its own (an
        // Elite column's "one re-roll", beneath "Elite Veteran": a head of four lines made the
        // sheet a page longer).
        let under = |subs: &[(String, String)]| subs.len() > 1 || subs[0].0 != "no leader";
        for (name, subs) in &groups {
            out += &match subs.len() {
                1 if !under(subs) => {
                    format!("<th scope=\"col\" rowspan=\"2\">{}</th>", head(&subs[0].1))
                }
                n => format!(
                    "<th scope=\"colgroup\" colspan=\"{n}\" class=\"group\">{}</th>",
                    head(name)
                ),
            };
        }
        out += "</tr>\n<tr>";
        for (_, subs) in groups.iter().filter(|g| under(&g.1)) {
            for (sub, _) in subs {
                out += &format!("<th scope=\"col\" class=\"sub\">{}</th>", head(sub));
            }
        }
    } else {
        for c in &s.columns {
            out += &format!("<th scope=\"col\">{}</th>", head(c));
        }
    }
    out += "</tr></thead>\n<tbody>\n";
    // Rows in a row whose every cell says the same words (a unit the 50% rule fails
    // whatever its class) are one row, its words across the table: "4–6".
    let mut i = 0;
    while i < s.rows.len() {
        let (label, cells) = &s.rows[i];
        let words = |cells: &[OddsCell]| -> Option<String> {
            let first = cells.first()?;
            (cells.len() > 1
                && cells
                    .iter()
                    .all(|c| c.kind == CellKind::Note && c.text == first.text))
            .then(|| first.text.clone())
        };
        if let Some(w) = words(cells) {
            let mut j = i;
            while j + 1 < s.rows.len() && words(&s.rows[j + 1].1).as_deref() == Some(&w) {
                j += 1;
            }
            let span = if j > i {
                format!("{}\u{2013}{}", label, s.rows[j].0)
            } else {
                label.clone()
            };
            out += &format!(
                "<tr><th scope=\"row\">{}</th><td class=\"x all\" colspan=\"{}\">{}</td></tr>\n",
                esc(&span),
                cells.len(),
                esc(&w)
            );
            i = j + 1;
            continue;
        }
        out += &format!("<tr><th scope=\"row\">{}</th>", esc(label));
        // A table gives every cell's fraction or none (see `Odds::html`): rows of one
        // height read as a table, not a ragged list (writer trials 48, 52 and 74).
        for c in cells {
            out += &cell_html(c, fractions);
        }
        out += "</tr>\n";
        i += 1;
    }
    out += "</tbody>\n</table>\n";
    for f in &s.foot {
        out += &format!("<p class=\"foot\">{}</p>\n", esc(f));
    }
    out += "</section>\n";
    out
}

/// True for a rule id of the tool's readings: two capitals, a hyphen, a number (`RF-6`).
pub(crate) fn is_rule_id(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() >= 4
        && b[0].is_ascii_uppercase()
        && b[1].is_ascii_uppercase()
        && b[2] == b'-'
        && b[3..].iter().all(u8::is_ascii_digit)
}

/// A sheet's text in a player's words: the rule ids of the tool's readings taken out (a
/// leading `RF-2: `, a bracket of ids only, an id leading a bracket), with the ids it held in
/// their order, for one line at the sheet's end that says what they are.
pub fn in_players_words(text: &str, ids: &mut Vec<String>) -> String {
    let mut note = |id: &str| {
        if !ids.iter().any(|x| x == id) {
            ids.push(id.to_string());
        }
    };
    let mut t = text.to_string();
    // A leading id: "RF-2: roll…" or "EF-5 (the optional return roll…): a retreating…".
    if let Some((head, rest)) = t
        .split_once(' ')
        .map(|(a, b)| (a.to_string(), b.to_string()))
    {
        let id = head.trim_end_matches(':');
        if is_rule_id(id) {
            note(id);
            let rest = if head.ends_with(':') {
                rest
            } else if let Some(inner) = rest.strip_prefix('(') {
                match inner.split_once("):") {
                    Some((lead, after)) => format!("{lead}:{after}"),
                    None => rest.clone(),
                }
            } else {
                rest
            };
            let mut c = rest.chars();
            t = match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect(),
                None => rest,
            };
        }
    }
    // Brackets: "(RF-4, RF-5)" goes; "(EF-5, the optional return roll)" keeps its words.
    let mut out = String::with_capacity(t.len());
    let mut rest = t.as_str();
    while let Some(open) = rest.find('(') {
        let Some(len) = rest[open..].find(')') else {
            break;
        };
        let inner = &rest[open + 1..open + len];
        let parts: Vec<&str> = inner.split(", ").collect();
        let first_id = parts.first().is_some_and(|p| is_rule_id(p));
        if first_id {
            let words: Vec<&str> = parts.iter().copied().filter(|p| !is_rule_id(p)).collect();
            for p in parts.iter().filter(|p| is_rule_id(p)) {
                note(p);
            }
            if words.is_empty() {
                out += rest[..open].trim_end_matches(' ');
            } else {
                out += &rest[..open];
                out += &format!("({})", words.join(", "));
            }
        } else {
            out += &rest[..=open + len];
        }
        rest = &rest[open + len + 1..];
    }
    out += rest;
    out
}

/// The closing line of a sheet in a player's words: what the rule ids it left out are.
pub fn rule_ids_line(ids: &[String]) -> Option<String> {
    (!ids.is_empty()).then(|| {
        let mut ids = ids.to_vec();
        ids.sort_by_key(|id| {
            let (sys, n) = id.split_at(3);
            (sys.to_string(), n.parse::<u32>().unwrap_or(0))
        });
        format!(
            "Rules behind this sheet, as the tool reads and numbers them: {}.",
            ids.join(", ")
        )
    })
}

/// A row whose every chance is 0 tells a player nothing a line cannot: it goes, and a note
/// under its table says so (a section of such rows only is kept whole).
pub fn drop_zero_rows(sections: &mut [OddsSection]) {
    for s in sections.iter_mut() {
        let zero = |cells: &[OddsCell]| {
            !cells.is_empty()
                && cells
                    .iter()
                    .all(|c| c.kind == CellKind::Chance && c.value == Some(0.0))
        };
        let gone: Vec<String> = s
            .rows
            .iter()
            .filter(|(_, cells)| zero(cells))
            .map(|(label, _)| label.clone())
            .collect();
        if !gone.is_empty() && gone.len() < s.rows.len() {
            s.rows.retain(|(_, cells)| !zero(cells));
            s.foot.push(format!(
                "{} {} left out: every chance in it is 0.",
                crate::labels::capitalised(&s.row_header),
                match &gone[..] {
                    [one] => format!("{one} is"),
                    more => format!("{} are", more.join(", ")),
                }
            ));
        }
    }
}

/// The percentage a cell's text gives in brackets (`5/9 (55.6%)` → `55.6%`; a mean's `(2.50)`
/// as it is).
fn percent(text: &str) -> String {
    match (text.rfind('('), text.rfind(')')) {
        (Some(a), Some(b)) if a < b => text[a + 1..b].to_string(),
        _ => text.to_string(),
    }
}

/// A paper size for the printed sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paper {
    /// ISO A4, 210 × 297 mm.
    A4,
    /// US Letter, 8.5 × 11 in.
    Letter,
}

impl Paper {
    /// Its name as the command line takes it.
    pub fn parse(s: &str) -> Option<Paper> {
        match s {
            "a4" => Some(Paper::A4),
            "letter" => Some(Paper::Letter),
            _ => None,
        }
    }
    /// Its CSS `size`.
    pub fn css(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "letter",
        }
    }
}

/// The odds page's style: on screen a centred column; on paper 12 mm margins and a 180 mm
/// column (A4 and Letter both print it whole), tables unbroken, shading kept.
const ODDS_CSS: &str = r#"
:root { --rule: #9a9a9a; --head: #ececec; --alt: #f6f6f6; }
* { box-sizing: border-box; }
body { margin: 0; color: #111; background: #fff; font: 9.5pt/1.3 "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; }
main { max-width: 180mm; margin: 8mm auto; padding: 0 3mm; }
h1 { font-size: 14pt; margin: 0 0 1.2mm; }
h2 { font-size: 11.5pt; margin: 3.5mm 0 1.2mm; }
.meta { color: #444; font-size: 8.5pt; margin: 0 0 1.5mm; }
.howto { font-size: 9.5pt; margin: 0 0 2mm; padding: 1.5mm 2.5mm; border: 0.3mm solid var(--rule); background: var(--alt); -webkit-print-color-adjust: exact; print-color-adjust: exact; }
table.narrow { width: 50%; }
table.across { width: auto; table-layout: auto; }
table.across th, table.across td { padding: 0.5mm 2.5mm; }
td.h { background: var(--head); font-weight: 600; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
td.x.all { font-size: 9pt; }
.foot { font-size: 8.5pt; color: #333; margin: 1mm 0 0; }
.subtitle { font-size: 10.5pt; margin: 0 0 2mm; }
.rules.changed { color: #000; border-left: 1mm solid #b00; padding-left: 2mm; }
section { break-inside: avoid; page-break-inside: avoid; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; font-variant-numeric: tabular-nums; font-size: 9pt; }
th, td { border: 0.25mm solid var(--rule); padding: 0.5mm 0.5mm; line-height: 1.15; text-align: center; vertical-align: middle; overflow-wrap: anywhere; }
thead th { background: var(--head); font-weight: 600; overflow-wrap: normal; font-size: 8.3pt; }
thead th.group { border-bottom-width: 1px; }
thead th.sub { font-weight: 500; font-size: 7.5pt; white-space: nowrap; padding-left: 1px; padding-right: 1px; }
tbody th { background: var(--head); font-weight: 600; }
tbody tr:nth-child(even) td { background: var(--alt); }
td .f { display: block; font-weight: 600; white-space: nowrap; }
td .f.edge { font-weight: 400; color: #222; }
td .p { display: block; color: #333; font-size: 8pt; line-height: 1.1; white-space: nowrap; }
tbody th { text-align: left; }
td.x { color: #555; font-style: italic; font-size: 8pt; }
.rules ul { margin: 0; padding-left: 4mm; font-size: 8.5pt; line-height: 1.18; columns: 3; column-gap: 5mm; }
.rules h2 { margin-top: 2mm; }
section.rules { break-inside: auto; page-break-inside: auto; }
.rules li { margin-bottom: 0.3mm; break-inside: avoid; page-break-inside: avoid; }
code { font-family: "DejaVu Sans Mono", Menlo, monospace; font-size: 0.95em; }
@page { margin: 7mm 10mm 9mm; @bottom-right { content: "page " counter(page) " of " counter(pages); font: 7pt "DejaVu Sans", sans-serif; color: #666; } }
@media print {
  /* The tool's name and version are for the screen: on a player's printed sheet they read as a
     software credit (writer trials 55, 56). */
  .made { display: none; }
  main { max-width: none; margin: 0; padding: 0 0.6mm; }
  thead th, tbody th, tbody tr:nth-child(even) td { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  /* On paper a little tighter than on screen: Rank & File's seven tables, its rally tables to
     the 12th phase included, on two sheets of A4 or Letter. */
  h2 { font-size: 10.5pt; margin: 2.5mm 0 1mm; }
  table { font-size: 8.5pt; }
  th, td { line-height: 1.05; padding: 0.3mm 0.5mm; }
  td .p { font-size: 7.5pt; line-height: 1; }
  .foot { font-size: 8pt; }
}
"#;

/// A table's column heads in groups of one class with and without a leader's bonus, in order:
/// ("Veteran", [("no leader", "Veteran"), ("+1 leader", "Veteran +1 leader"), …]); a head
/// with no such siblings is a group of its own, its one member the head itself.
fn head_groups(columns: &[String]) -> Vec<(String, Vec<(String, String)>)> {
    let mut out: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for c in columns {
        let (name, sub) = match (c.split_once(" +"), c.strip_suffix(')')) {
            (Some((name, rest)), _) if rest.ends_with("leader") => {
                (name.to_string(), format!("+{rest}"))
            }
            // "Elite Veteran (one re-roll)": the class under a head of the Elite columns with
            // their help, "Elite (one re-roll)".
            (_, Some(open)) if open.contains(" (") => {
                let (name, help) = open.split_once(" (").unwrap_or((open, ""));
                match name.split_once(' ') {
                    Some((kind, class)) => (format!("{kind} ({help})"), class.to_string()),
                    None => (name.to_string(), help.to_string()),
                }
            }
            _ => (c.clone(), "no leader".to_string()),
        };
        match out.last_mut() {
            Some((last, subs)) if *last == name => subs.push((sub, c.clone())),
            _ => out.push((name, vec![(sub, c.clone())])),
        }
    }
    out
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_class_with_its_leaders_bonuses_is_one_head_over_three() {
        let cols: Vec<String> = [
            "Veteran",
            "Veteran +1 leader",
            "Veteran +2 leader",
            "Elite Veteran (one re-roll)",
            "Elite Green (one re-roll)",
            "Regular + re-roll",
        ]
        .iter()
        .map(|c| c.to_string())
        .collect();
        let g = head_groups(&cols);
        assert_eq!(g.len(), 3);
        assert_eq!(g[0].0, "Veteran");
        let subs: Vec<&str> = g[0].1.iter().map(|s| s.0.as_str()).collect();
        assert_eq!(subs, ["no leader", "+1 leader", "+2 leader"]);
        // The Elite columns under one head with what they count, each by its class.
        assert_eq!(g[1].0, "Elite (one re-roll)");
        assert_eq!(
            g[1].1,
            vec![
                (
                    "Veteran".to_string(),
                    "Elite Veteran (one re-roll)".to_string()
                ),
                ("Green".to_string(), "Elite Green (one re-roll)".to_string())
            ]
        );
        assert_eq!(g[2].0, "Regular + re-roll");
    }
    use super::*;

    #[test]
    fn percentages_round_half_away_from_zero() {
        assert_eq!(percent_1(1.0 / 16.0), "6.3");
        assert_eq!(cell(Frac::new(1, 16).unwrap()).text, "1/16 (6.3%)");
        assert_eq!(percent_1(3.0 / 16.0), "18.8");
        assert_eq!(percent_1(1.0 / 3.0), "33.3");
        assert_eq!(percent_1(2.0 / 3.0), "66.7");
        assert_eq!(percent_1(1.0), "100.0");
        assert_eq!(percent_1(0.0), "0.0");
    }

    /// Issue 74: the data never says 100.0 where the sheet says ">99.9%".
    #[test]
    fn the_datas_percentage_is_never_whole_for_a_chance_that_is_not() {
        assert_eq!(percent_data(1295.0 / 1296.0), "99.9");
        assert_eq!(percent_data(2047.0 / 2048.0), "99.95");
        assert_eq!(percent_data(1.0 - 1.0 / 46656.0), "99.998");
        assert_eq!(percent_data(1.0 / 46656.0), "0.002");
        assert_eq!(percent_data(1.0), "100.0");
        assert_eq!(percent_data(0.0), "0.0");
        assert_eq!(percent_data(0.5), "50.0");
    }

    #[test]
    fn columns_are_grouped_to_fit_the_width() {
        // A label of 11 and columns of 13, 17, 13: 11 + 15 + 19 = 45 fit 50, the third does not.
        assert_eq!(column_groups(&[11, 13, 17, 13], 50), vec![0..2, 2..3]);
        assert_eq!(column_groups(&[11, 13, 17, 13], 100), vec![0..3]);
        // Six columns that do not fit in one line: two groups of three, not five and one.
        assert_eq!(
            column_groups(&[11, 13, 17, 13, 17, 13, 17], 100),
            vec![0..3, 3..6]
        );
        // A column wider than the width alone stands in a group of its own.
        assert_eq!(column_groups(&[5, 200, 3], 100), vec![0..1, 1..2]);
        assert_eq!(column_groups(&[5], 100), vec![0..0]);
    }

    #[test]
    fn notes_wrap_at_spaces_with_an_indent() {
        assert_eq!(wrap("one two three four", 9), "one two\n  three\n  four\n");
        assert_eq!(wrap("short", 100), "short\n");
        assert_eq!(wrap("a verylongword b", 5), "a\n  verylongword\n  b\n");
        let text = "RF-2: roll a D6, −1 per stand lost, + leader bonus; pass on the class's base number or more (Veteran 3, Regular 4, Green 5).";
        let wrapped = wrap(text, 100);
        assert!(
            wrapped.lines().all(|l| l.chars().count() <= 100),
            "{wrapped}"
        );
        assert_eq!(
            wrapped.split_whitespace().collect::<Vec<_>>(),
            text.split_whitespace().collect::<Vec<_>>()
        );
    }
}
