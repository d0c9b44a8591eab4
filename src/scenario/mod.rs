//! Scenarios: what one trial is (docs/RULES.md §4), and how a run of them becomes a [`Report`].
//!
//! Every scenario so far is a [`chain::Chain`]; a [`ChainJob`] pairs one with the outcomes,
//! metrics and tables its report shows, runs its trials on the engine, solves it exactly, and
//! puts both side by side.

pub mod battle;
pub mod chain;
pub mod fire;
pub mod invariants;
mod kind;
pub mod melee;
pub mod strength;
pub mod test;

pub use kind::{Scenario, ScenarioAbout};

use std::time::Instant;

use serde_json::{Map, Value};

use crate::engine::{self, Control, RunSpec, Sim};
use crate::error::Result;
use crate::exact;
use crate::report::{Cell, MetricRow, OutcomeRow, Report, Table, TableRow};
use crate::stats;
use chain::{Chain, ChainSim, Layout, Sampler};

/// What a run is of: the names and every parameter in force, for the report.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Describe {
    /// The rule system.
    pub system: String,
    /// The scenario.
    pub scenario: String,
    /// Every parameter, defaults included, in a stable order.
    pub params: Map<String, Value>,
    /// Every rule parameter as this run plays the rules, in table order.
    pub rules: Map<String, Value>,
    /// The rule parameters that differ from the source: (key, value, the source's value).
    pub rules_changed: Vec<(String, Value, String)>,
    /// Optional rules switched on.
    pub options: Vec<String>,
    /// Model choices a reader should know about.
    pub notes: Vec<String>,
    /// For a mechanic file: its path and the start of the SHA-256 of its text, which the
    /// rules line names in place of "as written".
    pub source: Option<String>,
}

impl Describe {
    /// What a run solved, as a scenario's report heads it: `morale-lab COMMAND · scenario ·
    /// system`, every parameter, the rules (as written, or what changed) and the optional rules,
    /// one line each.
    pub fn lines(&self, command: &str) -> Vec<String> {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|(k, v)| match v {
                serde_json::Value::String(s) => format!("{k}={s}"),
                v => format!("{k}={v}"),
            })
            .collect();
        let rules = match self.rules_changed.as_slice() {
            [] => match &self.source {
                Some(f) => format!("as the file {f} writes them (no rule parameter changed)"),
                None => "as written (no rule parameter changed)".into(),
            },
            changed => changed
                .iter()
                .map(|(k, v, from)| format!("{k}={v} (the source: {from})"))
                .collect::<Vec<_>>()
                .join(", "),
        };
        vec![
            format!("morale-lab {command} · {} · {}", self.scenario, self.system),
            format!("params: {}", params.join(" ")),
            format!("rules: {rules}"),
            format!(
                "options: {}",
                if self.options.is_empty() {
                    "none".to_string()
                } else {
                    self.options.join(", ")
                }
            ),
        ]
    }
}

/// An outcome of the report: the trials that ended in any of these classes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutcomeDef {
    /// The outcome's name.
    pub name: &'static str,
    /// The chain classes it gathers.
    pub classes: Vec<usize>,
}

/// The index of the class named `name` among a chain's `classes`: a job's outcomes, metrics
/// and tables name the classes they read, and are resolved here when the job is built.
///
/// # Panics
/// When no class has that name: a job defined against another chain's classes, which every
/// test that builds the job catches.
pub fn class_index(classes: &[chain::ClassInfo], name: &str) -> usize {
    classes
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| {
            let names: Vec<&str> = classes.iter().map(|c| c.name).collect();
            panic!(
                "no class '{name}' among the chain's classes ({})",
                names.join(", ")
            )
        })
}

impl OutcomeDef {
    /// The outcome `name`: the trials that ended in any of the classes named `of`.
    pub fn of(classes: &[chain::ClassInfo], name: &'static str, of: &[&str]) -> OutcomeDef {
        OutcomeDef {
            name,
            classes: of.iter().map(|c| class_index(classes, c)).collect(),
        }
    }

    /// One outcome for each class named in `names`, named as the class.
    pub fn each(classes: &[chain::ClassInfo], names: &[&'static str]) -> Vec<OutcomeDef> {
        names
            .iter()
            .map(|&name| OutcomeDef::of(classes, name, &[name]))
            .collect()
    }
}

impl MetricDef {
    /// The metric's name.
    pub fn name(&self) -> &'static str {
        match self {
            MetricDef::AbsorbTurn { name, .. }
            | MetricDef::EmptyTurns { name, .. }
            | MetricDef::EndTurn { name, .. }
            | MetricDef::Value { name, .. }
            | MetricDef::SeriesTotal { name, .. } => name,
        }
    }
    /// The mean turn at which trials reached the class named `class`, over those that did.
    pub fn absorb_turn(
        classes: &[chain::ClassInfo],
        name: &'static str,
        class: &str,
        meaning: &'static str,
    ) -> MetricDef {
        MetricDef::AbsorbTurn {
            name,
            class: class_index(classes, class),
            meaning,
        }
    }

    /// The mean turn at which trials ended in any of the classes named `of`, over those that did.
    pub fn end_turn(
        classes: &[chain::ClassInfo],
        name: &'static str,
        of: &[&str],
        meaning: &'static str,
    ) -> MetricDef {
        MetricDef::EndTurn {
            name,
            classes: of.iter().map(|c| class_index(classes, c)).collect(),
            meaning,
        }
    }
}

impl TableDef {
    /// Absorption by turn: a column (name, the class it counts, cumulative) for each of
    /// `columns`.
    pub fn absorb(
        classes: &[chain::ClassInfo],
        name: &'static str,
        title: &'static str,
        columns: &[(&'static str, &str, bool)],
    ) -> TableDef {
        TableDef::Absorb {
            name,
            title,
            columns: columns
                .iter()
                .map(|&(column, class, cumulative)| {
                    (column, class_index(classes, class), cumulative)
                })
                .collect(),
        }
    }
}

/// The holes-in-the-line metric of `under-fire`, for every system.
pub const EMPTY_TURNS: MetricDef = MetricDef::EmptyTurns {
    name: "empty_turns",
    meaning: "turns, of all those played, in which no unit held its place: it had left the line or was gone (once gone, it leaves the place empty every turn after)",
};

/// An average the report shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetricDef {
    /// The mean turn at which trials were absorbed into a class, over those that were.
    AbsorbTurn {
        /// Metric name.
        name: &'static str,
        /// The class.
        class: usize,
        /// What it means.
        meaning: &'static str,
    },
    /// The mean turn at which trials ended in any of these classes, over those that did (the
    /// rounds of a melee).
    EndTurn {
        /// Metric name.
        name: &'static str,
        /// The classes.
        classes: Vec<usize>,
        /// What it means.
        meaning: &'static str,
    },
    /// The mean number of turns (out of the scenario's turns) the unit's place stood empty.
    EmptyTurns {
        /// Metric name.
        name: &'static str,
        /// What it means.
        meaning: &'static str,
    },
    /// The mean over trials of a per-turn series of the chain summed over the turns (strength
    /// held in the line, turn by turn: strength-turns): exact as the sum of the series' exact
    /// per-turn means; the simulation's interval adds the turns' standard errors, as if the
    /// turns moved together (the widest the sum's can be: a conservative interval).
    SeriesTotal {
        /// Metric name.
        name: &'static str,
        /// The series summed (a [`chain::ValueInfo`] name of [`Chain::series`]).
        series: &'static str,
        /// Each turn as a share of the series' largest value (strength as a share of full
        /// strength: the total is then in turns at full strength, alike in every system).
        share: bool,
        /// What it means.
        meaning: &'static str,
    },
    /// The mean of a final-state value of the chain, named as the chain names it (one name per
    /// quantity: the metric is the value).
    Value {
        /// The value's name (a [`chain::ValueInfo`] name of the chain).
        name: &'static str,
        /// What it means.
        meaning: &'static str,
    },
}

/// A table by turn the report shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableDef {
    /// The share of trials in each class after every turn.
    PerTurn {
        /// Table name.
        name: &'static str,
        /// Title.
        title: &'static str,
    },
    /// The mean of every per-turn series of the chain after every turn, with a normal interval.
    Series {
        /// Table name.
        name: &'static str,
        /// Title.
        title: &'static str,
    },
    /// Absorption into classes by turn: at that turn, or by then (cumulative).
    Absorb {
        /// Table name.
        name: &'static str,
        /// Title.
        title: &'static str,
        /// Columns: (name, class, cumulative).
        columns: Vec<(&'static str, usize, bool)>,
    },
}

/// Seconds an exact solution may take unless the run says otherwise.
pub const DEFAULT_EXACT_BUDGET: f64 = 5.0;

/// How to run: the trial plan, the confidence level, and whether to skip Monte Carlo.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOptions {
    /// Trials, seed, stream and threads.
    pub spec: RunSpec,
    /// Confidence level of the intervals (e.g. 0.95).
    pub confidence: f64,
    /// Report only the exact solution.
    pub exact_only: bool,
    /// How Monte Carlo draws each turn.
    pub sampler: Sampler,
    /// Precision on demand: run batches until the widest interval of an outcome has at most
    /// this half-width (or `spec.trials`, the cap, is reached).
    pub precision: Option<f64>,
    /// Seconds the exact solution may take (`None`: no limit); past it the report says so
    /// and gives Monte Carlo alone (an exact-only run fails instead).
    pub exact_budget: Option<f64>,
    /// Steps the exact solution may take (`None`: no bound; see [`crate::exact::Limit::work`]):
    /// an experiment's bound in place of seconds, so that what it solves and what it skips
    /// are the same on every machine and under any load.
    pub exact_work: Option<u64>,
}

impl RunOptions {
    /// `trials` trials from `seed` (stream 0) on every core, with 95% intervals, Monte Carlo
    /// beside the exact solution, the table sampler and no precision target; the methods below
    /// change one setting each.
    pub fn new(trials: u64, seed: u64) -> Self {
        RunOptions {
            spec: RunSpec {
                trials,
                seed,
                stream: 0,
                threads: None,
            },
            confidence: 0.95,
            exact_only: false,
            sampler: Sampler::Table,
            precision: None,
            exact_budget: Some(DEFAULT_EXACT_BUDGET),
            exact_work: None,
        }
    }
    /// Steps the exact solution may take (`None`: no bound): see [`RunOptions::exact_work`].
    pub fn exact_work(mut self, steps: Option<u64>) -> Self {
        self.exact_work = steps;
        self
    }
    /// Seconds the exact solution may take (`None`: no limit).
    pub fn exact_budget(mut self, seconds: Option<f64>) -> Self {
        self.exact_budget = seconds;
        self
    }
    /// The generator stream (an experiment's run of one variant at one point).
    pub fn stream(mut self, stream: u64) -> Self {
        self.spec.stream = stream;
        self
    }
    /// Worker threads (`None`: every core). Results do not depend on it.
    pub fn threads(mut self, threads: Option<usize>) -> Self {
        self.spec.threads = threads;
        self
    }
    /// The confidence level of the intervals.
    pub fn confidence(mut self, confidence: f64) -> Self {
        self.confidence = confidence;
        self
    }
    /// Report only the exact solution.
    pub fn exact_only(mut self, exact_only: bool) -> Self {
        self.exact_only = exact_only;
        self
    }
    /// How Monte Carlo draws each turn.
    pub fn sampler(mut self, sampler: Sampler) -> Self {
        self.sampler = sampler;
        self
    }
    /// Run batches until the widest outcome interval has at most this half-width.
    pub fn precision(mut self, precision: Option<f64>) -> Self {
        self.precision = precision;
        self
    }
}

impl Default for RunOptions {
    /// A million trials from seed 1, as the command line's defaults.
    fn default() -> Self {
        RunOptions::new(1_000_000, 1)
    }
}

/// A job's exact solution, found by [`Job::exact`] and used by [`Job::report_exact`].
#[derive(Debug, Clone, Default)]
pub struct Exact {
    /// The solution in the chain's layout (`None`: none, or skipped).
    solution: Option<Vec<f64>>,
    /// Why it was skipped (over the budget, too many states), for the report.
    skipped: Option<String>,
}

/// The note of a Monte Carlo run stopped part way with `used` of the `asked` trials: the
/// numbers of a run of `used` trials with the same seed.
pub fn stopped_note(used: u64, asked: u64) -> String {
    format!(
        "stopped part way: {} of the {} trials asked for, the numbers of a run of {} trials with the same seed (--trials {})",
        crate::report::thousands(used),
        crate::report::thousands(asked),
        crate::report::thousands(used),
        used
    )
}

/// Check that a raw tally counts the trials `options` says: every trial ends in exactly one
/// class, so a tally that says otherwise was damaged.
fn tally_trials_are(job: &dyn Job, raw: &[u64], options: &RunOptions) -> Result<()> {
    let ended = job.tally_trials(raw, options.sampler)?;
    if ended != options.spec.trials {
        return Err(crate::error::Error::Conflict(format!(
            "a tally of {} trials does not count {} trials in its outcomes: a damaged or edited shard file?",
            options.spec.trials, ended
        )));
    }
    Ok(())
}

/// A runnable, fully configured scenario.
pub trait Job: Send + Sync {
    /// What it is.
    fn describe(&self) -> &Describe;
    /// The names of the outcomes its report shows, in order.
    fn outcome_names(&self) -> Vec<&'static str>;
    /// The names of the metrics (means) its report shows, in order.
    fn metric_names(&self) -> Vec<&'static str>;
    /// Whether it has an exact solution (battles run by Monte Carlo only).
    fn has_exact(&self) -> bool;
    /// Run it (Monte Carlo unless exact-only, plus the exact solution) and report.
    ///
    /// # Errors
    /// [`crate::error::Error::Cancelled`] if `control` is cancelled; an invalid trial count;
    /// [`crate::error::Error::Mass`] if the exact solution fails its check.
    fn run(&self, options: &RunOptions, control: &Control) -> Result<Report>;
    /// The raw Monte Carlo tally of the chunks `chunks` of `options.spec`'s chunk plan (one
    /// shard of a run). Tallies of disjoint chunk ranges add up to the whole run's.
    ///
    /// # Errors
    /// [`crate::error::Error::Cancelled`] if `control` is cancelled.
    fn tally(
        &self,
        options: &RunOptions,
        chunks: std::ops::Range<u64>,
        control: &Control,
    ) -> Result<Vec<u64>>;
    /// The report of a run whose raw tally (over all its chunks) is `raw`: merged shards give
    /// the same report as the run on one machine. The exact solution stops at its next turn
    /// once `control` is cancelled.
    ///
    /// # Errors
    /// A tally that does not fit this scenario; failures of the exact solution;
    /// [`crate::error::Error::Cancelled`] if `control` is cancelled.
    fn report_tally(&self, raw: &[u64], options: &RunOptions, control: &Control) -> Result<Report>;
    /// The exact solution as [`Job::run`] finds it: within `options.exact_budget`, and past it
    /// (or too large) skipped with a note unless exact-only. Solved once before a run in batches
    /// (see [`crate::experiment::run_side_by_side`]), so that a report after a stop needs no
    /// solving.
    ///
    /// # Errors
    /// As [`Job::run`]'s exact part.
    fn exact(&self, options: &RunOptions, control: &Control) -> Result<Exact>;
    /// The report of a raw Monte Carlo tally of `options.spec.trials` trials beside an exact
    /// solution from [`Job::exact`]: the report [`Job::run`] gives for those trials (all but its
    /// time).
    ///
    /// # Errors
    /// A tally that does not fit this scenario or does not count `options.spec.trials` trials.
    fn report_exact(&self, raw: &[u64], exact: &Exact, options: &RunOptions) -> Result<Report>;
    /// How many trials the raw tally `raw` (of `sampler`) counts: every trial ends in exactly
    /// one outcome class, so the final counts add up to the trials run. A merge checks each
    /// shard's tally against the trials of its chunks.
    ///
    /// # Errors
    /// A tally that does not fit this scenario, or whose counts overflow 64 bits.
    fn tally_trials(&self, raw: &[u64], sampler: Sampler) -> Result<u64>;
    /// Check the scenario's rule invariants (see [`invariants::audit`]): over every reachable
    /// turn of an exactly solvable scenario, with its exact solution's mass, and over `trials`
    /// trials sampled turn by turn from `seed`; and that the table sampler's compiled tables
    /// give exactly the exact solution's chances (see [`chain::ChainSim::check_tables`]), and
    /// the dice sampler's replay trees the rules code's tally to the bit
    /// ([`chain::ChainSim::check_trees`]).
    ///
    /// # Errors
    /// [`crate::error::Error::Invariant`] naming what broke.
    fn audit(&self, trials: u64, seed: u64) -> Result<()>;
    /// Play solved ([`crate::play`]): the best choices the rules leave a side, exactly, beside
    /// every fixed way of playing.
    ///
    /// # Errors
    /// The setting leaves no choice; an objective naming no outcome of it; too many states;
    /// `control` cancelled.
    fn play(&self, ask: &crate::play::Ask, control: &Control) -> Result<crate::play::Solution>;
    /// This scenario with side A making the best choices play solves for `ask` in place of its
    /// own policy (exactly and in every sampler), with what play found.
    ///
    /// # Errors
    /// As [`Job::play`].
    fn played(
        &self,
        ask: &crate::play::Ask,
        control: &Control,
    ) -> Result<(Box<dyn Job>, crate::play::Solution)>;
}

/// A [`Chain`] with the report that goes with it.
#[derive(Debug, Clone)]
pub struct ChainJob<C: Chain> {
    /// The chain.
    pub chain: C,
    /// Names and parameters.
    pub describe: Describe,
    /// Outcomes shown.
    pub outcomes: Vec<OutcomeDef>,
    /// Metrics shown.
    pub metrics: Vec<MetricDef>,
    /// Tables shown.
    pub tables: Vec<TableDef>,
    /// Its simulators, built on first use and kept (see [`ChainJob::sim`]).
    pub(crate) compiled: Compiled<C>,
}

/// A job's simulators, one per sampler, each built the first time a run asks for it: compiling
/// the tables walks every reachable state through the rules code (up to a few milliseconds), so
/// the batches of a `--precision` run, the shards of a run in one process and repeated runs of
/// a benchmark all sample from the tables compiled once.
#[derive(Debug, Clone)]
pub(crate) struct Compiled<C: Chain> {
    table: std::sync::OnceLock<ChainSim<C>>,
    dice: std::sync::OnceLock<ChainSim<C>>,
}

impl<C: Chain> Default for Compiled<C> {
    fn default() -> Self {
        Compiled {
            table: std::sync::OnceLock::new(),
            dice: std::sync::OnceLock::new(),
        }
    }
}

impl<C: Chain> ChainJob<C> {
    /// A job of `chain` with its report's outcomes, metrics and tables.
    pub fn new(
        chain: C,
        describe: Describe,
        outcomes: Vec<OutcomeDef>,
        metrics: Vec<MetricDef>,
        tables: Vec<TableDef>,
    ) -> Self {
        debug_assert!(
            metrics.iter().all(|m| match m {
                MetricDef::Value { name, .. } => value_index(&chain, name).is_some(),
                MetricDef::SeriesTotal { series, .. } =>
                    chain.series().iter().any(|v| v.name == *series),
                _ => true,
            }),
            "every value metric names a value of the chain, every total a series"
        );
        ChainJob {
            chain,
            describe,
            outcomes,
            metrics,
            tables,
            compiled: Compiled::default(),
        }
    }
}

impl<C: Chain + Clone + Send + 'static> Job for ChainJob<C> {
    fn describe(&self) -> &Describe {
        &self.describe
    }

    fn outcome_names(&self) -> Vec<&'static str> {
        self.outcomes.iter().map(|o| o.name).collect()
    }

    fn metric_names(&self) -> Vec<&'static str> {
        self.metrics.iter().map(MetricDef::name).collect()
    }

    fn has_exact(&self) -> bool {
        self.chain.exact()
    }

    fn run(&self, options: &RunOptions, control: &Control) -> Result<Report> {
        if !self.chain.exact() && options.exact_only {
            return Err(crate::error::Error::Invalid {
                what: "--exact-only".into(),
                value: self.describe.scenario.clone(),
                allowed: "this scenario has no exact solution (its state space is too large) and runs by Monte Carlo only; drop --exact-only".into(),
            });
        }
        let Exact {
            solution: exact,
            skipped,
        } = self.exact(options, control)?;
        let mut sampler = None;
        let started = Instant::now();
        let mut used = options.clone();
        let counts = if options.exact_only {
            None
        } else {
            let sim = self.sim_within(options.sampler, control, options.exact_budget)?;
            sampler = Some(sim.sampler());
            let (counts, u) = self.monte_carlo(sim, options, control)?;
            used = u;
            Some(counts)
        };
        let elapsed = started.elapsed().as_secs_f64();
        let mut report = self.report(counts.as_deref(), exact.as_deref(), &used, elapsed);
        if let Some(used) = sampler {
            self.sampler_note(&mut report, used, options.sampler);
        }
        report.exact_skipped = skipped;
        if !options.exact_only
            && options.precision.is_none()
            && used.spec.trials < options.spec.trials
        {
            report
                .notes
                .push(stopped_note(used.spec.trials, options.spec.trials));
        }
        if !options.exact_only {
            self.precision_note(&mut report, options);
        }
        Ok(report)
    }

    fn tally(
        &self,
        options: &RunOptions,
        chunks: std::ops::Range<u64>,
        control: &Control,
    ) -> Result<Vec<u64>> {
        let sim = self.sim_within(options.sampler, control, options.exact_budget)?;
        engine::run_range(sim, &options.spec, chunks, control)
    }

    fn tally_trials(&self, raw: &[u64], sampler: Sampler) -> Result<u64> {
        let sim = self.sim(sampler);
        if raw.len() != sim.tally_len() {
            return Err(crate::error::Error::Conflict(format!(
                "a tally of {} counters does not fit this {} (it has {}): was it made by another version or sampler?",
                raw.len(),
                self.describe.scenario,
                sim.tally_len()
            )));
        }
        let counts = sim.finish(raw);
        let layout = Layout::of(&self.chain);
        (0..self.chain.classes().len())
            .try_fold(0u64, |a, c| a.checked_add(counts[layout.final_(c)]))
            .ok_or_else(|| {
                crate::error::Error::Conflict(
                    "a tally counts more than 2^64 trials: a damaged or edited shard file?".into(),
                )
            })
    }

    fn report_tally(&self, raw: &[u64], options: &RunOptions, control: &Control) -> Result<Report> {
        // A merge solves whatever it takes (no budget, nothing skipped).
        tally_trials_are(self, raw, options)?;
        let cancelled = || control.is_cancelled();
        let limit = exact::Limit {
            cancelled: &cancelled,
            ..exact::Limit::none()
        };
        let exact = Exact {
            solution: self.exact_solution(&limit)?,
            skipped: None,
        };
        self.report_exact(raw, &exact, options)
    }

    fn exact(&self, options: &RunOptions, control: &Control) -> Result<Exact> {
        let cancelled = || control.is_cancelled();
        let progress = |done: usize, of: usize| {
            let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
            control.set_exact_progress(clamp(done), clamp(of));
        };
        let limit = exact::Limit {
            budget_s: options.exact_budget,
            branches: None,
            work: options.exact_work,
            cancelled: &cancelled,
            progress: &progress,
        };
        match self.exact_solution(&limit) {
            Ok(solution) => Ok(Exact {
                solution,
                skipped: None,
            }),
            Err(
                e @ (crate::error::Error::OverBudget { .. }
                | crate::error::Error::OverWork { .. }
                | crate::error::Error::TooManyStates { .. }),
            ) if !options.exact_only => Ok(Exact {
                solution: None,
                skipped: Some(format!("exact: skipped: {e}")),
            }),
            Err(e) => Err(e),
        }
    }

    fn report_exact(&self, raw: &[u64], exact: &Exact, options: &RunOptions) -> Result<Report> {
        tally_trials_are(self, raw, options)?;
        let sim = self.sim(options.sampler);
        let counts = sim.finish(raw);
        let mut report = self.report(Some(&counts), exact.solution.as_deref(), options, 0.0);
        self.sampler_note(&mut report, sim.sampler(), options.sampler);
        report.exact_skipped.clone_from(&exact.skipped);
        Ok(report)
    }

    fn audit(&self, trials: u64, seed: u64) -> Result<()> {
        let broke = |what| crate::error::Error::Invariant {
            scenario: self.describe.scenario.clone(),
            what,
        };
        let solved = invariants::audit(&self.chain, trials, seed).map_err(broke)?;
        if self.chain.exact() {
            // A fight's table may stand for far more states than the audit solves: its check
            // (two exact solves) runs where the audit solved the chain (the engagement tests
            // hold larger ones by sampling against exact).
            let sim = self.sim(Sampler::Table);
            if solved || !sim.compiled_by_cores() {
                sim.check_tables().map_err(broke)?;
            }
            self.sim(Sampler::Dice)
                .check_trees(trials.max(1000), seed)
                .map_err(broke)?;
        }
        Ok(())
    }

    fn play(&self, ask: &crate::play::Ask, control: &Control) -> Result<crate::play::Solution> {
        self.solve_play(ask, control, true)
            .map(|(solved, _)| solved)
    }

    fn played(
        &self,
        ask: &crate::play::Ask,
        control: &Control,
    ) -> Result<(Box<dyn Job>, crate::play::Solution)> {
        let no_choice = || crate::play::no_choice(&self.describe.scenario);
        let (solved, table) = self.solve_play(ask, control, false)?;
        let chain = self
            .chain
            .with_play(std::sync::Arc::new(table))
            .ok_or_else(no_choice)?;
        let mut describe = self.describe.clone();
        let note = format!(
            "side A plays its best choices (hold or charge, each turn), solved exactly for {}: {} points on that measure, against {} as set",
            solved.objective,
            crate::report::signed(100.0 * solved.optimal, 2),
            crate::report::signed(100.0 * solved.own().value, 2)
        );
        // In place of the note on the parameters' policy ("side A charges a shaken target;
        // exact: …"), which this job no longer plays.
        let policy = describe.notes.iter().position(|n| {
            ["side A charges", "side A does not charge"]
                .iter()
                .any(|p| n.starts_with(p))
        });
        match policy {
            Some(i) => {
                let rest = describe.notes[i]
                    .split_once("; ")
                    .map(|(_, rest)| format!("; {rest}"))
                    .unwrap_or_default();
                describe.notes[i] = format!("{note}{rest}");
            }
            None => describe.notes.push(note),
        }
        let job = ChainJob::new(
            chain,
            describe,
            self.outcomes.clone(),
            self.metrics.clone(),
            self.tables.clone(),
        );
        Ok((Box::new(job), solved))
    }
}

impl<C: Chain + Clone> ChainJob<C> {
    /// Play solved for `ask` on this job's chain, headed by what it solved, with the optimal
    /// policy as a table (`thumbs`: with the rules of thumb, which only the report of play
    /// needs).
    fn solve_play(
        &self,
        ask: &crate::play::Ask,
        control: &Control,
        thumbs: bool,
    ) -> Result<(crate::play::Solution, crate::chain::Played<C::State>)> {
        if self.chain.choices().is_empty() {
            return Err(crate::play::no_choice(&self.describe.scenario));
        }
        let outcomes: Vec<(&str, &[usize])> = self
            .outcomes
            .iter()
            .map(|o| (o.name, o.classes.as_slice()))
            .collect();
        let pay = crate::play::payoff(ask, &outcomes, self.chain.classes().len())?;
        let cancelled = || control.is_cancelled();
        let watch = crate::exact::Watch {
            scenario: &self.describe.scenario,
            cancelled: &cancelled,
            budget: ask.budget.map(|b| (std::time::Instant::now(), b)),
            max_branches: crate::exact::MAX_TURN_BRANCHES,
            max_moves: usize::MAX,
            max_total: u64::MAX,
            taken: std::cell::Cell::new(0),
        };
        let (mut solved, table) =
            crate::play::solve_with(&self.chain, ask, (&pay, &outcomes), &watch, thumbs)?;
        solved.setting = self.describe.lines("play");
        // The settings' own way of playing by what it does ("as set (charge a shaken
        // target)"), not "as its settings play it", which a writer read as software's words.
        if let Some(words) = self.describe.notes.iter().find_map(|n| {
            let first = n.split("; ").next()?;
            first
                .strip_prefix("side A charges")
                .map(|rest| match rest.split_once(" (never in reach") {
                    Some((target, _)) => format!("charge{target}, never in reach"),
                    None => format!("charge{rest}"),
                })
                .or_else(|| {
                    first
                        .strip_prefix("side A never charges")
                        .map(|_| "never charge".to_string())
                })
        }) && let Some(own) = solved.fixed.first_mut()
        {
            own.name = format!("as set ({words})");
        }
        Ok((solved, table))
    }

    /// The simulator: the requested sampler, or dice for chains with no exact solution; built
    /// on the first call for each sampler and kept in the job.
    fn sim(&self, sampler: Sampler) -> &ChainSim<C> {
        let (sampler, cell) = self.cell(sampler);
        cell.get_or_init(|| ChainSim::with_sampler(self.chain.clone(), sampler))
    }

    /// The sampler that runs (dice for chains with no exact solution) and where its simulator
    /// is kept.
    fn cell(&self, sampler: Sampler) -> (Sampler, &std::sync::OnceLock<ChainSim<C>>) {
        let sampler = if self.chain.exact() {
            sampler
        } else {
            Sampler::Dice
        };
        let cell = match sampler {
            Sampler::Table => &self.compiled.table,
            Sampler::Dice => &self.compiled.dice,
        };
        (sampler, cell)
    }

    /// [`ChainJob::sim`] for a run: building it stops when `control` is cancelled or, for the
    /// table sampler, past `budget_s` (the exact budget, at least
    /// [`chain::MIN_COMPILE_BUDGET`]), and then keeps nothing, so a later run builds it afresh.
    fn sim_within(
        &self,
        sampler: Sampler,
        control: &Control,
        budget_s: Option<f64>,
    ) -> Result<&ChainSim<C>> {
        let (sampler, cell) = self.cell(sampler);
        if let Some(sim) = cell.get() {
            return Ok(sim);
        }
        let sim = ChainSim::with_sampler_within(
            self.chain.clone(),
            sampler,
            &|| control.is_cancelled(),
            budget_s.map(|b| b.max(chain::MIN_COMPILE_BUDGET)),
        )?;
        // Another thread may have built it meanwhile: the same chain makes the same simulator.
        let _ = cell.set(sim);
        Ok(cell.get().expect("set above"))
    }

    /// Name the sampler that ran in the report, and say why when it is not the one asked for
    /// (a whole run and a merge of shards alike).
    fn sampler_note(&self, report: &mut Report, used: Sampler, asked: Sampler) {
        report.sampler = Some(used.name().to_string());
        if used != asked {
            report.notes.push(format!(
                "sampler: {}, not {}: {}",
                used.name(),
                asked.name(),
                if self.chain.exact() {
                    "this setting's tables are too large or too slow to compile, so every die is rolled through the rule code"
                } else {
                    "a line this large has far too many states to tabulate, so every die is rolled through the rule code"
                }
            ));
        }
    }

    /// The exact solution, checked to end where the chain must (a melee), or `None` for chains
    /// that have none.
    fn exact_solution(&self, limit: &exact::Limit) -> Result<Option<Vec<f64>>> {
        if !self.chain.exact() {
            return Ok(None);
        }
        let exact = exact::solve_chain_within(&self.chain, &self.describe.scenario, limit)?;
        if self.chain.must_finish() {
            let layout = Layout::of(&self.chain);
            let unfinished: f64 = (0..layout.classes)
                .filter(|&c| !self.chain.classes()[c].absorbing)
                .map(|c| exact[layout.final_(c)])
                .sum();
            if unfinished > 1e-12 {
                return Err(crate::error::Error::Conflict(format!(
                    "this {} cannot be relied on to end: after {} rounds it is still going with probability {unfinished:.3e} (can either side hit? raise max_rounds if it is merely long)",
                    self.describe.scenario,
                    self.chain.turns()
                )));
            }
        }
        Ok(Some(exact))
    }
}

impl<C: Chain> ChainJob<C> {
    /// The Monte Carlo tally in the chain's layout: `options.spec.trials` trials, or with a
    /// precision, batches until the widest outcome interval is narrow enough. Returns the options
    /// with the trials actually used.
    fn monte_carlo(
        &self,
        sim: &ChainSim<C>,
        options: &RunOptions,
        control: &Control,
    ) -> Result<(Vec<u64>, RunOptions)> {
        let Some(target) = options.precision else {
            if control.keeps_partial() {
                // Stopped part way, the finished prefix: the numbers of a run of that many.
                let (raw, trials) = engine::run_keeping(sim, &options.spec, control)?;
                let mut used = options.clone();
                used.spec.trials = trials;
                return Ok((sim.finish(&raw), used));
            }
            let counts = sim.finish(&engine::run(sim, &options.spec, control)?);
            return Ok((counts, options.clone()));
        };
        let layout = Layout::of(&self.chain);
        let z = stats::z_for_confidence(options.confidence);
        let (raw, trials) = engine::run_until(sim, &options.spec, control, |raw, n| {
            widest_half_width(&self.outcomes, &layout, &sim.finish(raw), n, z) <= target
        })?;
        let mut used = options.clone();
        used.spec.trials = trials;
        Ok((sim.finish(&raw), used))
    }

    /// Say in the report whether the precision asked for was reached.
    fn precision_note(&self, report: &mut Report, options: &RunOptions) {
        let Some(target) = options.precision else {
            return;
        };
        let widest = report
            .outcomes
            .iter()
            .filter_map(|o| Some((o.cell.ci_high? - o.cell.ci_low?) / 2.0))
            .fold(0.0, f64::max);
        report.notes.push(if widest <= target {
            format!(
                "precision {target} reached: the widest {}% interval has half-width {widest:.6} after {} trials",
                crate::report::fmt_level(options.confidence),
                crate::report::thousands(report.trials)
            )
        } else {
            format!(
                "precision {target} NOT reached within the cap of {} trials (--trials): the widest interval has half-width {widest:.6}",
                crate::report::thousands(report.trials)
            )
        });
    }

    /// Put a tally (if any) and an exact solution (if any), both in the chain's layout, into a
    /// report.
    pub fn report(
        &self,
        counts: Option<&[u64]>,
        exact_solution: Option<&[f64]>,
        options: &RunOptions,
        elapsed_s: f64,
    ) -> Report {
        let layout = &Layout::of(&self.chain);
        let trials = if counts.is_some() {
            options.spec.trials
        } else {
            0
        };
        let z = stats::z_for_confidence(options.confidence);
        // Without an exact solution, NaNs stand in for it and are reported as absent.
        let nans;
        let exact = match exact_solution {
            Some(e) => e,
            None => {
                nans = vec![f64::NAN; layout.len()];
                &nans[..]
            }
        };
        let cell = |k: Option<u64>, e: f64| -> Cell { report_cell(k, e, trials, z) };
        let outcomes = self.outcome_rows(layout, counts, exact, &cell);
        let metrics = self
            .metrics
            .iter()
            .map(|m| self.metric_row(m, layout, counts, exact, trials))
            .collect();
        let tables = self
            .tables
            .iter()
            .map(|t| self.table(t, layout, counts, exact, &cell, (z, trials)))
            .collect();
        self.assemble(
            options,
            exact_solution,
            layout,
            trials,
            elapsed_s,
            (outcomes, metrics, tables),
        )
    }

    /// Each outcome's row: its classes' final counts and exact chances, added up.
    fn outcome_rows(
        &self,
        layout: &Layout,
        counts: Option<&[u64]>,
        exact: &[f64],
        cell: &dyn Fn(Option<u64>, f64) -> Cell,
    ) -> Vec<OutcomeRow> {
        self.outcomes
            .iter()
            .map(|o| {
                let idx = || o.classes.iter().map(|&c| layout.final_(c));
                OutcomeRow {
                    outcome: o.name.to_string(),
                    cell: cell(
                        counts.map(|t| idx().map(|i| t[i]).sum()),
                        idx().map(|i| exact[i]).sum(),
                    ),
                }
            })
            .collect()
    }

    /// One metric's row, from the tally (if any) and the exact solution (if any).
    fn metric_row(
        &self,
        m: &MetricDef,
        layout: &Layout,
        counts: Option<&[u64]>,
        exact: &[f64],
        trials: u64,
    ) -> MetricRow {
        if let MetricDef::EndTurn {
            name,
            classes,
            meaning,
        } = m
        {
            return end_turn_row(name, classes, meaning, layout, counts, exact);
        }
        if let MetricDef::SeriesTotal {
            name,
            series,
            share,
            meaning,
        } = m
        {
            let of = (*series, *share);
            return self.series_total(name, of, meaning, layout, counts, exact, trials);
        }
        let (name, meaning, range) = match m {
            MetricDef::AbsorbTurn {
                name,
                class,
                meaning,
            } => (name, meaning, layout.absorbed_range(*class)),
            MetricDef::EmptyTurns { name, meaning } => (name, meaning, layout.empty_range()),
            MetricDef::Value { name, meaning } => {
                let range = value_index(&self.chain, name).map_or(0..0, |i| layout.value_range(i));
                (name, meaning, range)
            }
            MetricDef::EndTurn { .. } | MetricDef::SeriesTotal { .. } => {
                unreachable!("handled above")
            }
        };
        histogram_row(
            (name, meaning),
            &exact[range.clone()],
            counts.map(|t| &t[range]),
        )
    }

    /// The report's table: the run's description, options and rows, with the exact solution's
    /// mass and the rate of trials.
    #[allow(clippy::type_complexity)]
    fn assemble(
        &self,
        options: &RunOptions,
        exact_solution: Option<&[f64]>,
        layout: &Layout,
        trials: u64,
        elapsed_s: f64,
        (outcomes, metrics, tables): (Vec<OutcomeRow>, Vec<MetricRow>, Vec<crate::report::Table>),
    ) -> Report {
        Report {
            version: crate::report::VERSION.to_string(),
            scenario: self.describe.scenario.clone(),
            system: self.describe.system.clone(),
            source: self.describe.source.clone(),
            params: self.describe.params.clone(),
            rules_changed: self
                .describe
                .rules_changed
                .iter()
                .map(|(k, v, _)| (k.clone(), v.clone()))
                .collect(),
            rules_source: self
                .describe
                .rules_changed
                .iter()
                .map(|(k, _, d)| (k.clone(), Value::from(d.clone())))
                .collect(),
            rules: self.describe.rules.clone(),
            options: self.describe.options.clone(),
            trials,
            seed: options.spec.seed,
            threads: options
                .spec
                .threads
                .unwrap_or_else(rayon::current_num_threads),
            confidence: options.confidence,
            outcomes,
            metrics,
            tables,
            exact_mass: exact_solution.map(|e| {
                (0..layout.classes)
                    .map(|c| e[layout.final_(c)])
                    .sum::<f64>()
            }),
            notes: self.describe.notes.clone(),
            exact_skipped: None,
            sampler: None,
            elapsed_s,
            trials_per_s: if elapsed_s > 0.0 {
                trials as f64 / elapsed_s
            } else {
                0.0
            },
        }
    }

    /// A series summed over the turns ([`MetricDef::SeriesTotal`]).
    #[allow(clippy::too_many_arguments)]
    fn series_total(
        &self,
        name: &str,
        (series, share): (&str, bool),
        meaning: &str,
        layout: &Layout,
        counts: Option<&[u64]>,
        exact: &[f64],
        trials: u64,
    ) -> MetricRow {
        let i = self.chain.series().iter().position(|v| v.name == series);
        // Each turn in shares of the series' largest value, or as it is.
        let scale = match (i, share) {
            (Some(i), true) => 1.0 / f64::from(self.chain.series()[i].max.max(1)),
            _ => 1.0,
        };
        let turns = || 1..=layout.turns;
        let ex = i.and_then(|i| {
            finite(turns().map(|t| exact[layout.series_sum(i, t)]).sum::<f64>() * scale)
        });
        let (n, value, stderr) = match (counts, i) {
            (Some(k), Some(i)) if trials > 0 => {
                let nf = trials as f64;
                let (mut mean, mut se) = (0.0, 0.0);
                for t in turns() {
                    let at = layout.series_sum(i, t);
                    let (sum, sq) = (k[at] as f64, k[at + 1] as f64);
                    let m = sum / nf;
                    let var = if trials > 1 {
                        ((sq - sum * m) / (nf - 1.0)).max(0.0)
                    } else {
                        0.0
                    };
                    mean += m;
                    se += (var / nf).sqrt();
                }
                (Some(trials), finite(mean * scale), finite(se * scale))
            }
            _ => (None, ex, None),
        };
        MetricRow {
            name: name.to_string(),
            value,
            stderr,
            exact: ex,
            n,
            meaning: meaning.to_string(),
        }
    }

    fn table(
        &self,
        def: &TableDef,
        layout: &Layout,
        counts: Option<&[u64]>,
        exact: &[f64],
        cell: &dyn Fn(Option<u64>, f64) -> Cell,
        (z, trials): (f64, u64),
    ) -> Table {
        let turns = 1..=layout.turns;
        match def {
            TableDef::Series { name, title } => {
                let series = self.chain.series();
                Table {
                    name: name.to_string(),
                    title: title.to_string(),
                    columns: series.iter().map(|c| c.name.to_string()).collect(),
                    rows: turns
                        .map(|t| TableRow {
                            turn: t as u32,
                            cells: (0..series.len())
                                .map(|i| {
                                    let at = layout.series_sum(i, t);
                                    let mut c = series_cell(counts, at, z, trials);
                                    c.exact = exact[at].is_finite().then_some(exact[at]);
                                    if strength::as_share(series[i].name) {
                                        // Strength held as a share of full strength.
                                        let k = 1.0 / f64::from(series[i].max.max(1));
                                        c.p *= k;
                                        c.ci_low = c.ci_low.map(|x| x * k);
                                        c.ci_high = c.ci_high.map(|x| x * k);
                                        c.exact = c.exact.map(|x| x * k);
                                    }
                                    c
                                })
                                .collect(),
                        })
                        .collect(),
                }
            }
            TableDef::PerTurn { name, title } => {
                let classes = self.chain.classes();
                Table {
                    name: name.to_string(),
                    title: title.to_string(),
                    columns: classes.iter().map(|c| c.name.to_string()).collect(),
                    rows: turns
                        .map(|t| TableRow {
                            turn: t as u32,
                            cells: (0..classes.len())
                                .map(|c| {
                                    cell(
                                        counts.map(|k| layout.in_class_after(k, c, t)),
                                        layout.in_class_after(exact, c, t),
                                    )
                                })
                                .collect(),
                        })
                        .collect(),
                }
            }
            TableDef::Absorb {
                name,
                title,
                columns,
            } => Table {
                name: name.to_string(),
                title: title.to_string(),
                columns: columns.iter().map(|c| c.0.to_string()).collect(),
                rows: turns
                    .map(|t| TableRow {
                        turn: t as u32,
                        cells: columns
                            .iter()
                            .map(|&(_, c, cumulative)| {
                                let from = if cumulative { 0 } else { t };
                                let idx = || (from..=t).map(|k| layout.absorbed(c, k));
                                cell(
                                    counts.map(|k| idx().map(|i| k[i]).sum()),
                                    idx().map(|i| exact[i]).sum(),
                                )
                            })
                            .collect(),
                    })
                    .collect(),
            },
        }
    }
}

/// The index of the chain's value called `name`.
fn value_index<C: Chain>(chain: &C, name: &str) -> Option<usize> {
    chain.values().iter().position(|v| v.name == name)
}

/// The widest half-width of the outcomes' Wilson intervals, from a tally in the chain's layout.
fn widest_half_width(
    outcomes: &[OutcomeDef],
    layout: &Layout,
    counts: &[u64],
    n: u64,
    z: f64,
) -> f64 {
    outcomes
        .iter()
        .map(|o| {
            let k: u64 = o.classes.iter().map(|&c| counts[layout.final_(c)]).sum();
            let (lo, hi) = stats::wilson(k, n, z);
            (hi - lo) / 2.0
        })
        .fold(0.0, f64::max)
}

/// The mean of a series over all trials from its sum and sum of squares at `at`, with a normal
/// interval at `z` standard errors.
fn series_cell(counts: Option<&[u64]>, at: usize, z: f64, n: u64) -> Cell {
    let Some(k) = counts else {
        return Cell {
            count: None,
            p: f64::NAN,
            ci_low: None,
            ci_high: None,
            exact: None,
        };
    };
    let (sum, sq) = (k[at] as f64, k[at + 1] as f64);
    let nf = n as f64;
    let mean = sum / nf;
    let var = if n > 1 {
        ((sq - sum * mean) / (nf - 1.0)).max(0.0)
    } else {
        0.0
    };
    let half = z * (var / nf).sqrt();
    Cell {
        count: Some(n),
        p: mean,
        ci_low: Some(mean - half),
        ci_high: Some(mean + half),
        exact: None,
    }
}

/// A report's cell: a tally's count `k` (with its Wilson interval at `z` over `trials`), or
/// the exact chance `e` alone; `e` absent where it is not finite.
fn report_cell(k: Option<u64>, e: f64, trials: u64, z: f64) -> Cell {
    let e = e.is_finite().then_some(e);
    match k {
        Some(k) => {
            let (lo, hi) = stats::wilson(k, trials, z);
            Cell {
                count: Some(k),
                p: k as f64 / trials as f64,
                ci_low: Some(lo),
                ci_high: Some(hi),
                exact: e,
            }
        }
        None => Cell {
            count: None,
            p: e.unwrap_or(f64::NAN),
            ci_low: None,
            ci_high: None,
            exact: e,
        },
    }
}

/// An end-turn metric's row: the classes' absorption histograms summed turn by turn, their
/// mean turn from the tally (if any) and exactly.
fn end_turn_row(
    name: &str,
    classes: &[usize],
    meaning: &str,
    layout: &Layout,
    counts: Option<&[u64]>,
    exact: &[f64],
) -> MetricRow {
    // Sum the classes' absorption histograms turn by turn.
    let merge = |get: &dyn Fn(usize) -> f64| -> Vec<f64> {
        (0..=layout.turns)
            .map(|t| classes.iter().map(|&c| get(layout.absorbed(c, t))).sum())
            .collect()
    };
    let counted: Option<Vec<u64>> = counts.map(|k| {
        (0..=layout.turns)
            .map(|t| classes.iter().map(|&c| k[layout.absorbed(c, t)]).sum())
            .collect()
    });
    histogram_row((name, meaning), &merge(&|i| exact[i]), counted.as_deref())
}

/// A mean's row from its histogram by turn: the exact mean of `exact` and, where trials were
/// run, the counted histogram's mean with its standard error (else the exact value stands as
/// the estimate).
fn histogram_row(
    (name, meaning): (&str, &str),
    exact: &[f64],
    counts: Option<&[u64]>,
) -> MetricRow {
    let ex = finite(stats::histogram_mean_exact(exact));
    let (n, value, stderr) = match counts {
        Some(t) => {
            let (n, mean, se) = stats::histogram_mean(t);
            (Some(n), finite(mean), finite(se))
        }
        None => (None, ex, None),
    };
    MetricRow {
        name: name.to_string(),
        value,
        stderr,
        exact: ex,
        n,
        meaning: meaning.to_string(),
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

#[cfg(test)]
mod tests;
