//! `under-fire` (docs/RULES.md §4): an effectiveness-rules unit holds its place under enemy fire.

use super::rules as ef;
use crate::dice::{Roll, Weights};
use crate::scenario::chain::{Chain, ClassInfo, ValueInfo};
use crate::scenario::fire::Fire;
use crate::scenario::invariants::Check;

/// Classes of an effectiveness-rules unit under fire: only elimination ends a trial early; a
/// retreating or eliminated unit leaves its place in the line empty.
pub const EF_UNDER_FIRE_CLASSES: [ClassInfo; 3] = [
    ClassInfo {
        name: "in_line",
        absorbing: false,
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

/// The enemy a unit exchanges fire with, for EF-5's exception: its class and modifiers for its
/// own test, and the fire our unit returns. Its strength is not tracked: each turn it loses a
/// quarter when our volley scores `hits_per_quarter` hits or more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enemy {
    /// Its profile for the test.
    pub unit: ef::Unit,
    /// Our unit's fire at it, while our unit is in the line.
    pub fire: Fire,
}

/// An effectiveness-rules unit under fire (built with its fields named). Each turn: a retreating unit rolls to return to
/// normal action (EF-5); the enemy fires (not at a retreating unit out of its range); a unit
/// that lost 25% or more this turn tests (EF-2) and on a failure loses a further 25%; under
/// `retreat-on-fire` it also retreats (EF-5) — unless the enemy it exchanged fire with also
/// lost effectiveness and failed its test — and a blocked retreat eliminates it (EF-4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EfUnderFire {
    /// The unit.
    pub unit: ef::Unit,
    /// Its state at the start.
    pub start: ef::UnitState,
    /// Turns of fire.
    pub turns: u32,
    /// The enemy's fire each turn, in hits.
    pub fire: Fire,
    /// Hits that cost 25%.
    pub hits_per_quarter: u8,
    /// Option `retreat-on-fire` (EF-5).
    pub retreat_on_fire: bool,
    /// The enemy, for the exception to the retreat.
    pub enemy: Enemy,
    /// EF-4: the chance a retreat's path is blocked, as a two-outcome table (clear, blocked);
    /// `None` when it is never blocked.
    pub blocked: Option<Weights>,
    /// EF-5: a retreating unit is out of the enemy's range.
    pub retreat_out_of_range: bool,
}

/// The value each trial reports, at most `steps` (EF-1), by `steps` from 0 to 8.
const VALUES: [[ValueInfo; 1]; 9] = {
    const fn lost(max: u32) -> [ValueInfo; 1] {
        [ValueInfo {
            name: "quarters_lost",
            max,
        }]
    }
    [
        lost(0),
        lost(1),
        lost(2),
        lost(3),
        lost(4),
        lost(5),
        lost(6),
        lost(7),
        lost(8),
    ]
};

impl EfUnderFire {
    /// Whether the enemy lost a quarter to our volley this turn and failed its test.
    #[inline(always)]
    fn enemy_failed<R: Roll>(&self, r: &mut R) -> bool {
        self.enemy.fire.sample(r) >= u32::from(self.hits_per_quarter) && !self.enemy.unit.test(r)
    }
}

impl Chain for EfUnderFire {
    type State = ef::UnitState;
    /// EF-1 / EF-4 (see [`super::invariants::ef_unit`]).
    fn check_step(&self, from: ef::UnitState, to: ef::UnitState) -> Check {
        super::invariants::ef_unit(self.hits_per_quarter, from, to)
    }
    fn start(&self) -> ef::UnitState {
        self.start
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    #[inline]
    fn step<R: Roll>(&self, mut s: ef::UnitState, r: &mut R) -> ef::UnitState {
        if s.status == ef::Status::Retreating && self.unit.back_in_action(&mut s, r) {
            s.status = ef::Status::InLine;
        }
        let fired_at = match s.status {
            ef::Status::InLine => true,
            ef::Status::Retreating => !self.retreat_out_of_range,
            ef::Status::Eliminated => false,
        };
        if !fired_at {
            return s;
        }
        let in_line = s.status == ef::Status::InLine;
        let (s, lost) = self
            .unit
            .take_hits(s, self.fire.sample(r), self.hits_per_quarter);
        if lost == 0 || s.status == ef::Status::Eliminated || self.unit.test(r) {
            return s;
        }
        let s = self.unit.lose_quarter(s);
        if !self.retreat_on_fire || s.status == ef::Status::Eliminated {
            return s;
        }
        // The exception: the enemy we exchanged fire with (only while we were in the line to
        // fire back) also lost effectiveness and failed its test.
        if in_line && self.enemy_failed(r) {
            return s;
        }
        ef::retreat(&self.unit, s, self.blocked.as_ref(), r)
    }
    fn classes(&self) -> &[ClassInfo] {
        &EF_UNDER_FIRE_CLASSES
    }
    #[inline]
    fn class_of(&self, s: ef::UnitState) -> usize {
        s.status as usize
    }
    fn values(&self) -> &[ValueInfo] {
        &VALUES[usize::from(self.unit.numbers.steps).min(8)]
    }
    fn value_of(&self, s: ef::UnitState, _i: usize) -> u32 {
        u32::from(self.start.quarters - s.quarters)
    }
}
