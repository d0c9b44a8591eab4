//! The benchmark cases of the Rank & File rules (see `crate::system::cases`).

use crate::scenario::Scenario;
use crate::system::cases::BenchCase;

/// One realistic setup of each scenario, at the sizes the speed figures of docs/PERFORMANCE.md name.
pub(super) const CASES: &[BenchCase] = &[
    BenchCase {
        name: "test RF regular morale test",
        scenario: Scenario::Test,
        set: &[],
        options: &[],
    },
    BenchCase {
        name: "rally RF veteran 7 stands 2 lost routing 100 turns",
        scenario: Scenario::Rally,
        set: &[
            "class=veteran",
            "stands=7",
            "lost=2",
            "state=routing",
            "turns=100",
        ],
        options: &[],
    },
    BenchCase {
        name: "under-fire RF regular 8 stands 12 turns",
        scenario: Scenario::UnderFire,
        set: &["class=regular", "stands=8", "turns=12"],
        options: &[],
    },
    BenchCase {
        name: "melee RF veteran cavalry v regular infantry",
        scenario: Scenario::Melee,
        set: &[
            "attacker=veteran cavalry stands=6",
            "defender=regular infantry",
        ],
        options: &[],
    },
    BenchCase {
        name: "charge RF veteran cavalry v regular infantry",
        scenario: Scenario::Charge,
        set: &[
            "attacker=veteran cavalry stands=6",
            "defender=regular infantry",
        ],
        options: &["waiver-tests", "blown-cavalry", "uncontrolled"],
    },
    BenchCase {
        name: "engagement RF 1 v 1",
        scenario: Scenario::Engagement,
        set: &["attacker=regular infantry", "defender=regular infantry"],
        options: &[],
    },
    BenchCase {
        name: "line RF 6 v 6",
        scenario: Scenario::Line,
        set: &[
            "attacker=6 x regular infantry",
            "defender=6 x regular infantry",
        ],
        options: &[],
    },
];

/// The largest realistic units for its exact solvers.
pub(super) const EXACT_CASES: &[BenchCase] = &[
    BenchCase {
        name: "exact rally RF 12 stands 24 turns",
        scenario: Scenario::Rally,
        set: &["stands=12", "state=routing", "turns=24", "rerolls=3"],
        options: &[],
    },
    BenchCase {
        name: "exact under-fire RF 12 stands 24 turns",
        scenario: Scenario::UnderFire,
        set: &["stands=12", "turns=24", "rerolls=3", "fire_dice=8"],
        options: &[],
    },
    BenchCase {
        name: "exact melee RF 12 v 12 stands",
        scenario: Scenario::Melee,
        set: &[
            "attacker=regular infantry stands=12",
            "defender=regular infantry stands=12",
        ],
        options: &[],
    },
    BenchCase {
        name: "exact charge RF 12 v 12 stands",
        scenario: Scenario::Charge,
        set: &[
            "attacker=veteran cavalry stands=12",
            "defender=regular infantry stands=12",
        ],
        options: &["waiver-tests", "blown-cavalry", "uncontrolled"],
    },
    BenchCase {
        name: "exact engagement RF defaults 12 turns",
        scenario: Scenario::Engagement,
        set: &[],
        options: &[],
    },
];
