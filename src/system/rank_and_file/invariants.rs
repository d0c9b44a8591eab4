//! Rank & File's rule invariants (RF-2 to RF-7), checked on every turn of its chains.

use super::rules as rf;
use crate::scenario::invariants::{Check, ensure};

/// RF-2 to RF-7: one turn (or melee round) of a Rank & File `unit` that started the trial in
/// `start`, from `from` to `to`, under `options`.
pub fn rf_unit(
    unit: &rf::Unit,
    options: &rf::Options,
    start: &rf::UnitState,
    from: rf::UnitState,
    to: rf::UnitState,
) -> Check {
    use rf::Status::{Removed, Routing};
    if from.status == Removed {
        return ensure(to == from, || {
            format!("a removed unit changed: {from:?} → {to:?}")
        });
    }
    ensure(to.lost >= from.lost, || {
        format!("lost stands came back: {from:?} → {to:?}")
    })?;
    ensure(unit.stands_lost(to) <= unit.stands, || {
        format!("{to:?} has lost more than its {} stands", unit.stands)
    })?;
    ensure(
        to.rerolls <= from.rerolls && to.rerolls <= start.rerolls,
        || format!("re-rolls came back: {from:?} → {to:?}"),
    )?;
    ensure((to.status as i32) >= (from.status as i32) - 1, || {
        format!("rose more than one level in a turn: {from:?} → {to:?}")
    })?;
    ensure(
        !(to.status == Routing && unit.broken(to.lost) && !options.keep_broken_units),
        || format!("RF-3: a routing unit at 50% losses must be removed: {to:?}"),
    )
}
