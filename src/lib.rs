//! # morale-lab
//!
//! Monte Carlo and exact analysis of horse-and-musket wargame morale, rally and melee rules, so
//! that rules designers can publish what their rules actually do.
//!
//! The rule mechanics follow the project's reading of the source texts, `docs/RULES.md`, and cite
//! its ids (RF-…, EF-…, LW-…). Every scenario is a small Markov chain over a unit's state
//! ([`chain::Chain`]) whose turn is written once against the [`dice::Roll`] trait:
//! Monte Carlo runs it with seeded dice on the parallel [`engine`], and [`exact`] runs the same
//! code under an oracle that follows every die, so each estimate is reported beside its exact
//! value.
//!
//! The entry point is [`job`]: a system, a scenario and settings give a runnable [`Job`], whose
//! [`Job::run`] gives a [`Report`] with every estimate beside its exact value.
//!
//! ```
//! use morale_lab::{Control, RunOptions};
//!
//! // A routing Veteran unit, 2 of 7 stands lost, rallying for up to 12 turns.
//! let settings = [("class", "veteran"), ("stands", "7"), ("lost", "2")];
//! let job = morale_lab::job("rank-and-file", "rally", &settings, &[]).unwrap();
//! let options = RunOptions::new(100_000, 1).threads(Some(2));
//! let report = job.run(&options, &Control::new()).unwrap();
//! let recovered = &report.outcomes[0];
//! assert_eq!(recovered.outcome, "recovered");
//! let (lo, hi) = (recovered.cell.ci_low.unwrap(), recovered.cell.ci_high.unwrap());
//! assert!(lo < recovered.cell.exact.unwrap() + 0.01 && recovered.cell.exact.unwrap() - 0.01 < hi);
//! ```
//!
//! The library never prints and never touches files: the `morale-lab` binary does that.

#![deny(missing_docs)]

pub(crate) mod chain;
pub mod dice;
pub mod engine;
pub mod error;
pub(crate) mod exact;
pub mod experiment;
pub mod explorer;
pub(crate) mod fastdiv;
pub(crate) mod frac;
pub mod labels;
pub mod mechanic;
pub mod odds;
pub mod params;
pub mod paths;
pub mod play;
pub mod publish;
pub mod report;
pub mod ruleset;
pub(crate) mod scenario;
pub mod stats;
pub mod system;

pub use engine::Control;
pub use error::{Error, Result};
pub use report::Report;
pub use scenario::chain::Sampler;
pub use scenario::{DEFAULT_EXACT_BUDGET, Job, RunOptions, Scenario, ScenarioAbout};

/// Build a runnable scenario: a rule system by name (`rank-and-file`, `effectiveness`,
/// `linear-warfare`; see [`system::systems`]), a scenario (`test`, `rally`, `under-fire`,
/// `melee`, `charge`, `engagement`, `line`), settings as `(key, value)` pairs exactly as
/// `--set KEY=VALUE` takes them (`morale-lab list` shows every key), and optional rules by name.
/// Run it with [`Job::run`] and read the [`Report`].
///
/// # Errors
/// An unknown system, scenario, key or option, a value outside what is allowed, or values that
/// do not fit together: the same one-line errors as the command line's.
pub fn job(
    system: &str,
    scenario: &str,
    settings: &[(&str, &str)],
    options: &[&str],
) -> Result<Box<dyn Job>> {
    let inputs: Vec<params::Input> = settings
        .iter()
        .map(|(key, value)| params::Input {
            key: (*key).to_string(),
            value: (*value).to_string(),
            source: params::Source::Set,
        })
        .collect();
    let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
    system::build(system, Scenario::parse(scenario)?, &inputs, &options)
}

pub use report::VERSION;
