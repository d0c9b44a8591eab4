//! Playing the matchups: how many steps a budget buys, the plan of matchups, a matchup
//! played to a score, the matrix, and whole runs and their shards.

use super::{
    Buys, FORMAT, MAX_FILES, Matchup, Matrix, Points, PointsFile, Score, Shard, Side, a_one, count,
    fit, money, with_size,
};
use crate::engine::Control;
use crate::error::{Error, Result};
use crate::params::{Input, Source};
use crate::report::Report;
use crate::scenario::{RunOptions, Scenario};
use crate::stats::z_for_confidence;
use crate::system;

impl PointsFile {
    /// The costs the file gives, one a term.
    pub fn file_costs(&self) -> Vec<f64> {
        self.terms.iter().map(|t| t.cost).collect()
    }

    /// How many of each term unit type `i` has: a step's (per-step terms) or the unit's.
    pub(super) fn counts(&self, i: usize) -> Vec<f64> {
        self.terms
            .iter()
            .map(|t| count(&self.units[i].spec, &t.word))
            .collect()
    }

    /// The sum over the per-step terms (`per_stand`) or the per-unit ones of unit type `i`'s
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

    /// What a step of unit type `i` (a stand, a pip, a whole unit) costs under `costs`.
    pub(super) fn per_stand(&self, costs: &[f64], i: usize) -> f64 {
        self.priced(costs, i, true)
    }

    /// What a side of unit type `i` costs under `costs` besides its steps: each unit's extras.
    fn extras(&self, costs: &[f64], i: usize) -> f64 {
        f64::from(self.units_a_side) * self.priced(costs, i, false)
    }

    /// What a side of unit type `i` with `stands` steps costs under `costs`.
    pub fn cost_of(&self, costs: &[f64], i: usize, stands: u32) -> f64 {
        f64::from(stands) * self.per_stand(costs, i) + self.extras(costs, i)
    }

    /// The fewest and the most steps a side may have: a unit's size times the units a side, or
    /// whole units, at most a unit behind each file of a line.
    fn bounds(&self) -> (u32, u32) {
        match self.size {
            Buys::Size(s) => (s.min * self.units_a_side, s.max * self.units_a_side),
            Buys::Units => (1, 2 * MAX_FILES),
        }
    }

    /// The most steps (stands, pips, units) a side of unit type `i` can field within the budget
    /// under `costs`.
    ///
    /// # Errors
    /// [`Error::Invalid`] when one step is over the budget, or the count passes 1000, or falls
    /// outside what the system allows.
    pub fn stands_at(&self, costs: &[f64], i: usize) -> Result<u32> {
        let stand = self.per_stand(costs, i);
        let left = self.budget - self.extras(costs, i);
        let n = ((left + 1e-9) / stand).floor();
        let many = self.size.many();
        if !(1.0..=1000.0).contains(&n) {
            return Err(Error::Invalid {
                what: "budget".into(),
                value: format!("{}", self.budget),
                allowed: format!(
                    "a budget that pays for 1 to 1000 {many} of every unit type: {} costs {} {} and {} besides, {} {many}",
                    self.units[i].name,
                    money(stand),
                    a_one(self.size.one()),
                    money(self.extras(costs, i)),
                    if n < 1.0 {
                        "under 1".to_string()
                    } else {
                        format!("{n}")
                    }
                ),
            });
        }
        let n = n as u32;
        let (lo, hi) = self.bounds();
        if n < lo || n > hi {
            return Err(Error::Invalid {
                what: "budget".into(),
                value: format!("{}", self.budget),
                allowed: match self.size {
                    Buys::Size(s) => format!(
                        "a budget at which every unit type fields {} to {} {many} a unit ({}{}): {} would field {}",
                        s.min,
                        s.max,
                        s.rule,
                        if self.units_a_side > 1 {
                            format!(", {} units a side", self.units_a_side)
                        } else {
                            String::new()
                        },
                        self.units[i].name,
                        self.size.count(n)
                    ),
                    Buys::Units => format!(
                        "a budget at which every unit type fields 1 to {hi} units (a line holds at most {MAX_FILES} files, a unit behind each at most): {} would field {n}",
                        self.units[i].name
                    ),
                },
            });
        }
        Ok(n)
    }

    /// Why matchup `m` cannot be laid out, if it cannot: a side's steps outside what the system
    /// allows, or (whole units) a line that cannot hold the larger army.
    pub(super) fn unfit(&self, m: &Matchup) -> Option<String> {
        let (lo, hi) = self.bounds();
        for n in [m.a_stands, m.b_stands] {
            if n < lo || n > hi {
                return Some(format!(
                    "a side has {}; allowed: {lo} to {hi}",
                    self.size.count(n)
                ));
            }
        }
        if self.size == Buys::Units {
            let (small, large) = (m.a_stands.min(m.b_stands), m.a_stands.max(m.b_stands));
            if small > MAX_FILES {
                return Some(format!(
                    "a line holds at most {MAX_FILES} files, and the smaller army here fields {small} units; allowed: a budget at which the smaller army of every pair fields at most {MAX_FILES} units"
                ));
            }
            if large > 2 * small {
                return Some(format!(
                    "a line cannot hold {large} units against {small}: the smaller army sets the frontage and the larger stands at most one unit behind each file; allowed: armies within twice each other's units (costs of the unit types within twice each other's)"
                ));
            }
        }
        None
    }

    /// The matchups of the assessment and the fit at `costs`: every ordered pair of types
    /// (side A first), side A at equal points and `spread` steps either side (a unit each, in a
    /// line of a size; none for the check, `spread` 0), in a fixed order; a matchup of the
    /// spread that cannot be laid out ([`PointsFile::unfit`]) is left out, and counted.
    fn grid(&self, costs: &[f64], spread: u32) -> (Vec<Matchup>, usize) {
        let n: Vec<u32> = (0..self.units.len())
            .map(|i| self.stands_at(costs, i).unwrap_or(1))
            .collect();
        let s = i64::from(spread);
        let step = i64::from(self.units_a_side);
        let mut out = Vec::new();
        let mut left_out = 0;
        for a in 0..self.units.len() {
            for b in 0..self.units.len() {
                if spread == 0 && a == b {
                    continue;
                }
                for d in -s..=s {
                    let na = i64::from(n[a]) + d * step;
                    if na < 1 {
                        continue;
                    }
                    let m = Matchup {
                        a,
                        b,
                        a_stands: na as u32,
                        b_stands: n[b],
                    };
                    if d != 0 && self.unfit(&m).is_some() {
                        left_out += 1;
                        continue;
                    }
                    out.push(m);
                }
            }
        }
        (out, left_out)
    }

    fn matchups(&self, costs: &[f64], spread: u32) -> Vec<Matchup> {
        self.grid(costs, spread).0
    }

    /// Every matchup the assessment and the fit play, in order (what shards split).
    pub fn plan(&self) -> Vec<Matchup> {
        self.matchups(&self.file_costs(), self.spread)
    }

    /// Matchups of the spread left out of the plan because they cannot be laid out (a line
    /// that cannot hold the larger army, a side past the size the system allows).
    pub fn left_out(&self) -> usize {
        self.grid(&self.file_costs(), self.spread).1
    }

    /// Side `side`'s spec in matchup `m`.
    pub(super) fn side_spec(&self, m: &Matchup, side: usize) -> String {
        let (i, n) = if side == 0 {
            (m.a, m.a_stands)
        } else {
            (m.b, m.b_stands)
        };
        let spec = self.units[i].spec.trim();
        match self.size {
            Buys::Size(s) if self.scenario != Scenario::Line => with_size(spec, s.key, n),
            Buys::Size(s) => {
                // The steps spread as evenly as the count allows, the first files one more.
                let u = self.units_a_side.max(1);
                let (q, r) = (n / u, n % u);
                let mut parts = Vec::new();
                if r > 0 {
                    parts.push(format!("{r} x {}", with_size(spec, s.key, q + 1)));
                }
                if u > r {
                    parts.push(format!("{} x {}", u - r, with_size(spec, s.key, q)));
                }
                parts.join("; ")
            }
            Buys::Units => {
                let front = m.a_stands.min(m.b_stands);
                let behind = n - front.min(n);
                if behind > 0 {
                    format!("{front} x {spec}; {behind} behind")
                } else {
                    format!("{front} x {spec}")
                }
            }
        }
    }

    pub(super) fn inputs_of(&self, m: &Matchup) -> Vec<Input> {
        let mut v = self.inputs.clone();
        for (side, key) in ["attacker", "defender"].into_iter().enumerate() {
            v.push(Input {
                key: key.into(),
                value: self.side_spec(m, side),
                source: Source::Set,
            });
        }
        v
    }

    /// A matchup in words: `Veteran ×5 v Regular ×6`; in a line, `4 Elite v 6 Regular` (whole
    /// units) or `Veteran ×27 v Regular ×36 (stands, 6 units a side)`.
    pub fn describe(&self, m: &Matchup) -> String {
        let (a, b) = (&self.units[m.a].name, &self.units[m.b].name);
        match self.size {
            Buys::Units => format!("{} {a} v {} {b}", m.a_stands, m.b_stands),
            Buys::Size(_) if self.scenario == Scenario::Line => format!(
                "{a} ×{} v {b} ×{} ({}, {} units a side)",
                m.a_stands,
                m.b_stands,
                self.size.many(),
                self.units_a_side
            ),
            Buys::Size(_) => format!("{a} ×{} v {b} ×{}", m.a_stands, m.b_stands),
        }
    }

    /// Play one matchup: exact where it solves (unless `exact_only` is false and it does
    /// not), else by Monte Carlo with the file's seed and trials.
    ///
    /// # Errors
    /// A matchup that neither solves nor (with `exact_only`) may run by Monte Carlo; a run's
    /// error; [`Error::Cancelled`].
    pub fn play(&self, m: &Matchup, run: &RunOptions, control: &Control) -> Result<Score> {
        if let Some(why) = self.unfit(m) {
            return Err(Error::Conflict(format!("{}: {why}", self.describe(m))));
        }
        let mut job = system::build(
            &self.system,
            self.scenario,
            &self.inputs_of(m),
            &self.options,
        )?;
        // Under the best play, each matchup's own: what is best moves with the sides' sizes.
        if self.optimal_play {
            job = match job.played(&crate::play::Ask::hold_the_field(), control) {
                Ok((job, _)) => job,
                Err(Error::Cancelled) => return Err(Error::Cancelled),
                Err(e) => {
                    return Err(Error::Conflict(format!(
                        "{}: side A's best choices could not be solved here ({e})",
                        self.describe(m)
                    )));
                }
            };
        }
        if self.monte_carlo || (!job.has_exact() && !run.exact_only) {
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

/// The outcomes in which side A, and side B, wins.
const A_WINS: [&str; 3] = ["side_a_holds", "attacker_wins", "side_a_wins"];
const B_WINS: [&str; 3] = ["side_b_holds", "defender_wins", "side_b_wins"];

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
    r.spec = RunOptions::new(file.trials, file.seed)
        .threads(base.spec.threads)
        .spec;
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
        left_out: file.left_out(),
    })
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
    let r = crate::experiment::shard::chunk_range(plan.len() as u64, k, n);
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
        optimal_play: file.optimal_play,
        files: crate::mechanic::files_of(&file.system).unwrap_or_default(),
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
        if p.source != first.source || p.path != first.path || p.files != first.files {
            return Err(Error::Conflict(format!(
                "shard {} of {} is of another points file or another version of {}",
                p.shard, p.of, first.path
            )));
        }
        if p.version != first.version
            || p.of != first.of
            || p.confidence != first.confidence
            || p.monte_carlo != first.monte_carlo
            || p.optimal_play != first.optimal_play
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
    // A mechanic file the points file names is read from the shard, as it was when the shard
    // was played.
    let mut read = |p: &str| -> Result<String> {
        let want = crate::paths::normalize(p);
        first
            .files
            .iter()
            .find(|(f, _)| crate::paths::normalize(f) == want)
            .map(|(_, text)| text.clone())
            .ok_or_else(|| {
                Error::Conflict(format!(
                    "shard {} of {} does not hold {p}, which its points file names",
                    first.shard, first.of
                ))
            })
    };
    let mut file = PointsFile::parse_with(&first.path, &first.source, &mut read)?;
    file.monte_carlo = first.monte_carlo;
    file.optimal_play |= first.optimal_play;
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

#[cfg(test)]
mod tests {
    use super::super::tests::{EF, RF, m, parse, refused};

    /// In a line of a size, a side is `units` units of its type: the budget pays each unit's
    /// extras, then the most stands, spread as evenly as the count allows, the first files one
    /// more; the spread moves side A a stand a unit.
    #[test]
    fn a_line_spreads_the_stands_over_its_units() {
        let f = parse(&RF.replace(
            "budget = 60",
            "budget = 360\nscenario = \"line\"\nspread = 1\n[set]\nunits = 6",
        ));
        assert_eq!(f.units_a_side, 6);
        let c = f.file_costs();
        // Regular: 36 stands; Veteran: 360 / 13 → 27; leader (6 a unit, 36) leaves 324 → 32.
        assert_eq!(f.stands_at(&c, 0).unwrap(), 36);
        assert_eq!(f.stands_at(&c, 1).unwrap(), 27);
        assert_eq!(f.stands_at(&c, 2).unwrap(), 32);
        assert_eq!(f.cost_of(&c, 2, 32), 356.0);
        let mm = m(1, 2, 27, 32);
        assert_eq!(
            f.side_spec(&mm, 0),
            "3 x veteran stands=5; 3 x veteran stands=4"
        );
        assert_eq!(
            f.side_spec(&mm, 1),
            "2 x regular leader=1 stands=6; 4 x regular leader=1 stands=5"
        );
        assert_eq!(f.side_spec(&m(0, 0, 36, 36), 1), "6 x regular stands=6");
        let plan = f.plan();
        let spread: Vec<u32> = plan
            .iter()
            .filter(|p| p.a == 1 && p.b == 0)
            .map(|p| p.a_stands)
            .collect();
        assert_eq!(spread, [21, 27, 33]);
        assert_eq!(
            f.describe(&mm),
            "Veteran ×27 v Regular, leader ×32 (stands, 6 units a side)"
        );
    }

    /// Whole units: the smaller army sets the frontage, the larger stands its extra units
    /// behind, one a file at most; a matchup past that is left out of the spread, and refused
    /// at equal points.
    #[test]
    fn whole_units_stand_behind_the_smaller_armys_front() {
        let f = parse(EF);
        let c = f.file_costs();
        let n: Vec<u32> = (0..3).map(|i| f.stands_at(&c, i).unwrap()).collect();
        assert_eq!(n, [6, 4, 7]);
        let elite_v_poor = m(1, 2, 4, 7);
        assert_eq!(f.side_spec(&elite_v_poor, 0), "4 x elite");
        assert_eq!(f.side_spec(&elite_v_poor, 1), "4 x poor; 3 behind");
        assert_eq!(f.describe(&elite_v_poor), "4 Elite v 7 Poor");
        assert_eq!(f.unfit(&elite_v_poor), None);
        // Three Elite cannot face seven Poor: the line holds at most one behind each of 3 files.
        let e = f.unfit(&m(1, 2, 3, 7)).unwrap();
        assert!(e.contains("cannot hold 7 units against 3"), "{e}");
        assert!(
            f.unfit(&m(0, 0, 13, 13))
                .unwrap()
                .contains("at most 12 files")
        );
        let plan = f.plan();
        assert!(!plan.contains(&m(1, 2, 3, 7)));
        assert!(plan.contains(&m(1, 2, 5, 7)));
        assert_eq!(f.left_out(), 1);
        // Costs twice apart at equal points: refused before anything runs, naming the pair.
        let e = refused(&EF.replace("poor = 8", "poor = 4"));
        assert!(
            e.contains("4 Elite v 15 Poor") || e.contains("cannot hold"),
            "{e}"
        );
    }
}
