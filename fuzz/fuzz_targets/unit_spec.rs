//! Fuzz unit specs and `--set` pairs: the first byte picks a system, the second a
//! scenario, and the rest is lines of `KEY=VALUE` (as `--set` takes them, unit specs such as
//! `attacker=veteran cavalry stands=6 lost=2` or `a=2 x veteran; 4 x green` included),
//! `rule KEY=VALUE` (as `--rule` takes them: the rule parameters) or `option NAME`. Whatever they say, building the job either works or gives a typed error;
//! a built job runs a few Monte Carlo trials (or refuses up front, as over its time budget) and its report (the exact solution and its mass
//! check included) comes out or refuses its input, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use morale_lab::engine::Control;
use morale_lab::params::Input;
use morale_lab::RunOptions;
use morale_lab::Scenario;
use morale_lab::system;

/// Exact solves of huge units (40 stands for 1000 turns) are correct but take seconds; keep the
/// fuzzer on the parsers and the rules by skipping the report of such setups.
fn large(inputs: &[Input]) -> bool {
    inputs.iter().any(|i| {
        let n = morale_lab::params::parse_int(&i.value).unwrap_or(0);
        (i.key == "turns" && n > 30) || (i.key == "max_rounds" && n > 30) || n > 14
    })
}

/// The scenario each value of the second byte picks. The seeds in `fuzz/seeds/unit_spec` were
/// written for this order, so it stays as it is when `Scenario::ALL` changes.
const SCENARIOS: [Scenario; 7] = [
    Scenario::Test,
    Scenario::Rally,
    Scenario::Melee,
    Scenario::Charge,
    Scenario::Engagement,
    Scenario::Line,
    Scenario::UnderFire,
];

fuzz_target!(|data: &[u8]| {
    let [s, c, rest @ ..] = data else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let systems = system::systems();
    let system = systems[*s as usize % systems.len()].name();
    let scenario = SCENARIOS[*c as usize % SCENARIOS.len()];
    let mut inputs = Vec::new();
    let mut options = Vec::new();
    for line in text.lines() {
        if let Some(o) = line.strip_prefix("option ") {
            options.push(o.to_string());
        } else if let Some(r) = line.strip_prefix("rule ") {
            match Input::parse_rule(r) {
                Ok(i) => inputs.push(i),
                Err(_) => return,
            }
        } else {
            match Input::parse_set(line) {
                Ok(i) => inputs.push(i),
                Err(_) => return,
            }
        }
    }
    let Ok(job) = system::build(system, scenario, &inputs, &options) else {
        return;
    };
    let opts = RunOptions::new(64, 7);
    let control = Control::new();
    // A built job runs, or refuses up front as the command line would (exit 2): its tables
    // would take longer to compile than their time budget (this build is instrumented and
    // several times slower than a release, so a setting near the bound crosses it here).
    let raw = match job.tally(&opts, 0..opts.spec.chunks(), &control) {
        Ok(raw) => raw,
        Err(e) => {
            assert!(e.is_bad_input(), "a built job fails to run: {e}");
            return;
        }
    };
    if !large(&inputs) {
        // A report may still refuse its input (a melee that cannot be relied on to end within
        // its round cap): that is exit 2 on the command line, never a failure.
        if let Err(e) = job.report_tally(&raw, &opts, &control) {
            assert!(e.is_bad_input(), "a built job fails to report: {e}");
        }
    }
});
