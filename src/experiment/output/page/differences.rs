//! The differences from the baseline, in a table: one number per difference (the exact one
//! where it is known, the simulation's estimate and interval beside it as its check), and the
//! tests of chance only for the rows that have no exact value.

use super::*;

/// Whether a difference reads as a chance's, in points: an outcome's, or a share measured as a
/// metric (a cause of removal); else a mean's, in its own unit.
fn as_chance(c: &Comparison) -> bool {
    c.kind != "metric" || crate::labels::is_share(&c.name)
}

/// A chance's difference in points, a mean's in its own unit.
fn amount(c: &Comparison, x: f64) -> String {
    if as_chance(c) {
        format!("{} points", signed(100.0 * x, 2))
    } else {
        signed(x, 4)
    }
}

/// A difference at the headline's digits; one too small for them says so, with one
/// significant digit ("nearly none (+0.003)", not a "0.00" beside rows that say "exactly the
/// same", nor a "+0.0028" in a column of two decimals).
fn shown(c: &Comparison, x: f64) -> String {
    let (coarse, digits) = match as_chance(c) {
        true => (100.0 * x, 2usize),
        false => (x, 2usize),
    };
    if coarse == 0.0 {
        return "none".to_string();
    }
    if (coarse * 10f64.powi(digits as i32)).round() == 0.0 {
        let figure = crate::report::signed_small(coarse, digits);
        return match as_chance(c) {
            true => format!("nearly none ({figure} points)"),
            false => format!("nearly none ({figure})"),
        };
    }
    match as_chance(c) {
        true => format!("{} points", signed(coarse, digits)),
        false => signed(coarse, digits),
    }
}

/// The meaning of metric `name` as its runs give it, so that a conditional mean keeps its
/// condition beside its name, here too.
fn meaning<'a>(result: &'a ExperimentResult, name: &str) -> &'a str {
    result
        .runs
        .iter()
        .flat_map(|r| &r.report.metrics)
        .find(|m| m.name == name)
        .map_or("", |m| m.meaning.as_str())
}

/// The table's columns: the setting (over a sweep), what differs and by how much, its check
/// or estimate, and the tests of chance where some difference is not exact (with Holm's
/// adjustment where a reader scans several at once).
fn columns(result: &ExperimentResult, all_exact: bool, adjusted: bool) -> Tab {
    let exp = &result.experiment;
    let mut head = Vec::new();
    if !exp.sweep.is_empty() {
        head.push(("setting", false));
    }
    // The rows' names: unheaded where they come first, as in print; after a setting, "compared".
    head.push((if exp.sweep.is_empty() { "" } else { "compared" }, false));
    if exp.several_baselines() {
        head.push(("against", false));
    }
    head.extend([
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
    if !all_exact {
        head.push(("p-value", true));
        if adjusted {
            head.push(("Holm", true));
        }
        head.push(("could chance explain it?", false));
    }
    Tab::new(&head)
}

/// The check's interval of a difference of two shares no trial of either side reached (or
/// every trial did): no spread, so the normal interval is the estimate alone, and an exact
/// difference of one in a hundred thousand fell "outside" [0, 0] (writer trial 72). As the
/// value's own check does, each side's share is taken as a chance of its trials (Wilson, at the
/// table's level), and the two combined as a difference of chances is (Newcombe). `None`
/// where either side has spread.
fn no_spread(result: &ExperimentResult, c: &Comparison, widen: f64) -> Option<(f64, f64)> {
    if c.kind != "metric" || c.high - c.low > 0.0 {
        return None;
    }
    let exp = &result.experiment;
    let n_of = |variant: &str, p: f64| -> Option<u64> {
        if p != 0.0 && p != 1.0 {
            return None;
        }
        let run = result
            .runs
            .iter()
            .find(|r| r.point == c.point && exp.variants[r.variant].name == variant)?;
        run.report
            .metrics
            .iter()
            .find(|m| m.name == c.name)
            .and_then(|m| m.n)
    };
    let (na, nb) = (
        n_of(&c.variant, c.estimate)?,
        n_of(&c.baseline, c.baseline_estimate)?,
    );
    let z = widen * crate::stats::z_for_confidence(exp.confidence);
    let k = |p: f64, n: u64| (p * n as f64).round() as u64;
    let (pa, pb) = (c.estimate, c.baseline_estimate);
    Some(crate::experiment::compare::newcombe(
        pa,
        crate::stats::wilson(k(pa, na), na, z),
        pb,
        crate::stats::wilson(k(pb, nb), nb, z),
    ))
}

/// A difference's row. `widen`: the factor from the row's level to the table's, so that the
/// checks of exact differences are sure at the experiment's level taken together.
fn difference_row(
    result: &ExperimentResult,
    c: &Comparison,
    (all_exact, adjusted, widen): (bool, bool, f64),
) -> Vec<String> {
    let exp = &result.experiment;
    let mut row = Vec::new();
    if !exp.sweep.is_empty() {
        row.push(match swept_past(result, c) {
            true => "every setting".to_string(),
            false => point_words(exp, &c.point),
        });
    }
    let (low, high) = match c.exact_difference {
        Some(_) => no_spread(result, c, widen).unwrap_or((
            c.difference - widen * (c.difference - c.low),
            c.difference + widen * (c.high - c.difference),
        )),
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
    row.push(c.variant.clone());
    if exp.several_baselines() {
        row.push(c.baseline.clone());
    }
    row.extend([
        if as_chance(c) {
            "chance".to_string()
        } else {
            "average".to_string()
        },
        if c.kind == "metric" {
            with_condition(
                &c.name,
                meaning(result, &c.name),
                super::super::answer::weak_share(&result.runs[0].report).as_deref(),
            )
        } else {
            crate::labels::outcome(&c.name).head
        },
        // The exact difference as the headline table rounds it (one number per
        // quantity); the estimate beside it, a check, keeps a digit more.
        match c.exact_difference {
            Some(_) if super::super::answer::exactly_same(c) => "exactly the same".to_string(),
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
        row.push(super::super::answer::chance_cell(c).to_string());
    }
    row
}

/// Whether variant `name` gives the same exact values at every setting of a sweep (the setting
/// swept does not touch it), over more than one setting.
pub(super) fn untouched(result: &ExperimentResult, name: &str) -> bool {
    let Some(index) = result
        .experiment
        .variants
        .iter()
        .position(|v| v.name == name)
    else {
        return false;
    };
    // Every value exact, else nothing to compare.
    let values = |r: &Run| -> Option<Vec<u64>> { exact_bits(r).into_iter().collect() };
    let runs: Vec<&Run> = result.runs.iter().filter(|r| r.variant == index).collect();
    runs.len() > 1 && values(runs[0]).is_some() && runs.iter().all(|r| values(r) == values(runs[0]))
}

/// A difference the sweep does not touch (neither its variant nor its baseline changes with
/// the setting swept): said once, as at "every setting", not once a setting.
fn swept_past(result: &ExperimentResult, c: &Comparison) -> bool {
    !result.experiment.sweep.is_empty()
        && c.exact_difference.is_some()
        && untouched(result, &c.variant)
        && untouched(result, &c.baseline)
}

/// "the baseline", or "its baseline" where each group of variants has its own.
fn the_baseline(exp: &crate::experiment::Experiment) -> &'static str {
    match exp.several_baselines() {
        true => "its baseline (column against)",
        false => "the baseline",
    }
}

/// The section of differences from the baseline (`None` without comparisons).
pub(super) fn differences_section(
    result: &ExperimentResult,
    comparisons: &[Comparison],
) -> Option<Section> {
    if comparisons.is_empty() {
        return None;
    }
    let exp = &result.experiment;
    // A difference the sweep does not touch once, at the first setting (its check too).
    let first = comparisons.first().map(|c| c.point.clone());
    let comparisons: Vec<Comparison> = comparisons
        .iter()
        .filter(|c| !swept_past(result, c) || Some(&c.point) == first.as_ref())
        .cloned()
        .collect();
    let comparisons = &comparisons[..];
    let once = match comparisons.iter().any(|c| swept_past(result, c)) {
        true => " A difference the setting swept does not touch is given once, for every setting.",
        false => "",
    };
    let level = format!("{}%", crate::report::fmt_level(exp.confidence));
    // One number per difference: the exact one where it is known, the simulation's
    // estimate and interval beside it as its check; the tests of chance only for the rows
    // that have no exact value.
    let all_exact = comparisons.iter().all(|c| c.exact_difference.is_some());
    let adjusted = !all_exact && comparisons.iter().any(|c| c.family > 1);
    let mut tab = columns(result, all_exact, adjusted);
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
        tab.rows
            .push(difference_row(result, c, (all_exact, adjusted, widen)));
    }
    Some(Section {
        printed: false,
        list: Vec::new(),
        closing: String::new(),
        closing_paper: String::new(),
        title: match exp.several_baselines() {
            true => "Differences, each from its baseline".to_string(),
            false => format!("Differences from {}", exp.variants[0].name),
        },
        intro: if all_exact {
            format!(
                "Each row's rules minus {} at the same setting, a chance's difference in percentage points. Every difference is exact; the simulation's estimate is its check, with an interval wide enough that the table's {} checks are {level} sure taken together (1 table in {} has a miss by chance alone).",
                the_baseline(exp),
                checked,
                (1.0 / (1.0 - exp.confidence).max(1e-9)).round()
            ) + once
        } else {
            format!(
                "Each row's rules minus {} at the same setting, a chance's difference in percentage points: the exact difference where it is known, which then decides; else the simulation's, with its {level} interval and whether chance could explain it at that level{}. A mean with no spread on either side (every trial the same) has no test.",
                the_baseline(exp),
                if adjusted {
                    " (judged after Holm's adjustment of the p-values, column Holm, across every row of this table without an exact value, as a reader scans them at once)"
                } else {
                    ""
                }
            )
        },
        tables: vec![tab],
    })
}
