//! `test`: one morale, rally or waiver test (RULES.md §4).

use crate::dice::Roll;
use crate::rules::rank_and_file as rf;
use crate::scenario::chain::{Chain, ClassInfo, ValueInfo};

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

const TEST_VALUES: [ValueInfo; 1] = [ValueInfo {
    name: "rerolled",
    max: 1,
}];

/// RF-2 with RF-3 and RF-6: one Rank & File test of a unit in a given state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RfTest {
    /// The unit.
    pub unit: rf::Unit,
    /// Its state when it tests (stands lost, re-rolls left).
    pub state: rf::UnitState,
}

impl Chain for RfTest {
    type State = TestState;
    fn start(&self) -> TestState {
        TestState::Untested
    }
    fn turns(&self) -> u32 {
        1
    }
    fn step<R: Roll>(&self, _s: TestState, r: &mut R) -> TestState {
        let mut rerolls = self.state.rerolls;
        let (passed, rerolled) =
            self.unit
                .test_detail(self.unit.need(self.state.lost), &mut rerolls, r);
        TestState::Done { passed, rerolled }
    }
    fn classes(&self) -> &[ClassInfo] {
        &TEST_CLASSES
    }
    fn class_of(&self, s: TestState) -> usize {
        match s {
            TestState::Done { passed: true, .. } => 0,
            TestState::Done { passed: false, .. } => 1,
            TestState::Untested => 2,
        }
    }
    fn values(&self) -> &[ValueInfo] {
        &TEST_VALUES
    }
    fn value_of(&self, s: TestState, _i: usize) -> u32 {
        u32::from(matches!(s, TestState::Done { rerolled: true, .. }))
    }
}

/// EF-2: one test of an effectiveness-rules unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EfTest {
    /// The unit.
    pub unit: crate::rules::effectiveness::Unit,
}

impl Chain for EfTest {
    type State = TestState;
    fn start(&self) -> TestState {
        TestState::Untested
    }
    fn turns(&self) -> u32 {
        1
    }
    fn step<R: Roll>(&self, _s: TestState, r: &mut R) -> TestState {
        TestState::Done {
            passed: self.unit.test(r),
            rerolled: false,
        }
    }
    fn classes(&self) -> &[ClassInfo] {
        &TEST_CLASSES
    }
    fn class_of(&self, s: TestState) -> usize {
        match s {
            TestState::Done { passed: true, .. } => 0,
            TestState::Done { passed: false, .. } => 1,
            TestState::Untested => 2,
        }
    }
    fn values(&self) -> &[ValueInfo] {
        &[]
    }
    fn value_of(&self, _s: TestState, _i: usize) -> u32 {
        0
    }
}
