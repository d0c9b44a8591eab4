//! The search: the run asked for, the target, every value tried, the crossings bracketed and
//! bisected (exact) or the confidence set (Monte Carlo), and the answer's numbers.

use super::ask::{parameter, set_field, spec_field, with_value};
use super::domain::{Domain, invalid};
use super::{Ask, Balance, Crossing, FINE, GRID, HIT, Point, SEQUENTIAL, Target};
use crate::engine::Control;
use crate::error::{Error, Result};
use crate::experiment::sensitivity::{Value, default_headline, headline_value_as, typed};
use crate::frac::Frac;
use crate::params::{Input, Kind, ParamDef, Source};
use crate::report::{Report, rule_changes};
use crate::system;

/// The report of one setting (exact only, or by Monte Carlo from the run's seed and trials:
/// the same for every setting, so their differences share their noise), or why it has none.
fn report_of(
    ask: &Ask,
    system: &str,
    inputs: &[Input],
    options: &[String],
    play: bool,
    monte_carlo: bool,
    control: &Control,
) -> Result<std::result::Result<Report, String>> {
    report_with(
        ask,
        (system, inputs, options, play),
        monte_carlo,
        ask.run.spec.trials,
        control,
    )
}

/// One setting to run: its system, inputs, optional rules, and whether side A plays its best
/// choices there (`play = "optimal"`, solved exactly before the run).
type Setting<'a> = (&'a str, &'a [Input], &'a [String], bool);

/// [`report_of`] with `trials` trials where it runs by Monte Carlo (the same seed: a longer
/// run's trials begin with a shorter one's).
fn report_with(
    ask: &Ask,
    (system, inputs, options, play): Setting<'_>,
    monte_carlo: bool,
    trials: u64,
    control: &Control,
) -> Result<std::result::Result<Report, String>> {
    let mut job = match system::build(system, ask.scenario, inputs, options) {
        Ok(job) => job,
        Err(e) => return Ok(Err(e.to_string())),
    };
    // Under the best play, each setting's own: the choices are solved again wherever the
    // number moves, since what is best moves with it.
    if play {
        job = match job.played(&crate::play::Ask::hold_the_field(), control) {
            Ok((job, _)) => job,
            Err(Error::Cancelled) => return Err(Error::Cancelled),
            Err(e) => return Ok(Err(why_not(&e))),
        };
    }
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
    let (base, monte_carlo, why_estimates) = base_run(ask, control)?;
    let (headline, at_as_set) = headline_of(ask, sys, &base, monte_carlo)?;
    let metric = base.metrics.iter().find(|m| m.name == headline);
    let meaning = metric.map_or(format!("share of trials ending {headline}"), |m| {
        m.meaning.clone()
    });
    let (spec, as_set) = as_set_of(&base, def, field);
    let inputs_at = |value: &str| match (&spec, field) {
        (Some(spec), Some((_, f))) => {
            with_value(ask.inputs, def.key, false, &set_field(spec, f, value))
        }
        _ => with_value(ask.inputs, def.key, rule, value),
    };
    let runs = Runs {
        ask,
        control,
        monte_carlo,
        headline: &headline,
    };
    let (target, target_from, target_width) = runs.target(sys, metric.is_some())?;

    // Under Monte Carlo the values first run a sixteenth of the trials (at least 1,000), and
    // only those near the target run more (see below).
    let full = ask.run.spec.trials;
    let first = if monte_carlo {
        (full / SEQUENTIAL).max(1_000).min(full)
    } else {
        full
    };
    let tries = Tries {
        runs: &runs,
        inputs_at: &inputs_at,
        target,
        target_width,
        dom,
        first,
        full,
    };
    let (mut points, tolerance, range) = tries.first_values(def)?;
    let trials_spent = tries.sequential(&mut points)?;

    // Crossings: an exact hit, or a sign change between neighbours that both ran.
    let ran: Vec<&Point> = points.iter().filter(|p| p.gap.is_some()).collect();
    let ordered = !matches!(dom, Domain::Named);
    let mut crossings = crossings_of(&ran, ordered);
    // A continuous parameter: each bracket bisected to the tolerance.
    if !monte_carlo && matches!(dom, Domain::Chance(..) | Domain::Real(..)) {
        tries.bisect(&mut crossings, tolerance)?;
    }
    let (not_rejected, root_set) = if monte_carlo {
        tries.confidence_set(&points, &mut crossings)
    } else {
        (Vec::new(), None)
    };
    let simple = tries.simple(&crossings)?;
    let nearest = nearest_of(&ran, &crossings, &simple);
    let shape = shape_of(ordered, &ran);
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
        domain: domain_words(dom, def).into(),
        range,
        as_set,
        situation: ask
            .inputs
            .iter()
            .filter(|i| i.source != Source::Rule)
            .map(|i| format!("{}={}", i.key, i.value))
            .collect(),
        optimal_play: ask.optimal_play,
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

/// The headline (the one asked for, else the default) and its value in the run asked for.
fn headline_of(
    ask: &Ask,
    sys: &dyn system::RuleSystem,
    base: &Report,
    monte_carlo: bool,
) -> Result<(String, Value)> {
    let headline = match ask.headline {
        Some(h) => h.to_string(),
        None => default_headline(base),
    };
    let Some(at_as_set) = value_of(base, &headline, monte_carlo) else {
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
    Ok((headline, at_as_set))
}

/// The parameter's value in the run asked for; for a spec's field, the spec as set too.
fn as_set_of(
    base: &Report,
    def: &ParamDef,
    field: Option<(&str, &str)>,
) -> (Option<String>, String) {
    let as_set = base
        .rules
        .get(def.key)
        .or_else(|| base.params.get(def.key))
        .map(typed)
        .unwrap_or_else(|| def.default.to_string());
    // A spec's field: the spec as set, and the field's value in it.
    match field {
        None => (None, as_set),
        Some((_, f)) => {
            let given = spec_field(&as_set, f).unwrap_or_else(|| "not given".into());
            (Some(as_set), given)
        }
    }
}

/// The run asked for: exact where it solves, else (or when asked) Monte Carlo throughout; and
/// why its values are estimates, when they are.
fn base_run(ask: &Ask, control: &Control) -> Result<(Report, bool, Option<String>)> {
    Ok(
        match if ask.monte_carlo {
            Ok(Err(String::new()))
        } else {
            report_of(
                ask,
                ask.system,
                ask.inputs,
                ask.options,
                ask.optimal_play,
                false,
                control,
            )
        }? {
            Ok(r) => (r, false, None),
            Err(_) if ask.run.exact_only => {
                return Err(Error::Conflict(
                "this setting has no exact solution here, and --exact-only was asked: leave it out to search by Monte Carlo".into(),
            ));
            }
            Err(why) => {
                let r = match report_of(
                    ask,
                    ask.system,
                    ask.inputs,
                    ask.options,
                    ask.optimal_play,
                    true,
                    control,
                )? {
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
        },
    )
}

/// The kind of value searched, in words.
fn domain_words(dom: Domain, def: &ParamDef) -> &'static str {
    match dom {
        Domain::Whole(..) => "whole number",
        Domain::Chance(..) => "chance",
        Domain::Real(..) => "number",
        Domain::Named if def.kind == Kind::Bool => "switch",
        Domain::Named => "choice",
    }
}

/// The runs of a search: what is asked, how it runs, and the headline it measures.
struct Runs<'s> {
    ask: &'s Ask<'s>,
    control: &'s Control,
    /// Every value runs by Monte Carlo.
    monte_carlo: bool,
    headline: &'s str,
}

impl Runs<'_> {
    /// The headline in another run (under its system's word for the same end).
    fn measure(
        &self,
        system: &str,
        inputs: &[Input],
        options: &[String],
        play: bool,
        across: bool,
    ) -> Result<(Value, String)> {
        let Runs {
            ask,
            control,
            monte_carlo,
            headline,
        } = *self;
        let r = match report_of(ask, system, inputs, options, play, monte_carlo, control)? {
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
            .find(|o| crate::experiment::compare::same_outcome(o, headline))
            .unwrap_or(headline)
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
    }

    /// The target (and, by Monte Carlo, its interval's half-width).
    fn target(&self, sys: &dyn system::RuleSystem, is_metric: bool) -> Result<(f64, String, f64)> {
        let (ask, headline) = (self.ask, self.headline);
        let mut target_width = 0.0;
        let (target, target_from) = match &ask.target {
            Target::Number(t) => {
                if !is_metric && !(0.0..=1.0).contains(t) {
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
                let (value, from, width) =
                    self.setting_target(sys, inputs, options, other_system)?;
                target_width = width;
                (value, from)
            }
            Target::Variant {
                name,
                system: theirs,
                inputs,
                options,
                optimal_play,
            } => {
                let across = system::find(theirs)?.name() != sys.name();
                let (v, their_headline) =
                    self.measure(theirs, inputs, options, *optimal_play, across)?;
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
        Ok((target, target_from, target_width))
    }

    /// A target in another setting: the run asked for with inputs replaced, other optional
    /// rules, or under another system (its value, its words, its interval's half-width).
    fn setting_target(
        &self,
        sys: &dyn system::RuleSystem,
        inputs: &[Input],
        options: &Option<Vec<String>>,
        other_system: &Option<String>,
    ) -> Result<(f64, String, f64)> {
        let (ask, headline) = (self.ask, self.headline);
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
        // `--against` takes a rule parameter as it takes the situation's (KEY=VALUE either way).
        other.extend(inputs.iter().map(|i| match i.source {
            Source::Set if target_sys.rule_params().iter().any(|p| p.key == i.key) => {
                Input::rule(&i.key, i.value.clone())
            }
            _ => i.clone(),
        }));
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
        let (v, their_headline) = self.measure(
            target_system,
            &other,
            &opts,
            ask.optimal_play,
            across.is_some(),
        )?;
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
        let target_width = half_width(&v);
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
        Ok((
            v.value,
            format!("the same{}{with}", under.unwrap_or_default()),
            target_width,
        ))
    }
}

/// The values tried: each a run of the setting asked for with the parameter at that value,
/// its headline against the target.
struct Tries<'s> {
    runs: &'s Runs<'s>,
    /// The inputs of the run asked for with the parameter at a value.
    inputs_at: &'s dyn Fn(&str) -> Vec<Input>,
    target: f64,
    /// The target's interval's half-width (0 unless an estimate).
    target_width: f64,
    dom: Domain,
    /// Trials every value runs first (by Monte Carlo).
    first: u64,
    /// Trials asked for.
    full: u64,
}

impl Tries<'_> {
    /// The headline at `value` (`x` as a number) with `trials` trials by Monte Carlo.
    fn at(&self, value: String, x: f64, trials: u64) -> Result<Point> {
        let Runs {
            ask,
            control,
            monte_carlo,
            headline,
        } = *self.runs;
        let target = self.target;
        let inputs = (self.inputs_at)(&value);
        let spent = if monte_carlo { trials } else { 0 };
        Ok(
            match report_with(
                ask,
                (ask.system, &inputs, ask.options, ask.optimal_play),
                monte_carlo,
                trials,
                control,
            )? {
                Ok(r) => match value_of(&r, headline, monte_carlo) {
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
    }

    /// The headline at `value` with the first stage's trials.
    fn value(&self, value: String, x: f64) -> Result<Point> {
        self.at(value, x, self.first)
    }

    /// Whether `p`'s interval (widened by the target's) holds the target.
    fn held(&self, p: &Point) -> bool {
        let (target, target_width) = (self.target, self.target_width);
        p.headline.as_ref().is_some_and(|v| {
            let w = (half_width(v).powi(2) + target_width.powi(2)).sqrt();
            (v.value - target).abs() <= w
        })
    }

    /// Every value of the domain tried (a continuous one on its grid), the tolerance of a root,
    /// and the range as values.
    #[allow(clippy::type_complexity)]
    fn first_values(&self, def: &ParamDef) -> Result<(Vec<Point>, f64, (String, String))> {
        let dom = self.dom;
        let mut points = Vec::new();
        let mut tolerance = 0.0;
        let range: (String, String);
        match dom {
            Domain::Whole(lo, hi) => {
                range = (lo.to_string(), hi.to_string());
                for v in lo..=hi {
                    points.push(self.value(v.to_string(), v as f64)?);
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
                    points.push(self.value(n, i as f64)?);
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
                    points.push(self.value(text, x)?);
                }
                tolerance = 1.0 / FINE as f64;
            }
            Domain::Real(lo, hi) => {
                range = (format!("{lo}"), format!("{hi}"));
                for k in 0..=GRID {
                    let x = lo + (hi - lo) * k as f64 / GRID as f64;
                    points.push(self.value(format!("{x}"), x)?);
                }
                tolerance = (hi - lo) * 1e-9;
            }
        }
        Ok((points, tolerance, range))
    }

    // The sequential search: while trials remain, the values still undecided — whose
    // interval (widened by the target's) holds the target, and the two ends of every sign
    // change — run four times the trials, up to the full count; the others are already
    // decided and keep what they have.
    /// The sequential search by Monte Carlo; the trials run in all.
    fn sequential(&self, points: &mut [Point]) -> Result<u64> {
        let (dom, first, full, monte_carlo) =
            (self.dom, self.first, self.full, self.runs.monte_carlo);
        let mut trials = first;
        let mut trials_spent: u64 = points.iter().map(|p| p.trials).sum();
        while monte_carlo && trials < full {
            trials = trials.saturating_mul(4).min(full);
            let ordered = !matches!(dom, Domain::Named);
            let ran: Vec<usize> = (0..points.len())
                .filter(|&i| points[i].gap.is_some())
                .collect();
            let mut undecided: Vec<usize> = ran
                .iter()
                .copied()
                .filter(|&i| self.held(&points[i]))
                .collect();
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
                points[i] = self.at(points[i].value.clone(), points[i].x, trials)?;
                trials_spent += points[i].trials;
            }
        }
        Ok(trials_spent)
    }

    /// Each bracket of a continuous parameter bisected to the tolerance.
    fn bisect(&self, crossings: &mut [Crossing], tolerance: f64) -> Result<()> {
        let dom = self.dom;
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
                let m = self.value(text, x)?;
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
        Ok(())
    }

    // By Monte Carlo: a continuous crossing's root where the line between its ends meets the
    // target; and the values not rejected — those whose interval (widened by the target's,
    // when it is an estimate too) holds the target — as the confidence set for the root.
    /// By Monte Carlo: the values not rejected, and a continuous parameter's set for the root.
    fn confidence_set(
        &self,
        points: &[Point],
        crossings: &mut [Crossing],
    ) -> (Vec<String>, Option<(f64, f64)>) {
        let (dom, target, target_width) = (self.dom, self.target, self.target_width);
        let mut root_set = None;
        let not_rejected = points
            .iter()
            .filter(|p| self.held(p))
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
        (not_rejected, root_set)
    }

    // Each continuous root's nearest simple fraction (a denominator up to 36, as two dice
    // give), solved too: the value a rulebook would print.
    /// The simple fractions nearest the roots of a chance, solved (exact only).
    fn simple(&self, crossings: &[Crossing]) -> Result<Vec<Point>> {
        let (dom, monte_carlo) = (self.dom, self.runs.monte_carlo);
        let mut simple = Vec::new();
        if let Domain::Chance(lo, hi) = dom
            && !monte_carlo
        {
            for c in crossings {
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
                    simple.push(self.value(f.to_string(), f.value())?);
                }
            }
        }
        Ok(simple)
    }
}

/// The crossings: an exact hit, or a sign change between neighbours that both ran.
fn crossings_of(ran: &[&Point], ordered: bool) -> Vec<Crossing> {
    let mut crossings = Vec::new();
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
    crossings
}

/// The value tried (of every value, bracket end and simple fraction) nearest the target.
fn nearest_of(ran: &[&Point], crossings: &[Crossing], simple: &[Point]) -> Option<Point> {
    let candidates: Vec<&Point> = ran
        .iter()
        .copied()
        .chain(crossings.iter().flat_map(|c| [&c.below, &c.above]))
        .chain(simple)
        .collect();
    candidates
        .iter()
        .min_by(|a, b| {
            a.gap
                .unwrap_or(f64::INFINITY)
                .abs()
                .total_cmp(&b.gap.unwrap_or(f64::INFINITY).abs())
                .then(a.x.total_cmp(&b.x))
        })
        .map(|p| (*p).clone())
}

/// Whether the headline rises, falls, both or neither over the values tried in order.
fn shape_of(ordered: bool, ran: &[&Point]) -> String {
    if !ordered {
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
    }
}
