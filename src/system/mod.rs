//! The rule systems as the command line and experiments see them: names, scenarios,
//! parameters and optional rules, and how a choice of them becomes a runnable [`Job`].

pub mod rank_and_file;

use crate::error::{Error, Result};
use crate::params::{Input, OptionDef, ParamDef};
use crate::scenario::Job;

/// What `morale-lab list` says about one rule system.
#[derive(Debug, Clone, Copy)]
pub struct SystemInfo {
    /// The name used with `--system`.
    pub name: &'static str,
    /// A one-line description.
    pub title: &'static str,
    /// The RULES.md ids it models.
    pub rules: &'static str,
    /// Its scenarios.
    pub scenarios: &'static [&'static str],
    /// Its parameters.
    pub params: &'static [ParamDef],
    /// Its optional rules.
    pub options: &'static [OptionDef],
    /// Which states count as a hole in the line, and why.
    pub holes: &'static str,
}

/// Every rule system.
pub static SYSTEMS: [SystemInfo; 1] = [SystemInfo {
    name: rank_and_file::NAME,
    title: "Rank & File: morale classes, the 50% rule, unsteady/routing, rally, re-rolls, single stands",
    rules: "RF-1 to RF-7",
    scenarios: rank_and_file::SCENARIOS,
    params: &rank_and_file::PARAMS,
    options: &rank_and_file::OPTIONS,
    holes: rank_and_file::HOLES,
}];

/// Every scenario: its name, what one trial is (RULES.md §4), and its outcomes.
pub const SCENARIO_INFO: &[(&str, &str, &[&str])] = &[
    (
        "test",
        "one morale / rally / waiver test of a unit in a given state.",
        &["pass", "fail"],
    ),
    (
        "rally",
        "a shaken unit takes its rally test each turn until back in good order, removed, or the turn cap.",
        &["recovered", "removed", "unrecovered"],
    ),
    (
        "under-fire",
        "a unit holds its place in the line under enemy fire for some turns, with every test its rules call for; per-turn state shares and holes in the line.",
        &["good", "unsteady", "routing", "removed"],
    ),
];

/// Look a system up by name.
///
/// # Errors
/// [`Error::Invalid`] naming `--system` and the systems there are.
pub fn find(name: &str) -> Result<&'static SystemInfo> {
    SYSTEMS
        .iter()
        .find(|s| s.name == name)
        .ok_or_else(|| Error::Invalid {
            what: "--system".into(),
            value: name.into(),
            allowed: format!(
                "systems are {}",
                SYSTEMS
                    .iter()
                    .map(|s| s.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
}

/// Build a runnable scenario of a system from the user's inputs and optional rules.
///
/// # Errors
/// An unknown system or scenario, or any input the system's parameters reject.
pub fn build(
    system: &str,
    scenario: &str,
    inputs: &[Input],
    options: &[String],
) -> Result<Box<dyn Job>> {
    let info = find(system)?;
    if !info.scenarios.contains(&scenario) {
        return Err(Error::Unsupported {
            scenario: scenario.into(),
            system: system.into(),
            available: info.scenarios.join(", "),
        });
    }
    match info.name {
        rank_and_file::NAME => rank_and_file::build(scenario, inputs, options),
        _ => unreachable!("every listed system has a builder"),
    }
}
