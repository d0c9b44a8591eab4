//! What a step of a setting would do, in sentences: how a difference would read under it,
//! what it would change in the answer's numbers, and the mark it moves where it moves only the
//! baseline a comparison is held to.

use super::*;

/// What a setting does to a difference, in a reader's words: it "turns round", "becomes
/// none", "appears" (where there was none), "grows" or "shrinks".
pub(super) fn effect_in_words(f: &crate::experiment::assumptions::Assumption) -> String {
    match f.effect.as_str() {
        "flips" => "turns round",
        "removes" => "becomes none",
        "creates" => "appears",
        _ if f.changed.abs() > f.difference.abs() => "grows",
        _ => "shrinks",
    }
    .into()
}

/// How far an assumption moves its comparison, in shares of what counts as a move: half an
/// average's size (where there was no difference, half the baseline's value), and a chance's
/// 3 points (or half its size, where that is less). A difference a setting creates is weighed
/// like any other move, so a new 14-point chance outweighs a new 0.2 of a turn.
pub(super) fn move_weight(
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

/// How grave an effect is: a reversal first, then a difference removed, one created, a shift.
pub(super) fn effect_rank(effect: &str) -> usize {
    match effect {
        "flips" => 0,
        "removes" => 1,
        "creates" => 2,
        _ => 3,
    }
}

/// How the difference between `variant` and `base` in `head` would read under the step `f`:
/// "the amendment would differ from the plain 25% rules by −27.51 points in the chance of being
/// eliminated, not −13.94 points"; `full` says the difference a vanishing one had and that a reversal turns it
/// round (a table's row), where the answer's sentence is shorter. A name with a comma of its
/// own closes with one ("the amendment, 1 retreat in 6 blocked, would …").
pub(super) fn would_differ(
    head: &Head,
    variant: &str,
    base: &str,
    f: &crate::experiment::assumptions::Assumption,
    full: bool,
    with: &str,
) -> String {
    // In its noun, as a sentence says it: a column's head in quotes read as the tool's word;
    // then where the comparison was made, if a sweep moved both sides ("with 4 turns").
    let name = format!("{}{with}", head.noun());
    let none = |d: f64| d.abs() < EXACTLY_ZERO;
    let closed = |name: &str| match name.contains(',') {
        true => format!("{name},"),
        false => name.to_string(),
    };
    let (variant, base) = (closed(variant), closed(base));
    let from = format!(" from {base}");
    if none(f.changed) {
        let was = match full {
            true => format!(", where now it differs by {}", head.diff(f.difference)),
            false => String::new(),
        };
        format!("{variant} would be no different{from} in {name}{was}")
    } else if none(f.difference) {
        format!(
            "{variant} would differ{from} by {} in {name}, where now they are the same",
            head.diff(f.changed)
        )
    } else {
        format!(
            "{variant} would differ{from} by {} in {name}, not {}{}",
            head.diff(f.changed),
            head.diff(f.difference),
            match (full, f.effect.as_str()) {
                (true, "flips") => ": the difference changes sign",
                _ => "",
            }
        )
    }
}

/// [`would_differ`] for `f`'s comparison as it was made: at a sweep's first setting, said
/// where the setting moves a side ("Green with the Green base number at 3 would differ from
/// Regular with a +1 leader …"; where it moves both, or takes a list to say, after the
/// measure: "in the chance of being eliminated with 4 turns"), so that "where now they are the same" is not read of every
/// setting.
pub(super) fn would_differ_here(
    result: &ExperimentResult,
    head: &Head,
    f: &crate::experiment::assumptions::Assumption,
    full: bool,
) -> String {
    let exp = &result.experiment;
    let base = exp.baseline_name(&f.variant);
    let point = match (exp.sweep.is_empty(), result.runs.first()) {
        (false, Some(r)) => super::super::answer::point_said(exp, &r.point),
        _ => return would_differ(head, &f.variant, base, f, full, ""),
    };
    let moved = |name: &str| !untouched(result, name);
    let with = format!(" with {point}");
    match (moved(&f.variant), moved(base)) {
        (false, false) => would_differ(head, &f.variant, base, f, full, ""),
        (true, false) if !point.contains(',') => would_differ(
            head,
            &super::super::answer::named_with(&f.variant, &point),
            base,
            f,
            full,
            "",
        ),
        (false, true) if !point.contains(',') => would_differ(
            head,
            &f.variant,
            &super::super::answer::named_with(base, &point),
            f,
            full,
            "",
        ),
        _ => would_differ(head, &f.variant, base, f, full, &with),
    }
}

/// What a setting's step would do, in a sentence a reader can quote: its gravest change in the
/// answer's own numbers ("At 6, the amendment would differ from the plain 25% rules by −27.51
/// points in the chance of being eliminated, not −13.94 points.").
pub(super) fn change_sentence(
    result: &ExperimentResult,
    top: &crate::experiment::assumptions::Assumption,
    at: Option<String>,
) -> String {
    let head = Head::named(top.headline.clone(), &result.runs[0].report);
    let exp = &result.experiment;
    let mut would = would_differ_here(result, &head, top, true);
    // A reversal of a measure the verdict does not judge is said to leave the verdict be, so
    // that the row does not read as contradicting "no change reverses the verdict".
    if top.effect == "flips"
        && exp.verdict
        && !exp.verdict_on.is_empty()
        && !exp.verdict_on.contains(&head.key)
    {
        would += ", though not the verdict, which rests on the other measures";
    }
    match at {
        Some(v) => format!("At {v}, {would}."),
        None => format!("{}.", crate::labels::capitalised(&would)),
    }
}

/// Where a step leaves the variant's value as it is and moves only its baseline's, the mark
/// the variant is set against moves, not the variant. Said as where the variant would meet the
/// new mark, `at` being the step ("at 5, Green with its base number at 4 would match Regular
/// with a +1 leader (74.39%)"), else the mark's new value, set against every value the sweep tried ("…would be
/// 98.11%, more than Green's at any value tried"). A reader took the row for a truism when it
/// spoke of the variant's difference (writer trials 48 and 52).
pub(super) fn mark_moved(
    result: &ExperimentResult,
    head: &Head,
    f: &crate::experiment::assumptions::Assumption,
    at: &str,
) -> Option<String> {
    let [base_now, variant_now, base_then, variant_then] = f.values?;
    if (variant_then - variant_now).abs() > EXACTLY_ZERO
        || (base_then - base_now).abs() < EXACTLY_ZERO
    {
        return None;
    }
    let exp = &result.experiment;
    let base = exp.baseline_name(&f.variant);
    let vi = exp.variants.iter().position(|v| v.name == f.variant)?;
    let value = head.value(base_then);
    let at = match at.is_empty() {
        true => String::new(),
        false => format!("at {at}, "),
    };
    // The variant's value at every setting of the sweep (its own value alone without one).
    let values: Vec<(f64, &crate::experiment::Run)> = result
        .runs
        .iter()
        .filter(|r| r.variant == vi)
        .filter_map(|r| {
            let x = crate::experiment::assumptions::exact_of(&r.report, &head.key).flatten()?;
            Some((x, r))
        })
        .collect();
    if (base_then - variant_now).abs() < EXACTLY_ZERO {
        return Some(format!(
            "{at}{} as it is would match {base} ({value})",
            f.variant
        ));
    }
    if !exp.sweep.is_empty() {
        if let Some((_, r)) = values
            .iter()
            .find(|(x, _)| (x - base_then).abs() < EXACTLY_ZERO)
        {
            let with = super::super::answer::named_with(
                &f.variant,
                &super::super::answer::point_said(exp, &r.point),
            );
            // The mark named, not "it" (a reader could not tell what "it" was: writer trial 74).
            return Some(format!("{at}{with} would match {base} ({value})"));
        }
        // Which values were tried, said: "at any value tried" read as a claim about values
        // never tried (writer trial 74).
        let tried = match exp.sweep.as_slice() {
            [axis] if axis.values.len() > 1 => {
                let first = axis.values[0].as_input();
                let last = axis.values[axis.values.len() - 1].as_input();
                format!(" ({first} to {last})")
            }
            _ => String::new(),
        };
        let beyond = match (
            values.iter().all(|(x, _)| *x < base_then),
            values.iter().all(|(x, _)| *x > base_then),
        ) {
            (true, _) => format!(", more than {}'s at any value tried{tried}", f.variant),
            (_, true) => format!(", less than {}'s at any value tried{tried}", f.variant),
            _ => String::new(),
        };
        return Some(format!(
            "{at}{} under {base} would be {value}{beyond}",
            head.noun()
        ));
    }
    Some(format!("{at}{} under {base} would be {value}", head.noun()))
}

/// [`mark_moved`] for a row's steps of the led comparison (`rows`, the same setting), in a
/// sentence: "Either step moves Regular with a +1 leader, not Green: at 5, Green with its
/// base number at 4 would match Regular with a +1 leader (74.39%); at 3, the chance … would be 98.11%, more than Green's at any value
/// tried." Empty unless every step of the comparison moves the mark alone.
pub(super) fn the_mark_moves(
    result: &ExperimentResult,
    top: &crate::experiment::assumptions::Assumption,
    rows: &[&crate::experiment::assumptions::Assumption],
) -> String {
    let head = Head::named(top.headline.clone(), &result.runs[0].report);
    let mut mine: Vec<&crate::experiment::assumptions::Assumption> = rows
        .iter()
        .copied()
        .filter(|r| r.variant == top.variant && r.headline == top.headline)
        .collect();
    // The step the row leads with first.
    mine.sort_by_key(|r| r.to != top.to);
    let several = rows.iter().any(|r| r.to != top.to);
    let moved: Vec<String> = mine
        .iter()
        .filter_map(|r| {
            let at = match several {
                true => as_roll(&r.key, &setting_value(&r.key, &r.to)),
                false => String::new(),
            };
            mark_moved(result, &head, r, &at)
        })
        .collect();
    if moved.is_empty() || moved.len() < mine.len() {
        return String::new();
    }
    // The measure and the mark said once: "at artillery, the chance … would be 39.58%; at
    // wagon, 39.58%".
    let base = result.experiment.baseline_name(&top.variant);
    let lead = format!("{} under {base} would be ", head.noun());
    let mut said_once = false;
    let moved: Vec<String> = moved
        .iter()
        .map(|m| {
            let short = m.replacen(&lead, "", 1);
            match (said_once, short != *m) {
                (true, true) => short,
                (false, true) => {
                    said_once = true;
                    m.clone()
                }
                _ => m.clone(),
            }
        })
        .collect();
    format!(
        "{} moves {base}, not {}: {}.",
        match (moved.len(), several) {
            (1, _) => "The step",
            (2, _) => "Either step",
            _ => "Each step",
        },
        top.variant,
        moved.join("; ")
    )
}
