//! `rally`: a shaken unit tries each turn to recover until it is back in good order, gone, or
//! the turn cap is reached (RULES.md §4).

use crate::dice::Roll;
use crate::rules::rank_and_file as rf;
use crate::scenario::chain::{Chain, ClassInfo, ValueInfo};
use crate::scenario::invariants::{self, Check};

/// Classes of a Rank & File unit in `rally`: back to Good ends the trial, as does removal.
/// Routing and removed units leave their place in the line empty, and so does an Unsteady one,
/// which retires (RF-4).
pub const RF_RALLY_CLASSES: [ClassInfo; 4] = [
    ClassInfo {
        name: "good",
        absorbing: true,
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

/// Values read off a Rank & File unit's final state.
pub fn rf_values(unit: &rf::Unit, start: &rf::UnitState) -> [ValueInfo; 2] {
    [
        ValueInfo {
            name: "stands_lost",
            max: u32::from(unit.stands),
        },
        ValueInfo {
            name: "rerolls_used",
            max: u32::from(start.rerolls),
        },
    ]
}

/// The class index of a Rank & File state (the order of [`RF_RALLY_CLASSES`]).
#[inline]
pub fn rf_class(s: rf::UnitState) -> usize {
    s.status as usize
}

/// Value `i` of [`rf_values`] for state `s`.
pub fn rf_value(unit: &rf::Unit, start: &rf::UnitState, s: rf::UnitState, i: usize) -> u32 {
    match i {
        0 => u32::from(unit.stands_lost(s)),
        _ => u32::from(start.rerolls - s.rerolls),
    }
}

/// RF-5 rally phase, once a turn, for a Rank & File unit (nothing else happens to it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RfRally {
    /// The unit.
    pub unit: rf::Unit,
    /// The optional rules in force.
    pub options: rf::Options,
    /// Its state at the start.
    pub start: rf::UnitState,
    /// The turn cap.
    pub turns: u32,
    values: [ValueInfo; 2],
}

impl RfRally {
    /// A rally trial for `unit` starting in `start`, for at most `turns` turns.
    pub fn new(unit: rf::Unit, options: rf::Options, start: rf::UnitState, turns: u32) -> Self {
        RfRally {
            values: rf_values(&unit, &start),
            unit,
            options,
            start,
            turns,
        }
    }
}

impl Chain for RfRally {
    type State = rf::UnitState;
    /// RF-3 to RF-6 (see [`invariants::rf_unit`]).
    fn check_step(&self, from: rf::UnitState, to: rf::UnitState) -> Check {
        invariants::rf_unit(&self.unit, &self.options, &self.start, from, to)
    }
    fn start(&self) -> rf::UnitState {
        self.start
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    #[inline]
    fn step<R: Roll>(&self, s: rf::UnitState, r: &mut R) -> rf::UnitState {
        self.unit.rally(&self.options, s, r)
    }
    fn classes(&self) -> &[ClassInfo] {
        &RF_RALLY_CLASSES
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

/// Classes of an effectiveness-rules unit in `rally`: back in the line ends the trial; a
/// retreating unit's place is empty.
pub const EF_RALLY_CLASSES: [ClassInfo; 3] = [
    ClassInfo {
        name: "in_line",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "retreating",
        absorbing: false,
        empty: true,
    },
    ClassInfo {
        name: "eliminated",
        absorbing: true,
        empty: true,
    },
];

/// EF-5: a retreating unit rolls at the start of each of its moves to return to normal action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EfRally {
    /// The unit.
    pub unit: crate::rules::effectiveness::Unit,
    /// Its state at the start.
    pub start: crate::rules::effectiveness::UnitState,
    /// The turn cap.
    pub turns: u32,
}

impl Chain for EfRally {
    type State = crate::rules::effectiveness::UnitState;
    /// EF-5: only the status moves, from retreating back into the line; strength stays.
    fn check_step(&self, from: Self::State, to: Self::State) -> Check {
        invariants::ensure(to.quarters == from.quarters && to.hits == from.hits, || {
            format!("strength changed in a rally: {from:?} → {to:?}")
        })?;
        invariants::ef_unit(u8::MAX, from, to)
    }
    fn start(&self) -> Self::State {
        self.start
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    #[inline]
    fn step<R: Roll>(&self, mut s: Self::State, r: &mut R) -> Self::State {
        use crate::rules::effectiveness::Status;
        if s.status == Status::Retreating && self.unit.roll_to_return(r) {
            s.status = Status::InLine;
        }
        s
    }
    fn classes(&self) -> &[ClassInfo] {
        &EF_RALLY_CLASSES
    }
    #[inline]
    fn class_of(&self, s: Self::State) -> usize {
        s.status as usize
    }
    fn values(&self) -> &[ValueInfo] {
        &[]
    }
    fn value_of(&self, _s: Self::State, _i: usize) -> u32 {
        0
    }
}
