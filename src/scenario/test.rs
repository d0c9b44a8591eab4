//! `test`: one morale, rally or waiver test (RULES.md §4).

use crate::dice::Roll;
use crate::rules::rank_and_file as rf;
use crate::scenario::chain::{Chain, ClassInfo, ValueInfo};
use crate::scenario::invariants::{Check, ensure};

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
    /// RF-2 / RF-3 / RF-6: one test, taken once; a re-roll only when the unit has one; a
    /// formed unit at 50% losses never passes.
    fn check_step(&self, from: TestState, to: TestState) -> Check {
        ensure(
            from == TestState::Untested && to != TestState::Untested,
            || format!("a test is taken once: {from:?} → {to:?}"),
        )?;
        if let TestState::Done { passed, rerolled } = to {
            ensure(
                !rerolled || self.unit.elite || self.state.rerolls > 0,
                || "a re-roll without an Elite unit or a commander's re-roll (RF-6)".into(),
            )?;
            ensure(!passed || !self.unit.broken(self.state.lost), || {
                "a unit at 50% losses passed a test (RF-3)".into()
            })?;
        }
        Ok(())
    }
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
        s.class()
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
    /// EF-2: one test, taken once, with no re-rolls in these rules.
    fn check_step(&self, from: TestState, to: TestState) -> Check {
        ensure(
            from == TestState::Untested
                && matches!(
                    to,
                    TestState::Done {
                        rerolled: false,
                        ..
                    }
                ),
            || format!("a test is taken once, without re-rolls: {from:?} → {to:?}"),
        )
    }
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
        s.class()
    }
    fn values(&self) -> &[ValueInfo] {
        &[]
    }
    fn value_of(&self, _s: TestState, _i: usize) -> u32 {
        0
    }
}

/// Classes of an opposed melee round (LW-4).
pub const ROUND_CLASSES: [ClassInfo; 4] = [
    ClassInfo {
        name: "win",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "draw",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "lose",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "untested",
        absorbing: false,
        empty: false,
    },
];

const fn hits_class(name: &'static str) -> ClassInfo {
    ClassInfo {
        name,
        absorbing: true,
        empty: false,
    }
}

/// Classes of a volley: its number of hits (up to 24 dice), then "untested".
pub const VOLLEY_CLASSES: [ClassInfo; 26] = [
    hits_class("hits_0"),
    hits_class("hits_1"),
    hits_class("hits_2"),
    hits_class("hits_3"),
    hits_class("hits_4"),
    hits_class("hits_5"),
    hits_class("hits_6"),
    hits_class("hits_7"),
    hits_class("hits_8"),
    hits_class("hits_9"),
    hits_class("hits_10"),
    hits_class("hits_11"),
    hits_class("hits_12"),
    hits_class("hits_13"),
    hits_class("hits_14"),
    hits_class("hits_15"),
    hits_class("hits_16"),
    hits_class("hits_17"),
    hits_class("hits_18"),
    hits_class("hits_19"),
    hits_class("hits_20"),
    hits_class("hits_21"),
    hits_class("hits_22"),
    hits_class("hits_23"),
    hits_class("hits_24"),
    ClassInfo {
        name: "untested",
        absorbing: false,
        empty: false,
    },
];

/// The most dice a volley test takes.
pub const MAX_VOLLEY_DICE: u32 = 24;

/// What an Age of Linear Warfare `test` is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LwTest {
    /// LW-4: one opposed melee round; the difference is the first side's modifiers minus the
    /// second's.
    Round {
        /// Modifier difference.
        difference: i32,
    },
    /// LW-2: one volley of `dice` dice hitting on `to_hit`+.
    Volley {
        /// Dice rolled (at most [`MAX_VOLLEY_DICE`]).
        dice: u32,
        /// The roll each die needs.
        to_hit: u8,
        /// Its hit table.
        table: crate::dice::Weights,
    },
}

/// The state of an LW test: before, or the result's class index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LwTestState(pub Option<u8>);

const VOLLEY_VALUES: [ValueInfo; 1] = [ValueInfo {
    name: "hits",
    max: MAX_VOLLEY_DICE,
}];

impl Chain for LwTest {
    type State = LwTestState;
    /// LW-2 / LW-4: one roll, taken once.
    fn check_step(&self, from: LwTestState, to: LwTestState) -> Check {
        ensure(from.0.is_none() && to.0.is_some(), || {
            format!("a roll is made once: {from:?} → {to:?}")
        })
    }
    fn start(&self) -> LwTestState {
        LwTestState(None)
    }
    fn turns(&self) -> u32 {
        1
    }
    fn step<R: Roll>(&self, _s: LwTestState, r: &mut R) -> LwTestState {
        LwTestState(Some(match self {
            LwTest::Round { difference } => {
                match crate::rules::linear_warfare::opposed(*difference, r) {
                    std::cmp::Ordering::Greater => 0,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 2,
                }
            }
            LwTest::Volley { table, .. } => r.pick(table) as u8,
        }))
    }
    fn classes(&self) -> &[ClassInfo] {
        match self {
            LwTest::Round { .. } => &ROUND_CLASSES,
            LwTest::Volley { .. } => &VOLLEY_CLASSES,
        }
    }
    fn class_of(&self, s: LwTestState) -> usize {
        match s.0 {
            Some(c) => usize::from(c),
            None => self.classes().len() - 1,
        }
    }
    fn values(&self) -> &[ValueInfo] {
        match self {
            LwTest::Round { .. } => &[],
            LwTest::Volley { .. } => &VOLLEY_VALUES,
        }
    }
    fn value_of(&self, s: LwTestState, _i: usize) -> u32 {
        u32::from(s.0.unwrap_or(0))
    }
}
