//! `morale-lab bench`: the benchmark cases of docs/PERFORMANCE.md on the user's machine, in
//! trials (battles) per second, each the median of several runs with its interval and every
//! run's figure, beside a plain hand-written loop of the same rules run in the same process (its
//! ratio), keyed to the build and the machine (`provenance`); and the exact solvers' times at
//! the largest realistic units, through the same builders as the command line (the cases are
//! the library's, which criterion also runs). Text or JSON; a result saved with `--save` is a
//! baseline that `--compare` holds a later run, or another saved result, against (`compare`).

mod api;
pub mod compare;
mod edges;
mod measure;
mod mechanic;
mod pick;
pub mod provenance;
mod render;
mod spread;

use std::time::Instant;

use serde::{Deserialize, Serialize};

use morale_lab::engine::{Control, RunSpec};
use morale_lab::error::{Error, Result};
use morale_lab::report::Report;
use morale_lab::report::align;
use morale_lab::system::cases::{Against, Case, Reference, cases, exact_cases, references};
use morale_lab::{RunOptions, Sampler};

use api::*;
use measure::*;
use mechanic::*;
use pick::*;
use provenance::{Build, Machine};
use render::*;
use spread::*;

pub use edges::edges;
pub use pick::list;
pub use render::{contended, json, render};

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

/// ...and however few runs it has, a case stops once it has taken this many times its cap
/// (a starved process would otherwise run a baseline's fixed trials for as long as it takes):
/// its figures are then from fewer runs than asked, which the warnings say.
pub const LIMIT: f64 = 4.0;

/// Tukey's fences: a run more than this many interquartile ranges below the lower quartile or
/// above the upper is an outlier (flagged and reported, still counted: the median is robust).
pub const FENCE: f64 = 1.5;

/// A run shorter than this (seconds) measures the timer and the start-up as much as the loop.
const SHORTEST_RUN: f64 = 0.05;

/// Threads waiting for a core longer than this share of their time: the machine was busy.
pub const CONTENDED: f64 = 0.05;

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
    /// Of the time its threads were ready to run, the share they spent waiting for a core
    /// (the machine's other work, measured): at most 1 however many threads the process has.
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
    /// Every timed run's wall and processor time, in the order of `per_second.samples` (none
    /// in a file saved before 2026-12-01).
    #[serde(default)]
    pub runs: Vec<Run>,
    /// Processor use over its runs.
    #[serde(default)]
    pub cpu: Option<CpuUse>,
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
    /// The processor's use over the file's timed runs (medians), so that `--compare` can tell
    /// a busy machine from a slower file (files saved before 2026-12-01 have none).
    #[serde(default)]
    cpu_file: Option<CpuUse>,
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

/// One case's timing: its job, the samplers it runs, its reference loop (if any), the threads,
/// and each run's share of the time.
struct Timing<'a> {
    job: &'a dyn morale_lab::Job,
    samplers: &'a [Sampler],
    reference: Option<&'a Reference>,
    threads: Option<usize>,
    n_threads: usize,
    each: f64,
}

/// How many trials each series runs a timed run, whether the plan fixed them (a baseline's),
/// and the warm-up runs made to find them.
struct TrialsPlan {
    trials: Vec<u64>,
    fixed: Vec<bool>,
    ref_trials: u64,
    ref_fixed: bool,
    warmup: usize,
}

/// The timed runs of a case: each series' (the samplers' and the reference's), and whether a
/// stall made them be calibrated again.
struct Rounds {
    runs: Vec<Vec<Measured>>,
    ref_runs: Vec<Measured>,
    recalibrated: bool,
}

/// The one-time set-up a run of each sampler pays before its first trial, on a fresh job (a
/// job keeps what it compiled for the runs after): the tables or the dice trees compiled from
/// the rules code, and the thread pool. Seconds, one a sampler.
fn setup_times(case: &Planned, samplers: &[Sampler], threads: Option<usize>) -> Result<Vec<f64>> {
    let mut setup = Vec::new();
    for &sampler in samplers {
        let fresh = case.job()?;
        let started = Instant::now();
        fresh.tally(
            &options(1, threads, false).sampler(sampler),
            0..0,
            &Control::new(),
        )?;
        setup.push(started.elapsed().as_secs_f64());
    }
    Ok(setup)
}

/// Each series' trials a run: the plan's (a baseline's), after one warm-up run, or calibrated
/// (every calibration run a warm-up). Nothing before the timed runs counts. Also the sampler
/// each ran (a line's battle code rolls its dice whichever is asked); `last` keeps the case's
/// last report, which a battle's reference loop is checked against.
fn trials_plan(
    plan: &Plan,
    case: &Planned,
    t: &Timing,
    last: &mut Option<Report>,
) -> Result<(TrialsPlan, Vec<(Sampler, String)>)> {
    let (mut trials, mut fixed, mut warmup, mut used) = (Vec::new(), Vec::new(), 0, Vec::new());
    for &sampler in t.samplers {
        let given = plan.fixed(&case.label, sampler.name(), t.samplers.len() == 1);
        let (n, made) = match given {
            Some(n) => {
                rate(t.job, n, t.threads, sampler, last)?;
                (n, 1)
            }
            None => calibrate(t.each, |n| rate(t.job, n, t.threads, sampler, last))?,
        };
        trials.push(n);
        fixed.push(given.is_some());
        warmup += made;
        used.push((
            sampler,
            last.as_ref()
                .and_then(|r| r.sampler.clone())
                .unwrap_or_else(|| sampler.name().into()),
        ));
    }
    let (ref_trials, ref_fixed) = match t.reference {
        Some(r) => match plan.fixed(r.name, "plain loop", false) {
            Some(n) => {
                reference_rate(r, n, t.threads, last.as_ref())?;
                (n, true)
            }
            None => (
                calibrate(t.each, |n| reference_rate(r, n, t.threads, last.as_ref()))?.0,
                false,
            ),
        },
        None => (0, true),
    };
    let planned = TrialsPlan {
        trials,
        fixed,
        ref_trials,
        ref_fixed,
        warmup,
    };
    Ok((planned, used))
}

/// After three rounds: a stall during calibration (a run slowed by other work) leaves the
/// trials too few for the time asked, so a series whose median run is under half of it is
/// calibrated again from its runs. Whether any was.
fn recalibrate(
    each: f64,
    p: &mut TrialsPlan,
    runs: &[Vec<Measured>],
    ref_runs: &[Measured],
) -> bool {
    let short = |wall: Vec<f64>| Spread::of(wall, "s").median < each / 2.0;
    let mut redo = false;
    // One series a sampler.
    for (i, run) in runs.iter().enumerate() {
        let wall: Vec<f64> = run.iter().map(|m| m.run.wall_s).collect();
        if !p.fixed[i] && short(wall.clone()) {
            p.trials[i] = rescaled(p.trials[i], Spread::of(wall, "s").median, each);
            redo = true;
        }
    }
    let ref_wall: Vec<f64> = ref_runs.iter().map(|r| r.run.wall_s).collect();
    if !p.ref_fixed && !ref_wall.is_empty() && short(ref_wall.clone()) {
        p.ref_trials = rescaled(p.ref_trials, Spread::of(ref_wall, "s").median, each);
        redo = true;
    }
    redo
}

/// Whether every median's interval (the series', the reference's and each ratio to it) is
/// within SETTLED of it.
fn settled(runs: &[Vec<Measured>], ref_runs: &[Measured]) -> bool {
    let mut widths: Vec<f64> = runs
        .iter()
        .map(|r| Spread::of(r.iter().map(|m| m.value).collect(), "trials/s").width())
        .collect();
    if !ref_runs.is_empty() {
        widths.push(Spread::of(ref_runs.iter().map(|m| m.value).collect(), "trials/s").width());
        for r in runs {
            let paired = r
                .iter()
                .zip(ref_runs)
                .map(|(m, x)| m.value / x.value)
                .collect();
            widths.push(Spread::of(paired, "ratio").width());
        }
    }
    widths.iter().all(|w| *w <= SETTLED)
}

/// The timed rounds, each series once a round, case and reference alternated, so that a
/// change in the machine's load falls on all of them: at least `repeats`, then until every
/// median's interval is within SETTLED of it or `cap` seconds passed.
fn rounds(
    t: &Timing,
    p: &mut TrialsPlan,
    (repeats, cap): (usize, f64),
    last: &mut Option<Report>,
) -> Result<Rounds> {
    let mut runs: Vec<Vec<Measured>> = vec![Vec::new(); t.samplers.len()];
    let mut ref_runs: Vec<Measured> = Vec::new();
    let mut recalibrated = false;
    let mut started = Instant::now();
    loop {
        for (i, &sampler) in t.samplers.iter().enumerate() {
            runs[i].push(measured(t.n_threads, || {
                rate(t.job, p.trials[i], t.threads, sampler, last)
            })?);
        }
        if let Some(r) = t.reference {
            let spec = RunSpec {
                trials: p.ref_trials,
                seed: 1,
                stream: 0,
                threads: t.threads,
            };
            ref_runs.push(reference_measured(r, &spec, t.n_threads, last.as_ref())?);
        }
        let done = runs[0].len();
        if done == 3 && !recalibrated && recalibrate(t.each, p, &runs, &ref_runs) {
            // The rounds so far are dropped.
            recalibrated = true;
            p.warmup += 3;
            runs.iter_mut().for_each(Vec::clear);
            ref_runs.clear();
            started = Instant::now();
            continue;
        }
        let took = started.elapsed().as_secs_f64();
        if done >= repeats && (settled(&runs, &ref_runs) || took > cap) {
            break;
        }
        if done >= 2 && took > LIMIT * cap {
            break;
        }
    }
    Ok(Rounds {
        runs,
        ref_runs,
        recalibrated,
    })
}

/// Time one case: its samplers (the default; a case with a reference also with every die
/// rolled, so that both paths are held against the hand loop, and an engagement too, so that
/// its table sampler is measured beside the battle code it stands in for) and its reference
/// loop, alternated; a row for each, and one for the reference.
fn case_rows(
    bench: &mut Bench,
    plan: &Plan,
    case: &Planned,
    job: &dyn morale_lab::Job,
    asked: Option<Sampler>,
    n_threads: usize,
) -> Result<()> {
    let threads = plan.threads;
    let refs = references();
    let reference = refs
        .iter()
        .find(|r| r.case == case.case.name)
        .filter(|_| !case.changed);
    let both = (reference.is_some() && !case.case.scenario.is_battle())
        || case.case.scenario == morale_lab::Scenario::Engagement;
    let samplers: Vec<Sampler> = match asked {
        Some(s) => vec![s],
        None if both => vec![Sampler::Table, Sampler::Dice],
        None => vec![Sampler::Table],
    };
    let setup = setup_times(case, &samplers, threads)?;
    let timing = Timing {
        job,
        samplers: &samplers,
        reference,
        threads,
        n_threads,
        each: plan.seconds / plan.repeats as f64,
    };
    let mut last = None;
    let (mut planned, used) = trials_plan(plan, case, &timing, &mut last)?;
    let series = samplers.len() + usize::from(reference.is_some());
    let cap = CAP * plan.seconds * series as f64;
    let Rounds {
        runs,
        ref_runs,
        recalibrated,
    } = rounds(&timing, &mut planned, (plan.repeats, cap), &mut last)?;
    let ref_spread =
        reference.map(|_| Spread::of(ref_runs.iter().map(|m| m.value).collect(), "trials/s"));
    for ((((sampler, name), runs), &trials), &setup) in
        used.into_iter().zip(runs).zip(&planned.trials).zip(&setup)
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
                        .map(|(m, r)| m.value / r.value)
                        .collect(),
                    "ratio",
                )
            }),
            legacy_ratio_samples: Vec::new(),
            runs: runs.iter().map(|m| m.run).collect(),
            warmup_runs: planned.warmup,
            recalibrated,
            per_second,
        });
    }
    if let (Some(r), Some(per_second)) = (reference, ref_spread) {
        bench.references.push(ReferenceRow {
            reference: r.name.to_string(),
            case: r.case.to_string(),
            trials: planned.ref_trials,
            per_second,
            runs: ref_runs.iter().map(|m| m.run).collect(),
            cpu: cpu_of(&ref_runs),
            checked_against: match r.against {
                Against::Exact => "exact solution",
                Against::MonteCarlo => "Monte Carlo",
            }
            .into(),
        });
    }
    Ok(())
}

/// Time one exact solve. One solve first, untimed: the first touches cold caches and pages.
/// Then a warm-up batch of as many solves as fill a run's share of the time (it finds how
/// many, and is not counted); then the timed batches, each that many solves: a figure is a
/// batch's mean time a solve, so a single slow solve (the scheduler, a page fault) does not
/// make the case look noisy. At least `repeats` batches, then until the median's interval is
/// within SETTLED of it or CAP times the least time passed.
fn exact_row(plan: &Plan, case: &Planned, job: &dyn morale_lab::Job) -> Result<ExactRow> {
    let each = plan.seconds / plan.repeats as f64;
    let opts = options(1, plan.threads, true);
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
        let took = started.elapsed().as_secs_f64();
        if batches.len() >= plan.repeats
            && (Spread::of(batches.iter().map(|m| m.value).collect(), "ms").width() <= SETTLED
                || took > CAP * plan.seconds)
        {
            break;
        }
        if batches.len() >= 2 && took > LIMIT * CAP * plan.seconds {
            break;
        }
    }
    Ok(ExactRow {
        case: case.label.clone(),
        command: case.command(" --exact-only"),
        ms: Spread::of(batches.iter().map(|m| m.value).collect(), "ms"),
        solves_a_run: k,
        runs: batches.iter().map(|m| m.run).collect(),
        cpu: cpu_of(&batches),
    })
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
    let asked: Option<Sampler> = match &plan.sampler {
        None => None,
        Some(s) => {
            Some(Sampler::parse(s).ok_or_else(|| bad("--sampler", s, "allowed: table, dice"))?)
        }
    };
    // Every job is built before anything is timed, so that a refused setting says so at once.
    let jobs = cases.iter().map(Planned::job).collect::<Result<Vec<_>>>()?;
    let exact_jobs = exact.iter().map(Planned::job).collect::<Result<Vec<_>>>()?;
    let threads = plan.threads;
    let n_threads = threads.unwrap_or_else(rayon::current_num_threads);
    let mut bench = Bench {
        schema: provenance::SCHEMA,
        build: Build::this(),
        date: provenance::now_utc(),
        machine: Machine::here(n_threads),
        plan: plan.clone(),
        seconds_a_case: plan.seconds,
        repeats: plan.repeats,
        noise_bound: NOISE,
        cases: Vec::new(),
        references: Vec::new(),
        exact: Vec::new(),
        mechanic: Vec::new(),
        mechanic_not_run: None,
        api: Vec::new(),
        warnings: Vec::new(),
    };
    for (case, job) in cases.iter().zip(&jobs) {
        case_rows(&mut bench, plan, case, job.as_ref(), asked, n_threads)?;
    }
    for (case, job) in exact.iter().zip(&exact_jobs) {
        bench.exact.push(exact_row(plan, case, job.as_ref())?);
    }
    if !files.is_empty() {
        let each = plan.seconds / plan.repeats as f64;
        mechanic_rows(&mut bench, &files, each, threads)?;
    }
    if api {
        api_rows(&mut bench, plan.seconds, threads)?;
    }
    bench.machine.load_after = provenance::load();
    bench.warnings = warnings(&bench);
    Ok(bench)
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
