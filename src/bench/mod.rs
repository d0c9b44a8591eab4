//! `morale-lab bench`: the benchmark cases of docs/PERFORMANCE.md on the user's machine, in
//! trials (battles) per second, each the median of several runs with its interval and every
//! run's figure, beside a plain hand-written loop of the same rules run in the same process (its
//! ratio), keyed to the build and the machine (`provenance`); and the exact solvers' times at
//! the largest realistic units, through the same builders as the command line (the cases are
//! the library's, which criterion also runs). Text or JSON; a result saved with `--save` is a
//! baseline that `--compare` holds a later run, or another saved result, against (`compare`).

pub mod compare;
pub mod provenance;

use std::time::Instant;

use serde::{Deserialize, Serialize};

use morale_lab::engine::{Control, RunSpec};
use morale_lab::error::{Error, Result};
use morale_lab::report::Report;
use morale_lab::report::align;
use morale_lab::system::cases::{Against, Case, Reference, cases, exact_cases, references};
use morale_lab::{RunOptions, Sampler};

use provenance::{Build, Machine};

/// Runs of each case, alternated with its reference's, unless `--repeats` says otherwise.
pub const REPEATS: usize = 5;

/// A case whose median's interval is wider than this share of the median is flagged as noisy.
const NOISE: f64 = 0.10;

/// A run shorter than this (seconds) measures the timer and the start-up as much as the loop.
const SHORTEST_RUN: f64 = 0.05;

/// Threads waiting for a core longer than this share of their time: the machine was busy.
const CONTENDED: f64 = 0.05;

/// The confidence of a median's interval (where the repeats allow it; see [`Spread::of`]).
const CONFIDENCE: f64 = 0.95;

/// A run of `trials` trials from seed 1 on `threads` workers with the table sampler.
fn options(trials: u64, threads: Option<usize>, exact_only: bool) -> RunOptions {
    RunOptions::new(trials, 1)
        .threads(threads)
        .exact_only(exact_only)
}

/// What to bench and how: the command line's choices, kept in the result so that
/// `--compare` can run the same again.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Plan {
    /// Seconds a case, at least, in all.
    pub seconds: f64,
    /// Runs of each case.
    pub repeats: usize,
    /// Worker threads (`None`: every core).
    pub threads: Option<usize>,
    /// Words a case's name must contain one of (none: every case).
    pub only: Vec<String>,
    /// Cases named exactly (a baseline's): when not empty, these and no others.
    #[serde(default)]
    pub exact_names: Vec<String>,
    /// The sampler, when asked for (else the table sampler, and the dice too for a case with a
    /// reference loop or an engagement).
    pub sampler: Option<String>,
    /// `KEY=VALUE` settings laid over every case's (`--set`, and `--turns` as `turns=N`).
    pub set: Vec<String>,
}

/// Several measurements of one rate (or time): their median with an interval, least and
/// greatest, and every one of them.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Spread {
    /// The median.
    pub median: f64,
    /// The least.
    pub min: f64,
    /// The greatest.
    pub max: f64,
    /// (max − min) / median.
    pub spread: f64,
    /// The median's interval (order statistics: it holds the true median with probability
    /// `confidence` whatever the distribution of the runs).
    pub ci_low: f64,
    /// Its upper end.
    pub ci_high: f64,
    /// The interval's confidence: 95%, or the most the repeats allow (93.75% with 5).
    pub confidence: f64,
    /// The interval is wider than [`NOISE`] of the median: the runs disagree.
    pub noisy: bool,
    /// Every run's figure, in the order they ran.
    pub samples: Vec<f64>,
}

/// P(X ≤ k) for X ~ Binomial(n, ½).
fn binomial_half_cdf(n: usize, k: usize) -> f64 {
    let mut term = 0.5f64.powi(n as i32);
    let mut sum = 0.0;
    for i in 0..=k.min(n) {
        sum += term;
        term *= (n - i) as f64 / (i + 1) as f64;
    }
    sum
}

impl Spread {
    /// The figures of `samples`, in the order they ran.
    pub fn of(samples: Vec<f64>) -> Spread {
        let mut xs = samples.clone();
        xs.sort_by(f64::total_cmp);
        let n = xs.len();
        let median = if n % 2 == 1 {
            xs[n / 2]
        } else {
            (xs[n / 2 - 1] + xs[n / 2]) / 2.0
        };
        let (min, max) = (xs[0], xs[n - 1]);
        // The widest k with [x(k), x(n+1−k)] holding the median at CONFIDENCE; with too few
        // runs for that, the extremes (and the confidence they give).
        let mut k = 1;
        while k < n / 2 && 2.0 * binomial_half_cdf(n, k) <= 1.0 - CONFIDENCE {
            k += 1;
        }
        let confidence = 1.0 - 2.0 * binomial_half_cdf(n, k - 1);
        let (ci_low, ci_high) = (xs[k - 1], xs[n - k]);
        let rel = |w: f64| if median > 0.0 { w / median } else { 0.0 };
        Spread {
            median,
            min,
            max,
            spread: rel(max - min),
            ci_low,
            ci_high,
            confidence,
            noisy: rel(ci_high - ci_low) > NOISE,
            samples,
        }
    }
}

/// How the threads used the processor over a case's runs (medians over the runs), where the
/// system says.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct CpuUse {
    /// Processor time the process had over wall time × threads: 1 when every thread ran all
    /// the time.
    pub busy: f64,
    /// Time its threads spent ready but waiting for a core, over wall time × threads: the
    /// machine's other work, measured.
    pub waited: f64,
}

/// One Monte Carlo case's figures.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CaseRow {
    /// The case's name.
    pub case: String,
    /// The sampler that ran.
    pub sampler: String,
    /// The command line that runs one of its runs.
    pub command: String,
    /// The one-time set-up of the case's job for this sampler: a fresh job's first (empty)
    /// run, which compiles what the sampler needs and starts the threads.
    pub setup_ms: f64,
    /// Trials (battles) in each run.
    pub trials: u64,
    /// Trials (battles) per second over the runs.
    pub per_second: Spread,
    /// Processor use over its runs.
    pub cpu: Option<CpuUse>,
    /// The reference it is measured against, if it has one.
    pub reference: Option<String>,
    /// Its median over the reference's median.
    pub ratio_to_reference: Option<f64>,
    /// Each repeat's rate over the reference's in the same repeat (they ran alternately).
    #[serde(default)]
    pub ratio_samples: Vec<f64>,
}

/// A reference loop's figures.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReferenceRow {
    /// Its name (`hand loop: …`).
    pub reference: String,
    /// The case it writes out.
    pub case: String,
    /// Trials in each run.
    pub trials: u64,
    /// Trials per second over the runs.
    pub per_second: Spread,
    /// What its outcomes were checked against on every run (a bench whose reference disagrees
    /// fails): `exact solution`, or `Monte Carlo` (the case's own run beside it, for a battle).
    pub checked_against: String,
}

/// An exact solver's times, in milliseconds.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExactRow {
    /// The case's name.
    pub case: String,
    /// The command line that solves it.
    pub command: String,
    /// Milliseconds a solve (and its report).
    pub ms: Spread,
}

/// A mechanic file against the built-in system that writes the same rules.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MechanicRow {
    case: String,
    setup_ms_file: f64,
    setup_ms_built_in: f64,
    per_second_file: Spread,
    per_second_built_in: Spread,
    ratio: f64,
}

/// Everything a bench measured, and where.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Bench {
    /// The layout's version ([`provenance::SCHEMA`]).
    pub schema: u32,
    /// The build.
    pub build: Build,
    /// When it started (UTC).
    pub date: String,
    /// The machine.
    pub machine: Machine,
    /// What was asked.
    pub plan: Plan,
    /// The least a case ran, in seconds.
    pub seconds_a_case: f64,
    /// Runs of each case.
    pub repeats: usize,
    /// A figure whose interval is wider than this share of its median is noisy.
    pub noise_bound: f64,
    /// The Monte Carlo cases.
    pub cases: Vec<CaseRow>,
    /// Their reference loops.
    pub references: Vec<ReferenceRow>,
    /// The exact solvers.
    pub exact: Vec<ExactRow>,
    /// Mechanic files against the built-in systems.
    pub mechanic: Vec<MechanicRow>,
    /// Why the mechanic files were not run, when they were not.
    pub mechanic_not_run: Option<String>,
    /// The explorer's API on loopback.
    pub api: Vec<ApiRow>,
    /// What a reader should know before trusting the figures.
    pub warnings: Vec<String>,
}

/// The explorer's latency for one kind of request, over HTTP on loopback, nothing kept
/// between requests.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ApiRow {
    /// What is asked.
    pub case: String,
    /// The request (`POST` and its path).
    pub command: String,
    /// Requests timed.
    pub requests: usize,
    /// Milliseconds a request (connect, answer, close), every request's figure in `samples`.
    pub ms: Spread,
    /// The 95th percentile of the times, in milliseconds.
    pub p95_ms: f64,
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
    // The kinds of request alternate, one of each in turn, so that a change in the machine's
    // load, or its caches warming, falls on all of them alike; one round first, untimed.
    let mut times = vec![Vec::new(); API_CASES.len()];
    let started = Instant::now();
    for i in 0.. {
        if i > 20 && started.elapsed().as_secs_f64() > seconds * API_CASES.len() as f64 {
            break;
        }
        for (k, (_, path)) in API_CASES.iter().enumerate() {
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
                times[k].push(t.elapsed().as_secs_f64() * 1e3);
            }
        }
    }
    for ((name, path), times) in API_CASES.iter().zip(times) {
        let mut sorted = times.clone();
        sorted.sort_by(f64::total_cmp);
        let p95 = sorted[((sorted.len() - 1) as f64 * 0.95).round() as usize];
        bench.api.push(ApiRow {
            case: name.to_string(),
            command: format!("POST {path}"),
            requests: times.len(),
            ms: Spread::of(times),
            p95_ms: p95,
        });
    }
    control.cancel();
    Ok(())
}

/// One timed run: its figure (a rate, or milliseconds), and how the threads used the
/// processor meanwhile.
#[derive(Debug, Clone, Copy)]
struct Measured {
    value: f64,
    cpu: Option<CpuUse>,
}

/// Time `work` on `threads` threads: its figure and the processor's use meanwhile.
fn measured(threads: usize, work: impl FnOnce() -> Result<f64>) -> Result<Measured> {
    let before = provenance::cpu_times();
    let started = Instant::now();
    let value = work()?;
    let wall = started.elapsed().as_secs_f64().max(1e-9) * threads as f64;
    let cpu = before
        .zip(provenance::cpu_times())
        .map(|((on0, w0), (on1, w1))| CpuUse {
            busy: (on1 - on0) / wall,
            waited: (w1 - w0) / wall,
        });
    Ok(Measured { value, cpu })
}

/// The medians of the processor's use over runs.
fn cpu_of(runs: &[Measured]) -> Option<CpuUse> {
    let uses: Vec<CpuUse> = runs.iter().filter_map(|m| m.cpu).collect();
    (uses.len() == runs.len() && !uses.is_empty()).then(|| CpuUse {
        busy: Spread::of(uses.iter().map(|u| u.busy).collect()).median,
        waited: Spread::of(uses.iter().map(|u| u.waited).collect()).median,
    })
}

/// The trials that make one run of `run_once` last at least `seconds`, doubling from 2^16; and
/// that first long-enough run's figures, to count among the repeats.
fn calibrate<M>(seconds: f64, mut run_once: impl FnMut(u64) -> Result<M>) -> Result<(u64, M)> {
    let mut trials = 1u64 << 16;
    loop {
        let started = Instant::now();
        let m = run_once(trials)?;
        if started.elapsed().as_secs_f64() >= seconds || trials >= 1 << 40 {
            return Ok((trials, m));
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

/// A benchmark case as it will run: the library's case with the plan's settings laid over.
#[derive(Debug, Clone)]
struct Planned {
    case: Case,
    /// Its `KEY=VALUE` settings.
    set: Vec<String>,
    /// Whether the plan changed them (its reference loop then writes other rules).
    changed: bool,
}

impl Planned {
    fn new(case: Case, over: &[String]) -> Planned {
        let key = |s: &str| s.split_once('=').map_or(s, |(k, _)| k).trim().to_string();
        let mut set: Vec<String> = case
            .set
            .iter()
            .filter(|s| !over.iter().any(|o| key(o) == key(s)))
            .map(|s| s.to_string())
            .collect();
        set.extend(over.iter().cloned());
        let changed = set.len() != case.set.len() || set.iter().zip(case.set).any(|(a, b)| a != b);
        Planned { case, set, changed }
    }

    fn job(&self) -> Result<Box<dyn morale_lab::Job>> {
        let inputs: Vec<morale_lab::params::Input> = self
            .set
            .iter()
            .map(|p| morale_lab::params::Input::parse_set(p))
            .collect::<Result<_>>()?;
        let options: Vec<String> = self.case.options.iter().map(|s| s.to_string()).collect();
        morale_lab::system::build(self.case.system, self.case.scenario, &inputs, &options).map_err(
            |e| match e {
                Error::Invalid {
                    what,
                    value,
                    allowed,
                } => Error::Invalid {
                    what: format!("{what} (bench case '{}')", self.case.name),
                    value,
                    allowed,
                },
                e => e,
            },
        )
    }

    /// The command line that runs what one of its runs runs (`tail`: the run's own options).
    fn command(&self, tail: &str) -> String {
        let quote = |s: &str| {
            if s.contains(' ') {
                format!("\"{s}\"")
            } else {
                s.to_string()
            }
        };
        let mut c = format!(
            "morale-lab {} --system {}",
            self.case.scenario, self.case.system
        );
        for s in &self.set {
            // The turns as the command line's own flag (the rally's cap reads `--turns 100`).
            match s.strip_prefix("turns=") {
                Some(n) => c += &format!(" --turns {n}"),
                None => c += &format!(" --set {}", quote(s)),
            }
        }
        for o in self.case.options {
            c += &format!(" --option {o}");
        }
        c + tail
    }
}

/// The cases `plan` picks: Monte Carlo and exact.
fn picked(plan: &Plan) -> (Vec<Planned>, Vec<Planned>) {
    let pick = |list: Vec<Case>| -> Vec<Planned> {
        list.into_iter()
            .filter(|c| matches(plan, c.name))
            .map(|c| Planned::new(c, &plan.set))
            .collect()
    };
    (pick(cases()), pick(exact_cases()))
}

/// Whether a case's name is picked by the plan.
fn matches(plan: &Plan, name: &str) -> bool {
    if !plan.exact_names.is_empty() {
        return plan.exact_names.iter().any(|n| n == name);
    }
    plan.only.is_empty() || plan.only.iter().any(|w| name.contains(w.as_str()))
}

fn bad(what: &str, value: &str, allowed: &str) -> Error {
    Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed: allowed.into(),
    }
}

/// What the plan picks, refused when nothing.
struct Picked<'a> {
    cases: Vec<Planned>,
    exact: Vec<Planned>,
    files: Vec<&'a MechanicCase>,
    api: bool,
}

fn pick(plan: &Plan) -> Result<Picked<'static>> {
    let (cases, exact) = picked(plan);
    let files: Vec<&MechanicCase> = MECHANIC_CASES
        .iter()
        .filter(|c| plan.set.is_empty() && matches(plan, c.name))
        .collect();
    let api = plan.set.is_empty()
        && if plan.exact_names.is_empty() {
            plan.only.is_empty()
                || plan
                    .only
                    .iter()
                    .any(|w| w.contains("explorer") || w.contains("api"))
        } else {
            API_CASES
                .iter()
                .any(|(n, _)| plan.exact_names.iter().any(|e| e == n))
        };
    if cases.is_empty() && exact.is_empty() && files.is_empty() && !api {
        return Err(bad(
            "FILTER",
            &plan.only.join(" "),
            "no case matches; words such as rally, under-fire, melee, line, exact, mechanic, explorer, RF, EF, LW (bench --list names them all)",
        ));
    }
    Ok(Picked {
        cases,
        exact,
        files,
        api,
    })
}

/// `bench --list`: every case the plan picks, with the command line each run is.
///
/// # Errors
/// No case matches.
pub fn list(plan: &Plan) -> Result<String> {
    let p = pick(plan)?;
    let sampler = plan.sampler.as_deref().unwrap_or("table");
    let mut out = String::from(
        "Each case runs as this command with seed 1 (--trials: as many as fill its share of the time; --threads: as asked); a word of its name picks it.\n",
    );
    if !p.cases.is_empty() {
        out += "\nMonte Carlo (trials a second):\n";
        for c in &p.cases {
            let reference = references().into_iter().find(|r| r.case == c.case.name);
            out += &format!(
                "  {}\n    {}\n",
                c.case.name,
                c.command(&format!(" --seed 1 --sampler {sampler} --trials N"))
            );
            if let Some(r) = reference.filter(|_| !c.changed) {
                out += &format!("    beside {}\n", r.name);
            }
        }
    }
    if !p.exact.is_empty() {
        out += "\nexact solution (ms a solve):\n";
        for c in &p.exact {
            out += &format!("  {}\n    {}\n", c.case.name, c.command(" --exact-only"));
        }
    }
    if !p.files.is_empty() {
        out += "\nmechanic file against the built-in system (trials a second):\n";
        for c in &p.files {
            let set: String = c.set.iter().map(|s| format!(" --set {s}")).collect();
            let opts: String = c.options.iter().map(|o| format!(" --option {o}")).collect();
            out += &format!(
                "  {}\n    morale-lab {} --system {}{set}{opts}\n    morale-lab {} --system {}{set}{opts}\n",
                c.name, c.scenario, c.file, c.scenario, c.built_in
            );
        }
    }
    if p.api {
        out += "\nexplorer over loopback HTTP (ms a request; morale-lab serve):\n";
        for (name, path) in API_CASES {
            out += &format!("  {name}\n    POST {path}\n");
        }
    }
    Ok(out)
}

/// Run every case the plan picks: each for at least `plan.seconds` in all, as `plan.repeats`
/// runs alternated with its reference's.
///
/// # Errors
/// No case matches; a setting is refused; a case fails; a reference loop disagrees with the
/// rules.
pub fn run(plan: &Plan) -> Result<Bench> {
    let Picked {
        cases,
        exact,
        files,
        api,
    } = pick(plan)?;
    let samplers: Option<Sampler> = match &plan.sampler {
        None => None,
        Some(s) => {
            Some(Sampler::parse(s).ok_or_else(|| bad("--sampler", s, "allowed: table, dice"))?)
        }
    };
    // Every job is built before anything is timed, so that a refused setting says so at once.
    let jobs = cases.iter().map(Planned::job).collect::<Result<Vec<_>>>()?;
    let exact_jobs = exact.iter().map(Planned::job).collect::<Result<Vec<_>>>()?;
    let threads = plan.threads;
    let repeats = plan.repeats;
    let n_threads = threads.unwrap_or_else(rayon::current_num_threads);
    let refs = references();
    let mut bench = Bench {
        schema: provenance::SCHEMA,
        build: Build::this(),
        date: provenance::now_utc(),
        machine: Machine::here(n_threads),
        plan: plan.clone(),
        seconds_a_case: plan.seconds,
        repeats,
        noise_bound: NOISE,
        cases: Vec::new(),
        references: Vec::new(),
        exact: Vec::new(),
        mechanic: Vec::new(),
        mechanic_not_run: None,
        api: Vec::new(),
        warnings: Vec::new(),
    };
    let each = plan.seconds / repeats as f64;
    for (case, job) in cases.iter().zip(&jobs) {
        let job = job.as_ref();
        let reference = refs
            .iter()
            .find(|r| r.case == case.case.name)
            .filter(|_| !case.changed);
        // The default sampler; a case with a reference also with every die rolled, so that
        // both paths are held against the hand loop, and an engagement too, so that its table
        // sampler is measured beside the battle code it stands in for.
        let both = (reference.is_some() && !case.case.scenario.is_battle())
            || case.case.scenario == morale_lab::Scenario::Engagement;
        let samplers: Vec<Sampler> = match samplers {
            Some(s) => vec![s],
            None if both => vec![Sampler::Table, Sampler::Dice],
            None => vec![Sampler::Table],
        };
        // The one-time set-up a run of each sampler pays before its first trial, on a fresh
        // job (a job keeps what it compiled for the runs after): the tables or the dice trees
        // compiled from the rules code, and the thread pool.
        let mut setup = Vec::new();
        for &sampler in &samplers {
            let fresh = case.job()?;
            let started = Instant::now();
            fresh.tally(
                &options(1, threads, false).sampler(sampler),
                0..0,
                &Control::new(),
            )?;
            setup.push(started.elapsed().as_secs_f64());
        }
        let mut trials = Vec::new();
        let mut runs: Vec<Vec<Measured>> = Vec::new();
        // The sampler each ran (a line's battle code rolls its dice whichever is asked).
        let mut used = Vec::new();
        // The case's last report, which a battle's reference loop is checked against.
        let mut last = None;
        for &sampler in &samplers {
            let (t, first) = calibrate(each, |t| {
                measured(n_threads, || rate(job, t, threads, sampler, &mut last))
            })?;
            trials.push(t);
            runs.push(vec![first]);
            used.push((
                sampler,
                last.as_ref()
                    .and_then(|r| r.sampler.clone())
                    .unwrap_or_else(|| sampler.name().into()),
            ));
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
        for _ in 1..repeats {
            for (i, &sampler) in samplers.iter().enumerate() {
                runs[i].push(measured(n_threads, || {
                    rate(job, trials[i], threads, sampler, &mut last)
                })?);
            }
            if let Some(r) = reference {
                ref_rates.push(reference_rate(r, ref_trials, threads, last.as_ref())?);
            }
        }
        let ref_spread = reference.map(|_| Spread::of(ref_rates.clone()));
        for ((((sampler, name), runs), &trials), &setup) in
            used.into_iter().zip(runs).zip(&trials).zip(&setup)
        {
            let per_second = Spread::of(runs.iter().map(|m| m.value).collect());
            let mut tail = format!(" --seed 1 --sampler {} --trials {trials}", sampler.name());
            if let Some(t) = threads {
                tail += &format!(" --threads {t}");
            }
            bench.cases.push(CaseRow {
                case: case.case.name.to_string(),
                sampler: name,
                command: case.command(&tail),
                setup_ms: setup * 1e3,
                trials,
                cpu: cpu_of(&runs),
                reference: reference.map(|r| r.name.to_string()),
                ratio_to_reference: ref_spread.as_ref().map(|s| per_second.median / s.median),
                ratio_samples: if reference.is_some() {
                    runs.iter()
                        .zip(&ref_rates)
                        .map(|(m, r)| m.value / r)
                        .collect()
                } else {
                    Vec::new()
                },
                per_second,
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
                }
                .into(),
            });
        }
    }
    for (case, job) in exact.iter().zip(&exact_jobs) {
        let opts = options(1, threads, true);
        // One solve first, untimed: the first touches cold caches and pages. Then the repeats'
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
        for _ in 1..repeats {
            let t = Instant::now();
            for _ in 0..k {
                solve()?;
            }
            times.push(t.elapsed().as_secs_f64() * 1e3 / f64::from(k));
        }
        bench.exact.push(ExactRow {
            case: case.case.name.to_string(),
            command: case.command(" --exact-only"),
            ms: Spread::of(times),
        });
    }
    if !files.is_empty() {
        mechanic_rows(&mut bench, &files, each, threads)?;
    }
    if api {
        api_rows(&mut bench, plan.seconds, threads)?;
    }
    bench.machine.load_after = provenance::load();
    bench.warnings = warnings(&bench);
    Ok(bench)
}

/// What a reader should know before trusting a bench's figures, each measured.
fn warnings(b: &Bench) -> Vec<String> {
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
            "{} run(s) shorter than {:.0} ms, where the timer and the start of the threads weigh as much as the loop: {}; give more --seconds (at least {:.2} for {} repeats)",
            short.len(),
            SHORTEST_RUN * 1e3,
            short.join(", "),
            SHORTEST_RUN * b.repeats as f64 * 2.0,
            b.repeats
        ));
    }
    let waited: Vec<String> = b
        .cases
        .iter()
        .filter_map(|c| c.cpu.filter(|u| u.waited > CONTENDED).map(|u| (c, u)))
        .map(|(c, u)| format!("{} {:.0}%", c.case, u.waited * 100.0))
        .collect();
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
    out
}

/// A rate in words: `514.2 M`, `775.3 k`.
fn rate_text(r: f64) -> String {
    if r >= 1e6 {
        format!("{:.1} M", r / 1e6)
    } else {
        format!("{:.1} k", r / 1e3)
    }
}

/// Milliseconds to three significant figures at least two decimals: `12.35`, `0.0312`.
fn ms_text(ms: f64) -> String {
    let decimals = if ms >= 1.0 || ms <= 0.0 {
        2
    } else {
        (2 - ms.log10().floor() as i32).max(2) as usize
    };
    format!("{ms:.decimals$}")
}

/// Median and min–max of milliseconds.
fn ms_spread_text(s: &Spread) -> String {
    format!(
        "{} ({}–{}){}",
        ms_text(s.median),
        ms_text(s.min),
        ms_text(s.max),
        if s.noisy { " noisy" } else { "" }
    )
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

/// The bench's provenance in two lines.
fn header(b: &Bench) -> String {
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

/// The bench as aligned tables.
pub fn render(b: &Bench) -> String {
    let mut out = header(b);
    out += &format!(
        "each figure: the median of {} runs (min–max), at least {} s a case in all\n",
        b.repeats, b.seconds_a_case
    );
    if !b.cases.is_empty() {
        let mut rows = vec![vec![
            "case".to_string(),
            "sampler".into(),
            "setup ms".into(),
            "trials a run".into(),
            "per second (min–max)".into(),
            "cpu (waited)".into(),
            "× reference".into(),
        ]];
        for (i, c) in b.cases.iter().enumerate() {
            rows.push(vec![
                c.case.clone(),
                c.sampler.clone(),
                format!("{:.2}", c.setup_ms),
                morale_lab::report::thousands(c.trials),
                spread_text(&c.per_second),
                c.cpu.map_or_else(
                    || "—".into(),
                    |u| format!("{:.0}% ({:.0}%)", u.busy * 100.0, u.waited * 100.0),
                ),
                c.ratio_to_reference
                    .map_or_else(|| "—".into(), |r| format!("{r:.2}×")),
            ]);
            // A case's reference right below its last row.
            let last = b.cases.get(i + 1).is_none_or(|next| next.case != c.case);
            for r in b.references.iter().filter(|r| last && r.case == c.case) {
                rows.push(vec![
                    format!("  {}", r.reference),
                    "plain loop".into(),
                    "—".into(),
                    morale_lab::report::thousands(r.trials),
                    spread_text(&r.per_second),
                    "—".into(),
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
            rows.push(vec![e.case.clone(), ms_spread_text(&e.ms)]);
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
    out += "\n(setup: a fresh job's first, empty run with that sampler: compiling what it needs from the rules code and starting the threads; per second: trials, or battles for engagement and line, Monte Carlo only, setup and the exact solution's time excluded; cpu: the processor time the threads had over the run's wall time, and in brackets the time they waited for a core; × reference: the median over that of a plain hand-written loop of the same rules, run alternately in this process on the same threads, its outcomes checked on every run against the exact solution, or for a battle against the case's own Monte Carlo run beside it; exact: a solve and its report; bench --list gives each case's command line, --format json every run's figure)\n";
    if !b.api.is_empty() {
        let mut rows = vec![vec![
            "explorer over loopback HTTP, nothing kept".to_string(),
            "requests".into(),
            "median ms (min–max)".into(),
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
            ratio: file.median / built.median,
            per_second_file: file,
            per_second_built_in: built,
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
        assert_eq!(
            s.samples,
            vec![100.0, 80.0, 104.0, 90.0],
            "in the order they ran"
        );
    }

    /// The median's interval from order statistics: the extremes with 5 runs (93.75%), the
    /// second from each end with 10 (97.9%), the binomial's own figures.
    #[test]
    fn a_medians_interval_is_of_order_statistics() {
        let s = Spread::of(vec![5.0, 1.0, 3.0, 2.0, 4.0]);
        assert_eq!((s.ci_low, s.ci_high), (1.0, 5.0));
        assert!((s.confidence - 0.9375).abs() < 1e-12);
        let s = Spread::of((1..=10).map(f64::from).collect());
        assert_eq!((s.ci_low, s.ci_high), (2.0, 9.0));
        assert!((s.confidence - (1.0 - 22.0 / 1024.0)).abs() < 1e-12);
        let s = Spread::of((1..=30).map(f64::from).collect());
        assert!(s.confidence >= 0.95 && s.ci_low > 1.0 && s.ci_high < 30.0);
    }

    #[test]
    fn rates_are_written_with_their_unit() {
        assert_eq!(rate_text(514.2e6), "514.2 M");
        assert_eq!(rate_text(775.3e3), "775.3 k");
        let s = Spread::of(vec![1.0e6, 1.2e6, 1.1e6]);
        assert_eq!(spread_text(&s), "1.1 M (1.0–1.2 M) noisy");
        assert_eq!(ms_text(12.345), "12.35");
        assert_eq!(ms_text(0.03123), "0.0312");
        assert_eq!(ms_text(0.5), "0.500");
    }
}
