//! RF-10 and RF-11: the charged unit's waiver test, stampeding wagons, uncontrolled charges.

use super::*;
use crate::dice::Roll;

/// RF-10: does the charged unit take a waiver test? When charged in flank or rear by formed
/// troops; when foot charged frontally by shock troops (foot or mounted) of a better class,
/// unless in square or defending a linear obstacle or a building — and, in the Industrial Age,
/// not by shock cavalry; when skirmishers stand against formed troops. One test at most,
/// however many causes.
pub fn waiver_due(attacker: &Fighter, defender: &Fighter, frontal: bool, era: Era) -> bool {
    let formed = attacker.troop != Troop::Skirmisher;
    let flank_or_rear = !frontal && formed;
    // "Of a better class": the class itself, whatever numbers the rule parameters give it.
    let better = (attacker.unit.class as u8) < (defender.unit.class as u8);
    let industrial_cavalry = era == Era::Industrial && attacker.troop == Troop::Cavalry;
    let shock = frontal
        && defender.troop.is_foot()
        && attacker.shock
        && better
        && !industrial_cavalry
        && !defender.square
        && !defender.obstacle
        && !defender.unit.in_buildings;
    let skirmishers_stand = defender.troop == Troop::Skirmisher && formed;
    flank_or_rear || shock || skirmishers_stand
}

/// RF-10: the waiver test's result: Good + fail → Unsteady on the spot; Unsteady + fail →
/// routs. It is taken like any morale test, with all the usual modifiers (the unit's leader,
/// buildings and situational `modifier`, losses). Returns the new state and whether it failed.
#[inline]
pub fn waiver<R: Roll>(unit: &Unit, o: &Options, mut s: UnitState, r: &mut R) -> (UnitState, bool) {
    let high_stakes = s.status != Status::Good;
    if unit.test_state(unit.need(s.lost), &mut s, high_stakes, r) {
        return (s, false);
    }
    match s.status {
        // "It will become unsteady on the spot": it keeps its place.
        Status::Good => {
            s.status = Status::Unsteady;
            s.in_place = true;
        }
        _ => s = unit.routs(s, false),
    }
    (unit.apply_fifty_percent(o, s), true)
}

/// What a charge phase's waiver test leaves of its target (RF-10, with RF-8's stampede).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaiverEnd {
    /// It stands (passed, or Unsteady on the spot): the melee may follow.
    Stands,
    /// It broke and routed (or the 50% rule removed it): no melee.
    Broke,
    /// An elephant that failed stampeded (RF-8): it counts as routing; no melee.
    Stampeded,
    /// It routed, the charger pursued and contacted it: destroyed (`pursue`).
    Caught,
}

/// How a charge's waiver test plays out beyond the test itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct WaiverRules {
    /// RF-8 in force (option `elephant-stampede`): a failed waiver test may start a stampede.
    pub stampede: bool,
    /// RF-10 `pursue`: the charger pursues a target that routed, which is destroyed on contact.
    pub pursue: bool,
}

/// RF-10: a charge's waiver test, taken like any morale test ([`waiver`]). An elephant that
/// fails it may stampede (RF-8, read as "morale, rally and waiver tests"), counting as routing;
/// a target that routed is destroyed when the charger pursues it ("as this target has already
/// moved this phase if it is contacted it will be destroyed"). Returns the new state, whether
/// the test failed, and what came of it.
#[inline]
pub fn charge_waiver<R: Roll>(
    unit: &Unit,
    o: &Options,
    rules: WaiverRules,
    s: UnitState,
    r: &mut R,
) -> (UnitState, bool, WaiverEnd) {
    let (mut s, failed) = waiver(unit, o, s, r);
    if failed
        && rules.stampede
        && unit.numbers.waiver_stampede
        && unit.kind == Kind::Elephant
        && s.status != Status::Removed
        && stampedes(unit, r)
    {
        s.away(Status::Routing);
        return (s, failed, WaiverEnd::Stampeded);
    }
    let end = match s.status {
        Status::Routing if rules.pursue => {
            s.remove(Removal::Caught);
            WaiverEnd::Caught
        }
        Status::Routing | Status::Removed => WaiverEnd::Broke,
        _ => WaiverEnd::Stands,
    };
    (s, failed, end)
}

/// RF-8 (option `elephant-stampede`): after a failed morale test (never a rally test) an
/// elephant stampedes on a D6 roll of 1 or 2 (`stampede_on`, the unit's [`Numbers`]). RF-10
/// reads every morale test as a morale or waiver test, so a failed waiver test may start a
/// stampede too.
#[inline]
pub fn stampedes<R: Roll>(unit: &Unit, r: &mut R) -> bool {
    r.d6() <= unit.numbers.stampede_on
}

/// RF-12 (option `uncontrolled`): a winner rolls a D6 and must charge next turn on a roll at or
/// below its uncontrolled number.
#[inline]
pub fn uncontrolled<R: Roll>(number: u8, r: &mut R) -> bool {
    number > 0 && r.d6() <= number
}
