//! The report's body (question, answer, method, sections, reproduce line) shared by
//! `summary.md` and `index.html`, and `summary.md` itself.

use super::*;
use crate::experiment::compare::same_outcome;

/// A table of the report, rendered to Markdown (`summary.md`) and HTML (`index.html`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Tab {
    /// Column heads, and whether each column holds numbers (right-aligned, sorted as numbers).
    pub head: Vec<(String, bool)>,
    /// The rows' cells, as text.
    pub rows: Vec<Vec<String>>,
}

impl Tab {
    pub(super) fn new(head: &[(&str, bool)]) -> Tab {
        Tab {
            head: head.iter().map(|&(h, n)| (h.to_string(), n)).collect(),
            rows: Vec::new(),
        }
    }

    pub(super) fn markdown(&self) -> String {
        let heads: Vec<&str> = self.head.iter().map(|h| h.0.as_str()).collect();
        let mut out = format!("| {} |\n|", heads.join(" | "));
        for (_, numeric) in &self.head {
            out += if *numeric { "---:|" } else { "---|" };
        }
        out += "\n";
        // A `|` inside a cell would end it: escape it.
        for r in &self.rows {
            let cells: Vec<String> = r.iter().map(|c| c.replace('|', "\\|")).collect();
            out += &format!("| {} |\n", cells.join(" | "));
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
    /// Printed with the article (the assumptions that matter); else on screen only.
    pub printed: bool,
}

/// The report's body: the question, the answer, a line on how it was run, the sections (each
/// variant, then the differences) and the reproduce line.
pub(crate) struct Page {
    /// The heading: the file's `title`, else its question.
    pub title: String,
    pub question: String,
    /// What was played, in words: the scenario, the settings every variant shares, each
    /// variant by what sets it apart, the sweep.
    pub setup: String,
    /// With a sweep of two axes: per variant the headline over both (a caption and a table,
    /// rows the second axis, columns the first), the table a designer would print.
    pub pivots: Vec<(String, Tab)>,
    /// The verdict, one or two sentences (variants compared), else the whole answer.
    pub answer: String,
    /// The experiment author's account of why (the file's `why`), after the answer.
    pub why: Option<String>,
    /// With variants: each variant's headline with its interval and its difference from the
    /// baseline, between the verdict and the detail.
    pub headline: Option<Tab>,
    /// Under the answer, where a reader first does the arithmetic: that a change is worked out
    /// before rounding (`None` without changes to read).
    pub rounding: Option<String>,
    /// Under the answer's table: what each headline counts ("Recovered: back in good order by
    /// the last turn."), so that a printed table is read as it was measured.
    pub meanings: Option<String>,
    /// The rest of the answer (variants compared): each comparison in words.
    pub detail: String,
    pub method: String,
    pub sections: Vec<Section>,
    pub reproduce: String,
}

/// A metric's name with the condition its mean is taken under, as its meaning words it (", among
/// units that recovered"): `turns_to_recover (among units that recovered)`. A mean over some
/// trials only must not be read as one over all: a harsher rule can shorten it by removing the
/// slow units first.
fn with_condition(name: &str, meaning: &str) -> String {
    let head = crate::labels::metric(name).head;
    match condition_of(meaning) {
        Some(c) => format!("{head} ({c})"),
        None => head,
    }
}

/// The verdict on the headline (one or two sentences) and the headline table of an experiment
/// with variants and no sweep: each variant's headline (exact where known, else the estimate)
/// with its interval, and its difference from the baseline with interval and whether chance
/// explains it.
fn headline_table(result: &ExperimentResult, comparisons: &[Comparison]) -> (String, Tab) {
    let exp = &result.experiment;
    let head = Head::of(exp, &result.runs[0].report);
    let key = head.key.clone();
    let difference = format!("difference from {}", exp.variants[0].name);
    let title = head.labelled();
    let swept = !exp.sweep.is_empty();
    // One number per quantity: where every value is exact, the table gives the exact values and
    // the simulation only as their check; else the estimates with their intervals.
    let exact_all = result
        .runs
        .iter()
        .all(|r| find(&r.report, &key).is_some_and(|c| c.exact.is_some()));
    let check = "simulation's check".to_string();
    let zf = super::answer::check_z(result);
    // One axis swept: its label heads the column and each cell is a value ("3"), not the
    // label again in every row ("Green base number 3", wrapped on paper with the 3 alone).
    let axis = match exp.sweep.as_slice() {
        [one] => crate::labels::capitalised(&crate::params::label(&one.key)),
        _ => "setting".to_string(),
    };
    let mut cols = vec![("variant", false)];
    if swept {
        cols.push((axis.as_str(), false));
    }
    if exact_all {
        cols.extend([
            (title.as_str(), true),
            (difference.as_str(), true),
            (check.as_str(), false),
        ]);
    } else {
        cols.extend([
            (title.as_str(), true),
            (difference.as_str(), true),
            ("chance alone could explain it", false),
        ]);
    }
    let mut tab = Tab::new(&cols);
    let mut moved = Vec::new();
    for run in &result.runs {
        let v = &exp.variants[run.variant];
        let Some(c) = find(&run.report, &key) else {
            continue;
        };
        let cmp = comparisons
            .iter()
            .find(|x| x.variant == v.name && x.point == run.point && head.is(x));
        if let Some(x) = cmp
            && x.distinguishable
            && !v.reference
        {
            moved.push((v.name.clone(), x.exact_difference.unwrap_or(x.difference)));
        }
        let mut row = vec![v.name.clone()];
        if swept {
            row.push(match run.point.as_slice() {
                [one] if exp.sweep.len() == 1 => value_words(&one.as_input()),
                point => super::answer::point_words(exp, point),
            });
        }
        if exact_all {
            let x = c.exact.unwrap_or(c.p);
            row.push(head.value(x));
            row.push(match cmp {
                None if run.variant == 0 => "baseline".to_string(),
                None => "not compared".to_string(),
                Some(d) if super::answer::exactly_same(d) => "exactly the same".to_string(),
                Some(d) => head.diff(d.exact_difference.unwrap_or(d.difference)),
            });
            row.push(check_cell(&c, !head.metric, exp.confidence, zf, ""));
        } else {
            row.push(match (c.exact, c.ci_low, c.ci_high) {
                (Some(x), _, _) => format!("{}, exact", head.value(x)),
                (None, Some(l), Some(h)) => {
                    format!("{} [{}, {}]", head.value(c.p), head.value(l), head.value(h))
                }
                _ => head.value(c.p),
            });
            let (diff, chance) = match cmp {
                None if run.variant == 0 => ("baseline".to_string(), String::new()),
                None => ("not compared".to_string(), String::new()),
                Some(d) => match d.exact_difference {
                    Some(_) if super::answer::exactly_same(d) => {
                        ("exactly the same".to_string(), "—".to_string())
                    }
                    Some(e) => (format!("{}, exact", head.diff(e)), "—".to_string()),
                    None => (
                        format!(
                            "{} {}",
                            head.diff(d.difference),
                            head.diff_interval(d.low, d.high)
                        ),
                        match super::answer::chance_cell(d) {
                            "no" => "no".to_string(),
                            "could be" => "yes".to_string(),
                            other => other.to_string(),
                        },
                    ),
                },
            };
            row.push(diff);
            row.push(chance);
        }
        tab.rows.push(row);
    }
    // Over a sweep with every value exact, a variant with the same value at every setting (the
    // swept setting does not touch it) takes one row, not one a setting.
    if swept && exact_all {
        let name_of = |r: &Vec<String>| r[0].clone();
        let rows = std::mem::take(&mut tab.rows);
        let mut done: Vec<String> = Vec::new();
        for row in &rows {
            let name = name_of(row);
            if done.contains(&name) {
                continue;
            }
            let mine: Vec<&Vec<String>> = rows.iter().filter(|r| name_of(r) == name).collect();
            let same = mine.len() > 1 && mine.iter().all(|r| r[2..4] == row[2..4]);
            if !same {
                tab.rows.push(row.clone());
                continue;
            }
            done.push(name.clone());
            let mut one = row.clone();
            one[1] = "every setting".into();
            // The simulation checks the one value once, with every setting's trials.
            let cells: Vec<Cell> = result
                .runs
                .iter()
                .filter(|r| exp.variants[r.variant].name == name)
                .filter_map(|r| find(&r.report, &key))
                .collect();
            one[4] = pooled_check(&cells, !head.metric, exp.confidence, zf);
            tab.rows.push(one);
        }
    }
    let verdict = verdict(result, &head, &moved, true);
    (verdict, tab)
}

/// One value's estimates from the runs of a sweep that do not touch it, as one: their trials
/// added up, so the simulation checks the one exact value once, with all of them (a chance by
/// the Wilson interval of the pooled counts, an average by its pooled standard error).
fn pooled(cells: &[Cell], chance: bool, z: f64) -> Cell {
    let n: u64 = cells.iter().map(|c| c.count.unwrap_or(0)).sum();
    let weight = |c: &Cell| c.count.unwrap_or(0) as f64 / (n.max(1) as f64);
    let p: f64 = cells.iter().map(|c| weight(c) * c.p).sum();
    let (ci_low, ci_high) = if chance {
        let k: u64 = cells
            .iter()
            .map(|c| (c.p * c.count.unwrap_or(0) as f64).round() as u64)
            .sum();
        let (l, h) = crate::stats::wilson(k, n, z);
        (Some(l), Some(h))
    } else {
        let spread: Option<f64> = cells
            .iter()
            .map(|c| match (c.ci_low, c.ci_high) {
                (Some(l), Some(h)) => Some((weight(c) * (h - l) / (2.0 * z)).powi(2)),
                _ => None,
            })
            .sum();
        let se = spread.map(f64::sqrt);
        (se.map(|s| p - z * s), se.map(|s| p + z * s))
    };
    Cell {
        count: Some(n),
        p,
        ci_low,
        ci_high,
        exact: cells.first().and_then(|c| c.exact),
    }
}

/// The check of a value pooled over the settings of a sweep (see [`pooled`]), in one cell, at
/// normal quantile `z` (see [`super::answer::check_z`]).
fn pooled_check(cells: &[Cell], chance: bool, confidence: f64, z: f64) -> String {
    let c = pooled(cells, chance, crate::stats::z_for_confidence(confidence));
    let runs = cells.len();
    check_cell(
        &c,
        chance,
        confidence,
        z,
        &format!(" from its {runs} runs together"),
    )
    .replacen("agrees", &format!("agrees (its {runs} runs together)"), 1)
}

/// The simulation's check of an exact value, in one cell: "agrees" where its interval at
/// normal quantile `z` holds the exact value (see [`super::answer::check_interval`]); else the
/// exact value, the estimate and the interval, with enough decimals to read them apart; "—"
/// where there is nothing to check. `from` says what the estimate is taken from, if not its
/// run.
fn check_cell(c: &Cell, chance: bool, confidence: f64, z: f64, from: &str) -> String {
    check_cell_as(c, chance, chance, confidence, z, from)
}

/// As [`check_cell`], with the figures in per cent where `percent` (a measure that is a share,
/// a cause of removal, checked as an average but read as a chance).
fn check_cell_as(
    c: &Cell,
    chance: bool,
    percent: bool,
    confidence: f64,
    z: f64,
    from: &str,
) -> String {
    let (Some(e), Some((l, h))) = (
        c.exact,
        super::answer::check_interval(c, chance, confidence, z),
    ) else {
        return "—".into();
    };
    if super::answer::check_holds(c, chance, confidence, z) == Some(true) {
        return "agrees".into();
    }
    // Enough decimals that the exact value and the interval's ends read apart.
    let scale = if percent { 100.0 } else { 1.0 };
    let d = apart(
        scale * e,
        &[scale * l, scale * h],
        if percent { 2 } else { 4 },
    );
    let unit = if percent { "%" } else { "" };
    let f = |x: f64| format!("{:.d$}{unit}", scale * x);
    format!(
        "exact {} outside its interval: {} [{}, {}]{from} ({})",
        f(e),
        f(c.p),
        f(l),
        f(h),
        by_chance(confidence)
    )
}

/// What a miss means: the checks are sure at `confidence` taken together, so chance alone
/// puts one outside in 1 report in 20 (at 95%), not 1 check in 20.
fn by_chance(confidence: f64) -> String {
    format!(
        "the report's checks are {}% sure taken together: 1 report in {} has such a miss by chance",
        crate::report::fmt_level(confidence),
        (1.0 / (1.0 - confidence)).round()
    )
}

/// The fewest decimals, from `least` up to 6, at which `x` reads apart from each of `others`.
fn apart(x: f64, others: &[f64], least: usize) -> usize {
    (least..=6)
        .find(|&d| {
            others
                .iter()
                .all(|o| !o.is_finite() || format!("{x:.d$}") != format!("{o:.d$}"))
        })
        .unwrap_or(6)
}

/// The verdict on headline `head`, one sentence: how many variants change it (exactly, or by
/// more than chance explains; `moved` lists each with its difference) and the largest change.
fn verdict(
    result: &ExperimentResult,
    head: &Head,
    moved: &[(String, f64)],
    name_base: bool,
) -> String {
    let exp = &result.experiment;
    let key = &head.key;
    let base = &exp.variants[0].name;
    let base_value = find(&result.runs[0].report, key)
        .map(|c| head.value(c.exact.unwrap_or(c.p)))
        .unwrap_or_default();
    // The baseline is named once in an answer: a second headline's value stands alone.
    let base_value = if name_base {
        format!("{base_value} under {base}")
    } else {
        base_value
    };
    let others = exp.variants[1..].iter().filter(|v| !v.reference).count();
    let exact_all = result
        .runs
        .iter()
        .all(|r| find(&r.report, key).is_some_and(|c| c.exact.is_some()));
    let noun = head.noun();
    match moved.iter().max_by(|a, b| a.1.abs().total_cmp(&b.1.abs())) {
        None => format!(
            "No variant changes {noun} ({base_value}){}.",
            if exact_all {
                ": the exact values are the same"
            } else {
                " by more than chance explains"
            }
        ),
        Some((name, d)) => {
            let how = if exact_all {
                ", exactly"
            } else {
                " by more than chance explains"
            };
            let change = head.diff(*d) + better_said(head, *d);
            match (moved.len(), others) {
                (1, 1) => {
                    // Its own value against the baseline's, then the change: "Under Green, the
                    // chance of recovering is 20.4% against 43.1% under Regular: −22.7 points".
                    let own = find(&result.runs[0].report, key)
                        .map(|c| head.value(c.exact.unwrap_or(c.p) + d))
                        .unwrap_or_default();
                    format!("Under {name}, {noun} is {own} against {base_value}: {change}{how}.")
                }
                (1, _) => format!(
                    "1 of {others} variants changes {noun} ({base_value}){how}: {name}, {change}."
                ),
                (n, _) => format!(
                    "{} change {noun} ({base_value}){how}; the largest change: {change}, under {name}.",
                    match (n, others) {
                        (2, 2) => "Both variants".to_string(),
                        (n, o) if n == o => format!("All {n} variants"),
                        (n, o) => format!("{n} of {o} variants"),
                    }
                ),
            }
        }
    }
}

/// Which way a change of `d` in `head` goes for the unit (or side A) the report follows, where
/// its label says which way is better: ", better" or ", worse"; else nothing.
fn better_said(head: &Head, d: f64) -> &'static str {
    match better_way(head, d) {
        Some(true) => " (better)",
        Some(false) => " (worse)",
        None => "",
    }
}

/// Whether a change of `d` in `head` is for the better (`None`: the headline has no better
/// direction).
fn better_way(head: &Head, d: f64) -> Option<bool> {
    use crate::labels::Better;
    match head.label().better {
        Better::Higher => Some(d > 0.0),
        Better::Lower => Some(d < 0.0),
        Better::Neither => None,
    }
}

/// The variants whose difference from the baseline on `head` is real (exact and not zero, or
/// distinguishable from chance), each with its difference (exact where known).
fn moved(result: &ExperimentResult, comparisons: &[Comparison], head: &Head) -> Vec<(String, f64)> {
    // Once per variant (its largest change over a sweep's settings); a variant shown for scale
    // is not one the question asks about.
    let mut out: Vec<(String, f64)> = Vec::new();
    for x in comparisons
        .iter()
        .filter(|x| head.is(x) && x.distinguishable && !is_reference(result, &x.variant))
    {
        let d = x.exact_difference.unwrap_or(x.difference);
        match out.iter_mut().find(|m| m.0 == x.variant) {
            Some(m) if d.abs() > m.1.abs() => m.1 = d,
            Some(_) => {}
            None => out.push((x.variant.clone(), d)),
        }
    }
    out
}

/// The answer in a sentence, first: what the first variant the question asks about does to
/// every headline against the baseline, from and to (exact values where known), and whether that
/// is for the better. `None` where it changes none of them (the counts say so).
fn lead(result: &ExperimentResult, comparisons: &[Comparison], heads: &[Head]) -> Option<String> {
    let exp = &result.experiment;
    if !exp.sweep.is_empty() {
        return None;
    }
    let v = exp.variants[1..].iter().find(|v| !v.reference)?;
    let run = |i: usize| result.runs.iter().find(|r| r.variant == i);
    let vi = exp.variants.iter().position(|x| x.name == v.name)?;
    let (mine, base) = (&run(vi)?.report, &run(0)?.report);
    let (parts, ways): (Vec<String>, Vec<Option<bool>>) = heads
        .iter()
        .filter_map(|h| {
            let c = comparisons
                .iter()
                .find(|c| c.variant == v.name && h.is(c) && c.distinguishable)?;
            let (x, b) = (find(mine, &h.key)?, find(base, &h.key)?);
            let (x, b) = (x.exact.unwrap_or(x.p), b.exact.unwrap_or(b.p));
            let d = c.exact_difference.unwrap_or(c.difference);
            Some((
                format!(
                    "{} {} from {} to {}{}",
                    h.noun(),
                    if d > 0.0 { "rises" } else { "falls" },
                    h.value(b),
                    h.value(x),
                    better_said(h, d)
                ),
                better_way(h, d),
            ))
        })
        .unzip();
    // `verdict = true`: the question asks whether this variant does better; the answer opens
    // with the plain word, from each headline's better direction.
    let opener = if exp.verdict {
        let better = ways.iter().filter(|w| **w == Some(true)).count();
        let worse = ways.iter().filter(|w| **w == Some(false)).count();
        let unchanged = heads.len().saturating_sub(parts.len());
        match (better, worse, unchanged) {
            (b, 0, 0) if b > 0 => "Yes. ",
            (0, w, 0) if w > 0 => "No: the other way. ",
            (0, 0, _) => "",
            _ => "In part. ",
        }
    } else {
        ""
    };
    if parts.is_empty() {
        return exp.verdict.then(|| {
            format!(
                "No: under {}, no headline differs from {}.",
                v.name, exp.variants[0].name
            )
        });
    }
    let said = match &parts[..] {
        [one] => one.clone(),
        [rest @ .., last] => format!("{}; and {last}", rest.join("; ")),
        [] => String::new(),
    };
    Some(format!(
        "{opener}Under {}, against {}: {said}.",
        v.name, exp.variants[0].name,
    ))
}

/// The answer in a sentence or two, first, where the question asks about several variants
/// each on its own (no verdict on one of them, no sweep): the first headline under the
/// baseline, then under each variant with its change; each further headline's range where
/// every variant moves it the same way. `None` with fewer than two such variants.
fn lead_each(
    result: &ExperimentResult,
    comparisons: &[Comparison],
    heads: &[Head],
) -> Option<String> {
    let exp = &result.experiment;
    if !exp.sweep.is_empty() || exp.verdict {
        return None;
    }
    let asked: Vec<(usize, &str)> = exp
        .variants
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, v)| !v.reference)
        .map(|(i, v)| (i, v.name.as_str()))
        .collect();
    if asked.len() < 2 {
        return None;
    }
    let base = &exp.variants[0].name;
    let report = |i: usize| {
        result
            .runs
            .iter()
            .find(|r| r.variant == i)
            .map(|r| &r.report)
    };
    let value = |i: usize, h: &Head| find(report(i)?, &h.key).map(|c| c.exact.unwrap_or(c.p));
    // Each variant's value and change (exact where known), `None` for the change where chance
    // could explain it.
    let changes = |h: &Head| -> Option<Vec<(&str, f64, Option<f64>)>> {
        asked
            .iter()
            .map(|&(i, name)| {
                let c = comparisons.iter().find(|c| c.variant == name && h.is(c))?;
                let d = match (exactly_same(c), c.distinguishable) {
                    (true, _) | (_, false) => None,
                    (false, true) => Some(c.exact_difference.unwrap_or(c.difference)),
                };
                Some((name, value(i, h)?, d))
            })
            .collect()
    };
    let way = |ds: &[(&str, f64, Option<f64>)]| {
        if ds.iter().all(|x| x.2.is_some_and(|d| d > 0.0)) {
            Some("rises")
        } else if ds.iter().all(|x| x.2.is_some_and(|d| d < 0.0)) {
            Some("falls")
        } else {
            None
        }
    };
    let h0 = heads.first()?;
    let first = changes(h0)?;
    let b0 = value(0, h0)?;
    // Said once where every variant moves it the same way; else beside each change.
    let once = way(&first).is_some();
    let each: Vec<String> = first
        .iter()
        .map(|&(name, x, d)| match d {
            Some(d) if once => format!("{name}: {} ({})", h0.value(x), h0.diff(d)),
            Some(d) => format!(
                "{name}: {} ({}{})",
                h0.value(x),
                h0.diff(d),
                better_said(h0, d).replace(" (", ", ").replace(')', "")
            ),
            None => format!("{name}: {} (the same)", h0.value(x)),
        })
        .collect();
    let mut out = format!(
        "With {base}, {} is {}; {} \u{2014} {}.",
        h0.noun(),
        h0.value(b0),
        match way(&first) {
            Some(w) => format!(
                "it {w} under every variant{}",
                better_said(h0, first[0].2.unwrap_or(0.0))
            ),
            None => "under each variant".to_string(),
        },
        each.join("; ")
    );
    for h in &heads[1..] {
        let (Some(ds), Some(b)) = (changes(h), value(0, h)) else {
            continue;
        };
        let Some(w) = way(&ds) else {
            continue;
        };
        let lo = ds.iter().map(|x| x.1).fold(f64::INFINITY, f64::min);
        let hi = ds.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
        let d = ds[0].2.unwrap_or(0.0);
        out += &format!(
            " {} {w} under every variant too, from {} to between {} and {}{}.",
            crate::labels::capitalised(&h.noun()),
            h.value(b),
            h.value(lo),
            h.value(hi),
            better_said(h, d)
        );
    }
    Some(out)
}

/// How many of the variants the question asks about change each headline, in one sentence
/// ("2 of 4 variants change “eliminated” and 3 of 4 “turns its place stood empty”, exactly").
fn counts(result: &ExperimentResult, comparisons: &[Comparison], heads: &[Head]) -> String {
    let exp = &result.experiment;
    let others = exp.variants[1..].iter().filter(|v| !v.reference).count();
    let exact_all = heads.iter().all(|h| {
        result
            .runs
            .iter()
            .all(|r| find(&r.report, &h.key).is_some_and(|c| c.exact.is_some()))
    });
    let parts: Vec<String> = heads
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let n = moved(result, comparisons, h).len();
            let head = format!("\u{201c}{}\u{201d}", h.label().head);
            match (i, n) {
                (0, 0) => format!("none of the {others} variants changes {head}"),
                (0, 2) if others == 2 => format!("both variants change {head}"),
                (0, n) if n == others && n > 1 => format!("all {n} variants change {head}"),
                // Of which variants: those compared with the baseline, not every one the
                // setup lists (the baseline and one shown for scale are not counted).
                (0, n) => format!(
                    "{n} of the {others} variant{} compared with {} change{} {head}",
                    if others == 1 { "" } else { "s" },
                    exp.variants[0].name,
                    if n == 1 { "s" } else { "" }
                ),
                (_, 2) if others == 2 => format!("both {head}"),
                (_, n) if n == others && n > 1 => format!("all {n} {head}"),
                (_, 0) => format!("none {head}"),
                (_, n) => format!("{n} of {others} {head}"),
            }
        })
        .collect();
    let joined = match &parts[..] {
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => String::new(),
    };
    let scale: Vec<&str> = exp
        .variants
        .iter()
        .filter(|v| v.reference)
        .map(|v| v.name.as_str())
        .collect();
    crate::labels::capitalised(&format!(
        "{joined}{}{}).",
        if exact_all {
            " (exact values"
        } else {
            " (by more than chance explains"
        },
        if scale.is_empty() {
            String::new()
        } else {
            format!(
                "; {} {} there for scale only",
                scale.join(" and "),
                if scale.len() == 1 { "is" } else { "are" }
            )
        }
    ))
}

/// Whether the variant named `name` is there for scale (`reference = true`), not one the
/// question asks about.
pub(super) fn is_reference(result: &ExperimentResult, name: &str) -> bool {
    result
        .experiment
        .variants
        .iter()
        .any(|v| v.reference && v.name == name)
}

/// The variants shown for scale, in a sentence: each one's value of every headline.
fn for_scale(result: &ExperimentResult, heads: &[Head]) -> Option<String> {
    let exp = &result.experiment;
    let said: Vec<String> = result
        .runs
        .iter()
        .filter(|r| exp.variants[r.variant].reference && r.point == result.runs[0].point)
        .map(|r| {
            let values: Vec<String> = heads
                .iter()
                .filter_map(|h| {
                    // In the variant's own words: Rank & File's units are "removed" where
                    // the baseline's are "eliminated".
                    let own = r
                        .report
                        .outcomes
                        .iter()
                        .find(|o| {
                            !h.metric
                                && o.outcome != h.key
                                && super::answer::find_same(&o.outcome, &h.key)
                        })
                        .map_or_else(
                            || h.label().head,
                            |o| crate::labels::outcome(&o.outcome).head,
                        );
                    find(&r.report, &h.key)
                        .map(|c| format!("{own} {}", h.value(c.exact.unwrap_or(c.p))))
                })
                .collect();
            format!("{}, {}", exp.variants[r.variant].name, values.join(", "))
        })
        .collect();
    (!said.is_empty()).then(|| format!("For scale: {}.", said.join("; ")))
}

/// A sweep point where headlines pull apart, with each headline's change there.
type Apart<'a> = (&'a Vec<SetValue>, Vec<(&'a Head, f64)>);

/// The variants under which two headlines move in opposite directions from the baseline (each
/// change real: exact, or more than chance explains), in a sentence each: the trade-off a
/// designer weighs. With a sweep, the settings where they do (every one, or which).
fn pull_apart(
    result: &ExperimentResult,
    comparisons: &[Comparison],
    heads: &[Head],
    led: Option<&str>,
) -> Vec<String> {
    let exp = &result.experiment;
    // The points swept (one, empty, without a sweep), in the runs' order.
    let mut points: Vec<&Vec<SetValue>> = Vec::new();
    for r in &result.runs {
        if !points.contains(&&r.point) {
            points.push(&r.point);
        }
    }
    let mut out = Vec::new();
    // Variants that pull apart the same way with no sweep, said together: (names, the
    // headlines that fall, those that rise).
    type Said = (Vec<String>, &'static str);
    let mut alike: Vec<(Vec<&str>, Said, Said)> = Vec::new();
    for v in exp.variants[1..]
        .iter()
        .filter(|v| !v.reference && Some(v.name.as_str()) != led)
    {
        // At each point: the headlines that fall and those that rise, where both do.
        let mut apart: Vec<Apart> = Vec::new();
        for p in &points {
            let change = |h: &Head| {
                comparisons
                    .iter()
                    .find(|c| c.variant == v.name && &&c.point == p && h.is(c) && c.distinguishable)
                    .map(|c| c.exact_difference.unwrap_or(c.difference))
            };
            let moves: Vec<(&Head, f64)> = heads
                .iter()
                .filter_map(|h| change(h).map(|d| (h, d)))
                .collect();
            // Where every headline says which way is better, they pull apart when one gets
            // better and another worse (fewer rally phases and more recovered both improve);
            // else when one rises and another falls.
            use crate::labels::Better;
            let directed = moves.iter().all(|m| m.0.label().better != Better::Neither);
            let good = |m: &(&Head, f64)| (m.1 > 0.0) == (m.0.label().better == Better::Higher);
            let apart_here = if directed {
                moves.iter().any(good) && !moves.iter().all(good)
            } else {
                moves.iter().any(|m| m.1 > 0.0) && moves.iter().any(|m| m.1 < 0.0)
            };
            if apart_here {
                apart.push((p, moves));
            }
        }
        // Which side of the pull a move is on: for the better (true) or the worse where every
        // headline says which way is better, else up (true) or down.
        let side = |moves: &[(&Head, f64)], m: &(&Head, f64)| -> bool {
            use crate::labels::Better;
            if moves.iter().all(|m| m.0.label().better != Better::Neither) {
                (m.1 > 0.0) == (m.0.label().better == Better::Higher)
            } else {
                m.1 > 0.0
            }
        };
        let said = |moves: &[(&Head, f64)], up: bool| -> Vec<String> {
            moves
                .iter()
                .filter(|m| side(moves, m) == up)
                .map(|(h, d)| {
                    format!(
                        "{} {} by {}",
                        h.noun(),
                        if *d > 0.0 { "rises" } else { "falls" },
                        h.diff(d.abs()).trim_start_matches('+')
                    )
                })
                .collect()
        };
        // "A falls", "A and B move for the better": the nouns on one side, with their verb.
        let moving = |moves: &[(&Head, f64)], up: bool| -> String {
            let n: Vec<&(&Head, f64)> = moves.iter().filter(|m| side(moves, m) == up).collect();
            let words: Vec<String> = n.iter().map(|m| m.0.noun()).collect();
            format!("{} {}", words.join(" and "), verb_of(moves, &n, up))
        };
        let nouns = |moves: &[(&Head, f64)], up: bool| -> Vec<String> {
            moves
                .iter()
                .filter(|m| side(moves, m) == up)
                .map(|m| format!("\u{201c}{}\u{201d}", m.0.label().head))
                .collect()
        };
        match &apart[..] {
            [] => {}
            [(p, moves)] if p.is_empty() => {
                let down = nouns(moves, false);
                let up = nouns(moves, true);
                let on = |flag: bool| -> Vec<&(&Head, f64)> {
                    moves.iter().filter(|m| side(moves, m) == flag).collect()
                };
                let down = (down, verb_of(moves, &on(false), false));
                let up = (up, verb_of(moves, &on(true), true));
                match alike.iter_mut().find(|a| a.1 == down && a.2 == up) {
                    Some(a) => a.0.push(&v.name),
                    None => alike.push((vec![&v.name], down, up)),
                }
            }
            [(p, moves)] => out.push(format!(
                "Under {}{}, {} while {}: the headlines pull apart.",
                v.name,
                if p.is_empty() {
                    String::new()
                } else {
                    format!(" at {}", super::answer::point_words(exp, p))
                },
                said(moves, false).join(" and "),
                said(moves, true).join(" and ")
            )),
            _ => {
                let (_, first) = &apart[0];
                let everywhere = apart.len() == points.len();
                out.push(format!(
                    "Under {}, the headlines pull apart {}: {} while {} (at {}: {} while {}).",
                    v.name,
                    if everywhere {
                        format!("at every one of the {} settings swept", points.len())
                    } else {
                        format!(
                            "at {} of the {} settings swept ({})",
                            apart.len(),
                            points.len(),
                            apart
                                .iter()
                                .map(|(p, _)| super::answer::point_words(exp, p))
                                .collect::<Vec<_>>()
                                .join("; ")
                        )
                    },
                    moving(first, false),
                    moving(first, true),
                    super::answer::point_words(exp, apart[0].0),
                    said(first, false).join(" and "),
                    said(first, true).join(" and ")
                ));
            }
        }
    }
    let alike: Vec<String> = alike
        .into_iter()
        .map(|(names, down, up)| {
            let names = match &names[..] {
                [one] => one.to_string(),
                [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
                [] => String::new(),
            };
            format!(
                "Under {names}{}, the headlines pull apart: {} {}{} while {} {}.",
                if led.is_some() { " too" } else { "" },
                down.0.join(" and "),
                down.1,
                if down.1.contains(',') { "," } else { "" },
                up.0.join(" and "),
                up.1
            )
        })
        .collect();
    alike.into_iter().chain(out).collect()
}

/// The verb for the headlines `n` of `moves` on one side of a pull: "falls"/"rise" where all of
/// `n` move one way and the pull is by direction, else "moves for the better" and the like.
fn verb_of(moves: &[(&Head, f64)], n: &[&(&Head, f64)], up: bool) -> &'static str {
    use crate::labels::Better;
    let directed = moves.iter().all(|m| m.0.label().better != Better::Neither);
    let one = n.len() == 1;
    let rising = n.iter().all(|m| m.1 > 0.0);
    let falling = n.iter().all(|m| m.1 < 0.0);
    match (directed, up, one) {
        (false, true, true) => "rises",
        (false, true, false) => "rise",
        (false, false, true) => "falls",
        (false, false, false) => "fall",
        // By better and worse: the plain verb where the group moves one way, and which way
        // it is for.
        (true, true, true) if rising => "rises (better)",
        (true, true, true) if falling => "falls (better)",
        (true, false, true) if rising => "rises (worse)",
        (true, false, true) if falling => "falls (worse)",
        (true, true, _) => "move for the better",
        (true, false, _) => "move for the worse",
    }
}

/// The answer table of an experiment with several headlines: a row per variant (and setting), a
/// column per headline with its value (exact where known, else the estimate with its interval)
/// and one with its difference from the baseline (judged in the one voice of every table); and
/// a verdict sentence per headline.
fn answer_table(result: &ExperimentResult, comparisons: &[Comparison]) -> (String, Tab) {
    let exp = &result.experiment;
    let heads = Head::all(exp, &result.runs[0].report);
    let base = &exp.variants[0].name;
    let swept = !exp.sweep.is_empty();
    let mut names: Vec<String> = vec!["variant".into()];
    if swept {
        names.push("setting".into());
    }
    let mut numeric = vec![false; names.len()];
    for h in &heads {
        names.push(h.labelled());
        names.push(format!("{}: change from {base}", h.label().head));
        numeric.extend([true, true]);
    }
    let mut tab = Tab {
        head: names.into_iter().zip(numeric).collect(),
        rows: Vec::new(),
    };
    // Where every value is exact (the method line says so) a change is not marked ", exact".
    let exact_all = heads.iter().all(|h| {
        result
            .runs
            .iter()
            .all(|r| find(&r.report, &h.key).is_none_or(|c| c.exact.is_some()))
    });
    for run in &result.runs {
        let v = &exp.variants[run.variant];
        let mut row = vec![v.name.clone()];
        if swept {
            row.push(super::answer::point_words(exp, &run.point));
        }
        for h in &heads {
            let Some(c) = find(&run.report, &h.key) else {
                row.extend(["—".to_string(), "—".to_string()]);
                continue;
            };
            // Another system's word for the same end is said in the cell: Rank & File's
            // "removed" under "eliminated" reads "96.0% (removed)".
            let own_word = run
                .report
                .outcomes
                .iter()
                .find(|o| o.outcome != h.key && same_outcome(&o.outcome, &h.key))
                .filter(|_| !run.report.outcomes.iter().any(|o| o.outcome == h.key))
                .map(|o| format!(" ({})", crate::labels::outcome(&o.outcome).head))
                .unwrap_or_default();
            let value = match (c.exact, c.ci_low, c.ci_high) {
                (Some(x), _, _) => h.value(x),
                (None, Some(l), Some(u)) => {
                    format!("{} [{}, {}]", h.value(c.p), h.value(l), h.value(u))
                }
                _ => h.value(c.p),
            };
            row.push(format!("{value}{own_word}"));
            let cmp = comparisons
                .iter()
                .find(|x| x.variant == v.name && x.point == run.point && h.is(x));
            row.push(match cmp {
                None if run.variant == 0 => "baseline".into(),
                None => "not compared".into(),
                // A variant shown for scale is not a change the question asks about.
                Some(_) if v.reference => "for scale".into(),
                Some(x) if super::answer::exactly_same(x) => "exactly the same".into(),
                Some(x) => match x.exact_difference {
                    Some(e) if exact_all => h.diff(e),
                    Some(e) => format!("{}, exact", h.diff(e)),
                    None => format!(
                        "{} {}{}",
                        h.diff(x.difference),
                        h.diff_interval(x.low, x.high),
                        match super::answer::chance_cell(x) {
                            "no" => "",
                            "could be" => ", could be chance",
                            _ => ", no test",
                        }
                    ),
                },
            });
        }
        tab.rows.push(row);
    }
    let each = lead_each(result, comparisons, &heads);
    let lead = each.clone().or_else(|| lead(result, comparisons, &heads));
    // The variant the lead speaks of: its trade-off is said there, for the better and the worse
    // (none where the lead speaks of every variant alike).
    let led = match each {
        Some(_) => None,
        None => lead
            .as_ref()
            .and(exp.variants[1..].iter().find(|v| !v.reference)),
    };
    let mut verdicts: Vec<String> = Vec::new();
    match lead {
        // The lead gives the values; the counts follow in a sentence, the table the rest.
        Some(l) => {
            verdicts.push(l);
            verdicts.push(counts(result, comparisons, &heads));
        }
        None => verdicts.extend(
            heads
                .iter()
                .enumerate()
                .map(|(i, h)| verdict(result, h, &moved(result, comparisons, h), i == 0)),
        ),
    }
    // Where other variants pull the headlines apart, as long as the answer has room (the
    // table below shows every variant's every headline).
    let words = |v: &[String]| {
        v.iter()
            .map(|x| x.split_whitespace().count())
            .sum::<usize>()
    };
    for p in pull_apart(result, comparisons, &heads, led.map(|v| v.name.as_str())) {
        if words(&verdicts) + p.split_whitespace().count() <= 110 {
            verdicts.push(p);
        }
    }
    // The variants shown for scale, where the answer has room for them (they are in the
    // table just below in any case): an answer stays within 150 words.
    let scale: Vec<String> = for_scale(result, &heads).into_iter().collect();
    if words(&verdicts) + words(&scale) <= 110 {
        verdicts.extend(scale);
    }
    (verdicts.join(" "), tab)
}

/// A setting's value as a reader reads it: a true minus sign, and a choice's words without
/// their underscores ("in line" for `in_line`), a switch's yes or no (not true or false).
fn value_words(v: &str) -> String {
    match v {
        "true" => return "yes".into(),
        "false" => return "no".into(),
        _ => {}
    }
    // A choice in words ("to avoid rout", "machine gun"), a number with a true minus.
    let v = if v.chars().any(char::is_alphabetic) {
        v.replace(['_', '-'], " ")
    } else {
        v.replace('_', " ")
    };
    match v.strip_prefix('-') {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => format!("\u{2212}{rest}"),
        _ => v,
    }
}

/// A setting's value in words, with what a value the rules give a meaning of its own does
/// ("7 (no roll always passes)" for the natural roll that always passes).
fn setting_value(key: &str, v: &str) -> String {
    match crate::labels::value_note(key, v) {
        Some(note) => format!("{} ({note})", value_words(v)),
        None => value_words(v),
    }
}

/// Values tried, joined with "or", a run of three or more whole numbers in a row said as a
/// range: "2 to 9 or unlimited", not "2 or 3 or 4 or … or 9 or unlimited".
fn steps_in_words(steps: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut run: Vec<(i64, &str)> = Vec::new();
    let flush = |run: &mut Vec<(i64, &str)>, out: &mut Vec<String>| {
        if run.len() >= 3 {
            out.push(format!("{} to {}", run[0].1, run[run.len() - 1].1));
        } else {
            out.extend(run.iter().map(|(_, s)| s.to_string()));
        }
        run.clear();
    };
    for s in steps {
        match s.parse::<i64>() {
            Ok(n) if run.last().is_none_or(|(m, _)| n == m + 1) => run.push((n, s)),
            Ok(n) => {
                flush(&mut run, &mut out);
                run.push((n, s));
            }
            Err(_) => {
                flush(&mut run, &mut out);
                out.push(s.clone());
            }
        }
    }
    flush(&mut run, &mut out);
    out.join(" or ")
}

/// Whether rule parameter `key` is a reading the tool made where the sources are silent (its
/// meaning says so, in any variant's system).
fn silent_reading(result: &ExperimentResult, key: &str) -> bool {
    result.experiment.variants.iter().any(|v| {
        crate::system::find(&v.system).is_ok_and(|sys| {
            sys.rule_params().iter().any(|d| {
                d.key == key
                    && (d.meaning.contains("does not say")
                        || d.meaning.contains("silent")
                        || d.meaning.contains("the tool's reading"))
            })
        })
    })
}

/// A setting in a reader's words: a parameter's label, or an optional rule's name in words.
fn setting_words(systems: &[&str], key: &str, kind: &str) -> String {
    if kind == "option" {
        format!(
            "the optional rule \u{201c}{}\u{201d}",
            key.replace('-', " ")
        )
    } else {
        format!(
            "\u{201c}{}\u{201d}",
            crate::labels::param_under(systems, key)
        )
    }
}

/// A setting as a table's row names it: its label as a heading, not quoted ("Elite re-rolls a
/// battle"; "Optional rule retreat on fire").
fn setting_in_table(systems: &[&str], key: &str, kind: &str) -> String {
    if kind == "option" {
        format!("Optional rule {}", key.replace('-', " "))
    } else {
        crate::labels::param_under(systems, key)
    }
}

/// The assumptions that matter, in a sentence for the answer of at most `words_left` words where
/// it can be: the most telling setting with its value, the most often listed first.
fn rests_on(result: &ExperimentResult, words_left: usize) -> Option<String> {
    let a = result.assumptions.as_ref()?;
    // Each key once, with its most telling effect: a flipped sign first, then a difference
    // removed or created, then one moved; then by how many rows name it.
    let severity = |e: &str| match e {
        "flips" => 0,
        "removes" => 1,
        "creates" => 2,
        _ => 3,
    };
    // Only the comparisons the question asks: a variant shown for scale is left out here.
    let reference = |name: &str| {
        result
            .experiment
            .variants
            .iter()
            .any(|v| v.reference && v.name == name)
    };
    let base_report = &result.runs.first()?.report;
    // The first variant the question asks about (the one the answer leads with, without a
    // sweep).
    let led = result
        .experiment
        .variants
        .iter()
        .skip(1)
        .find(|v| !v.reference)
        .filter(|_| result.experiment.sweep.is_empty())
        .map(|v| v.name.as_str());
    let weight = |f: &crate::experiment::assumptions::Assumption| move_weight(a, base_report, f);
    let mut keys: Vec<(&crate::experiment::assumptions::Assumption, usize)> = Vec::new();
    for f in a
        .found
        .iter()
        .filter(|f| !reference(&f.variant) && !scope(f))
    {
        match keys.iter_mut().find(|k| k.0.key == f.key) {
            Some(k) => {
                k.1 += 1;
                // The most telling row of the key: the gravest effect, on both sides, the
                // largest move.
                // The variant the answer leads with first: its comparison is the one the
                // reader has just read.
                let rank = |a: &crate::experiment::assumptions::Assumption| {
                    (
                        Some(a.variant.as_str()) != led,
                        severity(&a.effect),
                        a.side != "both",
                    )
                };
                if rank(f) < rank(k.0) || (rank(f) == rank(k.0) && weight(f) > weight(k.0)) {
                    k.0 = f;
                }
            }
            None => keys.push((f, 1)),
        }
    }
    if keys.is_empty() {
        let situation = a.found.iter().any(|f| !reference(&f.variant) && scope(f));
        return Some(if situation {
            format!(
                "No reading of the rules or number of theirs changes it: one step of each keeps every headline difference's sign and keeps it within {}% of its size (a chance's within {} points). It is an answer for the situation set out above; “Where the answer holds” lists the settings of the situation that would change it.",
                (100.0 * a.share).round(),
                (100.0 * a.points).round()
            )
        } else {
            format!(
                "No assumption the variants share changes it: one step of each of the {} settings tried keeps every headline difference's sign and keeps it within {}% of its size (a chance's within {} points).",
                a.tried,
                (100.0 * a.share).round(),
                (100.0 * a.points).round()
            )
        });
    }
    // A setting moved on both sides of a comparison (the same rules) before one moved on one
    // system's side only (a comparison across systems); then the largest move first (a reading
    // that moves a chance by ten points before a number that moves it by four).
    let size = |x: &crate::experiment::assumptions::Assumption| {
        a.found
            .iter()
            .filter(|f| f.key == x.key && !reference(&f.variant))
            .map(weight)
            .fold(0.0f64, f64::max)
    };
    keys.sort_by(|x, y| {
        (Some(x.0.variant.as_str()) != led)
            .cmp(&(Some(y.0.variant.as_str()) != led))
            .then(severity(&x.0.effect).cmp(&severity(&y.0.effect)))
            .then((x.0.side != "both").cmp(&(y.0.side != "both")))
            .then(size(y.0).total_cmp(&size(x.0)))
            .then(y.1.cmp(&x.1))
    });
    // The answer stays short (at most 150 words): the most telling setting, and one reading
    // the tool made where the sources are silent (the tool's assumption, not the designer's)
    // if that is another; the rest are counted and listed under the assumptions.
    const SHOWN: usize = 1;
    let silent = |f: &crate::experiment::assumptions::Assumption| {
        f.kind == "rule" && silent_reading(result, &f.key)
    };
    let named =
        |f: &crate::experiment::assumptions::Assumption| named_assumption(result, f, silent(f));
    let said = |shown: &[&(&crate::experiment::assumptions::Assumption, usize)]| {
        let names = shown.iter().map(|(f, _)| named(f)).collect::<Vec<_>>();
        format!(
            "The answer rests on {}{}; \u{201c}Assumptions that matter\u{201d} lists {}.",
            names.join(" and on "),
            if keys.len() > shown.len() {
                match keys.len() - shown.len() {
                    1 => " and on 1 more setting".to_string(),
                    n => format!(" and on {n} more settings"),
                }
            } else {
                String::new()
            },
            if keys.len() == 1 { "it" } else { "them" },
        )
    };
    // The longest form that fits the words left: the most telling setting and a silent
    // reading; the most telling alone; else the count.
    let with_silent: Vec<&(&crate::experiment::assumptions::Assumption, usize)> = keys
        .iter()
        .take(SHOWN)
        .chain(keys.iter().skip(SHOWN).filter(|k| silent(k.0)).take(1))
        .collect();
    let alone: Vec<&(&crate::experiment::assumptions::Assumption, usize)> =
        keys.iter().take(SHOWN).collect();
    let fits = |s: &String| s.split_whitespace().count() <= words_left;
    [said(&with_silent), said(&alone)]
        .into_iter()
        .find(fits)
        .or_else(|| {
            Some(format!(
                "The answer rests on {} setting{} that change it (under \u{201c}Assumptions that matter\u{201d}).",
                keys.len(),
                if keys.len() == 1 { "" } else { "s" }
            ))
        })
}

/// One setting the answer rests on, in words: its label, its value, the value that changes
/// the answer, and the comparison it changes, in the answer's own numbers.
fn named_assumption(
    result: &ExperimentResult,
    f: &crate::experiment::assumptions::Assumption,
    silent: bool,
) -> String {
    let base_report = &result.runs[0].report;
    // The comparison it changes, in the answer's own words and numbers.
    let head = Head::named(f.headline.clone(), base_report);
    let name = format!("\u{201c}{}\u{201d}", head.label().head);
    let none = |d: f64| d.abs() < EXACTLY_ZERO;
    // The difference between the two variants is what moves: said as the gap, not as if one
    // variant's own chance changed.
    let base = &result.experiment.variants[0].name;
    let would = if none(f.changed) {
        format!("{} would be no different from {base} in {name}", f.variant)
    } else if none(f.difference) {
        format!(
            "{} would differ from {base} by {} in {name}, where now they are the same",
            f.variant,
            head.diff(f.changed)
        )
    } else {
        format!(
            "{} would differ from {base} by {} in {name}, not {}",
            f.variant,
            head.diff(f.changed),
            head.diff(f.difference)
        )
    };
    let reading = if silent {
        "the tool's own reading where the sources are silent, that "
    } else {
        "the reading that "
    };
    let flag = |v: &str| match v {
        "true" | "on" => Some(true),
        "false" | "off" => Some(false),
        _ => None,
    };
    let state = flag(&f.from)
        .filter(|_| flag(&f.to).is_some())
        .and_then(|on| crate::labels::state(&f.key, on));
    match (f.kind.as_str(), flag(&f.from), state) {
        ("option", Some(on), _) => format!(
            "the optional rule \u{201c}{}\u{201d} being {} ({} it, {would})",
            f.key.replace('-', " "),
            if on { "in play" } else { "left out" },
            if on { "without" } else { "with" }
        ),
        (_, _, Some(state)) => format!("{reading}{state} (if not, {would})"),
        _ => format!(
            "{}{} being {} (at {}, {would})",
            if silent {
                "the tool's own reading (the sources are silent), "
            } else {
                ""
            },
            setting_words(&systems_of(result), &f.key, &f.kind),
            setting_value(&f.key, &f.from),
            setting_value(&f.key, &f.to)
        ),
    }
}

/// The assumptions that matter: every setting the variants share moved one step, and those that
/// flip, remove, create or move a headline difference, in a table.
fn assumptions_section(result: &ExperimentResult) -> Option<Vec<Section>> {
    let a = result.assumptions.as_ref()?;
    let exp = &result.experiment;
    let base_report = &result.runs.first()?.report;
    let base = &exp.variants[0].name;
    let how = if a.exact {
        "each worked out exactly".to_string()
    } else {
        format!(
            "each by simulation, {} trials a side from the experiment's seed; a setting is listed only where the new difference's {}% interval lies wholly on the other side of zero, or wholly outside ±{}% of the report's difference (a chance's: ±{} points where that is narrower)",
            crate::report::thousands(a.trials),
            crate::report::fmt_level(exp.confidence),
            (100.0 * a.share).round(),
            (100.0 * a.points).round()
        )
    };
    // In a reader's words: what was moved, how far, and what the table lists.
    let mut intro = format!(
        "How firm is the answer? Every other rule, reading and setting the variants share with {base} was moved one step at a time (a number up or down by one, a chance to the next simple fraction, an optional rule in or out, a choice to each other value), and the answer worked out again{}: {} tries, {how}{}.",
        if exp.sweep.is_empty() {
            String::new()
        } else {
            format!(
                " at the first setting swept ({})",
                super::answer::point_words(exp, &result.runs[0].point)
            )
        },
        crate::report::thousands(a.tried as u64),
        skipped_tries(result, a)
    );
    // What was not moved is said on screen, beside the table of every comparison: on paper
    // it would name a setting the page never introduces.
    let not_moved = match a.not_tried.is_empty() {
        true => String::new(),
        false => format!(
            " Not moved, having no single step: {}.",
            a.not_tried
                .iter()
                .map(|t| t.split(" (").next().unwrap_or(t))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    };
    if a.found.is_empty() {
        intro += &format!(
            " None of them reverses a difference from {base}, makes one vanish or appear, or moves one by more than {}% of its size or, for a chance, by more than {} points.",
            (100.0 * a.share).round(),
            (100.0 * a.points).round()
        );
        intro += &not_moved;
        return Some(vec![Section {
            printed: true,
            title: "Assumptions that matter".into(),
            intro,
            tables: Vec::new(),
        }]);
    }
    intro += &format!(
        " A setting counts where it would change a difference from {base}: reverse it, make it vanish, make one appear where there was none, or shift it by more than {}% of its size or, for a chance, by more than {} points, whichever is less. The last column gives the most serious change each makes.",
        (100.0 * a.share).round(),
        (100.0 * a.points).round()
    );
    let mut tab = Tab::new(&[
        ("variant", false),
        ("headline", false),
        ("setting", false),
        ("rule", false),
        ("stepped on", false),
        ("difference", true),
        ("under the setting", true),
        ("effect", false),
    ]);
    for f in &a.found {
        let head = Head::named(f.headline.clone(), base_report);
        let diff = |d: f64| {
            if d.abs() < EXACTLY_ZERO {
                "exactly the same".to_string()
            } else {
                head.diff(d)
            }
        };
        tab.rows.push(vec![
            f.variant.clone(),
            head.labelled(),
            format!(
                "{}, {} instead of {}",
                setting_in_table(&systems_of(result), &f.key, &f.kind),
                setting_value(&f.key, &f.to),
                setting_value(&f.key, &f.from)
            ),
            f.rule.clone(),
            match f.side.as_str() {
                "both" => "both".to_string(),
                "baseline" => base.clone(),
                _ => f.variant.clone(),
            },
            diff(f.difference),
            match (f.low, f.high) {
                (Some(l), Some(h)) => format!("{} {}", diff(f.changed), head.diff_interval(l, h)),
                _ => diff(f.changed),
            },
            effect_words(&f.effect, 1).to_string(),
        ]);
    }
    let (mut scale_only, mut scale_situation) = (0, 0);
    let by_setting = assumptions_by_setting(result, a, false, &mut scale_only);
    let situation = assumptions_by_setting(result, a, true, &mut scale_situation);
    if by_setting.rows.is_empty() {
        intro += " No rule, reading or optional rule does.";
    } else if scale_only > 0 {
        intro += " The table gives the rules, readings and optional rules that do, for the variants compared (the one shown for scale is left out).";
    } else {
        intro += " The table gives the rules, readings and optional rules that do.";
    }
    if !situation.rows.is_empty() {
        intro += " The settings of the situation and the players' choices that do are under \u{201c}Where the answer holds\u{201d}.";
    }
    let mut out = vec![Section {
        printed: true,
        title: "Assumptions that matter".into(),
        intro,
        tables: if by_setting.rows.is_empty() {
            Vec::new()
        } else {
            vec![by_setting]
        },
    }];
    if !situation.rows.is_empty() {
        out.push(Section {
            printed: true,
            title: "Where the answer holds".into(),
            intro: format!(
                "The answer is for the situation the setup describes, played as it says.{} Another unit, state or fire, or another way of playing, is another question; moved one step as above, these would change a difference from {base}{}.",
                defaults_that_matter(result).map(|d| format!(" {d}")).unwrap_or_default(),
                if scale_situation > 0 {
                    " (the variant shown for scale is left out)".to_string()
                } else {
                    String::new()
                }
            ),
            tables: vec![situation],
        });
    }
    out.push(        Section {
            printed: false,
            title: "Assumptions that matter, comparison by comparison".into(),
            intro: format!(
                "Each setting above, with every headline difference (variant minus {base}) it changes: the difference as the report gives it and under the setting{}.{not_moved}",
                match scale_only + scale_situation {
                    0 => String::new(),
                    n => format!(
                        "; the variant shown for scale is here too, with the {n} {} that change only it",
                        if n == 1 { "setting" } else { "settings" }
                    ),
                }
            ),
            tables: vec![tab],
        });
    Some(out)
}

/// The settings of the situation and of play that the file leaves at the tool's defaults but
/// that would change the answer (those "Where the answer holds" lists), with their values, said
/// at the head of that section: a reader can then reproduce the situation from the page
/// ("fires back: yes", "general attached: no"), not only from the tool's list. (In the setup
/// they pushed the first page's chart onto the second.)
fn defaults_that_matter(result: &ExperimentResult) -> Option<String> {
    let a = result.assumptions.as_ref()?;
    let exp = &result.experiment;
    let set_in_file = |k: &str| {
        exp.variants
            .iter()
            .any(|v| v.set.iter().any(|(key, _)| key == k))
            || exp.sweep.iter().any(|x| x.key == k)
    };
    let systems = compared_systems(result);
    let mut said: Vec<String> = Vec::new();
    let mut keys: Vec<&str> = Vec::new();
    for f in a.found.iter().filter(|f| scope(f)) {
        if keys.contains(&f.key.as_str()) || set_in_file(&f.key) {
            continue;
        }
        keys.push(&f.key);
        said.push(format!(
            "{}: {}",
            crate::labels::lower_first(&setting_in_table(&systems, &f.key, &f.kind)),
            setting_value(&f.key, &f.from)
        ));
    }
    (!said.is_empty()).then(|| {
        format!(
            "The setup leaves these as the program plays them unless told otherwise, in every variant: {}.",
            said.join("; ")
        )
    })
}

/// A setting of the situation the question is asked about, or a side's choice of play (a
/// unit of elephants, a player who keeps routing by choice): another question, not an
/// assumption the answer rests on. The report lists them apart, under "Where the answer holds".
fn scope(f: &crate::experiment::assumptions::Assumption) -> bool {
    f.kind != "option" && crate::labels::role(&f.key) != crate::labels::Role::Reading
}

/// What a setting does to `n` differences (`flips`, `removes`, `creates`, `moves`, as the
/// data name it), in a reader's words: "reverses", "vanish", "appears", "shift".
fn effect_words(effect: &str, n: usize) -> &'static str {
    match (effect, n == 1) {
        ("flips", true) => "reverses",
        ("flips", false) => "reverse",
        ("removes", true) => "vanishes",
        ("removes", false) => "vanish",
        ("creates", true) => "appears",
        ("creates", false) => "appear",
        (_, true) => "shifts",
        (_, false) => "shift",
    }
}

/// How far an assumption moves its comparison, in shares of what counts as a move: half an
/// average's size (where there was no difference, half the baseline's value), and a chance's
/// 3 points (or half its size, where that is less). A difference a setting creates is weighed
/// like any other move, so a new 14-point chance outweighs a new 0.2 of a turn.
fn move_weight(
    a: &crate::experiment::assumptions::Assumptions,
    base_report: &crate::report::Report,
    f: &crate::experiment::assumptions::Assumption,
) -> f64 {
    let moved = (f.changed - f.difference).abs();
    if Head::named(f.headline.clone(), base_report).metric {
        let base = find(base_report, &f.headline).map_or(0.0, |c| c.exact.unwrap_or(c.p).abs());
        moved / (a.share * f.difference.abs().max(base)).max(1e-12)
    } else if f.difference.abs() < EXACTLY_ZERO {
        moved / a.points.max(1e-12)
    } else {
        moved / a.points.min(a.share * f.difference.abs()).max(1e-12)
    }
}

/// The assumptions that matter, a row per setting (compact enough for paper): what it is
/// stepped to, how many of the question's comparisons it changes and how, and its gravest
/// change in the answer's numbers. A variant shown for scale is counted apart.
fn assumptions_by_setting(
    result: &ExperimentResult,
    a: &crate::experiment::assumptions::Assumptions,
    situation: bool,
    scale_only: &mut usize,
) -> Tab {
    use crate::experiment::assumptions::Assumption;
    let base_report = &result.runs[0].report;
    let severity = |e: &str| match e {
        "flips" => 0,
        "removes" => 1,
        "creates" => 2,
        _ => 3,
    };
    // How far a row moves its comparison, in shares of what counts as a move.
    let weight = |f: &Assumption| move_weight(a, base_report, f);
    let mut keys: Vec<(&str, &str, Vec<&Assumption>)> = Vec::new();
    for f in a.found.iter().filter(|f| scope(f) == situation) {
        match keys.iter_mut().find(|k| k.0 == f.key) {
            Some(k) => k.2.push(f),
            None => keys.push((&f.key, &f.to, vec![f])),
        }
    }
    // The rows of the comparisons the question asks (not those of a variant for scale).
    fn asked<'a>(result: &ExperimentResult, rows: &[&'a Assumption]) -> Vec<&'a Assumption> {
        rows.iter()
            .copied()
            .filter(|f| !is_reference(result, &f.variant))
            .collect()
    }
    let gravest = |rows: &[&Assumption]| -> Option<(usize, f64)> {
        rows.iter()
            .map(|f| (severity(&f.effect), weight(f)))
            .min_by(|x, y| x.0.cmp(&y.0).then(y.1.total_cmp(&x.1)))
    };
    keys.sort_by(|x, y| {
        let (gx, gy) = (gravest(&asked(result, &x.2)), gravest(&asked(result, &y.2)));
        // Settings that change only a comparison shown for scale last.
        gx.is_none()
            .cmp(&gy.is_none())
            .then_with(|| match (gx, gy) {
                (Some(a), Some(b)) => a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)),
                _ => std::cmp::Ordering::Equal,
            })
    });
    let mut tab = Tab::new(&[
        ("setting", false),
        ("rule", false),
        ("differences it changes", false),
        ("its most serious change", false),
    ]);
    for (_, _, rows) in &keys {
        let f = rows[0];
        let mine = asked(result, rows);
        let counted = |rows: &[&Assumption]| -> String {
            let mut by: Vec<(String, usize)> = Vec::new();
            for r in rows {
                match by.iter_mut().find(|b| b.0 == r.effect) {
                    Some(b) => b.1 += 1,
                    None => by.push((r.effect.clone(), 1)),
                }
            }
            by.sort_by_key(|b| severity(&b.0));
            match &by[..] {
                // One kind of change: "all shift", or "shifts" for one.
                [(e, 1)] => effect_words(e, 1).to_string(),
                [(e, n)] => format!("all {}", effect_words(e, *n)),
                _ => by
                    .iter()
                    .map(|(e, n)| format!("{n} {}", effect_words(e, *n)))
                    .collect::<Vec<_>>()
                    .join(", "),
            }
        };
        // A setting that changes only a comparison shown for scale is left to the full table.
        if mine.is_empty() {
            *scale_only += 1;
            continue;
        }
        // The variant shown for scale is left out of the count (the full table has it).
        let changes = format!("{} ({})", mine.len(), counted(&mine));
        let top = mine
            .iter()
            .min_by(|x, y| {
                severity(&x.effect)
                    .cmp(&severity(&y.effect))
                    .then(weight(y).total_cmp(&weight(x)))
            })
            .expect("a setting listed has a row");
        let head = Head::named(top.headline.clone(), base_report);
        let diff = |d: f64| {
            if d.abs() < EXACTLY_ZERO {
                "no difference".to_string()
            } else {
                head.diff(d)
            }
        };
        // Each step tried that changes a comparison, once ("0 or 2 instead of 1").
        let mut steps: Vec<String> = Vec::new();
        for r in rows.iter() {
            let s = setting_value(&f.key, &r.to);
            if !steps.contains(&s) {
                steps.push(s);
            }
        }
        tab.rows.push(vec![
            format!(
                "{}, {} instead of {}",
                setting_in_table(&compared_systems(result), &f.key, &f.kind),
                steps_in_words(&steps),
                setting_value(&f.key, &f.from),
            ),
            top.rule.clone(),
            changes,
            format!(
                "{}, {}: {} instead of {}",
                top.variant,
                head.label().head,
                diff(top.changed),
                diff(top.difference)
            ),
        ]);
    }
    tab
}

/// The systems of an experiment's variants, each once, in variant order.
pub(super) fn systems_of(result: &ExperimentResult) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for v in &result.experiment.variants {
        if !out.contains(&v.system.as_str()) {
            out.push(&v.system);
        }
    }
    out
}

/// The systems of the variants compared, leaving out those only a variant shown for scale
/// uses: a setting they share is labelled in their words ("Quarters already lost"), not in
/// every system's.
fn compared_systems(result: &ExperimentResult) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for v in result.experiment.variants.iter().filter(|v| !v.reference) {
        if !out.contains(&v.system.as_str()) {
            out.push(&v.system);
        }
    }
    if out.is_empty() {
        return systems_of(result);
    }
    out
}

/// The outcomes that have no counterpart in the baseline's system, per variant, as
/// `variant: a, b` (empty when every outcome is matched).
pub(super) fn unmatched(result: &ExperimentResult) -> Vec<String> {
    let per = result.experiment.variants.len();
    let first = &result.runs[..per];
    let base = &first[0].report;
    let mut out = Vec::new();
    for run in &first[1..] {
        let mine: Vec<&str> = run
            .report
            .outcomes
            .iter()
            .map(|o| o.outcome.as_str())
            .filter(|o| !base.outcomes.iter().any(|b| same_outcome(&b.outcome, o)))
            .collect();
        let theirs: Vec<&str> = base
            .outcomes
            .iter()
            .map(|b| b.outcome.as_str())
            .filter(|b| {
                !run.report
                    .outcomes
                    .iter()
                    .any(|o| same_outcome(b, &o.outcome))
            })
            .collect();
        if !mine.is_empty() || !theirs.is_empty() {
            let all: Vec<String> = mine
                .into_iter()
                .map(|o| format!("{} (its own)", crate::labels::outcome(o).head))
                .chain(
                    theirs
                        .into_iter()
                        .map(|o| format!("{} (the baseline's)", crate::labels::outcome(o).head)),
                )
                .collect();
            out.push(format!(
                "{}: {}",
                result.experiment.variants[run.variant].name,
                all.join(", ")
            ));
        }
    }
    out
}

/// When the variants use different rule systems: which outcomes are compared across them and
/// how they are matched, and which have no counterpart and are not compared.
fn across_systems(result: &ExperimentResult) -> Option<Section> {
    let systems = systems_of(result);
    if systems.len() < 2 {
        return None;
    }
    let exp = &result.experiment;
    let per = exp.variants.len();
    let first = &result.runs[..per];
    let base = &first[0];
    let base_name = &exp.variants[0].name;
    let mut rows: Vec<Vec<String>> = Vec::new();
    for run in &first[1..] {
        let v = &exp.variants[run.variant];
        if v.system == exp.variants[0].system {
            continue;
        }
        for b in &base.report.outcomes {
            let counterpart = run
                .report
                .outcomes
                .iter()
                .find(|o| same_outcome(&b.outcome, &o.outcome));
            rows.push(match counterpart {
                Some(o) if o.outcome == b.outcome => vec![
                    v.name.clone(),
                    crate::labels::outcome(&b.outcome).head,
                    crate::labels::outcome(&o.outcome).head,
                    "the same end by name, each under its own system's rules: compared".into(),
                ],
                Some(o) => vec![
                    v.name.clone(),
                    crate::labels::outcome(&b.outcome).head,
                    crate::labels::outcome(&o.outcome).head,
                    "the unit gone from the table in both systems' words: compared".into(),
                ],
                None => vec![
                    v.name.clone(),
                    crate::labels::outcome(&b.outcome).head,
                    "—".into(),
                    format!(
                        "no counterpart in {}: not compared",
                        crate::labels::system(&v.system)
                    ),
                ],
            });
        }
        for o in &run.report.outcomes {
            if !base
                .report
                .outcomes
                .iter()
                .any(|b| same_outcome(&b.outcome, &o.outcome))
            {
                rows.push(vec![
                    v.name.clone(),
                    "—".into(),
                    crate::labels::outcome(&o.outcome).head,
                    format!(
                        "no counterpart in {}: not compared",
                        crate::labels::system(&exp.variants[0].system)
                    ),
                ]);
            }
        }
    }
    let mut tab = Tab::new(&[
        ("variant", false),
        (base_name.as_str(), false),
        ("its outcome", false),
        ("matched", false),
    ]);
    tab.rows = rows;
    Some(Section {
        printed: false,
        title: "Outcomes across systems".into(),
        intro: format!(
            "The variants use different rule systems ({}). An outcome is compared with the baseline's only where it names the same end (one system's \u{201c}removed\u{201d} and another's \u{201c}eliminated\u{201d} both mean the unit gone); each system reaches it by its own rules, so a difference measures the rules together, not one number. Outcomes with no counterpart are not compared. Metrics are compared only where both systems report one of the same name.",
            systems
                .iter()
                .map(|s| crate::labels::system(s))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        tables: vec![tab],
    })
}

/// What was played, in words: the scenario and the settings every variant shares, each variant
/// by its system and what sets it apart from the others, and the swept values.
fn setup_sentence(exp: &crate::experiment::Experiment) -> String {
    let shared = super::charts::shared_settings(exp);
    let mut out = exp.scenario.words().to_string();
    if !shared.is_empty() {
        out += &format!("; in every variant: {}", shared.join(", "));
    }
    out += ".";
    let shared_set = |k: &str, v: &SetValue| super::charts::set_everywhere(exp, k, v);
    let swept = |k: &str| exp.sweep.iter().any(|a| a.key == k);
    let said_under = |s: &str, k: &str, x: &SetValue| {
        crate::labels::setting_in_words_under(&[s], k, &x.as_input())
    };
    let measure = |k: &str| crate::labels::is_measurement(k);
    // The variants by system, in the order they first appear; the settings every variant of a
    // system shares are said once, with the system.
    let mut systems: Vec<&str> = Vec::new();
    for v in &exp.variants {
        if !systems.contains(&v.system.as_str()) {
            systems.push(&v.system);
        }
    }
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for system in &systems {
        let said = |k: &str, x: &SetValue| said_under(system, k, x);
        let members: Vec<(usize, &crate::experiment::Variant)> = exp
            .variants
            .iter()
            .enumerate()
            .filter(|(_, v)| v.system == *system)
            .collect();
        let in_all = |k: &str, x: &SetValue| {
            members.len() > 1
                && members
                    .iter()
                    .all(|(_, v)| v.set.iter().any(|(k2, x2)| k2 == k && x2 == x))
        };
        let group_shared: Vec<String> = members[0]
            .1
            .set
            .iter()
            .filter(|(k, x)| !shared_set(k, x) && !swept(k) && in_all(k, x) && !measure(k))
            .map(|(k, x)| said(k, x))
            .collect();
        let each: Vec<(String, String)> = members
            .iter()
            .map(|(i, v)| {
                let mut own: Vec<String> = v
                    .set
                    .iter()
                    .filter(|(k, x)| !shared_set(k, x) && !swept(k) && !in_all(k, x) && !measure(k))
                    .map(|(k, x)| said(k, x))
                    .collect();
                own.extend(v.rules.iter().map(|(k, x)| {
                    format!(
                        "the rule \u{201c}{}\u{201d} at {}",
                        crate::params::label_in_prose(k),
                        x.as_input()
                    )
                }));
                let options: Vec<String> = v
                    .options
                    .iter()
                    .map(|o| format!("\u{201c}{}\u{201d}", crate::labels::option(o)))
                    .collect();
                match &options[..] {
                    [] => {}
                    [one] => own.push(format!("the optional rule {one}")),
                    [rest @ .., last] => {
                        own.push(format!("the optional rules {} and {last}", rest.join(", ")))
                    }
                }
                (
                    format!("{}{}", v.name, if *i == 0 { " (the baseline)" } else { "" }),
                    own.join(", "),
                )
            })
            .collect();
        let label = crate::labels::system(system);
        let shared = match &group_shared[..] {
            [] => String::new(),
            [one] => format!(", with {one}"),
            [rest @ .., last] => format!(", with {} and {last}", rest.join(", ")),
        };
        // A system of one variant named as the system: said once ("Rank & File, with …: 6
        // enemy fire dice"), not "Under Rank & File: Rank & File (…)".
        let alone = match &each[..] {
            [(name, own)] if name.as_str() == label.as_str() => Some(own.clone()),
            _ => None,
        };
        let item = |(name, own): &(String, String)| {
            if own.is_empty() {
                name.clone()
            } else {
                format!("{name}: {own}")
            }
        };
        groups.push(match alone {
            Some(own) if own.is_empty() => (format!("{label}{shared}"), Vec::new()),
            Some(own) => (format!("{label}{shared}: {own}"), Vec::new()),
            None => (
                format!("Under {label}{shared}:"),
                each.iter().map(item).collect(),
            ),
        });
    }
    if !exp.sweep.is_empty() {
        let axes: Vec<String> = exp
            .sweep
            .iter()
            .map(|a| {
                format!(
                    "{} over {}",
                    super::charts::axis_words(exp, a),
                    a.values
                        .iter()
                        .map(SetValue::as_input)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
            .collect();
        out += &format!(" Swept: {}.", axes.join("; and "));
    }
    // The variants as a list, a line each ("- name: what sets it apart"); under one system,
    // the system is said before the list; under several, each system is an item with its
    // variants beneath it.
    match &groups[..] {
        [(head, items)] if items.is_empty() => out += &format!(" {head}."),
        // One variant: no baseline and no list.
        [(head, items)] if items.len() == 1 => {
            out += &format!(" {head} {}.", items[0].replacen(" (the baseline)", "", 1));
        }
        [(head, items)] => {
            out += &format!(" The variants, {}", crate::labels::lower_first(head));
            for i in items {
                out += &format!("\n- {i}");
            }
        }
        _ => {
            out += " The variants:";
            for (head, items) in &groups {
                out += &format!("\n- {}", head.trim_end_matches(':'));
                for i in items {
                    out += &format!("\n  - {i}");
                }
            }
        }
    }
    out
}

/// With a sweep of two axes: for each variant its (first) headline at every setting, a row per
/// value of the second axis and a column per value of the first, exact where known.
fn pivots(result: &ExperimentResult) -> Vec<(String, Tab)> {
    let exp = &result.experiment;
    let [x, y] = &exp.sweep[..] else {
        return Vec::new();
    };
    let head = Head::of(exp, &result.runs[0].report);
    let x_words = super::charts::axis_name(exp, x);
    let y_words = super::charts::axis_name(exp, y);
    let mut out = Vec::new();
    for (vi, v) in exp.variants.iter().enumerate() {
        let mut cols: Vec<(String, bool)> = vec![(y.key.clone(), false)];
        cols.extend(
            x.values
                .iter()
                .map(|xv| (format!("{} {}", x.key, xv.as_input()), true)),
        );
        let mut tab = Tab {
            head: cols,
            rows: Vec::new(),
        };
        let mut all_exact = true;
        for yv in &y.values {
            let mut row = vec![yv.as_input()];
            for xv in &x.values {
                let cell = result
                    .runs
                    .iter()
                    .find(|r| {
                        r.variant == vi && r.point.first() == Some(xv) && r.point.get(1) == Some(yv)
                    })
                    .and_then(|r| find(&r.report, &head.key));
                row.push(match cell {
                    Some(c) => {
                        all_exact &= c.exact.is_some();
                        head.value(c.exact.unwrap_or(c.p))
                    }
                    None => {
                        all_exact = false;
                        "—".into()
                    }
                });
            }
            tab.rows.push(row);
        }
        out.push((
            format!(
                "{}: the {} by {y_words} (rows) and {x_words} (columns), {}",
                v.name,
                head.axis(),
                if all_exact {
                    "exact".to_string()
                } else {
                    format!(
                        "estimates from {} trials each (their intervals are in the table of every setting)",
                        crate::report::thousands(exp.trials)
                    )
                }
            ),
            tab,
        ));
    }
    out
}

/// Said under the first table of changes: a change and the two rounded figures it compares
/// need not subtract to the last digit (the change is the exact one, rounded once).
const ROUNDING: &str = "A change is worked out before rounding, so it can differ by one in its last digit from the difference of the rounded figures.";

pub(crate) fn page(result: &ExperimentResult, comparisons: &[Comparison], command: &str) -> Page {
    let exp = &result.experiment;
    let level = format!("{}%", crate::report::fmt_level(exp.confidence));
    let exact_all = result
        .runs
        .iter()
        .all(|r| r.report.outcomes.iter().all(|o| o.cell.exact.is_some()));
    let exact_any = result
        .runs
        .iter()
        .any(|r| r.report.outcomes.iter().any(|o| o.cell.exact.is_some()));
    let method = format!(
        "How the numbers were found: {} The situation ({}) was also played out {} times for each variant{} by a seeded simulation (seed {}, {level} intervals).",
        if exact_all {
            "every value is exact, worked out from the rules' dice; the simulation checks each one."
        } else if exact_any {
            "values are exact, worked out from the rules' dice, where the situation could be solved, and the simulation checks them; elsewhere they are the simulation's, with their intervals."
        } else {
            "this situation has no exact solution, so every value is the simulation's, with its interval."
        },
        exp.scenario.words().to_lowercase(),
        crate::report::thousands(exp.trials),
        if exp.sweep.is_empty() {
            String::new()
        } else {
            " and setting".into()
        },
        exp.seed,
    );
    // The checks' level, said once: sure taken together, not one by one.
    let checks = super::answer::checks_made(result);
    // How the checks came out, on paper too, where their tables are not printed.
    let missed = super::answer::checks_missed(result);
    let outcome = match missed.len() {
        0 if checks > 1 => format!(" All {} agree.", crate::report::thousands(checks as u64)),
        0 => String::new(),
        n => format!(
            " {} of {} agree; {} {}: {}. A fault would miss again from another seed; chance would not.",
            crate::report::thousands((checks - n.min(checks)) as u64),
            crate::report::thousands(checks as u64),
            n,
            if n == 1 { "does not" } else { "do not" },
            missed.join("; "),
        ),
    };
    let method = if checks > 1 {
        format!(
            "{method} It checks all {} exact values, with intervals wide enough that the checks are {level} sure taken together: a miss anywhere in the report comes by chance in only 1 report in {:.0}.{outcome}",
            crate::report::thousands(checks as u64),
            1.0 / (1.0 - exp.confidence)
        )
    } else {
        format!("{method}{outcome}")
    };
    let method = if exp.overrides.is_empty() {
        method
    } else {
        format!(
            "{method} Not the file as written: {}.",
            exp.overrides.join("; ")
        )
    };
    let mut sections = Vec::new();
    // Notes every run of a system shares are said once, after the runs' sections (a section
    // per system where the variants use several); each run's section keeps its own.
    let systems = systems_of(result);
    let shared_of = |system: &str| -> Vec<&String> {
        let runs: Vec<&crate::experiment::Run> = result
            .runs
            .iter()
            .filter(|r| exp.variants[r.variant].system == system)
            .collect();
        match runs.split_first() {
            Some((first, rest)) if !rest.is_empty() => first
                .report
                .notes
                .iter()
                .filter(|n| rest.iter().all(|r| r.report.notes.contains(n)))
                .collect(),
            _ => Vec::new(),
        }
    };
    let mut per_run: Vec<(usize, Section)> = Vec::new();
    // Every check of the report at one level, sure at the experiment's taken together.
    let zf = super::answer::check_z(result);
    for run in &result.runs {
        let v = &exp.variants[run.variant];
        let at = point_words(exp, &run.point);
        let shared = shared_of(&v.system);
        let own: Vec<&String> = run
            .report
            .notes
            .iter()
            .filter(|n| !shared.contains(n))
            .collect();
        // The value is the exact one where there is one; the simulation beside it is its check.
        // One number per quantity: the exact value, the simulation's check beside it ("agrees",
        // or its estimate where it misses); where nothing is exact, the estimate and interval.
        let exact_here = run.report.outcomes.iter().all(|o| o.cell.exact.is_some());
        let check = if exact_here {
            "simulation's check".to_string()
        } else {
            format!("simulation ({level} interval)")
        };
        let mut outcomes = Tab::new(&[("outcome", false), ("chance", true), (&check, false)]);
        for o in &run.report.outcomes {
            let c = &o.cell;
            let d = 2;
            let interval = format!(
                "{:.d$}% [{:.d$}%, {:.d$}%]",
                100.0 * c.p,
                100.0 * c.ci_low.unwrap_or(f64::NAN),
                100.0 * c.ci_high.unwrap_or(f64::NAN)
            );
            outcomes.rows.push(vec![
                crate::labels::outcome(&o.outcome).head,
                // As the answer and its table give it (one number per quantity).
                match c.exact {
                    Some(e) => super::answer::pct(e),
                    None => format!("{} (simulation)", super::answer::pct(c.p)),
                },
                match c.exact {
                    Some(_) => check_cell(c, true, exp.confidence, zf, ""),
                    None => interval,
                },
            ]);
        }
        let mut tables = vec![outcomes];
        if !run.report.metrics.is_empty() {
            let mut metrics = Tab::new(&[
                ("measure", false),
                ("average", true),
                ("simulation's check (± standard error)", false),
            ]);
            // Two decimals, as the answer and its table give a measure; the spread of a
            // check keeps four, so that an estimate and its error read apart.
            let f = |x: Option<f64>| {
                x.filter(|v| v.is_finite())
                    .map(|v| format!("{v:.4}"))
                    .unwrap_or("—".into())
            };
            let value = |x: Option<f64>| {
                x.filter(|v| v.is_finite())
                    .map(|v| format!("{v:.2}"))
                    .unwrap_or("—".into())
            };
            for m in &run.report.metrics {
                // A measure taken among trials that never happen here (turns to removal where
                // no unit is removed) has no value: it is left out, not shown as dashes.
                if !m.exact.is_some_and(f64::is_finite) && !m.value.is_some_and(f64::is_finite) {
                    continue;
                }
                // A measure that is a share (a cause of removal) reads as a chance.
                let share = crate::labels::is_share(&m.name);
                let g = |x: Option<f64>| match x.filter(|v| v.is_finite()) {
                    Some(v) if share => format!("{:.2}%", 100.0 * v),
                    other => f(other),
                };
                let shown = |x: Option<f64>| match x.filter(|v| v.is_finite()) {
                    Some(v) if share => super::answer::pct(v),
                    other => value(other),
                };
                let spread = format!("{} ± {}", g(m.value), g(m.stderr));
                metrics.rows.push(vec![
                    with_condition(&m.name, &m.meaning),
                    match m.exact.filter(|v| v.is_finite()) {
                        Some(e) => shown(Some(e)),
                        None => format!("{} (simulation)", shown(m.value)),
                    },
                    match (
                        m.exact.filter(|v| v.is_finite()),
                        find(&run.report, &m.name),
                    ) {
                        (Some(_), Some(c)) => {
                            check_cell_as(&c, false, share, exp.confidence, zf, "")
                        }
                        (Some(_), None) => "—".into(),
                        (None, _) => spread,
                    },
                ]);
            }
            tables.push(metrics);
        }
        per_run.push((
            run.variant,
            Section {
                printed: false,
                title: if at.is_empty() {
                    v.name.clone()
                } else {
                    format!("{} ({at})", v.name)
                },
                intro: format!(
                    "{}; rules: {}; optional rules: {}.{}",
                    crate::labels::capitalised(&crate::labels::system(&v.system)),
                    run.report.rules_line(),
                    if v.options.is_empty() {
                        "none".into()
                    } else {
                        v.options
                            .iter()
                            .map(|o| crate::labels::option(o))
                            .collect::<Vec<_>>()
                            .join(", ")
                    },
                    match (own.is_empty(), shared.is_empty()) {
                        (true, true) => String::new(),
                        (true, false) if systems.len() > 1 => format!(
                            " Notes: those every variant of {} shares (below).",
                            crate::labels::system(&v.system)
                        ),
                        (true, false) => " Notes: those every variant shares (below).".to_string(),
                        (false, true) => format!(
                            " Notes: {}.",
                            own.iter()
                                .map(|n| n.as_str())
                                .collect::<Vec<_>>()
                                .join("; ")
                        ),
                        (false, false) => format!(
                            " Notes, besides those every variant{} shares (below): {}.",
                            if systems.len() > 1 {
                                format!(" of {}", crate::labels::system(&v.system))
                            } else {
                                String::new()
                            },
                            own.iter()
                                .map(|n| n.as_str())
                                .collect::<Vec<_>>()
                                .join("; ")
                        ),
                    }
                ),
                tables,
            },
        ));
    }
    // Over a sweep, a variant the swept setting does not touch (the same numbers at every
    // setting) gets one section, not one a setting: the one whose rules are nearest the
    // source's, since its rules line names no other setting.
    let collapsed = |variant: usize| {
        let mine: Vec<&Section> = per_run
            .iter()
            .filter(|(v, _)| *v == variant)
            .map(|(_, s)| s)
            .collect();
        // The same exact values, not only the same rounded figures (the simulation's checks
        // may differ).
        let values = |r: &Run| -> Vec<Option<u64>> {
            let outcomes = r.report.outcomes.iter().map(|o| o.cell.exact);
            let metrics = r.report.metrics.iter().map(|m| m.exact);
            outcomes
                .chain(metrics)
                .map(|x| x.map(f64::to_bits))
                .collect()
        };
        let runs: Vec<&Run> = result
            .runs
            .iter()
            .filter(|r| r.variant == variant)
            .collect();
        let exact = runs.iter().all(|r| {
            r.report.outcomes.iter().all(|o| o.cell.exact.is_some())
                && r.report
                    .metrics
                    .iter()
                    .all(|m| m.exact.is_some() || !m.value.is_some_and(f64::is_finite))
        });
        let same = runs.iter().all(|r| values(r) == values(runs[0]));
        (mine.len() > 1 && exact && same).then(|| {
            let nearest = mine
                .iter()
                .min_by_key(|s| s.intro.len())
                .expect("a variant has runs");
            let mut one = Section {
                title: format!(
                    "{} (the same at every setting swept)",
                    exp.variants[variant].name
                ),
                ..(*nearest).clone()
            };
            // The simulation checks each value once, with every setting's trials: the
            // outcomes' rows are the report's outcomes in order, the measures' its measures
            // that have a value (the same in every run, whose exact values are the same).
            let outcomes = &runs[0].report.outcomes;
            if let Some(table) = one.tables.get_mut(0) {
                for (row, o) in table.rows.iter_mut().zip(outcomes) {
                    let cells: Vec<Cell> = runs
                        .iter()
                        .filter_map(|r| find(&r.report, &o.outcome))
                        .collect();
                    row[2] = pooled_check(&cells, true, exp.confidence, zf);
                }
            }
            let measures = runs[0].report.metrics.iter().filter(|m| {
                m.exact.is_some_and(f64::is_finite) || m.value.is_some_and(f64::is_finite)
            });
            if let Some(table) = one.tables.get_mut(1) {
                for (row, m) in table.rows.iter_mut().zip(measures) {
                    let cells: Vec<Cell> = runs
                        .iter()
                        .filter_map(|r| find(&r.report, &m.name))
                        .collect();
                    row[2] = pooled_check(&cells, false, exp.confidence, zf);
                }
            }
            one.intro += &format!(
                " Its simulation's check takes the runs at the {} settings together ({} trials).",
                runs.len(),
                crate::report::thousands(exp.trials * runs.len() as u64)
            );
            one
        })
    };
    for (i, (variant, section)) in per_run.iter().enumerate() {
        match collapsed(*variant) {
            Some(_) if per_run[..i].iter().any(|(v, _)| v == variant) => {}
            Some(one) => sections.push(one),
            None => sections.push(section.clone()),
        }
    }
    for system in &systems {
        let shared = shared_of(system);
        if shared.is_empty() {
            continue;
        }
        sections.push(Section {
            printed: false,
            title: if systems.len() > 1 {
                format!(
                    "Notes every variant of {} shares",
                    crate::labels::system(system)
                )
            } else {
                "Notes every variant shares".into()
            },
            intro: format!(
                "{}.",
                shared
                    .iter()
                    .map(|n| n.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            tables: Vec::new(),
        });
    }
    if !comparisons.is_empty() {
        // One number per difference: the exact one where it is known, the simulation's
        // estimate and interval beside it as its check; the tests of chance only for the rows
        // that have no exact value.
        let all_exact = comparisons.iter().all(|c| c.exact_difference.is_some());
        let mut head = Vec::new();
        if !exp.sweep.is_empty() {
            head.push(("setting", false));
        }
        head.extend([
            ("variant", false),
            ("of", false),
            ("what", false),
            ("difference", true),
            (
                if all_exact {
                    "simulation's check (interval)"
                } else {
                    "simulation (interval)"
                },
                false,
            ),
        ]);
        let adjusted = !all_exact && comparisons.iter().any(|c| c.family > 1);
        if !all_exact {
            head.push(("p-value", true));
            if adjusted {
                head.push(("Holm", true));
            }
            head.push(("could chance explain it?", false));
        }
        let mut tab = Tab::new(&head);
        // A conditional mean keeps its condition beside its name, here too.
        let meaning = |name: &str| {
            result
                .runs
                .iter()
                .flat_map(|r| &r.report.metrics)
                .find(|m| m.name == name)
                .map_or("", |m| m.meaning.as_str())
        };
        // A chance's difference in points, a mean's in its own unit.
        // A share measured as a metric (a cause of removal) reads as a chance, in points.
        let as_chance = |c: &Comparison| c.kind != "metric" || crate::labels::is_share(&c.name);
        let amount = |c: &Comparison, x: f64| {
            if as_chance(c) {
                format!("{} points", signed(100.0 * x, 2))
            } else {
                signed(x, 4)
            }
        };
        // A difference too small for the headline's digits keeps the finer ones ("+0.0028",
        // not "0.00" beside rows that say "exactly the same").
        let shown = |c: &Comparison, x: f64| {
            let (coarse, digits) = match as_chance(c) {
                true => (100.0 * x, 1usize),
                false => (x, 2usize),
            };
            if (coarse * 10f64.powi(digits as i32)).round() == 0.0 {
                return amount(c, x);
            }
            match as_chance(c) {
                true => format!("{} points", signed(coarse, digits)),
                false => signed(coarse, digits),
            }
        };
        // The checks of exact differences are sure at the experiment's level taken together,
        // as the values' are: each interval widened from the row's level to the table's.
        let checked = comparisons
            .iter()
            .filter(|c| c.exact_difference.is_some())
            .count()
            .max(1);
        let widen = crate::stats::z_for_confidence(1.0 - (1.0 - exp.confidence) / checked as f64)
            / crate::stats::z_for_confidence(exp.confidence);
        for c in comparisons {
            let mut row = Vec::new();
            if !exp.sweep.is_empty() {
                row.push(point_words(exp, &c.point));
            }
            let (low, high) = match c.exact_difference {
                Some(_) => (
                    c.difference - widen * (c.difference - c.low),
                    c.difference + widen * (c.high - c.difference),
                ),
                None => (c.low, c.high),
            };
            let estimate = format!(
                "{} [{}, {}]",
                amount(c, c.difference),
                amount(c, low).trim_end_matches(" points"),
                amount(c, high).trim_end_matches(" points")
            );
            let check = match c.exact_difference {
                Some(e) if low - 1e-12 <= e && e <= high + 1e-12 => {
                    format!("agrees: {estimate}")
                }
                Some(_) => format!(
                    "outside its interval: {estimate} (the table's checks are {}% sure taken together: 1 table in {} has such a miss by chance)",
                    crate::report::fmt_level(exp.confidence),
                    (1.0 / (1.0 - exp.confidence)).round()
                ),
                None => estimate,
            };
            row.extend([
                c.variant.clone(),
                if as_chance(c) {
                    "chance".to_string()
                } else {
                    "average".to_string()
                },
                if c.kind == "metric" {
                    with_condition(&c.name, meaning(&c.name))
                } else {
                    crate::labels::outcome(&c.name).head
                },
                // The exact difference as the headline table rounds it (one number per
                // quantity); the estimate beside it, a check, keeps a digit more.
                match c.exact_difference {
                    Some(_) if super::answer::exactly_same(c) => "exactly the same".to_string(),
                    Some(e) if all_exact => shown(c, e),
                    Some(e) => format!("{}, exact", shown(c, e)),
                    None => amount(c, c.difference),
                },
                check,
            ]);
            if !all_exact {
                row.push(p_cell(c.p_value));
                if adjusted {
                    row.push(p_cell(c.p_adjusted));
                }
                row.push(super::answer::chance_cell(c).to_string());
            }
            tab.rows.push(row);
        }
        sections.push(Section {
            printed: false,
            title: format!("Differences from {}", exp.variants[0].name),
            intro: if all_exact {
                format!(
                    "Each variant minus the baseline at the same setting, a chance's difference in percentage points. Every difference is exact; the simulation's estimate is its check, with an interval wide enough that the table's {} checks are {level} sure taken together (1 table in {} has a miss by chance alone).",
                    checked,
                    (1.0 / (1.0 - exp.confidence).max(1e-9)).round()
                )
            } else {
                format!(
                    "Each variant minus the baseline at the same setting, a chance's difference in percentage points: the exact difference where it is known, which then decides; else the simulation's, with its {level} interval and whether chance could explain it at that level{}. A mean with no spread on either side (every trial the same) has no test.",
                    if adjusted {
                        " (judged after Holm's adjustment of the p-values, column Holm, across every row of this table without an exact value, as a reader scans them at once)"
                    } else {
                        ""
                    }
                )
            },
            tables: vec![tab],
        });
    }
    if let Some(section) = across_systems(result) {
        sections.push(section);
    }
    if let Some(found) = assumptions_section(result) {
        sections.extend(found);
    }
    for (name, sens) in &result.sensitivity {
        let rows = sens.rows(true);
        let mut tab = Tab::new(
            &rows[0]
                .iter()
                .enumerate()
                .map(|(i, h)| (h.as_str(), i >= 5 && h != "chance?"))
                .collect::<Vec<_>>(),
        );
        tab.rows = rows[1..].to_vec();
        let mut intro = format!(
            "Every rule parameter moved one step each way from its value, every optional rule switched, and the change each makes to {}, as {}{}{}. {}",
            sens.headline_noun(),
            sens.show(sens.base.value),
            if name.is_empty() {
                String::new()
            } else {
                format!(" for {name}")
            },
            if sens.trials == 0 {
                ", every value exact".to_string()
            } else {
                format!(
                    ", by Monte Carlo ({} trials a setting, the experiment's seed; * an estimate)",
                    crate::report::thousands(sens.trials)
                )
            },
            sens.verdict()
        );
        intro += &format!(" {}", crate::experiment::sensitivity::SCALED);
        if let Some(l) = sens.unmoved_line() {
            intro += &format!(" {l}.");
        }
        for l in sens.refused_lines() {
            intro += &format!(" {}.", l.trim_end_matches('.'));
        }
        sections.push(Section {
            printed: false,
            title: format!("Which rule matters most: {name}"),
            intro,
            tables: vec![tab],
        });
    }
    for (name, b) in &result.balance {
        let rows = b.rows();
        let mut tab = Tab::new(
            &rows[0]
                .iter()
                .enumerate()
                .map(|(i, h)| {
                    let last = i + 1 == rows[0].len();
                    (
                        if last && h.is_empty() {
                            "note"
                        } else {
                            h.as_str()
                        },
                        !last,
                    )
                })
                .collect::<Vec<_>>(),
        );
        tab.rows = rows[1..].to_vec();
        let mut intro = b.answer();
        for l in b.context_lines() {
            intro += &format!(" {}.", l.trim_end_matches('.'));
        }
        for l in b.refused_lines() {
            intro += &format!(" {}.", l.trim_end_matches('.'));
        }
        sections.push(Section {
            printed: false,
            title: format!(
                "What {} makes it fair: {name}",
                crate::params::label_in_prose(&b.key)
            ),
            intro,
            tables: vec![tab],
        });
    }
    let several = exp.headlines.len() > 1;
    let (mut answer, headline, detail) = if exp.variants.len() > 1 && several {
        let (verdicts, tab) = answer_table(result, comparisons);
        (verdicts, Some(tab), answer(result, comparisons))
    } else if exp.variants.len() > 1 && exp.sweep.is_empty() {
        let (verdict, tab) = headline_table(result, comparisons);
        // `verdict = true` opens with the plain word and the lead variant's change, as with
        // several headlines.
        let head = Head::of(exp, &result.runs[0].report);
        let verdict = match lead(result, comparisons, &[head]).filter(|_| exp.verdict) {
            Some(l) => format!("{l} {verdict}"),
            None => verdict,
        };
        (verdict, Some(tab), answer(result, comparisons))
    } else if exp.variants.len() > 1 {
        // A sweep: the answer goes along the swept values; the table gives every setting.
        let (_, tab) = headline_table(result, comparisons);
        (answer(result, comparisons), Some(tab), String::new())
    } else {
        (answer(result, comparisons), None, String::new())
    };
    // The answer stays within 150 words: the sentence on the assumptions takes what is left.
    const ANSWER_WORDS: usize = 150;
    let used = answer.split_whitespace().count()
        + result
            .balance
            .iter()
            .map(|(n, b)| 2 + n.split_whitespace().count() + b.answer().split_whitespace().count())
            .sum::<usize>();
    if let Some(line) = rests_on(result, ANSWER_WORDS.saturating_sub(used)) {
        answer += " ";
        answer += &line;
    }
    // With a [balance] section the number solved for is the answer asked: it comes first.
    if !result.balance.is_empty() {
        let solved: Vec<String> = result
            .balance
            .iter()
            .map(|(name, b)| {
                let a = b.answer();
                let mut c = a.chars();
                let a = c
                    .next()
                    .map(|f| f.to_lowercase().collect::<String>() + c.as_str())
                    .unwrap_or_default();
                format!("For {name}: {a}")
            })
            .collect();
        // What follows compares the variants as the file sets them (the rules as written,
        // unless it changes them), not at the number solved for.
        let at = result
            .balance
            .first()
            .map(|(_, b)| {
                format!(
                    "With \u{201c}{}\u{201d} as the file sets it ({})",
                    crate::params::label(&b.key),
                    b.as_set
                )
            })
            .unwrap_or_default();
        answer = format!(
            "{} {at}: {}",
            solved.join(" "),
            crate::labels::lower_first(&answer)
        );
    }
    Page {
        title: exp.title.clone().unwrap_or_else(|| exp.question.clone()),
        question: exp.question.clone(),
        setup: setup_sentence(exp),
        pivots: pivots(result),
        answer,
        why: exp.why.clone(),
        rounding: (!comparisons.is_empty()).then(|| ROUNDING.to_string()),
        meanings: meanings(result),
        headline,
        detail,
        method,
        sections,
        reproduce: format!(
            "`{command}` — morale-lab {}, seed {}, {} trials, {} threads (results do not depend on threads). The variant definitions are in `results.json`.",
            result.version,
            exp.seed,
            crate::report::thousands(exp.trials),
            result.threads
        ),
    }
}

pub(super) fn summary_md(result: &ExperimentResult, page: &Page) -> String {
    let mut out = format!(
        "# {}\n\n**Question.** {}\n\n**Setup.** {}\n\n**Answer.** {}\n\n",
        page.title, page.question, page.setup, page.answer
    );
    if let Some(note) = &page.rounding {
        out += &format!("*{note}*\n\n");
    }
    // The chart that answers the question comes with the answer, as on the page.
    if result.experiment.headlines.len() > 1
        && result.experiment.variants.len() > 1
        && result.experiment.sweep.is_empty()
    {
        out += "![A point per variant, one measure on each axis](tradeoff.png)\n\n";
    }
    if result.experiment.sweep.len() == 1 && result.experiment.balance.is_none() {
        out += "![A line per variant along the setting swept](sweep.png)\n\n";
    }
    for (caption, tab) in &page.pivots {
        out += &format!("{caption}:\n\n{}\n", tab.markdown());
    }
    if let Some(tab) = &page.headline {
        out += &tab.markdown();
        out += "\n";
    }
    if let Some(m) = &page.meanings {
        out += &format!("{m}\n\n");
    }
    if let Some(why) = &page.why {
        out += &format!("**Why** (the experiment author's explanation). {why}\n\n");
    }
    if !page.detail.is_empty() {
        out += &format!("**Detail.** {}\n\n", page.detail);
    }
    out += &format!("{}\n\n", page.method);
    for s in &page.sections {
        out += &format!("## {}\n\n{}\n\n", s.title, s.intro);
        let tables: Vec<String> = s.tables.iter().map(Tab::markdown).collect();
        out += &tables.join("\n");
        out += "\n";
    }
    out += &format!("## Reproduce\n\n{}\n", page.reproduce);
    out
}

/// What the headlines count, in a sentence each: an outcome's meaning as its system declares
/// it for the scenario, a metric's as its report gives it. Where variants of several systems
/// read a headline differently (Rank & File's "removed" beside the 25% rules' "eliminated"),
/// each system's reading is named. `None` when no headline has a meaning declared.
fn meanings(result: &ExperimentResult) -> Option<String> {
    let exp = &result.experiment;
    let per = exp.variants.len().max(1);
    let first = result.runs.get(..per.min(result.runs.len()))?;
    let base = &first.first()?.report;
    let mut said: Vec<String> = Vec::new();
    for head in Head::all(exp, base) {
        // (system, the outcome or metric it counts, its head, its meaning), each once.
        let mut readings: Vec<(String, String, String)> = Vec::new();
        for run in first {
            let r = &run.report;
            let found = if head.metric {
                r.metrics
                    .iter()
                    .find(|m| m.name == head.key)
                    .map(|m| (head.labelled(), m.meaning.clone()))
            } else {
                r.outcomes
                    .iter()
                    .find(|o| o.outcome == head.key || same_outcome(&o.outcome, &head.key))
                    .and_then(|o| {
                        crate::labels::outcome_meaning(&r.system, &r.scenario, &o.outcome)
                            .map(|m| (crate::labels::outcome(&o.outcome).head, m.to_string()))
                    })
            };
            if let Some((label, meaning)) = found
                && !readings.iter().any(|x| x.1 == label && x.2 == meaning)
            {
                readings.push((r.system.clone(), label, meaning));
            }
        }
        // A meaning that only says its label again ("attacker's stands lost: attacker's
        // stands lost in the melee") tells the reader nothing: it is left out.
        readings.retain(|(_, label, meaning)| says_more(label, meaning));
        let Some((_, label0, meaning0)) = readings.first() else {
            continue;
        };
        let mut line = format!("{}: {meaning0}", crate::labels::capitalised(label0));
        for (system, label, meaning) in &readings[1..] {
            line += &format!(
                "; under {}, {label}: {meaning}",
                crate::labels::system(system)
            );
        }
        said.push(line + ".");
    }
    (!said.is_empty()).then(|| format!("What the columns count. {}", said.join(" ")))
}

/// Whether `meaning` says at least three words its `label` does not (small words aside).
fn says_more(label: &str, meaning: &str) -> bool {
    const SMALL: &[&str] = &[
        "a", "an", "the", "in", "of", "to", "its", "it", "by", "at", "and", "or", "on", "until",
        "among", "that", "as",
    ];
    let words = |t: &str| -> Vec<String> {
        t.split(|c: char| !c.is_alphanumeric() && c != '\'')
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let known = words(label);
    words(meaning)
        .iter()
        .filter(|w| !SMALL.contains(&w.as_str()) && !known.contains(w))
        .count()
        >= 3
}

/// Skipped tries of one setting from one value: (key, kind, value as run, the values tried,
/// the variants they were skipped for).
type SkipGroup<'a> = (&'a str, &'a str, &'a str, Vec<String>, Vec<&'a str>);

/// The tries an assumptions paragraph left out, in words: combinations the rules refuse, and
/// settings too large to work out within an experiment's bound (the same on every machine),
/// each named ("Green base number, 1 instead of 2"), so that a reader on paper is told which.
fn skipped_tries(
    result: &ExperimentResult,
    a: &crate::experiment::assumptions::Assumptions,
) -> String {
    let systems = compared_systems(result);
    let compared: Vec<&str> = result.experiment.variants[1..]
        .iter()
        .map(|v| v.name.as_str())
        .collect();
    // One line a setting and its value as run, its steps and the variants it was skipped
    // for together: "artillery or wagon instead of formed, for every variant".
    let named = |refused: bool| -> Vec<String> {
        let mut groups: Vec<SkipGroup> = Vec::new();
        for s in a.skipped.iter().filter(|s| s.refused == refused) {
            let at = groups.iter().position(|g| {
                (g.0, g.1, g.2) == (s.key.as_str(), s.kind.as_str(), s.from.as_str())
            });
            let g = match at {
                Some(i) => &mut groups[i],
                None => {
                    groups.push((&s.key, &s.kind, &s.from, Vec::new(), Vec::new()));
                    groups.last_mut().expect("pushed")
                }
            };
            let to = setting_value(&s.key, &s.to);
            if !g.3.contains(&to) {
                g.3.push(to);
            }
            if !g.4.contains(&s.variant.as_str()) {
                g.4.push(&s.variant);
            }
        }
        groups
            .into_iter()
            .map(|(key, kind, from, tos, variants)| {
                let all = compared.iter().all(|v| variants.contains(v));
                format!(
                    "{}, {} instead of {}, for {}",
                    setting_in_table(&systems, key, kind),
                    tos.join(" or "),
                    setting_value(key, from),
                    match all && compared.len() > 1 {
                        true => "every variant".to_string(),
                        false => variants.join(" and "),
                    }
                )
            })
            .collect()
    };
    let (r, u) = (named(true), named(false));
    skipped_words(a.refused, &r, a.unsolved, &u)
}

/// [`skipped_tries`]' words from the counts and the settings named.
fn skipped_words(
    refused: usize,
    refused_named: &[String],
    unsolved: usize,
    unsolved_named: &[String],
) -> String {
    let list = |named: &[String]| match named.is_empty() {
        true => String::new(),
        false => format!(": {}", named.join("; ")),
    };
    let mut parts = Vec::new();
    if refused > 0 {
        parts.push(format!(
            "{refused} {} the rules do not allow {} skipped{}",
            if refused == 1 {
                "combination"
            } else {
                "combinations"
            },
            if refused == 1 { "was" } else { "were" },
            list(refused_named)
        ));
    }
    if unsolved > 0 {
        parts.push(format!(
            "{unsolved} too large to work out within an experiment's bound {} left out{}",
            if unsolved == 1 { "was" } else { "were" },
            list(unsolved_named)
        ));
    }
    match parts.is_empty() {
        true => String::new(),
        false => format!(" ({})", parts.join("; ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A try skipped because the rules refuse it and one skipped because it was too large to
    /// work out are told apart (both were "combinations the rules do not allow").
    #[test]
    fn skipped_tries_say_why() {
        assert_eq!(skipped_words(0, &[], 0, &[]), "");
        assert_eq!(
            skipped_words(2, &[], 0, &[]),
            " (2 combinations the rules do not allow were skipped)"
        );
        assert_eq!(
            skipped_words(1, &["Green base number, 1 instead of 2".into()], 1, &[]),
            " (1 combination the rules do not allow was skipped: Green base number, 1 instead of 2; 1 too large to work out within an experiment's bound was left out)"
        );
    }

    #[test]
    fn a_meaning_that_says_its_label_again_is_not_said() {
        assert!(!says_more(
            "attacker's stands lost",
            "attacker's stands lost in the melee"
        ));
        assert!(!says_more(
            "turns to a decision (among fights decided)",
            "turns until decided, among fights decided"
        ));
        assert!(says_more(
            "turns its place stood empty",
            "turns (of all turns) the unit's place in the line stood empty"
        ));
        assert!(says_more(
            "recovered",
            "back in good order by the last turn"
        ));
    }

    #[test]
    fn a_conditional_mean_keeps_its_condition() {
        assert_eq!(
            with_condition(
                "turns_to_recover",
                "rally phases until back in good order, among units that recovered"
            ),
            "turns to recover (among units that recovered)"
        );
        assert_eq!(
            with_condition("stands_lost", "stands lost by the end"),
            "stands lost"
        );
    }

    #[test]
    fn runs_pooled_are_checked_with_all_their_trials() {
        let z = crate::stats::z_for_confidence(0.95);
        let cell = |k: u64| {
            let (l, h) = crate::stats::wilson(k, 1000, z);
            Cell {
                count: Some(1000),
                p: k as f64 / 1000.0,
                ci_low: Some(l),
                ci_high: Some(h),
                exact: Some(0.5),
            }
        };
        // A chance: the Wilson interval of the counts added up.
        let c = pooled(&[cell(480), cell(530)], true, z);
        assert_eq!(c.count, Some(2000));
        assert!((c.p - 0.505).abs() < 1e-12);
        assert_eq!((c.ci_low, c.ci_high), {
            let (l, h) = crate::stats::wilson(1010, 2000, z);
            (Some(l), Some(h))
        });
        // An average: its standard error shrinks as one over the square root of the runs.
        let mean = |p: f64| Cell {
            count: Some(100),
            p,
            ci_low: Some(p - z * 0.2),
            ci_high: Some(p + z * 0.2),
            exact: Some(3.0),
        };
        let m = pooled(&[mean(3.1), mean(2.9), mean(3.0), mean(3.0)], false, z);
        assert!((m.p - 3.0).abs() < 1e-12);
        assert!(((m.ci_high.unwrap() - m.p) / z - 0.1).abs() < 1e-12);
        // Each run alone agrees; together they may not, and the cell says so with the figures.
        assert_eq!(
            pooled_check(&[cell(480), cell(530)], true, 0.95, z),
            "agrees (its 2 runs together)"
        );
        let off = |k: u64| Cell {
            exact: Some(0.47),
            ..cell(k)
        };
        assert!(
            pooled_check(&[off(495), off(500), off(505)], true, 0.95, z)
                .starts_with("exact 47.00% outside its interval: 50.00% [48.21%, 51.79%] from its 3 runs together")
        );
        // At the level of 100 checks taken together the interval widens to hold it.
        let z100 = crate::stats::z_for_confidence(1.0 - 0.05 / 100.0);
        assert!(z100 > 3.4 && z100 < 3.5, "{z100}");
        assert_eq!(
            pooled_check(&[off(495), off(500), off(505)], true, 0.95, z100),
            "agrees (its 3 runs together)"
        );
    }

    #[test]
    fn a_bar_in_a_cell_does_not_end_it() {
        let mut t = Tab::new(&[("variant", false), ("p", true)]);
        t.rows.push(vec!["A | B".into(), "0.5".into()]);
        assert_eq!(
            t.markdown(),
            "| variant | p |\n|---|---:|\n| A \\| B | 0.5 |\n"
        );
    }
}
