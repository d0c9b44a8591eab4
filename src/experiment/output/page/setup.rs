//! What was played, in words (the setup sentence), the two-axis pivots a designer would print, and
//! the tries a sweep skipped.

use super::*;

/// What was played, in words: the scenario and the settings every variant shares, each variant
/// by its system and what sets it apart from the others, and the swept values.
pub(super) fn setup_sentence(exp: &crate::experiment::Experiment) -> String {
    let (mut out, shared) = super::super::charts::scenario_and_shared(exp);
    if !shared.is_empty() {
        out += &format!("; in each case: {}", shared.join(", "));
    }
    out += ".";
    let shared_set = |k: &str, v: &SetValue| super::super::charts::set_everywhere(exp, k, v);
    let swept = |k: &str| exp.sweep.iter().any(|a| a.key == k);
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
    // An optional rule is said with what it does where the list first names it, by name after.
    let mut described: Vec<String> = Vec::new();
    for system in &systems {
        let members: Vec<(usize, &crate::experiment::Variant)> = exp
            .variants
            .iter()
            .enumerate()
            .filter(|(_, v)| v.system == *system)
            .collect();
        let in_all = |k: &str, x: &SetValue| set_in_all(&members, k, x);
        let said_all =
            |pairs: Vec<(&str, String)>| crate::labels::settings_in_words_under(&[system], &pairs);
        let group_shared: Vec<String> = said_all(
            members[0]
                .1
                .set
                .iter()
                .filter(|(k, x)| !shared_set(k, x) && !swept(k) && in_all(k, x) && !measure(k))
                .map(|(k, x)| (k.as_str(), x.as_input()))
                .collect(),
        );
        let each: Vec<(String, String)> = members
            .iter()
            .map(|(i, v)| variant_words(exp, system, &members, *i, v, &mut described))
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
            [(name, own)] if without_role(name) == label.as_str() => Some(own.clone()),
            _ => None,
        };
        // A variant whose name already says what sets it apart ("Green: green troops") is
        // named alone.
        let item = |(name, own): &(String, String)| {
            if own.is_empty() || names_itself(name, own) {
                name.clone()
            } else {
                format!("{name}: {own}")
            }
        };
        // A variant shown for scale is said to be one, here as in the table.
        let scale = match &members[..] {
            [(_, v)] if v.reference => " (for comparison)",
            _ => "",
        };
        // The rule system said in a phrase where the report first names it: "the 25%
        // effectiveness rules" meant nothing to a magazine reader (writer trial 74).
        let (label, scale) = match (crate::labels::system_gist(system), scale.is_empty()) {
            (Some(g), true) => (format!("{label} ({g})"), ""),
            (Some(g), false) => (format!("{label}, for comparison ({g})"), ""),
            (None, _) => (label, scale),
        };
        groups.push(match alone {
            Some(own) if own.is_empty() => (format!("{label}{scale}{shared}"), Vec::new()),
            Some(own) => (format!("{label}{scale}{shared}: {own}"), Vec::new()),
            None => (
                format!("Under {label}{shared}:"),
                each.iter().map(item).collect(),
            ),
        });
    }
    out += &swept_words(exp);
    out += &variants_list(&groups);
    out
}

/// Whether every one of a system's `members` (two or more) sets `k` to `x`: said once, with
/// the system, not with each variant.
fn set_in_all(members: &[(usize, &crate::experiment::Variant)], k: &str, x: &SetValue) -> bool {
    members.len() > 1
        && members
            .iter()
            .all(|(_, v)| v.set.iter().any(|(k2, x2)| k2 == k && x2 == x))
}

/// A variant of `system` in the setup, by its name (and role) and what sets it apart from the
/// other `members` of its system: its own settings, rules and optional rules, in words.
fn variant_words(
    exp: &crate::experiment::Experiment,
    system: &str,
    members: &[(usize, &crate::experiment::Variant)],
    i: usize,
    v: &crate::experiment::Variant,
    described: &mut Vec<String>,
) -> (String, String) {
    let shared_set = |k: &str, x: &SetValue| super::super::charts::set_everywhere(exp, k, x);
    let swept = |k: &str| exp.sweep.iter().any(|a| a.key == k);
    let measure = |k: &str| crate::labels::is_measurement(k);
    let in_all = |k: &str, x: &SetValue| set_in_all(members, k, x);
    let said_all =
        |pairs: Vec<(&str, String)>| crate::labels::settings_in_words_under(&[system], &pairs);
    let mut own: Vec<String> = said_all(
        v.set
            .iter()
            .filter(|(k, x)| !shared_set(k, x) && !swept(k) && !in_all(k, x) && !measure(k))
            .map(|(k, x)| (k.as_str(), x.as_input()))
            .collect(),
    );
    // A variant that would be named alone (nothing of its own, or only what its
    // name says) says what it leaves at the defaults that another variant here sets.
    let bare = v.rules.is_empty()
        && v.options.is_empty()
        && (own.is_empty() || names_itself(&v.name, &own.join(", ")));
    if bare {
        let others: Vec<&crate::experiment::Variant> = members
            .iter()
            .filter(|(j, _)| *j != i)
            .map(|(_, o)| *o)
            .collect();
        own.extend(left_at_default(exp, system, v, &others, |k, x| {
            !shared_set(k, x) && !swept(k) && !measure(k)
        }));
    }
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
        .map(|o| match crate::labels::option_gist(o) {
            Some(g) if !described.contains(o) => {
                described.push(o.clone());
                format!("{} ({g})", crate::labels::option(o))
            }
            _ => crate::labels::option(o),
        })
        .collect();
    // A setting the variant's name already says ("the amendment, 1 retreat in 6
    // blocked") is not said twice: only its note stays ("a blocked unit is
    // eliminated").
    let name = v.name.to_lowercase();
    own = own
        .into_iter()
        .filter_map(|part| {
            let (said, note) = match part.split_once(" (") {
                Some((said, note)) => (said, Some(note.trim_end_matches(')'))),
                None => (part.as_str(), None),
            };
            // "Green: Green troops, no leader's bonus" said the class twice (writer trial 74):
            // a class the name gives is not said again.
            let class_named = said.strip_suffix(" troops").is_some_and(|c| {
                name.split_whitespace()
                    .any(|w| w == c.to_lowercase().as_str())
            });
            match (name.contains(&said.to_lowercase()) || class_named) && !said.is_empty() {
                true => note.map(str::to_string),
                false => Some(part),
            }
        })
        .collect();
    // The optional rules first: what the variant is, then how it is played.
    match &options[..] {
        [] => {}
        [one] => own.insert(0, format!("the optional rule {one}")),
        [rest @ .., last] => own.insert(
            0,
            format!("the optional rules {} and {last}", rest.join(", ")),
        ),
    }
    (
        format!(
            "{}{}",
            v.name,
            if exp.is_baseline(i) {
                baseline_role(exp, i)
            } else if v.reference {
                " (for comparison)".to_string()
            } else {
                String::new()
            }
        ),
        own.join(", "),
    )
}

/// What a baseline is in the list of variants: with one baseline, "the others are measured
/// against it"; with several, which ones are ("the next is", "the next 2 are", or their names),
/// so that two baselines do not each claim all the others (writer trial 66).
fn baseline_role(exp: &crate::experiment::Experiment, i: usize) -> String {
    let mine: Vec<usize> = (0..exp.variants.len())
        .filter(|&w| exp.baseline_of(w) == Some(i))
        .collect();
    let next_ones = mine.iter().enumerate().all(|(k, &w)| w == i + 1 + k);
    match mine.len() {
        0 => String::new(),
        n if n == exp.compared().count() => " (the others are measured against it)".to_string(),
        1 if next_ones => " (the next is measured against it)".to_string(),
        n if next_ones => format!(" (the next {n} are measured against it)"),
        _ => {
            let names: Vec<String> = mine
                .iter()
                .map(|&w| format!("\u{201c}{}\u{201d}", exp.variants[w].name))
                .collect();
            let verb = if names.len() == 1 { "is" } else { "are" };
            format!(
                " ({} {verb} measured against it)",
                crate::labels::listed(&names.iter().map(String::as_str).collect::<Vec<_>>())
            )
        }
    }
}

/// A variant's name in the list without what the list adds after it: "(for comparison)" or
/// what is measured against it.
fn without_role(name: &str) -> &str {
    match name.rfind(" (") {
        Some(at)
            if name.ends_with(" (for comparison)") || name.ends_with("measured against it)") =>
        {
            &name[..at]
        }
        _ => name,
    }
}

/// The settings of the situation that `others` (variants of `system`) set and `v` leaves at
/// their defaults, in words: "Green: green troops, no leader's bonus" beside "Regular with a +1
/// leader: regular troops, a +1 leader", not a bare "Green". `said_apart` keeps out what the
/// setup says elsewhere (settings shared by every variant, swept or measured).
fn left_at_default(
    exp: &crate::experiment::Experiment,
    system: &str,
    v: &crate::experiment::Variant,
    others: &[&crate::experiment::Variant],
    said_apart: impl Fn(&str, &SetValue) -> bool,
) -> Vec<String> {
    let mut keys: Vec<&str> = Vec::new();
    for (k, x) in others.iter().flat_map(|o| &o.set) {
        if !keys.contains(&k.as_str())
            && !v.set.iter().any(|(k2, _)| k2 == k)
            && said_apart(k, x)
            && crate::labels::role(k) == crate::labels::Role::Situation
            && crate::labels::needs_option(k).is_none_or(|o| v.options.iter().any(|x| x == o))
        {
            keys.push(k);
        }
    }
    let Ok(sys) = crate::system::find(system) else {
        return Vec::new();
    };
    let defaults = sys.defaults(exp.scenario, &[]);
    keys.into_iter()
        .filter_map(|k| {
            let x = defaults
                .iter()
                .find(|(d, _)| *d == k)
                .map(|(_, x)| x.clone())
                .or_else(|| {
                    crate::system::all_params(sys)
                        .iter()
                        .find(|p| p.key == k)
                        .map(|p| p.default.to_string())
                })?;
            Some(crate::labels::setting_in_words_under(&[system], k, &x))
        })
        .collect()
}

/// Whether a variant's `name` already says everything of its settings in words `own` ("Green"
/// and "green troops"): each part of them starts with the name.
fn names_itself(name: &str, own: &str) -> bool {
    let n = without_role(name).to_lowercase();
    // Each part starts with the name ("green troops" of "Green"), or the name holds it, a
    // class by its word ("regular troops" of "Regular with a +1 leader").
    !n.is_empty()
        && !own.is_empty()
        && own.to_lowercase().split(", ").all(|part| {
            part.starts_with(&n) || n.contains(part) || n.contains(part.trim_end_matches(" troops"))
        })
}

/// The sweep in a sentence (" The base number a Green unit's test must reach … is tried at 3,
/// 4, 5 and 6."), empty without one.
fn swept_words(exp: &crate::experiment::Experiment) -> String {
    if exp.sweep.is_empty() {
        return String::new();
    }
    let axes: Vec<String> = exp
        .sweep
        .iter()
        .map(|a| {
            let values: Vec<String> = a.values.iter().map(SetValue::as_input).collect();
            let values = match &values[..] {
                [one] => one.clone(),
                [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
                [] => String::new(),
            };
            format!(
                "{} is tried at {values}",
                super::super::charts::axis_words(exp, a)
            )
        })
        .collect();
    format!(" {}.", crate::labels::capitalised(&axes.join("; and ")))
}

/// The variants as a list, a line each ("- name: what sets it apart"), from `groups` (each
/// system's heading and its variants): under one system, the system is said before the list;
/// under several, each system is an item with its variants beneath it.
fn variants_list(groups: &[(String, Vec<String>)]) -> String {
    let mut out = String::new();
    match groups {
        [(head, items)] if items.is_empty() => out += &format!(" {head}."),
        // One variant: no baseline and no list.
        [(head, items)] if items.len() == 1 => {
            out += &format!(
                " {head} {}.",
                items[0].replacen(" (the others are measured against it)", "", 1)
            );
        }
        [(head, items)] => {
            out += &format!(" Compared, {}", crate::labels::lower_first(head));
            for i in items {
                out += &format!("\n- {i}");
            }
        }
        _ => {
            out += " Compared:";
            for (head, items) in groups {
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
pub(super) fn pivots(result: &ExperimentResult) -> Vec<(String, Tab)> {
    let exp = &result.experiment;
    let [x, y] = &exp.sweep[..] else {
        return Vec::new();
    };
    let head = Head::of(exp, &result.runs[0].report);
    let x_words = super::super::charts::axis_name(exp, x);
    let y_words = super::super::charts::axis_name(exp, y);
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
            group: None,
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

/// Skipped tries of one setting from one value: (key, kind, value as run, the values tried,
/// the variants they were skipped for).
pub(super) type SkipGroup<'a> = (&'a str, &'a str, &'a str, Vec<String>, Vec<&'a str>);

/// The tries an assumptions paragraph left out, in words: combinations the rules refuse, and
/// settings too large to work out within an experiment's bound (the same on every machine),
/// each named ("Green base number: 1 instead of 2"), so that a reader on paper is told which.
pub(super) fn skipped_tries(
    result: &ExperimentResult,
    a: &crate::experiment::assumptions::Assumptions,
) -> String {
    let systems = compared_systems(result);
    let compared: Vec<&str> = result
        .experiment
        .compared()
        .map(|(_, v)| v.name.as_str())
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
                    "{}, for {}",
                    stepped(
                        &setting_in_table(&systems, key, kind),
                        &tos.join(" or "),
                        &setting_value(key, from)
                    ),
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
pub(super) fn skipped_words(
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

/// How the numbers were found, in one paragraph: exact or the simulation's, the trials, seed
/// and level, how the checks came out, and what the command line changed from the file.
pub(super) fn method(result: &ExperimentResult) -> String {
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
        "How the numbers were found: {} The situation ({}) was also played out {} times for each variant{} by a simulation (from a fixed random sequence, seed {}, so that it can be repeated; {level} intervals).",
        if exact_all {
            "every value is exact, worked out from the rules' dice; the simulation checks each one."
        } else if exact_any {
            "values are exact, worked out from the rules' dice, where the situation could be solved, and the simulation checks them; elsewhere they are the simulation's, with their intervals."
        } else {
            "this situation has no exact solution, so every value is the simulation's, with its interval."
        },
        crate::labels::lower_initial(exp.scenario.words()),
        crate::report::thousands(exp.trials),
        if exp.sweep.is_empty() {
            String::new()
        } else {
            " and setting".into()
        },
        exp.seed,
    );
    // The checks' level, said once: sure taken together, not one by one.
    let checks = super::super::answer::checks_made(result);
    // How the checks came out, on paper too, where their tables are not printed.
    let missed = super::super::answer::checks_missed(result);
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
    // Every value exact and every check agreeing: said in two sentences, in a reader's words
    // (the checks' level and the seed are the Reproduce box's and the data's).
    if exact_all && checks > 1 && missed.is_empty() && exp.overrides.is_empty() {
        return format!(
            "How the numbers were found: every value is exact, worked out from the rules' dice. As a check, each variant{1} was also played out {0} times by simulation, and the simulation bears out all {2} exact values it was checked against (every chance and average, printed here or not).",
            crate::report::thousands(exp.trials),
            if exp.sweep.is_empty() {
                ""
            } else {
                " and setting"
            },
            crate::report::thousands(checks as u64),
        );
    }
    let method = if checks > 1 {
        format!(
            "{method} It checks all {} exact values (every outcome and measure of every variant, the table's among them), with intervals wide enough that the checks are {level} sure taken together: a miss anywhere in the report comes by chance in only 1 report in {:.0}.{outcome}",
            crate::report::thousands(checks as u64),
            1.0 / (1.0 - exp.confidence)
        )
    } else {
        format!("{method}{outcome}")
    };
    if exp.overrides.is_empty() {
        method
    } else {
        format!(
            "{method} Not the file as written: {}.",
            exp.overrides.join("; ")
        )
    }
}
