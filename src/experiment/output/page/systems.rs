//! Variants of several rule systems: which systems a report compares, the outcomes they do not
//! share, and the section that sets them side by side.

use super::*;

/// The systems of an experiment's variants, each once, in variant order.
pub(crate) fn systems_of(result: &ExperimentResult) -> Vec<&str> {
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
pub(super) fn compared_systems(result: &ExperimentResult) -> Vec<&str> {
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

/// The comparisons that cross systems, as (variant's run, its baseline's run) at the first
/// sweep point: a variant whose baseline is under another rule system.
pub(crate) fn crossings(result: &ExperimentResult) -> Vec<(&Run, &Run)> {
    let exp = &result.experiment;
    let first = &result.runs[..exp.variants.len().min(result.runs.len())];
    first
        .iter()
        .filter_map(|run| {
            let b = exp.baseline_of(run.variant)?;
            let base = first.iter().find(|r| r.variant == b)?;
            (exp.variants[b].system != exp.variants[run.variant].system).then_some((run, base))
        })
        .collect()
}

/// The systems of the comparisons that cross systems (see [`crossings`]), baselines' first.
pub(crate) fn crossing_systems(result: &ExperimentResult) -> Vec<&str> {
    let exp = &result.experiment;
    let mut out: Vec<&str> = Vec::new();
    for (run, base) in crossings(result) {
        for v in [base.variant, run.variant] {
            let s = exp.variants[v].system.as_str();
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}

/// The outcomes that have no counterpart in the baseline's system, per variant compared
/// across systems, as `under variant, a and b; under its baseline, c` (empty when every
/// outcome is matched).
pub(crate) fn unmatched(result: &ExperimentResult) -> Vec<String> {
    let mut out = Vec::new();
    for (run, base_run) in crossings(result) {
        let base = &base_run.report;
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
        // "under Rank & File, in good order, unsteady and routing; under the plain 25% rules,
        // still in the line and retreating", not "in good order (its own), … (the
        // baseline's)" (writer trial 74).
        let heads = |keys: Vec<&str>| -> String {
            let h: Vec<String> = keys
                .into_iter()
                .map(|o| crate::labels::outcome(o).head)
                .collect();
            crate::labels::listed(&h.iter().map(String::as_str).collect::<Vec<_>>())
        };
        let exp = &result.experiment;
        let whose = |v: usize| format!("under {},", exp.variants[v].name);
        let mut parts = Vec::new();
        if !mine.is_empty() {
            parts.push(format!("{} {}", whose(run.variant), heads(mine)));
        }
        if !theirs.is_empty() {
            parts.push(format!("{} {}", whose(base_run.variant), heads(theirs)));
        }
        if !parts.is_empty() {
            out.push(parts.join("; "));
        }
    }
    out
}

/// Why a row of the answer's table shows a dash, in a reader's words: the rows whose rules lack
/// a state the baseline has, named ("Rank & File has no “retreating” state"). `dashed` names
/// the rows that show one. `None` when no row compared across systems does.
pub(crate) fn dash_words(result: &ExperimentResult, dashed: &[&str]) -> Option<String> {
    let exp = &result.experiment;
    let mut parts = Vec::new();
    // The table's columns: the headlines and the states units are still in at the last turn.
    let heads = Head::all(exp, &result.runs[0].report);
    let mut shown: Vec<String> = heads.iter().map(|h| h.key.clone()).collect();
    shown.extend(
        super::lead::still_heads(result, &heads)
            .into_iter()
            .map(|h| h.key),
    );
    for (run, base_run) in crossings(result) {
        let name = exp.variants[run.variant].name.as_str();
        if !dashed.iter().any(|d| d.starts_with(name)) {
            continue;
        }
        // Which of the baseline's states it lacks, by name (a bare "no such state" left a
        // reader asking why; a list of the states it has instead was 30 words under a table,
        // writer trials 74).
        let lacks: Vec<String> = base_run
            .report
            .outcomes
            .iter()
            .map(|b| b.outcome.as_str())
            .filter(|b| shown.iter().any(|k| k == b))
            .filter(|b| {
                !run.report
                    .outcomes
                    .iter()
                    .any(|o| same_outcome(b, &o.outcome))
            })
            .map(|b| format!("\u{201c}{}\u{201d}", crate::labels::outcome(b).head))
            .collect();
        parts.push(match &lacks[..] {
            [] => format!("{name} has no such state"),
            [one] => format!("{name} has no {one} state"),
            _ => format!(
                "{name} has no {} states",
                crate::labels::listed(&lacks.iter().map(String::as_str).collect::<Vec<_>>())
            ),
        });
    }
    (!parts.is_empty()).then(|| format!(" A dash: {}.", parts.join("; ")))
}

/// When compared variants use different rule systems: which outcomes are compared across them
/// and how they are matched, and which have no counterpart and are not compared.
pub(super) fn across_systems(result: &ExperimentResult) -> Option<Section> {
    let pairs = crossings(result);
    if pairs.is_empty() {
        return None;
    }
    let systems = crossing_systems(result);
    let exp = &result.experiment;
    let bases: Vec<usize> = pairs.iter().map(|(_, b)| b.variant).collect();
    let base_name = if bases.iter().all(|b| *b == bases[0]) {
        exp.variants[bases[0]].name.clone()
    } else {
        "its baseline's outcome".to_string()
    };
    let mut rows: Vec<Vec<String>> = Vec::new();
    for (run, base) in pairs {
        let v = &exp.variants[run.variant];
        let base_system = &exp.variants[base.variant].system;
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
                        crate::labels::system(base_system)
                    ),
                ]);
            }
        }
    }
    let mut tab = Tab::new(&[
        ("", false),
        (base_name.as_str(), false),
        ("its outcome", false),
        ("matched", false),
    ]);
    tab.rows = rows;
    Some(Section {
        printed: false,
        list: Vec::new(),
        closing: String::new(),
        closing_paper: String::new(),
        title: "Which ends are compared across rule systems".into(),
        intro: format!(
            "The variants use different rule systems ({}). An outcome is compared with the baseline's only where it names the same end (one system's \u{201c}removed\u{201d} and another's \u{201c}eliminated\u{201d} both mean the unit gone); each system reaches it by its own rules, so a difference measures the rules together, not one number. Outcomes with no counterpart are not compared. A measure (an average) is compared only where both systems count it.",
            systems
                .iter()
                .map(|s| crate::labels::system(s))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        tables: vec![tab],
    })
}
