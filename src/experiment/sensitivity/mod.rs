//! Which rule matters most: every rule parameter moved one step each way from its value, every
//! optional rule switched, and the change each makes to one headline outcome or metric.
//!
//! Steps (docs/RULES.md, "Sensitivity"): a whole number ±1 within its allowed range; a chance
//! to the nearest simple fractions either side (denominators up to 6, as dice give); a real
//! number ±10%; a switch flipped; a choice to each other value; an optional rule on if off, off
//! if on. Distributions and unit specs are not stepped (no single "one step" exists), and the
//! report says so. A step the system refuses (values that do not fit together) is listed with
//! its reason, never dropped silently.
//!
//! Where the scenario solves exactly, every value is exact and so is every change. Where it
//! cannot, every setting runs by Monte Carlo from the same seed and trials; each change gets
//! Newcombe's interval (a mean: the normal interval) as the experiments' comparisons do. The
//! same seed for every setting makes the differences less noisy than independent runs would,
//! so those intervals err on the wide side.

use serde::Serialize;
use serde_json::{Map, Value as Json};

use super::compare::{means, proportions};
use crate::engine::Control;
use crate::error::{Error, Result};
use crate::frac::Frac;
use crate::params::{Input, Kind, ParamDef, Source};
use crate::report::{MetricRow, Report, rule_changes};
use crate::scenario::{RunOptions, Scenario};
use crate::stats::z_for_confidence;
use crate::system;

mod render;

/// A value of the headline, exact or estimated.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Value {
    /// The exact value where known, else the estimate.
    pub value: f64,
    /// The value is exact.
    pub exact: bool,
    /// The estimate's interval (Monte Carlo only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low: Option<f64>,
    /// Its upper end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high: Option<f64>,
}

/// One changed setting and what it does to the headline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Effect {
    /// The rule parameter's key, or the optional rule's name.
    pub key: String,
    /// `rule` (a rule parameter) or `option` (an optional rule).
    pub kind: String,
    /// The rule ids it comes from.
    pub rule: String,
    /// Its value in the run asked for (`on`/`off` for an optional rule).
    pub from: String,
    /// The value tried.
    pub to: String,
    /// The headline under it; `None` when the system refused the setting.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// The change from the run asked for (a share as a fraction, a metric in its unit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<f64>,
    /// Lower end of the change's interval (Monte Carlo only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low: Option<f64>,
    /// Upper end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high: Option<f64>,
    /// Whether chance explains the change: `Some(false)` when the interval leaves out zero
    /// (Monte Carlo only; an exact change is what it is).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance: Option<bool>,
    /// Why the system refused the setting.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// The step's size as a share of the parameter's allowed range (whole and real numbers,
    /// chances), so that steps of numbers on different scales compare; `None` for a switch, a
    /// choice or an optional rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<f64>,
}

/// The size of the step `from` → `to` of a parameter of kind `kind`, as a share of its
/// allowed range; `None` where the kind has no scale (a switch, a choice).
pub fn step_share(kind: &Kind, from: &str, to: &str) -> Option<f64> {
    let share = |a: f64, b: f64, lo: f64, hi: f64| (hi > lo).then(|| (b - a).abs() / (hi - lo));
    match kind {
        Kind::Int { min, max } => share(
            crate::params::parse_int(from)? as f64,
            crate::params::parse_int(to)? as f64,
            *min as f64,
            *max as f64,
        ),
        Kind::Real { min, max } => share(from.parse().ok()?, to.parse().ok()?, *min, *max),
        Kind::Prob => share(
            Frac::parse(from)?.value(),
            Frac::parse(to)?.value(),
            0.0,
            1.0,
        ),
        _ => None,
    }
}

impl Effect {
    /// Whether this step switches its rule off rather than moving it a step: a rule number
    /// (a bonus, a modifier, a cost, a count) taken from a value to 0, where it does nothing.
    pub fn switched_off(&self) -> bool {
        self.kind == "rule"
            && self.to == "0"
            && self.from != "0"
            && self.from.parse::<f64>().is_ok()
    }
}

/// A parameter that has no single step, with why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NotStepped {
    /// Its key.
    pub key: String,
    /// Why it was not moved.
    pub why: String,
}

/// What the sensitivity analysis found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sensitivity {
    /// The rule system.
    pub system: String,
    /// The scenario.
    pub scenario: String,
    /// The outcome or metric whose change is measured.
    pub headline: String,
    /// `outcome` (a share of trials) or `metric` (a mean).
    pub headline_kind: String,
    /// What the headline means (a metric's meaning, with its condition).
    pub meaning: String,
    /// The situation's parameters.
    pub params: Map<String, Json>,
    /// The situation as asked (each parameter given, `key=value`), for titles.
    pub situation: Vec<String>,
    /// For a mechanic file: its path and the start of its SHA-256.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The rule parameters changed from the source in the run asked for.
    pub rules_changed: Vec<String>,
    /// The optional rules on in the run asked for.
    pub options: Vec<String>,
    /// The headline in the run asked for.
    pub base: Value,
    /// Every setting tried: parameters by their largest change, biggest first; each
    /// parameter's settings together, the step down before the step up.
    pub effects: Vec<Effect>,
    /// Parameters with no single step.
    pub not_stepped: Vec<NotStepped>,
    /// Monte Carlo trials per setting (0 when every value is exact).
    pub trials: u64,
    /// The seed of every Monte Carlo run.
    pub seed: u64,
    /// The confidence level of intervals.
    pub confidence: f64,
    /// Why the values are estimates, when they are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why_estimates: Option<String>,
}

/// The nearest simple fractions (denominators up to 6) below and above `f`.
fn fraction_steps(f: Frac) -> (Option<Frac>, Option<Frac>) {
    let mut all: Vec<Frac> = (1..=6u64)
        .flat_map(|d| (0..=d).filter_map(move |n| Frac::new(n, d)))
        .collect();
    all.sort_by(|a, b| a.value().total_cmp(&b.value()));
    all.dedup_by(|a, b| a.value() == b.value());
    let x = f.value();
    let below = all.iter().rev().find(|g| g.value() < x).copied();
    let above = all.iter().find(|g| g.value() > x).copied();
    (below, above)
}

/// A JSON value as the command line would type it.
pub(crate) fn typed(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The values one step from `current` of a parameter of kind `kind`, or why there are none.
pub fn steps(kind: &Kind, current: &str) -> std::result::Result<Vec<String>, String> {
    Ok(match kind {
        Kind::Int { min, max } => {
            let v = crate::params::parse_int(current)
                .ok_or_else(|| format!("its value '{current}' is not a whole number"))?;
            [v - 1, v + 1]
                .into_iter()
                .filter(|x| (*min..=*max).contains(x))
                .map(|x| x.to_string())
                .collect()
        }
        Kind::Real { min, max } => {
            let v: f64 = current
                .trim()
                .parse()
                .map_err(|_| format!("its value '{current}' is not a number"))?;
            let step = if v == 0.0 { 0.1 } else { v.abs() * 0.1 };
            [v - step, v + step]
                .into_iter()
                .filter(|x| (*min..=*max).contains(x))
                .map(|x| format!("{}", (x * 1e6).round() / 1e6))
                .collect()
        }
        Kind::Prob => {
            let f = Frac::parse(current)
                .ok_or_else(|| format!("its value '{current}' is not a chance"))?;
            let (below, above) = fraction_steps(f);
            below
                .into_iter()
                .chain(above)
                .map(|f| f.to_string())
                .collect()
        }
        Kind::Bool => vec![if current == "true" { "false" } else { "true" }.to_string()],
        Kind::Choice(names) => names
            .iter()
            .filter(|n| **n != current)
            .map(|n| n.to_string())
            .collect(),
        Kind::Dist => return Err("a distribution has no single step".into()),
        Kind::Spec(_) => return Err("a spec has no single step".into()),
    })
}

/// The headline of `report`: `name`'s exact value where known, else its estimate with interval.
pub(crate) fn headline_value(report: &Report, name: &str) -> Option<Value> {
    headline_value_as(report, name, false)
}

/// The headline of `report` as [`headline_value`] gives it, or with `estimate` its Monte Carlo
/// estimate and interval even where the exact value is known.
pub(crate) fn headline_value_as(report: &Report, name: &str, estimate: bool) -> Option<Value> {
    if let Some(o) = report.outcomes.iter().find(|o| o.outcome == name) {
        let c = &o.cell;
        return Some(match c.exact.filter(|_| !estimate) {
            Some(x) => Value {
                value: x,
                exact: true,
                low: None,
                high: None,
            },
            None => Value {
                value: c.p,
                exact: false,
                low: c.ci_low,
                high: c.ci_high,
            },
        });
    }
    let m = report.metrics.iter().find(|m| m.name == name)?;
    let z = z_for_confidence(report.confidence);
    Some(match m.exact.filter(|_| !estimate) {
        Some(x) => Value {
            value: x,
            exact: true,
            low: None,
            high: None,
        },
        None => {
            let v = m.value?;
            let half = m.stderr.map(|s| z * s);
            Value {
                value: v,
                exact: false,
                low: half.map(|h| v - h),
                high: half.map(|h| v + h),
            }
        }
    })
}

/// The outcome a report speaks of when none is named: `recovered` where the scenario has it,
/// else the unit gone (removed or eliminated), else the first outcome.
pub fn default_headline(report: &Report) -> String {
    ["recovered", "removed", "eliminated"]
        .iter()
        .find(|n| report.outcomes.iter().any(|o| o.outcome == **n))
        .map(|n| n.to_string())
        .or_else(|| report.outcomes.first().map(|o| o.outcome.clone()))
        .unwrap_or_default()
}

/// What the analysis is asked: a system's scenario from the user's inputs and optional rules,
/// with a headline (the default's when `None`) and how to run Monte Carlo where it must.
pub struct Ask<'a> {
    /// The rule system (a name or a loaded mechanic file's name).
    pub system: &'a str,
    /// The scenario.
    pub scenario: Scenario,
    /// The situation's and the rules' inputs, as for a run.
    pub inputs: &'a [Input],
    /// The optional rules on.
    pub options: &'a [String],
    /// The outcome or metric to measure (default: [`default_headline`]).
    pub headline: Option<&'a str>,
    /// Trials, seed, threads, confidence and sampler of any Monte Carlo run; its exact budget
    /// bounds each exact solution.
    pub run: RunOptions,
}

/// One setting to try: its key, kind, rule ids, from, to, and the inputs and options it runs.
struct Trial {
    key: String,
    step: Option<f64>,
    kind: &'static str,
    rule: String,
    from: String,
    to: String,
    inputs: Vec<Input>,
    options: Vec<String>,
}

/// How many runs [`analyse`] makes for `ask` (the run asked for and every setting), for a
/// progress bar; it builds nothing.
///
/// # Errors
/// An unknown system.
pub fn runs(ask: &Ask) -> Result<usize> {
    let sys = system::find(ask.system)?;
    let rules: usize = sys
        .rule_params()
        .iter()
        .map(|p| {
            let current = p.default;
            steps(&p.kind, current).map_or(0, |s| s.len().max(1))
        })
        .sum();
    Ok(1 + rules + sys.options().len())
}

/// Move every rule parameter one step each way and switch every optional rule, and measure the
/// headline under each (see the module's description).
///
/// # Errors
/// An unknown system or a headline the scenario does not have; input the system rejects in the
/// run asked for; [`Error::Cancelled`] when `control` is cancelled.
pub fn analyse(ask: &Ask, control: &Control) -> Result<Sensitivity> {
    let sys = system::find(ask.system)?;
    let base_job = system::build(ask.system, ask.scenario, ask.inputs, ask.options)?;
    // Exact where the scenario solves exactly within its budget; else Monte Carlo throughout.
    let exact_run = ask.run.clone().exact_only(true);
    let (base, exact, why_estimates) = match base_job.run(&exact_run, control) {
        Ok(r) => (r, true, None),
        Err(Error::Cancelled) => return Err(Error::Cancelled),
        Err(e) if ask.run.exact_only => return Err(e),
        Err(e) => {
            let why = match &e {
                Error::Invalid { allowed, .. } => allowed
                    .split(';')
                    .next()
                    .unwrap_or(allowed)
                    .trim()
                    .to_string(),
                other => other.to_string(),
            };
            (
                base_job.run(&ask.run.clone().exact_only(false), control)?,
                false,
                Some(why),
            )
        }
    };
    let headline = match ask.headline {
        Some(h) => h.to_string(),
        None => default_headline(&base),
    };
    let Some(base_value) = headline_value(&base, &headline) else {
        let mut names: Vec<String> = base.outcomes.iter().map(|o| o.outcome.clone()).collect();
        names.extend(base.metrics.iter().map(|m| m.name.clone()));
        let hint = crate::scenario::strength::hint(&headline);
        return Err(Error::Invalid {
            what: "--headline".into(),
            value: headline,
            allowed: format!(
                "an outcome or metric of {} {}: {}{}",
                sys.name(),
                ask.scenario.name(),
                names.join(", "),
                hint
            ),
        });
    };
    let metric = base.metrics.iter().find(|m| m.name == headline);
    let meaning = metric.map_or(format!("share of trials ending {headline}"), |m| {
        m.meaning.clone()
    });

    let (trials, not_stepped) = trials_of(sys, ask, &base);

    let z = z_for_confidence(ask.run.confidence);
    let measure = Measure {
        ask,
        control,
        exact,
        exact_run: &exact_run,
        base: &base,
        base_value,
        headline: &headline,
        metric,
        z,
    };
    let mut effects = Vec::new();
    for t in trials {
        effects.push(measure.effect(t)?);
    }
    sort(&mut effects);
    Ok(Sensitivity {
        system: sys.name().into(),
        source: sys.source_short(),
        scenario: ask.scenario.name().into(),
        situation: ask
            .inputs
            .iter()
            .filter(|i| i.source != Source::Rule)
            .map(|i| format!("{}={}", i.key, i.value))
            .collect(),
        headline_kind: if metric.is_some() {
            "metric"
        } else {
            "outcome"
        }
        .into(),
        headline,
        meaning,
        params: base.params.clone(),
        rules_changed: rule_changes(&base.rules_changed, &base.rules_source),
        options: ask.options.to_vec(),
        base: base_value,
        effects,
        not_stepped,
        trials: if exact { 0 } else { ask.run.spec.trials },
        seed: ask.run.spec.seed,
        confidence: ask.run.confidence,
        why_estimates,
    })
}

/// Every setting to try: each rule parameter a step each way, each optional rule switched;
/// and the rule parameters that cannot be stepped, with why.
fn trials_of(
    sys: &dyn system::RuleSystem,
    ask: &Ask,
    base: &Report,
) -> (Vec<Trial>, Vec<NotStepped>) {
    let mut trials: Vec<Trial> = Vec::new();
    let mut not_stepped = Vec::new();
    for p in sys.rule_params() {
        let current = base
            .rules
            .get(p.key)
            .map(typed)
            .unwrap_or_else(|| p.default.to_string());
        match steps(&p.kind, &current) {
            Err(why) => not_stepped.push(NotStepped {
                key: p.key.into(),
                why,
            }),
            Ok(values) => {
                for to in values {
                    trials.push(rule_trial(p, &current, to, ask));
                }
            }
        }
    }
    for o in sys.options() {
        let on = ask.options.iter().any(|x| x == o.name);
        let options: Vec<String> = if on {
            ask.options
                .iter()
                .filter(|x| *x != o.name)
                .cloned()
                .collect()
        } else {
            ask.options
                .iter()
                .cloned()
                .chain([o.name.to_string()])
                .collect()
        };
        trials.push(Trial {
            step: None,
            key: o.name.into(),
            kind: "option",
            rule: o.rule.into(),
            from: if on { "on" } else { "off" }.into(),
            to: if on { "off" } else { "on" }.into(),
            inputs: ask.inputs.to_vec(),
            options,
        });
    }
    (trials, not_stepped)
}

/// How a setting is measured: the run asked for, its headline, and how it ran.
struct Measure<'s> {
    ask: &'s Ask<'s>,
    control: &'s Control,
    /// Every run is exact.
    exact: bool,
    exact_run: &'s RunOptions,
    /// The report of the run asked for.
    base: &'s Report,
    base_value: Value,
    headline: &'s str,
    /// The headline's metric, when it is one (else an outcome).
    metric: Option<&'s MetricRow>,
    z: f64,
}

impl Measure<'_> {
    /// The headline's change under setting `t` (or why the setting did not run).
    fn effect(&self, t: Trial) -> Result<Effect> {
        let Measure {
            ask,
            control,
            exact,
            exact_run,
            base,
            base_value,
            headline,
            metric,
            z,
        } = *self;
        let mut effect = Effect {
            key: t.key,
            kind: t.kind.into(),
            rule: t.rule,
            from: t.from,
            to: t.to,
            value: None,
            change: None,
            low: None,
            high: None,
            chance: None,
            refused: None,
            step: t.step,
        };
        let job = match system::build(ask.system, ask.scenario, &t.inputs, &t.options) {
            Ok(job) => job,
            Err(e) => {
                effect.refused = Some(e.to_string());
                return Ok(effect);
            }
        };
        let report = if exact {
            match job.run(exact_run, control) {
                Ok(r) => r,
                Err(Error::Cancelled) => return Err(Error::Cancelled),
                Err(e) if ask.run.exact_only => {
                    effect.refused = Some(format!("no exact solution: {e}"));
                    return Ok(effect);
                }
                Err(_) => job.run(&ask.run.clone().exact_only(false), control)?,
            }
        } else {
            job.run(&ask.run.clone().exact_only(false), control)?
        };
        let Some(v) = headline_value(&report, headline) else {
            effect.refused = Some(format!("this setting has no outcome or metric {headline}"));
            return Ok(effect);
        };
        effect.value = Some(v);
        effect.change = Some(v.value - base_value.value);
        if !(v.exact && base_value.exact) {
            let difference = match metric {
                Some(_) => {
                    let a = report.metrics.iter().find(|m| m.name == headline);
                    let b = base.metrics.iter().find(|m| m.name == headline);
                    a.zip(b).and_then(|(a, b)| means(a, b, z))
                }
                None => {
                    let a = report.outcomes.iter().find(|o| o.outcome == headline);
                    let b = base.outcomes.iter().find(|o| o.outcome == headline);
                    a.zip(b).and_then(|(a, b)| {
                        proportions(&a.cell, report.trials, &b.cell, base.trials)
                    })
                }
            };
            if let Some((d, low, high, _)) = difference {
                effect.change = Some(d);
                effect.low = Some(low);
                effect.high = Some(high);
                effect.chance = Some(low <= 0.0 && high >= 0.0);
            }
        }
        Ok(effect)
    }
}

fn rule_trial(p: &ParamDef, current: &str, to: String, ask: &Ask) -> Trial {
    let mut inputs: Vec<Input> = ask
        .inputs
        .iter()
        .filter(|i| !(i.key == p.key && i.source == Source::Rule))
        .cloned()
        .collect();
    inputs.push(Input::rule(p.key, to.clone()));
    Trial {
        step: step_share(&p.kind, current, &to),
        key: p.key.into(),
        kind: "rule",
        rule: p.rule.into(),
        from: current.into(),
        to,
        inputs,
        options: ask.options.to_vec(),
    }
}

/// How much a parameter matters: its settings' largest change in size (0 for none tried).
fn weight(effects: &[Effect], key: &str) -> f64 {
    effects
        .iter()
        .filter(|e| e.key == key)
        .filter_map(|e| e.change)
        .fold(0.0, |m, c| m.max(c.abs()))
}

/// Rule parameters (the rules' numbers and choices) by their largest change, biggest first
/// (ties in table order), then the optional rules the same way: a whole rule switched on or
/// off is not ranked against one step of a number. Each parameter's settings together in the
/// order they were tried.
fn sort(effects: &mut Vec<Effect>) {
    let mut keys: Vec<String> = Vec::new();
    for e in effects.iter() {
        if !keys.contains(&e.key) {
            keys.push(e.key.clone());
        }
    }
    let weights: Vec<(String, f64)> = keys
        .iter()
        .map(|k| (k.clone(), weight(effects, k)))
        .collect();
    let mut order: Vec<usize> = (0..keys.len()).collect();
    // A change below 1e-12 is rounding, not an effect.
    let w = |i: usize| {
        if weights[i].1 < 1e-12 {
            0.0
        } else {
            weights[i].1
        }
    };
    let option = |i: usize| {
        effects
            .iter()
            .any(|e| e.key == keys[i] && e.kind == "option")
    };
    order.sort_by(|&a, &b| {
        option(a)
            .cmp(&option(b))
            .then(w(b).total_cmp(&w(a)))
            .then(a.cmp(&b))
    });
    let mut out = Vec::with_capacity(effects.len());
    for i in order {
        out.extend(effects.iter().filter(|e| e.key == keys[i]).cloned());
    }
    *effects = out;
}

impl Sensitivity {
    /// The parameters in order of how much they matter, each with its largest change and its
    /// settings' changes (for the tornado chart and the summary): `(key, settings)`.
    pub fn by_parameter(&self) -> Vec<(&str, Vec<&Effect>)> {
        let mut out: Vec<(&str, Vec<&Effect>)> = Vec::new();
        for e in &self.effects {
            match out.iter_mut().find(|(k, _)| *k == e.key) {
                Some((_, v)) => v.push(e),
                None => out.push((&e.key, vec![e])),
            }
        }
        out
    }

    /// The settings that changed the headline (beyond rounding), and those that did not.
    pub fn moved(&self) -> (Vec<&Effect>, Vec<&Effect>) {
        self.effects
            .iter()
            .filter(|e| e.refused.is_none())
            .partition(|e| e.change.is_some_and(|c| c.abs() >= 1e-12))
    }
}

/// What the column "per 10% of range" means, under every table that has it.
pub(crate) const SCALED: &str = "Per 10% of range: the change divided by the step's size as a share of the parameter's allowed range, times a tenth, so that steps of numbers on different scales compare (a die's base number and a chance); a switch, a choice or an optional rule has no scale (—).";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_move_one_step_within_the_allowed_range() {
        let int = Kind::Int { min: 1, max: 8 };
        assert_eq!(steps(&int, "4").unwrap(), ["3", "5"]);
        assert_eq!(steps(&int, "1").unwrap(), ["2"]);
        assert_eq!(steps(&int, "8").unwrap(), ["7"]);
        assert_eq!(steps(&Kind::Prob, "1/2").unwrap(), ["2/5", "3/5"]);
        assert_eq!(steps(&Kind::Prob, "1").unwrap(), ["5/6"]);
        assert_eq!(steps(&Kind::Prob, "0.3").unwrap(), ["1/4", "1/3"]);
        assert_eq!(steps(&Kind::Bool, "true").unwrap(), ["false"]);
        assert_eq!(
            steps(&Kind::Choice(&["a", "b", "c"]), "b").unwrap(),
            ["a", "c"]
        );
        let real = Kind::Real { min: 0.0, max: 1.0 };
        assert_eq!(steps(&real, "0.5").unwrap(), ["0.45", "0.55"]);
        assert!(steps(&Kind::Dist, "").is_err());
    }
}
