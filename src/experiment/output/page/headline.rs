//! The headline table of variants compared, and its verdict: each variant's value, its difference
//! from the baseline and which way is better.

use super::*;

/// The verdict on the headline (one or two sentences) and the headline table of an experiment
/// with variants and no sweep: each variant's headline (exact where known, else the estimate)
/// with its interval, and its difference from the baseline with interval and whether chance
/// explains it.
pub(super) fn headline_table(
    result: &ExperimentResult,
    comparisons: &[Comparison],
) -> (String, Tab) {
    let exp = &result.experiment;
    let head = Head::of(exp, &result.runs[0].report);
    let key = head.key.clone();
    let swept = !exp.sweep.is_empty();
    // One number per quantity: where every value is exact, the table gives the exact values and
    // the simulation only as their check; else the estimates with their intervals.
    let exact_all = result
        .runs
        .iter()
        .all(|r| find(&r.report, &key).is_some_and(|c| c.exact.is_some()));
    let zf = super::super::answer::check_z(result);
    let mut tab = headline_columns(exp, &head, exact_all);
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
        let mut row = vec![match v.reference {
            true => format!("{}{FOR_SCALE}", v.name),
            false => v.name.clone(),
        }];
        if swept {
            row.push(match run.point.as_slice() {
                [one] if exp.sweep.len() == 1 => value_words(&one.as_input()),
                point => super::super::answer::point_words(exp, point),
            });
        }
        if exact_all {
            row.extend(exact_cells(exp, &head, run.variant, &c, cmp, zf));
        } else {
            row.extend(estimate_cells(exp, &head, run.variant, &c, cmp));
        }
        tab.rows.push(row);
    }
    // Over a sweep with every value exact, a variant with the same value at every setting (the
    // swept setting does not touch it) takes one row, not one a setting.
    if swept && exact_all {
        one_row_where_unmoved(result, &head, &mut tab, zf);
    }
    // A variant shown for scale comes last, below the rows the question compares.
    tab.rows.sort_by_key(|r| r[0].ends_with(FOR_SCALE));
    let verdict = verdict(result, &head, &moved, true);
    (verdict, tab)
}

/// A row's role after its name: the variant is there for comparison, not a change the
/// question asks about ("Rank & File (for comparison)").
pub(super) const FOR_SCALE: &str = " (for comparison)";

/// The headline table's columns: the variant, the setting swept (if any), the headline and
/// the difference, then the simulation's check (`exact_all`) or whether chance explains it.
fn headline_columns(exp: &crate::experiment::Experiment, head: &Head, exact_all: bool) -> Tab {
    let difference = match exp.several_baselines() {
        true => "difference from its baseline".to_string(),
        false => format!("difference from {}", exp.variants[0].name),
    };
    let title = head.labelled();
    let swept = !exp.sweep.is_empty();
    let check = "simulation's check".to_string();
    // One axis swept: its label heads the column and each cell is a value ("3"), not the
    // label again in every row ("Green base number 3", wrapped on paper with the 3 alone).
    let axis = match exp.sweep.as_slice() {
        [one] => crate::labels::capitalised(&crate::params::label(&one.key)),
        _ => "setting".to_string(),
    };
    // The rows name themselves: a column head of "variant" is the tool's word, not the
    // reader's, so the names' column goes unheaded, as in print.
    let mut cols = vec![("", false)];
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
    Tab::new(&cols)
}

/// A row's cells where every value is exact: variant `variant`'s value `c`, its difference
/// (`cmp`) and the simulation's check of it.
fn exact_cells(
    exp: &crate::experiment::Experiment,
    head: &Head,
    variant: usize,
    c: &Cell,
    cmp: Option<&Comparison>,
    zf: f64,
) -> [String; 3] {
    let x = c.exact.unwrap_or(c.p);
    [
        head.value(x),
        match cmp {
            None if exp.is_baseline(variant) => "\u{2014}".to_string(),
            None => "not compared".to_string(),
            Some(d) if super::super::answer::exactly_same(d) => "exactly the same".to_string(),
            Some(d) => head.diff(d.exact_difference.unwrap_or(d.difference)),
        },
        check_cell(c, !head.metric, exp.confidence, zf, ""),
    ]
}

/// A row's cells where some value is estimated: variant `variant`'s value `c` (exact, or with
/// its interval), its difference (`cmp`) and whether chance alone could explain it.
fn estimate_cells(
    exp: &crate::experiment::Experiment,
    head: &Head,
    variant: usize,
    c: &Cell,
    cmp: Option<&Comparison>,
) -> [String; 3] {
    let value = match (c.exact, c.ci_low, c.ci_high) {
        (Some(x), _, _) => format!("{}, exact", head.value(x)),
        (None, Some(l), Some(h)) => {
            format!("{} [{}, {}]", head.value(c.p), head.value(l), head.value(h))
        }
        _ => head.value(c.p),
    };
    let (diff, chance) = match cmp {
        None if exp.is_baseline(variant) => ("\u{2014}".to_string(), String::new()),
        None => ("not compared".to_string(), String::new()),
        Some(d) => match d.exact_difference {
            Some(_) if super::super::answer::exactly_same(d) => {
                ("exactly the same".to_string(), "—".to_string())
            }
            Some(e) => (format!("{}, exact", head.diff(e)), "—".to_string()),
            None => (
                format!(
                    "{} {}",
                    head.diff(d.difference),
                    head.diff_interval(d.low, d.high)
                ),
                match super::super::answer::chance_cell(d) {
                    "no" => "no".to_string(),
                    "could be" => "yes".to_string(),
                    other => other.to_string(),
                },
            ),
        },
    };
    [value, diff, chance]
}

/// Over a sweep with every value exact: a variant's rows with the same value at every setting
/// made one ("every setting"), its check made once with every setting's trials.
fn one_row_where_unmoved(result: &ExperimentResult, head: &Head, tab: &mut Tab, zf: f64) {
    let exp = &result.experiment;
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
        // "any": the row holds at any value of the column (writer trial 74 found "the same at
        // every setting" odd under a head such as "Green base number").
        one[1] = "any (no effect)".into();
        // The simulation checks the one value once, with every setting's trials.
        let cells: Vec<Cell> = result
            .runs
            .iter()
            .filter(|r| exp.variants[r.variant].name == name.trim_end_matches(FOR_SCALE))
            .filter_map(|r| find(&r.report, &head.key))
            .collect();
        one[4] = pooled_check(&cells, !head.metric, exp.confidence, zf);
        tab.rows.push(one);
    }
}

/// The fewest decimals, from `least` up to 6, at which `x` reads apart from each of `others`.
pub(super) fn apart(x: f64, others: &[f64], least: usize) -> usize {
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
pub(super) fn verdict(
    result: &ExperimentResult,
    head: &Head,
    moved: &[(String, f64)],
    name_base: bool,
) -> String {
    let exp = &result.experiment;
    let key = &head.key;
    // The baseline of the variant named `name`, its run at the first setting.
    let base_run = |name: &str| {
        let v = exp.variants.iter().position(|v| v.name == name)?;
        let b = exp.baseline_of(v)?;
        result.runs.iter().find(|r| r.variant == b)
    };
    let base = &exp.variants[0].name;
    let base_value = find(&result.runs[0].report, key)
        .map(|c| head.value(c.exact.unwrap_or(c.p)))
        .unwrap_or_default();
    // The baseline is named once in an answer: a second headline's value stands alone. With
    // a baseline for each group of variants, each is measured against its own.
    let base_value = match (exp.several_baselines(), name_base) {
        (true, _) => "each against its baseline".to_string(),
        (false, true) => format!("{base_value} under {base}"),
        (false, false) => base_value,
    };
    let others = exp.compared().filter(|(_, v)| !v.reference).count();
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
                    let from = base_run(name).and_then(|r| find(&r.report, key));
                    let own = from
                        .as_ref()
                        .map(|c| head.value(c.exact.unwrap_or(c.p) + d))
                        .unwrap_or_default();
                    let change = match &from {
                        Some(_) => head.diff(*d) + better_said(head, *d),
                        None => change,
                    };
                    let against = match (exp.several_baselines(), from) {
                        (true, Some(c)) => format!(
                            "{} under {}",
                            head.value(c.exact.unwrap_or(c.p)),
                            base_run(name)
                                .map(|r| exp.variants[r.variant].name.as_str())
                                .unwrap_or_default()
                        ),
                        _ => base_value.clone(),
                    };
                    format!("Under {name}, {noun} is {own} against {against}: {change}{how}.")
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
pub(super) fn better_said(head: &Head, d: f64) -> &'static str {
    match better_way(head, d) {
        Some(true) => " (better)",
        Some(false) => " (worse)",
        None => "",
    }
}

/// Whether a change of `d` in `head` is for the better (`None`: the headline has no better
/// direction).
pub(super) fn better_way(head: &Head, d: f64) -> Option<bool> {
    use crate::labels::Better;
    match head.label().better {
        Better::Higher => Some(d > 0.0),
        Better::Lower => Some(d < 0.0),
        Better::Neither => None,
    }
}

/// The variants whose difference from the baseline on `head` is real (exact and not zero, or
/// distinguishable from chance), each with its difference (exact where known).
pub(super) fn moved(
    result: &ExperimentResult,
    comparisons: &[Comparison],
    head: &Head,
) -> Vec<(String, f64)> {
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
