//! `under-fire`: a unit holds its place in the line under enemy fire for T turns, with every
//! test its rules call for (RULES.md §4).

use crate::dice::Roll;
use crate::rules::rank_and_file as rf;
use crate::scenario::chain::{Chain, ClassInfo, ValueInfo};
use crate::scenario::fire::Fire;
use crate::scenario::rally::{rf_class, rf_value, rf_values};

/// Classes of a Rank & File unit under fire: only removal ends a trial early. Unsteady (it
/// retires, RF-4), routing and removed units leave their place in the line empty.
pub const RF_UNDER_FIRE_CLASSES: [ClassInfo; 4] = [
    ClassInfo {
        name: "good",
        absorbing: false,
        empty: false,
    },
    ClassInfo {
        name: "unsteady",
        absorbing: false,
        empty: true,
    },
    ClassInfo {
        name: "routing",
        absorbing: false,
        empty: true,
    },
    ClassInfo {
        name: "removed",
        absorbing: true,
        empty: true,
    },
];

/// A Rank & File unit under fire. Each turn follows RF-13: rally phase (RF-5) for an Unsteady
/// or Routing unit; the enemy's fire; then, if the unit lost a stand (or a single stand took a
/// hit), its morale test (RF-5, RF-7) and the 50% rule (RF-3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RfUnderFire {
    /// The unit.
    pub unit: rf::Unit,
    /// The optional rules in force.
    pub options: rf::Options,
    /// Its state at the start.
    pub start: rf::UnitState,
    /// Turns of fire.
    pub turns: u32,
    /// The enemy's fire each turn, in stands (formed) or hits (single stands).
    pub fire: Fire,
    /// The enemy keeps firing at the unit while it is Unsteady.
    pub fire_on_unsteady: bool,
    /// The enemy keeps firing at the unit while it is Routing.
    pub fire_on_routing: bool,
    values: [ValueInfo; 2],
}

impl RfUnderFire {
    /// A unit under `fire` for `turns` turns.
    pub fn new(
        unit: rf::Unit,
        options: rf::Options,
        start: rf::UnitState,
        turns: u32,
        fire: Fire,
        fire_on_unsteady: bool,
        fire_on_routing: bool,
    ) -> Self {
        RfUnderFire {
            values: rf_values(&unit, &start),
            unit,
            options,
            start,
            turns,
            fire,
            fire_on_unsteady,
            fire_on_routing,
        }
    }
}

impl Chain for RfUnderFire {
    type State = rf::UnitState;
    fn start(&self) -> rf::UnitState {
        self.start
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    #[inline]
    fn step<R: Roll>(&self, s: rf::UnitState, r: &mut R) -> rf::UnitState {
        let s = self.unit.rally(&self.options, s, r);
        let targeted = match s.status {
            rf::Status::Good => true,
            rf::Status::Unsteady => self.fire_on_unsteady,
            rf::Status::Routing => self.fire_on_routing,
            rf::Status::Removed => false,
        };
        if !targeted {
            return s;
        }
        let hits = self.fire.sample(r).min(u32::from(u8::MAX)) as u8;
        if hits == 0 {
            return s;
        }
        let s = self.unit.take_hits(s, hits);
        self.unit.morale(&self.options, s, r)
    }
    fn classes(&self) -> &[ClassInfo] {
        &RF_UNDER_FIRE_CLASSES
    }
    #[inline]
    fn class_of(&self, s: rf::UnitState) -> usize {
        rf_class(s)
    }
    fn values(&self) -> &[ValueInfo] {
        &self.values
    }
    fn value_of(&self, s: rf::UnitState, i: usize) -> u32 {
        rf_value(&self.unit, &self.start, s, i)
    }
}
