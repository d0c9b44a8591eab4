//! # morale-lab
//!
//! Monte Carlo and exact analysis of horse-and-musket wargame morale, rally and melee rules, so
//! that rules designers can publish what their rules actually do.
//!
//! The rule mechanics follow the project's reading of the source texts, `docs/RULES.md`, and cite
//! its ids (RF-…, EF-…, LW-…). Every scenario is a small Markov chain over a unit's state
//! ([`scenario::chain::Chain`]) whose turn is written once against the [`dice::Roll`] trait:
//! Monte Carlo runs it with seeded dice on the parallel [`engine`], and [`exact`] runs the same
//! code under an oracle that follows every die, so each estimate is reported beside its exact
//! value.
//!
//! ```
//! use morale_lab::{engine::Control, params::Input, scenario::RunOptions, system};
//!
//! // A routing Veteran unit, 2 of 7 stands lost, rallying for up to 12 turns.
//! let inputs = [
//!     Input::flag("--class", "class", "veteran"),
//!     Input::flag("--stands", "stands", "7"),
//!     Input::flag("--lost", "lost", "2"),
//! ];
//! let job = system::build("rank-and-file", "rally", &inputs, &[]).unwrap();
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

pub mod dice;
pub mod engine;
pub mod error;
pub mod exact;
pub mod experiment;
pub mod frac;
pub mod odds;
pub mod params;
pub mod report;
pub mod scenario;
pub mod stats;
pub mod system;

pub use error::{Error, Result};

/// The tool's version, recorded in every report.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
