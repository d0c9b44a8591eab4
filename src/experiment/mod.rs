//! Experiments: several variants of a rule set run on the same situation, side by side, from a
//! TOML file, with sweeps over one or two parameters and comparisons against the first variant.
//!
//! ```toml
//! name = "rally-odds"
//! question = "How likely is a routing unit to rally, by class and losses?"
//! scenario = "rally"
//! seed = 1
//! trials = 1_000_000
//!
//! [[variant]]
//! name = "Rank & File"
//! system = "rank-and-file"
//! options = []
//! set = { stands = 8, state = "routing" }
//! # rules = { base_green = 6 }        # rule parameters (also at the top, for every variant)
//! # rules_file = "../rulesets/x.toml" # a rule set, relative to this file
//!
//! [sweep]
//! x = { key = "lost", values = [0, 1, 2, 3] }
//! y = { key = "class", values = ["veteran", "regular", "green"] }
//! # or a rule parameter: x = { rule = "base_green", values = [4, 5, 6] }
//! ```
//!
//! Errors quote the file, line and key and say what is allowed.

use serde::{Deserialize, Serialize};

use crate::engine::Control;
use crate::error::{Error, Result};
use crate::params::Input;
use crate::report::Report;
use crate::scenario::chain::Sampler;
use crate::scenario::{RunOptions, Scenario};
use crate::system;

pub mod assumptions;
pub mod balance;
pub mod compare;
mod file;
pub mod points;
pub mod sensitivity;
mod template;
pub use template::template;

pub mod output;
pub mod shard;

/// A parameter value as written in TOML.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum SetValue {
    /// A whole number.
    Int(i64),
    /// A real number.
    Float(f64),
    /// A switch.
    Bool(bool),
    /// Text (names, fractions, unit specs).
    Text(String),
}

impl SetValue {
    /// The value as the command line would take it.
    pub fn as_input(&self) -> String {
        match self {
            SetValue::Int(i) => i.to_string(),
            SetValue::Float(x) => x.to_string(),
            SetValue::Bool(b) => b.to_string(),
            SetValue::Text(s) => s.clone(),
        }
    }
}

/// The most headlines an experiment may name (an answer table's columns stay readable).
pub const MOST_HEADLINES: usize = 4;

/// The longest title an experiment may give its report, in characters (a heading on one or two
/// printed lines).
pub const MOST_TITLE: usize = 100;

/// The most steps an experiment gives one exact solution (see [`crate::exact::Limit::work`]):
/// about 67 million, some 25 times the largest solve of the committed experiments (a Rank &
/// File engagement of 12 turns, 2.6 million steps, 0.7 s on 2 cores of 2026-11-30), so about
/// 20 s at most of the built-in systems' turns before a setting is left to Monte Carlo.
pub const EXPERIMENT_WORK: u64 = 1 << 26;

/// What a `[balance]` section asks: each variant solved for one parameter so that the
/// experiment's headline reaches a target.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BalanceAsk {
    /// The parameter solved for.
    pub solve: String,
    /// The range searched, as written (`LOW`, `HIGH`); `None`: the parameter's allowed range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<(String, String)>,
    /// A number the headline must reach (a share from 0 to 1 for an outcome) …
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<f64>,
    /// … or the variant whose headline the others must reach (it is not solved itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub against: Option<String>,
    /// Search by Monte Carlo even where the setting solves exactly.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub monte_carlo: bool,
}

/// A checked variant.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Variant {
    /// Its name in tables and charts.
    pub name: String,
    /// The rule system.
    pub system: String,
    /// Optional rules switched on.
    pub options: Vec<String>,
    /// Parameters set for it (the experiment's shared ones first), in file order.
    pub set: Vec<(String, SetValue)>,
    /// Rule parameters changed for it (the experiment's shared `rules` first), in file order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<(String, SetValue)>,
    /// Shown for scale, not one of the comparisons the question asks: the assumptions that
    /// flip or move only its difference stay out of the answer (they are listed with the
    /// rest).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reference: bool,
    /// The variant it is compared with (`against = "…"`), when not the first: a baseline of
    /// its own, so that an experiment can ask one question within each of several systems or
    /// units. `None`: the first variant.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub against: Option<String>,
    /// Side A makes the best choices play solves (`play = "optimal"`), in place of its
    /// parameters' policy: every run of it solves play first and plays the solved table.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub optimal_play: bool,
}

/// What a variant with `play = "optimal"` plays for: the chance side A holds the field minus
/// the chance side B holds it (play's default objective), with no time limit (the states are
/// bounded).
pub(crate) fn play_ask() -> crate::play::Ask {
    crate::play::Ask::hold_the_field()
}

/// A swept parameter.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Axis {
    /// The parameter key.
    pub key: String,
    /// The key is a rule parameter (`rule = "…"`), not one of the situation (`key = "…"`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub rule: bool,
    /// Its values.
    pub values: Vec<SetValue>,
}

/// A checked experiment, ready to run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Experiment {
    /// Its name (the report folder's name).
    pub name: String,
    /// The report's title (`title = "…"`, one line of at most [`MOST_TITLE`] characters); without
    /// one the question heads the report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The question it answers.
    pub question: String,
    /// `why = "…"`: the experiment author's account of the mechanism behind the answer (which
    /// rule makes it so), printed after the answer as the author's words; the numbers stay the
    /// tool's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// The scenario every variant runs.
    pub scenario: Scenario,
    /// The seed.
    pub seed: u64,
    /// Trials per variant and sweep point.
    pub trials: u64,
    /// Confidence level of intervals and comparisons.
    pub confidence: f64,
    /// The outcomes or metrics the question is about, in the file's order (`headline = "…"` or
    /// a list): the report opens with an answer table of them, a sentence each and, with two or
    /// more, a trade-off chart of the first two; the first is the one sweep charts and
    /// sensitivity speak of. Empty: the default one (`recovered` for `rally`, the unit gone for
    /// other scenarios that have it, else the first outcome).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub headlines: Vec<String>,
    /// Also find which rule matters most for each variant (see [`sensitivity`]): every rule
    /// parameter one step each way and every optional rule switched, measured on the headline.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sensitivity: bool,
    /// Check which assumptions the answer rests on (see [`assumptions`]); on unless the file
    /// says `assumptions = false`.
    #[serde(skip_serializing_if = "Clone::clone")]
    pub assumptions: bool,
    /// `verdict = true`: the question asks whether the first variant it is about does better
    /// than the baseline on its headlines (each headline's better direction is its label's), so
    /// the answer opens with a plain Yes, No or In part.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub verdict: bool,
    /// `verdict = [...]`: the headlines the verdict judges (the question's own measures); the
    /// others are shown beside them. Empty: every headline.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub verdict_on: Vec<String>,
    /// The variants; the first is the baseline of comparisons.
    pub variants: Vec<Variant>,
    /// The sweep axes (none, one or two).
    pub sweep: Vec<Axis>,
    /// With a `[balance]` section: what each variant is solved for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balance: Option<BalanceAsk>,
    /// What the command line changed from the file, in words (`run --trials`, `--seed`); empty
    /// for the file as written, and then not serialised.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<String>,
    /// The same changes as command-line flags (` --trials N --seed S`), for the command that
    /// makes the same numbers again (not serialised).
    #[serde(skip)]
    pub override_flags: String,
    /// The rule-set files the variants name, with their text (for shards; not serialised).
    #[serde(skip)]
    pub rule_files: Vec<(String, String)>,
}

impl Experiment {
    /// The variant that variant `v` is compared with: its `against`, else the first; `None`
    /// for a baseline (the first variant, and any variant another names in `against`), which
    /// is compared with none.
    pub fn baseline_of(&self, v: usize) -> Option<usize> {
        if self.is_baseline(v) {
            return None;
        }
        match &self.variants[v].against {
            Some(a) => self.variants.iter().position(|w| w.name == *a),
            None => Some(0),
        }
    }

    /// Whether variant `v` is a baseline: the first, or one another variant names in `against`.
    pub fn is_baseline(&self, v: usize) -> bool {
        v == 0
            || self
                .variants
                .iter()
                .any(|w| w.against.as_deref() == Some(self.variants[v].name.as_str()))
    }

    /// The name of the baseline of the variant named `name` (the first variant's name where
    /// none is found).
    pub fn baseline_name(&self, name: &str) -> &str {
        self.variants
            .iter()
            .position(|v| v.name == name)
            .and_then(|v| self.baseline_of(v))
            .map_or(self.variants[0].name.as_str(), |b| {
                self.variants[b].name.as_str()
            })
    }

    /// The variants compared with a baseline (every one but the baselines), with their index.
    pub fn compared(&self) -> impl Iterator<Item = (usize, &Variant)> {
        self.variants
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.is_baseline(*i))
    }

    /// Whether any variant has a baseline of its own (`against`), so that the report names
    /// each comparison's baseline rather than one for all.
    pub fn several_baselines(&self) -> bool {
        self.variants.iter().any(|v| {
            v.against
                .as_ref()
                .is_some_and(|a| *a != self.variants[0].name)
        })
    }

    /// What `[balance]` asks of variant `v` (its inputs given), with `target` and `run`.
    fn balance_ask<'a>(
        &'a self,
        ask: &'a BalanceAsk,
        v: &'a Variant,
        inputs: &'a [Input],
        target: balance::Target,
        run: RunOptions,
    ) -> balance::Ask<'a> {
        balance::Ask {
            system: &v.system,
            scenario: self.scenario,
            inputs,
            options: &v.options,
            headline: self.headlines.first().map(String::as_str),
            key: &ask.solve,
            range: ask.range.clone(),
            target,
            run,
            monte_carlo: ask.monte_carlo,
            optimal_play: v.optimal_play,
        }
    }

    /// The target of variant `v` under `[balance]`; `None` for the variant the others match.
    fn balance_target(
        &self,
        ask: &BalanceAsk,
        v: &Variant,
        point: &[SetValue],
    ) -> Option<balance::Target> {
        match (&ask.target, &ask.against) {
            (Some(t), _) => Some(balance::Target::Number(*t)),
            (None, Some(a)) if *a == v.name => None,
            (None, Some(a)) => {
                let w = self.variants.iter().find(|w| w.name == *a)?;
                Some(balance::Target::Variant {
                    name: w.name.clone(),
                    system: w.system.clone(),
                    inputs: self.inputs(w, point),
                    options: w.options.clone(),
                    optimal_play: w.optimal_play,
                })
            }
            (None, None) => None,
        }
    }

    /// Every sweep point: one value per axis (a single empty point without a sweep).
    pub fn points(&self) -> Vec<Vec<SetValue>> {
        let mut points: Vec<Vec<SetValue>> = vec![vec![]];
        for axis in &self.sweep {
            points = points
                .into_iter()
                .flat_map(|p| {
                    axis.values.iter().map(move |v| {
                        let mut q = p.clone();
                        q.push(v.clone());
                        q
                    })
                })
                .collect();
        }
        points
    }

    /// The inputs of a variant at a sweep point (swept values last, so they win).
    pub fn inputs(&self, v: &Variant, point: &[SetValue]) -> Vec<Input> {
        let set = v.set.iter().map(|(k, x)| Input {
            key: k.clone(),
            value: x.as_input(),
            source: crate::params::Source::Set,
        });
        let rules = v.rules.iter().map(|(k, x)| Input::rule(k, x.as_input()));
        let swept = self.sweep.iter().zip(point).map(|(a, x)| Input {
            key: a.key.clone(),
            value: x.as_input(),
            source: if a.rule {
                crate::params::Source::Rule
            } else {
                crate::params::Source::Set
            },
        });
        set.chain(rules).chain(swept).collect()
    }

    /// Run with other trials or another seed than the file's (a quick look: `run --trials
    /// --seed`), recording each change in [`Experiment::overrides`] so every report says so.
    pub fn with_overrides(mut self, trials: Option<u64>, seed: Option<u64>) -> Self {
        if let Some(t) = trials.filter(|&t| t != self.trials) {
            self.overrides.push(format!(
                "trials {} from the command line (the file says {})",
                crate::report::thousands(t),
                crate::report::thousands(self.trials)
            ));
            self.override_flags += &format!(" --trials {t}");
            self.trials = t;
        }
        if let Some(s) = seed.filter(|&s| s != self.seed) {
            self.overrides.push(format!(
                "seed {s} from the command line (the file says {})",
                self.seed
            ));
            self.override_flags += &format!(" --seed {s}");
            self.seed = s;
        }
        self
    }

    /// The command that makes the same numbers again from the experiment file at `path`: where
    /// a report is written, on how many threads or in how many shards makes no difference to
    /// them, so a run on one machine and a merge of shards record the same command.
    pub fn command(&self, path: &str) -> String {
        format!("morale-lab run {path}{}", self.override_flags)
    }

    /// A run of this experiment from its seed and trials: its exact solutions bounded by
    /// [`EXPERIMENT_WORK`] steps, not by seconds, so that what a report solves and what it
    /// leaves to Monte Carlo is the same on every machine and under any load (a budget in
    /// seconds once dropped a try from a report on a busy machine).
    pub fn run_options(&self) -> RunOptions {
        RunOptions::new(self.trials, self.seed)
            .exact_budget(None)
            .exact_work(Some(EXPERIMENT_WORK))
    }

    /// The number of runs (variants × sweep points).
    pub fn runs(&self) -> usize {
        self.variants.len() * self.points().len()
    }

    /// Run every variant at every sweep point. Run *k* (point-major) uses stream *k* of the
    /// seed, so results do not depend on threads and one variant's numbers do not change when
    /// another is added after it... at the same point.
    ///
    /// # Errors
    /// [`Error::Cancelled`] when `control` is cancelled; failures of the exact solutions.
    pub fn run(
        &self,
        threads: Option<usize>,
        sampler: Sampler,
        control: &Control,
    ) -> Result<ExperimentResult> {
        let mut runs = Vec::new();
        for planned in self.plan(threads, sampler)? {
            let report = planned.job.run(&planned.options, control)?;
            runs.push(Run {
                point: planned.point,
                variant: planned.variant,
                report,
            });
        }
        let mut result = self.result(threads, runs);
        result.sensitivity = self.sensitivities(threads, sampler, control)?;
        result.balance = self.balances(threads, sampler, control)?;
        result.assumptions = self.assumptions(&result.runs, threads, sampler, control)?;
        result.play = self.plays(control)?;
        Ok(result)
    }

    /// With `sensitivity = true`, which rule matters most for each variant, on the headline,
    /// from the experiment's seed and trials (exact where the scenario solves exactly); empty
    /// otherwise. The same for a run on one machine and a merge of shards.
    ///
    /// # Errors
    /// [`Error::Cancelled`] when `control` is cancelled; failures of the runs.
    pub fn sensitivities(
        &self,
        threads: Option<usize>,
        sampler: Sampler,
        control: &Control,
    ) -> Result<Vec<(String, sensitivity::Sensitivity)>> {
        if !self.sensitivity {
            return Ok(Vec::new());
        }
        let point = self.points().into_iter().next().unwrap_or_default();
        self.variants
            .iter()
            .map(|v| {
                let inputs = self.inputs(v, &point);
                let ask = sensitivity::Ask {
                    system: &v.system,
                    scenario: self.scenario,
                    inputs: &inputs,
                    options: &v.options,
                    headline: self.headlines.first().map(String::as_str),
                    run: self
                        .run_options()
                        .threads(threads)
                        .confidence(self.confidence)
                        .sampler(sampler),
                };
                Ok((v.name.clone(), sensitivity::analyse(&ask, control)?))
            })
            .collect()
    }

    /// Each variant that plays its best (`play = "optimal"`), its play solved at the
    /// experiment's first setting with the rules of thumb (what its report shows of play);
    /// empty where none does. The same for a run on one machine and a merge of shards.
    ///
    /// # Errors
    /// [`Error::Cancelled`] when `control` is cancelled; a variant that does not build (never
    /// after `parse`).
    pub fn plays(&self, control: &Control) -> Result<Vec<(String, crate::play::Solution)>> {
        (0..self.variants.len())
            .filter(|&i| self.variants[i].optimal_play)
            .map(|i| Ok((self.variants[i].name.clone(), self.play_of(i, control)?)))
            .collect()
    }

    /// Variant `i`'s play solved at the experiment's first setting, with the rules of thumb,
    /// whether it plays its best or not (the explorer asks it of any profile).
    ///
    /// # Errors
    /// [`Error::Cancelled`] when `control` is cancelled; a scenario with no choice to solve;
    /// a variant that does not build (never after `parse`).
    pub fn play_of(&self, i: usize, control: &Control) -> Result<crate::play::Solution> {
        let point = self.points().into_iter().next().unwrap_or_default();
        let v = &self.variants[i];
        let job = system::build(
            &v.system,
            self.scenario,
            &self.inputs(v, &point),
            &v.options,
        )?;
        job.play(&play_ask(), control)
    }

    /// With a `[balance]` section, each variant solved (all but the one the others match), from
    /// the experiment's seed and trials; empty otherwise. The same for a run on one machine and
    /// a merge of shards.
    ///
    /// # Errors
    /// [`Error::Cancelled`] when `control` is cancelled; failures of the runs.
    pub fn balances(
        &self,
        threads: Option<usize>,
        sampler: Sampler,
        control: &Control,
    ) -> Result<Vec<(String, balance::Balance)>> {
        let Some(ask) = &self.balance else {
            return Ok(Vec::new());
        };
        let point = self.points().into_iter().next().unwrap_or_default();
        let mut out = Vec::new();
        for v in &self.variants {
            let Some(target) = self.balance_target(ask, v, &point) else {
                continue;
            };
            let inputs = self.inputs(v, &point);
            let run = self
                .run_options()
                .threads(threads)
                .confidence(self.confidence)
                .sampler(sampler);
            let asked = self.balance_ask(ask, v, &inputs, target, run);
            out.push((v.name.clone(), balance::solve(&asked, control)?));
        }
        Ok(out)
    }

    /// Every run, point-major, with its job and run options (stream = run index).
    ///
    /// # Errors
    /// A variant that does not build (never after `parse`).
    pub fn plan(&self, threads: Option<usize>, sampler: Sampler) -> Result<Vec<Planned>> {
        let mut out = Vec::new();
        for (pi, point) in self.points().into_iter().enumerate() {
            for (vi, v) in self.variants.iter().enumerate() {
                let mut job = system::build(
                    &v.system,
                    self.scenario,
                    &self.inputs(v, &point),
                    &v.options,
                )?;
                if v.optimal_play {
                    job = job
                        .played(&play_ask(), &crate::engine::Control::default())?
                        .0;
                }
                let stream = (pi * self.variants.len() + vi) as u64;
                let options = self
                    .run_options()
                    .stream(stream)
                    .threads(threads)
                    .confidence(self.confidence)
                    .sampler(sampler);
                out.push(Planned {
                    point: point.clone(),
                    variant: vi,
                    job,
                    options,
                });
            }
        }
        Ok(out)
    }

    /// The result of this experiment from its runs.
    pub fn result(&self, threads: Option<usize>, runs: Vec<Run>) -> ExperimentResult {
        ExperimentResult {
            experiment: self.clone(),
            version: crate::VERSION.to_string(),
            threads: threads.unwrap_or_else(rayon::current_num_threads),
            runs,
            timing_parts: None,
            sensitivity: Vec::new(),
            balance: Vec::new(),
            assumptions: None,
            play: Vec::new(),
        }
    }
}

/// One run of an experiment, ready to go.
pub struct Planned {
    /// The sweep values.
    pub point: Vec<SetValue>,
    /// The variant's index.
    pub variant: usize,
    /// The configured scenario.
    pub job: Box<dyn crate::scenario::Job>,
    /// Trials, seed, stream, threads, sampler.
    pub options: RunOptions,
}

/// Run `planned` (from [`Experiment::plan`]) by Monte Carlo side by side, in batches of whole
/// chunks: every run's first batch, then every run's next, doubling (see
/// [`crate::engine::batches`]), each exact solution found first. A run stopped part way
/// (`control` cancelled) keeps the batches every run finished: the same trials for each, so
/// the numbers of the experiment run with that many trials and the same seed, to the bit, each
/// report saying so. Returns the runs and the trials they hold. Runs that do not go in batches
/// (exact only, a precision target, unequal trials, a single run) run one after another as
/// [`Experiment::run`] runs them.
///
/// # Errors
/// [`Error::Cancelled`] when stopped before every run finished its first batch; failures of the
/// runs.
pub fn run_side_by_side(planned: Vec<Planned>, control: &Control) -> Result<(Vec<Run>, u64)> {
    let asked = planned.first().map_or(0, |p| p.options.spec.trials);
    let batched = planned.len() > 1
        && planned.iter().all(|p| {
            !p.options.exact_only && p.options.precision.is_none() && p.options.spec.trials == asked
        });
    if !batched {
        let mut runs = Vec::new();
        for p in planned {
            let report = p.job.run(&p.options, control)?;
            runs.push(Run {
                point: p.point,
                variant: p.variant,
                report,
            });
        }
        let held = runs.iter().map(|r| r.report.trials).min().unwrap_or(0);
        return Ok((runs, held));
    }
    let exact = planned
        .iter()
        .map(|p| p.job.exact(&p.options, control))
        .collect::<Result<Vec<_>>>()?;
    let mut tallies: Vec<Vec<u64>> = vec![Vec::new(); planned.len()];
    // Each run's own time in its batches, as a run's report gives it.
    let mut seconds = vec![0.0; planned.len()];
    let (mut held, mut done_chunks) = (0, 0);
    'batches: for trials in crate::engine::batches(asked) {
        let spec = crate::engine::RunSpec {
            trials,
            ..planned[0].options.spec.clone()
        };
        let chunks = spec.chunks();
        let mut parts = Vec::with_capacity(planned.len());
        for (p, s) in planned.iter().zip(&mut seconds) {
            // Chunks of the whole run's plan: whole chunks, as in the batch's own plan.
            let started = std::time::Instant::now();
            match p.job.tally(&p.options, done_chunks..chunks, control) {
                Ok(part) => {
                    *s += started.elapsed().as_secs_f64();
                    parts.push(part);
                }
                Err(Error::Cancelled) => break 'batches,
                Err(e) => return Err(e),
            }
        }
        for (tally, part) in tallies.iter_mut().zip(parts) {
            if tally.is_empty() {
                *tally = part;
            } else {
                crate::engine::add_into(tally, &part);
            }
        }
        (held, done_chunks) = (trials, chunks);
    }
    if held == 0 {
        return Err(Error::Cancelled);
    }
    let mut runs = Vec::with_capacity(planned.len());
    for (((p, tally), exact), seconds) in planned.into_iter().zip(&tallies).zip(&exact).zip(seconds)
    {
        let mut options = p.options.clone();
        options.spec.trials = held;
        let mut report = p.job.report_exact(tally, exact, &options)?;
        report.elapsed_s = seconds;
        if held < asked {
            report
                .notes
                .push(crate::scenario::stopped_note(held, asked));
        }
        runs.push(Run {
            point: p.point,
            variant: p.variant,
            report,
        });
    }
    Ok((runs, held))
}

/// One variant at one sweep point.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Run {
    /// The sweep values (empty without a sweep).
    pub point: Vec<SetValue>,
    /// The variant's index.
    pub variant: usize,
    /// What it found.
    pub report: Report,
}

/// Everything an experiment found, and everything needed to run it again.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExperimentResult {
    /// The experiment as checked.
    pub experiment: Experiment,
    /// The tool's version.
    pub version: String,
    /// Worker threads used (results do not depend on it).
    pub threads: usize,
    /// Every run, point-major.
    pub runs: Vec<Run>,
    /// For a merge of shards: how many parts the runs' times are summed over (`timing.json`
    /// says so); `None` for a run on one machine.
    #[serde(skip)]
    pub timing_parts: Option<u64>,
    /// With `sensitivity = true`: each variant's name and which of its rules matters most.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sensitivity: Vec<(String, sensitivity::Sensitivity)>,
    /// With a `[balance]` section: each solved variant's name and what number makes it fair.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub balance: Vec<(String, balance::Balance)>,
    /// With two variants or more: the assumptions the answer rests on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assumptions: Option<assumptions::Assumptions>,
    /// With a variant that plays its best (`play = "optimal"`): each such variant's name and
    /// its play solved at the experiment's first setting, with the rules of thumb and the best
    /// choice by state.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub play: Vec<(String, crate::play::Solution)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rally of three settings, `trials` trials each, seed 7.
    fn rally(trials: u64) -> Experiment {
        let text = format!(
            "name = \"side\"\nquestion = \"Side by side?\"\nscenario = \"rally\"\nseed = 7\ntrials = {trials}\nset = {{ stands = 6, lost = 2, state = \"routing\" }}\n\n[[variant]]\nname = \"veteran\"\nsystem = \"rank-and-file\"\nset = {{ class = \"veteran\" }}\n\n[[variant]]\nname = \"green\"\nsystem = \"rank-and-file\"\nset = {{ class = \"green\" }}\n\n[[variant]]\nname = \"regular\"\nsystem = \"rank-and-file\"\nset = {{ class = \"regular\" }}\n"
        );
        Experiment::parse("side.toml", &text).unwrap()
    }

    /// An experiment's runs never read the clock to decide what to solve: a budget in seconds
    /// once left a try out of a committed report on a busy machine (CI's), so every run of a
    /// plan, and the runs its tries and balances make, are bounded by steps instead.
    #[test]
    fn an_experiment_bounds_its_exact_solutions_by_work_not_seconds() {
        let exp = rally(1000);
        let plan = exp.plan(Some(1), Sampler::Table).unwrap();
        assert_eq!(plan.len(), 3);
        for p in plan.iter().map(|p| &p.options).chain([&exp.run_options()]) {
            assert_eq!(p.exact_budget, None);
            assert_eq!(p.exact_work, Some(EXPERIMENT_WORK));
            assert_eq!((p.spec.trials, p.spec.seed), (1000, 7));
        }
    }

    /// A run's variant, trials, and each outcome's count and exact value.
    type Found = (usize, u64, Vec<(Option<u64>, Option<f64>)>);

    /// What a run found, without its time: the counts and exact values of every outcome.
    fn found(runs: &[Run]) -> Vec<Found> {
        runs.iter()
            .map(|r| {
                let cells = r.report.outcomes.iter();
                let cells = cells.map(|o| (o.cell.count, o.cell.exact)).collect();
                (r.variant, r.report.trials, cells)
            })
            .collect()
    }

    /// Issue 54: runs side by side, stopped part way, keep the same finished batches: the
    /// numbers of the experiment run with that many trials, to the bit; run whole, the
    /// experiment's own numbers.
    #[test]
    fn runs_side_by_side_stopped_keep_the_same_prefix() {
        let asked = 1 << 23;
        let exp = rally(asked);
        let whole =
            run_side_by_side(exp.plan(Some(2), Sampler::Table).unwrap(), &Control::new()).unwrap();
        assert_eq!(whole.1, asked);
        let plain = exp.run(Some(2), Sampler::Table, &Control::new()).unwrap();
        assert_eq!(found(&whole.0), found(&plain.runs));
        // Stopped once every run is well into its second batch (past 1.5 batches' trials each)
        // of a run far too long to finish first.
        let (asked, exp) = (1 << 30, rally(1 << 30));
        let control = std::sync::Arc::new(Control::keeping_partial());
        let watch = {
            let control = std::sync::Arc::clone(&control);
            std::thread::spawn(move || {
                while control.done() < 3 * (3 << 19) {
                    std::thread::yield_now();
                }
                control.cancel();
            })
        };
        let (runs, held) =
            run_side_by_side(exp.plan(Some(2), Sampler::Table).unwrap(), &control).unwrap();
        watch.join().unwrap();
        assert!(
            crate::engine::batches(asked).any(|t| t == held) && (1 << 20..asked).contains(&held),
            "{held}"
        );
        assert!(runs.iter().all(|r| r.report.trials == held));
        assert!(runs.iter().all(|r| {
            r.report
                .notes
                .iter()
                .any(|n| n.contains(&format!("--trials {held}")))
        }));
        let again = rally(held)
            .run(Some(2), Sampler::Table, &Control::new())
            .unwrap();
        assert_eq!(found(&runs), found(&again.runs));
        // Stopped before the first batch: nothing kept.
        let stopped = Control::keeping_partial();
        stopped.cancel();
        assert!(matches!(
            run_side_by_side(exp.plan(Some(2), Sampler::Table).unwrap(), &stopped),
            Err(Error::Cancelled)
        ));
    }

    /// Four rally variants: regular and veteran under Rank & File, regular and elite under
    /// the 25% rules, with `against` lines (TOML) after the third and fourth variant.
    fn groups(third: &str, fourth: &str) -> Result<Experiment> {
        let text = format!(
            "name = \"groups\"\nquestion = \"Within each?\"\nscenario = \"rally\"\nseed = 7\ntrials = 2000\n\n[[variant]]\nname = \"RF regular\"\nsystem = \"rank-and-file\"\nset = {{ class = \"regular\" }}\n\n[[variant]]\nname = \"RF veteran\"\nsystem = \"rank-and-file\"\nset = {{ class = \"veteran\" }}\n\n[[variant]]\nname = \"25% regular\"\nsystem = \"effectiveness\"\nset = {{ class = \"regular\" }}\n{third}\n[[variant]]\nname = \"25% elite\"\nsystem = \"effectiveness\"\nset = {{ class = \"elite\" }}\n{fourth}\n"
        );
        Experiment::parse("groups.toml", &text)
    }

    /// A variant compared with a baseline of its own (`against`): every comparison is with
    /// its own baseline, the baselines are compared with none, and the report says so.
    #[test]
    fn a_variant_is_compared_with_the_baseline_it_names() {
        let exp = groups("", "against = \"25% regular\"").unwrap();
        assert_eq!(
            (0..4).map(|v| exp.baseline_of(v)).collect::<Vec<_>>(),
            [None, Some(0), None, Some(2)]
        );
        assert!(exp.several_baselines());
        let result = exp.run(Some(1), Sampler::Table, &Control::new()).unwrap();
        let cmp = compare::compare(&result);
        let pairs: Vec<(&str, &str)> = cmp
            .iter()
            .map(|c| (c.variant.as_str(), c.baseline.as_str()))
            .collect();
        assert!(pairs.contains(&("RF veteran", "RF regular")));
        assert!(pairs.contains(&("25% elite", "25% regular")));
        assert!(
            pairs
                .iter()
                .all(|p| *p == ("RF veteran", "RF regular") || *p == ("25% elite", "25% regular")),
            "{pairs:?}"
        );
        // No comparison crosses the systems, so the report has no note on matching outcomes.
        let files = output::outputs(&result, "test").unwrap();
        let summary = files.iter().find(|f| f.name == "summary.md").unwrap();
        let md = String::from_utf8(summary.bytes.clone()).unwrap();
        assert!(md.contains("difference from its baseline"), "{md}");
        assert!(!md.contains("different rule systems"), "{md}");
        // Named explicitly, the first variant is a baseline as before.
        let plain = groups("", "against = \"RF regular\"").unwrap();
        assert!(!plain.several_baselines());
        assert_eq!(plain.baseline_of(3), Some(0));
    }

    /// `against` names an earlier variant that is itself a baseline; anything else is one
    /// clear error naming the key.
    #[test]
    fn against_names_an_earlier_baseline() {
        for (third, fourth, said) in [
            (
                "",
                "against = \"nobody\"",
                "'nobody' is not a variant before this one",
            ),
            (
                "against = \"25% elite\"",
                "",
                "'25% elite' is not a variant before this one",
            ),
            (
                "against = \"RF veteran\"",
                "against = \"25% regular\"",
                "'25% regular' is itself compared with 'RF veteran'",
            ),
        ] {
            let e = groups(third, fourth).unwrap_err().to_string();
            assert!(e.contains("variant.against") && e.contains(said), "{e}");
        }
    }

    #[test]
    fn batches_double_from_sixteen_chunks_to_the_whole() {
        let c = crate::engine::CHUNK;
        let b: Vec<u64> = crate::engine::batches(100 * c + 5).collect();
        assert_eq!(b, [16 * c, 32 * c, 64 * c, 100 * c + 5]);
        assert_eq!(crate::engine::batches(10).collect::<Vec<_>>(), [10]);
        assert_eq!(crate::engine::batches(0).count(), 0);
    }
}
