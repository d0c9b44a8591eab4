//! `results.json` (everything but timings, the same to the byte on every run) and
//! `timing.json` (the timings).

use super::*;

/// `results.json`: version, command, seed, trials, threads, the experiment, every run's
/// report (timings zeroed) and the comparisons; a balance and play solved where asked.
pub(super) fn results(c: &Context) -> Vec<u8> {
    let mut stable = c.result.clone();
    for r in &mut stable.runs {
        r.report.elapsed_s = 0.0;
        r.report.trials_per_s = 0.0;
    }
    let doc = json!({
        "version": stable.version,
        "command": c.command,
        "seed": stable.experiment.seed,
        "trials": stable.experiment.trials,
        "threads": stable.threads,
        "experiment": stable.experiment,
        "runs": stable.runs,
        "comparisons": c.comparisons,
    });
    // With a [balance] section, what number makes each variant fair (absent otherwise, so a
    // report without one keeps its bytes).
    let mut doc = doc;
    if !stable.balance.is_empty()
        && let Some(map) = doc.as_object_mut()
    {
        map.insert("balance".into(), json!(stable.balance));
    }
    // With a variant that plays its best: its play solved (the rule of thumb, the best choice
    // by state), likewise absent otherwise.
    if !stable.play.is_empty()
        && let Some(map) = doc.as_object_mut()
    {
        map.insert("play".into(), json!(stable.play));
    }
    pretty(&doc)
}

/// `timing.json`: each run's variant, point, seconds and trials per second; for a merge of
/// shards, the seconds are the parts' summed (the machine time of the run, not its wall time),
/// and each entry says over how many parts.
pub(super) fn timing(result: &ExperimentResult) -> Vec<u8> {
    let timing: Vec<_> = result
        .runs
        .iter()
        .map(|r| match result.timing_parts {
            None => json!({"variant": r.variant, "point": r.point, "elapsed_s": r.report.elapsed_s, "trials_per_s": r.report.trials_per_s}),
            Some(parts) => json!({"variant": r.variant, "point": r.point, "elapsed_s": r.report.elapsed_s, "trials_per_s": r.report.trials_per_s, "elapsed_is": format!("the sum of {parts} shards' times")}),
        })
        .collect();
    pretty(&serde_json::Value::Array(timing))
}

fn pretty(v: &serde_json::Value) -> Vec<u8> {
    (serde_json::to_string_pretty(v).expect("a JSON value serialises") + "\n").into_bytes()
}
