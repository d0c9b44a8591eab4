//! Trials per second of the hot loops (criterion reports them as elements/s), and the time of
//! each exact solver at the largest realistic units.
//!
//! `scenarios`: every scenario × system of [`morale_lab::system::cases::cases`] (the cases
//! `morale-lab bench` prints), built as the command line builds them, at 1 and 2 threads, with
//! the default table sampler (battles have the dice sampler only; set `MORALE_LAB_BENCH_DICE=1`
//! to add the dice sampler for the others). Each iteration is
//! a Monte Carlo run of its trials through `Job::tally` (the raw tally, as a shard computes it)
//! on the process's thread pool, from the tables the job compiled on its first run (as the
//! batches of a `--precision` run reuse them). A case with a plain hand-written loop of its
//! rules (`references`) has it benched in its group, on the same threads. `setup`: that one-time cost — a fresh job's
//! tables compiled and its pool found — for every case. `exact`: the exact solution and report
//! of each of [`morale_lab::system::cases::exact_cases`] (each should take under 100 ms).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use morale_lab::Sampler;
use morale_lab::engine::Control;
use morale_lab::system::cases::{cases, exact_cases, references};
use morale_lab::{RunOptions, Scenario};
use std::time::Duration;

/// Trials an iteration: 2^23 (2^18 battles for `engagement` and `line`).
fn trials_for(scenario: Scenario) -> u64 {
    if scenario.is_battle() {
        1 << 18
    } else {
        1 << 23
    }
}

fn options(trials: u64, threads: usize, sampler: Sampler, exact_only: bool) -> RunOptions {
    RunOptions::new(trials, 1)
        .threads(Some(threads))
        .sampler(sampler)
        .exact_only(exact_only)
}

fn scenarios(c: &mut Criterion) {
    for case in cases() {
        let job = case.job().expect("the bench cases build");
        let trials = trials_for(case.scenario);
        let samplers: &[Sampler] = if case.scenario.is_battle() {
            &[Sampler::Dice]
        } else if std::env::var_os("MORALE_LAB_BENCH_DICE").is_some() {
            &[Sampler::Table, Sampler::Dice]
        } else {
            &[Sampler::Table]
        };
        let mut group = c.benchmark_group(case.name.replace(' ', "-"));
        group.throughput(Throughput::Elements(trials));
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(3));
        for &sampler in samplers {
            for threads in [1, 2] {
                let opts = options(trials, threads, sampler, false);
                let chunks = 0..opts.spec.chunks();
                group.bench_function(format!("{}/{threads}-threads", sampler.name()), |b| {
                    b.iter(|| job.tally(&opts, chunks.clone(), &Control::new()).unwrap())
                });
            }
        }
        // The case's plain hand-written loop, if it has one, in the same group: criterion's
        // report sets the two side by side.
        for r in references().iter().filter(|r| r.case == case.name) {
            for threads in [1, 2] {
                let spec = options(trials, threads, Sampler::Dice, false).spec;
                group.bench_function(format!("hand-loop/{threads}-threads"), |b| {
                    b.iter(|| (r.run)(&spec, &Control::new()).unwrap())
                });
            }
        }
        group.finish();
    }
}

fn setup(c: &mut Criterion) {
    let mut group = c.benchmark_group("setup");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(2));
    for case in cases() {
        let opts = options(1, 2, Sampler::Table, false);
        group.bench_function(case.name.replace(' ', "-"), |b| {
            b.iter(|| {
                let job = case.job().expect("the bench cases build");
                job.tally(&opts, 0..0, &Control::new()).unwrap()
            })
        });
    }
    group.finish();
}

fn exact(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    for case in exact_cases() {
        let job = case.job().expect("the exact cases build");
        let opts = options(1, 1, Sampler::Table, true);
        group.bench_function(case.name.replace(' ', "-"), |b| {
            b.iter(|| job.run(&opts, &Control::new()).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, scenarios, setup, exact);
criterion_main!(benches);
