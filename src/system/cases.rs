//! The benchmark cases: one realistic setup of every scenario in every system, and the largest
//! realistic units for the exact solvers. `morale-lab bench` and the criterion benches
//! (`benches/scenarios.rs`) both run these, through the same builders as the command line.

use crate::error::Result;
use crate::params::Input;
use crate::scenario::Job;

/// One benchmark case: a scenario of a system with `--set` pairs and `--option`s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Case {
    /// A short name (words such as `rally`, `RF` select it on the command line).
    pub name: &'static str,
    /// The system's name.
    pub system: &'static str,
    /// The scenario's name.
    pub scenario: &'static str,
    /// `KEY=VALUE` pairs, as `--set` takes them.
    pub set: &'static [&'static str],
    /// Optional rules in force.
    pub options: &'static [&'static str],
}

impl Case {
    /// The case's job, built as the command line builds it.
    ///
    /// # Errors
    /// Never for the cases here (a test builds them all); the builders' errors otherwise.
    pub fn job(&self) -> Result<Box<dyn Job>> {
        let inputs: Vec<Input> = self
            .set
            .iter()
            .map(|p| Input::parse_set(p))
            .collect::<Result<_>>()?;
        let options: Vec<String> = self.options.iter().map(|s| s.to_string()).collect();
        super::build(self.system, self.scenario, &inputs, &options)
    }
}

const fn case(
    name: &'static str,
    system: &'static str,
    scenario: &'static str,
    set: &'static [&'static str],
    options: &'static [&'static str],
) -> Case {
    Case {
        name,
        system,
        scenario,
        set,
        options,
    }
}

const RF: &str = "rank-and-file";
const EF: &str = "effectiveness";
const LW: &str = "linear-warfare";

/// Every scenario × system, at the sizes the speed targets in the README name: `rally` a routing
/// Veteran unit of 7 stands with 2 lost (turn cap 100); `under-fire` 12 turns; `melee` the
/// README's matches; `line` 6 v 6 regular units.
pub const CASES: &[Case] = &[
    case("test RF regular morale test", RF, "test", &[], &[]),
    case("test EF regular test", EF, "test", &[], &[]),
    case("test LW melee round", LW, "test", &[], &[]),
    case(
        "rally RF veteran 7 stands 2 lost routing",
        RF,
        "rally",
        &[
            "class=veteran",
            "stands=7",
            "lost=2",
            "state=routing",
            "turns=100",
        ],
        &[],
    ),
    case(
        "rally EF regular retreating",
        EF,
        "rally",
        &["turns=100"],
        &[],
    ),
    case(
        "under-fire RF regular 8 stands 12 turns",
        RF,
        "under-fire",
        &["class=regular", "stands=8", "turns=12"],
        &[],
    ),
    case(
        "under-fire EF regular 12 turns retreat-on-fire",
        EF,
        "under-fire",
        &["class=regular", "turns=12"],
        &["retreat-on-fire"],
    ),
    case(
        "under-fire LW line 12 turns",
        LW,
        "under-fire",
        &["turns=12"],
        &[],
    ),
    case(
        "melee RF veteran cavalry v regular infantry",
        RF,
        "melee",
        &[
            "attacker=veteran cavalry stands=6",
            "defender=regular infantry",
        ],
        &[],
    ),
    case("melee EF regular v regular", EF, "melee", &[], &[]),
    case(
        "melee LW guards charging v line behind obstacle",
        LW,
        "melee",
        &[
            "attacker=guards pips=7 charging",
            "defender=line pips=5 obstacle",
        ],
        &[],
    ),
    case(
        "charge RF veteran cavalry v regular infantry",
        RF,
        "charge",
        &[
            "attacker=veteran cavalry stands=6",
            "defender=regular infantry",
        ],
        &["waiver-tests", "blown-cavalry", "uncontrolled"],
    ),
    case(
        "engagement RF 1 v 1",
        RF,
        "engagement",
        &["attacker=regular infantry", "defender=regular infantry"],
        &[],
    ),
    case(
        "engagement EF 1 v 1",
        EF,
        "engagement",
        &["attacker=regular", "defender=regular"],
        &["retreat-on-fire"],
    ),
    case(
        "engagement LW 1 v 1",
        LW,
        "engagement",
        &["attacker=line", "defender=line"],
        &[],
    ),
    case(
        "line RF 6 v 6",
        RF,
        "line",
        &[
            "attacker=6 x regular infantry",
            "defender=6 x regular infantry",
        ],
        &[],
    ),
    case(
        "line EF 6 v 6",
        EF,
        "line",
        &["attacker=6 x regular", "defender=6 x regular"],
        &[],
    ),
    case(
        "line LW 6 v 6",
        LW,
        "line",
        &["attacker=6 x line", "defender=6 x line"],
        &[],
    ),
];

/// The largest realistic units for each exact solver (each should take under 100 ms): Rank & File
/// units of 12 stands over 24 turns, Linear Warfare's 7-pip Guards, melees of 12 v 12 stands.
pub const EXACT_CASES: &[Case] = &[
    case(
        "exact rally RF 12 stands 24 turns",
        RF,
        "rally",
        &["stands=12", "state=routing", "turns=24", "rerolls=3"],
        &[],
    ),
    case(
        "exact under-fire RF 12 stands 24 turns",
        RF,
        "under-fire",
        &["stands=12", "turns=24", "rerolls=3", "fire_dice=8"],
        &[],
    ),
    case(
        "exact under-fire EF 24 turns retreat-on-fire",
        EF,
        "under-fire",
        &["turns=24", "p_blocked=1/6"],
        &["retreat-on-fire"],
    ),
    case(
        "exact under-fire LW guards 7 pips general 24 turns",
        LW,
        "under-fire",
        &["type=guards", "pips=7", "general=true", "turns=24"],
        &[],
    ),
    case(
        "exact melee RF 12 v 12 stands",
        RF,
        "melee",
        &[
            "attacker=regular infantry stands=12",
            "defender=regular infantry stands=12",
        ],
        &[],
    ),
    case(
        "exact charge RF 12 v 12 stands",
        RF,
        "charge",
        &[
            "attacker=veteran cavalry stands=12",
            "defender=regular infantry stands=12",
        ],
        &["waiver-tests", "blown-cavalry", "uncontrolled"],
    ),
    case(
        "exact melee EF regular v regular 12 dice",
        EF,
        "melee",
        &["attacker=regular dice=12", "defender=regular dice=12"],
        &[],
    ),
    case(
        "exact melee LW guards 7 pips v 7 pips 12 v 12 stands",
        LW,
        "melee",
        &[
            "attacker=guards pips=7 stands=12 charging",
            "defender=guards pips=7 stands=12",
        ],
        &[],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_builds_and_every_scenario_of_every_system_has_one() {
        for c in CASES.iter().chain(EXACT_CASES) {
            c.job().unwrap_or_else(|e| panic!("{}: {e}", c.name));
        }
        for info in super::super::SYSTEMS {
            for s in info.scenarios() {
                assert!(
                    CASES
                        .iter()
                        .any(|c| c.system == info.name() && c.scenario == *s),
                    "no case for {} {s}",
                    info.name()
                );
            }
        }
    }
}
