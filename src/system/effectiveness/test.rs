//! `test` (docs/RULES.md §4): one test of the effectiveness rules (EF-2).

use super::{Ctx, unit};
use crate::dice::Roll;
use crate::error::Result;
use crate::scenario::chain::{Chain, ClassInfo, ValueInfo};
use crate::scenario::invariants::{Check, ensure};
use crate::scenario::test::{TEST_CLASSES, TestState};
use crate::scenario::{ChainJob, Job, OutcomeDef};

/// EF-2: one test of an effectiveness-rules unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EfTest {
    /// The unit.
    pub unit: crate::system::effectiveness::rules::Unit,
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

/// The job of `test`: one test of the unit (EF-2).
pub(super) fn job(ctx: &Ctx) -> Result<Box<dyn Job>> {
    let (_, u, _, notes) = unit::single(ctx)?;
    let chain = EfTest { unit: u };
    let outcomes = OutcomeDef::each(chain.classes(), &["pass", "fail"]);
    Ok(Box::new(ChainJob::new(
        chain,
        ctx.describe(notes),
        outcomes,
        vec![],
        vec![],
    )))
}
