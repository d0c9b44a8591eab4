//! What number makes it fair: solve for one parameter (a situation's number, a rule's number
//! or choice, a chance) so that a headline outcome or metric reaches a target — a number, or
//! the same headline in another setting (other situation values, rule numbers or optional
//! rules).
//!
//! Where the scenario solves exactly, every value tried is exact:
//! - a whole number: the headline at every value of the range, each crossing of the target
//!   bracketed by the two whole numbers either side (or hit exactly);
//! - a chance (or a real number): the headline at 25 points of the range, and each crossing
//!   found by bisection to within 1e-9 (the odds are polynomials in a chance, so continuous:
//!   a sign change holds a root), the values tried kept as exact fractions;
//! - a choice or a switch: the headline at each value, the nearest and any exact hit.
//!
//! No crossing within the range is an answer: both ends and the nearest value are given.
//!
//! Where the setting does not solve exactly (or `monte_carlo` is asked), every value runs by
//! Monte Carlo from the same seed and trials (common random numbers: neighbouring values share
//! their noise, so the headline's steps between them are far less noisy than independent runs),
//! a crossing is where the estimates change sign (a continuous one interpolated between its
//! ends), and the confidence set for the root is the values whose interval — widened by the
//! target's where it is an estimate too — holds the target.

use serde::Serialize;
use serde_json::{Map, Value as Json};

use super::sensitivity::Value;
use crate::params::Input;
use crate::scenario::{RunOptions, Scenario};

mod ask;
mod domain;
mod render;
mod search;

pub use ask::check;
pub use search::solve;

/// The most whole numbers a search tries (a wider range must be narrowed with a range).
pub const MAX_WHOLE_VALUES: i64 = 200;

/// A headline this near the target meets it (exact values summed in another order differ in
/// their last bits).
const HIT: f64 = 1e-12;

/// Points of a continuous range tried before bisecting (the ends included).
const GRID: u64 = 24;

/// The common denominator of a chance's bisection: divisible by the grid's 24, and fine enough
/// that two neighbouring values are under 1e-9 apart (3 · 2^29 ≈ 1.6e9).
const FINE: u64 = 3 << 29;

/// Under Monte Carlo every value first runs this fraction of the trials (1/16), then the
/// undecided ones four times as many, and again, up to the full count.
const SEQUENTIAL: u64 = 16;

/// What the headline must reach.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// A number: a share (0 to 1) for an outcome, a value in the metric's unit.
    Number(f64),
    /// The same headline in another setting: the run asked for with these inputs replaced
    /// (a key given here replaces every input of that key) and, when given, these optional
    /// rules instead of its own — under another rule system when one is named (then the run's
    /// rule numbers and optional rules stay behind, its situation goes along, and a unit gone
    /// means the same whether the other system says removed or eliminated).
    Setting {
        /// Inputs that replace the run's of the same key.
        inputs: Vec<Input>,
        /// The optional rules of the other setting, when they differ.
        options: Option<Vec<String>>,
        /// Another rule system, when the target is under one.
        system: Option<String>,
    },
    /// The same headline in a whole other run, taken as it is (an experiment's variant): its
    /// own system, inputs and optional rules, nothing carried over from the run solved.
    Variant {
        /// Its name in the answer.
        name: String,
        /// Its rule system.
        system: String,
        /// Its inputs.
        inputs: Vec<Input>,
        /// Its optional rules.
        options: Vec<String>,
        /// It plays side A's best choices (`play = "optimal"`).
        optimal_play: bool,
    },
}

/// What the search is asked.
pub struct Ask<'a> {
    /// The rule system (a name or a loaded mechanic file's name).
    pub system: &'a str,
    /// The scenario.
    pub scenario: Scenario,
    /// The situation's and the rules' inputs, as for a run.
    pub inputs: &'a [Input],
    /// The optional rules on.
    pub options: &'a [String],
    /// The outcome or metric to bring to the target (default: as sensitivity's).
    pub headline: Option<&'a str>,
    /// The key of the parameter solved for (a situation parameter or a rule parameter).
    pub key: &'a str,
    /// The range searched, as typed (`LOW..HIGH`); default the parameter's allowed range.
    pub range: Option<(String, String)>,
    /// What the headline must reach.
    pub target: Target,
    /// The exact budget of each solve, and the trials, seed, confidence and sampler of Monte
    /// Carlo where the setting does not solve exactly.
    pub run: RunOptions,
    /// Search by Monte Carlo even where the setting solves exactly (to check the search).
    pub monte_carlo: bool,
    /// Side A plays its best choices at every value tried (`play = "optimal"`), solved
    /// exactly there, rather than the parameters' fixed policy.
    pub optimal_play: bool,
}

/// One value tried and the headline there.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Point {
    /// The value as the command line takes it (`5`, `1/3`, `green`).
    pub value: String,
    /// The value as a number (its index for a choice).
    pub x: f64,
    /// The headline there; `None` when the system refused the value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headline: Option<Value>,
    /// The headline minus the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gap: Option<f64>,
    /// Why the system refused the value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// Monte Carlo trials behind the headline (0: exact, or refused).
    #[serde(skip_serializing_if = "is_zero")]
    pub trials: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Where the headline meets the target.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Crossing {
    /// The value at or below the crossing.
    pub below: Point,
    /// The value at or above it (the same as `below` on an exact hit).
    pub above: Point,
    /// A continuous parameter's root (within [`Balance::tolerance`]), else `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root: Option<f64>,
    /// The headline reaches the target exactly at a value tried.
    pub hit: bool,
}

/// What the search found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Balance {
    /// The rule system.
    pub system: String,
    /// For a mechanic file: its path and the start of its SHA-256.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The scenario.
    pub scenario: String,
    /// The outcome or metric brought to the target.
    pub headline: String,
    /// `outcome` (a share of trials) or `metric` (a mean).
    pub headline_kind: String,
    /// What the headline means.
    pub meaning: String,
    /// The parameter solved for.
    pub key: String,
    /// `situation` or `rule`.
    pub key_kind: String,
    /// Its rule ids.
    pub rule: String,
    /// What it means.
    pub key_meaning: String,
    /// `whole number`, `chance`, `number`, `choice` or `switch`.
    pub domain: String,
    /// The range searched, as values.
    pub range: (String, String),
    /// Its value in the run asked for.
    pub as_set: String,
    /// The situation as asked (each parameter given, `key=value`).
    pub situation: Vec<String>,
    /// Side A played its best choices at every value tried, solved exactly there
    /// (`play = "optimal"`), not its parameters' fixed policy.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub optimal_play: bool,
    /// The situation's parameters, resolved.
    pub params: Map<String, Json>,
    /// The rule parameters changed from the source in the run asked for.
    pub rules_changed: Vec<String>,
    /// The optional rules on.
    pub options: Vec<String>,
    /// The target's value.
    pub target: f64,
    /// Where the target comes from: `the number 0.5`, or the other setting in words.
    pub target_from: String,
    /// The headline in the run asked for.
    pub at_as_set: Value,
    /// Every value tried, in order of the parameter.
    pub points: Vec<Point>,
    /// Each crossing of the target, in order of the parameter.
    pub crossings: Vec<Crossing>,
    /// A chance's simple fractions nearest each root (denominators up to 36), solved.
    pub simple: Vec<Point>,
    /// The value tried whose headline is nearest the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nearest: Option<Point>,
    /// A continuous root's precision (the width of its last bracket); 0 for a whole number.
    pub tolerance: f64,
    /// Every value is exact.
    pub exact: bool,
    /// The headline rises, falls, or neither with the parameter over the values tried.
    pub shape: String,
    /// Monte Carlo trials at a value near the target, the most any value ran (0 when every
    /// value is exact).
    pub trials: u64,
    /// Monte Carlo trials every value ran first (the sequential search's first stage).
    pub first_trials: u64,
    /// Monte Carlo trials run in all, over every value and stage.
    pub trials_spent: u64,
    /// The seed of every Monte Carlo run (the same at each value: common random numbers).
    pub seed: u64,
    /// The confidence level of intervals.
    pub confidence: f64,
    /// Why the values are estimates, when they are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why_estimates: Option<String>,
    /// By Monte Carlo: the values tried whose headline is not told from the target at the
    /// confidence level (the confidence set for the root, among the values tried).
    pub not_rejected: Vec<String>,
    /// By Monte Carlo, a continuous parameter: the smallest and largest value, between the
    /// values tried, whose interval holds the target (the confidence set's extent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root_set: Option<(f64, f64)>,
    /// The command line that reproduces it, when the caller knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
}
