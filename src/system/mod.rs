//! The rule systems as the command line and experiments see them: names, scenarios,
//! parameters and optional rules, and how a choice of them becomes a runnable [`Job`].

pub mod effectiveness;
pub mod linear_warfare;
pub mod rank_and_file;

use crate::error::{Error, Result};
use crate::params::{Input, OptionDef, ParamDef, Resolved};
use crate::scenario::fire::Fire;
use crate::scenario::{Describe, Job};

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
    /// The keywords of its unit specs (`--attacker`, `--defender`).
    pub specs: &'static str,
}

/// Every rule system.
pub static SYSTEMS: [SystemInfo; 3] = [
    SystemInfo {
        name: rank_and_file::NAME,
        title: "Rank & File: morale classes, the 50% rule, unsteady/routing, rally, re-rolls, single stands, melee, charges and the supplement's options",
        rules: "RF-1 to RF-12",
        scenarios: rank_and_file::SCENARIOS,
        params: &rank_and_file::PARAMS,
        options: &rank_and_file::OPTIONS,
        holes: rank_and_file::HOLES,
        specs: rank_and_file::SPEC_KEYWORDS,
    },
    SystemInfo {
        name: effectiveness::NAME,
        title: "The 25% effectiveness house rule (tests, melee, blocked retreats), with the retreat amendment as an option",
        rules: "EF-1 to EF-5",
        scenarios: effectiveness::SCENARIOS,
        params: &effectiveness::PARAMS,
        options: &effectiveness::OPTIONS,
        holes: effectiveness::HOLES,
        specs: effectiveness::SPEC_KEYWORDS,
    },
    SystemInfo {
        name: linear_warfare::NAME,
        title: "The Age of Linear Warfare: pips, fire, opposed-roll melee with follow-up, falling back",
        rules: "LW-1 to LW-7",
        scenarios: linear_warfare::SCENARIOS,
        params: &linear_warfare::PARAMS,
        options: &linear_warfare::OPTIONS,
        holes: linear_warfare::HOLES,
        specs: linear_warfare::SPEC_KEYWORDS,
    },
];

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
        "melee",
        "two units fight a melee to its end: rank-and-file RF-9 rounds until one side causes more casualties; effectiveness EF-3 rounds a turn until one suffers more hits; linear-warfare charge, closing fire, opposed rounds with follow-up.",
        &[
            "attacker_wins",
            "defender_wins",
            "mutual_destruction (rank-and-file, effectiveness)",
            "bounce (linear-warfare)",
        ],
    ),
    (
        "charge",
        "a rank-and-file charge: waiver test (RF-10), melee (RF-9), uncontrolled test for the winner (RF-12), blown marker (RF-11).",
        &[
            "target_broke",
            "attacker_wins",
            "defender_wins",
            "mutual_destruction",
        ],
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
        return Err(unsupported(info.name, info.scenarios, scenario));
    }
    match info.name {
        rank_and_file::NAME => rank_and_file::build(scenario, inputs, options),
        effectiveness::NAME => effectiveness::build(scenario, inputs, options),
        linear_warfare::NAME => linear_warfare::build(scenario, inputs, options),
        _ => unreachable!("every listed system has a builder"),
    }
}

/// The error for a scenario a system does not have.
fn unsupported(system: &str, scenarios: &[&str], scenario: &str) -> Error {
    Error::Unsupported {
        scenario: scenario.into(),
        system: system.into(),
        available: scenarios.join(", "),
    }
}

/// Names and every parameter in force, for a report.
fn describe(
    system: &str,
    scenario: &str,
    p: &Resolved,
    options: &[String],
    notes: Vec<String>,
) -> Describe {
    Describe {
        system: system.into(),
        scenario: scenario.into(),
        params: p.to_json(),
        options: options.to_vec(),
        notes,
    }
}

/// The enemy's fire of `under-fire` from the keys `fire_dice`, `fire_to_hit` and `fire_loss`
/// (an explicit distribution of losses per turn, which replaces the dice).
///
/// # Errors
/// Both models given at once, or a distribution that does not add up to 1.
pub(crate) fn fire_model(p: &Resolved) -> Result<Fire> {
    let table = p.dist("fire_loss");
    if table.is_empty() {
        return Ok(Fire::dice(
            p.int("fire_dice") as u32,
            p.int("fire_to_hit") as u8,
        ));
    }
    let given_dice = p.what("fire_dice");
    if given_dice.starts_with("--set") {
        return Err(Error::Conflict(format!(
            "--set fire_loss and {given_dice} are two fire models: give one of them"
        )));
    }
    Fire::table(table).ok_or_else(|| Error::Invalid {
        what: p.what("fire_loss"),
        value: table
            .iter()
            .map(|f| f.to_string())
            .collect::<Vec<_>>()
            .join(","),
        allowed: "the chances must add up to exactly 1".into(),
    })
}
