//! The benchmark cases of the effectiveness rules (see `crate::system::cases`).

use crate::scenario::Scenario;
use crate::system::cases::BenchCase;

/// One realistic setup of each scenario, at the sizes the speed figures of docs/PERFORMANCE.md name.
pub(super) const CASES: &[BenchCase] = &[
    BenchCase {
        name: "test EF regular test",
        scenario: Scenario::Test,
        set: &[],
        options: &[],
    },
    BenchCase {
        name: "rally EF regular retreating",
        scenario: Scenario::Rally,
        set: &["turns=100"],
        options: &[],
    },
    BenchCase {
        name: "under-fire EF regular 12 turns retreat-on-fire return-roll",
        scenario: Scenario::UnderFire,
        set: &["class=regular", "turns=12"],
        options: &["retreat-on-fire", "return-roll"],
    },
    BenchCase {
        name: "melee EF regular v regular",
        scenario: Scenario::Melee,
        set: &[],
        options: &[],
    },
    BenchCase {
        name: "engagement EF 1 v 1",
        scenario: Scenario::Engagement,
        set: &["attacker=regular", "defender=regular"],
        options: &["retreat-on-fire", "return-roll"],
    },
    BenchCase {
        name: "line EF 6 v 6",
        scenario: Scenario::Line,
        set: &["attacker=6 x regular", "defender=6 x regular"],
        options: &[],
    },
];

/// The largest realistic units for its exact solvers.
pub(super) const EXACT_CASES: &[BenchCase] = &[
    BenchCase {
        name: "exact under-fire EF 24 turns retreat-on-fire return-roll",
        scenario: Scenario::UnderFire,
        set: &["turns=24", "p_blocked=1/6"],
        options: &["retreat-on-fire", "return-roll"],
    },
    BenchCase {
        name: "exact melee EF regular v regular 12 dice",
        scenario: Scenario::Melee,
        set: &["attacker=regular dice=12", "defender=regular dice=12"],
        options: &[],
    },
    BenchCase {
        name: "exact engagement EF defaults 12 turns",
        scenario: Scenario::Engagement,
        set: &[],
        options: &[],
    },
];
