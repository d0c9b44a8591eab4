//! The sections under the answer, one per run (a variant at a setting): its outcomes and
//! measures, exact with the simulation's check beside them; a variant a sweep does not touch
//! once; and the notes every run of a system shares, once.

use super::*;

/// A run's notes as the reader meets them, the sampler's note aside (it goes to the section on
/// reproducing the run, [`sampler_words`]). A note not every run of `system` has is cut into
/// its clauses (at a "; " outside brackets), so that a clause every run shares is said once
/// even where a run's note joins it to one of its own (a system's long note ending on the way
/// side A plays); a note every run has stays whole ("Not modelled here: …; …").
fn clauses(result: &ExperimentResult, run: &Run, system: &str) -> Vec<String> {
    let exp = &result.experiment;
    let others = result
        .runs
        .iter()
        .filter(|r| exp.variants[r.variant].system == system);
    let mut out = Vec::new();
    for note in run
        .report
        .notes
        .iter()
        .filter(|n| !n.starts_with("sampler: "))
    {
        if others.clone().all(|r| r.report.notes.contains(note)) {
            out.push(note.clone());
            continue;
        }
        let (mut depth, mut start) = (0i32, 0usize);
        let bytes = note.as_bytes();
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'(' => depth += 1,
                b')' => depth -= 1,
                b';' if depth == 0 && bytes.get(i + 1) == Some(&b' ') => {
                    out.push(note[start..i].to_string());
                    start = i + 2;
                }
                _ => {}
            }
        }
        out.push(note[start..].to_string());
    }
    out.retain(|c| !c.trim().is_empty());
    out
}

/// The notes every run of `system` shares (said once, after the runs' sections; a section per
/// system where the variants use several): none where the system has one run.
pub(super) fn shared_notes(result: &ExperimentResult, system: &str) -> Vec<String> {
    let exp = &result.experiment;
    let runs: Vec<Vec<String>> = result
        .runs
        .iter()
        .filter(|r| exp.variants[r.variant].system == system)
        .map(|r| clauses(result, r, system))
        .collect();
    match runs.split_first() {
        Some((first, rest)) if !rest.is_empty() => first
            .iter()
            .filter(|n| rest.iter().all(|r| r.contains(n)))
            .cloned()
            .collect(),
        _ => Vec::new(),
    }
}

/// Which variants' simulations rolled every die through the rule code though the tables were
/// asked for, and why, for the section on reproducing the run: "" where none did.
pub(super) fn sampler_words(result: &ExperimentResult) -> String {
    let exp = &result.experiment;
    let mut names: Vec<&str> = Vec::new();
    let mut why = "";
    for r in &result.runs {
        if let Some(n) = r.report.notes.iter().find(|n| n.starts_with("sampler: ")) {
            let name = exp.variants[r.variant].name.as_str();
            if !names.contains(&name) {
                names.push(name);
            }
            // "sampler: dice, not table: <why>, so every die is rolled through the rule code"
            why = n.splitn(3, ": ").nth(2).unwrap_or("");
            why = why.split(", so every die").next().unwrap_or(why);
        }
    }
    if names.is_empty() {
        return String::new();
    }
    let quoted: Vec<String> = names
        .iter()
        .map(|n| format!("\u{201c}{n}\u{201d}"))
        .collect();
    let quoted: Vec<&str> = quoted.iter().map(String::as_str).collect();
    format!(
        " The simulation of {} rolled every die through the rule code, not from tables: {why}.",
        crate::labels::listed(&quoted)
    )
}

/// A run's outcomes: each one's chance (the exact value where there is one, the simulation's
/// check beside it: "agrees", or its estimate where it misses); where nothing is exact, the
/// estimate and its interval.
fn outcome_table(result: &ExperimentResult, run: &Run, zf: f64) -> Tab {
    let exp = &result.experiment;
    let level = format!("{}%", crate::report::fmt_level(exp.confidence));
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
                Some(e) => super::super::answer::pct(e),
                None => format!("{} (simulation)", super::super::answer::pct(c.p)),
            },
            match c.exact {
                Some(_) => check_cell(c, true, exp.confidence, zf, ""),
                None => interval,
            },
        ]);
    }
    outcomes
}

/// A run's measures (`None` where it has none): each one's average, exact where known, with the
/// simulation's check (± its standard error); a measure with no value here is left out.
fn measure_table(result: &ExperimentResult, run: &Run, zf: f64) -> Option<Tab> {
    let exp = &result.experiment;
    if run.report.metrics.is_empty() {
        return None;
    }
    // A measure that is exactly nought in every run here (elephant stampedes in a report with
    // no elephants, re-rolls where none are given) tells the reader nothing: left out of the
    // tables (it is still checked, and in the data).
    let nought = |name: &str| {
        result.runs.iter().all(|r| {
            r.report
                .metrics
                .iter()
                .find(|m| m.name == name)
                .is_none_or(|m| m.exact == Some(0.0))
        })
    };
    let kept: Vec<&crate::report::MetricRow> = run
        .report
        .metrics
        .iter()
        .filter(|m| !nought(&m.name))
        .collect();
    // Where every measure shown is exact, the check column holds verdicts only: no spread.
    let all_exact = kept.iter().all(|m| m.exact.is_some_and(f64::is_finite));
    let mut metrics = Tab::new(&[
        ("measure", false),
        ("average", true),
        (
            if all_exact {
                "simulation's check"
            } else {
                "simulation's check (± standard error)"
            },
            false,
        ),
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
    for m in kept {
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
            Some(v) if share => super::super::answer::pct(v),
            other => value(other),
        };
        let spread = format!("{} ± {}", g(m.value), g(m.stderr));
        metrics.rows.push(vec![
            with_condition(
                &m.name,
                &m.meaning,
                super::super::answer::weak_share(&run.report).as_deref(),
            ),
            match m.exact.filter(|v| v.is_finite()) {
                Some(e) => shown(Some(e)),
                None => format!("{} (simulation)", shown(m.value)),
            },
            match (
                m.exact.filter(|v| v.is_finite()),
                find(&run.report, &m.name),
            ) {
                (Some(_), Some(c)) => check_cell_as(&c, false, share, exp.confidence, zf, ""),
                (Some(_), None) => "—".into(),
                (None, _) => spread,
            },
        ]);
    }
    Some(metrics)
}

/// How the note of what the tool leaves out opens.
const LEFT_OUT: &str = "not modelled here: ";

/// Whether the notes every variant shares are only what the study leaves out.
fn only_left_out(shared: &[String]) -> bool {
    matches!(shared, [one] if one.starts_with(LEFT_OUT))
}

/// The notes line of a run's section: its own notes, and a pointer to those every variant (of
/// its system, where there are several) shares.
fn notes_words(own: &[String], shared: &[String], systems: usize, system: &str) -> String {
    match (own.is_empty(), shared.is_empty()) {
        (true, true) => String::new(),
        (true, false) if only_left_out(shared) => {
            " Left out: what this study leaves out of every variant (below).".to_string()
        }
        (true, false) if systems > 1 => format!(
            " Notes: those used throughout under {} (below).",
            crate::labels::system(system)
        ),
        (true, false) => " Notes: those used throughout (below).".to_string(),
        (false, true) => format!(
            " Notes: {}.",
            own.iter()
                .map(|n| n.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ),
        (false, false) if only_left_out(shared) => format!(
            " Notes: {}; what this study leaves out is said below.",
            own.iter()
                .map(|n| n.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ),
        (false, false) => format!(
            " Notes, besides those used throughout{} (below): {}.",
            if systems > 1 {
                format!(" under {}", crate::labels::system(system))
            } else {
                String::new()
            },
            own.iter()
                .map(|n| n.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ),
    }
}

/// A run's section: the variant (at its setting), its rules and optional rules, its notes, and
/// its tables.
fn run_section(result: &ExperimentResult, run: &Run, zf: f64) -> Section {
    let exp = &result.experiment;
    let systems = systems_of(result);
    let v = &exp.variants[run.variant];
    let at = point_words(exp, &run.point);
    let shared = shared_notes(result, &v.system);
    let own: Vec<String> = clauses(result, run, &v.system)
        .into_iter()
        .filter(|n| !shared.contains(n))
        .collect();
    let mut tables = vec![outcome_table(result, run, zf)];
    tables.extend(measure_table(result, run, zf));
    Section {
        printed: false,
        list: Vec::new(),
        closing: String::new(),
        closing_paper: String::new(),
        // A heading starts with a capital, where a name written to sit mid-sentence ("the
        // plain 25% rules, played well") does not.
        title: if at.is_empty() {
            crate::labels::capitalised(&v.name)
        } else {
            format!("{} ({at})", crate::labels::capitalised(&v.name))
        },
        intro: format!(
            "{}; rules: {}; optional rules: {}.{}",
            crate::labels::capitalised(&crate::labels::system(&v.system)),
            // "As written" is the whole of it for a reader; the CLI's "(no rule parameter
            // changed)" is for a designer checking flags.
            run.report
                .rules_line()
                .replace(" (no rule parameter changed)", ""),
            if v.options.is_empty() {
                "none".into()
            } else {
                v.options
                    .iter()
                    .map(|o| crate::labels::option(o))
                    .collect::<Vec<_>>()
                    .join(", ")
            },
            notes_words(&own, &shared, systems.len(), &v.system)
        ),
        tables,
    }
}

/// A run's exact values, outcomes then metrics, bit for bit (`None` where one has none): two
/// runs with the same are the same numbers, whatever their simulations' checks.
pub(super) fn exact_bits(r: &Run) -> Vec<Option<u64>> {
    let outcomes = r.report.outcomes.iter().map(|o| o.cell.exact);
    let metrics = r.report.metrics.iter().map(|m| m.exact);
    outcomes
        .chain(metrics)
        .map(|x| x.map(f64::to_bits))
        .collect()
}

/// Over a sweep, a variant the swept setting does not touch (the same numbers at every
/// setting) gets one section, not one a setting: the one whose rules are nearest the source's,
/// since its rules line names no other setting. `None` where the variant's runs differ.
fn collapsed(
    result: &ExperimentResult,
    per_run: &[(usize, Section)],
    variant: usize,
    zf: f64,
) -> Option<Section> {
    let exp = &result.experiment;
    let mine: Vec<&Section> = per_run
        .iter()
        .filter(|(v, _)| *v == variant)
        .map(|(_, s)| s)
        .collect();
    // The same exact values, not only the same rounded figures (the simulation's checks
    // may differ).
    let values = exact_bits;
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
        let measures =
            runs[0].report.metrics.iter().filter(|m| {
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
            " The simulation checks it with the runs at the {} settings together ({} trials).",
            runs.len(),
            crate::report::thousands(exp.trials * runs.len() as u64)
        );
        one
    })
}

/// The runs' sections, in order (a variant a sweep does not touch once), then a section of
/// the notes every run of a system shares.
pub(super) fn run_sections(result: &ExperimentResult) -> Vec<Section> {
    let mut sections = Vec::new();
    let systems = systems_of(result);
    // Every check of the report at one level, sure at the experiment's taken together.
    let zf = super::super::answer::check_z(result);
    let per_run: Vec<(usize, Section)> = result
        .runs
        .iter()
        .map(|run| (run.variant, run_section(result, run, zf)))
        .collect();
    for (i, (variant, section)) in per_run.iter().enumerate() {
        let mut one = match collapsed(result, &per_run, *variant, zf) {
            Some(_) if per_run[..i].iter().any(|(v, _)| v == variant) => continue,
            Some(one) => one,
            None => section.clone(),
        };
        one.tables = one
            .tables
            .into_iter()
            .map(Tab::without_agreeing_checks)
            .collect();
        sections.push(one);
    }
    for system in &systems {
        let shared = shared_notes(result, system);
        if shared.is_empty() {
            continue;
        }
        // Where what every variant shares is only what the study leaves out, the heading says
        // so: "Assumptions used throughout" over a single "Not modelled here" read oddly
        // (writer trial 74). Else "Assumptions used throughout": "Notes every variant shares …
        // said once" read as the tool talking (writer trial 74).
        let left_out = only_left_out(&shared);
        let name = crate::labels::system(system);
        let (title, opening, keyed) = match left_out {
            true => (
                "What this study leaves out",
                "Left out of every variant of {} here",
                "in brackets, the rule it belongs to",
            ),
            false => (
                "Assumptions used throughout",
                "Every variant of {} here is played this way",
                "in brackets, the rule a note reads, as this study numbers them",
            ),
        };
        let title = match (systems.len() > 1, left_out) {
            (false, _) => title.to_string(),
            (true, true) => format!("{title} of {name}"),
            (true, false) => format!("{title}, under {name}"),
        };
        sections.push(Section {
            // On paper too, in two columns of small type: without them a printed report said
            // nothing of the dice, the hits a quarter or how a retreat is blocked (writer
            // trial 74).
            printed: true,
            closing: String::new(),
            closing_paper: String::new(),
            list: shared
                .iter()
                .map(|n| n.trim_start_matches(if left_out { LEFT_OUT } else { "" }))
                .map(|n| format!("{}.", crate::labels::capitalised(n)))
                .collect(),
            title,
            // The rule ids the notes cite, keyed: a magazine reader cannot look "EF-2" up
            // (writer trial 74).
            intro: format!(
                "{}{}:",
                opening.replace("{}", &name),
                match crate::labels::rules_cited(&shared.join(" ")) {
                    Some(key) => format!(" ({keyed}: {key})"),
                    None => String::new(),
                }
            ),
            tables: Vec::new(),
        });
    }
    sections
}
