//! `morale-lab bench`: the benchmark cases of docs/PERFORMANCE.md on the user's machine, in
//! trials (battles) per second, each the median of several runs with their spread, beside a
//! plain hand-written loop of the same rules run in the same process (its ratio), with the
//! machine named; and the exact solvers' times at the largest realistic units, through the same
//! builders as the command line (the cases are the library's, which criterion also runs). Text
//! or JSON.

use std::time::Instant;

use serde::Serialize;

use morale_lab::engine::{Control, RunSpec};
use morale_lab::error::{Error, Result};
use morale_lab::report::Report;
use morale_lab::report::{Format, align};
use morale_lab::system::cases::{Against, Case, Reference, cases, exact_cases, references};
use morale_lab::{RunOptions, Sampler};

/// Runs of each case, alternated with its reference's; the figure is their median.
const REPEATS: usize = 5;

/// A case whose runs spread wider than this share of their median is flagged as noisy.
const NOISE: f64 = 0.10;

/// A run of `trials` trials from seed 1 on `threads` workers with the table sampler.
fn options(trials: u64, threads: Option<usize>, exact_only: bool) -> RunOptions {
    RunOptions::new(trials, 1)
        .threads(threads)
        .exact_only(exact_only)
}

/// The machine a bench ran on, as far as the system says.
#[derive(Debug, Serialize)]
struct Machine {
    /// The processor's model name (`/proc/cpuinfo` on Linux; "unknown" elsewhere).
    cpu: String,
    /// Logical cores the process may use.
    cores: usize,
    /// Worker threads the runs used.
    threads: usize,
    /// Operating system and architecture.
    os: String,
}

impl Machine {
    fn here(threads: usize) -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|t| {
                t.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, m)| m.split_whitespace().collect::<Vec<_>>().join(" "))
            })
            .unwrap_or_else(|| "unknown".into());
        Machine {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            threads,
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
        }
    }
}

/// Several measurements of one rate (or time): their median, least and greatest.
#[derive(Debug, Clone, Copy, Serialize)]
struct Spread {
    median: f64,
    min: f64,
    max: f64,
    /// (max − min) / median.
    spread: f64,
    /// The spread is wider than [`NOISE`]: the machine was busy, or the case is unsteady.
    noisy: bool,
}

impl Spread {
    fn of(mut xs: Vec<f64>) -> Spread {
        xs.sort_by(f64::total_cmp);
        let n = xs.len();
        let median = if n % 2 == 1 {
            xs[n / 2]
        } else {
            (xs[n / 2 - 1] + xs[n / 2]) / 2.0
        };
        let (min, max) = (xs[0], xs[n - 1]);
        let spread = if median > 0.0 {
            (max - min) / median
        } else {
            0.0
        };
        Spread {
            median,
            min,
            max,
            spread,
            noisy: spread > NOISE,
        }
    }
}

/// One Monte Carlo case's figures.
#[derive(Debug, Serialize)]
struct CaseRow {
    case: String,
    sampler: String,
    setup_ms: f64,
    /// Trials (battles) in each run.
    trials: u64,
    /// Trials (battles) per second over the runs.
    per_second: Spread,
    /// The reference it is measured against, if it has one.
    reference: Option<String>,
    /// Its median over the reference's median.
    ratio_to_reference: Option<f64>,
}

/// A reference loop's figures.
#[derive(Debug, Serialize)]
struct ReferenceRow {
    reference: String,
    case: String,
    trials: u64,
    per_second: Spread,
    /// What its outcomes were checked against on every run (a bench whose reference disagrees
    /// fails): `exact solution`, or `Monte Carlo` (the case's own run beside it, for a battle).
    checked_against: &'static str,
}

/// An exact solver's times, in milliseconds.
#[derive(Debug, Serialize)]
struct ExactRow {
    case: String,
    ms: Spread,
}

/// A mechanic file against the built-in system that writes the same rules.
#[derive(Debug, Serialize)]
struct MechanicRow {
    case: String,
    setup_ms_file: f64,
    setup_ms_built_in: f64,
    per_second_file: Spread,
    per_second_built_in: Spread,
    ratio: f64,
}

/// Everything a bench measured.
#[derive(Debug, Serialize)]
struct Bench {
    version: &'static str,
    machine: Machine,
    seconds_a_case: f64,
    repeats: usize,
    noise_bound: f64,
    cases: Vec<CaseRow>,
    references: Vec<ReferenceRow>,
    exact: Vec<ExactRow>,
    mechanic: Vec<MechanicRow>,
    /// Why the mechanic files were not run, when they were not.
    mechanic_not_run: Option<String>,
    /// The explorer's API on loopback.
    api: Vec<ApiRow>,
}

/// The explorer's latency for one kind of request, over HTTP on loopback, nothing kept
/// between requests.
#[derive(Debug, Serialize)]
struct ApiRow {
    case: String,
    requests: usize,
    median_ms: f64,
    p95_ms: f64,
    min_ms: f64,
    max_ms: f64,
}

/// The explorer's API cases: what the page asks for first (an exact answer) and a Monte Carlo
/// answer of 100,000 trials, for the README's rally example.
const API_CASES: [(&str, &str); 2] = [
    (
        "explorer API, exact answer (rally RF)",
        "/api/run?system=rank-and-file&scenario=rally&set=class%3Dveteran&set=stands%3D7&set=lost%3D2&set=state%3Drouting&mode=exact",
    ),
    (
        "explorer API, 100,000 trials (rally RF)",
        "/api/run?system=rank-and-file&scenario=rally&set=class%3Dveteran&set=stands%3D7&set=lost%3D2&set=state%3Drouting&trials=100000&mode=mc",
    ),
];

/// Time requests to a loopback explorer with no cache, one after another, for `seconds`
/// each case (at least 20 requests).
fn api_rows(bench: &mut Bench, seconds: f64, threads: Option<usize>) -> Result<()> {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0))
        .map_err(|e| Error::Conflict(format!("cannot listen on loopback: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::Conflict(e.to_string()))?;
    let token = "bench";
    let explorer = std::sync::Arc::new(
        morale_lab::explorer::Explorer::new(
            Vec::new(),
            morale_lab::explorer::Limits {
                cache: 0,
                threads,
                ..morale_lab::explorer::Limits::default()
            },
        )
        .with_gate(morale_lab::explorer::Gate::new(
            token.into(),
            addr.ip(),
            addr.port(),
            Vec::new(),
        )),
    );
    let control = std::sync::Arc::new(Control::new());
    crate::serve::accept(listener, explorer, std::sync::Arc::clone(&control));
    let fail = |e: std::io::Error| Error::Conflict(format!("the loopback explorer failed: {e}"));
    for (name, path) in API_CASES {
        let mut times = Vec::new();
        let started = Instant::now();
        // One request first, untimed (cold caches).
        for i in 0.. {
            if i > 20 && started.elapsed().as_secs_f64() > seconds {
                break;
            }
            let t = Instant::now();
            let mut s = std::net::TcpStream::connect(addr).map_err(fail)?;
            write!(
                s,
                "POST {path} HTTP/1.1\r\nHost: {addr}\r\n{}: {token}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                morale_lab::explorer::TOKEN_HEADER
            )
            .map_err(fail)?;
            let mut out = Vec::new();
            s.read_to_end(&mut out).map_err(fail)?;
            if !out.starts_with(b"HTTP/1.1 200") {
                return Err(Error::Conflict(format!(
                    "the loopback explorer answered {}",
                    String::from_utf8_lossy(&out[..out.len().min(200)])
                )));
            }
            if i > 0 {
                times.push(t.elapsed().as_secs_f64() * 1e3);
            }
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        bench.api.push(ApiRow {
            case: name.to_string(),
            requests: times.len(),
            median_ms: at(0.5),
            p95_ms: at(0.95),
            min_ms: times[0],
            max_ms: times[times.len() - 1],
        });
    }
    control.cancel();
    Ok(())
}

/// The trials that make one run of `run_once` last at least `seconds`, doubling from 2^16; and
/// that first long-enough run's rate, to count among the repeats.
fn calibrate(seconds: f64, mut run_once: impl FnMut(u64) -> Result<f64>) -> Result<(u64, f64)> {
    let mut trials = 1u64 << 16;
    loop {
        let started = Instant::now();
        let rate = run_once(trials)?;
        if started.elapsed().as_secs_f64() >= seconds || trials >= 1 << 40 {
            return Ok((trials, rate));
        }
        trials *= 2;
    }
}

/// The Monte Carlo rate of `job` at `trials` with `sampler` (trials per second, from its
/// report), keeping the report in `last`.
fn rate(
    job: &dyn morale_lab::Job,
    trials: u64,
    threads: Option<usize>,
    sampler: Sampler,
    last: &mut Option<Report>,
) -> Result<f64> {
    let opts = options(trials, threads, false).sampler(sampler);
    let report = job.run(&opts, &Control::new())?;
    let rate = report.trials_per_s;
    *last = Some(report);
    Ok(rate)
}

/// A reference loop's rate at `trials`, its tally checked against the rules (against `tool`,
/// the case's last report, where the loop is held against the tool's Monte Carlo).
fn reference_rate(
    r: &Reference,
    trials: u64,
    threads: Option<usize>,
    tool: Option<&Report>,
) -> Result<f64> {
    let spec = RunSpec {
        trials,
        seed: 1,
        stream: 0,
        threads,
    };
    let started = Instant::now();
    let tally = (r.run)(&spec, &Control::new())?;
    let secs = started.elapsed().as_secs_f64();
    r.check(&tally, tool)?;
    Ok(trials as f64 / secs.max(1e-9))
}

/// Run every case (or those matching `only`): each for at least `seconds` in all, as
/// [`REPEATS`] runs alternated with its reference's; print a table or JSON.
///
/// # Errors
/// No case matches `only`; a case fails; a reference loop disagrees with the rules.
pub fn run(
    seconds: f64,
    threads: Option<usize>,
    only: &[String],
    format: Format,
) -> Result<String> {
    let bad = |what: &str, value: &str, allowed: &str| Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed: allowed.into(),
    };
    let matches = |name: &str| only.is_empty() || only.iter().any(|w| name.contains(w.as_str()));
    let pick =
        |list: Vec<Case>| -> Vec<Case> { list.into_iter().filter(|c| matches(c.name)).collect() };
    let (cases, exact) = (pick(cases()), pick(exact_cases()));
    let files: Vec<&MechanicCase> = MECHANIC_CASES.iter().filter(|c| matches(c.name)).collect();
    let api = only.is_empty()
        || only
            .iter()
            .any(|w| w.contains("explorer") || w.contains("api"));
    if cases.is_empty() && exact.is_empty() && files.is_empty() && !api {
        return Err(bad(
            "FILTER",
            &only.join(" "),
            "no case matches; words such as rally, under-fire, melee, line, exact, mechanic, explorer, RF, EF, LW",
        ));
    }
    let n_threads = threads.unwrap_or_else(rayon::current_num_threads);
    let refs = references();
    let mut bench = Bench {
        version: morale_lab::VERSION,
        machine: Machine::here(n_threads),
        seconds_a_case: seconds,
        repeats: REPEATS,
        noise_bound: NOISE,
        cases: Vec::new(),
        references: Vec::new(),
        exact: Vec::new(),
        mechanic: Vec::new(),
        mechanic_not_run: None,
        api: Vec::new(),
    };
    let each = seconds / REPEATS as f64;
    for case in &cases {
        let job = case.job()?;
        let job = job.as_ref();
        // The one-time set-up a run pays before its first trial: the tables compiled from the
        // rules code (kept in the job for the runs below) and the thread pool.
        let setup = {
            let started = Instant::now();
            job.tally(&options(1, threads, false), 0..0, &Control::new())?;
            started.elapsed().as_secs_f64()
        };
        let reference = refs.iter().find(|r| r.case == case.name);
        // The default sampler; a case with a reference also with every die rolled, so that
        // both paths are held against the hand loop, and an engagement too, so that its table
        // sampler is measured beside the battle code it stands in for.
        let both = (reference.is_some() && !case.scenario.is_battle())
            || case.scenario == morale_lab::Scenario::Engagement;
        let samplers: &[Sampler] = if both {
            &[Sampler::Table, Sampler::Dice]
        } else {
            &[Sampler::Table]
        };
        let mut trials = Vec::new();
        let mut rates: Vec<Vec<f64>> = Vec::new();
        // The sampler each ran (a line's battle code rolls its dice whichever is asked).
        let mut used = Vec::new();
        // The case's last report, which a battle's reference loop is checked against.
        let mut last = None;
        for &sampler in samplers {
            let (t, first) = calibrate(each, |t| rate(job, t, threads, sampler, &mut last))?;
            trials.push(t);
            rates.push(vec![first]);
            used.push(
                last.as_ref()
                    .and_then(|r| r.sampler.clone())
                    .unwrap_or_else(|| sampler.name().into()),
            );
        }
        let mut ref_rates = Vec::new();
        let ref_trials = match reference {
            Some(r) => {
                let (t, first) = calibrate(each, |t| reference_rate(r, t, threads, last.as_ref()))?;
                ref_rates.push(first);
                t
            }
            None => 0,
        };
        // The repeats, case and reference alternated, so that a change in the machine's load
        // falls on both.
        for _ in 1..REPEATS {
            for (i, &sampler) in samplers.iter().enumerate() {
                rates[i].push(rate(job, trials[i], threads, sampler, &mut last)?);
            }
            if let Some(r) = reference {
                ref_rates.push(reference_rate(r, ref_trials, threads, last.as_ref())?);
            }
        }
        let ref_spread = reference.map(|_| Spread::of(ref_rates));
        for ((sampler, rates), &trials) in used.into_iter().zip(rates).zip(&trials) {
            let per_second = Spread::of(rates);
            bench.cases.push(CaseRow {
                case: case.name.to_string(),
                sampler,
                setup_ms: setup * 1e3,
                trials,
                per_second,
                reference: reference.map(|r| r.name.to_string()),
                ratio_to_reference: ref_spread.map(|s| per_second.median / s.median),
            });
        }
        if let (Some(r), Some(per_second)) = (reference, ref_spread) {
            bench.references.push(ReferenceRow {
                reference: r.name.to_string(),
                case: r.case.to_string(),
                trials: ref_trials,
                per_second,
                checked_against: match r.against {
                    Against::Exact => "exact solution",
                    Against::MonteCarlo => "Monte Carlo",
                },
            });
        }
    }
    for case in exact {
        let job = case.job()?;
        let opts = options(1, threads, true);
        // One solve first, untimed: the first touches cold caches and pages. Then REPEATS
        // batches, each of as many solves as fit in its share of the time (the first batch
        // finds how many): a figure is a batch's mean time a solve, so a single slow solve
        // (the scheduler, a page fault) does not make the case look noisy.
        let solve = || job.run(&opts, &Control::new()).map(|_| ());
        solve()?;
        let started = Instant::now();
        let mut k = 0u32;
        while k == 0 || started.elapsed().as_secs_f64() < each {
            solve()?;
            k += 1;
        }
        let mut times = vec![started.elapsed().as_secs_f64() * 1e3 / f64::from(k)];
        for _ in 1..REPEATS {
            let t = Instant::now();
            for _ in 0..k {
                solve()?;
            }
            times.push(t.elapsed().as_secs_f64() * 1e3 / f64::from(k));
        }
        bench.exact.push(ExactRow {
            case: case.name.to_string(),
            ms: Spread::of(times),
        });
    }
    if !files.is_empty() {
        mechanic_rows(&mut bench, &files, each, threads)?;
    }
    if api {
        api_rows(&mut bench, seconds, threads)?;
    }
    Ok(match format {
        Format::Json => {
            serde_json::to_string_pretty(&bench).map_err(|e| Error::Conflict(e.to_string()))? + "\n"
        }
        // The command line accepts text and json only.
        Format::Text | Format::Csv | Format::Markdown => render(&bench),
    })
}

/// A rate in words: `514.2 M`, `775.3 k`.
fn rate_text(r: f64) -> String {
    if r >= 1e6 {
        format!("{:.1} M", r / 1e6)
    } else {
        format!("{:.1} k", r / 1e3)
    }
}

/// Median and min–max of rates.
fn spread_text(s: &Spread) -> String {
    format!(
        "{} ({}–{}){}",
        rate_text(s.median),
        rate_text(s.min).trim_end_matches([' ', 'M', 'k']),
        rate_text(s.max),
        if s.noisy { " noisy" } else { "" }
    )
}

/// The bench as aligned tables.
fn render(b: &Bench) -> String {
    let m = &b.machine;
    let mut out = format!(
        "morale-lab {} bench · {} · {} logical cores · {} threads used · {}\n\
         each figure: the median of {} runs (min–max), at least {} s a case in all\n",
        b.version, m.cpu, m.cores, m.threads, m.os, b.repeats, b.seconds_a_case
    );
    let mut noisy = 0;
    if !b.cases.is_empty() {
        let mut rows = vec![vec![
            "case".to_string(),
            "sampler".into(),
            "setup ms".into(),
            "trials a run".into(),
            "per second (min–max)".into(),
            "× reference".into(),
        ]];
        for (i, c) in b.cases.iter().enumerate() {
            noisy += usize::from(c.per_second.noisy);
            rows.push(vec![
                c.case.clone(),
                c.sampler.clone(),
                format!("{:.2}", c.setup_ms),
                morale_lab::report::thousands(c.trials),
                spread_text(&c.per_second),
                c.ratio_to_reference
                    .map_or_else(|| "—".into(), |r| format!("{r:.2}×")),
            ]);
            // A case's reference right below its last row.
            let last = b.cases.get(i + 1).is_none_or(|next| next.case != c.case);
            for r in b.references.iter().filter(|r| last && r.case == c.case) {
                noisy += usize::from(r.per_second.noisy);
                rows.push(vec![
                    format!("  {}", r.reference),
                    "plain loop".into(),
                    "—".into(),
                    morale_lab::report::thousands(r.trials),
                    spread_text(&r.per_second),
                    "1.00×".into(),
                ]);
            }
        }
        out += "\n";
        out += &align(&rows);
    }
    if !b.exact.is_empty() {
        let mut rows = vec![vec!["exact solution".to_string(), "ms (min–max)".into()]];
        for e in &b.exact {
            noisy += usize::from(e.ms.noisy);
            rows.push(vec![
                e.case.clone(),
                format!(
                    "{:.2} ({:.2}–{:.2}){}",
                    e.ms.median,
                    e.ms.min,
                    e.ms.max,
                    if e.ms.noisy { " noisy" } else { "" }
                ),
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
            noisy +=
                usize::from(r.per_second_file.noisy) + usize::from(r.per_second_built_in.noisy);
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
    out += "\n(setup: compiling the tables and starting the threads, once per job; per second: trials, or battles for engagement and line, Monte Carlo only, setup and the exact solution's time excluded; × reference: the median over that of a plain hand-written loop of the same rules, run alternately in this process on the same threads, its outcomes checked on every run against the exact solution, or for a battle against the case's own Monte Carlo run beside it; exact: a solve and its report)\n";
    if !b.api.is_empty() {
        let mut rows = vec![vec![
            "explorer over loopback HTTP, nothing kept".to_string(),
            "requests".into(),
            "median ms".into(),
            "p95 ms".into(),
            "min–max ms".into(),
        ]];
        for r in &b.api {
            rows.push(vec![
                r.case.clone(),
                r.requests.to_string(),
                format!("{:.2}", r.median_ms),
                format!("{:.2}", r.p95_ms),
                format!("{:.2}–{:.2}", r.min_ms, r.max_ms),
            ]);
        }
        out += "\n";
        out += &align(&rows);
    }
    if noisy > 0 {
        out += &format!(
            "warning: {noisy} figure(s) marked noisy: their runs spread more than {:.0}% of the median (a busy machine?); run again, or with more --seconds\n",
            b.noise_bound * 100.0
        );
    }
    out
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
/// compiled, the tables built, the exact solution) and Monte Carlo trials per second (runs of
/// the two alternated), with the file's ratio to the built-in. The files are read from
/// `mechanics/` (the folder run from, or the source tree's).
fn mechanic_rows(
    bench: &mut Bench,
    cases: &[&MechanicCase],
    seconds: f64,
    threads: Option<usize>,
) -> Result<()> {
    let read = |p: &str| -> Result<String> {
        let here = std::path::Path::new(p);
        let there = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(p);
        std::fs::read_to_string(here)
            .or_else(|_| std::fs::read_to_string(&there))
            .map_err(|e| Error::Conflict(format!("{p}: {e}")))
    };
    for case in cases {
        if let Err(e) = morale_lab::mechanic::load_with(case.file, &mut |p| read(p)) {
            bench.mechanic_not_run = Some(e.to_string());
            return Ok(());
        }
        let inputs: Vec<morale_lab::params::Input> = case
            .set
            .iter()
            .map(|p| morale_lab::params::Input::parse_set(p))
            .collect::<Result<_>>()?;
        let rules: Vec<String> = case.options.iter().map(|s| s.to_string()).collect();
        let mut jobs = Vec::new();
        for system in [case.file, case.built_in] {
            // Set-up: a fresh job, its exact solution and its compiled tables, before any trial.
            let started = Instant::now();
            let job = morale_lab::system::build(system, case.scenario, &inputs, &rules)?;
            job.run(&options(1, threads, true), &Control::new())?;
            job.tally(&options(1, threads, false), 0..0, &Control::new())?;
            let setup = started.elapsed().as_secs_f64();
            let (trials, first) = calibrate(seconds, |t| {
                rate(job.as_ref(), t, threads, Sampler::Table, &mut None)
            })?;
            jobs.push((job, setup, trials, vec![first]));
        }
        for _ in 1..REPEATS {
            for (job, _, trials, rates) in &mut jobs {
                rates.push(rate(
                    job.as_ref(),
                    *trials,
                    threads,
                    Sampler::Table,
                    &mut None,
                )?);
            }
        }
        let file = Spread::of(std::mem::take(&mut jobs[0].3));
        let built = Spread::of(std::mem::take(&mut jobs[1].3));
        bench.mechanic.push(MechanicRow {
            case: case.name.to_string(),
            setup_ms_file: jobs[0].1 * 1e3,
            setup_ms_built_in: jobs[1].1 * 1e3,
            per_second_file: file,
            per_second_built_in: built,
            ratio: file.median / built.median,
        });
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spread_is_the_median_and_the_range_and_flags_noise() {
        let s = Spread::of(vec![100.0, 95.0, 104.0, 101.0, 99.0]);
        assert_eq!((s.median, s.min, s.max), (100.0, 95.0, 104.0));
        assert!((s.spread - 0.09).abs() < 1e-12 && !s.noisy);
        let s = Spread::of(vec![100.0, 80.0, 104.0, 90.0]);
        assert_eq!(s.median, 95.0);
        assert!(s.noisy, "a spread of {} is noisy", s.spread);
    }

    #[test]
    fn rates_are_written_with_their_unit() {
        assert_eq!(rate_text(514.2e6), "514.2 M");
        assert_eq!(rate_text(775.3e3), "775.3 k");
        let s = Spread::of(vec![1.0e6, 1.2e6, 1.1e6]);
        assert_eq!(spread_text(&s), "1.1 M (1.0–1.2 M) noisy");
    }
}
