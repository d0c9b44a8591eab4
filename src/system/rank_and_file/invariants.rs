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
    ensure((to.status == Removed) == to.removal.is_some(), || {
        format!("a removal without its cause, or a cause without removal: {to:?}")
    })?;
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

#[cfg(test)]
mod tests {
    /// The invariants are not vacuous: a broken transition is caught (a unit that got a stand back,
    /// a removed unit that acted, a rise of two levels).
    #[test]
    fn the_invariants_catch_broken_turns() {
        use crate::system::rank_and_file::invariants::rf_unit;
        use crate::system::rank_and_file::rules::{Class, Kind, Status, Unit, UnitState};
        let job_unit = Unit {
            class: Class::Regular,
            kind: Kind::Formed,
            stands: 6,
            elite: false,
            leader: 0,
            in_buildings: false,
            buildings_bonus: 1,
            modifier: 0,
            hit_points: 3,
            numbers: Default::default(),
        };
        let options = Default::default();
        let s = |status, lost| UnitState::new(status, lost, 0);
        let start = s(Status::Good, 0);
        let turn = |from, to| rf_unit(&job_unit, &options, &start, from, to);
        assert!(turn(s(Status::Good, 0), s(Status::Unsteady, 1)).is_ok());
        for (from, to, why) in [
            (s(Status::Good, 2), s(Status::Good, 1), "a stand came back"),
            (
                s(Status::Removed, 2),
                s(Status::Routing, 2),
                "a removed unit acted",
            ),
            (s(Status::Routing, 1), s(Status::Good, 1), "rose two levels"),
            (
                s(Status::Routing, 2),
                s(Status::Routing, 3),
                "RF-3: routing at 3 of 6 lost",
            ),
        ] {
            assert!(turn(from, to).is_err(), "{why}");
        }
    }
}
