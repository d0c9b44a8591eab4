//! Points: what a unit is worth. A points file names unit types (a unit spec without its
//! stands) and a cost formula — so much a stand for each word of the spec it names (`regular`,
//! `veteran`, `cavalry`), so much a unit for each other word (`leader=N` counts N, a bare word
//! such as `elite` counts 1). At a budget, each unit type fields the most stands it can pay for.
//!
//! What is computed:
//! 1. **The assessment matrix**: every type against every other at equal points, each pair played
//!    both ways round (side A and side B of an engagement or a melee) — a type's *score* against
//!    another is its chance of winning plus half the chance of neither winning, averaged over the
//!    two sides, so a pair's two scores add up to 1 and the diagonal is ½. Exact where the
//!    scenario solves, else by Monte Carlo with intervals.
//! 2. **The fit**: side A's score in every matchup — at equal points and with side A a stand or
//!    more either side of it (`spread`), so that the matchups tell how much a stand is worth —
//!    is modelled as `logit(score) = h + k·ln(worth A / worth B)`, where a unit's worth is the cost
//!    formula with fitted numbers, the reference term held at its cost. Weighted least squares on
//!    the logits (the weights are the logit's inverse variance), solved by damped Gauss–Newton;
//!    the intervals come from the fit's covariance, scaled by how far the matchups stray from the
//!    model (so a formula that cannot explain the matrix gets wide intervals, not false
//!    precision).
//! 3. **The check**: the matrix again at the fitted costs (rounded to the file's `round`), and
//!    how far from 50% each pair remains.
//!
//! Matchups are independent: the matchups of 1–2 shard across machines ([`Shard`], [`merge`]);
//! the check runs where the parts are merged.

// A matrix of pairs and the normal equations index rows and columns by the same numbers: index
// loops say that more plainly than zipped iterators.
#![allow(clippy::needless_range_loop)]

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::Control;
use crate::error::{Error, Result};
use crate::params::{Input, Source};
use crate::report::Report;
use crate::scenario::{RunOptions, Scenario};
use crate::stats::z_for_confidence;
use crate::system;

/// The `format` field of a points shard file.
pub const FORMAT: &str = "morale-lab points shard 1";

/// The most unit types a file may name (the matrix grows as their square).
pub const MAX_UNITS: usize = 24;

/// The most stands either side of equal points a file may ask for (`spread`).
pub const MAX_SPREAD: u32 = 4;

/// Scores are kept this far from 0 and 1 before their logit is taken.
const CLIP: f64 = 1e-6;

/// One unit type of a points file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnitType {
    /// Its name in reports.
    pub name: String,
    /// Its unit spec, without `stands=`.
    pub spec: String,
}

/// One term of the cost formula.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Term {
    /// The spec word it prices (`veteran`, `leader`, `elite`).
    pub word: String,
    /// Priced per stand (a class or troop word), else per unit.
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
    /// The rule system.
    pub system: String,
    /// `engagement` or `melee`.
    pub scenario: Scenario,
    /// Points a side.
    pub budget: f64,
    /// Side A is also played this many stands above and below equal points, for the fit.
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
    /// The cost formula's terms, per-stand ones first.
    pub terms: Vec<Term>,
    /// The index in `terms` of the term held at its cost.
    pub reference: usize,
    /// The unit types.
    pub units: Vec<UnitType>,
    /// Play every matchup by Monte Carlo, even those that solve exactly (to check the exact
    /// numbers, or the fit under noise); not in the file, set by the caller.
    pub monte_carlo: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileToml {
    title: Option<String>,
    system: String,
    #[serde(default)]
    scenario: Option<String>,
    budget: f64,
    #[serde(default)]
    spread: Option<u32>,
    #[serde(default)]
    round: Option<f64>,
    #[serde(default)]
    set: BTreeMap<String, toml::Value>,
    #[serde(default)]
    rules: BTreeMap<String, toml::Value>,
    #[serde(default)]
    options: Vec<String>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    trials: Option<u64>,
    cost: CostToml,
    unit: Vec<UnitToml>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CostToml {
    reference: String,
    #[serde(default)]
    per_stand: BTreeMap<String, f64>,
    #[serde(default)]
    per_unit: BTreeMap<String, f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitToml {
    name: String,
    spec: String,
}

fn input_text(v: &toml::Value) -> Option<String> {
    Some(match v {
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(x) => x.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::String(s) => s.clone(),
        _ => return None,
    })
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

/// A unit spec with `stands=N`.
fn with_stands(spec: &str, stands: u32) -> String {
    format!("{} stands={stands}", spec.trim())
}

impl PointsFile {
    /// Parse and check a points file. `path` names it in messages.
    ///
    /// # Errors
    /// [`Error::File`] naming the key at fault and what is allowed; every matchup at equal
    /// points is built once, so a spec the system refuses is reported before anything runs.
    pub fn parse(path: &str, source: &str) -> Result<PointsFile> {
        let bad = |key: &str, message: String| Error::File {
            path: path.into(),
            line: source
                .lines()
                .position(|l| {
                    let t = l.trim_start();
                    t.starts_with(key.rsplit('.').next().unwrap_or(key))
                })
                .map_or(0, |i| i + 1),
            key: key.into(),
            message,
        };
        let raw: FileToml = toml::from_str(source).map_err(|e| Error::File {
            path: path.into(),
            line: e.span().map_or(0, |s| {
                source[..s.start.min(source.len())].matches('\n').count() + 1
            }),
            key: String::new(),
            message: e.message().to_string(),
        })?;
        let sys = system::find(&raw.system).map_err(|e| bad("system", e.to_string()))?;
        let scenario = match raw.scenario.as_deref().unwrap_or("engagement") {
            "engagement" => Scenario::parse("engagement")?,
            "melee" => Scenario::parse("melee")?,
            other => {
                return Err(bad(
                    "scenario",
                    format!("{other}: a points file plays engagement (the default) or melee"),
                ));
            }
        };
        if !(raw.budget.is_finite() && raw.budget > 0.0 && raw.budget <= 1e6) {
            return Err(bad(
                "budget",
                format!(
                    "{}: points a side, more than 0 and at most 1000000",
                    raw.budget
                ),
            ));
        }
        let spread = raw.spread.unwrap_or(1);
        if spread > MAX_SPREAD {
            return Err(bad(
                "spread",
                format!("{spread}: 0 to {MAX_SPREAD} stands either side of equal points"),
            ));
        }
        let round = raw.round.unwrap_or(1.0);
        if !(round.is_finite() && round > 0.0) {
            return Err(bad(
                "round",
                format!(
                    "{round}: a step more than 0 that fitted costs are rounded to, e.g. 1 or 0.5"
                ),
            ));
        }
        let trials = raw.trials.unwrap_or(100_000);
        if !(1_000..=100_000_000).contains(&trials) {
            return Err(bad(
                "trials",
                format!("{trials}: from 1000 to 100000000 trials a Monte Carlo matchup"),
            ));
        }
        for k in ["attacker", "defender"] {
            if raw.set.contains_key(k) {
                return Err(bad(
                    &format!("set.{k}"),
                    "the units come from [[unit]]: set the situation and the rules here, not the units"
                        .into(),
                ));
            }
        }
        let mut inputs = Vec::new();
        for (k, v) in &raw.set {
            let value = input_text(v).ok_or_else(|| {
                bad(
                    &format!("set.{k}"),
                    "a number, a switch or a text value".into(),
                )
            })?;
            inputs.push(Input {
                key: k.clone(),
                value,
                source: Source::Set,
            });
        }
        for (k, v) in &raw.rules {
            let value = input_text(v).ok_or_else(|| {
                bad(
                    &format!("rules.{k}"),
                    "a number, a switch or a text value".into(),
                )
            })?;
            inputs.push(Input::rule(k, value));
        }
        let mut terms = Vec::new();
        for (per_stand, table) in [(true, &raw.cost.per_stand), (false, &raw.cost.per_unit)] {
            for (word, &cost) in table {
                if !cost.is_finite() || (per_stand && cost <= 0.0) {
                    return Err(bad(
                        &format!(
                            "cost.{}.{word}",
                            if per_stand { "per_stand" } else { "per_unit" }
                        ),
                        format!(
                            "{cost}: {}",
                            if per_stand {
                                "a stand's cost is a number more than 0"
                            } else {
                                "a unit's extra cost is a finite number"
                            }
                        ),
                    ));
                }
                if word.is_empty() || word.contains(char::is_whitespace) || word.contains('=') {
                    return Err(bad(
                        "cost",
                        format!(
                            "{word:?}: a term is one word of a unit spec (veteran, leader, elite)"
                        ),
                    ));
                }
                terms.push(Term {
                    word: word.clone(),
                    per_stand,
                    cost,
                });
            }
        }
        let names: Vec<String> = terms.iter().map(|t| t.word.clone()).collect();
        let reference = terms
            .iter()
            .position(|t| t.per_stand && t.word == raw.cost.reference)
            .ok_or_else(|| {
                bad(
                    "cost.reference",
                    format!(
                        "{}: the per-stand term held at its cost while the others are fitted, one of {}",
                        raw.cost.reference,
                        terms
                            .iter()
                            .filter(|t| t.per_stand)
                            .map(|t| t.word.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })?;
        if raw.unit.len() < 2 || raw.unit.len() > MAX_UNITS {
            return Err(bad(
                "unit",
                format!(
                    "{} unit types: a points file names 2 to {MAX_UNITS} ([[unit]] with name and spec)",
                    raw.unit.len()
                ),
            ));
        }
        let mut units: Vec<UnitType> = Vec::new();
        for u in &raw.unit {
            if units.iter().any(|v| v.name == u.name) || u.name.trim().is_empty() {
                return Err(bad(
                    "name",
                    format!("{:?}: each unit type needs a name of its own", u.name),
                ));
            }
            if count(&u.spec, "stands") != 0.0 || u.spec.contains("stands=") {
                return Err(bad(
                    "spec",
                    format!(
                        "{}: leave stands= out; a unit fields as many stands as the budget pays for",
                        u.spec
                    ),
                ));
            }
            units.push(UnitType {
                name: u.name.trim().to_string(),
                spec: u.spec.trim().to_string(),
            });
        }
        for t in &terms {
            if units.iter().all(|u| count(&u.spec, &t.word) == 0.0) {
                return Err(bad(
                    "cost",
                    format!(
                        "{}: no unit type's spec has this word, so nothing tells its cost; terms: {}",
                        t.word,
                        names.join(", ")
                    ),
                ));
            }
        }
        let file = PointsFile {
            path: path.into(),
            source: source.into(),
            title: raw
                .title
                .unwrap_or_else(|| format!("Points for {}", sys.name())),
            system: raw.system,
            scenario,
            budget: raw.budget,
            spread,
            round,
            inputs: inputs.clone(),
            options: raw.options,
            setting: inputs
                .iter()
                .map(|i| {
                    let rule = if matches!(i.source, Source::Rule) {
                        "rule:"
                    } else {
                        ""
                    };
                    format!("{rule}{}={}", i.key, i.value)
                })
                .collect(),
            seed: raw.seed.unwrap_or(1),
            trials,
            terms,
            reference,
            units,
            monte_carlo: false,
        };
        let costs = file.file_costs();
        for (i, u) in file.units.iter().enumerate() {
            let stand: f64 = file.per_stand(&costs, i);
            if stand <= 0.0 {
                return Err(bad(
                    "spec",
                    format!(
                        "{} ({}): no word of its spec has a per-stand cost; price its class in [cost.per_stand] ({})",
                        u.name,
                        u.spec,
                        names.join(", ")
                    ),
                ));
            }
            file.stands_at(&costs, i)
                .map_err(|e| bad("budget", e.to_string()))?;
        }
        for m in file.matchups(&costs, 0) {
            system::build(
                &file.system,
                file.scenario,
                &file.inputs_of(&m),
                &file.options,
            )
            .map_err(|e| bad("unit", format!("{}: {e}", file.describe(&m))))?;
        }
        Ok(file)
    }

    /// The costs the file gives, one a term.
    pub fn file_costs(&self) -> Vec<f64> {
        self.terms.iter().map(|t| t.cost).collect()
    }

    /// How many of each term unit type `i` has: a stand's (per-stand terms) or the unit's.
    fn counts(&self, i: usize) -> Vec<f64> {
        self.terms
            .iter()
            .map(|t| count(&self.units[i].spec, &t.word))
            .collect()
    }

    /// The sum over the per-stand terms (`per_stand`) or the per-unit ones of unit type `i`'s
    /// count of each times its cost under `costs`.
    fn priced(&self, costs: &[f64], i: usize, per_stand: bool) -> f64 {
        self.terms
            .iter()
            .zip(costs)
            .zip(self.counts(i))
            .filter(|((t, _), _)| t.per_stand == per_stand)
            .map(|((_, k), n)| k * n)
            .sum()
    }

    /// What a stand of unit type `i` costs under `costs`.
    fn per_stand(&self, costs: &[f64], i: usize) -> f64 {
        self.priced(costs, i, true)
    }

    /// What unit type `i` costs under `costs` besides its stands.
    fn extras(&self, costs: &[f64], i: usize) -> f64 {
        self.priced(costs, i, false)
    }

    /// What unit type `i` with `stands` stands costs under `costs`.
    pub fn cost_of(&self, costs: &[f64], i: usize, stands: u32) -> f64 {
        f64::from(stands) * self.per_stand(costs, i) + self.extras(costs, i)
    }

    /// The most stands unit type `i` can field within the budget under `costs`.
    ///
    /// # Errors
    /// [`Error::Invalid`] when one stand is over the budget, or the count passes 1000.
    pub fn stands_at(&self, costs: &[f64], i: usize) -> Result<u32> {
        let stand = self.per_stand(costs, i);
        let left = self.budget - self.extras(costs, i);
        let n = ((left + 1e-9) / stand).floor();
        if !(1.0..=1000.0).contains(&n) {
            return Err(Error::Invalid {
                what: "budget".into(),
                value: format!("{}", self.budget),
                allowed: format!(
                    "a budget that pays for 1 to 1000 stands of every unit type: {} costs {} a stand and {} besides, {} stands",
                    self.units[i].name,
                    money(stand),
                    money(self.extras(costs, i)),
                    if n < 1.0 {
                        "under 1".to_string()
                    } else {
                        format!("{n}")
                    }
                ),
            });
        }
        Ok(n as u32)
    }

    /// The matchups of the assessment and the fit at `costs`: every ordered pair of types
    /// (side A first), side A at equal points and `spread` stands either side (none for the
    /// check, `spread` 0), in a fixed order.
    fn matchups(&self, costs: &[f64], spread: u32) -> Vec<Matchup> {
        let n: Vec<u32> = (0..self.units.len())
            .map(|i| self.stands_at(costs, i).unwrap_or(1))
            .collect();
        let s = i64::from(spread);
        let mut out = Vec::new();
        for a in 0..self.units.len() {
            for b in 0..self.units.len() {
                if spread == 0 && a == b {
                    continue;
                }
                for d in -s..=s {
                    let na = i64::from(n[a]) + d;
                    if na < 1 {
                        continue;
                    }
                    out.push(Matchup {
                        a,
                        b,
                        a_stands: na as u32,
                        b_stands: n[b],
                    });
                }
            }
        }
        out
    }

    /// Every matchup the assessment and the fit play, in order (what shards split).
    pub fn plan(&self) -> Vec<Matchup> {
        self.matchups(&self.file_costs(), self.spread)
    }

    fn inputs_of(&self, m: &Matchup) -> Vec<Input> {
        let mut v = self.inputs.clone();
        for (key, i, n) in [("attacker", m.a, m.a_stands), ("defender", m.b, m.b_stands)] {
            v.push(Input {
                key: key.into(),
                value: with_stands(&self.units[i].spec, n),
                source: Source::Set,
            });
        }
        v
    }

    /// A matchup in words: `Veteran ×5 v Regular ×6`.
    pub fn describe(&self, m: &Matchup) -> String {
        format!(
            "{} ×{} v {} ×{}",
            self.units[m.a].name, m.a_stands, self.units[m.b].name, m.b_stands
        )
    }

    /// Play one matchup: exact where it solves (unless `exact_only` is false and it does
    /// not), else by Monte Carlo with the file's seed and trials.
    ///
    /// # Errors
    /// A matchup that neither solves nor (with `exact_only`) may run by Monte Carlo; a run's
    /// error; [`Error::Cancelled`].
    pub fn play(&self, m: &Matchup, run: &RunOptions, control: &Control) -> Result<Score> {
        let job = system::build(
            &self.system,
            self.scenario,
            &self.inputs_of(m),
            &self.options,
        )?;
        if self.monte_carlo {
            let r = job.run(&run.clone().exact_only(false), control)?;
            return score_of(&r, false, run.confidence);
        }
        match job.run(&run.clone().exact_only(true), control) {
            Ok(r) => return score_of(&r, true, run.confidence),
            Err(Error::Cancelled) => return Err(Error::Cancelled),
            Err(e) if run.exact_only => {
                return Err(Error::Conflict(format!(
                    "{} does not solve exactly here ({e}); leave out --exact-only to play it by Monte Carlo",
                    self.describe(m)
                )));
            }
            Err(_) => {}
        }
        let r = job.run(&run.clone().exact_only(false), control)?;
        score_of(&r, false, run.confidence)
    }
}

/// One game of the plan: unit type `a` with `a_stands` as side A against `b` with `b_stands`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Matchup {
    /// Side A's unit type.
    pub a: usize,
    /// Side B's.
    pub b: usize,
    /// Side A's stands.
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

/// The outcomes in which side A, and side B, wins.
const A_WINS: [&str; 2] = ["side_a_holds", "attacker_wins"];
const B_WINS: [&str; 2] = ["side_b_holds", "defender_wins"];

fn score_of(r: &Report, exact: bool, confidence: f64) -> Result<Score> {
    let find = |names: &[&str]| {
        r.outcomes
            .iter()
            .find(|o| names.contains(&o.outcome.as_str()))
            .map(|o| &o.cell)
    };
    let (Some(a), Some(b)) = (find(&A_WINS), find(&B_WINS)) else {
        return Err(Error::Conflict(format!(
            "{} has no outcome of a side winning ({} / {})",
            r.scenario,
            A_WINS.join(", "),
            B_WINS.join(", ")
        )));
    };
    if exact {
        let (pa, pb) = (a.exact.unwrap_or(a.p), b.exact.unwrap_or(b.p));
        let v = pa + 0.5 * (1.0 - pa - pb);
        return Ok(Score {
            value: v,
            trials: 0,
            low: v,
            high: v,
        });
    }
    let n = r.trials.max(1);
    let (ka, kb) = (a.count.unwrap_or(0), b.count.unwrap_or(0));
    // Half points: the interval as a proportion's of n trials, which is wide enough (draws
    // only narrow the spread of a score).
    let twice = 2 * ka + (n - ka - kb);
    let value = twice as f64 / (2 * n) as f64;
    let (low, high) = wilson_real(value, n, z_for_confidence(confidence));
    Ok(Score {
        value,
        trials: n,
        low,
        high,
    })
}

/// The Wilson interval of a proportion `p` of `n` trials (p need not be a whole count's).
fn wilson_real(p: f64, n: u64, z: f64) -> (f64, f64) {
    let n = n as f64;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// One unit type's place in a matrix.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Side {
    /// Its stands at the budget.
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

impl Matrix {
    /// Built from `play`, which gives side A's score in a matchup.
    fn build(
        file: &PointsFile,
        costs: &[f64],
        play: &mut dyn FnMut(&Matchup) -> Result<Score>,
    ) -> Result<Matrix> {
        let n = file.units.len();
        let stands: Vec<u32> = (0..n)
            .map(|i| file.stands_at(costs, i))
            .collect::<Result<_>>()?;
        let half = Score {
            value: 0.5,
            trials: 0,
            low: 0.5,
            high: 0.5,
        };
        let mut cells = vec![vec![half; n]; n];
        for i in 0..n {
            for j in i + 1..n {
                let m = |a: usize, b: usize| Matchup {
                    a,
                    b,
                    a_stands: stands[a],
                    b_stands: stands[b],
                };
                let s1 = play(&m(i, j))?;
                let s2 = play(&m(j, i))?;
                let v = 0.5 * (s1.value + 1.0 - s2.value);
                let hw = |s: &Score| (s.high - s.low) / 2.0;
                let w = 0.5 * (hw(&s1).powi(2) + hw(&s2).powi(2)).sqrt();
                let trials = s1.trials.max(s2.trials);
                let cell = Score {
                    value: v,
                    trials,
                    low: if trials == 0 { v } else { (v - w).max(0.0) },
                    high: if trials == 0 { v } else { (v + w).min(1.0) },
                };
                cells[i][j] = cell;
                cells[j][i] = Score {
                    value: 1.0 - v,
                    trials,
                    low: 1.0 - cell.high,
                    high: 1.0 - cell.low,
                };
            }
        }
        let mut worst = (0, 1.min(n - 1));
        let mut sum = 0.0;
        for i in 0..n {
            for j in i + 1..n {
                let g = (cells[i][j].value - 0.5).abs();
                sum += g;
                if g > (cells[worst.0][worst.1].value - 0.5).abs() {
                    worst = (i, j);
                }
            }
        }
        if cells[worst.0][worst.1].value < 0.5 {
            worst = (worst.1, worst.0);
        }
        let pairs = (n * (n - 1) / 2).max(1) as f64;
        let sides = (0..n)
            .map(|i| Side {
                stands: stands[i],
                points: file.cost_of(costs, i, stands[i]),
                mean: (0..n)
                    .filter(|&j| j != i)
                    .map(|j| cells[i][j].value)
                    .sum::<f64>()
                    / (n - 1) as f64,
            })
            .collect();
        Ok(Matrix {
            costs: costs.to_vec(),
            sides,
            cells,
            mean_gap: sum / pairs,
            worst,
        })
    }
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

/// Solve `a x = b` (a square, by Gaussian elimination with partial pivoting); `None` when `a`
/// is singular to working precision.
fn solve_linear(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    let scale = a
        .iter()
        .flatten()
        .fold(0.0f64, |m, x| m.max(x.abs()))
        .max(f64::MIN_POSITIVE);
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() <= 1e-12 * scale {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..n {
            let f = a[r][c] / a[c][c];
            for k in c..n {
                a[r][k] -= f * a[c][k];
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    Some(x)
}

fn logit(p: f64) -> f64 {
    let p = p.clamp(CLIP, 1.0 - CLIP);
    (p / (1.0 - p)).ln()
}

/// Fit the cost formula to side A's scores in `plan` (see the module's description).
///
/// # Errors
/// [`Error::Conflict`] when the matchups are too few for the numbers fitted, or cannot tell two
/// terms apart (they always come together), or a worth falls to 0 or below.
pub fn fit(file: &PointsFile, plan: &[Matchup], scores: &[Score], confidence: f64) -> Result<Fit> {
    let free: Vec<usize> = (0..file.terms.len())
        .filter(|&t| t != file.reference)
        .collect();
    let np = 2 + free.len();
    if plan.len() <= np {
        return Err(Error::Conflict(format!(
            "{} matchups cannot fit {np} numbers (side A's edge, the slope and {} costs): name more unit types or a larger spread",
            plan.len(),
            free.len()
        )));
    }
    let counts: Vec<Vec<f64>> = (0..file.units.len()).map(|i| file.counts(i)).collect();
    // d worth / d cost of each term, for a unit with `n` stands.
    let grad = |i: usize, n: u32| -> Vec<f64> {
        file.terms
            .iter()
            .zip(&counts[i])
            .map(|(t, c)| if t.per_stand { f64::from(n) * c } else { *c })
            .collect()
    };
    let worth = |costs: &[f64], i: usize, n: u32| -> f64 {
        grad(i, n).iter().zip(costs).map(|(g, c)| g * c).sum()
    };
    let y: Vec<f64> = scores.iter().map(|s| logit(s.value)).collect();
    let w: Vec<f64> = scores
        .iter()
        .map(|s| {
            let p = s.value.clamp(0.01, 0.99);
            p * (1.0 - p)
        })
        .collect();
    let costs_of = |p: &[f64]| -> Vec<f64> {
        let mut c = file.file_costs();
        for (k, &t) in free.iter().enumerate() {
            c[t] = p[2 + k];
        }
        c
    };
    // Residuals and Jacobian at p; None where a worth is not positive.
    let model = |p: &[f64]| -> Option<(f64, Vec<Vec<f64>>, Vec<f64>)> {
        let c = costs_of(p);
        let mut rss = 0.0;
        let mut jac = Vec::with_capacity(plan.len());
        let mut res = Vec::with_capacity(plan.len());
        for (m, (&yi, &wi)) in plan.iter().zip(y.iter().zip(&w)) {
            let (wa, wb) = (worth(&c, m.a, m.a_stands), worth(&c, m.b, m.b_stands));
            if wa <= 0.0 || wb <= 0.0 || !wa.is_finite() || !wb.is_finite() {
                return None;
            }
            let d = wa.ln() - wb.ln();
            let eta = p[0] + p[1] * d;
            let (ga, gb) = (grad(m.a, m.a_stands), grad(m.b, m.b_stands));
            let mut row = vec![1.0, d];
            row.extend(free.iter().map(|&t| p[1] * (ga[t] / wa - gb[t] / wb)));
            res.push(yi - eta);
            rss += wi * (yi - eta).powi(2);
            jac.push(row);
        }
        Some((rss, jac, res))
    };
    let normal = |jac: &[Vec<f64>], res: &[f64]| -> (Vec<Vec<f64>>, Vec<f64>) {
        let mut a = vec![vec![0.0; np]; np];
        let mut g = vec![0.0; np];
        for ((row, r), wi) in jac.iter().zip(res).zip(&w) {
            for i in 0..np {
                g[i] += wi * row[i] * r;
                for j in 0..np {
                    a[i][j] += wi * row[i] * row[j];
                }
            }
        }
        (a, g)
    };
    // Start: the file's costs, with the edge and slope that fit them best (a straight line).
    let mut p = vec![0.0, 1.0];
    p.extend(free.iter().map(|&t| file.terms[t].cost));
    {
        let c = file.file_costs();
        let (mut sw, mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (m, (&yi, &wi)) in plan.iter().zip(y.iter().zip(&w)) {
            let d = worth(&c, m.a, m.a_stands).ln() - worth(&c, m.b, m.b_stands).ln();
            sw += wi;
            sx += wi * d;
            sy += wi * yi;
            sxx += wi * d * d;
            sxy += wi * d * yi;
        }
        let det = sw * sxx - sx * sx;
        if det.abs() > 1e-12 * sw * sxx.max(1e-300) {
            p[1] = (sw * sxy - sx * sy) / det;
            p[0] = (sy - p[1] * sx) / sw;
        }
        if p[1].abs() < 1e-6 {
            p[1] = 1.0;
        }
    }
    let Some((mut rss, mut jac, mut res)) = model(&p) else {
        return Err(Error::Conflict(
            "the file's costs give a unit a worth of 0 or less".into(),
        ));
    };
    let mut lambda = 1e-3;
    for _ in 0..500 {
        let (a, g) = normal(&jac, &res);
        let mut damped = a.clone();
        for i in 0..np {
            damped[i][i] += lambda * a[i][i].max(1e-12);
        }
        let Some(step) = solve_linear(damped, g) else {
            lambda *= 10.0;
            if lambda > 1e12 {
                break;
            }
            continue;
        };
        let q: Vec<f64> = p.iter().zip(&step).map(|(x, s)| x + s).collect();
        match model(&q) {
            Some((r2, j2, e2)) if r2 <= rss => {
                let done = rss - r2 <= 1e-14 * rss.max(1e-300) || rss < 1e-28;
                p = q;
                rss = r2;
                jac = j2;
                res = e2;
                lambda = (lambda / 10.0).max(1e-12);
                if done {
                    break;
                }
            }
            _ => {
                lambda *= 10.0;
                if lambda > 1e12 {
                    break;
                }
            }
        }
    }
    let (a, _) = normal(&jac, &res);
    let mut inv = vec![vec![0.0; np]; np];
    for c in 0..np {
        let mut e = vec![0.0; np];
        e[c] = 1.0;
        let col = solve_linear(a.clone(), e).ok_or_else(|| {
            Error::Conflict(format!(
                "the matchups cannot tell the costs of {} apart (terms that always come together, or no unit whose stands vary): change the unit types or price them as one",
                free.iter()
                    .map(|&t| file.terms[t].word.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        for r in 0..np {
            inv[r][c] = col[r];
        }
    }
    let dof = (plan.len() - np) as f64;
    let sigma2 = rss / dof;
    let z = z_for_confidence(confidence);
    let se_p: Vec<f64> = (0..np)
        .map(|i| (inv[i][i].max(0.0) * sigma2).sqrt())
        .collect();
    let costs = costs_of(&p);
    let mut se = vec![0.0; file.terms.len()];
    for (k, &t) in free.iter().enumerate() {
        se[t] = se_p[2 + k];
    }
    let step = file.round;
    let rounded: Vec<f64> = costs
        .iter()
        .enumerate()
        .map(|(t, &c)| {
            if t == file.reference {
                c
            } else {
                let r = (c / step).round() * step;
                // Keep a stand's cost above 0.
                if file.terms[t].per_stand && r <= 0.0 {
                    step
                } else {
                    r
                }
            }
        })
        .collect();
    Ok(Fit {
        low: costs.iter().zip(&se).map(|(c, s)| c - z * s).collect(),
        high: costs.iter().zip(&se).map(|(c, s)| c + z * s).collect(),
        rounded,
        costs,
        se,
        k: p[1],
        k_se: se_p[1],
        h: p[0],
        h_se: se_p[0],
        sigma: sigma2.sqrt(),
        matchups: plan.len(),
        parameters: np,
    })
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
    /// The command line that makes the same numbers (set by the caller, which knows how it was
    /// asked; empty until then).
    pub command: String,
}

/// Play the matchups of `plan` with indices in `range`, reporting each one done.
fn play_range(
    file: &PointsFile,
    plan: &[Matchup],
    range: std::ops::Range<usize>,
    run: &RunOptions,
    control: &Control,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<Score>> {
    let total = range.len();
    let mut out = Vec::with_capacity(total);
    for (done, m) in plan[range].iter().enumerate() {
        if control.is_cancelled() {
            return Err(Error::Cancelled);
        }
        out.push(file.play(m, run, control)?);
        progress(done + 1, total);
    }
    Ok(out)
}

/// The run options of a points file's matchups: its seed and trials, with the caller's
/// confidence, exact budget and `exact_only`.
pub fn run_options(file: &PointsFile, base: &RunOptions) -> RunOptions {
    let mut r = base.clone();
    r.spec = RunOptions::new(file.trials, file.seed).spec;
    r
}

/// Play every matchup, fit the formula and check it (see the module's description).
///
/// # Errors
/// As [`PointsFile::play`] and [`fit`]; [`Error::Cancelled`].
pub fn run(
    file: &PointsFile,
    base: &RunOptions,
    control: &Control,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Points> {
    let plan = file.plan();
    let run = run_options(file, base);
    let scores = play_range(file, &plan, 0..plan.len(), &run, control, progress)?;
    finish(file, plan, scores, &run, control)
}

/// From the plan's scores: the matrix at the file's costs, the fit, and the check.
fn finish(
    file: &PointsFile,
    plan: Vec<Matchup>,
    scores: Vec<Score>,
    run: &RunOptions,
    control: &Control,
) -> Result<Points> {
    let lookup: std::collections::HashMap<Matchup, Score> =
        plan.iter().copied().zip(scores.iter().copied()).collect();
    let at_file = Matrix::build(file, &file.file_costs(), &mut |m| {
        lookup
            .get(m)
            .copied()
            .ok_or_else(|| Error::Conflict(format!("{} was not played", file.describe(m))))
    })?;
    let fit = fit(file, &plan, &scores, run.confidence)?;
    let (at_fitted, check_refused) = match Matrix::build(file, &fit.rounded, &mut |m| {
        if control.is_cancelled() {
            return Err(Error::Cancelled);
        }
        match lookup.get(m) {
            Some(s) => Ok(*s),
            None => file.play(m, run, control),
        }
    }) {
        Ok(m) => (Some(m), None),
        Err(Error::Cancelled) => return Err(Error::Cancelled),
        Err(e) => (None, Some(e.to_string())),
    };
    let monte_carlo = scores.iter().filter(|s| !s.exact()).count();
    Ok(Points {
        command: String::new(),
        file: file.clone(),
        plan,
        scores,
        at_file,
        fit,
        at_fitted,
        check_refused,
        confidence: run.confidence,
        monte_carlo,
    })
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
}

/// Play shard `k` of `n` of the plan.
///
/// # Errors
/// As [`run`].
pub fn run_shard(
    file: &PointsFile,
    k: u64,
    n: u64,
    base: &RunOptions,
    control: &Control,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Shard> {
    let plan = file.plan();
    let r = super::shard::chunk_range(plan.len() as u64, k, n);
    let range = r.start as usize..r.end as usize;
    let run = run_options(file, base);
    let scores = play_range(file, &plan, range.clone(), &run, control, progress)?;
    Ok(Shard {
        format: FORMAT.into(),
        version: env!("CARGO_PKG_VERSION").into(),
        path: file.path.clone(),
        source: file.source.clone(),
        shard: k,
        of: n,
        first: range.start,
        scores,
        confidence: run.confidence,
        monte_carlo: file.monte_carlo,
    })
}

/// Add the parts of every shard and finish as one run would (the check's matchups play here).
///
/// # Errors
/// [`Error::Conflict`] for parts of different files, versions or counts, a missing or repeated
/// shard; as [`run`] otherwise.
pub fn merge(parts: &[Shard], base: &RunOptions, control: &Control) -> Result<Points> {
    let first = parts
        .first()
        .ok_or_else(|| Error::Conflict("no shards to merge".into()))?;
    for p in parts {
        if p.format != FORMAT {
            return Err(Error::Conflict(format!(
                "shard {} of {}: not a points shard ({})",
                p.shard, p.of, p.format
            )));
        }
        if p.source != first.source || p.path != first.path {
            return Err(Error::Conflict(format!(
                "shard {} of {} is of another points file or another version of {}",
                p.shard, p.of, first.path
            )));
        }
        if p.version != first.version
            || p.of != first.of
            || p.confidence != first.confidence
            || p.monte_carlo != first.monte_carlo
        {
            return Err(Error::Conflict(format!(
                "shard {} of {} was made by version {} with {} shards at {} confidence, shard {} of {} by {} with {} at {}",
                p.shard,
                p.of,
                p.version,
                p.of,
                p.confidence,
                first.shard,
                first.of,
                first.version,
                first.of,
                first.confidence
            )));
        }
    }
    let mut have: Vec<&Shard> = parts.iter().collect();
    have.sort_by_key(|p| p.shard);
    let want: Vec<u64> = (1..=first.of).collect();
    let got: Vec<u64> = have.iter().map(|p| p.shard).collect();
    if got != want {
        let missing: Vec<String> = want
            .iter()
            .filter(|k| !got.contains(k))
            .map(u64::to_string)
            .collect();
        return Err(Error::Conflict(if missing.is_empty() {
            format!("a shard is given twice: shards {got:?} of {}", first.of)
        } else {
            format!("missing shard(s) {} of {}", missing.join(", "), first.of)
        }));
    }
    let mut file = PointsFile::parse(&first.path, &first.source)?;
    file.monte_carlo = first.monte_carlo;
    let plan = file.plan();
    let mut scores = Vec::with_capacity(plan.len());
    for p in &have {
        if p.first != scores.len() {
            return Err(Error::Conflict(format!(
                "shard {} of {} starts at matchup {}, not {}: the plan differs",
                p.shard,
                p.of,
                p.first,
                scores.len()
            )));
        }
        scores.extend_from_slice(&p.scores);
    }
    if scores.len() != plan.len() {
        return Err(Error::Conflict(format!(
            "the shards hold {} matchups, the plan {}",
            scores.len(),
            plan.len()
        )));
    }
    let run = run_options(&file, &base.clone().confidence(first.confidence));
    finish(&file, plan, scores, &run, control)
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

impl Points {
    /// The one-line heading.
    pub fn header(&self) -> String {
        format!("Points: {}", self.file.title)
    }

    fn system_name(&self) -> String {
        system::find(&self.file.system).map_or_else(
            |_| self.file.system.clone(),
            |s| s.title().split(':').next().unwrap_or(s.name()).to_string(),
        )
    }

    /// How a term is priced, in words.
    fn priced(t: &Term) -> &'static str {
        if t.per_stand { "a stand" } else { "a unit" }
    }

    /// The answer in a sentence: what each term is worth against the reference.
    pub fn answer(&self) -> String {
        let f = &self.file;
        let r = &f.terms[f.reference];
        let pc = (self.confidence * 100.0).round();
        let parts: Vec<String> = f
            .terms
            .iter()
            .enumerate()
            .filter(|&(t, _)| t != f.reference)
            .map(|(t, term)| {
                let what = if term.per_stand {
                    format!("a {} stand", term.word)
                } else if (0..f.units.len()).all(|i| {
                    let c = count(&f.units[i].spec, &term.word);
                    c == 0.0 || c == 1.0
                }) {
                    format!("{} (a unit)", term.word)
                } else {
                    format!("{} (a unit, for each 1 of {}=N)", term.word, term.word)
                };
                format!(
                    "{what} {} ({}–{})",
                    money(self.fit.costs[t]),
                    money(self.fit.low[t]),
                    money(self.fit.high[t])
                )
            })
            .collect();
        format!(
            "at {} points a side, if a {} stand costs {}, {} ({pc}% intervals from the fit)",
            money(f.budget),
            r.word,
            money(r.cost),
            parts.join(", ")
        )
    }

    /// What was run, in lines.
    pub fn context_lines(&self) -> Vec<String> {
        let f = &self.file;
        let mut out = vec![format!(
            "{} {}, {} points a side; each type fields the most stands it can pay for. A type's score against another: its chance of winning plus half the chance that neither wins, played both ways round.",
            self.system_name(),
            f.scenario.name(),
            money(f.budget)
        )];
        let mut setting = f.setting.clone();
        setting.extend(f.options.iter().map(|o| format!("option {o}")));
        if !setting.is_empty() {
            out.push(format!("Setting: {}.", setting.join(", ")));
        }
        out.push(format!(
            "Unit types: {}.",
            f.units
                .iter()
                .map(|u| format!("{} ({})", u.name, u.spec))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        out.push(if self.monte_carlo == self.plan.len() {
            format!(
                "Matchups: {}, every one by Monte Carlo as asked ({} trials each, seed {}).",
                self.plan.len(),
                crate::report::thousands(f.trials),
                f.seed
            )
        } else if self.monte_carlo == 0 {
            format!(
                "Matchups: {}, every one exact (side A at equal points and {} stand{} either side).",
                self.plan.len(),
                f.spread,
                if f.spread == 1 { "" } else { "s" }
            )
        } else {
            format!(
                "Matchups: {}, {} by Monte Carlo ({} trials each, seed {}), the rest exact.",
                self.plan.len(),
                self.monte_carlo,
                crate::report::thousands(f.trials),
                f.seed
            )
        });
        out.push(format!(
            "The fit: logit(side A's score) = h + k × ln(worth A / worth B), a unit's worth being the cost formula with fitted numbers ({} held at {}); weighted least squares on the logits over {} matchups: k = {} ± {}, side A's edge h = {} ± {}; the matchups stray from the model by σ = {} on the logit scale, and the intervals are scaled by it.",
            f.terms[f.reference].word,
            money(f.terms[f.reference].cost),
            self.fit.matchups,
            money(self.fit.k),
            money(self.fit.k_se),
            money(self.fit.h),
            money(self.fit.h_se),
            format_args!("{:.3}", self.fit.sigma)
        ));
        out
    }

    /// The costs table, header first.
    pub fn cost_rows(&self) -> Vec<Vec<String>> {
        let pc = (self.confidence * 100.0).round();
        let mut rows = vec![vec![
            "term".to_string(),
            "priced".into(),
            "in the file".into(),
            "fitted".into(),
            format!("{pc}% interval"),
            "rounded".into(),
        ]];
        for (t, term) in self.file.terms.iter().enumerate() {
            rows.push(vec![
                term.word.clone(),
                Self::priced(term).into(),
                money(term.cost),
                money(self.fit.costs[t]),
                if t == self.file.reference {
                    "held".into()
                } else {
                    format!("{}–{}", money(self.fit.low[t]), money(self.fit.high[t]))
                },
                money(self.fit.rounded[t]),
            ]);
        }
        rows
    }

    /// A matrix as a table, header first: each type's stands, points, scores and mean.
    pub fn matrix_rows(&self, m: &Matrix) -> Vec<Vec<String>> {
        let f = &self.file;
        let mut head = vec!["".to_string(), "stands".into(), "points".into()];
        head.extend(f.units.iter().map(|u| format!("v {}", u.name)));
        head.push("mean".into());
        let mut rows = vec![head];
        for (i, u) in f.units.iter().enumerate() {
            let mut r = vec![
                u.name.clone(),
                m.sides[i].stands.to_string(),
                money(m.sides[i].points),
            ];
            r.extend((0..f.units.len()).map(|j| {
                if i == j {
                    "—".to_string()
                } else {
                    pct(m.cells[i][j].value)
                }
            }));
            r.push(pct(m.sides[i].mean));
            rows.push(r);
        }
        rows
    }

    /// A matrix's summary line.
    pub fn matrix_line(&self, m: &Matrix, what: &str) -> String {
        let (i, j) = m.worst;
        let mut s = format!(
            "{what}: the pairs stand {} from 50% on average; furthest, {} against {}: {}.",
            pct(m.mean_gap),
            self.file.units[i].name,
            self.file.units[j].name,
            pct(m.cells[i][j].value)
        );
        let widest = m
            .cells
            .iter()
            .flatten()
            .map(|c| (c.high - c.low) / 2.0)
            .fold(0.0f64, f64::max);
        if widest > 0.0 {
            s += &format!(
                " Monte Carlo cells are within ±{} of their value at {}%.",
                pct(widest),
                (self.confidence * 100.0).round()
            );
        }
        s
    }

    /// The check's heading line, or why it did not run.
    fn check_line(&self) -> String {
        match (&self.at_fitted, &self.check_refused) {
            (Some(m), _) => self.matrix_line(
                m,
                &format!(
                    "At the fitted costs, rounded to the nearest {}",
                    money(self.file.round)
                ),
            ),
            (None, Some(why)) => format!("The fitted costs were not played: {why}."),
            (None, None) => String::new(),
        }
    }

    /// Render in `format`.
    pub fn render(&self, format: crate::report::Format) -> String {
        use crate::report::Format;
        match format {
            Format::Text => self.to_text(),
            Format::Markdown => self.to_markdown(),
            Format::Csv => super::sensitivity::csv_text(self.csv_rows()),
            Format::Json => {
                let mut s = serde_json::to_string_pretty(self).expect("points serialise");
                s.push('\n');
                s
            }
        }
    }

    /// Aligned plain text.
    pub fn to_text(&self) -> String {
        use super::sensitivity::align_left;
        let wrap = |l: &str| crate::odds::wrap(l, 100);
        let mut out = self.header() + "\n";
        for l in self.context_lines() {
            out += &wrap(&l);
        }
        out += "\n";
        out += &wrap(&format!("Answer: {}.", self.answer()));
        out += "\n";
        out += &align_left(&self.cost_rows(), 2);
        out += "\n";
        out += &wrap(&self.matrix_line(&self.at_file, "At the file's costs"));
        out += &align_left(&self.matrix_rows(&self.at_file), 1);
        out += "\n";
        out += &wrap(&self.check_line());
        if let Some(m) = &self.at_fitted {
            out += &align_left(&self.matrix_rows(m), 1);
        }
        if !self.command.is_empty() {
            out += "\n";
            out += &wrap(&format!("The same from the command line: {}", self.command));
        }
        out
    }

    /// Markdown.
    pub fn to_markdown(&self) -> String {
        let esc = |s: &str| s.replace('|', "\\|");
        let table = |rows: Vec<Vec<String>>, text: usize| {
            let mut out = String::new();
            for (i, r) in rows.iter().enumerate() {
                let cells: Vec<String> = r.iter().map(|c| esc(c)).collect();
                out += &format!("| {} |\n", cells.join(" | "));
                if i == 0 {
                    let marks: Vec<&str> = (0..r.len())
                        .map(|k| if k < text { "---" } else { "---:" })
                        .collect();
                    out += &format!("| {} |\n", marks.join(" | "));
                }
            }
            out
        };
        let mut out = format!(
            "### {}\n\n**Answer.** {}.\n\n",
            self.header(),
            esc(&self.answer())
        );
        for l in self.context_lines() {
            out += &format!("- {}\n", esc(&l));
        }
        out += "\n";
        out += &table(self.cost_rows(), 2);
        out += &format!(
            "\n{}\n\n",
            esc(&self.matrix_line(&self.at_file, "At the file's costs"))
        );
        out += &table(self.matrix_rows(&self.at_file), 1);
        out += &format!("\n{}\n", esc(&self.check_line()));
        if let Some(m) = &self.at_fitted {
            out += "\n";
            out += &table(self.matrix_rows(m), 1);
        }
        if !self.command.is_empty() {
            out += &format!("\nThe same from the command line: `{}`\n", self.command);
        }
        out
    }

    /// CSV rows, header first: each cost, then each matrix cell (the file's costs, then the
    /// fitted ones).
    pub fn csv_rows(&self) -> Vec<Vec<String>> {
        let f = &self.file;
        let mut rows = vec![
            ["table", "row", "column", "value", "low", "high", "exact"]
                .map(String::from)
                .to_vec(),
        ];
        for (t, term) in f.terms.iter().enumerate() {
            rows.push(vec![
                "cost".into(),
                term.word.clone(),
                if term.per_stand {
                    "per_stand"
                } else {
                    "per_unit"
                }
                .into(),
                format!("{}", self.fit.costs[t]),
                format!("{}", self.fit.low[t]),
                format!("{}", self.fit.high[t]),
                (t == f.reference).to_string(),
            ]);
        }
        for (name, m) in [
            ("file_costs", Some(&self.at_file)),
            ("fitted_costs", self.at_fitted.as_ref()),
        ] {
            let Some(m) = m else { continue };
            for i in 0..f.units.len() {
                for j in 0..f.units.len() {
                    let c = &m.cells[i][j];
                    rows.push(vec![
                        name.into(),
                        f.units[i].name.clone(),
                        f.units[j].name.clone(),
                        format!("{}", c.value),
                        format!("{}", c.low),
                        format!("{}", c.high),
                        c.exact().to_string(),
                    ]);
                }
            }
        }
        rows
    }
}
