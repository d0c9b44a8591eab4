//! `bench`: trials per second of every case, saved, listed, or judged against a baseline.

use clap::Args;

use morale_lab::error::{Error, Result};
use morale_lab::report::Format;

use crate::cli::flags::{int_in, invalid, sampler_of, seconds_in, threads_of};
use crate::cli::write::write_file;

#[derive(Debug, Args)]
pub(crate) struct BenchArgs {
    /// Seconds to spend on each case (at least; default 1).
    #[arg(long, value_name = "S")]
    pub(crate) seconds: Option<String>,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N")]
    pub(crate) threads: Option<String>,
    /// Only the cases whose name contains one of these words (e.g. rally, line).
    #[arg(value_name = "FILTER")]
    pub(crate) only: Vec<String>,
    /// Output: text (aligned tables) or json (one object: the build, the machine and its load,
    /// each case's command line, median with its interval, every run's figure, its reference
    /// and ratio; with --compare, every row of the comparison: each side's median, the ratio
    /// with its interval, the verdict and why, and the exit status).
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    pub(crate) format: String,
    /// The least timed runs of each case after its warm-up (default 10); more are run until the
    /// median's interval is within 5% of it, or 3× the time has passed. The figure is their
    /// median, with that interval.
    #[arg(long, value_name = "N")]
    pub(crate) repeats: Option<String>,
    /// Run the cases with this sampler only: table or dice (default: table, and dice too for a
    /// case with a hand-written loop or an engagement).
    #[arg(long, value_name = "SAMPLER")]
    pub(crate) sampler: Option<String>,
    /// KEY=VALUE laid over every case's settings (repeatable), as the scenario commands take
    /// it; a case so changed runs without its hand-written loop.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub(crate) set: Vec<String>,
    /// Turns, laid over every case's (the same as --set turns=N).
    #[arg(long, value_name = "N")]
    pub(crate) turns: Option<String>,
    /// Print each case's command line (what a run of it runs) and what it is held against;
    /// run nothing.
    #[arg(long)]
    pub(crate) list: bool,
    /// Also write the result as JSON to FILE (a baseline for --compare).
    #[arg(long, value_name = "FILE")]
    pub(crate) save: Option<std::path::PathBuf>,
    /// Compare with a saved result: run the baseline's cases the same way (its threads,
    /// trials a run, sampler and settings; its seconds and repeats unless given here) and give
    /// each case's speed new/old (the ratio of the two medians shown) with its interval and a
    /// verdict: faster, slower, same, or unreliable (either side's threads waited for a core
    /// more than 5% of their time, or the two shares differ by more than 2 points). Different
    /// threads, sampler or settings are refused (exit 2). Exit 1: a row reliably slower past
    /// --threshold; exit 3: none slower, but a row could not be judged. Several files are
    /// rounds of one baseline; filter words go before it (`bench rally --compare a.json`) and
    /// narrow it. A case stops at 12× the time asked however few its runs (a warning says so);
    /// a saved file whose figures disagree with the runs it recorded is refused (exit 2).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub(crate) compare: Vec<std::path::PathBuf>,
    /// With --compare: instead of running, compare with these saved results (rounds of the
    /// new build; as many rounds as the baseline's are paired round by round).
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "compare")]
    pub(crate) to: Vec<std::path::PathBuf>,
    /// With --compare: the smallest change called faster or slower, in percent (default 10).
    #[arg(long, value_name = "PCT", requires = "compare")]
    pub(crate) threshold: Option<String>,
    /// With --compare: judge only the ratios to the hand-written loops: fail (exit 1) when one
    /// falls by more than PCT percent, beyond the noise (CI's guard); exit 3 when one could not
    /// be judged.
    #[arg(long, value_name = "PCT", requires = "compare")]
    pub(crate) fail_on_drop: Option<String>,
    /// Instead: run every setting at the edges of the allowed ranges (each number at its
    /// minimum and maximum, all at their maximum, the largest units) at 20,000 trials with its
    /// exact solution, print the slowest, and fail if one takes longer than --limit.
    #[arg(long)]
    pub(crate) edges: bool,
    /// With --edges: the most seconds one setting may take.
    #[arg(long, value_name = "S", default_value = "60")]
    pub(crate) limit: String,
    /// With --edges: the most memory one setting may use, in MiB (peak resident set; measured
    /// where the system reports it, Linux).
    #[arg(long, value_name = "MIB", default_value = "1024")]
    pub(crate) memory_limit: String,
}

/// A percentage flag (`10` or `10%`) as a share, `default` where it is not given.
fn percent(what: &str, raw: &Option<String>, default: f64) -> Result<f64> {
    raw.as_ref().map_or(Ok(default), |r| {
        r.trim()
            .trim_end_matches('%')
            .parse::<f64>()
            .ok()
            .filter(|x| (0.0..100.0).contains(x))
            .map(|x| x / 100.0)
            .ok_or_else(|| invalid(what, r, "allowed: a percentage from 0 to 100, e.g. 10"))
    })
}

/// A saved bench result, read and checked.
fn read_result(flag: &str, p: &std::path::PathBuf) -> Result<crate::bench::Bench> {
    let name = p.display().to_string();
    let text = std::fs::read_to_string(p)
        .map_err(|e| invalid(flag, &name, &format!("a file that can be read ({e})")))?;
    crate::bench::compare::parse_as(&text, flag, &name)
}

/// Refused: a file given twice on one side (or the same result under two names).
fn each_round_once(a: &BenchArgs) -> Result<()> {
    // A file given twice on one side (or the same result under two names) would be pooled as
    // two rounds and narrow the intervals: a regression made of nothing. (A result compared
    // with itself, one on each side, is a fair check: it reads "same".)
    for side in [&a.compare, &a.to] {
        let mut seen: Vec<(std::path::PathBuf, Vec<u8>)> = Vec::new();
        for p in side {
            let bytes = std::fs::read(p).unwrap_or_default();
            let canon = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
            if let Some((first, _)) = seen
                .iter()
                .find(|(c, b)| *c == canon || (!b.is_empty() && *b == bytes))
            {
                return Err(invalid(
                    if std::ptr::eq(side, &a.to) {
                        "--to"
                    } else {
                        "--compare"
                    },
                    &p.display().to_string(),
                    &format!(
                        "each round once: it is the same result as {} (a round pooled twice would narrow the intervals)",
                        first.display()
                    ),
                ));
            }
            seen.push((canon, bytes));
        }
    }
    Ok(())
}

/// What to run: asked here, or the baseline's (`old`), or the defaults.
fn plan_of(a: &BenchArgs, old: &[crate::bench::Bench]) -> Result<crate::bench::Plan> {
    use crate::bench;
    let mut set = a.set.clone();
    if let Some(t) = &a.turns {
        set.push(format!("turns={}", int_in("--turns", t, 1, 100_000)?));
    }
    // Asked here, or the baseline's, or the defaults.
    let base = old.first().map(|b| &b.plan);
    Ok(bench::Plan {
        seconds: match (&a.seconds, base) {
            (Some(s), _) => seconds_in("--seconds", s, 0.01, 600.0)?,
            (None, Some(b)) => b.seconds,
            (None, None) => 1.0,
        },
        repeats: match (&a.repeats, base) {
            (Some(r), _) => int_in("--repeats", r, 2, 1000)? as usize,
            (None, Some(b)) => b.repeats.max(bench::REPEATS),
            (None, None) => bench::REPEATS,
        },
        // Against a baseline: the threads it ran (not "every core" of another machine).
        threads: match (threads_of(&a.threads)?, old.first()) {
            (Some(t), _) => Some(t),
            (None, Some(b)) => Some(b.machine.threads),
            (None, None) => None,
        },
        only: a.only.clone(),
        // Against a baseline: its cases and no others (a word given here narrows them).
        exact_names: old
            .first()
            .map(|b| {
                b.cases
                    .iter()
                    .map(|c| c.case.clone())
                    .chain(b.exact.iter().map(|e| e.case.clone()))
                    .filter(|n| a.only.is_empty() || a.only.iter().any(|w| n.contains(w.as_str())))
                    .collect()
            })
            .unwrap_or_default(),
        sampler: a
            .sampler
            .clone()
            .or_else(|| base.and_then(|b| b.sampler.clone())),
        set: if set.is_empty() {
            base.map(|b| b.set.clone()).unwrap_or_default()
        } else {
            set
        },
        // Against a baseline: the trials a run it ran, so that each run does the same work.
        trials: old
            .first()
            .map(|b| {
                b.cases
                    .iter()
                    .map(|c| bench::FixedTrials {
                        case: c.case.clone(),
                        sampler: c.sampler.clone(),
                        trials: c.trials,
                    })
                    .chain(b.references.iter().map(|r| bench::FixedTrials {
                        case: r.reference.clone(),
                        sampler: "plain loop".into(),
                        trials: r.trials,
                    }))
                    .collect()
            })
            .unwrap_or_default(),
    })
}

/// The exit status the verdicts give, for the JSON to say (as [`verdict`] returns it).
fn exit_of(c: &crate::bench::compare::Compared, drop: Option<f64>) -> i32 {
    match drop {
        Some(_) if c.guarded == 0 => 2,
        Some(_) if !c.dropped.is_empty() => 1,
        Some(_) if !c.unjudged_guarded.is_empty() => 3,
        Some(_) => 0,
        None if !c.regressions.is_empty() => 1,
        None if !c.unjudged.is_empty() => 3,
        None => 0,
    }
}

/// The comparison's outcome: its text (`out`), or the error that sets the exit status.
fn verdict(
    c: &crate::bench::compare::Compared,
    out: String,
    (threshold, drop): (f64, Option<f64>),
    format: Format,
) -> Result<String> {
    // Exit 1: a reliable regression past the threshold (with --fail-on-drop, a hand-loop ratio
    // fallen past its drop); exit 3: no regression, but a row could not be judged.
    match drop {
        Some(_) if c.guarded == 0 => Err(Error::Conflict(
            "--fail-on-drop: no case of the baseline has a hand-written loop to guard its speed by"
                .into(),
        )),
        Some(d) if !c.dropped.is_empty() => Err(Error::Regression {
            report: out,
            message: format!(
                "{} case(s) fell more than {:.0}% against their hand-written loop: {}",
                c.dropped.len(),
                d * 100.0,
                c.dropped.join("; ")
            ),
        }),
        Some(_) if !c.unjudged_guarded.is_empty() => Err(Error::Unjudged {
            report: out,
            message: format!(
                "could not judge {} hand-loop ratio(s) (exit 3): {}",
                c.unjudged_guarded.len(),
                c.unjudged_guarded.join("; ")
            ),
        }),
        // The guard passes: said in so many words, as the speed rows above may say "slower"
        // (CI's guard judges only the ratios to the hand loops, which a change of machine
        // speed does not move).
        Some(_) if format == Format::Json => Ok(out),
        Some(d) => Ok(format!(
            "{out}guard (--fail-on-drop {:.0}%): every ratio to a hand-written loop held within {:.0}% of the baseline's, beyond the noise: passes, exit 0{}\n",
            d * 100.0,
            d * 100.0,
            if c.regressions.is_empty() {
                String::new()
            } else {
                format!(
                    "; the {} row(s) called slower above are shown, not judged by the guard, which judges the hand-loop ratios only against its own limit",
                    c.regressions.len()
                )
            }
        )),
        None if !c.regressions.is_empty() => Err(Error::Regression {
            report: out,
            message: format!(
                "{} row(s) slower beyond the noise and the {:.0}% threshold: {}",
                c.regressions.len(),
                threshold * 100.0,
                c.regressions.join("; ")
            ),
        }),
        None if !c.unjudged.is_empty() => Err(Error::Unjudged {
            report: out,
            message: format!(
                "could not judge {} row(s) (exit 3): {}",
                c.unjudged.len(),
                c.unjudged.join("; ")
            ),
        }),
        None => Ok(out),
    }
}

/// `bench`: measure (or list, or compare with a saved result). With `--format json`, a refusal
/// (exit 2) also gives its JSON object on standard output, as every other outcome does.
pub(crate) fn run_bench(a: BenchArgs) -> Result<String> {
    let json = a.format.trim().eq_ignore_ascii_case("json");
    if json {
        // Interrupted (Ctrl-C, a CI job's time limit), it still ends with an object.
        let _ = crate::cli::ON_INTERRUPT.set(exit_json(
            "bench-interrupted",
            "interrupted: the run was stopped before it finished; nothing was written",
            130,
        ));
    }
    bench_steps(a).map_err(|e| match e {
        e if json && e.is_bad_input() => Error::Refused {
            report: refusal_json(&e),
            error: Box::new(e),
        },
        e => e,
    })
}

/// The steps of `bench`, in the order of their checks.
fn bench_steps(a: BenchArgs) -> Result<String> {
    if a.edges {
        return crate::bench::edges(
            threads_of(&a.threads)?,
            seconds_in("--limit", &a.limit, 0.01, 3600.0)?,
            int_in("--memory-limit", &a.memory_limit, 16, 1 << 20)?,
            &a.only,
        );
    }
    use crate::bench::{self, compare};
    let format = Format::parse(&a.format)
        .filter(|f| matches!(f, Format::Text | Format::Json))
        .ok_or_else(|| invalid("--format", &a.format, "allowed: text, json"))?;
    let threshold = percent("--threshold", &a.threshold, 0.10)?;
    let drop = a
        .fail_on_drop
        .as_ref()
        .map(|_| percent("--fail-on-drop", &a.fail_on_drop, 0.0))
        .transpose()?;
    if let Some(s) = &a.sampler {
        sampler_of(s)?;
    }
    each_round_once(&a)?;
    let mut old = a
        .compare
        .iter()
        .map(|p| read_result("--compare", p))
        .collect::<Result<Vec<_>>>()?;
    // Filter words narrow the baseline to the cases asked for, so the rest are not listed as
    // "in the baseline only" (a hand loop goes by its case's name, which it contains).
    if !a.only.is_empty() {
        let asked = |n: &str| a.only.iter().any(|w| n.contains(w.as_str()));
        for b in &mut old {
            b.cases.retain(|c| asked(&c.case));
            b.references.retain(|r| asked(&r.case));
            b.exact.retain(|e| asked(&e.case));
        }
    }
    let plan = plan_of(&a, &old)?;
    if !old.is_empty() && plan.exact_names.is_empty() {
        return Err(invalid(
            "--compare",
            &a.compare[0].display().to_string(),
            "a saved result with Monte Carlo or exact cases (matching the words given)",
        ));
    }
    if a.list {
        return bench::list(&plan);
    }
    // Against a baseline, run now: refused before anything runs when the work would differ.
    if let (Some(b), true) = (old.first(), a.to.is_empty()) {
        let threads = plan.threads.unwrap_or_else(rayon::current_num_threads);
        if let Some(d) = compare::differs(b, threads, &plan) {
            return Err(Error::Conflict(format!(
                "bench --compare: cannot compare: this run would differ from {} ({d}); run it as the baseline ran, or save a new baseline with these settings",
                a.compare[0].display()
            )));
        }
    }
    if let Some(path) = &a.save {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        if dir.is_some_and(|d| !d.is_dir()) || path.is_dir() {
            return Err(invalid(
                "--save",
                &path.display().to_string(),
                "a file in a folder that exists",
            ));
        }
    }
    let new = if a.to.is_empty() {
        let b = bench::run(&plan)?;
        if let Some(path) = &a.save {
            write_file(path, bench::json(&b)?.as_bytes())?;
            // A baseline measured on a busy machine is saved (it is what was measured) but
            // said to be one: every comparison against it would be judged unreliable.
            let busy = bench::contended(&b);
            if old.is_empty() && !busy.is_empty() {
                return Err(Error::Unjudged {
                    report: match format {
                        Format::Json => bench::json(&b)?,
                        _ => bench::render(&b),
                    },
                    message: format!(
                        "saved {}, but the machine was busy while it ran (threads waited for a core more than {:.0}% of their time in {}): a comparison against it will be judged unreliable; save it again on a quiet machine (exit 3)",
                        path.display(),
                        bench::CONTENDED * 100.0,
                        busy.join(", ")
                    ),
                });
            }
        }
        vec![b]
    } else {
        a.to.iter()
            .map(|p| read_result("--to", p))
            .collect::<Result<Vec<_>>>()?
    };
    if old.is_empty() {
        return match format {
            Format::Json => bench::json(&new[0]),
            _ => Ok(bench::render(&new[0])),
        };
    }
    let names = |v: &[std::path::PathBuf]| -> Vec<String> {
        v.iter().map(|p| p.display().to_string()).collect()
    };
    let c = compare::compare(
        &old,
        &new,
        (&names(&a.compare), &names(&a.to)),
        threshold,
        drop,
    )?;
    let exit = exit_of(&c, drop);
    let out = match format {
        Format::Json => compare_json(
            &c,
            (&names(&a.compare), &names(&a.to)),
            threshold,
            drop,
            exit,
        )?,
        _ => c.text.clone(),
    };
    verdict(&c, out, (threshold, drop), format)
}

/// What an exit status of `bench` means, in words (for the JSON).
fn exit_meaning(exit: i32) -> &'static str {
    match exit {
        0 => "judged: nothing slower beyond the noise and the threshold",
        1 => {
            "a regression: a row reliably slower past the threshold (or, with --fail-on-drop, a hand-loop ratio fallen past it)"
        }
        2 => "refused: bad input, or the two sides ran different work",
        3 => "could not judge: no row slower, but a row could not be judged (see unjudged_causes)",
        130 => "interrupted: stopped before it finished (Ctrl-C or a signal); nothing was judged",
        _ => "a failure",
    }
}

/// A refusal as JSON (`--format json`), so a script reading standard output gets an object
/// on every exit: the error's line, the flag or file it names, and the exit status.
fn refusal_json(e: &Error) -> String {
    exit_json("bench-refused", &e.to_string(), 2)
}

/// The object a script reads on an exit without a result: its kind, the error's line and the
/// exit status with its meaning.
fn exit_json(kind: &str, error: &str, exit: i32) -> String {
    let doc = serde_json::json!({
        "schema": 1,
        "kind": kind,
        "error": error,
        "exit": exit,
        "exit_means": exit_meaning(exit),
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}

/// `bench --compare --format json`: the comparison as data, for a CI script or a dashboard:
/// the files on each side, the threshold and guard, every row of the tables (each side's
/// median in its unit, the ratio judged with its interval, the verdict and why), the notes,
/// what was in one side only, the rows that fell or could not be judged, and the exit status
/// the command gives.
fn compare_json(
    c: &crate::bench::compare::Compared,
    names: (&[String], &[String]),
    threshold: f64,
    drop: Option<f64>,
    exit: i32,
) -> Result<String> {
    let doc = serde_json::json!({
        "schema": 1,
        "kind": "bench-compare",
        "baseline": names.0,
        "new": if names.1.is_empty() { vec!["this run".to_string()] } else { names.1.to_vec() },
        "threshold": threshold,
        "fail_on_drop": drop,
        "rows": c.rows,
        "notes": c.notes,
        "not_compared": c.not_compared,
        "regressions": c.regressions,
        "unjudged": c.unjudged,
        "dropped": c.dropped,
        // Why rows could not be judged, counted by kind: contention on a side (`busy`) or a
        // side with too few timed runs (`too_few_runs`), so exit 3 can be told apart.
        "unjudged_causes": {
            "busy": c.rows.iter().filter(|r| r.cause == Some("busy")).count(),
            "too_few_runs": c.rows.iter().filter(|r| r.cause == Some("too_few_runs")).count(),
        },
        "exit": exit,
        "exit_means": exit_meaning(exit),
    });
    let mut text = serde_json::to_string_pretty(&doc)
        .map_err(|e| Error::Conflict(format!("could not write the comparison as JSON: {e}")))?;
    text.push('\n');
    Ok(text)
}
