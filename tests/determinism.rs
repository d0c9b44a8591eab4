//! The same seed gives bit-identical results at any thread count, for both samplers.

use morale_lab::Sampler;
use morale_lab::engine::{self, CHUNK, Control, RunSpec, Sim};
use morale_lab::report::{Rendered, Report};

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
    use morale_lab::RunOptions;
    let job = morale_lab::system::build(
        "rank-and-file",
        morale_lab::Scenario::UnderFire,
        &crate::common::inputs(&["class=regular", "stands=8"]),
        &[],
    )
    .unwrap();
    let options = |trials: u64, precision: Option<f64>| {
        RunOptions::new(trials, 21)
            .threads(Some(2))
            .precision(precision)
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

/// Counts cannot overflow at 10^12 trials, nor at the cap of 10^15. A real tally (of a
/// turn-by-turn chain with an exact solution, and of a battle with per-turn sums of squares) is
/// scaled to those sizes, as if every trial had been run that many times more: the report must
/// count every outcome exactly, give the same estimates and metrics (to rounding) and narrower
/// intervals. A tally whose counts do not add up to its trials is refused.
#[test]
fn a_trillion_trials_and_the_cap_report_exactly() {
    use morale_lab::RunOptions;
    let options = |trials: u64| RunOptions {
        spec: RunSpec {
            trials,
            seed: 5,
            stream: 0,
            threads: Some(2),
        },
        confidence: 0.95,
        exact_only: false,
        sampler: Sampler::Dice,
        precision: None,
        exact_budget: None,
        exact_work: None,
    };
    const SMALL: u64 = 100_000;
    for (system, scenario, sets) in [
        ("rank-and-file", "under-fire", &["stands=8", "turns=12"][..]),
        (
            "effectiveness",
            "line",
            &["attacker=4 x regular", "defender=4 x regular"][..],
        ),
    ] {
        let job = morale_lab::system::build(
            system,
            morale_lab::Scenario::parse(scenario).unwrap(),
            &crate::common::inputs(sets),
            &[],
        )
        .unwrap();
        let small = options(SMALL);
        let raw = job
            .tally(&small, 0..small.spec.chunks(), &Control::new())
            .unwrap();
        let base = job.report_tally(&raw, &small, &Control::new()).unwrap();
        for trials in [1_000_000_000_000u64, 1_000_000_000_000_000] {
            let k = trials / SMALL;
            let scaled: Vec<u64> = raw.iter().map(|&x| x.checked_mul(k).unwrap()).collect();
            let r = job
                .report_tally(&scaled, &options(trials), &Control::new())
                .unwrap();
            assert_eq!(r.trials, trials);
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0);
            for (o, b) in r.outcomes.iter().zip(&base.outcomes) {
                let what = format!("{system} {scenario} {trials} {}", o.outcome);
                assert_eq!(o.cell.count, b.cell.count.map(|c| c * k), "{what}");
                assert!(
                    close(o.cell.p, b.cell.p),
                    "{what}: {} vs {}",
                    o.cell.p,
                    b.cell.p
                );
                if let (Some(lo), Some(hi), Some(blo), Some(bhi)) =
                    (o.cell.ci_low, o.cell.ci_high, b.cell.ci_low, b.cell.ci_high)
                {
                    assert!(lo <= o.cell.p && o.cell.p <= hi, "{what}");
                    assert!(hi - lo <= bhi - blo, "{what}: the interval must narrow");
                }
            }
            for (m, b) in r.metrics.iter().zip(&base.metrics) {
                let what = format!("{system} {scenario} {trials} {}", m.name);
                match (m.value, b.value) {
                    (Some(x), Some(y)) => assert!(close(x, y), "{what}: {x} vs {y}"),
                    (x, y) => assert_eq!(x.is_some(), y.is_some(), "{what}"),
                }
                if let (Some(s), Some(bs)) = (m.stderr, b.stderr) {
                    assert!(s.is_finite() && s <= bs, "{what}: {s} vs {bs}");
                }
            }
        }
        // A tally claiming more trials than its outcomes count is refused, not reported.
        let e = job
            .report_tally(&raw, &options(SMALL + 1), &Control::new())
            .unwrap_err();
        assert!(e.to_string().contains("damaged"), "{e}");
    }
    // Adding shard tallies that would overflow 64 bits is refused.
    let mut a = vec![u64::MAX - 1, 3];
    assert!(!engine::try_add_into(&mut a, &[2, 0]));
    let mut b = vec![u64::MAX - 1, 3];
    assert!(engine::try_add_into(&mut b, &[1, 4]));
    assert_eq!(b, vec![u64::MAX, 7]);
}
