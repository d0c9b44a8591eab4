//! `test` (docs/RULES.md §4): one test of the effectiveness rules (EF-2).

use super::{Ctx, unit};
use crate::chain::{Chain, ClassInfo, ValueInfo};
use crate::dice::Roll;
use crate::error::Result;
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
        ctx.setup.describe(notes),
        outcomes,
        vec![],
        vec![],
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::effectiveness::rules::{Class, Troop, Unit};

    /// The table sampler's weights for one test (EF-2: a regular passes on 4+): one D6, so six
    /// sequences over 6, the same chances as the exact solver's. (Caught the mutants that
    /// made `integer_transitions` give up, and the one that multiplied the denominators
    /// instead of taking their least common multiple: 6⁶ for six paths over 6.)
    #[test]
    fn one_test_in_integer_weights_over_six() {
        let chain = EfTest {
            unit: Unit {
                class: Class::Regular,
                general: false,
                supported: false,
                natural_one_fails: false,
                return_on: 5,
                troop: Troop::Infantry,
                return_roll: true,
                retreat_turns: 1,
                numbers: Default::default(),
            },
        };
        let s = chain.start();
        let (moves, total) = crate::exact::integer_transitions(&chain, s).unwrap();
        assert_eq!(total, 6);
        assert_eq!(moves.iter().map(|m| m.1).sum::<u64>(), 6);
        let float = crate::exact::transitions(&chain, s);
        assert_eq!(moves.len(), float.len());
        for ((a, w), (b, p)) in moves.iter().zip(&float) {
            assert_eq!(a, b);
            assert!((*w as f64 / 6.0 - p).abs() < 1e-15);
        }
        assert_eq!(moves.iter().map(|m| m.1).collect::<Vec<_>>(), vec![3, 3]);
    }
}
