//! What is asked: the parameter solved for (a situation's or a rule's number, or a field of a
//! unit spec), checked before anything runs, and the inputs of a run with it set to a value.

use super::domain::{Domain, domain, invalid};
use super::{Ask, Target};
use crate::error::Result;
use crate::params::{Input, Kind, ParamDef, Source};
use crate::scenario::Scenario;
use crate::system;

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

/// The inputs of the run asked for with `key` set to `value`.
pub(super) fn with_value(inputs: &[Input], key: &str, rule: bool, value: &str) -> Vec<Input> {
    let mut out: Vec<Input> = inputs.iter().filter(|i| i.key != key).cloned().collect();
    out.push(Input {
        key: key.into(),
        value: value.into(),
        source: if rule { Source::Rule } else { Source::Set },
    });
    out
}

/// The value of `field` in unit spec `spec` (its `field=N` word), if given.
pub(super) fn spec_field(spec: &str, field: &str) -> Option<String> {
    spec.split_whitespace()
        .rev()
        .find_map(|w| w.strip_prefix(field)?.strip_prefix('=').map(str::to_string))
}

/// Unit spec `spec` with its `field` set to `value`: the `field=…` words replaced by one, or
/// one added.
pub(super) fn set_field(spec: &str, field: &str, value: &str) -> String {
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

/// The parameter solved for: its system, definition, whether it is a rule parameter, a unit
/// spec's field when one is named (`attacker.leader`), and the values searched.
pub(super) type Solved<'a> = (
    &'static dyn system::RuleSystem,
    &'static ParamDef,
    bool,
    Option<(&'a str, &'a str)>,
    Domain,
);

pub(super) fn parameter<'a>(ask: &Ask<'a>) -> Result<Solved<'a>> {
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
