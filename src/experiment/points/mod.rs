//! Points: what a unit is worth. A points file names unit types (a unit spec without its size)
//! and a cost formula — so much a size step for each word of the spec it names (`regular`,
//! `veteran`, `cavalry`), so much a unit for each other word (`leader=N` counts N, a bare word
//! such as `elite` counts 1). What a budget buys is the system's ([`Buys`]):
//! - a **size** of a unit, a whole-number keyword of its spec the system declares
//!   ([`crate::system::Size`]): Rank & File's stands, Linear Warfare's stands (or its pips), a
//!   mechanic file's `about().sizes`. In an engagement or a melee each type fields the most it
//!   can pay for (`stands=N` is added to its spec); in a line, each side is `units` units of its
//!   type, the budget spread over them as evenly as the count allows.
//! - **whole units**, in a line, where a unit has no size (Effectiveness): each side fields as
//!   many units as it can pay for; the smaller army sets the frontage and the larger stands its
//!   extra units behind its first files, one behind each at most (supports).
//!
//! What is computed:
//! 1. **The assessment matrix**: every type against every other at equal points, each pair played
//!    both ways round (side A and side B of an engagement, a melee or a line) — a type's *score*
//!    against another is its chance of winning plus half the chance of neither winning, averaged
//!    over the two sides, so a pair's two scores add up to 1 and the diagonal is ½. Exact where
//!    the scenario solves, else by Monte Carlo with intervals.
//! 2. **The fit**: side A's score in every matchup — at equal points and with side A a size step
//!    or more either side of it (`spread`), so that the matchups tell how much a step is worth —
//!    is modelled as `logit(score) = h + k·ln(worth A / worth B)`, where a side's worth is the
//!    cost formula with fitted numbers, the reference term held at its cost. Weighted least
//!    squares on the logits (the weights are the logit's inverse variance), solved by damped
//!    Gauss–Newton; the intervals come from the fit's covariance, scaled by how far the matchups
//!    stray from the model (so a formula that cannot explain the matrix gets wide intervals, not
//!    false precision).
//! 3. **The check**: the matrix again at the fitted costs (rounded to the file's `round`), and
//!    how far from 50% each pair remains.
//!
//! Matchups are independent: the matchups of 1–2 shard across machines ([`Shard`], [`merge`]),
//! lines as engagements; the check runs where the parts are merged.

// A matrix of pairs and the normal equations index rows and columns by the same numbers: index
// loops say that more plainly than zipped iterators.
#![allow(clippy::needless_range_loop)]

use serde::{Deserialize, Serialize};

use crate::params::Input;
use crate::scenario::Scenario;
use crate::system::Size;

/// The `format` field of a points shard file.
pub const FORMAT: &str = "morale-lab points shard 1";

/// The most unit types a file may name (the matrix grows as their square).
pub const MAX_UNITS: usize = 24;

/// The most size steps either side of equal points a file may ask for (`spread`).
pub const MAX_SPREAD: u32 = 4;

/// The most files a line has (a side's units beyond them stand behind, one a file).
pub const MAX_FILES: u32 = crate::scenario::battle::MAX_FILES as u32;

mod file;
mod fit;
mod play;
mod render;

pub use fit::fit;
pub use play::{merge, run, run_options, run_shard};

/// What a points budget buys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Buys {
    /// So many of a whole-number keyword of a unit's spec (`stands=N`, `pips=N`).
    Size(Size),
    /// Whole units, in a line (for a system whose units have no size).
    Units,
}

impl Buys {
    /// Its name in a points file's `size` (`stands`, `pips`, `units`).
    pub fn key(&self) -> &'static str {
        match self {
            Buys::Size(s) => s.key,
            Buys::Units => "units",
        }
    }

    /// One of it, in words (`stand`, `pip`, `unit`).
    pub fn one(&self) -> &'static str {
        match self {
            Buys::Size(s) => s.one,
            Buys::Units => "unit",
        }
    }

    /// Several of it, in words (`stands`, `pips`, `units`).
    pub fn many(&self) -> String {
        match self {
            Buys::Size(s) if s.key.ends_with('s') => s.key.replace('_', " "),
            Buys::Size(s) => format!("{}s", s.one.replace('_', " ")),
            Buys::Units => "units".into(),
        }
    }

    /// `n` of it, in words (`1 stand`, `4 pips`).
    pub fn count(&self, n: u32) -> String {
        if n == 1 {
            format!("1 {}", self.one().replace('_', " "))
        } else {
            format!("{n} {}", self.many())
        }
    }

    /// The cost table that prices a step of it (`per_stand`, `per_pip`, `per_unit`).
    pub fn table(&self) -> String {
        format!("per_{}", self.one())
    }
}

impl Serialize for Buys {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.key())
    }
}

/// One unit type of a points file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnitType {
    /// Its name in reports.
    pub name: String,
    /// Its unit spec, without its size.
    pub spec: String,
}

/// One term of the cost formula.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Term {
    /// The spec word it prices (`veteran`, `leader`, `elite`).
    pub word: String,
    /// Priced per step of what the budget buys (a stand, a pip; a unit when the budget buys
    /// units), else per unit on top.
    pub per_stand: bool,
    /// Its cost in the file.
    pub cost: f64,
}

/// A points file, parsed and checked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PointsFile {
    /// The file's path, as given.
    pub path: String,
    /// Its text (kept for shards and the reproducing command).
    #[serde(skip)]
    pub source: String,
    /// A title for reports.
    pub title: String,
    /// The rule system (a mechanic file by the path it was loaded by).
    pub system: String,
    /// `engagement`, `melee` or `line`.
    pub scenario: Scenario,
    /// What the budget buys.
    pub size: Buys,
    /// Units a side when the budget buys a size in a line (1 otherwise).
    pub units_a_side: u32,
    /// Points a side.
    pub budget: f64,
    /// Side A is also played this many size steps above and below equal points (in a line of a
    /// size, this many a unit), for the fit.
    pub spread: u32,
    /// Fitted costs are rounded to a multiple of this.
    pub round: f64,
    /// The situation's and the rules' inputs besides the two units.
    #[serde(skip)]
    pub inputs: Vec<Input>,
    /// The same as `key=value` words (rule numbers marked `rule:`).
    pub setting: Vec<String>,
    /// Optional rules on.
    pub options: Vec<String>,
    /// Seed of Monte Carlo matchups.
    pub seed: u64,
    /// Trials of a Monte Carlo matchup.
    pub trials: u64,
    /// The cost formula's terms, per-step ones first.
    pub terms: Vec<Term>,
    /// The index in `terms` of the term held at its cost.
    pub reference: usize,
    /// The unit types.
    pub units: Vec<UnitType>,
    /// The fight the prices rest on, in words: the scenario, its turns, range and who charges,
    /// and the budget.
    pub fight: String,
    /// Play every matchup by Monte Carlo, even those that solve exactly (to check the exact
    /// numbers, or the fit under noise); not in the file, set by the caller.
    pub monte_carlo: bool,
    /// Side A makes its best choices in every matchup (`play = "optimal"`, or the caller's
    /// `--play optimal`), solved exactly there for the chance it holds the field minus the
    /// enemy's, in place of its parameters' policy.
    pub optimal_play: bool,
}

/// How many of `term` a unit of spec `spec` has: 1 for the bare word, N for `word=N`, else 0.
fn count(spec: &str, word: &str) -> f64 {
    spec.split_whitespace()
        .filter_map(|w| {
            if w == word {
                Some(1.0)
            } else {
                w.strip_prefix(word)?
                    .strip_prefix('=')?
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
            }
        })
        .next_back()
        .unwrap_or(0.0)
}

/// Whether `spec` gives keyword `key` (`key=…`).
fn gives(spec: &str, key: &str) -> bool {
    spec.split_whitespace()
        .any(|w| w.strip_prefix(key).is_some_and(|r| r.starts_with('=')))
}

/// The words of `specs` a cost term may price, each once in order of first use: bare words and
/// the keys of `key=N`, but not `skip` (what the budget buys).
fn spec_words<'a>(specs: impl Iterator<Item = &'a str>, skip: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for spec in specs {
        for w in spec.split_whitespace() {
            let w = w.split_once('=').map_or(w, |(k, _)| k);
            if w != skip && !out.iter().any(|o| o == w) {
                out.push(w.to_string());
            }
        }
    }
    out
}

/// A unit spec with `key=n` added.
fn with_size(spec: &str, key: &str, n: u32) -> String {
    format!("{} {key}={n}", spec.trim())
}

/// A number of points in words: "60 points", "1 point".
fn points_words(x: f64) -> String {
    if x == 1.0 {
        "1 point".into()
    } else {
        format!("{} points", money(x))
    }
}

/// `n` of `what`, in words: "1 move", "2 moves".
fn plural(n: i64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// "a stand", "an elite …": `one` with its article.
fn a_one(one: &str) -> String {
    let w = one.replace('_', " ");
    if w.starts_with(['a', 'e', 'i', 'o', 'u']) && !w.starts_with("uni") {
        format!("an {w}")
    } else {
        format!("a {w}")
    }
}

/// "a stand's".
fn a_ones(one: &str) -> String {
    format!("{}'s", a_one(one))
}

/// One game of the plan: unit type `a` with `a_stands` as side A against `b` with `b_stands` —
/// each side's steps of what the budget buys (its stands or pips, in all its units; or its
/// units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Matchup {
    /// Side A's unit type.
    pub a: usize,
    /// Side B's.
    pub b: usize,
    /// Side A's steps (stands, pips or units).
    pub a_stands: u32,
    /// Side B's.
    pub b_stands: u32,
}

/// Side A's score in a matchup: its chance of winning plus half the chance that neither side
/// wins.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// The score (exact, or the estimate).
    pub value: f64,
    /// Trials behind it (0: exact).
    pub trials: u64,
    /// The interval's lower end (the value when exact).
    pub low: f64,
    /// Its upper end.
    pub high: f64,
}

impl Score {
    /// Whether the score is exact.
    pub fn exact(&self) -> bool {
        self.trials == 0
    }
}

/// One unit type's place in a matrix.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Side {
    /// Its steps at the budget (stands, pips or units).
    pub stands: u32,
    /// The points they cost.
    pub points: f64,
    /// Its mean score against the other types.
    pub mean: f64,
}

/// Every type's score against every other at equal points under one set of costs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Matrix {
    /// The costs, one a term.
    pub costs: Vec<f64>,
    /// Each type's stands, points and mean score.
    pub sides: Vec<Side>,
    /// `cells[i][j]`: type i's score against type j, both sides averaged (½ on the diagonal).
    pub cells: Vec<Vec<Score>>,
    /// The mean of |score − ½| over the pairs.
    pub mean_gap: f64,
    /// The pair furthest from ½ (i's score against j, i ahead).
    pub worst: (usize, usize),
}

/// The cost formula fitted to the matchups.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fit {
    /// The fitted cost of each term (the reference's is its file cost).
    pub costs: Vec<f64>,
    /// Standard errors (0 for the reference).
    pub se: Vec<f64>,
    /// Each cost's interval at the run's confidence (normal approximation).
    pub low: Vec<f64>,
    /// Its upper end.
    pub high: Vec<f64>,
    /// The costs rounded to the file's step (what the check plays).
    pub rounded: Vec<f64>,
    /// The slope: logit points of score per unit of ln(worth A / worth B).
    pub k: f64,
    /// Its standard error.
    pub k_se: f64,
    /// Side A's edge on the logit scale at equal worth.
    pub h: f64,
    /// Its standard error.
    pub h_se: f64,
    /// The spread of the matchups about the model, on the logit scale (weighted root mean
    /// square of the residuals, per degree of freedom).
    pub sigma: f64,
    /// Matchups fitted.
    pub matchups: usize,
    /// Numbers fitted.
    pub parameters: usize,
}

/// Everything a points run finds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Points {
    /// The file.
    pub file: PointsFile,
    /// The matchups of the assessment and the fit, in order.
    pub plan: Vec<Matchup>,
    /// Side A's score in each.
    pub scores: Vec<Score>,
    /// The matrix at the file's costs.
    pub at_file: Matrix,
    /// The fitted formula.
    pub fit: Fit,
    /// The matrix at the fitted costs, rounded.
    pub at_fitted: Option<Matrix>,
    /// Why the check did not run, when it did not.
    pub check_refused: Option<String>,
    /// The confidence of every interval.
    pub confidence: f64,
    /// Matchups that ran by Monte Carlo (the rest are exact).
    pub monte_carlo: usize,
    /// Matchups of the spread left out because they cannot be laid out.
    #[serde(skip_serializing_if = "is_zero")]
    pub left_out: usize,
    /// The command line that makes the same numbers (set by the caller, which knows how it was
    /// asked; empty until then).
    pub command: String,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One shard's scores, with what is needed to check and merge it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shard {
    /// Always [`FORMAT`].
    pub format: String,
    /// The tool version that made it.
    pub version: String,
    /// The points file's path, as given.
    pub path: String,
    /// Its text.
    pub source: String,
    /// Which shard (1-based).
    pub shard: u64,
    /// Of how many.
    pub of: u64,
    /// The plan's matchups this shard played (their indices start here).
    pub first: usize,
    /// Side A's score in each.
    pub scores: Vec<Score>,
    /// The confidence of the intervals.
    pub confidence: f64,
    /// Every matchup was played by Monte Carlo.
    #[serde(default)]
    pub monte_carlo: bool,
    /// Side A made its best choices in every matchup (the file's `play = "optimal"` or the
    /// caller's `--play optimal`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optimal_play: bool,
    /// The mechanic file the points file names and those it extends, with their text (none for
    /// a built-in system).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<(String, String)>,
}

/// A score as a percentage.
fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A cost to two decimals without trailing zeros.
fn money(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) const RF: &str = r#"
system = "rank-and-file"
budget = 60
[cost]
reference = "regular"
per_stand = { regular = 10, veteran = 13 }
per_unit = { leader = 6 }
[[unit]]
name = "Regular"
spec = "regular"
[[unit]]
name = "Veteran"
spec = "veteran"
[[unit]]
name = "Regular, leader"
spec = "regular leader=1"
"#;

    pub(super) const EF: &str = r#"
system = "effectiveness"
budget = 60
[cost]
reference = "regular"
per_unit = { regular = 10, elite = 13, poor = 8 }
[[unit]]
name = "Regular"
spec = "regular"
[[unit]]
name = "Elite"
spec = "elite"
[[unit]]
name = "Poor"
spec = "poor"
"#;

    pub(super) fn parse(text: &str) -> PointsFile {
        PointsFile::parse("t.toml", text).unwrap()
    }

    pub(super) fn refused(text: &str) -> String {
        PointsFile::parse("t.toml", text).unwrap_err().to_string()
    }

    pub(super) fn m(a: usize, b: usize, a_stands: u32, b_stands: u32) -> Matchup {
        Matchup {
            a,
            b,
            a_stands,
            b_stands,
        }
    }

    #[test]
    fn spec_words_and_counts() {
        assert_eq!(
            spec_words(
                ["regular leader=1", "veteran stands=5 elite"].into_iter(),
                "stands"
            ),
            ["regular", "leader", "veteran", "elite"]
        );
        assert!(gives("veteran stands=4", "stands") && !gives("veteran standsx", "stands"));
        assert_eq!(count("regular leader=2", "leader"), 2.0);
        assert_eq!(count("regular elite", "elite"), 1.0);
        assert_eq!(count("regular", "elite"), 0.0);
        let custom = Buys::Size(Size {
            key: "strength",
            one: "strength",
            min: 1,
            max: 9,
            rule: "X-1",
        });
        assert_eq!(
            (custom.many(), custom.table()),
            ("strengths".to_string(), "per_strength".to_string())
        );
        assert_eq!(custom.count(1), "1 strength");
        assert_eq!(Buys::Units.count(3), "3 units");
    }
}
