//! Helpers shared by the integration tests.

use morale_lab::RunOptions;
use morale_lab::Sampler;
use morale_lab::engine::{Control, RunSpec};
use morale_lab::params::Input;
use morale_lab::report::Report;
use morale_lab::system;

/// Inputs from `key=value` pairs, as `--set` would give them; a pair written
/// `rule:key=value` as `--rule` would.
pub fn inputs(pairs: &[&str]) -> Vec<Input> {
    pairs
        .iter()
        .map(|p| match p.strip_prefix("rule:") {
            Some(rule) => Input::parse_rule(rule).unwrap(),
            None => Input::parse_set(p).unwrap(),
        })
        .collect()
}

/// How many trials to run, from which seed, on how many threads, with which sampler.
pub struct Plan {
    trials: u64,
    seed: u64,
    threads: usize,
    sampler: Sampler,
}

impl Plan {
    /// A plan. Its seed is fixed by the test, shifted by `MORALE_LAB_TEST_SEED` when that is
    /// set, so the statistical tests can be run with other seeds:
    /// `MORALE_LAB_TEST_SEED=7 cargo test` (each test's seeds are written in it; the shift is
    /// added to them).
    pub fn new(trials: u64, seed: u64, threads: usize, sampler: Sampler) -> Plan {
        Plan {
            trials,
            seed: seed.wrapping_add(seed_shift()),
            threads,
            sampler,
        }
    }
}

/// `MORALE_LAB_TEST_SEED` (a whole number), or 0.
pub fn seed_shift() -> u64 {
    match std::env::var("MORALE_LAB_TEST_SEED") {
        Ok(text) => text
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("MORALE_LAB_TEST_SEED={text:?} is not a whole number")),
        Err(_) => 0,
    }
}

/// Run a scenario through the library.
pub fn run(
    system_name: &str,
    scenario: &str,
    pairs: &[&str],
    options: &[&str],
    plan: Plan,
) -> Report {
    let Plan {
        trials,
        seed,
        threads,
        sampler,
    } = plan;
    let options: Vec<String> = options.iter().map(|s| s.to_string()).collect();
    let scenario = morale_lab::Scenario::parse(scenario).unwrap();
    let job = system::build(system_name, scenario, &inputs(pairs), &options)
        .unwrap_or_else(|e| panic!("{scenario} {pairs:?}: {e}"));
    let spec = RunSpec {
        trials,
        seed,
        stream: 0,
        threads: Some(threads),
    };
    job.run(
        &RunOptions {
            spec,
            confidence: 0.95,
            exact_only: false,
            sampler,
            precision: None,
            exact_budget: None,
            exact_work: None,
        },
        &Control::new(),
    )
    .unwrap()
}

/// The binary under test.
pub fn bin() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("morale-lab").unwrap()
}

/// What the binary prints on standard output for `args` (it must succeed).
pub fn stdout_of(args: &[&str]) -> String {
    let out = bin()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).expect("UTF-8 output")
}

/// The JSON object the binary prints for `args` (it must succeed).
pub fn json_of(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout_of(args)).expect("one JSON object")
}

/// The exact value of metric `name` (panics when there is none: the scenario must be exact).
pub fn exact_metric(r: &Report, name: &str) -> f64 {
    r.metrics
        .iter()
        .find(|m| m.name == name)
        .and_then(|m| m.exact)
        .unwrap_or_else(|| panic!("no exact {name}"))
}

/// The exact chance of outcome `name` (panics when there is none).
pub fn exact_outcome(r: &Report, name: &str) -> f64 {
    r.outcomes
        .iter()
        .find(|o| o.outcome == name)
        .and_then(|o| o.cell.exact)
        .unwrap_or_else(|| panic!("no exact outcome {name}"))
}
