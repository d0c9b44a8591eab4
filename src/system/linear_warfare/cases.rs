//! The benchmark cases of the Linear Warfare rules (see `crate::system::cases`).

use crate::scenario::Scenario;
use crate::system::cases::BenchCase;

/// One realistic setup of each scenario, at the sizes the speed figures of docs/PERFORMANCE.md name.
pub(super) const CASES: &[BenchCase] = &[
    BenchCase {
        name: "test LW melee round",
        scenario: Scenario::Test,
        set: &[],
        options: &[],
    },
    BenchCase {
        name: "under-fire LW line 12 turns",
        scenario: Scenario::UnderFire,
        set: &["turns=12"],
        options: &[],
    },
    BenchCase {
        name: "melee LW guards charging v line behind obstacle",
        scenario: Scenario::Melee,
        set: &[
            "attacker=guards pips=7 charging",
            "defender=line pips=5 obstacle",
        ],
        options: &[],
    },
    BenchCase {
        name: "engagement LW 1 v 1",
        scenario: Scenario::Engagement,
        set: &["attacker=line", "defender=line"],
        options: &[],
    },
    BenchCase {
        name: "line LW 6 v 6",
        scenario: Scenario::Line,
        set: &["attacker=6 x line", "defender=6 x line"],
        options: &[],
    },
];

/// The largest realistic units for its exact solvers.
pub(super) const EXACT_CASES: &[BenchCase] = &[
    BenchCase {
        name: "exact under-fire LW guards 7 pips general 24 turns",
        scenario: Scenario::UnderFire,
        set: &["type=guards", "pips=7", "general=true", "turns=24"],
        options: &[],
    },
    BenchCase {
        name: "exact melee LW guards 7 pips v 7 pips 12 v 12 stands",
        scenario: Scenario::Melee,
        set: &[
            "attacker=guards pips=7 stands=12 charging",
            "defender=guards pips=7 stands=12",
        ],
        options: &[],
    },
    BenchCase {
        name: "exact engagement LW defaults 12 turns",
        scenario: Scenario::Engagement,
        set: &[],
        options: &[],
    },
];
