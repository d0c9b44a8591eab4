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

/// The least timed runs of each case (after its warm-up), alternated with its reference's,
/// unless `--repeats` says otherwise.
pub const REPEATS: usize = 10;

/// A case whose median's interval is wider than this share of the median is flagged as noisy.
const NOISE: f64 = 0.10;

/// Past the least runs, a case is run again until its median's interval (and its reference's,
/// and its ratio to it) is at most this share of the median wide...
pub const SETTLED: f64 = 0.05;

/// ...or until it has taken this many times the least time (`--seconds` for each series).
pub const CAP: f64 = 3.0;

/// Tukey's fences: a run more than this many interquartile ranges below the lower quartile or
/// above the upper is an outlier (flagged and reported, still counted: the median is robust).
pub const FENCE: f64 = 1.5;

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
    /// Trials a run, fixed (a baseline's, so that `--compare` runs the same work) instead of
    /// calibrated.
    #[serde(default)]
    pub trials: Vec<FixedTrials>,
}

/// The trials of each run of one series of a case, fixed by the plan.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FixedTrials {
    /// The case's label (or the reference loop's name).
    pub case: String,
    /// The sampler (`plain loop` for a reference).
    pub sampler: String,
    /// Trials a run.
    pub trials: u64,
}

impl Plan {
    /// The trials fixed for `case` run by `sampler`: that sampler's, or the case's only row's
    /// when it ran one sampler (a battle names the sampler it used, not the one asked for).
    fn fixed(&self, case: &str, sampler: &str, only_one: bool) -> Option<u64> {
        let of_case: Vec<&FixedTrials> = self.trials.iter().filter(|f| f.case == case).collect();
        of_case
            .iter()
            .find(|f| f.sampler == sampler)
            .or_else(|| of_case.first().filter(|_| only_one && of_case.len() == 1))
            .map(|f| f.trials)
    }
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
    /// What the samples measure: `trials/s`, `ms` (a solve, a request) or `ratio`.
    #[serde(default)]
    pub unit: String,
    /// The runs (places in `samples`, from 0) beyond Tukey's fences ([`FENCE`] interquartile
    /// ranges outside the quartiles): flagged, still counted.
    #[serde(default)]
    pub outliers: Vec<usize>,
    /// Every run's figure, in the order they ran (warm-up runs not among them).
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

/// The median of sorted figures.
pub(crate) fn median_of_sorted(xs: &[f64]) -> f64 {
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// The median's interval from order statistics at `confidence` (it holds the true median with
/// that probability whatever the distribution of the runs): its ends and its own confidence,
/// which with too few runs is the most the extremes give (93.75% with 5).
pub(crate) fn median_interval(xs: &[f64], confidence: f64) -> (f64, f64, f64) {
    let n = xs.len();
    // The widest k with [x(k), x(n+1−k)] holding the median at `confidence`.
    let mut k = 1;
    while k < n / 2 && 2.0 * binomial_half_cdf(n, k) <= 1.0 - confidence {
        k += 1;
    }
    (
        xs[k - 1],
        xs[n - k],
        1.0 - 2.0 * binomial_half_cdf(n, k - 1),
    )
}

/// The places of the figures beyond Tukey's fences (quartiles by linear interpolation).
fn outliers(samples: &[f64], sorted: &[f64]) -> Vec<usize> {
    let n = sorted.len();
    if n < 4 {
        return Vec::new();
    }
    let quantile = |p: f64| {
        let h = (n - 1) as f64 * p;
        let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
        sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
    };
    let (q1, q3) = (quantile(0.25), quantile(0.75));
    let (low, high) = (q1 - FENCE * (q3 - q1), q3 + FENCE * (q3 - q1));
    (0..samples.len())
        .filter(|&i| samples[i] < low || samples[i] > high)
        .collect()
}

impl Spread {
    /// The figures of `samples`, in the order they ran, measured in `unit`.
    pub fn of(samples: Vec<f64>, unit: &str) -> Spread {
        let mut xs = samples.clone();
        xs.sort_by(f64::total_cmp);
        let n = xs.len();
        let median = median_of_sorted(&xs);
        let (min, max) = (xs[0], xs[n - 1]);
        let (ci_low, ci_high, confidence) = median_interval(&xs, CONFIDENCE);
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
            unit: unit.into(),
            outliers: outliers(&samples, &xs),
            samples,
        }
    }

    /// The median's interval's width over the median.
    pub fn width(&self) -> f64 {
        if self.median > 0.0 {
            (self.ci_high - self.ci_low) / self.median
        } else {
            0.0
        }
    }
}

/// One timed run's own times.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
pub struct Run {
    /// Its wall time, in seconds.
    pub wall_s: f64,
    /// The processor time the process's threads had meanwhile, in seconds (all threads), where
    /// the system says.
    pub cpu_s: Option<f64>,
    /// The time they spent ready but waiting for a core, in seconds, where the system says.
    pub waited_s: Option<f64>,
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
    /// Trials (battles) per second over the timed runs (unit `trials/s`).
    pub per_second: Spread,
    /// Every timed run's wall and processor time, in the order of `per_second.samples`.
    #[serde(default)]
    pub runs: Vec<Run>,
    /// Runs of the case (all its series: each sampler and its hand loop) made before the timed
    /// ones and not counted: the calibrations' (or one a series, with the trials fixed), and
    /// the rounds before a re-calibration.
    #[serde(default)]
    pub warmup_runs: usize,
    /// Whether the timed runs were shorter than half the time asked (a stall had shortened the
    /// calibration), so the trials were calibrated again and the runs before dropped.
    #[serde(default)]
    pub recalibrated: bool,
    /// Processor use over its runs.
    pub cpu: Option<CpuUse>,
    /// The reference it is measured against, if it has one.
    pub reference: Option<String>,
    /// "× reference": each round's rate over the reference's in the same round (they ran
    /// alternately), as a spread (unit `ratio`): its median is the figure, in `bench` and in
    /// `--compare` alike.
    #[serde(default)]
    pub to_reference: Option<Spread>,
    /// Layout 3's paired ratios, read to make `to_reference` of an old file.
    #[serde(default, rename = "ratio_samples", skip_serializing)]
    pub legacy_ratio_samples: Vec<f64>,
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
    /// Milliseconds a solve (and its report): each sample a batch's mean (unit `ms`).
    pub ms: Spread,
    /// Solves in each timed batch.
    #[serde(default)]
    pub solves_a_run: u32,
    /// Every timed batch's wall and processor time.
    #[serde(default)]
    pub runs: Vec<Run>,
    /// Processor use over its batches (medians).
    #[serde(default)]
    pub cpu: Option<CpuUse>,
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
    /// The least timed runs of each case (after its warm-up).
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
            ms: Spread::of(times, "ms"),
            p95_ms: p95,
        });
    }
    control.cancel();
    Ok(())
}

/// One timed run: its figure (a rate, or milliseconds), how the threads used the processor
/// meanwhile, and its own times.
#[derive(Debug, Clone, Copy)]
struct Measured {
    value: f64,
    cpu: Option<CpuUse>,
    run: Run,
}

/// Time `work` on `threads` threads: its figure and the processor's use meanwhile.
fn measured(threads: usize, work: impl FnOnce() -> Result<f64>) -> Result<Measured> {
    let before = provenance::cpu_times();
    let started = Instant::now();
    let value = work()?;
    let wall_s = started.elapsed().as_secs_f64().max(1e-9);
    let used = before
        .zip(provenance::cpu_times())
        .map(|((on0, w0), (on1, w1))| (on1 - on0, w1 - w0));
    let cpu = used.map(|(on, waited)| CpuUse {
        busy: on / (wall_s * threads as f64),
        waited: waited / (wall_s * threads as f64),
    });
    Ok(Measured {
        value,
        cpu,
        run: Run {
            wall_s,
            cpu_s: used.map(|u| u.0),
            waited_s: used.map(|u| u.1),
        },
    })
}

/// The medians of the processor's use over runs.
fn cpu_of(runs: &[Measured]) -> Option<CpuUse> {
    let uses: Vec<CpuUse> = runs.iter().filter_map(|m| m.cpu).collect();
    (uses.len() == runs.len() && !uses.is_empty()).then(|| CpuUse {
        busy: Spread::of(uses.iter().map(|u| u.busy).collect(), "share").median,
        waited: Spread::of(uses.iter().map(|u| u.waited).collect(), "share").median,
    })
}

/// The trials that make one run of `run_once` last at least `seconds`, doubling from 2^16, and
/// how many runs that took (warm-up: none of them is counted).
fn calibrate<M>(seconds: f64, mut run_once: impl FnMut(u64) -> Result<M>) -> Result<(u64, usize)> {
    let mut trials = 1u64 << 16;
    let mut made = 0;
    loop {
        let started = Instant::now();
        run_once(trials)?;
        made += 1;
        if started.elapsed().as_secs_f64() >= seconds || trials >= 1 << 40 {
            return Ok((trials, made));
        }
        trials *= 2;
    }
}

/// `trials` doubled until a run of them, at `wall` seconds for `trials`, lasts `seconds`.
fn rescaled(trials: u64, wall: f64, seconds: f64) -> u64 {
    let mut t = trials;
    while (t as f64 / trials as f64) * wall < seconds && t < 1 << 40 {
        t *= 2;
    }
    t
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
    /// Its name, and when the plan changed its settings, what it ran with instead: "rally RF
    /// … 100 turns (run with turns=12)".
    label: String,
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
        let label = label(case.name, if changed { over } else { &[] });
        Planned {
            case,
            set,
            changed,
            label,
        }
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

/// A case's name, and the settings laid over it that changed it.
fn label(name: &str, over: &[String]) -> String {
    if over.is_empty() {
        name.to_string()
    } else {
        format!("{name} (run with {})", over.join(" "))
    }
}

/// Whether a case's name is picked by the plan.
fn matches(plan: &Plan, name: &str) -> bool {
    if !plan.exact_names.is_empty() {
        return plan
            .exact_names
            .iter()
            .any(|n| n == name || n == &label(name, &plan.set));
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
                c.label,
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
            out += &format!("  {}\n    {}\n", c.label, c.command(" --exact-only"));
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
        // Each series' trials a run: the plan's (a baseline's), after one warm-up run, or
        // calibrated (every calibration run a warm-up). Nothing before the timed runs counts.
        let mut trials = Vec::new();
        let mut fixed = Vec::new();
        let mut warmup = 0;
        // The sampler each ran (a line's battle code rolls its dice whichever is asked).
        let mut used = Vec::new();
        // The case's last report, which a battle's reference loop is checked against.
        let mut last = None;
        for &sampler in &samplers {
            let given = plan.fixed(&case.label, sampler.name(), samplers.len() == 1);
            let (t, made) = match given {
                Some(t) => {
                    rate(job, t, threads, sampler, &mut last)?;
                    (t, 1)
                }
                None => calibrate(each, |t| rate(job, t, threads, sampler, &mut last))?,
            };
            trials.push(t);
            fixed.push(given.is_some());
            warmup += made;
            used.push((
                sampler,
                last.as_ref()
                    .and_then(|r| r.sampler.clone())
                    .unwrap_or_else(|| sampler.name().into()),
            ));
        }
        let (mut ref_trials, ref_fixed) = match reference {
            Some(r) => match plan.fixed(r.name, "plain loop", false) {
                Some(t) => {
                    reference_rate(r, t, threads, last.as_ref())?;
                    (t, true)
                }
                None => (
                    calibrate(each, |t| reference_rate(r, t, threads, last.as_ref()))?.0,
                    false,
                ),
            },
            None => (0, true),
        };
        // The timed rounds, each series once a round, case and reference alternated, so that
        // a change in the machine's load falls on all of them: at least `repeats`, then until
        // every median's interval is within SETTLED of it or CAP times the least time passed.
        let series = samplers.len() + usize::from(reference.is_some());
        let cap = CAP * plan.seconds * series as f64;
        let mut runs: Vec<Vec<Measured>> = vec![Vec::new(); samplers.len()];
        let mut ref_runs: Vec<f64> = Vec::new();
        let mut recalibrated = false;
        let mut started = Instant::now();
        loop {
            for (i, &sampler) in samplers.iter().enumerate() {
                runs[i].push(measured(n_threads, || {
                    rate(job, trials[i], threads, sampler, &mut last)
                })?);
            }
            if let Some(r) = reference {
                ref_runs.push(reference_rate(r, ref_trials, threads, last.as_ref())?);
            }
            let done = runs[0].len();
            // A stall during calibration (a run slowed by other work) leaves the trials too few
            // for the time asked: after three rounds, a series whose median run is under half
            // of it is calibrated again from its runs, and the rounds so far dropped.
            if done == 3 && !recalibrated {
                let short = |wall: Vec<f64>| Spread::of(wall, "s").median < each / 2.0;
                let mut redo = false;
                for i in 0..samplers.len() {
                    let wall: Vec<f64> = runs[i].iter().map(|m| m.run.wall_s).collect();
                    if !fixed[i] && short(wall.clone()) {
                        trials[i] = rescaled(trials[i], Spread::of(wall, "s").median, each);
                        redo = true;
                    }
                }
                let ref_wall: Vec<f64> = ref_runs.iter().map(|r| ref_trials as f64 / r).collect();
                if !ref_fixed && !ref_wall.is_empty() && short(ref_wall.clone()) {
                    ref_trials = rescaled(ref_trials, Spread::of(ref_wall, "s").median, each);
                    redo = true;
                }
                if redo {
                    recalibrated = true;
                    warmup += 3;
                    runs.iter_mut().for_each(Vec::clear);
                    ref_runs.clear();
                    started = Instant::now();
                    continue;
                }
            }
            if done >= repeats {
                let mut widths: Vec<f64> = runs
                    .iter()
                    .map(|r| Spread::of(r.iter().map(|m| m.value).collect(), "trials/s").width())
                    .collect();
                if !ref_runs.is_empty() {
                    widths.push(Spread::of(ref_runs.clone(), "trials/s").width());
                    for r in &runs {
                        let paired = r.iter().zip(&ref_runs).map(|(m, x)| m.value / x).collect();
                        widths.push(Spread::of(paired, "ratio").width());
                    }
                }
                if widths.iter().all(|w| *w <= SETTLED) || started.elapsed().as_secs_f64() > cap {
                    break;
                }
            }
        }
        let ref_spread = reference.map(|_| Spread::of(ref_runs.clone(), "trials/s"));
        for ((((sampler, name), runs), &trials), &setup) in
            used.into_iter().zip(runs).zip(&trials).zip(&setup)
        {
            let per_second = Spread::of(runs.iter().map(|m| m.value).collect(), "trials/s");
            let mut tail = format!(" --seed 1 --sampler {} --trials {trials}", sampler.name());
            if let Some(t) = threads {
                tail += &format!(" --threads {t}");
            }
            bench.cases.push(CaseRow {
                case: case.label.clone(),
                sampler: name,
                command: case.command(&tail),
                setup_ms: setup * 1e3,
                trials,
                cpu: cpu_of(&runs),
                reference: reference.map(|r| r.name.to_string()),
                to_reference: reference.map(|_| {
                    Spread::of(
                        runs.iter()
                            .zip(&ref_runs)
                            .map(|(m, r)| m.value / r)
                            .collect(),
                        "ratio",
                    )
                }),
                legacy_ratio_samples: Vec::new(),
                runs: runs.iter().map(|m| m.run).collect(),
                warmup_runs: warmup,
                recalibrated,
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
        // One solve first, untimed: the first touches cold caches and pages. Then a warm-up
        // batch of as many solves as fill a run's share of the time (it finds how many, and
        // is not counted); then the timed batches, each that many solves: a figure is a
        // batch's mean time a solve, so a single slow solve (the scheduler, a page fault) does
        // not make the case look noisy. At least `repeats` batches, then until the median's
        // interval is within SETTLED of it or CAP times the least time passed.
        let solve = || job.run(&opts, &Control::new()).map(|_| ());
        solve()?;
        let started = Instant::now();
        let mut k = 0u32;
        while k == 0 || started.elapsed().as_secs_f64() < each {
            solve()?;
            k += 1;
        }
        let mut batches: Vec<Measured> = Vec::new();
        let started = Instant::now();
        loop {
            batches.push(measured(1, || {
                let t = Instant::now();
                for _ in 0..k {
                    solve()?;
                }
                Ok(t.elapsed().as_secs_f64() * 1e3 / f64::from(k))
            })?);
            if batches.len() >= repeats
                && (Spread::of(batches.iter().map(|m| m.value).collect(), "ms").width() <= SETTLED
                    || started.elapsed().as_secs_f64() > CAP * plan.seconds)
            {
                break;
            }
        }
        bench.exact.push(ExactRow {
            case: case.label.clone(),
            command: case.command(" --exact-only"),
            ms: Spread::of(batches.iter().map(|m| m.value).collect(), "ms"),
            solves_a_run: k,
            runs: batches.iter().map(|m| m.run).collect(),
            cpu: cpu_of(&batches),
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
            "{} case(s) timed in runs shorter than {:.0} ms, where the timer and the start of the threads weigh as much as the loop: {}; give more --seconds (at least {:.2} for {} repeats)",
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

/// What a reader should see beside a figure: ` noisy`, ` 2 outliers`.
fn flags_text(s: &Spread) -> String {
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
fn ms_spread_text(s: &Spread) -> String {
    format!(
        "{} ({}–{}){}",
        ms_text(s.median),
        ms_text(s.ci_low),
        ms_text(s.ci_high),
        flags_text(s)
    )
}

/// Median of rates and its interval.
fn spread_text(s: &Spread) -> String {
    format!(
        "{} ({}–{}){}",
        rate_text(s.median),
        rate_text(s.ci_low).trim_end_matches([' ', 'M', 'k']),
        rate_text(s.ci_high),
        flags_text(s)
    )
}

/// A ratio's median and its interval: `3.19× (3.10–3.25)`.
fn ratio_text(s: &Spread) -> String {
    format!(
        "{:.2}× ({:.2}–{:.2}){}",
        s.median,
        s.ci_low,
        s.ci_high,
        flags_text(s)
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
                    "—".into(),
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
    out += "\n(setup: a fresh job's first, empty run with that sampler: compiling what it needs from the rules code and starting the threads; per second: trials, or battles for engagement and line, Monte Carlo only, setup and the exact solution's time excluded; cpu: the processor time the threads had over the run's wall time, and in brackets the time they waited for a core; × reference: the median of each round's rate over that of a plain hand-written loop of the same rules run in the same round (alternately, in this process, on the same threads), its outcomes checked on every run against the exact solution, or for a battle against the case's own Monte Carlo run beside it — bench --compare compares this same median; exact: a solve and its report; noisy: the interval is wider than 10% of the median; outliers: runs beyond Tukey's fences, counted; bench --list gives each case's command line, --format json every run's figure, wall and processor time)\n";
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
            // The calibration's runs are its warm-up, not counted.
            let (trials, _) = calibrate(seconds, |t| {
                rate(job.as_ref(), t, threads, Sampler::Table, &mut None)
            })?;
            jobs.push((job, setup, trials, Vec::new()));
        }
        for _ in 0..REPEATS {
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
        let file = Spread::of(std::mem::take(&mut jobs[0].3), "trials/s");
        let built = Spread::of(std::mem::take(&mut jobs[1].3), "trials/s");
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
        let s = Spread::of(vec![100.0, 95.0, 104.0, 101.0, 99.0], "trials/s");
        assert_eq!((s.median, s.min, s.max), (100.0, 95.0, 104.0));
        assert!((s.spread - 0.09).abs() < 1e-12 && !s.noisy);
        let s = Spread::of(vec![100.0, 80.0, 104.0, 90.0], "trials/s");
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
        let s = Spread::of(vec![5.0, 1.0, 3.0, 2.0, 4.0], "trials/s");
        assert_eq!((s.ci_low, s.ci_high), (1.0, 5.0));
        assert!((s.confidence - 0.9375).abs() < 1e-12);
        let s = Spread::of((1..=10).map(f64::from).collect(), "trials/s");
        assert_eq!((s.ci_low, s.ci_high), (2.0, 9.0));
        assert!((s.confidence - (1.0 - 22.0 / 1024.0)).abs() < 1e-12);
        let s = Spread::of((1..=30).map(f64::from).collect(), "trials/s");
        assert!(s.confidence >= 0.95 && s.ci_low > 1.0 && s.ci_high < 30.0);
    }

    /// Tukey's fences flag a run far from the rest (and none in a tight set), by its place.
    #[test]
    fn outliers_are_flagged_by_tukeys_fences() {
        let s = Spread::of(
            vec![
                100.0, 102.0, 98.0, 101.0, 40.0, 99.0, 103.0, 97.0, 100.5, 99.5,
            ],
            "trials/s",
        );
        assert_eq!(s.outliers, vec![4]);
        assert_eq!(s.unit, "trials/s");
        assert!(
            spread_text(&s).ends_with(" 1 outlier"),
            "{}",
            spread_text(&s)
        );
        let s = Spread::of((1..=10).map(f64::from).collect(), "ms");
        assert!(s.outliers.is_empty());
    }

    /// A stall that shortened the calibration is corrected: the trials doubled until a run
    /// lasts the time asked.
    #[test]
    fn a_short_run_is_rescaled_to_the_time_asked() {
        assert_eq!(rescaled(1 << 16, 0.01, 0.1), 1 << 20);
        assert_eq!(rescaled(1 << 16, 0.2, 0.1), 1 << 16);
    }

    /// Calibration runs are all warm-up: the trials and how many runs it took, none kept.
    #[test]
    fn calibration_counts_its_runs_and_keeps_none() {
        let mut seen = Vec::new();
        let (trials, made) = calibrate(0.0, |t| {
            seen.push(t);
            Ok(())
        })
        .unwrap();
        assert_eq!((trials, made, seen), (1 << 16, 1, vec![1 << 16]));
    }

    #[test]
    fn rates_are_written_with_their_unit() {
        assert_eq!(rate_text(514.2e6), "514.2 M");
        assert_eq!(rate_text(775.3e3), "775.3 k");
        let s = Spread::of(vec![1.0e6, 1.2e6, 1.1e6], "trials/s");
        assert_eq!(spread_text(&s), "1.1 M (1.0–1.2 M) noisy");
        assert_eq!(ms_text(12.345), "12.35");
        assert_eq!(ms_text(0.03123), "0.0312");
        assert_eq!(ms_text(0.5), "0.500");
    }
}
