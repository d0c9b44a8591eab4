//! A mechanic file's scenario as a [`Chain`]: its state packed in a whole number, its turn the
//! file's turn function, its classes and values read once per state and kept.
//!
//! A chain's turn cannot fail, but a script can: the first error of a run is kept, the chain
//! stops moving (every later turn leaves its state as it is), and the job reports the error
//! when the run is over, in place of its numbers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

use rhai::{Dynamic, Map};

use super::Mechanic;
use super::decl::{self, Layout};
use super::report::Report;
use super::script;
use crate::chain::check::Check;
use crate::chain::{Chain, ClassInfo, ValueInfo};
use crate::dice::Roll;
use crate::engine::Control;
use crate::error::{Error, Result};
use crate::params::Resolved;
use crate::report::Report as RunReport;
use crate::scenario::chain::Sampler;
use crate::scenario::{ChainJob, Exact, Job, RunOptions, Scenario};

/// What a state reads as: its class, then its values.
type Reading = Arc<[u32]>;

/// A scenario of a mechanic file.
#[derive(Debug, Clone)]
pub(super) struct MechanicChain {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    mechanic: &'static Mechanic,
    /// The parameters as `p`.
    p: Map,
    layout: Layout,
    start: u64,
    turn_fn: String,
    class_fn: String,
    values_fn: Option<String>,
    check_fn: Option<String>,
    classes: Vec<ClassInfo>,
    values: Vec<ValueInfo>,
    /// Values summed over the turns by a `turns_sum` metric, read after every turn: the
    /// values, and where each sits among them.
    series: Vec<ValueInfo>,
    series_at: Vec<usize>,
    turns: u32,
    must_finish: bool,
    /// Each state's reading, worked out once.
    readings: RwLock<HashMap<u64, Reading>>,
    /// The first error of the run.
    error: Mutex<Option<Error>>,
}

impl PartialEq for MechanicChain {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
    }
}

impl MechanicChain {
    fn fail(&self, e: Error) {
        let mut slot = self.shared.error.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(e);
        }
    }

    fn failed(&self) -> bool {
        self.shared
            .error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }

    /// The first error of the run, if any.
    fn error(&self) -> Option<Error> {
        self.shared
            .error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn state_error(&self, what: &str, from: u64, message: &str) -> Error {
        let sh = &self.shared;
        Error::Conflict(format!(
            "{}: {what} {message}, from the state {}",
            sh.mechanic.place(what),
            sh.layout.words(from)
        ))
    }

    /// The class and values of state `s`, read by the script once and kept.
    fn reading(&self, s: u64) -> Reading {
        let sh = &self.shared;
        if let Some(r) = sh
            .readings
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&s)
        {
            return Arc::clone(r);
        }
        let r: Reading = match self.read(s) {
            Ok(r) => r.into(),
            Err(e) => {
                self.fail(e);
                vec![0; 1 + sh.values.len()].into()
            }
        };
        sh.readings
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(s, Arc::clone(&r));
        r
    }

    fn read(&self, s: u64) -> Result<Vec<u32>> {
        let sh = &self.shared;
        let m = sh.mechanic;
        let state = Dynamic::from(sh.layout.unpack(s));
        let class = m.call(&sh.class_fn, (Dynamic::from(sh.p.clone()), state.clone()))?;
        let name = class.to_string();
        let c = sh
            .classes
            .iter()
            .position(|x| x.name == name)
            .ok_or_else(|| {
                let names: Vec<&str> = sh.classes.iter().map(|c| c.name).collect();
                self.state_error(
                    &sh.class_fn,
                    s,
                    &format!("gives class {class}, not one of {}", names.join(", ")),
                )
            })?;
        let mut out = vec![c as u32];
        if sh.values.is_empty() {
            return Ok(out);
        }
        let f = sh.values_fn.as_deref().ok_or_else(|| {
            Error::Conflict(format!(
                "{}: the report declares values but the file has no values_of(p, s)",
                m.path()
            ))
        })?;
        let got = m.call(f, (Dynamic::from(sh.p.clone()), state))?;
        let got = got
            .try_cast::<Map>()
            .ok_or_else(|| self.state_error(f, s, "gives no object map of values"))?;
        for v in &sh.values {
            let x = got
                .get(v.name)
                .ok_or_else(|| self.state_error(f, s, &format!("gives no `{}`", v.name)))?
                .as_int()
                .map_err(|t| {
                    self.state_error(
                        f,
                        s,
                        &format!("gives `{}` = {t}, not a whole number", v.name),
                    )
                })?;
            if !(0..=i64::from(v.max)).contains(&x) {
                return Err(self.state_error(
                    f,
                    s,
                    &format!(
                        "gives `{}` = {x}, outside 0..={} (its max in the report)",
                        v.name, v.max
                    ),
                ));
            }
            out.push(x as u32);
        }
        Ok(out)
    }
}

impl Chain for MechanicChain {
    type State = u64;
    fn start(&self) -> u64 {
        self.shared.start
    }
    fn turns(&self) -> u32 {
        self.shared.turns
    }
    fn step<R: Roll>(&self, s: u64, r: &mut R) -> u64 {
        if self.failed() {
            return s;
        }
        let sh = &self.shared;
        let m = sh.mechanic;
        let args = (
            Dynamic::from(sh.p.clone()),
            Dynamic::from(sh.layout.unpack(s)),
        );
        let out = script::with_roll(r, || m.call(&sh.turn_fn, args));
        let next = out.and_then(|d| {
            let t = d.type_name();
            let map = d.try_cast::<Map>().ok_or_else(|| {
                self.state_error(
                    &sh.turn_fn,
                    s,
                    &format!("gives {t}, not the state (an object map)"),
                )
            })?;
            sh.layout
                .pack(&map)
                .map_err(|what| self.state_error(&sh.turn_fn, s, &what))
        });
        match next {
            Ok(n) => n,
            Err(e) => {
                self.fail(e);
                s
            }
        }
    }
    fn classes(&self) -> &[ClassInfo] {
        &self.shared.classes
    }
    fn class_of(&self, s: u64) -> usize {
        self.reading(s)[0] as usize
    }
    fn values(&self) -> &[ValueInfo] {
        &self.shared.values
    }
    fn value_of(&self, s: u64, i: usize) -> u32 {
        self.reading(s)[1 + i]
    }
    fn series(&self) -> &[ValueInfo] {
        &self.shared.series
    }
    fn series_of(&self, s: u64, i: usize) -> u32 {
        self.reading(s)[1 + self.shared.series_at[i]]
    }
    fn series_of_core(&self) -> bool {
        true
    }
    fn must_finish(&self) -> bool {
        self.shared.must_finish
    }
    fn halted(&self) -> bool {
        self.failed()
    }
    fn check_step(&self, from: u64, to: u64) -> Check {
        let sh = &self.shared;
        let Some(f) = &sh.check_fn else {
            return Ok(());
        };
        let args = (
            Dynamic::from(sh.p.clone()),
            Dynamic::from(sh.layout.unpack(from)),
            Dynamic::from(sh.layout.unpack(to)),
        );
        sh.mechanic
            .call(f, args)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

/// A report of Monte Carlo that asked for the table sampler and rolled every die through the
/// script instead, saying so.
fn rolled_note(mut r: RunReport, options: &RunOptions) -> RunReport {
    if options.sampler == Sampler::Table
        && !options.exact_only
        && r.sampler.as_deref() == Some(Sampler::Dice.name())
    {
        r.notes.push(
            "the compiled tables did not fit this file's states (more than 65,536 reachable, chances too fine for 64 bits, a turn of more than 1,048,576 branches of chance, or more than 16,777,216 in all): the Monte Carlo ran the file's turn function every turn of every trial (the dice sampler), thousands of times slower than the tables".into(),
        );
    }
    r
}

/// A job of a mechanic file: a chain job that reports the script's first error, if any, in
/// place of its numbers.
struct MechanicJob {
    chain: MechanicChain,
    inner: ChainJob<MechanicChain>,
}

impl MechanicJob {
    fn checked<T>(&self, out: Result<T>) -> Result<T> {
        match self.chain.error() {
            Some(e) => Err(e),
            None => out,
        }
    }
}

impl Job for MechanicJob {
    fn describe(&self) -> &crate::scenario::Describe {
        self.inner.describe()
    }
    fn outcome_names(&self) -> Vec<&'static str> {
        self.inner.outcome_names()
    }
    fn metric_names(&self) -> Vec<&'static str> {
        self.inner.metric_names()
    }
    fn has_exact(&self) -> bool {
        self.inner.has_exact()
    }
    fn run(&self, options: &RunOptions, control: &Control) -> Result<RunReport> {
        let out = self
            .inner
            .run(options, control)
            .map(|r| rolled_note(r, options));
        self.checked(out)
    }
    fn exact(&self, options: &RunOptions, control: &Control) -> Result<Exact> {
        let out = self.inner.exact(options, control);
        self.checked(out)
    }
    fn report_exact(&self, raw: &[u64], exact: &Exact, options: &RunOptions) -> Result<RunReport> {
        let out = self
            .inner
            .report_exact(raw, exact, options)
            .map(|r| rolled_note(r, options));
        self.checked(out)
    }
    fn tally(
        &self,
        options: &RunOptions,
        chunks: std::ops::Range<u64>,
        control: &Control,
    ) -> Result<Vec<u64>> {
        let out = self.inner.tally(options, chunks, control);
        self.checked(out)
    }
    fn report_tally(
        &self,
        raw: &[u64],
        options: &RunOptions,
        control: &Control,
    ) -> Result<RunReport> {
        let out = self.inner.report_tally(raw, options, control);
        self.checked(out)
    }
    fn tally_trials(&self, raw: &[u64], sampler: Sampler) -> Result<u64> {
        let out = self.inner.tally_trials(raw, sampler);
        self.checked(out)
    }
    fn audit(&self, trials: u64, seed: u64) -> Result<()> {
        let out = self.inner.audit(trials, seed);
        self.checked(out)
    }

    fn play(&self, ask: &crate::play::Ask, control: &Control) -> Result<crate::play::Solution> {
        let out = self.inner.play(ask, control);
        self.checked(out)
    }
    fn played(
        &self,
        ask: &crate::play::Ask,
        control: &Control,
    ) -> Result<(Box<dyn Job>, crate::play::Solution)> {
        let out = self.inner.played(ask, control);
        self.checked(out)
    }
}

/// The job of `scenario` of mechanic file `m` with parameters `r` and optional rules `options`.
pub(super) fn build(
    m: &'static Mechanic,
    scenario: Scenario,
    r: &Resolved,
    options: &[String],
) -> Result<Box<dyn Job>> {
    let defs: Vec<&crate::params::ParamDef> =
        m.about.params.iter().chain(m.about.rule_params).collect();
    let p = super::p_map(r, options, &defs);
    let pd = || Dynamic::from(p.clone());
    if m.has_fn("check") {
        let _ = m.call("check", (pd(),))?;
    }
    let sc = scenario.name().replace('-', "_");
    let need = |what: &str, fallback: &str| -> Result<String> {
        m.scenario_fn(scenario, what, Some(fallback))
            .ok_or_else(|| Error::File {
                path: m.path().into(),
                line: 0,
                key: String::new(),
                message: format!(
                    "has neither {sc}_{what}(…) nor {fallback}(…) for its {scenario} scenario"
                ),
            })
    };
    let turn_fn = format!("{sc}_turn");
    let state_fn = need("state", "state")?;
    let start_fn = need("start", "start")?;
    let report_fn = need("report", "report")?;
    let class_fn = need("class_of", "class_of")?;
    let values_fn = m.scenario_fn(scenario, "values_of", Some("values_of"));
    let check_fn = m.scenario_fn(scenario, "check_turn", Some("check_turn"));
    let layout = Layout::read(
        &m.call(&state_fn, (pd(),))?,
        m.path(),
        &format!("{state_fn}()"),
    )?;
    let report_map = m
        .call(&report_fn, (pd(),))?
        .try_cast::<Map>()
        .ok_or_else(|| {
            decl::bad(
                m.path(),
                &format!("{report_fn}()"),
                "gives no object map".into(),
            )
        })?;
    let report = Report::read(&report_map, m.path(), &format!("{report_fn}()"))?;
    let start_map = m
        .call(&start_fn, (pd(),))?
        .try_cast::<Map>()
        .ok_or_else(|| {
            decl::bad(
                m.path(),
                &format!("{start_fn}()"),
                "gives no object map".into(),
            )
        })?;
    let start = layout
        .pack(&start_map)
        .map_err(|what| Error::Conflict(format!("{}: {start_fn} {what}", m.place(&start_fn))))?;
    let Report {
        classes,
        values,
        outcomes,
        metrics,
        tables,
        turns,
        must_finish,
        notes,
    } = report;
    // The values a `turns_sum` metric adds up, each once, as per-turn series.
    let mut series_at: Vec<usize> = Vec::new();
    for m in &metrics {
        if let crate::scenario::MetricDef::SeriesTotal { series, .. } = m
            && let Some(i) = values.iter().position(|v| v.name == *series)
            && !series_at.contains(&i)
        {
            series_at.push(i);
        }
    }
    let series = series_at.iter().map(|&i| values[i]).collect();
    let chain = MechanicChain {
        shared: Arc::new(Shared {
            mechanic: m,
            p,
            layout,
            start,
            turn_fn,
            class_fn,
            values_fn,
            check_fn,
            classes,
            values,
            series,
            series_at,
            turns,
            must_finish,
            readings: RwLock::new(HashMap::new()),
            error: Mutex::new(None),
        }),
    };
    // The start state's reading: a class the report does not know shows here, at once.
    chain.reading(start);
    if let Some(e) = chain.error() {
        return Err(e);
    }
    let mut describe = r.describe(m.path(), scenario, options, notes);
    describe.source = Some(m.short());
    let inner = ChainJob::new(chain.clone(), describe, outcomes, metrics, tables);
    Ok(Box::new(MechanicJob { chain, inner }))
}
