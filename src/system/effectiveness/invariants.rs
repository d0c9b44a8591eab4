//! The effectiveness rules' invariants (EF-1, EF-4), checked on every turn of their chains.

use super::rules as ef;
use crate::scenario::invariants::{Check, ensure};

/// EF-1 / EF-4: one turn of an effectiveness-rules unit, `hits_per_quarter` (`hits_per_step`) hits
/// costing a step.
pub fn ef_unit(hits_per_quarter: u8, from: ef::UnitState, to: ef::UnitState) -> Check {
    if from.status == ef::Status::Eliminated {
        return ensure(to == from, || {
            format!("an eliminated unit changed: {from:?} → {to:?}")
        });
    }
    // The start is checked below the rule's `steps`; from there effectiveness only falls.
    ensure(to.quarters <= from.quarters, || {
        format!("effectiveness rose: {from:?} → {to:?}")
    })?;
    ensure(
        to.quarters > 0 || to.status == ef::Status::Eliminated,
        || format!("EF-1: a unit at 0% must be eliminated: {to:?}"),
    )?;
    ensure(
        to.status == ef::Status::Eliminated || to.hits < hits_per_quarter.max(1),
        || format!("{to:?} holds a whole quarter's hits ({hits_per_quarter})"),
    )
}
