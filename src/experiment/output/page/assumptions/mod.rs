//! The assumptions that matter: the settings the sources leave open that would change the answer,
//! said in the answer ("rests on"), in their own section and as defaults.

use super::*;

mod by_setting;
mod grid;
mod sentences;

use by_setting::assumptions_by_setting;
use grid::{led_difference, verdict_grid, verdict_word};
use sentences::*;

/// Whether rule parameter `key` is a reading the tool made where the sources are silent (its
/// meaning says so, in any variant's system).
pub(super) fn silent_reading(result: &ExperimentResult, key: &str) -> bool {
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
pub(super) fn setting_words(systems: &[&str], key: &str, kind: &str) -> String {
    if kind == "option" {
        format!("the optional rule {}", crate::labels::option(key))
    } else {
        format!(
            "\u{201c}{}\u{201d}",
            crate::labels::param_under(systems, key)
        )
    }
}

/// A setting as a table's row names it: its label as a heading, not quoted ("Elite re-rolls a
/// battle"; "Optional rule retreat on fire").
pub(super) fn setting_in_table(systems: &[&str], key: &str, kind: &str) -> String {
    if kind == "option" {
        format!("Optional rule {}", key.replace('-', " "))
    } else {
        crate::labels::param_under(systems, key)
    }
}

/// The assumptions that matter, in a sentence for the answer of at most `words_left` words where
/// it can be: the most telling setting with its value, the most often listed first.
pub(super) fn rests_on(result: &ExperimentResult, words_left: usize) -> Option<String> {
    let forms = rests_on_forms(result)?;
    let fits = |s: &&String| s.split_whitespace().count() <= words_left;
    forms.iter().find(fits).or(forms.last()).cloned()
}

/// The words the answer keeps for [`rests_on`]'s shortest sentence that still names what the
/// answer rests on (not only counts it): the other sentences of an answer give way to it.
pub(super) fn rests_on_reserve(result: &ExperimentResult) -> usize {
    let Some(forms) = rests_on_forms(result) else {
        return 0;
    };
    let named = match forms.len() {
        0 => return 0,
        1 => &forms[0],
        n => &forms[n - 2],
    };
    named.split_whitespace().count()
}

/// Whether assumption `f` could change the verdict of a `verdict = [...]` question: it
/// reverses, removes or creates a difference in a headline the verdict judges.
fn changes_verdict(
    result: &ExperimentResult,
    f: &crate::experiment::assumptions::Assumption,
) -> bool {
    result.experiment.verdict_on.contains(&f.headline)
        && matches!(f.effect.as_str(), "flips" | "removes" | "creates")
}

/// For a `verdict = [...]` question: whether no rule or reading tried changes the verdict
/// (`.0`), and whether some does, so that what the answer rests on is those only (`.1`).
pub(super) fn verdict_holds(result: &ExperimentResult) -> (bool, bool) {
    let exp = &result.experiment;
    let Some(a) = result.assumptions.as_ref() else {
        return (false, false);
    };
    if exp.verdict_on.is_empty() {
        return (false, false);
    }
    let reference = |name: &str| exp.variants.iter().any(|v| v.reference && v.name == name);
    let some = a
        .found
        .iter()
        .filter(|f| !reference(&f.variant) && !scope(f))
        .any(|f| changes_verdict(result, f));
    (!some, some)
}

/// [`rests_on`]'s sentences, longest first, the last a count that always fits.
fn rests_on_forms(result: &ExperimentResult) -> Option<Vec<String>> {
    let a = result.assumptions.as_ref()?;
    let base_report = &result.runs.first()?.report;
    // With `verdict = [...]`, what could change the verdict comes first: a setting that
    // reverses, removes or creates a difference in a headline the verdict judges. Where none
    // does, the sentence says the verdict holds and names what the rest of the answer rests on.
    let (holds, only_verdict) = verdict_holds(result);
    let keys = telling_keys(result, a, base_report, only_verdict);
    if keys.is_empty() {
        return Some(vec![nothing_changes_it(result, a)]);
    }
    Some(rests_on_sentences(result, a, &keys, holds))
}

/// Only the comparisons the question asks: whether `name` is a variant shown for scale.
fn shown_for_scale(result: &ExperimentResult, name: &str) -> bool {
    result
        .experiment
        .variants
        .iter()
        .any(|v| v.reference && v.name == name)
}

/// How telling an effect is: a flipped sign first, then a difference removed or created, then
/// one moved.
fn severity(e: &str) -> u8 {
    match e {
        "flips" => 0,
        "removes" => 1,
        "creates" => 2,
        _ => 3,
    }
}

/// The settings the answer rests on, most telling first: each key once (with `only_verdict`,
/// only those that could change the verdict), with its most telling row and how many rows
/// name it.
fn telling_keys<'a>(
    result: &ExperimentResult,
    a: &'a crate::experiment::assumptions::Assumptions,
    base_report: &crate::report::Report,
    only_verdict: bool,
) -> Vec<(&'a crate::experiment::assumptions::Assumption, usize)> {
    let reference = |name: &str| shown_for_scale(result, name);
    // The first variant the question asks about (the one the answer leads with, without a
    // sweep).
    let led = result
        .experiment
        .compared()
        .map(|(_, v)| v)
        .find(|v| !v.reference)
        .filter(|_| result.experiment.sweep.is_empty())
        .map(|v| v.name.as_str());
    let weight = |f: &crate::experiment::assumptions::Assumption| move_weight(a, base_report, f);
    let mut keys: Vec<(&crate::experiment::assumptions::Assumption, usize)> = Vec::new();
    for f in a
        .found
        .iter()
        .filter(|f| !reference(&f.variant) && !scope(f))
        .filter(|f| !only_verdict || changes_verdict(result, f))
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
    keys
}

/// The sentence where no setting the answer rests on changes it.
fn nothing_changes_it(
    result: &ExperimentResult,
    a: &crate::experiment::assumptions::Assumptions,
) -> String {
    let situation = a
        .found
        .iter()
        .any(|f| !shown_for_scale(result, &f.variant) && scope(f));
    if situation {
        format!(
            "No number of the rules and no assumption of this study's changes it: one step of each keeps every headline difference's sign and keeps it within {}% of its size (a chance's within {} points). It is an answer for the situation set out above; “Where the answer holds” lists the settings of the situation that would change it.",
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
    }
}

/// The sentences naming what the answer rests on (`keys`, most telling first), longest first,
/// the last a count; with `holds`, after saying that the verdict holds.
fn rests_on_sentences(
    result: &ExperimentResult,
    a: &crate::experiment::assumptions::Assumptions,
    keys: &[(&crate::experiment::assumptions::Assumption, usize)],
    holds: bool,
) -> Vec<String> {
    // The answer stays short (at most 150 words): the most telling setting, and one reading
    // the tool made where the sources are silent (the tool's assumption, not the designer's)
    // if that is another; the rest are counted and listed under the assumptions.
    const SHOWN: usize = 1;
    let silent = |f: &crate::experiment::assumptions::Assumption| {
        f.kind == "rule" && silent_reading(result, &f.key)
    };
    let named = |f: &crate::experiment::assumptions::Assumption| {
        named_assumption(result, f, silent(f), false)
    };
    // Settings of the situation that would change it too: pointed to, so that the count does
    // not read as all there is.
    let situation = match a
        .found
        .iter()
        .any(|f| !shown_for_scale(result, &f.variant) && scope(f))
    {
        // Where the verdict holds under every step, what a situation changes is the
        // differences, not the answer (a reader set "would change it" against the section's
        // "None of them changes the verdict", trial 50).
        true if holds => {
            ", and \u{201c}Where the answer holds\u{201d} the situations that would change their sizes"
        }
        true => ", and \u{201c}Where the answer holds\u{201d} the situations that would change it",
        false => "",
    };
    let opening = match holds {
        true => {
            "No single step in the rules or in this study's assumptions overturns this answer; the sizes of the differences rest on "
        }
        false => "The answer depends on ",
    };
    let said = |shown: &[&(&crate::experiment::assumptions::Assumption, usize)],
                situation: &str| {
        let names = shown.iter().map(|(f, _)| named(f)).collect::<Vec<_>>();
        format!(
            "{opening}{}{}; \u{201c}What could change the answer\u{201d} lists {}{situation}.",
            names.join(" and on "),
            if keys.len() > shown.len() {
                match (keys.len() - shown.len(), holds) {
                    // Rules' numbers and readings: the situations are counted apart.
                    (1, true) => " and on 1 more number or assumption".to_string(),
                    (n, true) => format!(" and on {n} more numbers and assumptions"),
                    (1, false) => " and on 1 more number or assumption".to_string(),
                    (n, false) => format!(" and on {n} more numbers and assumptions"),
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
    // The most telling setting by its name alone, for the shortest forms.
    let top = keys
        .first()
        .map(|(f, _)| named_assumption(result, f, silent(f), true));
    // The most telling setting with what it does to the comparison the answer leads with,
    // where it removes or turns round its difference: "(without it, the amendment's chance of
    // being eliminated would be the same as under the plain 25% rules, not 13.94 points
    // lower)" (the README said it, the answer only "the size of a difference", writer trial
    // 59).
    let top_does = keys.first().and_then(|(f, _)| {
        Some(format!(
            "{} {}",
            named_assumption(result, f, silent(f), true),
            what_it_does(result, f)?
        ))
    });
    // The pointer to the situations only where the words allow: the reading comes first.
    let mut forms = vec![
        said(&with_silent, situation),
        said(&alone, situation),
        said(&with_silent, ""),
        said(&alone, ""),
    ];
    if top_does.is_some() {
        forms.extend([
            counted(keys.len(), holds, situation, top_does.as_deref()),
            counted(keys.len(), holds, "", top_does.as_deref()),
        ]);
    }
    forms.extend([
        counted(keys.len(), holds, situation, top.as_deref()),
        counted(keys.len(), holds, "", top.as_deref()),
        counted(keys.len(), holds, situation, None),
        counted(keys.len(), holds, "", None),
    ]);
    forms
}

/// What a step of setting `f` does to the comparison the answer leads with, in brackets, where
/// it removes or turns round its difference: "(without it, the amendment's chance of being
/// eliminated would be the same as under the plain 25% rules, not 13.94 points lower)". `None`
/// for a row of another comparison, or a change of size only.
fn what_it_does(
    result: &ExperimentResult,
    f: &crate::experiment::assumptions::Assumption,
) -> Option<String> {
    let exp = &result.experiment;
    let led = exp.compared().map(|(_, v)| v).find(|v| !v.reference)?;
    if f.variant != led.name || !exp.sweep.is_empty() {
        return None;
    }
    let head = Head::named(f.headline.clone(), &result.runs[0].report);
    let noun = head.noun();
    let noun = noun.strip_prefix("the ").unwrap_or(&noun);
    let base = exp.baseline_name(&led.name);
    let step = match f.from.as_str() {
        "true" | "false" => "without it".to_string(),
        _ => format!("at {}", as_roll(&f.key, &setting_value(&f.key, &f.to))),
    };
    // A difference as a size and a way: "13.94 points lower", "0.78 higher".
    let size = |d: f64| {
        let way = if d < 0.0 { "lower" } else { "higher" };
        format!(
            "{} {way}",
            head.diff(d.abs()).trim_start_matches(['+', '\u{2212}'])
        )
    };
    // In the answer's own words where the measure has them ("saves units"): the answer has
    // room for a few.
    let gist = |d: f64| crate::labels::gist(&f.headline, d > 0.0);
    match (f.effect.as_str(), gist(f.difference), gist(f.changed)) {
        ("removes", Some(g), _) => Some(format!("({step}, {} no longer {g})", led.name)),
        ("flips", _, Some(g)) => Some(format!("({step}, {} {g} instead)", led.name)),
        ("removes", ..) => Some(format!(
            "({step}, {}'s {noun} would be the same as under {base}, not {})",
            led.name,
            size(f.difference)
        )),
        ("flips", ..) => Some(format!(
            "({step}, {}'s {noun} would be {} than under {base}, not {})",
            led.name,
            size(f.changed),
            size(f.difference)
        )),
        _ => None,
    }
}

/// The shortest forms of what the answer rests on: how many of the rules' numbers and
/// readings change it, the most telling by name (`top`) where there is room, and where they
/// are listed.
fn counted(n: usize, holds: bool, situation: &str, top: Option<&str>) -> String {
    let (them, listed) = match n {
        1 => (
            "1 of the rules' numbers or this study's assumptions".to_string(),
            "gives it",
        ),
        _ => (
            format!("{n} of the rules' numbers and this study's assumptions"),
            "lists them",
        ),
    };
    let list = format!("\u{201c}What could change the answer\u{201d} {listed}{situation}");
    let most = match (top, n) {
        (Some(t), 1) => format!(": {t}"),
        (Some(t), _) => format!(", most of all {t}"),
        (None, _) => String::new(),
    };
    match holds {
        // Said whole on the first page, with no count to check against the list and no
        // pointer to it: a writer who leaves the later pages out keeps the sentence as it is
        // (writer trial 65; "5 of them" beside 8 rows read as a miscount, trial 62).
        true => match top {
            // "One changes part of it" was read twice (writer trial 74, fourth round).
            Some(t) => format!(
                "No single step in the rules or in this study's assumptions overturns this answer. One qualifies it: {t}."
            ),
            None => {
                "No single step in the rules or in this study's assumptions overturns this answer."
                    .to_string()
            }
        },
        false => format!("The answer changes with {them}{most}; {list}."),
    }
}

/// One setting the answer rests on, in words: its label, its value, the value that changes
/// the answer, and the comparison it changes, in the answer's own numbers.
pub(super) fn named_assumption(
    result: &ExperimentResult,
    f: &crate::experiment::assumptions::Assumption,
    silent: bool,
    brief: bool,
) -> String {
    let base_report = &result.runs[0].report;
    // The comparison it changes, in the answer's own words and numbers.
    let head = Head::named(f.headline.clone(), base_report);
    // The difference between the two variants is what moves: said as the gap, not as if one
    // variant's own chance changed.
    let base = result.experiment.baseline_name(&f.variant);
    let would = would_differ_here(result, &head, f, false);
    // A name with a comma of its own closes with one here too ("only Regular, alone, plays").
    let base = match base.contains(',') {
        true => format!("{base},"),
        false => base.to_string(),
    };
    let reading = if silent {
        "the assumption, where the sources are silent, that "
    } else {
        "the assumption that "
    };
    let flag = |v: &str| match v {
        "true" | "on" => Some(true),
        "false" | "off" => Some(false),
        _ => None,
    };
    let state = flag(&f.from)
        .filter(|_| flag(&f.to).is_some())
        .and_then(|on| crate::labels::state(&f.key, on));
    // What the step would do, in brackets after the name; `brief` names it alone. A step
    // that moves only the baseline's value is said as the mark moving (the baseline's new
    // value), not as the variant's difference, which reads as a truism.
    let moved = mark_moved(
        result,
        &head,
        f,
        &as_roll(&f.key, &setting_value(&f.key, &f.to)),
    );
    let effect = |when: String| match (brief, &moved) {
        (true, _) => String::new(),
        // What the step would do, said by its result alone ("at 5, Green with its base
        // number at 4 would match …"): "a step in it moves X, not Y — …" was one clause too
        // many for a reader (writer trial 74).
        (false, Some(m)) => format!(": {m}"),
        (false, None) => format!(" ({when}, {would})"),
    };
    match (f.kind.as_str(), flag(&f.from), state) {
        ("option", Some(on), _) => format!(
            "the optional rule {} being {}{}",
            crate::labels::option(&f.key),
            if on { "in play" } else { "left out" },
            effect(format!("{} it", if on { "without" } else { "with" }))
        ),
        (_, _, Some(state)) => format!("{reading}{state}{}", effect("if not".into())),
        _ => format!(
            "{}{} being {}{}{}",
            if silent {
                "an assumption where the sources are silent, "
            } else {
                ""
            },
            // A number's setting is named as a sentence would ("the Regular base number
            // being 4"); another's label stays quoted as a name ("“Last pip still shoots”
            // being closing only").
            match f.from.parse::<f64>() {
                Ok(_) if f.kind != "option" => crate::labels::setting_in_prose(
                    &crate::labels::param_under(&systems_of(result), &f.key)
                ),
                _ => setting_words(&systems_of(result), &f.key, &f.kind),
            },
            setting_value(&f.key, &f.from),
            // A number only the baseline plays under moves the mark the variant is held
            // against, not the variant: said, so the caveat does not read as circular.
            if f.side == "baseline" {
                format!(", a number only {base} plays under")
            } else {
                String::new()
            },
            effect(format!("at {}", setting_value(&f.key, &f.to)))
        ),
    }
}

/// Every setting that matters with each headline difference it changes (variant minus the
/// baseline): the difference as the report gives it and under the setting, and its effect.
fn comparison_table(
    result: &ExperimentResult,
    a: &crate::experiment::assumptions::Assumptions,
) -> Tab {
    let base_report = &result.runs[0].report;
    let exp = &result.experiment;
    let shown: Vec<&crate::experiment::assumptions::Assumption> = a
        .found
        .iter()
        .filter(|f| !is_reference(result, &f.variant))
        .collect();
    // Which side a setting was moved on, only where some setting was moved on one side alone.
    let sides = shown.iter().any(|f| f.side != "both");
    let mut head: Vec<(&str, bool)> = vec![
        ("", false),
        ("headline", false),
        ("setting", false),
        ("in this report", false),
        ("changed to", false),
        ("rule", false),
    ];
    if sides {
        head.push(("changed for", false));
    }
    head.extend([
        ("difference", true),
        ("under the change", true),
        ("so the difference", false),
    ]);
    let mut tab = Tab::new(&head);
    // A variant shown for scale is no comparison the question asks about: left out here too.
    for f in shown {
        let head = Head::named(f.headline.clone(), base_report);
        let diff = |d: f64| {
            if d.abs() < EXACTLY_ZERO {
                "exactly the same".to_string()
            } else {
                head.diff(d)
            }
        };
        let mut row = vec![
            f.variant.clone(),
            head.labelled(),
            setting_in_table(&compared_systems(result), &f.key, &f.kind),
            as_roll(&f.key, &setting_value(&f.key, &f.from)),
            as_roll(&f.key, &setting_value(&f.key, &f.to)),
            f.rule.clone(),
        ];
        if sides {
            row.push(match f.side.as_str() {
                "both" => "both".to_string(),
                "baseline" => exp.baseline_name(&f.variant).to_string(),
                _ => f.variant.clone(),
            });
        }
        row.extend([
            diff(f.difference),
            match (f.low, f.high) {
                (Some(l), Some(h)) => format!("{} {}", diff(f.changed), head.diff_interval(l, h)),
                _ => diff(f.changed),
            },
            effect_in_words(f),
        ]);
        tab.rows.push(row);
    }
    tab
}

/// The assumptions that matter: every setting the variants share moved one step, and those that
/// flip, remove, create or move a headline difference, in a table.
pub(super) fn assumptions_section(result: &ExperimentResult) -> Option<Vec<Section>> {
    let a = result.assumptions.as_ref()?;
    let exp = &result.experiment;
    // No runs, no section.
    result.runs.first()?;
    let base = match exp.several_baselines() {
        true => "their baselines",
        false => exp.variants[0].name.as_str(),
    };
    let mut intro = tries_intro(result, a, base);
    // The combinations skipped are said beside the full table, on screen.
    let skipped = skipped_tries(result, a);
    // What was not moved is said on screen, beside the table of every comparison: on paper
    // it would name a setting the page never introduces.
    let not_moved = match a.not_tried.is_empty() {
        true => String::new(),
        false => format!(
            " Left as set, having no single step to take (a list of values, not one number): {}.",
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
        if let Some(said) = skipped.strip_prefix(" (").and_then(|x| x.strip_suffix(')')) {
            intro += &format!(" {}.", crate::labels::capitalised(said));
        }
        return Some(vec![Section {
            printed: true,
            list: Vec::new(),
            closing: String::new(),
            closing_paper: String::new(),
            title: "What could change the answer".into(),
            intro,
            tables: Vec::new(),
        }]);
    }
    let tab = comparison_table(result, a);
    let (mut scale_only, mut scale_situation) = (0, 0);
    let by_setting = assumptions_by_setting(result, a, false, &mut scale_only);
    let situation = assumptions_by_setting(result, a, true, &mut scale_situation);
    // The conclusion first, as an article has it; then what a row is, and how many were tried.
    let (verdict, touch) = what_they_touch(result, &by_setting, scale_only, &situation);
    // The section opens on its conclusion, and what a row is follows the table as a note: a
    // long opening split across two pages and left the foot of the first blank, and seven
    // lines stood over a table of one row (writer trial 54).
    let (intro, closing, closing_paper) = match by_setting.rows.is_empty() {
        true => (format!("{intro}{touch}"), String::new(), String::new()),
        false => {
            let lead = match verdict.is_empty() {
                false => verdict,
                true => match by_setting.rows.as_slice() {
                    [row] => format!(
                        " Of the rules' numbers and this study's assumptions, only one changes the answer when moved a single step: {}, at {}.",
                        crate::labels::setting_in_prose(&row[0]),
                        row[2]
                    ),
                    rows => format!(
                        " {} of the rules' numbers and this study's assumptions change the answer when moved a single step; the table lists them, the one that changes it most first.",
                        rows.len()
                    ),
                },
            };
            (
                format!("{lead}{touch}").trim_start().to_string(),
                rows_are(result, a, base, false).trim_start().to_string(),
                rows_are(result, a, base, true).trim_start().to_string(),
            )
        }
    };
    let mut out = vec![Section {
        printed: true,
        list: Vec::new(),
        closing,
        closing_paper,
        title: "What could change the answer".into(),
        intro,
        tables: if by_setting.rows.is_empty() {
            Vec::new()
        } else {
            vec![by_setting]
        },
    }];
    if !situation.rows.is_empty() {
        out.push(where_the_answer_holds(result, situation, scale_situation));
    }
    if !tab.rows.is_empty() {
        // With `verdict = [...]`, a row that reverses a measure the verdict does not judge is
        // said to leave it be, so that "reverses" does not read as contradicting "none of
        // them changes the verdict".
        let judged: Vec<String> = exp
            .verdict_on
            .iter()
            .map(|k| Head::named(k.clone(), &result.runs[0].report).noun())
            .collect();
        let not_moved = match judged.is_empty() {
            true => not_moved,
            false => format!(
                "{not_moved} The verdict rests on {} alone: a row that reverses another measure leaves it be.",
                crate::labels::listed(&judged.iter().map(String::as_str).collect::<Vec<_>>())
            ),
        };
        out.push(comparison_by_comparison(
            base,
            tab,
            scale_only + scale_situation,
            &not_moved,
            &skipped,
        ));
    }
    Some(out)
}

/// The variants shown for scale, by name: "Rank & File", "A and B".
fn scale_names(result: &ExperimentResult) -> String {
    let scale: Vec<&str> = result
        .experiment
        .variants
        .iter()
        .filter(|v| v.reference)
        .map(|v| v.name.as_str())
        .collect();
    crate::labels::listed(&scale)
}

/// A share of a difference's size in words: "half its size", else "40% of its size".
fn share_words(share: f64) -> String {
    match (100.0 * share).round() as i64 {
        50 => "half its size".into(),
        25 => "a quarter of its size".into(),
        n => format!("{n}% of its size"),
    }
}

/// The section's opening in a reader's words: what was moved, how far, and how each try was
/// worked out.
fn tries_intro(
    result: &ExperimentResult,
    a: &crate::experiment::assumptions::Assumptions,
    base: &str,
) -> String {
    let exp = &result.experiment;
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
    format!(
        "Each rule, assumption and setting the variants share with {base} was moved one step at a time (a number by one, a chance to the next simple fraction, an optional rule in or out, a choice to each of its other options){}, and the answer worked out again: {} changes in all, {how}.",
        if exp.sweep.is_empty() {
            String::new()
        } else {
            format!(
                " with {}",
                super::super::answer::point_words(exp, &result.runs[0].point)
            )
        },
        crate::report::thousands(a.tried as u64),
    )
}

/// The kinds of step the rules' rows take, only those there are ("one more or one less" where
/// every row steps a number: the list of every kind read as boilerplate beside a table of
/// base numbers, writer trial 65).
fn step_kinds(a: &crate::experiment::assumptions::Assumptions) -> String {
    let mut kinds: Vec<&str> = Vec::new();
    for f in a.found.iter().filter(|f| f.kind != "situation") {
        let kind = if f.kind == "option" {
            "an optional rule added or dropped"
        } else if f.from.contains('/') || f.to.contains('/') {
            "the next simple fraction"
        } else if f.from.parse::<f64>().is_ok() && f.to.parse::<f64>().is_ok() {
            "one more or one less"
        } else {
            "an assumption changed to another"
        };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    let order = [
        "one more or one less",
        "the next simple fraction",
        "an assumption changed to another",
        "an optional rule added or dropped",
    ];
    kinds.sort_by_key(|k| order.iter().position(|o| o == k));
    match kinds.as_slice() {
        [] => order[0].to_string(),
        [one] => one.to_string(),
        [first, last] => format!("{first} or {last}"),
        [rest @ .., last] => format!("{}, or {last}", rest.join(", ")),
    }
}

/// What a row of the table is, in a reader's words, and how many such steps were tried: the
/// opening of "What could change the answer" where some step changes it.
/// On `paper` the grid's note says neither the listing rule in full nor what its last column
/// holds: that column is left off the printed page, and the rule read as a specification
/// (writer trial 74).
fn rows_are(
    result: &ExperimentResult,
    a: &crate::experiment::assumptions::Assumptions,
    base: &str,
    paper: bool,
) -> String {
    let exp = &result.experiment;
    let at = match exp.sweep.is_empty() {
        true => String::new(),
        false => format!(
            ", worked out with {},",
            super::super::answer::point_words(exp, &result.runs[0].point)
        ),
    };
    // Worked out exactly, a step needs no word on how; by simulation, what a listing takes.
    let how = match a.exact {
        true => String::new(),
        false => format!(
            " (each step was worked out by simulation, {} trials a side from the experiment's seed, and is listed only where the new difference's {}% interval lies wholly on the other side of zero, or wholly outside ±{}% of the report's difference; a chance's: ±{} points where that is narrower)",
            crate::report::thousands(a.trials),
            crate::report::fmt_level(exp.confidence),
            (100.0 * a.share).round(),
            (100.0 * a.points).round()
        ),
    };
    let kinds = step_kinds(a);
    let listed = format!(
        // Plain words (writer trial 74: "dense statistician's prose").
        "reverse a difference from {base}, create or remove one, or change one by more than {} (a chance also by more than {} points); every step left out changes less{how}.",
        share_words(a.share)
            .replace(" of its size", "")
            .replace(" its size", ""),
        (100.0 * a.points).round(),
    );
    // Beside the verdict's grid, what its columns hold, in as few words as they need (the
    // note read like a specification, writer trial 58).
    match verdict_grid(result, a) {
        Some((led, heads)) => {
            let on: Vec<String> = heads
                .iter()
                .map(|h| format!("\u{201c}{}\u{201d}", h.labelled()))
                .collect();
            let rest = match paper {
                true => " Changes too small to matter are left out.".to_string(),
                false => format!(
                    " A step is listed if it would {listed} The last column: the step's largest change to another comparison, with that comparison's difference in this report."
                ),
            };
            format!(
                " Each row{at} takes one step from this report's setting: {kinds}. The grouped columns give {led}'s differences after the step and the answer they give, which rests on {} alone.{rest}",
                crate::labels::listed(&on.iter().map(String::as_str).collect::<Vec<_>>())
            )
        }
        None => match paper {
            true => format!(
                " Each row{at} changes one of the rules' numbers or this study's assumptions by a single step ({kinds}) and says what the answer would then be. Changes too small to matter are left out."
            ),
            false => format!(
                " Each row{at} changes one of the rules' numbers or this study's assumptions by a single step ({kinds}) and says what the answer would then be. Listed are the steps that {listed}"
            ),
        },
    }
}

/// What the settings found touch, as (the verdict, the rest): the verdict that holds under
/// every one, then the variant shown for comparison left out (`scale_only`) and where the
/// situation's settings are (`situation`). The rules and readings are `by_setting`.
fn what_they_touch(
    result: &ExperimentResult,
    by_setting: &Tab,
    scale_only: usize,
    situation: &Tab,
) -> (String, String) {
    let exp = &result.experiment;
    let mut intro = String::new();
    let mut verdict = String::new();
    if by_setting.rows.is_empty() {
        intro +=
            " No rule, assumption or optional rule changes a difference the question asks about.";
    } else if scale_only > 0 {
        intro += &format!(
            " Steps that would change only the row of {}, shown for comparison, are left out.",
            scale_names(result)
        );
    }
    // A `verdict = [...]` question: whether any of them touches the verdict itself.
    if !by_setting.rows.is_empty() && verdict_holds(result).0 {
        let heads: Vec<String> = exp
            .verdict_on
            .iter()
            .map(|k| Head::named(k.clone(), &result.runs[0].report).noun())
            .collect();
        // With the grid, the answer's own word: "the amendment's answer stays No".
        let word = result.assumptions.as_ref().and_then(|a| {
            let (led, hs) = verdict_grid(result, a)?;
            let w = verdict_word(&hs, |h| led_difference(result, &led, &h.key))?;
            Some((led, w))
        });
        verdict += &match word {
            Some((led, w)) => format!(
                " Each setting below moves a difference the question asks about, or one of the report's other comparisons, but none changes the verdict: under every one, {led}'s answer stays {w}."
            ),
            None => format!(
                " Each setting below moves a difference the question asks about, but none changes the verdict: under every one, {} still move the same way.",
                crate::labels::listed(&heads.iter().map(String::as_str).collect::<Vec<_>>())
            ),
        };
    }
    if !situation.rows.is_empty() {
        intro += " Steps in the situation and in play follow, under \u{201c}Where the answer holds\u{201d}.";
    } else {
        // Said, so that a reader does not wonder whether the situation was tried at all.
        intro += " A step in the situation (the unit, its state and what it faces) or in how it is played does not change it either.";
    }
    (verdict, intro)
}

/// The settings of the situation (and choices of play) that would change a difference from
/// the baseline. (What would change only a variant shown for comparison is left out, as under
/// "What could change the answer": it is not an assumption of the answer.)
fn where_the_answer_holds(
    result: &ExperimentResult,
    situation: Tab,
    scale_situation: usize,
) -> Section {
    // With `verdict = [...]`, whether a situation moved one step would turn the verdict round.
    let exp = &result.experiment;
    let verdict = match result.assumptions.as_ref() {
        Some(a) if !exp.verdict_on.is_empty() => {
            match a
                .found
                .iter()
                .filter(|f| scope(f) && !is_reference(result, &f.variant))
                .any(|f| changes_verdict(result, f))
            {
                false => " None of them changes the verdict.",
                true => "",
            }
        }
        _ => "",
    };
    Section {
        printed: true,
        title: "Where the answer holds".into(),
        intro: format!(
            // Short: with it the section's opening, head and first rows fit at the foot of the
            // page before, which was a third blank (writer trial 74).
            "These settings are the situation and how it is played, not the rules. Each row takes one of them a single step, as above{}.{}{verdict}",
            match result
                .assumptions
                .as_ref()
                .and_then(|a| verdict_grid(result, a))
            {
                Some(_) => "",
                None => ", and says what the answer would then be",
            },
            if scale_situation > 0 {
                format!(
                    " Steps that would change only the row of {} are left out.",
                    scale_names(result)
                )
            } else {
                String::new()
            },
        ),
        closing: String::new(),
        closing_paper: String::new(),
        list: Vec::new(),
        tables: vec![situation],
    }
}

/// Every headline difference each setting changes, on screen only, with what was left as set
/// (`not_moved`) and the tries skipped (`skipped`); `scale` counts the variant shown for scale
/// left out.
fn comparison_by_comparison(
    base: &str,
    tab: Tab,
    scale: usize,
    not_moved: &str,
    skipped: &str,
) -> Section {
    Section {
        printed: false,
        list: Vec::new(),
        closing: String::new(),
        closing_paper: String::new(),
        title: "What could change the answer, comparison by comparison".into(),
        intro: format!(
            "Each setting above, with every headline difference (variant minus {base}) it changes: the difference as the report gives it and under the change{}.{not_moved}{}",
            match scale {
                0 => "",
                _ => " (the variant shown for comparison is left out)",
            },
            match skipped.strip_prefix(" (").and_then(|x| x.strip_suffix(')')) {
                Some(said) => format!(" {}.", crate::labels::capitalised(said)),
                None => String::new(),
            }
        ),
        tables: vec![tab],
    }
}

/// A setting stepped, in a table's words: "Guards' melee bonus: 0 or 2 instead of 1"; a
/// label that has a colon of its own takes a dash ("Label: its detail — no instead of
/// yes").
pub(super) fn stepped(label: &str, to: &str, from: &str) -> String {
    let sep = if label.contains(':') {
        " \u{2014} "
    } else {
        ": "
    };
    format!("{label}{sep}{to} instead of {from}")
}

/// A setting of the situation the question is asked about, or a side's choice of play (a
/// unit of elephants, a player who keeps routing by choice): another question, not an
/// assumption the answer rests on. The report lists them apart, under "Where the answer holds".
pub(super) fn scope(f: &crate::experiment::assumptions::Assumption) -> bool {
    f.kind != "option" && crate::labels::role(&f.key) != crate::labels::Role::Reading
}
