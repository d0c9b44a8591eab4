//! The assumptions an experiment's answer rests on: every situation parameter, rule parameter
//! and optional rule the variants share moved one step (the steps of [`super::sensitivity`]),
//! on both sides of each comparison with the baseline at once, and the change that makes to
//! each headline difference. One is listed where it flips the difference's sign, makes it
//! vanish or appear, or moves it by more than [`SHARE`] of its size, or (a chance's difference)
//! by more than [`POINTS`]: a reading that moves a win chance by ten points matters to a reader
//! even where the difference it moves is large.
//!
//! A parameter both sides have with one value is stepped on both; one only one side's system
//! has is stepped on that side alone; one whose value differs between them (or an optional rule
//! one side has on and the other off) is what the variant changes, and is left alone. Unit specs
//! and distributions have no single step and are not tried.
//!
//! Where both sides solve exactly, every difference is exact and the judgement is exact. Where
//! not, both sides of every setting run by Monte Carlo ([`MOST_TRIALS`] trials at most, from the
//! experiment's seed), and a setting is listed only where the new difference's interval lies
//! wholly on the other side of zero, or wholly outside the band of ±[`SHARE`] around the
//! report's difference.

use serde::Serialize;

use super::compare::{means, proportions, same_outcome};
use super::{Experiment, Run, Variant};
use crate::engine::Control;
use crate::error::{Error, Result};
use crate::params::{Input, Kind, Source};
use crate::report::Report;
use crate::scenario::chain::Sampler;
use crate::stats::z_for_confidence;
use crate::system;

/// One side's run under a setting, to build once: its key, system, inputs, optional rules, and
/// whether it plays its best choices (`play = "optimal"`).
type SideJob<'a> = (String, &'a str, Vec<Input>, Vec<String>, bool);

/// A difference moved by more than this share of its size counts as moved.
pub const SHARE: f64 = 0.5;

/// A difference of chances moved by more than this (3 percentage points) counts as moved too,
/// whatever its size.
pub const POINTS: f64 = 0.03;

/// The most Monte Carlo trials a side of a setting runs (the experiment's own where fewer).
pub const MOST_TRIALS: u64 = 50_000;

/// A difference below this is exactly zero (as the comparisons judge it).
const ZERO: f64 = super::compare::EXACTLY_ZERO;

/// One setting that changes a headline difference enough to matter.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assumption {
    /// The variant compared with the baseline.
    pub variant: String,
    /// The headline (outcome or metric).
    pub headline: String,
    /// The parameter's key or the optional rule's name.
    pub key: String,
    /// `situation`, `rule` or `option`.
    pub kind: String,
    /// Its rule ids.
    pub rule: String,
    /// Its value in the report, and the value tried.
    pub from: String,
    /// The value tried (`on`/`off` for an optional rule).
    pub to: String,
    /// Where it was stepped: `both`, or the one side whose system has it.
    pub side: String,
    /// The headline difference in the report (variant minus baseline; exact where known).
    pub difference: f64,
    /// The difference under the setting.
    pub changed: f64,
    /// Its interval, where it is an estimate.
    pub low: Option<f64>,
    /// Upper end of its interval.
    pub high: Option<f64>,
    /// What the setting does to the difference: `flips`, `removes`, `creates` or `moves`.
    pub effect: String,
    /// The exact values of the headline, baseline's and variant's, in the report and under the
    /// setting (`None` where one is an estimate): a step that moves the baseline alone moves
    /// the mark the variant is set against, and the report says so in those terms.
    #[serde(skip)]
    pub values: Option<[f64; 4]>,
}

/// What was checked and what was found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assumptions {
    /// The settings that matter, variant by variant, in the order tried.
    pub found: Vec<Assumption>,
    /// How many settings were tried (over every variant; a setting's two sides count once).
    pub tried: usize,
    /// The settings a system refused (values that do not fit together), skipped.
    pub refused: usize,
    /// The settings whose run failed (an exact solution past the experiment's bound on work,
    /// [`crate::experiment::EXPERIMENT_WORK`]), skipped: the same on every machine.
    #[serde(skip_serializing_if = "is_zero")]
    pub unsolved: usize,
    /// The settings skipped (refused or unsolved), once each, in the order tried, so that a
    /// reader is told which.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<SkippedSetting>,
    /// The share of a difference that counts as a move.
    pub share: f64,
    /// The change of a chance's difference that counts as a move, whatever its size.
    pub points: f64,
    /// Every difference was exact; else the trials a side ran by Monte Carlo.
    pub exact: bool,
    /// Monte Carlo trials a side (0 where every difference was exact).
    pub trials: u64,
    /// Parameters not tried, with why (a unit spec, a distribution), once each.
    pub not_tried: Vec<String>,
    /// For a question with a verdict: every step's exact difference in each headline measure
    /// (those the verdict rests on and the others), whether or not the step matters, so that a
    /// reader sees the answer's measures under every step listed, not only the one that moved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub verdict_steps: Vec<VerdictStep>,
}

/// A measure the verdict rests on, under one step: the exact difference from the baseline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerdictStep {
    /// The variant compared with the baseline.
    pub variant: String,
    /// The measure (a headline of the question).
    pub headline: String,
    /// The parameter's key or the optional rule's name.
    pub key: String,
    /// The value tried.
    pub to: String,
    /// The exact difference under the step (variant minus baseline).
    pub changed: f64,
}

/// A setting left out of the tries: the parameter, its kind, the step tried and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkippedSetting {
    /// The variant compared with the baseline when it was skipped.
    pub variant: String,
    /// The parameter, rule or option.
    pub key: String,
    /// `rule`, `setting` or `option`, as [`Assumption::kind`].
    pub kind: String,
    /// The value as run.
    pub from: String,
    /// The value tried.
    pub to: String,
    /// True: the rules refuse the combination; false: too large to work out.
    pub refused: bool,
}

/// Why a try has no report: the system refused its values, or its run failed.
#[derive(Debug, Clone, Copy)]
enum Skipped {
    Refused,
    Unsolved,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A value of a headline in a report: exact where known, else an estimate.
pub(crate) fn exact_of(report: &Report, name: &str) -> Option<Option<f64>> {
    if let Some(o) = report
        .outcomes
        .iter()
        .find(|o| same_outcome(&o.outcome, name))
    {
        return Some(o.cell.exact);
    }
    report
        .metrics
        .iter()
        .find(|m| m.name == name)
        .map(|m| m.exact)
}

/// The difference `a − b` of headline `name`: exact (no interval) where both are exact, else
/// the estimates' difference with its interval at confidence `z`.
fn difference(a: &Report, b: &Report, name: &str, z: f64) -> Option<(f64, Option<(f64, f64)>)> {
    if let (Some(Some(x)), Some(Some(y))) = (exact_of(a, name), exact_of(b, name)) {
        return Some((x - y, None));
    }
    let d = match (
        a.outcomes.iter().find(|o| same_outcome(&o.outcome, name)),
        b.outcomes.iter().find(|o| same_outcome(&o.outcome, name)),
    ) {
        (Some(x), Some(y)) => proportions(&x.cell, a.trials, &y.cell, b.trials)?,
        _ => {
            let x = a.metrics.iter().find(|m| m.name == name)?;
            let y = b.metrics.iter().find(|m| m.name == name)?;
            means(x, y, z)?
        }
    };
    Some((d.0, Some((d.1, d.2))))
}

/// A parameter's value in a report: a situation parameter's or a rule parameter's.
fn value_in(report: &Report, key: &str, rule: bool) -> Option<String> {
    if rule {
        report.rules.get(key).map(super::sensitivity::typed)
    } else {
        report.params.get(key).map(super::sensitivity::typed)
    }
}

/// One setting tried: what it is and the inputs and options of each side (`None`: that side
/// unchanged).
struct Setting {
    key: String,
    kind: &'static str,
    rule: String,
    from: String,
    to: String,
    side: String,
    base: Option<(Vec<Input>, Vec<String>)>,
    variant: Option<(Vec<Input>, Vec<String>)>,
}

fn with_value(inputs: &[Input], key: &str, to: &str, rule: bool) -> Vec<Input> {
    let source = if rule { Source::Rule } else { Source::Set };
    let mut out: Vec<Input> = inputs
        .iter()
        .filter(|i| !(i.key == key && (i.source == Source::Rule) == rule))
        .cloned()
        .collect();
    out.push(Input {
        key: key.to_string(),
        value: to.to_string(),
        source,
    });
    out
}

fn toggled(options: &[String], name: &str) -> Vec<String> {
    if options.iter().any(|o| o == name) {
        options.iter().filter(|o| *o != name).cloned().collect()
    } else {
        options.iter().cloned().chain([name.to_string()]).collect()
    }
}

/// The settings to try for `variant` against the baseline (see the module's description), and
/// the parameters that have no single step.
fn settings(
    exp: &Experiment,
    point: &[super::SetValue],
    sides: [(&Variant, &Report); 2],
    not_tried: &mut Vec<String>,
) -> Result<Vec<Setting>> {
    let [(bv, br), (vv, vr)] = sides;
    let bsys = system::find(&bv.system)?;
    let vsys = system::find(&vv.system)?;
    let (bin, vin) = (exp.inputs(bv, point), exp.inputs(vv, point));
    let mut out: Vec<Setting> = Vec::new();
    let swept = |k: &str| exp.sweep.iter().any(|a| a.key == k);
    // Situation parameters, then rule parameters, each once by key.
    for rule in [false, true] {
        let list = |sys: &dyn system::RuleSystem| -> Vec<&'static crate::params::ParamDef> {
            if rule {
                sys.rule_params().iter().collect()
            } else {
                system::all_params(sys)
            }
        };
        let mut defs = Vec::new();
        for sys in [bsys, vsys] {
            for p in list(sys) {
                if !defs
                    .iter()
                    .any(|d: &&crate::params::ParamDef| d.key == p.key)
                {
                    defs.push(p);
                }
            }
        }
        for p in defs {
            // A measure asked for changes no rule or situation: nothing to step; the weak share
            // moves only the weakly held turns, stepped where a headline counts them.
            let weak_headline = exp.headlines.iter().any(|h| h.ends_with("weak_turns"));
            // The number a [balance] section solves for is the answer, not an assumption.
            // The starting state is the question itself (a unit holding its place, a routing
            // unit rallying), not a situation around it: a unit that starts in good order has
            // nothing to recover from, so a step there answers another question.
            if swept(p.key)
                || p.key == "state"
                || exp.balance.as_ref().is_some_and(|b| b.solve == p.key)
                || crate::labels::is_measurement(p.key)
                || (p.key == "weak_share" && !weak_headline)
            {
                continue;
            }
            let b = value_in(br, p.key, rule);
            let v = value_in(vr, p.key, rule);
            let (current, side) = match (&b, &v) {
                (Some(x), Some(y)) if x == y => (x.clone(), "both"),
                (Some(_), Some(_)) => continue,
                (Some(x), None) => (x.clone(), "baseline"),
                (None, Some(y)) => (y.clone(), "variant"),
                (None, None) => continue,
            };
            let values = match super::sensitivity::steps(&p.kind, &current) {
                Ok(v) => v,
                Err(why) => {
                    if !matches!(p.kind, Kind::Spec(_)) {
                        let line =
                            format!("\u{201c}{}\u{201d} ({why})", crate::params::label(p.key));
                        if !not_tried.contains(&line) {
                            not_tried.push(line);
                        }
                    }
                    continue;
                }
            };
            // The rule ids in each side's system, once each.
            let mut ids: Vec<&str> = Vec::new();
            for sys in [bsys, vsys] {
                if let Some(d) = list(sys).into_iter().find(|d| d.key == p.key)
                    && !ids.contains(&d.rule)
                {
                    ids.push(d.rule);
                }
            }
            for to in values {
                out.push(Setting {
                    key: p.key.into(),
                    kind: if rule { "rule" } else { "situation" },
                    rule: ids.join("; "),
                    from: current.clone(),
                    to: to.clone(),
                    side: side.into(),
                    base: (side != "variant")
                        .then(|| (with_value(&bin, p.key, &to, rule), bv.options.clone())),
                    variant: (side != "baseline")
                        .then(|| (with_value(&vin, p.key, &to, rule), vv.options.clone())),
                });
            }
        }
    }
    // Optional rules: switched on both sides where both have them the same, else on the side
    // whose system has them; left alone where the variant differs from the baseline by them.
    let mut names: Vec<(&'static str, &'static str)> = Vec::new();
    for sys in [bsys, vsys] {
        for o in sys.options() {
            if !names.iter().any(|n| n.0 == o.name) {
                names.push((o.name, o.rule));
            }
        }
    }
    for (name, rule) in names {
        let has = |s: &dyn system::RuleSystem| s.options().iter().any(|o| o.name == name);
        let on = |v: &Variant| v.options.iter().any(|o| o == name);
        // An optional rule the variants themselves differ by is what the experiment compares:
        // switching it would turn one variant into another, not test an assumption.
        let of_system = |v: &&Variant| system::find(&v.system).is_ok_and(&has);
        if exp.variants.iter().filter(of_system).any(on)
            && exp.variants.iter().filter(of_system).any(|v| !on(v))
        {
            continue;
        }
        let side = match (has(bsys), has(vsys)) {
            (true, true) if on(bv) == on(vv) => "both",
            (true, true) => continue,
            (true, false) => "baseline",
            (false, true) => "variant",
            (false, false) => continue,
        };
        let was = if side == "variant" { on(vv) } else { on(bv) };
        out.push(Setting {
            key: name.into(),
            kind: "option",
            rule: rule.into(),
            from: if was { "on" } else { "off" }.into(),
            to: if was { "off" } else { "on" }.into(),
            side: side.into(),
            base: (side != "variant").then(|| (bin.clone(), toggled(&bv.options, name))),
            variant: (side != "baseline").then(|| (vin.clone(), toggled(&vv.options, name))),
        });
    }
    Ok(out)
}

/// What a setting does to difference `d` (the report's, with its interval where estimated; one
/// that contains zero counts as no difference) now `d2` (with its interval where estimated), or
/// `None` where it does not matter. `floor` is the largest change that never counts as a move
/// whatever `d`'s size ([`POINTS`] for chances; infinite for means, moved only by [`SHARE`]).
fn judge(
    d: f64,
    was: Option<(f64, f64)>,
    d2: f64,
    interval: Option<(f64, f64)>,
    floor: f64,
) -> Option<&'static str> {
    let band = (SHARE * d.abs()).min(floor);
    let sign = |x: f64| {
        if x.abs() < ZERO {
            0
        } else if x > 0.0 {
            1
        } else {
            -1
        }
    };
    match interval {
        None => {
            let (s, s2) = (sign(d), sign(d2));
            if s != 0 && s2 != 0 && s != s2 {
                Some("flips")
            } else if s != 0 && s2 == 0 {
                Some("removes")
            } else if s == 0 && s2 != 0 {
                Some("creates")
            } else if s != 0 && (d2 - d).abs() > band {
                Some("moves")
            } else {
                None
            }
        }
        Some((lo, hi)) => {
            // Only what the intervals show beyond doubt. A report's difference chance could
            // explain is none: a setting matters where it makes one that chance cannot.
            if was.is_some_and(|(l, h)| l <= 0.0 && h >= 0.0) {
                return (lo > 0.0 || hi < 0.0).then_some("creates");
            }
            if (d > 0.0 && hi < 0.0) || (d < 0.0 && lo > 0.0) {
                Some("flips")
            } else if lo > d + band || hi < d - band {
                Some("moves")
            } else {
                None
            }
        }
    }
}

impl Experiment {
    /// Which assumptions the answer rests on (see the module's description), at the first
    /// sweep point, for every headline and every variant against the baseline; `None` with one
    /// variant or where the file says `assumptions = false`.
    ///
    /// # Errors
    /// [`Error::Cancelled`] when `control` is cancelled; failures of the runs.
    pub fn assumptions(
        &self,
        runs: &[Run],
        threads: Option<usize>,
        sampler: Sampler,
        control: &Control,
    ) -> Result<Option<Assumptions>> {
        if !self.assumptions || self.variants.len() < 2 || runs.len() < self.variants.len() {
            return Ok(None);
        }
        let first = &runs[..self.variants.len()];
        let point = first[0].point.clone();
        let base = &first[0].report;
        let heads: Vec<String> = if self.headlines.is_empty() {
            vec![super::sensitivity::default_headline(base)]
        } else {
            self.headlines.clone()
        };
        let z = z_for_confidence(self.confidence);
        let exact_all = first.iter().all(|r| {
            heads
                .iter()
                .all(|h| matches!(exact_of(&r.report, h), Some(Some(_))))
        });
        let trials = self.trials.min(MOST_TRIALS);
        let mut options = self
            .run_options()
            .threads(threads)
            .confidence(self.confidence)
            .sampler(sampler)
            .exact_only(exact_all);
        options.spec.trials = trials;
        let mut out = Assumptions {
            found: Vec::new(),
            tried: 0,
            refused: 0,
            unsolved: 0,
            skipped: Vec::new(),
            share: SHARE,
            points: POINTS,
            exact: exact_all,
            trials: if exact_all { 0 } else { trials },
            not_tried: Vec::new(),
            verdict_steps: Vec::new(),
        };
        let lists = self.pairs_to_try(first, &point, &mut out.not_tried)?;
        let jobs = side_jobs(&lists);
        let of = jobs.len() as u32;
        let results = self.run_sides(&jobs, &options, threads, control)?;
        let ran = |v: &Variant,
                   inputs: &[Input],
                   opts: &[String]|
         -> std::result::Result<Report, Skipped> {
            let k = job_key(&v.system, inputs, opts, v.optimal_play);
            let i = jobs.iter().position(|j| j.0 == k).ok_or(Skipped::Refused)?;
            results[i].clone()
        };
        out.weigh(lists, &ran, &heads, &self.verdict_on, z);
        control.set_checking(of, of);
        Ok(Some(out))
    }

    /// Each variant compared with its baseline (the first, or its own `against`): the settings
    /// to try for the pair.
    ///
    /// # Errors
    /// As [`settings`].
    fn pairs_to_try<'a>(
        &'a self,
        first: &'a [Run],
        point: &[super::SetValue],
        not_tried: &mut Vec<String>,
    ) -> Result<Vec<Compared<'a>>> {
        let mut lists = Vec::new();
        for r in first {
            let Some(b) = self.baseline_of(r.variant) else {
                continue;
            };
            let (bv, base) = (&self.variants[b], &first[b].report);
            let vv = &self.variants[r.variant];
            let list = settings(self, point, [(bv, base), (vv, &r.report)], not_tried)?;
            lists.push((r, (bv, base), vv, list));
        }
        Ok(lists)
    }

    /// Every side's run under a setting (`jobs`), run on the threads asked for, one run a
    /// worker: a run's numbers do not depend on its threads, so neither do these. Each job's
    /// report, or why it has none.
    ///
    /// # Errors
    /// [`Error::Cancelled`] when `control` is cancelled.
    fn run_sides(
        &self,
        jobs: &[SideJob],
        options: &crate::scenario::RunOptions,
        threads: Option<usize>,
        control: &Control,
    ) -> Result<Vec<std::result::Result<Report, Skipped>>> {
        let of = jobs.len() as u32;
        let workers = threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .clamp(1, jobs.len().max(1));
        let next = std::sync::atomic::AtomicUsize::new(0);
        let one = options.clone().threads(None);
        let results: Vec<std::sync::Mutex<std::result::Result<Report, Skipped>>> = jobs
            .iter()
            .map(|_| std::sync::Mutex::new(Err(Skipped::Refused)))
            .collect();
        let cancelled = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= jobs.len() || control.is_cancelled() {
                            return;
                        }
                        control.set_checking(i as u32, of);
                        let (_, system, inputs, opts, play) = &jobs[i];
                        let built =
                            system::build(system, self.scenario, inputs, opts).and_then(|job| {
                                match play {
                                    true => job.played(&super::play_ask(), control).map(|(j, _)| j),
                                    false => Ok(job),
                                }
                            });
                        let r = match built {
                            Ok(job) => match job.run(&one, control) {
                                Ok(r) => Ok(r),
                                Err(Error::Cancelled) => {
                                    cancelled.store(true, std::sync::atomic::Ordering::Relaxed);
                                    return;
                                }
                                Err(_) => Err(Skipped::Unsolved),
                            },
                            Err(_) => Err(Skipped::Refused),
                        };
                        *results[i].lock().unwrap_or_else(|e| e.into_inner()) = r;
                    }
                });
            }
        });
        if control.is_cancelled() || cancelled.into_inner() {
            return Err(Error::Cancelled);
        }
        Ok(results
            .into_iter()
            .map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect())
    }
}

/// A variant's run against its baseline's (its variant and report), with the settings to try.
type Compared<'a> = (
    &'a Run,
    (&'a Variant, &'a Report),
    &'a Variant,
    Vec<Setting>,
);

/// A side's report under a setting (its variant, inputs and optional rules), or why it has none.
type Ran<'a> = dyn Fn(&Variant, &[Input], &[String]) -> std::result::Result<Report, Skipped> + 'a;

/// One side's run under a setting, as a key: the same key, the same run.
fn job_key(system: &str, inputs: &[Input], opts: &[String], play: bool) -> String {
    format!("{system}\u{1}{inputs:?}\u{1}{opts:?}\u{1}{play}")
}

/// Every side's run under a setting, once (a baseline's is shared by its variants). A variant
/// that plays its best choices (`play = "optimal"`) solves play under each setting too: its
/// runs are its own.
fn side_jobs<'a>(lists: &[Compared<'a>]) -> Vec<SideJob<'a>> {
    let mut jobs: Vec<SideJob> = Vec::new();
    for &(_, (bv, _), vv, ref list) in lists {
        for s in list {
            for (v, side) in [(bv, &s.base), (vv, &s.variant)] {
                if let Some((i, o)) = side {
                    let k = job_key(&v.system, i, o, v.optimal_play);
                    if !jobs.iter().any(|j| j.0 == k) {
                        jobs.push((k, &v.system, i.clone(), o.clone(), v.optimal_play));
                    }
                }
            }
        }
    }
    jobs
}

impl Assumptions {
    /// Each setting tried, weighed: the tries with no report counted and named, and for every
    /// headline the assumptions the runs found (see [`judge`]).
    fn weigh(
        &mut self,
        lists: Vec<Compared>,
        ran: &Ran<'_>,
        heads: &[String],
        verdict: &[String],
        z: f64,
    ) {
        for (r, (bv, base), vv, list) in lists {
            for s in list {
                self.tried += 1;
                let b = match &s.base {
                    Some((i, o)) => ran(bv, i, o),
                    None => Ok(base.clone()),
                };
                let v = match &s.variant {
                    Some((i, o)) => ran(vv, i, o),
                    None => Ok(r.report.clone()),
                };
                let (b, v) = match (b, v) {
                    (Ok(b), Ok(v)) => (b, v),
                    (b, v) => {
                        let refused = matches!(b, Err(Skipped::Refused))
                            || matches!(v, Err(Skipped::Refused));
                        match refused {
                            true => self.refused += 1,
                            false => self.unsolved += 1,
                        }
                        let left = SkippedSetting {
                            variant: vv.name.clone(),
                            key: s.key.clone(),
                            kind: s.kind.into(),
                            from: s.from.clone(),
                            to: s.to.clone(),
                            refused,
                        };
                        if !self.skipped.contains(&left) {
                            self.skipped.push(left);
                        }
                        continue;
                    }
                };
                for h in heads {
                    let Some((d, was)) = difference(&r.report, base, h, z) else {
                        continue;
                    };
                    let Some((d2, interval)) = difference(&v, &b, h, z) else {
                        continue;
                    };
                    // Every measure of the answer, where it has a verdict: the verdict's
                    // grid shows each beside the ones the verdict rests on.
                    if interval.is_none() && !verdict.is_empty() {
                        self.verdict_steps.push(VerdictStep {
                            variant: vv.name.clone(),
                            headline: h.clone(),
                            key: s.key.clone(),
                            to: s.to.clone(),
                            changed: d2,
                        });
                    }
                    let chance = base.outcomes.iter().any(|o| same_outcome(&o.outcome, h));
                    let floor = if chance { POINTS } else { f64::INFINITY };
                    if let Some(effect) = judge(d, was, d2, interval, floor) {
                        self.found.push(Assumption {
                            variant: vv.name.clone(),
                            headline: h.clone(),
                            key: s.key.clone(),
                            kind: s.kind.into(),
                            rule: s.rule.clone(),
                            from: s.from.clone(),
                            to: s.to.clone(),
                            side: s.side.clone(),
                            difference: d,
                            changed: d2,
                            low: interval.map(|i| i.0),
                            high: interval.map(|i| i.1),
                            effect: effect.into(),
                            values: match (
                                exact_of(base, h).flatten(),
                                exact_of(&r.report, h).flatten(),
                                exact_of(&b, h).flatten(),
                                exact_of(&v, h).flatten(),
                            ) {
                                (Some(w), Some(x), Some(y), Some(z)) => Some([w, x, y, z]),
                                _ => None,
                            },
                        });
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MEANS: f64 = f64::INFINITY;

    #[test]
    fn exact_differences_are_judged_by_sign_and_share() {
        assert_eq!(judge(-0.14, None, 0.02, None, MEANS), Some("flips"));
        assert_eq!(judge(-0.14, None, 0.0, None, MEANS), Some("removes"));
        assert_eq!(judge(0.0, None, 0.01, None, MEANS), Some("creates"));
        assert_eq!(judge(-0.14, None, -0.30, None, MEANS), Some("moves"));
        assert_eq!(judge(-0.14, None, -0.08, None, MEANS), None);
        assert_eq!(judge(0.0, None, 1e-15, None, MEANS), None);
    }

    /// Issue 79: Linear Warfare's last pip moves a line's win chance by 4.5 points, a fifth of
    /// a 25-point difference: a chance moved by more than [`POINTS`] is listed whatever the
    /// difference's size; a mean is not.
    #[test]
    fn a_chance_moved_by_more_than_three_points_is_listed() {
        assert_eq!(judge(-0.249, None, -0.204, None, POINTS), Some("moves"));
        assert_eq!(judge(-0.249, None, -0.204, None, MEANS), None);
        assert_eq!(judge(-0.249, None, -0.225, None, POINTS), None);
        // A small difference: half of it is the narrower band.
        assert_eq!(judge(0.04, None, 0.065, None, POINTS), Some("moves"));
        // Estimated: wholly outside ±3 points.
        let was = Some((-0.26, -0.24));
        assert_eq!(
            judge(-0.25, was, -0.20, Some((-0.21, -0.19)), POINTS),
            Some("moves")
        );
        assert_eq!(judge(-0.25, was, -0.23, Some((-0.24, -0.22)), POINTS), None);
    }

    #[test]
    fn estimates_matter_only_beyond_their_interval() {
        let was = Some((0.4, 0.6));
        // The interval crosses zero: no flip shown, but it lies wholly below half of 0.5.
        assert_eq!(
            judge(0.5, was, -0.1, Some((-0.3, 0.1)), MEANS),
            Some("moves")
        );
        assert_eq!(judge(0.5, was, 0.3, Some((0.1, 0.5)), MEANS), None);
        assert_eq!(
            judge(0.5, was, -0.2, Some((-0.3, -0.1)), MEANS),
            Some("flips")
        );
        // Outside ±50% of 0.5 wholly: moved.
        assert_eq!(judge(0.5, was, 0.9, Some((0.8, 1.0)), MEANS), Some("moves"));
        assert_eq!(judge(0.5, was, 0.7, Some((0.6, 0.8)), MEANS), None);
        // A difference chance explains is none: only one beyond chance is created.
        let none = Some((-0.01, 0.01));
        assert_eq!(
            judge(0.001, none, 0.06, Some((0.05, 0.07)), MEANS),
            Some("creates")
        );
        assert_eq!(judge(0.001, none, 0.01, Some((-0.01, 0.03)), MEANS), None);
    }
}
