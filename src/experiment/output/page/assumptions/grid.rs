//! The verdict's grid: beside a question with a verdict whose steps were worked out exactly,
//! a row per step with the led comparison's difference in every measure of the answer, the
//! answer it would then get and its largest change to another comparison.

use super::*;
use crate::experiment::assumptions::{Assumption, Assumptions};

/// A grid being written: whose differences its band holds, in which measures, and the rows so
/// far, to tell a row alike to an earlier one.
pub(super) struct Grid<'r> {
    result: &'r ExperimentResult,
    a: &'r Assumptions,
    /// The comparison the question leads with.
    led: String,
    /// The measures the verdict rests on.
    heads: Vec<Head>,
    /// The band's columns: every measure of the answer (the chance of elimination too: the
    /// reader looked for it, writer trial 55), the verdict resting on its own.
    shown: Vec<Head>,
    /// The grid's rows so far, by their differences in the band, their words ("Morale class
    /// changed to Elite") and their rule: a later row of the very same differences says so,
    /// where two rows alike to the last digit read as a mistake (writer trial 58).
    band_rows: Vec<(Vec<f64>, String, String)>,
}

impl<'r> Grid<'r> {
    /// The grid of `result`'s question, where it has one.
    pub(super) fn of(result: &'r ExperimentResult, a: &'r Assumptions) -> Option<Grid<'r>> {
        let (led, heads) = verdict_grid(result, a)?;
        Some(Grid {
            result,
            a,
            led,
            heads,
            shown: Head::all(&result.experiment, &result.runs[0].report),
            band_rows: Vec::new(),
        })
    }

    /// The table's head and band, and its own rows: which way is better, and the report's own
    /// differences.
    pub(super) fn table(&self) -> Tab {
        let mut head: Vec<(String, bool)> = ["setting", "in this report", "changed to", "rule"]
            .iter()
            .map(|h| (h.to_string(), false))
            .collect();
        // Said as what the cells are: a difference, of which comparison (a reader took the
        // cells for values, writer trial 52). On the page a band over the columns says whose
        // ("change in" beside "changed to" read as one more setting, writer trial 54).
        for h in &self.shown {
            head.push((format!("difference in {}", short(h)), true));
        }
        head.push((format!("{}'s answer", self.led), false));
        // Beside the verdict's measures, the text says what else the step moves.
        head.push(("the other comparisons, with the step taken".into(), false));
        let group = super::super::Group {
            first: 4,
            heads: self
                .shown
                .iter()
                .map(short)
                .chain(["answer".to_string()])
                .collect(),
            title: grid_title(self.result, &self.led),
        };
        let mut tab = Tab {
            head,
            rows: Vec::new(),
            group: Some(group),
        };
        // Which way is better in each column, as the charts say it, in a row of its own (a
        // reader could not tell a good minus from a bad one, writer trial 57; in the heads it
        // made them five lines tall); then the report's own differences and answer, for each
        // step's to be read against ("+0.91" alone read as either, writer trial 54).
        let mut row = own_row(super::super::BETTER_ROW);
        for h in &self.shown {
            row.push(
                match super::super::headline::better_way(h, -1.0) {
                    Some(true) => "lower",
                    Some(false) => "higher",
                    None => "",
                }
                .to_string(),
            );
        }
        row.extend([String::new(), String::new()]);
        tab.rows.push(row);
        let mut row = own_row("none: as in this report");
        for h in &self.shown {
            row.push(
                self.now(h)
                    .map_or("\u{2014}".to_string(), |d| band_cell(h, d)),
            );
        }
        row.push(self.answer_now().unwrap_or_else(|| "\u{2014}".into()));
        row.push(String::new());
        tab.rows.push(row);
        tab
    }

    /// The led comparison's difference in `h` in this report.
    fn now(&self, h: &Head) -> Option<f64> {
        led_difference(self.result, &self.led, &h.key)
    }

    /// The led comparison's answer in this report.
    fn answer_now(&self) -> Option<String> {
        verdict_word(&self.heads, |h| self.now(h))
    }

    /// A setting's rows of the grid, a row per step: `rows` are the setting's, `top` the row
    /// that stands for it (its rule), `gravest_of` picks the gravest of some rows.
    pub(super) fn step_rows<'a>(
        &mut self,
        tab: &mut Tab,
        rows: &[&'a Assumption],
        setting: &str,
        in_report: &str,
        top: &Assumption,
        gravest_of: &dyn Fn(Vec<&'a Assumption>) -> Option<&'a Assumption>,
    ) {
        let f = rows[0];
        let result = self.result;
        let led = self.led.clone();
        let mut tos: Vec<&str> = Vec::new();
        for r in rows.iter() {
            if !tos.contains(&r.to.as_str()) {
                tos.push(&r.to);
            }
        }
        if tos
            .iter()
            .all(|t| setting_value(&f.key, t).parse::<i64>().is_ok())
        {
            tos.sort_by_key(|t| setting_value(&f.key, t).parse::<i64>().unwrap_or_default());
        }
        let a = self.a;
        let changed = |h: &Head, to: &str| -> Option<f64> {
            a.verdict_steps
                .iter()
                .find(|v| v.variant == led && v.headline == h.key && v.key == f.key && v.to == to)
                .map(|v| v.changed)
        };
        let now = self.answer_now();
        let to_band =
            |to: &str| -> Option<Vec<f64>> { self.shown.iter().map(|h| changed(h, to)).collect() };
        for (n, to) in tos.iter().enumerate() {
            let mut row = match n {
                0 => vec![setting.to_string(), in_report.to_string()],
                _ => vec![String::new(), String::new()],
            };
            row.push(as_roll(&f.key, &setting_value(&f.key, to)));
            row.push(match n {
                0 => top.rule.clone(),
                _ => String::new(),
            });
            for h in &self.shown {
                row.push(changed(h, to).map_or("\u{2014}".to_string(), |d| band_cell(h, d)));
            }
            let then = verdict_word(&self.heads, |h| changed(h, to));
            // What the step does to the other comparisons the question asks: the
            // gravest, in a sentence.
            let other = gravest_of(
                rows.iter()
                    .filter(|r| {
                        r.to == *to && r.variant != led && !is_reference(result, &r.variant)
                    })
                    .copied()
                    .collect(),
            );
            // A step listed for another comparison alone, its band as the report's own, says
            // so beside its answer: printed without the last column, its row read as a step
            // that changes nothing (writer trial 74).
            let only = match &other {
                Some(o)
                    if self
                        .shown
                        .iter()
                        .all(|h| match (changed(h, to), self.now(h)) {
                            (Some(x), Some(y)) => (x - y).abs() < 1e-12,
                            _ => false,
                        }) =>
                {
                    // The other comparison's name quoted: "it moves only retreat on fire
                    // alone" was read twice (writer trial 74, fourth round).
                    format!(" (only \u{201c}{}\u{201d} moves)", o.variant)
                }
                _ => String::new(),
            };
            // A row whose numbers are an earlier row's says so in its answer: on paper, where
            // the last column is left off, two identical rows read as a slip (writer trial 74:
            // Elite and a support behind).
            let only = match (only.is_empty(), self.twin(&to_band(to))) {
                // By the other row's step alone ("same as Elite"): a cell of four printed
                // lines pushed the table onto a page of its own.
                (true, Some((like, _))) => format!(
                    " (same as {})",
                    match like.split_once(" changed to ") {
                        Some((_, v)) => v.to_string(),
                        None => format!("\u{201c}{like}\u{201d}"),
                    }
                ),
                _ => only,
            };
            row.push(match (&then, &now) {
                (Some(t), Some(n)) if t == n => format!("still {t}{only}"),
                (Some(t), Some(n)) => format!("{t}, not {n}"),
                _ => "\u{2014}".into(),
            });
            let band = to_band(to);
            row.push(match other {
                Some(o) => {
                    // A step that leaves the band as in this report is listed for another
                    // comparison: said first, so that its row does not read as a repeat of
                    // the report's own (writer trial 58).
                    let unmoved = self
                        .shown
                        .iter()
                        .all(|h| match (changed(h, to), self.now(h)) {
                            (Some(x), Some(y)) => (x - y).abs() < 1e-12,
                            _ => false,
                        });
                    let unmoved = match unmoved {
                        true => format!(
                            "{}'s differences stay as they are. ",
                            crate::labels::capitalised(&led)
                        ),
                        false => String::new(),
                    };
                    format!("{unmoved}{}", another_comparison(result, o, &tab.rows))
                }
                None => self.no_other(band.as_deref(), &top.rule),
            });
            if let Some(v) = band {
                self.band_rows.push((
                    v,
                    format!(
                        "{setting} changed to {}",
                        as_roll(&f.key, &setting_value(&f.key, to))
                    ),
                    top.rule.clone(),
                ));
            }
            tab.rows.push(row);
        }
    }

    /// An earlier row whose band is `band` to the last digit: its words ("Morale class changed
    /// to Elite") and its rule.
    fn twin(&self, band: &Option<Vec<f64>>) -> Option<(&str, &str)> {
        let b = band.as_deref()?;
        self.band_rows
            .iter()
            .find(|(theirs, _, _)| {
                theirs.len() == b.len() && theirs.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
            })
            .map(|(_, like, rule)| (like.as_str(), rule.as_str()))
    }

    /// The last column of a step that changes no other comparison by as much as a listed
    /// step: where its band is an earlier row's to the last digit, that row named.
    fn no_other(&self, band: Option<&[f64]>, rule: &str) -> String {
        let same = self.twin(&band.map(<[f64]>::to_vec));
        match same {
            // Two steps under one rule that do the same (Elite's score and a support's bonus,
            // both EF-2) say that rule, the reason they agree.
            // In a reader's words (writer trial 74: "exactly as …, a step of the same rule; no
            // other change listed" was obscure).
            // The rule by its name ("both change the test the same way"): "both move one rule
            // the same way" did not say which (writer trial 74).
            Some((like, theirs)) if theirs == rule => format!(
                "the same numbers as the row \u{201c}{like}\u{201d} (both change {} the same way); other comparisons move little",
                crate::labels::rule_title(rule).unwrap_or("one rule")
            ),
            Some((like, _)) => format!(
                "the same numbers as the row \u{201c}{like}\u{201d}; other comparisons move little"
            ),
            None => "other comparisons move little".into(),
        }
    }
}

/// Another comparison's change under a step, in the band's terms: a difference from the same
/// baseline with the one it has now ("The amendment, 1 retreat in 6 blocked: eliminated −4.73
/// points (now −10.70)."); a sentence of "would differ from the plain 25% rules by …" nine
/// times over read as program output (writer trial 58).
/// The size in this report is said once a table for each comparison and measure: nine rows
/// of "(in this report −10.70)" read as filler (writer trial 74); `earlier` are the table's
/// rows so far.
fn another_comparison(
    result: &ExperimentResult,
    o: &Assumption,
    earlier: &[Vec<String>],
) -> String {
    let head = Head::named(o.headline.clone(), &result.runs[0].report);
    let sign = match o.effect.as_str() {
        "flips" => "; the difference changes sign",
        _ => "",
    };
    // The measure by its column head and the change with its unit, the size now bare: a cell
    // of 4–5 printed lines said the same formula in every row (writer trial 62).
    let now = grid_cell(&head, o.difference);
    let now = now
        .strip_suffix(" points")
        .map(str::to_string)
        .unwrap_or(now);

    let whose = format!(
        "{}: {} ",
        crate::labels::capitalised(&o.variant),
        head.labelled()
    );
    let now = format!("(in this report {now})");
    let said = earlier.iter().any(|r| {
        r.last()
            .is_some_and(|c| c.contains(whose.as_str()) && c.contains(now.as_str()))
    });
    // "in this report", not "now": a reader took "now" for the value after the step (writer
    // trial 74).
    let now = match said {
        true => String::new(),
        false => format!(" {now}"),
    };
    format!("{whose}{}{now}{sign}.", band_cell(&head, o.changed))
}

/// A row of the grid's own, named in its first cell, the setting's three others empty.
fn own_row(name: &str) -> Vec<String> {
    vec![
        name.to_string(),
        String::new(),
        String::new(),
        String::new(),
    ]
}

/// A measure's head in the band: a chance by what it is the chance of ("chance of being
/// eliminated"), a mean by its label.
fn short(h: &Head) -> String {
    match h.metric {
        true => h.labelled(),
        false => h.axis(),
    }
}

/// For a question with a verdict whose steps were worked out exactly: the comparison the
/// question leads with, and the measures the verdict rests on.
pub(super) fn verdict_grid(
    result: &ExperimentResult,
    a: &crate::experiment::assumptions::Assumptions,
) -> Option<(String, Vec<Head>)> {
    let exp = &result.experiment;
    if exp.verdict_on.is_empty() || !a.exact {
        return None;
    }
    let led = exp.compared().find(|(_, v)| !v.reference)?.1.name.clone();
    if !a.verdict_steps.iter().any(|v| v.variant == led) {
        return None;
    }
    let heads = exp
        .verdict_on
        .iter()
        .map(|k| Head::named(k.clone(), &result.runs[0].report))
        .collect();
    Some((led, heads))
}

/// The exact difference variant `led` minus its baseline in headline `key`, at the first
/// setting, where both are exact.
pub(super) fn led_difference(result: &ExperimentResult, led: &str, key: &str) -> Option<f64> {
    use crate::experiment::assumptions::exact_of;
    let exp = &result.experiment;
    let li = exp.variants.iter().position(|v| v.name == led)?;
    let bi = exp.baseline_of(li)?;
    let first = &result.runs[..exp.variants.len().min(result.runs.len())];
    let of = |i: usize| -> Option<f64> {
        exact_of(&first.iter().find(|r| r.variant == i)?.report, key)?
    };
    Some(of(li)? - of(bi)?)
}

/// The answer a comparison gets from its differences in the measures the verdict rests on, as
/// the answer's opening word says it: "Yes" where every one moves the better way, "No" where
/// every one moves the worse way, "no different" where none moves, else "In part"; `None`
/// where a difference is not known.
pub(super) fn verdict_word(heads: &[Head], d: impl Fn(&Head) -> Option<f64>) -> Option<String> {
    let mut ways = Vec::new();
    for h in heads {
        let x = d(h)?;
        if x.abs() >= EXACTLY_ZERO {
            ways.push(super::super::headline::better_way(h, x));
        }
    }
    Some(
        match (
            ways.iter().filter(|w| **w == Some(true)).count(),
            ways.iter().filter(|w| **w == Some(false)).count(),
        ) {
            _ if ways.is_empty() => "no different",
            (b, 0) if b == heads.len() => "Yes",
            (0, w) if w == heads.len() => "No",
            _ => "In part",
        }
        .into(),
    )
}

/// A difference in a grid's cell: "no difference" where it is exactly none ("the same" read as the same
/// as the report's, writer trial 56).
fn grid_cell(head: &Head, d: f64) -> String {
    // "no difference", as the last column says it (a bare "none" in a column of points was one
    // of four wordings for a zero, writer trial 74).
    match d.abs() < EXACTLY_ZERO {
        true => "no difference".into(),
        false => head.diff(d),
    }
}

/// A cell of the grid's band: a difference with its unit, "+0.78 turns" beside "−13.94
/// points" (a bare "+0.78" beside points read as a chance, writer trial 58).
fn band_cell(head: &Head, d: f64) -> String {
    let cell = grid_cell(head, d);
    match (head.metric, crate::labels::metric_unit(&head.key)) {
        (true, Some(unit)) if d.abs() >= EXACTLY_ZERO => format!("{cell} {unit}"),
        _ => cell,
    }
}

/// The head over a grid's columns: "the amendment against the plain 25% rules, with the step
/// taken".
fn grid_title(result: &ExperimentResult, led: &str) -> String {
    format!(
        "{led} minus {}, with the step taken",
        result.experiment.baseline_name(led)
    )
}
