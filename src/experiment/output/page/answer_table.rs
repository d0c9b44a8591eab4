//! The answer's table with several headlines, and settings' values in words.

use super::*;

/// The answer table of an experiment with several headlines: a row per variant (and setting), a
/// column per headline with its value (exact where known, else the estimate with its interval)
/// and one with its difference from the baseline (judged in the one voice of every table); and
/// a verdict sentence per headline.
pub(super) fn answer_table(result: &ExperimentResult, comparisons: &[Comparison]) -> (String, Tab) {
    let heads = Head::all(&result.experiment, &result.runs[0].report);
    // An end the answer says units are still in at the last turn ("9.4% still retreating")
    // has a column too: every number of the answer is in its table.
    let still = still_heads(result, &heads);
    let tab = answer_tab(result, comparisons, &heads, &still);
    (answer_words(result, comparisons, &heads), tab)
}

/// The answer's table: a row per variant (and setting), a column per headline (and end still
/// held at the last turn), each value with its change from the baseline in brackets.
fn answer_tab(
    result: &ExperimentResult,
    comparisons: &[Comparison],
    heads: &[Head],
    still: &[Head],
) -> Tab {
    let exp = &result.experiment;
    let swept = !exp.sweep.is_empty();
    let mut names: Vec<String> = vec![String::new()];
    if swept {
        names.push("setting".into());
    }
    let mut numeric = vec![false; names.len()];
    // A column a headline: its value, and in brackets its change from the baseline (said
    // under the table), so that an article's column holds the table.
    // A column head says the game's length where every variant plays the same one, so that a
    // printed column quoted alone still says what it counts ("eliminated by turn 8").
    let turns = super::common_turns(exp).filter(|n| *n > 1);
    for h in heads {
        names.push(match turns {
            Some(n) => with_horizon(h, n),
            None => h.labelled(),
        });
        numeric.push(true);
    }
    for h in still {
        names.push(format!("still {} at the last turn", h.label().head));
        numeric.push(true);
    }
    let mut tab = Tab {
        head: names.into_iter().zip(numeric).collect(),
        rows: Vec::new(),
        group: None,
    };
    // Where every value is exact (the method line says so) a change is not marked ", exact".
    let exact_all = heads.iter().chain(still).all(|h| {
        result
            .runs
            .iter()
            .all(|r| find(&r.report, &h.key).is_none_or(|c| c.exact.is_some()))
    });
    for run in &result.runs {
        let v = &exp.variants[run.variant];
        let mut row = vec![match (exp.is_baseline(run.variant), v.reference) {
            // A row's role before its name: brackets in this table hold changes only, and a
            // dash stands for a value a variant's rules do not have.
            (_, true) => format!("{}{}", v.name, super::headline::FOR_SCALE),
            _ => v.name.clone(),
        }];
        if swept {
            row.push(super::super::answer::point_words(exp, &run.point));
        }
        for h in heads.iter().chain(still) {
            // A dash, as a magazine's table has it, said once in the note under it.
            let Some(c) = find(&run.report, &h.key) else {
                row.push("\u{2014}".to_string());
                continue;
            };
            // Another system's word for the same end ("removed" under "eliminated") is said
            // in the glossary under the table, not in the cell: "95.96% removed" under
            // "eliminated" read as a slip (writer trial 74).
            let value = match (c.exact, c.ci_low, c.ci_high) {
                (Some(x), _, _) => h.value(x),
                (None, Some(l), Some(u)) => {
                    format!("{} [{}, {}]", h.value(c.p), h.value(l), h.value(u))
                }
                _ => h.value(c.p),
            };
            let cmp = comparisons
                .iter()
                .find(|x| x.variant == v.name && x.point == run.point && h.is(x));
            let change = match cmp {
                None if exp.is_baseline(run.variant) => None,
                None => Some("not compared".to_string()),
                // A variant shown for scale is not a change the question asks about.
                Some(_) if v.reference => None,
                Some(x) if super::super::answer::exactly_same(x) => Some("the same".to_string()),
                Some(x) => Some(match x.exact_difference {
                    Some(e) if exact_all => h.diff_unit(e),
                    Some(e) => format!("{}, exact", h.diff_unit(e)),
                    // The change's own interval is in the differences table: beside a
                    // value with its interval, the cell would not fit a printed column.
                    None => format!(
                        "{}{}",
                        h.diff_unit(x.difference),
                        match super::super::answer::chance_cell(x) {
                            "no" => "",
                            "could be" => ", could be chance",
                            _ => ", no test",
                        }
                    ),
                }),
            };
            row.push(match change {
                Some(c) => format!("{value} ({c})"),
                None => value,
            });
        }
        tab.rows.push(row);
    }
    tab
}

/// The answer's words over its table: the lead (or a verdict per headline), the counts, where
/// the headlines pull apart and the variants shown for scale, as the 150 words allow.
fn answer_words(result: &ExperimentResult, comparisons: &[Comparison], heads: &[Head]) -> String {
    let exp = &result.experiment;
    let each = lead_each(result, comparisons, heads);
    let lead = each.clone().or_else(|| lead(result, comparisons, heads));
    // The variant the lead speaks of: its trade-off is said there, for the better and the worse
    // (none where the lead speaks of every variant alike).
    let led = match each {
        Some(_) => None,
        None => lead
            .as_ref()
            .and(exp.compared().map(|(_, v)| v).find(|v| !v.reference)),
    };
    let mut verdicts: Vec<String> = Vec::new();
    let words = |v: &[String]| {
        v.iter()
            .map(|x| x.split_whitespace().count())
            .sum::<usize>()
    };
    match lead {
        // The lead gives the values; the counts follow in a sentence where the answer has room
        // for them (a lead of every variant's change, by baseline, already says which change),
        // the table the rest.
        Some(l) => {
            verdicts.push(l);
            let c = counts(result, comparisons, heads, led.map(|v| v.name.as_str()));
            if words(&verdicts) + c.split_whitespace().count() <= 120 {
                verdicts.push(c);
            }
        }
        None => verdicts.extend(
            heads
                .iter()
                .enumerate()
                .map(|(i, h)| verdict(result, h, &moved(result, comparisons, h), i == 0)),
        ),
    }
    // Where other variants pull the headlines apart, as long as the answer has room (the
    // table below shows every variant's every headline), keeping room for the sentence that
    // names what the answer rests on: an answer stays within 150 words.
    let reserve = 150usize.saturating_sub(rests_on_reserve(result));
    for p in pull_apart(result, comparisons, heads, led.map(|v| v.name.as_str())) {
        let n = words(&verdicts) + p.split_whitespace().count();
        if n <= 110 && n <= reserve {
            verdicts.push(p);
        }
    }
    // The variants shown for scale, where the answer has room for them (they are in the
    // table just below in any case).
    let scale: Vec<String> = for_scale(result, heads).into_iter().collect();
    let n = words(&verdicts) + words(&scale);
    if n <= 110 && n <= reserve {
        verdicts.extend(scale);
    }
    verdicts.join(" ")
}

/// A setting's value as a reader reads it: a true minus sign, and a choice's words without
/// their underscores ("in line" for `in_line`), a switch's yes or no (not true or false).
pub(super) fn value_words(v: &str) -> String {
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
pub(super) fn setting_value(key: &str, v: &str) -> String {
    // A class by its name in the rules, capitalised as they write it ("Veteran").
    if matches!(key, "class" | "enemy_class") {
        return crate::labels::capitalised(&value_words(v));
    }
    // A chance of a blocked retreat as a player says it: "none", "1 in 6".
    if key == "p_blocked" {
        if v == "0" {
            return "none".into();
        }
        if let Some((a, b)) = crate::labels::in_every(v) {
            return format!("{a} in {b}");
        }
    }
    match crate::labels::value_note(key, v) {
        Some(note) => format!("{} ({note})", value_words(v)),
        None => value_words(v),
    }
}

/// A roll's number as a player writes it ("5+"), where the setting's label names a roll to
/// reach ("Fire dice hit on", "Returns to action on a roll of"); `text` is a value or values in
/// words ("4 or 6", "2 to 5"), every whole number in it marked; any other setting's as it is.
pub(super) fn as_roll(key: &str, text: &str) -> String {
    let label = crate::params::label(key);
    if !(label.ends_with(" on") || label.ends_with(" roll of")) {
        return text.to_string();
    }
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        out.push(*c);
        let next = chars.get(i + 1);
        if c.is_ascii_digit() && !next.is_some_and(|n| n.is_ascii_digit() || *n == '.' || *n == '/')
        {
            out.push('+');
        }
    }
    out
}

/// Values tried, joined with "or", a run of three or more whole numbers in a row said as a
/// range: "2 to 9 or unlimited", not "2 or 3 or 4 or … or 9 or unlimited".
pub(super) fn steps_in_words(steps: &[String]) -> String {
    // Numbers in their order ("2 or 4", not the order they were stepped in: "4 or 2").
    let mut sorted = steps.to_vec();
    if sorted.iter().all(|s| s.parse::<i64>().is_ok()) {
        sorted.sort_by_key(|s| s.parse::<i64>().unwrap_or_default());
    }
    let steps = &sorted[..];
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

/// A column's head with the game's length of `turns`: an end by that turn ("eliminated by turn
/// 8"), a count of turns out of them ("turns its place stood empty (of 8)"); other heads as
/// they are.
fn with_horizon(h: &Head, turns: u32) -> String {
    const ENDS: &[&str] = &["eliminated", "removed"];
    const OF_TURNS: &[&str] = &["empty_turns", "strength_turns", "weak_turns"];
    let head = h.labelled();
    match (h.metric, h.key.as_str()) {
        (false, k) if ENDS.contains(&k) => format!("{head} by turn {turns}"),
        (true, k) if OF_TURNS.contains(&k) => format!("{head} (of {turns})"),
        _ => head,
    }
}
