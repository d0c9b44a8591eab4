//! The report's body (question, answer, method, sections, reproduce line) shared by
//! `summary.md` and `index.html`, and `summary.md` itself.

use super::*;
use crate::experiment::compare::same_outcome;

mod analyses;
mod answer_table;
mod assumptions;
mod checks;
mod differences;
mod headline;
mod lead;
mod runs;
mod setup;
mod systems;

use analyses::*;
use answer_table::*;
use assumptions::*;
use checks::*;
use differences::*;
use headline::*;
pub(super) use lead::is_reference;
use lead::*;
use runs::*;
use setup::*;
use systems::*;
pub(super) use systems::{crossing_systems, systems_of, unmatched};

/// The first cell of a table's row that says which way is better in each column ("lower",
/// "higher"); the page sets it under the heads.
pub(crate) const BETTER_ROW: &str = "better is";

/// A table of the report, rendered to Markdown (`summary.md`) and HTML (`index.html`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Tab {
    /// Column heads, and whether each column holds numbers (right-aligned, sorted as numbers).
    pub head: Vec<(String, bool)>,
    /// The rows' cells, as text.
    pub rows: Vec<Vec<String>>,
    /// Columns under one head of their own (on the page a band above theirs); `None` for none.
    pub group: Option<Group>,
}

/// Columns read together under one head: "the amendment against the plain 25% rules, under the
/// step" over "turns the unit's place stood empty", "strength held" and "answer". The page
/// shows `title` above the columns and their `heads`; Markdown, having one row of heads, the
/// table's own (each of which says it whole).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Group {
    /// The first column under the head.
    pub first: usize,
    /// The columns' short heads, under `title`.
    pub heads: Vec<String>,
    /// The head over them.
    pub title: String,
}

impl Tab {
    pub(super) fn new(head: &[(&str, bool)]) -> Tab {
        Tab {
            head: head.iter().map(|&(h, n)| (h.to_string(), n)).collect(),
            rows: Vec::new(),
            group: None,
        }
    }

    /// One number per quantity: where the simulation agrees with every exact value of the
    /// table, its column of "agrees" is left out (the method paragraph says so once, with the
    /// count of checks); a column with any miss, or any value with nothing to check, stays.
    pub(super) fn without_agreeing_checks(mut self) -> Tab {
        let col = self
            .head
            .iter()
            .position(|(h, _)| h == "simulation's check");
        if let Some(i) = col
            && !self.rows.is_empty()
            && self
                .rows
                .iter()
                .all(|r| r.get(i).is_some_and(|c| c == "agrees"))
        {
            self.head.remove(i);
            for r in &mut self.rows {
                r.remove(i);
            }
        }
        self
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
    /// Items said one to a line under the paragraph (notes), in order; under `closing` where
    /// there is one.
    pub list: Vec<String>,
    /// A paragraph after the tables (the defaults a situation table assumes), which the list
    /// then follows; empty for none.
    pub closing: String,
    /// The closing as printed, where paper says it shorter (the step tables' note without what
    /// their screen-only column holds); empty: as on screen.
    pub closing_paper: String,
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
fn with_condition(name: &str, meaning: &str, weak: Option<&str>) -> String {
    let head = crate::labels::at_weak_share(&crate::labels::metric(name).head, weak);
    match condition_of(meaning) {
        Some(c) => format!("{head} ({c})"),
        None => head,
    }
}

/// Said under the first table of changes: a change is the exact one, rounded once; where the
/// two rounded figures it compares would subtract to another last digit, it carries one digit
/// more ([`super::answer::Head::change`]).
const ROUNDING: &str = "A change is worked out before rounding, so its last digit may differ from the difference of the rounded figures; changes in a chance are given in percentage points (\u{201c}points\u{201d}).";

/// [`ROUNDING`]'s last clause alone, where every change printed is the difference of the
/// printed figures: the warning under a table where none differs read as boilerplate (writer
/// trial 74).
const POINTS: &str = "Changes in a chance are given in percentage points (\u{201c}points\u{201d}).";

/// A cell's leading number ("71.43%", "−13.94 points", "3.83 (+0.78 turns)") and how many
/// decimals it is given to.
fn leading_number(cell: &str) -> Option<(f64, usize)> {
    let t = cell.trim().replace('\u{2212}', "-");
    let end = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+' || c == ','))
        .unwrap_or(t.len());
    let n = t[..end].replace(',', "");
    let decimals = n.split_once('.').map_or(0, |(_, d)| d.len());
    n.parse::<f64>().ok().map(|x| (x, decimals))
}

/// Whether some change the answer's table prints is not the difference of the figures it
/// prints (rounding moved its last digit); `true` where the table cannot be read so (several
/// baselines; a layout of another kind), as if it might.
fn rounding_shows(t: &Tab, several_baselines: bool) -> bool {
    if several_baselines || t.rows.is_empty() {
        return true;
    }
    let off = |v: (f64, usize), b: (f64, usize), c: (f64, usize)| {
        (v.0 - b.0 - c.0).abs() > 0.5 * 10f64.powi(-(c.1 as i32)) + 1e-9
    };
    // Each change in brackets after its value ("71.43% (−13.94 points)"), the first row the
    // baseline's.
    if t.rows.iter().skip(1).flatten().any(|c| c.contains(" (")) {
        let base = &t.rows[0];
        for row in &t.rows[1..] {
            for (j, cell) in row.iter().enumerate().skip(1) {
                let Some((value, change)) = cell.split_once(" (") else {
                    continue;
                };
                let (Some(v), Some(c), Some(b)) = (
                    leading_number(value),
                    leading_number(change),
                    base.get(j).and_then(|x| leading_number(x)),
                ) else {
                    continue;
                };
                if off(v, b, c) {
                    return true;
                }
            }
        }
        return false;
    }
    // Else a column of changes last, the baseline's row the one with none ("—").
    let last = |r: &Vec<String>| r.last().cloned().unwrap_or_default();
    let bases: Vec<&Vec<String>> = t.rows.iter().filter(|r| last(r) == "\u{2014}").collect();
    let [base] = bases[..] else {
        return true;
    };
    let n = base.len();
    if n < 2 {
        return true;
    }
    let Some(b) = leading_number(&base[n - 2]) else {
        return true;
    };
    t.rows.iter().any(|r| {
        match (
            r.get(n - 2).and_then(|x| leading_number(x)),
            leading_number(&last(r)),
        ) {
            (Some(v), Some(c)) => off(v, b, c),
            _ => false,
        }
    })
}

/// The answer, its table and the detail under it: the verdict (with the variant that moves the
/// headlines most where the file asks for it), the assumptions it rests on within 150 words,
/// and with a `[balance]` section the number solved for first.
fn the_answer(
    result: &ExperimentResult,
    comparisons: &[Comparison],
) -> (String, Option<Tab>, String) {
    let exp = &result.experiment;
    let several = exp.headlines.len() > 1;
    let (mut answer, headline, detail): (String, Option<Tab>, String) =
        if exp.variants.len() > 1 && several {
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
    // A variant that plays its best choices is judged on what play maximises, beside the
    // headlines: what good play is worth against its baseline.
    // With two rule sets played well, whether a choice is always right and where good play
    // is worth more is the question: it opens the answer, the headline numbers follow.
    if let Some(worth) = play_worth(result) {
        answer = match result.play.len() {
            2.. => format!("{worth} {answer}"),
            _ => format!("{answer} {worth}"),
        };
    }
    // The answer stays within 150 words: the sentence on the assumptions takes what is left.
    const ANSWER_WORDS: usize = 150;
    // One word kept for "percentage" before the first "points" (see
    // `first_points_said_in_full`).
    let used = 1
        + answer.split_whitespace().count()
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
    (
        first_points_said_in_full(&answer),
        headline.map(Tab::without_agreeing_checks),
        detail,
    )
}

/// The answer's first change of a chance in "percentage points", the rest in "points": a
/// reader meets the unit in full before its short form (the note under the table says so
/// again).
fn first_points_said_in_full(answer: &str) -> String {
    let at = answer
        .match_indices(" points")
        .map(|(i, _)| i)
        .find(|&i| answer[..i].ends_with(|c: char| c.is_ascii_digit()));
    match at {
        Some(i) => format!("{} percentage{}", &answer[..i], &answer[i..]),
        None => answer.to_string(),
    }
}

/// For each variant that plays its best choices (`play = "optimal"`), at the first setting,
/// what play maximises (the chance side A holds minus the chance side B holds, exact) under it
/// and under its baseline, and so what good play is worth, with the rule of thumb that comes
/// close: "In side A's chance to hold the field minus side B's, good play is worth 2.80 points
/// under Best play (+45.26 against +42.46 under Charge a shaken target); neither choice
/// dominates. Rule of thumb, 0.37 points short of Best play: …" `None` without one, or where
/// an exact value is missing.
fn play_worth(result: &ExperimentResult) -> Option<String> {
    let exp = &result.experiment;
    let first = &result.runs[0].point;
    // Variant `vi`'s exact chance of outcome `name` at the first setting.
    let chance = |vi: usize, name: &str| -> Option<f64> {
        let run = result
            .runs
            .iter()
            .find(|r| r.variant == vi && &r.point == first)?;
        run.report
            .outcomes
            .iter()
            .find(|o| o.outcome == name)
            .and_then(|o| o.cell.exact)
    };
    let margin = |vi: usize| -> Option<f64> {
        Some(chance(vi, "side_a_holds")? - chance(vi, "side_b_holds")?)
    };
    let points = |x: f64| crate::report::signed(100.0 * x, 2);
    // Each best play's worth against its baseline (the same rules played by the parameters,
    // where the file names it `against`), and whether one choice is always right under it:
    // the question a play experiment asks (issue 78).
    let said: Vec<String> = exp
        .variants
        .iter()
        .enumerate()
        .filter(|(_, v)| v.optimal_play)
        .filter_map(|(vi, v)| {
            let bi = exp.baseline_of(vi)?;
            let (m, b) = (margin(vi)?, margin(bi)?);
            let dominance = result
                .play
                .iter()
                .find(|(name, _)| *name == v.name)
                .map(|(_, s)| format!("; {}", s.dominance()))
                .unwrap_or_default();
            Some(format!(
                "{} points under {} ({} against {} under {}){dominance}",
                points(m - b).trim_start_matches('+'),
                v.name,
                points(m),
                points(b),
                exp.variants[bi].name,
            ))
        })
        .collect();
    if said.is_empty() {
        return None;
    }
    let mut out = format!(
        "In side A's chance to hold the field minus side B's, good play is worth {}.",
        said.join(". It is worth ")
    );
    // With two rule sets played well, which makes good play matter more, and how often the
    // likelier choice is the better one under each, in one sentence: the question such a
    // report asks, which the reader had to work out from two (writer trial 66).
    if let [(a, sa), (b, sb)] = result.play.as_slice() {
        let (ra, rb) = (rule_set_of(exp, a), rule_set_of(exp, b));
        let worth = |s: &crate::play::Solution| s.optimal - s.own().value;
        let (wa, wb) = (worth(sa), worth(sb));
        let top = |s: &crate::play::Solution| {
            s.shares
                .iter()
                .max_by(|x, y| x.share.total_cmp(&y.share))
                .map(|t| (t.choice.clone(), t.share))
        };
        let size = |w: f64| points(w).trim_start_matches('+').to_string();
        // What each side's chance to hold does, played well against the baseline, under the
        // two rule sets: the worth is their difference, and the two may go opposite ways to
        // it (writer trial 70 read "good play is worth less under the amendment" beside "the
        // change is larger under the amendment" as a contradiction).
        let made_of = |a: &str, b: &str| -> Option<String> {
            let change = |name: &str, outcome: &str| -> Option<f64> {
                let vi = exp.variants.iter().position(|v| v.name == name)?;
                let bi = exp.baseline_of(vi)?;
                Some(chance(vi, outcome)? - chance(bi, outcome)?)
            };
            // Under the second rule set against the first: which way, and by more or less.
            let side = |outcome: &str| -> Option<(&str, bool, f64, f64)> {
                let (x, y) = (change(b, outcome)?, change(a, outcome)?);
                let verb = match (x > 0.0, y > 0.0) {
                    (true, true) => "raises",
                    (false, false) => "lowers",
                    _ => return None,
                };
                Some((verb, x.abs() > y.abs(), x, y))
            };
            let ((va, ma, xa, ya), (vb, mb, xb, yb)) =
                (side("side_a_holds")?, side("side_b_holds")?);
            let by = |more: bool| if more { "more" } else { "less" };
            Some(format!(
                " It {va} side A's chance to hold by {} under {rb} ({} points against {}){} {vb} side B's by {} ({} against {}).",
                by(ma),
                points(xa),
                points(ya),
                if ma == mb { ", and" } else { " but" },
                by(mb),
                points(xb),
                points(yb)
            ))
        };
        // Whether a choice is always right first: the question such a report asks (writer
        // trial 66 read the headline numbers first and the answer last).
        let (da, db) = (sa.dominance(), sb.dominance());
        let mut two = match da == db {
            true => format!("{} under either rule set", crate::labels::capitalised(&da)),
            false => format!(
                "{} under {rb}, and {da} under {ra}",
                crate::labels::capitalised(&db)
            ),
        };
        const NEITHER: &str = "neither choice dominates";
        match (top(sa), top(sb)) {
            (Some((ca, xa)), Some((cb, xb))) if ca == cb && da == NEITHER && db == NEITHER => {
                two += &format!(
                    ": {cb} is the better one in {} of the decisions that matter under {ra}, and in {} under {rb}.",
                    crate::play::share(xa),
                    crate::play::share(xb)
                )
            }
            _ => two += ".",
        }
        two += &match (wb - wa).abs() < 5e-5 {
            true => format!(
                " Good play is worth the same under both: {} points of side A's chance to hold the field minus side B's.",
                size(wb)
            ),
            false => format!(
                " Good play is worth {} under {rb}: {} points of side A's chance to hold the field minus side B's, against {} under {ra}.{}",
                if wb > wa { "more" } else { "less" },
                size(wb),
                size(wa),
                made_of(a, b).unwrap_or_default()
            ),
        };
        out = two;
    }
    // The rule of thumb a player can carry, where one comes close (one variant's: with several,
    // each variant's section gives its own).
    if let [(name, solved)] = result.play.as_slice()
        && let Some(t) = &solved.thumb
    {
        out += &format!(
            " Rule of thumb, {:.2} points short of {name}: {}.",
            100.0 * t.loss,
            t.name
        );
    }
    Some(out)
}

/// The rule set a variant that plays its best is played under, by name: the part of its
/// name it shares with its baseline's, up to a comma ("the amendment" of "the amendment, played
/// well" against "the amendment, charging a shaken target"); else its own name.
fn rule_set_of(exp: &crate::experiment::Experiment, name: &str) -> String {
    let Some(vi) = exp.variants.iter().position(|v| v.name == name) else {
        return name.to_string();
    };
    let Some(base) = exp.baseline_of(vi).map(|b| exp.variants[b].name.as_str()) else {
        return name.to_string();
    };
    let (ours, theirs): (Vec<&str>, Vec<&str>) =
        (name.split(", ").collect(), base.split(", ").collect());
    let shared: Vec<&str> = ours
        .iter()
        .zip(&theirs)
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| *x)
        .collect();
    match shared.len() {
        0 => name.to_string(),
        _ => shared.join(", "),
    }
}

pub(crate) fn page(result: &ExperimentResult, comparisons: &[Comparison], command: &str) -> Page {
    let exp = &result.experiment;
    let mut sections = run_sections(result);
    sections.extend(differences_section(result, comparisons));
    sections.extend(play_sections(result));
    if let Some(section) = across_systems(result) {
        sections.push(section);
    }
    if let Some(found) = assumptions_section(result) {
        sections.extend(found);
    }
    sections.extend(sensitivity_sections(result));
    sections.extend(balance_sections(result));
    let (answer, headline, detail) = the_answer(result, comparisons);
    Page {
        title: exp.title.clone().unwrap_or_else(|| exp.question.clone()),
        question: exp.question.clone(),
        setup: setup_sentence(exp),
        pivots: pivots(result),
        answer,
        why: exp.why.as_ref().map(|w| w.trim().to_string()),
        rounding: (!comparisons.is_empty()).then(|| {
            // The answer table of several headlines gives each change in brackets, and a
            // dash where a row's rules have no such end.
            let dashed: Vec<&str> = headline
                .as_ref()
                .map(|t| {
                    t.rows
                        .iter()
                        .filter(|r| r.iter().skip(1).any(|c| c == "\u{2014}"))
                        .map(|r| r[0].as_str())
                        .collect()
                })
                .unwrap_or_default();
            let rounding = match headline
                .as_ref()
                .is_none_or(|t| rounding_shows(t, exp.several_baselines()))
            {
                true => ROUNDING,
                false => POINTS,
            };
            match exp.headlines.len() > 1 && exp.variants.len() > 1 {
                true => format!(
                    "In brackets: each row\u{2019}s change from {}.{} {rounding}",
                    match exp.several_baselines() {
                        true => "its baseline",
                        false => exp.variants[0].name.as_str(),
                    },
                    match dashed.is_empty() {
                        true => String::new(),
                        // Which rows, and what their rules have instead (a bare "no such
                        // state" left a reader asking why Rank & File's retreats were not
                        // counted, writer trial 74).
                        false => systems::dash_words(result, &dashed).unwrap_or_else(|| {
                            " A dash: that row\u{2019}s rules have no such state.".into()
                        }),
                    }
                ),
                false => rounding.to_string(),
            }
        }),
        meanings: meanings(result),
        headline,
        detail,
        method: method(result),
        sections,
        reproduce: format!(
            "`{command}` — morale-lab {}, seed {}, {} trials, {} (results do not depend on threads). The variant definitions are in `results.json`.{}",
            result.version,
            exp.seed,
            crate::report::thousands(exp.trials),
            crate::labels::count(result.threads as u32, "thread", "threads"),
            runs::sampler_words(result)
        ),
    }
}

/// The article in Markdown; `title` gives a chart's title by its file stem, for the text a
/// reader sees in place of the picture (a renderer's alt text, a screen reader).
pub(super) fn summary_md(
    result: &ExperimentResult,
    page: &Page,
    title: impl Fn(&str) -> Option<String>,
) -> String {
    let alt = |stem: &str, or: &str| {
        title(stem)
            .map(|t| t.replace(['[', ']'], ""))
            .unwrap_or_else(|| or.to_string())
    };
    let mut out = format!(
        "# {}\n\n**Question.** {}\n\n**Setup.** {}\n\n**Answer.** {}\n\n",
        page.title, page.question, page.setup, page.answer
    );
    // The note on changes goes under the table that gives them, or here without one.
    if let (Some(note), None) = (&page.rounding, &page.headline) {
        out += &format!("*{note}*\n\n");
    }
    // The chart that answers the question comes with the answer, as on the page.
    if result.experiment.headlines.len() > 1
        && result.experiment.variants.len() > 1
        && result.experiment.sweep.is_empty()
    {
        out += &format!(
            "![{}](tradeoff.png)\n\n",
            alt("tradeoff", "A point per variant, one measure on each axis")
        );
    }
    if result.experiment.sweep.len() == 1 && result.experiment.balance.is_none() {
        out += &format!(
            "![{}](sweep.png)\n\n",
            alt("sweep", "A line per variant along the setting swept")
        );
    }
    // One column's reading above the table, as on the page; a glossary under it.
    let one_line = page.meanings.as_deref().filter(|m| !m.contains("\n\n"));
    if let Some(m) = one_line {
        out += &format!("{m}\n\n");
    }
    for (caption, tab) in &page.pivots {
        out += &format!("{caption}:\n\n{}\n", tab.markdown());
    }
    if let Some(tab) = &page.headline {
        out += &tab.markdown();
        out += "\n";
        if let Some(note) = &page.rounding {
            out += &format!("*{note}*\n\n");
        }
    }
    if let Some(m) = page.meanings.as_deref().filter(|m| m.contains("\n\n")) {
        out += &format!("{m}\n\n");
    }
    if let Some(why) = &page.why {
        out += &format!("**Why.** {why}\n\n");
    }
    if !page.detail.is_empty() {
        out += &format!("**Detail.** {}\n\n", page.detail);
    }
    out += &format!("{}\n\n", page.method);
    for s in &page.sections {
        out += &format!("## {}\n\n{}\n\n", s.title, s.intro);
        let list = |out: &mut String| {
            if !s.list.is_empty() {
                for item in &s.list {
                    *out += &format!("- {item}\n");
                }
                *out += "\n";
            }
        };
        if s.closing.is_empty() {
            list(&mut out);
        }
        let tables: Vec<String> = s.tables.iter().map(Tab::markdown).collect();
        out += &tables.join("\n");
        out += "\n";
        if !s.closing.is_empty() {
            out += &format!("{}\n\n", s.closing);
            list(&mut out);
        }
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
    let mut said: Vec<(String, String, String)> = Vec::new();
    // The answer's table's columns: the headlines, then the states units are still in at the
    // last turn (the glossary skipped "still retreating at the last turn", writer trial 74).
    let heads = Head::all(exp, base);
    let still = lead::still_heads(result, &heads);
    let heads = heads
        .into_iter()
        .map(|h| (h, false))
        .chain(still.into_iter().map(|h| (h, true)));
    for (head, still) in heads {
        // (system, the outcome or metric it counts, its head, its meaning), each once.
        let mut readings: Vec<(String, String, String)> = Vec::new();
        for run in first {
            let r = &run.report;
            let found = if head.metric {
                r.metrics.iter().find(|m| m.name == head.key).map(|m| {
                    (
                        head.labelled(),
                        crate::labels::at_weak_share(&m.meaning, head.weak.as_deref()).replace(
                            " (the share counted as weak, a half unless a run sets another)",
                            "",
                        ),
                    )
                })
            } else {
                r.outcomes
                    .iter()
                    .find(|o| o.outcome == head.key || same_outcome(&o.outcome, &head.key))
                    .and_then(|o| {
                        crate::labels::outcome_meaning(&r.system, &r.scenario, &o.outcome).map(
                            |m| {
                                let head = crate::labels::outcome(&o.outcome).head;
                                // Headed in the table as it is ("still retreating at the
                                // last turn").
                                let head = match still {
                                    true => format!("still {head} at the last turn"),
                                    false => head.to_string(),
                                };
                                (head, m.to_string())
                            },
                        )
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
        // "By the last turn" says which turn where every variant plays the same number.
        for r in &mut readings {
            r.2 = last_turn_named(exp, &r.2);
        }
        let Some((_, label0, meaning0)) = readings.first() else {
            continue;
        };
        let mut rest = String::new();
        for (system, label, meaning) in &readings[1..] {
            rest += &format!(
                " Under {}, the column counts \u{201c}{label}\u{201d} \u{2014} {meaning}.",
                crate::labels::system(system)
            );
        }
        said.push((label0.clone(), meaning0.clone(), rest));
    }
    // One column's reading in a sentence of its own ("What the column counts. Recovered — …"
    // read as a stray heading, writer trial 59); several as a short glossary, a line each, a
    // dash, not a colon, after the label: a meaning often has a colon of its own.
    match said.as_slice() {
        [] => None,
        [(label, meaning, rest)] => Some(format!(
            "In the table, \u{201c}{label}\u{201d} means {meaning}.{rest}"
        )),
        _ => Some(format!(
            "What the table's columns count:\n\n{}",
            said.iter()
                .map(|(label, meaning, rest)| {
                    format!(
                        "- {} \u{2014} {meaning}.{rest}",
                        crate::labels::capitalised(label)
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
        )),
    }
}

/// `meaning` with its "the last turn" naming the turn ("the last turn (the 12th)") where every
/// variant plays the same number of turns and none is swept; else as it is.
fn last_turn_named(exp: &crate::experiment::Experiment, meaning: &str) -> String {
    match common_turns(exp) {
        Some(n) if n > 1 => meaning.replacen(
            "the last turn",
            &format!("the last turn (the {})", crate::labels::ordinal(n)),
            1,
        ),
        _ => meaning.to_string(),
    }
}

/// The number of turns every variant plays, where each sets the same one and no sweep moves it.
pub(super) fn common_turns(exp: &crate::experiment::Experiment) -> Option<u32> {
    let turns: Vec<String> = exp
        .variants
        .iter()
        .filter_map(|v| {
            v.set
                .iter()
                .find(|(k, _)| k == "turns")
                .map(|(_, x)| x.as_input())
        })
        .collect();
    let same = turns.len() == exp.variants.len()
        && turns.windows(2).all(|w| w[0] == w[1])
        && !exp.sweep.iter().any(|a| a.key == "turns");
    same.then(|| turns.first().and_then(|t| t.parse::<u32>().ok()))
        .flatten()
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

#[cfg(test)]
mod tests;
