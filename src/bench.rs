//! `morale-lab bench`: the README's benchmark cases on the user's machine, in trials (battles)
//! per second, and the exact solvers' times at the largest realistic units, through the same
//! builders as the command line (the cases are the library's, which criterion also runs).

use std::time::Instant;

use morale_lab::RunOptions;
use morale_lab::engine::Control;
use morale_lab::error::{Error, Result};
use morale_lab::report::align;
use morale_lab::system::cases::{Case, cases, exact_cases};

/// A run of `trials` trials from seed 1 on `threads` workers with the table sampler.
fn options(trials: u64, threads: Option<usize>, exact_only: bool) -> RunOptions {
    RunOptions::new(trials, 1)
        .threads(threads)
        .exact_only(exact_only)
}

/// Run every case (or those matching `only`) for at least `seconds` each and print a table.
pub fn run(seconds: f64, threads: Option<usize>, only: &[String]) -> Result<String> {
    let bad = |what: &str, value: &str, allowed: &str| Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed: allowed.into(),
    };
    let pick = |list: Vec<Case>| -> Vec<Case> {
        list.into_iter()
            .filter(|c| only.is_empty() || only.iter().any(|w| c.name.contains(w.as_str())))
            .collect()
    };
    let (cases, exact) = (pick(cases()), pick(exact_cases()));
    let files: Vec<&MechanicCase> = MECHANIC_CASES
        .iter()
        .filter(|c| only.is_empty() || only.iter().any(|w| c.name.contains(w.as_str())))
        .collect();
    if cases.is_empty() && exact.is_empty() && files.is_empty() {
        return Err(bad(
            "FILTER",
            &only.join(" "),
            "no case matches; words such as rally, under-fire, melee, line, exact, mechanic, RF, EF, LW",
        ));
    }
    let n_threads = threads.unwrap_or_else(rayon::current_num_threads);
    let mut out = format!(
        "morale-lab {} bench · {n_threads} threads · at least {seconds} s a case\n\n",
        morale_lab::VERSION
    );
    let mut rows = vec![[
        "case".to_string(),
        "sampler".into(),
        "setup ms".into(),
        "trials".into(),
        "per second".into(),
    ]];
    for case in &cases {
        let job = case.job()?;
        // The one-time set-up a run pays before its first trial: the tables compiled from the
        // rules code (kept in the job for the runs below) and the thread pool.
        let setup = {
            let opts = options(1, threads, false);
            let started = Instant::now();
            job.tally(&opts, 0..0, &Control::new())?;
            started.elapsed().as_secs_f64()
        };
        // Double the trials until one run takes at least the time asked for.
        let mut trials = 1u64 << 16;
        loop {
            let opts = options(trials, threads, false);
            let started = Instant::now();
            let report = job.run(&opts, &Control::new())?;
            let mc = started.elapsed().as_secs_f64();
            if mc >= seconds || trials >= 1 << 40 {
                rows.push([
                    case.name.to_string(),
                    report.sampler.unwrap_or_default(),
                    format!("{:.2}", setup * 1e3),
                    morale_lab::report::thousands(trials),
                    format!("{:.2} M", report.trials_per_s / 1e6),
                ]);
                break;
            }
            trials *= 2;
        }
    }
    if cases.is_empty() {
        rows.clear();
    }
    out += &align(&rows.iter().map(|r| r.to_vec()).collect::<Vec<_>>());
    if !exact.is_empty() {
        let mut rows = vec![["exact solution".to_string(), "ms".into()]];
        for case in exact {
            let job = case.job()?;
            let opts = options(1, threads, true);
            // The best of a few runs, each at least as long as asked for in all.
            let mut best = f64::INFINITY;
            let started = Instant::now();
            while best.is_infinite() || started.elapsed().as_secs_f64() < seconds {
                let t = Instant::now();
                job.run(&opts, &Control::new())?;
                best = best.min(t.elapsed().as_secs_f64());
            }
            rows.push([case.name.to_string(), format!("{:.1}", best * 1e3)]);
        }
        out += "\n";
        out += &align(&rows.iter().map(|r| r.to_vec()).collect::<Vec<_>>());
    }
    if !files.is_empty() {
        out += "\n";
        out += &mechanic_table(&files, seconds, threads)?;
    }
    out += "\n(setup: compiling the tables and starting the threads, once per job; per second: trials, or battles for engagement and line, Monte Carlo only, setup and the exact solution's time excluded; exact: the best time of a solve and its report)\n";
    Ok(out)
}

/// A case run by a built-in system and by the mechanic file that writes the same rules.
struct MechanicCase {
    name: &'static str,
    built_in: &'static str,
    file: &'static str,
    scenario: morale_lab::Scenario,
    set: &'static [&'static str],
    options: &'static [&'static str],
}

/// The mechanic files' cases: the same setting by the built-in system and by its file.
const MECHANIC_CASES: &[MechanicCase] = &[
    MechanicCase {
        name: "mechanic rally RF veteran routing",
        built_in: "rank-and-file",
        file: "mechanics/rank-and-file.rhai",
        scenario: morale_lab::Scenario::Rally,
        set: &["class=veteran", "stands=7", "lost=2", "state=routing"],
        options: &[],
    },
    MechanicCase {
        name: "mechanic under-fire RF regular 12 stands 24 turns",
        built_in: "rank-and-file",
        file: "mechanics/rank-and-file.rhai",
        scenario: morale_lab::Scenario::UnderFire,
        set: &["class=regular", "stands=12", "turns=24"],
        options: &[],
    },
    MechanicCase {
        name: "mechanic under-fire EF regular 12 turns retreat-on-fire return-roll",
        built_in: "effectiveness",
        file: "mechanics/effectiveness.rhai",
        scenario: morale_lab::Scenario::UnderFire,
        set: &["class=regular", "turns=12"],
        options: &["retreat-on-fire", "return-roll"],
    },
];

/// Each mechanic case by the built-in system and by its file, side by side: set-up (the script
/// compiled, the tables built, the exact solution) and Monte Carlo trials per second, with the
/// file's ratio to the built-in. The files are read from `mechanics/` (the folder run from, or
/// the source tree's).
fn mechanic_table(cases: &[&MechanicCase], seconds: f64, threads: Option<usize>) -> Result<String> {
    let read = |p: &str| -> Result<String> {
        let here = std::path::Path::new(p);
        let there = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(p);
        std::fs::read_to_string(here)
            .or_else(|_| std::fs::read_to_string(&there))
            .map_err(|e| Error::Conflict(format!("{p}: {e}")))
    };
    let mut rows = vec![vec![
        "mechanic file against built-in".to_string(),
        "setup ms (file | built-in)".into(),
        "per second (file | built-in)".into(),
        "file / built-in".into(),
    ]];
    for case in cases {
        if let Err(e) = morale_lab::mechanic::load_with(case.file, &mut |p| read(p)) {
            return Ok(format!(
                "mechanic files: not run ({e}; run from the repository, where mechanics/ is)\n"
            ));
        }
        let inputs: Vec<morale_lab::params::Input> = case
            .set
            .iter()
            .map(|p| morale_lab::params::Input::parse_set(p))
            .collect::<Result<_>>()?;
        let rules: Vec<String> = case.options.iter().map(|s| s.to_string()).collect();
        let mut measured = Vec::new();
        for system in [case.file, case.built_in] {
            // Set-up: a fresh job, its exact solution and its compiled tables, before any trial.
            let started = Instant::now();
            let job = morale_lab::system::build(system, case.scenario, &inputs, &rules)?;
            job.run(&options(1, threads, true), &Control::new())?;
            job.tally(&options(1, threads, false), 0..0, &Control::new())?;
            let setup = started.elapsed().as_secs_f64();
            let mut trials = 1u64 << 16;
            let rate = loop {
                let opts = options(trials, threads, false);
                let t = Instant::now();
                let report = job.run(&opts, &Control::new())?;
                if t.elapsed().as_secs_f64() >= seconds || trials >= 1 << 40 {
                    break report.trials_per_s;
                }
                trials *= 2;
            };
            measured.push((setup, rate));
        }
        let (file, built) = (measured[0], measured[1]);
        rows.push(vec![
            case.name.to_string(),
            format!("{:.1} | {:.1}", file.0 * 1e3, built.0 * 1e3),
            format!("{:.1} M | {:.1} M", file.1 / 1e6, built.1 / 1e6),
            format!("{:.2}", file.1 / built.1),
        ]);
    }
    Ok(align(&rows))
}

/// The peak resident memory of this process since the last [`reset_peak_memory`], in bytes,
/// where the system reports it (Linux: `VmHWM` in `/proc/self/status`).
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Start a new peak for [`peak_memory`] (Linux: writing 5 to `/proc/self/clear_refs` resets
/// `VmHWM` to the memory resident now). Returns false where that cannot be done, and then the
/// peak is the process's since it started: still an upper bound for each setting.
fn reset_peak_memory() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// `bench --edges`: every edge of the allowed ranges (or those whose system, scenario or label
/// contains a word of `only`) at 20,000 trials with its exact solution, timed, with its peak
/// memory where the system reports it. Prints the slowest, the hungriest and every refusal's
/// count.
///
/// # Errors
/// A setting that took longer than `limit` seconds, or used more than `memory_limit_mib` MiB,
/// or failed other than by refusing its input.
pub fn edges(
    threads: Option<usize>,
    limit: f64,
    memory_limit_mib: i64,
    only: &[String],
) -> Result<String> {
    let all = morale_lab::system::edges::edges();
    let picked: Vec<_> = all
        .iter()
        .filter(|e| {
            only.is_empty()
                || only.iter().any(|w| {
                    e.system.contains(w.as_str())
                        || e.scenario.name().contains(w.as_str())
                        || e.label.contains(w.as_str())
                })
        })
        .collect();
    let control = Control::new();
    let mut times: Vec<(f64, String)> = Vec::new();
    let mut memory: Vec<(u64, String)> = Vec::new();
    let (mut refused, mut failed) = (0, Vec::new());
    let mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
    for e in &picked {
        reset_peak_memory();
        let t0 = Instant::now();
        let job = morale_lab::system::build(e.system, e.scenario, &e.inputs(), &[]);
        let outcome = job.map(|j| j.run(&options(20_000, threads, false), &control));
        let secs = t0.elapsed().as_secs_f64();
        if let Some(peak) = peak_memory() {
            if mib(peak) > memory_limit_mib as f64 {
                failed.push(format!(
                    "{} used {:.0} MiB (limit {memory_limit_mib} MiB)",
                    e.command(),
                    mib(peak)
                ));
            }
            memory.push((peak, e.command()));
        }
        match outcome {
            // Refused: when built, or when run (a melee that cannot be relied on to end).
            Err(_) | Ok(Err(_)) => refused += 1,
            Ok(Ok(_)) => times.push((secs, e.command())),
        }
        if secs > limit {
            failed.push(format!(
                "{} took {secs:.1} s (limit {limit} s)",
                e.command()
            ));
        }
    }
    times.sort_by(|a, b| b.0.total_cmp(&a.0));
    let total: f64 = times.iter().map(|t| t.0).sum();
    let mut out = format!(
        "morale-lab {} bench --edges · {} settings: {} ran in {total:.1} s, {refused} refused (exit 2 on the command line)\n\nslowest (s, at 20,000 trials with the exact solution):\n",
        morale_lab::VERSION,
        picked.len(),
        times.len()
    );
    for (secs, command) in times.iter().take(12) {
        out += &format!("{secs:8.2}  {command}\n");
    }
    memory.sort_by_key(|m| std::cmp::Reverse(m.0));
    match memory.first() {
        None => out += "\npeak memory: not measured (this system does not report it)\n",
        Some(_) => {
            out += &format!(
                "\nlargest peak memory (MiB, resident, the whole process; limit {memory_limit_mib}):\n"
            );
            for (bytes, command) in memory.iter().take(5) {
                out += &format!("{:8.1}  {command}\n", mib(*bytes));
            }
        }
    }
    if !failed.is_empty() {
        return Err(Error::Conflict(format!(
            "{} edge setting(s) failed: {}",
            failed.len(),
            failed.join("; ")
        )));
    }
    Ok(out)
}
