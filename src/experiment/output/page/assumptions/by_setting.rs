//! The table of the settings that matter, a row per setting (or, beside a verdict, a row per
//! step): which settings, in what order, what each is in the report, and what its step does.

use super::grid::Grid;
use super::*;
use crate::experiment::assumptions::{Assumption, Assumptions};

/// The assumptions that matter, a row per setting (compact enough for paper): what it is
/// stepped to, how many of the question's comparisons it changes and how, and its gravest
/// change in the answer's numbers. A variant shown for scale is counted apart.
pub(super) fn assumptions_by_setting(
    result: &ExperimentResult,
    a: &Assumptions,
    situation: bool,
    scale_only: &mut usize,
) -> Tab {
    let base_report = &result.runs[0].report;
    let keys = settings_in_order(result, a, situation);
    // With a verdict, the led comparison's difference in each measure the verdict rests on,
    // under every step listed: a reader sees the verdict hold (or not) in the numbers, not
    // only in a sentence about the measure that moved (writer trial 50).
    let mut grid = Grid::of(result, a);
    let mut tab = match &grid {
        Some(g) => g.table(),
        None => Tab {
            head: [
                "setting",
                "in this report",
                "changed to",
                "rule",
                "what it would do",
            ]
            .iter()
            .map(|h| (h.to_string(), false))
            .collect(),
            rows: Vec::new(),
            group: None,
        },
    };
    for rows in &keys {
        let f = rows[0];
        let mine = asked(result, rows);
        // A setting that changes only a comparison shown for scale is left to the full table.
        if mine.is_empty() {
            *scale_only += 1;
            continue;
        }
        let Some((gravest, top)) = standing(result, a, &mine) else {
            continue;
        };
        let in_report = in_this_report(result, f);
        let setting = setting_in_table(&compared_systems(result), &f.key, &f.kind);
        // With the verdict's grid, a row per step: its own differences in every measure of
        // the answer, its answer, and its largest change to another comparison (cells of "4+ or
        // 6+" and "+0.66 or +1.03" had the reader match values across columns, and the chance
        // of elimination was left to the prose, writer trial 55).
        if let Some(g) = grid.as_mut() {
            g.step_rows(&mut tab, rows, &setting, &in_report, top, &|rows| {
                gravest_of(a, base_report, rows)
            });
            continue;
        }
        // Each step tried that changes a comparison, once ("0 or 2").
        let mut steps: Vec<String> = Vec::new();
        for r in rows.iter() {
            let s = setting_value(&f.key, &r.to);
            if !steps.contains(&s) {
                steps.push(s);
            }
        }
        let mut row = vec![
            setting,
            in_report,
            as_roll(&f.key, &steps_in_words(&steps)),
            top.rule.clone(),
        ];
        row.push(what_it_would_do(
            result, a, rows, &mine, gravest, top, &steps,
        ));
        tab.rows.push(row);
    }
    tab
}

/// The settings found in `situation`'s scope, each with its rows, the gravest first and those
/// that change only a comparison shown for scale last.
fn settings_in_order<'a>(
    result: &ExperimentResult,
    a: &'a Assumptions,
    situation: bool,
) -> Vec<Vec<&'a Assumption>> {
    let base_report = &result.runs[0].report;
    let mut keys: Vec<(&str, Vec<&Assumption>)> = Vec::new();
    for f in a.found.iter().filter(|f| scope(f) == situation) {
        match keys.iter_mut().find(|k| k.0 == f.key) {
            Some(k) => k.1.push(f),
            None => keys.push((&f.key, vec![f])),
        }
    }
    // How far a row moves its comparison, in shares of what counts as a move.
    let gravest = |rows: &[&Assumption]| -> Option<(usize, f64)> {
        rows.iter()
            .map(|f| (effect_rank(&f.effect), move_weight(a, base_report, f)))
            .min_by(|x, y| x.0.cmp(&y.0).then(y.1.total_cmp(&x.1)))
    };
    keys.sort_by(|x, y| {
        let (gx, gy) = (gravest(&asked(result, &x.1)), gravest(&asked(result, &y.1)));
        // Settings that change only a comparison shown for scale last.
        gx.is_none()
            .cmp(&gy.is_none())
            .then_with(|| match (gx, gy) {
                (Some(a), Some(b)) => a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)),
                _ => std::cmp::Ordering::Equal,
            })
    });
    keys.into_iter().map(|(_, rows)| rows).collect()
}

/// The rows of the comparisons the question asks (not those of a variant for scale).
fn asked<'a>(result: &ExperimentResult, rows: &[&'a Assumption]) -> Vec<&'a Assumption> {
    rows.iter()
        .copied()
        .filter(|f| !is_reference(result, &f.variant))
        .collect()
}

/// The gravest of `rows`: the gravest kind of change, then the largest move.
fn gravest_of<'a>(
    a: &Assumptions,
    base_report: &Report,
    rows: Vec<&'a Assumption>,
) -> Option<&'a Assumption> {
    rows.into_iter().min_by(|x, y| {
        effect_rank(&x.effect)
            .cmp(&effect_rank(&y.effect))
            .then(move_weight(a, base_report, y).total_cmp(&move_weight(a, base_report, x)))
    })
}

/// The gravest row of a setting's, and the row that stands for it. The variant shown for scale
/// is left out of the count (the full table has it). The variant the question leads with is
/// said where the step reverses or removes one of its differences (a reader asked about the
/// amendment, not its blocked variant); else the gravest change of any.
fn standing<'a>(
    result: &ExperimentResult,
    a: &Assumptions,
    mine: &[&'a Assumption],
) -> Option<(&'a Assumption, &'a Assumption)> {
    let base_report = &result.runs[0].report;
    let led = result
        .experiment
        .compared()
        .find(|(_, v)| !v.reference)
        .map(|(_, v)| v.name.as_str());
    // The led variant's gravest row stands for the setting unless another variant's is of
    // a graver kind (a reversal beside a shift): a reader set every row against the
    // amendment's −13.94, and rows that slipped to its blocked variant misled (trial 41).
    let gravest = gravest_of(a, base_report, mine.to_vec())?;
    let top = gravest_of(
        a,
        base_report,
        mine.iter()
            .copied()
            .filter(|f| Some(f.variant.as_str()) == led)
            .collect(),
    )
    .filter(|l| {
        effect_rank(&l.effect) <= 1 || effect_rank(&l.effect) <= effect_rank(&gravest.effect)
    })
    .unwrap_or(gravest);
    Some((gravest, top))
}

/// The setting's value in this report. A variant of the question that sets this setting to
/// another value of its own (the amendment blocked 1 in 6, where the others block none) is
/// said, so that the value here does not read as contradicting it.
fn in_this_report(result: &ExperimentResult, f: &Assumption) -> String {
    let own: Vec<String> = result
        .experiment
        .variants
        .iter()
        .filter(|v| !v.reference)
        .filter_map(|v| {
            let (_, val) = v
                .set
                .iter()
                .find(|(k, val)| *k == f.key && val.as_input() != f.from)?;
            let theirs = as_roll(&f.key, &setting_value(&f.key, &val.as_input()));
            // A name with a comma of its own is quoted, so that the bracket's commas
            // do not run into it (trial 54).
            let name = match v.name.contains(',') {
                true => format!("\u{201c}{}\u{201d}", v.name),
                false => v.name.clone(),
            };
            // A variant whose name already says its value ("1 retreat in 6 blocked" of
            // "1 in 6") is not listed: its name is the exception (the value twice read as a
            // puzzle, writer trial 62; "none (except in “…”)" in a cell, writer trial 74).
            (!says_value(&v.name, &theirs)).then(|| format!("{theirs} for {name}"))
        })
        .collect();
    let value = as_roll(&f.key, &setting_value(&f.key, &f.from));
    match own.len() {
        0 => value,
        1 | 2 => format!("{value} ({})", own.join("; ")),
        n => format!(
            "{value} ({}; and {} more set their own)",
            own[..2].join("; "),
            n - 2
        ),
    }
}

/// Whether a variant's name says a value already: every number of the value is in the name,
/// in the same order ("1 in 6" in "the amendment, 1 retreat in 6 blocked"). A value without
/// numbers ("yes") is never taken as said.
fn says_value(name: &str, value: &str) -> bool {
    let numbers = |s: &str| -> Vec<String> {
        s.split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .map(|w| w.trim_matches('.'))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let wanted = numbers(value);
    let mut have = numbers(name).into_iter();
    !wanted.is_empty() && wanted.iter().all(|w| have.any(|h| &h == w))
}

/// Without the verdict's grid, what a setting's step would do, in sentences: the row that
/// stands for it, its other step, the mark it moves and a reversal of another comparison.
fn what_it_would_do(
    result: &ExperimentResult,
    a: &Assumptions,
    rows: &[&Assumption],
    mine: &[&Assumption],
    gravest: &Assumption,
    top: &Assumption,
    steps: &[String],
) -> String {
    let f = rows[0];
    let base_report = &result.runs[0].report;
    let mut said = change_sentence(
        result,
        top,
        // Which of the values tried, where there were two.
        (steps.len() > 1).then(|| as_roll(&f.key, &setting_value(&f.key, &top.to))),
    );
    // The other step of two, where it moves the same comparison, in a few words:
    // a row that lists "4+ or 6+" says what each does.
    // Of the same comparison where it moves, else the variant's gravest other.
    let same_variant = |r: &&&Assumption| r.to != top.to && r.variant == top.variant;
    let other = rows
        .iter()
        .filter(same_variant)
        .find(|r| r.headline == top.headline)
        .copied()
        .or_else(|| {
            gravest_of(
                a,
                base_report,
                rows.iter().filter(same_variant).copied().collect(),
            )
        })
        // Else another variant's, named: a row that lists "2 or 4" says what
        // each does.
        .or_else(|| {
            gravest_of(
                a,
                base_report,
                rows.iter()
                    .filter(|r| r.to != top.to && !is_reference(result, &r.variant))
                    .copied()
                    .collect(),
            )
        });
    if let Some(other) = other {
        said = the_other_step(result, f, top, other, said);
    }
    // A setting that moves only the mark the led comparison is held to is said as
    // that alone, where every one of the setting's rows is the led comparison's: the
    // difference it would make reads as a truism (writer trial 52).
    let mark = the_mark_moves(result, top, rows);
    if !mark.is_empty() {
        let alone = mine
            .iter()
            .all(|r| r.variant == top.variant && r.headline == top.headline);
        said = match alone && !result.experiment.sweep.is_empty() {
            true => mark,
            false => format!("{} {mark}", said.trim_end()),
        };
    }
    // A reversal of another comparison the question asks is never hidden behind
    // the led variant's row: "out of range" removing the amendment's saving also
    // turns the blocked amendment's round (−10.70 to +0.91), and a reader set the
    // row against the first only (trial 46).
    if gravest.variant != top.variant
        && effect_rank(&gravest.effect) == 0
        && effect_rank(&top.effect) > 0
    {
        let head = Head::named(gravest.headline.clone(), base_report);
        let mut also = would_differ_here(result, &head, gravest, true);
        // As the led row says it: a reversal of a measure the verdict does not
        // judge leaves the verdict be.
        let exp = &result.experiment;
        if exp.verdict && !exp.verdict_on.is_empty() && !exp.verdict_on.contains(&head.key) {
            also += ", though not the verdict, which rests on the other measures";
        }
        said = match steps.len() > 1 {
            true => format!(
                "{} At {}, {also}.",
                said.trim_end(),
                as_roll(&f.key, &setting_value(&f.key, &gravest.to))
            ),
            false => {
                format!("{} {}.", said.trim_end(), crate::labels::capitalised(&also))
            }
        };
    }
    said
}

/// `said` of the row that stands for a setting, with its other step `other`: the same
/// comparison at the other step in a few words, or another measure's or variant's change in a
/// sentence of its own.
fn the_other_step(
    result: &ExperimentResult,
    f: &Assumption,
    top: &Assumption,
    other: &Assumption,
    said: String,
) -> String {
    let head = Head::named(other.headline.clone(), &result.runs[0].report);
    let same = other.variant == top.variant;
    let who = match (same, other.variant.contains(',')) {
        (true, _) => String::new(),
        (false, false) => format!("{} ", other.variant),
        (false, true) => format!("{}, ", other.variant),
    };
    // Another variant's comparison in its noun, as a sentence says it.
    let measure = match same {
        true => head.labelled(),
        false => head.noun(),
    };
    // Another measure's change is set against its difference now ("by +1.19
    // in turns its place stood empty, not +0.78"): the reader has not met it.
    let of = match same && other.headline == top.headline {
        true => String::new(),
        false if other.difference.abs() < EXACTLY_ZERO => {
            format!(" in {measure}, where now there is none")
        }
        false => format!(" in {measure}, not {}", head.diff(other.difference)),
    };
    let at = as_roll(&f.key, &setting_value(&f.key, &other.to));
    match of.is_empty() && who.is_empty() {
        // The same comparison at the other step, in a few words.
        true => format!(
            "{} (at {at}, {}).",
            said.trim_end_matches('.'),
            match other.changed.abs() < EXACTLY_ZERO {
                true => "no difference".to_string(),
                false => format!("by {}", head.diff(other.changed)),
            }
        ),
        // Another measure or variant: a sentence of its own, so that one
        // bracket never holds two measures.
        false => {
            let subject = match who.trim_end() {
                "" => "it".to_string(),
                w => w.to_string(),
            };
            format!(
                "{} At {at}, {subject} would {}.",
                said.trim_end(),
                match other.changed.abs() < EXACTLY_ZERO {
                    true => format!("be no different{of}"),
                    false => format!("differ by {}{of}", head.diff(other.changed)),
                }
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::says_value;

    #[test]
    fn a_name_that_says_its_value_is_not_followed_by_it() {
        assert!(says_value(
            "the amendment, 1 retreat in 6 blocked",
            "1 in 6"
        ));
        assert!(says_value("blocked at 4+", "4+"));
        // The numbers in another order, a number missing, or no number at all: not said.
        assert!(!says_value("6 blocked of 1", "1 in 6"));
        assert!(!says_value("the amendment, blocked", "1 in 6"));
        assert!(!says_value(
            "the amendment, 1 retreat in 6 blocked",
            "1 in 3"
        ));
        assert!(!says_value("fires back", "yes"));
    }
}
