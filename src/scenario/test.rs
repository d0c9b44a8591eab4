//! `test`: one morale, rally or waiver test (docs/RULES.md §4).

use crate::chain::ClassInfo;

/// Classes of a one-test chain: the test passed or failed (both end the trial).
pub const TEST_CLASSES: [ClassInfo; 3] = [
    ClassInfo {
        name: "pass",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "fail",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "untested",
        absorbing: false,
        empty: false,
    },
];

/// The state of a one-test trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TestState {
    /// Before the test.
    Untested,
    /// After it: passed or not, and whether a re-roll was taken.
    Done {
        /// The test was passed.
        passed: bool,
        /// A re-roll was taken (RF-6).
        rerolled: bool,
    },
}

impl TestState {
    /// Its index in [`TEST_CLASSES`].
    pub fn class(self) -> usize {
        match self {
            TestState::Done { passed: true, .. } => 0,
            TestState::Done { passed: false, .. } => 1,
            TestState::Untested => 2,
        }
    }
}
