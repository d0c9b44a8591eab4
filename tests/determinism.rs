//! The same seed gives bit-identical results at any thread count, for both samplers.

use morale_lab::engine::{self, CHUNK, Control, RunSpec, Sim};
use morale_lab::report::Report;
use morale_lab::scenario::chain::Sampler;

use crate::common::{Plan, run};

/// A report's numbers without timing and thread count.
fn numbers(r: &Report) -> String {
    let mut r = r.clone();
    r.elapsed_s = 0.0;
    r.trials_per_s = 0.0;
    r.threads = 0;
    r.to_json()
}

#[test]
fn identical_at_one_two_and_eight_threads() {
    for sampler in [Sampler::Table, Sampler::Dice] {
        for (system, scenario, params) in [
            (
                "rank-and-file",
                "rally",
                vec!["class=veteran", "stands=7", "lost=2", "rerolls=1"],
            ),
            (
                "rank-and-file",
                "under-fire",
                vec!["class=regular", "stands=8", "fire_dice=6", "fire_to_hit=5"],
            ),
            ("rank-and-file", "test", vec!["class=green", "elite=true"]),
            (
                "effectiveness",
                "under-fire",
                vec!["class=poor", "p_blocked=1/6"],
            ),
            ("effectiveness", "rally", vec!["general=true"]),
            (
                "linear-warfare",
                "melee",
                vec!["attacker=guards charging general", "defender=line obstacle"],
            ),
            (
                "linear-warfare",
                "under-fire",
                vec!["general=true", "fall_back_at=2"],
            ),
        ] {
            let trials = 5 * CHUNK + 321;
            let one = numbers(&run(
                system,
                scenario,
                &params,
                &[],
                Plan::new(trials, 99, 1, sampler),
            ));
            for threads in [2, 8] {
                let other = run(
                    system,
                    scenario,
                    &params,
                    &[],
                    Plan::new(trials, 99, threads, sampler),
                );
                assert_eq!(
                    numbers(&other),
                    one,
                    "{scenario} {sampler:?} at {threads} threads"
                );
            }
            let reseeded = run(
                system,
                scenario,
                &params,
                &[],
                Plan::new(trials, 100, 2, sampler),
            );
            assert_ne!(numbers(&reseeded), one, "another seed gives other numbers");
        }
    }
}

/// A simulation that costs nothing per trial: it only counts them.
struct Count;
impl Sim for Count {
    fn tally_len(&self) -> usize {
        1
    }
    fn run_chunk(&self, _dice: &mut morale_lab::dice::Dice, n: u64, tally: &mut [u64]) {
        tally[0] += n;
    }
}

#[test]
fn ten_billion_trials_in_a_fixed_size_tally() {
    // The chunk plan of 1e10 trials is walked without storing anything per chunk or trial.
    let spec = RunSpec {
        trials: 10_000_000_000,
        seed: 1,
        stream: 0,
        threads: Some(2),
    };
    let tally = engine::run(&Count, &spec, &Control::new()).unwrap();
    assert_eq!(tally, vec![10_000_000_000]);
}

/// `--precision`: batches until the widest outcome interval is narrow enough; the result is the
/// plain run with the trials it used, to the bit.
#[test]
fn precision_on_demand_reaches_its_target_and_is_a_plain_run() {
    use morale_lab::scenario::RunOptions;
    let job = morale_lab::system::build(
        "rank-and-file",
        "under-fire",
        &crate::common::inputs(&["class=regular", "stands=8"]),
        &[],
    )
    .unwrap();
    let options = |trials: u64, precision: Option<f64>| RunOptions {
        spec: RunSpec {
            trials,
            seed: 21,
            stream: 0,
            threads: Some(2),
        },
        confidence: 0.95,
        exact_only: false,
        sampler: Sampler::Table,
        precision,
    };
    for target in [0.004, 0.001] {
        let r = job
            .run(&options(10_000_000_000, Some(target)), &Control::new())
            .unwrap();
        let widest = r
            .outcomes
            .iter()
            .map(|o| (o.cell.ci_high.unwrap() - o.cell.ci_low.unwrap()) / 2.0)
            .fold(0.0, f64::max);
        assert!(widest <= target, "half-width {widest} above {target}");
        assert_eq!(r.trials % CHUNK, 0);
        assert!(r.notes.iter().any(|n| n.contains("reached")));
        // Half the trials would not have done (the batches double).
        if r.trials > 16 * CHUNK {
            let half = job
                .run(&options(r.trials / 2, None), &Control::new())
                .unwrap();
            let w = half
                .outcomes
                .iter()
                .map(|o| (o.cell.ci_high.unwrap() - o.cell.ci_low.unwrap()) / 2.0)
                .fold(0.0, f64::max);
            assert!(w > target);
        }
        let plain = job.run(&options(r.trials, None), &Control::new()).unwrap();
        let mut r = r;
        r.notes.retain(|n| !n.starts_with("precision"));
        assert_eq!(numbers(&r), numbers(&plain));
    }
    // A cap below what the precision needs stops at the cap and says so.
    let r = job
        .run(&options(1_000_000, Some(0.0001)), &Control::new())
        .unwrap();
    assert_eq!(r.trials, 1_000_000);
    assert!(r.notes.iter().any(|n| n.contains("NOT reached")));
}
