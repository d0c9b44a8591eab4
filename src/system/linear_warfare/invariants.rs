//! The Age of Linear Warfare's invariants (LW-1, LW-5, LW-6), checked on every turn of its chains.

use super::rules::{LwState, LwStatus};
use crate::scenario::invariants::{Check, ensure};

/// LW-1 / LW-5 / LW-6: a Linear Warfare unit's pips and its general's from one turn to the
/// next. `removed` says whether each state is removed; `recovering` whether the unit spent the
/// turn recovering (it may then gain one pip); `start` is its starting pips.
pub fn lw_pips(
    start: u8,
    from: crate::system::linear_warfare::rules::Pips,
    to: crate::system::linear_warfare::rules::Pips,
    removed: [bool; 2],
    recovering: bool,
) -> Check {
    if removed[0] {
        return ensure(to == from && removed[1], || {
            format!("a removed unit changed: {from:?} → {to:?}")
        });
    }
    ensure(to.unit <= start, || {
        format!("{to:?} has more than its {start} pips")
    })?;
    let rise = u8::from(recovering);
    ensure(to.unit <= from.unit + rise, || {
        format!("pips rose without recovering (LW-5): {from:?} → {to:?}")
    })?;
    ensure(to.general <= from.general, || {
        format!("a general's pips rose: {from:?} → {to:?}")
    })?;
    ensure(to.unit > 0 || removed[1], || {
        format!("LW-1: a unit out of pips must be removed: {to:?}")
    })
}

/// [`lw_pips`] for a Linear Warfare unit's state of `start` pips: removed is its status, and it
/// may gain a pip only in a turn it began recovering.
pub fn lw_unit(start: u8, from: LwState, to: LwState) -> Check {
    let removed = [from.status, to.status].map(|s| s == LwStatus::Removed);
    lw_pips(
        start,
        from.pips,
        to.pips,
        removed,
        from.status == LwStatus::Recovering,
    )
}
