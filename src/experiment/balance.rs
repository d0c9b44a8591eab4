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

use super::sensitivity::{Value, csv_text, default_headline, headline_value_as, typed};
use crate::engine::Control;
use crate::error::{Error, Result};
use crate::frac::Frac;
use crate::params::{Input, Kind, ParamDef, Source};
use crate::report::{Report, rule_changes};
use crate::scenario::{RunOptions, Scenario};
use crate::system;

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

/// How the search treats the parameter.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Domain {
    Whole(i64, i64),
    Chance(Frac, Frac),
    Real(f64, f64),
    Named,
}

fn invalid(what: &str, value: &str, allowed: String) -> Error {
    Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed,
    }
}

/// The parameter `key` of `sys` and whether it is a rule parameter.
fn find_param(
    sys: &dyn system::RuleSystem,
    scenario: Scenario,
    key: &str,
) -> Result<(&'static ParamDef, bool)> {
    if let Some(p) = sys.rule_params().iter().find(|p| p.key == key) {
        return Ok((p, true));
    }
    if let Some(p) = system::all_params(sys).into_iter().find(|p| p.key == key) {
        return Ok((p, false));
    }
    let mut keys: Vec<&str> = system::all_params(sys)
        .into_iter()
        .chain(sys.rule_params())
        .filter(|p| !matches!(p.kind, Kind::Dist | Kind::Spec(_)))
        .filter(|p| p.scenarios.contains(&scenario))
        .map(|p| p.key)
        .collect();
    keys.dedup();
    Err(invalid(
        "--solve",
        key,
        format!(
            "a parameter or rule parameter of {} {}: {}",
            sys.name(),
            scenario.name(),
            keys.join(", ")
        ),
    ))
}

/// The domain searched for `def`, within `range` when given.
fn domain(def: &ParamDef, range: &Option<(String, String)>) -> Result<Domain> {
    let shown = || {
        range
            .as_ref()
            .map(|(a, b)| format!("{a}..{b}"))
            .unwrap_or_default()
    };
    match def.kind {
        Kind::Int { min, max } => {
            let (lo, hi) = match range {
                None => (min, max),
                Some((a, b)) => {
                    let lo = crate::params::parse_int(a);
                    let hi = crate::params::parse_int(b);
                    match (lo, hi) {
                        (Some(lo), Some(hi)) if lo < hi && lo >= min && hi <= max => (lo, hi),
                        _ => {
                            return Err(invalid(
                                "--range",
                                &shown(),
                                format!(
                                    "LOW..HIGH, whole numbers with LOW below HIGH, within {}'s allowed {min}..{max}",
                                    def.key
                                ),
                            ));
                        }
                    }
                }
            };
            if hi - lo + 1 > MAX_WHOLE_VALUES {
                return Err(invalid(
                    "--range",
                    &format!("{lo}..{hi}"),
                    format!(
                        "at most {MAX_WHOLE_VALUES} whole numbers are tried: give --range LOW..HIGH within {min}..{max} (each value is solved exactly)"
                    ),
                ));
            }
            Ok(Domain::Whole(lo, hi))
        }
        Kind::Prob => {
            let (lo, hi) = match range {
                None => (Frac { num: 0, den: 1 }, Frac { num: 1, den: 1 }),
                Some((a, b)) => match (Frac::parse(a), Frac::parse(b)) {
                    (Some(lo), Some(hi)) if lo.value() < hi.value() && hi.num <= hi.den => {
                        (lo, hi)
                    }
                    _ => {
                        return Err(invalid(
                            "--range",
                            &shown(),
                            "LOW..HIGH, chances from 0 to 1 with LOW below HIGH, e.g. 0..1/2"
                                .into(),
                        ));
                    }
                },
            };
            Ok(Domain::Chance(lo, hi))
        }
        Kind::Real { min, max } => {
            let (lo, hi) = match range {
                None => (min, max),
                Some((a, b)) => match (a.trim().parse::<f64>(), b.trim().parse::<f64>()) {
                    (Ok(lo), Ok(hi)) if lo < hi && lo >= min && hi <= max => (lo, hi),
                    _ => {
                        return Err(invalid(
                            "--range",
                            &shown(),
                            format!(
                                "LOW..HIGH, numbers with LOW below HIGH, within {min}..{max}"
                            ),
                        ));
                    }
                },
            };
            Ok(Domain::Real(lo, hi))
        }
        Kind::Bool | Kind::Choice(_) => {
            if range.is_some() {
                return Err(invalid(
                    "--range",
                    &shown(),
                    format!(
                        "no range for {}: every value of a choice or a switch is tried",
                        def.key
                    ),
                ));
            }
            Ok(Domain::Named)
        }
        Kind::Dist | Kind::Spec(_) => Err(invalid(
            "--solve",
            def.key,
            "a whole number, a chance, a number, a choice or a switch (a distribution or a unit spec has no single value to solve for)".into(),
        )),
    }
}

/// The inputs of the run asked for with `key` set to `value`.
fn with_value(inputs: &[Input], key: &str, rule: bool, value: &str) -> Vec<Input> {
    let mut out: Vec<Input> = inputs.iter().filter(|i| i.key != key).cloned().collect();
    out.push(Input {
        key: key.into(),
        value: value.into(),
        source: if rule { Source::Rule } else { Source::Set },
    });
    out
}

/// The value of `field` in unit spec `spec` (its `field=N` word), if given.
fn spec_field(spec: &str, field: &str) -> Option<String> {
    spec.split_whitespace()
        .rev()
        .find_map(|w| w.strip_prefix(field)?.strip_prefix('=').map(str::to_string))
}

/// Unit spec `spec` with its `field` set to `value`: the `field=…` words replaced by one, or
/// one added.
fn set_field(spec: &str, field: &str, value: &str) -> String {
    let mut words: Vec<String> = spec
        .split_whitespace()
        .filter(|w| {
            w.strip_prefix(field)
                .is_none_or(|rest| !rest.starts_with('='))
        })
        .map(str::to_string)
        .collect();
    words.push(format!("{field}={value}"));
    words.join(" ")
}

/// The report of one setting (exact only, or by Monte Carlo from the run's seed and trials:
/// the same for every setting, so their differences share their noise), or why it has none.
fn report_of(
    ask: &Ask,
    system: &str,
    inputs: &[Input],
    options: &[String],
    monte_carlo: bool,
    control: &Control,
) -> Result<std::result::Result<Report, String>> {
    report_with(
        ask,
        system,
        inputs,
        options,
        monte_carlo,
        ask.run.spec.trials,
        control,
    )
}

/// [`report_of`] with `trials` trials where it runs by Monte Carlo (the same seed: a longer
/// run's trials begin with a shorter one's).
fn report_with(
    ask: &Ask,
    system: &str,
    inputs: &[Input],
    options: &[String],
    monte_carlo: bool,
    trials: u64,
    control: &Control,
) -> Result<std::result::Result<Report, String>> {
    let job = match system::build(system, ask.scenario, inputs, options) {
        Ok(job) => job,
        Err(e) => return Ok(Err(e.to_string())),
    };
    let mut run = ask.run.clone().exact_only(!monte_carlo);
    run.spec.trials = trials;
    match job.run(&run, control) {
        Ok(r) => Ok(Ok(r)),
        Err(Error::Cancelled) => Err(Error::Cancelled),
        Err(e) => Ok(Err(why_not(&e))),
    }
}

/// Why a setting did not run, in words: what a refusal allows (its first clause), else the
/// error.
fn why_not(e: &Error) -> String {
    match e {
        Error::Invalid { allowed, .. } if allowed.contains("no exact solution") => allowed
            .split(';')
            .next()
            .unwrap_or(allowed)
            .trim()
            .to_string(),
        other => other.to_string(),
    }
}

/// The headline of `report`: its exact value, or under Monte Carlo its estimate and interval
/// (even where the exact value is known, so that a search by Monte Carlo can be checked
/// against the exact one).
fn value_of(report: &Report, name: &str, monte_carlo: bool) -> Option<Value> {
    headline_value_as(report, name, monte_carlo).filter(|v| monte_carlo || v.exact)
}

/// Half the width of `v`'s interval (0 for an exact value).
fn half_width(v: &Value) -> f64 {
    match (v.low, v.high) {
        (Some(l), Some(h)) => (h - l) / 2.0,
        _ => 0.0,
    }
}

/// The parameter solved for: its system, definition, whether it is a rule parameter, a unit
/// spec's field when one is named (`attacker.leader`), and the values searched.
type Solved<'a> = (
    &'static dyn system::RuleSystem,
    &'static ParamDef,
    bool,
    Option<(&'a str, &'a str)>,
    Domain,
);

fn parameter<'a>(ask: &Ask<'a>) -> Result<Solved<'a>> {
    let sys = system::find(ask.system)?;
    // A unit spec's field (`attacker.leader`): a whole number written into the spec.
    let field = ask.key.split_once('.').map(|(side, f)| (side, f.trim()));
    let (def, rule) = find_param(sys, ask.scenario, field.map_or(ask.key, |(side, _)| side))?;
    if let Some((side, f)) = field {
        if !matches!(def.kind, Kind::Spec(_)) {
            return Err(invalid(
                "--solve",
                ask.key,
                format!(
                    "SIDE.FIELD names a field of a unit spec (attacker.leader); {side} is no unit spec"
                ),
            ));
        }
        if f.is_empty() || !f.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(invalid(
                "--solve",
                ask.key,
                format!(
                    "{side}.FIELD with a field of the spec's KEY=N words, e.g. {side}.leader or {side}.stands"
                ),
            ));
        }
        if ask.range.is_none() {
            return Err(invalid(
                "--solve",
                ask.key,
                format!(
                    "a unit spec's field has no range of its own here: give --range LOW..HIGH (e.g. --range 0..3 for {side}.leader)"
                ),
            ));
        }
    }
    if !def.scenarios.contains(&ask.scenario) {
        return Err(invalid(
            "--solve",
            ask.key,
            format!(
                "a parameter of {} {}: {} is not used there",
                sys.name(),
                ask.scenario.name(),
                ask.key
            ),
        ));
    }
    let dom = match field {
        None => domain(def, &ask.range)?,
        Some(_) => domain(
            &ParamDef {
                kind: Kind::Int {
                    min: -1000,
                    max: 1000,
                },
                ..*def
            },
            &ask.range,
        )?,
    };
    Ok((sys, def, rule, field, dom))
}

/// Check what `solve` would be asked without running anything: the parameter, its range, and
/// the run as set (an experiment checks its `[balance]` section before its runs).
///
/// # Errors
/// As [`solve`]'s checks: an unknown parameter, a range it does not allow, a run that does not
/// build.
pub fn check(ask: &Ask) -> Result<()> {
    parameter(ask)?;
    system::build(ask.system, ask.scenario, ask.inputs, ask.options)?;
    if let Target::Variant {
        system: theirs,
        inputs,
        options,
        ..
    } = &ask.target
    {
        system::build(theirs, ask.scenario, inputs, options)?;
    }
    Ok(())
}

/// Solve for `ask.key` (see the module's description).
///
/// # Errors
/// An unknown system, parameter or headline; a range outside the parameter's; input the system
/// rejects in the run asked for or in the target's setting; a scenario that does not solve
/// exactly here (with why); [`Error::Cancelled`] when `control` is cancelled.
pub fn solve(ask: &Ask, control: &Control) -> Result<Balance> {
    let (sys, def, rule, field, dom) = parameter(ask)?;
    // The run asked for: exact where it solves, else (or when asked) Monte Carlo throughout.
    system::build(ask.system, ask.scenario, ask.inputs, ask.options)?;
    let (base, monte_carlo, why_estimates) = match if ask.monte_carlo {
        Ok(Err(String::new()))
    } else {
        report_of(ask, ask.system, ask.inputs, ask.options, false, control)
    }? {
        Ok(r) => (r, false, None),
        Err(_) if ask.run.exact_only => {
            return Err(Error::Conflict(
                "this setting has no exact solution here, and --exact-only was asked: leave it out to search by Monte Carlo".into(),
            ));
        }
        Err(why) => {
            let r = match report_of(ask, ask.system, ask.inputs, ask.options, true, control)? {
                Ok(r) => r,
                Err(e) => return Err(Error::Conflict(e)),
            };
            let why = if ask.monte_carlo {
                "Monte Carlo was asked for (--monte-carlo)".to_string()
            } else {
                why
            };
            (r, true, Some(why))
        }
    };
    let headline = match ask.headline {
        Some(h) => h.to_string(),
        None => default_headline(&base),
    };
    let Some(at_as_set) = value_of(&base, &headline, monte_carlo) else {
        let mut names: Vec<String> = base.outcomes.iter().map(|o| o.outcome.clone()).collect();
        names.extend(base.metrics.iter().map(|m| m.name.clone()));
        return Err(invalid(
            "--headline",
            &headline,
            format!(
                "an outcome or metric of {} {}: {}{}",
                sys.name(),
                ask.scenario.name(),
                names.join(", "),
                crate::scenario::strength::hint(&headline)
            ),
        ));
    };
    let metric = base.metrics.iter().find(|m| m.name == headline);
    let meaning = metric.map_or(format!("share of trials ending {headline}"), |m| {
        m.meaning.clone()
    });
    let as_set = base
        .rules
        .get(def.key)
        .or_else(|| base.params.get(def.key))
        .map(typed)
        .unwrap_or_else(|| def.default.to_string());
    // A spec's field: the spec as set, and the field's value in it.
    let (spec, as_set) = match field {
        None => (None, as_set),
        Some((_, f)) => {
            let given = spec_field(&as_set, f).unwrap_or_else(|| "not given".into());
            (Some(as_set), given)
        }
    };
    let inputs_at = |value: &str| match (&spec, field) {
        (Some(spec), Some((_, f))) => {
            with_value(ask.inputs, def.key, false, &set_field(spec, f, value))
        }
        _ => with_value(ask.inputs, def.key, rule, value),
    };

    // The headline in another run (under its system's word for the same end).
    let measure = |system: &str, inputs: &[Input], options: &[String], across: bool| {
        let r = match report_of(ask, system, inputs, options, monte_carlo, control)? {
            Ok(r) => r,
            Err(why) => {
                return Err(Error::Conflict(format!(
                    "the target's setting has no exact solution here: {why}"
                )));
            }
        };
        // The same meaning under another system's name (a unit gone: removed, eliminated).
        let their_headline = r
            .outcomes
            .iter()
            .map(|o| o.outcome.as_str())
            .find(|o| super::compare::same_outcome(o, &headline))
            .unwrap_or(&headline)
            .to_string();
        let v = value_of(&r, &their_headline, monte_carlo).ok_or_else(|| {
            Error::Conflict(format!(
                "the target's setting has no outcome or metric {headline}{}",
                if across {
                    format!(
                        " under {}",
                        system::find(system).map_or(system, |s| s.name())
                    )
                } else {
                    String::new()
                }
            ))
        })?;
        Ok((v, their_headline))
    };
    // The target (and, by Monte Carlo, its interval's half-width).
    let mut target_width = 0.0;
    let (target, target_from) = match &ask.target {
        Target::Number(t) => {
            if metric.is_none() && !(0.0..=1.0).contains(t) {
                return Err(invalid(
                    "--target",
                    &t.to_string(),
                    format!("a share from 0 to 1 ({headline} is an outcome), e.g. 0.5"),
                ));
            }
            (*t, format!("the number {t}"))
        }
        Target::Setting {
            inputs,
            options,
            system: other_system,
        } => {
            let across = other_system
                .as_deref()
                .filter(|o| system::find(o).map(|s| s.name()) != Ok(sys.name()));
            let target_system = across.unwrap_or(ask.system);
            let target_sys = system::find(target_system)?;
            // Under another system, the run's rule numbers are not its: only the situation goes,
            // as far as that system has the same settings in this scenario.
            let theirs = |i: &Input| {
                across.is_none()
                    || (!matches!(i.source, Source::Rule)
                        && system::all_params(target_sys)
                            .iter()
                            .any(|p| p.key == i.key && p.scenarios.contains(&ask.scenario)))
            };
            let mut left: Vec<String> = ask
                .inputs
                .iter()
                .filter(|i| !theirs(i) && !inputs.iter().any(|o| o.key == i.key))
                .map(|i| i.key.clone())
                .collect();
            left.dedup();
            let mut other: Vec<Input> = ask
                .inputs
                .iter()
                .filter(|i| !inputs.iter().any(|o| o.key == i.key))
                .filter(|i| theirs(i))
                .cloned()
                .collect();
            other.extend(inputs.iter().cloned());
            let opts = options.clone().unwrap_or_else(|| {
                if across.is_some() {
                    Vec::new()
                } else {
                    ask.options.to_vec()
                }
            });
            system::build(target_system, ask.scenario, &other, &opts).map_err(|e| {
                if across.is_some() {
                    Error::Conflict(format!(
                        "the target under {}: {e} (give its own values with --against KEY=VALUE)",
                        target_sys.name()
                    ))
                } else {
                    e
                }
            })?;
            let (v, their_headline) = measure(target_system, &other, &opts, across.is_some())?;
            let mut words: Vec<String> = inputs
                .iter()
                .map(|i| format!("{}={}", i.key, i.value))
                .collect();
            if let Some(o) = options {
                words.push(if o.is_empty() {
                    "no optional rules".into()
                } else {
                    format!("optional rules {}", o.join(", "))
                });
            }
            target_width = half_width(&v);
            let under = across.map(|_| {
                format!(
                    "{} under {}",
                    if their_headline == headline {
                        String::new()
                    } else {
                        format!(" ({their_headline} there)")
                    },
                    target_sys.name()
                )
            });
            let with = if words.is_empty() {
                String::new()
            } else {
                format!(" with {}", words.join(", "))
            };
            let with = if left.is_empty() {
                with
            } else {
                format!(
                    "{with} (left behind, not settings of {} {}: {})",
                    target_sys.name(),
                    ask.scenario.name(),
                    left.join(", ")
                )
            };
            (
                v.value,
                format!("the same{}{with}", under.unwrap_or_default()),
            )
        }
        Target::Variant {
            name,
            system: theirs,
            inputs,
            options,
        } => {
            let across = system::find(theirs)?.name() != sys.name();
            let (v, their_headline) = measure(theirs, inputs, options, across)?;
            target_width = half_width(&v);
            (
                v.value,
                format!(
                    "the same under {name}{}",
                    if their_headline == headline {
                        String::new()
                    } else {
                        format!(" ({their_headline} there)")
                    }
                ),
            )
        }
    };

    // Under Monte Carlo the values first run a sixteenth of the trials (at least 1,000), and
    // only those near the target run more (see below).
    let full = ask.run.spec.trials;
    let first = if monte_carlo {
        (full / SEQUENTIAL).max(1_000).min(full)
    } else {
        full
    };
    let try_at = |value: String, x: f64, trials: u64| -> Result<Point> {
        let inputs = inputs_at(&value);
        let spent = if monte_carlo { trials } else { 0 };
        Ok(
            match report_with(
                ask,
                ask.system,
                &inputs,
                ask.options,
                monte_carlo,
                trials,
                control,
            )? {
                Ok(r) => match value_of(&r, &headline, monte_carlo) {
                    Some(v) => Point {
                        value,
                        x,
                        gap: Some(v.value - target),
                        headline: Some(v),
                        refused: None,
                        trials: spent,
                    },
                    None => Point {
                        value,
                        x,
                        headline: None,
                        gap: None,
                        refused: Some(format!("no outcome or metric {headline} here")),
                        trials: 0,
                    },
                },
                Err(why) => Point {
                    value,
                    x,
                    headline: None,
                    gap: None,
                    refused: Some(why),
                    trials: 0,
                },
            },
        )
    };
    let try_value = |value: String, x: f64| try_at(value, x, first);

    let mut points = Vec::new();
    let mut tolerance = 0.0;
    let range: (String, String);
    match dom {
        Domain::Whole(lo, hi) => {
            range = (lo.to_string(), hi.to_string());
            for v in lo..=hi {
                points.push(try_value(v.to_string(), v as f64)?);
            }
        }
        Domain::Named => {
            let names: Vec<String> = match def.kind {
                Kind::Bool => vec!["false".into(), "true".into()],
                Kind::Choice(c) => c.iter().map(|s| s.to_string()).collect(),
                _ => unreachable!("a named domain is a switch or a choice"),
            };
            range = (
                names.first().cloned().unwrap_or_default(),
                names.last().cloned().unwrap_or_default(),
            );
            for (i, n) in names.into_iter().enumerate() {
                points.push(try_value(n, i as f64)?);
            }
        }
        Domain::Chance(lo, hi) => {
            range = (lo.to_string(), hi.to_string());
            // Grid values on the fine denominator: lo + k (hi - lo) / 24, rounded onto it.
            let at = |x: f64| -> (String, f64) {
                let num = (x * FINE as f64).round() as u64;
                let f = Frac::new(num, FINE).expect("FINE > 0");
                (f.to_string(), f.value())
            };
            let mut grid = vec![(lo.to_string(), lo.value())];
            for k in 1..GRID {
                grid.push(at(
                    lo.value() + (hi.value() - lo.value()) * k as f64 / GRID as f64
                ));
            }
            grid.push((hi.to_string(), hi.value()));
            grid.dedup_by(|a, b| a.1 == b.1);
            for (text, x) in grid {
                points.push(try_value(text, x)?);
            }
            tolerance = 1.0 / FINE as f64;
        }
        Domain::Real(lo, hi) => {
            range = (format!("{lo}"), format!("{hi}"));
            for k in 0..=GRID {
                let x = lo + (hi - lo) * k as f64 / GRID as f64;
                points.push(try_value(format!("{x}"), x)?);
            }
            tolerance = (hi - lo) * 1e-9;
        }
    }

    // The sequential search: while trials remain, the values still undecided — whose
    // interval (widened by the target's) holds the target, and the two ends of every sign
    // change — run four times the trials, up to the full count; the others are already
    // decided and keep what they have.
    let held = |p: &Point| {
        p.headline.as_ref().is_some_and(|v| {
            let w = (half_width(v).powi(2) + target_width.powi(2)).sqrt();
            (v.value - target).abs() <= w
        })
    };
    let mut trials = first;
    let mut trials_spent: u64 = points.iter().map(|p| p.trials).sum();
    while monte_carlo && trials < full {
        trials = trials.saturating_mul(4).min(full);
        let ordered = !matches!(dom, Domain::Named);
        let ran: Vec<usize> = (0..points.len())
            .filter(|&i| points[i].gap.is_some())
            .collect();
        let mut undecided: Vec<usize> = ran.iter().copied().filter(|&i| held(&points[i])).collect();
        if ordered {
            for w in ran.windows(2) {
                let (g, h) = (
                    points[w[0]].gap.unwrap_or(0.0),
                    points[w[1]].gap.unwrap_or(0.0),
                );
                if (g < 0.0) != (h < 0.0) {
                    undecided.extend([w[0], w[1]]);
                }
            }
        }
        undecided.sort_unstable();
        undecided.dedup();
        if undecided.is_empty() {
            break;
        }
        for i in undecided {
            points[i] = try_at(points[i].value.clone(), points[i].x, trials)?;
            trials_spent += points[i].trials;
        }
    }

    // Crossings: an exact hit, or a sign change between neighbours that both ran.
    let mut crossings = Vec::new();
    let ran: Vec<&Point> = points.iter().filter(|p| p.gap.is_some()).collect();
    let ordered = !matches!(dom, Domain::Named);
    for (i, p) in ran.iter().enumerate() {
        let g = p.gap.expect("ran");
        if g.abs() < HIT {
            crossings.push(Crossing {
                below: (*p).clone(),
                above: (*p).clone(),
                root: ordered.then_some(p.x),
                hit: true,
            });
            continue;
        }
        if !ordered {
            continue;
        }
        if let Some(q) = ran.get(i + 1) {
            let h = q.gap.expect("ran");
            if h.abs() >= HIT && (g < 0.0) != (h < 0.0) {
                crossings.push(Crossing {
                    below: (*p).clone(),
                    above: (*q).clone(),
                    root: None,
                    hit: false,
                });
            }
        }
    }
    // A continuous parameter: each bracket bisected to the tolerance.
    if !monte_carlo && matches!(dom, Domain::Chance(..) | Domain::Real(..)) {
        for c in crossings.iter_mut().filter(|c| !c.hit) {
            let (mut a, mut b) = (c.below.clone(), c.above.clone());
            let mut steps = 0;
            while b.x - a.x > tolerance * 1.5 && steps < 64 {
                steps += 1;
                let (text, x) = match dom {
                    Domain::Chance(..) => {
                        let na = (a.x * FINE as f64).round() as u64;
                        let nb = (b.x * FINE as f64).round() as u64;
                        if nb <= na + 1 {
                            break;
                        }
                        let f = Frac::new(na + (nb - na) / 2, FINE).expect("FINE > 0");
                        (f.to_string(), f.value())
                    }
                    _ => {
                        let x = (a.x + b.x) / 2.0;
                        (format!("{x}"), x)
                    }
                };
                let m = try_value(text, x)?;
                let Some(g) = m.gap else {
                    break;
                };
                if g.abs() < HIT {
                    a = m.clone();
                    b = m;
                    c.hit = true;
                    break;
                }
                if (g < 0.0) == (a.gap.expect("ran") < 0.0) {
                    a = m;
                } else {
                    b = m;
                }
            }
            // The root: where the line through the last bracket meets the target.
            let (ga, gb) = (a.gap.unwrap_or(0.0), b.gap.unwrap_or(0.0));
            c.root = Some(if c.hit || ga == gb {
                a.x
            } else {
                a.x + (b.x - a.x) * (-ga) / (gb - ga)
            });
            c.below = a;
            c.above = b;
        }
    }
    // By Monte Carlo: a continuous crossing's root where the line between its ends meets the
    // target; and the values not rejected — those whose interval (widened by the target's,
    // when it is an estimate too) holds the target — as the confidence set for the root.
    let mut not_rejected = Vec::new();
    let mut root_set = None;
    if monte_carlo {
        not_rejected = points
            .iter()
            .filter(|p| held(p))
            .map(|p| p.value.clone())
            .collect();
        if matches!(dom, Domain::Chance(..) | Domain::Real(..)) {
            for c in crossings.iter_mut().filter(|c| !c.hit) {
                let (ga, gb) = (c.below.gap.unwrap_or(0.0), c.above.gap.unwrap_or(0.0));
                c.root = Some(c.below.x + (c.above.x - c.below.x) * (-ga) / (gb - ga));
            }
            // The set, on the lines between neighbouring values tried (1,000 steps a gap).
            let ran: Vec<(f64, f64, f64)> = points
                .iter()
                .filter_map(|p| {
                    p.headline.as_ref().map(|v| {
                        (
                            p.x,
                            v.value,
                            (half_width(v).powi(2) + target_width.powi(2)).sqrt(),
                        )
                    })
                })
                .collect();
            let mut inside: Vec<f64> = Vec::new();
            for w in ran.windows(2) {
                let ((xa, va, ha), (xb, vb, hb)) = (w[0], w[1]);
                for k in 0..=1000 {
                    let t = k as f64 / 1000.0;
                    let (v, h) = (va + (vb - va) * t, ha + (hb - ha) * t);
                    if (v - target).abs() <= h {
                        inside.push(xa + (xb - xa) * t);
                    }
                }
            }
            if let (Some(a), Some(b)) = (
                inside.iter().copied().reduce(f64::min),
                inside.iter().copied().reduce(f64::max),
            ) {
                root_set = Some((a, b));
            }
        }
    }
    // Each continuous root's nearest simple fraction (a denominator up to 36, as two dice
    // give), solved too: the value a rulebook would print.
    let mut simple = Vec::new();
    if let Domain::Chance(lo, hi) = dom
        && !monte_carlo
    {
        for c in &crossings {
            let Some(root) = c.root else { continue };
            let best = (1..=36u64)
                .flat_map(|d| (0..=d).filter_map(move |n| Frac::new(n, d)))
                .filter(|f| f.value() >= lo.value() && f.value() <= hi.value())
                .min_by(|a, b| {
                    (a.value() - root)
                        .abs()
                        .total_cmp(&(b.value() - root).abs())
                        .then(a.den.cmp(&b.den))
                });
            if let Some(f) = best
                && !simple.iter().any(|p: &Point| p.value == f.to_string())
            {
                simple.push(try_value(f.to_string(), f.value())?);
            }
        }
    }
    let candidates: Vec<&Point> = ran
        .iter()
        .copied()
        .chain(crossings.iter().flat_map(|c| [&c.below, &c.above]))
        .chain(&simple)
        .collect();
    let nearest = candidates
        .iter()
        .min_by(|a, b| {
            a.gap
                .unwrap_or(f64::INFINITY)
                .abs()
                .total_cmp(&b.gap.unwrap_or(f64::INFINITY).abs())
                .then(a.x.total_cmp(&b.x))
        })
        .map(|p| (*p).clone());
    let shape = if !ordered {
        "a choice".to_string()
    } else {
        let hs: Vec<f64> = ran
            .iter()
            .filter_map(|p| p.headline.map(|h| h.value))
            .collect();
        let up = hs.windows(2).all(|w| w[1] >= w[0] - 1e-12);
        let down = hs.windows(2).all(|w| w[1] <= w[0] + 1e-12);
        match (up, down) {
            (true, true) => "flat".into(),
            (true, false) => "rises".into(),
            (false, true) => "falls".into(),
            _ => "rises and falls".into(),
        }
    };
    // The value as set, as the table shows it where the table has it (under Monte Carlo the
    // table's may have run fewer trials than the run asked for).
    let at_as_set = points
        .iter()
        .find(|p| p.value == as_set)
        .and_then(|p| p.headline)
        .unwrap_or(at_as_set);
    Ok(Balance {
        system: sys.name().into(),
        source: sys.source_short(),
        scenario: ask.scenario.name().into(),
        headline_kind: if metric.is_some() {
            "metric"
        } else {
            "outcome"
        }
        .into(),
        headline,
        meaning,
        key: match field {
            Some((side, f)) => format!("{side}.{f}"),
            None => def.key.into(),
        },
        key_kind: match (field, rule) {
            (Some(_), _) => "spec field",
            (None, true) => "rule",
            (None, false) => "situation",
        }
        .into(),
        rule: def.rule.into(),
        key_meaning: match field {
            Some((side, f)) => format!("{f}=N in the {side}'s unit spec ({})", def.meaning),
            None => def.meaning.into(),
        },
        domain: match dom {
            Domain::Whole(..) => "whole number",
            Domain::Chance(..) => "chance",
            Domain::Real(..) => "number",
            Domain::Named if def.kind == Kind::Bool => "switch",
            Domain::Named => "choice",
        }
        .into(),
        range,
        as_set,
        situation: ask
            .inputs
            .iter()
            .filter(|i| i.source != Source::Rule)
            .map(|i| format!("{}={}", i.key, i.value))
            .collect(),
        params: base.params.clone(),
        rules_changed: rule_changes(&base.rules_changed, &base.rules_source),
        options: ask.options.to_vec(),
        target,
        target_from,
        at_as_set,
        points,
        crossings,
        simple,
        nearest,
        tolerance: if monte_carlo { 0.0 } else { tolerance },
        exact: !monte_carlo,
        shape,
        command: None,
        trials: if monte_carlo { ask.run.spec.trials } else { 0 },
        first_trials: if monte_carlo { first } else { 0 },
        trials_spent,
        seed: ask.run.spec.seed,
        confidence: ask.run.confidence,
        why_estimates,
        not_rejected,
        root_set,
    })
}

impl Balance {
    fn is_share(&self) -> bool {
        self.headline_kind == "outcome"
    }

    /// The headline's plain words ([`crate::labels`]).
    fn headline_label(&self) -> crate::labels::Label {
        if self.is_share() {
            crate::labels::outcome(&self.headline)
        } else {
            crate::labels::metric(&self.headline)
        }
    }

    /// The number solved for, in a sentence ("Green base number").
    pub fn key_words(&self) -> String {
        crate::params::label_in_prose(&self.key)
    }

    /// The headline's value as shown: a share as a percentage to two decimals, a mean to four.
    pub fn show(&self, v: f64) -> String {
        if self.is_share() {
            format!("{:.2}%", 100.0 * v)
        } else {
            format!("{v:.4}")
        }
    }

    /// The headline's value as the report's tables give it: a share as a percentage to one
    /// decimal (never rounded to 0% or 100% when it is neither), a mean to two.
    pub fn show_plain(&self, v: f64) -> String {
        if self.is_share() {
            crate::odds::percent_text(v)
        } else {
            format!("{v:.2}")
        }
    }

    /// A gap to the target as shown: percentage points for a share, the metric's unit else.
    pub fn show_gap(&self, d: f64) -> String {
        let sign = if d > 0.0 {
            "+"
        } else if d < 0.0 {
            "−"
        } else {
            "±"
        };
        if self.is_share() {
            format!("{sign}{:.2} points", 100.0 * d.abs())
        } else {
            format!("{sign}{:.4}", d.abs())
        }
    }

    /// A value as shown: a chance found by bisection (a fraction with a large denominator)
    /// as a decimal; every other value as typed.
    fn value_text(&self, p: &Point) -> String {
        match Frac::parse(&p.value) {
            Some(f) if self.domain == "chance" && f.den > 1000 => format!("{:.9}", f.value()),
            _ => p.value.clone(),
        }
    }

    /// Values listed with runs of consecutive whole numbers joined (`26 to 50`).
    fn runs_of(&self, vals: &[String]) -> String {
        if self.domain != "whole number" {
            return vals.join(", ");
        }
        let nums: Vec<i64> = vals.iter().filter_map(|v| v.parse().ok()).collect();
        let mut out: Vec<String> = Vec::new();
        let mut i = 0;
        while i < nums.len() {
            let mut j = i;
            while j + 1 < nums.len() && nums[j + 1] == nums[j] + 1 {
                j += 1;
            }
            out.push(match j - i {
                0 => nums[i].to_string(),
                1 => format!("{}, {}", nums[i], nums[j]),
                _ => format!("{} to {}", nums[i], nums[j]),
            });
            i = j + 1;
        }
        out.join(", ")
    }

    fn at(&self, p: &Point) -> String {
        match (&p.headline, &p.refused) {
            (Some(v), _) => self.show(v.value),
            (None, Some(_)) => "refused (below)".into(),
            _ => "—".into(),
        }
    }

    /// When every value tried gives the same exact headline (the number does not reach it:
    /// another profile's rule, or one this setting never tests), that in a sentence, else `None`.
    pub fn unmoved(&self) -> Option<String> {
        let ran: Vec<&Point> = self
            .points
            .iter()
            .filter(|p| p.headline.is_some())
            .collect();
        let (first, last) = (ran.first()?, ran.last()?);
        let first_value = first.headline?.value;
        let same = ran.iter().all(|p| {
            p.headline
                .is_some_and(|h| (h.value - first_value).abs() < HIT)
        });
        if !self.exact || ran.len() < 2 || !same {
            return None;
        }
        Some(format!(
            "{} does not change it: {} is {} at every value from {} to {}.",
            crate::labels::capitalised(&self.key_words()),
            self.headline_label().noun,
            self.at(first),
            first.value,
            last.value
        ))
    }

    /// The answer in one paragraph.
    pub fn answer(&self) -> String {
        let k = &self.key_words();
        let noun = self.headline_label().noun;
        let target = self.show(self.target);
        if self.crossings.is_empty() {
            let ran: Vec<&Point> = self.points.iter().filter(|p| p.gap.is_some()).collect();
            let (Some(first), Some(last)) = (ran.first(), ran.last()) else {
                return format!("No value of {k} could be solved: every one was refused.");
            };
            let mut s = if self.domain == "choice" || self.domain == "switch" {
                format!("No value of {k} brings {noun} to {target} exactly.")
            } else {
                format!(
                    "No value of {k} from {} to {} reaches {target}: {} runs from {} (at {}) to {} (at {}).",
                    self.range.0,
                    self.range.1,
                    noun,
                    self.at(first),
                    first.value,
                    self.at(last),
                    last.value
                )
            };
            if let Some(n) = &self.nearest {
                s += &format!(
                    " Nearest: {k} {}, {} ({} from the target).",
                    n.value,
                    self.at(n),
                    self.show_gap(n.gap.unwrap_or(0.0))
                );
            }
            return s;
        }
        let mut parts = Vec::new();
        for c in &self.crossings {
            parts.push(match (c.hit, c.root, self.domain.as_str()) {
                (true, _, _) => format!("{k} {}, exactly", c.below.value),
                (false, Some(root), _) if !self.exact => format!(
                    "{k} ≈ {root:.4} (estimated: where the line between {} and {} meets the target)",
                    c.below.value, c.above.value
                ),
                (false, Some(root), _) => format!(
                    "{k} {root:.9} (to within {:.0e})",
                    self.tolerance.max(1e-12)
                ),
                _ => format!(
                    "between {k} {} ({}) and {} ({})",
                    c.below.value,
                    self.at(&c.below),
                    c.above.value,
                    self.at(&c.above)
                ),
            });
        }
        // Reached exactly everywhere: the target as the tables give a value (one decimal of a
        // percentage, two of a mean), one number for one quantity.
        let target = match self.crossings.iter().all(|c| c.hit) {
            true => self.show_plain(self.target),
            false => target,
        };
        let mut s = format!(
            "{} reaches {target} {}.",
            crate::labels::capitalised(&noun),
            if parts.len() == 1 {
                if parts[0].starts_with("between") {
                    parts[0].clone()
                } else {
                    format!("at {}", parts[0])
                }
            } else {
                format!(
                    "at {} places (the headline {} with {k}): {}",
                    parts.len(),
                    self.shape,
                    parts.join("; ")
                )
            }
        );
        if self.domain == "whole number"
            && self.crossings.iter().any(|c| !c.hit)
            && let Some(n) = &self.nearest
        {
            s += &format!(
                " No whole number hits it exactly; the nearest is {k} {} ({}, {} from the target).",
                n.value,
                self.at(n),
                self.show_gap(n.gap.unwrap_or(0.0))
            );
        }
        if !self.exact {
            let level = format!("{}%", 100.0 * self.confidence);
            s += &match (&self.root_set, self.not_rejected.as_slice()) {
                (Some((a, b)), _) => format!(
                    " Estimated: the values whose {level} interval holds the target run from {k} {a:.4} to {b:.4}."
                ),
                (None, []) => format!(
                    " Estimated: no value tried has a {level} interval that holds the target."
                ),
                (None, vals) => format!(
                    " Estimated: the values not told from the target at {level}: {k} {}.",
                    self.runs_of(vals)
                ),
            };
        }
        for f in &self.simple {
            s += &format!(
                " The nearest simple fraction, {k} {}, gives {} ({} from the target).",
                f.value,
                self.at(f),
                self.show_gap(f.gap.unwrap_or(0.0))
            );
        }
        s
    }

    /// The lines that say what was solved, under what.
    pub fn context_lines(&self) -> Vec<String> {
        let mut out = vec![format!(
            "Solve for {} ({}{}: {}), a {} from {} to {} ({} as set), so that {} reaches {}: {}.",
            self.key_words(),
            if self.key_kind == "rule" {
                "rule parameter"
            } else if self.key_kind == "spec field" {
                "unit spec field"
            } else {
                "parameter"
            },
            if self.rule.is_empty() {
                String::new()
            } else {
                format!(", {}", self.rule)
            },
            self.key_meaning,
            self.domain,
            self.range.0,
            self.range.1,
            self.as_set,
            self.headline_label().noun,
            self.show(self.target),
            self.target_from
        )];
        out.push(format!(
            "Situation: {}; rules: {}; optional rules: {}.",
            if self.situation.is_empty() {
                "the scenario's defaults".to_string()
            } else {
                crate::labels::settings_in_words(&self.situation)
            },
            if self.rules_changed.is_empty() {
                "as written".to_string()
            } else {
                self.rules_changed.join(", ")
            },
            if self.options.is_empty() {
                "none".to_string()
            } else {
                self.options
                    .iter()
                    .map(|o| crate::labels::option(o))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ));
        if let Some(s) = &self.source {
            out.push(format!("Mechanic file: {s}."));
        }
        out.push(format!(
            "As set ({} {}): {} {}.",
            self.key_words(),
            self.as_set,
            self.headline_label().head,
            self.show(self.at_as_set.value)
        ));
        out.push(if self.exact {
            "Every value is exact (the scenario solved at each value tried).".into()
        } else {
            format!(
                "Values are Monte Carlo estimates ({}), all from seed {} (common random numbers, so neighbouring values differ by less noise than independent runs would), intervals at {}%. The search is sequential: every value ran {} trials first, and the values still undecided (their interval holds the target, or the headline changes side between them) four times as many, up to {}: {} trials in all, against {} for every value at the full count.",
                self.why_estimates.as_deref().unwrap_or("no exact solution"),
                self.seed,
                100.0 * self.confidence,
                crate::report::thousands(self.first_trials),
                crate::report::thousands(self.trials),
                crate::report::thousands(self.trials_spent),
                crate::report::thousands(self.trials * self.points.iter().filter(|p| p.trials > 0).count() as u64)
            )
        });
        if let Some(c) = &self.command {
            out.push(format!("The same from the command line: {c}"));
        }
        out
    }

    fn header(&self) -> String {
        format!(
            "Balance: {} in {} ({}), {} for {}",
            self.key, self.scenario, self.system, self.headline, self.target_from
        )
    }

    /// The values tried as table rows, header first: value, headline, gap to the target, and
    /// what it is (a crossing's end, the nearest, the value as set).
    pub fn rows(&self) -> Vec<Vec<String>> {
        let mut rows = vec![vec![
            crate::params::label(&self.key),
            self.headline_label().head,
            "vs target".to_string(),
            String::new(),
        ]];
        if !self.exact {
            rows[0].insert(3, "trials".into());
        }
        // A value once, as shown: a bisected crossing's two ends closer than the digits shown
        // are one row (the end nearer the target), not two with the same value.
        let mut all: Vec<&Point> = self.points.iter().collect();
        let gap = |p: &Point| p.gap.unwrap_or(f64::INFINITY).abs();
        for c in &self.crossings {
            let ends = if gap(&c.above) < gap(&c.below) {
                [&c.above, &c.below]
            } else {
                [&c.below, &c.above]
            };
            for p in ends {
                if !all
                    .iter()
                    .any(|q| q.value == p.value || self.value_text(q) == self.value_text(p))
                {
                    all.push(p);
                }
            }
        }
        for p in &self.simple {
            if !all
                .iter()
                .any(|q| q.value == p.value || self.value_text(q) == self.value_text(p))
            {
                all.push(p);
            }
        }
        if self.domain != "choice" && self.domain != "switch" {
            all.sort_by(|a, b| a.x.total_cmp(&b.x));
        }
        for p in all {
            let mut marks = Vec::new();
            if self
                .crossings
                .iter()
                .any(|c| c.hit && c.below.value == p.value)
            {
                marks.push("hits the target");
            } else if self
                .crossings
                .iter()
                .any(|c| c.below.value == p.value || c.above.value == p.value)
            {
                marks.push("brackets a crossing");
            }
            if self.nearest.as_ref().is_some_and(|n| n.value == p.value) {
                marks.push("nearest");
            }
            if self.simple.iter().any(|s| s.value == p.value) {
                marks.push("simple fraction");
            }
            if p.value == self.as_set {
                marks.push("as set");
            }
            let mut row = vec![
                self.value_text(p),
                self.at(p),
                p.gap.map(|g| self.show_gap(g)).unwrap_or_default(),
                marks.join(", "),
            ];
            if !self.exact {
                row.insert(
                    3,
                    if p.trials > 0 {
                        crate::report::thousands(p.trials)
                    } else {
                        String::new()
                    },
                );
            }
            rows.push(row);
        }
        rows
    }

    /// Render in `format`.
    pub fn render(&self, format: crate::report::Format) -> String {
        use crate::report::Format;
        match format {
            Format::Text => self.to_text(),
            Format::Markdown => self.to_markdown(),
            Format::Csv => self.to_csv(),
            Format::Json => {
                let mut s = serde_json::to_string_pretty(self).expect("balance serialises");
                s.push('\n');
                s
            }
        }
    }

    /// Aligned plain text.
    pub fn to_text(&self) -> String {
        let mut out = self.header() + "\n";
        for l in self.context_lines() {
            out += &crate::odds::wrap(&l, 100);
        }
        out += "\n";
        out += &crate::odds::wrap(&format!("Answer: {}", self.answer()), 100);
        out += "\n";
        out += &super::sensitivity::align_left(&self.rows(), 1);
        let refused = self.refused_lines();
        if !refused.is_empty() {
            out += "\n";
            for l in refused {
                out += &crate::odds::wrap(&l, 100);
            }
        }
        out
    }

    /// One line per value the system refused, with why.
    pub fn refused_lines(&self) -> Vec<String> {
        self.points
            .iter()
            .filter_map(|p| {
                p.refused
                    .as_ref()
                    .map(|why| format!("Refused {} = {}: {why}", self.key, p.value))
            })
            .collect()
    }

    /// Markdown: the answer, the context and the table.
    pub fn to_markdown(&self) -> String {
        let mut out = format!("### {}\n\n", self.header());
        out += &format!("**Answer.** {}\n\n", self.answer());
        for l in self.context_lines() {
            out += &format!("- {}\n", l.replace('|', "\\|"));
        }
        out += "\n";
        let rows = self.rows();
        for (i, r) in rows.iter().enumerate() {
            let cells: Vec<String> = r.iter().map(|c| c.replace('|', "\\|")).collect();
            out += &format!("| {} |\n", cells.join(" | "));
            if i == 0 {
                let marks: Vec<&str> = (0..r.len())
                    .map(|k| if k + 1 == r.len() { "---" } else { "---:" })
                    .collect();
                out += &format!("| {} |\n", marks.join(" | "));
            }
        }
        for l in self.refused_lines() {
            out += &format!("\n- {}", l.replace('|', "\\|"));
        }
        out
    }

    /// The CSV rows, header first: every value tried (the grid, the crossings' last brackets,
    /// the simple fractions), with the target and what each is.
    pub fn csv_rows(&self) -> Vec<Vec<String>> {
        let mut rows = vec![
            [
                "system",
                "scenario",
                "headline",
                "parameter",
                "value",
                "x",
                "headline_value",
                "exact",
                "target",
                "gap",
                "refused",
                "role",
                "trials",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
        ];
        let mut push = |p: &Point, role: &str| {
            rows.push(vec![
                self.system.clone(),
                self.scenario.clone(),
                self.headline.clone(),
                self.key.clone(),
                p.value.clone(),
                format!("{}", p.x),
                p.headline
                    .map(|h| format!("{}", h.value))
                    .unwrap_or_default(),
                p.headline.map(|h| h.exact.to_string()).unwrap_or_default(),
                format!("{}", self.target),
                p.gap.map(|g| format!("{g}")).unwrap_or_default(),
                p.refused.clone().unwrap_or_default(),
                role.to_string(),
                p.trials.to_string(),
            ]);
        };
        for p in &self.points {
            push(p, "tried");
        }
        for c in &self.crossings {
            if c.hit {
                push(&c.below, "hit");
            } else {
                push(&c.below, "crossing below");
                push(&c.above, "crossing above");
            }
        }
        for p in &self.simple {
            push(p, "simple fraction");
        }
        rows
    }

    /// The chart: the headline at each value of the grid tried (exact values drawn as a
    /// line), and the target as a flat line; where they cross is the answer.
    pub fn chart(&self) -> crate::report::chart::Chart {
        use crate::report::chart::{Chart, Estimate};
        let ran: Vec<&Point> = self.points.iter().collect();
        let est = |v: f64| Estimate {
            p: v,
            low: v,
            high: v,
            exact: Some(v),
        };
        let estimate = |v: &Value| {
            if v.exact {
                est(v.value)
            } else {
                Estimate {
                    p: v.value,
                    low: v.low.unwrap_or(v.value),
                    high: v.high.unwrap_or(v.value),
                    exact: None,
                }
            }
        };
        let target = match self.target_from.strip_prefix("the same under ") {
            Some(other) => format!("{other}'s {}", self.show_plain(self.target)),
            None => format!("{} ({})", self.show_plain(self.target), self.target_from),
        };
        let answer = match self.crossings.first() {
            None => format!("no value reaches {target}"),
            Some(c) => match (c.hit, c.root) {
                (true, _) if self.crossings.len() == 1 => {
                    format!("{target} is reached at {}, exactly", c.below.value)
                }
                (false, Some(r)) if self.crossings.len() == 1 => format!(
                    "{target} is reached at {}{r:.2}",
                    if self.exact { "" } else { "about " }
                ),
                _ if self.crossings.len() == 1 => format!(
                    "{target} lies between {} and {}",
                    c.below.value, c.above.value
                ),
                _ => format!("{target} is reached {} times", self.crossings.len()),
            },
        };
        Chart::Lines {
            title: format!(
                "{} at each {}: {answer}",
                crate::labels::capitalised(&self.headline_label().head),
                self.key_words(),
            ),
            x_label: format!("{} ({})", crate::params::label(&self.key), self.domain),
            x_values: ran.iter().map(|p| p.value.clone()).collect(),
            y_label: if self.is_share() {
                format!(
                    "chance {} (%)",
                    self.headline_label().noun.trim_start_matches("the chance ")
                )
            } else {
                self.headline_label().head
            },
            level: if self.exact {
                "exact".into()
            } else {
                format!("{}%", 100.0 * self.confidence)
            },
            steps: false,
            share: self.is_share(),
            series: vec![
                (
                    self.headline_label().head,
                    ran.iter()
                        .map(|p| p.headline.as_ref().map(estimate))
                        .collect(),
                ),
                (
                    "target".into(),
                    ran.iter().map(|_| Some(est(self.target))).collect(),
                ),
            ],
        }
    }

    /// The CSV table ([`Balance::csv_rows`]).
    pub fn to_csv(&self) -> String {
        csv_text(self.csv_rows())
    }
}
