//! A bench result as text (the table, its header and its warnings) and as JSON.

use super::*;

/// What a reader should know before trusting a bench's figures, each measured.
pub(super) fn warnings(b: &Bench) -> Vec<String> {
    let m = &b.machine;
    let mut out = Vec::new();
    if m.threads > m.cores {
        out.push(format!(
            "{} threads on {} logical cores: the threads take turns on the cores, so the figures measure the scheduler as well as the loops",
            m.threads, m.cores
        ));
    }
    let short: Vec<String> = b
        .cases
        .iter()
        .filter(|c| c.trials as f64 / c.per_second.median < SHORTEST_RUN)
        .map(|c| {
            format!(
                "{} ({:.0} ms)",
                c.case,
                1e3 * c.trials as f64 / c.per_second.median
            )
        })
        .collect();
    if !short.is_empty() {
        out.push(format!(
            "{} case(s) timed in runs shorter than {:.0} ms, where the timer and the start of the threads weigh as much as the loop: {}; give more --seconds (at least {:.2} for {} repeats)",
            short.len(),
            SHORTEST_RUN * 1e3,
            short.join(", "),
            SHORTEST_RUN * b.repeats as f64 * 2.0,
            b.repeats
        ));
    }
    let cut: Vec<String> = b
        .cases
        .iter()
        .map(|c| {
            (
                format!("{} ({})", c.case, c.sampler),
                c.per_second.samples.len(),
            )
        })
        .chain(b.exact.iter().map(|e| (e.case.clone(), e.ms.samples.len())))
        .filter(|(_, n)| *n < b.repeats)
        .map(|(name, n)| format!("{name}: {n} of {}", b.repeats))
        .collect();
    if !cut.is_empty() {
        out.push(format!(
            "{} case(s) stopped at the time limit ({:.0}× the time asked) before their {} runs: the machine was too slow or busy, and their figures rest on fewer runs: {}",
            cut.len(),
            LIMIT * CAP,
            b.repeats,
            cut.join("; ")
        ));
    }
    let waited = contended(b);
    if !waited.is_empty() {
        out.push(format!(
            "the machine was busy: the threads waited for a core more than {:.0}% of the time in {}",
            CONTENDED * 100.0,
            waited.join(", ")
        ));
    }
    if let Some([one, ..]) = m.load_before
        && one > 0.5 * m.cores as f64
    {
        out.push(format!(
            "the load average was {one:.2} on {} logical cores when the bench started: other work was running",
            m.cores
        ));
    }
    let noisy = b.cases.iter().filter(|c| c.per_second.noisy).count()
        + b.references.iter().filter(|r| r.per_second.noisy).count()
        + b.exact.iter().filter(|e| e.ms.noisy).count()
        + b.api.iter().filter(|r| r.ms.noisy).count()
        + b.mechanic
            .iter()
            .filter(|r| r.per_second_file.noisy || r.per_second_built_in.noisy)
            .count();
    if noisy > 0 {
        out.push(format!(
            "{noisy} figure(s) marked noisy: their median's interval is wider than {:.0}% of it; run again, or with more --seconds or --repeats",
            b.noise_bound * 100.0
        ));
    }
    let mut outlying = Vec::new();
    let mut note = |name: String, s: &Spread| {
        if !s.outliers.is_empty() {
            let runs: Vec<String> = s.outliers.iter().map(|i| (i + 1).to_string()).collect();
            outlying.push(format!(
                "{name} run {} of {}",
                runs.join(", "),
                s.samples.len()
            ));
        }
    };
    for c in &b.cases {
        note(format!("{} ({})", c.case, c.sampler), &c.per_second);
    }
    for r in &b.references {
        note(r.reference.clone(), &r.per_second);
    }
    for e in &b.exact {
        note(e.case.clone(), &e.ms);
    }
    if !outlying.is_empty() {
        out.push(format!(
            "outliers beyond Tukey's fences ({FENCE} interquartile ranges outside the quartiles), counted in the median but worth a look: {}",
            outlying.join("; ")
        ));
    }
    let again: Vec<&str> = b
        .cases
        .iter()
        .filter(|c| c.recalibrated)
        .map(|c| c.case.as_str())
        .collect();
    if !again.is_empty() {
        out.push(format!(
            "calibrated again (a stall had made the first calibration's runs too short; the runs before were dropped): {}",
            again.join(", ")
        ));
    }
    out
}

/// A rate in words: `514.2 M`, `775.3 k`.
pub(super) fn rate_text(r: f64) -> String {
    if r >= 1e6 {
        format!("{:.1} M", r / 1e6)
    } else {
        format!("{:.1} k", r / 1e3)
    }
}

/// Milliseconds to three significant figures at least two decimals: `12.35`, `0.0312`.
pub(super) fn ms_text(ms: f64) -> String {
    let decimals = if ms >= 1.0 || ms <= 0.0 {
        2
    } else {
        (2 - ms.log10().floor() as i32).max(2) as usize
    };
    format!("{ms:.decimals$}")
}

/// What a reader should see beside a figure: ` noisy`, ` 2 outliers`.
pub(super) fn flags_text(s: &Spread) -> String {
    let mut out = String::new();
    if s.noisy {
        out += " noisy";
    }
    match s.outliers.len() {
        0 => {}
        1 => out += " 1 outlier",
        n => out += &format!(" {n} outliers"),
    }
    out
}

/// Median of milliseconds and its interval.
pub(super) fn ms_spread_text(s: &Spread) -> String {
    format!(
        "{} ({}–{}){}",
        ms_text(s.median),
        ms_text(s.ci_low),
        ms_text(s.ci_high),
        flags_text(s)
    )
}

/// Median of rates and its interval.
pub(super) fn spread_text(s: &Spread) -> String {
    format!(
        "{} ({}–{}){}",
        rate_text(s.median),
        rate_text(s.ci_low).trim_end_matches([' ', 'M', 'k']),
        rate_text(s.ci_high),
        flags_text(s)
    )
}

/// A ratio's median and its interval: `3.19× (3.10–3.25)`.
pub(super) fn ratio_text(s: &Spread) -> String {
    format!(
        "{:.2}× ({:.2}–{:.2}){}",
        s.median,
        s.ci_low,
        s.ci_high,
        flags_text(s)
    )
}

/// The bench's provenance in two lines.
pub(super) fn header(b: &Bench) -> String {
    let m = &b.machine;
    let load = |l: Option<[f64; 3]>| l.map_or_else(|| "?".into(), |l| format!("{:.2}", l[0]));
    let flags = if m.cpu_flags.is_empty() {
        String::new()
    } else {
        format!(" ({})", m.cpu_flags.join(" "))
    };
    format!(
        "morale-lab {} bench · {} · {} · {} · {}\n{}{flags} · {} logical cores · {} threads used · {} · load {} → {}\n",
        b.build.version,
        b.build.short(),
        b.build.profile,
        b.build.rustc,
        b.date,
        m.cpu,
        m.cores,
        m.threads,
        m.os,
        load(m.load_before),
        load(m.load_after),
    )
}

/// The cases whose threads waited for a core more than [`CONTENDED`] of their time, each with
/// its sampler and share (`case (table) 38%`): the machine was busy while they ran.
pub fn contended(b: &Bench) -> Vec<String> {
    b.cases
        .iter()
        .filter_map(|c| c.cpu.filter(|u| u.waited > CONTENDED).map(|u| (c, u)))
        .map(|(c, u)| format!("{} ({}) {:.0}%", c.case, c.sampler, u.waited * 100.0))
        .chain(
            b.references
                .iter()
                .filter_map(|r| r.cpu.filter(|u| u.waited > CONTENDED).map(|u| (r, u)))
                .map(|(r, u)| format!("{} {:.0}%", r.reference, u.waited * 100.0)),
        )
        .collect()
}

/// The bench as aligned tables.
pub fn render(b: &Bench) -> String {
    let mut out = header(b);
    out += &format!(
        "each figure: the median of at least {} timed runs after warm-up (calibration runs not counted), run until its interval is within {:.0}% of it or {CAP}× the least time ({} s a series); in brackets the median's 95% interval (order statistics; with fewer than 6 runs, min–max)\n",
        b.repeats,
        SETTLED * 100.0,
        b.seconds_a_case
    );
    if !b.cases.is_empty() {
        let mut rows = vec![vec![
            "case".to_string(),
            "sampler".into(),
            "setup ms".into(),
            "trials a run".into(),
            "runs".into(),
            "per second (interval)".into(),
            "cpu (waited)".into(),
            "× reference (interval)".into(),
        ]];
        for (i, c) in b.cases.iter().enumerate() {
            rows.push(vec![
                c.case.clone(),
                c.sampler.clone(),
                format!("{:.2}", c.setup_ms),
                morale_lab::report::thousands(c.trials),
                c.per_second.samples.len().to_string(),
                spread_text(&c.per_second),
                c.cpu.map_or_else(
                    || "—".into(),
                    |u| format!("{:.0}% ({:.1}%)", u.busy * 100.0, u.waited * 100.0),
                ),
                c.to_reference
                    .as_ref()
                    .map_or_else(|| "—".into(), ratio_text),
            ]);
            // A case's reference right below its last row.
            let last = b.cases.get(i + 1).is_none_or(|next| next.case != c.case);
            for r in b.references.iter().filter(|r| last && r.case == c.case) {
                rows.push(vec![
                    format!("  {}", r.reference),
                    "plain loop".into(),
                    "—".into(),
                    morale_lab::report::thousands(r.trials),
                    r.per_second.samples.len().to_string(),
                    spread_text(&r.per_second),
                    r.cpu.map_or_else(
                        || "—".into(),
                        |u| format!("{:.0}% ({:.1}%)", u.busy * 100.0, u.waited * 100.0),
                    ),
                    "1.00×".into(),
                ]);
            }
        }
        out += "\n";
        out += &align(&rows);
    }
    if !b.exact.is_empty() {
        let mut rows = vec![vec![
            "exact solution".to_string(),
            "batches × solves".into(),
            "ms a solve (interval)".into(),
        ]];
        for e in &b.exact {
            rows.push(vec![
                e.case.clone(),
                format!("{} × {}", e.ms.samples.len(), e.solves_a_run),
                ms_spread_text(&e.ms),
            ]);
        }
        out += "\n";
        out += &align(&rows);
    }
    if let Some(why) = &b.mechanic_not_run {
        out += &format!(
            "\nmechanic files: not run ({why}; run from the repository, where mechanics/ is)\n"
        );
    } else if !b.mechanic.is_empty() {
        let mut rows = vec![vec![
            "mechanic file against built-in".to_string(),
            "setup ms (file | built-in)".into(),
            "per second (file | built-in)".into(),
            "file / built-in".into(),
        ]];
        for r in &b.mechanic {
            rows.push(vec![
                r.case.clone(),
                format!("{:.1} | {:.1}", r.setup_ms_file, r.setup_ms_built_in),
                format!(
                    "{} | {}",
                    spread_text(&r.per_second_file),
                    spread_text(&r.per_second_built_in)
                ),
                format!("{:.2}", r.ratio),
            ]);
        }
        out += "\n";
        out += &align(&rows);
    }
    out += "\n(setup: a fresh job's first, empty run with that sampler: compiling what it needs from the rules code and starting the threads; per second: trials, or battles for engagement and line, Monte Carlo only, setup and the exact solution's time excluded; cpu: the processor time the threads had over the run's wall time, and in brackets the time they waited for a core; × reference: the median of each round's rate over that of a plain hand-written loop of the same rules run in the same round (alternately, in this process, on the same threads; so not the ratio of the two medians shown, as pairing within a round cancels a change of the machine's speed between rounds), its outcomes checked on every run against the exact solution, or for a battle against the case's own Monte Carlo run beside it — bench --compare compares this same median; exact: a solve and its report; noisy: the interval is wider than 10% of the median; outliers: runs beyond Tukey's fences, counted; bench --list gives each case's command line, --format json every run's figure, wall and processor time)\n";
    if !b.api.is_empty() {
        let mut rows = vec![vec![
            "explorer over loopback HTTP, nothing kept".to_string(),
            "requests".into(),
            "median ms (interval)".into(),
            "p95 ms".into(),
        ]];
        for r in &b.api {
            rows.push(vec![
                r.case.clone(),
                r.requests.to_string(),
                ms_spread_text(&r.ms),
                format!("{:.2}", r.p95_ms),
            ]);
        }
        out += "\n";
        out += &align(&rows);
    }
    for w in &b.warnings {
        out += &format!("warning: {w}\n");
    }
    out
}

/// The bench as JSON (what `--save` writes).
///
/// # Errors
/// Never in practice (the figures are finite numbers and text).
pub fn json(b: &Bench) -> Result<String> {
    serde_json::to_string_pretty(b)
        .map(|s| s + "\n")
        .map_err(|e| Error::Conflict(e.to_string()))
}
