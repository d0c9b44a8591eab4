//! `test` (docs/RULES.md §4): one Rank & File morale, rally or waiver test (RF-2, RF-3, RF-6).

use super::rules as rf;
use super::{Ctx, unit};
use crate::chain::{Chain, ClassInfo, ValueInfo};
use crate::dice::Roll;
use crate::error::Result;
use crate::scenario::invariants::{Check, ensure};
use crate::scenario::test::{TEST_CLASSES, TestState};
use crate::scenario::{ChainJob, Job, MetricDef, OutcomeDef};

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
        // RF-6 `reroll_when`: a failure of a shaken unit's test would rout or remove it.
        let high_stakes = self.state.status != rf::Status::Good;
        let mut rerolls = self.unit.pool_for(high_stakes, self.state.rerolls);
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

/// The job of `test`: one test of the unit (RF-2 to RF-6).
pub(super) fn job(ctx: &Ctx) -> Result<Box<dyn Job>> {
    let (b, notes) = unit::single(ctx)?;
    let chain = RfTest {
        unit: b.unit,
        state: b.start,
    };
    let outcomes = OutcomeDef::each(chain.classes(), &["pass", "fail"]);
    Ok(Box::new(ChainJob::new(
        chain,
        ctx.setup.describe(notes),
        outcomes,
        vec![MetricDef::Value {
            name: "rerolled",
            meaning: "share of tests in which a re-roll was taken (Elite or commander)",
        }],
        vec![],
    )))
}
